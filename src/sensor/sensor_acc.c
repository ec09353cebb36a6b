/* The sensors of the acceleration stage: contact forces felt by a site's zone, accelerations
 * and interaction forces of the bodies (from gs_rnePostConstraint), actuator and limit forces. */
#include "core/math.h"
#include "sensor/sensor.h"

/* normal forces of the contacts of the site's body that fall in the site's zone: the contact
 * point in the site's volume, or the ray from it along the normal, pointing out of the body,
 * crossing the volume */
static gsReal touch(const gsModel* m, const gsData* d, int site) {
  int body = m->site_bodyid[site];
  gsReal sum = 0;
  for (int j = 0; j < d->ncon; j++) {
    const gsContact* c = d->contact + j;
    if (c->efc_address < 0) continue;
    int b1 = m->geom_bodyid[c->geom1], b2 = m->geom_bodyid[c->geom2];
    if (body != b1 && body != b2) continue;
    gsReal f[6], ray[3];
    gs_contactForce(m, d, j, f);
    if (f[0] <= 0) continue;
    /* the normal points from geom1 to geom2: out of body1, into body2 */
    gs_scl3(ray, c->frame, body == b2 ? -1 : 1);
    if (gs_rayGeom(d->site_xpos + 3 * site, d->site_xmat + 9 * site, m->site_size + 3 * site, c->pos,
                   ray, m->site_type[site]) >= 0)
      sum += f[0];
  }
  return sum;
}

/* the force (or torque) the body of the site takes from its parent through the joints, about
 * the site and in its frame */
static void interaction(const gsModel* m, const gsData* d, int site, int torque, gsReal* out) {
  int b = m->site_bodyid[site];
  const gsReal* f = d->cfrc_int + 6 * b;
  if (!torque) {
    gs_mulMatTVec3(out, d->site_xmat + 9 * site, f + 3);
    return;
  }
  gsReal r[3], rxf[3], t[3];
  gs_sub3(r, d->site_xpos + 3 * site, d->subtree_com + 3 * m->body_rootid[b]);
  gs_cross(rxf, r, f + 3);
  gs_sub3(t, f, rxf);
  gs_mulMatTVec3(out, d->site_xmat + 9 * site, t);
}

void gs_sensorAccOne(const gsModel* m, gsData* d, int i) {
  gsReal* out = d->sensordata + m->sensor_adr[i];
  int id = m->sensor_objid[i];
  switch (m->sensor_type[i]) {
    case GS_SENS_TOUCH: out[0] = touch(m, d, id); break;
    case GS_SENS_ACCELEROMETER: {
      gsReal a[6];
      gs_objectAcceleration(m, d, GS_OBJ_SITE, id, 1, a);
      gs_copy3(out, a + 3);
      break;
    }
    case GS_SENS_FORCE: interaction(m, d, id, 0, out); break;
    case GS_SENS_TORQUE: interaction(m, d, id, 1, out); break;
    case GS_SENS_ACTUATORFRC: out[0] = d->actuator_force[id]; break;
    case GS_SENS_JOINTACTFRC: out[0] = d->qfrc_actuator[m->jnt_dofadr[id]]; break;
    case GS_SENS_TENDONACTFRC: {
      gsReal f = 0;
      for (int a = 0; a < m->nu; a++)
        if (m->actuator_trntype[a] == GS_TRN_TENDON && m->actuator_trnid[2 * a] == id)
          f += d->actuator_force[a];
      out[0] = f;
      break;
    }
    case GS_SENS_JOINTLIMITFRC: out[0] = gs_limitValue(d, GS_CNSTR_LIMIT_JOINT, id, 2); break;
    case GS_SENS_TENDONLIMITFRC: out[0] = gs_limitValue(d, GS_CNSTR_LIMIT_TENDON, id, 2); break;
    case GS_SENS_CONTACT: gs_sensorContact(m, d, i); break;
    case GS_SENS_FRAMELINACC: case GS_SENS_FRAMEANGACC: {
      gsReal a[6];
      gs_objectAcceleration(m, d, m->sensor_objtype[i], id, 0, a);
      gs_copy3(out, m->sensor_type[i] == GS_SENS_FRAMEANGACC ? a : a + 3);
      break;
    }
    default: break;
  }
}
