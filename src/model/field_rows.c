/* Introspection of the field lists beyond gs_modelField: the size that each array's rows follow,
 * so that bindings can tell which arrays belong to which kind of object. */
#include <stddef.h>

#include "gauss/gauss.h"

static const char* const kModelRows[] = {
#define GS_X(type, name, rows, cols) #rows,
    GS_MODEL_FIELDS(GS_X)
#undef GS_X
};

static const char* const kDataRows[] = {
#define GS_X(type, name, rows, cols) #rows,
    GS_DATA_FIELDS(GS_X)
#undef GS_X
};

const char* gs_modelFieldRows(int i) {
  return i >= 0 && i < (int)(sizeof kModelRows / sizeof kModelRows[0]) ? kModelRows[i] : NULL;
}

const char* gs_dataFieldRows(int i) {
  return i >= 0 && i < (int)(sizeof kDataRows / sizeof kDataRows[0]) ? kDataRows[i] : NULL;
}
