// SPDX-License-Identifier: MIT
// Drift control and stability. Baumgarte: the velocity row J v = -beta f / h. Projection: after the positions move,
// SHAKE iterations q <- q + M~^-1 J_n^T mu on the start-of-step gradients, with the velocity solve's factorization,
// Anderson-mixed from the third iterate; a chord fallback on the current gradients when they stall. The
// displacement over h is added to the velocities and mu / h to the multipliers: the whole impulse of the step
// is reported. The joints' geometric stiffness K, which makes M~ = M + h^2 K / 4 (physics.md 4).
#include "solver.h"

fcReal fcStabilize_Bias(const fcWorld* world, int row)
{
    const fcRowStore* r = &world->rows;
    uint8_t flags = r->flags[row];
    // soft rows carry their spring in the bias whatever the mode
    if (flags & fc_rowSoft) return r->biasFactor[row] * r->error[row];
    // a one-sided row may close its gap within the step (speculative: J v >= -f / h), and is pushed out of
    // penetration like a holonomic row
    if ((flags & fc_rowUnilateral) && r->error[row] > 0) return r->error[row] / world->h;
    if ((flags & fc_rowHolonomic) && world->def.stabilization == fc_stabilizeBaumgarte)
        return world->def.baumgarte * r->error[row] / world->h;
    return 0;
}

// largest |f| over the rigid holonomic rows (the rows the projection must satisfy), and in the same pass the
// right-hand side of the next iterate into lambda: J M~^-1 J^T mu = -f on those rows; Pfaffian rows keep
// J dq = 0 so that the velocity correction dq / h does not violate them
static fcReal fcStabilize_Residual(fcRowStore* r)
{
    fcReal worst = 0;
    for (int i = 0; i < r->count; ++i) {
        bool rigid = (r->flags[i] & (fc_rowHolonomic | fc_rowSoft | fc_rowInactive)) == fc_rowHolonomic;
        r->lambda[i] = rigid ? -r->error[i] : 0;
        if (!rigid) continue;
        // a one-sided row only counts while it penetrates
        fcReal e = (r->flags[i] & fc_rowUnilateral) ? (r->error[i] < 0 ? -r->error[i] : 0) : FC_FABS(r->error[i]);
        if (e > worst) worst = e;
    }
    return worst;
}

// one-sided rows take part in the projection only while they penetrate (pushed out to f = 0); a separated one
// is left alone: the projection never pulls a body onto a surface. True when a row changed sides.
static bool fcStabilize_SelectUnilateral(fcRowStore* r)
{
    bool changed = false;
    for (int i = 0; i < r->count; ++i) {
        if (!(r->flags[i] & fc_rowUnilateral)) continue;
        uint8_t flags = r->error[i] < 0 ? (uint8_t)(r->flags[i] & ~fc_rowInactive) : (uint8_t)(r->flags[i] | fc_rowInactive);
        changed = changed || flags != r->flags[i];
        r->flags[i] = flags;
    }
    return changed;
}

// the end of the projection, in one pass over the bodies: the projection bodies' state back into the bodies, and the
// displaced bodies' world inertia
static void fcStabilize_EndChunk(void* context, int begin, int end)
{
    fcWorld* world = context;
    for (int k = begin; k < end; ++k) {
        fcBody* b = world->bodies + k;
        if (!b->inUse || b->type != fc_dynamicBody || b->asleep) continue;
        const fcProjectionBody* s = fcWorld_ProjectionBody(world, k);
        if (s != NULL) {
            b->position = s->position;
            b->orientation = s->orientation;
            b->linearVelocity = s->linearVelocity;
            b->angularVelocity = s->angularVelocity;
        }
        fcBody_UpdateInverseInertia(b);
    }
}

// take the soft rows (springs, not constraints) out of the projection, then factor J M^-1 J^T. The inertia is
// refreshed on the bodies' records: the projection bodies' state goes back to them first, and their new M~^-1
// comes back after
static void fcStabilize_Factor(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcRows_SyncProjection(world, fc_projectionScatter);
    fcRows_Flush(world);  // the soft rows' velocity impulses are recorded with their J before it is zeroed
    for (int i = 0; i < r->count; ++i)
        if (r->flags[i] & fc_rowSoft)
            for (int m = 0; m < 12; ++m) r->J[i][m] = 0;
    fcRows_ComputeW(world, true);
    fcRows_AssembleA(world, true);
    fcLdlt_Factor(&world->ldlt, r->avalues, world->def.pivotTolerance);
    fcRows_SyncProjection(world, fc_projectionGatherInertia);
}

// The SHAKE iterates converge linearly, at a nearly constant rate rho: each correction F_k is about rho times the
// last. Anderson mixing of depth one takes the step F_k - gamma (s_k-1 + F_k - F_k-1) with gamma minimizing the
// mixed correction, which for F_k = rho F_k-1 is F_k / (1 - rho): the whole remaining geometric series. It
// converges to the same root (a fixed point of the iteration is one of the mixing), in fewer iterates. lambda
// holds F_k on entry and the step to take on return; without a history to mix with yet it is left alone and
// starts one.
static void fcStabilize_Accelerate(fcRowStore* r, bool history)
{
    fcReal* f = r->lambda;
    fcReal* lastF = r->projectionLast;
    fcReal* lastStep = r->projectionStep;
    if (history) {
        fcReal num = 0, den = 0;
        for (int i = 0; i < r->count; ++i) {
            fcReal d = f[i] - lastF[i];
            num += f[i] * d;
            den += d * d;
        }
        fcReal gamma = den > 0 ? num / den : 0;
        // beyond [-1, 0] the iterates are not contracting steadily: take the plain step
        if (!(gamma >= -1 && gamma <= 0)) gamma = 0;
        for (int i = 0; i < r->count; ++i) {
            fcReal step = f[i] - gamma * (lastStep[i] + f[i] - lastF[i]);
            lastF[i] = f[i];
            f[i] = lastStep[i] = step;
        }
        return;
    }
    for (int i = 0; i < r->count; ++i) lastF[i] = lastStep[i] = f[i];
}

void fcStabilize_Project(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcWorldStats* st = &world->stats;
    fcReal tEnd = world->time + world->h;
    fcReal invH = 1 / world->h;
    st->projectionIterations = 0;
    st->projectionConverged = true;
    st->projectionResidual = 0;
    st->projectionNewtonSteps = 0;
    if (r->count == 0) return;
    // SHAKE: corrections along the gradients of the step's start pose (J_n, still in the row store), with the
    // matrix J_n M^-1 J_n^T factored once; f is re-evaluated at every iterate. Its velocity (q_n+1 - q_n) / h
    // stays tangent to the start-of-step constraints, which is why the energy does not drift. When a step
    // turns so far that this stalls (a whipping chain: the residual falls by less than 4x), the gradients are
    // taken again at the current pose and the matrix refactored (Newton), and again whenever the iteration
    // stalls on them.
    bool newton = false, history = false;
    fcReal previous = 0;
    // the iterates work on a compact copy of the bodies the blocks touch (fcProjectionBody): the errors, the
    // user rows' and the joints' poses (fcBody_GetState, fcJoint_WorldPoint) and the moves read it
    fcRows_SyncProjection(world, fc_projectionGather);
    r->projectionActive = true;
    for (int it = 0;; ++it) {
        if (!fcRows_Fill(world, tEnd, true)) {
            // a user row went non-finite at the moved pose: keep the pose, report the failure
            st->projectionConverged = false;
            break;
        }
        // the one-sided rows in the system are chosen where the matrix is factored. The first factorization is
        // the velocity solve's, J_n M~^-1 J_n^T, unless soft rows (their compliance is in it) or one-sided rows
        // changing sides make the projection's matrix differ
        bool refactor = it == 0 && (fcStabilize_SelectUnilateral(r) || r->softCount > 0);
        fcReal residual = fcStabilize_Residual(r);
        st->projectionResidual = residual;
        if (residual <= world->def.projectionTolerance) break;
        if (it == world->def.projectionMaxIterations) {
            st->projectionConverged = false;
            break;
        }
        if (it > 0 && residual > 0.25 * previous) {
            // stalled: new gradients at this pose (the errors are already here), then this iterate's solve
            newton = refactor = true;
            if (!fcRows_Fill(world, tEnd, false)) {
                st->projectionConverged = false;  // a user row went non-finite here: as above
                break;
            }
            fcStabilize_SelectUnilateral(r);
            fcStabilize_Residual(r);  // the right-hand side with the rows that are in the system now
        }
        if (refactor) {
            fcStabilize_Factor(world);
            history = false;  // a new map: the last iterates say nothing about it
        }
        st->projectionNewtonSteps += newton;
        previous = residual;
        fcLdlt_Solve(&world->ldlt, r->lambda);  // the right-hand side is fcStabilize_Residual's
        // mixing waits until two plain iterates have contracted steadily: a step that whips (and stalls early)
        // keeps the plain path to its chord fallback, which an early extrapolation could lead astray
        if (it >= 2) {
            fcStabilize_Accelerate(r, history);
            history = true;
        }
        fcRows_ApplyImpulses(world, r->lambda, invH, true);
        st->projectionIterations = it + 1;
    }
    fcParallelFor(world->tasks, world->bodyHigh, FC_BODY_GRAIN, fcStabilize_EndChunk, world);
    r->projectionActive = false;
}

// K = sum over the body's joints of max(0, F . r) (E - u u^T), u = r / |r|: the change of the joint's torque
// r x F as the body turns under a pulling force F at lever r, symmetrized and kept positive (tension stiffens
// the rocking of a link; shear and compression are left explicit). The joints are the body's blocks in the row
// store: the levers of the step's first fill, the forces of the last step's flush, no joint record read.
void fcStabilize_GeometricStiffness(fcWorld* world, int k, fcReal invH)
{
    fcBody* b = world->bodies + k;
    const fcRowStore* r = &world->rows;
    b->stiffnessRate = 0;
    if (!b->inUse || b->type != fc_dynamicBody || invH == 0) return;
    fcMat33 stiffness = fcMat33_Zero();
    fcReal total = 0;
    int pulling = 0;
    for (int e = r->bodyadr[k]; e < r->bodyadr[k + 1]; ++e) {
        int block = r->bodyBlocks[e] >> 1;
        bool isB = r->bodyBlocks[e] & 1;
        if (r->blockFlags[block] & fc_blockSoft) continue;
        fcVec3 lever = isB ? r->blockLeverB[block] : r->blockLeverA[block];
        fcVec3 force = fcVec3_Scale(invH, isB ? r->blockImpulseB[block] : r->blockImpulseA[block]);
        fcReal pull = fcVec3_Dot(force, lever);
        fcReal r2 = fcVec3_Dot(lever, lever);
        if (pull <= 0 || r2 <= 0) continue;
        // pull (E - r r^T / r^2)
        fcReal c = pull / r2;
        stiffness.cx = fcVec3_Add(stiffness.cx, fcV3(pull - c * lever.x * lever.x, -c * lever.y * lever.x, -c * lever.z * lever.x));
        stiffness.cy = fcVec3_Add(stiffness.cy, fcV3(-c * lever.x * lever.y, pull - c * lever.y * lever.y, -c * lever.z * lever.y));
        stiffness.cz = fcVec3_Add(stiffness.cz, fcV3(-c * lever.x * lever.z, -c * lever.y * lever.z, pull - c * lever.z * lever.z));
        total += pull;
        pulling += 1;
    }
    // a body pulled at one point only swings with that joint: no rocking mode to stiffen
    if (total == 0 || pulling < 2) return;
    fcMat33 in = b->inertiaLocal;
    fcReal smallest = fmin(in.cx.x, fmin(in.cy.y, in.cz.z));
    b->geometricStiffness = stiffness;
    b->stiffnessRate = smallest > 0 ? total / smallest : 1;
}
