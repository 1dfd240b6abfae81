// SPDX-License-Identifier: MIT
// The viewer's GL-free half: the per-step frame record the renderer draws from (poses and joint reactions,
// copied out of the world through the public API, so drawing never reads solver internals), the plot's
// time-series buffer, the table of exact curves, the demo list and the generated meshes.
#ifndef FC_VIEW_MODEL_H
#define FC_VIEW_MODEL_H

#include "scene.h"

#include <stdbool.h>
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
    double anchorA[3]; ///< body_a's anchor, world, m (for the link drawn to body_a)
    double magnitude;  ///< |force|, N
    int bodyA, bodyB;  ///< indices into the frame's bodies; -1: the world
    bool point;        ///< false for joints without a place (coupling): no anchor, link or arrow drawn
} fcViewJoint;

typedef struct fcViewFrame {
    double time;       ///< s, at the end of the step
    double stepMs;     ///< wall time of the step, ms
    int bodyCount, jointCount;
    fcViewPose* bodies;
    fcViewJoint* joints;
} fcViewFrame;

/// Allocate a frame sized for the scene (abort on out of memory).
void fcViewFrame_Init(fcViewFrame* frame, const fcScene* scene);
void fcViewFrame_Free(fcViewFrame* frame);
/// Copy the scene's current state into the frame.
void fcViewFrame_Capture(fcViewFrame* frame, const fcScene* scene, double stepMs);
/// out = a + alpha (b - a): positions and forces linearly, orientations by normalized lerp.
void fcViewFrame_Lerp(fcViewFrame* out, const fcViewFrame* a, const fcViewFrame* b, double alpha);
void fcViewFrame_Copy(fcViewFrame* out, const fcViewFrame* in);

// ---------------------------------------------------------------------------------------------------------------------
// Exact curves: one table keyed by scene name
// ---------------------------------------------------------------------------------------------------------------------

typedef double fcExactFcn(const fcScene* scene, const fcViewFrame* frame, int joint);

typedef struct fcExactCurve {
    const char* scene;   ///< scene "name"
    const char* joint;   ///< joint name
    const char* label;   ///< shown in the legend
    fcExactFcn* fcn;     ///< exact |force| in N at the frame's state
} fcExactCurve;

/// The exact curve for this scene's joint index, or NULL.
const fcExactCurve* fcExact_Find(const fcScene* scene, int joint);

// ---------------------------------------------------------------------------------------------------------------------
// Plot buffer: a ring of samples of |force| of up to FC_PLOT_MAX_SERIES joints
// ---------------------------------------------------------------------------------------------------------------------

#define FC_PLOT_MAX_SERIES 6
#define FC_PLOT_CAPACITY 4096

typedef struct fcPlot {
    int seriesCount;
    int joint[FC_PLOT_MAX_SERIES];                      ///< scene joint index of each series
    const fcExactCurve* exact[FC_PLOT_MAX_SERIES];      ///< NULL: no exact curve
    double window;                                      ///< s of history shown
    int count, head;                                    ///< ring: count samples, the oldest at head
    double t[FC_PLOT_CAPACITY];
    double value[FC_PLOT_CAPACITY][FC_PLOT_MAX_SERIES];
    double exactValue[FC_PLOT_CAPACITY][FC_PLOT_MAX_SERIES];
} fcPlot;

/// Choose the series: joints with an exact curve first, then the others in file order.
void fcPlot_Init(fcPlot* plot, const fcScene* scene);
/// Record the step that went from prev to frame. The exact value is the mean of the exact curve at both ends
/// (the step's average, as the measured multiplier is the step's impulse / h).
void fcPlot_Add(fcPlot* plot, const fcScene* scene, const fcViewFrame* prev, const fcViewFrame* frame);
/// The i-th sample, oldest first.
int fcPlot_Index(const fcPlot* plot, int i);
/// Write every sample held as CSV: t, then per series |F| and (if any) its exact value. False on a write error.
bool fcPlot_WriteCsv(const fcPlot* plot, const fcScene* scene, FILE* f);

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
void fcMesh_Free(fcMesh* mesh);

/// Colour ramp for a value in [0, 1]: blue, cyan, green, yellow, red.
void fcColorRamp(double x, float rgb[3]);

#endif
