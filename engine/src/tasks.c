// SPDX-License-Identifier: MIT
// The worker pool behind fcParallelFor: workers sleep on a condition variable between loops, claim chunks with
// an atomic counter during one, and the caller waits (spinning, then yielding) until every chunk is done and
// every worker has left the loop, so the next loop never meets a worker of the last one.
#define _POSIX_C_SOURCE 200809L
#include "tasks.h"

#include "core.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

struct fcTaskPool {
    int workerCount;
    pthread_t* workers;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    // the loop being run (written by the caller under the mutex before `generation` moves)
    fcTaskFcn* fn;
    void* context;
    int count, grain, chunks;
    atomic_int next;     // the next chunk to claim
    atomic_int pending;  // chunks not finished
    atomic_int inside;   // workers that have not yet left the loop
    int generation;      // bumped for each loop; a worker runs each generation once
    bool quit;
};

static void fcTasks_RunChunks(fcTaskPool* pool)
{
    for (;;) {
        int c = atomic_fetch_add_explicit(&pool->next, 1, memory_order_relaxed);
        if (c >= pool->chunks) return;
        int begin = c * pool->grain, end = begin + pool->grain < pool->count ? begin + pool->grain : pool->count;
        pool->fn(pool->context, begin, end);
        atomic_fetch_sub_explicit(&pool->pending, 1, memory_order_release);
    }
}

static void* fcTasks_Worker(void* arg)
{
    fcTaskPool* pool = arg;
    int seen = 0;
    for (;;) {
        pthread_mutex_lock(&pool->mutex);
        while (!pool->quit && pool->generation == seen) pthread_cond_wait(&pool->wake, &pool->mutex);
        bool quit = pool->quit;
        seen = pool->generation;
        pthread_mutex_unlock(&pool->mutex);
        if (quit) return NULL;
        fcTasks_RunChunks(pool);
        atomic_fetch_sub_explicit(&pool->inside, 1, memory_order_release);
    }
}

fcTaskPool* fcTaskPool_Create(int threads)
{
    if (threads < 2) {
        fcError("fcTaskPool_Create: a pool needs at least 2 threads, got %d", threads);
        return NULL;
    }
    fcTaskPool* pool = fcAllocZeroed(sizeof *pool);
    pool->workers = fcAlloc(sizeof(pthread_t) * (size_t)(threads - 1));
    pthread_mutex_init(&pool->mutex, NULL);
    pthread_cond_init(&pool->wake, NULL);
    for (int i = 0; i < threads - 1; ++i) {
        if (pthread_create(pool->workers + i, NULL, fcTasks_Worker, pool) != 0) {
            fcError("fcTaskPool_Create: the system refused worker thread %d of %d", i + 1, threads - 1);
            fcTaskPool_Destroy(pool);
            return NULL;
        }
        pool->workerCount = i + 1;
    }
    return pool;
}

void fcTaskPool_Destroy(fcTaskPool* pool)
{
    if (pool == NULL) return;
    pthread_mutex_lock(&pool->mutex);
    pool->quit = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int i = 0; i < pool->workerCount; ++i) pthread_join(pool->workers[i], NULL);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mutex);
    fcFree(pool->workers);
    fcFree(pool);
}

void fcParallelFor(fcTaskPool* pool, int count, int grain, fcTaskFcn* fn, void* context)
{
    if (count <= 0) return;
    if (grain < 1) grain = 1;
    int chunks = (count + grain - 1) / grain;
    if (pool == NULL || chunks < 2) {
        for (int c = 0; c < chunks; ++c) fn(context, c * grain, c * grain + grain < count ? c * grain + grain : count);
        return;
    }
    pthread_mutex_lock(&pool->mutex);
    pool->fn = fn;
    pool->context = context;
    pool->count = count;
    pool->grain = grain;
    pool->chunks = chunks;
    atomic_store(&pool->next, 0);
    atomic_store(&pool->pending, chunks);
    atomic_store(&pool->inside, pool->workerCount);
    pool->generation += 1;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    fcTasks_RunChunks(pool);
    // every chunk done and every worker out of the loop (a late worker only finds no chunk left)
    for (int spin = 0; atomic_load_explicit(&pool->pending, memory_order_acquire) > 0 ||
                       atomic_load_explicit(&pool->inside, memory_order_acquire) > 0;
         ++spin)
        if (spin > 1000) sched_yield();
}
