/* PNG images to 8-bit samples with libpng's classic interface (its simplified interface converts
 * colours to luminance and 16-bit samples through gamma, which is not the conversion wanted):
 * texture pixels, and one channel for height fields. */
#include "model/png_read.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const unsigned char* p;
  size_t n, at;
  char msg[128];
} Source;

static void read_bytes(png_structp png, png_bytep out, png_size_t len) {
  Source* s = png_get_io_ptr(png);
  if (len > s->n - s->at) png_error(png, "file ends early");
  memcpy(out, s->p + s->at, len);
  s->at += len;
}

static void on_error(png_structp png, png_const_charp msg) {
  Source* s = png_get_error_ptr(png);
  snprintf(s->msg, sizeof s->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

/* images larger than this (in pixels) are refused rather than allocated */
#define MAX_PIXELS (1L << 28)

int gs_pngDecode(const unsigned char* bytes, size_t n, int* width, int* height, int* nchannel,
                 unsigned char** pixels, char* err, size_t errsz) {
  *pixels = NULL;
  if (n < 8 || png_sig_cmp(bytes, 0, 8)) {
    snprintf(err, errsz, "not a PNG image");
    return 0;
  }
  Source src = {bytes, n, 0, ""};
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &src, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!info) {
    png_destroy_read_struct(&png, NULL, NULL);
    snprintf(err, errsz, "out of memory");
    return 0;
  }
  /* written between setjmp and a longjmp back to it: volatile */
  unsigned char* volatile pix = NULL;
  png_bytep* volatile rows = NULL;
  if (setjmp(png_jmpbuf(png))) {
    free(pix);
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    snprintf(err, errsz, "not a valid PNG image (%s)", src.msg[0] ? src.msg : "decoding failed");
    return 0;
  }
  png_set_read_fn(png, &src, read_bytes);
  png_read_info(png, info);
  png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
  if (w == 0 || h == 0 || (long)w * (long)h > MAX_PIXELS) png_error(png, "image size out of range");
  /* every format to 8-bit samples: palettes to RGB, low-depth grey to 8 bits, 16 to 8 bits */
  png_set_expand(png);
  png_set_strip_16(png);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  size_t rowbytes = png_get_rowbytes(png, info);
  int channels = png_get_channels(png, info);
  if (channels < 1 || rowbytes < (size_t)w * (size_t)channels) png_error(png, "unexpected row layout");
  pix = malloc(rowbytes * h);
  rows = malloc(sizeof(png_bytep) * h);
  if (!pix || !rows) png_error(png, "out of memory");
  for (png_uint_32 r = 0; r < h; r++) rows[r] = pix + r * rowbytes;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  /* rows packed in place (libpng may pad them) */
  unsigned char* out = pix;
  size_t packed = (size_t)w * (size_t)channels;
  for (png_uint_32 r = 0; r < h; r++) memmove(out + r * packed, pix + r * rowbytes, packed);
  free(rows);
  *pixels = out;
  *width = (int)w;
  *height = (int)h;
  *nchannel = channels;
  return 1;
}

int gs_pngGray(const unsigned char* bytes, size_t n, int* width, int* height, unsigned char** gray,
               char* err, size_t errsz) {
  int ch = 0;
  if (!gs_pngDecode(bytes, n, width, height, &ch, gray, err, errsz)) return 0;
  /* keep the first channel, packed in place */
  size_t np = (size_t)*width * (size_t)*height;
  for (size_t i = 0; i < np; i++) (*gray)[i] = (*gray)[i * (size_t)ch];
  return 1;
}
