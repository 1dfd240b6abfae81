// SPDX-License-Identifier: MIT
// `fulcrum view`: the interactive viewer (SDL2 window, OpenGL 3.3 core) and its headless mode; the fcViewer
// calls let a test drive the same loop with synthetic SDL events (SDL_PushEvent) and read what it shows.
#ifndef FC_VIEW_H
#define FC_VIEW_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>

/// `fulcrum view [SCENE.json|DEMO] [options]`: argv holds the words after "view".
int fcView_Command(int argc, char** argv);
/// The program's no-argument path without a display: render the default demo headless, write its
/// screenshot and plot PNGs into the current directory and print where they are.
int fcView_DefaultHeadless(void);
/// True when a window can be opened: DISPLAY or WAYLAND_DISPLAY is set.
bool fcView_HaveDisplay(void);

typedef struct fcViewer fcViewer;

/// Open the viewer on a scene file (a path: has a '/' or ends in .json) or a demo name (NULL: the default
/// demo). Headless: an offscreen framebuffer of width x height (SDL's offscreen driver without a display).
/// NULL on failure, with a message in err and the exit code in *code (2: bad scene or shaders, 1: no GL).
fcViewer* fcViewer_Open(const char* scene, bool headless, int width, int height, int* code, char* err, size_t errSize);
void fcViewer_Close(fcViewer* viewer);
/// One frame: handle the pending SDL events (keys, mouse), advance the physics by dt seconds (times the
/// slow-motion factor; nothing while paused) and draw. False once the user quit (Esc, the window closed).
bool fcViewer_Frame(fcViewer* viewer, double dt);
/// The first OpenGL error since the last call (0: none).
unsigned fcViewer_TakeGlError(fcViewer* viewer);

// What the viewer shows, for tests and tools
const fcScene* fcViewer_GetScene(const fcViewer* viewer);
/// The scene file shown.
const char* fcViewer_GetScenePath(const fcViewer* viewer);
/// The record of the last physics step (poses, reactions, events, the drag spring).
const fcViewFrame* fcViewer_GetStep(const fcViewer* viewer);
const fcPlot* fcViewer_GetPlot(const fcViewer* viewer);
const fcViewLog* fcViewer_GetLog(const fcViewer* viewer);
const fcDrag* fcViewer_GetDrag(const fcViewer* viewer);
bool fcViewer_IsPaused(const fcViewer* viewer);
/// Where a world point is drawn, in window coordinates (SDL mouse coordinates); false when behind the eye.
bool fcViewer_WorldToWindow(const fcViewer* viewer, const double point[3], double window[2]);
/// Where the last frame's wall time went, ms: stepping the physics, building the plot panel (CPU), and
/// drawing everything (the plot included; with finish set, until the GPU is done).
typedef struct fcViewerTimes {
    double physicsMs, plotMs, renderMs;
    int steps;  ///< physics steps taken in the frame
} fcViewerTimes;
fcViewerTimes fcViewer_GetTimes(const fcViewer* viewer);
/// The force arrows' scale, N per m of arrow, and the colour (rgb, before lighting) of an arrow of a magnitude.
double fcViewer_ArrowScale(const fcViewer* viewer);
void fcViewer_ArrowColor(const fcViewer* viewer, double magnitude, float rgb[3]);
/// Where the arrow of a contact point of the last step is drawn, tail to tip (world, m); false when not drawn.
bool fcViewer_ContactArrow(const fcViewer* viewer, const fcViewContact* contact, double tail[3], double tip[3]);
/// Wait for the GPU at the end of each frame (glFinish), so that renderMs holds its work too (benchmarks).
void fcViewer_SetFinish(fcViewer* viewer, bool finish);
/// The last frame drawn, RGBA, top row first (free it); headless only, NULL otherwise.
unsigned char* fcViewer_ReadPixels(fcViewer* viewer, int* width, int* height);

#endif
