/* gsSpec: an editable model tree, built by the MJCF reader or by hand, turned into a gsModel by
 * gs_compile. Elements are plain structs: gs_spec_add* returns one filled with MJCF's defaults,
 * the caller sets what it wants, the compiler resolves frames, inertia and addresses. */
#ifndef GAUSS_SPEC_H
#define GAUSS_SPEC_H

#include "export.h"

#include "model.h"

/* how an orientation was given; the compiler converts it to a quaternion */
typedef enum {
  GS_ORIENT_QUAT = 0, GS_ORIENT_AXISANGLE, GS_ORIENT_EULER, GS_ORIENT_XYAXES, GS_ORIENT_ZAXIS
} gsOrientType;

typedef struct {
  int type;             /* gsOrientType */
  gsReal quat[4];       /* w x y z */
  gsReal axisangle[4];  /* axis, angle (in the compiler's angle unit) */
  gsReal euler[3];      /* angles (compiler's unit), sequence from compiler.eulerseq */
  gsReal xyaxes[6];
  gsReal zaxis[3];
} gsOrientation;

/* where an element came from, for error messages */
typedef struct {
  char* name;           /* owned; NULL when unnamed */
  const char* file;     /* owned by the spec's string pool; NULL when built by hand */
  int line;             /* 0 when unknown */
} gsSpecInfo;

typedef enum { GS_LIMITED_FALSE = 0, GS_LIMITED_TRUE = 1, GS_LIMITED_AUTO = 2 } gsLimited;

typedef struct gsSpecJoint {
  gsSpecInfo info;
  int type;               /* gsJointType */
  gsReal pos[3];
  gsReal axis[3];
  gsReal ref;             /* hinge/slide: value of qpos0 (compiler's angle unit for hinges) */
  gsReal springref;       /* hinge/slide: spring rest position (same unit) */
  gsReal stiffness;
  gsReal damping;
  gsReal armature;
  gsReal frictionloss;
  gsReal springdamper[2]; /* time constant and damping ratio: when both are positive, they set
                           * stiffness and damping from the joint's inertia at qpos0 */
  gsReal range[2];        /* compiler's angle unit for hinges */
  int limited;            /* gsLimited */
  int range_given;        /* range was written (drives autolimits) */
  int actfrclimited;      /* gsLimited: actuatorfrclimited (auto by default) */
  gsReal actfrcrange[2];  /* actuatorfrcrange: bounds of the actuators' force on the joint */
  gsReal margin;
  gsReal solref_limit[GS_NREF];
  gsReal solimp_limit[GS_NIMP];
  gsReal solref_friction[GS_NREF];
  gsReal solimp_friction[GS_NIMP];
  int group;
  int actgravcomp;        /* gravity compensation of this joint's dofs through the actuators */
  int align;              /* free joints: gsLimited-like 0 false, 1 true, 2 auto (compiler.alignfree) */
  int nuser;              /* user data (user=) */
  gsReal* user;           /* owned */
  struct gsSpecFrame* frame;  /* the <frame> it is written in (NULL: none); its pose holds the frame's */
} gsSpecJoint;

typedef struct gsSpecGeom {
  gsSpecInfo info;
  int type;               /* gsGeomType */
  gsReal size[3];
  gsReal pos[3];
  gsOrientation orient;
  int has_fromto;
  gsReal fromto[6];
  gsReal mass;            /* < 0: not given, use density */
  gsReal density;
  int contype;
  int conaffinity;
  int condim;
  int group;
  int priority;
  gsReal friction[3];
  gsReal solmix;
  gsReal solref[GS_NREF];
  gsReal solimp[GS_NIMP];
  gsReal margin;
  gsReal gap;
  gsReal rgba[4];
  gsReal fitscale;        /* a primitive with a mesh is fitted to it: the fitted sizes' scale */
  int fluidshape;         /* 0 none (the body's inertia box), 1 ellipsoid */
  gsReal fluidcoef[5];    /* blunt, slender and angular drag, Kutta and Magnus lift */
  int nuser;
  gsReal* user;
  struct gsSpecFrame* frame;  /* the <frame> it is written in (NULL: none); its pose holds the frame's */
} gsSpecGeom;

typedef struct gsSpecSite {
  gsSpecInfo info;
  int type;               /* gsGeomType; sphere by default */
  gsReal size[3];
  gsReal pos[3];
  gsOrientation orient;
  int has_fromto;
  gsReal fromto[6];
  int group;
  gsReal rgba[4];
  int nuser;
  gsReal* user;
  struct gsSpecFrame* frame;  /* the <frame> it is written in (NULL: none); its pose holds the frame's */
} gsSpecSite;

typedef struct {
  int given;              /* an explicit <inertial> */
  gsReal pos[3];
  gsOrientation orient;
  gsReal mass;
  int has_full;           /* fullinertia given instead of diaginertia */
  gsReal diaginertia[3];
  gsReal fullinertia[6];  /* Ixx Iyy Izz Ixy Ixz Iyz */
} gsSpecInertial;

typedef struct gsSpecBody gsSpecBody;
typedef struct gsSpec gsSpec;

/* set an owned string of a spec element (copied, *dst freed first; NULL clears); 0 when out of
 * memory */
GS_API int gs_specSetString(char** dst, const char* s);

/* the slices of the engine add their elements: each header defines its element structs and the
 * members it adds to gsSpecBody (GS_SPECBODY_<SLICE>) and gsSpec (GS_SPEC_<SLICE>) */
#include "spec_actuation.h"  /* tendons, actuators */
#include "spec_sensing.h"    /* sensors, equality, keyframes, custom data */
#include "spec_world.h"      /* cameras, lights, assets, contact pairs and exclusions, visual */

struct gsSpecBody {
  gsSpecInfo info;
  gsSpecBody* parent;     /* NULL for the world */
  gsReal pos[3];
  gsOrientation orient;
  /* the pose of the <frame>s written around the body in its parent, already composed into pos and
   * orient (framed 0: none): a copy of the body's subtree attached elsewhere takes the body's
   * pose without them, as MJCF's <attach body=...> does */
  int framed;
  gsReal frame_pos[3];
  gsReal frame_quat[4];
  struct gsSpecFrame* inframe;  /* the parent's <frame> it is written in (NULL: none) */
  gsSpecInertial inertial;
  gsReal gravcomp;        /* share of the body's weight cancelled by a passive force */
  /* the mass settings of the <compiler> of the model the body came from: a body attached from a
   * sub-model keeps its model's, as MJCF does (the model's own bodies leave own_mass 0) */
  int own_mass;           /* 1: the four below replace the compiler's for this body */
  int inertiafromgeom;    /* gsInertiaFromGeom */
  gsReal boundmass;
  gsReal boundinertia;
  int balanceinertia;

  int nchild, nchild_cap;  gsSpecBody** child;
  int njoint, njoint_cap;  gsSpecJoint** joint;
  int ngeom, ngeom_cap;    gsSpecGeom** geom;
  int nsite, nsite_cap;    gsSpecSite** site;
  int nuser;
  gsReal* user;

  GS_SPECBODY_ACTUATION
  GS_SPECBODY_SENSING
  GS_SPECBODY_WORLD
};

typedef enum { GS_INERTIAFROMGEOM_FALSE = 0, GS_INERTIAFROMGEOM_TRUE, GS_INERTIAFROMGEOM_AUTO } gsInertiaFromGeom;

/* which actuators get their length range computed (<compiler><lengthrange mode=>) */
typedef enum {
  GS_LRMODE_NONE = 0, GS_LRMODE_MUSCLE, GS_LRMODE_MUSCLEUSER, GS_LRMODE_ALL
} gsLengthRangeMode;

/* <compiler><lengthrange>: the compile-time computation of actuator_lengthrange, by simulation
 * (src/model/compile_lengthrange.c) */
typedef struct {
  int mode;               /* gsLengthRangeMode */
  int useexisting;        /* keep a range already given (lo < hi) */
  int uselimit;           /* copy the limits of a limited joint or tendon transmission */
  gsReal accel;           /* the applied force gives joint accelerations of this norm */
  gsReal maxforce;        /* > 0: bound on that force */
  gsReal timeconst;       /* time constant of the artificial velocity decay (s) */
  gsReal timestep;        /* of the simulation; 0: the model's */
  gsReal inttotal;        /* simulated time per actuator and direction (s) */
  gsReal interval;        /* the final time span in which lengths are recorded (s) */
  gsReal tolrange;        /* spread in that span / range above which it did not converge */
} gsLengthRangeOptions;

/* <compiler> */
typedef struct {
  int degree;             /* angles in degrees (MJCF's default) rather than radians */
  char eulerseq[4];       /* e.g. "xyz"; lower case intrinsic, upper case extrinsic */
  int inertiafromgeom;    /* gsInertiaFromGeom */
  int inertiagrouprange[2];
  int autolimits;
  gsReal boundmass;
  gsReal boundinertia;
  gsReal settotalmass;    /* < 0: leave masses as they are */
  int balanceinertia;
  /* asset files: directories (spec pool strings, NULL when not given) relative to the model file
   * unless absolute; meshdir and texturedir take precedence over assetdir */
  const char* meshdir;
  const char* texturedir;
  const char* assetdir;
  int strippath;          /* drop the directories written in asset file names */
  int discardvisual;      /* visual geoms, materials, textures and unused meshes left out */
  int fusestatic;         /* bodies without joints that nothing names merged into their parents */
  int alignfree;          /* free bodies without children get their frame at their inertial frame */
  int fitaabb;            /* primitives are fitted to a mesh's bounding box, not its inertia box */
  gsLengthRangeOptions lengthrange;
} gsCompilerOptions;

struct gsSpec {
  char* modelname;
  const char* file;       /* the top-level model file ("<string>" for text), for messages; pool
                             string, NULL when built by hand */
  /* <size>: stored, not yet used by the engine; the MJCF reader sets -1 where the model does not
   * give them (gs_specNew leaves them 0) */
  long long size_memory;  /* bytes ("100M" is 100 * 2^20) */
  int size_nconmax, size_njmax, size_nstack;
  gsCompilerOptions compiler;
  gsOption option;
  gsSpecBody* world;

  /* strings owned by the spec (file names) */
  int nstring, nstring_cap;
  char** strings;

  GS_SPEC_ACTUATION
  GS_SPEC_SENSING
  GS_SPEC_WORLD
};

/* default option values, as MJCF defines them */
GS_API void gs_defaultOption(gsOption* opt);
GS_API void gs_defaultCompilerOptions(gsCompilerOptions* c);

GS_API gsSpec* gs_specNew(void);
GS_API void gs_specFree(gsSpec* spec);

/* add an element with MJCF's default values; returns NULL only when out of memory */
GS_API gsSpecBody* gs_specAddBody(gsSpecBody* parent);
GS_API gsSpecJoint* gs_specAddJoint(gsSpecBody* body);
GS_API gsSpecGeom* gs_specAddGeom(gsSpecBody* body);
GS_API gsSpecSite* gs_specAddSite(gsSpecBody* body);

/* set an element's name (copied); returns 0 when out of memory */
GS_API int gs_specSetName(gsSpecInfo* info, const char* name);
/* intern a string in the spec's pool (copied), for gsSpecInfo.file */
GS_API const char* gs_specIntern(gsSpec* spec, const char* s);

/* compile: NULL on error, with a message naming the file, line and element in err */
GS_API gsModel* gs_compile(const gsSpec* spec, char* err, int errsz);

/* a copy of child's body `from` (NULL: the contents of its world body) placed in `body` of spec,
 * at (pos, quat) in it (NULL: the body's frame), as MuJoCo's spec attach and MJCF's <attach> make
 * it: names take prefix and suffix (NULL: none), and with it come the child's assets, the tendons,
 * actuators, sensors, equalities, pairs and exclusions naming only copied elements, its keyframes,
 * custom data and the compiler settings its elements keep (src/model/spec_attach.c). child is
 * not changed and must not be spec. 0 with the reason in err on failure (spec then holds what
 * was copied so far). */
GS_API int gs_specAttach(gsSpec* spec, gsSpecBody* body, const gsReal pos[3], const gsReal quat[4],
                         const gsSpec* child, const gsSpecBody* from, const char* prefix,
                         const char* suffix, char* err, int errsz);
/* the same in a frame of spec (MuJoCo's spec.attach(child, frame=)): as MuJoCo, a new frame
 * written in `frame` holds what is attached, placed at frame's present pose in its body (frame and
 * those enclosing it keep that pose from now on); returns that new frame, NULL with the reason in
 * err on failure */
GS_API gsSpecFrame* gs_specAttachFrame(gsSpec* spec, gsSpecFrame* frame, const gsSpec* child,
                                       const gsSpecBody* from, const char* prefix,
                                       const char* suffix, char* err, int errsz);
/* the same at a site of spec (MuJoCo's spec.attach(child, site=) and site.attach_body): placed at
 * the site's pose in its body, written in a new frame there as MuJoCo does */
GS_API int gs_specAttachSite(gsSpec* spec, const gsSpecSite* site, const gsSpec* child,
                             const gsSpecBody* from, const char* prefix, const char* suffix, char* err,
                             int errsz);

#endif
