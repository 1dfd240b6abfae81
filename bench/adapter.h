// SPDX-License-Identifier: MIT
// fulcrum-bench: the engine-neutral scene every adapter builds its world from, and the adapter interface.
// The harness (bench.c) fills fcbScene from a loaded Fulcrum world through Fulcrum's public API only (bodies'
// pose, velocity, mass and inertia; shapes via fcBody_GetShape / fcShape_GetDef; joints' type, bodies and
// anchors), so every engine is given the same world by construction. Plain C, so that the C++ (Bullet)
// adapter can include it.
#ifndef FCB_ADAPTER_H
#define FCB_ADAPTER_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FCB_MAX_SHAPES 8

typedef enum fcbShapeType { fcb_sphere = 0, fcb_box = 1, fcb_capsule = 2, fcb_plane = 3 } fcbShapeType;

typedef struct fcbShape {
    fcbShapeType type;
    double radius;       ///< sphere, capsule
    double halfHeight;   ///< capsule: half the segment, along the shape's local z
    double half[3];      ///< box half extents
    double pos[3];       ///< in the body frame (the body frame is the centre-of-mass frame)
    double quat[4];      ///< shape -> body, (w, x, y, z)
    double friction;     ///< Coulomb coefficient of the shape; Fulcrum uses sqrt(mu_a mu_b) for a pair
    double restitution;  ///< Fulcrum uses the larger of the two
    bool collides;       ///< false: geometry only (category or mask 0): no collision geometry in any engine
} fcbShape;

typedef struct fcbBody {
    bool dynamic;        ///< false: static (kinematic bodies are refused by the harness)
    double mass;         ///< kg (dynamic)
    double inertia[3];   ///< principal moments in the body frame, kg m^2
    double pos[3];       ///< centre of mass, world, m
    double quat[4];      ///< body -> world (w, x, y, z)
    double vel[3], angvel[3];  ///< world
    int shapeCount;
    fcbShape shapes[FCB_MAX_SHAPES];
} fcbBody;

typedef enum fcbJointType { fcb_ball = 0, fcb_hinge = 1 } fcbJointType;

typedef struct fcbJoint {
    fcbJointType type;
    int a, b;            ///< body indices; a = -1: the world
    double anchor[3];    ///< world point at the initial pose
    double axis[3];      ///< hinge axis, world, at the initial pose
    double localA[3];    ///< the anchor in body a's frame (world coordinates when a = -1)
    double localB[3];    ///< the anchor in body b's frame
} fcbJoint;

typedef struct fcbScene {
    const char* name;
    const char* json;    ///< the scene's JSON text (the Fulcrum adapter loads it again for every run)
    double gravity[3];
    double dt;           ///< the step used (the scene's, or --dt)
    int threads;         ///< --threads: Fulcrum's workers (the peers here step on one thread)
    int bodyCount;
    fcbBody* bodies;
    int jointCount;
    fcbJoint* joints;
    int collidingBodies; ///< dynamic bodies with at least one colliding shape
    bool hasGround;      ///< a static plane exists
} fcbScene;

typedef struct fcbState {
    double pos[3], quat[4], vel[3], angvel[3];
} fcbState;

typedef struct fcbAdapter {
    const char* engine;    ///< "fulcrum", "ode", "bullet", "mujoco"
    const char* settings;  ///< short name of the settings, e.g. "QuickStep20"
    const char* details;   ///< what the settings are, for the notes under the table
    /// NULL when the engine can run the scene; otherwise writes the "not run" reason and returns it.
    const char* (*refuse)(const fcbScene* scene, char* why, size_t whySize);
    /// Build the world (untimed). NULL and a message on failure.
    void* (*create)(const fcbScene* scene, char* err, size_t errSize);
    /// One step of scene->dt, the only timed call.
    void (*step)(void* ctx);
    void (*getState)(void* ctx, int body, fcbState* out);
    /// The constraint force of joint j in the last step (N, world). false: the engine does not report it.
    bool (*jointForce)(void* ctx, int joint, double force[3]);
    /// The deepest penetration the engine reported for any contact in the last step (m, >= 0), and the
    /// number of contact points; -1 when the engine has no contacts to report.
    double (*penetration)(void* ctx, int* points);
    void (*destroy)(void* ctx);
    /// What the engine built, read back from its own world (the bench_adapters_agree test): the number of dynamic
    /// bodies and their total mass (kg). NULL: not available.
    void (*readBack)(void* ctx, int* dynamicBodies, double* totalMass);
    /// Joint j's two anchor points, world, at the current pose, from the engine's own joint: pa on body a (the
    /// world point when a = -1), pb on body b. false: not available.
    bool (*jointAnchors)(void* ctx, int joint, double pa[3], double pb[3]);
} fcbAdapter;

/// Each adapter file defines its entry: the number of settings variants and their adapters.
int fcbFulcrum_Adapters(const fcbAdapter** out);
int fcbOde_Adapters(const fcbAdapter** out);
int fcbBullet_Adapters(const fcbAdapter** out);
int fcbMujoco_Adapters(const fcbAdapter** out);

/// Bytes of memory available (MemAvailable), for the adapters' "would not fit" checks.
double fcbAvailableBytes(void);

/// The joints as a forest, for the reduced-coordinate settings (Bullet btMultiBody, MuJoCo's kinematic tree):
/// each joint's body_a is the parent of its body_b. A root is a dynamic body with no parent joint (a free root: a
/// floating base, a freejoint) or whose parent joint goes to the world (a fixed base).
typedef struct fcbTree {
    int* parentJoint;  ///< per body: the joint whose body_b it is; -1: none
    int* order;        ///< the dynamic bodies depth first, root by root: each tree contiguous, parents first
    int count;         ///< entries in order (the dynamic bodies)
} fcbTree;

/// Builds the forest. NULL when the scene is one; otherwise writes why it is not (no joints: the tree settings
/// are the same as the free bodies' there; a static body_b; a body with two parent joints; a loop) and returns
/// it, with t freed. fcbTree_Free releases a built tree.
const char* fcbTree_Build(const fcbScene* scene, fcbTree* t, char* why, size_t whySize);
void fcbTree_Free(fcbTree* t);
/// An adapter's refuse hook for the tree settings: fcbTree_Build's reason, or NULL.
const char* fcbTree_Refuse(const fcbScene* scene, char* why, size_t whySize);
/// true: body i of the tree is a root (no parent joint, or its parent joint goes to the world).
bool fcbTree_IsRoot(const fcbScene* scene, const fcbTree* t, int body);

#ifdef __cplusplus
}
#endif

#endif
