// SPDX-License-Identifier: MIT
// fcWorld_Step: the pipeline of one fixed step, one timed call per stage. The only file that knows the order.
#include "solver.h"

#include <string.h>

// the step's accumulators start from zero: multipliers, joint wrenches, body impulses
static void fcStep_Begin(fcWorld* world)
{
    for (int j = 0; j < world->jointHigh; ++j) {
        fcJoint* joint = world->joints + j;
        memset(joint->impulse, 0, sizeof joint->impulse);
        joint->impulseLinearB = joint->impulseAngularB = joint->impulseMomentB = fcV3(0, 0, 0);
    }
    for (int k = 0; k < world->bodyHigh; ++k) {
        fcBody* b = world->bodies + k;
        b->stepStartVelocity = b->linearVelocity;
        b->stepStartAngularVelocity = b->angularVelocity;
        b->constraintImpulse = b->constraintAngularImpulse = fcV3(0, 0, 0);
        b->deltaLinear = b->deltaAngular = fcV3(0, 0, 0);
    }
}

bool fcWorld_Step(fcWorldId worldId)
{
    fcWorld* world = fcGetWorld(worldId, "fcWorld_Step");
    if (world == NULL) return false;
    if (world->locked) return fcError("fcWorld_Step: the world is already stepping");
    if (!fcDiagnostics_ValidateBodies(world)) return false;
    fcReal h = world->def.timestep;
    fcProfile* prof = &world->stats.profile;
    double t0 = fcNowMs();
    world->locked = true;

    // rows at the start pose; a non-finite user row refuses the step before anything moved
    if (world->topologyDirty) fcRows_Layout(world);
    if (!fcRows_Fill(world, world->time, false)) {
        world->locked = false;
        return false;
    }
    fcStep_Begin(world);
    double t1 = fcNowMs();
    prof->buildRows = t1 - t0;

    fcIntegrate_Velocities(world, h);
    double t2 = fcNowMs();
    prof->integrateVelocities = t2 - t1;

    fcSolve_Velocities(world);
    double t3 = fcNowMs();

    fcIntegrate_Positions(world, h);
    double t4 = fcNowMs();
    prof->integratePositions = t4 - t3;

    bool projected = world->def.stabilization == fc_stabilizeProjection;
    if (projected) {
        fcStabilize_Project(world);
    } else {
        world->stats.projectionIterations = 0;
        world->stats.projectionConverged = true;
    }
    double t5 = fcNowMs();
    prof->project = t5 - t4;

    world->time += h;
    world->stepCount += 1;
    fcDiagnostics_EndStep(world, projected && world->rows.count > 0);
    world->stats.time = world->time;
    world->stats.stepCount = world->stepCount;
    world->stats.rowCount = world->rows.count;
    world->stats.blockCount = world->rows.blockCount;
    world->stats.nonzerosA = world->rows.nnzA;
    world->stats.nonzerosL = world->ldlt.nnzL;
    world->stats.fillIn = world->ldlt.fill;
    double t6 = fcNowMs();
    prof->diagnostics = t6 - t5;
    prof->step = t6 - t0;
    world->locked = false;
    return true;
}
