// SPDX-License-Identifier: MIT
// The worker pool behind fcParallelFor: between loops a worker spins a little while on the published loop count
// (a step's loops come microseconds apart: a wake-up through the kernel took longer than a contact colour's
// work), then sleeps on a condition variable; during a loop it claims chunks from one atomic claim word. The
// caller runs chunks too and returns once every chunk is done. A worker that wakes late, after its loop was
// finished (by the caller alone, on a loaded machine), finds the word of another loop and waits again: the caller
// never waits for a worker that has no chunk.
#define _POSIX_C_SOURCE 200809L
#include "tasks.h"

#include "core.h"

#include <pthread.h>
#include <sched.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

// The claim word: the loop's generation (24 bits), its chunk count and the next chunk to claim (20 bits each). A
// chunk is claimed by compare-and-swap only while the word still names the claimer's loop, so a chunk is never
// taken from a later loop by a worker of an earlier one, and the loop's parameters cannot change under a worker
// that holds a chunk (the caller publishes the next loop only when every chunk is done).
#define FC_TASK_BITS 20
#define FC_TASK_MASK ((1u << FC_TASK_BITS) - 1)
#define FC_TASK_GENERATIONS 0xFFFFFFu
// how long a worker spins for the next loop before it sleeps: some 20 to 60 microseconds (a pause is 10 to 140
// cycles, by processor)
#define FC_TASK_SPINS 4000

static inline void fcTasks_Pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

struct fcTaskPool {
    int workerCount;
    pthread_t* workers;
    pthread_mutex_t mutex;
    pthread_cond_t wake;
    // the loop being run (written by the caller before the claim word names it)
    fcTaskFcn* fn;
    void* context;
    int count, grain;
    _Atomic uint64_t claim;
    atomic_int pending;  // chunks not finished
    uint32_t generation; // the last loop's, 1 .. 2^24 - 1 (the caller's)
    // the last loop's generation, for the workers (published after the claim word names it), and how many workers
    // sleep: the caller wakes them through the mutex only then
    _Alignas(FC_CACHE_LINE) _Atomic uint32_t published;
    atomic_int sleepers;
    atomic_bool quit;
};

static uint64_t fcTasks_Word(uint32_t generation, int chunks, int next)
{
    return (uint64_t)generation << (2 * FC_TASK_BITS) | (uint64_t)chunks << FC_TASK_BITS | (uint64_t)next;
}

static void fcTasks_RunChunks(fcTaskPool* pool, uint32_t generation)
{
    uint64_t word = atomic_load_explicit(&pool->claim, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(word >> (2 * FC_TASK_BITS)) != generation) return;  // a later loop
        int chunks = (int)((word >> FC_TASK_BITS) & FC_TASK_MASK), c = (int)(word & FC_TASK_MASK);
        if (c >= chunks) return;
        if (!atomic_compare_exchange_weak_explicit(&pool->claim, &word, word + 1, memory_order_acquire, memory_order_acquire))
            continue;  // another thread claimed it: word holds the new value
        int begin = c * pool->grain, end = begin + pool->grain < pool->count ? begin + pool->grain : pool->count;
        pool->fn(pool->context, begin, end);
        atomic_fetch_sub_explicit(&pool->pending, 1, memory_order_release);
        word = atomic_load_explicit(&pool->claim, memory_order_acquire);
    }
}

static void* fcTasks_Worker(void* arg)
{
    fcTaskPool* pool = arg;
    uint32_t seen = 0;
    for (;;) {
        uint32_t next = seen;
        for (int spin = 0; spin < FC_TASK_SPINS && next == seen && !atomic_load(&pool->quit); ++spin) {
            fcTasks_Pause();
            next = atomic_load(&pool->published);
        }
        if (next == seen) {
            // no loop came: sleep until one is published. sleepers goes up before published is read again, and the
            // caller reads sleepers after it publishes (both sequentially consistent): one of the two sees the other
            pthread_mutex_lock(&pool->mutex);
            atomic_fetch_add(&pool->sleepers, 1);
            while (!atomic_load(&pool->quit) && (next = atomic_load(&pool->published)) == seen)
                pthread_cond_wait(&pool->wake, &pool->mutex);
            atomic_fetch_sub(&pool->sleepers, 1);
            pthread_mutex_unlock(&pool->mutex);
        }
        if (atomic_load(&pool->quit)) return NULL;
        seen = next;
        fcTasks_RunChunks(pool, seen);
    }
}

fcTaskPool* fcTaskPool_Create(int threads)
{
    if (threads < 2) {
        fcError("fcTaskPool_Create: a pool needs at least 2 threads, got %d", threads);
        return NULL;
    }
    // published starts a cache line (_Alignas(64)): calloc promises 16 bytes only
    fcTaskPool* pool = fcAllocLines(sizeof *pool);
    memset(pool, 0, sizeof *pool);
    pool->workers = fcAlloc(sizeof(pthread_t) * (size_t)(threads - 1));
    atomic_init(&pool->claim, fcTasks_Word(0, 0, 0));
    atomic_init(&pool->pending, 0);
    atomic_init(&pool->published, 0);
    atomic_init(&pool->sleepers, 0);
    atomic_init(&pool->quit, false);
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
    atomic_store(&pool->quit, true);
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
    // more chunks than the claim word counts: larger ones (still fixed by the loop alone)
    if ((count - 1) / grain >= (int)FC_TASK_MASK) grain = (count - 1) / ((int)FC_TASK_MASK - 1) + 1;
    int chunks = (count + grain - 1) / grain;
    if (pool == NULL || chunks < 2) {
        for (int c = 0; c < chunks; ++c) fn(context, c * grain, c * grain + grain < count ? c * grain + grain : count);
        return;
    }
    // the loop's parameters: a worker reads them only after it claimed a chunk of this loop's word
    pool->fn = fn;
    pool->context = context;
    pool->count = count;
    pool->grain = grain;
    // 1 .. 2^24 - 1: a worker starts having seen 0, and the word of no loop names 0
    uint32_t generation = pool->generation = pool->generation % FC_TASK_GENERATIONS + 1;
    atomic_store_explicit(&pool->pending, chunks, memory_order_relaxed);
    atomic_store_explicit(&pool->claim, fcTasks_Word(generation, chunks, 0), memory_order_release);
    atomic_store(&pool->published, generation);
    if (atomic_load(&pool->sleepers) > 0) {
        pthread_mutex_lock(&pool->mutex);
        pthread_cond_broadcast(&pool->wake);
        pthread_mutex_unlock(&pool->mutex);
    }
    fcTasks_RunChunks(pool, generation);
    // every chunk done (a chunk a worker holds is waited for; a worker that never woke is not)
    for (int spin = 0; atomic_load_explicit(&pool->pending, memory_order_acquire) > 0;) {
        if (spin < 1000) ++spin, fcTasks_Pause();
        else sched_yield();
    }
}
