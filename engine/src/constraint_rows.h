// SPDX-License-Identifier: MIT
// The row store: one scalar constraint row per entry, struct of arrays, laid out joint by joint (one block
// per joint). Sized by a count pass when the topology changes, filled by the joints every step.
#ifndef FC_CONSTRAINT_ROWS_H
#define FC_CONSTRAINT_ROWS_H

#include "fulcrum/fulcrum.h"

#include <stdint.h>

enum {
    fc_rowHolonomic = 1,  // the row is the gradient of a position-level f: stabilized and projected
    fc_rowSoft = 2,       // compliant row (stiffness/damping): never projected
    fc_rowUnilateral = 4, // f >= 0, lambda >= 0: in the system only while active
    fc_rowInactive = 8,   // a unilateral row left out this step: decoupled with a unit diagonal, lambda = 0
    fc_rowBounded = 16,   // a motor row: |lambda| <= bound; held at the bound it is out of the system (inactive)
    fc_rowPoint = 32,     // one of a block's first three rows e_k . (p_b - p_a) = 0 (fcJoint_FillPointRows), rigid:
                          // its J is (-+e_k, -+(r x e_k)) with the block's levers, so the hot loops use the levers
                          // (J^T lambda = (lambda, r x lambda), closed-form A) and keep no W for it
};

// A body as the projection's iterates see it (fcStabilize_Project): its pose, velocity and M~^-1, copied out of
// the 768-byte fcBody once per projection and back at its end, so that an iterate streams through one small
// array instead of chasing the bodies' records (a 10000-link chain's bodies outgrow the caches)
typedef struct fcProjectionBody {
    fcVec3 position;
    fcQuat orientation;
    fcVec3 linearVelocity, angularVelocity;
    fcReal invMass;
    fcMat33 invInertia;  // the body's invInertiaSolve
    int body;            // index in world->bodies
    bool moves;          // dynamic and awake: the impulses move it
} fcProjectionBody;

enum {
    fc_blockSoft = 1,   // the joint is soft (stiffness or damping)
    fc_blockMotor = 2,  // the joint has a motor (it keeps its island awake)
};

typedef struct fcRowStore {
    int count, capacity;
    int blockCount;
    int* blockJoint;     // (blockCount) joint of each block
    int* blockadr;       // (blockCount) first row
    int* blocksize;      // (blockCount)
    fcVec3* blockLeverA; // (blockCount) anchor_a - x_a at the pose the rows were built at (point rows' J)
    fcVec3* blockLeverB; // (blockCount) anchor_b - x_b at the same pose (point rows' J, moments)
    fcVec3* blockLocalA; // (blockCount) the joint's local anchors (fixed at its creation): the point rows'
    fcVec3* blockLocalB; //   errors without a read of the joint
    int* blockProjectionA; // (blockCount) the projection body of the block's body a and b (-1: the world)
    int* blockProjectionB;
    // per block, so that the passes of a step over the blocks read no joint record (a 10000-link chain's joints
    // outgrow the caches)
    uint8_t* blockFlags; // (blockCount) fc_block* bits of the joint (set by each fill)
    uint8_t* blockFresh; // (blockCount) set when a step begins: the first flush replaces the joint's records of
                         // the last step instead of adding to them (a sleeping joint's are kept)
    fcVec3* blockImpulseA; // (blockCount) the joint's impulseLinearA and B as flushed last: the geometric
    fcVec3* blockImpulseB; //   stiffness of the next step reads them
    int freeJointCount;  // joints without a block (both bodies static or kinematic): their records are zeroed
    int* freeJoints;     //   when a step begins
    int activeJointCount;  // joints with one-sided rows (limits, ropes, one-sided user rows), whose active set
    int* activeJoints;     //   is kept at the step's start and put back when the step is retaken
    int* joint;          // (count) owning joint
    int* rowBlock;       // (count) owning block
    int* bodyA;          // (count) body index or -1 (world)
    int* bodyB;
    uint8_t* flags;      // (count) fc_row* bits
    fcReal (*J)[12];     // (count x 12) J_a (lin, ang) then J_b (lin, ang)
    fcReal (*W)[12];     // (count x 12) M~^-1 J^T, for the assembly of A only; not kept for point rows
    fcReal* rate;        // (count) velocity-level term: the row is J v + rate = 0
    fcReal* error;       // (count) position error f
    fcReal* compliance;  // (count) diagonal added to A (soft rows)
    fcReal* biasFactor;  // (count) soft rows: k / (h k + c), the bias per unit error
    fcReal* lambda;      // (count) solve result (impulse, N s)
    fcReal* bound;       // (count) bounded rows: the largest |lambda| (N s)
    fcReal* applied;     // (count) impulse the velocity solves of this (sub)step have applied so far
    fcReal* projectionLast;  // (count) the projection's last solve and last step (its Anderson mixing)
    fcReal* projectionStep;
    fcReal* pending;     // (count) impulse applied with the current J, not yet added to the joints' records
    int userBlocks;      // blocks of user constraints (their callbacks run on the caller's thread)
    int softCount;       // soft rows (their compliance keeps the projection from reusing the solve's factorization)
    bool genericOnly;    // tests: no row is marked fc_rowPoint, every row goes through J and W
    // A's lower triangle in CSR over the rows (pattern fixed while the topology is unchanged)
    int* arownnz;        // (count)
    int* arowadr;        // (count)
    int* acolind;        // (nnzA)
    fcReal* avalues;     // (nnzA)
    int nnzA;
    // the blocks acting on each dynamic body, for the impulses' gather (fcRows_ApplyImpulses)
    int* bodyadr;        // (bodies at the layout + 1) body k's entries: bodyadr[k] .. bodyadr[k + 1] - 1
    int* bodyBlocks;     // 2 block + side (0: the block's body a, 1: its body b), by block
    // the bodies the blocks touch (static, kinematic and sleeping ones included), in body order
    int projectionCount;
    fcProjectionBody* projectionBodies;  // (projectionCount) the projection's working copy (fcStabilize_Project)
    int* bodyProjection;       // (bodies at the layout) each body's projection body, -1 when no block touches it
    bool projectionActive;     // inside the projection: the projection bodies, not world->bodies, hold the state
    // A's pattern by pairs of blocks: block b's rows hold the columns of the earlier blocks sharing a body with
    // it, then its own (the pair (b, b), last); every row of b has a pair's columns at the same offset
    int* pairadr;        // (blockCount + 1) block b's pairs: pairadr[b] .. pairadr[b + 1] - 1
    int* pairBlock;      // (pairs) the column block
    int* pairOffset;     // (pairs) where its first column sits in each row of b
    uint8_t* pairShared; // (pairs) bit 2 s + t: side s of b's rows and side t of the column block's are one body
} fcRowStore;

void fcRowStore_Free(fcRowStore* rows);

#endif
