/* Internal interface of the MJCF reader: the parse context, error and warning reporting, value
 * parsing, the schema table and default classes. Nothing here is public API. */
#ifndef GAUSS_MJCF_XML_INTERNAL_H
#define GAUSS_MJCF_XML_INTERNAL_H

#include <libxml/tree.h>

#include "gauss/gauss.h"
#include "model/attach.h"

/* deepest chain of nested <include> files; deeper is treated as a runaway */
#define GSX_MAX_INCLUDE_DEPTH 64

/* Limits of the XML layer. libxml2 parses with XML_PARSE_HUGE (attributes over 10 MB, such as
 * large inline meshes, and nesting deeper than 256, both of which MJCF accepts), so that these
 * take the place of its defaults:
 * - the XML files of one load (the model and its includes) hold at most GSX_MAX_XML_BYTES;
 * - elements nest at most GSX_MAX_DEPTH deep (the reader walks the body tree recursively);
 * - an element has at most GSX_MAX_ATTRS attributes (libxml2 checks duplicates pairwise, so a
 *   tag with 10^5 attributes would cost seconds; MJCF's largest element has about 40);
 * - entity references (DTD entities; MJCF itself has none) produce at most GSX_MAX_ENTITY_BYTES
 *   of text in all, counted at each reference, which keeps the cost of a load linear in its
 *   input; nested entities are expanded at most GSX_MAX_ENTITY_DEPTH deep. */
#define GSX_MAX_XML_BYTES ((size_t)1 << 30)
#define GSX_MAX_DEPTH 1000
#define GSX_MAX_ATTRS 10000
#define GSX_MAX_ENTITY_BYTES ((size_t)16 << 20)
#define GSX_MAX_ENTITY_DEPTH 16
/* <replicate>: nesting depth, replicas in all (the product of the counts of nested ones), and
 * elements made by replication in all (the tree's and the copies of the elements that refer to
 * it): a short file must not grow into a model that takes minutes or gigabytes to compile */
#define GSX_MAX_REPLICATE_DEPTH 16
#define GSX_MAX_REPLICAS 100000
#define GSX_MAX_REPLICATED 200000

/* ---- schema (xml_schema.c) ---- */

/* 1 when name is an element of MJCF anywhere in the language */
int gsx_isElement(const char* name);
/* 1 when child may appear directly inside parent; only asked for the parents the reader walks
 * itself (mujoco, worldbody, body, default, option, compiler, geom and the leaf elements) */
int gsx_childAllowed(const char* parent, const char* child);
/* the valid attributes of one of a slice's elements (space-separated), NULL when not its own:
 * gsx_attrsActuation and the others below */
typedef const char* (*gsxAttrsFn)(const char* element);
/* 1 when attr is a valid MJCF attribute of the element; elements the reader skips are not asked.
 * Elements the schema does not table itself are looked up in `slices` (NULL-terminated), which
 * the reader passes in so that the schema does not call the slices that use it. */
int gsx_attrAllowed(const gsxAttrsFn* slices, const char* element, const char* attr);
/* 1 when word is one of the space-separated words of list */
int gsx_inList(const char* list, const char* word);
/* 1 for the orientation attributes quat, axisangle, euler, xyaxes, zaxis */
int gsx_isOrientation(const char* attr);

/* ---- default classes (xml_defaults.c) ---- */

typedef struct {
  char* name;
  char* value;
  const char* file;       /* interned in the spec */
  int line;
} gsxAttr;

/* the attribute values one class holds for one element kind (joint, geom, motor, ...) */
typedef struct {
  char* kind;
  int nattr, cap;
  gsxAttr* attr;
} gsxDefaultElem;

typedef struct {
  char* name;
  int parent;             /* index of the parent class; -1 for the root class "main" */
  int nelem, cap;
  gsxDefaultElem* elem;
  /* what of "main" the class inherits: a class is a copy of its parent when it is made, so main's
   * element kinds and values as they stood then (a later top-level <default> adds to main alone,
   * as in MJCF); main_nattr[e] values of main's element e, e < main_nelem (none for main) */
  int main_nelem;
  int* main_nattr;
} gsxClass;

typedef struct {
  int n, cap;
  gsxClass* cls;
} gsxDefaults;

void gsx_defaultsFree(gsxDefaults* d);
int gsx_classFind(const gsxDefaults* d, const char* name);          /* index, -1 when absent */
int gsx_classAdd(gsxDefaults* d, const char* name, int parent);     /* index, -1 out of memory */
/* how many values of element e of class `of` class cls inherits (of is cls or an ancestor) */
int gsx_classSees(const gsxDefaults* d, int cls, int of, int e);
/* append one attribute value for element kind to class cls; 0 when out of memory */
int gsx_classAddAttr(gsxDefaults* d, int cls, const char* kind, const gsxAttr* a);
/* the values class cls holds for kind, NULL when none */
const gsxDefaultElem* gsx_classElem(const gsxDefaults* d, int cls, const char* kind);

/* ---- parse context (xml_util.c) ---- */

/* a file taking part in the parse: the main file, the string, or an included file */
typedef struct {
  const char* name;       /* as shown in messages; interned in the spec */
  char* dir;              /* directory that relative includes resolve against */
  char* canon;            /* canonical path, NULL for a string */
  xmlDocPtr doc;
} gsxFile;

typedef struct {
  const char* file;       /* interned */
  int line;
  char* text;             /* message without file and line, also the key for de-duplication */
} gsxWarning;

/* the pose of a <frame> (or replicate) an element is placed by: children written in it take
 * (fpos, fquat) in the enclosing body; framed 0: none */
typedef gsAttachFrame gsxAttachFrame;

typedef struct gsxCtx {
  gsSpec* spec;
  char* err;
  int errsz;
  int failed;             /* an error was reported: stop */

  int nwarn, capwarn;
  gsxWarning* warn;

  gsxDefaults defs;

  int nfile, capfile;
  gsxFile** files;        /* every document loaded, freed at the end */

  int ninc;               /* files being expanded now, outermost first (cycle detection) */
  const char* incstack[GSX_MAX_INCLUDE_DEPTH];

  const gsVFS* vfs;       /* in-memory files, looked up before the disk; NULL: none */
  int confined;           /* GS_LOAD_CONFINED: files only from root and the VFS */
  char* root;             /* real path of the model's directory; NULL for a string */
  int denied;             /* the last file refused was outside root (confined) */
  size_t xml_bytes;       /* XML read so far (GSX_MAX_XML_BYTES) */
  size_t entity_bytes;    /* text produced by entity references so far (GSX_MAX_ENTITY_BYTES) */

  const gsxAttrsFn* attrs; /* the slices' attribute tables, NULL-terminated (set by xml_read.c) */

  /* <replicate> elements being read, outermost first: separator, replica index, suffix digits */
  int nrep;
  struct {
    char* sep;
    int index, digits;
  } rep[GSX_MAX_REPLICATE_DEPTH];
  long long replicas;     /* product of the counts being read (GSX_MAX_REPLICAS) */
  long long replicated;   /* elements made by replication so far (GSX_MAX_REPLICATED) */
  /* elements named inside replicates, in the order they were made: the element's info (holding
   * the final name) and the name the XML gave it */
  int nrepname, caprepname;
  struct gsxRepName {
    gsSpecInfo* info;
    char* base;
    int group;            /* the outermost replicate it was made in (repgroup then) */
  }* repname;
  int repgroup;           /* outermost replicates read so far */

  /* <model> assets and <attach> (xml_attach.c): the sub-models named, each read at its first
   * attach, with the prefixes its assets were copied with */
  int nmodel, capmodel;
  struct gsxModel {
    char* name;
    char* path;
    const char* file;     /* the <model> element, for messages */
    int line;
    gsSpec* spec;
    int nprefix;
    char** prefix;
  }* model;
  /* the host of the attaches (src/model/attach.h): the keyframes of attached sub-models, made
   * into the model's once the tree is whole */
  gsAttachHost host;
  /* the assets, tendons, actuators, sensors, equalities, pairs and exclusions that attaches
   * bring, held in a scratch spec's lists until the model's own are read: they follow them */
  gsSpec* held;
  /* every named element an attach made, with that <attach>: a name two attaches make is an
   * error naming both */
  int norigin, caporigin;
  struct gsxOrigin {
    const gsSpecInfo* info;
    int kind;
    const char* file;
    int line;
  }* origin;
  const struct gsxCtx* outer;  /* the model attaching this one (a sub-model's parse); NULL: none */
  /* reads a sub-model's file into a spec of its own; errors and warnings go to outer; (file,
   * line) is the <model> element; NULL after an error (a model that attaches itself, at any
   * depth, is one). Set by xml_read.c, so that xml_attach.c does not call the reader back. */
  gsSpec* (*parse_model)(struct gsxCtx* outer, const char* path, const char* file, int line);
  const char* canon;           /* canonical path of the main file, NULL for a string */
  /* where the flag nativeccd was last set to "disable" (file NULL: nowhere), for
   * gsx_warnOlderConvex */
  const char* nativeccd_file;
  int nativeccd_line;
} gsxCtx;

/* ---- <replicate> (xml_replicate.c) ---- */
/* the name an element named `name` gets inside the replicates being read (suffixes, innermost
 * first), written to *out (malloc'ed); 0 when out of memory */
int gsx_replicaName(gsxCtx* c, const char* name, char** out);
/* record an element named inside replicates, `base` the name the XML gave it; 0 out of memory */
int gsx_replicaRecord(gsxCtx* c, gsSpecInfo* info, const char* base);
/* after the whole model is read: tendons, actuators, sensors, equalities, pairs and excludes that
 * name an element of a replicate are replicated with it (MJCF's rule); 0 after an error */
int gsx_replicateReferences(gsxCtx* c);

/* ---- <model> and <attach> (xml_attach.c) ---- */
/* the <model> children of an <asset> section (first pass) */
int gsx_readModels(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
/* <attach> in `body`, placed by `frame` */
int gsx_attach(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body,
               const gsxAttachFrame* frame);
/* after the whole model is read: the elements attaches brought, after the model's own, and the
 * attached sub-models' keyframes; 0 after an error */
int gsx_attachFinish(gsxCtx* c);
void gsx_attachFree(gsxCtx* c);

/* ---- <composite> (xml_composite.c) ---- */
/* expand a <composite> (cable) into bodies below parent, contact exclusions and a custom text;
 * 1 on success, 0 after reporting an error */
int gsx_readComposite(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* parent);

/* one attribute being applied to an element, with where it was written */
typedef struct {
  const char* elem;       /* element name, for messages */
  const char* name;
  const char* value;
  const char* file;
  int line;
} gsxAt;

/* report an error "FILE:LINE: <elem>: message" (elem may be NULL); only the first one is kept.
 * Always returns 0, so that callers can write `return gsx_error(...)`. */
int gsx_error(gsxCtx* c, const char* file, int line, const char* elem, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* error about an attribute: "FILE:LINE: <elem>: attribute 'name': message" */
int gsx_attrError(gsxCtx* c, const gsxAt* a, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* out of memory: reported like any error, without a position */
int gsx_oom(gsxCtx* c);

/* add a warning "FILE:LINE: message"; the same message in the same file is given only once */
void gsx_warn(gsxCtx* c, const char* file, int line, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
void gsx_warnElement(gsxCtx* c, const char* file, int line, const char* elem);
/* after the model is read: where the flag nativeccd="disable" chooses MJCF's older convex
 * pipeline (src/collision/convex_mpr.c), the parts of it the engine does not reproduce that this
 * model has, named at the flag's line */
void gsx_warnOlderConvex(gsxCtx* c);
void gsx_warnAttr(gsxCtx* c, const gsxAt* a);

/* join the warnings into "FILE:LINE: text\n..." in out (truncated to outsz) */
void gsx_formatWarnings(const gsxCtx* c, char* out, size_t outsz);
void gsx_ctxFree(gsxCtx* c);

/* ---- values (xml_util.c); each returns 1 on success, 0 after reporting an error ---- */

/* between min and max finite reals separated by white space; *n gets the count read.
 * Only the values given are written, so that the rest keep what they were (defaults). */
int gsx_reals(gsxCtx* c, const gsxAt* a, gsReal* out, int min, int max, int* n);
int gsx_real(gsxCtx* c, const gsxAt* a, gsReal* out);
int gsx_ints(gsxCtx* c, const gsxAt* a, int* out, int min, int max, int* n);
int gsx_int(gsxCtx* c, const gsxAt* a, int* out);
int gsx_bool(gsxCtx* c, const gsxAt* a, int* out);
/* the index of the value in words[0..nword-1]; error listing the allowed values otherwise */
int gsx_keyword(gsxCtx* c, const gsxAt* a, const char* const* words, int nword, int* out);
/* replace the owned string *dst by a copy of the value; GSX_OK, or GSX_ERR when out of memory */
int gsx_setString(gsxCtx* c, char** dst, const gsxAt* a);
/* the number of white-space separated words of s */
int gsx_countTokens(const char* s);
/* any number of reals (at most max), replacing *out; an empty value gives none */
int gsx_realList(gsxCtx* c, const gsxAt* a, gsReal** out, int* n, int max);

/* ---- element attributes (xml_elements.c) ---- */

/* result of applying one attribute */
enum { GSX_ERR = 0, GSX_OK = 1, GSX_UNUSED = 2 /* valid MJCF, not simulated: warn */ };

int gsx_compilerAttr(gsxCtx* c, gsCompilerOptions* o, const gsxAt* a);
int gsx_lengthrangeAttr(gsxCtx* c, gsLengthRangeOptions* o, const gsxAt* a);
int gsx_optionAttr(gsxCtx* c, gsOption* o, const gsxAt* a);
int gsx_flagAttr(gsxCtx* c, gsOption* o, const gsxAt* a);
int gsx_bodyAttr(gsxCtx* c, gsSpecBody* b, const gsxAt* a);
int gsx_jointAttr(gsxCtx* c, gsSpecJoint* j, const gsxAt* a);
int gsx_geomAttr(gsxCtx* c, gsSpecGeom* g, const gsxAt* a);
int gsx_siteAttr(gsxCtx* c, gsSpecSite* s, const gsxAt* a);
int gsx_inertialAttr(gsxCtx* c, gsSpecInertial* in, const gsxAt* a);

/* ---- attributes of several elements, core and slices' (xml_util.c) ---- */

/* the orientation attributes (quat, axisangle, euler, xyaxes, zaxis) into o; -1 when a is not
 * one of them */
int gsx_orientAttr(gsxCtx* c, gsOrientation* o, const gsxAt* a);
/* user= of any element: any number of reals, replacing *user */
int gsx_userAttr(gsxCtx* c, const gsxAt* a, gsReal** user, int* nuser);

/* ---- the element walk (xml_read_util.c), shared by xml_read.c and the slices' readers ---- */

/* setters with one signature, so that defaults and own attributes go through one loop; a setter
 * returns GSX_OK, GSX_UNUSED (valid, not simulated: warned) or GSX_ERR (reported) */
typedef int (*gsxSetFn)(gsxCtx* c, void* obj, const gsxAt* a);

/* an attribute that MJCF reads: namespaced ones (xsi:schemaLocation and such) are not */
int gsx_isMjcfAttr(xmlAttrPtr at);
/* value of attribute name of node, NULL when absent; free with xmlFree */
xmlChar* gsx_getAttr(gsxCtx* c, xmlNodePtr node, const char* name);
int gsx_hasAttr(xmlNodePtr node, const char* name);
/* every attribute name valid for elem (schema), name/class not inside <default>, at most one
 * orientation */
int gsx_checkAttrs(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem, int in_default);
/* every attribute of node is in list (space-separated): for the slices' elements whose names
 * mean different elements in different sections, which the schema table cannot tell apart */
int gsx_checkAttrList(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                      const char* list);
/* 1 when node has attribute attr, else an error "missing required attribute" */
int gsx_requireAttr(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                    const char* attr);
/* one attribute through a setter, warning when it is not used */
int gsx_applyOne(gsxCtx* c, gsxSetFn fn, void* obj, const gsxAt* a);
/* the element's own attributes, except those named in skip (space-separated) */
int gsx_applyOwn(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem, gsxSetFn fn,
                 void* obj, const char* skip);
/* the values of class cls and its ancestors for kind, root first */
int gsx_applyClass(gsxCtx* c, int cls, const char* kind, gsxSetFn fn, void* obj);
/* the class an element uses: its attribute attr (class=), else `inherited` */
int gsx_elementClass(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                     const char* attr, int inherited, int* cls);
/* name= and the position in the file */
int gsx_setInfo(gsxCtx* c, gsSpecInfo* info, xmlNodePtr node, const gsxFile* src);
/* a valid element the engine does not simulate: one warning, subtree checked and left out */
int gsx_skipElement(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
/* children of an element that has no simulated children: each must be valid MJCF, is skipped */
int gsx_checkChildren(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem);
/* a child element that parent may not hold: "unknown element" when the name is not MJCF at all,
 * else "element is not allowed in <parent>"; always 0 */
int gsx_childError(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, const char* parent);
/* store the attributes of a <default> child element in class cls (xml_read.c) */
int gsx_storeDefault(gsxCtx* c, xmlNodePtr node, const gsxFile* src, int cls);

/* ---- the slices of the reader ----
 * xml_actuation.c (tendon, actuator), xml_sensing.c (sensor, equality, keyframe, custom),
 * xml_world.c (asset, contact, visual, statistic; camera and light in bodies). Each function
 * returns -1 when the element is not one of the slice's own, else 1 on success or 0 after
 * reporting an error. */
int gsx_readActuationSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
int gsx_readSensingSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
int gsx_readWorldSection(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
/* an element inside a body (or the worldbody); cls is the class in force there. Also called for
 * a geom or site right after the core has read it, for its material, mesh and hfield. */
int gsx_readWorldBodyChild(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsSpecBody* body, int cls);
/* check the values of a child of <default> of one of the slice's kinds (with a scratch element) */
int gsx_checkDefaultActuation(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
int gsx_checkDefaultSensing(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
int gsx_checkDefaultWorld(gsxCtx* c, xmlNodePtr node, const gsxFile* src);
/* <size>: nkey, nuserdata and nuser_* into the spec (sensing slice); GSX_UNUSED for the others */
int gsx_sizeAttr(gsxCtx* c, gsSpec* spec, const gsxAt* a);
/* the valid attributes of one of the slice's elements (space-separated), NULL when not its own */
const char* gsx_attrsActuation(const char* element);
const char* gsx_attrsSensing(const char* element);
const char* gsx_attrsWorld(const char* element);

/* a mesh whose file= another reader set: the file found (strippath, meshdir) and read into the
 * spec; 0 after reporting (xml_world.c) */
int gsx_meshFile(gsxCtx* c, gsSpecMesh* m, xmlNodePtr node, const gsxFile* src);
/* ---- URDF (urdf_read.c) ---- */
/* a <robot> document read into c->spec as MJCF's loader reads URDF; 0 after reporting */
int gsx_readURDF(gsxCtx* c, const gsxFile* f);
/* gsx_parse flag (beside GS_LOAD_*): the document must be URDF (gs_loadURDF) */
#define GSX_PARSE_URDF 0x10000

/* ---- documents (xml_doc.c) ---- */

/* the contents of a file named in the model (an include, a mesh, a texture): from the VFS when it
 * holds the file (xml_vfs.c: the entry whose name is the longest trailing part of path), else from
 * the disk. 1 with a malloc'd copy in *data (free it) and its length in *n; 0 with errno set. */
int gsx_readAsset(gsxCtx* c, const char* path, void** data, size_t* n);
/* the key of the VFS entry that path names, NULL when none (xml_vfs.c) */
const char* gsx_vfsFind(const gsVFS* vfs, const char* path, const void** data, size_t* n);
/* parse with in-memory files (xml_read.c); exactly one of path and xml is given */
gsSpec* gsx_parse(const char* path, const char* xml, const gsVFS* vfs, int flags, char* err,
                  int errsz);
/* in confined mode, 1 when path may be read from the disk (below c->root once resolved); 0 with
 * errno set otherwise. Always 1 when not confined. */
int gsx_allowedPath(gsxCtx* c, const char* path);
/* why the last gsx_readAsset or include failed: strerror(errno), or the confinement */
const char* gsx_readError(const gsxCtx* c);

/* parse XML text into a document of a new gsxFile owned by c; NULL after reporting an error */
gsxFile* gsx_loadString(gsxCtx* c, const char* xml, size_t len, const char* name, const char* dir,
                        const char* canon);
gsxFile* gsx_loadFile(gsxCtx* c, const char* path, const char* incfile, int incline);

/* visit the element children of node, with <include> elements replaced by the top-level children
 * of the files they name (recursively); fn returns 0 to stop on an error */
typedef int (*gsxChildFn)(gsxCtx* c, xmlNodePtr child, const gsxFile* src, void* user);
int gsx_eachChild(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsxChildFn fn, void* user);

/* line of a node, 0 when unknown */
int gsx_line(xmlNodePtr node);
/* element name of a node as a C string */
const char* gsx_name(xmlNodePtr node);
/* value of an attribute, "" when empty, entities expanded within GSX_MAX_ENTITY_BYTES; free with
 * xmlFree; NULL after reporting an error (out of memory, too much expansion) */
xmlChar* gsx_attrValue(gsxCtx* c, xmlAttrPtr at);

#endif
