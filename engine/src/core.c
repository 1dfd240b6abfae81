// SPDX-License-Identifier: MIT
// Allocation, the thread's last error message, the log hook and the clocks.
#define _POSIX_C_SOURCE 199309L
#include "core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static _Thread_local char s_lastError[512];
static fcLogFcn* s_logFcn = NULL;
static void* s_logContext = NULL;

static void* fcCheckAlloc(void* p, size_t size)
{
    if (p == NULL && size > 0) {
        fprintf(stderr, "fulcrum: out of memory allocating %zu bytes\n", size);
        abort();
    }
    return p;
}

void* fcAlloc(size_t size) { return fcCheckAlloc(malloc(size ? size : 1), size); }
void* fcAllocZeroed(size_t size) { return fcCheckAlloc(calloc(1, size ? size : 1), size); }
void* fcRealloc(void* p, size_t size) { return fcCheckAlloc(realloc(p, size ? size : 1), size); }
void fcFree(void* p) { free(p); }
void* fcAllocLines(size_t size)
{
    size_t lines = (size + FC_CACHE_LINE - 1) / FC_CACHE_LINE;
    return fcCheckAlloc(aligned_alloc(FC_CACHE_LINE, (lines ? lines : 1) * FC_CACHE_LINE), size);
}

bool fcError(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(s_lastError, sizeof s_lastError, fmt, args);
    va_end(args);
    if (s_logFcn) s_logFcn(s_lastError, s_logContext);
    return false;
}

const char* fcGetLastError(void) { return s_lastError; }
void fcClearError(void) { s_lastError[0] = '\0'; }

void fcSetLogFunction(fcLogFcn* fcn, void* context)
{
    s_logFcn = fcn;
    s_logContext = context;
}

double fcNowMs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

fcTick fcTicks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (fcTick)ts.tv_sec * 1000000000u + (fcTick)ts.tv_nsec;
#endif
}
