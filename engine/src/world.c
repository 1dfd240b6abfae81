// SPDX-License-Identifier: MIT
// fcWorld: owns everything; creation and destruction, settings, id lookup (stale ids refused), stats.
#include "solver.h"

#include <string.h>

static fcWorld s_worlds[FC_MAX_WORLDS];

fcWorldDef fcDefaultWorldDef(void)
{
    fcWorldDef d;
    memset(&d, 0, sizeof d);
    d.gravity = fcV3(0, 0, -9.81);
    d.timestep = 1.0 / 60.0;
    d.stabilization = fc_stabilizeProjection;
    d.baumgarte = 0.2;
#ifdef FC_FLOAT
    // single precision resolves about 1e-7 relative: tolerances below that can never be met
    d.projectionTolerance = 1e-5f;
    d.pivotTolerance = 1e-5f;
#else
    d.projectionTolerance = 1e-10;
    d.pivotTolerance = 1e-10;
#endif
    d.projectionMaxIterations = 20;
    d.contactSubsteps = 2;
    d.contactIterations = 8;
    d.contactTolerance = 1e-9;
    d.contactPositionIterations = 4;
    d.contactSlop = 0.005;
    d.contactMargin = 0.02;
    d.restitutionThreshold = 1;
    d.frictionCone = true;
    d.continuousCollision = true;
    d.frictionOverride = -1;
    d.restitutionOverride = -1;
    d.enableSleeping = true;
    d.sleepVelocity = 0.05;
    d.sleepTime = 0.5;
    d.workerCount = 1;
    d.internalValue = FC_DEF_COOKIE;
    return d;
}

static bool fcCheckWorkerCount(int count, const char* caller)
{
    if (count < 1 || count > FC_MAX_WORKERS) return fcError("%s: workerCount must be 1..%d, got %d", caller, FC_MAX_WORKERS, count);
    return true;
}

static bool fcCheckTimestep(fcReal h, const char* caller)
{
    // below a nanosecond, h^2 in the soft rows and the position pass heads for underflow
    if (!isfinite(h) || h < 1e-9 || h > 1) return fcError("%s: timestep must be in [1e-9, 1] s, got %g", caller, (double)h);
    return true;
}

static bool fcCheckStabilization(fcStabilization s, const char* caller)
{
    if (s != fc_stabilizeBaumgarte && s != fc_stabilizeProjection && s != fc_stabilizeNone)
        return fcError("%s: invalid stabilization mode %d", caller, (int)s);
    return true;
}

static bool fcCheckBaumgarte(fcReal beta, const char* caller)
{
    if (!isfinite(beta) || beta <= 0 || beta > 1) return fcError("%s: Baumgarte factor must be in (0, 1], got %g", caller, (double)beta);
    return true;
}

static bool fcCheckProjection(fcReal tol, int iters, const char* caller)
{
    if (!isfinite(tol) || tol <= 0) return fcError("%s: projection tolerance must be > 0, got %g", caller, (double)tol);
    if (iters < 1 || iters > 1000) return fcError("%s: projection iterations must be 1..1000, got %d", caller, iters);
    return true;
}

static bool fcCheckContactSettings(const fcWorldDef* d)
{
    const char* c = "fcCreateWorld";
    if (d->contactSubsteps < 1 || d->contactSubsteps > 64)
        return fcError("%s: contactSubsteps must be 1..64, got %d", c, d->contactSubsteps);
    if (d->contactIterations < 1 || d->contactIterations > 10000)
        return fcError("%s: contactIterations must be 1..10000, got %d", c, d->contactIterations);
    if (d->contactPositionIterations < 0 || d->contactPositionIterations > 1000)
        return fcError("%s: contactPositionIterations must be 0..1000, got %d", c, d->contactPositionIterations);
    if (!isfinite(d->contactTolerance) || d->contactTolerance < 0) return fcError("%s: contactTolerance must be >= 0", c);
    if (!isfinite(d->contactSlop) || d->contactSlop < 0 || d->contactSlop > 1)
        return fcError("%s: contactSlop must be in [0, 1] m, got %g", c, (double)d->contactSlop);
    if (!isfinite(d->contactMargin) || d->contactMargin < 0 || d->contactMargin > 10)
        return fcError("%s: contactMargin must be in [0, 10] m, got %g", c, (double)d->contactMargin);
    if (!isfinite(d->restitutionThreshold) || d->restitutionThreshold < 0) return fcError("%s: restitutionThreshold must be >= 0", c);
    if (!isfinite(d->frictionOverride) || !isfinite(d->restitutionOverride) || d->restitutionOverride > 1)
        return fcError("%s: frictionOverride and restitutionOverride must be finite (restitution <= 1; < 0 for none)", c);
    if (!isfinite(d->sleepVelocity) || d->sleepVelocity < 0 || !isfinite(d->sleepTime) || d->sleepTime < 0)
        return fcError("%s: sleepVelocity and sleepTime must be >= 0", c);
    return fcCheckWorkerCount(d->workerCount, c);
}

fcWorldId fcCreateWorld(const fcWorldDef* def)
{
    const char* caller = "fcCreateWorld";
    if (def == NULL || def->internalValue != FC_DEF_COOKIE) {
        fcError("fcCreateWorld: the def was not made by fcDefaultWorldDef");
        return fc_nullWorldId;
    }
    if (!fcVec3_IsFinite(def->gravity)) {
        fcError("fcCreateWorld: gravity is not finite");
        return fc_nullWorldId;
    }
    if (!fcCheckTimestep(def->timestep, caller) || !fcCheckStabilization(def->stabilization, caller) ||
        !fcCheckBaumgarte(def->baumgarte, caller) ||
        !fcCheckProjection(def->projectionTolerance, def->projectionMaxIterations, caller))
        return fc_nullWorldId;
    if (!fcCheckContactSettings(def)) return fc_nullWorldId;
    if (!isfinite(def->pivotTolerance) || def->pivotTolerance <= 0 || def->pivotTolerance >= 1) {
        fcError("fcCreateWorld: pivotTolerance must be in (0, 1), got %g", (double)def->pivotTolerance);
        return fc_nullWorldId;
    }
    for (int i = 0; i < FC_MAX_WORLDS; ++i) {
        fcWorld* w = s_worlds + i;
        if (w->inUse) continue;
        // the workers first: a refused thread (fcTaskPool_Create says so) leaves the slot as it was
        fcTaskPool* tasks = NULL;
        if (def->workerCount > 1 && (tasks = fcTaskPool_Create(def->workerCount)) == NULL) return fc_nullWorldId;
        int generation = (uint16_t)(w->generation + 1);
        memset(w, 0, sizeof *w);
        w->generation = generation;
        w->inUse = true;
        w->def = *def;
        w->tasks = tasks;
        w->topologyDirty = true;
        w->stats.projectionConverged = true;
        fcBroadphase_Init(&w->broadphase);
        fcWorldId id = {(uint16_t)(i + 1), (uint16_t)generation};
        return id;
    }
    fcError("fcCreateWorld: all %d worlds are in use", FC_MAX_WORLDS);
    return fc_nullWorldId;
}

void fcDestroyWorld(fcWorldId id)
{
    fcWorld* w = fcGetWorld(id, "fcDestroyWorld");
    if (w == NULL) return;
    if (fcWorld_Busy(w)) {
        fcError("fcDestroyWorld: %s", fcWorld_Busy(w));
        return;
    }
    for (int i = 0; i < w->bodyHigh; ++i) {
        fcFree(w->bodies[i].joints);
        fcFree(w->bodies[i].shapes);
    }
    for (int i = 0; i < w->shapeHigh; ++i) {
        fcHull_Destroy(w->shapes[i].hull);
        fcMesh_Destroy(w->shapes[i].mesh);
        fcFree(w->shapes[i].points);
        fcFree(w->shapes[i].indices);
    }
    fcFree(w->bodies);
    fcFree(w->bodyFree);
    fcFree(w->shapes);
    fcFree(w->shapeFree);
    fcFree(w->joints);
    fcFree(w->jointFree);
    fcRowStore_Free(&w->rows);
    fcTaskPool_Destroy(w->tasks);
    fcFree(w->events);
    fcFree(w->pendingEvents);
    fcFree(w->snapshotPosition);
    fcFree(w->snapshotOrientation);
    fcFree(w->snapshotVelocity);
    fcFree(w->snapshotAngularVelocity);
    fcFree(w->constraintImpulse);
    fcFree(w->constraintAngularImpulse);
    fcLdlt_Free(&w->ldlt);
    fcBroadphase_Free(&w->broadphase);
    fcContacts_Free(&w->contacts);
    fcFree(w->islandScratch);
    fcFree(w->pendingWakes);
    int generation = w->generation;
    memset(w, 0, sizeof *w);
    w->generation = generation;
}

int fcWorld_TakeSlot(const fcWorld* world, void** items, size_t itemSize, size_t generationOffset, int* capacity,
                     int* high, int** freeList, int* freeCount)
{
    if (*freeCount > 0) return (*freeList)[--*freeCount];
    if (*high == *capacity) {
        int cap = *capacity ? 2 * *capacity : 16;
        // on a cache line's start: the items' structs are grouped by cache line
        char* grown = fcAllocLines(itemSize * (size_t)cap);
        if (*capacity > 0) memcpy(grown, *items, itemSize * (size_t)*capacity);
        fcFree(*items);
        memset(grown + itemSize * (size_t)*capacity, 0, itemSize * (size_t)(cap - *capacity));
        for (int k = *capacity; k < cap; ++k) *(int*)(grown + itemSize * (size_t)k + generationOffset) = fcWorld_FirstGeneration(world);
        *items = grown;
        *freeList = fcRealloc(*freeList, sizeof(int) * (size_t)cap);
        *capacity = cap;
    }
    return (*high)++;
}

fcWorld* fcGetWorldFromIndex(int world0)
{
    if (world0 < 0 || world0 >= FC_MAX_WORLDS || !s_worlds[world0].inUse) return NULL;
    return s_worlds + world0;
}

int fcWorldIndex(const fcWorld* world) { return (int)(world - s_worlds); }

fcWorld* fcGetWorld(fcWorldId id, const char* caller)
{
    if (id.index1 < 1 || id.index1 > FC_MAX_WORLDS) {
        fcError("%s: invalid world id (null or out of range)", caller);
        return NULL;
    }
    fcWorld* w = s_worlds + id.index1 - 1;
    if (!w->inUse || w->generation != id.generation) {
        fcError("%s: stale world id (the world was destroyed)", caller);
        return NULL;
    }
    return w;
}

fcBody* fcGetBody(fcBodyId id, fcWorld** world, const char* caller)
{
    fcWorld* w = fcGetWorldFromIndex(id.world0);
    if (w == NULL || id.index1 < 1 || id.index1 > w->bodyHigh) {
        fcError("%s: invalid body id (null, out of range, or of a destroyed world)", caller);
        return NULL;
    }
    fcBody* b = w->bodies + id.index1 - 1;
    if (!b->inUse || b->generation != id.generation) {
        fcError("%s: stale body id (the body was destroyed)", caller);
        return NULL;
    }
    *world = w;
    return b;
}

fcJoint* fcGetJoint(fcJointId id, fcWorld** world, const char* caller)
{
    fcWorld* w = fcGetWorldFromIndex(id.world0);
    if (w == NULL || id.index1 < 1 || id.index1 > w->jointHigh) {
        fcError("%s: invalid joint id (null, out of range, or of a destroyed world)", caller);
        return NULL;
    }
    fcJoint* j = w->joints + id.index1 - 1;
    if (!j->inUse || j->generation != id.generation) {
        fcError("%s: stale joint id (the joint was destroyed)", caller);
        return NULL;
    }
    *world = w;
    return j;
}

fcBodyId fcMakeBodyId(const fcWorld* world, int index)
{
    fcBodyId id = {index + 1, (uint16_t)fcWorldIndex(world), (uint16_t)world->bodies[index].generation};
    return id;
}

fcJointId fcMakeJointId(const fcWorld* world, int index)
{
    fcJointId id = {index + 1, (uint16_t)fcWorldIndex(world), (uint16_t)world->joints[index].generation};
    return id;
}

fcShapeId fcMakeShapeId(const fcWorld* world, int index)
{
    fcShapeId id = {index + 1, (uint16_t)fcWorldIndex(world), (uint16_t)world->shapes[index].generation};
    return id;
}

bool fcWorld_IsValid(fcWorldId id)
{
    return id.index1 >= 1 && id.index1 <= FC_MAX_WORLDS && s_worlds[id.index1 - 1].inUse &&
           s_worlds[id.index1 - 1].generation == id.generation;
}

#define FC_WORLD_GET(id, fallback, caller)      \
    fcWorld* world = fcGetWorld(id, caller);    \
    if (world == NULL) return fallback

// a setter called from a callback inside fcWorld_Step (a pre-solve hook, a user row) would change the step halfway
#define FC_WORLD_GET_UNLOCKED(id, caller)  \
    FC_WORLD_GET(id, false, caller);       \
    if (fcWorld_Busy(world)) return fcError("%s: %s", caller, fcWorld_Busy(world))

fcReal fcWorld_GetTime(fcWorldId id)
{
    FC_WORLD_GET(id, 0, "fcWorld_GetTime");
    return world->time;
}

fcReal fcWorld_GetTimestep(fcWorldId id)
{
    FC_WORLD_GET(id, 0, "fcWorld_GetTimestep");
    return world->def.timestep;
}

bool fcWorld_SetTimestep(fcWorldId id, fcReal h)
{
    FC_WORLD_GET_UNLOCKED(id, "fcWorld_SetTimestep");
    if (!fcCheckTimestep(h, "fcWorld_SetTimestep")) return false;
    world->def.timestep = h;
    return true;
}

fcVec3 fcWorld_GetGravity(fcWorldId id)
{
    FC_WORLD_GET(id, fcV3(0, 0, 0), "fcWorld_GetGravity");
    return world->def.gravity;
}

bool fcWorld_SetGravity(fcWorldId id, fcVec3 g)
{
    FC_WORLD_GET_UNLOCKED(id, "fcWorld_SetGravity");
    if (!fcVec3_IsFinite(g)) return fcError("fcWorld_SetGravity: gravity is not finite");
    // a new gravity wakes every sleeper: a sleeping body is not integrated, so a pile asleep under the old one
    // would hang in the air under the new one
    bool changed = g.x != world->def.gravity.x || g.y != world->def.gravity.y || g.z != world->def.gravity.z;
    world->def.gravity = g;
    if (changed) fcIslands_WakeAll(world);
    return true;
}

fcStabilization fcWorld_GetStabilization(fcWorldId id)
{
    FC_WORLD_GET(id, fc_stabilizeNone, "fcWorld_GetStabilization");
    return world->def.stabilization;
}

bool fcWorld_SetStabilization(fcWorldId id, fcStabilization mode)
{
    FC_WORLD_GET_UNLOCKED(id, "fcWorld_SetStabilization");
    if (!fcCheckStabilization(mode, "fcWorld_SetStabilization")) return false;
    world->def.stabilization = mode;
    return true;
}

bool fcWorld_SetBaumgarte(fcWorldId id, fcReal beta)
{
    FC_WORLD_GET_UNLOCKED(id, "fcWorld_SetBaumgarte");
    if (!fcCheckBaumgarte(beta, "fcWorld_SetBaumgarte")) return false;
    world->def.baumgarte = beta;
    return true;
}

bool fcWorld_SetProjection(fcWorldId id, fcReal tolerance, int maxIterations)
{
    FC_WORLD_GET_UNLOCKED(id, "fcWorld_SetProjection");
    if (!fcCheckProjection(tolerance, maxIterations, "fcWorld_SetProjection")) return false;
    world->def.projectionTolerance = tolerance;
    world->def.projectionMaxIterations = maxIterations;
    return true;
}

bool fcWorld_SetWorkerCount(fcWorldId id, int count)
{
    FC_WORLD_GET_UNLOCKED(id, "fcWorld_SetWorkerCount");
    if (!fcCheckWorkerCount(count, "fcWorld_SetWorkerCount")) return false;
    if (count == world->def.workerCount) return true;
    fcTaskPool* pool = NULL;
    if (count > 1 && (pool = fcTaskPool_Create(count)) == NULL) return false;  // the old pool stays
    fcTaskPool_Destroy(world->tasks);
    world->tasks = pool;
    world->def.workerCount = count;
    return true;
}

int fcWorld_GetWorkerCount(fcWorldId id)
{
    FC_WORLD_GET(id, 0, "fcWorld_GetWorkerCount");
    return world->def.workerCount;
}

void* fcWorld_GetUserData(fcWorldId id)
{
    FC_WORLD_GET(id, NULL, "fcWorld_GetUserData");
    return world->def.userData;
}

int fcWorld_GetBodyCount(fcWorldId id)
{
    FC_WORLD_GET(id, 0, "fcWorld_GetBodyCount");
    return world->bodyCount;
}

int fcWorld_GetJointCount(fcWorldId id)
{
    FC_WORLD_GET(id, 0, "fcWorld_GetJointCount");
    return world->jointCount;
}

fcJointId fcWorld_FindJoint(fcWorldId id, const char* name)
{
    FC_WORLD_GET(id, fc_nullJointId, "fcWorld_FindJoint");
    if (name == NULL) return fc_nullJointId;
    for (int i = 0; i < world->jointHigh; ++i)
        if (world->joints[i].inUse && strcmp(world->joints[i].name, name) == 0) return fcMakeJointId(world, i);
    return fc_nullJointId;
}

fcWorldStats fcWorld_GetStats(fcWorldId id)
{
    fcWorldStats empty;
    memset(&empty, 0, sizeof empty);
    FC_WORLD_GET(id, empty, "fcWorld_GetStats");
    world->stats.bodyCount = world->bodyCount;
    world->stats.jointCount = world->jointCount;
    if (world->stepCount == 0) {
        // before the first step: the energy of the initial state, so that drift can be measured from it
        fcWorldStats* st = &world->stats;
        fcDiagnostics_Energy(world, &st->kineticEnergy, &st->potentialEnergy);
        st->potentialEnergy += fcDiagnostics_SpringEnergy(world);
        st->energy = st->kineticEnergy + st->potentialEnergy;
    }
    return world->stats;
}
