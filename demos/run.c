// SPDX-License-Identifier: MIT
// `fulcrum run`: headless stepping of a scene file, a CSV trace (--csv) and a reaction-force summary.
#include "run.h"

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
            "  --csv FILE        write a CSV trace: t, every body's pose and velocity, every joint's\n"
            "                    reaction (force, moment about the anchor, violation), energy, power, violation\n"
            "  --every K         one CSV row after every K-th step (default 1)\n");
}

// A finite number filling the whole word.
static bool fcParseDouble(const char* text, double* out)
{
    char* end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool fcRun_ParseArgs(int argc, char** argv, bool sceneAllowed, fcRunOptions* o, char* err, size_t errSize)
{
    bool seen[5] = {false, false, false, false, false};
    static const char* const names[5] = {"--time", "--dt", "--stabilize", "--csv", "--every"};
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
        while (k < 5 && !(strlen(names[k]) == nameLength && strncmp(arg, names[k], nameLength) == 0)) ++k;
        if (k == 5) {
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
            if (!fcParseDouble(value, &v) || !(v > 0)) {
                snprintf(err, errSize, "--time must be a number > 0 (seconds), got \"%s\"", value);
                return false;
            }
            o->time = v;
            break;
        case 1:
            if (!fcParseDouble(value, &v) || !(v > 0 && v <= 1)) {
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
            if (value[0] == '\0') {
                snprintf(err, errSize, "--csv needs a file name");
                return false;
            }
            o->csvPath = value;
            break;
        default: {
            char* end = NULL;
            errno = 0;
            long every = strtol(value, &end, 10);
            if (end == value || *end != '\0' || errno != 0 || every < 1 || every > 1000000000L) {
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
    static const char* const bodyColumns[13] = {"x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"};
    static const char* const jointColumns[7] = {"fx", "fy", "fz", "tx", "ty", "tz", "err"};
    fputs("t", f);
    for (int i = 0; i < scene->bodyCount; ++i)
        for (int c = 0; c < 13; ++c) fprintf(f, ",%s.%s", scene->bodyNames[i], bodyColumns[c]);
    for (int j = 0; j < scene->jointCount; ++j)
        for (int c = 0; c < 7; ++c) fprintf(f, ",%s.%s", scene->jointNames[j], jointColumns[c]);
    fputs(",energy,power,violation\n", f);
}

static void fcWriteCsvNumbers(FILE* f, const double* v, int n)
{
    for (int i = 0; i < n; ++i) fprintf(f, ",%.17g", v[i]);
}

static void fcWriteCsvRow(FILE* f, const fcScene* scene, const fcWorldStats* stats, const fcJointReaction* reactions)
{
    fprintf(f, "%.17g", (double)stats->time);
    for (int i = 0; i < scene->bodyCount; ++i) {
        fcBodyId b = scene->bodies[i];
        fcVec3 x = fcBody_GetPosition(b), v = fcBody_GetLinearVelocity(b), w = fcBody_GetAngularVelocity(b);
        fcQuat q = fcBody_GetOrientation(b);
        double row[13] = {x.x, x.y, x.z, q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z};
        fcWriteCsvNumbers(f, row, 13);
    }
    for (int j = 0; j < scene->jointCount; ++j) {
        const fcJointReaction* r = reactions + j;
        double row[7] = {r->force.x, r->force.y, r->force.z, r->moment.x, r->moment.y, r->moment.z, r->violation};
        fcWriteCsvNumbers(f, row, 7);
    }
    double tail[3] = {stats->energy, stats->constraintPower, stats->maxViolation};
    fcWriteCsvNumbers(f, tail, 3);
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

    FILE* csv = NULL;
    if (o->csvPath != NULL) {
        csv = fopen(o->csvPath, "w");
        if (csv == NULL) {
            fprintf(errStream, "fulcrum: cannot create %s: %s\n", o->csvPath, strerror(errno));
            fcScene_Free(&scene);
            return fc_exitUsage;
        }
        fcWriteCsvHeader(csv, &scene);
    }

    int jointCount = scene.jointCount;
    fcJointPeaks* peaks = calloc((size_t)(jointCount ? jointCount : 1), sizeof(fcJointPeaks));
    fcJointReaction* reactions = calloc((size_t)(jointCount ? jointCount : 1), sizeof(fcJointReaction));
    if (peaks == NULL || reactions == NULL) {
        fprintf(errStream, "fulcrum: out of memory\n");
        abort();
    }

    // the energy before the first step
    fcWorldStats stats = fcWorld_GetStats(scene.world);
    double e0 = stats.energy;
    double maxEnergyError = 0, maxViolation = 0, maxViolationTime = 0, wallMs = 0;
    int maxIterations = 0, nonConverged = 0, maxRows = 0, maxRedundant = 0;
    int code = fc_exitOk;
    long long done = 0;
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
        if (csv != NULL && n % o->every == 0) fcWriteCsvRow(csv, &scene, &stats, reactions);
        if (!isfinite(stats.energy)) {
            fprintf(errStream, "fulcrum: the run diverged at step %lld (t = %g s): energy %g\n", n, t,
                    (double)stats.energy);
            code = fc_exitRunFailed;
            break;
        }
    }
    if (csv != NULL) {
        bool failed = ferror(csv) != 0;
        if (fclose(csv) != 0 || failed) {
            fprintf(errStream, "fulcrum: writing %s failed\n", o->csvPath);
            code = fc_exitRunFailed;
        }
    }
    fcPrintSummary(out, &scene, o, done, h, peaks, &stats, e0, maxEnergyError, maxViolation, maxViolationTime,
                   maxIterations, nonConverged, maxRows, maxRedundant, wallMs);
    free(peaks);
    free(reactions);
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
