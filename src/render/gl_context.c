/* The GL context: a headless EGL display (the device platform, then Mesa's surfaceless one, then
 * the default display) with an OpenGL 3.3 core context, else OSMesa. The libraries are opened
 * with dlopen so that the renderer links no GL library and loads when none is installed; the GL
 * entry points come from the back end's GetProcAddress. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "render/renderer.h"

/* ---- EGL ---- */

typedef EGLDisplay (*GetPlatformDisplay)(EGLenum, void*, const EGLint*);
typedef EGLBoolean (*QueryDevices)(EGLint, EGLDeviceEXT*, EGLint*);
typedef EGLBoolean (*Initialize)(EGLDisplay, EGLint*, EGLint*);
typedef EGLBoolean (*BindAPI)(EGLenum);
typedef EGLBoolean (*ChooseConfig)(EGLDisplay, const EGLint*, EGLConfig*, EGLint, EGLint*);
typedef EGLContext (*CreateContext)(EGLDisplay, EGLConfig, EGLContext, const EGLint*);
typedef EGLSurface (*CreatePbuffer)(EGLDisplay, EGLConfig, const EGLint*);
typedef EGLBoolean (*MakeCurrent)(EGLDisplay, EGLSurface, EGLSurface, EGLContext);
typedef EGLBoolean (*DestroyContext)(EGLDisplay, EGLContext);
typedef EGLBoolean (*DestroySurface)(EGLDisplay, EGLSurface);
typedef EGLBoolean (*Terminate)(EGLDisplay);
typedef EGLDisplay (*GetDisplay)(EGLNativeDisplayType);
typedef void* (*GetProc)(const char*);

static int egl_try_display(gsrContext* c, EGLDisplay dpy) {
  GetProc gp = (GetProc)dlsym(c->lib, "eglGetProcAddress");
  Initialize init = (Initialize)gp("eglInitialize");
  BindAPI bind = (BindAPI)gp("eglBindAPI");
  ChooseConfig choose = (ChooseConfig)gp("eglChooseConfig");
  CreateContext create = (CreateContext)gp("eglCreateContext");
  CreatePbuffer pbuffer = (CreatePbuffer)gp("eglCreatePbufferSurface");
  MakeCurrent current = (MakeCurrent)gp("eglMakeCurrent");
  if (dpy == EGL_NO_DISPLAY || !init || !bind || !choose || !create || !current) return 0;
  EGLint major, minor;
  if (!init(dpy, &major, &minor)) return 0;
  if (!bind(EGL_OPENGL_API)) return 0;
  static const EGLint kConfig[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                   EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                   EGL_BLUE_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_NONE};
  EGLConfig cfg;
  EGLint n = 0;
  if (!choose(dpy, kConfig, &cfg, 1, &n) || n < 1) return 0;
  static const EGLint kCtx[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext ctx = create(dpy, cfg, EGL_NO_CONTEXT, kCtx);
  if (ctx == EGL_NO_CONTEXT) return 0;
  c->display = dpy;
  c->context = ctx;
  c->surface = EGL_NO_SURFACE;
  c->makecurrent = (int (*)(void*, void*, void*, void*))current;
  /* every image goes to a framebuffer object: no surface is needed where the driver allows it */
  if (!current(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    static const EGLint kPb[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    c->surface = pbuffer ? pbuffer(dpy, cfg, kPb) : EGL_NO_SURFACE;
    if (c->surface == EGL_NO_SURFACE || !current(dpy, c->surface, c->surface, ctx)) return 0;
  }
  c->getproc = gp;
  return 1;
}

static int egl_make(gsrContext* c) {
  c->lib = dlopen("libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!c->lib) return 0;
  GetProc gp = (GetProc)dlsym(c->lib, "eglGetProcAddress");
  if (!gp) return 0;
  c->backend = GSR_BACKEND_EGL;
  GetPlatformDisplay platform = (GetPlatformDisplay)gp("eglGetPlatformDisplayEXT");
  QueryDevices devices = (QueryDevices)gp("eglQueryDevicesEXT");
  /* the first device (a GPU, or Mesa's software device), then surfaceless, then the default */
  if (platform && devices) {
    EGLDeviceEXT dev[8];
    EGLint ndev = 0;
    if (devices(8, dev, &ndev))
      for (int i = 0; i < ndev; i++)
        if (egl_try_display(c, platform(EGL_PLATFORM_DEVICE_EXT, dev[i], NULL))) return 1;
  }
  if (platform && egl_try_display(c, platform(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)))
    return 1;
  GetDisplay get = (GetDisplay)gp("eglGetDisplay");
  return get && egl_try_display(c, get(EGL_DEFAULT_DISPLAY));
}

/* ---- OSMesa (declared here: its header pulls in the compatibility GL header) ---- */

#define GSR_OSMESA_FORMAT 0x22
#define GSR_OSMESA_RGBA 0x1908
#define GSR_OSMESA_DEPTH_BITS 0x30
#define GSR_OSMESA_PROFILE 0x33
#define GSR_OSMESA_CORE_PROFILE 0x34
#define GSR_OSMESA_CONTEXT_MAJOR_VERSION 0x36
#define GSR_OSMESA_CONTEXT_MINOR_VERSION 0x37

typedef void* (*OSCreate)(const int*, void*);
typedef unsigned char (*OSMakeCurrent)(void*, void*, unsigned, int, int);
typedef void (*OSDestroy)(void*);

static int osmesa_current(gsrContext* c) {
  OSMakeCurrent mc = (OSMakeCurrent)dlsym(c->lib, "OSMesaMakeCurrent");
  return mc && mc(c->context, c->osbuf, GL_UNSIGNED_BYTE, 1, 1);
}

static int osmesa_make(gsrContext* c) {
  c->lib = dlopen("libOSMesa.so.8", RTLD_NOW | RTLD_LOCAL);
  if (!c->lib) c->lib = dlopen("libOSMesa.so", RTLD_NOW | RTLD_LOCAL);
  if (!c->lib) return 0;
  c->backend = GSR_BACKEND_OSMESA;
  OSCreate create = (OSCreate)dlsym(c->lib, "OSMesaCreateContextAttribs");
  c->getproc = (GetProc)dlsym(c->lib, "OSMesaGetProcAddress");
  if (!create || !c->getproc) return 0;
  static const int kAttr[] = {GSR_OSMESA_FORMAT, GSR_OSMESA_RGBA, GSR_OSMESA_DEPTH_BITS, 24,
                              GSR_OSMESA_PROFILE, GSR_OSMESA_CORE_PROFILE,
                              GSR_OSMESA_CONTEXT_MAJOR_VERSION, 3,
                              GSR_OSMESA_CONTEXT_MINOR_VERSION, 3, 0};
  c->context = create(kAttr, NULL);
  if (!c->context) return 0;
  c->osbuf = calloc(4, 1);
  return c->osbuf && osmesa_current(c);
}

/* ---- the context ---- */

int gsr_contextMake(gsrContext* c, char* err, int errsz) {
  memset(c, 0, sizeof *c);
  const char* want = getenv("GAUSS_GL");
  int egl = !want || !*want || strcmp(want, "egl") == 0;
  int osmesa = !want || !*want || strcmp(want, "osmesa") == 0;
  if (!egl && !osmesa) {
    snprintf(err, (size_t)errsz, "GAUSS_GL=%s: expected egl or osmesa", want);
    return 0;
  }
  if (egl) {
    if (egl_make(c)) return 1;
    gsr_contextFree(c);
  }
  if (osmesa) {
    if (osmesa_make(c)) return 1;
    gsr_contextFree(c);
  }
  snprintf(err, (size_t)errsz,
           "no OpenGL 3.3 context: tried %s%s%s (Debian: libegl1 and libgl1-mesa-dri, or "
           "libosmesa6)", egl ? "EGL" : "", egl && osmesa ? " and " : "", osmesa ? "OSMesa" : "");
  return 0;
}

int gsr_contextCurrent(gsrContext* c) {
  if (c->backend == GSR_BACKEND_EGL)
    return c->makecurrent(c->display, c->surface, c->surface, c->context) != 0;
  if (c->backend == GSR_BACKEND_OSMESA) return osmesa_current(c);
  return 0;
}

void gsr_contextRelease(gsrContext* c) {
  if (c->backend == GSR_BACKEND_EGL)
    c->makecurrent(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void gsr_contextFree(gsrContext* c) {
  if (c->lib && c->backend == GSR_BACKEND_EGL && c->display) {
    GetProc gp = (GetProc)dlsym(c->lib, "eglGetProcAddress");
    MakeCurrent mc = (MakeCurrent)gp("eglMakeCurrent");
    if (mc) mc(c->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    DestroyContext dc = (DestroyContext)gp("eglDestroyContext");
    DestroySurface ds = (DestroySurface)gp("eglDestroySurface");
    if (c->surface != EGL_NO_SURFACE && ds) ds(c->display, c->surface);
    if (c->context && dc) dc(c->display, c->context);
    /* the display is left initialized: EGL shares it between every user of the process */
  }
  if (c->lib && c->backend == GSR_BACKEND_OSMESA && c->context) {
    OSDestroy d = (OSDestroy)dlsym(c->lib, "OSMesaDestroyContext");
    if (d) d(c->context);
  }
  free(c->osbuf);
  /* the library stays loaded: GL drivers keep per-process state (and threads) that unloading
   * them under would leave dangling; dlopen hands the same one to the next renderer */
  memset(c, 0, sizeof *c);
}

int gsr_loadGL(gsrContext* c, gsrGL* gl, char* err, int errsz) {
#define GSR_GL_LOAD(ret, name, args)                                                   \
  gl->name = (ret(APIENTRY*) args)c->getproc(#name);                                   \
  if (!gl->name) {                                                                     \
    snprintf(err, (size_t)errsz, "the OpenGL back end lacks %s", #name);               \
    return 0;                                                                          \
  }
  GSR_GL_FUNCS(GSR_GL_LOAD)
#undef GSR_GL_LOAD
  return 1;
}
