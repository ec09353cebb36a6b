/* Spec elements of the actuation slice: creation with MJCF's defaults, and freeing. */
#include <stdlib.h>

#include "gauss/gauss.h"

void gs_specFreeActuation(gsSpec* spec) { (void)spec; }

void gs_specBodyFreeActuation(gsSpecBody* body) { (void)body; }
