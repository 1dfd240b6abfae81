// SPDX-License-Identifier: MIT
// The viewer's OpenGL 3.3 core renderer (see render.h).
#include "render.h"

#include <glad/gl.h>
#include <cglm/cglm.h>
#include <stb/stb_easy_font.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

typedef struct fcFlatVertex {
    float p[3];
    float c[4];
} fcFlatVertex;

typedef struct fcFlatBatch {
    int count, capacity;
    fcFlatVertex* v;
} fcFlatBatch;

static void fcFlatPush(fcFlatBatch* b, float x, float y, float z, const float c[4])
{
    if (b->count == b->capacity) {
        b->capacity = b->capacity ? 2 * b->capacity : 4096;
        fcFlatVertex* v = realloc(b->v, (size_t)b->capacity * sizeof *v);
        if (v == NULL) abort();
        b->v = v;
    }
    fcFlatVertex* v = b->v + b->count++;
    v->p[0] = x, v->p[1] = y, v->p[2] = z;
    memcpy(v->c, c, sizeof v->c);
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

struct fcRenderer {
    GLuint meshProgram, flatProgram;
    GLint uModel, uViewProjection, uColor, uEye, uLightDir, uEmissive, uTransform;
    GLuint flatVao, flatVbo;
    fcGpuMesh unitSphere, unitCylinder, unitCone;
    fcShapeDraw* shapes;
    int shapeCount;
    bool* bodyHasShape;
    double lo[3], hi[3], extent;
    double newtonsPerMeter;  ///< arrow scale
    double peakForce;
    float anchorRadius;      ///< drawn radius of the joint anchors, m
    float arrowRadius;       ///< shaft radius of the force arrows, m
    float pointRadius;       ///< drawn radius of bodies without shapes and of tiny spheres
    fcFlatBatch lines, tris;  ///< 3D lines; 2D triangles (pixels)
};

int fcRenderer_SceneWidth(int width) { return (int)(width * 0.6); }
double fcRenderer_NewtonsPerMeter(const fcRenderer* r) { return r->newtonsPerMeter; }

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
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(fcFlatVertex), (void*)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(fcFlatVertex), (void*)(3 * sizeof(float)));
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
    return r;
}

static void fcReleaseScene(fcRenderer* r)
{
    for (int i = 0; i < r->shapeCount; ++i) fcGpuMeshFree(&r->shapes[i].mesh);
    free(r->shapes);
    free(r->bodyHasShape);
    r->shapes = NULL;
    r->bodyHasShape = NULL;
    r->shapeCount = 0;
}

void fcRenderer_Destroy(fcRenderer* r)
{
    if (r == NULL) return;
    fcReleaseScene(r);
    fcGpuMeshFree(&r->unitSphere);
    fcGpuMeshFree(&r->unitCylinder);
    fcGpuMeshFree(&r->unitCone);
    if (r->flatVao) glDeleteVertexArrays(1, &r->flatVao);
    if (r->flatVbo) glDeleteBuffers(1, &r->flatVbo);
    if (r->meshProgram) glDeleteProgram(r->meshProgram);
    if (r->flatProgram) glDeleteProgram(r->flatProgram);
    free(r->lines.v);
    free(r->tris.v);
    free(r);
}

// Shape colours: warm hues by shape type, so bodies stand out against the cool background.
static const float fc_shapeColors[4][3] = {
    {0.95f, 0.55f, 0.20f},  // sphere
    {0.86f, 0.36f, 0.28f},  // box
    {0.93f, 0.70f, 0.25f},  // capsule
    {0.80f, 0.40f, 0.55f},  // cylinder
};

static double fcNiceStep(double x)
{
    if (!(x > 0)) return 1;
    double p = pow(10, floor(log10(x))), f = x / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

void fcRenderer_SetScene(fcRenderer* r, const fcScene* scene, const double lo[3], const double hi[3], double peakForce)
{
    fcReleaseScene(r);
    memcpy(r->lo, lo, sizeof r->lo);
    memcpy(r->hi, hi, sizeof r->hi);
    double d[3] = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    r->extent = fmax(sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 0.1);
    r->pointRadius = (float)(0.02 * r->extent);
    // arrows: the peak force is a quarter of the extent long, rounded to a nice scale
    r->peakForce = peakForce > 1e-9 ? peakForce : 1;
    // many joints: shorter arrows, so they do not hide the bodies
    double crowd = scene->jointCount > 4 ? 2 / sqrt((double)scene->jointCount) : 1;
    double longest = 0.25 * r->extent * crowd;
    r->arrowRadius = (float)(0.006 * r->extent * crowd);
    r->newtonsPerMeter = fcNiceStep(r->peakForce / longest);
    r->bodyHasShape = calloc((size_t)(scene->bodyCount ? scene->bodyCount : 1), sizeof(bool));
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
    if (r->bodyHasShape == NULL || r->shapes == NULL) abort();
    r->arrowRadius = fminf(r->arrowRadius, 0.6f * r->anchorRadius);
    for (int i = 0; i < scene->bodyCount; ++i) {
        int n = fcBody_GetShapeCount(scene->bodies[i]);
        for (int k = 0; k < n; ++k) {
            fcShapeDef def = fcShape_GetDef(fcBody_GetShape(scene->bodies[i], k));
            fcShapeDraw* s = r->shapes + r->shapeCount++;
            s->body = i;
            r->bodyHasShape[i] = true;
            fcMesh mesh;
            float radius = (float)def.radius, halfHeight = (float)def.halfHeight;
            switch (def.type) {
            case fc_boxShape:
                fcMesh_Box(&mesh, (float)def.halfExtents.x, (float)def.halfExtents.y, (float)def.halfExtents.z);
                break;
            case fc_capsuleShape: fcMesh_Capsule(&mesh, radius, halfHeight, 24, 12); break;
            case fc_cylinderShape: fcMesh_Cylinder(&mesh, radius, halfHeight, 32); break;
            case fc_sphereShape:
            default:
                // point-like spheres (the pendulum's bob) are drawn at a visible size
                fcMesh_Sphere(&mesh, radius > r->pointRadius ? radius : r->pointRadius, 32, 16);
                break;
            }
            s->mesh = fcUpload(&mesh);
            memcpy(s->color, fc_shapeColors[(unsigned)def.type < 4 ? def.type : 0], sizeof s->color);
            versor q = {(float)def.localOrientation.x, (float)def.localOrientation.y, (float)def.localOrientation.z,
                        (float)def.localOrientation.w};
            mat4 m;
            glm_quat_mat4(q, m);
            m[3][0] = (float)def.localPosition.x, m[3][1] = (float)def.localPosition.y, m[3][2] = (float)def.localPosition.z;
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

static void fcDrawArrow(const fcRenderer* r, const double anchor[3], const double force[3], double magnitude)
{
    double length = magnitude / r->newtonsPerMeter;
    if (!(length > 1e-4 * r->extent)) return;
    float color[3];
    fcColorRamp(magnitude / (1.2 * r->peakForce), color);
    // drawn with its tip at the anchor, pointing along the force on body_b
    float dir[3] = {(float)force[0], (float)force[1], (float)force[2]};
    float fn = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    float from[3];
    for (int k = 0; k < 3; ++k) from[k] = (float)anchor[k] - dir[k] / fn * (float)length;
    float radius = r->arrowRadius;
    float head = fminf((float)length * 0.35f, 5 * radius * 2);
    float shaft = (float)length - head;
    mat4 m;
    // the unit cylinder spans z in [-0.5, 0.5]: shift it to [0, 1]
    fcAlongMatrix(from, dir, shaft, radius, m);
    mat4 shift;
    glm_translate_make(shift, (vec3){0, 0, 0.5f});
    glm_mat4_mul(m, shift, m);
    fcDrawMesh(r, &r->unitCylinder, m, color, 0.3f);
    float n = sqrtf(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    float tip[3] = {from[0] + dir[0] / n * shaft, from[1] + dir[1] / n * shaft, from[2] + dir[2] / n * shaft};
    fcAlongMatrix(tip, dir, head, radius * 2.6f, m);
    fcDrawMesh(r, &r->unitCone, m, color, 0.3f);
}

static void fcLine3(fcFlatBatch* b, const double a[3], const double c[3], const float color[4])
{
    fcFlatPush(b, (float)a[0], (float)a[1], (float)a[2], color);
    fcFlatPush(b, (float)c[0], (float)c[1], (float)c[2], color);
}

static void fcFlush(fcRenderer* r, fcFlatBatch* b, GLenum mode, const float* transform)
{
    if (b->count == 0) return;
    glUseProgram(r->flatProgram);
    glUniformMatrix4fv(r->uTransform, 1, GL_FALSE, transform);
    glBindVertexArray(r->flatVao);
    glBindBuffer(GL_ARRAY_BUFFER, r->flatVbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)((size_t)b->count * sizeof(fcFlatVertex)), b->v, GL_STREAM_DRAW);
    glDrawArrays(mode, 0, b->count);
    b->count = 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// 2D: rectangles, thick lines and stb_easy_font text, in pixels with y down
// ---------------------------------------------------------------------------------------------------------------------

static void fcRect(fcFlatBatch* b, float x0, float y0, float x1, float y1, const float c[4])
{
    fcFlatPush(b, x0, y0, 0, c), fcFlatPush(b, x1, y0, 0, c), fcFlatPush(b, x1, y1, 0, c);
    fcFlatPush(b, x0, y0, 0, c), fcFlatPush(b, x1, y1, 0, c), fcFlatPush(b, x0, y1, 0, c);
}

static void fcLine2(fcFlatBatch* b, float x0, float y0, float x1, float y1, float width, const float c[4])
{
    float dx = x1 - x0, dy = y1 - y0, n = sqrtf(dx * dx + dy * dy);
    if (!(n > 0)) return;
    float nx = -dy / n * width * 0.5f, ny = dx / n * width * 0.5f;
    fcFlatPush(b, x0 + nx, y0 + ny, 0, c), fcFlatPush(b, x1 + nx, y1 + ny, 0, c), fcFlatPush(b, x1 - nx, y1 - ny, 0, c);
    fcFlatPush(b, x0 + nx, y0 + ny, 0, c), fcFlatPush(b, x1 - nx, y1 - ny, 0, c), fcFlatPush(b, x0 - nx, y0 - ny, 0, c);
}

#define FC_TEXT_SCALE 1.5f

static float fcTextWidth(const char* text) { return (float)stb_easy_font_width((char*)text) * FC_TEXT_SCALE; }

static void fcText(fcFlatBatch* b, float x, float y, const char* text, const float c[4])
{
    static char buffer[64 * 1024];  // stb_easy_font: about 270 bytes per character
    unsigned char rgba[4] = {255, 255, 255, 255};
    int quads = stb_easy_font_print(0, 0, (char*)text, rgba, buffer, sizeof buffer);
    for (int q = 0; q < quads; ++q) {
        const float* v = (const float*)(buffer + q * 64);  // 4 vertices of x, y, z, rgba8
        float x0 = x + v[0] * FC_TEXT_SCALE, y0 = y + v[1] * FC_TEXT_SCALE;
        float x1 = x + v[8] * FC_TEXT_SCALE, y1 = y + v[9] * FC_TEXT_SCALE;
        fcRect(b, x0, y0, x1, y1, c);
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// The plot panel
// ---------------------------------------------------------------------------------------------------------------------

static const float fc_seriesColors[FC_PLOT_MAX_SERIES][4] = {
    {0.30f, 0.72f, 1.00f, 1}, {0.45f, 0.90f, 0.40f, 1}, {1.00f, 0.45f, 0.55f, 1},
    {0.80f, 0.60f, 1.00f, 1}, {1.00f, 0.70f, 0.30f, 1}, {0.40f, 0.90f, 0.90f, 1},
};
static const float fc_textColor[4] = {0.90f, 0.92f, 0.95f, 1};
static const float fc_dimText[4] = {0.62f, 0.66f, 0.72f, 1};
static const float fc_panelColor[4] = {0.075f, 0.08f, 0.095f, 1};
static const float fc_gridColor2d[4] = {0.20f, 0.22f, 0.26f, 1};
static const float fc_axisColor[4] = {0.55f, 0.58f, 0.64f, 1};

static void fcDrawPlot(fcRenderer* r, const fcScene* scene, const fcPlot* plot, float x0, float y0, float x1, float y1)
{
    fcFlatBatch* b = &r->tris;
    fcRect(b, x0, y0, x1, y1, fc_panelColor);
    char text[256];
    fcText(b, x0 + 16, y0 + 10, "joint reaction force |F| (force on body b)", fc_textColor);

    // the plot area
    float px0 = x0 + 64, px1 = x1 - 18, py0 = y0 + 58, py1 = y1 - 160;
    if (plot->seriesCount == 0 || plot->count == 0) {
        fcText(b, px0, py0 + 20, plot->seriesCount == 0 ? "(no joints)" : "(no data yet)", fc_dimText);
        return;
    }
    double tNew = plot->t[fcPlot_Index(plot, plot->count - 1)];
    double tMax = fmax(tNew, plot->window), tMin = tMax - plot->window;
    double vMax = 0;
    for (int i = 0; i < plot->count; ++i) {
        int k = fcPlot_Index(plot, i);
        for (int s = 0; s < plot->seriesCount; ++s) {
            if (isfinite(plot->value[k][s])) vMax = fmax(vMax, plot->value[k][s]);
            if (isfinite(plot->exactValue[k][s])) vMax = fmax(vMax, plot->exactValue[k][s]);
        }
    }
    double vStep = fcNiceStep(fmax(vMax, 1e-6) * 1.1 / 5);
    double vTop = vStep * ceil(fmax(vMax, 1e-6) * 1.1 / vStep);
#define FC_PX(t) (px0 + (float)(((t) - tMin) / (tMax - tMin)) * (px1 - px0))
#define FC_PY(v) (py1 - (float)((v) / vTop) * (py1 - py0))
    // grid and ticks
    for (int i = 0; i * vStep <= vTop * (1 + 1e-9); ++i) {
        double v = i * vStep;
        float y = FC_PY(v);
        fcLine2(b, px0, y, px1, y, 1, fc_gridColor2d);
        fcLine2(b, px0 - 5, y, px0, y, 1.5f, fc_axisColor);
        snprintf(text, sizeof text, "%g", v);
        fcText(b, px0 - 9 - fcTextWidth(text), y - 5, text, fc_dimText);
    }
    double tStep = 1;
    for (double t = ceil(tMin / tStep) * tStep; t <= tMax + 1e-9; t += tStep) {
        float x = FC_PX(t);
        fcLine2(b, x, py0, x, py1, 1, fc_gridColor2d);
        fcLine2(b, x, py1, x, py1 + 5, 1.5f, fc_axisColor);
        snprintf(text, sizeof text, "%g", t);
        fcText(b, x - fcTextWidth(text) / 2, py1 + 9, text, fc_dimText);
    }
    fcLine2(b, px0, py0, px0, py1, 1.5f, fc_axisColor);
    fcLine2(b, px0, py1, px1, py1, 1.5f, fc_axisColor);
    fcText(b, (px0 + px1) / 2 - fcTextWidth("time t [s]") / 2, py1 + 28, "time t [s]", fc_textColor);
    fcText(b, x0 + 12, py0 - 22, "|F| [N]", fc_textColor);

    // exact curves (dashed, light) under the measured ones
    for (int s = 0; s < plot->seriesCount; ++s) {
        if (plot->exact[s] == NULL) continue;
        float c[4] = {0.97f, 0.97f, 0.97f, 0.9f};
        float dash = 0;
        for (int i = 1; i < plot->count; ++i) {
            int a = fcPlot_Index(plot, i - 1), k = fcPlot_Index(plot, i);
            double va = plot->exactValue[a][s], vb = plot->exactValue[k][s];
            if (!isfinite(va) || !isfinite(vb) || plot->t[a] < tMin) continue;
            float xa = FC_PX(plot->t[a]), ya = FC_PY(va), xb = FC_PX(plot->t[k]), yb = FC_PY(vb);
            dash += sqrtf((xb - xa) * (xb - xa) + (yb - ya) * (yb - ya));
            if (fmodf(dash, 14) < 8) fcLine2(b, xa, ya, xb, yb, 3.5f, c);
        }
    }
    for (int s = 0; s < plot->seriesCount; ++s)
        for (int i = 1; i < plot->count; ++i) {
            int a = fcPlot_Index(plot, i - 1), k = fcPlot_Index(plot, i);
            if (plot->t[a] < tMin || !isfinite(plot->value[a][s]) || !isfinite(plot->value[k][s])) continue;
            fcLine2(b, FC_PX(plot->t[a]), FC_PY(plot->value[a][s]), FC_PX(plot->t[k]), FC_PY(plot->value[k][s]), 2,
                    fc_seriesColors[s]);
        }
#undef FC_PX
#undef FC_PY

    // legend with the current values and, against an exact curve, the current error
    int last = fcPlot_Index(plot, plot->count - 1);
    float ly = py1 + 46;
    for (int s = 0; s < plot->seriesCount; ++s, ly += 16) {
        fcRect(b, x0 + 16, ly + 2, x0 + 34, ly + 8, fc_seriesColors[s]);
        const char* name = scene->jointNames[plot->joint[s]];
        double v = plot->value[last][s];
        if (plot->exact[s] != NULL) {
            double e = plot->exactValue[last][s];
            snprintf(text, sizeof text, "%-10s %9.4f N   error %+.2e N", name, v, v - e);
        } else {
            snprintf(text, sizeof text, "%-10s %9.4f N", name, v);
        }
        fcText(b, x0 + 42, ly, text, fc_textColor);
    }
    for (int s = 0; s < plot->seriesCount; ++s) {
        if (plot->exact[s] == NULL) continue;
        float c[4] = {0.97f, 0.97f, 0.97f, 0.9f};
        fcLine2(b, x0 + 16, ly + 5, x0 + 22, ly + 5, 3, c);
        fcLine2(b, x0 + 27, ly + 5, x0 + 34, ly + 5, 3, c);
        snprintf(text, sizeof text, "%s: %s", scene->jointNames[plot->joint[s]], plot->exact[s]->label);
        fcText(b, x0 + 42, ly, text, fc_dimText);
        ly += 16;
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Drawing
// ---------------------------------------------------------------------------------------------------------------------

static void fcDrawScene(fcRenderer* r, const fcScene* scene, const fcViewFrame* frame, const fcCamera* cam, int w, int h)
{
    mat4 proj, view, vp;
    float aspect = (float)w / (float)(h > 0 ? h : 1);
    glm_perspective(cam->fovY, aspect, (float)(0.01 * cam->distance), (float)(50 * cam->distance + 10 * r->extent), proj);
    vec3 eye = {cam->target[0] + cam->distance * cosf(cam->pitch) * sinf(cam->yaw),
                cam->target[1] - cam->distance * cosf(cam->pitch) * cosf(cam->yaw),
                cam->target[2] + cam->distance * sinf(cam->pitch)};
    vec3 target = {cam->target[0], cam->target[1], cam->target[2]}, up = {0, 0, 1};
    glm_lookat(eye, target, up, view);
    glm_mat4_mul(proj, view, vp);

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
        fcDrawMesh(r, &s->mesh, model, s->color, 0);
    }
    static const float noShape[3] = {0.70f, 0.72f, 0.78f};
    for (int i = 0; i < frame->bodyCount; ++i) {
        if (r->bodyHasShape[i]) continue;
        mat4 model;
        fcPoseMatrix(frame->bodies + i, model);
        glm_scale_uni(model, r->pointRadius);
        fcDrawMesh(r, &r->unitSphere, model, noShape, 0);
    }
    // anchors and force arrows
    static const float anchorColor[3] = {0.95f, 0.95f, 0.98f};
    for (int j = 0; j < frame->jointCount; ++j) {
        const fcViewJoint* v = frame->joints + j;
        if (!v->point) continue;
        mat4 model;
        glm_translate_make(model, (vec3){(float)v->anchor[0], (float)v->anchor[1], (float)v->anchor[2]});
        glm_scale_uni(model, r->anchorRadius);
        fcDrawMesh(r, &r->unitSphere, model, anchorColor, 0.2f);
    }
    for (int j = 0; j < frame->jointCount; ++j) {
        const fcViewJoint* v = frame->joints + j;
        if (v->point) fcDrawArrow(r, v->anchor, v->force, v->magnitude);
    }

    // the ground grid below the motion, and links from each anchor to its bodies
    double step = fcNiceStep(r->extent / 8);
    double cx = 0.5 * (r->lo[0] + r->hi[0]), cy = 0.5 * (r->lo[1] + r->hi[1]);
    double z = r->lo[2] - 0.15 * r->extent;
    int n = 12;
    double ox = step * floor(cx / step), oy = step * floor(cy / step);
    for (int i = -n; i <= n; ++i) {
        float c[4] = {0.30f, 0.33f, 0.40f, 1};
        if (i == 0) c[0] = 0.42f, c[1] = 0.45f, c[2] = 0.54f;
        double a[3] = {ox + i * step, oy - n * step, z}, e[3] = {ox + i * step, oy + n * step, z};
        fcLine3(&r->lines, a, e, c);
        double a2[3] = {ox - n * step, oy + i * step, z}, e2[3] = {ox + n * step, oy + i * step, z};
        fcLine3(&r->lines, a2, e2, c);
    }
    static const float linkColor[4] = {0.80f, 0.82f, 0.88f, 1};
    for (int j = 0; j < frame->jointCount; ++j) {
        const fcViewJoint* v = frame->joints + j;
        if (!v->point) continue;
        if (v->bodyA >= 0) fcLine3(&r->lines, v->anchorA, frame->bodies[v->bodyA].p, linkColor);
        if (v->bodyB >= 0) fcLine3(&r->lines, v->anchor, frame->bodies[v->bodyB].p, linkColor);
    }
    fcFlush(r, &r->lines, GL_LINES, (const float*)vp);
    (void)scene;
}

void fcRenderer_Draw(fcRenderer* r, const fcScene* scene, const fcViewFrame* frame, const fcPlot* plot,
                     const fcCamera* camera, const fcViewOverlay* o, int width, int height)
{
    int sw = fcRenderer_SceneWidth(width);
    glViewport(0, 0, width, height);
    glClearColor(0.115f, 0.125f, 0.150f, 1);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glViewport(0, 0, sw, height);
    fcDrawScene(r, scene, frame, camera, sw, height);

    // 2D: pixels, y down
    glViewport(0, 0, width, height);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    mat4 ortho;
    glm_ortho(0, (float)width, (float)height, 0, -1, 1, ortho);
    fcDrawPlot(r, scene, plot, (float)sw, 0, (float)width, (float)height);

    fcFlatBatch* b = &r->tris;
    char text[256];
    float y = 12;
    fcText(b, 14, y, o->sceneName, fc_textColor);
    y += 18;
    snprintf(text, sizeof text, "t = %.3f s   %s", frame->time, o->status);
    fcText(b, 14, y, text, fc_textColor);
    y += 18;
    snprintf(text, sizeof text, "real-time factor %.2f   step %.3f ms   %.0f fps", o->realTimeFactor, o->stepMs, o->fps);
    fcText(b, 14, y, text, fc_dimText);
    y += 18;
    snprintf(text, sizeof text, "arrows: force on body b at each joint, 1 m = %g N", r->newtonsPerMeter);
    fcText(b, 14, y, text, fc_dimText);
    // the arrow colour scale
    float bx = 14, by = (float)height - 30;
    for (int i = 0; i < 60; ++i) {
        float c[4] = {0, 0, 0, 1};
        fcColorRamp(i / 59.0, c);
        fcRect(b, bx + 3.0f * (float)i, by, bx + 3.0f * (float)(i + 1), by + 10, c);
    }
    snprintf(text, sizeof text, "0 .. %.4g N", 1.2 * r->peakForce);
    fcText(b, bx + 190, by - 1, text, fc_dimText);
    fcText(b, (float)sw - 14 - fcTextWidth("H: help"), 12, "H: help", fc_dimText);

    if (o->help) {
        static const char* const lines[] = {
            "keys",
            "space      pause / run",
            "S          single step (pauses)",
            "1 2 3 4    speed 1, 1/2, 1/4, 1/10",
            "R          reset the scene",
            "N / P      next / previous demo",
            "left drag  orbit      right drag  pan",
            "wheel      zoom",
            "H          this help      Esc  quit",
        };
        int count = (int)(sizeof lines / sizeof lines[0]);
        float w = 330, hh = 22.0f * (float)count + 20, x0 = ((float)sw - w) / 2, y0 = ((float)height - hh) / 2;
        float bg[4] = {0.05f, 0.055f, 0.07f, 0.88f};
        fcRect(b, x0, y0, x0 + w, y0 + hh, bg);
        for (int i = 0; i < count; ++i) fcText(b, x0 + 18, y0 + 12 + 22.0f * (float)i, lines[i], i ? fc_textColor : fc_dimText);
    }
    fcFlush(r, b, GL_TRIANGLES, (const float*)ortho);
    glDisable(GL_BLEND);
}
