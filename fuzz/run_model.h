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

static inline int ends_with(const char* name, const char* tail) {
  size_t n = strlen(name), t = strlen(tail);
  return n > t && strcmp(name + n - t, tail) == 0;
}

/* the model's <frame>s (nframe, framenames, frame_*, *_frameid): the writer leaves unnamed frames
 * out, as MJCF's writer does, and writes what they hold in their place (compile_frames.c; a
 * <replicate> that turns its copies makes them: MuJoCo's stonehenge), so the model written and
 * read again has no more frames than the model, and their ids are not compared */
static inline int frame_entry(const char* name) {
  return strncmp(name, "frame", 5) == 0 || strcmp(name, "nframe") == 0 ||
         strcmp(name, "nframenames") == 0 || ends_with(name, "_frameid");
}

/* the asset files' names (npaths, nreadpaths, paths, readpaths, *_pathadr, *_readadr): the
 * writer names each file as it was read, texturedir or meshdir joined in (a texture file that
 * was not found only warns, and keeps its joined name: MuJoCo's 3x3x3 cube read from a string),
 * so the buffers' sizes and contents move; not compared */
static inline int path_entry(const char* name) {
  return strcmp(name, "npaths") == 0 || strcmp(name, "nreadpaths") == 0 ||
         strcmp(name, "paths") == 0 || strcmp(name, "readpaths") == 0 ||
         ends_with(name, "_pathadr") || ends_with(name, "readadr");
}

/* the MJCF the writer makes loads again, to the same sizes and the same integer arrays (reals may
 * move by rounding where the compiler normalizes or solves again), but for its frames and asset
 * names (above) */
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
  const char* size;
  for (int i = 0; (size = gs_modelSize(m, i, &va)); i++) {
    gs_modelSize(b, i, &vb);
    FUZZ_REQUIRE(path_entry(size) || (frame_entry(size) ? vb <= va : va == vb));
  }
  gsFieldInfo fa, fb;
  for (int i = 0; gs_modelField(m, i, &fa); i++) {
    gs_modelField(b, i, &fb);
    if (frame_entry(fa.name) || path_entry(fa.name)) continue;
    FUZZ_REQUIRE(fa.rows == fb.rows && fa.cols == fb.cols);
    size_t k = (size_t)fa.rows * (size_t)fa.cols;
    if (fa.type == GS_TYPE_INT) FUZZ_REQUIRE(!k || memcmp(fa.ptr, fb.ptr, k * sizeof(int)) == 0);
    if (fa.type == GS_TYPE_CHAR) FUZZ_REQUIRE(!k || memcmp(fa.ptr, fb.ptr, k) == 0);
  }
  gs_freeModel(b);
}

#endif
