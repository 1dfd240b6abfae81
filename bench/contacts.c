// SPDX-License-Identifier: MIT
// fulcrum-bench-contacts: contact-heavy scenes (S3's pyramid of 210 boxes, S4's 1000 boxes raining into a
// bin, a 50-link chain falling on the ground, 20 ragdolls piled up) with sleeping off, and a pile of 1200 boxes
// asleep (what sleeping costs): ms per step (median of the runs' means), the broadphase / narrowphase / solve
// split, contacts, sweeps, complementarity residual and the largest penetration. Prints figures; never fails.
#include "fulcrum/fulcrum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static fcBodyId fcBench_Box(fcWorldId w, fcVec3 p, fcQuat q, fcVec3 half, double mass)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = p;
    bd.orientation = q;
    fcBodyId b = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_boxShape;
    sd.halfExtents = half;
    sd.density = mass / (8 * half.x * half.y * half.z);
    fcCreateShape(b, &sd);
    return b;
}

static fcBodyId fcBench_Capsule(fcWorldId w, fcVec3 p, fcQuat q, double r, double hh, double mass)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = p;
    bd.orientation = q;
    fcBodyId b = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_capsuleShape;
    sd.radius = r;
    sd.halfHeight = hh;
    sd.density = mass / (3.14159265358979 * r * r * (2 * hh + 4 * r / 3));
    fcCreateShape(b, &sd);
    return b;
}

static void fcBench_Static(fcWorldId w, fcShapeType type, fcVec3 p, fcVec3 half)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_staticBody;
    bd.position = p;
    fcBodyId b = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = type;
    sd.halfExtents = half;
    fcCreateShape(b, &sd);
}

static void fcBench_Ball(fcWorldId w, fcBodyId a, fcBodyId b, fcVec3 anchor)
{
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyA = a;
    jd.bodyB = b;
    jd.anchor = anchor;
    fcCreateJoint(w, &jd);
}

static void fcBench_Pyramid(fcWorldId w)
{
    fcBench_Static(w, fc_planeShape, fcV3(0, 0, 0), fcV3(1, 1, 1));
    for (int r = 0; r < 20; ++r)
        for (int j = 0; j < 20 - r; ++j)
            fcBench_Box(w, fcV3((j - (19 - r) / 2.0) * 1.05, 0, 0.5 + r), fcQuat_Identity(), fcV3(0.5, 0.5, 0.5), 1);
}

// benchmark-scenes.md S4, inside a 10 m bin
static void fcBench_Rain(fcWorldId w)
{
    fcBench_Static(w, fc_planeShape, fcV3(0, 0, 0), fcV3(1, 1, 1));
    fcBench_Static(w, fc_boxShape, fcV3(5.6, 0, 2), fcV3(0.1, 5.7, 2));
    fcBench_Static(w, fc_boxShape, fcV3(-5.6, 0, 2), fcV3(0.1, 5.7, 2));
    fcBench_Static(w, fc_boxShape, fcV3(0, 5.6, 2), fcV3(5.5, 0.1, 2));
    fcBench_Static(w, fc_boxShape, fcV3(0, -5.6, 2), fcV3(5.5, 0.1, 2));
    for (int l = 0; l < 10; ++l)
        for (int j = 0; j < 10; ++j)
            for (int i = 0; i < 10; ++i) {
                int k = i + 10 * j + 100 * l;
                fcQuat q = {1, 0.05 * (k % 7 - 3), 0.05 * (k % 5 - 2), 0.10 * (k % 3 - 1)};
                fcBench_Box(w, fcV3(i - 4.5, j - 4.5, 1 + l), fcQuat_Normalize(q), fcV3(0.25, 0.25, 0.25), 1);
            }
}

// 50 capsule links on ball joints, released horizontally 1 m above the ground
static void fcBench_Chain(fcWorldId w)
{
    fcBench_Static(w, fc_planeShape, fcV3(0, 0, 0), fcV3(1, 1, 1));
    fcQuat alongX = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 3.14159265358979 / 2);
    fcBodyId prev = fc_nullBodyId;
    for (int k = 0; k < 50; ++k) {
        fcBodyId link = fcBench_Capsule(w, fcV3(0.2 * k + 0.1, 0, 1), alongX, 0.04, 0.06, 0.5);
        if (k > 0) fcBench_Ball(w, prev, link, fcV3(0.2 * k, 0, 1));
        prev = link;
    }
}

// 20 ragdolls of 10 capsules (pelvis, torso, head, arms, legs) on ball joints, dropped in a pile
static void fcBench_Ragdolls(fcWorldId w)
{
    fcBench_Static(w, fc_planeShape, fcV3(0, 0, 0), fcV3(1, 1, 1));
    fcQuat up = fcQuat_Identity(), side = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 3.14159265358979 / 2);
    for (int d = 0; d < 20; ++d) {
        double x = 0.3 * (d % 3) - 0.3, y = 0.3 * ((d / 3) % 3) - 0.3, z = 1.2 + 1.0 * d;
        fcBodyId pelvis = fcBench_Capsule(w, fcV3(x, y, z), side, 0.1, 0.1, 8);
        fcBodyId torso = fcBench_Capsule(w, fcV3(x, y, z + 0.35), up, 0.12, 0.12, 15);
        fcBodyId head = fcBench_Capsule(w, fcV3(x, y, z + 0.72), up, 0.1, 0.02, 4);
        fcBench_Ball(w, pelvis, torso, fcV3(x, y, z + 0.12));
        fcBench_Ball(w, torso, head, fcV3(x, y, z + 0.6));
        for (int s = -1; s <= 1; s += 2) {
            fcBodyId upperArm = fcBench_Capsule(w, fcV3(x + s * 0.38, y, z + 0.5), side, 0.05, 0.1, 2);
            fcBodyId lowerArm = fcBench_Capsule(w, fcV3(x + s * 0.68, y, z + 0.5), side, 0.04, 0.1, 1.5);
            fcBodyId thigh = fcBench_Capsule(w, fcV3(x + s * 0.12, y, z - 0.3), up, 0.07, 0.12, 6);
            fcBodyId shin = fcBench_Capsule(w, fcV3(x + s * 0.12, y, z - 0.72), up, 0.06, 0.13, 4);
            fcBench_Ball(w, torso, upperArm, fcV3(x + s * 0.23, y, z + 0.5));
            fcBench_Ball(w, upperArm, lowerArm, fcV3(x + s * 0.53, y, z + 0.5));
            fcBench_Ball(w, pelvis, thigh, fcV3(x + s * 0.12, y, z - 0.1));
            fcBench_Ball(w, thigh, shin, fcV3(x + s * 0.12, y, z - 0.51));
        }
    }
}

// 1200 unit boxes in 3 layers of 20 x 20 columns 2 cm apart, on the ground: with sleeping on they settle and fall
// asleep within the settling steps, and the timed steps measure a world at rest
static void fcBench_SleepingPile(fcWorldId w)
{
    fcBench_Static(w, fc_planeShape, fcV3(0, 0, 0), fcV3(1, 1, 1));
    for (int layer = 0; layer < 3; ++layer)
        for (int i = 0; i < 20; ++i)
            for (int j = 0; j < 20; ++j)
                fcBench_Box(w, fcV3(i * 1.02, j * 1.02, 0.5 + layer), fcQuat_Identity(), fcV3(0.5, 0.5, 0.5), 1);
}

typedef struct fcBenchScene {
    const char* name;
    void (*build)(fcWorldId w);
    int steps;
    int settle;     // steps taken before the timed ones
    bool sleeping;  // the world's enableSleeping
} fcBenchScene;

static int fcCompareDouble(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

int main(int argc, char** argv)
{
    int repeat = 3, threads = 1;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--quick") == 0) quick = true, repeat = 1;
        else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: fulcrum-bench-contacts [--quick] [--repeat R] [--threads T]\n");
            return 2;
        }
    }
    if (repeat < 1 || repeat > 50) {
        fprintf(stderr, "fulcrum-bench-contacts: --repeat must be 1..50\n");
        return 2;
    }
    if (threads < 1 || threads > FC_MAX_WORKERS) {
        fprintf(stderr, "fulcrum-bench-contacts: --threads must be 1..%d\n", FC_MAX_WORKERS);
        return 2;
    }
    fcBenchScene scenes[] = {{"pyramid20", fcBench_Pyramid, 600, 0, false},
                             {"rain1000", fcBench_Rain, 300, 0, false},
                             {"chain50", fcBench_Chain, 300, 0, false},
                             {"ragdolls20", fcBench_Ragdolls, 300, 0, false},
                             {"asleep1200", fcBench_SleepingPile, 300, 900, true}};
    printf("fulcrum-bench-contacts  fcReal %s  h = 1/60 s, sleeping off (asleep1200: on, timed after 900 steps), defaults (2 substeps x 8 sweeps, more while unsettled), %d thread%s%s\n",
           sizeof(fcReal) == 8 ? "double" : "float", threads, threads > 1 ? "s" : "",
           quick ? "  QUICK (smoke run: figures not meaningful)" : "");
    printf("ms/step: median over %d runs of the per-run mean; split: means over the run\n\n", repeat);
    printf("%-11s %6s %8s %8s %8s %8s %8s %8s %7s %7s %6s %9s %9s\n", "scene", "bodies", "ms/step", "worst", "broad",
           "narrow", "csolve", "joints", "pairs", "points", "sweeps", "resid m/s", "pen m");
    int asleepAwake = 0;
    for (size_t s = 0; s < sizeof scenes / sizeof scenes[0]; ++s) {
        double means[50], worst = 0, broad = 0, narrow = 0, csolve = 0, joints = 0, resid = 0, pen = 0;
        int pairs = 0, points = 0, sweeps = 0, bodies = 0, awake = 0;
        int steps = quick ? 10 : scenes[s].steps;
        for (int r = 0; r < repeat; ++r) {
            fcWorldDef wd = fcDefaultWorldDef();
            wd.enableSleeping = scenes[s].sleeping;
            wd.workerCount = threads;
            fcWorldId w = fcCreateWorld(&wd);
            scenes[s].build(w);
            bodies = fcWorld_GetBodyCount(w);
            for (int i = 0; i < (quick ? 0 : scenes[s].settle); ++i) fcWorld_Step(w);
            double total = 0;
            for (int i = 0; i < steps; ++i) {
                fcWorld_Step(w);
                fcWorldStats st = fcWorld_GetStats(w);
                total += st.profile.step;
                worst = fmax(worst, st.profile.step);
                if (r == 0) {
                    broad += st.profile.broadphase / steps;
                    narrow += st.profile.narrowphase / steps;
                    csolve += (st.profile.contactSolve + st.profile.contactPositions) / steps;
                    joints += (st.profile.factor + st.profile.solve + st.profile.project) / steps;
                    pairs = st.shapePairs > pairs ? st.shapePairs : pairs;
                    points = st.contactPoints > points ? st.contactPoints : points;
                    sweeps = st.contactIterations > sweeps ? st.contactIterations : sweeps;
                    resid = fmax(resid, st.complementarityResidual);
                    pen = fmax(pen, st.maxPenetration);
                    awake = st.awakeBodies > awake ? st.awakeBodies : awake;
                }
            }
            means[r] = total / steps;
            fcDestroyWorld(w);
        }
        qsort(means, (size_t)repeat, sizeof means[0], fcCompareDouble);
        printf("%-11s %6d %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %7d %7d %6d %9.2e %9.2e\n", scenes[s].name, bodies, means[repeat / 2],
               worst, broad, narrow, csolve, joints, pairs, points, sweeps, resid, pen);
        if (scenes[s].sleeping) asleepAwake = awake;
    }
    printf("\nresid: worst complementarity residual of a step (max over rows of |min(lambda_n / m_eff, gap rate)|);\n"
           "pen: deepest overlap after a step; sweeps: most PGS sweeps in a step (summed over its substeps);\n"
           "asleep1200: at most %d of its boxes awake in a timed step (pairs and points: the pile's at rest).\n",
           asleepAwake);
    return 0;
}
