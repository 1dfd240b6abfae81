// SPDX-License-Identifier: MIT
// The general convex narrowphase: support maps, GJK distance and EPA, SAT with face clipping for polyhedra,
// feature clipping for curved pairs; triangle meshes, ray casts against hulls, distances and shape casts.
#include "convex.h"

#include <string.h>

// ---- tolerances ------------------------------------------------------------------------------------------------------
#ifdef FC_FLOAT
#define FC_GJK_REL 1e-5f    // GJK stops when its lower bound is within this fraction of the distance
#define FC_GJK_TOUCH 1e-6f  // cores closer than this (times their size) touch: GJK has no direction left
#define FC_NORMAL_REL 1e-4f // below this core distance (times size) the witnesses give no reliable normal
#define FC_EPA_REL 1e-5f
#define FC_EPA_GAIN 1e-4f  // EPA on curved shapes converges linearly: stop within this fraction of the depth
#define FC_CAST_REL 1e-6f
#else
#define FC_GJK_REL 1e-10
#define FC_GJK_TOUCH 1e-12
#define FC_NORMAL_REL 1e-7
#define FC_EPA_REL 1e-9
#define FC_EPA_GAIN 1e-6
#define FC_CAST_REL 1e-11
#endif
#define FC_HUGE ((fcReal)1e30)
// A face or segment lies flat against a normal within about 1.1 degrees: contacts come from its outline.
#define FC_FLAT_COS ((fcReal)0.9998)
#define FC_FLAT_SIN ((fcReal)0.02)
// 45 degrees: a cylinder whose axis is within it of a face's normal presents its rim to the face, else its side;
// a mesh triangle within it of a pair's last manifold keeps that manifold's side (fcMesh_LastSide)
#define FC_COS_45 ((fcReal)0.70710678118654752)
// SAT keeps the earlier candidate (A's face, then B's, then an edge pair) unless a later one separates
// more by this relative and absolute (times size) amount, so the reference face does not flicker.
#define FC_SAT_REL ((fcReal)0.05)
#define FC_SAT_ABS ((fcReal)1e-3)
#define FC_GJK_ITERATIONS 96
#define FC_EPA_ITERATIONS 64
#define FC_EPA_VERTICES 128
#define FC_EPA_FACES 256
#define FC_RIM 16  // points on a cylinder cap's rim
#define FC_CLIP_MAX (2 * FC_HULL_MAX_VERTICES + 8)

// fmin and fmax are library calls under strict IEEE semantics; these inline (no NaN reaches them)
static inline fcReal fcMin(fcReal a, fcReal b) { return a < b ? a : b; }
static inline fcReal fcMax(fcReal a, fcReal b) { return a > b ? a : b; }

// ---- shapes in a working frame ---------------------------------------------------------------------------------------

enum { FC_POLY, FC_CYL };

// A convex shape placed in the working frame (the world, or a mesh's frame): a polyhedron (box, hull, mesh
// triangle; sphere and capsule as a point or a segment rounded by radius) or a cylinder.
typedef struct fcConvex {
    int kind;
    fcReal radius;  // rounding around the core (sphere, capsule)
    fcVec3 center;  // inside the core
    fcReal size;    // a length for relative tolerances
    fcVec3 shift;   // added to support points: a shape cast sweeps the shape without moving its vertices
    bool solid;     // a polyhedron with volume: its edges' Gauss-map arcs are meaningful
    int vertexCount, faceCount, edgeCount;
    const fcVec3* v;
    const fcVec3* n;
    const fcReal* d;
    const fcHullFace* faces;  // only first and count are used: the plane is n[f], d[f]
    const int* loops;
    const fcHullEdge* edges;
    fcVec3 axis, u, w;  // cylinder: axis, and the rim's basis (fixed in the shape, so rim points keep their ids)
    fcReal cr, hh;
} fcConvex;

typedef struct fcConvexStore {
    fcConvex c;
    fcVec3 v[FC_HULL_MAX_VERTICES];
    fcVec3 n[FC_HULL_MAX_FACES];
    fcReal d[FC_HULL_MAX_FACES];
} fcConvexStore;

typedef struct fcTriangleStore {
    fcConvex c;
    fcVec3 v[3];
    fcVec3 n[2];
    fcReal d[2];
} fcTriangleStore;

// Box corners: bit 0, 1, 2 of the index set means +x, +y, +z. Faces +x, -x, +y, -y, +z, -z. The edges keep
// convex.h's convention (v0 -> v1 counterclockwise in f0), which the SAT's Gauss-map test relies on.
static const int fcBoxLoops[24] = {1, 3, 7, 5, 0, 4, 6, 2, 2, 6, 7, 3, 0, 1, 5, 4, 4, 5, 7, 6, 0, 2, 3, 1};
static const fcHullFace fcBoxFaces[6] = {{{0, 0, 0}, 0, 0, 4},  {{0, 0, 0}, 0, 4, 4},  {{0, 0, 0}, 0, 8, 4},
                                         {{0, 0, 0}, 0, 12, 4}, {{0, 0, 0}, 0, 16, 4}, {{0, 0, 0}, 0, 20, 4}};
static const fcHullEdge fcBoxEdges[12] = {{0, 1, 3, 5}, {2, 3, 5, 2}, {4, 5, 4, 3}, {6, 7, 2, 4}, {0, 2, 5, 1}, {1, 3, 0, 5},
                                          {4, 6, 1, 4}, {5, 7, 4, 0}, {0, 4, 1, 3}, {1, 5, 3, 0}, {2, 6, 2, 1}, {3, 7, 0, 2}};
// A triangle is a flat polyhedron: its two sides are faces 0 (normal n) and 1 (-n).
static const int fcTriangleLoops[6] = {0, 1, 2, 0, 2, 1};
static const fcHullFace fcTriangleFaces[2] = {{{0, 0, 0}, 0, 0, 3}, {{0, 0, 0}, 0, 3, 3}};
static const fcHullEdge fcTriangleEdges[3] = {{0, 1, 0, 1}, {1, 2, 0, 1}, {2, 0, 0, 1}};
static const fcHullEdge fcSegmentEdge[1] = {{0, 1, -1, -1}};
// cos(2 pi k / 16); sin is cos at k + 12
static const fcReal fcRimCos[FC_RIM] = {1, 0.92387953251128674, 0.70710678118654757, 0.38268343236508978,
                                        0, -0.38268343236508978, -0.70710678118654757, -0.92387953251128674,
                                        -1, -0.92387953251128674, -0.70710678118654757, -0.38268343236508978,
                                        0, 0.38268343236508978, 0.70710678118654757, 0.92387953251128674};

static bool fcConvex_Make(fcConvexStore* s, const fcGeometry* g, fcTransform xf)
{
    fcConvex* c = &s->c;
    memset(c, 0, sizeof *c);
    c->kind = FC_POLY;
    c->v = s->v;
    c->n = s->n;
    c->d = s->d;
    c->center = xf.p;
    switch (g->type) {
        case fc_sphereShape:
            s->v[0] = xf.p;
            c->vertexCount = 1;
            c->radius = g->radius;
            c->size = g->radius;
            return true;
        case fc_capsuleShape: {
            fcVec3 h = fcQuat_Rotate(xf.q, fcV3(0, 0, g->halfHeight));
            s->v[0] = fcVec3_Sub(xf.p, h);
            s->v[1] = fcVec3_Add(xf.p, h);
            c->vertexCount = g->halfHeight > 0 ? 2 : 1;
            c->edgeCount = g->halfHeight > 0 ? 1 : 0;
            c->edges = fcSegmentEdge;
            c->radius = g->radius;
            c->size = g->halfHeight + g->radius;
            return true;
        }
        case fc_boxShape: {
            fcMat33 r = fcMat33_FromQuat(xf.q);
            fcVec3 h = g->halfExtents;
            fcVec3 ex = fcVec3_Scale(h.x, r.cx), ey = fcVec3_Scale(h.y, r.cy), ez = fcVec3_Scale(h.z, r.cz);
            for (int i = 0; i < 8; ++i) {
                fcVec3 p = xf.p;
                p = (i & 1) ? fcVec3_Add(p, ex) : fcVec3_Sub(p, ex);
                p = (i & 2) ? fcVec3_Add(p, ey) : fcVec3_Sub(p, ey);
                p = (i & 4) ? fcVec3_Add(p, ez) : fcVec3_Sub(p, ez);
                s->v[i] = p;
            }
            fcVec3 axes[3] = {r.cx, r.cy, r.cz};
            fcReal half[3] = {h.x, h.y, h.z};
            for (int f = 0; f < 6; ++f) {
                s->n[f] = (f & 1) ? fcVec3_Neg(axes[f / 2]) : axes[f / 2];
                s->d[f] = fcVec3_Dot(s->n[f], xf.p) + half[f / 2];
            }
            c->vertexCount = 8;
            c->faceCount = 6;
            c->edgeCount = 12;
            c->faces = fcBoxFaces;
            c->loops = fcBoxLoops;
            c->edges = fcBoxEdges;
            c->solid = true;
            c->size = fcVec3_Length(h);
            return true;
        }
        case fc_hullShape: {
            const fcHull* hull = g->hull;
            if (hull == NULL) return false;
            fcMat33 r = fcMat33_FromQuat(xf.q);
            for (int i = 0; i < hull->vertexCount; ++i) s->v[i] = fcVec3_Add(xf.p, fcMat33_MulV(r, hull->vertices[i]));
            for (int f = 0; f < hull->faceCount; ++f) {
                s->n[f] = fcMat33_MulV(r, hull->faces[f].normal);
                s->d[f] = hull->faces[f].offset + fcVec3_Dot(s->n[f], xf.p);
            }
            c->vertexCount = hull->vertexCount;
            c->faceCount = hull->faceCount;
            c->edgeCount = hull->edgeCount;
            c->faces = hull->faces;
            c->loops = hull->loops;
            c->edges = hull->edges;
            c->solid = true;
            c->center = fcVec3_Add(xf.p, fcMat33_MulV(r, hull->centroid));
            c->size = hull->radius;
            return true;
        }
        case fc_cylinderShape: {
            fcMat33 r = fcMat33_FromQuat(xf.q);
            c->kind = FC_CYL;
            c->axis = r.cz;
            c->u = r.cx;
            c->w = r.cy;
            c->cr = g->radius;
            c->hh = g->halfHeight;
            c->size = FC_SQRT(g->radius * g->radius + g->halfHeight * g->halfHeight);
            return true;
        }
        default:
            return false;
    }
}

static void fcConvex_Triangle(fcTriangleStore* s, fcVec3 a, fcVec3 b, fcVec3 c, fcVec3 normal)
{
    fcConvex* t = &s->c;
    memset(t, 0, sizeof *t);
    t->kind = FC_POLY;
    s->v[0] = a;
    s->v[1] = b;
    s->v[2] = c;
    s->n[0] = normal;
    s->n[1] = fcVec3_Neg(normal);
    s->d[0] = fcVec3_Dot(normal, a);
    s->d[1] = -s->d[0];
    t->v = s->v;
    t->n = s->n;
    t->d = s->d;
    t->vertexCount = 3;
    t->faceCount = 2;
    t->edgeCount = 3;
    t->faces = fcTriangleFaces;
    t->loops = fcTriangleLoops;
    t->edges = fcTriangleEdges;
    t->center = fcVec3_Scale((fcReal)1 / 3, fcVec3_Add(fcVec3_Add(a, b), c));
    t->size = FC_SQRT(fcMax(fcVec3_Dot(fcVec3_Sub(b, a), fcVec3_Sub(b, a)),
                           fcMax(fcVec3_Dot(fcVec3_Sub(c, b), fcVec3_Sub(c, b)), fcVec3_Dot(fcVec3_Sub(a, c), fcVec3_Sub(a, c)))));
}

static bool fcGeometry_IsConvex(const fcGeometry* g)
{
    switch (g->type) {
        case fc_sphereShape:
        case fc_capsuleShape:
        case fc_boxShape:
        case fc_cylinderShape:
            return true;
        case fc_hullShape:
            return g->hull != NULL;
        default:
            return false;
    }
}

// The farthest point of the core in direction dir (any length).
static fcVec3 fcConvex_Support(const fcConvex* c, fcVec3 dir)
{
    if (c->kind == FC_CYL) {
        // the radial part in the rim basis: exactly across the axis even when dir nearly runs along it
        fcReal a = fcVec3_Dot(dir, c->axis), ru = fcVec3_Dot(dir, c->u), rw = fcVec3_Dot(dir, c->w);
        fcReal rl = FC_SQRT(ru * ru + rw * rw);
        fcVec3 p = fcVec3_MulAdd(c->center, a >= 0 ? c->hh : -c->hh, c->axis);
        if (rl > 0) p = fcVec3_Add(p, fcVec3_Add(fcVec3_Scale(c->cr * ru / rl, c->u), fcVec3_Scale(c->cr * rw / rl, c->w)));
        return fcVec3_Add(p, c->shift);
    }
    int best = 0;
    fcReal bd = fcVec3_Dot(c->v[0], dir);
    for (int i = 1; i < c->vertexCount; ++i) {
        fcReal di = fcVec3_Dot(c->v[i], dir);
        if (di > bd) {
            bd = di;
            best = i;
        }
    }
    return fcVec3_Add(c->v[best], c->shift);
}

// Which part of the shape faces dir, for the id of a lone contact point.
static uint32_t fcConvex_FeatureId(const fcConvex* c, fcVec3 dir)
{
    if (c->kind == FC_CYL) {
        fcReal a = fcVec3_Dot(dir, c->axis) / fcMax(fcVec3_Length(dir), FC_EPSILON);
        return a > FC_FLAT_SIN ? 0x100u : a < -FC_FLAT_SIN ? 0x101u : 0x102u;
    }
    int best = 0;
    fcReal bd = fcVec3_Dot(c->v[0], dir);
    for (int i = 1; i < c->vertexCount; ++i) {
        fcReal di = fcVec3_Dot(c->v[i], dir);
        if (di > bd) {
            bd = di;
            best = i;
        }
    }
    return (uint32_t)best;
}

static fcAabb fcConvex_Box(const fcConvex* c)
{
    fcAabb box;
    if (c->kind == FC_CYL) {
        fcVec3 a = c->axis;
        fcReal r = c->cr, h = c->hh;
        fcVec3 e = fcV3(h * FC_FABS(a.x) + r * FC_SQRT(fcMax(0.0, 1 - a.x * a.x)), h * FC_FABS(a.y) + r * FC_SQRT(fcMax(0.0, 1 - a.y * a.y)),
                        h * FC_FABS(a.z) + r * FC_SQRT(fcMax(0.0, 1 - a.z * a.z)));
        box.lo = fcVec3_Sub(c->center, e);
        box.hi = fcVec3_Add(c->center, e);
        return box;
    }
    box.lo = box.hi = c->v[0];
    for (int i = 1; i < c->vertexCount; ++i) {
        fcVec3 p = c->v[i];
        box.lo = fcV3(fcMin(box.lo.x, p.x), fcMin(box.lo.y, p.y), fcMin(box.lo.z, p.z));
        box.hi = fcV3(fcMax(box.hi.x, p.x), fcMax(box.hi.y, p.y), fcMax(box.hi.z, p.z));
    }
    fcVec3 r = fcV3(c->radius, c->radius, c->radius);
    box.lo = fcVec3_Sub(box.lo, r);
    box.hi = fcVec3_Add(box.hi, r);
    return box;
}

static uint32_t fcMix(uint32_t h, uint32_t x)
{
    h ^= x + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

// ---- GJK -------------------------------------------------------------------------------------------------------------

typedef struct fcSupportPoint { fcVec3 w, a, b; } fcSupportPoint;  // w = a - b
typedef struct fcSimplex { fcSupportPoint v[4]; fcReal bc[4]; int count; } fcSimplex;

static fcSupportPoint fcSupport(const fcConvex* A, const fcConvex* B, fcVec3 d)
{
    fcSupportPoint s;
    s.a = fcConvex_Support(A, d);
    s.b = fcConvex_Support(B, fcVec3_Neg(d));
    s.w = fcVec3_Sub(s.a, s.b);
    return s;
}

static void fcSimplex_Set1(fcSimplex* s, fcSupportPoint a)
{
    s->v[0] = a;
    s->bc[0] = 1;
    s->count = 1;
}

static void fcSimplex_Set2(fcSimplex* s, fcSupportPoint a, fcSupportPoint b, fcReal t)
{
    s->v[0] = a;
    s->v[1] = b;
    s->bc[0] = 1 - t;
    s->bc[1] = t;
    s->count = 2;
}

static fcVec3 fcSimplex_Point(const fcSimplex* s)
{
    fcVec3 p = fcV3(0, 0, 0);
    for (int i = 0; i < s->count; ++i) p = fcVec3_MulAdd(p, s->bc[i], s->v[i].w);
    return p;
}

static void fcSolve2(fcSupportPoint a, fcSupportPoint b, fcSimplex* out)
{
    fcVec3 e = fcVec3_Sub(b.w, a.w);
    fcReal ee = fcVec3_Dot(e, e);
    fcReal t = ee > 0 ? -fcVec3_Dot(a.w, e) / ee : 0;
    if (t <= 0) fcSimplex_Set1(out, a);
    else if (t >= 1) fcSimplex_Set1(out, b);
    else fcSimplex_Set2(out, a, b, t);
}

// Closest point of a triangle to the origin by its Voronoi regions; degenerate triangles fall back to edges.
static void fcSolve3(fcSupportPoint A, fcSupportPoint B, fcSupportPoint C, fcSimplex* out)
{
    fcVec3 a = A.w, b = B.w, c = C.w;
    fcVec3 ab = fcVec3_Sub(b, a), ac = fcVec3_Sub(c, a);
    fcReal d1 = -fcVec3_Dot(ab, a), d2 = -fcVec3_Dot(ac, a);
    if (d1 <= 0 && d2 <= 0) {
        fcSimplex_Set1(out, A);
        return;
    }
    fcReal d3 = -fcVec3_Dot(ab, b), d4 = -fcVec3_Dot(ac, b);
    if (d3 >= 0 && d4 <= d3) {
        fcSimplex_Set1(out, B);
        return;
    }
    fcReal vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) {
        if (d1 - d3 > 0) fcSimplex_Set2(out, A, B, d1 / (d1 - d3));
        else fcSimplex_Set1(out, A);
        return;
    }
    fcReal d5 = -fcVec3_Dot(ab, c), d6 = -fcVec3_Dot(ac, c);
    if (d6 >= 0 && d5 <= d6) {
        fcSimplex_Set1(out, C);
        return;
    }
    fcReal vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) {
        if (d2 - d6 > 0) fcSimplex_Set2(out, A, C, d2 / (d2 - d6));
        else fcSimplex_Set1(out, A);
        return;
    }
    fcReal va = d3 * d6 - d5 * d4;
    if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
        fcReal den = (d4 - d3) + (d5 - d6);
        if (den > 0) fcSimplex_Set2(out, B, C, (d4 - d3) / den);
        else fcSimplex_Set1(out, B);
        return;
    }
    fcReal den = va + vb + vc;
    if (!(den > 0)) {
        fcSimplex e[3];
        memset(e, 0, sizeof e);  // fcSolve2 fills what count says; the optimizer cannot see it
        fcSolve2(A, B, &e[0]);
        fcSolve2(B, C, &e[1]);
        fcSolve2(A, C, &e[2]);
        int best = 0;
        fcReal bd = FC_HUGE;
        for (int i = 0; i < 3; ++i) {
            fcVec3 p = fcSimplex_Point(&e[i]);
            if (fcVec3_Dot(p, p) < bd) {
                bd = fcVec3_Dot(p, p);
                best = i;
            }
        }
        *out = e[best];
        return;
    }
    fcReal v = vb / den, w = vc / den;
    out->v[0] = A;
    out->v[1] = B;
    out->v[2] = C;
    out->bc[0] = 1 - v - w;
    out->bc[1] = v;
    out->bc[2] = w;
    out->count = 3;
}

// False when the origin is inside the tetrahedron (then out holds it with the origin's barycentric weights).
static bool fcSolve4(const fcSimplex* s, fcSimplex* out)
{
    static const int faces[4][4] = {{0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 3, 1}, {1, 2, 3, 0}};
    bool any = false;
    fcReal best = FC_HUGE;
    for (int f = 0; f < 4; ++f) {
        fcVec3 a = s->v[faces[f][0]].w, b = s->v[faces[f][1]].w, c = s->v[faces[f][2]].w, o = s->v[faces[f][3]].w;
        fcVec3 n = fcVec3_Cross(fcVec3_Sub(b, a), fcVec3_Sub(c, a));
        fcReal so = -fcVec3_Dot(n, a), sd = fcVec3_Dot(n, fcVec3_Sub(o, a));
        if (so * sd > 0) continue;  // the origin is on the tetrahedron's side of this face
        fcSimplex t;
        fcSolve3(s->v[faces[f][0]], s->v[faces[f][1]], s->v[faces[f][2]], &t);
        fcVec3 p = fcSimplex_Point(&t);
        if (fcVec3_Dot(p, p) < best) {
            best = fcVec3_Dot(p, p);
            *out = t;
            any = true;
        }
    }
    if (any) return true;
    // inside: barycentric weights of the origin, so the witnesses are one common point
    *out = *s;
    fcVec3 w0 = s->v[0].w;
    fcVec3 e1 = fcVec3_Sub(s->v[1].w, w0), e2 = fcVec3_Sub(s->v[2].w, w0), e3 = fcVec3_Sub(s->v[3].w, w0);
    fcReal det = fcVec3_Dot(e1, fcVec3_Cross(e2, e3));
    fcVec3 r = fcVec3_Neg(w0);
    if (det != 0) {
        out->bc[1] = fcVec3_Dot(r, fcVec3_Cross(e2, e3)) / det;
        out->bc[2] = fcVec3_Dot(e1, fcVec3_Cross(r, e3)) / det;
        out->bc[3] = fcVec3_Dot(e1, fcVec3_Cross(e2, r)) / det;
        out->bc[0] = 1 - out->bc[1] - out->bc[2] - out->bc[3];
    } else {
        out->bc[0] = out->bc[1] = out->bc[2] = out->bc[3] = (fcReal)0.25;
    }
    out->count = 4;
    return false;
}

typedef struct fcGjk {
    fcReal distance;  // between the cores; 0 when they overlap
    fcVec3 a, b;      // closest points of the cores (one common point when they overlap)
    bool overlap;
    fcSimplex s;
} fcGjk;

static void fcGjk_Run(const fcConvex* A, const fcConvex* B, fcGjk* g)
{
    fcVec3 d = fcVec3_Sub(fcVec3_Add(B->center, B->shift), fcVec3_Add(A->center, A->shift));
    if (fcVec3_Dot(d, d) == 0) d = fcV3(1, 0, 0);
    fcSimplex s;
    fcSimplex_Set1(&s, fcSupport(A, B, d));
    fcVec3 v = s.v[0].w;
    fcReal vv = fcVec3_Dot(v, v);
    fcReal touch = FC_GJK_TOUCH * (A->size + B->size);
    g->overlap = false;
    for (int iter = 0; iter < FC_GJK_ITERATIONS; ++iter) {
        if (vv <= touch * touch) {
            g->overlap = true;
            break;
        }
        fcSupportPoint w = fcSupport(A, B, fcVec3_Neg(v));
        // v is the distance within the relative tolerance once the lower bound v.w / |v| nears |v|
        if (vv - fcVec3_Dot(v, w.w) <= FC_GJK_REL * vv) break;
        bool repeated = false;
        for (int i = 0; i < s.count; ++i)
            repeated |= s.v[i].w.x == w.w.x && s.v[i].w.y == w.w.y && s.v[i].w.z == w.w.z;
        if (repeated) break;
        fcSimplex grown = s, next;
        grown.v[grown.count++] = w;
        if (grown.count == 2) fcSolve2(grown.v[0], grown.v[1], &next);
        else if (grown.count == 3) fcSolve3(grown.v[0], grown.v[1], grown.v[2], &next);
        else if (!fcSolve4(&grown, &next)) {
            s = next;
            g->overlap = true;
            break;
        }
        fcVec3 nv = fcSimplex_Point(&next);
        fcReal nvv = fcVec3_Dot(nv, nv);
        if (nvv >= vv) break;  // no progress: rounding has the last word
        s = next;
        v = nv;
        vv = nvv;
    }
    g->s = s;
    g->a = g->b = fcV3(0, 0, 0);
    for (int i = 0; i < s.count; ++i) {
        g->a = fcVec3_MulAdd(g->a, s.bc[i], s.v[i].a);
        g->b = fcVec3_MulAdd(g->b, s.bc[i], s.v[i].b);
    }
    if (g->overlap) g->b = g->a;
    g->distance = g->overlap ? 0 : FC_SQRT(vv);
}

// ---- EPA -------------------------------------------------------------------------------------------------------------

typedef struct fcEpaFace { int v[3]; fcVec3 n; fcReal d; bool alive; } fcEpaFace;
typedef struct fcEpa {
    fcSupportPoint p[FC_EPA_VERTICES];
    fcEpaFace f[FC_EPA_FACES];
    int pc, fc;
} fcEpa;

// The face's slot, or -1 when there is no room.
static int fcEpa_AddFace(fcEpa* e, int a, int b, int c)
{
    int slot = -1;
    for (int i = 0; i < e->fc && slot < 0; ++i)
        if (!e->f[i].alive) slot = i;
    if (slot < 0) {
        if (e->fc == FC_EPA_FACES) return -1;
        slot = e->fc++;
    }
    fcEpaFace* f = e->f + slot;
    f->v[0] = a;
    f->v[1] = b;
    f->v[2] = c;
    fcVec3 n = fcVec3_Cross(fcVec3_Sub(e->p[b].w, e->p[a].w), fcVec3_Sub(e->p[c].w, e->p[a].w));
    fcReal len = fcVec3_Length(n);
    f->alive = true;
    if (len > 0) {
        f->n = fcVec3_Scale(1 / len, n);
        f->d = fcVec3_Dot(f->n, e->p[a].w);
    } else {  // a sliver: part of the surface, never the answer
        f->n = fcV3(0, 0, 0);
        f->d = FC_HUGE;
    }
    return slot;
}

// Penetration of overlapping cores from GJK's final simplex: normal (A to B), depth and witnesses.
static bool fcEpa_Run(const fcConvex* A, const fcConvex* B, const fcSimplex* s0, fcVec3* normal, fcReal* depth,
                      fcVec3* pa, fcVec3* pb)
{
    fcEpa e;
    e.pc = s0->count;
    e.fc = 0;
    memset(e.p, 0, sizeof e.p[0] * 4);  // the tetrahedron's slots (the optimizer cannot see they are all filled)
    for (int i = 0; i < s0->count; ++i) e.p[i] = s0->v[i];
    fcReal scale = A->size + B->size;
    fcReal tol = FC_EPA_REL * scale;
    // grow the simplex to a tetrahedron
    if (e.pc == 1) {
        static const fcReal dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (int k = 0; k < 6 && e.pc == 1; ++k) {
            fcSupportPoint w = fcSupport(A, B, fcV3(dirs[k][0], dirs[k][1], dirs[k][2]));
            if (fcVec3_Distance(w.w, e.p[0].w) > tol) e.p[e.pc++] = w;
        }
    }
    if (e.pc == 2) {
        fcVec3 axis = fcVec3_Normalize(fcVec3_Sub(e.p[1].w, e.p[0].w));
        fcVec3 p = fcVec3_Perpendicular(axis), q = fcVec3_Cross(axis, p);
        for (int k = 0; k < 8 && e.pc == 2; ++k) {  // around the segment in steps of 45 degrees
            fcVec3 dir = fcVec3_Add(fcVec3_Scale(fcRimCos[2 * k], p), fcVec3_Scale(fcRimCos[(2 * k + 12) % FC_RIM], q));
            fcSupportPoint w = fcSupport(A, B, dir);
            fcVec3 r = fcVec3_Sub(w.w, e.p[0].w);
            if (fcVec3_Length(fcVec3_Cross(r, axis)) > tol) e.p[e.pc++] = w;
        }
    }
    if (e.pc == 3) {
        fcVec3 n = fcVec3_Normalize(fcVec3_Cross(fcVec3_Sub(e.p[1].w, e.p[0].w), fcVec3_Sub(e.p[2].w, e.p[0].w)));
        fcSupportPoint w = fcSupport(A, B, n);
        if (FC_FABS(fcVec3_Dot(fcVec3_Sub(w.w, e.p[0].w), n)) <= tol) w = fcSupport(A, B, fcVec3_Neg(n));
        if (FC_FABS(fcVec3_Dot(fcVec3_Sub(w.w, e.p[0].w), n)) > tol) e.p[e.pc++] = w;
    }
    if (e.pc < 4) return false;
    fcVec3 mid = fcV3(0, 0, 0);
    for (int i = 0; i < 4; ++i) mid = fcVec3_MulAdd(mid, (fcReal)0.25, e.p[i].w);
    static const int tet[4][3] = {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    for (int f = 0; f < 4; ++f) {
        int a = tet[f][0], b = tet[f][1], c = tet[f][2];
        fcVec3 n = fcVec3_Cross(fcVec3_Sub(e.p[b].w, e.p[a].w), fcVec3_Sub(e.p[c].w, e.p[a].w));
        if (fcVec3_Dot(n, fcVec3_Sub(e.p[a].w, mid)) < 0) {
            int t = b;
            b = c;
            c = t;
        }
        fcEpa_AddFace(&e, a, b, c);
    }
    // The polytope only grows, so the origin's distance to it never shrinks: an expansion that would bring a
    // face closer than the one expanded, or whose horizon is not one loop, is rounding at work. Stop there
    // with the last good face.
    fcEpaFace result;
    fcSupportPoint corner[3];
    memset(corner, 0, sizeof corner);
    bool haveResult = false;
    int edges[3 * FC_EPA_FACES][2];
    for (int iter = 0; iter < FC_EPA_ITERATIONS; ++iter) {
        int best = -1;
        for (int i = 0; i < e.fc; ++i)
            if (e.f[i].alive && (best < 0 || e.f[i].d < e.f[best].d)) best = i;
        if (best < 0 || e.f[best].d >= FC_HUGE) break;
        result = e.f[best];
        for (int k = 0; k < 3; ++k) corner[k] = e.p[result.v[k]];
        haveResult = true;
        fcVec3 n = result.n;
        fcSupportPoint w = fcSupport(A, B, n);
        fcReal gain = fcVec3_Dot(w.w, n) - result.d;
        if (gain <= tol + FC_EPA_GAIN * FC_FABS(result.d) || e.pc == FC_EPA_VERTICES) break;
        int wi = e.pc++;
        e.p[wi] = w;
        // remove what w sees; the edges seen from one side only form the horizon
        int ne = 0;
        for (int i = 0; i < e.fc; ++i) {
            fcEpaFace* f = e.f + i;
            if (!f->alive || fcVec3_Dot(f->n, fcVec3_Sub(w.w, e.p[f->v[0]].w)) <= 0) continue;
            f->alive = false;
            for (int k = 0; k < 3; ++k) {
                int a = f->v[k], b = f->v[(k + 1) % 3], found = -1;
                for (int j = 0; j < ne && found < 0; ++j)
                    if (edges[j][0] == b && edges[j][1] == a) found = j;
                if (found >= 0) {
                    edges[found][0] = edges[ne - 1][0];
                    edges[found][1] = edges[ne - 1][1];
                    --ne;
                } else if (ne < 3 * FC_EPA_FACES) {
                    edges[ne][0] = a;
                    edges[ne][1] = b;
                    ++ne;
                }
            }
        }
        bool bad = ne < 3;
        for (int j = 0; j < ne && !bad; ++j) {
            int starts = 0, ends = 0;
            for (int i = 0; i < ne; ++i) {
                starts += edges[i][0] == edges[j][0];
                ends += edges[i][1] == edges[j][0];
            }
            bad = starts != 1 || ends != 1;
        }
        for (int j = 0; j < ne && !bad; ++j) {
            int slot = fcEpa_AddFace(&e, edges[j][0], edges[j][1], wi);
            bad = slot < 0 || e.f[slot].d < result.d - tol;
        }
        if (bad) break;
    }
    if (!haveResult) return false;
    const fcEpaFace* f = &result;
    // the origin's projection on the face, in barycentric weights of its corners
    fcVec3 q = fcVec3_Scale(f->d, f->n);
    fcVec3 a = corner[0].w;
    fcVec3 v0 = fcVec3_Sub(corner[1].w, a), v1 = fcVec3_Sub(corner[2].w, a), v2 = fcVec3_Sub(q, a);
    fcReal d00 = fcVec3_Dot(v0, v0), d01 = fcVec3_Dot(v0, v1), d11 = fcVec3_Dot(v1, v1);
    fcReal d20 = fcVec3_Dot(v2, v0), d21 = fcVec3_Dot(v2, v1);
    fcReal den = d00 * d11 - d01 * d01;
    fcReal bv = 0, bw = 0;
    if (den > 0) {
        bv = (d11 * d20 - d01 * d21) / den;
        bw = (d00 * d21 - d01 * d20) / den;
    }
    fcReal bu = 1 - bv - bw;
    *pa = fcVec3_Add(fcVec3_Add(fcVec3_Scale(bu, corner[0].a), fcVec3_Scale(bv, corner[1].a)), fcVec3_Scale(bw, corner[2].a));
    *pb = fcVec3_Add(fcVec3_Add(fcVec3_Scale(bu, corner[0].b), fcVec3_Scale(bv, corner[1].b)), fcVec3_Scale(bw, corner[2].b));
    *normal = f->n;
    *depth = fcMax(f->d, 0.0);
    return true;
}

// ---- features and clipping -------------------------------------------------------------------------------------------

// A face polygon (count >= 3, counterclockwise about normal), a segment (2) or a point (1) of a core.
typedef struct fcFeature {
    int count;
    int index;  // which face, edge or part: goes into the point ids
    fcVec3 normal;
    fcReal offset;
    fcVec3 p[FC_HULL_MAX_VERTICES];
} fcFeature;

typedef struct fcClipVertex {
    fcVec3 p;
    uint32_t id;    // what made the point (stable while the same features touch)
    uint32_t edge;  // tag of the outline edge from this point to the next
} fcClipVertex;

typedef struct fcWork {
    fcFeature f0, f1;
    fcClipVertex clip[2][FC_CLIP_MAX];
    fcManifoldPoint cand[FC_CLIP_MAX];
    fcTriangleStore tri;
} fcWork;

static void fcFeature_Rim(const fcConvex* c, fcReal sign, fcFeature* f)
{
    fcVec3 capCenter = fcVec3_MulAdd(c->center, sign * c->hh, c->axis);
    for (int k = 0; k < FC_RIM; ++k) {
        // counterclockwise about the cap's outward normal: the bottom cap runs the other way round
        fcReal cs = fcRimCos[k], sn = sign * fcRimCos[(k + 12) % FC_RIM];
        f->p[k] = fcVec3_Add(capCenter, fcVec3_Add(fcVec3_Scale(c->cr * cs, c->u), fcVec3_Scale(c->cr * sn, c->w)));
    }
    f->count = FC_RIM;
    f->index = sign > 0 ? 0 : 1;
    f->normal = fcVec3_Scale(sign, c->axis);
    f->offset = fcVec3_Dot(f->normal, capCenter);
}

static void fcFeature_Side(const fcConvex* c, fcVec3 dir, fcFeature* f)
{
    fcReal ru = fcVec3_Dot(dir, c->u), rw = fcVec3_Dot(dir, c->w), rl = FC_SQRT(ru * ru + rw * rw);
    fcVec3 radial = rl > 0 ? fcVec3_Add(fcVec3_Scale(ru / rl, c->u), fcVec3_Scale(rw / rl, c->w)) : c->u;
    fcVec3 mid = fcVec3_MulAdd(c->center, c->cr, radial);
    f->p[0] = fcVec3_MulAdd(mid, -c->hh, c->axis);
    f->p[1] = fcVec3_MulAdd(mid, c->hh, c->axis);
    f->count = 2;
    f->index = 2;
}

static void fcFeature_FaceByIndex(const fcConvex* c, int face, fcFeature* f)
{
    const fcHullFace* hf = c->faces + face;
    for (int i = 0; i < hf->count; ++i) f->p[i] = c->v[c->loops[hf->first + i]];
    f->count = hf->count;
    f->index = face;
    f->normal = c->n[face];
    f->offset = c->d[face];
}

static int fcConvex_BestFace(const fcConvex* c, fcVec3 dir, fcReal* align)
{
    int best = 0;
    fcReal bd = fcVec3_Dot(c->n[0], dir);
    for (int f = 1; f < c->faceCount; ++f) {
        fcReal d = fcVec3_Dot(c->n[f], dir);
        if (d > bd) {
            bd = d;
            best = f;
        }
    }
    *align = bd;
    return best;
}

// The face whose outward normal is flat against unit dir (within FC_FLAT_COS), or false.
static bool fcConvex_Face(const fcConvex* c, fcVec3 dir, fcFeature* f)
{
    if (c->kind == FC_CYL) {
        fcReal a = fcVec3_Dot(c->axis, dir);
        if (FC_FABS(a) < FC_FLAT_COS) return false;
        fcFeature_Rim(c, a > 0 ? 1 : -1, f);
        return true;
    }
    if (c->faceCount == 0) return false;
    fcReal align;
    int face = fcConvex_BestFace(c, dir, &align);
    if (align < FC_FLAT_COS) return false;
    fcFeature_FaceByIndex(c, face, f);
    return true;
}

// What c presents to a reference face of normal refNormal: the face most against it, a segment core whole
// (clipping and the margin keep what touches), a cylinder's lower rim or the lowest points of both rims. A
// cylinder tilted on a face is held where its rims come within the margin, as on the plane
// (fcCollide_PlaneCylinder): its lone deepest point let it pivot, the other end sinking through a mesh.
static void fcConvex_Incident(const fcConvex* c, fcVec3 refNormal, fcFeature* f)
{
    fcVec3 dir = fcVec3_Neg(refNormal);
    if (c->kind == FC_CYL) {
        fcReal a = fcVec3_Dot(c->axis, dir);
        if (FC_FABS(a) >= FC_COS_45) fcFeature_Rim(c, a > 0 ? 1 : -1, f);  // standing, or tilted on its rim
        else fcFeature_Side(c, dir, f);                                          // lying, or tilted from lying
        return;
    }
    if (c->faceCount > 0) {
        fcReal align;
        fcFeature_FaceByIndex(c, fcConvex_BestFace(c, dir, &align), f);
        return;
    }
    for (int i = 0; i < c->vertexCount; ++i) f->p[i] = c->v[i];
    f->count = c->vertexCount;
    f->index = 0;
}

// A segment of c perpendicular to unit dir (within FC_FLAT_SIN) through its support: a capsule's core, a
// cylinder's side, a polyhedron's edge. False if there is none.
static bool fcConvex_Segment(const fcConvex* c, fcVec3 dir, fcFeature* f)
{
    if (c->kind == FC_CYL) {
        if (FC_FABS(fcVec3_Dot(c->axis, dir)) > FC_FLAT_SIN) return false;
        fcFeature_Side(c, dir, f);
        return true;
    }
    if (c->faceCount == 0) {
        if (c->vertexCount != 2) return false;
        fcVec3 e = fcVec3_Sub(c->v[1], c->v[0]);
        if (FC_FABS(fcVec3_Dot(e, dir)) > FC_FLAT_SIN * fcVec3_Length(e)) return false;
        f->p[0] = c->v[0];
        f->p[1] = c->v[1];
        f->count = 2;
        f->index = 0;
        return true;
    }
    fcReal top = -FC_HUGE;
    for (int i = 0; i < c->vertexCount; ++i) top = fcMax(top, fcVec3_Dot(c->v[i], dir));
    int best = -1;
    fcReal bestLow = -FC_HUGE;
    for (int i = 0; i < c->edgeCount; ++i) {
        fcVec3 a = c->v[c->edges[i].v0], b = c->v[c->edges[i].v1];
        fcReal le = fcVec3_Distance(a, b), da = fcVec3_Dot(a, dir), db = fcVec3_Dot(b, dir);
        if (FC_FABS(da - db) > FC_FLAT_SIN * le) continue;
        fcReal low = fcMin(da, db);
        if (low >= top - 2 * FC_FLAT_SIN * le && low > bestLow) {
            bestLow = low;
            best = i;
        }
    }
    if (best < 0) return false;
    f->p[0] = c->v[c->edges[best].v0];
    f->p[1] = c->v[c->edges[best].v1];
    f->count = 2;
    f->index = best;
    return true;
}

static uint32_t fcClip_Code(uint32_t edgeTag, int plane) { return 0x80000000u | (edgeTag << 16) | (uint32_t)plane; }

static fcClipVertex fcClip_Cross(const fcClipVertex* a, const fcClipVertex* b, fcReal da, fcReal db, int plane)
{
    fcClipVertex x;
    x.p = fcVec3_MulAdd(a->p, da / (da - db), fcVec3_Sub(b->p, a->p));
    x.id = fcClip_Code(a->edge, plane);
    x.edge = a->edge;
    return x;
}

// Sutherland-Hodgman against dot(pn, p) <= pd (+ tol). A point within tol of the plane stays as it is and
// makes no crossing point, so a corner lying on a side plane is not doubled.
static int fcClip_Polygon(const fcClipVertex* in, int n, fcClipVertex* out, fcVec3 pn, fcReal pd, int plane, fcReal tol)
{
    uint32_t planeTag = 0x4000u | (uint32_t)plane;
    int m = 0;
    for (int i = 0; i < n && m < FC_CLIP_MAX - 2; ++i) {
        const fcClipVertex* a = in + i;
        const fcClipVertex* b = in + (i + 1 == n ? 0 : i + 1);
        fcReal da = fcVec3_Dot(pn, a->p) - pd, db = fcVec3_Dot(pn, b->p) - pd;
        bool ina = da <= tol, inb = db <= tol;
        if (ina) {
            out[m] = *a;
            if (!inb && da >= -tol) out[m].edge = planeTag;  // the outline now runs along the plane
            ++m;
            if (!inb && da < -tol) {
                out[m] = fcClip_Cross(a, b, da, db, plane);
                out[m++].edge = planeTag;
            }
        } else if (inb && db < -tol) {
            out[m++] = fcClip_Cross(a, b, da, db, plane);
        }
    }
    return m;
}

// Clip the incident feature to the prism over the reference face; the result is in *out.
static int fcClip_Feature(fcWork* w, const fcFeature* ref, const fcFeature* inc, fcReal tol, fcClipVertex** out)
{
    fcClipVertex* a = w->clip[0];
    fcClipVertex* b = w->clip[1];
    int n = inc->count;
    for (int i = 0; i < n; ++i) {
        a[i].p = inc->p[i];
        a[i].id = (uint32_t)i;
        a[i].edge = (uint32_t)i;
    }
    for (int j = 0; j < ref->count && n > 0; ++j) {
        fcVec3 r0 = ref->p[j], r1 = ref->p[j + 1 == ref->count ? 0 : j + 1];
        fcVec3 sn = fcVec3_Normalize(fcVec3_Cross(fcVec3_Sub(r1, r0), ref->normal));
        fcReal sd = fcVec3_Dot(sn, r0);
        if (n == 1) {
            if (fcVec3_Dot(sn, a[0].p) - sd > tol) n = 0;
        } else if (n == 2) {
            fcReal d0 = fcVec3_Dot(sn, a[0].p) - sd, d1 = fcVec3_Dot(sn, a[1].p) - sd;
            if (d0 > tol && d1 > tol) {
                n = 0;
            } else if (d0 > tol) {
                if (d1 >= -tol) a[0] = a[1], n = 1;
                else a[0] = fcClip_Cross(&a[1], &a[0], d1, d0, j), a[0].id = fcClip_Code(0, j);
            } else if (d1 > tol) {
                if (d0 >= -tol) n = 1;
                else a[1] = fcClip_Cross(&a[0], &a[1], d0, d1, j), a[1].id = fcClip_Code(0, j);
            }
        } else {
            n = fcClip_Polygon(a, n, b, sn, sd, j, tol);
            fcClipVertex* t = a;
            a = b;
            b = t;
        }
    }
    *out = a;
    return n;
}

// Depths of a flat set within this fraction of the shapes' size are ties for the reduction (fcReduce): a stack of
// cylinders rocking by tenths of a degree needs about 0.5 % (0.3 % let it fall). A point left out may sink by about
// that much more than the kept ones: a hull prism of radius 1 m pressed near a corner by three times its weight
// sinks there by 3.3 cm with 5 sides, 1.2 cm with 10 (2.5 and 0.5 cm with only the clip's slack as a tie, 4.3 and
// 1.4 cm with every depth of the set one).
#define FC_REDUCE_TIE ((fcReal)0.01)

// Keep four of n points (fcManifold_ReduceTo4 in the plane across normal). With flatTies, points of one face lying
// flat (their depths spread by at most FC_FLAT_SIN times their extent) start from the first one within
// FC_REDUCE_TIE times the size of the deepest, mostly a vertex fixed in the incident shape: a rocking cylinder's
// cap kept whichever rim point rounding made deepest, its four points turned about the axis from step to step, no
// impulse carried over and a stack of six fell. Otherwise (a mesh's merged triangles, a tilted face) the first
// within the clip's slack of the deepest starts them.
static int fcReduce(const fcManifoldPoint* c, int n, fcVec3 normal, fcReal size, bool flatTies, fcManifoldPoint* out)
{
    if (n <= FC_MAX_MANIFOLD_POINTS) {
        for (int i = 0; i < n; ++i) out[i] = c[i];
        return n;
    }
    fcReal u[FC_CLIP_MAX], v[FC_CLIP_MAX], sep[FC_CLIP_MAX];
    fcVec3 t1 = fcVec3_Perpendicular(normal), t2 = fcVec3_Cross(normal, t1);
    if (n > FC_CLIP_MAX) n = FC_CLIP_MAX;
    fcReal lo[3] = {FC_HUGE, FC_HUGE, FC_HUGE}, hi[3] = {-FC_HUGE, -FC_HUGE, -FC_HUGE};
    for (int i = 0; i < n; ++i) {
        u[i] = fcVec3_Dot(t1, c[i].point);
        v[i] = fcVec3_Dot(t2, c[i].point);
        sep[i] = c[i].separation;
        fcReal x[3] = {u[i], v[i], sep[i]};
        for (int j = 0; j < 3; ++j) {
            lo[j] = fcMin(lo[j], x[j]);
            hi[j] = fcMax(hi[j], x[j]);
        }
    }
    fcReal extent = FC_SQRT((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]));
    fcReal spread = hi[2] - lo[2];
    bool flat = flatTies && spread <= FC_FLAT_SIN * extent;
    fcReal tolDepth = flat ? fcMin(spread, FC_REDUCE_TIE * size) : FC_CLIP_SLACK * size;
    int keep[FC_MAX_MANIFOLD_POINTS];
    int kept = fcManifold_ReduceTo4(u, v, sep, n, tolDepth, FC_CLIP_SLACK * size * size, keep);
    for (int i = 0; i < kept; ++i) out[i] = c[keep[i]];
    return kept;
}

static fcReal fcPair_Size(const fcConvex* A, const fcConvex* B) { return fcMax(fcMin(A->size, B->size), FC_EPSILON); }

// The contact of an incident feature of shape `other` (radius rInc) on a reference face: clip, measure,
// keep, reduce.
static int fcManifold_Clip(fcWork* w, const fcFeature* ref, const fcFeature* inc, const fcConvex* other, bool refIsA,
                           fcReal rInc, fcReal size, fcReal margin, bool deepest, fcManifold* m)
{
    fcClipVertex* pts;
    int n = fcClip_Feature(w, ref, inc, FC_CLIP_SLACK * size, &pts);
    uint32_t base = fcMix(fcMix(fcMix(refIsA ? 0x1000u : 0x2000u, (uint32_t)ref->index), (uint32_t)inc->index),
                          (uint32_t)(inc->count < 3 ? inc->count : 3));
    int k = 0;
    fcReal lowest = FC_HUGE;
    for (int i = 0; i < n; ++i) {
        fcReal dist = fcVec3_Dot(ref->normal, pts[i].p) - ref->offset;
        fcReal s = dist - rInc;
        if (!(s < margin)) continue;
        w->cand[k].point = fcVec3_MulAdd(pts[i].p, -(fcReal)0.5 * (dist + rInc), ref->normal);
        w->cand[k].separation = s;
        w->cand[k].id = fcMix(base, pts[i].id);
        lowest = fcMin(lowest, s);
        ++k;
    }
    // Deep in, the deepest point of the other shape may lie off the clipped outline (beyond the reference
    // face's sides, or on another face): keep it too, so the depth is never understated.
    fcVec3 sp = fcConvex_Support(other, fcVec3_Neg(ref->normal));
    fcReal sd = fcVec3_Dot(ref->normal, sp) - ref->offset;
    // It goes first, where the reduction looks for its deepest point and takes a near tie by order.
    if (deepest && sd - rInc < margin && sd - rInc < lowest - FC_SAT_ABS * size) {
        if (k > 0) w->cand[k] = w->cand[0];
        w->cand[0].point = fcVec3_MulAdd(sp, -(fcReal)0.5 * (sd + rInc), ref->normal);
        w->cand[0].separation = sd - rInc;
        w->cand[0].id = fcMix(fcMix(base, 0x7000u), fcConvex_FeatureId(other, fcVec3_Neg(ref->normal)));
        ++k;
    }
    m->normal = refIsA ? ref->normal : fcVec3_Neg(ref->normal);
    m->pointCount = fcReduce(w->cand, k, m->normal, size, true, m->points);
    return m->pointCount;
}

// Two parallel segments (capsule core, cylinder side, polyhedron edge) across normal n: the overlap's ends.
static int fcManifold_Segments(const fcConvex* A, const fcConvex* B, const fcFeature* fa, const fcFeature* fb, fcVec3 n,
                               fcReal margin, fcManifold* m)
{
    fcVec3 a0 = fa->p[0], u = fcVec3_Sub(fa->p[1], a0), b0 = fb->p[0], bv = fcVec3_Sub(fb->p[1], b0);
    fcReal uu = fcVec3_Dot(u, u);
    if (uu <= 0) return 0;
    fcReal t0 = fcVec3_Dot(fcVec3_Sub(b0, a0), u) / uu, t1 = fcVec3_Dot(fcVec3_Sub(fb->p[1], a0), u) / uu;
    if (t0 == t1) return 0;
    fcReal sa = -t0 / (t1 - t0), sb = (1 - t0) / (t1 - t0);  // where B's segment crosses A's ends
    fcReal lo = fcMax(0.0, fcMin(sa, sb)), hi = fcMin(1.0, fcMax(sa, sb));
    if (lo > hi) return 0;
    fcReal ss[2] = {lo, hi};
    uint32_t codes[2] = {lo == 0 ? 0u : sa < sb ? 2u : 3u, hi == 1 ? 1u : sa > sb ? 2u : 3u};
    uint32_t base = fcMix(fcMix(0x3000u, (uint32_t)fa->index), (uint32_t)fb->index);
    int k = 0;
    for (int i = 0; i < (hi > lo ? 2 : 1); ++i) {
        fcVec3 pb = fcVec3_MulAdd(b0, ss[i], bv);
        fcReal t = t0 + ss[i] * (t1 - t0);
        t = fcMin(1.0, fcMax(0.0, t));
        fcVec3 pa = fcVec3_MulAdd(a0, t, u);
        fcReal s = fcVec3_Dot(fcVec3_Sub(pb, pa), n) - A->radius - B->radius;
        if (!(s < margin)) continue;
        fcVec3 sA = fcVec3_MulAdd(pa, A->radius, n), sB = fcVec3_MulAdd(pb, -B->radius, n);
        m->points[k].point = fcVec3_Scale((fcReal)0.5, fcVec3_Add(sA, sB));
        m->points[k].separation = s;
        m->points[k].id = fcMix(base, codes[i]);
        ++k;
    }
    m->normal = n;
    m->pointCount = k;
    return k;
}

// The contact along a normal found by GJK or EPA (A to B), with core witnesses wa, wb at separation sep:
// clipped outlines where a face (or a pair of parallel segments) lies flat across it, else the one point.
static int fcManifold_FromNormal(const fcConvex* A, const fcConvex* B, fcVec3 n, fcVec3 wa, fcVec3 wb, fcReal sep,
                                 fcReal margin, fcWork* w, fcManifold* m)
{
    fcReal size = fcPair_Size(A, B);
    fcFeature* fa = &w->f0;
    fcFeature* fb = &w->f1;
    bool faceA = fcConvex_Face(A, n, fa);
    bool faceB = fcConvex_Face(B, fcVec3_Neg(n), fb);
    if (faceA && faceB && -fcVec3_Dot(fb->normal, n) > fcVec3_Dot(fa->normal, n) + (fcReal)1e-6) faceA = false;
    int count = 0;
    if (faceA) {
        fcConvex_Incident(B, fa->normal, fb);
        count = fcManifold_Clip(w, fa, fb, B, true, B->radius, size, margin, true, m);
    } else if (faceB) {
        fcConvex_Incident(A, fb->normal, fa);
        count = fcManifold_Clip(w, fb, fa, A, false, A->radius, size, margin, true, m);
    } else if (fcConvex_Segment(A, n, fa) && fcConvex_Segment(B, fcVec3_Neg(n), fb)) {
        fcVec3 ua = fcVec3_Normalize(fcVec3_Sub(fa->p[1], fa->p[0])), ub = fcVec3_Normalize(fcVec3_Sub(fb->p[1], fb->p[0]));
        if (FC_FABS(fcVec3_Dot(ua, ub)) >= FC_FLAT_COS) count = fcManifold_Segments(A, B, fa, fb, n, margin, m);
    }
    if (count > 0) return count;
    if (!(sep < margin)) return 0;
    fcVec3 sA = fcVec3_MulAdd(wa, A->radius, n), sB = fcVec3_MulAdd(wb, -B->radius, n);
    m->normal = n;
    m->points[0].point = fcVec3_Scale((fcReal)0.5, fcVec3_Add(sA, sB));
    m->points[0].separation = sep;
    m->points[0].id = fcMix(fcMix(0x4000u, fcConvex_FeatureId(A, n)), fcConvex_FeatureId(B, fcVec3_Neg(n)));
    m->pointCount = 1;
    return 1;
}

// ---- SAT for two polyhedra (cores of spheres and capsules included) --------------------------------------------------

enum { FC_SAT_NONE, FC_SAT_FACE_A, FC_SAT_FACE_B, FC_SAT_EDGES };
typedef struct fcSat { int kind, face, edgeA, edgeB; fcReal separation; fcVec3 axis; } fcSat;

// Smallest signed distance of B's vertices above face f of A.
static fcReal fcSat_Face(const fcConvex* A, int f, const fcConvex* B)
{
    fcVec3 n = A->n[f];
    fcReal lo = fcVec3_Dot(n, B->v[0]);
    for (int i = 1; i < B->vertexCount; ++i) lo = fcMin(lo, fcVec3_Dot(n, B->v[i]));
    return lo - A->d[f];
}

static void fcSat_Project(const fcConvex* c, fcVec3 axis, fcReal* lo, fcReal* hi)
{
    *lo = *hi = fcVec3_Dot(axis, c->v[0]);
    for (int i = 1; i < c->vertexCount; ++i) {
        fcReal d = fcVec3_Dot(axis, c->v[i]);
        *lo = fcMin(*lo, d);
        *hi = fcMax(*hi, d);
    }
}

// Do the Gauss-map arcs a-b (A's edge) and c-d (B's edge, normals negated) cross? Then the edge pair makes a
// face of the Minkowski difference and its cross product is a candidate axis. nab and ncd are a x b and
// c x d up to a positive factor: with the edge convention of convex.h, the edges' own vectors.
static bool fcSat_MinkowskiFace(fcVec3 a, fcVec3 b, fcVec3 nab, fcVec3 c, fcVec3 d, fcVec3 ncd)
{
    fcReal ca = fcVec3_Dot(c, nab), da = fcVec3_Dot(d, nab);
    if (!(ca * da < 0)) return false;  // most pairs leave here
    fcReal ac = fcVec3_Dot(a, ncd), bc = fcVec3_Dot(b, ncd);
    return ac * bc < 0 && ca * bc > 0;
}

// Among c's edges parallel to edge e, the one farthest along sign * axis (SAT without Gauss pruning may
// have found the axis with a parallel edge that is not the one in contact).
static int fcSat_SupportEdge(const fcConvex* c, int e, fcVec3 axis, fcReal sign)
{
    fcVec3 dir = fcVec3_Normalize(fcVec3_Sub(c->v[c->edges[e].v1], c->v[c->edges[e].v0]));
    int best = e;
    fcReal bv = sign * fcVec3_Dot(axis, fcVec3_Add(c->v[c->edges[e].v0], c->v[c->edges[e].v1]));
    for (int i = 0; i < c->edgeCount; ++i) {
        fcVec3 de = fcVec3_Normalize(fcVec3_Sub(c->v[c->edges[i].v1], c->v[c->edges[i].v0]));
        fcVec3 x = fcVec3_Cross(de, dir);
        if (fcVec3_Dot(x, x) > (fcReal)1e-8) continue;
        fcReal v = sign * fcVec3_Dot(axis, fcVec3_Add(c->v[c->edges[i].v0], c->v[c->edges[i].v1]));
        if (v > bv + FC_EPSILON * FC_FABS(bv)) {
            bv = v;
            best = i;
        }
    }
    return best;
}

static void fcSegment_Closest(fcVec3 p1, fcVec3 q1, fcVec3 p2, fcVec3 q2, fcVec3* c1, fcVec3* c2)
{
    fcVec3 d1 = fcVec3_Sub(q1, p1), d2 = fcVec3_Sub(q2, p2), r = fcVec3_Sub(p1, p2);
    fcReal a = fcVec3_Dot(d1, d1), e = fcVec3_Dot(d2, d2), f = fcVec3_Dot(d2, r);
    fcReal s = 0, t = 0;
    if (a <= 0 && e <= 0) {
        s = t = 0;
    } else if (a <= 0) {
        t = fcMin(1.0, fcMax(0.0, f / e));
    } else {
        fcReal c = fcVec3_Dot(d1, r);
        if (e <= 0) {
            s = fcMin(1.0, fcMax(0.0, -c / a));
        } else {
            fcReal b = fcVec3_Dot(d1, d2), den = a * e - b * b;
            s = den > 0 ? fcMin(1.0, fcMax(0.0, (b * f - c * e) / den)) : 0;
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = fcMin(1.0, fcMax(0.0, -c / a));
            } else if (t > 1) {
                t = 1;
                s = fcMin(1.0, fcMax(0.0, (b - c) / a));
            }
        }
    }
    *c1 = fcVec3_MulAdd(p1, s, d1);
    *c2 = fcVec3_MulAdd(p2, t, d2);
}

#define FC_SAT_CACHE 64
typedef struct fcSatEdge { fcVec3 p, d, n0, n1; } fcSatEdge;  // start, vector, the faces' normals times sign

static inline fcSatEdge fcSat_EdgeOf(const fcConvex* c, int e, fcReal sign)
{
    const fcHullEdge* he = c->edges + e;
    fcSatEdge x;
    x.p = c->v[he->v0];
    x.d = fcVec3_Sub(c->v[he->v1], x.p);
    // a segment or a triangle's edge has no faces of its own (or two that Gauss pruning does not use)
    x.n0 = he->f0 >= 0 ? fcVec3_Scale(sign, c->n[he->f0]) : fcV3(0, 0, 0);
    x.n1 = he->f1 >= 0 ? fcVec3_Scale(sign, c->n[he->f1]) : fcV3(0, 0, 0);
    return x;
}

// False when an axis separates the cores by more than limit.
static bool fcSat_Run(const fcConvex* A, const fcConvex* B, fcReal limit, fcSat* out)
{
    fcReal fa = -FC_HUGE, fb = -FC_HUGE, fe = -FC_HUGE;
    int ia = -1, ib = -1, ea = -1, eb = -1;
    fcVec3 eAxis = fcV3(0, 0, 1);
    for (int f = 0; f < A->faceCount; ++f) {
        fcReal s = fcSat_Face(A, f, B);
        if (s > limit) return false;
        if (s > fa) fa = s, ia = f;
    }
    for (int f = 0; f < B->faceCount; ++f) {
        fcReal s = fcSat_Face(B, f, A);
        if (s > limit) return false;
        if (s > fb) fb = s, ib = f;
    }
    bool gauss = A->solid && B->solid;
    // B's edges, read once per A edge: laid out together when they fit (a box's or a small hull's)
    fcSatEdge cache[FC_SAT_CACHE], spare;
    bool cached = B->edgeCount <= FC_SAT_CACHE;
    for (int j = 0; cached && j < B->edgeCount; ++j) cache[j] = fcSat_EdgeOf(B, j, -1);
    for (int i = 0; i < A->edgeCount; ++i) {
        fcSatEdge e1 = fcSat_EdgeOf(A, i, 1);
        for (int j = 0; j < B->edgeCount; ++j) {
            const fcSatEdge* e2 = cached ? cache + j : (spare = fcSat_EdgeOf(B, j, -1), &spare);
            // n0 x n1 runs along v0 -> v1 (face f0 lies left of the edge seen from outside); negating B's
            // normals keeps their cross product
            if (gauss && !fcSat_MinkowskiFace(e1.n0, e1.n1, e1.d, e2->n0, e2->n1, e2->d)) continue;
            fcVec3 axis = fcVec3_Cross(e1.d, e2->d);
            fcReal l2 = fcVec3_Dot(axis, axis);
            if (l2 <= (fcReal)1e-10 * fcVec3_Dot(e1.d, e1.d) * fcVec3_Dot(e2->d, e2->d)) continue;  // parallel: faces cover it
            axis = fcVec3_Scale(1 / FC_SQRT(l2), axis);
            fcReal s;
            if (gauss) {
                if (fcVec3_Dot(axis, fcVec3_Sub(e1.p, A->center)) < 0) axis = fcVec3_Neg(axis);
                s = fcVec3_Dot(axis, fcVec3_Sub(e2->p, e1.p));
            } else {
                fcReal loA, hiA, loB, hiB;
                fcSat_Project(A, axis, &loA, &hiA);
                fcSat_Project(B, axis, &loB, &hiB);
                s = loB - hiA;
                if (loA - hiB > s) {
                    s = loA - hiB;
                    axis = fcVec3_Neg(axis);
                }
            }
            if (s > limit) return false;
            if (s > fe) fe = s, ea = i, eb = j, eAxis = axis;
        }
    }
    fcReal size = fcPair_Size(A, B);
    out->kind = FC_SAT_NONE;
    fcReal best = -FC_HUGE;
    if (ia >= 0) out->kind = FC_SAT_FACE_A, out->face = ia, best = fa;
    if (ib >= 0 && (ia < 0 || fb > best + FC_SAT_REL * FC_FABS(best) + FC_SAT_ABS * size))
        out->kind = FC_SAT_FACE_B, out->face = ib, best = fb;
    if (ea >= 0 && (out->kind == FC_SAT_NONE || fe > best + FC_SAT_REL * FC_FABS(best) + FC_SAT_ABS * size)) {
        out->kind = FC_SAT_EDGES;
        out->edgeA = gauss ? ea : fcSat_SupportEdge(A, ea, eAxis, 1);
        out->edgeB = gauss ? eb : fcSat_SupportEdge(B, eb, eAxis, -1);
        out->axis = eAxis;
        best = fe;
    }
    out->separation = best;
    return out->kind != FC_SAT_NONE;
}

static int fcPoly_Collide(const fcConvex* A, const fcConvex* B, fcReal margin, fcWork* w, fcManifold* m)
{
    fcReal rA = A->radius, rB = B->radius;
    fcSat sat;
    m->pointCount = 0;
    if (!fcSat_Run(A, B, margin + rA + rB, &sat)) return 0;
    fcReal size = fcPair_Size(A, B);
    if (sat.kind == FC_SAT_FACE_A) {
        fcFeature_FaceByIndex(A, sat.face, &w->f0);
        fcConvex_Incident(B, w->f0.normal, &w->f1);
        return fcManifold_Clip(w, &w->f0, &w->f1, B, true, rB, size, margin, true, m);
    }
    if (sat.kind == FC_SAT_FACE_B) {
        fcFeature_FaceByIndex(B, sat.face, &w->f0);
        fcConvex_Incident(A, w->f0.normal, &w->f1);
        return fcManifold_Clip(w, &w->f0, &w->f1, A, false, rA, size, margin, true, m);
    }
    fcReal s = sat.separation - rA - rB;
    if (!(s < margin)) return 0;
    const fcHullEdge* e1 = A->edges + sat.edgeA;
    const fcHullEdge* e2 = B->edges + sat.edgeB;
    fcVec3 pa, pb, n = sat.axis;
    fcSegment_Closest(A->v[e1->v0], A->v[e1->v1], B->v[e2->v0], B->v[e2->v1], &pa, &pb);
    fcVec3 sA = fcVec3_MulAdd(pa, rA, n), sB = fcVec3_MulAdd(pb, -rB, n);
    m->normal = n;
    m->points[0].point = fcVec3_Scale((fcReal)0.5, fcVec3_Add(sA, sB));
    m->points[0].separation = s;
    m->points[0].id = fcMix(fcMix(0x5000u, (uint32_t)sat.edgeA), (uint32_t)sat.edgeB);
    m->pointCount = 1;
    return 1;
}

// ---- any convex pair -------------------------------------------------------------------------------------------------

static int fcPair_Collide(const fcConvex* A, const fcConvex* B, fcReal margin, fcWork* w, fcManifold* m)
{
    m->pointCount = 0;
    fcReal rSum = A->radius + B->radius;
    bool polys = A->kind == FC_POLY && B->kind == FC_POLY;
    if (polys && rSum == 0) return fcPoly_Collide(A, B, margin, w, m);
    fcGjk g;
    fcGjk_Run(A, B, &g);
    if (!g.overlap && !(g.distance - rSum < margin)) return 0;
    if (!g.overlap && g.distance > FC_NORMAL_REL * fcPair_Size(A, B)) {
        fcVec3 n = fcVec3_Scale(1 / g.distance, fcVec3_Sub(g.b, g.a));
        return fcManifold_FromNormal(A, B, n, g.a, g.b, g.distance - rSum, margin, w, m);
    }
    // the cores touch or overlap: polyhedra answer exactly by SAT, curved shapes by EPA
    if (polys) return fcPoly_Collide(A, B, margin, w, m);
    fcVec3 n, pa, pb;
    fcReal depth;
    if (!fcEpa_Run(A, B, &g.s, &n, &depth, &pa, &pb)) {
        // no volume to expand (the cores only touch): the line of centres will do
        n = fcVec3_Sub(fcVec3_Add(B->center, B->shift), fcVec3_Add(A->center, A->shift));
        n = fcVec3_Dot(n, n) > 0 ? fcVec3_Normalize(n) : fcV3(0, 0, 1);
        depth = 0;
        pa = pb = g.a;
    } else {
        // Where the cores barely touch, GJK's simplex may hold the origin only to rounding, and EPA, stopping on a
        // horizon that is not one loop, answer with a face of it that it never expanded, facing the wrong way: a
        // cylinder and a box touching were given the normal from the box to the cylinder and 2.58 m of overlap
        // along it. The cores' overlap along the normal (max over A - min over B) tells: the other way overlaps
        // less, or not at all, then that is the normal and they touch.
        fcReal along = fcVec3_Dot(fcSupport(A, B, n).w, n);
        fcReal back = -fcVec3_Dot(fcSupport(A, B, fcVec3_Neg(n)).w, n);
        if (back < along) {
            n = fcVec3_Neg(n);
            depth = fcMax(back, 0.0);
            pa = pb = g.a;
        }
    }
    return fcManifold_FromNormal(A, B, n, pa, pb, -depth - rSum, margin, w, m);
}

int fcCollide_Convex(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m)
{
    fcConvexStore sa, sb;
    m->pointCount = 0;
    if (!fcConvex_Make(&sa, a, xa) || !fcConvex_Make(&sb, b, xb)) return 0;
    fcWork w;
    return fcPair_Collide(&sa.c, &sb.c, margin, &w, m);
}

int fcCollide_PlaneHull(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m)
{
    const fcHull* hull = b->hull;
    (void)a;  // a plane has no parameters
    m->pointCount = 0;
    if (hull == NULL) return 0;
    fcVec3 n = fcQuat_Rotate(xa.q, fcV3(0, 0, 1));
    fcReal pd = fcVec3_Dot(n, xa.p);
    fcMat33 r = fcMat33_FromQuat(xb.q);
    fcManifoldPoint cand[FC_HULL_MAX_VERTICES];
    int k = 0;
    for (int i = 0; i < hull->vertexCount; ++i) {
        fcVec3 v = fcVec3_Add(xb.p, fcMat33_MulV(r, hull->vertices[i]));
        fcReal s = fcVec3_Dot(n, v) - pd;
        if (!(s < margin)) continue;
        cand[k].point = fcVec3_MulAdd(v, -(fcReal)0.5 * s, n);
        cand[k].separation = s;
        cand[k].id = (uint32_t)i;
        ++k;
    }
    m->normal = n;
    m->pointCount = fcReduce(cand, k, n, hull->radius, true, m->points);
    return m->pointCount;
}

// ---- meshes ----------------------------------------------------------------------------------------------------------

// May a contact on edge k of triangle t have normal n? Only inside the cone between the two faces' normals
// of a convex edge; a flat or concave edge (from the side the shape is on, face normal n1) allows none, and
// a boundary edge any.
static bool fcMesh_EdgeAllows(const fcMesh* mesh, int t, int k, fcVec3 n1, fcVec3 n)
{
    int j = mesh->neighbors[3 * t + k];
    if (j < 0) return true;
    const int* tv = mesh->triangles + 3 * t;
    fcVec3 pa = mesh->vertices[tv[k]];
    fcVec3 po = fcVec3_Sub(mesh->vertices[mesh->opposite[3 * t + k]], pa);
    fcReal tol = (fcReal)1e-6 * fcVec3_Length(po);
    if (fcVec3_Dot(n1, po) >= -tol) return false;
    // the neighbour's normal on the same side: away from this triangle's corner off the edge
    fcVec3 n2 = mesh->normals[j];
    if (fcVec3_Dot(n2, fcVec3_Sub(mesh->vertices[tv[(k + 2) % 3]], pa)) > 0) n2 = fcVec3_Neg(n2);
    fcReal c = fcVec3_Dot(n1, n2);
    return fcVec3_Dot(n, n1) >= c - (fcReal)1e-6 && fcVec3_Dot(n, n2) >= c - (fcReal)1e-6;
}

// A triangle seen alone gives edge normals the whole mesh would not (a box sliding over the shared edge of
// two flat triangles would catch on it): where the contact's normal is not one the neighbourhood allows,
// the contact is redone against the triangle's face.
static int fcMesh_Adjust(const fcMesh* mesh, int t, const fcConvex* T, const fcConvex* B, fcReal margin,
                         fcReal lastSide, fcWork* w, fcManifold* m)
{
    fcVec3 nt = mesh->normals[t];
    const int* tv = mesh->triangles + 3 * t;
    fcReal side = fcVec3_Dot(fcVec3_Sub(B->center, mesh->vertices[tv[0]]), nt);
    fcReal sign = lastSide != 0 ? lastSide : side > 0 ? 1 : side < 0 ? -1 : fcVec3_Dot(m->normal, nt) >= 0 ? 1 : -1;
    fcVec3 n1 = fcVec3_Scale(sign, nt);
    if (fcVec3_Dot(m->normal, n1) >= 1 - (fcReal)1e-9) return m->pointCount;
    fcReal tol = (fcReal)1e-5 * T->size;
    bool keep = true;
    for (int i = 0; i < m->pointCount && keep; ++i) {
        // the point on the triangle's surface, and which of its edges it lies on
        fcVec3 q = fcVec3_MulAdd(m->points[i].point, -(fcReal)0.5 * m->points[i].separation, m->normal);
        int mask = 0;
        for (int k = 0; k < 3; ++k) {
            fcVec3 a = mesh->vertices[tv[k]], e = fcVec3_Sub(mesh->vertices[tv[(k + 1) % 3]], a);
            fcReal inward = fcVec3_Dot(fcVec3_Cross(nt, e), fcVec3_Sub(q, a)) / fcVec3_Length(e);
            if (inward <= tol) mask |= 1 << k;
        }
        if (mask == 0) keep = false;  // on the face: only its normal
        else if (mask == 1 || mask == 2 || mask == 4) keep = fcMesh_EdgeAllows(mesh, t, mask == 1 ? 0 : mask == 2 ? 1 : 2, n1, m->normal);
        else if (mask != 7) {  // a corner: allowed if either of its edges allows it
            int k0 = mask == 3 ? 0 : mask == 6 ? 1 : 2, k1 = (k0 + 1) % 3;
            keep = fcMesh_EdgeAllows(mesh, t, k0, n1, m->normal) || fcMesh_EdgeAllows(mesh, t, k1, n1, m->normal);
        }
    }
    if (keep) return m->pointCount;
    // what lies beyond this triangle's sides is its neighbours' to report
    fcFeature_FaceByIndex(T, sign > 0 ? 0 : 1, &w->f0);
    fcConvex_Incident(B, w->f0.normal, &w->f1);
    return fcManifold_Clip(w, &w->f0, &w->f1, B, true, B->radius, fcPair_Size(T, B), margin, false, m);
}

// Triangles touching one shape, gathered before they go out: the caller's capacity may be smaller.
#define FC_MESH_GATHER 32
// Manifolds whose normals agree this closely (about 1.8 degrees) are one flat contact when they must merge.
#define FC_MESH_MERGE_COS ((fcReal)0.9995)

typedef struct fcMeshContext {
    const fcMesh* mesh;
    const fcConvex* B;
    fcReal margin;
    fcCollideHistory last;  // normals in the mesh's frame
    fcWork* w;
    fcManifold gathered[FC_MESH_GATHER + 1];
    int count;
} fcMeshContext;

static fcReal fcManifold_Deepest(const fcManifold* m)
{
    fcReal d = m->points[0].separation;
    for (int i = 1; i < m->pointCount; ++i) d = fcMin(d, m->points[i].separation);
    return d;
}

// Merge manifolds of (nearly) one normal into one, keeping the four points that span them best and the
// lowest triangle index as the key; then, if still more than capacity, drop the shallowest.
static int fcMesh_Merge(fcManifold* m, int n, int capacity, fcReal size, fcWork* w)
{
    int out = 0;
    for (int i = 0; i < n; ++i) {
        if (m[i].pointCount == 0) continue;
        int k = 0;
        uint32_t key = m[i].key;
        for (int j = i; j < n; ++j) {
            if (m[j].pointCount == 0 || (j > i && fcVec3_Dot(m[i].normal, m[j].normal) < FC_MESH_MERGE_COS)) continue;
            for (int q = 0; q < m[j].pointCount; ++q) w->cand[k++] = m[j].points[q];
            if (m[j].key < key) key = m[j].key;
            if (j > i) m[j].pointCount = 0;
        }
        fcManifold merged = m[i];
        merged.key = key;
        merged.pointCount = fcReduce(w->cand, k, merged.normal, size, false, merged.points);
        m[out++] = merged;
    }
    while (out > capacity) {
        int shallowest = 0;
        for (int i = 1; i < out; ++i)
            if (fcManifold_Deepest(m + i) > fcManifold_Deepest(m + shallowest)) shallowest = i;
        m[shallowest] = m[--out];
    }
    return out;
}

// the side of triangle t (normal nt) the pair's last contacts pushed to: +1 or -1, 0 when none tells
static fcReal fcMesh_LastSide(const fcMeshContext* ctx, int t, fcVec3 nt)
{
    fcReal best = FC_COS_45, sign = 0;
    for (int i = 0; i < ctx->last.count; ++i) {
        fcReal d = fcVec3_Dot(ctx->last.normal[i], nt);
        if (ctx->last.key[i] == (uint32_t)t) return d >= 0 ? 1 : -1;
        if (FC_FABS(d) > best) best = FC_FABS(d), sign = d > 0 ? 1 : -1;
    }
    return sign;
}

static bool fcMesh_Visit(int t, void* context)
{
    fcMeshContext* ctx = context;
    const fcMesh* mesh = ctx->mesh;
    const int* tv = mesh->triangles + 3 * t;
    fcConvex_Triangle(&ctx->w->tri, mesh->vertices[tv[0]], mesh->vertices[tv[1]], mesh->vertices[tv[2]], mesh->normals[t]);
    fcManifold* m = ctx->gathered + ctx->count;
    int n = fcPair_Collide(&ctx->w->tri.c, ctx->B, ctx->margin, ctx->w, m);
    if (n > 0) {
        fcReal lastSide = fcMesh_LastSide(ctx, t, mesh->normals[t]);
        n = fcMesh_Adjust(mesh, t, &ctx->w->tri.c, ctx->B, ctx->margin, lastSide, ctx->w, m);
    }
    if (n > 0) {
        m->pointCount = n;
        m->key = (uint32_t)t;
        // the triangle in the ids keeps points of different triangles apart once manifolds merge
        for (int i = 0; i < n; ++i) m->points[i].id = fcMix(m->points[i].id, (uint32_t)t);
        if (++ctx->count > FC_MESH_GATHER)
            ctx->count = fcMesh_Merge(ctx->gathered, ctx->count, FC_MESH_GATHER - 1, ctx->B->size, ctx->w);
    }
    return true;
}

static fcTransform fcTransform_Relative(fcTransform frame, fcTransform xf)
{
    fcTransform r;
    r.p = fcQuat_InvRotate(frame.q, fcVec3_Sub(xf.p, frame.p));
    r.q = fcQuat_Mul(fcQuat_Conj(frame.q), xf.q);
    return r;
}

int fcCollide_MeshConvex(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                         const fcCollideHistory* last, fcReal lastSign, fcManifold* out, int capacity)
{
    if (capacity < 1 || a->mesh == NULL) return 0;
    fcConvexStore sb;
    if (!fcConvex_Make(&sb, b, fcTransform_Relative(xa, xb))) return 0;
    fcAabb box = fcConvex_Box(&sb.c);
    fcVec3 grow = fcV3(fcMax(margin, 0), fcMax(margin, 0), fcMax(margin, 0));
    box.lo = fcVec3_Sub(box.lo, grow);
    box.hi = fcVec3_Add(box.hi, grow);
    fcWork w;
    fcMeshContext ctx;
    ctx.mesh = a->mesh;
    ctx.B = &sb.c;
    ctx.margin = margin;
    ctx.last.count = last != NULL ? last->count : 0;
    for (int i = 0; i < ctx.last.count; ++i) {
        ctx.last.key[i] = last->key[i];
        ctx.last.normal[i] = fcQuat_InvRotate(xa.q, fcVec3_Scale(lastSign, last->normal[i]));
    }
    ctx.w = &w;
    ctx.count = 0;
    fcMesh_Query(a->mesh, box, fcMesh_Visit, &ctx);
    // one manifold per triangle when they fit; a flat contact over many triangles becomes one otherwise
    int n = ctx.count <= capacity ? ctx.count : fcMesh_Merge(ctx.gathered, ctx.count, capacity, ctx.B->size, &w);
    for (int i = 0; i < n; ++i) {
        fcManifold* m = out + i;
        *m = ctx.gathered[i];
        m->normal = fcQuat_Rotate(xa.q, m->normal);
        for (int k = 0; k < m->pointCount; ++k) m->points[k].point = fcVec3_Add(xa.p, fcQuat_Rotate(xa.q, m->points[k].point));
    }
    return n;
}

// ---- ray casts, distances, shape casts -------------------------------------------------------------------------------

bool fcRayCast_Hull(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit)
{
    const fcHull* hull = g->hull;
    if (hull == NULL) return false;
    fcVec3 o = fcQuat_InvRotate(xf.q, fcVec3_Sub(origin, xf.p));
    fcVec3 d = fcQuat_InvRotate(xf.q, dir);
    fcReal enter = -FC_HUGE, leave = FC_HUGE;
    int face = -1;
    bool inside = true;
    for (int f = 0; f < hull->faceCount; ++f) {
        fcVec3 n = hull->faces[f].normal;
        fcReal dist = fcVec3_Dot(n, o) - hull->faces[f].offset, den = fcVec3_Dot(n, d);
        if (dist > 0) inside = false;
        if (den == 0) {
            if (dist > 0) return false;  // parallel, outside this face's plane
            continue;
        }
        fcReal t = -dist / den;
        if (den < 0) {
            if (t > enter) enter = t, face = f;
        } else if (t < leave) {
            leave = t;
        }
    }
    hit->key = 0;
    if (inside) {
        hit->distance = 0;
        hit->normal = fcVec3_Neg(dir);
        return true;
    }
    if (face < 0 || enter > leave || enter < 0 || enter > maxDistance) return false;
    hit->distance = enter;
    hit->normal = fcQuat_Rotate(xf.q, hull->faces[face].normal);
    return true;
}

fcReal fcGeometry_Distance(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcVec3* pointA,
                           fcVec3* pointB)
{
    fcConvexStore sa, sb;
    if (!fcGeometry_IsConvex(a) || !fcGeometry_IsConvex(b) || !fcConvex_Make(&sa, a, xa) || !fcConvex_Make(&sb, b, xb)) {
        *pointA = xa.p;
        *pointB = xb.p;
        return -1;  // not a pair this answers
    }
    const fcConvex* A = &sa.c;
    const fcConvex* B = &sb.c;
    fcGjk g;
    fcGjk_Run(A, B, &g);
    fcReal rA = A->radius, rB = B->radius;
    if (g.overlap || g.distance <= rA + rB) {
        fcVec3 q = g.a;
        if (!g.overlap && g.distance > 0) {
            // on the line between the cores, inside both rounded shapes
            fcReal lo = fcMax(0.0, g.distance - rB), hi = fcMin(g.distance, rA);
            q = fcVec3_MulAdd(g.a, (fcReal)0.5 * (lo + hi) / g.distance, fcVec3_Sub(g.b, g.a));
        }
        *pointA = *pointB = q;
        return 0;
    }
    fcVec3 n = fcVec3_Scale(1 / g.distance, fcVec3_Sub(g.b, g.a));
    *pointA = fcVec3_MulAdd(g.a, rA, n);
    *pointB = fcVec3_MulAdd(g.b, -rB, n);
    return g.distance - rA - rB;
}

// Conservative advancement of A along T toward B for t in [0, tMax]: the distance of convex shapes under a
// translation is convex in t, so stepping by distance / closing speed never passes the first touch.
// 1: hit at *tHit, 0: no hit, -1: overlapping at t = 0.
static int fcCast_Run(fcConvex* A, fcVec3 T, const fcConvex* B, fcReal tMax, fcReal* tHit, fcVec3* point, fcVec3* normal)
{
    fcReal rSum = A->radius + B->radius;
    fcReal tol = FC_CAST_REL * (A->size + B->size + fcVec3_Length(T));
    fcReal t = 0;
    fcVec3 n = fcV3(0, 0, 0), p = fcV3(0, 0, 0);
    int result = 1;
    for (int iter = 0; iter < 64; ++iter) {
        A->shift = fcVec3_Scale(t, T);
        fcGjk g;
        fcGjk_Run(A, B, &g);
        if (g.overlap || g.distance <= rSum) {
            if (iter == 0) result = -1;
            if (!g.overlap && g.distance > 0) {  // stepped exactly onto the touch (or a rounding past it)
                n = fcVec3_Scale(1 / g.distance, fcVec3_Sub(g.b, g.a));
                p = fcVec3_Scale((fcReal)0.5, fcVec3_Add(fcVec3_MulAdd(g.a, A->radius, n), fcVec3_MulAdd(g.b, -B->radius, n)));
            } else {
                // flat faces met exactly: the cores' common point is on both surfaces (the last separated
                // iteration's midpoint, kept before, lay halfway back along the sweep); n stays that iteration's
                p = g.a;
            }
            break;
        }
        fcReal d = g.distance - rSum;
        n = fcVec3_Scale(1 / g.distance, fcVec3_Sub(g.b, g.a));
        p = fcVec3_Scale((fcReal)0.5, fcVec3_Add(fcVec3_MulAdd(g.a, A->radius, n), fcVec3_MulAdd(g.b, -B->radius, n)));
        if (d <= tol) break;
        fcReal closing = fcVec3_Dot(T, n);
        if (closing <= 0) {
            result = 0;
            break;
        }
        t += d / closing;
        if (t > tMax) {
            result = 0;
            break;
        }
    }
    A->shift = fcV3(0, 0, 0);
    if (result == 1) {
        *tHit = t;
        *point = p;
        *normal = n;
    }
    return result;
}

typedef struct fcCastContext {
    const fcMesh* mesh;
    fcConvex* A;
    fcVec3 T;
    fcWork* w;
    fcReal best;
    fcVec3 point, normal;
    int triangle;
    bool hit, overlap;
} fcCastContext;

static bool fcCast_Visit(int t, void* context)
{
    fcCastContext* ctx = context;
    const fcMesh* mesh = ctx->mesh;
    const int* tv = mesh->triangles + 3 * t;
    fcConvex_Triangle(&ctx->w->tri, mesh->vertices[tv[0]], mesh->vertices[tv[1]], mesh->vertices[tv[2]], mesh->normals[t]);
    fcReal th;
    fcVec3 p, n;
    int r = fcCast_Run(ctx->A, ctx->T, &ctx->w->tri.c, ctx->best, &th, &p, &n);
    if (r < 0) {
        ctx->overlap = true;
        return false;
    }
    if (r > 0 && (!ctx->hit || th < ctx->best)) {
        ctx->hit = true;
        ctx->best = th;
        ctx->point = p;
        ctx->normal = n;
        ctx->triangle = t;
    }
    return true;
}

fcReal fcGeometry_Extent(const fcGeometry* g, fcTransform xf, fcVec3 dir)
{
    fcConvexStore s;
    if (!fcGeometry_IsConvex(g) || !fcConvex_Make(&s, g, xf)) return INFINITY;
    return fcVec3_Dot(dir, fcConvex_Support(&s.c, dir)) + s.c.radius;
}

bool fcGeometry_SweepMisses(const fcGeometry* a, fcTransform xa, fcVec3 translation, const fcGeometry* b, fcTransform xb,
                            fcReal within)
{
    fcConvexStore sa, sb;
    if (!fcGeometry_IsConvex(a) || !fcGeometry_IsConvex(b) || !fcConvex_Make(&sa, a, xa) || !fcConvex_Make(&sb, b, xb)) return false;
    sa.c.radius += within;  // a rounded by `within` more: its touch is a coming within `within` of b
    fcReal t;
    fcVec3 point, normal;
    return fcCast_Run(&sa.c, translation, &sb.c, 1, &t, &point, &normal) == 0;
}

bool fcGeometry_ShapeCast(const fcGeometry* a, fcTransform xa, fcVec3 translation, const fcGeometry* b, fcTransform xb,
                          fcReal* fraction, fcVec3* point, fcVec3* normal, int* triangle)
{
    if (triangle != NULL) *triangle = -1;
    if (!fcGeometry_IsConvex(a)) return false;
    fcConvexStore sa;
    if (b->type == fc_planeShape) {
        if (!fcConvex_Make(&sa, a, xa)) return false;
        fcVec3 n = fcQuat_Rotate(xb.q, fcV3(0, 0, 1));
        fcVec3 low = fcVec3_MulAdd(fcConvex_Support(&sa.c, fcVec3_Neg(n)), -sa.c.radius, n);
        fcReal h = fcVec3_Dot(n, fcVec3_Sub(low, xb.p)), closing = -fcVec3_Dot(translation, n);
        if (h <= 0) {
            *fraction = 0;
            return false;
        }
        if (closing <= 0 || h > closing) return false;
        *fraction = h / closing;
        *point = fcVec3_MulAdd(low, *fraction, translation);
        *normal = fcVec3_Neg(n);
        return true;
    }
    if (b->type == fc_meshShape) {
        if (b->mesh == NULL) return false;
        fcTransform rel = fcTransform_Relative(xb, xa);
        if (!fcConvex_Make(&sa, a, rel)) return false;
        fcVec3 T = fcQuat_InvRotate(xb.q, translation);
        fcAabb box = fcConvex_Box(&sa.c);
        fcAabb swept = box;
        swept.lo = fcV3(fcMin(box.lo.x, box.lo.x + T.x), fcMin(box.lo.y, box.lo.y + T.y), fcMin(box.lo.z, box.lo.z + T.z));
        swept.hi = fcV3(fcMax(box.hi.x, box.hi.x + T.x), fcMax(box.hi.y, box.hi.y + T.y), fcMax(box.hi.z, box.hi.z + T.z));
        fcWork w;
        fcCastContext ctx = {b->mesh, &sa.c, T, &w, 1, fcV3(0, 0, 0), fcV3(0, 0, 0), -1, false, false};
        fcMesh_Query(b->mesh, swept, fcCast_Visit, &ctx);
        if (ctx.overlap) {
            *fraction = 0;
            return false;
        }
        if (!ctx.hit) return false;
        *fraction = ctx.best;
        *point = fcVec3_Add(xb.p, fcQuat_Rotate(xb.q, ctx.point));
        *normal = fcQuat_Rotate(xb.q, ctx.normal);
        if (triangle != NULL) *triangle = ctx.triangle;
        return true;
    }
    fcConvexStore sb;
    if (!fcGeometry_IsConvex(b) || !fcConvex_Make(&sa, a, xa) || !fcConvex_Make(&sb, b, xb)) return false;
    int r = fcCast_Run(&sa.c, translation, &sb.c, 1, fraction, point, normal);
    if (r < 0) *fraction = 0;
    return r > 0;
}

// ---- a turning body's path (continuous.c) ----------------------------------------------------------------------------

#define FC_PATH_ITERATIONS 64

// Conservative advancement along the path toward B (still; in the frame of path and xa): at a distance d along the
// closest points' direction n, no point of A closes on B faster than shift . n + |turn| reach per unit of t (reach:
// A's farthest point from the centre; Mirtich's bound), so t may step by (d - target) / that without passing the
// moment A comes within target. 1: within target at *tHit, or still apart at the *tHit that FC_PATH_ITERATIONS steps
// reached (a body turning fast past B, closing on it far slower than the bound: the caller judges the end pose, and
// may put the body there, where it is still clear of B); 0: not within target in [0, 1]; -1: within target at t = 0.
static int fcPath_Advance(const fcGeometry* a, fcTransform xa, const fcPath* path, const fcConvex* B, fcReal target, fcReal* tHit)
{
    fcReal t = 0, spin = fcVec3_Length(path->turn) * path->reach, tolerance = (fcReal)0.25 * target;
    for (int iter = 0; iter < FC_PATH_ITERATIONS; ++iter) {
        fcConvexStore sa;
        if (!fcConvex_Make(&sa, a, fcPath_Pose(path, xa, t))) return 0;
        fcGjk g;
        fcGjk_Run(&sa.c, B, &g);
        fcReal d = g.overlap ? -1 : g.distance - sa.c.radius - B->radius;
        if (d <= target + tolerance) {
            *tHit = t;
            return iter == 0 ? -1 : 1;
        }
        fcVec3 n = fcVec3_Scale(1 / g.distance, fcVec3_Sub(g.b, g.a));
        fcReal closing = fcVec3_Dot(path->shift, n) + spin;
        if (closing <= 0) return 0;
        fcReal next = t + (d - target) / closing;
        if (next > 1) return 0;
        t = next;
    }
    *tHit = t;
    return 1;
}

typedef struct fcPathContext {
    const fcMesh* mesh;
    const fcGeometry* a;
    fcTransform xa;
    const fcPath* path;
    fcReal target, best;
    fcTriangleStore tri;
    bool hit, near;  // near: a triangle within target at t = 0
} fcPathContext;

static bool fcPath_VisitTriangle(int t, void* context)
{
    fcPathContext* ctx = context;
    const fcMesh* mesh = ctx->mesh;
    const int* tv = mesh->triangles + 3 * t;
    fcConvex_Triangle(&ctx->tri, mesh->vertices[tv[0]], mesh->vertices[tv[1]], mesh->vertices[tv[2]], mesh->normals[t]);
    fcReal th;
    int r = fcPath_Advance(ctx->a, ctx->xa, ctx->path, &ctx->tri.c, ctx->target, &th);
    if (r > 0 && th < ctx->best) {
        ctx->best = th;
        ctx->hit = true;
    }
    ctx->near = ctx->near || r < 0;
    return true;
}

int fcGeometry_PathTouch(const fcGeometry* a, fcTransform xa, const fcPath* path, const fcGeometry* b, fcTransform xb,
                         fcReal target, fcReal* fraction)
{
    if (!fcGeometry_IsConvex(a)) return 0;
    if (b->type == fc_meshShape) {
        if (b->mesh == NULL) return 0;
        // in the mesh's frame: the triangles within reach of the centre's path
        fcPath local = {fcQuat_InvRotate(xb.q, fcVec3_Sub(path->centre, xb.p)), fcQuat_InvRotate(xb.q, path->shift),
                        fcQuat_InvRotate(xb.q, path->turn), path->reach};
        fcVec3 c1 = fcVec3_Add(local.centre, local.shift), r = fcV3(local.reach, local.reach, local.reach);
        fcAabb box = {fcVec3_Sub(fcV3(fcMin(local.centre.x, c1.x), fcMin(local.centre.y, c1.y), fcMin(local.centre.z, c1.z)), r),
                      fcVec3_Add(fcV3(fcMax(local.centre.x, c1.x), fcMax(local.centre.y, c1.y), fcMax(local.centre.z, c1.z)), r)};
        fcPathContext ctx = {.mesh = b->mesh, .a = a, .xa = fcTransform_Relative(xb, xa), .path = &local, .target = target, .best = 1};
        fcMesh_Query(b->mesh, box, fcPath_VisitTriangle, &ctx);
        if (ctx.hit) *fraction = ctx.best;
        return ctx.hit ? 1 : ctx.near ? -1 : 0;
    }
    fcConvexStore sb;
    if (!fcGeometry_IsConvex(b) || !fcConvex_Make(&sb, b, xb)) return 0;
    return fcPath_Advance(a, xa, path, &sb.c, target, fraction);
}
