// SPDX-License-Identifier: MIT
// Hinge joint: anchors coincide (3 rows) and the axis of b stays along the axis of a (2 rows:
// perp1_a . axis_b = perp2_a . axis_b = 0). Its coordinate is the angle about the axis.
#include "joint.h"

void fcJoint_FillAlignRow(fcVec3 ua, fcVec3 wb, fcUserConstraintRow* row)
{
    // d/dt (u_a . w_b) = (w_b x u_a) . (omega_b - omega_a)
    fcVec3 g = fcVec3_Cross(wb, ua);
    for (int k = 0; k < 3; ++k) row->jacobian[0][k] = row->jacobian[1][k] = 0;
    row->jacobian[0][3] = -g.x, row->jacobian[0][4] = -g.y, row->jacobian[0][5] = -g.z;
    row->jacobian[1][3] = g.x, row->jacobian[1][4] = g.y, row->jacobian[1][5] = g.z;
    row->rate = 0;
    row->error = fcVec3_Dot(ua, wb);
}

void fcHingeJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world;
    fcJoint_FillPointRows(pose, rows);
    fcVec3 axisB = fcJoint_DirB(pose, joint->localAxisB);
    fcJoint_FillAlignRow(fcJoint_DirA(pose, joint->localPerp1A), axisB, rows + 3);
    fcJoint_FillAlignRow(fcJoint_DirA(pose, joint->localPerp2A), axisB, rows + 4);
}
