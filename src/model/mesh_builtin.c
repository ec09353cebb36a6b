/* Builtin meshes (<mesh builtin= params=>): the vertices and triangles MJCF generates for each
 * builtin type, in its order, so that the convex hull (and qhull's facet order), the volume and
 * the inertia are the ones MJCF compiles. Semantics from MuJoCo's XML reference; vertex order,
 * triangle order and rounding measured against MuJoCo 3.3.7's generated meshes:
 * - sphere (subdivision 0-4): the unit icosahedron, each subdivision splitting every triangle in
 *   four at its edges' midpoints (a midpoint made once per edge, in the order the triangles meet
 *   it), midpoints normalised in single precision;
 * - hemisphere (resolution 0-10): the pole, rings k = 1 .. r+1 of 4k points of the octahedron's
 *   upper faces (|x| + |y| = k, z = r + 1 - k) projected on the sphere, and the centre;
 * - cone (nvert, radius): a unit polygon at z = -1 and one of the given radius at z = 1 (a single
 *   apex for radius 0); no triangles (the hull's);
 * - supersphere (resolution, e, n) and supertorus (resolution, radius, s, t): latitude/longitude
 *   grids with signed powers of the cosines and sines;
 * - wedge (res_phi, res_theta, fov_phi, fov_theta, gamma) and plate (res_x, res_y): the surfaces
 *   of the tactile sensor, points at the centres of a grid of cells (a wedge's cells denser at
 *   its centre by the foveal deformation gamma).
 * A builtin mesh has at most about 10^5 vertices (a short file must not ask for a hull of
 * millions of points). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/mesh.h"

typedef struct {
  gsMeshData* md;
  int vcap, fcap;
} Builder;

static int reserve(Builder* b, int nvert, int nface) {
  gsMeshData* md = b->md;
  md->vert = malloc(sizeof(gsReal) * (3 * (size_t)nvert + 1));
  md->face = malloc(sizeof(int) * (3 * (size_t)nface + 1));
  b->vcap = nvert, b->fcap = nface;
  return md->vert && md->face;
}

/* x rounded to single precision. Through a volatile: GCC 12 at -O2 pairs the three coordinates
 * into one vector division and drops the round trip through float for two of them. */
static gsReal single(gsReal x) {
  volatile float f = (float)x;
  return (gsReal)f;
}

static int add_vert(Builder* b, gsReal x, gsReal y, gsReal z) {
  gsMeshData* md = b->md;
  gsReal* v = md->vert + 3 * md->nvert;
  v[0] = single(x), v[1] = single(y), v[2] = single(z);
  return md->nvert++;
}

static void add_face(Builder* b, int i, int j, int k) {
  gsMeshData* md = b->md;
  int* f = md->face + 3 * md->nface++;
  f[0] = i, f[1] = j, f[2] = k;
}

/* sign(x) |x|^e */
static gsReal spow(gsReal x, gsReal e) { return copysign(pow(fabs(x), e), x); }

/* ---- sphere ---- */

static const int kIcoFaces[20][3] = {
    {0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
    {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
    {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};

typedef struct {
  int a, b, mid;
} Edge;

/* the midpoint of edge (a, b) on the sphere, made once; the edge table is a hash on (a, b) */
static int midpoint(Builder* bd, Edge* table, int tsize, int a, int b) {
  if (a > b) {
    int t = a;
    a = b, b = t;
  }
  unsigned h = ((unsigned)a * 73856093u) ^ ((unsigned)b * 19349663u);
  for (int i = (int)(h % (unsigned)tsize);; i = (i + 1) % tsize) {
    if (table[i].mid < 0) {
      const gsReal *p = bd->md->vert + 3 * a, *q = bd->md->vert + 3 * b;
      /* in single precision, as MJCF */
      float m[3], n;
      for (int k = 0; k < 3; k++) m[k] = ((float)p[k] + (float)q[k]) * 0.5f;
      n = sqrtf(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
      table[i].a = a, table[i].b = b;
      table[i].mid = add_vert(bd, m[0] / n, m[1] / n, m[2] / n);
      return table[i].mid;
    }
    if (table[i].a == a && table[i].b == b) return table[i].mid;
  }
}

static int make_sphere(Builder* b, int s) {
  int nv = 2 + 10 * (1 << (2 * s)), nf = 20 * (1 << (2 * s));
  if (!reserve(b, nv, nf)) return 0;
  gsReal t = (1 + sqrt(5.0)) / 2;
  const gsReal ico[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                             {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (int i = 0; i < 12; i++) {
    gsReal n = gs_norm3(ico[i]);
    add_vert(b, ico[i][0] / n, ico[i][1] / n, ico[i][2] / n);
  }
  int* faces = malloc(sizeof(int) * 3 * (size_t)nf);
  int* next = malloc(sizeof(int) * 3 * (size_t)nf);
  int tsize = 2 * nv + 1;
  Edge* table = malloc(sizeof(Edge) * (size_t)tsize);
  int ok = faces && next && table;
  int cur = 20;
  if (ok) memcpy(faces, kIcoFaces, sizeof(kIcoFaces));
  for (int level = 0; ok && level < s; level++) {
    for (int i = 0; i < tsize; i++) table[i].mid = -1;
    int n = 0;
    for (int f = 0; f < cur; f++) {
      int a = faces[3 * f], bb = faces[3 * f + 1], c = faces[3 * f + 2];
      int ab = midpoint(b, table, tsize, a, bb), bc = midpoint(b, table, tsize, bb, c),
          ca = midpoint(b, table, tsize, c, a);
      const int tri[4][3] = {{a, ab, ca}, {bb, bc, ab}, {c, ca, bc}, {ab, bc, ca}};
      memcpy(next + 3 * n, tri, sizeof(tri));
      n += 4;
    }
    int* tmp = faces;
    faces = next, next = tmp;
    cur = n;
  }
  if (ok)
    for (int f = 0; f < cur; f++) add_face(b, faces[3 * f], faces[3 * f + 1], faces[3 * f + 2]);
  free(faces);
  free(next);
  free(table);
  return ok;
}

/* ---- hemisphere ---- */

static int make_hemisphere(Builder* b, int r) {
  int nv = 2 + 2 * (r + 1) * (r + 2), nf = 4 * (r + 1) * (r + 2);
  if (!reserve(b, nv, nf)) return 0;
  add_vert(b, 0, 0, 1);
  for (int k = 1; k <= r + 1; k++)
    for (int q = 0; q < 4; q++)
      for (int j = 0; j < k; j++) {
        gsReal a = k - j, c = j, p[3];
        gsReal xy[4][2] = {{a, c}, {-c, a}, {-a, -c}, {c, -a}};
        p[0] = xy[q][0], p[1] = xy[q][1], p[2] = r + 1 - k;
        gsReal n = gs_norm3(p);
        add_vert(b, p[0] / n, p[1] / n, p[2] / n);
      }
  int centre = add_vert(b, 0, 0, 0);
  /* ring k starts at 1 + 2 k (k - 1) and has 4 k points */
#define RING(k, i) (1 + 2 * (k) * ((k) - 1) + ((i) % (4 * (k))))
  for (int j = 0; j < 4; j++) add_face(b, 0, RING(1, j), RING(1, j + 1));
  for (int k = 1; k <= r; k++)
    for (int q = 0; q < 4; q++)
      for (int j = 0; j <= k; j++) {
        int in = RING(k, q * k + j), o0 = RING(k + 1, q * (k + 1) + j),
            o1 = RING(k + 1, q * (k + 1) + j + 1);
        add_face(b, in, o0, o1);
        if (j < k) add_face(b, in, o1, RING(k, q * k + j + 1));
      }
  for (int j = 0; j < 4 * (r + 1); j++) add_face(b, RING(r + 1, j), centre, RING(r + 1, j + 1));
#undef RING
  return 1;
}

/* ---- cone ---- */

static int make_cone(Builder* b, int n, gsReal radius) {
  if (!reserve(b, radius == 0 ? n + 1 : 2 * n, 0)) return 0;
  for (int i = 0; i < n; i++) {
    gsReal a = 2 * GS_PI * i / n;
    add_vert(b, cos(a), sin(a), -1);
  }
  if (radius == 0) {
    add_vert(b, 0, 0, 1);
  } else {
    for (int i = n; i < 2 * n; i++) {  /* the angle counts on from the bottom ring, as MJCF */
      gsReal a = 2 * GS_PI * i / n;
      add_vert(b, radius * cos(a), radius * sin(a), 1);
    }
  }
  return 1;
}

/* ---- supersphere, supertorus ---- */

static int make_supersphere(Builder* b, int res, gsReal e, gsReal n) {
  if (!reserve(b, 2 + res * (res - 1), 2 * res * (res - 1))) return 0;
  add_vert(b, 0, 0, -1);
  for (int i = 1; i < res; i++) {
    /* latitude from the south pole, as MJCF computes it (the equator's z is its rounding) */
    gsReal v = -GS_PI / 2 + GS_PI * i / res, z = spow(sin(v), n), r = spow(cos(v), n);
    for (int j = 0; j < res; j++) {
      gsReal u = 2 * GS_PI * j / res - GS_PI;
      add_vert(b, r * spow(cos(u), e), r * spow(sin(u), e), z);
    }
  }
  int top = add_vert(b, 0, 0, 1);
  for (int j = 0; j < res; j++) add_face(b, 0, 1 + (j + 1) % res, 1 + j);
  for (int i = 0; i + 2 < res; i++) {
    int a = 1 + i * res, c = a + res;
    for (int j = 0; j < res; j++) {
      int j1 = (j + 1) % res;
      add_face(b, a + j, a + j1, c + j);
      add_face(b, a + j1, c + j1, c + j);
    }
  }
  int a = 1 + (res - 2) * res;
  for (int j = 0; j < res; j++) add_face(b, a + j, a + (j + 1) % res, top);
  return 1;
}

static int make_supertorus(Builder* b, int res, gsReal radius, gsReal s, gsReal t) {
  if (!reserve(b, res * res, 2 * res * res)) return 0;
  for (int i = 0; i < res; i++) {
    gsReal u = 2 * GS_PI * i / res;
    for (int j = 0; j < res; j++) {
      gsReal v = 2 * GS_PI * j / res, w = 1 + radius * spow(cos(v), s);
      add_vert(b, w * spow(cos(u), t), w * spow(sin(u), t), radius * spow(sin(v), s));
    }
  }
  for (int i = 0; i < res; i++)
    for (int j = 0; j < res; j++) {
      int i1 = (i + 1) % res, j1 = (j + 1) % res;
      int a = i * res + j, c = i1 * res + j, a1 = i * res + j1, c1 = i1 * res + j1;
      add_face(b, a, c, a1);
      add_face(b, c, c1, a1);
    }
  return 1;
}

/* ---- the tactile surfaces ---- */

/* the n cells across the field of view fov (degrees) under the foveal deformation gamma, as
 * angles (radians): the cell edges x are walked from -1 in steps of 2/n, each goes to
 * (1 - gamma) x + gamma x^5 and is scaled to the field, and a cell's angle is the mean of its two
 * edges' (gamma 0: the uniform grid). Measured on MJCF 3.3.7's wedges, whose points this gives to
 * the bit (wedges of 1 to 30 cells, fields of 10 to 180 degrees, gamma 0, 0.3, 0.5, 0.9 and 1;
 * the documentation gives no formula): the last bits matter, a wedge of 180 x 90 degrees has
 * points on the sphere whose hull facets are flat quadrilaterals, split by qhull as those bits
 * say. The edges' angles are kept apart from their means so that no multiply-add fuses them. */
static void cell_angles(gsReal* out, gsReal* edge, int n, gsReal fov, gsReal gamma) {
  gsReal scale = fov * GS_PI / 180, step = (gsReal)2 / n, x = -1;
  for (int k = 0; k <= n; k++) {
    edge[k] = scale * ((1 - gamma) * x + gamma * pow(x, 5));
    x += step;
  }
  for (int k = 0; k < n; k++) out[k] = (edge[k] + edge[k + 1]) / 2;
}

static int make_wedge(Builder* b, int rp, int rt, gsReal fp, gsReal ft, gsReal gamma) {
  if (!reserve(b, rp * rt, 0)) return 0;
  gsReal* ang = malloc(sizeof(gsReal) * (2 * (size_t)(rp + rt) + 2));
  if (!ang) return 0;
  gsReal *ph = ang, *th = ang + rp, *edge = ang + rp + rt;
  cell_angles(ph, edge, rp, fp, gamma);
  cell_angles(th, edge, rt, ft, gamma);
  for (int i = 0; i < rp; i++)
    for (int j = 0; j < rt; j++) add_vert(b, cos(th[j]) * sin(ph[i]), sin(th[j]), -cos(th[j]) * cos(ph[i]));
  free(ang);
  return 1;
}

static int make_plate(Builder* b, int rx, int ry) {
  if (!reserve(b, rx * ry, 2 * (rx > 1 ? rx - 1 : 0) * (ry > 1 ? ry - 1 : 0))) return 0;
  for (int i = 0; i < rx; i++)
    for (int j = 0; j < ry; j++)
      add_vert(b, (gsReal)(2 * i + 1 - rx) / rx, (gsReal)(2 * j + 1 - ry) / ry, -1);
  for (int i = 0; i + 1 < rx; i++)
    for (int j = 0; j + 1 < ry; j++) {
      int a = i * ry + j;
      add_face(b, a, a + ry, a + 1);
      add_face(b, a + ry + 1, a + 1, a + ry);
    }
  return 1;
}

/* ---- dispatch ---- */

typedef struct {
  const char* name;
  const char* title;  /* for messages, as MJCF writes it */
  int nparam;
} Kind;

static const Kind kKinds[] = {
    {"sphere", "Sphere", 1},           {"hemisphere", "Hemisphere", 1},
    {"cone", "Cone", 2},               {"supersphere", "Supersphere", 3},
    {"supertorus", "Supertorus", 4},   {"wedge", "Wedge", 5},
    {"plate", "Plate", 2},
};

#define FAIL(...) return snprintf(err, (size_t)errsz, __VA_ARGS__), 0

int gs_meshBuiltin(const char* name, const gsReal* p, int np, gsMeshData* out, char* err, int errsz) {
  memset(out, 0, sizeof(*out));
  int kind = -1;
  for (int i = 0; i < (int)(sizeof kKinds / sizeof kKinds[0]); i++)
    if (strcmp(name, kKinds[i].name) == 0) kind = i;
  if (kind < 0)
    FAIL("builtin: invalid keyword '%.40s' (sphere, hemisphere, cone, supersphere, supertorus, "
         "wedge or plate)", name);
  const Kind* k = &kKinds[kind];
  if (np != k->nparam)
    FAIL("%s mesh type requires %d parameter%s, params has %d", k->title, k->nparam,
         k->nparam > 1 ? "s" : "", np);
  for (int i = 0; i < np; i++)
    if (!isfinite(p[i])) FAIL("params[%d] is not finite", i);
  /* integer parameters are read as MJCF reads them: truncated */
  int n0 = p[0] > 1e6 ? 1000000 : p[0] < -1e6 ? -1000000 : (int)p[0];
  Builder b = {out, 0, 0};
  int ok;
  switch (kind) {
    case 0:
      if (n0 < 0) FAIL("Sphere subdivision cannot be negative");
      if (n0 > 4) FAIL("Sphere subdivision cannot be greater than 4");
      ok = make_sphere(&b, n0);
      break;
    case 1:
      if (n0 < 0) FAIL("Hemisphere resolution cannot be negative");
      if (n0 > 10) FAIL("Hemisphere resolution cannot be greater than 10");
      ok = make_hemisphere(&b, n0);
      break;
    case 2:
      if (n0 < 1) FAIL("Cone nvert must be positive");
      if (n0 > 50000) FAIL("Cone nvert cannot be greater than 50000");
      if (p[1] < 0) FAIL("Cone radius cannot be negative");
      ok = make_cone(&b, n0, p[1]);
      break;
    case 3:
      if (n0 < 3) FAIL("Supersphere resolution must be greater than 2");
      if (n0 > 300) FAIL("Supersphere resolution cannot be greater than 300");
      if (p[1] < 0) FAIL("Supersphere 'e' cannot be negative");
      if (p[2] < 0) FAIL("Supersphere 'n' cannot be negative");
      ok = make_supersphere(&b, n0, p[1], p[2]);
      break;
    case 4:
      if (n0 < 3) FAIL("Supertorus resolution must be greater than 2");
      if (n0 > 300) FAIL("Supertorus resolution cannot be greater than 300");
      if (!(p[1] > 0 && p[1] <= 1)) FAIL("Supertorus radius must be in (0, 1]");
      if (!(p[2] > 0)) FAIL("Supertorus 's' must be greater than 0");
      if (!(p[3] > 0)) FAIL("Supertorus 't' must be greater than 0");
      ok = make_supertorus(&b, n0, p[1], p[2], p[3]);
      break;
    case 5: {
      int n1 = p[1] > 1e6 ? 1000000 : p[1] < -1e6 ? -1000000 : (int)p[1];
      if (n0 < 0 || n1 < 0) FAIL("Wedge resolutions cannot be negative");
      if ((long long)n0 * n1 > 100000) FAIL("Wedge resolutions give more than 100000 vertices");
      if (!(p[2] > 0 && p[2] <= 180)) FAIL("fov[0] must be a float between (0, 180] degrees");
      if (!(p[3] > 0 && p[3] <= 90)) FAIL("fov[1] must be a float between (0, 90] degrees");
      if (!(p[4] >= 0 && p[4] <= 1)) FAIL("`gamma` must be a nonnegative float between [0, 1]");
      ok = make_wedge(&b, n0, n1, p[2], p[3], p[4]);
      break;
    }
    default: {
      int n1 = p[1] > 1e6 ? 1000000 : p[1] < -1e6 ? -1000000 : (int)p[1];
      if (n0 <= 0 || n1 <= 0) FAIL("Horizontal and vertical resolutions must be positive");
      if ((long long)n0 * n1 > 100000) FAIL("Plate resolutions give more than 100000 vertices");
      ok = make_plate(&b, n0, n1);
      break;
    }
  }
  if (!ok) {
    gs_meshDataFree(out);
    FAIL("out of memory");
  }
  return 1;
}
