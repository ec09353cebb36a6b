/* Spec elements of the world slice: creation with MJCF's defaults, and freeing. */
#include <stdlib.h>

#include "gauss/gauss.h"

void gs_specFreeWorld(gsSpec* spec) { (void)spec; }

void gs_specBodyFreeWorld(gsSpecBody* body) { (void)body; }
