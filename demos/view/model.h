// SPDX-License-Identifier: MIT
// The viewer's GL-free half: the per-step frame record the renderer draws from (poses, joint reactions and
// events, copied out of the world through the public API, so drawing never reads solver internals), the plot's
// time-series buffer, the exact curves, the log, picking and the drag spring, the demo list and the meshes.
#ifndef FC_VIEW_MODEL_H
#define FC_VIEW_MODEL_H

#include "scene.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

// ---------------------------------------------------------------------------------------------------------------------
// Frame record: one per physics step
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcViewPose {
    double p[3];  ///< centre of mass, world, m
    double q[4];  ///< w, x, y, z
} fcViewPose;

typedef struct fcViewJoint {
    double anchor[3];  ///< world, m (the point the reaction's moment is about)
    double force[3];   ///< on body_b, world, N
    double forceA[3];  ///< on body_a, world, N (a coupling: what the string does to body_a)
    double moment[3];  ///< on body_b about the anchor, world, N m
    double anchorA[3]; ///< body_a's anchor, world, m (for the link drawn to body_a)
    double magnitude;  ///< |force|, N
    double momentMagnitude; ///< |moment|, N m
    int bodyA, bodyB;  ///< indices into the frame's bodies; -1: the world
    fcJointType type;
    bool point;        ///< false for joints without a place (coupling): their forces are drawn at the bodies
} fcViewJoint;

/// An engine event of the step (fcConstraintEvent, copied): a one-sided constraint letting go or taking hold,
/// a contact beginning or ending, friction starting to slip or sticking again, a sensor.
typedef struct fcViewEvent {
    fcEventType type;
    bool contact;          ///< between shapes (a contact or a sensor), not a joint
    int joint;             ///< scene joint index; -1: a contact, or a joint the scene file does not list
    int bodyA, bodyB;      ///< contact and sensor events: the scene bodies of the two shapes (-1: none)
    char name[96];         ///< the joint's name, or "bodyA - bodyB" for a contact
    double time;           ///< s, inside the step
    double forceBefore;    ///< N
    double positionB[3], velocityB[3];
    double point[3], normal[3];  ///< contact events
} fcViewEvent;

/// True for the events that end something (a release, a contact ending, a slip starting): marked pointing down.
bool fcViewEvent_LetsGo(fcEventType type);

#define FC_VIEW_MAX_EVENTS 8

/// One contact point of the step (fcWorld_GetContact, copied): where, along which normal, how hard. The force
/// is described as acting on `body` (the dynamic side; of two dynamic bodies the one it pushes up, the supported
/// one), so a stack's arrows all point up; the other body gets the opposite.
typedef struct fcViewContact {
    double point[3];   ///< world, m (midway between the surfaces)
    double normal[3];  ///< unit, world: the direction of the normal force on `body`
    double force;      ///< normal force, N (>= 0)
    double separation; ///< m at the start of the step (negative: overlap)
    int body, other;   ///< scene body indices (-1: a body the scene does not list)
    bool slipping;     ///< friction at mu lambda_n
} fcViewContact;

/// A contact point further apart than this (m) that carried nothing is speculative, not recorded.
#define FC_VIEW_CONTACT_GAP 1e-3

/// All contact forces on one body in the step, summed: the plot's contact channel of that body.
typedef struct fcViewBodyContact {
    double force[3];   ///< total contact force (normal and friction), world, N
    double torque[3];  ///< its moment about the body's centre of mass, world, N m
    double magnitude, torqueMagnitude;
    int points;        ///< contact points touching the body
} fcViewBodyContact;

/// The mouse's drag spring as drawn: from the grab point on the body to the target under the cursor.
typedef struct fcViewDragState {
    bool active;
    int body;
    double point[3], target[3];  ///< world, m
    double force[3];             ///< the spring's force on the body in the step, N
} fcViewDragState;

typedef struct fcViewFrame {
    double time;       ///< s, at the end of the step
    double stepMs;     ///< wall time of the step, ms
    int bodyCount, jointCount;
    fcViewPose* bodies;
    fcViewJoint* joints;
    int eventCount;    ///< events of this step (at most FC_VIEW_MAX_EVENTS kept; eventsLost more)
    int eventsLost;
    fcViewEvent events[FC_VIEW_MAX_EVENTS];
    fcViewDragState drag;
    int contactCount;  ///< contact points of the step (all that touch or carry: the array grows)
    int contactCapacity;
    fcViewContact* contacts;
    fcViewBodyContact* bodyContacts;  ///< per scene body
    int manifoldCount;                ///< touching manifolds (fcWorld_GetContactCount)
    double complementarityResidual;   ///< the step's fcWorldStats, m/s
    double maxPenetration;            ///< m
} fcViewFrame;

/// Allocate a frame sized for the scene (abort on out of memory).
void fcViewFrame_Init(fcViewFrame* frame, const fcScene* scene);
void fcViewFrame_Free(fcViewFrame* frame);
/// Copy the scene's current state (poses, reactions, contacts, the last step's events) into the frame; no drag.
void fcViewFrame_Capture(fcViewFrame* frame, const fcScene* scene, double stepMs);
/// out = a + alpha (b - a): positions and forces linearly, orientations by normalized lerp; b's events and
/// contacts (they come and go between steps; a contact force is the step's).
void fcViewFrame_Lerp(fcViewFrame* out, const fcViewFrame* a, const fcViewFrame* b, double alpha);
void fcViewFrame_Copy(fcViewFrame* out, const fcViewFrame* in);

// ---------------------------------------------------------------------------------------------------------------------
// Exact curves: one table keyed by scene name
// ---------------------------------------------------------------------------------------------------------------------

/// index: the joint's (a joint channel) or the body's (a contact channel).
typedef double fcExactFcn(const fcScene* scene, const fcViewFrame* frame, int index);

typedef struct fcExactCurve {
    const char* scene;   ///< scene "name"
    const char* joint;   ///< joint name, or NULL for a body's contact channel
    const char* label;   ///< shown in the legend
    fcExactFcn* fcn;     ///< exact |force| in N at the frame's state
    const char* body;    ///< body name of a contact channel (the total contact force on it), else NULL
} fcExactCurve;

/// The exact curve for this scene's joint index, or NULL.
const fcExactCurve* fcExact_Find(const fcScene* scene, int joint);
/// The exact curve of this scene body's contact channel, or NULL.
const fcExactCurve* fcExact_FindBody(const fcScene* scene, int body);

// ---------------------------------------------------------------------------------------------------------------------
// Plot buffer: a ring of samples of up to FC_PLOT_MAX_SERIES channels (a joint's reaction, or the total contact
// force on a body), and the events' times
// ---------------------------------------------------------------------------------------------------------------------

#define FC_PLOT_MAX_SERIES 6
#define FC_PLOT_CAPACITY 4096
#define FC_PLOT_MAX_EVENTS 64

/// What the plot shows of each channel.
typedef enum fcPlotQuantity {
    fc_plotForce = 0,       ///< |F|, the force on body_b, N (the exact curves are of this)
    fc_plotMoment = 1,      ///< |M|, the moment on body_b about the anchor, N m (a held joint's torque)
    fc_plotComponents = 2,  ///< F_x, F_y, F_z in the world frame, N
    fc_plotQuantityCount
} fcPlotQuantity;

typedef struct fcPlotEvent {
    double t;
    fcEventType type;
    bool contact;  ///< between shapes: many, so marked by a tick only
    int joint;
} fcPlotEvent;

typedef struct fcPlot {
    int seriesCount;
    int joint[FC_PLOT_MAX_SERIES];                      ///< scene joint index of each series (-1: a contact channel)
    int body[FC_PLOT_MAX_SERIES];                       ///< scene body index of a contact channel (-1: a joint's)
    int color[FC_PLOT_MAX_SERIES];                      ///< its colour slot (kept while other channels come and go)
    const fcExactCurve* exact[FC_PLOT_MAX_SERIES];      ///< NULL: no exact curve
    fcPlotQuantity quantity;
    double window;                                      ///< s of history shown
    int count, head;                                    ///< ring: count samples, the oldest at head
    double t[FC_PLOT_CAPACITY];
    double force[FC_PLOT_CAPACITY][FC_PLOT_MAX_SERIES];       ///< |F|, N (NaN before a channel was added)
    double moment[FC_PLOT_CAPACITY][FC_PLOT_MAX_SERIES];      ///< |M|, N m
    double component[FC_PLOT_CAPACITY][FC_PLOT_MAX_SERIES][3];///< F, world, N
    double exactValue[FC_PLOT_CAPACITY][FC_PLOT_MAX_SERIES];  ///< the exact |F|, N (NaN: none)
    int eventCount, eventHead;                          ///< ring of the newest FC_PLOT_MAX_EVENTS events
    fcPlotEvent events[FC_PLOT_MAX_EVENTS];
} fcPlot;

/// Choose the series: joints with an exact curve first, then the bodies whose contact channel has one, the
/// demo's own contact channels (fcDemo_ContactChannels), then the other joints in file order; a scene with
/// none of these (contacts only) gets the contact channels of its first dynamic bodies with shapes. The
/// quantity is the demo's (fcDemo_PlotQuantity).
void fcPlot_Init(fcPlot* plot, const fcScene* scene);
/// Record the step that went from prev to frame, and its events. The exact value is the mean of the exact
/// curve at both ends (the step's average, as the measured multiplier is the step's impulse / h).
void fcPlot_Add(fcPlot* plot, const fcScene* scene, const fcViewFrame* prev, const fcViewFrame* frame);
void fcPlot_AddEvent(fcPlot* plot, const fcViewEvent* event);
/// Add the joint's channel, or remove it when shown: +1 added, -1 removed, 0 refused (the plot is full).
int fcPlot_Toggle(fcPlot* plot, const fcScene* scene, int joint);
/// The series showing this joint, or -1.
int fcPlot_FindSeries(const fcPlot* plot, int joint);
/// The body's contact channel (the total contact force on it): added (+1), removed (-1) or refused (0).
int fcPlot_ToggleBody(fcPlot* plot, const fcScene* scene, int body);
/// The series showing this body's contact channel, or -1.
int fcPlot_FindBodySeries(const fcPlot* plot, int body);
/// The channel's name: the joint's, or "BODY contacts".
void fcPlot_SeriesName(const fcPlot* plot, const fcScene* scene, int s, char* out, size_t size);
/// The i-th sample, oldest first.
int fcPlot_Index(const fcPlot* plot, int i);
/// The plotted value of series s at ring slot k (component 0..2 for fc_plotComponents, else ignored).
double fcPlot_Value(const fcPlot* plot, int k, int s, int component);
/// Write every sample held as CSV: t, then per series |F| and (if any) its exact value (a contact channel's
/// column is BODY.contact). False on a write error.
bool fcPlot_WriteCsv(const fcPlot* plot, const fcScene* scene, FILE* f);

// ---------------------------------------------------------------------------------------------------------------------
// The on-screen log: the newest lines of what happened (events, picks, channels, reloads)
// ---------------------------------------------------------------------------------------------------------------------

#define FC_LOG_CAPACITY 32

typedef struct fcViewLog {
    int count, head;
    char lines[FC_LOG_CAPACITY][128];
} fcViewLog;

void fcViewLog_Clear(fcViewLog* log);
void fcViewLog_Add(fcViewLog* log, const char* format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/// The i-th newest line (0: the newest), or NULL.
const char* fcViewLog_Line(const fcViewLog* log, int i);
/// One line describing an event: "t = 1.2345 s  dome released (force before 0.012 N, speed 3.6 m/s)".
void fcViewEvent_Describe(const fcViewEvent* event, char* out, size_t size);

// ---------------------------------------------------------------------------------------------------------------------
// A trail: the path a body's centre traced (the knife edge's circle)
// ---------------------------------------------------------------------------------------------------------------------

#define FC_TRAIL_CAPACITY 4096

typedef struct fcTrail {
    int body;          ///< scene body index; -1: no trail
    int count, head;   ///< ring of the newest points
    float points[FC_TRAIL_CAPACITY][3];
} fcTrail;

/// The demo's trail body (fcDemo_TrailBody), emptied.
void fcTrail_Init(fcTrail* trail, const fcScene* scene);
/// Add the body's position in the frame (after each step).
void fcTrail_Add(fcTrail* trail, const fcViewFrame* frame);
/// The i-th point, oldest first.
const float* fcTrail_Point(const fcTrail* trail, int i);

// ---------------------------------------------------------------------------------------------------------------------
// Picking and the drag spring
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcPickHit {
    bool hit;
    int body;          ///< scene body index
    double point[3];   ///< the grab point, world, m
    double distance;   ///< along the ray, m
} fcPickHit;

/// Bounding spheres of the bodies as drawn, in the body frame, per body: centre (3), radius, and the radius of
/// the shapes alone. Shapes give their extent; a body without shapes, or a point-like sphere, is drawn (and
/// picked) at minRadius.
void fcViewBounds_Compute(const fcScene* scene, double minRadius, double (*out)[5]);

/// Pick a body under the ray origin + t dir (t >= 0, dir need not be unit): the engine's ray cast against the
/// collision shapes (fcWorld_CastRayClosest), and the drawn bounding spheres (fcPick_BoundingSpheres) for
/// what it cannot see: bodies without shapes, and bodies drawn larger than their shapes (a point-like bob),
/// which win when in front of the ray cast's hit.
fcPickHit fcPick_Body(const fcScene* scene, const fcViewFrame* frame, const double (*bounds)[5], const double origin[3],
                      const double dir[3], double maxDistance);
/// The viewer's own ray test against the bounding spheres: of the spheres the ray passes through, the one
/// whose centre it passes nearest (relative to the radius), so overlapping links of a chain pick the one
/// under the cursor. The grab point is where the ray passes the centre nearest, or the centre of mass when
/// that lies outside the body's shapes (a point-like bob drawn larger: pulling off its centre would spin it).
fcPickHit fcPick_BoundingSpheres(const fcViewFrame* frame, const double (*bounds)[5], const double origin[3],
                                 const double dir[3], double maxDistance);

/// The mouse's spring on a body: force k (target - p) - c v at the grab point p (v its velocity), applied for
/// each physics step with fcBody_ApplyForce, so the joints carry it in that same step's reactions.
typedef struct fcDrag {
    bool active;
    int body;             ///< scene body index
    double local[3];      ///< the grab point in the body frame, m
    double target[3];     ///< world, m
    double stiffness;     ///< N/m: m w^2 with w = 2 pi 2 Hz, so any body follows in about 0.1 s
    double damping;       ///< N s/m: critical, 2 m w
    double force[3];      ///< the last force applied, world, N
    double point[3];      ///< where, world, m
} fcDrag;

/// Grab a dynamic body at a world point (the target starts there). False for a static or kinematic body.
bool fcDrag_Begin(fcDrag* drag, const fcScene* scene, int body, const double worldPoint[3]);
/// Compute the spring's force at the current state and apply it for the next step. No-op when inactive.
void fcDrag_Apply(fcDrag* drag, const fcScene* scene);
void fcDrag_End(fcDrag* drag);
/// The grab point's world position now.
void fcDrag_Point(const fcDrag* drag, const fcScene* scene, double out[3]);

// ---------------------------------------------------------------------------------------------------------------------
// Demos: the shipped scenes
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcDemoList {
    int count;
    char** names;  ///< file stems, sorted
    char** paths;
} fcDemoList;

/// Every *.json in dir, sorted by name. False (and a message) when the directory cannot be read.
bool fcDemoList_Scan(fcDemoList* list, const char* dir, char* err, size_t errSize);
void fcDemoList_Free(fcDemoList* list);
int fcDemoList_Find(const fcDemoList* list, const char* name);
/// One line for `view --list`: the curated line for a shipped demo, else the scene's description cut short.
void fcDemo_Describe(const char* name, const char* description, char* out, size_t size);
/// What the plot shows first for this scene (a robot arm: its joint torques).
fcPlotQuantity fcDemo_PlotQuantity(const fcScene* scene);
/// The camera's first yaw and pitch for a demo that needs its own (an incline seen edge-on otherwise).
bool fcDemo_CameraAngles(const fcScene* scene, float* yaw, float* pitch);
/// The body whose path the demo draws (the knife edge's blade), or -1.
int fcDemo_TrailBody(const fcScene* scene);
/// The bodies whose contact channels the demo's plot starts with (besides those with an exact curve), as
/// space-separated names, or NULL.
const char* fcDemo_ContactChannels(const fcScene* scene);

// ---------------------------------------------------------------------------------------------------------------------
// Meshes: interleaved position (3) + normal (3) triangles, unit-free, in the shape frame
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcMesh {
    int vertexCount;
    float* data;  ///< 6 floats per vertex
} fcMesh;

void fcMesh_Sphere(fcMesh* mesh, float radius, int slices, int stacks);
void fcMesh_Box(fcMesh* mesh, float hx, float hy, float hz);
/// Along z: a cylinder of radius r and half height h; capsule: with hemispherical caps beyond +-h.
void fcMesh_Cylinder(fcMesh* mesh, float radius, float halfHeight, int slices);
void fcMesh_Capsule(fcMesh* mesh, float radius, float halfHeight, int slices, int stacks);
/// A cone along +z from z = 0 (base radius r) to z = height.
void fcMesh_Cone(fcMesh* mesh, float radius, float height, int slices);
/// The convex hull of points (a hull shape's), flat-shaded with outward normals: every plane through three of
/// the points with all the others on one side is a face, its points fanned in order. Brute force, so at most
/// FC_MESH_HULL_MAX_POINTS points (more: their bounding box). False (an empty mesh) for degenerate points.
#define FC_MESH_HULL_MAX_POINTS 128
bool fcMesh_Hull(fcMesh* mesh, const fcVec3* points, int count);
/// A triangle mesh (a mesh shape's), flat-shaded; degenerate triangles and bad indices are skipped.
void fcMesh_Triangles(fcMesh* mesh, const fcVec3* vertices, int vertexCount, const int* indices, int triangleCount);
void fcMesh_Free(fcMesh* mesh);

/// Colour ramp for a value in [0, 1]: blue, cyan, green, yellow, red.
void fcColorRamp(double x, float rgb[3]);

#endif
