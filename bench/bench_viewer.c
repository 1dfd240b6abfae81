// SPDX-License-Identifier: MIT
// fulcrum-bench-viewer: the viewer's frame time on the largest demo (the most bodies and joints), headless
// (offscreen, Mesa's software renderer without a GPU), split into physics, plot and render. Prints figures and
// never fails (exit 2 on bad arguments only).
#include "view.h"

#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fcCompareDoubles(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

// mean and 95th percentile of n values (sorts them)
static void fcStats(double* v, int n, double* mean, double* p95)
{
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += v[i];
    qsort(v, (size_t)n, sizeof *v, fcCompareDoubles);
    *mean = n > 0 ? sum / n : 0;
    *p95 = n > 0 ? v[(int)floor(0.95 * (n - 1))] : 0;
}

// The demo with the most bodies + joints (ties: the first by name).
static bool fcLargestDemo(char* name, size_t size)
{
    fcDemoList demos;
    char err[1024];
    if (!fcDemoList_Scan(&demos, fcRun_SceneDirectory(), err, sizeof err)) {
        printf("bench_viewer: %s\n", err);
        return false;
    }
    int best = -1;
    for (int i = 0; i < demos.count; ++i) {
        fcScene s;
        if (!fcScene_Load(demos.paths[i], &s, NULL, 0)) continue;
        int n = s.bodyCount + s.jointCount;
        if (n > best) best = n, snprintf(name, size, "%s", demos.names[i]);
        fcScene_Free(&s);
    }
    fcDemoList_Free(&demos);
    return best >= 0;
}

int main(int argc, char** argv)
{
    long frames = 300;
    char demo[256] = "";
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) {
            char* end = NULL;
            errno = 0;
            frames = strtol(argv[++i], &end, 10);
            if (*end != '\0' || errno != 0 || frames < 1 || frames > 1000000) {
                fprintf(stderr, "bench_viewer: --frames must be a whole number >= 1\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--demo") == 0 && i + 1 < argc) {
            snprintf(demo, sizeof demo, "%s", argv[++i]);
        } else {
            fprintf(stderr, "usage: fulcrum-bench-viewer [--frames N] [--demo NAME]   (default: 300 frames of the largest demo)\n");
            return 2;
        }
    }
    if (demo[0] == '\0' && !fcLargestDemo(demo, sizeof demo)) return 0;

    int code = 0;
    char err[2048];
    fcViewer* v = fcViewer_Open(demo, true, 1280, 720, &code, err, sizeof err);
    if (v == NULL) {
        printf("bench_viewer: cannot open the viewer headless (%s); nothing measured\n", err);
        return code == 2 ? 2 : 0;
    }
    fcViewer_SetFinish(v, true);  // render times include the GPU's (llvmpipe's) work
    const fcScene* s = fcViewer_GetScene(v);
    double* physics = malloc((size_t)frames * sizeof(double));
    double* plot = malloc((size_t)frames * sizeof(double));
    double* render = malloc((size_t)frames * sizeof(double));
    double* total = malloc((size_t)frames * sizeof(double));
    if (physics == NULL || plot == NULL || render == NULL || total == NULL) abort();
    long steps = 0;
    fcViewer_Frame(v, 1.0 / 60);  // warm up: the first frame compiles the GPU's state
    for (long f = 0; f < frames; ++f) {
        fcViewer_Frame(v, 1.0 / 60);
        fcViewerTimes t = fcViewer_GetTimes(v);
        physics[f] = t.physicsMs, plot[f] = t.plotMs, render[f] = t.renderMs - t.plotMs;
        total[f] = t.physicsMs + t.renderMs;
        steps += t.steps;
    }
    printf("viewer frame time, headless 1280x720 (offscreen; the software renderer without a GPU)\n");
    printf("demo         %s: %d bodies, %d joints, h = %.6g s, %ld frames of 1/60 s (%.2f steps a frame)\n", s->name,
           s->bodyCount, s->jointCount, fcWorld_GetTimestep(s->world), frames, (double)steps / (double)frames);
    const char* names[4] = {"physics", "plot", "render", "total"};
    double* values[4] = {physics, plot, render, total};
    printf("%-12s %10s %10s\n", "ms a frame", "mean", "p95");
    double meanTotal = 0;
    for (int k = 0; k < 4; ++k) {
        double mean, p95;
        fcStats(values[k], (int)frames, &mean, &p95);
        printf("%-12s %10.3f %10.3f\n", names[k], mean, p95);
        if (k == 3) meanTotal = mean;
    }
    printf("(physics: the steps of the frame; plot: building the plot panel's triangles on the CPU; render: the\n"
           " rest of the drawing, until glFinish)\n");
    printf("frames/s     %.1f at the mean total\n", meanTotal > 0 ? 1e3 / meanTotal : 0.0);
    free(physics);
    free(plot);
    free(render);
    free(total);
    fcViewer_Close(v);
    return 0;
}
