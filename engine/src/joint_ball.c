// SPDX-License-Identifier: MIT
// Ball joint: the two anchors coincide, f = p_b - p_a = 0 (3 rows along the world axes).
#include "joint.h"

void fcJoint_SetLinearRow(fcUserConstraintRow* row, fcVec3 dir, fcVec3 angA, fcVec3 angB)
{
    fcReal* ja = row->jacobian[0];
    fcReal* jb = row->jacobian[1];
    ja[0] = -dir.x, ja[1] = -dir.y, ja[2] = -dir.z, ja[3] = angA.x, ja[4] = angA.y, ja[5] = angA.z;
    jb[0] = dir.x, jb[1] = dir.y, jb[2] = dir.z, jb[3] = angB.x, jb[4] = angB.y, jb[5] = angB.z;
}

void fcJoint_FillPointRows(const fcJointPose* pose, fcUserConstraintRow* rows)
{
    fcVec3 d = fcVec3_Sub(pose->pb, pose->pa);
    fcReal err[3] = {d.x, d.y, d.z};
    for (int i = 0; i < 3; ++i) {
        fcVec3 e = fcV3(i == 0, i == 1, i == 2);
        // d/dt (p_b - p_a) . e = e . v_b + (r_b x e) . w_b - e . v_a - (r_a x e) . w_a
        fcJoint_SetLinearRow(rows + i, e, fcVec3_Neg(fcVec3_Cross(pose->ra, e)), fcVec3_Cross(pose->rb, e));
        rows[i].rate = 0;
        rows[i].error = err[i];
    }
}

void fcBallJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world, (void)joint;
    fcJoint_FillPointRows(pose, rows);
}

