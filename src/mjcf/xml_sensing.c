/* The sensing slice of the MJCF reader: <sensor>, <equality>, <keyframe> and <custom>. Not read yet: the reader skips these with a
 * warning. */
#include "xml_internal.h"

int gsx_readSensingSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  (void)c, (void)node, (void)src;
  return -1;
}

int gsx_checkDefaultSensing(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  (void)c, (void)node, (void)src;
  return -1;
}

const char* gsx_attrsSensing(const char* element) {
  (void)element;
  return NULL;
}
