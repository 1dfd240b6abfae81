// SPDX-License-Identifier: MIT
// `fulcrum run`: step a scene file headless, optionally write a CSV trace, the plot (PNG) and the events (JSON
// lines), print a reaction-force summary.
#ifndef FC_RUN_H
#define FC_RUN_H

#include "scene.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct fcRunOptions {
    const char* scenePath;
    double time;                    ///< s; <= 0: the scene's duration
    double timestep;                ///< s; <= 0: the scene's timestep
    bool overrideStabilization;
    fcStabilization stabilization;
    const char* csvPath;            ///< NULL: no CSV
    int every;                      ///< a CSV row after every K-th step (>= 1)
    const char* plotPath;           ///< NULL: no plot PNG (the viewer's plot panel of the whole run)
    const char* eventsPath;         ///< NULL: no JSON lines of the engine's events
} fcRunOptions;

/// Exit codes of the program.
enum { fc_exitOk = 0, fc_exitRunFailed = 1, fc_exitUsage = 2 };

fcRunOptions fcRun_DefaultOptions(void);
/// Parse run options from argv[0..argc-1] (the words after the command). The scene path is a positional
/// argument; sceneAllowed false refuses one (`fulcrum demo` has its own). False with a message on bad input.
bool fcRun_ParseArgs(int argc, char** argv, bool sceneAllowed, fcRunOptions* options, char* err, size_t errSize);
/// Load the scene, step it, write the CSV and print the summary to out (messages to errStream). Returns
/// fc_exitOk, fc_exitUsage (bad scene or options: nothing written) or fc_exitRunFailed (the run diverged or
/// the CSV could not be written).
int fcRun_Execute(const fcRunOptions* options, FILE* out, FILE* errStream);
/// The options part of the usage text.
void fcRun_PrintOptions(FILE* stream);
/// One engine event as a line of JSON (with the newline): type (fcEventType_GetName: "release", "hold",
/// "contact_begin", ...), joint (its scene name, else the engine's, else null), for contacts and sensors bodyA,
/// bodyB, point and normal, then time, forceBefore, positionB, velocityB; numbers round-trip (%.17g).
void fcRun_WriteEventJson(FILE* f, const fcScene* scene, const fcConstraintEvent* event);

/// `fulcrum run SCENE [options]`: argv holds the words after "run".
int fcRun_Command(int argc, char** argv);
/// `fulcrum demo [options]`: the default demo scene (pendulum.json in the scene directory).
int fcRun_DemoCommand(int argc, char** argv);
/// The directory of the shipped scenes: $FULCRUM_SCENE_DIR, else the compiled-in FC_SCENE_DIR.
const char* fcRun_SceneDirectory(void);

#endif
