/* gs_compile, and MJCF's discardvisual: geoms that take part in no contact (contype and
 * conaffinity 0) and that nothing names, every material and texture, and the meshes no geom is
 * left to use, are left out of the model, which keeps the dynamics it had: the spec is compiled
 * whole once for the bodies' inertia, then a pruned copy, its bodies given that inertia
 * explicitly, is compiled. fusestatic (compile_fuse.c) works on the same copy, whose bodies'
 * inertia must not change when their geoms move to another body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gauss/gauss.h"
#include "model/compile.h"
#include "model/spec_slices.h"

static int named_in(const char* name, const char* const* names, int n) {
  for (int i = 0; i < n; i++)
    if (names[i] && strcmp(names[i], name) == 0) return 1;
  return 0;
}

/* the geom names other elements refer to: sensors, contact pairs, tendon paths, tuples */
static int geom_references(const gsSpec* s, const char*** out) {
  int cap = 2 * (s->nsensor + s->npair) + 1, n = 0;
  for (int i = 0; i < s->ntendon; i++) cap += s->tendon[i]->nwrap;
  for (int i = 0; i < s->ntuple; i++) cap += s->tuple[i]->nelement;
  const char** names = malloc(sizeof(char*) * (size_t)cap);
  if (!names) return -1;
  for (int i = 0; i < s->nsensor; i++) {
    if (s->sensor[i]->objtype == GS_OBJ_GEOM) names[n++] = s->sensor[i]->objname;
    if (s->sensor[i]->reftype == GS_OBJ_GEOM) names[n++] = s->sensor[i]->refname;
  }
  for (int i = 0; i < s->npair; i++) names[n++] = s->pair[i]->geom1, names[n++] = s->pair[i]->geom2;
  for (int i = 0; i < s->ntendon; i++)
    for (int k = 0; k < s->tendon[i]->nwrap; k++)
      if (s->tendon[i]->wrap[k]->kind == GS_PATH_GEOM) names[n++] = s->tendon[i]->wrap[k]->target;
  for (int i = 0; i < s->ntuple; i++)
    for (int k = 0; k < s->tuple[i]->nelement; k++)
      if (s->tuple[i]->element[k]->objtype == GS_OBJ_GEOM) names[n++] = s->tuple[i]->element[k]->objname;
  *out = names;
  return n;
}

/* the copy's bodies, in the model's order, take the compiled inertia; visual geoms go; the
 * material names geoms, sites, tendons, meshes and lights hold are cleared. b: next body id. */
static int prune_body(gsSpec* s, gsSpecBody* body, const gsModel* m, int* b, const char* const* refs,
                      int nref, int discard) {
  int id = (*b)++;
  if (id > 0) {
    gsSpecInertial* in = &body->inertial;
    in->given = 1;
    in->has_full = 0;
    in->mass = m->body_mass[id];
    memcpy(in->pos, m->body_ipos + 3 * id, 3 * sizeof(gsReal));
    gs_orientSetQuat(&in->orient, m->body_iquat + 4 * id);
    memcpy(in->diaginertia, m->body_inertia + 3 * id, 3 * sizeof(gsReal));
  }
  for (int g = body->ngeom - 1; discard && g >= 0; g--) {
    const gsSpecGeom* geom = body->geom[g];
    int visual = geom->contype == 0 && geom->conaffinity == 0;
    if (visual && !(geom->info.name && named_in(geom->info.name, refs, nref)) &&
        !gs_specDelete(s, GS_SK_GEOM, body->geom[g]))
      return 0;
  }
  for (int i = 0; discard && i < body->nassetref; i++) {
    free(body->assetref[i]->material);
    body->assetref[i]->material = NULL;
  }
  for (int i = 0; discard && i < body->nlight; i++) {
    free(body->light[i]->texture);
    body->light[i]->texture = NULL;
  }
  for (int i = 0; i < body->nchild; i++)
    if (!prune_body(s, body->child[i], m, b, refs, nref, discard)) return 0;
  return 1;
}

static int mesh_used(const gsSpecBody* body, const char* name) {
  for (int i = 0; i < body->nassetref; i++)
    if (body->assetref[i]->mesh && strcmp(body->assetref[i]->mesh, name) == 0) return 1;
  for (int i = 0; i < body->nchild; i++)
    if (mesh_used(body->child[i], name)) return 1;
  return 0;
}

/* a body's own inertiafromgeom (from a sub-model) must not bring back what the first compile
 * made explicit either */
static void clear_own_inertia(gsSpecBody* b) {
  b->inertiafromgeom = GS_INERTIAFROMGEOM_FALSE;
  for (int i = 0; i < b->nchild; i++) clear_own_inertia(b->child[i]);
}

static gsModel* compile_discarding(const gsSpec* spec, char* err, int errsz) {
  int discard = spec->compiler.discardvisual, fuse = spec->compiler.fusestatic;
  gsSpec* copy = gs_specCopy(spec);
  if (!copy) {
    if (err && errsz > 0) snprintf(err, (size_t)errsz, "out of memory");
    return NULL;
  }
  copy->compiler.discardvisual = 0;
  copy->compiler.fusestatic = 0;
  /* settotalmass scales once, in the second compile: after the fused sums and the moving-body
   * rule, as MJCF orders them */
  gsReal totalmass = copy->compiler.settotalmass;
  copy->compiler.settotalmass = 0;
  /* the meshes built for the whole model serve the pruned one too */
  gsMeshStore store = {0, 0, NULL, NULL};
  /* MJCF applies the moving-body mass rule to the fused tree: with fusestatic the second compile
   * checks it, otherwise the first */
  gsModel* whole = gs_compileSpecStore(copy, err, errsz, &store, fuse);
  gsModel* m = NULL;
  const char** refs = NULL;
  int nref = whole ? geom_references(copy, &refs) : -1;
  int b = 0, ok = nref >= 0 && prune_body(copy, copy->world, whole, &b, refs, nref, discard);
  if (ok && discard) {
    gs_specFreeList(GS_SK_MATERIAL, (void***)&copy->material, &copy->nmaterial, &copy->nmaterial_cap);
    gs_specFreeList(GS_SK_TEXTURE, (void***)&copy->texture, &copy->ntexture, &copy->ntexture_cap);
    for (int i = 0; i < copy->ntendon; i++) {
      free(copy->tendon[i]->material);
      copy->tendon[i]->material = NULL;
    }
    for (int i = copy->nmesh - 1; ok && i >= 0; i--) {
      gsSpecMesh* mesh = copy->mesh[i];
      free(mesh->material);
      mesh->material = NULL;
      if (!mesh->info.name || !mesh_used(copy->world, mesh->info.name))
        ok = gs_specDelete(copy, GS_SK_MESH, mesh);
    }
  }
  if (ok) {
    /* every body's inertia is explicit now: the geoms that remain must not replace it */
    copy->compiler.inertiafromgeom = GS_INERTIAFROMGEOM_FALSE;
    copy->compiler.settotalmass = totalmass;
    clear_own_inertia(copy->world);
    if (fuse) ok = gs_compileFuseStatic(copy, err, errsz);
    if (ok) m = gs_compileSpecStore(copy, err, errsz, &store, !fuse);
  } else if (whole && err && errsz > 0) {
    snprintf(err, (size_t)errsz, "out of memory");
  }
  free(refs);
  gs_compileMeshStoreFree(&store);
  gs_freeModel(whole);
  gs_specFree(copy);
  return m;
}

gsModel* gs_compile(const gsSpec* spec, char* err, int errsz) {
  if (spec && (spec->compiler.discardvisual || spec->compiler.fusestatic))
    return compile_discarding(spec, err, errsz);
  return gs_compileSpec(spec, err, errsz);
}
