/* gauss's general convex narrow phase against libccd's GJK/EPA and MPR on the same random pairs.
 *
 *   build/dev/ccd_bench [pairs per kind and class, 200] [rounds, 7] [libccd EPA/MPR tolerance, 1e-6]
 *
 * For each kind of pair, penetrating and separated pairs are timed apart: gauss through
 * gs_geomDistance with distmax 0 (the collision stage's query at margin 0), libccd through
 * ccdGJKPenetration and ccdMPRPenetration. Each round runs every pair once per method; the
 * median over rounds of the time per query is printed. Accuracy is measured against a converged
 * reference (bench/ccd_pairs.h), computed before and apart from the methods: for penetration, the reported depth's error and the excess
 * depth that the reported normal leaves, pen(n) - depth; for separation, gauss's distance error. */
#define _POSIX_C_SOURCE 199309L
#include <time.h>

#include "ccd_pairs.h"
#include "bench_util.h"

static double median(double* v, int n) {
  qsort(v, n, sizeof(double), bench_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

typedef struct {
  double sum, max;
  int n;
} Stat;
static void stat_add(Stat* s, double v) {
  v = fabs(v);
  s->sum += v, s->n++;
  if (v > s->max) s->max = v;
}

enum { M_GAUSS, M_EPA, M_MPR, NMETHOD };
static const char* METHOD_NAME[NMETHOD] = {"gauss", "libccd GJK/EPA", "libccd MPR"};

static volatile double sink;  /* keeps the timed results alive */

/* seconds per query of one method over the pairs (one round) */
static double time_round(int method, gsModel* m, gsData* d, const Pair* p, Shape* sa, Shape* sb,
                         int n, double tol) {
  double t0 = bench_now(), acc = 0;
  for (int i = 0; i < n; i++) {
    if (method == M_GAUSS) {
      /* pose and size written as the kinematics would: a few stores, also timed */
      gs_copy3(m->geom_size + 3 * p[i].ga, p[i].sa);
      gs_copy3(m->geom_size + 3 * p[i].gb, p[i].sb);
      gs_copy3(d->geom_xpos + 3 * p[i].ga, p[i].posa);
      gs_copy3(d->geom_xpos + 3 * p[i].gb, p[i].posb);
      memcpy(d->geom_xmat + 9 * p[i].ga, p[i].mata, sizeof(p[i].mata));
      memcpy(d->geom_xmat + 9 * p[i].gb, p[i].matb, sizeof(p[i].matb));
      acc += gs_geomDistance(m, d, p[i].ga, p[i].gb, 0, NULL);
    } else {
      ccd_t c;
      ccd_setup(&c, sa + i, sb + i, tol);
      ccd_real_t depth = 0;
      ccd_vec3_t dir, pos;
      int r = method == M_EPA ? ccdGJKPenetration(sa + i, sb + i, &c, &depth, &dir, &pos)
                              : ccdMPRPenetration(sa + i, sb + i, &c, &depth, &dir, &pos);
      acc += r + depth;
    }
  }
  sink = acc;
  return (bench_now() - t0) / n;
}

/* a pair where gauss's normal leaves more than the least depth, or where its distance differs
 * from the reference's, to reproduce it */
static void print_pair(FILE* f, const Pair* p, double depth, const double n[3], double ref,
                       const double nref[3]) {
  fprintf(f, "gauss off the reference: %s geoms %d %d, depth (distance) %.17g normal %.17g %.17g %.17g, "
          "reference %.17g at %.17g %.17g %.17g\n", KIND_NAME[p->kind], p->ga, p->gb, depth, n[0],
          n[1], n[2], ref, nref[0], nref[1], nref[2]);
  const gsReal* v[6] = {p->sa, p->sb, p->posa, p->posb, p->mata, p->matb};
  const char* name[6] = {"size a", "size b", "pos a", "pos b", "mat a", "mat b"};
  for (int k = 0; k < 6; k++) {
    fprintf(f, "  %s:", name[k]);
    for (int i = 0; i < (k < 4 ? 3 : 9); i++) fprintf(f, " %.17g", v[k][i]);
    fprintf(f, "\n");
  }
}

int main(int argc, char** argv) {
  int npair = argc > 1 ? atoi(argv[1]) : 200, rounds = argc > 2 ? atoi(argv[2]) : 7;
  double tol = argc > 3 ? atof(argv[3]) : 1e-6;
  if (npair < 1 || rounds < 1 || !(tol > 0)) {
    fprintf(stderr, "usage: ccd_bench [pairs >= 1] [rounds >= 1] [tolerance > 0]\n");
    return 2;
  }
  gsModel* m = pairs_model();
  if (!m) return 1;
  gsData* d = gs_makeData(m);
  Pair* pairs = malloc(sizeof(Pair) * 2 * npair);
  Shape* sa = malloc(sizeof(Shape) * 2 * npair);
  Shape* sb = malloc(sizeof(Shape) * 2 * npair);
  double* tr = malloc(sizeof(double) * rounds);
  gsReal gtol;
  int gmaxiter;
  gs_convexSettings(m, &gtol, &gmaxiter);
  printf("gauss: tolerance %g, %d iterations; libccd 2.1: epa_tolerance = mpr_tolerance = %g, "
         "max_iterations 1000\n", gtol, gmaxiter, tol);
  printf("%d penetrating and %d separated pairs per kind (|reference| > 1e-3), %d rounds, "
         "median time per query\n\n", npair, npair, rounds);
  printf("%-19s %-5s %9s %9s %9s %9s %9s\n", "kind", "class", "gauss us", "EPA us", "MPR us",
         "g/EPA", "g/MPR");
  Stat err[NKIND][NMETHOD][2], sep_err[NKIND];  /* [.][.][0]: depth error, [1]: pen(n) - depth */
  int miss[NKIND][NMETHOD];  /* penetrating pairs a method did not report */
  memset(err, 0, sizeof(err)), memset(sep_err, 0, sizeof(sep_err)), memset(miss, 0, sizeof(miss));
  int gauss_sep_wrong = 0, ref_above[NKIND] = {0};
  double ref_above_max[NKIND] = {0};
  for (int kind = 0; kind < NKIND; kind++) {
    /* penetrating pairs first in the array, then separated ones */
    int npen = 0, nsep = 0;
    for (unsigned long long draw = 0; npen < npair || nsep < npair; draw++) {
      Pair p;
      Shape a, b;
      random_pair(m, &p, kind);
      pair_apply(m, d, &p, &a, &b);
      /* the reference before any method runs, from its own stream for this pair: the pairs and
       * the reference are the same whatever the methods answer */
      double nref[3], ref = reference(&a, &b, NULL, 0, nref, 1000000ULL * kind + draw),
                      dist = -ref;
      if (fabs(dist) < 1e-3) continue;  /* too close to touching to call either way */
      int slot;
      if (dist < 0 && npen < npair) slot = npen++;
      else if (dist > 0 && nsep < npair) slot = npair + nsep++;
      else continue;
      pairs[slot] = p, sa[slot] = a, sb[slot] = b;
      /* accuracy */
      if (dist < 0) {
        gsReal gd, gn[3];
        double n[NMETHOD][3], dep[NMETHOD];
        int found[NMETHOD];
        found[M_GAUSS] = gauss_query(m, d, p.ga, p.gb, 0, &gd, gn) && gd < 0;
        dep[M_GAUSS] = -gd, gs_copy3(n[M_GAUSS], gn);
        for (int k = M_EPA; k <= M_MPR; k++) {
          ccd_t c;
          ccd_setup(&c, &a, &b, tol);
          ccd_real_t cd;
          ccd_vec3_t dir, pos;
          int r = k == M_EPA ? ccdGJKPenetration(&a, &b, &c, &cd, &dir, &pos)
                             : ccdMPRPenetration(&a, &b, &c, &cd, &dir, &pos);
          found[k] = r == 0;
          dep[k] = cd;
          gs_copy3(n[k], dir.v);  /* libccd: b moves by depth * dir to clear a */
          double nn = gs_norm3(n[k]);
          if (nn > 0) gs_scl3(n[k], n[k], 1 / nn);
        }
        for (int k = 0; k < NMETHOD; k++) {
          if (!found[k]) {
            miss[kind][k]++;
            continue;
          }
          double pn = pen_along(&a, &b, n[k]);
          stat_add(&err[kind][k][0], dep[k] - ref);
          stat_add(&err[kind][k][1], pn - ref);
          /* a normal leaving less than the reference: the reference is not the least */
          if (pn < ref - 1e-12) {
            ref_above[kind]++;
            if (ref - pn > ref_above_max[kind]) ref_above_max[kind] = ref - pn;
          }
        }
        if (found[M_GAUSS] && fabs(pen_along(&a, &b, n[M_GAUSS]) - ref) > 1e-9)
          print_pair(stderr, &p, dep[M_GAUSS], n[M_GAUSS], ref, nref);
      } else {
        gsReal gd, gn[3];
        if (gauss_query(m, d, p.ga, p.gb, 10, &gd, gn)) {
          stat_add(&sep_err[kind], gd - dist);
          /* gauss's normal leaving less than the reference: the reference is not the least pen
           * (gauss's distance itself is the length of a point of the Minkowski difference, at
           * least the true distance, which is at least the reference's) */
          double pn = pen_along(&a, &b, gn);
          if (pn < ref - 1e-12) {
            ref_above[kind]++;
            if (ref - pn > ref_above_max[kind]) ref_above_max[kind] = ref - pn;
          }
          if (fabs(gd - dist) > 1e-12) print_pair(stderr, &p, gd, gn, dist, nref);
          if (!(gd > 0)) gauss_sep_wrong++;
        } else {
          gauss_sep_wrong++;
        }
      }
    }
    /* timing */
    for (int cls = 0; cls < 2; cls++) {
      const Pair* p = pairs + cls * npair;
      double t[NMETHOD];
      for (int k = 0; k < NMETHOD; k++) {
        time_round(k, m, d, p, sa + cls * npair, sb + cls * npair, npair, tol);  /* warm up */
        for (int r = 0; r < rounds; r++)
          tr[r] = time_round(k, m, d, p, sa + cls * npair, sb + cls * npair, npair, tol);
        t[k] = median(tr, rounds);
      }
      printf("%-19s %-5s %9.3f %9.3f %9.3f %9.2f %9.2f", KIND_NAME[kind], cls ? "sep" : "pen",
             1e6 * t[M_GAUSS], 1e6 * t[M_EPA], 1e6 * t[M_MPR], t[M_GAUSS] / t[M_EPA],
             t[M_GAUSS] / t[M_MPR]);
#ifdef GAUSS_COUNT_SUPPORT
      /* gauss's support calls per query, exact where timings are not (one more round) */
      long c0 = gs_convexSupportCount;
      time_round(M_GAUSS, m, d, p, sa + cls * npair, sb + cls * npair, npair, tol);
      printf("  support calls %.1f", (double)(gs_convexSupportCount - c0) / npair);
#endif
      printf("\n");
      fflush(stdout);
    }
  }
  printf("\naccuracy on penetrating pairs against the reference depth: mean and max of |depth - ref| "
         "and of pen(normal) - ref\n");
  printf("%-19s %-15s %10s %10s %10s %10s %6s\n", "kind", "method", "depth mean", "depth max",
         "nrm mean", "nrm max", "missed");
  for (int kind = 0; kind < NKIND; kind++)
    for (int k = 0; k < NMETHOD; k++) {
      Stat* e = err[kind][k];
      printf("%-19s %-15s %10.2e %10.2e %10.2e %10.2e %6d\n", KIND_NAME[kind], METHOD_NAME[k],
             e[0].n ? e[0].sum / e[0].n : 0, e[0].max, e[1].n ? e[1].sum / e[1].n : 0, e[1].max,
             miss[kind][k]);
    }
  printf("\ngauss on separated pairs: |dist - reference distance| mean and max\n");
  for (int kind = 0; kind < NKIND; kind++)
    printf("%-19s %10.2e %10.2e\n", KIND_NAME[kind], sep_err[kind].n ? sep_err[kind].sum / sep_err[kind].n : 0,
           sep_err[kind].max);
  printf("separated pairs where gauss did not report dist > 0: %d\n", gauss_sep_wrong);
  printf("\nanswers beating the reference by more than 1e-12 (its search short of the least): "
         "count and max\n");
  for (int kind = 0; kind < NKIND; kind++)
    printf("%-19s %10d %10.2e\n", KIND_NAME[kind], ref_above[kind], ref_above_max[kind]);
  free(tr), free(sb), free(sa), free(pairs);
  gs_freeData(d);
  gs_freeModel(m);
  return 0;
}
