// SPDX-License-Identifier: MIT
// Blade (knife edge): the anchor point of b has no velocity relative to a along s = n_a x axis_b, the
// sideways direction. A Pfaffian row s . v_point = 0 that no f(q) integrates: it has no position error.
#include "joint.h"

void fcBladeJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world;
    fcVec3 n = fcJoint_DirA(pose, joint->localNormalA);
    fcVec3 axis = fcJoint_DirB(pose, joint->localAxisB);
    fcVec3 s = fcVec3_Normalize(fcVec3_Cross(n, axis));
    // velocity of the material point of a at p_b: v_a + w_a x (p_b - x_a)
    fcVec3 rapb = fcVec3_Sub(pose->pb, pose->state.position[0]);
    fcVec3 angA = fcVec3_Neg(fcVec3_Cross(rapb, s));
    fcVec3 angB = fcVec3_Cross(pose->rb, s);
    fcJoint_SetLinearRow(rows, s, angA, angB);
    rows[0].rate = 0;
    rows[0].error = 0;
}
