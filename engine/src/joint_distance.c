// SPDX-License-Identifier: MIT
// Distance joint (rigid rod, or a spring when soft): f = |p_b - p_a| - length, one row along the rod; and the
// rope, the same row turned one-sided: f = length - |p_b - p_a| >= 0, so that lambda >= 0 can only pull.
#include "joint.h"

void fcDistanceJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose,
                          fcUserConstraintRow* rows)
{
    (void)world;
    fcVec3 d = fcVec3_Sub(pose->pb, pose->pa);
    fcReal len = fcVec3_Length(d);
    // a zero-length spring has no direction: any unit vector gives the right (zero) force
    fcVec3 u = len > 1e-12 ? fcVec3_Scale(1 / len, d) : fcV3(0, 0, 1);
    fcVec3 angA = fcVec3_Neg(fcVec3_Cross(pose->ra, u));
    fcVec3 angB = fcVec3_Cross(pose->rb, u);
    fcJoint_SetLinearRow(rows, u, angA, angB);
    rows[0].rate = 0;
    rows[0].error = len - joint->length;
}

void fcRopeJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    fcDistanceJoint_Fill(world, joint, pose, rows);
    for (int s = 0; s < 2; ++s)
        for (int k = 0; k < 6; ++k) rows[0].jacobian[s][k] = -rows[0].jacobian[s][k];
    rows[0].error = -rows[0].error;
}
