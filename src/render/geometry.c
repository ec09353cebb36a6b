/* Triangles of everything the renderer draws, in one vertex buffer: unit primitives (scaled per
 * geom by the model matrix), the model's meshes (flat shaded) and height fields (top surface,
 * sides and base). Vertices: position, normal, texture coordinates. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/renderer.h"

#define PI 3.14159265358979323846

static int reserve(gsrGeometry* g, int n) {
  if (g->nv + n <= g->cap) return 1;
  int cap = g->cap ? g->cap : 4096;
  while (cap < g->nv + n) cap *= 2;
  float* v = realloc(g->v, sizeof(float) * GSR_VSTRIDE * (size_t)cap);
  if (!v) return 0;
  g->v = v;
  g->cap = cap;
  return 1;
}

static void vertex(gsrGeometry* g, const double p[3], const double n[3], double u, double w) {
  float* v = g->v + GSR_VSTRIDE * g->nv++;
  v[0] = (float)p[0], v[1] = (float)p[1], v[2] = (float)p[2];
  v[3] = (float)n[0], v[4] = (float)n[1], v[5] = (float)n[2];
  v[6] = (float)u, v[7] = (float)w;
}

/* a point of the unit sphere at longitude a and latitude b */
static void sphere_point(double a, double b, double p[3]) {
  p[0] = cos(b) * cos(a);
  p[1] = cos(b) * sin(a);
  p[2] = sin(b);
}

/* the unit sphere between latitudes b0 and b1 (radians), nslice x nstack quads; shifted by dz */
static int sphere_band(gsrGeometry* g, int nslice, int nstack, double b0, double b1, double dz) {
  if (!reserve(g, 6 * nslice * nstack)) return 0;
  for (int j = 0; j < nstack; j++) {
    double lat0 = b0 + (b1 - b0) * j / nstack, lat1 = b0 + (b1 - b0) * (j + 1) / nstack;
    for (int i = 0; i < nslice; i++) {
      double a0 = 2 * PI * i / nslice, a1 = 2 * PI * (i + 1) / nslice;
      double p[4][3], q[4][3];
      sphere_point(a0, lat0, p[0]);
      sphere_point(a1, lat0, p[1]);
      sphere_point(a1, lat1, p[2]);
      sphere_point(a0, lat1, p[3]);
      double uv[4][2] = {{(double)i / nslice, (double)j / nstack}, {(double)(i + 1) / nslice, (double)j / nstack},
                         {(double)(i + 1) / nslice, (double)(j + 1) / nstack}, {(double)i / nslice, (double)(j + 1) / nstack}};
      for (int k = 0; k < 4; k++) memcpy(q[k], p[k], sizeof q[k]), q[k][2] += dz;
      static const int kTri[6] = {0, 1, 2, 0, 2, 3};
      for (int t = 0; t < 6; t++) vertex(g, q[kTri[t]], p[kTri[t]], uv[kTri[t]][0], uv[kTri[t]][1]);
    }
  }
  return 1;
}

static int cylinder_side(gsrGeometry* g, int nslice) {
  if (!reserve(g, 6 * nslice)) return 0;
  for (int i = 0; i < nslice; i++) {
    double a0 = 2 * PI * i / nslice, a1 = 2 * PI * (i + 1) / nslice;
    double p[4][3] = {{cos(a0), sin(a0), -1}, {cos(a1), sin(a1), -1}, {cos(a1), sin(a1), 1}, {cos(a0), sin(a0), 1}};
    static const int kTri[6] = {0, 1, 2, 0, 2, 3};
    for (int t = 0; t < 6; t++) {
      const double* q = p[kTri[t]];
      double n[3] = {q[0], q[1], 0};
      vertex(g, q, n, (double)(i + (kTri[t] == 1 || kTri[t] == 2)) / nslice, 0.5 * (q[2] + 1));
    }
  }
  return 1;
}

static int disk(gsrGeometry* g, int nslice, double z) {
  if (!reserve(g, 3 * nslice)) return 0;
  double n[3] = {0, 0, z > 0 ? 1 : -1}, c[3] = {0, 0, z};
  for (int i = 0; i < nslice; i++) {
    double a0 = 2 * PI * i / nslice, a1 = 2 * PI * (i + 1) / nslice;
    if (z < 0) { double t = a0; a0 = a1; a1 = t; }  /* counter-clockwise seen from outside */
    double p0[3] = {cos(a0), sin(a0), z}, p1[3] = {cos(a1), sin(a1), z};
    vertex(g, c, n, 0.5, 0.5);
    vertex(g, p0, n, 0.5 + 0.5 * p0[0], 0.5 + 0.5 * p0[1]);
    vertex(g, p1, n, 0.5 + 0.5 * p1[0], 0.5 + 0.5 * p1[1]);
  }
  return 1;
}

/* quad of corners a, b, c, d (counter-clockwise seen from the side n points to) */
static void quad(gsrGeometry* g, const double a[3], const double b[3], const double c[3],
                 const double d[3], const double n[3]) {
  vertex(g, a, n, 0, 0); vertex(g, b, n, 1, 0); vertex(g, c, n, 1, 1);
  vertex(g, a, n, 0, 0); vertex(g, c, n, 1, 1); vertex(g, d, n, 0, 1);
}

/* the square [-1 1]^2 at z = 0 in n x n quads: lighting is computed at vertices, and a plane
 * needs some inside it to show a light's falloff */
static int plane_grid(gsrGeometry* g, int n) {
  if (!reserve(g, 6 * n * n)) return 0;
  double nz[3] = {0, 0, 1};
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double x0 = -1 + 2.0 * i / n, x1 = -1 + 2.0 * (i + 1) / n, y0 = -1 + 2.0 * j / n, y1 = -1 + 2.0 * (j + 1) / n;
      double a[3] = {x0, y0, 0}, b[3] = {x1, y0, 0}, c[3] = {x1, y1, 0}, d[3] = {x0, y1, 0};
      quad(g, a, b, c, d, nz);
    }
  return 1;
}

static int box(gsrGeometry* g) {
  if (!reserve(g, 36)) return 0;
  for (int axis = 0; axis < 3; axis++)
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      int u = (axis + 1) % 3, w = (axis + 2) % 3;
      double n[3] = {0, 0, 0}, p[4][3];
      n[axis] = sgn;
      static const double kUV[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
      for (int k = 0; k < 4; k++) {
        p[k][axis] = sgn;
        p[k][u] = kUV[k][0];
        p[k][w] = sgn * kUV[k][1];
      }
      quad(g, p[0], p[1], p[2], p[3], n);
    }
  return 1;
}

static void face_normal(const double a[3], const double b[3], const double c[3], double n[3]) {
  double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, e2[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  n[0] = e1[1] * e2[2] - e1[2] * e2[1];
  n[1] = e1[2] * e2[0] - e1[0] * e2[2];
  n[2] = e1[0] * e2[1] - e1[1] * e2[0];
  double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (l > 0) n[0] /= l, n[1] /= l, n[2] /= l;
}

static int mesh(gsrGeometry* g, const gsModel* m, int id) {
  int nf = m->mesh_facenum[id];
  if (!reserve(g, 3 * nf)) return 0;
  const gsReal* vert = m->mesh_vert + 3 * m->mesh_vertadr[id];
  const int* face = m->mesh_face + 3 * m->mesh_faceadr[id];
  /* texture coordinates of each face corner, where the mesh has them (else x and y, unused) */
  int ta = m->mesh_texcoordadr[id];
  const int* ftex = m->mesh_facetexcoord + 3 * m->mesh_faceadr[id];
  for (int f = 0; f < nf; f++) {
    double p[3][3], n[3];
    for (int k = 0; k < 3; k++)
      for (int c = 0; c < 3; c++) p[k][c] = vert[3 * face[3 * f + k] + c];
    face_normal(p[0], p[1], p[2], n);
    for (int k = 0; k < 3; k++) {
      const gsReal* t = ta >= 0 ? m->mesh_texcoord + 2 * (ta + ftex[3 * f + k]) : NULL;
      vertex(g, p[k], n, t ? t[0] : p[k][0], t ? t[1] : p[k][1]);
    }
  }
  return 1;
}

/* height field: a grid of ncol x nrow elevations over [-rx rx] x [-ry ry], base at -size[3] */
static int hfield(gsrGeometry* g, const gsModel* m, int id) {
  int nr = m->hfield_nrow[id], nc = m->hfield_ncol[id];
  const gsReal* sz = m->hfield_size + 4 * id;
  const gsReal* h = m->hfield_data + m->hfield_adr[id];
  if (nr < 2 || nc < 2) return 1;
  if (!reserve(g, 6 * (nr - 1) * (nc - 1) + 12 * (nr + nc) + 6)) return 0;
#define HP(p, r, c)                                      \
  (p)[0] = -sz[0] + 2 * sz[0] * (c) / (nc - 1);          \
  (p)[1] = -sz[1] + 2 * sz[1] * (r) / (nr - 1);          \
  (p)[2] = sz[2] * h[(r) * nc + (c)]
  for (int r = 0; r + 1 < nr; r++)
    for (int c = 0; c + 1 < nc; c++) {
      double p[4][3], n[3];
      HP(p[0], r, c); HP(p[1], r, c + 1); HP(p[2], r + 1, c + 1); HP(p[3], r + 1, c);
      face_normal(p[0], p[1], p[2], n);
      vertex(g, p[0], n, 0, 0); vertex(g, p[1], n, 1, 0); vertex(g, p[2], n, 1, 1);
      face_normal(p[0], p[2], p[3], n);
      vertex(g, p[0], n, 0, 0); vertex(g, p[2], n, 1, 1); vertex(g, p[3], n, 0, 1);
    }
  /* sides: from the surface down to the base, one quad per edge segment */
  double zb = -sz[3];
  for (int side = 0; side < 4; side++) {
    int n = side < 2 ? nc : nr;
    for (int k = 0; k + 1 < n; k++) {
      double a[3], b[3], nrm[3] = {0, 0, 0};
      int k0 = k, k1 = k + 1;
      if (side == 0) { HP(a, 0, k1); HP(b, 0, k0); nrm[1] = -1; }
      else if (side == 1) { HP(a, nr - 1, k0); HP(b, nr - 1, k1); nrm[1] = 1; }
      else if (side == 2) { HP(a, k0, 0); HP(b, k1, 0); nrm[0] = -1; }
      else { HP(a, k1, nc - 1); HP(b, k0, nc - 1); nrm[0] = 1; }
      double a0[3] = {a[0], a[1], zb}, b0[3] = {b[0], b[1], zb};
      quad(g, b0, a0, a, b, nrm);
    }
  }
  double nd[3] = {0, 0, -1};
  double c0[3] = {-sz[0], -sz[1], zb}, c1[3] = {sz[0], -sz[1], zb}, c2[3] = {sz[0], sz[1], zb},
         c3[3] = {-sz[0], sz[1], zb};
  quad(g, c0, c3, c2, c1, nd);
#undef HP
  return 1;
}

#define SHAPE(dst, call)               \
  do {                                 \
    int first_ = g->nv;                \
    if (!(call)) return 0;             \
    (dst).first = first_;              \
    (dst).count = g->nv - first_;      \
  } while (0)

/* Share equal vertices (all 8 floats equal): the shapes are built as separate triangles, and a
 * vertex shared by its neighbours is then shaded once (the rasterizer caches transformed
 * vertices of indexed draws). The shapes' ranges stay valid: index i stands for vertex i. */
static uint64_t vhash(const float* v) {
  uint64_t h = 1469598103934665603ull;
  const unsigned char* b = (const unsigned char*)v;
  for (size_t i = 0; i < sizeof(float) * GSR_VSTRIDE; i++) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

static int share_vertices(gsrGeometry* g) {
  size_t cap = 16;
  while (cap < 2 * (size_t)g->nv) cap *= 2;
  int* slot = malloc(sizeof(int) * cap);
  g->index = malloc(sizeof(unsigned) * ((size_t)g->nv + 1));
  float* out = malloc(sizeof(float) * GSR_VSTRIDE * ((size_t)g->nv + 1));
  if (!slot || !g->index || !out) {
    free(slot);
    free(out);
    return 0;
  }
  memset(slot, -1, sizeof(int) * cap);
  int nout = 0;
  for (int i = 0; i < g->nv; i++) {
    const float* v = g->v + GSR_VSTRIDE * i;
    size_t k = vhash(v) & (cap - 1);
    while (slot[k] >= 0 && memcmp(out + GSR_VSTRIDE * slot[k], v, sizeof(float) * GSR_VSTRIDE) != 0)
      k = (k + 1) & (cap - 1);
    if (slot[k] < 0) {
      memcpy(out + GSR_VSTRIDE * nout, v, sizeof(float) * GSR_VSTRIDE);
      slot[k] = nout++;
    }
    g->index[i] = (unsigned)slot[k];
  }
  free(slot);
  free(g->v);
  g->v = out;
  g->nindex = g->nv;
  g->nv = nout;
  return 1;
}

int gsr_buildGeometry(gsrGeometry* g, const gsModel* m, int nslice, int nstack) {
  memset(g, 0, sizeof *g);
  SHAPE(g->prim[GSR_PRIM_SPHERE], sphere_band(g, nslice, nstack, -PI / 2, PI / 2, 0));
  SHAPE(g->prim[GSR_PRIM_CYLSIDE], cylinder_side(g, nslice));
  SHAPE(g->prim[GSR_PRIM_DISKTOP], disk(g, nslice, 1));
  SHAPE(g->prim[GSR_PRIM_DISKBOT], disk(g, nslice, -1));
  SHAPE(g->prim[GSR_PRIM_HEMITOP], sphere_band(g, nslice, nstack / 2, 0, PI / 2, 0));
  SHAPE(g->prim[GSR_PRIM_HEMIBOT], sphere_band(g, nslice, nstack / 2, -PI / 2, 0, 0));
  SHAPE(g->prim[GSR_PRIM_BOX], box(g));
  SHAPE(g->prim[GSR_PRIM_QUAD], plane_grid(g, 20));
  g->mesh = calloc((size_t)m->nmesh + 1, sizeof *g->mesh);
  g->hfield = calloc((size_t)m->nhfield + 1, sizeof *g->hfield);
  if (!g->mesh || !g->hfield) return 0;
  for (int i = 0; i < m->nmesh; i++) SHAPE(g->mesh[i], mesh(g, m, i));
  for (int i = 0; i < m->nhfield; i++) SHAPE(g->hfield[i], hfield(g, m, i));
  return share_vertices(g);
}

void gsr_freeGeometry(gsrGeometry* g) {
  free(g->v);
  free(g->index);
  free(g->mesh);
  free(g->hfield);
  memset(g, 0, sizeof *g);
}
