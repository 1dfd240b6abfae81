// SPDX-License-Identifier: MIT
// What a step measured: each joint's position violation, the largest one, the energy (kinetic + gravity +
// springs), the power the constraint forces delivered (seed eq. 5: sum lambda df/dt), joint coordinates;
// and the checks a world must pass before it is stepped, and its state after (a diverged step is not taken).
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

// a bound of a body's energy terms: m v.v, trace(I) w.w (>= w.I w) and m |g.x|; finite while its energies are
static fcReal fcDiagnostics_EnergyBound(const fcWorld* world, const fcBody* b)
{
    const fcMat33* I = &b->inertiaLocal;
    return b->mass * (fcVec3_Dot(b->linearVelocity, b->linearVelocity) + FC_FABS(fcVec3_Dot(world->def.gravity, b->position))) +
           (I->cx.x + I->cy.y + I->cz.z) * fcVec3_Dot(b->angularVelocity, b->angularVelocity);
}

// after the step: a state that overflowed (extreme velocities, forces, sizes or mass ratios the solve could not
// carry), or whose energy does (a spin of 1e155 rad/s, 1e10 kg 1e300 m up: the step's energy came out inf or NaN
// while it returned true), is refused here rather than handed to the next step, which would spread the NaN. The
// sum takes one pass (a NaN or inf anywhere makes it non-finite); the body is looked up only when it is.
bool fcDiagnostics_ValidateState(const fcWorld* world)
{
    fcReal sum = 0;
    for (int k = 0; k < world->bodyHigh; ++k) {
        const fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        sum += b->position.x + b->position.y + b->position.z + b->orientation.w + b->orientation.x + b->orientation.y +
               b->orientation.z + b->linearVelocity.x + b->linearVelocity.y + b->linearVelocity.z +
               b->angularVelocity.x + b->angularVelocity.y + b->angularVelocity.z + fcDiagnostics_EnergyBound(world, b);
    }
    if (isfinite(sum)) return true;
    for (int k = 0; k < world->bodyHigh; ++k) {
        const fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        const char* what = !fcVec3_IsFinite(b->linearVelocity) || !fcVec3_IsFinite(b->angularVelocity) ? "velocity"
                           : !fcVec3_IsFinite(b->position) || !fcQuat_IsFinite(b->orientation)       ? "pose"
                           : !isfinite(fcDiagnostics_EnergyBound(world, b)) ? "energy (its mass times its speed squared or "
                                                                              "its height times gravity overflows)"
                                                                            : NULL;
        if (what == NULL) continue;
        return fcError("fcWorld_Step: the step diverged: body %d (\"%s\") came out with a non-finite %s. The world is back "
                       "at its state before the step, the joints' reactions of the step cleared; look for extreme "
                       "velocities, forces, sizes, stiffnesses or mass ratios",
                       k + 1, b->name, what);
    }
    // the sum overflowed on finite values (1e308 and more): such a state is one step from non-finite
    return fcError("fcWorld_Step: the step diverged: the bodies' state reached %g, beyond what double precision "
                   "carries. The world is back at its state before the step, the joints' reactions of the step cleared",
                   (double)sum);
}

bool fcDiagnostics_ValidateReactions(const fcWorld* world, fcReal records, fcReal h)
{
    if (!isfinite(world->contacts.heaviestPoint / h))
        return fcError("fcWorld_Step: the step diverged: a contact came out with a force beyond double precision (its "
                       "impulse over the step overflows). The world is back at its state before the step; look for extreme "
                       "masses or speeds");
    if (isfinite(records / h)) return true;
    const fcRowStore* r = &world->rows;
    for (int b = 0; b < r->blockCount; ++b) {
        int j = r->blockJoint[b];
        if (isfinite(fcJoint_RecordSum(world->joints + j) / h)) continue;
        return fcError("fcWorld_Step: the step diverged: joint %d (\"%s\") came out with a reaction beyond double precision "
                       "(its impulse over the step overflows). The world is back at its state before the step, the joints' "
                       "reactions of the step cleared; look for extreme masses, forces or stiffnesses",
                       j + 1, world->joints[j].name);
    }
    return fcError("fcWorld_Step: the step diverged: the joints' reactions sum beyond double precision. The world is back "
                   "at its state before the step, the joints' reactions of the step cleared");
}

static fcReal fcDiagnostics_KineticEnergy(const fcBody* b)
{
    fcVec3 v = b->linearVelocity;
    fcVec3 wBody = fcQuat_InvRotate(b->orientation, b->angularVelocity);
    return 0.5 * b->mass * fcVec3_Dot(v, v) + 0.5 * fcVec3_Dot(wBody, fcMat33_MulV(b->inertiaLocal, wBody));
}

void fcDiagnostics_Energy(const fcWorld* world, fcReal* kinetic, fcReal* gravity)
{
    fcReal k = 0, p = 0;
    fcVec3 g = world->def.gravity;
    for (int i = 0; i < world->bodyHigh; ++i) {
        const fcBody* b = world->bodies + i;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        k += fcDiagnostics_KineticEnergy(b);
        p -= b->mass * fcVec3_Dot(g, b->position);
    }
    *kinetic = k;
    *gravity = p;
}

fcReal fcDiagnostics_SpringEnergy(const fcWorld* world)
{
    fcReal e = 0;
    fcUserConstraintRow rows[FC_MAX_JOINT_ROWS];
    for (int j = 0; j < world->jointHigh; ++j) {
        const fcJoint* joint = world->joints + j;
        if (!joint->inUse || joint->stiffness <= 0) continue;
        bool moves = (joint->bodyA >= 0 && world->bodies[joint->bodyA].type == fc_dynamicBody) ||
                     world->bodies[joint->bodyB].type == fc_dynamicBody;
        if (!moves) continue;  // not in the system, as in fcDiagnostics_EndStep
        fcJointPose pose;
        fcJoint_ComputePose(world, joint, world->time, &pose);
        fcJoint_GetTypeTable(joint->type)->fill(world, joint, &pose, rows);
        bool holonomic = joint->type == fc_userConstraint ? joint->holonomic : joint->type != fc_bladeJoint;
        for (int k = 0; holonomic && k < joint->rowCount; ++k) e += 0.5 * joint->stiffness * rows[k].error * rows[k].error;
    }
    return e;
}

void fcDiagnostics_EndStep(fcWorld* world, bool rowsAtEndPose)
{
    fcRowStore* r = &world->rows;
    fcWorldStats* st = &world->stats;
    fcReal h = world->stepH;
    if (!rowsAtEndPose) fcRows_Fill(world, world->time, true);
    // per joint violation: norm of its holonomic errors; spring potential 1/2 k f^2 of soft rows
    fcReal worst = 0, springEnergy = 0;
    for (int b = 0; b < r->blockCount; ++b) {
        fcJoint* joint = world->joints + r->blockJoint[b];
        fcReal sum = 0;
        for (int k = 0; k < joint->rowCount; ++k) {
            int i = r->blockadr[b] + k;
            // a one-sided row is violated only when it penetrates
            fcReal e = (r->flags[i] & fc_rowUnilateral) ? (r->error[i] < 0 ? r->error[i] : 0) : r->error[i];
            sum += e * e;
            if (r->flags[i] & fc_rowSoft) springEnergy += 0.5 * joint->stiffness * r->error[i] * r->error[i];
        }
        joint->violation = FC_SQRT(sum);
        // the one-sided row's force, for its release event: a rope's or a user row's, and a limit's while it holds
        if (joint->unilateral) joint->lastForce = joint->impulse[0] / h;
        else if (joint->limitRow >= 0) joint->lastForce = joint->active ? joint->impulse[joint->limitRow] / h : 0;
        if (!fcJoint_IsSoft(joint) && joint->violation > worst) worst = joint->violation;
        fcJoint_UpdateCoordinate(world, joint);
    }
    st->maxViolation = worst;
    // joints out of the system (both bodies kinematic or static) still have coordinates that move
    if (r->blockCount < world->jointCount)
        for (int j = 0; j < world->jointHigh; ++j) {
            fcJoint* joint = world->joints + j;
            if (joint->inUse && joint->rowStart < 0) fcJoint_UpdateCoordinate(world, joint);
        }

    // energy and the power of the constraint impulses in one pass over the bodies (a large world's bodies
    // outgrow the caches: each pass over them costs memory traffic)
    fcReal kinetic = 0, potential = 0, power = 0;
    fcVec3 g = world->def.gravity;
    for (int k = 0; k < world->bodyHigh; ++k) {
        const fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody) continue;
        kinetic += fcDiagnostics_KineticEnergy(b);
        potential -= b->mass * fcVec3_Dot(g, b->position);
        // work of the step's constraint impulse at the mean velocity of the step
        fcVec3 vm = fcVec3_Scale(0.5, fcVec3_Add(b->linearVelocity, world->snapshotVelocity[k]));
        fcVec3 wm = fcVec3_Scale(0.5, fcVec3_Add(b->angularVelocity, world->snapshotAngularVelocity[k]));
        power += (fcVec3_Dot(world->constraintImpulse[k], vm) + fcVec3_Dot(world->constraintAngularImpulse[k], wm)) / h;
    }
    potential += springEnergy;
    st->kineticEnergy = kinetic;
    st->potentialEnergy = potential;
    st->energy = kinetic + potential;
    st->constraintPower = power;
    st->constraintWork += power * h;
}
