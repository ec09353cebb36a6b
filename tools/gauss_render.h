/* `gauss render` and `gauss view` (tools/gauss_render.c), built where the renderer is */
#ifndef GAUSS_TOOLS_RENDER_H
#define GAUSS_TOOLS_RENDER_H

#include <gauss/gauss.h>

int gauss_cmd_render(int argc, char** argv, gsModel* (*load)(const char*));
int gauss_cmd_view(int argc, char** argv, gsModel* (*load)(const char*));

#endif
