/* GS_API marks the functions and objects of the public API. The library is built with hidden
 * visibility, so that only what the headers of include/gauss declare with GS_API is exported from
 * libgauss.so; everything else stays internal (tests/python/test_exports.py checks both ways). */
#ifndef GAUSS_EXPORT_H
#define GAUSS_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define GS_API __attribute__((visibility("default")))
#else
#define GS_API
#endif

#endif
