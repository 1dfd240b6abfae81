// SPDX-License-Identifier: MIT
// fulcrum-bench-scaling: the cost of a step as the system grows. S1-geometry chains of 10 .. 10000 links and a
// 1023-body binary tree (ball joints, h = 1/60 s, projection), built through the public API; ms per step, the
// solver's figures (rows, nonzeros of A and L, fill-in, projection iterations), and the 10000/1000-link ratio
// that says whether the step is linear in the number of bodies. Then the time to load JSON chain scenes of 1000 and
// 10000 links, which must be linear in the file size. Prints figures and never fails (exit 2 on bad arguments
// only). See docs/benchmarks.md.
#define _POSIX_C_SOURCE 199309L

#include "fulcrum/fulcrum.h"

#ifdef FC_BENCH_HAVE_SCENE
#include "scene.h"
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifndef FC_BENCH_RESULTS_DIR
#define FC_BENCH_RESULTS_DIR "bench/results"
#endif
#ifndef FC_BENCH_BUILD_TYPE
#define FC_BENCH_BUILD_TYPE ""
#endif

// ---------------------------------------------------------------------------------------------------------------------
// Timing and small statistics
// ---------------------------------------------------------------------------------------------------------------------

static double NowMs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int CompareDoubles(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// median of v[0..n) (sorts v)
static double Median(double* v, int n)
{
    qsort(v, (size_t)n, sizeof *v, CompareDoubles);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double MaxOf(const double* v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; ++i) m = v[i] > m ? v[i] : m;
    return m;
}

static double MinOf(const double* v, int n)
{
    double m = v[0];
    for (int i = 1; i < n; ++i) m = v[i] < m ? v[i] : m;
    return m;
}

// ---------------------------------------------------------------------------------------------------------------------
// Scene builders (S1 link geometry: box 0.1 x 0.02 x 0.02 m, 1 kg, long axis = body x)
// ---------------------------------------------------------------------------------------------------------------------

#define LINK_LENGTH 0.1
#define LINK_HALF_WIDTH 0.01
#define LINK_MASS 1.0
#define LINK_IXX (LINK_MASS * (0.02 * 0.02 + 0.02 * 0.02) / 12)  // 6.667e-5
#define LINK_IYY (LINK_MASS * (0.1 * 0.1 + 0.02 * 0.02) / 12)    // 8.667e-4
#define BENCH_TIMESTEP (1.0 / 60)
#define PI 3.14159265358979323846

static fcWorldId CreateBenchWorld(void)
{
    fcWorldDef def = fcDefaultWorldDef();
    def.gravity = fcV3(0, 0, -9.81);
    def.timestep = BENCH_TIMESTEP;
    def.stabilization = fc_stabilizeProjection;
    return fcCreateWorld(&def);
}

// one S1 link with its centre at `center` and its long axis (body x) turned by q
static fcBodyId CreateLink(fcWorldId world, fcVec3 center, fcQuat q)
{
    fcBodyDef def = fcDefaultBodyDef();
    def.position = center;
    def.orientation = q;
    def.mass = LINK_MASS;
    def.inertia = fcV3(LINK_IXX, LINK_IYY, LINK_IYY);
    fcBodyId body = fcCreateBody(world, &def);
    fcShapeDef shape = fcDefaultShapeDef();
    shape.type = fc_boxShape;
    shape.halfExtents = fcV3(0.5 * LINK_LENGTH, LINK_HALF_WIDTH, LINK_HALF_WIDTH);
    shape.maskBits = 0;  // S1's links do not collide: this benchmark measures the joint solver
    fcCreateShape(body, &shape);
    return body;
}

static fcJointId CreateBall(fcWorldId world, fcBodyId a, fcBodyId b, fcVec3 anchor)
{
    fcJointDef def = fcDefaultJointDef(fc_ballJoint);
    def.bodyA = a;
    def.bodyB = b;
    def.anchor = anchor;
    return fcCreateJoint(world, &def);
}

// S1 chain of `links` boxes along +x, horizontal, at rest; link 0's left end pinned to the world at the origin.
// Writes the joints to joints[0..links) and returns their count.
static int BuildChain(fcWorldId world, int links, fcJointId* joints)
{
    fcBodyId previous = fc_nullBodyId;
    for (int i = 0; i < links; ++i) {
        fcBodyId body = CreateLink(world, fcV3(0.5 * LINK_LENGTH + LINK_LENGTH * i, 0, 0), fcQuat_Identity());
        joints[i] = CreateBall(world, previous, body, fcV3(LINK_LENGTH * i, 0, 0));
        previous = body;
    }
    return links;
}

// The same chain hanging straight down at rest from the origin: an equilibrium, so every step does the same
// work (the projection converges in a fixed number of iterations) and its cost isolates the solver's scaling.
static int BuildHangingChain(fcWorldId world, int links, fcJointId* joints)
{
    fcBodyId previous = fc_nullBodyId;
    fcQuat down = fcQuat_FromAxisAngle(fcV3(0, 1, 0), (fcReal)(PI / 2));  // body x onto -z
    for (int i = 0; i < links; ++i) {
        fcBodyId body = CreateLink(world, fcV3(0, 0, -(0.5 * LINK_LENGTH + LINK_LENGTH * i)), down);
        joints[i] = CreateBall(world, previous, body, fcV3(0, 0, -LINK_LENGTH * i));
        previous = body;
    }
    return links;
}

// Binary tree of 2^depth - 1 S1 links hanging from the world at the origin, spread in the x-z plane: the root
// points straight down, and the two children of a node at depth d hang from its lower end at +-45 / 2^d degrees
// from their parent's direction, so every branch points below the horizontal (the angles sum to < 90 degrees).
// Released at rest, it swings in its plane. Writes the joints (node k's joint to its parent is joints[k], heap
// order) and returns their count.
static int BuildTree(fcWorldId world, int depth, fcJointId* joints)
{
    int count = (1 << depth) - 1;
    fcBodyId* bodies = malloc(sizeof(fcBodyId) * (size_t)count);
    double* angle = malloc(sizeof(double) * (size_t)count);   // from -z towards +x, rad
    fcVec3* bottom = malloc(sizeof(fcVec3) * (size_t)count);  // lower end of each link, world
    for (int k = 0; k < count; ++k) {
        int parent = (k - 1) / 2;
        fcVec3 top = k == 0 ? fcV3(0, 0, 0) : bottom[parent];
        if (k == 0) {
            angle[k] = 0;
        } else {
            int parentDepth = 0;
            while ((1 << (parentDepth + 1)) - 1 <= parent) ++parentDepth;
            double spread = (PI / 4) / (double)(1 << parentDepth);
            angle[k] = angle[parent] + (k % 2 ? -spread : spread);
        }
        fcVec3 dir = fcV3(sin(angle[k]), 0, -cos(angle[k]));
        // body x onto dir: a turn about y by pi/2 - angle
        fcQuat q = fcQuat_FromAxisAngle(fcV3(0, 1, 0), (fcReal)(PI / 2 - angle[k]));
        bodies[k] = CreateLink(world, fcVec3_MulAdd(top, 0.5 * LINK_LENGTH, dir), q);
        bottom[k] = fcVec3_MulAdd(top, LINK_LENGTH, dir);
        joints[k] = CreateBall(world, k == 0 ? fc_nullBodyId : bodies[parent], bodies[k], top);
    }
    free(bodies);
    free(angle);
    free(bottom);
    return count;
}

// largest |anchor_b - anchor_a| over the joints, each anchor from its body's pose
static double LargestSeparation(const fcJointId* joints, int count)
{
    double worst = 0;
    for (int j = 0; j < count; ++j) {
        double d = fcVec3_Distance(fcJoint_GetAnchorA(joints[j]), fcJoint_GetAnchorB(joints[j]));
        worst = d > worst ? d : worst;
    }
    return worst;
}

// ---------------------------------------------------------------------------------------------------------------------
// Step benchmark
// ---------------------------------------------------------------------------------------------------------------------

typedef int SceneBuildFcn(fcWorldId world, int size, fcJointId* joints);

typedef struct StepScene {
    const char* name;
    SceneBuildFcn* build;
    int size;       // links (chain) or depth (tree)
    int bodies;     // = joints: every body hangs from one joint
    int steps;      // timed steps per run
    int warmup;     // untimed steps first (the first step does the symbolic analysis)
    int runScale;   // runs = runScale x --repeat: more runs where a run is short, for a steadier median
} StepScene;

static const StepScene fc_stepScenes[] = {
    {"chain10", BuildChain, 10, 10, 10000, 5, 1},
    {"chain100", BuildChain, 100, 100, 1000, 5, 1},
    // the same window (steps 4..23) for 1000 and 10000 links, so that their ratio compares the same motion;
    // a 1000-link run is then short (~0.1 s), so it is repeated 4 times as often
    {"chain1000", BuildChain, 1000, 1000, 20, 3, 4},
    {"chain10000", BuildChain, 10000, 10000, 20, 3, 1},
    {"tree1023", BuildTree, 10, 1023, 100, 3, 1},
    {"hang1000", BuildHangingChain, 1000, 1000, 100, 3, 4},
    {"hang10000", BuildHangingChain, 10000, 10000, 20, 3, 1},
};
#define STEP_SCENE_COUNT ((int)(sizeof fc_stepScenes / sizeof fc_stepScenes[0]))

typedef struct StepResult {
    bool ran;
    bool failed;        // a step was refused (fcGetLastError printed)
    int runs, steps;
    double msStep;      // median over runs of the per-run mean
    double msStepMin, msStepMax;  // smallest and largest per-run mean (the spread)
    double msWorst;     // slowest single step over all runs
    double msFactorSolve;  // median over runs of the mean profile.factor + profile.solve per velocity solve
    double msProject;   // the same for profile.project (the projection, with its own factorizations)
    double msBuild;     // median time to build the world through the API
    int rows, blocks, nonzerosA, nonzerosL, fillIn;
    double iterMean;    // projection iterations per timed step, mean over the timed steps of run 0
    int iterMax;
    int newtonSteps;    // timed steps of run 0 whose projection fell back from SHAKE to Newton
    int unconverged;    // timed steps of run 0 whose projection hit the cap above the tolerance
    int substepSteps;   // timed steps of run 0 the engine retook in substeps (stats.substeps > 1)
    int substepMax;     // the most substeps one of them took
    double sepEnd;      // largest joint separation at the end of run 0, m
    double violationMax;  // largest stats.maxViolation over the timed steps of run 0, m
} StepResult;

static void RunStepScene(const StepScene* scene, int repeat, bool quick, StepResult* out)
{
    memset(out, 0, sizeof *out);
    int steps = quick ? 3 : scene->steps;
    int warmup = quick ? 1 : scene->warmup;
    if (!quick) repeat *= scene->runScale;
    double* runMean = malloc(sizeof(double) * (size_t)repeat);
    double* runFactor = malloc(sizeof(double) * (size_t)repeat);
    double* runProject = malloc(sizeof(double) * (size_t)repeat);
    double* runBuild = malloc(sizeof(double) * (size_t)repeat);
    fcJointId* joints = malloc(sizeof(fcJointId) * (size_t)scene->bodies);
    out->ran = true;
    out->runs = repeat;
    out->steps = steps;
    for (int run = 0; run < repeat; ++run) {
        double tb = NowMs();
        fcWorldId world = CreateBenchWorld();
        int jointCount = scene->build(world, scene->size, joints);
        runBuild[run] = NowMs() - tb;
        for (int s = 0; s < warmup && !out->failed; ++s) out->failed = !fcWorld_Step(world);
        double total = 0, factor = 0, project = 0;
        long iterations = 0;
        for (int s = 0; s < steps && !out->failed; ++s) {
            double t0 = NowMs();
            bool ok = fcWorld_Step(world);
            double dt = NowMs() - t0;
            if (!ok) {
                out->failed = true;
                break;
            }
            fcWorldStats st = fcWorld_GetStats(world);
            total += dt;
            // one velocity solve: a step retaken in substeps sums its substeps' factorizations
            factor += (st.profile.factor + st.profile.solve) / (st.substeps > 1 ? st.substeps : 1);
            project += st.profile.project;
            out->msWorst = dt > out->msWorst ? dt : out->msWorst;
            if (run == 0) {
                iterations += st.projectionIterations;
                out->iterMax = st.projectionIterations > out->iterMax ? st.projectionIterations : out->iterMax;
                out->newtonSteps += st.projectionNewtonSteps > 0;
                out->unconverged += !st.projectionConverged;
                out->substepSteps += st.substeps > 1;
                out->substepMax = st.substeps > out->substepMax ? st.substeps : out->substepMax;
                out->violationMax = st.maxViolation > out->violationMax ? st.maxViolation : out->violationMax;
            }
        }
        if (out->failed) {
            printf("  %s: a step was refused: %s\n", scene->name, fcGetLastError());
            fcDestroyWorld(world);
            out->runs = run;
            break;
        }
        runMean[run] = total / steps;
        runFactor[run] = factor / steps;
        runProject[run] = project / steps;
        if (run == 0) {
            fcWorldStats st = fcWorld_GetStats(world);
            out->rows = st.rowCount;
            out->blocks = st.blockCount;
            out->nonzerosA = st.nonzerosA;
            out->nonzerosL = st.nonzerosL;
            out->fillIn = st.fillIn;
            out->iterMean = (double)iterations / steps;
            out->sepEnd = LargestSeparation(joints, jointCount);
        }
        fcDestroyWorld(world);
    }
    if (out->runs > 0) {
        out->msStepMin = MinOf(runMean, out->runs);
        out->msStepMax = MaxOf(runMean, out->runs);
        out->msStep = Median(runMean, out->runs);
        out->msFactorSolve = Median(runFactor, out->runs);
        out->msProject = Median(runProject, out->runs);
        out->msBuild = Median(runBuild, out->runs);
    }
    free(runMean);
    free(runFactor);
    free(runProject);
    free(runBuild);
    free(joints);
}

// ---------------------------------------------------------------------------------------------------------------------
// Scene-loading benchmark: JSON chains in the format of demos/scenes/chain.json, generated in memory
// ---------------------------------------------------------------------------------------------------------------------

typedef struct LoadScene {
    const char* name;
    int links;
} LoadScene;

static const LoadScene fc_loadScenes[] = {
    {"load1000", 1000},
    {"load10000", 10000},
};
#define LOAD_SCENE_COUNT ((int)(sizeof fc_loadScenes / sizeof fc_loadScenes[0]))

typedef struct LoadResult {
    bool ran;
    bool failed;
    int runs;
    size_t bytes;   // JSON text size
    double msLoad;  // median of fcScene_LoadString (parse + world build; fcScene_Free not counted)
    double msLoadMin, msLoadMax;
} LoadResult;

#ifdef FC_BENCH_HAVE_SCENE
typedef struct TextBuffer {
    char* data;
    size_t length, capacity;
} TextBuffer;

static void Append(TextBuffer* b, const char* format, ...)
{
    for (;;) {
        va_list args;
        va_start(args, format);
        size_t room = b->capacity - b->length;
        int n = vsnprintf(b->data + b->length, room, format, args);
        va_end(args);
        if (n < 0) return;
        if ((size_t)n < room) {
            b->length += (size_t)n;
            return;
        }
        b->capacity = 2 * b->capacity + (size_t)n + 1;
        b->data = realloc(b->data, b->capacity);
    }
}

// the S1 chain of `links` links as a scene file (one body or joint per line, like gen_chain.py writes)
static char* ChainSceneJson(int links, size_t* bytes)
{
    TextBuffer b = {malloc(4096), 0, 4096};
    Append(&b, "{\n  \"name\": \"chain%d\",\n  \"description\": \"S1 chain of %d links (fulcrum-bench-scaling)\",\n",
           links, links);
    Append(&b, "  \"gravity\": [0, 0, -9.81],\n  \"timestep\": %.17g,\n  \"duration\": 10,\n", BENCH_TIMESTEP);
    Append(&b, "  \"stabilization\": \"projection\",\n  \"bodies\": [\n");
    for (int i = 0; i < links; ++i)
        Append(&b,
               "    {\"name\": \"link%05d\", \"position\": [%.12g, 0, 0], \"mass\": %.17g, \"inertia\": [%.17g, %.17g, "
               "%.17g], \"shapes\": [{\"type\": \"box\", \"half_extents\": [%.17g, %.17g, %.17g]}]}%s\n",
               i, 0.5 * LINK_LENGTH + LINK_LENGTH * i, LINK_MASS, LINK_IXX, LINK_IYY, LINK_IYY, 0.5 * LINK_LENGTH,
               LINK_HALF_WIDTH, LINK_HALF_WIDTH, i + 1 < links ? "," : "");
    Append(&b, "  ],\n  \"joints\": [\n");
    for (int i = 0; i < links; ++i) {
        char bodyA[16];
        if (i == 0)
            snprintf(bodyA, sizeof bodyA, "world");
        else
            snprintf(bodyA, sizeof bodyA, "link%05d", i - 1);
        Append(&b,
               "    {\"name\": \"j%05d\", \"type\": \"ball\", \"body_a\": \"%s\", \"body_b\": \"link%05d\", "
               "\"anchor\": [%.12g, 0, 0]}%s\n",
               i, bodyA, i, LINK_LENGTH * i, i + 1 < links ? "," : "");
    }
    Append(&b, "  ]\n}\n");
    *bytes = b.length;
    return b.data;
}

static void RunLoadScene(const LoadScene* scene, int repeat, LoadResult* out)
{
    memset(out, 0, sizeof *out);
    out->ran = true;
    char* json = ChainSceneJson(scene->links, &out->bytes);
    double* times = malloc(sizeof(double) * (size_t)repeat);
    char err[512];
    for (int run = 0; run < repeat; ++run) {
        fcScene loaded;
        double t0 = NowMs();
        bool ok = fcScene_LoadString(json, scene->name, &loaded, err, sizeof err);
        times[run] = NowMs() - t0;
        if (!ok) {
            printf("  %s: the loader refused the generated scene: %s\n", scene->name, err);
            out->failed = true;
            break;
        }
        if (loaded.bodyCount != scene->links || loaded.jointCount != scene->links)
            printf("  %s: loaded %d bodies and %d joints, expected %d of each\n", scene->name, loaded.bodyCount,
                   loaded.jointCount, scene->links);
        fcScene_Free(&loaded);
        out->runs = run + 1;
    }
    if (out->runs > 0) {
        out->msLoadMin = MinOf(times, out->runs);
        out->msLoadMax = MaxOf(times, out->runs);
        out->msLoad = Median(times, out->runs);
    }
    free(times);
    free(json);
}
#endif

// ---------------------------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------------------------

static void PrintStepHeader(void)
{
    printf("%-11s %6s %8s %9s %9s %9s %9s %6s %7s %7s %4s %11s %6s %7s %6s %9s\n", "scene", "bodies", "steps",
           "ms/step", "worst ms", "fact+slv", "project", "rows", "nnzA", "nnzL", "fill", "iter mn/mx", "newton",
           "substep", "noconv", "sep end m");
}

static void PrintStepRow(const StepScene* scene, const StepResult* r)
{
    char steps[32], iter[32], substeps[32];
    snprintf(steps, sizeof steps, "%dx%d", r->steps, r->runs);
    snprintf(iter, sizeof iter, "%.2f/%d", r->iterMean, r->iterMax);
    snprintf(substeps, sizeof substeps, "%d/%d", r->substepSteps, r->substepMax);
    printf("%-11s %6d %8s %9.4f %9.3f %9.4f %9.4f %6d %7d %7d %4d %11s %6d %7s %6d %9.2e%s\n", scene->name,
           scene->bodies, steps, r->msStep, r->msWorst, r->msFactorSolve, r->msProject, r->rows, r->nonzerosA,
           r->nonzerosL, r->fillIn, iter, r->newtonSteps, substeps, r->unconverged, r->sepEnd,
           r->failed ? "  (a step failed)" : "");
}

static const StepResult* FindStepResult(const StepResult* results, const char* name)
{
    for (int i = 0; i < STEP_SCENE_COUNT; ++i)
        if (results[i].ran && results[i].runs > 0 && strcmp(fc_stepScenes[i].name, name) == 0) return results + i;
    return NULL;
}

static void PrintRatio(const StepResult* steps, const char* smallName, const char* largeName)
{
    const StepResult* small = FindStepResult(steps, smallName);
    const StepResult* large = FindStepResult(steps, largeName);
    if (small != NULL && large != NULL && small->msStep > 0) {
        double ratio = large->msStep / small->msStep;
        printf("\nratio %s / %s (10x the bodies; linear is 10, limit 13):\n", largeName, smallName);
        printf("  step          %6.2f  %s", ratio, ratio <= 13 ? "linear" : "NOT LINEAR (above 13)");
        if (small->msStepMin > 0) printf("  (fastest runs: %.2f)", large->msStepMin / small->msStepMin);
        printf("\n");
        if (small->msFactorSolve > 0)
            printf("  factor+solve  %6.2f\n", large->msFactorSolve / small->msFactorSolve);
        if (small->msProject > 0) printf("  project       %6.2f\n", large->msProject / small->msProject);
        if (small->msBuild > 0) printf("  world build   %6.2f\n", large->msBuild / small->msBuild);
        if (small->iterMean > 0 && large->iterMean > 0 && small->msProject > 0)
            printf("  project per projection iteration  %6.2f  (%.2f vs %.2f iterations per step)\n",
                   (large->msProject / large->iterMean) / (small->msProject / small->iterMean), large->iterMean,
                   small->iterMean);
    }
}

static void PrintRatios(const StepResult* steps, const LoadResult* loads)
{
    // released horizontally the longer chain whips harder and needs more projection iterations per step;
    // hanging at rest both do the same work per step, so that ratio is the solver's own scaling
    PrintRatio(steps, "chain1000", "chain10000");
    PrintRatio(steps, "hang1000", "hang10000");
    const LoadResult* a = loads[0].ran && loads[0].runs > 0 ? loads + 0 : NULL;
    const LoadResult* b = loads[1].ran && loads[1].runs > 0 ? loads + 1 : NULL;
    if (a != NULL && b != NULL && a->msLoad > 0)
        printf("\nratio load10000 / load1000: %.2f for %.2fx the bytes (linear is ~10)\n", b->msLoad / a->msLoad,
               (double)b->bytes / (double)a->bytes);
}

// mkdir -p of the directory part of path
static void MakeParentDirectories(const char* path)
{
    char dir[4096];
    size_t n = strlen(path);
    if (n >= sizeof dir) return;
    memcpy(dir, path, n + 1);
    char* slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir) return;
    *slash = '\0';
    for (char* p = dir + 1; *p; ++p) {
        if (*p != '/') continue;
        *p = '\0';
        mkdir(dir, 0777);
        *p = '/';
    }
    mkdir(dir, 0777);
}

static void WriteCsv(const char* path, const StepResult* steps, const LoadResult* loads)
{
    MakeParentDirectories(path);
    FILE* f = fopen(path, "w");
    if (f == NULL) {
        printf("\ncannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(f, "kind,scene,bodies,runs,steps,ms_step,ms_step_min,ms_step_max,ms_worst_step,ms_factor_solve,ms_project,"
               "ms_build,rows,blocks,nnz_a,nnz_l,fill_in,proj_iter_mean,proj_iter_max,newton_steps,unconverged_steps,"
               "substep_steps,substeps_max,sep_end_m,max_violation_m,failed,json_bytes,ms_load,ms_load_min,"
               "ms_load_max\n");
    for (int i = 0; i < STEP_SCENE_COUNT; ++i) {
        const StepResult* r = steps + i;
        if (!r->ran) continue;
        fprintf(f,
                "step,%s,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%d,%d,%d,%d,%d,%.4g,%d,%d,%d,%d,%d,%.4g,%.4g,"
                "%d,,,,\n",
                fc_stepScenes[i].name, fc_stepScenes[i].bodies, r->runs, r->steps, r->msStep, r->msStepMin,
                r->msStepMax, r->msWorst, r->msFactorSolve, r->msProject, r->msBuild, r->rows, r->blocks, r->nonzerosA,
                r->nonzerosL, r->fillIn, r->iterMean, r->iterMax, r->newtonSteps, r->unconverged, r->substepSteps,
                r->substepMax, r->sepEnd, r->violationMax, r->failed);
    }
    for (int i = 0; i < LOAD_SCENE_COUNT; ++i) {
        const LoadResult* r = loads + i;
        if (!r->ran) continue;
        fprintf(f, "load,%s,%d,%d,,,,,,,,,,,,,,,,,,,,,,%d,%zu,%.6g,%.6g,%.6g\n", fc_loadScenes[i].name,
                fc_loadScenes[i].links, r->runs, r->failed, r->bytes, r->msLoad, r->msLoadMin, r->msLoadMax);
    }
    fclose(f);
    printf("\nCSV written to %s\n", path);
}

// ---------------------------------------------------------------------------------------------------------------------
// Command line
// ---------------------------------------------------------------------------------------------------------------------

static void PrintUsage(FILE* to)
{
    fprintf(to,
            "usage: fulcrum-bench-scaling [--repeat R] [--quick] [--only NAME[,NAME...]] [--csv FILE]\n"
            "  --repeat R   runs per scene, each a fresh world (default 5; 1 with --quick; chain1000 runs 4R)\n"
            "  --quick      3 timed steps per run (a smoke run for CI; the figures mean little)\n"
            "  --only NAME  run only these scenes (repeatable, or comma-separated); names:\n"
            "               ");
    for (int i = 0; i < STEP_SCENE_COUNT; ++i) fprintf(to, "%s ", fc_stepScenes[i].name);
    for (int i = 0; i < LOAD_SCENE_COUNT; ++i) fprintf(to, "%s ", fc_loadScenes[i].name);
    fprintf(to, "\n  --csv FILE   where the CSV goes (default %s/scaling.csv)\n", FC_BENCH_RESULTS_DIR);
}

static bool IsKnownScene(const char* name)
{
    for (int i = 0; i < STEP_SCENE_COUNT; ++i)
        if (strcmp(fc_stepScenes[i].name, name) == 0) return true;
    for (int i = 0; i < LOAD_SCENE_COUNT; ++i)
        if (strcmp(fc_loadScenes[i].name, name) == 0) return true;
    return false;
}

// --only list: comma-separated names, concatenated over repeated options ("" selects everything)
static bool Selected(const char* only, const char* name)
{
    if (only[0] == '\0') return true;
    size_t n = strlen(name);
    for (const char* p = only; *p;) {
        const char* end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        p += len + (end != NULL);
    }
    return false;
}

static bool ValidateOnly(const char* only)
{
    char name[64];
    for (const char* p = only; *p;) {
        const char* end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof name) return false;
        memcpy(name, p, len);
        name[len] = '\0';
        if (!IsKnownScene(name)) {
            fprintf(stderr, "fulcrum-bench-scaling: unknown scene \"%s\"\n", name);
            return false;
        }
        p += len + (end != NULL);
    }
    return true;
}

int main(int argc, char** argv)
{
    int repeat = -1;
    bool quick = false;
    char only[1024] = "";
    char csvDefault[4096];
    snprintf(csvDefault, sizeof csvDefault, "%s/scaling.csv", FC_BENCH_RESULTS_DIR);
    const char* csv = csvDefault;
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        bool hasValue = i + 1 < argc;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            PrintUsage(stdout);
            return 0;
        } else if (strcmp(arg, "--quick") == 0) {
            quick = true;
        } else if (strcmp(arg, "--repeat") == 0 && hasValue) {
            char* end;
            long r = strtol(argv[++i], &end, 10);
            if (*end != '\0' || r < 1 || r > 1000) {
                fprintf(stderr, "fulcrum-bench-scaling: --repeat wants a whole number 1..1000, got \"%s\"\n", argv[i]);
                return 2;
            }
            repeat = (int)r;
        } else if (strcmp(arg, "--only") == 0 && hasValue) {
            const char* list = argv[++i];
            if (!ValidateOnly(list) || strlen(only) + strlen(list) + 2 > sizeof only) {
                PrintUsage(stderr);
                return 2;
            }
            if (only[0] != '\0') strcat(only, ",");
            strcat(only, list);
        } else if (strcmp(arg, "--csv") == 0 && hasValue) {
            csv = argv[++i];
        } else {
            fprintf(stderr, "fulcrum-bench-scaling: bad argument \"%s\"%s\n", arg,
                    hasValue || arg[0] != '-' ? "" : " (missing value?)");
            PrintUsage(stderr);
            return 2;
        }
    }
    if (repeat < 0) repeat = quick ? 1 : 5;

    char date[32] = "?";
    time_t now = time(NULL);
    struct tm* utc = gmtime(&now);
    if (utc != NULL) strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", utc);
    printf("fulcrum-bench-scaling  %s  build %s  fcReal %s  repeat %d%s\n", date,
           FC_BENCH_BUILD_TYPE[0] ? FC_BENCH_BUILD_TYPE : "(none)", sizeof(fcReal) == 8 ? "double" : "float", repeat,
           quick ? "  QUICK (smoke run: figures not meaningful)" : "");
    printf("h = 1/60 s, projection. ms/step: median over the runs of the per-run mean; worst: slowest single step;\n"
           "fact+slv: profile.factor + profile.solve of one velocity solve (per substep); project: profile.project;\n"
           "iter: projection iterations per step (mean/max); newton, substep, noconv: steps with a Newton fallback,\n"
           "retaken in substeps (count/most substeps), not converged (timed steps of run 1); sep end: largest joint\n"
           "anchor gap after the last step, m.\n\n");

    StepResult steps[STEP_SCENE_COUNT];
    memset(steps, 0, sizeof steps);
    PrintStepHeader();
    fflush(stdout);
    for (int i = 0; i < STEP_SCENE_COUNT; ++i) {
        if (!Selected(only, fc_stepScenes[i].name)) continue;
        RunStepScene(fc_stepScenes + i, repeat, quick, steps + i);
        PrintStepRow(fc_stepScenes + i, steps + i);
        fflush(stdout);
    }

    LoadResult loads[LOAD_SCENE_COUNT];
    memset(loads, 0, sizeof loads);
    bool anyLoad = false;
    for (int i = 0; i < LOAD_SCENE_COUNT; ++i) anyLoad = anyLoad || Selected(only, fc_loadScenes[i].name);
    if (anyLoad) {
#ifdef FC_BENCH_HAVE_SCENE
        printf("\n%-11s %6s %9s %10s %9s %9s %9s\n", "scene", "links", "runs", "bytes", "ms load", "min", "max");
        for (int i = 0; i < LOAD_SCENE_COUNT; ++i) {
            if (!Selected(only, fc_loadScenes[i].name)) continue;
            RunLoadScene(fc_loadScenes + i, repeat, loads + i);
            const LoadResult* r = loads + i;
            printf("%-11s %6d %9d %10zu %9.3f %9.3f %9.3f\n", fc_loadScenes[i].name, fc_loadScenes[i].links, r->runs,
                   r->bytes, r->msLoad, r->msLoadMin, r->msLoadMax);
            fflush(stdout);
        }
#else
        printf("\nscene loading skipped: built without the scene loader (fulcrum_scene: FC_BUILD_DEMOS, cJSON)\n");
#endif
    }

    PrintRatios(steps, loads);
    WriteCsv(csv, steps, loads);
    return 0;
}
