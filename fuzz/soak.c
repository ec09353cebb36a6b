/* Soak: random corpus models under random options, forces and states, stepped for a given time;
 * built with the sanitizers by scripts/soak.sh, where any fault ends the run.
 *   soak SECONDS MODELS_DIR [SEED]
 * Each episode takes a model (every MJCF file under MODELS_DIR that loads), a copy of it with a
 * random integrator, solver, cone, Jacobian and disable/enable flags, then steps it from a random
 * state with random controls and applied forces; now and then a value is NaN, infinite or huge
 * (the step must reset or carry on, never fault). Prints the steps done and the warnings seen. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <gauss/gauss.h>

static const char* const kWarnings[GS_NWARNING] = {
    "inertia", "contactfull", "cnstrfull", "arenafull", "badqpos",
    "badqvel", "badqacc", "badctrl", "badsolref"};

static uint64_t rng;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}
static double centred(double scale) { return scale * (2 * (next() / 4294967296.0) - 1); }

/* mostly moderate, sometimes hostile */
static double value(double scale) {
  uint32_t k = next() % 1000;
  if (k == 0) return NAN;
  if (k == 1) return INFINITY;
  if (k == 2) return -INFINITY;
  if (k == 3) return 1e300;
  if (k < 8) return centred(1e8);
  return centred(scale);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static gsModel* models[256];
static char* names[256];
static int nmodel;

static void walk(const char* dir) {
  DIR* dp = opendir(dir);
  if (!dp) return;
  struct dirent* e;
  while ((e = readdir(dp)) && nmodel < 256) {
    if (e->d_name[0] == '.') continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    size_t len = strlen(path);
    if (S_ISDIR(st.st_mode)) {
      walk(path);
    } else if (len > 4 && strcmp(path + len - 4, ".xml") == 0) {
      char err[1000];
      gsModel* m = gs_loadXML(path, err, sizeof err);
      if (!m) continue;  /* a part included by another file, or a model refused on purpose */
      models[nmodel] = m;
      names[nmodel++] = strdup(path);
    }
  }
  closedir(dp);
}

static void random_options(gsOption* o) {
  o->integrator = (int)(next() % 4);
  o->solver = (int)(next() % 3);
  o->cone = (int)(next() % 2);
  o->jacobian = (int)(next() % 3);
  /* a few disable bits at a time, so that most of the pipeline still runs */
  o->disableflags = 0;
  for (int k = 0, n = (int)(next() % 4); k < n; k++) o->disableflags |= 1 << (next() % GS_NDISABLE);
  o->enableflags = (int)(next() % (1u << GS_NENABLE));
  if (o->iterations > 200) o->iterations = 200;
  if (o->noslip_iterations > 50) o->noslip_iterations = 50;
}

static void random_state(const gsModel* m, gsData* d) {
  for (int i = 0; i < m->nq; i++) d->qpos[i] += value(0.3);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = value(2);
  for (int i = 0; i < m->na; i++) d->act[i] = value(1);
}

static void random_inputs(const gsModel* m, gsData* d) {
  for (int i = 0; i < m->nu; i++) d->ctrl[i] = value(1);
  for (int i = 0; i < m->nv; i++) d->qfrc_applied[i] = next() % 4 ? 0 : value(10);
  for (int i = 0; i < 6 * m->nbody; i++) d->xfrc_applied[i] = next() % 8 ? 0 : value(20);
  for (int i = 0; i < m->neq; i++)
    if (next() % 50 == 0) d->eq_active[i] = !d->eq_active[i];
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: soak SECONDS MODELS_DIR [SEED]\n");
    return 2;
  }
  double seconds = atof(argv[1]);
  rng = argc > 3 ? strtoull(argv[3], NULL, 10) : (uint64_t)time(NULL);
  if (!rng) rng = 0x9e3779b97f4a7c15ull;
  uint64_t seed = rng;
  walk(argv[2]);
  if (!nmodel) {
    fprintf(stderr, "soak: no model loads from %s\n", argv[2]);
    return 1;
  }
  long long steps = 0, warnings[GS_NWARNING] = {0};
  int episodes = 0;
  double start = now();
  while (now() - start < seconds) {
    int k = (int)(next() % (uint32_t)nmodel);
    gsModel* m = gs_copyModel(models[k]);
    if (!m) break;
    random_options(&m->opt);
    gsData* d = gs_makeData(m);
    if (!d) {
      gs_freeModel(m);
      continue;
    }
    if (m->nkey && next() % 2) gs_resetDataKeyframe(m, d, (int)(next() % (uint32_t)m->nkey));
    random_state(m, d);
    int n = 20 + (int)(next() % 200);
    for (int s = 0; s < n && now() - start < seconds; s++) {
      if (s % 10 == 0) random_inputs(m, d);
      if (next() % 100 == 0) random_state(m, d);
      switch (next() % 8) {
        case 0:
          gs_step1(m, d);
          gs_step2(m, d);
          break;
        case 1: gs_forward(m, d); break;
        default: gs_step(m, d);
      }
      steps++;
    }
    for (int w = 0; w < GS_NWARNING; w++) warnings[w] += d->warning[w].number;
    gs_freeData(d);
    gs_freeModel(m);
    episodes++;
  }
  printf("soak: %lld steps, %d episodes on %d models in %.0f s (seed %llu); warnings:", steps,
         episodes, nmodel, now() - start, (unsigned long long)seed);
  for (int w = 0; w < GS_NWARNING; w++)
    if (warnings[w]) printf(" %s %lld", kWarnings[w], warnings[w]);
  printf("\n");
  for (int i = 0; i < nmodel; i++) {
    gs_freeModel(models[i]);
    free(names[i]);
  }
  return 0;
}
