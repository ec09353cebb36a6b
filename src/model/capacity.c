/* The pipeline's capacities (capacity.h). Each stage's bound is written here, next to the others,
 * so that the sum is seen whole: a stage that takes more scratch from the arena adds its term. */
#include <stddef.h>
#include <stdlib.h>

#include "model/capacity.h"
#include "pipeline/pipeline.h"


/* dofs on the longest path from a dof to the root of its tree: the most a body Jacobian touches
 * (a dof's parent comes before it) */
static int max_chain(const gsModel* m, int* depth) {
  int best = 0;
  for (int i = 0; i < m->nv; i++) {
    int p = m->dof_parentid[i];
    depth[i] = 1 + (p >= 0 && p < i ? depth[p] : 0);
    if (depth[i] > best) best = depth[i];
  }
  return best;
}

/* room for contacts: every geom pair that can collide could produce a few; beyond this the
 * collision stage stops adding and raises GS_WARN_CONTACTFULL */
static long contact_capacity(const gsModel* m) {
  long n = 100 + 16L * m->ngeom;
  return n > GS_MAX_CONTACTS ? GS_MAX_CONTACTS : n;
}

/* rows and Jacobian non-zeros the constraint stage may need: every equality, friction loss and
 * limit row at once, and every contact of the contact capacity with the most rows a contact of
 * this model can have (a pyramidal condim 6 contact: 10), each over at most two chains */
static void row_capacity(const gsModel* m, long nconmax, int chain, long* nefc, long* nJ) {
  long rows = 0, nnz = 0, nv = m->nv;
  for (int i = 0; i < m->neq; i++) {
    int r = m->eq_type[i] == GS_EQ_CONNECT ? 3 : m->eq_type[i] == GS_EQ_WELD ? 6 : 1;
    rows += r;
    nnz += r * nv;
  }
  for (int i = 0; i < m->nv; i++) rows += m->dof_frictionloss[i] > 0, nnz += m->dof_frictionloss[i] > 0;
  for (int i = 0; i < m->ntendon; i++) {
    int r = (m->tendon_frictionloss[i] > 0) + 2 * (m->tendon_limited[i] != 0);
    rows += r;
    nnz += r * nv;
  }
  for (int j = 0; j < m->njnt; j++) {
    if (!m->jnt_limited[j]) continue;
    int r = m->jnt_type[j] == GS_JNT_BALL ? 1 : m->jnt_type[j] == GS_JNT_FREE ? 0 : 2;
    rows += r;
    nnz += r * (m->jnt_type[j] == GS_JNT_BALL ? 3 : 1);
  }
  int condim = 1;
  for (int g = 0; g < m->ngeom; g++) condim = m->geom_condim[g] > condim ? m->geom_condim[g] : condim;
  for (int p = 0; p < m->npair; p++) condim = m->pair_dim[p] > condim ? m->pair_dim[p] : condim;
  long per = condim == 1 ? 1 : 2 * (condim - 1);
  long width = 2L * chain < nv ? 2L * chain : nv;
  rows += per * nconmax;
  nnz += per * nconmax * width;
  *nefc = rows > GS_MAX_ROWS ? GS_MAX_ROWS : rows;
  *nJ = nnz > GS_MAX_NNZ ? GS_MAX_NNZ : nnz;
}

/* Newton's Hessian: one nv x nv block on the dense path; on the sparse path a block per kinematic
 * tree and the fill the contacts' graph of trees leaves, which the model cannot know. Up to 64 MB
 * the whole nv x nv is reserved (every model of the corpus); beyond it 16 times the trees' own
 * blocks, so that memory grows with the model, not with nv^2: an island whose fill does not fit
 * is solved by CG instead (src/solver/primal.c), and the arena's warning counts it. */
#define DENSE_HESSIAN_REALS ((size_t)8 << 20)

static size_t hessian_reals(const gsModel* m) {
  size_t nv = (size_t)m->nv, dense = nv * nv;
  if (dense <= DENSE_HESSIAN_REALS || m->opt.jacobian == GS_JAC_DENSE) return dense;
  size_t blocks = 0, n = 0;
  for (int i = 0; i < m->nv; i++) {
    /* the dofs of a tree are contiguous */
    int root = m->body_rootid[m->dof_bodyid[i]];
    n++;
    if (i + 1 == m->nv || m->body_rootid[m->dof_bodyid[i + 1]] != root) {
      blocks += n * n;
      n = 0;
    }
  }
  return 16 * blocks < dense ? 16 * blocks : dense;
}

/* Scratch of every stage, in reals; the stages take it from the arena one after the other and
 * release it, but a sum is simple and the terms are small next to the rows' own memory. */
static size_t arena_capacity(const gsModel* m, long nconmax, long nefcmax, long nJmax, int chain) {
  size_t nv = (size_t)m->nv, nq = (size_t)m->nq, na = (size_t)m->na, nb = (size_t)m->nbody;
  /* smooth pipeline: RK4 keeps four stage derivatives, the implicit integrator a matrix and its
   * factor in M's tree pattern, RNE two spatial vectors per body */
  size_t reals = 24 * (nq + nv + na) + 24 * nb + 2 * (size_t)m->nM + 256;
  /* fluid forces' derivative in the implicit integrators: three 6 x nv Jacobians */
  reals += 18 * nv;
  /* collision: boxes and sort records per geom, room for ~16 candidate pairs per geom (and their
   * sorting buffer) and the sort's count per body, the explicit pairs' order, one pair function's
   * contacts */
  reals += 80 * (size_t)m->ngeom + nb + (size_t)m->npair + 2048;
  /* constraint solver: Newton's Hessian and its block structure, a dozen vectors per dof and per
   * row (with the blocks of rows), and the pattern of M on the dofs solved (an int per entry,
   * counted as a real); one more per dof for M's own free tails (primal.c's tailM and headM) */
  size_t rows = (size_t)nefcmax;
  reals += hessian_reals(m) + 25 * nv + 16 * rows + (size_t)m->nM;
  /* islands: five ints per dof while finding them; without islands the solver lists every dof
   * and row (ints, counted as reals) */
  reals += 3 * nv + rows;
  /* kinematics: each joint's half-angle sine and cosine */
  reals += 2 * (size_t)m->njnt;
  /* PGS: Y = D^-1/2 L^-T J^T by rows (a value and a column each), on the ancestors of J's
   * columns: a row of J holds its chains whole, except a dof's rows (friction loss, limits) which
   * grow by at most a chain; its runs of consecutive dofs (two ints each, at most one a value);
   * the elliptic blocks (at most 11 values a row: condim 6's 36 and its friction matrix's
   * eigenvalues and eigenvectors, 30) and 10 more per row; 14 vectors of nv */
  size_t nY = (size_t)nJmax + rows * (size_t)chain;
  if (nY > rows * nv) nY = rows * nv;
  reals += 3 * nY + 21 * rows + 14 * nv;
  /* and A = Y^T Y whole for up to 64 rows (solver/dual.h's GS_DUAL_DENSE), with a vector of nv,
   * or for up to 64 dofs Y's rows held whole (z's columns, its dofs rounded up to four), two row
   * lists and the rows' and dofs' sets of dofs as bits (one 64-bit word each) */
  size_t ndense = rows < 64 ? rows : 64;
  reals += ndense * ndense + nv +
           (nv <= 64 ? ndense * (((size_t)nv + 3) & ~(size_t)3) + ndense + nv : 0) + ndense;
  /* with z: D^-1/2 and the forces by z's columns, for the finish's Y f */
  if (nv <= 64) reals += nv + ndense;
  /* transition derivatives (gs_transitionFD): the saved inputs, the nominal and two perturbed
   * outputs with their sensors, a state and a sensor difference, a tangent direction, Euler's
   * factor of M + hB */
  size_t ns = (size_t)m->nsensordata;
  reals += 4 * (nq + nv + na) + 4 * ns + 5 * nv + na + (size_t)m->nu + (size_t)m->nM + 16;
  /* rigid-contact inverse dynamics (gs_inverseRigid): dense problems (M is formed) of up to
   * GS_RIGID_ARENACON contacts, for robots of up to GS_RIGID_ARENANV dofs; a call with more than
   * the arena holds reports it (a scene of thousands of bodies reserves nothing: n^2 terms) */
  long nrigid = nconmax < GS_RIGID_ARENACON ? nconmax : GS_RIGID_ARENACON;
  if (m->nv <= GS_RIGID_ARENANV) reals += gs_inverseRigidReals(m->nv, (int)nrigid);
  size_t bytes = reals * sizeof(gsReal) + 64 * 1024;
  /* a multiple of the arena's alignment, as aligned_alloc wants */
  bytes = (bytes + 63) & ~(size_t)63;
  return bytes > GS_MAX_ARENA ? GS_MAX_ARENA : bytes;
}

/* the depth of each dof's chain: the most a body Jacobian touches */
static int chain_of(const gsModel* m) {
  int small[256];
  int* depth = m->nv <= 256 ? small : malloc(sizeof(int) * (size_t)m->nv);
  int chain = depth ? max_chain(m, depth) : m->nv;
  if (depth != small) free(depth);
  return chain;
}

void gs_setCapacity(gsModel* m, long nconmax, long njmax, long long memory, long nstack) {
  int chain = chain_of(m);
  long ncon = nconmax >= 0 ? (nconmax < GS_MAX_CONTACTS ? nconmax : GS_MAX_CONTACTS) : contact_capacity(m);
  long nefc, nJ;
  row_capacity(m, ncon, chain, &nefc, &nJ);
  if (njmax >= 0) {
    /* as many rows as asked, each with the Jacobian room the compiler gives a row on average */
    double per = nefc > 0 ? (double)nJ / nefc : 1;
    nefc = njmax < GS_MAX_ROWS ? njmax : GS_MAX_ROWS;
    double nnz = per * nefc;
    nJ = nnz < GS_MAX_NNZ ? (long)nnz : GS_MAX_NNZ;
  }
  size_t arena = arena_capacity(m, ncon, nefc, nJ, chain);
  if (nstack >= 0) {
    /* <size nstack> (MJCF's legacy attribute: the arena is nstack numbers plus the constraint
     * solver's room): that many numbers on top of the arena the compiler sizes */
    size_t more = (size_t)nstack * sizeof(gsReal);
    arena = arena + more < GS_MAX_ARENA ? (arena + more + 63) & ~(size_t)63 : GS_MAX_ARENA;
  }
  if (memory >= 0) {
    /* <size memory>: the arena as the user sizes it (a multiple of its alignment) */
    arena = (size_t)memory < GS_MAX_ARENA ? ((size_t)memory + 63) & ~(size_t)63 : GS_MAX_ARENA;
  }
  m->nconmax = (int)ncon;
  m->nefcmax = (int)nefc;
  m->nJmax = (int)nJ;
  m->narena = (int)arena;
}

void gs_capacitySettings(const gsModel* m, long* nconmax, long* njmax, long long* memory, long* nstack) {
  gsModel t = *m;  /* a copy whose size fields gs_setCapacity rewrites (it reads the rest) */
  *nconmax = *njmax = *nstack = -1;
  *memory = -1;
  gs_setCapacity(&t, -1, -1, -1, -1);
  if (t.nconmax != m->nconmax) *nconmax = m->nconmax;
  gs_setCapacity(&t, *nconmax, -1, -1, -1);
  if (t.nefcmax != m->nefcmax || t.nJmax != m->nJmax) *njmax = m->nefcmax;
  gs_setCapacity(&t, *nconmax, *njmax, -1, -1);
  if (t.narena == m->narena) return;
  if (m->narena > t.narena && (m->narena - t.narena) % (int)sizeof(gsReal) == 0) {
    *nstack = (m->narena - t.narena) / (int)sizeof(gsReal);
    gs_setCapacity(&t, *nconmax, *njmax, -1, *nstack);
    if (t.narena == m->narena) return;
    *nstack = -1;
  }
  *memory = m->narena;  /* (memory and njmax are not given together: njmax dropped) */
  *njmax = -1;
}
