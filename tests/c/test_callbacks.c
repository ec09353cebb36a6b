/* User callbacks (gsCallbacks, per data):
 * - control: called once per gs_forward and once per Euler step, with the data it runs on and the
 *   user pointer; what it writes to ctrl is what the step leaves; two data with different
 *   callbacks each see only their own; gs_copyData copies them, gs_resetData keeps them;
 * - contactfilter: asked once about each dynamic pair the built-in filters keep, never about an
 *   explicit <pair>; a pair it drops leaves exactly the contacts of the same scene with that
 *   pair's bodies in an <exclude> (the built-in filter that drops the same pair);
 * - act_dyn/act_gain/act_bias/sensor: stored and copied (the stages that call them test them). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gauss/gauss.h"

#include "check.h"
#include "core_util.h"

#define PENDULUM                                                                  \
  "<mujoco><worldbody><body name='arm' pos='0 0 1'>"                              \
  "<joint name='hinge' axis='0 1 0'/>"                                            \
  "<geom type='capsule' fromto='0 0 0 0.5 0 0' size='0.05'/></body></worldbody>" \
  "<actuator><motor joint='hinge'/></actuator></mujoco>"

#define SCENE(contact)                                                            \
  "<mujoco><worldbody><geom name='floor' type='plane' size='5 5 0.1'/>"           \
  "<body name='a' pos='0 0 0.09'><freejoint/><geom name='ga' size='0.1'/></body>" \
  "<body name='b' pos='0.18 0 0.095'><freejoint/><geom name='gb' size='0.1'/></body>" \
  "<body name='c' pos='-0.19 0 0.098'><freejoint/><geom name='gc' size='0.1'/></body>" \
  "</worldbody><contact>" contact "</contact></mujoco>"

typedef struct {
  const gsData* data;  /* the data the callback must receive */
  int calls, wrong;
  double value;        /* written to ctrl[0] */
} ControlLog;

static void control(const gsModel* m, gsData* d, void* user) {
  ControlLog* log = user;
  log->calls++;
  if (d != log->data || m->nu != 1) log->wrong++;
  d->ctrl[0] = log->value;
}

static gsReal gain(const gsModel* m, const gsData* d, int id, void* user) {
  (void)m, (void)d, (void)user;
  return id;
}

static void test_control(void) {
  gsModel* m = load_xml(PENDULUM);
  CHECK(m != NULL, "pendulum loads");
  if (!m) return;
  gsData* d1 = gs_makeData(m);
  gsData* d2 = gs_makeData(m);
  ControlLog l1 = {d1, 0, 0, 1.5}, l2 = {d2, 0, 0, -0.5};
  gs_dataCallbacks(d1)->control = control;
  gs_dataCallbacks(d1)->user = &l1;
  d2->cb.control = control;
  d2->cb.user = &l2;

  gs_forward(m, d1);
  CHECK(l1.calls == 1 && l2.calls == 0, "one call per forward (%d, %d)", l1.calls, l2.calls);
  for (int i = 0; i < 7; i++) {
    gs_step(m, d1);
    gs_step(m, d2);
  }
  CHECK(l1.calls == 8 && l2.calls == 7, "one call per Euler step (%d, %d)", l1.calls, l2.calls);
  CHECK(l1.wrong == 0 && l2.wrong == 0, "each callback received its own data");
  CHECK(d1->ctrl[0] == 1.5 && d2->ctrl[0] == -0.5, "ctrl written in the callback kept (%g, %g)",
        d1->ctrl[0], d2->ctrl[0]);

  /* copies carry the callbacks; resets keep them */
  gsData* c = gs_copyData(NULL, m, d1);
  CHECK(c && c->cb.control == control && c->cb.user == &l1, "gs_copyData copies the callbacks");
  if (c) {
    l1.data = c;
    gs_forward(m, c);
    CHECK(l1.calls == 9 && l1.wrong == 0, "the copy calls the callback with itself");
    gs_resetData(m, c);
    CHECK(c->cb.control == control, "gs_resetData keeps the callbacks");
    gs_freeData(c);
  }
  /* the other callbacks are stored and copied like control */
  d2->cb.act_gain = gain;
  gsData* c2 = gs_copyData(NULL, m, d2);
  CHECK(c2 && c2->cb.act_gain == d2->cb.act_gain, "act_gain copied");
  if (c2) gs_freeData(c2);
  gs_freeData(d1);
  gs_freeData(d2);
  gs_freeModel(m);
}

typedef struct {
  int g1, g2;     /* the pair to drop */
  int asked[16];  /* how often each pair (i * 4 + j, i < j) was asked about */
} FilterLog;

static int filter(const gsModel* m, gsData* d, int g1, int g2, void* user) {
  (void)m;
  (void)d;
  FilterLog* log = user;
  int lo = g1 < g2 ? g1 : g2, hi = g1 < g2 ? g2 : g1;
  log->asked[lo * 4 + hi]++;
  return (g1 == log->g1 && g2 == log->g2) || (g1 == log->g2 && g2 == log->g1);
}

/* compare the contact lists, as sets of pairs with their distance and position */
static int same_contacts(const gsData* a, const gsData* b) {
  if (a->ncon != b->ncon) return 0;
  for (int i = 0; i < a->ncon; i++) {
    int found = 0;
    for (int j = 0; j < b->ncon && !found; j++) {
      const gsContact *x = a->contact + i, *y = b->contact + j;
      found = x->geom1 == y->geom1 && x->geom2 == y->geom2 && x->dist == y->dist &&
              !memcmp(x->pos, y->pos, sizeof x->pos);
    }
    if (!found) return 0;
  }
  return 1;
}

static int has_pair(const gsData* d, int g1, int g2) {
  for (int i = 0; i < d->ncon; i++) {
    const gsContact* c = d->contact + i;
    if ((c->geom1 == g1 && c->geom2 == g2) || (c->geom1 == g2 && c->geom2 == g1)) return 1;
  }
  return 0;
}

static void test_contactfilter(void) {
  static const char* const names[3][2] = {{"floor", "gb"}, {"ga", "gb"}, {"ga", "gc"}};
  static const char* const excl[3] = {
      SCENE("<exclude body1='world' body2='b'/>"), SCENE("<exclude body1='a' body2='b'/>"),
      SCENE("<exclude body1='a' body2='c'/>")};
  gsModel* m = load_xml(SCENE(""));
  CHECK(m != NULL, "scene loads");
  if (!m) return;
  gsData* d = gs_makeData(m);
  gs_forward(m, d);
  int nfull = d->ncon;
  for (int k = 0; k < 3; k++) {
    FilterLog log;
    memset(&log, 0, sizeof log);
    log.g1 = gs_name2id(m, GS_OBJ_GEOM, names[k][0]);
    log.g2 = gs_name2id(m, GS_OBJ_GEOM, names[k][1]);
    d->cb.contactfilter = NULL;
    gs_forward(m, d);
    CHECK(has_pair(d, log.g1, log.g2), "pair %d touches without the filter", k);
    d->cb.contactfilter = filter;
    d->cb.user = &log;
    gs_forward(m, d);
    CHECK(!has_pair(d, log.g1, log.g2) && d->ncon < nfull, "pair %d dropped", k);
    int twice = 0;
    for (int i = 0; i < 16; i++) twice |= log.asked[i] > 1;
    CHECK(!twice, "each pair asked about once");
    gsModel* me = load_xml(excl[k]);
    if (me) {
      gsData* de = gs_makeData(me);
      gs_forward(me, de);
      CHECK(same_contacts(d, de), "filter %d = <exclude> of the same bodies", k);
      gs_freeData(de);
      gs_freeModel(me);
    }
  }
  gs_freeData(d);
  gs_freeModel(m);

  /* the filter never sees an explicit pair, nor a pair <exclude> already removed */
  m = load_xml(SCENE("<exclude body1='a' body2='b'/><pair geom1='ga' geom2='gc'/>"));
  if (!m) return;
  d = gs_makeData(m);
  FilterLog log;
  memset(&log, 0, sizeof log);
  log.g1 = log.g2 = -2;
  d->cb.contactfilter = filter;
  d->cb.user = &log;
  gs_forward(m, d);
  int ga = gs_name2id(m, GS_OBJ_GEOM, "ga"), gb = gs_name2id(m, GS_OBJ_GEOM, "gb");
  int gc = gs_name2id(m, GS_OBJ_GEOM, "gc");
  CHECK(log.asked[ga * 4 + gc] == 0 && log.asked[gc * 4 + ga] == 0, "explicit pair not asked");
  CHECK(log.asked[ga * 4 + gb] == 0, "excluded pair not asked");
  CHECK(has_pair(d, ga, gc), "explicit pair collides");
  gs_freeData(d);
  gs_freeModel(m);
}

int main(void) {
  test_control();
  test_contactfilter();
  return CHECK_SUMMARY();
}
