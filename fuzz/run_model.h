/* What both fuzz targets do with a model that loaded: properties that must hold for every model,
 * checked with __builtin_trap so that libFuzzer reports a violation like a crash. */
#ifndef GAUSS_FUZZ_RUN_MODEL_H
#define GAUSS_FUZZ_RUN_MODEL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gauss/gauss.h>

#define FUZZ_REQUIRE(cond) \
  do {                     \
    if (!(cond)) __builtin_trap(); \
  } while (0)

/* the binary format's CRC-32 (IEEE, reflected), written independently of the loader's, to fix up
 * a mutated file so that mutations reach the checks behind the checksum */
static inline uint32_t crc32_bytes(const uint8_t* p, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
  }
  return c ^ 0xffffffffu;
}

/* a few steps from the default state and from a moving one. Models asking for more than 1000
 * solver, line-search or no-slip iterations are valid but only slow (a mutated noslip_iterations
 * of 8960 with RK4 took 9 s under the sanitizers), so they are not stepped: the fuzzer's time
 * limit is for hangs, not for work the model asks for. */
static inline void fuzz_step(const gsModel* m) {
  if (m->opt.iterations > 1000 || m->opt.ls_iterations > 1000 || m->opt.noslip_iterations > 1000)
    return;
  gsData* d = gs_makeData(m);
  if (!d) return;  /* sizes too large to allocate: not an error of the engine */
  for (int k = 0; k < 3; k++) gs_step(m, d);
  for (int i = 0; i < m->nv; i++) d->qvel[i] = (i % 3) - 1.0;
  for (int k = 0; k < 3; k++) gs_step(m, d);
  gs_step1(m, d);
  gs_step2(m, d);
  gs_freeData(d);
}

/* the binary of a model loads again, to the same bytes */
static inline void fuzz_binary_roundtrip(const gsModel* m) {
  size_t n = gs_sizeModel(m);
  FUZZ_REQUIRE(n > 0);
  unsigned char* buf = malloc(n);
  if (!buf) return;
  FUZZ_REQUIRE(gs_saveModelBuffer(m, buf, n) == (int)n);
  char err[500];
  gsModel* b = gs_loadModelBuffer(buf, n, err, sizeof err);
  FUZZ_REQUIRE(b != NULL);  /* the integrity check accepts whatever the compiler makes */
  unsigned char* again = malloc(n);
  if (again) {
    FUZZ_REQUIRE(gs_saveModelBuffer(b, again, n) == (int)n);
    FUZZ_REQUIRE(memcmp(buf, again, n) == 0);
    free(again);
  }
  gs_freeModel(b);
  free(buf);
}

/* the MJCF the writer makes loads again, to the same sizes and the same integer arrays (reals may
 * move by rounding where the compiler normalizes or solves again) */
static inline void fuzz_xml_roundtrip(const gsModel* m) {
  char err[500];
  int n = gs_saveXMLString(m, NULL, 0, err, sizeof err);
  if (n < 0) {
    FUZZ_REQUIRE(err[0] != 0);  /* e.g. an unnamed object that something refers to */
    return;
  }
  char* xml = malloc((size_t)n + 1);
  if (!xml) return;
  FUZZ_REQUIRE(gs_saveXMLString(m, xml, n + 1, err, sizeof err) == n);
  gsModel* b = gs_loadXMLString(xml, err, sizeof err);
  free(xml);
  FUZZ_REQUIRE(b != NULL);
  int va, vb;
  for (int i = 0; gs_modelSize(m, i, &va); i++) {
    gs_modelSize(b, i, &vb);
    FUZZ_REQUIRE(va == vb);
  }
  gsFieldInfo fa, fb;
  for (int i = 0; gs_modelField(m, i, &fa); i++) {
    gs_modelField(b, i, &fb);
    FUZZ_REQUIRE(fa.rows == fb.rows && fa.cols == fb.cols);
    size_t k = (size_t)fa.rows * (size_t)fa.cols;
    if (fa.type == GS_TYPE_INT) FUZZ_REQUIRE(!k || memcmp(fa.ptr, fb.ptr, k * sizeof(int)) == 0);
    if (fa.type == GS_TYPE_CHAR) FUZZ_REQUIRE(!k || memcmp(fa.ptr, fb.ptr, k) == 0);
  }
  gs_freeModel(b);
}

#endif
