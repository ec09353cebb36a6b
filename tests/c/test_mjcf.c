/* MJCF reader tests: each kind of bad input fails with the file, line and element in the message;
 * defaults, childclass, compiler, option and flags land in the spec as written; skipped elements
 * are warned about; includes splice files in place; every corpus model parses. */
#define _XOPEN_SOURCE 700  /* mkdtemp */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gauss/gauss.h"

#include "check.h"

static int has(const char* s, const char* sub) { return s && sub && strstr(s, sub) != NULL; }
static const char* str(const char* s) { return s ? s : "(null)"; }
static int near(double a, double b) { return fabs(a - b) < 1e-12; }

/* the parse must fail, and the message must hold every one of where, elem and text */
static void expect_error(const char* what, const char* xml, const char* where, const char* elem,
                         const char* text) {
  char err[1000] = "";
  gsSpec* s = gs_parseXMLString(xml, err, sizeof(err));
  CHECK(s == NULL, "%s: parsed without error", what);
  gs_specFree(s);
  CHECK(has(err, where), "%s: '%s' not in error '%s'", what, where, err);
  if (elem) CHECK(has(err, elem), "%s: '%s' not in error '%s'", what, elem, err);
  if (text) CHECK(has(err, text), "%s: '%s' not in error '%s'", what, text, err);
}

/* the file parses, but the compile must fail with a message holding where, elem and text */
static void expect_compile_error(const char* what, const char* xml, const char* where,
                                 const char* elem, const char* text) {
  char err[1000] = "";
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  CHECK(m == NULL, "%s: compiled without error", what);
  gs_freeModel(m);
  CHECK(has(err, where) && has(err, elem) && has(err, text), "%s: '%s', '%s', '%s' not all in error '%s'",
        what, where, elem, text, err);
}

static gsSpec* parse_ok(const char* what, const char* xml) {
  char err[1000] = "";
  gsSpec* s = gs_parseXMLString(xml, err, sizeof(err));
  CHECK(s != NULL, "%s: %s", what, err);
  return s;
}

/* ---- bad input ---- */

static void test_errors(void) {
  /* a geom so large that its inertia overflows: the compiler says so, and no model with an
   * infinite inertia (and a mean inertia of NaN, which the binary loader refuses) is made */
  expect_compile_error("overflowing inertia",
                       "<mujoco><worldbody><body><joint/><geom size='.1'/>\n"
                       "<body><joint/>\n<geom type='box' size='.1 6e105 .3'/></body>\n"
                       "</body></worldbody></mujoco>",
                       "<string>:2:", "body", "finite");
  expect_compile_error("overflowing mean inertia",
                       "<mujoco><worldbody><body><joint/>\n"
                       "<inertial mass='1e300' diaginertia='1.7e308 1.7e308 1.7e308' pos='0 0 0'/></body>\n"
                       "<body><joint/><inertial mass='1e300' diaginertia='1.7e308 1.7e308 1.7e308' pos='0 0 0'/>\n"
                       "</body></worldbody></mujoco>",
                       "model:", "qpos0", "mean inertia");
  expect_error("joint on world",
               "<mujoco>\n"
               "  <worldbody>\n"
               "    <joint name=\"j\"/>\n"
               "  </worldbody>\n"
               "</mujoco>",
               "<string>:3:", "<joint>", "world body");
  expect_error("freejoint on world",
               "<mujoco>\n<worldbody>\n\n<freejoint/>\n</worldbody>\n</mujoco>", "<string>:4:",
               "<freejoint>", "world body");
  expect_error("negative mass",
               "<mujoco>\n"
               "  <worldbody>\n"
               "    <body>\n"
               "      <geom size=\"1\" mass=\"-1\"/>\n"
               "    </body>\n"
               "  </worldbody>\n"
               "</mujoco>",
               "<string>:4:", "<geom>", "mass");
  expect_error("negative density",
               "<mujoco><worldbody>\n<geom size=\"1\" density=\"-5\"/></worldbody></mujoco>",
               "<string>:2:", "<geom>", "density");
  expect_error("negative inertial mass",
               "<mujoco><worldbody><body>\n"
               "<inertial pos=\"0 0 0\" mass=\"-2\" diaginertia=\"1 1 1\"/>\n"
               "</body></worldbody></mujoco>",
               "<string>:2:", "<inertial>", "mass");
  expect_error("negative inertia",
               "<mujoco><worldbody><body>\n\n"
               "<inertial pos=\"0 0 0\" mass=\"2\" diaginertia=\"1 -1 1\"/>\n"
               "</body></worldbody></mujoco>",
               "<string>:3:", "<inertial>", "diaginertia");
  expect_error("zero quaternion",
               "<mujoco>\n<worldbody>\n<body quat=\"0 0 0 0\">\n</body></worldbody></mujoco>",
               "<string>:3:", "<body>", "zero quaternion");
  expect_error("zero quaternion in geom",
               "<mujoco><worldbody>\n<geom size=\"1\" quat=\"0 0 0 0\"/></worldbody></mujoco>",
               "<string>:2:", "<geom>", "quat");
  expect_error("malformed number",
               "<mujoco>\n<worldbody>\n<geom size=\"1.0abc\"/>\n</worldbody></mujoco>",
               "<string>:3:", "<geom>", "malformed number '1.0abc'");
  expect_error("nan", "<mujoco>\n<option timestep=\"nan\"/></mujoco>", "<string>:2:", "<option>",
               "timestep");
  expect_error("empty number", "<mujoco>\n<option timestep=\"\"/></mujoco>", "<string>:2:",
               "<option>", "timestep");
  expect_error("malformed integer", "<mujoco>\n<option iterations=\"1.5\"/></mujoco>",
               "<string>:2:", "<option>", "iterations");
  expect_error("too few values",
               "<mujoco>\n<worldbody>\n<geom size=\"1\" pos=\"1 2\"/>\n</worldbody></mujoco>",
               "<string>:3:", "<geom>", "expected 3 numbers, got 2");
  expect_error("too many values",
               "<mujoco><worldbody>\n<body>\n<joint axis=\"1 0 0 0\"/></body></worldbody></mujoco>",
               "<string>:3:", "<joint>", "axis");
  expect_error("too many sizes",
               "<mujoco><worldbody>\n<geom size=\"1 2 3 4\"/></worldbody></mujoco>",
               "<string>:2:", "<geom>", "size");
  expect_error("missing inertial mass",
               "<mujoco><worldbody><body>\n"
               "<inertial pos=\"0 0 0\" diaginertia=\"1 1 1\"/>\n"
               "</body></worldbody></mujoco>",
               "<string>:2:", "<inertial>", "missing required attribute 'mass'");
  expect_error("missing inertia",
               "<mujoco><worldbody><body>\n"
               "<inertial pos=\"0 0 0\" mass=\"1\"/>\n"
               "</body></worldbody></mujoco>",
               "<string>:2:", "<inertial>", "diaginertia");
  expect_error("missing include file", "<mujoco>\n<include/>\n</mujoco>", "<string>:2:",
               "<include>", "missing required attribute 'file'");
  expect_error("missing default class",
               "<mujoco><default>\n<default>\n</default></default></mujoco>", "<string>:2:",
               "<default>", "class");
  expect_error("unknown element",
               "<mujoco>\n<worldbody>\n<body>\n<foo/>\n</body></worldbody></mujoco>",
               "<string>:4:", "<foo>", "unknown element");
  expect_error("unknown top-level element", "<mujoco>\n\n<bar/>\n</mujoco>", "<string>:3:",
               "<bar>", "unknown element");
  expect_error("unknown element in skipped section",
               "<mujoco>\n<actuator>\n<motor joint=\"a\"/>\n<mtor/>\n</actuator></mujoco>",
               "<string>:4:", "<mtor>", "unknown element");
  expect_error("misplaced element", "<mujoco>\n<geom size=\"1\"/>\n</mujoco>", "<string>:2:",
               "<geom>", "not allowed in <mujoco>");
  expect_error("unknown attribute",
               "<mujoco>\n<worldbody>\n<geom size=\"1\" foo=\"1\"/>\n</worldbody></mujoco>",
               "<string>:3:", "<geom>", "unknown attribute 'foo'");
  /* the line where the element begins, not where its start tag ends */
  expect_error("multi-line start tag",
               "<mujoco>\n<worldbody>\n<geom size=\"1\"\n      pos=\"0 0 0\"\n"
               "      foo=\"1\"/>\n</worldbody></mujoco>",
               "<string>:3:", "<geom>", "unknown attribute 'foo'");
  expect_error("unknown attribute in default",
               "<mujoco>\n<default>\n<joint dampin=\"1\"/>\n</default></mujoco>", "<string>:3:",
               "<joint>", "unknown attribute 'dampin'");
  expect_error("name in default", "<mujoco>\n<default>\n<geom name=\"g\"/>\n</default></mujoco>",
               "<string>:3:", "<geom>", "name");
  expect_error("unclosed tag",
               "<mujoco>\n"
               "  <worldbody>\n"
               "    <body>\n"
               "  </worldbody>\n"
               "</mujoco>\n",
               "<string>:4:", "body", "malformed XML");
  expect_error("unclosed root", "<mujoco>\n<worldbody/>\n", "<string>:", "mujoco",
               "malformed XML");
  expect_error("undefined class",
               "<mujoco>\n<worldbody>\n<geom class=\"nope\" size=\"1\"/>\n</worldbody></mujoco>",
               "<string>:3:", "<geom>", "undefined class 'nope'");
  expect_error("undefined childclass",
               "<mujoco>\n<worldbody>\n<body childclass=\"x\"/>\n</worldbody></mujoco>",
               "<string>:3:", "<body>", "undefined class 'x'");
  expect_error("duplicate class",
               "<mujoco><default>\n<default class=\"a\"/>\n<default class=\"a\"/>\n"
               "</default></mujoco>",
               "<string>:3:", "<default>", "duplicate class 'a'");
  expect_error("renamed main class", "<mujoco>\n<default class=\"base\"/>\n</mujoco>",
               "<string>:2:", "<default>", "main");
  expect_error("bad keyword",
               "<mujoco>\n<worldbody>\n<body>\n<joint type=\"hing\"/>\n</body></worldbody></mujoco>",
               "<string>:4:", "<joint>", "allowed: free, ball, slide, hinge");
  expect_error("bad integrator", "<mujoco>\n<option integrator=\"rk4\"/>\n</mujoco>",
               "<string>:2:", "<option>", "integrator");
  expect_error("bad flag value", "<mujoco>\n<option>\n<flag contact=\"off\"/>\n</option></mujoco>",
               "<string>:3:", "<flag>", "contact");
  expect_error("bad eulerseq", "<mujoco>\n<compiler eulerseq=\"xya\"/>\n</mujoco>",
               "<string>:2:", "<compiler>", "eulerseq");
  expect_error("global coordinates", "<mujoco>\n<compiler coordinate=\"global\"/>\n</mujoco>",
               "<string>:2:", "<compiler>", "coordinate");
  expect_error("bad value in default class",
               "<mujoco>\n<default>\n<geom size=\"x\"/>\n</default>\n"
               "<worldbody><geom/></worldbody></mujoco>",
               "<string>:3:", "<geom>", "malformed number 'x'");
  expect_error("two orientations",
               "<mujoco>\n<worldbody>\n<geom size=\"1\" quat=\"1 0 0 0\" euler=\"0 0 1\"/>\n"
               "</worldbody></mujoco>",
               "<string>:3:", "<geom>", "at most one");
  expect_error("fullinertia with quat",
               "<mujoco><worldbody><body>\n"
               "<inertial pos=\"0 0 0\" mass=\"1\" fullinertia=\"1 1 1 0 0 0\" quat=\"1 0 0 0\"/>\n"
               "</body></worldbody></mujoco>",
               "<string>:2:", "<inertial>", "fullinertia");
  expect_error("two inertials",
               "<mujoco><worldbody><body>\n"
               "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>\n"
               "<inertial pos=\"0 0 0\" mass=\"1\" diaginertia=\"1 1 1\"/>\n"
               "</body></worldbody></mujoco>",
               "<string>:3:", "<inertial>", "more than one");
  /* (a <robot> root is URDF: test_urdf.c) */
  expect_error("root not mujoco", "<sdf version=\"1.6\">\n</sdf>", "<string>:1:", "<sdf>",
               "root element");
  expect_error("not XML", "this is not xml", "<string>:1:", NULL, "malformed XML");
  expect_error("empty string", "", "<string>", NULL, "malformed XML");

  char err[200] = "";
  CHECK(gs_parseXMLString(NULL, err, sizeof(err)) == NULL && err[0], "NULL string");
  CHECK(gs_parseXML("/nonexistent/model.xml", err, sizeof(err)) == NULL &&
            has(err, "/nonexistent/model.xml"),
        "missing file: %s", err);
  /* a NULL or tiny error buffer is allowed */
  CHECK(gs_parseXMLString("<mujoco><foo/></mujoco>", NULL, 0) == NULL, "NULL err");
  CHECK(gs_parseXMLString("<mujoco><foo/></mujoco>", err, 1) == NULL && err[0] == 0, "errsz 1");
}

/* ---- defaults and childclass ---- */

static gsSpecBody* child(gsSpecBody* b, int i) { return i < b->nchild ? b->child[i] : NULL; }

static void test_defaults(void) {
  gsSpec* s = parse_ok("defaults",
                       "<mujoco>\n"
                       "  <default>\n"
                       "    <geom type=\"capsule\" size=\"0.1 0.2\" rgba=\"1 0 0 1\"/>\n"
                       "    <joint damping=\"1\"/>\n"
                       "    <default class=\"a\">\n"
                       "      <geom size=\"0.3\" friction=\"0.5\"/>\n"
                       "      <joint stiffness=\"2\" range=\"-1 1\" type=\"slide\"/>\n"
                       "      <site type=\"box\" euler=\"0 0 90\"/>\n"
                       "      <default class=\"b\">\n"
                       "        <geom type=\"box\" contype=\"3\"/>\n"
                       "        <motor gear=\"2\"/>\n"
                       "      </default>\n"
                       "    </default>\n"
                       "  </default>\n"
                       "  <worldbody>\n"
                       "    <geom name=\"g0\"/>\n"
                       "    <body name=\"b1\" childclass=\"a\">\n"
                       "      <joint name=\"j1\"/>\n"
                       "      <freejoint name=\"free\"/>\n"
                       "      <geom name=\"g1\"/>\n"
                       "      <site name=\"s1\" quat=\"0 1 0 0\"/>\n"
                       "      <body name=\"b2\">\n"
                       "        <geom name=\"g2\" class=\"b\" size=\"0.4 0.5 0.6\"/>\n"
                       "        <geom name=\"g3\" class=\"main\" type=\"sphere\"/>\n"
                       "        <joint name=\"j2\" class=\"main\" range=\"0 1\" limited=\"false\"/>\n"
                       "      </body>\n"
                       "    </body>\n"
                       "  </worldbody>\n"
                       "</mujoco>\n");
  if (!s) return;
  gsSpecBody* w = s->world;
  CHECK(w->ngeom == 1 && w->nchild == 1, "world has one geom and one body");
  if (w->ngeom != 1 || w->nchild != 1) {
    gs_specFree(s);
    return;
  }
  gsSpecGeom* g0 = w->geom[0];
  CHECK(g0->type == GS_GEOM_CAPSULE, "g0 type from main");
  CHECK(near(g0->size[0], 0.1) && near(g0->size[1], 0.2) && g0->size[2] == 0, "g0 size");
  CHECK(near(g0->rgba[0], 1) && g0->rgba[1] == 0, "g0 rgba");
  CHECK(near(g0->friction[0], 1) && near(g0->friction[1], 0.005), "g0 friction built-in");
  CHECK(g0->info.name && strcmp(g0->info.name, "g0") == 0, "g0 name");
  CHECK(g0->info.line == 16 && g0->info.file && strcmp(g0->info.file, "<string>") == 0,
        "g0 file and line: %s:%d", g0->info.file ? g0->info.file : "(null)", g0->info.line);

  gsSpecBody* b1 = child(w, 0);
  CHECK(b1->info.name && strcmp(b1->info.name, "b1") == 0 && b1->info.line == 17, "b1 info");
  CHECK(b1->njoint == 2 && b1->ngeom == 1 && b1->nsite == 1 && b1->nchild == 1, "b1 contents");
  if (b1->njoint == 2 && b1->ngeom == 1 && b1->nsite == 1 && b1->nchild == 1) {
    gsSpecJoint* j1 = b1->joint[0];
    CHECK(j1->type == GS_JNT_SLIDE, "j1 type from class a");
    CHECK(near(j1->damping, 1) && near(j1->stiffness, 2), "j1 damping from main, stiffness a");
    CHECK(j1->range_given && near(j1->range[0], -1) && near(j1->range[1], 1), "j1 range");
    CHECK(j1->limited == GS_LIMITED_AUTO, "j1 limited auto");

    gsSpecJoint* fj = b1->joint[1];
    CHECK(fj->type == GS_JNT_FREE, "freejoint type");
    CHECK(fj->damping == 0 && fj->stiffness == 0 && !fj->range_given,
          "freejoint takes no defaults");

    gsSpecGeom* g1 = b1->geom[0];
    CHECK(g1->type == GS_GEOM_CAPSULE, "g1 type from main");
    /* values not written keep what the classes above set */
    CHECK(near(g1->size[0], 0.3) && near(g1->size[1], 0.2), "g1 size %g %g", g1->size[0],
          g1->size[1]);
    CHECK(near(g1->friction[0], 0.5) && near(g1->friction[1], 0.005), "g1 friction");

    gsSpecSite* s1 = b1->site[0];
    CHECK(s1->type == GS_GEOM_BOX, "s1 type from class a");
    CHECK(s1->orient.type == GS_ORIENT_QUAT && near(s1->orient.quat[1], 1),
          "own quat overrides class euler");

    gsSpecBody* b2 = child(b1, 0);
    CHECK(b2->ngeom == 2 && b2->njoint == 1, "b2 contents");
    if (b2->ngeom == 2 && b2->njoint == 1) {
      gsSpecGeom* g2 = b2->geom[0];
      CHECK(g2->type == GS_GEOM_BOX && g2->contype == 3, "g2 from class b");
      CHECK(near(g2->size[2], 0.6) && near(g2->friction[0], 0.5), "g2 own size, a's friction");
      gsSpecGeom* g3 = b2->geom[1];
      CHECK(g3->type == GS_GEOM_SPHERE && near(g3->friction[0], 1) && near(g3->size[0], 0.1),
            "g3 class main over childclass");
      gsSpecJoint* j2 = b2->joint[0];
      CHECK(j2->type == GS_JNT_HINGE && j2->stiffness == 0 && near(j2->damping, 1),
            "j2 class main");
      CHECK(j2->limited == GS_LIMITED_FALSE && j2->range_given, "j2 limited and range");
    }
  }
  CHECK(!has(gs_loadWarnings(), "<motor>"), "motor default read: %s", str(gs_loadWarnings()));
  gs_specFree(s);
}

/* ---- compiler, option, flags, frames ---- */

static void test_settings(void) {
  gsSpec* s = parse_ok("settings",
                       "<mujoco model=\"settings\">\n"
                       "  <compiler angle=\"radian\" eulerseq=\"ZYX\" inertiafromgeom=\"true\"\n"
                       "            autolimits=\"false\" settotalmass=\"5\" boundmass=\"0.1\"\n"
                       "            boundinertia=\"0.01\" balanceinertia=\"true\"\n"
                       "            inertiagrouprange=\"1 3\" coordinate=\"local\"/>\n"
                       "  <option timestep=\"0.01\" gravity=\"0 0 -1\" integrator=\"RK4\"\n"
                       "          cone=\"elliptic\" solver=\"CG\" jacobian=\"sparse\"\n"
                       "          iterations=\"7\" ls_iterations=\"8\" o_solref=\"0.03\"\n"
                       "          o_friction=\"2 3\" wind=\"1 2 3\" density=\"1.2\"\n"
                       "          viscosity=\"0.5\" impratio=\"2\" tolerance=\"1e-6\">\n"
                       "    <flag contact=\"disable\" energy=\"enable\" gravity=\"enable\"\n"
                       "          warmstart=\"disable\" multiccd=\"enable\"/>\n"
                       "  </option>\n"
                       "  <worldbody>\n"
                       "    <body euler=\"1 2 3\" pos=\"1 2 3\">\n"
                       "      <geom type=\"capsule\" size=\".1\" fromto=\"0 0 0 1 0 0\" mass=\"2\"/>\n"
                       "      <geom type=\"box\" size=\".1 .2 .3\" axisangle=\"0 0 1 0.5\"/>\n"
                       "      <site zaxis=\"0 1 0\" size=\"0.02\"/>\n"
                       "      <site xyaxes=\"0 1 0 -1 0 0\" type=\"capsule\" fromto=\"0 0 0 0 0 1\"/>\n"
                       "      <inertial pos=\"0 0 1\" mass=\"3\" diaginertia=\"1 2 3\" quat=\"0 0 0 1\"/>\n"
                       "    </body>\n"
                       "    <body>\n"
                       "      <inertial pos=\"0 0 0\" mass=\"1\" fullinertia=\"1 2 3 0.1 0.2 0.3\"/>\n"
                       "    </body>\n"
                       "  </worldbody>\n"
                       "</mujoco>\n");
  if (!s) return;
  CHECK(s->modelname && strcmp(s->modelname, "settings") == 0, "model name");
  const gsCompilerOptions* c = &s->compiler;
  CHECK(c->degree == 0, "angle radian");
  CHECK(strcmp(c->eulerseq, "ZYX") == 0, "eulerseq %s", c->eulerseq);
  CHECK(c->inertiafromgeom == GS_INERTIAFROMGEOM_TRUE, "inertiafromgeom");
  CHECK(c->autolimits == 0 && c->balanceinertia == 1, "booleans");
  CHECK(near(c->settotalmass, 5) && near(c->boundmass, 0.1) && near(c->boundinertia, 0.01),
        "compiler reals");
  CHECK(c->inertiagrouprange[0] == 1 && c->inertiagrouprange[1] == 3, "inertiagrouprange");

  const gsOption* o = &s->option;
  CHECK(near(o->timestep, 0.01) && near(o->gravity[2], -1) && o->gravity[0] == 0, "timestep");
  CHECK(o->integrator == GS_INT_RK4 && o->cone == GS_CONE_ELLIPTIC && o->solver == GS_SOL_CG &&
            o->jacobian == GS_JAC_SPARSE,
        "option keywords");
  CHECK(o->iterations == 7 && o->ls_iterations == 8, "iterations");
  CHECK(near(o->o_solref[0], 0.03) && near(o->o_solref[1], 1), "o_solref partial");
  CHECK(near(o->o_friction[0], 2) && near(o->o_friction[1], 3) && near(o->o_friction[2], 0.005),
        "o_friction partial");
  CHECK(near(o->wind[2], 3) && near(o->density, 1.2) && near(o->viscosity, 0.5), "wind etc");
  CHECK(near(o->impratio, 2) && near(o->tolerance, 1e-6), "impratio, tolerance");
  CHECK(o->disableflags == (GS_DSBL_CONTACT | GS_DSBL_WARMSTART), "disableflags %x",
        (unsigned)o->disableflags);
  CHECK(o->enableflags == (GS_ENBL_ENERGY | GS_ENBL_MULTICCD), "enableflags %x",
        (unsigned)o->enableflags);

  gsSpecBody* b = s->world->nchild == 2 ? s->world->child[0] : NULL;
  CHECK(b && b->ngeom == 2 && b->nsite == 2, "body contents");
  if (b && b->ngeom == 2 && b->nsite == 2) {
    CHECK(b->orient.type == GS_ORIENT_EULER && near(b->orient.euler[2], 3), "body euler");
    CHECK(near(b->pos[1], 2), "body pos");
    gsSpecGeom* g = b->geom[0];
    CHECK(g->has_fromto && near(g->fromto[3], 1) && near(g->mass, 2), "geom fromto, mass");
    const gsOrientation* go = &b->geom[1]->orient;
    CHECK(go->type == GS_ORIENT_AXISANGLE && near(go->axisangle[3], 0.5), "geom axisangle");
    CHECK(b->site[0]->orient.type == GS_ORIENT_ZAXIS && near(b->site[0]->orient.zaxis[1], 1),
          "site zaxis");
    CHECK(near(b->site[0]->size[0], 0.02) && near(b->site[0]->size[1], 0.005),
          "site size keeps default");
    CHECK(b->site[1]->orient.type == GS_ORIENT_XYAXES && b->site[1]->has_fromto &&
              b->site[1]->type == GS_GEOM_CAPSULE,
          "site xyaxes, fromto");
    const gsSpecInertial* in = &b->inertial;
    CHECK(in->given && near(in->mass, 3) && near(in->diaginertia[1], 2) && !in->has_full,
          "inertial diag");
    CHECK(in->orient.type == GS_ORIENT_QUAT && near(in->orient.quat[3], 1) && near(in->pos[2], 1),
          "inertial frame");
    const gsSpecInertial* in2 = &s->world->child[1]->inertial;
    CHECK(in2->given && in2->has_full && near(in2->fullinertia[5], 0.3), "inertial full");
  }
  gs_specFree(s);

  /* angles are stored as written; the compiler converts them */
  s = parse_ok("degrees", "<mujoco><worldbody><body euler=\"0 0 90\"><joint range=\"-45 45\"/>"
                          "</body></worldbody></mujoco>");
  if (s) {
    CHECK(s->compiler.degree == 1 && strcmp(s->compiler.eulerseq, "xyz") == 0, "defaults");
    CHECK(near(s->world->child[0]->orient.euler[2], 90), "euler as written");
    CHECK(near(s->world->child[0]->joint[0]->range[1], 45), "range as written");
    gs_specFree(s);
  }
}

/* ---- warnings ---- */

static void test_warnings(void) {
  gsSpec* s = parse_ok("warnings",
                       "<mujoco>\n"
                       "  <option sdf_iterations=\"5\"/>\n"
                       "  <worldbody>\n"
                       "    <light pos=\"0 0 1\"/>\n"
                       "    <body mocap=\"true\">\n"
                       "      <geom size=\"1\" user=\"1 2\"/>\n"
                       "      <geom size=\"1\" user=\"3\"/>\n"
                       "      <camera name=\"c\"/>\n"
                       "    </body>\n"
                       "  </worldbody>\n"
                       "  <actuator>\n"
                       "    <motor joint=\"x\"/>\n"
                       "  </actuator>\n"
                       "  <sensor><jointpos joint=\"x\"/></sensor>\n"
                       "</mujoco>\n");
  const char* w = gs_loadWarnings();
  /* actuators and sensors are simulated: no warning */
  CHECK(!has(w, "<actuator>"), "no actuator warning: %s", str(w));
  CHECK(!has(w, "<sensor>"), "no sensor warning");
  CHECK(!has(w, "<motor>") && !has(w, "<jointpos>"), "one warning per section");
  /* read and used: no warning */
  CHECK(!has(w, "<light>") && !has(w, "<camera>"), "lights and cameras are read");
  CHECK(!has(w, "'mocap'") && !has(w, "'user'"), "mocap and user data are read");
  CHECK(has(w, "<string>:2: attribute 'sdf_iterations' of <option>"), "option warning");
  CHECK(!has(w, "<string>:7:"), "repeated warning given once");
  CHECK(s && s->world->nchild == 1 && s->world->child[0]->ngeom == 2,
        "skipped elements leave the rest of the tree");
  gs_specFree(s);

  s = parse_ok("no warnings", "<mujoco><worldbody><geom size=\"1\"/></worldbody></mujoco>");
  CHECK(strcmp(gs_loadWarnings(), "") == 0, "warnings cleared: %s", str(gs_loadWarnings()));
  gs_specFree(s);
}

/* ---- include ---- */

static int write_file(const char* path, const char* text) {
  FILE* f = fopen(path, "w");
  if (!f) return 0;
  fputs(text, f);
  fclose(f);
  return 1;
}

static void test_include(void) {
  char dir[] = "/tmp/gauss_mjcf_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return;
  }
  char main_xml[300], sub_dir[300], part[300], leaf[300], a[300], b[300], missing[300];
  snprintf(main_xml, sizeof(main_xml), "%s/main.xml", dir);
  snprintf(sub_dir, sizeof(sub_dir), "%s/sub", dir);
  snprintf(part, sizeof(part), "%s/sub/part.xml", dir);
  snprintf(leaf, sizeof(leaf), "%s/sub/leaf.xml", dir);
  snprintf(a, sizeof(a), "%s/a.xml", dir);
  snprintf(b, sizeof(b), "%s/b.xml", dir);
  snprintf(missing, sizeof(missing), "%s/missing.xml", dir);
  int ok = mkdir(sub_dir, 0700) == 0 &&
       write_file(main_xml,
                  "<mujoco>\n"
                  "  <include file=\"sub/part.xml\"/>\n"
                  "  <worldbody>\n"
                  "    <body name=\"top\" childclass=\"inc\">\n"
                  "      <include file=\"sub/leaf.xml\"/>\n"
                  "    </body>\n"
                  "  </worldbody>\n"
                  "</mujoco>\n") &&
       /* relative to the including file: leaf.xml sits next to part.xml */
       write_file(part,
                  "<mujoco>\n"
                  "  <default><default class=\"inc\"><geom size=\"0.7\"/></default></default>\n"
                  "  <compiler angle=\"radian\"/>\n"
                  "</mujoco>\n") &&
       write_file(leaf,
                  "<mujoco>\n"
                  "  <geom name=\"from_leaf\"/>\n"
                  "  <joint name=\"j\"/>\n"
                  "</mujoco>\n") &&
       write_file(a, "<mujoco>\n<include file=\"b.xml\"/>\n</mujoco>\n") &&
       write_file(b, "<mujoco>\n\n<include file=\"a.xml\"/>\n</mujoco>\n") &&
       write_file(missing, "<mujoco>\n\n\n<include file=\"nothere.xml\"/>\n</mujoco>\n");
  CHECK(ok, "writing temp files in %s", dir);

  char err[1000] = "";
  gsSpec* s = gs_parseXML(main_xml, err, sizeof(err));
  CHECK(s != NULL, "include: %s", err);
  if (s) {
    CHECK(s->compiler.degree == 0, "compiler from included file");
    gsSpecBody* top = s->world->nchild == 1 ? s->world->child[0] : NULL;
    CHECK(top && top->ngeom == 1 && top->njoint == 1, "spliced into the body");
    if (top && top->ngeom == 1) {
      gsSpecGeom* g = top->geom[0];
      CHECK(near(g->size[0], 0.7), "class from included default");
      CHECK(g->info.line == 2 && has(g->info.file, "leaf.xml"), "element file and line: %s:%d",
            str(g->info.file), g->info.line);
    }
    gs_specFree(s);
  }

  s = gs_parseXML(a, err, sizeof(err));
  CHECK(s == NULL, "include cycle parsed");
  gs_specFree(s);
  CHECK(has(err, "b.xml:3:") && has(err, "<include>") && has(err, "cycle"), "cycle: %s", err);

  s = gs_parseXML(missing, err, sizeof(err));
  CHECK(s == NULL, "missing include parsed");
  gs_specFree(s);
  CHECK(has(err, "missing.xml:4:") && has(err, "<include>") && has(err, "nothere.xml"),
        "missing include: %s", err);

  /* a string includes relative to the working directory: an absolute path works anywhere */
  char xml[600];
  snprintf(xml, sizeof(xml), "<mujoco>\n<include file=\"%s\"/>\n</mujoco>", a);
  s = gs_parseXMLString(xml, err, sizeof(err));
  CHECK(s == NULL && has(err, "cycle"), "cycle from a string: %s", err);
  gs_specFree(s);

  /* malformed included file: its own name and line */
  write_file(b, "<mujoco>\n<worldbody>\n</mujoco>\n");
  s = gs_parseXML(a, err, sizeof(err));
  CHECK(s == NULL && has(err, "b.xml:3:") && has(err, "malformed XML"), "bad include: %s", err);
  gs_specFree(s);

  unlink(main_xml);
  unlink(part);
  unlink(leaf);
  unlink(a);
  unlink(b);
  unlink(missing);
  rmdir(sub_dir);
  rmdir(dir);
}

/* ---- the corpus ---- */

static void count_tree(const gsSpecBody* b, int* nbody, int* njoint, int* ngeom) {
  *nbody += 1;
  *njoint += b->njoint;
  *ngeom += b->ngeom;
  for (int i = 0; i < b->nchild; i++) count_tree(b->child[i], nbody, njoint, ngeom);
}

static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void test_corpus_dir(const char* sub) {
  char dirpath[512];
  snprintf(dirpath, sizeof(dirpath), "%s/%s", GAUSS_TEST_MODELS, sub);
  DIR* d = opendir(dirpath);
  CHECK(d != NULL, "open %s", dirpath);
  if (!d) return;
  int nfile = 0;
  struct dirent* e;
  while ((e = readdir(d)) != NULL) {
    if (!ends_with(e->d_name, ".xml")) continue;  /* common/ is a directory: not walked */
    char path[1024], err[1000] = "";
    snprintf(path, sizeof(path), "%s/%s", dirpath, e->d_name);
    gsSpec* s = gs_parseXML(path, err, sizeof(err));
    CHECK(s != NULL, "%s: %s", path, err);
    gs_specFree(s);
    nfile++;
  }
  closedir(d);
  CHECK(nfile > 0, "no models in %s", dirpath);
}

static void test_corpus(void) {
  test_corpus_dir("gymnasium");
  test_corpus_dir("dm_control");
  test_corpus_dir("mujoco");

  /* counts against the file */
  char err[1000] = "";
  gsSpec* s = gs_parseXML(GAUSS_TEST_MODELS "/mujoco/humanoid.xml", err, sizeof(err));
  if (s) {
    int nbody = 0, njoint = 0, ngeom = 0;
    count_tree(s->world, &nbody, &njoint, &ngeom);
    CHECK(nbody == 17 && njoint == 22 && ngeom == 20, "humanoid: %d bodies %d joints %d geoms",
          nbody, njoint, ngeom);
    gs_specFree(s);
  }
  s = gs_parseXML(GAUSS_TEST_MODELS "/dm_control/cartpole.xml", err, sizeof(err));
  if (s) {
    CHECK(s->option.integrator == GS_INT_RK4 && (s->option.disableflags & GS_DSBL_CONTACT) &&
              (s->option.enableflags & GS_ENBL_ENERGY),
          "cartpole options");
    gs_specFree(s);
  }
  /* warnings name the file (belt.xml's elasticity plugin and skin are read and not simulated) */
  s = gs_parseXML(GAUSS_TEST_MODELS "/mujoco/composed/belt.xml", err, sizeof(err));
  CHECK(s != NULL, "belt.xml: %s", err);
  if (s) {
    CHECK(has(gs_loadWarnings(), "belt.xml:"), "warnings name the file: %s",
          str(gs_loadWarnings()));
    gs_specFree(s);
  }
}

int main(void) {
  test_errors();
  test_defaults();
  test_settings();
  test_warnings();
  test_include();
  test_corpus();
  return CHECK_SUMMARY();
}
