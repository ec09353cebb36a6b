/* Constraint islands, as MJCF's mj_island defines them: the nodes of a graph are the kinematic
 * trees (a tree's dofs are contiguous), a row joins the trees of the dofs it involves, and an
 * island is a connected component that holds at least one row. Rows of different islands share
 * no dof and the mass matrix couples no two trees, so the primal problem splits into one problem
 * per island, and the dofs of no island keep their smooth acceleration. Islands are numbered in
 * the order of their first dof; within an island dofs and rows keep their order. */
#include <string.h>

#include "constraint/constraint.h"
#include "core/arena.h"

static int find_root(int* parent, int t) {
  while (parent[t] != t) {
    parent[t] = parent[parent[t]];  /* path halving */
    t = parent[t];
  }
  return t;
}

static void no_islands(const gsModel* m, gsData* d) {
  d->nisland = d->nidof = 0;
  for (int i = 0; i < m->nv; i++) {
    d->dof_island[i] = -1;
    d->map_dof2idof[i] = d->map_idof2dof[i] = i;
  }
  for (int r = 0; r < d->nefc; r++) {
    d->efc_island[r] = -1;
    d->map_efc2iefc[r] = d->map_iefc2efc[r] = r;
  }
}

/* The islands when every dof belongs to one tree (a single robot, the common case) and some row
 * has columns: one island of all dofs and of the rows with columns, which the general pass below
 * finds too, by its union-find over the rows; here without it. Returns 0 when not the case. */
static int one_island(const gsModel* m, gsData* d) {
  int nv = m->nv, nefc = d->nefc;
  int root = m->body_rootid[m->dof_bodyid[0]];
  for (int i = 1; i < nv; i++)
    if (m->body_rootid[m->dof_bodyid[i]] != root) return 0;
  int nrow = 0, ne = 0, nf = 0;
  for (int r = 0; r < nefc; r++) {
    int k = d->efc_J_rownnz[r] ? 0 : -1;
    d->efc_island[r] = k;
    if (k < 0) continue;
    int type = d->efc_type[r];
    ne += type == GS_CNSTR_EQUALITY;
    nf += type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON;
    nrow++;
  }
  if (nrow == 0) return 0;
  d->nisland = 1;
  d->island_nv[0] = nv;
  d->island_dofadr[0] = 0;
  d->island_idofadr[0] = 0;
  d->nidof = nv;
  for (int i = 0; i < nv; i++) {
    d->dof_island[i] = 0;
    d->map_idof2dof[i] = d->map_dof2idof[i] = i;
  }
  d->island_nefc[0] = nrow;
  d->island_ne[0] = ne;
  d->island_nf[0] = nf;
  d->island_iefcadr[0] = 0;
  /* rows without columns (no island) after the island's, each group in order */
  for (int r = 0, in = 0, out = nrow; r < nefc; r++) {
    int p = d->efc_island[r] < 0 ? out++ : in++;
    d->map_iefc2efc[p] = r;
    d->map_efc2iefc[r] = p;
  }
  return 1;
}

void gs_island(const gsModel* m, gsData* d) {
  int nv = m->nv, nefc = d->nefc;
  d->deferred &= ~GS_DEFER_ISLAND;
  if (nefc == 0 || nv == 0 || (m->opt.disableflags & GS_DSBL_ISLAND)) {
    no_islands(m, d);
    return;
  }
  if (one_island(m, d)) return;
  size_t mark = gs_arenaMark(d);
  int* dof_tree = gs_arenaAlloc(d, sizeof(int) * (size_t)nv);
  int* parent = gs_arenaAlloc(d, sizeof(int) * (size_t)nv);
  int* hasrow = gs_arenaAlloc(d, sizeof(int) * (size_t)nv);
  int* tree_island = gs_arenaAlloc(d, sizeof(int) * (size_t)nv);
  int* fill = gs_arenaAlloc(d, sizeof(int) * (size_t)(nv + 1));
  if (!dof_tree || !parent || !hasrow || !tree_island || !fill) {
    /* no room: the solvers take the whole problem at once */
    gs_arenaRelease(d, mark);
    no_islands(m, d);
    return;
  }

  /* trees: runs of dofs with the same root body */
  int ntree = 0;
  for (int i = 0, last = -1; i < nv; i++) {
    int root = m->body_rootid[m->dof_bodyid[i]];
    if (root != last) parent[ntree] = ntree, hasrow[ntree] = 0, ntree++, last = root;
    dof_tree[i] = ntree - 1;
  }

  /* every row joins the trees of its columns (the rows of a contact share theirs) */
  for (int r = 0; r < nefc; r++) {
    int nnz = d->efc_J_rownnz[r];
    const int* col = d->efc_J_colind + d->efc_J_rowadr[r];
    if (nnz == 0) continue;
    if (r > 0 && nnz == d->efc_J_rownnz[r - 1] &&
        !memcmp(col, d->efc_J_colind + d->efc_J_rowadr[r - 1], sizeof(int) * (size_t)nnz))
      continue;
    int a = find_root(parent, dof_tree[col[0]]);
    hasrow[a] = 1;
    for (int k = 1; k < nnz; k++) {
      int t = dof_tree[col[k]];
      if (t == dof_tree[col[k - 1]]) continue;
      int b = find_root(parent, t);
      if (b == a) continue;
      /* the smaller tree stays the root: roots are then found in order of first dof */
      if (b < a) { int s = a; a = b; b = s; }
      parent[b] = a;
      hasrow[a] |= hasrow[b];
    }
  }

  /* islands numbered by their first tree */
  int nisland = 0;
  for (int t = 0; t < ntree; t++) {
    int root = find_root(parent, t);
    if (root == t) tree_island[t] = hasrow[t] ? nisland++ : -1;
    else tree_island[t] = tree_island[root];
  }
  d->nisland = nisland;

  /* dofs by island */
  for (int k = 0; k < nisland; k++) d->island_nv[k] = 0, d->island_dofadr[k] = -1;
  int nidof = 0;
  for (int i = 0; i < nv; i++) {
    int k = tree_island[dof_tree[i]];
    d->dof_island[i] = k;
    if (k < 0) continue;
    if (d->island_nv[k]++ == 0) d->island_dofadr[k] = i;
    nidof++;
  }
  d->nidof = nidof;
  for (int k = 0, adr = 0; k < nisland; k++) {
    d->island_idofadr[k] = fill[k] = adr;
    adr += d->island_nv[k];
  }
  fill[nisland] = nidof;  /* unconstrained dofs after the islands' */
  for (int i = 0; i < nv; i++) {
    int k = d->dof_island[i], p = fill[k < 0 ? nisland : k]++;
    d->map_idof2dof[p] = i;
    d->map_dof2idof[i] = p;
  }

  /* rows by island; a row without columns belongs to none and goes last */
  for (int k = 0; k < nisland; k++) d->island_ne[k] = d->island_nf[k] = d->island_nefc[k] = 0;
  int nrow = 0;
  for (int r = 0; r < nefc; r++) {
    int k = d->efc_J_rownnz[r] ? tree_island[dof_tree[d->efc_J_colind[d->efc_J_rowadr[r]]]] : -1;
    d->efc_island[r] = k;
    if (k < 0) continue;
    int type = d->efc_type[r];
    d->island_nefc[k]++;
    d->island_ne[k] += type == GS_CNSTR_EQUALITY;
    d->island_nf[k] += type == GS_CNSTR_FRICTION_DOF || type == GS_CNSTR_FRICTION_TENDON;
    nrow++;
  }
  for (int k = 0, adr = 0; k < nisland; k++) {
    d->island_iefcadr[k] = fill[k] = adr;
    adr += d->island_nefc[k];
  }
  fill[nisland] = nrow;
  for (int r = 0; r < nefc; r++) {
    int k = d->efc_island[r], p = fill[k < 0 ? nisland : k]++;
    d->map_iefc2efc[p] = r;
    d->map_efc2iefc[r] = p;
  }
  gs_arenaRelease(d, mark);
}
