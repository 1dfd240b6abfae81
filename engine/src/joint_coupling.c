// SPDX-License-Identifier: MIT
// Coupling: a linear relation between the coordinates of two hinge/slider joints (a gear, or an ideal string
// over a pulley): f = q_A - ratio q_B - offset, one row on the (at most two) moving bodies the joints touch.
#include "joint.h"

#include <string.h>

static fcReal fcWrapPi(fcReal a)
{
    const fcReal twoPi = 6.283185307179586476925;
    a = fmod(a + 3.14159265358979323846, twoPi);
    if (a < 0) a += twoPi;
    return a - 3.14159265358979323846;
}

fcReal fcJoint_Coordinate(const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rateRow)
{
    fcVec3 axis = fcJoint_DirA(pose, joint->localAxisA);
    if (joint->type == fc_sliderJoint) {
        fcJoint_FillLineRow(pose, axis, rateRow);
        return rateRow->error;
    }
    // hinge: angle of b's reference perpendicular about the axis, unwrapped against the last step's value
    fcVec3 p1a = fcJoint_DirA(pose, joint->localPerp1A);
    fcVec3 p1b = fcJoint_DirB(pose, joint->localPerp1B);
    fcReal raw = FC_ATAN2(fcVec3_Dot(fcVec3_Cross(p1a, p1b), axis), fcVec3_Dot(p1a, p1b));
    memset(rateRow, 0, sizeof *rateRow);
    rateRow->jacobian[0][3] = -axis.x, rateRow->jacobian[0][4] = -axis.y, rateRow->jacobian[0][5] = -axis.z;
    rateRow->jacobian[1][3] = axis.x, rateRow->jacobian[1][4] = axis.y, rateRow->jacobian[1][5] = axis.z;
    fcReal angle = joint->coordinate + fcWrapPi(raw - joint->coordinate);
    rateRow->error = angle;
    return angle;
}

// add coefficient * (the sub-joint's rate row) onto the coupling row, body by body
static void fcCoupling_Accumulate(const fcJoint* coupling, const fcJoint* sub, const fcUserConstraintRow* rate,
                                  fcReal coefficient, fcUserConstraintRow* row)
{
    int subBodies[2] = {sub->bodyA, sub->bodyB};
    int own[2] = {coupling->bodyA, coupling->bodyB};
    for (int s = 0; s < 2; ++s) {
        for (int o = 0; o < 2; ++o) {
            if (subBodies[s] >= 0 && subBodies[s] == own[o]) {
                for (int k = 0; k < 6; ++k) row->jacobian[o][k] += coefficient * rate->jacobian[s][k];
                break;
            }
        }
    }
}

void fcCouplingJoint_Fill(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    const fcJoint* ja = world->joints + joint->jointA;
    const fcJoint* jb = world->joints + joint->jointB;
    fcJointPose pa, pb;
    fcUserConstraintRow ra, rb;
    fcJoint_ComputePose(world, ja, pose->state.time, &pa);
    fcJoint_ComputePose(world, jb, pose->state.time, &pb);
    fcReal qa = fcJoint_Coordinate(ja, &pa, &ra);
    fcReal qb = fcJoint_Coordinate(jb, &pb, &rb);
    memset(rows, 0, sizeof *rows);
    fcCoupling_Accumulate(joint, ja, &ra, 1, rows);
    fcCoupling_Accumulate(joint, jb, &rb, -joint->ratio, rows);
    rows[0].error = qa - joint->ratio * qb - joint->offset;
}

bool fcCouplingJoint_Resolve(fcWorld* world, const fcJointDef* def, fcJoint* joint)
{
    fcWorld* wa = NULL;
    fcWorld* wb = NULL;
    fcJoint* a = fcGetJoint(def->jointA, &wa, "fcCreateJoint (coupling jointA)");
    if (a == NULL) return false;
    fcJoint* b = fcGetJoint(def->jointB, &wb, "fcCreateJoint (coupling jointB)");
    if (b == NULL) return false;
    if (wa != world || wb != world) return fcError("fcCreateJoint: coupling joints belong to another world");
    if (a == b) return fcError("fcCreateJoint: a coupling needs two different joints");
    for (int k = 0; k < 2; ++k) {
        const fcJoint* j = k ? b : a;
        if (j->type != fc_hingeJoint && j->type != fc_sliderJoint)
            return fcError("fcCreateJoint: coupling joint%c is a %s joint; only hinge and slider joints have a coordinate",
                           k ? 'B' : 'A', fcJointType_GetName(j->type));
    }
    // the moving (non-static) bodies the two joints touch: at most two
    int moving[4], count = 0;
    int candidates[4] = {a->bodyA, a->bodyB, b->bodyA, b->bodyB};
    for (int i = 0; i < 4; ++i) {
        int body = candidates[i];
        if (body < 0 || world->bodies[body].type == fc_staticBody) continue;
        bool seen = false;
        for (int m = 0; m < count; ++m) seen = seen || moving[m] == body;
        if (!seen) moving[count++] = body;
    }
    if (count > 2)
        return fcError("fcCreateJoint: the coupled joints move %d bodies; a coupling row acts on at most two", count);
    if (count == 0) return fcError("fcCreateJoint: the coupled joints move no body");
    joint->bodyA = count == 2 ? moving[0] : -1;
    joint->bodyB = count == 2 ? moving[1] : moving[0];
    joint->jointA = (int)(a - world->joints);
    joint->jointB = (int)(b - world->joints);
    return true;
}
