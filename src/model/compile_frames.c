/* MJCF's named <frame>s in the compiled model (frame_bodyid, frame_frameid, frame_nameadr into
 * framenames, a buffer of their own so that `names` stays as MuJoCo lays it out). A
 * frame places nothing here (the spec's elements hold their poses in the body already): the model
 * keeps the names and nesting so that MJCF written back names them as MJCF's writer does, inside
 * their body, without a pose. Unnamed frames are left out, as that writer leaves them; a named
 * frame inside one is written in the nearest named frame enclosing it. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "model/compile.h"

static int named(const gsSpecFrame* f) { return f->info.name && f->info.name[0]; }

int gs_compileSizesFrames(gsCompileCtx* c, gsModel* sz) {
  int n = 0;
  size_t bytes = 0;
  for (int b = 0; b < c->nbody; b++)
    for (int i = 0; i < c->body[b]->nframe; i++)
      if (named(c->body[b]->frame[i])) n++;
  /* names used once, as MJCF's (the reader checks its own; frames named through the spec API) */
  const gsSpecInfo** info = calloc((size_t)(n ? n : 1), sizeof(*info));
  if (!info) return gs_compileFail(c, NULL, "model", "out of memory");
  n = 0;
  for (int b = 0; b < c->nbody; b++)
    for (int i = 0; i < c->body[b]->nframe; i++)
      if (named(c->body[b]->frame[i])) {
        info[n++] = &c->body[b]->frame[i]->info;
        bytes += strlen(c->body[b]->frame[i]->info.name) + 1;
      }
  int ok = gs_compileUniqueInfos(c, info, n, "frame");
  free(info);
  if (ok && bytes > (size_t)INT_MAX / 2) ok = gs_compileFail(c, NULL, "model", "frame names of %zu bytes", bytes);
  sz->nframe = n;
  sz->nframenames = (int)bytes;
  return ok;
}

void gs_compileFrames(gsCompileCtx* c, gsModel* m) {
  int id = 0, adr = 0;
  for (int b = 0; b < c->nbody; b++) {
    const gsSpecBody* sb = c->body[b];
    int first = id;
    for (int i = 0; i < sb->nframe; i++) {
      const gsSpecFrame* f = sb->frame[i];
      if (!named(f)) continue;
      const gsSpecFrame* up = f->frame;
      while (up && !named(up)) up = up->frame;
      /* enclosing frames come first: the named one is among this body's ids so far */
      int parent = -1;
      for (int j = 0, k = first; up && j < i; j++) {
        if (!named(sb->frame[j])) continue;
        if (sb->frame[j] == up) parent = k;
        k++;
      }
      m->frame_bodyid[id] = b;
      m->frame_frameid[id] = parent;
      size_t len = strlen(f->info.name) + 1;
      memcpy(m->framenames + adr, f->info.name, len);
      m->frame_nameadr[id] = adr;
      adr += (int)len;
      id++;
    }
  }
}
