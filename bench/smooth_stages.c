/* The smooth stages of gauss and MuJoCo (the benchmark partner, loaded only by this program) timed
 * one by one on the same model and state, side by side: each stage is called K times in a row by
 * one engine, then by the other, the order alternating over R rounds; the median time per call of
 * each and their ratio (above 1: gauss faster). Contacts are disabled in both; the state is the
 * one reached after 50 steps with the same controls (seeded, inside the control ranges).
 *
 *   MJ=.venv/lib/python3.11/site-packages/mujoco
 *   gcc -O2 -Iinclude -I$MJ/include bench/smooth_stages.c -o /tmp/smooth_stages \
 *       build/release/libgauss.so $MJ/libmujoco.so.3.3.7 -Wl,-rpath,$PWD/build/release:$MJ
 *   /tmp/smooth_stages MODEL.xml [K R] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gauss/gauss.h"
#include "mujoco/mujoco.h"
#include "bench_util.h"

static const gsModel* gm;
static gsData* gd;
static const mjModel* mm;
static mjData* md;
static double* buf;

static void g_kin(void) { gs_kinematics(gm, gd); }
static void m_kin(void) { mj_kinematics(mm, md); }
static void g_com(void) { gs_comPos(gm, gd); }
static void m_com(void) { mj_comPos(mm, md); }
static void g_crb(void) { gs_crb(gm, gd); }
static void m_crb(void) { mj_crb(mm, md); }
static void g_fac(void) { gs_factorM(gm, gd); }
static void m_fac(void) { mj_factorM(mm, md); }
static void g_sol(void) { gs_solveM(gm, gd, buf, gd->qfrc_bias, 1); }
static void m_sol(void) { mj_solveM(mm, md, buf, md->qfrc_bias, 1); }
static void g_vel(void) { gs_comVel(gm, gd); }
static void m_vel(void) { mj_comVel(mm, md); }
static void g_rne(void) { gs_rne(gm, gd, 0, buf); }
static void m_rne(void) { mj_rne(mm, md, 0, buf); }
static void g_pas(void) { gs_passive(gm, gd); }
static void m_pas(void) { mj_passive(mm, md); }
static void g_pos(void) { gs_fwdPosition(gm, gd); }
static void m_pos(void) { mj_fwdPosition(mm, md); }
static void g_fvel(void) { gs_fwdVelocity(gm, gd); }
static void m_fvel(void) { mj_fwdVelocity(mm, md); }
static void g_act(void) { gs_fwdActuation(gm, gd); }
static void m_act(void) { mj_fwdActuation(mm, md); }
static void g_acc(void) { gs_fwdAcceleration(gm, gd); }
static void m_acc(void) { mj_fwdAcceleration(mm, md); }
static void g_spos(void) { gs_sensorPos(gm, gd); }
static void m_spos(void) { mj_sensorPos(mm, md); }
static void g_svel(void) { gs_sensorVel(gm, gd); }
static void m_svel(void) { mj_sensorVel(mm, md); }
static void g_sacc(void) { gs_sensorAcc(gm, gd); }
static void m_sacc(void) { mj_sensorAcc(mm, md); }
static void g_subv(void) { gs_subtreeVel(gm, gd); }
static void m_subv(void) { mj_subtreeVel(mm, md); }
static void g_post(void) { gs_rnePostConstraint(gm, gd); }
static void m_post(void) { mj_rnePostConstraint(mm, md); }
static void g_fwd(void) { gs_forward(gm, gd); }
static void m_fwd(void) { mj_forward(mm, md); }

static void g_step(void) { gs_step(gm, gd); }
static void m_step(void) { mj_step(mm, md); }

static double timed(void (*f)(void), int k) {
  double t0 = bench_now();
  for (int i = 0; i < k; i++) f();
  return (bench_now() - t0) / k;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: smooth_stages MODEL.xml [K R]\n");
    return 2;
  }
  int K = argc > 2 ? atoi(argv[2]) : 2000, R = argc > 3 ? atoi(argv[3]) : 7;
  if (R < 1 || R > 64 || K < 1) return 2;
  char err[1000];
  gsModel* g = gs_loadXML(argv[1], err, sizeof err);
  mjModel* m = mj_loadXML(argv[1], NULL, err, sizeof err);
  if (!g || !m) { fprintf(stderr, "%s\n", err); return 1; }
  g->opt.disableflags |= GS_DSBL_CONTACT;
  m->opt.disableflags |= mjDSBL_CONTACT;
  gm = g; mm = m;
  gd = gs_makeData(g);
  md = mj_makeData(m);
  if (m->nkey) { gs_resetDataKeyframe(g, gd, 0); mj_resetDataKeyframe(m, md, 0); }
  srand(1);
  for (int i = 0; i < m->nu; i++) {
    double lo = -1, hi = 1;
    if (m->actuator_ctrllimited[i]) { lo = m->actuator_ctrlrange[2 * i]; hi = m->actuator_ctrlrange[2 * i + 1]; }
    gd->ctrl[i] = md->ctrl[i] = lo + (hi - lo) * (rand() / (double)RAND_MAX);
  }
  for (int s = 0; s < 50; s++) { gs_step(g, gd); mj_step(m, md); }
  gs_forward(g, gd); mj_forward(m, md);
  buf = calloc((size_t)m->nv + 1, sizeof(double));
  struct { const char* name; void (*g)(void); void (*m)(void); } st[] = {
      {"kinematics", g_kin, m_kin}, {"comPos", g_com, m_com}, {"crb", g_crb, m_crb},
      {"factorM", g_fac, m_fac}, {"solveM", g_sol, m_sol}, {"comVel", g_vel, m_vel},
      {"rne", g_rne, m_rne}, {"passive", g_pas, m_pas}, {"fwdPosition", g_pos, m_pos},
      {"fwdVelocity", g_fvel, m_fvel}, {"fwdActuation", g_act, m_act},
      {"fwdAcceleration", g_acc, m_acc}, {"subtreeVel", g_subv, m_subv},
      {"rnePostConstraint", g_post, m_post}, {"sensorPos", g_spos, m_spos},
      {"sensorVel", g_svel, m_svel}, {"sensorAcc", g_sacc, m_sacc}, {"forward", g_fwd, m_fwd},
      {"step", g_step, m_step}};
  printf("%s (median of %d alternating rounds of %d calls; ns per call)\n", argv[1], R, K);
  printf("%-16s %10s %10s %7s\n", "stage", "gauss", "MuJoCo", "ratio");
  for (size_t s = 0; s < sizeof st / sizeof st[0]; s++) {
    double tg[64], tm[64];
    for (int r = 0; r < R; r++) {
      if (r & 1) { tm[r] = timed(st[s].m, K); tg[r] = timed(st[s].g, K); }
      else { tg[r] = timed(st[s].g, K); tm[r] = timed(st[s].m, K); }
    }
    qsort(tg, R, sizeof(double), bench_cmp_double);
    qsort(tm, R, sizeof(double), bench_cmp_double);
    printf("%-16s %10.0f %10.0f %7.2f\n", st[s].name, 1e9 * tg[R / 2], 1e9 * tm[R / 2], tm[R / 2] / tg[R / 2]);
  }
  return 0;
}
