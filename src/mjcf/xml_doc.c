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

/* state of one libxml2 parse: its first fatal error, and the SAX handler that start_element
 * wraps */
typedef struct {
  int have;
  int line;
  char msg[400];
  startElementNsSAX2Func start;
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
  /* libxml2 ends its messages with a newline */
  size_t n = strlen(xe->msg);
  while (n > 0 && (xe->msg[n - 1] == '\n' || xe->msg[n - 1] == '\r')) xe->msg[--n] = 0;
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
  xe->start(ctx, localname, prefix, uri, nns, ns, nattr, ndefaulted, attrs);
  xmlNodePtr node = pc->node;
  xmlParserInputPtr in = pc->input;
  if (!node || !xmlStrEqual(node->name, localname) || !in || !in->cur || !in->base ||
      node->line == 0 || node->line >= 65535)
    return;
  const xmlChar* p = in->cur;
  int nl = 0;
  while (p > in->base && *--p != '<') nl += *p == '\n';
  if (*p == '<' && nl < node->line) node->line = (unsigned short)(node->line - nl);
}

int gsx_line(xmlNodePtr node) {
  long l = xmlGetLineNo(node);
  return l > 0 && l < INT_MAX ? (int)l : 0;
}

const char* gsx_name(xmlNodePtr node) { return (const char*)node->name; }

xmlChar* gsx_attrValue(xmlAttrPtr at) {
  xmlChar* v = xmlNodeListGetString(at->doc, at->children, 1);
  return v ? v : xmlStrdup((const xmlChar*)"");
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
  /* libxml2 makes no parser for an empty buffer */
  if (len == 0) return gsx_error(c, f->name, 1, NULL, "malformed XML: document is empty"), NULL;

  xmlParserCtxtPtr pc = xmlCreateMemoryParserCtxt(xml, (int)len);
  if (!pc) return gsx_oom(c), NULL;
  gsxXmlError xe = {0, 0, "", NULL};
  pc->_private = &xe;
#if LIBXML_VERSION >= 21300
  xmlCtxtSetErrorHandler(pc, on_xml_error, pc);
#else
  pc->sax->serror = on_xml_error;  /* used by libxml2 for this context's errors */
#endif
  /* no network, no entity expansion, line numbers past 65535 */
  xmlCtxtUseOptions(pc, XML_PARSE_NONET | XML_PARSE_BIG_LINES);
  xe.start = pc->sax->startElementNs;
  if (xe.start) pc->sax->startElementNs = start_element;
  xmlParseDocument(pc);
  f->doc = pc->myDoc;
  pc->myDoc = NULL;
  int wellformed = pc->wellFormed;
  xmlFreeParserCtxt(pc);
  if (xe.have || !wellformed || !f->doc) {
    if (f->doc) xmlFreeDoc(f->doc);
    f->doc = NULL;
    return gsx_error(c, f->name, xe.line, NULL, "malformed XML: %s",
                     xe.have ? xe.msg : "cannot parse"),
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

int gsx_readAsset(gsxCtx* c, const char* path, void** data, size_t* n) {
  const void* mem;
  size_t len;
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
  return realpath(path, canon) != NULL;
}

gsxFile* gsx_loadFile(gsxCtx* c, const char* path, const char* incfile, int incline) {
  char canon[PATH_MAX];
  size_t len = 0;
  void* data = NULL;
  char* buf = NULL;
  if (canonical(c, path, canon) && gsx_readAsset(c, path, &data, &len)) buf = data;
  if (!buf) {
    const char* why = strerror(errno);
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
    file = gsx_attrValue(at);
    if (!file) return gsx_oom(c);
  }
  if (!file || !file[0]) {
    xmlFree(file);
    return gsx_error(c, src->name, line, "include", "missing required attribute 'file'");
  }

  /* relative to the directory of the including file; "./" adds nothing to messages */
  const char* rel = (const char*)file;
  while (rel[0] == '.' && rel[1] == '/') rel += 2;
  char path[PATH_MAX];
  int n = rel[0] == '/' || strcmp(src->dir, ".") == 0
              ? snprintf(path, sizeof(path), "%s", rel)
              : snprintf(path, sizeof(path), "%s/%s", src->dir, rel);
  xmlFree(file);
  if (n < 0 || (size_t)n >= sizeof(path))
    return gsx_error(c, src->name, line, "include", "file name too long");

  char canon[PATH_MAX];
  if (!canonical(c, path, canon))
    return gsx_error(c, src->name, line, "include", "cannot read file '%s': %s", path,
                     strerror(errno));
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
