/* libFuzzer target: one field of a valid binary model set to a hostile value. The input does not
 * hold a model: its bytes choose a seed model (the corpus binaries that scripts/fuzz.sh makes, in
 * $GAUSS_FUZZ_SEEDS, or a few built-in models), then up to four edits, each a field (through
 * gs_modelField), an option or a size, an element, and a value (NaN, +-Inf, -1, -2, 0, huge,
 * tiny, a size of the model, a size + 1, the old value +- 1, raw bits). The edited file gets its
 * CRC made right and is loaded. A model that loads must step without a fault, and the loader and
 * gs_validateModel must agree on the same edits made in memory. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run_model.h"

enum { HEADER = 56, MAXSEEDS = 512, EDIT_BYTES = 11 };

typedef struct {
  unsigned char* buf;
  size_t n;
  gsModel* m;
} Seed;

static Seed seeds[MAXSEEDS];
static int nseed;

static void add_seed(gsModel* m) {
  if (!m || nseed == MAXSEEDS) {
    gs_freeModel(m);
    return;
  }
  size_t n = gs_sizeModel(m);
  unsigned char* buf = malloc(n);
  if (!buf || gs_saveModelBuffer(m, buf, n) != (int)n) {
    free(buf);
    gs_freeModel(m);
    return;
  }
  seeds[nseed++] = (Seed){buf, n, m};
}

static const char* const kBuiltin[] = {
    "<mujoco><worldbody><body><freejoint/><geom size='.1'/></body></worldbody></mujoco>",
    "<mujoco><worldbody><geom type='plane' size='1 1 .1'/><body pos='0 0 .2'><joint/>"
    "<geom type='box' size='.1 .2 .3'/><site name='a'/><body pos='0 0 -.5'><joint name='j2'/>"
    "<joint name='j3' type='slide'/><geom type='capsule' size='.05 .2'/><site name='b'/>"
    "</body></body></worldbody><tendon><fixed name='t'><joint joint='j2' coef='1'/></fixed>"
    "<spatial name='s'><site site='a'/><site site='b'/></spatial></tendon>"
    "<equality><joint joint1='j2' joint2='j3'/><connect body1='world' anchor='0 0 0'"
    " site1='a' site2='b'/><tendon tendon1='t'/></equality>"
    "<actuator><motor joint='j2'/><position tendon='t'/></actuator>"
    "<sensor><jointpos joint='j2'/><framepos objtype='site' objname='a'/></sensor></mujoco>",
};

int LLVMFuzzerInitialize(int* argc, char*** argv) {
  (void)argc, (void)argv;
  const char* dir = getenv("GAUSS_FUZZ_SEEDS");
  DIR* dp = dir ? opendir(dir) : NULL;
  struct dirent* e;
  while (dp && (e = readdir(dp))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".gsb") != 0) continue;
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    char err[500];
    add_seed(gs_loadModel(path, err, sizeof err));
  }
  if (dp) closedir(dp);
  for (size_t i = 0; i < sizeof kBuiltin / sizeof kBuiltin[0]; i++) {
    char err[500];
    add_seed(gs_loadXMLString(kBuiltin[i], err, sizeof err));
  }
  return 0;
}

/* ---- reading the input ---- */

typedef struct {
  const uint8_t* p;
  size_t n;
} Input;

static uint32_t take(Input* in, int bytes) {
  uint32_t v = 0;
  for (int k = 0; k < bytes; k++) {
    v = v << 8 | (in->n ? *in->p : 0);
    if (in->n) in->p++, in->n--;
  }
  return v;
}

/* a size of the model, chosen by k */
static int some_size(const gsModel* m, uint32_t k) {
  int v = 0;
  gs_modelSize(m, (int)(k % (uint32_t)gs_modelSizeCount()), &v);
  return v;
}

static int hostile_int(const gsModel* m, int old, uint32_t kind, uint32_t raw) {
  switch (kind % 12) {
    case 0: return -1;
    case 1: return -2;
    case 2: return 0;
    case 3: return INT_MAX;
    case 4: return INT_MIN;
    case 5: return some_size(m, raw);
    case 6: return some_size(m, raw) + 1;
    case 7: return some_size(m, raw) - 1;
    case 8: return old + 1;
    case 9: return old - 1;
    case 10: return (int)(raw % 16);
    default: return (int)raw;
  }
}

static gsReal hostile_real(const gsModel* m, gsReal old, uint32_t kind, uint32_t raw) {
  switch (kind % 16) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -1;
    case 4: return -2;
    case 5: return 0;
    case 6: return 1e300;
    case 7: return -1e300;
    case 8: return 1e-300;
    case 9: return DBL_MAX;
    case 10: return some_size(m, raw);
    case 11: return some_size(m, raw) + 1;
    case 12: return -old;
    case 13: return old * 1e10;
    case 14: return (gsReal)(int32_t)raw / 65536.0;
    default: {
      uint64_t bits = (uint64_t)raw << 32 | (raw * 2654435761u);
      gsReal v;
      memcpy(&v, &bits, sizeof v);
      return v;
    }
  }
}

/* ---- edits: where, in the file and in a model ---- */

/* the options block: its int members by offset (the reals come first, as in gsOption) */
static const size_t kOptionInts[] = {
    offsetof(gsOption, integrator), offsetof(gsOption, cone),       offsetof(gsOption, jacobian),
    offsetof(gsOption, solver),     offsetof(gsOption, iterations), offsetof(gsOption, ls_iterations),
    offsetof(gsOption, noslip_iterations), offsetof(gsOption, ccd_iterations),
    offsetof(gsOption, disableflags), offsetof(gsOption, enableflags)};
#define NOPTREAL ((int)(offsetof(gsOption, integrator) / sizeof(gsReal)))

static size_t elem_size(int type) {
  return type == GS_TYPE_REAL ? sizeof(gsReal) : type == GS_TYPE_INT ? sizeof(int) : 1;
}

/* one edit applied to the file `buf` and, unless it changes a size, to the model copy `mc`;
 * returns 0 when it changed a size (mc no longer comparable) */
static int edit(const gsModel* m, gsModel* mc, unsigned char* buf, size_t bufsize, Input* in) {
  uint32_t where = take(in, 1), pick = take(in, 2), index = take(in, 3), kind = take(in, 1);
  uint32_t raw = take(in, 4);
  size_t nsizes = (size_t)gs_modelSizeCount();
  size_t opt_off = HEADER + sizeof(int) * nsizes;
  if (where % 16 == 0) {  /* a size: the loader must refuse or accept it by the file's length */
    size_t k = pick % nsizes;
    int old;
    memcpy(&old, buf + HEADER + sizeof(int) * k, sizeof old);
    int v = hostile_int(m, old, kind, raw);
    memcpy(buf + HEADER + sizeof(int) * k, &v, sizeof v);
    return 0;
  }
  if (where % 16 == 1) {  /* an option */
    int nint = (int)(sizeof kOptionInts / sizeof kOptionInts[0]);
    int slot = (int)(pick % (uint32_t)(NOPTREAL + nint));
    if (slot < NOPTREAL) {
      size_t off = sizeof(gsReal) * (size_t)slot;
      gsReal old, v;
      memcpy(&old, buf + opt_off + off, sizeof old);
      v = hostile_real(m, old, kind, raw);
      memcpy(buf + opt_off + off, &v, sizeof v);
      memcpy((char*)&mc->opt + off, &v, sizeof v);
    } else {
      size_t off = kOptionInts[slot - NOPTREAL];
      int old, v;
      memcpy(&old, buf + opt_off + off, sizeof old);
      v = hostile_int(m, old, kind, raw);
      memcpy(buf + opt_off + off, &v, sizeof v);
      memcpy((char*)&mc->opt + off, &v, sizeof v);
    }
    return 1;
  }
  /* an element of a non-empty int or real field */
  gsFieldInfo fi;
  int nfield = 0;
  while (gs_modelField(m, nfield, &fi)) nfield++;
  int count = 0;
  for (int i = 0; i < nfield; i++) {
    gs_modelField(m, i, &fi);
    count += fi.type != GS_TYPE_CHAR && fi.rows * fi.cols > 0;
  }
  if (count == 0) return 1;
  /* the pick-th eligible field */
  uint32_t want = pick % (uint32_t)count;
  /* the arrays end the file, before its CRC: where they start follows from their lengths, whatever
   * the blocks before them (options, statistic, visual settings) hold */
  size_t arrays = 0;
  for (int i = 0; i < nfield; i++) {
    gs_modelField(m, i, &fi);
    arrays += (size_t)fi.rows * (size_t)fi.cols * elem_size(fi.type);
  }
  size_t off = bufsize - 4 - arrays;
  for (int i = 0; i < nfield; i++) {
    gs_modelField(m, i, &fi);
    size_t nel = (size_t)fi.rows * (size_t)fi.cols;
    if (fi.type != GS_TYPE_CHAR && nel && want-- == 0) {
      size_t e = index % nel, es = elem_size(fi.type);
      gsFieldInfo fc;
      gs_modelField(mc, i, &fc);
      if (fi.type == GS_TYPE_INT) {
        int v = hostile_int(m, ((const int*)fi.ptr)[e], kind, raw);
        memcpy(buf + off + e * es, &v, sizeof v);
        ((int*)fc.ptr)[e] = v;
      } else {
        gsReal v = hostile_real(m, ((const gsReal*)fi.ptr)[e], kind, raw);
        memcpy(buf + off + e * es, &v, sizeof v);
        ((gsReal*)fc.ptr)[e] = v;
      }
      break;
    }
    off += nel * elem_size(fi.type);
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (nseed == 0 || size < 1) return 0;
  Input in = {data, size};
  const Seed* s = &seeds[take(&in, 1) % (uint32_t)nseed];
  unsigned char* buf = malloc(s->n);
  gsModel* mc = gs_copyModel(s->m);
  if (!buf || !mc) {
    free(buf);
    gs_freeModel(mc);
    return 0;
  }
  memcpy(buf, s->buf, s->n);
  int comparable = 1;
  int nedit = 1 + (int)(in.n ? in.p[0] % 4 : 0);
  if (in.n) in.p++, in.n--;
  for (int k = 0; k < nedit && (k == 0 || in.n >= EDIT_BYTES); k++)
    comparable &= edit(s->m, mc, buf, s->n, &in);
  uint32_t crc = crc32_bytes(buf, s->n - 4);
  memcpy(buf + s->n - 4, &crc, 4);

  char err[1000], err2[1000];
  gsModel* m = gs_loadModelBuffer(buf, s->n, err, sizeof err);
  if (comparable) {
    int valid = gs_validateModel(mc, err2, sizeof err2);
    FUZZ_REQUIRE(valid == (m != NULL));
    FUZZ_REQUIRE(valid || err2[0] != 0);
  }
  if (m) {
    fuzz_step(m);
    gs_freeModel(m);
  } else {
    FUZZ_REQUIRE(err[0] != 0);
  }
  gs_freeModel(mc);
  free(buf);
  return 0;
}
