/* The names of the option flags, indexed by bit number (declared in gauss/model.h). They belong to
 * the model, not to the MJCF reader: the reader, the writer, the printer and the command line all
 * use them, and the printer must not depend on the reader. */
#include "gauss/gauss.h"

const char* const gs_disable_names[GS_NDISABLE] = {
    "constraint", "equality",  "frictionloss", "limit",    "contact",   "spring",   "damper",
    "gravity",    "clampctrl", "warmstart",    "filterparent", "actuation", "refsafe", "sensor",
    "midphase",   "eulerdamp", "autoreset",    "nativeccd", "island"};
const char* const gs_enable_names[GS_NENABLE] = {"override", "energy", "fwdinv", "invdiscrete",
                                                 "multiccd"};
