/* Sensors: each computed after the stage whose quantities it reads (gs_sensorPos after the
 * position stage, gs_sensorVel after the velocity stage, gs_sensorAcc after the constraint
 * solver), written to sensordata from sensor_adr; then cut off. The quantities only sensors read
 * (subtree momenta, the post-constraint accelerations and forces) are computed when a sensor of
 * the stage needs them. Noise is the model's metadata, as in MJCF: no noise is added. */
#include "core/math.h"
#include "sensor/sensor.h"

/* cutoff > 0 bounds real values to [-cutoff, cutoff] and non-negative ones from above; unit
 * vectors and quaternions keep their norm, and a segment between geoms its coordinates */
static void cutoff(const gsModel* m, gsData* d, int i) {
  gsReal c = m->sensor_cutoff[i];
  int type = m->sensor_datatype[i];
  if (c <= 0 || m->sensor_type[i] == GS_SENS_GEOMFROMTO || m->sensor_type[i] == GS_SENS_CONTACT) return;
  if (type != GS_DATATYPE_REAL && type != GS_DATATYPE_POSITIVE) return;
  gsReal* x = d->sensordata + m->sensor_adr[i];
  for (int k = 0; k < m->sensor_dim[i]; k++) {
    if (x[k] > c) x[k] = c;
    else if (type == GS_DATATYPE_REAL && x[k] < -c) x[k] = -c;
  }
}

/* what reads the subtree momenta, or the post-constraint quantities: user sensors of the stage
 * find them computed, as in MJCF */
static int needs_subtree(int type) {
  return type == GS_SENS_SUBTREELINVEL || type == GS_SENS_SUBTREEANGMOM || type == GS_SENS_USER;
}

static int needs_post(int type) {
  return type == GS_SENS_ACCELEROMETER || type == GS_SENS_FORCE || type == GS_SENS_TORQUE ||
         type == GS_SENS_FRAMELINACC || type == GS_SENS_FRAMEANGACC || type == GS_SENS_USER;
}

/* the sensors of one stage: built-in ones, then the user callback once when the stage has user
 * sensors, then the cutoffs */
static void stage(const gsModel* m, gsData* d, int which, void (*one)(const gsModel*, gsData*, int),
                  int (*needs)(int), void (*prepare)(const gsModel*, gsData*)) {
  if (m->opt.disableflags & GS_DSBL_SENSOR) return;
  int user = 0, prepared = 0, cut = 0;
  for (int i = 0; i < m->nsensor; i++) {
    if (m->sensor_needstage[i] != which) continue;
    int type = m->sensor_type[i];
    cut |= m->sensor_cutoff[i] > 0;  /* (a run of rangefinders: its others below) */
    if (needs && !prepared && needs(type)) {
      prepare(m, d);
      prepared = 1;
    }
    if (type == GS_SENS_USER) {
      user = 1;
    } else if (type == GS_SENS_RANGEFINDER && which == GS_STAGE_POS) {
      /* a run of rangefinders on one body's sites shares its list of geoms */
      int body = m->site_bodyid[m->sensor_objid[i]], n = 1;
      while (i + n < m->nsensor && m->sensor_type[i + n] == GS_SENS_RANGEFINDER &&
             m->sensor_needstage[i + n] == which && m->site_bodyid[m->sensor_objid[i + n]] == body)
        n++;
      gs_sensorRangefinders(m, d, i, n);
      for (int k = i + 1; k < i + n; k++) cut |= m->sensor_cutoff[k] > 0;
      i += n - 1;
    } else if (type != GS_SENS_TACTILE && type != GS_SENS_PLUGIN) {
      one(m, d, i);
    }
  }
  if (user && d->cb.sensor) d->cb.sensor(m, d, which, d->cb.user);
  /* most models set no cutoff: then no second pass */
  for (int i = 0; cut && i < m->nsensor; i++)
    if (m->sensor_needstage[i] == which) cutoff(m, d, i);
}

void gs_sensorPos(const gsModel* m, gsData* d) { stage(m, d, GS_STAGE_POS, gs_sensorPosOne, NULL, NULL); }
void gs_sensorVel(const gsModel* m, gsData* d) {
  stage(m, d, GS_STAGE_VEL, gs_sensorVelOne, needs_subtree, gs_subtreeVel);
}
void gs_sensorAcc(const gsModel* m, gsData* d) {
  stage(m, d, GS_STAGE_ACC, gs_sensorAccOne, needs_post, gs_rnePostConstraint);
}
