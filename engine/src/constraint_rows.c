// SPDX-License-Identifier: MIT
// The row store: layout of the blocks and of A's pattern when the topology changes (count pass, then the
// symbolic factorization), the fill pass every step, W = M~^-1 J^T (point rows keep their levers instead), the
// assembly of A = J M~^-1 J^T + C, the impulses applied by a gather per body, the joints' records (flush), and
// the projection's compact copy of the bodies.
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
    fcFree(r->blockLeverA);
    fcFree(r->blockLeverB);
    fcFree(r->blockLocalA);
    fcFree(r->blockLocalB);
    fcFree(r->blockProjectionA);
    fcFree(r->blockProjectionB);
    fcFree(r->blockFlags);
    fcFree(r->blockFresh);
    fcFree(r->blockImpulseA);
    fcFree(r->blockImpulseB);
    fcFree(r->freeJoints);
    fcFree(r->activeJoints);
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
    fcFree(r->bodyadr);
    fcFree(r->bodyBlocks);
    fcFree(r->projectionBodies);
    fcFree(r->bodyProjection);
    fcFree(r->pairadr);
    fcFree(r->pairBlock);
    fcFree(r->pairOffset);
    fcFree(r->pairShared);
    bool genericOnly = r->genericOnly;  // a setting of the tests, kept across layouts
    memset(r, 0, sizeof *r);
    r->genericOnly = genericOnly;
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
    r->blockLeverA = fcAllocZeroed(sizeof(fcVec3) * (size_t)(blocks + 1));
    r->blockLeverB = fcAllocZeroed(sizeof(fcVec3) * (size_t)(blocks + 1));
    r->blockLocalA = fcAlloc(sizeof(fcVec3) * (size_t)(blocks + 1));
    r->blockLocalB = fcAlloc(sizeof(fcVec3) * (size_t)(blocks + 1));
    r->blockFlags = fcAllocZeroed((size_t)(blocks + 1));
    r->blockFresh = fcAllocZeroed((size_t)(blocks + 1));
    r->blockImpulseA = fcAlloc(sizeof(fcVec3) * (size_t)(blocks + 1));
    r->blockImpulseB = fcAlloc(sizeof(fcVec3) * (size_t)(blocks + 1));
    r->freeJoints = fcAlloc(sizeof(int) * (size_t)(world->jointHigh + 1));
    r->activeJoints = fcAlloc(sizeof(int) * (size_t)(world->jointHigh + 1));
    r->freeJointCount = r->activeJointCount = 0;
    for (int j = 0; j < world->jointHigh; ++j) {
        const fcJoint* joint = world->joints + j;
        if (!joint->inUse) continue;
        if (jointBlock[j] < 0) r->freeJoints[r->freeJointCount++] = j;
        else if (joint->limitRow >= 0 || joint->unilateral) r->activeJoints[r->activeJointCount++] = j;
    }
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
        r->blockLocalA[b] = joint->localAnchorA;
        r->blockLocalB[b] = joint->localAnchorB;
        r->blockImpulseA[b] = joint->impulseLinearA;
        r->blockImpulseB[b] = joint->impulseLinearB;
        for (int k = 0; k < joint->rowCount; ++k, ++row) {
            r->joint[row] = j;
            r->rowBlock[row] = b;
            r->bodyA[row] = joint->bodyA;
            r->bodyB[row] = joint->bodyB;
        }
    }

    // each dynamic body's blocks (a body created or destroyed marks the topology, so the list covers bodyHigh)
    r->bodyadr = fcAllocZeroed(sizeof(int) * (size_t)(world->bodyHigh + 1));
    r->bodyBlocks = fcAlloc(sizeof(int) * (size_t)(2 * blocks + 1));
    for (int b = 0; b < blocks; ++b) {
        const fcJoint* joint = world->joints + r->blockJoint[b];
        if (fcIsDynamic(world, joint->bodyA)) r->bodyadr[joint->bodyA + 1] += 1;
        if (fcIsDynamic(world, joint->bodyB)) r->bodyadr[joint->bodyB + 1] += 1;
    }
    for (int k = 0; k < world->bodyHigh; ++k) r->bodyadr[k + 1] += r->bodyadr[k];
    int* next = fcAlloc(sizeof(int) * (size_t)(world->bodyHigh + 1));
    memcpy(next, r->bodyadr, sizeof(int) * (size_t)(world->bodyHigh + 1));
    for (int b = 0; b < blocks; ++b) {
        const fcJoint* joint = world->joints + r->blockJoint[b];
        if (fcIsDynamic(world, joint->bodyA)) r->bodyBlocks[next[joint->bodyA]++] = 2 * b;
        if (fcIsDynamic(world, joint->bodyB)) r->bodyBlocks[next[joint->bodyB]++] = 2 * b + 1;
    }
    fcFree(next);

    // the projection bodies: every body a block touches, in body order (the projection's gather walks the bodies
    // forwards)
    r->bodyProjection = fcAlloc(sizeof(int) * (size_t)(world->bodyHigh + 1));
    for (int k = 0; k < world->bodyHigh; ++k) r->bodyProjection[k] = -1;
    for (int b = 0; b < blocks; ++b) {
        const fcJoint* joint = world->joints + r->blockJoint[b];
        if (joint->bodyA >= 0) r->bodyProjection[joint->bodyA] = -2;
        if (joint->bodyB >= 0) r->bodyProjection[joint->bodyB] = -2;
    }
    r->projectionCount = 0;
    for (int k = 0; k < world->bodyHigh; ++k)
        if (r->bodyProjection[k] == -2) r->bodyProjection[k] = r->projectionCount++;
    r->projectionBodies = fcAllocZeroed(sizeof(fcProjectionBody) * (size_t)(r->projectionCount + 1));
    for (int k = 0; k < world->bodyHigh; ++k)
        if (r->bodyProjection[k] >= 0) r->projectionBodies[r->bodyProjection[k]].body = k;
    r->blockProjectionA = fcAlloc(sizeof(int) * (size_t)(blocks + 1));
    r->blockProjectionB = fcAlloc(sizeof(int) * (size_t)(blocks + 1));
    for (int b = 0; b < blocks; ++b) {
        const fcJoint* joint = world->joints + r->blockJoint[b];
        r->blockProjectionA[b] = joint->bodyA >= 0 ? r->bodyProjection[joint->bodyA] : -1;
        r->blockProjectionB[b] = joint->bodyB >= 0 ? r->bodyProjection[joint->bodyB] : -1;
    }

    // pattern of A's lower triangle: block b sees every earlier block sharing a dynamic body with it
    int* adjacent = fcAlloc(sizeof(int) * (size_t)(blocks + 1));
    int* mark = fcAlloc(sizeof(int) * (size_t)(blocks + 1));
    for (int b = 0; b < blocks; ++b) mark[b] = -1;
    int capacity = rows * 4 + 16, nnz = 0;
    int* colind = fcAlloc(sizeof(int) * (size_t)capacity);
    int pairCapacity = blocks * 3 + 16, pairs = 0;
    r->pairadr = fcAlloc(sizeof(int) * (size_t)(blocks + 1));
    r->pairBlock = fcAlloc(sizeof(int) * (size_t)pairCapacity);
    r->pairOffset = fcAlloc(sizeof(int) * (size_t)pairCapacity);
    r->pairShared = fcAlloc((size_t)pairCapacity);
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
        adjacent[count] = b;  // the block's own columns come last
        if (pairs + count + 1 > pairCapacity) {
            pairCapacity = 2 * (pairs + count + 1);
            r->pairBlock = fcRealloc(r->pairBlock, sizeof(int) * (size_t)pairCapacity);
            r->pairOffset = fcRealloc(r->pairOffset, sizeof(int) * (size_t)pairCapacity);
            r->pairShared = fcRealloc(r->pairShared, (size_t)pairCapacity);
        }
        r->pairadr[b] = pairs;
        int width = 0;
        for (int k = 0; k <= count; ++k) {
            const fcJoint* other = world->joints + r->blockJoint[adjacent[k]];
            int otherSides[2] = {other->bodyA, other->bodyB};
            uint8_t shared = 0;
            for (int s = 0; s < 2; ++s)
                for (int t = 0; t < 2; ++t)
                    if (fcIsDynamic(world, sides[s]) && sides[s] == otherSides[t]) shared |= (uint8_t)(1 << (2 * s + t));
            r->pairBlock[pairs] = adjacent[k];
            r->pairOffset[pairs] = width;
            r->pairShared[pairs] = shared;
            pairs += 1;
            width += r->blocksize[adjacent[k]];
        }
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
    r->pairadr[blocks] = pairs;
    r->acolind = colind;
    r->nnzA = nnz;
    r->avalues = fcAllocZeroed(sizeof(fcReal) * (size_t)(nnz + 1));
    fcFree(adjacent);
    fcFree(mark);
    fcFree(jointBlock);

    fcLdlt_Analyze(&world->ldlt, rows, r->arownnz, r->arowadr, r->acolind, blocks, r->blockadr, r->blocksize);
    world->stats.symbolicAnalyses += 1;
    world->topologyDirty = false;
}

// a point fixed in projection body n (-1: the world) at its pose
static inline fcVec3 fcRows_ProjectionPoint(const fcRowStore* r, int n, fcVec3 local)
{
    if (n < 0) return local;
    const fcProjectionBody* s = r->projectionBodies + n;
    return fcVec3_Add(s->position, fcQuat_Rotate(s->orientation, local));
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
        int i0 = r->blockadr[b];
        fcReal* errors = r->error + i0;
        // a block of point rows alone (a rigid ball joint) needs nothing but its anchors, inline: the block's
        // copy of the local anchors and the bodies' poses (the projection bodies' inside the projection); the joint's
        // record is not read
        if (errorsOnly && (r->flags[i0] & fc_rowPoint) && r->blocksize[b] == 3) {
            fcVec3 d = r->projectionActive ? fcVec3_Sub(fcRows_ProjectionPoint(r, r->blockProjectionB[b], r->blockLocalB[b]),
                                                        fcRows_ProjectionPoint(r, r->blockProjectionA[b], r->blockLocalA[b]))
                                           : fcVec3_Sub(fcJoint_WorldPoint(world, r->bodyB[i0], r->blockLocalB[b]),
                                                        fcJoint_WorldPoint(world, r->bodyA[i0], r->blockLocalA[b]));
            errors[0] = d.x, errors[1] = d.y, errors[2] = d.z;
            if (!fcAllFinite(errors, 3))
                for (int k = 0; k < 3; ++k)
                    if (!isfinite(errors[k])) atomic_fetch_min_int(&task->firstBad, b * FC_MAX_JOINT_ROWS + k);
            continue;
        }
        const fcJoint* joint = world->joints + r->blockJoint[b];
        const fcJointTypeTable* type = fcJoint_GetTypeTable(joint->type);
        fcJointPose pose;
        fcJoint_ComputePose(world, joint, task->time, &pose);
        type->fill(world, joint, &pose, tmp);
        fcJoint_FillLimitMotor(world, joint, &pose, tmp);
        bool finite = true;
        bool soft = fcJoint_IsSoft(joint);
        // rigid point rows take the levers' path (a soft block's J is zeroed while projecting: it keeps J and W)
        bool point = type->pointRows && !soft && !joint->unilateral && !r->genericOnly;
        if (!errorsOnly) {
            r->blockLeverA[b] = pose.ra, r->blockLeverB[b] = pose.rb;
            r->blockFlags[b] = (uint8_t)((soft ? fc_blockSoft : 0) | (joint->enableMotor ? fc_blockMotor : 0));
        }
        bool holonomic = joint->type == fc_userConstraint ? joint->holonomic : joint->type != fc_bladeJoint;
        // soft row: impulse = -h k (f + h J v) - h c J v, i.e. J v + gamma lambda + k f / (h k + c) = 0
        fcReal gamma = soft ? 1 / (h * (h * joint->stiffness + joint->damping)) : 0;
        fcReal bias = soft ? joint->stiffness / (h * joint->stiffness + joint->damping) : 0;
        // a stiffness and damping too small for h make gamma overflow: refused like a non-finite row
        finite = isfinite(gamma) && isfinite(bias);
        for (int k = 0; k < joint->rowCount && finite; ++k) {
            finite = isfinite(tmp[k].rate) && isfinite(tmp[k].error) && fcAllFinite(tmp[k].jacobian[0], 6) &&
                     fcAllFinite(tmp[k].jacobian[1], 6);
            if (!finite) atomic_fetch_min_int(&task->firstBad, b * FC_MAX_JOINT_ROWS + k);
        }
        if (!isfinite(gamma) || !isfinite(bias)) atomic_fetch_min_int(&task->firstBad, b * FC_MAX_JOINT_ROWS);
        if (!finite) continue;
        for (int k = 0; k < joint->rowCount; ++k) {
            int i = r->blockadr[b] + k;
            r->error[i] = holonomic ? tmp[k].error : 0;
            if (errorsOnly) continue;
            memcpy(r->J[i], tmp[k].jacobian[0], sizeof(fcReal[6]));
            memcpy(r->J[i] + 6, tmp[k].jacobian[1], sizeof(fcReal[6]));
            r->rate[i] = tmp[k].rate;
            bool limit = k == joint->limitRow, oneSided = (limit && !fcJoint_LimitLocks(joint)) || (joint->unilateral && k == 0);
            bool motor = k == joint->motorRow, rigid = limit || oneSided || motor;  // a soft joint's limit and motor too
            r->flags[i] = (uint8_t)((holonomic && !motor ? fc_rowHolonomic : 0) | (!rigid && soft ? fc_rowSoft : 0) |
                                    (oneSided ? fc_rowUnilateral : 0) | (motor ? fc_rowBounded : 0) | (point && k < 3 ? fc_rowPoint : 0) |
                                    ((oneSided && !joint->active) || (motor && joint->motorClamp != 0) ? fc_rowInactive : 0));
            if (motor) r->error[i] = 0;
            softCount += (r->flags[i] & fc_rowSoft) != 0;
            r->compliance[i] = rigid ? 0 : gamma;
            r->biasFactor[i] = rigid ? 0 : bias;
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
        return fcError("fcWorld_Step: joint %d (\"%s\") produced a non-finite row %d (its Jacobian, error or rate; or, for a "
                       "soft joint, a stiffness and damping so small that 1 / (h (h k + c)) overflows); the step was not taken",
                       r->blockJoint[block] + 1, joint->name, bad % FC_MAX_JOINT_ROWS);
    }
    return true;
}

// the rotational inertia the constraint impulses see: I + theta h^2 K with K the joints' geometric stiffness
// (physics.md section 4): theta = 1/4 takes the stiffness by the trapezoidal rule, stable at any h w and without
// numerical damping
typedef struct fcInertiaTask {
    fcWorld* world;
    bool displaced;  // the projection moved the bodies since their world inertia was refreshed
} fcInertiaTask;

static void fcRows_SolveInertiaChunk(void* context, int begin, int end)
{
    const fcInertiaTask* task = context;
    fcWorld* world = task->world;
    fcReal gain = FC_GEOMETRIC_THETA * world->h * world->h;
    for (int k = begin; k < end; ++k) {
        fcBody* body = world->bodies + k;
        if (!body->inUse || body->type != fc_dynamicBody) continue;
        if (body->stiffnessRate == 0) {
            // only a body without stiffness reads its world inertia here: the others need no refresh until the
            // projection ends (fcStabilize_Project)
            if (task->displaced && !body->asleep) fcBody_UpdateInverseInertia(body);
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
        if (r->flags[i] & fc_rowPoint) continue;  // A's entries of point rows come from the levers
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

void fcRows_ComputeW(fcWorld* world, bool displaced)
{
    fcInertiaTask task = {world, displaced};
    fcParallelFor(world->tasks, world->bodyHigh, FC_BODY_GRAIN, fcRows_SolveInertiaChunk, &task);
    fcParallelFor(world->tasks, world->rows.count, FC_ROW_GRAIN, fcRows_ComputeWChunk, world);
}

static fcReal fcDot6(const fcReal* a, const fcReal* b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5];
}

typedef struct fcAssembleTask {
    const fcWorld* world;
    bool projection;
} fcAssembleTask;

// The point rows' 3 x 3 block of A between blocks b and c through one shared body, at levers l_b and l_c (of the
// sign of the sides): A_km = (l_b x e_k) . x_m + [k = m] / m with x_m = I~^-1 (l_c x e_m), I~^-1 symmetric; the
// columns of the result are m = 0, 1, 2, their entries k
static fcMat33 fcRows_PointBlock(const fcBody* body, fcVec3 lb, fcVec3 lc)
{
    const fcMat33* inv = &body->invInertiaSolve;
    // x_m from the columns of I~^-1: l_c x e_x = (0, l_c.z, -l_c.y) and so on
    fcVec3 x0 = fcVec3_Sub(fcVec3_Scale(lc.z, inv->cy), fcVec3_Scale(lc.y, inv->cz));
    fcVec3 x1 = fcVec3_Sub(fcVec3_Scale(lc.x, inv->cz), fcVec3_Scale(lc.z, inv->cx));
    fcVec3 x2 = fcVec3_Sub(fcVec3_Scale(lc.y, inv->cx), fcVec3_Scale(lc.x, inv->cy));
    // (l_b x e_k) . x_m = (x_m x l_b)_k
    fcMat33 a = {fcVec3_Cross(x0, lb), fcVec3_Cross(x1, lb), fcVec3_Cross(x2, lb)};
    a.cx.x += body->invMass, a.cy.y += body->invMass, a.cz.z += body->invMass;
    return a;
}

// A by pairs of blocks: the point rows' entries in closed form, every other entry J_i . W_j over the shared
// bodies (with W of whichever of the two rows keeps one: A is symmetric)
static void fcRows_AssembleChunk(void* context, int begin, int end)
{
    const fcAssembleTask* task = context;
    const fcWorld* world = task->world;
    const fcRowStore* r = &world->rows;
    for (int b = begin; b < end; ++b) {
        int i0 = r->blockadr[b], rowsB = r->blocksize[b];
        for (int p = r->pairadr[b]; p < r->pairadr[b + 1]; ++p) {
            int c = r->pairBlock[p], j0 = r->blockadr[c], offset = r->pairOffset[p];
            unsigned pairShared = r->pairShared[p];
            // point rows by point rows (never inactive): the sum of the shared bodies' closed-form blocks
            bool closed = (r->flags[i0] & r->flags[j0] & fc_rowPoint) != 0;
            if (closed) {
                fcMat33 sum = fcMat33_Zero();
                for (unsigned shared = pairShared; shared != 0; shared &= shared - 1) {
                    int bit = __builtin_ctz(shared), s = bit >> 1, t = bit & 1;
                    int body = s ? r->bodyB[i0] : r->bodyA[i0];
                    if (!fcMoves(world, body)) continue;  // a sleeping body moves nothing (its W would be zero)
                    fcMat33 one = fcRows_PointBlock(world->bodies + body, s ? r->blockLeverB[b] : r->blockLeverA[b],
                                                    t ? r->blockLeverB[c] : r->blockLeverA[c]);
                    sum = fcMat33_Add(sum, s == t ? one : fcMat33_Scale(-1, one));  // J_a = -(e_k, l_a x e_k)
                }
                // row k of the block holds sum's entries k of its columns m (the own block's lower triangle)
                fcReal* a0 = r->avalues + r->arowadr[i0] + offset;
                fcReal* a1 = r->avalues + r->arowadr[i0 + 1] + offset;
                fcReal* a2 = r->avalues + r->arowadr[i0 + 2] + offset;
                a0[0] = sum.cx.x, a1[0] = sum.cx.y, a1[1] = sum.cy.y, a2[0] = sum.cx.z, a2[1] = sum.cy.z, a2[2] = sum.cz.z;
                if (c != b) a0[1] = sum.cy.x, a0[2] = sum.cz.x, a1[2] = sum.cz.y;
                if (rowsB == 3 && (c == b || r->blocksize[c] == 3)) continue;  // point rows only: the pair is done
            }
            for (int k = 0; k < rowsB; ++k) {
                int i = i0 + k;
                fcReal* a = r->avalues + r->arowadr[i] + offset;
                int columns = c == b ? k + 1 : r->blocksize[c];
                for (int m = closed && k < 3 ? 3 : 0; m < columns; ++m) {
                    int j = j0 + m;
                    // an inactive one-sided row is out of the system: no coupling, unit diagonal
                    if ((r->flags[i] | r->flags[j]) & fc_rowInactive) {
                        a[m] = j == i ? 1 : 0;
                        continue;
                    }
                    // A_ij = sum over the dynamic bodies rows i and j share: J_i,body . (M~^-1 J_j^T)_body
                    bool swap = (r->flags[j] & fc_rowPoint) != 0;  // a point row keeps no W: J_j . W_i instead
                    fcReal sum = 0;
                    for (unsigned shared = pairShared; shared != 0; shared &= shared - 1) {
                        int bit = __builtin_ctz(shared), s = bit >> 1, t = bit & 1;
                        sum += swap ? fcDot6(r->J[j] + 6 * t, r->W[i] + 6 * s) : fcDot6(r->J[i] + 6 * s, r->W[j] + 6 * t);
                    }
                    a[m] = sum;
                }
                // the diagonal is stored last in the row: add the compliance (soft rows), or, while projecting,
                // take a soft row out of the system (its J and W were zeroed) with a unit diagonal
                if (c == b && (r->flags[i] & fc_rowSoft)) a[k] = task->projection ? 1 : a[k] + r->compliance[i];
            }
        }
    }
}

void fcRows_AssembleA(fcWorld* world, bool projection)
{
    fcAssembleTask task = {world, projection};
    fcParallelFor(world->tasks, world->rows.blockCount, FC_BLOCK_GRAIN, fcRows_AssembleChunk, &task);
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

// how J_i v changes when body takes the impulse (linear, angular): J_i's part on that body (both parts when the row
// ties the body to itself) times M~^-1, the inverse mass the joint solve moves it by, times the impulse; 0 when the
// body does not move
fcReal fcRows_Response(const fcWorld* world, int i, int body, fcVec3 linear, fcVec3 angular)
{
    const fcRowStore* r = &world->rows;
    if (!fcMoves(world, body)) return 0;
    const fcBody* b = world->bodies + body;
    fcVec3 dv = fcVec3_Scale(b->invMass, linear), dw = fcMat33_MulV(b->invInertiaSolve, angular);
    fcReal response = 0;
    for (int s = 0; s < 2; ++s) {
        if ((s ? r->bodyB[i] : r->bodyA[i]) != body) continue;
        const fcReal* j = r->J[i] + 6 * s;
        response += j[0] * dv.x + j[1] * dv.y + j[2] * dv.z + j[3] * dw.x + j[4] * dw.y + j[5] * dw.z;
    }
    return response;
}

// the velocity of body's point at lever r (zero for the world)
static fcVec3 fcRows_PointVelocity(const fcWorld* world, int body, fcVec3 lever)
{
    if (body < 0) return fcV3(0, 0, 0);
    return fcBody_PointVelocity(world->bodies + body, lever);
}

void fcRows_Velocities(const fcWorld* world, fcReal* jv)
{
    const fcRowStore* r = &world->rows;
    for (int b = 0; b < r->blockCount; ++b) {
        int i = r->blockadr[b], end = i + r->blocksize[b];
        if (r->flags[i] & fc_rowPoint) {
            // e_k . (v_b + w_b x r_b - v_a - w_a x r_a): the anchors' relative velocity
            fcVec3 d = fcVec3_Sub(fcRows_PointVelocity(world, r->bodyB[i], r->blockLeverB[b]),
                                  fcRows_PointVelocity(world, r->bodyA[i], r->blockLeverA[b]));
            jv[i] = d.x, jv[i + 1] = d.y, jv[i + 2] = d.z;
            i += 3;
        }
        for (; i < end; ++i) jv[i] = fcRows_Velocity(world, i);
    }
}

// impulses lambda on the rows: each body gathers J^T lambda (an impulse) and moves by M~^-1 times it (a velocity
// change, or with `displace` a position change whose velocity is that change over h); the rows keep
// scale * lambda pending for the joints' and bodies' records (fcRows_Flush), which only change when J does. A
// displaced body's world inertia is left for the caller to refresh (fcBody_UpdateInverseInertia) once its
// iterations are done. The gather runs body by body, in the fixed order of each body's blocks: no scatter, no
// per-body accumulators, and any thread count gives the same sums.
typedef struct fcMoveTask {
    fcWorld* world;
    const fcReal* lambda;
    bool displace;
} fcMoveTask;

// J^T lambda on body k: the sum over its blocks (side s of block b: J_s of the block's rows)
// (inlined into both moves: the projection's iterates call it for every body)
static inline __attribute__((always_inline)) void fcRows_BodyImpulse(const fcRowStore* r, int k, const fcReal* lambda,
                                                                     fcVec3* linear, fcVec3* angular)
{
    fcVec3 p = fcV3(0, 0, 0), l = fcV3(0, 0, 0);
    for (int e = r->bodyadr[k]; e < r->bodyadr[k + 1]; ++e) {
        int b = r->bodyBlocks[e] >> 1, s = r->bodyBlocks[e] & 1;
        int i = r->blockadr[b], end = i + r->blocksize[b];
        if (r->flags[i] & fc_rowPoint) {
            // the three point rows push the anchor by (l_0, l_1, l_2) on b's side, the other way on a's:
            // (f, lever x f) on the body
            fcVec3 f = fcV3(lambda[i], lambda[i + 1], lambda[i + 2]);
            if (s == 0) f = fcVec3_Neg(f);
            p = fcVec3_Add(p, f);
            l = fcVec3_Add(l, fcVec3_Cross(s ? r->blockLeverB[b] : r->blockLeverA[b], f));
            i += 3;
        }
        for (; i < end; ++i) {
            fcReal x = lambda[i];
            if (x == 0) continue;
            const fcReal* j = r->J[i] + 6 * s;
            p = fcVec3_MulAdd(p, x, fcV3(j[0], j[1], j[2]));
            l = fcVec3_MulAdd(l, x, fcV3(j[3], j[4], j[5]));
        }
    }
    *linear = p, *angular = l;
}

// a gathered impulse (p, l) through M~^-1 (the inertia W was built with) into a velocity, or (displace) into the
// pose and, over h, the velocity
static inline void fcRows_Move(fcVec3* x, fcQuat* q, fcVec3* v, fcVec3* w, fcReal invMass, const fcMat33* invInertia,
                               fcVec3 p, fcVec3 l, bool displace, fcReal invH)
{
    fcVec3 dx = fcVec3_Scale(invMass, p), dq = fcMat33_MulV(*invInertia, l);
    if (displace) {
        *x = fcVec3_Add(*x, dx);
        *q = fcQuat_Renormalize(fcQuat_Mul(fcQuat_FromRotationVector(dq), *q));
        *v = fcVec3_MulAdd(*v, invH, dx);
        *w = fcVec3_MulAdd(*w, invH, dq);
    } else {
        *v = fcVec3_Add(*v, dx);
        *w = fcVec3_Add(*w, dq);
    }
}

static void fcRows_MoveBodiesChunk(void* context, int begin, int end)
{
    const fcMoveTask* task = context;
    fcWorld* world = task->world;
    const fcRowStore* r = &world->rows;
    fcReal invH = 1 / world->h;
    for (int k = begin; k < end; ++k) {
        fcBody* body = world->bodies + k;
        if (r->bodyadr[k] == r->bodyadr[k + 1] || body->asleep) continue;  // only dynamic bodies have blocks
        fcVec3 p, l;
        fcRows_BodyImpulse(r, k, task->lambda, &p, &l);
        fcRows_Move(&body->position, &body->orientation, &body->linearVelocity, &body->angularVelocity, body->invMass,
                    &body->invInertiaSolve, p, l, task->displace, invH);
    }
}

// the same on the projection bodies, inside the projection
static void fcRows_MoveProjectionChunk(void* context, int begin, int end)
{
    const fcMoveTask* task = context;
    fcWorld* world = task->world;
    const fcRowStore* r = &world->rows;
    fcReal invH = 1 / world->h;
    for (int n = begin; n < end; ++n) {
        fcProjectionBody* s = r->projectionBodies + n;
        if (!s->moves) continue;
        fcVec3 p, l;
        fcRows_BodyImpulse(r, s->body, task->lambda, &p, &l);
        fcRows_Move(&s->position, &s->orientation, &s->linearVelocity, &s->angularVelocity, s->invMass, &s->invInertia, p,
                    l, task->displace, invH);
    }
}

void fcRows_ApplyImpulses(fcWorld* world, const fcReal* lambda, fcReal scale, bool displace)
{
    fcRowStore* r = &world->rows;
    for (int i = 0; i < r->count; ++i) r->pending[i] += lambda[i] * scale;
    fcMoveTask task = {world, lambda, displace};
    if (r->projectionActive)
        fcParallelFor(world->tasks, r->projectionCount, FC_BODY_GRAIN, fcRows_MoveProjectionChunk, &task);
    else
        fcParallelFor(world->tasks, world->bodyHigh, FC_BODY_GRAIN, fcRows_MoveBodiesChunk, &task);
}

typedef struct fcProjectionTask {
    fcWorld* world;
    fcProjectionSync sync;
} fcProjectionTask;

static void fcRows_SyncProjectionChunk(void* context, int begin, int end)
{
    const fcProjectionTask* task = context;
    fcWorld* world = task->world;
    fcRowStore* r = &world->rows;
    for (int n = begin; n < end; ++n) {
        fcProjectionBody* s = r->projectionBodies + n;
        fcBody* b = world->bodies + s->body;
        switch (task->sync) {
        case fc_projectionGather:
            s->position = b->position;
            s->orientation = b->orientation;
            s->linearVelocity = b->linearVelocity;
            s->angularVelocity = b->angularVelocity;
            s->invMass = b->invMass;
            s->invInertia = b->invInertiaSolve;
            s->moves = fcMoves(world, s->body);
            break;
        case fc_projectionGatherInertia:
            s->invInertia = b->invInertiaSolve;
            break;
        case fc_projectionScatter:
            if (!s->moves) break;  // nothing else changes inside the projection
            b->position = s->position;
            b->orientation = s->orientation;
            b->linearVelocity = s->linearVelocity;
            b->angularVelocity = s->angularVelocity;
            break;
        }
    }
}

void fcRows_SyncProjection(fcWorld* world, fcProjectionSync sync)
{
    fcProjectionTask task = {world, sync};
    fcParallelFor(world->tasks, world->rows.projectionCount, FC_BODY_GRAIN, fcRows_SyncProjectionChunk, &task);
}

#define FC_FLUSH_AHEAD 8

// the pending impulses into the joints' records (per row, and the wrench on each body) and the bodies'
// constraint impulses (world->constraintImpulse), with the J they were applied with. The first flush of a step starts the records of an
// awake joint from zero: a step touches each joint's records once, here, instead of also zeroing them when it
// begins
fcReal fcRows_Flush(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcReal records = 0;
    for (int b = 0; b < r->blockCount; ++b) {
        int i = r->blockadr[b], end = i + r->blocksize[b];
        fcJoint* joint = world->joints + r->blockJoint[b];
        if (b + FC_FLUSH_AHEAD < r->blockCount) {
            // the records of a later joint, to be written: the hardware prefetches strided loads, not stores
            // (a 10000-link chain's joints are out of the caches)
            const fcJoint* later = world->joints + r->blockJoint[b + FC_FLUSH_AHEAD];
            for (int line = 0; line < 3; ++line) __builtin_prefetch((const char*)&later->impulseLinearB + FC_CACHE_LINE * line, 1);
        }
        bool touched = false;
        if (r->blockFresh[b]) {
            r->blockFresh[b] = 0;
            if (!fcJoint_Sleeps(world, r->bodyA[i], r->bodyB[i])) {
                fcJoint_ClearRecords(joint);
                touched = true;
            }
        }
        if ((r->flags[i] & fc_rowPoint) && (r->pending[i] != 0 || r->pending[i + 1] != 0 || r->pending[i + 2] != 0)) {
            touched = true;
            // the point rows push the anchors by p = (l_0, l_1, l_2); their moment about b's anchor is zero
            fcVec3 p = fcV3(r->pending[i], r->pending[i + 1], r->pending[i + 2]);
            for (int k = 0; k < 3; ++k) joint->impulse[k] += r->pending[i + k], r->pending[i + k] = 0;
            fcVec3 momentA = fcVec3_Cross(r->blockLeverA[b], p), momentB = fcVec3_Cross(r->blockLeverB[b], p);
            joint->impulseLinearB = fcVec3_Add(joint->impulseLinearB, p);
            joint->impulseAngularB = fcVec3_Add(joint->impulseAngularB, momentB);
            joint->impulseLinearA = fcVec3_Sub(joint->impulseLinearA, p);
            joint->impulseAngularA = fcVec3_Sub(joint->impulseAngularA, momentA);
            int a = r->bodyA[i], bb = r->bodyB[i];
            if (fcMoves(world, bb)) {
                world->constraintImpulse[bb] = fcVec3_Add(world->constraintImpulse[bb], p);
                world->constraintAngularImpulse[bb] = fcVec3_Add(world->constraintAngularImpulse[bb], momentB);
            }
            if (fcMoves(world, a)) {
                world->constraintImpulse[a] = fcVec3_Sub(world->constraintImpulse[a], p);
                world->constraintAngularImpulse[a] = fcVec3_Sub(world->constraintAngularImpulse[a], momentA);
            }
            i += 3;
        }
        for (; i < end; ++i) {
            fcReal impulse = r->pending[i];
            if (impulse == 0) continue;
            touched = true;
            r->pending[i] = 0;
            joint->impulse[i - joint->rowStart] += impulse;
            const fcReal* jb = r->J[i] + 6;
            const fcReal* ja = r->J[i];
            joint->impulseLinearB = fcVec3_MulAdd(joint->impulseLinearB, impulse, fcV3(jb[0], jb[1], jb[2]));
            joint->impulseAngularB = fcVec3_MulAdd(joint->impulseAngularB, impulse, fcV3(jb[3], jb[4], jb[5]));
            joint->impulseLinearA = fcVec3_MulAdd(joint->impulseLinearA, impulse, fcV3(ja[0], ja[1], ja[2]));
            joint->impulseAngularA = fcVec3_MulAdd(joint->impulseAngularA, impulse, fcV3(ja[3], ja[4], ja[5]));
            // moment about the anchor with the lever arm of the pose the row was built at: tau - r_b x F, which
            // is exactly zero for a ball joint's rows
            fcVec3 lever = r->blockLeverB[b];
            fcVec3 rowMoment = fcVec3_Sub(fcV3(jb[3], jb[4], jb[5]), fcVec3_Cross(lever, fcV3(jb[0], jb[1], jb[2])));
            joint->impulseMomentB = fcVec3_MulAdd(joint->impulseMomentB, impulse, rowMoment);
            int sides[2] = {r->bodyA[i], r->bodyB[i]};
            for (int s = 0; s < 2; ++s) {
                if (!fcMoves(world, sides[s])) continue;
                fcVec3* linear = world->constraintImpulse + sides[s];
                fcVec3* angular = world->constraintAngularImpulse + sides[s];
                const fcReal* jr = r->J[i] + 6 * s;
                *linear = fcVec3_MulAdd(*linear, impulse, fcV3(jr[0], jr[1], jr[2]));
                *angular = fcVec3_MulAdd(*angular, impulse, fcV3(jr[3], jr[4], jr[5]));
            }
        }
        if (touched) r->blockImpulseA[b] = joint->impulseLinearA, r->blockImpulseB[b] = joint->impulseLinearB;
        records += fcJoint_RecordSum(joint);
    }
    return records;
}

// After a step that was not taken: nothing of its multipliers stays, neither the joints' records nor what the next
// step's geometric stiffness would read (fcStabilize_GeometricStiffness); that step starts as a world's first does
void fcRows_ClearRecords(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    for (int i = 0; i < r->count; ++i) r->pending[i] = 0;
    for (int b = 0; b < r->blockCount; ++b) r->blockImpulseA[b] = r->blockImpulseB[b] = fcV3(0, 0, 0);
    // the joints of a sleeping island keep reporting what they carried when it fell asleep (as fcStep_Begin leaves them)
    for (int j = 0; j < world->jointHigh; ++j) {
        fcJoint* joint = world->joints + j;
        if (joint->inUse && !fcJoint_Sleeps(world, joint->bodyA, joint->bodyB)) fcJoint_ClearRecords(joint);
    }
}
