/* The world slice of the MJCF reader: <asset>, <contact>, <visual>, <statistic>; <camera> and <light> in bodies. Not read yet: the reader skips these with a
 * warning. */
#include "xml_internal.h"

int gsx_readWorldSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  (void)c, (void)node, (void)src;
  return -1;
}

int gsx_checkDefaultWorld(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  (void)c, (void)node, (void)src;
  return -1;
}

const char* gsx_attrsWorld(const char* element) {
  (void)element;
  return NULL;
}

int gsx_readWorldBodyChild(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body, int cls) {
  (void)c, (void)node, (void)src, (void)body, (void)cls;
  return -1;
}
