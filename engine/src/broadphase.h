// SPDX-License-Identifier: MIT
// The broadphase: dynamic AABB trees (one for static proxies, one for moving ones) over fattened boxes, so that
// a body that moves a little costs nothing, and the pairs of proxies whose fat boxes begin to overlap.
#ifndef FC_BROADPHASE_H
#define FC_BROADPHASE_H

#include "collide.h"

// The proxy's box is the tight box grown by this margin on every side (m), and along its displacement.
#define FC_AABB_MARGIN ((fcReal)0.1)

typedef struct fcTreeNode {
    fcAabb box;
    int parent;       // also the free-list link
    int child1, child2;  // -1 for a leaf
    int height;       // leaf 0, free -1
    int userIndex;    // leaf: the shape index
    bool moved;       // leaf: enlarged since the last pair update
} fcTreeNode;

typedef struct fcAabbTree {
    fcTreeNode* nodes;
    int capacity, count, root, freeList;
} fcAabbTree;

typedef struct fcBroadphase {
    fcAabbTree trees[2];  // [0] static proxies, [1] kinematic and dynamic
    int* moveBuffer;      // proxies enlarged since the last pair update
    int moveCount, moveCapacity;
} fcBroadphase;

// A proxy handle: tree in the low bit, node index above it.
void fcBroadphase_Init(fcBroadphase* bp);
void fcBroadphase_Free(fcBroadphase* bp);
int fcBroadphase_CreateProxy(fcBroadphase* bp, fcAabb tight, int userIndex, bool isStatic);
void fcBroadphase_DestroyProxy(fcBroadphase* bp, int proxy);
// The shape moved: when its tight box leaves the fat box the proxy is refitted (fattened by the margin and
// stretched along displacement, the motion of the last step) and queued for the next pair update. Returns
// true when it was refitted.
bool fcBroadphase_MoveProxy(fcBroadphase* bp, int proxy, fcAabb tight, fcVec3 displacement);
// Queue a proxy for the next pair update without moving it (its pairs are looked for again, e.g. after the
// joint that kept two bodies from colliding is gone).
void fcBroadphase_Touch(fcBroadphase* bp, int proxy);
fcAabb fcBroadphase_GetFatAabb(const fcBroadphase* bp, int proxy);
int fcBroadphase_GetUserIndex(const fcBroadphase* bp, int proxy);
// Touching boxes count as overlapping, so that a pair at exactly zero gap is not lost to rounding.
static inline bool fcBroadphase_BoxesOverlap(fcAabb a, fcAabb b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}
static inline bool fcBroadphase_BoxContains(fcAabb outer, fcAabb inner)
{
    return outer.lo.x <= inner.lo.x && outer.lo.y <= inner.lo.y && outer.lo.z <= inner.lo.z &&
           inner.hi.x <= outer.hi.x && inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z;
}
// Whether fcBroadphase_MoveProxy(bp, proxy, tight, ...) would refit the proxy; read-only, for a parallel pass.
static inline bool fcBroadphase_ProxyHolds(const fcBroadphase* bp, int proxy, fcAabb tight)
{
    return fcBroadphase_BoxContains(bp->trees[proxy & 1].nodes[proxy >> 1].box, tight);
}
// Inline: the narrowphase asks it of every pair every step. A proxy handle: the tree in its low bit, the node above.
static inline bool fcBroadphase_TestOverlap(const fcBroadphase* bp, int proxyA, int proxyB)
{
    return fcBroadphase_BoxesOverlap(bp->trees[proxyA & 1].nodes[proxyA >> 1].box, bp->trees[proxyB & 1].nodes[proxyB >> 1].box);
}

// Every pair whose fat boxes overlap and of which at least one proxy was queued since the last call, each
// pair once (userA != userB; static-static never). Empties the queue.
typedef void fcPairFcn(int userA, int userB, void* context);
void fcBroadphase_UpdatePairs(fcBroadphase* bp, fcPairFcn* fcn, void* context);

// Proxies whose fat boxes overlap box; return false from fcn to stop.
typedef bool fcTreeQueryFcn(int proxy, int userIndex, void* context);
void fcBroadphase_Query(const fcBroadphase* bp, fcAabb box, fcTreeQueryFcn* fcn, void* context);
// the same over the static proxies only
void fcBroadphase_QueryStatic(const fcBroadphase* bp, fcAabb box, fcTreeQueryFcn* fcn, void* context);
// Proxies whose fat boxes the segment origin + t translation, t in [0, maxFraction], crosses, nearest boxes
// first where cheap. fcn returns the new maxFraction: the hit's fraction to clip the ray (closest hit), the
// old value to go on (all hits), 0 to stop.
typedef fcReal fcTreeRayFcn(int proxy, int userIndex, fcVec3 origin, fcVec3 translation, fcReal maxFraction, void* context);
void fcBroadphase_RayCast(const fcBroadphase* bp, fcVec3 origin, fcVec3 translation, fcReal maxFraction,
                          fcTreeRayFcn* fcn, void* context);
// Tree quality, for tests and the benchmark: height of each tree and whether every parent box holds its
// children and every height is consistent.
int fcBroadphase_GetHeight(const fcBroadphase* bp, int tree);
bool fcBroadphase_Validate(const fcBroadphase* bp);

#endif
