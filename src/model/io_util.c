/* What the readers of files share (io.h): error messages and reading a whole stream. Kept apart
 * from binary.c, which calls the model check, so that the check and the mesh and texture readers
 * do not call back into it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/io.h"

int gs_ioError(char* err, int errsz, const char* fmt, ...) {
  if (err && errsz > 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, (size_t)errsz, fmt, ap);
    va_end(ap);
  }
  return 0;
}

unsigned char* gs_readStream(FILE* f, size_t limit, size_t* n, int* too_large) {
  size_t cap = 1 << 16, len = 0;
  unsigned char* buf = malloc(cap);
  *too_large = 0;
  while (buf) {
    len += fread(buf + len, 1, cap - len, f);
    if (len < cap) break;
    if (cap > limit) {
      *too_large = 1;
      free(buf);
      return NULL;
    }
    unsigned char* grown = realloc(buf, cap * 2);
    if (!grown) {
      free(buf);
      return NULL;
    }
    buf = grown;
    cap *= 2;
  }
  if (buf && ferror(f)) {
    int why = errno;  /* for the caller's message */
    free(buf);
    errno = why;
    return NULL;
  }
  *n = len;
  return buf;
}
