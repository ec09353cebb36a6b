/* Internal: decoding PNG images (libpng): texture pixels, and one channel for height fields. */
#ifndef GAUSS_MODEL_PNG_READ_H
#define GAUSS_MODEL_PNG_READ_H

#include <stddef.h>

/* Decodes the PNG image in bytes[0..n) to *width x *height pixels of *nchannel 8-bit samples
 * (1 grey, 2 grey and alpha, 3 RGB, 4 RGBA: palettes expand to RGB or RGBA, low bit depths to 8
 * bits, 16-bit samples keep their high byte), top row first, in a new buffer (*pixels, free it).
 * Returns 1, or 0 with a reason in err. */
int gs_pngDecode(const unsigned char* bytes, size_t n, int* width, int* height, int* nchannel,
                 unsigned char** pixels, char* err, size_t errsz);

/* The same reduced to one 8-bit value per pixel: its first channel (grey, or red for colour and
 * palette images, alpha ignored), as MJCF converts height field images. */
int gs_pngGray(const unsigned char* bytes, size_t n, int* width, int* height, unsigned char** gray,
               char* err, size_t errsz);

#endif
