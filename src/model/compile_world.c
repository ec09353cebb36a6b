/* The world slice of the compiler: cameras, lights, assets (textures, materials, meshes, height
 * fields), contact pairs and exclusions, and the asset references of geoms and sites.
 *
 * Asset files: the headers of PNG textures (size, colour space) and height field files (PNG or
 * binary) are read here, texture pixels in compile_texture.c. Meshes: compile_mesh.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/math.h"
#include "model/compile.h"
#include "model/io.h"
#include "model/mesh.h"
#include "model/png_read.h"

/* MJCF keeps these values in single precision: store the same numbers */
static gsReal f32(gsReal v) { return gs_compileFloat(v); }
static void f32n(gsReal* dst, const gsReal* src, int n) {
  for (int i = 0; i < n; i++) dst[i] = f32(src[i]);
}

/* ---- names ---- */

/* the infos of a list of spec elements whose first member is their gsSpecInfo */
static const gsSpecInfo** infos_of(void* const* list, int n) {
  const gsSpecInfo** out = malloc(sizeof(gsSpecInfo*) * (size_t)(n ? n : 1));
  if (out)
    for (int i = 0; i < n; i++) out[i] = (const gsSpecInfo*)list[i];
  return out;
}

static int unique_list(gsCompileCtx* c, void* const* list, int n, const char* kind) {
  const gsSpecInfo** infos = infos_of(list, n);
  if (!infos) return gs_compileFail(c, NULL, "model", "out of memory");
  int ok = gs_compileUniqueInfos(c, infos, n, kind);
  free(infos);
  return ok;
}

static int is_named(const gsSpecInfo* info) { return info->name && info->name[0]; }

/* ---- asset files ---- */

static int ends_with(const char* s, const char* suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

static uint32_t be32(const unsigned char* p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* the bytes of an asset file: those the reader kept, else (a spec built by hand) read from path;
 * *owned is set when the caller must free them */
static int asset_bytes(gsCompileCtx* c, const gsSpecInfo* info, const char* kind, const gsSpecBlob* blob,
                       const char* path, const char* shown, const unsigned char** bytes, size_t* n,
                       unsigned char** owned) {
  *owned = NULL;
  if (blob->bytes) {
    *bytes = blob->bytes;
    *n = blob->n;
    return 1;
  }
  FILE* f = fopen(path, "rb");
  if (!f) return gs_compileFail(c, info, kind, "cannot open file '%s'", shown);
  size_t len = 0;
  int too_large;
  /* files that outgrow a 2 GiB buffer are not read */
  unsigned char* buf = gs_readStream(f, ((size_t)1 << 31) - 1, &len, &too_large);
  fclose(f);
  if (!buf) return gs_compileFail(c, info, kind, "cannot read file '%s'", shown);
  *bytes = *owned = buf;
  *n = len;
  return 1;
}

/* the size of a PNG image and whether it declares the sRGB colour space (its chunks up to the
 * image data); 0 after reporting an error */
static int png_info(gsCompileCtx* c, const gsSpecInfo* info, const gsSpecBlob* blob, const char* path,
                    const char* shown, int* width, int* height, int* srgb) {
  static const unsigned char kSig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const unsigned char* p = NULL;
  unsigned char* owned = NULL;
  size_t n = 0;
  if (!asset_bytes(c, info, "texture", blob, path, shown, &p, &n, &owned)) return 0;
  int ok = n >= 33 && memcmp(p, kSig, 8) == 0 && memcmp(p + 12, "IHDR", 4) == 0;
  if (ok) {
    uint32_t w = be32(p + 16), h = be32(p + 20);
    ok = w > 0 && h > 0 && w < (1u << 16) && h < (1u << 16);
    *width = (int)w;
    *height = (int)h;
  }
  *srgb = 0;
  /* chunks after IHDR: length, type, data, crc */
  for (size_t at = 33; ok && at + 8 <= n;) {
    const unsigned char* ch = p + at;
    if (memcmp(ch + 4, "IDAT", 4) == 0 || memcmp(ch + 4, "IEND", 4) == 0) break;
    if (memcmp(ch + 4, "sRGB", 4) == 0) *srgb = 1;
    size_t len = be32(ch);
    if (len > n) break;
    at += 12 + len;
  }
  free(owned);
  if (!ok) return gs_compileFail(c, info, "texture", "file '%s' is not a valid PNG image", shown);
  return 1;
}

/* what a texture's image is: size, channels, colour space */
typedef struct {
  int width, height, nchannel, colorspace;
} TexDims;

static int texture_format(gsCompileCtx* c, const gsSpecTexture* t, const char* file) {
  const char* ct = t->content_type;
  if (ct && strcmp(ct, "image/png") != 0 && strcmp(ct, "image/ktx") != 0)
    return gs_compileFail(c, &t->info, "texture", "unsupported content type '%s' (image/png or image/ktx)", ct);
  if ((ct && strcmp(ct, "image/ktx") == 0) || (!ct && ends_with(file, ".ktx")))
    return gs_compileFail(c, &t->info, "texture", "KTX textures are not supported yet (file '%s')", file);
  return 1;
}

static int texture_dims(gsCompileCtx* c, const gsSpecTexture* t, TexDims* d) {
  d->nchannel = t->nchannel;
  d->colorspace = t->colorspace;
  if (t->type < GS_TEXTURE_2D || t->type > GS_TEXTURE_SKYBOX)
    return gs_compileFail(c, &t->info, "texture", "unknown texture type %d", t->type);
  if (t->unreadable && t->builtin == GS_BUILTIN_NONE) {
    /* its file could not be read (the reader warned): no pixels, drawn untextured */
    if (t->nchannel < 1 || t->nchannel > 4)
      return gs_compileFail(c, &t->info, "texture", "nchannel must be 1 to 4, not %d", t->nchannel);
    d->width = d->height = 0;
    if (d->colorspace == GS_COLORSPACE_AUTO) d->colorspace = GS_COLORSPACE_LINEAR;
    return 1;
  }
  if (t->builtin != GS_BUILTIN_NONE) {
    if (t->width < 1) return gs_compileFail(c, &t->info, "texture", "a builtin texture needs a positive width");
    if (t->type == GS_TEXTURE_2D && t->height < 1)
      return gs_compileFail(c, &t->info, "texture", "a builtin 2d texture needs a positive height");
    if (t->nchannel != 3 && t->nchannel != 4)
      return gs_compileFail(c, &t->info, "texture", "a builtin texture has 3 or 4 channels, not %d", t->nchannel);
    d->width = t->width;
    /* cube and skybox: six square faces stacked */
    d->height = t->type == GS_TEXTURE_2D ? t->height : 6 * t->width;
    return 1;
  }
  if (t->nchannel < 1 || t->nchannel > 4)
    return gs_compileFail(c, &t->info, "texture", "nchannel must be 1 to 4, not %d", t->nchannel);
  int w, h, srgb;
  if (t->file) {
    if (!texture_format(c, t, t->file)) return 0;
    if (!png_info(c, &t->info, &t->data, t->path ? t->path : t->file, t->file, &w, &h, &srgb)) return 0;
    if (d->colorspace == GS_COLORSPACE_AUTO) d->colorspace = srgb ? GS_COLORSPACE_SRGB : GS_COLORSPACE_LINEAR;
    if (t->type == GS_TEXTURE_2D) {
      d->width = w, d->height = h;
      return 1;
    }
    /* one image repeated on every face, or a grid holding the faces */
    int rows = t->gridsize[0], cols = t->gridsize[1];
    if (rows < 1 || cols < 1 || rows * cols > 12)
      return gs_compileFail(c, &t->info, "texture", "gridsize must be positive, with at most 12 cells");
    if (w % cols || h % rows || w / cols != h / rows)
      return gs_compileFail(c, &t->info, "texture",
                            "image size %dx%d of '%s' is not a grid of %dx%d square faces", w, h,
                            t->file, rows, cols);
    d->width = w / cols;
    d->height = rows == 1 && cols == 1 ? d->width : 6 * d->width;
    return 1;
  }
  int nfile = 0;
  for (int i = 0; i < 6; i++) {
    const char* f = t->cubefiles[i];
    if (!f) continue;
    if (t->type == GS_TEXTURE_2D)
      return gs_compileFail(c, &t->info, "texture", "a 2d texture cannot be loaded from separate cube faces");
    if (!texture_format(c, t, f)) return 0;
    int fw, fh;
    if (!png_info(c, &t->info, &t->cubedata[i], t->cubepaths[i] ? t->cubepaths[i] : f, f, &fw, &fh, &srgb))
      return 0;
    if (fw != fh) return gs_compileFail(c, &t->info, "texture", "cube face '%s' is not square", f);
    if (nfile && fw != w) return gs_compileFail(c, &t->info, "texture", "cube faces have different sizes");
    w = fw;
    if (!nfile && d->colorspace == GS_COLORSPACE_AUTO)
      d->colorspace = srgb ? GS_COLORSPACE_SRGB : GS_COLORSPACE_LINEAR;
    nfile++;
  }
  if (!nfile)
    return gs_compileFail(c, &t->info, "texture",
                          t->type == GS_TEXTURE_2D ? "no data: give a file or a builtin"
                                                   : "no data: give a file, cube face files or a builtin");
  d->width = w;
  d->height = 6 * w;
  return 1;
}

/* a height field file: a PNG image (its first channel, as gs_pngGray reads it) or the binary
 * format, int32 nrow, int32 ncol, float32 data[nrow*ncol]; data may be NULL (sizes only) */
static int hfield_file(gsCompileCtx* c, const gsSpecHField* h, int* nrow, int* ncol, float* data) {
  const char* ct = h->content_type;
  if (ct && strcmp(ct, "image/png") != 0 && strcmp(ct, "image/vnd.mujoco.hfield") != 0)
    return gs_compileFail(c, &h->info, "hfield", "unsupported content type '%s'", ct);
  int is_png = (ct && strcmp(ct, "image/png") == 0) || (!ct && ends_with(h->file, ".png"));
  const unsigned char* p = NULL;
  unsigned char* owned = NULL;
  size_t n = 0;
  if (!asset_bytes(c, &h->info, "hfield", &h->data, h->path ? h->path : h->file, h->file, &p, &n, &owned))
    return 0;
  if (is_png) {
    unsigned char* gray = NULL;
    char why[160];
    int w = 0, ht = 0;
    int ok = gs_pngGray(p, n, &w, &ht, &gray, why, sizeof why);
    free(owned);
    if (!ok) return gs_compileFail(c, &h->info, "hfield", "file '%s': %s", h->file, why);
    /* image rows run top to bottom; the height field's rows bottom to top */
    if (data)
      for (int r = 0; r < ht; r++)
        for (int k = 0; k < w; k++) data[(size_t)r * w + k] = (float)gray[(size_t)(ht - 1 - r) * w + k];
    free(gray);
    *nrow = ht, *ncol = w;
    return 1;
  }
  int32_t dims[2] = {0, 0};
  if (n >= 8) memcpy(dims, p, 8);
  /* the file holds exactly the header and the data */
  int ok = n >= 8 && dims[0] > 0 && dims[1] > 0 && (int64_t)dims[0] * dims[1] < (1 << 28) &&
           (int64_t)n == 4 * (2 + (int64_t)dims[0] * dims[1]);
  if (ok && data) memcpy(data, p + 8, 4 * (size_t)dims[0] * (size_t)dims[1]);
  free(owned);
  if (!ok) return gs_compileFail(c, &h->info, "hfield", "file '%s' is not a valid height field file", h->file);
  *nrow = dims[0], *ncol = dims[1];
  return 1;
}

/* height-field samples, texture bytes and path bytes a model holds, each kind together: their
 * counts are int sizes */
#define MAX_ASSET_DATA (1L << 30)

static int hfield_dims(gsCompileCtx* c, const gsSpecHField* h, int* nrow, int* ncol) {
  for (int i = 0; i < 4; i++)
    if (!(h->size[i] > 0)) return gs_compileFail(c, &h->info, "hfield", "size[%d] must be positive", i);
  if (h->file) {
    if (h->nrow || h->ncol) return gs_compileFail(c, &h->info, "hfield", "nrow and ncol cannot be given with a file");
    return hfield_file(c, h, nrow, ncol, NULL);
  }
  if (h->nrow < 1 || h->ncol < 1)
    return gs_compileFail(c, &h->info, "hfield", "no data: give a file, or nrow and ncol");
  if ((long)h->nrow * h->ncol > MAX_ASSET_DATA)
    return gs_compileFail(c, &h->info, "hfield", "%d x %d samples: more than the %ld a model holds",
                          h->nrow, h->ncol, MAX_ASSET_DATA);
  if (h->elevation && h->nelevation != (long)h->nrow * h->ncol)
    return gs_compileFail(c, &h->info, "hfield", "elevation has %d values, nrow*ncol is %ld", h->nelevation, (long)h->nrow * h->ncol);
  *nrow = h->nrow, *ncol = h->ncol;
  return 1;
}

/* ---- sizes ---- */

int gs_compileHFieldGeom(gsCompileCtx* c, const gsSpecBody* b, const gsSpecGeom* sg, gsReal size[3],
                         gsReal* rbound) {
  const gsSpecAssetRef* r = gs_specFindAssetRef(b, sg);
  if (!r || !r->hfield) return gs_compileFail(c, &sg->info, "geom", "an hfield geom needs an hfield");
  const gsSpecHField* h = NULL;
  for (int i = 0; i < c->spec->nhfield && !h; i++)
    if (is_named(&c->spec->hfield[i]->info) && strcmp(c->spec->hfield[i]->info.name, r->hfield) == 0)
      h = c->spec->hfield[i];
  if (!h) return gs_compileFail(c, &sg->info, "geom", "unknown hfield '%s'", r->hfield);
  /* MJCF's convention: half-height a quarter of the elevation range plus half the base depth */
  const gsReal* hs = h->size;
  size[0] = hs[0], size[1] = hs[1], size[2] = 0.25 * hs[2] + 0.5 * hs[3];
  gsReal z = hs[2] > hs[3] ? hs[2] : hs[3];
  *rbound = sqrt(hs[0] * hs[0] + hs[1] * hs[1] + z * z);
  return 1;
}

/* columns of cam_user: <size nuser_cam>, or the longest user= of the cameras when it is -1 */
static int nuser_cam(gsCompileCtx* c) {
  int n = 0, requested = c->spec->nuser_cam;
  for (int b = 0; b < c->nbody; b++)
    for (int i = 0; i < c->body[b]->ncamera; i++) {
      const gsSpecCamera* cam = c->body[b]->camera[i];
      if (requested >= 0 && cam->nuser > requested)
        return gs_compileFail(c, &cam->info, "camera", "user has %d values, more than nuser_cam = %d",
                              cam->nuser, requested) - 1;
      if (cam->nuser > n) n = cam->nuser;
    }
  return requested >= 0 ? requested : n;
}

static size_t path_bytes(const char* file) { return file ? strlen(file) + 1 : 0; }

/* the file an asset was read from, relative to the model's directory (absolute where it lies
 * elsewhere), or NULL where that is the name as written (or unknown: a model without a file, a
 * path relative to another directory) */
static const char* read_path(const gsSpec* s, const char* path, const char* file) {
  if (!path || !file) return NULL;
  const char* dir = s->modeldir;
  size_t n = dir ? strlen(dir) : 0;
  const char* rel = NULL;
  if (n && strncmp(path, dir, n) == 0 && path[n] == '/') rel = path + n + 1;
  else if (path[0] == '/') rel = path;
  while (rel && rel[0] == '.' && rel[1] == '/') rel += 2;
  return rel && strcmp(rel, file) != 0 ? rel : NULL;
}

static size_t read_bytes(const gsSpec* s, const char* path, const char* file) {
  return path_bytes(read_path(s, path, file));
}

/* a cube face file as read (relative to the model's directory), else as written; NULL: none. Kept
 * whatever it is, as the model keeps no face names of its own */
static const char* face_path(const gsSpec* s, const gsSpecTexture* t, int f) {
  const char* rel = read_path(s, t->cubepaths[f], t->cubefiles[f]);
  return rel ? rel : t->cubefiles[f];
}

static int add_string(gsModel* m, int* at, const char* rel) {
  if (!rel) return -1;
  int a = *at;
  size_t n = strlen(rel) + 1;
  memcpy(m->readpaths + a, rel, n);
  *at += (int)n;
  return a;
}

static int add_read(gsModel* m, int* at, const gsSpec* s, const char* path, const char* file) {
  return add_string(m, at, read_path(s, path, file));
}

int gs_compileSizesWorld(gsCompileCtx* c, gsModel* sz) {
  const gsSpec* s = c->spec;
  int ncam = 0, nlight = 0;
  for (int b = 0; b < c->nbody; b++) {
    const gsSpecBody* sb = c->body[b];
    for (int i = 0; i < sb->ncamera; i++) sz->nnames += (int)gs_compileNameBytes(&sb->camera[i]->info);
    for (int i = 0; i < sb->nlight; i++) sz->nnames += (int)gs_compileNameBytes(&sb->light[i]->info);
    ncam += sb->ncamera;
    nlight += sb->nlight;
  }
  /* repeated names, per object type */
  const gsSpecInfo** infos = malloc(sizeof(gsSpecInfo*) * (size_t)(ncam + nlight + 1));
  if (!infos) return gs_compileFail(c, NULL, "model", "out of memory");
  int k = 0;
  for (int b = 0; b < c->nbody; b++)
    for (int i = 0; i < c->body[b]->ncamera; i++) infos[k++] = &c->body[b]->camera[i]->info;
  int ok = gs_compileUniqueInfos(c, infos, k, "camera");
  k = 0;
  for (int b = 0; b < c->nbody; b++)
    for (int i = 0; i < c->body[b]->nlight; i++) infos[k++] = &c->body[b]->light[i]->info;
  ok = ok && gs_compileUniqueInfos(c, infos, k, "light");
  free(infos);
  if (!ok || !unique_list(c, (void* const*)s->mesh, s->nmesh, "mesh") ||
      !unique_list(c, (void* const*)s->hfield, s->nhfield, "hfield") ||
      !unique_list(c, (void* const*)s->texture, s->ntexture, "texture") ||
      !unique_list(c, (void* const*)s->material, s->nmaterial, "material") ||
      !unique_list(c, (void* const*)s->pair, s->npair, "pair") ||
      !unique_list(c, (void* const*)s->exclude, s->nexclude, "exclude"))
    return 0;

  sz->ncam = ncam;
  sz->nlight = nlight;
  sz->nuser_cam = nuser_cam(c);
  if (sz->nuser_cam < 0) return 0;
  sz->nmesh = s->nmesh;
  sz->nhfield = s->nhfield;
  sz->ntex = s->ntexture;
  sz->nmat = s->nmaterial;
  sz->npair = s->npair;
  sz->nexclude = s->nexclude;

  size_t npaths = 0, nread = 0;
  for (int i = 0; i < s->nmesh; i++) {
    const gsSpecMesh* m = s->mesh[i];
    if (!is_named(&m->info)) return gs_compileFail(c, &m->info, "mesh", "a mesh needs a name (or a file to take it from)");
    if (!m->file && !m->nvert && !m->builtin)
      return gs_compileFail(c, &m->info, "mesh", "no data: give a file or vertex data");
    npaths += path_bytes(m->file);
    nread += read_bytes(s, m->path, m->file);
    sz->nnames += (int)gs_compileNameBytes(&m->info);
  }
  if (!gs_compileMeshes(c)) return 0;
  gs_compileMeshSizes(c, sz);
  long hdata = 0;
  for (int i = 0; i < s->nhfield; i++) {
    const gsSpecHField* h = s->hfield[i];
    int nrow, ncol;
    if (!is_named(&h->info)) return gs_compileFail(c, &h->info, "hfield", "a height field needs a name (or a file to take it from)");
    if (!hfield_dims(c, h, &nrow, &ncol)) return 0;
    hdata += (long)nrow * ncol;
    if (hdata > MAX_ASSET_DATA)
      return gs_compileFail(c, &h->info, "hfield", "the height fields up to this one hold %ld samples, "
                            "more than the %ld a model holds", hdata, MAX_ASSET_DATA);
    npaths += path_bytes(h->file);
    nread += read_bytes(s, h->path, h->file);
    sz->nnames += (int)gs_compileNameBytes(&h->info);
  }
  long tdata = 0, timage = 0;
  for (int i = 0; i < s->ntexture; i++) {
    const gsSpecTexture* t = s->texture[i];
    TexDims d;
    if (!is_named(&t->info) && t->type != GS_TEXTURE_SKYBOX)
      return gs_compileFail(c, &t->info, "texture", "a texture needs a name (only a skybox may have none)");
    if (!texture_dims(c, t, &d)) return 0;
    tdata += (long)d.width * d.height * d.nchannel;
    if (t->builtin == GS_BUILTIN_NONE) timage += (long)d.width * d.height * d.nchannel;
    if (tdata > MAX_ASSET_DATA)
      return gs_compileFail(c, &t->info, "texture", "the textures up to this one hold %ld bytes, more "
                            "than the %ld a model holds", tdata, MAX_ASSET_DATA);
    npaths += path_bytes(t->file);
    if (t->builtin == GS_BUILTIN_NONE) nread += read_bytes(s, t->path, t->file);
    if (t->builtin == GS_BUILTIN_NONE && !t->file)
      for (int f = 0; f < 6; f++) nread += path_bytes(face_path(s, t, f));
    sz->nnames += (int)gs_compileNameBytes(&t->info);
  }
  for (int i = 0; i < s->nmaterial; i++) {
    if (!is_named(&s->material[i]->info)) return gs_compileFail(c, &s->material[i]->info, "material", "a material needs a name");
    sz->nnames += (int)gs_compileNameBytes(&s->material[i]->info);
  }
  for (int i = 0; i < s->npair; i++) sz->nnames += (int)gs_compileNameBytes(&s->pair[i]->info);
  for (int i = 0; i < s->nexclude; i++) sz->nnames += (int)gs_compileNameBytes(&s->exclude[i]->info);
  if (npaths > (size_t)MAX_ASSET_DATA)
    return gs_compileFail(c, NULL, "model", "asset file names of %zu bytes together, more than the %ld a model holds",
                          (size_t)npaths, MAX_ASSET_DATA);
  sz->nhfielddata = (int)hdata;
  sz->nteximage = (int)timage;
  sz->npaths = npaths ? (int)npaths : 1;  /* one empty string when there are none */
  if (nread > (size_t)MAX_ASSET_DATA)
    return gs_compileFail(c, NULL, "model", "asset file paths of %zu bytes together, more than the %ld a model holds",
                          (size_t)nread, MAX_ASSET_DATA);
  sz->nreadpaths = (int)nread;
  return gs_compileSizesFrames(c, sz);
}

/* ---- arrays ---- */

static int add_path(gsModel* m, int* at, const char* file) {
  if (!file) return -1;
  int a = *at;
  size_t n = strlen(file) + 1;
  memcpy(m->paths + a, file, n);
  *at += (int)n;
  return a;
}

static int compile_camera(gsCompileCtx* c, gsModel* m, int id, int body, const gsSpecCamera* sc) {
  m->cam_mode[id] = sc->mode;
  m->cam_bodyid[id] = body;
  m->cam_targetbodyid[id] = -1;
  if (sc->mode < GS_CAMLIGHT_FIXED || sc->mode > GS_CAMLIGHT_TARGETBODYCOM)
    return gs_compileFail(c, &sc->info, "camera", "unknown mode %d", sc->mode);
  if (sc->target) {
    m->cam_targetbodyid[id] = gs_compileObjectId(m, GS_OBJ_BODY, sc->target);
    if (m->cam_targetbodyid[id] < 0) return gs_compileFail(c, &sc->info, "camera", "unknown target body '%s'", sc->target);
  }
  gs_copy3(m->cam_pos + 3 * id, sc->pos);
  if (!gs_compileOrientation(c, m->cam_quat + 4 * id, &sc->orient, &sc->info, "camera")) return 0;
  m->cam_orthographic[id] = sc->orthographic;
  m->cam_ipd[id] = sc->ipd;
  m->cam_resolution[2 * id] = sc->resolution[0];
  m->cam_resolution[2 * id + 1] = sc->resolution[1];
  gsReal* ss = m->cam_sensorsize + 2 * id;
  gsReal* in = m->cam_intrinsic + 4 * id;
  f32n(ss, sc->sensorsize, 2);
  if (ss[0] > 0 && ss[1] > 0) {
    /* a physical sensor: focal length and principal point (lengths, or pixels converted with the
     * resolution), and the field of view they make; in single precision as MJCF computes it */
    for (int k = 0; k < 2; k++) {
      float per_len = (float)sc->resolution[k] / (float)ss[k];
      in[k] = (sc->given & GS_CAM_FOCALPIXEL) ? (gsReal)((float)sc->focalpixel[k] / per_len) : f32(sc->focal[k]);
      in[2 + k] = (sc->given & GS_CAM_PRINCIPALPIXEL) ? (gsReal)((float)sc->principalpixel[k] / per_len)
                                                       : f32(sc->principal[k]);
    }
    float half = atan2f(0.5f * (float)ss[1], (float)in[1]);
    m->cam_fovy[id] = 2.0 * (double)half * 180.0 / GS_PI;
  } else {
    if (!(sc->fovy < 180)) return gs_compileFail(c, &sc->info, "camera", "fovy too large (%g, must be below 180)", sc->fovy);
    m->cam_fovy[id] = sc->fovy;
    /* without a sensor MJCF puts the focal length at the near clipping plane */
    in[0] = in[1] = f32(c->spec->visual.map_znear);
    in[2] = in[3] = 0;
  }
  for (int k = 0; k < m->nuser_cam; k++)
    m->cam_user[m->nuser_cam * id + k] = k < sc->nuser ? sc->user[k] : 0;
  return 1;
}

static int compile_light(gsCompileCtx* c, gsModel* m, int id, int body, const gsSpecLight* sl) {
  m->light_mode[id] = sl->mode;
  m->light_bodyid[id] = body;
  if (sl->mode < GS_CAMLIGHT_FIXED || sl->mode > GS_CAMLIGHT_TARGETBODYCOM)
    return gs_compileFail(c, &sl->info, "light", "unknown mode %d", sl->mode);
  if (sl->type < GS_LIGHT_SPOT || sl->type > GS_LIGHT_IMAGE)
    return gs_compileFail(c, &sl->info, "light", "unknown type %d", sl->type);
  m->light_targetbodyid[id] = -1;
  if (sl->target) {
    m->light_targetbodyid[id] = gs_compileObjectId(m, GS_OBJ_BODY, sl->target);
    if (m->light_targetbodyid[id] < 0) return gs_compileFail(c, &sl->info, "light", "unknown target body '%s'", sl->target);
  }
  m->light_texid[id] = -1;
  if (sl->texture) {
    m->light_texid[id] = gs_name2id(m, GS_OBJ_TEXTURE, sl->texture);
    if (m->light_texid[id] < 0) return gs_compileFail(c, &sl->info, "light", "unknown texture '%s'", sl->texture);
  }
  m->light_type[id] = sl->type;
  m->light_castshadow[id] = sl->castshadow;
  m->light_active[id] = sl->active;
  m->light_bulbradius[id] = f32(sl->bulbradius);
  m->light_intensity[id] = f32(sl->intensity);
  m->light_range[id] = f32(sl->range);
  f32n(m->light_attenuation + 3 * id, sl->attenuation, 3);
  m->light_cutoff[id] = f32(sl->cutoff);
  m->light_exponent[id] = f32(sl->exponent);
  f32n(m->light_ambient + 3 * id, sl->ambient, 3);
  f32n(m->light_diffuse + 3 * id, sl->diffuse, 3);
  f32n(m->light_specular + 3 * id, sl->specular, 3);
  gs_copy3(m->light_pos + 3 * id, sl->pos);
  gsReal* dir = m->light_dir + 3 * id;
  gs_copy3(dir, sl->dir);
  if (gs_normalize3(dir) < GS_MINVAL) return gs_compileFail(c, &sl->info, "light", "zero direction");
  return 1;
}

static int compile_texture(gsCompileCtx* c, gsModel* m, int id, int* adr, int* imgadr, int* pathadr) {
  const gsSpecTexture* t = c->spec->texture[id];
  TexDims d;
  if (!texture_dims(c, t, &d)) return 0;
  m->tex_type[id] = t->type;
  m->tex_colorspace[id] = d.colorspace;
  m->tex_width[id] = d.width;
  m->tex_height[id] = d.height;
  m->tex_nchannel[id] = d.nchannel;
  m->tex_adr[id] = *adr;
  int bytes = d.width * d.height * d.nchannel;
  *adr += bytes;
  m->tex_imageadr[id] = -1;
  if (t->builtin == GS_BUILTIN_NONE && bytes > 0) {
    if (!gs_compileTexturePixels(c, t, d.width, d.height, d.nchannel, (unsigned char*)m->tex_image + *imgadr))
      return 0;
    m->tex_imageadr[id] = *imgadr;
    *imgadr += bytes;
  }
  m->tex_pathadr[id] = add_path(m, pathadr, t->file);
  m->tex_builtin[id] = t->builtin;
  m->tex_mark[id] = t->mark;
  f32n(m->tex_rgb1 + 3 * id, t->rgb1, 3);
  f32n(m->tex_rgb2 + 3 * id, t->rgb2, 3);
  f32n(m->tex_markrgb + 3 * id, t->markrgb, 3);
  m->tex_random[id] = f32(t->random);
  return 1;
}

static int compile_material(gsCompileCtx* c, gsModel* m, int id) {
  const gsSpecMaterial* sm = c->spec->material[id];
  for (int r = 0; r < GS_NTEXROLE; r++) {
    int* tex = m->mat_texid + GS_NTEXROLE * id + r;
    *tex = -1;
    if (!sm->texture[r]) continue;
    *tex = gs_name2id(m, GS_OBJ_TEXTURE, sm->texture[r]);
    if (*tex < 0) return gs_compileFail(c, &sm->info, "material", "unknown texture '%s'", sm->texture[r]);
  }
  m->mat_texuniform[id] = sm->texuniform;
  f32n(m->mat_texrepeat + 2 * id, sm->texrepeat, 2);
  m->mat_emission[id] = f32(sm->emission);
  m->mat_specular[id] = f32(sm->specular);
  m->mat_shininess[id] = f32(sm->shininess);
  m->mat_reflectance[id] = f32(sm->reflectance);
  m->mat_metallic[id] = f32(sm->metallic);
  m->mat_roughness[id] = f32(sm->roughness);
  f32n(m->mat_rgba + 4 * id, sm->rgba, 4);
  return 1;
}

static int compile_hfield(gsCompileCtx* c, gsModel* m, int id, int* adr, int* pathadr) {
  const gsSpecHField* h = c->spec->hfield[id];
  int nrow, ncol;
  if (!hfield_dims(c, h, &nrow, &ncol)) return 0;
  int n = nrow * ncol;
  gs_copy(m->hfield_size + 4 * id, h->size, 4);
  m->hfield_nrow[id] = nrow;
  m->hfield_ncol[id] = ncol;
  m->hfield_adr[id] = *adr;
  m->hfield_pathadr[id] = add_path(m, pathadr, h->file);
  gsReal* out = m->hfield_data + *adr;
  *adr += n;
  float* v = malloc(sizeof(float) * (size_t)(n ? n : 1));
  if (!v) return gs_compileFail(c, NULL, "model", "out of memory");
  if (h->file) {
    if (!hfield_file(c, h, &nrow, &ncol, v)) {
      free(v);
      return 0;
    }
  } else if (h->elevation) {
    /* MJCF writes the first row at the top: stored bottom row first */
    for (int r = 0; r < nrow; r++)
      for (int k = 0; k < ncol; k++) v[r * ncol + k] = (float)h->elevation[(nrow - 1 - r) * ncol + k];
  } else {
    memset(v, 0, sizeof(float) * (size_t)n);
  }
  /* normalized to [0 1], in single precision as MJCF does */
  float lo = v[0], hi = v[0];
  for (int i = 1; i < n; i++) lo = v[i] < lo ? v[i] : lo, hi = v[i] > hi ? v[i] : hi;
  for (int i = 0; i < n; i++) {
    if (!isfinite(v[i])) {
      free(v);
      return gs_compileFail(c, &h->info, "hfield", "elevation data is not finite");
    }
    out[i] = hi > lo ? (gsReal)((v[i] - lo) / (hi - lo)) : 0;
  }
  free(v);
  return 1;
}

/* pairs and exclusions are kept sorted by body signature (stable), as MJCF keeps them */
typedef struct {
  int sig, index, g1, g2;
} Signed;

static int cmp_signed(const void* a, const void* b) {
  const Signed* x = a;
  const Signed* y = b;
  if (x->sig != y->sig) return (x->sig > y->sig) - (x->sig < y->sig);
  return (x->index > y->index) - (x->index < y->index);
}

static int pair_signature(gsCompileCtx* c, const gsModel* m, int i, Signed* out) {
  const gsSpecPair* p = c->spec->pair[i];
  int g1 = gs_name2id(m, GS_OBJ_GEOM, p->geom1), g2 = gs_name2id(m, GS_OBJ_GEOM, p->geom2);
  if (g1 < 0 || g2 < 0)
    return gs_compileFail(c, &p->info, "pair", "unknown geom '%s'", g1 < 0 ? p->geom1 : p->geom2);
  if (p->condim != 1 && p->condim != 3 && p->condim != 4 && p->condim != 6)
    return gs_compileFail(c, &p->info, "pair", "condim must be 1, 3, 4 or 6");
  int b1 = m->geom_bodyid[g1], b2 = m->geom_bodyid[g2];
  if (b1 > b2) {  /* the geom of the body with the lower id first */
    int t = g1; g1 = g2; g2 = t;
    t = b1; b1 = b2; b2 = t;
  }
  out->sig = (b1 << 16) + b2;
  out->index = i;
  out->g1 = g1;
  out->g2 = g2;
  return 1;
}

static int exclude_signature(gsCompileCtx* c, const gsModel* m, int i, Signed* out) {
  const gsSpecExclude* e = c->spec->exclude[i];
  int b1 = gs_compileObjectId(m, GS_OBJ_BODY, e->body1);
  int b2 = gs_compileObjectId(m, GS_OBJ_BODY, e->body2);
  if (b1 < 0 || b2 < 0)
    return gs_compileFail(c, &e->info, "exclude", "unknown body '%s'", b1 < 0 ? e->body1 : e->body2);
  if (b1 > b2) {
    int t = b1; b1 = b2; b2 = t;
  }
  out->sig = (b1 << 16) + b2;
  out->index = i;
  return 1;
}

static int compile_contacts(gsCompileCtx* c, gsModel* m) {
  const gsSpec* s = c->spec;
  Signed* order = malloc(sizeof(Signed) * (size_t)(s->npair + s->nexclude + 1));
  if (!order) return gs_compileFail(c, NULL, "model", "out of memory");
  int ok = 1;
  for (int i = 0; i < s->npair && ok; i++) ok = pair_signature(c, m, i, order + i);
  if (ok) qsort(order, (size_t)s->npair, sizeof(Signed), cmp_signed);
  for (int id = 0; id < s->npair && ok; id++) {
    const gsSpecPair* p = s->pair[order[id].index];
    m->name_pairadr[id] = gs_compileName(c, m, &p->info);
    m->pair_dim[id] = p->condim;
    m->pair_geom1[id] = order[id].g1;
    m->pair_geom2[id] = order[id].g2;
    m->pair_signature[id] = order[id].sig;
    memcpy(m->pair_solref + GS_NREF * id, p->solref, sizeof(p->solref));
    memcpy(m->pair_solreffriction + GS_NREF * id, p->solreffriction, sizeof(p->solreffriction));
    memcpy(m->pair_solimp + GS_NIMP * id, p->solimp, sizeof(p->solimp));
    m->pair_margin[id] = p->margin;
    m->pair_gap[id] = p->gap;
    memcpy(m->pair_friction + 5 * id, p->friction, sizeof(p->friction));
  }
  for (int i = 0; i < s->nexclude && ok; i++) ok = exclude_signature(c, m, i, order + i);
  if (ok) qsort(order, (size_t)s->nexclude, sizeof(Signed), cmp_signed);
  for (int id = 0; id < s->nexclude && ok; id++) {
    m->name_excludeadr[id] = gs_compileName(c, m, &s->exclude[order[id].index]->info);
    m->exclude_signature[id] = order[id].sig;
  }
  free(order);
  return ok;
}

/* the asset references of a body, sorted by owner for lookups in bodies with many geoms */
static int cmp_ref(const void* a, const void* b) {
  uintptr_t x = (uintptr_t)(*(const gsSpecAssetRef* const*)a)->owner;
  uintptr_t y = (uintptr_t)(*(const gsSpecAssetRef* const*)b)->owner;
  return (x > y) - (x < y);
}

static const gsSpecAssetRef* find_ref(const gsSpecAssetRef* const* sorted, int n, const void* owner) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    uintptr_t o = (uintptr_t)sorted[mid]->owner;
    if (o == (uintptr_t)owner) return sorted[mid];
    if (o < (uintptr_t)owner) lo = mid + 1;
    else hi = mid - 1;
  }
  return NULL;
}

static int compile_refs_sorted(gsCompileCtx* c, gsModel* m, int b, int site0,
                               const gsSpecAssetRef* const* refs);

/* material, mesh and height field of the geoms and sites of body b */
static int compile_refs(gsCompileCtx* c, gsModel* m, int b, int site0) {
  const gsSpecBody* sb = c->body[b];
  const gsSpecAssetRef** refs = malloc(sizeof(gsSpecAssetRef*) * (size_t)(sb->nassetref + 1));
  if (!refs) return gs_compileFail(c, NULL, "model", "out of memory");
  for (int i = 0; i < sb->nassetref; i++) refs[i] = sb->assetref[i];
  qsort(refs, (size_t)sb->nassetref, sizeof(gsSpecAssetRef*), cmp_ref);
  int ok = compile_refs_sorted(c, m, b, site0, refs);
  free(refs);
  return ok;
}

static int compile_refs_sorted(gsCompileCtx* c, gsModel* m, int b, int site0,
                               const gsSpecAssetRef* const* refs) {
  const gsSpecBody* sb = c->body[b];
  for (int g = 0; g < sb->ngeom; g++) {
    const gsSpecGeom* sg = sb->geom[g];
    int id = m->body_geomadr[b] + g;
    const gsSpecAssetRef* r = find_ref(refs, sb->nassetref, sg);
    m->geom_dataid[id] = -1;
    m->geom_matid[id] = -1;
    if (r && r->material) {
      m->geom_matid[id] = gs_name2id(m, GS_OBJ_MATERIAL, r->material);
      if (m->geom_matid[id] < 0) return gs_compileFail(c, &sg->info, "geom", "unknown material '%s'", r->material);
    }
    if (sg->type == GS_GEOM_HFIELD) {
      if (!r || !r->hfield) return gs_compileFail(c, &sg->info, "geom", "an hfield geom needs an hfield");
      int h = gs_name2id(m, GS_OBJ_HFIELD, r->hfield);
      if (h < 0) return gs_compileFail(c, &sg->info, "geom", "unknown hfield '%s'", r->hfield);
      m->geom_dataid[id] = h;  /* (its size and rbound: gs_compileHFieldGeom) */
    } else if (r && r->hfield) {
      return gs_compileFail(c, &sg->info, "geom", "hfield '%s' given to a geom whose type is not hfield", r->hfield);
    }
    if (sg->type == GS_GEOM_MESH) {
      if (!r || !r->mesh) return gs_compileFail(c, &sg->info, "geom", "a mesh geom needs a mesh");
      m->geom_dataid[id] = gs_name2id(m, GS_OBJ_MESH, r->mesh);
      if (m->geom_dataid[id] < 0) return gs_compileFail(c, &sg->info, "geom", "unknown mesh '%s'", r->mesh);
    } else if (r && r->mesh) {
      /* a primitive fitted to a mesh (compiler.c) keeps the mesh's id, as in MJCF */
      m->geom_dataid[id] = gs_name2id(m, GS_OBJ_MESH, r->mesh);
    }
  }
  for (int s = 0; s < sb->nsite; s++) {
    const gsSpecSite* ss = sb->site[s];
    const gsSpecAssetRef* r = find_ref(refs, sb->nassetref, ss);
    int id = site0 + s;
    m->site_matid[id] = -1;
    if (r && r->material) {
      m->site_matid[id] = gs_name2id(m, GS_OBJ_MATERIAL, r->material);
      if (m->site_matid[id] < 0) return gs_compileFail(c, &ss->info, "site", "unknown material '%s'", r->material);
    }
  }
  return 1;
}

int gs_compileWorld(gsCompileCtx* c, gsModel* m) {
  const gsSpec* s = c->spec;
  /* names first: references between assets are resolved by name */
  int cam = 0, light = 0;
  for (int b = 0; b < c->nbody; b++) {
    const gsSpecBody* sb = c->body[b];
    for (int i = 0; i < sb->ncamera; i++) m->name_camadr[cam++] = gs_compileName(c, m, &sb->camera[i]->info);
    for (int i = 0; i < sb->nlight; i++) m->name_lightadr[light++] = gs_compileName(c, m, &sb->light[i]->info);
  }
  for (int i = 0; i < s->nmesh; i++) m->name_meshadr[i] = gs_compileName(c, m, &s->mesh[i]->info);
  for (int i = 0; i < s->nhfield; i++) m->name_hfieldadr[i] = gs_compileName(c, m, &s->hfield[i]->info);
  for (int i = 0; i < s->ntexture; i++) m->name_texadr[i] = gs_compileName(c, m, &s->texture[i]->info);
  for (int i = 0; i < s->nmaterial; i++) m->name_matadr[i] = gs_compileName(c, m, &s->material[i]->info);

  /* assets; file names in MJCF's order: height fields, meshes, textures (measured against
   * MuJoCo 3.3.7: its test/benchmark/testdata/cache_hits.xml and a model of each) */
  int pathadr = 0, hadr = 0, tadr = 0, iadr = 0;
  m->paths[0] = 0;
  for (int i = 0; i < s->nhfield; i++)
    if (!compile_hfield(c, m, i, &hadr, &pathadr)) return 0;
  for (int i = 0; i < s->nmesh; i++) {
    gs_copy3(m->mesh_scale + 3 * i, s->mesh[i]->scale);
    m->mesh_pathadr[i] = add_path(m, &pathadr, s->mesh[i]->file);
  }
  gs_compileMeshArrays(c, m);
  for (int i = 0; i < s->ntexture; i++)
    if (!compile_texture(c, m, i, &tadr, &iadr, &pathadr)) return 0;
  for (int i = 0; i < s->nmaterial; i++)
    if (!compile_material(c, m, i)) return 0;
  int readadr = 0;
  for (int i = 0; i < s->nmesh; i++) m->mesh_readadr[i] = add_read(m, &readadr, s, s->mesh[i]->path, s->mesh[i]->file);
  for (int i = 0; i < s->nhfield; i++) m->hfield_readadr[i] = add_read(m, &readadr, s, s->hfield[i]->path, s->hfield[i]->file);
  for (int i = 0; i < s->ntexture; i++)
    m->tex_readadr[i] = s->texture[i]->builtin == GS_BUILTIN_NONE
                            ? add_read(m, &readadr, s, s->texture[i]->path, s->texture[i]->file) : -1;
  for (int i = 0; i < s->ntexture; i++) {
    const gsSpecTexture* t = s->texture[i];
    int own = t->builtin == GS_BUILTIN_NONE && !t->file;  /* six face files (MJCF's writer: fileright...) */
    for (int f = 0; f < 6; f++) m->tex_cubereadadr[6 * i + f] = own ? add_string(m, &readadr, face_path(s, t, f)) : -1;
  }

  /* cameras and lights, body by body */
  cam = light = 0;
  for (int b = 0, site0 = 0; b < c->nbody; site0 += c->body[b]->nsite, b++) {
    const gsSpecBody* sb = c->body[b];
    for (int i = 0; i < sb->ncamera; i++)
      if (!compile_camera(c, m, cam++, b, sb->camera[i])) return 0;
    for (int i = 0; i < sb->nlight; i++)
      if (!compile_light(c, m, light++, b, sb->light[i])) return 0;
    if (!compile_refs(c, m, b, site0)) return 0;
  }
  return compile_contacts(c, m);
}

/* where a camera or light is at qpos0: relative to its body, and to the centre of mass of the
 * subtree of its target body when it has one (as MJCF does whatever the mode), else of its body */
static void frame0(const gsData* d, int body, int target, const gsReal local[3], gsReal pos0[3],
                   gsReal poscom0[3]) {
  gsReal world[3];
  gs_mulMatVec3(world, d->xmat + 9 * body, local);
  gs_copy3(pos0, world);
  gs_add3(world, world, d->xpos + 3 * body);
  gs_sub3(poscom0, world, d->subtree_com + 3 * (target >= 0 ? target : body));
}

/* <statistic extent center>, else the bounding box at qpos0 of the body origins (the world's
 * included) and of the bounding spheres of the geoms (planes below): its centre, and its
 * largest side as the extent (the renderer's clipping planes and default view scale with it) */
static void model_extent(const gsCompileCtx* c, gsModel* m, const gsData* d) {
  const gsSpecStatistic* st = &c->spec->statistic;
  gsReal lo[3], hi[3];
  for (int k = 0; k < 3; k++) lo[k] = hi[k] = d->xpos[k];
  for (int b = 1; b < m->nbody; b++)
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], d->xpos[3 * b + k]);
      hi[k] = fmax(hi[k], d->xpos[3 * b + k]);
    }
  for (int g = 0; g < m->ngeom; g++) {
    gsReal r = m->geom_rbound[g];
    /* a plane counts as a cube of a tenth of its larger half-size, an infinite one (size 0) as
     * a cube of half-size 1 (measured against MuJoCo 3.3.7's extent on the corpus: floors of
     * size 20 and 40 give 4 and 8, an infinite floor under mujoco/humanoid reaches z = -1) */
    if (m->geom_type[g] == GS_GEOM_PLANE) {
      gsReal big = fmax(m->geom_size[3 * g], m->geom_size[3 * g + 1]);
      r = big > 0 ? 0.1 * big : 1;
    }
    if (!(r >= 0 && r < 1e300)) continue;
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin(lo[k], d->geom_xpos[3 * g + k] - r);
      hi[k] = fmax(hi[k], d->geom_xpos[3 * g + k] + r);
    }
  }
  for (int k = 0; k < 3; k++)
    m->stat.center[k] = st->given & GS_STAT_CENTER ? st->center[k] : 0.5 * (lo[k] + hi[k]);
  /* the box's largest side, whether or not the model gives the centre */
  gsReal side = 0;
  for (int k = 0; k < 3; k++) side = fmax(side, hi[k] - lo[k]);
  m->stat.extent = st->given & GS_STAT_EXTENT ? st->extent : side > 0 && side < 1e300 ? side : 1;
}

/* the renderer's part of <visual> */
static void model_visual(const gsCompileCtx* c, gsModel* m) {
  const gsSpecVisual* v = &c->spec->visual;
  gsVisual* o = &m->vis;
  o->fovy = f32(v->fovy);
  o->azimuth = f32(v->azimuth);
  o->elevation = f32(v->elevation);
  o->znear = f32(v->map_znear);
  o->zfar = f32(v->map_zfar);
  o->fogstart = f32(v->map_fogstart);
  o->fogend = f32(v->map_fogend);
  f32n(o->headlight_ambient, v->headlight_ambient, 3);
  f32n(o->headlight_diffuse, v->headlight_diffuse, 3);
  f32n(o->headlight_specular, v->headlight_specular, 3);
  o->headlight_active = v->headlight_active;
  o->numslices = v->numslices;
  o->numstacks = v->numstacks;
  o->shadowsize = v->shadowsize;
  o->offsamples = v->offsamples;
  o->numquads = v->numquads;
  /* MJCF keeps them in single precision */
#define GS_D(elem, attr, count) f32n((gsReal*)&o->elem##_##attr, (const gsReal*)&v->elem##_##attr, count);
  GS_VISUAL_DECOR(GS_D)
#undef GS_D
}

int gs_compileWorldAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d) {
  /* <statistic meaninertia>, else (and always in gs_setConst) the mean diagonal of M at qpos0 */
  const gsSpecStatistic* st = c->spec ? &c->spec->statistic : NULL;
  if (st && (st->given & GS_STAT_MEANINERTIA)) {
    m->stat.meaninertia = st->meaninertia;
  } else {
    gsReal trace = 0;
    for (int i = 0; i < m->nv; i++) trace += d->qM[m->dof_Madr[i]];
    m->stat.meaninertia = m->nv ? trace / m->nv : 1;
  }
  /* the solvers divide by it: huge inertias at qpos0 (a body far from its joint) overflow */
  if (!(m->stat.meaninertia > 0 && m->stat.meaninertia < 1e300))
    return gs_compileFail(c, NULL, "model", "the mean inertia at qpos0 is %g: the model's masses, "
                          "inertias or distances overflow", m->stat.meaninertia);
  /* the extent, centre and visual settings are the compiler's: gs_setConst (no spec) keeps them */
  if (c->spec) {
    model_extent(c, m, d);
    /* as MJCF: the near clipping plane in front of the camera (after float rounding) */
    if (!(gs_compileFloat(c->spec->visual.map_znear) > 0))
      return gs_compileFail(c, NULL, "visual", "map znear must be strictly positive, got %g",
                            c->spec->visual.map_znear);
    model_visual(c, m);
  }
  for (int i = 0; i < m->ncam; i++) {
    int b = m->cam_bodyid[i];
    frame0(d, b, m->cam_targetbodyid[i], m->cam_pos + 3 * i, m->cam_pos0 + 3 * i, m->cam_poscom0 + 3 * i);
    gsReal R[9];
    gs_quat2Mat(R, m->cam_quat + 4 * i);
    gs_mulMat3(m->cam_mat0 + 9 * i, d->xmat + 9 * b, R);
  }
  for (int i = 0; i < m->nlight; i++) {
    int b = m->light_bodyid[i];
    frame0(d, b, m->light_targetbodyid[i], m->light_pos + 3 * i, m->light_pos0 + 3 * i, m->light_poscom0 + 3 * i);
    gs_mulMatVec3(m->light_dir0 + 3 * i, d->xmat + 9 * b, m->light_dir + 3 * i);
  }
  return 1;
}
