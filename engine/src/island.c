// SPDX-License-Identifier: MIT
// Islands and sleeping: after each step the dynamic bodies are grouped by joints and touching contacts
// (union-find); an island whose every body has been slow for sleepTime falls asleep (velocities zeroed, no
// integration, its rows held), and an island with any awake or disturbed body wakes whole.
#include "solver.h"

#include <string.h>

static int fcIsland_Find(int* parent, int k)
{
    while (parent[k] != k) {
        parent[k] = parent[parent[k]];
        k = parent[k];
    }
    return k;
}

static void fcIsland_Union(int* parent, int a, int b)
{
    a = fcIsland_Find(parent, a);
    b = fcIsland_Find(parent, b);
    if (a != b) parent[a < b ? b : a] = a < b ? a : b;
}

static bool fcIsland_Joins(const fcWorld* world, int a, int b)
{
    return a >= 0 && b >= 0 && world->bodies[a].type == fc_dynamicBody && world->bodies[b].type == fc_dynamicBody;
}

// a moving kinematic body keeps what touches it awake
static bool fcIsland_Disturbs(const fcWorld* world, int body)
{
    if (body < 0) return false;
    const fcBody* b = world->bodies + body;
    return b->type == fc_kinematicBody && (fcVec3_Length(b->linearVelocity) > 0 || fcVec3_Length(b->angularVelocity) > 0);
}

// a joint between bodies a and b (-1: the world): joins them, or lets a moving kinematic one disturb the other; a
// motor disturbs what it drives (it never sleeps)
static void fcIsland_Link(const fcWorld* world, int* parent, int* disturbed, int a, int b, bool motor)
{
    if (fcIsland_Joins(world, a, b)) {
        fcIsland_Union(parent, a, b);
    } else {
        if (fcIsland_Disturbs(world, a) && b >= 0) disturbed[b] = 1;
        if (a >= 0 && fcIsland_Disturbs(world, b)) disturbed[a] = 1;
    }
    if (motor) {
        if (b >= 0 && world->bodies[b].type == fc_dynamicBody) disturbed[b] = 1;
        if (a >= 0 && world->bodies[a].type == fc_dynamicBody) disturbed[a] = 1;
    }
}

// The union-find of the dynamic bodies joined by joints and touching contacts, over world->islandScratch: parent
// (n entries), then minSleep and disturbed (n each) left for the caller. disturbed[k] marks a body that a moving
// kinematic body touches or is joined to, or that a motor drives. The joints are the row store's blocks (a joint
// without one joins and disturbs no dynamic body), read from its arrays rather than the joints' records.
static int* fcIslands_Join(fcWorld* world)
{
    int n = world->bodyHigh;
    if (world->islandScratchCapacity < n) {
        world->islandScratch = fcRealloc(world->islandScratch, sizeof(int) * (size_t)n * 3);
        world->islandScratchCapacity = n;
    }
    int* parent = world->islandScratch;
    int* minSleep = parent + n;  // per root: 1 when every member has rested long enough
    int* disturbed = parent + 2 * n;
    for (int k = 0; k < n; ++k) parent[k] = k, minSleep[k] = 1, disturbed[k] = 0;
    const fcRowStore* r = &world->rows;
    if (world->topologyDirty) {
        // between steps, after joints or bodies came or went, the row store is the last step's: the joints themselves
        // (a destroyed joint still joined its bodies there, and a body made in a destroyed one's slot took its joints)
        for (int j = 0; j < world->jointHigh; ++j) {
            const fcJoint* joint = world->joints + j;
            if (joint->inUse) fcIsland_Link(world, parent, disturbed, joint->bodyA, joint->bodyB, joint->enableMotor);
        }
    } else {
        for (int block = 0; block < r->blockCount; ++block)
            fcIsland_Link(world, parent, disturbed, r->bodyA[r->blockadr[block]], r->bodyB[r->blockadr[block]],
                          (r->blockFlags[block] & fc_blockMotor) != 0);
    }
    // the touching pairs from the compact per-slot arrays, not the pairs' records (900 bytes apart: a pile of 1200
    // sleeping boxes spent 0.04 ms a step here reading them)
    const fcContactSet* set = &world->contacts;
    for (int t = 0; t < set->touchingCount; ++t) {
        int ci = set->touching[t];
        if (!(set->pairFlags[ci] & FC_PAIR_TOUCHING)) continue;  // never a sensor's
        int a = set->pairBodies[2 * ci], b = set->pairBodies[2 * ci + 1];
        if (fcIsland_Joins(world, a, b)) {
            fcIsland_Union(parent, a, b);
        } else {
            if (fcIsland_Disturbs(world, a) && b >= 0) disturbed[b] = 1;
            if (fcIsland_Disturbs(world, b) && a >= 0) disturbed[a] = 1;
        }
    }
    return parent;
}

static void fcIsland_WakeBody(fcBody* b)
{
    b->asleep = false;
    b->sleepTime = 0;
}

// A sleeping body takes no joint rows and is not integrated, so a contact impulse from an awake body moved it off its
// joints: a box resting at its rail's stop, hit by another, left its rail for two steps (by 3 cm, rising 5 mm) until
// the islands woke it at the step's end, and was then thrown back by the projection (28 % of the world's energy
// gained). Woken whole before the solve, its joints hold it from the first impulse.
void fcIslands_Wake(fcWorld* world, const int* sleepers, int count)
{
    int n = world->bodyHigh;
    int* parent = fcIslands_Join(world);
    int* wake = parent + n;  // per root: 1 when it holds a listed sleeper (the minSleep slots, unused here)
    for (int k = 0; k < n; ++k) wake[k] = 0;
    for (int i = 0; i < count; ++i) wake[fcIsland_Find(parent, sleepers[i])] = 1;
    for (int k = 0; k < n; ++k) {
        fcBody* b = world->bodies + k;
        if (b->inUse && b->type == fc_dynamicBody && b->asleep && wake[fcIsland_Find(parent, k)]) fcIsland_WakeBody(b);
    }
}

void fcIslands_WakePending(fcWorld* world)
{
    int count = 0;
    for (int i = 0; i < world->pendingWakeCount; ++i)  // a slot past the bodies in use: nothing to wake there
        if (world->pendingWakes[i] < world->bodyHigh) world->pendingWakes[count++] = world->pendingWakes[i];
    world->pendingWakeCount = 0;
    if (count > 0) fcIslands_Wake(world, world->pendingWakes, count);
}

void fcIslands_WakeAll(fcWorld* world)
{
    for (int k = 0; world->asleepCount > 0 && k < world->bodyHigh; ++k)
        if (world->bodies[k].inUse) fcIsland_WakeBody(world->bodies + k);
}

// The island of a dynamic body put to sleep at once (fcBody_SetAwake): its bodies stop, as an island at rest does,
// with their rest time full, so that the next step's update keeps them asleep (while sleeping is enabled). The
// islands are those of the joints and of the last step's touching contacts. False: a moving kinematic body or a
// motor keeps the island awake.
bool fcIslands_Sleep(fcWorld* world, int body)
{
    int n = world->bodyHigh;
    int* parent = fcIslands_Join(world);
    int* disturbed = parent + 2 * n;
    int root = fcIsland_Find(parent, body);
    // an island a moving kinematic body or a motor keeps awake stays awake (asleep, its joint to them would not hold)
    for (int k = 0; k < n; ++k)
        if (disturbed[k] && fcIsland_Find(parent, k) == root) return false;
    for (int k = 0; k < n; ++k) {
        fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody || fcIsland_Find(parent, k) != root) continue;
        if (!b->asleep) world->asleepCount += 1;  // the narrowphase's wake search runs while any body sleeps
        b->asleep = true;
        b->sleepTime = world->def.sleepTime;
        b->linearVelocity = b->angularVelocity = fcV3(0, 0, 0);
    }
    return true;
}

void fcIslands_Update(fcWorld* world)
{
    int n = world->bodyHigh;
    if (n == 0) return;
    int* parent = fcIslands_Join(world);
    int* minSleep = parent + n;
    int* disturbed = parent + 2 * n;
    // At rest: slow, and steady over its rest, its velocities within half of sleepVelocity of those the rest began
    // with (its forces in balance). Slow alone, a 5-box stack pushed at the top fell asleep mid-wobble (4 cm/s) and
    // reported the wobble's friction for good: 36 % more than the push at the ground. Over the rest, not per step:
    // a resting stack's solver jitter (mm/s a step, about zero) then does not keep it awake.
    fcReal h = world->stepH, v2 = world->def.sleepVelocity * world->def.sleepVelocity, drift2 = (fcReal)0.25 * v2;
    for (int k = 0; k < n; ++k) {
        fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        if (!b->asleep) {
            if (b->sleepTime == 0) b->restLinear = b->linearVelocity, b->restAngular = b->angularVelocity;
            fcVec3 dl = fcVec3_Sub(b->linearVelocity, b->restLinear), da = fcVec3_Sub(b->angularVelocity, b->restAngular);
            bool slow = fcVec3_Dot(b->linearVelocity, b->linearVelocity) < v2 && fcVec3_Dot(b->angularVelocity, b->angularVelocity) < v2;
            bool steady = fcVec3_Dot(dl, dl) < drift2 && fcVec3_Dot(da, da) < drift2;
            b->sleepTime = slow && steady && !disturbed[k] ? b->sleepTime + h : 0;
        }
        int root = fcIsland_Find(parent, k);
        if (disturbed[k] || (!b->asleep && b->sleepTime < world->def.sleepTime)) minSleep[root] = 0;
    }
    int islands = 0, awake = 0, asleep = 0;
    for (int k = 0; k < n; ++k) {
        fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        int root = fcIsland_Find(parent, k);
        if (root == k) islands += 1;
        bool sleep = world->def.enableSleeping && minSleep[root];
        if (sleep && !b->asleep) {
            b->asleep = true;
            b->linearVelocity = b->angularVelocity = fcV3(0, 0, 0);
        } else if (!sleep && b->asleep) {
            fcIsland_WakeBody(b);
        }
        awake += !b->asleep;
        asleep += b->asleep;
    }
    world->stats.islandCount = islands;
    world->stats.awakeBodies = awake;
    world->asleepCount = asleep;
}
