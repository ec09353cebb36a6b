/* Several contacts per convex pair (MJCF's multiccd flag, src/collision/multiccd.c): closed forms
 * (a mesh cube pressed into a box face has the overlap's 4 corners, one standing on an edge the
 * edge's 2 ends, the flag off 1 contact; a cylinder lying flat gets 4 rim points from the turned
 * re-collisions), a face of more corners than are taken keeps one contact, and a sweep of random
 * poses of every pair the flag reaches (finite contacts, unit normals, at most 5 per pair, 8 for
 * box-box, which keeps its own collider; run under the sanitizers too). The comparison with
 * MuJoCo is tests/python/test_collision_multiccd.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"

#define CUBE "-1 -1 -1 1 -1 -1 1 1 -1 1 1 1 1 -1 1 -1 1 -1 -1 1 1 -1 -1 1"

static gsModel* load(const char* xml) {
  char err[512] = "";
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  if (!m) printf("cannot load: %s\n", err);
  return m;
}

/* the contacts of a floor box and one free body, flag on or off */
static gsData* solve(gsModel** m, const char* flag, const char* body, const char* asset) {
  char xml[65536];
  snprintf(xml, sizeof(xml),
           "<mujoco><option><flag multiccd='%s'/></option><asset>%s</asset><worldbody>"
           "<geom type='box' size='3 3 .5' pos='0 0 -.5'/>%s</worldbody></mujoco>",
           flag, asset, body);
  *m = load(xml);
  if (!*m) return NULL;
  gsData* d = gs_makeData(*m);
  gs_forward(*m, d);
  return d;
}

static int near(gsReal a, gsReal b, gsReal tol) { return fabs(a - b) <= tol; }

static int has_contact_at(const gsData* d, gsReal x, gsReal y, gsReal z, gsReal tol) {
  for (int i = 0; i < d->ncon; i++) {
    const gsReal* p = d->contact[i].pos;
    if (near(p[0], x, tol) && near(p[1], y, tol) && near(p[2], z, tol)) return 1;
  }
  return 0;
}

static void closed_forms(void) {
  gsModel* m;
  gsData* d;
  /* a unit mesh cube 0.01 deep in the floor: its bottom face's corners, half the depth down */
  d = solve(&m, "enable", "<body pos='.3 .2 .99'><freejoint/><geom type='mesh' mesh='c'/></body>",
            "<mesh name='c' vertex='" CUBE "'/>");
  CHECK(d && d->ncon == 4, "cube on a face: %d contacts", d ? d->ncon : -1);
  for (int sx = -1; d && sx <= 1; sx += 2)
    for (int sy = -1; sy <= 1; sy += 2)
      CHECK(has_contact_at(d, .3 + sx, .2 + sy, -.005, 1e-12), "cube corner %d %d", sx, sy);
  for (int i = 0; d && i < d->ncon; i++)
    CHECK(near(d->contact[i].dist, -.01, 1e-12) && near(d->contact[i].frame[2], 1, 1e-15),
          "cube on a face: depth and normal");
  gs_freeData(d);
  gs_freeModel(m);
  d = solve(&m, "disable", "<body pos='.3 .2 .99'><freejoint/><geom type='mesh' mesh='c'/></body>",
            "<mesh name='c' vertex='" CUBE "'/>");
  CHECK(d && d->ncon == 1, "flag off: %d contacts", d ? d->ncon : -1);
  gs_freeData(d);
  gs_freeModel(m);
  /* standing on an edge along x (turned 45 degrees about x): the edge's ends */
  char body[256];
  snprintf(body, sizeof(body), "<body pos='0 0 %.17g' euler='45 0 0'><freejoint/>"
           "<geom type='mesh' mesh='c'/></body>", sqrt(2.0) - .01);
  d = solve(&m, "enable", body, "<mesh name='c' vertex='" CUBE "'/>");
  CHECK(d && d->ncon == 2 && has_contact_at(d, 1, 0, -.005, 1e-12) &&
        has_contact_at(d, -1, 0, -.005, 1e-12), "cube on an edge: %d contacts", d ? d->ncon : -1);
  gs_freeData(d);
  gs_freeModel(m);
  /* a cylinder lying flat: the single contact and one point on the rim per turn (+-x, +-y) */
  d = solve(&m, "enable", "<body pos='0 0 .09'><freejoint/><geom type='cylinder' size='.4 .1'/></body>",
            "");
  CHECK(d && d->ncon == 5, "flat cylinder: %d contacts", d ? d->ncon : -1);
  int rim = 0;
  for (int i = 0; d && i < d->ncon; i++) {
    gsReal r = hypot(d->contact[i].pos[0], d->contact[i].pos[1]);
    rim += near(r, .4, 1e-4);
    CHECK(near(d->contact[i].dist, -.01, 1e-12), "flat cylinder: the single contact's distance");
  }
  CHECK(rim == 4, "flat cylinder: %d rim points", rim);
  gs_freeData(d);
  gs_freeModel(m);
}

/* a prism over a regular n-gon lying on its base */
static void big_face(int n, int expect) {
  static char asset[60000];
  int k = snprintf(asset, sizeof(asset), "<mesh name='p' vertex='");
  for (int z = -1; z <= 1; z += 2)
    for (int i = 0; i < n; i++)
      k += snprintf(asset + k, sizeof(asset) - (size_t)k, "%.17g %.17g %d ",
                    .5 * cos(2 * M_PI * i / n), .5 * sin(2 * M_PI * i / n), z);
  snprintf(asset + k, sizeof(asset) - (size_t)k, "'/>");
  gsModel* m;
  gsData* d = solve(&m, "enable", "<body pos='0 0 .99'><freejoint/><geom type='mesh' mesh='p'/></body>",
                    asset);
  CHECK(d && d->ncon == expect, "%d-gon face: %d contacts", n, d ? d->ncon : -1);
  for (int i = 0; d && i < d->ncon; i++)
    CHECK(near(hypot(d->contact[i].pos[0], d->contact[i].pos[1]), .5, 1e-6) || d->ncon == 1,
          "%d-gon face: a corner", n);
  gs_freeData(d);
  gs_freeModel(m);
}

static gsReal urand(void) { return rand() / (gsReal)RAND_MAX; }

/* random poses of every pair of capsule, cylinder, box and mesh, with and without a margin */
static void robustness(void) {
  static const char* geom[] = {"type='capsule' size='.1 .3'", "type='cylinder' size='.2 .1'",
                               "type='box' size='.2 .15 .1'", "type='mesh' mesh='c'"};
  int bad = 0, total = 0;
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 4; b++)
      for (int margin = 0; margin < 2; margin++) {
        char xml[2048];
        snprintf(xml, sizeof(xml),
                 "<mujoco><option gravity='0 0 0'><flag multiccd='enable'/></option><asset><mesh name='c' vertex='"
                 CUBE "' scale='.2 .2 .2'/></asset><worldbody>"
                 "<body><freejoint/><geom %s margin='%g'/></body>"
                 "<body><freejoint/><geom %s/></body></worldbody></mujoco>",
                 geom[a], margin * .05, geom[b]);
        gsModel* m = load(xml);
        CHECK(m != NULL, "pair %d %d", a, b);
        if (!m) continue;
        gsData* d = gs_makeData(m);
        for (int t = 0; t < 200; t++) {
          for (int k = 0; k < 14; k++) d->qpos[k] = 0;
          for (int j = 0; j < 2; j++) {
            gsReal* q = d->qpos + 7 * j;
            for (int k = 0; k < 3; k++) q[k] = j ? .3 * (urand() - .5) : 0;
            /* often an axis-aligned pose (flat faces meet), else a random one */
            if (urand() < .5) {
              q[3] = 1;
            } else {
              gsReal n = 0;
              for (int k = 3; k < 7; k++) q[k] = urand() - .5, n += q[k] * q[k];
              for (int k = 3; k < 7; k++) q[k] /= sqrt(n);
            }
          }
          gs_forward(m, d);
          total++;
          /* box-box keeps its own collider (up to 8 contacts) */
          if (d->ncon > (a == 2 && b == 2 ? 8 : 5)) bad++;
          for (int i = 0; i < d->ncon; i++) {
            const gsContact* c = d->contact + i;
            gsReal nn = c->frame[0] * c->frame[0] + c->frame[1] * c->frame[1] + c->frame[2] * c->frame[2];
            if (!isfinite(c->dist) || !isfinite(c->pos[0]) || !isfinite(c->pos[1]) ||
                !isfinite(c->pos[2]) || fabs(nn - 1) > 1e-9) {
              bad++;
            }
          }
        }
        gs_freeData(d);
        gs_freeModel(m);
      }
  CHECK(bad == 0, "%d bad contacts over %d poses", bad, total);
}

int main(void) {
  srand(18);
  closed_forms();
  big_face(12, 4);
  big_face(200, 4);
  big_face(300, 1);  /* more corners than are taken: the single contact */
  robustness();
  return CHECK_SUMMARY();
}
