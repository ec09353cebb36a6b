/* The renderer's life and its images: context, geometry and GL objects made together; each image
 * drawn (draw.c) and read back, rows flipped to top first. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/renderer.h"

gsRenderer* gs_makeRenderer(const gsModel* m, int width, int height, char* err, int errsz) {
  char dummy[8];
  if (!err || errsz <= 0) err = dummy, errsz = sizeof dummy;
  err[0] = 0;
  if (!m || width < 1 || height < 1) {
    snprintf(err, (size_t)errsz, "renderer: need a model and a positive size (got %dx%d)", width, height);
    return NULL;
  }
  gsRenderer* r = calloc(1, sizeof *r);
  if (!r) {
    snprintf(err, (size_t)errsz, "renderer: out of memory");
    return NULL;
  }
  r->m = m;
  r->width = width;
  r->height = height;
  for (int g = 0; g < 6; g++) r->opt.geomgroup[g] = r->opt.sitegroup[g] = r->opt.tendongroup[g] = g < 3;
  r->opt.headlight = 1;
  r->opt.multisample = 1;
  r->opt.shadow = 1;
  r->opt.rangefinder = 1;
  r->opt.reflection = 1;
  r->opt.planegrid = 1;
  /* tessellation of round shapes: <visual><quality numslices numstacks> */
  /* MJCF takes any numbers here; the renderer draws with at least 3 slices and 2 stacks, and at
   * most 1000 of each */
  int slices = m->vis.numslices < 3 ? 3 : m->vis.numslices > 1000 ? 1000 : m->vis.numslices;
  int stacks = m->vis.numstacks < 2 ? 2 : m->vis.numstacks > 1000 ? 1000 : m->vis.numstacks;
  if (!gsr_buildGeometry(&r->geom, m, slices, stacks)) {
    snprintf(err, (size_t)errsz, "renderer: out of memory");
    gs_freeRenderer(r);
    return NULL;
  }
  if (!gsr_contextMake(&r->ctx, err, errsz) || !gsr_loadGL(&r->ctx, &r->gl, err, errsz) ||
      !gsr_setupGL(r, err, errsz)) {
    gs_freeRenderer(r);
    return NULL;
  }
  snprintf(r->backend, sizeof r->backend, "%s", r->ctx.backend == GSR_BACKEND_EGL ? "egl" : "osmesa");
  return r;
}

void gs_freeRenderer(gsRenderer* r) {
  if (!r) return;
  if (r->ctx.backend && gsr_contextCurrent(&r->ctx)) gsr_freeGL(r);
  gsr_contextFree(&r->ctx);
  gsr_freeGeometry(&r->geom);
  free(r->texture);  /* the GL textures went with the context */
  free(r->scene.geom);
  free(r);
}

const char* gs_rendererBackend(const gsRenderer* r) { return r->backend; }

gsRenderOption* gs_rendererOption(gsRenderer* r) { return &r->opt; }

int gs_render(gsRenderer* r, int mode, void* out) {
  if (mode < GS_RENDER_RGB || mode > GS_RENDER_SEGMENT || !out) return 0;
  if (!gsr_contextCurrent(&r->ctx)) return 0;
  gsrGL* gl = &r->gl;
  if (!gsr_draw(r, mode)) return 0;
  int w = r->width, h = r->height;
  gl->glPixelStorei(GL_PACK_ALIGNMENT, 1);
  if (mode == GS_RENDER_RGB) {
    unsigned char* px = out;
    gl->glReadBuffer(GL_COLOR_ATTACHMENT0);
    gl->glReadPixels(0, 0, w, h, GL_RGB, GL_UNSIGNED_BYTE, px);
    /* GL's rows are bottom first */
    size_t row = 3 * (size_t)w;
    unsigned char* tmp = malloc(row);
    if (!tmp) return 0;
    for (int y = 0; y < h / 2; y++) {
      memcpy(tmp, px + row * y, row);
      memcpy(px + row * y, px + row * (h - 1 - y), row);
      memcpy(px + row * (h - 1 - y), tmp, row);
    }
    free(tmp);
  } else if (mode == GS_RENDER_DEPTH) {
    float* px = out;
    gl->glReadBuffer(GL_COLOR_ATTACHMENT1);
    gl->glReadPixels(0, 0, w, h, GL_RED, GL_FLOAT, px);
    size_t row = sizeof(float) * (size_t)w;
    float* tmp = malloc(row);
    if (!tmp) return 0;
    for (int y = 0; y < h / 2; y++) {
      memcpy(tmp, px + (size_t)w * y, row);
      memcpy(px + (size_t)w * y, px + (size_t)w * (h - 1 - y), row);
      memcpy(px + (size_t)w * (h - 1 - y), tmp, row);
    }
    free(tmp);
  } else {
    unsigned char* rgba = malloc(4 * (size_t)w * h);
    if (!rgba) return 0;
    gl->glReadBuffer(GL_COLOR_ATTACHMENT0);
    gl->glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    int* seg = out;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        const unsigned char* c = rgba + 4 * ((size_t)(h - 1 - y) * w + x);
        int k = (int)(c[0] | c[1] << 8 | c[2] << 16) - 1;
        int* o = seg + 2 * ((size_t)y * w + x);
        if (k >= 0 && k < r->scene.ngeom) {
          o[0] = r->scene.geom[k].objid;
          o[1] = r->scene.geom[k].objtype;
        } else {
          o[0] = o[1] = -1;
        }
      }
    free(rgba);
  }
  return gl->glGetError() == GL_NO_ERROR;
}
