/* Sizes and model arrays of the world slice: cameras, lights, assets (meshes, height fields, textures, materials), contact pairs and exclusions. See fields.h. */
#ifndef GAUSS_FIELDS_WORLD_H
#define GAUSS_FIELDS_WORLD_H

#define GS_NTEXROLE 10  /* texture roles of a material (gsTextureRole), columns of mat_texid */
#define GS_HULLCELLS 96 /* cells of directions a mesh's hull climbs start from, columns of mesh_hullcell */

/* Values that MJCF keeps in single precision (colors, light and material coefficients, camera
 * sensor, height field data) are stored here rounded to single precision, so that they are the
 * same numbers. Texture pixels: those of image files are in tex_image (8-bit samples, MJCF's
 * layout: rows top first, cube faces right left up down front back stacked), at tex_imageadr;
 * builtin textures keep their recipe and are made where they are drawn, so MJCF's tex_data
 * (whose addresses tex_adr keeps) is absent. Mesh vertices are single precision in MJCF: mesh_vert holds them rounded so. */
#define GS_SIZES_WORLD(X)                                                                          \
  X(ncam)        /* cameras */                                                                     \
  X(nlight)      /* lights */                                                                      \
  X(nmesh)       /* meshes */                                                                      \
  X(nmeshvert)   /* vertices of all meshes */                                                      \
  X(nmeshface)   /* triangles of all meshes */                                                     \
  X(nmeshgraph)  /* ints of all convex hull graphs */                                              \
  X(nmeshpoly)   /* polygons of all convex hulls */                                                \
  X(nmeshpolyvert) /* corners of all those polygons */                                             \
  X(nmeshpolymap) /* vertex-to-polygon entries (one per corner) */                                 \
  X(nmeshsrcvert) /* vertices of inline meshes as given, for the MJCF writer */                    \
  X(nmeshtexcoord) /* texture coordinates of all meshes */                                        \
  X(nmeshtree)   /* nodes of all meshes' triangle trees (ray casting) */                          \
  X(nhfield)     /* height fields */                                                               \
  X(nhfielddata) /* elevation values of all height fields */                                       \
  X(ntex)        /* textures */                                                                    \
  X(nteximage)   /* bytes of the pixels of textures read from image files */                       \
  X(nmat)        /* materials */                                                                   \
  X(npair)       /* predefined geom pairs */                                                       \
  X(nexclude)    /* excluded body pairs */                                                         \
  X(nuser_cam)   /* user values per camera */                                                      \
  X(npaths)      /* bytes of the asset file names buffer */                                        \
  X(nreadpaths)  /* bytes of the asset files as read, where not the names as written */            \
  X(nframe)      /* <frame>s, named or not (MuJoCo's model keeps none), for the MJCF writer */ \
  X(nframenames) /* bytes of their names (an unnamed one: its terminating NUL) */

#define GS_FIELDS_WORLD(X)                                                                         \
  /* asset references of core objects */                                                           \
  X(int,    geom_dataid,         ngeom,       1)   /* mesh or hfield id, -1: none */               \
  X(int,    geom_matid,          ngeom,       1)                                                   \
  X(int,    site_matid,          nsite,       1)                                                   \
  /* cameras */                                                                                    \
  X(int,    cam_mode,            ncam,        1)   /* gsCamLight */                                \
  X(int,    cam_bodyid,          ncam,        1)                                                   \
  X(int,    cam_targetbodyid,    ncam,        1)                                                   \
  X(gsReal, cam_pos,             ncam,        3)                                                   \
  X(gsReal, cam_quat,            ncam,        4)                                                   \
  X(gsReal, cam_poscom0,         ncam,        3)   /* world position - subtree com, at qpos0 */    \
  X(gsReal, cam_pos0,            ncam,        3)   /* world position - body position, at qpos0 */  \
  X(gsReal, cam_mat0,            ncam,        9)   /* world orientation at qpos0 */                \
  X(int,    cam_orthographic,    ncam,        1)                                                   \
  X(gsReal, cam_fovy,            ncam,        1)   /* degrees (length when orthographic) */        \
  X(gsReal, cam_ipd,             ncam,        1)                                                   \
  X(int,    cam_resolution,      ncam,        2)                                                   \
  X(gsReal, cam_sensorsize,      ncam,        2)                                                   \
  X(gsReal, cam_intrinsic,       ncam,        4)   /* focal x y, principal x y (lengths) */        \
  X(gsReal, cam_user,            ncam,        GS_COLS(1, nuser_cam))                               \
  /* lights */                                                                                     \
  X(int,    light_mode,          nlight,      1)   /* gsCamLight */                                \
  X(int,    light_bodyid,        nlight,      1)                                                   \
  X(int,    light_targetbodyid,  nlight,      1)                                                   \
  X(int,    light_type,          nlight,      1)   /* gsLightType */                               \
  X(int,    light_texid,         nlight,      1)                                                   \
  X(int,    light_castshadow,    nlight,      1)                                                   \
  X(gsReal, light_bulbradius,    nlight,      1)                                                   \
  X(gsReal, light_intensity,     nlight,      1)                                                   \
  X(gsReal, light_range,         nlight,      1)                                                   \
  X(int,    light_active,        nlight,      1)                                                   \
  X(gsReal, light_pos,           nlight,      3)                                                   \
  X(gsReal, light_dir,           nlight,      3)                                                   \
  X(gsReal, light_poscom0,       nlight,      3)                                                   \
  X(gsReal, light_pos0,          nlight,      3)                                                   \
  X(gsReal, light_dir0,          nlight,      3)                                                   \
  X(gsReal, light_attenuation,   nlight,      3)                                                   \
  X(gsReal, light_cutoff,        nlight,      1)                                                   \
  X(gsReal, light_exponent,      nlight,      1)                                                   \
  X(gsReal, light_ambient,       nlight,      3)                                                   \
  X(gsReal, light_diffuse,       nlight,      3)                                                   \
  X(gsReal, light_specular,      nlight,      3)                                                   \
  /* meshes, in their inertial frame (centre of mass, principal axes); the convex hull graph of   \
   * mesh i at mesh_graph + mesh_graphadr[i]: numvert, numface, vert_edgeadr[numvert],             \
   * vert_globalid[numvert], edge_localid[...] (each vertex's neighbours, -1 after each list),      \
   * face_globalid[3 numface] (outward, counter-clockwise)                                         \
   */                                                                                              \
  X(gsReal, mesh_scale,          nmesh,       3)                                                   \
  X(int,    mesh_pathadr,        nmesh,       1)   /* -1: no file */                               \
  X(gsReal, mesh_refpos,         nmesh,       3)   /* as given */                                  \
  X(gsReal, mesh_refquat,        nmesh,       4)                                                   \
  X(int,    mesh_inertia,        nmesh,       1)   /* gsMeshInertia */                             \
  X(int,    mesh_maxhullvert,    nmesh,       1)   /* -1: no limit */                              \
  X(int,    mesh_vertadr,        nmesh,       1)                                                   \
  X(int,    mesh_vertnum,        nmesh,       1)                                                   \
  X(int,    mesh_faceadr,        nmesh,       1)                                                   \
  X(int,    mesh_facenum,        nmesh,       1)                                                   \
  X(int,    mesh_graphadr,       nmesh,       1)                                                   \
  X(gsReal, mesh_pos,            nmesh,       3)   /* inertial frame in the frame of the data */   \
  X(gsReal, mesh_quat,           nmesh,       4)                                                   \
  X(gsReal, mesh_volume,         nmesh,       1)   /* shell: area */                               \
  X(gsReal, mesh_unitinertia,    nmesh,       3)   /* principal inertia per unit density */        \
  X(gsReal, mesh_vert,           nmeshvert,   3)                                                   \
  X(int,    mesh_face,           nmeshface,   3)                                                   \
  X(int,    mesh_graph,          nmeshgraph,  1)                                                   \
  /* the hull's faces as polygons (triangles whose normals agree merged, mesh_poly.c), with the     \
   * graph (none without): corners counter-clockwise from outside in mesh vertex ids, the normal in \
   * the inertial frame; for each vertex the polygons it is a corner of, ascending */               \
  X(int,    mesh_polynum,        nmesh,       1)                                                   \
  X(int,    mesh_polyadr,        nmesh,       1)                                                   \
  X(gsReal, mesh_polynormal,     nmeshpoly,   3)                                                   \
  X(int,    mesh_polyvertadr,    nmeshpoly,   1)                                                   \
  X(int,    mesh_polyvertnum,    nmeshpoly,   1)                                                   \
  X(int,    mesh_polyvert,       nmeshpolyvert, 1)                                                 \
  X(int,    mesh_polymapadr,     nmeshvert,   1)                                                   \
  X(int,    mesh_polymapnum,     nmeshvert,   1)                                                   \
  X(int,    mesh_polymap,        nmeshpolymap, 1)                                                  \
  X(int,    mesh_srcvertadr,     nmesh,       1)   /* inline vertices as given, -1: from a file */ \
  X(int,    mesh_srcvertnum,     nmesh,       1)                                                   \
  X(gsReal, mesh_srcvert,        nmeshsrcvert, 3)  /* rounded to single precision */              \
  /* texture coordinates (u, v) of mesh i at mesh_texcoordadr (-1: none), as MJCF keeps them (an    \
   * OBJ file's v turned to 1 - v), and the texture coordinate of each face corner (0 without) */   \
  X(int,    mesh_texcoordadr,    nmesh,       1)                                                   \
  X(int,    mesh_texcoordnum,    nmesh,       1)                                                   \
  X(gsReal, mesh_texcoord,       nmeshtexcoord, 2) /* single precision */                         \
  X(int,    mesh_facetexcoord,   nmeshface,   3)                                                   \
  /* a bounding-box tree over each mesh's triangles, for rays: mesh i's root at mesh_treeadr (-1:   \
   * no triangles), its nodes in depth-first order; a node's box (lo, hi, mesh frame, grown by     \
   * 1e-9 of its size) and its two children, or for a leaf -1 - k and n: the mesh's triangles      \
   * mesh_treeface[faceadr + k .. + n) (indices within the mesh); made by the compiler (vertices   \
   * edited in place afterwards keep the old boxes, as MJCF's bounding volumes do) */               \
  X(int,    mesh_treeadr,        nmesh,       1)                                                   \
  X(int,    mesh_treechild,      nmeshtree,   2)                                                   \
  X(gsReal, mesh_treebox,        nmeshtree,   6)                                                   \
  X(int,    mesh_treeface,       nmeshface,   1)                                                   \
  /* where climbs over each mesh's hull graph start (support points): for each of GS_HULLCELLS     \
   * cells of directions (a cube's faces cut into 4 x 4 squares), the hull vertex (local index in   \
   * the graph) farthest along the cell's centre; -1 without a graph. Made by the compiler; only a   \
   * start (a climb's answer does not depend on it), so vertices edited afterwards need no new one */ \
  X(int,    mesh_hullcell,       nmesh,       GS_HULLCELLS)                                        \
  /* height fields */                                                                              \
  X(gsReal, hfield_size,         nhfield,     4)   /* radius x, radius y, elevation z, base z */   \
  X(int,    hfield_nrow,         nhfield,     1)                                                   \
  X(int,    hfield_ncol,         nhfield,     1)                                                   \
  X(int,    hfield_adr,          nhfield,     1)                                                   \
  X(gsReal, hfield_data,         nhfielddata, 1)   /* normalized to [0 1], bottom row first */     \
  X(int,    hfield_pathadr,      nhfield,     1)                                                   \
  /* textures */                                                                                   \
  X(int,    tex_type,            ntex,        1)   /* gsTextureType */                             \
  X(int,    tex_colorspace,      ntex,        1)   /* gsColorSpace */                              \
  X(int,    tex_height,          ntex,        1)                                                   \
  X(int,    tex_width,           ntex,        1)                                                   \
  X(int,    tex_nchannel,        ntex,        1)                                                   \
  X(int,    tex_adr,             ntex,        1)   /* where its pixels would start (MJCF's) */     \
  X(int,    tex_pathadr,         ntex,        1)                                                   \
  X(int,    tex_imageadr,        ntex,        1)   /* its pixels in tex_image, -1: none (builtin) */ \
  X(char,   tex_image,           nteximage,   1)   /* pixels of image files, 8-bit samples */       \
  /* a builtin texture's recipe (MJCF's attributes; the pixels are made where they are drawn) */   \
  X(int,    tex_builtin,         ntex,        1)   /* gsBuiltin */                                 \
  X(int,    tex_mark,            ntex,        1)   /* gsMark */                                    \
  X(gsReal, tex_rgb1,            ntex,        3)                                                   \
  X(gsReal, tex_rgb2,            ntex,        3)                                                   \
  X(gsReal, tex_markrgb,         ntex,        3)                                                   \
  X(gsReal, tex_random,          ntex,        1)   /* share of pixels in markrgb */                \
  /* materials */                                                                                  \
  X(int,    mat_texid,           nmat,        GS_NTEXROLE)                                         \
  X(int,    mat_texuniform,      nmat,        1)                                                   \
  X(gsReal, mat_texrepeat,       nmat,        2)                                                   \
  X(gsReal, mat_emission,        nmat,        1)                                                   \
  X(gsReal, mat_specular,        nmat,        1)                                                   \
  X(gsReal, mat_shininess,       nmat,        1)                                                   \
  X(gsReal, mat_reflectance,     nmat,        1)                                                   \
  X(gsReal, mat_metallic,        nmat,        1)                                                   \
  X(gsReal, mat_roughness,       nmat,        1)                                                   \
  X(gsReal, mat_rgba,            nmat,        4)                                                   \
  /* predefined geom pairs */                                                                      \
  X(int,    pair_dim,            npair,       1)                                                   \
  X(int,    pair_geom1,          npair,       1)                                                   \
  X(int,    pair_geom2,          npair,       1)                                                   \
  X(int,    pair_signature,      npair,       1)   /* body1 << 16 + body2 */                       \
  X(gsReal, pair_solref,         npair,       GS_NREF)                                             \
  X(gsReal, pair_solreffriction, npair,       GS_NREF)                                             \
  X(gsReal, pair_solimp,         npair,       GS_NIMP)                                             \
  X(gsReal, pair_margin,         npair,       1)                                                   \
  X(gsReal, pair_gap,            npair,       1)                                                   \
  X(gsReal, pair_friction,       npair,       5)                                                   \
  /* excluded body pairs */                                                                        \
  X(int,    exclude_signature,   nexclude,    1)   /* body1 << 16 + body2 */                       \
  /* names */                                                                                      \
  X(int,    name_camadr,         ncam,        1)                                                   \
  X(int,    name_lightadr,       nlight,      1)                                                   \
  X(int,    name_meshadr,        nmesh,       1)                                                   \
  X(int,    name_hfieldadr,      nhfield,     1)                                                   \
  X(int,    name_texadr,         ntex,        1)                                                   \
  X(int,    name_matadr,         nmat,        1)                                                   \
  X(int,    name_pairadr,        npair,       1)                                                   \
  X(int,    name_excludeadr,     nexclude,    1)                                                   \
  /* asset file names as written, NUL-terminated; *_pathadr point here */                         \
  X(char,   paths,               npaths,      1)                                                   \
  /* the files a mesh, height field or texture was read from, relative to the model's directory    \
   * (meshdir, texturedir, a sub-model's directories and strippath applied), where that is not    \
   * the name as written; *_readadr point here (-1: the name as written). MJCF written from the     \
   * model names these files, so that it reads back beside the model's file */                    \
  X(int,    mesh_readadr,        nmesh,       1)                                                   \
  X(int,    hfield_readadr,      nhfield,     1)                                                   \
  X(int,    tex_readadr,         ntex,        1)                                                   \
  /* a cube or skybox texture made of six face files (right left up down front back): each file    \
   * as read, relative to the model's directory (-1: that face has none) */                        \
  X(int,    tex_cubereadadr,     ntex,        6)                                                   \
  X(char,   readpaths,           nreadpaths,  1)                                                   \
  /* the <frame>s, body by body as each body lists them (enclosing ones first), and the frame each \
   * element is written in. They place nothing in the model (their contents hold their poses in   \
   * the body): MJCF written back nests the elements in them, as MJCF's writer does. Their names   \
   * have a buffer of their own, so that `names` stays laid out as MuJoCo's */                    \
  X(int,    frame_bodyid,        nframe,      1)                                                   \
  X(int,    frame_frameid,       nframe,      1)   /* the enclosing frame, -1: none */             \
  X(int,    frame_nameadr,       nframe,      1)   /* into framenames ("": unnamed) */             \
  X(char,   framenames,          nframenames, 1)                                                   \
  X(int,    body_frameid,        nbody,       1)   /* the frame of its parent, -1: none */         \
  X(int,    jnt_frameid,         njnt,        1)   /* the frame of its body, -1: none */           \
  X(int,    geom_frameid,        ngeom,       1)                                                   \
  X(int,    site_frameid,        nsite,       1)                                                   \
  X(int,    cam_frameid,         ncam,        1)                                                   \
  X(int,    light_frameid,       nlight,      1)

#endif
