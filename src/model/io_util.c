/* What the readers of files share (io.h): error messages and reading a whole stream. Kept apart
 * from binary.c, which calls the model check, so that the check and the mesh and texture readers
 * do not call back into it. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void gs_copyClean(char* out, size_t outsz, const char* s) {
  size_t k = 0;
  const unsigned char* p = (const unsigned char*)s;
  while (*p) {
    char esc[8];
    const char* piece = (const char*)p;
    size_t len = 1, used = 1;
    unsigned char b = p[0];
    if (b < 0x20 || b == 0x7f) {
      len = b == '\n' || b == '\t' || b == '\r'
                ? (size_t)snprintf(esc, sizeof esc, "\\%c", b == '\n' ? 'n' : b == '\t' ? 't' : 'r')
                : (size_t)snprintf(esc, sizeof esc, "\\x%02x", b);
      piece = esc;
    } else if (b >= 0x80) {
      /* the length of a well-formed sequence (no overlong forms, surrogates or code points past
       * U+10FFFF), 0 when it is not one */
      size_t n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
      for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) n = 0;
      if (n >= 3 && ((b == 0xe0 && p[1] < 0xa0) || (b == 0xed && p[1] >= 0xa0) ||
                     (b == 0xf0 && p[1] < 0x90) || (b == 0xf4 && p[1] >= 0x90)))
        n = 0;
      if (n) {
        len = used = n;
      } else {
        len = (size_t)snprintf(esc, sizeof esc, "\\x%02x", b);
        piece = esc;
      }
    }
    if (k + len + 1 > outsz) break;
    memcpy(out + k, piece, len);
    k += len;
    p += used;
  }
  if (outsz > 0) out[k] = 0;
}
