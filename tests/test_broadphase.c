// SPDX-License-Identifier: MIT
// The broadphase against brute force: pairs, moved pairs, box queries and ray casts must equal an all-pairs
// reference exactly, through creation, motion, destruction and reinsertion; plus tree height and timing.
#include "test_macros.h"

#include "broadphase.h"
#include "core.h"

#include <stdint.h>

// A fixed-seed generator of our own, so the boxes are the same on every platform.
static uint64_t fc_rng = 0x9E3779B97F4A7C15ull;
static double fcRand(void)
{
    fc_rng ^= fc_rng << 13;
    fc_rng ^= fc_rng >> 7;
    fc_rng ^= fc_rng << 17;
    return (double)(fc_rng >> 11) * (1.0 / 9007199254740992.0);
}
static fcReal fcRandIn(double lo, double hi) { return (fcReal)(lo + (hi - lo) * fcRand()); }

static fcAabb fcRandomBox(double world, double maxSize)
{
    fcAabb b;
    b.lo = fcV3(fcRandIn(0, world), fcRandIn(0, world), fcRandIn(0, world));
    b.hi = fcV3(b.lo.x + fcRandIn(0.05, maxSize), b.lo.y + fcRandIn(0.05, maxSize), b.lo.z + fcRandIn(0.05, maxSize));
    return b;
}

static fcAabb fcShift(fcAabb b, fcVec3 d)
{
    fcAabb s = {fcVec3_Add(b.lo, d), fcVec3_Add(b.hi, d)};
    return s;
}

static bool fcOverlap(fcAabb a, fcAabb b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

static bool fcContains(fcAabb outer, fcAabb inner)
{
    return outer.lo.x <= inner.lo.x && outer.lo.y <= inner.lo.y && outer.lo.z <= inner.lo.z &&
           inner.hi.x <= outer.hi.x && inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z;
}

static bool fcSameBox(fcAabb a, fcAabb b)
{
    return a.lo.x == b.lo.x && a.lo.y == b.lo.y && a.lo.z == b.lo.z && a.hi.x == b.hi.x && a.hi.y == b.hi.y &&
           a.hi.z == b.hi.z;
}

// The reference ray test, written as the contract states it: entry fraction of origin + t translation,
// t in [0, maxFraction], into the box, with the reciprocal formed once per ray.
static bool fcRefSlab(fcReal lo, fcReal hi, fcReal o, fcReal d, fcReal* t0, fcReal* t1)
{
    if (d == 0) return lo <= o && o <= hi;
    fcReal inv = 1 / d;
    fcReal a = (lo - o) * inv, b = (hi - o) * inv;
    if (a > b) { fcReal s = a; a = b; b = s; }
    if (a > *t0) *t0 = a;
    if (b < *t1) *t1 = b;
    return *t0 <= *t1;
}
static bool fcRefRay(fcAabb b, fcVec3 o, fcVec3 d, fcReal maxFraction, fcReal* enter)
{
    fcReal t0 = 0, t1 = maxFraction;
    if (!fcRefSlab(b.lo.x, b.hi.x, o.x, d.x, &t0, &t1)) return false;
    if (!fcRefSlab(b.lo.y, b.hi.y, o.y, d.y, &t0, &t1)) return false;
    if (!fcRefSlab(b.lo.z, b.hi.z, o.z, d.z, &t0, &t1)) return false;
    *enter = t0;
    return true;
}

// The test's own record of every proxy.
typedef struct Proxy {
    int handle;     // -1: destroyed
    bool isStatic;
    fcAabb tight;
} Proxy;

typedef struct Keys {
    uint64_t* items;
    int count, capacity;
} Keys;

static void fcKeys_Push(Keys* k, uint64_t key)
{
    if (k->count == k->capacity) {
        k->capacity = k->capacity ? 2 * k->capacity : 256;
        k->items = realloc(k->items, (size_t)k->capacity * sizeof *k->items);
    }
    k->items[k->count++] = key;
}

static int fcKeys_Compare(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : x > y;
}

static void fcKeys_Sort(Keys* k)
{
    if (k->count > 1) qsort(k->items, (size_t)k->count, sizeof *k->items, fcKeys_Compare);
}

// An unordered pair as one key, so that (a, b) and (b, a) compare equal.
static uint64_t fcPairKey(int a, int b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return ((uint64_t)lo << 32) | hi;
}

typedef struct PairLog {
    Keys keys;
    int selfPairs;
} PairLog;

static void fcLogPair(int userA, int userB, void* context)
{
    PairLog* log = context;
    if (userA == userB) log->selfPairs++;
    fcKeys_Push(&log->keys, fcPairKey(userA, userB));
}

// Sorted, each key once, and equal to the sorted reference.
static bool fcKeys_EqualSorted(Keys* got, Keys* want)
{
    fcKeys_Sort(got);
    fcKeys_Sort(want);
    for (int i = 1; i < got->count; ++i) {
        if (got->items[i] == got->items[i - 1]) {
            fprintf(stderr, "  duplicate pair (%d, %d)\n", (int)(got->items[i] >> 32), (int)(got->items[i] & 0xFFFFFFFF));
            return false;
        }
    }
    if (got->count != want->count) {
        fprintf(stderr, "  got %d, want %d\n", got->count, want->count);
        return false;
    }
    return got->count == 0 || memcmp(got->items, want->items, (size_t)got->count * sizeof *got->items) == 0;
}

// Brute force over every live pair, not both static; with onlyQueued, at least one of them queued.
static void fcBrutePairs(const fcBroadphase* bp, const Proxy* p, int n, const bool* queued, Keys* out)
{
    out->count = 0;
    for (int i = 0; i < n; ++i) {
        if (p[i].handle < 0) continue;
        fcAabb bi = fcBroadphase_GetFatAabb(bp, p[i].handle);
        for (int j = i + 1; j < n; ++j) {
            if (p[j].handle < 0 || (p[i].isStatic && p[j].isStatic)) continue;
            if (queued != NULL && !queued[i] && !queued[j]) continue;
            if (fcOverlap(bi, fcBroadphase_GetFatAabb(bp, p[j].handle))) fcKeys_Push(out, fcPairKey(i, j));
        }
    }
}

static fcAabb fcGrow(fcAabb b, fcReal m)
{
    fcAabb g = {{b.lo.x - m, b.lo.y - m, b.lo.z - m}, {b.hi.x + m, b.hi.y + m, b.hi.z + m}};
    return g;
}

// Every internal node's children differ in height by at most 2, the slack broadphase.c keeps (FC_TREE_SLACK).
static bool fcTreeIsBalanced(const fcAabbTree* t)
{
    for (int i = 0; i < t->capacity; ++i) {
        const fcTreeNode* n = &t->nodes[i];
        if (n->height <= 0) continue;
        int d = t->nodes[n->child1].height - t->nodes[n->child2].height;
        if (d < -2 || d > 2) return false;
    }
    return true;
}

#define N_RANDOM 3000
#define WORLD 30.0

static int fcMakeRandom(fcBroadphase* bp, Proxy* p, int n)
{
    for (int i = 0; i < n; ++i) {
        p[i].isStatic = i % 4 == 0;
        p[i].tight = fcRandomBox(WORLD, 2.0);
        p[i].handle = fcBroadphase_CreateProxy(bp, p[i].tight, i, p[i].isStatic);
    }
    return 0;
}

static int test_pairs_equal_brute_force(void)
{
    fcBroadphase bp;
    fcBroadphase_Init(&bp);
    Proxy* p = malloc(N_RANDOM * sizeof *p);
    fcMakeRandom(&bp, p, N_RANDOM);
    ENSURE(fcBroadphase_Validate(&bp));
    ENSURE(bp.moveCount == N_RANDOM);
    // The node arrays grew many times: every handle still names its own shape and fat box.
    for (int i = 0; i < N_RANDOM; ++i) {
        ENSURE(fcBroadphase_GetUserIndex(&bp, p[i].handle) == i);
        ENSURE((p[i].handle & 1) == (p[i].isStatic ? 0 : 1));
        ENSURE(fcSameBox(fcBroadphase_GetFatAabb(&bp, p[i].handle), fcGrow(p[i].tight, FC_AABB_MARGIN)));
    }
    // Node counts: a tree with L leaves has L - 1 internal nodes.
    ENSURE(bp.trees[0].count == 2 * (N_RANDOM / 4) - 1);
    ENSURE(bp.trees[1].count == 2 * (N_RANDOM - N_RANDOM / 4) - 1);

    PairLog log = {{NULL, 0, 0}, 0};
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    Keys want = {NULL, 0, 0};
    fcBrutePairs(&bp, p, N_RANDOM, NULL, &want);
    printf("  %d proxies, %d pairs\n", N_RANDOM, want.count);
    ENSURE(want.count > N_RANDOM / 2);  // the scene is dense enough to mean something
    ENSURE(log.selfPairs == 0);
    ENSURE(fcKeys_EqualSorted(&log.keys, &want));
    ENSURE(bp.moveCount == 0);
    ENSURE(fcBroadphase_Validate(&bp));

    // TestOverlap agrees with the fat boxes.
    for (int i = 0; i < 200; ++i) {
        int a = (int)(fcRand() * N_RANDOM), b = (int)(fcRand() * N_RANDOM);
        bool o = fcOverlap(fcBroadphase_GetFatAabb(&bp, p[a].handle), fcBroadphase_GetFatAabb(&bp, p[b].handle));
        ENSURE(fcBroadphase_TestOverlap(&bp, p[a].handle, p[b].handle) == o);
    }

    // Nothing queued: nothing reported.
    log.keys.count = 0;
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    ENSURE(log.keys.count == 0);

    free(log.keys.items);
    free(want.items);
    free(p);
    fcBroadphase_Free(&bp);
    return 0;
}

static int test_moved_pairs_equal_brute_force(void)
{
    fcBroadphase bp;
    fcBroadphase_Init(&bp);
    Proxy* p = malloc(N_RANDOM * sizeof *p);
    bool* queued = malloc(N_RANDOM * sizeof *queued);
    fcMakeRandom(&bp, p, N_RANDOM);
    PairLog log = {{NULL, 0, 0}, 0};
    Keys want = {NULL, 0, 0};
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);

    for (int round = 0; round < 4; ++round) {
        int moved = 0, small = 0;
        for (int i = 0; i < N_RANDOM; ++i) {
            queued[i] = false;
            double r = fcRand();
            fcVec3 d;
            if (r < 0.15) {
                // Far enough to leave the fat box (static ones too: a user moved them).
                d = fcV3(fcRandIn(-1.5, 1.5), fcRandIn(-1.5, 1.5), fcRandIn(-1.5, 1.5));
            } else if (r < 0.5) {
                // Less than the margin along every axis.
                d = fcV3(fcRandIn(-0.04, 0.04), fcRandIn(-0.04, 0.04), fcRandIn(-0.04, 0.04));
                small++;
            } else {
                continue;
            }
            fcAabb fat = fcBroadphase_GetFatAabb(&bp, p[i].handle);
            fcAabb tight = fcShift(p[i].tight, d);
            bool leaves = !fcContains(fat, tight);
            bool refit = fcBroadphase_MoveProxy(&bp, p[i].handle, tight, d);
            ENSURE(refit == leaves);
            p[i].tight = tight;
            if (refit) {
                queued[i] = true;
                moved++;
                // Grown by the margin and stretched along the displacement, on its side only.
                fcAabb want_box = fcGrow(tight, FC_AABB_MARGIN);
                if (d.x < 0) want_box.lo.x += d.x; else want_box.hi.x += d.x;
                if (d.y < 0) want_box.lo.y += d.y; else want_box.hi.y += d.y;
                if (d.z < 0) want_box.lo.z += d.z; else want_box.hi.z += d.z;
                ENSURE(fcSameBox(fcBroadphase_GetFatAabb(&bp, p[i].handle), want_box));
            } else {
                ENSURE(fcSameBox(fcBroadphase_GetFatAabb(&bp, p[i].handle), fat));
            }
        }
        // A second move of the same proxy in the step must not queue it twice.
        for (int i = 0; i < N_RANDOM; ++i) {
            if (!queued[i]) continue;
            fcVec3 d = fcV3(3, 0, 0);
            p[i].tight = fcShift(p[i].tight, d);
            ENSURE(fcBroadphase_MoveProxy(&bp, p[i].handle, p[i].tight, d));
            break;
        }
        ENSURE(bp.moveCount == moved);
        ENSURE(fcBroadphase_Validate(&bp));
        log.keys.count = 0;
        fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
        fcBrutePairs(&bp, p, N_RANDOM, queued, &want);
        printf("  round %d: %d refitted, %d small moves kept, %d pairs\n", round, moved, small, want.count);
        ENSURE(moved > 0 && want.count > 0);
        ENSURE(log.selfPairs == 0);
        ENSURE(fcKeys_EqualSorted(&log.keys, &want));
        ENSURE(fcBroadphase_Validate(&bp));
    }
    free(log.keys.items);
    free(want.items);
    free(queued);
    free(p);
    fcBroadphase_Free(&bp);
    return 0;
}

static int test_small_moves_do_not_requeue(void)
{
    fcBroadphase bp;
    fcBroadphase_Init(&bp);
    Proxy* p = malloc(N_RANDOM * sizeof *p);
    fcMakeRandom(&bp, p, N_RANDOM);
    PairLog log = {{NULL, 0, 0}, 0};
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    int refits = 0;
    for (int step = 0; step < 5; ++step) {
        for (int i = 0; i < N_RANDOM; ++i) {
            // Drift back and forth within the margin: the tight box never leaves the fat one.
            fcReal s = (fcReal)((step % 2) ? -0.09 : 0.09);
            fcVec3 d = fcV3(s * (fcReal)fcRand(), s * (fcReal)fcRand(), -s * (fcReal)fcRand());
            fcAabb fat = fcBroadphase_GetFatAabb(&bp, p[i].handle);
            refits += fcBroadphase_MoveProxy(&bp, p[i].handle, fcShift(p[i].tight, d), d);
            ENSURE(fcSameBox(fcBroadphase_GetFatAabb(&bp, p[i].handle), fat));
        }
        ENSURE(bp.moveCount == 0);
        log.keys.count = 0;
        fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
        ENSURE(log.keys.count == 0);
    }
    ENSURE(refits == 0);
    // Just over the margin on one side: refitted.
    fcVec3 d = fcV3(0, (fcReal)0.11, 0);
    ENSURE(fcBroadphase_MoveProxy(&bp, p[7].handle, fcShift(p[7].tight, d), d));
    ENSURE(bp.moveCount == 1);
    free(log.keys.items);
    free(p);
    fcBroadphase_Free(&bp);
    return 0;
}

typedef struct QueryLog {
    Keys keys;
    int calls, stopAfter;
    const fcBroadphase* bp;
    bool handleMismatch;
} QueryLog;

static bool fcLogQuery(int proxy, int userIndex, void* context)
{
    QueryLog* q = context;
    if (fcBroadphase_GetUserIndex(q->bp, proxy) != userIndex) q->handleMismatch = true;
    fcKeys_Push(&q->keys, (uint64_t)userIndex);
    return ++q->calls != q->stopAfter;
}

// Brute force over live proxies: which fat boxes overlap box.
static void fcBruteQuery(const fcBroadphase* bp, const Proxy* p, int n, fcAabb box, Keys* out)
{
    out->count = 0;
    for (int i = 0; i < n; ++i) {
        if (p[i].handle >= 0 && fcOverlap(fcBroadphase_GetFatAabb(bp, p[i].handle), box)) fcKeys_Push(out, (uint64_t)i);
    }
}

typedef enum RayMode { rayAll, rayClosest, rayStop } RayMode;
typedef struct RayLog {
    Keys keys;
    RayMode mode;
    const fcBroadphase* bp;
    int calls;
    fcReal best;
    int bestUser;
    bool wrong;
} RayLog;

static fcReal fcLogRay(int proxy, int userIndex, fcVec3 origin, fcVec3 translation, fcReal maxFraction, void* context)
{
    RayLog* r = context;
    r->calls++;
    fcReal t = maxFraction;
    // The tree only reports boxes the clipped segment enters.
    if (!fcRefRay(fcBroadphase_GetFatAabb(r->bp, proxy), origin, translation, maxFraction, &t)) r->wrong = true;
    if (fcBroadphase_GetUserIndex(r->bp, proxy) != userIndex) r->wrong = true;
    fcKeys_Push(&r->keys, (uint64_t)userIndex);
    if (r->mode == rayStop) return 0;
    if (r->mode == rayAll) return maxFraction;
    if (t < r->best || (t == r->best && userIndex < r->bestUser)) {
        r->best = t;
        r->bestUser = userIndex;
    }
    return t;
}

static int fcCheckQueries(const fcBroadphase* bp, const Proxy* p, int n, int count)
{
    QueryLog q = {{NULL, 0, 0}, 0, 0, bp, false};
    RayLog r = {{NULL, 0, 0}, rayAll, bp, 0, 0, -1, false};
    Keys want = {NULL, 0, 0};
    int nonEmpty = 0, rayHits = 0;
    for (int k = 0; k < count; ++k) {
        fcAabb box = fcRandomBox(WORLD, 4.0);
        q.keys.count = 0;
        q.calls = 0;
        q.stopAfter = -1;
        fcBroadphase_Query(bp, box, fcLogQuery, &q);
        fcBruteQuery(bp, p, n, box, &want);
        nonEmpty += want.count > 0;
        ENSURE(!q.handleMismatch);
        ENSURE(fcKeys_EqualSorted(&q.keys, &want));
        // Returning false stops the query at once.
        q.calls = 0;
        q.stopAfter = 1;
        fcBroadphase_Query(bp, box, fcLogQuery, &q);
        ENSURE(q.calls == (want.count > 0 ? 1 : 0));

        // Segments across the world; every fourth one axis-aligned, so zero direction components are covered.
        fcVec3 o = fcV3(fcRandIn(-2, WORLD + 2), fcRandIn(-2, WORLD + 2), fcRandIn(-2, WORLD + 2));
        fcVec3 e = fcV3(fcRandIn(-2, WORLD + 2), fcRandIn(-2, WORLD + 2), fcRandIn(-2, WORLD + 2));
        if (k % 4 == 0) e = fcV3(o.x, o.y, e.z);
        if (k % 4 == 1) e = fcV3(e.x, o.y, o.z);
        fcVec3 d = fcVec3_Sub(e, o);
        fcReal maxFraction = (fcReal)(k % 3 == 0 ? 0.6 : 1.0);
        want.count = 0;
        fcReal best = 2;
        int bestUser = -1;
        for (int i = 0; i < n; ++i) {
            fcReal t;
            if (p[i].handle < 0 || !fcRefRay(fcBroadphase_GetFatAabb(bp, p[i].handle), o, d, maxFraction, &t)) continue;
            fcKeys_Push(&want, (uint64_t)i);
            if (t < best || (t == best && i < bestUser)) {
                best = t;
                bestUser = i;
            }
        }
        rayHits += want.count;
        r.keys.count = 0;
        r.mode = rayAll;
        fcBroadphase_RayCast(bp, o, d, maxFraction, fcLogRay, &r);
        ENSURE(!r.wrong);
        ENSURE(fcKeys_EqualSorted(&r.keys, &want));
        // Closest hit: clipping the ray to each hit must still find the nearest box.
        r.keys.count = 0;
        r.mode = rayClosest;
        r.calls = 0;
        r.best = 2;
        r.bestUser = -1;
        fcBroadphase_RayCast(bp, o, d, maxFraction, fcLogRay, &r);
        ENSURE(!r.wrong);
        ENSURE(r.calls <= want.count);
        if (want.count > 0) {
            ENSURE(r.best == best);
            // A hit at 0 returns 0, which stops the cast: another box entered at 0 may then go unvisited.
            ENSURE(best == 0 || r.bestUser == bestUser);
        } else {
            ENSURE(r.calls == 0);
        }
        r.mode = rayStop;
        r.calls = 0;
        fcBroadphase_RayCast(bp, o, d, maxFraction, fcLogRay, &r);
        ENSURE(r.calls == (want.count > 0 ? 1 : 0));
    }
    printf("  %d queries (%d non-empty), %d ray hits\n", count, nonEmpty, rayHits);
    ENSURE(nonEmpty > count / 2 && rayHits > count);
    free(q.keys.items);
    free(r.keys.items);
    free(want.items);
    return 0;
}

static int test_query_and_raycast_equal_brute_force(void)
{
    fcBroadphase bp;
    fcBroadphase_Init(&bp);
    Proxy* p = malloc(N_RANDOM * sizeof *p);
    fcMakeRandom(&bp, p, N_RANDOM);
    ENSURE(fcCheckQueries(&bp, p, N_RANDOM, 300) == 0);
    // A ray starting inside a box enters it at fraction 0.
    fcAabb fat = fcBroadphase_GetFatAabb(&bp, p[5].handle);
    fcVec3 o = fcVec3_Scale((fcReal)0.5, fcVec3_Add(fat.lo, fat.hi));
    RayLog r = {{NULL, 0, 0}, rayClosest, &bp, 0, 2, -1, false};
    fcBroadphase_RayCast(&bp, o, fcV3(1, 2, 3), 1, fcLogRay, &r);
    ENSURE(r.best == 0);
    // An empty broadphase calls nothing.
    fcBroadphase empty;
    fcBroadphase_Init(&empty);
    r.calls = 0;
    fcBroadphase_RayCast(&empty, o, fcV3(1, 2, 3), 1, fcLogRay, &r);
    QueryLog q = {{NULL, 0, 0}, 0, -1, &empty, false};
    fcBroadphase_Query(&empty, fat, fcLogQuery, &q);
    ENSURE(r.calls == 0 && q.calls == 0);
    ENSURE(fcBroadphase_GetHeight(&empty, 0) == 0 && fcBroadphase_GetHeight(&empty, 1) == 0);
    ENSURE(fcBroadphase_Validate(&empty));
    fcBroadphase_Free(&empty);
    free(r.keys.items);
    free(q.keys.items);
    free(p);
    fcBroadphase_Free(&bp);
    return 0;
}

static int test_destroy_and_reinsert_keep_tree_valid(void)
{
    enum { n = 2000 };
    fcBroadphase bp;
    fcBroadphase_Init(&bp);
    Proxy* p = malloc(n * sizeof *p);
    bool* queued = calloc(n, sizeof *queued);
    fcMakeRandom(&bp, p, n);
    PairLog log = {{NULL, 0, 0}, 0};
    Keys want = {NULL, 0, 0};
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    int live = n;
    for (int op = 0; op < 6000; ++op) {
        int i = (int)(fcRand() * n);
        double r = fcRand();
        if (p[i].handle >= 0 && r < 0.4) {
            fcBroadphase_DestroyProxy(&bp, p[i].handle);
            p[i].handle = -1;
            queued[i] = false;
            live--;
        } else if (p[i].handle < 0) {
            // Reinsert under the same shape index; the handle may differ (a free node is reused).
            p[i].isStatic = fcRand() < 0.25;
            p[i].tight = fcRandomBox(WORLD, 2.0);
            p[i].handle = fcBroadphase_CreateProxy(&bp, p[i].tight, i, p[i].isStatic);
            queued[i] = true;
            live++;
        } else {
            fcVec3 d = fcV3(fcRandIn(-1, 1), fcRandIn(-1, 1), fcRandIn(-1, 1));
            p[i].tight = fcShift(p[i].tight, d);
            queued[i] |= fcBroadphase_MoveProxy(&bp, p[i].handle, p[i].tight, d);
        }
        if (op % 250 == 0) {
            ENSURE(fcBroadphase_Validate(&bp));
            ENSURE(fcTreeIsBalanced(&bp.trees[0]) && fcTreeIsBalanced(&bp.trees[1]));
        }
        if (op % 1000 == 999) {
            // Pairs after a mix of creations, moves and destructions: only live proxies, each pair once.
            log.keys.count = 0;
            fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
            fcBrutePairs(&bp, p, n, queued, &want);
            ENSURE(log.selfPairs == 0);
            ENSURE(fcKeys_EqualSorted(&log.keys, &want));
            memset(queued, 0, n * sizeof *queued);
        }
    }
    ENSURE(fcBroadphase_Validate(&bp));
    int leaves[2] = {0, 0};
    for (int i = 0; i < n; ++i) {
        if (p[i].handle >= 0) leaves[p[i].isStatic ? 0 : 1]++;
    }
    ENSURE(leaves[0] + leaves[1] == live);
    for (int t = 0; t < 2; ++t) ENSURE(bp.trees[t].count == (leaves[t] ? 2 * leaves[t] - 1 : 0));
    ENSURE(fcCheckQueries(&bp, p, n, 100) == 0);

    // Destroy everything: both trees empty and still valid; then build again on the freed nodes.
    for (int i = 0; i < n; ++i) {
        if (p[i].handle >= 0) fcBroadphase_DestroyProxy(&bp, p[i].handle);
        p[i].handle = -1;
    }
    ENSURE(fcBroadphase_Validate(&bp));
    ENSURE(bp.trees[0].count == 0 && bp.trees[1].count == 0 && bp.moveCount == 0);
    ENSURE(bp.trees[0].root == -1 && bp.trees[1].root == -1);
    int capacity = bp.trees[1].capacity;
    for (int i = 0; i < n / 2; ++i) {
        p[i].isStatic = false;
        p[i].tight = fcRandomBox(WORLD, 2.0);
        p[i].handle = fcBroadphase_CreateProxy(&bp, p[i].tight, i, false);
    }
    ENSURE(bp.trees[1].capacity == capacity);  // reused, not grown
    ENSURE(fcBroadphase_Validate(&bp));
    log.keys.count = 0;
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    fcBrutePairs(&bp, p, n, NULL, &want);
    ENSURE(fcKeys_EqualSorted(&log.keys, &want));

    free(log.keys.items);
    free(want.items);
    free(queued);
    free(p);
    fcBroadphase_Free(&bp);
    return 0;
}

static int test_destroyed_moved_proxy_not_reported(void)
{
    fcBroadphase bp;
    fcBroadphase_Init(&bp);
    fcAabb unit = {{0, 0, 0}, {1, 1, 1}};
    int a = fcBroadphase_CreateProxy(&bp, unit, 10, false);
    int b = fcBroadphase_CreateProxy(&bp, fcShift(unit, fcV3((fcReal)0.5, 0, 0)), 11, false);
    int c = fcBroadphase_CreateProxy(&bp, fcShift(unit, fcV3(5, 0, 0)), 12, true);
    int d = fcBroadphase_CreateProxy(&bp, fcShift(unit, fcV3(5, 0, (fcReal)0.5)), 13, true);
    PairLog log = {{NULL, 0, 0}, 0};
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    // a-b only: c-d are both static.
    ENSURE(log.keys.count == 1 && log.keys.items[0] == fcPairKey(10, 11));

    // a moves onto c and d, then is destroyed before the update: nothing involving it is reported.
    fcVec3 disp = fcV3(5, 0, 0);
    ENSURE(fcBroadphase_MoveProxy(&bp, a, fcShift(unit, disp), disp));
    ENSURE(bp.moveCount == 1);
    fcBroadphase_DestroyProxy(&bp, a);
    ENSURE(bp.moveCount == 0);
    ENSURE(fcBroadphase_Validate(&bp));
    log.keys.count = 0;
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    ENSURE(log.keys.count == 0);

    // Created and destroyed within one step: not reported; a survivor queued with it still is.
    int e = fcBroadphase_CreateProxy(&bp, fcShift(unit, fcV3(5, (fcReal)0.2, 0)), 14, false);
    int f = fcBroadphase_CreateProxy(&bp, fcShift(unit, fcV3(5, (fcReal)0.4, 0)), 15, false);
    fcBroadphase_DestroyProxy(&bp, e);
    ENSURE(fcBroadphase_Validate(&bp));
    log.keys.count = 0;
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    fcKeys_Sort(&log.keys);
    ENSURE(log.keys.count == 2);
    ENSURE(log.keys.items[0] == fcPairKey(12, 15) && log.keys.items[1] == fcPairKey(13, 15));

    // The freed node is reused under a new shape index: the new proxy reports under its own index.
    int g = fcBroadphase_CreateProxy(&bp, fcShift(unit, fcV3((fcReal)0.9, 0, 0)), 16, false);
    ENSURE(fcBroadphase_GetUserIndex(&bp, g) == 16);
    log.keys.count = 0;
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    ENSURE(log.keys.count == 1 && log.keys.items[0] == fcPairKey(11, 16));

    // A static proxy moved by the user pairs with moving ones only.
    ENSURE(fcBroadphase_MoveProxy(&bp, c, fcShift(unit, fcV3((fcReal)0.7, 0, 0)), fcV3(0, 0, 0)));
    log.keys.count = 0;
    fcBroadphase_UpdatePairs(&bp, fcLogPair, &log);
    fcKeys_Sort(&log.keys);
    ENSURE(log.keys.count == 2);
    ENSURE(log.keys.items[0] == fcPairKey(11, 12) && log.keys.items[1] == fcPairKey(12, 16));
    (void)b;
    (void)d;
    (void)f;
    ENSURE(fcBroadphase_Validate(&bp));
    free(log.keys.items);
    fcBroadphase_Free(&bp);
    return 0;
}

static int test_height_of_line_and_grid(void)
{
    enum { n = 10000 };
    double bound = 2.5 * log2((double)n);
    int* handle = malloc(n * sizeof *handle);
    for (int layout = 0; layout < 3; ++layout) {
        fcBroadphase bp;
        fcBroadphase_Init(&bp);
        for (int i = 0; i < n; ++i) {
            fcVec3 o;
            if (layout == 0) o = fcV3((fcReal)i, 0, 0);                            // sorted line
            else if (layout == 1) o = fcV3((fcReal)(i % 100), (fcReal)(i / 100), 0); // grid, row by row
            else o = fcV3((fcReal)(i % 100) * 0.01f, 0, (fcReal)(i / 100));       // overlapping columns
            fcAabb box = {o, fcVec3_Add(o, fcV3((fcReal)0.5, (fcReal)0.5, (fcReal)0.5))};
            handle[i] = fcBroadphase_CreateProxy(&bp, box, i, layout == 1);
        }
        int tree = layout == 1 ? 0 : 1;
        int h = fcBroadphase_GetHeight(&bp, tree);
        printf("  layout %d: height %d for %d proxies (bound %.1f, log2 n = %.1f)\n", layout, h, n, bound,
               log2((double)n));
        ENSURE_LE(h, bound);
        ENSURE(fcBroadphase_Validate(&bp));
        ENSURE(fcTreeIsBalanced(&bp.trees[tree]));
        // Removing every other proxy (a worst case for a tree that never rebalances on removal).
        for (int i = 0; i < n; i += 2) fcBroadphase_DestroyProxy(&bp, handle[i]);
        ENSURE(fcBroadphase_Validate(&bp));
        ENSURE_LE(fcBroadphase_GetHeight(&bp, tree), 2.5 * log2((double)n / 2));
        fcBroadphase_Free(&bp);
    }
    free(handle);
    return 0;
}

static void fcCountPair(int userA, int userB, void* context)
{
    (void)userA;
    (void)userB;
    ++*(int*)context;
}

static int test_timing(void)
{
    enum { n = 10000 };
    fcBroadphase bp;
    fcBroadphase_Init(&bp);
    fcAabb* tight = malloc(n * sizeof *tight);
    int* handle = malloc(n * sizeof *handle);
    // About one neighbour per box, like a settled pile: a 50 m cube.
    for (int i = 0; i < n; ++i) tight[i] = fcRandomBox(50.0, 2.0);
    double t0 = fcNowMs();
    for (int i = 0; i < n; ++i) handle[i] = fcBroadphase_CreateProxy(&bp, tight[i], i, false);
    double t1 = fcNowMs();
    int pairs = 0;
    fcBroadphase_UpdatePairs(&bp, fcCountPair, &pairs);
    double t2 = fcNowMs();
    for (int i = 0; i < n; ++i) {
        fcVec3 d = fcV3(fcRandIn(-0.5, 0.5), fcRandIn(-0.5, 0.5), fcRandIn(-0.5, 0.5));
        fcBroadphase_MoveProxy(&bp, handle[i], fcShift(tight[i], d), d);
    }
    double t3 = fcNowMs();
    int movedPairs = 0;
    int queued = bp.moveCount;
    fcBroadphase_UpdatePairs(&bp, fcCountPair, &movedPairs);
    double t4 = fcNowMs();
    printf("  build %d proxies: %.2f ms (height %d); UpdatePairs all new: %.2f ms, %d pairs\n", n, t1 - t0,
           fcBroadphase_GetHeight(&bp, 1), t2 - t1, pairs);
    printf("  move all: %.2f ms (%d refitted); UpdatePairs: %.2f ms, %d pairs\n", t3 - t2, queued, t4 - t3,
           movedPairs);
    ENSURE(fcBroadphase_Validate(&bp));
    free(tight);
    free(handle);
    fcBroadphase_Free(&bp);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_pairs_equal_brute_force);
    RUN_TEST(test_moved_pairs_equal_brute_force);
    RUN_TEST(test_small_moves_do_not_requeue);
    RUN_TEST(test_query_and_raycast_equal_brute_force);
    RUN_TEST(test_destroy_and_reinsert_keep_tree_valid);
    RUN_TEST(test_destroyed_moved_proxy_not_reported);
    RUN_TEST(test_height_of_line_and_grid);
    RUN_TEST(test_timing);
    TEST_MAIN_END();
}
