// SPDX-License-Identifier: MIT
// fulcrum-bench: the same scenes in Fulcrum and in the peer engines found at build time (ODE, Bullet, MuJoCo),
// speed and accuracy side by side. A scene is a Fulcrum JSON scene file; the harness loads it with
// fcScene_Load and hands every adapter the same engine-neutral description, read back from the loaded world
// through the public API (adapter.h). Every figure is computed here, the same way for every engine, from the
// poses and velocities the engine returns (joint separation, energy, penetration against the ground, drift)
// or from its own reports (contact depth, joint force). Each (scene, engine) cell runs in a child process, so a
// peer that aborts, runs out of memory or hangs is reported as "not run" with the reason. See
// docs/benchmarks.md. Prints figures; never fails (exit 2 on bad arguments or an unreadable scene).
#define _POSIX_C_SOURCE 200809L

#include "adapter.h"
#include "scene.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FCB_SCENE_DIR
#define FCB_SCENE_DIR "bench/scenes"
#endif
#ifndef FC_BENCH_RESULTS_DIR
#define FC_BENCH_RESULTS_DIR "bench/results"
#endif
#ifndef FC_BENCH_BUILD_TYPE
#define FC_BENCH_BUILD_TYPE ""
#endif

#define FCB_TIME_LIMIT_S 60.0
#define FCB_MAX_REPEAT 100  // runs a cell (--repeat)
#define FCB_MAX_STEPS 100000000  // steps a run (--steps, or a scene's duration / dt)

// ---------------------------------------------------------------------------------------------------------------------
// Standard scenes
// ---------------------------------------------------------------------------------------------------------------------

enum { fig_sep = 1, fig_energy = 2, fig_drift = 4, fig_tension = 8 };

typedef struct StdScene {
    const char* name;
    const char* file;  // in FCB_SCENE_DIR; NULL: a chain written in memory with chainLinks links
    int chainLinks;
    double dt;         // 0: the file's
    int steps;
    int figures;
} StdScene;

static const StdScene stdScenes[] = {
    {"S1", "s1_chain.json", 0, 0, 600, fig_sep | fig_energy},
    {"S2", "s2_heavy_chain.json", 0, 0, 600, fig_sep | fig_energy},
    // S1 and S2 at h = 1/600 s for 1 s of simulated time (issue 5: separation <= 1e-9 m there)
    {"S1@600", "s1_chain.json", 0, 1.0 / 600, 600, fig_sep | fig_energy},
    {"S2@600", "s2_heavy_chain.json", 0, 1.0 / 600, 600, fig_sep | fig_energy},
    {"S3", "s3_pyramid.json", 0, 0, 600, fig_drift},
    {"S4", "s4_rain.json", 0, 0, 300, 0},
    {"S5", "s5_pendulum.json", 0, 1.0 / 240, 284, fig_tension | fig_sep},
    {"S5@60", "s5_pendulum.json", 0, 1.0 / 60, 71, fig_tension | fig_sep},
    {"S6-1000", NULL, 1000, 1.0 / 60, 60, fig_sep | fig_energy},
    {"S6-10000", NULL, 10000, 1.0 / 60, 60, fig_sep | fig_energy},
    {"S7", "s7_ragdolls.json", 0, 0, 300, fig_sep},
};
#define STD_SCENE_COUNT ((int)(sizeof stdScenes / sizeof stdScenes[0]))

// The S1 chain with n links (S6), one body or joint per line, as bench/scenes/gen_scenes.py writes S1.
static char* ChainJson(int n)
{
    size_t cap = 400 + (size_t)n * 400, len = 0;
    char* s = malloc(cap);
    if (!s) return NULL;
    len += (size_t)snprintf(s + len, cap - len,
                            "{\"name\": \"S6-%d\", \"description\": \"S1 chain with %d links\", \"timestep\": "
                            "0.016666666666666666, \"sleeping\": false,\n\"bodies\": [\n",
                            n, n);
    for (int i = 0; i < n; ++i)
        len += (size_t)snprintf(s + len, cap - len,
                                "{\"name\": \"link%d\", \"position\": [%.12g, 0, 0], \"mass\": 1.0, \"inertia\": "
                                "[6.666666666666667e-05, 0.0008666666666666667, 0.0008666666666666667], \"shapes\": "
                                "[{\"type\": \"box\", \"half_extents\": [0.05, 0.01, 0.01], \"filter\": {\"category\": 1, \"mask\": 0}}]}%s\n",
                                i, 0.05 + 0.1 * i, i + 1 < n ? "," : "");
    len += (size_t)snprintf(s + len, cap - len, "],\n\"joints\": [\n");
    for (int i = 0; i < n; ++i) {
        char a[32];
        if (i == 0)
            snprintf(a, sizeof a, "world");
        else
            snprintf(a, sizeof a, "link%d", i - 1);
        len += (size_t)snprintf(s + len, cap - len,
                                "{\"name\": \"j%d\", \"type\": \"ball\", \"body_a\": \"%s\", \"body_b\": \"link%d\", "
                                "\"anchor\": [%.12g, 0, 0]}%s\n",
                                i, a, i, 0.1 * i, i + 1 < n ? "," : "");
    }
    snprintf(s + len, cap - len, "]}\n");
    return s;
}

// dst = a b c, cut to fit n bytes (snprintf with %s would warn about the cut)
static void Join(char* dst, size_t n, const char* a, const char* b, const char* c)
{
    const char* parts[3] = {a, b, c};
    size_t len = 0;
    for (int i = 0; i < 3; ++i)
        for (const char* p = parts[i]; *p && len + 1 < n; ++p) dst[len++] = *p;
    if (n > 0) dst[len] = 0;
}

// The whole of a regular file as a string; NULL with the reason when it cannot be read (a directory or a pipe has
// no size to take: ftell gave LONG_MAX or -1, and the allocation or the read failed with a misleading reason)
static char* ReadFile(const char* path, const char** why)
{
    // the kind of file before it is opened: opening a pipe no one writes to waits for ever
    struct stat st;
    if (stat(path, &st) != 0) {
        *why = strerror(errno);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file";
        return NULL;
    }
    FILE* f = fopen(path, "rb");
    if (!f) {
        *why = strerror(errno);
        return NULL;
    }
    char* s = NULL;
    if (fstat(fileno(f), &st) != 0) *why = strerror(errno);
    else if (!S_ISREG(st.st_mode)) *why = "it is not a regular file";
    else if ((s = malloc((size_t)st.st_size + 1)) == NULL) *why = "out of memory";
    else if (fread(s, 1, (size_t)st.st_size, f) != (size_t)st.st_size) *why = "the read fell short";
    else if (s[st.st_size] = 0, strlen(s) != (size_t)st.st_size) *why = "it holds a NUL byte";  // the loader would stop there
    else *why = NULL;
    fclose(f);
    if (*why == NULL) return s;
    free(s);
    return NULL;
}

// ---------------------------------------------------------------------------------------------------------------------
// The engine-neutral scene, read back from the loaded Fulcrum world
// ---------------------------------------------------------------------------------------------------------------------

typedef struct LoadedScene {
    fcbScene s;
    char name[64];
    char* json;
    int steps;
    int figures;
    char peerRefusal[200];  // non-empty: the scene uses something the peer adapters do not build
} LoadedScene;

static void V3(double out[3], fcVec3 v) { out[0] = v.x, out[1] = v.y, out[2] = v.z; }
static void Q4(double out[4], fcQuat q) { out[0] = q.w, out[1] = q.x, out[2] = q.y, out[3] = q.z; }

static bool Extract(LoadedScene* L, const fcScene* sc, char* err, size_t errSize)
{
    fcbScene* s = &L->s;
    V3(s->gravity, fcWorld_GetGravity(sc->world));
    s->bodyCount = sc->bodyCount;
    s->bodies = calloc((size_t)sc->bodyCount + 1, sizeof *s->bodies);
    for (int i = 0; i < sc->bodyCount; ++i) {
        fcBodyId id = sc->bodies[i];
        fcbBody* b = &s->bodies[i];
        fcBodyType type = fcBody_GetType(id);
        if (type == fc_kinematicBody) {
            snprintf(err, errSize, "body %s is kinematic: the benchmark takes static and dynamic bodies only", sc->bodyNames[i]);
            return false;
        }
        b->dynamic = type == fc_dynamicBody;
        V3(b->pos, fcBody_GetPosition(id));
        Q4(b->quat, fcBody_GetOrientation(id));
        V3(b->vel, fcBody_GetLinearVelocity(id));
        V3(b->angvel, fcBody_GetAngularVelocity(id));
        if (b->dynamic) {
            b->mass = fcBody_GetMass(id);
            V3(b->inertia, fcBody_GetInertia(id));
            fcMat33 t = fcBody_GetInertiaTensor(id);
            if (fabs(t.cx.y) + fabs(t.cx.z) + fabs(t.cy.z) > 1e-12 * (b->inertia[0] + b->inertia[1] + b->inertia[2]))
                snprintf(L->peerRefusal, sizeof L->peerRefusal, "body %s has a non-diagonal inertia tensor", sc->bodyNames[i]);
        }
        int n = fcBody_GetShapeCount(id);
        if (n > FCB_MAX_SHAPES) {
            snprintf(err, errSize, "body %s has %d shapes (at most %d)", sc->bodyNames[i], n, FCB_MAX_SHAPES);
            return false;
        }
        b->shapeCount = n;
        bool colliding = false;
        for (int k = 0; k < n; ++k) {
            fcShapeDef d = fcShape_GetDef(fcBody_GetShape(id, k));
            fcbShape* sh = &b->shapes[k];
            sh->radius = d.radius;
            sh->halfHeight = d.halfHeight;
            V3(sh->half, d.halfExtents);
            V3(sh->pos, d.localPosition);
            Q4(sh->quat, d.localOrientation);
            sh->friction = d.friction;
            sh->restitution = d.restitution;
            sh->collides = d.categoryBits != 0 && d.maskBits != 0 && !d.isSensor;
            switch (d.type) {
                case fc_sphereShape: sh->type = fcb_sphere; break;
                case fc_boxShape: sh->type = fcb_box; break;
                case fc_capsuleShape: sh->type = fcb_capsule; break;
                case fc_planeShape: sh->type = fcb_plane; break;
                default:
                    sh->type = fcb_sphere;
                    if (sh->collides)
                        snprintf(L->peerRefusal, sizeof L->peerRefusal, "body %s has a shape type the adapters do not build", sc->bodyNames[i]);
                    sh->collides = false;
            }
            if (sh->collides && sh->type == fcb_plane) s->hasGround = true;
            if (sh->collides && b->dynamic) colliding = true;
        }
        if (colliding) ++s->collidingBodies;
    }
    int nj = sc->jointCount - sc->springCount;
    if (sc->springCount > 0) snprintf(L->peerRefusal, sizeof L->peerRefusal, "the scene has springs");
    s->jointCount = nj;
    s->joints = calloc((size_t)nj + 1, sizeof *s->joints);
    for (int j = 0; j < nj; ++j) {
        fcJointId id = sc->joints[j];
        fcbJoint* jt = &s->joints[j];
        fcJointType type = fcJoint_GetType(id);
        if (type != fc_ballJoint && type != fc_hingeJoint)
            snprintf(L->peerRefusal, sizeof L->peerRefusal, "joint %s is a %s joint (the adapters build ball and hinge joints)",
                     sc->jointNames[j], fcJointType_GetName(type));
        jt->type = type == fc_hingeJoint ? fcb_hinge : fcb_ball;
        fcBodyId a = fcJoint_GetBodyA(id), b = fcJoint_GetBodyB(id);
        jt->a = jt->b = -1;
        for (int i = 0; i < sc->bodyCount; ++i) {
            if (FC_IS_NON_NULL(a) && FC_ID_EQUALS(a, sc->bodies[i])) jt->a = i;
            if (FC_ID_EQUALS(b, sc->bodies[i])) jt->b = i;
        }
        if (jt->a >= 0 && !s->bodies[jt->a].dynamic) jt->a = -1;  // joined to a static body: the world
        fcVec3 pa = fcJoint_GetAnchorA(id), pb = fcJoint_GetAnchorB(id);
        V3(jt->anchor, pb);
        V3(jt->localA, jt->a >= 0 ? fcBody_GetLocalPoint(a, pa) : pa);
        V3(jt->localB, fcBody_GetLocalPoint(b, pb));
        V3(jt->axis, fcQuat_Rotate(fcJoint_GetReaction(id).frame, fcV3(0, 0, 1)));
    }
    return true;
}

static bool LoadScene(const char* arg, double dtOverride, int stepsOverride, LoadedScene* L, char* err, size_t errSize)
{
    memset(L, 0, sizeof *L);
    const StdScene* std = NULL;
    for (int i = 0; i < STD_SCENE_COUNT; ++i)
        if (strcmp(arg, stdScenes[i].name) == 0) std = &stdScenes[i];
    char path[1024];
    const char* why = "out of memory";  // ChainJson's only failure
    if (std && std->file) {
        snprintf(path, sizeof path, "%s/%s", FCB_SCENE_DIR, std->file);
        L->json = ReadFile(path, &why);
    } else if (std) {
        L->json = ChainJson(std->chainLinks);
        snprintf(path, sizeof path, "%s", std->name);
    } else {
        snprintf(path, sizeof path, "%s", arg);
        L->json = ReadFile(path, &why);
    }
    if (!L->json) {
        Join(err, errSize, path, ": cannot read the scene: ", why);
        return false;
    }
    fcScene sc;
    if (!fcScene_LoadString(L->json, path, &sc, err, errSize)) return false;
    snprintf(L->name, sizeof L->name, "%s", std ? std->name : sc.name);
    L->s.name = L->name;
    L->s.json = L->json;
    L->s.dt = dtOverride > 0 ? dtOverride : (std && std->dt > 0 ? std->dt : sc.timestep);
    L->s.threads = 1;
    double steps = stepsOverride > 0 ? stepsOverride : std ? std->steps : ceil(sc.duration / L->s.dt - 1e-9);
    if (!(steps >= 1 && steps <= FCB_MAX_STEPS)) {  // (int) of 1e300 / h was INT_MIN, and the run's arrays overflowed
        snprintf(err, errSize, "%.200s: duration %g s at dt %g s is %g steps: 1 to %d are run", path, sc.duration, L->s.dt, steps,
                 FCB_MAX_STEPS);
        fcScene_Free(&sc);
        return false;
    }
    L->steps = (int)steps;
    bool ok = Extract(L, &sc, err, errSize);
    L->figures = std ? std->figures : (L->s.jointCount > 0 ? fig_sep : 0) | fig_energy;
    // the tension figure needs the pendulum: one dynamic body on one joint to the world
    if ((L->figures & fig_tension) && !(L->s.jointCount >= 1 && L->s.joints[0].a < 0)) L->figures &= ~fig_tension;
    fcScene_Free(&sc);
    return ok;
}

static void FreeScene(LoadedScene* L)
{
    free(L->s.bodies);
    free(L->s.joints);
    free(L->json);
}

// ---------------------------------------------------------------------------------------------------------------------
// Small geometry
// ---------------------------------------------------------------------------------------------------------------------

static void Rotate(const double q[4], const double v[3], double out[3])
{
    double w = q[0], x = q[1], y = q[2], z = q[3];
    double t[3] = {2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])};
    out[0] = v[0] + w * t[0] + (y * t[2] - z * t[1]);
    out[1] = v[1] + w * t[1] + (z * t[0] - x * t[2]);
    out[2] = v[2] + w * t[2] + (x * t[1] - y * t[0]);
}

static void InvRotate(const double q[4], const double v[3], double out[3])
{
    double c[4] = {q[0], -q[1], -q[2], -q[3]};
    Rotate(c, v, out);
}

static void QuatMul(const double a[4], const double c[4], double q[4])
{
    q[0] = a[0] * c[0] - a[1] * c[1] - a[2] * c[2] - a[3] * c[3];
    q[1] = a[0] * c[1] + a[1] * c[0] + a[2] * c[3] - a[3] * c[2];
    q[2] = a[0] * c[2] - a[1] * c[3] + a[2] * c[0] + a[3] * c[1];
    q[3] = a[0] * c[3] + a[1] * c[2] - a[2] * c[1] + a[3] * c[0];
}

static double Dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static bool StateFinite(const fcbState* st)
{
    for (int k = 0; k < 3; ++k)
        if (!isfinite(st->pos[k]) || !isfinite(st->vel[k]) || !isfinite(st->angvel[k])) return false;
    for (int k = 0; k < 4; ++k)
        if (!isfinite(st->quat[k])) return false;
    return true;
}

static void WorldPoint(const fcbState* st, const double local[3], double out[3])
{
    Rotate(st->quat, local, out);
    for (int k = 0; k < 3; ++k) out[k] += st->pos[k];
}

// ---------------------------------------------------------------------------------------------------------------------
// One cell: an adapter on a scene, R runs
// ---------------------------------------------------------------------------------------------------------------------

typedef struct Result {
    char scene[24], engine[16], settings[32];
    double dt;
    int steps, runs, stepsDone;
    bool ran;
    double msMedian, msMin, msMax, msWorst;
    double sepMax, sepTime;
    int sepJoint;
    double e0, eEnd, eRise;
    double eHalf0, eHalfRise, kineticMax;  // the half-step energy E~ (its start, largest rise), largest kinetic energy
    double penEngine, penPose, drift;
    int maxPoints;
    double tensionRel60, tensionAbs, tensionPeak;
    char status[200];
} Result;

static Result* fcbCurrent;  // the child's result, for fcbFatal
static int fcbResultFd = -1;

static double NowS(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int CompareDoubles(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

double fcbAvailableBytes(void)
{
    FILE* f = fopen("/proc/meminfo", "r");
    double kb = 0;
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1) break;
    if (f) fclose(f);
    return kb > 0 ? kb * 1024 : 4e9;
}

const char* fcbTree_Build(const fcbScene* s, fcbTree* t, char* why, size_t n)
{
    int nb = s->bodyCount;
    t->parentJoint = malloc(((size_t)nb + 1) * sizeof(int));
    t->order = malloc(((size_t)nb + 1) * sizeof(int));
    t->count = 0;
    int* firstChild = malloc(((size_t)nb + 1) * sizeof(int));  // a joint; the joint's next sibling in nextSibling
    int* nextSibling = malloc(((size_t)s->jointCount + 1) * sizeof(int));
    int* stack = malloc(((size_t)nb + 1) * sizeof(int));
    const char* bad = NULL;
    if (s->jointCount == 0) {
        snprintf(why, n, "no joints: the tree settings apply to jointed scenes (here they would be the free bodies' setting)");
        bad = why;
    }
    for (int i = 0; i < nb; ++i) t->parentJoint[i] = -1, firstChild[i] = -1;
    for (int j = 0; j < s->jointCount && !bad; ++j) {
        const fcbJoint* jt = &s->joints[j];
        if (!s->bodies[jt->b].dynamic) {
            snprintf(why, n, "joint %d has a static body_b (body %d): not a tree", j, jt->b);
            bad = why;
        } else if (t->parentJoint[jt->b] >= 0) {
            snprintf(why, n, "body %d is body_b of joints %d and %d (two parent joints): not a tree", jt->b,
                     t->parentJoint[jt->b], j);
            bad = why;
        } else {
            t->parentJoint[jt->b] = j;
            // pushed at the head, so the list runs from the last joint down; the stack below pops it in joint order
            if (jt->a >= 0) nextSibling[j] = firstChild[jt->a], firstChild[jt->a] = j;
        }
    }
    int dynamic = 0;
    for (int r = 0; r < nb && !bad; ++r) {
        if (!s->bodies[r].dynamic) continue;
        ++dynamic;
        if (!fcbTree_IsRoot(s, t, r)) continue;
        int top = 0;
        stack[top++] = r;
        while (top > 0) {
            int b = stack[--top];
            t->order[t->count++] = b;
            for (int j = firstChild[b]; j >= 0; j = nextSibling[j]) stack[top++] = s->joints[j].b;
        }
    }
    // every body has at most one parent, so one that no root reaches has a chain of parents that comes back to it
    if (!bad && t->count < dynamic) {
        snprintf(why, n, "the joints form a loop (%d bodies are not reached from a root): not a tree", dynamic - t->count);
        bad = why;
    }
    free(firstChild);
    free(nextSibling);
    free(stack);
    if (bad) fcbTree_Free(t);
    return bad;
}

void fcbTree_Free(fcbTree* t)
{
    free(t->parentJoint);
    free(t->order);
    t->parentJoint = t->order = NULL;
    t->count = 0;
}

const char* fcbTree_Refuse(const fcbScene* s, char* why, size_t n)
{
    fcbTree t;
    if (fcbTree_Build(s, &t, why, n)) return why;
    fcbTree_Free(&t);
    return NULL;
}

bool fcbTree_IsRoot(const fcbScene* s, const fcbTree* t, int body)
{
    int j = t->parentJoint[body];
    return j < 0 || s->joints[j].a < 0;
}

// E = sum 1/2 m v^2 + 1/2 w^T I w - m g . x; also the kinetic part, and the half-step energy E~ = E + (h/2) sum
// m g . v: the potential taken at the middle of the last step, which a semi-implicit Euler step (every engine
// here) keeps constant to first order where E swings by (h/2) m g v_z (a free fall keeps E~ and loses
// (h/2) m g^2 h of E a step)
static double Energy(const fcbScene* s, const fcbState* st, double* kinetic, double* half)
{
    double e = 0, k = 0, power = 0;
    for (int i = 0; i < s->bodyCount; ++i) {
        const fcbBody* b = &s->bodies[i];
        if (!b->dynamic) continue;
        double wl[3];
        InvRotate(st[i].quat, st[i].angvel, wl);
        k += 0.5 * b->mass * Dot(st[i].vel, st[i].vel);
        k += 0.5 * (b->inertia[0] * wl[0] * wl[0] + b->inertia[1] * wl[1] * wl[1] + b->inertia[2] * wl[2] * wl[2]);
        e -= b->mass * Dot(s->gravity, st[i].pos);
        power += b->mass * Dot(s->gravity, st[i].vel);
    }
    if (kinetic) *kinetic = k;
    if (half) *half = e + k + 0.5 * s->dt * power;
    return e + k;
}

// deepest overlap of a dynamic body's colliding shapes below any static plane, from the poses alone
static double PosePenetration(const fcbScene* s, const fcbState* st)
{
    double pen = 0;
    for (int pi = 0; pi < s->bodyCount; ++pi) {
        const fcbBody* pb = &s->bodies[pi];
        if (pb->dynamic) continue;
        for (int pk = 0; pk < pb->shapeCount; ++pk) {
            const fcbShape* ps = &pb->shapes[pk];
            if (!ps->collides || ps->type != fcb_plane) continue;
            double q[4], n[3], p0[3], ez[3] = {0, 0, 1};
            QuatMul(pb->quat, ps->quat, q);
            Rotate(q, ez, n);
            Rotate(pb->quat, ps->pos, p0);
            for (int k = 0; k < 3; ++k) p0[k] += pb->pos[k];
            double d = Dot(n, p0);
            for (int i = 0; i < s->bodyCount; ++i) {
                const fcbBody* b = &s->bodies[i];
                if (!b->dynamic) continue;
                for (int k = 0; k < b->shapeCount; ++k) {
                    const fcbShape* sh = &b->shapes[k];
                    if (!sh->collides) continue;
                    double c[3], sq[4];
                    WorldPoint(&st[i], sh->pos, c);
                    QuatMul(st[i].quat, sh->quat, sq);
                    double low = Dot(n, c) - d;
                    if (sh->type == fcb_sphere) {
                        low -= sh->radius;
                    } else if (sh->type == fcb_capsule) {
                        double ax[3];
                        Rotate(sq, ez, ax);
                        low -= sh->halfHeight * fabs(Dot(n, ax)) + sh->radius;
                    } else if (sh->type == fcb_box) {
                        for (int e = 0; e < 3; ++e) {
                            double u[3] = {e == 0, e == 1, e == 2}, col[3];
                            Rotate(sq, u, col);
                            low -= sh->half[e] * fabs(Dot(n, col));
                        }
                    }
                    if (-low > pen) pen = -low;
                }
            }
        }
    }
    return pen;
}

static bool FiguresAfterStep(const LoadedScene* L, const fcbAdapter* ad, void* ctx, fcbState* st, int step, Result* r,
                             double tensionF, double cosTheta)
{
    const fcbScene* s = &L->s;
    double t = (step + 1) * s->dt;
    for (int i = 0; i < s->bodyCount; ++i) {
        ad->getState(ctx, i, &st[i]);
        if (!StateFinite(&st[i])) {
            snprintf(r->status, sizeof r->status, "NaN at t = %.3g s", t);
            return false;
        }
    }
    for (int j = 0; j < s->jointCount; ++j) {
        const fcbJoint* jt = &s->joints[j];
        double pa[3], pb[3];
        if (jt->a >= 0)
            WorldPoint(&st[jt->a], jt->localA, pa);
        else
            memcpy(pa, jt->localA, sizeof pa);
        WorldPoint(&st[jt->b], jt->localB, pb);
        double dx[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
        double sep = sqrt(Dot(dx, dx));
        if (sep > r->sepMax) r->sepMax = sep, r->sepJoint = j, r->sepTime = t;
    }
    double kinetic, half, e = Energy(s, st, &kinetic, &half);
    r->eEnd = e;
    if (e - r->e0 > r->eRise) r->eRise = e - r->e0;
    if (half - r->eHalf0 > r->eHalfRise) r->eHalfRise = half - r->eHalf0;
    if (kinetic > r->kineticMax) r->kineticMax = kinetic;
    int points = 0;
    double pen = ad->penetration ? ad->penetration(ctx, &points) : -1;
    if (pen > r->penEngine) r->penEngine = pen;
    if (points > r->maxPoints) r->maxPoints = points;
    if (s->hasGround) {
        double pp = PosePenetration(s, st);
        if (pp > r->penPose) r->penPose = pp;
    }
    if ((L->figures & fig_tension) && step * s->dt < 1.18) {
        const fcbBody* bob = &s->bodies[s->joints[0].b];
        double g = sqrt(Dot(s->gravity, s->gravity)), mg3 = 3 * bob->mass * g;
        double T = mg3 * cosTheta, err = fabs(tensionF - T);
        if (cosTheta >= 0.5 && err / T > r->tensionRel60) r->tensionRel60 = err / T;
        if (err / mg3 > r->tensionAbs) r->tensionAbs = err / mg3;
        if (tensionF / mg3 > r->tensionPeak) r->tensionPeak = tensionF / mg3;
    }
    return true;
}

// One run in a fresh world; the step times go to ms[]; figures when figures is set. false: stop the cell.
static bool RunOnce(const LoadedScene* L, const fcbAdapter* ad, bool figures, double* ms, Result* r)
{
    const fcbScene* s = &L->s;
    char err[512] = "";
    void* ctx = ad->create(s, err, sizeof err);
    if (!ctx) {
        Join(r->status, sizeof r->status, "not run: ", err[0] ? err : "the world could not be built", "");
        return false;
    }
    fcbState* st = calloc((size_t)s->bodyCount + 1, sizeof *st);
    double* p0 = calloc((size_t)s->bodyCount * 3 + 1, sizeof *p0);
    for (int i = 0; i < s->bodyCount; ++i) {
        ad->getState(ctx, i, &st[i]);
        memcpy(&p0[3 * i], st[i].pos, sizeof st[i].pos);
    }
    if (figures) r->e0 = r->eEnd = Energy(s, st, NULL, &r->eHalf0);
    bool ok = true;
    double start = NowS();
    int done = 0;
    for (int k = 0; k < L->steps; ++k) {
        double cosTheta = 0, F = 0;
        if (figures && (L->figures & fig_tension)) {
            const fcbJoint* jt = &s->joints[0];
            fcbState b;
            ad->getState(ctx, jt->b, &b);
            double d[3] = {b.pos[0] - jt->anchor[0], b.pos[1] - jt->anchor[1], b.pos[2] - jt->anchor[2]};
            cosTheta = -d[2] / sqrt(Dot(d, d));
        }
        double t0 = NowS();
        ad->step(ctx);
        ms[k] = (NowS() - t0) * 1e3;
        done = k + 1;
        if (figures) {
            double f[3] = {0, 0, 0};
            if ((L->figures & fig_tension) && ad->jointForce && ad->jointForce(ctx, 0, f)) F = sqrt(Dot(f, f));
            if (!FiguresAfterStep(L, ad, ctx, st, k, r, F, cosTheta)) {
                ok = false;
                break;
            }
        }
        double elapsed = NowS() - start;
        if (elapsed > 1.0 && elapsed / done * L->steps > FCB_TIME_LIMIT_S) {
            snprintf(r->status, sizeof r->status, "not run: would take ~%.0f s (> %.0f s): %d steps took %.1f s",
                     elapsed / done * L->steps, FCB_TIME_LIMIT_S, done, elapsed);
            ok = false;
            break;
        }
    }
    if (figures) {
        r->stepsDone = done;
        if (ok && (L->figures & fig_drift))
            for (int i = 0; i < s->bodyCount; ++i) {
                if (!s->bodies[i].dynamic) continue;
                double d[3] = {st[i].pos[0] - p0[3 * i], st[i].pos[1] - p0[3 * i + 1], st[i].pos[2] - p0[3 * i + 2]};
                if (sqrt(Dot(d, d)) > r->drift) r->drift = sqrt(Dot(d, d));
            }
    }
    free(st);
    free(p0);
    ad->destroy(ctx);
    return ok;
}

static void WriteResult(const Result* r)
{
    if (fcbResultFd < 0) return;
    const char* p = (const char*)r;
    size_t left = sizeof *r;
    while (left > 0) {
        ssize_t n = write(fcbResultFd, p, left);
        if (n <= 0) break;
        p += n;
        left -= (size_t)n;
    }
}

// An adapter's last word when its engine is about to abort the process (MuJoCo's mju_error, say).
void fcbFatal(const char* message);
void fcbFatal(const char* message)
{
    if (fcbCurrent) {
        Join(fcbCurrent->status, sizeof fcbCurrent->status, "not run: ", message, "");
        fcbCurrent->ran = false;
        WriteResult(fcbCurrent);
    }
    _exit(3);
}

// One run of a cell in a fresh world, its figures measured when `figures`: its mean step goes to msMedian (RunRounds
// takes the median over the runs), its slowest to msWorst. A run that ends in NaN is a result: its time per step up
// to the NaN counts.
static void RunCell(const LoadedScene* L, const fcbAdapter* ad, bool figures, Result* r)
{
    r->ran = false;
    char why[256];
    if (L->peerRefusal[0] && strcmp(ad->engine, "fulcrum") != 0) {
        Join(r->status, sizeof r->status, "not run: ", L->peerRefusal, "");
        return;
    }
    if (ad->refuse && ad->refuse(&L->s, why, sizeof why)) {
        Join(r->status, sizeof r->status, "not run: ", why, "");
        return;
    }
    double* ms = calloc((size_t)L->steps + 1, sizeof *ms);
    snprintf(r->status, sizeof r->status, "ok");
    r->msWorst = 0;
    bool finished = RunOnce(L, ad, figures, ms, r);
    if (finished || strncmp(r->status, "NaN", 3) == 0) {
        int steps = finished ? L->steps : r->stepsDone;
        double sum = 0;
        for (int i = 0; i < steps; ++i) sum += ms[i], r->msWorst = fmax(r->msWorst, ms[i]);
        r->msMedian = r->msMin = r->msMax = steps > 0 ? sum / steps : 0;
        r->runs = 1;
        r->ran = true;
    }
    free(ms);
}

// The cell in a child process: an engine that aborts, exhausts memory or hangs takes only the child with it.
static void RunCellIsolated(const LoadedScene* L, const fcbAdapter* ad, bool figures, Result* r)
{
    memset(r, 0, sizeof *r);
    Join(r->scene, sizeof r->scene, L->name, "", "");
    snprintf(r->engine, sizeof r->engine, "%s", ad->engine);
    // Fulcrum steps on --threads workers (bit-identical results); the peers here are single-threaded
    if (strcmp(ad->engine, "fulcrum") == 0 && L->s.threads > 1)
        snprintf(r->settings, sizeof r->settings, "%s/%dthr", ad->settings, L->s.threads);
    else
        snprintf(r->settings, sizeof r->settings, "%s", ad->settings);
    r->dt = L->s.dt;
    r->steps = L->steps;
    int fds[2];
    fflush(stdout);
    fflush(stderr);
    if (pipe(fds) != 0) {
        RunCell(L, ad, figures, r);
        return;
    }
    double limitS = FCB_TIME_LIMIT_S + 45;
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        fcbResultFd = fds[1];
        fcbCurrent = r;
#if !defined(__SANITIZE_ADDRESS__)  // AddressSanitizer reserves terabytes of address space: no limit there
        double avail = fcbAvailableBytes();
        struct rlimit lim = {(rlim_t)(0.8 * avail) + ((rlim_t)1 << 30), (rlim_t)(0.8 * avail) + ((rlim_t)1 << 30)};
        setrlimit(RLIMIT_AS, &lim);
#endif
        RunCell(L, ad, figures, r);
        WriteResult(r);
        _exit(0);
    }
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        RunCell(L, ad, figures, r);
        return;
    }
    Result got;
    size_t have = 0;
    double start = NowS();
    bool killed = false;
    while (have < sizeof got) {
        struct pollfd p = {fds[0], POLLIN, 0};
        int left = (int)((limitS - (NowS() - start)) * 1000);
        if (left <= 0 || poll(&p, 1, left) == 0) {
            kill(pid, SIGKILL);
            killed = true;
            break;
        }
        ssize_t n = read(fds[0], (char*)&got + have, sizeof got - have);
        if (n <= 0) break;
        have += (size_t)n;
    }
    close(fds[0]);
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    if (have == sizeof got) {
        *r = got;
    } else if (killed) {
        snprintf(r->status, sizeof r->status, "not run: no result within %.0f s (the limit is %.0f s a run)", limitS,
                 FCB_TIME_LIMIT_S);
    } else if (WIFSIGNALED(wstatus)) {
        snprintf(r->status, sizeof r->status, "not run: the engine crashed (signal %d%s)", WTERMSIG(wstatus),
                 WTERMSIG(wstatus) == SIGKILL || WTERMSIG(wstatus) == SIGABRT ? ", out of memory?" : "");
    } else {
        snprintf(r->status, sizeof r->status, "not run: the engine exited with code %d (out of memory?)",
                 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1);
    }
}

#define FCB_MAX_CELLS 16

// whether a scene has room for another cell (the engines built in have 9 settings); says so when it has not
static bool CellRoom(const char* scene, int count)
{
    if (count < FCB_MAX_CELLS) return true;
    fprintf(stderr, "fulcrum-bench: %s: more than %d engine settings; the rest are left out\n", scene, FCB_MAX_CELLS);
    return false;
}

// A scene's cells in rounds: each round runs every cell once (in a child, as above), so that a minute when the
// shared machine is slow falls on every engine alike, not on the one whose runs it happened to be; a cell that
// did not finish its first run (not run, NaN) is not run again. ms/step: the median of the runs' means.
static void RunRounds(const LoadedScene* L, const fcbAdapter* const* cells, int count, int repeat, Result* results)
{
    double means[FCB_MAX_CELLS][FCB_MAX_REPEAT];
    for (int round = 0; round < repeat; ++round)
        for (int c = 0; c < count; ++c) {
            Result* r = results + c;
            if (cells[c] == NULL) continue;  // the row is filled in
            if (round == 0) {
                RunCellIsolated(L, cells[c], true, r);
                if (r->ran) means[c][0] = r->msMedian;
                continue;
            }
            if (!r->ran || strcmp(r->status, "ok") != 0 || r->runs < round) continue;
            Result more;
            RunCellIsolated(L, cells[c], false, &more);
            if (!more.ran || strcmp(more.status, "ok") != 0) continue;
            means[c][r->runs++] = more.msMedian;
            r->msWorst = fmax(r->msWorst, more.msWorst);
        }
    for (int c = 0; c < count; ++c) {
        Result* r = results + c;
        int runs = r->runs;
        if (cells[c] == NULL || !r->ran || runs == 0) continue;
        qsort(means[c], (size_t)runs, sizeof means[c][0], CompareDoubles);
        r->msMin = means[c][0];
        r->msMax = means[c][runs - 1];
        r->msMedian = runs % 2 ? means[c][runs / 2] : 0.5 * (means[c][runs / 2 - 1] + means[c][runs / 2]);
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Verdicts and output
// ---------------------------------------------------------------------------------------------------------------------

// What the figures say, in words (the rules are restated in docs/benchmarks.md).
static void Verdict(const LoadedScene* L, Result* r)
{
    if (!r->ran || strcmp(r->status, "ok") != 0) return;
    char v[200] = "";
    size_t n = 0;
    if (L->s.jointCount > 0 && r->sepMax > 0.1)
        n += (size_t)snprintf(v + n, sizeof v - n, "%storn apart", n ? ", " : "");
    else if (L->s.jointCount > 0 && r->sepMax > 1e-3)
        n += (size_t)snprintf(v + n, sizeof v - n, "%sjoints open", n ? ", " : "");
    // a gain, not the integrator's O(h) swing of E: E~ above its start by more than 1e-3 of the energy at stake
    double scale = fmax(fmax(fabs(r->e0), r->kineticMax), 1);
    if ((L->figures & fig_energy) && r->eHalfRise > 1e-3 * scale)
        n += (size_t)snprintf(v + n, sizeof v - n, "%senergy rises", n ? ", " : "");
    // deeper than any impact of the standard scenes goes (S4's boxes: 0.5 m): a body left through the ground
    if (L->s.hasGround && r->penPose > 1.0)
        n += (size_t)snprintf(v + n, sizeof v - n, "%sthrough the ground", n ? ", " : "");
    if ((L->figures & fig_drift) && r->drift > 0.5)
        n += (size_t)snprintf(v + n, sizeof v - n, "%scollapsed", n ? ", " : "");
    else if ((L->figures & fig_drift))
        n += (size_t)snprintf(v + n, sizeof v - n, "%sstands", n ? ", " : "");
    if (n) snprintf(r->status, sizeof r->status, "%s", v);
}

static void Fmt(char* out, size_t n, bool show, double v)
{
    if (show)
        snprintf(out, n, "%.2e", v);
    else
        snprintf(out, n, "-");
}

static void PrintHeader(FILE* f)
{
    fprintf(f, "%-8s %-8s %-19s %4s %5s %9s %9s %9s %10s %10s %10s %9s %9s %9s %8s %8s %6s  %s\n", "scene", "engine",
            "settings", "1/h", "steps", "ms/step", "worst ms", "sep max", "E rise J", "E~ rise J", "E end J", "pen eng",
            "pen pose", "drift m", "F err60", "peak F", "points", "status");
}

// a row whose runs went through every step (a NaN may come at the last one)
static bool RanToEnd(const Result* r)
{
    return r->ran && r->msMedian > 0 && r->stepsDone == r->steps && strncmp(r->status, "NaN", 3) != 0 &&
           strncmp(r->status, "not run", 7) != 0;
}

// Per scene, Fulcrum's ms/step against the fastest peer row that ran the scene to its end (whatever its verdict:
// a chain torn apart still took its time): the peer's ms over Fulcrum's, > 1 where Fulcrum is faster
static void PrintRatios(FILE* f, const Result* rs, int n)
{
    bool header = false;
    for (int i = 0; i < n; ++i) {
        const Result* own = rs + i;
        if (strcmp(own->engine, "fulcrum") != 0 || !RanToEnd(own)) continue;
        const Result* best = NULL;
        for (int k = 0; k < n; ++k) {
            const Result* p = rs + k;
            if (strcmp(p->scene, own->scene) != 0 || strcmp(p->engine, "fulcrum") == 0 || !RanToEnd(p)) continue;
            if (best == NULL || p->msMedian < best->msMedian) best = p;
        }
        if (!best) continue;
        if (!header) fprintf(f, "\nFulcrum against the fastest peer that ran the scene to its end (its ms/step over Fulcrum's):\n");
        header = true;
        fprintf(f, "  %-8s fulcrum %-12s %9.4f ms   %-6s %-19s %9.4f ms   %5.2fx   (%s)\n", own->scene, own->settings, own->msMedian,
                best->engine, best->settings, best->msMedian, best->msMedian / own->msMedian, best->status);
    }
}

static void PrintRow(FILE* f, const LoadedScene* L, const Result* r)
{
    char ms[16], worst[16], sep[16], rise[16], half[16], end[16], pe[16], pp[16], dr[16], fe[16], pk[16], pts[16];
    bool ran = r->ran;
    bool full = ran && r->stepsDone == r->steps;
    if (ran) {
        snprintf(ms, sizeof ms, "%.4f", r->msMedian);
        snprintf(worst, sizeof worst, "%.3f", r->msWorst);
    } else {
        snprintf(ms, sizeof ms, "-");
        snprintf(worst, sizeof worst, "-");
    }
    Fmt(sep, sizeof sep, ran && L->s.jointCount > 0, r->sepMax);
    Fmt(rise, sizeof rise, full && (L->figures & fig_energy), r->eRise);
    Fmt(half, sizeof half, full && (L->figures & fig_energy), r->eHalfRise);
    Fmt(end, sizeof end, full && (L->figures & fig_energy), r->eEnd);
    Fmt(pe, sizeof pe, ran && L->s.hasGround, r->penEngine);
    Fmt(pp, sizeof pp, ran && L->s.hasGround, r->penPose);
    Fmt(dr, sizeof dr, full && (L->figures & fig_drift), r->drift);
    Fmt(fe, sizeof fe, ran && (L->figures & fig_tension), r->tensionRel60);
    if (ran && (L->figures & fig_tension))
        snprintf(pk, sizeof pk, "%.3f", r->tensionPeak);
    else
        snprintf(pk, sizeof pk, "-");
    if (ran && L->s.hasGround)
        snprintf(pts, sizeof pts, "%d", r->maxPoints);
    else
        snprintf(pts, sizeof pts, "-");
    fprintf(f, "%-8s %-8s %-19s %4.0f %5d %9s %9s %9s %10s %10s %10s %9s %9s %9s %8s %8s %6s  %s\n", r->scene, r->engine,
            r->settings, 1 / r->dt, r->steps, ms, worst, sep, rise, half, end, pe, pp, dr, fe, pk, pts, r->status);
    fflush(f);
}

// a string as a JSON value: a scene's name may hold quotes and backslashes (the --json output was not JSON)
static void JsonString(FILE* f, const char* s)
{
    fputc('"', f);
    for (; *s; ++s) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

// a string as a CSV field: quoted, its quotes doubled (a comma in a scene's name split the row)
static void CsvString(FILE* f, const char* s, const char* after)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fprintf(f, "\"%s", after);
}

static void CsvHeader(FILE* f)
{
    fprintf(f, "scene,engine,settings,dt,steps,runs,steps_done,ms_step,ms_step_min,ms_step_max,ms_worst_step,sep_max_m,"
               "sep_joint,sep_time_s,e0_j,e_end_j,e_rise_j,e_half_rise_j,pen_engine_m,pen_pose_m,drift_m,max_points,"
               "tension_rel60,tension_abs_3mg,tension_peak_3mg,status\n");
}

static void CsvRow(FILE* f, const Result* r)
{
    CsvString(f, r->scene, ",");
    fprintf(f, "%s,%s,%.10g,%d,%d,%d,%.6f,%.6f,%.6f,%.6f,%.6e,%d,%.6g,%.9g,%.9g,%.6e,%.6e,%.6e,%.6e,%.6e,%d,%.6e,%.6e,%.6e,",
            r->engine, r->settings, r->dt, r->steps, r->runs, r->stepsDone, r->msMedian, r->msMin, r->msMax,
            r->msWorst, r->sepMax, r->sepJoint, r->sepTime, r->e0, r->eEnd, r->eRise, r->eHalfRise, r->penEngine, r->penPose,
            r->drift, r->maxPoints, r->tensionRel60, r->tensionAbs, r->tensionPeak);
    CsvString(f, r->status, "\n");
}

static void JsonRow(FILE* f, const Result* r, bool first)
{
    fprintf(f, "%s{\"scene\": ", first ? "" : ",\n");
    JsonString(f, r->scene);
    fputs(", \"engine\": ", f);
    JsonString(f, r->engine);
    fputs(", \"settings\": ", f);
    JsonString(f, r->settings);
    fprintf(f,
            ", \"dt\": %.10g, \"steps\": %d, \"runs\": %d, "
            "\"steps_done\": %d, \"ran\": %s, \"ms_step\": %.6f, \"ms_step_min\": %.6f, \"ms_step_max\": %.6f, "
            "\"ms_worst_step\": %.6f, \"sep_max_m\": %.6e, \"sep_joint\": %d, \"sep_time_s\": %.6g, \"e0_j\": %.9g, "
            "\"e_end_j\": %.9g, \"e_rise_j\": %.6e, \"e_half_rise_j\": %.6e, \"pen_engine_m\": %.6e, \"pen_pose_m\": %.6e, \"drift_m\": %.6e, "
            "\"max_points\": %d, \"tension_rel60\": %.6e, \"tension_abs_3mg\": %.6e, \"tension_peak_3mg\": %.6e, "
            "\"status\": ",
            r->dt, r->steps, r->runs, r->stepsDone,
            r->ran ? "true" : "false", r->msMedian, r->msMin, r->msMax, r->msWorst, r->sepMax, r->sepJoint, r->sepTime,
            r->e0, r->eEnd, r->eRise, r->eHalfRise, r->penEngine, r->penPose, r->drift, r->maxPoints, r->tensionRel60,
            r->tensionAbs, r->tensionPeak);
    JsonString(f, r->status);
    fputc('}', f);
}

static int MakeDirs(const char* path)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char* p = tmp + 1; *p; ++p)
        if (*p == '/') {
            *p = 0;
            mkdir(tmp, 0777);
            *p = '/';
        }
    return mkdir(tmp, 0777) == 0 || errno == EEXIST ? 0 : -1;
}

// ---------------------------------------------------------------------------------------------------------------------
// The bar chart (--chart FILE.png; --suite writes bench/results/bench.png): ms per step of every cell that ran, per
// scene and engine/settings, on a log scale, rasterized on the CPU and written with stb_image_write. Labels with
// stb_easy_font when it was found; without it the chart has no text and its values go to FILE.png.csv.
// ---------------------------------------------------------------------------------------------------------------------

#ifdef FCB_HAVE_STB_WRITE
#ifdef FCB_STB_FLAT
#include <stb_image_write.h>
#else
#include <stb/stb_image_write.h>
#endif
#ifdef FCB_HAVE_STB_FONT
#ifdef FCB_STB_FLAT
#include <stb_easy_font.h>
#else
#include <stb/stb_easy_font.h>
#endif
#endif

typedef struct Canvas {
    int w, h;
    unsigned char* px;
} Canvas;

static void FillRect(Canvas* c, int x0, int y0, int x1, int y1, const unsigned char rgb[3])
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->w) x1 = c->w;
    if (y1 > c->h) y1 = c->h;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) memcpy(&c->px[3 * ((size_t)y * (size_t)c->w + (size_t)x)], rgb, 3);
}

// text at (x, y) (top left), scale s pixels per font unit; returns the width drawn (0 without the font)
static int Text(Canvas* c, int x, int y, int s, const char* text, const unsigned char rgb[3])
{
#ifdef FCB_HAVE_STB_FONT
    static char vbuf[200000];
    char t[256];
    snprintf(t, sizeof t, "%s", text);
    unsigned char col[4] = {rgb[0], rgb[1], rgb[2], 255};
    int quads = stb_easy_font_print(0, 0, t, col, vbuf, sizeof vbuf);
    for (int q = 0; q < quads; ++q) {
        const float* v = (const float*)(vbuf + (size_t)q * 64);  // 4 vertices of 16 bytes: x, y, z, rgba
        float xa = v[0], xb = v[0], ya = v[1], yb = v[1];
        for (int k = 1; k < 4; ++k) {
            xa = fminf(xa, v[4 * k]), xb = fmaxf(xb, v[4 * k]);
            ya = fminf(ya, v[4 * k + 1]), yb = fmaxf(yb, v[4 * k + 1]);
        }
        FillRect(c, x + (int)lroundf(xa * (float)s), y + (int)lroundf(ya * (float)s), x + (int)lroundf(xb * (float)s),
                 y + (int)lroundf(yb * (float)s), rgb);
    }
    return stb_easy_font_width(t) * s;
#else
    (void)c, (void)x, (void)y, (void)s, (void)text, (void)rgb;
    return 0;
#endif
}

static const unsigned char chartColors[][3] = {
    {214, 39, 40},   {31, 119, 180}, {174, 199, 232}, {44, 160, 44}, {255, 127, 14},
    {255, 187, 120}, {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
};
#define CHART_COLOR_COUNT ((int)(sizeof chartColors / sizeof chartColors[0]))

static bool WriteChart(const char* path, const Result* rs, int n, const char* stamp, char* err, size_t errSize)
{
    // the variants (engine + settings) and the scenes, in order of first appearance
    char variants[16][48];
    char scenes[32][24];
    int nv = 0, ns = 0;
    double lo = 1e30, hi = 0;
    for (int i = 0; i < n; ++i) {
        char v[48];
        Join(v, sizeof v, rs[i].engine, " ", rs[i].settings);
        int k = 0;
        while (k < nv && strcmp(variants[k], v) != 0) ++k;
        if (k == nv && nv < 16) snprintf(variants[nv++], sizeof variants[0], "%s", v);
        k = 0;
        while (k < ns && strcmp(scenes[k], rs[i].scene) != 0) ++k;
        if (k == ns && ns < 32) Join(scenes[ns++], sizeof scenes[0], rs[i].scene, "", "");
        if (rs[i].ran && rs[i].msMedian > 0) lo = fmin(lo, rs[i].msMedian), hi = fmax(hi, rs[i].msMedian);
    }
    if (ns == 0 || hi <= 0) {
        snprintf(err, errSize, "no cell ran: nothing to chart");
        return false;
    }
    int d0 = (int)floor(log10(lo)), d1 = (int)ceil(log10(hi));
    if (d1 <= d0) d1 = d0 + 1;
    const int bar = 14, gap = 20, left = 90, top = 50, plotH = 420, legendH = 20 * ((nv + 2) / 3) + 30;
    int groupW = nv * bar + gap;
    int W = left + ns * groupW + 40, H = top + plotH + 40 + legendH;
    if (W < 1200) W = 1200;
    Canvas c = {W, H, malloc((size_t)W * (size_t)H * 3)};
    if (!c.px) {
        snprintf(err, errSize, "out of memory");
        return false;
    }
    memset(c.px, 255, (size_t)W * (size_t)H * 3);
    const unsigned char black[3] = {0, 0, 0}, grid[3] = {220, 220, 220}, grey[3] = {90, 90, 90};
    char title[200];
    snprintf(title, sizeof title, "fulcrum-bench: ms per step (log scale; lower is faster)   %s   build %s", stamp,
             FC_BENCH_BUILD_TYPE);
    Text(&c, left, 12, 2, title, black);
    int y0 = top, y1 = top + plotH;  // plot area rows
    for (int d = d0; d <= d1; ++d) {
        int y = y1 - (int)lround((double)(d - d0) / (d1 - d0) * plotH);
        FillRect(&c, left, y, left + ns * groupW, y + 1, grid);
        char lab[32];
        if (d >= 0)
            snprintf(lab, sizeof lab, "%.0f", pow(10, d));
        else
            snprintf(lab, sizeof lab, "%.*f", -d, pow(10, d));
        Text(&c, 8, y - 6, 2, lab, grey);
    }
    FillRect(&c, left - 1, y0, left, y1 + 1, black);
    FillRect(&c, left - 1, y1, left + ns * groupW, y1 + 1, black);
    for (int si = 0; si < ns; ++si) {
        int gx = left + si * groupW + gap / 2;
        for (int i = 0; i < n; ++i) {
            if (strcmp(rs[i].scene, scenes[si]) != 0) continue;
            char v[48];
            Join(v, sizeof v, rs[i].engine, " ", rs[i].settings);
            int k = 0;
            while (k < nv && strcmp(variants[k], v) != 0) ++k;
            if (k >= nv) continue;
            int x = gx + k * bar;
            if (rs[i].ran && rs[i].msMedian > 0) {
                double f = (log10(rs[i].msMedian) - d0) / (d1 - d0);
                int y = y1 - (int)lround(f * plotH);
                if (y > y1 - 2) y = y1 - 2;
                FillRect(&c, x, y, x + bar - 1, y1, chartColors[k % CHART_COLOR_COUNT]);
            } else {
                Text(&c, x + 1, y1 - 16, 2, "x", grey);  // not run
            }
        }
        Text(&c, gx, y1 + 8, 2, scenes[si], black);
    }
    int ly = y1 + 40;
    for (int k = 0; k < nv; ++k) {
        int lx = left + (k % 3) * 370, yy = ly + (k / 3) * 20;
        FillRect(&c, lx, yy, lx + 14, yy + 14, chartColors[k % CHART_COLOR_COUNT]);
        Text(&c, lx + 20, yy, 2, variants[k], black);
    }
    Text(&c, left, ly + ((nv + 2) / 3) * 20 + 4, 1,
         "x: not run (see the table: too slow, too much memory, or the engine failed). Bars: median over the runs of "
         "each run's mean step.",
         grey);
    bool ok = stbi_write_png(path, W, H, 3, c.px, W * 3) != 0;
    free(c.px);
    if (!ok) {
        Join(err, errSize, "cannot write ", path, "");
        return false;
    }
#ifndef FCB_HAVE_STB_FONT
    // no font: the chart has no labels, so its values go next to it
    char csvPath[1100];
    Join(csvPath, sizeof csvPath, path, ".csv", "");
    FILE* f = fopen(csvPath, "w");
    if (f) {
        fprintf(f, "# the bars of %s, left to right; colour index = variant\nscene,variant_index,engine,settings,ms_step,ran\n", path);
        for (int si = 0; si < ns; ++si)
            for (int i = 0; i < n; ++i) {
                if (strcmp(rs[i].scene, scenes[si]) != 0) continue;
                char v[48];
                Join(v, sizeof v, rs[i].engine, " ", rs[i].settings);
                int k = 0;
                while (k < nv && strcmp(variants[k], v) != 0) ++k;
                fprintf(f, "%s,%d,%s,%s,%.6f,%d\n", rs[i].scene, k, rs[i].engine, rs[i].settings, rs[i].msMedian, rs[i].ran);
            }
        fclose(f);
    }
#endif
    return true;
}
#endif

// ---------------------------------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------------------------------

// The adapters' check (--check-adapters SCENE, the bench_adapters_agree test): every adapter built in builds the
// scene, and what its engine holds, read back through the adapter (readBack, jointAnchors), must match Fulcrum's
// world: the same number of dynamic bodies, the same total mass to 1e-12 relative, every joint's two anchors within
// 1e-12 m. Fulcrum's own read-back is checked against the scene description the same way. 0: all agree; 1: not.
static bool CheckOne(const LoadedScene* L, const fcbAdapter* ad, int refBodies, double refMass, const double* refA,
                     const double* refB, const char* against)
{
    char err[512] = "";
    void* ctx = ad->create(&L->s, err, sizeof err);
    if (!ctx) {
        printf("  %-8s %-19s FAIL: the world could not be built: %s\n", ad->engine, ad->settings, err);
        return false;
    }
    bool ok = true;
    int bodies = -1;
    double mass = 0, worst = 0;
    if (!ad->readBack || !ad->jointAnchors) {
        printf("  %-8s %-19s FAIL: the adapter has no read-back\n", ad->engine, ad->settings);
        ad->destroy(ctx);
        return false;
    }
    ad->readBack(ctx, &bodies, &mass);
    double massRel = fabs(mass - refMass) / fmax(fabs(refMass), 1e-300);
    int badJoint = -1;
    for (int j = 0; j < L->s.jointCount; ++j) {
        double pa[3], pb[3];
        if (!ad->jointAnchors(ctx, j, pa, pb)) {
            badJoint = j;
            worst = INFINITY;
            break;
        }
        for (int k = 0; k < 3; ++k) {
            double d = fmax(fabs(pa[k] - refA[3 * j + k]), fabs(pb[k] - refB[3 * j + k]));
            if (!(d <= worst)) worst = d, badJoint = j;
        }
    }
    if (bodies != refBodies || !(massRel <= 1e-12) || !(worst <= 1e-12)) ok = false;
    char where[48] = "";
    if (badJoint >= 0) snprintf(where, sizeof where, " (joint %d)", badJoint);
    printf("  %-8s %-19s %d dynamic bodies (%s: %d), total mass %.17g kg (rel. diff %.1e), %d joints: largest "
           "anchor diff %.1e m%s  %s\n",
           ad->engine, ad->settings, bodies, against, refBodies, mass, massRel, L->s.jointCount, worst, where,
           ok ? "ok" : "FAIL");
    ad->destroy(ctx);
    return ok;
}

static int CheckAdapters(const LoadedScene* L, const char* engineList);

typedef struct EngineEntry {
    const char* name;
    int (*get)(const fcbAdapter** out);
} EngineEntry;

static const EngineEntry engines[] = {
    {"fulcrum", fcbFulcrum_Adapters},
#ifdef FCB_HAVE_ODE
    {"ode", fcbOde_Adapters},
#endif
#ifdef FCB_HAVE_BULLET
    {"bullet", fcbBullet_Adapters},
#endif
#ifdef FCB_HAVE_MUJOCO
    {"mujoco", fcbMujoco_Adapters},
#endif
};
#define ENGINE_COUNT ((int)(sizeof engines / sizeof engines[0]))

static const char* const allEngines[] = {"fulcrum", "ode", "bullet", "mujoco"};

static void Usage(FILE* f)
{
    fprintf(f,
            "usage: fulcrum-bench [--engine fulcrum|ode|bullet|mujoco[,...]] [--settings NAME] [--scene NAME|FILE.json]\n"
            "                     [--steps N] [--dt H] [--repeat R] [--threads T] [--json] [--csv FILE] [--chart FILE.png] [--list]\n"
            "       fulcrum-bench --suite [--repeat R] [--threads T] [--engine ...] [--only SCENE[,SCENE...]] [--csv FILE] [--chart FILE.png] [--json]\n"
            "       fulcrum-bench --check-adapters SCENE [--engine ...]   (the adapters build the same world; exit 1 if not)\n"
            "standard scenes:");
    for (int i = 0; i < STD_SCENE_COUNT; ++i) fprintf(f, " %s", stdScenes[i].name);
    fprintf(f, "\nengines built in:");
    for (int i = 0; i < ENGINE_COUNT; ++i) fprintf(f, " %s", engines[i].name);
    fprintf(f, "\n");
}

static bool InList(const char* list, const char* name)
{
    if (!list) return true;
    size_t n = strlen(name);
    for (const char* p = list; *p;) {
        const char* e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return true;
        if (!e) break;
        p = e + 1;
    }
    return false;
}

int main(int argc, char** argv)
{
    const char* engineList = NULL;
    const char* settingsName = NULL;
    const char* sceneArg = NULL;
    const char* only = NULL;
    const char* csvPath = NULL;
    const char* chartPath = NULL;
    const char* checkScene = NULL;
    int steps = 0, repeat = 0, threads = 1;
    double dt = 0;
    bool suite = false, json = false, list = false;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        bool hasValue = i + 1 < argc;
        // numbers are checked whole and in range (atoi took "5x" as 5, "abc" as the default, 1e11 wrapped)
        long whole = 0;
        bool number = strcmp(a, "--steps") == 0 || strcmp(a, "--repeat") == 0 || strcmp(a, "--threads") == 0;
        if (number && hasValue) {
            long hi = strcmp(a, "--steps") == 0 ? FCB_MAX_STEPS : strcmp(a, "--repeat") == 0 ? FCB_MAX_REPEAT : FC_MAX_WORKERS;
            if (!fcScene_ParseWhole(argv[i + 1], 1, hi, &whole)) {
                fprintf(stderr, "fulcrum-bench: %s must be a whole number from 1 to %ld, got \"%s\"\n", a, hi, argv[i + 1]);
                return 2;
            }
        }
        if (strcmp(a, "--dt") == 0 && hasValue && (!fcScene_ParseNumber(argv[i + 1], &dt) || !(dt >= 1e-9 && dt <= 1))) {
            fprintf(stderr, "fulcrum-bench: --dt must be a number in [1e-9, 1] s, got \"%s\"\n", argv[i + 1]);
            return 2;
        }
        if (strcmp(a, "--engine") == 0 && hasValue) engineList = argv[++i];
        else if (strcmp(a, "--settings") == 0 && hasValue) settingsName = argv[++i];
        else if (strcmp(a, "--scene") == 0 && hasValue) sceneArg = argv[++i];
        else if (strcmp(a, "--only") == 0 && hasValue) only = argv[++i];
        else if (strcmp(a, "--csv") == 0 && hasValue) csvPath = argv[++i];
        else if (strcmp(a, "--chart") == 0 && hasValue) chartPath = argv[++i];
        else if (strcmp(a, "--check-adapters") == 0 && hasValue) checkScene = argv[++i];
        else if (strcmp(a, "--steps") == 0 && hasValue) steps = (int)whole, ++i;
        else if (strcmp(a, "--repeat") == 0 && hasValue) repeat = (int)whole, ++i;
        else if (strcmp(a, "--threads") == 0 && hasValue) threads = (int)whole, ++i;
        else if (strcmp(a, "--dt") == 0 && hasValue) ++i;  // read above
        else if (strcmp(a, "--suite") == 0) suite = true;
        else if (strcmp(a, "--json") == 0) json = true;
        else if (strcmp(a, "--list") == 0) list = true;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            Usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "fulcrum-bench: unknown or incomplete option %s\n", a);
            Usage(stderr);
            return 2;
        }
    }
    if (list) {
        Usage(stdout);
        return 0;
    }
    if (checkScene) {
        LoadedScene L;
        char err[1024];
        if (!LoadScene(checkScene, dt, steps, &L, err, sizeof err)) {
            fprintf(stderr, "fulcrum-bench: %s\n", err);
            FreeScene(&L);
            return 2;
        }
        int rc = CheckAdapters(&L, engineList);
        FreeScene(&L);
        return rc;
    }
    if (!suite && !sceneArg) {
        Usage(stderr);
        return 2;
    }
    if (repeat > FCB_MAX_REPEAT) {
        fprintf(stderr, "fulcrum-bench: --repeat %d: at most %d runs a cell\n", repeat, FCB_MAX_REPEAT);
        return 2;
    }
    if (steps < 0 || repeat < 0 || dt < 0 || threads < 1 || threads > FC_MAX_WORKERS || (suite && sceneArg)) {
        Usage(stderr);
        return 2;
    }
    if (repeat == 0) repeat = suite ? 3 : 1;
#ifndef FCB_HAVE_STB_WRITE
    if (chartPath) {
        fprintf(stderr, "fulcrum-bench: --chart: this build has no PNG writer (install libstb-dev and rebuild)\n");
        return 2;
    }
#endif
    for (const char* p = engineList; p && *p;) {
        const char* e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        bool known = false;
        for (int k = 0; k < 4; ++k) known |= strlen(allEngines[k]) == len && strncmp(allEngines[k], p, len) == 0;
        if (!known) {
            fprintf(stderr, "fulcrum-bench: unknown engine %.*s\n", (int)len, p);
            return 2;
        }
        if (!e) break;
        p = e + 1;
    }

    bool settingsKnown = settingsName == NULL;  // a name no adapter has ran nothing and said nothing
    for (int i = 0; i < ENGINE_COUNT && !settingsKnown; ++i) {
        const fcbAdapter* ads;
        int n = engines[i].get(&ads);
        for (int a = 0; a < n; ++a) settingsKnown |= strcmp(settingsName, ads[a].settings) == 0;
    }
    if (!settingsKnown) {
        fprintf(stderr, "fulcrum-bench: no engine built in has the settings \"%s\" (--list names them)\n", settingsName);
        return 2;
    }

    time_t now = time(NULL);
    char stamp[64];
    strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    FILE* out = json ? stderr : stdout;
    fprintf(out, "fulcrum-bench  %s  build %s  fcReal %s  repeat %d  threads %d (Fulcrum; the peers step on one)  engines built in:",
            stamp, FC_BENCH_BUILD_TYPE, sizeof(fcReal) == sizeof(double) ? "double" : "float", repeat, threads);
    for (int i = 0; i < ENGINE_COUNT; ++i) fprintf(out, " %s", engines[i].name);
    for (int k = 0; k < 4; ++k) {
        bool built = false;
        for (int i = 0; i < ENGINE_COUNT; ++i) built |= strcmp(engines[i].name, allEngines[k]) == 0;
        if (!built) fprintf(out, " (%s not found at build time)", allEngines[k]);
    }
    fprintf(out, "\nms/step: median over the runs (in rounds over the engines) of each run's mean step; worst: slowest step of all runs; sep max: "
                 "largest joint anchor gap (m); E rise: max E(t) - E(0) (J); E~ rise: the same for the half-step energy "
                 "E + (h/2) sum m g . v, which semi-implicit Euler keeps where E swings by (h/2) m g v_z (J; the "
                 "'energy rises' verdict); pen eng: deepest contact the engine "
                 "reported (m); pen pose: deepest overlap with the ground from the poses (m); drift: largest box "
                 "displacement at the end (m); F err60: max |F - 3mg cos th| / (3mg cos th) for th <= 60 deg; "
                 "peak F: largest |F| / 3mg; points: most contact points of a step. Figures from run 1.\n\n");
    PrintHeader(out);

    FILE* csv = NULL;
    char csvDefault[1200];
    if (suite || csvPath) {
        if (!csvPath) {
            MakeDirs(FC_BENCH_RESULTS_DIR);
            snprintf(csvDefault, sizeof csvDefault, "%s/bench.csv", FC_BENCH_RESULTS_DIR);
            csvPath = csvDefault;
        }
        csv = fopen(csvPath, "w");
        if (!csv) fprintf(stderr, "fulcrum-bench: cannot write %s: %s\n", csvPath, strerror(errno));
        if (csv) CsvHeader(csv);
    }
    if (json) printf("[\n");

    int sceneCount = suite ? STD_SCENE_COUNT : 1;
    static Result results[512];
    int resultCount = 0;
    bool firstJson = true;
    int status = 0;
    for (int si = 0; si < sceneCount; ++si) {
        const char* name = suite ? stdScenes[si].name : sceneArg;
        if (suite && !InList(only, name)) continue;
        LoadedScene L;
        char err[1024];
        bool loaded = LoadScene(name, dt, steps, &L, err, sizeof err);
        L.s.threads = threads;
        if (!loaded) {
            fprintf(stderr, "fulcrum-bench: %s\n", err);
            FreeScene(&L);
            status = 2;
            if (!suite) break;
            continue;
        }
        const fcbAdapter* cells[FCB_MAX_CELLS];
        static Result cellResults[FCB_MAX_CELLS];
        int cellCount = 0;
        for (int k = 0; k < 4; ++k) {
            if (!InList(engineList, allEngines[k])) continue;
            int ei = -1;
            for (int i = 0; i < ENGINE_COUNT; ++i)
                if (strcmp(engines[i].name, allEngines[k]) == 0) ei = i;
            if (ei < 0) {
                if (engineList && CellRoom(L.name, cellCount)) {
                    Result* r = cellResults + cellCount;
                    cells[cellCount++] = NULL;  // a row, not a cell to run
                    memset(r, 0, sizeof *r);
                    Join(r->scene, sizeof r->scene, L.name, "", "");
                    snprintf(r->engine, sizeof r->engine, "%s", allEngines[k]);
                    snprintf(r->settings, sizeof r->settings, "-");
                    r->dt = L.s.dt;
                    r->steps = L.steps;
                    snprintf(r->status, sizeof r->status, "not run: %s was not found when fulcrum-bench was built", allEngines[k]);
                }
                continue;
            }
            const fcbAdapter* ads;
            int n = engines[ei].get(&ads);
            for (int a = 0; a < n; ++a)
                if ((!settingsName || strcmp(settingsName, ads[a].settings) == 0) && CellRoom(L.name, cellCount))
                    cells[cellCount++] = ads + a;
        }
        RunRounds(&L, cells, cellCount, repeat, cellResults);
        for (int c = 0; c < cellCount; ++c) {
            Result* r = cellResults + c;
            Verdict(&L, r);
            PrintRow(out, &L, r);
            if (resultCount < (int)(sizeof results / sizeof results[0])) results[resultCount++] = *r;
            if (csv) CsvRow(csv, r), fflush(csv);
            if (json) JsonRow(stdout, r, firstJson), firstJson = false, fflush(stdout);
        }
        FreeScene(&L);
    }
    if (json) printf("\n]\n");
    PrintRatios(out, results, resultCount);
    fprintf(out, "\nsettings:\n");
    for (int i = 0; i < ENGINE_COUNT; ++i) {
        if (!InList(engineList, engines[i].name)) continue;
        const fcbAdapter* ads;
        int n = engines[i].get(&ads);
        for (int a = 0; a < n; ++a) fprintf(out, "  %-8s %-19s %s\n", ads[a].engine, ads[a].settings, ads[a].details);
    }
    if (csv) {
        fclose(csv);
        fprintf(out, "\nCSV written to %s\n", csvPath);
    }
#ifdef FCB_HAVE_STB_WRITE
    char chartDefault[1200];
    if (suite && !chartPath) {
        MakeDirs(FC_BENCH_RESULTS_DIR);
        snprintf(chartDefault, sizeof chartDefault, "%s/bench.png", FC_BENCH_RESULTS_DIR);
        chartPath = chartDefault;
    }
    if (chartPath) {
        char err[1200];
#ifdef FCB_HAVE_STB_FONT
        const char* note = "";
#else
        const char* note = " (no labels: stb_easy_font not found; the values are in the .csv next to it)";
#endif
        if (WriteChart(chartPath, results, resultCount, stamp, err, sizeof err))
            fprintf(out, "chart written to %s%s\n", chartPath, note);
        else
            fprintf(stderr, "fulcrum-bench: --chart: %s\n", err);
    }
#else
    if (suite) fprintf(out, "no chart: this build has no PNG writer (libstb-dev)\n");
#endif
    return status;
}

static int CheckAdapters(const LoadedScene* L, const char* engineList)
{
    const fcbScene* s = &L->s;
    int nj = s->jointCount;
    double* descA = calloc((size_t)nj * 3 + 1, sizeof(double));
    double* descB = calloc((size_t)nj * 3 + 1, sizeof(double));
    double* refA = calloc((size_t)nj * 3 + 1, sizeof(double));
    double* refB = calloc((size_t)nj * 3 + 1, sizeof(double));
    int descBodies = 0;
    double descMass = 0;
    for (int i = 0; i < s->bodyCount; ++i)
        if (s->bodies[i].dynamic) ++descBodies, descMass += s->bodies[i].mass;
    for (int j = 0; j < nj; ++j) {
        const fcbJoint* jt = &s->joints[j];
        fcbState sa, sb;
        memset(&sa, 0, sizeof sa);
        if (jt->a >= 0) {
            memcpy(sa.pos, s->bodies[jt->a].pos, sizeof sa.pos);
            memcpy(sa.quat, s->bodies[jt->a].quat, sizeof sa.quat);
            WorldPoint(&sa, jt->localA, &descA[3 * j]);
        } else {
            memcpy(&descA[3 * j], jt->localA, 3 * sizeof(double));
        }
        memcpy(sb.pos, s->bodies[jt->b].pos, sizeof sb.pos);
        memcpy(sb.quat, s->bodies[jt->b].quat, sizeof sb.quat);
        WorldPoint(&sb, jt->localB, &descB[3 * j]);
    }
    printf("adapters agree on %s: %d dynamic bodies, %d joints in the scene description\n", L->name, descBodies, nj);
    const fcbAdapter* fa;
    fcbFulcrum_Adapters(&fa);
    bool ok = CheckOne(L, &fa[0], descBodies, descMass, descA, descB, "scene");
    // Fulcrum's own read-back is the reference for the peers
    int refBodies = 0;
    double refMass = 0;
    char err[512] = "";
    void* ctx = fa[0].create(s, err, sizeof err);
    if (ctx) {
        fa[0].readBack(ctx, &refBodies, &refMass);
        for (int j = 0; j < nj; ++j) fa[0].jointAnchors(ctx, j, &refA[3 * j], &refB[3 * j]);
        fa[0].destroy(ctx);
    } else {
        ok = false;
    }
    int checked = 1;
    if (L->peerRefusal[0]) printf("  peers not checked: %s (they do not build this scene)\n", L->peerRefusal);
    for (int i = 1; i < ENGINE_COUNT && !L->peerRefusal[0]; ++i) {
        if (!InList(engineList, engines[i].name)) continue;
        const fcbAdapter* ads;
        int n = engines[i].get(&ads);
        for (int a = 0; a < n; ++a) {
            char why[256];
            // a setting that refuses the scene builds no world to compare (btMultiBody and the MuJoCo trees: forests only)
            if (ads[a].refuse && ads[a].refuse(s, why, sizeof why)) {
                printf("  %-8s %-19s not checked: it does not build this scene: %s\n", ads[a].engine, ads[a].settings, why);
                continue;
            }
            ok &= CheckOne(L, &ads[a], refBodies, refMass, refA, refB, "fulcrum"), ++checked;
        }
    }
    for (int k = 1; k < 4; ++k) {
        bool built = false;
        for (int i = 0; i < ENGINE_COUNT; ++i) built |= strcmp(engines[i].name, allEngines[k]) == 0;
        if (!built) printf("  %-8s not built in (not found at build time): not checked\n", allEngines[k]);
    }
    printf("%s: %d adapter(s) checked\n", ok ? "all agree" : "DISAGREE", checked);
    free(descA);
    free(descB);
    free(refA);
    free(refB);
    return ok ? 0 : 1;
}
