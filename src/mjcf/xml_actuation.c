/* The actuation slice of the MJCF reader: <tendon> and <actuator>. Not read yet: the reader skips these with a
 * warning. */
#include "xml_internal.h"

int gsx_readActuationSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  (void)c, (void)node, (void)src;
  return -1;
}

int gsx_checkDefaultActuation(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  (void)c, (void)node, (void)src;
  return -1;
}

const char* gsx_attrsActuation(const char* element) {
  (void)element;
  return NULL;
}
