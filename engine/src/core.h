// SPDX-License-Identifier: MIT
// Engine-wide plumbing: allocation, error reporting, timers. Every refused call goes through fcError.
#ifndef FC_CORE_H
#define FC_CORE_H

#include "fulcrum/fulcrum.h"

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define FC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FC_PRINTF(a, b)
#endif

// The cookie fcDefault*Def writes into internalValue; a def without it is refused.
#define FC_DEF_COOKIE 0x46554C43

// Allocation (aborts with a message on exhaustion: the engine never continues on a failed allocation).
void* fcAlloc(size_t size);
void* fcAllocZeroed(size_t size);
void* fcRealloc(void* p, size_t size);
void fcFree(void* p);
// A block that starts a cache line (the world's arrays of bodies, joints and shapes: their structs are grouped
// by cache line); size is rounded up to whole lines. Freed by fcFree.
#define FC_CACHE_LINE 64
void* fcAllocLines(size_t size);

// Record a refused call: sets the thread's last error and forwards it to the log hook. Returns false so
// callers can `return fcError(...)`.
bool fcError(const char* fmt, ...) FC_PRINTF(1, 2);

// Monotonic wall clock, ms.
double fcNowMs(void);

// The stages' clock (fcProfile), in ticks: the processor's time-stamp counter on x86, else nanoseconds. A
// virtual machine's clock_gettime takes 30 to 50 ns, and a step reads the clock some twenty times: a one-body
// world (S5) spent half its step there. fcWorld_Step turns the stages' ticks into ms by the step's own ratio of
// wall time to ticks (fcStep_ProfileInMs), so no rate is assumed.
typedef uint64_t fcTick;
fcTick fcTicks(void);
// ticks from `from` to `to`; 0 if the counter went back (a thread moved to a core whose counter lags)
static inline double fcTicksBetween(fcTick from, fcTick to) { return to > from ? (double)(to - from) : 0; }
static inline double fcTicksSince(fcTick from) { return fcTicksBetween(from, fcTicks()); }

#endif
