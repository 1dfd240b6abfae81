// SPDX-License-Identifier: MIT
// Joint lifecycle and the per-type dispatch table {row count, fill rows, whether its first rows are point rows}.
// Each joint_<type>.c fills the rows {J_a, J_b, rate, error} of its type from its two bodies' pose; joint.c knows every type.
#ifndef FC_JOINT_H
#define FC_JOINT_H

#include "world.h"

#include <string.h>

// The pose of a joint's two bodies, with world anchors and lever arms, as every fill function needs it.
typedef struct fcJointPose {
    fcUserConstraintState state;  // index 0: body_a (or the world), 1: body_b
    fcVec3 pa, pb;                // world anchors on a and b
    fcVec3 ra, rb;                // pa - x_a, pb - x_b
} fcJointPose;

typedef void fcJointFillFcn(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose,
                            fcUserConstraintRow* rows);

typedef struct fcJointType_Table {
    const char* name;
    int rowCount;  // 0: variable (user constraints: joint->rowCount)
    fcJointFillFcn* fill;
    bool pointRows;           // its first three rows are fcJoint_FillPointRows's (the row store's fc_rowPoint)
} fcJointTypeTable;

const fcJointTypeTable* fcJoint_GetTypeTable(fcJointType type);

// Pose of the joint's bodies at their current state; time is the time the rows hold at.
void fcJoint_ComputePose(const fcWorld* world, const fcJoint* joint, fcReal time, fcJointPose* pose);
// A point fixed in a body (or in the world, body -1) at the body's current pose (its projection body's inside the
// projection).
static inline fcVec3 fcJoint_WorldPoint(const fcWorld* world, int body, fcVec3 local)
{
    if (body < 0) return local;
    const fcProjectionBody* s = fcWorld_ProjectionBody(world, body);
    if (s != NULL) return fcVec3_Add(s->position, fcQuat_Rotate(s->orientation, local));
    const fcBody* b = world->bodies + body;
    return fcVec3_Add(b->position, fcQuat_Rotate(b->orientation, local));
}
// Joint coordinate of a hinge (unwrapped angle about the axis, continuing from joint->coordinate) or a
// slider (travel along the axis), and the row J whose product with the velocities is its rate.
fcReal fcJoint_Coordinate(const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rateRow);

// Hinge/slider limit and motor rows, written after the type's own rows (a no-op for other joints).
void fcJoint_FillLimitMotor(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows);

// Refresh joint->coordinate and coordinateRate from the current state (after each step).
void fcJoint_UpdateCoordinate(const fcWorld* world, fcJoint* joint);
// the kept impulses of every joint, for a step `ratio` times as long as the last (fcWorld_SetTimestep)
void fcJoints_RescaleImpulses(fcWorld* world, fcReal ratio);

// Shared row builders (joint_ball.c, joint_hinge.c, joint_slider.c).
// A row pushing body b along dir and body a the opposite way: J_a = (-dir, angA), J_b = (dir, angB).
void fcJoint_SetLinearRow(fcUserConstraintRow* row, fcVec3 dir, fcVec3 angA, fcVec3 angB);
// Three rows e_i . (p_b - p_a) = 0 along the world axes: anchors coincide.
void fcJoint_FillPointRows(const fcJointPose* pose, fcUserConstraintRow* rows);
// Row u_a . w_b = 0 for a unit vector u fixed in a and w fixed in b: d/dt = (w x u) . (omega_b - omega_a).
void fcJoint_FillAlignRow(fcVec3 ua, fcVec3 wb, fcUserConstraintRow* row);
// Row n_a . (p_b - p_a) = offset for a direction n fixed in a: the anchor of b stays on a plane of a.
void fcJoint_FillLineRow(const fcJointPose* pose, fcVec3 na, fcUserConstraintRow* row);
// Three rows locking the relative rotation of the joint frames of a and b.
void fcJoint_FillLockRows(const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows);

void fcBallJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcHingeJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcSliderJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcFixedJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcDistanceJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcRopeJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcUniversalJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcPlanarJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcBladeJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcCouplingJoint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);
void fcUserConstraint_Fill(const fcWorld*, const fcJoint*, const fcJointPose*, fcUserConstraintRow*);

// joint_coupling.c: check a coupling def and find the (at most two) moving bodies it acts on.
bool fcCouplingJoint_Resolve(fcWorld* world, const fcJointDef* def, fcJoint* joint);

// World vectors of a joint's local directions.
static inline fcVec3 fcJoint_DirA(const fcJointPose* p, fcVec3 local) { return fcQuat_Rotate(p->state.orientation[0], local); }
static inline fcVec3 fcJoint_DirB(const fcJointPose* p, fcVec3 local) { return fcQuat_Rotate(p->state.orientation[1], local); }

static inline bool fcJoint_IsSoft(const fcJoint* j) { return j->stiffness > 0 || j->damping > 0; }

// limits with lower == upper lock the coordinate: their row is two-sided (J = +dq, f = q - lower), held always.
// As a one-sided row it guarded the lower side at the step's start and the upper one in the projection once the
// coordinate rounded past it: its impulse summed pushes of both signs (3 m g l, of the wrong sign).
// Limits closer than 1e-9 (rad or m) are a lock too (the side would flip within a step the same way).
static inline bool fcJoint_LimitLocks(const fcJoint* j) { return j->limitRow >= 0 && j->upperLimit - j->lowerLimit <= 1e-9; }

// a joint of a sleeping island: neither of its bodies (indices, -1 the world) moves and one of them is asleep;
// its records keep what it carried when the island fell asleep
static inline bool fcJoint_Sleeps(const fcWorld* world, int bodyA, int bodyB)
{
    const fcBody* a = bodyA >= 0 ? world->bodies + bodyA : NULL;
    const fcBody* b = bodyB >= 0 ? world->bodies + bodyB : NULL;
    bool someAsleep = (a && a->asleep) || (b && b->asleep);
    bool aHeld = !a || a->type != fc_dynamicBody || a->asleep, bHeld = !b || b->type != fc_dynamicBody || b->asleep;
    return someAsleep && aHeld && bHeld;
}

// the joint's records of the step (impulse per row, the wrenches on both bodies) back to zero
static inline void fcJoint_ClearRecords(fcJoint* joint)
{
    memset(joint->impulse, 0, sizeof joint->impulse);
    joint->impulseLinearB = joint->impulseAngularB = joint->impulseMomentB = fcV3(0, 0, 0);
    joint->impulseLinearA = joint->impulseAngularA = fcV3(0, 0, 0);
}

// the sum of the sizes of the wrenches' entries in the joint's records (the two sides' cancel): not finite when one
// of them is not, nor when one over the step's h would not be
static inline fcReal fcJoint_RecordSum(const fcJoint* joint)
{
    const fcVec3 v[5] = {joint->impulseLinearB, joint->impulseAngularB, joint->impulseMomentB, joint->impulseLinearA,
                         joint->impulseAngularA};
    fcReal sum = 0;
    for (int k = 0; k < 5; ++k) sum += FC_FABS(v[k].x) + FC_FABS(v[k].y) + FC_FABS(v[k].z);
    return sum;
}

#endif
