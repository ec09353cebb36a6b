/* libFuzzer target: the binary model loader. Each input is loaded as it is and once more with its
 * length field and checksum made right, so that mutations reach the checks behind the checksum
 * (sizes, the tree, ids) instead of stopping at it. A model that loads must step without a fault
 * and save back to the bytes it came from. */
#include <stdint.h>

#include "run_model.h"

enum { HEADER = 56, OFF_LENGTH = 48 };

static void try_load(const uint8_t* data, size_t size) {
  char err[1000];
  gsModel* m = gs_loadModelBuffer(data, size, err, sizeof err);
  if (!m) {
    FUZZ_REQUIRE(err[0] != 0);
    return;
  }
  FUZZ_REQUIRE(gs_sizeModel(m) == size);
  uint8_t* again = malloc(size);
  if (again) {
    FUZZ_REQUIRE(gs_saveModelBuffer(m, again, size) == (int)size);
    FUZZ_REQUIRE(memcmp(again, data, size) == 0);
    free(again);
  }
  fuzz_step(m);
  gs_freeModel(m);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try_load(data, size);
  if (size < HEADER + 4) return 0;
  uint8_t* fixed = malloc(size);
  if (!fixed) return 0;
  memcpy(fixed, data, size);
  uint64_t len = size;
  memcpy(fixed + OFF_LENGTH, &len, sizeof len);
  uint32_t crc = crc32_bytes(fixed, size - 4);
  memcpy(fixed + size - 4, &crc, 4);
  if (memcmp(fixed, data, size) != 0) try_load(fixed, size);
  free(fixed);
  return 0;
}
