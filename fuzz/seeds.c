/* Seed corpora for the fuzz targets, made from the model corpus at fuzz time (nothing binary is
 * kept in the repository):
 *   seeds MODELS_DIR XML_OUT BIN_OUT
 * copies every MJCF file under MODELS_DIR to XML_OUT, with the document the MJCF writer makes of
 * every one that loads (self-contained, every section written out), and writes their binaries to
 * BIN_OUT; a few small models exercise what the corpus does not. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gauss/gauss.h>

static const char* const kSmall[] = {
    "<mujoco><worldbody><body><freejoint/><geom size='.1'/></body></worldbody></mujoco>",
    "<mujoco><option integrator='RK4' timestep='0.01'><flag gravity='disable'/></option>"
    "<worldbody><body pos='0 0 1'><joint type='ball' stiffness='2' damping='.1'/>"
    "<geom type='capsule' fromto='0 0 0 0 0 -1' size='.05'/><body pos='0 0 -1'>"
    "<joint type='hinge' axis='0 1 0' range='-90 90'/><geom type='box' size='.1 .2 .3'/>"
    "<site name='s' pos='0 0 -.2'/></body></body></worldbody></mujoco>",
    "<mujoco><compiler angle='radian' inertiafromgeom='false'/><option integrator='implicit'/>"
    "<default><joint damping='1'/><default class='a'><geom rgba='1 0 0 1'/></default></default>"
    "<worldbody><body childclass='a'><joint type='slide' axis='1 0 0'/>"
    "<inertial pos='0 0 0' mass='1' diaginertia='1 1 1'/><geom type='sphere' size='.1'/></body>"
    "</worldbody></mujoco>",
    "<mujoco><option integrator='implicitfast'/><worldbody><body><joint/><joint axis='1 0 0'/>"
    "<geom type='ellipsoid' size='.1 .2 .3'/><body><joint type='ball'/><geom type='cylinder' "
    "size='.1 .2' euler='10 20 30'/></body></body><body><freejoint/><geom size='.2' "
    "xyaxes='0 1 0 -1 0 0'/></body></worldbody></mujoco>",
};

static int write_file(const char* path, const void* data, size_t n) {
  FILE* f = fopen(path, "wb");
  if (!f) return 0;
  int ok = fwrite(data, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

static char* read_file(const char* path, size_t* n) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char* buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) {
    buf[len] = 0;
    *n = (size_t)len;
  }
  return buf;
}

static int nxml, nbin;

static void save_binary(const gsModel* m, const char* dir, const char* stem) {
  size_t n = gs_sizeModel(m);
  void* buf = malloc(n);
  if (buf && gs_saveModelBuffer(m, buf, n) == (int)n) {
    char out[1024];
    snprintf(out, sizeof out, "%s/%s.gsb", dir, stem);
    nbin += write_file(out, buf, n);
  }
  free(buf);
}

/* the model as the writer gives it back: self-contained (includes resolved), every section */
static void save_written(const gsModel* m, const char* dir, const char* stem) {
  char err[500];
  int n = gs_saveXMLString(m, NULL, 0, err, sizeof err);
  if (n < 0) return;
  char* xml = malloc((size_t)n + 1);
  if (xml && gs_saveXMLString(m, xml, n + 1, err, sizeof err) == n) {
    char out[1024];
    snprintf(out, sizeof out, "%s/%s.written.xml", dir, stem);
    nxml += write_file(out, xml, (size_t)n);
  }
  free(xml);
}

static void one(const char* path, const char* stem, const char* xmldir, const char* bindir) {
  size_t n;
  char* text = read_file(path, &n);
  if (!text) return;
  char out[1024];
  snprintf(out, sizeof out, "%s/%s.xml", xmldir, stem);
  nxml += write_file(out, text, n);
  free(text);
  char err[1000];
  gsModel* m = gs_loadXML(path, err, sizeof err);
  if (!m) return;
  save_binary(m, bindir, stem);
  save_written(m, xmldir, stem);
  gs_freeModel(m);
}

static void walk(const char* dir, const char* prefix, const char* xmldir, const char* bindir) {
  DIR* dp = opendir(dir);
  if (!dp) return;
  struct dirent* e;
  while ((e = readdir(dp))) {
    if (e->d_name[0] == '.') continue;
    char path[1024], stem[512];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    snprintf(stem, sizeof stem, "%s%s%s", prefix, prefix[0] ? "_" : "", e->d_name);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      walk(path, stem, xmldir, bindir);
    } else {
      size_t len = strlen(stem);
      if (len > 4 && strcmp(stem + len - 4, ".xml") == 0) {
        stem[len - 4] = 0;
        one(path, stem, xmldir, bindir);
      }
    }
  }
  closedir(dp);
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: seeds MODELS_DIR XML_OUT BIN_OUT\n");
    return 2;
  }
  walk(argv[1], "", argv[2], argv[3]);
  for (size_t i = 0; i < sizeof kSmall / sizeof kSmall[0]; i++) {
    char stem[64], out[1024];
    snprintf(stem, sizeof stem, "small%zu", i);
    snprintf(out, sizeof out, "%s/%s.xml", argv[2], stem);
    nxml += write_file(out, kSmall[i], strlen(kSmall[i]));
    char err[1000];
    gsModel* m = gs_loadXMLString(kSmall[i], err, sizeof err);
    if (!m) {
      fprintf(stderr, "seeds: built-in model %zu does not load: %s\n", i, err);
      return 1;
    }
    save_binary(m, argv[3], stem);
    gs_freeModel(m);
  }
  printf("seeds: %d MJCF files, %d binary models\n", nxml, nbin);
  return nxml && nbin ? 0 : 1;
}
