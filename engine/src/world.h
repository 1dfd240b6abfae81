// SPDX-License-Identifier: MIT
// The world's internal state: bodies, shapes, joints, the row store and the solver's cached factorization.
// Every stage file works on an fcWorld; only world.c creates or looks up one from an id.
#ifndef FC_WORLD_H
#define FC_WORLD_H

#include "constraint_rows.h"
#include "contact.h"
#include "core.h"
#include "sparse_ldlt.h"
#include "tasks.h"

#include <stdatomic.h>

#define FC_MAX_WORLDS 128

// The fields are grouped by the passes of a step over the bodies (a 10000-link chain's bodies outgrow the caches,
// so each cache line a pass touches per body costs), and the struct starts a cache line (FC_CACHE_LINE; the
// world's arrays are allocated on line boundaries) so that the groups' lines are the same for every body: the
// first two lines hold what nearly every pass reads (state, pose, velocity, 1 / m); the joint solves' M~^-1; the
// inertia refresh's pair; the velocity integration's inertia, forces and damping; then the step start's
// geometric stiffness, the diagnostics' mass, and what no step reads.
typedef struct fcBody {
    _Alignas(FC_CACHE_LINE) int generation;  // bumped on destroy, so stale ids are refused
    bool inUse;
    bool asleep;
    bool moved;        // the user moved it (SetTransform): its proxies are refreshed even when static
    fcBodyType type;
    fcVec3 position;  // centre of mass, world
    fcQuat orientation;
    fcVec3 linearVelocity, angularVelocity;  // world
    fcReal invMass;                           // 0 unless dynamic
    fcMat33 invInertiaSolve;   // (I_world + theta h^2 K)^-1, refreshed with W: the joint solves' M~^-1
    fcMat33 invInertiaLocal;
    fcMat33 invInertiaWorld;  // refreshed whenever the orientation changes
    fcMat33 inertiaLocal;                     // about the centre of mass, body frame
    fcVec3 force, torque;
    fcVec3 appliedForce, appliedTorque;  // fcBody_ApplyForce: for the next step only,
    int64_t appliedStep;                 //   the step of this index (world->stepCount when it was applied)
    fcReal linearDamping, angularDamping;
    fcReal sleepTime;  // s the body has been slow enough to sleep
    fcVec3 restLinear, restAngular;  // its velocities when that rest began (fcIslands_Update)
    // geometric stiffness of the joints pulling on the body (world, from the last step's forces): the joint
    // solve's rotational inertia is I + theta h^2 K, so that a tensioned link's rocking is taken implicitly
    fcReal stiffnessRate;      // sum max(0, F . r) / smallest principal moment: (h w)^2 = h^2 stiffnessRate
    fcMat33 geometricStiffness;
    fcReal mass;
    int jointCount;
    int* joints;      // (jointCount) joints touching this body (either side)
    bool massFromShapes;     // mass and inertia come from the shapes
    bool inertiaFromShapes;  // the mass was given but the inertia comes from the shapes, scaled
    bool heldNear;           // put back by the continuous pass from a step that began near a static shape, and near one since
    int shapeCount;
    int* shapes;      // (shapeCount) shape indices
    void* userData;
    char name[FC_NAME_CAPACITY];
} fcBody;

typedef struct fcShape {
    int generation;
    bool inUse;
    int body;
    fcShapeDef def;       // points/vertices/indices point at the copies below
    fcGeometry geometry;  // what the narrowphase sees
    fcHull* hull;
    fcMesh* mesh;
    fcVec3* points;       // hull points or mesh vertices (copied)
    int* indices;         // mesh (copied)
    int proxy;            // broadphase handle, -1 when none
    bool proxyStale;      // unseen (category or mask 0): the body moved since the proxy was refreshed
    fcAabb aabb;          // tight world box at the last collide stage
    fcTransform transform;  // shape frame -> world at the last collide stage (or creation): the narrowphase's
} fcShape;

// A joint in world storage. Local quantities are in the frame of their body (world frame for the world).
// The fields are grouped by the passes of a step (a 10000-link chain's joints outgrow the caches, so each
// cache line a pass touches per joint costs), from a cache line's start as fcBody's: the first 64 bytes hold what the fill, the islands and the
// diagnostics read, the next 192 bytes the records the flushes write, the rest what the fill reads by type.
typedef struct fcJoint {
    _Alignas(FC_CACHE_LINE) int generation;
    bool inUse;
    bool holonomic;                    // user constraint rows are gradients of f
    bool unilateral;                   // f >= 0, lambda >= 0
    bool collideConnected;             // the two bodies' shapes collide
    // hinge/slider limit and motor: extra rows after the type's own (limitRow, motorRow: index or -1)
    bool enableLimit, enableMotor, servo;
    bool limitUpper;                   // the limit row guards the upper limit this step (else the lower)
    bool active;                       // unilateral: in the system this step (and the last)
    bool activeAtStepStart;            // restored when a step is retaken in substeps
    fcJointType type;
    int bodyA, bodyB;                  // body indices; -1 for the world
    int rowStart;  // first row in the row store this step (-1 when not in the system)
    int rowCount;
    int limitRow, motorRow;
    int motorClamp;                    // 0: the motor row is in the system; +1/-1: held at +/- its force bound
    fcReal stiffness, damping;         // soft when either > 0
    // results of the last step
    fcVec3 impulseLinearB, impulseAngularB;  // whole constraint impulse on body_b (world, about its centre)
    fcVec3 impulseMomentB;                   // its angular impulse about the anchor
    fcVec3 impulseLinearA, impulseAngularA;  // the whole constraint impulse on body_a
    fcReal impulse[FC_MAX_JOINT_ROWS];
    fcReal violation;
    fcVec3 localAnchorA, localAnchorB;
    fcVec3 localAxisA, localPerp1A, localPerp2A;  // joint frame on a (axis = x of the frame)
    fcVec3 localAxisB, localPerp1B, localPerp2B;  // the same frame carried by b (coincides at creation)
    fcVec3 localNormalA;               // blade: the running plane's normal, fixed in a
    fcQuat localFrameA;                // joint frame on a for reporting: z along the axis or normal
    fcReal length;                     // distance joint
    int jointA, jointB;                // coupling
    fcReal ratio, offset;
    fcUserConstraintFcn* userFcn;
    void* userContext;
    fcReal lowerLimit, upperLimit, motorSpeed, maxMotorForce, servoTarget, servoGain;
    fcReal lastForce;                  // one-sided (unilateral, or a limit while it holds): lambda / h of its row in the last step
    fcReal coordinate, coordinateRate; // hinge angle (unwrapped) or slider travel, updated each step
    void* userData;
    char name[FC_NAME_CAPACITY];
} fcJoint;

typedef struct fcWorld {
    int generation;
    bool inUse;
    fcWorldDef def;
    fcReal time;
    fcReal stepH;     // the last (or current) step's length: impulses / stepH are the reported forces
    fcReal h;         // the (sub)step the stages are integrating now
    int substeps;     // how many substeps the current step is split into
    fcReal lastSubstepH;  // the last step's last substep (0: none yet)
    fcReal bridgeH;       // > 0: the next kick follows a substep of this length (integrate.c)
    // the bodies' state at the start of the step (bodyHigh entries): restored when the step is retaken in
    // substeps, reported by the step's events, the velocity at the start for the constraint power
    int snapshotCapacity;
    fcVec3* snapshotPosition;
    fcQuat* snapshotOrientation;
    fcVec3* snapshotVelocity;
    fcVec3* snapshotAngularVelocity;
    // each body's constraint impulse accumulated over the step (world), for the constraint power: kept beside
    // the snapshot rather than in fcBody, so that the flushes and the diagnostics stream through them
    fcVec3* constraintImpulse;
    fcVec3* constraintAngularImpulse;
    int64_t stepCount;

    fcBody* bodies;
    int bodyCapacity;
    int bodyCount;  // live bodies
    int* bodyFree;
    int bodyFreeCount;
    int bodyHigh;   // slots ever used

    fcShape* shapes;
    int shapeCapacity, shapeHigh, shapeFreeCount;
    int* shapeFree;

    fcJoint* joints;
    int jointCapacity, jointCount, jointHigh, jointFreeCount;
    int* jointFree;

    bool contactFilterDirty;  // joints changed: pairs they connect stop colliding
    bool topologyDirty;  // joints or body types changed: rebuild the row layout and the symbolic factorization
    fcRowStore rows;
    fcSparseLdlt ldlt;
    fcWorldStats stats;
    fcProfile stageTicks;  // the step's stages in fcTicks, into stats.profile (ms) when it ends (fcStep_ProfileInMs)
    bool locked;  // inside a step
    atomic_int querying;  // queries running (a query's callback may query again; threads may query at once)
    fcTaskPool* tasks;  // the workers (NULL: the caller steps alone)
    fcBroadphase broadphase;
    fcContactSet contacts;
    fcConstraintEvent* events;  // (eventCapacity) the last step's events
    int eventCount, eventCapacity;
    int collideEventCount;  // events of the collide stage (kept when a step is retaken)
    // the ends of touching pairs taken away between steps (a filter change, a destroyed shape or body), reported
    // with the next step's events
    fcConstraintEvent* pendingEvents;  // (pendingEventCapacity)
    int pendingEventCount, pendingEventCapacity;
    int* islandScratch;     // (3 x islandScratchCapacity) union-find parents and per-root flags, kept between steps
    int islandScratchCapacity;
    int* pendingWakes;      // bodies the API woke whose islands are still to wake (fcIslands_WakePending)
    int pendingWakeCount, pendingWakeCapacity;
    int asleepCount;        // bodies asleep after the last island update (at most: bodies woken or destroyed since
                            // are still counted): 0 lets the collide stage skip its search for sleepers to wake
} fcWorld;

// Inside the projection the state of a body that a block touches lives in its projection body (fcProjectionBody, the row
// store's working copy): this one, or NULL when the body's own record holds its state.
static inline const fcProjectionBody* fcWorld_ProjectionBody(const fcWorld* world, int body)
{
    if (!world->rows.projectionActive) return NULL;
    int s = world->rows.bodyProjection[body];
    return s < 0 ? NULL : world->rows.projectionBodies + s;
}

// id -> pointer, or NULL with a message (the name of the calling API function is given for the message)
fcWorld* fcGetWorld(fcWorldId id, const char* caller);
// Why the world may not be changed now, or NULL: a callback of a step (a pre-solve hook, a user row, the log hook)
// or of a query (its results) would change what the step or the query is reading: a destroyed body or shape left
// the query's tree stack pointing at freed nodes, a destroyed world freed the step's arrays under it.
static inline const char* fcWorld_Busy(const fcWorld* world)
{
    return world->locked ? "the world is stepping" : atomic_load_explicit(&world->querying, memory_order_relaxed) > 0 ? "the world is in a query" : NULL;
}
// around a query's walk of the trees, whose callbacks are the user's (fcWorld_Busy)
static inline void fcWorld_BeginQuery(fcWorld* world) { atomic_fetch_add_explicit(&world->querying, 1, memory_order_relaxed); }
static inline void fcWorld_EndQuery(fcWorld* world) { atomic_fetch_sub_explicit(&world->querying, 1, memory_order_relaxed); }
fcWorld* fcGetWorldFromIndex(int world0);
fcBody* fcGetBody(fcBodyId id, fcWorld** world, const char* caller);
fcJoint* fcGetJoint(fcJointId id, fcWorld** world, const char* caller);
fcBodyId fcMakeBodyId(const fcWorld* world, int index);
fcJointId fcMakeJointId(const fcWorld* world, int index);
fcShapeId fcMakeShapeId(const fcWorld* world, int index);
int fcWorldIndex(const fcWorld* world);
// Take a slot for a new body, joint or shape: a freed one, or a new one at the end of the array, which grows
// on a cache line's start (new slots zeroed, at fcWorld_FirstGeneration). Returns its index; the caller fills it.
int fcWorld_TakeSlot(const fcWorld* world, void** items, size_t itemSize, size_t generationOffset, int* capacity,
                     int* high, int** freeList, int* freeCount);
// The generation a new body/joint/shape slot starts at: different for each incarnation of a world slot, so
// an id kept from a destroyed world is refused by the world later made in the same slot.
static inline int fcWorld_FirstGeneration(const fcWorld* world) { return (uint16_t)(world->generation * 4099); }

// The force and torque on a body for this step: its constant ones plus those applied for this step
// (fcBody_ApplyForce/ApplyTorque; those applied for an earlier step count no more)
static inline fcVec3 fcBody_StepForce(const fcWorld* world, const fcBody* b)
{
    return b->appliedStep == world->stepCount ? fcVec3_Add(b->force, b->appliedForce) : b->force;
}
// the velocity of a body's point at lever r from its centre of mass
static inline fcVec3 fcBody_PointVelocity(const fcBody* b, fcVec3 r)
{
    return fcVec3_Add(b->linearVelocity, fcVec3_Cross(b->angularVelocity, r));
}
static inline fcVec3 fcBody_StepTorque(const fcWorld* world, const fcBody* b)
{
    return b->appliedStep == world->stepCount ? fcVec3_Add(b->torque, b->appliedTorque) : b->torque;
}

// body.c
void fcBody_UpdateInverseInertia(fcBody* body);
void fcBody_RemoveJoint(fcBody* body, int joint);
void fcBody_AddJoint(fcBody* body, int joint);
// wake a sleeping body (and everything in its island) and restart its sleep timer
void fcBody_Wake(fcWorld* world, fcBody* body);
// the pose and velocity of a body index (-1: the world at rest); its projection body's inside the projection
void fcBody_GetState(const fcWorld* world, int body, fcVec3* x, fcQuat* q, fcVec3* v, fcVec3* w);

// shape.c / body.c: mass, centre and inertia from the shapes of a body created with mass 0 (or without inertia),
// with one more shape's def when extra is not NULL; false, with the error, when the solver could not use them.
// Put, once the shapes are those measured: the shapes and the body moved so that the body's position is the centre.
typedef struct fcShapesMass {
    bool changes;  // false: the body does not take its mass from its shapes, or has none
    fcReal mass;
    fcVec3 center;  // of the shapes, in the body frame before the move
    fcMat33 inertia, inverse;
} fcShapesMass;
bool fcBody_MassOfShapes(const fcWorld* world, const fcBody* body, const fcShapeDef* extra, const char* caller,
                         fcShapesMass* out);
void fcBody_PutShapesMass(fcWorld* world, fcBody* body, const fcShapesMass* sm);
// shape.c: the shape's frame in the world at its body's current pose; free one shape's storage
fcTransform fcShape_GetTransform(const fcWorld* world, const fcShape* shape);
// the triangle the API reports for a key of a mesh shape (its index in the user's mesh); -1 for other shapes
int fcShape_Triangle(const fcShape* shape, uint32_t key);
void fcShape_DestroyInternal(fcWorld* world, int shape);

// joint.c
void fcJoint_DestroyInternal(fcWorld* world, int joint);

#endif
