// SPDX-License-Identifier: MIT
// Bodies: creation with validation, pose and velocity access, mass properties (given, or from the shapes).
#include "joint.h"
#include "solver.h"

#include <stdio.h>
#include <string.h>

fcBodyDef fcDefaultBodyDef(void)
{
    fcBodyDef d;
    memset(&d, 0, sizeof d);
    d.type = fc_dynamicBody;
    d.orientation = fcQuat_Identity();
    d.inertiaTensor = fcMat33_Zero();
    d.internalValue = FC_DEF_COOKIE;
    return d;
}

void fcBody_UpdateInverseInertia(fcBody* b)
{
    if (b->type != fc_dynamicBody) {
        b->invInertiaWorld = fcMat33_Zero();
        return;
    }
    // an isotropic inertia (a cube, a sphere) is the same in every orientation: R (c 1) R^T = c 1 exactly, where
    // the rotation left round-off off the diagonal (and cost 75 flops a body a substep)
    b->invInertiaWorld = fcMat33_IsIsotropic(&b->invInertiaLocal) ? b->invInertiaLocal
                                                                   : fcMat33_RotateTensor(b->orientation, b->invInertiaLocal);
}

void fcBody_AddJoint(fcBody* b, int joint)
{
    b->joints = fcRealloc(b->joints, sizeof(int) * (size_t)(b->jointCount + 1));
    b->joints[b->jointCount++] = joint;
}

void fcBody_RemoveJoint(fcBody* b, int joint)
{
    for (int i = 0; i < b->jointCount; ++i) {
        if (b->joints[i] == joint) {
            b->joints[i] = b->joints[--b->jointCount];
            return;
        }
    }
}

void fcBody_GetState(const fcWorld* world, int body, fcVec3* x, fcQuat* q, fcVec3* v, fcVec3* w)
{
    if (body < 0) {
        *x = fcV3(0, 0, 0);
        *q = fcQuat_Identity();
        *v = fcV3(0, 0, 0);
        *w = fcV3(0, 0, 0);
        return;
    }
    const fcProjectionBody* s = fcWorld_ProjectionBody(world, body);
    if (s != NULL) {
        *x = s->position;
        *q = s->orientation;
        *v = s->linearVelocity;
        *w = s->angularVelocity;
        return;
    }
    const fcBody* b = world->bodies + body;
    *x = b->position;
    *q = b->orientation;
    *v = b->linearVelocity;
    *w = b->angularVelocity;
}

static bool fcIsSymmetricPositive(fcMat33 m)
{
    fcReal tol = 1e-9 * (FC_FABS(m.cx.x) + FC_FABS(m.cy.y) + FC_FABS(m.cz.z));
    if (FC_FABS(m.cy.x - m.cx.y) > tol || FC_FABS(m.cz.x - m.cx.z) > tol || FC_FABS(m.cz.y - m.cy.z) > tol) return false;
    // Sylvester: leading principal minors positive
    fcReal m1 = m.cx.x, m2 = m.cx.x * m.cy.y - m.cy.x * m.cx.y;
    return m1 > 0 && m2 > 0 && fcMat33_Det(m) > 0;
}

// a mass and inertia the solver can use: finite, positive definite, and with inverses that do not overflow (a
// denormal mass passes "> 0" and its inverse is inf; an inertia of 1e308 has an infinite determinant) and a mass
// whose inverse is a normal number (a 1.7e308 kg bob, 1/m denormal, hung from a ball joint reported 9.81 N for m g)
static bool fcCheckMass(fcReal mass, fcMat33 inertia, fcMat33* inverse, const char* caller)
{
    if (!isfinite(mass) || mass <= 0) return fcError("%s: mass must be > 0, got %g", caller, (double)mass);
    if (!isfinite(1 / mass)) return fcError("%s: mass %g is too small: its inverse overflows", caller, (double)mass);
    if (!isnormal(1 / mass)) return fcError("%s: mass %g is too large: its inverse is below the normal range", caller, (double)mass);
    if (!fcMat33_IsFinite(inertia)) return fcError("%s: inertia is not finite", caller);
    if (!fcIsSymmetricPositive(inertia))
        return fcError("%s: inertia must be symmetric positive definite (principal moments > 0), got diagonal (%g, %g, %g)",
                       caller, (double)inertia.cx.x, (double)inertia.cy.y, (double)inertia.cz.z);
    *inverse = fcMat33_Inverse(inertia);
    if (!isfinite(fcMat33_Det(inertia)) || !fcMat33_IsFinite(*inverse))
        return fcError("%s: inertia with diagonal (%g, %g, %g) cannot be inverted in floating point", caller,
                       (double)inertia.cx.x, (double)inertia.cy.y, (double)inertia.cz.z);
    return true;
}

// mass properties that passed fcCheckMass
static void fcBody_PutMass(fcBody* b, fcReal mass, fcMat33 inertia, fcMat33 inverse)
{
    b->mass = mass;
    b->invMass = 1 / mass;
    b->inertiaLocal = inertia;
    b->invInertiaLocal = inverse;
    fcBody_UpdateInverseInertia(b);
}

static bool fcSetMass(fcBody* b, fcReal mass, fcMat33 inertia, const char* caller)
{
    fcMat33 inverse;
    if (!fcCheckMass(mass, inertia, &inverse, caller)) return false;
    fcBody_PutMass(b, mass, inertia, inverse);
    return true;
}

static bool fcCheckQuat(fcQuat q, const char* caller, fcQuat* out)
{
    if (!fcQuat_IsFinite(q)) return fcError("%s: orientation is not finite", caller);
    fcReal l = fcQuat_Length(q);
    if (FC_FABS(l - 1) > 1e-6)
        return fcError("%s: orientation must be a unit quaternion [w, x, y, z] (length %g)", caller, (double)l);
    *out = fcQuat_Normalize(q);
    return true;
}

fcBodyId fcCreateBody(fcWorldId worldId, const fcBodyDef* def)
{
    const char* caller = "fcCreateBody";
    fcWorld* world = fcGetWorld(worldId, caller);
    if (world == NULL) return fc_nullBodyId;
    if (def == NULL || def->internalValue != FC_DEF_COOKIE) {
        fcError("fcCreateBody: the def was not made by fcDefaultBodyDef");
        return fc_nullBodyId;
    }
    if (fcWorld_Busy(world)) {
        fcError("fcCreateBody: %s", fcWorld_Busy(world));
        return fc_nullBodyId;
    }
    if (def->type != fc_staticBody && def->type != fc_kinematicBody && def->type != fc_dynamicBody) {
        fcError("fcCreateBody: invalid body type %d", (int)def->type);
        return fc_nullBodyId;
    }
    if (def->name && strlen(def->name) >= FC_NAME_CAPACITY) {
        fcError("fcCreateBody: name is longer than %d characters", FC_NAME_CAPACITY - 1);
        return fc_nullBodyId;
    }
    fcVec3 vecs[5] = {def->position, def->linearVelocity, def->angularVelocity, def->force, def->torque};
    const char* names[5] = {"position", "linearVelocity", "angularVelocity", "force", "torque"};
    for (int i = 0; i < 5; ++i) {
        if (!fcVec3_IsFinite(vecs[i])) {
            fcError("fcCreateBody: %s is not finite", names[i]);
            return fc_nullBodyId;
        }
    }
    if (!isfinite(def->linearDamping) || !isfinite(def->angularDamping) || def->linearDamping < 0 ||
        def->angularDamping < 0) {
        fcError("fcCreateBody: damping must be finite and >= 0");
        return fc_nullBodyId;
    }
    fcBody b;
    memset(&b, 0, sizeof b);
    if (!fcCheckQuat(def->orientation, caller, &b.orientation)) return fc_nullBodyId;
    b.type = def->type;
    b.position = def->position;
    b.linearVelocity = def->type == fc_staticBody ? fcV3(0, 0, 0) : def->linearVelocity;
    b.angularVelocity = def->type == fc_staticBody ? fcV3(0, 0, 0) : def->angularVelocity;
    b.force = def->force;
    b.torque = def->torque;
    b.linearDamping = def->linearDamping;
    b.angularDamping = def->angularDamping;
    b.userData = def->userData;
    b.invInertiaLocal = fcMat33_Zero();
    b.inertiaLocal = fcMat33_Zero();
    if (def->type == fc_dynamicBody) {
        fcMat33 inertia = def->useInertiaTensor ? def->inertiaTensor : fcMat33_Diagonal(def->inertia);
        bool inertiaGiven = def->useInertiaTensor || def->inertia.x != 0 || def->inertia.y != 0 || def->inertia.z != 0;
        if (!isfinite(def->mass) || def->mass < 0 || (def->mass > 0 && !isnormal(1 / def->mass))) {
            fcError("fcCreateBody: mass must be > 0 (or 0 to take it from the shapes) with a finite, normal inverse, got %g",
                    (double)def->mass);
            return fc_nullBodyId;
        }
        if (def->mass == 0) {
            if (inertiaGiven) {
                fcError("fcCreateBody: inertia was given without a mass");
                return fc_nullBodyId;
            }
            b.massFromShapes = true;
        } else if (!inertiaGiven) {
            b.mass = def->mass;
            b.inertiaFromShapes = true;
        } else if (!fcSetMass(&b, def->mass, inertia, caller)) {
            return fc_nullBodyId;
        }
    }

    int index = fcWorld_TakeSlot(world, (void**)&world->bodies, sizeof(fcBody), offsetof(fcBody, generation),
                                 &world->bodyCapacity, &world->bodyHigh, &world->bodyFree, &world->bodyFreeCount);
    b.generation = world->bodies[index].generation;
    b.inUse = true;
    if (def->name) snprintf(b.name, sizeof b.name, "%s", def->name);
    world->bodies[index] = b;
    world->bodyCount += 1;
    world->topologyDirty = true;
    return fcMakeBodyId(world, index);
}

void fcDestroyBody(fcBodyId bodyId)
{
    fcWorld* world = NULL;
    fcBody* b = fcGetBody(bodyId, &world, "fcDestroyBody");
    if (b == NULL) return;
    if (fcWorld_Busy(world)) {
        fcError("fcDestroyBody: %s", fcWorld_Busy(world));
        return;
    }
    while (b->jointCount > 0) fcJoint_DestroyInternal(world, b->joints[b->jointCount - 1]);
    for (int i = 0; i < b->shapeCount; ++i) fcShape_DestroyInternal(world, b->shapes[i]);
    fcFree(b->joints);
    fcFree(b->shapes);
    int generation = (uint16_t)(b->generation + 1);
    memset(b, 0, sizeof *b);
    b->generation = generation;
    world->bodyFree[world->bodyFreeCount++] = bodyId.index1 - 1;
    world->bodyCount -= 1;
    world->topologyDirty = true;
}

bool fcBody_IsValid(fcBodyId id)
{
    fcWorld* w = fcGetWorldFromIndex(id.world0);
    if (w == NULL || id.index1 < 1 || id.index1 > w->bodyHigh) return false;
    const fcBody* b = w->bodies + id.index1 - 1;
    return b->inUse && b->generation == id.generation;
}

#define FC_BODY_GET(id, fallback, caller)         \
    fcWorld* world = NULL;                        \
    fcBody* body = fcGetBody(id, &world, caller); \
    if (body == NULL) return fallback

#define FC_BODY_GET_UNLOCKED(id, caller)                                     \
    FC_BODY_GET(id, false, caller);                                          \
    if (fcWorld_Busy(world)) return fcError("%s: %s", caller, fcWorld_Busy(world))

fcBodyType fcBody_GetType(fcBodyId id)
{
    FC_BODY_GET(id, fc_staticBody, "fcBody_GetType");
    return body->type;
}

const char* fcBody_GetName(fcBodyId id)
{
    FC_BODY_GET(id, "", "fcBody_GetName");
    return body->name;
}

fcBodyId fcWorld_FindBody(fcWorldId worldId, const char* name)
{
    fcWorld* world = fcGetWorld(worldId, "fcWorld_FindBody");
    if (world == NULL) return fc_nullBodyId;
    if (name == NULL) {
        fcError("fcWorld_FindBody: name is NULL");
        return fc_nullBodyId;
    }
    for (int i = 0; i < world->bodyHigh; ++i)
        if (world->bodies[i].inUse && strcmp(world->bodies[i].name, name) == 0) return fcMakeBodyId(world, i);
    return fc_nullBodyId;
}

fcVec3 fcBody_GetPosition(fcBodyId id)
{
    FC_BODY_GET(id, fcV3(0, 0, 0), "fcBody_GetPosition");
    return body->position;
}

fcQuat fcBody_GetOrientation(fcBodyId id)
{
    FC_BODY_GET(id, fcQuat_Identity(), "fcBody_GetOrientation");
    return body->orientation;
}

fcVec3 fcBody_GetLinearVelocity(fcBodyId id)
{
    FC_BODY_GET(id, fcV3(0, 0, 0), "fcBody_GetLinearVelocity");
    return body->linearVelocity;
}

fcVec3 fcBody_GetAngularVelocity(fcBodyId id)
{
    FC_BODY_GET(id, fcV3(0, 0, 0), "fcBody_GetAngularVelocity");
    return body->angularVelocity;
}

fcVec3 fcBody_GetWorldPoint(fcBodyId id, fcVec3 p)
{
    FC_BODY_GET(id, fcV3(0, 0, 0), "fcBody_GetWorldPoint");
    return fcVec3_Add(body->position, fcQuat_Rotate(body->orientation, p));
}

fcVec3 fcBody_GetLocalPoint(fcBodyId id, fcVec3 p)
{
    FC_BODY_GET(id, fcV3(0, 0, 0), "fcBody_GetLocalPoint");
    return fcQuat_InvRotate(body->orientation, fcVec3_Sub(p, body->position));
}

bool fcBody_SetTransform(fcBodyId id, fcVec3 position, fcQuat orientation)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetTransform");
    fcQuat q;
    if (!fcVec3_IsFinite(position)) return fcError("fcBody_SetTransform: position is not finite");
    if (!fcCheckQuat(orientation, "fcBody_SetTransform", &q)) return false;
    body->position = position;
    body->orientation = q;
    fcBody_UpdateInverseInertia(body);
    body->moved = true;
    fcBody_Wake(world, body);
    fcContacts_BodyPutElsewhere(world, (int)(body - world->bodies));
    return true;
}

static bool fcBody_SetVelocityVector(fcWorld* world, fcBody* body, fcVec3 v, fcVec3* target, const char* caller)
{
    if (!fcVec3_IsFinite(v)) return fcError("%s: velocity is not finite", caller);
    if (body->type == fc_staticBody) return fcError("%s: a static body cannot move", caller);
    *target = v;
    fcBody_Wake(world, body);
    return true;
}

bool fcBody_SetLinearVelocity(fcBodyId id, fcVec3 v)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetLinearVelocity");
    return fcBody_SetVelocityVector(world, body, v, &body->linearVelocity, "fcBody_SetLinearVelocity");
}

bool fcBody_SetAngularVelocity(fcBodyId id, fcVec3 w)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetAngularVelocity");
    return fcBody_SetVelocityVector(world, body, w, &body->angularVelocity, "fcBody_SetAngularVelocity");
}

fcReal fcBody_GetMass(fcBodyId id)
{
    FC_BODY_GET(id, 0, "fcBody_GetMass");
    return body->mass;
}

fcVec3 fcBody_GetInertia(fcBodyId id)
{
    FC_BODY_GET(id, fcV3(0, 0, 0), "fcBody_GetInertia");
    return fcV3(body->inertiaLocal.cx.x, body->inertiaLocal.cy.y, body->inertiaLocal.cz.z);
}

fcMat33 fcBody_GetInertiaTensor(fcBodyId id)
{
    FC_BODY_GET(id, fcMat33_Zero(), "fcBody_GetInertiaTensor");
    return body->inertiaLocal;
}

bool fcBody_SetMassProperties(fcBodyId id, fcReal mass, fcVec3 inertia)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetMassProperties");
    if (body->type != fc_dynamicBody) return fcError("fcBody_SetMassProperties: only a dynamic body has mass");
    fcBody copy = *body;
    if (!fcSetMass(&copy, mass, fcMat33_Diagonal(inertia), "fcBody_SetMassProperties")) return false;
    copy.massFromShapes = copy.inertiaFromShapes = false;
    *body = copy;
    fcBody_Wake(world, body);  // asleep, the new mass would not be felt until something else woke it
    return true;
}

// a sleeping dynamic body given a different constant force or torque wakes with its island: asleep, it would
// not feel it
static void fcBody_WakeIfChanged(fcWorld* world, fcBody* body, fcVec3 old, fcVec3 now)
{
    if (body->asleep && memcmp(&old, &now, sizeof old) != 0) fcBody_Wake(world, body);
}

bool fcBody_SetForce(fcBodyId id, fcVec3 f)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetForce");
    if (!fcVec3_IsFinite(f)) return fcError("fcBody_SetForce: force is not finite");
    fcBody_WakeIfChanged(world, body, body->force, f);
    body->force = f;
    return true;
}

bool fcBody_IsAwake(fcBodyId id)
{
    FC_BODY_GET(id, false, "fcBody_IsAwake");
    if (body->asleep) fcIslands_WakePending(world);
    return body->type != fc_dynamicBody || !body->asleep;
}

bool fcBody_SetAwake(fcBodyId id, bool awake)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetAwake");
    fcIslands_WakePending(world);
    if (body->type != fc_dynamicBody || awake == !body->asleep) return true;
    int index = (int)(body - world->bodies);
    if (awake) fcIslands_Wake(world, &index, 1);
    else if (!fcIslands_Sleep(world, index))
        return fcError("fcBody_SetAwake: a moving kinematic body or a motor keeps the body's island awake");
    return true;
}

// A body the API disturbs wakes with its island (its joint partners and the bodies it touched): woken alone, its
// sleeping partners acted fixed for a step (a chain's link given a velocity pulled against a link that did not move).
// The rest of the island wakes before anything reads it (fcIslands_WakePending): grouping the islands at each call
// made waking many separate sleepers quadratic (a ground's shape destroyed under 4000 of them: 216 ms).
void fcBody_Wake(fcWorld* world, fcBody* body)
{
    body->sleepTime = 0;
    if (body->type == fc_dynamicBody && body->asleep) {
        if (world->pendingWakeCount == world->pendingWakeCapacity) {
            world->pendingWakeCapacity = 2 * world->pendingWakeCapacity + 16;
            world->pendingWakes = fcRealloc(world->pendingWakes, sizeof(int) * (size_t)world->pendingWakeCapacity);
        }
        world->pendingWakes[world->pendingWakeCount++] = (int)(body - world->bodies);
    }
    body->asleep = false;
}

// the applied force and torque are for the next step only: those of a step already taken are dropped here, so
// that no pass over the bodies has to clear them after every step
static void fcBody_ApplyingTo(const fcWorld* world, fcBody* body)
{
    if (body->appliedStep == world->stepCount) return;
    body->appliedForce = body->appliedTorque = fcV3(0, 0, 0);
    body->appliedStep = world->stepCount;
}

bool fcBody_ApplyForce(fcBodyId id, fcVec3 f, fcVec3 point)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_ApplyForce");
    if (!fcVec3_IsFinite(f) || !fcVec3_IsFinite(point)) return fcError("fcBody_ApplyForce: force or point is not finite");
    if (body->type != fc_dynamicBody) return true;  // nothing moves a static or kinematic body
    fcBody_ApplyingTo(world, body);
    body->appliedForce = fcVec3_Add(body->appliedForce, f);
    body->appliedTorque = fcVec3_Add(body->appliedTorque, fcVec3_Cross(fcVec3_Sub(point, body->position), f));
    fcBody_Wake(world, body);
    return true;
}

bool fcBody_ApplyTorque(fcBodyId id, fcVec3 t)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_ApplyTorque");
    if (!fcVec3_IsFinite(t)) return fcError("fcBody_ApplyTorque: torque is not finite");
    if (body->type != fc_dynamicBody) return true;
    fcBody_ApplyingTo(world, body);
    body->appliedTorque = fcVec3_Add(body->appliedTorque, t);
    fcBody_Wake(world, body);
    return true;
}

bool fcBody_ApplyImpulse(fcBodyId id, fcVec3 p, fcVec3 point)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_ApplyImpulse");
    if (!fcVec3_IsFinite(p) || !fcVec3_IsFinite(point)) return fcError("fcBody_ApplyImpulse: impulse or point is not finite");
    if (body->type != fc_dynamicBody) return true;
    body->linearVelocity = fcVec3_MulAdd(body->linearVelocity, body->invMass, p);
    fcVec3 dL = fcVec3_Cross(fcVec3_Sub(point, body->position), p);
    body->angularVelocity = fcVec3_Add(body->angularVelocity, fcMat33_MulV(body->invInertiaWorld, dL));
    fcBody_Wake(world, body);
    return true;
}

bool fcBody_SetTorque(fcBodyId id, fcVec3 t)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetTorque");
    if (!fcVec3_IsFinite(t)) return fcError("fcBody_SetTorque: torque is not finite");
    fcBody_WakeIfChanged(world, body, body->torque, t);
    body->torque = t;
    return true;
}

bool fcBody_SetDamping(fcBodyId id, fcReal linear, fcReal angular)
{
    FC_BODY_GET_UNLOCKED(id, "fcBody_SetDamping");
    if (!isfinite(linear) || !isfinite(angular) || linear < 0 || angular < 0)
        return fcError("fcBody_SetDamping: damping must be finite and >= 0 (got %g, %g)", (double)linear, (double)angular);
    body->linearDamping = linear;
    body->angularDamping = angular;
    return true;
}

void* fcBody_GetUserData(fcBodyId id)
{
    FC_BODY_GET(id, NULL, "fcBody_GetUserData");
    return body->userData;
}

// The mass properties a dynamic body's shapes give it, with `extra` (when not NULL) counted as one more shape: the
// sum of the solids about the body origin (parallel axis), their centre c in the body frame, the inertia about c
// (scaled to the body's own mass when only the inertia comes from the shapes). Nothing changes here; false (with
// the error) when the solver could not use them.
bool fcBody_MassOfShapes(const fcWorld* world, const fcBody* body, const fcShapeDef* extra, const char* caller,
                         fcShapesMass* out)
{
    out->changes = false;
    int count = body->shapeCount + (extra != NULL);
    if (body->type != fc_dynamicBody || (!body->massFromShapes && !body->inertiaFromShapes) || count == 0) return true;
    fcReal m = 0;
    fcVec3 c = fcV3(0, 0, 0);
    for (int i = 0; i < count; ++i) {
        const fcShapeDef* d = i < body->shapeCount ? &world->shapes[body->shapes[i]].def : extra;
        fcMassData md = fcComputeShapeMass(d);
        m += md.mass;
        c = fcVec3_MulAdd(c, md.mass, fcVec3_Add(d->localPosition, fcQuat_Rotate(d->localOrientation, md.center)));
    }
    // every shape has a density > 0: a sum of 0 or inf is a size the mass underflows or overflows at
    if (!(m > 0) || !isfinite(m))
        return fcError("%s: the shapes' mass comes out as %g: a shape too small or too large", caller, (double)m);
    c = fcVec3_Scale(1 / m, c);
    if (!fcVec3_IsFinite(c)) return fcError("%s: the shapes' centre of mass is not finite", caller);
    fcMat33 sum = fcMat33_Zero();
    for (int i = 0; i < count; ++i) {
        const fcShapeDef* d = i < body->shapeCount ? &world->shapes[body->shapes[i]].def : extra;
        fcMassData md = fcComputeShapeMass(d);
        fcMat33 rotated = fcMat33_RotateTensor(d->localOrientation, md.inertia);
        fcVec3 r = fcVec3_Add(fcVec3_Sub(d->localPosition, c), fcQuat_Rotate(d->localOrientation, md.center));
        // parallel axis: I + m (|r|^2 E - r r^T)
        fcReal r2 = fcVec3_Dot(r, r);
        fcMat33 shift = {{r2 - r.x * r.x, -r.y * r.x, -r.z * r.x},
                         {-r.x * r.y, r2 - r.y * r.y, -r.z * r.y},
                         {-r.x * r.z, -r.y * r.z, r2 - r.z * r.z}};
        sum = fcMat33_Add(sum, fcMat33_Add(rotated, fcMat33_Scale(md.mass, shift)));
    }
    if (body->inertiaFromShapes) {
        // keep the given mass: scale the shapes' inertia to it
        sum = fcMat33_Scale(body->mass / m, sum);
        m = body->mass;
    }
    if (!fcCheckMass(m, sum, &out->inverse, caller)) return false;
    out->changes = true;
    out->mass = m;
    out->center = c;
    out->inertia = sum;
    return true;
}

// what fcBody_MassOfShapes found, for the body's shapes as they are now: the shapes shifted so that their centre
// is the body origin, the body moved by the same amount (its position stays the centre of mass). Whatever else is
// kept in the body's frame shifts with them, so that every material point stays where it was, with its velocity:
// the joints' anchors (left behind, a shape added to a jointed link pulled its joint open by the shift, and the next
// step flung the link at 124 kN) and the contacts' points.
void fcBody_PutShapesMass(fcWorld* world, fcBody* body, const fcShapesMass* sm)
{
    if (!sm->changes) return;
    int self = (int)(body - world->bodies);
    for (int i = 0; i < body->shapeCount; ++i) {
        fcShapeDef* d = &world->shapes[body->shapes[i]].def;
        d->localPosition = fcVec3_Sub(d->localPosition, sm->center);
    }
    for (int k = 0; k < body->jointCount; ++k) {
        fcJoint* j = world->joints + body->joints[k];
        if (j->bodyA == self) j->localAnchorA = fcVec3_Sub(j->localAnchorA, sm->center);
        if (j->bodyB == self) j->localAnchorB = fcVec3_Sub(j->localAnchorB, sm->center);
    }
    if (body->jointCount > 0) world->topologyDirty = true;  // the row store keeps the anchors too
    fcContacts_BodyCentreMoved(world, self, sm->center);
    fcVec3 shift = fcQuat_Rotate(body->orientation, sm->center);
    body->position = fcVec3_Add(body->position, shift);
    body->linearVelocity = fcVec3_Add(body->linearVelocity, fcVec3_Cross(body->angularVelocity, shift));
    // a force applied at a point for the next step: its torque about the new centre
    if (body->appliedStep == world->stepCount)
        body->appliedTorque = fcVec3_Sub(body->appliedTorque, fcVec3_Cross(shift, body->appliedForce));
    fcBody_PutMass(body, sm->mass, sm->inertia, sm->inverse);
}
