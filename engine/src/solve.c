// SPDX-License-Identifier: MIT
// The velocity solve of the bilateral rows: factor A = J M^-1 J^T + C once, solve
// A lambda = -(J v* + rate + bias) exactly, and apply the impulses: v+ = v* + M^-1 J^T lambda.
#include "solver.h"

// solve A lambda = -(J v + rate + bias + C lambda_applied) with the current factorization and apply the
// impulses: with the velocities as they are (contact impulses included) the joints' rows hold exactly
// afterwards. A soft row's equation J v + C lambda + bias = 0 is on its whole impulse of the (sub)step, so a
// correction solve counts what earlier solves already applied (without it a spring comes out stiffer).
static void fcSolve_Joints(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcTick t1 = fcTicks();
    fcRows_Velocities(world, r->lambda);
    for (int i = 0; i < r->count; ++i) {
        fcReal soft = (r->flags[i] & fc_rowSoft) ? r->compliance[i] * r->applied[i] : 0;
        r->lambda[i] = (r->flags[i] & fc_rowInactive) ? 0 : -(r->lambda[i] + r->rate[i] + fcStabilize_Bias(world, i) + soft);
    }
    fcLdlt_Solve(&world->ldlt, r->lambda);
    fcRows_ApplyImpulses(world, r->lambda, 1, false);
    for (int i = 0; i < r->count; ++i) r->applied[i] += r->lambda[i];
    world->stageTicks.solve += fcTicksSince(t1);
}

// factor A (inactive one-sided rows decoupled), then solve and apply
static void fcSolve_Once(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcRows_AssembleA(world, false);
    fcTick t0 = fcTicks();
    world->stats.redundantRows = fcLdlt_Factor(&world->ldlt, r->avalues, world->def.pivotTolerance);
    world->stageTicks.factor += fcTicksSince(t0);
    fcSolve_Joints(world);
}

static void fcSolve_JointRows(fcWorld* world);

// An inactive one-sided row i that would close its gap within the step (J v + f / h < 0) takes hold. A motor that
// drove it onto the stop stalls there from now on with its bound: its row is left out and returned in *held.
static bool fcSolve_TakeHold(fcWorld* world, int i, int* held)
{
    fcRowStore* r = &world->rows;
    fcJoint* joint = world->joints + r->joint[i];
    fcReal approach = fcRows_Velocity(world, i) + r->rate[i];
    if (approach + fcStabilize_Bias(world, i) >= -1e-12) return false;
    fcEvents_Hold(world, r->joint[i], r->error[i], -approach);
    joint->active = true;
    r->flags[i] &= (uint8_t)~fc_rowInactive;
    if (joint->motorRow >= 0 && joint->motorClamp == 0) {
        int mi = joint->rowStart + joint->motorRow;
        joint->motorClamp = -r->rate[mi] > 0 ? 2 : -2;
        r->flags[mi] |= fc_rowInactive;
        *held = mi;
    }
    return true;
}

// A one-sided row i lets go (its joint's release event when it held last step)
static void fcSolve_LetGo(fcWorld* world, int i, fcReal lambda)
{
    fcRowStore* r = &world->rows;
    fcJoint* joint = world->joints + r->joint[i];
    if (joint->lastForce > 0) fcEvents_Release(world, r->joint[i], lambda);
    joint->active = false;
    r->flags[i] |= fc_rowInactive;
}

// After exact contact impulses through joints the one-sided rows are settled again, as fcSolve_JointRows settles
// them before the contacts, and the joints solved with the new set. A stop the bodies now approach takes hold (a
// body resting free at its stop, hit by a heavy one, passed it for a substep and was thrown back); one that the
// substep's impulses leave pulling (applied < 0: a platform resting on its stop, struck from below) lets go, its
// impulse taken back. Joints with a motor take no part (an island with one is not solved exactly). Returns whether
// the set changed.
static bool fcSolve_SettleAfterContacts(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    bool changed = false;
    for (int i = 0; i < r->count; ++i) r->lambda[i] = 0;
    for (int i = 0; i < r->count; ++i) {
        const fcJoint* joint = world->joints + r->joint[i];
        if (!(r->flags[i] & fc_rowUnilateral) || joint->motorRow >= 0) continue;
        int held = -1;
        if (joint->active && r->applied[i] < 0) {
            fcSolve_LetGo(world, i, r->applied[i]);
            r->lambda[i] = -r->applied[i];
            r->applied[i] = 0;
            changed = true;
        } else if (!joint->active && fcSolve_TakeHold(world, i, &held)) {
            changed = true;
        }
    }
    if (!changed) return false;
    fcRows_ApplyImpulses(world, r->lambda, 1, false);  // the impulses of the rows that let go, taken back
    fcSolve_Once(world);
    return true;
}

// A motor is settled on its bound before the contacts; the joint solves between the sweeps then hold its row as an
// equality, and a load the contacts put on it went through it whole (a 5 kg crate landing on a platform held by a
// 100 N motor: 246 N). After such a solve a motor row whose impulse in this (sub)step passed its bound is held at the
// bound from now on, as fcSolve_JointRows holds it, the excess taken back, and the joints solved without it.
// Returns whether one was held.
static bool fcSolve_BoundMotors(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    bool changed = false;
    for (int i = 0; i < r->count; ++i) {
        r->lambda[i] = 0;
        if (!(r->flags[i] & fc_rowBounded) || (r->flags[i] & fc_rowInactive) || FC_FABS(r->applied[i]) <= r->bound[i])
            continue;
        fcReal sign = r->applied[i] > 0 ? 1 : -1;
        r->lambda[i] = sign * r->bound[i] - r->applied[i];
        r->applied[i] = sign * r->bound[i];
        world->joints[r->joint[i]].motorClamp = (int)sign;
        r->flags[i] |= fc_rowInactive;
        changed = true;
    }
    if (!changed) return false;
    fcRows_ApplyImpulses(world, r->lambda, 1, false);
    fcSolve_Once(world);
    return true;
}

// The mixed problem, by block Gauss-Seidel: the contact rows swept by PGS, the joint rows solved exactly
// (one back-substitution with the step's factorization) after every sweep; the joints hold exactly at the end.
void fcSolve_Velocities(fcWorld* world)
{
    bool contacts = fcContacts_HasRows(world);
    bool joints = world->rows.count > 0;
    if (contacts) {
        fcTick t0 = fcTicks();
        fcContacts_Prepare(world);
        fcContacts_WarmStart(world);
        fcContacts_StoreVelocities(world);
        world->stageTicks.contactSolve += fcTicksSince(t0);
    }
    if (joints) fcSolve_JointRows(world);
    if (!contacts) return;
    int iterations = 0;
    if (joints) fcContacts_LoadVelocities(world);
    if (world->contacts.exactIslandCount > 0) {
        // heavy on light: those islands' normal rows exactly, then the sweeps (friction bounded by them)
        fcTick t0 = fcTicks();
        bool throughJoints = fcContacts_SolveExact(world);
        world->stageTicks.contactSolve += fcTicksSince(t0);
        if (throughJoints) {
            // the joints take up the exact impulses, as after a sweep: the solve counted on it. A stop that takes
            // hold or lets go changes what the contacts see through the joints: the islands are solved again.
            fcContacts_StoreVelocities(world);
            fcSolve_Joints(world);
            for (int round = 0; round < 4 && fcSolve_SettleAfterContacts(world); ++round) {
                fcContacts_LoadVelocities(world);
                fcTick t1 = fcTicks();
                fcContacts_SolveExact(world);
                world->stageTicks.contactSolve += fcTicksSince(t1);
                fcContacts_StoreVelocities(world);
                fcSolve_Joints(world);
            }
            fcContacts_LoadVelocities(world);
        }
    }
    int least = world->def.contactIterations, most = FC_CONTACT_MOST_SWEEPS * least;  // contact.h
    for (int it = 0; it < most; ++it) {
        fcTick t0 = fcTicks();
        bool settled = false;
        fcReal change = fcContacts_Sweep(world, it, &settled);
        world->stageTicks.contactSolve += fcTicksSince(t0);
        iterations += 1;
        if (joints) {
            // the joint solve works on the bodies' velocities
            fcContacts_StoreVelocities(world);
            fcSolve_Joints(world);
            fcSolve_BoundMotors(world);
            fcContacts_LoadVelocities(world);
        }
        if (change <= world->def.contactTolerance || (it + 1 >= least && settled)) break;
    }
    fcContacts_StoreVelocities(world);
    fcTick t1 = fcTicks();
    fcContacts_Finish(world);
    world->stats.contactIterations += iterations;
    world->stageTicks.contactSolve += fcTicksSince(t1);
}

// the impulses of the motor rows held at their bound (row `only`, or all of them when only < 0), times sign
static void fcSolve_ApplyHeld(fcWorld* world, fcReal sign, int only)
{
    fcRowStore* r = &world->rows;
    bool any = false;
    for (int i = 0; i < r->count; ++i) {
        r->lambda[i] = 0;
        if (!(r->flags[i] & fc_rowBounded) || (only >= 0 && i != only)) continue;
        int clamp = world->joints[r->joint[i]].motorClamp;
        if (clamp == 0) continue;
        r->lambda[i] = sign * clamp * r->bound[i];
        any = true;
    }
    if (any) fcRows_ApplyImpulses(world, r->lambda, 1, false);
}

// A motor and an engaged limit act on the same coordinate, so both rows cannot be in the system (A would be
// singular and the pivot guard would drop one of them at random). A motor driving away from the stop frees the
// limit; a motor driving into it stalls there, pushing with its bound, and the limit takes the rest. A lock (lower
// == upper) holds both ways: a motor stalls against it, and one that drives nowhere (target 0) leaves it the load.
static void fcSolve_SettleLimitMotors(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    for (int b = 0; b < r->blockCount; ++b) {
        fcJoint* joint = world->joints + r->blockJoint[b];
        bool locks = fcJoint_LimitLocks(joint);
        if (joint->limitRow < 0 || joint->motorRow < 0 || !(joint->active || locks) || joint->motorClamp != 0) continue;
        int li = joint->rowStart + joint->limitRow, mi = joint->rowStart + joint->motorRow;
        fcReal side = 0;  // +1: the limit row's J is +dq (lower limit), -1: upper
        for (int k = 0; k < 12; ++k) side += r->J[li][k] * r->J[mi][k];
        fcReal target = -r->rate[mi];
        if (locks && FC_FABS(target) <= 1e-9) {  // a servo at its target computes a rate of rounding size
            r->flags[mi] |= fc_rowInactive;
        } else if (!locks && target * side >= 0) {
            if (joint->active && joint->lastForce > 0) fcEvents_ReleaseNow(world, r->blockJoint[b]);
            joint->active = false;
            r->flags[li] |= fc_rowInactive;
        } else {
            joint->motorClamp = target > 0 ? 1 : -1;
            r->flags[mi] |= fc_rowInactive;
        }
    }
}

// the joints alone: factor, solve, and settle the active set of the one-sided rows (limits, ropes, user
// rows) and of the motors' bounds, each solve exact
static void fcSolve_JointRows(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcRows_ComputeW(world, false);
    for (int i = 0; i < r->count; ++i) r->applied[i] = 0;
    fcSolve_SettleLimitMotors(world);
    fcSolve_ApplyHeld(world, 1, -1);  // a motor at its bound since the last step pushes with it from the start
    fcSolve_Once(world);
    // one-sided rows: a row that came out pulling (lambda < 0) lets go; an inactive one that would close its
    // gap within the step (J v + f / h < 0) takes hold. A motor whose lambda passed its bound is held there
    // (out of the system, pushing with the bound); a held motor that now overshoots its target rate is let
    // back in. The solve is repeated until the sets are stable.
    for (int round = 0; round < 16; ++round) {
        bool changed = false;
        int firstHeld = -1;  // a row newly held this round (its clamp is +-2 until its impulse is applied)
        for (int i = 0; i < r->count; ++i) {
            fcJoint* joint = world->joints + r->joint[i];
            if (r->flags[i] & fc_rowBounded) {
                fcReal rate = fcRows_Velocity(world, i) + r->rate[i];
                if (joint->motorClamp == 0 && FC_FABS(r->lambda[i]) > r->bound[i]) {
                    joint->motorClamp = r->lambda[i] > 0 ? 2 : -2;  // 2: held from this round on
                    r->flags[i] |= fc_rowInactive;
                    firstHeld = i;
                    changed = true;
                } else if (joint->motorClamp != 0 && joint->motorClamp * rate > 1e-12) {
                    fcSolve_ApplyHeld(world, -1, i);
                    joint->motorClamp = 0;
                    r->flags[i] &= (uint8_t)~fc_rowInactive;
                    changed = true;
                }
                continue;
            }
            if (!(r->flags[i] & fc_rowUnilateral)) continue;
            if (joint->active && r->lambda[i] < 0) {
                fcSolve_LetGo(world, i, r->lambda[i]);
                changed = true;
            } else if (!joint->active && fcSolve_TakeHold(world, i, &firstHeld)) {
                changed = true;
            }
        }
        if (!changed) break;
        // take the impulses back (velocities are linear in them) and solve with the new sets; newly held
        // motors push with their bound
        for (int i = 0; i < r->count; ++i) {
            r->lambda[i] = -r->lambda[i];
            r->applied[i] += r->lambda[i];
        }
        fcRows_ApplyImpulses(world, r->lambda, 1, false);
        if (firstHeld >= 0) {
            for (int i = 0; i < r->count; ++i) {
                int* clamp = &world->joints[r->joint[i]].motorClamp;
                bool fresh = (r->flags[i] & fc_rowBounded) && (*clamp == 2 || *clamp == -2);
                r->lambda[i] = fresh ? (*clamp > 0 ? 1 : -1) * r->bound[i] : 0;
                if (fresh) *clamp /= 2;
            }
            fcRows_ApplyImpulses(world, r->lambda, 1, false);
        }
        fcSolve_Once(world);
    }
}
