/* The parameters of contacts (MJCF's mixing rules, as measured on MuJoCo 3.3.7) and the
 * candidates' sort; the filters of which geom pairs may touch and the margin of a pair are
 * inline in stage.h. */
#include "collision/stage.h"
#include "core/math.h"

void gs_sortCandidates(gsCandidate* a, gsCandidate* tmp, int n) {
  /* a few (a small model's boxes): one insertion sort, without the merge's pass and copy */
  if (n <= 32) {
    for (int i = 1; i < n; i++) {
      gsCandidate x = a[i];
      int j = i - 1;
      while (j >= 0 && a[j].key > x.key) { a[j + 1] = a[j]; j--; }
      a[j + 1] = x;
    }
    return;
  }
  /* bottom-up merge sort: stable, no recursion, no heap (libc's qsort may allocate) */
  for (int i = 1; i < n; i++) {  /* insertion sort of runs of 8 */
    if (i % 8 == 0) continue;
    gsCandidate x = a[i];
    int j = i - 1;
    while (j >= (i / 8) * 8 && a[j].key > x.key) { a[j + 1] = a[j]; j--; }
    a[j + 1] = x;
  }
  gsCandidate *src = a, *dst = tmp;
  for (int w = 8; w < n; w *= 2) {
    for (int lo = 0; lo < n; lo += 2 * w) {
      int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int i = lo, j = mid, k = lo;
      while (i < mid && j < hi) dst[k++] = src[j].key < src[i].key ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    gsCandidate* t = src; src = dst; dst = t;
  }
  if (src != a) memcpy(a, src, (size_t)n * sizeof(gsCandidate));
}

/* weight of geom 1 in the averages of solref and solimp */
static gsReal solmix_weight(const gsModel* m, int g1, int g2) {
  gsReal s1 = m->geom_solmix[g1], s2 = m->geom_solmix[g2];
  if (s1 < GS_MINVAL && s2 < GS_MINVAL) return 0.5;
  if (s1 < GS_MINVAL) return 0;
  if (s2 < GS_MINVAL) return 1;
  return s1 / (s1 + s2);
}

void gs_contactParams(const gsModel* m, gsContact* con, int g1, int g2, int pair) {
  gsReal margin, gap;
  if (pair >= 0) {
    con->dim = m->pair_dim[pair];
    for (int k = 0; k < 5; k++) con->friction[k] = m->pair_friction[5 * pair + k];
    for (int k = 0; k < GS_NREF; k++) {
      con->solref[k] = m->pair_solref[GS_NREF * pair + k];
      con->solreffriction[k] = m->pair_solreffriction[GS_NREF * pair + k];
    }
    for (int k = 0; k < GS_NIMP; k++) con->solimp[k] = m->pair_solimp[GS_NIMP * pair + k];
    margin = m->pair_margin[pair];
    gap = m->pair_gap[pair];
  } else {
    int p1 = m->geom_priority[g1], p2 = m->geom_priority[g2];
    gsReal fr[3];
    if (p1 != p2) {
      /* the geom of higher priority sets everything but margin and gap */
      int g = p1 > p2 ? g1 : g2;
      con->dim = m->geom_condim[g];
      for (int k = 0; k < 3; k++) fr[k] = m->geom_friction[3 * g + k];
      for (int k = 0; k < GS_NREF; k++) con->solref[k] = m->geom_solref[GS_NREF * g + k];
      for (int k = 0; k < GS_NIMP; k++) con->solimp[k] = m->geom_solimp[GS_NIMP * g + k];
    } else {
      int c1 = m->geom_condim[g1], c2 = m->geom_condim[g2];
      con->dim = c1 > c2 ? c1 : c2;
      for (int k = 0; k < 3; k++) {
        gsReal a = m->geom_friction[3 * g1 + k], b = m->geom_friction[3 * g2 + k];
        fr[k] = a > b ? a : b;
      }
      gsReal w = solmix_weight(m, g1, g2);
      const gsReal *r1 = m->geom_solref + GS_NREF * g1, *r2 = m->geom_solref + GS_NREF * g2;
      for (int k = 0; k < GS_NREF; k++) {
        /* standard (time constant, damping ratio) values average; where either is direct
         * (negative stiffness, damping) the smaller of each wins */
        if (r1[0] > 0 && r2[0] > 0)
          con->solref[k] = w * r1[k] + (1 - w) * r2[k];
        else
          con->solref[k] = r1[k] < r2[k] ? r1[k] : r2[k];
      }
      for (int k = 0; k < GS_NIMP; k++)
        con->solimp[k] = w * m->geom_solimp[GS_NIMP * g1 + k] + (1 - w) * m->geom_solimp[GS_NIMP * g2 + k];
    }
    /* 3 geom coefficients -> 5 contact coefficients: sliding twice, spin, rolling twice */
    con->friction[0] = con->friction[1] = fr[0];
    con->friction[2] = fr[1];
    con->friction[3] = con->friction[4] = fr[2];
    con->solreffriction[0] = con->solreffriction[1] = 0;
    gsReal m1 = m->geom_margin[g1], m2 = m->geom_margin[g2];
    gsReal a1 = m->geom_gap[g1], a2 = m->geom_gap[g2];
    margin = m1 > m2 ? m1 : m2;
    gap = a1 > a2 ? a1 : a2;
  }
  if (m->opt.enableflags & GS_ENBL_OVERRIDE) {
    /* the option's values replace the model's, for the friction directions too; gap stays */
    margin = m->opt.o_margin;
    for (int k = 0; k < 5; k++) con->friction[k] = m->opt.o_friction[k];
    for (int k = 0; k < GS_NREF; k++) con->solref[k] = con->solreffriction[k] = m->opt.o_solref[k];
    for (int k = 0; k < GS_NIMP; k++) con->solimp[k] = m->opt.o_solimp[k];
  }
  con->includemargin = margin - gap;
}

void gs_contactFrame(gsReal f[9]) {
  /* first tangent: the y axis made orthogonal to the normal, or the z axis when the normal is
   * too close to y; second tangent: normal x first */
  const gsReal* n = f;
  gsReal ref[3] = {0, 0, 0};
  if (fabs(n[1]) < 0.5)
    ref[1] = 1;
  else
    ref[2] = 1;
  gsReal* t1 = f + 3;
  gs_addScl3(t1, ref, n, -gs_dot3(ref, n));
  gs_normalize3(t1);
  gs_cross(f + 6, n, t1);
}
