// SPDX-License-Identifier: MIT
// The contact problem at velocity level: per manifold point a normal row 0 <= lambda_n _|_ (J v - bias) >= 0
// (bias lets a speculative point close its gap within the step, or asks for the bounce of restitution), and per
// manifold three friction rows (two at its points' centre, one about n) within the ellipsoid |lambda_t|^2 + (tau /
// r)^2 <= (mu sum lambda_n)^2, swept by projected Gauss-Seidel with warm starting. The joints'
// rows are solved exactly between the sweeps (solve.c). Then a position-level pass pushes overlaps deeper
// than the slop back out, moving positions only, so that no velocity (no energy) comes from it and lambda
// stays the physical impulse.
#include "simd.h"
#include "solver.h"
#include "tasks.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

bool fcContacts_HasRows(const fcWorld* world) { return world->contacts.enabledCount > 0; }

// the step's totals, kept in the blocks until the end of the step, start from zero (again when the step is
// retaken; a new step's layout starts them at zero)
// a lane's release dating at the start of the step: the load of the last step's last substep (the impulses
// that warm-start this step), as if it were substep -1 of this one
static void fcContacts_ResetRelease(fcContactBlock* blk, int lane)
{
    const fcContactManifold* m = blk->manifold[lane];
    fcReal before = 0;
    for (int i = 0; m && i < m->pointCount; ++i) before += m->points[i].normalImpulse;
    blk->load[lane] = before;
    blk->loadSubstep[lane] = -1;
    blk->letGo[lane] = -1;
}

void fcContacts_BeginStep(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    set->substep = 0;
    if (!set->layoutDirty)
        for (int bi = 0; bi < set->blockCount; ++bi) {
            for (int i = 0; i < set->blocks[bi].points; ++i) {
                fcContactPoint4* sp = set->blocks[bi].point + i;
                memset(sp->totalNormalImpulse, 0, sizeof sp->totalNormalImpulse);
            }
            memset(set->blocks[bi].patchTotal, 0, sizeof set->blocks[bi].patchTotal);
            memset(set->blocks[bi].patchReach, 0, sizeof set->blocks[bi].patchReach);
            for (int l = 0; l < FC_LANES; ++l) fcContacts_ResetRelease(set->blocks + bi, l);
        }
    world->stats.maxPenetration = 0;
    world->stats.contactIterations = 0;
    world->stats.contactExactPoints = 0;
    world->stats.complementarityResidual = 0;
    world->stats.frictionResidual = 0;
    set->heaviestPoint = 0;
}

#define FC_FOR_EACH_MANIFOLD(world, c, m)                                                                  \
    for (int t_ = 0; t_ < (world)->contacts.touchingCount; ++t_)                                            \
        for (fcContact* c = fcContacts_Pair(&(world)->contacts, (world)->contacts.touching[t_]); c != NULL; c = NULL) \
            if (c->enabled)                                                                                 \
                for (fcContactManifold* m = c->manifolds; m < c->manifolds + c->manifoldCount; ++m)

// ---------------------------------------------------------------------------------------------------------------------
// Four lanes at a time (simd.h)
// ---------------------------------------------------------------------------------------------------------------------

// a vector per lane
typedef struct fcVec3x4 {
    fcV4 x, y, z;
} fcVec3x4;

// three rows of FC_LANES: x, y, z
FC_V4_INLINE fcVec3x4 fcVec3x4_Load(const fcReal* d)
{
    fcVec3x4 r = {fcV4_Load(d), fcV4_Load(d + FC_LANES), fcV4_Load(d + 2 * FC_LANES)};
    return r;
}

FC_V4_INLINE void fcVec3x4_Store(fcReal* d, fcVec3x4 v)
{
    fcV4_Store(d, v.x);
    fcV4_Store(d + FC_LANES, v.y);
    fcV4_Store(d + 2 * FC_LANES, v.z);
}

// the same operations, in the same order, as math.h's
FC_V4_INLINE fcVec3x4 fcVec3x4_Add(fcVec3x4 a, fcVec3x4 b)
{
    fcVec3x4 r = {fcV4_Add(a.x, b.x), fcV4_Add(a.y, b.y), fcV4_Add(a.z, b.z)};
    return r;
}
FC_V4_INLINE fcVec3x4 fcVec3x4_Sub(fcVec3x4 a, fcVec3x4 b)
{
    fcVec3x4 r = {fcV4_Sub(a.x, b.x), fcV4_Sub(a.y, b.y), fcV4_Sub(a.z, b.z)};
    return r;
}
FC_V4_INLINE fcVec3x4 fcVec3x4_Scale(fcV4 s, fcVec3x4 a)
{
    fcVec3x4 r = {fcV4_Mul(s, a.x), fcV4_Mul(s, a.y), fcV4_Mul(s, a.z)};
    return r;
}
FC_V4_INLINE fcV4 fcVec3x4_Dot(fcVec3x4 a, fcVec3x4 b)
{
    return fcV4_Add(fcV4_Add(fcV4_Mul(a.x, b.x), fcV4_Mul(a.y, b.y)), fcV4_Mul(a.z, b.z));
}
FC_V4_INLINE fcVec3x4 fcVec3x4_Cross(fcVec3x4 a, fcVec3x4 b)
{
    fcVec3x4 r = {fcV4_Sub(fcV4_Mul(a.y, b.z), fcV4_Mul(a.z, b.y)), fcV4_Sub(fcV4_Mul(a.z, b.x), fcV4_Mul(a.x, b.z)),
                  fcV4_Sub(fcV4_Mul(a.x, b.y), fcV4_Mul(a.y, b.x))};
    return r;
}
// fcQuat_Rotate: v + 2 w (u x v) + 2 u x (u x v)
FC_V4_INLINE fcVec3x4 fcVec3x4_Rotate(const fcV4* q, fcVec3x4 v)
{
    fcVec3x4 u = {q[1], q[2], q[3]};
    fcVec3x4 t = fcVec3x4_Scale(fcV4_Splat(2), fcVec3x4_Cross(u, v));
    return fcVec3x4_Add(fcVec3x4_Add(v, fcVec3x4_Scale(q[0], t)), fcVec3x4_Cross(u, t));
}
// fcMat33_MulV, the matrix by columns (m[0..2] the first)
FC_V4_INLINE fcVec3x4 fcVec3x4_MulM(const fcV4* m, fcVec3x4 v)
{
    fcVec3x4 cx = {m[0], m[1], m[2]}, cy = {m[3], m[4], m[5]}, cz = {m[6], m[7], m[8]};
    return fcVec3x4_Add(fcVec3x4_Add(fcVec3x4_Scale(v.x, cx), fcVec3x4_Scale(v.y, cy)), fcVec3x4_Scale(v.z, cz));
}

// the velocities of a block's bodies on one side, lane by lane
typedef struct fcBody4 {
    fcVec3x4 v, w;
} fcBody4;

FC_V4_INLINE void fcBody4_Gather(fcBody4* out, const fcSolverBody* bodies, const int* index)
{
    fcV4 lo[4], hi[4];  // (v.x, v.y, v.z, w.x), (w.y, w.z, pad) of each lane
    for (int l = 0; l < FC_LANES; ++l) {
        const fcReal* b = (const fcReal*)(bodies + index[l]);
        lo[l] = fcV4_Load(b);
        hi[l] = fcV4_Load(b + 4);
    }
    fcV4_Transpose(lo);
    fcV4_Transpose(hi);
    out->v.x = lo[0], out->v.y = lo[1], out->v.z = lo[2], out->w.x = lo[3];
    out->w.y = hi[0], out->w.z = hi[1];
}

// solver body 0 (the world at rest, the empty lanes, and in the write lists every body that is not dynamic) is never
// written: several lanes may hold it
FC_V4_INLINE void fcBody4_Scatter(const fcBody4* in, fcSolverBody* bodies, const int* index)
{
    fcV4 zero = fcV4_Splat(0);
    fcV4 lo[4] = {in->v.x, in->v.y, in->v.z, in->w.x}, hi[4] = {in->w.y, in->w.z, zero, zero};
    fcV4_Transpose(lo);
    fcV4_Transpose(hi);
    for (int l = 0; l < FC_LANES; ++l) {
        if (index[l] == 0) continue;
        fcReal* b = (fcReal*)(bodies + index[l]);
        fcV4_Store(b, lo[l]);
        fcV4_Store(b + 4, hi[l]);
    }
}

// a block's per-lane values of a side: pose and world inverse inertia
typedef struct fcSide4 {
    fcV4 position[3], orientation[4], invInertia[9];
} fcSide4;

// a row's J v and impulse, and the sweep's pass over a block's rows, four lanes at a time, and where simd.h has
// fcV8, eight: two blocks of one colour side by side (contact_sweep.h)
#define FC_SWEEP_BLOCKS 1
#include "contact_sweep.h"
#undef FC_SWEEP_BLOCKS
#ifdef FC_HAVE_V8
#define FC_SWEEP_BLOCKS 2
#include "contact_sweep.h"
#undef FC_SWEEP_BLOCKS
#endif

// ---------------------------------------------------------------------------------------------------------------------
// Threads (tasks.h): a loop over blocks in chunks of a fixed number of blocks, so that any number of workers gives
// the same bits. Prepare, the residuals, the write-back and the position pass's measurement read the bodies and
// write their own blocks: any chunks of blocks. The warm start and the sweeps write the solver bodies: a colour's
// blocks share no dynamic body, so a colour's chunks run together, the colours one after another (what a sweep
// computes is then the sequential sweep's, bit for bit). Each chunk keeps its maxima in its own slots, reduced by
// the caller in chunk order. A chunk costs a few microseconds to hand out, so a loop or a colour smaller than two
// chunks runs on the calling thread: S3's colours (a pyramid's rows, about 5 blocks each) never split. A large
// problem (FC_CONTACT_HALVES_FROM manifolds) is laid out in halves (contact.h, fcContactGroup): the two halves'
// blocks are swept side by side, one chunk each with all its colours, and the few across the cut after them, so
// that a sweep waits for the workers once rather than once a colour (S4's rain: some 16 colours of 25 blocks).
// ---------------------------------------------------------------------------------------------------------------------

#define FC_CONTACT_GRAIN 64        // blocks a chunk, for the loops over all blocks
#define FC_CONTACT_COLOR_GRAIN 32  // blocks a chunk, for a colour's blocks
#define FC_CONTACT_SLOTS 3         // maxima a chunk reports

typedef struct fcContactTask {
    fcWorld* world;
    int first, grain;  // the loop's first block, its grain: a chunk [begin, end) is blocks first + begin.., slots begin / grain
    bool cone, reverse, rows;
    fcReal max[FC_CONTACT_SLOTS];  // the slots' maxima over the chunks (-inf: none)
} fcContactTask;

// a chunk's slot k
static fcReal* fcContacts_Slot(const fcContactTask* task, int begin, int k)
{
    return task->world->contacts.chunkSlots + FC_CONTACT_SLOTS * (begin / task->grain) + k;
}

// fn over blocks [first, first + count) in chunks of grain, its slots' maxima into task->max
static void fcContacts_RunChunks(fcWorld* world, fcTaskFcn* fn, fcContactTask* task, int first, int count, int grain)
{
    fcContactSet* set = &world->contacts;
    int chunks = (count + grain - 1) / grain;
    for (int k = 0; k < FC_CONTACT_SLOTS * chunks; ++k) set->chunkSlots[k] = -INFINITY;
    task->first = first;
    task->grain = grain;
    fcParallelFor(chunks > 1 ? world->tasks : NULL, count, grain, fn, task);
    for (int k = 0; k < FC_CONTACT_SLOTS * chunks; ++k)
        task->max[k % FC_CONTACT_SLOTS] = fmax(task->max[k % FC_CONTACT_SLOTS], set->chunkSlots[k]);
}

// a colour of this many blocks splits into chunks for the workers (fewer run on the calling thread)
static bool fcContacts_ColorSplits(int blocks) { return blocks >= 2 * FC_CONTACT_COLOR_GRAIN; }

static void fcContacts_TaskStart(fcWorld* world, fcContactTask* task)
{
    task->world = world;
    for (int k = 0; k < FC_CONTACT_SLOTS; ++k) task->max[k] = -INFINITY;
}

// The two halves' ranges of blocks [begin[k], end[k]) at once, one chunk each: fn with a copy of the task whose
// slots are the ranges' first blocks' (grain 1), reduced into task->max
typedef struct fcContactHalves {
    fcTaskFcn* fn;
    fcContactTask task[2];
    int begin[2], end[2];
} fcContactHalves;

static void fcContacts_HalfChunk(void* context, int begin, int end)
{
    fcContactHalves* h = context;
    for (int k = begin; k < end; ++k)
        if (h->end[k] > h->begin[k]) h->fn(h->task + k, h->begin[k], h->end[k]);
}

static void fcContacts_RunHalves(fcWorld* world, fcTaskFcn* fn, fcContactTask* task, int begin0, int end0, int begin1, int end1)
{
    fcContactSet* set = &world->contacts;
    fcContactHalves h = {.fn = fn, .begin = {begin0, begin1}, .end = {end0, end1}};
    for (int k = 0; k < 2; ++k) {
        h.task[k] = *task;
        h.task[k].first = 0;
        h.task[k].grain = 1;
        for (int q = 0; q < FC_CONTACT_SLOTS; ++q) set->chunkSlots[FC_CONTACT_SLOTS * h.begin[k] + q] = -INFINITY;
    }
    fcParallelFor(world->tasks, 2, 1, fcContacts_HalfChunk, &h);
    for (int k = 0; k < 2; ++k)
        if (h.end[k] > h.begin[k])
            for (int q = 0; q < FC_CONTACT_SLOTS; ++q) task->max[q] = fmax(task->max[q], set->chunkSlots[FC_CONTACT_SLOTS * h.begin[k] + q]);
}

// Two workers take the halves side by side; more take them one after the other, each colour split among them where
// it is large enough (a carpet of boxes on the ground: a colour of hundreds of blocks), and side by side only where
// none is. Either way the blocks run in the sweep's order within a half: the same bits.
static bool fcContacts_SideBySide(const fcWorld* world)
{
    const fcContactSet* set = &world->contacts;
    return world->tasks != NULL && set->groupCount == 3 && (world->def.workerCount == 2 || !set->colorsSplit);
}

// fn over every block in chunks. With the halves side by side, one chunk a half (the group across the cut with the
// upper one), so that the blocks a worker fills are those it sweeps. Else, when no colour is large enough to split
// (the sweeps run on the calling thread), neither are these loops: blocks a worker prepared would reach the sweeps
// from the other core's cache (S4's rain, whose colours are some 25 blocks: 2 threads took 20 % longer than 1 until
// this)
static void fcContacts_ForBlocks(fcWorld* world, fcTaskFcn* fn, fcContactTask* task)
{
    fcContactSet* set = &world->contacts;
    fcContacts_TaskStart(world, task);
    int count = set->blockCount;
    if (fcContacts_SideBySide(world)) {
        fcContacts_RunHalves(world, fn, task, 0, set->groups[1].first, set->groups[1].first, count);
        return;
    }
    bool split = set->colorsSplit && count >= 2 * FC_CONTACT_GRAIN;
    fcContacts_RunChunks(world, fn, task, 0, count, split ? FC_CONTACT_GRAIN : (count > 0 ? count : 1));
}

// fn over one group's blocks colour by colour (backwards with task->reverse). The colours too small to split go to
// the calling thread in runs, one loop a run, and so do the blocks past the colours (they may share bodies): first
// backwards, last forwards.
static void fcContacts_ForGroupColors(fcWorld* world, fcTaskFcn* fn, fcContactTask* task, const fcContactGroup* g)
{
    int colors = g->colorCount;
    int past = g->colorBlocks[colors];  // the first block past the colours
    int runBegin = 0, runEnd = 0;       // blocks waiting for the calling thread
    for (int k = 0; k <= colors + 1; ++k) {
        // the ranges in order: forwards the colours, then the rest; backwards the rest, then the colours down
        int begin = 0, end = 0;
        bool split = false, flush = k == colors + 1;
        if (!flush) {
            bool rest = task->reverse ? k == 0 : k == colors;
            int c = task->reverse ? colors - k : k;
            begin = rest ? past : g->colorBlocks[c];
            end = rest ? g->end : g->colorBlocks[c + 1];
            split = !rest && fcContacts_ColorSplits(end - begin);
        }
        if (!split && !flush) {
            // joins the run: ranges come in block order forwards, in reverse block order backwards
            if (runEnd <= runBegin) runBegin = begin, runEnd = end;
            else if (task->reverse) runBegin = begin;
            else runEnd = end;
            continue;
        }
        if (runEnd > runBegin) fcContacts_RunChunks(world, fn, task, runBegin, runEnd - runBegin, runEnd - runBegin);
        runBegin = runEnd = 0;
        if (split) fcContacts_RunChunks(world, fn, task, begin, end - begin, FC_CONTACT_COLOR_GRAIN);
    }
}

// fn over the blocks in the sweep's order: without workers one run over all of them (block order is the groups' and
// the colours' order); with workers the halves side by side, then the group across the cut (backwards: first), or
// the groups one after the other, colour by colour (fcContacts_SideBySide)
static void fcContacts_ForColors(fcWorld* world, fcTaskFcn* fn, fcContactTask* task)
{
    fcContactSet* set = &world->contacts;
    fcContacts_TaskStart(world, task);
    int count = set->blockCount;
    if (world->tasks == NULL || count == 0) {
        fcContacts_RunChunks(world, fn, task, 0, count, count > 0 ? count : 1);
        return;
    }
    const fcContactGroup* g = set->groups;
    if (!fcContacts_SideBySide(world)) {
        for (int k = 0; k < set->groupCount; ++k) fcContacts_ForGroupColors(world, fn, task, g + (task->reverse ? set->groupCount - 1 - k : k));
        return;
    }
    if (task->reverse) fcContacts_ForGroupColors(world, fn, task, g + 2);
    fcContacts_RunHalves(world, fn, task, g[0].first, g[0].end, g[1].first, g[1].end);
    if (!task->reverse) fcContacts_ForGroupColors(world, fn, task, g + 2);
}

// The manifolds of the block FC_CONTACT_PREFETCH_AHEAD past block bi into the cache (for writing with `write`): the
// passes that copy between blocks and manifolds take them in block order, which is not the contacts' (each some
// 900 bytes), so that every lane's manifold is a cache miss the hardware cannot foresee
#define FC_CONTACT_PREFETCH_AHEAD 2
static inline void fcContacts_PrefetchManifolds(const fcContactSet* set, int bi, int end, bool write)
{
#if defined(__GNUC__)
    bi += FC_CONTACT_PREFETCH_AHEAD;
    if (bi >= end) return;
    const fcContactBlock* blk = set->blocks + bi;
    for (int l = 0; l < FC_LANES; ++l) {
        const fcContactManifold* m = blk->manifold[l];
        if (m == NULL) continue;
        const char* p = (const char*)m;
        for (size_t off = 0; off < sizeof(fcContactManifold); off += 64) {
            if (write) __builtin_prefetch(p + off, 1);
            else __builtin_prefetch(p + off, 0);
        }
    }
#else
    (void)set, (void)bi, (void)end, (void)write;
#endif
}

// the same for the passes over the touching contacts in their order (FC_FOR_EACH_MANIFOLD): contact t + ahead's
// first manifold, most contacts' only one (the contacts lie some 900 bytes apart, too far for the hardware's prefetch)
static inline void fcContacts_PrefetchTouching(const fcContactSet* set, int t)
{
#if defined(__GNUC__)
    t += FC_CONTACT_PREFETCH_AHEAD;
    if (t >= set->touchingCount) return;
    const char* p = (const char*)fcContacts_Pair(set, set->touching[t]);
    for (size_t off = 0; off < offsetof(fcContact, first) + sizeof(fcContactManifold); off += 64) __builtin_prefetch(p + off, 0);
#else
    (void)set, (void)t;
#endif
}

// ---------------------------------------------------------------------------------------------------------------------
// Layout, once per step: solver bodies, colours, blocks, and what does not change within the step
// ---------------------------------------------------------------------------------------------------------------------

static int fcContacts_SolverBody(fcWorld* world, int body)
{
    fcContactSet* set = &world->contacts;
    const fcBody* b = world->bodies + body;
    if (b->type == fc_staticBody) return 0;
    if (set->solverBodyOf[body] >= 0) return set->solverBodyOf[body];
    if (set->solverBodyCount == set->solverBodyCapacity) {
        set->solverBodyCapacity = 2 * set->solverBodyCapacity + 64;
        size_t n = (size_t)set->solverBodyCapacity;
        set->solverBodies = fcRealloc(set->solverBodies, sizeof(fcSolverBody) * n);
        set->solverBodyIndex = fcRealloc(set->solverBodyIndex, sizeof(int) * n);
        set->solverInvMass = fcRealloc(set->solverInvMass, sizeof(fcReal) * n);
        set->solverInvInertia = fcRealloc(set->solverInvInertia, sizeof(fcMat33) * 2 * n);  // contact.h
        set->solverInertiaKept = fcRealloc(set->solverInertiaKept, n);
    }
    set->solverBodyIndex[set->solverBodyCount] = body;
    set->solverBodyOf[body] = set->solverBodyCount;
    // fcContacts_Prepare compares the body's inverse inertia with the last one there (a new one: a cleared slot)
    set->solverInvInertia[set->solverBodyCount] = fcMat33_Zero();
    return set->solverBodyCount++;
}

static fcContactBlock* fcContacts_NewBlock(fcContactSet* set)
{
    if (set->blockCount == set->blockCapacity) {
        set->blockCapacity = 2 * set->blockCapacity + 16;
        set->blocks = fcRealloc(set->blocks, sizeof(fcContactBlock) * (size_t)set->blockCapacity);
        set->positions = fcRealloc(set->positions, sizeof(fcContactPosition4) * (size_t)set->blockCapacity);
    }
    fcContactBlock* blk = set->blocks + set->blockCount++;
    blk->points = 0;
    blk->withNext = false;
    blk->spin = -1;
    blk->curve = -1;
    for (int l = 0; l < FC_LANES; ++l) {
        blk->a[l] = blk->b[l] = blk->writeA[l] = blk->writeB[l] = 0;
        blk->bodyA[l] = blk->bodyB[l] = -1;
        blk->contact[l] = NULL;
        blk->manifold[l] = NULL;
    }
    return blk;
}

static void fcContacts_PutVec3(fcReal* out, int lane, fcVec3 v)
{
    out[lane] = v.x;
    out[FC_LANES + lane] = v.y;
    out[2 * FC_LANES + lane] = v.z;
}

// ---------------------------------------------------------------------------------------------------------------------
// Round surfaces (contact.h, fcContactCurve4): the normal, separations and lever arms measured every substep
// ---------------------------------------------------------------------------------------------------------------------

// A cylinder lying on its side (the normal across its axis to within this sine) touches along its side, which
// rolls like a capsule's: its core is its axis. Standing or tilted onto a rim it keeps the collide stage's points
// (a rim's points collapse onto a core point: nothing would hold it from tipping).
#define FC_CURVE_LYING_SIN ((fcReal)1e-3)

// whether shape s is round where it touches along the normal n (world): a sphere, a capsule, a lying cylinder
static bool fcContacts_IsRound(const fcWorld* world, const fcShape* s, fcVec3 n)
{
    if (s->def.type == fc_sphereShape || s->def.type == fc_capsuleShape) return true;
    if (s->def.type != fc_cylinderShape) return false;
    fcVec3 axis = fcQuat_Rotate(fcShape_GetTransform(world, s).q, fcV3(0, 0, 1));
    return FC_FABS(fcVec3_Dot(axis, n)) < FC_CURVE_LYING_SIN;
}

// whether the world normal n (from a to b) is a face normal of the flat shape (a box's axis, a mesh triangle's
// normal): then it turns with that shape; else the shape touches with an edge or a corner
static bool fcContacts_FaceNormal(const fcWorld* world, const fcShape* s, fcVec3 n, uint32_t key)
{
    fcTransform xf = fcShape_GetTransform(world, s);
    fcVec3 local = fcQuat_InvRotate(xf.q, n);
    const fcReal parallel = 1 - 1e-9;
    if (s->def.type == fc_planeShape) return true;
    if (s->def.type == fc_boxShape)
        return FC_FABS(local.x) >= parallel || FC_FABS(local.y) >= parallel || FC_FABS(local.z) >= parallel;
    if (s->def.type == fc_meshShape && s->mesh && (int)key < fcMesh_GetTriangleCount(s->mesh)) {
        fcVec3 v0, v1, v2;
        fcMesh_GetTriangle(s->mesh, (int)key, &v0, &v1, &v2);
        fcVec3 face = fcVec3_Cross(fcVec3_Sub(v1, v0), fcVec3_Sub(v2, v0));
        fcReal len = fcVec3_Length(face);
        return len > 0 && FC_FABS(fcVec3_Dot(face, local)) >= parallel * len;
    }
    return false;
}

// how manifold m of c follows round surfaces: a sphere, a capsule or a lying cylinder against a round shape or a
// plane, box or mesh (hulls, and cylinders on a cap or a rim, keep the collide stage's normal)
static int fcContacts_CurveKind(const fcWorld* world, const fcContact* c, const fcContactManifold* m)
{
    const fcShape* sa = world->shapes + c->shapeA;
    const fcShape* sb = world->shapes + c->shapeB;
    bool roundA = fcContacts_IsRound(world, sa, m->normal), roundB = fcContacts_IsRound(world, sb, m->normal);
    if (roundA == roundB) return roundA ? fc_curveCores : fc_curveNone;
    const fcShape* flat = roundA ? sb : sa;
    fcShapeType t = flat->def.type;
    if (t != fc_planeShape && t != fc_boxShape && t != fc_meshShape) return fc_curveNone;
    if (!fcContacts_FaceNormal(world, flat, m->normal, m->key)) return fc_curveCores;  // an edge or a corner: a core of radius 0
    return roundA ? fc_curveFaceB : fc_curveFaceA;
}

static int fcContacts_KeyCurve(const fcContactLayoutKey* key) { return (int)(key->flags >> fc_layoutCurve & 3); }

// the body on side s (0: a, 1: b) of a manifold when it is dynamic, else -1
static int fcContacts_KeyDynamic(const fcContactLayoutKey* key, int s)
{
    int type = (int)(key->flags >> (s ? fc_layoutTypeB : fc_layoutTypeA) & 3);
    return type == fc_dynamicBody ? (s ? key->bodyB : key->bodyA) : -1;
}

// side a is a static body: the ground's contacts (fcContactBlock.still)
static bool fcContacts_KeyOnGround(const fcContactLayoutKey* key) { return (key->flags >> fc_layoutTypeA & 3) == fc_staticBody; }

// a round shape's core in its body's frame: a sphere's centre, a capsule's segment, a cylinder's axis
static void fcContacts_RoundCore(const fcShape* s, fcVec3* ends)
{
    fcVec3 axis = fcQuat_Rotate(s->def.localOrientation, fcV3(0, 0, s->def.type == fc_sphereShape ? 0 : s->geometry.halfHeight));
    ends[0] = fcVec3_Sub(s->def.localPosition, axis);
    ends[1] = fcVec3_Add(s->def.localPosition, axis);
}

// the point of segment (p0, p1) closest to q
static fcVec3 fcContacts_ClosestOnSegment(fcVec3 p0, fcVec3 p1, fcVec3 q)
{
    fcVec3 d = fcVec3_Sub(p1, p0);
    fcReal dd = fcVec3_Dot(d, d);
    fcReal t = dd > 0 ? fcVec3_Dot(fcVec3_Sub(q, p0), d) / dd : 0;
    return fcVec3_MulAdd(p0, t < 0 ? 0 : t > 1 ? 1 : t, d);
}

FC_V4_INLINE fcV4 fcV4_Clamp01(fcV4 s)
{
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1);
    return fcV4_Greater(zero, s, zero, fcV4_Greater(s, one, one, s));
}

// The closest points of segments (p0, p1) and (q0, q1) (Ericson, Real-Time Collision Detection 5.1.9), four lanes
// at a time: every case is computed in every lane and each lane keeps its own case's values (the same operations
// as the branches of a lane by itself; a case's division by a zero it does not take is thrown away)
FC_V4_INLINE void fcContacts_ClosestSegments(fcVec3x4 p0, fcVec3x4 p1, fcVec3x4 q0, fcVec3x4 q1, fcVec3x4* cp, fcVec3x4* cq)
{
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1);
    fcVec3x4 d1 = fcVec3x4_Sub(p1, p0), d2 = fcVec3x4_Sub(q1, q0), r = fcVec3x4_Sub(p0, q0);
    fcV4 a = fcVec3x4_Dot(d1, d1), e = fcVec3x4_Dot(d2, d2), f = fcVec3x4_Dot(d2, r);
    fcV4 c = fcVec3x4_Dot(d1, r), b = fcVec3x4_Dot(d1, d2), denom = fcV4_Sub(fcV4_Mul(a, e), fcV4_Mul(b, b));
    fcV4 sLow = fcV4_Div(fcV4_Neg(c), a), sHigh = fcV4_Div(fcV4_Sub(b, c), a);
    // both segments: s from the lines' closest points (parallel: p0's end), t from s, then s again from a clamped t
    fcV4 s = fcV4_Clamp01(fcV4_Greater(denom, zero, fcV4_Div(fcV4_Sub(fcV4_Mul(b, f), fcV4_Mul(c, e)), denom), zero));
    fcV4 t = fcV4_Div(fcV4_Add(fcV4_Mul(b, s), f), e);
    s = fcV4_Greater(zero, t, sLow, fcV4_Greater(t, one, sHigh, s));
    t = fcV4_Greater(zero, t, zero, fcV4_Greater(t, one, one, t));
    // q a point (e = 0): s = -c / a, t = 0
    s = fcV4_Clamp01(fcV4_Greater(e, zero, s, sLow));
    t = fcV4_Greater(e, zero, t, zero);
    // p a point (a = 0): s = 0, t = f / e (both points: 0, 0)
    s = fcV4_Greater(a, zero, s, zero);
    t = fcV4_Clamp01(fcV4_Greater(a, zero, t, fcV4_Greater(e, zero, fcV4_Div(f, e), zero)));
    *cp = fcVec3x4_Add(p0, fcVec3x4_Scale(s, d1));
    *cq = fcVec3x4_Add(q0, fcVec3x4_Scale(t, d2));
}

// a body's pose (-1: the world frame)
static void fcContacts_Pose(const fcWorld* world, int body, fcVec3* x, fcQuat* q)
{
    if (body < 0) {
        *x = fcV3(0, 0, 0);
        *q = fcQuat_Identity();
        return;
    }
    *x = world->bodies[body].position;
    *q = world->bodies[body].orientation;
}

static fcVec3 fcContacts_GetVec3(const fcReal* in, int lane)
{
    return fcV3(in[lane], in[FC_LANES + lane], in[2 * FC_LANES + lane]);
}

// lane `lane` of a curve at the collide stage (kind set): the cores and, per point, the core points, offsets and
// the reach from a core point to the contact point
static void fcContacts_SetCurveLane(const fcWorld* world, fcContactCurve4* cv, int lane, const fcContact* c, const fcContactManifold* m)
{
    const fcShape* sa = world->shapes + c->shapeA;
    const fcShape* sb = world->shapes + c->shapeB;
    fcVec3 xa, xb;
    fcQuat qa, qb;
    fcContacts_Pose(world, c->bodyA, &xa, &qa);
    fcContacts_Pose(world, c->bodyB, &xb, &qb);
    fcVec3 n = m->normal;
    int kind = cv->kind[lane];
    const fcContactPoint* pts = m->points;
    int last = m->pointCount - 1;
    // a side's core: round: its shape's; flat (an edge or a corner): the segment through its anchors
    if (fcContacts_IsRound(world, sa, n)) fcContacts_RoundCore(sa, cv->coreA[lane]);
    else cv->coreA[lane][0] = pts[0].localA, cv->coreA[lane][1] = pts[last].localA;
    if (fcContacts_IsRound(world, sb, n)) fcContacts_RoundCore(sb, cv->coreB[lane]);
    else cv->coreB[lane][0] = pts[0].localB, cv->coreB[lane][1] = pts[last].localB;
    cv->faceNormal[lane] = kind == fc_curveFaceA ? fcQuat_InvRotate(qa, n) : fcQuat_InvRotate(qb, n);
    for (int i = 0; i < m->pointCount; ++i) {
        const fcContactPoint* p = pts + i;
        fcVec3 mid = fcVec3_Add(xa, p->rA);  // the collide stage's point, midway between the surfaces
        // a face's point is its anchor; a core's point is the core's point closest to the contact point
        fcVec3 ca = fcVec3_Add(xa, fcQuat_Rotate(qa, cv->coreA[lane][0])), ca1 = fcVec3_Add(xa, fcQuat_Rotate(qa, cv->coreA[lane][1]));
        fcVec3 cb = fcVec3_Add(xb, fcQuat_Rotate(qb, cv->coreB[lane][0])), cb1 = fcVec3_Add(xb, fcQuat_Rotate(qb, cv->coreB[lane][1]));
        fcVec3 pa = kind == fc_curveFaceA ? mid : fcContacts_ClosestOnSegment(ca, ca1, mid);
        fcVec3 pb = kind == fc_curveFaceB ? mid : fcContacts_ClosestOnSegment(cb, cb1, mid);
        cv->pointA[i][lane] = fcQuat_InvRotate(qa, fcVec3_Sub(pa, xa));
        cv->pointB[i][lane] = fcQuat_InvRotate(qb, fcVec3_Sub(pb, xb));
        cv->offset[i][lane] = fcVec3_Dot(n, fcVec3_Sub(pb, pa)) - p->separation;
        // the contact point from the round side's core point: C_a + n (reach + ds / 2), or C_b - n (...) on faceA
        cv->reach[i][lane] = kind == fc_curveFaceA ? fcVec3_Dot(n, fcVec3_Sub(pb, mid)) : fcVec3_Dot(n, fcVec3_Sub(mid, pa));
        cv->separation[i][lane] = p->separation;
    }
}

// per point and lane of a curved block, at the bodies' current poses
typedef struct fcCurveNow {
    fcReal separation[FC_MAX_MANIFOLD_POINTS][FC_LANES];
    fcReal rA[FC_MAX_MANIFOLD_POINTS][3][FC_LANES], rB[FC_MAX_MANIFOLD_POINTS][3][FC_LANES];
    fcReal on[FC_LANES];  // 1: the lane is curved
} fcCurveNow;

// four lanes' vectors
FC_V4_INLINE fcVec3x4 fcVec3x4_FromLanes(const fcVec3* v0, const fcVec3* v1, const fcVec3* v2, const fcVec3* v3)
{
    fcVec3x4 r = {fcV4_Set(v0->x, v1->x, v2->x, v3->x), fcV4_Set(v0->y, v1->y, v2->y, v3->y), fcV4_Set(v0->z, v1->z, v2->z, v3->z)};
    return r;
}

// per lane: mask ? a : b (mask 1 or 0)
FC_V4_INLINE fcVec3x4 fcVec3x4_Select(fcV4 mask, fcVec3x4 a, fcVec3x4 b)
{
    fcV4 zero = fcV4_Splat(0);
    fcVec3x4 r = {fcV4_Greater(mask, zero, a.x, b.x), fcV4_Greater(mask, zero, a.y, b.y), fcV4_Greater(mask, zero, a.z, b.z)};
    return r;
}

// the tangents of a curved block's lanes (on: 1) follow their normals: the last first tangent without its part
// along n
FC_V4_INLINE void fcContacts_CurveTangents(fcContactBlock* blk, const fcReal* on)
{
    fcV4 one = fcV4_Splat(1), isOn = fcV4_Load(on);
    fcVec3x4 n = fcVec3x4_Load(blk->normal[0]);
    fcVec3x4 t0 = fcVec3x4_Load(blk->tangent[0][0]);
    fcVec3x4 t0n = fcVec3x4_Add(t0, fcVec3x4_Scale(fcV4_Neg(fcVec3x4_Dot(t0, n)), n));
    fcV4 tl = fcV4_Sqrt(fcVec3x4_Dot(t0n, t0n));
    t0n = fcVec3x4_Scale(fcV4_Div(one, tl), t0n);
    fcReal tlLanes[FC_LANES];
    fcV4_Store(tlLanes, tl);
    fcVec3x4_Store(blk->tangent[0][0], fcVec3x4_Select(isOn, t0n, t0));
    for (int l = 0; l < FC_LANES; ++l)
        if (on[l] != 0 && !(tlLanes[l] > 1e-9)) fcContacts_PutVec3(blk->tangent[0][0], l, fcVec3_Perpendicular(fcContacts_GetVec3(blk->normal[0], l)));
    t0 = fcVec3x4_Load(blk->tangent[0][0]);
    fcVec3x4_Store(blk->tangent[1][0], fcVec3x4_Select(isOn, fcVec3x4_Cross(n, t0), fcVec3x4_Load(blk->tangent[1][0])));
}

// A curved block's lanes at the bodies' current poses (a, b: the lanes' poses), four lanes at a time: their
// normals and tangents into the block, and per point the separations and lever arms (the other lanes keep theirs:
// on = 0). Each lane computes what it would alone (its kind's case selected, the rest thrown away).
FC_V4_INLINE void fcContacts_Curve(fcContactBlock* blk, const fcContactCurve4* cv, const fcSide4* a, const fcSide4* b, fcCurveNow* now)
{
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1), tiny = fcV4_Splat(1e-9);
    fcReal on[FC_LANES], cores[FC_LANES], faceA[FC_LANES], single[FC_LANES], count[FC_LANES];
    for (int l = 0; l < FC_LANES; ++l) {
        int kind = cv->kind[l];
        int points = kind != fc_curveNone ? blk->manifold[l]->pointCount : 0;
        on[l] = kind != fc_curveNone;
        cores[l] = kind == fc_curveCores;
        faceA[l] = kind == fc_curveFaceA;
        single[l] = kind == fc_curveCores && points == 1;  // one point between cores: the cores' closest points
        count[l] = points;
        now->on[l] = on[l];
    }
    fcV4 isOn = fcV4_Load(on), isCores = fcV4_Load(cores), isFaceA = fcV4_Load(faceA), isSingle = fcV4_Load(single);
    fcVec3x4 xa = {a->position[0], a->position[1], a->position[2]}, xb = {b->position[0], b->position[1], b->position[2]};
    // cores: n along their closest points (cores that meet: keep the last normal)
    fcVec3x4 a0 = fcVec3x4_Add(xa, fcVec3x4_Rotate(a->orientation, fcVec3x4_FromLanes(&cv->coreA[0][0], &cv->coreA[1][0], &cv->coreA[2][0], &cv->coreA[3][0])));
    fcVec3x4 a1 = fcVec3x4_Add(xa, fcVec3x4_Rotate(a->orientation, fcVec3x4_FromLanes(&cv->coreA[0][1], &cv->coreA[1][1], &cv->coreA[2][1], &cv->coreA[3][1])));
    fcVec3x4 b0 = fcVec3x4_Add(xb, fcVec3x4_Rotate(b->orientation, fcVec3x4_FromLanes(&cv->coreB[0][0], &cv->coreB[1][0], &cv->coreB[2][0], &cv->coreB[3][0])));
    fcVec3x4 b1 = fcVec3x4_Add(xb, fcVec3x4_Rotate(b->orientation, fcVec3x4_FromLanes(&cv->coreB[0][1], &cv->coreB[1][1], &cv->coreB[2][1], &cv->coreB[3][1])));
    fcVec3x4 pa, pb;
    fcContacts_ClosestSegments(a0, a1, b0, b1, &pa, &pb);
    fcVec3x4 d = fcVec3x4_Sub(pb, pa);
    fcV4 len = fcV4_Sqrt(fcVec3x4_Dot(d, d));
    fcVec3x4 last = fcVec3x4_Load(blk->normal[0]);
    fcVec3x4 n = fcVec3x4_Select(fcV4_Greater(len, tiny, one, zero), fcVec3x4_Scale(fcV4_Div(one, len), d), last);
    // faces: n turns with the face's body
    fcV4 qf[4];
    for (int k = 0; k < 4; ++k) qf[k] = fcV4_Greater(isFaceA, zero, a->orientation[k], b->orientation[k]);
    fcVec3x4 face = fcVec3x4_Rotate(qf, fcVec3x4_FromLanes(cv->faceNormal + 0, cv->faceNormal + 1, cv->faceNormal + 2, cv->faceNormal + 3));
    n = fcVec3x4_Select(isCores, n, fcVec3x4_Select(isOn, face, last));
    fcVec3x4_Store(blk->normal[0], n);
    fcContacts_CurveTangents(blk, on);
    fcV4 lanePoints = fcV4_Load(count);
    for (int i = 0; i < blk->points; ++i) {
        // the points fixed in the bodies, or the cores' closest points
        fcVec3x4 ca = fcVec3x4_Add(xa, fcVec3x4_Rotate(a->orientation, fcVec3x4_FromLanes(&cv->pointA[i][0], &cv->pointA[i][1], &cv->pointA[i][2], &cv->pointA[i][3])));
        fcVec3x4 cb = fcVec3x4_Add(xb, fcVec3x4_Rotate(b->orientation, fcVec3x4_FromLanes(&cv->pointB[i][0], &cv->pointB[i][1], &cv->pointB[i][2], &cv->pointB[i][3])));
        ca = fcVec3x4_Select(isSingle, pa, ca);
        cb = fcVec3x4_Select(isSingle, pb, cb);
        fcV4 s = fcV4_Sub(fcVec3x4_Dot(n, fcVec3x4_Sub(cb, ca)), fcV4_Load(cv->offset[i]));
        fcV4 reach = fcV4_Add(fcV4_Load(cv->reach[i]), fcV4_Mul(fcV4_Splat(0.5), fcV4_Sub(s, fcV4_Load(cv->separation[i]))));
        fcVec3x4 p = fcVec3x4_Select(isFaceA, fcVec3x4_Add(cb, fcVec3x4_Scale(fcV4_Neg(reach), n)), fcVec3x4_Add(ca, fcVec3x4_Scale(reach, n)));
        // past a lane's points: zero
        fcV4 valid = fcV4_Greater(lanePoints, fcV4_Splat((fcReal)i), one, zero);
        fcVec3x4 none = {zero, zero, zero};
        fcV4_Store(now->separation[i], fcV4_Greater(valid, zero, s, zero));
        fcVec3x4_Store(now->rA[i][0], fcVec3x4_Select(valid, fcVec3x4_Sub(p, xa), none));
        fcVec3x4_Store(now->rB[i][0], fcVec3x4_Select(valid, fcVec3x4_Sub(p, xb), none));
    }
}

// put manifold (c, m) in lane `lane` of block blk (NULL: an empty lane, zero rows): its solver bodies and bodies
static void fcContacts_SetLane(fcWorld* world, fcContactBlock* blk, int lane, fcContact* c, fcContactManifold* m, int curve)
{
    fcContactSet* set = &world->contacts;
    blk->contact[lane] = c;
    blk->manifold[lane] = m;
    if (m) {
        blk->a[lane] = fcContacts_SolverBody(world, c->bodyA);
        blk->b[lane] = fcContacts_SolverBody(world, c->bodyB);
        blk->writeA[lane] = world->bodies[c->bodyA].type == fc_dynamicBody ? blk->a[lane] : 0;
        blk->writeB[lane] = world->bodies[c->bodyB].type == fc_dynamicBody ? blk->b[lane] : 0;
        blk->bodyA[lane] = c->bodyA;
        blk->bodyB[lane] = c->bodyB;
    }
    if (blk->curve >= 0) set->curves[blk->curve].kind[lane] = m ? curve : fc_curveNone;
}

// a block of up to four manifolds (NULL: none in that lane), with their keys
static void fcContacts_AddBlock(fcWorld* world, const fcContactLayoutKey** keys)
{
    fcContactSet* set = &world->contacts;
    fcContactBlock* blk = fcContacts_NewBlock(set);
    bool spin = false, curved = false;
    for (int l = 0; l < FC_LANES; ++l) {
        if (keys[l] == NULL) continue;
        spin = spin || (keys[l]->flags & fc_layoutSpin);
        curved = curved || fcContacts_KeyCurve(keys[l]) != fc_curveNone;
    }
    if (curved) {
        if (set->curveCount == set->curveCapacity) {
            set->curveCapacity = 2 * set->curveCapacity + 8;
            set->curves = fcRealloc(set->curves, sizeof(fcContactCurve4) * (size_t)set->curveCapacity);
        }
        blk->curve = set->curveCount++;
        memset(set->curves + blk->curve, 0, sizeof(fcContactCurve4));  // the lanes that do not curve compute on zeros
    }
    if (spin) {
        if (set->spinCount == set->spinCapacity) {
            set->spinCapacity = 2 * set->spinCapacity + 8;
            set->spins = fcRealloc(set->spins, sizeof(fcContactSpin4) * (size_t)set->spinCapacity);
        }
        blk->spin = set->spinCount++;
    }
    blk->still = true;
    for (int l = 0; l < FC_LANES; ++l) {
        const fcContactLayoutKey* k = keys[l];
        blk->still = blk->still && (k == NULL || fcContacts_KeyOnGround(k));
        fcContacts_SetLane(world, blk, l, k ? (fcContact*)k->contact : NULL, k ? (fcContactManifold*)k->manifold : NULL,
                           k ? fcContacts_KeyCurve(k) : fc_curveNone);
    }
}

// The layout's keys of this step, in the solver's order (the touching pairs by height); whether they are the last
// layout's. A manifold's colour, block and lane follow from its key and those before it, so equal keys give the
// same layout, which is then kept (a resting scene: its contact graph does not change).
static bool fcContacts_LayoutKeys(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    int last = set->layoutValid && set->layoutBodyHigh == world->bodyHigh ? set->layoutKeyCount : -1;
    bool same = last >= 0;
    int count = 0, points = 0;
    fcVec3 up = fcVec3_Neg(world->def.gravity);
    FC_FOR_EACH_MANIFOLD(world, c, m)
    {
        if (m == c->manifolds) fcContacts_PrefetchTouching(set, t_);
        if (m->pointCount == 0) continue;
        if (count == set->layoutKeyCapacity) {
            set->layoutKeyCapacity = 2 * set->layoutKeyCapacity + 64;
            set->layoutKeys = fcRealloc(set->layoutKeys, sizeof(fcContactLayoutKey) * (size_t)set->layoutKeyCapacity);
        }
        const fcBody* ba = world->bodies + c->bodyA;
        const fcBody* bb = world->bodies + c->bodyB;
        fcReal height = fcVec3_Dot(up, fcVec3_Add(ba->position, m->points[0].rA));
        // the contact is below a body's centre: the body rests on it
        unsigned flags = (height < fcVec3_Dot(up, ba->position) ? fc_layoutBelowA : 0u) | (height < fcVec3_Dot(up, bb->position) ? fc_layoutBelowB : 0u);
        flags |= (unsigned)ba->type << fc_layoutTypeA | (unsigned)bb->type << fc_layoutTypeB;
        flags |= (unsigned)fcContacts_CurveKind(world, c, m) << fc_layoutCurve;
        flags |= c->rollingFriction > 0 || c->torsionalFriction > 0 ? fc_layoutSpin : 0u;
        fcContactLayoutKey* k = set->layoutKeys + count;
        if (same && (count >= last || k->contact != c || k->manifold != m || k->bodyA != c->bodyA || k->bodyB != c->bodyB || k->flags != flags))
            same = false;
        k->contact = c;
        k->manifold = m;
        k->bodyA = c->bodyA;
        k->bodyB = c->bodyB;
        k->flags = flags;
        count += 1;
        points += m->pointCount;
    }
    same = same && count == last;
    set->layoutKeyCount = count;
    set->layoutPoints = points;
    set->layoutBodyHigh = world->bodyHigh;
    set->layoutValid = true;
    return same;
}

// Within each colour, the manifolds alike side by side (a stable counting sort): as many points (a block runs as many
// as its lane with the most), rolling resistance or not (a block with one such lane runs those rows for all four),
// the ground's or not (fcContactBlock.still); blocks alike pair in the eight-lane sweep. A colour's manifolds share
// no dynamic body, so their order within it changes no result. (S4's rain: its blocks' lanes had 22 % more points
// than its manifolds.) The points a lane lacks have rows of zero mass (fcContactBlock.lanePoints).
#define FC_CONTACT_SORT_BUCKETS (2 * 2 * FC_MAX_MANIFOLD_POINTS)
static int fcContacts_SortBucket(const fcContactLayoutKey* key)
{
    int spin = (key->flags & fc_layoutSpin) != 0, moving = !fcContacts_KeyOnGround(key);
    int points = key->manifold->pointCount;  // 1..FC_MAX_MANIFOLD_POINTS
    return (spin * 2 + moving) * FC_MAX_MANIFOLD_POINTS + (FC_MAX_MANIFOLD_POINTS - points);
}

static void fcContacts_SortColors(fcContactSet* set, const fcContactLayoutKey** order, const int* counts)
{
    const fcContactLayoutKey** scratch = set->colorOrder + set->layoutKeyCount;
    int first = 0;
    for (int color = 0; color < FC_CONTACT_COLORS; ++color) {  // past the colours the order matters: kept
        int count = counts[color];
        if (count > 1) {
            int at[FC_CONTACT_SORT_BUCKETS + 1] = {0};
            for (int k = first; k < first + count; ++k) at[fcContacts_SortBucket(order[k]) + 1] += 1;
            for (int q = 0; q < FC_CONTACT_SORT_BUCKETS; ++q) at[q + 1] += at[q];
            for (int k = first; k < first + count; ++k) scratch[at[fcContacts_SortBucket(order[k])]++] = order[k];
            memcpy(order + first, scratch, sizeof(*order) * (size_t)count);
        }
        first += count;
    }
}

// (coordinate, index) of bodies a and b along axis: a before b
static bool fcContacts_Before(const fcWorld* world, int axis, int a, int b)
{
    fcReal ca = (&world->bodies[a].position.x)[axis], cb = (&world->bodies[b].position.x)[axis];
    return ca < cb || (ca == cb && a < b);
}

// The halves: the moving bodies of the manifolds (list), split at their median along the axis where their centres
// spread most (a selection, linear on average): half[k] becomes 0 or 1 for each listed body k. Never along the axis
// nearest gravity: a cut across a stack would leave the contacts that carry the upper half's load on the lower one
// for after both halves (against the sweep's bottom-up order: fcContacts_Structure). The cut follows the
// bodies alone, so any number of workers cuts the same way.
static void fcContacts_Halve(const fcWorld* world, int* half, int* list, int count)
{
    if (count == 0) return;
    fcVec3 g = world->def.gravity;
    fcReal gravity[3] = {FC_FABS(g.x), FC_FABS(g.y), FC_FABS(g.z)};
    int down = gravity[0] >= gravity[1] && gravity[0] >= gravity[2] ? 0 : (gravity[1] >= gravity[2] ? 1 : 2);
    if (gravity[down] == 0) down = -1;
    fcReal lo[3], hi[3];
    for (int i = 0; i < 3; ++i) lo[i] = hi[i] = (&world->bodies[list[0]].position.x)[i];
    for (int k = 1; k < count; ++k)
        for (int i = 0; i < 3; ++i) {
            fcReal c = (&world->bodies[list[k]].position.x)[i];
            lo[i] = c < lo[i] ? c : lo[i];
            hi[i] = c > hi[i] ? c : hi[i];
        }
    int axis = down == 0 ? 1 : 0;
    for (int i = 0; i < 3; ++i)
        if (i != down && hi[i] - lo[i] > hi[axis] - lo[axis]) axis = i;
    // list[0 .. mid) before list[mid] before list(mid .. count): Hoare's selection with the middle as pivot
    int mid = count / 2, left = 0, right = count - 1;
    while (left < right) {
        int pivot = list[(left + right) / 2], i = left, j = right;
        while (i <= j) {
            while (fcContacts_Before(world, axis, list[i], pivot)) ++i;
            while (fcContacts_Before(world, axis, pivot, list[j])) --j;
            if (i <= j) {
                int t = list[i];
                list[i++] = list[j];
                list[j--] = t;
            }
        }
        if (mid <= j) right = j;
        else if (mid >= i) left = i;
        else break;
    }
    for (int k = 0; k < count; ++k) half[list[k]] = k < mid ? 0 : 1;
}

// whether a manifold of lanes[0 .. n) follows round surfaces
static bool fcContacts_AnyCurve(const fcContactLayoutKey* const* lanes, int n)
{
    for (int l = 0; l < n; ++l)
        if (fcContacts_KeyCurve(lanes[l]) != fc_curveNone) return true;
    return false;
}

// whether manifold `key` may join lanes[0 .. n) in a block as they are: on the ground (side a static) as they all
// are or none, resisting rolling as one of them does or none (else the block would run other rows, or its lanes
// other code, than they do)
static bool fcContacts_SameKind(const fcContactLayoutKey* const* lanes, int n, const fcContactLayoutKey* key)
{
    bool still = true, spin = false;
    for (int l = 0; l < n; ++l) {
        still = still && fcContacts_KeyOnGround(lanes[l]);
        spin = spin || (lanes[l]->flags & fc_layoutSpin);
    }
    return still == fcContacts_KeyOnGround(key) && spin == ((key->flags & fc_layoutSpin) != 0);
}

// whether manifold `key` shares a dynamic body with one of lanes[0 .. n)
static bool fcContacts_SharesBody(const fcContactLayoutKey* const* lanes, int n, const fcContactLayoutKey* key)
{
    int bodies[2] = {fcContacts_KeyDynamic(key, 0), fcContacts_KeyDynamic(key, 1)};
    for (int l = 0; l < n; ++l)
        for (int s = 0; s < 2; ++s)
            if (bodies[s] >= 0 && (bodies[s] == lanes[l]->bodyA || bodies[s] == lanes[l]->bodyB)) return true;
    return false;
}

// The colours of a group's manifolds (member[0 .. count), indices into the layout's keys, in the solver's order):
// no dynamic body twice in a colour, a manifold never before one its body rests on (floorOf: per body the first
// colour above its supports), beside that the first free colour; past FC_CONTACT_COLORS, FC_CONTACT_COLORS.
static void fcContacts_ColorGroup(fcWorld* world, const int* member, int count, int* colorOf, int* floorOf, int* counts)
{
    fcContactSet* set = &world->contacts;
    uint64_t* used = set->colorUsed;  // per body, the colours it is in
    memset(used, 0, sizeof(uint64_t) * (size_t)world->bodyHigh);
    memset(floorOf, 0, sizeof(int) * (size_t)world->bodyHigh);
    for (int m = 0; m < count; ++m) {
        const fcContactLayoutKey* key = set->layoutKeys + member[m];
        int bodies[2] = {fcContacts_KeyDynamic(key, 0), fcContacts_KeyDynamic(key, 1)};
        bool below[2] = {(key->flags & fc_layoutBelowA) != 0, (key->flags & fc_layoutBelowB) != 0};
        int color = 0;
        uint64_t busy = 0;
        for (int s = 0; s < 2; ++s) {
            if (bodies[s] < 0) continue;
            busy |= used[bodies[s]];
            if (!below[s] && floorOf[bodies[s]] > color) color = floorOf[bodies[s]];
        }
        while (color < FC_CONTACT_COLORS && (busy >> color & 1)) ++color;
        colorOf[member[m]] = color;
        counts[color] += 1;
        if (color == FC_CONTACT_COLORS) continue;
        for (int s = 0; s < 2; ++s) {
            int k = bodies[s];
            if (k < 0) continue;
            used[k] |= (uint64_t)1 << color;
            if (below[s] && floorOf[k] < color + 1) floorOf[k] = color + 1;
        }
    }
}

// The last block of colour `color` (lanes[0 .. n), with the block before it), filled with manifolds of the next
// colour (order[next .. next + count)) of no more points than its lanes have (no rows added for the others), of
// their kind, that touch none of its bodies; taken[] marks them. Returns false when one shares a body with the
// block before, so that the two may not go side by side in eight lanes.
static bool fcContacts_FillLastBlock(const fcContactLayoutKey** lanes, int* n, const fcContactLayoutKey* const* before,
                                     int beforeCount, const fcContactLayoutKey* const* order, int next, int count,
                                     const fcContactLayoutKey* keys, uint8_t* taken)
{
    int points = 0;
    for (int l = 0; l < *n; ++l) points = lanes[l]->manifold->pointCount > points ? lanes[l]->manifold->pointCount : points;
    bool pairs = true;
    for (int q = next; q < next + count && *n < FC_LANES; ++q) {
        const fcContactLayoutKey* key = order[q];
        if (taken[key - keys] || fcContacts_KeyCurve(key) != fc_curveNone || key->manifold->pointCount > points ||
            !fcContacts_SameKind(lanes, *n, key) || fcContacts_SharesBody(lanes, *n, key))
            continue;
        lanes[(*n)++] = key;
        taken[key - keys] = 1;
        pairs = pairs && !fcContacts_SharesBody(before, beforeCount, key);
    }
    return pairs;
}

// A group's blocks, colour by colour (order: its manifolds by colour, counts per colour), and its colour table.
// A colour's last block with lanes to spare takes manifolds of the next colour (fcContacts_FillLastBlock). A
// manifold moved ahead so shares no body with any manifold it now precedes (they are of its colour or in its block):
// the same bits, fewer blocks. Only one thread sweeps such a block: a colour that splits into chunks neither takes
// nor gives.
static void fcContacts_CutGroup(fcWorld* world, fcContactGroup* g, const fcContactLayoutKey** order, const int* counts,
                                uint8_t* taken)
{
    fcContactSet* set = &world->contacts;
    const fcContactLayoutKey* keys = set->layoutKeys;
    int mixed[FC_CONTACT_COLORS + 1];  // colour c's last block, where it may not go side by side with the one before
    int first = 0;
    g->first = set->blockCount;
    g->colorCount = 0;
    for (int color = 0; color <= FC_CONTACT_COLORS; ++color) {
        if (color < FC_CONTACT_COLORS && counts[color] > 0) g->colorCount = color + 1;
        g->colorBlocks[color] = set->blockCount;
        mixed[color] = -1;
        int end = first + counts[color], left = 0;
        for (int k = first; k < end; ++k) left += !taken[order[k] - keys];
        bool fill = color + 1 < FC_CONTACT_COLORS && !fcContacts_ColorSplits((left + FC_LANES - 1) / FC_LANES) &&
                    !fcContacts_ColorSplits((counts[color + 1] + FC_LANES - 1) / FC_LANES);
        int width = color == FC_CONTACT_COLORS ? 1 : FC_LANES;  // past the colours: one manifold a block
        const fcContactLayoutKey* before[FC_LANES] = {NULL};  // the colour's block before
        int beforeCount = 0;
        for (int k = first; k < end;) {
            const fcContactLayoutKey* lanes[FC_LANES] = {NULL};
            int n = 0;
            for (; k < end && n < width; ++k)
                if (!taken[order[k] - keys]) lanes[n++] = order[k];
            if (n == 0) break;
            if (k == end && n < width && fill && !fcContacts_AnyCurve(lanes, n) &&
                !fcContacts_FillLastBlock(lanes, &n, before, beforeCount, order, end, counts[color + 1], keys, taken))
                mixed[color] = set->blockCount;
            fcContacts_AddBlock(world, lanes);
            memcpy(before, lanes, sizeof before);
            beforeCount = n;
        }
        first = end;
    }
    g->end = set->blockCount;
    g->colorBlocks[g->colorCount] = g->colorBlocks[FC_CONTACT_COLORS];  // the colours above colorCount are empty
    for (int c = 0; c < g->colorCount; ++c) {
        set->colorsSplit |= fcContacts_ColorSplits(g->colorBlocks[c + 1] - g->colorBlocks[c]);
        // a block and the next one of its colour share no dynamic body: a sweep may solve them side by side
        // (not the one before a last block that took lanes of the next colour sharing a body with it)
        for (int bi = g->colorBlocks[c]; bi + 1 < g->colorBlocks[c + 1]; ++bi) set->blocks[bi].withNext = bi + 1 != mixed[c];
    }
}

// The manifolds are coloured so that no dynamic body is in two manifolds of a colour, and blocks of four are
// cut from each colour in turn. A sweep takes the colours in order, so the colours keep the collide stage's
// bottom-up order where it matters: a manifold on top of a body never gets a colour before one that body
// rests on (the load of a stack then reaches the ground within one sweep, as in the sequential order); beside
// that, the first free colour. Past FC_CONTACT_COLORS colours, manifolds get a block of their own, in order, last.
static void fcContacts_Structure(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    if (set->solverMapCapacity < world->bodyHigh) {
        set->solverMapCapacity = world->bodyHigh;
        set->solverBodyOf = fcRealloc(set->solverBodyOf, sizeof(int) * (size_t)set->solverMapCapacity);
    }
    for (int k = 0; k < world->bodyHigh; ++k) set->solverBodyOf[k] = -1;
    // solver body 0: the world at rest, shared by every static body and by the empty lanes
    if (set->solverBodyCapacity == 0) {
        set->solverBodyCapacity = 64;
        size_t n = (size_t)set->solverBodyCapacity;
        set->solverBodies = fcAlloc(sizeof(fcSolverBody) * n);
        set->solverBodyIndex = fcAlloc(sizeof(int) * n);
        set->solverInvMass = fcAlloc(sizeof(fcReal) * n);
        set->solverInvInertia = fcAlloc(sizeof(fcMat33) * 2 * n);
        set->solverInertiaKept = fcAlloc(n);
    }
    set->solverBodyIndex[0] = -1;
    set->solverBodyCount = 1;
    set->blockCount = 0;
    set->spinCount = 0;
    set->curveCount = 0;

    int manifolds = set->layoutKeyCount;
    const fcContactLayoutKey* keys = set->layoutKeys;
    // scratch: per manifold its colour and group, and the manifolds by group; per fcBody the first colour above its
    // supports, its half, and the list of the bodies to halve; per manifold whether a block of the colour before
    // took it (colorUsed: per fcBody the colours it is in)
    int bodyHigh = world->bodyHigh;
    int scratch = 3 * manifolds + 3 * bodyHigh + (manifolds + (int)sizeof(int) - 1) / (int)sizeof(int);
    if (set->colorScratchCapacity < scratch) {
        set->colorScratchCapacity = scratch;
        set->colorScratch = fcRealloc(set->colorScratch, sizeof(int) * (size_t)set->colorScratchCapacity);
    }
    if (set->colorUsedCapacity < bodyHigh) {
        set->colorUsedCapacity = bodyHigh;
        set->colorUsed = fcRealloc(set->colorUsed, sizeof(uint64_t) * (size_t)set->colorUsedCapacity);
    }
    int* colorOf = set->colorScratch;
    int* groupOf = colorOf + manifolds;
    int* members = groupOf + manifolds;
    int* floorOf = members + manifolds;
    int* half = floorOf + bodyHigh;
    int* list = half + bodyHigh;
    set->groupCount = manifolds >= FC_CONTACT_HALVES_FROM ? 3 : 1;
    for (int index = 0; index < manifolds; ++index) groupOf[index] = 0;
    if (set->groupCount == 3) {
        int listed = 0;
        memset(floorOf, 0, sizeof(int) * (size_t)bodyHigh);  // here: 1 for a listed body
        for (int index = 0; index < manifolds; ++index)
            for (int s = 0; s < 2; ++s) {
                int body = fcContacts_KeyDynamic(keys + index, s);
                if (body >= 0 && !floorOf[body]) floorOf[body] = 1, list[listed++] = body;
            }
        fcContacts_Halve(world, half, list, listed);
        // a manifold in one half (its other body static or kinematic, or in the same half) goes to that half's group
        for (int index = 0; index < manifolds; ++index) {
            int a = fcContacts_KeyDynamic(keys + index, 0), b = fcContacts_KeyDynamic(keys + index, 1);
            int ha = a >= 0 ? half[a] : -1, hb = b >= 0 ? half[b] : -1;
            groupOf[index] = ha < 0 ? (hb < 0 ? 0 : hb) : (hb < 0 || hb == ha ? ha : 2);
        }
    }
    if (set->colorOrderCapacity < 2 * manifolds) {
        set->colorOrderCapacity = 2 * manifolds;  // the second half: the sort's scratch
        set->colorOrder = fcRealloc(set->colorOrder, sizeof(const fcContactLayoutKey*) * (size_t)set->colorOrderCapacity);
    }
    // the groups' manifolds, each group's in the solver's order (members[groupStart[g] ..])
    int groupStart[4] = {0};
    for (int index = 0; index < manifolds; ++index) groupStart[groupOf[index] + 1] += 1;
    for (int group = 0; group < 3; ++group) groupStart[group + 1] += groupStart[group];
    int at[3] = {groupStart[0], groupStart[1], groupStart[2]};
    for (int index = 0; index < manifolds; ++index) members[at[groupOf[index]]++] = index;
    set->colorsSplit = false;
    uint8_t* taken = (uint8_t*)(list + bodyHigh);  // a group marks its own manifolds only
    memset(taken, 0, (size_t)manifolds);
    int ordered = 0;  // manifolds of the groups before in colorOrder
    for (int group = 0; group < set->groupCount; ++group) {
        int counts[FC_CONTACT_COLORS + 1] = {0};
        int count = groupStart[group + 1] - groupStart[group];
        const int* member = members + groupStart[group];
        fcContacts_ColorGroup(world, member, count, colorOf, floorOf, counts);
        // the group's manifolds colour by colour, in the collide stage's order within a colour (a counting sort)
        const fcContactLayoutKey** order = set->colorOrder + ordered;
        int start[FC_CONTACT_COLORS + 2];
        start[0] = 0;
        for (int color = 0; color <= FC_CONTACT_COLORS; ++color) start[color + 1] = start[color] + counts[color];
        for (int m = 0; m < count; ++m) order[start[colorOf[member[m]]]++] = keys + member[m];
        fcContacts_SortColors(set, order, counts);
        fcContacts_CutGroup(world, set->groups + group, order, counts, taken);
        ordered += count;
    }
    int slots = FC_CONTACT_SLOTS * (set->blockCount + 1);  // at most a chunk a block
    if (set->chunkSlotCapacity < slots) {
        set->chunkSlotCapacity = slots;
        set->chunkSlots = fcRealloc(set->chunkSlots, sizeof(fcReal) * (size_t)slots);
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Friction by manifold (a patch, contact.h and docs/physics.md 4d): two rows at the centre of the points and the twist
// ---------------------------------------------------------------------------------------------------------------------

// the patch's two tangent rows at its centre (fcContacts_PatchCentre) from its points' arms at this substep's poses
// (rA, rB: per point; dirs: n, t1, t2)
FC_V4_INLINE void fcContacts_PatchArms(fcContactBlock* blk, const fcVec3x4* ra, const fcVec3x4* rb, const fcVec3x4* dirs)
{
    fcV4 zero = fcV4_Splat(0);
    fcVec3x4 rA = {zero, zero, zero}, rB = rA, deepA = rA, deepB = rA;
    for (int i = 0; i < blk->points; ++i) {
        fcV4 weight = fcV4_Load(blk->point[i].weight), deepest = fcV4_Load(blk->point[i].deepest);
        rA = fcVec3x4_Add(rA, fcVec3x4_Scale(weight, ra[i])), rB = fcVec3x4_Add(rB, fcVec3x4_Scale(weight, rb[i]));
        deepA = fcVec3x4_Add(deepA, fcVec3x4_Scale(deepest, ra[i])), deepB = fcVec3x4_Add(deepB, fcVec3x4_Scale(deepest, rb[i]));
    }
    rA = fcVec3x4_Add(rA, fcVec3x4_Scale(fcVec3x4_Dot(dirs[0], fcVec3x4_Sub(deepA, rA)), dirs[0]));
    rB = fcVec3x4_Add(rB, fcVec3x4_Scale(fcVec3x4_Dot(dirs[0], fcVec3x4_Sub(deepB, rB)), dirs[0]));
    for (int k = 0; k < 2; ++k) {
        fcVec3x4_Store(blk->patch[k].angA[0], fcVec3x4_Cross(rA, dirs[1 + k]));
        fcVec3x4_Store(blk->patch[k].angB[0], fcVec3x4_Cross(rB, dirs[1 + k]));
    }
}

// The patch's rows' I^-1 (r x d) and the inverse of their 3 x 3 J M^-1 J^T (the tangents' linear parts are
// orthogonal: m_a + m_b on the diagonal; the twist has none), by cofactors. A lane without points inverts zeros:
// zero; a lane without twist (invArm 0) inverts the tangents' 2 x 2 alone and leaves the twist's entries zero.
FC_V4_INLINE void fcContacts_PreparePatch(fcContactBlock* blk, const fcSide4* a, const fcSide4* b, fcV4 massA, fcV4 massB)
{
    fcVec3x4 angA[3], angB[3], iangA[3], iangB[3];
    for (int k = 0; k < 3; ++k) {
        fcContactRow4* row = blk->patch + k;
        angA[k] = fcVec3x4_Load(row->angA[0]), angB[k] = fcVec3x4_Load(row->angB[0]);
        iangA[k] = fcVec3x4_MulM(a->invInertia, angA[k]), iangB[k] = fcVec3x4_MulM(b->invInertia, angB[k]);
        fcVec3x4_Store(row->iangA[0], iangA[k]);
        fcVec3x4_Store(row->iangB[0], iangB[k]);
    }
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1), mass = fcV4_Add(massA, massB);
    fcV4 twist = fcV4_Greater(fcV4_Load(blk->invArm), zero, one, zero);
    fcV4 k[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j <= i; ++j) {
            k[i][j] = fcV4_Add(fcVec3x4_Dot(angA[i], iangA[j]), fcVec3x4_Dot(angB[i], iangB[j]));
            if (i == j && i < 2) k[i][j] = fcV4_Add(mass, k[i][j]);
        }
    k[2][0] = fcV4_Mul(twist, k[2][0]), k[2][1] = fcV4_Mul(twist, k[2][1]);
    k[2][2] = fcV4_Greater(twist, zero, k[2][2], one);
    fcV4 c00 = fcV4_Sub(fcV4_Mul(k[1][1], k[2][2]), fcV4_Mul(k[2][1], k[2][1]));
    fcV4 c10 = fcV4_Sub(fcV4_Mul(k[2][1], k[2][0]), fcV4_Mul(k[1][0], k[2][2]));
    fcV4 c20 = fcV4_Sub(fcV4_Mul(k[1][0], k[2][1]), fcV4_Mul(k[1][1], k[2][0]));
    fcV4 c11 = fcV4_Sub(fcV4_Mul(k[0][0], k[2][2]), fcV4_Mul(k[2][0], k[2][0]));
    fcV4 c21 = fcV4_Sub(fcV4_Mul(k[1][0], k[2][0]), fcV4_Mul(k[0][0], k[2][1]));
    fcV4 c22 = fcV4_Sub(fcV4_Mul(k[0][0], k[1][1]), fcV4_Mul(k[1][0], k[1][0]));
    fcV4 det = fcV4_Add(fcV4_Add(fcV4_Mul(k[0][0], c00), fcV4_Mul(k[1][0], c10)), fcV4_Mul(k[2][0], c20));
    fcV4 inv = fcV4_Greater(det, zero, fcV4_Div(one, fcV4_Greater(det, zero, det, one)), zero);
    fcV4 entries[6] = {c00, c10, c11, fcV4_Mul(twist, c20), fcV4_Mul(twist, c21), fcV4_Mul(twist, c22)};
    for (int e = 0; e < 6; ++e) fcV4_Store(blk->patchInverse[e], fcV4_Mul(inv, entries[e]));
    fcV4 arm = fcV4_Load(blk->arm);
    fcV4 metric[3] = {k[0][0], k[1][1], fcV4_Mul(fcV4_Mul(twist, k[2][2]), fcV4_Mul(arm, arm))};
    for (int i = 0; i < 3; ++i) fcV4_Store(blk->patchMetric[i], fcV4_Greater(metric[i], zero, fcV4_Div(one, fcV4_Greater(metric[i], zero, metric[i], one)), one));
}

// Every step, in chunks of blocks: each lane's numbers from its manifold: directions, friction, anchors, the rows'
// lever-arm parts r x d (four lanes at a time), the impulses that warm-start it, the totals from zero, the
// release dating, round surfaces and rolling resistance. The lever arms are the collide stage's; the ground's blocks
// keep them through the step, the others' follow the bodies (fcContacts_PrepareChunk).
FC_SIMD_CLONES static void fcContacts_RefreshChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    fcWorld* world = task->world;
    fcContactSet* set = &world->contacts;
    const fcVec3 zero = fcV3(0, 0, 0);
    for (int bi = task->first + begin; bi < task->first + end; ++bi) {
        fcContacts_PrefetchManifolds(set, bi, task->first + end, false);
        fcContactBlock* blk = set->blocks + bi;
        int points = 0;
        for (int l = 0; l < FC_LANES; ++l) {
            const fcContact* c = blk->contact[l];
            const fcContactManifold* m = blk->manifold[l];
            fcContacts_PutVec3(blk->normal[0], l, m ? m->normal : zero);
            fcContacts_PutVec3(blk->tangent[0][0], l, m ? m->tangent[0] : zero);
            fcContacts_PutVec3(blk->tangent[1][0], l, m ? m->tangent[1] : zero);
            blk->friction[l] = m ? c->friction : 0;
            blk->restitution[l] = m ? c->restitution : 0;
            if (m && m->pointCount > points) points = m->pointCount;
            blk->lanePoints[l] = m ? m->pointCount : 0;
        }
        blk->points = points;
        blk->rowsPrepared = false;
        memset(blk->frictionTarget, 0, sizeof blk->frictionTarget);  // the ground's stay zero (fcContacts_ChordTargets)
        fcVec3x4 dirs[3] = {fcVec3x4_Load(blk->normal[0]), fcVec3x4_Load(blk->tangent[0][0]), fcVec3x4_Load(blk->tangent[1][0])};
        fcVec3x4 arms[2][FC_MAX_MANIFOLD_POINTS];  // the points' r_a, r_b
        for (int i = 0; i < points; ++i) {
            fcContactPoint4* sp = blk->point + i;
            fcReal rA[3][FC_LANES], rB[3][FC_LANES];
            for (int l = 0; l < FC_LANES; ++l) {
                const fcContactManifold* m = blk->manifold[l];
                const fcContactPoint* p = m && i < m->pointCount ? m->points + i : NULL;
                fcContacts_PutVec3(rA[0], l, p ? p->rA : zero);
                fcContacts_PutVec3(rB[0], l, p ? p->rB : zero);
                fcContacts_PutVec3(sp->localA[0], l, p ? p->localA : zero);
                fcContacts_PutVec3(sp->localB[0], l, p ? p->localB : zero);
                sp->separation[l] = p ? p->separation : 0;
                sp->normalImpulse[l] = p ? p->normalImpulse : 0;
                sp->trialImpulse[l] = p ? p->trialImpulse : 0;
            }
            memset(sp->totalNormalImpulse, 0, sizeof sp->totalNormalImpulse);
            fcVec3x4 ra = fcVec3x4_Load(rA[0]), rb = fcVec3x4_Load(rB[0]);
            arms[0][i] = ra, arms[1][i] = rb;
            if (!blk->still) continue;  // its arms follow the bodies from the first substep on
            fcVec3x4_Store(sp->n.angA[0], fcVec3x4_Cross(ra, dirs[0]));
            fcVec3x4_Store(sp->n.angB[0], fcVec3x4_Cross(rb, dirs[0]));
        }
        // the patch: its impulses, its arm, its points' weights, and on the ground its rows' lever arms
        for (int l = 0; l < FC_LANES; ++l) {
            const fcContactManifold* m = blk->manifold[l];
            fcVec3 ca, cb;
            fcReal weight[FC_MAX_MANIFOLD_POINTS];
            int deepest = -1;
            fcReal arm = m ? fcContacts_PatchCentre(m, world->def.contactSlop, weight, &deepest, &ca, &cb) : 0;
            for (int i = 0; i < points; ++i) {
                blk->point[i].weight[l] = m && i < m->pointCount ? weight[i] : 0;
                blk->point[i].deepest[l] = i == deepest;
            }
            blk->arm[l] = arm;
            blk->invArm[l] = arm > 0 ? 1 / arm : 0;
            for (int k = 0; k < 3; ++k) blk->patchImpulse[k][l] = m && (k < 2 || arm > 0) ? m->friction[k] : 0;
        }
        memset(blk->patchTotal, 0, sizeof blk->patchTotal);
        memset(blk->patchReach, 0, sizeof blk->patchReach);
        fcVec3x4_Store(blk->patch[2].angA[0], dirs[0]);  // the twist: J = [0, -n, 0, n]
        fcVec3x4_Store(blk->patch[2].angB[0], dirs[0]);
        if (blk->still) fcContacts_PatchArms(blk, arms[0], arms[1], dirs);
        fcContactCurve4* cv = blk->curve >= 0 ? set->curves + blk->curve : NULL;
        fcContactSpin4* spin = blk->spin >= 0 ? set->spins + blk->spin : NULL;
        for (int l = 0; l < FC_LANES; ++l) {
            const fcContact* c = blk->contact[l];
            const fcContactManifold* m = blk->manifold[l];
            fcContacts_ResetRelease(blk, l);
            if (cv && cv->kind[l] != fc_curveNone) fcContacts_SetCurveLane(world, cv, l, c, m);
            if (spin) {
                fcReal arms[3] = {m ? c->rollingFriction : 0, m ? c->rollingFriction : 0, m ? c->torsionalFriction : 0};
                fcReal imps[3] = {m ? m->rollingImpulse[0] : 0, m ? m->rollingImpulse[1] : 0, m ? m->twistImpulse : 0};
                for (int d = 0; d < 3; ++d) {
                    spin->arm[d][l] = arms[d] > 0 ? arms[d] : 0;
                    spin->impulse[d][l] = imps[d];
                }
            }
        }
    }
}

// Once per step, after the collide stage: the solver bodies, colours and blocks when the manifolds' keys changed,
// and every lane's numbers
static void fcContacts_Layout(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    set->layoutDirty = false;
    if (!fcContacts_LayoutKeys(world)) fcContacts_Structure(world);
    fcContactTask task;
    fcContacts_ForBlocks(world, fcContacts_RefreshChunk, &task);
}

// ---------------------------------------------------------------------------------------------------------------------
// Prepare, every substep: the rows at the substep's inverse inertias, the bias from the current separation
// ---------------------------------------------------------------------------------------------------------------------

// Each lane's pose, loaded four reals at a time and transposed into the lanes (an empty lane: the origin, unrotated)
FC_V4_INLINE void fcContacts_GatherPose(const fcWorld* world, const int* bodies, fcSide4* side)
{
    static const fcReal origin[8] = {0, 0, 0, 0, 1, 0, 0, 0};
    fcV4 pos[4], rot[4];
    for (int l = 0; l < FC_LANES; ++l) {
        const fcBody* b = bodies[l] >= 0 ? world->bodies + bodies[l] : NULL;
        pos[l] = b ? fcV4_Set(b->position.x, b->position.y, b->position.z, 0) : fcV4_Load(origin);
        rot[l] = fcV4_Load(b ? &b->orientation.w : origin + 4);
    }
    fcV4_Transpose(pos);
    fcV4_Transpose(rot);
    for (int k = 0; k < 3; ++k) side->position[k] = pos[k];
    for (int k = 0; k < 4; ++k) side->orientation[k] = rot[k];
}

// each lane's solver body's world inverse inertia, the same way
FC_V4_INLINE void fcContacts_GatherInertia(const fcMat33* inertias, const int* solver, fcSide4* side)
{
    fcV4 lo[4], hi[4];
    fcReal last[FC_LANES];  // the matrices' ninth entries
    for (int l = 0; l < FC_LANES; ++l) {
        const fcReal* m = &inertias[solver[l]].cx.x;
        lo[l] = fcV4_Load(m);
        hi[l] = fcV4_Load(m + 4);
        last[l] = m[8];
    }
    fcV4_Transpose(lo);
    fcV4_Transpose(hi);
    for (int k = 0; k < 4; ++k) side->invInertia[k] = lo[k], side->invInertia[4 + k] = hi[k];
    side->invInertia[8] = fcV4_Load(last);
}

// 1 / (J M^-1 J^T) of a row, and its I^-1 (r x d)
FC_V4_INLINE void fcRow4_Prepare(fcContactRow4* row, const fcSide4* a, const fcSide4* b, fcV4 massA, fcV4 massB, fcV4 valid)
{
    fcVec3x4 angA = fcVec3x4_Load(row->angA[0]), angB = fcVec3x4_Load(row->angB[0]);
    fcVec3x4 iangA = fcVec3x4_MulM(a->invInertia, angA), iangB = fcVec3x4_MulM(b->invInertia, angB);
    fcVec3x4_Store(row->iangA[0], iangA);
    fcVec3x4_Store(row->iangB[0], iangB);
    fcV4 k = fcV4_Add(fcV4_Add(fcV4_Add(massA, massB), fcVec3x4_Dot(angA, iangA)), fcVec3x4_Dot(angB, iangB));
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1);
    fcV4_Store(row->mass, fcV4_Greater(fcV4_Min(k, valid), zero, fcV4_Div(one, fcV4_Greater(k, zero, k, one)), zero));
}

// a lane's body's acceleration from gravity and the applied forces (-1, static, kinematic, asleep: none)
static fcVec3 fcContacts_Acceleration(const fcWorld* world, int body)
{
    const fcBody* b = body >= 0 ? world->bodies + body : NULL;
    if (b == NULL || b->type != fc_dynamicBody || b->asleep) return fcV3(0, 0, 0);
    return fcVec3_MulAdd(world->def.gravity, b->invMass, fcBody_StepForce(world, b));
}

// The bounces of a point's lanes (bounced > 0). The velocities of the kick-drift scheme are those of the middle of
// the substep, and within it the bodies' relative acceleration a along n (gravity, applied forces) goes on: the
// gap s closes as s + (v - a h / 2) t + a t^2 / 2 and meets at t0 with v_0 = v + a (t0 - h / 2). From there the
// rebound, u = -e v_0, takes the separation to u (h - t0) + a (h - t0)^2 / 2 at the substep's end (the position
// pass puts it there) with the middle's velocity u + a (h / 2 - t0) (the bias). With the approach speed in place of
// v_0 and the time to impact measured on a straight line, a ball's rebound height erred by up to (1 + e) g h v / g:
// 2.7 % at 3 substeps of 1/60 s.
static void fcContacts_Bounce(const fcWorld* world, fcContactBlock* blk, fcContactPoint4* sp, const fcReal* separation, const fcReal* approach)
{
    fcReal h = world->h;
    for (int l = 0; l < FC_LANES; ++l) {
        if (sp->bounced[l] <= 0) continue;
        fcVec3 n = fcContacts_GetVec3(blk->normal[0], l);
        fcReal a = fcVec3_Dot(n, fcVec3_Sub(fcContacts_Acceleration(world, blk->bodyB[l]), fcContacts_Acceleration(world, blk->bodyA[l])));
        fcReal s = separation[l], v = approach[l], e = blk->restitution[l];
        fcReal start = v - 0.5 * a * h;  // the approach speed at the substep's start
        fcReal t0 = 0;
        if (s > 0) {
            fcReal disc = start * start - 2 * a * s;
            t0 = disc >= 0 && start < 0 ? 2 * s / (-start + FC_SQRT(disc)) : s / -v;
            t0 = t0 > h ? h : t0;
        }
        fcReal u = -e * (start + a * t0), rest = h - t0;
        sp->bias[l] = u + a * (0.5 * h - t0);
        sp->bounceTarget[l] = u * rest + 0.5 * a * rest * rest;
        sp->bounced[l] = s > 0 ? 1 : 0;  // the position pass moves only a bounce that began before the surfaces met
    }
}

// The chord of a turn (contact.h): the friction rows' target velocity g dv for centres moving apart at dv = v_b - v_a
// while the pair turns at w, g = a + b w x (as a complex number on the plane across w: a + i b |w|). The rows and the
// kick-drift integrator give, for a body held on a support turning at w (a box: k = 1; a round body rolling on it:
// k = I / (I + m R^2) of its turn and arm, 2/7 for a ball), x_n+1 = (1 + i k t) x_n + k g (x_n - x_n-1) in the plane
// (t = |w| h), and g = e^{i phi} (e^{i phi} - 1 - i phi) / (k (e^{i phi} - 1)), phi = k t, makes e^{i phi}, the exact
// turn of a substep, a root: the carried or orbiting body turns at its rate, without creeping out or in, at any spin.
// So a = (cos(phi) - (phi / 2) cot(phi / 2)) / k and b = h (sin(phi) - phi / 2) / phi, by their series to phi^8
// (phi^2 taken at most 4); to first order g = (h / 2) w x, the support's velocity midway along the path. The
// exact series of (R(h w) - I) / h - w x at dv (d897660) creeps at O(t^4) a substep: a box at the axis of a table
// turning at 55 rad/s (0.46 rad a substep) was thrown off, and a ball orbiting there spiralled out.
FC_V4_INLINE fcVec3x4 fcContacts_Chord(fcVec3x4 w, fcVec3x4 dv, fcV4 k, fcV4 h)
{
    fcV4 t2 = fcV4_Mul(fcVec3x4_Dot(w, w), fcV4_Mul(h, h));
    fcV4 f2 = fcV4_Min(fcV4_Mul(fcV4_Mul(k, k), t2), fcV4_Splat(4));  // phi^2
    fcV4 one = fcV4_Splat(1);
    // (cos(phi) - (phi / 2) cot(phi / 2)) / k = phi^2 / k (-5/12 + 31 phi^2 / 720 - 41 phi^4 / 30240 + 31 phi^6 / 1209600)
    fcV4 a = fcV4_Mul(f2, fcV4_Splat(31.0 / 1209600));
    a = fcV4_Mul(f2, fcV4_Sub(fcV4_Splat(41.0 / 30240), a));
    a = fcV4_Mul(f2, fcV4_Sub(fcV4_Splat(31.0 / 720), a));
    a = fcV4_Mul(fcV4_Div(f2, k), fcV4_Sub(a, fcV4_Splat(5.0 / 12)));  // k t^2 = phi^2 / k, within the range
    // (sin(phi) - phi / 2) / phi = 1/2 - phi^2 / 6 (1 - phi^2 / 20 (1 - phi^2 / 42 (1 - phi^2 / 72)))
    fcV4 b = fcV4_Sub(one, fcV4_Mul(f2, fcV4_Splat(1.0 / 72)));
    b = fcV4_Sub(one, fcV4_Mul(fcV4_Mul(f2, fcV4_Splat(1.0 / 42)), b));
    b = fcV4_Sub(one, fcV4_Mul(fcV4_Mul(f2, fcV4_Splat(1.0 / 20)), b));
    b = fcV4_Mul(h, fcV4_Sub(fcV4_Splat(0.5), fcV4_Mul(fcV4_Mul(f2, fcV4_Splat(1.0 / 6)), b)));
    return fcVec3x4_Add(fcVec3x4_Scale(a, dv), fcVec3x4_Scale(b, fcVec3x4_Cross(w, dv)));
}

// The friction rows' target velocities at the substep's start, for a block off the ground: t_k . the chord at the
// pair's turn w. A round body touching a face rolls on it: w is the face's body's, and k its own, from the first
// point's t_1 row, m^-1 / (m^-1 + (r x t) . I^-1 (r x t)) (a ball rolling on a turntable orbits at 2/7 of its rate
// at a steady radius, where asked for zero it spiralled out by 0.7 mm/s, and with a carried body's chord in by 1.7
// mm/s). Elsewhere k = 1 and the pair turns with its still body where it has one (a turntable; an empty lane: zero),
// else with both as their inverse masses weigh them, (m_b^-1 w_a + m_a^-1 w_b) / (m_a^-1 + m_b^-1): the heavier
// carries the lighter (a 200 kg table turned by a motor its 1 kg box; two equal bodies their mean turn); but two
// dynamic round bodies touching (limbs, balls) share no turn, and take none; a round body on a still round one rolls.
FC_V4_INLINE void fcContacts_ChordTargets(fcContactBlock* blk, const fcBody4* va, const fcBody4* vb, fcV4 h, const fcContactCurve4* cv)
{
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1);
    fcV4 ia = fcV4_Load(blk->invMassA), ib = fcV4_Load(blk->invMassB), sum = fcV4_Add(ia, ib);
    fcV4 share = fcV4_Greater(sum, zero, fcV4_Div(ib, fcV4_Greater(sum, zero, sum, one)), zero);  // w_a's weight
    fcV4 takes = one, k = one;
    if (cv) {
        fcReal face[FC_LANES], lanes[FC_LANES], take[FC_LANES], ratio[FC_LANES], a[FC_LANES], b[FC_LANES];
        fcV4_Store(lanes, share);
        fcV4_Store(a, ia);
        fcV4_Store(b, ib);
        const fcContactRow4* t = &blk->patch[0];
        for (int l = 0; l < FC_LANES; ++l) {
            int kind = cv->kind[l];
            face[l] = kind == fc_curveFaceA ? 1 : kind == fc_curveFaceB ? 0 : lanes[l];  // 1: a's face, 0: b's
            take[l] = kind == fc_curveCores && a[l] > 0 && b[l] > 0 ? 0 : 1;
            ratio[l] = 1;
            if (kind == fc_curveNone) continue;
            // the rolling body: the one off the face's (a still one's partner between cores)
            bool rollsB = face[l] > 0.5;
            fcReal m = rollsB ? b[l] : a[l], turn = 0;
            for (int c = 0; c < 3; ++c) turn += rollsB ? t->angB[c][l] * t->iangB[c][l] : t->angA[c][l] * t->iangA[c][l];
            if (m > 0 && m + turn > 0) ratio[l] = m / (m + turn);
        }
        share = fcV4_Load(face);
        takes = fcV4_Load(take);
        k = fcV4_Load(ratio);
    }
    fcVec3x4 w = fcVec3x4_Add(fcVec3x4_Scale(share, va->w), fcVec3x4_Scale(fcV4_Sub(one, share), vb->w));
    fcVec3x4 e = fcContacts_Chord(w, fcVec3x4_Sub(vb->v, va->v), k, h);
    for (int c = 0; c < 2; ++c) fcV4_Store(blk->frictionTarget[c], fcV4_Mul(takes, fcVec3x4_Dot(fcVec3x4_Load(blk->tangent[c][0]), e)));
}

FC_SIMD_CLONES static void fcContacts_PrepareChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    fcWorld* world = task->world;
    fcContactSet* set = &world->contacts;
    fcV4 h = fcV4_Splat(world->h), zero = fcV4_Splat(0), one = fcV4_Splat(1);
    fcV4 threshold = fcV4_Splat(-world->def.restitutionThreshold);
    fcReal placing = 0;  // 1: a bounce began before the surfaces met (the position pass places it)
    for (int bi = task->first + begin; bi < task->first + end; ++bi) {
        fcContactBlock* blk = set->blocks + bi;
        // Lever arms: a block on the ground keeps the collide stage's through the step (the ground takes any moment);
        // elsewhere they follow the bodies, to one point between the anchors fixed in the two bodies, so that each
        // impulse pair acts at one point and carries no moment. Kept, they were a moment (r - r_0) x F after the first
        // substep: a box held on a free spinning plate spun it up. The body that turns the slower keeps the point (a's
        // anchor weighs |w_b|^2 / (|w_a|^2 + |w_b|^2); neither turning, as the inverse masses weigh them): a 10 kg box
        // spun at 20 rad/s on a free 10 kg plate drifted 3.8 mm with the point midway, 7.3 mm at its own anchors, and
        // 0.02 mm at the plate's (0.04 mm at h / 100).
        bool follow = !blk->still;
        // the rows' I^-1 (r x d) and masses of the last substep hold while r x d and the inverse inertias do (arms
        // kept, no lane follows round surfaces, no body's world inverse inertia changed: a cube's never does)
        bool keep = blk->rowsPrepared && blk->curve < 0 && !follow;
        for (int l = 0; l < FC_LANES && keep; ++l) keep = set->solverInertiaKept[blk->a[l]] && set->solverInertiaKept[blk->b[l]];
        blk->rowsPrepared = true;
        fcSide4 a, b;
        fcContacts_GatherPose(world, blk->bodyA, &a);
        fcContacts_GatherPose(world, blk->bodyB, &b);
        fcBody4 va, vb;
        fcBody4_Gather(&va, set->solverBodies, blk->a);
        fcBody4_Gather(&vb, set->solverBodies, blk->b);
        fcV4 massA = fcV4_Set(set->solverInvMass[blk->a[0]], set->solverInvMass[blk->a[1]], set->solverInvMass[blk->a[2]],
                              set->solverInvMass[blk->a[3]]);
        fcV4 massB = fcV4_Set(set->solverInvMass[blk->b[0]], set->solverInvMass[blk->b[1]], set->solverInvMass[blk->b[2]],
                              set->solverInvMass[blk->b[3]]);
        fcV4_Store(blk->invMassA, massA);
        fcV4_Store(blk->invMassB, massB);
        fcVec3x4 xa = {a.position[0], a.position[1], a.position[2]}, xb = {b.position[0], b.position[1], b.position[2]};
        // the separation follows the anchors as the bodies turn: s = s_0 + n . ((x_b + R_b l_b) - (x_a + R_a l_a))
        fcVec3x4 n = fcVec3x4_Load(blk->normal[0]);
        fcV4 separation[FC_MAX_MANIFOLD_POINTS];
        fcVec3x4 dirs[3] = {n, fcVec3x4_Load(blk->tangent[0][0]), fcVec3x4_Load(blk->tangent[1][0])};
        fcV4 sum = fcV4_Add(massA, massB), wa2 = fcVec3x4_Dot(va.w, va.w), wb2 = fcVec3x4_Dot(vb.w, vb.w), turns = fcV4_Add(wa2, wb2);
        fcV4 shareA = fcV4_Greater(sum, zero, fcV4_Div(massA, fcV4_Greater(sum, zero, sum, one)), fcV4_Splat(0.5));
        shareA = fcV4_Greater(turns, zero, fcV4_Div(wb2, fcV4_Greater(turns, zero, turns, one)), shareA);
        fcVec3x4 arms[2][FC_MAX_MANIFOLD_POINTS];  // the points' following arms (on the ground: none, zero)
        for (int i = 0; i < blk->points; ++i) {
            fcContactPoint4* sp = blk->point + i;
            arms[0][i] = arms[1][i] = (fcVec3x4){zero, zero, zero};
            fcVec3x4 ra = fcVec3x4_Rotate(a.orientation, fcVec3x4_Load(sp->localA[0]));
            fcVec3x4 rb = fcVec3x4_Rotate(b.orientation, fcVec3x4_Load(sp->localB[0]));
            fcVec3x4 gap = fcVec3x4_Sub(fcVec3x4_Add(xb, rb), fcVec3x4_Add(xa, ra));
            separation[i] = fcV4_Add(fcV4_Load(sp->separation), fcVec3x4_Dot(n, gap));
            if (!follow) continue;
            // p = shareA (x_a + r_a) + (1 - shareA) (x_b + r_b) = x_b + r_b - shareA gap (past a lane's points: zero,
            // as the collide stage leaves them)
            fcV4 valid = fcV4_Greater(fcV4_Load(blk->lanePoints), fcV4_Splat((fcReal)i), one, zero);
            fcVec3x4 rB = fcVec3x4_Sub(rb, fcVec3x4_Scale(shareA, gap)), rA = fcVec3x4_Add(rB, fcVec3x4_Sub(xb, xa));
            rA = fcVec3x4_Scale(valid, rA), rB = fcVec3x4_Scale(valid, rB);
            fcVec3x4_Store(sp->n.angA[0], fcVec3x4_Cross(rA, n));
            fcVec3x4_Store(sp->n.angB[0], fcVec3x4_Cross(rB, n));
            arms[0][i] = rA, arms[1][i] = rB;
        }
        if (follow) fcContacts_PatchArms(blk, arms[0], arms[1], dirs);
        // round surfaces: normal, tangents and lever arms at this substep's poses
        fcCurveNow now;
        if (blk->curve >= 0) {
            fcContacts_Curve(blk, set->curves + blk->curve, &a, &b, &now);
            fcV4 on = fcV4_Load(now.on);
            fcVec3x4 turned[3] = {fcVec3x4_Load(blk->normal[0]), fcVec3x4_Load(blk->tangent[0][0]), fcVec3x4_Load(blk->tangent[1][0])};
            for (int i = 0; i < blk->points; ++i) {
                fcContactPoint4* sp = blk->point + i;
                fcVec3x4 rA = fcVec3x4_Load(now.rA[i][0]), rB = fcVec3x4_Load(now.rB[i][0]);
                fcVec3x4_Store(sp->n.angA[0], fcVec3x4_Select(on, fcVec3x4_Cross(rA, turned[0]), fcVec3x4_Load(sp->n.angA[0])));
                fcVec3x4_Store(sp->n.angB[0], fcVec3x4_Select(on, fcVec3x4_Cross(rB, turned[0]), fcVec3x4_Load(sp->n.angB[0])));
                separation[i] = fcV4_Greater(on, zero, fcV4_Load(now.separation[i]), separation[i]);
                arms[0][i] = fcVec3x4_Select(on, rA, arms[0][i]), arms[1][i] = fcVec3x4_Select(on, rB, arms[1][i]);
            }
            // the patch at the turned directions (the lanes that do not curve: as they were)
            fcVec3x4 keptA[3], keptB[3];
            for (int k = 0; k < 3; ++k) keptA[k] = fcVec3x4_Load(blk->patch[k].angA[0]), keptB[k] = fcVec3x4_Load(blk->patch[k].angB[0]);
            fcContacts_PatchArms(blk, arms[0], arms[1], turned);
            fcVec3x4_Store(blk->patch[2].angA[0], turned[0]);
            fcVec3x4_Store(blk->patch[2].angB[0], turned[0]);
            for (int k = 0; k < 3; ++k) {
                fcContactRow4* row = blk->patch + k;
                fcVec3x4_Store(row->angA[0], fcVec3x4_Select(on, fcVec3x4_Load(row->angA[0]), keptA[k]));
                fcVec3x4_Store(row->angB[0], fcVec3x4_Select(on, fcVec3x4_Load(row->angB[0]), keptB[k]));
            }
            n = turned[0];
        }
        fcContactSpin4* spin = blk->spin >= 0 ? set->spins + blk->spin : NULL;
        if (!keep) {
            fcContacts_GatherInertia(set->solverInvInertia, blk->a, &a);
            fcContacts_GatherInertia(set->solverInvInertia, blk->b, &b);
            fcV4 lanePoints = fcV4_Load(blk->lanePoints);
            for (int i = 0; i < blk->points; ++i) {
                fcContactPoint4* sp = blk->point + i;
                fcV4 valid = fcV4_Sub(lanePoints, fcV4_Splat((fcReal)i));  // > 0: lane l has point i
                fcRow4_Prepare(&sp->n, &a, &b, massA, massB, valid);
            }
            fcContacts_PreparePatch(blk, &a, &b, massA, massB);
            if (spin) {
                fcVec3x4 axes[3] = {fcVec3x4_Load(blk->tangent[0][0]), fcVec3x4_Load(blk->tangent[1][0]), n};
                for (int k = 0; k < 3; ++k) {
                    fcVec3x4 ka = fcVec3x4_MulM(a.invInertia, axes[k]), kb = fcVec3x4_MulM(b.invInertia, axes[k]);
                    fcVec3x4_Store(spin->spinA[k][0], ka);
                    fcVec3x4_Store(spin->spinB[k][0], kb);
                    fcV4 kk = fcV4_Add(fcVec3x4_Dot(axes[k], ka), fcVec3x4_Dot(axes[k], kb));
                    fcV4_Store(spin->mass[k], fcV4_Greater(kk, zero, fcV4_Div(one, fcV4_Greater(kk, zero, kk, one)), zero));
                }
            }
        }
        if (follow) fcContacts_ChordTargets(blk, &va, &vb, h, blk->curve >= 0 ? set->curves + blk->curve : NULL);
        fcV4 restitution = fcV4_Load(blk->restitution);
        for (int i = 0; i < blk->points; ++i) {
            fcContactPoint4* sp = blk->point + i;
            fcV4 s = separation[i];
            fcV4 approach = fcRow4_Velocity(&sp->n, &n, &va, &vb, false);
            // speculative: a gap may close within the step, no further; an overlap is left to the position pass.
            // A bounce (restitution, approaching faster than the threshold, meeting within the substep) asks for
            // the velocity of the bounce (fcContacts_Bounce).
            fcV4 bias = fcV4_Greater(s, zero, fcV4_Div(fcV4_Neg(s), h), zero);
            fcV4 bounce = fcV4_Greater(restitution, zero, one, zero);
            bounce = fcV4_Greater(threshold, approach, bounce, zero);
            bounce = fcV4_Greater(zero, fcV4_Add(s, fcV4_Mul(approach, h)), bounce, zero);
            fcV4_Store(sp->bias, bias);
            fcV4_Store(sp->bounced, bounce);
            if (fcV4_MaxLane(bounce) > 0) {
                fcReal sl[FC_LANES], vl[FC_LANES];  // by memory: the clones pass vectors differently
                fcV4_Store(sl, s);
                fcV4_Store(vl, approach);
                fcContacts_Bounce(world, blk, sp, sl, vl);
                placing = fmax(placing, fcV4_MaxLane(fcV4_Load(sp->bounced)));
            }
        }
    }
    *fcContacts_Slot(task, begin, 0) = placing;
}

void fcContacts_Prepare(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    bool laidOut = set->layoutDirty;  // the step's first substep
    if (laidOut) fcContacts_Layout(world);
    memset(set->solverBodies, 0, sizeof(fcSolverBody));
    set->solverInvMass[0] = 0;
    set->solverInvInertia[0] = fcMat33_Zero();
    set->solverInertiaKept[0] = 1;
    for (int k = 1; k < set->solverBodyCount; ++k) {
        const fcBody* b = world->bodies + set->solverBodyIndex[k];
        bool dynamic = b->type == fc_dynamicBody;
        set->solverBodies[k].v = b->linearVelocity;
        set->solverBodies[k].w = b->angularVelocity;
        set->solverBodies[k].pad[0] = set->solverBodies[k].pad[1] = 0;
        set->solverInvMass[k] = dynamic ? b->invMass : 0;
        fcMat33 inertia = dynamic ? b->invInertiaWorld : fcMat33_Zero();
        // the same bits as in the last prepare (the position pass loads its own into the array's second half, so
        // that a substep after one that corrected keeps the rows too: S4's rain, every substep)
        set->solverInertiaKept[k] = memcmp(&inertia, set->solverInvInertia + k, sizeof inertia) == 0;
        set->solverInvInertia[k] = inertia;
    }
    if (laidOut) fcContacts_FindExactIslands(world);
    fcContactTask task;
    fcContacts_ForBlocks(world, fcContacts_PrepareChunk, &task);
    set->bouncesToPlace = task.max[0] > 0;
    world->stats.contactPoints = set->layoutPoints;
}

void fcContacts_StoreVelocities(fcWorld* world)
{
    const fcContactSet* set = &world->contacts;
    for (int k = 1; k < set->solverBodyCount; ++k) {
        fcBody* b = world->bodies + set->solverBodyIndex[k];
        if (b->type != fc_dynamicBody) continue;
        b->linearVelocity = set->solverBodies[k].v;
        b->angularVelocity = set->solverBodies[k].w;
    }
}

void fcContacts_LoadVelocities(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    for (int k = 1; k < set->solverBodyCount; ++k) {
        const fcBody* b = world->bodies + set->solverBodyIndex[k];
        set->solverBodies[k].v = b->linearVelocity;
        set->solverBodies[k].w = b->angularVelocity;
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// The sweeps
// ---------------------------------------------------------------------------------------------------------------------

// the warm start: every row's impulse from the last (sub)step applied once
FC_V4_INLINE void fcContacts_WarmStartBlock(const fcContactBlock* blk, const fcContactSpin4* spin, fcSolverBody* bodies)
{
    fcBody4 a, b;
    fcBody4_Gather(&a, bodies, blk->a);
    fcBody4_Gather(&b, bodies, blk->b);
    fcV4 massA = fcV4_Load(blk->invMassA), massB = fcV4_Load(blk->invMassB);
    fcVec3x4 n = fcVec3x4_Load(blk->normal[0]), t[2] = {fcVec3x4_Load(blk->tangent[0][0]), fcVec3x4_Load(blk->tangent[1][0])};
    for (int i = 0; i < blk->points; ++i) {
        const fcContactPoint4* sp = blk->point + i;
        fcRow4_Apply(&sp->n, &n, massA, massB, &a, &b, fcV4_Load(sp->normalImpulse), false);
    }
    fcRow4_Apply(&blk->patch[0], &t[0], massA, massB, &a, &b, fcV4_Load(blk->patchImpulse[0]), false);
    fcRow4_Apply(&blk->patch[1], &t[1], massA, massB, &a, &b, fcV4_Load(blk->patchImpulse[1]), false);
    fcRow4_ApplyTurn(&blk->patch[2], &a, &b, fcV4_Load(blk->patchImpulse[2]), false);
    if (spin)
        for (int d = 0; d < 3; ++d) {
            fcV4 imp = fcV4_Load(spin->impulse[d]);
            a.w = fcVec3x4_Sub(a.w, fcVec3x4_Scale(imp, fcVec3x4_Load(spin->spinA[d][0])));
            b.w = fcVec3x4_Add(b.w, fcVec3x4_Scale(imp, fcVec3x4_Load(spin->spinB[d][0])));
        }
    fcBody4_Scatter(&a, bodies, blk->writeA);
    fcBody4_Scatter(&b, bodies, blk->writeB);
}

FC_SIMD_CLONES static void fcContacts_WarmStartChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    fcContactSet* set = &task->world->contacts;
    for (int k = task->first + begin; k < task->first + end; ++k) {
        const fcContactBlock* blk = set->blocks + k;
        fcContacts_WarmStartBlock(blk, blk->spin >= 0 ? set->spins + blk->spin : NULL, set->solverBodies);
    }
}

void fcContacts_WarmStart(fcWorld* world)
{
    fcContactTask task = {.reverse = false};
    fcContacts_ForColors(world, fcContacts_WarmStartChunk, &task);
}

// one block alone in four lanes (its spin rows, if any, with it)
FC_V4_INLINE fcV4 fcContacts_SweepBlock(const fcContactTask* task, fcContactBlock* blk, bool cone, fcV4 settled, fcV4* unsettled)
{
    fcContactSet* set = &task->world->contacts;
    fcContactBlock* blks[1] = {blk};
    fcContactSpin4* spin = blk->spin >= 0 ? set->spins + blk->spin : NULL;
    return blk->still ? fcContacts_SolveBlocks4(blks, spin, set->solverBodies, cone, task->reverse, settled, unsettled, true)
                      : fcContacts_SolveBlocks4(blks, spin, set->solverBodies, cone, task->reverse, settled, unsettled, false);
}

// The sweep over a chunk's blocks, in order (backwards on odd sweeps), each alone in four lanes. Slot 0: the largest
// impulse change; slot 1: > 0 when some manifold has not settled.
FC_V4_INLINE void fcContacts_SweepBlocks(void* context, int begin, int end, bool cone)
{
    const fcContactTask* task = context;
    fcContactSet* set = &task->world->contacts;
    fcV4 largest = fcV4_Splat(0), unsettled = fcV4_Splat(-1), settled = fcV4_Splat(FC_CONTACT_SETTLED);
    int first = task->first + begin, n = end - begin;
    for (int k = 0; k < n; ++k) {
        int bi = first + (task->reverse ? n - 1 - k : k);
        largest = fcV4_Max(largest, fcContacts_SweepBlock(task, set->blocks + bi, cone, settled, &unsettled));
    }
    *fcContacts_Slot(task, begin, 0) = fcV4_MaxLane(largest);
    *fcContacts_Slot(task, begin, 1) = fcV4_MaxLane(unsettled);
}

// one copy for the friction pyramid and one for the cone: with the cone's projection in the loop, the compiler kept
// fewer of the blocks' rows and velocities in registers (spilled them) in the pyramid's too
FC_SIMD_CLONES static void fcContacts_SweepChunk(void* context, int begin, int end)
{
    if (((const fcContactTask*)context)->cone) fcContacts_SweepBlocks(context, begin, end, true);
    else fcContacts_SweepBlocks(context, begin, end, false);
}

#ifdef FC_HAVE_V8
// The same sweep where a block and the next one in the sweep's order go side by side in eight lanes when they have
// the same colour, as many points, neither resists rolling and both or neither are the ground's (side by side they
// give the bits of one after the other, so it does not matter which blocks a chunk's edges leave unpaired). Built
// for AVX-512 alone, as fcV8's join, mask test and square root are.
FC_V4_INLINE FC_SIMD_AVX512 void fcContacts_SweepBlocks8(void* context, int begin, int end, bool cone)
{
    const fcContactTask* task = context;
    fcContactSet* set = &task->world->contacts;
    fcV4 largest = fcV4_Splat(0), unsettled = fcV4_Splat(-1), settled = fcV4_Splat(FC_CONTACT_SETTLED);
    fcV8 largest8 = fcV8_Splat(0), unsettled8 = fcV8_Splat(-1), settled8 = fcV8_Splat(FC_CONTACT_SETTLED);
    int first = task->first + begin, n = end - begin;
    for (int k = 0; k < n; ++k) {
        int bi = first + (task->reverse ? n - 1 - k : k);
        fcContactBlock* blks[2] = {set->blocks + bi, NULL};
        int bj = task->reverse ? bi - 1 : bi + 1;
        if (k + 1 < n && set->blocks[task->reverse ? bj : bi].withNext && set->blocks[bj].points == blks[0]->points &&
            blks[0]->spin < 0 && set->blocks[bj].spin < 0 && set->blocks[bj].still == blks[0]->still) {
            blks[1] = set->blocks + bj;
            bool still = blks[0]->still;
            fcV8 change = still ? fcContacts_SolveBlocks8(blks, NULL, set->solverBodies, cone, task->reverse, settled8, &unsettled8, true)
                                : fcContacts_SolveBlocks8(blks, NULL, set->solverBodies, cone, task->reverse, settled8, &unsettled8, false);
            largest8 = fcV8_Max(largest8, change);
            ++k;
            continue;
        }
        largest = fcV4_Max(largest, fcContacts_SweepBlock(task, blks[0], cone, settled, &unsettled));
    }
    largest = fcV4_Max(largest, fcV4_Max(fcV8_Low(largest8), fcV8_High(largest8)));
    unsettled = fcV4_Max(unsettled, fcV4_Max(fcV8_Low(unsettled8), fcV8_High(unsettled8)));
    *fcContacts_Slot(task, begin, 0) = fcV4_MaxLane(largest);
    *fcContacts_Slot(task, begin, 1) = fcV4_MaxLane(unsettled);
}

FC_SIMD_AVX512 static void fcContacts_SweepChunk8(void* context, int begin, int end)
{
    if (((const fcContactTask*)context)->cone) fcContacts_SweepBlocks8(context, begin, end, true);
    else fcContacts_SweepBlocks8(context, begin, end, false);
}
#endif

// One projected Gauss-Seidel sweep over every block; alternate sweeps run backwards (symmetric Gauss-Seidel),
// so that no point and no contact is always first: a one-way order tilts a resting stack.
fcReal fcContacts_Sweep(fcWorld* world, int sweep, bool* settled)
{
    fcContactTask task = {.cone = world->def.frictionCone, .reverse = (sweep & 1) != 0};
    fcTaskFcn* chunk = fcContacts_SweepChunk;
#ifdef FC_HAVE_V8
    if (__builtin_cpu_supports("x86-64-v4")) chunk = fcContacts_SweepChunk8;  // eight lanes: AVX-512 only
#endif
    fcContacts_ForColors(world, chunk, &task);
    *settled = !(task.max[1] > 0);
    return task.max[0] > 0 ? task.max[0] : 0;
}

// After the sweeps of a (sub)step: the step's totals, and the residuals: complementarity
// |min(lambda_n / m_eff, J v - bias)| and how far friction exceeds its bound (the velocities are the solver
// bodies', the joints' corrections included)
// slot 0: the complementarity residual; slot 1: the friction's excess; slot 2: the largest sum of a point's total
// normal impulse and the sizes of its manifold's total friction impulses (the twist's over the arm)
FC_SIMD_CLONES static void fcContacts_FinishChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    fcWorld* world = task->world;
    fcContactSet* set = &world->contacts;
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1), worst = zero, excess = fcV4_Splat(-1), heaviest = zero;
    bool cone = world->def.frictionCone;
    fcV4 substep = fcV4_Splat(set->substep), half = fcV4_Splat(0.5), none = fcV4_Splat(-1);
    for (int bi = task->first + begin; bi < task->first + end; ++bi) {
        fcContactBlock* blk = set->blocks + bi;
        fcBody4 a, b;
        fcBody4_Gather(&a, set->solverBodies, blk->a);
        fcBody4_Gather(&b, set->solverBodies, blk->b);
        fcVec3x4 n = fcVec3x4_Load(blk->normal[0]);
        fcV4 friction = fcV4_Load(blk->friction);
        fcV4 load = zero, wish = zero;  // the manifold's sum of lambda_n and of the unclamped trials
        fcV4 pointTotal = zero;  // the largest sum of a point's total lambda_n
        for (int i = 0; i < blk->points; ++i) {
            fcContactPoint4* sp = blk->point + i;
            fcV4 lambda = fcV4_Load(sp->normalImpulse);
            load = fcV4_Add(load, lambda);
            wish = fcV4_Add(wish, fcV4_Load(sp->trialImpulse));
            fcV4 totalN = fcV4_Add(fcV4_Load(sp->totalNormalImpulse), lambda);
            fcV4_Store(sp->totalNormalImpulse, totalN);
            pointTotal = fcV4_Max(pointTotal, totalN);
            fcV4 mass = fcV4_Load(sp->n.mass);  // 0: an empty lane or point
            fcV4 gap = fcV4_Sub(fcRow4_Velocity(&sp->n, &n, &a, &b, false), fcV4_Load(sp->bias));
            fcV4 k = fcV4_Greater(mass, zero, fcV4_Div(one, fcV4_Greater(mass, zero, mass, one)), zero);
            fcV4 r = fcV4_Abs(fcV4_Min(fcV4_Mul(lambda, k), gap));
            worst = fcV4_Max(worst, fcV4_Greater(mass, zero, r, zero));
        }
        // the patch: its totals, and how far its friction lies outside its bound (the cone's ellipsoid, or the
        // pyramid's box, in units of the tangents' impulses: the twist over the arm)
        fcV4 invArm = fcV4_Load(blk->invArm), patch[3], total[3];
        for (int f = 0; f < 3; ++f) {
            patch[f] = fcV4_Load(blk->patchImpulse[f]);
            total[f] = fcV4_Add(fcV4_Load(blk->patchTotal[f]), patch[f]);
            fcV4_Store(blk->patchTotal[f], total[f]);
        }
        heaviest = fcV4_Max(heaviest, fcV4_Add(pointTotal, fcV4_Add(fcV4_Add(fcV4_Abs(total[0]), fcV4_Abs(total[1])),
                                                                     fcV4_Abs(fcV4_Mul(invArm, total[2])))));
        fcV4 tw = fcV4_Mul(invArm, patch[2]), over;
        if (cone) over = fcV4_Sqrt(fcV4_Add(fcV4_Add(fcV4_Mul(patch[0], patch[0]), fcV4_Mul(patch[1], patch[1])), fcV4_Mul(tw, tw)));
        else over = fcV4_Max(fcV4_Max(fcV4_Abs(patch[0]), fcV4_Abs(patch[1])), fcV4_Abs(tw));
        fcV4_Store(blk->patchReach, fcV4_Add(fcV4_Load(blk->patchReach), over));
        over = fcV4_Sub(over, fcV4_Mul(friction, load));
        excess = fcV4_Max(excess, fcV4_Greater(fcV4_Load(blk->lanePoints), zero, over, excess));
        // Release dating: a substep with load remembers it; the first unloaded substep after one whose trial
        // wants to pull dates the release where lambda_n, taken at the substeps' middles, crosses zero linearly
        fcV4 lastLoad = fcV4_Load(blk->load), lastSub = fcV4_Load(blk->loadSubstep), letGo = fcV4_Load(blk->letGo);
        fcV4 pulls = fcV4_Greater(lastLoad, zero, fcV4_Greater(zero, wish, one, zero), zero);
        fcV4 safe = fcV4_Greater(pulls, zero, fcV4_Sub(lastLoad, wish), one);
        fcV4 at = fcV4_Add(fcV4_Add(lastSub, half), fcV4_Mul(fcV4_Sub(substep, lastSub), fcV4_Div(lastLoad, safe)));
        at = fcV4_Max(at, zero);  // inside this step
        letGo = fcV4_Greater(load, zero, none, fcV4_Greater(pulls, zero, at, letGo));
        fcV4_Store(blk->letGo, letGo);
        fcV4_Store(blk->load, fcV4_Greater(load, zero, load, fcV4_Greater(pulls, zero, zero, lastLoad)));
        fcV4_Store(blk->loadSubstep, fcV4_Greater(load, zero, substep, lastSub));
    }
    *fcContacts_Slot(task, begin, 0) = fcV4_MaxLane(worst);
    *fcContacts_Slot(task, begin, 1) = fcV4_MaxLane(excess);
    *fcContacts_Slot(task, begin, 2) = fcV4_MaxLane(heaviest);
}

void fcContacts_Finish(fcWorld* world)
{
    fcContactTask task;
    fcContacts_ForBlocks(world, fcContacts_FinishChunk, &task);
    fcReal residual = task.max[0] > 0 ? task.max[0] : 0, frictionExcess = task.max[1];
    world->contacts.substep += 1;
    world->stats.complementarityResidual = fmax(world->stats.complementarityResidual, residual);
    world->stats.frictionResidual = fmax(world->stats.frictionResidual, frictionExcess > 0 ? frictionExcess : 0);
    world->contacts.heaviestPoint = task.max[2] > 0 ? task.max[2] : 0;  // the totals so far: the last substep's are the step's
}

// what a manifold did over the step, for fcContacts_EndStep to report
enum { FC_END_SLIP = 1, FC_END_STICK = 2, FC_END_RELEASE = 4, FC_END_BEGIN = 8 };

// A manifold's points' slipping over the whole step, and the events it reports. A point slips where its friction
// is at the bound and it slides: a frictionless contact always slides (no stick or slip to report); the sliding
// speed, compared squared (|dv|^2 - vn^2 > sliding^2), only where the friction is at its bound (a resting
// contact's is not, and the speed was most of this work). Loaded since the last step began, none at the end of
// this one, and wanting to pull: it let go. Loaded in a pair that did not touch at the step's start (a fast bounce
// never starts a step within the slop of its surface): its shapes touched in the step, a begin.
static int fcContacts_EndEvents(const fcWorld* world, const fcContact* c, fcContactManifold* m, fcReal reach)
{
    bool loaded = false;
    const fcBody* a = world->bodies + c->bodyA;
    const fcBody* b = world->bodies + c->bodyB;
    const fcReal nearly = 1 - 1e-6, sliding = 1e-4;  // at the bound; a sliding speed, m/s
    bool slipNow = false, slipBefore = false;
    fcReal load = 0;
    for (int i = 0; i < m->pointCount; ++i) load += m->points[i].totalNormalImpulse;
    // at the bound in every substep (the sum of the substeps' sizes: each on the ellipsoid of a patch that slides and
    // spins, their sum lay up to 8e-5 of it inside, and the plate of test_spinning_slide_within_the_cone never slipped)
    bool atBound = reach >= c->friction * load * nearly;
    for (int i = 0; i < m->pointCount; ++i) {
        fcContactPoint* p = m->points + i;
        p->slipping = c->friction > 0 && load > 0 && atBound;
        if (p->slipping) {
            fcVec3 dv = fcVec3_Sub(fcBody_PointVelocity(b, p->rB), fcBody_PointVelocity(a, p->rA));
            fcReal vn = fcVec3_Dot(dv, m->normal);
            p->slipping = fcVec3_Dot(dv, dv) - vn * vn > sliding * sliding;
        }
        slipNow = slipNow || p->slipping;
        loaded = loaded || p->totalNormalImpulse > 0;
        slipBefore = slipBefore || p->wasSlipping;
        p->wasSlipping = p->slipping;
    }
    int events = slipNow != slipBefore ? (slipNow ? FC_END_SLIP : FC_END_STICK) : 0;
    if (loaded && !c->touching) events |= FC_END_BEGIN;
    return events | (m->pointCount > 0 && m->letGo >= 0 ? FC_END_RELEASE : 0);
}

// the impulses of the blocks back to the points (the API's, and the warm start of the next step), and what each
// manifold has to report, while its points are in the cache
static void fcContacts_StoreImpulsesChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    const fcWorld* world = task->world;
    fcContactSet* set = &task->world->contacts;
    for (int bi = task->first + begin; bi < task->first + end; ++bi) {
        fcContacts_PrefetchManifolds(set, bi, task->first + end, true);
        fcContactBlock* blk = set->blocks + bi;
        const fcContactSpin4* spin = blk->spin >= 0 ? set->spins + blk->spin : NULL;
        for (int l = 0; l < FC_LANES; ++l) {
            fcContactManifold* m = blk->manifold[l];
            blk->endEvents[l] = 0;
            if (m == NULL) continue;
            m->letGo = blk->letGo[l];
            for (int i = 0; i < m->pointCount; ++i) {
                fcContactPoint* p = m->points + i;
                const fcContactPoint4* sp = blk->point + i;
                p->normalImpulse = sp->normalImpulse[l];
                p->trialImpulse = sp->trialImpulse[l];
                p->totalNormalImpulse = sp->totalNormalImpulse[l];
            }
            for (int f = 0; f < 3; ++f) {
                m->friction[f] = blk->patchImpulse[f][l];
                m->totalFriction[f] = blk->patchTotal[f][l];
            }
            if (spin) {
                m->rollingImpulse[0] = spin->impulse[0][l];
                m->rollingImpulse[1] = spin->impulse[1][l];
                m->twistImpulse = spin->impulse[2][l];
            }
            blk->endEvents[l] = fcContacts_EndEvents(world, blk->contact[l], m, blk->patchReach[l]);
        }
    }
}

// when in the step a manifold's nearest point closed its gap, at the step start's closing speed (0 to h)
static fcReal fcContacts_CloseTime(const fcWorld* world, const fcContact* c, const fcContactManifold* m, fcReal h)
{
    int a = c->bodyA, b = c->bodyB, k = 0;
    for (int i = 1; i < m->pointCount; ++i)
        if (m->points[i].separation < m->points[k].separation) k = i;
    const fcContactPoint* p = m->points + k;
    fcVec3 va = fcVec3_Add(world->snapshotVelocity[a], fcVec3_Cross(world->snapshotAngularVelocity[a], p->rA));
    fcVec3 vb = fcVec3_Add(world->snapshotVelocity[b], fcVec3_Cross(world->snapshotAngularVelocity[b], p->rB));
    fcReal closing = -fcVec3_Dot(fcVec3_Sub(vb, va), m->normal);
    return p->separation <= 0 ? 0 : closing * h > p->separation ? p->separation / closing : h;
}

// After the whole step: what the contacts did over it (fcContacts_EndEvents: releases dated by interpolating
// lambda between the substeps, stick and slip), reported in the blocks' order (the same for any thread count). The
// blocks hold every manifold with points of the enabled pairs, the only ones with something to report.
void fcContacts_EndStep(fcWorld* world)
{
    fcContactTask task;
    fcContacts_ForBlocks(world, fcContacts_StoreImpulsesChunk, &task);
    fcContactSet* set = &world->contacts;
    fcReal h = world->stepH;
    int substeps = world->substeps > 0 ? world->substeps : 1;
    fcReal start = world->time - h;
    for (int bi = 0; bi < set->blockCount; ++bi) {
        const fcContactBlock* blk = set->blocks + bi;
        for (int l = 0; l < FC_LANES; ++l) {
            int events = blk->endEvents[l];
            if (events == 0) continue;
            fcContact* c = blk->contact[l];
            fcContactManifold* m = blk->manifold[l];
            if ((events & FC_END_BEGIN) && !c->touching) {
                // touching from now: the next collide stage ends it when its shapes are apart (a bounce: begin, release,
                // end); the islands' and the narrowphase's flags (pairFlags) stay the collide stage's until then
                c->touching = true;
                if (fcContacts_WantsEvents(world, c)) fcEvents_ContactAt(world, fc_eventContactBegin, c, m, start + fcContacts_CloseTime(world, c, m, h));
            }
            if (events & (FC_END_SLIP | FC_END_STICK))
                fcEvents_Contact(world, events & FC_END_SLIP ? fc_eventStickToSlip : fc_eventSlipToStick, c, m);
            if (events & FC_END_RELEASE) fcEvents_ContactAt(world, fc_eventRelease, c, m, start + m->letGo * (h / substeps));
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// The position pass: overlaps deeper than the slop pushed back by a fraction beta of the excess (at most
// maxCorrection a pass), positions only. The separations are measured exactly at the poses after the
// velocity step, the rows taken along the normals at the lever arms there; then the passes sweep the blocks
// like the velocity solve, with the bodies' displacements (dx, dtheta) in the solver bodies' place, so that
// a point sees every correction made before it through J (linear in the displacements, which are small);
// the bodies move once, and the separations are measured again.
// ---------------------------------------------------------------------------------------------------------------------

// the separations at the current poses (and, with rows, the rows along the normals at the current lever
// arms); slot 0: the deepest overlap, slot 1: > 0 when a point has a bounce to place
FC_SIMD_CLONES static void fcContacts_PositionRowsChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    fcWorld* world = task->world;
    bool rows = task->rows;
    fcContactSet* set = &world->contacts;
    fcV4 deepest = fcV4_Splat(0), bounced = fcV4_Splat(0);
    for (int bi = task->first + begin; bi < task->first + end; ++bi) {
        fcContactBlock* blk = set->blocks + bi;
        fcContactPosition4* pos = set->positions + bi;
        fcSide4 a, b;
        fcContacts_GatherPose(world, blk->bodyA, &a);
        fcContacts_GatherPose(world, blk->bodyB, &b);
        if (rows) {
            const fcMat33* inertias = set->solverInvInertia + set->solverBodyCapacity;  // the position pass's
            fcContacts_GatherInertia(inertias, blk->a, &a);
            fcContacts_GatherInertia(inertias, blk->b, &b);
        } else {  // unread without rows; GCC's unswitched loop cannot tell (-Wmaybe-uninitialized)
            memset(a.invInertia, 0, sizeof a.invInertia);
            memset(b.invInertia, 0, sizeof b.invInertia);
        }
        fcV4 massA = fcV4_Load(blk->invMassA), massB = fcV4_Load(blk->invMassB);
        fcCurveNow now;
        fcV4 curved = fcV4_Splat(0);
        if (blk->curve >= 0) {
            fcContacts_Curve(blk, set->curves + blk->curve, &a, &b, &now);
            curved = fcV4_Load(now.on);
        }
        fcVec3x4 n = fcVec3x4_Load(blk->normal[0]);
        fcVec3x4 xa = {a.position[0], a.position[1], a.position[2]}, xb = {b.position[0], b.position[1], b.position[2]};
        for (int i = 0; i < blk->points; ++i) {
            const fcContactPoint4* sp = blk->point + i;
            fcVec3x4 ra = fcVec3x4_Rotate(a.orientation, fcVec3x4_Load(sp->localA[0]));
            fcVec3x4 rb = fcVec3x4_Rotate(b.orientation, fcVec3x4_Load(sp->localB[0]));
            fcVec3x4 d = fcVec3x4_Sub(fcVec3x4_Add(xb, rb), fcVec3x4_Add(xa, ra));
            fcV4 s = fcV4_Add(fcV4_Load(sp->separation), fcVec3x4_Dot(n, d));
            if (blk->curve >= 0) {
                fcV4 zero = fcV4_Splat(0);
                fcVec3x4 ca = fcVec3x4_Load(now.rA[i][0]), cb = fcVec3x4_Load(now.rB[i][0]);
                s = fcV4_Greater(curved, zero, fcV4_Load(now.separation[i]), s);
                ra.x = fcV4_Greater(curved, zero, ca.x, ra.x), ra.y = fcV4_Greater(curved, zero, ca.y, ra.y), ra.z = fcV4_Greater(curved, zero, ca.z, ra.z);
                rb.x = fcV4_Greater(curved, zero, cb.x, rb.x), rb.y = fcV4_Greater(curved, zero, cb.y, rb.y), rb.z = fcV4_Greater(curved, zero, cb.z, rb.z);
            }
            // a lane with fewer points has no point i: its slot's stale anchors would measure the distance
            // between the bodies' origins, a false overlap that the stat reported and the passes chased
            fcV4 live = fcV4_Sub(fcV4_Load(blk->lanePoints), fcV4_Splat((fcReal)i));
            s = fcV4_Greater(live, fcV4_Splat(0), s, fcV4_Splat(0));
            fcV4_Store(pos->separation[i], s);
            deepest = fcV4_Max(deepest, fcV4_Neg(s));
            bounced = fcV4_Max(bounced, fcV4_Load(sp->bounced));
            if (!rows) continue;
            fcVec3x4_Store(pos->row[i].angA[0], fcVec3x4_Cross(ra, n));
            fcVec3x4_Store(pos->row[i].angB[0], fcVec3x4_Cross(rb, n));
            fcRow4_Prepare(&pos->row[i], &a, &b, massA, massB, live);
        }
    }
    *fcContacts_Slot(task, begin, 0) = fcV4_MaxLane(deepest);
    *fcContacts_Slot(task, begin, 1) = fcV4_MaxLane(bounced);
}

// The tangents of the curved blocks turned once more: a position pass that measured first without rows and then
// with them measured the round surfaces twice, which gives the same normals, separations and lever arms but turns
// the tangents twice (their round-off differs); a pass that built the rows at once repeats it, for the same bits
static void fcContacts_CurveTangentsChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    fcContactSet* set = &task->world->contacts;
    for (int bi = task->first + begin; bi < task->first + end; ++bi) {
        fcContactBlock* blk = set->blocks + bi;
        if (blk->curve < 0) continue;
        fcReal on[FC_LANES];
        for (int l = 0; l < FC_LANES; ++l) on[l] = set->curves[blk->curve].kind[l] != fc_curveNone;
        fcContacts_CurveTangents(blk, on);
    }
}

static fcReal fcContacts_PositionRows(fcWorld* world, bool rows, bool* bounces)
{
    fcContactTask task = {.rows = rows};
    fcContacts_ForBlocks(world, fcContacts_PositionRowsChunk, &task);
    *bounces = task.max[1] > 0;
    return task.max[0] > 0 ? task.max[0] : 0;
}

// one pass of corrections added to the solver bodies (v: dx, w: dtheta); slot 0: > 0 when a point was corrected
FC_SIMD_CLONES static void fcContacts_PositionSweepChunk(void* context, int begin, int end)
{
    const fcContactTask* task = context;
    fcWorld* world = task->world;
    fcContactSet* set = &world->contacts;
    fcV4 zero = fcV4_Splat(0), one = fcV4_Splat(1), moved = zero;
    fcV4 slop = fcV4_Splat(-world->def.contactSlop);
    fcV4 beta = fcV4_Splat(0.2), maxCorrection = fcV4_Splat(-0.2);
    for (int bi = task->first + begin; bi < task->first + end; ++bi) {
        fcContactBlock* blk = set->blocks + bi;
        const fcContactPosition4* pos = set->positions + bi;
        fcBody4 a, b;
        fcBody4_Gather(&a, set->solverBodies, blk->a);
        fcBody4_Gather(&b, set->solverBodies, blk->b);
        fcV4 massA = fcV4_Load(blk->invMassA), massB = fcV4_Load(blk->invMassB);
        // the normal displacement n . (dx_b - dx_a) carried through the rows, dx moved once after them (as in the sweep)
        fcVec3x4 n = fcVec3x4_Load(blk->normal[0]);
        fcV4 along = fcVec3x4_Dot(n, fcVec3x4_Sub(b.v, a.v)), mass = fcV4_Add(massA, massB), sum = zero;
        for (int i = 0; i < blk->points; ++i) {
            fcContactPoint4* sp = blk->point + i;
            const fcContactRow4* row = pos->row + i;
            fcV4 s = fcV4_Add(fcV4_Load(pos->separation[i]), fcV4_Add(along, fcRow4_Turn(row, &a, &b, false)));
            // an overlap past the slop: beta of the excess, at most maxCorrection
            fcV4 error = fcV4_Sub(s, slop);
            fcV4 overlap = fcV4_Greater(zero, error, one, zero);
            fcV4 correction = fcV4_Greater(overlap, zero, fcV4_Max(fcV4_Mul(beta, error), maxCorrection), zero);
            // a bounce that started before the surfaces met: put the body where the bounce would have taken it
            // from the moment of impact (the velocity is already the bounced one); once
            fcV4 bounce = fcV4_Load(sp->bounced);
            correction = fcV4_Greater(bounce, zero, fcV4_Sub(s, fcV4_Load(sp->bounceTarget)), correction);
            fcV4_Store(sp->bounced, zero);
            moved = fcV4_Max(moved, fcV4_Max(overlap, bounce));
            fcV4 impulse = fcV4_Neg(fcV4_Mul(correction, fcV4_Load(row->mass)));
            fcRow4_ApplyTurn(row, &a, &b, impulse, false);
            along = fcV4_Add(along, fcV4_Mul(mass, impulse));
            sum = fcV4_Add(sum, impulse);
        }
        fcVec3x4 p = fcVec3x4_Scale(sum, n);
        fcRow4_ApplyLinear(&p, massA, massB, &a, &b, false);
        fcBody4_Scatter(&a, set->solverBodies, blk->writeA);
        fcBody4_Scatter(&b, set->solverBodies, blk->writeB);
    }
    *fcContacts_Slot(task, begin, 0) = fcV4_MaxLane(moved);
}

static bool fcContacts_PositionSweep(fcWorld* world)
{
    fcContactTask task = {.reverse = false};
    fcContacts_ForColors(world, fcContacts_PositionSweepChunk, &task);
    return task.max[0] > 0;
}

// the inverse inertias of the moving solver bodies from their bodies' current orientations
static void fcContacts_LoadInertias(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    fcMat33* inertias = set->solverInvInertia + set->solverBodyCapacity;
    inertias[0] = fcMat33_Zero();
    for (int k = 1; k < set->solverBodyCount; ++k) inertias[k] = world->bodies[set->solverBodyIndex[k]].invInertiaWorld;
}

// Once a step, after its last substep: an overlap a substep leaves is measured again at the next one's poses
// (its bias asks for no approach) and corrected with the step's; only a bounce that began before the surfaces met
// is placed at the end of its own substep (its target is that substep's). S4: 35 % of the pass's time, and the
// poses' deepest overlap 3.5 -> 2.8 cm (S7's 9.4 -> 4.4 cm).
void fcContacts_SolvePositions(fcWorld* world, bool last)
{
    fcContactSet* set = &world->contacts;
    if (!last && !set->bouncesToPlace) return;
    // no overlap past the slop and no bounce to place (a resting stack, most substeps): nothing to correct, and
    // the rows need not be built (the first pass would correct nothing). A substep after one that corrected (a
    // rain, an impact) likely corrects too: its rows are built by the pass that measures, not by a second one
    // (the same numbers either way)
    bool bounces = false, rows = set->positionsCorrected;
    if (rows) fcContacts_LoadInertias(world);
    fcReal deepest = fcContacts_PositionRows(world, rows, &bounces);
    set->positionsCorrected = deepest > world->def.contactSlop || bounces;
    if (!set->positionsCorrected) {
        world->stats.maxPenetration = fmax(world->stats.maxPenetration, deepest);
        return;
    }
    if (!rows) {
        fcContacts_LoadInertias(world);
        deepest = fcContacts_PositionRows(world, true, &bounces);
    } else if (set->curveCount > 0) {
        fcContactTask task;
        fcContacts_ForBlocks(world, fcContacts_CurveTangentsChunk, &task);
    }
    memset(set->solverBodies, 0, sizeof(fcSolverBody) * (size_t)set->solverBodyCount);
    bool moved = false;
    for (int it = 0; it < world->def.contactPositionIterations; ++it) {
        if (!fcContacts_PositionSweep(world)) break;  // nothing to correct: the later passes would do the same
        moved = true;
    }
    if (moved) {
        for (int k = 1; k < set->solverBodyCount; ++k) {
            fcBody* b = world->bodies + set->solverBodyIndex[k];
            fcVec3 dx = set->solverBodies[k].v, dq = set->solverBodies[k].w;
            if (b->type != fc_dynamicBody || (fcVec3_Dot(dx, dx) == 0 && fcVec3_Dot(dq, dq) == 0)) continue;
            b->position = fcVec3_Add(b->position, dx);
            b->orientation = fcQuat_Renormalize(fcQuat_Mul(fcQuat_FromRotationVector(dq), b->orientation));
            fcBody_UpdateInverseInertia(b);
        }
        deepest = fcContacts_PositionRows(world, false, &bounces);
    }
    world->stats.maxPenetration = fmax(world->stats.maxPenetration, deepest);
}
