// SPDX-License-Identifier: MIT
// The broadphase: two incremental AABB trees (static, moving), height-balanced with surface-area insertion
// and rotations, a move buffer, and the pair, box and ray queries over them.
#include "broadphase.h"

#include "core.h"

#include <string.h>

#define FC_NULL_NODE (-1)

// A proxy handle keeps the tree in its low bit so that one int names a leaf in either tree.
static int fcProxy_Make(int tree, int node) { return (node << 1) | tree; }
static int fcProxy_Tree(int proxy) { return proxy & 1; }
static int fcProxy_Node(int proxy) { return proxy >> 1; }

// Box helpers -------------------------------------------------------------------------------------------------------

static fcReal fcMin(fcReal a, fcReal b) { return a < b ? a : b; }
static fcReal fcMax(fcReal a, fcReal b) { return a > b ? a : b; }
static int fcMaxInt(int a, int b) { return a > b ? a : b; }

static fcAabb fcBox_Union(fcAabb a, fcAabb b)
{
    fcAabb c = {{fcMin(a.lo.x, b.lo.x), fcMin(a.lo.y, b.lo.y), fcMin(a.lo.z, b.lo.z)},
                {fcMax(a.hi.x, b.hi.x), fcMax(a.hi.y, b.hi.y), fcMax(a.hi.z, b.hi.z)}};
    return c;
}

// Half the surface area: the surface-area heuristic only compares areas, so the factor 2 is dropped.
static fcReal fcBox_Area(fcAabb b)
{
    fcReal dx = b.hi.x - b.lo.x, dy = b.hi.y - b.lo.y, dz = b.hi.z - b.lo.z;
    return dx * dy + dy * dz + dz * dx;
}

static fcAabb fcBox_Fatten(fcAabb tight, fcVec3 displacement)
{
    fcReal m = FC_AABB_MARGIN;
    fcAabb b = {{tight.lo.x - m, tight.lo.y - m, tight.lo.z - m}, {tight.hi.x + m, tight.hi.y + m, tight.hi.z + m}};
    // Stretching only on the side the shape moves towards predicts the next step's sweep without
    // penalising the side it leaves.
    if (displacement.x < 0) b.lo.x += displacement.x; else b.hi.x += displacement.x;
    if (displacement.y < 0) b.lo.y += displacement.y; else b.hi.y += displacement.y;
    if (displacement.z < 0) b.lo.z += displacement.z; else b.hi.z += displacement.z;
    return b;
}

// One slab of the ray-box test: narrows [*t0, *t1]. A zero direction component is handled explicitly, since
// 0 * inf would make NaN when the origin lies on the slab's face.
static bool fcSlab(fcReal lo, fcReal hi, fcReal o, fcReal d, fcReal inv, fcReal* t0, fcReal* t1)
{
    if (d == 0) return lo <= o && o <= hi;
    fcReal ta = (lo - o) * inv, tb = (hi - o) * inv;
    if (ta > tb) { fcReal s = ta; ta = tb; tb = s; }
    if (ta > *t0) *t0 = ta;
    if (tb < *t1) *t1 = tb;
    return *t0 <= *t1;
}

typedef struct fcRay { fcVec3 o, d, inv; } fcRay;

// Entry fraction of the segment into b, clipped to [0, maxFraction]; false when it misses. Rounding is monotone
// in the box bounds, so a box that contains another is never missed when the inner one is hit.
static bool fcRay_Box(const fcRay* r, fcAabb b, fcReal maxFraction, fcReal* enter)
{
    fcReal t0 = 0, t1 = maxFraction;
    if (!fcSlab(b.lo.x, b.hi.x, r->o.x, r->d.x, r->inv.x, &t0, &t1)) return false;
    if (!fcSlab(b.lo.y, b.hi.y, r->o.y, r->d.y, r->inv.y, &t0, &t1)) return false;
    if (!fcSlab(b.lo.z, b.hi.z, r->o.z, r->d.z, r->inv.z, &t0, &t1)) return false;
    *enter = t0;
    return true;
}

// Traversal stack ---------------------------------------------------------------------------------------------------

// A depth-first walk holds at most one pending sibling per level, and the trees are height-balanced (23 levels
// for 10000 leaves), so the local buffer covers any realistic size; the heap is only a fallback.
typedef struct fcStackItem { int tree, node; fcReal t; } fcStackItem;
typedef struct fcStack {
    fcStackItem* items;
    int count, capacity;
    fcStackItem local[96];
} fcStack;

static void fcStack_Init(fcStack* s)
{
    s->items = s->local;
    s->count = 0;
    s->capacity = (int)(sizeof s->local / sizeof s->local[0]);
}

static void fcStack_Push(fcStack* s, int tree, int node, fcReal t)
{
    if (s->count == s->capacity) {
        int capacity = 2 * s->capacity;
        if (s->items == s->local) {
            fcStackItem* items = fcAlloc((size_t)capacity * sizeof *items);
            memcpy(items, s->local, sizeof s->local);
            s->items = items;
        } else {
            s->items = fcRealloc(s->items, (size_t)capacity * sizeof *s->items);
        }
        s->capacity = capacity;
    }
    fcStackItem it = {tree, node, t};
    s->items[s->count++] = it;
}

static void fcStack_Free(fcStack* s)
{
    if (s->items != s->local) fcFree(s->items);
}

// Tree --------------------------------------------------------------------------------------------------------------

static void fcTree_Init(fcAabbTree* t)
{
    t->nodes = NULL;
    t->capacity = t->count = 0;
    t->root = t->freeList = FC_NULL_NODE;
}

static bool fcNode_IsLeaf(const fcTreeNode* n) { return n->child1 == FC_NULL_NODE; }

static int fcTree_AllocNode(fcAabbTree* t)
{
    if (t->freeList == FC_NULL_NODE) {
        // Grow by doubling; callers keep indices, never pointers, across this call.
        int old = t->capacity, capacity = old ? 2 * old : 16;
        t->nodes = fcRealloc(t->nodes, (size_t)capacity * sizeof *t->nodes);
        for (int i = capacity - 1; i >= old; --i) {
            fcTreeNode* n = &t->nodes[i];
            memset(n, 0, sizeof *n);
            n->parent = t->freeList;
            n->child1 = n->child2 = FC_NULL_NODE;
            n->height = -1;
            n->userIndex = -1;
            t->freeList = i;
        }
        t->capacity = capacity;
    }
    int i = t->freeList;
    fcTreeNode* n = &t->nodes[i];
    t->freeList = n->parent;
    n->parent = n->child1 = n->child2 = FC_NULL_NODE;
    n->height = 0;
    n->userIndex = -1;
    n->moved = false;
    t->count++;
    return i;
}

static void fcTree_FreeNode(fcAabbTree* t, int i)
{
    fcTreeNode* n = &t->nodes[i];
    n->parent = t->freeList;
    n->child1 = n->child2 = FC_NULL_NODE;
    n->height = -1;
    n->userIndex = -1;
    n->moved = false;
    t->freeList = i;
    t->count--;
}

static void fcTree_Refit(fcAabbTree* t, int i)
{
    fcTreeNode* n = t->nodes;
    int a = n[i].child1, b = n[i].child2;
    n[i].box = fcBox_Union(n[a].box, n[b].box);
    n[i].height = 1 + fcMaxInt(n[a].height, n[b].height);
}

static void fcTree_ReplaceChild(fcAabbTree* t, int parent, int oldChild, int newChild)
{
    if (parent == FC_NULL_NODE) {
        t->root = newChild;
    } else if (t->nodes[parent].child1 == oldChild) {
        t->nodes[parent].child1 = newChild;
    } else {
        t->nodes[parent].child2 = newChild;
    }
    t->nodes[newChild].parent = parent;
}

// How far the heights of two siblings may differ. Strict AVL (1) keeps the tree shortest, but its forced
// rotations move subtrees by height alone and, on random boxes, tripled the summed node area (and the cost of
// a pair update); 2 still bounds the height by 1.81 log2(n) (23 for 10000 leaves) and leaves room for the
// area-reducing rotations below.
#define FC_TREE_SLACK 2

static bool fcWithinSlack(int ha, int hb) { return ha - hb <= FC_TREE_SLACK && hb - ha <= FC_TREE_SLACK; }

// Restores the height condition at internal node a, whose two subtrees already meet it, and refits a. Returns
// the node now in a's place. The taller child c is lifted into a's place and one of c's children x moves down
// beside a's other child b (a spatial tree has no child order, so either child may move): the shorter one
// always works, the taller one too when the two differ by less than the slack, and then the smaller box
// decides. When b and x still differ too much (a leaf inserted high up) the demoted node is balanced the same
// way, one level further down each time. The result is max(child heights) or one more, so an ancestor is never
// more than one level further out of balance than before, and the walk up repairs it.
static int fcTree_Balance(fcAabbTree* t, int a)
{
    fcTreeNode* n = t->nodes;
    int b = n[a].child1, c = n[a].child2;
    if (n[b].height > n[c].height) { int s = b; b = c; c = s; }
    if (fcWithinSlack(n[b].height, n[c].height)) {
        fcTree_Refit(t, a);
        return a;
    }
    int f = n[c].child1, g = n[c].child2;
    int hf = n[f].height, hg = n[g].height;
    int down;
    if (hf + 1 - hg <= FC_TREE_SLACK && hg + 1 - hf <= FC_TREE_SLACK) {
        down = fcBox_Area(fcBox_Union(n[b].box, n[f].box)) <= fcBox_Area(fcBox_Union(n[b].box, n[g].box)) ? f : g;
    } else {
        down = hf < hg ? f : g;
    }
    int up = down == f ? g : f;

    fcTree_ReplaceChild(t, n[a].parent, a, c);
    n[a].child1 = b;
    n[a].child2 = down;
    n[down].parent = a;
    n[c].child1 = a;
    n[c].child2 = up;
    n[a].parent = c;
    fcTree_Balance(t, a);
    fcTree_Refit(t, c);
    return c;
}

// Height alone says nothing about box quality, and incremental insertion leaves poor groupings behind: at
// each node on the way up, swap one child with a grandchild on the other side when that shrinks the box it
// joins most, and the heights stay within the slack.
static bool fcTree_Rotate(fcAabbTree* t, int a)
{
    fcTreeNode* n = t->nodes;
    fcReal bestGain = 0;
    int bestStay = FC_NULL_NODE, bestUp = FC_NULL_NODE;
    for (int side = 0; side < 2; ++side) {
        int stay = side ? n[a].child2 : n[a].child1;  // moves down into the other child
        int other = side ? n[a].child1 : n[a].child2;
        if (fcNode_IsLeaf(&n[other])) continue;
        fcReal area = fcBox_Area(n[other].box);
        for (int k = 0; k < 2; ++k) {
            int up = k ? n[other].child2 : n[other].child1;
            int keep = k ? n[other].child1 : n[other].child2;
            int h = 1 + fcMaxInt(n[stay].height, n[keep].height);
            if (!fcWithinSlack(n[stay].height, n[keep].height) || !fcWithinSlack(n[up].height, h)) continue;
            fcReal gain = area - fcBox_Area(fcBox_Union(n[stay].box, n[keep].box));
            if (gain > bestGain) {
                bestGain = gain;
                bestStay = stay;
                bestUp = up;
            }
        }
    }
    if (bestStay == FC_NULL_NODE) return false;
    int other = n[bestUp].parent;
    if (n[a].child1 == bestStay) n[a].child1 = bestUp; else n[a].child2 = bestUp;
    if (n[other].child1 == bestUp) n[other].child1 = bestStay; else n[other].child2 = bestStay;
    n[bestUp].parent = a;
    n[bestStay].parent = other;
    fcTree_Refit(t, other);
    fcTree_Refit(t, a);
    return true;
}

static bool fcBox_Equal(fcAabb a, fcAabb b)
{
    return a.lo.x == b.lo.x && a.lo.y == b.lo.y && a.lo.z == b.lo.z && a.hi.x == b.hi.x && a.hi.y == b.hi.y &&
           a.hi.z == b.hi.z;
}

// The walk stops at the first node that comes out as it was (same box, same height, nothing moved under it): the
// nodes above it are already consistent, and a leaf moving inside its old ancestors' boxes (the common reinsertion)
// no longer refits, balances and tries rotations all the way to the root (in the S4 rain, 7000 instructions a
// reinsertion). A fresh parent (insertion) has no old state and never stops the walk.
static void fcTree_BalanceUp(fcAabbTree* t, int i, bool fresh)
{
    while (i != FC_NULL_NODE) {
        fcAabb box = t->nodes[i].box;
        int height = t->nodes[i].height;
        int j = fcTree_Balance(t, i);
        bool rotated = fcTree_Rotate(t, j);
        const fcTreeNode* n = t->nodes + j;
        if (!fresh && j == i && !rotated && n->height == height && fcBox_Equal(n->box, box)) return;
        fresh = false;
        i = n->parent;
    }
}

// The sibling for a new leaf by surface-area descent. Placing the leaf beside node i costs the new parent's
// area plus the growth of every ancestor (carried down as inherited). Going into a child can cost no less than
// that child's growth plus a new node at least as large as the leaf, so the descent stops when pairing here
// is no dearer than that bound for both children.
static int fcTree_PickSibling(const fcAabbTree* t, fcAabb box)
{
    const fcTreeNode* n = t->nodes;
    fcReal leafArea = fcBox_Area(box);
    fcReal inherited = 0;
    int i = t->root;
    while (!fcNode_IsLeaf(&n[i])) {
        fcReal area = fcBox_Area(n[i].box);
        fcReal combined = fcBox_Area(fcBox_Union(n[i].box, box));
        fcReal here = combined + inherited;
        fcReal below = inherited + (combined - area);
        fcReal cost[2];
        int child[2] = {n[i].child1, n[i].child2};
        for (int k = 0; k < 2; ++k) {
            const fcTreeNode* ch = &n[child[k]];
            fcReal grown = fcBox_Area(fcBox_Union(ch->box, box));
            cost[k] = fcNode_IsLeaf(ch) ? below + grown : below + (grown - fcBox_Area(ch->box)) + leafArea;
        }
        if (here <= cost[0] && here <= cost[1]) break;
        inherited = below;
        i = cost[0] <= cost[1] ? child[0] : child[1];
    }
    return i;
}

static void fcTree_InsertLeaf(fcAabbTree* t, int leaf)
{
    if (t->root == FC_NULL_NODE) {
        t->root = leaf;
        t->nodes[leaf].parent = FC_NULL_NODE;
        return;
    }
    int sibling = fcTree_PickSibling(t, t->nodes[leaf].box);
    int parent = fcTree_AllocNode(t);  // may move t->nodes
    fcTreeNode* n = t->nodes;
    int oldParent = n[sibling].parent;
    n[parent].child1 = sibling;
    n[parent].child2 = leaf;
    n[sibling].parent = parent;
    n[leaf].parent = parent;
    fcTree_ReplaceChild(t, oldParent, sibling, parent);
    fcTree_BalanceUp(t, parent, true);
}

static void fcTree_RemoveLeaf(fcAabbTree* t, int leaf)
{
    fcTreeNode* n = t->nodes;
    if (leaf == t->root) {
        t->root = FC_NULL_NODE;
        return;
    }
    int parent = n[leaf].parent;
    int grand = n[parent].parent;
    int sibling = n[parent].child1 == leaf ? n[parent].child2 : n[parent].child1;
    fcTree_ReplaceChild(t, grand, parent, sibling);
    fcTree_FreeNode(t, parent);
    n[leaf].parent = FC_NULL_NODE;
    fcTree_BalanceUp(t, grand, false);
}

// Subtree check for Validate: returns the number of nodes under i (i included), or -1 on the first fault.
static int fcTree_ValidateNode(const fcAabbTree* t, int i, int parent, int depth)
{
    if (i < 0 || i >= t->capacity || depth > t->count) return -1;
    const fcTreeNode* n = &t->nodes[i];
    if (n->parent != parent || n->height < 0) return -1;
    if (fcNode_IsLeaf(n)) return n->child2 == FC_NULL_NODE && n->height == 0 ? 1 : -1;
    if (n->moved) return -1;
    int a = n->child1, b = n->child2;
    if (b < 0 || b >= t->capacity || a == b) return -1;
    int ca = fcTree_ValidateNode(t, a, i, depth + 1);
    if (ca < 0) return -1;
    int cb = fcTree_ValidateNode(t, b, i, depth + 1);
    if (cb < 0) return -1;
    const fcTreeNode* na = &t->nodes[a];
    const fcTreeNode* nb = &t->nodes[b];
    int h = 1 + fcMaxInt(na->height, nb->height);
    if (n->height != h || !fcBroadphase_BoxContains(n->box, na->box) || !fcBroadphase_BoxContains(n->box, nb->box)) return -1;
    return 1 + ca + cb;
}

static bool fcTree_Validate(const fcAabbTree* t)
{
    if (t->count < 0 || t->count > t->capacity) return false;
    int reached = 0;
    if (t->root != FC_NULL_NODE) {
        reached = fcTree_ValidateNode(t, t->root, FC_NULL_NODE, 0);
        if (reached < 0) return false;
    }
    if (reached != t->count) return false;
    int free = 0;
    for (int i = t->freeList; i != FC_NULL_NODE; i = t->nodes[i].parent) {
        if (i < 0 || i >= t->capacity || free >= t->capacity || t->nodes[i].height != -1) return false;
        free++;
    }
    return free + t->count == t->capacity;
}

// Broadphase --------------------------------------------------------------------------------------------------------

void fcBroadphase_Init(fcBroadphase* bp)
{
    fcTree_Init(&bp->trees[0]);
    fcTree_Init(&bp->trees[1]);
    bp->moveBuffer = NULL;
    bp->moveCount = bp->moveCapacity = 0;
}

void fcBroadphase_Free(fcBroadphase* bp)
{
    fcFree(bp->trees[0].nodes);
    fcFree(bp->trees[1].nodes);
    fcFree(bp->moveBuffer);
    fcBroadphase_Init(bp);
}

static fcTreeNode* fcBroadphase_Leaf(const fcBroadphase* bp, int proxy)
{
    return &bp->trees[fcProxy_Tree(proxy)].nodes[fcProxy_Node(proxy)];
}

static void fcBroadphase_Queue(fcBroadphase* bp, int proxy)
{
    fcTreeNode* n = fcBroadphase_Leaf(bp, proxy);
    if (n->moved) return;
    if (bp->moveCount == bp->moveCapacity) {
        bp->moveCapacity = bp->moveCapacity ? 2 * bp->moveCapacity : 16;
        bp->moveBuffer = fcRealloc(bp->moveBuffer, (size_t)bp->moveCapacity * sizeof *bp->moveBuffer);
    }
    bp->moveBuffer[bp->moveCount++] = proxy;
    n->moved = true;
}

void fcBroadphase_Touch(fcBroadphase* bp, int proxy) { fcBroadphase_Queue(bp, proxy); }

int fcBroadphase_CreateProxy(fcBroadphase* bp, fcAabb tight, int userIndex, bool isStatic)
{
    int tree = isStatic ? 0 : 1;
    fcAabbTree* t = &bp->trees[tree];
    int leaf = fcTree_AllocNode(t);
    fcTreeNode* n = &t->nodes[leaf];
    n->box = fcBox_Fatten(tight, fcV3(0, 0, 0));
    n->userIndex = userIndex;
    fcTree_InsertLeaf(t, leaf);
    int proxy = fcProxy_Make(tree, leaf);
    // A new proxy must find what it already overlaps, so it is queued like a moved one.
    fcBroadphase_Queue(bp, proxy);
    return proxy;
}

void fcBroadphase_DestroyProxy(fcBroadphase* bp, int proxy)
{
    fcAabbTree* t = &bp->trees[fcProxy_Tree(proxy)];
    int leaf = fcProxy_Node(proxy);
    if (t->nodes[leaf].moved) {
        // Rare enough (a shape destroyed in the step it moved) that a linear search beats a back index per node.
        for (int k = 0; k < bp->moveCount; ++k) {
            if (bp->moveBuffer[k] == proxy) {
                bp->moveBuffer[k] = bp->moveBuffer[--bp->moveCount];
                break;
            }
        }
    }
    fcTree_RemoveLeaf(t, leaf);
    fcTree_FreeNode(t, leaf);
}

bool fcBroadphase_MoveProxy(fcBroadphase* bp, int proxy, fcAabb tight, fcVec3 displacement)
{
    fcAabbTree* t = &bp->trees[fcProxy_Tree(proxy)];
    int leaf = fcProxy_Node(proxy);
    if (fcBroadphase_BoxContains(t->nodes[leaf].box, tight)) return false;
    fcTree_RemoveLeaf(t, leaf);
    t->nodes[leaf].box = fcBox_Fatten(tight, displacement);
    fcTree_InsertLeaf(t, leaf);
    fcBroadphase_Queue(bp, proxy);
    return true;
}

fcAabb fcBroadphase_GetFatAabb(const fcBroadphase* bp, int proxy) { return fcBroadphase_Leaf(bp, proxy)->box; }

int fcBroadphase_GetUserIndex(const fcBroadphase* bp, int proxy) { return fcBroadphase_Leaf(bp, proxy)->userIndex; }

void fcBroadphase_UpdatePairs(fcBroadphase* bp, fcPairFcn* fcn, void* context)
{
    fcStack stack;
    fcStack_Init(&stack);
    for (int k = 0; k < bp->moveCount; ++k) {
        int query = bp->moveBuffer[k];
        const fcTreeNode* q = fcBroadphase_Leaf(bp, query);
        fcAabb box = q->box;
        int user = q->userIndex;
        // Static proxies only ever pair with moving ones; moving proxies with both.
        // a node is pushed only when its box overlaps the query's (the same visiting order as testing it when popped,
        // without the pushes and pops of the boxes that miss: half of those of a pile's queries)
        stack.count = 0;
        for (int tree = 1; tree >= (fcProxy_Tree(query) ? 0 : 1); --tree) {
            int root = bp->trees[tree].root;
            if (root != FC_NULL_NODE && fcBroadphase_BoxesOverlap(bp->trees[tree].nodes[root].box, box))
                fcStack_Push(&stack, tree, root, 0);
        }
        while (stack.count > 0) {
            fcStackItem it = stack.items[--stack.count];
            const fcTreeNode* nodes = bp->trees[it.tree].nodes;
            const fcTreeNode* n = nodes + it.node;
            if (!fcNode_IsLeaf(n)) {
                if (fcBroadphase_BoxesOverlap(nodes[n->child1].box, box)) fcStack_Push(&stack, it.tree, n->child1, 0);
                if (fcBroadphase_BoxesOverlap(nodes[n->child2].box, box)) fcStack_Push(&stack, it.tree, n->child2, 0);
                continue;
            }
            int other = fcProxy_Make(it.tree, it.node);
            // Both queued: the pair is found from both sides, so only the smaller handle reports it.
            if (other == query || (n->moved && other < query) || n->userIndex == user) continue;
            fcn(user, n->userIndex, context);
        }
    }
    fcStack_Free(&stack);
    for (int k = 0; k < bp->moveCount; ++k) fcBroadphase_Leaf(bp, bp->moveBuffer[k])->moved = false;
    bp->moveCount = 0;
}

// the proxies of trees [first, last] whose boxes overlap box
static void fcBroadphase_QueryTrees(const fcBroadphase* bp, int first, int last, fcAabb box, fcTreeQueryFcn* fcn, void* context)
{
    fcStack stack;
    fcStack_Init(&stack);
    for (int tree = first; tree <= last; ++tree) {
        if (bp->trees[tree].root != FC_NULL_NODE) fcStack_Push(&stack, tree, bp->trees[tree].root, 0);
    }
    while (stack.count > 0) {
        fcStackItem it = stack.items[--stack.count];
        const fcTreeNode* n = &bp->trees[it.tree].nodes[it.node];
        if (!fcBroadphase_BoxesOverlap(n->box, box)) continue;
        if (!fcNode_IsLeaf(n)) {
            fcStack_Push(&stack, it.tree, n->child1, 0);
            fcStack_Push(&stack, it.tree, n->child2, 0);
        } else if (!fcn(fcProxy_Make(it.tree, it.node), n->userIndex, context)) {
            break;
        }
    }
    fcStack_Free(&stack);
}

void fcBroadphase_Query(const fcBroadphase* bp, fcAabb box, fcTreeQueryFcn* fcn, void* context)
{
    fcBroadphase_QueryTrees(bp, 0, 1, box, fcn, context);
}

void fcBroadphase_QueryStatic(const fcBroadphase* bp, fcAabb box, fcTreeQueryFcn* fcn, void* context)
{
    fcBroadphase_QueryTrees(bp, 0, 0, box, fcn, context);
}

// Pushes the boxes the segment enters, the farther one first so that the nearer is visited first.
static void fcRay_PushPair(fcStack* s, const fcAabbTree* t, int tree, int a, int b, const fcRay* r, fcReal maxFraction)
{
    fcReal ta = 0, tb = 0;
    bool ha = fcRay_Box(r, t->nodes[a].box, maxFraction, &ta);
    bool hb = b != FC_NULL_NODE && fcRay_Box(r, t->nodes[b].box, maxFraction, &tb);
    if (ha && hb && ta < tb) {
        fcStack_Push(s, tree, b, tb);
        fcStack_Push(s, tree, a, ta);
        return;
    }
    if (ha) fcStack_Push(s, tree, a, ta);
    if (hb) fcStack_Push(s, tree, b, tb);
}

void fcBroadphase_RayCast(const fcBroadphase* bp, fcVec3 origin, fcVec3 translation, fcReal maxFraction,
                          fcTreeRayFcn* fcn, void* context)
{
    fcRay r;
    r.o = origin;
    r.d = translation;
    r.inv = fcV3(translation.x != 0 ? 1 / translation.x : 0, translation.y != 0 ? 1 / translation.y : 0,
                 translation.z != 0 ? 1 / translation.z : 0);
    fcStack stack;
    fcStack_Init(&stack);
    // Both roots share one stack, so the nearest-first order holds across the two trees as well.
    fcReal ta = 0, tb = 0;
    int r0 = bp->trees[0].root, r1 = bp->trees[1].root;
    bool h0 = r0 != FC_NULL_NODE && fcRay_Box(&r, bp->trees[0].nodes[r0].box, maxFraction, &ta);
    bool h1 = r1 != FC_NULL_NODE && fcRay_Box(&r, bp->trees[1].nodes[r1].box, maxFraction, &tb);
    if (h0 && h1 && ta < tb) {
        fcStack_Push(&stack, 1, r1, tb);
        fcStack_Push(&stack, 0, r0, ta);
    } else {
        if (h0) fcStack_Push(&stack, 0, r0, ta);
        if (h1) fcStack_Push(&stack, 1, r1, tb);
    }
    while (stack.count > 0) {
        fcStackItem it = stack.items[--stack.count];
        if (it.t > maxFraction) continue;  // the ray was clipped since this box was pushed
        const fcAabbTree* t = &bp->trees[it.tree];
        const fcTreeNode* n = &t->nodes[it.node];
        if (!fcNode_IsLeaf(n)) {
            fcRay_PushPair(&stack, t, it.tree, n->child1, n->child2, &r, maxFraction);
            continue;
        }
        fcReal value = fcn(fcProxy_Make(it.tree, it.node), n->userIndex, origin, translation, maxFraction, context);
        if (value == 0) break;
        // A negative value (a filtered hit, as some callers write it) goes on unclipped.
        if (value > 0 && value < maxFraction) maxFraction = value;
    }
    fcStack_Free(&stack);
}

int fcBroadphase_GetHeight(const fcBroadphase* bp, int tree)
{
    if (tree < 0 || tree > 1) return 0;
    const fcAabbTree* t = &bp->trees[tree];
    return t->root == FC_NULL_NODE ? 0 : t->nodes[t->root].height;
}

bool fcBroadphase_Validate(const fcBroadphase* bp)
{
    if (!fcTree_Validate(&bp->trees[0]) || !fcTree_Validate(&bp->trees[1])) return false;
    if (bp->moveCount < 0 || bp->moveCount > bp->moveCapacity) return false;
    // The move buffer: every entry a live leaf flagged as moved, each once, and no flagged leaf left out.
    bool ok = true;
    bool* listed[2];
    for (int tree = 0; tree < 2; ++tree) listed[tree] = fcAllocZeroed((size_t)bp->trees[tree].capacity + 1);
    for (int k = 0; k < bp->moveCount && ok; ++k) {
        int proxy = bp->moveBuffer[k];
        const fcAabbTree* t = &bp->trees[fcProxy_Tree(proxy)];
        int i = fcProxy_Node(proxy);
        ok = i >= 0 && i < t->capacity && t->nodes[i].height == 0 && t->nodes[i].moved && !listed[fcProxy_Tree(proxy)][i];
        if (ok) listed[fcProxy_Tree(proxy)][i] = true;
    }
    for (int tree = 0; tree < 2 && ok; ++tree) {
        const fcAabbTree* t = &bp->trees[tree];
        for (int i = 0; i < t->capacity && ok; ++i) ok = !(t->nodes[i].height == 0 && t->nodes[i].moved) || listed[tree][i];
    }
    fcFree(listed[0]);
    fcFree(listed[1]);
    return ok;
}
