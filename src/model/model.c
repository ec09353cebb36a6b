/* gsModel memory: one buffer carved into the arrays of GS_MODEL_FIELDS, copying, freeing,
 * introspection of the field list, and names. */
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/model_alloc.h"

/* every array starts on a 64-byte boundary: vector loads and cache lines */
#define GS_ALIGN 64
static size_t align_up(size_t n) { return (n + GS_ALIGN - 1) & ~(size_t)(GS_ALIGN - 1); }

/* the width of a field for this model: a number, or a GS_COLS code naming a size */
static size_t cols_of(const gsModel* m, int cols) {
  if (cols >= 0) return (size_t)cols;
  int v = 0;
  gs_modelSize(m, GS_COLS_SIZE(cols), &v);
  return v > 0 ? (size_t)v * (size_t)GS_COLS_MUL(cols) : 0;
}

static size_t model_bytes(const gsModel* m) {
  size_t total = 0;
#define GS_X(type, name, rows, cols) total += align_up(sizeof(type) * (size_t)m->rows * cols_of(m, cols));
  GS_MODEL_FIELDS(GS_X)
#undef GS_X
  return total;
}

static void model_carve(gsModel* m) {
  unsigned char* p = m->buffer;
#define GS_X(type, name, rows, cols)                                                              \
  m->name = (type*)p;                                                                              \
  p += align_up(sizeof(type) * (size_t)m->rows * cols_of(m, cols));
  GS_MODEL_FIELDS(GS_X)
#undef GS_X
}

gsModel* gs_allocModel(const gsModel* sizes) {
  gsModel* m = calloc(1, sizeof(gsModel));
  if (!m) return NULL;
#define GS_S(name) m->name = sizes->name;
  GS_MODEL_SIZES(GS_S)
#undef GS_S
  m->nbuffer = model_bytes(m);
  m->buffer = aligned_alloc(GS_ALIGN, align_up(m->nbuffer ? m->nbuffer : 1));
  if (!m->buffer) {
    free(m);
    return NULL;
  }
  memset(m->buffer, 0, m->nbuffer);
  model_carve(m);
  return m;
}

void gs_freeModel(gsModel* m) {
  if (!m) return;
  free(m->buffer);
  free(m);
}

gsModel* gs_copyModel(const gsModel* src) {
  gsModel* m = gs_allocModel(src);
  if (!m) return NULL;
  m->opt = src->opt;
  m->stat = src->stat;
  m->vis = src->vis;
  memcpy(m->buffer, src->buffer, src->nbuffer);
  return m;
}

/* ---- introspection ---- */
typedef struct {
  const char* name;
  int type;
  int cols;
  size_t ptr_offset;   /* offset of the pointer in the struct */
  size_t size_offset;  /* offset of the int size in gsModel */
} gsFieldDesc;

#define GS_TYPECODE(type) _Generic((type)0, double: GS_TYPE_REAL, int: GS_TYPE_INT, char: GS_TYPE_CHAR)

static const gsFieldDesc kModelFields[] = {
#define GS_X(type, name, rows, cols) \
  {#name, GS_TYPECODE(type), cols, offsetof(gsModel, name), offsetof(gsModel, rows)},
  GS_MODEL_FIELDS(GS_X)
#undef GS_X
};

static const gsFieldDesc kDataFields[] = {
#define GS_X(type, name, rows, cols) \
  {#name, GS_TYPECODE(type), cols, offsetof(gsData, name), offsetof(gsModel, rows)},
  GS_DATA_FIELDS(GS_X)
#undef GS_X
};

#define NFIELDS(a) ((int)(sizeof(a) / sizeof(a[0])))

/* sizes, by name */
static const char* const kSizeNames[] = {
#define GS_S(name) #name,
  GS_MODEL_SIZES(GS_S)
#undef GS_S
};
static const size_t kSizeOffsets[] = {
#define GS_S(name) offsetof(gsModel, name),
  GS_MODEL_SIZES(GS_S)
#undef GS_S
};

int gs_modelSizeCount(void) { return NFIELDS(kSizeNames); }

const char* gs_modelSize(const gsModel* m, int i, int* value) {
  if (i < 0 || i >= NFIELDS(kSizeNames)) return NULL;
  if (value) *value = *(const int*)((const char*)m + kSizeOffsets[i]);
  return kSizeNames[i];
}

gsOption* gs_modelOption(gsModel* m) { return &m->opt; }
gsStatistic* gs_modelStatistic(gsModel* m) { return &m->stat; }
gsVisual* gs_modelVisual(gsModel* m) { return &m->vis; }

int gs_modelFieldCount(void) { return NFIELDS(kModelFields); }
int gs_dataFieldCount(void) { return NFIELDS(kDataFields); }

static int field_info(const gsFieldDesc* f, const gsModel* m, const void* obj, gsFieldInfo* info) {
  info->name = f->name;
  info->type = f->type;
  info->cols = (int)cols_of(m, f->cols);
  info->rows = *(const int*)((const char*)m + f->size_offset);
  info->ptr = *(void* const*)((const char*)obj + f->ptr_offset);
  return 1;
}

int gs_modelField(const gsModel* m, int i, gsFieldInfo* info) {
  if (i < 0 || i >= NFIELDS(kModelFields)) return 0;
  return field_info(kModelFields + i, m, m, info);
}

int gs_dataField(const gsModel* m, const gsData* d, int i, gsFieldInfo* info) {
  if (i < 0 || i >= NFIELDS(kDataFields)) return 0;
  return field_info(kDataFields + i, m, d, info);
}

int gs_dataFields(const gsModel* m, const gsData* d, gsFieldInfo* info, int n) {
  int k = n < NFIELDS(kDataFields) ? n : NFIELDS(kDataFields);
  for (int i = 0; i < k; i++) field_info(kDataFields + i, m, d, info + i);
  return k < 0 ? 0 : k;
}

/* ---- names ---- */

/* the name address array and count of each object type, by field name: slices that add an object
 * type add its name_*adr field, and names work for it with no change here */
static const char* const kNameFields[GS_NOBJECT] = {
    [GS_OBJ_BODY] = "name_bodyadr", [GS_OBJ_XBODY] = "name_bodyadr",
    [GS_OBJ_JOINT] = "name_jntadr", [GS_OBJ_GEOM] = "name_geomadr", [GS_OBJ_SITE] = "name_siteadr",
    [GS_OBJ_CAMERA] = "name_camadr", [GS_OBJ_LIGHT] = "name_lightadr", [GS_OBJ_MESH] = "name_meshadr",
    [GS_OBJ_HFIELD] = "name_hfieldadr", [GS_OBJ_TEXTURE] = "name_texadr",
    [GS_OBJ_MATERIAL] = "name_matadr", [GS_OBJ_PAIR] = "name_pairadr",
    [GS_OBJ_EXCLUDE] = "name_excludeadr", [GS_OBJ_EQUALITY] = "name_eqadr",
    [GS_OBJ_TENDON] = "name_tendonadr", [GS_OBJ_ACTUATOR] = "name_actuatoradr",
    [GS_OBJ_SENSOR] = "name_sensoradr", [GS_OBJ_NUMERIC] = "name_numericadr",
    [GS_OBJ_TEXT] = "name_textadr", [GS_OBJ_TUPLE] = "name_tupleadr", [GS_OBJ_KEY] = "name_keyadr",
};

static const int* name_addresses(const gsModel* m, int type, int* n) {
  *n = 0;
  if (type < 0 || type >= GS_NOBJECT || !kNameFields[type]) return NULL;
  for (int i = 0; i < NFIELDS(kModelFields); i++) {
    if (strcmp(kModelFields[i].name, kNameFields[type]) == 0) {
      gsFieldInfo fi;
      field_info(kModelFields + i, m, m, &fi);
      *n = fi.rows;
      return fi.ptr;
    }
  }
  return NULL;
}

const char* gs_id2name(const gsModel* m, int type, int id) {
  int n;
  const int* adr = name_addresses(m, type, &n);
  if (!adr || id < 0 || id >= n) return "";
  return m->names + adr[id];
}

int gs_name2id(const gsModel* m, int type, const char* name) {
  int n;
  const int* adr = name_addresses(m, type, &n);
  if (!adr || !name || !name[0]) return -1;
  for (int i = 0; i < n; i++)
    if (strcmp(m->names + adr[i], name) == 0) return i;
  return -1;
}
