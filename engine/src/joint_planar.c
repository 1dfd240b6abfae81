// SPDX-License-Identifier: MIT
// Planar joint: the anchor of b stays in the plane of a through the anchor with normal n (1 row), and b
// turns only about n (2 rows perp_a . n_b = 0).
#include "joint.h"

void fcPlanarJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world;
    fcJoint_FillLineRow(pose, fcJoint_DirA(pose, joint->localAxisA), rows + 0);
    fcVec3 nb = fcJoint_DirB(pose, joint->localAxisB);
    fcJoint_FillAlignRow(fcJoint_DirA(pose, joint->localPerp1A), nb, rows + 1);
    fcJoint_FillAlignRow(fcJoint_DirA(pose, joint->localPerp2A), nb, rows + 2);
}
