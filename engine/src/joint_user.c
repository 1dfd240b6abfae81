// SPDX-License-Identifier: MIT
// User constraints: the caller's callback fills the rows {J_a, J_b, rate, error} from the bodies' state,
// holonomic f(q, t) = 0 (error used by stabilization) or Pfaffian a . v + a_t = 0.
#include "joint.h"

#include <string.h>

void fcUserConstraint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world;
    memset(rows, 0, sizeof rows[0] * (size_t)joint->rowCount);
    joint->userFcn(&pose->state, rows, joint->userContext);
    if (!joint->holonomic)
        for (int i = 0; i < joint->rowCount; ++i) rows[i].error = 0;
}
