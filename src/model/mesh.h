/* Internal interface of the mesh stage of the compiler: decoding mesh files (mesh_file.c) and
 * turning a mesh asset into what the model keeps (compile_mesh.c): vertices in the mesh's
 * inertial frame, triangles, the convex hull graph, the frame offset and the inertia. */
#ifndef GAUSS_MODEL_MESH_H
#define GAUSS_MODEL_MESH_H

#include <stddef.h>

#include "model/compile.h"

/* vertices (3 per vertex, values of single precision) and triangles (3 per face), heap-owned */
typedef struct {
  int nvert;
  gsReal* vert;
  int nface;
  int* face;
  int ntexcoord;       /* texture coordinates (u, v), 0: none */
  gsReal* texcoord;
  int* facetex;        /* each face corner's texture coordinate (3 per face), with texcoord */
} gsMeshData;

void gs_meshDataFree(gsMeshData* md);

/* Decodes a mesh file: binary or ASCII STL, Wavefront OBJ or MJCF's binary .msh, by content type
 * (when given) or by the file's extension. STL vertices are merged where they are equal (an STL
 * file repeats them per triangle), in order of first appearance. Returns 0 with a message in err
 * (no file name: the caller adds it). */
int gs_meshDecode(const unsigned char* bytes, size_t n, const char* file, const char* content_type,
                  gsMeshData* out, char* err, int errsz);

/* The vertices and triangles of a builtin mesh (<mesh builtin= params=>, mesh_builtin.c), in
 * MJCF's order and single precision. Returns 0 with a message in err for an unknown type or
 * parameters MJCF refuses. */
int gs_meshBuiltin(const char* name, const gsReal* params, int nparams, gsMeshData* out, char* err,
                   int errsz);

/* a mesh asset as the model keeps it */
typedef struct gsMeshBuild {
  gsMeshData data;       /* vertices in the inertial frame (rounded to single precision), faces */
  int ngraph;
  int* graph;            /* convex hull graph (layout of mesh_graph in fields_world.h); NULL
                          * where no geom can collide with the mesh (mesh_graphadr -1) */
  int hullfaces;         /* no triangles were given: they are the hull's */
  gsReal* given;         /* the vertices as given, before scale and refpos/refquat */
  int npoly, npolyvert;  /* the hull's faces (else the triangles) as polygons (mesh_poly.c) */
  int* poly;             /* corner counts (npoly), then the corners (npolyvert), mesh ids */
  gsReal* polynormal;    /* 3 per polygon, in the inertial frame */
  int* tree;             /* the triangle tree for rays (mesh_tree.c; NULL without triangles):
                          * 2 children per node, then the triangles in tree order */
  gsReal* treebox;       /* 6 per node */
  gsReal pos[3];         /* inertial frame in the frame the vertices were given in */
  gsReal quat[4];
  gsReal volume;         /* volume, or area for inertia="shell" */
  gsReal inertia[3];     /* principal inertia per unit density */
  gsReal halfsize[3];    /* largest |coordinate| of the vertices along each principal axis */
  gsReal aabb[6];        /* lowest, then highest coordinates of the vertices in the inertial frame,
                            before rounding (primitives fitted under compiler fitaabb) */
} gsMeshBuild;

/* frees what a build holds (mesh_cache.c), its pointers left NULL */
void gs_meshBuildFree(gsMeshBuild* b);

/* The process-wide cache of meshes built from files (mesh_cache.c), keyed by the file's bytes and
 * the attributes the build depends on (inertia: the rule applied). Get copies a cached build into
 * b (its graph left out unless need_graph or the triangles are the hull's); 0 on a miss, or when
 * only a build without the graph is cached and need_graph is set. Put keeps a copy of b. */
int gs_meshCacheGet(const gsSpecMesh* sm, int inertia, int need_graph, gsMeshBuild* b);
void gs_meshCachePut(const gsSpecMesh* sm, int inertia, const gsMeshBuild* b);

/* Builds every mesh of the spec into c->mesh (c->nmesh of them); 0 after reporting an error
 * "file:line: mesh 'name': ...". gs_compileMeshFree releases them. */
int gs_compileMeshes(gsCompileCtx* c);
void gs_compileMeshFree(gsCompileCtx* c);

/* the mesh of a geom of body b (by its asset reference), NULL when it has none or it is unknown */
const gsMeshBuild* gs_compileGeomMesh(const gsCompileCtx* c, const gsSpecBody* b, const gsSpecGeom* g);
/* the half-sizes of the box with the mesh's volume and principal inertia (for fitting primitives
 * and for a mesh geom's inertia), and a mesh geom's principal inertia for its mass through that
 * box, as MJCF */
void gs_compileMeshBox(const gsMeshBuild* mb, gsReal h[3]);
void gs_compileMeshInertia(const gsMeshBuild* mb, gsReal mass, gsReal I[3]);

/* the triangle tree of a mesh of nface triangles (mesh_tree.c; fields_world.h, mesh_tree*):
 * its number of nodes, and the nodes built (child, box) with the triangles in tree order in
 * order[nface]; 0 when out of memory */
int gs_meshTreeNodes(int nface);
int gs_meshTreeBuild(const gsReal* vert, const int* face, int nface, int (*child)[2],
                     gsReal (*box)[6], int* order);

/* Triangles merged into polygons (b->poly, polynormal): face holds nface triangles (the hull
 * graph's, else the mesh's), given the mesh's nvert vertices as given (they decide the grouping
 * and the order), vert the same after scale and refpos/refquat (the normals), b->pos and
 * b->quat the inertial frame; 0 when out of memory. */
int gs_meshPolygons(gsMeshBuild* b, const gsReal* given, const gsReal* vert, int nvert, const int* face,
                    int nface);

/* copies the built meshes into the model's mesh arrays (sizes set by gs_compileMeshSizes) */
void gs_compileMeshSizes(const gsCompileCtx* c, gsModel* sizes);
void gs_compileMeshArrays(const gsCompileCtx* c, gsModel* m);

#endif
