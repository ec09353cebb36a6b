/* The scene of one frame: camera and light poses from the data (MJCF's camera and light modes),
 * and the list of geoms and sites to draw with their poses, colours and segmentation ids. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/renderer.h"

#define DEG (3.14159265358979323846 / 180.0)

static void quat2mat(const gsReal q[4], double r[9]) {
  double w = q[0], x = q[1], y = q[2], z = q[3];
  r[0] = 1 - 2 * (y * y + z * z); r[1] = 2 * (x * y - w * z);     r[2] = 2 * (x * z + w * y);
  r[3] = 2 * (x * y + w * z);     r[4] = 1 - 2 * (x * x + z * z); r[5] = 2 * (y * z - w * x);
  r[6] = 2 * (x * z - w * y);     r[7] = 2 * (y * z + w * x);     r[8] = 1 - 2 * (x * x + y * y);
}

static void mat_mul(const gsReal* a, const double* b, double* c) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) c[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
}

static void mat_vec(const gsReal* a, const gsReal* v, double* out) {
  for (int i = 0; i < 3; i++) out[i] = a[3 * i] * v[0] + a[3 * i + 1] * v[1] + a[3 * i + 2] * v[2];
}

static void normalize(double v[3]) {
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (n > 0) v[0] /= n, v[1] /= n, v[2] /= n;
}

static void cross(const double a[3], const double b[3], double c[3]) {
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* a frame whose -z looks from pos towards target, x level where it can be */
static void look_at(const double pos[3], const double target[3], double mat[9]) {
  double z[3] = {pos[0] - target[0], pos[1] - target[1], pos[2] - target[2]};
  normalize(z);
  double up[3] = {0, 0, 1}, x[3], y[3];
  if (fabs(z[2]) > 1 - 1e-9) up[0] = 1, up[2] = 0;
  cross(up, z, x);
  normalize(x);
  cross(z, x, y);
  for (int i = 0; i < 3; i++) mat[3 * i] = x[i], mat[3 * i + 1] = y[i], mat[3 * i + 2] = z[i];
}

/* Pose of a camera or light with MJCF's modes: fixed (in its body), track (body position plus
 * the offset at qpos0, orientation of qpos0), trackcom (the same about the subtree's centre of
 * mass), targetbody / targetbodycom (fixed position, turned towards the target). */
static void tracked_pose(const gsData* d, int mode, int body, int target, const gsReal* lpos,
                         const gsReal* pos0, const gsReal* poscom0, double pos[3]) {
  switch (mode) {
    case GS_CAMLIGHT_TRACK:
      for (int i = 0; i < 3; i++) pos[i] = d->xpos[3 * body + i] + pos0[i];
      break;
    case GS_CAMLIGHT_TRACKCOM:
      for (int i = 0; i < 3; i++) pos[i] = d->subtree_com[3 * body + i] + poscom0[i];
      break;
    default: {
      double off[3];
      mat_vec(d->xmat + 9 * body, lpos, off);
      for (int i = 0; i < 3; i++) pos[i] = d->xpos[3 * body + i] + off[i];
    }
  }
  (void)target;
}

void gsr_cameraPose(const gsModel* m, const gsData* d, int camid, double pos[3], double mat[9]) {
  int mode = m->cam_mode[camid], body = m->cam_bodyid[camid], target = m->cam_targetbodyid[camid];
  tracked_pose(d, mode, body, target, m->cam_pos + 3 * camid, m->cam_pos0 + 3 * camid,
               m->cam_poscom0 + 3 * camid, pos);
  if (mode == GS_CAMLIGHT_TRACK || mode == GS_CAMLIGHT_TRACKCOM) {
    for (int i = 0; i < 9; i++) mat[i] = m->cam_mat0[9 * camid + i];
  } else if ((mode == GS_CAMLIGHT_TARGETBODY || mode == GS_CAMLIGHT_TARGETBODYCOM) && target >= 0) {
    const gsReal* t = mode == GS_CAMLIGHT_TARGETBODY ? d->xpos + 3 * target : d->subtree_com + 3 * target;
    double tt[3] = {t[0], t[1], t[2]};
    look_at(pos, tt, mat);
  } else {
    double local[9];
    quat2mat(m->cam_quat + 4 * camid, local);
    mat_mul(d->xmat + 9 * body, local, mat);
  }
}

static void light_pose(const gsModel* m, const gsData* d, int i, double pos[3], double dir[3]) {
  int mode = m->light_mode[i], body = m->light_bodyid[i], target = m->light_targetbodyid[i];
  tracked_pose(d, mode, body, target, m->light_pos + 3 * i, m->light_pos0 + 3 * i,
               m->light_poscom0 + 3 * i, pos);
  if (mode == GS_CAMLIGHT_TRACK || mode == GS_CAMLIGHT_TRACKCOM) {
    for (int k = 0; k < 3; k++) dir[k] = m->light_dir0[3 * i + k];
  } else if ((mode == GS_CAMLIGHT_TARGETBODY || mode == GS_CAMLIGHT_TARGETBODYCOM) && target >= 0) {
    const gsReal* t = mode == GS_CAMLIGHT_TARGETBODY ? d->xpos + 3 * target : d->subtree_com + 3 * target;
    for (int k = 0; k < 3; k++) dir[k] = t[k] - pos[k];
  } else {
    mat_vec(d->xmat + 9 * body, m->light_dir + 3 * i, dir);
  }
  normalize(dir);
}

/* MJCF's default free camera: looks at the model's centre from 1.5 extents, turned as
 * <visual><global azimuth elevation> say */
void gs_defaultFreeCamera(const gsModel* m, const gsData* d, gsRenderCamera* cam) {
  (void)d;
  cam->camid = -1;
  for (int k = 0; k < 3; k++) cam->lookat[k] = m->stat.center[k];
  cam->distance = 1.5 * m->stat.extent;
  cam->azimuth = m->vis.azimuth;
  cam->elevation = m->vis.elevation;
}

/* ---- geoms ---- */

static int grow(gsrScene* s) {
  if (s->ngeom < s->maxgeom) return 1;
  int n = s->maxgeom ? 2 * s->maxgeom : 64;
  gsrGeom* g = realloc(s->geom, sizeof *g * (size_t)n);
  if (!g) return 0;
  s->geom = g;
  s->maxgeom = n;
  return 1;
}

/* colour and material of a geom or site: the material's colour unless the object's own rgba was
 * changed from the default grey */
static void appearance(const gsModel* m, int matid, const gsReal* rgba, gsrGeom* g) {
  static const float kDefault[4] = {0.5f, 0.5f, 0.5f, 1.0f};
  int own = 0;
  for (int k = 0; k < 4; k++) own |= (float)rgba[k] != kDefault[k];
  for (int k = 0; k < 4; k++) g->rgba[k] = (float)rgba[k];
  g->specular = 0.5f;
  g->shininess = 0.5f;
  g->emission = 0;
  g->reflectance = 0;
  g->plane_grid = 0;
  g->texbuiltin = 0;
  g->image = -1;
  if (matid >= 0) {
    if (!own)
      for (int k = 0; k < 4; k++) g->rgba[k] = (float)m->mat_rgba[4 * matid + k];
    g->specular = (float)m->mat_specular[matid];
    g->shininess = (float)m->mat_shininess[matid];
    g->emission = (float)m->mat_emission[matid];
    g->reflectance = (float)m->mat_reflectance[matid];
    int tex = m->mat_texid[GS_NTEXROLE * matid + 1];  /* the colour role */
    g->plane_grid = tex >= 0 ? 1 : 0;
    if (tex >= 0 && m->tex_builtin[tex] > 0) {
      g->texbuiltin = m->tex_builtin[tex];
      g->texmark = m->tex_mark[tex];
      g->texuniform = m->mat_texuniform[matid];
      for (int k = 0; k < 3; k++) {
        g->rgb1[k] = (float)m->tex_rgb1[3 * tex + k];
        g->rgb2[k] = (float)m->tex_rgb2[3 * tex + k];
        g->markrgb[k] = (float)m->tex_markrgb[3 * tex + k];
      }
      g->texrandom = (float)m->tex_random[tex];
      g->texwidth = (float)(m->tex_width[tex] > 0 ? m->tex_width[tex] : 1);
      g->texrepeat[0] = (float)m->mat_texrepeat[2 * matid];
      g->texrepeat[1] = (float)m->mat_texrepeat[2 * matid + 1];
      g->plane_grid = 0;  /* the texture draws its own lines */
    } else if (tex >= 0 && m->tex_imageadr[tex] >= 0) {
      g->image = tex;
      g->imagecube = m->tex_type[tex] != GS_TEXTURE_2D;
      g->texuniform = m->mat_texuniform[matid];
      g->texrepeat[0] = (float)m->mat_texrepeat[2 * matid];
      g->texrepeat[1] = (float)m->mat_texrepeat[2 * matid + 1];
      g->plane_grid = 0;
    }
  }
}

static int add_object(gsrScene* s, const gsModel* m, int objtype, int id, int type, int dataid,
                      const gsReal* size, const gsReal* pos, const gsReal* mat, int matid,
                      const gsReal* rgba, int transparent) {
  if (!grow(s)) return 0;
  gsrGeom* g = &s->geom[s->ngeom++];
  g->type = type;
  g->dataid = dataid;
  g->objtype = objtype;
  g->objid = id;
  for (int k = 0; k < 3; k++) g->size[k] = (float)size[k], g->pos[k] = (float)pos[k];
  for (int k = 0; k < 9; k++) g->mat[k] = (float)mat[k];
  appearance(m, matid, rgba, g);
  if (g->rgba[3] == 0) s->ngeom--;  /* fully transparent: not drawn, as MJCF's viewers */
  else if (transparent) g->rgba[3] *= 0.5f;
  return 1;
}

/* ---- overlays: decorations that belong to no model object (segmentation -1, type 0) ---- */

static int add_decor(gsrScene* s, int type, const double size[3], const double pos[3],
                     const double mat[9], const float rgba[4]) {
  if (!grow(s)) return 0;
  gsrGeom* g = &s->geom[s->ngeom++];
  memset(g, 0, sizeof *g);
  g->type = type;
  g->image = -1;
  g->dataid = -1;
  g->objtype = GS_OBJ_UNKNOWN;
  g->objid = -1;
  for (int k = 0; k < 3; k++) g->size[k] = (float)size[k], g->pos[k] = (float)pos[k];
  for (int k = 0; k < 9; k++) g->mat[k] = (float)mat[k];
  for (int k = 0; k < 4; k++) g->rgba[k] = rgba[k];
  g->specular = 0.3f;
  g->shininess = 0.3f;
  g->emission = 0.3f;
  return 1;
}

/* a frame whose z axis is the direction v (normalized), x and y any completion */
static void frame_of(const double v[3], double mat[9]) {
  double z[3] = {v[0], v[1], v[2]}, x[3], y[3];
  normalize(z);
  double a[3] = {1, 0, 0};
  if (fabs(z[0]) > 0.9) a[0] = 0, a[1] = 1;
  cross(a, z, x);
  normalize(x);
  cross(z, x, y);
  for (int i = 0; i < 3; i++) mat[3 * i] = x[i], mat[3 * i + 1] = y[i], mat[3 * i + 2] = z[i];
}

/* a cylinder of radius rad from a along v (its length is |v|) */
static int add_arrow(gsrScene* s, const double a[3], const double v[3], double rad, const float rgba[4]) {
  double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (!(len > 0)) return 1;
  double mat[9], pos[3], size[3] = {rad, 0.5 * len, 0};  /* radius, half-length */
  frame_of(v, mat);
  for (int k = 0; k < 3; k++) pos[k] = a[k] + 0.5 * v[k];
  return add_decor(s, GS_GEOM_CYLINDER, size, pos, mat, rgba);
}

/* <visual><rgba> colour of a decoration, in single precision */
static void vis_rgba(const gsReal v[4], float rgba[4]) {
  for (int k = 0; k < 4; k++) rgba[k] = (float)(v[k] < 0 ? 0 : v[k] > 1 ? 1 : v[k]);
}

static int add_overlays(gsRenderer* r, const gsData* d) {
  const gsModel* m = r->m;
  const gsVisual* vis = &m->vis;
  gsrScene* s = &r->scene;
  const gsRenderOption* o = &r->opt;
  /* the unit of <visual><scale>: the mean bounding radius of the geoms (planes aside), where
   * MJCF takes its own mean body size, which the model does not keep */
  double e = 0;
  int n = 0;
  for (int g = 0; g < m->ngeom; g++)
    if (m->geom_type[g] != GS_GEOM_PLANE && m->geom_rbound[g] > 0) e += m->geom_rbound[g], n++;
  e = n ? e / n : 0.05 * m->stat.extent;
  float kContact[4], kForce[4], kCom[4], kJoint[4];
  vis_rgba(vis->rgba_contactpoint, kContact);
  vis_rgba(vis->rgba_contactforce, kForce);
  vis_rgba(vis->rgba_com, kCom);
  vis_rgba(vis->rgba_joint, kJoint);
  static const float kAxis[3][4] = {{0.9f, 0.1f, 0.1f, 1}, {0.1f, 0.9f, 0.1f, 1}, {0.1f, 0.1f, 0.9f, 1}};
  /* forces as MJCF maps them: map_force units of length per unit of force per mean body mass
   * (the mean over the bodies but the world, 1 where they have none) */
  double meanmass = 0;
  for (int b = 1; b < m->nbody; b++) meanmass += m->body_mass[b];
  meanmass = m->nbody > 1 && meanmass > 0 ? meanmass / (m->nbody - 1) : 1;
  double fscale = vis->map_force / meanmass;
  for (int i = 0; i < d->ncon && (o->contactpoint || o->contactforce); i++) {
    const gsContact* c = &d->contact[i];
    double pos[3] = {c->pos[0], c->pos[1], c->pos[2]}, n[3] = {c->frame[0], c->frame[1], c->frame[2]};
    if (o->contactpoint) {
      /* a disc across the normal: contactwidth in radius, contactheight in half thickness */
      double mat[9], size[3] = {fabs(vis->scale_contactwidth) * e, fabs(vis->scale_contactheight) * e, 0};
      frame_of(n, mat);
      if (!add_decor(s, GS_GEOM_CYLINDER, size, pos, mat, kContact)) return 0;
    }
    if (o->contactforce && c->efc_address >= 0) {
      gsReal f[6];
      gs_contactForce(m, d, i, f);
      double v[3];
      for (int k = 0; k < 3; k++)
        v[k] = fscale * (f[0] * c->frame[k] + f[1] * c->frame[3 + k] + f[2] * c->frame[6 + k]);
      if (!add_arrow(s, pos, v, fabs(vis->scale_forcewidth) * e, kForce)) return 0;
    }
  }
  for (int b = 1; b < m->nbody; b++) {
    if (o->frame) {
      double len = fabs(vis->scale_framelength) * e;
      const gsReal* R = d->xmat + 9 * b;
      double a[3] = {d->xpos[3 * b], d->xpos[3 * b + 1], d->xpos[3 * b + 2]};
      for (int axis = 0; axis < 3; axis++) {
        double v[3] = {len * R[axis], len * R[3 + axis], len * R[6 + axis]};
        if (!add_arrow(s, a, v, fabs(vis->scale_framewidth) * e, kAxis[axis])) return 0;
      }
    }
    if (o->com) {
      double size[3] = {fabs(vis->scale_com) * e, 0, 0}, pos[3] = {d->xipos[3 * b], d->xipos[3 * b + 1], d->xipos[3 * b + 2]};
      static const double kI[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
      if (!add_decor(s, GS_GEOM_SPHERE, size, pos, kI, kCom)) return 0;
    }
  }
  for (int j = 0; j < m->njnt && o->joint; j++) {
    int t = m->jnt_type[j];
    if (t != 2 && t != 3) continue;  /* slide and hinge have an axis */
    double a[3], v[3];
    for (int k = 0; k < 3; k++) {
      v[k] = fabs(vis->scale_jointlength) * e * d->xaxis[3 * j + k];
      a[k] = d->xanchor[3 * j + k] - 0.5 * v[k];
    }
    if (!add_arrow(s, a, v, fabs(vis->scale_jointwidth) * e, kJoint)) return 0;
  }
  return 1;
}

/* rangefinder rays (MJCF's rangefinder flag): a thin cylinder of <rgba rangefinder> from the sensor's site
 * along its z axis, as long as the distance it measures (none where it sees nothing, -1) */
static int add_rays(gsRenderer* r, const gsData* d) {
  const gsModel* m = r->m;
  float kRay[4];
  vis_rgba(m->vis.rgba_rangefinder, kRay);
  for (int i = 0; i < m->nsensor; i++) {
    if (m->sensor_type[i] != GS_SENS_RANGEFINDER || m->sensor_objtype[i] != GS_OBJ_SITE) continue;
    int site = m->sensor_objid[i];
    double dist = d->sensordata[m->sensor_adr[i]];
    if (!(dist >= 0)) continue;
    const gsReal* R = d->site_xmat + 9 * site;
    double a[3], v[3];
    for (int k = 0; k < 3; k++) a[k] = d->site_xpos[3 * site + k], v[k] = dist * R[3 * k + 2];
    /* a line of a few millimetres per metre of model, unlit (its own colour), as MJCF's lines */
    int n0 = r->scene.ngeom;
    if (!add_arrow(&r->scene, a, v, 0.004 * m->stat.extent, kRay)) return 0;
    if (r->scene.ngeom > n0) {
      gsrGeom* g = &r->scene.geom[n0];
      g->emission = 1, g->specular = 0;
    }
  }
  return 1;
}

/* spatial tendons: a capsule of the tendon's width along each straight piece of its path (none
 * across a pulley, which starts a new branch), segmented as the tendon */
static int add_tendons(gsRenderer* r, const gsData* d) {
  const gsModel* m = r->m;
  gsrScene* s = &r->scene;
  for (int t = 0; t < m->ntendon; t++) {
    int grp = m->tendon_group[t], n = d->ten_wrapnum[t], adr = d->ten_wrapadr[t];
    if ((grp >= 0 && grp < 6 && !r->opt.tendongroup[grp]) || n < 2 || !(m->tendon_width[t] > 0)) continue;
    const int* obj = d->wrap_obj;
    for (int j = 0; j + 1 < n; j++) {
      if (obj[adr + j] == -2 || obj[adr + j + 1] == -2) continue;
      const gsReal* a = d->wrap_xpos + 3 * (adr + j);
      const gsReal* b = a + 3;
      double v[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      if (!(len > 0)) continue;
      double mat[9], pos[3] = {0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2])};
      frame_of(v, mat);
      gsReal size[3] = {m->tendon_width[t], 0.5 * len, 0}, p[3] = {pos[0], pos[1], pos[2]}, R[9];
      for (int k = 0; k < 9; k++) R[k] = mat[k];
      if (!add_object(s, m, GS_OBJ_TENDON, t, GS_GEOM_CAPSULE, -1, size, p, R, m->tendon_matid[t],
                      m->tendon_rgba + 4 * t, r->opt.transparent))
        return 0;
    }
  }
  return 1;
}

int gs_updateScene(gsRenderer* r, const gsData* d, const gsRenderCamera* cam) {
  const gsModel* m = r->m;
  gsrScene* s = &r->scene;
  if (cam->camid >= m->ncam || cam->camid < -1) return 0;
  s->extent = m->stat.extent;

  /* camera */
  if (cam->camid >= 0) {
    gsr_cameraPose(m, d, cam->camid, s->campos, s->cammat);
    s->fovy = m->cam_fovy[cam->camid];
    s->orthographic = m->cam_orthographic[cam->camid];
  } else {
    double ca = cos(cam->azimuth * DEG), sa = sin(cam->azimuth * DEG);
    double ce = cos(cam->elevation * DEG), se = sin(cam->elevation * DEG);
    double fwd[3] = {ce * ca, ce * sa, se}, up[3] = {-se * ca, -se * sa, ce}, right[3];
    cross(fwd, up, right);
    for (int k = 0; k < 3; k++) {
      s->campos[k] = cam->lookat[k] - cam->distance * fwd[k];
      s->cammat[3 * k] = right[k];
      s->cammat[3 * k + 1] = up[k];
      s->cammat[3 * k + 2] = -fwd[k];
    }
    s->fovy = m->vis.fovy;
    s->orthographic = 0;
  }
  /* clipping planes: <visual><map znear zfar>, in extents */
  s->znear = m->vis.znear * s->extent;
  s->zfar = m->vis.zfar * s->extent;
  /* MJCF accepts a far plane at or before the near one: the renderer keeps some depth */
  if (!(s->zfar > s->znear)) s->zfar = 2 * s->znear;

  /* lights: the headlight, then the model's active lights */
  s->nlight = 0;
  if (r->opt.headlight && m->vis.headlight_active) {
    gsrLight* l = &s->light[s->nlight++];
    memset(l, 0, sizeof *l);
    l->headlight = l->directional = 1;
    for (int k = 0; k < 3; k++) {
      l->dir[k] = (float)-s->cammat[3 * k + 2];
      l->pos[k] = (float)s->campos[k];
      l->ambient[k] = (float)m->vis.headlight_ambient[k];
      l->diffuse[k] = (float)m->vis.headlight_diffuse[k];
      l->specular[k] = (float)m->vis.headlight_specular[k];
    }
    l->attenuation[0] = 1;
    l->cutoff = 180;
  }
  for (int i = 0; i < m->nlight && s->nlight < GSR_MAXLIGHT; i++) {
    if (!m->light_active[i]) continue;
    gsrLight* l = &s->light[s->nlight++];
    double pos[3], dir[3];
    light_pose(m, d, i, pos, dir);
    l->headlight = 0;
    l->directional = m->light_type[i] == GS_LIGHT_DIRECTIONAL;
    for (int k = 0; k < 3; k++) {
      l->pos[k] = (float)pos[k];
      l->dir[k] = (float)dir[k];
      l->ambient[k] = (float)m->light_ambient[3 * i + k];
      l->diffuse[k] = (float)m->light_diffuse[3 * i + k];
      l->specular[k] = (float)m->light_specular[3 * i + k];
      l->attenuation[k] = (float)m->light_attenuation[3 * i + k];
    }
    l->cutoff = m->light_type[i] == GS_LIGHT_SPOT ? (float)m->light_cutoff[i] : 180;
    l->castshadow = m->light_castshadow[i];
    l->exponent = (float)m->light_exponent[i];
  }

  /* the skybox: the first skybox texture */
  s->skybox = -1;
  for (int t = 0; t < m->ntex && s->skybox < 0; t++)
    if (m->tex_type[t] == GS_TEXTURE_SKYBOX) s->skybox = t;
  /* one whose file could not be read is not drawn */
  if (s->skybox >= 0 && m->tex_builtin[s->skybox] == GS_BUILTIN_NONE && m->tex_imageadr[s->skybox] < 0)
    s->skybox = -1;

  /* geoms and sites of the visible groups */
  s->ngeom = 0;
  for (int i = 0; i < m->ngeom; i++) {
    int grp = m->geom_group[i];
    if (grp >= 0 && grp < 6 && !r->opt.geomgroup[grp]) continue;
    if (!add_object(s, m, GS_OBJ_GEOM, i, m->geom_type[i], m->geom_dataid[i], m->geom_size + 3 * i,
                    d->geom_xpos + 3 * i, d->geom_xmat + 9 * i, m->geom_matid[i], m->geom_rgba + 4 * i,
                    r->opt.transparent))
      return 0;
  }
  for (int i = 0; i < m->nsite; i++) {
    int grp = m->site_group[i];
    if (grp >= 0 && grp < 6 && !r->opt.sitegroup[grp]) continue;
    if (!add_object(s, m, GS_OBJ_SITE, i, m->site_type[i], -1, m->site_size + 3 * i,
                    d->site_xpos + 3 * i, d->site_xmat + 9 * i, m->site_matid[i], m->site_rgba + 4 * i,
                    r->opt.transparent))
      return 0;
  }
  return add_tendons(r, d) && add_overlays(r, d) && (!r->opt.rangefinder || add_rays(r, d));
}
