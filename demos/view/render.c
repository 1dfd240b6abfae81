// SPDX-License-Identifier: MIT
// The viewer's OpenGL 3.3 core renderer (see render.h): lit meshes for bodies, anchors and arrows, streamed
// unlit lines (grid, links, the drag spring) and 2D triangles (the plot panel of plot.c, text, overlays).
#include "render.h"

#include "plot.h"

#include <glad/gl.h>
#include <cglm/cglm.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---------------------------------------------------------------------------------------------------------------------
// Shaders
// ---------------------------------------------------------------------------------------------------------------------

static char* fcReadFile(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (f == NULL) return NULL;
    size_t capacity = 4096, n = 0;
    char* text = malloc(capacity);
    for (size_t got; text != NULL && (got = fread(text + n, 1, capacity - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == capacity) {
            char* bigger = realloc(text, capacity *= 2);
            if (bigger == NULL) free(text);
            text = bigger;
        }
    }
    fclose(f);
    if (text != NULL) text[n] = '\0';
    return text;
}

// The first line number in a driver's info log: Mesa writes "0:12(5): error", NVIDIA "0(12) : error".
static int fcLogLine(const char* log)
{
    const char* p = log;
    while (*p >= '0' && *p <= '9') ++p;
    if (*p != ':' && *p != '(') return 0;
    ++p;
    int line = 0;
    while (*p >= '0' && *p <= '9') line = 10 * line + (*p++ - '0');
    return line;
}

static GLuint fcCompileShader(GLenum kind, const char* dir, const char* file, char* err, size_t errSize)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    char* source = fcReadFile(path);
    if (source == NULL) {
        snprintf(err, errSize, "cannot read the shader %s (set FULCRUM_SHADER_DIR to the shaders/ directory)", path);
        return 0;
    }
    GLuint shader = glCreateShader(kind);
    const char* sources[1] = {source};
    glShaderSource(shader, 1, sources, NULL);
    glCompileShader(shader);
    free(source);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(shader, sizeof log, NULL, log);
        size_t n = strlen(log);
        while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == ' ')) log[--n] = '\0';
        snprintf(err, errSize, "%s:%d: shader compile error: %s", path, fcLogLine(log), log);
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}

static GLuint fcLinkProgram(const char* dir, const char* vertexFile, const char* fragmentFile, char* err, size_t errSize)
{
    GLuint vs = fcCompileShader(GL_VERTEX_SHADER, dir, vertexFile, err, errSize);
    if (vs == 0) return 0;
    GLuint fs = fcCompileShader(GL_FRAGMENT_SHADER, dir, fragmentFile, err, errSize);
    if (fs == 0) {
        glDeleteShader(vs);
        return 0;
    }
    GLuint program = glCreateProgram();
    glAttachShader(program, vs);
    glAttachShader(program, fs);
    glLinkProgram(program);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(program, sizeof log, NULL, log);
        snprintf(err, errSize, "%s/%s + %s: shader link error: %s", dir, vertexFile, fragmentFile, log);
        glDeleteProgram(program);
        return 0;
    }
    return program;
}

// ---------------------------------------------------------------------------------------------------------------------
// GPU meshes and the streamed vertex buffer of unlit geometry
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcGpuMesh {
    GLuint vao, vbo;
    int vertexCount;
} fcGpuMesh;

static fcGpuMesh fcUpload(fcMesh* mesh)
{
    fcGpuMesh g = {0, 0, mesh->vertexCount};
    glGenVertexArrays(1, &g.vao);
    glGenBuffers(1, &g.vbo);
    glBindVertexArray(g.vao);
    glBindBuffer(GL_ARRAY_BUFFER, g.vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)mesh->vertexCount * 6 * sizeof(float)), mesh->data, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void*)0);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), (void*)(3 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glBindVertexArray(0);
    fcMesh_Free(mesh);
    return g;
}

static void fcGpuMeshFree(fcGpuMesh* g)
{
    if (g->vao) glDeleteVertexArrays(1, &g->vao);
    if (g->vbo) glDeleteBuffers(1, &g->vbo);
    memset(g, 0, sizeof *g);
}

// ---------------------------------------------------------------------------------------------------------------------
// The renderer
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcShapeDraw {
    int body;
    fcGpuMesh mesh;
    float local[16];  ///< shape frame in the body frame (column-major)
    float color[3];
} fcShapeDraw;

// A plane shape: drawn as a large translucent quad in its shape frame's xy plane (its normal is local +z).
typedef struct fcPlaneDraw {
    int body;
    float local[16];
} fcPlaneDraw;

#define FC_MAX_CONTACT_LABELS 8

struct fcRenderer {
    GLuint meshProgram, flatProgram;
    GLint uModel, uViewProjection, uColor, uEye, uLightDir, uEmissive, uTransform;
    GLuint flatVao, flatVbo;
    fcGpuMesh unitSphere, unitCylinder, unitCone, unitMarker, thinCylinder, thinCone;  ///< thin: 8 sides, for the many contacts
    fcShapeDraw* shapes;
    int shapeCount;
    fcPlaneDraw* planes;
    int planeCount;
    bool* bodyHasShape;
    bool* bodyPlane;          ///< the body has a plane shape (its size is unbounded)
    double (*bodyBounds)[5];  ///< fcViewBounds_Compute: [4] is the radius of a body's shapes about its centre
    double lo[3], hi[3], extent;
    double newtonsPerMeter;  ///< arrow scale
    double peakForce;
    float anchorRadius;      ///< drawn radius of the joint anchors, m
    float arrowRadius;       ///< shaft radius of the force arrows, m
    float pointRadius;       ///< drawn radius of bodies without shapes and of tiny spheres
    float contactRadius;     ///< drawn radius of the contact point markers, m
    fcCanvas lines, tris;    ///< 3D lines (world); 2D triangles (pixels)
    int labelCount;          ///< the contact force labels of the last scene drawn (few contacts only)
    double labelAt[FC_MAX_CONTACT_LABELS][3];
    double labelForce[FC_MAX_CONTACT_LABELS];
    double plotMs;           ///< the last frame's plot building time
};

int fcRenderer_SceneWidth(int width) { return (int)(width * 0.6); }
double fcRenderer_NewtonsPerMeter(const fcRenderer* r) { return r->newtonsPerMeter; }
double fcRenderer_Extent(const fcRenderer* r) { return r->extent; }
double fcRenderer_LastPlotMs(const fcRenderer* r) { return r->plotMs; }

static double fcClockMs(void)
{
    struct timespec ts;
    if (timespec_get(&ts, TIME_UTC) == 0) return 0;
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
double fcRenderer_PointRadius(const fcRenderer* r) { return r->pointRadius; }

fcRenderer* fcRenderer_Create(const char* shaderDir, char* err, size_t errSize)
{
    fcRenderer* r = calloc(1, sizeof *r);
    if (r == NULL) abort();
    r->meshProgram = fcLinkProgram(shaderDir, "mesh.vert", "mesh.frag", err, errSize);
    if (r->meshProgram) r->flatProgram = fcLinkProgram(shaderDir, "flat.vert", "flat.frag", err, errSize);
    if (!r->meshProgram || !r->flatProgram) {
        fcRenderer_Destroy(r);
        return NULL;
    }
    r->uModel = glGetUniformLocation(r->meshProgram, "u_model");
    r->uViewProjection = glGetUniformLocation(r->meshProgram, "u_viewProjection");
    r->uColor = glGetUniformLocation(r->meshProgram, "u_color");
    r->uEye = glGetUniformLocation(r->meshProgram, "u_eye");
    r->uLightDir = glGetUniformLocation(r->meshProgram, "u_lightDir");
    r->uEmissive = glGetUniformLocation(r->meshProgram, "u_emissive");
    r->uTransform = glGetUniformLocation(r->flatProgram, "u_transform");

    glGenVertexArrays(1, &r->flatVao);
    glGenBuffers(1, &r->flatVbo);
    glBindVertexArray(r->flatVao);
    glBindBuffer(GL_ARRAY_BUFFER, r->flatVbo);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(fcCanvasVertex), (void*)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(fcCanvasVertex), (void*)(3 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glBindVertexArray(0);

    fcMesh m;
    fcMesh_Sphere(&m, 1, 32, 16);
    r->unitSphere = fcUpload(&m);
    fcMesh_Cylinder(&m, 1, 0.5f, 16);  // unit radius, unit length, centred
    r->unitCylinder = fcUpload(&m);
    fcMesh_Cone(&m, 1, 1, 16);
    r->unitCone = fcUpload(&m);
    fcMesh_Sphere(&m, 1, 8, 4);  // the contact markers and arrows: many, small (a pyramid has hundreds)
    r->unitMarker = fcUpload(&m);
    fcMesh_Cylinder(&m, 1, 0.5f, 8);
    r->thinCylinder = fcUpload(&m);
    fcMesh_Cone(&m, 1, 1, 8);
    r->thinCone = fcUpload(&m);
    return r;
}

static void fcReleaseScene(fcRenderer* r)
{
    for (int i = 0; i < r->shapeCount; ++i) fcGpuMeshFree(&r->shapes[i].mesh);
    free(r->shapes);
    free(r->planes);
    free(r->bodyHasShape);
    free(r->bodyPlane);
    free(r->bodyBounds);
    r->bodyBounds = NULL;
    r->shapes = NULL;
    r->planes = NULL;
    r->bodyHasShape = NULL;
    r->bodyPlane = NULL;
    r->shapeCount = r->planeCount = 0;
}

void fcRenderer_Destroy(fcRenderer* r)
{
    if (r == NULL) return;
    fcReleaseScene(r);
    fcGpuMeshFree(&r->unitSphere);
    fcGpuMeshFree(&r->unitCylinder);
    fcGpuMeshFree(&r->unitCone);
    fcGpuMeshFree(&r->unitMarker);
    fcGpuMeshFree(&r->thinCylinder);
    fcGpuMeshFree(&r->thinCone);
    if (r->flatVao) glDeleteVertexArrays(1, &r->flatVao);
    if (r->flatVbo) glDeleteBuffers(1, &r->flatVbo);
    if (r->meshProgram) glDeleteProgram(r->meshProgram);
    if (r->flatProgram) glDeleteProgram(r->flatProgram);
    fcCanvas_Free(&r->lines);
    fcCanvas_Free(&r->tris);
    free(r);
}

// Shape colours: warm hues by shape type, so bodies stand out against the cool background; static bodies
// (the scenery: posts, slopes, a dome) in a duller tone of the same hue.
static const float fc_shapeColors[fc_shapeTypeCount][3] = {
    {0.95f, 0.55f, 0.20f},  // sphere
    {0.86f, 0.36f, 0.28f},  // box
    {0.93f, 0.70f, 0.25f},  // capsule
    {0.80f, 0.40f, 0.55f},  // cylinder
    {0.90f, 0.50f, 0.38f},  // hull
    {0.95f, 0.55f, 0.20f},  // plane (drawn as a quad of fc_planeColor)
    {0.72f, 0.52f, 0.40f},  // mesh
};
static const float fc_planeColor[4] = {0.20f, 0.22f, 0.27f, 0.6f};
static const float fc_contactColor[3] = {1.0f, 0.45f, 0.85f};  // the markers: a hue the arrows' ramp does not use

// The smallest 1, 2 or 5 times a power of ten not below x: arrows never longer than the length they were
// scaled to.
static double fcNiceCeil(double x)
{
    if (!(x > 0)) return 1;
    double p = pow(10, floor(log10(x))), f = x / p;
    return (f <= 1 + 1e-9 ? 1 : f <= 2 + 1e-9 ? 2 : f <= 5 + 1e-9 ? 5 : 10) * p;
}

void fcRenderer_SetScene(fcRenderer* r, const fcScene* scene, const double lo[3], const double hi[3], double peakForce,
                         int places)
{
    fcReleaseScene(r);
    memcpy(r->lo, lo, sizeof r->lo);
    memcpy(r->hi, hi, sizeof r->hi);
    double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    r->extent = fmax(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 0.1);
    r->pointRadius = (float)(0.02 * r->extent);
    // arrows: the peak force is a quarter of the extent long, rounded to a nice scale
    r->peakForce = peakForce > 1e-9 ? peakForce : 1;
    // many joints or contacts: shorter arrows, so they do not hide the bodies
    double crowd = places > 4 ? 2 / sqrt((double)places) : 1;
    double longest = 0.25 * r->extent * crowd;
    r->arrowRadius = (float)(0.006 * r->extent * crowd);
    r->newtonsPerMeter = fcNiceCeil(r->peakForce / longest);
    r->bodyHasShape = calloc((size_t)(scene->bodyCount ? scene->bodyCount : 1), sizeof(bool));
    r->bodyPlane = calloc((size_t)(scene->bodyCount ? scene->bodyCount : 1), sizeof(bool));
    r->bodyBounds = calloc((size_t)(scene->bodyCount ? scene->bodyCount : 1), sizeof *r->bodyBounds);
    if (r->bodyBounds == NULL) abort();
    fcViewBounds_Compute(scene, 0, r->bodyBounds);
    int total = 0;
    r->anchorRadius = 0.45f * r->pointRadius;  // but never fatter than the thinnest drawn body
    for (int i = 0; i < scene->bodyCount; ++i) {
        total += fcBody_GetShapeCount(scene->bodies[i]);
        for (int k = 0; k < fcBody_GetShapeCount(scene->bodies[i]); ++k) {
            fcShapeDef d = fcShape_GetDef(fcBody_GetShape(scene->bodies[i], k));
            float thin = d.type == fc_boxShape ? (float)fmin(d.halfExtents.x, fmin(d.halfExtents.y, d.halfExtents.z))
                         : d.type == fc_sphereShape ? fmaxf((float)d.radius, r->pointRadius) : (float)d.radius;
            if (thin > 0) r->anchorRadius = fminf(r->anchorRadius, 0.9f * thin);
        }
    }
    r->shapes = calloc((size_t)(total ? total : 1), sizeof *r->shapes);
    r->planes = calloc((size_t)(total ? total : 1), sizeof *r->planes);
    if (r->bodyHasShape == NULL || r->bodyPlane == NULL || r->shapes == NULL || r->planes == NULL) abort();
    r->arrowRadius = fminf(r->arrowRadius, 0.6f * r->anchorRadius);
    r->contactRadius = 0.75f * r->anchorRadius;
    for (int i = 0; i < scene->bodyCount; ++i) {
        int n = fcBody_GetShapeCount(scene->bodies[i]);
        for (int k = 0; k < n; ++k) {
            fcShapeDef def = fcShape_GetDef(fcBody_GetShape(scene->bodies[i], k));
            r->bodyHasShape[i] = true;
            versor q = {(float)def.localOrientation.x, (float)def.localOrientation.y, (float)def.localOrientation.z,
                        (float)def.localOrientation.w};
            mat4 m;
            glm_quat_mat4(q, m);
            m[3][0] = (float)def.localPosition.x, m[3][1] = (float)def.localPosition.y, m[3][2] = (float)def.localPosition.z;
            if (def.type == fc_planeShape) {
                fcPlaneDraw* p = r->planes + r->planeCount++;
                p->body = i;
                memcpy(p->local, m, sizeof p->local);
                r->bodyPlane[i] = true;
                continue;
            }
            fcShapeDraw* s = r->shapes + r->shapeCount++;
            s->body = i;
            fcMesh mesh;
            float radius = (float)def.radius, halfHeight = (float)def.halfHeight;
            switch (def.type) {
            case fc_boxShape:
                fcMesh_Box(&mesh, (float)def.halfExtents.x, (float)def.halfExtents.y, (float)def.halfExtents.z);
                break;
            case fc_capsuleShape: fcMesh_Capsule(&mesh, radius, halfHeight, 24, 12); break;
            case fc_cylinderShape: fcMesh_Cylinder(&mesh, radius, halfHeight, 32); break;
            case fc_hullShape:
                if (fcMesh_Hull(&mesh, def.points, def.pointCount)) break;
                fcMesh_Free(&mesh);
                fcMesh_Sphere(&mesh, r->pointRadius, 32, 16);  // degenerate points: a marker
                break;
            case fc_meshShape:
                fcMesh_Triangles(&mesh, def.vertices, def.vertexCount, def.indices, def.triangleCount);
                break;
            case fc_sphereShape:
            default:
                // point-like spheres (the pendulum's bob) are drawn at a visible size
                fcMesh_Sphere(&mesh, radius > r->pointRadius ? radius : r->pointRadius, 32, 16);
                break;
            }
            s->mesh = fcUpload(&mesh);
            memcpy(s->color, fc_shapeColors[(unsigned)def.type < fc_shapeTypeCount ? def.type : 0], sizeof s->color);
            if (fcBody_GetType(scene->bodies[i]) == fc_staticBody)
                for (int c = 0; c < 3; ++c) s->color[c] = 0.5f * s->color[c] + 0.5f * 0.55f;
            memcpy(s->local, m, sizeof s->local);
        }
    }
}

static void fcPoseMatrix(const fcViewPose* pose, mat4 out)
{
    versor q = {(float)pose->q[1], (float)pose->q[2], (float)pose->q[3], (float)pose->q[0]};
    glm_quat_mat4(q, out);
    out[3][0] = (float)pose->p[0], out[3][1] = (float)pose->p[1], out[3][2] = (float)pose->p[2];
}

static void fcDrawMesh(const fcRenderer* r, const fcGpuMesh* g, mat4 model, const float color[3], float emissive)
{
    glUniformMatrix4fv(r->uModel, 1, GL_FALSE, (const float*)model);
    glUniform3fv(r->uColor, 1, color);
    glUniform1f(r->uEmissive, emissive);
    glBindVertexArray(g->vao);
    glDrawArrays(GL_TRIANGLES, 0, g->vertexCount);
}

// A model matrix that maps the unit z-axis segment [0, 1] onto from -> from + dir, with radius.
static void fcAlongMatrix(const float from[3], const float dir[3], float length, float radius, mat4 out)
{
    vec3 z = {dir[0], dir[1], dir[2]};
    glm_vec3_normalize(z);
    vec3 helper = {0, 0, 1};
    if (fabsf(z[2]) > 0.9f) helper[0] = 1, helper[2] = 0;
    vec3 x, y;
    glm_vec3_cross(helper, z, x);
    glm_vec3_normalize(x);
    glm_vec3_cross(z, x, y);
    glm_mat4_identity(out);
    for (int k = 0; k < 3; ++k) {
        out[0][k] = x[k] * radius;
        out[1][k] = y[k] * radius;
        out[2][k] = z[k] * length;
        out[3][k] = from[k];
    }
}

// An arrow of length |force| / newtonsPerMeter along the force: with its tip at the point (a joint's anchor:
// the force on body_b arrives there) or, tail first, leaving the point (a string's pull on a body's centre).
// dim < 1: the x-ray pass that shows, darker, the parts of an arrow hidden inside a body.
static void fcDrawArrowMesh(const fcRenderer* r, const double point[3], const double force[3], double magnitude,
                            bool tipAtPoint, float dim, bool thin)
{
    double length = magnitude / r->newtonsPerMeter;
    if (!(length > 1e-4 * r->extent)) return;
    float color[3];
    fcColorRamp(magnitude / (1.2 * r->peakForce), color);
    for (int k = 0; k < 3; ++k) color[k] *= dim;
    float dir[3] = {(float)force[0], (float)force[1], (float)force[2]};
    float n = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    if (!(n > 0)) return;
    float from[3];
    for (int k = 0; k < 3; ++k) from[k] = (float)point[k] - (tipAtPoint ? dir[k] / n * (float)length : 0);
    float radius = r->arrowRadius;
    float head = fminf((float)length * 0.35f, 5 * radius * 2);
    float shaft = (float)length - head;
    mat4 m;
    // the unit cylinder spans z in [-0.5, 0.5]: shift it to [0, 1]
    fcAlongMatrix(from, dir, shaft, radius, m);
    mat4 shift;
    glm_translate_make(shift, (vec3){0, 0, 0.5f});
    glm_mat4_mul(m, shift, m);
    fcDrawMesh(r, thin ? &r->thinCylinder : &r->unitCylinder, m, color, dim < 1 ? 1 : 0.3f);
    float tip[3] = {from[0] + dir[0] / n * shaft, from[1] + dir[1] / n * shaft, from[2] + dir[2] / n * shaft};
    fcAlongMatrix(tip, dir, head, radius * 2.6f, m);
    fcDrawMesh(r, thin ? &r->thinCone : &r->unitCone, m, color, dim < 1 ? 1 : 0.3f);
}

static void fcDrawArrow(const fcRenderer* r, const double point[3], const double force[3], double magnitude, bool tipAtPoint,
                        float dim)
{
    fcDrawArrowMesh(r, point, force, magnitude, tipAtPoint, dim, false);
}

// An anchor deep inside body_b (a rail's at the cart's centre, a rod's at the payload's): its arrow would hide
// in the body, so the x-ray pass shows it. An anchor at a body's end (a chain's) is left alone: its arrow
// runs inside the link, and showing it would paint the whole chain as arrows.
static bool fcAnchorInside(const fcRenderer* r, const fcViewFrame* frame, const fcViewJoint* v)
{
    if (v->bodyB < 0) return false;
    const double* c = frame->bodies[v->bodyB].p;
    double d = sqrt((v->anchor[0] - c[0]) * (v->anchor[0] - c[0]) + (v->anchor[1] - c[1]) * (v->anchor[1] - c[1]) +
                    (v->anchor[2] - c[2]) * (v->anchor[2] - c[2]));
    return d < 0.5 * r->bodyBounds[v->bodyB][4];
}

void fcRenderer_ArrowColor(const fcRenderer* r, double magnitude, float rgb[3])
{
    fcColorRamp(magnitude / (1.2 * r->peakForce), rgb);
}

// A contact's arrow shows the normal force on its body pushing, its tip at the point, coming from the other
// body's side (under a translucent ground plane, or inside the box below); when the other body is much larger
// than this one and not a plane (a dome under a skier) it would hide in it, so it leaves the point instead,
// through the small body and out.
bool fcRenderer_ContactArrow(const fcRenderer* r, const fcViewContact* c, double tail[3], double tip[3])
{
    // shorter than its head is wide it would be a flat disc: the marker shows the point instead
    double length = c->force / r->newtonsPerMeter;
    if (!(length > 1e-4 * r->extent) || !(length > 2 * 2.6 * r->arrowRadius)) return false;
    bool leave = c->body >= 0 && c->other >= 0 && !r->bodyPlane[c->other] &&
                 r->bodyBounds[c->other][4] > 4 * r->bodyBounds[c->body][4];
    for (int k = 0; k < 3; ++k) {
        tail[k] = leave ? c->point[k] : c->point[k] - length * c->normal[k];
        tip[k] = leave ? c->point[k] + length * c->normal[k] : c->point[k];
    }
    return true;
}

// Every joint's arrows: at the anchor for a joint with a place; a coupling's or user row's pull on each of its
// bodies from the body's centre; each contact point's normal force (contacts). xray: the dim pass, only for
// arrows that start inside a body (a contact's always: it lies in one of the two bodies).
static void fcDrawArrows(const fcRenderer* r, const fcViewFrame* frame, bool xray, bool contacts)
{
    float dim = xray ? 0.45f : 1;
    for (int i = 0; contacts && i < frame->contactCount; ++i) {  // inside a body by their nature: less dim
        float contactDim = xray ? 0.6f : 1;
        const fcViewContact* c = frame->contacts + i;
        double tail[3], tip[3];
        if (fcRenderer_ContactArrow(r, c, tail, tip))
            fcDrawArrowMesh(r, tip, c->normal, c->force, true, contactDim, frame->contactCount > 16);
    }
    for (int j = 0; j < frame->jointCount; ++j) {
        const fcViewJoint* v = frame->joints + j;
        if (v->point) {
            if (!xray || fcAnchorInside(r, frame, v)) fcDrawArrow(r, v->anchor, v->force, v->magnitude, true, dim);
            continue;
        }
        if (v->bodyB >= 0) fcDrawArrow(r, frame->bodies[v->bodyB].p, v->force, v->magnitude, false, dim);
        double fa = sqrt(v->forceA[0] * v->forceA[0] + v->forceA[1] * v->forceA[1] + v->forceA[2] * v->forceA[2]);
        if (v->bodyA >= 0) fcDrawArrow(r, frame->bodies[v->bodyA].p, v->forceA, fa, false, dim);
    }
}

// A rod from a to b (a distance joint's, drawn as a thin grey cylinder).
static void fcDrawRod(const fcRenderer* r, const double a[3], const double b[3])
{
    float d[3] = {(float)(b[0] - a[0]), (float)(b[1] - a[1]), (float)(b[2] - a[2])};
    float length = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    if (!(length > 1e-6f * (float)r->extent)) return;
    float from[3] = {(float)a[0], (float)a[1], (float)a[2]};
    mat4 m, shift;
    fcAlongMatrix(from, d, length, 0.5f * r->anchorRadius, m);
    glm_translate_make(shift, (vec3){0, 0, 0.5f});
    glm_mat4_mul(m, shift, m);
    static const float rodColor[3] = {0.72f, 0.74f, 0.80f};
    fcDrawMesh(r, &r->unitCylinder, m, rodColor, 0);
}

static void fcLine3(fcCanvas* b, const double a[3], const double c[3], const float color[4])
{
    fcCanvas_Push(b, (float)a[0], (float)a[1], (float)a[2], color);
    fcCanvas_Push(b, (float)c[0], (float)c[1], (float)c[2], color);
}

static void fcFlush(fcRenderer* r, fcCanvas* b, GLenum mode, const float* transform)
{
    if (b->count == 0) return;
    glUseProgram(r->flatProgram);
    glUniformMatrix4fv(r->uTransform, 1, GL_FALSE, transform);
    glBindVertexArray(r->flatVao);
    glBindBuffer(GL_ARRAY_BUFFER, r->flatVbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)b->count * sizeof(fcCanvasVertex)), b->v, GL_STREAM_DRAW);
    glDrawArrays(mode, 0, b->count);
    b->count = 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// The camera: one place for the matrices, shared by drawing, picking and projecting
// ---------------------------------------------------------------------------------------------------------------------

void fcCamera_Eye(const fcCamera* c, double eye[3])
{
    eye[0] = c->target[0] + c->distance * cos(c->pitch) * sin(c->yaw);
    eye[1] = c->target[1] - c->distance * cos(c->pitch) * cos(c->yaw);
    eye[2] = c->target[2] + c->distance * sin(c->pitch);
}

static void fcCameraMatrix(const fcCamera* c, double extent, int width, int height, mat4 vp)
{
    mat4 proj, view;
    float aspect = (float)width / (float)(height > 0 ? height : 1);
    glm_perspective(c->fovY, aspect, (float)(0.01 * c->distance), (float)(50 * c->distance + 10 * extent), proj);
    double e[3];
    fcCamera_Eye(c, e);
    vec3 eye = {(float)e[0], (float)e[1], (float)e[2]};
    vec3 target = {c->target[0], c->target[1], c->target[2]}, up = {0, 0, 1};
    glm_lookat(eye, target, up, view);
    glm_mat4_mul(proj, view, vp);
}

void fcCamera_Ray(const fcCamera* c, double extent, int width, int height, double x, double y, double origin[3], double dir[3])
{
    mat4 vp, inv;
    fcCameraMatrix(c, extent, width, height, vp);
    glm_mat4_inv(vp, inv);
    // pixel centre -> normalized device coordinates (y up), then the near and far points
    float nx = (float)(2 * x / width - 1), ny = (float)(1 - 2 * y / height);
    vec4 pn = {nx, ny, -1, 1}, pf = {nx, ny, 1, 1}, wn, wf;
    glm_mat4_mulv(inv, pn, wn);
    glm_mat4_mulv(inv, pf, wf);
    fcCamera_Eye(c, origin);
    for (int k = 0; k < 3; ++k) dir[k] = (double)(wf[k] / wf[3]) - (double)(wn[k] / wn[3]);
    double n = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    for (int k = 0; k < 3; ++k) dir[k] /= n > 0 ? n : 1;
}

bool fcCamera_Project(const fcCamera* c, double extent, int width, int height, const double p[3], double out[2])
{
    mat4 vp;
    fcCameraMatrix(c, extent, width, height, vp);
    vec4 w = {(float)p[0], (float)p[1], (float)p[2], 1}, clip;
    glm_mat4_mulv(vp, w, clip);
    if (!(clip[3] > 0)) return false;
    out[0] = (clip[0] / clip[3] + 1) * 0.5 * width;
    out[1] = (1 - clip[1] / clip[3]) * 0.5 * height;
    return true;
}

// ---------------------------------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------------------------------

static const float fc_textColor[4] = {0.90f, 0.92f, 0.95f, 1};
static const float fc_dimText[4] = {0.62f, 0.66f, 0.72f, 1};

// The text, cut short with "..." to fit maxWidth pixels (out may be text).
static void fcFitText(const char* text, float maxWidth, char* out, size_t size)
{
    char buffer[512];
    snprintf(buffer, sizeof buffer, "%s", text);
    size_t n = strlen(buffer);
    if (fcCanvas_TextWidth(buffer) > maxWidth) {
        while (n > 0) {
            buffer[--n] = '\0';
            char probe[520];
            snprintf(probe, sizeof probe, "%s...", buffer);
            if (fcCanvas_TextWidth(probe) <= maxWidth) break;
        }
        snprintf(buffer + n, sizeof buffer - n, "...");
    }
    snprintf(out, size, "%s", buffer);
}

// A plane's frame in the world: origin, in-plane axes u and v, normal n.
static void fcPlaneFrame(const fcPlaneDraw* p, const fcViewFrame* frame, double o[3], double u[3], double v[3], double n[3])
{
    mat4 pose, local, m;
    memcpy(local, p->local, sizeof local);
    fcPoseMatrix(frame->bodies + p->body, pose);
    glm_mat4_mul(pose, local, m);
    for (int k = 0; k < 3; ++k) u[k] = m[0][k], v[k] = m[1][k], n[k] = m[2][k], o[k] = m[3][k];
}

// The grid's spacing and half size (in steps), and the point the grid and the planes are centred under.
static void fcGridLayout(const fcRenderer* r, double* step, int* n, double centre[3])
{
    *step = fcNiceStep(r->extent / 8);
    *n = 12;
    centre[0] = 0.5 * (r->lo[0] + r->hi[0]), centre[1] = 0.5 * (r->lo[1] + r->hi[1]);
    centre[2] = r->planeCount > 0 ? 0.5 * (r->lo[2] + r->hi[2]) : r->lo[2] - 0.15 * r->extent;
}

// The planes: translucent quads as large as the grid, drawn after the bodies and before the arrows, writing no
// depth: the ground hides nothing, and what lies under it (a contact's arrow pushing up on a box) is drawn
// over it, crossed by the grid's lines.
static void fcDrawPlanes(fcRenderer* r, const fcViewFrame* frame, const float* vp)
{
    if (r->planeCount == 0) return;
    double step, centre[3];
    int n;
    fcGridLayout(r, &step, &n, centre);
    for (int i = 0; i < r->planeCount; ++i) {
        double o[3], u[3], v[3], pn[3];
        fcPlaneFrame(r->planes + i, frame, o, u, v, pn);
        double rc[3] = {centre[0] - o[0], centre[1] - o[1], centre[2] - o[2]};
        double du = rc[0] * u[0] + rc[1] * u[1] + rc[2] * u[2], dv = rc[0] * v[0] + rc[1] * v[1] + rc[2] * v[2];
        du = step * floor(du / step), dv = step * floor(dv / step);
        double half = n * step, q[4][3];
        static const double corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        for (int c = 0; c < 4; ++c)
            for (int k = 0; k < 3; ++k)
                q[c][k] = o[k] + (du + corners[c][0] * half) * u[k] + (dv + corners[c][1] * half) * v[k];
        static const int order[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; ++k)
            fcCanvas_Push(&r->lines, (float)q[order[k]][0], (float)q[order[k]][1], (float)q[order[k]][2], fc_planeColor);
    }
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDepthMask(GL_FALSE);
    fcFlush(r, &r->lines, GL_TRIANGLES, vp);
    glDepthMask(GL_TRUE);
    glDisable(GL_BLEND);
    glUseProgram(r->meshProgram);
}

static void fcDrawScene(fcRenderer* r, const fcViewFrame* frame, const fcPlot* plot, const fcTrail* trail,
                        const fcCamera* cam, int w, int h, bool contacts)
{
    mat4 vp;
    fcCameraMatrix(cam, r->extent, w, h, vp);
    double e[3];
    fcCamera_Eye(cam, e);
    vec3 eye = {(float)e[0], (float)e[1], (float)e[2]}, target = {cam->target[0], cam->target[1], cam->target[2]};
    vec3 up = {0, 0, 1};

    glEnable(GL_DEPTH_TEST);
    glUseProgram(r->meshProgram);
    glUniformMatrix4fv(r->uViewProjection, 1, GL_FALSE, (const float*)vp);
    glUniform3fv(r->uEye, 1, eye);
    // key light from the upper front left of the camera
    vec3 light = {eye[0] - target[0], eye[1] - target[1], eye[2] - target[2] + cam->distance};
    vec3 side;
    glm_vec3_cross(light, up, side);
    glm_vec3_normalize(side);
    glm_vec3_muladds(side, 0.4f * glm_vec3_norm(light), light);
    glm_vec3_normalize(light);
    glUniform3fv(r->uLightDir, 1, light);

    for (int i = 0; i < r->shapeCount; ++i) {
        const fcShapeDraw* s = r->shapes + i;
        mat4 pose, local, model;  // cglm's mat4 is 16-byte aligned: copy the stored matrix into one
        memcpy(local, s->local, sizeof local);
        fcPoseMatrix(frame->bodies + s->body, pose);
        glm_mat4_mul(pose, local, model);
        float color[3];
        memcpy(color, s->color, sizeof color);
        if (frame->drag.active && frame->drag.body == s->body)  // the grabbed body lightens
            for (int k = 0; k < 3; ++k) color[k] = 0.6f * color[k] + 0.4f;
        fcDrawMesh(r, &s->mesh, model, color, 0);
    }
    static const float noShape[3] = {0.70f, 0.72f, 0.78f};
    for (int i = 0; i < frame->bodyCount; ++i) {
        if (r->bodyHasShape[i]) continue;
        mat4 model;
        fcPoseMatrix(frame->bodies + i, model);
        glm_scale_uni(model, r->pointRadius);
        fcDrawMesh(r, &r->unitSphere, model, noShape, 0);
    }
    // anchors (a plotted joint's in its channel's colour) and force arrows
    static const float anchorColor[3] = {0.95f, 0.95f, 0.98f};
    for (int j = 0; j < frame->jointCount; ++j) {
        const fcViewJoint* v = frame->joints + j;
        if (!v->point) continue;
        int s = plot != NULL ? fcPlot_FindSeries(plot, j) : -1;
        mat4 model;
        glm_translate_make(model, (vec3){(float)v->anchor[0], (float)v->anchor[1], (float)v->anchor[2]});
        glm_scale_uni(model, r->anchorRadius * (s >= 0 ? 1.25f : 1));
        fcDrawMesh(r, &r->unitSphere, model, s >= 0 ? fcPlot_SeriesColor(plot->color[s]) : anchorColor, 0.2f);
    }
    for (int j = 0; j < frame->jointCount; ++j)  // a distance joint's (a spring's) anchors are apart: the rod between
        if (frame->joints[j].type == fc_distanceJoint) fcDrawRod(r, frame->joints[j].anchorA, frame->joints[j].anchor);
    // the x-ray pass first, against the bodies' depth only: where an arrow runs inside or behind a body (a rail's
    // force arrives at the cart's centre) it shows through, darker; then the arrows themselves, bright where seen
    fcDrawPlanes(r, frame, (const float*)vp);
    // the contact points: small markers in a colour of their own
    r->labelCount = 0;
    for (int i = 0; contacts && i < frame->contactCount; ++i) {
        const fcViewContact* c = frame->contacts + i;
        mat4 model;
        glm_translate_make(model, (vec3){(float)c->point[0], (float)c->point[1], (float)c->point[2]});
        glm_scale_uni(model, r->contactRadius * (frame->contactCount > 16 ? 0.7f : 1));
        fcDrawMesh(r, &r->unitMarker, model, fc_contactColor, 0.35f);
        double tail[3], tip[3];
        // a few contacts (a box on the ground): each arrow labelled with its force, at its free end
        if (frame->contactCount <= FC_MAX_CONTACT_LABELS && fcRenderer_ContactArrow(r, c, tail, tip)) {
            bool tipFree = tip[0] != c->point[0] || tip[1] != c->point[1] || tip[2] != c->point[2];
            memcpy(r->labelAt[r->labelCount], tipFree ? tip : tail, sizeof r->labelAt[0]);
            r->labelForce[r->labelCount++] = c->force;
        }
    }
    glDepthFunc(GL_GREATER);
    glDepthMask(GL_FALSE);
    fcDrawArrows(r, frame, true, contacts);
    glDepthMask(GL_TRUE);
    glDepthFunc(GL_LESS);
    fcDrawArrows(r, frame, false, contacts);
    static const float dragColor[3] = {1.0f, 0.88f, 0.30f};
    if (frame->drag.active) {
        mat4 model;
        const double* t = frame->drag.target;
        glm_translate_make(model, (vec3){(float)t[0], (float)t[1], (float)t[2]});
        glm_scale_uni(model, r->anchorRadius * 1.4f);
        fcDrawMesh(r, &r->unitSphere, model, dragColor, 0.6f);
    }

    // the ground grid: in the scene's first plane shape (the ground), else below the motion; links from each
    // anchor to its bodies, the drag spring
    double step, centre[3];
    int n;
    fcGridLayout(r, &step, &n, centre);
    double go[3] = {0, 0, centre[2]}, gu[3] = {1, 0, 0}, gv[3] = {0, 1, 0}, gn[3] = {0, 0, 1};
    if (r->planeCount > 0) fcPlaneFrame(r->planes, frame, go, gu, gv, gn);
    double rel[3] = {centre[0] - go[0], centre[1] - go[1], centre[2] - go[2]};
    double cu = step * floor((rel[0] * gu[0] + rel[1] * gu[1] + rel[2] * gu[2]) / step);
    double cv = step * floor((rel[0] * gv[0] + rel[1] * gv[1] + rel[2] * gv[2]) / step);
    double lift = r->planeCount > 0 ? 0.002 * r->extent : 0;  // above the plane's quad
    double g0[3];  // the grid's centre
    for (int k = 0; k < 3; ++k) g0[k] = go[k] + cu * gu[k] + cv * gv[k] + lift * gn[k];
    for (int i = -n; i <= n; ++i) {
        float c[4] = {0.30f, 0.33f, 0.40f, 1};
        if (i == 0) c[0] = 0.42f, c[1] = 0.45f, c[2] = 0.54f;
        double a[3], b[3], a2[3], b2[3];
        for (int k = 0; k < 3; ++k) {
            a[k] = g0[k] + i * step * gu[k] - n * step * gv[k], b[k] = g0[k] + i * step * gu[k] + n * step * gv[k];
            a2[k] = g0[k] - n * step * gu[k] + i * step * gv[k], b2[k] = g0[k] + n * step * gu[k] + i * step * gv[k];
        }
        fcLine3(&r->lines, a, b, c);
        fcLine3(&r->lines, a2, b2, c);
    }
    static const float linkColor[4] = {0.80f, 0.82f, 0.88f, 1};
    for (int j = 0; j < frame->jointCount; ++j) {
        const fcViewJoint* v = frame->joints + j;
        if (!v->point) continue;
        if (v->bodyA >= 0) fcLine3(&r->lines, v->anchorA, frame->bodies[v->bodyA].p, linkColor);
        if (v->bodyB >= 0) fcLine3(&r->lines, v->anchor, frame->bodies[v->bodyB].p, linkColor);
    }
    if (frame->drag.active) {
        static const float springColor[4] = {1.0f, 0.88f, 0.30f, 1};
        fcLine3(&r->lines, frame->drag.point, frame->drag.target, springColor);
    }
    if (trail != NULL)  // older parts fade
        for (int i = 1; i < trail->count; ++i) {
            const float *a = fcTrail_Point(trail, i - 1), *b = fcTrail_Point(trail, i);
            float c[4] = {0.5f, 0.9f, 1.0f, 0.4f + 0.6f * (float)i / (float)trail->count};
            fcCanvas_Push(&r->lines, a[0], a[1], a[2], c);
            fcCanvas_Push(&r->lines, b[0], b[1], b[2], c);
        }
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    fcFlush(r, &r->lines, GL_LINES, (const float*)vp);
    // the contact normals: short lines from each point along the force on its body, over everything
    if (contacts && frame->contactCount > 0) {
        static const float normalColor[4] = {1.0f, 0.62f, 0.92f, 0.6f};
        double length = (frame->contactCount > 16 ? 2.5 : 3.5) * r->contactRadius;
        for (int i = 0; i < frame->contactCount; ++i) {
            const fcViewContact* c = frame->contacts + i;
            double e[3] = {c->point[0] + length * c->normal[0], c->point[1] + length * c->normal[1],
                           c->point[2] + length * c->normal[2]};
            fcLine3(&r->lines, c->point, e, normalColor);
        }
        glDisable(GL_DEPTH_TEST);
        fcFlush(r, &r->lines, GL_LINES, (const float*)vp);
        glEnable(GL_DEPTH_TEST);
    }
    glDisable(GL_BLEND);
}

void fcRenderer_Draw(fcRenderer* r, const fcScene* scene, const fcViewFrame* frame, const fcPlot* plot,
                     const fcCamera* camera, const fcViewOverlay* o, int width, int height)
{
    int sw = fcRenderer_SceneWidth(width);
    glViewport(0, 0, width, height);
    glClearColor(0.115f, 0.125f, 0.150f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glViewport(0, 0, sw, height);
    fcDrawScene(r, frame, plot, o->trail, camera, sw, height, !o->hideContacts);

    // 2D: pixels, y down
    glViewport(0, 0, width, height);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    mat4 ortho;
    glm_ortho(0, (float)width, (float)height, 0, -1, 1, ortho);
    fcCanvas* b = &r->tris;
    double t0 = fcClockMs();
    fcPlot_Draw(b, scene, plot, (float)sw, 0, (float)width, (float)height, NULL);
    r->plotMs = fcClockMs() - t0;

    char text[256];
    float y = 12, maxWidth = (float)sw - 28;
    fcCanvas_Text(b, 14, y, o->sceneName, fc_textColor);
    fcCanvas_Text(b, (float)sw - 14 - fcCanvas_TextWidth("H: help"), y, "H: help", fc_dimText);
    y += 18;
    if (o->description != NULL && o->description[0] != '\0') {
        fcFitText(o->description, maxWidth, text, sizeof text);
        fcCanvas_Text(b, 14, y, text, fc_dimText);
        y += 18;
    }
    snprintf(text, sizeof text, "t = %.3f s   %s", frame->time, o->status);
    fcCanvas_Text(b, 14, y, text, fc_textColor);
    y += 18;
    snprintf(text, sizeof text, "real-time factor %.2f   step %.3f ms   %.0f fps", o->realTimeFactor, o->stepMs, o->fps);
    fcCanvas_Text(b, 14, y, text, fc_dimText);
    y += 18;
    if (scene->jointCount == 0)
        snprintf(text, sizeof text, "arrows: each contact point's normal force (on the body it pushes), 1 m = %g N",
                 r->newtonsPerMeter);
    else if (frame->contactCount > 0)
        snprintf(text, sizeof text, "arrows: the joints' force on body b and the contacts' normal forces, 1 m = %g N",
                 r->newtonsPerMeter);
    else
        snprintf(text, sizeof text, "arrows: the joints' force on body b (a string's pull at the bodies), 1 m = %g N",
                 r->newtonsPerMeter);
    fcFitText(text, maxWidth, text, sizeof text);
    fcCanvas_Text(b, 14, y, text, fc_dimText);
    y += 18;
    if (frame->contactCount > 0) {
        double total = 0;
        for (int i = 0; i < frame->contactCount; ++i) total += frame->contacts[i].force;
        snprintf(text, sizeof text, "contacts: %d point%s on %d pair%s, normal forces %.5g N in all, complementarity %.1e m/s%s",
                 frame->contactCount, frame->contactCount == 1 ? "" : "s", frame->manifoldCount,
                 frame->manifoldCount == 1 ? "" : "s", total, frame->complementarityResidual,
                 o->hideContacts ? " (hidden: C)" : "");
        fcFitText(text, maxWidth, text, sizeof text);
        fcCanvas_Text(b, 14, y, text, fc_dimText);
        y += 18;
    }
    fcFitText("mouse: drag a body to pull it, click a joint or body to plot it", maxWidth, text, sizeof text);
    fcCanvas_Text(b, 14, y, text, fc_dimText);
    if (frame->drag.active) {
        y += 18;
        const double* f = frame->drag.force;
        snprintf(text, sizeof text, "dragging %s: spring force %.4g N", scene->bodyNames[frame->drag.body],
                 sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]));
        static const float dragText[4] = {1.0f, 0.88f, 0.30f, 1};
        fcCanvas_Text(b, 14, y, text, dragText);
    }
    // the contact force labels, beside the arrows' free ends
    // (one that would overlap a label already placed is left out: a small box's four corners crowd)
    static const float labelColor[4] = {1.0f, 0.80f, 0.95f, 1};
    float placed[FC_MAX_CONTACT_LABELS][4];
    int placedCount = 0;
    for (int i = 0; !o->hideContacts && i < r->labelCount; ++i) {
        double px[2];
        if (!fcCamera_Project(camera, r->extent, sw, height, r->labelAt[i], px)) continue;
        if (px[0] < 0 || px[0] > sw - 40 || px[1] < 0 || px[1] > height) continue;
        snprintf(text, sizeof text, "%.2f N", r->labelForce[i]);
        float tw = fcCanvas_TextWidth(text);
        float box[4] = {(float)px[0] + 4, (float)px[1] - 7, (float)px[0] + 10 + tw, (float)px[1] + 9};
        bool overlaps = false;
        for (int k = 0; k < placedCount && !overlaps; ++k)
            overlaps = box[0] < placed[k][2] && placed[k][0] < box[2] && box[1] < placed[k][3] && placed[k][1] < box[3];
        if (overlaps) continue;
        memcpy(placed[placedCount++], box, sizeof box);
        float bg[4] = {0.05f, 0.055f, 0.07f, 0.7f};
        fcCanvas_Rect(b, box[0], box[1], box[2], box[3], bg);
        fcCanvas_Text(b, (float)px[0] + 7, (float)px[1] - 5, text, labelColor);
    }
    // the log: newest line at the bottom, just above the colour scale
    if (o->log != NULL)
        for (int i = 0; i < 6; ++i) {
            const char* line = fcViewLog_Line(o->log, i);
            if (line == NULL) break;
            float c[4] = {fc_textColor[0], fc_textColor[1], fc_textColor[2], 1.0f - 0.13f * (float)i};
            fcCanvas_Text(b, 14, (float)height - 58 - 16.0f * (float)i, line, c);
        }
    // the arrow colour scale
    float bx = 14, by = (float)height - 30;
    for (int i = 0; i < 60; ++i) {
        float c[4] = {0, 0, 0, 1};
        fcColorRamp(i / 59.0, c);
        fcCanvas_Rect(b, bx + 3.0f * (float)i, by, bx + 3.0f * (float)(i + 1), by + 10, c);
    }
    snprintf(text, sizeof text, "0 .. %.4g N", 1.2 * r->peakForce);
    fcCanvas_Text(b, bx + 190, by - 1, text, fc_dimText);

    if (o->help) {
        static const char* const lines[] = {
            "keys",
            "space       pause / run",
            "S           single step (pauses)",
            "1 2 3 4     speed 1, 1/2, 1/4, 1/10",
            "R           reset the scene",
            "N / P       next / previous demo",
            "F           plot |F|, |M| or force components",
            "C           contacts: points, normals, arrows on/off",
            "left drag   on a body: pull it with a spring",
            "            elsewhere: orbit the camera",
            "click       a joint or body: plot channel on/off",
            "            (a body without joints: its contacts)",
            "right drag  pan      wheel  zoom",
            "H           this help      Esc  quit",
        };
        int count = (int)(sizeof lines / sizeof lines[0]);
        float w = 390, hh = 22.0f * (float)count + 20, x0 = ((float)sw - w) / 2, y0 = ((float)height - hh) / 2;
        float bg[4] = {0.05f, 0.055f, 0.07f, 0.88f};
        fcCanvas_Rect(b, x0, y0, x0 + w, y0 + hh, bg);
        for (int i = 0; i < count; ++i)
            fcCanvas_Text(b, x0 + 18, y0 + 12 + 22.0f * (float)i, lines[i], i ? fc_textColor : fc_dimText);
    }
    fcFlush(r, b, GL_TRIANGLES, (const float*)ortho);
    glDisable(GL_BLEND);
}
