/* Internal: decoding a PNG image into one 8-bit channel (libpng), for height fields. */
#ifndef GAUSS_MODEL_PNG_GRAY_H
#define GAUSS_MODEL_PNG_GRAY_H

#include <stddef.h>

/* Decodes the PNG image in bytes[0..n) to *width x *height 8-bit values, top row first, in a new
 * buffer (*gray, free it). The value of a pixel is its first channel after expansion to 8 bits:
 * grey, or red for colour and palette images (alpha ignored, 16-bit samples keep their high
 * byte), as MJCF converts height field images. Returns 1, or 0 with a reason in err. */
int gs_pngGray(const unsigned char* bytes, size_t n, int* width, int* height, unsigned char** gray,
               char* err, size_t errsz);

#endif
