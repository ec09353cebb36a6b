/* `gauss render`: a picture (PNG, libpng) of a model's state at a time, or a video (MP4) of the
 * simulation up to that time, encoded by an ffmpeg process that reads raw frames from a pipe
 * (Debian's ffmpeg package); `gauss view`: real-time simulation in a window (the viewer of
 * render.h). Uses only the public API (gauss.h, render.h). */
#define _POSIX_C_SOURCE 200809L

#include <gauss/gauss.h>
#include <gauss/render.h>

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "gauss_render.h"

static int ends_with(const char* s, const char* tail) {
  size_t n = strlen(s), k = strlen(tail);
  return n >= k && strcasecmp(s + n - k, tail) == 0;
}

static int write_png(const char* path, const unsigned char* rgb, int w, int h) {
  FILE* f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "gauss: cannot write %s: %s\n", path, strerror(errno));
    return 0;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, info ? &info : NULL);
    fclose(f);
    fprintf(stderr, "gauss: cannot encode %s\n", path);
    return 0;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < h; y++) png_write_row(png, (png_const_bytep)(rgb + 3 * (size_t)w * y));
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return fclose(f) == 0;
}

/* the ffmpeg process that encodes raw RGB frames read from its standard input into path */
static FILE* open_encoder(const char* path, int w, int h, double fps) {
  /* the output name goes through the shell: refuse characters it would interpret */
  if (strpbrk(path, "'\\\n")) {
    fprintf(stderr, "gauss: the video name must not contain quotes, backslashes or newlines\n");
    return NULL;
  }
  char cmd[4096];
  snprintf(cmd, sizeof cmd,
           "ffmpeg -hide_banner -loglevel error -y -f rawvideo -pix_fmt rgb24 -s %dx%d -r %g "
           "-i - -c:v libx264 -pix_fmt yuv420p -movflags +faststart '%s'", w, h, fps, path);
  FILE* p = popen(cmd, "w");
  if (!p) fprintf(stderr, "gauss: cannot start ffmpeg: %s\n", strerror(errno));
  return p;
}

static int render_usage(void) {
  fprintf(stderr,
          "usage: gauss render MODEL --out FILE.png|FILE.mp4 [--time T] [--camera NAME|ID]\n"
          "                    [--width W] [--height H] [--fps F]\n"
          "  simulate T seconds (default 2) from the default state with zero controls;\n"
          "  a .png gets the last frame, a .mp4 the video at F frames per second (default\n"
          "  30, encoded by ffmpeg); the camera is a model camera or the free camera (-1,\n"
          "  the default); images are W x H (default 640 x 480)\n");
  return 2;
}

static int camera_id(const gsModel* m, const char* s, int* id) {
  char* end = NULL;
  long v = strtol(s, &end, 10);
  if (end && *end == 0 && end != s) {
    *id = (int)v;
  } else {
    *id = gs_name2id(m, GS_OBJ_CAMERA, s);
  }
  if (*id >= -1 && *id < m->ncam && (*id >= 0 || strcmp(s, "-1") == 0)) return 1;
  fprintf(stderr, "gauss: the model has no camera '%s'; its cameras:", s);
  for (int i = 0; i < m->ncam; i++) {
    const char* name = gs_id2name(m, GS_OBJ_CAMERA, i);
    fprintf(stderr, " %d%s%s%s", i, name ? " (" : "", name ? name : "", name ? ")" : "");
  }
  fprintf(stderr, "%s; -1 is the free camera\n", m->ncam ? "" : " none");
  return 0;
}

int gauss_cmd_render(int argc, char** argv, gsModel* (*load)(const char*)) {
  const char *model = NULL, *out = NULL, *camera = "-1";
  double T = 2, fps = 30;
  long width = 640, height = 480;
  for (int i = 0; i < argc; i++) {
    const char* a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strncmp(a, "--", 2) != 0) {
      if (model) return render_usage();
      model = a;
      continue;
    }
    if (!v) return render_usage();
    char* end = NULL;
    if (strcmp(a, "--out") == 0) out = v;
    else if (strcmp(a, "--camera") == 0) camera = v;
    else if (strcmp(a, "--time") == 0) T = strtod(v, &end);
    else if (strcmp(a, "--fps") == 0) fps = strtod(v, &end);
    else if (strcmp(a, "--width") == 0) width = strtol(v, &end, 10);
    else if (strcmp(a, "--height") == 0) height = strtol(v, &end, 10);
    else {
      fprintf(stderr, "gauss: unknown option %s\n", a);
      return render_usage();
    }
    if (end && *end) {
      fprintf(stderr, "gauss: %s takes a number, not '%s'\n", a, v);
      return 2;
    }
    i++;
  }
  int video = out && ends_with(out, ".mp4");
  if (!model || !out || (!video && !ends_with(out, ".png"))) {
    if (out && !video) fprintf(stderr, "gauss: --out must end in .png or .mp4\n");
    return render_usage();
  }
  if (!(T >= 0 && T < 1e6) || !(fps > 0 && fps <= 1000) || width < 2 || height < 2 ||
      width > 8192 || height > 8192) {
    fprintf(stderr, "gauss: need 0 <= T, 0 < fps <= 1000 and sizes in [2, 8192]\n");
    return 2;
  }
  /* the encoder's 4:2:0 colour needs even sizes */
  if (video) width &= ~1L, height &= ~1L;

  gsModel* m = load(model);
  if (!m) return 1;
  int camid, rc = 1;
  gsData* d = NULL;
  gsRenderer* r = NULL;
  unsigned char* rgb = NULL;
  FILE* enc = NULL;
  if (!camera_id(m, camera, &camid)) goto done;
  d = gs_makeData(m);
  char err[512] = "";
  r = d ? gs_makeRenderer(m, (int)width, (int)height, err, sizeof err) : NULL;
  rgb = malloc(3 * (size_t)width * (size_t)height);
  if (!d || !r || !rgb) {
    fprintf(stderr, "gauss: %s\n", err[0] ? err : "out of memory");
    goto done;
  }
  gs_resetData(m, d);
  gsRenderCamera cam = {.camid = camid};
  if (camid < 0) {
    gs_forward(m, d);
    gs_defaultFreeCamera(m, d, &cam);
  }
  if (video && !(enc = open_encoder(out, (int)width, (int)height, fps))) goto done;
  double dt = m->opt.timestep;
  long nframe = video ? (long)floor(T * fps + 1e-9) + 1 : 1, written = 0;
  for (long k = 0; k < nframe; k++) {
    double t = video ? k / fps : T;
    while (d->time < t - 0.5 * dt) gs_step(m, d);
    gs_forward(m, d);  /* positions of the current state */
    if (!gs_updateScene(r, d, &cam) || !gs_render(r, GS_RENDER_RGB, rgb)) {
      fprintf(stderr, "gauss: rendering failed\n");
      goto done;
    }
    if (video) {
      if (fwrite(rgb, 3 * (size_t)width, (size_t)height, enc) != (size_t)height) {
        fprintf(stderr, "gauss: ffmpeg stopped reading frames (is it installed? Debian: ffmpeg)\n");
        goto done;
      }
      written++;
    } else if (!write_png(out, rgb, (int)width, (int)height)) {
      goto done;
    }
  }
  if (enc) {
    int status = pclose(enc);
    enc = NULL;
    if (status != 0) {
      fprintf(stderr, "gauss: ffmpeg failed (status %d; is it installed? Debian: ffmpeg)\n", status);
      goto done;
    }
  }
  printf("wrote      %s: %ld frame%s of %ldx%ld, %.3f s simulated (%s)\n", out, video ? written : 1,
         (video ? written : 1) == 1 ? "" : "s", width, height, d->time, gs_rendererBackend(r));
  rc = 0;
done:
  if (enc) pclose(enc);
  free(rgb);
  gs_freeRenderer(r);
  gs_freeData(d);
  gs_freeModel(m);
  return rc;
}

/* ---- gauss view ---- */

static double wall_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int gauss_cmd_view(int argc, char** argv, gsModel* (*load)(const char*)) {
  if (argc != 1 || argv[0][0] == '-') {
    fprintf(stderr, "usage: gauss view MODEL\n"
                    "  simulate in real time in a window (space pause, right arrow step, backspace\n"
                    "  reset to the keyframe chosen with page up/down, - = speed, [ ] cameras,\n"
                    "  0-5 groups, t transparency, c contacts, f forces, e frames, m centres of\n"
                    "  mass, j joints, Escape quit; mouse: left orbit, right pan, wheel zoom,\n"
                    "  ctrl + left drag pulls a body, ctrl + right click tracks a body)\n");
    return 2;
  }
  gsModel* m = load(argv[0]);
  if (!m) return 1;
  gsData* d = gs_makeData(m);
  char err[512] = "";
  gsViewer* v = d ? gs_makeViewer(m, 960, 720, argv[0], err, sizeof err) : NULL;
  if (!v) {
    fprintf(stderr, "gauss: %s\n", err[0] ? err : "out of memory");
    gs_freeData(d);
    gs_freeModel(m);
    return 1;
  }
  /* the load warnings, shown in the window's title until the first reset */
  const char* w = gs_loadWarnings();
  int nwarn = 0;
  for (const char* p = w ? w : ""; *p; p++) nwarn += *p == '\n';
  gs_resetData(m, d);
  gs_forward(m, d);
  gsViewerState* st = gs_viewerState(v);
  double last = wall_now(), shown = last, rtf = 0, simstart = d->time, owed = 0;
  char info[2048], warnings[1024] = "";
  /* the first lines of the load warnings, for the window */
  snprintf(warnings, sizeof warnings, "%s", w ? w : "");
  while (gs_viewerRunning(v)) {
    double now = wall_now(), wall = fmin(now - last, 0.1);
    last = now;
    if (st->reset) {
      if (st->keyframe >= 0) gs_resetDataKeyframe(m, d, st->keyframe);
      else gs_resetData(m, d);
      st->reset = 0;
      nwarn = 0;
    }
    if (st->paused) {
      for (; st->nstep > 0; st->nstep--) gs_step(m, d);
      owed = 0;
    } else {
      /* simulated time owed to the wall clock, carried between frames; what a frame cannot
       * simulate in a tenth of a second is dropped (slower than real time, never behind for good) */
      owed += st->speed * wall;
      while (owed >= 0.5 * m->opt.timestep && wall_now() - now < 0.1) {
        gs_step(m, d);
        owed -= m->opt.timestep;
      }
      if (owed > 0.5 * m->opt.timestep) owed = 0;
    }
    gs_forward(m, d);
    if (now - shown > 0.5) {
      rtf = (d->time - simstart) / (now - shown);
      shown = now;
      simstart = d->time;
    }
    gs_energyPos(m, d);
    gs_energyVel(m, d);
    /* the first line is also the title; the load warnings stay until the first reset */
    int n = snprintf(info, sizeof info, "t %.2f s  real-time x%.2f  speed %g%s%s\n"
                     "solver iterations %d  energy %.4g", d->time, rtf, st->speed,
                     st->paused ? "  paused" : "", st->keyframe >= 0 ? "  reset: keyframe" : "",
                     d->solver_niter[0], d->energy[0] + d->energy[1]);
    if (nwarn && n > 0 && n < (int)sizeof info)
      snprintf(info + n, sizeof info - (size_t)n, "\n%d load warning%s:\n%s", nwarn,
               nwarn == 1 ? "" : "s", warnings);
    gs_viewerSync(v, d, info);
  }
  gs_freeViewer(v);
  gs_freeData(d);
  gs_freeModel(m);
  return 0;
}
