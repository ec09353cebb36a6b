/* URDF: a robot as links joined by joints into a tree, read into a gsSpec with the meaning MJCF's
 * loader gives it, so that the compiler does the rest:
 * - each link is a body, placed by the origin of the joint whose child it is; a revolute or
 *   continuous joint is a hinge, prismatic a slide, floating a free joint, spherical a ball,
 *   planar two slides and a hinge (<name>_TX, _TY, _RZ), fixed no joint (the body is then static
 *   and, with fusestatic, merged into its parent). A link named "world" is the world body.
 * - <inertial> is the body's explicit inertia (all six moments zero: none given); <collision>
 *   geoms collide, <visual> ones are kept only without discardvisual (group 1, no contact, no
 *   mass); a geom takes the colour of the last <visual> material of its link.
 * - <limit lower upper> is the joint range (radians or metres; one side or an empty range: not
 *   limited), effort the actuator force range; <dynamics damping friction> damping and
 *   frictionloss.
 * - a <mujoco> child holds <compiler>, <option> and <size> as in MJCF. Without them URDF gets
 *   strippath, fusestatic and discardvisual, and angles are always radians.
 * Each link is named once, each joint names existing links, each link has at most one parent,
 * and no joints close a loop; otherwise an error names file, line and element. Links without a
 * parent (roots) each hang on the world body, in the order of the links, as MuJoCo's loader
 * does. Other elements (transmission, gazebo, ...) are ignored, as MJCF's loader does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "core/math.h"
#include "model/compile.h"
#include "model/spec_slices.h"
#include "xml_internal.h"

typedef struct {
  const char* name;        /* the link's name= (libxml2's) */
  xmlNodePtr node;
  xmlNodePtr joint;        /* the joint that makes it a child, NULL for a root */
  int parent;              /* -1 for a root */
  int nchild, cap;
  int* child;              /* in the order of their joints in the file */
  gsSpecBody* body;
} Link;

typedef struct {
  char* name;
  gsReal scale[3];
  int index;               /* the meshes of this base name so far */
} MeshUse;

typedef struct {
  gsxCtx* c;
  const gsxFile* src;
  int nlink;
  Link* link;
  int nmat, capmat;
  struct { xmlChar* name; gsReal rgba[4]; }* mat;
  int nname, capname;
  char** geomname;         /* geom names used so far (a repeated one leaves its geom unnamed) */
  int nmesh, capmesh;
  MeshUse* mesh;
  int nowned, capowned;
  xmlChar** owned;         /* attribute values expanded from entity references */
} Urdf;

/* ---- small XML helpers ---- */

static xmlNodePtr child_elem(xmlNodePtr node, const char* name) {
  for (xmlNodePtr ch = node->children; ch; ch = ch->next)
    if (ch->type == XML_ELEMENT_NODE && strcmp((const char*)ch->name, name) == 0) return ch;
  return NULL;
}

static xmlNodePtr require_elem(Urdf* u, xmlNodePtr node, const char* name) {
  xmlNodePtr ch = child_elem(node, name);
  if (!ch)
    gsx_error(u->c, u->src->name, gsx_line(node), gsx_name(node), "missing element <%s>", name);
  return ch;
}

/* the value of attribute name, NULL when absent or after an error; text with entity references
 * is expanded (within the reader's limits) and kept until the end of the read */
static const char* attr_text(Urdf* u, xmlNodePtr node, const char* name, int required) {
  for (xmlAttrPtr at = node->properties; at; at = at->next) {
    if (strcmp((const char*)at->name, name) != 0) continue;
    if (!at->children) return "";
    if (!at->children->next && at->children->type == XML_TEXT_NODE && at->children->content)
      return (const char*)at->children->content;
    xmlChar* v = gsx_attrValue(u->c, at);
    if (!v) return NULL;
    if (u->nowned == u->capowned) {
      int cap = u->capowned ? 2 * u->capowned : 8;
      xmlChar** grown = realloc(u->owned, sizeof(xmlChar*) * (size_t)cap);
      if (!grown) return xmlFree(v), gsx_oom(u->c), NULL;
      u->owned = grown, u->capowned = cap;
    }
    u->owned[u->nowned++] = v;
    return (const char*)v;
  }
  if (required)
    gsx_error(u->c, u->src->name, gsx_line(node), gsx_name(node), "missing required attribute '%s'",
              name);
  return NULL;
}

/* n reals of attribute name: 1 read, 0 absent (not required) or after an error (u->c->failed) */
static int attr_reals(Urdf* u, xmlNodePtr node, const char* name, gsReal* out, int n, int required) {
  const char* v = attr_text(u, node, name, required);
  if (!v) return 0;
  gsxAt a = {gsx_name(node), name, v, u->src->name, gsx_line(node)};
  return gsx_reals(u->c, &a, out, n, n, NULL);
}

/* rotation of roll, pitch, yaw about the fixed x, y, z axes (URDF's rpy), as MJCF's compiler turns
 * an extrinsic "XYZ" Euler sequence into a quaternion */
static void rpy_quat(gsReal q[4], const gsReal rpy[3]) {
  gs_unitQuat(q);
  for (int i = 0; i < 3; i++) {
    gsReal axis[3] = {0, 0, 0}, r[4];
    axis[i] = 1;
    gs_axisAngle2Quat(r, axis, rpy[i]);
    gs_mulQuat(q, r, q);
  }
  gs_normalize4(q);
}

/* <origin xyz rpy> of node into pos and a quaternion orientation; 0 after an error */
static int read_origin(Urdf* u, xmlNodePtr node, gsReal pos[3], gsOrientation* o) {
  gsReal rpy[3] = {0, 0, 0};
  gs_zero3(pos);
  gs_orientSetQuat(o, NULL);
  xmlNodePtr org = child_elem(node, "origin");
  if (!org) return 1;
  attr_reals(u, org, "xyz", pos, 3, 0);
  if (attr_reals(u, org, "rpy", rpy, 3, 0)) rpy_quat(o->quat, rpy);
  return !u->c->failed;
}

/* ---- materials: every named <material> with a colour, anywhere, the first of a name kept ---- */

static int collect_materials(Urdf* u, xmlNodePtr node) {
  for (xmlNodePtr ch = node->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE) continue;
    if (strcmp(gsx_name(ch), "material") == 0) {
      const char* name = attr_text(u, ch, "name", 0);
      xmlNodePtr color = child_elem(ch, "color");
      int known = 0;
      for (int i = 0; name && i < u->nmat; i++) known |= strcmp((const char*)u->mat[i].name, name) == 0;
      if (name && color && !known) {
        if (u->nmat == u->capmat) {
          int cap = u->capmat ? 2 * u->capmat : 8;
          void* grown = realloc(u->mat, sizeof(*u->mat) * (size_t)cap);
          if (!grown) return gsx_oom(u->c);
          u->mat = grown, u->capmat = cap;
        }
        u->mat[u->nmat].name = (xmlChar*)name;
        if (!attr_reals(u, color, "rgba", u->mat[u->nmat].rgba, 4, 1)) return 0;
        u->nmat++;
      }
    }
    if (!collect_materials(u, ch)) return 0;
  }
  return 1;
}

/* ---- the tree ---- */

static int find_link(const Urdf* u, const char* name) {
  for (int i = 0; i < u->nlink; i++)
    if (strcmp(u->link[i].name, name) == 0) return i;
  return -1;
}

static int read_links(Urdf* u, xmlNodePtr robot) {
  int cap = 0;
  for (xmlNodePtr ch = robot->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE || strcmp(gsx_name(ch), "link") != 0) continue;
    const char* name = attr_text(u, ch, "name", 1);
    if (!name) return 0;
    int other = find_link(u, name);
    if (other >= 0)
      return gsx_error(u->c, u->src->name, gsx_line(ch), "link",
                       "repeated link name '%s' (also at line %d)", name, gsx_line(u->link[other].node));
    if (u->nlink == cap) {
      cap = cap ? 2 * cap : 16;
      Link* grown = realloc(u->link, sizeof(Link) * (size_t)cap);
      if (!grown) return gsx_oom(u->c);
      u->link = grown;
    }
    Link* l = &u->link[u->nlink++];
    memset(l, 0, sizeof(*l));
    l->name = name, l->node = ch, l->parent = -1;
  }
  return 1;
}

/* the link a joint's <parent> or <child> names; -1 after an error */
static int joint_link(Urdf* u, xmlNodePtr joint, const char* which) {
  xmlNodePtr e = require_elem(u, joint, which);
  const char* name = e ? attr_text(u, e, "link", 1) : NULL;
  if (!name) return -1;
  int id = find_link(u, name);
  if (id < 0) {
    const char* jname = attr_text(u, joint, "name", 0);
    gsx_error(u->c, u->src->name, gsx_line(e), "joint", "joint '%s': %s link '%s' not found",
              jname ? jname : "", which, name);
  }
  return id;
}

static int read_tree(Urdf* u, xmlNodePtr robot) {
  for (xmlNodePtr ch = robot->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE || strcmp(gsx_name(ch), "joint") != 0) continue;
    int p = joint_link(u, ch, "parent");
    int k = p < 0 ? -1 : joint_link(u, ch, "child");
    if (k < 0) return 0;
    Link* child = &u->link[k];
    if (child->parent >= 0)
      return gsx_error(u->c, u->src->name, gsx_line(ch), "joint",
                       "link '%s' has two parents: '%s' (joint at line %d) and '%s'", child->name,
                       u->link[child->parent].name, gsx_line(child->joint), u->link[p].name);
    if (p == k)
      return gsx_error(u->c, u->src->name, gsx_line(ch), "joint", "link '%s' is its own parent",
                       child->name);
    child->parent = p;
    child->joint = ch;
    Link* par = &u->link[p];
    if (par->nchild == par->cap) {
      int cap = par->cap ? 2 * par->cap : 4;
      int* grown = realloc(par->child, sizeof(int) * (size_t)cap);
      if (!grown) return gsx_oom(u->c);
      par->child = grown, par->cap = cap;
    }
    par->child[par->nchild++] = k;
  }
  /* at least one root; several are each hung on the world body in the order of their links,
   * as MuJoCo 3.3.7's loader does (links reached from none hang on a loop: make_bodies) */
  int root = -1;
  for (int i = 0; i < u->nlink && root < 0; i++)
    if (u->link[i].parent < 0) root = i;
  if (u->nlink && root < 0)
    return gsx_error(u->c, u->src->name, gsx_line(u->link[0].joint), "joint",
                     "the joints form a loop: no link is the root");
  return 1;
}

/* bodies in depth-first order (children in the order of their joints), without recursion */
static int make_bodies(Urdf* u) {
  int* stack = malloc(sizeof(int) * (size_t)(u->nlink + 1));
  if (!stack) return gsx_oom(u->c);
  int n = 0;
  for (int r = 0; r < u->nlink; r++) {
    if (u->link[r].parent >= 0) continue;
    stack[n++] = r;
    while (n > 0) {
      Link* l = &u->link[stack[--n]];
      gsSpecBody* parent = l->parent >= 0 ? u->link[l->parent].body : u->c->spec->world;
      if (strcmp(l->name, "world") == 0) {
        l->body = u->c->spec->world;
      } else {
        l->body = gs_specAddBody(parent);
        if (!l->body || !gs_specSetName(&l->body->info, l->name)) return free(stack), gsx_oom(u->c);
        if (!gsx_setInfo(u->c, &l->body->info, l->node, u->src)) return free(stack), 0;
      }
      for (int i = l->nchild - 1; i >= 0; i--) stack[n++] = l->child[i];
    }
  }
  free(stack);
  /* links not reached hang on a loop of joints */
  for (int i = 0; i < u->nlink; i++)
    if (!u->link[i].body)
      return gsx_error(u->c, u->src->name, gsx_line(u->link[i].joint), "joint",
                       "the joints form a loop through link '%s'", u->link[i].name);
  return 1;
}

/* ---- links: inertia and geometry ---- */

static int read_inertial(Urdf* u, xmlNodePtr node, gsSpecBody* b) {
  gsSpecInertial* in = &b->inertial;
  if (!read_origin(u, node, in->pos, &in->orient)) return 0;
  xmlNodePtr mass = require_elem(u, node, "mass");
  if (!mass || !attr_reals(u, mass, "value", &in->mass, 1, 1)) return 0;
  xmlNodePtr inertia = require_elem(u, node, "inertia");
  if (!inertia) return 0;
  static const char* const kMoment[6] = {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"};
  gsReal v[6];
  int any = 0;
  for (int i = 0; i < 6; i++) {
    if (!attr_reals(u, inertia, kMoment[i], v + i, 1, 1)) return 0;
    any |= v[i] != 0;
  }
  in->given = 1;
  /* all six zero: no inertia given (MJCF keeps the mass with a zero inertia). Given, the tensor is
   * taken in the link frame: MuJoCo 3.3.7 drops the origin's rpy then (its compiler rebuilds the
   * inertial frame from the full tensor alone), and models compile there that way */
  in->has_full = any;
  if (any) {
    gs_orientSetQuat(&in->orient, NULL);
  }
  memcpy(in->fullinertia, v, sizeof(v));
  gs_zero3(in->diaginertia);
  return 1;
}

static int name_used(const Urdf* u, const char* name) {
  for (int i = 0; i < u->nname; i++)
    if (strcmp(u->geomname[i], name) == 0) return 1;
  return 0;
}

/* the geom takes name= unless an earlier geom took it (MJCF's loader leaves it unnamed then) */
static int geom_name(Urdf* u, xmlNodePtr node, gsSpecGeom* g) {
  const char* name = attr_text(u, node, "name", 0);
  if (!name || !name[0]) return 1;
  if (name_used(u, name)) {
    gsx_warn(u->c, u->src->name, gsx_line(node), "geom name '%s' repeated: the geom is unnamed", name);
    return 1;
  }
  if (u->nname == u->capname) {
    int cap = u->capname ? 2 * u->capname : 16;
    char** grown = realloc(u->geomname, sizeof(char*) * (size_t)cap);
    if (!grown) return gsx_oom(u->c);
    u->geomname = grown, u->capname = cap;
  }
  u->geomname[u->nname++] = (char*)name;
  return gs_specSetName(&g->info, name) ? 1 : gsx_oom(u->c);
}

/* the mesh asset of a file at a scale: one per file name and scale, named after the file (without
 * directories and extension), the second and later scales of a file with their index appended */
static int mesh_asset(Urdf* u, xmlNodePtr mesh, const char* file, const gsReal scale[3], char** out) {
  const char* base = strrchr(file, '/');
  base = base ? base + 1 : file;
  const char* dot = strrchr(base, '.');
  size_t len = dot ? (size_t)(dot - base) : strlen(base);
  int index = 0;
  for (int i = 0; i < u->nmesh; i++) {
    MeshUse* m = &u->mesh[i];
    if (strlen(m->name) != len || strncmp(m->name, base, len) != 0) continue;
    if (m->scale[0] == scale[0] && m->scale[1] == scale[1] && m->scale[2] == scale[2]) {
      size_t n = len + 12;
      *out = malloc(n);
      if (!*out) return gsx_oom(u->c);
      if (m->index) snprintf(*out, n, "%.*s%d", (int)len, base, m->index);
      else snprintf(*out, n, "%.*s", (int)len, base);
      return 1;
    }
    index++;
  }
  if (u->nmesh == u->capmesh) {
    int cap = u->capmesh ? 2 * u->capmesh : 8;
    MeshUse* grown = realloc(u->mesh, sizeof(MeshUse) * (size_t)cap);
    if (!grown) return gsx_oom(u->c);
    u->mesh = grown, u->capmesh = cap;
  }
  MeshUse* m = &u->mesh[u->nmesh];
  m->name = malloc(len + 1);
  if (!m->name) return gsx_oom(u->c);
  memcpy(m->name, base, len);
  m->name[len] = 0;
  memcpy(m->scale, scale, sizeof(m->scale));
  m->index = index;
  u->nmesh++;
  size_t n = len + 12;
  *out = malloc(n);
  if (!*out) return gsx_oom(u->c);
  if (index) snprintf(*out, n, "%s%d", m->name, index);
  else snprintf(*out, n, "%s", m->name);
  gsSpecMesh* sm = gs_specAddMesh(u->c->spec);
  if (!sm || !gs_specSetName(&sm->info, *out) || !gs_specSetString(&sm->file, file))
    return gsx_oom(u->c);
  memcpy(sm->scale, scale, sizeof(sm->scale));
  return gsx_setInfo(u->c, &sm->info, mesh, u->src) && gs_specSetName(&sm->info, *out) &&
         gsx_meshFile(u->c, sm, mesh, u->src);
}

/* the shape of a <visual> or <collision> */
static int read_geometry(Urdf* u, xmlNodePtr node, gsSpecBody* b, gsSpecGeom* g) {
  xmlNodePtr geo = require_elem(u, node, "geometry"), s;
  if (!geo) return 0;
  if ((s = child_elem(geo, "box"))) {
    g->type = GS_GEOM_BOX;
    if (!attr_reals(u, s, "size", g->size, 3, 1)) return 0;
    for (int i = 0; i < 3; i++) g->size[i] /= 2;  /* MJCF's sizes are half lengths */
  } else if ((s = child_elem(geo, "cylinder")) || (s = child_elem(geo, "capsule"))) {
    g->type = strcmp(gsx_name(s), "cylinder") == 0 ? GS_GEOM_CYLINDER : GS_GEOM_CAPSULE;
    if (!attr_reals(u, s, "radius", g->size, 1, 1) || !attr_reals(u, s, "length", g->size + 1, 1, 1))
      return 0;
    g->size[1] /= 2;
  } else if ((s = child_elem(geo, "sphere"))) {
    g->type = GS_GEOM_SPHERE;
    if (!attr_reals(u, s, "radius", g->size, 1, 1)) return 0;
  } else if ((s = child_elem(geo, "mesh"))) {
    g->type = GS_GEOM_MESH;
    gsReal scale[3] = {1, 1, 1};
    const char* file = attr_text(u, s, "filename", 1);
    if (!file) return 0;
    attr_reals(u, s, "scale", scale, 3, 0);
    if (u->c->failed) return 0;
    char* mesh = NULL;
    if (!mesh_asset(u, s, file, scale, &mesh)) return free(mesh), 0;
    gsSpecAssetRef* ref = gs_specAddAssetRef(b, g);
    if (!ref) return free(mesh), gsx_oom(u->c);
    ref->mesh = mesh;
  } else {
    return gsx_error(u->c, u->src->name, gsx_line(geo), "geometry",
                     "no box, cylinder, sphere, capsule or mesh");
  }
  return read_origin(u, node, g->pos, &g->orient);
}

static int read_link(Urdf* u, Link* l) {
  gsSpecBody* b = l->body;
  int world = b == u->c->spec->world;
  gsReal rgba[4] = {-1, 0, 0, 0};  /* the colour of the last visual material, none yet */
  for (xmlNodePtr ch = l->node->children; ch; ch = ch->next) {
    if (ch->type != XML_ELEMENT_NODE) continue;
    const char* name = gsx_name(ch);
    int visual = strcmp(name, "visual") == 0;
    if (strcmp(name, "inertial") == 0 && !world) {
      if (!read_inertial(u, ch, b)) return 0;
      continue;
    }
    if (!visual && strcmp(name, "collision") != 0) continue;
    xmlNodePtr mat = visual ? child_elem(ch, "material") : NULL;
    if (mat) {
      xmlNodePtr color = child_elem(mat, "color");
      if (color) {
        if (!attr_reals(u, color, "rgba", rgba, 4, 1)) return 0;
      } else {
        const char* mname = attr_text(u, mat, "name", 1);
        if (!mname) return 0;
        for (int i = 0; i < u->nmat; i++)
          if (strcmp((const char*)u->mat[i].name, mname) == 0) memcpy(rgba, u->mat[i].rgba, sizeof(rgba));
      }
    }
    if (visual && u->c->spec->compiler.discardvisual) continue;
    gsSpecGeom* g = gs_specAddGeom(b);
    if (!g) return gsx_oom(u->c);
    if (!gsx_setInfo(u->c, &g->info, ch, u->src)) return 0;
    free(g->info.name);
    g->info.name = NULL;
    if (visual) {
      g->contype = g->conaffinity = 0;
      g->group = 1;
      g->density = 0;
    }
    if (rgba[0] >= 0) memcpy(g->rgba, rgba, sizeof(rgba));
    if (!read_geometry(u, ch, b, g) || !geom_name(u, ch, g)) return 0;
  }
  return 1;
}

/* ---- joints ---- */

static gsSpecJoint* add_joint(Urdf* u, gsSpecBody* b, xmlNodePtr node, const char* name,
                              const char* suffix, int type, const gsReal axis[3]) {
  gsSpecJoint* j = gs_specAddJoint(b);
  if (!j) return gsx_oom(u->c), NULL;
  if (!gsx_setInfo(u->c, &j->info, node, u->src)) return NULL;
  size_t n = strlen(name) + 4;
  char* full = malloc(n);
  if (!full) return gsx_oom(u->c), NULL;
  snprintf(full, n, "%s%s", name, suffix);
  free(j->info.name);
  j->info.name = full;
  j->type = type;
  if (axis) gs_copy3(j->axis, axis);
  return j;
}

static int read_joint(Urdf* u, xmlNodePtr node) {
  static const char* const kTypes[] = {"revolute", "continuous", "prismatic", "fixed", "floating",
                                       "planar", "spherical"};
  const char* type = attr_text(u, node, "type", 1);
  const char* name = type ? attr_text(u, node, "name", 1) : NULL;
  if (!name) return 0;
  int t = -1;
  for (int i = 0; i < 7; i++)
    if (strcmp(type, kTypes[i]) == 0) t = i;
  if (t < 0)
    return gsx_error(u->c, u->src->name, gsx_line(node), "joint",
                     "joint '%s': unknown type '%s' (revolute, continuous, prismatic, fixed, "
                     "floating, planar or spherical)", name, type);
  /* the tree was read from these joints: their child links exist */
  gsSpecBody* b = u->link[find_link(u, attr_text(u, child_elem(node, "child"), "link", 1))].body;
  if (b == u->c->spec->world) return 1;  /* the world does not move */
  if (!read_origin(u, node, b->pos, &b->orient)) return 0;
  gsReal axis[3] = {1, 0, 0};
  xmlNodePtr ax = child_elem(node, "axis");
  if (ax && !attr_reals(u, ax, "xyz", axis, 3, 1)) return 0;
  gsSpecJoint *j = NULL, *j1 = NULL, *j2 = NULL;
  switch (t) {
    case 0: case 1: j = add_joint(u, b, node, name, "", GS_JNT_HINGE, axis); break;
    case 2: j = add_joint(u, b, node, name, "", GS_JNT_SLIDE, axis); break;
    case 3: return 1;
    case 4: j = add_joint(u, b, node, name, "", GS_JNT_FREE, NULL); break;
    case 5: {
      /* slides along the x and y axes of a frame whose z is the axis, a hinge about it */
      gsReal q[4], R[9], x[3], y[3];
      gs_compileQuatZ2Vec(q, axis);
      gs_quat2Mat(R, q);
      for (int i = 0; i < 3; i++) x[i] = R[3 * i], y[i] = R[3 * i + 1];
      j = add_joint(u, b, node, name, "_TX", GS_JNT_SLIDE, x);
      j1 = j ? add_joint(u, b, node, name, "_TY", GS_JNT_SLIDE, y) : NULL;
      j2 = j1 ? add_joint(u, b, node, name, "_RZ", GS_JNT_HINGE, axis) : NULL;
      if (!j2) return 0;
      break;
    }
    default: j = add_joint(u, b, node, name, "", GS_JNT_BALL, NULL); break;  /* keeps its z axis, as in MJCF */
  }
  if (!j) return 0;
  xmlNodePtr dyn = child_elem(node, "dynamics");
  if (dyn) {
    attr_reals(u, dyn, "damping", &j->damping, 1, 0);
    attr_reals(u, dyn, "friction", &j->frictionloss, 1, 0);
    if (u->c->failed) return 0;
    if (j1) {
      j1->damping = j2->damping = j->damping;
      j1->frictionloss = j2->frictionloss = j->frictionloss;
    }
  }
  xmlNodePtr lim = child_elem(node, "limit");
  if (lim) {
    int lo = attr_reals(u, lim, "lower", &j->range[0], 1, 0);
    int hi = attr_reals(u, lim, "upper", &j->range[1], 1, 0);
    gsReal effort = 0;
    attr_reals(u, lim, "effort", &effort, 1, 0);
    if (u->c->failed) return 0;
    /* one bound only, or lower above upper: not limited */
    if (lo != hi || j->range[0] > j->range[1]) j->limited = GS_LIMITED_FALSE;
    else j->range_given = j->range[0] < j->range[1];
    effort = effort < 0 ? -effort : effort;
    if (effort > 0) j->actfrcrange[0] = -effort, j->actfrcrange[1] = effort;
  }
  return 1;
}

/* ---- the <mujoco> extension ---- */

static int set_compiler(gsxCtx* c, void* o, const gsxAt* a) { return gsx_compilerAttr(c, o, a); }
static int set_option(gsxCtx* c, void* o, const gsxAt* a) { return gsx_optionAttr(c, o, a); }
static int set_flag(gsxCtx* c, void* o, const gsxAt* a) { return gsx_flagAttr(c, o, a); }
static int set_size(gsxCtx* c, void* o, const gsxAt* a) { return gsx_sizeAttr(c, o, a); }

static int read_extension(Urdf* u, xmlNodePtr mj) {
  gsxCtx* c = u->c;
  gsSpec* s = c->spec;
  xmlNodePtr e;
  if ((e = child_elem(mj, "compiler")) &&
      !(gsx_checkAttrs(c, e, u->src, "compiler", 0) &&
        gsx_applyOwn(c, e, u->src, "compiler", set_compiler, &s->compiler, NULL)))
    return 0;
  if ((e = child_elem(mj, "option"))) {
    if (!gsx_checkAttrs(c, e, u->src, "option", 0) ||
        !gsx_applyOwn(c, e, u->src, "option", set_option, &s->option, NULL))
      return 0;
    xmlNodePtr flag = child_elem(e, "flag");
    if (flag && !(gsx_checkAttrs(c, flag, u->src, "flag", 0) &&
                  gsx_applyOwn(c, flag, u->src, "flag", set_flag, &s->option, NULL)))
      return 0;
  }
  if ((e = child_elem(mj, "size")) &&
      !(gsx_checkAttrs(c, e, u->src, "size", 0) &&
        gsx_applyOwn(c, e, u->src, "size", set_size, s, NULL)))
    return 0;
  return 1;
}

int gsx_readURDF(gsxCtx* c, const gsxFile* f) {
  xmlNodePtr robot = xmlDocGetRootElement(f->doc);
  gsSpec* s = c->spec;
  Urdf u;
  memset(&u, 0, sizeof(u));
  u.c = c, u.src = f;
  /* URDF's defaults, which the extension may change */
  s->compiler.strippath = s->compiler.fusestatic = s->compiler.discardvisual = 1;
  s->modeldir = gs_specIntern(s, f->dir);
  if (!s->modeldir) return gsx_oom(c);
  xmlNodePtr mj = child_elem(robot, "mujoco");
  if (mj && !read_extension(&u, mj)) return 0;
  s->compiler.degree = 0;  /* URDF angles are radians */
  const char* name = attr_text(&u, robot, "name", 0);
  int ok = !c->failed && (!name || gs_specSetString(&s->modelname, name) || gsx_oom(c));
  ok = ok && collect_materials(&u, robot) && read_links(&u, robot) && read_tree(&u, robot) &&
           make_bodies(&u);
  for (int i = 0; ok && i < u.nlink; i++) ok = read_link(&u, &u.link[i]);
  for (xmlNodePtr ch = robot->children; ok && ch; ch = ch->next)
    if (ch->type == XML_ELEMENT_NODE && strcmp(gsx_name(ch), "joint") == 0) ok = read_joint(&u, ch);
  for (int i = 0; i < u.nlink; i++) free(u.link[i].child);
  for (int i = 0; i < u.nmesh; i++) free(u.mesh[i].name);
  for (int i = 0; i < u.nowned; i++) xmlFree(u.owned[i]);
  free(u.link), free(u.mat), free(u.geomname), free(u.mesh), free(u.owned);
  return ok && !c->failed;
}
