/* The check of a loaded model's sensors: what the compiler guarantees and the sensor stages rely
 * on (src/sensor reads the objects' arrays at the ids the sensor holds and writes its values at
 * sensor_adr), checked for models that come from binary files. */
#include "model/check.h"
#include "model/io.h"

int gs_checkSensors(const gsModel* m, char* err, int errsz) {
  for (int i = 0; i < m->nsensor; i++) {
    int t = m->sensor_type[i], ot = m->sensor_objtype[i], rt = m->sensor_reftype[i];
    int oid = m->sensor_objid[i], rid = m->sensor_refid[i];
    const int* prm = m->sensor_intprm + GS_NSENS * i;
    int obj_ok, ref_ok;
    gs_sensorObjects(t, ot, rt, &obj_ok, &ref_ok);
    if (!obj_ok || !ref_ok)
      return gs_ioError(err, errsz, "sensor %d of type %d: objtype %d, reftype %d are not its types",
                        i, t, ot, rt);
    if (t == GS_SENS_USER) continue;
    /* every object named by its type is there (ids in range are checked already) */
    if ((ot != GS_OBJ_UNKNOWN && oid < 0) || (rt != GS_OBJ_UNKNOWN && rid < 0))
      return gs_ioError(err, errsz, "sensor %d of type %d: its object is missing", i, t);
    if (ot == GS_OBJ_JOINT) {
      int jt = m->jnt_type[oid];
      int ball = t == GS_SENS_BALLQUAT || t == GS_SENS_BALLANGVEL;
      int scalar = t == GS_SENS_JOINTPOS || t == GS_SENS_JOINTVEL || t == GS_SENS_JOINTACTFRC;
      if ((ball && jt != GS_JNT_BALL) || (scalar && jt != GS_JNT_SLIDE && jt != GS_JNT_HINGE))
        return gs_ioError(err, errsz, "sensor %d of type %d: joint %d is of type %d", i, t, oid, jt);
    }
    if (t == GS_SENS_CONTACT &&
        (prm[0] <= 0 || prm[0] >= 1 << GS_NCONDATA || prm[1] < 0 || prm[1] > GS_CONREDUCE_NETFORCE ||
         prm[2] <= 0))
      return gs_ioError(err, errsz, "sensor %d: contact parameters %d %d %d out of range", i, prm[0],
                        prm[1], prm[2]);
    int dim = gs_sensorDim(t, prm);
    if (dim != m->sensor_dim[i])
      return gs_ioError(err, errsz, "sensor %d of type %d has %d values, not %d", i, t,
                        m->sensor_dim[i], dim);
  }
  return 1;
}
