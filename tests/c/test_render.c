/* The renderer against closed forms: a box face seen straight on covers the pixels whose centres
 * fall within its perspective projection (half-width a / (z tan(fovy / 2)) in units of half the
 * image height), at the depth of the face; a sphere's silhouette is the cone of half-angle
 * asin(R / L) cut by the image plane. Groups and transparent geoms are left out as MJCF's defaults say. Built and run
 * only where the renderer is (CMakeLists.txt). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gauss/gauss.h"
#include "gauss/render.h"

#define PI 3.14159265358979323846

static const char* const kXml =
    "<mujoco><worldbody>"
    "<camera name='down' pos='0 0 5' fovy='45'/>"
    "<geom name='box' type='box' size='.5 .5 .5'/>"
    "<geom name='ball' type='sphere' size='.3' pos='2 0 0'/>"
    "<geom name='hidden' type='sphere' size='.3' pos='-2 0 0' group='3'/>"
    "<geom name='clear' type='sphere' size='.3' pos='0 1.5 0' rgba='1 1 1 0'/>"
    "</worldbody></mujoco>";

int main(void) {
  char err[512] = "";
  gsModel* m = gs_loadXMLString(kXml, err, sizeof err);
  CHECK(m != NULL, "load: %s", err);
  if (!m) return CHECK_SUMMARY();
  gsData* d = gs_makeData(m);
  gs_forward(m, d);
  const int W = 300, H = 200;
  gsRenderer* r = gs_makeRenderer(m, W, H, err, sizeof err);
  CHECK(r != NULL, "renderer: %s", err);
  if (!r) return CHECK_SUMMARY();
  printf("back end %s\n", gs_rendererBackend(r));
  gsRenderCamera cam = {.camid = gs_name2id(m, GS_OBJ_CAMERA, "down")};
  CHECK(gs_updateScene(r, d, &cam), "update");
  int* seg = malloc(sizeof(int) * 2 * W * H);
  float* depth = malloc(sizeof(float) * W * H);
  unsigned char* rgb = malloc(3 * (size_t)W * H);
  CHECK(gs_render(r, GS_RENDER_SEGMENT, seg), "segment");
  CHECK(gs_render(r, GS_RENDER_DEPTH, depth), "depth");
  CHECK(gs_render(r, GS_RENDER_RGB, rgb), "rgb");

  int box = gs_name2id(m, GS_OBJ_GEOM, "box"), ball = gs_name2id(m, GS_OBJ_GEOM, "ball");
  double t = tan(0.5 * 45 * PI / 180);
  /* pixels per unit length at distance z: (H / 2) / (z t) */
  double half = 0.5 / (4.5 * t) * (H / 2.0);
  int expect = 2 * (int)floor(half + 0.5);  /* centres at +-0.5, +-1.5, ... within half */
  int nbox = 0, nball = 0, other = 0, minx = W, maxx = -1, miny = H, maxy = -1;
  double depth_err = 0, bright_box = 0, bright_bg = 0;
  int nbg = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      const int* s = seg + 2 * (y * W + x);
      const unsigned char* c = rgb + 3 * (y * W + x);
      if (s[1] == GS_OBJ_GEOM && s[0] == box) {
        nbox++;
        if (x < minx) minx = x;
        if (x > maxx) maxx = x;
        if (y < miny) miny = y;
        if (y > maxy) maxy = y;
        depth_err = fmax(depth_err, fabs(depth[y * W + x] - 4.5));
        bright_box += c[0] + c[1] + c[2];
      } else if (s[1] == GS_OBJ_GEOM && s[0] == ball) {
        nball++;
      } else if (s[0] != -1 || s[1] != -1) {
        other++;
      } else {
        bright_bg += c[0] + c[1] + c[2];
        nbg++;
      }
    }
  CHECK(maxx - minx + 1 == expect && maxy - miny + 1 == expect,
        "box spans %d x %d pixels, expected %d (half-width %.3f)", maxx - minx + 1, maxy - miny + 1,
        expect, half);
  CHECK(nbox == expect * expect, "box covers %d pixels, expected %d", nbox, expect * expect);
  /* centred: the box's pixels are symmetric about the image centre */
  CHECK(minx + maxx == W - 1 && miny + maxy == H - 1, "box off centre: x %d..%d y %d..%d", minx,
        maxx, miny, maxy);
  CHECK(depth_err < 1e-4, "box face depth off by %g", depth_err);
  /* the sphere seen off axis: the cone of half-angle a = asin(R / L) about a direction at angle
   * q from the optical axis cuts the image plane (focal length f) in an ellipse of semi-axes
   * f sin(a) cos(a) / (cos^2 q - sin^2 a) and f sin(a) / sqrt(cos^2 q - sin^2 a); the tessellated
   * sphere (28 slices) lies within the true one, its area 99 % of it */
  double L = sqrt(4.0 + 25.0), sa = 0.3 / L, ca = sqrt(1 - sa * sa), cq2 = 25.0 / 29.0;
  double f = (H / 2.0) / t, den = cq2 - sa * sa;
  double area = PI * (f * sa * ca / den) * (f * sa / sqrt(den));
  CHECK(nball > 0.97 * area && nball < 1.01 * area, "sphere covers %d pixels, %.1f expected",
        nball, area);
  CHECK(other == 0, "%d pixels of a hidden (group 3) or transparent geom", other);
  CHECK(nbg > 0 && bright_box / nbox > bright_bg / nbg, "the lit box is not brighter than the background");

  /* the free camera: straight down from 3 above the box's top face sees it centred */
  gsRenderCamera top = {.camid = -1, .lookat = {0, 0, 0.5}, .distance = 3, .azimuth = 90, .elevation = -90};
  CHECK(gs_updateScene(r, d, &top) && gs_render(r, GS_RENDER_DEPTH, depth), "free camera");
  CHECK(fabs(depth[(H / 2) * W + W / 2] - 3) < 1e-4, "free camera depth %g, expected 3",
        depth[(H / 2) * W + W / 2]);
  gsRenderCamera bad = {.camid = m->ncam};
  CHECK(!gs_updateScene(r, d, &bad), "a camera id out of range is refused");

  free(seg);
  free(depth);
  free(rgb);
  gs_freeRenderer(r);
  gs_freeData(d);
  gs_freeModel(m);
  return CHECK_SUMMARY();
}
