// SPDX-License-Identifier: MIT
// fcWorld_Step: the pipeline of one fixed step, one timed call per stage. The only file that knows the order.
// When the projection cannot reach f(q) = 0 within its cap (a long chain whipping at h = 1/60 s turns more
// than Newton's basin in one step), the step is retaken from its start state in 2, 4, ... 64 substeps;
// the multipliers are the whole impulse over the step either way.
#include "solver.h"

#include <string.h>

#define FC_MAX_SUBSTEP_LEVELS 6

// the step's accumulators start from zero: multipliers, joint wrenches (the joints in the system start from
// zero at the step's first flush, fcRows_Flush, the others here), body impulses (zeroed by the step's first pass
// over the bodies, and by the restore of a retaken step)
static void fcStep_Begin(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    for (int n = 0; n < r->freeJointCount; ++n) {
        fcJoint* joint = world->joints + r->freeJoints[n];
        // the joints of a sleeping island keep reporting what they carried when it fell asleep
        if (!fcJoint_Sleeps(world, joint->bodyA, joint->bodyB)) fcJoint_ClearRecords(joint);
    }
    memset(r->blockFresh, 1, (size_t)r->blockCount);
    for (int i = 0; i < r->count; ++i) r->pending[i] = 0;
    world->eventCount = world->collideEventCount;  // a retaken step drops the events of the failed attempt
    fcContacts_BeginStep(world);
}

// The step's first pass over the bodies, one chunk of it: the start state kept (the snapshot: restored when the
// step is retaken, reported by the events), the constraint impulses zeroed, the geometric stiffness. A pass over
// a large world's bodies costs memory traffic (a 10000-link chain's bodies outgrow the caches): one pass does it
// all.
typedef struct fcStartTask {
    fcWorld* world;
    fcReal invH;  // 1 / the last step's length: the joint forces of the geometric stiffness
} fcStartTask;

static void fcStep_StartChunk(void* context, int begin, int end)
{
    const fcStartTask* task = context;
    fcWorld* world = task->world;
    for (int k = begin; k < end; ++k) {
        fcBody* b = world->bodies + k;
        world->snapshotPosition[k] = b->position;
        world->snapshotOrientation[k] = b->orientation;
        world->snapshotVelocity[k] = b->linearVelocity;
        world->snapshotAngularVelocity[k] = b->angularVelocity;
        world->constraintImpulse[k] = world->constraintAngularImpulse[k] = fcV3(0, 0, 0);
        fcStabilize_GeometricStiffness(world, k, task->invH);
    }
}

// put back the bodies' state at the start of the step, the constraint impulses zeroed
static void fcStep_Restore(fcWorld* world)
{
    for (int k = 0; k < world->bodyHigh; ++k) {
        fcBody* b = world->bodies + k;
        if (!b->inUse) continue;
        b->position = world->snapshotPosition[k];
        b->orientation = world->snapshotOrientation[k];
        b->linearVelocity = world->snapshotVelocity[k];
        b->angularVelocity = world->snapshotAngularVelocity[k];
        world->constraintImpulse[k] = world->constraintAngularImpulse[k] = fcV3(0, 0, 0);
        fcBody_UpdateInverseInertia(b);
    }
    const fcRowStore* r = &world->rows;
    for (int n = 0; n < r->activeJointCount; ++n) {
        fcJoint* joint = world->joints + r->activeJoints[n];
        joint->active = joint->activeAtStepStart;
    }
}

// one pass of the pipeline over a (sub)step of length h; false when the projection did not converge. The rows
// are filled at the (sub)step's start unless the step's first fill, at this pose and h, still holds.
static bool fcStep_Advance(fcWorld* world, fcReal h, bool rowsFilled, bool last, int* iterations)
{
    fcProfile* prof = &world->stageTicks;
    world->h = h;
    fcTick t0 = fcTicks();
    // a user row can go non-finite at a later substep's pose (the step's first fill checked q_n only): its block
    // keeps the rows it had, and the substep counts as failed, so that the step is retaken in smaller ones
    bool filled = rowsFilled || fcRows_Fill(world, world->time, false);
    fcTick t1 = fcTicks();
    prof->buildRows += fcTicksBetween(t0, t1);

    fcIntegrate_Velocities(world);
    fcTick t2 = fcTicks();
    prof->integrateVelocities += fcTicksBetween(t1, t2);

    fcSolve_Velocities(world);
    fcTick t3 = fcTicks();

    // the projection refreshes every moving body's world inertia when it ends, and nothing before it reads
    // the new one unless contacts are pushed apart (the projection's refactors refresh what they read)
    bool projecting = world->def.stabilization == fc_stabilizeProjection && world->rows.count > 0;
    fcIntegrate_Positions(world, !projecting || fcContacts_HasRows(world));
    fcTick t4 = fcTicks();
    prof->integratePositions += fcTicksBetween(t3, t4);
    if (fcContacts_HasRows(world)) {
        fcContacts_SolvePositions(world, last);
        fcTick t5 = fcTicks();
        prof->contactPositions += fcTicksBetween(t4, t5);
        t4 = t5;
    }

    bool converged = true;
    if (world->def.stabilization == fc_stabilizeProjection) {
        fcStabilize_Project(world);
        converged = world->stats.projectionConverged;
        *iterations += world->stats.projectionIterations;
    }
    prof->project += fcTicksSince(t4);
    world->time += h;
    return converged && filled;
}

// the stages were timed in ticks (fcTicks, world->stageTicks): into the stats' ms by this step's own wall time over
// its ticks, all at once, so that fcWorld_GetStats from a callback inside the step reads the last step's profile
static void fcStep_ProfileInMs(fcWorld* world, double wall0, fcTick tick0)
{
    const fcProfile* t = &world->stageTicks;
    double ticks = fcTicksSince(tick0), ms = fcNowMs() - wall0;
    double s = ticks > 0 ? ms / ticks : 0;
    world->stats.profile = (fcProfile){.step = ms, .collide = s * t->collide, .broadphase = s * t->broadphase,
                                       .narrowphase = s * t->narrowphase, .integrateVelocities = s * t->integrateVelocities,
                                       .buildRows = s * t->buildRows, .factor = s * t->factor, .solve = s * t->solve,
                                       .contactSolve = s * t->contactSolve, .integratePositions = s * t->integratePositions,
                                       .contactPositions = s * t->contactPositions, .project = s * t->project,
                                       .sleep = s * t->sleep, .diagnostics = s * t->diagnostics,
                                       .continuous = s * t->continuous};
}

bool fcWorld_Step(fcWorldId worldId)
{
    fcWorld* world = fcGetWorld(worldId, "fcWorld_Step");
    if (world == NULL) return false;
    if (world->locked) return fcError("fcWorld_Step: the world is already stepping");
    if (fcWorld_Busy(world)) return fcError("fcWorld_Step: %s", fcWorld_Busy(world));
    if (!fcDiagnostics_ValidateBodies(world)) return false;
    fcIslands_WakePending(world);
    fcReal h = world->def.timestep;
    fcWorldStats* st = &world->stats;
    double wall0 = fcNowMs();
    fcTick t0 = fcTicks();
    world->locked = true;
    world->h = h;

    // rows at the start pose; a non-finite user row refuses the step before anything moved
    if (world->topologyDirty) fcRows_Layout(world);
    if (world->snapshotCapacity < world->bodyHigh) {  // bodies were created: the topology changed
        size_t n = (size_t)world->bodyHigh;
        world->snapshotPosition = fcRealloc(world->snapshotPosition, sizeof(fcVec3) * n);
        world->snapshotOrientation = fcRealloc(world->snapshotOrientation, sizeof(fcQuat) * n);
        world->snapshotVelocity = fcRealloc(world->snapshotVelocity, sizeof(fcVec3) * n);
        world->snapshotAngularVelocity = fcRealloc(world->snapshotAngularVelocity, sizeof(fcVec3) * n);
        world->constraintImpulse = fcRealloc(world->constraintImpulse, sizeof(fcVec3) * n);
        world->constraintAngularImpulse = fcRealloc(world->constraintAngularImpulse, sizeof(fcVec3) * n);
        world->snapshotCapacity = world->bodyHigh;
    }
    if (!fcRows_Fill(world, world->time, false)) {
        world->locked = false;
        return false;
    }
    memset(&world->stageTicks, 0, sizeof world->stageTicks);
    fcEvents_Begin(world);
    // the start state, which the collide stage's events report (a retaken step restores this same state); the
    // geometric stiffness from the last step's forces
    fcStartTask start = {world, world->stepH > 0 ? 1 / world->stepH : 0};
    fcParallelFor(world->tasks, world->bodyHigh, FC_BODY_GRAIN, fcStep_StartChunk, &start);
    if (world->stepH > 0 && h != world->stepH) {
        // a new timestep (fcWorld_SetTimestep): what is reported as impulse / h from the last step's impulses (the
        // sleepers' forces, a contact end's force before) is rescaled to the new h; the awake ones are solved again
        fcJoints_RescaleImpulses(world, h / world->stepH);
        fcContacts_RescaleImpulses(world, h / world->stepH);
    }
    world->stepH = h;
    const fcRowStore* r = &world->rows;
    for (int n = 0; n < r->activeJointCount; ++n) {
        fcJoint* joint = world->joints + r->activeJoints[n];
        joint->activeAtStepStart = joint->active;
    }
    fcTick tc = fcTicks();
    fcContacts_Collide(world);
    world->collideEventCount = world->eventCount;
    world->stageTicks.collide = fcTicksSince(tc);
    fcReal startTime = world->time;
    bool projected = world->def.stabilization == fc_stabilizeProjection && world->rows.count > 0;
    // a stack's load crosses many contacts: small substeps with a few sweeps each converge far better than
    // one step with all the sweeps
    int iterations = 0, substeps = fcContacts_HasRows(world) ? world->def.contactSubsteps : 1;
    world->stepH = h;
    fcStep_Begin(world);
    bool converged = true;
    world->bridgeH = world->lastSubstepH != h / substeps ? world->lastSubstepH : 0;  // integrate.c
    for (int k = 0; k < substeps; ++k)
        converged = fcStep_Advance(world, h / substeps, k == 0 && substeps == 1, k == substeps - 1, &iterations) && converged;
    int firstLevel = 1;
    while ((1 << firstLevel) <= substeps) ++firstLevel;
    // a residual just above the tolerance is the round-off floor of a long, stiff system, not a failed step:
    // only a real miss (above 1e4 tolerances) is worth retaking in substeps
    fcReal retakeAbove = 1e4 * world->def.projectionTolerance;
    for (int level = firstLevel; projected && !converged && st->projectionResidual > retakeAbove && level <= FC_MAX_SUBSTEP_LEVELS;
         ++level) {
        // retake the whole step from its start in 2^level substeps
        fcStep_Restore(world);
        world->time = startTime;
        fcStep_Begin(world);
        substeps = 1 << level;
        converged = true;
        world->bridgeH = world->lastSubstepH != h / substeps ? world->lastSubstepH : 0;
        for (int k = 0; k < substeps; ++k) converged = fcStep_Advance(world, h / substeps, false, k == substeps - 1, &iterations) && converged;
    }
    bool taken = fcDiagnostics_ValidateState(world);
    // the step's last flush completes the joints' records, whose forces may overflow where the state does not
    if (taken) taken = fcDiagnostics_ValidateReactions(world, fcRows_Flush(world), h);
    if (!taken) {
        // a step that overflowed is not taken: the start state back, the collide stage's events kept (they
        // describe it), the multipliers of the failed attempt (flushed at its substeps) cleared
        fcStep_Restore(world);
        world->time = startTime;
        fcStep_Begin(world);
        fcRows_ClearRecords(world);
        fcStep_ProfileInMs(world, wall0, t0);
        world->locked = false;
        return false;
    }
    world->time = startTime + h;  // exactly, whatever the substeps added up to
    world->substeps = substeps;
    world->lastSubstepH = h / substeps;
    if (fcContacts_HasRows(world)) fcContacts_EndStep(world);
    fcTick tc2 = fcTicks();
    fcContinuous_Step(world);
    fcTick t5 = fcTicks();
    world->stageTicks.continuous = fcTicksBetween(tc2, t5);
    world->h = h;
    st->projectionIterations = iterations;
    st->projectionConverged = converged;
    st->substeps = substeps;
    if (!converged) st->projectionFailures += 1;
    if (!projected) st->projectionIterations = 0;

    fcIslands_Update(world);
    fcTick t6 = fcTicks();
    world->stageTicks.sleep = fcTicksBetween(t5, t6);
    world->stepCount += 1;
    fcDiagnostics_EndStep(world, projected && substeps == 1);
    st->time = world->time;
    st->stepCount = world->stepCount;
    st->rowCount = world->rows.count;
    st->blockCount = world->rows.blockCount;
    st->nonzerosA = world->rows.nnzA;
    st->nonzerosL = world->ldlt.nnzL;
    st->fillIn = world->ldlt.fill;
    world->stageTicks.diagnostics = fcTicksSince(t6);
    fcStep_ProfileInMs(world, wall0, t0);
    world->locked = false;
    return true;
}
