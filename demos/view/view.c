// SPDX-License-Identifier: MIT
// `fulcrum view`: physics at its fixed step, decoupled from the frame rate by an accumulator; each step's
// state is copied into a frame record (model.h) and the renderer draws the interpolation of the last two.
#define _POSIX_C_SOURCE 200809L
#include "view.h"

#include "model.h"
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

typedef struct fcViewOptions {
    const char* scene;        ///< a path, a demo name or NULL (the default demo)
    long frames;              ///< > 0: headless, this many frames of 1/60 s
    const char* screenshot;   ///< PNG of the whole window after the last frame
    const char* plotPng;      ///< PNG of the plot panel after the last frame
    const char* dumpPlot;     ///< CSV of the plot buffer after the last frame
    bool list;
} fcViewOptions;

typedef struct fcViewer {
    fcDemoList demos;
    int demoIndex;       ///< -1: a scene file outside the demo list
    char scenePath[4096];
    fcScene scene;
    fcViewFrame prev, curr, draw;
    fcPlot* plot;
    fcRenderer* renderer;
    fcCamera camera;
    double accumulator, speed;
    bool paused, help;
    double stepMsAverage;
    int width, height;
} fcViewer;

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

// A short look-ahead run on a second copy of the scene: the box the motion sweeps and the peak joint force,
// for the camera framing and the arrow scale.
static void fcLookAhead(const char* path, double lo[3], double hi[3], double* peakForce)
{
    for (int k = 0; k < 3; ++k) lo[k] = INFINITY, hi[k] = -INFINITY;
    *peakForce = 0;
    fcScene s;
    if (!fcScene_Load(path, &s, NULL, 0)) return;
    fcViewFrame f;
    fcViewFrame_Init(&f, &s);
    double T = fmin(fmax(s.duration, 1.5), 4), start = fcNowMs();  // at most 300 ms of wall time
    for (int n = 0;; ++n) {
        fcViewFrame_Capture(&f, &s, 0);
        for (int i = 0; i < f.bodyCount; ++i)
            for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], f.bodies[i].p[k]), hi[k] = fmax(hi[k], f.bodies[i].p[k]);
        for (int j = 0; j < f.jointCount; ++j) {
            if (!f.joints[j].point) continue;
            for (int k = 0; k < 3; ++k) {
                lo[k] = fmin(lo[k], fmin(f.joints[j].anchor[k], f.joints[j].anchorA[k]));
                hi[k] = fmax(hi[k], fmax(f.joints[j].anchor[k], f.joints[j].anchorA[k]));
            }
            if (n > 0 && isfinite(f.joints[j].magnitude)) *peakForce = fmax(*peakForce, f.joints[j].magnitude);
        }
        if (f.time >= T || fcNowMs() - start > 300 || !fcWorld_Step(s.world)) break;
    }
    fcViewFrame_Free(&f);
    fcScene_Free(&s);
}

static void fcFitCamera(fcViewer* v, const double lo[3], const double hi[3])
{
    fcCamera* c = &v->camera;
    double r = 0;
    for (int k = 0; k < 3; ++k) {
        c->target[k] = (float)(0.5 * (lo[k] + hi[k]));
        r += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    r = fmax(0.5 * sqrt(r), 0.15);
    c->fovY = (float)(40 * 3.14159265358979 / 180);
    c->yaw = -0.35f;
    c->pitch = 0.22f;
    double aspect = (double)fcRenderer_SceneWidth(v->width) / v->height;
    double half = fmin(c->fovY / 2, atan(tan(c->fovY / 2) * aspect));
    c->distance = (float)(1.12 * r / sin(half));
}

static void fcResetRun(fcViewer* v)
{
    v->accumulator = 0;
    fcViewFrame_Capture(&v->curr, &v->scene, 0);
    fcViewFrame_Copy(&v->prev, &v->curr);
    fcPlot_Init(v->plot, &v->scene);
    fcPlot_Add(v->plot, &v->scene, &v->curr, &v->curr);
}

static void fcUnloadScene(fcViewer* v)
{
    fcViewFrame_Free(&v->prev);
    fcViewFrame_Free(&v->curr);
    fcViewFrame_Free(&v->draw);
    fcScene_Free(&v->scene);
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
    double lo[3], hi[3], peak;
    fcLookAhead(v->scenePath, lo, hi, &peak);
    if (!(lo[0] <= hi[0])) {
        for (int k = 0; k < 3; ++k) lo[k] = -1, hi[k] = 1;
    }
    if (v->renderer != NULL) fcRenderer_SetScene(v->renderer, &v->scene, lo, hi, peak);
    if (!keepCamera) fcFitCamera(v, lo, hi);
    fcResetRun(v);
    return true;
}

// One fixed step of the world, recorded.
static bool fcStepOnce(fcViewer* v)
{
    double t0 = fcNowMs();
    if (!fcWorld_Step(v->scene.world)) return false;
    double ms = fcNowMs() - t0;
    v->stepMsAverage = v->stepMsAverage > 0 ? 0.95 * v->stepMsAverage + 0.05 * ms : ms;
    fcViewFrame_Copy(&v->prev, &v->curr);
    fcViewFrame_Capture(&v->curr, &v->scene, ms);
    fcPlot_Add(v->plot, &v->scene, &v->prev, &v->curr);
    return true;
}

// Advance the simulation by dt of simulated time through the accumulator; returns the time advanced.
static double fcAdvance(fcViewer* v, double dt)
{
    double h = fcWorld_GetTimestep(v->scene.world), before = v->curr.time;
    v->accumulator += dt;
    double budget = fcNowMs() + 50;  // never spend more than 50 ms of a frame on physics (no spiral of death)
    while (v->accumulator >= h) {
        if (!fcStepOnce(v)) break;
        v->accumulator -= h;
        if (fcNowMs() > budget) {
            v->accumulator = fmod(v->accumulator, h);
            break;
        }
    }
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

typedef struct fcGlTarget {
    SDL_Window* window;
    SDL_GLContext context;
    GLuint fbo, color, depth;       // headless: a multisampled framebuffer ...
    GLuint resolveFbo, resolveColor;  // ... resolved into this one for reading
} fcGlTarget;

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

// Read the resolved headless picture (top row first) and write the whole of it, or the columns x0.. of it.
static bool fcWritePng(const char* path, const unsigned char* rgba, int width, int height, int x0)
{
    int w = width - x0;
    return stbi_write_png(path, w, height, 4, rgba + 4 * x0, 4 * width) != 0;
}

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
            "      mouse left drag orbit, right drag pan, wheel zoom, H help, Esc quit.\n",
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
        if (i + 1 >= argc) {
            snprintf(err, errSize, "%s needs a value", a);
            return false;
        }
        const char* value = argv[++i];
        if (strcmp(a, "--frames") == 0) {
            char* end = NULL;
            errno = 0;
            o->frames = strtol(value, &end, 10);
            if (end == value || *end != '\0' || errno != 0 || o->frames < 1 || o->frames > 10000000L) {
                snprintf(err, errSize, "--frames must be a whole number >= 1, got \"%s\"", value);
                return false;
            }
            continue;
        }
        if (strcmp(a, "--screenshot") == 0) target = &o->screenshot;
        else if (strcmp(a, "--plot-png") == 0) target = &o->plotPng;
        else if (strcmp(a, "--dump-plot") == 0) target = &o->dumpPlot;
        if (target == NULL) {
            snprintf(err, errSize, "unknown option \"%s\"", a);
            return false;
        }
        *target = value;
    }
    if ((o->screenshot || o->plotPng || o->dumpPlot) && o->frames == 0) {
        snprintf(err, errSize, "--screenshot, --plot-png and --dump-plot need --frames N (headless)");
        return false;
    }
    return true;
}

static int fcListDemos(const fcDemoList* demos)
{
    for (int i = 0; i < demos->count; ++i) {
        fcScene s;
        char line[256];
        const char* description = NULL;
        bool loaded = fcScene_Load(demos->paths[i], &s, NULL, 0);
        if (loaded) description = s.description;
        fcDemo_Describe(demos->names[i], description, line, sizeof line);
        printf("%s\t%s\n", demos->names[i], line);
        if (loaded) fcScene_Free(&s);
    }
    return fc_exitOk;
}

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

static void fcSwitchDemo(fcViewer* v, int delta)
{
    if (v->demos.count == 0) return;
    int start = v->demoIndex >= 0 ? v->demoIndex : (delta > 0 ? -1 : 0);
    int next = ((start + delta) % v->demos.count + v->demos.count) % v->demos.count;
    char saved[4096], err[1024];
    snprintf(saved, sizeof saved, "%s", v->scenePath);
    snprintf(v->scenePath, sizeof v->scenePath, "%s", v->demos.paths[next]);
    if (fcLoadScene(v, false, err, sizeof err)) {
        v->demoIndex = next;
    } else {
        fprintf(stderr, "fulcrum view: %s\n", err);
        snprintf(v->scenePath, sizeof v->scenePath, "%s", saved);
    }
}

static void fcStatus(const fcViewer* v, char* out, size_t size)
{
    static const char* const speeds[] = {"x1", "x1/2", "x1/4", "x1/10"};
    int k = v->speed > 0.75 ? 0 : v->speed > 0.375 ? 1 : v->speed > 0.175 ? 2 : 3;
    snprintf(out, size, "%s %s", v->paused ? "paused" : "running", speeds[k]);
}

static int fcRunHeadless(fcViewer* v, fcGlTarget* g, const fcViewOptions* o)
{
    int code = fc_exitOk;
    double wall0 = fcNowMs(), sim = 0;
    for (long f = 0; f < o->frames; ++f) {
        sim += fcAdvance(v, 1.0 / 60);
        fcInterpolate(v);
        char status[64];
        fcStatus(v, status, sizeof status);
        double wall = (fcNowMs() - wall0) / 1e3;
        fcViewOverlay overlay = {v->scene.name, status, wall > 0 ? sim / wall : 0, v->stepMsAverage, 60, false};
        glBindFramebuffer(GL_FRAMEBUFFER, g->fbo);
        fcRenderer_Draw(v->renderer, &v->scene, &v->draw, v->plot, &v->camera, &overlay, v->width, v->height);
        GLenum e = glGetError();
        if (e != GL_NO_ERROR) {
            fprintf(stderr, "fulcrum view: OpenGL error 0x%04x in frame %ld\n", (unsigned)e, f + 1);
            return fc_exitRunFailed;
        }
    }
    glFinish();
    unsigned char* pixels = fcReadPixels(g, v->width, v->height);
    if (o->screenshot != NULL) {
        if (fcWritePng(o->screenshot, pixels, v->width, v->height, 0)) {
            printf("screenshot   %s (%dx%d, %ld frames, t = %.3f s)\n", o->screenshot, v->width, v->height, o->frames,
                   v->curr.time);
        } else {
            fprintf(stderr, "fulcrum view: cannot write %s\n", o->screenshot);
            code = fc_exitRunFailed;
        }
    }
    if (o->plotPng != NULL) {
        if (fcWritePng(o->plotPng, pixels, v->width, v->height, fcRenderer_SceneWidth(v->width))) {
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
    GLenum e = glGetError();
    if (e != GL_NO_ERROR) {
        fprintf(stderr, "fulcrum view: OpenGL error 0x%04x\n", (unsigned)e);
        code = fc_exitRunFailed;
    }
    return code;
}

static int fcRunInteractive(fcViewer* v, fcGlTarget* g)
{
    bool quit = false;
    double last = fcNowMs(), rtfWall = 0, rtfSim = 0, rtf = 1, fps = 60;
    int frames = 0;
    while (!quit) {
        SDL_Event e;
        while (SDL_PollEvent(&e)) {
            if (e.type == SDL_QUIT) quit = true;
            if (e.type == SDL_KEYDOWN) {
                char err[1024];
                switch (e.key.keysym.sym) {
                case SDLK_ESCAPE: quit = true; break;
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
                default: break;
                }
            }
            if (e.type == SDL_MOUSEMOTION) {
                fcCamera* c = &v->camera;
                if (e.motion.state & SDL_BUTTON_LMASK) {
                    c->yaw += 0.008f * (float)e.motion.xrel;
                    c->pitch += 0.008f * (float)e.motion.yrel;
                    c->pitch = fminf(fmaxf(c->pitch, -1.5f), 1.5f);
                } else if (e.motion.state & (SDL_BUTTON_RMASK | SDL_BUTTON_MMASK)) {
                    // pan in the view plane: right = (cos yaw, sin yaw, 0), up = the camera's up
                    float k = c->distance * 0.0015f, cy = cosf(c->yaw), sy = sinf(c->yaw);
                    float cp = cosf(c->pitch), sp = sinf(c->pitch);
                    float dx = -(float)e.motion.xrel * k, dy = (float)e.motion.yrel * k;
                    c->target[0] += dx * cy + dy * (-sp * sy);
                    c->target[1] += dx * sy + dy * (sp * cy);
                    c->target[2] += dy * cp;
                }
            }
            if (e.type == SDL_MOUSEWHEEL) v->camera.distance *= powf(0.9f, (float)e.wheel.y);
        }
        double now = fcNowMs(), dt = fmin((now - last) / 1e3, 0.1);
        last = now;
        double sim = v->paused ? 0 : fcAdvance(v, dt * v->speed);
        rtfWall += dt, rtfSim += sim, ++frames;
        if (rtfWall > 0.5) {
            rtf = rtfSim / rtfWall, fps = frames / rtfWall;
            rtfWall = rtfSim = 0, frames = 0;
        }
        fcInterpolate(v);
        int w, h;
        SDL_GL_GetDrawableSize(g->window, &w, &h);
        v->width = w, v->height = h > 0 ? h : 1;
        char status[64];
        fcStatus(v, status, sizeof status);
        fcViewOverlay overlay = {v->scene.name, status, rtf, v->stepMsAverage, fps, v->help};
        fcRenderer_Draw(v->renderer, &v->scene, &v->draw, v->plot, &v->camera, &overlay, w, h);
        SDL_GL_SwapWindow(g->window);
    }
    return fc_exitOk;
}

static int fcViewRun(const fcViewOptions* o)
{
    static fcViewer v;  // the plot buffer is large: keep it off the stack
    memset(&v, 0, sizeof v);
    v.speed = 1;
    v.width = FC_VIEW_WIDTH, v.height = FC_VIEW_HEIGHT;
    char err[2048];
    if (!fcDemoList_Scan(&v.demos, fcRun_SceneDirectory(), err, sizeof err)) {
        if (o->list || o->scene == NULL) {
            fprintf(stderr, "fulcrum view: %s\n", err);
            return fc_exitUsage;
        }
    }
    if (o->list) {
        int code = fcListDemos(&v.demos);
        fcDemoList_Free(&v.demos);
        return code;
    }
    int code = fc_exitUsage;
    fcGlTarget g;
    memset(&g, 0, sizeof g);
    v.plot = calloc(1, sizeof *v.plot);
    if (v.plot == NULL) abort();
    // the scene first: a bad one exits 2 before any window opens
    if (!fcResolveScene(&v, o->scene, err, sizeof err) || !fcLoadScene(&v, false, err, sizeof err)) {
        fprintf(stderr, "fulcrum view: %s\n", err);
        goto done;
    }
    if (!fcOpenWindow(&g, v.width, v.height, o->frames > 0, err, sizeof err)) {
        fprintf(stderr, "fulcrum view: %s\n", err);
        code = fc_exitRunFailed;
        goto done;
    }
    v.renderer = fcRenderer_Create(fcShaderDirectory(), err, sizeof err);
    if (v.renderer == NULL) {
        fprintf(stderr, "fulcrum view: %s\n", err);
        code = fc_exitUsage;
        goto done;
    }
    if (!fcLoadScene(&v, false, err, sizeof err)) {  // again, now with the renderer, for its meshes
        fprintf(stderr, "fulcrum view: %s\n", err);
        goto done;
    }
    code = o->frames > 0 ? fcRunHeadless(&v, &g, o) : fcRunInteractive(&v, &g);
done:
    fcRenderer_Destroy(v.renderer);
    fcCloseWindow(&g);
    fcUnloadScene(&v);
    fcDemoList_Free(&v.demos);
    free(v.plot);
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
