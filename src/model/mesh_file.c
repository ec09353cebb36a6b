/* Mesh files: binary and ASCII STL, Wavefront OBJ (vertices and polygons, fan-triangulated) and
 * MJCF's binary .msh. Small plain parsers rather than a general asset library (assimp): MJCF
 * defines which vertices and triangles a file gives (STL vertices merged in order of first
 * appearance, OBJ vertices kept as listed, polygons split as fans from their first vertex), and a
 * general importer reorders, merges or post-processes them. Coordinates are single precision, as
 * MJCF stores them. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/io.h"
#include "model/mesh.h"

#define MAX_STL_FACES 200000  /* MJCF's bound on binary STL files */

void gs_meshDataFree(gsMeshData* md) {
  free(md->vert);
  free(md->face);
  free(md->texcoord);
  free(md->facetex);
  md->vert = NULL, md->face = NULL, md->texcoord = NULL, md->facetex = NULL;
  md->nvert = md->nface = md->ntexcoord = 0;
}

/* growable arrays */
typedef struct {
  gsReal* v;
  int n, cap;
} Reals;
typedef struct {
  int* v;
  int n, cap;
} Ints;

static int push_real(Reals* a, gsReal x) {
  if (a->n == a->cap) {
    int cap = a->cap ? 2 * a->cap : 256;
    gsReal* p = realloc(a->v, sizeof(gsReal) * (size_t)cap);
    if (!p) return 0;
    a->v = p, a->cap = cap;
  }
  a->v[a->n++] = x;
  return 1;
}
static int push_int(Ints* a, int x) {
  if (a->n == a->cap) {
    int cap = a->cap ? 2 * a->cap : 256;
    int* p = realloc(a->v, sizeof(int) * (size_t)cap);
    if (!p) return 0;
    a->v = p, a->cap = cap;
  }
  a->v[a->n++] = x;
  return 1;
}

static uint32_t le32(const unsigned char* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static float lef32(const unsigned char* p) {
  uint32_t u = le32(p);
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* ---- STL: triangle soup, vertices merged where equal ---- */

typedef struct {
  float x[3];
  int id;  /* -1: empty slot */
} Slot;

static uint32_t hash3(const float x[3]) {
  uint32_t h = 2166136261u;
  for (int i = 0; i < 3; i++) {
    float f = x[i] == 0 ? 0.0f : x[i];  /* -0 and +0 are one vertex */
    uint32_t u;
    memcpy(&u, &f, 4);
    h = (h ^ u) * 16777619u;
    h ^= h >> 15;
  }
  return h;
}

/* soup: 9 floats per triangle; vertices merged in order of first appearance */
static int merge_soup(const float* soup, int ntri, gsMeshData* out, char* err, int errsz) {
  size_t cap = 16;
  while (cap < (size_t)ntri * 6) cap <<= 1;
  Slot* table = malloc(sizeof(Slot) * cap);
  out->vert = malloc(sizeof(gsReal) * 9 * (size_t)ntri);
  out->face = malloc(sizeof(int) * 3 * (size_t)ntri);
  if (!table || !out->vert || !out->face) {
    free(table);
    gs_meshDataFree(out);
    return gs_ioError(err, errsz, "out of memory");
  }
  for (size_t i = 0; i < cap; i++) table[i].id = -1;
  int nv = 0;
  for (int k = 0; k < 3 * ntri; k++) {
    const float* x = soup + 3 * k;
    if (!isfinite(x[0]) || !isfinite(x[1]) || !isfinite(x[2])) {
      free(table);
      gs_meshDataFree(out);
      return gs_ioError(err, errsz, "vertex %d of triangle %d is not finite", k % 3, k / 3);
    }
    size_t h = hash3(x) & (cap - 1);
    while (table[h].id >= 0 && !(table[h].x[0] == x[0] && table[h].x[1] == x[1] && table[h].x[2] == x[2]))
      h = (h + 1) & (cap - 1);
    if (table[h].id < 0) {
      memcpy(table[h].x, x, sizeof(table[h].x));
      table[h].id = nv;
      for (int i = 0; i < 3; i++) out->vert[3 * nv + i] = x[i];
      nv++;
    }
    out->face[k] = table[h].id;
  }
  free(table);
  out->nvert = nv;
  out->nface = ntri;
  return 1;
}

static int decode_stl_binary(const unsigned char* b, size_t n, gsMeshData* out, char* err, int errsz) {
  if (n < 84) return gs_ioError(err, errsz, "STL file too short (%zu bytes) for its header", n);
  uint32_t nf = le32(b + 80);
  if (nf < 1 || nf > MAX_STL_FACES)
    return gs_ioError(err, errsz, "STL file declares %u triangles (1 to %d allowed)", nf, MAX_STL_FACES);
  if (n < 84 + 50 * (size_t)nf)
    return gs_ioError(err, errsz, "STL file truncated: %u triangles need %zu bytes, it has %zu", nf,
                84 + 50 * (size_t)nf, n);
  float* soup = malloc(sizeof(float) * 9 * nf);
  if (!soup) return gs_ioError(err, errsz, "out of memory");
  for (uint32_t t = 0; t < nf; t++)
    for (int k = 0; k < 9; k++) soup[9 * t + k] = lef32(b + 84 + 50 * (size_t)t + 12 + 4 * k);
  int ok = merge_soup(soup, (int)nf, out, err, errsz);
  free(soup);
  return ok;
}

/* a NUL-terminated copy of the bytes, for the text formats */
static char* text_copy(const unsigned char* b, size_t n) {
  char* s = malloc(n + 1);
  if (s) {
    memcpy(s, b, n);
    s[n] = 0;
  }
  return s;
}

static int is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v'; }

/* the next whitespace-separated word of *p: its start and length; 0 at the end */
static int next_word(const char** p, const char** w, size_t* len) {
  const char* s = *p;
  while (*s && is_space(*s)) s++;
  if (!*s) return 0;
  *w = s;
  while (*s && !is_space(*s)) s++;
  *len = (size_t)(s - *w);
  *p = s;
  return 1;
}

static int word_is(const char* w, size_t len, const char* kw) { return len == strlen(kw) && strncasecmp(w, kw, len) == 0; }

/* an ASCII STL file: the coordinates after each "vertex", three per facet */
static int decode_stl_ascii(const unsigned char* b, size_t n, gsMeshData* out, char* err, int errsz) {
  char* s = text_copy(b, n);
  if (!s) return gs_ioError(err, errsz, "out of memory");
  float* soup = NULL;
  size_t cap = 0, nvals = 0;
  const char* p = s;
  const char* w;
  size_t len;
  int ok = 1, in_loop = 0, nloop = 0;
  while (ok && next_word(&p, &w, &len)) {
    if (word_is(w, len, "outer")) {
      in_loop = 1, nloop = 0;
    } else if (word_is(w, len, "endloop")) {
      if (nloop != 3) ok = gs_ioError(err, errsz, "ASCII STL facet with %d vertices (3 needed)", nloop);
      in_loop = 0;
    } else if (word_is(w, len, "vertex")) {
      if (!in_loop) { ok = gs_ioError(err, errsz, "ASCII STL: vertex outside a loop"); break; }
      if (nvals + 3 > cap) {
        cap = cap ? 2 * cap : 288;
        float* q = realloc(soup, sizeof(float) * cap);
        if (!q) { ok = gs_ioError(err, errsz, "out of memory"); break; }
        soup = q;
      }
      for (int k = 0; k < 3 && ok; k++) {
        char* end;
        double v = strtod(p, &end);
        if (end == p) ok = gs_ioError(err, errsz, "ASCII STL: a vertex needs 3 numbers");
        p = end;
        soup[nvals++] = (float)v;
      }
      nloop++;
    }
  }
  free(s);
  if (ok && in_loop) ok = gs_ioError(err, errsz, "ASCII STL file truncated inside a facet");
  int ntri = (int)(nvals / 9);
  if (ok && ntri < 1) ok = gs_ioError(err, errsz, "ASCII STL file has no facets");
  if (ok && ntri > MAX_STL_FACES) ok = gs_ioError(err, errsz, "STL file has %d triangles (at most %d)", ntri, MAX_STL_FACES);
  if (ok) ok = merge_soup(soup, ntri, out, err, errsz);
  free(soup);
  return ok;
}

/* ---- OBJ ---- */

/* the vertex index of a face corner "i", "i/t", "i//n" or "i/t/n"; negative: from the end; its
 * texture coordinate's index t in *tex (-1 when the corner gives none, -2 when t is invalid) */
static int obj_index(const char* w, size_t len, int nvert, int ntex, int* idx, int* tex) {
  char buf[32];
  if (len == 0 || len >= sizeof(buf)) return 0;
  memcpy(buf, w, len);
  buf[len] = 0;
  char* end;
  long v = strtol(buf, &end, 10);
  if (end == buf || (*end && *end != '/')) return 0;
  if (v > 0) v -= 1;
  else if (v < 0) v += nvert;
  else return 0;
  if (v < 0 || v >= nvert) return 0;
  *idx = (int)v;
  *tex = -1;
  if (*end == '/' && end[1] && end[1] != '/') {
    char* e2;
    long t = strtol(end + 1, &e2, 10);
    if (t > 0) t -= 1;
    else if (t < 0) t += ntex;
    else t = -2;
    *tex = e2 == end + 1 || (*e2 && *e2 != '/') || t < 0 || t >= ntex ? -2 : (int)t;
  }
  return 1;
}

static int decode_obj(const unsigned char* b, size_t n, gsMeshData* out, char* err, int errsz) {
  char* s = text_copy(b, n);
  if (!s) return gs_ioError(err, errsz, "out of memory");
  Reals v = {0}, vt = {0};
  Ints f = {0}, ft = {0};
  int ok = 1, line = 0, alltex = 1;
  for (char* ln = s; ln && ok;) {
    char* next = strchr(ln, '\n');
    if (next) *next++ = 0;
    line++;
    const char* p = ln;
    const char* w;
    size_t len;
    if (next_word(&p, &w, &len)) {
      if (word_is(w, len, "v")) {
        for (int k = 0; k < 3 && ok; k++) {
          char* end;
          double x = strtod(p, &end);
          if (end == p) ok = gs_ioError(err, errsz, "OBJ line %d: a vertex needs 3 numbers", line);
          else if (!isfinite(x)) ok = gs_ioError(err, errsz, "OBJ line %d: vertex coordinate is not finite", line);
          else ok = push_real(&v, (gsReal)(float)x) || gs_ioError(err, errsz, "out of memory");
          p = end;
        }
      } else if (word_is(w, len, "vt")) {
        /* (u, v), kept as MJCF keeps them: v turned to 1 - v (OBJ's rows run upwards) */
        for (int k = 0; k < 2 && ok; k++) {
          char* end;
          double x = strtod(p, &end);
          if (end == p) ok = gs_ioError(err, errsz, "OBJ line %d: a texture coordinate needs 2 numbers", line);
          else if (!isfinite(x)) ok = gs_ioError(err, errsz, "OBJ line %d: texture coordinate is not finite", line);
          else ok = push_real(&vt, (gsReal)(float)(k ? 1 - (float)x : x)) || gs_ioError(err, errsz, "out of memory");
          p = end;
        }
      } else if (word_is(w, len, "f")) {
        int corner[3], ctex[3], nc = 0, nvert = v.n / 3;
        while (ok && next_word(&p, &w, &len)) {
          int idx, tex;
          if (!obj_index(w, len, nvert, vt.n / 2, &idx, &tex)) {
            ok = gs_ioError(err, errsz, "OBJ line %d: face refers to a vertex that does not exist", line);
            break;
          }
          if (tex == -2) {
            ok = gs_ioError(err, errsz, "OBJ line %d: face refers to a texture coordinate that does not exist", line);
            break;
          }
          alltex &= tex >= 0;
          if (nc < 2) {
            ctex[nc] = tex;
            corner[nc++] = idx;
            continue;
          }
          corner[2] = idx;  /* a fan from the first corner */
          ctex[2] = tex;
          ok = (push_int(&f, corner[0]) && push_int(&f, corner[1]) && push_int(&f, corner[2]) &&
                push_int(&ft, ctex[0]) && push_int(&ft, ctex[1]) && push_int(&ft, ctex[2])) ||
               gs_ioError(err, errsz, "out of memory");
          corner[1] = idx;
          ctex[1] = tex;
          nc++;
        }
        if (ok && nc < 3) ok = gs_ioError(err, errsz, "OBJ line %d: a face needs at least 3 vertices", line);
      }
      /* normals, groups and materials do not shape the geometry */
    }
    ln = next;
  }
  free(s);
  if (ok && v.n == 0) ok = gs_ioError(err, errsz, "OBJ file has no vertices");
  if (!ok) {
    free(v.v);
    free(f.v);
    free(vt.v);
    free(ft.v);
    return 0;
  }
  out->nvert = v.n / 3, out->vert = v.v;
  out->nface = f.n / 3, out->face = f.v;
  /* texture coordinates where every face corner names one */
  if (vt.n && f.n && alltex) {
    out->ntexcoord = vt.n / 2, out->texcoord = vt.v, out->facetex = ft.v;
  } else {
    free(vt.v);
    free(ft.v);
  }
  return 1;
}

/* ---- MSH: int32 counts (vertices, normals, texture coordinates, faces), then float32
 * vertices, normals, texture coordinates and int32 faces ---- */
static int decode_msh(const unsigned char* b, size_t n, gsMeshData* out, char* err, int errsz) {
  if (n < 16) return gs_ioError(err, errsz, "MSH file too short for its header");
  int32_t cnt[4];
  for (int i = 0; i < 4; i++) cnt[i] = (int32_t)le32(b + 4 * i);
  if (cnt[0] < 1 || cnt[1] < 0 || cnt[2] < 0 || cnt[3] < 0 || cnt[0] > (1 << 24) || cnt[1] > (1 << 24) ||
      cnt[2] > (1 << 24) || cnt[3] > (1 << 24))
    return gs_ioError(err, errsz, "MSH header has invalid counts");
  size_t need = 16 + 4 * (3 * (size_t)cnt[0] + 3 * (size_t)cnt[1] + 2 * (size_t)cnt[2] + 3 * (size_t)cnt[3]);
  if (n != need) return gs_ioError(err, errsz, "MSH file has %zu bytes, its header needs %zu", n, need);
  out->nvert = cnt[0], out->nface = cnt[3];
  out->vert = malloc(sizeof(gsReal) * 3 * (size_t)cnt[0]);
  out->face = malloc(sizeof(int) * (3 * (size_t)cnt[3] + 1));
  if (!out->vert || !out->face) {
    gs_meshDataFree(out);
    return gs_ioError(err, errsz, "out of memory");
  }
  const unsigned char* p = b + 16;
  for (int i = 0; i < 3 * cnt[0]; i++) out->vert[i] = lef32(p + 4 * i);
  const unsigned char* t = p + 4 * (3 * (size_t)cnt[0] + 3 * (size_t)cnt[1]);
  p += 4 * (3 * (size_t)cnt[0] + 3 * (size_t)cnt[1] + 2 * (size_t)cnt[2]);
  for (int i = 0; i < 3 * cnt[3]; i++) out->face[i] = (int32_t)le32(p + 4 * i);
  /* texture coordinates, one per vertex (as given), indexed by the faces */
  if (cnt[2] == cnt[0] && cnt[3]) {
    out->ntexcoord = cnt[2];
    out->texcoord = malloc(sizeof(gsReal) * 2 * (size_t)cnt[2]);
    out->facetex = malloc(sizeof(int) * 3 * (size_t)cnt[3]);
    if (!out->texcoord || !out->facetex) {
      gs_meshDataFree(out);
      return gs_ioError(err, errsz, "out of memory");
    }
    for (int i = 0; i < 2 * cnt[2]; i++) out->texcoord[i] = lef32(t + 4 * i);
    memcpy(out->facetex, out->face, sizeof(int) * 3 * (size_t)cnt[3]);
  }
  return 1;
}

static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

int gs_meshDecode(const unsigned char* bytes, size_t n, const char* file, const char* content_type,
                  gsMeshData* out, char* err, int errsz) {
  memset(out, 0, sizeof(*out));
  const char* ct = content_type ? content_type : "";
  int stl = strcasecmp(ct, "model/stl") == 0 || (!*ct && file && ends_with(file, ".stl"));
  int obj = strcasecmp(ct, "model/obj") == 0 || (!*ct && file && ends_with(file, ".obj"));
  int msh = strcasecmp(ct, "model/vnd.mujoco.msh") == 0 || (!*ct && file && ends_with(file, ".msh"));
  if (stl) {
    /* an ASCII file starts with "solid" and says "facet"; a binary header may start with "solid"
     * too, but then its size matches the triangle count */
    int ascii = n >= 5 && strncasecmp((const char*)bytes, "solid", 5) == 0 &&
                !(n >= 84 && n == 84 + 50 * (size_t)le32(bytes + 80));
    return ascii ? decode_stl_ascii(bytes, n, out, err, errsz) : decode_stl_binary(bytes, n, out, err, errsz);
  }
  if (obj) return decode_obj(bytes, n, out, err, errsz);
  if (msh) return decode_msh(bytes, n, out, err, errsz);
  return gs_ioError(err, errsz, "unknown mesh format (STL, OBJ and MSH files are read; give content_type or a file extension)");
}
