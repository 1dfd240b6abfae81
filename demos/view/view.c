// SPDX-License-Identifier: MIT
// `fulcrum view`: physics at its fixed step, decoupled from the frame rate by an accumulator; each step's
// state is copied into a frame record (model.h) and the renderer draws the interpolation of the last two.
// Input (keys, the mouse's camera, picking and the drag spring) goes through one handler, interactive or
// headless, so synthetic SDL events drive exactly what a user's do.
#define _POSIX_C_SOURCE 200809L
#include "view.h"

#include "plot.h"
#include "render.h"
#include "run.h"

#include <SDL.h>
#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef FC_SHADER_DIR
#define FC_SHADER_DIR "shaders"
#endif

#define FC_VIEW_WIDTH 1280
#define FC_VIEW_HEIGHT 720
#define FC_DEFAULT_DEMO "pendulum"
#define FC_CLICK_PIXELS 5.0   // a press and release closer than this is a click, not a drag
#define FC_ANCHOR_PIXELS 9.0  // a click this close to a joint's anchor picks the joint

typedef struct fcViewOptions {
    const char* scene;        ///< a path, a demo name or NULL (the default demo)
    long frames;              ///< > 0: headless, this many frames of 1/60 s
    const char* screenshot;   ///< PNG of the whole window after the last frame
    const char* plotPng;      ///< PNG of the plot panel after the last frame
    const char* dumpPlot;     ///< CSV of the plot buffer after the last frame
    bool list;
} fcViewOptions;

typedef struct fcGlTarget {
    SDL_Window* window;
    SDL_GLContext context;
    GLuint fbo, color, depth;       // headless: a multisampled framebuffer ...
    GLuint resolveFbo, resolveColor;  // ... resolved into this one for reading
} fcGlTarget;

// The left button's state: a press on a joint or body is a click (plot channel) until it moves; a press on a
// dynamic body that moves becomes a drag; anywhere else a move orbits the camera.
typedef struct fcMouse {
    bool leftDown;
    double pressX, pressY;   ///< window coordinates of the press
    double moved;            ///< the farthest the cursor went from the press, window units
    int pickJoint, pickBody; ///< what the press hit (-1: nothing)
    double pickLocal[3];     ///< the grab point in the body frame at the press
    bool dragging;
    double planePoint[3], planeNormal[3];  ///< the drag target moves in this plane (facing the camera)
} fcMouse;

struct fcViewer {
    fcDemoList demos;
    int demoIndex;       ///< -1: a scene file outside the demo list
    char scenePath[4096];
    char description[256];
    fcScene scene;
    fcViewFrame prev, curr, draw;
    fcPlot* plot;
    fcViewLog log;
    fcTrail trail;
    fcDrag drag;
    double (*bounds)[5];  ///< the bodies' drawn bounding spheres (picking)
    double lo[3], hi[3], peakForce;  ///< from the look-ahead
    int places;                      ///< the most arrows' places at once (joints, touching contact pairs)
    bool hideContacts;               ///< C: contacts not drawn
    fcRenderer* renderer;
    fcCamera camera;
    fcGlTarget gl;
    bool headless;
    double accumulator, speed;
    bool paused, help, quit;
    double stepMsAverage;
    int width, height;              ///< drawable pixels
    int windowWidth, windowHeight;  ///< window coordinates (the mouse's)
    double rtf, fps, rtfWall, rtfSim, lastFrameMs;
    int rtfFrames;
    unsigned glError;
    fcMouse mouse;
    fcViewerTimes times;
    bool finish;
};

bool fcView_HaveDisplay(void)
{
    const char* x = getenv("DISPLAY");
    const char* w = getenv("WAYLAND_DISPLAY");
    return (x != NULL && x[0] != '\0') || (w != NULL && w[0] != '\0');
}

static const char* fcShaderDirectory(void)
{
    const char* dir = getenv("FULCRUM_SHADER_DIR");
    return dir != NULL && dir[0] != '\0' ? dir : FC_SHADER_DIR;
}

static double fcNowMs(void) { return 1e3 * (double)SDL_GetPerformanceCounter() / (double)SDL_GetPerformanceFrequency(); }

// ---------------------------------------------------------------------------------------------------------------------
// Scenes
// ---------------------------------------------------------------------------------------------------------------------

// Grow [lo, hi] by the world box of each of the body's shapes where it is now: the framing covers the posts,
// slopes and rails a demo draws, not only the centres of what moves.
static void fcGrowByShapes(fcBodyId body, double lo[3], double hi[3])
{
    fcVec3 x = fcBody_GetPosition(body);
    fcQuat q = fcBody_GetOrientation(body);
    for (int k = 0; k < fcBody_GetShapeCount(body); ++k) {
        fcShapeDef d = fcShape_GetDef(fcBody_GetShape(body, k));
        fcVec3 he;
        switch (d.type) {
        case fc_boxShape: he = d.halfExtents; break;
        case fc_capsuleShape: he = fcV3(d.radius, d.radius, d.halfHeight + d.radius); break;
        case fc_cylinderShape: he = fcV3(d.radius, d.radius, d.halfHeight); break;
        case fc_sphereShape: he = fcV3(d.radius, d.radius, d.radius); break;
        case fc_hullShape:
        case fc_meshShape: {  // the box of the points about the shape's origin
            const fcVec3* p = d.type == fc_hullShape ? d.points : d.vertices;
            int n = d.type == fc_hullShape ? d.pointCount : d.vertexCount;
            if (p == NULL || n <= 0) continue;
            double r = 0;
            for (int i = 0; i < n; ++i) r = fmax(r, fmax(fabs(p[i].x), fmax(fabs(p[i].y), fabs(p[i].z))));
            he = fcV3(r, r, r);
            break;
        }
        default: continue;  // a plane: unbounded, the grid shows it
        }
        fcQuat qs = fcQuat_Mul(q, d.localOrientation);
        fcVec3 c = fcVec3_Add(x, fcQuat_Rotate(q, d.localPosition));
        fcVec3 axes[3] = {fcQuat_Rotate(qs, fcV3(he.x, 0, 0)), fcQuat_Rotate(qs, fcV3(0, he.y, 0)), fcQuat_Rotate(qs, fcV3(0, 0, he.z))};
        double half[3] = {fabs(axes[0].x) + fabs(axes[1].x) + fabs(axes[2].x), fabs(axes[0].y) + fabs(axes[1].y) + fabs(axes[2].y),
                          fabs(axes[0].z) + fabs(axes[1].z) + fabs(axes[2].z)};
        double cc[3] = {c.x, c.y, c.z};
        for (int a = 0; a < 3; ++a) lo[a] = fmin(lo[a], cc[a] - half[a]), hi[a] = fmax(hi[a], cc[a] + half[a]);
    }
}

static int fcCompareDoubles(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : x > y;
}

// A short look-ahead run on a second copy of the scene: the box the motion sweeps (bodies with their shapes,
// anchors), the peak force of any arrow drawn (joint forces, a coupling's pull on both bodies, contact normal
// forces) and the most places arrows are drawn at in one step (joints, and touching contact pairs counted four
// to a place), for the camera framing and the arrow scale. A contact's impacts last a step and would shrink
// every other arrow: its peak is the 90th percentile of the steps' largest contact forces.
static void fcLookAhead(const char* path, double lo[3], double hi[3], double* peakForce, int* places)
{
    for (int k = 0; k < 3; ++k) lo[k] = INFINITY, hi[k] = -INFINITY;
    *peakForce = 0;
    *places = 0;
    fcScene s;
    if (!fcScene_Load(path, &s, NULL, 0)) return;
    *places = s.jointCount;
    fcViewFrame f;
    fcViewFrame_Init(&f, &s);
    double T = fmin(fmax(s.duration, 1.5), 4), start = fcNowMs();  // at most 300 ms of wall time
    int contactSteps = 0, contactCapacity = 0;
    double* contactPeaks = NULL;
    fcViewFrame first;  // the first step with contacts: its arrows are framed too
    fcViewFrame_Init(&first, &s);
    for (int n = 0;; ++n) {
        fcViewFrame_Capture(&f, &s, 0);
        if (f.contactCount > 0) {
            double peak = 0;
            for (int i = 0; i < f.contactCount; ++i)
                if (isfinite(f.contacts[i].force)) peak = fmax(peak, f.contacts[i].force);
            if (contactSteps == contactCapacity) {
                contactCapacity = contactCapacity ? 2 * contactCapacity : 256;
                double* bigger = realloc(contactPeaks, (size_t)contactCapacity * sizeof *bigger);
                if (bigger == NULL) abort();
                contactPeaks = bigger;
            }
            if (contactSteps == 0) fcViewFrame_Copy(&first, &f);
            contactPeaks[contactSteps++] = peak;
            // a pair's points (up to 4) sit together, in one place: four pairs count as one joint
            if (s.jointCount + f.manifoldCount / 4 > *places) *places = s.jointCount + f.manifoldCount / 4;
        }
        for (int i = 0; i < f.bodyCount; ++i) {
            for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], f.bodies[i].p[k]), hi[k] = fmax(hi[k], f.bodies[i].p[k]);
            if (n == 0 || fcBody_GetType(s.bodies[i]) != fc_staticBody) fcGrowByShapes(s.bodies[i], lo, hi);
        }
        for (int j = 0; j < f.jointCount; ++j) {
            const fcViewJoint* v = f.joints + j;
            if (v->point)
                for (int k = 0; k < 3; ++k) {
                    lo[k] = fmin(lo[k], fmin(v->anchor[k], v->anchorA[k]));
                    hi[k] = fmax(hi[k], fmax(v->anchor[k], v->anchorA[k]));
                }
            double fa = sqrt(v->forceA[0] * v->forceA[0] + v->forceA[1] * v->forceA[1] + v->forceA[2] * v->forceA[2]);
            double peak = v->point ? v->magnitude : fmax(v->magnitude, fa);
            if (n > 0 && isfinite(peak)) *peakForce = fmax(*peakForce, peak);
        }
        if (f.time >= T || fcNowMs() - start > 300 || !fcWorld_Step(s.world)) break;
    }
    if (contactSteps > 0) {
        qsort(contactPeaks, (size_t)contactSteps, sizeof *contactPeaks, fcCompareDoubles);
        *peakForce = fmax(*peakForce, contactPeaks[(int)(0.9 * (contactSteps - 1))]);
        // the contact arrows of the first and the last step, about as long as the renderer will draw them
        // (fcRenderer_SetScene: the peak a quarter of the extent, less when crowded), on either side of the point
        double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
        double extent = fmax(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 0.1);
        double crowd = *places > 4 ? 2 / sqrt((double)*places) : 1, perNewton = 0.25 * extent * crowd / *peakForce;
        const fcViewFrame* frames[2] = {&first, &f};
        double glo[3], ghi[3];
        memcpy(glo, lo, sizeof glo), memcpy(ghi, hi, sizeof ghi);
        for (int k = 0; k < 2; ++k)
            for (int i = 0; i < frames[k]->contactCount; ++i) {
                const fcViewContact* c = frames[k]->contacts + i;
                double l = fmin(c->force, *peakForce) * perNewton;
                for (int a = 0; a < 3; ++a) {
                    glo[a] = fmin(glo[a], fmin(c->point[a] - l * c->normal[a], c->point[a] + l * c->normal[a]));
                    ghi[a] = fmax(ghi[a], fmax(c->point[a] - l * c->normal[a], c->point[a] + l * c->normal[a]));
                }
            }
        memcpy(lo, glo, sizeof glo), memcpy(hi, ghi, sizeof ghi);
    }
    free(contactPeaks);
    fcViewFrame_Free(&first);
    fcViewFrame_Free(&f);
    fcScene_Free(&s);
}

static void fcFitCamera(fcViewer* v)
{
    fcCamera* c = &v->camera;
    double r = 0;
    for (int k = 0; k < 3; ++k) {
        c->target[k] = (float)(0.5 * (v->lo[k] + v->hi[k]));
        r += (v->hi[k] - v->lo[k]) * (v->hi[k] - v->lo[k]);
    }
    r = fmax(0.5 * sqrt(r), 0.15);
    c->fovY = (float)(40 * 3.14159265358979 / 180);
    c->yaw = -0.35f;
    c->pitch = 0.22f;
    fcDemo_CameraAngles(&v->scene, &c->yaw, &c->pitch);
    double aspect = (double)fcRenderer_SceneWidth(v->width) / v->height;
    double half = fmin(c->fovY / 2, atan(tan(c->fovY / 2) * aspect));
    c->distance = (float)(1.12 * r / sin(half));
}

static void fcResetRun(fcViewer* v)
{
    v->accumulator = 0;
    fcDrag_End(&v->drag);
    memset(&v->mouse, 0, sizeof v->mouse);
    v->mouse.pickJoint = v->mouse.pickBody = -1;
    fcViewFrame_Capture(&v->curr, &v->scene, 0);
    fcViewFrame_Copy(&v->prev, &v->curr);
    fcPlot_Init(v->plot, &v->scene);  // empty until the first step: before it no joint has reacted
    fcTrail_Init(&v->trail, &v->scene);
    fcTrail_Add(&v->trail, &v->curr);
}

static void fcUnloadScene(fcViewer* v)
{
    fcViewFrame_Free(&v->prev);
    fcViewFrame_Free(&v->curr);
    fcViewFrame_Free(&v->draw);
    free(v->bounds);
    v->bounds = NULL;
    fcScene_Free(&v->scene);
}

// Hand the loaded scene to the renderer (meshes, arrow scale) and size the picking spheres to what it draws.
static void fcAttachRenderer(fcViewer* v, bool keepCamera)
{
    if (v->renderer == NULL) return;
    fcRenderer_SetScene(v->renderer, &v->scene, v->lo, v->hi, v->peakForce, v->places);
    fcViewBounds_Compute(&v->scene, fcRenderer_PointRadius(v->renderer), v->bounds);
    if (!keepCamera) fcFitCamera(v);
}

// Load (or reload) v->scenePath. keepCamera: R keeps the user's view.
static bool fcLoadScene(fcViewer* v, bool keepCamera, char* err, size_t errSize)
{
    fcScene scene;
    if (!fcScene_Load(v->scenePath, &scene, err, errSize)) return false;
    fcUnloadScene(v);
    v->scene = scene;
    fcViewFrame_Init(&v->prev, &scene);
    fcViewFrame_Init(&v->curr, &scene);
    fcViewFrame_Init(&v->draw, &scene);
    v->bounds = calloc((size_t)(scene.bodyCount ? scene.bodyCount : 1), sizeof *v->bounds);
    if (v->bounds == NULL) abort();
    fcLookAhead(v->scenePath, v->lo, v->hi, &v->peakForce, &v->places);
    if (!(v->lo[0] <= v->hi[0]))
        for (int k = 0; k < 3; ++k) v->lo[k] = -1, v->hi[k] = 1;
    const char* stem = v->demoIndex >= 0 ? v->demos.names[v->demoIndex] : scene.name;
    fcDemo_Describe(stem, scene.description, v->description, sizeof v->description);
    fcAttachRenderer(v, keepCamera);
    fcResetRun(v);
    fcViewLog_Add(&v->log, "%s %s", keepCamera ? "reset" : "loaded", scene.name);
    return true;
}

// One fixed step of the world, recorded: the drag spring's force goes in first, so this step's reactions
// carry it.
static bool fcStepOnce(fcViewer* v)
{
    fcDrag_Apply(&v->drag, &v->scene);
    double t0 = fcNowMs();
    if (!fcWorld_Step(v->scene.world)) {
        if (!v->paused) fcViewLog_Add(&v->log, "step refused: %s (paused)", fcGetLastError());
        v->paused = true;
        return false;
    }
    double ms = fcNowMs() - t0;
    v->stepMsAverage = v->stepMsAverage > 0 ? 0.95 * v->stepMsAverage + 0.05 * ms : ms;
    fcViewFrame_Copy(&v->prev, &v->curr);
    fcViewFrame_Capture(&v->curr, &v->scene, ms);
    if (v->drag.active) {
        fcViewDragState* d = &v->curr.drag;
        d->active = true;
        d->body = v->drag.body;
        fcDrag_Point(&v->drag, &v->scene, d->point);
        memcpy(d->target, v->drag.target, sizeof d->target);
        memcpy(d->force, v->drag.force, sizeof d->force);
    }
    fcPlot_Add(v->plot, &v->scene, &v->prev, &v->curr);
    fcTrail_Add(&v->trail, &v->curr);
    for (int k = 0; k < v->curr.eventCount; ++k) {
        char line[128];
        fcViewEvent_Describe(v->curr.events + k, line, sizeof line);
        fcViewLog_Add(&v->log, "%s", line);
    }
    if (v->curr.eventsLost > 0) fcViewLog_Add(&v->log, "(%d more events in this step)", v->curr.eventsLost);
    return true;
}

// Advance the simulation by dt of simulated time through the accumulator; returns the time advanced.
static double fcAdvance(fcViewer* v, double dt)
{
    double h = fcWorld_GetTimestep(v->scene.world), before = v->curr.time;
    v->accumulator += dt;
    // interactive: never more than 50 ms of a frame on physics (no spiral of death); headless: every step
    double budget = fcNowMs() + 50;
    while (v->accumulator >= h - 1e-12 * h) {
        if (!fcStepOnce(v)) break;
        v->accumulator -= h;
        if (!v->headless && fcNowMs() > budget) {
            v->accumulator = fmod(v->accumulator, h);
            break;
        }
    }
    if (v->accumulator < 0) v->accumulator = 0;
    return v->curr.time - before;
}

static void fcInterpolate(fcViewer* v)
{
    double h = fcWorld_GetTimestep(v->scene.world);
    double alpha = v->paused ? 1 : fmin(fmax(v->accumulator / h, 0), 1);
    fcViewFrame_Lerp(&v->draw, &v->prev, &v->curr, alpha);
}

// ---------------------------------------------------------------------------------------------------------------------
// Window and GL
// ---------------------------------------------------------------------------------------------------------------------

static bool fcOpenWindow(fcGlTarget* g, int width, int height, bool headless, char* err, size_t errSize)
{
    memset(g, 0, sizeof *g);
    if (headless && !fcView_HaveDisplay() && getenv("SDL_VIDEODRIVER") == NULL)
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(err, errSize, "cannot start SDL video: %s%s", SDL_GetError(),
                 headless ? "" : " (no display? try --frames N --screenshot out.png, or xvfb-run)");
        return false;
    }
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    if (!headless) {
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 1);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 4);
    }
    Uint32 flags = SDL_WINDOW_OPENGL | (headless ? SDL_WINDOW_HIDDEN : SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    g->window = SDL_CreateWindow("Fulcrum viewer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
    if (g->window == NULL && !headless) {  // no multisampling available: try without
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLEBUFFERS, 0);
        SDL_GL_SetAttribute(SDL_GL_MULTISAMPLESAMPLES, 0);
        g->window = SDL_CreateWindow("Fulcrum viewer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
    }
    if (g->window == NULL) {
        snprintf(err, errSize, "cannot open a window: %s", SDL_GetError());
        return false;
    }
    g->context = SDL_GL_CreateContext(g->window);
    if (g->context == NULL) {
        snprintf(err, errSize, "cannot create an OpenGL 3.3 core context: %s", SDL_GetError());
        return false;
    }
    if (gladLoadGL((GLADloadfunc)SDL_GL_GetProcAddress) == 0) {
        snprintf(err, errSize, "cannot load the OpenGL functions (GLAD)");
        return false;
    }
    if (!headless) {
        SDL_GL_SetSwapInterval(1);
        return true;
    }
    GLint samples = 0;
    glGetIntegerv(GL_MAX_SAMPLES, &samples);
    samples = samples >= 4 ? 4 : samples;
    glGenFramebuffers(1, &g->fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    glGenRenderbuffers(1, &g->color);
    glBindRenderbuffer(GL_RENDERBUFFER, g->color);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->color);
    glGenRenderbuffers(1, &g->depth);
    glBindRenderbuffer(GL_RENDERBUFFER, g->depth);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples, GL_DEPTH_COMPONENT24, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, g->depth);
    bool ok = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glGenFramebuffers(1, &g->resolveFbo);
    glBindFramebuffer(GL_FRAMEBUFFER, g->resolveFbo);
    glGenRenderbuffers(1, &g->resolveColor);
    glBindRenderbuffer(GL_RENDERBUFFER, g->resolveColor);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, g->resolveColor);
    ok = ok && glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    if (!ok) snprintf(err, errSize, "cannot create the offscreen framebuffer");
    return ok;
}

static void fcCloseWindow(fcGlTarget* g)
{
    if (g->context != NULL) {
        if (g->fbo) glDeleteFramebuffers(1, &g->fbo);
        if (g->resolveFbo) glDeleteFramebuffers(1, &g->resolveFbo);
        if (g->color) glDeleteRenderbuffers(1, &g->color);
        if (g->depth) glDeleteRenderbuffers(1, &g->depth);
        if (g->resolveColor) glDeleteRenderbuffers(1, &g->resolveColor);
        SDL_GL_DeleteContext(g->context);
    }
    if (g->window != NULL) SDL_DestroyWindow(g->window);
    SDL_Quit();
}

// Read the resolved headless picture, top row first.
static unsigned char* fcReadPixels(fcGlTarget* g, int width, int height)
{
    glBindFramebuffer(GL_READ_FRAMEBUFFER, g->fbo);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, g->resolveFbo);
    glBlitFramebuffer(0, 0, width, height, 0, 0, width, height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, g->resolveFbo);
    unsigned char* pixels = malloc((size_t)width * (size_t)height * 4);
    unsigned char* flipped = malloc((size_t)width * (size_t)height * 4);
    if (pixels == NULL || flipped == NULL) abort();
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    for (int y = 0; y < height; ++y)
        memcpy(flipped + (size_t)y * width * 4, pixels + (size_t)(height - 1 - y) * width * 4, (size_t)width * 4);
    free(pixels);
    for (size_t i = 3; i < (size_t)width * height * 4; i += 4) flipped[i] = 255;
    glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
    return flipped;
}

// Write the whole of a picture (top row first), or the columns x0.. of it.
static bool fcWritePng(const char* path, const unsigned char* rgba, int width, int height, int x0)
{
    int w = width - x0;
    return stbi_write_png(path, w, height, 4, rgba + 4 * x0, 4 * width) != 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Input: keys, camera, picking and the drag spring
// ---------------------------------------------------------------------------------------------------------------------

static double fcDot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

// Window coordinates -> drawable pixels (they differ on high-DPI displays).
static void fcToPixels(const fcViewer* v, double wx, double wy, double* px, double* py)
{
    *px = wx * v->width / (v->windowWidth > 0 ? v->windowWidth : v->width);
    *py = wy * v->height / (v->windowHeight > 0 ? v->windowHeight : v->height);
}

static void fcMouseRay(const fcViewer* v, double wx, double wy, double origin[3], double dir[3])
{
    double px, py;
    fcToPixels(v, wx, wy, &px, &py);
    fcCamera_Ray(&v->camera, fcRenderer_Extent(v->renderer), fcRenderer_SceneWidth(v->width), v->height, px, py, origin, dir);
}

bool fcViewer_WorldToWindow(const fcViewer* v, const double p[3], double out[2])
{
    double px[2];
    if (!fcCamera_Project(&v->camera, fcRenderer_Extent(v->renderer), fcRenderer_SceneWidth(v->width), v->height, p, px))
        return false;
    out[0] = px[0] * (v->windowWidth > 0 ? v->windowWidth : v->width) / v->width;
    out[1] = px[1] * (v->windowHeight > 0 ? v->windowHeight : v->height) / v->height;
    return true;
}

// The joint whose anchor is drawn within FC_ANCHOR_PIXELS of the cursor (the nearest), or -1.
static int fcPickJoint(const fcViewer* v, double wx, double wy)
{
    int best = -1;
    double bestD = FC_ANCHOR_PIXELS;
    for (int j = 0; j < v->draw.jointCount; ++j) {
        const fcViewJoint* jt = v->draw.joints + j;
        double w[2];
        if (!jt->point || !fcViewer_WorldToWindow(v, jt->anchor, w)) continue;
        double d = hypot(w[0] - wx, w[1] - wy);
        if (d < bestD) bestD = d, best = j;
    }
    return best;
}

// A body's plot channel: the joint that holds it as body_b (the force on it), else one it is body_a of.
static int fcBodyChannel(const fcViewer* v, int body)
{
    for (int pass = 0; pass < 2; ++pass)
        for (int j = 0; j < v->curr.jointCount; ++j)
            if ((pass == 0 ? v->curr.joints[j].bodyB : v->curr.joints[j].bodyA) == body) return j;
    return -1;
}

// A body without a joint to plot: its contact channel (the total contact force on it).
static void fcToggleContactChannel(fcViewer* v, int body)
{
    int r = fcPlot_ToggleBody(v->plot, &v->scene, body);
    const char* name = v->scene.bodyNames[body];
    if (r > 0) fcViewLog_Add(&v->log, "plot: + %s contacts (clicked it)", name);
    else if (r < 0) fcViewLog_Add(&v->log, "plot: - %s contacts (clicked it)", name);
    else fcViewLog_Add(&v->log, "plot full (%d channels): click one to remove it", FC_PLOT_MAX_SERIES);
}

static void fcToggleChannel(fcViewer* v, int joint, const char* why)
{
    if (joint < 0) {
        fcViewLog_Add(&v->log, "%s: no joint to plot", why);
        return;
    }
    int r = fcPlot_Toggle(v->plot, &v->scene, joint);
    const char* name = v->scene.jointNames[joint];
    if (r > 0) fcViewLog_Add(&v->log, "plot: + %s (%s)", name, why);
    else if (r < 0) fcViewLog_Add(&v->log, "plot: - %s (%s)", name, why);
    else fcViewLog_Add(&v->log, "plot full (%d channels): click one to remove it", FC_PLOT_MAX_SERIES);
}

static void fcUpdateDragTarget(fcViewer* v, double wx, double wy)
{
    double o[3], d[3];
    fcMouseRay(v, wx, wy, o, d);
    double den = fcDot3(d, v->mouse.planeNormal);
    if (fabs(den) < 1e-6) return;  // the ray runs along the plane
    double diff[3] = {v->mouse.planePoint[0] - o[0], v->mouse.planePoint[1] - o[1], v->mouse.planePoint[2] - o[2]};
    double t = fcDot3(diff, v->mouse.planeNormal) / den;
    if (t <= 0) return;
    for (int k = 0; k < 3; ++k) v->drag.target[k] = o[k] + t * d[k];
}

static void fcMousePress(fcViewer* v, double wx, double wy)
{
    fcMouse* m = &v->mouse;
    memset(m, 0, sizeof *m);
    m->leftDown = true;
    m->pressX = wx, m->pressY = wy;
    m->pickJoint = m->pickBody = -1;
    double px, py;
    fcToPixels(v, wx, wy, &px, &py);
    if (px >= fcRenderer_SceneWidth(v->width)) return;  // in the plot panel
    m->pickJoint = fcPickJoint(v, wx, wy);
    if (m->pickJoint >= 0) return;
    double o[3], d[3];
    fcMouseRay(v, wx, wy, o, d);
    fcPickHit hit = fcPick_Body(&v->scene, &v->curr, (const double(*)[5])v->bounds, o, d, 1e3 * fcRenderer_Extent(v->renderer));
    if (!hit.hit) return;
    m->pickBody = hit.body;
    fcVec3 local = fcBody_GetLocalPoint(v->scene.bodies[hit.body], fcV3(hit.point[0], hit.point[1], hit.point[2]));
    m->pickLocal[0] = local.x, m->pickLocal[1] = local.y, m->pickLocal[2] = local.z;
}

static void fcMouseMove(fcViewer* v, const SDL_MouseMotionEvent* e)
{
    fcMouse* m = &v->mouse;
    fcCamera* c = &v->camera;
    if ((e->state & SDL_BUTTON_LMASK) && m->leftDown) {
        m->moved = fmax(m->moved, hypot(e->x - m->pressX, e->y - m->pressY));
        if (!m->dragging && m->moved >= FC_CLICK_PIXELS && m->pickBody >= 0) {
            // a press on a body that moves: grab the point pressed (where it is now) with the spring
            fcBodyId id = v->scene.bodies[m->pickBody];
            fcVec3 p = fcBody_GetWorldPoint(id, fcV3(m->pickLocal[0], m->pickLocal[1], m->pickLocal[2]));
            double pw[3] = {p.x, p.y, p.z};
            if (fcDrag_Begin(&v->drag, &v->scene, m->pickBody, pw)) {
                m->dragging = true;
                double eye[3];
                fcCamera_Eye(c, eye);
                // the target moves in the plane through the grabbed point that faces the camera
                for (int k = 0; k < 3; ++k) m->planePoint[k] = pw[k], m->planeNormal[k] = c->target[k] - eye[k];
                double n = sqrt(fcDot3(m->planeNormal, m->planeNormal));
                for (int k = 0; k < 3; ++k) m->planeNormal[k] /= n > 0 ? n : 1;
                fcViewLog_Add(&v->log, "dragging %s (spring %.3g N/m)", v->scene.bodyNames[m->pickBody], v->drag.stiffness);
            } else {
                m->pickBody = -1;  // static or kinematic: the move orbits instead
            }
        }
        if (m->dragging) {
            fcUpdateDragTarget(v, e->x, e->y);
        } else if (m->moved >= FC_CLICK_PIXELS) {
            c->yaw += 0.008f * (float)e->xrel;
            c->pitch += 0.008f * (float)e->yrel;
            c->pitch = fminf(fmaxf(c->pitch, -1.5f), 1.5f);
        }
    } else if (e->state & (SDL_BUTTON_RMASK | SDL_BUTTON_MMASK)) {
        // pan in the view plane: right = (cos yaw, sin yaw, 0), up = the camera's up
        float k = c->distance * 0.0015f, cy = cosf(c->yaw), sy = sinf(c->yaw);
        float cp = cosf(c->pitch), sp = sinf(c->pitch);
        float dx = -(float)e->xrel * k, dy = (float)e->yrel * k;
        c->target[0] += dx * cy + dy * (-sp * sy);
        c->target[1] += dx * sy + dy * (sp * cy);
        c->target[2] += dy * cp;
    }
}

static void fcMouseRelease(fcViewer* v)
{
    fcMouse* m = &v->mouse;
    if (!m->leftDown) return;
    if (m->dragging) {
        fcViewLog_Add(&v->log, "let go of %s", v->scene.bodyNames[v->drag.body]);
        fcDrag_End(&v->drag);
    } else if (m->moved < FC_CLICK_PIXELS) {
        if (m->pickJoint >= 0) fcToggleChannel(v, m->pickJoint, "clicked its anchor");
        else if (m->pickBody >= 0 && fcBodyChannel(v, m->pickBody) < 0) fcToggleContactChannel(v, m->pickBody);
        else if (m->pickBody >= 0) fcToggleChannel(v, fcBodyChannel(v, m->pickBody), v->scene.bodyNames[m->pickBody]);
    }
    memset(m, 0, sizeof *m);
    m->pickJoint = m->pickBody = -1;
}

static void fcSwitchDemo(fcViewer* v, int delta)
{
    if (v->demos.count == 0) return;
    int start = v->demoIndex >= 0 ? v->demoIndex : (delta > 0 ? -1 : 0);
    int next = ((start + delta) % v->demos.count + v->demos.count) % v->demos.count;
    char saved[4096], err[1024];
    int savedIndex = v->demoIndex;
    snprintf(saved, sizeof saved, "%s", v->scenePath);
    snprintf(v->scenePath, sizeof v->scenePath, "%s", v->demos.paths[next]);
    v->demoIndex = next;
    if (!fcLoadScene(v, false, err, sizeof err)) {
        fprintf(stderr, "fulcrum view: %s\n", err);
        fcViewLog_Add(&v->log, "cannot load %s (see the terminal)", v->demos.names[next]);
        snprintf(v->scenePath, sizeof v->scenePath, "%s", saved);
        v->demoIndex = savedIndex;
    }
}

static void fcHandleKey(fcViewer* v, SDL_Keycode key)
{
    static const char* const quantities[fc_plotQuantityCount] = {"|F|, the force on body b", "|M|, the moment about the anchor",
                                                                  "the force's world components"};
    char err[1024];
    switch (key) {
    case SDLK_ESCAPE: v->quit = true; break;
    case SDLK_SPACE: v->paused = !v->paused; break;
    case SDLK_s:
        v->paused = true;
        v->accumulator = 0;
        fcStepOnce(v);
        break;
    case SDLK_1: v->speed = 1; break;
    case SDLK_2: v->speed = 0.5; break;
    case SDLK_3: v->speed = 0.25; break;
    case SDLK_4: v->speed = 0.1; break;
    case SDLK_r:
        if (!fcLoadScene(v, true, err, sizeof err)) fprintf(stderr, "fulcrum view: %s\n", err);
        break;
    case SDLK_n: fcSwitchDemo(v, 1); break;
    case SDLK_p: fcSwitchDemo(v, -1); break;
    case SDLK_h: v->help = !v->help; break;
    case SDLK_c:
        v->hideContacts = !v->hideContacts;
        fcViewLog_Add(&v->log, "contacts %s", v->hideContacts ? "hidden" : "shown");
        break;
    case SDLK_f:
        v->plot->quantity = (fcPlotQuantity)((v->plot->quantity + 1) % fc_plotQuantityCount);
        fcViewLog_Add(&v->log, "plot: %s", quantities[v->plot->quantity]);
        break;
    default: break;
    }
}

static void fcHandleEvent(fcViewer* v, const SDL_Event* e)
{
    switch (e->type) {
    case SDL_QUIT: v->quit = true; break;
    case SDL_KEYDOWN: fcHandleKey(v, e->key.keysym.sym); break;
    case SDL_MOUSEBUTTONDOWN:
        if (e->button.button == SDL_BUTTON_LEFT) fcMousePress(v, e->button.x, e->button.y);
        break;
    case SDL_MOUSEBUTTONUP:
        if (e->button.button == SDL_BUTTON_LEFT) fcMouseRelease(v);
        break;
    case SDL_MOUSEMOTION: fcMouseMove(v, &e->motion); break;
    case SDL_MOUSEWHEEL: v->camera.distance *= powf(0.9f, (float)e->wheel.y); break;
    default: break;
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// The viewer
// ---------------------------------------------------------------------------------------------------------------------

// Pick the scene: a path (has a '/' or ends in .json) or a demo name.
static bool fcResolveScene(fcViewer* v, const char* arg, char* err, size_t errSize)
{
    if (arg == NULL) arg = FC_DEFAULT_DEMO;
    size_t n = strlen(arg);
    bool isPath = strchr(arg, '/') != NULL || (n > 5 && strcmp(arg + n - 5, ".json") == 0);
    v->demoIndex = isPath ? -1 : fcDemoList_Find(&v->demos, arg);
    if (!isPath && v->demoIndex < 0) {
        snprintf(err, errSize, "no demo named \"%s\" (`fulcrum view --list` shows them; a scene file needs a path)", arg);
        return false;
    }
    snprintf(v->scenePath, sizeof v->scenePath, "%s", isPath ? arg : v->demos.paths[v->demoIndex]);
    return true;
}

static void fcStatus(const fcViewer* v, char* out, size_t size)
{
    static const char* const speeds[] = {"x1", "x1/2", "x1/4", "x1/10"};
    int k = v->speed > 0.75 ? 0 : v->speed > 0.375 ? 1 : v->speed > 0.175 ? 2 : 3;
    snprintf(out, size, "%s %s", v->paused ? "paused" : "running", speeds[k]);
}

fcViewer* fcViewer_Open(const char* scene, bool headless, int width, int height, int* code, char* err, size_t errSize)
{
    fcViewer* v = calloc(1, sizeof *v);
    if (v == NULL) abort();
    v->plot = calloc(1, sizeof *v->plot);  // the plot buffer is large: on the heap
    if (v->plot == NULL) abort();
    v->speed = 1;
    v->headless = headless;
    v->width = v->windowWidth = width > 0 ? width : FC_VIEW_WIDTH;
    v->height = v->windowHeight = height > 0 ? height : FC_VIEW_HEIGHT;
    *code = fc_exitUsage;
    char scanErr[1024];
    bool scanned = fcDemoList_Scan(&v->demos, fcRun_SceneDirectory(), scanErr, sizeof scanErr);
    // the scene first: a bad one exits 2 before any window opens (a path needs no demo directory)
    if (!scanned && (scene == NULL || (strchr(scene, '/') == NULL && strstr(scene, ".json") == NULL))) {
        snprintf(err, errSize, "%s", scanErr);
        goto fail;
    }
    if (!fcResolveScene(v, scene, err, errSize) || !fcLoadScene(v, false, err, errSize)) goto fail;
    if (!fcOpenWindow(&v->gl, v->width, v->height, headless, err, errSize)) {
        *code = fc_exitRunFailed;
        goto fail;
    }
    v->renderer = fcRenderer_Create(fcShaderDirectory(), err, errSize);
    if (v->renderer == NULL) goto fail;  // a broken shader: exit 2 with the file and line
    fcAttachRenderer(v, false);
    v->lastFrameMs = fcNowMs();
    *code = fc_exitOk;
    return v;
fail:
    fcViewer_Close(v);
    return NULL;
}

void fcViewer_Close(fcViewer* v)
{
    if (v == NULL) return;
    fcRenderer_Destroy(v->renderer);
    fcCloseWindow(&v->gl);
    fcUnloadScene(v);
    fcDemoList_Free(&v->demos);
    free(v->plot);
    free(v);
}

bool fcViewer_Frame(fcViewer* v, double dt)
{
    SDL_Event e;
    while (SDL_PollEvent(&e)) fcHandleEvent(v, &e);
    if (v->quit) return false;
    double t0 = fcNowMs();
    long long stepsBefore = llround(v->curr.time / fcWorld_GetTimestep(v->scene.world));
    double sim = v->paused ? 0 : fcAdvance(v, dt * v->speed);
    double now = fcNowMs();
    v->times.physicsMs = now - t0;
    v->times.steps = (int)(llround(v->curr.time / fcWorld_GetTimestep(v->scene.world)) - stepsBefore);
    v->rtfWall += (now - v->lastFrameMs) / 1e3, v->rtfSim += sim, ++v->rtfFrames;
    v->lastFrameMs = now;
    if (v->rtfWall > 0.5 || v->rtfFrames >= 30) {  // twice a second, or every 30 frames when faster
        v->rtf = v->rtfSim / v->rtfWall, v->fps = v->rtfFrames / v->rtfWall;
        v->rtfWall = v->rtfSim = 0, v->rtfFrames = 0;
    }
    fcInterpolate(v);
    if (!v->headless) {
        int w, h;
        SDL_GL_GetDrawableSize(v->gl.window, &w, &h);
        SDL_GetWindowSize(v->gl.window, &v->windowWidth, &v->windowHeight);
        v->width = w > 0 ? w : 1, v->height = h > 0 ? h : 1;
    }
    char status[64];
    fcStatus(v, status, sizeof status);
    fcViewOverlay overlay = {v->scene.name, v->description, status, v->rtf, v->stepMsAverage, v->fps, v->help, &v->log,
                             v->trail.body >= 0 ? &v->trail : NULL, v->hideContacts};
    glBindFramebuffer(GL_FRAMEBUFFER, v->headless ? v->gl.fbo : 0);
    double r0 = fcNowMs();
    fcRenderer_Draw(v->renderer, &v->scene, &v->draw, v->plot, &v->camera, &overlay, v->width, v->height);
    if (v->finish) glFinish();
    v->times.renderMs = fcNowMs() - r0;
    v->times.plotMs = fcRenderer_LastPlotMs(v->renderer);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR && v->glError == 0) v->glError = err;
    if (!v->headless) SDL_GL_SwapWindow(v->gl.window);
    return true;
}

unsigned fcViewer_TakeGlError(fcViewer* v)
{
    unsigned e = v->glError;
    v->glError = 0;
    return e;
}

const fcScene* fcViewer_GetScene(const fcViewer* v) { return &v->scene; }
const char* fcViewer_GetScenePath(const fcViewer* v) { return v->scenePath; }
const fcViewFrame* fcViewer_GetStep(const fcViewer* v) { return &v->curr; }
const fcPlot* fcViewer_GetPlot(const fcViewer* v) { return v->plot; }
const fcViewLog* fcViewer_GetLog(const fcViewer* v) { return &v->log; }
const fcDrag* fcViewer_GetDrag(const fcViewer* v) { return &v->drag; }
bool fcViewer_IsPaused(const fcViewer* v) { return v->paused; }
fcViewerTimes fcViewer_GetTimes(const fcViewer* v) { return v->times; }
void fcViewer_SetFinish(fcViewer* v, bool finish) { v->finish = finish; }
double fcViewer_ArrowScale(const fcViewer* v) { return fcRenderer_NewtonsPerMeter(v->renderer); }
void fcViewer_ArrowColor(const fcViewer* v, double magnitude, float rgb[3]) { fcRenderer_ArrowColor(v->renderer, magnitude, rgb); }
bool fcViewer_ContactArrow(const fcViewer* v, const fcViewContact* c, double tail[3], double tip[3])
{
    return fcRenderer_ContactArrow(v->renderer, c, tail, tip);
}

unsigned char* fcViewer_ReadPixels(fcViewer* v, int* width, int* height)
{
    if (!v->headless) return NULL;
    glFinish();
    *width = v->width, *height = v->height;
    return fcReadPixels(&v->gl, v->width, v->height);
}

// ---------------------------------------------------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------------------------------------------------

static void fcViewUsage(FILE* f)
{
    fprintf(f,
            "usage: fulcrum view [SCENE.json|DEMO] [options]   (no scene: the %s demo)\n"
            "  --list             print the built-in demos (name TAB description) and exit\n"
            "  --frames N         headless: render N frames offscreen (each advances the physics 1/60 s), then exit\n"
            "  --screenshot FILE  headless: write the last frame as PNG\n"
            "  --plot-png FILE    headless: write the plot panel of the last frame as PNG\n"
            "  --dump-plot FILE   headless: write the plot's data buffer as CSV (t, |F| per joint, exact curves)\n"
            "Headless without a display uses SDL's offscreen driver (EGL); xvfb-run works too.\n"
            "Shaders are read from %s (override with FULCRUM_SHADER_DIR).\n"
            "Keys: space pause/run, S step, 1/2/3/4 speed 1, 1/2, 1/4, 1/10, R reset, N/P next/previous demo,\n"
            "      F plot |F|, |M| or components, C contacts on/off, H help, Esc quit. Mouse: left drag on a body\n"
            "      pulls it with a spring, elsewhere orbits; a click on a joint or body adds or removes its plot\n"
            "      channel (a body without joints: its contact force); right drag pans, the wheel zooms.\n",
            FC_DEFAULT_DEMO, fcShaderDirectory());
}

static bool fcParseViewArgs(int argc, char** argv, fcViewOptions* o, char* err, size_t errSize)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; ++i) {
        const char* a = argv[i];
        const char** target = NULL;
        if (strcmp(a, "--list") == 0) {
            o->list = true;
            continue;
        }
        if (a[0] != '-') {
            if (o->scene != NULL) {
                snprintf(err, errSize, "more than one scene (\"%s\" and \"%s\")", o->scene, a);
                return false;
            }
            o->scene = a;
            continue;
        }
        if (strcmp(a, "--frames") == 0) {
        } else if (strcmp(a, "--screenshot") == 0) {
            target = &o->screenshot;
        } else if (strcmp(a, "--plot-png") == 0) {
            target = &o->plotPng;
        } else if (strcmp(a, "--dump-plot") == 0) {
            target = &o->dumpPlot;
        } else {
            snprintf(err, errSize, "unknown option \"%s\"", a);
            return false;
        }
        if (i + 1 >= argc || argv[i + 1][0] == '\0') {
            snprintf(err, errSize, "%s needs a value", a);
            return false;
        }
        const char* value = argv[++i];
        if (target != NULL) {
            *target = value;
            continue;
        }
        char* end = NULL;
        errno = 0;
        o->frames = strtol(value, &end, 10);
        if (end == value || *end != '\0' || errno != 0 || o->frames < 1 || o->frames > 10000000L) {
            snprintf(err, errSize, "--frames must be a whole number >= 1, got \"%s\"", value);
            return false;
        }
    }
    if ((o->screenshot || o->plotPng || o->dumpPlot) && o->frames == 0) {
        snprintf(err, errSize, "--screenshot, --plot-png and --dump-plot need --frames N (headless)");
        return false;
    }
    return true;
}

static int fcListDemos(void)
{
    fcDemoList demos;
    char err[1024];
    if (!fcDemoList_Scan(&demos, fcRun_SceneDirectory(), err, sizeof err)) {
        fprintf(stderr, "fulcrum view: %s\n", err);
        return fc_exitUsage;
    }
    for (int i = 0; i < demos.count; ++i) {
        fcScene s;
        char line[256];
        const char* description = NULL;
        bool loaded = fcScene_Load(demos.paths[i], &s, NULL, 0);
        if (loaded) description = s.description;
        fcDemo_Describe(demos.names[i], description, line, sizeof line);
        printf("%s\t%s\n", demos.names[i], line);
        if (loaded) fcScene_Free(&s);
    }
    fcDemoList_Free(&demos);
    return fc_exitOk;
}

static int fcRunHeadless(fcViewer* v, const fcViewOptions* o)
{
    int code = fc_exitOk;
    for (long f = 0; f < o->frames; ++f) {
        fcViewer_Frame(v, 1.0 / 60);
        unsigned e = fcViewer_TakeGlError(v);
        if (e != 0) {
            fprintf(stderr, "fulcrum view: OpenGL error 0x%04x in frame %ld\n", e, f + 1);
            return fc_exitRunFailed;
        }
    }
    int width = 0, height = 0;
    unsigned char* pixels = fcViewer_ReadPixels(v, &width, &height);
    if (o->screenshot != NULL) {
        if (fcWritePng(o->screenshot, pixels, width, height, 0)) {
            printf("screenshot   %s (%dx%d, %ld frames, t = %.3f s)\n", o->screenshot, width, height, o->frames,
                   v->curr.time);
        } else {
            fprintf(stderr, "fulcrum view: cannot write %s\n", o->screenshot);
            code = fc_exitRunFailed;
        }
    }
    if (o->plotPng != NULL) {
        if (fcWritePng(o->plotPng, pixels, width, height, fcRenderer_SceneWidth(width))) {
            printf("plot         %s\n", o->plotPng);
        } else {
            fprintf(stderr, "fulcrum view: cannot write %s\n", o->plotPng);
            code = fc_exitRunFailed;
        }
    }
    free(pixels);
    if (o->dumpPlot != NULL) {
        FILE* f = fopen(o->dumpPlot, "w");
        bool ok = f != NULL && fcPlot_WriteCsv(v->plot, &v->scene, f);
        if (f != NULL && fclose(f) != 0) ok = false;
        if (!ok) {
            fprintf(stderr, "fulcrum view: cannot write %s\n", o->dumpPlot);
            code = fc_exitRunFailed;
        } else {
            printf("plot data    %s (%d samples)\n", o->dumpPlot, v->plot->count);
        }
    }
    unsigned e = fcViewer_TakeGlError(v);
    if (e != 0) {
        fprintf(stderr, "fulcrum view: OpenGL error 0x%04x\n", e);
        code = fc_exitRunFailed;
    }
    return code;
}

static int fcViewRun(const fcViewOptions* o)
{
    if (o->list) return fcListDemos();
    int code = fc_exitOk;
    char err[2048];
    fcViewer* v = fcViewer_Open(o->scene, o->frames > 0, FC_VIEW_WIDTH, FC_VIEW_HEIGHT, &code, err, sizeof err);
    if (v == NULL) {
        fprintf(stderr, "fulcrum view: %s\n", err);
        return code;
    }
    if (o->frames > 0) {
        code = fcRunHeadless(v, o);
    } else {
        double last = fcNowMs();
        for (;;) {
            double now = fcNowMs(), dt = fmin((now - last) / 1e3, 0.1);
            last = now;
            if (!fcViewer_Frame(v, dt)) break;
        }
    }
    fcViewer_Close(v);
    return code;
}

int fcView_Command(int argc, char** argv)
{
    for (int i = 0; i < argc; ++i)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            fcViewUsage(stdout);
            return fc_exitOk;
        }
    fcViewOptions o;
    char err[512];
    if (!fcParseViewArgs(argc, argv, &o, err, sizeof err)) {
        fprintf(stderr, "fulcrum view: %s\n", err);
        fcViewUsage(stderr);
        return fc_exitUsage;
    }
    return fcViewRun(&o);
}

int fcView_DefaultHeadless(void)
{
    static const char* const shot = "fulcrum-pendulum.png";
    static const char* const plot = "fulcrum-pendulum-plot.png";
    fcViewOptions o;
    memset(&o, 0, sizeof o);
    o.frames = 120;
    o.screenshot = shot;
    o.plotPng = plot;
    printf("\nno display (DISPLAY and WAYLAND_DISPLAY unset): rendering the viewer headless instead of opening a window\n");
    fflush(stdout);
    int code = fcViewRun(&o);
    if (code == fc_exitOk) printf("wrote %s and %s in the current directory (open them with any image viewer)\n", shot, plot);
    return code;
}
