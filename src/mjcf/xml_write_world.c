/* The MJCF writer's part for the world slice: <asset> (textures, materials, meshes, height
 * fields), cameras and lights in their bodies, the asset references of geoms and sites, and
 * <contact> (pairs, exclusions).
 *
 * What the compiled model does not keep cannot be written: texture pixels (a builtin texture is
 * written as a flat one of the same size; one read from a file names the file again), a mesh's
 * normals (a mesh file is named again; inline vertices are kept as given
 * in mesh_srcvert and written back with the triangles), <visual> beyond what gsVisual keeps. Files
 * are named as the original model wrote them, so the document reads back where those names resolve. */
#include <stdio.h>
#include <string.h>

#include "core/math.h"
#include "model/io.h"
#include "xml_write_internal.h"
#include "xml_keywords.h"

static const char* const kLightTypes[] = {"spot", "directional", "point", "image"};
static const char* const kTexTypes[] = {"2d", "cube", "skybox"};
static const char* const kColorSpaces[] = {"auto", "linear", "sRGB"};
static const char* const kBuiltins[] = {"none", "gradient", "checker", "flat"};
static const char* const kMarks[] = {"none", "edge", "cross", "random"};

/* file="...": the file the asset was read from, relative to the model's directory, where the
 * name as written needs a directory the document does not give (meshdir, texturedir, a
 * sub-model's own) or strippath; else the name as written. 0 when the asset had no file */
static int file_attr(gswWriter* w, int pathadr, int readadr) {
  const gsModel* m = w->m;
  if (pathadr < 0 || pathadr >= m->npaths) return 0;
  if (readadr >= 0 && readadr < m->nreadpaths) gsw_str(w, "file", m->readpaths + readadr);
  else gsw_str(w, "file", m->paths + pathadr);
  return 1;
}

/* a cube or skybox texture read from six face files: each named again as read (relative to the
 * model's directory); 0 when the texture has no face file */
static int face_attrs(gswWriter* w, int t) {
  static const char* const kFaces[6] = {"fileright", "fileleft", "fileup", "filedown", "filefront", "fileback"};
  const gsModel* m = w->m;
  const int* adr = m->tex_cubereadadr + 6 * t;
  int n = 0;
  for (int f = 0; f < 6; f++)
    if (adr[f] >= 0 && adr[f] < m->nreadpaths) {
      gsw_str(w, kFaces[f], m->readpaths + adr[f]);
      n++;
    }
  return n > 0;
}

static void write_texture(gswWriter* w, int t) {
  const gsModel* m = w->m;
  int type = m->tex_type[t];
  gsw_open(w, "texture");
  gsw_name(w, GS_OBJ_TEXTURE, t);
  gsw_keyword(w, "type", kTexTypes, 3, type);
  gsw_keyword(w, "colorspace", kColorSpaces, 3, m->tex_colorspace[t]);
  gsw_int(w, "nchannel", m->tex_nchannel[t]);
  if (face_attrs(w, t)) {
    /* the faces give the size */
  } else if (!file_attr(w, m->tex_pathadr[t], m->tex_readadr[t])) {
    /* the pixels are not kept: a builtin texture's recipe, else a flat texture of the same size
     * (cube and skybox textures are six square faces stacked, so their width gives the size) */
    int builtin = m->tex_builtin[t];
    gsw_keyword(w, "builtin", kBuiltins, 4, builtin > 0 && builtin < 4 ? builtin : 3);
    if (builtin > 0 && builtin < 4) {
      gsw_keyword(w, "mark", kMarks, 4, m->tex_mark[t]);
      gsw_reals(w, "rgb1", m->tex_rgb1 + 3 * t, 3);
      gsw_reals(w, "rgb2", m->tex_rgb2 + 3 * t, 3);
      gsw_reals(w, "markrgb", m->tex_markrgb + 3 * t, 3);
      gsw_real(w, "random", m->tex_random[t]);
    }
    gsw_int(w, "width", m->tex_width[t]);
    gsw_int(w, "height", type == 0 ? m->tex_height[t] : m->tex_width[t]);
  } else if (type != 0 && m->tex_height[t] == m->tex_width[t]) {
    gsw_str(w, "gridsize", "1 1");
  }
  gsw_end(w);
}

static void write_material(gswWriter* w, int i) {
  const gsModel* m = w->m;
  const int* tex = m->mat_texid + GS_NTEXROLE * i;
  int nrole = 0, only_rgb = 1;
  for (int r = 0; r < GS_NTEXROLE; r++)
    if (tex[r] >= 0) nrole++, only_rgb &= r == 1;
  gsw_open(w, "material");
  gsw_name(w, GS_OBJ_MATERIAL, i);
  if (nrole == 1 && only_rgb) gsw_ref(w, "texture", GS_OBJ_TEXTURE, tex[1]);
  gsw_bool(w, "texuniform", m->mat_texuniform[i]);
  gsw_reals(w, "texrepeat", m->mat_texrepeat + 2 * i, 2);
  gsw_real(w, "emission", m->mat_emission[i]);
  gsw_real(w, "specular", m->mat_specular[i]);
  gsw_real(w, "shininess", m->mat_shininess[i]);
  gsw_real(w, "reflectance", m->mat_reflectance[i]);
  gsw_real(w, "metallic", m->mat_metallic[i]);
  gsw_real(w, "roughness", m->mat_roughness[i]);
  gsw_reals(w, "rgba", m->mat_rgba + 4 * i, 4);
  if (nrole == 0 || (nrole == 1 && only_rgb)) {
    gsw_end(w);
    return;
  }
  /* several roles: one <layer> each */
  gsw_begin(w);
  for (int r = 1; r < GS_NTEXROLE; r++) {
    if (tex[r] < 0) continue;
    gsw_open(w, "layer");
    gsw_ref(w, "texture", GS_OBJ_TEXTURE, tex[r]);
    gsw_str(w, "role", gsx_texRoles[r]);
    gsw_end(w);
  }
  gsw_close(w, "material");
}

/* whether mesh i's triangles are its convex hull's, in the hull graph's order: then none were
 * given (or they equal the hull's), and writing none reloads to the same mesh and the same graph,
 * where written triangles would leave a mesh that no geom collides with without its graph */
static int hull_triangles(const gsModel* m, int i) {
  int ga = m->mesh_graphadr[i], end = m->nmeshgraph;
  if (ga < 0) return 0;
  for (int k = i + 1; k < m->nmesh; k++)
    if (m->mesh_graphadr[k] >= 0) {
      end = m->mesh_graphadr[k];
      break;
    }
  int nf = m->mesh_graph[ga + 1];
  return nf == m->mesh_facenum[i] && end - ga >= 2 + 3 * nf &&
         memcmp(m->mesh_graph + end - 3 * nf, m->mesh_face + 3 * m->mesh_faceadr[i], sizeof(int) * 3 * (size_t)nf) == 0;
}

static void write_mesh(gswWriter* w, int i) {
  const gsModel* m = w->m;
  gsw_open(w, "mesh");
  gsw_name(w, GS_OBJ_MESH, i);
  if (!file_attr(w, m->mesh_pathadr[i], m->mesh_readadr[i])) {
    /* inline data: the vertices as given and the triangles, unless they are the hull's */
    if (m->mesh_srcvertadr[i] < 0)
      return gsw_fail(w, "mesh %d has neither a file nor its vertices as given: the model keeps them only in the inertial frame, which does not reload to the same model", i);
    gsw_reals(w, "vertex", m->mesh_srcvert + 3 * m->mesh_srcvertadr[i], 3 * m->mesh_srcvertnum[i]);
    if (!hull_triangles(m, i)) gsw_ints(w, "face", m->mesh_face + 3 * m->mesh_faceadr[i], 3 * m->mesh_facenum[i]);
    /* inline texture coordinates are one per vertex, in the vertices' order */
    if (m->mesh_texcoordadr[i] >= 0 && m->mesh_texcoordnum[i] == m->mesh_srcvertnum[i])
      gsw_reals(w, "texcoord", m->mesh_texcoord + 2 * m->mesh_texcoordadr[i], 2 * m->mesh_texcoordnum[i]);
  }
  gsw_reals(w, "scale", m->mesh_scale + 3 * i, 3);
  gsw_reals(w, "refpos", m->mesh_refpos + 3 * i, 3);
  gsw_reals(w, "refquat", m->mesh_refquat + 4 * i, 4);
  static const char* const inertia[] = {"convex", "exact", "legacy", "shell"};
  gsw_keyword(w, "inertia", inertia, 4, m->mesh_inertia[i]);
  gsw_int(w, "maxhullvert", m->mesh_maxhullvert[i]);
  gsw_end(w);
}

void gs_meshGeomFrame(gsReal pos[3], gsReal quat[4], const gsModel* m, int g) {
  int i = m->geom_dataid[g];
  gsReal inv[4], off[3];
  gs_negQuat(inv, m->mesh_quat + 4 * i);
  gs_mulQuat(quat, m->geom_quat + 4 * g, inv);
  gs_normalize4(quat);
  gs_rotVecQuat(off, m->mesh_pos + 3 * i, quat);
  gs_sub3(pos, m->geom_pos + 3 * g, off);
}

static void write_hfield(gswWriter* w, int i) {
  const gsModel* m = w->m;
  int nrow = m->hfield_nrow[i], ncol = m->hfield_ncol[i];
  gsw_open(w, "hfield");
  gsw_name(w, GS_OBJ_HFIELD, i);
  gsw_reals(w, "size", m->hfield_size + 4 * i, 4);
  if (!file_attr(w, m->hfield_pathadr[i], m->hfield_readadr[i])) {
    gsw_int(w, "nrow", nrow);
    gsw_int(w, "ncol", ncol);
    /* the normalized elevation, top row first as MJCF writes it (stored bottom row first);
     * all zero is what no elevation at all gives */
    const gsReal* v = m->hfield_data + m->hfield_adr[i];
    int any = 0;
    for (int k = 0; k < nrow * ncol; k++) any |= v[k] != 0;
    if (any) {
      gsw_printf(w, " elevation=\"");
      for (int r = nrow - 1; r >= 0; r--) {
        for (int k = 0; k < ncol; k++) {
          char t[40];
          snprintf(t, sizeof t, "%.9g", v[r * ncol + k]);  /* single precision data */
          gsw_printf(w, "%s%s", r == nrow - 1 && k == 0 ? "" : " ", t);
        }
      }
      gsw_printf(w, "\"");
    }
  }
  gsw_end(w);
}

/* the <map>, <scale> or <rgba> attributes of <visual> that differ from MJCF's defaults (in the
 * single precision the model keeps them), so that a model that gives none writes none */
static const struct {
  const char *elem, *attr;
  int n;
  size_t off, spec_off;
} kDecor[] = {
#define GS_D(e, a, count) {#e, #a, count, offsetof(gsVisual, e##_##a), offsetof(gsSpecVisual, e##_##a)},
    GS_VISUAL_DECOR(GS_D)
#undef GS_D
};

static void write_decor(gswWriter* w, const char* elem) {
  gsSpecVisual def;
  gs_defaultVisual(&def);
  for (size_t i = 0; i < sizeof kDecor / sizeof kDecor[0]; i++) {
    if (strcmp(kDecor[i].elem, elem) != 0) continue;
    const gsReal* v = (const gsReal*)((const char*)&w->m->vis + kDecor[i].off);
    const gsReal* d = (const gsReal*)((const char*)&def + kDecor[i].spec_off);
    int same = 1;
    for (int k = 0; k < kDecor[i].n; k++) same &= (float)v[k] == (float)d[k];
    if (same) continue;
    if (kDecor[i].n == 1) gsw_real(w, kDecor[i].attr, v[0]);
    else gsw_reals(w, kDecor[i].attr, v, kDecor[i].n);
  }
}

void gsw_writeWorldAssets(gswWriter* w) {
  const gsModel* m = w->m;
  /* the solvers' unit of cost, which the model may have given */
  gsw_open(w, "statistic");
  gsw_real(w, "meaninertia", m->stat.meaninertia);
  gsw_real(w, "extent", m->stat.extent);
  gsw_reals(w, "center", m->stat.center, 3);
  gsw_end(w);
  /* what the model keeps of <visual> (the renderer's settings; the near clipping plane also
   * sets the intrinsics of cameras without a sensor) */
  const gsVisual* v = &m->vis;
  gsw_open(w, "visual");
  gsw_begin(w);
  gsw_open(w, "global");
  gsw_real(w, "fovy", v->fovy);
  gsw_real(w, "azimuth", v->azimuth);
  gsw_real(w, "elevation", v->elevation);
  gsw_end(w);
  gsw_open(w, "quality");
  gsw_int(w, "shadowsize", v->shadowsize);
  gsw_int(w, "offsamples", v->offsamples);
  gsw_int(w, "numslices", v->numslices);
  gsw_int(w, "numstacks", v->numstacks);
  gsw_int(w, "numquads", v->numquads);
  gsw_end(w);
  gsw_open(w, "headlight");
  gsw_reals(w, "ambient", v->headlight_ambient, 3);
  gsw_reals(w, "diffuse", v->headlight_diffuse, 3);
  gsw_reals(w, "specular", v->headlight_specular, 3);
  gsw_int(w, "active", v->headlight_active);
  gsw_end(w);
  gsw_open(w, "map");
  gsw_real(w, "znear", v->znear);
  gsw_real(w, "zfar", v->zfar);
  gsw_real(w, "fogstart", v->fogstart);
  gsw_real(w, "fogend", v->fogend);
  write_decor(w, "map");
  gsw_end(w);
  gsw_open(w, "scale");
  write_decor(w, "scale");
  gsw_end(w);
  gsw_open(w, "rgba");
  write_decor(w, "rgba");
  gsw_end(w);
  gsw_close(w, "visual");
  if (!m->ntex && !m->nmat && !m->nmesh && !m->nhfield) return;
  gsw_open(w, "asset");
  gsw_begin(w);
  for (int i = 0; i < m->ntex; i++) write_texture(w, i);
  for (int i = 0; i < m->nmat; i++) write_material(w, i);
  for (int i = 0; i < m->nmesh; i++) write_mesh(w, i);
  for (int i = 0; i < m->nhfield; i++) write_hfield(w, i);
  gsw_close(w, "asset");
}

void gsw_attrsWorld(gswWriter* w, int type, int id) {
  const gsModel* m = w->m;
  if (type == GS_OBJ_GEOM) {
    if (m->geom_matid[id] >= 0) gsw_ref(w, "material", GS_OBJ_MATERIAL, m->geom_matid[id]);
    /* a primitive fitted to a mesh keeps the mesh's id but is written as the primitive it became,
     * without the mesh: reloaded it has none (geom_dataid -1), as MJCF's own saved file gives */
    if (m->geom_dataid[id] >= 0) {
      if (m->geom_type[id] == GS_GEOM_MESH) gsw_ref(w, "mesh", GS_OBJ_MESH, m->geom_dataid[id]);
      if (m->geom_type[id] == GS_GEOM_HFIELD)
        gsw_ref(w, "hfield", GS_OBJ_HFIELD, m->geom_dataid[id]);
    }
  } else if (type == GS_OBJ_SITE) {
    if (m->site_matid[id] >= 0) gsw_ref(w, "material", GS_OBJ_MATERIAL, m->site_matid[id]);
  }
}

static void write_camera(gswWriter* w, int i) {
  const gsModel* m = w->m;
  gsw_open(w, "camera");
  gsw_name(w, GS_OBJ_CAMERA, i);
  gsw_keyword(w, "mode", gsx_camLightModes, 5, m->cam_mode[i]);
  if (m->cam_targetbodyid[i] >= 0) gsw_ref(w, "target", GS_OBJ_BODY, m->cam_targetbodyid[i]);
  gsw_reals(w, "pos", m->cam_pos + 3 * i, 3);
  gsw_reals(w, "quat", m->cam_quat + 4 * i, 4);
  gsw_bool(w, "orthographic", m->cam_orthographic[i]);
  gsw_real(w, "ipd", m->cam_ipd[i]);
  gsw_ints(w, "resolution", m->cam_resolution + 2 * i, 2);
  const gsReal* ss = m->cam_sensorsize + 2 * i;
  const gsReal* in = m->cam_intrinsic + 4 * i;
  if (ss[0] > 0 && ss[1] > 0) {
    /* a physical sensor: lengths, from which the field of view follows */
    gsw_reals(w, "sensorsize", ss, 2);
    gsw_reals(w, "focal", in, 2);
    gsw_reals(w, "principal", in + 2, 2);
  } else {
    gsw_real(w, "fovy", m->cam_fovy[i]);
  }
  if (m->nuser_cam > 0) gsw_reals(w, "user", m->cam_user + (size_t)i * m->nuser_cam, m->nuser_cam);
  gsw_end(w);
}

static void write_light(gswWriter* w, int i) {
  const gsModel* m = w->m;
  gsw_open(w, "light");
  gsw_name(w, GS_OBJ_LIGHT, i);
  gsw_keyword(w, "mode", gsx_camLightModes, 5, m->light_mode[i]);
  if (m->light_targetbodyid[i] >= 0) gsw_ref(w, "target", GS_OBJ_BODY, m->light_targetbodyid[i]);
  gsw_keyword(w, "type", kLightTypes, 4, m->light_type[i]);
  if (m->light_texid[i] >= 0) gsw_ref(w, "texture", GS_OBJ_TEXTURE, m->light_texid[i]);
  gsw_bool(w, "castshadow", m->light_castshadow[i]);
  gsw_bool(w, "active", m->light_active[i]);
  gsw_real(w, "bulbradius", m->light_bulbradius[i]);
  gsw_real(w, "intensity", m->light_intensity[i]);
  gsw_real(w, "range", m->light_range[i]);
  gsw_reals(w, "attenuation", m->light_attenuation + 3 * i, 3);
  gsw_real(w, "cutoff", m->light_cutoff[i]);
  gsw_real(w, "exponent", m->light_exponent[i]);
  gsw_reals(w, "ambient", m->light_ambient + 3 * i, 3);
  gsw_reals(w, "diffuse", m->light_diffuse + 3 * i, 3);
  gsw_reals(w, "specular", m->light_specular + 3 * i, 3);
  gsw_reals(w, "pos", m->light_pos + 3 * i, 3);
  gsw_reals(w, "dir", m->light_dir + 3 * i, 3);
  gsw_end(w);
}

void gsw_bodyChildrenWorld(gswWriter* w, int group) {
  for (int i = w->held_head[GSW_CAMERA][group]; i >= 0; i = w->held_next[GSW_CAMERA][i]) write_camera(w, i);
  for (int i = w->held_head[GSW_LIGHT][group]; i >= 0; i = w->held_next[GSW_LIGHT][i]) write_light(w, i);
}

void gsw_writeWorldSections(gswWriter* w) {
  const gsModel* m = w->m;
  if (!m->npair && !m->nexclude) return;
  gsw_open(w, "contact");
  gsw_begin(w);
  for (int i = 0; i < m->npair; i++) {
    gsw_open(w, "pair");
    gsw_name(w, GS_OBJ_PAIR, i);
    gsw_ref(w, "geom1", GS_OBJ_GEOM, m->pair_geom1[i]);
    gsw_ref(w, "geom2", GS_OBJ_GEOM, m->pair_geom2[i]);
    gsw_int(w, "condim", m->pair_dim[i]);
    gsw_reals(w, "friction", m->pair_friction + 5 * i, 5);
    gsw_reals(w, "solref", m->pair_solref + GS_NREF * i, GS_NREF);
    gsw_reals(w, "solreffriction", m->pair_solreffriction + GS_NREF * i, GS_NREF);
    gsw_reals(w, "solimp", m->pair_solimp + GS_NIMP * i, GS_NIMP);
    gsw_real(w, "margin", m->pair_margin[i]);
    gsw_real(w, "gap", m->pair_gap[i]);
    gsw_end(w);
  }
  for (int i = 0; i < m->nexclude; i++) {
    int sig = m->exclude_signature[i];
    gsw_open(w, "exclude");
    gsw_name(w, GS_OBJ_EXCLUDE, i);
    gsw_ref(w, "body1", GS_OBJ_BODY, sig >> 16);
    gsw_ref(w, "body2", GS_OBJ_BODY, sig & 0xffff);
    gsw_end(w);
  }
  gsw_close(w, "contact");
}
