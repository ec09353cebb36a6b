/* The faces of a mesh's convex hull as polygons (mesh_poly* in fields_world.h): hull triangles
 * whose normals agree are merged, as MJCF compiles them. Measured against MuJoCo 3.3.7 (its
 * mesh_poly* arrays; tests/python/test_mesh_poly.py, tools/mujoco_mesh_poly.py), the
 * documentation giving only the fields' meaning:
 * - the triangles (the hull graph's, else the mesh's) are grouped by their normal n (the
 *   vertices as given, before scale and refpos/refquat; unit, except where the triangle's corners
 *   are nearly in a line: see the polygon's normal below, the same rule, so that such a sliver
 *   makes a polygon of its own, as measured) in the hull's order through an ordered
 *   map: two normals with |n - n'| < 1.6e-3 are one key, others are ordered lexicographically,
 *   larger first, components within 1e-15 counting as equal. That order is not transitive, so
 *   what a lookup finds depends on the order the keys came in: a triangle may miss the group of
 *   its coplanar neighbour (the two stay apart) or miss it on lookup but meet it on insertion
 *   (it is in no polygon). Measured on a cube with one face bent by 1e-6..2e-3: whether the two
 *   halves merge, stay apart or lose one half is decided by which faces come before them, and a
 *   map of this kind reproduces every case; the threshold is the same at sizes 0.01 to 100;
 * - each group makes one polygon per part connected across edges, in the map's order;
 * - the polygon's corners are its boundary, counter-clockwise seen from outside, from the start
 *   of its first triangle's first edge (in its corner order) that lies on the boundary; where
 *   the boundary meets itself at a vertex, the first edge out of it in the triangles' order, and
 *   no polygon where the walk then does not close (see boundary());
 * - its normal: c = (p1 - p0) x (p2 - p0) of its first three corners p0, p1, p2 after scale and
 *   refpos/refquat (a mirroring scale turns it inwards, as MJCF's), each corner first moved into
 *   the mesh's inertial frame in double, p = R^T (v - pos); then c / |c| (divided, not multiplied
 *   by 1 / |c|) where |c| >= 1e-14, else (1 / |c|, 0, 0): not a unit vector. Measured bit for bit
 *   on the 109 meshes of MuJoCo's model/ and test/ trees whose given vertices can be read back
 *   (tools/mujoco_mesh_poly.py --rule; model/mug/mug.xml has 20 polygons whose first corners are exactly in a line as given, |c| of
 *   1e-21 after the move, normals (1e20, 0, 0)), and on a box whose bottom face has a corner
 *   pushed out by d (tests/python/test_mesh_poly_normals.py): the switch lies between |c| of
 *   9.992e-15 and 1.0103e-14. Where |c| is 0 MJCF stores (inf, nan, nan); the model keeps finite
 *   values (gs_validateModel), so gauss stores (1, 0, 0) there, and where 1 / |c| overflows (the
 *   grouping keeps inf and nan). Such normals follow the last bits of the frame (pos, quat). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "model/mesh.h"

#define POLY_TOL 1.6e-3  /* normals closer than this (Euclidean distance) are one key of the map */
#define POLY_TIE 1e-15   /* normal components this close compare equal in the map's order */

/* an undirected edge (lower vertex, higher vertex) and the face corner k (3 f + k) it starts at */
typedef struct {
  int lo, hi, owner, corner;
} Edge;

static int edge_cmp(const void* x, const void* y) {
  const Edge *e = x, *f = y;
  if (e->lo != f->lo) return e->lo < f->lo ? -1 : 1;
  if (e->hi != f->hi) return e->hi < f->hi ? -1 : 1;
  if (e->owner != f->owner) return e->owner < f->owner ? -1 : 1;
  return (e->corner > f->corner) - (e->corner < f->corner);
}

/* for each face edge (corner 3 f + k: from corner k to k + 1, a -> b) the face across it, -1
 * where none: the faces taken in the mesh's order, an edge a -> b joins the earliest face of the
 * same group (owner) still waiting with b -> a, else waits itself. On a closed surface that is
 * the one face with b -> a; where more than two faces meet at an edge (faces given twice, sheets
 * meeting) it is MJCF's pairing, measured on flat grids with faces given twice in random orders
 * and on Metaworld's Sawyer head (a block of faces given twice) and goal net (three faces at an
 * edge, one in another plane): pairing neighbours in the sorted order, or across groups, each
 * part some polygons there (tests/python/test_mesh_poly.py) */
static int face_neighbours(const int* face, const int* owner, int nf, int* across) {
  Edge* e = malloc(sizeof(Edge) * (3 * (size_t)nf + 1));
  int* wait = malloc(sizeof(int) * (3 * (size_t)nf + 1));  /* the corners waiting, a queue */
  if (!e || !wait) {
    free(e), free(wait);
    return 0;
  }
  for (int c = 0; c < 3 * nf; c++) {
    int a = face[c], b = face[c - c % 3 + (c % 3 + 1) % 3];
    e[c] = (Edge){a < b ? a : b, a < b ? b : a, owner[c / 3], c};
    across[c] = -1;
  }
  qsort(e, 3 * (size_t)nf, sizeof(Edge), edge_cmp);
  /* each run of one edge and group, in the faces' order: the corners waiting all run the same
   * way (one that meets a corner waiting the other way takes it instead), so one queue */
  for (int i = 0, j; i < 3 * nf; i = j) {
    for (j = i + 1; j < 3 * nf && e[j].lo == e[i].lo && e[j].hi == e[i].hi && e[j].owner == e[i].owner;) j++;
    int head = 0, tail = 0;
    for (int x = i; x < j; x++) {
      int c = e[x].corner;
      if (head < tail && face[wait[head]] != face[c]) {  /* the earliest waiting the other way */
        int d = wait[head++];
        across[c] = d / 3, across[d] = c / 3;
      } else {
        wait[tail++] = c;
      }
    }
  }
  free(e), free(wait);
  return 1;
}

#define POLY_FLAT 1e-14  /* |c| below this: the normal is (1 / |c|, 0, 0), as MJCF's */

/* the normal of the corners i0, i1, i2 of v as MJCF makes it (see the top): c / |c|, else
 * (1 / |c|, 0, 0), (inf, nan, nan) where |c| is 0; with finite, (1, 0, 0) where that is not finite */
static void normal_of(gsReal n[3], const gsReal* v, int i0, int i1, int i2, int finite) {
  gsReal u[3], w[3];
  gs_sub3(u, v + 3 * i1, v + 3 * i0);
  gs_sub3(w, v + 3 * i2, v + 3 * i0);
  gs_cross(n, u, w);
  gsReal len = gs_norm3(n);
  if (len >= POLY_FLAT) {
    n[0] /= len, n[1] /= len, n[2] /= len;
  } else if (len > 0 && isfinite(1 / len)) {
    n[0] = 1 / len, n[1] = n[2] = 0;
  } else {
    n[0] = finite ? 1 : INFINITY, n[1] = n[2] = finite ? 0 : NAN;
  }
}

/* The grouping of triangles by normal, as measured (see the top): an ordered map from normal to
 * group, a red-black tree whose order counts two normals closer than POLY_TOL as equal and
 * otherwise compares them lexicographically, larger first. That order is not transitive (a and
 * c may both be close to b but not to each other, or lie on either side of it), so what a
 * lookup finds depends on the tree's shape, which depends on the order of insertion: the tree
 * is kept exactly as a red-black map does (lookup by lower bound, unique insertion by descent
 * from the root, the usual recolouring and rotations) so that triangles land where MJCF's do. */
typedef struct {
  const gsReal* key;         /* the normals, 3 per node (the group's first triangle's) */
  int *left, *right, *up;    /* -1: none */
  unsigned char* red;
  int root, n;
} Tree;

/* a before b in the map's order */
static int before(const gsReal* a, const gsReal* b) {
  gsReal d[3];
  gs_sub3(d, a, b);
  if (gs_norm3(d) < POLY_TOL) return 0;  /* close normals are one key */
  for (int k = 0; k < 3; k++)  /* components closer than POLY_TIE are taken as equal */
    if (fabs(a[k] - b[k]) > POLY_TIE) return a[k] > b[k];
  return 0;
}

static const gsReal* node_key(const Tree* t, int x) { return t->key + 3 * x; }

/* the node whose key is equal to k (neither before the other), found as a map finds it (its
 * lower bound, then one comparison), or -1 */
static int tree_find(const Tree* t, const gsReal* k) {
  int y = -1;
  for (int x = t->root; x >= 0;) {
    if (!before(node_key(t, x), k)) y = x, x = t->left[x];
    else x = t->right[x];
  }
  return y >= 0 && !before(k, node_key(t, y)) ? y : -1;
}

static void rotate(Tree* t, int x, int to_left) {
  int* a = to_left ? t->right : t->left;  /* the child that comes up */
  int* b = to_left ? t->left : t->right;
  int y = a[x];
  a[x] = b[y];
  if (b[y] >= 0) t->up[b[y]] = x;
  t->up[y] = t->up[x];
  if (x == t->root) t->root = y;
  else if (x == t->left[t->up[x]]) t->left[t->up[x]] = y;
  else t->right[t->up[x]] = y;
  b[y] = x;
  t->up[x] = y;
}

/* the in-order predecessor of x (x is not the first) */
static int tree_prev(const Tree* t, int x) {
  if (t->left[x] >= 0) {
    for (x = t->left[x]; t->right[x] >= 0;) x = t->right[x];
    return x;
  }
  while (t->up[x] >= 0 && x == t->left[t->up[x]]) x = t->up[x];
  return t->up[x];
}

/* insert node t->n (its key already stored) unless the descent meets an equal key; returns 1
 * when inserted */
static int tree_insert(Tree* t) {
  int z = t->n;
  const gsReal* k = node_key(t, z);
  int x = t->root, y = -1, comp = 1;
  while (x >= 0) {
    y = x;
    comp = before(k, node_key(t, x));
    x = comp ? t->left[x] : t->right[x];
  }
  int j = y;
  if (y >= 0 && comp) {
    int first = t->root;
    while (t->left[first] >= 0) first = t->left[first];
    j = y == first ? -1 : tree_prev(t, y);
  }
  if (j >= 0 && !before(node_key(t, j), k)) return 0;  /* an equal key is there */
  t->left[z] = t->right[z] = -1;
  t->up[z] = y;
  t->red[z] = 1;
  t->n++;
  if (y < 0) t->root = z;
  else if (before(k, node_key(t, y))) t->left[y] = z;  /* the side compared again, as a map does */
  else t->right[y] = z;
  while (z != t->root && t->red[t->up[z]]) {  /* restore the red-black rules */
    int p = t->up[z], g = t->up[p], pl = p == t->left[g];
    int u = pl ? t->right[g] : t->left[g];
    if (u >= 0 && t->red[u]) {
      t->red[p] = t->red[u] = 0, t->red[g] = 1;
      z = g;
    } else {
      if (z == (pl ? t->right[p] : t->left[p])) {
        z = p;
        rotate(t, z, pl);
        p = t->up[z];
      }
      t->red[p] = 0, t->red[g] = 1;
      rotate(t, g, !pl);
    }
  }
  t->red[t->root] = 0;
  return 1;
}

static int int_cmp(const void* x, const void* y) {
  int a = *(const int*)x, b = *(const int*)y;
  return (a > b) - (a < b);
}

/* one polygon: the boundary of the triangles in queue[0..qn) (connected, all of group g), edges
 * whose other side is in another group, walked from the start of the first boundary edge (in
 * corner order) of the first triangle (in the hull's order) that has one; corners appended to
 * corner, their count returned. Where the boundary meets itself at a corner (a region touching
 * itself, or its hole, at one vertex) that corner has two edges out: the walk takes the first in
 * the triangles' order, and a walk that then does not come back to its start (it circles the
 * other loop) makes no polygon, 0 returned; MJCF's, measured on a ring of cells whose hole
 * touches its rim in 160 orders of its triangles and on Metaworld's Sawyer meshes
 * (tests/python/test_mesh_poly.py). An annulus's hole, a loop of its own, is left out. */
/* whether face corner c's edge lies on the boundary of group g: no face across, or another group's */
static int on_boundary(const int* across, const int* owner, int g, int c) {
  return across[c] < 0 || owner[across[c]] != g;
}

static int boundary(const int* face, const int* across, const int* owner, int g, int* queue, int qn,
                    int* nxt, int* corner) {
  qsort(queue, (size_t)qn, sizeof(int), int_cmp);
  for (int q = 0; q < qn; q++)
    for (int k = 0; k < 3; k++) {
      int c = 3 * queue[q] + k;
      if (on_boundary(across, owner, g, c) && nxt[face[c]] < 0) nxt[face[c]] = face[c - k + (k + 1) % 3];
    }
  int start = -1, num = 0, closed = 0;
  for (int q = 0; q < qn && start < 0; q++)
    for (int k = 0; k < 3 && start < 0; k++)
      if (nxt[face[3 * queue[q] + k]] == face[3 * queue[q] + (k + 1) % 3]) start = face[3 * queue[q] + k];
  for (int v = start; v >= 0 && num < qn + 2;) {
    corner[num++] = v;
    int w = nxt[v];
    if (w == start) {
      closed = 1;
      break;
    }
    v = w;
  }
  if (!closed) num = 0;
  int nedge = 0;  /* the boundary's edges, of every loop (counted only where they decide) */
  for (int q = 0; num == 3 && qn > 1 && q < qn; q++)
    for (int k = 0; k < 3; k++) nedge += on_boundary(across, owner, g, 3 * queue[q] + k);
  if (num == 3 && qn > 1 && nedge == 3) {
    /* three corners from several triangles (a fan about inner vertices): the starts of the
     * boundary edges in the triangles' order, which may run clockwise (measured on fans of 3
     * and subdivided triangles in every triangle order; 4 and more corners follow the walk, and
     * so do 3 where the boundary has other loops: on dm_control's dog the walk goes round a
     * triangular hole, one triangle of another group amid a flat region, as MJCF's does) */
    int n = 0;
    for (int q = 0; q < qn && n < 3; q++)
      for (int k = 0; k < 3 && n < 3; k++) {
        int v = face[3 * queue[q] + k];
        if (on_boundary(across, owner, g, 3 * queue[q] + k) && (n < 1 || corner[0] != v) &&
            (n < 2 || corner[1] != v))
          corner[n++] = v;
      }
  }
  for (int q = 0; q < qn; q++)  /* clear the boundary marks */
    for (int k = 0; k < 3; k++) nxt[face[3 * queue[q] + k]] = -1;
  return num;
}

int gs_meshPolygons(gsMeshBuild* b, const gsReal* given, const gsReal* vert, int nvert, const int* face,
                    int nf) {
  b->npoly = b->npolyvert = 0;
  b->poly = NULL, b->polynormal = NULL;
  size_t n3 = 3 * (size_t)nf + 1;
  int* across = malloc(sizeof(int) * n3);
  gsReal* key = malloc(sizeof(gsReal) * n3);
  int* ints = malloc(sizeof(int) * (12 * (size_t)nf + (size_t)nvert + 1));
  unsigned char* red = malloc((size_t)nf + 1);
  int* corner = malloc(sizeof(int) * n3);  /* a polygon has fewer corners than its triangles */
  int ok = across && key && ints && red && corner;
  if (!ok) goto done;
  int *owner = ints, *next = owner + nf, *first = next + nf, *last = first + nf, *stack = last + nf;
  int *queue = stack + nf, *head = queue + nf, *num = head + nf, *seen = num + nf, *nxt = seen + nf;
  Tree t = {key, nxt + nvert, nxt + nvert + nf, nxt + nvert + 2 * (size_t)nf, red, -1, 0};
  /* each triangle in turn joins the group of the key the map finds for its normal, else starts
   * a key and group of its own; one whose normal is not found but whose insertion meets an equal
   * key (the order is not transitive) is in no group, and so in no polygon, as in MJCF */
  for (int f = 0; f < nf; f++) {
    gsReal n[3];
    normal_of(n, given, face[3 * f], face[3 * f + 1], face[3 * f + 2], 0);
    int g = tree_find(&t, n);
    if (g < 0) {
      g = t.n;
      gs_copy3(key + 3 * g, n);
      if (tree_insert(&t)) first[g] = last[g] = f;
      else g = -1;
    } else {
      next[last[g]] = f, last[g] = f;
    }
    owner[f] = g, next[f] = -1, seen[f] = 0;
  }
  if (!(ok = face_neighbours(face, owner, nf, across))) goto done;
  for (int v = 0; v < nvert; v++) nxt[v] = -1;
  /* the groups in the map's order (an in-order walk of the tree); a group whose triangles are
   * not all connected across edges (normals alike in separate places) makes one polygon per
   * connected part, in the order of their first triangles */
  int npoly = 0, ncorner = 0, ns = 0;
  for (int x = t.root; x >= 0 || ns > 0;) {
    if (x >= 0) {
      stack[ns++] = x, x = t.left[x];
      continue;
    }
    int g = stack[--ns];
    x = t.right[g];
    for (int s = first[g]; s >= 0; s = next[s]) {
      if (seen[s]) continue;
      int qn = 0;
      queue[qn++] = s, seen[s] = 1;
      for (int q = 0; q < qn; q++)  /* breadth first across shared edges */
        for (int k = 0; k < 3; k++) {
          int o = across[3 * queue[q] + k];
          if (o >= 0 && owner[o] == g && !seen[o]) queue[qn++] = o, seen[o] = 1;
        }
      head[npoly] = ncorner;
      num[npoly] = boundary(face, across, owner, g, queue, qn, nxt, corner + ncorner);
      if (num[npoly] > 0) ncorner += num[npoly++];
    }
  }
  b->poly = malloc(sizeof(int) * ((size_t)npoly + (size_t)ncorner + 1));
  b->polynormal = malloc(sizeof(gsReal) * (3 * (size_t)npoly + 1));
  ok = b->poly && b->polynormal;
  if (ok) {
    gsReal R[9];
    gs_quat2Mat(R, b->quat);
    int at = npoly;
    for (int i = 0; i < npoly; i++) {
      const int* cp = corner + head[i];
      b->poly[i] = num[i];
      memcpy(b->poly + at, cp, sizeof(int) * (size_t)num[i]);
      at += num[i];
      gsReal w[9], n[3] = {0, 0, 0};  /* the first three corners in the inertial frame */
      for (int k = 0; k < 3 && k < num[i]; k++) {
        gsReal d[3];
        gs_sub3(d, vert + 3 * cp[k], b->pos);
        gs_mulMatTVec3(w + 3 * k, R, d);
      }
      if (num[i] >= 3) normal_of(n, w, 0, 1, 2, 1);
      gs_copy3(b->polynormal + 3 * i, n);
    }
    b->npoly = npoly, b->npolyvert = ncorner;
  } else {
    free(b->poly), free(b->polynormal);
    b->poly = NULL, b->polynormal = NULL;
  }
done:
  free(across), free(key), free(ints), free(red), free(corner);
  return ok;
}
