/* MJCF's keyword tables (see xml_keywords.h). */
#include "xml_keywords.h"

const char* const gsx_falseTrueAuto[3] = {"false", "true", "auto"};
const char* const gsx_jointTypes[4] = {"free", "ball", "slide", "hinge"};
const char* const gsx_geomTypes[GS_NGEOMTYPE] = {"plane",     "hfield",   "sphere", "capsule",
                                                 "ellipsoid", "cylinder", "box",    "mesh"};
const char* const gsx_objNames[GS_NOBJECT] = {
    "unknown", "body", "xbody", "joint", "dof", "geom", "site", "camera", "light", "flex",
    "mesh", "skin", "hfield", "texture", "material", "pair", "exclude", "equality", "tendon",
    "actuator", "sensor", "numeric", "text", "tuple", "key", "plugin"};
const char* const gsx_camLightModes[5] = {"fixed", "track", "trackcom", "targetbody",
                                          "targetbodycom"};
const char* const gsx_texRoles[GS_NTEXROLE] = {"user",     "rgb",    "occlusion", "roughness",
                                               "metallic", "normal", "opacity",   "emissive",
                                               "rgba",     "orm"};
const char* const gsx_dynTypes[6] = {"none", "integrator", "filter", "filterexact", "muscle",
                                     "user"};
const char* const gsx_gainTypes[4] = {"fixed", "affine", "muscle", "user"};
const char* const gsx_biasTypes[4] = {"none", "affine", "muscle", "user"};
