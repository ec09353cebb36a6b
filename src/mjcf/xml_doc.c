/* Documents: reading XML with libxml2 (its messages captured, never printed) and <include>,
 * whose file's top-level children are visited in place of the <include> element. */
#define _XOPEN_SOURCE 700  /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/parserInternals.h>  /* xmlCreateMemoryParserCtxt */
#include <libxml/xmlerror.h>

#include "xml_internal.h"

/* state of one libxml2 parse: its first fatal error, and the SAX handlers that the wrappers
 * below call */
typedef struct {
  int have;
  int line;
  char msg[400];
  gsxCtx* ctx;
  startElementNsSAX2Func start;
  getEntitySAXFunc get_entity;
  getParameterEntitySAXFunc get_pentity;
} gsxXmlError;

/* libxml2 gives structured errors to this instead of printing them; data is the parser context,
 * whose _private holds the gsxXmlError */
#if LIBXML_VERSION >= 21200
static void on_xml_error(void* data, const xmlError* e) {
#else
static void on_xml_error(void* data, xmlErrorPtr e) {
#endif
  xmlParserCtxtPtr pc = data;
  gsxXmlError* xe = pc ? pc->_private : NULL;
  /* warnings and namespace errors (MJCF ignores namespaces) do not make a file malformed */
  if (!xe || !e || e->level != XML_ERR_FATAL || xe->have) return;
  xe->have = 1;
  xe->line = e->line;
  snprintf(xe->msg, sizeof(xe->msg), "%s", e->message ? e->message : "unknown error");
  /* libxml2 ends its messages with a newline, and some go on with the bytes of the input after
   * one ("Bytes: 0xE9 ..."): the first line is the message */
  xe->msg[strcspn(xe->msg, "\r\n")] = 0;
}

/* one of our limits was passed: the first error of the parse, and libxml2 stops */
static void parse_fail(xmlParserCtxtPtr pc, const char* msg) {
  gsxXmlError* xe = pc->_private;
  if (!xe->have) {
    xe->have = 1;
    xe->line = pc->input ? pc->input->line : 0;
    snprintf(xe->msg, sizeof(xe->msg), "%s", msg);
  }
  pc->wellFormed = 0;  /* so that libxml2 does not look the entity up again by itself */
  xmlStopParser(pc);
}

/* every entity reference the parser resolves (in attribute values, in text, nested in other
 * entities) is charged its replacement text; past GSX_MAX_ENTITY_BYTES the load fails. This is
 * what keeps entity "bombs" (one entity referenced many times, or nested entities) linear. */
static int charge_entity(xmlParserCtxtPtr pc, xmlEntityPtr e) {
  gsxXmlError* xe = pc->_private;
  size_t n = e->length > 0 ? (size_t)e->length : 0;
  gsxCtx* c = xe->ctx;
  if (xe->have || c->entity_bytes + n + 32 > GSX_MAX_ENTITY_BYTES) {
    char msg[160];
    snprintf(msg, sizeof(msg), "entity references expand to more than %zu MiB of text",
             GSX_MAX_ENTITY_BYTES >> 20);
    parse_fail(pc, msg);
    return 0;
  }
  c->entity_bytes += n + 32;  /* a reference costs something in itself, even to an empty entity */
  return 1;
}

static xmlEntityPtr get_entity(void* ctx, const xmlChar* name) {
  xmlParserCtxtPtr pc = ctx;
  gsxXmlError* xe = pc->_private;
  xmlEntityPtr e = xe->get_entity(ctx, name);
  return e && !charge_entity(pc, e) ? NULL : e;
}

static xmlEntityPtr get_pentity(void* ctx, const xmlChar* name) {
  xmlParserCtxtPtr pc = ctx;
  gsxXmlError* xe = pc->_private;
  xmlEntityPtr e = xe->get_pentity(ctx, name);
  return e && !charge_entity(pc, e) ? NULL : e;
}

/* no external entity or DTD is ever loaded (libxml2 would not without XML_PARSE_NOENT or
 * DTDLOAD either; this makes it certain) */
static xmlParserInputPtr no_resolve(void* ctx, const xmlChar* pub, const xmlChar* sys) {
  (void)ctx, (void)pub, (void)sys;
  return NULL;
}

static void no_subset(void* ctx, const xmlChar* name, const xmlChar* ext, const xmlChar* sys) {
  (void)ctx, (void)name, (void)ext, (void)sys;
}

/* the attributes of a new element, appended in order. libxml2's tree builder walks the whole list
 * for each attribute it appends (quadratic: 10^5 attributes took half a minute); values keep
 * their entity references, which gsx_attrValue expands. */
static void add_attrs(xmlParserCtxtPtr pc, xmlNodePtr node, int nattr, const xmlChar** attrs) {
  xmlAttrPtr tail = node->properties;
  while (tail && tail->next) tail = tail->next;
  for (int i = 0; i < nattr; i++) {
    const xmlChar* local = attrs[5 * i];
    const xmlChar* prefix = attrs[5 * i + 1];
    const xmlChar* value = attrs[5 * i + 3];
    int len = (int)(attrs[5 * i + 4] - value);
    xmlAttrPtr a = xmlMalloc(sizeof(xmlAttr));
    if (!a) {
      parse_fail(pc, "out of memory");
      return;
    }
    memset(a, 0, sizeof(*a));
    a->type = XML_ATTRIBUTE_NODE;
    a->parent = node;
    a->doc = node->doc;
    xmlNsPtr ns = prefix ? xmlSearchNs(node->doc, node, prefix) : NULL;
    /* a prefix without a declaration stays in the name, which makes it a non-MJCF attribute */
    if (prefix && !ns) {
      xmlChar* head = xmlStrncatNew(prefix, (const xmlChar*)":", 1);
      a->name = head ? xmlStrncatNew(head, local, -1) : NULL;
      xmlFree(head);
    } else {
      a->name = xmlStrdup(local);
    }
    a->ns = ns;
    /* "&" remains only where an entity reference is: then a list of text and references */
    a->children = memchr(value, '&', (size_t)len) ? xmlStringLenGetNodeList(node->doc, value, len)
                                                  : xmlNewDocTextLen(node->doc, value, len);
    for (xmlNodePtr ch = a->children; ch; ch = ch->next) {
      ch->parent = (xmlNodePtr)a;
      a->last = ch;
    }
    if (tail) {
      tail->next = a;
      a->prev = tail;
    } else {
      node->properties = a;
    }
    tail = a;
    if (!a->name || (len > 0 && !a->children)) {
      parse_fail(pc, "out of memory");
      return;
    }
  }
}

/* libxml2 numbers an element by the line where its start tag ends; messages should point at the
 * line where it begins, as other MJCF tools do. When the tree builder has made the node, the
 * input is at the end of the start tag: count the newlines back to its '<' (attribute values cannot
 * hold '<'). Should the parser have dropped that part of its buffer, the line stays as it was. */
static void start_element(void* ctx, const xmlChar* localname, const xmlChar* prefix,
                          const xmlChar* uri, int nns, const xmlChar** ns, int nattr,
                          int ndefaulted, const xmlChar** attrs) {
  xmlParserCtxtPtr pc = ctx;
  gsxXmlError* xe = pc->_private;
  if (nattr > GSX_MAX_ATTRS) {
    parse_fail(pc, "an element has too many attributes");
    return;
  }
  xe->start(ctx, localname, prefix, uri, nns, ns, 0, 0, NULL);
  if (pc->nodeNr > GSX_MAX_DEPTH) {
    char msg[80];
    snprintf(msg, sizeof(msg), "elements nested deeper than %d", GSX_MAX_DEPTH);
    parse_fail(pc, msg);
    return;
  }
  xmlNodePtr node = pc->node;
  if (!node || !xmlStrEqual(node->name, localname)) return;
  /* attributes defaulted from a DTD are left out, as libxml2 does without XML_PARSE_DTDATTR */
  add_attrs(pc, node, nattr - ndefaulted, attrs);
  xmlParserInputPtr in = pc->input;
  if (!in || !in->cur || !in->base || node->line == 0 || node->line >= 65535) return;
  const xmlChar* p = in->cur;
  int nl = 0;
  while (p > in->base && *--p != '<') nl += *p == '\n';
  if (*p == '<' && nl < node->line) node->line = (unsigned short)(node->line - nl);
}

/* where pat first occurs in s[from..n), NULL when nowhere (s need not end with a NUL) */
static const char* find(const char* s, size_t n, size_t from, const char* pat) {
  size_t k = strlen(pat);
  while (from + k <= n) {
    const char* p = memchr(s + from, pat[0], n - from - k + 1);
    if (!p) return NULL;
    if (memcmp(p, pat, k) == 0) return p;
    from = (size_t)(p - s) + 1;
  }
  return NULL;
}

static int name_start(char ch) {
  unsigned char u = (unsigned char)ch;
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || u == '_' || u == ':' || u >= 0x80;
}

/* A scan of the markup: the most attributes in one start tag (libxml2 compares each attribute
 * with all before it, so a tag with an absurd number must be refused before libxml2 sees it),
 * and where an attribute's closing quote is followed at once by another attribute's name
 * (name="a"type="box": malformed XML, which MJCF's own parser reads as two attributes; a file
 * of MyoSuite's has it): *glued counts them, *first is the first one's offset. Comments, CDATA,
 * processing instructions and the DOCTYPE (through its quotes and brackets) are skipped; inside
 * a tag, '=' outside quotes counts one attribute. With out (room for n + *glued bytes, *glued
 * from a scan before), the text is also copied there with a space put after each such quote
 * (no line moves). */
static size_t scan_markup(const char* s, size_t n, size_t* glued, size_t* first, char* out) {
  size_t i = 0, most = 0, copied = 0, o = 0;
  *glued = 0;
  while (i < n) {
    const char* lt = memchr(s + i, '<', n - i);
    if (!lt) break;
    i = (size_t)(lt - s);
    const char* end = NULL;
    if (n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
      end = find(s, n, i + 4, "-->");
    } else if (n - i >= 9 && memcmp(s + i, "<![CDATA[", 9) == 0) {
      end = find(s, n, i + 9, "]]>");
    } else if (n - i >= 2 && s[i + 1] == '?') {
      end = find(s, n, i + 2, "?>");
    } else if (n - i >= 2 && s[i + 1] == '!') {
      int depth = 0;
      char q = 0;
      for (i += 2; i < n; i++) {
        if (q) {
          if (s[i] == q) q = 0;
        } else if (s[i] == '"' || s[i] == '\'') {
          q = s[i];
        } else if (s[i] == '<' && n - i >= 4 && memcmp(s + i, "<!--", 4) == 0) {
          const char* e = find(s, n, i + 4, "-->");
          i = e ? (size_t)(e - s) + 2 : n;
        } else if (s[i] == '[') {
          depth++;
        } else if (s[i] == ']') {
          depth--;
        } else if (s[i] == '>' && depth <= 0) {
          break;
        }
      }
      i++;
      continue;
    } else {
      size_t count = 0;
      char q = 0;
      for (i++; i < n && (q || s[i] != '>'); i++) {
        if (q) {
          if (s[i] != q) continue;
          q = 0;
          if (i + 1 < n && name_start(s[i + 1])) {
            if ((*glued)++ == 0) *first = i + 1;
            if (out) {
              memcpy(out + o, s + copied, i + 1 - copied);
              o += i + 1 - copied;
              out[o++] = ' ';
              copied = i + 1;
            }
          }
        } else if (s[i] == '"' || s[i] == '\'') {
          q = s[i];
        } else if (s[i] == '=') {
          count++;
        }
      }
      if (count > most) most = count;
      i++;
      continue;
    }
    if (!end) break;  /* unterminated: libxml2 reports it */
    i = (size_t)(end - s) + 1;
  }
  if (out) memcpy(out + o, s + copied, n - copied);
  return most;
}

int gsx_line(xmlNodePtr node) {
  long l = xmlGetLineNo(node);
  return l > 0 && l < INT_MAX ? (int)l : 0;
}

const char* gsx_name(xmlNodePtr node) { return (const char*)node->name; }

/* an attribute value being assembled: amortised growth, so that the cost is linear in its size */
typedef struct {
  xmlChar* s;
  size_t n, cap;
  size_t from_entities;   /* bytes that entity references produced */
  int too_much, nested, oom;
} AttrText;

static void text_add(AttrText* t, const xmlChar* s, size_t n, int from_entity) {
  if (t->too_much || t->oom || !s) return;
  if (from_entity) {
    t->from_entities += n;
    if (t->from_entities > GSX_MAX_ENTITY_BYTES) {
      t->too_much = 1;
      return;
    }
  }
  if (t->n + n + 1 > t->cap) {
    size_t cap = t->cap ? t->cap : 64;
    while (cap < t->n + n + 1) cap *= 2;
    xmlChar* p = xmlRealloc(t->s, cap);
    if (!p) {
      t->oom = 1;
      return;
    }
    t->s = p;
    t->cap = cap;
  }
  memcpy(t->s + t->n, s, n);
  t->n += n;
  t->s[t->n] = 0;
}

/* text and entity references of an attribute (or of an entity's replacement), in order */
static void text_expand(AttrText* t, xmlDocPtr doc, xmlNodePtr list, int depth) {
  for (xmlNodePtr ch = list; ch && !t->too_much && !t->oom && !t->nested; ch = ch->next) {
    if (ch->type == XML_TEXT_NODE || ch->type == XML_CDATA_SECTION_NODE) {
      if (ch->content) text_add(t, ch->content, strlen((const char*)ch->content), depth > 0);
    } else if (ch->type == XML_ENTITY_REF_NODE) {
      if (depth >= GSX_MAX_ENTITY_DEPTH) {
        t->nested = 1;
        return;
      }
      xmlEntityPtr e = xmlGetDocEntity(doc, ch->name);
      if (!e) continue;
      if (e->children && e->children != (xmlNodePtr)-1)
        text_expand(t, doc, e->children, depth + 1);
      else if (e->content)
        text_add(t, e->content, strlen((const char*)e->content), 1);
    }
  }
}

/* the file a document belongs to, for messages */
static const char* file_of(const gsxCtx* c, xmlDocPtr doc) {
  for (int i = 0; i < c->nfile; i++)
    if (c->files[i]->doc == doc) return c->files[i]->name;
  return NULL;
}

xmlChar* gsx_attrValue(gsxCtx* c, xmlAttrPtr at) {
  /* the common case, one text node, as it is */
  if (!at->children || (at->children == at->last && at->children->type == XML_TEXT_NODE)) {
    xmlChar* v = xmlStrdup(at->children && at->children->content ? at->children->content
                                                                  : (const xmlChar*)"");
    if (!v) gsx_oom(c);
    return v;
  }
  AttrText t = {NULL, 0, 0, 0, 0, 0, 0};
  text_add(&t, (const xmlChar*)"", 0, 0);
  text_expand(&t, at->doc, at->children, 0);
  if (t.too_much || t.nested || t.oom) {
    xmlFree(t.s);
    if (t.oom) return gsx_oom(c), NULL;
    int line = at->parent ? gsx_line(at->parent) : 0;
    const char* elem = at->parent ? gsx_name(at->parent) : NULL;
    if (t.nested)
      gsx_error(c, file_of(c, at->doc), line, elem,
                "attribute '%.60s': entities nested deeper than %d", (const char*)at->name,
                GSX_MAX_ENTITY_DEPTH);
    else
      gsx_error(c, file_of(c, at->doc), line, elem,
                "attribute '%.60s': entity references expand to more than %zu MiB",
                (const char*)at->name, GSX_MAX_ENTITY_BYTES >> 20);
    return NULL;
  }
  return t.s;
}

static char* dup(const char* s) {
  size_t n = strlen(s) + 1;
  char* p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* the directory part of path, "." when it has none */
static char* dir_of(const char* path) {
  const char* slash = strrchr(path, '/');
  if (!slash) return dup(".");
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char* d = malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, path, n);
  d[n] = 0;
  return d;
}

gsxFile* gsx_loadString(gsxCtx* c, const char* xml, size_t len, const char* name, const char* dir,
                        const char* canon) {
  /* register first, so that gsx_ctxFree releases everything on any path */
  if (c->nfile == c->capfile) {
    int ncap = c->capfile ? 2 * c->capfile : 4;
    gsxFile** p = realloc(c->files, (size_t)ncap * sizeof(gsxFile*));
    if (!p) return gsx_oom(c), NULL;
    c->files = p;
    c->capfile = ncap;
  }
  gsxFile* f = calloc(1, sizeof(gsxFile));
  if (!f) return gsx_oom(c), NULL;
  c->files[c->nfile++] = f;
  f->name = gs_specIntern(c->spec, name);
  f->dir = dup(dir);
  f->canon = canon ? dup(canon) : NULL;
  if (!f->name || !f->dir || (canon && !f->canon)) return gsx_oom(c), NULL;
  if (len > INT_MAX) return gsx_error(c, f->name, 0, NULL, "file too large"), NULL;
  c->xml_bytes += len;
  if (c->xml_bytes > GSX_MAX_XML_BYTES)
    return gsx_error(c, f->name, 0, NULL, "the XML files of the model exceed %zu MiB in all",
                     GSX_MAX_XML_BYTES >> 20),
           NULL;
  size_t glued = 0, first = 0;
  if (scan_markup(xml, len, &glued, &first, NULL) > GSX_MAX_ATTRS)
    return gsx_error(c, f->name, 0, NULL, "an element has more than %d attributes",
                     GSX_MAX_ATTRS),
           NULL;
  /* attributes with no space between them: read apart, as MJCF's parser reads them, from a copy
   * with a space put after each closing quote that a name follows */
  char* spaced = NULL;
  if (glued) {
    if (len > (size_t)INT_MAX - glued) return gsx_error(c, f->name, 0, NULL, "file too large"), NULL;
    spaced = malloc(len + glued);
    if (!spaced) return gsx_oom(c), NULL;
    size_t again = 0;
    scan_markup(xml, len, &again, &first, spaced);
    int line = 1;
    for (size_t i = 0; i < first; i++) line += xml[i] == '\n';
    gsx_warn(c, f->name, line,
             "attributes with no space between them (%zu in the file) are read apart, as MJCF's "
             "parser reads them: malformed XML",
             glued);
    xml = spaced;
    len += glued;
  }
  /* libxml2 makes no parser for an empty buffer */
  if (len == 0) return gsx_error(c, f->name, 1, NULL, "malformed XML: document is empty"), NULL;

  xmlParserCtxtPtr pc = xmlCreateMemoryParserCtxt(xml, (int)len);
  if (!pc) return free(spaced), gsx_oom(c), NULL;
  gsxXmlError xe = {0, 0, "", c, NULL, NULL, NULL};
  pc->_private = &xe;
#if LIBXML_VERSION >= 21300
  xmlCtxtSetErrorHandler(pc, on_xml_error, pc);
#else
  pc->sax->serror = on_xml_error;  /* used by libxml2 for this context's errors */
#endif
  /* no network, line numbers past 65535, and our limits (xml_internal.h) in place of libxml2's
   * (XML_PARSE_HUGE). Entities are not substituted by libxml2: gsx_attrValue expands them. */
  xmlCtxtUseOptions(pc, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_HUGE);
  xe.start = pc->sax->startElementNs;
  xe.get_entity = pc->sax->getEntity;
  xe.get_pentity = pc->sax->getParameterEntity;
  if (!xe.start || !xe.get_entity || !xe.get_pentity) {
    xmlFreeParserCtxt(pc);
    free(spaced);
    return gsx_error(c, f->name, 0, NULL, "libxml2 without SAX2"), NULL;
  }
  pc->sax->startElementNs = start_element;
  pc->sax->getEntity = get_entity;
  pc->sax->getParameterEntity = get_pentity;
  pc->sax->resolveEntity = no_resolve;
  pc->sax->externalSubset = no_subset;
  xmlParseDocument(pc);
  f->doc = pc->myDoc;
  pc->myDoc = NULL;
  int wellformed = pc->wellFormed;
  xmlFreeParserCtxt(pc);
  free(spaced);
  if (xe.have || !wellformed || !f->doc) {
    if (f->doc) xmlFreeDoc(f->doc);
    f->doc = NULL;
    /* confined: libxml2 quotes names from the text, which need not be the caller's to see */
    int quiet = c->confined && c->nfile > 1;
    return gsx_error(c, f->name, xe.line, NULL, "malformed XML%s%s", quiet ? "" : ": ",
                     quiet ? "" : xe.have ? xe.msg : "cannot parse"),
           NULL;
  }
  if (!xmlDocGetRootElement(f->doc))
    return gsx_error(c, f->name, 0, NULL, "malformed XML: no root element"), NULL;
  return f;
}

/* the whole file in a malloc'd buffer; NULL with errno set on failure */
static char* read_all(const char* path, size_t* len) {
  /* a device or a pipe (/dev/zero, a FIFO) could block or never end: only regular files */
  struct stat st;
  if (stat(path, &st) != 0) return NULL;
  if (!S_ISREG(st.st_mode)) {
    errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    return NULL;
  }
  FILE* fp = fopen(path, "rb");
  if (!fp) return NULL;
  size_t cap = 1 << 16, n = 0;
  char* buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, fp);
    if (n < cap) break;
    char* grown = realloc(buf, cap * 2);
    if (!grown) {
      free(buf);
      buf = NULL;
      errno = ENOMEM;
      break;
    }
    buf = grown;
    cap *= 2;
  }
  int failed = buf && ferror(fp), why = errno;  /* e.g. EISDIR for a directory */
  fclose(fp);
  if (failed) {
    free(buf);
    errno = why ? why : EIO;
    return NULL;
  }
  *len = n;
  return buf;
}

int gsx_allowedPath(gsxCtx* c, const char* path) {
  c->denied = 0;
  if (!c->confined) return 1;
  char real[PATH_MAX];
  /* "..", symbolic links and absolute paths all resolve to where the file really is */
  size_t k = c->root ? strlen(c->root) : 0;
  if (c->root && realpath(path, real) &&
      strncmp(real, c->root, k) == 0 && (real[k] == '/' || real[k] == 0 || k == 1))
    return 1;
  c->denied = 1;  /* whether or not it exists: nothing is told about files outside */
  errno = EACCES;
  return 0;
}

const char* gsx_readError(const gsxCtx* c) {
  if (c->denied)
    return c->root ? "outside the model's directory (confined loading)"
                   : "not an in-memory file (confined loading of a string)";
  return strerror(errno ? errno : EIO);
}

int gsx_readAsset(gsxCtx* c, const char* path, void** data, size_t* n) {
  const void* mem;
  size_t len;
  c->denied = 0;
  if (gsx_vfsFind(c->vfs, path, &mem, &len)) {
    char* copy = malloc(len ? len : 1);
    if (!copy) {
      errno = ENOMEM;
      return 0;
    }
    if (len) memcpy(copy, mem, len);
    *data = copy;
    *n = len;
    return 1;
  }
  if (!gsx_allowedPath(c, path)) return 0;
  char* buf = read_all(path, &len);
  if (!buf) return 0;
  *data = buf;
  *n = len;
  return 1;
}

/* a name that is the same for every way of writing the path: "vfs:KEY" for an in-memory file,
 * the real path on the disk otherwise; 0 with errno set when there is no such file */
static int canonical(gsxCtx* c, const char* path, char canon[PATH_MAX]) {
  const char* key = gsx_vfsFind(c->vfs, path, NULL, NULL);
  if (key) {
    if (snprintf(canon, PATH_MAX, "vfs:%s", key) >= PATH_MAX) {
      errno = ENAMETOOLONG;
      return 0;
    }
    return 1;
  }
  c->denied = 0;
  return gsx_allowedPath(c, path) && realpath(path, canon) != NULL;
}

gsxFile* gsx_loadFile(gsxCtx* c, const char* path, const char* incfile, int incline) {
  char canon[PATH_MAX];
  size_t len = 0;
  void* data = NULL;
  char* buf = NULL;
  int ok = canonical(c, path, canon);
  /* a file past the limit is not read at all */
  struct stat st;
  if (ok && !gsx_vfsFind(c->vfs, path, NULL, NULL) && stat(path, &st) == 0 &&
      S_ISREG(st.st_mode) && (unsigned long long)st.st_size > GSX_MAX_XML_BYTES - c->xml_bytes)
    return gsx_error(c, incfile ? incfile : path, incfile ? incline : 0, incfile ? "include" : NULL,
                     "the XML files of the model exceed %zu MiB in all", GSX_MAX_XML_BYTES >> 20),
           NULL;
  if (ok && gsx_readAsset(c, path, &data, &len)) buf = data;
  if (!buf) {
    const char* why = gsx_readError(c);
    if (incfile) return gsx_error(c, incfile, incline, "include", "cannot read file '%s': %s",
                                  path, why),
                 NULL;
    return gsx_error(c, path, 0, NULL, "cannot read file: %s", why), NULL;
  }
  char* dir = dir_of(path);
  gsxFile* f = dir ? gsx_loadString(c, buf, len, path, dir, canon) : (gsx_oom(c), NULL);
  free(dir);
  free(buf);
  return f;
}

/* ---- <include> ---- */

static int include(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsxChildFn fn, void* user) {
  int line = gsx_line(node);
  xmlChar* file = NULL;
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (at->ns) continue;  /* namespaced attributes (xsi:...) are not MJCF */
    if (strcmp((const char*)at->name, "file") != 0) {
      xmlFree(file);
      return gsx_error(c, src->name, line, "include", "unknown attribute '%.60s'",
                       (const char*)at->name);
    }
    xmlFree(file);
    file = gsx_attrValue(c, at);
    if (!file) return gsx_oom(c);
  }
  if (!file || !file[0]) {
    xmlFree(file);
    return gsx_error(c, src->name, line, "include", "missing required attribute 'file'");
  }

  /* relative to the directory of the main file, as MJCF documents it, else (where nothing is
   * there) to that of the including file, as MuJoCo 3.3.7 also finds it; "./" adds nothing to
   * messages */
  const char* rel = (const char*)file;
  while (rel[0] == '.' && rel[1] == '/') rel += 2;
  const char* dirs[2] = {c->nfile > 0 ? c->files[0]->dir : src->dir, src->dir};
  char path[PATH_MAX], canon[PATH_MAX];
  int found = 0;
  for (int k = 0; k < 2 && !found; k++) {
    if (k == 1 && strcmp(dirs[0], dirs[1]) == 0) break;
    int n = rel[0] == '/' || strcmp(dirs[k], ".") == 0
                ? snprintf(path, sizeof(path), "%s", rel)
                : snprintf(path, sizeof(path), "%s/%s", dirs[k], rel);
    if (n < 0 || (size_t)n >= sizeof(path)) {
      xmlFree(file);
      return gsx_error(c, src->name, line, "include", "file name too long");
    }
    found = canonical(c, path, canon);
    if (rel[0] == '/') break;
  }
  xmlFree(file);
  if (!found)
    return gsx_error(c, src->name, line, "include", "cannot read file '%s': %s", path,
                     gsx_readError(c));
  for (int i = 0; i < c->ninc; i++)
    if (strcmp(c->incstack[i], canon) == 0)
      return gsx_error(c, src->name, line, "include",
                       "include cycle: '%s' is already being included", path);
  if (c->ninc >= GSX_MAX_INCLUDE_DEPTH)
    return gsx_error(c, src->name, line, "include", "includes nested too deeply");

  /* a file visited before (the reader walks the top level twice) is not read again */
  gsxFile* f = NULL;
  for (int i = 0; i < c->nfile && !f; i++)
    if (c->files[i]->canon && c->files[i]->doc && strcmp(c->files[i]->canon, canon) == 0)
      f = c->files[i];
  if (!f) f = gsx_loadFile(c, path, src->name, line);
  if (!f) return 0;
  /* confined: a file that is not MJCF is not read further, so that no message quotes it */
  if (c->confined && strcmp(gsx_name(xmlDocGetRootElement(f->doc)), "mujoco") != 0)
    return gsx_error(c, src->name, line, "include",
                     "'%s' is not an MJCF file (its root element is not <mujoco>)", path);

  c->incstack[c->ninc++] = f->canon;
  int ok = gsx_eachChild(c, xmlDocGetRootElement(f->doc), f, fn, user);
  c->ninc--;
  return ok;
}

int gsx_eachChild(gsxCtx* c, xmlNodePtr node, const gsxFile* src, gsxChildFn fn, void* user) {
  for (xmlNodePtr ch = node->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE) continue;  /* text, comments: not used by MJCF */
    int ok = strcmp(gsx_name(ch), "include") == 0 ? include(c, ch, src, fn, user)
                                                  : fn(c, ch, src, user);
    if (!ok) return 0;
  }
  return 1;
}
