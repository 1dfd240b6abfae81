// SPDX-License-Identifier: MIT
// A tiny test harness: ENSURE aborts the current test with file:line; every test asserts numbers.
#ifndef FC_TEST_MACROS_H
#define FC_TEST_MACROS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fc_testFailures = 0;

#define ENSURE(cond)                                                                                   \
    do {                                                                                               \
        if (!(cond)) {                                                                                 \
            fprintf(stderr, "  FAILED %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

// |a - b| <= tol, printing both values on failure.
#define ENSURE_NEAR(a, b, tol)                                                                         \
    do {                                                                                               \
        double ea_ = (double)(a), eb_ = (double)(b), et_ = (double)(tol);                              \
        if (!(fabs(ea_ - eb_) <= et_)) {                                                               \
            fprintf(stderr, "  FAILED %s:%d: |%s - %s| = |%.17g - %.17g| = %.3g > %.3g\n", __FILE__,    \
                    __LINE__, #a, #b, ea_, eb_, fabs(ea_ - eb_), et_);                                 \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

// a <= b, printing both values on failure.
#define ENSURE_LE(a, b)                                                                                \
    do {                                                                                               \
        double ea_ = (double)(a), eb_ = (double)(b);                                                   \
        if (!(ea_ <= eb_)) {                                                                           \
            fprintf(stderr, "  FAILED %s:%d: %s <= %s: %.17g > %.17g\n", __FILE__, __LINE__, #a, #b,    \
                    ea_, eb_);                                                                         \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

// expr is refused: fcGetLastError() afterwards mentions words.
#define ENSURE_ERROR(expr, words)                                                                      \
    do {                                                                                               \
        fcClearError();                                                                                \
        (void)(expr);                                                                                  \
        if (strstr(fcGetLastError(), words) == NULL) {                                                 \
            fprintf(stderr, "  FAILED %s:%d: %s gave \"%s\", expected it to mention \"%s\"\n", __FILE__, \
                    __LINE__, #expr, fcGetLastError(), words);                                          \
            return 1;                                                                                  \
        }                                                                                              \
    } while (0)

// Run fn if no filter was given or its name contains the filter (argv[1]).
#define RUN_TEST(fn)                                                                                   \
    do {                                                                                               \
        if (fc_testFilter == NULL || strstr(#fn, fc_testFilter) != NULL) {                             \
            int r_ = fn();                                                                             \
            printf("%s %s\n", r_ ? "FAIL" : "ok  ", #fn);                                              \
            fflush(stdout);                                                                            \
            fc_testFailures += r_ != 0;                                                                \
        }                                                                                              \
    } while (0)

static const char* fc_testFilter = NULL;
#define TEST_MAIN_BEGIN(argc, argv) fc_testFilter = (argc) > 1 ? (argv)[1] : NULL
#define TEST_MAIN_END() return fc_testFailures ? 1 : 0

#endif
