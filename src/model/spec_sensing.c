/* Spec elements of the sensing slice: creation with MJCF's defaults, and freeing. */
#include <stdlib.h>

#include "gauss/gauss.h"

void gs_specFreeSensing(gsSpec* spec) { (void)spec; }

void gs_specBodyFreeSensing(gsSpecBody* body) { (void)body; }
