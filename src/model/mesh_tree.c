/* A bounding-box tree over a mesh's triangles, for casting rays (src/collision/ray.c): each node
 * halves its triangles by their centroids along the longest side of the centroids' box (the
 * median, ties by triangle index, found by selection rather than a sort), down to leaves of at most GS_MESHTREE_LEAF triangles. The
 * split depends only on counts, so the number of nodes is known before the geometry
 * (gs_meshTreeNodes). A node's box holds its triangles' corners, grown by 1e-9 of its size and
 * distance from the origin, so that a ray whose hit rounds to the box's edge is not turned away:
 * the tree only ever leaves out triangles no ray hit can lie on. */
#include <math.h>
#include <stdlib.h>

#include "model/mesh.h"

#define GS_MESHTREE_LEAF 16

int gs_meshTreeNodes(int nface) {
  if (nface <= 0) return 0;
  if (nface <= GS_MESHTREE_LEAF) return 1;
  return 1 + gs_meshTreeNodes(nface / 2) + gs_meshTreeNodes(nface - nface / 2);
}

typedef struct {
  gsReal key;
  int face;
} Keyed;

static int by_key(const void* pa, const void* pb) {
  const Keyed *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->face > b->face) - (a->face < b->face);
}

static void swap(Keyed* a, int i, int j) {
  Keyed t = a[i];
  a[i] = a[j], a[j] = t;
}

/* a[lo, hi) rearranged so that a[nth] is the element of that rank (by_key: a total order) and
 * those before it are smaller (quickselect, the pivot the median of three: deterministic) */
static void select_nth(Keyed* a, int lo, int hi, int nth) {
  while (hi - lo > 1) {
    int m = lo + (hi - lo) / 2, l = hi - 1;
    if (by_key(&a[m], &a[lo]) < 0) swap(a, m, lo);
    if (by_key(&a[l], &a[lo]) < 0) swap(a, l, lo);
    if (by_key(&a[l], &a[m]) < 0) swap(a, l, m);
    swap(a, m, l);  /* the pivot, the median of the three, at the end */
    int store = lo;
    for (int i = lo; i < l; i++)
      if (by_key(&a[i], &a[l]) < 0) swap(a, i, store++);
    swap(a, store, l);
    if (store == nth) return;
    if (nth < store) hi = store;
    else lo = store + 1;
  }
}

typedef struct {
  const gsReal* vert;
  const int* face;
  int* order;      /* the triangles in tree order */
  int (*child)[2];
  gsReal (*box)[6];
  Keyed* scratch;
  int next;        /* the next free node */
} Build;

static int build(Build* b, int lo, int hi) {
  int node = b->next++;
  gsReal* box = b->box[node];
  gsReal clo[3] = {INFINITY, INFINITY, INFINITY}, chi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int i = 0; i < 3; i++) box[i] = INFINITY, box[3 + i] = -INFINITY;
  for (int f = lo; f < hi; f++) {
    const int* t = b->face + 3 * b->order[f];
    for (int i = 0; i < 3; i++) {
      gsReal c = 0;
      for (int k = 0; k < 3; k++) {
        gsReal x = b->vert[3 * t[k] + i];
        box[i] = x < box[i] ? x : box[i];
        box[3 + i] = x > box[3 + i] ? x : box[3 + i];
        c += x;
      }
      clo[i] = c < clo[i] ? c : clo[i];
      chi[i] = c > chi[i] ? c : chi[i];
    }
  }
  for (int i = 0; i < 3; i++) {
    gsReal pad = 1e-9 * (box[3 + i] - box[i] + fabs(box[i]) + fabs(box[3 + i])) + 1e-300;
    box[i] -= pad, box[3 + i] += pad;
  }
  int n = hi - lo;
  if (n <= GS_MESHTREE_LEAF) {
    b->child[node][0] = -1 - lo, b->child[node][1] = n;
    return node;
  }
  int axis = 0;
  for (int i = 1; i < 3; i++)
    if (chi[i] - clo[i] > chi[axis] - clo[axis]) axis = i;
  for (int f = lo; f < hi; f++) {
    const int* t = b->face + 3 * b->order[f];
    b->scratch[f].key = b->vert[3 * t[0] + axis] + b->vert[3 * t[1] + axis] + b->vert[3 * t[2] + axis];
    b->scratch[f].face = b->order[f];
  }
  int mid = lo + n / 2;
  select_nth(b->scratch, lo, hi, mid);
  for (int f = lo; f < hi; f++) b->order[f] = b->scratch[f].face;
  b->child[node][0] = build(b, lo, mid);
  b->child[node][1] = build(b, mid, hi);
  return node;
}

int gs_meshTreeBuild(const gsReal* vert, const int* face, int nface, int (*child)[2],
                     gsReal (*box)[6], int* order) {
  if (nface <= 0) return 1;
  Keyed* scratch = malloc(sizeof(Keyed) * (size_t)nface);
  if (!scratch) return 0;
  for (int f = 0; f < nface; f++) order[f] = f;
  Build b = {vert, face, order, child, box, scratch, 0};
  build(&b, 0, nface);
  free(scratch);
  return 1;
}
