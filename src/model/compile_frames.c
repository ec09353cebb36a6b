/* MJCF's <frame>s in the compiled model: every frame of every body (frame_bodyid, frame_frameid,
 * frame_nameadr into framenames, a buffer of their own so that `names` stays as MuJoCo lays it
 * out) and the frame each body, joint, geom, site, camera and light is written in (*_frameid). A
 * frame places nothing here (the spec's elements hold their poses in the body already): the model
 * keeps the nesting so that MJCF written back nests the elements in their frames as MJCF's writer
 * does. Unnamed frames are kept too: that writer leaves them out but writes what they hold where
 * they stand among their siblings (src/mjcf/xml_write.c). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model/compile.h"

static int named(const gsSpecFrame* f) { return f->info.name && f->info.name[0]; }

int gs_compileSizesFrames(gsCompileCtx* c, gsModel* sz) {
  int n = 0, nnamed = 0;
  size_t bytes = 0;
  for (int b = 0; b < c->nbody; b++)
    for (int i = 0; i < c->body[b]->nframe; i++) {
      const gsSpecFrame* f = c->body[b]->frame[i];
      n++;
      bytes += named(f) ? strlen(f->info.name) + 1 : 1;
      nnamed += named(f);
    }
  /* names used once, as MJCF's (the reader checks its own; frames named through the spec API) */
  const gsSpecInfo** info = calloc((size_t)(nnamed ? nnamed : 1), sizeof(*info));
  if (!info) return gs_compileFail(c, NULL, "model", "out of memory");
  nnamed = 0;
  for (int b = 0; b < c->nbody; b++)
    for (int i = 0; i < c->body[b]->nframe; i++)
      if (named(c->body[b]->frame[i])) info[nnamed++] = &c->body[b]->frame[i]->info;
  int ok = gs_compileUniqueInfos(c, info, nnamed, "frame");
  free(info);
  if (ok && (bytes > (size_t)INT_MAX / 2 || n > INT_MAX / 2))
    ok = gs_compileFail(c, NULL, "model", "%d frames, names of %zu bytes", n, bytes);
  sz->nframe = n;
  sz->nframenames = (int)bytes;
  return ok;
}

/* the id of frame f of body b (first: the id of b's first frame), -1 when f is none of b's (a
 * frame of a body fusestatic removed). *at is where the last one was found: elements come mostly
 * in the order of their frames, so a body of thousands of replicas stays linear */
static int frame_id(const gsSpecBody* b, int first, const gsSpecFrame* f, int* at) {
  int n = b->nframe;
  if (!f || n == 0) return -1;
  for (int i = 0; i < n; i++) {
    int k = (*at + i) % n;
    if (b->frame[k] == f) {
      *at = k;
      return first + k;
    }
  }
  return -1;
}

int gs_compileFrames(gsCompileCtx* c, gsModel* m) {
  int id = 0, adr = 0, jnt = 0, geom = 0, site = 0, cam = 0, light = 0;
  /* each body's first frame id, and where its children's frames were last found */
  int* first = calloc(2 * (size_t)(c->nbody ? c->nbody : 1), sizeof(int));
  if (!first) return gs_compileFail(c, NULL, "model", "out of memory");
  int* last = first + c->nbody;
  for (int b = 0; b < c->nbody; b++) {
    const gsSpecBody* sb = c->body[b];
    first[b] = id;
    int at = 0;
    for (int i = 0; i < sb->nframe; i++, id++) {
      const gsSpecFrame* f = sb->frame[i];
      /* enclosing frames come first: among this body's so far */
      int k = i - 1;
      while (f->frame && k >= 0 && sb->frame[k] != f->frame) k--;
      m->frame_bodyid[id] = b;
      m->frame_frameid[id] = f->frame && k >= 0 ? id - i + k : -1;
      const char* name = named(f) ? f->info.name : "";
      size_t len = strlen(name) + 1;
      memcpy(m->framenames + adr, name, len);
      m->frame_nameadr[id] = adr;
      adr += (int)len;
    }
    /* what the body holds, in the compiled order (the spec's, body by body) */
    int base = id - sb->nframe;
    for (int i = 0; i < sb->njoint && jnt < m->njnt; i++)
      m->jnt_frameid[jnt++] = frame_id(sb, base, sb->joint[i]->frame, &at);
    for (int i = 0; i < sb->ngeom && geom < m->ngeom; i++)
      m->geom_frameid[geom++] = frame_id(sb, base, sb->geom[i]->frame, &at);
    for (int i = 0; i < sb->nsite && site < m->nsite; i++)
      m->site_frameid[site++] = frame_id(sb, base, sb->site[i]->frame, &at);
    for (int i = 0; i < sb->ncamera && cam < m->ncam; i++)
      m->cam_frameid[cam++] = frame_id(sb, base, sb->camera[i]->frame, &at);
    for (int i = 0; i < sb->nlight && light < m->nlight; i++)
      m->light_frameid[light++] = frame_id(sb, base, sb->light[i]->frame, &at);
  }
  /* a body's frame is one of its parent's (bodies are numbered after their parents) */
  m->body_frameid[0] = -1;
  for (int b = 1; b < c->nbody; b++) {
    int p = m->body_parentid[b];
    m->body_frameid[b] = frame_id(c->body[p], first[p], c->body[b]->inframe, last + p);
  }
  free(first);
  return 1;
}
