/* Internal interface of the renderer (src/render): the GL context, the geometry of the model, the
 * scene snapshot and the drawing; the public API is include/gauss/render.h. */
#ifndef GAUSS_RENDER_RENDERER_H
#define GAUSS_RENDER_RENDERER_H

#include "gauss/render.h"
#include "render/gl_funcs.h"

/* ---- GL context (gl_context.c): headless EGL, else OSMesa, both opened at run time ---- */
enum { GSR_BACKEND_EGL = 1, GSR_BACKEND_OSMESA = 2 };

typedef struct {
  int backend;
  void* lib;            /* dlopen handle of libEGL or libOSMesa */
  void* display;        /* EGLDisplay */
  void* context;        /* EGLContext or OSMesaContext */
  void* surface;        /* EGLSurface: a 1x1 pbuffer where surfaceless contexts are refused */
  unsigned char* osbuf; /* OSMesa's (unused) window buffer */
  void* (*getproc)(const char*);
  int (*makecurrent)(void*, void*, void*, void*);
} gsrContext;

int gsr_contextMake(gsrContext* c, char* err, int errsz);
int gsr_contextCurrent(gsrContext* c);
/* leave the thread without the renderer's context (before another API's, GLX, is made current:
 * a thread holds one at a time) */
void gsr_contextRelease(gsrContext* c);
void gsr_contextFree(gsrContext* c);
int gsr_loadGL(gsrContext* c, gsrGL* gl, char* err, int errsz);

/* ---- geometry (geometry.c): vertex buffers of unit primitives, meshes and height fields ---- */
/* vertices are 8 floats: position, normal, texture coordinates */
#define GSR_VSTRIDE 8

typedef struct {
  int first, count;  /* range of indices (of vertices) in the shared buffers, drawn as triangles */
} gsrShape;

enum {  /* unit primitives in the shared buffer */
  GSR_PRIM_SPHERE = 0,  /* unit sphere */
  GSR_PRIM_CYLSIDE,     /* side of the cylinder of radius 1 from z = -1 to 1 */
  GSR_PRIM_DISKTOP,     /* disk of radius 1 at z = 1 facing +z */
  GSR_PRIM_DISKBOT,     /* disk of radius 1 at z = -1 facing -z */
  GSR_PRIM_HEMITOP,     /* upper half of the unit sphere */
  GSR_PRIM_HEMIBOT,     /* lower half */
  GSR_PRIM_BOX,         /* cube [-1 1]^3 */
  GSR_PRIM_QUAD,        /* square [-1 1]^2 at z = 0 facing +z, in a grid of quads */
  GSR_NPRIM
};

typedef struct {
  float* v;      /* vertices, GSR_VSTRIDE floats each */
  int nv, cap;
  unsigned* index;  /* triangles: 3 vertex indices each; equal vertices are shared (built last) */
  int nindex;
  gsrShape prim[GSR_NPRIM];
  gsrShape* mesh;    /* per mesh */
  gsrShape* hfield;  /* per height field */
} gsrGeometry;

int gsr_buildGeometry(gsrGeometry* g, const gsModel* m, int nslice, int nstack);
void gsr_freeGeometry(gsrGeometry* g);

/* ---- scene (scene.c): what one frame draws, copied from the data by gs_updateScene ---- */
typedef struct {
  int type;        /* gsGeomType, for the choice of shapes */
  int dataid;      /* mesh or height field */
  int objtype, objid;
  float size[3];
  float pos[3];
  float mat[9];    /* row-major rotation, world from object */
  float rgba[4];
  float specular, shininess, emission, reflectance;
  int plane_grid;  /* draw the plane's grid */
  /* the material's builtin texture (made in the shader): gsBuiltin, gsMark, colours, texels per
   * repetition, repetitions (per unit length when uniform) */
  int texbuiltin, texmark, texuniform;
  float rgb1[3], rgb2[3], markrgb[3], texrandom, texwidth, texrepeat[2];
  /* the material's texture read from an image file: its id, -1 none; a cube map or 2d */
  int image, imagecube;
  int drawn;       /* drawn already this frame (a reflecting plane with its mirror image) */
} gsrGeom;

#define GSR_MAXLIGHT 8
#define GSR_MAXSHADOW 4      /* lights that cast shadows at once (texture units 3 to 6) */

typedef struct {
  float pos[3], dir[3];
  float ambient[3], diffuse[3], specular[3];
  float attenuation[3];
  float cutoff, exponent;
  int directional, headlight, castshadow;
} gsrLight;

typedef struct {
  gsrGeom* geom;
  int ngeom, maxgeom;
  gsrLight light[GSR_MAXLIGHT];
  int nlight;
  /* camera: position, orientation (columns: right, up, backward), frustum at the near plane */
  double campos[3], cammat[9];
  double znear, zfar, fovy;
  int orthographic;
  double extent;
  int skybox;      /* texture drawn around the camera, -1: none */
} gsrScene;

void gsr_cameraPose(const gsModel* m, const gsData* d, int camid, double pos[3], double mat[9]);

typedef struct {
  unsigned prog;
  int u_proj, u_view, u_model, u_normal, u_mode, u_rgba, u_segcolor, u_spec, u_shine, u_emis,
      u_nlight, u_lpos, u_ldir, u_lamb, u_ldif, u_lspec, u_latt, u_lcut, u_lexp, u_ldirectional,
      u_grid, u_size, u_campos, u_fog, u_fogrgb, u_tex, u_texrgb1, u_texrgb2, u_texmarkrgb, u_texparam,
      u_texrepeat, u_twosided, u_shadowmat, u_shadowslot, u_nshadow, u_shadowmap, u_img, u_image, u_cube, u_ext, u_scale, u_clip;
} gsrProgram;

struct gsRenderer {
  const gsModel* m;
  int width, height;
  gsrContext ctx;
  gsrGL gl;
  gsrGeometry geom;
  gsrScene scene;
  gsRenderOption opt;
  /* GL objects */
  unsigned fbo, rb_color, rb_depthval, rb_depth, vbo, ibo, vao;
  unsigned fbo_ms, rb_ms_color, rb_ms_depth;  /* multisampled colour images, resolved into fbo */
  int samples;
  /* shadow maps: the depth seen from each light that casts shadows (up to GSR_MAXSHADOW; the
   * programs have room for nshadowprog of them, the model's count) */
  unsigned fbo_shadow[GSR_MAXSHADOW], tex_shadow[GSR_MAXSHADOW];
  int shadowsize;                    /* pixels of a map's side (<quality shadowsize>) */
  int nshadowprog;
  int nshadow;                       /* shadows this frame */
  int shadowslot[GSR_MAXLIGHT];      /* per scene light: its shadow map, -1 none */
  float shadowmat[GSR_MAXSHADOW][16];  /* world to a shadow map's texture coordinates and depth */
  /* the mirror pass of a reflecting plane: its unit normal and offset (n.x = off), and the
   * reflection through it that model matrices are multiplied with while `mirrored` */
  int mirrored;
  float mirror_n[3], mirror_off, mirror[16];
  /* programs: lit colour (with textures or not), the skybox, and flat (segmentation colour and
   * depth, a much cheaper pixel) */
  gsrProgram lit, littex, sky, flat;
  const gsrProgram* u;  /* the one in use */
  unsigned* texture;    /* per model texture: its GL texture when read from a file, else 0 */
  char backend[16];
};

int gsr_setupGL(gsRenderer* r, char* err, int errsz);
/* the textures read from image files as GL textures (textures.c): 2d on unit 1, cube maps on 2 */
int gsr_uploadTextures(gsRenderer* r);
void gsr_freeTextures(gsRenderer* r);
/* text into an RGB image (font.c): from pixel (x, y), dots of s pixels; the y below it */
int gsr_drawText(unsigned char* rgb, int w, int h, int x, int y, int s, const char* text);
void gsr_freeGL(gsRenderer* r);
int gsr_draw(gsRenderer* r, int mode);

#endif
