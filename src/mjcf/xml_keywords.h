/* MJCF's keyword tables, shared by the reader (xml_*.c) and the writer (xml_write*.c) so that
 * what one writes the other reads back. Each is indexed by the value the keyword stands for. */
#ifndef GAUSS_MJCF_XML_KEYWORDS_H
#define GAUSS_MJCF_XML_KEYWORDS_H

#include "gauss/gauss.h"

extern const char* const gsx_falseTrueAuto[3];         /* limited= and other tristates */
extern const char* const gsx_jointTypes[4];              /* gsJointType */
extern const char* const gsx_geomTypes[GS_NGEOMTYPE];    /* gsGeomType */
extern const char* const gsx_objNames[GS_NOBJECT];       /* gsObject: objtype= values */
extern const char* const gsx_camLightModes[5];           /* mode= of cameras and lights */
extern const char* const gsx_texRoles[GS_NTEXROLE];      /* role= of material layers */
extern const char* const gsx_dynTypes[6];                /* dyntype= of actuators */
extern const char* const gsx_gainTypes[4];               /* gaintype= */
extern const char* const gsx_biasTypes[4];               /* biastype= */

#endif
