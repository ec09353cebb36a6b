/* Drawing a scene with OpenGL 3.3 core: one shader in four variants (lit colour with or without
 * textures, the skybox, segmentation colour and view depth), one vertex buffer (geometry.c), and a framebuffer object holding the colour, the
 * linear depth (a float per pixel, exact where the depth buffer is not) and the depth test. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/renderer.h"

/* Vertex shader: positions, and for the lit variants MJCF's light model per vertex, as its
 * fixed-function pipeline lights (ambient, diffuse and Blinn-Phong specular per light, attenuation
 * 1 / (a0 + a1 d + a2 d^2), spot cutoff and exponent); a software rasterizer pays for every
 * instruction of the pixel shader on every pixel, and per-vertex light costs it a fraction.
 * Variants by #define: GS_FLAT (segmentation colour and view depth), GS_SKY (the skybox),
 * GS_TEX (lit with builtin textures and grid lines), none (lit). */
static const char* const kVertex =
    "#version 330 core\n"
    "layout(location = 0) in vec3 a_pos;\n"
    "layout(location = 1) in vec3 a_nrm;\n"
    "layout(location = 2) in vec2 a_uv;\n"
    "uniform mat4 u_proj, u_view, u_model;\n"
    "uniform mat3 u_normal;\n"
    "uniform vec4 u_clip;\n"
    "out vec3 v_local;\n"
    "out vec2 v_uv;\n"
    "out float v_depth;\n"
    "#if !defined(GS_FLAT) && !defined(GS_SKY)\n"
    "uniform vec3 u_campos;\n"
    "uniform float u_spec, u_shine;\n"
    "uniform int u_twosided;\n"
    "uniform int u_nlight;\n"
    "uniform vec3 u_lpos[8], u_ldir[8], u_lamb[8], u_ldif[8], u_lspec[8], u_latt[8];\n"
    "uniform float u_lcut[8], u_lexp[8];\n"
    "uniform int u_ldirectional[8];\n"
    "uniform mat4 u_shadowmat[GS_NSHADOW];\n"
    "uniform int u_shadowslot[8];\n"      /* per light: its shadow map, -1 none */
    "out vec3 v_diffuse, v_specular;\n"
    "out vec3 v_sdiffuse[GS_NSHADOW], v_sspecular[GS_NSHADOW];\n"
    "out vec4 v_shadow[GS_NSHADOW];\n"
    "#endif\n"
    "void main() {\n"
    "  vec4 w = u_model * vec4(a_pos, 1.0);\n"
    "  vec4 e = u_view * w;\n"
    "  v_local = a_pos; v_uv = a_uv; v_depth = -e.z;\n"
    "  gl_ClipDistance[0] = dot(u_clip, w);\n"   /* the mirror pass keeps what is behind its plane */
    "  gl_Position = u_proj * e;\n"
    "#if !defined(GS_FLAT) && !defined(GS_SKY)\n"
    "  vec3 n = normalize(u_normal * a_nrm);\n"
    "  vec3 v = normalize(u_campos - w.xyz);\n"
    "  if (u_twosided != 0 && dot(n, v) < 0.0) n = -n;\n"   /* planes: lit from either side */
    "  vec3 dif = vec3(0.0), spc = vec3(0.0);\n"
    "  vec3 sdif[GS_NSHADOW], sspc[GS_NSHADOW];\n"
    "  for (int k = 0; k < GS_NSHADOW; k++) { sdif[k] = vec3(0.0); sspc[k] = vec3(0.0); }\n"
    "  for (int i = 0; i < u_nlight; i++) {\n"
    "    vec3 l; float att = 1.0;\n"
    "    if (u_ldirectional[i] != 0) l = -u_ldir[i];\n"
    "    else {\n"
    "      vec3 dl = u_lpos[i] - w.xyz; float d = length(dl); l = dl / max(d, 1e-9);\n"
    "      att = 1.0 / max(u_latt[i].x + u_latt[i].y * d + u_latt[i].z * d * d, 1e-9);\n"
    "      if (u_lcut[i] < 180.0) {\n"
    "        float c = dot(-l, u_ldir[i]);\n"
    "        att *= c >= cos(radians(u_lcut[i])) ? pow(max(c, 0.0), u_lexp[i]) : 0.0;\n"
    "      }\n"
    "    }\n"
    "    float nl = max(dot(n, l), 0.0);\n"
    "    float sp = nl > 0.0 ? pow(max(dot(n, normalize(l + v)), 0.0), max(u_shine * 128.0, 1.0)) : 0.0;\n"
    "    dif += u_lamb[i];\n"
    /* the lights that cast shadows apart: the pixel shader weighs each by its shadow map */
    "    int k = u_shadowslot[i];\n"
    "    if (k >= 0) { sdif[k] += att * u_ldif[i] * nl; sspc[k] += att * u_lspec[i] * u_spec * sp; }\n"
    "    else { dif += att * u_ldif[i] * nl; spc += att * u_lspec[i] * u_spec * sp; }\n"
    "  }\n"
    "  v_diffuse = dif; v_specular = spc;\n"
    "  for (int k = 0; k < GS_NSHADOW; k++) {\n"
    "    v_sdiffuse[k] = sdif[k]; v_sspecular[k] = sspc[k]; v_shadow[k] = u_shadowmat[k] * w;\n"
    "  }\n"
    "#endif\n"
    "}\n";

static const char* const kFragment =
    "#version 330 core\n"
    "in vec3 v_local;\n"
    "in vec2 v_uv;\n"
    "in float v_depth;\n"
    "uniform vec4 u_rgba, u_segcolor;\n"
    "uniform float u_emis;\n"
    "uniform vec2 u_grid;\n"
    "uniform vec3 u_size;\n"
    "uniform vec2 u_fog;\n"
    "uniform vec3 u_fogrgb;\n"
    "uniform int u_tex;\n"                 /* gsBuiltin, 0: none */
    "uniform vec3 u_texrgb1, u_texrgb2, u_texmarkrgb;\n"
    "uniform vec4 u_texparam;\n"           /* mark, random, texels per repetition, uniform */
    "uniform vec2 u_texrepeat;\n"
    "uniform int u_img;\n"                 /* an image texture: 1 2d, 2 cube map, 3 2d by a mesh's coordinates, 0 none */
    "uniform vec4 u_scale;\n"              /* the shape's scale (and offset along z) */
    "uniform vec2 u_ext;\n"                /* the object's half extent in x and y */
    "uniform sampler2D u_image;\n"
    "uniform samplerCube u_cube;\n"
    "#if !defined(GS_FLAT) && !defined(GS_SKY)\n"
    "in vec3 v_diffuse, v_specular;\n"
    "in vec3 v_sdiffuse[GS_NSHADOW], v_sspecular[GS_NSHADOW];\n"
    "in vec4 v_shadow[GS_NSHADOW];\n"
    "uniform int u_nshadow;\n"
    "uniform sampler2DShadow u_shadowmap[GS_NSHADOW];\n"
    /* the share of a shadow's light that reaches the point: 1 outside its map */
    "float unshadowed(sampler2DShadow map, vec4 p) {\n"
    "  vec3 q = p.xyz / p.w;\n"
    "  if (p.w > 0.0 && all(greaterThan(q, vec3(0.0))) && all(lessThan(q, vec3(1.0)))) return texture(map, q);\n"
    "  return 1.0;\n"
    "}\n"
    "#endif\n"
    "layout(location = 0) out vec4 o_color;\n"
    "layout(location = 1) out vec4 o_depth;\n"
    "float hash(vec2 p) { return fract(sin(dot(p, vec2(12.9898, 78.233))) * 43758.5453); }\n"
    /* MJCF's builtin textures: checker (2 x 2 squares of rgb1 and rgb2 per repetition), gradient
     * (rgb1 to rgb2), flat (rgb1); marks on the squares' edges, as a cross, or at random texels */
    "vec3 builtin(vec2 uv, float lines) {\n"
    "  vec2 t = fract(uv);\n"
    "  vec3 c = u_texrgb1;\n"
    "  if (u_tex == 2) c = (mod(floor(2.0 * uv.x) + floor(2.0 * uv.y), 2.0) < 0.5) ? u_texrgb1 : u_texrgb2;\n"
    "  else if (u_tex == 1) c = mix(u_texrgb1, u_texrgb2, t.y);\n"
    "  float w = u_texparam.z;\n"
    "  if (u_texparam.x == 1.0 && lines > 0.0) {\n"
    "    vec2 e = abs(fract(2.0 * uv + 0.5) - 0.5) / (2.0 * max(fwidth(uv), vec2(1.0 / w)));\n"
    "    c = mix(c, u_texmarkrgb, 1.0 - clamp(min(e.x, e.y), 0.0, 1.0));\n"
    "  } else if (u_texparam.x == 2.0) {\n"
    "    vec2 e = abs(t - 0.5) * w;\n"
    "    if (min(e.x, e.y) < 1.0) c = u_texmarkrgb;\n"
    "  } else if (u_texparam.x == 3.0 && hash(floor(uv * w)) < u_texparam.y) c = u_texmarkrgb;\n"
    "  return c;\n"
    "}\n"
    "void main() {\n"
    "  o_depth = vec4(v_depth);\n"
    "#if defined(GS_FLAT)\n"
    "  o_color = u_segcolor;\n"
    "#elif defined(GS_SKY)\n"   /* the skybox: rgb1 above, rgb2 below, by direction */
    "  vec3 dir = normalize(v_local);\n"
    "  vec2 uv = vec2(atan(dir.y, dir.x) / 6.2831853, 0.5 + asin(clamp(dir.z, -1.0, 1.0)) / 3.1415927);\n"
    "  vec3 c = mix(u_texrgb2, u_texrgb1, u_tex == 1 ? uv.y : 0.5);\n"
    "  if (u_tex != 1) c = builtin(uv * vec2(4.0, 2.0), 0.0);\n"
    "  if (u_texparam.x == 3.0 && hash(floor(uv * u_texparam.z * vec2(4.0, 2.0))) < u_texparam.y) c = u_texmarkrgb;\n"
    /* a skybox image: its up face at the zenith, its front face towards -y (as MJCF shows it) */
    "  if (u_img == 2) c = texture(u_cube, vec3(dir.x, dir.z, -dir.y)).rgb;\n"
    "  o_color = vec4(c, 1.0);\n"
    "#else\n"
    "  vec3 base = u_rgba.rgb;\n"
    "#ifdef GS_TEX\n"
    /* texture coordinates: repetitions over the plane's size, or (texuniform) one repetition per
     * two units of length, which is how MuJoCo's images look (measured on the corpus's floors) */
    "  if (u_tex > 0) {\n"
    "    vec2 p = v_local.xy * u_size.xy;\n"
    "    vec2 uv = u_texparam.w > 0.5 ? 0.5 * p * u_texrepeat : (v_local.xy * 0.5 + 0.5) * u_texrepeat;\n"
    "    base *= builtin(uv, 1.0);\n"
    "  }\n"
    /* image textures, mapped as MJCF maps them (measured against MuJoCo 3.3.7's images): a cube
     * map by the direction from the centre of the unit shape (with texuniform, of the object in
     * its size; a capsule's caps moved out by their offset); a 2d image by x and y in the
     * object's frame, its centre at the object's centre and its top row towards +y, texrepeat
     * repetitions over the object's extent in x and y, or (texuniform) half as many per unit length */
    "  if (u_img == 2) {\n"
    "    vec3 q = u_texparam.w > 0.5 ? v_local * u_scale.xyz : v_local;\n"
    "    q.z += u_texparam.w > 0.5 ? u_scale.w : u_scale.w / u_scale.z;\n"
    "    base *= texture(u_cube, q).rgb;\n"
    "  }\n"
    /* a mesh's own texture coordinates (MJCF's; texrepeat does not apply, as in MuJoCo's images) */
    "  else if (u_img == 3) base *= texture(u_image, v_uv).rgb;\n"
    "  else if (u_img == 1) {\n"
    "    vec2 p = v_local.xy * u_scale.xy;\n"
    "    vec2 uv = 0.5 + (u_texparam.w > 0.5 ? 0.5 * p : p / (2.0 * u_ext)) * u_texrepeat;\n"
    "    base *= texture(u_image, vec2(uv.x, -uv.y)).rgb;\n"
    "  }\n"
    "  if (u_grid.x > 0.0) {\n"
    "    vec2 p = v_local.xy * u_size.xy / u_grid;\n"
    "    vec2 f = abs(fract(p + 0.5) - 0.5) / fwidth(p);\n"
    "    float line = 1.0 - clamp(min(f.x, f.y), 0.0, 1.0);\n"
    "    base = mix(base, base * 0.6 + 0.15, line);\n"
    "  }\n"
    "#endif\n"
    "  vec3 col = base * (u_emis + v_diffuse) + v_specular;\n"
    /* samplers of an array are indexed by constants only (GLSL 3.30) */
    "#define GS_SHADE(k) if (k < u_nshadow) col += unshadowed(u_shadowmap[k], v_shadow[k]) * (base * v_sdiffuse[k] + v_sspecular[k]);\n"
    "  GS_SHADE(0)\n"
    "#if GS_NSHADOW > 1\n"
    "  GS_SHADE(1)\n"
    "#endif\n"
    "#if GS_NSHADOW > 2\n"
    "  GS_SHADE(2)\n"
    "#endif\n"
    "#if GS_NSHADOW > 3\n"
    "  GS_SHADE(3)\n"
    "#endif\n"
    "  if (u_fog.y > u_fog.x) col = mix(col, u_fogrgb, clamp((v_depth - u_fog.x) / (u_fog.y - u_fog.x), 0.0, 1.0));\n"
    "  o_color = vec4(clamp(col, 0.0, 1.0), u_rgba.a);\n"
    "#endif\n"
    "}\n";

static unsigned compile(gsrGL* gl, unsigned type, const char* src, char* err, int errsz) {
  unsigned s = gl->glCreateShader(type);
  gl->glShaderSource(s, 1, &src, NULL);
  gl->glCompileShader(s);
  GLint ok = 0;
  gl->glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[512] = "";
    gl->glGetShaderInfoLog(s, sizeof log, NULL, log);
    snprintf(err, (size_t)errsz, "shader: %s", log);
    gl->glDeleteShader(s);
    return 0;
  }
  return s;
}

/* a program from the shaders, the fragment shader after `defines` (GS_FLAT: the flat one) */
static int make_program(gsRenderer* r, gsrProgram* p, const char* defines, char* err, int errsz) {
  gsrGL* gl = &r->gl;
  char fsrc[16384], vsrc[16384];
  /* the defines go after the version line, with the number of shadow maps the programs take */
  snprintf(fsrc, sizeof fsrc, "#version 330 core\n#define GS_NSHADOW %d\n%s%s", r->nshadowprog, defines,
           strchr(kFragment, '\n') + 1);
  snprintf(vsrc, sizeof vsrc, "#version 330 core\n#define GS_NSHADOW %d\n%s%s", r->nshadowprog, defines,
           strchr(kVertex, '\n') + 1);
  unsigned vs = compile(gl, GL_VERTEX_SHADER, vsrc, err, errsz);
  unsigned fs = vs ? compile(gl, GL_FRAGMENT_SHADER, fsrc, err, errsz) : 0;
  if (!fs) return 0;
  p->prog = gl->glCreateProgram();
  gl->glAttachShader(p->prog, vs);
  gl->glAttachShader(p->prog, fs);
  gl->glLinkProgram(p->prog);
  gl->glDeleteShader(vs);
  gl->glDeleteShader(fs);
  GLint ok = 0;
  gl->glGetProgramiv(p->prog, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[512] = "";
    gl->glGetProgramInfoLog(p->prog, sizeof log, NULL, log);
    snprintf(err, (size_t)errsz, "shader link: %s", log);
    return 0;
  }
#define U(name) p->name = gl->glGetUniformLocation(p->prog, #name)
  U(u_proj); U(u_view); U(u_model); U(u_normal); U(u_mode); U(u_rgba); U(u_segcolor); U(u_spec);
  U(u_shine); U(u_emis); U(u_nlight); U(u_lpos); U(u_ldir); U(u_lamb); U(u_ldif); U(u_lspec);
  U(u_latt); U(u_lcut); U(u_lexp); U(u_ldirectional); U(u_grid); U(u_size); U(u_campos);
  U(u_fog); U(u_fogrgb); U(u_tex); U(u_texrgb1); U(u_texrgb2); U(u_texmarkrgb); U(u_texparam); U(u_texrepeat);
  U(u_twosided); U(u_shadowmat); U(u_shadowslot); U(u_nshadow); U(u_shadowmap); U(u_img); U(u_image); U(u_cube); U(u_ext); U(u_scale); U(u_clip);
#undef U
  return 1;
}

int gsr_setupGL(gsRenderer* r, char* err, int errsz) {
  gsrGL* gl = &r->gl;
  int w = r->width, h = r->height;
  GLint maxsize = 0;
  gl->glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxsize);
  if (w > maxsize || h > maxsize) {
    snprintf(err, (size_t)errsz, "image %dx%d larger than the back end's limit %d", w, h, maxsize);
    return 0;
  }
  /* framebuffer: colour, linear depth, depth test */
  gl->glGenFramebuffers(1, &r->fbo);
  gl->glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
  unsigned rb[3];
  gl->glGenRenderbuffers(3, rb);
  r->rb_color = rb[0], r->rb_depthval = rb[1], r->rb_depth = rb[2];
  /* the stencil marks where a reflecting plane is seen (its mirror pass) */
  static const GLenum kFormat[3] = {GL_RGBA8, GL_R32F, GL_DEPTH32F_STENCIL8};
  static const GLenum kAttach[3] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1, GL_DEPTH_STENCIL_ATTACHMENT};
  for (int i = 0; i < 3; i++) {
    gl->glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
    gl->glRenderbufferStorage(GL_RENDERBUFFER, kFormat[i], w, h);
    gl->glFramebufferRenderbuffer(GL_FRAMEBUFFER, kAttach[i], GL_RENDERBUFFER, rb[i]);
  }
  if (gl->glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    snprintf(err, (size_t)errsz, "the framebuffer of %dx%d is incomplete", w, h);
    return 0;
  }
  /* the multisampled framebuffer for colour images, where the back end has one */
  GLint maxs = 0;
  gl->glGetIntegerv(GL_MAX_SAMPLES, &maxs);
  /* <quality offsamples> samples per pixel, as many as the back end has; 0 or 1: none */
  r->samples = r->m->vis.offsamples < maxs ? r->m->vis.offsamples : maxs;
  if (r->samples > 1) {
    gl->glGenFramebuffers(1, &r->fbo_ms);
    gl->glBindFramebuffer(GL_FRAMEBUFFER, r->fbo_ms);
    unsigned ms[2];
    gl->glGenRenderbuffers(2, ms);
    r->rb_ms_color = ms[0], r->rb_ms_depth = ms[1];
    gl->glBindRenderbuffer(GL_RENDERBUFFER, ms[0]);
    gl->glRenderbufferStorageMultisample(GL_RENDERBUFFER, r->samples, GL_RGBA8, w, h);
    gl->glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, ms[0]);
    gl->glBindRenderbuffer(GL_RENDERBUFFER, ms[1]);
    gl->glRenderbufferStorageMultisample(GL_RENDERBUFFER, r->samples, GL_DEPTH32F_STENCIL8, w, h);
    gl->glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, ms[1]);
    if (gl->glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) r->samples = 0;
    gl->glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
  }
  /* the shadow maps: depth textures compared at lookup, as many as the model's lights that cast
   * shadows (at least one, so that the programs declare their arrays) */
  r->nshadowprog = 0;
  for (int i = 0; i < r->m->nlight; i++) r->nshadowprog += r->m->light_castshadow[i] != 0;
  r->nshadowprog = r->nshadowprog < 1 ? 1 : r->nshadowprog > GSR_MAXSHADOW ? GSR_MAXSHADOW : r->nshadowprog;
  /* <quality shadowsize>: the maps' side in pixels, at most the back end's largest texture; none
   * (no shadows) when it is not positive */
  GLint maxtex = 0;
  gl->glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxtex);
  r->shadowsize = r->m->vis.shadowsize < maxtex ? r->m->vis.shadowsize : maxtex;
  for (int k = 0; k < r->nshadowprog; k++) {
    gl->glGenTextures(1, &r->tex_shadow[k]);
    gl->glActiveTexture(GL_TEXTURE3 + (GLenum)k);
    gl->glBindTexture(GL_TEXTURE_2D, r->tex_shadow[k]);
    if (r->shadowsize < 1) break;
    gl->glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, r->shadowsize, r->shadowsize, 0,
                     GL_DEPTH_COMPONENT, GL_FLOAT, NULL);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
    gl->glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    gl->glGenFramebuffers(1, &r->fbo_shadow[k]);
    gl->glBindFramebuffer(GL_FRAMEBUFFER, r->fbo_shadow[k]);
    gl->glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->tex_shadow[k], 0);
    GLenum none = GL_NONE;
    gl->glDrawBuffers(1, &none);
    if (gl->glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      gl->glDeleteFramebuffers(1, &r->fbo_shadow[k]);
      r->fbo_shadow[k] = 0;  /* no shadows on this back end */
    }
  }
  gl->glActiveTexture(GL_TEXTURE0);
  gl->glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
  /* programs */
  if (!make_program(r, &r->lit, "", err, errsz) ||
      !make_program(r, &r->littex, "#define GS_TEX 1\n", err, errsz) ||
      !make_program(r, &r->sky, "#define GS_SKY 1\n", err, errsz) ||
      !make_program(r, &r->flat, "#define GS_FLAT 1\n", err, errsz))
    return 0;
  r->u = &r->lit;
  /* vertices */
  gl->glGenVertexArrays(1, &r->vao);
  gl->glBindVertexArray(r->vao);
  gl->glGenBuffers(1, &r->vbo);
  gl->glBindBuffer(GL_ARRAY_BUFFER, r->vbo);
  gl->glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof(float) * GSR_VSTRIDE * (size_t)r->geom.nv),
                   r->geom.v, GL_STATIC_DRAW);
  GLsizei stride = sizeof(float) * GSR_VSTRIDE;
  gl->glGenBuffers(1, &r->ibo);
  gl->glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, r->ibo);
  gl->glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof(unsigned) * (size_t)r->geom.nindex),
                   r->geom.index, GL_STATIC_DRAW);
  gl->glEnableVertexAttribArray(0);
  gl->glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (void*)0);
  gl->glEnableVertexAttribArray(1);
  gl->glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, (void*)(sizeof(float) * 3));
  gl->glEnableVertexAttribArray(2);
  gl->glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, (void*)(sizeof(float) * 6));
  if (!gsr_uploadTextures(r)) {
    snprintf(err, (size_t)errsz, "texture upload failed");
    return 0;
  }
  return gl->glGetError() == GL_NO_ERROR ? 1 : (snprintf(err, (size_t)errsz, "GL setup failed"), 0);
}

void gsr_freeGL(gsRenderer* r) {
  gsrGL* gl = &r->gl;
  if (!gl->glDeleteProgram) return;
  const gsrProgram* progs[4] = {&r->lit, &r->littex, &r->sky, &r->flat};
  for (int i = 0; i < 4; i++)
    if (progs[i]->prog) gl->glDeleteProgram(progs[i]->prog);
  if (r->vbo) gl->glDeleteBuffers(1, &r->vbo);
  if (r->ibo) gl->glDeleteBuffers(1, &r->ibo);
  for (int k = 0; k < GSR_MAXSHADOW; k++) {
    if (r->fbo_shadow[k]) gl->glDeleteFramebuffers(1, &r->fbo_shadow[k]);
    if (r->tex_shadow[k]) gl->glDeleteTextures(1, &r->tex_shadow[k]);
  }
  if (r->vao) gl->glDeleteVertexArrays(1, &r->vao);
  gsr_freeTextures(r);
  unsigned rb[3] = {r->rb_color, r->rb_depthval, r->rb_depth};
  gl->glDeleteRenderbuffers(3, rb);
  if (r->fbo) gl->glDeleteFramebuffers(1, &r->fbo);
  unsigned ms[2] = {r->rb_ms_color, r->rb_ms_depth};
  if (r->fbo_ms) {
    gl->glDeleteRenderbuffers(2, ms);
    gl->glDeleteFramebuffers(1, &r->fbo_ms);
  }
}

/* ---- matrices (column-major, as GL takes them) ---- */

static void projection(const gsrScene* s, double aspect, float p[16]) {
  memset(p, 0, sizeof(float) * 16);
  double n = s->znear, f = s->zfar;
  if (s->orthographic) {
    double t = 0.5 * s->fovy, rr = t * aspect;
    p[0] = (float)(1 / rr);
    p[5] = (float)(1 / t);
    p[10] = (float)(-2 / (f - n));
    p[14] = (float)(-(f + n) / (f - n));
    p[15] = 1;
  } else {
    double t = n * tan(0.5 * s->fovy * 3.14159265358979323846 / 180), rr = t * aspect;
    p[0] = (float)(n / rr);
    p[5] = (float)(n / t);
    p[10] = (float)(-(f + n) / (f - n));
    p[11] = -1;
    p[14] = (float)(-2 * f * n / (f - n));
  }
}

/* world to camera: the camera frame's columns are right, up and backward */
static void view(const gsrScene* s, float v[16]) {
  memset(v, 0, sizeof(float) * 16);
  for (int i = 0; i < 3; i++) {
    double t = 0;
    for (int k = 0; k < 3; k++) {
      v[4 * k + i] = (float)s->cammat[3 * k + i];
      t += s->cammat[3 * k + i] * s->campos[k];
    }
    v[12 + i] = (float)-t;
  }
  v[15] = 1;
}

/* model matrix T(pos) R S with an offset dz along the object's z before rotation, and the normal
 * matrix R S^-1 */
static void model_matrix(const gsrGeom* g, const float sc[3], float dz, float mm[16], float nm[9]) {
  memset(mm, 0, sizeof(float) * 16);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) {
      mm[4 * j + i] = g->mat[3 * i + j] * sc[j];
      nm[3 * j + i] = sc[j] != 0 ? g->mat[3 * i + j] / sc[j] : 0;
    }
    mm[12 + i] = g->pos[i] + g->mat[3 * i + 2] * dz;
  }
  mm[15] = 1;
}

/* column-major 4x4 product c = a b */
static void mat4_mul(const float a[16], const float b[16], float c[16]) {
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      float t = 0;
      for (int k = 0; k < 4; k++) t += a[4 * k + i] * b[4 * j + k];
      c[4 * j + i] = t;
    }
}

static void draw_shape(gsRenderer* r, const gsrGeom* g, const gsrShape* sh, const float sc[3], float dz) {
  float mm[16], nm[9];
  if (!sh->count) return;
  model_matrix(g, sc, dz, mm, nm);
  if (r->mirrored) {
    /* reflected: M mm, and the normal matrix by the reflection's 3 x 3 part (its own inverse
     * transpose) */
    float a[16], b[9];
    mat4_mul(r->mirror, mm, a);
    memcpy(mm, a, sizeof a);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        b[3 * j + i] = r->mirror[i] * nm[3 * j] + r->mirror[4 + i] * nm[3 * j + 1] + r->mirror[8 + i] * nm[3 * j + 2];
    memcpy(nm, b, sizeof b);
  }
  r->gl.glUniformMatrix4fv(r->u->u_model, 1, GL_FALSE, mm);
  if (g->image >= 0) {
    float scale[4] = {sc[0], sc[1], sc[2], dz};
    r->gl.glUniform4fv(r->u->u_scale, 1, scale);
  }
  r->gl.glUniformMatrix3fv(r->u->u_normal, 1, GL_FALSE, nm);
  r->gl.glDrawElements(GL_TRIANGLES, sh->count, GL_UNSIGNED_INT, (void*)(sizeof(unsigned) * (size_t)sh->first));
}

static void draw_geom(gsRenderer* r, const gsrGeom* g) {
  const gsrShape* P = r->geom.prim;
  const float* s = g->size;
  float one[3] = {1, 1, 1};
  switch (g->type) {
    case GS_GEOM_PLANE: {
      /* a plane of size 0 along an axis is infinite: drawn out to the far clipping plane */
      float big = (float)(2 * r->scene.zfar);
      float sc[3] = {s[0] > 0 ? s[0] : big, s[1] > 0 ? s[1] : big, 1};
      r->gl.glDisable(GL_CULL_FACE);
      r->gl.glUniform1i(r->u->u_twosided, 1);
      draw_shape(r, g, &P[GSR_PRIM_QUAD], sc, 0);
      r->gl.glUniform1i(r->u->u_twosided, 0);
      r->gl.glEnable(GL_CULL_FACE);
      break;
    }
    case GS_GEOM_SPHERE: {
      float sc[3] = {s[0], s[0], s[0]};
      draw_shape(r, g, &P[GSR_PRIM_SPHERE], sc, 0);
      break;
    }
    case GS_GEOM_ELLIPSOID:
      draw_shape(r, g, &P[GSR_PRIM_SPHERE], s, 0);
      break;
    case GS_GEOM_CAPSULE: {
      float side[3] = {s[0], s[0], s[1]}, cap[3] = {s[0], s[0], s[0]};
      draw_shape(r, g, &P[GSR_PRIM_CYLSIDE], side, 0);
      draw_shape(r, g, &P[GSR_PRIM_HEMITOP], cap, s[1]);
      draw_shape(r, g, &P[GSR_PRIM_HEMIBOT], cap, -s[1]);
      break;
    }
    case GS_GEOM_CYLINDER: {
      float sc[3] = {s[0], s[0], s[1]};
      draw_shape(r, g, &P[GSR_PRIM_CYLSIDE], sc, 0);
      draw_shape(r, g, &P[GSR_PRIM_DISKTOP], sc, 0);
      draw_shape(r, g, &P[GSR_PRIM_DISKBOT], sc, 0);
      break;
    }
    case GS_GEOM_BOX:
      draw_shape(r, g, &P[GSR_PRIM_BOX], s, 0);
      break;
    case GS_GEOM_MESH:
      if (g->dataid >= 0) draw_shape(r, g, &r->geom.mesh[g->dataid], one, 0);
      break;
    case GS_GEOM_HFIELD:
      if (g->dataid >= 0) draw_shape(r, g, &r->geom.hfield[g->dataid], one, 0);
      break;
    default:
      break;
  }
}

static void set_material(gsRenderer* r, const gsrGeom* g, int k, int mode) {
  gsrGL* gl = &r->gl;
  if (mode == GS_RENDER_SEGMENT) {
    /* scene index + 1 in the colour's three bytes (0 is the background) */
    unsigned id = (unsigned)k + 1;
    float c[4] = {(id & 255) / 255.0f, ((id >> 8) & 255) / 255.0f, ((id >> 16) & 255) / 255.0f, 1};
    gl->glUniform4fv(r->u->u_segcolor, 1, c);
    return;
  }
  gl->glUniform4fv(r->u->u_rgba, 1, g->rgba);
  gl->glUniform1f(r->u->u_spec, g->specular);
  gl->glUniform1f(r->u->u_shine, g->shininess);
  gl->glUniform1f(r->u->u_emis, g->emission);
  float grid[2] = {0, 0};
  if (g->type == GS_GEOM_PLANE && r->opt.planegrid && g->plane_grid) {
    /* lines every 2 size units along each axis (a unit checker square), 1 when infinite */
    grid[0] = g->size[0] > 0 ? g->size[0] / 4 : 1;
    grid[1] = g->size[1] > 0 ? g->size[1] / 4 : 1;
    if (g->size[2] > 0) grid[0] = grid[1] = g->size[2];
  }
  gl->glUniform2fv(r->u->u_grid, 1, grid);
  gl->glUniform1i(r->u->u_tex, g->texbuiltin);
  if (g->texbuiltin) {
    float param[4] = {(float)g->texmark, g->texrandom, g->texwidth, (float)g->texuniform};
    gl->glUniform3fv(r->u->u_texrgb1, 1, g->rgb1);
    gl->glUniform3fv(r->u->u_texrgb2, 1, g->rgb2);
    gl->glUniform3fv(r->u->u_texmarkrgb, 1, g->markrgb);
    gl->glUniform4fv(r->u->u_texparam, 1, param);
    /* planes repeat by their size; other geoms by position in their frame (size 1) */
    gl->glUniform2fv(r->u->u_texrepeat, 1, g->texrepeat);
  }
  gl->glUniform3fv(r->u->u_size, 1, g->size);
  int img = g->image >= 0 && r->texture[g->image] ? (g->imagecube ? 2 : 1) : 0;
  /* a mesh with texture coordinates maps a 2d image by them; without, as the primitives */
  if (img == 1 && g->type == GS_GEOM_MESH && g->dataid >= 0 && r->m->mesh_texcoordadr[g->dataid] >= 0) img = 3;
  gl->glUniform1i(r->u->u_img, img);
  if (img) {
    float param[4] = {0, 0, 0, (float)g->texuniform};
    gl->glUniform4fv(r->u->u_texparam, 1, param);
    gl->glUniform2fv(r->u->u_texrepeat, 1, g->texrepeat);
    /* the half extent in x and y: the size of boxes, planes and ellipsoids, the radius of
     * round shapes; 1 where there is none (an infinite plane, a mesh) */
    const float* sz = g->size;
    int round = g->type == GS_GEOM_SPHERE || g->type == GS_GEOM_CAPSULE || g->type == GS_GEOM_CYLINDER;
    float ext[2] = {sz[0], round ? sz[0] : sz[1]};
    if (g->type == GS_GEOM_MESH || g->type == GS_GEOM_HFIELD) ext[0] = ext[1] = 1;
    for (int k = 0; k < 2; k++)
      if (!(ext[k] > 0)) ext[k] = 1;
    gl->glUniform2fv(r->u->u_ext, 1, ext);
    gl->glActiveTexture(img == 2 ? GL_TEXTURE2 : GL_TEXTURE1);
    gl->glBindTexture(img == 2 ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D, r->texture[g->image]);
    gl->glActiveTexture(GL_TEXTURE0);
  }
}

/* the skybox: a sphere about the camera inside the far plane, seen from inside, behind all */
static void draw_skybox(gsRenderer* r) {
  const gsModel* m = r->m;
  gsrGL* gl = &r->gl;
  const gsrScene* s = &r->scene;
  int t = s->skybox;
  gsrGeom sky;
  memset(&sky, 0, sizeof sky);
  sky.image = -1;
  float rad = (float)(0.9 * s->zfar);
  for (int k = 0; k < 3; k++) sky.pos[k] = (float)s->campos[k];
  sky.mat[0] = sky.mat[4] = sky.mat[8] = 1;
  float param[4] = {(float)m->tex_mark[t], (float)m->tex_random[t], (float)(m->tex_width[t] > 0 ? m->tex_width[t] : 1), 0};
  float c1[3], c2[3], cm[3];
  for (int k = 0; k < 3; k++)
    c1[k] = (float)m->tex_rgb1[3 * t + k], c2[k] = (float)m->tex_rgb2[3 * t + k], cm[k] = (float)m->tex_markrgb[3 * t + k];
  gl->glUniform1i(r->u->u_tex, m->tex_builtin[t]);
  int img = r->texture[t] ? 2 : 0;
  gl->glUniform1i(r->u->u_img, img);
  if (img) {
    gl->glActiveTexture(GL_TEXTURE2);
    gl->glBindTexture(GL_TEXTURE_CUBE_MAP, r->texture[t]);
    gl->glActiveTexture(GL_TEXTURE0);
  }
  gl->glUniform3fv(r->u->u_texrgb1, 1, c1);
  gl->glUniform3fv(r->u->u_texrgb2, 1, c2);
  gl->glUniform3fv(r->u->u_texmarkrgb, 1, cm);
  gl->glUniform4fv(r->u->u_texparam, 1, param);
  gl->glDisable(GL_CULL_FACE);
  gl->glDepthMask(GL_FALSE);
  float sc[3] = {rad, rad, rad};
  draw_shape(r, &sky, &r->geom.prim[GSR_PRIM_SPHERE], sc, 0);
  gl->glDepthMask(GL_TRUE);
  gl->glEnable(GL_CULL_FACE);
}

/* A shadow map: the depth of the opaque geoms seen from a light that casts shadows (a spot or
 * point light: a perspective of twice its cutoff, at most 150 degrees; a directional light: an
 * orthographic box of 2 shadowclip extents each side of the model's centre), and the matrix from world to that
 * map's coordinates. */
static void shadow_map(gsRenderer* r, int li, int slot) {
  gsrGL* gl = &r->gl;
  const gsrScene* s = &r->scene;
  const gsrLight* l = &s->light[li];
  /* the light's camera: a frame looking along its direction */
  gsrScene ls = *s;
  double e = s->extent, fwd[3] = {l->dir[0], l->dir[1], l->dir[2]};
  double pos[3] = {l->pos[0], l->pos[1], l->pos[2]};
  if (l->directional)
    for (int k = 0; k < 3; k++) pos[k] = r->m->stat.center[k] - 4 * e * fwd[k];
  double up[3] = {0, 0, 1}, right[3], up2[3];
  if (fabs(fwd[2]) > 0.99) up[0] = 1, up[2] = 0;
  right[0] = fwd[1] * up[2] - fwd[2] * up[1];
  right[1] = fwd[2] * up[0] - fwd[0] * up[2];
  right[2] = fwd[0] * up[1] - fwd[1] * up[0];
  double nr = sqrt(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
  for (int k = 0; k < 3; k++) right[k] /= nr;
  up2[0] = right[1] * fwd[2] - right[2] * fwd[1];
  up2[1] = right[2] * fwd[0] - right[0] * fwd[2];
  up2[2] = right[0] * fwd[1] - right[1] * fwd[0];
  for (int k = 0; k < 3; k++) {
    ls.campos[k] = pos[k];
    ls.cammat[3 * k] = right[k];
    ls.cammat[3 * k + 1] = up2[k];
    ls.cammat[3 * k + 2] = -fwd[k];
  }
  ls.znear = 0.02 * e;
  ls.zfar = l->directional ? 8 * e : s->zfar;
  ls.orthographic = l->directional;
  /* <map shadowclip> scales the directional light's box (2 shadowclip extents each side) */
  double clip = fabs(r->m->vis.map_shadowclip) > 0 ? fabs(r->m->vis.map_shadowclip) : 1;
  ls.fovy = l->directional ? 4 * clip * e : fmin(2 * (l->cutoff < 180 ? l->cutoff : 75), 150);
  float P[16], V[16], PV[16];
  projection(&ls, 1.0, P);
  view(&ls, V);
  mat4_mul(P, V, PV);
  /* clip space [-1 1] to texture coordinates and depth [0 1] */
  static const float kBias[16] = {0.5f, 0, 0, 0, 0, 0.5f, 0, 0, 0, 0, 0.5f, 0, 0.5f, 0.5f, 0.5f, 1};
  mat4_mul(kBias, PV, r->shadowmat[slot]);
  r->shadowslot[li] = slot;

  gl->glBindFramebuffer(GL_FRAMEBUFFER, r->fbo_shadow[slot]);
  gl->glViewport(0, 0, r->shadowsize, r->shadowsize);
  gl->glClear(GL_DEPTH_BUFFER_BIT);
  r->u = &r->flat;
  gl->glUseProgram(r->flat.prog);
  gl->glUniformMatrix4fv(r->u->u_proj, 1, GL_FALSE, P);
  gl->glUniformMatrix4fv(r->u->u_view, 1, GL_FALSE, V);
  /* a surface does not shadow itself: its depth is pushed back a little */
  gl->glEnable(GL_POLYGON_OFFSET_FILL);
  gl->glPolygonOffset(2.0f, 4.0f);
  gl->glDisable(GL_CULL_FACE);
  for (int k = 0; k < s->ngeom; k++)
    if (s->geom[k].rgba[3] >= 1 && s->geom[k].type != GS_GEOM_PLANE) draw_geom(r, &s->geom[k]);
  gl->glDisable(GL_POLYGON_OFFSET_FILL);
  gl->glEnable(GL_CULL_FACE);
}

/* The shadow pass: a map for each active light that casts shadows, up to the programs' room */
static void shadow_pass(gsRenderer* r) {
  const gsrScene* s = &r->scene;
  r->nshadow = 0;
  memset(r->shadowmat, 0, sizeof r->shadowmat);
  for (int i = 0; i < GSR_MAXLIGHT; i++) r->shadowslot[i] = -1;
  if (!r->opt.shadow) return;
  for (int i = 0; i < s->nlight && r->nshadow < r->nshadowprog; i++)
    if (s->light[i].castshadow && !s->light[i].headlight && r->fbo_shadow[r->nshadow])
      shadow_map(r, i, r->nshadow++);
}

/* the uniforms of a frame, in program p */
static void frame_uniforms(gsRenderer* r, const gsrProgram* p_, int mode) {
  gsrGL* gl = &r->gl;
  const gsrScene* s = &r->scene;
  r->u = p_;
  gl->glUseProgram(p_->prog);
  float p[16], v[16];
  projection(s, (double)r->width / r->height, p);
  view(s, v);
  gl->glUniformMatrix4fv(r->u->u_proj, 1, GL_FALSE, p);
  gl->glUniformMatrix4fv(r->u->u_view, 1, GL_FALSE, v);
  gl->glUniform1i(r->u->u_mode, mode);
  gl->glUniform1i(r->u->u_image, 1);
  gl->glUniform1i(r->u->u_cube, 2);
  /* the mirror pass keeps the points behind its plane: -n.x + off >= 0 */
  if (r->mirrored)
    gl->glUniform4f(r->u->u_clip, -r->mirror_n[0], -r->mirror_n[1], -r->mirror_n[2], r->mirror_off);
  else
    gl->glUniform4f(r->u->u_clip, 0, 0, 0, 1);
  float campos[3] = {(float)s->campos[0], (float)s->campos[1], (float)s->campos[2]};
  gl->glUniform3fv(r->u->u_campos, 1, campos);
  /* fog: <map fogstart fogend> in extents of view depth, to <rgba fog> */
  float fog[2] = {0, 0}, fogrgb[3];
  if (r->opt.fog) fog[0] = (float)(r->m->vis.fogstart * s->extent), fog[1] = (float)(r->m->vis.fogend * s->extent);
  for (int k = 0; k < 3; k++) fogrgb[k] = (float)r->m->vis.rgba_fog[k];
  gl->glUniform2fv(r->u->u_fog, 1, fog);
  gl->glUniform3fv(r->u->u_fogrgb, 1, fogrgb);
  if (mode == GS_RENDER_RGB) {
    float lp[GSR_MAXLIGHT][3], ld[GSR_MAXLIGHT][3], la[GSR_MAXLIGHT][3], ldf[GSR_MAXLIGHT][3],
        ls[GSR_MAXLIGHT][3], lt[GSR_MAXLIGHT][3], lc[GSR_MAXLIGHT], le[GSR_MAXLIGHT];
    int dir[GSR_MAXLIGHT];
    for (int i = 0; i < s->nlight; i++) {
      const gsrLight* l = &s->light[i];
      memcpy(lp[i], l->pos, sizeof lp[i]);
      memcpy(ld[i], l->dir, sizeof ld[i]);
      if (r->mirrored) {
        /* the mirror image is lit by the lights' mirror images */
        const float* n = r->mirror_n;
        float hp = lp[i][0] * n[0] + lp[i][1] * n[1] + lp[i][2] * n[2] - r->mirror_off;
        float hd = ld[i][0] * n[0] + ld[i][1] * n[1] + ld[i][2] * n[2];
        for (int k = 0; k < 3; k++) lp[i][k] -= 2 * hp * n[k], ld[i][k] -= 2 * hd * n[k];
      }
      memcpy(la[i], l->ambient, sizeof la[i]);
      memcpy(ldf[i], l->diffuse, sizeof ldf[i]);
      memcpy(ls[i], l->specular, sizeof ls[i]);
      memcpy(lt[i], l->attenuation, sizeof lt[i]);
      lc[i] = l->cutoff;
      le[i] = l->exponent;
      dir[i] = l->directional;
    }
    int units[GSR_MAXSHADOW] = {3, 4, 5, 6};
    gl->glUniform1i(r->u->u_nshadow, r->mirrored ? 0 : r->nshadow);  /* no shadows in mirrors */
    gl->glUniform1iv(r->u->u_shadowslot, GSR_MAXLIGHT, r->shadowslot);
    gl->glUniform1iv(r->u->u_shadowmap, r->nshadowprog, units);
    gl->glUniformMatrix4fv(r->u->u_shadowmat, r->nshadowprog, GL_FALSE, r->shadowmat[0]);
    gl->glUniform1i(r->u->u_nlight, s->nlight);
    if (s->nlight) {
      gl->glUniform3fv(r->u->u_lpos, s->nlight, lp[0]);
      gl->glUniform3fv(r->u->u_ldir, s->nlight, ld[0]);
      gl->glUniform3fv(r->u->u_lamb, s->nlight, la[0]);
      gl->glUniform3fv(r->u->u_ldif, s->nlight, ldf[0]);
      gl->glUniform3fv(r->u->u_lspec, s->nlight, ls[0]);
      gl->glUniform3fv(r->u->u_latt, s->nlight, lt[0]);
      gl->glUniform1fv(r->u->u_lcut, s->nlight, lc);
      gl->glUniform1fv(r->u->u_lexp, s->nlight, le);
      gl->glUniform1iv(r->u->u_ldirectional, s->nlight, dir);
    }
  }
}

/* the lit program a geom needs: the textured one only where a texture or grid lines are drawn */
static void use_program(gsRenderer* r, const gsrGeom* g) {
  const gsrProgram* want = g->texbuiltin || g->image >= 0 ||
                                   (g->type == GS_GEOM_PLANE && g->plane_grid && r->opt.planegrid)
                               ? &r->littex
                               : &r->lit;
  if (want != r->u) {
    r->u = want;
    r->gl.glUseProgram(want->prog);
  }
}

/* the top face of a box (z = size[2] in its frame), a quad seen from both sides */
static void draw_box_top(gsRenderer* r, const gsrGeom* g) {
  float sc[3] = {g->size[0], g->size[1], 1};
  r->gl.glDisable(GL_CULL_FACE);
  draw_shape(r, g, &r->geom.prim[GSR_PRIM_QUAD], sc, g->size[2]);
  r->gl.glEnable(GL_CULL_FACE);
}

/* MJCF's mirror: a plane whose material has reflectance shows the scene mirrored through it,
 * seen where the plane is seen (the stencil), behind it (clipped at the plane), lit by the lights'
 * mirror images, without shadows; the plane's colour is then added to reflectance times it.
 * A box with reflectance mirrors so on its top face (+z), its other faces drawn as usual.
 * Returns 1 when the geom was drawn (the camera on the mirror's front side), 0 to leave it to the
 * usual pass. */
static int mirror_pass(gsRenderer* r, int k) {
  gsrGL* gl = &r->gl;
  gsrScene* s = &r->scene;
  const gsrGeom* g = &s->geom[k];
  int box = g->type == GS_GEOM_BOX;
  float n[3] = {g->mat[2], g->mat[5], g->mat[8]};
  float off = n[0] * g->pos[0] + n[1] * g->pos[1] + n[2] * g->pos[2] + (box ? g->size[2] : 0);
  if (n[0] * s->campos[0] + n[1] * s->campos[1] + n[2] * s->campos[2] <= off) return 0;
  /* 1. the stencil where the plane is seen, black there (the skybox is not mirrored, as in
   * MJCF's images) */
  gl->glClear(GL_STENCIL_BUFFER_BIT);
  gl->glEnable(GL_STENCIL_TEST);
  gl->glStencilMask(0xff);
  gl->glStencilFunc(GL_ALWAYS, 1, 0xff);
  gl->glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
  gl->glDepthMask(GL_FALSE);
  frame_uniforms(r, &r->flat, GS_RENDER_RGB);
  static const float kBlack[4] = {0, 0, 0, 1};
  gl->glUniform4fv(r->u->u_segcolor, 1, kBlack);
  if (box) draw_box_top(r, g);
  else draw_geom(r, g);
  gl->glDepthMask(GL_TRUE);
  gl->glStencilMask(0);
  gl->glStencilFunc(GL_EQUAL, 1, 0xff);
  gl->glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
  /* 2. the mirror image: x -> x - 2 (n.x - off) n, which turns faces inside out */
  memset(r->mirror, 0, sizeof r->mirror);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++) r->mirror[4 * j + i] = (i == j) - 2 * n[i] * n[j];
    r->mirror[12 + i] = 2 * off * n[i];
    r->mirror_n[i] = n[i];
  }
  r->mirror[15] = 1;
  r->mirror_off = off;
  r->mirrored = 1;
  gl->glEnable(GL_CLIP_DISTANCE0);
  gl->glFrontFace(GL_CW);
  frame_uniforms(r, &r->littex, GS_RENDER_RGB);
  frame_uniforms(r, &r->lit, GS_RENDER_RGB);
  for (int j = 0; j < s->ngeom; j++) {
    const gsrGeom* o = &s->geom[j];
    if (j == k || o->rgba[3] < 1) continue;
    use_program(r, o);
    set_material(r, o, j, GS_RENDER_RGB);
    draw_geom(r, o);
  }
  r->mirrored = 0;
  gl->glDisable(GL_CLIP_DISTANCE0);
  gl->glFrontFace(GL_CCW);
  frame_uniforms(r, &r->littex, GS_RENDER_RGB);
  frame_uniforms(r, &r->lit, GS_RENDER_RGB);
  /* 3. the plane over its mirror image; a box: its faces but the top's region opaque, then the
   * top blended over the mirror image */
  gsrGeom top = *g;
  top.rgba[3] = 1 - g->reflectance;
  if (box) {
    gl->glStencilFunc(GL_NOTEQUAL, 1, 0xff);
    use_program(r, g);
    set_material(r, g, k, GS_RENDER_RGB);
    draw_geom(r, g);
    gl->glStencilFunc(GL_EQUAL, 1, 0xff);
  } else {
    gl->glDisable(GL_STENCIL_TEST);
  }
  /* the surface in full over reflectance times its mirror image (MuJoCo's images: where nothing
   * is mirrored the surface is as without reflectance) */
  gl->glEnable(GL_BLEND);
  gl->glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
  use_program(r, &top);
  set_material(r, &top, k, GS_RENDER_RGB);
  draw_geom(r, &top);
  gl->glDisable(GL_BLEND);
  gl->glDisable(GL_STENCIL_TEST);
  return 1;
}

int gsr_draw(gsRenderer* r, int mode) {
  gsrGL* gl = &r->gl;
  gsrScene* s = &r->scene;
  gl->glBindVertexArray(r->vao);
  gl->glEnable(GL_DEPTH_TEST);
  gl->glDepthFunc(GL_LEQUAL);
  gl->glDepthMask(GL_TRUE);
  r->nshadow = 0;
  for (int i = 0; i < GSR_MAXLIGHT; i++) r->shadowslot[i] = -1;
  if (mode == GS_RENDER_RGB) shadow_pass(r);
  /* colour images go through the multisampled framebuffer, resolved at the end */
  int ms = mode == GS_RENDER_RGB && r->opt.multisample && r->samples > 1;
  gl->glBindFramebuffer(GL_FRAMEBUFFER, ms ? r->fbo_ms : r->fbo);
  gl->glViewport(0, 0, r->width, r->height);
  gl->glBindVertexArray(r->vao);
  gl->glDisable(GL_DITHER);
  /* closed surfaces are seen from outside only: a camera inside a geom (a head camera) sees
   * through it; planes are seen from both sides (draw_geom) */
  gl->glEnable(GL_CULL_FACE);
  gl->glCullFace(GL_BACK);
  gl->glEnable(GL_DEPTH_TEST);
  /* of two coinciding surfaces the one drawn last is seen */
  gl->glDepthFunc(GL_LEQUAL);
  gl->glDepthMask(GL_TRUE);
  gl->glDisable(GL_BLEND);

  GLenum buf[2] = {GL_COLOR_ATTACHMENT0, GL_NONE};
  if (mode == GS_RENDER_DEPTH) buf[0] = GL_NONE, buf[1] = GL_COLOR_ATTACHMENT1;
  gl->glDrawBuffers(2, buf);
  if (mode == GS_RENDER_DEPTH) gl->glClearColor((float)s->zfar, 0, 0, 0);
  else if (mode == GS_RENDER_SEGMENT) gl->glClearColor(0, 0, 0, 0);
  else gl->glClearColor(0.12f, 0.15f, 0.2f, 1);
  gl->glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);

  if (mode == GS_RENDER_RGB) {
    if (s->skybox >= 0) {
      frame_uniforms(r, &r->sky, mode);
      draw_skybox(r);
    }
    frame_uniforms(r, &r->littex, mode);
    frame_uniforms(r, &r->lit, mode);
    /* reflecting planes and boxes first, each with its mirror image */
    for (int k = 0; k < s->ngeom; k++) s->geom[k].drawn = 0;
    for (int k = 0; k < s->ngeom; k++)
      if (r->opt.reflection && (s->geom[k].type == GS_GEOM_PLANE || s->geom[k].type == GS_GEOM_BOX) &&
          s->geom[k].reflectance > 0 &&
          s->geom[k].rgba[3] >= 1)
        s->geom[k].drawn = mirror_pass(r, k);
  } else {
    frame_uniforms(r, &r->flat, mode);
  }
  /* opaque objects, then the transparent ones blended over them without writing depth */
  for (int pass = 0; pass < (mode == GS_RENDER_RGB ? 2 : 1); pass++) {
    if (pass == 1) {
      gl->glEnable(GL_BLEND);
      gl->glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
      gl->glDepthMask(GL_FALSE);
    }
    for (int k = 0; k < s->ngeom; k++) {
      const gsrGeom* g = &s->geom[k];
      if (mode == GS_RENDER_RGB && ((g->rgba[3] < 1) != (pass == 1) || g->drawn)) continue;
      if (mode == GS_RENDER_RGB) use_program(r, g);
      set_material(r, g, k, mode);
      draw_geom(r, g);
    }
  }
  gl->glDepthMask(GL_TRUE);
  gl->glDisable(GL_BLEND);
  if (ms) {
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_ms);
    gl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo);
    GLenum b0 = GL_COLOR_ATTACHMENT0;
    gl->glDrawBuffers(1, &b0);
    gl->glBlitFramebuffer(0, 0, r->width, r->height, 0, 0, r->width, r->height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    gl->glBindFramebuffer(GL_FRAMEBUFFER, r->fbo);
  }
  return gl->glGetError() == GL_NO_ERROR;
}
