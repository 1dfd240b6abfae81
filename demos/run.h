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
/// The names the events file and the summary give the engine's events: a rope's release is "slack" and its
/// hold "taut"; contact begin/end are "begin"/"end", stick-to-slip "slip", slip-to-stick "stick".
typedef enum fcRunEventKind {
    fc_runEventBegin, fc_runEventEnd, fc_runEventRelease, fc_runEventHold, fc_runEventSlack, fc_runEventTaut,
    fc_runEventSlip, fc_runEventStick, fc_runEventSensorBegin, fc_runEventSensorEnd, fc_runEventKindCount
} fcRunEventKind;
/// The kind of an event (fc_runEventKindCount for a type it does not know).
fcRunEventKind fcRun_EventKind(const fcConstraintEvent* event);
/// "begin", "end", "release", "hold", "slack", "taut", "slip", "stick", "sensor_begin", "sensor_end" ("unknown").
const char* fcRun_EventKindName(fcRunEventKind kind);
/// One engine event as a line of JSON (with the newline): t (s, inside the step), type (fcRun_EventKindName),
/// body_a and body_b (names; "world" for the fixed frame: a joint's bodies, or the bodies of a contact's or
/// sensor's shapes), joint (its scene name; null for contacts and sensors), force_before (N), for contacts and
/// sensors point and normal (world, a to b), then position_b and velocity_b (body_b at the start of the step);
/// numbers round-trip (%.17g), a non-finite one is null.
void fcRun_WriteEventJson(FILE* f, const fcScene* scene, const fcConstraintEvent* event);

/// `fulcrum run SCENE [options]`: argv holds the words after "run".
int fcRun_Command(int argc, char** argv);
/// `fulcrum demo [options]`: the default demo scene (pendulum.json in the scene directory).
int fcRun_DemoCommand(int argc, char** argv);
/// The directory of the shipped scenes: $FULCRUM_SCENE_DIR, else the compiled-in FC_SCENE_DIR.
const char* fcRun_SceneDirectory(void);

#endif
