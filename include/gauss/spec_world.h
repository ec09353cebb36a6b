/* Spec elements of the world slice: cameras and lights (in bodies), assets (mesh, hfield, texture, material), contact pairs and exclusions, visual and statistic. Included by spec.h. */
#ifndef GAUSS_SPEC_WORLD_H
#define GAUSS_SPEC_WORLD_H

#include "export.h"

/* tracking mode of cameras and lights, numbered as MJCF's */
typedef enum {
  GS_CAMLIGHT_FIXED = 0, GS_CAMLIGHT_TRACK, GS_CAMLIGHT_TRACKCOM, GS_CAMLIGHT_TARGETBODY,
  GS_CAMLIGHT_TARGETBODYCOM
} gsCamLight;

typedef enum { GS_LIGHT_SPOT = 0, GS_LIGHT_DIRECTIONAL, GS_LIGHT_POINT, GS_LIGHT_IMAGE } gsLightType;
typedef enum { GS_TEXTURE_2D = 0, GS_TEXTURE_CUBE, GS_TEXTURE_SKYBOX } gsTextureType;
typedef enum { GS_COLORSPACE_AUTO = 0, GS_COLORSPACE_LINEAR, GS_COLORSPACE_SRGB } gsColorSpace;
typedef enum { GS_BUILTIN_NONE = 0, GS_BUILTIN_GRADIENT, GS_BUILTIN_CHECKER, GS_BUILTIN_FLAT } gsBuiltin;
typedef enum { GS_MARK_NONE = 0, GS_MARK_EDGE, GS_MARK_CROSS, GS_MARK_RANDOM } gsMark;
typedef enum { GS_MESHINERTIA_CONVEX = 0, GS_MESHINERTIA_EXACT, GS_MESHINERTIA_LEGACY, GS_MESHINERTIA_SHELL } gsMeshInertia;

/* roles of a material's textures (mat_texid columns), numbered as MJCF's */
typedef enum {
  GS_TEXROLE_USER = 0, GS_TEXROLE_RGB, GS_TEXROLE_OCCLUSION, GS_TEXROLE_ROUGHNESS,
  GS_TEXROLE_METALLIC, GS_TEXROLE_NORMAL, GS_TEXROLE_OPACITY, GS_TEXROLE_EMISSIVE,
  GS_TEXROLE_RGBA, GS_TEXROLE_ORM  /* GS_NTEXROLE roles in all (fields_world.h) */
} gsTextureRole;

/* camera attributes that were written (the element or its class): pixel values of the focal
 * length and principal point take precedence over lengths */
enum {
  GS_CAM_FOVY = 1 << 0, GS_CAM_SENSORSIZE = 1 << 1, GS_CAM_RESOLUTION = 1 << 2,
  GS_CAM_FOCAL = 1 << 3, GS_CAM_FOCALPIXEL = 1 << 4, GS_CAM_PRINCIPAL = 1 << 5,
  GS_CAM_PRINCIPALPIXEL = 1 << 6
};

/* the contents of an asset file, read by the MJCF reader (from its in-memory files or the disk);
 * empty in a spec built by hand, where the compiler reads the file at `path` itself */
typedef struct {
  unsigned char* bytes;     /* owned, NULL when not read */
  size_t n;
} gsSpecBlob;

typedef struct gsSpecCamera {
  gsSpecInfo info;
  int mode;                 /* gsCamLight */
  char* target;             /* target body name (owned), NULL when none */
  gsReal pos[3];
  gsOrientation orient;
  int orthographic;
  gsReal fovy;              /* degrees (a length when orthographic), whatever compiler.angle says */
  gsReal ipd;
  int resolution[2];
  gsReal sensorsize[2];     /* both positive: the intrinsics below replace fovy */
  gsReal focal[2];
  gsReal focalpixel[2];
  gsReal principal[2];
  gsReal principalpixel[2];
  int given;                /* GS_CAM_FOCAL... bits: which intrinsics were written */
  int nuser;
  gsReal* user;             /* owned */
  struct gsSpecFrame* frame;  /* the <frame> it is written in (NULL: none); its pose holds the frame's */
} gsSpecCamera;

typedef struct gsSpecLight {
  gsSpecInfo info;
  int mode;                 /* gsCamLight */
  char* target;             /* owned, NULL when none */
  int type;                 /* gsLightType */
  char* texture;            /* texture name for image lights (owned), NULL when none */
  gsReal pos[3];
  gsReal dir[3];
  int castshadow;
  int active;
  gsReal bulbradius;
  gsReal intensity;
  gsReal range;
  gsReal attenuation[3];
  gsReal cutoff;            /* degrees, whatever compiler.angle says */
  gsReal exponent;
  gsReal ambient[3];
  gsReal diffuse[3];
  gsReal specular[3];
  struct gsSpecFrame* frame;  /* the <frame> it is written in (NULL: none); its pose holds the frame's */
} gsSpecLight;

/* a <frame> of a body. A spec places what is written in a frame when it is read or attached (its
 * contents hold poses in the body), so the frame keeps its name, where it is written (its enclosing
 * frame), its own pose as written (pos, quat: in the enclosing frame, MuJoCo's meaning) and its
 * pose in the body (bpos, bquat: the enclosing frames composed, as its contents were placed).
 * A frame made by gs_specAddFrame has `placed` 0 until something is placed in it (an attach): its
 * pose in the body then follows pos/quat; once placed, its pose is that of its contents and no
 * longer changes alone. */
typedef struct gsSpecFrame {
  gsSpecInfo info;
  struct gsSpecFrame* frame;  /* the enclosing frame, in the same body; NULL: directly in the body */
  gsReal pos[3];
  gsReal quat[4];
  int placed;
  gsReal bpos[3];
  gsReal bquat[4];
} gsSpecFrame;

typedef struct gsSpecTexture {
  gsSpecInfo info;
  int type;                 /* gsTextureType */
  int colorspace;           /* gsColorSpace */
  int builtin;              /* gsBuiltin */
  int mark;                 /* gsMark */
  gsReal rgb1[3];
  gsReal rgb2[3];
  gsReal markrgb[3];
  gsReal random;
  int width;
  int height;
  int nchannel;
  char* content_type;       /* owned strings, NULL when absent */
  char* file;               /* as written */
  char* path;               /* file resolved against the model directory and texturedir */
  gsSpecBlob data;          /* contents of file */
  int gridsize[2];
  char gridlayout[13];
  char* cubefiles[6];       /* right left up down front back, as written */
  char* cubepaths[6];       /* resolved like path */
  gsSpecBlob cubedata[6];
  int hflip;
  int vflip;
  int unreadable;           /* the reader could not read or decode its file(s): compiled without
                             * pixels, drawn untextured (a load warning says so) */
} gsSpecTexture;

typedef struct gsSpecMaterial {
  gsSpecInfo info;
  char* texture[GS_NTEXROLE]; /* texture names by role (owned), NULL when none */
  int texuniform;
  gsReal texrepeat[2];
  gsReal emission;
  gsReal specular;
  gsReal shininess;
  gsReal reflectance;
  gsReal metallic;
  gsReal roughness;
  gsReal rgba[4];
} gsSpecMaterial;

/* a mesh asset: attributes and inline data; loading files belongs to the collision stage */
typedef struct gsSpecMesh {
  gsSpecInfo info;
  char* content_type;       /* owned strings, NULL when absent */
  char* file;
  char* path;               /* file resolved against the model directory and meshdir */
  gsSpecBlob data;          /* contents of file (not decoded yet) */
  char* material;
  char* builtin;
  gsReal refpos[3];
  gsReal refquat[4];
  gsReal scale[3];
  int inertia;              /* gsMeshInertia */
  int smoothnormal;
  int maxhullvert;
  int nvert;    gsReal* vert;      /* 3 per vertex */
  int nnormal;  gsReal* normal;    /* 3 per normal */
  int ntexcoord; gsReal* texcoord; /* 2 per vertex */
  int nface;    int* face;         /* 3 per face */
  int nparams;  gsReal* params;
} gsSpecMesh;

typedef struct gsSpecHField {
  gsSpecInfo info;
  char* content_type;       /* owned, NULL when absent */
  char* file;
  char* path;               /* file resolved against the model directory and meshdir */
  gsSpecBlob data;          /* contents of file */
  gsReal size[4];           /* radius x, radius y, elevation z, base z */
  int nrow;
  int ncol;
  int nelevation;
  gsReal* elevation;        /* nrow*ncol values as written (first row first), owned */
} gsSpecHField;

typedef struct gsSpecPair {
  gsSpecInfo info;
  char* geom1;              /* owned */
  char* geom2;
  int condim;
  gsReal friction[5];
  gsReal solref[GS_NREF];
  gsReal solreffriction[GS_NREF];
  gsReal solimp[GS_NIMP];
  gsReal margin;
  gsReal gap;
} gsSpecPair;

typedef struct gsSpecExclude {
  gsSpecInfo info;
  char* body1;              /* owned */
  char* body2;
} gsSpecExclude;

/* the asset references of a geom or site of the body (geoms and sites are core elements): kept
 * beside them, found by the element's address */
typedef struct gsSpecAssetRef {
  const void* owner;        /* the gsSpecGeom or gsSpecSite */
  char* material;           /* owned, NULL when absent */
  char* mesh;
  char* hfield;
} gsSpecAssetRef;

/* <visual>: appearance only, kept for tools; numbered like MJCF's attributes */
typedef struct {
  /* global */
  int cameraid, orthographic, offwidth, offheight, ellipsoidinertia, bvactive;
  gsReal fovy, ipd, azimuth, elevation, linewidth, glow, realtime;
  /* quality */
  int shadowsize, offsamples, numslices, numstacks, numquads;
  /* headlight */
  gsReal headlight_ambient[3], headlight_diffuse[3], headlight_specular[3];
  int headlight_active;
  /* map */
  gsReal map_stiffness, map_stiffnessrot, map_force, map_torque, map_alpha, map_fogstart,
      map_fogend, map_znear, map_zfar, map_haze, map_shadowclip, map_shadowscale,
      map_actuatortendon;
  /* scale */
  gsReal scale_forcewidth, scale_contactwidth, scale_contactheight, scale_connect, scale_com,
      scale_camera, scale_light, scale_selectpoint, scale_jointlength, scale_jointwidth,
      scale_actuatorlength, scale_actuatorwidth, scale_framelength, scale_framewidth,
      scale_constraint, scale_slidercrank, scale_frustum;
  /* rgba */
  gsReal rgba_fog[4], rgba_haze[4], rgba_force[4], rgba_inertia[4], rgba_joint[4],
      rgba_actuator[4], rgba_actuatornegative[4], rgba_actuatorpositive[4], rgba_com[4],
      rgba_camera[4], rgba_light[4], rgba_selectpoint[4], rgba_connect[4], rgba_contactpoint[4],
      rgba_contactforce[4], rgba_contactfriction[4], rgba_contacttorque[4], rgba_contactgap[4],
      rgba_rangefinder[4], rgba_constraint[4], rgba_slidercrank[4], rgba_crankbroken[4],
      rgba_frustum[4], rgba_bv[4], rgba_bvactive[4];
} gsSpecVisual;

/* <statistic>: values given by the model; the rest MJCF computes at qpos0 */
enum {
  GS_STAT_MEANINERTIA = 1 << 0, GS_STAT_MEANMASS = 1 << 1, GS_STAT_MEANSIZE = 1 << 2,
  GS_STAT_EXTENT = 1 << 3, GS_STAT_CENTER = 1 << 4
};
typedef struct {
  int given;                /* GS_STAT_* bits */
  gsReal meaninertia, meanmass, meansize, extent, center[3];
} gsSpecStatistic;

/* members added to gsSpecBody */
#define GS_SPECBODY_WORLD                                                                          \
  int ncamera, ncamera_cap;   gsSpecCamera** camera;                                               \
  int nlight, nlight_cap;     gsSpecLight** light;                                                 \
  int nassetref, nassetref_cap; gsSpecAssetRef** assetref;                                       \
  /* the <frame>s written in the body, enclosing ones first (their children are the body's,     \
   * placed by them): a copy of the body's subtree brings them along; each name is also in the   \
   * spec's framename */                                                                         \
  int nframe, nframe_cap;     gsSpecFrame** frame;

/* members added to gsSpec */
#define GS_SPEC_WORLD                                                                              \
  int nmesh, nmesh_cap;       gsSpecMesh** mesh;                                                   \
  int nhfield, nhfield_cap;   gsSpecHField** hfield;                                               \
  int ntexture, ntexture_cap; gsSpecTexture** texture;                                             \
  int nmaterial, nmaterial_cap; gsSpecMaterial** material;                                         \
  int npair, npair_cap;       gsSpecPair** pair;                                                   \
  int nexclude, nexclude_cap; gsSpecExclude** exclude;                                             \
  int nframename, nframename_cap; char** framename; /* names of <frame> elements (unique) */      \
  const char* modeldir;       /* directory of the model file (pool string), for asset files */      \
  gsSpecVisual visual;                                                                             \
  gsSpecStatistic statistic;

/* creation with MJCF's defaults (spec_world.c); NULL only when out of memory */
GS_API gsSpecCamera* gs_specAddCamera(gsSpecBody* body);
GS_API gsSpecLight* gs_specAddLight(gsSpecBody* body);
GS_API gsSpecMesh* gs_specAddMesh(gsSpec* spec);
GS_API gsSpecHField* gs_specAddHField(gsSpec* spec);
GS_API gsSpecTexture* gs_specAddTexture(gsSpec* spec);
GS_API gsSpecMaterial* gs_specAddMaterial(gsSpec* spec);
GS_API gsSpecPair* gs_specAddPair(gsSpec* spec);
GS_API gsSpecExclude* gs_specAddExclude(gsSpec* spec);
/* the asset references of a geom or site of body, created on first use */
GS_API gsSpecAssetRef* gs_specAssetRef(gsSpecBody* body, const void* owner);
/* the references of owner, NULL when it has none */
GS_API const gsSpecAssetRef* gs_specFindAssetRef(const gsSpecBody* body, const void* owner);
/* MJCF's default <visual> values */
GS_API void gs_defaultVisual(gsSpecVisual* v);

#endif
