/* Spec elements by attribute name (the tables bindings read and write the element structs
 * through), freeing an element from its table, deleting elements from a tree, and setting owned
 * arrays. Names follow MuJoCo's spec API (mjsBody, mjsGeom, ...) where it has the attribute. */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/spec_slices.h"

#define NOFLAG {-1, -1}, {0, 0}, {0, 0}
#define OFF(T, m) ((long)offsetof(T, m))
/* a plain attribute */
#define A(T, nm, ty, mem, n) {nm, ty, n, offsetof(T, mem), -1, NOFLAG}
/* writing it also writes an int member: assigned, or or'ed in */
#define AF(T, nm, ty, mem, n, fm, fv) {nm, ty, n, offsetof(T, mem), -1, {OFF(T, fm), -1}, {fv, 0}, {0, 0}}
#define AOR(T, nm, ty, mem, n, fm, fv) {nm, ty, n, offsetof(T, mem), -1, {OFF(T, fm), -1}, {fv, 0}, {1, 0}}
#define AF2(T, nm, ty, mem, n, f1, v1, f2, v2)                                                     \
  {nm, ty, n, offsetof(T, mem), -1, {OFF(T, f1), OFF(T, f2)}, {v1, v2}, {0, 0}}
/* an owned array with its item count */
#define V(T, nm, ty, mem, len, per) {nm, ty, per, offsetof(T, mem), OFF(T, len), NOFLAG}
#define R GS_SA_REAL
#define I GS_SA_INT
#define S GS_SA_STRING
#define NAME(T) A(T, "name", S, info.name, 1)
#define USER(T) V(T, "userdata", GS_SA_REALVEC, user, nuser, 1)
/* a frame's orientation: the quaternion, or one of MJCF's alternatives (MuJoCo's `alt`); alttype
 * (gsOrientType) says which one the compiler uses, and writing one selects it */
#define ORIENT(T, o, pre)                                                                          \
  A(T, pre "alttype", I, o.type, 1),                                                               \
  AF(T, pre "quat", R, o.quat, 4, o.type, GS_ORIENT_QUAT),                                         \
  AF(T, pre "axisangle", R, o.axisangle, 4, o.type, GS_ORIENT_AXISANGLE),                          \
  AF(T, pre "euler", R, o.euler, 3, o.type, GS_ORIENT_EULER),                                      \
  AF(T, pre "xyaxes", R, o.xyaxes, 6, o.type, GS_ORIENT_XYAXES),                                   \
  AF(T, pre "zaxis", R, o.zaxis, 3, o.type, GS_ORIENT_ZAXIS)
/* the inertial frame's orientation: also marks the inertial as given */
#define IORIENT(T, o, pre)                                                                         \
  A(T, pre "alttype", I, o.type, 1),                                                               \
  AF2(T, pre "quat", R, o.quat, 4, o.type, GS_ORIENT_QUAT, inertial.given, 1),                     \
  AF2(T, pre "axisangle", R, o.axisangle, 4, o.type, GS_ORIENT_AXISANGLE, inertial.given, 1),      \
  AF2(T, pre "euler", R, o.euler, 3, o.type, GS_ORIENT_EULER, inertial.given, 1),                  \
  AF2(T, pre "xyaxes", R, o.xyaxes, 6, o.type, GS_ORIENT_XYAXES, inertial.given, 1),               \
  AF2(T, pre "zaxis", R, o.zaxis, 3, o.type, GS_ORIENT_ZAXIS, inertial.given, 1)

static const gsSpecAttr kSpec[] = {
    A(gsSpec, "modelname", S, modelname, 1),
    A(gsSpec, "memory", GS_SA_LLONG, size_memory, 1),
    A(gsSpec, "nconmax", I, size_nconmax, 1),
    A(gsSpec, "njmax", I, size_njmax, 1),
    A(gsSpec, "nstack", I, size_nstack, 1),
    A(gsSpec, "nkey", I, size_nkey, 1),
    A(gsSpec, "nuserdata", I, nuserdata, 1),
    A(gsSpec, "nuser_body", I, nuser_body, 1),
    A(gsSpec, "nuser_jnt", I, nuser_jnt, 1),
    A(gsSpec, "nuser_geom", I, nuser_geom, 1),
    A(gsSpec, "nuser_site", I, nuser_site, 1),
    A(gsSpec, "nuser_cam", I, nuser_cam, 1),
    A(gsSpec, "nuser_tendon", I, nuser_tendon, 1),
    A(gsSpec, "nuser_actuator", I, nuser_actuator, 1),
    A(gsSpec, "nuser_sensor", I, nuser_sensor, 1),
    A(gsSpec, "meshdir", GS_SA_POOL, compiler.meshdir, 1),
    A(gsSpec, "texturedir", GS_SA_POOL, compiler.texturedir, 1),
    A(gsSpec, "assetdir", GS_SA_POOL, compiler.assetdir, 1),
    A(gsSpec, "modelfiledir", GS_SA_POOL, modeldir, 1),
    A(gsSpec, "strippath", I, compiler.strippath, 1),
};

static const gsSpecAttr kCompiler[] = {
    A(gsCompilerOptions, "degree", I, degree, 1),
    A(gsCompilerOptions, "eulerseq", GS_SA_CHARS, eulerseq, 4),
    A(gsCompilerOptions, "inertiafromgeom", I, inertiafromgeom, 1),
    A(gsCompilerOptions, "inertiagrouprange", I, inertiagrouprange, 2),
    A(gsCompilerOptions, "autolimits", I, autolimits, 1),
    A(gsCompilerOptions, "boundmass", R, boundmass, 1),
    A(gsCompilerOptions, "boundinertia", R, boundinertia, 1),
    A(gsCompilerOptions, "settotalmass", R, settotalmass, 1),
    A(gsCompilerOptions, "balanceinertia", I, balanceinertia, 1),
    A(gsCompilerOptions, "strippath", I, strippath, 1),
    A(gsCompilerOptions, "discardvisual", I, discardvisual, 1),
    A(gsCompilerOptions, "fusestatic", I, fusestatic, 1),
    A(gsCompilerOptions, "alignfree", I, alignfree, 1),
    A(gsCompilerOptions, "fitaabb", I, fitaabb, 1),
    A(gsCompilerOptions, "lengthrange_mode", I, lengthrange.mode, 1),
    A(gsCompilerOptions, "lengthrange_useexisting", I, lengthrange.useexisting, 1),
    A(gsCompilerOptions, "lengthrange_uselimit", I, lengthrange.uselimit, 1),
    A(gsCompilerOptions, "lengthrange_accel", R, lengthrange.accel, 1),
    A(gsCompilerOptions, "lengthrange_maxforce", R, lengthrange.maxforce, 1),
    A(gsCompilerOptions, "lengthrange_timeconst", R, lengthrange.timeconst, 1),
    A(gsCompilerOptions, "lengthrange_timestep", R, lengthrange.timestep, 1),
    A(gsCompilerOptions, "lengthrange_inttotal", R, lengthrange.inttotal, 1),
    A(gsCompilerOptions, "lengthrange_interval", R, lengthrange.interval, 1),
    A(gsCompilerOptions, "lengthrange_tolrange", R, lengthrange.tolrange, 1),
};

static const gsSpecAttr kStatistic[] = {
    AOR(gsSpecStatistic, "meaninertia", R, meaninertia, 1, given, GS_STAT_MEANINERTIA),
    AOR(gsSpecStatistic, "meanmass", R, meanmass, 1, given, GS_STAT_MEANMASS),
    AOR(gsSpecStatistic, "meansize", R, meansize, 1, given, GS_STAT_MEANSIZE),
    AOR(gsSpecStatistic, "extent", R, extent, 1, given, GS_STAT_EXTENT),
    AOR(gsSpecStatistic, "center", R, center, 3, given, GS_STAT_CENTER),
};

static const gsSpecAttr kVisual[] = {
    A(gsSpecVisual, "cameraid", GS_SA_INT, cameraid, 1),
    A(gsSpecVisual, "orthographic", GS_SA_INT, orthographic, 1),
    A(gsSpecVisual, "offwidth", GS_SA_INT, offwidth, 1),
    A(gsSpecVisual, "offheight", GS_SA_INT, offheight, 1),
    A(gsSpecVisual, "ellipsoidinertia", GS_SA_INT, ellipsoidinertia, 1),
    A(gsSpecVisual, "bvactive", GS_SA_INT, bvactive, 1),
    A(gsSpecVisual, "fovy", GS_SA_REAL, fovy, 1),
    A(gsSpecVisual, "ipd", GS_SA_REAL, ipd, 1),
    A(gsSpecVisual, "azimuth", GS_SA_REAL, azimuth, 1),
    A(gsSpecVisual, "elevation", GS_SA_REAL, elevation, 1),
    A(gsSpecVisual, "linewidth", GS_SA_REAL, linewidth, 1),
    A(gsSpecVisual, "glow", GS_SA_REAL, glow, 1),
    A(gsSpecVisual, "realtime", GS_SA_REAL, realtime, 1),
    A(gsSpecVisual, "shadowsize", GS_SA_INT, shadowsize, 1),
    A(gsSpecVisual, "offsamples", GS_SA_INT, offsamples, 1),
    A(gsSpecVisual, "numslices", GS_SA_INT, numslices, 1),
    A(gsSpecVisual, "numstacks", GS_SA_INT, numstacks, 1),
    A(gsSpecVisual, "numquads", GS_SA_INT, numquads, 1),
    A(gsSpecVisual, "headlight_ambient", GS_SA_REAL, headlight_ambient, 3),
    A(gsSpecVisual, "headlight_diffuse", GS_SA_REAL, headlight_diffuse, 3),
    A(gsSpecVisual, "headlight_specular", GS_SA_REAL, headlight_specular, 3),
    A(gsSpecVisual, "headlight_active", GS_SA_INT, headlight_active, 1),
    A(gsSpecVisual, "map_stiffness", GS_SA_REAL, map_stiffness, 1),
    A(gsSpecVisual, "map_stiffnessrot", GS_SA_REAL, map_stiffnessrot, 1),
    A(gsSpecVisual, "map_force", GS_SA_REAL, map_force, 1),
    A(gsSpecVisual, "map_torque", GS_SA_REAL, map_torque, 1),
    A(gsSpecVisual, "map_alpha", GS_SA_REAL, map_alpha, 1),
    A(gsSpecVisual, "map_fogstart", GS_SA_REAL, map_fogstart, 1),
    A(gsSpecVisual, "map_fogend", GS_SA_REAL, map_fogend, 1),
    A(gsSpecVisual, "map_znear", GS_SA_REAL, map_znear, 1),
    A(gsSpecVisual, "map_zfar", GS_SA_REAL, map_zfar, 1),
    A(gsSpecVisual, "map_haze", GS_SA_REAL, map_haze, 1),
    A(gsSpecVisual, "map_shadowclip", GS_SA_REAL, map_shadowclip, 1),
    A(gsSpecVisual, "map_shadowscale", GS_SA_REAL, map_shadowscale, 1),
    A(gsSpecVisual, "map_actuatortendon", GS_SA_REAL, map_actuatortendon, 1),
    A(gsSpecVisual, "scale_forcewidth", GS_SA_REAL, scale_forcewidth, 1),
    A(gsSpecVisual, "scale_contactwidth", GS_SA_REAL, scale_contactwidth, 1),
    A(gsSpecVisual, "scale_contactheight", GS_SA_REAL, scale_contactheight, 1),
    A(gsSpecVisual, "scale_connect", GS_SA_REAL, scale_connect, 1),
    A(gsSpecVisual, "scale_com", GS_SA_REAL, scale_com, 1),
    A(gsSpecVisual, "scale_camera", GS_SA_REAL, scale_camera, 1),
    A(gsSpecVisual, "scale_light", GS_SA_REAL, scale_light, 1),
    A(gsSpecVisual, "scale_selectpoint", GS_SA_REAL, scale_selectpoint, 1),
    A(gsSpecVisual, "scale_jointlength", GS_SA_REAL, scale_jointlength, 1),
    A(gsSpecVisual, "scale_jointwidth", GS_SA_REAL, scale_jointwidth, 1),
    A(gsSpecVisual, "scale_actuatorlength", GS_SA_REAL, scale_actuatorlength, 1),
    A(gsSpecVisual, "scale_actuatorwidth", GS_SA_REAL, scale_actuatorwidth, 1),
    A(gsSpecVisual, "scale_framelength", GS_SA_REAL, scale_framelength, 1),
    A(gsSpecVisual, "scale_framewidth", GS_SA_REAL, scale_framewidth, 1),
    A(gsSpecVisual, "scale_constraint", GS_SA_REAL, scale_constraint, 1),
    A(gsSpecVisual, "scale_slidercrank", GS_SA_REAL, scale_slidercrank, 1),
    A(gsSpecVisual, "scale_frustum", GS_SA_REAL, scale_frustum, 1),
    A(gsSpecVisual, "rgba_fog", GS_SA_REAL, rgba_fog, 4),
    A(gsSpecVisual, "rgba_haze", GS_SA_REAL, rgba_haze, 4),
    A(gsSpecVisual, "rgba_force", GS_SA_REAL, rgba_force, 4),
    A(gsSpecVisual, "rgba_inertia", GS_SA_REAL, rgba_inertia, 4),
    A(gsSpecVisual, "rgba_joint", GS_SA_REAL, rgba_joint, 4),
    A(gsSpecVisual, "rgba_actuator", GS_SA_REAL, rgba_actuator, 4),
    A(gsSpecVisual, "rgba_actuatornegative", GS_SA_REAL, rgba_actuatornegative, 4),
    A(gsSpecVisual, "rgba_actuatorpositive", GS_SA_REAL, rgba_actuatorpositive, 4),
    A(gsSpecVisual, "rgba_com", GS_SA_REAL, rgba_com, 4),
    A(gsSpecVisual, "rgba_camera", GS_SA_REAL, rgba_camera, 4),
    A(gsSpecVisual, "rgba_light", GS_SA_REAL, rgba_light, 4),
    A(gsSpecVisual, "rgba_selectpoint", GS_SA_REAL, rgba_selectpoint, 4),
    A(gsSpecVisual, "rgba_connect", GS_SA_REAL, rgba_connect, 4),
    A(gsSpecVisual, "rgba_contactpoint", GS_SA_REAL, rgba_contactpoint, 4),
    A(gsSpecVisual, "rgba_contactforce", GS_SA_REAL, rgba_contactforce, 4),
    A(gsSpecVisual, "rgba_contactfriction", GS_SA_REAL, rgba_contactfriction, 4),
    A(gsSpecVisual, "rgba_contacttorque", GS_SA_REAL, rgba_contacttorque, 4),
    A(gsSpecVisual, "rgba_contactgap", GS_SA_REAL, rgba_contactgap, 4),
    A(gsSpecVisual, "rgba_rangefinder", GS_SA_REAL, rgba_rangefinder, 4),
    A(gsSpecVisual, "rgba_constraint", GS_SA_REAL, rgba_constraint, 4),
    A(gsSpecVisual, "rgba_slidercrank", GS_SA_REAL, rgba_slidercrank, 4),
    A(gsSpecVisual, "rgba_crankbroken", GS_SA_REAL, rgba_crankbroken, 4),
    A(gsSpecVisual, "rgba_frustum", GS_SA_REAL, rgba_frustum, 4),
    A(gsSpecVisual, "rgba_bv", GS_SA_REAL, rgba_bv, 4),
    A(gsSpecVisual, "rgba_bvactive", GS_SA_REAL, rgba_bvactive, 4),
};

static const gsSpecAttr kBody[] = {
    NAME(gsSpecBody),
    A(gsSpecBody, "pos", R, pos, 3),
    ORIENT(gsSpecBody, orient, ""),
    AF(gsSpecBody, "mass", R, inertial.mass, 1, inertial.given, 1),
    AF(gsSpecBody, "ipos", R, inertial.pos, 3, inertial.given, 1),
    IORIENT(gsSpecBody, inertial.orient, "i"),
    AF2(gsSpecBody, "inertia", R, inertial.diaginertia, 3, inertial.given, 1, inertial.has_full, 0),
    AF2(gsSpecBody, "fullinertia", R, inertial.fullinertia, 6, inertial.given, 1, inertial.has_full, 1),
    A(gsSpecBody, "explicitinertial", I, inertial.given, 1),
    A(gsSpecBody, "gravcomp", R, gravcomp, 1),
    A(gsSpecBody, "mocap", I, mocap, 1),
    USER(gsSpecBody),
};

static const gsSpecAttr kJoint[] = {
    NAME(gsSpecJoint),
    A(gsSpecJoint, "type", I, type, 1),
    A(gsSpecJoint, "pos", R, pos, 3),
    A(gsSpecJoint, "axis", R, axis, 3),
    A(gsSpecJoint, "ref", R, ref, 1),
    A(gsSpecJoint, "springref", R, springref, 1),
    A(gsSpecJoint, "stiffness", R, stiffness, 1),
    A(gsSpecJoint, "damping", R, damping, 1),
    A(gsSpecJoint, "armature", R, armature, 1),
    A(gsSpecJoint, "frictionloss", R, frictionloss, 1),
    A(gsSpecJoint, "springdamper", R, springdamper, 2),
    AF(gsSpecJoint, "range", R, range, 2, range_given, 1),
    A(gsSpecJoint, "limited", I, limited, 1),
    A(gsSpecJoint, "actfrclimited", I, actfrclimited, 1),
    A(gsSpecJoint, "actfrcrange", R, actfrcrange, 2),
    A(gsSpecJoint, "margin", R, margin, 1),
    A(gsSpecJoint, "solref_limit", R, solref_limit, GS_NREF),
    A(gsSpecJoint, "solimp_limit", R, solimp_limit, GS_NIMP),
    A(gsSpecJoint, "solref_friction", R, solref_friction, GS_NREF),
    A(gsSpecJoint, "solimp_friction", R, solimp_friction, GS_NIMP),
    A(gsSpecJoint, "group", I, group, 1),
    A(gsSpecJoint, "actgravcomp", I, actgravcomp, 1),
    A(gsSpecJoint, "align", I, align, 1),
    USER(gsSpecJoint),
};

static const gsSpecAttr kGeom[] = {
    NAME(gsSpecGeom),
    A(gsSpecGeom, "type", I, type, 1),
    A(gsSpecGeom, "size", R, size, 3),
    A(gsSpecGeom, "pos", R, pos, 3),
    A(gsSpecGeom, "fitscale", R, fitscale, 1),
    ORIENT(gsSpecGeom, orient, ""),
    AF(gsSpecGeom, "fromto", R, fromto, 6, has_fromto, 1),
    A(gsSpecGeom, "mass", R, mass, 1),
    A(gsSpecGeom, "density", R, density, 1),
    A(gsSpecGeom, "contype", I, contype, 1),
    A(gsSpecGeom, "conaffinity", I, conaffinity, 1),
    A(gsSpecGeom, "condim", I, condim, 1),
    A(gsSpecGeom, "group", I, group, 1),
    A(gsSpecGeom, "priority", I, priority, 1),
    A(gsSpecGeom, "friction", R, friction, 3),
    A(gsSpecGeom, "solmix", R, solmix, 1),
    A(gsSpecGeom, "solref", R, solref, GS_NREF),
    A(gsSpecGeom, "solimp", R, solimp, GS_NIMP),
    A(gsSpecGeom, "margin", R, margin, 1),
    A(gsSpecGeom, "gap", R, gap, 1),
    A(gsSpecGeom, "rgba", R, rgba, 4),
    A(gsSpecGeom, "fluid_ellipsoid", I, fluidshape, 1),
    A(gsSpecGeom, "fluid_coefs", R, fluidcoef, 5),
    USER(gsSpecGeom),
    {"material", GS_SA_ASSETREF, 0, 0, -1, NOFLAG},
    {"meshname", GS_SA_ASSETREF, 1, 0, -1, NOFLAG},
    {"hfieldname", GS_SA_ASSETREF, 2, 0, -1, NOFLAG},
};

static const gsSpecAttr kSite[] = {
    NAME(gsSpecSite),
    A(gsSpecSite, "type", I, type, 1),
    A(gsSpecSite, "size", R, size, 3),
    A(gsSpecSite, "pos", R, pos, 3),
    ORIENT(gsSpecSite, orient, ""),
    AF(gsSpecSite, "fromto", R, fromto, 6, has_fromto, 1),
    A(gsSpecSite, "group", I, group, 1),
    A(gsSpecSite, "rgba", R, rgba, 4),
    USER(gsSpecSite),
    {"material", GS_SA_ASSETREF, 0, 0, -1, NOFLAG},
};

static const gsSpecAttr kCamera[] = {
    NAME(gsSpecCamera),
    A(gsSpecCamera, "mode", I, mode, 1),
    A(gsSpecCamera, "targetbody", S, target, 1),
    A(gsSpecCamera, "pos", R, pos, 3),
    ORIENT(gsSpecCamera, orient, ""),
    A(gsSpecCamera, "orthographic", I, orthographic, 1),
    AOR(gsSpecCamera, "fovy", R, fovy, 1, given, GS_CAM_FOVY),
    A(gsSpecCamera, "ipd", R, ipd, 1),
    AOR(gsSpecCamera, "resolution", I, resolution, 2, given, GS_CAM_RESOLUTION),
    AOR(gsSpecCamera, "sensor_size", R, sensorsize, 2, given, GS_CAM_SENSORSIZE),
    AOR(gsSpecCamera, "focal_length", R, focal, 2, given, GS_CAM_FOCAL),
    AOR(gsSpecCamera, "focal_pixel", R, focalpixel, 2, given, GS_CAM_FOCALPIXEL),
    AOR(gsSpecCamera, "principal_length", R, principal, 2, given, GS_CAM_PRINCIPAL),
    AOR(gsSpecCamera, "principal_pixel", R, principalpixel, 2, given, GS_CAM_PRINCIPALPIXEL),
    USER(gsSpecCamera),
};

static const gsSpecAttr kLight[] = {
    NAME(gsSpecLight),
    A(gsSpecLight, "mode", I, mode, 1),
    A(gsSpecLight, "targetbody", S, target, 1),
    A(gsSpecLight, "type", I, type, 1),
    A(gsSpecLight, "texture", S, texture, 1),
    A(gsSpecLight, "pos", R, pos, 3),
    A(gsSpecLight, "dir", R, dir, 3),
    A(gsSpecLight, "castshadow", I, castshadow, 1),
    A(gsSpecLight, "active", I, active, 1),
    A(gsSpecLight, "bulbradius", R, bulbradius, 1),
    A(gsSpecLight, "intensity", R, intensity, 1),
    A(gsSpecLight, "range", R, range, 1),
    A(gsSpecLight, "attenuation", R, attenuation, 3),
    A(gsSpecLight, "cutoff", R, cutoff, 1),
    A(gsSpecLight, "exponent", R, exponent, 1),
    A(gsSpecLight, "ambient", R, ambient, 3),
    A(gsSpecLight, "diffuse", R, diffuse, 3),
    A(gsSpecLight, "specular", R, specular, 3),
};

static const gsSpecAttr kTendon[] = {
    NAME(gsSpecTendon),
    A(gsSpecTendon, "spatial", I, spatial, 1),
    A(gsSpecTendon, "group", I, group, 1),
    A(gsSpecTendon, "limited", I, limited, 1),
    A(gsSpecTendon, "range", R, range, 2),
    A(gsSpecTendon, "actfrclimited", I, actfrclimited, 1),
    A(gsSpecTendon, "actfrcrange", R, actfrcrange, 2),
    A(gsSpecTendon, "margin", R, margin, 1),
    A(gsSpecTendon, "solref_limit", R, solref_limit, GS_NREF),
    A(gsSpecTendon, "solimp_limit", R, solimp_limit, GS_NIMP),
    A(gsSpecTendon, "solref_friction", R, solref_friction, GS_NREF),
    A(gsSpecTendon, "solimp_friction", R, solimp_friction, GS_NIMP),
    A(gsSpecTendon, "frictionloss", R, frictionloss, 1),
    A(gsSpecTendon, "width", R, width, 1),
    A(gsSpecTendon, "material", S, material, 1),
    A(gsSpecTendon, "rgba", R, rgba, 4),
    A(gsSpecTendon, "springlength", R, springlength, 2),
    A(gsSpecTendon, "stiffness", R, stiffness, 1),
    A(gsSpecTendon, "damping", R, damping, 1),
    A(gsSpecTendon, "armature", R, armature, 1),
    USER(gsSpecTendon),
};

static const gsSpecAttr kWrap[] = {
    A(gsSpecWrap, "type", I, kind, 1),
    A(gsSpecWrap, "target", S, target, 1),
    A(gsSpecWrap, "sidesite", S, sidesite, 1),
    A(gsSpecWrap, "prm", R, prm, 1),
};

static const gsSpecAttr kActuator[] = {
    NAME(gsSpecActuator),
    A(gsSpecActuator, "trntype", I, trntype, 1),
    A(gsSpecActuator, "target", S, target, 1),
    A(gsSpecActuator, "refsite", S, refsite, 1),
    A(gsSpecActuator, "slidersite", S, slidersite, 1),
    A(gsSpecActuator, "group", I, group, 1),
    A(gsSpecActuator, "ctrllimited", I, ctrllimited, 1),
    A(gsSpecActuator, "forcelimited", I, forcelimited, 1),
    A(gsSpecActuator, "actlimited", I, actlimited, 1),
    A(gsSpecActuator, "ctrlrange", R, ctrlrange, 2),
    A(gsSpecActuator, "forcerange", R, forcerange, 2),
    A(gsSpecActuator, "actrange", R, actrange, 2),
    A(gsSpecActuator, "lengthrange", R, lengthrange, 2),
    A(gsSpecActuator, "gear", R, gear, 6),
    A(gsSpecActuator, "cranklength", R, cranklength, 1),
    A(gsSpecActuator, "dyntype", I, dyntype, 1),
    A(gsSpecActuator, "gaintype", I, gaintype, 1),
    A(gsSpecActuator, "biastype", I, biastype, 1),
    A(gsSpecActuator, "dynprm", R, dynprm, GS_NDYN),
    A(gsSpecActuator, "gainprm", R, gainprm, GS_NGAIN),
    A(gsSpecActuator, "biasprm", R, biasprm, GS_NBIAS),
    A(gsSpecActuator, "actdim", I, actdim, 1),
    A(gsSpecActuator, "actearly", I, actearly, 1),
    A(gsSpecActuator, "inheritrange", R, inheritrange, 1),
    USER(gsSpecActuator),
};

static const gsSpecAttr kSensor[] = {
    NAME(gsSpecSensor),
    A(gsSpecSensor, "type", I, type, 1),
    A(gsSpecSensor, "objtype", I, objtype, 1),
    A(gsSpecSensor, "objname", S, objname, 1),
    A(gsSpecSensor, "reftype", I, reftype, 1),
    A(gsSpecSensor, "refname", S, refname, 1),
    A(gsSpecSensor, "intprm", I, intprm, GS_NSENS),
    A(gsSpecSensor, "dim", I, dim, 1),
    A(gsSpecSensor, "datatype", I, datatype, 1),
    A(gsSpecSensor, "needstage", I, needstage, 1),
    A(gsSpecSensor, "cutoff", R, cutoff, 1),
    A(gsSpecSensor, "noise", R, noise, 1),
    USER(gsSpecSensor),
};

static const gsSpecAttr kEquality[] = {
    NAME(gsSpecEquality),
    A(gsSpecEquality, "type", I, type, 1),
    A(gsSpecEquality, "objtype", I, objtype, 1),
    A(gsSpecEquality, "name1", S, name1, 1),
    A(gsSpecEquality, "name2", S, name2, 1),
    A(gsSpecEquality, "active", I, active, 1),
    A(gsSpecEquality, "solref", R, solref, GS_NREF),
    A(gsSpecEquality, "solimp", R, solimp, GS_NIMP),
    A(gsSpecEquality, "anchor", R, anchor, 3),
    A(gsSpecEquality, "relpose", R, relpose, 7),
    A(gsSpecEquality, "torquescale", R, torquescale, 1),
    A(gsSpecEquality, "polycoef", R, polycoef, 5),
};

static const gsSpecAttr kKey[] = {
    NAME(gsSpecKey),
    A(gsSpecKey, "time", R, time, 1),
    V(gsSpecKey, "qpos", GS_SA_REALVEC, qpos, nqpos, 1),
    V(gsSpecKey, "qvel", GS_SA_REALVEC, qvel, nqvel, 1),
    V(gsSpecKey, "act", GS_SA_REALVEC, act, nact, 1),
    V(gsSpecKey, "ctrl", GS_SA_REALVEC, ctrl, nctrl, 1),
    V(gsSpecKey, "mpos", GS_SA_REALVEC, mpos, nmpos, 1),
    V(gsSpecKey, "mquat", GS_SA_REALVEC, mquat, nmquat, 1),
};

static const gsSpecAttr kNumeric[] = {
    NAME(gsSpecNumeric),
    A(gsSpecNumeric, "size", I, size, 1),
    V(gsSpecNumeric, "data", GS_SA_REALVEC, data, ndata, 1),
};

static const gsSpecAttr kText[] = {
    NAME(gsSpecText),
    A(gsSpecText, "data", S, data, 1),
};

static const gsSpecAttr kTuple[] = {
    NAME(gsSpecTuple),
};

static const gsSpecAttr kTupleElement[] = {
    A(gsSpecTupleElement, "objtype", I, objtype, 1),
    A(gsSpecTupleElement, "objname", S, objname, 1),
    A(gsSpecTupleElement, "prm", R, prm, 1),
};

static const gsSpecAttr kMesh[] = {
    NAME(gsSpecMesh),
    A(gsSpecMesh, "content_type", S, content_type, 1),
    A(gsSpecMesh, "file", S, file, 1),
    A(gsSpecMesh, "path", S, path, 1),
    A(gsSpecMesh, "data", GS_SA_BLOB, data, 1),
    A(gsSpecMesh, "material", S, material, 1),
    A(gsSpecMesh, "builtin", S, builtin, 1),
    A(gsSpecMesh, "refpos", R, refpos, 3),
    A(gsSpecMesh, "refquat", R, refquat, 4),
    A(gsSpecMesh, "scale", R, scale, 3),
    A(gsSpecMesh, "inertia", I, inertia, 1),
    A(gsSpecMesh, "smoothnormal", I, smoothnormal, 1),
    A(gsSpecMesh, "maxhullvert", I, maxhullvert, 1),
    V(gsSpecMesh, "uservert", GS_SA_REALVEC, vert, nvert, 3),
    V(gsSpecMesh, "usernormal", GS_SA_REALVEC, normal, nnormal, 3),
    V(gsSpecMesh, "usertexcoord", GS_SA_REALVEC, texcoord, ntexcoord, 2),
    V(gsSpecMesh, "userface", GS_SA_INTVEC, face, nface, 3),
    V(gsSpecMesh, "params", GS_SA_REALVEC, params, nparams, 1),
};

static const gsSpecAttr kHField[] = {
    NAME(gsSpecHField),
    A(gsSpecHField, "content_type", S, content_type, 1),
    A(gsSpecHField, "file", S, file, 1),
    A(gsSpecHField, "path", S, path, 1),
    A(gsSpecHField, "data", GS_SA_BLOB, data, 1),
    A(gsSpecHField, "size", R, size, 4),
    A(gsSpecHField, "nrow", I, nrow, 1),
    A(gsSpecHField, "ncol", I, ncol, 1),
    V(gsSpecHField, "userdata", GS_SA_REALVEC, elevation, nelevation, 1),
};

static const gsSpecAttr kTexture[] = {
    NAME(gsSpecTexture),
    A(gsSpecTexture, "type", I, type, 1),
    A(gsSpecTexture, "colorspace", I, colorspace, 1),
    A(gsSpecTexture, "builtin", I, builtin, 1),
    A(gsSpecTexture, "mark", I, mark, 1),
    A(gsSpecTexture, "rgb1", R, rgb1, 3),
    A(gsSpecTexture, "rgb2", R, rgb2, 3),
    A(gsSpecTexture, "markrgb", R, markrgb, 3),
    A(gsSpecTexture, "random", R, random, 1),
    A(gsSpecTexture, "width", I, width, 1),
    A(gsSpecTexture, "height", I, height, 1),
    A(gsSpecTexture, "nchannel", I, nchannel, 1),
    A(gsSpecTexture, "content_type", S, content_type, 1),
    A(gsSpecTexture, "file", S, file, 1),
    A(gsSpecTexture, "path", S, path, 1),
    A(gsSpecTexture, "data", GS_SA_BLOB, data, 1),
    A(gsSpecTexture, "gridsize", I, gridsize, 2),
    A(gsSpecTexture, "gridlayout", GS_SA_CHARS, gridlayout, 13),
    A(gsSpecTexture, "cubefiles", S, cubefiles, 6),
    A(gsSpecTexture, "cubepaths", S, cubepaths, 6),
    A(gsSpecTexture, "cubedata0", GS_SA_BLOB, cubedata[0], 1),
    A(gsSpecTexture, "cubedata1", GS_SA_BLOB, cubedata[1], 1),
    A(gsSpecTexture, "cubedata2", GS_SA_BLOB, cubedata[2], 1),
    A(gsSpecTexture, "cubedata3", GS_SA_BLOB, cubedata[3], 1),
    A(gsSpecTexture, "cubedata4", GS_SA_BLOB, cubedata[4], 1),
    A(gsSpecTexture, "cubedata5", GS_SA_BLOB, cubedata[5], 1),
    A(gsSpecTexture, "hflip", I, hflip, 1),
    A(gsSpecTexture, "vflip", I, vflip, 1),
    A(gsSpecTexture, "unreadable", I, unreadable, 1),
};

static const gsSpecAttr kMaterial[] = {
    NAME(gsSpecMaterial),
    A(gsSpecMaterial, "textures", S, texture, GS_NTEXROLE),
    A(gsSpecMaterial, "texuniform", I, texuniform, 1),
    A(gsSpecMaterial, "texrepeat", R, texrepeat, 2),
    A(gsSpecMaterial, "emission", R, emission, 1),
    A(gsSpecMaterial, "specular", R, specular, 1),
    A(gsSpecMaterial, "shininess", R, shininess, 1),
    A(gsSpecMaterial, "reflectance", R, reflectance, 1),
    A(gsSpecMaterial, "metallic", R, metallic, 1),
    A(gsSpecMaterial, "roughness", R, roughness, 1),
    A(gsSpecMaterial, "rgba", R, rgba, 4),
};

static const gsSpecAttr kPair[] = {
    NAME(gsSpecPair),
    A(gsSpecPair, "geomname1", S, geom1, 1),
    A(gsSpecPair, "geomname2", S, geom2, 1),
    A(gsSpecPair, "condim", I, condim, 1),
    A(gsSpecPair, "friction", R, friction, 5),
    A(gsSpecPair, "solref", R, solref, GS_NREF),
    A(gsSpecPair, "solreffriction", R, solreffriction, GS_NREF),
    A(gsSpecPair, "solimp", R, solimp, GS_NIMP),
    A(gsSpecPair, "margin", R, margin, 1),
    A(gsSpecPair, "gap", R, gap, 1),
};

static const gsSpecAttr kExclude[] = {
    NAME(gsSpecExclude),
    A(gsSpecExclude, "bodyname1", S, body1, 1),
    A(gsSpecExclude, "bodyname2", S, body2, 1),
};

/* a frame's own pose is as written, in its enclosing frame (MuJoCo's meaning); its pose in the
 * body is kept apart (gsSpecFrame) */
static const gsSpecAttr kFrame[] = {
    NAME(gsSpecFrame),
    A(gsSpecFrame, "pos", R, pos, 3),
    A(gsSpecFrame, "quat", R, quat, 4),
    /* 1 once something is placed by it: its pose in the body no longer changes (read only) */
    A(gsSpecFrame, "placed", I, placed, 1),
};

#define TABLE(k, t, T) [k] = {t, (int)(sizeof(t) / sizeof(t[0])), sizeof(T)}
static const struct {
  const gsSpecAttr* attr;
  int n;
  size_t size;
} kTables[GS_NSPECKIND] = {
    TABLE(GS_SK_SPEC, kSpec, gsSpec),
    TABLE(GS_SK_COMPILER, kCompiler, gsCompilerOptions),
    TABLE(GS_SK_STATISTIC, kStatistic, gsSpecStatistic),
    TABLE(GS_SK_VISUAL, kVisual, gsSpecVisual),
    TABLE(GS_SK_BODY, kBody, gsSpecBody),
    TABLE(GS_SK_JOINT, kJoint, gsSpecJoint),
    TABLE(GS_SK_GEOM, kGeom, gsSpecGeom),
    TABLE(GS_SK_SITE, kSite, gsSpecSite),
    TABLE(GS_SK_CAMERA, kCamera, gsSpecCamera),
    TABLE(GS_SK_LIGHT, kLight, gsSpecLight),
    TABLE(GS_SK_TENDON, kTendon, gsSpecTendon),
    TABLE(GS_SK_WRAP, kWrap, gsSpecWrap),
    TABLE(GS_SK_ACTUATOR, kActuator, gsSpecActuator),
    TABLE(GS_SK_SENSOR, kSensor, gsSpecSensor),
    TABLE(GS_SK_EQUALITY, kEquality, gsSpecEquality),
    TABLE(GS_SK_KEY, kKey, gsSpecKey),
    TABLE(GS_SK_NUMERIC, kNumeric, gsSpecNumeric),
    TABLE(GS_SK_TEXT, kText, gsSpecText),
    TABLE(GS_SK_TUPLE, kTuple, gsSpecTuple),
    TABLE(GS_SK_TUPLEELEMENT, kTupleElement, gsSpecTupleElement),
    TABLE(GS_SK_MESH, kMesh, gsSpecMesh),
    TABLE(GS_SK_HFIELD, kHField, gsSpecHField),
    TABLE(GS_SK_TEXTURE, kTexture, gsSpecTexture),
    TABLE(GS_SK_MATERIAL, kMaterial, gsSpecMaterial),
    TABLE(GS_SK_PAIR, kPair, gsSpecPair),
    TABLE(GS_SK_EXCLUDE, kExclude, gsSpecExclude),
    TABLE(GS_SK_FRAME, kFrame, gsSpecFrame),
};

const gsSpecAttr* gs_specAttrs(int kind, int* n) {
  if (kind < 0 || kind >= GS_NSPECKIND) {
    if (n) *n = 0;
    return NULL;
  }
  if (n) *n = kTables[kind].n;
  return kTables[kind].attr;
}

size_t gs_specKindSize(int kind) {
  return kind < 0 || kind >= GS_NSPECKIND ? 0 : kTables[kind].size;
}

gsOption* gs_specOption(gsSpec* spec) { return spec ? &spec->option : NULL; }

gsSpecBody* gs_specWorld(gsSpec* spec) { return spec ? spec->world : NULL; }

void* gs_specSettings(gsSpec* spec, int kind) {
  if (!spec) return NULL;
  switch (kind) {
    case GS_SK_SPEC: return spec;
    case GS_SK_COMPILER: return &spec->compiler;
    case GS_SK_STATISTIC: return &spec->statistic;
    case GS_SK_VISUAL: return &spec->visual;
    default: return NULL;
  }
}

static int set_array(void** dst, int* ndst, const void* src, int n, int per, size_t elem) {
  void* copy = NULL;
  if (n < 0 || per <= 0) return 0;
  if (n > 0) {
    size_t bytes = (size_t)n * (size_t)per * elem;
    copy = malloc(bytes);
    if (!copy) return 0;
    memcpy(copy, src, bytes);
  }
  free(*dst);
  *dst = copy;
  *ndst = n;
  return 1;
}

int gs_specSetReals(gsReal** dst, int* ndst, const gsReal* src, int n, int per) {
  return set_array((void**)dst, ndst, src, n, per, sizeof(gsReal));
}

int gs_specSetInts(int** dst, int* ndst, const int* src, int n, int per) {
  return set_array((void**)dst, ndst, src, n, per, sizeof(int));
}

int gs_specSetBlob(gsSpecBlob* blob, const void* bytes, size_t n) {
  unsigned char* copy = NULL;
  if (bytes && n) {
    copy = malloc(n);
    if (!copy) return 0;
    memcpy(copy, bytes, n);
  }
  free(blob->bytes);
  blob->bytes = copy;
  blob->n = copy ? n : 0;
  return 1;
}

/* ---- freeing: what an element owns is what its table lists, plus its own lists ---- */

static void free_assetref(gsSpecAssetRef* r) {
  free(r->material), free(r->mesh), free(r->hfield), free(r);
}

void gs_specFreeElement(int kind, void* el) {
  if (!el) return;
  int n;
  const gsSpecAttr* attr = gs_specAttrs(kind, &n);
  char* base = el;
  for (int i = 0; i < n; i++) {
    void* p = base + attr[i].offset;
    switch (attr[i].type) {
      case GS_SA_STRING:
        for (int k = 0; k < attr[i].count; k++) free(((char**)p)[k]);
        break;
      case GS_SA_REALVEC:
      case GS_SA_INTVEC:
        free(*(void**)p);
        break;
      case GS_SA_BLOB:
        free(((gsSpecBlob*)p)->bytes);
        break;
      default:
        break;
    }
  }
  if (kind == GS_SK_BODY) {
    gsSpecBody* b = el;
    for (int i = 0; i < b->nchild; i++) gs_specFreeElement(GS_SK_BODY, b->child[i]);
    for (int i = 0; i < b->njoint; i++) gs_specFreeElement(GS_SK_JOINT, b->joint[i]);
    for (int i = 0; i < b->ngeom; i++) gs_specFreeElement(GS_SK_GEOM, b->geom[i]);
    for (int i = 0; i < b->nsite; i++) gs_specFreeElement(GS_SK_SITE, b->site[i]);
    for (int i = 0; i < b->ncamera; i++) gs_specFreeElement(GS_SK_CAMERA, b->camera[i]);
    for (int i = 0; i < b->nlight; i++) gs_specFreeElement(GS_SK_LIGHT, b->light[i]);
    for (int i = 0; i < b->nassetref; i++) free_assetref(b->assetref[i]);
    for (int i = 0; i < b->nframe; i++) gs_specFreeElement(GS_SK_FRAME, b->frame[i]);
    free(b->frame);
    free(b->child), free(b->joint), free(b->geom), free(b->site);
    free(b->camera), free(b->light), free(b->assetref);
  } else if (kind == GS_SK_TENDON) {
    gsSpecTendon* t = el;
    for (int i = 0; i < t->nwrap; i++) gs_specFreeElement(GS_SK_WRAP, t->wrap[i]);
    free(t->wrap);
  } else if (kind == GS_SK_TUPLE) {
    gsSpecTuple* t = el;
    for (int i = 0; i < t->nelement; i++) gs_specFreeElement(GS_SK_TUPLEELEMENT, t->element[i]);
    free(t->element);
  }
  free(el);
}

/* (not gs_specSetString: spec.c calls this file to free specs, and files of a folder call in one
 * direction) */
static int copy_string(char** dst, const char* s) {
  if (!s) return 1;
  size_t n = strlen(s) + 1;
  *dst = malloc(n);
  if (!*dst) return 0;
  memcpy(*dst, s, n);
  return 1;
}

/* a deep copy of an element outside any list: owned strings, arrays and contents duplicated (a
 * tendon's path and a tuple's elements too; a body without its contents); NULL when out of
 * memory */
void* gs_specCopyElement(int kind, const void* el) {
  int n;
  const gsSpecAttr* attr = gs_specAttrs(kind, &n);
  size_t size = gs_specKindSize(kind);
  if (!el || !attr) return NULL;
  char* copy = malloc(size);
  if (!copy) return NULL;
  memcpy(copy, el, size);
  if (kind == GS_SK_BODY) {
    /* a body alone: its contents are the caller's to copy (gs_specCopy) */
    gsSpecBody* b = (gsSpecBody*)copy;
    b->parent = NULL;
    b->nchild = b->nchild_cap = b->njoint = b->njoint_cap = b->ngeom = b->ngeom_cap = 0;
    b->nsite = b->nsite_cap = b->ncamera = b->ncamera_cap = b->nlight = b->nlight_cap = 0;
    b->nassetref = b->nassetref_cap = 0;
    b->child = NULL, b->joint = NULL, b->geom = NULL, b->site = NULL;
    b->camera = NULL, b->light = NULL, b->assetref = NULL;
    b->nframe = b->nframe_cap = 0, b->frame = NULL;  /* the frames are copied below */
  }
  /* first detach everything owned, so that a failure part way frees only what was copied */
  for (int i = 0; i < n; i++) {
    void* p = copy + attr[i].offset;
    if (attr[i].type == GS_SA_STRING) memset(p, 0, sizeof(char*) * (size_t)attr[i].count);
    if (attr[i].type == GS_SA_REALVEC || attr[i].type == GS_SA_INTVEC) *(void**)p = NULL;
    if (attr[i].type == GS_SA_BLOB) memset(p, 0, sizeof(gsSpecBlob));
  }
  if (kind == GS_SK_TENDON) ((gsSpecTendon*)copy)->wrap = NULL, ((gsSpecTendon*)copy)->nwrap_cap = 0;
  if (kind == GS_SK_TUPLE) ((gsSpecTuple*)copy)->element = NULL, ((gsSpecTuple*)copy)->nelement_cap = 0;
  int ok = 1;
  for (int i = 0; ok && i < n; i++) {
    const void* from = (const char*)el + attr[i].offset;
    void* to = copy + attr[i].offset;
    switch (attr[i].type) {
      case GS_SA_STRING:
        for (int k = 0; ok && k < attr[i].count; k++) ok = copy_string((char**)to + k, ((char* const*)from)[k]);
        break;
      case GS_SA_REALVEC:
      case GS_SA_INTVEC: {
        int len = *(const int*)((const char*)el + attr[i].lenoff);
        size_t bytes = attr[i].type == GS_SA_REALVEC ? sizeof(gsReal) : sizeof(int);
        ok = set_array(to, (int*)(copy + attr[i].lenoff), *(void* const*)from, *(void* const*)from ? len : 0,
                       attr[i].count, bytes);
        break;
      }
      case GS_SA_BLOB:
        ok = gs_specSetBlob(to, ((const gsSpecBlob*)from)->bytes, ((const gsSpecBlob*)from)->n);
        break;
      default:
        break;
    }
  }
  if (ok && kind == GS_SK_BODY) {
    gsSpecBody *b = (gsSpecBody*)copy;
    const gsSpecBody* src = el;
    /* enclosing frames come first in the list: each copy points at the copy of its own */
    for (int i = 0; ok && i < src->nframe; i++) {
      gsSpecFrame* f = gs_specCopyElement(GS_SK_FRAME, src->frame[i]);
      ok = f && gs_specPush((void***)&b->frame, &b->nframe, &b->nframe_cap, f);
      if (!ok) {
        gs_specFreeElement(GS_SK_FRAME, f);
        break;
      }
      const gsSpecFrame* up = src->frame[i]->frame;
      f->frame = NULL;
      for (int k = i - 1; up && k >= 0; k--)  /* (usually a recent one) */
        if (src->frame[k] == up) {
          f->frame = b->frame[k];
          break;
        }
    }
  }
  if (ok && kind == GS_SK_TENDON) {
    gsSpecTendon *t = (gsSpecTendon*)copy, *src = (gsSpecTendon*)el;
    int nw = t->nwrap;
    t->nwrap = 0;
    for (int i = 0; ok && i < nw; i++) {
      void* w = gs_specCopyElement(GS_SK_WRAP, src->wrap[i]);
      ok = w && gs_specPush((void***)&t->wrap, &t->nwrap, &t->nwrap_cap, w);
      if (!ok) gs_specFreeElement(GS_SK_WRAP, w);
    }
  }
  if (ok && kind == GS_SK_TUPLE) {
    gsSpecTuple *t = (gsSpecTuple*)copy, *src = (gsSpecTuple*)el;
    int ne = t->nelement;
    t->nelement = 0;
    for (int i = 0; ok && i < ne; i++) {
      void* e = gs_specCopyElement(GS_SK_TUPLEELEMENT, src->element[i]);
      ok = e && gs_specPush((void***)&t->element, &t->nelement, &t->nelement_cap, e);
      if (!ok) gs_specFreeElement(GS_SK_TUPLEELEMENT, e);
    }
  }
  /* the name lives in info, which every named kind's table lists as "name" */
  if (!ok) {
    gs_specFreeElement(kind, copy);
    return NULL;
  }
  return copy;
}

void gs_specFreeList(int kind, void*** list, int* n, int* cap) {
  for (int i = 0; i < *n; i++) gs_specFreeElement(kind, (*list)[i]);
  free(*list);
  *list = NULL;
  *n = 0;
  if (cap) *cap = 0;
}

/* ---- deleting ---- */

/* remove el from list (order kept); 1 when it was there */
static int unlink_from(void** list, int* n, const void* el) {
  for (int i = 0; i < *n; i++) {
    if (list[i] != el) continue;
    memmove(list + i, list + i + 1, sizeof(void*) * (size_t)(*n - i - 1));
    (*n)--;
    return 1;
  }
  return 0;
}

/* the list of body b that holds elements of kind, NULL for kinds not in bodies */
static void** body_list(gsSpecBody* b, int kind, int** n) {
  switch (kind) {
    case GS_SK_BODY: *n = &b->nchild; return (void**)b->child;
    case GS_SK_JOINT: *n = &b->njoint; return (void**)b->joint;
    case GS_SK_GEOM: *n = &b->ngeom; return (void**)b->geom;
    case GS_SK_SITE: *n = &b->nsite; return (void**)b->site;
    case GS_SK_CAMERA: *n = &b->ncamera; return (void**)b->camera;
    case GS_SK_LIGHT: *n = &b->nlight; return (void**)b->light;
    case GS_SK_FRAME: *n = &b->nframe; return (void**)b->frame;
    default: *n = NULL; return NULL;
  }
}

static gsSpecBody* find_parent(gsSpecBody* b, int kind, const void* el) {
  int* n;
  void** list = body_list(b, kind, &n);
  if (!list && !n) return NULL;
  for (int i = 0; i < *n; i++)
    if (list[i] == el) return b;
  for (int i = 0; i < b->nchild; i++) {
    gsSpecBody* p = find_parent(b->child[i], kind, el);
    if (p) return p;
  }
  return NULL;
}

gsSpecBody* gs_specParent(gsSpec* spec, int kind, const void* el) {
  if (!spec || !el || !spec->world) return NULL;
  return find_parent(spec->world, kind, el);
}

/* the spec-level list of elements of kind, NULL for kinds kept in bodies */
static void** spec_list(gsSpec* s, int kind, int** n) {
  switch (kind) {
    case GS_SK_TENDON: *n = &s->ntendon; return (void**)s->tendon;
    case GS_SK_ACTUATOR: *n = &s->nactuator; return (void**)s->actuator;
    case GS_SK_SENSOR: *n = &s->nsensor; return (void**)s->sensor;
    case GS_SK_EQUALITY: *n = &s->nequality; return (void**)s->equality;
    case GS_SK_KEY: *n = &s->nkey; return (void**)s->key;
    case GS_SK_NUMERIC: *n = &s->nnumeric; return (void**)s->numeric;
    case GS_SK_TEXT: *n = &s->ntext; return (void**)s->text;
    case GS_SK_TUPLE: *n = &s->ntuple; return (void**)s->tuple;
    case GS_SK_MESH: *n = &s->nmesh; return (void**)s->mesh;
    case GS_SK_HFIELD: *n = &s->nhfield; return (void**)s->hfield;
    case GS_SK_TEXTURE: *n = &s->ntexture; return (void**)s->texture;
    case GS_SK_MATERIAL: *n = &s->nmaterial; return (void**)s->material;
    case GS_SK_PAIR: *n = &s->npair; return (void**)s->pair;
    case GS_SK_EXCLUDE: *n = &s->nexclude; return (void**)s->exclude;
    default: *n = NULL; return NULL;
  }
}

/* remove the asset references of a geom or site, whose address may be reused later */
static void drop_assetref(gsSpecBody* b, const void* owner) {
  for (int i = 0; i < b->nassetref; i++) {
    if (b->assetref[i]->owner != owner) continue;
    gsSpecAssetRef* r = b->assetref[i];
    unlink_from((void**)b->assetref, &b->nassetref, r);
    free_assetref(r);
    return;
  }
}

/* a deleted frame's name leaves the spec's list (it may be used again) */
static void drop_frame_name(gsSpec* s, const gsSpecFrame* f) {
  if (!f->info.name) return;
  for (int k = 0; k < s->nframename; k++)
    if (strcmp(s->framename[k], f->info.name) == 0) {
      free(s->framename[k]);
      memmove(s->framename + k, s->framename + k + 1, sizeof(char*) * (size_t)(s->nframename - k - 1));
      s->nframename--;
      return;
    }
}

/* the frame names of a deleted body's subtree leave the spec's list */
static void drop_frames(gsSpec* s, const gsSpecBody* b) {
  for (int i = 0; i < b->nframe; i++) drop_frame_name(s, b->frame[i]);
  for (int i = 0; i < b->nchild; i++) drop_frames(s, b->child[i]);
}

/* what a deleted frame held (its frames, joints, geoms, sites, cameras and lights) is then
 * written in its enclosing frame, staying where it was placed */
static void lift_frames(gsSpecBody* b, const gsSpecFrame* gone) {
#define LIFT(n, list) \
  for (int i = 0; i < b->n; i++) \
    if (b->list[i]->frame == gone) b->list[i]->frame = gone->frame;
  LIFT(nframe, frame)
  LIFT(njoint, joint)
  LIFT(ngeom, geom)
  LIFT(nsite, site)
  LIFT(ncamera, camera)
  LIFT(nlight, light)
  for (int i = 0; i < b->nchild; i++)
    if (b->child[i]->inframe == gone) b->child[i]->inframe = gone->frame;
#undef LIFT
}

/* the tendon or tuple holding a wrap or tuple element */
static int delete_part(gsSpec* s, int kind, void* el) {
  if (kind == GS_SK_WRAP) {
    for (int i = 0; i < s->ntendon; i++)
      if (unlink_from((void**)s->tendon[i]->wrap, &s->tendon[i]->nwrap, el)) return 1;
  } else {
    for (int i = 0; i < s->ntuple; i++)
      if (unlink_from((void**)s->tuple[i]->element, &s->tuple[i]->nelement, el)) return 1;
  }
  return 0;
}

int gs_specDelete(gsSpec* s, int kind, void* el) {
  if (!s || !el || el == s->world) return 0;
  int found = 0;
  if (kind == GS_SK_WRAP || kind == GS_SK_TUPLEELEMENT) {
    found = delete_part(s, kind, el);
  } else {
    int* n;
    void** list = spec_list(s, kind, &n);
    if (list || n) {
      found = unlink_from(list, n, el);
    } else {
      gsSpecBody* parent = gs_specParent(s, kind, el);
      if (parent) {
        list = body_list(parent, kind, &n);
        found = unlink_from(list, n, el);
        if (kind == GS_SK_GEOM || kind == GS_SK_SITE) drop_assetref(parent, el);
        if (found && kind == GS_SK_FRAME) {
          lift_frames(parent, el);
          drop_frame_name(s, el);
        }
      }
    }
  }
  if (found && kind == GS_SK_BODY) drop_frames(s, el);
  if (found) gs_specFreeElement(kind, el);
  return found;
}

void* gs_specChild(void* parent, int parentkind, int kind, int i, int* n) {
  int zero = 0, *count = &zero;
  void** list = NULL;
  if (parent && parentkind == GS_SK_BODY) {
    list = body_list(parent, kind, &count);
  } else if (parent && parentkind == GS_SK_SPEC) {
    list = spec_list(parent, kind, &count);
  } else if (parent && parentkind == GS_SK_TENDON && kind == GS_SK_WRAP) {
    count = &((gsSpecTendon*)parent)->nwrap;
    list = (void**)((gsSpecTendon*)parent)->wrap;
  } else if (parent && parentkind == GS_SK_TUPLE && kind == GS_SK_TUPLEELEMENT) {
    count = &((gsSpecTuple*)parent)->nelement;
    list = (void**)((gsSpecTuple*)parent)->element;
  }
  if (!count) count = &zero;
  if (n) *n = *count;
  return i >= 0 && i < *count ? list[i] : NULL;
}
