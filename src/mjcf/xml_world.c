/* The world slice of the MJCF reader: <asset> (texture, material, mesh, hfield), <contact> (pair,
 * exclude), <visual>, <statistic>; <camera> and <light> in bodies, and the asset references
 * (material, mesh, hfield) of geoms and sites, which the core reads otherwise. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/png_read.h"
#include "model/spec_slices.h"
#include "xml_internal.h"
#include "xml_keywords.h"

#define IS(s) (strcmp(a->name, (s)) == 0)

/* ---- schema of the slice's elements ---- */

typedef struct {
  const char* element;
  const char* attrs;
} WorldAttrs;

static const WorldAttrs kWorldAttrs[] = {
    {"asset", ""},
    {"texture",
     "name type colorspace content_type file gridsize gridlayout fileright fileleft fileup "
     "filedown filefront fileback builtin rgb1 rgb2 mark markrgb random width height hflip vflip "
     "nchannel"},
    {"material",
     "name class texture texrepeat texuniform emission specular shininess reflectance metallic "
     "roughness rgba"},
    {"layer", "texture role"},
    {"mesh",
     "name class content_type file vertex normal texcoord face refpos refquat scale smoothnormal "
     "maxhullvert inertia material builtin params"},
    {"hfield", "name content_type file nrow ncol elevation size"},
    {"camera",
     "name class mode target orthographic fovy ipd resolution sensorsize focal focalpixel "
     "principal principalpixel pos quat axisangle xyaxes zaxis euler user"},
    {"light",
     "name class mode target type directional castshadow active pos dir bulbradius intensity range "
     "attenuation cutoff exponent ambient diffuse specular texture"},
    {"frame", "name childclass class pos quat axisangle xyaxes zaxis euler"},
    {"contact", ""},
    {"pair", "name class geom1 geom2 condim friction solref solreffriction solimp margin gap"},
    {"exclude", "name body1 body2"},
    {"visual", ""},
    {"global",
     "cameraid orthographic fovy ipd azimuth elevation linewidth glow realtime offwidth offheight "
     "ellipsoidinertia bvactive"},
    {"quality", "shadowsize offsamples numslices numstacks numquads"},
    {"headlight", "ambient diffuse specular active"},
    {"map",
     "stiffness stiffnessrot force torque alpha fogstart fogend znear zfar haze shadowclip "
     "shadowscale actuatortendon"},
    {"scale",
     "forcewidth contactwidth contactheight connect com camera light selectpoint jointlength "
     "jointwidth actuatorlength actuatorwidth framelength framewidth constraint slidercrank "
     "frustum"},
    {"rgba",
     "fog haze force inertia joint actuator actuatornegative actuatorpositive com camera light "
     "selectpoint connect contactpoint contactforce contactfriction contacttorque contactgap "
     "rangefinder constraint slidercrank crankbroken frustum bv bvactive"},
    {"statistic", "meaninertia meanmass meansize extent center"},
};

/* what a <default> may set for the slice's kinds: MJCF leaves out names and references there */
static const WorldAttrs kDefaultAttrs[] = {
    {"mesh", "inertia maxhullvert scale"},
    {"material",
     "texture texrepeat texuniform emission specular shininess reflectance metallic roughness "
     "rgba"},
    {"camera",
     "mode orthographic fovy ipd resolution sensorsize focal focalpixel principal principalpixel "
     "pos quat axisangle xyaxes zaxis euler user"},
    {"light",
     "mode type directional castshadow active pos dir bulbradius intensity range attenuation "
     "cutoff exponent ambient diffuse specular"},
    {"pair", "condim friction solref solreffriction solimp margin gap"},
};

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

const char* gsx_attrsWorld(const char* element) {
  for (size_t i = 0; i < NELEM(kWorldAttrs); i++)
    if (strcmp(kWorldAttrs[i].element, element) == 0) return kWorldAttrs[i].attrs;
  return NULL;
}

/* ---- values ---- */

/* a list of reals whose length is a multiple of `multiple` (user data, mesh data), owned */
static int real_list(gsxCtx* c, const gsxAt* a, gsReal** out, int* n, int multiple) {
  int k = gsx_countTokens(a->value);
  if (k % multiple)
    return gsx_attrError(c, a, "expected a multiple of %d numbers, got %d", multiple, k);
  gsReal* v = NULL;
  if (k) {
    v = malloc(sizeof(gsReal) * (size_t)k);
    if (!v) return gsx_oom(c);
    if (!gsx_reals(c, a, v, k, k, NULL)) {
      free(v);
      return GSX_ERR;
    }
  }
  free(*out);
  *out = v;
  *n = k / multiple;
  return GSX_OK;
}

static int int_list(gsxCtx* c, const gsxAt* a, int** out, int* n, int multiple) {
  int k = gsx_countTokens(a->value);
  if (k % multiple)
    return gsx_attrError(c, a, "expected a multiple of %d integers, got %d", multiple, k);
  int* v = NULL;
  if (k) {
    v = malloc(sizeof(int) * (size_t)k);
    if (!v) return gsx_oom(c);
    if (!gsx_ints(c, a, v, k, k, NULL)) {
      free(v);
      return GSX_ERR;
    }
  }
  free(*out);
  *out = v;
  *n = k / multiple;
  return GSX_OK;
}

/* a reference to another element: a name, never empty */
static int name_attr(gsxCtx* c, char** dst, const gsxAt* a) {
  if (!a->value[0]) return gsx_attrError(c, a, "empty name");
  return gsx_setString(c, dst, a);
}

/* orientation attributes; -1 when a is not one of them */
static int orient_attr(gsxCtx* c, gsOrientation* o, const gsxAt* a) {
  int type = o->type;
  int r = gsx_orientAttr(c, o, a);
  /* as in MJCF, an alternative form (euler, axisangle, ...) set by the class still wins over
   * a quat: quat only fills the quaternion */
  if (IS("quat")) o->type = type;
  return r;
}

/* ---- cameras and lights ---- */

static int set_camera(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecCamera* cam = obj;
  int r = orient_attr(c, &cam->orient, a);
  if (r >= 0) return r;
  if (IS("pos")) return gsx_reals(c, a, cam->pos, 3, 3, NULL);
  if (IS("mode")) return gsx_keyword(c, a, gsx_camLightModes, 5, &cam->mode);
  if (IS("target")) return name_attr(c, &cam->target, a);
  if (IS("orthographic")) return gsx_bool(c, a, &cam->orthographic);
  if (IS("fovy")) return gsx_real(c, a, &cam->fovy);
  if (IS("ipd")) return gsx_real(c, a, &cam->ipd);
  if (IS("resolution")) {
    gsReal v[2];
    if (!gsx_reals(c, a, v, 2, 2, NULL)) return GSX_ERR;
    if (v[0] < 0 || v[1] < 0) return gsx_attrError(c, a, "camera resolution cannot be negative");
    if (v[0] > 1e9 || v[1] > 1e9) return gsx_attrError(c, a, "camera resolution is too large");
    cam->resolution[0] = (int)v[0];  /* MJCF truncates */
    cam->resolution[1] = (int)v[1];
    return GSX_OK;
  }
  if (IS("sensorsize")) return gsx_reals(c, a, cam->sensorsize, 2, 2, NULL);
  /* which of focal and principal were written, here or in the class: pixels take precedence */
  if (IS("focal")) return cam->given |= GS_CAM_FOCAL, gsx_reals(c, a, cam->focal, 2, 2, NULL);
  if (IS("focalpixel"))
    return cam->given |= GS_CAM_FOCALPIXEL, gsx_reals(c, a, cam->focalpixel, 2, 2, NULL);
  if (IS("principal"))
    return cam->given |= GS_CAM_PRINCIPAL, gsx_reals(c, a, cam->principal, 2, 2, NULL);
  if (IS("principalpixel"))
    return cam->given |= GS_CAM_PRINCIPALPIXEL, gsx_reals(c, a, cam->principalpixel, 2, 2, NULL);
  if (IS("user")) return gsx_userAttr(c, a, &cam->user, &cam->nuser);
  return GSX_UNUSED;
}

/* MJCF's rules on the attributes a <camera> writes itself (its class does not count): fovy or the
 * sensor, the intrinsics need the sensor, the sensor needs its resolution */
static int camera_own_rules(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  static const char* const kNames[] = {"fovy",       "sensorsize", "resolution",    "focal",
                                       "focalpixel", "principal",  "principalpixel"};
  int given = 0, line = gsx_line(node);
  for (int i = 0; i < 7; i++)
    if (gsx_hasAttr(node, kNames[i])) given |= 1 << i;
  if ((given & GS_CAM_FOVY) && (given & GS_CAM_SENSORSIZE))
    return gsx_error(c, src->name, line, "camera", "fovy and sensorsize cannot both be given");
  if ((given & (GS_CAM_FOCAL | GS_CAM_FOCALPIXEL | GS_CAM_PRINCIPAL | GS_CAM_PRINCIPALPIXEL)) &&
      !(given & GS_CAM_SENSORSIZE))
    return gsx_error(c, src->name, line, "camera",
                     "missing required attribute 'sensorsize' (focal and principal values need it)");
  if ((given & GS_CAM_SENSORSIZE) && !(given & GS_CAM_RESOLUTION))
    return gsx_error(c, src->name, line, "camera",
                     "missing required attribute 'resolution' (sensorsize needs it)");
  return 1;
}

static int set_light(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecLight* l = obj;
  if (IS("pos")) return gsx_reals(c, a, l->pos, 3, 3, NULL);
  if (IS("dir")) return gsx_reals(c, a, l->dir, 3, 3, NULL);
  if (IS("mode")) return gsx_keyword(c, a, gsx_camLightModes, 5, &l->mode);
  if (IS("target")) return name_attr(c, &l->target, a);
  if (IS("texture")) return name_attr(c, &l->texture, a);
  if (IS("type")) {
    static const char* const w[] = {"spot", "directional", "point", "image"};
    return gsx_keyword(c, a, w, 4, &l->type);
  }
  if (IS("directional")) {
    int v;
    if (!gsx_bool(c, a, &v)) return GSX_ERR;
    l->type = v ? GS_LIGHT_DIRECTIONAL : GS_LIGHT_SPOT;
    return GSX_OK;
  }
  if (IS("castshadow")) return gsx_bool(c, a, &l->castshadow);
  if (IS("active")) return gsx_bool(c, a, &l->active);
  if (IS("bulbradius")) return gsx_real(c, a, &l->bulbradius);
  if (IS("intensity")) return gsx_real(c, a, &l->intensity);
  if (IS("range")) return gsx_real(c, a, &l->range);
  if (IS("attenuation")) return gsx_reals(c, a, l->attenuation, 3, 3, NULL);
  if (IS("cutoff")) return gsx_real(c, a, &l->cutoff);
  if (IS("exponent")) return gsx_real(c, a, &l->exponent);
  if (IS("ambient")) return gsx_reals(c, a, l->ambient, 3, 3, NULL);
  if (IS("diffuse")) return gsx_reals(c, a, l->diffuse, 3, 3, NULL);
  if (IS("specular")) return gsx_reals(c, a, l->specular, 3, 3, NULL);
  return GSX_UNUSED;
}

static int light_own_rules(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  if (gsx_hasAttr(node, "type") && gsx_hasAttr(node, "directional"))
    return gsx_error(c, src->name, gsx_line(node), "light",
                     "type and directional cannot both be given (directional is the old form)");
  return 1;
}

static int read_camera(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body, int cls) {
  if (!gsx_checkAttrs(c, node, src, "camera", 0)) return 0;
  if (!gsx_elementClass(c, node, src, "camera", "class", cls, &cls)) return 0;
  gsSpecCamera* cam = gs_specAddCamera(body);
  if (!cam) return gsx_oom(c);
  return gsx_setInfo(c, &cam->info, node, src) &&
         gsx_applyClass(c, cls, "camera", set_camera, cam) &&
         gsx_applyOwn(c, node, src, "camera", set_camera, cam, "name class") &&
         camera_own_rules(c, node, src) && gsx_checkChildren(c, node, src, "camera");
}

static int read_light(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body, int cls) {
  if (!gsx_checkAttrs(c, node, src, "light", 0)) return 0;
  if (!light_own_rules(c, node, src)) return 0;
  if (!gsx_elementClass(c, node, src, "light", "class", cls, &cls)) return 0;
  gsSpecLight* l = gs_specAddLight(body);
  if (!l) return gsx_oom(c);
  return gsx_setInfo(c, &l->info, node, src) && gsx_applyClass(c, cls, "light", set_light, l) &&
         gsx_applyOwn(c, node, src, "light", set_light, l, "name class") &&
         gsx_checkChildren(c, node, src, "light");
}

/* ---- asset references of geoms and sites ---- */

typedef struct {
  gsSpecBody* body;
  const void* owner;
  int geom;             /* a geom (material, mesh, hfield) rather than a site (material) */
  gsSpecAssetRef* ref;  /* created when the first reference is met */
} RefTarget;

static int set_assetref(gsxCtx* c, void* obj, const gsxAt* a) {
  RefTarget* t = obj;
  if (!IS("material") && !(t->geom && (IS("mesh") || IS("hfield"))))
    return GSX_OK;  /* the core read the rest */
  if (!t->ref && !(t->ref = gs_specAddAssetRef(t->body, t->owner))) return gsx_oom(c);
  gsSpecAssetRef* r = t->ref;
  return name_attr(c, IS("material") ? &r->material : IS("mesh") ? &r->mesh : &r->hfield, a);
}

/* the geom or site the core has just read from node: its references, through its class too */
static int read_assetrefs(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body, int cls,
                          int geom) {
  const char* elem = geom ? "geom" : "site";
  if (geom ? body->ngeom == 0 : body->nsite == 0) return 1;
  RefTarget t = {body, NULL, geom, NULL};
  t.owner = geom ? (const void*)body->geom[body->ngeom - 1] : (const void*)body->site[body->nsite - 1];
  if (!gsx_elementClass(c, node, src, elem, "class", cls, &cls)) return 0;
  if (!gsx_applyClass(c, cls, elem, set_assetref, &t) ||
      !gsx_applyOwn(c, node, src, elem, set_assetref, &t, "name class"))
    return 0;
  return 1;
}

int gsx_readWorldBodyChild(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body, int cls) {
  const char* name = gsx_name(node);
  if (strcmp(name, "camera") == 0) return read_camera(c, node, src, body, cls);
  if (strcmp(name, "light") == 0) return read_light(c, node, src, body, cls);
  if (strcmp(name, "geom") == 0) return read_assetrefs(c, node, src, body, cls, 1);
  if (strcmp(name, "site") == 0) return read_assetrefs(c, node, src, body, cls, 0);
  return -1;
}

/* ---- asset files ---- */

/* the file name as MJCF uses it: without its directories when compiler.strippath is set */
static const char* file_name(const gsxCtx* c, const char* file) {
  if (!c->spec->compiler.strippath) return file;
  const char* slash = strrchr(file, '/');
#ifdef _WIN32
  const char* bslash = strrchr(file, '\\');
  if (bslash && (!slash || bslash > slash)) slash = bslash;
#endif
  return slash ? slash + 1 : file;
}

/* the path of an asset file: absolute as written, else below dir (absolute), else below the
 * model's directory and dir */
static int asset_path(gsxCtx* c, char** out, const char* file, const char* dir) {
  const char* base = c->nfile > 0 ? c->files[0]->dir : ".";
  size_t n = strlen(file) + (dir ? strlen(dir) : 0) + strlen(base) + 3;
  char* p = malloc(n);
  if (!p) return gsx_oom(c);
  if (file[0] == '/')
    snprintf(p, n, "%s", file);
  else if (dir && dir[0] == '/')
    snprintf(p, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file);
  else if (dir && dir[0])
    snprintf(p, n, "%s/%s%s%s", base, dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file);
  else
    snprintf(p, n, "%s/%s", base, file);
  free(*out);
  *out = p;
  return 1;
}

/* MJCF names an unnamed asset loaded from a file after the file: no directories, no extension */
static int name_from_file(gsxCtx* c, gsSpecInfo* info, const char* file) {
  if (info->name || !file) return 1;
  const char* s = strrchr(file, '/');
  s = s ? s + 1 : file;
  const char* dot = strrchr(s, '.');
  size_t n = dot ? (size_t)(dot - s) : strlen(s);
  char* name = malloc(n + 1);
  if (!name) return gsx_oom(c);
  memcpy(name, s, n);
  name[n] = 0;
  info->name = name;
  return 1;
}

/* the contents of an asset file into the spec: MJCF fails on a file it cannot read */
static int read_blob(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* path,
                     const char* shown, gsSpecBlob* blob) {
  void* data = NULL;
  size_t n = 0;
  errno = 0;
  if (!gsx_readAsset(c, path, &data, &n))
    return gsx_error(c, src->name, gsx_line(node), gsx_name(node), "cannot read file '%.200s': %s",
                     shown, gsx_readError(c));
  free(blob->bytes);
  blob->bytes = data;
  blob->n = n;
  return 1;
}

/* A texture's image file: one that cannot be read or is not a valid PNG image leaves the texture
 * without pixels (drawn untextured) and a load warning, where MJCF fails: a texture changes
 * nothing but the picture. A file that confined loading refuses stays an error (as every file
 * outside the model's directory). KTX files are left to the compiler, which refuses them. */
static int read_texture_blob(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecTexture* t,
                             const char* path, const char* shown, gsSpecBlob* blob) {
  void* data = NULL;
  size_t n = 0;
  errno = 0;
  if (!gsx_readAsset(c, path, &data, &n)) {
    if (c->denied) return read_blob(c, node, src, path, shown, blob);
    gsx_warn(c, src->name, gsx_line(node), "texture file '%.200s' cannot be read (%s): drawn without it",
             shown, gsx_readError(c));
    t->unreadable = 1;
    return 1;
  }
  const char* ct = t->content_type;
  size_t len = strlen(shown);
  int ktx = (ct && strcmp(ct, "image/ktx") == 0) || (!ct && len >= 4 && strcasecmp(shown + len - 4, ".ktx") == 0);
  if (!ktx && (!ct || strcmp(ct, "image/png") == 0)) {
    int w, h, ch;
    unsigned char* pix = NULL;
    char why[160];
    int ok = gs_pngDecode(data, n, &w, &h, &ch, &pix, why, sizeof why);
    free(pix);
    if (!ok) {
      gsx_warn(c, src->name, gsx_line(node), "texture file '%.200s': %s: drawn without it", shown, why);
      free(data);
      t->unreadable = 1;
      return 1;
    }
  }
  free(blob->bytes);
  blob->bytes = data;
  blob->n = n;
  return 1;
}

static const char* mesh_dir(const gsxCtx* c) {
  return c->spec->compiler.meshdir ? c->spec->compiler.meshdir : c->spec->compiler.assetdir;
}

static const char* texture_dir(const gsxCtx* c) {
  return c->spec->compiler.texturedir ? c->spec->compiler.texturedir : c->spec->compiler.assetdir;
}

/* ---- assets ---- */

static int set_texture(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecTexture* t = obj;
  if (IS("type")) {
    static const char* const w[] = {"2d", "cube", "skybox"};
    return gsx_keyword(c, a, w, 3, &t->type);
  }
  if (IS("colorspace")) {
    static const char* const w[] = {"auto", "linear", "sRGB"};
    return gsx_keyword(c, a, w, 3, &t->colorspace);
  }
  if (IS("builtin")) {
    static const char* const w[] = {"none", "gradient", "checker", "flat"};
    return gsx_keyword(c, a, w, 4, &t->builtin);
  }
  if (IS("mark")) {
    static const char* const w[] = {"none", "edge", "cross", "random"};
    return gsx_keyword(c, a, w, 4, &t->mark);
  }
  if (IS("content_type")) return gsx_setString(c, &t->content_type, a);
  if (IS("file")) return gsx_setString(c, &t->file, a);
  if (IS("rgb1")) return gsx_reals(c, a, t->rgb1, 3, 3, NULL);
  if (IS("rgb2")) return gsx_reals(c, a, t->rgb2, 3, 3, NULL);
  if (IS("markrgb")) return gsx_reals(c, a, t->markrgb, 3, 3, NULL);
  if (IS("random")) return gsx_real(c, a, &t->random);
  if (IS("width")) return gsx_int(c, a, &t->width);
  if (IS("height")) return gsx_int(c, a, &t->height);
  if (IS("nchannel")) return gsx_int(c, a, &t->nchannel);
  if (IS("hflip")) return gsx_bool(c, a, &t->hflip);
  if (IS("vflip")) return gsx_bool(c, a, &t->vflip);
  if (IS("gridsize")) return gsx_ints(c, a, t->gridsize, 2, 2, NULL);  /* checked where used */
  if (IS("gridlayout")) {
    size_t n = strlen(a->value);
    if (n > 12) return gsx_attrError(c, a, "at most 12 characters");
    for (size_t i = 0; i < n; i++)
      if (!strchr(".RLUDFB", a->value[i]))
        return gsx_attrError(c, a, "invalid character '%c' (allowed: . R L U D F B)", a->value[i]);
    memcpy(t->gridlayout, a->value, n + 1);
    return GSX_OK;
  }
  static const char* const kCube[6] = {"fileright", "fileleft",  "fileup",
                                       "filedown",  "filefront", "fileback"};
  for (int i = 0; i < 6; i++)
    if (IS(kCube[i])) return gsx_setString(c, &t->cubefiles[i], a);
  return GSX_UNUSED;
}

static int read_texture(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  if (!gsx_checkAttrs(c, node, src, "texture", 0)) return 0;
  gsSpecTexture* t = gs_specAddTexture(c->spec);
  if (!t) return gsx_oom(c);
  if (!gsx_setInfo(c, &t->info, node, src) ||
      !gsx_applyOwn(c, node, src, "texture", set_texture, t, "name") ||
      !gsx_checkChildren(c, node, src, "texture"))
    return 0;
  if (gsx_hasAttr(node, "gridlayout") && (long)strlen(t->gridlayout) != (long)t->gridsize[0] * t->gridsize[1])
    return gsx_error(c, src->name, gsx_line(node), "texture",
                     "gridlayout has %d cells, gridsize %d x %d", (int)strlen(t->gridlayout),
                     t->gridsize[0], t->gridsize[1]);
  /* a builtin texture ignores its files (and keeps their names as written, even with strippath,
   * as MJCF does) */
  int builtin = t->builtin != GS_BUILTIN_NONE;
  if (t->file) {
    const char* f = builtin ? t->file : file_name(c, t->file);
    if (f != t->file) memmove(t->file, f, strlen(f) + 1);
    if (!asset_path(c, &t->path, t->file, texture_dir(c)) || !name_from_file(c, &t->info, t->file))
      return 0;
    if (!builtin && !read_texture_blob(c, node, src, t, t->path, t->file, &t->data)) return 0;
  }
  for (int i = 0; i < 6; i++)
    if (t->cubefiles[i]) {
      int used = !builtin && !t->file && t->type != GS_TEXTURE_2D;
      const char* f = used ? file_name(c, t->cubefiles[i]) : t->cubefiles[i];
      if (f != t->cubefiles[i]) memmove(t->cubefiles[i], f, strlen(f) + 1);
      if (!asset_path(c, &t->cubepaths[i], t->cubefiles[i], texture_dir(c))) return 0;
      if (used && !read_texture_blob(c, node, src, t, t->cubepaths[i], t->cubefiles[i], &t->cubedata[i]))
        return 0;
    }
  return 1;
}

static int set_material(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecMaterial* m = obj;
  if (IS("texture")) return name_attr(c, &m->texture[GS_TEXROLE_RGB], a);
  if (IS("texrepeat")) return gsx_reals(c, a, m->texrepeat, 2, 2, NULL);
  if (IS("texuniform")) return gsx_bool(c, a, &m->texuniform);
  if (IS("emission")) return gsx_real(c, a, &m->emission);
  if (IS("specular")) return gsx_real(c, a, &m->specular);
  if (IS("shininess")) return gsx_real(c, a, &m->shininess);
  if (IS("reflectance")) return gsx_real(c, a, &m->reflectance);
  if (IS("metallic")) return gsx_real(c, a, &m->metallic);
  if (IS("roughness")) return gsx_real(c, a, &m->roughness);
  if (IS("rgba")) return gsx_reals(c, a, m->rgba, 4, 4, NULL);
  return GSX_UNUSED;
}

/* <layer texture= role=>: one texture of the material in a given role */
static int material_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  gsSpecMaterial* m = user;
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  if (strcmp(name, "layer") != 0)
    return gsx_childError(c, ch, src, "material");
  if (!gsx_checkAttrs(c, ch, src, "layer", 0)) return 0;
  xmlChar* tex = gsx_getAttr(c, ch, "texture");
  xmlChar* role = gsx_getAttr(c, ch, "role");
  int ok = 1, r = -1;
  if (!tex || !role) {
    ok = gsx_error(c, src->name, line, "layer", "missing required attribute '%s'",
                   tex ? "role" : "texture");
  } else {
    for (int i = 1; i < GS_NTEXROLE; i++)
      if (strcmp((const char*)role, gsx_texRoles[i]) == 0) r = i;
    if (r < 0)
      ok = gsx_error(c, src->name, line, "layer",
                     "attribute 'role': invalid value '%.40s' (allowed: rgb, occlusion, "
                     "roughness, metallic, normal, opacity, emissive, rgba, orm)",
                     (const char*)role);
    else if (!tex[0])
      ok = gsx_error(c, src->name, line, "layer", "attribute 'texture': empty name");
    else if (!gs_specSetString(&m->texture[r], (const char*)tex))
      ok = gsx_oom(c);
  }
  xmlFree(tex);
  xmlFree(role);
  return ok && gsx_checkChildren(c, ch, src, "layer");
}

static int read_material(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  int cls;
  if (!gsx_checkAttrs(c, node, src, "material", 0)) return 0;
  if (!gsx_elementClass(c, node, src, "material", "class", 0, &cls)) return 0;
  gsSpecMaterial* m = gs_specAddMaterial(c->spec);
  if (!m) return gsx_oom(c);
  if (!gsx_setInfo(c, &m->info, node, src) ||
      !gsx_applyClass(c, cls, "material", set_material, m) ||
      !gsx_applyOwn(c, node, src, "material", set_material, m, "name class"))
    return 0;
  /* layers replace the single texture attribute; both at once is ambiguous */
  int has_layer = 0;
  for (xmlNodePtr ch = node->children; ch; ch = ch->next)
    if (ch->type == XML_ELEMENT_NODE && strcmp(gsx_name(ch), "layer") == 0) has_layer = 1;
  if (has_layer && gsx_hasAttr(node, "texture"))
    return gsx_error(c, src->name, gsx_line(node), "material",
                     "a material with a texture attribute cannot have <layer> children");
  if (has_layer) {
    free(m->texture[GS_TEXROLE_RGB]);  /* a class's texture gives way to the layers */
    m->texture[GS_TEXROLE_RGB] = NULL;
  }
  return gsx_eachChild(c, node, src, material_child, m);
}

static int set_mesh(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecMesh* m = obj;
  if (IS("content_type")) return gsx_setString(c, &m->content_type, a);
  if (IS("file")) return gsx_setString(c, &m->file, a);
  if (IS("material")) return name_attr(c, &m->material, a);
  if (IS("builtin")) return gsx_setString(c, &m->builtin, a);
  if (IS("params")) return real_list(c, a, &m->params, &m->nparams, 1);
  if (IS("vertex")) return real_list(c, a, &m->vert, &m->nvert, 3);
  if (IS("normal")) return real_list(c, a, &m->normal, &m->nnormal, 3);
  if (IS("texcoord")) return real_list(c, a, &m->texcoord, &m->ntexcoord, 2);
  if (IS("face")) return int_list(c, a, &m->face, &m->nface, 3);
  if (IS("refpos")) return gsx_reals(c, a, m->refpos, 3, 3, NULL);
  if (IS("refquat")) return gsx_reals(c, a, m->refquat, 4, 4, NULL);
  if (IS("scale")) return gsx_reals(c, a, m->scale, 3, 3, NULL);
  if (IS("smoothnormal")) return gsx_bool(c, a, &m->smoothnormal);
  if (IS("maxhullvert")) {
    int v;
    if (!gsx_int(c, a, &v)) return GSX_ERR;
    if (v != -1 && v < 4) return gsx_attrError(c, a, "must be -1 (no limit) or larger than 3");
    m->maxhullvert = v;
    return GSX_OK;
  }
  if (IS("inertia")) {
    static const char* const w[] = {"convex", "exact", "legacy", "shell"};
    return gsx_keyword(c, a, w, 4, &m->inertia);
  }
  return GSX_UNUSED;
}

static int read_mesh(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  int cls;
  if (!gsx_checkAttrs(c, node, src, "mesh", 0)) return 0;
  if (!gsx_elementClass(c, node, src, "mesh", "class", 0, &cls)) return 0;
  gsSpecMesh* m = gs_specAddMesh(c->spec);
  if (!m) return gsx_oom(c);
  if (!gsx_setInfo(c, &m->info, node, src) || !gsx_applyClass(c, cls, "mesh", set_mesh, m) ||
      !gsx_applyOwn(c, node, src, "mesh", set_mesh, m, "name class") ||
      !gsx_checkChildren(c, node, src, "mesh"))
    return 0;
  if (m->file && (m->nvert || m->nface))
    return gsx_error(c, src->name, gsx_line(node), "mesh",
                     "vertex and face data cannot be given with a file");
  /* the contents are kept for the mesh stage, which decodes them */
  if (m->file) {
    const char* f = file_name(c, m->file);
    if (f != m->file) memmove(m->file, f, strlen(f) + 1);
    if (!asset_path(c, &m->path, m->file, mesh_dir(c)) || !name_from_file(c, &m->info, m->file) ||
        !read_blob(c, node, src, m->path, m->file, &m->data))
      return 0;
  }
  return 1;
}

/* a mesh named by another reader (URDF, urdf_read.c): its file found and read as <mesh file=> */
int gsx_meshFile(gsxCtx* c, gsSpecMesh* m, xmlNodePtr node, const gsxFile* src) {
  const char* f = file_name(c, m->file);
  if (f != m->file) memmove(m->file, f, strlen(f) + 1);
  return asset_path(c, &m->path, m->file, mesh_dir(c)) &&
         read_blob(c, node, src, m->path, m->file, &m->data);
}

static int set_hfield(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecHField* h = obj;
  if (IS("content_type")) return gsx_setString(c, &h->content_type, a);
  if (IS("file")) return gsx_setString(c, &h->file, a);
  if (IS("nrow")) return gsx_int(c, a, &h->nrow);
  if (IS("ncol")) return gsx_int(c, a, &h->ncol);
  if (IS("size")) return gsx_reals(c, a, h->size, 4, 4, NULL);
  if (IS("elevation")) return real_list(c, a, &h->elevation, &h->nelevation, 1);
  return GSX_UNUSED;
}

static int read_hfield(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  int line = gsx_line(node);
  if (!gsx_checkAttrs(c, node, src, "hfield", 0)) return 0;
  if (!gsx_requireAttr(c, node, src, "hfield", "size")) return 0;
  gsSpecHField* h = gs_specAddHField(c->spec);
  if (!h) return gsx_oom(c);
  if (!gsx_setInfo(c, &h->info, node, src) ||
      !gsx_applyOwn(c, node, src, "hfield", set_hfield, h, "name") ||
      !gsx_checkChildren(c, node, src, "hfield"))
    return 0;
  if (h->nrow < 0 || h->ncol < 0)
    return gsx_error(c, src->name, line, "hfield", "nrow and ncol cannot be negative");
  if (h->elevation && (size_t)h->nelevation != (size_t)h->nrow * (size_t)h->ncol)
    return gsx_error(c, src->name, line, "hfield",
                     "elevation has %d values, nrow*ncol is %d", h->nelevation, h->nrow * h->ncol);
  if (h->file) {
    const char* f = file_name(c, h->file);
    if (f != h->file) memmove(h->file, f, strlen(f) + 1);
    if (!asset_path(c, &h->path, h->file, mesh_dir(c)) || !name_from_file(c, &h->info, h->file) ||
        !read_blob(c, node, src, h->path, h->file, &h->data))
      return 0;
  }
  return 1;
}

static int asset_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(ch);
  if (strcmp(name, "texture") == 0) return read_texture(c, ch, src);
  if (strcmp(name, "material") == 0) return read_material(c, ch, src);
  if (strcmp(name, "mesh") == 0) return read_mesh(c, ch, src);
  if (strcmp(name, "hfield") == 0) return read_hfield(c, ch, src);
  if (strcmp(name, "model") == 0) return 1;  /* read in the first pass (xml_attach.c) */
  if (strcmp(name, "skin") == 0) return gsx_skipElement(c, ch, src);
  return gsx_childError(c, ch, src, "asset");
}

/* ---- <contact> ---- */

static int set_pair(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecPair* p = obj;
  if (IS("geom1")) return name_attr(c, &p->geom1, a);
  if (IS("geom2")) return name_attr(c, &p->geom2, a);
  if (IS("condim")) return gsx_int(c, a, &p->condim);
  if (IS("friction")) return gsx_reals(c, a, p->friction, 1, 5, NULL);
  if (IS("solref")) return gsx_reals(c, a, p->solref, 1, GS_NREF, NULL);
  if (IS("solreffriction")) return gsx_reals(c, a, p->solreffriction, 1, GS_NREF, NULL);
  if (IS("solimp")) return gsx_reals(c, a, p->solimp, 1, GS_NIMP, NULL);
  if (IS("margin")) return gsx_real(c, a, &p->margin);
  if (IS("gap")) return gsx_real(c, a, &p->gap);
  return GSX_UNUSED;
}

static int set_exclude(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecExclude* e = obj;
  if (IS("body1")) return name_attr(c, &e->body1, a);
  if (IS("body2")) return name_attr(c, &e->body2, a);
  return GSX_UNUSED;
}

/* both attributes, the first missing one reported */
static int require(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                   const char* attr1, const char* attr2) {
  return gsx_requireAttr(c, node, src, elem, attr1) && gsx_requireAttr(c, node, src, elem, attr2);
}

static int contact_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(ch);
  if (strcmp(name, "pair") == 0) {
    int cls;
    if (!gsx_checkAttrs(c, ch, src, "pair", 0) || !require(c, ch, src, "pair", "geom1", "geom2") ||
        !gsx_elementClass(c, ch, src, "pair", "class", 0, &cls))
      return 0;
    gsSpecPair* p = gs_specAddPair(c->spec);
    if (!p) return gsx_oom(c);
    return gsx_setInfo(c, &p->info, ch, src) && gsx_applyClass(c, cls, "pair", set_pair, p) &&
           gsx_applyOwn(c, ch, src, "pair", set_pair, p, "name class") &&
           gsx_checkChildren(c, ch, src, "pair");
  }
  if (strcmp(name, "exclude") == 0) {
    if (!gsx_checkAttrs(c, ch, src, "exclude", 0) ||
        !require(c, ch, src, "exclude", "body1", "body2"))
      return 0;
    gsSpecExclude* e = gs_specAddExclude(c->spec);
    if (!e) return gsx_oom(c);
    return gsx_setInfo(c, &e->info, ch, src) &&
           gsx_applyOwn(c, ch, src, "exclude", set_exclude, e, "name") &&
           gsx_checkChildren(c, ch, src, "exclude");
  }
  return gsx_childError(c, ch, src, "contact");
}

/* ---- <visual> and <statistic> ---- */

typedef struct {
  const char* elem;
  const char* attr;
  int n;          /* number of values */
  int is_int;
  size_t offset;  /* in gsSpecVisual */
} VisualAttr;

#define VR(e, a, n, m) {e, a, n, 0, offsetof(gsSpecVisual, m)}
#define VI(e, a, m) {e, a, 1, 1, offsetof(gsSpecVisual, m)}

static const VisualAttr kVisual[] = {
    VI("global", "cameraid", cameraid), VI("global", "orthographic", orthographic),
    VR("global", "fovy", 1, fovy), VR("global", "ipd", 1, ipd),
    VR("global", "azimuth", 1, azimuth), VR("global", "elevation", 1, elevation),
    VR("global", "linewidth", 1, linewidth), VR("global", "glow", 1, glow),
    VR("global", "realtime", 1, realtime), VI("global", "offwidth", offwidth),
    VI("global", "offheight", offheight), VI("global", "ellipsoidinertia", ellipsoidinertia),
    VI("global", "bvactive", bvactive),
    VI("quality", "shadowsize", shadowsize), VI("quality", "offsamples", offsamples),
    VI("quality", "numslices", numslices), VI("quality", "numstacks", numstacks),
    VI("quality", "numquads", numquads),
    VR("headlight", "ambient", 3, headlight_ambient), VR("headlight", "diffuse", 3, headlight_diffuse),
    VR("headlight", "specular", 3, headlight_specular), VI("headlight", "active", headlight_active),
    VR("map", "stiffness", 1, map_stiffness), VR("map", "stiffnessrot", 1, map_stiffnessrot),
    VR("map", "force", 1, map_force), VR("map", "torque", 1, map_torque),
    VR("map", "alpha", 1, map_alpha), VR("map", "fogstart", 1, map_fogstart),
    VR("map", "fogend", 1, map_fogend), VR("map", "znear", 1, map_znear),
    VR("map", "zfar", 1, map_zfar), VR("map", "haze", 1, map_haze),
    VR("map", "shadowclip", 1, map_shadowclip), VR("map", "shadowscale", 1, map_shadowscale),
    VR("map", "actuatortendon", 1, map_actuatortendon),
    VR("scale", "forcewidth", 1, scale_forcewidth), VR("scale", "contactwidth", 1, scale_contactwidth),
    VR("scale", "contactheight", 1, scale_contactheight), VR("scale", "connect", 1, scale_connect),
    VR("scale", "com", 1, scale_com), VR("scale", "camera", 1, scale_camera),
    VR("scale", "light", 1, scale_light), VR("scale", "selectpoint", 1, scale_selectpoint),
    VR("scale", "jointlength", 1, scale_jointlength), VR("scale", "jointwidth", 1, scale_jointwidth),
    VR("scale", "actuatorlength", 1, scale_actuatorlength),
    VR("scale", "actuatorwidth", 1, scale_actuatorwidth),
    VR("scale", "framelength", 1, scale_framelength), VR("scale", "framewidth", 1, scale_framewidth),
    VR("scale", "constraint", 1, scale_constraint), VR("scale", "slidercrank", 1, scale_slidercrank),
    VR("scale", "frustum", 1, scale_frustum),
    VR("rgba", "fog", 4, rgba_fog), VR("rgba", "haze", 4, rgba_haze),
    VR("rgba", "force", 4, rgba_force), VR("rgba", "inertia", 4, rgba_inertia),
    VR("rgba", "joint", 4, rgba_joint), VR("rgba", "actuator", 4, rgba_actuator),
    VR("rgba", "actuatornegative", 4, rgba_actuatornegative),
    VR("rgba", "actuatorpositive", 4, rgba_actuatorpositive), VR("rgba", "com", 4, rgba_com),
    VR("rgba", "camera", 4, rgba_camera), VR("rgba", "light", 4, rgba_light),
    VR("rgba", "selectpoint", 4, rgba_selectpoint), VR("rgba", "connect", 4, rgba_connect),
    VR("rgba", "contactpoint", 4, rgba_contactpoint), VR("rgba", "contactforce", 4, rgba_contactforce),
    VR("rgba", "contactfriction", 4, rgba_contactfriction),
    VR("rgba", "contacttorque", 4, rgba_contacttorque), VR("rgba", "contactgap", 4, rgba_contactgap),
    VR("rgba", "rangefinder", 4, rgba_rangefinder), VR("rgba", "constraint", 4, rgba_constraint),
    VR("rgba", "slidercrank", 4, rgba_slidercrank), VR("rgba", "crankbroken", 4, rgba_crankbroken),
    VR("rgba", "frustum", 4, rgba_frustum), VR("rgba", "bv", 4, rgba_bv),
    VR("rgba", "bvactive", 4, rgba_bvactive),
};

static int set_visual(gsxCtx* c, void* obj, const gsxAt* a) {
  for (size_t i = 0; i < NELEM(kVisual); i++) {
    const VisualAttr* v = &kVisual[i];
    if (strcmp(v->elem, a->elem) != 0 || !IS(v->attr)) continue;
    void* dst = (char*)obj + v->offset;
    /* flags MJCF writes as booleans */
    if (v->is_int && (IS("orthographic") || IS("ellipsoidinertia") || IS("bvactive")))
      return gsx_bool(c, a, dst);
    return v->is_int ? gsx_int(c, a, dst) : gsx_reals(c, a, dst, v->n, v->n, NULL);
  }
  return GSX_UNUSED;
}

static int visual_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  const char* name = gsx_name(ch);
  static const char* const kKids[] = {"global", "quality", "headlight", "map", "scale", "rgba"};
  for (int i = 0; i < 6; i++)
    if (strcmp(name, kKids[i]) == 0)
      return gsx_checkAttrs(c, ch, src, name, 0) &&
             gsx_applyOwn(c, ch, src, name, set_visual, &c->spec->visual, NULL) &&
             gsx_checkChildren(c, ch, src, name);
  return gsx_childError(c, ch, src, "visual");
}

static int set_statistic(gsxCtx* c, void* obj, const gsxAt* a) {
  gsSpecStatistic* s = obj;
  static const char* const kNames[] = {"meaninertia", "meanmass", "meansize", "extent"};
  gsReal* kDst[] = {&s->meaninertia, &s->meanmass, &s->meansize, &s->extent};
  for (int i = 0; i < 4; i++)
    if (IS(kNames[i])) {
      gsReal v;
      if (!gsx_real(c, a, &v)) return GSX_ERR;
      if (!(v > 0)) return gsx_attrError(c, a, "must be positive");
      *kDst[i] = v;
      s->given |= 1 << i;
      return GSX_OK;
    }
  if (IS("center")) {
    if (!gsx_reals(c, a, s->center, 3, 3, NULL)) return GSX_ERR;
    s->given |= GS_STAT_CENTER;
    return GSX_OK;
  }
  return GSX_UNUSED;
}

/* ---- sections ---- */

int gsx_readWorldSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  const char* name = gsx_name(node);
  if (!c->spec->modeldir && c->nfile > 0) {
    /* asset files are found relative to the main model file */
    c->spec->modeldir = gs_specIntern(c->spec, c->files[0]->dir);
    if (!c->spec->modeldir) return gsx_oom(c);
  }
  if (strcmp(name, "asset") == 0)
    return gsx_checkAttrs(c, node, src, name, 0) && gsx_eachChild(c, node, src, asset_child, NULL);
  if (strcmp(name, "contact") == 0)
    return gsx_checkAttrs(c, node, src, name, 0) && gsx_eachChild(c, node, src, contact_child, NULL);
  if (strcmp(name, "visual") == 0)
    return gsx_checkAttrs(c, node, src, name, 0) && gsx_eachChild(c, node, src, visual_child, NULL);
  if (strcmp(name, "statistic") == 0)
    return gsx_checkAttrs(c, node, src, name, 0) &&
           gsx_applyOwn(c, node, src, name, set_statistic, &c->spec->statistic, NULL) &&
           gsx_checkChildren(c, node, src, name);
  return -1;
}

/* ---- defaults ---- */

int gsx_checkDefaultWorld(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  const char* kind = gsx_name(node);
  const char* allowed = NULL;
  for (size_t i = 0; i < NELEM(kDefaultAttrs); i++)
    if (strcmp(kDefaultAttrs[i].element, kind) == 0) allowed = kDefaultAttrs[i].attrs;
  if (!allowed) return -1;
  if (!gsx_checkAttrs(c, node, src, kind, 1)) return 0;
  for (xmlAttrPtr at = node->properties; at; at = at->next)
    if (gsx_isMjcfAttr(at) && !gsx_inList(allowed, (const char*)at->name))
      return gsx_error(c, src->name, gsx_line(node), kind,
                       "attribute '%s' is not allowed in <default>", (const char*)at->name);
  /* check the values now, where the line is known, on a scratch element */
  gsSpec* scratch = gs_specNew();
  if (!scratch) return gsx_oom(c);
  int ok;
  if (strcmp(kind, "camera") == 0) {
    gsSpecCamera* cam = gs_specAddCamera(scratch->world);
    ok = cam && gsx_applyOwn(c, node, src, kind, set_camera, cam, NULL) &&
         camera_own_rules(c, node, src);
  } else if (strcmp(kind, "light") == 0) {
    gsSpecLight* l = gs_specAddLight(scratch->world);
    ok = l && light_own_rules(c, node, src) && gsx_applyOwn(c, node, src, kind, set_light, l, NULL);
  } else if (strcmp(kind, "mesh") == 0) {
    gsSpecMesh* m = gs_specAddMesh(scratch);
    ok = m && gsx_applyOwn(c, node, src, kind, set_mesh, m, NULL);
  } else if (strcmp(kind, "material") == 0) {
    gsSpecMaterial* m = gs_specAddMaterial(scratch);
    ok = m && gsx_applyOwn(c, node, src, kind, set_material, m, NULL);
  } else {
    gsSpecPair* p = gs_specAddPair(scratch);
    ok = p && gsx_applyOwn(c, node, src, kind, set_pair, p, NULL);
  }
  if (!ok && !c->failed) gsx_oom(c);
  gs_specFree(scratch);
  return ok;
}
