// SPDX-License-Identifier: MIT
// Slider joint: no relative rotation (3 lock rows) and the anchor of b stays on the line through the anchor
// of a along the axis (2 rows perp_a . (p_b - p_a) = 0). Its coordinate is the travel axis_a . (p_b - p_a).
#include "joint.h"

void fcJoint_FillLineRow(const fcJointPose* pose, fcVec3 na, fcUserConstraintRow* row)
{
    fcVec3 d = fcVec3_Sub(pose->pb, pose->pa);
    // d/dt (n_a . d) = n . v_b + (r_b x n) . w_b - n . v_a + (n x (d + r_a)) . w_a, n rotating with a
    fcVec3 angA = fcVec3_Cross(na, fcVec3_Add(d, pose->ra));
    fcVec3 angB = fcVec3_Cross(pose->rb, na);
    fcJoint_SetLinearRow(row, na, angA, angB);
    row->rate = 0;
    row->error = fcVec3_Dot(na, d);
}

void fcJoint_FillLockRows(const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    // the frames (axis, perp1, perp2) of a and b coincide at creation; three dot products vanish at alignment,
    // with independent gradients along the three frame axes
    fcVec3 a0 = fcJoint_DirA(pose, joint->localAxisA), a1 = fcJoint_DirA(pose, joint->localPerp1A),
           a2 = fcJoint_DirA(pose, joint->localPerp2A);
    fcVec3 b0 = fcJoint_DirB(pose, joint->localAxisB), b1 = fcJoint_DirB(pose, joint->localPerp1B),
           b2 = fcJoint_DirB(pose, joint->localPerp2B);
    fcJoint_FillAlignRow(a2, b1, rows + 0);  // rotation about the axis
    fcJoint_FillAlignRow(a0, b2, rows + 1);  // about perp1
    fcJoint_FillAlignRow(a1, b0, rows + 2);  // about perp2
}

void fcSliderJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world;
    fcJoint_FillLockRows(joint, pose, rows);
    fcJoint_FillLineRow(pose, fcJoint_DirA(pose, joint->localPerp1A), rows + 3);
    fcJoint_FillLineRow(pose, fcJoint_DirA(pose, joint->localPerp2A), rows + 4);
}
