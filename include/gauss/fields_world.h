/* Sizes and model arrays of the world slice: cameras, lights, assets (meshes, height fields, textures, materials), contact pairs and exclusions. See fields.h. */
#ifndef GAUSS_FIELDS_WORLD_H
#define GAUSS_FIELDS_WORLD_H

#define GS_SIZES_WORLD(X)

#define GS_FIELDS_WORLD(X)

#endif
