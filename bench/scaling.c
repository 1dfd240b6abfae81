// SPDX-License-Identifier: MIT
// Scaling benchmark of the exact joint solve: chains of 10..10000 links and a binary tree of 1023 bodies,
// ms per step (median of runs), rows, nonzeros and fill of the factorization, projection iterations; and
// scene loading against file size. Prints figures; never fails.
#define _POSIX_C_SOURCE 199309L
#include "scene.h"

#include "fulcrum/fulcrum.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double fcWallMs(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int fcCompareDouble(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double fcMedian(double* v, int n)
{
    qsort(v, (size_t)n, sizeof(double), fcCompareDouble);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// the S1 chain geometry (benchmark-scenes.md): box links 0.1 x 0.02 x 0.02 m of 1 kg, ball joints, horizontal
static fcWorldId fcBuildChain(int links)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyId prev = fc_nullBodyId;
    for (int i = 0; i < links; ++i) {
        fcBodyDef bd = fcDefaultBodyDef();
        bd.position = fcV3(0.05 + 0.1 * i, 0, 0);
        bd.mass = 1;
        bd.inertia = fcV3(6.667e-5, 8.667e-4, 8.667e-4);
        fcBodyId b = fcCreateBody(w, &bd);
        fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
        jd.bodyA = prev;
        jd.bodyB = b;
        jd.anchor = fcV3(0.1 * i, 0, 0);
        fcCreateJoint(w, &jd);
        prev = b;
    }
    return w;
}

// a binary tree of 2^depth - 1 bodies hanging from the world: each node a 1 kg sphere, joined to its parent
// by a ball joint; children spread in the x-z plane below their parent
static fcBodyId fcTreeNode(fcWorldId w, fcBodyId parent, fcVec3 at, double spread, int depth)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = at;
    bd.mass = 1;
    bd.inertia = fcV3(0.004, 0.004, 0.004);
    fcBodyId b = fcCreateBody(w, &bd);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyA = parent;
    jd.bodyB = b;
    jd.anchor = FC_IS_NULL(parent) ? fcV3(at.x, at.y, at.z + 0.2) : fcBody_GetPosition(parent);
    fcCreateJoint(w, &jd);
    if (depth > 1) {
        fcTreeNode(w, b, fcV3(at.x - spread, at.y, at.z - 0.2), spread / 2, depth - 1);
        fcTreeNode(w, b, fcV3(at.x + spread, at.y, at.z - 0.2), spread / 2, depth - 1);
    }
    return b;
}

static fcWorldId fcBuildTree(int depth)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcTreeNode(w, fc_nullBodyId, fcV3(0, 0, 0), 0.5 * (1 << (depth - 1)) * 0.1, depth);
    return w;
}

typedef struct fcSceneResult {
    const char* name;
    int bodies, rows, nnzA, nnzL, fill, redundant;
    double msMedian, msWorst, factorMs, iterMean;
    int iterMax, newtonSteps, failures;
    double separation;
} fcSceneResult;

// runs: fresh world, 5 warm-up steps, then `steps` timed steps; the median over runs of each run's mean
static fcSceneResult fcMeasure(const char* name, fcWorldId (*build)(int), int arg, int steps, int repeat)
{
    fcSceneResult res;
    memset(&res, 0, sizeof res);
    res.name = name;
    double* means = malloc(sizeof(double) * (size_t)repeat);
    double* factor = malloc(sizeof(double) * (size_t)repeat);
    for (int r = 0; r < repeat; ++r) {
        fcWorldId w = build(arg);
        for (int i = 0; i < 5; ++i) fcWorld_Step(w);
        double total = 0, factorTotal = 0;
        long iterations = 0;
        for (int i = 0; i < steps; ++i) {
            double t0 = fcWallMs();
            fcWorld_Step(w);
            double dt = fcWallMs() - t0;
            total += dt;
            if (dt > res.msWorst) res.msWorst = dt;
            fcWorldStats st = fcWorld_GetStats(w);
            factorTotal += st.profile.factor + st.profile.solve;
            iterations += st.projectionIterations;
            if (st.projectionIterations > res.iterMax) res.iterMax = st.projectionIterations;
            if (r == 0) res.newtonSteps += st.projectionNewtonSteps;
        }
        fcWorldStats st = fcWorld_GetStats(w);
        means[r] = total / steps;
        factor[r] = factorTotal / steps;
        if (r == 0) {
            res.bodies = st.bodyCount;
            res.rows = st.rowCount;
            res.nnzA = st.nonzerosA;
            res.nnzL = st.nonzerosL;
            res.fill = st.fillIn;
            res.redundant = st.redundantRows;
            res.failures = st.projectionFailures;
            res.iterMean = (double)iterations / steps;
            res.separation = st.maxViolation;
        }
        fcDestroyWorld(w);
    }
    res.msMedian = fcMedian(means, repeat);
    res.factorMs = fcMedian(factor, repeat);
    free(means);
    free(factor);
    return res;
}

// a chain scene as JSON text (demos/scenes/chain.json's format), for the loading benchmark
static char* fcChainJson(int links)
{
    size_t cap = 256 + (size_t)links * 400;
    char* s = malloc(cap);
    size_t n = (size_t)snprintf(s, cap, "{\"name\": \"chain%d\", \"bodies\": [", links);
    for (int i = 0; i < links; ++i)
        n += (size_t)snprintf(s + n, cap - n,
                              "%s{\"name\": \"l%d\", \"position\": [%.17g, 0, 0], \"mass\": 1, "
                              "\"inertia\": [6.667e-5, 8.667e-4, 8.667e-4]}",
                              i ? ", " : "", i, 0.05 + 0.1 * i);
    n += (size_t)snprintf(s + n, cap - n, "], \"joints\": [");
    for (int i = 0; i < links; ++i) {
        char a[32];
        if (i) snprintf(a, sizeof a, "\"l%d\"", i - 1);
        else snprintf(a, sizeof a, "\"world\"");
        n += (size_t)snprintf(s + n, cap - n,
                              "%s{\"name\": \"j%d\", \"type\": \"ball\", \"body_a\": %s, \"body_b\": \"l%d\", "
                              "\"anchor\": [%.17g, 0, 0]}",
                              i ? ", " : "", i, a, i, 0.1 * i);
    }
    snprintf(s + n, cap - n, "]}");
    return s;
}

static double fcMeasureLoad(int links, int repeat, size_t* bytes)
{
    char* json = fcChainJson(links);
    *bytes = strlen(json);
    double* t = malloc(sizeof(double) * (size_t)repeat);
    for (int r = 0; r < repeat; ++r) {
        fcScene scene;
        char err[512];
        double t0 = fcWallMs();
        bool ok = fcScene_LoadString(json, "chain.json", &scene, err, sizeof err);
        t[r] = fcWallMs() - t0;
        if (ok) fcScene_Free(&scene);
        else fprintf(stderr, "load failed: %s\n", err);
    }
    double m = fcMedian(t, repeat);
    free(t);
    free(json);
    return m;
}

int main(int argc, char** argv)
{
    int repeat = 5;
    bool quick = false;
    const char* only = NULL;
    const char* csvPath = "bench/results/scaling.csv";
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0) quick = true;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
        else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) csvPath = argv[++i];
        else {
            fprintf(stderr, "usage: fulcrum-bench-scaling [--repeat R] [--quick] [--only NAME] [--csv FILE]\n");
            return 2;
        }
    }
    if (repeat < 1) repeat = 1;
    if (quick) repeat = 1;
    struct {
        const char* name;
        fcWorldId (*build)(int);
        int arg, steps;
    } scenes[] = {
        {"chain10", fcBuildChain, 10, 2000},     {"chain100", fcBuildChain, 100, 600},
        {"chain1000", fcBuildChain, 1000, 120},  {"chain10000", fcBuildChain, 10000, 20},
        {"tree1023", fcBuildTree, 10, 200},
    };
    int count = (int)(sizeof scenes / sizeof scenes[0]);
    fcSceneResult results[8];
    int done = 0;
    printf("h = 1/60 s, projection stabilization, %d run(s) per scene; ms per step is the median of the runs' means\n\n",
           repeat);
    printf("%-11s %6s %6s %8s %8s %5s %9s %9s %9s %6s %5s %7s %5s %9s\n", "scene", "bodies", "rows", "nnz(A)",
           "nnz(L)", "fill", "ms/step", "worst ms", "factor ms", "iters", "max", "newton", "fail", "violation");
    for (int k = 0; k < count; ++k) {
        if (only && strcmp(only, scenes[k].name) != 0) continue;
        int steps = quick ? (scenes[k].steps / 20 > 2 ? scenes[k].steps / 20 : 2) : scenes[k].steps;
        fcSceneResult r = fcMeasure(scenes[k].name, scenes[k].build, scenes[k].arg, steps, repeat);
        results[done++] = r;
        printf("%-11s %6d %6d %8d %8d %5d %9.4f %9.4f %9.4f %6.2f %5d %7d %5d %9.2e\n", r.name, r.bodies, r.rows, r.nnzA,
               r.nnzL, r.fill, r.msMedian, r.msWorst, r.factorMs, r.iterMean, r.iterMax, r.newtonSteps, r.failures,
               r.separation);
    }
    const fcSceneResult *c1000 = NULL, *c10000 = NULL;
    for (int k = 0; k < done; ++k) {
        if (strcmp(results[k].name, "chain1000") == 0) c1000 = results + k;
        if (strcmp(results[k].name, "chain10000") == 0) c10000 = results + k;
    }
    if (c1000 && c10000)
        printf("\nscaling 10000 / 1000 links: step %.2f, factor + solve %.2f (linear: 10; the bound is 13)\n",
               c10000->msMedian / c1000->msMedian, c10000->factorMs / c1000->factorMs);

    double load1 = 0, load10 = 0;
    size_t bytes1 = 0, bytes10 = 0;
    if (!only || strcmp(only, "load") == 0) {
        load1 = fcMeasureLoad(1000, repeat, &bytes1);
        load10 = fcMeasureLoad(10000, repeat, &bytes10);
        printf("scene loading: 1000 links (%zu bytes) %.2f ms, 10000 links (%zu bytes) %.2f ms, ratio %.2f for %.2fx "
               "the size\n",
               bytes1, load1, bytes10, load10, load10 / load1, (double)bytes10 / (double)bytes1);
    }

    FILE* f = fopen(csvPath, "w");
    if (f == NULL) {
        fprintf(stderr, "note: could not write %s (figures above are complete)\n", csvPath);
        return 0;
    }
    fprintf(f, "scene,bodies,rows,nnzA,nnzL,fill,ms_per_step,worst_ms,factor_ms,iterations_mean,iterations_max,"
               "newton_steps,failures,violation\n");
    for (int k = 0; k < done; ++k) {
        const fcSceneResult* r = results + k;
        fprintf(f, "%s,%d,%d,%d,%d,%d,%.6f,%.6f,%.6f,%.3f,%d,%d,%d,%.3e\n", r->name, r->bodies, r->rows, r->nnzA, r->nnzL,
                r->fill, r->msMedian, r->msWorst, r->factorMs, r->iterMean, r->iterMax, r->newtonSteps, r->failures,
                r->separation);
    }
    if (load1 > 0) fprintf(f, "load1000,,,,,,%.6f,,,,,,,\nload10000,,,,,,%.6f,,,,,,,\n", load1, load10);
    fclose(f);
    printf("wrote %s\n", csvPath);
    return 0;
}
