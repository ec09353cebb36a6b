/* The sensors of the velocity stage: velocities of frames, joints, tendons and actuators, the
 * limit rows' velocities and the subtrees' momenta. */
#include "core/math.h"
#include "sensor/sensor.h"

/* linear or angular velocity of a frame in the world, or relative to the reference frame and
 * seen in it: the reference's rotation carries the relative position along (w_ref x r) */
static void frame_velocity(const gsModel* m, const gsData* d, int i, gsReal* out) {
  int lin = m->sensor_type[i] == GS_SENS_FRAMELINVEL;
  int rt = m->sensor_reftype[i], rid = m->sensor_refid[i];
  gsReal v[6];
  gs_objectVelocity(m, d, m->sensor_objtype[i], m->sensor_objid[i], 0, v);
  if (rid < 0) {
    gs_copy3(out, lin ? v + 3 : v);
    return;
  }
  gsReal vr[6], rpos[3], rmat[9], rel[3];
  gs_objectVelocity(m, d, rt, rid, 0, vr);
  gs_objectFrame(m, d, rt, rid, rpos, rmat);
  if (lin) {
    gsReal pos[3], mat[9], r[3], wxr[3];
    gs_objectFrame(m, d, m->sensor_objtype[i], m->sensor_objid[i], pos, mat);
    gs_sub3(r, pos, rpos);
    gs_cross(wxr, vr, r);
    gs_sub3(rel, v + 3, vr + 3);
    gs_sub3(rel, rel, wxr);
  } else {
    gs_sub3(rel, v, vr);
  }
  gs_mulMatTVec3(out, rmat, rel);
}

void gs_sensorVelOne(const gsModel* m, gsData* d, int i) {
  gsReal* out = d->sensordata + m->sensor_adr[i];
  int id = m->sensor_objid[i];
  switch (m->sensor_type[i]) {
    case GS_SENS_VELOCIMETER: case GS_SENS_GYRO: {
      gsReal v[6];
      gs_objectVelocity(m, d, GS_OBJ_SITE, id, 1, v);
      gs_copy3(out, m->sensor_type[i] == GS_SENS_GYRO ? v : v + 3);
      break;
    }
    case GS_SENS_JOINTVEL: out[0] = d->qvel[m->jnt_dofadr[id]]; break;
    case GS_SENS_TENDONVEL: out[0] = d->ten_velocity[id]; break;
    case GS_SENS_ACTUATORVEL: out[0] = d->actuator_velocity[id]; break;
    case GS_SENS_BALLANGVEL: gs_copy3(out, d->qvel + m->jnt_dofadr[id]); break;
    case GS_SENS_JOINTLIMITVEL: out[0] = gs_limitValue(d, GS_CNSTR_LIMIT_JOINT, id, 1); break;
    case GS_SENS_TENDONLIMITVEL: out[0] = gs_limitValue(d, GS_CNSTR_LIMIT_TENDON, id, 1); break;
    case GS_SENS_FRAMELINVEL: case GS_SENS_FRAMEANGVEL: frame_velocity(m, d, i, out); break;
    case GS_SENS_SUBTREELINVEL: gs_copy3(out, d->subtree_linvel + 3 * id); break;
    case GS_SENS_SUBTREEANGMOM: gs_copy3(out, d->subtree_angmom + 3 * id); break;
    default: break;
  }
}
