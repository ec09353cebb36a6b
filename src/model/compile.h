/* Internal interface of the compiler, shared by its slices (compile_world.c, compile_actuation.c,
 * compile_sensing.c): the context, error reporting, names, angles and orientations (compile_util.c,
 * which the slices call, never compiler.c). */
#ifndef GAUSS_MODEL_COMPILE_H
#define GAUSS_MODEL_COMPILE_H

#include "gauss/gauss.h"

typedef struct {
  const gsSpec* spec;
  char* err;
  int errsz;
  int failed;
  /* the tree flattened depth-first, pre-order: body i of the model is body[i] */
  int nbody;
  const gsSpecBody** body;
  int nameadr;            /* next free byte of m->names */
  /* the spec's meshes, decoded and processed (model/mesh.h), in the spec's order */
  int nmesh;
  struct gsMeshBuild* mesh;
  struct gsMeshStore* store;  /* meshes carried from one compile of a spec to the next; NULL: none */
  int skip_moving;  /* leave MJCF's moving-body mass rule, and where free joints may be, to
                       another compile of the same spec (the fused tree) */
} gsCompileCtx;

/* meshes built by one compile, by name, for a later compile of a copy of the same spec
 * (compile_discard.c compiles twice): an empty store takes the meshes a compile built, a filled
 * one gives them to the next compile (compile_mesh.c) */
typedef struct gsMeshStore {
  int filled;               /* a compile has left its meshes here */
  int n;
  struct gsMeshBuild* mesh;
  char** name;              /* owned; NULL: taken or unnamed */
} gsMeshStore;
void gs_compileMeshStoreFree(gsMeshStore* store);

/* error "file:line: <kind> 'name': message"; the first one is kept; returns 0 */
int gs_compileFail(gsCompileCtx* c, const gsSpecInfo* info, const char* kind, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* bytes the element's name takes in m->names, and writing it there (returns its address) */
size_t gs_compileNameBytes(const gsSpecInfo* info);
int gs_compileName(gsCompileCtx* c, gsModel* m, const gsSpecInfo* info);
/* a value MJCF keeps in single precision (colours, camera and light parameters): the same float,
 * saturated at float's largest magnitude rather than made infinite */
gsReal gs_compileFloat(gsReal v);
/* id of the object of type `type` named `name`, -1 when absent or unnamed; the world body is
 * "world", as in MJCF */
int gs_compileObjectId(const gsModel* m, int type, const char* name);
/* the pixels of a texture read from image files, width x height x nch bytes into out, in MJCF's
 * layout (compile_texture.c); 0 after an error */
int gs_compileTexturePixels(gsCompileCtx* c, const gsSpecTexture* t, int width, int height, int nch,
                            unsigned char* out);
/* an angle in the compiler's unit, in radians */
gsReal gs_compileRadian(const gsCompileCtx* c, gsReal angle);
/* the unit quaternion of an orientation in any of its forms; 0 after an error */
int gs_compileOrientation(gsCompileCtx* c, gsReal q[4], const gsOrientation* o,
                          const gsSpecInfo* info, const char* kind);
/* the same outside a compile (spec editing, attach): in the spec's angle unit and euler
 * sequence, an error written to err */
int gs_specOrientation(gsSpec* spec, gsReal q[4], const gsOrientation* o, const gsSpecInfo* info,
                       const char* kind, char* err, int errsz);
/* the smallest rotation taking the z axis to vec, normalising by division as MuJoCo's compiler
 * does (a fromto's direction, zaxis=) */
void gs_compileQuatZ2Vec(gsReal q[4], const gsReal vec[3]);
/* a geom's or site's fromto segment (when *has) made the pose and size it stands for (capsules,
 * cylinders, boxes, ellipsoids; *has then 0), so that a frame can move it like any pose; the
 * cases the compiler rejects are left to it */
void gs_fromtoPose(int type, gsReal size[3], gsReal pos[3], gsOrientation* o, int* has, const gsReal ft[6]);
/* fromto stands for a pose and size on this type (capsule, cylinder, box, ellipsoid); a fromto
 * given (has) on such a type with a nonzero pos beside it, which MJCF refuses ("both pos and
 * fromto defined", as MuJoCo's compiler says; a zero pos is taken as not given) */
int gs_fromtoReduces(int type);
int gs_fromtoPosClash(int type, int has, const gsReal pos[3]);
/* a frame and those enclosing it keep their present pose in the body from now on (placed), as
 * when something is placed by them (spec_frame.c) */
void gs_specPlaceFrame(gsSpecFrame* f);

/* The slices, called in this order: world, actuation, sensing (later ones may refer to objects of
 * earlier ones). Each returns 0 after reporting an error.
 *   gs_compileSizes*: add the slice's sizes (and the bytes of its names to nnames) to *sizes;
 *   gs_compile*: fill the slice's arrays once the tree (bodies, joints, dofs, geoms, sites, their
 *     names) is compiled; names of earlier slices are there too (gs_name2id works for them);
 *   gs_compile*AtQpos0: quantities defined at the default configuration (tendon lengths,
 *     equality anchors, actuator lengths); d has been through gs_fwdPositionSmooth at qpos0 (no contacts). */
int gs_compileSizesWorld(gsCompileCtx* c, gsModel* sizes);
/* compile_frames.c: the <frame>s and the frame each element is written in, kept for the MJCF
 * writer (sizes: called by the world slice) */
int gs_compileSizesFrames(gsCompileCtx* c, gsModel* sizes);
int gs_compileFrames(gsCompileCtx* c, gsModel* m);
/* compile_names.c: names unique within each kind of element (MJCF's rule); 0 after an error naming
 * both places. The tree's kinds (bodies, joints, geoms, sites), and any list of infos. */
int gs_compileUniqueNames(gsCompileCtx* c);
/* compile_names.c: the model's name, and the names buffer laid out as MJCF's (last step) */
const char* gs_compileModelName(const gsSpec* spec);
int gs_compileNameOrder(gsCompileCtx* c, gsModel* m);
int gs_compileUniqueInfos(gsCompileCtx* c, const gsSpecInfo* const* infos, int n, const char* kind);
/* compiler.c: the compile of a spec as it is; gs_compile (compile_discard.c) calls it, once more
 * on a pruned copy when the spec discards visual elements */
gsModel* gs_compileSpec(const gsSpec* spec, char* err, int errsz);
/* the same, its meshes taken from or left in store (see gsMeshStore); skip_moving: the moving-body
 * mass rule is checked by another compile of the spec (compile_discard.c: on the fused tree) */
gsModel* gs_compileSpecStore(const gsSpec* spec, char* err, int errsz, gsMeshStore* store,
                             int skip_moving);
/* compiler.c: the frame and size of a geom or site of the given type, from fromto when given, else
 * from pos and the orientation; 0 after an error */
int gs_compileShape(gsCompileCtx* c, const gsSpecInfo* info, const char* kind, int type,
                    const gsReal* size_in, const gsReal* pos_in, const gsOrientation* orient,
                    int has_fromto, const gsReal* fromto, gsReal size[3], gsReal pos[3], gsReal quat[4]);
/* compile_fuse.c: fusestatic on a spec whose bodies carry their inertia explicitly (compile_discard.c
 * gives it them); 0 after an error */
int gs_compileFuseStatic(gsSpec* spec, char* err, int errsz);
/* compile_align.c: alignfree, once every slice's arrays are compiled (before the qpos0 quantities) */
void gs_compileAlignFree(gsCompileCtx* c, gsModel* m);
/* setconst.c: body_subtreemass from body_mass; everything defined at qpos0 (d is reset to qpos0
 * first by the caller; c->spec may be NULL: then statistic values given by the model are not
 * known and meaninertia is computed) */
void gs_compileSubtreeMass(gsModel* m);
int gs_compileAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d);
/* the size and bounding radius of hfield geom sg of body b, from its height field (the tree
 * needs them for inertia before the world slice runs) */
int gs_compileHFieldGeom(gsCompileCtx* c, const gsSpecBody* b, const gsSpecGeom* sg, gsReal size[3],
                         gsReal* rbound);
/* geom_fluid of a geom of the type and compiled size (compile_fluid.c) */
void gs_compileGeomFluid(const gsSpecGeom* sg, int type, const gsReal size[3], gsReal out[GS_NFLUID]);
int gs_compileWorld(gsCompileCtx* c, gsModel* m);
int gs_compileWorldAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d);
int gs_compileSizesActuation(gsCompileCtx* c, gsModel* sizes);
int gs_compileActuation(gsCompileCtx* c, gsModel* m);
int gs_compileActuationAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d);
/* actuator_lengthrange of the actuators <compiler><lengthrange> selects, by their joint or tendon
 * limits or by simulation (compile_lengthrange.c); called by the compiler after the slices'
 * qpos0 quantities */
int gs_compileLengthRange(gsCompileCtx* c, gsModel* m);
int gs_compileSizesSensing(gsCompileCtx* c, gsModel* sizes);
int gs_compileSensing(gsCompileCtx* c, gsModel* m);
int gs_compileSensingAtQpos0(gsCompileCtx* c, gsModel* m, gsData* d);

#endif
