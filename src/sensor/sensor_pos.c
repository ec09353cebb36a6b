/* The sensors of the position stage: they read the frames, the tendons' and actuators' lengths,
 * the limit rows and distances between geoms. */
#include <math.h>

#include "collision/collision.h"
#include "core/arena.h"
#include "core/math.h"
#include "sensor/sensor.h"

/* a site's position seen by a camera, in pixels from the image's top left corner: the focal
 * lengths from the sensor size and intrinsics when given, else from fovy; the principal point at
 * the image's centre */
static void camprojection(const gsModel* m, const gsData* d, int site, int cam, gsReal* out) {
  gsReal cpos[3], cmat[9], r[3], p[3];
  gs_objectFrame(m, d, GS_OBJ_CAMERA, cam, cpos, cmat);
  gs_sub3(r, d->site_xpos + 3 * site, cpos);
  gs_mulMatTVec3(p, cmat, r);
  const int* res = m->cam_resolution + 2 * cam;
  const gsReal* ss = m->cam_sensorsize + 2 * cam;
  gsReal fx, fy;
  if (ss[0] > 0 && ss[1] > 0) {
    /* in single precision, as MJCF, which stores intrinsics and sensor size as floats, computes
     * them: pixels then agree to the last bit instead of to 1e-8 */
    float f0 = (float)m->cam_intrinsic[4 * cam] / (float)ss[0] * (float)res[0];
    float f1 = (float)m->cam_intrinsic[4 * cam + 1] / (float)ss[1] * (float)res[1];
    fx = f0, fy = f1;
  } else {
    fx = fy = 0.5 * res[1] / tan(m->cam_fovy[cam] * GS_PI / 360);
  }
  /* the camera looks along its -z, its y axis up and the image's rows down */
  out[0] = fx * p[0] / -p[2] + 0.5 * res[0];
  out[1] = -fy * p[1] / -p[2] + 0.5 * res[1];
}

/* the geoms of a geom or a body: first and count */
static void geom_range(const gsModel* m, int type, int id, int* first, int* n) {
  if (type == GS_OBJ_BODY) {
    *first = m->body_geomadr[id];
    *n = m->body_geomnum[id];
  } else {
    *first = id;
    *n = 1;
  }
}

/* distance, normal or segment between two geoms or bodies: the closest pair of their geoms, up
 * to the cutoff (0 then reads as no distance beyond contact) */
static void geom_sensor(const gsModel* m, const gsData* d, int i, gsReal* out) {
  int f1, n1, f2, n2;
  geom_range(m, m->sensor_objtype[i], m->sensor_objid[i], &f1, &n1);
  geom_range(m, m->sensor_reftype[i], m->sensor_refid[i], &f2, &n2);
  gsReal dist = m->sensor_cutoff[i], fromto[6] = {0, 0, 0, 0, 0, 0};
  for (int a = f1; a < f1 + n1; a++) {
    for (int b = f2; b < f2 + n2; b++) {
      if (a == b) continue;
      gsReal ft[6];
      /* capped at the least distance so far: a pair that cannot come closer stops at its
       * bounding spheres or its first separating plane (the same answer: a query's steps do
       * not depend on its cap, only where it stops early) */
      gsReal x = gs_geomDistance(m, d, a, b, dist, ft);
      if (x < dist) {
        dist = x;
        for (int k = 0; k < 6; k++) fromto[k] = ft[k];
      }
    }
  }
  switch (m->sensor_type[i]) {
    case GS_SENS_GEOMDIST: out[0] = dist; break;
    case GS_SENS_GEOMNORMAL: {
      gsReal n[3];
      gs_sub3(n, fromto + 3, fromto);
      if (n[0] != 0 || n[1] != 0 || n[2] != 0) gs_normalize3(n);
      gs_copy3(out, n);
      break;
    }
    default:
      for (int k = 0; k < 6; k++) out[k] = fromto[k];
      break;
  }
}

/* position, orientation or an axis of a frame, in the world or relative to the reference frame */
static void frame_sensor(const gsModel* m, const gsData* d, int i, gsReal* out) {
  int t = m->sensor_type[i], ot = m->sensor_objtype[i], oid = m->sensor_objid[i];
  int rt = m->sensor_reftype[i], rid = m->sensor_refid[i];
  gsReal pos[3], mat[9], rpos[3], rmat[9];
  if (t == GS_SENS_FRAMEQUAT) {
    gsReal q[4];
    gs_objectQuat(m, d, ot, oid, q);
    if (rid < 0) {
      gs_copy4(out, q);
    } else {
      gsReal rq[4], rqc[4];
      gs_objectQuat(m, d, rt, rid, rq);
      gs_negQuat(rqc, rq);
      gs_mulQuat(out, rqc, q);
    }
    return;
  }
  gs_objectFrame(m, d, ot, oid, pos, mat);
  gsReal v[3];
  if (t == GS_SENS_FRAMEPOS) {
    gs_copy3(v, pos);
  } else {
    int col = t - GS_SENS_FRAMEXAXIS;
    v[0] = mat[col], v[1] = mat[3 + col], v[2] = mat[6 + col];
  }
  if (rid < 0) {
    gs_copy3(out, v);
    return;
  }
  gs_objectFrame(m, d, rt, rid, rpos, rmat);
  if (t == GS_SENS_FRAMEPOS) gs_sub3(v, pos, rpos);
  gs_mulMatTVec3(out, rmat, v);
}

/* a rangefinder's ray: along its site's z axis, the site's own body excluded */
static gsReal rangefinder(const gsModel* m, const gsData* d, int site, const int* geom,
                          const gsReal* R2, const gsReal* xyz, int n) {
  const gsReal* R = d->site_xmat + 9 * site;
  gsReal z[3] = {R[2], R[5], R[8]};
  const gsReal* p = d->site_xpos + 3 * site;
  int hit;
  return geom ? gs_rayAmong(m, d, p, z, geom, R2, xyz, n, &hit)
              : gs_ray(m, d, p, z, NULL, 1, m->site_bodyid[site], &hit);
}

void gs_sensorRangefinders(const gsModel* m, gsData* d, int i, int n) {
  size_t mark = gs_arenaMark(d), ng = (size_t)(m->ngeom ? m->ngeom : 1);
  int* geom = gs_arenaAlloc(d, sizeof(int) * ng);
  gsReal* R2 = gs_arenaAlloc(d, sizeof(gsReal) * 4 * ng);
  gsReal* xyz = R2 ? R2 + ng : NULL;
  /* the bundle is optional: without room, no warning, each ray among the whole list */
  size_t raybytes = sizeof(gsReal) * 6 * (size_t)n;
  gsReal* ray = raybytes <= gs_stackRoom(d) ? gs_arenaAlloc(d, raybytes) : NULL;
  int ncand = 0;
  if (geom && R2) {
    gs_rayGeoms(m, NULL, 1, m->site_bodyid[m->sensor_objid[i]], geom, R2, &ncand);
    if (ray) {
      /* the run's rays as one bundle: the geoms none of them can reach left out */
      for (int k = 0; k < n; k++) {
        int s = m->sensor_objid[i + k];
        const gsReal* R = d->site_xmat + 9 * s;
        gs_copy3(ray + 3 * k, d->site_xpos + 3 * s);
        ray[3 * (n + k)] = R[2], ray[3 * (n + k) + 1] = R[5], ray[3 * (n + k) + 2] = R[8];
      }
      ncand = gs_rayCull(m, d, ray, ray + 3 * n, n, geom, R2, ncand);
    }
    gs_rayCentres(d, geom, ncand, xyz);
  } else {
    geom = NULL;  /* no room: each ray filters the geoms itself */
  }
  for (int k = i; k < i + n; k++)
    d->sensordata[m->sensor_adr[k]] = rangefinder(m, d, m->sensor_objid[k], geom, R2, xyz, ncand);
  gs_arenaRelease(d, mark);
}

void gs_sensorPosOne(const gsModel* m, gsData* d, int i) {
  gsReal* out = d->sensordata + m->sensor_adr[i];
  int id = m->sensor_objid[i];
  switch (m->sensor_type[i]) {
    case GS_SENS_MAGNETOMETER:
      gs_mulMatTVec3(out, d->site_xmat + 9 * id, m->opt.magnetic);
      break;
    /* rangefinders: gs_sensorRangefinders, by runs (sensor.c) */
    case GS_SENS_CAMPROJECTION:
      camprojection(m, d, id, m->sensor_refid[i], out);
      break;
    case GS_SENS_JOINTPOS: out[0] = d->qpos[m->jnt_qposadr[id]]; break;
    case GS_SENS_TENDONPOS: out[0] = d->ten_length[id]; break;
    case GS_SENS_ACTUATORPOS: out[0] = d->actuator_length[id]; break;
    case GS_SENS_BALLQUAT:
      gs_copy4(out, d->qpos + m->jnt_qposadr[id]);
      gs_normalize4(out);
      break;
    case GS_SENS_JOINTLIMITPOS: out[0] = gs_limitValue(d, GS_CNSTR_LIMIT_JOINT, id, 0); break;
    case GS_SENS_TENDONLIMITPOS: out[0] = gs_limitValue(d, GS_CNSTR_LIMIT_TENDON, id, 0); break;
    case GS_SENS_FRAMEPOS: case GS_SENS_FRAMEQUAT: case GS_SENS_FRAMEXAXIS: case GS_SENS_FRAMEYAXIS:
    case GS_SENS_FRAMEZAXIS:
      frame_sensor(m, d, i, out);
      break;
    case GS_SENS_SUBTREECOM: gs_copy3(out, d->subtree_com + 3 * id); break;
    case GS_SENS_INSIDESITE: {
      gsReal pos[3], mat[9];
      gs_objectFrame(m, d, m->sensor_objtype[i], id, pos, mat);
      out[0] = gs_insideSite(m, d, m->sensor_refid[i], pos);
      break;
    }
    case GS_SENS_GEOMDIST: case GS_SENS_GEOMNORMAL: case GS_SENS_GEOMFROMTO:
      geom_sensor(m, d, i, out);
      break;
    /* the energies whether or not the energy flag computes them for the data: kinetic energy
     * needs only qvel and M, both known here */
    case GS_SENS_E_POTENTIAL:
      gs_energyPos(m, d);
      out[0] = d->energy[0];
      break;
    case GS_SENS_E_KINETIC:
      gs_energyVel(m, d);
      out[0] = d->energy[1];
      break;
    case GS_SENS_CLOCK: out[0] = d->time; break;
    default: break;
  }
}
