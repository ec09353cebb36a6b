/* Binary models: every corpus model survives save/load (buffer and file) with every field and the
 * stepping bit-identical; truncated, corrupted, foreign and missing files give clear errors; a
 * corrupted file whose checksum has been made valid again either loads a model the engine can
 * step or is refused, never a crash (run under ASan/UBSan too). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gauss/gauss.h>

#include "check.h"

#ifndef GAUSS_TEST_MODELS
#define GAUSS_TEST_MODELS "tests/models"
#endif

/* the header as binary.c writes it */
enum { OFF_VERSION = 8, OFF_BYTEORDER = 12, OFF_REALSIZE = 16, OFF_HASH = 40, OFF_LENGTH = 48,
       HEADER = 56 };

static uint32_t crc32_ref(const unsigned char* p, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
  }
  return c ^ 0xffffffffu;
}

/* make the trailing checksum right again after an edit */
static void reseal(unsigned char* buf, size_t n) {
  uint32_t c = crc32_ref(buf, n - 4);
  memcpy(buf + n - 4, &c, 4);
}

static size_t elem_size(int type) {
  return type == GS_TYPE_REAL ? sizeof(gsReal) : type == GS_TYPE_INT ? sizeof(int) : 1;
}

/* 1 when every size, option and array of a and b are bit-identical; reports the first difference */
static int same_model(const gsModel* a, const gsModel* b, const char* what) {
  int va, vb;
  const char* s;
  for (int i = 0; (s = gs_modelSize(a, i, &va)); i++) {
    gs_modelSize(b, i, &vb);
    if (va != vb) {
      printf("  %s: size %s %d != %d\n", what, s, va, vb);
      return 0;
    }
  }
  if (memcmp(&a->opt, &b->opt, sizeof(gsOption)) != 0) {
    printf("  %s: options differ\n", what);
    return 0;
  }
  if (memcmp(&a->stat, &b->stat, sizeof(gsStatistic)) != 0) {
    printf("  %s: statistics differ\n", what);
    return 0;
  }
  /* the visual settings member by member: the struct's padding is not saved */
  if (memcmp(&a->vis, &b->vis, offsetof(gsVisual, numquads) + sizeof(int)) != 0) {
    printf("  %s: visual settings differ\n", what);
    return 0;
  }
  gsFieldInfo fa, fb;
  for (int i = 0; gs_modelField(a, i, &fa); i++) {
    gs_modelField(b, i, &fb);
    size_t n = (size_t)fa.rows * (size_t)fa.cols * elem_size(fa.type);
    if (fa.rows != fb.rows || fa.cols != fb.cols || (n && memcmp(fa.ptr, fb.ptr, n) != 0)) {
      printf("  %s: field %s differs\n", what, fa.name);
      return 0;
    }
  }
  return 1;
}

/* a state that moves every dof, from the model alone */
static void perturb(const gsModel* m, gsData* d) {
  for (int i = 0; i < m->nv; i++) d->qvel[i] = 0.3 * ((i * 7919) % 13 - 6) / 6.0;
}

/* n steps on each model from the same state; 1 when the trajectories are bit-identical */
static int same_steps(const gsModel* a, const gsModel* b, int n) {
  gsData* da = gs_makeData(a);
  gsData* db = gs_makeData(b);
  int same = da && db;
  if (same) {
    perturb(a, da);
    perturb(b, db);
    for (int k = 0; k < n; k++) {
      gs_step(a, da);
      gs_step(b, db);
    }
    same = memcmp(da->qpos, db->qpos, sizeof(gsReal) * (size_t)a->nq) == 0 &&
           memcmp(da->qvel, db->qvel, sizeof(gsReal) * (size_t)a->nv) == 0 &&
           memcmp(da->qacc, db->qacc, sizeof(gsReal) * (size_t)a->nv) == 0 && da->time == db->time;
  }
  gs_freeData(da);
  gs_freeData(db);
  return same;
}

static unsigned char* save(const gsModel* m, size_t* n) {
  *n = gs_sizeModel(m);
  unsigned char* buf = malloc(*n);
  if (buf && gs_saveModelBuffer(m, buf, *n) != (int)*n) {
    free(buf);
    return NULL;
  }
  return buf;
}

static char tmpdir[256];

static void round_trip(const char* path) {
  char err[1000];
  gsModel* m = gs_loadXML(path, err, sizeof err);
  CHECK(m != NULL, "%s: %s", path, err);
  if (!m) return;
  size_t n;
  unsigned char* buf = save(m, &n);
  CHECK(buf != NULL && n > HEADER, "%s: save to buffer", path);
  CHECK(gs_saveModelBuffer(m, buf, n - 1) == 0, "%s: a buffer one byte short is refused", path);
  gsModel* b = buf ? gs_loadModelBuffer(buf, n, err, sizeof err) : NULL;
  CHECK(b != NULL, "%s: load from buffer: %s", path, err);
  if (b) {
    CHECK(same_model(m, b, path), "%s: buffer round trip changes the model", path);
    CHECK(same_steps(m, b, 200), "%s: stepping the loaded model differs", path);
    /* saving the loaded model gives the same bytes */
    size_t n2;
    unsigned char* buf2 = save(b, &n2);
    CHECK(buf2 && n2 == n && memcmp(buf, buf2, n) == 0, "%s: saving again differs", path);
    free(buf2);
  }
  char file[512];
  snprintf(file, sizeof file, "%s/model.gsb", tmpdir);
  CHECK(gs_saveModel(m, file, err, sizeof err), "%s: save to file: %s", path, err);
  gsModel* f = gs_loadModel(file, err, sizeof err);
  CHECK(f != NULL, "%s: load from file: %s", path, err);
  if (f) CHECK(same_model(m, f, path) && same_steps(m, f, 50), "%s: file round trip", path);
  gs_freeModel(f);
  gs_freeModel(b);
  gs_freeModel(m);
  free(buf);
}

static void corpus(void) {
  static const char* const groups[] = {"gymnasium", "dm_control", "mujoco"};
  int count = 0;
  for (int g = 0; g < 3; g++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s", GAUSS_TEST_MODELS, groups[g]);
    DIR* dp = opendir(dir);
    CHECK(dp != NULL, "cannot open %s", dir);
    if (!dp) continue;
    struct dirent* e;
    while ((e = readdir(dp))) {
      size_t len = strlen(e->d_name);
      if (len < 5 || strcmp(e->d_name + len - 4, ".xml") != 0) continue;
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      round_trip(path);
      count++;
    }
    closedir(dp);
  }
  CHECK(count >= 30, "only %d corpus models", count);
}

/* loading must fail with a message containing `phrase` */
static void expect_error(const unsigned char* buf, size_t n, const char* phrase, const char* what) {
  char err[1000] = "";
  gsModel* m = gs_loadModelBuffer(buf, n, err, sizeof err);
  CHECK(m == NULL, "%s: loaded", what);
  CHECK(err[0] && strstr(err, phrase), "%s: error '%s' lacks '%s'", what, err, phrase);
  gs_freeModel(m);
}

/* the good file with the int at byte `at` set to `value`, its checksum made valid: refused */
static void expect_int_refused(unsigned char* buf, const unsigned char* good, size_t n, size_t at,
                               int value, const char* phrase, const char* what) {
  memcpy(buf, good, n);
  memcpy(buf + at, &value, sizeof(int));
  reseal(buf, n);
  expect_error(buf, n, phrase, what);
}

/* the options as the file stores them: member by member, without the struct's trailing padding
 * (actuatorgroupdisable is the last member) */
#define OPTION_BYTES (offsetof(gsOption, actuatorgroupdisable) + sizeof(int))
#define VISUAL_BYTES (offsetof(gsVisual, numquads) + sizeof(int))

/* deterministic generator for the corruption tests */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)(rng >> 11);
}

static void corruption(const char* path, int nsealed) {
  char err[1000];
  gsModel* m = gs_loadXML(path, err, sizeof err);
  CHECK(m != NULL, "%s: %s", path, err);
  if (!m) return;
  size_t n;
  unsigned char* good = save(m, &n);
  unsigned char* buf = malloc(n);
  if (!good || !buf) {
    CHECK(0, "out of memory");
    return;
  }

  /* truncated at every 1/64 of the length */
  for (int k = 0; k < 64; k++) {
    size_t len = n * (size_t)k / 64;
    char what[64];
    snprintf(what, sizeof what, "truncated at %zu/%zu", len, n);
    expect_error(good, len, len == 0 ? "empty" : len < 8 ? "not a gauss" : "truncated", what);
  }
  expect_error(good, n - 1, "truncated", "one byte short");

  /* every byte of the header flipped */
  for (int i = 0; i < HEADER; i++) {
    memcpy(buf, good, n);
    buf[i] ^= 0x5a;
    char what[64];
    snprintf(what, sizeof what, "header byte %d flipped", i);
    expect_error(buf, n, "", what);
  }
  /* random bytes of the payload flipped: the checksum catches each */
  for (int t = 0; t < 200; t++) {
    memcpy(buf, good, n);
    size_t i = HEADER + next() % (n - HEADER);
    buf[i] ^= (unsigned char)(1 + next() % 255);
    expect_error(buf, n, i >= n - 4 ? "checksum" : "checksum", "payload byte flipped");
  }

  /* a different version, field list, reals, byte order: named as such */
  memcpy(buf, good, n);
  buf[OFF_VERSION] ^= 0x7;
  reseal(buf, n);
  expect_error(buf, n, "version", "wrong version");
  memcpy(buf, good, n);
  buf[OFF_HASH + 3] ^= 0x10;
  reseal(buf, n);
  expect_error(buf, n, "different list of model fields", "wrong field hash");
  memcpy(buf, good, n);
  buf[OFF_REALSIZE] = 4;
  reseal(buf, n);
  expect_error(buf, n, "4-byte reals", "wrong real size");
  memcpy(buf, good, n);
  for (int k = 0; k < 4; k++) buf[OFF_BYTEORDER + k] = good[OFF_BYTEORDER + 3 - k];
  reseal(buf, n);
  expect_error(buf, n, "byte order", "other byte order");
  memcpy(buf, good, n);
  buf[OFF_LENGTH] ^= 1;
  reseal(buf, n);
  expect_error(buf, n, "bytes", "wrong length");

  /* a valid checksum over corrupted contents: sizes no longer fit the file, ids out of range */
  memcpy(buf, good, n);
  int nbody = m->nbody + 1;
  memcpy(buf + HEADER + 4 * 4, &nbody, 4);  /* nbody is the fifth size */
  reseal(buf, n);
  expect_error(buf, n, "bytes of arrays", "nbody changed");
  memcpy(buf, good, n);
  int neg = -5;
  memcpy(buf + HEADER, &neg, 4);
  reseal(buf, n);
  expect_error(buf, n, "negative size nq", "negative nq");

  /* offsets of the arrays in the file */
  size_t arrays =
      HEADER + sizeof(int) * (size_t)gs_modelSizeCount() + OPTION_BYTES + sizeof(gsStatistic) +
      VISUAL_BYTES;
  gsFieldInfo fi;
  size_t off = arrays;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    size_t bytes = (size_t)fi.rows * (size_t)fi.cols * elem_size(fi.type);
    if (strcmp(fi.name, "body_parentid") == 0 && m->nbody > 2) {
      expect_int_refused(buf, good, n, off + 2 * sizeof(int), m->nbody + 3, "body 2: parent",
                         "parent out of range");
    }
    if (strcmp(fi.name, "dof_Madr") == 0 && m->nv > 1) {
      expect_int_refused(buf, good, n, off + sizeof(int) * (size_t)(m->nv - 1), 1 << 30, "row of M",
                         "dof_Madr out of range");
    }
    if (strcmp(fi.name, "M_dofid") == 0 && m->nM > 1) {
      /* the kernels on M index x and cdof by these columns: one past nv must be refused */
      expect_int_refused(buf, good, n, off + sizeof(int) * (size_t)(m->nM - 1), m->nv, "column",
                         "M_dofid out of range");
    }
    if (strcmp(fi.name, "dof_freetail") == 0 && m->nv > 0) {
      /* the kernels on M take a row's last six entries as a free joint's by it: a value unlike
       * the tree's is refused, either way */
      int last = m->dof_freetail[m->nv - 1];
      expect_int_refused(buf, good, n, off + sizeof(int) * (size_t)(m->nv - 1), last < 0 ? 0 : -1,
                         "dof_freetail[", "free tail not its tree's");
    }
    if (strcmp(fi.name, "tendon_dofnum") == 0 && m->ntendon > 0) {
      /* the kernels on ten_J clear and read only each tendon's span: one unlike its path's is
       * refused */
      expect_int_refused(buf, good, n, off, m->nv, "tendon 0: dofs",
                         "tendon span not its path's");
    }
    if (strcmp(fi.name, "name_geomadr") == 0 && m->ngeom > 0) {
      expect_int_refused(buf, good, n, off, m->nnames, "outside the names",
                         "name address out of range");
    }
    if (strcmp(fi.name, "mesh_treechild") == 0 && m->nmeshtree > 1) {
      /* a node that is its own child would loop a ray's descent: refused */
      expect_int_refused(buf, good, n, off, 0, "tree node",
                         "tree node its own child");
    }
    if (strcmp(fi.name, "mesh_treeface") == 0 && m->nmeshface > 0) {
      expect_int_refused(buf, good, n, off, 1 << 30, "tree triangle",
                         "tree triangle out of range");
    }
    if (strcmp(fi.name, "mesh_hullcell") == 0 && m->nmesh > 0) {
      /* a support climb would start outside the hull graph: refused */
      expect_int_refused(buf, good, n, off, 1 << 30, "hull cell",
                         "hull cell out of range");
    }
    if (strcmp(fi.name, "geom_type") == 0 && m->ngeom > 0) {
      expect_int_refused(buf, good, n, off, 99, "unknown type",
                         "geom type out of range");
    }
    off += bytes;
  }
  CHECK(off + 4 == n, "array offsets add up (%zu + 4 != %zu)", off, n);

  /* any byte of the arrays changed, checksum made valid: refused or safe to step */
  int loaded = 0;
  for (int t = 0; t < nsealed; t++) {
    memcpy(buf, good, n);
    int nflip = 1 + (int)(next() % 3);
    for (int k = 0; k < nflip; k++) {
      size_t i = HEADER + next() % (n - HEADER - 4);
      buf[i] = (unsigned char)next();
    }
    reseal(buf, n);
    err[0] = 0;
    gsModel* c = gs_loadModelBuffer(buf, n, err, sizeof err);
    if (c) {
      loaded++;
      gsData* d = gs_makeData(c);
      if (d) {
        perturb(c, d);
        for (int k = 0; k < 10; k++) gs_step(c, d);
        gs_freeData(d);
      }
      gs_freeModel(c);
    } else {
      CHECK(err[0] != 0, "refused without a message");
    }
  }
  printf("%s: %d of %d resealed corruptions loaded and stepped\n", path, loaded, nsealed);

  free(buf);
  free(good);
  gs_freeModel(m);
}


/* ---- crafted values: a field set in a copy of a compiled model, saved (which seals it) and
 * loaded. The loader and gs_validateModel must refuse it naming the field, or (phrase NULL) load
 * a model that steps. ---- */

static const char* const kCrafted =
    "<mujoco><worldbody><geom type='plane' size='1 1 .1'/>"
    "<body name='b1' pos='0 0 .2'><joint name='j1'/><geom type='box' size='.1 .2 .3'/>"
    "<site name='a'/><body name='b2' pos='0 0 -.5'><joint name='j2'/>"
    "<joint name='j3' type='slide'/><geom type='capsule' size='.05 .2'/><site name='b'/></body>"
    "</body><body name='b3' pos='1 0 1'><joint name='ball' type='ball'/><geom size='.1'/></body>"
    "</worldbody><tendon><fixed name='t'><joint joint='j2' coef='1'/></fixed>"
    "<fixed name='t2'><joint joint='j3' coef='1'/></fixed></tendon>"
    "<equality><connect body1='b1' body2='b3' anchor='0 0 0'/><weld body1='b2'/>"
    "<joint joint1='j2' joint2='j3'/><tendon tendon1='t'/><connect site1='a' site2='b'/>"
    "</equality><actuator><motor joint='j2'/></actuator></mujoco>";

/* where a crafted model goes wrong; NULL phrase: it is valid */
static void expect_crafted(const gsModel* c, const char* phrase, const char* what) {
  char err[1000] = "", verr[1000] = "";
  int valid = gs_validateModel(c, verr, sizeof verr);
  size_t n;
  unsigned char* buf = save(c, &n);
  CHECK(buf != NULL, "%s: save", what);
  if (!buf) return;
  gsModel* m = gs_loadModelBuffer(buf, n, err, sizeof err);
  if (phrase) {
    CHECK(!m && strstr(err, phrase), "%s: %s (expected '%s')", what, m ? "loaded" : err, phrase);
    CHECK(!valid && strstr(verr, phrase), "%s: gs_validateModel: %s", what, valid ? "valid" : verr);
  } else {
    CHECK(m && valid, "%s: refused: %s", what, err);
  }
  if (m) {
    gsData* d = gs_makeData(m);
    if (d) {
      perturb(m, d);
      for (int k = 0; k < 20; k++) gs_step(m, d);
      gs_freeData(d);
    }
    gs_freeModel(m);
  }
  free(buf);
}

static void* field_ptr(gsModel* m, const char* name, int* type) {
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++)
    if (strcmp(fi.name, name) == 0) {
      *type = fi.type;
      return fi.ptr;
    }
  return NULL;
}

/* element e of field `name` set to v (an int field takes (int)v) */
static void craft(const gsModel* base, const char* name, int e, double v, const char* phrase) {
  gsModel* c = gs_copyModel(base);
  int type = 0;
  void* p = c ? field_ptr(c, name, &type) : NULL;
  CHECK(p != NULL, "no field %s", name);
  if (!p) {
    gs_freeModel(c);
    return;
  }
  if (type == GS_TYPE_INT) ((int*)p)[e] = (int)v;
  else ((gsReal*)p)[e] = v;
  char what[160];
  snprintf(what, sizeof what, "%s[%d] = %g", name, e, v);
  expect_crafted(c, phrase, what);
  gs_freeModel(c);
}

/* an option changed by `set` */
static void craft_option(const gsModel* base, void (*set)(gsOption*), const char* phrase,
                         const char* what) {
  gsModel* c = gs_copyModel(base);
  if (!c) return;
  set(&c->opt);
  expect_crafted(c, phrase, what);
  gs_freeModel(c);
}

static void opt_dt0(gsOption* o) { o->timestep = 0; }
static void opt_dtneg(gsOption* o) { o->timestep = -0.01; }
static void opt_dtnan(gsOption* o) { o->timestep = NAN; }
static void opt_impratio(gsOption* o) { o->impratio = -1; }
static void opt_gravity(gsOption* o) { o->gravity[2] = -INFINITY; }
static void opt_tolerance(gsOption* o) { o->tolerance = NAN; }
static void opt_integrator(gsOption* o) { o->integrator = 4; }
static void opt_cone(gsOption* o) { o->cone = -1; }
static void opt_solver(gsOption* o) { o->solver = 3; }
static void opt_jacobian(gsOption* o) { o->jacobian = -1; }
static void opt_iterations(gsOption* o) { o->iterations = -1; }
static void opt_flags(gsOption* o) { o->disableflags = 1 << 30; }

static void crafted(void) {
  char err[1000];
  gsModel* m = gs_loadXMLString(kCrafted, err, sizeof err);
  CHECK(m != NULL, "crafted model: %s", err);
  if (!m) return;
  CHECK(m->neq == 5 && m->ntendon == 2 && m->njnt == 4 && m->nsite == 2, "crafted model sizes");
  expect_crafted(m, NULL, "the model as compiled");
  CHECK(!gs_validateModel(NULL, err, sizeof err) && strstr(err, "no model"), "NULL: %s", err);
  int ball = 3;  /* joints j1 j2 j3 ball */
  CHECK(m->jnt_type[ball] == GS_JNT_BALL, "joint 3 is the ball");

  /* equality objects, by type: connect bodies (0), weld to the world (1), joint (2), tendon (3),
   * connect sites (4) */
  craft(m, "eq_obj1id", 2, -2, "eq_obj1id[2] = -2: not a joint");
  craft(m, "eq_obj1id", 2, -1, "eq_obj1id[2] = -1: not a joint");
  craft(m, "eq_obj1id", 2, m->njnt, "eq_obj1id[2]");
  craft(m, "eq_obj2id", 2, ball, "not a hinge or a slide");
  craft(m, "eq_obj2id", 2, -1, NULL);  /* a joint held at a constant */
  craft(m, "eq_obj1id", 3, -2, "eq_obj1id[3] = -2: not a tendon");
  craft(m, "eq_obj1id", 3, -1, "eq_obj1id[3] = -1: not a tendon");
  craft(m, "eq_obj1id", 3, m->ntendon, "eq_obj1id[3]");
  craft(m, "eq_obj2id", 3, m->ntendon, "eq_obj2id[3]");
  craft(m, "eq_obj2id", 3, -2, "eq_obj2id[3]");
  craft(m, "eq_obj2id", 3, 1, NULL);  /* coupled to the other tendon */
  craft(m, "eq_obj2id", 3, 0, "the same tendon");
  craft(m, "eq_obj1id", 0, m->nbody, "eq_obj1id[0]");
  craft(m, "eq_obj1id", 0, -1, "not a body");
  craft(m, "eq_obj2id", 1, -1, "eq_obj2id[1] = -1: not a body");
  craft(m, "eq_obj2id", 1, -2, "eq_obj2id[1]");
  craft(m, "eq_obj1id", 4, m->nsite, "eq_obj1id[4]");
  craft(m, "eq_obj2id", 4, -1, "eq_obj2id[4] = -1: not a site");
  craft(m, "eq_objtype", 4, GS_OBJ_JOINT, "eq_objtype[4]");
  craft(m, "eq_objtype", 2, GS_OBJ_BODY, "eq_objtype[2]");
  craft(m, "eq_type", 2, GS_EQ_FLEX, "eq_type[2]");
  craft(m, "eq_type", 2, -1, "eq_type[2]");
  craft(m, "eq_type", 2, GS_EQ_TENDON, "eq_obj2id[2] = 2: not a tendon");  /* joints 1, 2 */

  /* an actuator's target: -1 passes the id range, but every transmission needs one (the motor on
   * j2 is actuator 0); a tendon transmission then indexes the tendons */
  craft(m, "actuator_trnid", 0, -1, "actuator_trnid[0] = -1: the transmission has no target");
  craft(m, "actuator_trntype", 0, GS_TRN_TENDON, NULL);  /* j2's id 1 is a tendon's too */
  craft(m, "actuator_trnid", 1, 0, NULL);                /* a second id the joint ignores */

  /* reals: not finite, or of a sign the compiler never gives */
  craft(m, "body_mass", 1, NAN, "body_mass[1]");
  craft(m, "body_mass", 1, -1, "body_mass[1] = -1 is negative");
  craft(m, "body_mass", 2, INFINITY, "body_mass[2]");
  craft(m, "body_inertia", 3, -1, "body_inertia[3]");
  craft(m, "body_inertia", 4, INFINITY, "body_inertia[4]");
  craft(m, "body_subtreemass", 0, NAN, "body_subtreemass[0]");
  craft(m, "body_pos", 5, -INFINITY, "body_pos[5]");
  craft(m, "qpos0", 0, NAN, "qpos0[0]");
  craft(m, "qpos0", 1, INFINITY, "qpos0[1]");
  craft(m, "qpos_spring", 1, NAN, "qpos_spring[1]");
  craft(m, "geom_size", 3, -1, "geom_size[3]");      /* the box's half-size */
  craft(m, "geom_size", 3, 0, "geom_size[3]");
  craft(m, "geom_size", 3 * 3, NAN, "geom_size[9]");  /* the sphere's radius */
  craft(m, "geom_friction", 3, NAN, "geom_friction[3]");
  craft(m, "geom_friction", 4, INFINITY, "geom_friction[4]");
  craft(m, "geom_rbound", 1, -1, "geom_rbound[1]");
  craft(m, "jnt_solref", 0, INFINITY, "jnt_solref[0]");
  craft(m, "geom_solimp", 2, NAN, "geom_solimp[2]");
  craft(m, "eq_solref", 1, NAN, "eq_solref[1]");
  craft(m, "eq_data", 0, INFINITY, "eq_data[0]");
  craft(m, "jnt_stiffness", 0, -1, "jnt_stiffness[0]");
  craft(m, "dof_damping", 1, -1, "dof_damping[1]");
  craft(m, "dof_armature", 0, NAN, "dof_armature[0]");
  craft(m, "dof_invweight0", 0, -1, "dof_invweight0[0]");
  craft(m, "tendon_stiffness", 0, -1, "tendon_stiffness[0]");
  craft(m, "actuator_gear", 0, NAN, "actuator_gear[0]");
  craft(m, "body_quat", 4, 0, "body_quat[4]");  /* body 1's orientation no longer unit */
  craft(m, "geom_sameframe", 0, 9, "geom_sameframe[0]");
  craft(m, "body_inertia", 3, 100, "not the moments of a body");  /* A + B < C */
  craft(m, "body_subtreemass", 1, 1e-3, "body_subtreemass[1]");   /* not the masses below */
  craft(m, "body_mass", 1, 0, "body_subtreemass[1]");             /* no longer its mass and below */
  craft(m, "jnt_axis", 2, 0, "axis of joint 0");                  /* a zero hinge axis */
  /* ids that were checked before, still refused */
  craft(m, "actuator_trnid", 0, m->njnt, "actuator_trnid[0]");
  /* a hinge's dof marked diagonal: M's products and solves would leave out its row's entries */
  craft(m, "dof_diagonal", 0, 1, "dof_diagonal[0]");
  craft(m, "dof_diagonal", 1, 2, "dof_diagonal[1]");
  {
    /* a free body's six marked together, or none: one of them alone is refused (the CRB writes
     * the block from the joint's first dof, the solves skip each marked row) */
    gsModel* f = gs_loadXMLString("<mujoco><worldbody><body><freejoint/><geom size='.1'/></body>"
                                  "</worldbody></mujoco>", err, sizeof err);
    CHECK(f && f->dof_diagonal[0] == 1 && f->dof_diagonal[5] == 1, "free sphere: diagonal");
    if (f) {
      craft(f, "dof_diagonal", 3, 0, "not as its free joint's dof");
      craft(f, "dof_diagonal", 0, 0, "not as its free joint's dof");
      gs_freeModel(f);
    }
  }
  craft(m, "jnt_type", 0, 7, "unknown type");

  /* options and statistics */
  craft_option(m, opt_dt0, "option timestep[0] = 0 is not positive", "timestep 0");
  craft_option(m, opt_dtneg, "option timestep", "negative timestep");
  craft_option(m, opt_dtnan, "option timestep", "NaN timestep");
  craft_option(m, opt_impratio, "option impratio", "negative impratio");
  craft_option(m, opt_gravity, "option gravity[2]", "infinite gravity");
  craft_option(m, opt_tolerance, "option tolerance", "NaN tolerance");
  craft_option(m, opt_integrator, "option integrator", "integrator 4");
  craft_option(m, opt_cone, "option cone", "cone -1");
  craft_option(m, opt_solver, "option solver", "solver 3");
  craft_option(m, opt_jacobian, "option jacobian", "jacobian -1");
  craft_option(m, opt_iterations, "option iterations = -1", "iterations -1");
  craft_option(m, opt_flags, "flag bits", "unknown disable bit");
  gsModel* c = gs_copyModel(m);
  if (c) {
    c->stat.meaninertia = NAN;
    expect_crafted(c, "meaninertia", "NaN meaninertia");
    gs_freeModel(c);
  }
  /* the renderer's statistic and visual settings */
  if ((c = gs_copyModel(m))) {
    c->stat.extent = 0;
    expect_crafted(c, "statistic extent", "zero extent");
    gs_freeModel(c);
  }
  /* (MJCF takes a far plane before the near one and any tessellation; the renderer copes) */
  if ((c = gs_copyModel(m))) {
    c->vis.znear = 0;
    expect_crafted(c, "visual znear", "a near plane at the camera");
    gs_freeModel(c);
  }
  if ((c = gs_copyModel(m))) {
    c->vis.zfar = NAN;
    expect_crafted(c, "visual znear", "a NaN far plane");
    gs_freeModel(c);
  }

  /* the compiler refuses the option values the loader refuses */
  gsModel* x = gs_loadXMLString("<mujoco><option timestep='0'/><worldbody/></mujoco>", err,
                                sizeof err);
  CHECK(!x && strstr(err, "timestep"), "XML timestep 0: %s", x ? "compiled" : err);
  gs_freeModel(x);
  x = gs_loadXMLString("<mujoco><option impratio='-1'/><worldbody/></mujoco>", err, sizeof err);
  CHECK(!x && strstr(err, "impratio"), "XML impratio -1: %s", x ? "compiled" : err);
  gs_freeModel(x);
  gs_freeModel(m);
}

/* every element of every real field of a corpus model set to NaN, +Inf and -Inf: refused, naming
 * the field; every element of every int field set to hostile values: refused with a message, or
 * a model that steps */
static void every_field(const char* path) {
  char err[1000];
  gsModel* m = gs_loadXML(path, err, sizeof err);
  CHECK(m != NULL, "%s: %s", path, err);
  if (!m) return;
  gsModel* c = gs_copyModel(m);
  size_t n = gs_sizeModel(m);
  unsigned char* buf = malloc(n);
  int nreal = 0, nint = 0, nloaded = 0;
  gsFieldInfo fi, fc;
  for (int i = 0; c && buf && gs_modelField(m, i, &fi); i++) {
    gs_modelField(c, i, &fc);
    int nel = fi.rows * fi.cols;
    for (int e = 0; e < nel; e++) {
      if (fi.type == GS_TYPE_REAL) {
        static const double kBad[3] = {NAN, INFINITY, -INFINITY};
        gsReal old = ((gsReal*)fc.ptr)[e];
        ((gsReal*)fc.ptr)[e] = kBad[e % 3];
        gs_saveModelBuffer(c, buf, n);
        gsModel* l = gs_loadModelBuffer(buf, n, err, sizeof err);
        CHECK(!l && strstr(err, fi.name), "%s[%d] = %g: %s", fi.name, e, kBad[e % 3],
              l ? "loaded" : err);
        gs_freeModel(l);
        ((gsReal*)fc.ptr)[e] = old;
        nreal++;
      } else if (fi.type == GS_TYPE_INT && e < 64) {
        static const int kBad[4] = {-2, -1, INT_MAX, INT_MIN};
        int old = ((int*)fc.ptr)[e];
        for (int k = 0; k < 4; k++) {
          ((int*)fc.ptr)[e] = kBad[k];
          gs_saveModelBuffer(c, buf, n);
          gsModel* l = gs_loadModelBuffer(buf, n, err, sizeof err);
          if (l) {
            nloaded++;
            gsData* d = gs_makeData(l);
            if (d) {
              perturb(l, d);
              for (int s = 0; s < 5; s++) gs_step(l, d);
              gs_freeData(d);
            }
            gs_freeModel(l);
          } else {
            CHECK(err[0] != 0, "%s[%d] = %d refused without a message", fi.name, e, kBad[k]);
          }
          nint++;
        }
        ((int*)fc.ptr)[e] = old;
      }
    }
  }
  printf("%s: %d non-finite reals refused; %d hostile ints, %d loaded and stepped\n", path, nreal,
         nint, nloaded);
  free(buf);
  gs_freeModel(c);
  gs_freeModel(m);
}

static void files(void) {
  char err[1000], path[512];
  gsModel* m = gs_loadModel("/nonexistent/dir/model.gsb", err, sizeof err);
  CHECK(!m && strstr(err, "cannot read file") && strstr(err, "/nonexistent/dir/model.gsb"),
        "missing file: %s", err);
  snprintf(path, sizeof path, "%s/empty.gsb", tmpdir);
  FILE* f = fopen(path, "wb");
  if (f) fclose(f);
  m = gs_loadModel(path, err, sizeof err);
  CHECK(!m && strstr(err, "empty"), "empty file: %s", err);
  m = gs_loadModel(tmpdir, err, sizeof err);
  CHECK(!m && err[0], "a directory: %s", err);
  snprintf(path, sizeof path, "%s/notgauss.gsb", tmpdir);
  f = fopen(path, "wb");
  if (f) {
    fputs("<mujoco/>", f);
    fclose(f);
  }
  m = gs_loadModel(path, err, sizeof err);
  CHECK(!m && strstr(err, "not a gauss binary model"), "an XML file: %s", err);

  gsModel* x = gs_loadXMLString("<mujoco><worldbody><body><freejoint/><geom size='.1'/></body>"
                                "</worldbody></mujoco>", err, sizeof err);
  CHECK(x != NULL, "small model: %s", err);
  CHECK(!gs_saveModel(x, "/nonexistent/dir/out.gsb", err, sizeof err) &&
            strstr(err, "cannot write"),
        "unwritable path: %s", err);
  CHECK(gs_saveModelBuffer(x, NULL, 0) == 0, "NULL buffer");
  CHECK(gs_loadModelBuffer(NULL, 0, err, sizeof err) == NULL && strstr(err, "empty"), "NULL load");
  CHECK(gs_sizeModel(NULL) == 0, "size of NULL");
  gs_freeModel(x);
}

/* in-memory files: an include found in memory, the memory taken before the disk, bad names */
static void assets(void) {
  char err[1000], path[600];
  snprintf(path, sizeof path, "%s/main.xml", tmpdir);
  FILE* f = fopen(path, "wb");
  if (f) {
    fputs("<mujoco><worldbody><include file='parts/arm.xml'/></worldbody></mujoco>", f);
    fclose(f);
  }
  const char* arm = "<mujoco><body name='arm'><joint/><geom size='.1'/></body></mujoco>";
  const char* names[] = {"parts/arm.xml"};
  const void* data[] = {arm};
  size_t sizes[] = {strlen(arm)};
  gsModel* m = gs_loadXMLWithAssets(path, names, data, sizes, 1, err, sizeof err);
  CHECK(m && m->nbody == 2 && gs_name2id(m, GS_OBJ_BODY, "arm") == 1, "include from memory: %s",
        err);
  gs_freeModel(m);
  m = gs_loadXML(path, err, sizeof err);
  CHECK(!m && strstr(err, "parts/arm.xml"), "without the memory file: %s", err);
  const char* twice[] = {"a.xml", "./a.xml"};
  const void* d2[] = {arm, arm};
  size_t s2[] = {sizes[0], sizes[0]};
  m = gs_loadXMLWithAssets(path, twice, d2, s2, 2, err, sizeof err);
  CHECK(!m && strstr(err, "in-memory file"), "repeated name: %s", err);
  /* the main file itself from memory, under any directory */
  const char* main_xml = "<mujoco><worldbody><include file='arm.xml'/></worldbody></mujoco>";
  const char* n3[] = {"model.xml", "arm.xml"};
  const void* d3[] = {main_xml, arm};
  size_t s3[] = {strlen(main_xml), strlen(arm)};
  m = gs_loadXMLWithAssets("/nowhere/model.xml", n3, d3, s3, 2, err, sizeof err);
  CHECK(m && m->nbody == 2, "everything from memory: %s", err);
  gs_freeModel(m);
  remove(path);
}

int main(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/gauss_test_binary_XXXXXX");
  if (!mkdtemp(tmpdir)) {
    printf("cannot make a temporary directory\n");
    return 1;
  }
  corpus();
  corruption(GAUSS_TEST_MODELS "/dm_control/acrobot.xml", 3000);
  corruption(GAUSS_TEST_MODELS "/mujoco/humanoid.xml", 1000);
  corruption(GAUSS_TEST_MODELS "/dm_control/kinova/jaco_arm.xml", 300);  /* meshes: their trees */
  files();
  assets();
  crafted();
  every_field(GAUSS_TEST_MODELS "/dm_control/acrobot.xml");

  char path[600];
  static const char* const names[] = {"model.gsb", "empty.gsb", "notgauss.gsb"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
    remove(path);
  }
  rmdir(tmpdir);
  return CHECK_SUMMARY();
}
