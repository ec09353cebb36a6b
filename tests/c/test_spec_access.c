/* Spec elements by attribute name, deleting, and gs_setConst, from C: every table entry lies inside
 * its struct with unique names; writing through a table entry sets its flags; children are listed
 * in order; deleting a body frees its subtree (ASan sees leaks and double frees: this test also
 * runs under the sanitizers) and the rest compiles; elements put in frames (gs_specSetFrame) and
 * written nested; gs_setConst after a mass edit gives the closed
 * form of a body on one slide and refuses a moving body without mass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"

static const gsSpecAttr* find(int kind, const char* name) {
  int n;
  const gsSpecAttr* a = gs_specAttrs(kind, &n);
  for (int i = 0; i < n; i++)
    if (strcmp(a[i].name, name) == 0) return &a[i];
  return NULL;
}

static size_t attr_bytes(const gsSpecAttr* a) {
  switch (a->type) {
    case GS_SA_REAL: return sizeof(gsReal) * (size_t)a->count;
    case GS_SA_INT: return sizeof(int) * (size_t)a->count;
    case GS_SA_LLONG: return sizeof(long long);
    case GS_SA_STRING: return sizeof(char*) * (size_t)a->count;
    case GS_SA_CHARS: return (size_t)a->count;
    case GS_SA_BLOB: return sizeof(gsSpecBlob);
    case GS_SA_ASSETREF: return 0;
    default: return sizeof(void*);
  }
}

static void check_tables(void) {
  for (int k = 0; k < GS_NSPECKIND; k++) {
    int n;
    const gsSpecAttr* a = gs_specAttrs(k, &n);
    size_t size = gs_specKindSize(k);
    CHECK(a && n > 0 && size > 0, "kind %d has a table", k);
    for (int i = 0; i < n; i++) {
      CHECK(a[i].offset + attr_bytes(&a[i]) <= size, "kind %d: %s inside the struct", k, a[i].name);
      for (int f = 0; f < 2; f++)
        CHECK(a[i].flagoff[f] < 0 || (size_t)a[i].flagoff[f] + sizeof(int) <= size,
              "kind %d: %s flag inside the struct", k, a[i].name);
      if (a[i].type == GS_SA_REALVEC || a[i].type == GS_SA_INTVEC)
        CHECK(a[i].lenoff >= 0 && (size_t)a[i].lenoff + sizeof(int) <= size, "kind %d: %s length", k, a[i].name);
      for (int j = 0; j < i; j++)
        CHECK(strcmp(a[i].name, a[j].name) != 0, "kind %d: %s listed twice", k, a[i].name);
    }
  }
  int n = -1;
  CHECK(gs_specAttrs(GS_NSPECKIND, &n) == NULL && n == 0, "an unknown kind has no table");
}

int main(void) {
  check_tables();

  gsSpec* s = gs_specNew();
  gsSpecBody* world = gs_specWorld(s);
  gsSpecBody* b = gs_specAddBody(world);
  gsSpecJoint* j = gs_specAddJoint(b);
  gsSpecGeom* g = gs_specAddGeom(b);
  gs_specSetName(&b->info, "slider");
  j->type = GS_JNT_SLIDE;
  g->size[0] = 0.1;
  g->mass = 2;

  /* a table write sets the attribute's flag: a joint range marks the range as given */
  const gsSpecAttr* range = find(GS_SK_JOINT, "range");
  CHECK(range && range->flagoff[0] >= 0, "joint range has a flag");
  if (range) {
    gsReal* r = (gsReal*)((char*)j + range->offset);
    r[0] = -1, r[1] = 1;
    *(int*)((char*)j + range->flagoff[0]) = range->flagval[0];
    CHECK(j->range_given == 1, "the flag is range_given");
  }
  const gsSpecAttr* euler = find(GS_SK_BODY, "euler");
  CHECK(euler && euler->flagval[0] == GS_ORIENT_EULER, "writing euler selects the Euler form");

  /* owned arrays */
  const gsReal user[3] = {1, 2, 3};
  CHECK(gs_specSetReals(&b->user, &b->nuser, user, 3, 1) && b->nuser == 3 && b->user[2] == 3, "user data set");
  CHECK(gs_specSetReals(&b->user, &b->nuser, NULL, 0, 1) && b->nuser == 0 && !b->user, "and cleared");

  /* children in order, then a subtree deleted */
  gsSpecBody* c1 = gs_specAddBody(b);
  gsSpecBody* c2 = gs_specAddBody(b);
  gs_specAddGeom(c1)->size[0] = 0.1;
  gsSpecSite* site = gs_specAddSite(c1);
  gs_specSetString(&gs_specAssetRef(c1, site)->material, "none");  /* owned by c1: freed with it */
  gs_specAddJoint(c1);
  int n = 0;
  CHECK(gs_specChild(b, GS_SK_BODY, GS_SK_BODY, 1, &n) == c2 && n == 2, "children listed in order");
  CHECK(gs_specParent(s, GS_SK_SITE, site) == c1, "a site's parent");
  CHECK(gs_specDelete(s, GS_SK_BODY, c1) == 1, "a body is deleted");
  CHECK(gs_specChild(b, GS_SK_BODY, GS_SK_BODY, 0, &n) == c2 && n == 1, "its sibling remains");
  CHECK(gs_specDelete(s, GS_SK_BODY, c1) == 0, "a deleted body is not found again");
  CHECK(gs_specDelete(s, GS_SK_BODY, world) == 0, "the world stays");
  CHECK(gs_specDelete(s, GS_SK_BODY, c2) == 1, "the other child goes too");
  gsSpecActuator* a = gs_specAddActuator(s);
  CHECK(gs_specDelete(s, GS_SK_ACTUATOR, a) == 1 && s->nactuator == 0, "an actuator is deleted");

  char err[500];
  gsModel* m = gs_compile(s, err, sizeof(err));
  CHECK(m != NULL, "the edited spec compiles: %s", m ? "" : err);
  if (m) {
    gsData* d = gs_makeData(m);
    /* one body on one slide: invweight 1/mass, M = mass (closed forms) */
    CHECK(m->body_slider[1] == 1 && fabs(m->body_invweight0[2] - 0.5) < 1e-15, "1/mass at compile");
    m->body_mass[1] = 4;
    d->qpos[0] = 3;
    CHECK(gs_setConst(m, d, err, sizeof(err)) == 1, "set_const: %s", err);
    CHECK(fabs(m->body_invweight0[2] - 0.25) < 1e-15, "1/mass after the edit");
    CHECK(m->body_subtreemass[1] == 4 && m->body_subtreemass[0] == 4, "subtree masses");
    CHECK(fabs(m->stat.meaninertia - 4) < 1e-12, "meaninertia is the new mass");
    CHECK(d->qpos[0] == m->qpos0[0], "the data is left at qpos0");
    m->body_mass[1] = 0;
    CHECK(gs_setConst(m, d, err, sizeof(err)) == 0 && strstr(err, "mass"), "a massless moving body is refused: %s", err);
    gs_freeData(d);
    gs_freeModel(m);
  }
  gs_specFree(s);

  /* parsing without compiling, then freeing: every element kind of a rich model */
  gsSpec* p = gs_parseXMLOpt(NULL,
      "<mujoco><asset><texture name='t' builtin='checker' width='8' height='8'/>"
      "<material name='m' texture='t'/><mesh name='tet' vertex='0 0 0 1 0 0 0 1 0 0 0 1'/></asset>"
      "<worldbody><body name='b'><joint name='j'/><geom name='g' type='mesh' mesh='tet' material='m'/>"
      "<site name='s1'/><site name='s2' pos='0 0 1'/><camera name='c'/><light name='l'/></body></worldbody>"
      "<tendon><spatial name='t'><site site='s1'/><site site='s2'/></spatial></tendon>"
      "<actuator><motor joint='j'/></actuator><sensor><jointpos joint='j'/></sensor>"
      "<custom><numeric name='n' data='1 2'/><text name='x' data='hi'/>"
      "<tuple name='u'><element objtype='body' objname='b' prm='1'/></tuple></custom>"
      "<keyframe><key qpos='0.5'/></keyframe></mujoco>",
      NULL, 0, err, sizeof(err));
  CHECK(p != NULL, "parsed: %s", p ? "" : err);
  if (p) {
    /* a deep copy compiles alike and is freed on its own */
    gsSpec* copy = gs_specCopy(p);
    CHECK(copy != NULL, "copied");
    gsModel *ma = gs_compile(p, err, sizeof(err)), *mb = copy ? gs_compile(copy, err, sizeof(err)) : NULL;
    CHECK(ma && mb && ma->nbody == mb->nbody && ma->ngeom == mb->ngeom && ma->nsensor == mb->nsensor &&
              ma->ntendon == mb->ntendon && ma->nmat == mb->nmat && ma->nmesh == mb->nmesh,
          "the copy compiles to the same sizes: %s", err);
    gs_freeModel(ma), gs_freeModel(mb);
    gs_specFree(copy);
    int nw = 0;
    gsSpecTendon* t = gs_specChild(p, GS_SK_SPEC, GS_SK_TENDON, 0, NULL);
    CHECK(t && gs_specChild(t, GS_SK_TENDON, GS_SK_WRAP, 1, &nw) && nw == 2, "a tendon's path");
    CHECK(gs_specDelete(p, GS_SK_WRAP, t->wrap[0]) == 1 && t->nwrap == 1, "a wrap is deleted");
    gsSpecBody* body = gs_specChild(gs_specWorld(p), GS_SK_BODY, GS_SK_BODY, 0, NULL);
    CHECK(gs_specDelete(p, GS_SK_GEOM, body->geom[0]) == 1, "a geom with asset references is deleted");
    CHECK(gs_specFindAssetRef(body, NULL) == NULL && body->nassetref == 0, "its references went with it");
    gs_specFree(p);
  }
  CHECK(gs_parseXMLOpt(NULL, NULL, NULL, 0, err, sizeof(err)) == NULL && err[0], "no input is an error");

  /* frames: records kept through a copy, an attach into one (a new frame holding the child's
   * contents at its pose), a delete (its frames then written in its enclosing one) and compile */
  gsSpec* f = gs_parseXMLOpt(NULL,
      "<mujoco><worldbody><body name='p' pos='1 0 0'><geom size='.1'/>"
      "<frame name='a' pos='0 1 0'><frame name='b' euler='0 0 90'><geom size='.1'/></frame></frame>"
      "</body></worldbody></mujoco>", NULL, 0, err, sizeof(err));
  gsSpec* child = gs_parseXMLOpt(NULL,
      "<mujoco><worldbody><frame name='c'><body name='q' pos='2 0 0'><joint/><geom size='.1'/></body>"
      "</frame></worldbody></mujoco>", NULL, 0, err, sizeof(err));
  CHECK(f && child, "parsed: %s", err);
  if (f && child) {
    gsSpecBody* pb = gs_specChild(gs_specWorld(f), GS_SK_BODY, GS_SK_BODY, 0, NULL);
    CHECK(pb->nframe == 2 && pb->frame[1]->frame == pb->frame[0], "frame b is written in a");
    gsSpec* fc = gs_specCopy(f);
    gsSpecBody* cb = fc ? gs_specChild(gs_specWorld(fc), GS_SK_BODY, GS_SK_BODY, 0, NULL) : NULL;
    CHECK(cb && cb->nframe == 2 && cb->frame[1]->frame == cb->frame[0] && cb->frame[0] != pb->frame[0],
          "a copy has its own frames, nested alike");
    gs_specFree(fc);
    gsSpecFrame* in = gs_specAttachFrame(f, pb->frame[1], child, NULL, "x-", NULL, err, sizeof(err));
    CHECK(in && in->frame == pb->frame[1] && !in->info.name && pb->nframe == 4, "attached in b: %s", err);
    CHECK(pb->nframe == 4 && pb->frame[3]->frame == in && strcmp(pb->frame[3]->info.name, "x-c") == 0,
          "the child's frame is written in the new one");
    gsSpecBody* q = pb->nchild == 1 ? pb->child[0] : NULL;
    /* b's pose in p: (0 1 0), turned 90 degrees about z: the body at (2 0 0) lands at (0 3 0) */
    CHECK(q && fabs(q->pos[0]) < 1e-15 && fabs(q->pos[1] - 3) < 1e-15 && q->framed, "placed by b");
    CHECK(gs_specDelete(f, GS_SK_FRAME, pb->frame[0]) == 1 && pb->nframe == 3 && pb->frame[0]->frame == NULL,
          "a deleted frame's frames move out of it");
    gsModel* m = gs_compile(f, err, sizeof(err));
    /* b, the unnamed frame attached in it, then x-c in that one; q is written in x-c */
    CHECK(m && m->nframe == 3 && m->frame_bodyid[0] == 1 && m->frame_frameid[1] == 0 &&
              m->frame_frameid[2] == 1 && m->framenames[m->frame_nameadr[1]] == 0 &&
              strcmp(m->framenames + m->frame_nameadr[2], "x-c") == 0 && m->body_frameid[2] == 2 &&
              m->body_frameid[1] == -1 && m->geom_frameid[0] == -1 && m->geom_frameid[1] == 0,
          "the frames in the model: %s", err);
    /* written back: the geom of frame b inside <frame name="b">, q inside x-c; read back alike */
    int n = m ? gs_saveXMLString(m, NULL, 0, err, sizeof(err)) : -1;
    char* xml = n > 0 ? malloc((size_t)n + 1) : NULL;
    CHECK(xml && gs_saveXMLString(m, xml, n + 1, err, sizeof(err)) == n, "written: %s", err);
    if (xml) {
      const char* fb = strstr(xml, "<frame name=\"b\">");
      const char* fxc = strstr(xml, "<frame name=\"x-c\">");
      CHECK(fb && strstr(fb, "<geom") && fxc && strstr(fxc, "<body name=\"x-q\"") &&
                strstr(fb, "<geom") < fxc, "frames nest their contents");
      gsModel* again = gs_loadXMLString(xml, err, sizeof(err));
      CHECK(again && again->nframe == 2 && again->ngeom == m->ngeom && again->body_frameid[2] == 1 &&
                fabs(again->body_pos[6] - m->body_pos[6]) < 1e-15 && fabs(again->body_pos[7] - m->body_pos[7]) < 1e-15,
            "read back with the named frames: %s", err);
      gs_freeModel(again);
    }
    free(xml);
    gs_freeModel(m);
    /* frame b moved by 1 along x in p: what it holds (its geom, and q through the frames in it)
     * moves along; a fromto written in b is taken in b (turned 90 degrees about z there) */
    gsSpecFrame* b = pb->frame[0];
    gsSpecGeom* g = pb->geom[1];
    gsReal gx = g->pos[0], qx = q->pos[0], np[3] = {b->pos[0] + 1, b->pos[1], b->pos[2]};
    CHECK(gs_specFrameOf(GS_SK_GEOM, g) == b && gs_specFrameOf(GS_SK_BODY, q) == pb->frame[2] &&
              gs_specFrameOf(GS_SK_FRAME, pb->frame[2]) == pb->frame[1] && !gs_specFrameOf(GS_SK_BODY, pb),
          "the frame each element is written in");
    CHECK(g->frame == b && gs_specSetFramePose(f, pb, b, np, b->quat, err, sizeof(err)) &&
              fabs(g->pos[0] - gx - 1) < 1e-15 && fabs(q->pos[0] - qx - 1) < 1e-15 &&
              fabs(pb->frame[2]->bpos[0] - np[0]) < 1e-15,
          "moved with the frame: %s", err);
    g->type = GS_GEOM_CAPSULE;
    g->has_fromto = 1;
    const gsReal ft[6] = {0, 0, 0, 2, 0, 0};
    memcpy(g->fromto, ft, sizeof(ft));
    CHECK(gs_specFramedFromto(f, GS_SK_GEOM, g, err, sizeof(err)) && !g->has_fromto &&
              fabs(g->pos[0] - np[0]) < 1e-12 && fabs(g->pos[1] - (np[1] + 1)) < 1e-12 &&
              fabs(g->size[1] - 1) < 1e-15,
          "fromto in the frame: %s", err);
    CHECK(!gs_specSetFramePose(f, gs_specWorld(f), b, np, b->quat, err, sizeof(err)) && err[0],
          "a frame of another body is refused");
  }
  gs_specFree(f);
  gs_specFree(child);

  /* an element put in a frame (gs_specSetFrame): its pose read in the frame stays, so it lands at
   * the frame's pose composed with it; frame h at (1 0 0) turned 180 degrees about z takes a geom
   * at (0 0 .5) to (1 0 .5) and a body at (0 2 0) to (1 -2 0); a frame of another body is refused */
  gsSpec* e = gs_parseXMLOpt(NULL, "<mujoco><worldbody><body name='a'><joint/><geom size='.1'/>"
                             "<geom name='g' size='.1' pos='0 0 .5'/><body name='c' pos='0 2 0'><geom size='.1'/>"
                             "</body></body><body name='o'/></worldbody></mujoco>", NULL, 0, err, sizeof(err));
  CHECK(e != NULL, "parsed: %s", err);
  if (e) {
    gsSpecBody* a = gs_specWorld(e)->child[0];
    gsSpecFrame* h = gs_specAddFrame(a, NULL);
    const gsReal hp[3] = {1, 0, 0}, hq[4] = {0, 0, 0, 1};
    memcpy(h->pos, hp, sizeof(hp));
    memcpy(h->quat, hq, sizeof(hq));
    gs_specSetName(&h->info, "h");
    CHECK(gs_specSetFrame(e, GS_SK_GEOM, a->geom[1], h, err, sizeof(err)) &&
              gs_specSetFrame(e, GS_SK_BODY, a->child[0], h, err, sizeof(err)) && h->placed &&
              gs_specFrameOf(GS_SK_GEOM, a->geom[1]) == h && gs_specFrameOf(GS_SK_BODY, a->child[0]) == h,
          "put in frame h: %s", err);
    CHECK(!gs_specSetFrame(e, GS_SK_GEOM, a->geom[1], gs_specAddFrame(gs_specWorld(e)->child[1], NULL), err,
                           sizeof(err)) && strstr(err, "'a'") && a->geom[1]->frame == h,
          "a frame of another body is refused: %s", err);
    gsModel* m = gs_compile(e, err, sizeof(err));
    CHECK(m && fabs(m->geom_pos[3] - 1) < 1e-15 && fabs(m->geom_pos[5] - .5) < 1e-15 &&
              fabs(m->body_pos[6] - 1) < 1e-15 && fabs(m->body_pos[7] + 2) < 1e-15 &&
              fabs(fabs(m->body_quat[11]) - 1) < 1e-15 && m->geom_frameid[1] == 0 && m->body_frameid[2] == 0,
          "compiled in the frame: %s", err);
    int n = m ? gs_saveXMLString(m, NULL, 0, err, sizeof(err)) : -1;
    char* xml = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (xml && gs_saveXMLString(m, xml, n + 1, err, sizeof(err)) == n) {
      const char* fh = strstr(xml, "<frame name=\"h\">");
      CHECK(fh && strstr(fh, "<geom name=\"g\"") && strstr(fh, "<body name=\"c\""), "written in <frame name=\"h\">");
    } else {
      CHECK(0, "written: %s", err);
    }
    free(xml);
    gs_freeModel(m);
    /* h put in a later frame k at (0 0 1): listed after k, what it holds lifted by 1 */
    gsSpecFrame* k = gs_specAddFrame(a, NULL);
    k->pos[2] = 1;
    CHECK(gs_specSetFrame(e, GS_SK_FRAME, h, k, err, sizeof(err)) && a->frame[0] == k && a->frame[1] == h &&
              h->frame == k && fabs(a->geom[1]->pos[2] - 1.5) < 1e-15 && fabs(a->child[0]->pos[2] - 1) < 1e-15,
          "a frame put in a later one: %s", err);
    CHECK(!gs_specSetFrame(e, GS_SK_FRAME, k, h, err, sizeof(err)) && k->frame == NULL, "a loop of frames is refused");
    gs_specFree(e);
  }
  return CHECK_SUMMARY();
}
