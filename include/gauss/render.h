/* gauss render: offscreen images of a model's state (colour, depth, segmentation). A library of
 * its own (libgauss_render) beside libgauss, which stays free of graphics. OpenGL comes from a
 * headless EGL context, else from OSMesa; both are opened at run time, so the library links no GL
 * library. The environment variable GAUSS_GL (egl or osmesa) picks one. */
#ifndef GAUSS_RENDER_H
#define GAUSS_RENDER_H

#include "gauss.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gsRenderer gsRenderer;

/* what gs_render writes: RGB bytes (3 per pixel), depth as float (metres along the view axis;
 * the far plane's distance where nothing is seen), segmentation as two ints per pixel
 * (object id, gsObject type; -1 -1 for the background). Rows top first, as images are stored. */
typedef enum { GS_RENDER_RGB = 0, GS_RENDER_DEPTH, GS_RENDER_SEGMENT } gsRenderMode;

/* the camera of a frame: a model camera (camid >= 0), or the free camera (camid -1), which looks
 * at `lookat` from `distance`, turned by azimuth about the vertical and tilted by elevation
 * (degrees, MJCF's convention: azimuth 90 looks along +y, elevation -45 looks down) */
typedef struct {
  int camid;
  double lookat[3];
  double distance, azimuth, elevation;
} gsRenderCamera;

/* what is drawn: groups 0..5 of geoms and sites (MJCF shows groups 0, 1 and 2 by default) */
typedef struct {
  int geomgroup[6];
  int sitegroup[6];
  int headlight;       /* the light that moves with the camera */
  int planegrid;       /* lines on planes, spaced by the material's texture repeat */
} gsRenderOption;

/* A renderer for images of width x height of model m, which must outlive it; NULL on error with
 * the reason in err (no GL back end, no memory). */
GS_API gsRenderer* gs_makeRenderer(const gsModel* m, int width, int height, char* err, int errsz);
GS_API void gs_freeRenderer(gsRenderer* r);
GS_API const char* gs_rendererBackend(const gsRenderer* r);   /* "egl" or "osmesa" */
GS_API gsRenderOption* gs_rendererOption(gsRenderer* r);

/* MJCF's default free camera: the model's centre (stat.center) from 1.5 stat.extent */
GS_API void gs_defaultFreeCamera(const gsModel* m, const gsData* d, gsRenderCamera* cam);

/* Copy the state of d (positions from the last forward pass) into the renderer's scene, seen
 * from cam. 0 when cam names no camera of the model. */
GS_API int gs_updateScene(gsRenderer* r, const gsData* d, const gsRenderCamera* cam);
/* Draw the scene into out (see gsRenderMode for its size and type). 0 on a GL error. */
GS_API int gs_render(gsRenderer* r, int mode, void* out);

#ifdef __cplusplus
}
#endif

#endif
