/* Convex meshes in the collision stage (mesh.c): support points on the hull graph. */
#ifndef GAUSS_COLLISION_MESH_H
#define GAUSS_COLLISION_MESH_H

#include "gauss/gauss.h"

/* the mesh vertex (index into vert, 3 per vertex) of the hull farthest along local direction u;
 * cells: the mesh's mesh_hullcell row (NULL: none), where climbs start */
int gs_meshSupportVertex(const gsReal* vert, const int* graph, const int* cells, const gsReal u[3]);
/* the same, the climb starting at the hull vertex *start (a local index of the graph: an
 * earlier call's value, or -1 for none) or at u's cell's vertex where that is farther along u
 * (without either, at the farthest of a few sample vertices), and
 * ending with the vertex found stored there (hulls small enough to be scanned leave *start as
 * it was): successive directions of one query are close, so the climb is short. The answer is
 * gs_meshSupportVertex's: where the farthest vertex is not alone to rounding, the climb is done
 * again from vertex 0. */
int gs_meshSupportWalk(const gsReal* vert, const int* graph, const int* cells, const gsReal u[3],
                       int* start);
/* gs_meshSupportVertex's vertex with its local index in *local (the graph's vertex count where
 * it is not on the graph) */
int gs_meshSupportLocal(const gsReal* vert, const int* graph, const int* cells, const gsReal u[3],
                        int* local);
/* the plain hill climb over the hull graph from local vertex *start (0 where it is negative),
 * moving to the largest neighbour while one is larger; *start is set to where it ended (MJCF's
 * older convex pipeline: its supports start where the previous one of the query ended) */
int gs_meshSupportClimb(const gsReal* vert, const int* graph, const gsReal u[3], int* start);

/* the same over all nvert vertices, for a mesh without a hull graph (mesh_graphadr -1: no geom
 * collides with it, but a distance sensor may measure it); the first on a tie */
int gs_meshSupportScan(const gsReal* vert, int nvert, const gsReal u[3]);

#endif
