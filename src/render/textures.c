/* Textures read from image files (the model's tex_image) as GL textures: a 2d texture with its
 * mipmaps, a cube or skybox texture as a cube map whose faces are the model's right, left, up,
 * down, front and back images (GL's +x, -x, +y, -y, +z, -z; one image on all six when the model
 * keeps a single face). Samples become RGBA: one channel is grey, a missing alpha opaque. */
#include <stdlib.h>
#include <string.h>

#include "render/renderer.h"

/* n pixels of nch samples as RGBA */
static void to_rgba(const unsigned char* src, int nch, size_t n, unsigned char* out) {
  for (size_t i = 0; i < n; i++, src += nch, out += 4) {
    if (nch <= 2) out[0] = out[1] = out[2] = src[0];
    else out[0] = src[0], out[1] = src[1], out[2] = src[2];
    out[3] = nch == 4 ? src[3] : nch == 2 ? src[1] : 255;
  }
}

int gsr_uploadTextures(gsRenderer* r) {
  const gsModel* m = r->m;
  gsrGL* gl = &r->gl;
  r->texture = calloc((size_t)(m->ntex ? m->ntex : 1), sizeof(unsigned));
  if (!r->texture) return 0;
  size_t most = 0;
  for (int t = 0; t < m->ntex; t++)
    if (m->tex_imageadr[t] >= 0 && (size_t)m->tex_width[t] * (size_t)m->tex_height[t] > most)
      most = (size_t)m->tex_width[t] * (size_t)m->tex_height[t];
  unsigned char* rgba = malloc(4 * (most ? most : 1));
  if (!rgba) return 0;
  gl->glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  for (int t = 0; t < m->ntex; t++) {
    int w = m->tex_width[t], h = m->tex_height[t], nch = m->tex_nchannel[t];
    if (m->tex_imageadr[t] < 0 || w < 1 || h < 1) continue;
    const unsigned char* pix = (const unsigned char*)m->tex_image + m->tex_imageadr[t];
    gl->glGenTextures(1, &r->texture[t]);
    if (m->tex_type[t] == GS_TEXTURE_2D) {
      gl->glActiveTexture(GL_TEXTURE1);
      gl->glBindTexture(GL_TEXTURE_2D, r->texture[t]);
      to_rgba(pix, nch, (size_t)w * (size_t)h, rgba);
      gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
      gl->glGenerateMipmap(GL_TEXTURE_2D);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
      gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    } else {
      gl->glActiveTexture(GL_TEXTURE2);
      gl->glBindTexture(GL_TEXTURE_CUBE_MAP, r->texture[t]);
      int single = h == w;  /* one image for every face */
      size_t face = (size_t)w * (size_t)w;
      for (int f = 0; f < 6; f++) {
        to_rgba(pix + (single ? 0 : (size_t)f * face * (size_t)nch), nch, face, rgba);
        gl->glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA8, w, w, 0, GL_RGBA,
                         GL_UNSIGNED_BYTE, rgba);
      }
      gl->glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
      gl->glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
      gl->glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
      gl->glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
      gl->glTexParameteri(GL_TEXTURE_CUBE_MAP, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
    }
  }
  free(rgba);
  gl->glActiveTexture(GL_TEXTURE0);
  return gl->glGetError() == GL_NO_ERROR;
}

void gsr_freeTextures(gsRenderer* r) {
  if (!r->texture) return;
  for (int t = 0; t < r->m->ntex; t++)
    if (r->texture[t]) r->gl.glDeleteTextures(1, &r->texture[t]);
  free(r->texture);
  r->texture = NULL;
}
