// SPDX-License-Identifier: MIT
// What a step measured: each joint's position violation, the largest one, the energy (kinetic + gravity +
// springs), the power the constraint forces delivered (seed eq. 5: sum lambda df/dt), joint coordinates;
// and the checks a world must pass before it is stepped.
#include "solver.h"

bool fcDiagnostics_ValidateBodies(const fcWorld* world)
{
    for (int k = 0; k < world->bodyHigh; ++k) {
        const fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        if (b->invMass <= 0 || b->invInertiaLocal.cx.x <= 0)
            return fcError("fcWorld_Step: dynamic body %d (\"%s\") has no mass or inertia: give mass and inertia, or add "
                           "a shape; the step was not taken",
                           k + 1, b->name);
    }
    return true;
}

void fcDiagnostics_EndStep(fcWorld* world, bool rowsAtEndPose)
{
    fcRowStore* r = &world->rows;
    fcWorldStats* st = &world->stats;
    fcReal h = world->def.timestep;
    if (!rowsAtEndPose) fcRows_Fill(world, world->time, true);
    // per joint violation: norm of its holonomic errors; spring potential 1/2 k f^2 of soft rows
    fcReal worst = 0, springEnergy = 0;
    for (int b = 0; b < r->blockCount; ++b) {
        fcJoint* joint = world->joints + r->blockJoint[b];
        fcReal sum = 0;
        for (int k = 0; k < joint->rowCount; ++k) {
            int i = r->blockadr[b] + k;
            sum += r->error[i] * r->error[i];
            if (r->flags[i] & fc_rowSoft) springEnergy += 0.5 * joint->stiffness * r->error[i] * r->error[i];
        }
        joint->violation = FC_SQRT(sum);
        if (!fcJoint_IsSoft(joint) && joint->violation > worst) worst = joint->violation;
    }
    st->maxViolation = worst;

    fcReal kinetic = 0, potential = springEnergy, power = 0;
    fcVec3 g = world->def.gravity;
    for (int k = 0; k < world->bodyHigh; ++k) {
        fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        fcVec3 v = b->linearVelocity, w = b->angularVelocity;
        fcVec3 wBody = fcQuat_InvRotate(b->orientation, w);
        kinetic += 0.5 * b->mass * fcVec3_Dot(v, v) + 0.5 * fcVec3_Dot(wBody, fcMat33_MulV(b->inertiaLocal, wBody));
        potential -= b->mass * fcVec3_Dot(g, b->position);
        // work of the step's constraint impulse at the mean velocity of the step
        fcVec3 vm = fcVec3_Scale(0.5, fcVec3_Add(v, b->stepStartVelocity));
        fcVec3 wm = fcVec3_Scale(0.5, fcVec3_Add(w, b->stepStartAngularVelocity));
        power += (fcVec3_Dot(b->constraintImpulse, vm) + fcVec3_Dot(b->constraintAngularImpulse, wm)) / h;
    }
    st->kineticEnergy = kinetic;
    st->potentialEnergy = potential;
    st->energy = kinetic + potential;
    st->constraintPower = power;
    st->constraintWork += power * h;
    for (int j = 0; j < world->jointHigh; ++j)
        if (world->joints[j].inUse) fcJoint_UpdateCoordinate(world, world->joints + j);
}
