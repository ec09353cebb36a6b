/* The values of a model that did not come from the compiler: what check.c does for indices, this
 * file does for numbers. Every real of the options, the statistics and the model arrays must be
 * finite (the MJCF reader takes no NaN or Inf, and the compiler refuses what overflows); the
 * quantities the compiler or the reader keep non-negative or positive (masses, inertias,
 * damping, geom sizes, the timestep, ...) must be so here too; equality constraints must name
 * objects of the kind their type needs, and small enumerations that the pipeline switches on or
 * sizes rows by must hold known values. Each failure names the field and the element. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/math.h"
#include "gauss/gauss.h"
#include "model/check.h"
#include "model/io.h"

static int find_field(const gsModel* m, const char* name, gsFieldInfo* fi) {
  for (int i = 0; gs_modelField(m, i, fi); i++)
    if (strcmp(fi->name, name) == 0) return 1;
  return 0;
}

/* ---- options ---- */

/* the real options as the reader and the compiler take them: finite, and the signs below */
enum { ANY = 0, NONNEG, POSITIVE };

typedef struct {
  const char* name;
  int rule;
} Rule;

static const Rule kOptionRules[] = {
    {"timestep", POSITIVE},       {"impratio", POSITIVE},     {"tolerance", NONNEG},
    {"ls_tolerance", NONNEG},     {"noslip_tolerance", NONNEG}, {"ccd_tolerance", NONNEG},
    {"density", NONNEG},          {"viscosity", NONNEG},
};

static int rule_of(const char* name, const Rule* table, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (strcmp(table[k].name, name) == 0) return table[k].rule;
  return ANY;
}

static int check_real(const char* what, int i, gsReal v, int rule, char* err, int errsz) {
  if (!isfinite(v)) return gs_ioError(err, errsz, "%s[%d] = %g is not finite", what, i, v);
  if (rule == NONNEG && v < 0) return gs_ioError(err, errsz, "%s[%d] = %g is negative", what, i, v);
  if (rule == POSITIVE && !(v > 0))
    return gs_ioError(err, errsz, "%s[%d] = %g is not positive", what, i, v);
  return 1;
}

int gs_checkOptionValues(const gsOption* o, char* err, int errsz) {
  /* every real member of gsOption, by the list binary.c writes them by */
  static const struct {
    const char* name;
    int count;
    size_t offset;
  } kReals[] = {
#define GS_O(type, name, count) {#name, _Generic((type)0, double: count, default: 0), offsetof(gsOption, name)},
      GS_OPTION_FIELDS(GS_O)
#undef GS_O
  };
  for (size_t i = 0; i < sizeof kReals / sizeof kReals[0]; i++) {
    if (!kReals[i].count) continue;
    int rule = rule_of(kReals[i].name, kOptionRules, sizeof kOptionRules / sizeof kOptionRules[0]);
    const gsReal* v = (const gsReal*)((const char*)o + kReals[i].offset);
    char what[64];
    snprintf(what, sizeof what, "option %s", kReals[i].name);
    for (int k = 0; k < kReals[i].count; k++)
      if (!check_real(what, k, v[k], rule, err, errsz)) return 0;
  }
  return 1;
}

/* ---- arrays of reals: every element finite; these also keep a sign ---- */

static const Rule kArrayRules[] = {
    {"body_mass", NONNEG},         {"body_subtreemass", NONNEG}, {"body_inertia", NONNEG},
    {"body_invweight0", NONNEG},   {"jnt_stiffness", NONNEG},    {"dof_armature", NONNEG},
    {"dof_damping", NONNEG},       {"dof_frictionloss", NONNEG}, {"dof_invweight0", NONNEG},
    {"geom_rbound", NONNEG},       {"tendon_width", NONNEG},     {"tendon_stiffness", NONNEG},
    {"tendon_damping", NONNEG},    {"tendon_armature", NONNEG},  {"tendon_frictionloss", NONNEG},
    {"sensor_cutoff", NONNEG},     {"sensor_noise", NONNEG},     {"hfield_size", POSITIVE},
    {"mesh_volume", NONNEG},       {"tex_random", NONNEG},
};

static int check_array_values(const gsModel* m, char* err, int errsz) {
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    if (fi.type != GS_TYPE_REAL) continue;
    int rule = rule_of(fi.name, kArrayRules, sizeof kArrayRules / sizeof kArrayRules[0]);
    const gsReal* v = fi.ptr;
    for (int e = 0; e < fi.rows * fi.cols; e++)
      if (!check_real(fi.name, e, v[e], rule, err, errsz)) return 0;
  }
  return 1;
}

/* geom sizes: the primitives' sizes positive as the compiler requires (a plane's are free, a
 * mesh's or height field's derived and non-negative) */
static int check_geom_sizes(const gsModel* m, char* err, int errsz) {
  for (int g = 0; g < m->ngeom; g++) {
    int need = 0;
    switch (m->geom_type[g]) {
      case GS_GEOM_PLANE: continue;
      case GS_GEOM_SPHERE: need = 1; break;
      case GS_GEOM_CAPSULE: case GS_GEOM_CYLINDER: need = 2; break;
      case GS_GEOM_ELLIPSOID: case GS_GEOM_BOX: need = 3; break;
      default: break;
    }
    for (int k = 0; k < 3; k++) {
      gsReal v = m->geom_size[3 * g + k];
      if (k < need ? !(v > 0) : v < 0)
        return gs_ioError(err, errsz, "geom_size[%d] = %g: size %d of geom %d must be %s",
                          3 * g + k, v, k, g, k < need ? "positive" : "non-negative");
    }
  }
  return 1;
}

/* geom_fluid as the compiler writes it: the ellipsoid flag 0 or 1, all zero without it (the
 * pipeline reads the row only under the flag), virtual masses and inertias non-negative (the
 * coefficients may have any sign, as in MJCF) */
static int check_geom_fluid(const gsModel* m, char* err, int errsz) {
  for (int g = 0; g < m->ngeom; g++) {
    const gsReal* f = m->geom_fluid + GS_NFLUID * g;
    if (f[0] != 0 && f[0] != 1)
      return gs_ioError(err, errsz, "geom_fluid[%d] = %g: the ellipsoid flag of geom %d is not 0 or 1",
                        GS_NFLUID * g, f[0], g);
    for (int k = 1; k < GS_NFLUID; k++) {
      if (f[0] == 0 && f[k] != 0)
        return gs_ioError(err, errsz, "geom_fluid[%d] = %g: geom %d has no fluid ellipsoid",
                          GS_NFLUID * g + k, f[k], g);
      if (k >= 6 && f[k] < 0)
        return gs_ioError(err, errsz, "geom_fluid[%d] = %g: a virtual mass or inertia of geom %d is negative",
                          GS_NFLUID * g + k, f[k], g);
    }
  }
  return 1;
}

/* unit quaternions where the compiler normalizes them (the kinematics takes them as rotations) */
static int check_quats(const gsModel* m, char* err, int errsz) {
  static const char* const kQuats[] = {"body_quat", "body_iquat", "geom_quat", "site_quat",
                                       "cam_quat", "mesh_quat"};
  for (size_t k = 0; k < sizeof kQuats / sizeof kQuats[0]; k++) {
    gsFieldInfo fi;
    if (!find_field(m, kQuats[k], &fi) || fi.type != GS_TYPE_REAL || fi.cols != 4) continue;
    const gsReal* q = fi.ptr;
    for (int i = 0; i < fi.rows; i++, q += 4) {
      gsReal n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
      if (!(fabs(n - 1) < 1e-6))
        return gs_ioError(err, errsz, "%s[%d] has norm %g, not a unit quaternion", kQuats[k], 4 * i,
                          n);
    }
  }
  return 1;
}


/* bodies as the compiler leaves them: principal moments that satisfy the triangle inequality,
 * subtree masses that sum the masses below, mass under every moving body (else M is singular);
 * hinge and slide axes of unit length */
static int check_bodies(const gsModel* m, char* err, int errsz) {
  for (int b = 1; b < m->nbody; b++) {
    const gsReal* I = m->body_inertia + 3 * b;
    if (I[0] + I[1] < I[2] * (1 - 1e-10) || I[0] + I[2] < I[1] * (1 - 1e-10) ||
        I[1] + I[2] < I[0] * (1 - 1e-10))
      return gs_ioError(err, errsz, "body_inertia[%d] = %g %g %g: not the moments of a body",
                        3 * b, I[0], I[1], I[2]);
  }
  /* the sum below each body, leaves first (children follow their parents) */
  gsReal* sum = malloc(sizeof(gsReal) * (size_t)m->nbody);
  if (!sum) return gs_ioError(err, errsz, "out of memory");
  for (int b = 0; b < m->nbody; b++) sum[b] = m->body_mass[b];
  for (int b = m->nbody - 1; b > 0; b--) sum[m->body_parentid[b]] += m->body_subtreemass[b];
  for (int b = m->nbody - 1; b >= 0; b--) {  /* the deepest wrong one is the one named */
    gsReal have = m->body_subtreemass[b], want = sum[b];
    if (!(fabs(want - have) <= 1e-9 * (want > 1 ? want : 1))) {
      free(sum);
      return gs_ioError(err, errsz, "body_subtreemass[%d] = %g, but the masses below sum to %g", b,
                        have, want);
    }
    if (b > 0 && m->body_dofnum[b] && have < GS_MINVAL) {
      free(sum);
      return gs_ioError(err, errsz, "body_subtreemass[%d] = %g: a moving body needs mass", b, have);
    }
  }
  free(sum);
  for (int j = 0; j < m->njnt; j++) {
    if (m->jnt_type[j] != GS_JNT_HINGE && m->jnt_type[j] != GS_JNT_SLIDE) continue;
    const gsReal* a = m->jnt_axis + 3 * j;
    if (!(fabs(sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]) - 1) < 1e-6))
      return gs_ioError(err, errsz, "jnt_axis[%d]: the axis of joint %d is not a unit vector", 3 * j,
                        j);
  }
  return 1;
}

/* ---- equality constraints: the objects their type joins, as compile_sensing.c makes them ---- */

static int check_equality(const gsModel* m, char* err, int errsz) {
  for (int i = 0; i < m->neq; i++) {
    int t = m->eq_type[i], ot = m->eq_objtype[i], o1 = m->eq_obj1id[i], o2 = m->eq_obj2id[i];
    const char* kind;
    int n, none2;  /* objects of the kind; whether obj2 may be -1 */
    switch (t) {
      case GS_EQ_CONNECT:
      case GS_EQ_WELD:
        if (ot != GS_OBJ_BODY && ot != GS_OBJ_SITE)
          return gs_ioError(err, errsz, "eq_objtype[%d] = %d: a connect or weld joins bodies or sites",
                            i, ot);
        kind = ot == GS_OBJ_BODY ? "body" : "site";
        n = ot == GS_OBJ_BODY ? m->nbody : m->nsite;
        none2 = 0;  /* a missing body2 is the world, 0 */
        break;
      case GS_EQ_JOINT:
      case GS_EQ_TENDON:
        if (ot != GS_OBJ_UNKNOWN)
          return gs_ioError(err, errsz, "eq_objtype[%d] = %d: a joint or tendon equality has none",
                            i, ot);
        kind = t == GS_EQ_JOINT ? "joint" : "tendon";
        n = t == GS_EQ_JOINT ? m->njnt : m->ntendon;
        none2 = 1;
        break;
      default:
        return gs_ioError(err, errsz, "eq_type[%d] = %d is not a supported equality type", i, t);
    }
    if (o1 < 0 || o1 >= n)
      return gs_ioError(err, errsz, "eq_obj1id[%d] = %d: not a %s (%d of them)", i, o1, kind, n);
    if (o2 < (none2 ? -1 : 0) || o2 >= n)
      return gs_ioError(err, errsz, "eq_obj2id[%d] = %d: not a %s (%d of them)", i, o2, kind, n);
    if (o1 == o2)
      return gs_ioError(err, errsz, "eq_obj2id[%d] = %d: the same %s as eq_obj1id", i, o2, kind);
    if (t == GS_EQ_JOINT)
      for (int k = 0; k < 2; k++) {
        int j = k ? o2 : o1;
        if (j >= 0 && m->jnt_type[j] != GS_JNT_HINGE && m->jnt_type[j] != GS_JNT_SLIDE)
          return gs_ioError(err, errsz, "eq_obj%did[%d] = %d: joint %d is not a hinge or a slide",
                            k + 1, i, j, j);
      }
  }
  return 1;
}

/* ---- small enumerations and counts the pipeline sizes rows or branches by ---- */

static int check_small_ints(const gsModel* m, char* err, int errsz) {
  static const char* const kSame[] = {"body_sameframe", "geom_sameframe", "site_sameframe"};
  for (size_t k = 0; k < sizeof kSame / sizeof kSame[0]; k++) {
    gsFieldInfo fi;
    if (!find_field(m, kSame[k], &fi) || fi.type != GS_TYPE_INT) continue;
    const int* v = fi.ptr;
    for (int e = 0; e < fi.rows * fi.cols; e++)
      if (v[e] < GS_SAMEFRAME_NONE || v[e] > GS_SAMEFRAME_INERTIAROT)
        return gs_ioError(err, errsz, "%s[%d] = %d is not a known value", kSame[k], e, v[e]);
  }
  for (int b = 0; b < m->nbody; b++)
    if (m->body_slider[b] != 0 && m->body_slider[b] != 1)
      return gs_ioError(err, errsz, "body_slider[%d] = %d: must be 0 or 1", b, m->body_slider[b]);
  /* a diagonal dof's solves and products skip its row's other entries, and the CRB writes the
   * block from its free joint's first dof: only the six dofs of a free joint together, on a body
   * without children, may be marked (its block's other entries are then its own dofs') */
  for (int i = 0; i < m->nv; i++) {
    if (m->dof_diagonal[i] == 0) continue;
    int j = m->dof_jntid[i], a = m->jnt_dofadr[j], b = m->dof_bodyid[i];
    if (m->dof_diagonal[i] != 1 || m->jnt_type[j] != GS_JNT_FREE)
      return gs_ioError(err, errsz, "dof_diagonal[%d] = %d: must be 0, or 1 on a free joint", i,
                        m->dof_diagonal[i]);
    for (int k = a; k < a + 6; k++)
      if (m->dof_diagonal[k] != 1)
        return gs_ioError(err, errsz, "dof_diagonal[%d]: not as its free joint's dof %d", k, i);
    if (i != a) continue;  /* the body's children: checked once, at the joint's first dof */
    for (int k = 0; k < m->nbody; k++)
      if (k != b && m->body_parentid[k] == b)
        return gs_ioError(err, errsz, "dof_diagonal[%d]: its body %d has a child", i, b);
  }
  for (int p = 0; p < m->npair; p++) {
    int c = m->pair_dim[p];
    if (c != 1 && c != 3 && c != 4 && c != 6)
      return gs_ioError(err, errsz, "pair_dim[%d] = %d: condim must be 1, 3, 4 or 6", p, c);
  }
  for (int i = 0; i < m->ncam; i++)
    for (int k = 0; k < 2; k++)
      if (m->cam_resolution[2 * i + k] < 0)
        return gs_ioError(err, errsz, "cam_resolution[%d] = %d is negative", 2 * i + k,
                          m->cam_resolution[2 * i + k]);
  /* every transmission has its target (the ids' ranges are checked with the tree: -1 passes
   * there, for the optional second id), a slider-crank its slider too, and its crank (other
   * actuators keep whatever was written) */
  for (int i = 0; i < m->nu; i++) {
    int slidercrank = m->actuator_trntype[i] == GS_TRN_SLIDERCRANK;
    for (int k = 0; k < 1 + slidercrank; k++)
      if (m->actuator_trnid[2 * i + k] < 0)
        return gs_ioError(err, errsz, "actuator_trnid[%d] = %d: the transmission has no target",
                          2 * i + k, m->actuator_trnid[2 * i + k]);
    if (slidercrank && !(m->actuator_cranklength[i] > 0))
      return gs_ioError(err, errsz, "actuator_cranklength[%d] = %g: a slider-crank needs a crank",
                        i, m->actuator_cranklength[i]);
  }
  /* flags the passive stage routes forces by */
  for (int j = 0; j < m->njnt; j++)
    if (m->jnt_actgravcomp[j] != 0 && m->jnt_actgravcomp[j] != 1)
      return gs_ioError(err, errsz, "jnt_actgravcomp[%d] = %d must be 0 or 1", j,
                        m->jnt_actgravcomp[j]);
  for (int i = 0; i < m->nmesh; i++)
    if (m->mesh_maxhullvert[i] < -1)
      return gs_ioError(err, errsz, "mesh_maxhullvert[%d] = %d", i, m->mesh_maxhullvert[i]);
  return 1;
}

int gs_checkValues(const gsModel* m, char* err, int errsz) {
  return gs_checkOptionValues(&m->opt, err, errsz) && check_array_values(m, err, errsz) &&
         check_geom_sizes(m, err, errsz) && check_geom_fluid(m, err, errsz) && check_quats(m, err, errsz) &&
         check_bodies(m, err, errsz) &&
         check_equality(m, err, errsz) && check_small_ints(m, err, errsz);
}
