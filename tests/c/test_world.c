/* The world slice at the spec level: what the reader stores that the model does not hold
 * (<visual>, <statistic>, compiler directories, frames resolved into their children), and models
 * built by hand with the gs_specAdd* functions, asset files included. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gauss/gauss.h"

static int near(double a, double b) { return fabs(a - b) < 1e-12; }

static void test_stored(void) {
  char err[1000] = "";
  gsSpec* s = gs_parseXMLString(
      "<mujoco>\n"
      "  <compiler meshdir=\"meshes\" texturedir=\"/abs/tex\" assetdir=\"assets\" strippath=\"true\"/>\n"
      "  <statistic extent=\"5\" center=\"1 2 3\"/>\n"
      "  <visual>\n"
      "    <global fovy=\"40\" offwidth=\"800\" orthographic=\"true\"/>\n"
      "    <headlight ambient=\".1 .2 .3\" active=\"0\"/>\n"
      "    <map znear=\"0.02\"/>\n"
      "    <rgba haze=\"0.1 0.2 0.3 0.4\"/>\n"
      "  </visual>\n"
      "</mujoco>\n",
      err, sizeof(err));
  CHECK(s != NULL, "parse: %s", err);
  if (!s) return;
  CHECK(s->compiler.meshdir && strcmp(s->compiler.meshdir, "meshes") == 0, "meshdir");
  CHECK(s->compiler.texturedir && strcmp(s->compiler.texturedir, "/abs/tex") == 0, "texturedir");
  CHECK(s->compiler.assetdir && strcmp(s->compiler.assetdir, "assets") == 0, "assetdir");
  CHECK(s->compiler.strippath == 1, "strippath");
  CHECK(s->statistic.given == (GS_STAT_EXTENT | GS_STAT_CENTER) && near(s->statistic.extent, 5) &&
            near(s->statistic.center[2], 3),
        "statistic");
  const gsSpecVisual* v = &s->visual;
  CHECK(near(v->fovy, 40) && v->offwidth == 800 && v->offheight == 480 && v->orthographic == 1,
        "visual global");
  CHECK(near(v->headlight_ambient[1], 0.2) && v->headlight_active == 0 &&
            near(v->headlight_diffuse[0], 0.4),
        "visual headlight");
  CHECK(near(v->map_znear, 0.02) && near(v->map_zfar, 50), "visual map");
  CHECK(near(v->rgba_haze[3], 0.4) && near(v->rgba_fog[3], 1), "visual rgba");
  gs_specFree(s);
}

static void test_frames_in_spec(void) {
  char err[1000] = "";
  gsSpec* s = gs_parseXMLString(
      "<mujoco><worldbody>\n"
      "  <frame pos=\"1 0 0\" euler=\"0 0 90\">\n"
      "    <body pos=\"1 0 0\"><joint axis=\"1 0 0\"/><geom size=\"1\"/><camera/>\n"
      "      <light dir=\"1 0 0\"/></body>\n"
      "  </frame>\n"
      "</worldbody></mujoco>\n",
      err, sizeof(err));
  CHECK(s != NULL, "parse: %s", err);
  if (!s) return;
  gsSpecBody* b = s->world->child[0];
  CHECK(near(b->pos[0], 1) && near(b->pos[1], 1) && near(b->pos[2], 0), "body placed by frame");
  CHECK(b->orient.type == GS_ORIENT_QUAT && near(b->orient.quat[0], sqrt(0.5)) &&
            near(b->orient.quat[3], sqrt(0.5)),
        "body turned by frame");
  /* a frame places the elements it holds, not those inside its bodies */
  CHECK(near(b->joint[0]->axis[0], 1) && near(b->light[0]->dir[0], 1), "inside the body");
  gs_specFree(s);
}

/* the smallest file the compiler reads the size of: a PNG signature and header */
/* a 7 x 3 RGB image whose sample k of row y is (7 k + 3 y) mod 256 (made with zlib) */
static const unsigned char kPng[131] = {
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x03, 0x08, 0x02, 0x00, 0x00, 0x00, 0xd0, 0xa1, 0x82,
    0x92, 0x00, 0x00, 0x00, 0x4a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x60, 0xe7, 0x13,
    0x95, 0x51, 0xd6, 0x32, 0xb4, 0xb0, 0x77, 0xf3, 0x0d, 0x89, 0x4e, 0xca, 0x2c, 0x28, 0xaf, 0x6b,
    0xed, 0x61, 0x60, 0xe6, 0x12, 0x94, 0x90, 0x57, 0xd3, 0x35, 0xb1, 0x76, 0xf2, 0x0c, 0x08, 0x8f,
    0x4b, 0xcd, 0x29, 0xae, 0x6a, 0xec, 0xe8, 0x67, 0x60, 0xe3, 0x15, 0x91, 0x56, 0xd2, 0x34, 0x30,
    0xb7, 0x73, 0xf5, 0x09, 0x8e, 0x4a, 0xcc, 0xc8, 0x2f, 0xab, 0x6d, 0xe9, 0x9e, 0x04, 0x00, 0x07,
    0x39, 0x11, 0xf8, 0xed, 0xc1, 0xf5, 0xf3, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82};

static int write_png(const char* path) {
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  int ok = fwrite(kPng, 1, sizeof(kPng), f) == sizeof(kPng);
  return fclose(f) == 0 && ok;
}

static void test_built_by_hand(void) {
  gsSpec* s = gs_specNew();
  gsSpecBody* b = gs_specAddBody(s->world);
  gsSpecJoint* j = gs_specAddJoint(b);
  gsSpecGeom* g = gs_specAddGeom(b);
  gsSpecCamera* cam = gs_specAddCamera(b);
  gsSpecLight* l = gs_specAddLight(s->world);
  gsSpecMaterial* mat = gs_specAddMaterial(s);
  gsSpecTexture* tex = gs_specAddTexture(s);
  gsSpecPair* p = gs_specAddPair(s);
  gsSpecAssetRef* r = gs_specAssetRef(b, g);
  CHECK(b && j && g && cam && l && mat && tex && p && r, "elements added");
  if (!(b && j && g && cam && l && mat && tex && p && r)) return;
  j->type = GS_JNT_FREE;
  g->size[0] = 0.1;
  gs_specSetName(&g->info, "g");
  gs_specSetName(&mat->info, "m");
  gs_specSetName(&tex->info, "t");
  gs_specSetString(&r->material, "m");
  gs_specSetString(&mat->texture[GS_TEXROLE_RGB], "t");
  gs_specSetString(&p->geom1, "g");
  gs_specSetString(&p->geom2, "g");
  cam->pos[2] = 1;
  l->dir[0] = 2, l->dir[2] = 0;
  /* a texture file read by the compiler itself: no reader kept its contents */
  char path[] = "/tmp/gauss_test_worldXXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0, "temporary file");
  if (fd >= 0) close(fd);
  CHECK(write_png(path), "png written");
  tex->type = GS_TEXTURE_2D;
  gs_specSetString(&tex->file, path);
  char err[1000] = "";
  gsModel* m = gs_compile(s, err, sizeof(err));
  CHECK(m != NULL, "compile: %s", err);
  if (m) {
    CHECK(m->ncam == 1 && m->nlight == 1 && m->nmat == 1 && m->ntex == 1 && m->npair == 1, "counts");
    CHECK(m->tex_width[0] == 7 && m->tex_height[0] == 3 && m->tex_colorspace[0] == GS_COLORSPACE_LINEAR,
          "texture size from the file: %d x %d", m->tex_width[0], m->tex_height[0]);
    CHECK(m->geom_matid[0] == 0 && m->mat_texid[GS_TEXROLE_RGB] == 0, "references");
    int pix_ok = m->nteximage == 63 && m->tex_imageadr[0] == 0;
    for (int y = 0; pix_ok && y < 3; y++)
      for (int k = 0; k < 21; k++) pix_ok &= (unsigned char)m->tex_image[21 * y + k] == (7 * k + 3 * y) % 256;
    CHECK(pix_ok, "texture pixels read from the file");
    CHECK(near(m->light_dir[0], 1) && near(m->cam_pos0[2], 1), "light and camera");
    CHECK(m->pair_signature[0] == (1 << 16) + 1 && m->pair_dim[0] == 3, "pair");
    gs_freeModel(m);
  }
  unlink(path);
  /* the file gone: an error naming the texture */
  m = gs_compile(s, err, sizeof(err));
  CHECK(m == NULL && strstr(err, "texture 't'") && strstr(err, "cannot open file"), "missing: %s", err);
  gs_freeModel(m);
  gs_specFree(s);
}

int main(void) {
  test_stored();
  test_frames_in_spec();
  test_built_by_hand();
  return CHECK_SUMMARY();
}
