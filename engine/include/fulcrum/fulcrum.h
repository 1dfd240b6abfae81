// SPDX-License-Identifier: MIT
// Fulcrum: a multibody physics engine whose deliverable is the constraint force. The whole public API.
#ifndef FULCRUM_H
#define FULCRUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fulcrum/id.h"
#include "fulcrum/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FC_SHARED_BUILD) && defined(__GNUC__)
#define FC_API __attribute__((visibility("default")))
#else
#define FC_API
#endif

#define FC_VERSION_MAJOR 0
#define FC_VERSION_MINOR 1
#define FC_VERSION_PATCH 0

/// Largest number of scalar rows one joint contributes (a hinge or slider with a limit and a motor: 7).
#define FC_MAX_JOINT_ROWS 8
/// Largest number of rows of one user constraint (two bodies have six relative degrees of freedom).
#define FC_MAX_USER_ROWS 6
/// Longest body or joint name kept (longer names are refused).
#define FC_NAME_CAPACITY 64
#define FC_MAX_WORKERS 64

// ---------------------------------------------------------------------------------------------------------------------
// Errors and hooks
// ---------------------------------------------------------------------------------------------------------------------

/// The message of the last refused call on this thread ("" when none was refused since fcClearError).
FC_API const char* fcGetLastError(void);
/// Forget the last error message.
FC_API void fcClearError(void);
/// Receives every error message; the default prints nothing. Pass NULL to restore the default.
typedef void fcLogFcn(const char* message, void* context);
FC_API void fcSetLogFunction(fcLogFcn* fcn, void* context);

// ---------------------------------------------------------------------------------------------------------------------
// World
// ---------------------------------------------------------------------------------------------------------------------

typedef enum fcStabilization {
    /// Velocity bias beta f / h on every holonomic rigid row (beta = fcWorldDef.baumgarte).
    fc_stabilizeBaumgarte = 0,
    /// Post-step projection of the positions onto f(q) = 0 (SHAKE); its impulse is part of the multiplier.
    fc_stabilizeProjection = 1,
    /// No drift correction at all (for comparison: the constraints drift).
    fc_stabilizeNone = 2,
} fcStabilization;

typedef struct fcContactData fcContactData;

typedef struct fcWorldDef {
    fcVec3 gravity;                 ///< m/s^2, default (0, 0, -9.81)
    fcReal timestep;                ///< fixed step h in s, default 1/60
    fcStabilization stabilization;  ///< default fc_stabilizeProjection
    fcReal baumgarte;               ///< Baumgarte factor beta in (0, 1], default 0.2
    fcReal projectionTolerance;     ///< largest position error the projection leaves, m (rad for angles), default 1e-10 (1e-5 in float builds)
    int projectionMaxIterations;    ///< projection iterations cap, default 20
    fcReal pivotTolerance;          ///< relative pivot below which a row is treated as redundant, default 1e-10 (1e-5 in float builds)
    // contacts
    int contactSubsteps;            ///< while contacts touch, the step is split into this many substeps (at least), default 2
    int contactIterations;          ///< projected Gauss-Seidel sweeps per substep (velocity level), default 8; up to twice as many while the impulses still move by over 1 % of a contact's load a sweep
    fcReal contactTolerance;        ///< the sweeps stop early when no impulse changed by more than this, N s, default 1e-9
    int contactPositionIterations;  ///< position-level sweeps that push overlaps back to the slop, default 4
    fcReal contactSlop;             ///< overlap left alone (m): resting contacts stay within it, default 0.005
    fcReal contactMargin;           ///< speculative distance (m): closer points are in the problem, default 0.02
    fcReal restitutionThreshold;    ///< approach speed below which no bounce, m/s, default 1
    fcReal frictionOverride;        ///< >= 0: every pair uses this friction instead of sqrt(mu_a mu_b); default -1
    fcReal restitutionOverride;     ///< >= 0: every pair uses this restitution instead of the larger; default -1
    bool frictionCone;              ///< friction by manifold (a force at its points' centre and a twist tau about n) within
                                    ///< the ellipsoid |lambda_t|^2 + (tau / r)^2 <= (mu sum lambda_n)^2, r the points' mean
                                    ///< distance from the centre, default true; false: the pyramid, each of the three within
                                    ///< its own bound (mu sum lambda_n, and times r for tau): a patch that slides and spins
                                    ///< then takes up to sqrt(2) mu sum lambda_n and its whole twist at once
    bool continuousCollision;       ///< a body without joints turning fast enough that its shapes' paths bend from straight
                                    ///< lines by more than the slop in a step, and that met a static shape in the step and
                                    ///< went into (twice the slop) or through it, is put back where it first came near it
                                    ///< (time of impact; its velocities kept), default true
    bool enableSleeping;            ///< islands at rest fall asleep (scene key `sleeping`), default true
    fcReal sleepVelocity;           ///< m/s (and rad/s times 1 m) below which a body counts as at rest, default 0.05
    fcReal sleepTime;               ///< s an island must rest before it sleeps, default 0.5 (at rest: also its velocities
                                    ///< within sleepVelocity / 2 of those the rest began with: its forces in balance)
    int workerCount;                ///< threads that step the world (the caller's included), 1..FC_MAX_WORKERS, default 1;
                                    ///< any count gives bit-identical results
    /// Called for every touching contact before the solve: return false to disable it for this step; may
    /// change the friction and restitution through the fcContactData it is given.
    bool (*preSolve)(fcShapeId shapeA, fcShapeId shapeB, fcContactData* contact, void* context);
    void* preSolveContext;
    void* userData;
    int internalValue;  ///< set by fcDefaultWorldDef; a def not made by it is refused
} fcWorldDef;

FC_API fcWorldDef fcDefaultWorldDef(void);
/// Create a world; null id (and fcGetLastError says why) on bad settings.
FC_API fcWorldId fcCreateWorld(const fcWorldDef* def);
FC_API void fcDestroyWorld(fcWorldId worldId);
FC_API bool fcWorld_IsValid(fcWorldId worldId);
/// Advance one fixed step h. Returns false, with fcGetLastError saying why, when the step is not taken: a stale id,
/// a body without mass, a non-finite joint row, or a step that diverged (a body's state came out non-finite: the
/// world is put back at its state before the step, with the joints' reactions of the step cleared).
FC_API bool fcWorld_Step(fcWorldId worldId);
/// Simulated time, s.
FC_API fcReal fcWorld_GetTime(fcWorldId worldId);
FC_API fcReal fcWorld_GetTimestep(fcWorldId worldId);
/// Set the fixed step, s (1e-9 <= h <= 1). The reactions of the last step are still reported as they were. This and
/// the world setters below are refused from a callback inside fcWorld_Step or a query.
FC_API bool fcWorld_SetTimestep(fcWorldId worldId, fcReal h);
FC_API fcVec3 fcWorld_GetGravity(fcWorldId worldId);
/// A gravity other than the present one wakes every sleeping body.
FC_API bool fcWorld_SetGravity(fcWorldId worldId, fcVec3 gravity);
FC_API fcStabilization fcWorld_GetStabilization(fcWorldId worldId);
FC_API bool fcWorld_SetStabilization(fcWorldId worldId, fcStabilization mode);
/// Baumgarte factor beta (0 < beta <= 1).
FC_API bool fcWorld_SetBaumgarte(fcWorldId worldId, fcReal beta);
/// Projection tolerance (m) and iteration cap.
FC_API bool fcWorld_SetProjection(fcWorldId worldId, fcReal tolerance, int maxIterations);
/// Threads that step the world, the caller's included (1..FC_MAX_WORKERS); results do not depend on it.
FC_API bool fcWorld_SetWorkerCount(fcWorldId worldId, int count);
FC_API int fcWorld_GetWorkerCount(fcWorldId worldId);
FC_API void* fcWorld_GetUserData(fcWorldId worldId);
FC_API int fcWorld_GetBodyCount(fcWorldId worldId);
FC_API int fcWorld_GetJointCount(fcWorldId worldId);

/// Wall time of each stage of the last step, ms. `step` is read from the monotonic clock; the stages are timed with the
/// processor's cycle counter (cheap to read) and scaled to ms by the step's own wall time, so they add up to at most `step`.
typedef struct fcProfile {
    double step, collide, broadphase, narrowphase, integrateVelocities, buildRows, factor, solve, contactSolve,
        integratePositions, contactPositions, project, sleep, diagnostics,  ///< summed over substeps
        continuous;  ///< the continuous pass: fast-turning bodies' paths against static shapes (time of impact)
} fcProfile;

/// What the last step measured: the world's health and the solver's work.
typedef struct fcWorldStats {
    fcReal time;                 ///< s, at the end of the step
    int64_t stepCount;
    int bodyCount, jointCount;
    int rowCount;                ///< scalar constraint rows solved this step
    int blockCount;              ///< joints with rows (blocks of the system)
    int nonzerosA;               ///< stored nonzeros of the lower triangle of A = J M^-1 J^T (scalar)
    int nonzerosL;               ///< stored nonzeros of L (strict lower)
    int fillIn;                  ///< nonzerosL minus the strict-lower nonzeros of A: 0 on trees
    int redundantRows;           ///< pivots dropped as redundant (over-determined loops) in the last factorization
    int symbolicAnalyses;        ///< how many times the ordering was recomputed since the world was made
    fcReal maxViolation;         ///< largest position-level constraint error after the step, m (or rad)
    fcReal kineticEnergy;        ///< J, dynamic bodies
    fcReal potentialEnergy;      ///< J, gravity (-m g . x) plus springs and soft joints
    fcReal energy;               ///< kinetic + potential, J
    fcReal constraintPower;      ///< W: power the constraint forces delivered to the dynamic bodies this step
    fcReal constraintWork;       ///< J: time integral of constraintPower since the world was made
    int projectionIterations;    ///< iterations of the post-step projection this step
    bool projectionConverged;    ///< false when the cap was reached above the tolerance
    fcReal projectionResidual;   ///< largest |f| left by the projection, m (or rad)
    int projectionFailures;      ///< steps since creation whose projection did not converge
    int projectionNewtonSteps;   ///< iterations this step after SHAKE stalled (on the gradients of the pose where it stalled)
    int substeps;                ///< substeps the last step was split into: while contacts touch, or retaken after a failed projection
    int shapePairs;              ///< pairs whose fat boxes overlap (contacts kept by the broadphase)
    int contactCount;            ///< manifolds with at least one point this step
    int contactPoints;           ///< contact points (normal rows) in the contact problem
    int contactIterations;       ///< projected Gauss-Seidel sweeps taken (summed over substeps)
    int contactExactPoints;      ///< normal rows solved exactly before the sweeps (the last substep's): small islands where a body rests on one 4 or more times lighter
    fcReal complementarityResidual; ///< max over normal rows of |min(lambda_n, gap rate)|, in m/s (lambda in N s times 1/m_eff)
    fcReal frictionResidual;     ///< largest excess of a point's friction impulse |lambda_t| over its bound, mu lambda_n
                                 ///< (the pyramid's: sqrt(2) mu lambda_n), N s (0 up to round-off)
    fcReal maxPenetration;       ///< deepest overlap after the step, m
    int awakeBodies;             ///< dynamic bodies not asleep
    int islandCount;             ///< islands of the last step
    fcProfile profile;
} fcWorldStats;

FC_API fcWorldStats fcWorld_GetStats(fcWorldId worldId);

// ---------------------------------------------------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------------------------------------------------

typedef enum fcBodyType {
    fc_staticBody = 0,     ///< never moves
    fc_kinematicBody = 1,  ///< moves with its prescribed velocity; no force moves it
    fc_dynamicBody = 2,
} fcBodyType;

typedef struct fcBodyDef {
    fcBodyType type;           ///< default fc_dynamicBody
    const char* name;          ///< copied; may be NULL; at most FC_NAME_CAPACITY - 1 characters
    fcVec3 position;           ///< centre of mass, world, m
    fcQuat orientation;        ///< unit quaternion body -> world (normalized on creation if within 1e-6 of unit)
    fcVec3 linearVelocity;     ///< m/s, world
    fcVec3 angularVelocity;    ///< rad/s, world
    fcReal mass;               ///< kg; 0: computed from the shapes (dynamic bodies only)
    fcVec3 inertia;            ///< principal moments about the centre of mass in the body frame, kg m^2
    fcMat33 inertiaTensor;     ///< full tensor in the body frame, used when useInertiaTensor
    bool useInertiaTensor;
    fcVec3 force;              ///< constant applied force at the centre of mass, N, world
    fcVec3 torque;             ///< constant applied torque, N m, world
    fcReal linearDamping;      ///< 1/s, default 0
    fcReal angularDamping;     ///< 1/s, default 0
    void* userData;
    int internalValue;
} fcBodyDef;

FC_API fcBodyDef fcDefaultBodyDef(void);
/// Create a body. A dynamic body with mass 0 takes its mass properties from the shapes added later.
FC_API fcBodyId fcCreateBody(fcWorldId worldId, const fcBodyDef* def);
/// Destroy a body and every joint attached to it; what it touched or was joined to wakes.
FC_API void fcDestroyBody(fcBodyId bodyId);
FC_API bool fcBody_IsValid(fcBodyId bodyId);
FC_API fcBodyType fcBody_GetType(fcBodyId bodyId);
FC_API const char* fcBody_GetName(fcBodyId bodyId);
/// The body with this name, or a null id.
FC_API fcBodyId fcWorld_FindBody(fcWorldId worldId, const char* name);
FC_API fcVec3 fcBody_GetPosition(fcBodyId bodyId);
FC_API fcQuat fcBody_GetOrientation(fcBodyId bodyId);
FC_API fcVec3 fcBody_GetLinearVelocity(fcBodyId bodyId);
FC_API fcVec3 fcBody_GetAngularVelocity(fcBodyId bodyId);
/// World point of a body-frame point.
FC_API fcVec3 fcBody_GetWorldPoint(fcBodyId bodyId, fcVec3 localPoint);
FC_API fcVec3 fcBody_GetLocalPoint(fcBodyId bodyId, fcVec3 worldPoint);
/// Put a body elsewhere (any type); it wakes with its island, and so does every sleeper it had a contact pair with.
/// The velocity setters, the mass setter, fcBody_ApplyForce / ApplyTorque / ApplyImpulse and fcCreateShape /
/// fcDestroyShape wake a sleeping body with its island too (its joint partners and what it touched): woken alone,
/// the others would act fixed for a step.
FC_API bool fcBody_SetTransform(fcBodyId bodyId, fcVec3 position, fcQuat orientation);
FC_API bool fcBody_SetLinearVelocity(fcBodyId bodyId, fcVec3 v);
FC_API bool fcBody_SetAngularVelocity(fcBodyId bodyId, fcVec3 w);
FC_API fcReal fcBody_GetMass(fcBodyId bodyId);
/// Principal moments in the body frame (the diagonal of the tensor when a full tensor was given).
FC_API fcVec3 fcBody_GetInertia(fcBodyId bodyId);
FC_API fcMat33 fcBody_GetInertiaTensor(fcBodyId bodyId);
/// Replace mass (kg > 0) and body-frame principal inertia (each > 0) of a dynamic body.
FC_API bool fcBody_SetMassProperties(fcBodyId bodyId, fcReal mass, fcVec3 inertia);
/// Constant applied force (N, world, at the centre of mass) and torque (N m). A different one wakes a sleeping
/// body with its island.
FC_API bool fcBody_SetForce(fcBodyId bodyId, fcVec3 force);
FC_API bool fcBody_SetTorque(fcBodyId bodyId, fcVec3 torque);
/// Whether a dynamic body is awake (static and kinematic bodies never sleep: true).
FC_API bool fcBody_IsAwake(fcBodyId bodyId);
/// Wake a sleeping dynamic body with its island (its joints and the last step's touching contacts), or put its island
/// to sleep now: its bodies stop and stay asleep until something wakes them (with sleeping enabled; otherwise the
/// next step wakes them), their constant forces unfelt meanwhile. Refused for an island that a moving kinematic body
/// or a motor keeps awake. Static and kinematic bodies: nothing to do.
FC_API bool fcBody_SetAwake(fcBodyId bodyId, bool awake);
FC_API bool fcBody_SetDamping(fcBodyId bodyId, fcReal linear, fcReal angular);
/// Add a force (N, world) acting at a world point for the next step only (a drag spring, a thruster); it is
/// added to the constant force and cleared after the step.
FC_API bool fcBody_ApplyForce(fcBodyId bodyId, fcVec3 force, fcVec3 worldPoint);
FC_API bool fcBody_ApplyTorque(fcBodyId bodyId, fcVec3 torque);
/// Change the velocity at once by an impulse (N s, world) at a world point.
FC_API bool fcBody_ApplyImpulse(fcBodyId bodyId, fcVec3 impulse, fcVec3 worldPoint);
FC_API void* fcBody_GetUserData(fcBodyId bodyId);

// ---------------------------------------------------------------------------------------------------------------------
// Shapes: mass properties (when the body's mass is 0) and collision geometry
// ---------------------------------------------------------------------------------------------------------------------

typedef enum fcShapeType {
    fc_sphereShape = 0,    ///< radius
    fc_boxShape = 1,       ///< halfExtents
    fc_capsuleShape = 2,   ///< radius, halfHeight of the segment along local z
    fc_cylinderShape = 3,  ///< radius, halfHeight along local z
    fc_hullShape = 4,      ///< convex hull of points (shape frame; copied)
    fc_planeShape = 5,     ///< static bodies only: the half-space below the plane through the shape's origin, normal local +z
    fc_meshShape = 6,      ///< static bodies only: a triangle mesh (vertices and indices copied)
    fc_shapeTypeCount
} fcShapeType;

typedef struct fcShapeDef {
    fcShapeType type;
    fcReal radius;          ///< m
    fcVec3 halfExtents;     ///< m (box)
    fcReal halfHeight;      ///< m (capsule segment, cylinder)
    const fcVec3* points;   ///< hull: points in the shape frame (at least 4 spanning a volume)
    int pointCount;
    const fcVec3* vertices; ///< mesh: vertices in the shape frame
    int vertexCount;
    const int* indices;     ///< mesh: 3 vertex indices per triangle, counter-clockwise seen from the outside
    int triangleCount;
    fcVec3 localPosition;   ///< offset of the shape in the body frame, m
    fcQuat localOrientation;
    fcReal density;         ///< kg/m^3, default 1000
    fcReal friction;        ///< Coulomb coefficient, default 0.6; a pair uses sqrt(mu_a mu_b) unless the world overrides
    fcReal restitution;     ///< default 0; a pair uses the larger of the two
    fcReal rollingFriction; ///< rolling resistance arm, m (torque <= arm * normal force), default 0
    fcReal torsionalFriction; ///< spin resistance arm, m, default 0
    uint64_t categoryBits;  ///< what the shape is, default 1
    uint64_t maskBits;      ///< what it collides with, default all: a pair collides when each one's mask holds the other's category
    bool isSensor;          ///< reports overlap begin and end, carries no force
    bool enableContactEvents; ///< contact begin/end events for this shape, default true
    void* userData;
    int internalValue;
} fcShapeDef;

FC_API fcShapeDef fcDefaultShapeDef(void);
/// Attach a shape, placed relative to the body's position as it is now. A body created with mass 0 gets mass, centre
/// and inertia from its shapes: its position stays its centre of mass, so a shape that moves the centre moves the
/// position (and the other shapes' local positions), every material point staying where it was with its velocity;
/// the joints' anchors on the body stay the same material points (fcDestroyShape likewise). A user constraint's
/// callback sees the body's new position: points it keeps relative to the centre are its own to move.
FC_API fcShapeId fcCreateShape(fcBodyId bodyId, const fcShapeDef* def);
/// Detach and destroy a shape (its contacts end and the bodies they touched wake; the body's mass is recomputed when it
/// came from the shapes).
FC_API void fcDestroyShape(fcShapeId shapeId);
FC_API bool fcShape_IsValid(fcShapeId shapeId);
/// Change a shape's surface (friction >= 0, restitution in [0, 1]) and filter. A filter change takes effect at once:
/// the pairs it refuses end (their bodies wake), and those it allows are found in the next step.
FC_API bool fcShape_SetFriction(fcShapeId shapeId, fcReal friction);
FC_API bool fcShape_SetRestitution(fcShapeId shapeId, fcReal restitution);
FC_API bool fcShape_SetFilter(fcShapeId shapeId, uint64_t categoryBits, uint64_t maskBits);
FC_API fcShapeDef fcShape_GetDef(fcShapeId shapeId);
FC_API fcBodyId fcShape_GetBody(fcShapeId shapeId);
/// Number of shapes of a body, and the i-th.
FC_API int fcBody_GetShapeCount(fcBodyId bodyId);
FC_API fcShapeId fcBody_GetShape(fcBodyId bodyId, int index);

/// Mass properties of a solid shape about its own centre, in the shape frame.
typedef struct fcMassData { fcReal mass; fcVec3 center; fcMat33 inertia; } fcMassData;
FC_API fcMassData fcComputeShapeMass(const fcShapeDef* def);

// ---------------------------------------------------------------------------------------------------------------------
// Queries: ray casts, overlaps, shape casts and closest points against the world's shapes
// ---------------------------------------------------------------------------------------------------------------------

/// Which shapes a query sees: those whose category is in maskBits and whose mask holds categoryBits.
typedef struct fcQueryFilter { uint64_t categoryBits, maskBits; bool includeSensors; } fcQueryFilter;
FC_API fcQueryFilter fcDefaultQueryFilter(void);

typedef struct fcRayResult {
    bool hit;
    fcShapeId shape;
    fcBodyId body;
    fcVec3 point;       ///< world, m
    fcVec3 normal;      ///< outward surface normal, world
    fcReal fraction;    ///< of the translation, in [0, 1] (fcWorld_ClosestPoint: the distance, m)
    int triangle;       ///< mesh shapes: the triangle hit; -1 otherwise
} fcRayResult;

/// The closest hit along origin + t translation, t in [0, 1].
/// The queries' callbacks may query again but not change the world: creating or destroying a body, shape, joint or
/// the world, a setter and fcWorld_Step are refused there ("the world is in a query").
FC_API fcRayResult fcWorld_CastRayClosest(fcWorldId worldId, fcVec3 origin, fcVec3 translation, fcQueryFilter filter);
/// Every hit (in no particular order): the callback returns the new largest fraction to look at (the hit's
/// fraction clips the ray, 1 goes on to all hits, 0 stops). Returns false on bad input.
typedef fcReal fcCastResultFcn(const fcRayResult* hit, void* context);
FC_API bool fcWorld_CastRay(fcWorldId worldId, fcVec3 origin, fcVec3 translation, fcQueryFilter filter,
                            fcCastResultFcn* fcn, void* context);
/// Shapes whose bounding boxes overlap [lo, hi]; the callback returns false to stop.
typedef bool fcOverlapResultFcn(fcShapeId shape, void* context);
FC_API bool fcWorld_OverlapAABB(fcWorldId worldId, fcVec3 lo, fcVec3 hi, fcQueryFilter filter, fcOverlapResultFcn* fcn,
                                void* context);
/// Shapes that overlap a convex shape (def's geometry: sphere, box, capsule, cylinder or hull) at a pose.
FC_API bool fcWorld_OverlapShape(fcWorldId worldId, const fcShapeDef* shape, fcVec3 position, fcQuat orientation,
                                 fcQueryFilter filter, fcOverlapResultFcn* fcn, void* context);
/// Sweep a convex shape along translation: each shape it would touch, with the fraction of first contact (a mesh:
/// the triangle); a shape it overlaps at the start at fraction 0, with the cast shape's position as the point and
/// no normal. The callback's return clips the sweep as for fcWorld_CastRay (0 stops).
FC_API bool fcWorld_CastShape(fcWorldId worldId, const fcShapeDef* shape, fcVec3 position, fcQuat orientation,
                              fcVec3 translation, fcQueryFilter filter, fcCastResultFcn* fcn, void* context);
/// The point of the world's shapes closest to a point within maxDistance (hit false when none).
FC_API fcRayResult fcWorld_ClosestPoint(fcWorldId worldId, fcVec3 point, fcReal maxDistance, fcQueryFilter filter);

// ---------------------------------------------------------------------------------------------------------------------
// Joints
// ---------------------------------------------------------------------------------------------------------------------

typedef enum fcJointType {
    fc_ballJoint = 0,       ///< 3 rows: anchors coincide
    fc_hingeJoint = 1,      ///< 5 rows: anchors coincide, rotation only about axis
    fc_sliderJoint = 2,     ///< 5 rows: no relative rotation, translation only along axis
    fc_fixedJoint = 3,      ///< 6 rows: weld
    fc_distanceJoint = 4,   ///< 1 row: |anchor_b - anchor_a| = length (rigid rod, or a spring when soft)
    fc_universalJoint = 5,  ///< 4 rows: anchors coincide, axis (on a) stays perpendicular to axisB (on b)
    fc_planarJoint = 6,     ///< 3 rows: body_b's anchor stays in the plane through anchor with normal; rotation only about normal
    fc_bladeJoint = 7,      ///< 1 nonholonomic row: the anchor point of body_b does not move along normal x axis
    fc_couplingJoint = 8,   ///< 1 row: coord(jointA) = ratio coord(jointB) + offset (hinge angle or slider travel)
    fc_userConstraint = 9,  ///< rows supplied by a callback (see fcUserConstraintDef)
    fc_ropeJoint = 10,      ///< 1 one-sided row: |anchor_b - anchor_a| <= length; pulls only (slack and taut are events)
    fc_jointTypeCount
} fcJointType;

typedef struct fcJointDef {
    fcJointType type;
    const char* name;     ///< copied; may be NULL
    fcBodyId bodyA;       ///< null id: the world (a fixed frame)
    fcBodyId bodyB;       ///< must be a body
    fcVec3 anchor;        ///< world point at the initial pose, m
    fcVec3 anchorA;       ///< distance joint: world point on body_a, m
    fcVec3 anchorB;       ///< distance joint: world point on body_b, m
    fcVec3 axis;          ///< world direction: hinge/slider axis, universal axis on a, blade direction on b
    fcVec3 axisB;         ///< universal joint: the axis on b (perpendicular to axis)
    fcVec3 normal;        ///< planar: plane normal (fixed in a); blade: the normal of the plane it runs on (fixed in a)
    fcReal length;        ///< distance joint: rest length, m; < 0 takes the initial distance (default -1)
    fcReal stiffness;     ///< soft joint: N/m (N m/rad for angular rows); 0 with damping 0 is rigid
    fcReal damping;       ///< soft joint: N s/m (N m s/rad)
    fcJointId jointA;     ///< coupling: the first hinge or slider
    fcJointId jointB;     ///< coupling: the second hinge or slider
    fcReal ratio;         ///< coupling: coord(jointA) = ratio coord(jointB) + offset, default 1
    fcReal offset;        ///< coupling: default 0 (both coordinates are 0 at their joints' creation)
    bool collideConnected;///< the two bodies' shapes collide with each other (default false)
    // hinge and slider: a limit on the coordinate (one-sided rows) and a motor (a bounded row)
    bool enableLimit;
    fcReal lowerLimit, upperLimit;  ///< rad (hinge angle) or m (slider travel), lower <= upper
    bool enableMotor;
    fcReal motorSpeed;    ///< target rate, rad/s or m/s
    fcReal maxMotorForce; ///< N m (hinge) or N (slider), > 0
    bool servo;           ///< the motor drives the coordinate to servoTarget instead (rate = gain (target - coord))
    fcReal servoTarget;   ///< rad or m
    fcReal servoGain;     ///< 1/s, default 10
    void* userData;
    int internalValue;
} fcJointDef;

FC_API fcJointDef fcDefaultJointDef(fcJointType type);
/// Create a joint; null id and a message on bad input (the world is unchanged). Its bodies wake.
FC_API fcJointId fcCreateJoint(fcWorldId worldId, const fcJointDef* def);
/// Destroy a joint; both its bodies wake.
FC_API void fcDestroyJoint(fcJointId jointId);
FC_API bool fcJoint_IsValid(fcJointId jointId);
FC_API fcJointType fcJoint_GetType(fcJointId jointId);
FC_API const char* fcJoint_GetName(fcJointId jointId);
FC_API fcJointId fcWorld_FindJoint(fcWorldId worldId, const char* name);
FC_API fcBodyId fcJoint_GetBodyA(fcJointId jointId);
FC_API fcBodyId fcJoint_GetBodyB(fcJointId jointId);
FC_API int fcJoint_GetRowCount(fcJointId jointId);
/// Current world anchors on body_a and body_b (equal when the joint is satisfied, for point joints).
FC_API fcVec3 fcJoint_GetAnchorA(fcJointId jointId);
FC_API fcVec3 fcJoint_GetAnchorB(fcJointId jointId);
/// Hinge angle (rad) or slider travel (m) relative to the creation pose, and its rate.
FC_API fcReal fcJoint_GetCoordinate(fcJointId jointId);
FC_API fcReal fcJoint_GetCoordinateRate(fcJointId jointId);
/// Limits and motors of a hinge or slider (see fcJointDef). These and fcJoint_SetSpring wake the joint's bodies.
FC_API bool fcJoint_SetLimits(fcJointId jointId, bool enable, fcReal lower, fcReal upper);
FC_API bool fcJoint_SetMotor(fcJointId jointId, bool enable, fcReal speed, fcReal maxForce);
FC_API bool fcJoint_SetServo(fcJointId jointId, bool enable, fcReal target, fcReal gain, fcReal maxForce);
/// Make a joint soft (stiffness, damping >= 0; both 0 makes it rigid again).
FC_API bool fcJoint_SetSpring(fcJointId jointId, fcReal stiffness, fcReal damping);
FC_API const char* fcJointType_GetName(fcJointType type);
/// Parse "ball", "hinge", ... ; returns false for an unknown name.
FC_API bool fcJointType_FromName(const char* name, fcJointType* type);

/// What a joint did during the last step: its multipliers and the force they add up to.
typedef struct fcJointReaction {
    int rowCount;
    fcReal impulse[FC_MAX_JOINT_ROWS];  ///< multiplier of each row: the whole impulse of the step, N s (N m s)
    fcReal lambda[FC_MAX_JOINT_ROWS];   ///< impulse / h, N (N m)
    fcVec3 force;         ///< constraint force on body_b, world, N
    fcVec3 torque;        ///< constraint torque on body_b about its centre of mass, world, N m
    /// Constraint force and torque (about its centre) on body_a, world: -force for a joint on one anchor; for a
    /// coupling or a user row whatever J_a^T lambda gives (an Atwood string pulls both masses up).
    fcVec3 forceA, torqueA;
    fcVec3 moment;        ///< moment about the anchor: torque - (anchor - com_b) x force, N m
    fcVec3 anchor;        ///< the anchor the moment is taken about (anchor_b), world, m
    fcVec3 forceLocal;    ///< force in the joint frame (origin at the anchor, z along the axis or normal)
    fcVec3 momentLocal;   ///< moment in the joint frame
    fcQuat frame;         ///< the joint frame's orientation in the world
    fcReal violation;     ///< position error after the step, m (or rad); 0 for nonholonomic rows
    fcReal motorForce;    ///< the motor's torque (N m) or force (N) in the last step
    fcReal limitForce;    ///< the limit's torque or force (>= 0 pushing away from the lower limit, <= 0 from the upper)
    bool atLimit;         ///< the limit carried load in the last step
} fcJointReaction;

FC_API fcJointReaction fcJoint_GetReaction(fcJointId jointId);

// ---------------------------------------------------------------------------------------------------------------------
// User constraints: holonomic f(q, t) = 0 or Pfaffian a(q, t) . v + a_t = 0, rows from a callback
// ---------------------------------------------------------------------------------------------------------------------

/// The state the callback sees (body_b is index 1; index 0 is body_a or the world at rest at the origin).
typedef struct fcUserConstraintState {
    fcReal time;            ///< s: the time the rows must hold at (end of the step being taken)
    fcVec3 position[2];
    fcQuat orientation[2];
    fcVec3 linearVelocity[2];
    fcVec3 angularVelocity[2];
} fcUserConstraintState;

/// One row the callback fills.
typedef struct fcUserConstraintRow {
    /// J: row coefficients per body: linear (3) then angular (3), acting on world-frame v and omega.
    fcReal jacobian[2][6];
    /// Velocity-level term: df/dt of a holonomic f(q, t), or a_t of a Pfaffian row (the row is J v + rate = 0).
    fcReal rate;
    /// Holonomic rows: the position error f(q, t) used by stabilization. Ignored for Pfaffian rows.
    fcReal error;
} fcUserConstraintRow;

/// The callback reads its bodies' state from `state` only: during the step (and the projection, where it is called
/// again as the positions move) the bodies' getters (fcBody_GetPosition, ...) may return a pose the step has not
/// settled yet, and functions that change the world are refused while it is stepping.
typedef void fcUserConstraintFcn(const fcUserConstraintState* state, fcUserConstraintRow* rows, void* context);

typedef struct fcUserConstraintDef {
    const char* name;
    fcBodyId bodyA;            ///< null: the world
    fcBodyId bodyB;
    int rowCount;              ///< 1..FC_MAX_USER_ROWS
    bool holonomic;            ///< true: rows are gradients of f(q, t) and error is used; false: Pfaffian
    /// One-sided: f(q, t) >= 0 with lambda >= 0 (a surface that can push but not pull, a string that can pull
    /// but not push when f = length - distance). Holonomic only. Its release is reported as an event.
    bool unilateral;
    fcUserConstraintFcn* fcn;  ///< called at least once per step (again during projection as positions move)
    void* context;
    fcReal stiffness, damping; ///< soft rows, as for joints
    bool collideConnected;     ///< the two bodies' shapes collide with each other (default false)
    void* userData;
    int internalValue;
} fcUserConstraintDef;

FC_API fcUserConstraintDef fcDefaultUserConstraintDef(void);
/// A user constraint is a joint of type fc_userConstraint: read its reaction with fcJoint_GetReaction.
FC_API fcJointId fcCreateUserConstraint(fcWorldId worldId, const fcUserConstraintDef* def);

// ---------------------------------------------------------------------------------------------------------------------
// Springs (a spring is a soft distance joint with a rest length; its force is its multiplier)
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcSpringDef {
    const char* name;
    fcBodyId bodyA, bodyB;
    fcVec3 anchorA, anchorB;  ///< world points at the initial pose, m
    fcReal stiffness;         ///< N/m, > 0
    fcReal restLength;        ///< m, >= 0; < 0 takes the initial distance (default -1)
    fcReal damping;           ///< N s/m, >= 0
    int internalValue;
} fcSpringDef;

FC_API fcSpringDef fcDefaultSpringDef(void);
FC_API fcJointId fcCreateSpring(fcWorldId worldId, const fcSpringDef* def);

// ---------------------------------------------------------------------------------------------------------------------
// Contacts: what each touching pair of shapes carried in the last step
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcContactPointData {
    fcVec3 point;            ///< world, m: midway between the surfaces
    fcReal separation;       ///< m at the start of the step (negative: overlap)
    fcReal normalImpulse;    ///< lambda_n: N s over the step (>= 0)
    fcReal tangentImpulse[2];///< friction impulses along tangent[0], tangent[1], N s: the point's share of its manifold's
                             ///< (by its load, and across its offset from the centre for the twist; the shares add up to
                             ///< the manifold's friction and its moment about the normal)
    fcReal normalForce;      ///< lambda_n / h, N
    bool slipping;           ///< the manifold's friction is at its bound and this point slides
    uint32_t id;             ///< feature id (stable while the same features touch)
} fcContactPointData;

struct fcContactData {
    fcShapeId shapeA, shapeB;
    fcBodyId bodyA, bodyB;
    fcVec3 normal;           ///< unit, world, from a to b
    fcVec3 tangent[2];
    int pointCount;
    fcContactPointData points[4];
    fcVec3 force;            ///< total contact force on body_b, N (body_a gets -force)
    /// The manifold's friction as the solver took it (docs/physics.md 4d): a force at one point and a moment about
    /// the normal there, on body_b (body_a gets the opposite), over the step; the points' tangentImpulse share it
    fcVec3 frictionPoint;    ///< world, m: the centre of the touching points, at the deepest one's level
    fcVec3 frictionForce;    ///< N, across the normal
    fcReal twist;            ///< N m, about the normal
    fcReal friction, restitution; ///< the pair's coefficients (pre-solve may change them)
    int triangle;            ///< mesh pairs: the triangle; -1 otherwise
};

/// Manifolds of the last step with at least one point (sleeping pairs included, with the forces they carried
/// when they fell asleep), and the i-th of them (0 <= i < count; out of range: an empty record and a message).
FC_API int fcWorld_GetContactCount(fcWorldId worldId);
FC_API fcContactData fcWorld_GetContact(fcWorldId worldId, int index);
/// The contacts touching one body: writes up to capacity, returns how many there are.
FC_API int fcBody_GetContacts(fcBodyId bodyId, fcContactData* out, int capacity);

// ---------------------------------------------------------------------------------------------------------------------
// Events: a one-sided constraint letting go (its multiplier reached zero) or taking hold, with the time
// interpolated inside the step. The array of a step is valid until the next step.
// ---------------------------------------------------------------------------------------------------------------------

typedef enum fcEventType {
    fc_eventRelease = 0,      ///< lambda fell to zero while the bodies move apart: the constraint let go (rope: slack)
    fc_eventHold = 1,         ///< an inactive one-sided constraint became active (touch, rope taut)
    fc_eventContactBegin = 2, ///< two shapes began to touch (a point within the slop, or a load carried in the step by a
                              ///< pair apart at its start, as a fast bounce: then dated when the gap closed)
    fc_eventContactEnd = 3,   ///< two shapes stopped touching, or their pair was taken away (a filter, a destroyed shape or body, a joint between them)
    fc_eventStickToSlip = 4,  ///< a contact's friction reached mu lambda_n: it slides
    fc_eventSlipToStick = 5,  ///< a sliding contact sticks again
    fc_eventSensorBegin = 6,  ///< a shape entered a sensor (shapeA is the sensor)
    fc_eventSensorEnd = 7,    ///< it left the sensor, or one of them was taken away (every begin has its end)
} fcEventType;

typedef struct fcConstraintEvent {
    fcEventType type;
    fcJointId joint;       ///< the joint or user constraint; null for contact events
    fcShapeId shapeA, shapeB; ///< contact and sensor events
    fcVec3 point, normal;  ///< contact events: a point of the contact and its normal (a to b), world
    fcReal time;           ///< s, interpolated inside the step where lambda crossed zero
    fcReal forceBefore;    ///< N: the constraint's force (lambda / h) in the step before the event
    fcVec3 positionB;      ///< body_b's centre at the start of the step of the event (sensor events: the visitor's), m
    fcVec3 velocityB;      ///< body_b's velocity at the start of the step of the event, m/s
} fcConstraintEvent;

FC_API const char* fcEventType_GetName(fcEventType type);
/// Number of events of the last step. The ends of pairs taken away between steps (by fcShape_SetFilter, fcDestroyShape,
/// fcDestroyBody) come with the next step's events, dated at its start; a destroyed shape is named by its stale id.
FC_API int fcWorld_GetEventCount(fcWorldId worldId);
/// The i-th event of the last step (0 <= i < count).
FC_API fcConstraintEvent fcWorld_GetEvent(fcWorldId worldId, int index);

#ifdef __cplusplus
}
#endif

#endif
