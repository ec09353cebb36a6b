/* The sensing slice in C: sensors, equality constraints, keyframes, custom data, mocap bodies and
 * user data through the reader and the compiler, a spec built by hand, gs_resetDataKeyframe, and
 * bad models that must fail with the line and element (run under the sanitizers, this also checks
 * that every error path frees what it took). The values themselves are compared with MuJoCo's in
 * tests/python/test_mjcf_sensing.py. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"

static int has(const char* s, const char* sub) { return s && sub && strstr(s, sub) != NULL; }

static const char* kModel =
    "<mujoco>\n"
    "  <size nkey=\"3\" nuser_body=\"2\" nuserdata=\"4\"/>\n"
    "  <default><equality solref=\"0.05 2\"/><joint user=\"1\"/></default>\n"
    "  <worldbody>\n"
    "    <body name=\"target\" mocap=\"true\" pos=\"1 2 3\" user=\"7\"><geom size=\".1\"/></body>\n"
    "    <body name=\"b\" pos=\"0 0 1\">\n"
    "      <joint name=\"j\" range=\"-1 1\"/>\n"
    "      <geom name=\"g\" size=\".1\" user=\"1 2 3\"/>\n"
    "      <site name=\"s\" user=\"4\"/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "  <equality>\n"
    "    <connect name=\"c\" body1=\"b\" anchor=\"0 0 1\"/>\n"
    "    <weld body1=\"target\" body2=\"b\"/>\n"
    "  </equality>\n"
    "  <sensor>\n"
    "    <jointpos name=\"q\" joint=\"j\" user=\"1 2\"/>\n"
    "    <framequat objtype=\"site\" objname=\"s\"/>\n"
    "    <contact body1=\"b\" data=\"found force\" num=\"2\"/>\n"
    "    <plugin plugin=\"x\"/>\n"
    "  </sensor>\n"
    "  <keyframe><key name=\"up\" time=\"2\" qpos=\"0.5\" qvel=\"1\" mpos=\"4 5 6\"/></keyframe>\n"
    "  <custom>\n"
    "    <numeric name=\"n\" size=\"3\" data=\"1 2\"/>\n"
    "    <text name=\"t\" data=\"abc\"/>\n"
    "    <tuple name=\"tp\"><element objtype=\"sensor\" objname=\"q\" prm=\"2\"/></tuple>\n"
    "  </custom>\n"
    "</mujoco>\n";

static void test_model(void) {
  char err[1000] = "";
  gsModel* m = gs_loadXMLString(kModel, err, sizeof(err));
  CHECK(m != NULL, "load: %s", err);
  if (!m) return;
  CHECK(has(gs_loadWarnings(), "<plugin>"), "plugin sensor warned: %s", gs_loadWarnings());
  CHECK(m->nmocap == 1 && m->body_mocapid[1] == 0 && m->body_mocapid[2] == -1, "mocap ids");
  CHECK(m->nuser_body == 2 && m->body_user[2] == 7 && m->body_user[3] == 0, "body user");
  CHECK(m->nuser_jnt == 1 && m->jnt_user[0] == 1, "joint user from the default class");
  CHECK(m->nuser_geom == 3 && m->geom_user[5] == 3 && m->nuser_site == 1, "geom, site user");
  CHECK(m->nuserdata == 4, "nuserdata");
  CHECK(m->neq == 2 && m->eq_type[0] == GS_EQ_CONNECT && m->eq_obj1id[0] == 2 &&
            m->eq_obj2id[0] == 0 && m->eq_solref[0] == 0.05,
        "connect");
  /* the anchor (0 0 1) of b, at qpos0 in the world: (0 0 2) */
  CHECK(fabs(m->eq_data[3]) < 1e-12 && fabs(m->eq_data[5] - 2) < 1e-12, "connect anchor 2");
  /* b relative to the mocap body: (-1 -2 -2) */
  const gsReal* w = m->eq_data + GS_NEQDATA;
  CHECK(fabs(w[3] + 1) < 1e-12 && fabs(w[4] + 2) < 1e-12 && fabs(w[5] + 2) < 1e-12 &&
            fabs(w[6] - 1) < 1e-12 && w[10] == 1,
        "weld relative pose");
  CHECK(m->nsensor == 3 && m->nsensordata == 1 + 4 + 8, "sensors: %d, %d values", m->nsensor,
        m->nsensordata);
  CHECK(m->sensor_type[2] == GS_SENS_CONTACT && m->sensor_intprm[6] == 3 &&
            m->sensor_intprm[8] == 2 && m->sensor_adr[2] == 5,
        "contact sensor");
  CHECK(m->nuser_sensor == 2 && m->sensor_user[1] == 2, "sensor user");
  CHECK(m->nkey == 3 && m->key_time[0] == 2 && m->key_qpos[0] == 0.5 && m->key_qvel[0] == 1,
        "keyframe");
  CHECK(m->key_mpos[0] == 4 && m->key_mpos[3] == 1 && m->key_mpos[5] == 3, "key mocap");
  CHECK(m->nnumericdata == 3 && m->numeric_data[1] == 2 && m->numeric_data[2] == 0, "numeric");
  CHECK(m->ntextdata == 4 && strcmp(m->text_data, "abc") == 0, "text");
  CHECK(m->ntupledata == 1 && m->tuple_objtype[0] == GS_OBJ_SENSOR && m->tuple_objid[0] == 0,
        "tuple");
  CHECK(gs_name2id(m, GS_OBJ_KEY, "up") == 0 && gs_name2id(m, GS_OBJ_SENSOR, "q") == 0 &&
            gs_name2id(m, GS_OBJ_EQUALITY, "c") == 0 && gs_name2id(m, GS_OBJ_TUPLE, "tp") == 0 &&
            strcmp(gs_id2name(m, GS_OBJ_KEY, 1), "") == 0,
        "names");

  gsData* d = gs_makeData(m);
  CHECK(d && d->mocap_pos[0] == 1 && d->mocap_quat[0] == 1, "mocap pose at reset");
  if (d) {
    d->userdata[3] = 5;
    gs_resetDataKeyframe(m, d, 0);
    CHECK(d->time == 2 && d->qpos[0] == 0.5 && d->qvel[0] == 1 && d->mocap_pos[2] == 6 &&
              d->userdata[3] == 0,
          "reset to keyframe 0");
    gs_kinematics(m, d);
    CHECK(d->xpos[3] == 4 && d->xpos[5] == 6, "mocap body follows the data");
    gs_resetDataKeyframe(m, d, 7);
    CHECK(d->time == 0 && d->mocap_pos[2] == 3, "key out of range: plain reset");
  }
  gs_freeData(d);

  gsModel* copy = gs_copyModel(m);
  CHECK(copy && copy->key_qpos[0] == 0.5 && copy->body_user[2] == 7, "copy");
  gs_freeModel(copy);
  gs_freeModel(m);
}

/* a spec built by hand: the defaults of gs_specAdd* */
static void test_by_hand(void) {
  gsSpec* s = gs_specNew();
  gsSpecBody* b = gs_specAddBody(s->world);
  gsSpecJoint* j = gs_specAddJoint(b);
  gsSpecGeom* g = gs_specAddGeom(b);
  gs_specSetName(&b->info, "b");
  gs_specSetName(&j->info, "j");
  g->size[0] = 0.1;
  gsSpecSensor* sn = gs_specAddSensor(s, GS_SENS_JOINTVEL);
  sn->objtype = GS_OBJ_JOINT;
  sn->objname = malloc(2);
  strcpy(sn->objname, "j");
  gsSpecEquality* e = gs_specAddEquality(s, GS_EQ_JOINT);
  e->name1 = malloc(2);
  strcpy(e->name1, "j");
  gsSpecKey* k = gs_specAddKey(s);
  k->time = 1;
  gsSpecNumeric* n = gs_specAddNumeric(s);
  gs_specSetName(&n->info, "n");
  n->size = 2;
  gsSpecText* t = gs_specAddText(s);
  gs_specSetName(&t->info, "t");
  t->data = malloc(3);
  strcpy(t->data, "hi");
  gsSpecTuple* tp = gs_specAddTuple(s);
  gs_specSetName(&tp->info, "tp");
  gsSpecTupleElement* el = gs_specAddTupleElement(tp);
  el->objtype = GS_OBJ_BODY;
  el->objname = malloc(6);
  strcpy(el->objname, "world");

  char err[500] = "";
  gsModel* m = gs_compile(s, err, sizeof(err));
  CHECK(m != NULL, "compile by hand: %s", err);
  if (m) {
    CHECK(m->nsensor == 1 && m->sensor_needstage[0] == GS_STAGE_VEL && m->sensor_objid[0] == 0,
          "sensor by hand");
    CHECK(m->neq == 1 && m->eq_data[1] == 1 && m->eq_obj2id[0] == -1 && m->eq_active0[0] == 1,
          "equality by hand");
    CHECK(m->nkey == 1 && m->key_time[0] == 1, "key by hand");
    CHECK(m->numeric_size[0] == 2 && m->text_size[0] == 3 && m->tuple_objid[0] == 0,
          "custom by hand");
    CHECK(m->nuser_body == 0 && m->nuser_jnt == 0, "no user data: automatic sizes are 0");
  }
  gs_freeModel(m);

  /* a name that is not there is an error, not a crash */
  free(sn->objname);
  sn->objname = NULL;
  m = gs_compile(s, err, sizeof(err));
  CHECK(m == NULL && has(err, "jointvel") && has(err, "not named"), "unnamed object: %s", err);
  gs_freeModel(m);
  gs_specFree(s);
}

static void expect_fail(const char* what, const char* xml, const char* where, const char* text) {
  char err[1000] = "";
  gsModel* m = gs_loadXMLString(xml, err, sizeof(err));
  CHECK(m == NULL, "%s: loaded without error", what);
  gs_freeModel(m);
  CHECK(has(err, where) && has(err, text), "%s: '%s' / '%s' not in '%s'", what, where, text, err);
}

static void test_bad(void) {
  expect_fail("missing site", "<mujoco>\n<sensor>\n<touch site=\"x\"/></sensor></mujoco>",
              ":3: touch", "unknown site 'x'");
  expect_fail("bad user", "<mujoco>\n<worldbody>\n<site user=\"1 a\"/></worldbody></mujoco>",
              ":3: <site>", "malformed number");
  expect_fail("repeated key", "<mujoco><keyframe>\n<key name=\"a\"/>\n<key name=\"a\"/>"
              "</keyframe></mujoco>", ":3: key 'a'", "repeated name");
  expect_fail("long qpos", "<mujoco><worldbody><body><joint/><geom size=\"1\"/></body>"
              "</worldbody>\n<keyframe>\n<key qpos=\"1 2\"/></keyframe></mujoco>", ":3: key",
              "qpos has 2 values");
  expect_fail("empty tuple", "<mujoco>\n<custom>\n<tuple name=\"t\"/></custom></mujoco>",
              ":3: tuple 't'", "empty");
  expect_fail("bad tuple object", "<mujoco><custom>\n<tuple name=\"t\">\n<element "
              "objtype=\"site\" objname=\"x\"/></tuple></custom></mujoco>", ":2: tuple 't'",
              "unknown site 'x'");
  expect_fail("mixed weld", "<mujoco><equality>\n<weld site1=\"a\" site2=\"b\" body1=\"c\"/>"
              "</equality></mujoco>", ":2: <weld>", "cannot be mixed");
  expect_fail("bad data", "<mujoco><sensor>\n<contact data=\"pos found\"/></sensor></mujoco>",
              ":2: <contact>", "order");
  expect_fail("user too long", "<mujoco><size nuser_site=\"1\"/><worldbody>\n<site user=\"1 2\"/>"
              "</worldbody></mujoco>", ":2: site", "more than nuser_site = 1");
}

int main(void) {
  test_model();
  test_by_hand();
  test_bad();
  return CHECK_SUMMARY();
}
