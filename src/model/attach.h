/* Attaching a copy of one spec's tree into another (src/model/spec_attach.c): shared by MJCF's
 * <attach> (src/mjcf/xml_attach.c) and gs_specAttach. What the host does differently (the
 * replicas' names, limits, where the elements other than the tree go, how errors are reported)
 * comes through gsAttachHost. */
#ifndef GAUSS_MODEL_ATTACH_H
#define GAUSS_MODEL_ATTACH_H

#include "gauss/gauss.h"
#include "model/compile.h"

/* a pose in the body receiving the copy (a <frame>'s, a site's); framed 0: none */
typedef struct {
  int framed;
  gsReal fpos[3];
  gsReal fquat[4];
  struct gsSpecFrame* frame;  /* the frame record the contents are written in (NULL: none) */
} gsAttachFrame;

/* a keyframe of an attached spec, made into the model's once its tree is whole: the key, and per
 * joint, actuator and mocap body of the attached spec (in its order) the copy (NULL: not
 * attached) and, for joints and actuators, its size in the vectors */
typedef struct {
  gsSpecKey* key;
  int njnt, nact;
  void** jnt;
  int* jtype;
  void** act;
  int* asize;
  int nmocap;
  void** mocap;
} gsAttachKey;

typedef struct gsAttachHost {
  gsSpec* spec;   /* the model: its string pool, frame names and, at the end, keyframes */
  gsSpec* dst;    /* where assets, tendons, actuators, sensors, equalities, pairs, exclusions and
                     custom data go: the model, or a scratch spec the host moves them from */
  void* user;
  /* *s (the prefixed name of an element, info; NULL: a reference) renamed in place, e.g. with
   * the suffixes of replicas; NULL: as it is. 0 out of memory */
  int (*rename)(void* user, char** s, gsSpecInfo* info);
  /* before each element is made; 0 stops (the hook has reported why). NULL: no limit */
  int (*made)(void* user, const char* file, int line);
  /* each named element made, of kind; 0 out of memory. NULL: not wanted */
  int (*origin)(void* user, int kind, const gsSpecInfo* info, const char* file, int line);
  /* an error at (file, line) of elem */
  void (*error)(void* user, const char* file, int line, const char* elem, const char* msg);
  char* err;      /* for the compiler's messages on orientations */
  int errsz;
  int failed;
  int keyctrl;    /* the keyframes keep their controls and activations */
  int nkey, capkey;
  gsAttachKey* key;
} gsAttachHost;

/* one attach being made */
typedef struct {
  gsAttachHost* h;
  const gsSpec* child;
  gsCompileCtx cc;        /* the attached spec's compiler settings, for its orientations */
  const char* prefix;
  const char* suffix;     /* after the name (gs_specAttach); "" in MJCF */
  const char* file;       /* the <attach> element (or NULL), for messages */
  int line;
  gsReal angle;           /* factor from the attached spec's angle unit to the model's */
  int plain;              /* names take the prefix (and suffix) only: no host renaming */
  const gsSpecBody* top;  /* the body attached (body=), NULL for the world body's contents */
  int nmap, capmap;       /* the attached spec's elements copied, and their copies */
  struct gsAttachMap { const void* from; void* to; } * map;
} gsAttach;

void gs_attachBegin(gsAttach* a, gsAttachHost* h, const gsSpec* child, const char* prefix,
                    const char* suffix, const char* file, int line);
void gs_attachEnd(gsAttach* a);
/* the attached spec's meshes, height fields, textures and materials, names with the prefix only */
int gs_attachAssets(gsAttach* a);
/* body `from` of the child (its world body: its contents) copied into `body`, placed by f; then
 * the tendons, actuators, sensors, equalities, pairs and exclusions referring only to the copy
 * (with the world body: all), and, when `first`, its keyframes (recorded in the host) and custom
 * data; the names of the frames written in what is copied. 0 after an error (h->failed) or out
 * of memory. */
int gs_attachTree(gsAttach* a, const gsSpecBody* from, gsSpecBody* body, const gsAttachFrame* f,
                  int first);
/* the recorded keyframes made into the model's (h->spec, its tree whole); 0 out of memory */
int gs_attachKeys(gsAttachHost* h);
void gs_attachHostFree(gsAttachHost* h);

#endif
