/* The process-wide cache of built mesh files. A mesh file of a robot description holds 10^4 to
 * 10^5 triangles, and building it (decoding, merging the vertices of an STL file, the convex hull,
 * the inertia) costs far more than reading it; programs load the same model many times (one
 * model per worker, a model reloaded after an edit), and MuJoCo keeps such a cache too (500 MB by
 * default). An entry is keyed by the file's bytes themselves (compared in full: a file changed on
 * disk is a miss, whatever its name or time stamp), how they decode (content type, file
 * extension) and every mesh attribute the build depends on; it holds the built mesh, copied out
 * on a hit. Entries past the capacity go least recently used first; capacity 0 turns the cache
 * off. One lock guards it: models may be loaded from several threads. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/mesh.h"

#define CACHE_DEFAULT_CAPACITY ((size_t)500 << 20)

typedef struct Entry {
  struct Entry* next;
  uint64_t hash;
  unsigned char* bytes;  /* the file's contents */
  size_t n;
  char* kind;            /* content type and extension, "type|ext" */
  gsReal param[10];      /* scale, refpos, refquat */
  int inertia, maxhullvert;
  gsMeshBuild build;
  size_t size;           /* bytes held */
  uint64_t used;         /* last use, for eviction */
} Entry;

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static Entry* g_head;
static size_t g_size, g_capacity = CACHE_DEFAULT_CAPACITY;
static uint64_t g_clock;

/* 64-bit hash of the bytes, 8 at a time (a multiply-xorshift mix): a filter, the bytes decide */
static uint64_t hash_bytes(const unsigned char* p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  for (; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
  h ^= h >> 29;
  return h * 0xc4ceb9fe1a85ec53ull;
}

void gs_meshBuildFree(gsMeshBuild* b) {
  gs_meshDataFree(&b->data);
  free(b->graph);
  free(b->given);
  free(b->poly);
  free(b->polynormal);
  free(b->tree);
  free(b->treebox);
  b->graph = NULL, b->given = NULL, b->poly = NULL, b->polynormal = NULL;
  b->tree = NULL, b->treebox = NULL;
}

/* a deep copy of src into dst; with_graph 0 leaves the graph out; 0 when out of memory */
static int build_copy(gsMeshBuild* dst, const gsMeshBuild* src, int with_graph) {
  *dst = *src;
  dst->data.vert = malloc(sizeof(gsReal) * (3 * (size_t)src->data.nvert + 1));
  dst->data.face = malloc(sizeof(int) * (3 * (size_t)src->data.nface + 1));
  dst->data.texcoord = NULL, dst->data.facetex = NULL;
  if (src->data.texcoord) dst->data.texcoord = malloc(sizeof(gsReal) * 2 * (size_t)src->data.ntexcoord);
  if (src->data.facetex) dst->data.facetex = malloc(sizeof(int) * (3 * (size_t)src->data.nface + 1));
  dst->graph = NULL, dst->ngraph = 0;
  dst->given = malloc(sizeof(gsReal) * (3 * (size_t)src->data.nvert + 1));
  if (with_graph && src->graph) {
    dst->graph = malloc(sizeof(int) * (size_t)src->ngraph);
    dst->ngraph = src->ngraph;
  }
  /* polygons are kept where they were made from the faces the copy has (the hull graph's, or
   * the triangles where neither has the graph); otherwise the compiler makes them again */
  int keep_poly = src->poly && (dst->graph != NULL) == (src->graph != NULL);
  size_t npolyint = (size_t)src->npoly + (size_t)src->npolyvert;
  dst->poly = NULL, dst->polynormal = NULL;
  if (keep_poly) {
    dst->poly = malloc(sizeof(int) * (npolyint + 1));
    dst->polynormal = malloc(sizeof(gsReal) * (3 * (size_t)src->npoly + 1));
  } else {
    dst->npoly = dst->npolyvert = 0;
  }
  /* the triangle tree (made from the vertices and triangles alone: every copy keeps it) */
  int ntree = gs_meshTreeNodes(src->data.nface);
  size_t ntreeint = 2 * (size_t)ntree + (size_t)src->data.nface;
  dst->tree = NULL, dst->treebox = NULL;
  if (src->tree) {
    dst->tree = malloc(sizeof(int) * (ntreeint + 1));
    dst->treebox = malloc(sizeof(gsReal) * (6 * (size_t)ntree + 1));
  }
  if (!dst->data.vert || !dst->data.face || !dst->given || (with_graph && src->graph && !dst->graph) ||
      (keep_poly && (!dst->poly || !dst->polynormal)) ||
      (src->tree && (!dst->tree || !dst->treebox)) ||
      (src->data.texcoord && !dst->data.texcoord) || (src->data.facetex && !dst->data.facetex)) {
    gs_meshBuildFree(dst);
    return 0;
  }
  memcpy(dst->data.vert, src->data.vert, sizeof(gsReal) * 3 * (size_t)src->data.nvert);
  memcpy(dst->data.face, src->data.face, sizeof(int) * 3 * (size_t)src->data.nface);
  if (dst->data.texcoord)  /* texture coordinates (OBJ vt) and each face corner's index into them */
    memcpy(dst->data.texcoord, src->data.texcoord, sizeof(gsReal) * 2 * (size_t)src->data.ntexcoord);
  if (dst->data.facetex)
    memcpy(dst->data.facetex, src->data.facetex, sizeof(int) * 3 * (size_t)src->data.nface);
  if (dst->graph) memcpy(dst->graph, src->graph, sizeof(int) * (size_t)src->ngraph);
  if (src->given) memcpy(dst->given, src->given, sizeof(gsReal) * 3 * (size_t)src->data.nvert);
  if (keep_poly) {
    memcpy(dst->poly, src->poly, sizeof(int) * npolyint);
    memcpy(dst->polynormal, src->polynormal, sizeof(gsReal) * 3 * (size_t)src->npoly);
  }
  if (src->tree) {
    memcpy(dst->tree, src->tree, sizeof(int) * ntreeint);
    memcpy(dst->treebox, src->treebox, sizeof(gsReal) * 6 * (size_t)ntree);
  }
  return 1;
}

static void entry_free(Entry* e) {
  gs_meshBuildFree(&e->build);
  free(e->bytes);
  free(e->kind);
  free(e);
}

/* "content_type|extension" of the file, as gs_meshDecode tells formats apart */
static char* kind_of(const char* file, const char* content_type) {
  const char* dot = file ? strrchr(file, '.') : NULL;
  const char* ext = dot ? dot : "";
  const char* ct = content_type ? content_type : "";
  size_t n = strlen(ct) + strlen(ext) + 2;
  char* k = malloc(n);
  if (k) {
    strcpy(k, ct);
    strcat(k, "|");
    strcat(k, ext);
  }
  return k;
}

static void params_of(const gsSpecMesh* sm, gsReal p[10]) {
  memcpy(p, sm->scale, 3 * sizeof(gsReal));
  memcpy(p + 3, sm->refpos, 3 * sizeof(gsReal));
  memcpy(p + 6, sm->refquat, 4 * sizeof(gsReal));
}

static int matches(const Entry* e, uint64_t h, const gsSpecMesh* sm, const char* kind, const gsReal p[10],
                   int inertia) {
  return e->hash == h && e->n == sm->data.n && e->inertia == inertia && e->maxhullvert == sm->maxhullvert &&
         memcmp(e->param, p, sizeof(e->param)) == 0 && strcmp(e->kind, kind) == 0 &&
         memcmp(e->bytes, sm->data.bytes, sm->data.n) == 0;
}

/* drops least recently used entries until the cache holds at most cap bytes (lock held) */
static void evict_to(size_t cap) {
  while (g_size > cap && g_head) {
    Entry **oldest = &g_head, **pp;
    for (pp = &g_head; *pp; pp = &(*pp)->next)
      if ((*pp)->used < (*oldest)->used) oldest = pp;
    Entry* e = *oldest;
    *oldest = e->next;
    g_size -= e->size;
    entry_free(e);
  }
}

int gs_meshCacheGet(const gsSpecMesh* sm, int inertia, int need_graph, gsMeshBuild* b) {
  if (!sm->file || !sm->data.bytes) return 0;
  pthread_mutex_lock(&g_lock);
  int hit = 0;
  if (g_capacity && g_head) {
    char* kind = kind_of(sm->file, sm->content_type);
    gsReal p[10];
    params_of(sm, p);
    uint64_t h = hash_bytes(sm->data.bytes, sm->data.n);
    for (Entry* e = g_head; e && kind && !hit; e = e->next) {
      if (!matches(e, h, sm, kind, p, inertia)) continue;
      /* an entry built without the hull graph cannot serve a mesh that needs it */
      if (need_graph && !e->build.graph) break;
      hit = build_copy(b, &e->build, need_graph || e->build.hullfaces);
      if (hit) e->used = ++g_clock;
    }
    free(kind);
  }
  pthread_mutex_unlock(&g_lock);
  return hit;
}

void gs_meshCachePut(const gsSpecMesh* sm, int inertia, const gsMeshBuild* b) {
  if (!sm->file || !sm->data.bytes) return;
  size_t size = sizeof(Entry) + sm->data.n + sizeof(gsReal) * 3 * (size_t)b->data.nvert +
                sizeof(int) * (3 * (size_t)b->data.nface + (size_t)b->ngraph) +
                sizeof(gsReal) * 3 * (size_t)b->data.nvert +  /* the vertices as given */
                sizeof(int) * ((size_t)b->npoly + (size_t)b->npolyvert) +
                sizeof(gsReal) * 3 * (size_t)b->npoly +  /* the polygons */
                (sizeof(int) * 2 + sizeof(gsReal) * 6) * (size_t)gs_meshTreeNodes(b->data.nface) +
                sizeof(int) * (size_t)b->data.nface +  /* the triangle tree */
                sizeof(gsReal) * 2 * (size_t)b->data.ntexcoord +
                (b->data.facetex ? sizeof(int) * 3 * (size_t)b->data.nface : 0);
  pthread_mutex_lock(&g_lock);
  if (size <= g_capacity) {
    Entry* e = calloc(1, sizeof(Entry));
    if (e) {
      e->hash = hash_bytes(sm->data.bytes, sm->data.n);
      e->bytes = malloc(sm->data.n ? sm->data.n : 1);
      e->kind = kind_of(sm->file, sm->content_type);
      e->n = sm->data.n;
      params_of(sm, e->param);
      e->inertia = inertia, e->maxhullvert = sm->maxhullvert;
      e->size = size;
      if (!e->bytes || !e->kind || !build_copy(&e->build, b, 1)) {
        free(e->bytes);
        free(e->kind);
        free(e);
      } else {
        memcpy(e->bytes, sm->data.bytes, sm->data.n);
        /* a copy built with the graph replaces one built without */
        for (Entry** pp = &g_head; *pp; pp = &(*pp)->next)
          if (matches(*pp, e->hash, sm, e->kind, e->param, inertia)) {
            Entry* old = *pp;
            *pp = old->next;
            g_size -= old->size;
            entry_free(old);
            break;
          }
        e->used = ++g_clock;
        e->next = g_head;
        g_head = e;
        g_size += size;
        evict_to(g_capacity);
      }
    }
  }
  pthread_mutex_unlock(&g_lock);
}

size_t gs_meshCacheSize(void) {
  pthread_mutex_lock(&g_lock);
  size_t s = g_size;
  pthread_mutex_unlock(&g_lock);
  return s;
}

size_t gs_meshCacheCapacity(void) {
  pthread_mutex_lock(&g_lock);
  size_t c = g_capacity;
  pthread_mutex_unlock(&g_lock);
  return c;
}

size_t gs_setMeshCacheCapacity(size_t bytes) {
  pthread_mutex_lock(&g_lock);
  g_capacity = bytes;
  evict_to(bytes);
  pthread_mutex_unlock(&g_lock);
  return bytes;
}

void gs_clearMeshCache(void) {
  pthread_mutex_lock(&g_lock);
  evict_to(0);
  pthread_mutex_unlock(&g_lock);
}
