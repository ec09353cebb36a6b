/* URDF import and fusestatic from C (this test also runs under ASan and UBSan): the joints each
 * URDF type makes, the same world geometry and mass with and without fusing, and bad files
 * refused with line and element. MuJoCo's numbers are compared in tests/python/test_urdf.py. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"

#define INERTIA "<inertial><mass value='1'/><inertia ixx='0.01' iyy='0.02' izz='0.025' ixy='0' ixz='0' iyz='0'/></inertial>"
#define BALL "<collision><geometry><sphere radius='0.05'/></geometry></collision>"

/* every joint type, fixed links turned by rpy; %s: the <mujoco> extension */
static const char* kRobot =
    "<robot name='r'>%s"
    "<link name='world'/>"
    "<link name='base'>" INERTIA BALL "</link>"
    "<link name='a'>" INERTIA BALL "</link>"
    "<link name='b'>" INERTIA BALL "</link>"
    "<link name='f'>" INERTIA "<collision><origin xyz='0 .1 0'/><geometry><box size='.1 .2 .3'/></geometry></collision></link>"
    "<link name='c'>" INERTIA BALL "</link>"
    "<link name='d'>" INERTIA BALL "</link>"
    "<link name='e'>" INERTIA BALL "</link>"
    "<joint name='free' type='floating'><parent link='world'/><child link='base'/><origin xyz='0 0 1'/></joint>"
    "<joint name='ja' type='revolute'><parent link='base'/><child link='a'/><origin xyz='0 0 .3' rpy='.1 .2 .3'/>"
    "<axis xyz='0 1 0'/><limit lower='-1' upper='1'/></joint>"
    "<joint name='jb' type='prismatic'><parent link='a'/><child link='b'/><origin xyz='.3 0 0'/></joint>"
    "<joint name='jf' type='fixed'><parent link='b'/><child link='f'/><origin xyz='0 .3 0' rpy='.4 0 .2'/></joint>"
    "<joint name='jc' type='continuous'><parent link='f'/><child link='c'/><origin xyz='0 0 .3'/></joint>"
    "<joint name='jd' type='planar'><parent link='c'/><child link='d'/><origin xyz='.3 0 0'/><axis xyz='0 0 1'/></joint>"
    "<joint name='je' type='spherical'><parent link='d'/><child link='e'/><origin xyz='.3 0 0'/></joint>"
    "</robot>";

static gsModel* robot(const char* ext, char* err, int errsz) {
  char text[8192];
  snprintf(text, sizeof text, kRobot, ext);
  return gs_loadURDFString(text, err, errsz);
}

static void test_joint_types(void) {
  char err[1000];
  gsModel* m = robot("", err, sizeof err);
  CHECK(m != NULL, "load: %s", err);
  if (!m) return;
  /* free 7+6, hinge, slide, hinge, planar 2 slides + hinge, ball 4+3 */
  CHECK(m->nq == 7 + 1 + 1 + 1 + 3 + 4 && m->nv == 6 + 1 + 1 + 1 + 3 + 3, "nq %d nv %d", m->nq, m->nv);
  static const char* const names[] = {"free", "ja", "jb", "jc", "jd_TX", "jd_TY", "jd_RZ", "je"};
  static const int types[] = {GS_JNT_FREE, GS_JNT_HINGE, GS_JNT_SLIDE, GS_JNT_HINGE, GS_JNT_SLIDE,
                              GS_JNT_SLIDE, GS_JNT_HINGE, GS_JNT_BALL};
  CHECK(m->njnt == 8, "njnt %d", m->njnt);
  for (int j = 0; j < m->njnt && j < 8; j++) {
    const char* n = gs_id2name(m, GS_OBJ_JOINT, j);
    CHECK(n && strcmp(n, names[j]) == 0, "joint %d named %s", j, n ? n : "(none)");
    CHECK(m->jnt_type[j] == types[j], "joint %d type %d", j, m->jnt_type[j]);
  }
  /* the link on the fixed joint is fused into b: 7 links, the world link is the world */
  CHECK(m->nbody == 7 && gs_name2id(m, GS_OBJ_BODY, "f") < 0, "nbody %d", m->nbody);
  CHECK(m->jnt_limited[1] == 1 && m->jnt_range[2] == -1 && m->jnt_range[3] == 1, "range of ja");
  gs_freeModel(m);
}

/* fusing changes neither where geoms are nor the mass: the same world poses at a configuration */
static void test_fused_like_unfused(void) {
  char err[1000];
  gsModel* fused = robot("", err, sizeof err);
  gsModel* plain = robot("<mujoco><compiler fusestatic='false'/></mujoco>", err, sizeof err);
  CHECK(fused && plain, "load: %s", err);
  if (!fused || !plain) return;
  CHECK(plain->nbody == fused->nbody + 1 && plain->ngeom == fused->ngeom, "bodies %d %d",
        plain->nbody, fused->nbody);
  gsData* df = gs_makeData(fused);
  gsData* dp = gs_makeData(plain);
  for (int i = 0; i < fused->nq; i++) df->qpos[i] = dp->qpos[i] = fused->qpos0[i] + 0.1 * sin(i + 1.0);
  gs_forward(fused, df);
  gs_forward(plain, dp);
  double err_pos = 0, err_mat = 0;
  for (int g = 0; g < fused->ngeom; g++) {
    /* geoms are in the same order: b's own, then f's appended, and f has only one */
    for (int k = 0; k < 3; k++) err_pos = fmax(err_pos, fabs(df->geom_xpos[3 * g + k] - dp->geom_xpos[3 * g + k]));
    for (int k = 0; k < 9; k++) err_mat = fmax(err_mat, fabs(df->geom_xmat[9 * g + k] - dp->geom_xmat[9 * g + k]));
  }
  CHECK(err_pos < 1e-12 && err_mat < 1e-12, "geom poses differ by %g, %g", err_pos, err_mat);
  CHECK(fabs(fused->body_subtreemass[0] - plain->body_subtreemass[0]) < 1e-12, "total mass");
  gs_freeData(df);
  gs_freeData(dp);
  gs_freeModel(fused);
  gs_freeModel(plain);
}

static void test_bad_files(void) {
  static const struct { const char* urdf; const char* want; } cases[] = {
      {"<robot name='x'><link name='a'/>\n<joint name='j' type='fixed'><parent link='a'/><child link='z'/></joint></robot>",
       "<string>:2: <joint>: joint 'j': child link 'z' not found"},
      {"<robot name='x'><link name='r'/><link name='a'/><link name='b'/>\n"
       "<joint name='j' type='fixed'><parent link='a'/><child link='b'/></joint>"
       "<joint name='k' type='fixed'><parent link='b'/><child link='a'/></joint></robot>",
       "<string>:2: <joint>: the joints form a loop"},
      {"<robot name='x'><link name='a'/><link name='b'/>\n"
       "<joint name='j' type='fixed'><parent link='a'/><child link='b'/></joint>"
       "<joint name='k' type='fixed'><parent link='b'/><child link='a'/></joint></robot>",
       "<string>:2: <joint>: the joints form a loop"},
      {"<robot name='x'>\n<link/></robot>", "<string>:2: <link>: missing required attribute 'name'"},
      {"<mujoco/>", "<string>:1: <mujoco>: the root element of URDF must be <robot>"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char err[1000] = "";
    gsModel* m = gs_loadURDFString(cases[i].urdf, err, sizeof err);
    CHECK(m == NULL && strstr(err, cases[i].want) != NULL, "case %zu: got '%s'", i, err);
    gs_freeModel(m);
  }
}

/* an attribute made of entity references is expanded as in MJCF */
static void test_entities(void) {
  char err[1000];
  gsModel* m = gs_loadURDFString(
      "<?xml version='1.0'?><!DOCTYPE robot [<!ENTITY r '0.25'>]>"
      "<robot name='e'><link name='a'/><link name='b'>" INERTIA
      "<collision><geometry><sphere radius='&r;'/></geometry></collision></link>"
      "<joint name='j' type='revolute'><parent link='a'/><child link='b'/></joint></robot>",
      err, sizeof err);
  CHECK(m != NULL, "load: %s", err);
  if (!m) return;
  CHECK(m->ngeom == 1 && m->geom_size[0] == 0.25, "radius %g", m->ngeom ? m->geom_size[0] : -1.0);
  gs_freeModel(m);
}

/* meshes built by the first of fusestatic's two compiles serve the second: the same mesh arrays
 * as one compile without fusing; an unused and an unnamed-file mesh among them */
static void test_fused_meshes(void) {
  static const char* xml =
      "<mujoco><compiler fusestatic='%s' discardvisual='%s'/><asset>"
      "<mesh name='tet' vertex='0 0 0  1 0 0  0 1 0  0 0 1' scale='.1 .2 .3'/>"
      "<mesh name='unused' vertex='0 0 0  1 0 0  0 1 0  0 0 2'/></asset><worldbody>"
      "<body pos='0 0 1'><joint/><geom size='.1'/>"
      "<body pos='.2 0 0' euler='10 20 30'><geom type='mesh' mesh='tet'/>"
      "<geom type='mesh' mesh='tet' pos='0 .3 0' contype='0' conaffinity='0'/></body></body>"
      "</worldbody></mujoco>";
  char text[2048], err[1000];
  snprintf(text, sizeof text, xml, "false", "false");
  gsModel* plain = gs_loadXMLString(text, err, sizeof err);
  snprintf(text, sizeof text, xml, "true", "true");
  gsModel* fused = gs_loadXMLString(text, err, sizeof err);
  CHECK(plain && fused, "load: %s", err);
  if (!plain || !fused) return gs_freeModel(plain), gs_freeModel(fused);
  /* discardvisual drops the visual geom and the unused mesh */
  CHECK(fused->nbody == 2 && fused->nmesh == 1 && fused->ngeom == 2, "nbody %d nmesh %d ngeom %d",
        fused->nbody, fused->nmesh, fused->ngeom);
  int same = fused->mesh_vertnum[0] == plain->mesh_vertnum[0];
  for (int i = 0; same && i < 3 * fused->mesh_vertnum[0]; i++) same = fused->mesh_vert[i] == plain->mesh_vert[i];
  for (int i = 0; same && i < 4; i++) same = fused->mesh_quat[i] == plain->mesh_quat[i];
  CHECK(same, "mesh vertices differ");
  gs_freeModel(plain);
  gs_freeModel(fused);
}

int main(void) {
  test_entities();
  test_fused_meshes();
  test_joint_types();
  test_fused_like_unfused();
  test_bad_files();
  return CHECK_SUMMARY();
}
