/* Keyframes: resetting the data to one of the model's stored states. */
#include <string.h>

#include "gauss/gauss.h"

static void copy_row(gsReal* dst, const gsReal* src, int key, int n) {
  if (n > 0) memcpy(dst, src + (size_t)n * key, sizeof(gsReal) * (size_t)n);
}

void gs_resetDataKeyframe(const gsModel* m, gsData* d, int key) {
  gs_resetData(m, d);
  if (key < 0 || key >= m->nkey) return;
  d->time = m->key_time[key];
  copy_row(d->qpos, m->key_qpos, key, m->nq);
  copy_row(d->qvel, m->key_qvel, key, m->nv);
  copy_row(d->act, m->key_act, key, m->na);
  copy_row(d->ctrl, m->key_ctrl, key, m->nu);
  copy_row(d->mocap_pos, m->key_mpos, key, 3 * m->nmocap);
  copy_row(d->mocap_quat, m->key_mquat, key, 4 * m->nmocap);
}
