/* Internal interface of the MJCF writer (gs_saveXML): the output buffer, element and attribute
 * helpers, and the hooks through which each slice writes its own sections and attributes
 * (xml_write_actuation.c, xml_write_sensing.c, xml_write_world.c). The writer works from the
 * compiled model and writes everything resolved, so that loading the result compiles to the same
 * arrays: angles in radians, explicit frames, explicit inertia, no default classes. */
#ifndef GAUSS_MJCF_XML_WRITE_INTERNAL_H
#define GAUSS_MJCF_XML_WRITE_INTERNAL_H

#include <stddef.h>

#include "gauss/gauss.h"

/* the kinds a body holds, as the writer groups them */
enum { GSW_JOINT, GSW_GEOM, GSW_SITE, GSW_CAMERA, GSW_LIGHT, GSW_BODY, GSW_FRAME, GSW_NHELD };

typedef struct {
  const gsModel* m;
  char* buf;            /* the document so far, NUL-terminated */
  size_t n, cap;
  int depth;            /* indentation */
  int failed;           /* out of memory, or a value MJCF cannot hold (NaN, Inf) */
  char msg[300];
  int* frame_first;     /* nbody + 1: body b's frames are frame_first[b] .. frame_first[b+1]-1 */
  char* frame_holds;    /* nframe: the frame writes anything */
  /* what each body holds, grouped once by where it is written (group b: directly in body b;
   * group nbody + f: in b's frame f), so that writing is linear in the model's size: per kind,
   * the first element of each group and the next of each element (-1: none), in model order */
  int* held_head[GSW_NHELD];
  int* held_next[GSW_NHELD];
  int* first_framed;    /* nbody: body b's first child written in a frame (nbody: none) */
} gswWriter;

/* ---- output (xml_write_util.c, which the slices call, never xml_write.c) ---- */
void gsw_printf(gswWriter* w, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* record the first error; the document is then not used */
void gsw_fail(gswWriter* w, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* "<elem" on a new, indented line; then attributes; then gsw_end (empty element) or gsw_begin
 * (children follow, closed by gsw_close) */
void gsw_open(gswWriter* w, const char* elem);
void gsw_end(gswWriter* w);
void gsw_begin(gswWriter* w);
void gsw_close(gswWriter* w, const char* elem);

/* attributes; reals are written with the fewest digits that read back as the same double */
void gsw_str(gswWriter* w, const char* name, const char* value);   /* escaped */
void gsw_reals(gswWriter* w, const char* name, const gsReal* v, int n);
void gsw_real(gswWriter* w, const char* name, gsReal v);
void gsw_ints(gswWriter* w, const char* name, const int* v, int n);
void gsw_int(gswWriter* w, const char* name, int v);
void gsw_bool(gswWriter* w, const char* name, int v);               /* "true" / "false" */
/* a keyword from a table indexed by value; a value outside it is an error */
void gsw_keyword(gswWriter* w, const char* name, const char* const* words, int nword, int v);
/* name="..." of object id of gsObject type, when it has a name */
void gsw_name(gswWriter* w, int type, int id);
/* an attribute naming another object (joint="hip"); an unnamed object is an error, since MJCF
 * refers to objects by name */
void gsw_ref(gswWriter* w, const char* attr, int type, int id);

/* ---- the slices' parts ----
 * Sections after <worldbody>, in MJCF's usual order: */
void gsw_writeWorldAssets(gswWriter* w);      /* <asset> (before <worldbody>) */
void gsw_writeWorldSections(gswWriter* w);    /* <contact> */
void gsw_writeActuation(gswWriter* w);        /* <tendon>, <actuator> */
void gsw_writeDefaultsActuation(gswWriter* w);  /* classes the tendons need (before <asset>) */
void gsw_writeSensingSections(gswWriter* w);  /* <equality>, <sensor>, <keyframe>, <custom> */
/* <size>, for what the sensing slice needs there (nuserdata, nkey, ...), when anything */
void gsw_writeSizeSensing(gswWriter* w);
/* attributes the slices add to the core elements; type is GS_OBJ_BODY, _JOINT, _GEOM, _SITE */
void gsw_attrsSensing(gswWriter* w, int type, int id);  /* user=, mocap= */
void gsw_attrsWorld(gswWriter* w, int type, int id);    /* material=, mesh=, hfield= */
/* children of a body in a group (w->held_head: directly in the body or in one of its frames) that
 * belong to a slice: cameras, lights */
void gsw_bodyChildrenWorld(gswWriter* w, int group);

/* the frame a mesh geom was given in: its compiled frame less its mesh's offset (xml_write_world.c) */
void gs_meshGeomFrame(gsReal pos[3], gsReal quat[4], const gsModel* m, int g);

#endif
