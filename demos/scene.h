// SPDX-License-Identifier: MIT
// Scene files: a JSON description of a world (bodies, shapes, joints, springs) loaded through the public
// API only. The format is documented key by key in docs/scene-format.md.
#ifndef FC_SCENE_H
#define FC_SCENE_H

#include "fulcrum/fulcrum.h"

#include <stdbool.h>
#include <stddef.h>

/// A value the scene file says a joint should show (top-level "expected"): printed beside the measurement.
typedef struct fcSceneExpectation {
    int joint;             ///< index into fcScene.joints
    bool hasPeakForce;
    double peakForce;      ///< N: the exact peak |force| of the joint
    bool hasPeakMoment;
    double peakMoment;     ///< N m: the exact peak |moment| about the anchor
    char* note;            ///< where the number comes from (may be "")
} fcSceneExpectation;

typedef struct fcScene {
    fcWorldId world;               ///< null when the scene is empty (not loaded, or freed)
    char* name;                    ///< the scene's "name" (the file name without directory when absent)
    char* description;             ///< "" when absent
    double timestep;               ///< s
    double duration;               ///< s: the default run length
    fcStabilization stabilization;

    int bodyCount;                 ///< in file order
    fcBodyId* bodies;
    char** bodyNames;

    int jointCount;                ///< joints (file order), then springs (file order)
    fcJointId* joints;
    char** jointNames;
    fcJointType* jointTypes;       ///< the engine type (a "linear" joint is fc_userConstraint)
    int springCount;               ///< the last springCount entries of joints are springs


    int expectationCount;
    fcSceneExpectation* expectations;

    void* internal;                ///< loader-owned data the world's callbacks use (freed by fcScene_Free)
} fcScene;

/// Load a scene file. On failure: false, *out empty (no world), err holds one line naming the file, the
/// place (a JSON path) and the fault. err may be NULL.
bool fcScene_Load(const char* path, fcScene* out, char* err, size_t errSize);
/// Load a scene from a NUL-terminated JSON string; nameForMessages stands for the file in messages.
bool fcScene_LoadString(const char* json, const char* nameForMessages, fcScene* out, char* err, size_t errSize);
/// Destroy the world and free everything; leaves *scene empty. Safe on an empty scene.
void fcScene_Free(fcScene* scene);

/// Index of the body or joint with this name, or -1 (linear scan: for tests and tools, not for loading).
int fcScene_FindBody(const fcScene* scene, const char* name);
int fcScene_FindJoint(const fcScene* scene, const char* name);

/// Parse "baumgarte", "projection" or "none".
bool fcScene_ParseStabilization(const char* text, fcStabilization* out);
// command-line values: a finite number filling the whole word; a whole number in [lo, hi] filling the whole word
bool fcScene_ParseNumber(const char* text, double* out);
bool fcScene_ParseWhole(const char* text, long lo, long hi, long* out);
const char* fcScene_StabilizationName(fcStabilization mode);
/// The scene file's name for a joint type ("linear" for user constraints, "spring" for springs).
const char* fcScene_JointTypeName(const fcScene* scene, int jointIndex);

#endif
