/* The MJCF writer: the compiled model as an equivalent MJCF document. Everything is written
 * resolved, so that reading it back compiles to the same arrays: angles in radians, positions and
 * unit quaternions instead of fromto/euler/axisangle, an explicit <inertial> for every body with
 * inertiafromgeom="false", every joint, geom and site attribute written out, no default classes.
 * The slices' sections come from xml_write_<slice>.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xml_write_internal.h"
#include "xml_keywords.h"

/* ---- the tree ---- */

static void write_joint(gswWriter* w, int j) {
  const gsModel* m = w->m;
  int type = m->jnt_type[j], dof = m->jnt_dofadr[j], q = m->jnt_qposadr[j];
  gsw_open(w, "joint");
  gsw_name(w, GS_OBJ_JOINT, j);
  gsw_keyword(w, "type", gsx_jointTypes, 4, type);
  gsw_reals(w, "pos", m->jnt_pos + 3 * j, 3);
  gsw_reals(w, "axis", m->jnt_axis + 3 * j, 3);
  gsw_bool(w, "limited", m->jnt_limited[j]);
  gsw_reals(w, "range", m->jnt_range + 2 * j, 2);
  gsw_bool(w, "actuatorfrclimited", m->jnt_actfrclimited[j]);
  gsw_reals(w, "actuatorfrcrange", m->jnt_actfrcrange + 2 * j, 2);
  if (type == GS_JNT_HINGE || type == GS_JNT_SLIDE) {
    gsw_real(w, "ref", m->qpos0[q]);
    gsw_real(w, "springref", m->qpos_spring[q]);
  }
  gsw_real(w, "stiffness", m->jnt_stiffness[j]);
  gsw_real(w, "damping", m->dof_damping[dof]);
  gsw_real(w, "armature", m->dof_armature[dof]);
  gsw_real(w, "frictionloss", m->dof_frictionloss[dof]);
  gsw_real(w, "margin", m->jnt_margin[j]);
  gsw_reals(w, "solreflimit", m->jnt_solref + GS_NREF * j, GS_NREF);
  gsw_reals(w, "solimplimit", m->jnt_solimp + GS_NIMP * j, GS_NIMP);
  gsw_reals(w, "solreffriction", m->dof_solref + GS_NREF * dof, GS_NREF);
  gsw_reals(w, "solimpfriction", m->dof_solimp + GS_NIMP * dof, GS_NIMP);
  gsw_int(w, "group", m->jnt_group[j]);
  gsw_bool(w, "actuatorgravcomp", m->jnt_actgravcomp[j]);
  gsw_attrsSensing(w, GS_OBJ_JOINT, j);
  gsw_attrsWorld(w, GS_OBJ_JOINT, j);
  gsw_end(w);
}

static void write_geom(gswWriter* w, int g) {
  const gsModel* m = w->m;
  gsw_open(w, "geom");
  gsw_name(w, GS_OBJ_GEOM, g);
  gsw_keyword(w, "type", gsx_geomTypes, GS_NGEOMTYPE, m->geom_type[g]);
  gsw_reals(w, "size", m->geom_size + 3 * g, 3);
  if (m->geom_type[g] == GS_GEOM_MESH && m->geom_dataid[g] >= 0) {
    /* the frame as given: the compiler moves it by the mesh's offset again */
    gsReal pos[3], quat[4];
    gs_meshGeomFrame(pos, quat, m, g);
    gsw_reals(w, "pos", pos, 3);
    gsw_reals(w, "quat", quat, 4);
  } else {
    gsw_reals(w, "pos", m->geom_pos + 3 * g, 3);
    gsw_reals(w, "quat", m->geom_quat + 4 * g, 4);
  }
  gsw_int(w, "contype", m->geom_contype[g]);
  gsw_int(w, "conaffinity", m->geom_conaffinity[g]);
  gsw_int(w, "condim", m->geom_condim[g]);
  gsw_int(w, "group", m->geom_group[g]);
  gsw_int(w, "priority", m->geom_priority[g]);
  gsw_reals(w, "friction", m->geom_friction + 3 * g, 3);
  gsw_real(w, "solmix", m->geom_solmix[g]);
  gsw_reals(w, "solref", m->geom_solref + GS_NREF * g, GS_NREF);
  gsw_reals(w, "solimp", m->geom_solimp + GS_NIMP * g, GS_NIMP);
  gsw_real(w, "margin", m->geom_margin[g]);
  gsw_real(w, "gap", m->geom_gap[g]);
  gsw_reals(w, "rgba", m->geom_rgba + 4 * g, 4);
  if (m->geom_fluid[GS_NFLUID * g] > 0) {  /* the rest is derived from the size */
    gsw_str(w, "fluidshape", "ellipsoid");
    gsw_reals(w, "fluidcoef", m->geom_fluid + GS_NFLUID * g + 1, 5);
  }
  gsw_attrsSensing(w, GS_OBJ_GEOM, g);
  gsw_attrsWorld(w, GS_OBJ_GEOM, g);
  gsw_end(w);
}

static void write_site(gswWriter* w, int s) {
  const gsModel* m = w->m;
  gsw_open(w, "site");
  gsw_name(w, GS_OBJ_SITE, s);
  gsw_keyword(w, "type", gsx_geomTypes, GS_NGEOMTYPE, m->site_type[s]);
  gsw_reals(w, "size", m->site_size + 3 * s, 3);
  gsw_reals(w, "pos", m->site_pos + 3 * s, 3);
  gsw_reals(w, "quat", m->site_quat + 4 * s, 4);
  gsw_int(w, "group", m->site_group[s]);
  gsw_reals(w, "rgba", m->site_rgba + 4 * s, 4);
  gsw_attrsSensing(w, GS_OBJ_SITE, s);
  gsw_attrsWorld(w, GS_OBJ_SITE, s);
  gsw_end(w);
}

/* ---- the tree, nested in the frames as MJCF's writer nests it ---- */

static void write_held(gswWriter* w, int b, int f);

static void write_body(gswWriter* w, int c) {
  const gsModel* m = w->m;
  gsw_open(w, "body");
  gsw_name(w, GS_OBJ_BODY, c);
  gsw_reals(w, "pos", m->body_pos + 3 * c, 3);
  gsw_reals(w, "quat", m->body_quat + 4 * c, 4);
  gsw_real(w, "gravcomp", m->body_gravcomp[c]);
  gsw_attrsSensing(w, GS_OBJ_BODY, c);
  gsw_attrsWorld(w, GS_OBJ_BODY, c);
  gsw_begin(w);
  gsw_open(w, "inertial");
  gsw_reals(w, "pos", m->body_ipos + 3 * c, 3);
  gsw_reals(w, "quat", m->body_iquat + 4 * c, 4);
  gsw_real(w, "mass", m->body_mass[c]);
  gsw_reals(w, "diaginertia", m->body_inertia + 3 * c, 3);
  gsw_end(w);
  write_held(w, c, -1);
  gsw_close(w, "body");
}

static const char* frame_name(const gsModel* m, int f) {
  int a = m->frame_nameadr[f];
  return a >= 0 && a < m->nframenames ? m->framenames + a : "";
}

/* frame f of body b: a named one as <frame name=...> without a pose (what it holds has its pose in
 * the body); an unnamed one is not written, what it holds is written in its place */
static void write_frame(gswWriter* w, int b, int f) {
  const char* name = frame_name(w->m, f);
  if (!name[0]) {
    write_held(w, b, f);
    return;
  }
  gsw_open(w, "frame");
  gsw_str(w, "name", name);
  if (!w->frame_holds[f]) {
    gsw_end(w);
    return;
  }
  gsw_begin(w);
  write_held(w, b, f);
  gsw_close(w, "frame");
}

/* the frames of body b written in the group */
static void write_frames(gswWriter* w, int b, int group) {
  for (int f = w->held_head[GSW_FRAME][group]; f >= 0 && !w->failed; f = w->held_next[GSW_FRAME][f])
    write_frame(w, b, f);
}

/* what body b holds in its frame f (-1: directly), in the order MJCF's writer gives: the joints,
 * geoms, sites, cameras and lights in f; then the child bodies in f, in their order, and the
 * frames written in f, in theirs, which come out together after the first child body that is in
 * any frame (or after the last child). Reading the document back numbers the elements in that
 * order, as MuJoCo numbers what its writer writes. */
static void write_held(gswWriter* w, int b, int f) {
  int group = f < 0 ? b : w->m->nbody + f;
  int* const* head = w->held_head;
  int* const* next = w->held_next;
  for (int j = head[GSW_JOINT][group]; j >= 0; j = next[GSW_JOINT][j]) write_joint(w, j);
  for (int g = head[GSW_GEOM][group]; g >= 0; g = next[GSW_GEOM][g]) write_geom(w, g);
  for (int s = head[GSW_SITE][group]; s >= 0; s = next[GSW_SITE][s]) write_site(w, s);
  gsw_bodyChildrenWorld(w, group);
  int first = w->first_framed[b], out = 0;
  for (int c = head[GSW_BODY][group]; c >= 0 && !w->failed; c = next[GSW_BODY][c]) {
    if (!out && c > first) write_frames(w, b, group), out = 1;
    write_body(w, c);
    if (!out && c == first) write_frames(w, b, group), out = 1;
  }
  if (!out) write_frames(w, b, group);
}

/* ---- options ---- */

static void write_option(gswWriter* w) {
  const gsOption* o = &w->m->opt;
  gsOption d;
  gs_defaultOption(&d);
  static const char* const kIntegrator[] = {"Euler", "RK4", "implicit", "implicitfast"};
  static const char* const kCone[] = {"pyramidal", "elliptic"};
  static const char* const kJacobian[] = {"dense", "sparse", "auto"};
  static const char* const kSolver[] = {"PGS", "CG", "Newton"};
  gsw_open(w, "option");
  /* only what differs from MJCF's defaults: the rest reads back as the default anyway */
#define REAL(f) if (o->f != d.f) gsw_real(w, #f, o->f)
#define REALS(f, n) if (memcmp(o->f, d.f, sizeof(gsReal) * (n)) != 0) gsw_reals(w, #f, o->f, n)
#define INT(f) if (o->f != d.f) gsw_int(w, #f, o->f)
  gsw_real(w, "timestep", o->timestep);
  REAL(impratio);
  REAL(tolerance);
  REAL(ls_tolerance);
  REAL(noslip_tolerance);
  REAL(ccd_tolerance);
  gsw_reals(w, "gravity", o->gravity, 3);
  REALS(wind, 3);
  REALS(magnetic, 3);
  REAL(density);
  REAL(viscosity);
  REAL(o_margin);
  REALS(o_solref, GS_NREF);
  REALS(o_solimp, GS_NIMP);
  REALS(o_friction, 5);
  gsw_keyword(w, "integrator", kIntegrator, 4, o->integrator);
  if (o->cone != d.cone) gsw_keyword(w, "cone", kCone, 2, o->cone);
  if (o->jacobian != d.jacobian) gsw_keyword(w, "jacobian", kJacobian, 3, o->jacobian);
  if (o->solver != d.solver) gsw_keyword(w, "solver", kSolver, 3, o->solver);
  INT(iterations);
  INT(ls_iterations);
  INT(noslip_iterations);
  INT(ccd_iterations);
  if (o->actuatorgroupdisable) {
    char groups[31 * 3 + 1];
    int n = 0;
    for (int g = 0; g < 31; g++)
      if (o->actuatorgroupdisable >> g & 1) n += snprintf(groups + n, sizeof groups - (size_t)n, n ? " %d" : "%d", g);
    gsw_printf(w, " actuatorgroupdisable=\"%s\"", groups);
  }
#undef REAL
#undef REALS
#undef INT
  if (!o->disableflags && !o->enableflags) {
    gsw_end(w);
    return;
  }
  gsw_begin(w);
  gsw_open(w, "flag");
  for (int i = 0; i < GS_NDISABLE; i++)
    if (o->disableflags & (1 << i)) gsw_printf(w, " %s=\"disable\"", gs_disable_names[i]);
  for (int i = 0; i < GS_NENABLE; i++)
    if (o->enableflags & (1 << i)) gsw_printf(w, " %s=\"enable\"", gs_enable_names[i]);
  gsw_end(w);
  gsw_close(w, "option");
}

/* ---- the document ---- */

static int held_index(gswWriter* w);

/* where each body's frames are, and which frames write anything (a named frame does; an unnamed
 * one when it holds an element or a frame that does) */
static int frames_index(gswWriter* w) {
  const gsModel* m = w->m;
  w->frame_first = calloc((size_t)m->nbody + 1, sizeof(int));
  w->frame_holds = calloc((size_t)(m->nframe ? m->nframe : 1), 1);
  if (!w->frame_first || !w->frame_holds) return gsw_fail(w, "out of memory"), 0;
  for (int f = 0; f < m->nframe; f++) {
    int b = m->frame_bodyid[f];
    if (b < 0 || b >= m->nbody || (f && b < m->frame_bodyid[f - 1]))
      return gsw_fail(w, "frame %d: the frames are not listed body by body", f), 0;
    w->frame_first[b + 1]++;
  }
  for (int b = 0; b < m->nbody; b++) w->frame_first[b + 1] += w->frame_first[b];
  /* (ids out of range, as a model edited in memory may have, mark nothing: such elements are
   * then in no frame the writer visits) */
#define HOLDS(n, ids) \
  for (int i = 0; i < m->n; i++) \
    if (m->ids[i] >= 0 && m->ids[i] < m->nframe) w->frame_holds[m->ids[i]] = 1;
  HOLDS(nbody, body_frameid)
  HOLDS(njnt, jnt_frameid)
  HOLDS(ngeom, geom_frameid)
  HOLDS(nsite, site_frameid)
  HOLDS(ncam, cam_frameid)
  HOLDS(nlight, light_frameid)
#undef HOLDS
  /* enclosing frames come first */
  for (int f = m->nframe - 1; f >= 0; f--)
    if ((w->frame_holds[f] || frame_name(m, f)[0]) && m->frame_frameid[f] >= 0 && m->frame_frameid[f] < f)
      w->frame_holds[m->frame_frameid[f]] = 1;
  return held_index(w);
}

/* the group of an element of body b written in frame f: -1 when f is not one of b's (as a
 * model edited in memory may have: such an element is not written) */
static int group_of(const gsModel* m, int b, int f) {
  if (b < 0 || b >= m->nbody) return -1;
  if (f < 0) return f == -1 ? b : -1;
  return f < m->nframe && m->frame_bodyid[f] == b ? m->nbody + f : -1;
}

/* each kind's groups, filled from the last element so that every list runs in model order */
static int held_index(gswWriter* w) {
  const gsModel* m = w->m;
  int ngroup = m->nbody + m->nframe;
  const int count[GSW_NHELD] = {m->njnt, m->ngeom, m->nsite, m->ncam, m->nlight, m->nbody, m->nframe};
  for (int k = 0; k < GSW_NHELD; k++) {
    w->held_head[k] = malloc(sizeof(int) * (size_t)(ngroup ? ngroup : 1));
    w->held_next[k] = malloc(sizeof(int) * (size_t)(count[k] ? count[k] : 1));
    if (!w->held_head[k] || !w->held_next[k]) return gsw_fail(w, "out of memory"), 0;
    for (int i = 0; i < ngroup; i++) w->held_head[k][i] = -1;
  }
  w->first_framed = malloc(sizeof(int) * (size_t)(m->nbody ? m->nbody : 1));
  if (!w->first_framed) return gsw_fail(w, "out of memory"), 0;
  for (int b = 0; b < m->nbody; b++) w->first_framed[b] = m->nbody;
#define PUSH(k, i, group)                                       \
  do {                                                          \
    int g_ = (group);                                           \
    w->held_next[k][i] = g_ >= 0 ? w->held_head[k][g_] : -1;    \
    if (g_ >= 0) w->held_head[k][g_] = (i);                     \
  } while (0)
  for (int i = m->njnt - 1; i >= 0; i--) PUSH(GSW_JOINT, i, group_of(m, m->jnt_bodyid[i], m->jnt_frameid[i]));
  for (int i = m->ngeom - 1; i >= 0; i--) PUSH(GSW_GEOM, i, group_of(m, m->geom_bodyid[i], m->geom_frameid[i]));
  for (int i = m->nsite - 1; i >= 0; i--) PUSH(GSW_SITE, i, group_of(m, m->site_bodyid[i], m->site_frameid[i]));
  for (int i = m->ncam - 1; i >= 0; i--) PUSH(GSW_CAMERA, i, group_of(m, m->cam_bodyid[i], m->cam_frameid[i]));
  for (int i = m->nlight - 1; i >= 0; i--) PUSH(GSW_LIGHT, i, group_of(m, m->light_bodyid[i], m->light_frameid[i]));
  for (int f = m->nframe - 1; f >= 0; f--) PUSH(GSW_FRAME, f, group_of(m, m->frame_bodyid[f], m->frame_frameid[f]));
  for (int c = m->nbody - 1; c > 0; c--) {
    int p = m->body_parentid[c];
    /* (a child comes after its parent; one that does not, as in a model edited in memory, is
     * not written) */
    PUSH(GSW_BODY, c, p < c ? group_of(m, p, m->body_frameid[c]) : -1);
    if (p >= 0 && p < c && m->body_frameid[c] >= 0) w->first_framed[p] = c;
  }
#undef PUSH
  return 1;
}

static void free_index(gswWriter* w) {
  free(w->frame_first);
  free(w->frame_holds);
  free(w->first_framed);
  for (int k = 0; k < GSW_NHELD; k++) free(w->held_head[k]), free(w->held_next[k]);
}

static int write_model(gswWriter* w, const gsModel* m) {
  memset(w, 0, sizeof *w);
  w->m = m;
  /* the model's name, first in names (as MJCF compiles it; a binary model from before has the
   * world's name there, at 0) */
  gsw_printf(w, "<mujoco");
  if (m->nnames > 0 && m->names[0] && (m->nbody == 0 || m->name_bodyadr[0] > 0))
    gsw_str(w, "model", m->names);
  gsw_printf(w, ">\n");
  w->depth = 1;
  /* angles in radians, inertia as written, limits as written: nothing left to infer */
  gsw_open(w, "compiler");
  gsw_str(w, "angle", "radian");
  gsw_str(w, "inertiafromgeom", "false");
  gsw_end(w);
  write_option(w);
  gsw_writeSizeSensing(w);
  gsw_writeDefaultsActuation(w);
  gsw_writeWorldAssets(w);
  if (!frames_index(w)) {
    free_index(w);
    return 0;
  }
  gsw_open(w, "worldbody");
  gsw_begin(w);
  write_held(w, 0, -1);
  gsw_close(w, "worldbody");
  gsw_writeWorldSections(w);
  gsw_writeActuation(w);
  gsw_writeSensingSections(w);
  w->depth = 0;
  gsw_printf(w, "</mujoco>\n");
  free_index(w);
  return !w->failed;
}

static int errorf(char* err, int errsz, const char* fmt, const char* a, const char* b) {
  if (err && errsz > 0) snprintf(err, (size_t)errsz, fmt, a, b);
  return 0;
}

int gs_saveXMLString(const gsModel* m, char* buf, int bufsz, char* err, int errsz) {
  if (err && errsz > 0) err[0] = 0;
  if (!m) return errorf(err, errsz, "%s%s", "gs_saveXMLString: no model", ""), -1;
  gswWriter w;
  if (!write_model(&w, m)) {
    errorf(err, errsz, "cannot write MJCF: %s%s", w.msg, "");
    free(w.buf);
    return -1;
  }
  if (w.n > 0x7fffffff) {
    free(w.buf);
    return errorf(err, errsz, "%s%s", "the MJCF document is too large", ""), -1;
  }
  if (buf && bufsz > 0) {
    size_t k = w.n < (size_t)bufsz - 1 ? w.n : (size_t)bufsz - 1;
    memcpy(buf, w.buf, k);
    buf[k] = 0;
  }
  int n = (int)w.n;
  free(w.buf);
  return n;
}

int gs_saveXML(const gsModel* m, const char* path, char* err, int errsz) {
  if (err && errsz > 0) err[0] = 0;
  if (!m || !path) return errorf(err, errsz, "%s%s", "gs_saveXML: no model or no path", "");
  gswWriter w;
  if (!write_model(&w, m)) {
    errorf(err, errsz, "%s: cannot write MJCF: %s", path, w.msg);
    free(w.buf);
    return 0;
  }
  FILE* f = fopen(path, "wb");
  if (!f) {
    errorf(err, errsz, "%s: cannot write: %s", path, strerror(errno));
    free(w.buf);
    return 0;
  }
  int ok = fwrite(w.buf, 1, w.n, f) == w.n;
  int why = errno;
  ok = fclose(f) == 0 && ok;
  free(w.buf);
  if (!ok) return errorf(err, errsz, "%s: cannot write: %s", path, strerror(why ? why : EIO));
  return 1;
}
