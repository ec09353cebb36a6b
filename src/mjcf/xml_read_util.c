/* The element walk of the MJCF reader (xml_internal.h): attribute checks, applying attributes and
 * default classes through setters, names and positions, skipped elements. Shared by xml_read.c
 * and the slices' readers; kept apart from xml_read.c, which calls the slices, so that the slices
 * do not call back into it. */
#include <string.h>

#include "xml_internal.h"

/* ---- attributes ---- */

/* an attribute that MJCF reads: namespaced ones (xsi:schemaLocation and such) are not */
int gsx_isMjcfAttr(xmlAttrPtr at) {
  return at->ns == NULL && strchr((const char*)at->name, ':') == NULL;
}

/* value of attribute name of node, NULL when absent; free with xmlFree */
xmlChar* gsx_getAttr(gsxCtx* c, xmlNodePtr node, const char* name) {
  /* not xmlGetNoNsProp: entities are expanded by gsx_attrValue, within its budget */
  for (xmlAttrPtr at = node->properties; at; at = at->next)
    if (!at->ns && strcmp((const char*)at->name, name) == 0) return gsx_attrValue(c, at);
  return NULL;
}

int gsx_hasAttr(xmlNodePtr node, const char* name) {
  /* the element's own attributes, as gsx_getAttr reads them (not a DTD's defaults) */
  for (xmlAttrPtr at = node->properties; at; at = at->next)
    if (!at->ns && strcmp((const char*)at->name, name) == 0) return 1;
  return 0;
}

/* the checks made on the attribute list of one element, before any value is used: every name
 * valid for the element, name/class not inside <default>, at most one orientation */
int gsx_checkAttrs(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                       int in_default) {
  int line = gsx_line(node), norient = 0;
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (!gsx_isMjcfAttr(at)) continue;
    const char* name = (const char*)at->name;
    if (!gsx_attrAllowed(c->attrs, elem, name))
      return gsx_error(c, src->name, line, elem, "unknown attribute '%.60s'", name);
    if (in_default && (strcmp(name, "name") == 0 || strcmp(name, "class") == 0))
      return gsx_error(c, src->name, line, elem, "attribute '%s' is not allowed in <default>",
                       name);
    norient += gsx_isOrientation(name);
  }
  if (norient > 1)
    return gsx_error(c, src->name, line, elem,
                     "at most one of quat, axisangle, euler, xyaxes, zaxis may be given");
  return 1;
}

int gsx_checkAttrList(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                      const char* list) {
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (!gsx_isMjcfAttr(at)) continue;
    if (!gsx_inList(list, (const char*)at->name))
      return gsx_error(c, src->name, gsx_line(node), elem, "unknown attribute '%.60s'",
                       (const char*)at->name);
  }
  return 1;
}

int gsx_childError(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, const char* parent) {
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  return gsx_error(c, src->name, line, name, "element is not allowed in <%s>", parent);
}

int gsx_requireAttr(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                    const char* attr) {
  if (gsx_hasAttr(node, attr)) return 1;
  return gsx_error(c, src->name, gsx_line(node), elem, "missing required attribute '%s'", attr);
}

/* one attribute through a setter, warning when it is not used */
int gsx_applyOne(gsxCtx* c, gsxSetFn fn, void* obj, const gsxAt* a) {
  int r = fn(c, obj, a);
  if (r == GSX_ERR) return 0;
  if (r == GSX_UNUSED) gsx_warnAttr(c, a);
  return 1;
}

/* the element's own attributes, except those named in skip (space-separated) */
int gsx_applyOwn(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem, gsxSetFn fn,
                     void* obj, const char* skip) {
  int line = gsx_line(node);
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (!gsx_isMjcfAttr(at)) continue;
    const char* name = (const char*)at->name;
    if (skip && gsx_inList(skip, name)) continue;
    xmlChar* v = gsx_attrValue(c, at);
    if (!v) return gsx_oom(c);
    gsxAt a = {elem, name, (const char*)v, src->name, line};
    int ok = gsx_applyOne(c, fn, obj, &a);
    xmlFree(v);
    if (!ok) return 0;
  }
  return 1;
}

/* the values of class `of` (cls or an ancestor) and its ancestors for kind, root first, as cls
 * sees them */
static int apply_class(gsxCtx* c, int cls, int of, const char* kind, gsxSetFn fn, void* obj) {
  if (of < 0) return 1;
  if (!apply_class(c, cls, c->defs.cls[of].parent, kind, fn, obj)) return 0;
  const gsxClass* k = &c->defs.cls[of];
  for (int e = 0; e < k->nelem; e++) {
    if (strcmp(k->elem[e].kind, kind) != 0) continue;
    int n = gsx_classSees(&c->defs, cls, of, e);
    for (int i = 0; i < n; i++) {
      const gsxAttr* d = &k->elem[e].attr[i];
      gsxAt a = {kind, d->name, d->value, d->file, d->line};
      if (!gsx_applyOne(c, fn, obj, &a)) return 0;
    }
  }
  return 1;
}

int gsx_applyClass(gsxCtx* c, int cls, const char* kind, gsxSetFn fn, void* obj) {
  return apply_class(c, cls, cls, kind, fn, obj);
}

/* the class an element uses: its class=, else the one inherited from the enclosing bodies */
int gsx_elementClass(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem,
                         const char* attr, int inherited, int* cls) {
  xmlChar* name = gsx_getAttr(c, node, attr);
  *cls = inherited;
  if (!name) return 1;
  *cls = gsx_classFind(&c->defs, (const char*)name);
  if (*cls < 0)
    gsx_error(c, src->name, gsx_line(node), elem, "undefined class '%.60s'", (const char*)name);
  xmlFree(name);
  return *cls >= 0;
}

/* name= and the position in the file */
int gsx_setInfo(gsxCtx* c, gsSpecInfo* info, xmlNodePtr node, const gsxFile* src) {
  info->file = src->name;
  info->line = gsx_line(node);
  if (c->nrep && ++c->replicated > GSX_MAX_REPLICATED)
    return gsx_error(c, src->name, info->line, gsx_name(node),
                     "replicates make more than %d elements", GSX_MAX_REPLICATED);
  xmlChar* name = gsx_getAttr(c, node, "name");
  if (!name) return 1;
  int ok;
  if (c->nrep) {
    /* inside <replicate>: the replica's name, remembered for the references to replicate */
    char* full = NULL;
    ok = gsx_replicaName(c, (const char*)name, &full) && gs_specSetName(info, full) &&
         gsx_replicaRecord(c, info, (const char*)name);
    free(full);
  } else {
    ok = gs_specSetName(info, (const char*)name);
  }
  xmlFree(name);
  return ok ? 1 : gsx_oom(c);
}

/* ---- skipped elements ---- */

/* names in a skipped subtree must still be MJCF */
static int check_names(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  (void)user;
  if (!gsx_isElement(gsx_name(ch)))
    return gsx_error(c, src->name, gsx_line(ch), gsx_name(ch), "unknown element");
  return gsx_eachChild(c, ch, src, check_names, NULL);
}

/* a valid element the engine does not simulate: one warning, subtree checked and left out */
int gsx_skipElement(gsxCtx* c, xmlNodePtr node, const gsxFile* src) {
  gsx_warnElement(c, src->name, gsx_line(node), gsx_name(node));
  return gsx_eachChild(c, node, src, check_names, NULL);
}

/* a child of an element that has no simulated children */
static int other_child(gsxCtx* c, xmlNodePtr ch, const gsxFile* src, void* user) {
  const char* parent = user;
  const char* name = gsx_name(ch);
  int line = gsx_line(ch);
  if (!gsx_isElement(name)) return gsx_error(c, src->name, line, name, "unknown element");
  if (!gsx_childAllowed(parent, name))
    return gsx_error(c, src->name, line, name, "element is not allowed in <%s>", parent);
  return gsx_skipElement(c, ch, src);
}

int gsx_checkChildren(gsxCtx* c, xmlNodePtr node, const gsxFile* src, const char* elem) {
  return gsx_eachChild(c, node, src, other_child, (void*)elem);
}
