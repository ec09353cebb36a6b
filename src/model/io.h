/* Internal: what the binary format, the printer and the XML writer share about a model: the list
 * of gsOption's members and the integrity check of a model that did not come from the compiler;
 * and what the readers of files share (io_util.c). */
#ifndef GAUSS_MODEL_IO_H
#define GAUSS_MODEL_IO_H

#include <stdio.h>

#include "gauss/gauss.h"

/* gsOption member by member: X(type, name, count) */
#define GS_OPTION_FIELDS(X)                                                                        \
  X(gsReal, timestep, 1)                                                                           \
  X(gsReal, impratio, 1)                                                                           \
  X(gsReal, tolerance, 1)                                                                          \
  X(gsReal, ls_tolerance, 1)                                                                       \
  X(gsReal, noslip_tolerance, 1)                                                                   \
  X(gsReal, ccd_tolerance, 1)                                                                      \
  X(gsReal, gravity, 3)                                                                            \
  X(gsReal, wind, 3)                                                                               \
  X(gsReal, magnetic, 3)                                                                           \
  X(gsReal, density, 1)                                                                            \
  X(gsReal, viscosity, 1)                                                                          \
  X(gsReal, o_margin, 1)                                                                           \
  X(gsReal, o_solref, GS_NREF)                                                                     \
  X(gsReal, o_solimp, GS_NIMP)                                                                     \
  X(gsReal, o_friction, 5)                                                                         \
  X(int, integrator, 1)                                                                            \
  X(int, cone, 1)                                                                                  \
  X(int, jacobian, 1)                                                                              \
  X(int, solver, 1)                                                                                \
  X(int, iterations, 1)                                                                            \
  X(int, ls_iterations, 1)                                                                         \
  X(int, noslip_iterations, 1)                                                                     \
  X(int, ccd_iterations, 1)                                                                        \
  X(int, disableflags, 1)                                                                          \
  X(int, enableflags, 1)                                                                          \
  X(int, actuatorgroupdisable, 1)

/* gsStatistic member by member: X(type, name, count) */
#define GS_STATISTIC_FIELDS(X) X(gsReal, meaninertia, 1) X(gsReal, extent, 1) X(gsReal, center, 3)

/* gsVisual member by member */
#define GS_VISUAL_FIELDS(X)                                                                        \
  X(gsReal, fovy, 1) X(gsReal, azimuth, 1) X(gsReal, elevation, 1) X(gsReal, znear, 1)             \
  X(gsReal, zfar, 1) X(gsReal, fogstart, 1) X(gsReal, fogend, 1) X(gsReal, headlight_ambient, 3)   \
  X(gsReal, headlight_diffuse, 3) X(gsReal, headlight_specular, 3) X(int, headlight_active, 1)     \
  X(int, numslices, 1) X(int, numstacks, 1) X(int, shadowsize, 1) X(int, offsamples, 1)         \
  X(int, numquads, 1)

/* gsVisual's <map>, <scale> and <rgba> members, X(element, attribute, count): the member is
 * element_attribute, a real as MJCF's attribute of that element (binary IO, the writer) */
#define GS_VISUAL_DECOR(X)                                                                         \
  X(map, stiffness, 1) X(map, stiffnessrot, 1) X(map, force, 1) X(map, torque, 1)                  \
  X(map, alpha, 1) X(map, haze, 1) X(map, shadowclip, 1) X(map, shadowscale, 1)                    \
  X(map, actuatortendon, 1) X(scale, forcewidth, 1) X(scale, contactwidth, 1)                      \
  X(scale, contactheight, 1) X(scale, connect, 1) X(scale, com, 1) X(scale, camera, 1)             \
  X(scale, light, 1) X(scale, selectpoint, 1) X(scale, jointlength, 1) X(scale, jointwidth, 1)     \
  X(scale, actuatorlength, 1) X(scale, actuatorwidth, 1) X(scale, framelength, 1)                  \
  X(scale, framewidth, 1) X(scale, constraint, 1) X(scale, slidercrank, 1) X(scale, frustum, 1)    \
  X(rgba, fog, 4) X(rgba, haze, 4) X(rgba, force, 4) X(rgba, inertia, 4) X(rgba, joint, 4)         \
  X(rgba, actuator, 4) X(rgba, actuatornegative, 4) X(rgba, actuatorpositive, 4) X(rgba, com, 4)   \
  X(rgba, camera, 4) X(rgba, light, 4) X(rgba, selectpoint, 4) X(rgba, connect, 4)                 \
  X(rgba, contactpoint, 4) X(rgba, contactforce, 4) X(rgba, contactfriction, 4)                    \
  X(rgba, contacttorque, 4) X(rgba, contactgap, 4) X(rgba, rangefinder, 4) X(rgba, constraint, 4)  \
  X(rgba, slidercrank, 4) X(rgba, crankbroken, 4) X(rgba, frustum, 4) X(rgba, bv, 4)               \
  X(rgba, bvactive, 4)

/* ---- binary.c ---- */

/* member i of the options: name, type (gsFieldType), count and address; 0 when out of range */
int gs_optionField(const gsOption* opt, int i, const char** name, int* type, int* count,
                   const void** ptr);

/* ---- check.c ---- */

/* a model's arrays are consistent enough for the engine to run on it without reading out of
 * bounds: sizes, the tree (parents, addresses, dof chains, the sparsity of M), ids and addresses
 * into other arrays, names, enumerations. 1 when it is; 0 with a message otherwise. */
int gs_checkModel(const gsModel* m, char* err, int errsz);

/* ---- io_util.c ---- */

/* the whole of stream f in a new buffer (free it), its length in *n. NULL when out of memory, on a
 * read error (ferror(f) is set, errno kept), or with *too_large set once the buffer would grow past
 * `limit` bytes */
unsigned char* gs_readStream(FILE* f, size_t limit, size_t* n, int* too_large);

/* the message into err (when err is given), for the reader and the check of binary models;
 * always 0, so that callers can write `return gs_ioError(...)` */
int gs_ioError(char* err, int errsz, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* s copied into out (outsz bytes, NUL included) as printable, valid UTF-8: control characters
 * (a newline in a name echoed back) and bytes that are not UTF-8 become escapes ("\n", "\x01"),
 * and a message that does not fit is cut between characters, never inside one; for every load
 * error (the MJCF reader, the compiler) */
void gs_copyClean(char* out, size_t outsz, const char* s);

#endif
