/* The one assertion macro of the C tests: counts, prints failures, never aborts; each test's main
 * ends with CHECK_SUMMARY(), which prints "N passed, N failed" and gives the exit code. */
#ifndef GAUSS_TEST_CHECK_H
#define GAUSS_TEST_CHECK_H

#include <stdio.h>

static int npass = 0, nfail = 0;
#define CHECK(cond, ...)                          \
  do {                                            \
    if (cond) {                                   \
      npass++;                                    \
    } else {                                      \
      nfail++;                                    \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
    }                                             \
  } while (0)

#define CHECK_SUMMARY() (printf("%d passed, %d failed\n", npass, nfail), nfail != 0)

#endif
