/* The MJCF reader's limits and its handling of <size>: values stored in the spec, negative ones
 * refused by name; model-wide compile errors name the file; messages are one line of UTF-8. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gauss/gauss.h"

static int has(const char* s, const char* sub) { return strstr(s, sub) != NULL; }

static void test_size(void) {
  char err[400];
  gsSpec* s = gs_parseXMLString("<mujoco><size memory=\"100M\" nconmax=\"20\" njmax=\"-1\"/></mujoco>",
                                err, sizeof err);
  CHECK(s != NULL, "size: %s", err);
  if (s) {
    CHECK(s->size_memory == 100LL << 20, "memory %lld", s->size_memory);
    CHECK(s->size_nconmax == 20 && s->size_njmax == -1 && s->size_nstack == -1,
          "nconmax %d njmax %d nstack %d", s->size_nconmax, s->size_njmax, s->size_nstack);
    CHECK(s->file && strcmp(s->file, "<string>") == 0, "file %s", s->file ? s->file : "(null)");
    gs_specFree(s);
  }
  s = gs_parseXMLString("<mujoco><size memory=\"4096\"/></mujoco>", err, sizeof err);
  CHECK(s && s->size_memory == 4096, "memory without a unit");
  gs_specFree(s);
  s = gs_parseXMLString("<mujoco/>", err, sizeof err);
  CHECK(s && s->size_memory == -1 && s->size_nconmax == -1, "not given: -1");
  gs_specFree(s);

  static const char* const bad[][2] = {
      {"<mujoco><size memory=\"-2\"/></mujoco>", "attribute 'memory'"},
      {"<mujoco><size memory=\"1.5M\"/></mujoco>", "attribute 'memory'"},
      {"<mujoco>\n<size nconmax=\"-3\"/></mujoco>", "<string>:2: <size>: attribute 'nconmax'"},
      {"<mujoco><size njmax=\"x\"/></mujoco>", "attribute 'njmax'"},
      {"<mujoco><size nstack=\"-9\"/></mujoco>", "attribute 'nstack'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    s = gs_parseXMLString(bad[i][0], err, sizeof err);
    CHECK(s == NULL && has(err, bad[i][1]), "'%s': got '%s'", bad[i][0], err);
    gs_specFree(s);
  }
}

static void test_messages(void) {
  char err[400];
  /* a model-wide error: the file, no line */
  static const char kHeavy[] =
      "<mujoco><worldbody>"
      "<body><inertial mass=\"1e300\" diaginertia=\"1.7e308 1.7e308 1.7e308\" pos=\"0 0 0\"/><joint/></body>"
      "<body><inertial mass=\"1e300\" diaginertia=\"1.7e308 1.7e308 1.7e308\" pos=\"0 0 0\"/><joint/></body>"
      "</worldbody></mujoco>";
  gsModel* m = gs_loadXMLString(kHeavy, err, sizeof err);
  CHECK(m == NULL && strncmp(err, "<string>: model: ", 17) == 0, "model-wide error: '%s'", err);
  gs_freeModel(m);

  /* a newline and a tab in a value come back escaped */
  m = gs_loadXMLString("<mujoco><worldbody><geom type=\"a&#10;b&#9;\" size=\"1\"/></worldbody></mujoco>",
                       err, sizeof err);
  CHECK(m == NULL && has(err, "'a\\nb\\t'") && !strchr(err, '\n'), "escaped: '%s'", err);
  gs_freeModel(m);

  /* cut between characters: every length of the buffer leaves valid UTF-8 */
  char xml[2000] = "<mujoco><worldbody><geom size=\"1\" type=\"";
  for (int i = 0; i < 300; i++) strcat(xml, "\xc3\xa9");
  strcat(xml, "\"/></worldbody></mujoco>");
  for (int n = 60; n < 160; n++) {
    char small[160];
    m = gs_loadXMLString(xml, small, n);
    size_t len = strlen(small);
    int k = 0;
    while (len > 0 && ((unsigned char)small[len - 1] & 0xc0) == 0x80) len--, k++;
    /* the last lead byte has all its continuation bytes */
    int whole = len == 0 || (unsigned char)small[len - 1] < 0x80 ||
                ((unsigned char)small[len - 1] >= 0xc0 && k == 1);
    if (k == 0 && len > 0 && (unsigned char)small[len - 1] >= 0xc0) whole = 0;
    CHECK(m == NULL && whole, "cut inside a character at %d", n);
    gs_freeModel(m);
  }
}

static void test_confined(void) {
  char err[400];
  gsVFS* vfs = gs_vfsNew();
  static const char kPart[] = "<mujoco><worldbody><geom size=\"1\"/></worldbody></mujoco>";
  CHECK(gs_vfsAdd(vfs, "part.xml", kPart, strlen(kPart)), "vfs");
  gsModel* m = gs_loadXMLOpt(NULL, "<mujoco><include file=\"dir/part.xml\"/></mujoco>", vfs,
                             GS_LOAD_CONFINED, err, sizeof err);
  CHECK(m != NULL, "confined with an in-memory include: %s", err);
  gs_freeModel(m);
  m = gs_loadXMLOpt(NULL, "<mujoco><include file=\"/etc/passwd\"/></mujoco>", vfs,
                    GS_LOAD_CONFINED, err, sizeof err);
  CHECK(m == NULL && has(err, "not an in-memory file"), "confined string: '%s'", err);
  gs_freeModel(m);
  m = gs_loadXMLOpt(NULL, NULL, NULL, 0, err, sizeof err);
  CHECK(m == NULL && err[0], "neither path nor text");
  gs_vfsFree(vfs);
}

int main(void) {
  test_size();
  test_messages();
  test_confined();
  return CHECK_SUMMARY();
}
