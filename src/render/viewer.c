/* The interactive viewer: a GLFW window (libglfw.so.3, opened at run time like the GL back ends)
 * that shows the offscreen renderer's colour image of a data with glDrawPixels. Events change the
 * viewer's state (gsViewerState): the camera directly, the simulation through flags that the
 * stepping loop reads (pause, single steps, reset, speed); a ctrl + left drag pulls a body with a
 * spring whose force gs_viewerSync writes into xfrc_applied. */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/renderer.h"

/* GLFW's constants (glfw3.h), so that the library builds without GLFW's headers */
enum {
  KEY_SPACE = 32, KEY_MINUS = 45, KEY_0 = 48, KEY_5 = 53, KEY_EQUAL = 61, KEY_LBRACKET = 91,
  KEY_RBRACKET = 93, KEY_C = 67, KEY_E = 69, KEY_F = 70, KEY_H = 72, KEY_J = 74, KEY_M = 77, KEY_T = 84,
  KEY_ESCAPE = 256, KEY_BACKSPACE = 259, KEY_RIGHT = 262, KEY_PAGE_UP = 266, KEY_PAGE_DOWN = 267,
  PRESS = 1, RELEASE = 0, REPEAT = 2, MOD_CONTROL = 0x0002, HINT_RESIZABLE = 0x00020003,
  HINT_VISIBLE = 0x00020004
};
#define PI 3.14159265358979323846

typedef struct {
  int (*Init)(void);
  void (*Terminate)(void);
  void (*WindowHint)(int, int);
  void* (*CreateWindow)(int, int, const char*, void*, void*);
  void (*DestroyWindow)(void*);
  int (*WindowShouldClose)(void*);
  void (*SetWindowShouldClose)(void*, int);
  void (*MakeContextCurrent)(void*);
  void (*SwapBuffers)(void*);
  void (*PollEvents)(void);
  void* (*GetProcAddress)(const char*);
  void (*SetWindowUserPointer)(void*, void*);
  void* (*GetWindowUserPointer)(void*);
  void* (*SetKeyCallback)(void*, void (*)(void*, int, int, int, int));
  void* (*SetMouseButtonCallback)(void*, void (*)(void*, int, int, int));
  void* (*SetCursorPosCallback)(void*, void (*)(void*, double, double));
  void* (*SetScrollCallback)(void*, void (*)(void*, double, double));
  void (*GetCursorPos)(void*, double*, double*);
  void (*SetWindowTitle)(void*, const char*);
  void (*GetFramebufferSize)(void*, int*, int*);
  int (*GetError)(const char**);
} Glfw;

struct gsViewer {
  const gsModel* m;
  int width, height;
  void* lib;
  Glfw f;
  void* window;
  gsRenderer* r;
  gsViewerState st;
  unsigned char* rgb;
  int have_image;
  /* mouse */
  int button;            /* held: 0 left, 1 right, -1 none */
  int mods;
  double mx, my;
  /* the window's GL */
  void (*glDrawPixels)(int, int, unsigned, unsigned, const void*);
  void (*glWindowPos2i)(int, int);
  void (*glPixelZoom)(float, float);
  void (*glClear)(unsigned);
  void (*glViewport)(int, int, int, int);
  /* the data last shown (for picking) */
  const gsData* d;
  int pulled;            /* body whose xfrc_applied the last sync set, -1: none */
};

/* ---- the free camera and picking ---- */

static void cam_frame(const gsRenderCamera* c, double pos[3], double fwd[3], double up[3], double right[3]) {
  double ca = cos(c->azimuth * PI / 180), sa = sin(c->azimuth * PI / 180);
  double ce = cos(c->elevation * PI / 180), se = sin(c->elevation * PI / 180);
  fwd[0] = ce * ca, fwd[1] = ce * sa, fwd[2] = se;
  up[0] = -se * ca, up[1] = -se * sa, up[2] = ce;
  right[0] = fwd[1] * up[2] - fwd[2] * up[1];
  right[1] = fwd[2] * up[0] - fwd[0] * up[2];
  right[2] = fwd[0] * up[1] - fwd[1] * up[0];
  for (int k = 0; k < 3; k++) pos[k] = c->lookat[k] - c->distance * fwd[k];
}

/* the world point under pixel (x, y) at view depth z, seen by the renderer's last scene */
static void unproject(const gsViewer* v, double x, double y, double z, double out[3]) {
  const gsrScene* s = &v->r->scene;
  double t = tan(0.5 * s->fovy * PI / 180);
  double ny = 1 - 2 * (y + 0.5) / v->height, nx = 2 * (x + 0.5) / v->width - 1;
  double cx = nx * t * v->width / v->height * z, cy = ny * t * z;
  for (int k = 0; k < 3; k++)
    out[k] = s->campos[k] + cx * s->cammat[3 * k] + cy * s->cammat[3 * k + 1] - z * s->cammat[3 * k + 2];
}

/* the body under pixel (x, y) (-1: none or the world), and the grabbed point's state */
static int pick(gsViewer* v, double x, double y, int grab) {
  int found = -1;
  if (grab) v->st.perturb_body = -1;
  int px = (int)x, py = (int)y;
  if (!v->d || px < 0 || py < 0 || px >= v->width || py >= v->height) return -1;
  int* seg = malloc(sizeof(int) * 2 * (size_t)v->width * v->height);
  float* depth = malloc(sizeof(float) * (size_t)v->width * v->height);
  if (seg && depth && gs_render(v->r, GS_RENDER_SEGMENT, seg) && gs_render(v->r, GS_RENDER_DEPTH, depth)) {
    const int* o = seg + 2 * ((size_t)py * v->width + px);
    int body = o[1] == GS_OBJ_GEOM ? v->m->geom_bodyid[o[0]] : -1;
    if (body > 0) found = body;
    if (body > 0 && grab) {
      double p[3];
      unproject(v, x, y, depth[(size_t)py * v->width + px], p);
      /* the grabbed point in the body's frame */
      const gsReal* xp = v->d->xpos + 3 * body;
      const gsReal* R = v->d->xmat + 9 * body;
      for (int i = 0; i < 3; i++) {
        v->st.perturb_local[i] = 0;
        for (int k = 0; k < 3; k++) v->st.perturb_local[i] += R[3 * k + i] * (p[k] - xp[k]);
        v->st.perturb_target[i] = p[i];
      }
      v->st.perturb_body = body;
    }
  }
  free(seg);
  free(depth);
  return found;
}

/* the pulling target follows the mouse in the plane through it parallel to the image */
static void drag_target(gsViewer* v, double x, double y) {
  const gsrScene* s = &v->r->scene;
  double z = 0;
  for (int k = 0; k < 3; k++) z -= (v->st.perturb_target[k] - s->campos[k]) * s->cammat[3 * k + 2];
  unproject(v, x, y, z, v->st.perturb_target);
}

/* ---- events ---- */

void gs_viewerKey(gsViewer* v, int key, int mods) {
  (void)mods;
  gsViewerState* st = &v->st;
  gsRenderOption* opt = gs_rendererOption(v->r);
  if (key == KEY_SPACE) st->paused = !st->paused;
  else if (key == KEY_RIGHT && st->paused) st->nstep++;
  else if (key == KEY_BACKSPACE) st->reset = 1;
  else if (key == KEY_MINUS) st->speed = fmax(st->speed / 2, 1.0 / 64);
  else if (key == KEY_EQUAL) st->speed = fmin(st->speed * 2, 64);
  else if (key == KEY_RBRACKET) st->camid = st->camid + 1 < v->m->ncam ? st->camid + 1 : -1;
  else if (key == KEY_LBRACKET) st->camid = st->camid > -1 ? st->camid - 1 : v->m->ncam - 1;
  else if (key >= KEY_0 && key <= KEY_5) opt->geomgroup[key - KEY_0] = !opt->geomgroup[key - KEY_0];
  else if (key == KEY_T) opt->transparent = st->transparent = !st->transparent;
  else if (key == KEY_H) st->show_info = !st->show_info;
  else if (key == KEY_C) opt->contactpoint = !opt->contactpoint;
  else if (key == KEY_F) opt->contactforce = !opt->contactforce;
  else if (key == KEY_E) opt->frame = !opt->frame;
  else if (key == KEY_M) opt->com = !opt->com;
  else if (key == KEY_J) opt->joint = !opt->joint;
  else if (key == KEY_PAGE_UP) st->keyframe = st->keyframe + 1 < v->m->nkey ? st->keyframe + 1 : -1;
  else if (key == KEY_PAGE_DOWN) st->keyframe = st->keyframe > -1 ? st->keyframe - 1 : v->m->nkey - 1;
  else if (key == KEY_ESCAPE && v->window) v->f.SetWindowShouldClose(v->window, 1);
}

/* ---- the speed slider: log2(speed) from -6 at the left end of the bar to 6 at its right ---- */

#define SLIDER_BUTTON 2  /* v->button while the slider's knob is dragged */

static int on_slider(const gsViewer* v, double x, double y) {
  const int* b = v->st.slider;
  return v->st.show_info && x >= b[0] - 4 && x <= b[0] + b[2] + 4 && y >= b[1] && y <= b[1] + b[3];
}

static void slide(gsViewer* v, double x) {
  const int* b = v->st.slider;
  double f = fmin(1, fmax(0, (x - b[0]) / b[2]));
  v->st.speed = pow(2, 12 * f - 6);
}

/* the bar, its filled part up to the knob, the knob and the speed beside it, into the image */
static void draw_slider(gsViewer* v) {
  const int* b = v->st.slider;
  int knob = b[0] + (int)lround((log2(v->st.speed) + 6) / 12 * b[2]);
  for (int y = b[1]; y < b[1] + b[3]; y++)
    for (int x = b[0] - 3; x <= b[0] + b[2] + 3; x++) {
      if (x < 0 || x >= v->width || y < 0 || y >= v->height) continue;
      unsigned char* p = v->rgb + 3 * ((size_t)y * (size_t)v->width + (size_t)x);
      int mid = abs(2 * (y - b[1]) - b[3] + 1) <= 3;  /* the bar: 4 pixels about the middle */
      if (abs(x - knob) <= 2) p[0] = p[1] = p[2] = 240;
      else if (mid && x >= b[0] && x <= b[0] + b[2]) {
        p[0] = x < knob ? 90 : 60;
        p[1] = x < knob ? 160 : 60;
        p[2] = x < knob ? 230 : 60;
      }
    }
  char text[32];
  snprintf(text, sizeof text, "%gX", v->st.speed);
  gsr_drawText(v->rgb, v->width, v->height, b[0] + b[2] + 8, b[1] + (b[3] - 7) / 2, 1, text);
}

void gs_viewerMouse(gsViewer* v, int button, int action, double x, double y, int mods) {
  gsViewerState* st = &v->st;
  if (action == PRESS && button == 0 && !(mods & MOD_CONTROL) && on_slider(v, x, y)) {
    v->button = SLIDER_BUTTON;
    slide(v, x);
  } else if (action == PRESS) {
    v->button = button;
    v->mods = mods;
    if (button == 0 && (mods & MOD_CONTROL)) pick(v, x, y, 1);
    if (button == 1 && (mods & MOD_CONTROL)) {
      st->track_body = pick(v, x, y, 0);
      v->button = -1;  /* a click, not a pan */
    }
  } else if (action == RELEASE) {
    v->button = -1;
    st->perturb_body = -1;
  } else if (v->button >= 0) {
    double dx = x - v->mx, dy = y - v->my;
    if (v->button == SLIDER_BUTTON) {
      slide(v, x);
    } else if (st->perturb_body >= 0) {
      drag_target(v, x, y);
    } else if (st->camid < 0 && v->button == 0) {
      st->free.azimuth -= 180 * dx / v->height;
      st->free.elevation = fmin(89, fmax(-89, st->free.elevation - 180 * dy / v->height));
    } else if (st->camid < 0 && v->button == 1) {
      double pos[3], fwd[3], up[3], right[3];
      cam_frame(&st->free, pos, fwd, up, right);
      double scale = 2 * st->free.distance * tan(22.5 * PI / 180) / v->height;
      for (int k = 0; k < 3; k++) st->free.lookat[k] += scale * (-dx * right[k] + dy * up[k]);
    }
  }
  v->mx = x;
  v->my = y;
}

/* GLFW's callbacks find their viewer through the window's user pointer; GLFW is one per
 * process, and so is this pointer to its accessor */
static void* (*get_user)(void*);

static void on_key(void* w, int key, int scancode, int action, int mods) {
  (void)scancode;
  if (action == PRESS || action == REPEAT) gs_viewerKey(get_user(w), key, mods);
}

static void on_button(void* w, int button, int action, int mods) {
  gsViewer* v = get_user(w);
  double x, y;
  v->f.GetCursorPos(w, &x, &y);
  gs_viewerMouse(v, button, action, x, y, mods);
}

static void on_move(void* w, double x, double y) { gs_viewerMouse(get_user(w), -1, 2, x, y, 0); }

static void on_scroll(void* w, double dx, double dy) {
  (void)dx;
  gsViewer* v = get_user(w);
  if (v->st.camid < 0) v->st.free.distance *= pow(0.9, dy);
}

/* ---- life ---- */

gsViewer* gs_makeViewer(const gsModel* m, int width, int height, const char* title, char* err,
                        int errsz) {
  char dummy[8];
  if (!err || errsz <= 0) err = dummy, errsz = sizeof dummy;
  err[0] = 0;
  const char* display = getenv("DISPLAY");
  const char* wayland = getenv("WAYLAND_DISPLAY");
  if ((!display || !*display) && (!wayland || !*wayland)) {
    snprintf(err, (size_t)errsz, "viewer: no display (DISPLAY is not set); for images without a "
             "window use the offscreen renderer (gauss render, gauss.Renderer), or run under Xvfb");
    return NULL;
  }
  gsViewer* v = calloc(1, sizeof *v);
  if (!v) return NULL;
  v->m = m;
  v->width = width;
  v->height = height;
  v->button = -1;
  v->st.speed = 1;
  v->st.camid = -1;
  v->st.perturb_body = -1;
  v->st.keyframe = -1;
  v->st.show_info = 1;
  /* the speed slider: along the bottom left, a third of the width, 9 pixels high */
  v->st.slider[2] = width / 3 > 240 ? 240 : width / 3;
  v->st.slider[3] = 9;
  v->st.slider[0] = 8;
  v->st.slider[1] = height - v->st.slider[3] - 6;
  v->st.track_body = -1;
  v->pulled = -1;
  v->lib = dlopen("libglfw.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!v->lib) {
    snprintf(err, (size_t)errsz, "viewer: cannot open libglfw.so.3 (Debian: libglfw3)");
    gs_freeViewer(v);
    return NULL;
  }
#define SYM(name)                                                                   \
  *(void**)&v->f.name = dlsym(v->lib, "glfw" #name);                                \
  if (!v->f.name) {                                                                 \
    snprintf(err, (size_t)errsz, "viewer: libglfw.so.3 lacks glfw%s", #name);       \
    gs_freeViewer(v);                                                               \
    return NULL;                                                                    \
  }
  SYM(Init) SYM(Terminate) SYM(WindowHint) SYM(CreateWindow) SYM(DestroyWindow)
  SYM(WindowShouldClose) SYM(SetWindowShouldClose) SYM(MakeContextCurrent) SYM(SwapBuffers)
  SYM(PollEvents) SYM(GetProcAddress) SYM(SetWindowUserPointer) SYM(GetWindowUserPointer)
  SYM(SetKeyCallback) SYM(SetMouseButtonCallback) SYM(SetCursorPosCallback) SYM(SetScrollCallback)
  SYM(GetCursorPos) SYM(SetWindowTitle) SYM(GetFramebufferSize) SYM(GetError)
#undef SYM
  if (!v->f.Init()) {
    const char* why = NULL;
    v->f.GetError(&why);
    snprintf(err, (size_t)errsz, "viewer: GLFW cannot start: %s", why ? why : "no reason given");
    dlclose(v->lib);
    v->lib = NULL;
    gs_freeViewer(v);
    return NULL;
  }
  /* the offscreen renderer first: its context is not the window's */
  v->r = gs_makeRenderer(m, width, height, err, errsz);
  v->rgb = malloc(3 * (size_t)width * height);
  if (!v->r || !v->rgb) {
    gs_freeViewer(v);
    return NULL;
  }
  gsr_contextRelease(&v->r->ctx);
  v->f.WindowHint(HINT_RESIZABLE, 0);
  v->window = v->f.CreateWindow(width, height, title ? title : "gauss", NULL, NULL);
  if (!v->window) {
    const char* why = NULL;
    v->f.GetError(&why);
    snprintf(err, (size_t)errsz, "viewer: cannot open a window: %s", why ? why : "no reason given");
    gs_freeViewer(v);
    return NULL;
  }
  v->f.MakeContextCurrent(v->window);
  *(void**)&v->glDrawPixels = v->f.GetProcAddress("glDrawPixels");
  *(void**)&v->glWindowPos2i = v->f.GetProcAddress("glWindowPos2i");
  *(void**)&v->glPixelZoom = v->f.GetProcAddress("glPixelZoom");
  *(void**)&v->glClear = v->f.GetProcAddress("glClear");
  *(void**)&v->glViewport = v->f.GetProcAddress("glViewport");
  v->f.MakeContextCurrent(NULL);
  if (!v->glDrawPixels || !v->glWindowPos2i || !v->glPixelZoom || !v->glClear || !v->glViewport) {
    snprintf(err, (size_t)errsz, "viewer: the window's OpenGL lacks glDrawPixels or glWindowPos2i");
    gs_freeViewer(v);
    return NULL;
  }
  get_user = v->f.GetWindowUserPointer;
  v->f.SetWindowUserPointer(v->window, v);
  v->f.SetKeyCallback(v->window, on_key);
  v->f.SetMouseButtonCallback(v->window, on_button);
  v->f.SetCursorPosCallback(v->window, on_move);
  v->f.SetScrollCallback(v->window, on_scroll);
  v->st.free.camid = -1;
  v->st.free.lookat[0] = m->stat.center[0];
  v->st.free.lookat[1] = m->stat.center[1];
  v->st.free.lookat[2] = m->stat.center[2];
  v->st.free.distance = 1.5 * m->stat.extent;
  v->st.free.azimuth = 90;
  v->st.free.elevation = -45;
  return v;
}

void gs_freeViewer(gsViewer* v) {
  if (!v) return;
  gs_freeRenderer(v->r);
  if (v->window) v->f.DestroyWindow(v->window);
  /* GLFW stays initialized and loaded: another viewer may follow, and unloading a GL driver
   * under a live display connection is not safe */
  free(v->rgb);
  free(v);
}

gsViewerState* gs_viewerState(gsViewer* v) { return &v->st; }

int gs_viewerRunning(const gsViewer* v) { return v->window && !v->f.WindowShouldClose(v->window); }

int gs_viewerScreenshot(const gsViewer* v, unsigned char* rgb) {
  if (!v->have_image) return 0;
  memcpy(rgb, v->rgb, 3 * (size_t)v->width * v->height);
  return 1;
}

/* the spring that pulls the grabbed point towards the target, critically damped by the point's
 * velocity: per unit mass (the subtree's), so that light and heavy bodies follow alike; applied
 * at the grabbed point. The velocity comes from cvel, [angular; linear] at the subtree centre of
 * mass of the body's tree (the last forward pass). */
static void perturb(gsViewer* v, gsData* d) {
  const gsModel* m = v->m;
  static const double kStiffness = 100;  /* 1/s^2 */
  int b = v->st.perturb_body;
  if (b <= 0 || b >= m->nbody) return;
  const gsReal* xp = d->xpos + 3 * b;
  const gsReal* R = d->xmat + 9 * b;
  const gsReal* cv = d->cvel + 6 * b;
  const gsReal* c = d->subtree_com + 3 * m->body_rootid[b];
  double p[3], f[3], arm[3], r[3], vel[3];
  for (int i = 0; i < 3; i++) {
    p[i] = xp[i];
    for (int k = 0; k < 3; k++) p[i] += R[3 * i + k] * v->st.perturb_local[k];
    r[i] = p[i] - c[i];
  }
  vel[0] = cv[3] + cv[1] * r[2] - cv[2] * r[1];
  vel[1] = cv[4] + cv[2] * r[0] - cv[0] * r[2];
  vel[2] = cv[5] + cv[0] * r[1] - cv[1] * r[0];
  double mass = m->body_subtreemass[b];
  for (int i = 0; i < 3; i++) {
    f[i] = mass * (kStiffness * (v->st.perturb_target[i] - p[i]) - 2 * sqrt(kStiffness) * vel[i]);
    arm[i] = p[i] - d->xipos[3 * b + i];
  }
  gsReal* x = d->xfrc_applied + 6 * b;
  x[0] = f[0], x[1] = f[1], x[2] = f[2];
  x[3] = arm[1] * f[2] - arm[2] * f[1];
  x[4] = arm[2] * f[0] - arm[0] * f[2];
  x[5] = arm[0] * f[1] - arm[1] * f[0];
}

/* the RGB image (rows top first) scaled to the window's framebuffer, drawn downwards from the
 * top-left corner, and shown; the renderer's context is released for the window's meanwhile */
static void present(gsViewer* v, const unsigned char* rgb, int width, int height) {
  gsr_contextRelease(&v->r->ctx);
  v->f.MakeContextCurrent(v->window);
  int fw, fh;
  v->f.GetFramebufferSize(v->window, &fw, &fh);
  v->glViewport(0, 0, fw, fh);
  v->glClear(0x00004000 /* GL_COLOR_BUFFER_BIT */);
  v->glWindowPos2i(0, fh);
  v->glPixelZoom((float)fw / width, -(float)fh / height);
  v->glDrawPixels(width, height, 0x1907 /* GL_RGB */, 0x1401 /* GL_UNSIGNED_BYTE */, rgb);
  v->f.SwapBuffers(v->window);
  v->f.MakeContextCurrent(NULL);
}

int gs_viewerSync(gsViewer* v, gsData* d, const char* info) {
  if (!gs_viewerRunning(v)) return 0;
  /* the pull of a released body is taken back; other applied forces are the caller's */
  if (v->pulled > 0 && v->pulled < v->m->nbody && v->pulled != v->st.perturb_body)
    memset(d->xfrc_applied + 6 * v->pulled, 0, 6 * sizeof(gsReal));
  perturb(v, d);
  v->pulled = v->st.perturb_body;
  v->d = d;
  /* a tracked body: the free camera looks at its subtree's centre of mass */
  if (v->st.track_body > 0 && v->st.track_body < v->m->nbody)
    for (int k = 0; k < 3; k++) v->st.free.lookat[k] = d->subtree_com[3 * v->st.track_body + k];
  gsRenderCamera cam = v->st.free;
  cam.camid = v->st.camid;
  if (!gs_updateScene(v->r, d, &cam) || !gs_render(v->r, GS_RENDER_RGB, v->rgb)) return 0;
  v->have_image = 1;
  /* the caller's text over the image's top left, and in the title bar */
  if (info && *info && v->st.show_info) gsr_drawText(v->rgb, v->width, v->height, 8, 8, v->height >= 600 ? 2 : 1, info);
  if (v->st.show_info) draw_slider(v);
  present(v, v->rgb, v->width, v->height);
  if (info) {
    /* the title: the first line */
    char title[256];
    size_t n = strcspn(info, "\n");
    snprintf(title, sizeof title, "%.*s", (int)(n < sizeof title ? n : sizeof title - 1), info);
    v->f.SetWindowTitle(v->window, title);
  }
  v->f.PollEvents();
  return gs_viewerRunning(v);
}

int gs_viewerShowImage(gsViewer* v, const unsigned char* rgb, int width, int height) {
  if (!gs_viewerRunning(v) || !rgb || width < 1 || height < 1) return 0;
  present(v, rgb, width, height);
  v->f.PollEvents();
  return gs_viewerRunning(v);
}
