/* A geom as a convex shape for the narrow phase (gsConvex): its type, size, frame, the radius of
 * a sphere's or capsule's core and a mesh's hull (convex.h). */
#include "collision/convex.h"

void gs_convexFromGeom(gsConvex* c, const gsModel* m, const gsData* d, int g) {
  c->type = m->geom_type[g];
  c->size = m->geom_size + 3 * g;
  c->pos = d->geom_xpos + 3 * g;
  c->mat = d->geom_xmat + 9 * g;
  c->radius = c->type == GS_GEOM_SPHERE || c->type == GS_GEOM_CAPSULE ? c->size[0] : 0;
  c->inflate = 0;
  c->support = NULL;
  c->data = NULL;
  c->vert = NULL, c->graph = NULL, c->cells = NULL, c->nvert = 0;
  c->hint = NULL;
  if (c->type == GS_GEOM_MESH) {
    int id = m->geom_dataid[g];
    c->vert = m->mesh_vert + 3 * m->mesh_vertadr[id];
    c->graph = m->mesh_graphadr[id] >= 0 ? m->mesh_graph + m->mesh_graphadr[id] : NULL;
    c->cells = m->mesh_hullcell + GS_HULLCELLS * id;
    c->nvert = m->mesh_vertnum[id];
  }
}
