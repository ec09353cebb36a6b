/* gauss: the command line.
 *
 *   gauss simulate MODEL [--time T] [--disable f,..] [--enable f,..] [--integrator NAME]
 *                        [--solver NAME]
 *   gauss bench MODEL [--steps N] [--rounds R] [--disable f,..] [--enable f,..]
 *                     [--integrator NAME] [--solver NAME] [--peer PYTHON] [--xml MODEL.xml]
 *   gauss print MODEL [OUT]
 *   gauss compile MODEL.xml OUT.gsb
 *   gauss render MODEL --out FILE.png|FILE.mp4 [--time T] [--camera NAME] (tools/gauss_render.c,
 *                built with the renderer)
 *   gauss view MODEL (a window: the viewer of include/gauss/render.h)
 *
 * MODEL is an MJCF file or a binary model written by `gauss compile` (told apart by its first
 * bytes, whatever its name).
 * Uses only the public API (gauss.h). `bench` times MuJoCo on the same file through a persistent
 * Python process (bench/mujoco_peer.py) that answers "run N" with the seconds mj_step took, and
 * "profile N" with MuJoCo's stage timers, which `bench` prints beside gauss's (gs_setTimer).
 */
#define _POSIX_C_SOURCE 200809L

#include <gauss/gauss.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef GAUSS_HAVE_RENDER
#include "gauss_render.h"
#endif

static const char* const warning_names[] = {
  "inertia", "contactfull", "cnstrfull", "arenafull", "badqpos", "badqvel", "badqacc", "badctrl",
  "badsolref", "badoption", "badcontact", "stiffinverse",
};
_Static_assert(sizeof warning_names / sizeof warning_names[0] == GS_NWARNING,
               "one name per gsWarning");

static const char* const integrator_names[] = {"Euler", "RK4", "implicit", "implicitfast"};
static const char* const solver_names[] = {"PGS", "CG", "Newton"};

static int usage(FILE* f) {
  fprintf(f,
          "usage:\n"
          "  gauss simulate MODEL [--time T | --steps N] [--disable F,..] [--enable F,..]\n"
          "                       [--integrator Euler|RK4|implicit|implicitfast]\n"
          "                       [--solver PGS|CG|Newton] [--ctrl zero|random]\n"
          "      simulate T seconds (default 5) or N steps from the default state; print speed\n"
          "      and energy\n"
          "      (--ctrl random: bench's fixed controls)\n"
          "  gauss bench MODEL [--steps N] [--rounds R] [--disable F,..] [--enable F,..]\n"
          "                    [--integrator NAME] [--solver NAME] [--peer PYTHON]\n"
          "                    [--xml MODEL.xml] [--ctrl zero|random]\n"
          "      time N steps (default 20000) per round, R rounds (default 5), against MuJoCo\n"
          "      run by bench/mujoco_peer.py under PYTHON (default: $GAUSS_PEER_PYTHON,\n"
          "      .venv/bin/python, python3); MuJoCo loads --xml (default: MODEL, which must\n"
          "      then be MJCF) with the same options; then one more round of N steps with\n"
          "      the stage timers of both engines on, printed per step; --ctrl random sets\n"
          "      the same fixed controls in both engines after each reset (uniform in each\n"
          "      ctrlrange, in [-1, 1] where not limited; seeded), so the actuators work\n"
          "  gauss print MODEL [OUT]\n"
          "      write every field of the compiled model to OUT (default: standard output)\n"
          "  gauss compile MODEL.xml OUT.gsb\n"
          "      compile the MJCF file and save the model in the binary format\n"
          "  gauss render MODEL --out FILE.png|FILE.mp4 [--time T] [--camera NAME|ID]\n"
          "               [--width W] [--height H] [--fps F]\n"
          "      a picture of the state at T (default 2) or a video up to T (ffmpeg), from a\n"
          "      model camera or the free camera (built where the renderer is)\n"
          "  gauss view MODEL\n"
          "      simulate in real time in a window (keys and mouse: gauss view --help)\n"
          "\n"
          "MODEL is an MJCF file or a binary model from `gauss compile` (any file name).\n"
          "\n"
          "flags (MJCF <flag> names): --disable takes e.g. contact,constraint,gravity;\n"
          "--enable takes e.g. energy\n");
  return f == stdout ? 0 : 2;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- options ---- */

typedef struct {
  const char* model;
  const char* out;         /* print */
  double time;             /* simulate */
  long steps;              /* bench */
  int rounds;              /* bench */
  const char* peer;        /* bench */
  const char* xml;         /* bench: the MJCF file MuJoCo loads */
  int ctrl_random;         /* bench, simulate: --ctrl random */
  int steps_given;         /* simulate: --steps N instead of --time */
  const char* disable;     /* comma-separated names, as given */
  const char* enable;
  int disablemask;
  int enablemask;
  int integrator;          /* -1: the model's */
  int solver;              /* -1: the model's */
} Options;

/* bits from comma-separated MJCF flag names; -1 (after a message) on an unknown name */
static int parse_flags(const char* list, const char* const* names, int n, const char* what) {
  int mask = 0;
  const char* p = list;
  while (*p) {
    const char* end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len) {
      int found = -1;
      for (int i = 0; i < n; i++) {
        if (names[i] && strlen(names[i]) == len && strncasecmp(names[i], p, len) == 0) {
          found = i;
          break;
        }
      }
      if (found < 0) {
        fprintf(stderr, "gauss: unknown %s flag '%.*s'; known:", what, (int)len, p);
        for (int i = 0; i < n; i++) fprintf(stderr, " %s", names[i]);
        fprintf(stderr, "\n");
        return -1;
      }
      mask |= 1 << found;
    }
    if (!end) break;
    p = end + 1;
  }
  return mask;
}

static int parse_integrator(const char* s) {
  for (int i = 0; i < 4; i++) {
    if (strcasecmp(s, integrator_names[i]) == 0) return i;
  }
  fprintf(stderr, "gauss: unknown integrator '%s' (Euler, RK4, implicit, implicitfast)\n", s);
  return -1;
}

static int parse_solver(const char* s) {
  for (int i = 0; i < 3; i++) {
    if (strcasecmp(s, solver_names[i]) == 0) return i;
  }
  fprintf(stderr, "gauss: unknown solver '%s' (PGS, CG, Newton)\n", s);
  return -1;
}

/* 0 on success, 2 on a usage error (after a message) */
static int parse_options(int argc, char** argv, int allow_positional_out, Options* o) {
  memset(o, 0, sizeof *o);
  o->time = 5;
  o->steps = 20000;
  o->rounds = 5;
  o->integrator = -1;
  o->solver = -1;
  for (int i = 0; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (a[0] == '-' && a[1] == '-') {
      if (!v) {
        fprintf(stderr, "gauss: %s needs a value\n", a);
        return 2;
      }
      char* end = NULL;
      errno = 0;
      if (strcmp(a, "--time") == 0) {
        o->time = strtod(v, &end);
        if (*end || errno || !(o->time >= 0) || !isfinite(o->time)) {
          fprintf(stderr, "gauss: bad --time '%s'\n", v);
          return 2;
        }
      } else if (strcmp(a, "--steps") == 0) {
        o->steps = strtol(v, &end, 10);
        o->steps_given = 1;
        if (*end || errno || o->steps < 1) {
          fprintf(stderr, "gauss: bad --steps '%s'\n", v);
          return 2;
        }
      } else if (strcmp(a, "--rounds") == 0) {
        long r = strtol(v, &end, 10);
        if (*end || errno || r < 1 || r > 10000) {
          fprintf(stderr, "gauss: bad --rounds '%s'\n", v);
          return 2;
        }
        o->rounds = (int)r;
      } else if (strcmp(a, "--disable") == 0) {
        o->disable = v;
        if ((o->disablemask = parse_flags(v, gs_disable_names, GS_NDISABLE, "disable")) < 0)
          return 2;
      } else if (strcmp(a, "--enable") == 0) {
        o->enable = v;
        if ((o->enablemask = parse_flags(v, gs_enable_names, GS_NENABLE, "enable")) < 0) return 2;
      } else if (strcmp(a, "--integrator") == 0) {
        if ((o->integrator = parse_integrator(v)) < 0) return 2;
      } else if (strcmp(a, "--solver") == 0) {
        if ((o->solver = parse_solver(v)) < 0) return 2;
      } else if (strcmp(a, "--peer") == 0) {
        o->peer = v;
      } else if (strcmp(a, "--xml") == 0) {
        o->xml = v;
      } else if (strcmp(a, "--ctrl") == 0) {
        if (strcmp(v, "random") != 0 && strcmp(v, "zero") != 0) {
          fprintf(stderr, "gauss: bad --ctrl '%s' (zero, random)\n", v);
          return 2;
        }
        o->ctrl_random = strcmp(v, "random") == 0;
      } else {
        fprintf(stderr, "gauss: unknown option %s\n", a);
        return 2;
      }
      i++;
    } else if (!o->model) {
      o->model = a;
    } else if (allow_positional_out && !o->out) {
      o->out = a;
    } else {
      fprintf(stderr, "gauss: unexpected argument '%s'\n", a);
      return 2;
    }
  }
  if (!o->model) {
    fprintf(stderr, "gauss: no model file given\n");
    return 2;
  }
  return 0;
}

/* ---- loading ---- */

/* 1 when the file starts like a binary model */
static int is_binary(const char* path) {
  char head[8];
  FILE* f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(head, 1, sizeof head, f);
  fclose(f);
  return n == sizeof head && memcmp(head, "GAUSSMDL", sizeof head) == 0;
}

static gsModel* load(const char* path) {
  char err[1000] = "";
  if (is_binary(path)) {
    gsModel* m = gs_loadModel(path, err, sizeof err);
    if (!m) fprintf(stderr, "gauss: %s\n", err[0] ? err : "cannot load the model");
    return m;
  }
  gsModel* m = gs_loadXML(path, err, sizeof err);
  if (!m) {
    fprintf(stderr, "gauss: %s\n", err[0] ? err : "cannot load the model");
    return NULL;
  }
  const char* w = gs_loadWarnings();
  if (w && *w) {
    int n = 0;
    for (const char* p = w; *p;) {
      const char* end = strchr(p, '\n');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      if (len) n++;
      p += len + (end ? 1 : 0);
    }
    fprintf(stderr, "gauss: %d load warning%s (valid MJCF, not simulated yet):\n", n,
            n == 1 ? "" : "s");
    for (const char* p = w; *p;) {
      const char* end = strchr(p, '\n');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      if (len) fprintf(stderr, "  %.*s\n", (int)len, p);
      p += len + (end ? 1 : 0);
    }
  }
  return m;
}

static void apply_options(gsModel* m, const Options* o) {
  m->opt.disableflags |= o->disablemask;
  m->opt.enableflags |= o->enablemask;
  if (o->integrator >= 0) m->opt.integrator = o->integrator;
  if (o->solver >= 0) m->opt.solver = o->solver;
}

static void print_flags(const char* label, int mask, const char* const* names, int n) {
  printf("%-11s", label);
  if (!mask) {
    printf("-");
  } else {
    const char* sep = "";
    for (int i = 0; i < n; i++) {
      if (mask & (1 << i)) {
        printf("%s%s", sep, names[i]);
        sep = ",";
      }
    }
  }
  printf("\n");
}

static void print_model_summary(const char* path, const gsModel* m) {
  printf("model      %s\n", path);
  printf("sizes      nq %d  nv %d  nu %d  na %d  nbody %d  njnt %d  ngeom %d  nsite %d\n", m->nq,
         m->nv, m->nu, m->na, m->nbody, m->njnt, m->ngeom, m->nsite);
  int integ = m->opt.integrator;
  int sol = m->opt.solver;
  printf("options    timestep %g  integrator %s  solver %s  iterations %d\n", m->opt.timestep,
         integ >= 0 && integ < 4 ? integrator_names[integ] : "?",
         sol >= 0 && sol < 3 ? solver_names[sol] : "?", m->opt.iterations);
  print_flags("disabled", m->opt.disableflags, gs_disable_names, GS_NDISABLE);
  print_flags("enabled", m->opt.enableflags, gs_enable_names, GS_NENABLE);
}

/* nonzero warning counters, one line each; returns how many */
static int print_warnings(const gsData* d) {
  int n = 0;
  for (int i = 0; i < GS_NWARNING; i++) {
    if (d->warning[i].number) {
      printf("warning    %s: %d time%s (last at index %d)\n", warning_names[i],
             d->warning[i].number, d->warning[i].number == 1 ? "" : "s", d->warning[i].lastinfo);
      n++;
    }
  }
  if (!n) printf("warnings   none\n");
  return n;
}

/* ---- simulate ---- */

static void energy(const gsModel* m, gsData* d, double e[3]) {
  gs_forward(m, d);
  gs_energyPos(m, d);
  gs_energyVel(m, d);
  e[0] = d->energy[0];
  e[1] = d->energy[1];
  e[2] = e[0] + e[1];
}

/* the model of the options with the options applied, and a data for it; 0 on failure */
static int load_with_data(const Options* o, gsModel** m, gsData** d) {
  *m = load(o->model);
  if (!*m) return 0;
  apply_options(*m, o);
  *d = gs_makeData(*m);
  if (!*d) {
    fprintf(stderr, "gauss: cannot allocate the data\n");
    gs_freeModel(*m);
    return 0;
  }
  return 1;
}

/* --ctrl random: fixed controls from splitmix64 with seed 12345, one draw per actuator in order,
 * u = the top 53 bits / 2^53; bench/mujoco_peer.py draws the same numbers */
static uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static void reset_with_controls(const gsModel* m, gsData* d, int ctrl_random) {
  gs_resetData(m, d);
  if (!ctrl_random) return;
  uint64_t state = 12345;
  for (int i = 0; i < m->nu; i++) {
    double u = (double)(splitmix64(&state) >> 11) * 0x1.0p-53;
    double lo = -1, hi = 1;
    if (m->actuator_ctrllimited[i]) lo = m->actuator_ctrlrange[2 * i], hi = m->actuator_ctrlrange[2 * i + 1];
    d->ctrl[i] = lo + u * (hi - lo);
  }
}

static int cmd_simulate(int argc, char** argv) {
  Options o;
  if (parse_options(argc, argv, 0, &o)) return usage(stderr);
  gsModel* m;
  gsData* d;
  if (!load_with_data(&o, &m, &d)) return 1;
  gs_resetData(m, d);

  double dt = m->opt.timestep;
  long nstep = dt > 0 ? (long)ceil(o.time / dt - 1e-9) : 0;
  if (nstep < 0) nstep = 0;
  if (o.steps_given) nstep = o.steps;

  double e0[3], e1[3];
  energy(m, d, e0);
  /* step from the reset state exactly, whatever forward left behind */
  reset_with_controls(m, d, o.ctrl_random);

  double t0 = now();
  for (long i = 0; i < nstep; i++) gs_step(m, d);
  double wall = now() - t0;
  double simtime = d->time;

  energy(m, d, e1);

  print_model_summary(o.model, m);
  printf("simulated  %.4f s in %ld steps\n", simtime, nstep);
  printf("wall time  %.4f s\n", wall);
  if (wall > 0) {
    printf("speed      %.0f steps/s, real-time factor %.1f\n", (double)nstep / wall,
           simtime / wall);
  } else {
    printf("speed      - (no time measured)\n");
  }
  printf("energy     %14s %14s %14s\n", "potential", "kinetic", "total");
  printf("  start    %14.6g %14.6g %14.6g\n", e0[0], e0[1], e0[2]);
  printf("  end      %14.6g %14.6g %14.6g\n", e1[0], e1[1], e1[2]);
  printf("  change   %14.6g %14.6g %14.6g\n", e1[0] - e0[0], e1[1] - e0[1], e1[2] - e0[2]);
  print_warnings(d);

  gs_freeData(d);
  gs_freeModel(m);
  return 0;
}

/* ---- bench: the MuJoCo peer ---- */

typedef struct {
  pid_t pid;
  FILE* to;
  FILE* from;
  int nq, nv;        /* MuJoCo's sizes for the same file */
  double timestep;
  double time;       /* MuJoCo's simulated time after the last run */
} Peer;

static int file_exists(const char* path, int mode) { return path && access(path, mode) == 0; }

/* directory of this executable plus `rel`, in buf; NULL when unknown */
static const char* beside_exe(const char* rel, char* buf, size_t n) {
  char exe[4096];
  ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (len <= 0) return NULL;
  exe[len] = 0;
  char* slash = strrchr(exe, '/');
  if (!slash) return NULL;
  *slash = 0;
  if ((size_t)snprintf(buf, n, "%s/%s", exe, rel) >= n) return NULL;
  return buf;
}

static const char* find_peer_script(char* buf, size_t n) {
  const char* env = getenv("GAUSS_PEER_SCRIPT");
  if (env && *env) return env;
  if (file_exists("bench/mujoco_peer.py", R_OK)) return "bench/mujoco_peer.py";
  /* build/<dir>/gauss in the source tree */
  const char* p = beside_exe("../../bench/mujoco_peer.py", buf, n);
  if (file_exists(p, R_OK)) return p;
  return NULL;
}

static const char* find_peer_python(const char* given, char* buf, size_t n) {
  if (given && *given) return given;
  const char* env = getenv("GAUSS_PEER_PYTHON");
  if (env && *env) return env;
  if (file_exists(".venv/bin/python", X_OK)) return ".venv/bin/python";
  const char* p = beside_exe("../../.venv/bin/python", buf, n);
  if (file_exists(p, X_OK)) return p;
  return "python3";
}

static void peer_close(Peer* p) {
  if (p->to) {
    fputs("quit\n", p->to);
    fclose(p->to);
  }
  if (p->from) fclose(p->from);
  if (p->pid > 0) waitpid(p->pid, NULL, 0);
  p->to = p->from = NULL;
  p->pid = 0;
}

/* send one request line, read one reply line; 0 when the peer is gone */
static int peer_ask(Peer* p, const char* request, char* reply, int n) {
  if (!p->to || fputs(request, p->to) == EOF || fflush(p->to) == EOF) return 0;
  if (!fgets(reply, n, p->from)) return 0;
  reply[strcspn(reply, "\n")] = 0;
  return 1;
}

/* start the peer; 0 (after a message) when it could not start or load the model */
static int peer_start(Peer* p, const char* python, const char* script, const Options* o) {
  memset(p, 0, sizeof *p);
  int to[2], from[2];
  if (pipe(to)) return 0;
  if (pipe(from)) {
    close(to[0]);
    close(to[1]);
    return 0;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(to[0]); close(to[1]); close(from[0]); close(from[1]);
    return 0;
  }
  if (pid == 0) {
    dup2(to[0], STDIN_FILENO);
    dup2(from[1], STDOUT_FILENO);
    close(to[0]); close(to[1]); close(from[0]); close(from[1]);
    const char* args[16];
    int k = 0;
    args[k++] = python;
    args[k++] = script;
    args[k++] = o->xml ? o->xml : o->model;
    if (o->disable) { args[k++] = "--disable"; args[k++] = o->disable; }
    if (o->enable) { args[k++] = "--enable"; args[k++] = o->enable; }
    if (o->integrator >= 0) {
      args[k++] = "--integrator";
      args[k++] = integrator_names[o->integrator];
    }
    if (o->solver >= 0) {
      args[k++] = "--solver";
      args[k++] = solver_names[o->solver];
    }
    if (o->ctrl_random) {
      args[k++] = "--ctrl";
      args[k++] = "random";
    }
    args[k] = NULL;
    execvp(python, (char* const*)args);
    fprintf(stderr, "gauss: cannot run %s: %s\n", python, strerror(errno));
    _exit(127);
  }
  close(to[0]);
  close(from[1]);
  p->pid = pid;
  p->to = fdopen(to[1], "w");
  p->from = fdopen(from[0], "r");
  if (!p->to || !p->from) {
    peer_close(p);
    return 0;
  }
  char line[1024];
  if (!fgets(line, sizeof line, p->from)) {
    peer_close(p);
    return 0;
  }
  line[strcspn(line, "\n")] = 0;
  if (sscanf(line, "ready %d %d %lf", &p->nq, &p->nv, &p->timestep) != 3) {
    fprintf(stderr, "gauss: mujoco peer: %s\n", line);
    peer_close(p);
    return 0;
  }
  return 1;
}

/* steps per second of the peer over n steps from its reset state; 0 when it failed */
static double peer_run(Peer* p, long n) {
  char req[64], reply[256];
  if (!peer_ask(p, "reset\n", reply, sizeof reply) || strcmp(reply, "ok") != 0) return 0;
  snprintf(req, sizeof req, "run %ld\n", n);
  if (!peer_ask(p, req, reply, sizeof reply)) return 0;
  char* end = NULL;
  double secs = strtod(reply, &end);
  p->time = strtod(end, NULL);
  return secs > 0 ? (double)n / secs : 0;
}

/* 1 when the peer's controls after a reset are d->ctrl to the bit (it writes them with repr) */
static int peer_controls_match(Peer* p, const gsModel* m, const gsData* d) {
  char reply[65536];
  if (!peer_ask(p, "reset\n", reply, sizeof reply) || strcmp(reply, "ok") != 0) return 0;
  if (!peer_ask(p, "ctrl\n", reply, sizeof reply)) return 0;
  const char* q = reply;
  for (int i = 0; i < m->nu; i++) {
    char* end = NULL;
    double c = strtod(q, &end);
    if (end == q || c != d->ctrl[i]) return 0;
    q = end;
  }
  return 1;
}

static double gauss_run(const gsModel* m, gsData* d, long n, int ctrl_random) {
  reset_with_controls(m, d, ctrl_random);
  double t0 = now();
  for (long i = 0; i < n; i++) gs_step(m, d);
  double secs = now() - t0;
  return secs > 0 ? (double)n / secs : 0;
}

static int cmp_double(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static double median(const double* v, int n) {
  double* s = malloc(sizeof(double) * (size_t)n);
  if (!s) return 0;
  memcpy(s, v, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof(double), cmp_double);
  double r = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
  return r;
}

/* ---- bench: stage breakdown ---- */

/* one engine's profile round: per-step means of the problem size and the seconds per stage */
typedef struct {
  double ncon, nefc, niter;
  double step;             /* timed seconds per step */
  double stage[7];         /* per step: the rows of stage_labels */
  double passive, sensor;  /* per step, gauss only: parts of the rest that MuJoCo does not time */
} Profile;

static const char* const stage_labels[7] = {
  "kinematics, com, tendons", "inertia: CRB, factor", "collision",
  "constraint rows",          "solver",               "actuation",
  "rest: velocity, integration",
};

/* the rest of the step: what the named stages leave */
static void profile_rest(Profile* p) {
  double sum = 0;
  for (int i = 0; i < 6; i++) sum += p->stage[i];
  p->stage[6] = p->step - sum;
}

/* n steps from the reset state with gauss's timers on */
static void gauss_profile(const gsModel* m, gsData* d, long n, Profile* p, int ctrl_random) {
  memset(p, 0, sizeof *p);
  reset_with_controls(m, d, ctrl_random);
  gs_setTimer(d, 1);
  for (long i = 0; i < n; i++) {
    gs_step(m, d);
    p->ncon += d->ncon;
    p->nefc += d->nefc;
    p->niter += gs_solverIterations(d);
  }
  gs_setTimer(d, 0);
  p->ncon /= (double)n;
  p->nefc /= (double)n;
  p->niter /= (double)n;
  const gsTimerStat* t = d->timer;
  p->step = t[GS_TIMER_STEP].duration / (double)n;
  p->stage[0] = t[GS_TIMER_POS_KINEMATICS].duration / (double)n;
  p->stage[1] = t[GS_TIMER_POS_INERTIA].duration / (double)n;
  p->stage[2] = t[GS_TIMER_POS_COLLISION].duration / (double)n;
  p->stage[3] = (t[GS_TIMER_POS_MAKE].duration + t[GS_TIMER_VEL_REFERENCE].duration) / (double)n;
  p->stage[4] = t[GS_TIMER_CONSTRAINT].duration / (double)n;
  p->stage[5] = t[GS_TIMER_ACTUATION].duration / (double)n;
  p->passive = t[GS_TIMER_PASSIVE].duration / (double)n;
  p->sensor = t[GS_TIMER_SENSOR].duration / (double)n;
  profile_rest(p);
}

/* the number after "key=" in a profile reply (a space-separated list of key=value), 0 if absent */
static double reply_value(const char* line, const char* key) {
  size_t len = strlen(key);
  for (const char* p = line; (p = strstr(p, key)) != NULL; p += len) {
    if ((p == line || p[-1] == ' ') && p[len] == '=') return strtod(p + len + 1, NULL);
  }
  return 0;
}

/* n steps of MuJoCo from its reset state, with its timers (always filled by its release builds);
 * 0 when the peer failed */
static int peer_profile(Peer* peer, long n, Profile* p) {
  char req[64], reply[4096];
  memset(p, 0, sizeof *p);
  snprintf(req, sizeof req, "profile %ld\n", n);
  if (!peer_ask(peer, req, reply, sizeof reply) || !strstr(reply, "STEP=")) return 0;
  p->ncon = reply_value(reply, "ncon");
  p->nefc = reply_value(reply, "nefc");
  p->niter = reply_value(reply, "niter");
  /* mjtTimer: mj_makeConstraint is POS_MAKE, the dual's projection POS_PROJECT, the solver
   * CONSTRAINT; its reference acceleration is computed inside VELOCITY, counted in the rest */
  p->step = reply_value(reply, "STEP") / (double)n;
  p->stage[0] = reply_value(reply, "POS_KINEMATICS") / (double)n;
  p->stage[1] = reply_value(reply, "POS_INERTIA") / (double)n;
  p->stage[2] = reply_value(reply, "POS_COLLISION") / (double)n;
  p->stage[3] = (reply_value(reply, "POS_MAKE") + reply_value(reply, "POS_PROJECT")) / (double)n;
  p->stage[4] = reply_value(reply, "CONSTRAINT") / (double)n;
  p->stage[5] = reply_value(reply, "ACTUATION") / (double)n;
  profile_rest(p);
  return p->step > 0;
}

static void print_breakdown(long n, const Profile* g, const Profile* mj) {
  printf("breakdown  one more round of %ld steps, timers on; microseconds per step\n", n);
  if (mj) {
    printf("  %-28s %9s %6s %9s %6s %7s\n", "stage", "gauss", "%", "mujoco", "%", "ratio");
  } else {
    printf("  %-28s %9s %6s\n", "stage", "gauss", "%");
  }
  for (int i = 0; i <= 7; i++) {
    const char* label = i < 7 ? stage_labels[i] : "step (timed)";
    double gv = i < 7 ? g->stage[i] : g->step;
    printf("  %-28s %9.2f %6.1f", label, 1e6 * gv, 100 * gv / g->step);
    if (mj) {
      double mv = i < 7 ? mj->stage[i] : mj->step;
      printf(" %9.2f %6.1f", 1e6 * mv, 100 * mv / mj->step);
      if (mv > 0) printf(" %7.2f", gv / mv);
    }
    printf("\n");
    if (i == 6) {
      /* parts of the rest that MuJoCo's timers do not separate */
      printf("  %-28s %9.2f %6.1f\n", "  of which passive forces", 1e6 * g->passive,
             100 * g->passive / g->step);
      printf("  %-28s %9.2f %6.1f\n", "  of which sensors", 1e6 * g->sensor,
             100 * g->sensor / g->step);
    }
  }
  printf("  per step: gauss   ncon %.1f  nefc %.1f  solver iterations %.2f\n", g->ncon, g->nefc,
         g->niter);
  if (mj) {
    printf("            mujoco  ncon %.1f  nefc %.1f  solver iterations %.2f\n", mj->ncon,
           mj->nefc, mj->niter);
  }
  printf("  (ratio: gauss time / mujoco time; gauss's constraint rows include the reference\n"
         "   acceleration, which MuJoCo times in its velocity stage, here in the rest; the rest\n"
         "   holds both engines' passive forces and sensors, gauss's actuation its transmissions)\n");
}

static int cmd_bench(int argc, char** argv) {
  Options o;
  if (parse_options(argc, argv, 0, &o)) return usage(stderr);
  if (!o.xml && is_binary(o.model)) {
    fprintf(stderr, "gauss: %s is a binary model; MuJoCo needs the MJCF file: give it with "
                    "--xml MODEL.xml\n", o.model);
    return 2;
  }
  gsModel* m;
  gsData* d;
  if (!load_with_data(&o, &m, &d)) return 1;
  signal(SIGPIPE, SIG_IGN);

  char pybuf[4096], scriptbuf[4096];
  const char* python = find_peer_python(o.peer, pybuf, sizeof pybuf);
  const char* script = find_peer_script(scriptbuf, sizeof scriptbuf);
  Peer peer;
  int have_peer = 0;
  char why[256] = "";
  if (!script) {
    snprintf(why, sizeof why, "bench/mujoco_peer.py not found (set GAUSS_PEER_SCRIPT)");
  } else if (!(have_peer = peer_start(&peer, python, script, &o))) {
    snprintf(why, sizeof why, "%s could not run %s with mujoco", python, script);
  }

  print_model_summary(o.model, m);
  printf("bench      %ld steps per round, %d rounds, MuJoCo via %s\n", o.steps, o.rounds,
         have_peer ? python : "(unavailable)");
  if (have_peer && (peer.nq != m->nq || peer.nv != m->nv || peer.timestep != m->opt.timestep)) {
    printf("note       MuJoCo's model differs: nq %d  nv %d  timestep %g\n", peer.nq, peer.nv,
           peer.timestep);
  }

  if (o.ctrl_random) {
    /* the peer's controls after its reset must be gauss's, to the bit */
    reset_with_controls(m, d, 1);
    int same = have_peer ? peer_controls_match(&peer, m, d) : -1;
    printf("controls   random, fixed (seed 12345)%s\n",
           same > 0 ? ", the same in both engines" : same == 0 ? "; MuJoCo's DIFFER" : "");
  }

  /* warm-up, not counted */
  long warm = o.steps < 1000 ? o.steps : 1000;
  gauss_run(m, d, warm, o.ctrl_random);
  if (have_peer && peer_run(&peer, warm) <= 0) {
    have_peer = 0;
    snprintf(why, sizeof why, "the peer stopped answering");
    peer_close(&peer);
  }

  double* gs = calloc((size_t)o.rounds, sizeof(double));
  double* mj = calloc((size_t)o.rounds, sizeof(double));
  if (!gs || !mj) {
    fprintf(stderr, "gauss: out of memory\n");
    return 1;
  }
  int nmj = 0;
  for (int r = 0; r < o.rounds; r++) {
    /* alternate who goes first, so neither always runs on a warmer machine */
    for (int k = 0; k < 2; k++) {
      if ((k == 0) == (r % 2 == 0)) {
        gs[r] = gauss_run(m, d, o.steps, o.ctrl_random);
      } else if (have_peer) {
        mj[r] = peer_run(&peer, o.steps);
        if (mj[r] <= 0) {
          have_peer = 0;
          snprintf(why, sizeof why, "the peer stopped answering");
          peer_close(&peer);
        } else {
          nmj++;
        }
      }
    }
    if (mj[r] > 0) {
      printf("round %-4d gauss %12.0f steps/s   mujoco %12.0f steps/s   ratio %.3f\n", r + 1,
             gs[r], mj[r], gs[r] / mj[r]);
    } else {
      printf("round %-4d gauss %12.0f steps/s\n", r + 1, gs[r]);
    }
    fflush(stdout);
  }

  /* the compacted MuJoCo rounds (those that ran) */
  double* mjok = calloc((size_t)o.rounds, sizeof(double));
  int k = 0;
  for (int r = 0; r < o.rounds && mjok; r++) {
    if (mj[r] > 0) mjok[k++] = mj[r];
  }
  double gmed = median(gs, o.rounds);
  if (nmj > 0) {
    printf("simulated  %.4f s per round (gauss), %.4f s (mujoco)\n", d->time, peer.time);
  } else {
    printf("simulated  %.4f s per round (gauss)\n", d->time);
  }
  print_warnings(d);
  if (nmj > 0 && k > 0) {
    double mmed = median(mjok, k);
    printf("median     gauss %.0f steps/s   mujoco %.0f steps/s   ratio gauss/mujoco %.3f\n", gmed,
           mmed, gmed / mmed);
  } else {
    printf("median     gauss %.0f steps/s\n", gmed);
    printf("mujoco     peer unavailable: %s\n", why[0] ? why : "unknown reason");
  }

  /* the breakdown: after the timed rounds, so that the timers cost those nothing */
  Profile gp, mp;
  gauss_profile(m, d, o.steps, &gp, o.ctrl_random);
  int have_mp = have_peer && peer_profile(&peer, o.steps, &mp);
  print_breakdown(o.steps, &gp, have_mp ? &mp : NULL);

  if (have_peer) peer_close(&peer);
  free(gs);
  free(mj);
  free(mjok);
  gs_freeData(d);
  gs_freeModel(m);
  return 0;
}

/* ---- print ---- */

static int cmd_print(int argc, char** argv) {
  Options o;
  if (parse_options(argc, argv, 1, &o)) return usage(stderr);
  gsModel* m = load(o.model);
  if (!m) return 1;
  int ok = gs_printModel(m, o.out);
  if (!ok) fprintf(stderr, "gauss: cannot write %s\n", o.out ? o.out : "standard output");
  gs_freeModel(m);
  return ok ? 0 : 1;
}

/* ---- compile ---- */

static int cmd_compile(int argc, char** argv) {
  Options o;
  if (parse_options(argc, argv, 1, &o)) return usage(stderr);
  if (!o.out) {
    fprintf(stderr, "gauss: compile needs an output file: gauss compile MODEL.xml OUT.gsb\n");
    return 2;
  }
  gsModel* m = load(o.model);
  if (!m) return 1;
  char err[1000] = "";
  int ok = gs_saveModel(m, o.out, err, sizeof err);
  if (!ok) fprintf(stderr, "gauss: %s\n", err);
  else printf("wrote %s (%zu bytes)\n", o.out, gs_sizeModel(m));
  gs_freeModel(m);
  return ok ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc < 2) return usage(stderr);
  const char* cmd = argv[1];
  if (strcmp(cmd, "simulate") == 0) return cmd_simulate(argc - 2, argv + 2);
  if (strcmp(cmd, "bench") == 0) return cmd_bench(argc - 2, argv + 2);
  if (strcmp(cmd, "print") == 0) return cmd_print(argc - 2, argv + 2);
  if (strcmp(cmd, "compile") == 0) return cmd_compile(argc - 2, argv + 2);
  if (strcmp(cmd, "render") == 0 || strcmp(cmd, "view") == 0) {
#ifdef GAUSS_HAVE_RENDER
    if (strcmp(cmd, "view") == 0) return gauss_cmd_view(argc - 2, argv + 2, load);
    return gauss_cmd_render(argc - 2, argv + 2, load);
#else
    fprintf(stderr, "gauss: built without the renderer (it needs the EGL and GL headers: "
            "Debian libegl-dev libgl-dev)\n");
    return 1;
#endif
  }
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0)
    return usage(stdout);
  fprintf(stderr, "gauss: unknown command '%s'\n", cmd);
  return usage(stderr);
}
