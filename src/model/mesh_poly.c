/* The faces of a mesh's convex hull as polygons (mesh_poly* in fields_world.h): hull triangles
 * whose normals agree are merged, as MJCF compiles them. Measured against MuJoCo 3.3.7 (its
 * mesh_poly* arrays; tests/python/test_mesh_poly.py), the documentation giving only the fields'
 * meaning:
 * - triangles are taken in the hull graph's face order; each one not yet in a polygon starts one
 *   and takes in, across shared edges, every triangle whose unit normal n has |n - n0| < 1.6e-3,
 *   n0 the starting triangle's (tilting one triangle of a box's face: the same threshold at sizes
 *   0.01 to 100 and in any orientation);
 * - the polygon's corners are its boundary, counter-clockwise seen from outside, from the start
 *   of the starting triangle's first edge (in its corner order) that lies on the boundary;
 * - its normal: the unit cross product of its first three corners after scale and refpos/refquat
 *   (a mirroring scale turns it inwards, as MJCF's), then turned into the mesh's inertial frame;
 * - polygons are ordered by the same cross product on the vertices as given (before scale and
 *   refquat), lexicographically descending; the grouping is decided on those too.
 * Nearly coplanar chains of triangles (each within 1.6e-3 of its neighbour, not of the start)
 * are grouped otherwise by MJCF: see the test for what is left out. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/mesh.h"

#define POLY_TOL 1.6e-3  /* |n - n0| below this: the triangle lies in the polygon's plane */

/* an undirected edge (lower vertex, higher vertex) and the face corner k (3 f + k) it starts at */
typedef struct {
  int lo, hi, corner;
} Edge;

static int edge_cmp(const void* x, const void* y) {
  const Edge *e = x, *f = y;
  if (e->lo != f->lo) return e->lo < f->lo ? -1 : 1;
  if (e->hi != f->hi) return e->hi < f->hi ? -1 : 1;
  return (e->corner > f->corner) - (e->corner < f->corner);
}

/* for each face edge (corner 3 f + k: from corner k to k + 1) the face across it, -1 where none:
 * the edges sorted by their ends, an edge met twice in opposite directions joins its two faces */
static int face_neighbours(const int* face, int nf, int* across) {
  Edge* e = malloc(sizeof(Edge) * (3 * (size_t)nf + 1));
  if (!e) return 0;
  for (int c = 0; c < 3 * nf; c++) {
    int a = face[c], b = face[c - c % 3 + (c % 3 + 1) % 3];
    e[c] = (Edge){a < b ? a : b, a < b ? b : a, c};
    across[c] = -1;
  }
  qsort(e, 3 * (size_t)nf, sizeof(Edge), edge_cmp);
  for (int i = 0; i + 1 < 3 * nf; i++) {
    if (e[i].lo != e[i + 1].lo || e[i].hi != e[i + 1].hi) continue;
    int c = e[i].corner, d = e[i + 1].corner;
    if (face[c] != face[d] && across[c] < 0 && across[d] < 0) {  /* opposite directions */
      across[c] = d / 3, across[d] = c / 3;
      i++;
    }
  }
  free(e);
  return 1;
}

static void unit_normal(gsReal n[3], const gsReal* v, int i0, int i1, int i2) {
  gsReal u[3], w[3];
  gs_sub3(u, v + 3 * i1, v + 3 * i0);
  gs_sub3(w, v + 3 * i2, v + 3 * i0);
  gs_cross(n, u, w);
  gs_normalize3(n);
}

typedef struct {
  gsReal key[3];  /* normal in the given frame */
  int first, num; /* corners in the unsorted corner list */
} Poly;

static int poly_cmp(const void* x, const void* y) {
  const Poly *p = x, *q = y;
  for (int k = 0; k < 3; k++)
    if (p->key[k] != q->key[k]) return p->key[k] > q->key[k] ? -1 : 1;
  return (p->first > q->first) - (p->first < q->first);
}

int gs_meshPolygons(gsMeshBuild* b, const gsReal* given, const gsReal* vert, int nvert, const int* face,
                    int nf) {
  b->npoly = b->npolyvert = 0;
  b->poly = NULL, b->polynormal = NULL;
  int* across = malloc(sizeof(int) * (3 * (size_t)nf + 1));
  gsReal* fn = malloc(sizeof(gsReal) * (3 * (size_t)nf + 1));
  int* owner = malloc(sizeof(int) * (3 * (size_t)nf + 1));
  int* queue = owner + nf;
  int* nxt = malloc(sizeof(int) * ((size_t)nvert + 1));
  int* corner = malloc(sizeof(int) * (3 * (size_t)nf + 1));  /* a polygon has fewer corners */
  Poly* poly = malloc(sizeof(Poly) * ((size_t)nf + 1));
  int ok = across && fn && owner && nxt && corner && poly && face_neighbours(face, nf, across);
  if (!ok) goto done;
  for (int f = 0; f < nf; f++) {
    unit_normal(fn + 3 * f, given, face[3 * f], face[3 * f + 1], face[3 * f + 2]);
    owner[f] = -1;
  }
  for (int v = 0; v < nvert; v++) nxt[v] = -1;
  int npoly = 0, ncorner = 0;
  for (int s = 0; s < nf; s++) {
    if (owner[s] >= 0) continue;
    int id = npoly, qn = 0;
    owner[s] = id;
    queue[qn++] = s;
    for (int q = 0; q < qn; q++) {  /* breadth first across shared edges */
      for (int k = 0; k < 3; k++) {
        int o = across[3 * queue[q] + k];
        if (o < 0 || owner[o] >= 0) continue;
        gsReal d[3];
        gs_sub3(d, fn + 3 * o, fn + 3 * s);
        if (gs_norm3(d) < POLY_TOL) owner[o] = id, queue[qn++] = o;
      }
    }
    /* the boundary: edges whose other side lies in another polygon */
    for (int q = 0; q < qn; q++) {
      const int* t = face + 3 * queue[q];
      for (int k = 0; k < 3; k++) {
        int o = across[3 * queue[q] + k];
        if (o < 0 || owner[o] != id) nxt[t[k]] = t[(k + 1) % 3];
      }
    }
    int start = -1;
    for (int q = 0; q < qn && start < 0; q++) {  /* the starting triangle's first, else any */
      const int* t = face + 3 * queue[q];
      for (int k = 0; k < 3 && start < 0; k++)
        if (nxt[t[k]] == t[(k + 1) % 3]) start = t[k];
    }
    Poly* p = poly + npoly++;
    p->first = ncorner, p->num = 0;
    for (int v = start; v >= 0 && p->num < qn + 2;) {
      corner[ncorner++] = v, p->num++;
      int w = nxt[v];
      if (w == start) break;
      v = w;
    }
    for (int q = 0; q < qn; q++)  /* clear the boundary marks */
      for (int k = 0; k < 3; k++) nxt[face[3 * queue[q] + k]] = -1;
    if (p->num >= 3) unit_normal(p->key, given, corner[p->first], corner[p->first + 1], corner[p->first + 2]);
    else gs_copy3(p->key, fn + 3 * s);
  }
  qsort(poly, (size_t)npoly, sizeof(Poly), poly_cmp);
  b->poly = malloc(sizeof(int) * ((size_t)npoly + (size_t)ncorner + 1));
  b->polynormal = malloc(sizeof(gsReal) * (3 * (size_t)npoly + 1));
  ok = b->poly && b->polynormal;
  if (ok) {
    gsReal R[9];
    gs_quat2Mat(R, b->quat);
    int at = npoly;
    for (int i = 0; i < npoly; i++) {
      b->poly[i] = poly[i].num;
      memcpy(b->poly + at, corner + poly[i].first, sizeof(int) * (size_t)poly[i].num);
      at += poly[i].num;
      gsReal n[3];
      if (poly[i].num >= 3) {
        const int* cp = corner + poly[i].first;
        unit_normal(n, vert, cp[0], cp[1], cp[2]);
      } else {
        gs_copy3(n, poly[i].key);
      }
      gs_mulMatTVec3(b->polynormal + 3 * i, R, n);
    }
    b->npoly = npoly, b->npolyvert = ncorner;
  } else {
    free(b->poly), free(b->polynormal);
    b->poly = NULL, b->polynormal = NULL;
  }
done:
  free(across), free(fn), free(owner), free(nxt), free(corner), free(poly);
  return ok;
}
