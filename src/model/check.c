/* Integrity of a model that did not come from the compiler (a binary file): every index the engine
 * follows must land inside its array. The tree is checked exactly against the layout the compiler
 * makes (bodies in depth-first order, joints, dofs and geoms grouped by body, dof chains, rows of
 * M); the arrays of the other slices by MJCF's naming conventions, wherever such fields exist:
 * name_*adr into names, *bodyid / *jntid / *geomid / ... ids into their objects (-1 = none),
 * address/count pairs into the arrays they address, and object ids whose type is given by a
 * companion *type field. The values (reals, options, equality objects, small enumerations) are
 * checked in check_values.c; the capacities last, since they are computed from the rest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dynamics/dynamics.h"
#include "gauss/gauss.h"
#include "model/capacity.h"
#include "model/check.h"
#include "model/mesh.h"
#include "model/io.h"

/* ---- looking fields and sizes up by name ---- */

static int find_field(const gsModel* m, const char* name, gsFieldInfo* fi) {
  for (int i = 0; gs_modelField(m, i, fi); i++)
    if (strcmp(fi->name, name) == 0) return 1;
  return 0;
}

/* the int field `name`, NULL when this build has no such field (or it is not int) */
static const int* int_field(const gsModel* m, const char* name, int* rows, int* cols) {
  gsFieldInfo fi;
  if (!find_field(m, name, &fi) || fi.type != GS_TYPE_INT) return NULL;
  if (rows) *rows = fi.rows;
  if (cols) *cols = fi.cols;
  return fi.ptr;
}

/* the value of size `name`, -1 when this build has no such size */
static int size_of(const gsModel* m, const char* name) {
  int v;
  const char* s;
  for (int i = 0; (s = gs_modelSize(m, i, &v)); i++)
    if (strcmp(s, name) == 0) return v;
  return -1;
}

static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* ---- sizes ---- */

/* a size that sizes data arrays but no (non-empty) model array is not bounded by the length of
 * the file; a sane bound keeps gs_makeData finite */
#define MAX_FREE_SIZE (1 << 20)

/* the size each array's rows follow comes from gs_modelFieldRows / gs_dataFieldRows
 * (field_rows.c); the width of each model array: a number, or a GS_COLS code naming a size */
static const int kCols[] = {
#define GS_X(type, name, rows, cols) cols,
    GS_MODEL_FIELDS(GS_X)
#undef GS_X
};

/* the widths of the data arrays */
static const int kDataCols[] = {
#define GS_X(type, name, rows, cols) cols,
    GS_DATA_FIELDS(GS_X)
#undef GS_X
};

static int sizes_data(int i, const char* name) {
  /* the data arrays follow it: as their rows, or as a width given by GS_COLS */
  const char* rows;
  for (int k = 0; (rows = gs_dataFieldRows(k)); k++)
    if (strcmp(rows, name) == 0 || (kDataCols[k] < 0 && GS_COLS_SIZE(kDataCols[k]) == i))
      return 1;
  return 0;
}

static int check_sizes(const gsModel* m, char* err, int errsz) {
  int v;
  const char* s;
  for (int i = 0; (s = gs_modelSize(m, i, &v)); i++) {
    if (v < 0) return gs_ioError(err, errsz, "negative size %s = %d", s, v);
    /* bounded by the length of the file: the rows, or the width, of an array that is not empty
     * for other reasons */
    int bounded = 0;
    gsFieldInfo fi;
    for (int k = 0; gs_modelField(m, k, &fi) && !bounded; k++)
      bounded = (fi.cols > 0 && strcmp(gs_modelFieldRows(k), s) == 0) ||
                (fi.rows > 0 && kCols[k] < 0 && GS_COLS_SIZE(kCols[k]) == i);
    if (!bounded && v > MAX_FREE_SIZE && sizes_data(i, s))
      return gs_ioError(err, errsz, "size %s = %d is larger than %d", s, v, MAX_FREE_SIZE);
  }
  return 1;
}

/* ---- the tree ---- */

static int joint_nq(int t) { return t == GS_JNT_FREE ? 7 : t == GS_JNT_BALL ? 4 : 1; }
static int joint_nv(int t) { return t == GS_JNT_FREE ? 6 : t == GS_JNT_BALL ? 3 : 1; }

static int check_tree(const gsModel* m, char* err, int errsz) {
  int nb = m->nbody;
  if (nb < 1) return gs_ioError(err, errsz, "no world body (nbody = %d)", nb);
  if (m->body_parentid[0] != 0 || m->body_rootid[0] != 0 || m->body_weldid[0] != 0 ||
      m->body_jntnum[0] != 0 || m->body_dofnum[0] != 0)
    return gs_ioError(err, errsz, "body 0 is not a valid world body");

  int* lastdof = malloc(sizeof(int) * (size_t)nb);   /* last dof on the path root..b, -1: none */
  int* depth = malloc(sizeof(int) * (size_t)(m->nv ? m->nv : 1));  /* ancestors of each dof */
  if (!lastdof || !depth) {
    free(lastdof);
    free(depth);
    return gs_ioError(err, errsz, "out of memory");
  }
  int ok = 0, jnt = 0, dof = 0, qadr = 0, geom = 0, madr = 0;
  lastdof[0] = -1;
  for (int b = 0; b < nb; b++) {
    int p = m->body_parentid[b];
    if (b > 0) {
      if (p < 0 || p >= b) {
        gs_ioError(err, errsz, "body %d: parent %d is not an earlier body", b, p);
        goto done;
      }
      /* depth-first order: the parent is the previous body or one of its ancestors */
      int a = b - 1;
      while (a != p && a != 0) a = m->body_parentid[a];
      if (a != p) {
        gs_ioError(err, errsz, "body %d: bodies are not in depth-first order", b);
        goto done;
      }
      int root = p == 0 ? b : m->body_rootid[p];
      if (m->body_rootid[b] != root) {
        gs_ioError(err, errsz, "body %d: root %d, expected %d", b, m->body_rootid[b], root);
        goto done;
      }
      int weld = m->body_jntnum[b] ? b : m->body_weldid[p];
      if (m->body_weldid[b] != weld) {
        gs_ioError(err, errsz, "body %d: weld id %d, expected %d", b, m->body_weldid[b], weld);
        goto done;
      }
    }

    /* joints of the body, and their dofs, follow those of the bodies before it */
    int jn = m->body_jntnum[b];
    if (jn < 0 || jn > m->njnt - jnt || (jn ? m->body_jntadr[b] != jnt : m->body_jntadr[b] != -1)) {
      gs_ioError(err, errsz,
                 "body %d: joints %d..+%d do not follow the previous bodies' (next is %d)",
                 b, m->body_jntadr[b], jn, jnt);
      goto done;
    }
    int first = dof, chain = b ? lastdof[p] : -1;
    for (int j = jnt; j < jnt + jn; j++) {
      int t = m->jnt_type[j];
      if (t < GS_JNT_FREE || t > GS_JNT_HINGE) {
        gs_ioError(err, errsz, "joint %d: unknown type %d", j, t);
        goto done;
      }
      /* as the compiler requires (the mass matrix's free-joint block relies on it) */
      if (t == GS_JNT_FREE && (p != 0 || jn != 1)) {
        gs_ioError(err, errsz, "joint %d: a free joint must be the only joint of a child of the world", j);
        goto done;
      }
      if (m->jnt_bodyid[j] != b || m->jnt_qposadr[j] != qadr || m->jnt_dofadr[j] != dof) {
        gs_ioError(err, errsz,
                   "joint %d: body %d, qpos address %d, dof address %d; expected %d, %d, %d",
                   j, m->jnt_bodyid[j], m->jnt_qposadr[j], m->jnt_dofadr[j], b, qadr, dof);
        goto done;
      }
      int nq = joint_nq(t), nv = joint_nv(t);
      if (nq > m->nq - qadr || nv > m->nv - dof) {
        gs_ioError(err, errsz, "joint %d: its coordinates run past nq = %d or nv = %d", j, m->nq,
                   m->nv);
        goto done;
      }
      for (int k = 0; k < nv; k++, dof++) {
        if (m->dof_bodyid[dof] != b || m->dof_jntid[dof] != j || m->dof_parentid[dof] != chain) {
          gs_ioError(err, errsz, "dof %d: body %d, joint %d, parent %d; expected %d, %d, %d", dof,
                     m->dof_bodyid[dof], m->dof_jntid[dof], m->dof_parentid[dof], b, j, chain);
          goto done;
        }
        depth[dof] = chain < 0 ? 0 : depth[chain] + 1;
        /* row of M: the diagonal, then one entry per ancestor dof */
        if (m->dof_Madr[dof] != madr || depth[dof] + 1 > m->nM - madr) {
          gs_ioError(err, errsz, "dof %d: row of M at %d, expected %d (nM = %d)", dof,
                     m->dof_Madr[dof], madr, m->nM);
          goto done;
        }
        /* the entries' columns: the dof, then its ancestors nearest first */
        for (int a = dof, t = madr; a >= 0; a = m->dof_parentid[a], t++) {
          if (m->M_dofid[t] != a) {
            gs_ioError(err, errsz, "entry %d of M (dof %d): column %d, expected %d", t, dof,
                       m->M_dofid[t], a);
            goto done;
          }
        }
        madr += depth[dof] + 1;
        chain = dof;
      }
      qadr += nq;
    }
    jnt += jn;
    if (b > 0) lastdof[b] = chain;
    int dn = dof - first;
    if (m->body_dofnum[b] != dn || (dn ? m->body_dofadr[b] != first : m->body_dofadr[b] != -1)) {
      gs_ioError(err, errsz, "body %d: dofs %d..+%d, expected %d..+%d", b, m->body_dofadr[b],
                 m->body_dofnum[b], dn ? first : -1, dn);
      goto done;
    }

    int gn = m->body_geomnum[b];
    if (gn < 0 || gn > m->ngeom - geom ||
        (gn ? m->body_geomadr[b] != geom : m->body_geomadr[b] != -1)) {
      gs_ioError(err, errsz,
                 "body %d: geoms %d..+%d do not follow the previous bodies' (next is %d)",
                 b, m->body_geomadr[b], gn, geom);
      goto done;
    }
    for (int g = geom; g < geom + gn; g++) {
      if (m->geom_bodyid[g] != b) {
        gs_ioError(err, errsz, "geom %d: body %d, expected %d", g, m->geom_bodyid[g], b);
        goto done;
      }
    }
    geom += gn;
  }
  if (jnt != m->njnt || qadr != m->nq || dof != m->nv || geom != m->ngeom || madr != m->nM) {
    gs_ioError(err, errsz,
               "the bodies hold %d joints, %d coordinates, %d dofs, %d geoms and %d entries of M; "
               "the sizes say %d, %d, %d, %d and %d",
               jnt, qadr, dof, geom, madr, m->njnt, m->nq, m->nv, m->ngeom, m->nM);
    goto done;
  }
  for (int g = 0; g < m->ngeom; g++) {
    int t = m->geom_type[g], c = m->geom_condim[g];
    if (t < 0 || t >= GS_NGEOMTYPE) {
      gs_ioError(err, errsz, "geom %d: unknown type %d", g, t);
      goto done;
    }
    if (c != 1 && c != 3 && c != 4 && c != 6) {
      gs_ioError(err, errsz, "geom %d: condim %d", g, c);
      goto done;
    }
  }
  for (int s = 0; s < m->nsite; s++) {
    if (m->site_bodyid[s] < 0 || m->site_bodyid[s] >= nb) {
      gs_ioError(err, errsz, "site %d: body %d out of range", s, m->site_bodyid[s]);
      goto done;
    }
    if (m->site_type[s] < 0 || m->site_type[s] >= GS_NGEOMTYPE) {
      gs_ioError(err, errsz, "site %d: unknown type %d", s, m->site_type[s]);
      goto done;
    }
  }
  ok = 1;
done:
  free(lastdof);
  free(depth);
  return ok;
}

/* ---- options ---- */

static int check_options(const gsOption* o, char* err, int errsz) {
  if (o->integrator < GS_INT_EULER || o->integrator > GS_INT_IMPLICITFAST)
    return gs_ioError(err, errsz, "option integrator %d", o->integrator);
  if (o->cone < GS_CONE_PYRAMIDAL || o->cone > GS_CONE_ELLIPTIC)
    return gs_ioError(err, errsz, "option cone %d", o->cone);
  if (o->jacobian < GS_JAC_DENSE || o->jacobian > GS_JAC_AUTO)
    return gs_ioError(err, errsz, "option jacobian %d", o->jacobian);
  if (o->solver < GS_SOL_PGS || o->solver > GS_SOL_NEWTON)
    return gs_ioError(err, errsz, "option solver %d", o->solver);
  const int counts[4] = {o->iterations, o->ls_iterations, o->noslip_iterations, o->ccd_iterations};
  static const char* const names[4] = {"iterations", "ls_iterations", "noslip_iterations",
                                       "ccd_iterations"};
  for (int k = 0; k < 4; k++)
    if (counts[k] < 0)
      return gs_ioError(err, errsz, "option %s = %d: a negative iteration count", names[k],
                        counts[k]);
  if ((unsigned)o->disableflags >> GS_NDISABLE || (unsigned)o->enableflags >> GS_NENABLE)
    return gs_ioError(err, errsz, "unknown flag bits in the options");
  if (o->actuatorgroupdisable < 0)
    return gs_ioError(err, errsz, "option actuatorgroupdisable: actuator groups are 0 to 30");
  return 1;
}

/* ---- names ---- */

static int check_names(const gsModel* m, char* err, int errsz) {
  if (m->nnames > 0 && m->names[m->nnames - 1] != 0)
    return gs_ioError(err, errsz, "the names buffer is not NUL-terminated");
  /* other string buffers (asset paths, custom text): addressed strings must end inside them */
  static const char* const kStrings[] = {"paths", "text_data", "framenames"};
  for (size_t k = 0; k < sizeof kStrings / sizeof kStrings[0]; k++) {
    gsFieldInfo fi;
    if (find_field(m, kStrings[k], &fi) && fi.type == GS_TYPE_CHAR && fi.rows * fi.cols > 0 &&
        ((const char*)fi.ptr)[fi.rows * fi.cols - 1] != 0)
      return gs_ioError(err, errsz, "the %s buffer is not NUL-terminated", kStrings[k]);
  }
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    if (fi.type != GS_TYPE_INT || strncmp(fi.name, "name_", 5) != 0 || !ends_with(fi.name, "adr"))
      continue;
    const int* a = fi.ptr;
    for (int k = 0; k < fi.rows * fi.cols; k++)
      if (a[k] < 0 || a[k] >= m->nnames)
        return gs_ioError(err, errsz, "%s[%d] = %d is outside the names (%d bytes)", fi.name, k,
                          a[k], m->nnames);
  }
  return 1;
}

/* ---- ids: an int field whose name ends with one of these holds ids of that object, -1 = none */
static const struct {
  const char* suffix;
  const char* size;
} kIds[] = {
    {"bodyid", "nbody"}, {"rootid", "nbody"},   {"weldid", "nbody"},   {"jntid", "njnt"},
    {"geomid", "ngeom"}, {"siteid", "nsite"},   {"matid", "nmat"},     {"texid", "ntex"},
    {"meshid", "nmesh"}, {"hfieldid", "nhfield"}, {"tendonid", "ntendon"}, {"mocapid", "nmocap"},
    {"treeid", "ntree"}, {"camid", "ncam"},     {"lightid", "nlight"}, {"actuatorid", "nu"},
    {"sensorid", "nsensor"}, {"skinid", "nskin"}, {"flexid", "nflex"}, {"geom1", "ngeom"},
    {"geom2", "ngeom"},       {"pathadr", "npaths"},
    {"readadr", "nreadpaths"}, {"frameid", "nframe"}, {"frame_nameadr", "nframenames"},
};

static int check_ids(const gsModel* m, char* err, int errsz) {
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    if (fi.type != GS_TYPE_INT) continue;
    for (size_t k = 0; k < sizeof kIds / sizeof kIds[0]; k++) {
      if (!ends_with(fi.name, kIds[k].suffix)) continue;
      int n = size_of(m, kIds[k].size);
      if (n < 0) break;
      const int* a = fi.ptr;
      for (int e = 0; e < fi.rows * fi.cols; e++)
        if (a[e] < -1 || a[e] >= n)
          return gs_ioError(err, errsz, "%s[%d] = %d is not a valid id (%s = %d)", fi.name, e, a[e],
                            kIds[k].size, n);
      break;
    }
  }
  return 1;
}

/* ---- address/count pairs: object i owns [adr[i], adr[i] + product of counts) of an array of
 * `size` elements (count 0: adr may be -1; tex_imageadr: -1 whatever the count, a builtin
 * texture's pixels being made where it is drawn). Checked where the fields exist. */
static const struct {
  const char* adr;
  const char* num[3];
  const char* size;
} kRanges[] = {
    {"tendon_adr", {"tendon_num"}, "nwrap"},
    {"actuator_actadr", {"actuator_actnum"}, "na"},
    {"sensor_adr", {"sensor_dim"}, "nsensordata"},
    {"mesh_vertadr", {"mesh_vertnum"}, "nmeshvert"},
    {"mesh_srcvertadr", {"mesh_srcvertnum"}, "nmeshsrcvert"},
    {"mesh_normaladr", {"mesh_normalnum"}, "nmeshnormal"},
    {"mesh_texcoordadr", {"mesh_texcoordnum"}, "nmeshtexcoord"},
    {"mesh_faceadr", {"mesh_facenum"}, "nmeshface"},
    {"mesh_polyadr", {"mesh_polynum"}, "nmeshpoly"},
    {"mesh_polyvertadr", {"mesh_polyvertnum"}, "nmeshpolyvert"},
    {"mesh_polymapadr", {"mesh_polymapnum"}, "nmeshpolymap"},
    {"hfield_adr", {"hfield_nrow", "hfield_ncol"}, "nhfielddata"},
    {"tex_adr", {"tex_height", "tex_width", "tex_nchannel"}, "ntexdata"},
    {"tex_imageadr", {"tex_height", "tex_width", "tex_nchannel"}, "nteximage"},
    {"numeric_adr", {"numeric_size"}, "nnumericdata"},
    {"text_adr", {"text_size"}, "ntextdata"},
    {"tuple_adr", {"tuple_size"}, "ntupledata"},
    {"skin_vertadr", {"skin_vertnum"}, "nskinvert"},
    {"skin_faceadr", {"skin_facenum"}, "nskinface"},
    {"skin_boneadr", {"skin_bonenum"}, "nskinbone"},
};

static int check_ranges(const gsModel* m, char* err, int errsz) {
  for (size_t k = 0; k < sizeof kRanges / sizeof kRanges[0]; k++) {
    int rows, cols, n = size_of(m, kRanges[k].size);
    const int* adr = int_field(m, kRanges[k].adr, &rows, &cols);
    if (!adr || n < 0 || cols != 1) continue;
    const int* num[3] = {NULL, NULL, NULL};
    int have = 1;
    for (int c = 0; c < 3 && kRanges[k].num[c]; c++) {
      int r2, c2;
      num[c] = int_field(m, kRanges[k].num[c], &r2, &c2);
      if (!num[c] || r2 != rows || c2 != 1) have = 0;
    }
    if (!have) continue;
    for (int i = 0; i < rows; i++) {
      if (adr[i] == -1 && strcmp(kRanges[k].adr, "tex_imageadr") == 0) continue;
      long long count = 1;
      for (int c = 0; c < 3 && num[c]; c++) {
        if (num[c][i] < 0)
          return gs_ioError(err, errsz, "%s[%d] = %d is negative", kRanges[k].num[c], i, num[c][i]);
        count *= num[c][i];
        if (count > n) break;
      }
      if (count == 0 && (adr[i] == -1 || (adr[i] >= 0 && adr[i] <= n))) continue;
      if (adr[i] < 0 || count > n - adr[i])
        return gs_ioError(err, errsz, "%s[%d] = %d with %lld elements runs outside %s = %d",
                          kRanges[k].adr, i, adr[i], count, kRanges[k].size, n);
    }
  }
  return 1;
}

/* ---- ids whose object type is in a companion field ---- */

/* how many objects of gsObject type t the model has; -1 for a type without a count */
static int object_count(const gsModel* m, int t) {
  static const char* const kCount[GS_NOBJECT] = {
      [GS_OBJ_BODY] = "nbody",    [GS_OBJ_XBODY] = "nbody",   [GS_OBJ_JOINT] = "njnt",
      [GS_OBJ_DOF] = "nv",        [GS_OBJ_GEOM] = "ngeom",    [GS_OBJ_SITE] = "nsite",
      [GS_OBJ_CAMERA] = "ncam",   [GS_OBJ_LIGHT] = "nlight",  [GS_OBJ_FLEX] = "nflex",
      [GS_OBJ_MESH] = "nmesh",    [GS_OBJ_SKIN] = "nskin",    [GS_OBJ_HFIELD] = "nhfield",
      [GS_OBJ_TEXTURE] = "ntex",  [GS_OBJ_MATERIAL] = "nmat", [GS_OBJ_PAIR] = "npair",
      [GS_OBJ_EXCLUDE] = "nexclude", [GS_OBJ_EQUALITY] = "neq", [GS_OBJ_TENDON] = "ntendon",
      [GS_OBJ_ACTUATOR] = "nu",   [GS_OBJ_SENSOR] = "nsensor", [GS_OBJ_NUMERIC] = "nnumeric",
      [GS_OBJ_TEXT] = "ntext",    [GS_OBJ_TUPLE] = "ntuple",  [GS_OBJ_KEY] = "nkey",
      [GS_OBJ_PLUGIN] = "nplugin",
  };
  if (t <= 0 || t >= GS_NOBJECT || !kCount[t]) return -1;
  return size_of(m, kCount[t]);
}

static int check_typed(const gsModel* m, const char* typefield, const char* idfield,
                       int (*count)(const gsModel*, int), char* err, int errsz) {
  int rt = 0, ct = 0, ri = 0, ci = 0;
  const int* type = int_field(m, typefield, &rt, &ct);
  const int* id = int_field(m, idfield, &ri, &ci);
  if (!type || !id || rt != ri || ct != 1) return 1;
  for (int i = 0; i < rt; i++) {
    int n = count(m, type[i]);
    if (n < 0) continue;  /* a type without objects: the id is not followed */
    for (int c = 0; c < ci; c++) {
      int v = id[ci * i + c];
      if (v < -1 || v >= n)
        return gs_ioError(err, errsz, "%s[%d] = %d is not a valid id for %s %d (%d objects)",
                          idfield,
                          ci * i + c, v, typefield, type[i], n);
    }
  }
  return 1;
}

static int dataid_count(const gsModel* m, int t);

/* transmission types of actuators, numbered as MJCF's */
static int trn_count(const gsModel* m, int t) {
  switch (t) {
    case 0: case 1: return size_of(m, "njnt");      /* joint, jointinparent */
    case 2: case 4: return size_of(m, "nsite");     /* slidercrank, site */
    case 3: return size_of(m, "ntendon");
    case 5: return size_of(m, "nbody");
    default: return -1;
  }
}

/* wrap types of spatial tendons: joint, pulley, site, sphere, cylinder */
static int wrap_count(const gsModel* m, int t) {
  switch (t) {
    case 1: return size_of(m, "njnt");
    case 3: return size_of(m, "nsite");
    case 4: case 5: return size_of(m, "ngeom");
    default: return -1;
  }
}

/* each tendon's span of dofs as its path gives it (after the path's ids are checked): the kernels
 * on ten_J read and clear only inside it */
static int check_tendon_spans(const gsModel* m, char* err, int errsz) {
  for (int t = 0; t < m->ntendon; t++) {
    int lo, hi;
    gs_tendonSpanOf(m, t, &lo, &hi);
    if (m->tendon_dofadr[t] != lo || m->tendon_dofnum[t] != hi - lo)
      return gs_ioError(err, errsz, "tendon %d: dofs %d..+%d, expected %d..+%d", t,
                        m->tendon_dofadr[t], m->tendon_dofnum[t], lo, hi - lo);
  }
  return 1;
}

/* each dof's free tail as its tree gives it (after the tree and the joint types are checked): the
 * kernels on M's rows take the last six entries of a row with one as the free joint's */
static int check_free_tails(const gsModel* m, char* err, int errsz) {
  for (int i = 0; i < m->nv; i++)
    if (m->dof_freetail[i] != gs_freeTailOf(m, i))
      return gs_ioError(err, errsz, "dof_freetail[%d] = %d, expected %d", i, m->dof_freetail[i],
                        gs_freeTailOf(m, i));
  return 1;
}

static int check_typed_ids(const gsModel* m, char* err, int errsz) {
  gsFieldInfo fi;
  /* every X_objtype / X_reftype with its X_objid / X_refid (or X_obj1id and X_obj2id) */
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    if (fi.type != GS_TYPE_INT) continue;
    size_t n = strlen(fi.name);
    if (n < 8 || n > 100 || strcmp(fi.name + n - 4, "type") != 0) continue;
    if (!ends_with(fi.name, "objtype") && !ends_with(fi.name, "reftype")) continue;
    char base[128], idname[160];
    memcpy(base, fi.name, n - 4);
    base[n - 4] = 0;
    snprintf(idname, sizeof idname, "%sid", base);
    if (!check_typed(m, fi.name, idname, object_count, err, errsz)) return 0;
    for (int k = 1; k <= 2; k++) {
      snprintf(idname, sizeof idname, "%s%did", base, k);
      if (!check_typed(m, fi.name, idname, object_count, err, errsz)) return 0;
    }
  }
  return check_typed(m, "actuator_trntype", "actuator_trnid", trn_count, err, errsz) &&
         check_typed(m, "wrap_type", "wrap_objid", wrap_count, err, errsz) &&
         check_typed(m, "geom_type", "geom_dataid", dataid_count, err, errsz);
}

/* ---- enumerations that code may switch on or index tables with: MJCF's counts (MuJoCo 3.3),
 * checked where the field exists */
static const struct {
  const char* field;
  int count;
} kEnums[] = {
    {"wrap_type", 6},         {"actuator_trntype", 6}, {"actuator_dyntype", 6},
    {"actuator_gaintype", 4}, {"actuator_biastype", 4}, {"eq_type", 6},
    {"sensor_type", 49},      {"sensor_datatype", 4},   {"sensor_needstage", 4},
    {"cam_mode", 5},          {"light_mode", 5},        {"light_type", 4},
    {"tex_type", 3},          {"tex_colorspace", 3},    {"tex_builtin", 4},
    {"tex_mark", 4},
};

static int check_enums(const gsModel* m, char* err, int errsz) {
  for (size_t k = 0; k < sizeof kEnums / sizeof kEnums[0]; k++) {
    int rows, cols;
    const int* v = int_field(m, kEnums[k].field, &rows, &cols);
    for (int i = 0; v && i < rows * cols; i++)
      if (v[i] < 0 || v[i] >= kEnums[k].count)
        return gs_ioError(err, errsz, "%s[%d] = %d is not a known value", kEnums[k].field, i, v[i]);
  }
  /* object types: gsObject */
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    if (fi.type != GS_TYPE_INT || (!ends_with(fi.name, "objtype") && !ends_with(fi.name, "reftype")))
      continue;
    const int* v = fi.ptr;
    for (int e = 0; e < fi.rows * fi.cols; e++)
      if (v[e] < 0 || v[e] >= GS_NOBJECT)
        return gs_ioError(err, errsz, "%s[%d] = %d is not an object type", fi.name, e, v[e]);
  }
  return 1;
}

/* sizes that are products of others, for arrays stored flat (the dense tendon Jacobian) */
static const struct {
  const char* size;
  const char* a;
  const char* b;
} kProducts[] = {
    {"nten_J", "ntendon", "nv"},
};

static int check_products(const gsModel* m, char* err, int errsz) {
  for (size_t k = 0; k < sizeof kProducts / sizeof kProducts[0]; k++) {
    int n = size_of(m, kProducts[k].size), a = size_of(m, kProducts[k].a),
        b = size_of(m, kProducts[k].b);
    if (n < 0 || a < 0 || b < 0) continue;
    if ((long long)a * b != n)
      return gs_ioError(err, errsz, "%s = %d, expected %s * %s = %lld", kProducts[k].size, n,
                        kProducts[k].a, kProducts[k].b, (long long)a * b);
  }
  return 1;
}

/* reals that hold ids: the side site of a wrap around a sphere or cylinder */
static int check_real_ids(const gsModel* m, char* err, int errsz) {
  int rt, ct;
  const int* type = int_field(m, "wrap_type", &rt, &ct);
  gsFieldInfo fi;
  if (!type || !find_field(m, "wrap_prm", &fi) || fi.type != GS_TYPE_REAL || fi.rows != rt ||
      fi.cols != 1)
    return 1;
  int nsite = m->nsite;
  for (int i = 0; i < rt; i++) {
    if (type[i] != 4 && type[i] != 5) continue;  /* sphere, cylinder */
    gsReal v = ((const gsReal*)fi.ptr)[i];
    if (!(v >= -1 && v < nsite) || v != (int)v)
      return gs_ioError(err, errsz, "wrap_prm[%d] = %g is not a side site", i, v);
  }
  return 1;
}

/* body pairs packed as body1 << 16 + body2 (contact pairs, exclusions) */
static int check_signatures(const gsModel* m, char* err, int errsz) {
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    if (fi.type != GS_TYPE_INT || !ends_with(fi.name, "_signature")) continue;
    const int* v = fi.ptr;
    for (int e = 0; e < fi.rows * fi.cols; e++) {
      int b1 = v[e] >> 16, b2 = v[e] & 0xffff;
      if (v[e] < 0 || b1 >= m->nbody || b2 >= m->nbody)
        return gs_ioError(err, errsz, "%s[%d] = %d does not name two bodies", fi.name, e, v[e]);
    }
  }
  return 1;
}

/* geom_dataid: a mesh or a height field by the geom's type; a primitive other than a plane may
 * keep the mesh it was fitted to (MJCF's compiler does), the engine reads it only for mesh geoms */
static int dataid_count(const gsModel* m, int t) {
  if (t == GS_GEOM_HFIELD) return size_of(m, "nhfield");
  if (t == GS_GEOM_PLANE) return 0;  /* only -1 */
  return size_of(m, "nmesh");
}

/* ---- mesh contents: faces index their mesh's vertices; each hull graph lies inside
 * mesh_graph, its vertex ids inside the mesh, its neighbour lists inside its edge block and
 * ended by -1, its faces on its vertices (the collision stage walks all of these) ---- */
static int check_meshes(const gsModel* m, char* err, int errsz) {
  for (int i = 0; i < m->nmesh; i++) {
    int va = m->mesh_vertadr[i], vn = m->mesh_vertnum[i], fa = m->mesh_faceadr[i], fn = m->mesh_facenum[i];
    for (int k = 3 * fa; k < 3 * (fa + fn); k++)
      if (m->mesh_face[k] < 0 || m->mesh_face[k] >= vn)
        return gs_ioError(err, errsz, "mesh %d: face %d refers to vertex %d of %d", i, k / 3 - fa, m->mesh_face[k], vn);
    /* face corners' texture coordinates within the mesh's (the renderer reads them) */
    int tn = m->mesh_texcoordadr[i] >= 0 ? m->mesh_texcoordnum[i] : 0;
    for (int k = 3 * fa; k < 3 * (fa + fn) && tn; k++)
      if (m->mesh_facetexcoord[k] < 0 || m->mesh_facetexcoord[k] >= tn)
        return gs_ioError(err, errsz, "mesh %d: face %d refers to texture coordinate %d of %d", i, k / 3 - fa,
                          m->mesh_facetexcoord[k], tn);
    (void)va;
    /* polygon corners are vertices of the mesh, polymap entries polygons of it (ranges above) */
    int pa = m->mesh_polyadr[i], pn = m->mesh_polynum[i];
    for (int p = pa; p < pa + pn; p++)
      for (int k = m->mesh_polyvertadr[p]; k < m->mesh_polyvertadr[p] + m->mesh_polyvertnum[p]; k++)
        if (m->mesh_polyvert[k] < 0 || m->mesh_polyvert[k] >= vn)
          return gs_ioError(err, errsz, "mesh %d: polygon %d refers to vertex %d of %d", i, p - pa, m->mesh_polyvert[k], vn);
    for (int v = va; v < va + vn; v++)
      for (int k = m->mesh_polymapadr[v]; k < m->mesh_polymapadr[v] + m->mesh_polymapnum[v]; k++)
        if (m->mesh_polymap[k] < 0 || m->mesh_polymap[k] >= pn)
          return gs_ioError(err, errsz, "mesh %d: vertex %d is in polygon %d of %d", i, v - va, m->mesh_polymap[k], pn);
    /* the triangle tree: nodes inside mesh_treechild, children after their parent (so a
     * descent ends), leaves' triangles inside the mesh, the tree's order of them a permutation
     * of the mesh's triangle indices (rays read all of these) */
    for (int k = fa; k < fa + fn; k++)
      if (m->mesh_treeface[k] < 0 || m->mesh_treeface[k] >= fn)
        return gs_ioError(err, errsz, "mesh %d: tree triangle %d of %d", i, m->mesh_treeface[k], fn);
    int ta = m->mesh_treeadr[i];
    if (ta < -1 || ta >= m->nmeshtree)
      return gs_ioError(err, errsz, "mesh %d: tree address %d out of range", i, ta);
    if (ta >= 0) {
      int nnode = gs_meshTreeNodes(fn);
      if (ta > m->nmeshtree - nnode)
        return gs_ioError(err, errsz, "mesh %d: tree of %d nodes does not fit", i, nnode);
      for (int k = 0; k < nnode; k++) {
        const int* ch = m->mesh_treechild + 2 * (ta + k);
        if (ch[0] >= 0 ? (ch[0] <= k || ch[0] >= nnode || ch[1] <= k || ch[1] >= nnode)
                       : (-1 - ch[0] > fn || ch[1] < 0 || ch[1] > fn + 1 + ch[0]))
          return gs_ioError(err, errsz, "mesh %d: tree node %d has children %d %d", i, k, ch[0], ch[1]);
      }
    }
    int ga = m->mesh_graphadr[i];
    /* the climbs' starting vertices: local indices of the graph (-1 without one) */
    int nhull = ga >= 0 && ga < m->nmeshgraph ? m->mesh_graph[ga] : 0;
    for (int k = 0; k < GS_HULLCELLS; k++) {
      int v = m->mesh_hullcell[GS_HULLCELLS * i + k];
      if (ga == -1 ? v != -1 : v < 0 || v >= nhull)
        return gs_ioError(err, errsz, "mesh %d: hull cell %d starts at vertex %d of %d", i, k, v, nhull);
    }
    if (ga == -1) continue;  /* no hull graph: the collision stage scans the vertices */
    if (ga < 0 || ga > m->nmeshgraph - 2) return gs_ioError(err, errsz, "mesh %d: graph address %d out of range", i, ga);
    const int* g = m->mesh_graph + ga;
    int room = m->nmeshgraph - ga, nv = g[0], nf = g[1];
    if (nv < 1 || nf < 0 || nv > vn || 2 + 2 * (long)nv + 3 * (long)nf > room)
      return gs_ioError(err, errsz, "mesh %d: graph sizes %d vertices, %d faces do not fit", i, nv, nf);
    int nedge = room - 2 - 2 * nv - 3 * nf;  /* the edge block ends where the faces begin */
    const int* edges = g + 2 + 2 * nv;
    for (int v = 0; v < nv; v++) {
      int adr = g[2 + v], gid = g[2 + nv + v];
      if (gid < 0 || gid >= vn) return gs_ioError(err, errsz, "mesh %d: graph vertex %d is vertex %d of %d", i, v, gid, vn);
      if (adr < 0 || adr >= nedge) return gs_ioError(err, errsz, "mesh %d: graph edge address %d out of range", i, adr);
      int k = adr;
      while (k < nedge && edges[k] >= 0) {
        if (edges[k] >= nv) return gs_ioError(err, errsz, "mesh %d: graph neighbour %d of %d", i, edges[k], nv);
        k++;
      }
      if (k == nedge) return gs_ioError(err, errsz, "mesh %d: graph neighbour list %d not ended", i, v);
    }
    /* the faces follow the last neighbour list */
    int last = 0;
    for (int v = 0; v < nv; v++) {
      int k = g[2 + v];
      while (edges[k] >= 0) k++;
      if (k + 1 > last) last = k + 1;
    }
    const int* faces = edges + last;
    if (last + 3 * (long)nf > room - 2 - 2 * nv) return gs_ioError(err, errsz, "mesh %d: graph faces do not fit", i);
    for (int k = 0; k < 3 * nf; k++)
      if (faces[k] < 0 || faces[k] >= vn) return gs_ioError(err, errsz, "mesh %d: graph face vertex %d of %d", i, faces[k], vn);
  }
  return 1;
}

/* ---- frames: listed body by body, each written in an earlier frame of its body, and each element
 * in a frame of its own body (a body: of its parent's), as the MJCF writer nests them ---- */

static int check_frames(const gsModel* m, char* err, int errsz) {
  for (int f = 0; f < m->nframe; f++) {
    int up = m->frame_frameid[f];
    if (m->frame_bodyid[f] < 0 || (f && m->frame_bodyid[f] < m->frame_bodyid[f - 1]))
      return gs_ioError(err, errsz, "frame %d: frames are not listed body by body", f);
    if (up >= f || (up >= 0 && m->frame_bodyid[up] != m->frame_bodyid[f]))
      return gs_ioError(err, errsz, "frame %d: written in frame %d, not an earlier one of its body", f, up);
  }
#define GS_F(n, ids, bodyof, what)                                                                 \
  for (int i = 0; i < m->n; i++)                                                                   \
    if (m->ids[i] >= 0 && m->frame_bodyid[m->ids[i]] != (bodyof))                                   \
      return gs_ioError(err, errsz, "%s %d: written in frame %d of another body", what, i, m->ids[i]);
  GS_F(nbody, body_frameid, m->body_parentid[i], "body")
  GS_F(njnt, jnt_frameid, m->jnt_bodyid[i], "joint")
  GS_F(ngeom, geom_frameid, m->geom_bodyid[i], "geom")
  GS_F(nsite, site_frameid, m->site_bodyid[i], "site")
  GS_F(ncam, cam_frameid, m->cam_bodyid[i], "camera")
  GS_F(nlight, light_frameid, m->light_bodyid[i], "light")
#undef GS_F
  return 1;
}

/* ---- capacities: the compiler's or MJCF's <size>; they size the data's memory, which no other
 * check bounds, so each stays within the largest the compiler gives (src/model/capacity.h) ---- */

static int check_capacity(const gsModel* m, char* err, int errsz) {
  const long have[4] = {m->nconmax, m->nefcmax, m->nJmax, m->narena};
  const long most[4] = {GS_MAX_CONTACTS, GS_MAX_ROWS, GS_MAX_NNZ, (long)GS_MAX_ARENA};
  static const char* const name[4] = {"nconmax", "nefcmax", "nJmax", "narena"};
  for (int k = 0; k < 4; k++)
    if (have[k] < 0 || have[k] > most[k])
      return gs_ioError(err, errsz, "size %s = %ld is not within [0, %ld]", name[k], have[k], most[k]);
  return 1;
}

int gs_checkModel(const gsModel* m, char* err, int errsz) {
  if (err && errsz > 0) err[0] = 0;
  if (!m) return gs_ioError(err, errsz, "no model");
  /* the solvers divide by meaninertia */
  if (!(m->stat.meaninertia > 0 && m->stat.meaninertia < 1e300))
    return gs_ioError(err, errsz, "statistic meaninertia %g", m->stat.meaninertia);
  /* the renderer scales its clipping planes by the extent */
  if (!(m->stat.extent > 0 && m->stat.extent < 1e300))
    return gs_ioError(err, errsz, "statistic extent %g", m->stat.extent);
  for (int k = 0; k < 3; k++)
    if (!isfinite(m->stat.center[k]))
      return gs_ioError(err, errsz, "statistic center[%d] %g", k, m->stat.center[k]);
  /* the renderer's <visual>: clipping planes in front of the camera, a tessellation it can draw */
  const gsVisual* v = &m->vis;
  const gsReal vr[] = {v->fovy, v->azimuth, v->elevation, v->fogstart, v->fogend,
                       v->headlight_ambient[0], v->headlight_ambient[1], v->headlight_ambient[2],
                       v->headlight_diffuse[0], v->headlight_diffuse[1], v->headlight_diffuse[2],
                       v->headlight_specular[0], v->headlight_specular[1], v->headlight_specular[2]};
  for (size_t k = 0; k < sizeof vr / sizeof vr[0]; k++)
    if (!isfinite(vr[k])) return gs_ioError(err, errsz, "visual value %zu is %g", k, vr[k]);
  /* sizes and colours of decorations: finite (the renderer keeps them to what it can draw) */
#define GS_D(elem, attr, count)                                                                    \
  for (int k = 0; k < (count); k++)                                                                \
    if (!isfinite(((const gsReal*)&v->elem##_##attr)[k]))                                          \
      return gs_ioError(err, errsz, "visual %s %s is %g", #elem, #attr,                             \
                        ((const gsReal*)&v->elem##_##attr)[k]);
  GS_VISUAL_DECOR(GS_D)
#undef GS_D
  /* as MJCF: a near plane in front of the camera; the far plane and the tessellation are taken as
   * given (the renderer keeps them to what it can draw) */
  if (!(v->znear > 0 && isfinite(v->znear) && isfinite(v->zfar)))
    return gs_ioError(err, errsz, "visual znear %g, zfar %g", v->znear, v->zfar);
  return check_sizes(m, err, errsz) && check_options(&m->opt, err, errsz) &&
         check_tree(m, err, errsz) && check_names(m, err, errsz) && check_ids(m, err, errsz) &&
         check_ranges(m, err, errsz) && check_enums(m, err, errsz) &&
         check_free_tails(m, err, errsz) && check_typed_ids(m, err, errsz) &&
         check_tendon_spans(m, err, errsz) &&
         check_products(m, err, errsz) &&
         check_real_ids(m, err, errsz) && check_signatures(m, err, errsz) &&
         check_meshes(m, err, errsz) && gs_checkValues(m, err, errsz) &&
         gs_checkSensors(m, err, errsz) && check_frames(m, err, errsz) &&
         check_capacity(m, err, errsz);
}

int gs_validateModel(const gsModel* m, char* err, int errsz) { return gs_checkModel(m, err, errsz); }
