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
  int transparent;     /* every geom drawn half transparent */
  /* overlays (off by default): contact points and forces, body frames, body centres of mass,
   * joint axes, in the model's vis.rgba_* colours and vis.scale_* sizes; and fog (from
   * vis.fogstart to vis.fogend extents, to vis.rgba_fog) */
  int contactpoint, contactforce, frame, com, joint, fog;
  int tendongroup[6];  /* spatial tendons of these groups (0, 1, 2 by default) */
  int multisample;     /* colour images drawn with vis.offsamples samples per pixel (MJCF's
                        * offsamples), 1 by default; depth and segmentation never are */
  int shadow;          /* lights with castshadow cast shadows, up to four, through maps of
                        * vis.shadowsize pixels square (1 by default) */
  int rangefinder;     /* rangefinder rays: from the site along its z axis to what it measures
                        * (1 by default, as MJCF's viewers) */
  int reflection;      /* planes whose material has reflectance mirror the scene (1 by default) */
} gsRenderOption;

/* A renderer for images of width x height of model m, which must outlive it; NULL on error with
 * the reason in err (no GL back end, no memory). */
GS_API gsRenderer* gs_makeRenderer(const gsModel* m, int width, int height, char* err, int errsz);
GS_API void gs_freeRenderer(gsRenderer* r);
GS_API const char* gs_rendererBackend(const gsRenderer* r);   /* "egl" or "osmesa" */
GS_API gsRenderOption* gs_rendererOption(gsRenderer* r);

/* MJCF's default free camera: the model's centre (stat.center) from 1.5 stat.extent, turned by
 * vis.azimuth and vis.elevation */
GS_API void gs_defaultFreeCamera(const gsModel* m, const gsData* d, gsRenderCamera* cam);

/* Copy the state of d (positions from the last forward pass) into the renderer's scene, seen
 * from cam. 0 when cam names no camera of the model. */
GS_API int gs_updateScene(gsRenderer* r, const gsData* d, const gsRenderCamera* cam);
/* Draw the scene into out (see gsRenderMode for its size and type). 0 on a GL error. */
GS_API int gs_render(gsRenderer* r, int mode, void* out);

/* ---- the interactive viewer: a GLFW window (libglfw.so.3, opened at run time) showing the
 * renderer's images of a data; the caller steps the simulation and calls gs_viewerSync ---- */

typedef struct gsViewer gsViewer;

/* What the window asks of whoever steps (keys: space pauses, right arrow steps once while
 * paused, backspace resets, - and = halve and double the speed, [ and ] cycle the cameras,
 * 0..5 toggle geom groups, t transparency, c contact points, f contact forces, e body frames,
 * m centres of mass, j joints, h the text, page up / page down choose the keyframe that
 * backspace loads,
 * Escape closes); mouse: left drag orbits the free camera (on the speed slider: sets the speed),
 * right drag pans, the wheel zooms,
 * ctrl + left drag pulls a body with a spring, ctrl + right click tracks a body with the camera
 * (on the background: stops). */
typedef struct {
  int paused;
  int nstep;          /* single steps asked for while paused (the stepper counts them down) */
  int reset;          /* a reset asked for (the stepper clears it) */
  double speed;       /* wanted simulated seconds per real second */
  int camid;          /* -1: the free camera */
  gsRenderCamera free;
  int transparent;    /* draw every geom half transparent */
  int perturb_body;   /* body pulled by the mouse, -1: none */
  double perturb_target[3];   /* where it is pulled to (world) */
  double perturb_local[3];    /* the grabbed point, in the body's frame */
  int keyframe;       /* the keyframe a reset loads (page up and down choose; -1: the default state) */
  int track_body;     /* body the free camera follows (ctrl + right click), -1: none */
  int show_info;      /* the text of gs_viewerSync and the speed slider drawn over the image (h
                       * toggles) */
  int slider[4];      /* the speed slider's box in the image (x, y, width, height, pixels): a left
                       * press or drag there sets the speed, 1/64 at its left end to 64 at its
                       * right, by powers of two along it (1 in the middle) */
} gsViewerState;

/* A window of width x height for model m; NULL with the reason in err (no display, no GLFW). */
GS_API gsViewer* gs_makeViewer(const gsModel* m, int width, int height, const char* title,
                               char* err, int errsz);
GS_API void gs_freeViewer(gsViewer* v);
GS_API gsViewerState* gs_viewerState(gsViewer* v);
/* 1 while the window is open */
GS_API int gs_viewerRunning(const gsViewer* v);
/* Show d's state (its last forward pass) with the lines of `info` over it (its first line also
 * in the title bar), handle the window's events, and write the pulling force of a dragged body
 * into d->xfrc_applied (cleared when released). 0 once closed. */
GS_API int gs_viewerSync(gsViewer* v, gsData* d, const char* info);
/* The events of keys and the mouse, as the window delivers them (for scripts and tests): key is
 * a GLFW key code; button 0 left, 1 right; action 1 press, 0 release, 2 move; x y in pixels. */
GS_API void gs_viewerKey(gsViewer* v, int key, int mods);
GS_API void gs_viewerMouse(gsViewer* v, int button, int action, double x, double y, int mods);
/* the last image shown (RGB, rows top first, width x height) */
GS_API int gs_viewerScreenshot(const gsViewer* v, unsigned char* rgb);
/* Show an RGB image of any size (rows top first) in the window, scaled to it, and handle the
 * window's events: for frames drawn elsewhere (Gymnasium's human render mode). 0 once closed. */
GS_API int gs_viewerShowImage(gsViewer* v, const unsigned char* rgb, int width, int height);

#ifdef __cplusplus
}
#endif

#endif
