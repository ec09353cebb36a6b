/* The MJCF schema as far as the reader needs it: every element name of the language (so that a
 * name outside MJCF is an error while a valid one the engine does not simulate is a warning), the
 * children allowed in the elements the reader walks, and the attributes of the elements it reads.
 * Names follow MuJoCo's XML reference (MuJoCo 3.x); a few names of older releases are kept so
 * that older models still load, with a warning. Lists are space-separated words. */
#include <string.h>

#include "xml_internal.h"

/* every MJCF element, in any context (tags reused in several contexts appear once) */
static const char kElements[] =
    /* structure and meta elements */
    "mujoco include frame replicate attach "
    /* compiler, option, size, statistic */
    "compiler lengthrange option flag size statistic "
    /* visual */
    "visual global quality headlight map scale rgba "
    /* default */
    "default "
    /* extension and plugins */
    "extension plugin instance config "
    /* assets */
    "asset mesh hfield skin bone texture material layer model "
    /* kinematic tree */
    "worldbody body inertial joint freejoint geom site camera light "
    "composite flexcomp edge elasticity contact pin "
    /* deformable */
    "deformable flex "
    /* contact */
    "pair exclude "
    /* tendon */
    "tendon spatial fixed pulley "
    /* equality */
    "equality connect weld flexvert flexstrain "
    /* actuator */
    "actuator general motor position velocity intvelocity orientation pid damper cylinder muscle "
    "adhesion dcmotor "
    /* sensor */
    "sensor touch accelerometer velocimeter gyro force torque magnetometer camprojection "
    "rangefinder jointpos jointvel tendonpos tendonvel actuatorpos actuatorvel actuatorfrc "
    "jointactuatorfrc tendonactuatorfrc ballquat ballangvel jointlimitpos jointlimitvel "
    "jointlimitfrc tendonlimitpos tendonlimitvel tendonlimitfrc framepos framequat framexaxis "
    "frameyaxis framezaxis framelinvel frameangvel framelinacc frameangacc subtreecom "
    "subtreelinvel subtreeangmom insidesite distance normal fromto e_potential e_kinetic clock "
    "tactile user geomdist geomnormal geomfromto "
    /* custom and keyframe */
    "custom numeric text tuple element keyframe key";

/* children allowed in the elements the reader walks itself */
typedef struct {
  const char* parent;
  const char* children;
} gsxChildren;

static const gsxChildren kChildren[] = {
    {"mujoco",
     "compiler option size statistic visual default extension asset worldbody deformable contact "
     "tendon equality actuator sensor custom keyframe"},
    {"compiler", "lengthrange"},
    {"lengthrange", ""},
    {"option", "flag"},
    {"worldbody",
     "body frame replicate inertial joint freejoint geom attach site camera light plugin "
     "composite flexcomp"},
    {"body",
     "body frame replicate inertial joint freejoint geom attach site camera light plugin "
     "composite flexcomp"},
    {"default",
     "default mesh material joint geom site camera light pair equality tendon general motor "
     "position velocity intvelocity orientation pid damper cylinder muscle adhesion dcmotor"},
    {"geom", "plugin"},
    {"flag", ""},
    {"size", ""},
    {"inertial", ""},
    {"joint", ""},
    {"freejoint", ""},
    {"site", ""},
};

/* attributes of the elements the reader reads */
typedef struct {
  const char* element;
  const char* attrs;
} gsxAttrs;

static const gsxAttrs kAttrs[] = {
    {"mujoco", "model"},
    {"include", "file"},
    {"compiler",
     "autolimits boundmass boundinertia settotalmass balanceinertia strippath coordinate angle "
     "fitaabb eulerseq meshdir texturedir discardvisual usethread fusestatic inertiafromgeom "
     "inertiagrouprange saveinertial assetdir alignfree conflict exactmeshinertia convexhull"},
    {"lengthrange",
     "mode useexisting uselimit accel maxforce timeconst timestep inttotal interval tolrange"},
    {"option",
     "timestep impratio tolerance ls_tolerance noslip_tolerance ccd_tolerance sleep_tolerance "
     "gravity wind magnetic density viscosity o_margin o_solref o_solimp o_friction integrator "
     "cone jacobian solver iterations ls_iterations noslip_iterations ccd_iterations "
     "sdf_iterations sdf_initpoints actuatorgroupdisable apirate mpr_tolerance mpr_iterations "
     "collision"},
    {"flag",
     "constraint equality frictionloss limit contact spring damper gravity clampctrl warmstart "
     "filterparent actuation refsafe sensor midphase eulerdamp autoreset nativeccd island "
     "override energy fwdinv invdiscrete multiccd sleep diagexact passive sensornoise"},
    {"size",
     "memory njmax nconmax nstack nuserdata nkey nuser_body nuser_jnt nuser_geom nuser_site "
     "nuser_cam nuser_tendon nuser_actuator nuser_sensor"},
    {"default", "class"},
    {"worldbody", ""},
    {"body",
     "name childclass pos quat axisangle xyaxes zaxis euler mocap gravcomp sleep simple user"},
    {"inertial", "pos quat mass diaginertia axisangle xyaxes zaxis euler fullinertia"},
    {"replicate", "count sep offset euler prefix"},
    {"joint",
     "name class type group pos axis springdamper limited actuatorfrclimited solreflimit "
     "solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange actuatorgravcomp "
     "margin ref springref armature damping frictionloss user"},
    {"freejoint", "name group align"},
    {"geom",
     "name class type contype conaffinity condim group priority size material friction mass "
     "density shellinertia solmix solref solimp margin gap surfacevel adhesion fromto pos quat "
     "axisangle xyaxes zaxis euler hfield mesh fitscale rgba fluidshape fluidcoef user"},
    {"site",
     "name class type group pos quat axisangle xyaxes zaxis euler material size fromto rgba user"},
};

int gsx_inList(const char* list, const char* word) {
  size_t n = strlen(word);
  if (n == 0) return 0;
  const char* p = list;
  while (*p) {
    while (*p == ' ') p++;
    const char* end = p;
    while (*end && *end != ' ') end++;
    if ((size_t)(end - p) == n && strncmp(p, word, n) == 0) return 1;
    p = end;
  }
  return 0;
}

int gsx_isElement(const char* name) { return gsx_inList(kElements, name); }

int gsx_childAllowed(const char* parent, const char* child) {
  for (size_t i = 0; i < sizeof(kChildren) / sizeof(kChildren[0]); i++)
    if (strcmp(kChildren[i].parent, parent) == 0)
      return gsx_inList(kChildren[i].children, child);
  /* a parent without a list: any MJCF element (only the name check applies) */
  return gsx_isElement(child);
}

int gsx_attrAllowed(const gsxAttrsFn* slices, const char* element, const char* attr) {
  for (size_t i = 0; i < sizeof(kAttrs) / sizeof(kAttrs[0]); i++)
    if (strcmp(kAttrs[i].element, element) == 0) return gsx_inList(kAttrs[i].attrs, attr);
  /* the slices table their own elements */
  for (const gsxAttrsFn* f = slices; f && *f; f++) {
    const char* list = (*f)(element);
    if (list) return gsx_inList(list, attr);
  }
  return 1;  /* not tabled: the reader does not check it */
}

int gsx_isOrientation(const char* attr) {
  return gsx_inList("quat axisangle euler xyaxes zaxis", attr);
}
