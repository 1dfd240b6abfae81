// SPDX-License-Identifier: MIT
// Universal joint: anchors coincide (3 rows) and axis_a . axisB_b = 0 (1 row): two rotations remain.
#include "joint.h"

void fcUniversalJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose,
                           fcUserConstraintRow* rows)
{
    (void)world;
    fcJoint_FillPointRows(pose, rows);
    fcJoint_FillAlignRow(fcJoint_DirA(pose, joint->localAxisA), fcJoint_DirB(pose, joint->localAxisB), rows + 3);
}
