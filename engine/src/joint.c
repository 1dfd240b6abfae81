// SPDX-License-Identifier: MIT
// Joint lifecycle (validation, local frames, destruction), the per-type dispatch table and the reaction
// a joint reports: its multipliers and the force and moment they add up to.
#include "joint.h"

#include <stdio.h>
#include <string.h>

// clang-format off
static const fcJointTypeTable s_jointTypes[fc_jointTypeCount] = {
    [fc_ballJoint]      = {"ball",      3, fcBallJoint_Fill, true},
    [fc_hingeJoint]     = {"hinge",     5, fcHingeJoint_Fill, true},
    [fc_sliderJoint]    = {"slider",    5, fcSliderJoint_Fill},
    [fc_fixedJoint]     = {"fixed",     6, fcFixedJoint_Fill, true},
    [fc_distanceJoint]  = {"distance",  1, fcDistanceJoint_Fill},
    [fc_ropeJoint]      = {"rope",      1, fcRopeJoint_Fill},
    [fc_universalJoint] = {"universal", 4, fcUniversalJoint_Fill, true},
    [fc_planarJoint]    = {"planar",    3, fcPlanarJoint_Fill},
    [fc_bladeJoint]     = {"blade",     1, fcBladeJoint_Fill},
    [fc_couplingJoint]  = {"coupling",  1, fcCouplingJoint_Fill},
    [fc_userConstraint] = {"user",      0, fcUserConstraint_Fill},
};
// clang-format on

const fcJointTypeTable* fcJoint_GetTypeTable(fcJointType type) { return s_jointTypes + type; }

const char* fcJointType_GetName(fcJointType type)
{
    return (unsigned)type < fc_jointTypeCount ? s_jointTypes[type].name : "unknown";
}

bool fcJointType_FromName(const char* name, fcJointType* type)
{
    if (type == NULL) return fcError("fcJointType_FromName: type is NULL");
    for (int t = 0; name && t < fc_jointTypeCount; ++t) {
        if (strcmp(name, s_jointTypes[t].name) == 0) {
            *type = (fcJointType)t;
            return true;
        }
    }
    return false;
}

void fcJoint_ComputePose(const fcWorld* world, const fcJoint* joint, fcReal time, fcJointPose* pose)
{
    fcUserConstraintState* s = &pose->state;
    s->time = time;
    fcBody_GetState(world, joint->bodyA, &s->position[0], &s->orientation[0], &s->linearVelocity[0],
                    &s->angularVelocity[0]);
    fcBody_GetState(world, joint->bodyB, &s->position[1], &s->orientation[1], &s->linearVelocity[1],
                    &s->angularVelocity[1]);
    pose->ra = fcQuat_Rotate(s->orientation[0], joint->localAnchorA);
    pose->rb = fcQuat_Rotate(s->orientation[1], joint->localAnchorB);
    pose->pa = fcVec3_Add(s->position[0], pose->ra);
    pose->pb = fcVec3_Add(s->position[1], pose->rb);
}

fcJointDef fcDefaultJointDef(fcJointType type)
{
    fcJointDef d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.axis = fcV3(0, 0, 1);
    d.axisB = fcV3(1, 0, 0);
    d.normal = fcV3(0, 0, 1);
    d.length = -1;
    d.ratio = 1;
    d.servoGain = 10;
    d.internalValue = FC_DEF_COOKIE;
    return d;
}

fcUserConstraintDef fcDefaultUserConstraintDef(void)
{
    fcUserConstraintDef d;
    memset(&d, 0, sizeof d);
    d.rowCount = 1;
    d.holonomic = true;
    d.internalValue = FC_DEF_COOKIE;
    return d;
}

fcSpringDef fcDefaultSpringDef(void)
{
    fcSpringDef d;
    memset(&d, 0, sizeof d);
    d.stiffness = 1;
    d.restLength = -1;
    d.internalValue = FC_DEF_COOKIE;
    return d;
}

// frame (axis, perp1, perp2) of a world direction, expressed in a body's frame
static void fcJoint_LocalFrame(fcQuat q, fcVec3 axisWorld, fcVec3* axis, fcVec3* p1, fcVec3* p2)
{
    fcVec3 a = fcVec3_Normalize(axisWorld);
    fcVec3 u = fcVec3_Perpendicular(a);
    fcVec3 w = fcVec3_Cross(a, u);
    *axis = fcQuat_InvRotate(q, a);
    *p1 = fcQuat_InvRotate(q, u);
    *p2 = fcQuat_InvRotate(q, w);
}

// rotation taking e_z to the unit vector a (for the reported joint frame)
static fcQuat fcQuat_FromZTo(fcVec3 a)
{
    fcVec3 z = fcV3(0, 0, 1);
    fcReal c = fcVec3_Dot(z, a);
    if (c < -0.999999999) return fcQuat_FromAxisAngle(fcV3(1, 0, 0), 3.14159265358979323846);
    fcVec3 axis = fcVec3_Cross(z, a);
    fcQuat q = {1 + c, axis.x, axis.y, axis.z};
    return fcQuat_Normalize(q);
}

static bool fcCheckVec(fcVec3 v, const char* what)
{
    if (!fcVec3_IsFinite(v)) return fcError("fcCreateJoint: %s is not finite", what);
    return true;
}

static bool fcCheckDirection(fcVec3 v, const char* what)
{
    if (!fcCheckVec(v, what)) return false;
    if (fcVec3_Length(v) < 1e-9) return fcError("fcCreateJoint: %s must be a non-zero direction", what);
    return true;
}

static bool fcCheckName(const char* name, const char* caller)
{
    if (name && strlen(name) >= FC_NAME_CAPACITY)
        return fcError("%s: name \"%.20s...\" is longer than %d characters", caller, name, FC_NAME_CAPACITY - 1);
    return true;
}

// resolve a body id that may be null (the world); -1 for the world
static bool fcResolveBody(fcWorld* world, fcBodyId id, bool allowWorld, int* index, const char* which, const char* caller)
{
    if (FC_IS_NULL(id)) {
        if (!allowWorld) return fcError("%s: %s must be a body, not the world", caller, which);
        *index = -1;
        return true;
    }
    fcWorld* bw = NULL;
    char named[64];
    snprintf(named, sizeof named, "%s (%s)", caller, which);
    if (fcGetBody(id, &bw, named) == NULL) return false;
    if (bw != world) return fcError("%s: %s belongs to another world", caller, which);
    *index = id.index1 - 1;
    return true;
}

// a joint's two bodies: bodyA may be the world; not the same body twice, and not two that never move (static
// bodies or the world: such a joint would hold nothing; a kinematic body moves, and its joints' coordinates follow)
static bool fcResolveBodies(fcWorld* world, fcBodyId a, fcBodyId b, fcJoint* j, const char* caller)
{
    if (!fcResolveBody(world, a, true, &j->bodyA, "bodyA", caller) || !fcResolveBody(world, b, false, &j->bodyB, "bodyB", caller))
        return false;
    if (j->bodyA == j->bodyB) return fcError("%s: bodyA and bodyB are the same body", caller);
    bool still = world->bodies[j->bodyB].type == fc_staticBody && (j->bodyA < 0 || world->bodies[j->bodyA].type == fc_staticBody);
    if (still) return fcError("%s: both bodies are static (or the world): the joint would hold nothing", caller);
    return true;
}

// a joint made, changed or destroyed acts on its bodies from the next step; asleep, they would not feel it until
// something else woke them (a motor switched on under a sleeping wheel started a step late, a destroyed joint's box
// stayed in the air)
static void fcJoint_WakeBodies(fcWorld* world, const fcJoint* j)
{
    if (j->bodyA >= 0) fcBody_Wake(world, world->bodies + j->bodyA);
    if (j->bodyB >= 0) fcBody_Wake(world, world->bodies + j->bodyB);
}

// all validation happens on `j` (a local) so that a refused def changes nothing
static fcJointId fcJoint_Commit(fcWorld* world, fcJoint* j, const char* name)
{
    int index = fcWorld_TakeSlot(world, (void**)&world->joints, sizeof(fcJoint), offsetof(fcJoint, generation),
                                 &world->jointCapacity, &world->jointHigh, &world->jointFree, &world->jointFreeCount);
    int generation = world->joints[index].generation;
    j->generation = generation;
    j->inUse = true;
    j->rowStart = -1;
    if (j->type == fc_userConstraint || j->type == fc_couplingJoint) j->limitRow = j->motorRow = -1;
    if (name) snprintf(j->name, sizeof j->name, "%s", name);
    world->joints[index] = *j;
    world->jointCount += 1;
    if (j->bodyA >= 0) fcBody_AddJoint(world->bodies + j->bodyA, index);
    if (j->bodyB >= 0 && j->bodyB != j->bodyA) fcBody_AddJoint(world->bodies + j->bodyB, index);
    fcJoint_WakeBodies(world, j);
    world->topologyDirty = true;
    world->contactFilterDirty = true;
    return fcMakeJointId(world, index);
}

static bool fcJoint_SetSoft(fcJoint* j, fcReal stiffness, fcReal damping, const char* caller)
{
    if (!isfinite(stiffness) || !isfinite(damping) || stiffness < 0 || damping < 0)
        return fcError("%s: stiffness and damping must be finite and >= 0 (got %g, %g)", caller, (double)stiffness,
                       (double)damping);
    j->stiffness = stiffness;
    j->damping = damping;
    return true;
}

// the rows after the type's own: the limit's, then the motor's. The last step's impulses move with their rows (read
// under the new numbers, a motor's load was reported as the limit's after a limit was switched on)
static void fcJoint_LayOutExtras(fcJoint* j)
{
    int base = s_jointTypes[j->type].rowCount;
    if (base == 0) return;  // user constraints: rowCount is theirs
    fcReal limitImpulse = j->limitRow >= 0 ? j->impulse[j->limitRow] : 0;
    fcReal motorImpulse = j->motorRow >= 0 ? j->impulse[j->motorRow] : 0;
    for (int k = base; k < FC_MAX_JOINT_ROWS; ++k) j->impulse[k] = 0;
    j->rowCount = base;
    j->limitRow = j->enableLimit ? j->rowCount++ : -1;
    j->motorRow = j->enableMotor ? j->rowCount++ : -1;
    if (j->limitRow >= 0) j->impulse[j->limitRow] = limitImpulse;
    if (j->motorRow >= 0) j->impulse[j->motorRow] = motorImpulse;
}

static bool fcJoint_SetLimitsOn(fcJoint* j, bool enable, fcReal lower, fcReal upper, const char* caller)
{
    if (enable && j->type != fc_hingeJoint && j->type != fc_sliderJoint)
        return fcError("%s: a %s joint has no coordinate to limit (hinge and slider do)", caller, s_jointTypes[j->type].name);
    if (enable && (!isfinite(lower) || !isfinite(upper) || lower > upper))
        return fcError("%s: limits must be finite with lower <= upper (got %g, %g)", caller, (double)lower, (double)upper);
    j->enableLimit = enable;
    j->lowerLimit = lower;
    j->upperLimit = upper;
    // a limit switched off holds nothing; one switched on or moved keeps its state, and the next step's active set
    // decides: it takes hold (an event) where the joint runs into it, lets go (an event) where it no longer pushes.
    // Reset on every call, a hinge resting on its stop reported a new hold for the same limit set again; and a rope
    // (whose `active` is whether it is taut) reported a hold in its first step
    if (!enable && (j->type == fc_hingeJoint || j->type == fc_sliderJoint)) j->active = false;
    fcJoint_LayOutExtras(j);
    return true;
}

static bool fcJoint_SetMotorOn(fcJoint* j, bool enable, bool servo, fcReal speed, fcReal target, fcReal gain, fcReal maxForce,
                               const char* caller)
{
    if (enable && j->type != fc_hingeJoint && j->type != fc_sliderJoint)
        return fcError("%s: a %s joint has no coordinate to drive (hinge and slider do)", caller, s_jointTypes[j->type].name);
    if (enable && (!isfinite(maxForce) || maxForce <= 0))
        return fcError("%s: the motor's maxMotorForce must be > 0, got %g", caller, (double)maxForce);
    if (enable && (!isfinite(speed) || !isfinite(target) || !isfinite(gain) || (servo && gain <= 0)))
        return fcError("%s: motor speed, servo target and gain must be finite (gain > 0)", caller);
    j->enableMotor = enable;
    j->servo = servo;
    j->motorSpeed = speed;
    j->servoTarget = target;
    j->servoGain = gain;
    j->maxMotorForce = maxForce;
    j->motorClamp = 0;
    fcJoint_LayOutExtras(j);
    return true;
}

void fcJoint_FillLimitMotor(const fcWorld* world, const fcJoint* joint, const fcJointPose* pose, fcUserConstraintRow* rows)
{
    (void)world;
    if (joint->limitRow < 0 && joint->motorRow < 0) return;
    fcUserConstraintRow rate;
    fcReal q = fcJoint_Coordinate(joint, pose, &rate);
    if (joint->limitRow >= 0) {
        // guard the nearer limit: f = q - lower >= 0 (J = dq), or f = upper - q >= 0 (J = -dq); a lock: f = q - lower
        fcUserConstraintRow* row = rows + joint->limitRow;
        bool upper = !fcJoint_LimitLocks(joint) && q > 0.5 * (joint->lowerLimit + joint->upperLimit);
        fcReal sign = upper ? -1 : 1;
        for (int s = 0; s < 2; ++s)
            for (int k = 0; k < 6; ++k) row->jacobian[s][k] = sign * rate.jacobian[s][k];
        row->rate = 0;
        row->error = upper ? joint->upperLimit - q : q - joint->lowerLimit;
    }
    if (joint->motorRow >= 0) {
        // J v + rate = 0 drives dq/dt to the target rate
        fcUserConstraintRow* row = rows + joint->motorRow;
        *row = rate;
        fcReal target = joint->servo ? joint->servoGain * (joint->servoTarget - q) : joint->motorSpeed;
        row->rate = -target;
        row->error = 0;
    }
}

fcJointId fcCreateJoint(fcWorldId worldId, const fcJointDef* def)
{
    fcWorld* world = fcGetWorld(worldId, "fcCreateJoint");
    if (world == NULL) return fc_nullJointId;
    if (def == NULL || def->internalValue != FC_DEF_COOKIE) {
        fcError("fcCreateJoint: the def was not made by fcDefaultJointDef");
        return fc_nullJointId;
    }
    if (fcWorld_Busy(world)) {
        fcError("fcCreateJoint: %s", fcWorld_Busy(world));
        return fc_nullJointId;
    }
    if ((unsigned)def->type >= fc_jointTypeCount || def->type == fc_userConstraint) {
        fcError("fcCreateJoint: invalid joint type %d (user constraints come from fcCreateUserConstraint)", (int)def->type);
        return fc_nullJointId;
    }
    if (!fcCheckName(def->name, "fcCreateJoint")) return fc_nullJointId;

    fcJoint j;
    memset(&j, 0, sizeof j);
    j.type = def->type;
    j.userData = def->userData;
    j.collideConnected = def->collideConnected;
    j.rowCount = s_jointTypes[def->type].rowCount;
    j.ratio = def->ratio;
    j.offset = def->offset;
    if (!fcJoint_SetSoft(&j, def->stiffness, def->damping, "fcCreateJoint")) return fc_nullJointId;

    if (def->type == fc_couplingJoint) {
        if (!isfinite(def->ratio) || !isfinite(def->offset)) {
            fcError("fcCreateJoint: coupling ratio and offset must be finite");
            return fc_nullJointId;
        }
        if (!fcCouplingJoint_Resolve(world, def, &j)) return fc_nullJointId;
        j.localFrameA = fcQuat_Identity();
        return fcJoint_Commit(world, &j, def->name);
    }

    if (!fcResolveBodies(world, def->bodyA, def->bodyB, &j, "fcCreateJoint")) return fc_nullJointId;
    fcVec3 xa, xb, unused;
    fcQuat qa, qb;
    fcBody_GetState(world, j.bodyA, &xa, &qa, &unused, &unused);
    fcBody_GetState(world, j.bodyB, &xb, &qb, &unused, &unused);

    fcVec3 anchorA = def->anchor, anchorB = def->anchor;
    if (def->type == fc_distanceJoint || def->type == fc_ropeJoint) {
        anchorA = def->anchorA;
        anchorB = def->anchorB;
        if (!fcCheckVec(anchorA, "anchorA") || !fcCheckVec(anchorB, "anchorB")) return fc_nullJointId;
        if (!isfinite(def->length)) {
            fcError("fcCreateJoint: length is not finite");
            return fc_nullJointId;
        }
        fcReal initial = fcVec3_Distance(anchorA, anchorB);
        j.length = def->length < 0 ? initial : def->length;
        if (j.length <= 1e-9 && !fcJoint_IsSoft(&j)) {
            fcError("fcCreateJoint: a rigid %s joint needs a length > 0 (anchors %g m apart)", s_jointTypes[def->type].name, (double)initial);
            return fc_nullJointId;
        }
    } else if (!fcCheckVec(def->anchor, "anchor")) {
        return fc_nullJointId;
    }
    j.localAnchorA = fcQuat_InvRotate(qa, fcVec3_Sub(anchorA, xa));
    j.localAnchorB = fcQuat_InvRotate(qb, fcVec3_Sub(anchorB, xb));

    fcVec3 frameAxis = fcV3(0, 0, 1);
    bool hasFrame = false;
    switch (def->type) {
        case fc_hingeJoint:
        case fc_sliderJoint:
        case fc_fixedJoint:
            if (!fcCheckDirection(def->axis, "axis")) return fc_nullJointId;
            frameAxis = def->axis;
            hasFrame = true;
            break;
        case fc_universalJoint: {
            if (!fcCheckDirection(def->axis, "axis") || !fcCheckDirection(def->axisB, "axisB")) return fc_nullJointId;
            fcVec3 a = fcVec3_Normalize(def->axis), b = fcVec3_Normalize(def->axisB);
            if (FC_FABS(fcVec3_Dot(a, b)) > 1e-6) {
                fcError("fcCreateJoint: universal axis and axisB must be perpendicular (cos = %g)", (double)fcVec3_Dot(a, b));
                return fc_nullJointId;
            }
            j.localAxisA = fcQuat_InvRotate(qa, a);
            j.localAxisB = fcQuat_InvRotate(qb, b);
            frameAxis = a;
            break;
        }
        case fc_planarJoint:
            if (!fcCheckDirection(def->normal, "normal")) return fc_nullJointId;
            frameAxis = def->normal;
            hasFrame = true;
            break;
        case fc_bladeJoint: {
            if (!fcCheckDirection(def->normal, "normal") || !fcCheckDirection(def->axis, "axis")) return fc_nullJointId;
            fcVec3 n = fcVec3_Normalize(def->normal), a = fcVec3_Normalize(def->axis);
            if (FC_FABS(fcVec3_Dot(n, a)) > 1e-6) {
                fcError("fcCreateJoint: blade axis must lie in the plane (perpendicular to normal; cos = %g)",
                        (double)fcVec3_Dot(n, a));
                return fc_nullJointId;
            }
            j.localNormalA = fcQuat_InvRotate(qa, n);
            j.localAxisB = fcQuat_InvRotate(qb, a);
            frameAxis = n;
            break;
        }
        default:
            break;
    }
    if (hasFrame) {
        fcJoint_LocalFrame(qa, frameAxis, &j.localAxisA, &j.localPerp1A, &j.localPerp2A);
        fcJoint_LocalFrame(qb, frameAxis, &j.localAxisB, &j.localPerp1B, &j.localPerp2B);
        // b's perpendiculars must be the world-equal copies of a's, not b's own choice
        j.localPerp1B = fcQuat_InvRotate(qb, fcQuat_Rotate(qa, j.localPerp1A));
        j.localPerp2B = fcQuat_InvRotate(qb, fcQuat_Rotate(qa, j.localPerp2A));
    }
    j.localFrameA = fcQuat_FromZTo(fcQuat_InvRotate(qa, fcVec3_Normalize(frameAxis)));
    if (def->type == fc_ballJoint || def->type == fc_distanceJoint || def->type == fc_ropeJoint) j.localFrameA = fcQuat_Identity();
    if (def->type == fc_ropeJoint) {
        if (fcJoint_IsSoft(&j)) {
            fcError("fcCreateJoint: a rope cannot be soft (use a soft distance joint for an elastic string)");
            return fc_nullJointId;
        }
        j.unilateral = true;
        j.active = true;  // a rope starts taut; the first solve lets it go if it is slack
    }
    if (!fcJoint_SetLimitsOn(&j, def->enableLimit, def->lowerLimit, def->upperLimit, "fcCreateJoint") ||
        !fcJoint_SetMotorOn(&j, def->enableMotor, def->servo, def->motorSpeed, def->servoTarget, def->servoGain,
                            def->maxMotorForce, "fcCreateJoint"))
        return fc_nullJointId;
    return fcJoint_Commit(world, &j, def->name);
}

fcJointId fcCreateUserConstraint(fcWorldId worldId, const fcUserConstraintDef* def)
{
    fcWorld* world = fcGetWorld(worldId, "fcCreateUserConstraint");
    if (world == NULL) return fc_nullJointId;
    if (def == NULL || def->internalValue != FC_DEF_COOKIE) {
        fcError("fcCreateUserConstraint: the def was not made by fcDefaultUserConstraintDef");
        return fc_nullJointId;
    }
    if (fcWorld_Busy(world)) {
        fcError("fcCreateUserConstraint: %s", fcWorld_Busy(world));
        return fc_nullJointId;
    }
    if (def->fcn == NULL) {
        fcError("fcCreateUserConstraint: fcn (the row callback) is NULL");
        return fc_nullJointId;
    }
    if (def->rowCount < 1 || def->rowCount > FC_MAX_USER_ROWS) {
        fcError("fcCreateUserConstraint: rowCount must be 1..%d, got %d", FC_MAX_USER_ROWS, def->rowCount);
        return fc_nullJointId;
    }
    if (!fcCheckName(def->name, "fcCreateUserConstraint")) return fc_nullJointId;
    if (def->unilateral && (!def->holonomic || def->rowCount != 1)) {
        fcError("fcCreateUserConstraint: a unilateral constraint is one holonomic row f(q, t) >= 0 (got %d rows, %s)",
                def->rowCount, def->holonomic ? "holonomic" : "Pfaffian");
        return fc_nullJointId;
    }
    fcJoint j;
    memset(&j, 0, sizeof j);
    j.type = fc_userConstraint;
    j.rowCount = def->rowCount;
    j.holonomic = def->holonomic;
    j.unilateral = def->unilateral;
    j.userFcn = def->fcn;
    j.userContext = def->context;
    j.userData = def->userData;
    j.collideConnected = def->collideConnected;
    j.localFrameA = fcQuat_Identity();
    if (!fcJoint_SetSoft(&j, def->stiffness, def->damping, "fcCreateUserConstraint")) return fc_nullJointId;
    if (!fcResolveBodies(world, def->bodyA, def->bodyB, &j, "fcCreateUserConstraint")) return fc_nullJointId;
    return fcJoint_Commit(world, &j, def->name);
}

fcJointId fcCreateSpring(fcWorldId worldId, const fcSpringDef* def)
{
    if (def == NULL || def->internalValue != FC_DEF_COOKIE) {
        fcError("fcCreateSpring: the def was not made by fcDefaultSpringDef");
        return fc_nullJointId;
    }
    if (!isfinite(def->stiffness) || def->stiffness <= 0) {
        fcError("fcCreateSpring: stiffness must be > 0, got %g", (double)def->stiffness);
        return fc_nullJointId;
    }
    if (!isfinite(def->restLength)) {
        fcError("fcCreateSpring: restLength is not finite");
        return fc_nullJointId;
    }
    fcJointDef d = fcDefaultJointDef(fc_distanceJoint);
    d.name = def->name;
    d.bodyA = def->bodyA;
    d.bodyB = def->bodyB;
    d.anchorA = def->anchorA;
    d.anchorB = def->anchorB;
    d.length = def->restLength;
    d.stiffness = def->stiffness;
    d.damping = def->damping;
    return fcCreateJoint(worldId, &d);
}

void fcJoint_DestroyInternal(fcWorld* world, int index)
{
    fcJoint* j = world->joints + index;
    if (!j->inUse) return;
    if (j->bodyA >= 0) fcBody_RemoveJoint(world->bodies + j->bodyA, index);
    if (j->bodyB >= 0) fcBody_RemoveJoint(world->bodies + j->bodyB, index);
    fcJoint_WakeBodies(world, j);
    // the two bodies may collide now: their shapes' pairs are looked for again
    int sides[2] = {j->bodyA, j->bodyB};
    for (int s = 0; s < 2; ++s) {
        if (sides[s] < 0) continue;
        const fcBody* b = world->bodies + sides[s];
        for (int k = 0; k < b->shapeCount; ++k)
            if (world->shapes[b->shapes[k]].proxy >= 0) fcBroadphase_Touch(&world->broadphase, world->shapes[b->shapes[k]].proxy);
    }
    j->inUse = false;
    j->generation = (uint16_t)(j->generation + 1);
    world->jointFree[world->jointFreeCount++] = index;
    world->jointCount -= 1;
    world->topologyDirty = true;
    // a coupling cannot outlive the joints it couples
    for (int k = 0; k < world->jointHigh; ++k) {
        fcJoint* c = world->joints + k;
        if (c->inUse && c->type == fc_couplingJoint && (c->jointA == index || c->jointB == index))
            fcJoint_DestroyInternal(world, k);
    }
}

void fcDestroyJoint(fcJointId jointId)
{
    fcWorld* world = NULL;
    fcJoint* j = fcGetJoint(jointId, &world, "fcDestroyJoint");
    if (j == NULL) return;
    if (fcWorld_Busy(world)) {
        fcError("fcDestroyJoint: %s", fcWorld_Busy(world));
        return;
    }
    fcJoint_DestroyInternal(world, jointId.index1 - 1);
}

bool fcJoint_IsValid(fcJointId jointId)
{
    fcWorld* w = fcGetWorldFromIndex(jointId.world0);
    if (w == NULL || jointId.index1 < 1 || jointId.index1 > w->jointHigh) return false;
    const fcJoint* j = w->joints + jointId.index1 - 1;
    return j->inUse && j->generation == jointId.generation;
}

#define FC_JOINT_GET(id, fallback, caller)          \
    fcWorld* world = NULL;                          \
    fcJoint* joint = fcGetJoint(id, &world, caller); \
    if (joint == NULL) return fallback

#define FC_JOINT_GET_UNLOCKED(id, caller) \
    FC_JOINT_GET(id, false, caller);      \
    if (fcWorld_Busy(world)) return fcError("%s: %s", caller, fcWorld_Busy(world))

fcJointType fcJoint_GetType(fcJointId jointId)
{
    FC_JOINT_GET(jointId, fc_jointTypeCount, "fcJoint_GetType");
    return joint->type;
}

const char* fcJoint_GetName(fcJointId jointId)
{
    FC_JOINT_GET(jointId, "", "fcJoint_GetName");
    return joint->name;
}

fcBodyId fcJoint_GetBodyA(fcJointId jointId)
{
    FC_JOINT_GET(jointId, fc_nullBodyId, "fcJoint_GetBodyA");
    return joint->bodyA >= 0 ? fcMakeBodyId(world, joint->bodyA) : fc_nullBodyId;
}

fcBodyId fcJoint_GetBodyB(fcJointId jointId)
{
    FC_JOINT_GET(jointId, fc_nullBodyId, "fcJoint_GetBodyB");
    return fcMakeBodyId(world, joint->bodyB);
}

int fcJoint_GetRowCount(fcJointId jointId)
{
    FC_JOINT_GET(jointId, 0, "fcJoint_GetRowCount");
    return joint->rowCount;
}

fcVec3 fcJoint_GetAnchorA(fcJointId jointId)
{
    FC_JOINT_GET(jointId, fcV3(0, 0, 0), "fcJoint_GetAnchorA");
    fcJointPose pose;
    fcJoint_ComputePose(world, joint, world->time, &pose);
    return pose.pa;
}

fcVec3 fcJoint_GetAnchorB(fcJointId jointId)
{
    FC_JOINT_GET(jointId, fcV3(0, 0, 0), "fcJoint_GetAnchorB");
    fcJointPose pose;
    fcJoint_ComputePose(world, joint, world->time, &pose);
    return pose.pb;
}

fcReal fcJoint_GetCoordinate(fcJointId jointId)
{
    FC_JOINT_GET(jointId, 0, "fcJoint_GetCoordinate");
    if (joint->type != fc_hingeJoint && joint->type != fc_sliderJoint) {
        fcError("fcJoint_GetCoordinate: a %s joint has no coordinate (hinge and slider do)", s_jointTypes[joint->type].name);
        return 0;
    }
    return joint->coordinate;
}

fcReal fcJoint_GetCoordinateRate(fcJointId jointId)
{
    FC_JOINT_GET(jointId, 0, "fcJoint_GetCoordinateRate");
    if (joint->type != fc_hingeJoint && joint->type != fc_sliderJoint) {
        fcError("fcJoint_GetCoordinateRate: a %s joint has no coordinate (hinge and slider do)",
                s_jointTypes[joint->type].name);
        return 0;
    }
    return joint->coordinateRate;
}

bool fcJoint_SetSpring(fcJointId jointId, fcReal stiffness, fcReal damping)
{
    FC_JOINT_GET_UNLOCKED(jointId, "fcJoint_SetSpring");
    fcJoint copy = *joint;
    if (!fcJoint_SetSoft(&copy, stiffness, damping, "fcJoint_SetSpring")) return false;
    if (copy.type == fc_ropeJoint && fcJoint_IsSoft(&copy))
        return fcError("fcJoint_SetSpring: a rope cannot be soft (use a soft distance joint for an elastic string)");
    if (copy.type == fc_distanceJoint && copy.length <= 1e-9 && !fcJoint_IsSoft(&copy))
        return fcError("fcJoint_SetSpring: a zero-length distance joint cannot be rigid");
    joint->stiffness = copy.stiffness;
    joint->damping = copy.damping;
    fcJoint_WakeBodies(world, joint);
    return true;
}

// refresh the hinge angle / slider travel and their rates after a step (also unwraps the angle)
void fcJoint_UpdateCoordinate(const fcWorld* world, fcJoint* joint)
{
    if (joint->type != fc_hingeJoint && joint->type != fc_sliderJoint) return;
    fcJointPose pose;
    fcUserConstraintRow rate;
    fcJoint_ComputePose(world, joint, world->time, &pose);
    joint->coordinate = fcJoint_Coordinate(joint, &pose, &rate);
    fcReal r = 0;
    for (int s = 0; s < 2; ++s) {
        const fcReal* jr = rate.jacobian[s];
        fcVec3 v = pose.state.linearVelocity[s], w = pose.state.angularVelocity[s];
        r += jr[0] * v.x + jr[1] * v.y + jr[2] * v.z + jr[3] * w.x + jr[4] * w.y + jr[5] * w.z;
    }
    joint->coordinateRate = r;
}

// The joints' impulses kept from the last step, re-expressed for a step `ratio` times as long: a sleeping joint's
// (which no step solves again) is reported as impulse / the step's length, so that its force stays what it was
void fcJoints_RescaleImpulses(fcWorld* world, fcReal ratio)
{
    for (int j = 0; j < world->jointHigh; ++j) {
        fcJoint* joint = world->joints + j;
        if (!joint->inUse) continue;
        for (int i = 0; i < joint->rowCount; ++i) joint->impulse[i] *= ratio;
        joint->impulseLinearA = fcVec3_Scale(ratio, joint->impulseLinearA);
        joint->impulseAngularA = fcVec3_Scale(ratio, joint->impulseAngularA);
        joint->impulseLinearB = fcVec3_Scale(ratio, joint->impulseLinearB);
        joint->impulseAngularB = fcVec3_Scale(ratio, joint->impulseAngularB);
        joint->impulseMomentB = fcVec3_Scale(ratio, joint->impulseMomentB);
    }
    // the row store's copies, which the geometric stiffness of a joint woken later reads
    fcRowStore* r = &world->rows;
    for (int b = 0; b < r->blockCount; ++b) {
        r->blockImpulseA[b] = fcVec3_Scale(ratio, r->blockImpulseA[b]);
        r->blockImpulseB[b] = fcVec3_Scale(ratio, r->blockImpulseB[b]);
    }
}

fcJointReaction fcJoint_GetReaction(fcJointId jointId)
{
    fcJointReaction r;
    memset(&r, 0, sizeof r);
    r.frame = fcQuat_Identity();
    FC_JOINT_GET(jointId, r, "fcJoint_GetReaction");
    fcReal h = world->stepH > 0 ? world->stepH : world->def.timestep;
    r.rowCount = joint->rowCount;
    for (int i = 0; i < joint->rowCount; ++i) {
        r.impulse[i] = joint->impulse[i];
        r.lambda[i] = joint->impulse[i] / h;
    }
    fcJointPose pose;
    fcJoint_ComputePose(world, joint, world->time, &pose);
    r.force = fcVec3_Scale(1 / h, joint->impulseLinearB);
    r.torque = fcVec3_Scale(1 / h, joint->impulseAngularB);
    r.forceA = fcVec3_Scale(1 / h, joint->impulseLinearA);
    r.torqueA = fcVec3_Scale(1 / h, joint->impulseAngularA);
    r.anchor = pose.pb;
    // tau_anchor = tau_com - (anchor - com) x F, accumulated row by row at the pose each row was built at
    r.moment = fcVec3_Scale(1 / h, joint->impulseMomentB);
    // the frame at the step's start, where the rows whose impulses these are were built (at the end pose a slider
    // on an arm turning at w reported an axial force of w h |F|); a joint that carried nothing yet: as it is now.
    // With substeps (contacts in the island) the later substeps' rows were built at later poses: up to about
    // w h (1 - 1 / substeps) / 2 of the force is then read across the frame.
    fcQuat qa = pose.state.orientation[0];
    bool carried = fcVec3_Dot(joint->impulseLinearB, joint->impulseLinearB) > 0 || fcVec3_Dot(joint->impulseAngularB, joint->impulseAngularB) > 0;
    if (carried && joint->bodyA >= 0 && joint->bodyA < world->snapshotCapacity) qa = world->snapshotOrientation[joint->bodyA];
    r.frame = fcQuat_Mul(qa, joint->localFrameA);
    r.forceLocal = fcQuat_InvRotate(r.frame, r.force);
    r.momentLocal = fcQuat_InvRotate(r.frame, r.moment);
    r.violation = joint->violation;
    if (joint->motorRow >= 0) r.motorForce = joint->impulse[joint->motorRow] / h;
    if (fcJoint_LimitLocks(joint)) {
        r.limitForce = joint->impulse[joint->limitRow] / h;  // along +q
        r.atLimit = true;
    } else if (joint->limitRow >= 0) {
        fcReal sign = joint->coordinate > 0.5 * (joint->lowerLimit + joint->upperLimit) ? -1 : 1;
        r.limitForce = sign * joint->impulse[joint->limitRow] / h;
        r.atLimit = joint->impulse[joint->limitRow] > 0;
    }
    return r;
}

bool fcJoint_SetLimits(fcJointId jointId, bool enable, fcReal lower, fcReal upper)
{
    FC_JOINT_GET_UNLOCKED(jointId, "fcJoint_SetLimits");
    fcJoint copy = *joint;
    if (!fcJoint_SetLimitsOn(&copy, enable, lower, upper, "fcJoint_SetLimits")) return false;
    *joint = copy;
    fcJoint_WakeBodies(world, joint);
    world->topologyDirty = true;
    return true;
}

bool fcJoint_SetMotor(fcJointId jointId, bool enable, fcReal speed, fcReal maxForce)
{
    FC_JOINT_GET_UNLOCKED(jointId, "fcJoint_SetMotor");
    fcJoint copy = *joint;
    if (!fcJoint_SetMotorOn(&copy, enable, false, speed, 0, 10, maxForce, "fcJoint_SetMotor")) return false;
    *joint = copy;
    fcJoint_WakeBodies(world, joint);
    world->topologyDirty = true;
    return true;
}

bool fcJoint_SetServo(fcJointId jointId, bool enable, fcReal target, fcReal gain, fcReal maxForce)
{
    FC_JOINT_GET_UNLOCKED(jointId, "fcJoint_SetServo");
    fcJoint copy = *joint;
    if (!fcJoint_SetMotorOn(&copy, enable, true, 0, target, gain, maxForce, "fcJoint_SetServo")) return false;
    *joint = copy;
    fcJoint_WakeBodies(world, joint);
    world->topologyDirty = true;
    return true;
}
