// SPDX-License-Identifier: MIT
// The viewer's GL-free half (see model.h).
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void* fcViewAlloc(size_t n, size_t size)
{
    void* p = calloc(n ? n : 1, size);
    if (p == NULL) {
        fprintf(stderr, "fulcrum view: out of memory\n");
        abort();
    }
    return p;
}

static char* fcViewStrdup(const char* s)
{
    size_t n = strlen(s) + 1;
    char* d = fcViewAlloc(n, 1);
    memcpy(d, s, n);
    return d;
}

// ---------------------------------------------------------------------------------------------------------------------
// Frame record
// ---------------------------------------------------------------------------------------------------------------------

static int fcBodyIndex(const fcScene* scene, fcBodyId id)
{
    for (int i = 0; i < scene->bodyCount; ++i)
        if (memcmp(&scene->bodies[i], &id, sizeof id) == 0) return i;
    return -1;
}

void fcViewFrame_Init(fcViewFrame* f, const fcScene* scene)
{
    memset(f, 0, sizeof *f);
    f->bodyCount = scene->bodyCount;
    f->jointCount = scene->jointCount;
    f->bodies = fcViewAlloc((size_t)f->bodyCount, sizeof *f->bodies);
    f->joints = fcViewAlloc((size_t)f->jointCount, sizeof *f->joints);
    for (int j = 0; j < f->jointCount; ++j) {
        fcJointId id = scene->joints[j];
        f->joints[j].bodyA = fcBodyIndex(scene, fcJoint_GetBodyA(id));
        f->joints[j].bodyB = fcBodyIndex(scene, fcJoint_GetBodyB(id));
        f->joints[j].point = scene->jointTypes[j] != fc_couplingJoint;
    }
}

void fcViewFrame_Free(fcViewFrame* f)
{
    free(f->bodies);
    free(f->joints);
    memset(f, 0, sizeof *f);
}

void fcViewFrame_Capture(fcViewFrame* f, const fcScene* scene, double stepMs)
{
    f->time = fcWorld_GetTime(scene->world);
    f->stepMs = stepMs;
    for (int i = 0; i < f->bodyCount; ++i) {
        fcVec3 p = fcBody_GetPosition(scene->bodies[i]);
        fcQuat q = fcBody_GetOrientation(scene->bodies[i]);
        fcViewPose* pose = f->bodies + i;
        pose->p[0] = p.x, pose->p[1] = p.y, pose->p[2] = p.z;
        pose->q[0] = q.w, pose->q[1] = q.x, pose->q[2] = q.y, pose->q[3] = q.z;
    }
    for (int j = 0; j < f->jointCount; ++j) {
        fcJointReaction r = fcJoint_GetReaction(scene->joints[j]);
        fcVec3 a = fcJoint_GetAnchorA(scene->joints[j]);
        fcViewJoint* v = f->joints + j;
        v->anchor[0] = r.anchor.x, v->anchor[1] = r.anchor.y, v->anchor[2] = r.anchor.z;
        v->anchorA[0] = a.x, v->anchorA[1] = a.y, v->anchorA[2] = a.z;
        v->force[0] = r.force.x, v->force[1] = r.force.y, v->force[2] = r.force.z;
        v->magnitude = fcVec3_Length(r.force);
    }
}

void fcViewFrame_Copy(fcViewFrame* out, const fcViewFrame* in)
{
    out->time = in->time;
    out->stepMs = in->stepMs;
    memcpy(out->bodies, in->bodies, (size_t)in->bodyCount * sizeof *in->bodies);
    memcpy(out->joints, in->joints, (size_t)in->jointCount * sizeof *in->joints);
}

static double fcLerp(double a, double b, double t) { return a + t * (b - a); }

void fcViewFrame_Lerp(fcViewFrame* out, const fcViewFrame* a, const fcViewFrame* b, double t)
{
    fcViewFrame_Copy(out, b);
    out->time = fcLerp(a->time, b->time, t);
    for (int i = 0; i < a->bodyCount; ++i) {
        const fcViewPose *pa = a->bodies + i, *pb = b->bodies + i;
        fcViewPose* po = out->bodies + i;
        for (int k = 0; k < 3; ++k) po->p[k] = fcLerp(pa->p[k], pb->p[k], t);
        double dot = 0;
        for (int k = 0; k < 4; ++k) dot += pa->q[k] * pb->q[k];
        double s = dot < 0 ? -1 : 1, n = 0;  // the shorter way round
        for (int k = 0; k < 4; ++k) po->q[k] = fcLerp(pa->q[k], s * pb->q[k], t), n += po->q[k] * po->q[k];
        n = n > 0 ? 1 / sqrt(n) : 1;
        for (int k = 0; k < 4; ++k) po->q[k] *= n;
    }
    for (int j = 0; j < a->jointCount; ++j) {
        const fcViewJoint *ja = a->joints + j, *jb = b->joints + j;
        fcViewJoint* jo = out->joints + j;
        for (int k = 0; k < 3; ++k) {
            jo->anchor[k] = fcLerp(ja->anchor[k], jb->anchor[k], t);
            jo->anchorA[k] = fcLerp(ja->anchorA[k], jb->anchorA[k], t);
            jo->force[k] = fcLerp(ja->force[k], jb->force[k], t);
        }
        jo->magnitude = sqrt(jo->force[0] * jo->force[0] + jo->force[1] * jo->force[1] + jo->force[2] * jo->force[2]);
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Exact curves
// ---------------------------------------------------------------------------------------------------------------------

// Pendulum released at rest from the horizontal: T = m v^2 / l + m g cos(theta) with v^2 = 2 g l cos(theta),
// so T = 3 m g cos(theta), theta measured from the downward vertical through the pivot.
static double fcExactPendulum(const fcScene* scene, const fcViewFrame* f, int joint)
{
    const fcViewJoint* j = f->joints + joint;
    if (j->bodyB < 0) return NAN;
    const double* p = f->bodies[j->bodyB].p;
    fcVec3 g = fcWorld_GetGravity(scene->world);
    double gl = sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
    double d[3] = {p[0] - j->anchorA[0], p[1] - j->anchorA[1], p[2] - j->anchorA[2]};
    double l = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(l > 0) || !(gl > 0)) return NAN;
    double cosTheta = (d[0] * g.x + d[1] * g.y + d[2] * g.z) / (l * gl);
    return 3 * fcBody_GetMass(scene->bodies[j->bodyB]) * gl * cosTheta;
}

// Atwood machine: T = 2 m1 m2 g / (m1 + m2), constant (the coupling's two sliders carry m1 and m2).
static double fcExactAtwood(const fcScene* scene, const fcViewFrame* f, int joint)
{
    (void)f;
    (void)joint;
    int a = fcScene_FindBody(scene, "m1"), b = fcScene_FindBody(scene, "m2");
    if (a < 0 || b < 0) return NAN;
    double m1 = fcBody_GetMass(scene->bodies[a]), m2 = fcBody_GetMass(scene->bodies[b]);
    fcVec3 g = fcWorld_GetGravity(scene->world);
    return 2 * m1 * m2 * fcVec3_Length(g) / (m1 + m2);
}

// Scenes whose exact force is constant: the value the scene file's "expected" list gives.
static double fcExactConstant(const fcScene* scene, const fcViewFrame* f, int joint)
{
    (void)f;
    for (int k = 0; k < scene->expectationCount; ++k)
        if (scene->expectations[k].joint == joint && scene->expectations[k].hasPeakForce)
            return scene->expectations[k].peakForce;
    return NAN;
}

static const fcExactCurve fc_exactCurves[] = {
    {"pendulum", "pivot", "exact 3 m g cos(theta)", fcExactPendulum},
    {"atwood", "string", "exact 2 m1 m2 g / (m1 + m2)", fcExactAtwood},
    {"cantilever", "weld", "exact m g", fcExactConstant},
    {"knife_edge", "edge", "exact m v w", fcExactConstant},
    {"knife_edge", "plane", "exact m g", fcExactConstant},
    {"rolling_disk", "rolling", "exact m g sin(a) / 3", fcExactConstant},
    {"rolling_disk", "contact", "exact m g cos(a)", fcExactConstant},
    {"rolling_hoop", "rolling", "exact m g sin(a) / 2", fcExactConstant},
    {"rolling_hoop", "contact", "exact m g cos(a)", fcExactConstant},
};

const fcExactCurve* fcExact_Find(const fcScene* scene, int joint)
{
    for (size_t k = 0; k < sizeof fc_exactCurves / sizeof fc_exactCurves[0]; ++k) {
        const fcExactCurve* c = fc_exactCurves + k;
        if (strcmp(c->scene, scene->name) == 0 && strcmp(c->joint, scene->jointNames[joint]) == 0) return c;
    }
    return NULL;
}

// ---------------------------------------------------------------------------------------------------------------------
// Plot buffer
// ---------------------------------------------------------------------------------------------------------------------

void fcPlot_Init(fcPlot* plot, const fcScene* scene)
{
    plot->seriesCount = 0;
    plot->count = plot->head = 0;
    plot->window = 5.0;
    for (int pass = 0; pass < 2; ++pass)
        for (int j = 0; j < scene->jointCount && plot->seriesCount < FC_PLOT_MAX_SERIES; ++j) {
            const fcExactCurve* c = fcExact_Find(scene, j);
            if ((pass == 0) != (c != NULL)) continue;
            plot->joint[plot->seriesCount] = j;
            plot->exact[plot->seriesCount] = c;
            ++plot->seriesCount;
        }
}

int fcPlot_Index(const fcPlot* plot, int i) { return (plot->head + i) % FC_PLOT_CAPACITY; }

void fcPlot_Add(fcPlot* plot, const fcScene* scene, const fcViewFrame* prev, const fcViewFrame* frame)
{
    int slot;
    if (plot->count < FC_PLOT_CAPACITY) {
        slot = fcPlot_Index(plot, plot->count++);
    } else {
        slot = plot->head;
        plot->head = (plot->head + 1) % FC_PLOT_CAPACITY;
    }
    plot->t[slot] = frame->time;
    for (int s = 0; s < plot->seriesCount; ++s) {
        int j = plot->joint[s];
        plot->value[slot][s] = frame->joints[j].magnitude;
        plot->exactValue[slot][s] =
            plot->exact[s] != NULL ? 0.5 * (plot->exact[s]->fcn(scene, prev, j) + plot->exact[s]->fcn(scene, frame, j)) : NAN;
    }
    // drop what scrolled out of the window
    while (plot->count > 2 && frame->time - plot->t[plot->head] > plot->window) {
        plot->head = (plot->head + 1) % FC_PLOT_CAPACITY;
        --plot->count;
    }
}

bool fcPlot_WriteCsv(const fcPlot* plot, const fcScene* scene, FILE* f)
{
    fputs("t", f);
    for (int s = 0; s < plot->seriesCount; ++s) {
        fprintf(f, ",%s", scene->jointNames[plot->joint[s]]);
        if (plot->exact[s] != NULL) fprintf(f, ",%s.exact", scene->jointNames[plot->joint[s]]);
    }
    fputc('\n', f);
    for (int i = 0; i < plot->count; ++i) {
        int k = fcPlot_Index(plot, i);
        fprintf(f, "%.17g", plot->t[k]);
        for (int s = 0; s < plot->seriesCount; ++s) {
            fprintf(f, ",%.17g", plot->value[k][s]);
            if (plot->exact[s] != NULL) fprintf(f, ",%.17g", plot->exactValue[k][s]);
        }
        fputc('\n', f);
    }
    return ferror(f) == 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Demos
// ---------------------------------------------------------------------------------------------------------------------

static int fcCompareStrings(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

bool fcDemoList_Scan(fcDemoList* list, const char* dir, char* err, size_t errSize)
{
    memset(list, 0, sizeof *list);
    DIR* d = opendir(dir);
    if (d == NULL) {
        snprintf(err, errSize, "cannot read the scene directory %s", dir);
        return false;
    }
    int capacity = 0;
    for (struct dirent* e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n <= 5 || strcmp(e->d_name + n - 5, ".json") != 0 || e->d_name[0] == '.') continue;
        if (list->count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            char** names = realloc(list->names, (size_t)capacity * sizeof *names);
            if (names == NULL) abort();
            list->names = names;
        }
        char* name = fcViewStrdup(e->d_name);
        name[n - 5] = '\0';
        list->names[list->count++] = name;
    }
    closedir(d);
    if (list->count > 1) qsort(list->names, (size_t)list->count, sizeof *list->names, fcCompareStrings);
    list->paths = fcViewAlloc((size_t)list->count, sizeof *list->paths);
    for (int i = 0; i < list->count; ++i) {
        size_t n = strlen(dir) + strlen(list->names[i]) + 7;
        list->paths[i] = fcViewAlloc(n, 1);
        snprintf(list->paths[i], n, "%s/%s.json", dir, list->names[i]);
    }
    return true;
}

void fcDemoList_Free(fcDemoList* list)
{
    for (int i = 0; i < list->count; ++i) free(list->names[i]), free(list->paths[i]);
    free(list->names);
    free(list->paths);
    memset(list, 0, sizeof *list);
}

int fcDemoList_Find(const fcDemoList* list, const char* name)
{
    for (int i = 0; i < list->count; ++i)
        if (strcmp(list->names[i], name) == 0) return i;
    return -1;
}

static const char* const fc_demoLines[][2] = {
    {"atwood", "Atwood machine: two masses on an ideal string; constant tension 2 m1 m2 g / (m1 + m2)"},
    {"bead_hoop", "a bead sliding on a vertical hoop; the hoop's normal force"},
    {"cantilever", "a beam welded to the world; the weld carries m g and m g L / 2"},
    {"chain", "a chain of 50 links released horizontal"},
    {"double_pendulum", "a double pendulum of two rods on hinges"},
    {"four_bar", "a planar four-bar linkage (a closed loop with redundant rows)"},
    {"heavy_chain", "the chain with a 1000 kg last link (mass ratio 1000)"},
    {"knife_edge", "a knife edge (nonholonomic blade) tracing a circle on a plane"},
    {"pendulum", "a pendulum released from the horizontal; tension 3 m g cos(theta)"},
    {"rolling_disk", "a disk rolling without slipping down an incline; friction m g sin(a) / 3"},
    {"rolling_hoop", "a hoop rolling without slipping down an incline; friction m g sin(a) / 2"},
    {"stiff_spring", "a soft and a stiff spring pendulum side by side"},
};

void fcDemo_Describe(const char* name, const char* description, char* out, size_t size)
{
    for (size_t k = 0; k < sizeof fc_demoLines / sizeof fc_demoLines[0]; ++k)
        if (strcmp(fc_demoLines[k][0], name) == 0) {
            snprintf(out, size, "%s", fc_demoLines[k][1]);
            return;
        }
    // the scene's own description up to its first sentence or colon, on one line
    size_t n = description != NULL ? strcspn(description, ".:\n") : 0;
    if (n > 80) n = 80;
    snprintf(out, size, "%.*s", (int)n, n > 0 ? description : "(no description)");
}

// ---------------------------------------------------------------------------------------------------------------------
// Meshes
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcMeshBuilder {
    fcMesh* mesh;
    int capacity;
} fcMeshBuilder;

static void fcMeshVertex(fcMeshBuilder* b, float x, float y, float z, float nx, float ny, float nz)
{
    fcMesh* m = b->mesh;
    if (m->vertexCount == b->capacity) {
        b->capacity = b->capacity ? 2 * b->capacity : 256;
        float* data = realloc(m->data, (size_t)b->capacity * 6 * sizeof(float));
        if (data == NULL) abort();
        m->data = data;
    }
    float* v = m->data + 6 * m->vertexCount++;
    v[0] = x, v[1] = y, v[2] = z, v[3] = nx, v[4] = ny, v[5] = nz;
}

static fcMeshBuilder fcMeshBegin(fcMesh* mesh)
{
    mesh->vertexCount = 0;
    mesh->data = NULL;
    fcMeshBuilder b = {mesh, 0};
    return b;
}

void fcMesh_Free(fcMesh* mesh)
{
    free(mesh->data);
    mesh->data = NULL;
    mesh->vertexCount = 0;
}

// A surface of revolution about z: profile points (r, z) with normals (nr, nz), stacks + 1 of them.
static void fcMeshRevolve(fcMeshBuilder* b, const float (*profile)[4], int rings, int slices)
{
    const float tau = 6.28318530718f;
    for (int i = 0; i + 1 < rings; ++i)
        for (int s = 0; s < slices; ++s) {
            float a0 = tau * (float)s / (float)slices, a1 = tau * (float)(s + 1) / (float)slices;
            float c0 = cosf(a0), s0 = sinf(a0), c1 = cosf(a1), s1 = sinf(a1);
            const float *p = profile[i], *q = profile[i + 1];
            float v[4][6] = {
                {p[0] * c0, p[0] * s0, p[1], p[2] * c0, p[2] * s0, p[3]},
                {p[0] * c1, p[0] * s1, p[1], p[2] * c1, p[2] * s1, p[3]},
                {q[0] * c1, q[0] * s1, q[1], q[2] * c1, q[2] * s1, q[3]},
                {q[0] * c0, q[0] * s0, q[1], q[2] * c0, q[2] * s0, q[3]},
            };
            static const int order[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; ++k) {
                const float* w = v[order[k]];
                fcMeshVertex(b, w[0], w[1], w[2], w[3], w[4], w[5]);
            }
        }
}

static float (*fcProfileAlloc(int n))[4] { return fcViewAlloc((size_t)n, sizeof(float[4])); }

void fcMesh_Sphere(fcMesh* mesh, float radius, int slices, int stacks)
{
    fcMesh_Capsule(mesh, radius, 0, slices, stacks);
}

void fcMesh_Capsule(fcMesh* mesh, float radius, float halfHeight, int slices, int stacks)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    int half = stacks / 2 > 1 ? stacks / 2 : 2;
    int n = 2 * (half + 1);
    float(*pr)[4] = fcProfileAlloc(n);
    for (int i = 0; i <= half; ++i) {  // bottom cap from the south pole to the equator, then the top cap
        float phi = -1.57079632679f + 1.57079632679f * (float)i / (float)half;
        float c = cosf(phi), s = sinf(phi);
        float* lo = pr[i];
        lo[0] = radius * c, lo[1] = -halfHeight + radius * s, lo[2] = c, lo[3] = s;
        float* hi = pr[half + 1 + i];
        float phi2 = 1.57079632679f * (float)i / (float)half;
        hi[0] = radius * cosf(phi2), hi[1] = halfHeight + radius * sinf(phi2), hi[2] = cosf(phi2), hi[3] = sinf(phi2);
    }
    fcMeshRevolve(&b, (const float(*)[4])pr, n, slices);
    free(pr);
}

void fcMesh_Cylinder(fcMesh* mesh, float radius, float halfHeight, int slices)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    const float pr[8][4] = {
        {0, -halfHeight, 0, -1}, {radius, -halfHeight, 0, -1},  // bottom disk
        {radius, -halfHeight, 1, 0}, {radius, halfHeight, 1, 0},  // side
        {radius, halfHeight, 0, 1}, {0, halfHeight, 0, 1},       // top disk
    };
    fcMeshRevolve(&b, pr, 2, slices);
    fcMeshRevolve(&b, pr + 2, 2, slices);
    fcMeshRevolve(&b, pr + 4, 2, slices);
}

void fcMesh_Cone(fcMesh* mesh, float radius, float height, int slices)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    float l = sqrtf(radius * radius + height * height);
    const float pr[4][4] = {
        {0, 0, 0, -1}, {radius, 0, 0, -1},
        {radius, 0, height / l, radius / l}, {0, height, height / l, radius / l},
    };
    fcMeshRevolve(&b, pr, 2, slices);
    fcMeshRevolve(&b, pr + 2, 2, slices);
}

void fcMesh_Box(fcMesh* mesh, float hx, float hy, float hz)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    const float h[3] = {hx, hy, hz};
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = -1; sign <= 1; sign += 2) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            static const int order[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; ++k) {
                int c = order[sign > 0 ? k : 5 - k];  // outward winding
                float p[3], n[3] = {0, 0, 0};
                p[axis] = (float)sign * h[axis];
                p[u] = corners[c][0] * h[u];
                p[v] = corners[c][1] * h[v];
                n[axis] = (float)sign;
                fcMeshVertex(&b, p[0], p[1], p[2], n[0], n[1], n[2]);
            }
        }
}

void fcColorRamp(double x, float rgb[3])
{
    static const float stops[5][3] = {
        {0.25f, 0.45f, 1.0f}, {0.2f, 0.85f, 0.95f}, {0.3f, 0.9f, 0.35f}, {1.0f, 0.85f, 0.2f}, {1.0f, 0.3f, 0.2f}};
    if (!(x > 0)) x = 0;
    if (x > 1) x = 1;
    double s = x * 4;
    int i = (int)s;
    if (i > 3) i = 3;
    float t = (float)(s - i);
    for (int k = 0; k < 3; ++k) rgb[k] = stops[i][k] + t * (stops[i + 1][k] - stops[i][k]);
}
