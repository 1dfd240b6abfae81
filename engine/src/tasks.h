// SPDX-License-Identifier: MIT
// The world's workers: a fixed pool of threads that run the chunks of a parallel loop together with the calling
// thread. A loop's chunks are fixed by the loop (count and grain), never by the number of threads, so a loop whose
// chunks write disjoint data gives bit-identical results with any number of workers.
#ifndef FC_TASKS_H
#define FC_TASKS_H

#include <stdbool.h>

typedef void fcTaskFcn(void* context, int begin, int end);
typedef struct fcTaskPool fcTaskPool;

// A pool for `threads` threads in all: threads - 1 workers are started, the caller of a loop is the last one.
// NULL (and a message) when threads < 2 or the system refuses a thread.
fcTaskPool* fcTaskPool_Create(int threads);
void fcTaskPool_Destroy(fcTaskPool* pool);

// fn(context, begin, end) over [0, count) in chunks of `grain` items; returns when every chunk is done. Without
// a pool, or for a loop of one chunk, the caller runs it alone (the same chunks, in order).
void fcParallelFor(fcTaskPool* pool, int count, int grain, fcTaskFcn* fn, void* context);

#endif
