/* The pixels of textures read from image files (PNG), in MJCF's layout: 8-bit samples, rows top
 * first; a cube or skybox texture is its six square faces (right, left, up, down, front, back)
 * stacked, or one face when a single image stands for all of them. A face that no file or grid
 * cell gives is rgb1. hflip and vflip mirror the whole image of a file before it is cut into
 * grid cells. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/compile.h"
#include "model/io.h"
#include "model/png_read.h"

/* the decoded image of a file: bytes the reader kept, else read from path */
static int decode(gsCompileCtx* c, const gsSpecTexture* t, const gsSpecBlob* blob, const char* path,
                  const char* shown, int* w, int* h, int* ch, unsigned char** pix) {
  const unsigned char* bytes = blob->bytes;
  size_t n = blob->n;
  unsigned char* owned = NULL;
  if (!bytes) {
    FILE* f = path ? fopen(path, "rb") : NULL;
    if (!f) return gs_compileFail(c, &t->info, "texture", "cannot open file '%s'", shown);
    int too_large;
    owned = gs_readStream(f, ((size_t)1 << 31) - 1, &n, &too_large);
    fclose(f);
    if (!owned) return gs_compileFail(c, &t->info, "texture", "cannot read file '%s'", shown);
    bytes = owned;
  }
  char why[160];
  int ok = gs_pngDecode(bytes, n, w, h, ch, pix, why, sizeof why);
  free(owned);
  if (!ok) return gs_compileFail(c, &t->info, "texture", "file '%s': %s", shown, why);
  return 1;
}

/* one pixel of ch samples (grey, grey+alpha, RGB, RGBA) as nch samples: grey spreads over red,
 * green and blue, a missing alpha is opaque, one channel keeps the first */
static void convert(const unsigned char* p, int ch, unsigned char* out, int nch) {
  unsigned char rgba[4];
  if (ch <= 2) rgba[0] = rgba[1] = rgba[2] = p[0];
  else rgba[0] = p[0], rgba[1] = p[1], rgba[2] = p[2];
  rgba[3] = ch == 2 ? p[1] : ch == 4 ? p[3] : 255;
  if (nch == 2) out[0] = rgba[0], out[1] = rgba[3];
  else memcpy(out, rgba, (size_t)nch);
}

/* the region (x0, y0, w, h) of the image (iw x ih pixels), flipped as asked, into a face of
 * w x h pixels at out */
static void copy_region(const gsSpecTexture* t, const unsigned char* pix, int iw, int ih, int ch,
                        int x0, int y0, int w, int h, unsigned char* out, int nch) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int sx = x0 + x, sy = y0 + y;
      if (t->hflip) sx = iw - 1 - sx;
      if (t->vflip) sy = ih - 1 - sy;
      const unsigned char* p = pix + ((size_t)sy * (size_t)iw + (size_t)sx) * (size_t)ch;
      convert(p, ch, out + ((size_t)y * (size_t)w + (size_t)x) * (size_t)nch, nch);
    }
}

/* a face of n x n pixels of rgb1 (opaque; samples truncated, as MJCF) */
static void fill_face(const gsSpecTexture* t, int n, unsigned char* out, int nch) {
  unsigned char rgba[4] = {0, 0, 0, 255}, one[4];
  for (int k = 0; k < 3; k++) {
    double v = t->rgb1[k] < 0 ? 0 : t->rgb1[k] > 1 ? 1 : t->rgb1[k];
    rgba[k] = (unsigned char)(255 * v);
  }
  convert(rgba, 4, one, nch);
  for (size_t i = 0; i < (size_t)n * (size_t)n; i++) memcpy(out + i * (size_t)nch, one, (size_t)nch);
}

int gs_compileTexturePixels(gsCompileCtx* c, const gsSpecTexture* t, int width, int height, int nch,
                            unsigned char* out) {
  int w, h, ch;
  unsigned char* pix = NULL;
  if (t->file) {
    if (!decode(c, t, &t->data, t->path ? t->path : t->file, t->file, &w, &h, &ch, &pix)) return 0;
    int rows = t->gridsize[0], cols = t->gridsize[1];
    if (t->type == GS_TEXTURE_2D || (rows == 1 && cols == 1)) {
      if (w != width || h != height) {
        free(pix);
        return gs_compileFail(c, &t->info, "texture", "file '%s' changed size while read", t->file);
      }
      copy_region(t, pix, w, h, ch, 0, 0, width, height, out, nch);
    } else {
      /* a grid of square cells; the layout names the face in each (row by row), '.' none */
      static const char kFaces[] = "RLUDFB";
      size_t face = (size_t)width * (size_t)width * (size_t)nch;
      for (int f = 0; f < 6; f++) fill_face(t, width, out + f * face, nch);
      for (int k = 0; k < rows * cols && t->gridlayout[k]; k++) {
        const char* at = strchr(kFaces, t->gridlayout[k]);
        if (!at || t->gridlayout[k] == '.' || w / cols != width) continue;
        int f = (int)(at - kFaces);
        copy_region(t, pix, w, h, ch, (k % cols) * width, (k / cols) * width, width, width, out + f * face, nch);
      }
    }
    free(pix);
    return 1;
  }
  /* one file per face */
  size_t face = (size_t)width * (size_t)width * (size_t)nch;
  for (int f = 0; f < 6; f++) {
    if (!t->cubefiles[f]) {
      fill_face(t, width, out + f * face, nch);
      continue;
    }
    const char* path = t->cubepaths[f] ? t->cubepaths[f] : t->cubefiles[f];
    if (!decode(c, t, &t->cubedata[f], path, t->cubefiles[f], &w, &h, &ch, &pix)) return 0;
    if (w != width || h != width) {
      free(pix);
      return gs_compileFail(c, &t->info, "texture", "file '%s' changed size while read", t->cubefiles[f]);
    }
    copy_region(t, pix, w, h, ch, 0, 0, width, width, out + f * face, nch);
    free(pix);
  }
  (void)height;
  return 1;
}
