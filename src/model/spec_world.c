/* Spec elements of the world slice: creation with MJCF's defaults (freeing: spec_access.c). */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "core/math.h"
#include "model/spec_slices.h"

static const gsReal kSolref[GS_NREF] = {0.02, 1};
static const gsReal kSolimp[GS_NIMP] = {0.9, 0.95, 0.001, 0.5, 2};

static void set3(gsReal* v, gsReal a, gsReal b, gsReal c) { v[0] = a, v[1] = b, v[2] = c; }
static void set4(gsReal* v, gsReal a, gsReal b, gsReal c, gsReal d) { v[0] = a, v[1] = b, v[2] = c, v[3] = d; }

void gs_defaultVisual(gsSpecVisual* v) {
  memset(v, 0, sizeof(*v));
  v->cameraid = -1;
  v->offwidth = 640;
  v->offheight = 480;
  v->bvactive = 1;
  v->fovy = 45;
  v->ipd = 0.068;
  v->azimuth = 90;
  v->elevation = -45;
  v->linewidth = 1;
  v->glow = 0.3;
  v->realtime = 1;
  v->shadowsize = 4096;
  v->offsamples = 4;
  v->numslices = 28;
  v->numstacks = 16;
  v->numquads = 4;
  set3(v->headlight_ambient, 0.1, 0.1, 0.1);
  set3(v->headlight_diffuse, 0.4, 0.4, 0.4);
  set3(v->headlight_specular, 0.5, 0.5, 0.5);
  v->headlight_active = 1;
  v->map_stiffness = 100;
  v->map_stiffnessrot = 500;
  v->map_force = 0.005;
  v->map_torque = 0.1;
  v->map_alpha = 0.3;
  v->map_fogstart = 3;
  v->map_fogend = 10;
  v->map_znear = 0.01;
  v->map_zfar = 50;
  v->map_haze = 0.3;
  v->map_shadowclip = 1;
  v->map_shadowscale = 0.6;
  v->map_actuatortendon = 2;
  v->scale_forcewidth = 0.1;
  v->scale_contactwidth = 0.3;
  v->scale_contactheight = 0.1;
  v->scale_connect = 0.2;
  v->scale_com = 0.4;
  v->scale_camera = 0.3;
  v->scale_light = 0.3;
  v->scale_selectpoint = 0.2;
  v->scale_jointlength = 1;
  v->scale_jointwidth = 0.1;
  v->scale_actuatorlength = 0.7;
  v->scale_actuatorwidth = 0.2;
  v->scale_framelength = 1;
  v->scale_framewidth = 0.1;
  v->scale_constraint = 0.1;
  v->scale_slidercrank = 0.2;
  v->scale_frustum = 10;
  set4(v->rgba_fog, 0, 0, 0, 1);
  set4(v->rgba_haze, 1, 1, 1, 1);
  set4(v->rgba_force, 1, 0.5, 0.5, 1);
  set4(v->rgba_inertia, 0.8, 0.2, 0.2, 0.6);
  set4(v->rgba_joint, 0.2, 0.6, 0.8, 1);
  set4(v->rgba_actuator, 0.2, 0.25, 0.2, 1);
  set4(v->rgba_actuatornegative, 0.2, 0.6, 0.9, 1);
  set4(v->rgba_actuatorpositive, 0.9, 0.4, 0.2, 1);
  set4(v->rgba_com, 0.9, 0.9, 0.9, 1);
  set4(v->rgba_camera, 0.6, 0.9, 0.6, 1);
  set4(v->rgba_light, 0.6, 0.6, 0.9, 1);
  set4(v->rgba_selectpoint, 0.9, 0.9, 0.1, 1);
  set4(v->rgba_connect, 0.2, 0.2, 0.8, 1);
  set4(v->rgba_contactpoint, 0.9, 0.6, 0.2, 1);
  set4(v->rgba_contactforce, 0.7, 0.9, 0.9, 1);
  set4(v->rgba_contactfriction, 0.9, 0.8, 0.4, 1);
  set4(v->rgba_contacttorque, 0.9, 0.7, 0.9, 1);
  set4(v->rgba_contactgap, 0.5, 0.8, 0.9, 1);
  set4(v->rgba_rangefinder, 1, 1, 0.1, 1);
  set4(v->rgba_constraint, 0.9, 0, 0, 1);
  set4(v->rgba_slidercrank, 0.5, 0.3, 0.8, 1);
  set4(v->rgba_crankbroken, 0.9, 0, 0, 1);
  set4(v->rgba_frustum, 1, 1, 0, 0.2);
  set4(v->rgba_bv, 0, 1, 0, 0.5);
  set4(v->rgba_bvactive, 1, 0, 0, 0.5);
}

void gs_specInitWorld(gsSpec* spec) {
  gs_defaultVisual(&spec->visual);
  memset(&spec->statistic, 0, sizeof(spec->statistic));
}

/* allocate one element and append it to a list; NULL when out of memory */
static void* push_new(size_t size, void*** list, int* n, int* cap) {
  void* p = calloc(1, size);
  if (!p) return NULL;
  if (!gs_specPush(list, n, cap, p)) {
    free(p);
    return NULL;
  }
  return p;
}
#define PUSH(type, owner, field) \
  ((type*)push_new(sizeof(type), (void***)&(owner)->field, &(owner)->n##field, &(owner)->n##field##_cap))

gsSpecCamera* gs_specAddCamera(gsSpecBody* body) {
  gsSpecCamera* c = PUSH(gsSpecCamera, body, camera);
  if (!c) return NULL;
  gs_orientSetQuat(&c->orient, NULL);
  c->fovy = 45;
  c->ipd = 0.068;
  c->resolution[0] = c->resolution[1] = 1;
  return c;
}

gsSpecLight* gs_specAddLight(gsSpecBody* body) {
  gsSpecLight* l = PUSH(gsSpecLight, body, light);
  if (!l) return NULL;
  set3(l->dir, 0, 0, -1);
  l->castshadow = 1;
  l->active = 1;
  l->bulbradius = 0.02;
  l->range = 10;
  set3(l->attenuation, 1, 0, 0);
  l->cutoff = 45;
  l->exponent = 10;
  set3(l->diffuse, 0.7, 0.7, 0.7);
  set3(l->specular, 0.3, 0.3, 0.3);
  return l;
}

gsSpecMesh* gs_specAddMesh(gsSpec* spec) {
  gsSpecMesh* m = PUSH(gsSpecMesh, spec, mesh);
  if (!m) return NULL;
  m->refquat[0] = 1;
  set3(m->scale, 1, 1, 1);
  m->inertia = GS_MESHINERTIA_LEGACY;
  m->maxhullvert = -1;
  return m;
}

gsSpecHField* gs_specAddHField(gsSpec* spec) { return PUSH(gsSpecHField, spec, hfield); }

gsSpecTexture* gs_specAddTexture(gsSpec* spec) {
  gsSpecTexture* t = PUSH(gsSpecTexture, spec, texture);
  if (!t) return NULL;
  t->type = GS_TEXTURE_CUBE;
  set3(t->rgb1, 0.8, 0.8, 0.8);
  set3(t->rgb2, 0.5, 0.5, 0.5);
  t->random = 0.01;
  t->nchannel = 3;
  t->gridsize[0] = t->gridsize[1] = 1;
  memcpy(t->gridlayout, "............", 13);
  return t;
}

gsSpecMaterial* gs_specAddMaterial(gsSpec* spec) {
  gsSpecMaterial* m = PUSH(gsSpecMaterial, spec, material);
  if (!m) return NULL;
  m->texrepeat[0] = m->texrepeat[1] = 1;
  m->specular = 0.5;
  m->shininess = 0.5;
  m->metallic = -1;
  m->roughness = -1;
  set4(m->rgba, 1, 1, 1, 1);
  return m;
}

gsSpecPair* gs_specAddPair(gsSpec* spec) {
  gsSpecPair* p = PUSH(gsSpecPair, spec, pair);
  if (!p) return NULL;
  p->condim = 3;
  p->friction[0] = p->friction[1] = 1;
  p->friction[2] = 0.005;
  p->friction[3] = p->friction[4] = 0.0001;
  memcpy(p->solref, kSolref, sizeof(kSolref));
  memcpy(p->solimp, kSolimp, sizeof(kSolimp));
  return p;
}

gsSpecExclude* gs_specAddExclude(gsSpec* spec) { return PUSH(gsSpecExclude, spec, exclude); }

gsSpecAssetRef* gs_specAddAssetRef(gsSpecBody* body, const void* owner) {
  gsSpecAssetRef* r = PUSH(gsSpecAssetRef, body, assetref);
  if (r) r->owner = owner;
  return r;
}

gsSpecAssetRef* gs_specAssetRef(gsSpecBody* body, const void* owner) {
  for (int i = body->nassetref - 1; i >= 0; i--)
    if (body->assetref[i]->owner == owner) return body->assetref[i];
  return gs_specAddAssetRef(body, owner);
}

const gsSpecAssetRef* gs_specFindAssetRef(const gsSpecBody* body, const void* owner) {
  for (int i = 0; i < body->nassetref; i++)
    if (body->assetref[i]->owner == owner) return body->assetref[i];
  return NULL;
}

gsSpecFrame* gs_specAddFrame(gsSpecBody* body, gsSpecFrame* frame) {
  if (!body) return NULL;
  int inbody = frame == NULL;  /* (from the last: the enclosing frame is usually the newest) */
  for (int i = body->nframe - 1; i >= 0 && !inbody; i--) inbody = body->frame[i] == frame;
  if (!inbody) return NULL;
  gsSpecFrame* f = PUSH(gsSpecFrame, body, frame);
  if (!f) return NULL;
  f->frame = frame;
  f->quat[0] = f->bquat[0] = 1;
  return f;
}

void gs_specFrameBodyPose(const gsSpecFrame* f, gsReal pos[3], gsReal quat[4]) {
  if (f->placed) {
    memcpy(pos, f->bpos, 3 * sizeof(gsReal));
    memcpy(quat, f->bquat, 4 * sizeof(gsReal));
    return;
  }
  gsReal p[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0};
  if (f->frame) gs_specFrameBodyPose(f->frame, p, q);
  /* (pos, quat) = enclosing pose composed with the frame's own, quat normalised */
  gsReal r[3];
  gs_rotVecQuat(r, f->pos, q);
  for (int k = 0; k < 3; k++) pos[k] = p[k] + r[k];
  gs_mulQuat(quat, q, f->quat);
  gs_normalize4(quat);
}
