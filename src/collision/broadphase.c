/* The collision stage: candidate geom pairs (explicit <pair>s, then the broad phase's dynamic
 * pairs through the filters), the narrow phase, and the parameters of each contact.
 *
 * Order of the contacts, as MuJoCo produces them: by body pair (smaller body id first, then the
 * other), and within one body pair the explicit pairs first (in their order), then the dynamic
 * pairs by the geoms as the narrow phase takes them (the lower geom type first), as MJCF's
 * midphase sorts them; with the midphase disabled, by geom of the first body, then geom of the
 * second (gs_candidateKey). A dynamic pair that is also an explicit pair is skipped. Nothing is
 * detected when contacts or constraints are disabled.
 *
 * Broad phase: sweep-and-prune over world-aligned boxes of the geoms (grown by their margins) on
 * the axis along which the box centres spread most; planes are unbounded and pair with every
 * other geom. Measured with bench/collision_bench.py (Release, whole stage per call, narrow phase
 * included), sweep-and-prune against an all-pairs test of the same boxes (-DGS_COLLISION_ALLPAIRS):
 *   pile of 200 spheres on a plane: 20.3 us vs 33.2 us; pile of 200 mixed primitives: 414 us vs
 *   432 us (the convex narrow phase dominates); gymnasium humanoid 1.19 vs 1.26 us; ant 0.81 vs
 *   1.38 us. Sweep-and-prune is kept: faster on piles, no slower on small models. */
#include "collision/stage.h"
#include "core/arena.h"
#include "core/math.h"
#include "core/moving.h"

/* ---- broad phase ---- */

/* an order-preserving unsigned image of a double, for sorting with integer keys */
static uint64_t sortable(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
}

/* half-sizes of a box about the geom frame's origin that holds a mesh geom: geom_size is the
 * vertices' half-extent in that frame, computed before the vertices were rounded to single
 * precision; the relative 1e-6 covers that rounding, so the box holds every stored vertex */
static void mesh_box(const gsModel* m, int g, gsReal a[3]) {
  const gsReal* s = m->geom_size + 3 * g;
  gsReal slack = 1e-6 * m->geom_rbound[g];
  for (int i = 0; i < 3; i++) a[i] = s[i] + slack;
}

/* half-sizes of a box about the geom frame's origin that holds geom g; 0 for unbounded types
 * (planes) and height fields (their box is not centred on the frame) */
static int local_box(const gsModel* m, int g, gsReal a[3]) {
  const gsReal* s = m->geom_size + 3 * g;
  switch (m->geom_type[g]) {
    case GS_GEOM_SPHERE: a[0] = a[1] = a[2] = s[0]; return 1;
    case GS_GEOM_CAPSULE: a[0] = a[1] = s[0]; a[2] = s[0] + s[1]; return 1;
    case GS_GEOM_CYLINDER: a[0] = a[1] = s[0]; a[2] = s[1]; return 1;
    case GS_GEOM_ELLIPSOID:
    case GS_GEOM_BOX: a[0] = s[0]; a[1] = s[1]; a[2] = s[2]; return 1;
    case GS_GEOM_MESH: mesh_box(m, g, a); return 1;
    default: return 0;
  }
}

/* Mid-phase test of two geoms by their boxes in their own frames (oriented boxes), grown by the
 * margin: 1 when an axis of the 15 of the separating-axis theorem (the boxes' face normals and
 * the cross products of their edges) separates them, so the shapes are apart beyond the margin
 * and the narrow phase would report nothing. Each box holds its shape, so a separating axis of
 * the boxes separates the shapes. Parallel edges give cross products near zero, which separate
 * nothing (the tolerance keeps rounding from claiming otherwise). */
static int boxes_apart(const gsModel* m, const gsData* d, int g1, int g2, gsReal margin) {
  gsReal a[3], b[3];
  if (!local_box(m, g1, a) || !local_box(m, g2, b)) return 0;
  const gsReal* R1 = d->geom_xmat + 9 * g1;
  const gsReal* R2 = d->geom_xmat + 9 * g2;
  gsReal dp[3], t[3], c[3][3], ac[3][3];
  gs_sub3(dp, d->geom_xpos + 3 * g2, d->geom_xpos + 3 * g1);
  /* t: the centre offset in g1's frame; c[i][j]: axis i of g1 dotted with axis j of g2 */
  for (int i = 0; i < 3; i++) {
    t[i] = R1[i] * dp[0] + R1[3 + i] * dp[1] + R1[6 + i] * dp[2];
    for (int j = 0; j < 3; j++) {
      c[i][j] = R1[i] * R2[j] + R1[3 + i] * R2[3 + j] + R1[6 + i] * R2[6 + j];
      ac[i][j] = fabs(c[i][j]) + 1e-12;
    }
  }
  for (int i = 0; i < 3; i++)
    if (fabs(t[i]) > a[i] + b[0] * ac[i][0] + b[1] * ac[i][1] + b[2] * ac[i][2] + margin) return 1;
  for (int j = 0; j < 3; j++) {
    gsReal tj = t[0] * c[0][j] + t[1] * c[1][j] + t[2] * c[2][j];
    if (fabs(tj) > b[j] + a[0] * ac[0][j] + a[1] * ac[1][j] + a[2] * ac[2][j] + margin) return 1;
  }
  for (int i = 0; i < 3; i++) {
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    for (int j = 0; j < 3; j++) {
      int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      /* the axis (g1 axis i) x (g2 axis j) in g1's frame, of length sqrt(1 - c[i][j]^2) */
      gsReal len2 = 1 - c[i][j] * c[i][j];
      if (len2 < 1e-12) continue;
      gsReal ra = a[i1] * ac[i2][j] + a[i2] * ac[i1][j];
      gsReal rb = b[j1] * ac[i][j2] + b[j2] * ac[i][j1];
      if (fabs(t[i2] * c[i1][j] - t[i1] * c[i2][j]) > ra + rb + margin * sqrt(len2)) return 1;
    }
  }
  return 0;
}

/* world-aligned half extents of geom g around geom_xpos */
static void half_extents(const gsModel* m, const gsData* d, int g, gsReal h[3]) {
  const gsReal* R = d->geom_xmat + 9 * g;
  const gsReal* s = m->geom_size + 3 * g;
  switch (m->geom_type[g]) {
    case GS_GEOM_SPHERE:
      h[0] = h[1] = h[2] = s[0];
      return;
    case GS_GEOM_CAPSULE:
      for (int i = 0; i < 3; i++) h[i] = s[0] + fabs(R[3 * i + 2]) * s[1];
      return;
    case GS_GEOM_CYLINDER:
      for (int i = 0; i < 3; i++)
        h[i] = (fabs(R[3 * i]) + fabs(R[3 * i + 1])) * s[0] + fabs(R[3 * i + 2]) * s[1];
      return;
    case GS_GEOM_ELLIPSOID:
    case GS_GEOM_BOX:
      for (int i = 0; i < 3; i++)
        h[i] = fabs(R[3 * i]) * s[0] + fabs(R[3 * i + 1]) * s[1] + fabs(R[3 * i + 2]) * s[2];
      return;
    case GS_GEOM_HFIELD: {
      /* the box [-sx, sx] x [-sy, sy] x [-base, top] of the field's frame, around geom_xpos */
      const gsReal* hs = m->hfield_size + 4 * m->geom_dataid[g];
      gsReal a[3] = {hs[0], hs[1], 0.5 * (hs[2] + hs[3])}, zc = 0.5 * (hs[2] - hs[3]);
      for (int i = 0; i < 3; i++)
        h[i] = fabs(R[3 * i + 2] * zc) + fabs(R[3 * i]) * a[0] + fabs(R[3 * i + 1]) * a[1] +
               fabs(R[3 * i + 2]) * a[2];
      return;
    }
    case GS_GEOM_MESH: {
      /* the box of the mesh's vertices in the geom frame (geom_size), not the bounding sphere:
       * long thin meshes (frame extrusions, arm links) have spheres far wider than themselves */
      gsReal a[3];
      mesh_box(m, g, a);
      for (int i = 0; i < 3; i++)
        h[i] = fabs(R[3 * i]) * a[0] + fabs(R[3 * i + 1]) * a[1] + fabs(R[3 * i + 2]) * a[2];
      return;
    }
    default:
      h[0] = h[1] = h[2] = m->geom_rbound[g];
      return;
  }
}

/* a plane gp and a primitive g (every point of which lies within its bounding sphere): apart when
 * the sphere's lowest point is above the plane by more than the margin, where the narrow phase
 * would find nothing (most of a body's geoms are far above the floor); the slack leaves rounding
 * ties to the narrow phase */
static inline int plane_apart(const gsModel* m, const gsData* d, int gp, int g, gsReal margin) {
  int t = m->geom_type[g];
  gsReal r = m->geom_rbound[g];
  if (t < GS_GEOM_SPHERE || t > GS_GEOM_BOX || !(r > 0)) return 0;
  const gsReal* R = d->geom_xmat + 9 * gp;
  gsReal dx[3];
  gs_sub3(dx, d->geom_xpos + 3 * g, d->geom_xpos + 3 * gp);
  gsReal above = R[2] * dx[0] + R[5] * dx[1] + R[8] * dx[2] - r;
  return above > margin + 1e-9 * (r + fabs(above) + fabs(margin));
}

static int can_collide(const gsModel* m, int g) {
  return m->geom_contype[g] || m->geom_conaffinity[g];
}

/* append the candidate (g1, g2) if the filters let it through; returns 0 when out of room.
 * Inline, the filter first (it is symmetric): most overlapping boxes of a small model are geoms
 * of one body or of a parent and its child (an ant's sweep: 26 pairs a call, all rejected), and
 * a call for each cost more than its tests. */
static inline __attribute__((always_inline)) int push(const gsModel* m, gsCandidate* c, int* n,
                                                      int cap, int g1, int g2) {
  if (!gs_dynamicFilter(m, g1, g2)) return 1;
  int ga = g1, gb = g2;
  if (m->geom_bodyid[g1] > m->geom_bodyid[g2]) ga = g2, gb = g1;
  if (*n >= cap) return 0;
  c[*n].key = gs_candidateKey(m, ga, gb);
  c[*n].ga = ga;
  c[*n].gb = gb;
  (*n)++;
  return 1;
}

/* Sorts the candidates by key: distributed by the first body (a counting sort, stable), then each
 * body's run by the rest of the key, where the runs are short and mostly in order already. Falls
 * back on the merge sort when the arena has no room for the counts. */
static void sort_by_body(const gsModel* m, gsData* d, gsCandidate* c, gsCandidate* tmp, int n) {
  /* often in order already: the planes' pairs come first, in geom (so body) order, and a small
   * model's sweep adds a few */
  int i = 1;
  while (i < n && c[i - 1].key <= c[i].key) i++;
  if (i >= n) return;
  size_t mark = gs_arenaMark(d);
  int* start = gs_arenaAlloc(d, (size_t)(m->nbody + 1) * sizeof(int));
  if (!start) {
    gs_sortCandidates(c, tmp, n);
    return;
  }
  memset(start, 0, (size_t)(m->nbody + 1) * sizeof(int));
  for (int i = 0; i < n; i++) start[m->geom_bodyid[c[i].ga] + 1]++;
  for (int b = 0; b < m->nbody; b++) start[b + 1] += start[b];
  for (int i = 0; i < n; i++) tmp[start[m->geom_bodyid[c[i].ga]]++] = c[i];
  /* start[b] is now where body b's run ends */
  int lo = 0;
  for (int b = 0; b < m->nbody; b++) {
    int hi = start[b];
    if (hi - lo > 32) {
      gs_sortCandidates(tmp + lo, c + lo, hi - lo);
    } else {
      for (int i = lo + 1; i < hi; i++) {  /* insertion sort, stable */
        gsCandidate x = tmp[i];
        int j = i - 1;
        while (j >= lo && tmp[j].key > x.key) { tmp[j + 1] = tmp[j]; j--; }
        tmp[j + 1] = x;
      }
    }
    lo = hi;
  }
  memcpy(c, tmp, (size_t)n * sizeof(gsCandidate));
  gs_arenaRelease(d, mark);
}

gsCandidate* gs_broadphase(const gsModel* m, gsData* d, int* ncand) {
  int ngeom = m->ngeom;
  int over = (m->opt.enableflags & GS_ENBL_OVERRIDE) != 0;
  *ncand = 0;
  gsReal* box = gs_arenaAlloc(d, (size_t)ngeom * 6 * sizeof(gsReal));       /* lo[3], hi[3] */
  gsCandidate* order = gs_arenaAlloc(d, (size_t)ngeom * 2 * sizeof(gsCandidate));
  int* planes = gs_arenaAlloc(d, (size_t)ngeom * sizeof(int));
  if (!box || !order || !planes) return NULL;

  /* every geom fixed to the world (a prop, a scene without free bodies): no pair passes the
   * filter, no box is needed */
  int anymoving = gs_anyMovingGeom(m);
  /* contype and conaffinity of the bounded geoms, all bits together: a geom whose contype meets
   * none of their conaffinities and whose conaffinity meets none of their contypes passes the
   * filter with none of them, so it needs no box (in the ant only the floor has conaffinity: the
   * sweep is skipped and every candidate comes from the plane) */
  int anytype = 0, anyaff = 0;
  for (int g = 0; g < ngeom && anymoving; g++)
    if (m->geom_type[g] != GS_GEOM_PLANE) {
      anytype |= m->geom_contype[g];
      anyaff |= m->geom_conaffinity[g];
    }

  /* boxes of the bounded geoms that may pair with another; the box around those of the geoms
   * not fixed to the world (weld group 0: the world's own geoms, a terrain of boxes), which the
   * world's geoms must meet to pair with anything (two of them never pair: the filter's first
   * rule) */
  int nbox = 0, nplane = 0, nworld = 0;
  gsReal moving[6] = {INFINITY, INFINITY, INFINITY, -INFINITY, -INFINITY, -INFINITY};
  for (int g = 0; g < ngeom && anymoving; g++) {
    if (m->geom_type[g] == GS_GEOM_PLANE) {
      if (can_collide(m, g)) planes[nplane++] = g;
      continue;
    }
    if (!((m->geom_contype[g] & anyaff) | (m->geom_conaffinity[g] & anytype))) continue;
    gsReal h[3];
    half_extents(m, d, g, h);
    gsReal grow = over ? m->opt.o_margin : m->geom_margin[g];
    const gsReal* x = d->geom_xpos + 3 * g;
    gsReal* b = box + 6 * g;
    for (int i = 0; i < 3; i++) b[i] = x[i] - h[i] - grow, b[3 + i] = x[i] + h[i] + grow;
    if (m->body_weldid[m->geom_bodyid[g]] == 0) {
      nworld++;
    } else {
      for (int i = 0; i < 3; i++) {
        moving[i] = b[i] < moving[i] ? b[i] : moving[i];
        moving[3 + i] = b[3 + i] > moving[3 + i] ? b[3 + i] : moving[3 + i];
      }
    }
    order[nbox++].ga = g;
  }
  /* the world's geoms outside that box are left out of the sweep (a humanoid on a field of a
   * thousand boxes: MuJoCo's own collision_driver/midphase.xml) */
  if (nworld) {
    int k = 0;
    for (int i = 0; i < nbox; i++) {
      int g = order[i].ga;
      const gsReal* b = box + 6 * g;
      if (m->body_weldid[m->geom_bodyid[g]] == 0 &&
          (b[0] > moving[3] || b[3] < moving[0] || b[1] > moving[4] || b[4] < moving[1] ||
           b[2] > moving[5] || b[5] < moving[2]))
        continue;
      order[k++].ga = g;
    }
    nbox = k;
  }
  /* the spread of the centres: the sweep's axis */
  gsReal mean[3] = {0, 0, 0}, sq[3] = {0, 0, 0};
  for (int k = 0; k < nbox; k++) {
    const gsReal* b = box + 6 * order[k].ga;
    for (int i = 0; i < 3; i++) {
      gsReal c = 0.5 * (b[i] + b[3 + i]);
      mean[i] += c;
      sq[i] += c * c;
    }
  }
  int axis = 0;
  gsReal best = -1;
  for (int i = 0; i < 3; i++) {
    gsReal var = nbox ? sq[i] / nbox - (mean[i] / nbox) * (mean[i] / nbox) : 0;
    if (var > best) best = var, axis = i;
  }
  if (nbox > 1) {
    for (int k = 0; k < nbox; k++) order[k].key = sortable(box[6 * order[k].ga + axis]);
    gs_sortCandidates(order, order + ngeom, nbox);
  }

  /* the candidates take what is left of the arena: half for them, half for sorting */
  size_t start = gs_stackStart(d), room = gs_stackRoom(d);
  int cap = (int)(room / (2 * sizeof(gsCandidate)) > 0x3fffffff ? 0x3fffffff
                                                                : room / (2 * sizeof(gsCandidate)));
  gsCandidate* cand = (gsCandidate*)(void*)(d->arena + start);
  int n = 0, full = 0;

  /* planes against every other geom that may collide; without a user's contact filter (which
   * sees every pair the built-in filters keep) a primitive far above the plane is left out here,
   * by the narrow phase's own first test, rather than listed, sorted and then rejected */
  int early = d->cb.contactfilter == NULL;
  for (int p = 0; p < nplane && !full; p++) {
    int gp = planes[p];
    for (int g = 0; g < ngeom; g++) {
      if (g == gp || !can_collide(m, g)) continue;
      if (m->geom_type[g] == GS_GEOM_PLANE && g < gp) continue;  /* each plane pair once */
      if (early && plane_apart(m, d, gp, g, gs_pairMargin(m, gp, g))) continue;
      if (!push(m, cand, &n, cap, gp, g)) { full = 1; break; }
    }
  }

  /* sweep: boxes sorted by their lower end on `axis`; each meets those starting before it ends
   * (GS_COLLISION_ALLPAIRS: test every pair of boxes instead, for the benchmark) */
  int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
  for (int i = 0; i < nbox && !full; i++) {
    int gi = order[i].ga;
    const gsReal* bi = box + 6 * gi;
    for (int j = i + 1; j < nbox; j++) {
      int gj = order[j].ga;
      const gsReal* bj = box + 6 * gj;
#ifdef GS_COLLISION_ALLPAIRS
      if (bj[axis] > bi[3 + axis] || bi[axis] > bj[3 + axis]) continue;
#else
      if (bj[axis] > bi[3 + axis]) break;
#endif
      if (bj[a1] > bi[3 + a1] || bi[a1] > bj[3 + a1]) continue;
      if (bj[a2] > bi[3 + a2] || bi[a2] > bj[3 + a2]) continue;
      if (!push(m, cand, &n, cap, gi, gj)) { full = 1; break; }
    }
  }
  if (full) {
    gs_warning(d, GS_WARN_ARENAFULL, n);
  }

  /* claim what was written, and the sorting buffer after it */
  if (!gs_arenaAlloc(d, (size_t)n * 2 * sizeof(gsCandidate))) return NULL;
  sort_by_body(m, d, cand, cand + n, n);
  *ncand = n;
  return cand;
}

/* ---- narrow phase and the contact list ---- */

typedef struct {
  gsContact* scratch;  /* GS_MAXCONPAIR contacts whose tangents are zero on entry */
} gsCollideCtx;

static void collide(const gsModel* m, gsData* d, gsCollideCtx* ctx, int g1, int g2, int pair) {
  if (g1 == g2) return;
  int t1 = m->geom_type[g1], t2 = m->geom_type[g2];
  if (t1 > t2) {
    int t = g1; g1 = g2; g2 = t;
    t = t1; t1 = t2; t2 = t;
  }
  gsCollideFn fn = gs_collideTable[t1][t2];
  if (!fn) return;
  gsReal margin;
  if (pair >= 0)
    margin = (m->opt.enableflags & GS_ENBL_OVERRIDE) ? m->opt.o_margin : m->pair_margin[pair];
  else
    margin = gs_pairMargin(m, g1, g2);

  /* bounding spheres (a zero radius is unbounded: planes) */
  gsReal r1 = m->geom_rbound[g1], r2 = m->geom_rbound[g2];
  if (r1 > 0 && r2 > 0) {
    gsReal dx[3];
    gs_sub3(dx, d->geom_xpos + 3 * g1, d->geom_xpos + 3 * g2);
    gsReal r = r1 + r2 + margin;
    if (gs_dot3(dx, dx) > r * r) return;
  } else if (t1 == GS_GEOM_PLANE && plane_apart(m, d, g1, g2, margin)) {
    return;
  }
  /* then their boxes in their own frames, where a mesh's narrow phase (a distance query on its
   * hull) would follow: bounding spheres of long or flat meshes overlap far more often than
   * the meshes come near each other */
  if ((t1 == GS_GEOM_MESH || t2 == GS_GEOM_MESH) && boxes_apart(m, d, g1, g2, margin)) return;

  int n = fn(m, d, ctx->scratch, g1, g2, margin);
  if (n <= 0) return;
  if (n > GS_MAXCONPAIR) n = GS_MAXCONPAIR;
  /* the parameters are the pair's: mixed once, copied to each of its contacts */
  gsContact par;
  gs_contactParams(m, &par, g1, g2, pair);
  par.geom1 = g1;
  par.geom2 = g2;
  par.mu = 0;
  par.efc_address = -1;
  for (int i = 0; i < n; i++) {
    gsContact* s = ctx->scratch + i;
    if (d->ncon >= d->nconmax) {
      gs_warning(d, GS_WARN_CONTACTFULL, d->ncon);
    } else {
      gsContact* c = d->contact + d->ncon++;
      *c = par;
      c->dist = s->dist;
      gs_copy3(c->pos, s->pos);
      memcpy(c->frame, s->frame, sizeof c->frame);
      if (c->frame[3] == 0 && c->frame[4] == 0 && c->frame[5] == 0 && c->frame[6] == 0 &&
          c->frame[7] == 0 && c->frame[8] == 0)
        gs_contactFrame(c->frame);
      /* in the gap (dist >= includemargin, as MuJoCo): registered but kept out of the
       * constraint problem */
      c->exclude = c->dist >= c->includemargin ? 1 : 0;
    }
    /* leave the scratch slot as the next pair function expects it */
    memset(s->frame + 3, 0, 6 * sizeof(gsReal));
  }
}

/* order key of the explicit pair's body pair (smaller body first), as gs_candidateKey / ngeom^2 */
static uint64_t pair_key(const gsModel* m, int pair) {
  uint64_t a = (uint64_t)m->geom_bodyid[m->pair_geom1[pair]];
  uint64_t b = (uint64_t)m->geom_bodyid[m->pair_geom2[pair]];
  return a < b ? a * (uint64_t)m->nbody + b : b * (uint64_t)m->nbody + a;
}

void gs_collision(const gsModel* m, gsData* d) {
  d->ncon = 0;
  if (m->opt.disableflags & (GS_DSBL_CONTACT | GS_DSBL_CONSTRAINT)) return;
  if (m->ngeom == 0) return;
  size_t mark = gs_arenaMark(d);
  gsCollideCtx ctx;
  ctx.scratch = gs_arenaAlloc(d, GS_MAXCONPAIR * sizeof(gsContact));
  int* pairs = m->npair ? gs_arenaAlloc(d, (size_t)m->npair * sizeof(int)) : NULL;
  if (!ctx.scratch || (m->npair && !pairs)) {
    gs_arenaRelease(d, mark);
    return;
  }
  /* the pair functions expect zero tangents (collide leaves them so) */
  for (int i = 0; i < GS_MAXCONPAIR; i++) memset(ctx.scratch[i].frame + 3, 0, 6 * sizeof(gsReal));

  /* explicit pairs by body pair, stable (the compiler already sorts them: this costs nothing) */
  for (int i = 0; i < m->npair; i++) {
    uint64_t ki = pair_key(m, i);
    int j = i - 1;
    while (j >= 0 && pair_key(m, pairs[j]) > ki) {
      pairs[j + 1] = pairs[j];
      j--;
    }
    pairs[j + 1] = i;
  }

  int ncand = 0;
  gsCandidate* cand = gs_broadphase(m, d, &ncand);
  uint64_t ng2 = (uint64_t)m->ngeom * (uint64_t)m->ngeom;

  /* merge: at equal body pairs the explicit ones come first */
  int ip = 0, ic = 0, group = 0;  /* group: first explicit pair of the current body pair */
  while (ip < m->npair || ic < ncand) {
    uint64_t kp = ip < m->npair ? pair_key(m, pairs[ip]) : UINT64_MAX;
    uint64_t kc = ic < ncand ? cand[ic].key / ng2 : UINT64_MAX;
    if (ip < m->npair && kp <= kc) {
      if (ip == 0 || kp != pair_key(m, pairs[ip - 1])) group = ip;
      collide(m, d, &ctx, m->pair_geom1[pairs[ip]], m->pair_geom2[pairs[ip]], pairs[ip]);
      ip++;
      continue;
    }
    int ga = cand[ic].ga, gb = cand[ic].gb, skip = 0;
    ic++;
    /* a geom pair listed as an explicit pair is not collided again */
    if (ip > 0 && pair_key(m, pairs[ip - 1]) == kc) {
      for (int k = group; k < ip && !skip; k++) {
        int p1 = m->pair_geom1[pairs[k]], p2 = m->pair_geom2[pairs[k]];
        skip = (p1 == ga && p2 == gb) || (p1 == gb && p2 == ga);
      }
    }
    /* the user's filter sees the dynamic pairs the built-in filters kept (explicit pairs never),
     * as MJCF's mjcb_contactfilter does */
    if (!skip && d->cb.contactfilter && d->cb.contactfilter(m, d, ga, gb, d->cb.user)) skip = 1;
    if (!skip) collide(m, d, &ctx, ga, gb, -1);
  }
  gs_arenaRelease(d, mark);
}
