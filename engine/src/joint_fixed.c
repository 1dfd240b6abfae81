// SPDX-License-Identifier: MIT
// Fixed joint (weld): anchors coincide (3 rows) and the relative rotation is locked (3 rows).
#include "joint.h"

void fcFixedJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world;
    fcJoint_FillPointRows(pose, rows);
    fcJoint_FillLockRows(joint, pose, rows + 3);
}
