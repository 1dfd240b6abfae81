// SPDX-License-Identifier: MIT
// Ball joint: the two anchors coincide, f = p_b - p_a = 0 (3 rows along the world axes).
#include "joint.h"

static void fcSetRowVec(fcReal* j, fcVec3 lin, fcVec3 ang)
{
    j[0] = lin.x, j[1] = lin.y, j[2] = lin.z;
    j[3] = ang.x, j[4] = ang.y, j[5] = ang.z;
}

void fcJoint_FillPointRows(const fcJointPose* pose, fcUserConstraintRow* rows)
{
    fcVec3 d = fcVec3_Sub(pose->pb, pose->pa);
    fcReal err[3] = {d.x, d.y, d.z};
    for (int i = 0; i < 3; ++i) {
        fcVec3 e = fcV3(i == 0, i == 1, i == 2);
        // d/dt (p_b - p_a) . e = e . v_b + (r_b x e) . w_b - e . v_a - (r_a x e) . w_a
        fcSetRowVec(rows[i].jacobian[0], fcVec3_Neg(e), fcVec3_Neg(fcVec3_Cross(pose->ra, e)));
        fcSetRowVec(rows[i].jacobian[1], e, fcVec3_Cross(pose->rb, e));
        rows[i].rate = 0;
        rows[i].error = err[i];
    }
}

void fcBallJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world, (void)joint;
    fcJoint_FillPointRows(pose, rows);
}
