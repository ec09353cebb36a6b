/* In-memory files for the MJCF reader (gsVFS): an <include> or an asset file named in the model is
 * taken from here before the disk, so that a model and its files can travel as bytes. */
#include <stdlib.h>
#include <string.h>

#include "xml_internal.h"

typedef struct {
  char* name;
  void* data;
  size_t n;
} VfsFile;

struct gsVFS {
  int n, cap;
  VfsFile* file;
};

gsVFS* gs_vfsNew(void) { return calloc(1, sizeof(gsVFS)); }

void gs_vfsFree(gsVFS* vfs) {
  if (!vfs) return;
  for (int i = 0; i < vfs->n; i++) {
    free(vfs->file[i].name);
    free(vfs->file[i].data);
  }
  free(vfs->file);
  free(vfs);
}

/* "./a/./b" and "a//b" name the same file as "a/b" */
static size_t normalize(const char* in, char* out, size_t cap) {
  size_t k = 0;
  const char* p = in;
  while (*p) {
    if (p[0] == '.' && p[1] == '/' && (p == in || p[-1] == '/')) {
      p += 2;
      continue;
    }
    if (p[0] == '/' && k > 0 && out[k - 1] == '/') {
      p++;
      continue;
    }
    if (k + 1 >= cap) return 0;
    out[k++] = *p++;
  }
  out[k] = 0;
  return k;
}

int gs_vfsAdd(gsVFS* vfs, const char* name, const void* data, size_t n) {
  if (!vfs || !name || !name[0] || (!data && n)) return 0;
  size_t len = strlen(name) + 1;
  char* key = malloc(len);
  if (!key) return 0;
  if (!normalize(name, key, len)) {
    free(key);
    return 0;
  }
  for (int i = 0; i < vfs->n; i++) {
    if (strcmp(vfs->file[i].name, key) == 0) {  /* one file per name */
      free(key);
      return 0;
    }
  }
  if (vfs->n == vfs->cap) {
    int ncap = vfs->cap ? 2 * vfs->cap : 8;
    VfsFile* grown = realloc(vfs->file, sizeof(VfsFile) * (size_t)ncap);
    if (!grown) {
      free(key);
      return 0;
    }
    vfs->file = grown;
    vfs->cap = ncap;
  }
  void* copy = malloc(n ? n : 1);
  if (!copy) {
    free(key);
    return 0;
  }
  if (n) memcpy(copy, data, n);
  vfs->file[vfs->n++] = (VfsFile){key, copy, n};
  return 1;
}

/* the entry whose name is the longest trailing part of path ("dir/sub/a.xml" is found under
 * "dir/sub/a.xml", "sub/a.xml" or "a.xml"), so that a file is found whether it was added under
 * the name the XML writes or under the path the reader resolved it to */
const char* gsx_vfsFind(const gsVFS* vfs, const char* path, const void** data, size_t* n) {
  if (!vfs || !path) return NULL;
  char norm[4096];
  size_t len = normalize(path, norm, sizeof norm);
  if (!len) return NULL;
  const VfsFile* best = NULL;
  size_t bestlen = 0;
  for (int i = 0; i < vfs->n; i++) {
    const VfsFile* f = &vfs->file[i];
    size_t k = strlen(f->name);
    if (k > len || k <= bestlen || strcmp(norm + len - k, f->name) != 0) continue;
    if (k < len && norm[len - k - 1] != '/') continue;  /* whole path components only */
    best = f;
    bestlen = k;
  }
  if (!best) return NULL;
  if (data) *data = best->data;
  if (n) *n = best->n;
  return best->name;
}
