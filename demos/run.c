// SPDX-License-Identifier: MIT
// `fulcrum run`: headless stepping of a scene file, a CSV trace (--csv), the reaction-force plot (--plot, the
// viewer's plot code rasterized on the CPU), the engine's events (--events) and a reaction-force summary.
#include "run.h"
#ifdef FC_HAVE_PLOT
#include "plot.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef FC_SCENE_DIR
#define FC_SCENE_DIR "demos/scenes"
#endif

#define FC_RUN_MAX_STEPS 1000000000LL

fcRunOptions fcRun_DefaultOptions(void)
{
    fcRunOptions o;
    memset(&o, 0, sizeof o);
    o.time = -1;
    o.timestep = -1;
    o.stabilization = fc_stabilizeProjection;
    o.every = 1;
    return o;
}

void fcRun_PrintOptions(FILE* stream)
{
    fprintf(stream,
            "  --time T          simulate T seconds (default: the scene's \"duration\")\n"
            "  --dt H            fixed step H seconds, 0 < H <= 1 (default: the scene's \"timestep\")\n"
            "  --stabilize MODE  baumgarte, projection or none (default: the scene's \"stabilization\")\n"
            "  --csv FILE        write a CSV trace: t, every body's pose, velocity and total contact force,\n"
            "                    every joint's reaction (force, moment about the anchor, violation), energy,\n"
            "                    power, violation, contact points and complementarity residual\n"
            "  --every K         one CSV row after every K-th step (default 1)\n"
            "  --plot FILE       write the reaction-force plot of the whole run as PNG (the viewer's plot panel)\n"
            "  --events FILE     write each engine event (a contact beginning or ending, a one-sided constraint\n"
            "                    releasing or taking hold, a rope going slack or taut, friction slipping or\n"
            "                    sticking, a sensor's overlap) as a line of JSON: t, type, body_a, body_b, joint,\n"
            "                    force_before, (contacts: point, normal), position_b, velocity_b\n");
}

bool fcRun_ParseArgs(int argc, char** argv, bool sceneAllowed, fcRunOptions* o, char* err, size_t errSize)
{
    enum { count = 7 };
    bool seen[count] = {false, false, false, false, false, false, false};
    static const char* const names[count] = {"--time", "--dt", "--stabilize", "--csv", "--every", "--plot", "--events"};
    for (int i = 0; i < argc; ++i) {
        const char* arg = argv[i];
        if (arg[0] != '-' || arg[1] == '\0') {
            if (!sceneAllowed) {
                snprintf(err, errSize, "unexpected argument \"%s\"", arg);
                return false;
            }
            if (o->scenePath != NULL) {
                snprintf(err, errSize, "more than one scene file (\"%s\" and \"%s\")", o->scenePath, arg);
                return false;
            }
            o->scenePath = arg;
            continue;
        }
        // --name value or --name=value
        int k = 0;
        size_t nameLength = strcspn(arg, "=");
        while (k < count && !(strlen(names[k]) == nameLength && strncmp(arg, names[k], nameLength) == 0)) ++k;
        if (k == count) {
            snprintf(err, errSize, "unknown option \"%s\"", arg);
            return false;
        }
        const char* value = NULL;
        if (arg[nameLength] == '=') {
            value = arg + nameLength + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            snprintf(err, errSize, "%s needs a value", names[k]);
            return false;
        }
        if (seen[k]) {
            snprintf(err, errSize, "%s given twice", names[k]);
            return false;
        }
        seen[k] = true;
        double v = 0;
        switch (k) {
        case 0:
            if (!fcScene_ParseNumber(value, &v) || !(v > 0)) {
                snprintf(err, errSize, "--time must be a number > 0 (seconds), got \"%s\"", value);
                return false;
            }
            o->time = v;
            break;
        case 1:
            if (!fcScene_ParseNumber(value, &v) || !(v > 0 && v <= 1)) {
                snprintf(err, errSize, "--dt must be a number > 0 and <= 1 (seconds), got \"%s\"", value);
                return false;
            }
            o->timestep = v;
            break;
        case 2:
            if (!fcScene_ParseStabilization(value, &o->stabilization)) {
                snprintf(err, errSize, "--stabilize must be baumgarte, projection or none, got \"%s\"", value);
                return false;
            }
            o->overrideStabilization = true;
            break;
        case 3:
        case 5:
        case 6:
            if (value[0] == '\0') {
                snprintf(err, errSize, "%s needs a file name", names[k]);
                return false;
            }
#ifndef FC_HAVE_PLOT
            if (k == 5) {
                snprintf(err, errSize, "--plot: this build has no PNG writer (install libstb-dev and rebuild)");
                return false;
            }
#endif
            *(k == 3 ? &o->csvPath : k == 5 ? &o->plotPath : &o->eventsPath) = value;
            break;
        default: {
            long every;
            if (!fcScene_ParseWhole(value, 1, 1000000000L, &every)) {
                snprintf(err, errSize, "--every must be a whole number >= 1, got \"%s\"", value);
                return false;
            }
            o->every = (int)every;
            break;
        }
        }
    }
    if (sceneAllowed && o->scenePath == NULL) {
        snprintf(err, errSize, "no scene file given");
        return false;
    }
    return true;
}

// ---------------------------------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcJointPeaks {
    double force, forceTime;
    double moment, momentTime;
    double violation, violationTime;
} fcJointPeaks;

static double fcWallMs(void)
{
    // C11's timespec_get (wall clock): good enough for a per-step average
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) == 0) return 0;
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static void fcWriteCsvHeader(FILE* f, const fcScene* scene)
{
    static const char* const bodyColumns[16] = {"x",  "y",  "z",  "qw", "qx", "qy",  "qz",  "vx",
                                                "vy", "vz", "wx", "wy", "wz", "cfx", "cfy", "cfz"};
    static const char* const jointColumns[7] = {"fx", "fy", "fz", "tx", "ty", "tz", "err"};
    fputs("t", f);
    for (int i = 0; i < scene->bodyCount; ++i)
        for (int c = 0; c < 16; ++c) fprintf(f, ",%s.%s", scene->bodyNames[i], bodyColumns[c]);
    for (int j = 0; j < scene->jointCount; ++j)
        for (int c = 0; c < 7; ++c) fprintf(f, ",%s.%s", scene->jointNames[j], jointColumns[c]);
    fputs(",energy,power,violation,contacts,complementarity\n", f);
}

static void fcWriteCsvNumbers(FILE* f, const double* v, int n)
{
    for (int i = 0; i < n; ++i) fprintf(f, ",%.17g", v[i]);
}

// A buffer for one body's contacts (grown as needed).
typedef struct fcContactBuffer {
    fcContactData* data;
    int capacity;
} fcContactBuffer;

// The total contact force on a body in the last step (world, N): each manifold's force is on its body_b, and
// body_a gets the opposite.
static fcVec3 fcBodyContactForce(fcBodyId body, fcContactBuffer* buffer)
{
    fcVec3 total = fcV3(0, 0, 0);
    if (fcBody_GetShapeCount(body) == 0) return total;  // a body without shapes never touches
    int n = fcBody_GetContacts(body, buffer->data, buffer->capacity);
    if (n > buffer->capacity) {
        int capacity = buffer->capacity ? buffer->capacity : 16;
        while (capacity < n) capacity *= 2;
        fcContactData* bigger = realloc(buffer->data, sizeof(fcContactData) * (size_t)capacity);
        if (bigger == NULL) {
            fprintf(stderr, "fulcrum: out of memory\n");
            abort();
        }
        buffer->data = bigger;
        buffer->capacity = capacity;
        n = fcBody_GetContacts(body, buffer->data, buffer->capacity);
        if (n > buffer->capacity) n = buffer->capacity;
    }
    for (int k = 0; k < n; ++k) {
        const fcContactData* c = buffer->data + k;
        if (FC_ID_EQUALS(c->bodyB, body)) total = fcVec3_Add(total, c->force);
        else if (FC_ID_EQUALS(c->bodyA, body)) total = fcVec3_Sub(total, c->force);
    }
    return total;
}

static void fcWriteCsvRow(FILE* f, const fcScene* scene, const fcWorldStats* stats, const fcJointReaction* reactions,
                          fcContactBuffer* contacts)
{
    fprintf(f, "%.17g", (double)stats->time);
    for (int i = 0; i < scene->bodyCount; ++i) {
        fcBodyId b = scene->bodies[i];
        fcVec3 x = fcBody_GetPosition(b), v = fcBody_GetLinearVelocity(b), w = fcBody_GetAngularVelocity(b);
        fcQuat q = fcBody_GetOrientation(b);
        fcVec3 cf = fcBodyContactForce(b, contacts);
        double row[16] = {x.x, x.y, x.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z, cf.x, cf.y, cf.z};
        fcWriteCsvNumbers(f, row, 16);
    }
    for (int j = 0; j < scene->jointCount; ++j) {
        const fcJointReaction* r = reactions + j;
        double row[7] = {r->force.x, r->force.y, r->force.z, r->moment.x, r->moment.y, r->moment.z, r->violation};
        fcWriteCsvNumbers(f, row, 7);
    }
    double tail[3] = {stats->energy, stats->constraintPower, stats->maxViolation};
    fcWriteCsvNumbers(f, tail, 3);
    double residual = stats->complementarityResidual;
    fprintf(f, ",%d", stats->contactPoints);
    fcWriteCsvNumbers(f, &residual, 1);
    fputc('\n', f);
}

static void fcPrintSummary(FILE* out, const fcScene* scene, const fcRunOptions* o, long long steps, double h,
                           const fcJointPeaks* peaks, const fcWorldStats* last, double e0, double maxEnergyError,
                           double maxViolation, double maxViolationTime, int maxIterations, int nonConverged,
                           int maxRows, int maxRedundant, double wallMs)
{
    fprintf(out, "scene        %s (%s)\n", scene->name, o->scenePath);
    fprintf(out, "run          %lld steps of h = %.6g s to t = %.6g s, stabilization %s\n", steps, h, (double)last->time,
            fcScene_StabilizationName(fcWorld_GetStabilization(scene->world)));
    fprintf(out, "bodies       %d, joints %d (%d springs), up to %d constraint rows, %d redundant\n", scene->bodyCount,
            scene->jointCount, scene->springCount, maxRows, maxRedundant);
    if (scene->jointCount > 0) {
        fprintf(out, "reactions    %-16s %-9s %14s %9s %15s %9s %12s\n", "joint", "type", "peak|force| N", "at t s",
                "peak|moment| Nm", "at t s", "max|err|");
        for (int j = 0; j < scene->jointCount; ++j) {
            const fcJointPeaks* p = peaks + j;
            fprintf(out, "             %-16s %-9s %14.6g %9.4f %15.6g %9.4f %12.3g\n", scene->jointNames[j],
                    fcScene_JointTypeName(scene, j), p->force, p->forceTime, p->moment, p->momentTime, p->violation);
        }
    }
    for (int k = 0; k < scene->expectationCount; ++k) {
        const fcSceneExpectation* e = scene->expectations + k;
        const fcJointPeaks* p = peaks + e->joint;
        const char* note = e->note != NULL && e->note[0] != '\0' ? e->note : "from the scene file";
        if (e->hasPeakForce) {
            double d = p->force - e->peakForce;
            fprintf(out, "expected     %s peak |force| %.6g N (%s); measured %.6g N at t = %.4f s, error %+.3g N",
                    scene->jointNames[e->joint], e->peakForce, note, p->force, p->forceTime, d);
            if (e->peakForce > 0) fprintf(out, " (%+.3g %%)", 100 * d / e->peakForce);
            fputc('\n', out);
        }
        if (e->hasPeakMoment) {
            double d = p->moment - e->peakMoment;
            fprintf(out, "expected     %s peak |moment| %.6g N m (%s); measured %.6g N m, error %+.3g N m",
                    scene->jointNames[e->joint], e->peakMoment, note, p->moment, d);
            if (e->peakMoment > 0) fprintf(out, " (%+.3g %%)", 100 * d / e->peakMoment);
            fputc('\n', out);
        }
    }
    fprintf(out, "violation    largest %.3g (m or rad) at t = %.4f s\n", maxViolation, maxViolationTime);
    fprintf(out, "energy       start %.9g J, end %.9g J, drift (end - start) %+.3g J, max |E - E0| %.3g J\n", e0,
            (double)last->energy, (double)last->energy - e0, maxEnergyError);
    fprintf(out, "projection   at most %d iterations in a step, %d steps not converged\n", maxIterations, nonConverged);
    fprintf(out, "wall time    %.3f ms per step (%.1f ms in all)\n", steps > 0 ? wallMs / (double)steps : 0.0, wallMs);
}

// What the contacts did over the run, and the events by kind.
typedef struct fcRunContactSummary {
    long long steps;          // steps with at least one contact point
    double firstTime;         // s: the end of the first of them
    int maxPoints, lastPoints;
    double maxPointsTime;
    double maxResidual, maxResidualTime;        // complementarity residual, m/s
    double maxPenetration, maxPenetrationTime;  // m
    long long eventsByKind[fc_runEventKindCount + 1];  // the last: kinds the runner does not know
} fcRunContactSummary;

static void fcPrintContacts(FILE* out, const fcRunContactSummary* c, long long eventCount)
{
    if (c->steps > 0) {
        fprintf(out, "contacts     in %lld steps from t = %.4f s: up to %d points (at t = %.4f s), %d at the end\n",
                c->steps, c->firstTime, c->maxPoints, c->maxPointsTime, c->lastPoints);
        fprintf(out, "             worst complementarity residual %.3g m/s (at t = %.4f s), deepest penetration %.3g m "
                     "(at t = %.4f s)\n",
                c->maxResidual, c->maxResidualTime, c->maxPenetration, c->maxPenetrationTime);
    }
    fprintf(out, "events       %lld (", eventCount);
    bool any = false;
    for (int k = 0; k <= fc_runEventKindCount; ++k) {
        if (c->eventsByKind[k] == 0) continue;
        fprintf(out, "%s%s %lld", any ? ", " : "", fcRun_EventKindName((fcRunEventKind)k), c->eventsByKind[k]);
        any = true;
    }
    fputs(any ? ")\n" : "none)\n", out);
}

// JSON: the string with quotes, backslashes and control characters escaped; null for NULL.
static void fcWriteJsonString(FILE* f, const char* text)
{
    if (text == NULL) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char* c = (const unsigned char*)text; *c != '\0'; ++c) {
        if (*c == '"' || *c == '\\') fprintf(f, "\\%c", *c);
        else if (*c < 0x20) fprintf(f, "\\u%04x", *c);
        else fputc(*c, f);
    }
    fputc('"', f);
}

// JSON has no NaN or infinity: those are written as null.
static void fcWriteJsonNumber(FILE* f, double v)
{
    if (isfinite(v)) fprintf(f, "%.17g", v);
    else fputs("null", f);
}

static void fcWriteJsonVec3(FILE* f, fcVec3 v)
{
    fputc('[', f);
    fcWriteJsonNumber(f, v.x);
    fputc(',', f);
    fcWriteJsonNumber(f, v.y);
    fputc(',', f);
    fcWriteJsonNumber(f, v.z);
    fputc(']', f);
}

static const char* const fc_runEventNames[fc_runEventKindCount] = {
    "begin", "end", "release", "hold", "slack", "taut", "slip", "stick", "sensor_begin", "sensor_end"};

fcRunEventKind fcRun_EventKind(const fcConstraintEvent* e)
{
    bool rope = fcJoint_IsValid(e->joint) && fcJoint_GetType(e->joint) == fc_ropeJoint;
    switch (e->type) {
    case fc_eventRelease: return rope ? fc_runEventSlack : fc_runEventRelease;
    case fc_eventHold: return rope ? fc_runEventTaut : fc_runEventHold;
    case fc_eventContactBegin: return fc_runEventBegin;
    case fc_eventContactEnd: return fc_runEventEnd;
    case fc_eventStickToSlip: return fc_runEventSlip;
    case fc_eventSlipToStick: return fc_runEventStick;
    case fc_eventSensorBegin: return fc_runEventSensorBegin;
    case fc_eventSensorEnd: return fc_runEventSensorEnd;
    }
    return fc_runEventKindCount;
}

const char* fcRun_EventKindName(fcRunEventKind kind)
{
    return (int)kind >= 0 && kind < fc_runEventKindCount ? fc_runEventNames[kind] : "unknown";
}

// A body's name for the events file: "world" for the null body (the fixed frame); the engine's name (the
// loader gives it the scene's), else the scene's for a body made without one, else null.
static void fcWriteBodyName(FILE* f, const fcScene* scene, fcBodyId body)
{
    if (FC_IS_NULL(body)) {
        fcWriteJsonString(f, "world");
        return;
    }
    const char* name = fcBody_IsValid(body) ? fcBody_GetName(body) : NULL;
    if (name != NULL && name[0] == '\0') name = NULL;
    for (int i = 0; i < scene->bodyCount && name == NULL; ++i)
        if (FC_ID_EQUALS(scene->bodies[i], body)) name = scene->bodyNames[i];
    fcWriteJsonString(f, name);
}

void fcRun_WriteEventJson(FILE* f, const fcScene* scene, const fcConstraintEvent* e)
{
    bool joint = fcJoint_IsValid(e->joint);
    // the engine keeps the scene's name; a joint made without one is looked up in the scene
    const char* name = joint ? fcJoint_GetName(e->joint) : NULL;
    if (name != NULL && name[0] == '\0') name = NULL;
    for (int j = 0; j < scene->jointCount && joint && name == NULL; ++j)
        if (FC_ID_EQUALS(scene->joints[j], e->joint)) name = scene->jointNames[j];
    fputs("{\"t\":", f);
    fcWriteJsonNumber(f, e->time);
    fputs(",\"type\":", f);
    fcWriteJsonString(f, fcRun_EventKindName(fcRun_EventKind(e)));
    // the bodies: a joint's, else the shapes' (a contact or a sensor)
    fcBodyId a = fc_nullBodyId, b = fc_nullBodyId;
    if (joint) {
        a = fcJoint_GetBodyA(e->joint);
        b = fcJoint_GetBodyB(e->joint);
    } else {
        if (fcShape_IsValid(e->shapeA)) a = fcShape_GetBody(e->shapeA);
        if (fcShape_IsValid(e->shapeB)) b = fcShape_GetBody(e->shapeB);
    }
    fputs(",\"body_a\":", f);
    fcWriteBodyName(f, scene, a);
    fputs(",\"body_b\":", f);
    fcWriteBodyName(f, scene, b);
    fputs(",\"joint\":", f);
    fcWriteJsonString(f, name);
    fputs(",\"force_before\":", f);
    fcWriteJsonNumber(f, e->forceBefore);
    if (!joint) {  // a contact or a sensor
        fputs(",\"point\":", f);
        fcWriteJsonVec3(f, e->point);
        fputs(",\"normal\":", f);
        fcWriteJsonVec3(f, e->normal);
    }
    fputs(",\"position_b\":", f);
    fcWriteJsonVec3(f, e->positionB);
    fputs(",\"velocity_b\":", f);
    fcWriteJsonVec3(f, e->velocityB);
    fputs("}\n", f);
}

// The output files, opened before the run so that a bad path refuses the run with nothing written.
typedef struct fcRunOutputs {
    FILE* csv;
    FILE* plot;
    FILE* events;
} fcRunOutputs;

static void fcCloseOutputs(fcRunOutputs* files, const fcRunOptions* o, bool remove_)
{
    FILE** f[3] = {&files->csv, &files->plot, &files->events};
    const char* paths[3] = {o->csvPath, o->plotPath, o->eventsPath};
    for (int k = 0; k < 3; ++k) {
        if (*f[k] == NULL) continue;
        fclose(*f[k]);
        *f[k] = NULL;
        if (remove_) remove(paths[k]);
    }
}

static bool fcOpenOutputs(fcRunOutputs* files, const fcRunOptions* o, FILE* errStream)
{
    memset(files, 0, sizeof *files);
    FILE** f[3] = {&files->csv, &files->plot, &files->events};
    const char* paths[3] = {o->csvPath, o->plotPath, o->eventsPath};
    for (int k = 0; k < 3; ++k) {
        if (paths[k] == NULL) continue;
        *f[k] = fopen(paths[k], k == 1 ? "wb" : "w");
        if (*f[k] == NULL) {
            fprintf(errStream, "fulcrum: cannot create %s: %s\n", paths[k], strerror(errno));
            fcCloseOutputs(files, o, true);
            return false;
        }
    }
    return true;
}

// Close one output; false (and a message) when writing it failed.
static bool fcFinishOutput(FILE** f, const char* path, FILE* errStream)
{
    if (*f == NULL) return true;
    bool failed = ferror(*f) != 0;
    if (fclose(*f) != 0) failed = true;
    *f = NULL;
    if (failed) fprintf(errStream, "fulcrum: writing %s failed\n", path);
    return !failed;
}

#define FC_RUN_PLOT_WIDTH 960
#define FC_RUN_PLOT_HEIGHT 600
#ifdef FC_HAVE_PLOT

// The viewer's plot buffer over the whole run: the window is the run's length, and at most about
// FC_PLOT_CAPACITY samples are kept (every stride-th step), but every event is.
typedef struct fcRunPlot {
    fcPlot* plot;
    fcViewFrame prev, curr;
    long long stride;
} fcRunPlot;

static void fcRunPlot_Begin(fcRunPlot* p, const fcScene* scene, double T, long long steps)
{
    p->plot = calloc(1, sizeof *p->plot);
    if (p->plot == NULL) abort();
    fcViewFrame_Init(&p->prev, scene);
    fcViewFrame_Init(&p->curr, scene);
    fcViewFrame_Capture(&p->curr, scene, 0);
    fcPlot_Init(p->plot, scene);
    p->plot->window = T * (1 + 1e-9);  // the first sample (t = h) stays in
    const long long room = FC_PLOT_CAPACITY - 16;
    p->stride = (steps + room - 1) / room;
    if (p->stride < 1) p->stride = 1;
}

static void fcRunPlot_Step(fcRunPlot* p, const fcScene* scene, long long n, bool last)
{
    fcViewFrame_Copy(&p->prev, &p->curr);
    fcViewFrame_Capture(&p->curr, scene, 0);
    if (n % p->stride == 0 || last) {
        fcPlot_Add(p->plot, scene, &p->prev, &p->curr);  // with this step's events
    } else {
        for (int e = 0; e < p->curr.eventCount; ++e) fcPlot_AddEvent(p->plot, p->curr.events + e);
    }
}

static bool fcRunPlot_End(fcRunPlot* p, const fcScene* scene, FILE* f)
{
    bool ok = f == NULL || fcPlot_WritePng(p->plot, scene, f, FC_RUN_PLOT_WIDTH, FC_RUN_PLOT_HEIGHT);
    fcViewFrame_Free(&p->prev);
    fcViewFrame_Free(&p->curr);
    free(p->plot);
    return ok;
}
#endif

int fcRun_Execute(const fcRunOptions* o, FILE* out, FILE* errStream)
{
    char err[1024];
    fcScene scene;
    if (!fcScene_Load(o->scenePath, &scene, err, sizeof err)) {
        fprintf(errStream, "fulcrum: %s\n", err);
        return fc_exitUsage;
    }
    double h = scene.timestep;
    if (o->timestep > 0) {
        fcClearError();
        if (!fcWorld_SetTimestep(scene.world, (fcReal)o->timestep)) {
            fprintf(errStream, "fulcrum: --dt %g refused: %s\n", o->timestep, fcGetLastError());
            fcScene_Free(&scene);
            return fc_exitUsage;
        }
        h = o->timestep;
    }
    if (o->overrideStabilization) {
        fcClearError();
        if (!fcWorld_SetStabilization(scene.world, o->stabilization)) {
            fprintf(errStream, "fulcrum: --stabilize %s refused: %s\n", fcScene_StabilizationName(o->stabilization),
                    fcGetLastError());
            fcScene_Free(&scene);
            return fc_exitUsage;
        }
    }
    double T = o->time > 0 ? o->time : scene.duration;
    double stepsReal = round(T / h);
    if (!(stepsReal >= 1)) {
        fprintf(errStream, "fulcrum: --time %g is shorter than half a step (h = %g s): no step to take\n", T, h);
        fcScene_Free(&scene);
        return fc_exitUsage;
    }
    if (stepsReal > (double)FC_RUN_MAX_STEPS) {
        fprintf(errStream, "fulcrum: %g s at h = %g s is %.3g steps, more than %lld\n", T, h, stepsReal,
                FC_RUN_MAX_STEPS);
        fcScene_Free(&scene);
        return fc_exitUsage;
    }
    long long steps = (long long)stepsReal;

    fcRunOutputs files;
    if (!fcOpenOutputs(&files, o, errStream)) {
        fcScene_Free(&scene);
        return fc_exitUsage;
    }
    if (files.csv != NULL) fcWriteCsvHeader(files.csv, &scene);
    fcContactBuffer contactBuffer = {NULL, 0};

    int jointCount = scene.jointCount;
    fcJointPeaks* peaks = calloc((size_t)(jointCount ? jointCount : 1), sizeof(fcJointPeaks));
    fcJointReaction* reactions = calloc((size_t)(jointCount ? jointCount : 1), sizeof(fcJointReaction));
    if (peaks == NULL || reactions == NULL) {
        fprintf(errStream, "fulcrum: out of memory\n");
        abort();
    }
#ifdef FC_HAVE_PLOT
    fcRunPlot plot;
    memset(&plot, 0, sizeof plot);
    if (files.plot != NULL) fcRunPlot_Begin(&plot, &scene, steps * h, steps);
#endif

    // the energy before the first step
    fcWorldStats stats = fcWorld_GetStats(scene.world);
    double e0 = stats.energy;
    double maxEnergyError = 0, maxViolation = 0, maxViolationTime = 0, wallMs = 0;
    int maxIterations = 0, nonConverged = 0, maxRows = 0, maxRedundant = 0;
    int code = fc_exitOk;
    long long done = 0, eventCount = 0;
    fcRunContactSummary contacts;
    memset(&contacts, 0, sizeof contacts);
    for (long long n = 1; n <= steps; ++n) {
        double t0 = fcWallMs();
        if (!fcWorld_Step(scene.world)) {
            fprintf(errStream, "fulcrum: step %lld failed: %s\n", n, fcGetLastError());
            code = fc_exitRunFailed;
            break;
        }
        wallMs += fcWallMs() - t0;
        done = n;
        stats = fcWorld_GetStats(scene.world);
        double t = stats.time;
        for (int j = 0; j < jointCount; ++j) {
            fcJointReaction r = fcJoint_GetReaction(scene.joints[j]);
            reactions[j] = r;
            double f = fcVec3_Length(r.force), m = fcVec3_Length(r.moment), e = fabs(r.violation);
            fcJointPeaks* p = peaks + j;
            if (f > p->force) p->force = f, p->forceTime = t;
            if (m > p->moment) p->moment = m, p->momentTime = t;
            if (e > p->violation) p->violation = e, p->violationTime = t;
        }
        if (stats.maxViolation > maxViolation) maxViolation = stats.maxViolation, maxViolationTime = t;
        maxEnergyError = fmax(maxEnergyError, fabs(stats.energy - e0));
        if (stats.projectionIterations > maxIterations) maxIterations = stats.projectionIterations;
        if (!stats.projectionConverged) ++nonConverged;
        if (stats.rowCount > maxRows) maxRows = stats.rowCount;
        if (stats.redundantRows > maxRedundant) maxRedundant = stats.redundantRows;
        if (stats.contactPoints > 0) {
            if (contacts.steps == 0) contacts.firstTime = t;
            ++contacts.steps;
            if (stats.contactPoints > contacts.maxPoints) contacts.maxPoints = stats.contactPoints, contacts.maxPointsTime = t;
            if (stats.complementarityResidual > contacts.maxResidual)
                contacts.maxResidual = stats.complementarityResidual, contacts.maxResidualTime = t;
            if (stats.maxPenetration > contacts.maxPenetration)
                contacts.maxPenetration = stats.maxPenetration, contacts.maxPenetrationTime = t;
        }
        contacts.lastPoints = stats.contactPoints;
        if (files.csv != NULL && n % o->every == 0) fcWriteCsvRow(files.csv, &scene, &stats, reactions, &contactBuffer);
        int events = fcWorld_GetEventCount(scene.world);
        eventCount += events;
        for (int k = 0; k < events; ++k) {
            fcConstraintEvent ev = fcWorld_GetEvent(scene.world, k);
            ++contacts.eventsByKind[fcRun_EventKind(&ev)];
            if (files.events != NULL) fcRun_WriteEventJson(files.events, &scene, &ev);
        }
#ifdef FC_HAVE_PLOT
        if (files.plot != NULL) fcRunPlot_Step(&plot, &scene, n, n == steps);
#endif
        if (!isfinite(stats.energy)) {
            fprintf(errStream, "fulcrum: the run diverged at step %lld (t = %g s): energy %g\n", n, t,
                    (double)stats.energy);
            code = fc_exitRunFailed;
            break;
        }
    }
    if (!fcFinishOutput(&files.csv, o->csvPath, errStream)) code = fc_exitRunFailed;
    if (!fcFinishOutput(&files.events, o->eventsPath, errStream)) code = fc_exitRunFailed;
#ifdef FC_HAVE_PLOT
    if (files.plot != NULL) {
        bool drawn = fcRunPlot_End(&plot, &scene, files.plot);
        if (!fcFinishOutput(&files.plot, o->plotPath, errStream)) code = fc_exitRunFailed;
        else if (!drawn) fprintf(errStream, "fulcrum: writing %s failed\n", o->plotPath), code = fc_exitRunFailed;
    }
#endif
    fcPrintSummary(out, &scene, o, done, h, peaks, &stats, e0, maxEnergyError, maxViolation, maxViolationTime,
                   maxIterations, nonConverged, maxRows, maxRedundant, wallMs);
    fcPrintContacts(out, &contacts, eventCount);
    if (o->plotPath != NULL && code == fc_exitOk)
        fprintf(out, "plot         %s (%dx%d PNG)\n", o->plotPath, FC_RUN_PLOT_WIDTH, FC_RUN_PLOT_HEIGHT);
    if (o->eventsPath != NULL && code == fc_exitOk)
        fprintf(out, "events file  %s (%lld lines of JSON)\n", o->eventsPath, eventCount);
    free(peaks);
    free(reactions);
    free(contactBuffer.data);
    fcScene_Free(&scene);
    return code;
}

// ---------------------------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------------------------

static bool fcWantsHelp(int argc, char** argv)
{
    for (int i = 0; i < argc; ++i)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
    return false;
}

int fcRun_Command(int argc, char** argv)
{
    if (fcWantsHelp(argc, argv)) {
        printf("usage: fulcrum run SCENE.json [options]\n");
        fcRun_PrintOptions(stdout);
        return fc_exitOk;
    }
    fcRunOptions o = fcRun_DefaultOptions();
    char err[512];
    if (!fcRun_ParseArgs(argc, argv, true, &o, err, sizeof err)) {
        fprintf(stderr, "fulcrum run: %s\nusage: fulcrum run SCENE.json [options]\n", err);
        fcRun_PrintOptions(stderr);
        return fc_exitUsage;
    }
    return fcRun_Execute(&o, stdout, stderr);
}

const char* fcRun_SceneDirectory(void)
{
    const char* dir = getenv("FULCRUM_SCENE_DIR");
    return dir != NULL && dir[0] != '\0' ? dir : FC_SCENE_DIR;
}

int fcRun_DemoCommand(int argc, char** argv)
{
    if (fcWantsHelp(argc, argv)) {
        printf("usage: fulcrum demo [options]   (runs %s/pendulum.json)\n", fcRun_SceneDirectory());
        fcRun_PrintOptions(stdout);
        return fc_exitOk;
    }
    fcRunOptions o = fcRun_DefaultOptions();
    char err[512];
    if (!fcRun_ParseArgs(argc, argv, false, &o, err, sizeof err)) {
        fprintf(stderr, "fulcrum demo: %s\nusage: fulcrum demo [options]\n", err);
        fcRun_PrintOptions(stderr);
        return fc_exitUsage;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/pendulum.json", fcRun_SceneDirectory());
    o.scenePath = path;
    return fcRun_Execute(&o, stdout, stderr);
}
