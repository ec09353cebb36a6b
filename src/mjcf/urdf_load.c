/* gs_loadURDF and gs_loadURDFString: the loaders that take URDF only (urdf_read.c reads it;
 * gsx_parse, which every loader goes through, hands it <robot> documents). */
#include <stdio.h>

#include "gauss/gauss.h"
#include "xml_internal.h"

gsModel* gs_loadURDF(const char* path, char* err, int errsz) {
  if (!path) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "no file given");
    return NULL;
  }
  gsSpec* spec = gsx_parse(path, NULL, NULL, GSX_PARSE_URDF, err, errsz);
  if (!spec) return NULL;
  gsModel* m = gs_compile(spec, err, errsz);
  gs_specFree(spec);
  return m;
}

gsModel* gs_loadURDFString(const char* urdf, char* err, int errsz) {
  gsSpec* spec = gsx_parse(NULL, urdf, NULL, GSX_PARSE_URDF, err, errsz);
  if (!spec) return NULL;
  gsModel* m = gs_compile(spec, err, errsz);
  gs_specFree(spec);
  return m;
}
