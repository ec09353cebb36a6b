/* Binary models: the compiled model written out as it is in memory, driven by the size and field
 * lists, so that a field added to any fields_*.h is saved with no change here.
 *
 * Layout (native byte order, which the header records):
 *   header   magic "GAUSSMDL", format version (GS_VERSION), byte-order mark, sizeof(gsReal),
 *            sizeof(int), number of sizes, of fields, of option values, a hash of the field list,
 *            total length of the file
 *   sizes    one int per entry of GS_MODEL_SIZES
 *   options  every member of gsOption, in the order of GS_OPTION_FIELDS, then of gsStatistic
 *   arrays   every field of GS_MODEL_FIELDS, rows * cols elements, no padding
 *   CRC-32   of everything before it
 * A file whose hash differs was written by a build with another field list: it is refused rather
 * than misread. Loading checks every length before allocating and the model's integrity after. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/io.h"
#include "model/model_alloc.h"

#define MAGIC "GAUSSMDL"
#define BYTE_ORDER_MARK 0x01020304u

typedef struct {
  char magic[8];
  uint32_t version;
  uint32_t byteorder;
  uint32_t realsize;
  uint32_t intsize;
  uint32_t nsize;
  uint32_t nfield;
  uint32_t noption;
  uint32_t reserved;  /* zero */
  uint64_t fieldhash;
  uint64_t length;    /* of the whole file, CRC included */
} Header;

#define HEADER_BYTES sizeof(Header)
#define CRC_BYTES 4

/* ---- the lists ---- */

#define GS_TYPECODE(type) _Generic((type)0, double: GS_TYPE_REAL, int: GS_TYPE_INT, char: GS_TYPE_CHAR)

static const char* const kSizeNames[] = {
#define GS_S(name) #name,
  GS_MODEL_SIZES(GS_S)
#undef GS_S
};
#define NSIZE ((int)(sizeof(kSizeNames) / sizeof(kSizeNames[0])))

typedef struct {
  const char* name;
  const char* rows;
  int type;
  int cols;
  size_t elem;
} FieldDesc;

static const FieldDesc kFields[] = {
#define GS_X(type, name, rows, cols) {#name, #rows, GS_TYPECODE(type), cols, sizeof(type)},
  GS_MODEL_FIELDS(GS_X)
#undef GS_X
};
#define NFIELD ((int)(sizeof(kFields) / sizeof(kFields[0])))

static const struct {
  const char* name;
  int type;
  int count;
  size_t offset;
} kOptions[] = {
#define GS_O(type, name, count) {#name, GS_TYPECODE(type), count, offsetof(gsOption, name)},
  GS_OPTION_FIELDS(GS_O)
#undef GS_O
};
#define NOPTION ((int)(sizeof(kOptions) / sizeof(kOptions[0])))

#define GS_O(type, name, count) +sizeof(type) * (count)
#define OPTION_BYTES (0 GS_OPTION_FIELDS(GS_O))
/* the members fill the struct but for the padding that rounds it to the alignment of a real */
_Static_assert((OPTION_BYTES + sizeof(gsReal) - 1) / sizeof(gsReal) * sizeof(gsReal) == sizeof(gsOption),
               "GS_OPTION_FIELDS must list every member of gsOption");

static const struct {
  const char* name;
  int type;
  int count;
  size_t offset;
} kStats[] = {
#define GS_T(type, name, count) {#name, GS_TYPECODE(type), count, offsetof(gsStatistic, name)},
  GS_STATISTIC_FIELDS(GS_T)
#undef GS_T
};
#define NSTAT ((int)(sizeof(kStats) / sizeof(kStats[0])))
#define STAT_BYTES (0 GS_STATISTIC_FIELDS(GS_O))
_Static_assert(STAT_BYTES == sizeof(gsStatistic), "GS_STATISTIC_FIELDS must list every member");

static const struct {
  const char* name;
  int type;
  int count;
  size_t offset;
} kVisual[] = {
#define GS_T(type, name, count) {#name, GS_TYPECODE(type), count, offsetof(gsVisual, name)},
#define GS_D(elem, attr, count) {#elem "_" #attr, GS_TYPE_REAL, count, offsetof(gsVisual, elem##_##attr)},
  GS_VISUAL_FIELDS(GS_T) GS_VISUAL_DECOR(GS_D)
#undef GS_D
#undef GS_T
};
#define NVIS ((int)(sizeof(kVisual) / sizeof(kVisual[0])))
#define GS_D(elem, attr, count) +sizeof(gsReal) * (count)
#define VIS_BYTES (0 GS_VISUAL_FIELDS(GS_O) GS_VISUAL_DECOR(GS_D))
_Static_assert((VIS_BYTES + sizeof(gsReal) - 1) / sizeof(gsReal) * sizeof(gsReal) == sizeof(gsVisual),
               "GS_VISUAL_FIELDS must list every member of gsVisual");
#define VIS_SIZE(i) ((kVisual[i].type == GS_TYPE_REAL ? sizeof(gsReal) : sizeof(int)) * (size_t)kVisual[i].count)

int gs_optionField(const gsOption* opt, int i, const char** name, int* type, int* count,
                   const void** ptr) {
  if (i < 0 || i >= NOPTION) return 0;
  if (name) *name = kOptions[i].name;
  if (type) *type = kOptions[i].type;
  if (count) *count = kOptions[i].count;
  if (ptr) *ptr = opt ? (const char*)opt + kOptions[i].offset : NULL;
  return 1;
}

/* ---- checksums ---- */

static uint64_t fnv1a(uint64_t h, const void* data, size_t n) {
  const unsigned char* p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint64_t fnv_str(uint64_t h, const char* s) { return fnv1a(h, s, strlen(s) + 1); }
static uint64_t fnv_int(uint64_t h, int v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                        (unsigned char)(v >> 24)};
  return fnv1a(h, b, 4);
}

/* everything that decides how a file is laid out and what its values mean */
static uint64_t field_hash(void) {
  static uint64_t cached;
  if (cached) return cached;
  uint64_t h = 0xcbf29ce484222325ull;
  h = fnv_int(h, (int)sizeof(gsReal));
  for (int i = 0; i < NSIZE; i++) h = fnv_str(h, kSizeNames[i]);
  for (int i = 0; i < NFIELD; i++) {
    h = fnv_str(h, kFields[i].name);
    h = fnv_str(h, kFields[i].rows);
    h = fnv_int(h, kFields[i].type);
    h = fnv_int(h, kFields[i].cols);
  }
  for (int i = 0; i < NOPTION; i++) {
    h = fnv_str(h, kOptions[i].name);
    h = fnv_int(h, kOptions[i].type);
    h = fnv_int(h, kOptions[i].count);
  }
  for (int i = 0; i < NVIS; i++) {
    h = fnv_str(h, kVisual[i].name);
    h = fnv_int(h, kVisual[i].type);
    h = fnv_int(h, kVisual[i].count);
  }
  for (int i = 0; i < NSTAT; i++) {
    h = fnv_str(h, kStats[i].name);
    h = fnv_int(h, kStats[i].type);
    h = fnv_int(h, kStats[i].count);
  }
  cached = h ? h : 1;
  return cached;
}

static uint32_t crc_table[256];
static void crc_init(void) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crc_table[i] = c;
  }
}

static uint32_t crc32(const void* data, size_t n) {
  if (!crc_table[1]) crc_init();  /* idempotent: a race writes the same values */
  const unsigned char* p = data;
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

/* ---- sizes ---- */

static int size_value(const gsModel* m, int i) {
  int v = 0;
  gs_modelSize(m, i, &v);
  return v;
}

static int size_index(const char* name) {
  for (int i = 0; i < NSIZE; i++)
    if (strcmp(kSizeNames[i], name) == 0) return i;
  return -1;
}

#define LIMIT (SIZE_MAX / 4)

/* the width of field i for the sizes in `sizes`: a number, or a GS_COLS code naming a size (as
 * model.c reads it); 0 when it would overflow */
static int field_cols(const int* sizes, int i, size_t* cols) {
  int code = kFields[i].cols;
  if (code >= 0) {
    *cols = (size_t)code;
    return 1;
  }
  int k = GS_COLS_SIZE(code);
  size_t mul = (size_t)GS_COLS_MUL(code);
  int v = k >= 0 && k < NSIZE ? sizes[k] : 0;
  if (v <= 0) {
    *cols = 0;
    return 1;
  }
  if (!mul || (size_t)v > LIMIT / mul) return 0;
  *cols = (size_t)v * mul;
  return 1;
}

/* bytes of the arrays for the sizes in `sizes` (indexed like GS_MODEL_SIZES); 0 on overflow or
 * a negative size, with the offending field in *bad */
static int array_bytes(const int* sizes, size_t* total, int* bad) {
  size_t sum = 0;
  for (int i = 0; i < NFIELD; i++) {
    int k = size_index(kFields[i].rows);
    int r = k < 0 ? 0 : sizes[k];
    size_t cols;
    *bad = i;
    if (r < 0 || !field_cols(sizes, i, &cols)) return 0;
    if (cols && kFields[i].elem > LIMIT / cols) return 0;
    size_t rows = (size_t)r, per_row = cols * kFields[i].elem;
    if (per_row && rows > LIMIT / per_row) return 0;
    size_t n = rows * per_row;
    if (n > LIMIT - sum) return 0;
    sum += n;
  }
  *total = sum;
  return 1;
}

static void model_sizes(const gsModel* m, int* sizes) {
  for (int i = 0; i < NSIZE; i++) sizes[i] = size_value(m, i);
}

size_t gs_sizeModel(const gsModel* m) {
  if (!m) return 0;
  int sizes[NSIZE];
  model_sizes(m, sizes);
  size_t arrays;
  int bad;
  if (!array_bytes(sizes, &arrays, &bad)) return 0;
  return HEADER_BYTES + sizeof(int) * NSIZE + OPTION_BYTES + STAT_BYTES + VIS_BYTES + arrays + CRC_BYTES;
}

/* ---- saving ---- */

int gs_saveModelBuffer(const gsModel* m, void* buf, size_t bufsz) {
  size_t total = gs_sizeModel(m);
  if (!total || !buf || bufsz < total) return 0;
  if (total > INT_MAX) return 0;  /* the return value counts bytes in an int */
  unsigned char* p = buf;
  Header h;
  memset(&h, 0, sizeof h);
  memcpy(h.magic, MAGIC, 8);
  h.version = GS_VERSION;
  h.byteorder = BYTE_ORDER_MARK;
  h.realsize = sizeof(gsReal);
  h.intsize = sizeof(int);
  h.nsize = NSIZE;
  h.nfield = NFIELD;
  h.noption = NOPTION;
  h.fieldhash = field_hash();
  h.length = total;
  memcpy(p, &h, HEADER_BYTES);
  p += HEADER_BYTES;

  int sizes[NSIZE];
  model_sizes(m, sizes);
  memcpy(p, sizes, sizeof sizes);
  p += sizeof sizes;
  for (int i = 0; i < NOPTION; i++) {
    size_t n = kOptions[i].type == GS_TYPE_REAL ? sizeof(gsReal) : sizeof(int);
    n *= (size_t)kOptions[i].count;
    memcpy(p, (const char*)&m->opt + kOptions[i].offset, n);
    p += n;
  }
  for (int i = 0; i < NSTAT; i++) {
    size_t n = sizeof(gsReal) * (size_t)kStats[i].count;
    memcpy(p, (const char*)&m->stat + kStats[i].offset, n);
    p += n;
  }
  for (int i = 0; i < NVIS; i++) {
    memcpy(p, (const char*)&m->vis + kVisual[i].offset, VIS_SIZE(i));
    p += VIS_SIZE(i);
  }
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    size_t n = (size_t)fi.rows * (size_t)fi.cols * kFields[i].elem;
    if (n) memcpy(p, fi.ptr, n);
    p += n;
  }
  uint32_t crc = crc32(buf, (size_t)(p - (unsigned char*)buf));
  memcpy(p, &crc, CRC_BYTES);
  return (int)total;
}

int gs_saveModel(const gsModel* m, const char* path, char* err, int errsz) {
  if (err && errsz > 0) err[0] = 0;
  if (!m || !path) return gs_ioError(err, errsz, "gs_saveModel: no model or no path");
  size_t n = gs_sizeModel(m);
  if (!n || n > INT_MAX)
    return gs_ioError(err, errsz, "%s: model too large for the binary format", path);
  void* buf = malloc(n);
  if (!buf) return gs_ioError(err, errsz, "%s: out of memory", path);
  gs_saveModelBuffer(m, buf, n);
  FILE* f = fopen(path, "wb");
  if (!f) {
    gs_ioError(err, errsz, "%s: cannot write: %s", path, strerror(errno));
    free(buf);
    return 0;
  }
  int ok = fwrite(buf, 1, n, f) == n;
  int why = errno;
  ok = (fclose(f) == 0) && ok;
  free(buf);
  if (!ok) return gs_ioError(err, errsz, "%s: cannot write: %s", path, strerror(why ? why : EIO));
  return 1;
}

/* ---- loading ---- */

static uint32_t swap32(uint32_t v) {
  return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

/* what: the file name for messages ("buffer" for memory) */
static gsModel* load(const unsigned char* buf, size_t n, const char* what, char* err, int errsz) {
  if (!buf || n == 0)
    return gs_ioError(err, errsz, "%s: empty, not a gauss binary model", what), NULL;
  if (n < 8 || memcmp(buf, MAGIC, 8) != 0)
    return gs_ioError(err, errsz, "%s: not a gauss binary model (no 'GAUSSMDL' signature)",
                      what),
           NULL;
  if (n < HEADER_BYTES)
    return gs_ioError(err, errsz, "%s: truncated: %zu bytes, shorter than the %zu-byte header",
                      what, n, (size_t)HEADER_BYTES),
           NULL;
  Header h;
  memcpy(&h, buf, HEADER_BYTES);
  if (h.byteorder != BYTE_ORDER_MARK) {
    if (h.byteorder == swap32(BYTE_ORDER_MARK))
      return gs_ioError(err, errsz, "%s: written on a machine of the other byte order", what), NULL;
    return gs_ioError(err, errsz, "%s: corrupted header (bad byte-order mark)", what), NULL;
  }
  if (h.version != GS_VERSION)
    return gs_ioError(err, errsz,
                      "%s: binary format version %u, this library reads version %d: compile the "
                      "model again from its XML",
                      what, h.version, GS_VERSION),
           NULL;
  if (h.realsize != sizeof(gsReal) || h.intsize != sizeof(int))
    return gs_ioError(err, errsz,
                      "%s: written with %u-byte reals and %u-byte ints, this build uses %zu "
                      "and %zu",
                      what, h.realsize, h.intsize, sizeof(gsReal), sizeof(int)),
           NULL;
  if (h.fieldhash != field_hash() || h.nsize != (uint32_t)NSIZE ||
      h.nfield != (uint32_t)NFIELD || h.noption != (uint32_t)NOPTION)
    return gs_ioError(err, errsz,
                      "%s: written by a build with a different list of model fields (%u sizes, %u "
                      "fields, hash %016llx; this build: %d, %d, %016llx): compile the model again "
                      "from its XML",
                      what, h.nsize, h.nfield, (unsigned long long)h.fieldhash, NSIZE, NFIELD,
                      (unsigned long long)field_hash()),
           NULL;
  if (h.reserved != 0) return gs_ioError(err, errsz, "%s: corrupted header", what), NULL;
  if (h.length != n) {
    if (h.length > n)
      return gs_ioError(err, errsz, "%s: truncated: %zu bytes of %llu", what, n,
                        (unsigned long long)h.length),
             NULL;
    return gs_ioError(err, errsz, "%s: %zu bytes where the header says %llu", what, n,
                      (unsigned long long)h.length),
           NULL;
  }
  size_t fixed = HEADER_BYTES + sizeof(int) * NSIZE + OPTION_BYTES + STAT_BYTES + VIS_BYTES + CRC_BYTES;
  if (n < fixed)
    return gs_ioError(err, errsz, "%s: truncated: %zu bytes, the sizes and options alone need %zu",
                      what, n, fixed),
           NULL;
  uint32_t crc;
  memcpy(&crc, buf + n - CRC_BYTES, CRC_BYTES);
  if (crc32(buf, n - CRC_BYTES) != crc)
    return gs_ioError(err, errsz, "%s: checksum mismatch: the file is corrupted", what), NULL;

  /* sizes: every one non-negative, the arrays they imply exactly filling the rest */
  const unsigned char* p = buf + HEADER_BYTES;
  int sizes[NSIZE];
  memcpy(sizes, p, sizeof sizes);
  p += sizeof sizes;
  for (int i = 0; i < NSIZE; i++)
    if (sizes[i] < 0)
      return gs_ioError(err, errsz, "%s: negative size %s = %d", what, kSizeNames[i],
                        sizes[i]),
             NULL;
  size_t arrays;
  int bad = 0;
  if (!array_bytes(sizes, &arrays, &bad))
    return gs_ioError(err, errsz, "%s: size %s makes field %s too large", what, kFields[bad].rows,
                      kFields[bad].name),
           NULL;
  if (arrays != n - fixed)
    return gs_ioError(err, errsz, "%s: the sizes need %zu bytes of arrays, the file holds %zu",
                      what, arrays, n - fixed),
           NULL;

  gsModel sz;
  memset(&sz, 0, sizeof sz);
  {
    int k = 0;
#define GS_S(name) sz.name = sizes[k++];
    GS_MODEL_SIZES(GS_S)
#undef GS_S
  }
  gsModel* m = gs_allocModel(&sz);
  if (!m) return gs_ioError(err, errsz, "%s: out of memory", what), NULL;
  for (int i = 0; i < NOPTION; i++) {
    size_t k = (kOptions[i].type == GS_TYPE_REAL ? sizeof(gsReal) : sizeof(int)) *
               (size_t)kOptions[i].count;
    memcpy((char*)&m->opt + kOptions[i].offset, p, k);
    p += k;
  }
  for (int i = 0; i < NSTAT; i++) {
    size_t k = sizeof(gsReal) * (size_t)kStats[i].count;
    memcpy((char*)&m->stat + kStats[i].offset, p, k);
    p += k;
  }
  for (int i = 0; i < NVIS; i++) {
    memcpy((char*)&m->vis + kVisual[i].offset, p, VIS_SIZE(i));
    p += VIS_SIZE(i);
  }
  gsFieldInfo fi;
  for (int i = 0; gs_modelField(m, i, &fi); i++) {
    size_t k = (size_t)fi.rows * (size_t)fi.cols * kFields[i].elem;
    if (k) memcpy(fi.ptr, p, k);
    p += k;
  }

  char why[400];
  if (!gs_checkModel(m, why, sizeof why)) {
    gs_freeModel(m);
    return gs_ioError(err, errsz, "%s: invalid model: %s", what, why), NULL;
  }
  return m;
}

gsModel* gs_loadModelBuffer(const void* buf, size_t n, char* err, int errsz) {
  if (err && errsz > 0) err[0] = 0;
  return load(buf, n, "buffer", err, errsz);
}

gsModel* gs_loadModel(const char* path, char* err, int errsz) {
  if (err && errsz > 0) err[0] = 0;
  if (!path) return gs_ioError(err, errsz, "gs_loadModel: no file given"), NULL;
  FILE* f = fopen(path, "rb");
  if (!f) return gs_ioError(err, errsz, "%s: cannot read file: %s", path, strerror(errno)), NULL;
  size_t n = 0;
  int too_large;
  /* a buffer past INT_MAX / 2 bytes is larger than any model we could have written */
  unsigned char* buf = gs_readStream(f, ((size_t)INT_MAX) / 2, &n, &too_large);
  if (too_large) {
    fclose(f);
    return gs_ioError(err, errsz, "%s: too large for a gauss binary model", path), NULL;
  }
  if (!buf) {
    int why = errno;
    gs_ioError(err, errsz, "%s: cannot read file: %s", path,
               ferror(f) ? strerror(why ? why : EIO) : "out of memory");
    fclose(f);
    return NULL;
  }
  fclose(f);
  gsModel* m = load(buf, n, path, err, errsz);
  free(buf);
  return m;
}
