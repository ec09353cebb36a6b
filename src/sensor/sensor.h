/* Internal interfaces of the sensors: the stage files compute one sensor each, on the frames,
 * velocities and accelerations of the objects sensor_util.c gives them. */
#ifndef GAUSS_SENSOR_H
#define GAUSS_SENSOR_H

#include "gauss/gauss.h"

/* sensor i's values at its stage, written to sensordata + sensor_adr[i] (the user sensors are the
 * callback's, and the sensors that read the post-constraint quantities find them computed) */
void gs_sensorPosOne(const gsModel* m, gsData* d, int i);
void gs_sensorVelOne(const gsModel* m, gsData* d, int i);
/* rangefinders i .. i + n - 1 (on sites of one body): the geoms their rays may hit listed once,
 * then each ray cast among them (the same values as gs_sensorPosOne's one by one) */
void gs_sensorRangefinders(const gsModel* m, gsData* d, int i, int n);
void gs_sensorAccOne(const gsModel* m, gsData* d, int i);

/* the body an object (body, xbody, geom, site, camera) moves with */
int gs_objectBody(const gsModel* m, int type, int id);
/* its frame: position and orientation (a body's is its inertial frame, an xbody's its joint
 * frame); cameras follow their mode as the renderer places them */
void gs_objectFrame(const gsModel* m, const gsData* d, int type, int id, gsReal pos[3], gsReal mat[9]);
void gs_objectQuat(const gsModel* m, const gsData* d, int type, int id, gsReal quat[4]);
/* [angular; linear] velocity and acceleration of the object's frame origin, in the world frame
 * or (local) in the object's own; the acceleration reads cacc (gs_rnePostConstraint) */
void gs_objectVelocity(const gsModel* m, const gsData* d, int type, int id, int local, gsReal res[6]);
void gs_objectAcceleration(const gsModel* m, const gsData* d, int type, int id, int local, gsReal res[6]);

/* 1 when point x lies in site s's volume (its type's shape and size, at its pose) */
int gs_insideSite(const gsModel* m, const gsData* d, int s, const gsReal x[3]);

/* contact sensor i: the matching contacts, reduced to its slots, each with the fields asked */
void gs_sensorContact(const gsModel* m, gsData* d, int i);

/* the value of limit row kind (GS_CNSTR_LIMIT_JOINT or _TENDON) of object id: 0 position
 * (distance less margin), 1 velocity, 2 force; 0 when the limit has no row */
gsReal gs_limitValue(const gsData* d, int kind, int id, int what);

#endif
