// SPDX-License-Identifier: MIT
// The viewer's OpenGL 3.3 core renderer: it draws one interpolated fcViewFrame, the plot buffer and the
// overlays, and owns the camera's matrices (for picking too). It reads nothing from the world but static
// geometry (shapes) and names at load time.
#ifndef FC_VIEW_RENDER_H
#define FC_VIEW_RENDER_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct fcCamera {
    float target[3];
    float yaw, pitch;  ///< rad: yaw about z from -y (front view), pitch above the horizontal
    float distance;    ///< m
    float fovY;        ///< rad
} fcCamera;

/// The eye's world position.
void fcCamera_Eye(const fcCamera* camera, double eye[3]);
/// The ray through pixel (x, y) (y down) of a scene viewport of width x height pixels: from the eye, unit dir.
/// extent: the scene's (fcRenderer_Extent), which sets the far plane.
void fcCamera_Ray(const fcCamera* camera, double extent, int width, int height, double x, double y, double origin[3],
                  double dir[3]);
/// A world point's pixel in that viewport (y down); false when it is behind the eye.
bool fcCamera_Project(const fcCamera* camera, double extent, int width, int height, const double point[3], double out[2]);

/// What one picture shows besides the frame.
typedef struct fcViewOverlay {
    const char* sceneName;
    const char* description; ///< the demo's one line (may be NULL)
    const char* status;      ///< "running x1", "paused", ...
    double realTimeFactor;   ///< simulated s per wall s
    double stepMs;           ///< wall ms per physics step (average)
    double fps;
    bool help;
    const fcViewLog* log;    ///< its newest lines are shown (may be NULL)
    const fcTrail* trail;    ///< a body's path, drawn in the scene (may be NULL)
    bool hideContacts;       ///< C: the contact points, normals, force arrows and labels left out
} fcViewOverlay;

typedef struct fcRenderer fcRenderer;

/// Compile the shaders in shaderDir (after the GL context is current and GLAD loaded). NULL and a message
/// naming the file and line on a compile or link error.
fcRenderer* fcRenderer_Create(const char* shaderDir, char* err, size_t errSize);
void fcRenderer_Destroy(fcRenderer* r);
/// Build the meshes of the scene's shapes (hulls from their points, meshes from their triangles, planes as a
/// large translucent quad with the grid in it), the arrow scale and the grid. extent, peak force and places
/// come from a short look-ahead run (see view.c); lo and hi bound the motion; places is the most arrows' places
/// drawn at once (joints and touching contacts), which shortens the arrows of a crowded scene.
void fcRenderer_SetScene(fcRenderer* r, const fcScene* scene, const double lo[3], const double hi[3], double peakForce,
                         int places);
/// Draw everything into the bound framebuffer of size width x height pixels.
void fcRenderer_Draw(fcRenderer* r, const fcScene* scene, const fcViewFrame* frame, const fcPlot* plot,
                     const fcCamera* camera, const fcViewOverlay* overlay, int width, int height);
/// Wall ms the last fcRenderer_Draw spent building the plot panel's triangles (CPU).
double fcRenderer_LastPlotMs(const fcRenderer* r);
/// Width of the scene part of a window (the plot panel takes the rest).
int fcRenderer_SceneWidth(int width);
/// The arrow scale: N per m of arrow.
double fcRenderer_NewtonsPerMeter(const fcRenderer* r);
/// The size of the motion (m), and the radius bodies without shapes and point-like spheres are drawn at.
double fcRenderer_Extent(const fcRenderer* r);
double fcRenderer_PointRadius(const fcRenderer* r);
/// The colour a force arrow of this magnitude is drawn in (before lighting), rgb.
void fcRenderer_ArrowColor(const fcRenderer* r, double magnitude, float rgb[3]);
/// Where the arrow of a contact point is drawn: from tail to tip (world, m). False when too short to draw.
bool fcRenderer_ContactArrow(const fcRenderer* r, const fcViewContact* contact, double tail[3], double tip[3]);

#endif
