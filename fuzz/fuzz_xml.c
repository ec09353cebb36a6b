/* libFuzzer target: the MJCF reader and compiler on arbitrary text, then the binary format, the MJCF
 * writer and the engine on whatever model comes out. Run from an empty directory (scripts/fuzz.sh does), so that an <include> named
 * by the input finds nothing to read. */
#include <stdint.h>

#include "run_model.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  char* xml = malloc(size + 1);
  if (!xml) return 0;
  memcpy(xml, data, size);
  xml[size] = 0;
  char err[1000];
  gsModel* m = gs_loadXMLString(xml, err, sizeof err);
  free(xml);
  if (!m) {
    FUZZ_REQUIRE(err[0] != 0);  /* every failure says why */
    return 0;
  }
  fuzz_binary_roundtrip(m);
  fuzz_xml_roundtrip(m);
  fuzz_step(m);
  gs_freeModel(m);
  return 0;
}
