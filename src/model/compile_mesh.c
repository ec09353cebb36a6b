/* The mesh stage of the compiler. For each mesh asset: its vertices and triangles (from its file
 * or inline data, rounded to single precision as MJCF keeps them), scaled and moved by refpos /
 * refquat; the convex hull (qhull); the volume, centre of mass and inertia by the mesh's inertia
 * rule; then the vertices re-expressed in the mesh's inertial frame (centre of mass, principal
 * axes), whose offset the geoms that use the mesh take into their own frame, as MJCF does. */
#define _POSIX_C_SOURCE 200809L  /* open_memstream: qhull's messages are kept, never printed */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "core/hull_cell.h"
#include "core/hull_climb.h"
#include "core/math.h"
#include "model/io.h"
#include "model/mesh.h"

#define MESH_MINVOLUME 1e-15  /* smaller volumes (or areas) give no usable inertial frame */

void gs_compileMeshFree(gsCompileCtx* c) {
  gsMeshStore* st = c->store;
  if (st && !st->filled && !c->failed && c->nmesh == c->spec->nmesh) {
    /* an empty store keeps what this compile built, by name, for the next one */
    st->name = calloc((size_t)(c->nmesh ? c->nmesh : 1), sizeof(char*));
    if (st->name) {
      for (int i = 0; i < c->nmesh; i++) {
        const char* name = c->spec->mesh[i]->info.name;
        size_t n = name ? strlen(name) + 1 : 0;
        if (n && (st->name[i] = malloc(n))) memcpy(st->name[i], name, n);
      }
      st->mesh = c->mesh, st->n = c->nmesh, st->filled = 1;
      c->mesh = NULL, c->nmesh = 0;
      return;
    }
  }
  for (int i = 0; i < c->nmesh; i++) gs_meshBuildFree(&c->mesh[i]);
  free(c->mesh);
  c->mesh = NULL;
  c->nmesh = 0;
}

void gs_compileMeshStoreFree(gsMeshStore* st) {
  for (int i = 0; i < st->n; i++) {
    gs_meshBuildFree(&st->mesh[i]);  /* (emptied when taken) */
    free(st->name[i]);
  }
  free(st->name);
  free(st->mesh);
  memset(st, 0, sizeof(*st));
}

/* mesh_hullcell of one mesh (fields_world.h): for each cell a hull vertex farthest along its
 * centre direction, found by climbing the hull graph (gs_hullClimb) from the previous cell's
 * vertex, the directions of neighbouring cells being close: a few moves a cell, where a scan of
 * the hull for each cell took 96 passes over it (the load of a mesh of 3e5 triangles: 22 -> 44
 * ms). On a convex hull a vertex no neighbour beats is a farthest one. -1 without a graph. */
static void hull_cells(int* cell, const int* graph, const gsReal* vert) {
  int nv = graph ? graph[0] : 0, cur = 0;
  for (int k = 0; k < GS_HULLCELLS; k++) {
    cell[k] = -1;
    if (nv < 1) continue;
    gsReal u[3];
    gs_hullCellDir(k, u);
    cur = gs_hullClimb(vert, nv, graph + 2, graph + 2 + nv, graph + 2 + 2 * nv, u, cur, NULL);
    cell[k] = cur;
  }
}

/* the mesh named name from a filled store, moved into b; 0 when the store has none or it lacks
 * the hull graph this compile needs (one it does not need is dropped) */
static int take_stored(gsMeshStore* st, const char* name, int need_hull, gsMeshBuild* b) {
  if (!st || !st->filled || !name) return 0;
  for (int i = 0; i < st->n; i++)
    if (st->name[i] && strcmp(st->name[i], name) == 0) {
      if (need_hull && !st->mesh[i].graph) return 0;
      *b = st->mesh[i];
      memset(&st->mesh[i], 0, sizeof(st->mesh[i]));
      if (!need_hull && b->graph && !b->hullfaces) {
        free(b->graph);
        free(b->poly);  /* the hull's: made again from the triangles */
        free(b->polynormal);
        b->graph = NULL, b->ngraph = 0;
        b->poly = NULL, b->polynormal = NULL, b->npoly = b->npolyvert = 0;
      }
      free(st->name[i]);
      st->name[i] = NULL;
      return 1;
    }
  return 0;
}

/* ---- source data ---- */

static int load_source(gsCompileCtx* c, const gsSpecMesh* sm, gsMeshData* md) {
  memset(md, 0, sizeof(*md));
  if (sm->file) {
    const unsigned char* bytes = sm->data.bytes;
    size_t n = sm->data.n;
    unsigned char* owned = NULL;
    if (!bytes) {  /* a spec built by hand: the compiler reads the file */
      FILE* f = sm->path ? fopen(sm->path, "rb") : NULL;
      if (!f) return gs_compileFail(c, &sm->info, "mesh", "cannot open file '%s'", sm->file);
      int too_large;
      owned = gs_readStream(f, ((size_t)1 << 31) - 1, &n, &too_large);
      fclose(f);
      if (!owned) return gs_compileFail(c, &sm->info, "mesh", "cannot read file '%s'", sm->file);
      bytes = owned;
    }
    char msg[256];
    int ok = gs_meshDecode(bytes, n, sm->file, sm->content_type, md, msg, sizeof(msg));
    free(owned);
    if (!ok) return gs_compileFail(c, &sm->info, "mesh", "file '%s': %s", sm->file, msg);
    return 1;
  }
  if (sm->builtin) {  /* generated (mesh_builtin.c) */
    char msg[256];
    if (sm->nvert || sm->nface)
      return gs_compileFail(c, &sm->info, "mesh", "a builtin mesh cannot have vertex or face data");
    if (!gs_meshBuiltin(sm->builtin, sm->params, sm->nparams, md, msg, sizeof(msg)))
      return gs_compileFail(c, &sm->info, "mesh", "%s", msg);
    return 1;
  }
  md->nvert = sm->nvert;
  md->nface = sm->nface;
  md->vert = malloc(sizeof(gsReal) * (3 * (size_t)sm->nvert + 1));
  md->face = malloc(sizeof(int) * (3 * (size_t)sm->nface + 1));
  if (!md->vert || !md->face) {
    gs_meshDataFree(md);
    return gs_compileFail(c, &sm->info, "mesh", "out of memory");
  }
  for (int i = 0; i < 3 * sm->nvert; i++) md->vert[i] = (gsReal)(float)sm->vert[i];
  if (sm->nface) memcpy(md->face, sm->face, sizeof(int) * 3 * (size_t)sm->nface);
  /* texture coordinates: one (u, v) per vertex, indexed as the vertices (after the hull's faces
   * where none are given) */
  if (sm->ntexcoord) {
    if (sm->ntexcoord != sm->nvert)
      return gs_compileFail(c, &sm->info, "mesh", "texcoord gives %d pairs for %d vertices: one (u, v) per vertex",
                            sm->ntexcoord, sm->nvert);
    md->texcoord = malloc(sizeof(gsReal) * 2 * (size_t)sm->ntexcoord);
    if (!md->texcoord) return gs_compileFail(c, &sm->info, "mesh", "out of memory");
    md->ntexcoord = sm->ntexcoord;
    for (int i = 0; i < 2 * sm->ntexcoord; i++) md->texcoord[i] = (gsReal)(float)sm->texcoord[i];
  }
  return 1;
}

static int check_source(gsCompileCtx* c, const gsSpecMesh* sm, const gsMeshData* md) {
  for (int i = 0; i < 3 * md->nvert; i++)
    if (!isfinite(md->vert[i])) return gs_compileFail(c, &sm->info, "mesh", "vertex coordinate %d is not finite", i);
  if (md->nvert < 4) return gs_compileFail(c, &sm->info, "mesh", "at least 4 vertices are required, it has %d", md->nvert);
  for (int i = 0; i < 3 * md->nface; i++)
    if (md->face[i] < 0 || md->face[i] >= md->nvert)
      return gs_compileFail(c, &sm->info, "mesh", "face %d refers to vertex %d, which does not exist", i / 3, md->face[i]);
  for (int k = 0; k < 3; k++)
    if (!isfinite(sm->scale[k]) || !isfinite(sm->refpos[k]))
      return gs_compileFail(c, &sm->info, "mesh", "non-finite scale or refpos");
  return 1;
}

/* refpos / refquat, then scale: a vertex given at v is at scale o (refquat^-1 (v - refpos)) */
static int transform(gsCompileCtx* c, const gsSpecMesh* sm, gsMeshData* md) {
  gsReal q[4];
  gs_copy4(q, sm->refquat);
  if (!(gs_normalize4(q) >= GS_MINVAL)) return gs_compileFail(c, &sm->info, "mesh", "refquat is zero");
  gsReal R[9];
  gs_quat2Mat(R, q);
  for (int i = 0; i < md->nvert; i++) {
    gsReal* v = md->vert + 3 * i;
    gsReal u[3];
    gs_sub3(u, v, sm->refpos);
    gs_mulMatTVec3(v, R, u);
    for (int k = 0; k < 3; k++) v[k] *= sm->scale[k];
  }
  return 1;
}

/* ---- convex hull ---- */

typedef struct {
  int nvert;     /* hull vertices */
  int* vert;     /* their indices in the mesh */
  int nface;
  int* face;     /* 3 per face, mesh indices, counter-clockwise seen from outside */
  int* nbr;      /* neighbours of each hull vertex (mesh indices), each list ended by -1 */
} Hull;

static void hull_free(Hull* h) {
  free(h->vert);
  free(h->face);
  free(h->nbr);
}

/* the hull of the vertices as given (before refpos, refquat and scale): qhull's facet and vertex
 * order, and so mesh_graph's, then are MJCF's; the topology is the same in any frame */
static int convex_hull(gsCompileCtx* c, const gsSpecMesh* sm, const gsMeshData* md, Hull* h) {
  memset(h, 0, sizeof(*h));
  char* msg = NULL;
  size_t msglen = 0;
  FILE* errfile = open_memstream(&msg, &msglen);
  if (!errfile) return gs_compileFail(c, &sm->info, "mesh", "out of memory");
  coordT* pts = malloc(sizeof(coordT) * 3 * (size_t)md->nvert);
  if (!pts) {
    fclose(errfile);
    free(msg);
    return gs_compileFail(c, &sm->info, "mesh", "out of memory");
  }
  for (int i = 0; i < 3 * md->nvert; i++) pts[i] = md->vert[i];
  /* Qt: triangulated output; TA<n>: stop after n vertices beyond the initial simplex */
  char cmd[64] = "qhull Qt";
  if (sm->maxhullvert > 3) snprintf(cmd, sizeof(cmd), "qhull Qt TA%d", sm->maxhullvert - 4);
  qhT qh_qh;
  qhT* qh = &qh_qh;
  qh_zero(qh, errfile);
  /* no output file: qhull prints no summary of the hull (1-2 % of its time on large meshes) */
  int code = qh_new_qhull(qh, 3, md->nvert, pts, False, cmd, NULL, errfile);
  int ok = 1;
  if (code) {
    fflush(errfile);
    char first[160] = "";
    if (msg) {
      size_t k = 0;
      while (k < sizeof(first) - 1 && msg[k] && msg[k] != '\n') first[k] = msg[k], k++;
      first[k] = 0;
    }
    ok = gs_compileFail(c, &sm->info, "mesh", "no convex hull (are the vertices flat or collinear?): %s", first);
  } else {
    facetT* facet;
    vertexT* vertex;
    vertexT** vertexp;
    int nv = 0, nf = 0;
    FORALLvertices nv++;
    FORALLfacets nf++;
    h->vert = malloc(sizeof(int) * (size_t)nv);
    h->face = malloc(sizeof(int) * 3 * (size_t)nf);
    if (!h->vert || !h->face) {
      ok = gs_compileFail(c, &sm->info, "mesh", "out of memory");
    } else {
      FORALLvertices h->vert[h->nvert++] = qh_pointid(qh, vertex->point);
      /* neighbours: the other corners of the facets around each vertex, in qhull's order (facets
       * around the vertex, corners within a facet), which is the order MJCF lists them in; room
       * for every corner of every facet around each vertex, and the -1 ending each list */
      qh_vertexneighbors(qh);
      facetT* neighbor;
      facetT** neighborp;
      size_t room = 0;
      FORALLvertices {
        FOREACHneighbor_(vertex) room += (size_t)qh_setsize(qh, neighbor->vertices);
        room++;
      }
      h->nbr = malloc(sizeof(int) * room);
      if (!h->nbr) ok = gs_compileFail(c, &sm->info, "mesh", "out of memory");
      int at = 0;
      FORALLvertices {
        if (!h->nbr) break;
        int from = at;
        FOREACHneighbor_(vertex) {
          vertexT* other;
          vertexT** otherp;
          FOREACHsetelement_(vertexT, neighbor->vertices, other) {
            if (other == vertex) continue;
            int id = qh_pointid(qh, other->point), dup = 0;
            for (int e = from; e < at; e++) dup |= h->nbr[e] == id;
            if (!dup) h->nbr[at++] = id;
          }
        }
        h->nbr[at++] = -1;
      }
      FORALLfacets {
        int f[3], k = 0;
        FOREACHvertex_(facet->vertices) {
          if (k < 3) f[k] = qh_pointid(qh, vertex->point);
          k++;
        }
        if (k != 3) continue;  /* cannot happen with Qt; a safe skip */
        /* counter-clockwise about the outward normal */
        const gsReal *a = md->vert + 3 * f[0], *b = md->vert + 3 * f[1], *cc = md->vert + 3 * f[2];
        gsReal e1[3], e2[3], n[3];
        gs_sub3(e1, b, a), gs_sub3(e2, cc, a);
        gs_cross(n, e1, e2);
        if (n[0] * facet->normal[0] + n[1] * facet->normal[1] + n[2] * facet->normal[2] < 0) {
          int t = f[0];  /* the first two swapped, as MJCF stores them */
          f[0] = f[1], f[1] = t;
        }
        memcpy(h->face + 3 * h->nface, f, sizeof(f));
        h->nface++;
      }
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong, totlong;
  qh_memfreeshort(qh, &curlong, &totlong);
  fclose(errfile);
  free(msg);
  free(pts);
  if (ok && (h->nvert < 4 || h->nface < 4))
    ok = gs_compileFail(c, &sm->info, "mesh", "degenerate convex hull (%d vertices, %d faces)", h->nvert, h->nface);
  if (!ok) hull_free(h);
  return ok;
}

/* the graph of mesh_graph (fields_world.h): the hull's neighbour lists in hull-local ids, the
 * hull's vertices and faces in mesh ids */
static int hull_graph(const Hull* h, int nmeshvert, int** graph, int* ngraph) {
  int* local = malloc(sizeof(int) * (size_t)nmeshvert);
  if (!local) return 0;
  for (int i = 0; i < nmeshvert; i++) local[i] = -1;
  for (int i = 0; i < h->nvert; i++) local[h->vert[i]] = i;
  int nv = h->nvert, nedge = 0;  /* the lists' entries, their -1 endings included */
  for (int i = 0; i < nv; i++, nedge++)
    while (h->nbr[nedge] >= 0) nedge++;
  *ngraph = 2 + 2 * nv + nedge + 3 * h->nface;
  int* g = malloc(sizeof(int) * (size_t)*ngraph);
  if (g) {
    int at = 2 + 2 * nv, k = 0;
    g[0] = nv, g[1] = h->nface;
    for (int i = 0; i < nv; i++, k++) {
      g[2 + i] = at - (2 + 2 * nv);
      g[2 + nv + i] = h->vert[i];
      for (; h->nbr[k] >= 0; k++) g[at++] = local[h->nbr[k]];
      g[at++] = -1;
    }
    memcpy(g + at, h->face, sizeof(int) * 3 * (size_t)h->nface);
  }
  free(local);
  *graph = g;
  return g != NULL;
}

/* ---- inertia ---- */

/* Volume (area for a shell), centre of mass and inertia tensor about the centre of mass of the
 * solid bounded by the triangles (or of the triangles themselves), per unit density, in the order
 * of operations MJCF uses: measured against MuJoCo 3.3.7 (mesh_pos, body_mass, and mesh_quat
 * against its own fullinertia path) to the bit on tetrahedra and closed star-shaped meshes, with
 * every rule (tests/python/test_mesh_frame_bits.py). Sums run over the triangles in their order,
 * per component, left to right.
 * Pass 0: the area-weighted centroid f of the mesh's own triangles (sum of centroid times area,
 * divided by the total area; the given triangles even under the convex rule, whose passes 1 and 2
 * run over the hull's). Pass 1: per triangle, the volume v of the tetrahedron from f (the centroid's offset
 * from f dotted with the unit normal, times the area, divided by 3; its magnitude under the legacy
 * rule, the area itself for a shell) and the centre sum of v (3/4 centroid + 1/4 f); the centre is
 * that sum divided by the sum of v. Pass 2: the vertices moved to the centre, tetrahedra from the
 * origin give the volume (the same rule) and the products of inertia P_jk, each triangle adding
 * v / 20 (v / 12 for a shell) times 2 (D_j D_k + E_j E_k + F_j F_k) + D_j E_k + D_k E_j + D_j F_k
 * + D_k F_j + E_j F_k + E_k F_j for its corners D, E, F; the tensor is I_xx = P_yy + P_zz ...,
 * I_xy = -P_xy. For signed volumes the result does not depend on f; for magnitudes it does (a
 * non-convex U-shaped prism under the legacy rule decides). Ruled out by the same measurements:
 * sums relative to f then shifted, multiplying by reciprocals instead of dividing, the area / 3
 * taken first, and the inertia as trace minus second moment (each a last bit off on most meshes). */

/* a triangle's area, unit normal (each component divided by the length) and centroid */
static gsReal triangle(const gsReal* a, const gsReal* b, const gsReal* c, gsReal n[3], gsReal cen[3]) {
  gsReal e1[3], e2[3];
  gs_sub3(e1, b, a), gs_sub3(e2, c, a);
  gs_cross(n, e1, e2);
  gsReal len = gs_norm3(n);
  if (len == 0) return 0;  /* a degenerate triangle bounds nothing */
  for (int k = 0; k < 3; k++) n[k] /= len, cen[k] = (a[k] + b[k] + c[k]) / 3;
  return len / 2;
}

/* the volume of the tetrahedron from ref over one triangle (its area for a shell) */
static gsReal tet_volume(gsReal area, const gsReal n[3], const gsReal cen[3], const gsReal ref[3], int mode) {
  if (mode == GS_MESHINERTIA_SHELL) return area;
  gsReal d[3];
  gs_sub3(d, cen, ref);
  gsReal v = gs_dot3(d, n) * area / 3;
  return mode == GS_MESHINERTIA_LEGACY ? fabs(v) : v;
}

static void mass_properties(const gsReal* vert, const int* cface, int ncface, const int* face, int nface,
                            int mode, gsReal* vol, gsReal com[3], gsReal I[9]) {
  gsReal f[3] = {0, 0, 0}, area = 0, zero[3] = {0, 0, 0}, n[3], cen[3];
  for (int t = 0; t < ncface; t++) {
    const int* tri = cface + 3 * t;
    gsReal a = triangle(vert + 3 * tri[0], vert + 3 * tri[1], vert + 3 * tri[2], n, cen);
    if (a == 0) continue;
    for (int k = 0; k < 3; k++) f[k] += cen[k] * a;
    area += a;
  }
  if (area > 0)
    for (int k = 0; k < 3; k++) f[k] /= area;
  gsReal V = 0, sum[3] = {0, 0, 0};
  for (int t = 0; t < nface; t++) {
    const int* tri = face + 3 * t;
    gsReal a = triangle(vert + 3 * tri[0], vert + 3 * tri[1], vert + 3 * tri[2], n, cen);
    if (a == 0) continue;
    gsReal v = tet_volume(a, n, cen, f, mode);
    for (int k = 0; k < 3; k++) sum[k] += v * (cen[k] * 3.0 / 4.0 + f[k] / 4.0);
    V += v;
  }
  for (int k = 0; k < 3; k++) com[k] = V != 0 ? sum[k] / V : f[k];
  /* pass 2: about the centre */
  gsReal P[6] = {0, 0, 0, 0, 0, 0};
  static const int J[6] = {0, 1, 2, 0, 0, 1}, K[6] = {0, 1, 2, 1, 2, 2};
  V = 0;
  for (int t = 0; t < nface; t++) {
    const int* tri = face + 3 * t;
    gsReal D[3], E[3], F[3];
    gs_sub3(D, vert + 3 * tri[0], com), gs_sub3(E, vert + 3 * tri[1], com), gs_sub3(F, vert + 3 * tri[2], com);
    gsReal a = triangle(D, E, F, n, cen);
    if (a == 0) continue;
    gsReal v = tet_volume(a, n, cen, zero, mode);
    V += v;
    gsReal w = v / (mode == GS_MESHINERTIA_SHELL ? 12 : 20);
    for (int c = 0; c < 6; c++) {
      int j = J[c], k = K[c];
      P[c] += w * (2 * (D[j] * D[k] + E[j] * E[k] + F[j] * F[k]) + D[j] * E[k] + D[k] * E[j] +
                   D[j] * F[k] + D[k] * F[j] + E[j] * F[k] + E[k] * F[j]);
    }
  }
  *vol = V;
  I[0] = P[1] + P[2], I[4] = P[0] + P[2], I[8] = P[0] + P[1];
  I[1] = I[3] = -P[3], I[2] = I[6] = -P[4], I[5] = I[7] = -P[5];
}

/* the inertia rule of a mesh: a builtin plate is a surface, its inertia a shell's whatever the
 * attribute says (MJCF's reader sets it so: MuJoCo 3.3.7's spec of a plate says shell after an
 * inertia="exact" or "convex") */
static int inertia_mode(const gsSpecMesh* sm) {
  if (sm->builtin && strcmp(sm->builtin, "plate") == 0) return GS_MESHINERTIA_SHELL;
  return sm->inertia;
}

/* ---- which meshes need their convex hull ---- */

/* MJCF builds the hull graph only where the collision stage can meet the mesh: a mesh geom that
 * collides (contype or conaffinity not 0) or is named in a contact pair; a mesh given without
 * triangles (the hull's are its triangles) or with inertia="convex" needs the hull too (measured
 * against MuJoCo 3.3.7: an unused mesh, one used by visual geoms only, by geoms of other types
 * fitted to it, by distance sensors or by excluded bodies gets none, mesh_graphadr -1) */
static int mesh_index(const gsCompileCtx* c, const char* name) {
  for (int i = 0; name && i < c->spec->nmesh; i++)
    if (c->spec->mesh[i]->info.name && strcmp(c->spec->mesh[i]->info.name, name) == 0) return i;
  return -1;
}

static int geom_mesh(const gsCompileCtx* c, const gsSpecBody* b, const gsSpecGeom* g) {
  if (g->type != GS_GEOM_MESH) return -1;
  const gsSpecAssetRef* r = gs_specFindAssetRef(b, g);
  return r ? mesh_index(c, r->mesh) : -1;
}

static void mark_colliding(const gsCompileCtx* c, const gsSpecBody* b, unsigned char* need) {
  for (int i = 0; i < b->ngeom; i++) {
    const gsSpecGeom* g = b->geom[i];
    int id = (g->contype || g->conaffinity) ? geom_mesh(c, b, g) : -1;
    if (id >= 0) need[id] = 1;
  }
  for (int i = 0; i < b->nchild; i++) mark_colliding(c, b->child[i], need);
}

/* the mesh of the geom named name, anywhere in the tree; -1 when none */
static int named_geom_mesh(const gsCompileCtx* c, const gsSpecBody* b, const char* name) {
  for (int i = 0; i < b->ngeom; i++)
    if (b->geom[i]->info.name && strcmp(b->geom[i]->info.name, name) == 0) return geom_mesh(c, b, b->geom[i]);
  for (int i = 0; i < b->nchild; i++) {
    int id = named_geom_mesh(c, b->child[i], name);
    if (id >= 0) return id;
  }
  return -1;
}

static void mark_needs(const gsCompileCtx* c, unsigned char* need) {
  const gsSpec* s = c->spec;
  if (s->world) mark_colliding(c, s->world, need);
  for (int p = 0; p < s->npair && s->world; p++) {
    const char* names[2] = {s->pair[p]->geom1, s->pair[p]->geom2};
    for (int k = 0; k < 2; k++) {
      int id = names[k] ? named_geom_mesh(c, s->world, names[k]) : -1;
      if (id >= 0) need[id] = 1;
    }
  }
  for (int i = 0; i < s->nmesh; i++)
    if (inertia_mode(s->mesh[i]) == GS_MESHINERTIA_CONVEX) need[i] = 1;
}

/* the polygons of a finished build (from the hull graph's faces, else from the mesh's triangles,
 * as MJCF: mesh_poly.c), made once the build's graph is settled (a stored or cached build may
 * lose its graph) */
static int mesh_polygons(gsCompileCtx* c, const gsSpecMesh* sm, gsMeshBuild* b) {
  if (b->poly || !b->given) return 1;
  int n = b->data.nvert, nf = b->graph ? b->graph[1] : b->data.nface;
  const int* face = b->graph ? b->graph + b->ngraph - 3 * nf : b->data.face;
  gsMeshData moved = {0};  /* the given vertices after scale and refpos/refquat, as transform() */
  moved.nvert = n;
  moved.vert = malloc(sizeof(gsReal) * (3 * (size_t)n + 1));
  if (!moved.vert) return gs_compileFail(c, &sm->info, "mesh", "out of memory");
  memcpy(moved.vert, b->given, sizeof(gsReal) * 3 * (size_t)n);
  int ok = transform(c, sm, &moved);
  if (ok && !gs_meshPolygons(b, b->given, moved.vert, n, face, nf))
    ok = gs_compileFail(c, &sm->info, "mesh", "out of memory");
  free(moved.vert);
  return ok;
}

/* the triangle tree of a finished build, over its final vertices (rays: mesh_tree.c), made
 * before the build is cached like the polygons (on the 3e5 triangles of bench/mesh_models.py's
 * arm it costs five times the rest of a cached load) */
static int mesh_tree(gsCompileCtx* c, const gsSpecMesh* sm, gsMeshBuild* b) {
  int nf = b->data.nface, nn = gs_meshTreeNodes(nf);
  if (b->tree || nn == 0) return 1;
  b->tree = malloc(sizeof(int) * (2 * (size_t)nn + (size_t)nf));
  b->treebox = malloc(sizeof(gsReal) * 6 * (size_t)nn);
  if (!b->tree || !b->treebox ||
      !gs_meshTreeBuild(b->data.vert, b->data.face, nf, (int (*)[2])b->tree,
                        (gsReal (*)[6])b->treebox, b->tree + 2 * nn)) {
    free(b->tree), free(b->treebox);
    b->tree = NULL, b->treebox = NULL;
    return gs_compileFail(c, &sm->info, "mesh", "out of memory");
  }
  return 1;
}

/* ---- one mesh ---- */

static int process(gsCompileCtx* c, const gsSpecMesh* sm, int need_hull, gsMeshBuild* b) {
  memset(b, 0, sizeof(*b));
  int mode = inertia_mode(sm);
  if (gs_meshCacheGet(sm, mode, need_hull, b)) return 1;  /* a file built before (mesh_cache.c) */
  gsMeshData* md = &b->data;
  if (!load_source(c, sm, md)) return 0;
  if (!check_source(c, sm, md)) return 0;
  Hull h;
  memset(&h, 0, sizeof(h));
  if (md->nface == 0) need_hull = b->hullfaces = 1;  /* no triangles given: the hull's */
  if (need_hull && !convex_hull(c, sm, md, &h)) return 0;
  /* the vertices as given, before scale and refpos/refquat: the polygons are made from them
   * (mesh_polygons) */
  b->given = malloc(sizeof(gsReal) * (3 * (size_t)md->nvert + 1));
  if (!b->given) {
    hull_free(&h);
    return gs_compileFail(c, &sm->info, "mesh", "out of memory");
  }
  memcpy(b->given, md->vert, sizeof(gsReal) * 3 * (size_t)md->nvert);
  if (!transform(c, sm, md)) {
    hull_free(&h);
    return 0;
  }
  if (md->nface == 0) {
    free(md->face);
    md->face = malloc(sizeof(int) * 3 * (size_t)h.nface);
    if (!md->face) {
      hull_free(&h);
      return gs_compileFail(c, &sm->info, "mesh", "out of memory");
    }
    memcpy(md->face, h.face, sizeof(int) * 3 * (size_t)h.nface);
    md->nface = h.nface;
  }
  if (md->ntexcoord && !md->facetex) {  /* coordinates per vertex: the faces index them */
    md->facetex = malloc(sizeof(int) * (3 * (size_t)md->nface + 1));
    if (!md->facetex) {
      hull_free(&h);
      return gs_compileFail(c, &sm->info, "mesh", "out of memory");
    }
    memcpy(md->facetex, md->face, sizeof(int) * 3 * (size_t)md->nface);
  }
  /* a mirror scale (an odd number of negative factors) turns a file's triangles inwards: MJCF
   * turns them back, swapping each one's last two corners (measured against MuJoCo 3.3.7 on OBJ
   * and STL files, and its test/user/testdata flipped_torus.xml and textured_torus.xml) */
  if (sm->file && !b->hullfaces && sm->scale[0] * sm->scale[1] * sm->scale[2] < 0)
    for (int f = 0; f < md->nface; f++) {
      int* t = md->face + 3 * f;
      int k = t[1];
      t[1] = t[2], t[2] = k;
      if (md->facetex) {
        int* u = md->facetex + 3 * f;
        k = u[1], u[1] = u[2], u[2] = k;
      }
    }
  gsReal vol, com[3], I[9];
  /* triangles given in the MJCF keep their corners as given, as MJCF's do: a mirror scale turns
   * them inwards, and the exact and convex rules then refuse the mesh, as MJCF does */
  if (mode == GS_MESHINERTIA_CONVEX) mass_properties(md->vert, md->face, md->nface, h.face, h.nface, mode, &vol, com, I);
  else mass_properties(md->vert, md->face, md->nface, md->face, md->nface, mode, &vol, com, I);
  int ok = !need_hull || hull_graph(&h, md->nvert, &b->graph, &b->ngraph);
  hull_free(&h);
  if (!ok) return gs_compileFail(c, &sm->info, "mesh", "out of memory");
  if ((mode == GS_MESHINERTIA_EXACT || mode == GS_MESHINERTIA_CONVEX) && vol < 0)
    return gs_compileFail(c, &sm->info, "mesh", "volume is negative (triangles oriented inwards)");
  if (!(vol >= MESH_MINVOLUME))
    return gs_compileFail(c, &sm->info, "mesh", "%s is too small (%g)",
                          mode == GS_MESHINERTIA_SHELL ? "area" : "volume", vol);
  /* inertia tensor about the centre of mass, per unit density, and its principal frame */
  gsReal vec[9];
  gs_eig3(b->inertia, vec, b->quat, I);
  b->volume = vol;
  gs_copy3(b->pos, com);
  /* vertices in the inertial frame */
  gsReal R[9];
  gs_quat2Mat(R, b->quat);
  b->halfsize[0] = b->halfsize[1] = b->halfsize[2] = 0;
  for (int i = 0; i < md->nvert; i++) {
    gsReal* v = md->vert + 3 * i;
    gsReal u[3], w[3];
    gs_sub3(u, v, com);
    gs_mulMatTVec3(w, R, u);
    for (int k = 0; k < 3; k++) b->halfsize[k] = fmax(b->halfsize[k], fabs(w[k]));
    /* the bounding box, for fitting primitives to the mesh (fit_geom in compiler.c) */
    for (int k = 0; k < 3; k++) {
      b->aabb[k] = i ? fmin(b->aabb[k], w[k]) : w[k];
      b->aabb[3 + k] = i ? fmax(b->aabb[3 + k], w[k]) : w[k];
    }
    /* rounded from a separate vector through a volatile: GCC 12 at -O2/-O3 drops a bare
     * (gsReal)(float) round trip here (in place it kept only the last coordinate's) */
    for (int k = 0; k < 3; k++) { volatile float f = (float)w[k]; v[k] = f; }
  }
  /* the polygons before the build is cached, so that a later load of the file takes them from the
   * cache (on a mesh of 1e5 triangles they cost more than the rest of a cached load) */
  if (!mesh_polygons(c, sm, b) || !mesh_tree(c, sm, b)) return 0;
  gs_meshCachePut(sm, mode, b);
  return 1;
}

/* whether two paths name the same file as written: equal once "./" steps and doubled slashes
 * are passed over */
static int same_path(const char* a, const char* b) {
  for (;;) {
    while (a[0] == '.' && a[1] == '/') a += 2;
    while (b[0] == '.' && b[1] == '/') b += 2;
    if (!*a || !*b) return *a == *b;
    if (*a != *b) return 0;
    if (*a == '/') {
      while (a[1] == '/') a++;
      while (b[1] == '/') b++;
    }
    a++, b++;
  }
}

/* MJCF's compiler hands a mesh that no geom collides with the polygons of an earlier mesh asset of
 * the same model loaded from the same file with the same scale, maxhullvert and inertia, when
 * that one collides: the hull's faces instead of its own triangles (measured against MuJoCo 3.3.7
 * on dm_control's model_with_assets.xml, MuJoCo's rigid_flex.xml, and by swapping the two
 * assets: a visual mesh listed first keeps its own; refpos, refquat and content_type do not
 * matter, and no earlier model's load does; tests/python/test_mesh_cache.py). Returns 0 only
 * when out of memory. */
static int shared_polygons(const gsSpec* s, gsMeshBuild* mesh, const unsigned char* need, int i) {
  const gsSpecMesh* a = s->mesh[i];
  gsMeshBuild* b = &mesh[i];
  if (need[i] || !a->path || !a->file) return 1;
  for (int j = 0; j < i; j++) {
    const gsSpecMesh* o = s->mesh[j];
    const gsMeshBuild* src = &mesh[j];
    if (!need[j] || !o->path || !o->file || !src->poly || !same_path(o->path, a->path) ||
        memcmp(o->scale, a->scale, sizeof(a->scale)) != 0 || o->maxhullvert != a->maxhullvert ||
        o->inertia != a->inertia || src->data.nvert != b->data.nvert)
      continue;
    size_t nint = (size_t)src->npoly + (size_t)src->npolyvert;
    int* poly = malloc(sizeof(int) * (nint + 1));
    gsReal* normal = malloc(sizeof(gsReal) * (3 * (size_t)src->npoly + 1));
    if (!poly || !normal) {
      free(poly);
      free(normal);
      return 0;
    }
    memcpy(poly, src->poly, sizeof(int) * nint);
    memcpy(normal, src->polynormal, sizeof(gsReal) * 3 * (size_t)src->npoly);
    free(b->poly);
    free(b->polynormal);
    b->poly = poly, b->polynormal = normal;
    b->npoly = src->npoly, b->npolyvert = src->npolyvert;
    return 1;
  }
  return 1;
}

int gs_compileMeshes(gsCompileCtx* c) {
  const gsSpec* s = c->spec;
  c->nmesh = 0;
  c->mesh = calloc((size_t)(s->nmesh ? s->nmesh : 1), sizeof(gsMeshBuild));
  if (!c->mesh) return gs_compileFail(c, NULL, "model", "out of memory");
  unsigned char* need = calloc((size_t)(s->nmesh ? s->nmesh : 1), 1);
  if (!need) return gs_compileFail(c, NULL, "model", "out of memory");
  mark_needs(c, need);
  for (int i = 0; i < s->nmesh; i++) {
    int ok = take_stored(c->store, s->mesh[i]->info.name, need[i], &c->mesh[i]) ||
             process(c, s->mesh[i], need[i], &c->mesh[i]);
    c->nmesh = i + 1;  /* freed by gs_compileMeshFree, built or not */
    ok = ok && mesh_polygons(c, s->mesh[i], &c->mesh[i]) && mesh_tree(c, s->mesh[i], &c->mesh[i]);
    if (ok && !shared_polygons(s, c->mesh, need, i)) ok = gs_compileFail(c, &s->mesh[i]->info, "mesh", "out of memory");
    if (!ok) {
      free(need);
      return 0;
    }
  }
  free(need);
  return 1;
}

/* The box of the mesh's volume V and principal moments I (per unit density): a box of half-sizes h
 * has moments V (h_j^2 + h_l^2) / 3, so h_k = sqrt(3 (I_j + I_l - I_k) / (2 V)); a difference
 * below 0 (rounding on a flat mesh) counts as 0. */
void gs_compileMeshBox(const gsMeshBuild* mb, gsReal h[3]) {
  for (int k = 0; k < 3; k++) {
    gsReal d = mb->inertia[(k + 1) % 3] + mb->inertia[(k + 2) % 3] - mb->inertia[k];
    h[k] = sqrt(fmax(d, 0) * 3 / (2 * mb->volume));
  }
}

/* A mesh geom's principal inertia for its mass M: MJCF passes the mesh's principal moments through
 * the box of the same inertia (gs_compileMeshBox) and gives the geom that box's inertia
 * M (b_j^2 + b_l^2) / 3; the round trip moves the moments by an ulp or two, and only it gives
 * MuJoCo 3.3.7's body_inertia to the bit (test_mesh_frame_bits.py). */
void gs_compileMeshInertia(const gsMeshBuild* mb, gsReal mass, gsReal I[3]) {
  gsReal b[3];
  gs_compileMeshBox(mb, b);
  I[0] = mass * (b[1] * b[1] + b[2] * b[2]) / 3;
  I[1] = mass * (b[0] * b[0] + b[2] * b[2]) / 3;
  I[2] = mass * (b[0] * b[0] + b[1] * b[1]) / 3;
}

const gsMeshBuild* gs_compileGeomMesh(const gsCompileCtx* c, const gsSpecBody* b, const gsSpecGeom* g) {
  const gsSpecAssetRef* r = gs_specFindAssetRef(b, g);
  if (!r || !r->mesh) return NULL;
  for (int i = 0; i < c->nmesh && i < c->spec->nmesh; i++) {
    const char* name = c->spec->mesh[i]->info.name;
    if (name && strcmp(name, r->mesh) == 0) return &c->mesh[i];
  }
  return NULL;
}

void gs_compileMeshSizes(const gsCompileCtx* c, gsModel* sz) {
  sz->nmeshvert = sz->nmeshface = sz->nmeshgraph = sz->nmeshsrcvert = sz->nmeshtexcoord = 0;
  sz->nmeshpoly = sz->nmeshpolyvert = sz->nmeshpolymap = sz->nmeshtree = 0;
  for (int i = 0; i < c->nmesh; i++) {
    sz->nmeshtree += gs_meshTreeNodes(c->mesh[i].data.nface);
    if (!c->spec->mesh[i]->file) sz->nmeshsrcvert += c->spec->mesh[i]->nvert;
    if (c->spec->mesh[i]->builtin) sz->nmeshsrcvert += c->mesh[i].data.nvert;  /* builtin: as made */
    sz->nmeshvert += c->mesh[i].data.nvert;
    sz->nmeshface += c->mesh[i].data.nface;
    sz->nmeshgraph += c->mesh[i].ngraph;
    sz->nmeshpoly += c->mesh[i].npoly;
    sz->nmeshpolyvert += c->mesh[i].npolyvert;
    sz->nmeshpolymap += c->mesh[i].npolyvert;  /* a corner is one vertex's entry */
    sz->nmeshtexcoord += c->mesh[i].data.ntexcoord;
  }
}

void gs_compileMeshArrays(const gsCompileCtx* c, gsModel* m) {
  int va = 0, fa = 0, ga = 0, sa = 0, ta = 0, pa = 0, pva = 0, pma = 0, tra = 0;
  for (int i = 0; i < c->nmesh; i++) {
    const gsMeshBuild* b = &c->mesh[i];
    const gsSpecMesh* sm = c->spec->mesh[i];
    /* inline vertices as given: the compiled ones are moved to the inertial frame and rounded
     * there, which the writer cannot undo to the last bit */
    m->mesh_srcvertadr[i] = -1;
    m->mesh_srcvertnum[i] = 0;
    if (!sm->file && sm->nvert) {
      m->mesh_srcvertadr[i] = sa;
      m->mesh_srcvertnum[i] = sm->nvert;
      for (int k = 0; k < 3 * sm->nvert; k++) m->mesh_srcvert[3 * sa + k] = (gsReal)(float)sm->vert[k];
      sa += sm->nvert;
    }
    /* a builtin mesh's vertices as generated, for the writer (MJCF writes them out too) */
    gsMeshData gen;
    char msg[8];
    if (sm->builtin && gs_meshBuiltin(sm->builtin, sm->params, sm->nparams, &gen, msg, sizeof(msg))) {
      m->mesh_srcvertadr[i] = sa;
      m->mesh_srcvertnum[i] = gen.nvert;
      memcpy(m->mesh_srcvert + 3 * sa, gen.vert, sizeof(gsReal) * 3 * (size_t)gen.nvert);
      sa += gen.nvert;
      gs_meshDataFree(&gen);
    }
    gs_copy3(m->mesh_refpos + 3 * i, sm->refpos);
    gs_copy4(m->mesh_refquat + 4 * i, sm->refquat);
    m->mesh_inertia[i] = inertia_mode(sm);
    m->mesh_maxhullvert[i] = sm->maxhullvert;
    m->mesh_vertadr[i] = va;
    m->mesh_vertnum[i] = b->data.nvert;
    m->mesh_faceadr[i] = fa;
    m->mesh_facenum[i] = b->data.nface;
    m->mesh_graphadr[i] = b->ngraph ? ga : -1;
    gs_copy3(m->mesh_pos + 3 * i, b->pos);
    gs_copy4(m->mesh_quat + 4 * i, b->quat);
    m->mesh_volume[i] = b->volume;
    gs_copy3(m->mesh_unitinertia + 3 * i, b->inertia);
    memcpy(m->mesh_vert + 3 * va, b->data.vert, sizeof(gsReal) * 3 * (size_t)b->data.nvert);
    memcpy(m->mesh_face + 3 * fa, b->data.face, sizeof(int) * 3 * (size_t)b->data.nface);
    /* the triangle tree for rays (made with the build) */
    int ntree = gs_meshTreeNodes(b->data.nface);
    m->mesh_treeadr[i] = ntree ? tra : -1;
    if (ntree) {
      memcpy(m->mesh_treechild + 2 * tra, b->tree, sizeof(int) * 2 * (size_t)ntree);
      memcpy(m->mesh_treeface + fa, b->tree + 2 * ntree, sizeof(int) * (size_t)b->data.nface);
      memcpy(m->mesh_treebox + 6 * tra, b->treebox, sizeof(gsReal) * 6 * (size_t)ntree);
    }
    tra += ntree;
    if (b->ngraph)  /* a mesh without a hull graph has none (graph NULL) */
      memcpy(m->mesh_graph + ga, b->graph, sizeof(int) * (size_t)b->ngraph);
    hull_cells(m->mesh_hullcell + GS_HULLCELLS * i, b->ngraph ? b->graph : NULL, m->mesh_vert + 3 * va);
    m->mesh_texcoordadr[i] = b->data.ntexcoord ? ta : -1;
    m->mesh_texcoordnum[i] = b->data.ntexcoord;
    if (b->data.ntexcoord) {
      memcpy(m->mesh_texcoord + 2 * ta, b->data.texcoord, sizeof(gsReal) * 2 * (size_t)b->data.ntexcoord);
      memcpy(m->mesh_facetexcoord + 3 * fa, b->data.facetex, sizeof(int) * 3 * (size_t)b->data.nface);
    } else if (b->data.nface) {
      memset(m->mesh_facetexcoord + 3 * fa, 0, sizeof(int) * 3 * (size_t)b->data.nface);
    }
    /* polygons, and for each vertex the polygons it is a corner of, in polygon order */
    m->mesh_polyadr[i] = pa;
    m->mesh_polynum[i] = b->npoly;
    for (int p = 0, at = b->npoly; p < b->npoly; p++) {
      m->mesh_polyvertadr[pa + p] = pva;
      m->mesh_polyvertnum[pa + p] = b->poly[p];
      memcpy(m->mesh_polyvert + pva, b->poly + at, sizeof(int) * (size_t)b->poly[p]);
      gs_copy3(m->mesh_polynormal + 3 * (pa + p), b->polynormal + 3 * p);
      at += b->poly[p], pva += b->poly[p];
    }
    for (int v = 0; v < b->data.nvert; v++) m->mesh_polymapnum[va + v] = 0;
    for (int k = 0; k < b->npolyvert; k++) m->mesh_polymapnum[va + m->mesh_polyvert[m->mesh_polyvertadr[pa] + k]]++;
    for (int v = 0; v < b->data.nvert; v++) {
      m->mesh_polymapadr[va + v] = pma;
      pma += m->mesh_polymapnum[va + v];
      m->mesh_polymapnum[va + v] = 0;
    }
    for (int p = 0; p < b->npoly; p++)
      for (int k = 0; k < b->poly[p]; k++) {
        int v = va + m->mesh_polyvert[m->mesh_polyvertadr[pa + p] + k];
        m->mesh_polymap[m->mesh_polymapadr[v] + m->mesh_polymapnum[v]++] = p;
      }
    pa += b->npoly;
    ta += b->data.ntexcoord;
    va += b->data.nvert;
    fa += b->data.nface;
    ga += b->ngraph;
  }
}
