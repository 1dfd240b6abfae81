// SPDX-License-Identifier: MIT
// The row store: layout of the blocks and of A's pattern when the topology changes (count pass, then the
// symbolic factorization), the fill pass every step, W = M^-1 J^T and the assembly of A = J M^-1 J^T + C.
#include "solver.h"

#include <limits.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void fcRowStore_Free(fcRowStore* r)
{
    fcFree(r->blockJoint);
    fcFree(r->blockadr);
    fcFree(r->blocksize);
    fcFree(r->blockLeverB);
    fcFree(r->joint);
    fcFree(r->rowBlock);
    fcFree(r->bodyA);
    fcFree(r->bodyB);
    fcFree(r->flags);
    fcFree(r->J);
    fcFree(r->W);
    fcFree(r->rate);
    fcFree(r->error);
    fcFree(r->compliance);
    fcFree(r->biasFactor);
    fcFree(r->lambda);
    fcFree(r->bound);
    fcFree(r->applied);
    fcFree(r->pending);
    fcFree(r->projectionLast);
    fcFree(r->projectionStep);
    fcFree(r->arownnz);
    fcFree(r->arowadr);
    fcFree(r->acolind);
    fcFree(r->avalues);
    fcFree(r->ashared);
    memset(r, 0, sizeof *r);
}

static bool fcIsDynamic(const fcWorld* world, int body) { return body >= 0 && world->bodies[body].type == fc_dynamicBody; }
// a sleeping body is held where it is: its rows move nothing this step (their multipliers keep the last value)
static bool fcMoves(const fcWorld* world, int body) { return fcIsDynamic(world, body) && !world->bodies[body].asleep; }

static void atomic_fetch_min_int(atomic_int* target, int value)
{
    int seen = atomic_load(target);
    while (value < seen && !atomic_compare_exchange_weak(target, &seen, value)) {
    }
}

// x * 0 is 0 for every finite x and NaN for an infinite or NaN one: one test for n values, no overflow
static inline bool fcAllFinite(const fcReal* x, int n)
{
    fcReal zero = 0;
    for (int k = 0; k < n; ++k) zero += x[k] * 0;
    return zero == 0;
}

static int fcCompareInt(const void* a, const void* b)
{
    int x = *(const int*)a, y = *(const int*)b;
    return (x > y) - (x < y);
}

void fcRows_Layout(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcRowStore_Free(r);
    // count pass: a joint is a block when it moves at least one dynamic body
    int blocks = 0, rows = 0;
    int* jointBlock = fcAlloc(sizeof(int) * (size_t)(world->jointHigh + 1));
    for (int j = 0; j < world->jointHigh; ++j) {
        fcJoint* joint = world->joints + j;
        jointBlock[j] = -1;
        if (!joint->inUse) continue;
        joint->rowStart = -1;
        if (!fcIsDynamic(world, joint->bodyA) && !fcIsDynamic(world, joint->bodyB)) continue;
        jointBlock[j] = blocks++;
        rows += joint->rowCount;
    }
    r->blockCount = blocks;
    r->count = r->capacity = rows;
    r->userBlocks = 0;
    for (int j = 0; j < world->jointHigh; ++j) r->userBlocks += jointBlock[j] >= 0 && world->joints[j].type == fc_userConstraint;
    size_t n = (size_t)rows;
    r->blockJoint = fcAlloc(sizeof(int) * (size_t)blocks);
    r->blockadr = fcAlloc(sizeof(int) * (size_t)blocks);
    r->blocksize = fcAlloc(sizeof(int) * (size_t)blocks);
    r->blockLeverB = fcAllocZeroed(sizeof(fcVec3) * (size_t)(blocks + 1));
    r->joint = fcAlloc(sizeof(int) * n);
    r->rowBlock = fcAlloc(sizeof(int) * n);
    r->bodyA = fcAlloc(sizeof(int) * n);
    r->bodyB = fcAlloc(sizeof(int) * n);
    r->flags = fcAllocZeroed(n);
    r->J = fcAllocZeroed(sizeof(fcReal[12]) * n);
    r->W = fcAllocZeroed(sizeof(fcReal[12]) * n);
    r->rate = fcAllocZeroed(sizeof(fcReal) * n);
    r->error = fcAllocZeroed(sizeof(fcReal) * n);
    r->compliance = fcAllocZeroed(sizeof(fcReal) * n);
    r->biasFactor = fcAllocZeroed(sizeof(fcReal) * n);
    r->lambda = fcAllocZeroed(sizeof(fcReal) * n);
    r->bound = fcAllocZeroed(sizeof(fcReal) * n);
    r->applied = fcAllocZeroed(sizeof(fcReal) * n);
    r->pending = fcAllocZeroed(sizeof(fcReal) * n);
    r->projectionLast = fcAllocZeroed(sizeof(fcReal) * n);
    r->projectionStep = fcAllocZeroed(sizeof(fcReal) * n);
    r->arownnz = fcAlloc(sizeof(int) * n);
    r->arowadr = fcAlloc(sizeof(int) * n);

    int row = 0;
    for (int j = 0; j < world->jointHigh; ++j) {
        if (jointBlock[j] < 0) continue;
        fcJoint* joint = world->joints + j;
        int b = jointBlock[j];
        r->blockJoint[b] = j;
        r->blockadr[b] = row;
        r->blocksize[b] = joint->rowCount;
        joint->rowStart = row;
        for (int k = 0; k < joint->rowCount; ++k, ++row) {
            r->joint[row] = j;
            r->rowBlock[row] = b;
            r->bodyA[row] = joint->bodyA;
            r->bodyB[row] = joint->bodyB;
        }
    }

    // pattern of A's lower triangle: block b sees every earlier block sharing a dynamic body with it
    int* adjacent = fcAlloc(sizeof(int) * (size_t)(blocks + 1));
    int* mark = fcAlloc(sizeof(int) * (size_t)(blocks + 1));
    for (int b = 0; b < blocks; ++b) mark[b] = -1;
    int capacity = rows * 4 + 16, nnz = 0;
    int* colind = fcAlloc(sizeof(int) * (size_t)capacity);
    for (int b = 0; b < blocks; ++b) {
        const fcJoint* joint = world->joints + r->blockJoint[b];
        int count = 0;
        int sides[2] = {joint->bodyA, joint->bodyB};
        for (int s = 0; s < 2; ++s) {
            if (!fcIsDynamic(world, sides[s])) continue;
            const fcBody* body = world->bodies + sides[s];
            for (int k = 0; k < body->jointCount; ++k) {
                int c = jointBlock[body->joints[k]];
                if (c < 0 || c >= b || mark[c] == b) continue;
                mark[c] = b;
                adjacent[count++] = c;
            }
        }
        qsort(adjacent, (size_t)count, sizeof(int), fcCompareInt);
        int width = joint->rowCount;
        for (int k = 0; k < count; ++k) width += r->blocksize[adjacent[k]];
        for (int i = 0; i < joint->rowCount; ++i) {
            int rowIndex = r->blockadr[b] + i;
            if (nnz + width > capacity) {
                capacity = 2 * (nnz + width);
                colind = fcRealloc(colind, sizeof(int) * (size_t)capacity);
            }
            r->arowadr[rowIndex] = nnz;
            for (int k = 0; k < count; ++k)
                for (int m = 0; m < r->blocksize[adjacent[k]]; ++m) colind[nnz++] = r->blockadr[adjacent[k]] + m;
            for (int m = 0; m <= i; ++m) colind[nnz++] = r->blockadr[b] + m;
            r->arownnz[rowIndex] = nnz - r->arowadr[rowIndex];
        }
    }
    r->acolind = colind;
    r->nnzA = nnz;
    r->avalues = fcAllocZeroed(sizeof(fcReal) * (size_t)(nnz + 1));
    r->ashared = fcAllocZeroed((size_t)(nnz + 1));
    for (int i = 0; i < rows; ++i) {
        int bi[2] = {r->bodyA[i], r->bodyB[i]};
        for (int e = r->arowadr[i]; e < r->arowadr[i] + r->arownnz[i]; ++e) {
            int j = colind[e];
            int bj[2] = {r->bodyA[j], r->bodyB[j]};
            for (int s = 0; s < 2; ++s)
                for (int t = 0; t < 2; ++t)
                    if (fcIsDynamic(world, bi[s]) && bi[s] == bj[t]) r->ashared[e] |= (uint8_t)(1 << (2 * s + t));
        }
    }
    fcFree(adjacent);
    fcFree(mark);
    fcFree(jointBlock);

    fcLdlt_Analyze(&world->ldlt, rows, r->arownnz, r->arowadr, r->acolind, blocks, r->blockadr, r->blocksize);
    world->stats.symbolicAnalyses += 1;
    world->topologyDirty = false;
}

typedef struct fcFillTask {
    fcWorld* world;
    fcReal time;
    bool errorsOnly;
    atomic_int firstBad;  // the first block with a non-finite row (INT_MAX: none)
    atomic_int softCount;
} fcFillTask;

static void fcRows_FillChunk(void* context, int begin, int end)
{
    fcFillTask* task = context;
    fcWorld* world = task->world;
    fcRowStore* r = &world->rows;
    fcReal h = world->h;
    bool errorsOnly = task->errorsOnly;
    int softCount = 0;
    fcUserConstraintRow tmp[FC_MAX_JOINT_ROWS];
    for (int b = begin; b < end; ++b) {
        const fcJoint* joint = world->joints + r->blockJoint[b];
        const fcJointTypeTable* type = fcJoint_GetTypeTable(joint->type);
        if (errorsOnly && type->errors != NULL && joint->limitRow < 0 && joint->motorRow < 0) {
            fcReal* errors = r->error + r->blockadr[b];
            type->errors(world, joint, errors);
            if (!fcAllFinite(errors, joint->rowCount))
                for (int k = 0; k < joint->rowCount; ++k)
                    if (!isfinite(errors[k])) atomic_fetch_min_int(&task->firstBad, b * FC_MAX_JOINT_ROWS + k);
            continue;
        }
        fcJointPose pose;
        fcJoint_ComputePose(world, joint, task->time, &pose);
        type->fill(world, joint, &pose, tmp);
        fcJoint_FillLimitMotor(world, joint, &pose, tmp);
        bool finite = true;
        if (!errorsOnly) r->blockLeverB[b] = pose.rb;
        bool soft = fcJoint_IsSoft(joint);
        bool holonomic = joint->type == fc_userConstraint ? joint->holonomic : joint->type != fc_bladeJoint;
        // soft row: impulse = -h k (f + h J v) - h c J v, i.e. J v + gamma lambda + k f / (h k + c) = 0
        fcReal gamma = soft ? 1 / (h * (h * joint->stiffness + joint->damping)) : 0;
        fcReal bias = soft ? joint->stiffness / (h * joint->stiffness + joint->damping) : 0;
        for (int k = 0; k < joint->rowCount && finite; ++k) {
            finite = isfinite(tmp[k].rate) && isfinite(tmp[k].error) && fcAllFinite(tmp[k].jacobian[0], 6) &&
                     fcAllFinite(tmp[k].jacobian[1], 6);
            if (!finite) atomic_fetch_min_int(&task->firstBad, b * FC_MAX_JOINT_ROWS + k);
        }
        if (!finite) continue;
        for (int k = 0; k < joint->rowCount; ++k) {
            int i = r->blockadr[b] + k;
            r->error[i] = holonomic ? tmp[k].error : 0;
            if (errorsOnly) continue;
            memcpy(r->J[i], tmp[k].jacobian[0], sizeof(fcReal[6]));
            memcpy(r->J[i] + 6, tmp[k].jacobian[1], sizeof(fcReal[6]));
            r->rate[i] = tmp[k].rate;
            bool oneSided = k == joint->limitRow || (joint->unilateral && k == 0);
            bool motor = k == joint->motorRow;
            r->flags[i] = (uint8_t)((holonomic && !motor ? fc_rowHolonomic : 0) | (soft && !oneSided && !motor ? fc_rowSoft : 0) |
                                    (oneSided ? fc_rowUnilateral : 0) | (motor ? fc_rowBounded : 0) |
                                    ((oneSided && !joint->active) || (motor && joint->motorClamp != 0) ? fc_rowInactive : 0));
            if (motor) r->error[i] = 0;
            softCount += (r->flags[i] & fc_rowSoft) != 0;
            r->compliance[i] = oneSided || motor ? 0 : gamma;
            r->biasFactor[i] = oneSided || motor ? 0 : bias;
            r->bound[i] = motor ? joint->maxMotorForce * h : 0;
        }
    }
    if (softCount) atomic_fetch_add(&task->softCount, softCount);
}

bool fcRows_Fill(fcWorld* world, fcReal time, bool errorsOnly)
{
    fcRowStore* r = &world->rows;
    if (!errorsOnly) fcRows_Flush(world);  // the impulses applied with the old J are recorded with it
    fcFillTask task = {world, time, errorsOnly, INT_MAX, 0};
    // user constraints call back into the caller's code, which need not be thread-safe
    fcParallelFor(r->userBlocks > 0 ? NULL : world->tasks, r->blockCount, FC_BLOCK_GRAIN, fcRows_FillChunk, &task);
    if (!errorsOnly) r->softCount = atomic_load(&task.softCount);
    int bad = atomic_load(&task.firstBad);
    if (bad != INT_MAX) {
        int block = bad / FC_MAX_JOINT_ROWS;
        const fcJoint* joint = world->joints + r->blockJoint[block];
        return fcError("fcWorld_Step: joint %d (\"%s\") produced a non-finite row %d; the step was not taken",
                       r->blockJoint[block] + 1, joint->name, bad % FC_MAX_JOINT_ROWS);
    }
    return true;
}

// the rotational inertia the constraint impulses see: I + theta h^2 K with K the joints' geometric stiffness
// (physics.md section 4): theta = 1/4 takes the stiffness by the trapezoidal rule, stable at any h w and without
// numerical damping
static void fcRows_SolveInertiaChunk(void* context, int begin, int end)
{
    fcWorld* world = context;
    fcReal gain = FC_GEOMETRIC_THETA * world->h * world->h;
    for (int k = begin; k < end; ++k) {
        fcBody* body = world->bodies + k;
        if (!body->inUse || body->type != fc_dynamicBody) continue;
        if (body->stiffnessRate == 0) {
            body->invInertiaSolve = body->invInertiaWorld;
            continue;
        }
        fcMat33 inertia = fcMat33_RotateTensor(body->orientation, body->inertiaLocal);
        body->invInertiaSolve = fcMat33_Inverse(fcMat33_Add(inertia, fcMat33_Scale(gain, body->geometricStiffness)));
    }
}

static void fcRows_ComputeWChunk(void* context, int begin, int end)
{
    fcWorld* world = context;
    fcRowStore* r = &world->rows;
    for (int i = begin; i < end; ++i) {
        int sides[2] = {r->bodyA[i], r->bodyB[i]};
        for (int s = 0; s < 2; ++s) {
            fcReal* w = r->W[i] + 6 * s;
            const fcReal* jr = r->J[i] + 6 * s;
            if (!fcMoves(world, sides[s])) {
                for (int m = 0; m < 6; ++m) w[m] = 0;
                continue;
            }
            const fcBody* body = world->bodies + sides[s];
            // W = M^-1 J^T: linear part J_lin / m, angular part I_world^-1 J_ang
            fcVec3 ang = fcMat33_MulV(body->invInertiaSolve, fcV3(jr[3], jr[4], jr[5]));
            w[0] = body->invMass * jr[0], w[1] = body->invMass * jr[1], w[2] = body->invMass * jr[2];
            w[3] = ang.x, w[4] = ang.y, w[5] = ang.z;
        }
    }
}

void fcRows_ComputeW(fcWorld* world)
{
    fcParallelFor(world->tasks, world->bodyHigh, FC_BODY_GRAIN, fcRows_SolveInertiaChunk, world);
    fcParallelFor(world->tasks, world->rows.count, FC_ROW_GRAIN, fcRows_ComputeWChunk, world);
}

static fcReal fcDot6(const fcReal* a, const fcReal* b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

typedef struct fcAssembleTask {
    fcRowStore* rows;
    bool projection;
} fcAssembleTask;

static void fcRows_AssembleChunk(void* context, int begin, int end)
{
    const fcAssembleTask* task = context;
    fcRowStore* r = task->rows;
    for (int i = begin; i < end; ++i) {
        int start = r->arowadr[i], stop = start + r->arownnz[i];
        for (int e = start; e < stop; ++e) {
            int j = r->acolind[e];
            // an inactive one-sided row is out of the system: no coupling, unit diagonal
            if ((r->flags[i] | r->flags[j]) & fc_rowInactive) {
                r->avalues[e] = j == i ? 1 : 0;
                continue;
            }
            // A_ij = sum over the dynamic bodies rows i and j share: J_i,body . (M^-1 J_j^T)_body
            fcReal a = 0;
            for (unsigned shared = r->ashared[e]; shared != 0; shared &= shared - 1) {
                int bit = __builtin_ctz(shared);
                a += fcDot6(r->J[i] + 6 * (bit >> 1), r->W[j] + 6 * (bit & 1));
            }
            r->avalues[e] = a;
        }
        // the diagonal is stored last in the row: add the compliance (soft rows), or, while projecting,
        // take a soft row out of the system (its J and W were zeroed) with a unit diagonal
        fcReal* diag = r->avalues + stop - 1;
        if (r->flags[i] & fc_rowSoft) *diag = task->projection ? 1 : *diag + r->compliance[i];
    }
}

void fcRows_AssembleA(fcWorld* world, bool projection)
{
    fcAssembleTask task = {&world->rows, projection};
    fcParallelFor(world->tasks, world->rows.count, FC_ROW_GRAIN, fcRows_AssembleChunk, &task);
}

// J v of row i at the bodies' current velocities
fcReal fcRows_Velocity(const fcWorld* world, int i)
{
    const fcRowStore* r = &world->rows;
    int sides[2] = {r->bodyA[i], r->bodyB[i]};
    fcReal jv = 0;
    for (int s = 0; s < 2; ++s) {
        if (sides[s] < 0) continue;
        const fcBody* b = world->bodies + sides[s];
        const fcReal* j = r->J[i] + 6 * s;
        jv += j[0] * b->linearVelocity.x + j[1] * b->linearVelocity.y + j[2] * b->linearVelocity.z +
              j[3] * b->angularVelocity.x + j[4] * b->angularVelocity.y + j[5] * b->angularVelocity.z;
    }
    return jv;
}

// impulses lambda on the rows: every dynamic body moves by W lambda (a velocity change, or with `displace` a
// position change whose velocity is that change over h); the rows keep scale * lambda pending for the joints'
// and bodies' records (fcRows_Flush), which only change when J does. A displaced body's world inertia is left
// for the caller to refresh (fcBody_UpdateInverseInertia) once its iterations are done.
static void fcRows_MoveBodies(fcWorld* world, int begin, int end, bool displace);
static void fcRows_DisplaceChunk(void* world, int begin, int end) { fcRows_MoveBodies(world, begin, end, true); }
static void fcRows_AccelerateChunk(void* world, int begin, int end) { fcRows_MoveBodies(world, begin, end, false); }

void fcRows_ApplyImpulses(fcWorld* world, const fcReal* lambda, fcReal scale, bool displace)
{
    fcRowStore* r = &world->rows;
    for (int i = 0; i < r->count; ++i) {
        fcReal l = lambda[i];
        if (l == 0) continue;
        r->pending[i] += l * scale;
        int sides[2] = {r->bodyA[i], r->bodyB[i]};
        // W is zero on a side that does not move (fcRows_ComputeW): only the world needs skipping
        for (int s = 0; s < 2; ++s) {
            if (sides[s] < 0) continue;
            fcBody* body = world->bodies + sides[s];
            const fcReal* w = r->W[i] + 6 * s;
            body->deltaLinear = fcVec3_MulAdd(body->deltaLinear, l, fcV3(w[0], w[1], w[2]));
            body->deltaAngular = fcVec3_MulAdd(body->deltaAngular, l, fcV3(w[3], w[4], w[5]));
        }
    }
    fcParallelFor(world->tasks, world->bodyHigh, FC_BODY_GRAIN, displace ? fcRows_DisplaceChunk : fcRows_AccelerateChunk, world);
}

// each body's accumulated W lambda into its velocity, or (displace) into its pose and, over h, its velocity
static void fcRows_MoveBodies(fcWorld* world, int begin, int end, bool displace)
{
    fcReal invH = 1 / world->h;
    for (int k = begin; k < end; ++k) {
        fcBody* body = world->bodies + k;
        fcVec3 dx = body->deltaLinear, dq = body->deltaAngular;
        if (dx.x == 0 && dx.y == 0 && dx.z == 0 && dq.x == 0 && dq.y == 0 && dq.z == 0) continue;
        body->deltaLinear = body->deltaAngular = fcV3(0, 0, 0);
        if (!body->inUse || body->type != fc_dynamicBody) continue;
        if (displace) {
            body->position = fcVec3_Add(body->position, dx);
            body->orientation = fcQuat_Normalize(fcQuat_Mul(fcQuat_FromRotationVector(dq), body->orientation));
            body->linearVelocity = fcVec3_MulAdd(body->linearVelocity, invH, dx);
            body->angularVelocity = fcVec3_MulAdd(body->angularVelocity, invH, dq);
        } else {
            body->linearVelocity = fcVec3_Add(body->linearVelocity, dx);
            body->angularVelocity = fcVec3_Add(body->angularVelocity, dq);
        }
    }
}

// the pending impulses into the joints' records (per row, and the wrench on each body) and the bodies'
// constraint impulses, with the J they were applied with
void fcRows_Flush(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    for (int i = 0; i < r->count; ++i) {
        fcReal impulse = r->pending[i];
        if (impulse == 0) continue;
        r->pending[i] = 0;
        fcJoint* joint = world->joints + r->joint[i];
        joint->impulse[i - joint->rowStart] += impulse;
        const fcReal* jb = r->J[i] + 6;
        const fcReal* ja = r->J[i];
        joint->impulseLinearB = fcVec3_MulAdd(joint->impulseLinearB, impulse, fcV3(jb[0], jb[1], jb[2]));
        joint->impulseAngularB = fcVec3_MulAdd(joint->impulseAngularB, impulse, fcV3(jb[3], jb[4], jb[5]));
        joint->impulseLinearA = fcVec3_MulAdd(joint->impulseLinearA, impulse, fcV3(ja[0], ja[1], ja[2]));
        joint->impulseAngularA = fcVec3_MulAdd(joint->impulseAngularA, impulse, fcV3(ja[3], ja[4], ja[5]));
        // moment about the anchor with the lever arm of the pose the row was built at: tau - r_b x F, which
        // is exactly zero for a ball joint's rows
        fcVec3 lever = r->blockLeverB[r->rowBlock[i]];
        fcVec3 rowMoment = fcVec3_Sub(fcV3(jb[3], jb[4], jb[5]), fcVec3_Cross(lever, fcV3(jb[0], jb[1], jb[2])));
        joint->impulseMomentB = fcVec3_MulAdd(joint->impulseMomentB, impulse, rowMoment);
        int sides[2] = {r->bodyA[i], r->bodyB[i]};
        for (int s = 0; s < 2; ++s) {
            if (!fcMoves(world, sides[s])) continue;
            fcBody* body = world->bodies + sides[s];
            const fcReal* jr = r->J[i] + 6 * s;
            body->constraintImpulse = fcVec3_MulAdd(body->constraintImpulse, impulse, fcV3(jr[0], jr[1], jr[2]));
            body->constraintAngularImpulse = fcVec3_MulAdd(body->constraintAngularImpulse, impulse, fcV3(jr[3], jr[4], jr[5]));
        }
    }
}
