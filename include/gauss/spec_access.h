/* Access to a spec's elements by attribute name, for bindings (the Python spec API, which reads and
 * writes the element structs through these tables instead of repeating their layout), and the
 * editing a tree needs beyond adding: deleting elements, setting owned arrays and asset contents.
 * Included by gauss.h. */
#ifndef GAUSS_SPEC_ACCESS_H
#define GAUSS_SPEC_ACCESS_H

#include <stddef.h>

#include "export.h"
#include "spec.h"

/* the kinds of spec elements (and the spec's own settings) */
typedef enum {
  GS_SK_SPEC = 0,    /* the gsSpec itself: model name, <size>, asset directories */
  GS_SK_COMPILER,    /* gsCompilerOptions */
  GS_SK_STATISTIC,   /* gsSpecStatistic */
  GS_SK_VISUAL,      /* gsSpecVisual */
  GS_SK_BODY, GS_SK_JOINT, GS_SK_GEOM, GS_SK_SITE, GS_SK_CAMERA, GS_SK_LIGHT,
  GS_SK_TENDON, GS_SK_WRAP, GS_SK_ACTUATOR, GS_SK_SENSOR, GS_SK_EQUALITY, GS_SK_KEY,
  GS_SK_NUMERIC, GS_SK_TEXT, GS_SK_TUPLE, GS_SK_TUPLEELEMENT,
  GS_SK_MESH, GS_SK_HFIELD, GS_SK_TEXTURE, GS_SK_MATERIAL, GS_SK_PAIR, GS_SK_EXCLUDE,
  GS_SK_FRAME,       /* gsSpecFrame, held by bodies */
  GS_NSPECKIND
} gsSpecKind;

/* how an attribute is stored */
typedef enum {
  GS_SA_REAL = 0,  /* count gsReal */
  GS_SA_INT,       /* count int */
  GS_SA_LLONG,     /* one long long */
  GS_SA_STRING,    /* count owned char* (set with gs_specSetString; NULL: not given) */
  GS_SA_POOL,      /* one const char* of the spec's string pool (set with gs_specIntern) */
  GS_SA_CHARS,     /* a NUL-terminated char array of count bytes */
  GS_SA_REALVEC,   /* an owned gsReal* with its length (an int at lenoff) in items of count values
                      (set with gs_specSetReals) */
  GS_SA_INTVEC,    /* the same of int (gs_specSetInts) */
  GS_SA_ASSETREF,  /* a geom's or site's asset reference (gsSpecAssetRef, kept in its body):
                      count says which: 0 material, 1 mesh, 2 hfield */
  GS_SA_BLOB       /* a gsSpecBlob: an asset file's contents (gs_specSetBlob) */
} gsSpecAttrType;

typedef struct {
  const char* name;  /* MuJoCo's name for it where MuJoCo has one */
  int type;          /* gsSpecAttrType */
  int count;         /* values (REAL, INT, STRING), bytes (CHARS), values per item (vectors) */
  size_t offset;     /* in the element's struct */
  long lenoff;       /* vectors: offset of the item count; -1 otherwise */
  /* writing the attribute also writes up to two int members: flag[k] at flagoff[k] (-1: none),
   * or'ed in when flagor[k], else assigned (e.g. an orientation's type, "range was given") */
  long flagoff[2];
  int flagval[2];
  int flagor[2];
} gsSpecAttr;

/* the attributes of an element kind; NULL (n = 0) for an unknown kind */
GS_API const gsSpecAttr* gs_specAttrs(int kind, int* n);
/* size of the element's struct */
GS_API size_t gs_specKindSize(int kind);

/* replace an owned array (*dst freed first) by a copy of n items of per values; 0 when out of
 * memory; n = 0 leaves NULL */
GS_API int gs_specSetReals(gsReal** dst, int* ndst, const gsReal* src, int n, int per);
GS_API int gs_specSetInts(int** dst, int* ndst, const int* src, int n, int per);
/* replace an asset's contents (copied; NULL or n = 0 empties it, and the compiler then reads the
 * element's path) */
GS_API int gs_specSetBlob(gsSpecBlob* blob, const void* bytes, size_t n);

/* the spec's physics options; its settings of kind GS_SK_SPEC (the spec itself), GS_SK_COMPILER,
 * GS_SK_STATISTIC or GS_SK_VISUAL (NULL for other kinds) */
GS_API gsOption* gs_specOption(gsSpec* spec);
GS_API void* gs_specSettings(gsSpec* spec, int kind);
/* the world body */
GS_API gsSpecBody* gs_specWorld(gsSpec* spec);

/* the elements of `kind` that `parent` (of parentkind) holds, in order: a body's bodies, joints,
 * geoms, sites, cameras, lights and frames; the spec's (parent = the gsSpec, GS_SK_SPEC) tendons,
 * actuators, sensors, equalities, keys, numerics, texts, tuples, meshes, hfields, textures,
 * materials, pairs and excludes; a tendon's wraps, a tuple's elements. *n gets the count; returns
 * element i (NULL when out of range or when parent holds no such kind). */
GS_API void* gs_specChild(void* parent, int parentkind, int kind, int i, int* n);

/* a new frame of body, written in `frame` (one of body's; NULL: directly in the body), with
 * identity pose and not yet placed (gsSpecFrame); NULL when out of memory or when frame is not
 * one of body's */
GS_API gsSpecFrame* gs_specAddFrame(gsSpecBody* body, gsSpecFrame* frame);
/* the frame's pose in its body: its placed pose, else its pos/quat composed with its enclosing
 * frames' */
GS_API void gs_specFrameBodyPose(const gsSpecFrame* frame, gsReal pos[3], gsReal quat[4]);

/* elements written in <frame>s, for bindings that give their poses in the frame as MuJoCo's
 * spec does (src/model/spec_frame.c): the pose of the frames an element's pose is held in (a
 * body's in its parent; a joint's, geom's, site's, camera's or light's in its body), 1 when it is
 * in a frame (gs_specFramePose); the orientation just written into a body, geom, site or camera
 * (any form, meant in its frame) made its quaternion outside the frame (gs_specFramedOrient, 0
 * with the reason in err) */
GS_API int gs_specFramePose(int kind, const void* element, gsReal pos[3], gsReal quat[4]);
GS_API int gs_specFramedOrient(gsSpec* spec, int kind, void* element, char* err, int errsz);
/* the fromto just written into a geom or site in a frame (meant in the frame, as MuJoCo's spec
 * takes it) made the pose and size it stands for, placed by the frame (gs_specFramedFromto); a
 * frame of body given a new pose (pos, quat: in its enclosing frame), what it holds (its
 * elements, bodies and frames, at any depth) moving with it, as MuJoCo compiles a frame's pose
 * edited through its spec (gs_specSetFramePose). Both 0 with the reason in err. */
GS_API int gs_specFramedFromto(gsSpec* spec, int kind, void* element, char* err, int errsz);
/* the frame a body (of its parent's), joint, geom, site, camera, light or frame is written in;
 * NULL: none */
GS_API gsSpecFrame* gs_specFrameOf(int kind, const void* element);
/* a body (in one of its parent's frames), joint, geom, site, camera, light or frame put in
 * `frame`, one of its body's (NULL: directly in the body), its pose in its frame kept as it reads,
 * so that it moves with the frame (MuJoCo's element.set_frame); the frame and those enclosing it
 * keep their pose in the body from then on, as after an attach (a frame that placed nothing yet
 * still follows its enclosing ones); a frame moved after its new enclosing one in the body's list,
 * with the frames it holds. 0 with the reason in err: a frame of another body (which MuJoCo
 * refuses too), a frame put in itself or in one it holds. */
GS_API int gs_specSetFrame(gsSpec* spec, int kind, void* element, gsSpecFrame* frame, char* err, int errsz);
GS_API int gs_specSetFramePose(gsSpec* spec, gsSpecBody* body, gsSpecFrame* frame, const gsReal pos[3],
                               const gsReal quat[4], char* err, int errsz);

/* a deep copy of the spec (MuJoCo's spec.copy()); NULL when out of memory */
GS_API gsSpec* gs_specCopy(const gsSpec* spec);

/* remove an element from the spec and free it (a body with its whole subtree); 1 when found and
 * removed, 0 when the element is not in the spec (then nothing changes). The world body cannot be
 * deleted. */
GS_API int gs_specDelete(gsSpec* spec, int kind, void* element);

/* the parent body of a body, joint, geom, site, camera, light or frame; NULL for the world or when not
 * found */
GS_API gsSpecBody* gs_specParent(gsSpec* spec, int kind, const void* element);

/* parse MJCF into a spec without compiling: from a file (path) or text (xml), exactly one given;
 * vfs may be NULL; flags as gs_loadXMLOpt's. NULL on error, with the message in err. */
struct gsVFS;
GS_API gsSpec* gs_parseXMLOpt(const char* path, const char* xml, const struct gsVFS* vfs,
                              int flags, char* err, int errsz);

#endif
