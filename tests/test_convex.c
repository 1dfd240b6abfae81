// SPDX-License-Identifier: MIT
// Hulls, meshes and the general convex narrowphase (GJK, EPA, SAT + clipping) against closed forms: topology
// and mass, refusals and their reasons, distances, manifolds, ray and shape casts; prints hull-hull cost.
#include "test_macros.h"

#include "collide.h"
#include "convex.h"
#include "core.h"

#include <string.h>

// closed forms hold to rounding (EXACT, relative), iterative answers to TIGHT, curved ones (EPA) to CLOSE
#ifdef FC_FLOAT
#define EXACT 1e-5
#define TIGHT 2e-4
#define CLOSE 2e-3
#else
#define EXACT 1e-12
#define TIGHT 1e-9
#define CLOSE 1e-6
#endif

static fcTransform At(fcReal x, fcReal y, fcReal z)
{
    fcTransform t = {fcV3(x, y, z), fcQuat_Identity()};
    return t;
}

static fcTransform AtQ(fcVec3 p, fcQuat q)
{
    fcTransform t = {p, q};
    return t;
}

static fcGeometry Sphere(fcReal r) { return (fcGeometry){.type = fc_sphereShape, .radius = r}; }
static fcGeometry Box(fcReal x, fcReal y, fcReal z) { return (fcGeometry){.type = fc_boxShape, .halfExtents = {x, y, z}}; }
static fcGeometry Capsule(fcReal r, fcReal hh) { return (fcGeometry){.type = fc_capsuleShape, .radius = r, .halfHeight = hh}; }
static fcGeometry Cylinder(fcReal r, fcReal hh) { return (fcGeometry){.type = fc_cylinderShape, .radius = r, .halfHeight = hh}; }
static fcGeometry Plane(void) { return (fcGeometry){.type = fc_planeShape}; }
static fcGeometry HullGeom(const fcHull* h) { return (fcGeometry){.type = fc_hullShape, .hull = h}; }
static fcGeometry MeshGeom(const fcMesh* m) { return (fcGeometry){.type = fc_meshShape, .mesh = m}; }

static fcHull* MakeBoxHull(fcReal x, fcReal y, fcReal z)
{
    fcVec3 p[8];
    for (int i = 0; i < 8; ++i) p[i] = fcV3(i & 1 ? x : -x, i & 2 ? y : -y, i & 4 ? z : -z);
    char why[128];
    return fcHull_Create(p, 8, why, (int)sizeof why);
}

// deterministic pseudo-random numbers in [0, 1)
static unsigned long long s_rng = 0x9E3779B97F4A7C15ull;
static double Rand01(void)
{
    s_rng = s_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(s_rng >> 11) / 9007199254740992.0;
}

static fcVec3 RandomUnit(void)
{
    for (;;) {
        fcVec3 v = fcV3(2 * Rand01() - 1, 2 * Rand01() - 1, 2 * Rand01() - 1);
        fcReal l = fcVec3_Length(v);
        if (l > 0.1 && l <= 1) return fcVec3_Scale(1 / l, v);
    }
}

static fcQuat RandomQuat(void) { return fcQuat_FromAxisAngle(RandomUnit(), 6.283185307179586 * Rand01()); }

static bool Near3(fcVec3 a, fcVec3 b, double tol) { return fcVec3_Distance(a, b) <= tol; }

// ---- hulls -----------------------------------------------------------------------------------------------------------

static int test_hull_cube_topology_and_mass(void)
{
    // 8 corners of [-1, 1]^3 shifted by c, plus interior points, duplicates, face centres and edge midpoints
    fcVec3 c = fcV3(10, -5, 3);
    fcVec3 p[40];
    int n = 0;
    for (int i = 0; i < 8; ++i) p[n++] = fcVec3_Add(c, fcV3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
    p[n++] = p[3];
    p[n++] = p[5];
    p[n++] = c;
    p[n++] = fcVec3_Add(c, fcV3(0.3, -0.2, 0.1));
    p[n++] = fcVec3_Add(c, fcV3(-0.9, 0.9, 0.9));
    p[n++] = fcVec3_Add(c, fcV3(1, 0, 0));     // face centre
    p[n++] = fcVec3_Add(c, fcV3(0, 0, -1));    // face centre
    p[n++] = fcVec3_Add(c, fcV3(1, 1, 0));     // edge midpoint
    p[n++] = fcVec3_Add(c, fcV3(-1, 0.5, 1));  // on an edge
    p[n++] = p[0];
    char why[128] = "";
    fcHull* h = fcHull_Create(p, n, why, (int)sizeof why);
    ENSURE(h != NULL);
    ENSURE(fcHull_GetVertexCount(h) == 8 && h->faceCount == 6 && h->edgeCount == 12);
    ENSURE(h->vertexCount - h->edgeCount + h->faceCount == 2);
    for (int f = 0; f < 6; ++f) {
        ENSURE(h->faces[f].count == 4);
        fcVec3 nf = h->faces[f].normal;
        // axis-aligned unit normals, offset through the face's corners, loop counterclockwise about the normal
        ENSURE_NEAR(fabs(nf.x) + fabs(nf.y) + fabs(nf.z), 1, EXACT);
        for (int i = 0; i < 4; ++i) {
            fcVec3 a = h->vertices[h->loops[h->faces[f].first + i]];
            fcVec3 b = h->vertices[h->loops[h->faces[f].first + (i + 1) % 4]];
            fcVec3 d = h->vertices[h->loops[h->faces[f].first + (i + 2) % 4]];
            ENSURE_NEAR(fcVec3_Dot(nf, a), h->faces[f].offset, EXACT * 20);
            ENSURE(fcVec3_Dot(fcVec3_Cross(fcVec3_Sub(b, a), fcVec3_Sub(d, b)), nf) > 0);
        }
    }
    // every corner is a vertex, nothing else is
    for (int i = 0; i < 8; ++i) {
        int found = 0;
        for (int j = 0; j < 8; ++j) found += fcVec3_Distance(fcHull_GetVertex(h, j), p[i]) == 0;
        ENSURE(found == 1);
    }
    // each edge joins two corners one side apart, between two faces that run it in opposite directions
    for (int e = 0; e < 12; ++e) {
        const fcHullEdge* he = h->edges + e;
        ENSURE_NEAR(fcVec3_Distance(h->vertices[he->v0], h->vertices[he->v1]), 2, EXACT * 10);
        ENSURE(he->f0 != he->f1);
        ENSURE_NEAR(fcVec3_Dot(h->faces[he->f0].normal, h->faces[he->f1].normal), 0, EXACT);
    }
    fcReal volume;
    fcVec3 centroid;
    fcMat33 I;
    fcHull_ComputeMass(h, &volume, &centroid, &I);
    // unit density cube of side 2: mass 8, I = m (2^2 + 2^2) / 12 = 16/3 about each axis
    ENSURE_NEAR(volume, 8, 8 * EXACT);
    ENSURE(Near3(centroid, c, 12 * EXACT));
    ENSURE_NEAR(I.cx.x, 16.0 / 3, 16.0 / 3 * EXACT * 10);
    ENSURE_NEAR(I.cy.y, 16.0 / 3, 16.0 / 3 * EXACT * 10);
    ENSURE_NEAR(I.cz.z, 16.0 / 3, 16.0 / 3 * EXACT * 10);
    ENSURE_NEAR(I.cx.y, 0, EXACT * 10);
    ENSURE_NEAR(I.cx.z, 0, EXACT * 10);
    ENSURE_NEAR(I.cy.z, 0, EXACT * 10);
    ENSURE_NEAR(I.cy.x, I.cx.y, 0);
    // world box of the hull turned 90 degrees about z: still the cube
    fcAabb box = fcHull_ComputeAabb(h, AtQ(fcV3(0, 0, 0), fcQuat_FromAxisAngle(fcV3(0, 0, 1), 1.5707963267948966)));
    ENSURE(Near3(box.lo, fcV3(5 - 1, 10 - 1, 3 - 1), TIGHT) && Near3(box.hi, fcV3(5 + 1, 10 + 1, 3 + 1), TIGHT));
    fcHull_Destroy(h);

    // a box of different sides: I = m (b^2 + c^2) / 12 with full sides
    h = MakeBoxHull(0.5, 1.5, 2.5);
    ENSURE(h != NULL);
    fcHull_ComputeMass(h, &volume, &centroid, &I);
    fcReal m = 1 * 3 * 5;
    ENSURE_NEAR(volume, m, m * EXACT);
    ENSURE_NEAR(I.cx.x, m * (9 + 25) / 12, m * 34 / 12 * EXACT * 10);
    ENSURE_NEAR(I.cy.y, m * (1 + 25) / 12, m * 26 / 12 * EXACT * 10);
    ENSURE_NEAR(I.cz.z, m * (1 + 9) / 12, m * 10 / 12 * EXACT * 10);
    fcHull_Destroy(h);
    return 0;
}

static int test_hull_coplanar_grids(void)
{
    // a cube given as 9 x 9 grids on its faces, turned and far from the origin: the grid points on faces and
    // edges (some picked for the first simplex) go, the corners stay
    static fcVec3 p[6 * 81];
    int n = 0;
    fcQuat q = fcQuat_FromAxisAngle(fcV3(1, 2, 3), 0.7);
#ifdef FC_FLOAT
    fcVec3 off = fcV3(10, -20, 3);
    const double far = 1e-4;
#else
    fcVec3 off = fcV3(1e6, -2e6, 3e5);
    const double far = 1e-9;  // coordinates of 2e6 carry rounding of about 1e-10
#endif
    for (int f = 0; f < 6; ++f)
        for (int i = 0; i <= 8; ++i)
            for (int j = 0; j <= 8; ++j) {
                fcReal a = -1 + i * 0.25, b = -1 + j * 0.25, s = (f & 1) ? 1 : -1;
                fcVec3 v = f < 2 ? fcV3(s, a, b) : f < 4 ? fcV3(a, s, b) : fcV3(a, b, s);
                p[n++] = fcVec3_Add(off, fcQuat_Rotate(q, v));
            }
    char why[128];
    fcHull* h = fcHull_Create(p, n, why, (int)sizeof why);
    ENSURE(h != NULL);
    ENSURE(h->vertexCount == 8 && h->faceCount == 6 && h->edgeCount == 12);
    fcReal volume;
    fcVec3 c;
    fcMat33 I;
    fcHull_ComputeMass(h, &volume, &c, &I);
    ENSURE_NEAR(volume, 8, 8 * far);
    ENSURE(Near3(c, off, 10 * far));
    ENSURE_NEAR(I.cx.x, 16.0 / 3, 100 * far);
    fcHull_Destroy(h);
    return 0;
}

static int test_hull_tetrahedron(void)
{
    fcVec3 p[5] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}, {0.1, 0.1, -0.1}};
    fcHull* h = fcHull_Create(p, 5, NULL, 0);
    ENSURE(h != NULL);
    ENSURE(h->vertexCount == 4 && h->faceCount == 4 && h->edgeCount == 6);
    fcReal volume;
    fcVec3 c;
    fcMat33 I;
    fcHull_ComputeMass(h, &volume, &c, &I);
    // edge a = 2 sqrt 2: V = a^3 / (6 sqrt 2) = 8/3; I = m a^2 / 20 about any axis through the centroid
    ENSURE_NEAR(volume, 8.0 / 3, 8.0 / 3 * EXACT * 10);
    ENSURE(Near3(c, fcV3(0, 0, 0), EXACT * 10));
    fcReal Ie = (8.0 / 3) * 8 / 20;
    ENSURE_NEAR(I.cx.x, Ie, Ie * EXACT * 10);
    ENSURE_NEAR(I.cy.y, Ie, Ie * EXACT * 10);
    ENSURE_NEAR(I.cz.z, Ie, Ie * EXACT * 10);
    ENSURE_NEAR(I.cx.y, 0, EXACT * 10);
    ENSURE_NEAR(I.cy.z, 0, EXACT * 10);
    for (int f = 0; f < 4; ++f) ENSURE_NEAR(h->faces[f].offset, 1 / FC_SQRT(3), EXACT * 10);
    fcHull_Destroy(h);
    return 0;
}

// Independent reference for points in general position: every triple with all points on one side is a facet.
static void BruteHull(const fcVec3* p, int n, double* volume, int* facets)
{
    *volume = 0;
    *facets = 0;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            for (int k = j + 1; k < n; ++k) {
                fcVec3 nn = fcVec3_Cross(fcVec3_Sub(p[j], p[i]), fcVec3_Sub(p[k], p[i]));
                int above = 0, below = 0;
                for (int q = 0; q < n; ++q) {
                    double d = fcVec3_Dot(nn, fcVec3_Sub(p[q], p[i]));
                    above += d > EXACT;
                    below += d < -EXACT;
                }
                if (above && below) continue;
                *volume += fabs(fcVec3_Dot(p[i], fcVec3_Cross(p[j], p[k]))) / 6;  // the origin is inside
                ++*facets;
            }
}

static int test_hull_random_sphere_points(void)
{
    enum { N = 60, M = 160 };
    fcVec3 p[M];
    for (int i = 0; i < N; ++i) p[i] = fcVec3_Scale(2, RandomUnit());
    for (int i = N; i < M; ++i) p[i] = fcVec3_Scale(Rand01(), RandomUnit());  // well inside the hull
    char why[128];
    fcHull* h = fcHull_Create(p, M, why, (int)sizeof why);
    ENSURE(h != NULL);
    ENSURE(h->vertexCount == N);
    ENSURE(h->vertexCount - h->edgeCount + h->faceCount == 2);
    double volume;
    int facets;
    BruteHull(p, N, &volume, &facets);
#ifndef FC_FLOAT  // in float, nearly coplanar neighbours within the hull's tolerance merge
    ENSURE(h->faceCount == facets && facets == 2 * N - 4 && h->edgeCount == 3 * N - 6);
#endif
    fcReal v;
    fcVec3 c;
    fcMat33 I;
    fcHull_ComputeMass(h, &v, &c, &I);
    ENSURE_NEAR(v, volume, volume * EXACT * 100);
    ENSURE(v < 4.0 / 3 * 3.14159265358979 * 8);
    // all points inside every face plane; edges see two different faces
    for (int f = 0; f < h->faceCount; ++f)
        for (int i = 0; i < M; ++i) ENSURE_LE(fcVec3_Dot(h->faces[f].normal, p[i]) - h->faces[f].offset, EXACT * 4);
    for (int e = 0; e < h->edgeCount; ++e) ENSURE(h->edges[e].f0 != h->edges[e].f1);
    // inertia is symmetric with positive moments obeying the triangle inequality
    ENSURE_NEAR(I.cx.y, I.cy.x, 0);
    ENSURE(I.cx.x > 0 && I.cy.y > 0 && I.cz.z > 0 && I.cx.x <= I.cy.y + I.cz.z);
    fcHull_Destroy(h);
    return 0;
}

static int test_hull_refuses_degenerate(void)
{
    char why[160];
    fcVec3 p[300];
    for (int i = 0; i < 3; ++i) p[i] = fcV3(i, i * i, 1);
    ENSURE(fcHull_Create(p, 3, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "at least 4 points") != NULL);
    for (int i = 0; i < 10; ++i) p[i] = fcV3(Rand01(), Rand01(), 2);  // coplanar
    ENSURE(fcHull_Create(p, 10, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "coplanar") != NULL);
    for (int i = 0; i < 10; ++i) p[i] = fcV3(i, 2 * i, -i);
    ENSURE(fcHull_Create(p, 10, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "collinear") != NULL);
    for (int i = 0; i < 10; ++i) p[i] = fcV3(1, 2, 3);
    ENSURE(fcHull_Create(p, 10, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "coincide") != NULL);
    for (int i = 0; i < 8; ++i) p[i] = fcV3(i & 1, i & 2, i & 4);
    p[5].y = NAN;
    ENSURE(fcHull_Create(p, 8, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "point 5 is not finite") != NULL);
    // a tetrahedron 1e200 m across: refused for its size (it was called collinear: the cross products overflowed)
    for (int i = 0; i < 4; ++i) p[i] = fcV3(i == 1 ? 1e200 : 0, i == 2 ? 1e200 : 0, i == 3 ? 1e200 : 0);
    ENSURE(fcHull_Create(p, 4, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "point 1 (1e+200, 0, 0) is too far out") != NULL);
    for (int i = 0; i < 300; ++i) p[i] = RandomUnit();
    ENSURE(fcHull_Create(p, 300, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "300 vertices, more than the 256") != NULL);
    fcHull* h = fcHull_Create(p, 256, why, (int)sizeof why);
    ENSURE(h != NULL && h->vertexCount == 256);
    fcHull_Destroy(h);
    return 0;
}

// ---- distances -------------------------------------------------------------------------------------------------------

static int test_gjk_distances(void)
{
    fcVec3 pa, pb;
    fcGeometry s1 = Sphere(1), s2 = Sphere(1.5);
    ENSURE_NEAR(fcGeometry_Distance(&s1, At(0, 0, 0), &s2, At(3, 4, 0), &pa, &pb), 2.5, TIGHT);
    ENSURE(Near3(pa, fcV3(0.6, 0.8, 0), TIGHT) && Near3(pb, fcV3(3 - 0.9, 4 - 1.2, 0), TIGHT));

    fcGeometry b = Box(1, 1, 1);
    fcHull* cube = MakeBoxHull(1, 1, 1);
    fcGeometry hc = HullGeom(cube);
    const fcGeometry* cubes[2] = {&b, &hc};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            // face to face
            ENSURE_NEAR(fcGeometry_Distance(cubes[i], At(0, 0, 0), cubes[j], At(4, 0.5, 0.25), &pa, &pb), 2, TIGHT);
            ENSURE_NEAR(pa.x, 1, TIGHT);
            ENSURE_NEAR(pb.x, 3, TIGHT);
            // corner to corner
            ENSURE_NEAR(fcGeometry_Distance(cubes[i], At(0, 0, 0), cubes[j], At(3, 3, 3), &pa, &pb), FC_SQRT(3), TIGHT);
            ENSURE(Near3(pa, fcV3(1, 1, 1), TIGHT) && Near3(pb, fcV3(2, 2, 2), TIGHT));
            // a corner of a cube turned 45 degrees about z toward a face
            fcQuat q = fcQuat_FromAxisAngle(fcV3(0, 0, 1), 0.78539816339744831);
            ENSURE_NEAR(fcGeometry_Distance(cubes[i], At(0, 0, 0), cubes[j], AtQ(fcV3(4, 0, 0.3), q), &pa, &pb), 3 - FC_SQRT(2),
                        TIGHT);
            // edge to edge: crossed edges one above the other
            fcQuat qx = fcQuat_FromAxisAngle(fcV3(1, 0, 0), 0.78539816339744831);
            fcQuat qy = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 0.78539816339744831);
            // a's top edge along x after turning about x sits at z = sqrt 2; b's bottom edge along y at 5 - sqrt 2
            ENSURE_NEAR(fcGeometry_Distance(cubes[i], AtQ(fcV3(0, 0, 0), qx), cubes[j], AtQ(fcV3(0.2, -0.3, 5), qy), &pa, &pb),
                        5 - 2 * FC_SQRT(2), TIGHT);
            // overlapping: 0 and one common point
            ENSURE_NEAR(fcGeometry_Distance(cubes[i], At(0, 0, 0), cubes[j], At(1.5, 0, 0), &pa, &pb), 0, 0);
            ENSURE(Near3(pa, pb, 0) && pa.x >= 0.5 - EXACT && pa.x <= 1 + EXACT);
        }
    // sphere to a hull's face, edge and corner
    fcGeometry s = Sphere(0.5);
    ENSURE_NEAR(fcGeometry_Distance(&hc, At(0, 0, 0), &s, At(0.3, 0.2, 3), &pa, &pb), 1.5, TIGHT);
    ENSURE_NEAR(fcGeometry_Distance(&hc, At(0, 0, 0), &s, At(2, 0.7, 2), &pa, &pb), FC_SQRT(2) - 0.5, TIGHT);
    ENSURE_NEAR(fcGeometry_Distance(&hc, At(0, 0, 0), &s, At(-2, -2, 2), &pa, &pb), FC_SQRT(3) - 0.5, TIGHT);
    // capsule lying above a box, cylinder standing above a hull, cylinder beside a cylinder
    fcGeometry cap = Capsule(0.25, 2), cyl = Cylinder(0.5, 1);
    fcQuat lie = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 1.5707963267948966);
    ENSURE_NEAR(fcGeometry_Distance(&b, At(0, 0, 0), &cap, AtQ(fcV3(0, 0, 2), lie), &pa, &pb), 0.75, TIGHT);
    ENSURE_NEAR(fcGeometry_Distance(&hc, At(0, 0, 0), &cyl, At(0.2, 0.1, 3), &pa, &pb), 1, TIGHT);
    ENSURE_NEAR(fcGeometry_Distance(&cyl, At(0, 0, 0), &cyl, At(3, 0, 0.5), &pa, &pb), 2, (100 * TIGHT));
    fcHull_Destroy(cube);
    return 0;
}

// ---- contacts --------------------------------------------------------------------------------------------------------

// p matches one of the corners (z given) of the square [-h, h]^2
static bool AtCorner(fcVec3 p, fcReal h, fcReal z, double tol)
{
    return fabs(fabs(p.x) - h) <= tol && fabs(fabs(p.y) - h) <= tol && fabs(p.z - z) <= tol;
}

static int CornerMask(const fcManifold* m, fcReal h)
{
    int mask = 0;
    for (int i = 0; i < m->pointCount; ++i) mask |= 1 << ((m->points[i].point.x > 0) + 2 * (m->points[i].point.y > 0));
    (void)h;
    return mask;
}

// every point of m has a point of ref within tol, and that point's id: the same features touching
static int SameIdsAtSamePoints(const fcManifold* m, const fcManifold* ref, fcReal tol)
{
    ENSURE(ref->pointCount > 0);
    for (int i = 0; i < m->pointCount; ++i) {
        int nearest = 0;
        for (int j = 1; j < ref->pointCount; ++j)
            if (fcVec3_Distance(m->points[i].point, ref->points[j].point) < fcVec3_Distance(m->points[i].point, ref->points[nearest].point))
                nearest = j;
        ENSURE(fcVec3_Distance(m->points[i].point, ref->points[nearest].point) < tol);
        ENSURE(m->points[i].id == ref->points[nearest].id);
    }
    return 0;
}

static int test_hull_cube_on_hull_cube(void)
{
    fcHull* big = MakeBoxHull(1, 1, 1);
    fcHull* small = MakeBoxHull(0.5, 0.5, 0.5);
    fcGeometry a = HullGeom(big), b = HullGeom(small);
    fcManifold m;
    ENSURE(fcCollide(&a, At(0, 0, 0), &b, At(0.1, -0.2, 1.49), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 4);
    ENSURE(Near3(m.normal, fcV3(0, 0, 1), TIGHT));
    for (int i = 0; i < 4; ++i) {
        fcVec3 p = fcVec3_Sub(m.points[i].point, fcV3(0.1, -0.2, 0));
        ENSURE(AtCorner(p, 0.5, 0.995, TIGHT));
        ENSURE_NEAR(m.points[i].separation, -0.01, TIGHT);
        for (int j = 0; j < i; ++j) ENSURE(m.points[i].id != m.points[j].id);
    }
    ENSURE(CornerMask(&m, 0.5) == 15);
    // a tiny shift and turn keeps the same features touching: the same ids on the same corners
    fcQuat turn = fcQuat_Mul(fcQuat_FromAxisAngle(fcV3(0, 0, 1), 1e-3), fcQuat_FromAxisAngle(fcV3(1, 0, 0), 1e-4));
    fcManifold m2;
    ENSURE(fcCollide(&a, At(0, 0, 0), &b, AtQ(fcV3(0.1001, -0.2002, 1.4901), turn), 0, NULL, &m2, 1) == 1);
    ENSURE(m2.pointCount == 4);
    ENSURE(SameIdsAtSamePoints(&m2, &m, 2e-3) == 0);
    // the pair the other way round: the normal flips, the points stay
    ENSURE(fcCollide(&b, At(0.1, -0.2, 1.49), &a, At(0, 0, 0), 0, NULL, &m2, 1) == 1);
    ENSURE(m2.pointCount == 4 && Near3(m2.normal, fcV3(0, 0, -1), TIGHT));
    for (int i = 0; i < 4; ++i) ENSURE(AtCorner(fcVec3_Sub(m2.points[i].point, fcV3(0.1, -0.2, 0)), 0.5, 0.995, TIGHT));

    // equal cubes stacked exactly: the corners lie on the side planes and are kept once each
    ENSURE(fcCollide(&a, At(0, 0, 0), &a, At(0, 0, 1.98), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 4 && Near3(m.normal, fcV3(0, 0, 1), TIGHT) && CornerMask(&m, 1) == 15);
    for (int i = 0; i < 4; ++i) {
        ENSURE(AtCorner(m.points[i].point, 1, 0.99, TIGHT));
        ENSURE_NEAR(m.points[i].separation, -0.02, TIGHT);
    }
    // and rocking a hair on the one below: corners a few 1e-5 m outside the side planes stay the same vertex points
    // (clipped, they would be cut points with other ids, and a resting stack would lose its warm start: a stack of
    // four 125 kg hull cubes rocked, its contact force 4 % off when it fell asleep)
    fcManifold flush = m;
    for (int k = 0; k < 4; ++k) {
        fcVec3 axis = k & 1 ? fcV3(0, 1, 0) : fcV3(1, 0, 0);
        fcQuat rock = fcQuat_FromAxisAngle(axis, k & 2 ? -1e-4 : 1e-4);
        ENSURE(fcCollide(&a, At(0, 0, 0), &a, AtQ(fcV3(2e-5, -2e-5, 1.98), rock), 0, NULL, &m2, 1) == 1);
        ENSURE(m2.pointCount == 4 && CornerMask(&m2, 1) == 15);
        ENSURE(SameIdsAtSamePoints(&m2, &flush, 1e-3) == 0);
    }
    // speculative: 0.01 apart with margin 0.02 gives the points at separation +0.01; margin 0.005 gives none
    ENSURE(fcCollide(&a, At(0, 0, 0), &b, At(0, 0, 1.51), 0.02, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 4);
    for (int i = 0; i < 4; ++i) ENSURE_NEAR(m.points[i].separation, 0.01, TIGHT);
    ENSURE(fcCollide(&a, At(0, 0, 0), &b, At(0, 0, 1.51), 0.005, NULL, &m, 1) == 0);
    // a box shape on the hull, and the hull on a box: the same manifold
    fcGeometry box = Box(0.5, 0.5, 0.5), ground = Box(1, 1, 1);
    ENSURE(fcCollide(&a, At(0, 0, 0), &box, At(0, 0, 1.49), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 4 && Near3(m.normal, fcV3(0, 0, 1), TIGHT) && CornerMask(&m, 0.5) == 15);
    ENSURE(fcCollide(&ground, At(0, 0, 0), &b, At(0, 0, 1.49), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 4 && Near3(m.normal, fcV3(0, 0, 1), TIGHT) && CornerMask(&m, 0.5) == 15);
    for (int i = 0; i < 4; ++i) ENSURE(AtCorner(m.points[i].point, 0.5, 0.995, TIGHT));
    // edge across edge: one point midway, normal along the common perpendicular
    fcQuat qx = fcQuat_FromAxisAngle(fcV3(1, 0, 0), 0.78539816339744831);
    fcQuat qy = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 0.78539816339744831);
    ENSURE(fcCollide(&a, AtQ(fcV3(0, 0, 0), qx), &a, AtQ(fcV3(0, 0, 2 * FC_SQRT(2) - 0.02), qy), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 1 && Near3(m.normal, fcV3(0, 0, 1), TIGHT));
    ENSURE_NEAR(m.points[0].separation, -0.02, TIGHT);
    ENSURE(Near3(m.points[0].point, fcV3(0, 0, FC_SQRT(2) - 0.01), TIGHT));
    fcHull_Destroy(big);
    fcHull_Destroy(small);
    return 0;
}

// Brute-force SAT depth of two hulls (all face normals and edge cross products, full projections).
static double BruteSat(const fcHull* ha, fcTransform xa, const fcHull* hb, fcTransform xb)
{
    fcVec3 va[FC_HULL_MAX_VERTICES], vb[FC_HULL_MAX_VERTICES];
    for (int i = 0; i < ha->vertexCount; ++i) va[i] = fcVec3_Add(xa.p, fcQuat_Rotate(xa.q, ha->vertices[i]));
    for (int i = 0; i < hb->vertexCount; ++i) vb[i] = fcVec3_Add(xb.p, fcQuat_Rotate(xb.q, hb->vertices[i]));
    double best = -1e30;
    int na = ha->faceCount + hb->faceCount + ha->edgeCount * hb->edgeCount;
    for (int k = 0; k < na; ++k) {
        fcVec3 axis;
        if (k < ha->faceCount) axis = fcQuat_Rotate(xa.q, ha->faces[k].normal);
        else if (k < ha->faceCount + hb->faceCount) axis = fcQuat_Rotate(xb.q, hb->faces[k - ha->faceCount].normal);
        else {
            int e = k - ha->faceCount - hb->faceCount;
            const fcHullEdge* e1 = ha->edges + e / hb->edgeCount;
            const fcHullEdge* e2 = hb->edges + e % hb->edgeCount;
            axis = fcVec3_Cross(fcVec3_Sub(va[e1->v1], va[e1->v0]), fcVec3_Sub(vb[e2->v1], vb[e2->v0]));
            if (fcVec3_Length(axis) < CLOSE) continue;
            axis = fcVec3_Normalize(axis);
        }
        double loA = 1e30, hiA = -1e30, loB = 1e30, hiB = -1e30;
        for (int i = 0; i < ha->vertexCount; ++i) loA = fmin(loA, fcVec3_Dot(axis, va[i])), hiA = fmax(hiA, fcVec3_Dot(axis, va[i]));
        for (int i = 0; i < hb->vertexCount; ++i) loB = fmin(loB, fcVec3_Dot(axis, vb[i])), hiB = fmax(hiB, fcVec3_Dot(axis, vb[i]));
        best = fmax(best, fmax(loB - hiA, loA - hiB));
    }
    return best;
}

static int test_hull_pairs_random_poses(void)
{
    // random hulls in random overlapping poses: never less penetration than SAT finds, never much more, and the
    // points lie inside the other shape's slab
    int contacts = 0;
    for (int trial = 0; trial < 200; ++trial) {
        fcVec3 p[12];
        for (int i = 0; i < 12; ++i) p[i] = fcV3(RandomUnit().x * 1.2, RandomUnit().y * 0.8, RandomUnit().z);
        fcHull* ha = fcHull_Create(p, 12, NULL, 0);
        for (int i = 0; i < 12; ++i) p[i] = fcVec3_Scale(0.7, RandomUnit());
        fcHull* hb = fcHull_Create(p, 12, NULL, 0);
        ENSURE(ha != NULL && hb != NULL);
        fcTransform xa = AtQ(fcV3(0, 0, 0), RandomQuat());
        fcTransform xb = AtQ(fcVec3_Scale(0.6 + 0.8 * Rand01(), RandomUnit()), RandomQuat());
        fcGeometry a = HullGeom(ha), b = HullGeom(hb);
        double depth = BruteSat(ha, xa, hb, xb);
        fcManifold m;
        int n = fcCollide(&a, xa, &b, xb, 0, NULL, &m, 1);
        if (depth >= 0) {
            ENSURE(n == 0);
        } else {
            ENSURE(n == 1 || depth > -CLOSE);
            ++contacts;
            double lo = 1e30;
            for (int i = 0; i < m.pointCount; ++i) lo = fmin(lo, m.points[i].separation);
            ENSURE_NEAR(fcVec3_Length(m.normal), 1, EXACT * 10);
            ENSURE_LE(lo, depth + TIGHT);
            ENSURE_LE(depth * 1.06 - 2e-3, lo);
        }
        fcHull_Destroy(ha);
        fcHull_Destroy(hb);
    }
    ENSURE(contacts > 100);
    return 0;
}

static int test_cylinder_random_poses(void)
{
    // a cylinder (GJK + EPA) against random hulls, checked against the exact SAT depth of the cylinder's
    // inscribed 128-vertex hull: at least as deep less EPA's slack, and never far deeper
    enum { K = 64 };
    fcVec3 rim[2 * K];
    for (int k = 0; k < K; ++k) {
        fcReal a = 6.283185307179586 * k / K;
        rim[k] = fcV3(0.5 * FC_COS(a), 0.5 * FC_SIN(a), -0.7);
        rim[K + k] = fcV3(0.5 * FC_COS(a), 0.5 * FC_SIN(a), 0.7);
    }
    fcHull* inscribed = fcHull_Create(rim, 2 * K, NULL, 0);
    ENSURE(inscribed != NULL && inscribed->vertexCount == 2 * K && inscribed->faceCount == K + 2);
    fcGeometry cyl = Cylinder(0.5, 0.7);
    int contacts = 0;
    for (int trial = 0; trial < 300; ++trial) {
        fcVec3 p[12];
        for (int i = 0; i < 12; ++i) p[i] = fcVec3_Scale(0.7, RandomUnit());
        fcHull* hb = fcHull_Create(p, 12, NULL, 0);
        ENSURE(hb != NULL);
        fcGeometry b = HullGeom(hb);
        fcTransform xa = AtQ(fcV3(0, 0, 0), RandomQuat());
        fcTransform xb = AtQ(fcVec3_Scale(0.4 + Rand01(), RandomUnit()), RandomQuat());
        double depth = BruteSat(inscribed, xa, hb, xb);
        fcManifold m;
        int n = fcCollide(&cyl, xa, &b, xb, 0, NULL, &m, 1);
        if (depth < -1e-3) {
            ENSURE(n == 1);
            double lo = 1e30;
            for (int i = 0; i < m.pointCount; ++i) lo = fmin(lo, m.points[i].separation);
            ENSURE_LE(lo, depth + 5e-3 + 5 * CLOSE);
            ENSURE_LE(depth * 1.06 - 0.02, lo);
            ++contacts;
        }
        fcHull_Destroy(hb);
    }
    ENSURE(contacts > 150);
    fcHull_Destroy(inscribed);
    return 0;
}

// Cores that barely touch: a cylinder on its side and a box from a stress run's pile, their surfaces 1.9e-6 m apart
// along n = (0.60, 0.80, 0). GJK counted it an overlap, its simplex holding the origin only to rounding, and EPA
// answered with a face it never expanded, facing from the box to the cylinder: 2.58 m of overlap, and the position pass
// moved the cylinder 0.9 m. The box moved by s toward the cylinder along n: the deepest point is 1.9e-6 - s apart
// (to 1e-5), and the normal points from the first shape to the second, in either order.
static int test_epa_touching_cylinder_box(void)
{
    fcGeometry cyl = Cylinder(0.41841751619950257, 0.766667610788268);
    fcGeometry box = Box(0.450970418552897, 0.5037708387658797, 0.5342923628761477);
    fcTransform xa = AtQ(fcV3(0.13833373108190128, -1.9255294432602004, 0.41840660589903145),
                         fcQuat_Normalize((fcQuat){0.3816909005950788, 0.6053147350453081, 0.3654670101239385, 0.5952646406859852}));
    fcVec3 at = fcV3(1.5031898563769168, -1.3393161949267562, 0.4509685877361937);
    fcQuat q = fcQuat_Normalize((fcQuat){0.22413030195847575, 0.6706463851777144, -0.22413152497125144, 0.6706445357312089});
    fcVec3 n = fcVec3_Normalize(fcV3(0.6012, 0.7991, 0));
    const double moves[] = {0, 1e-7, 1e-6, 1e-4, 1e-3, 1e-2, -1e-3};
    double worst = 0;
    for (int k = 0; k < 7; ++k) {
        fcTransform xb = AtQ(fcVec3_MulAdd(at, -moves[k], n), q);
        for (int order = 0; order < 2; ++order) {
            fcManifold m;
            int c = order ? fcCollide(&box, xb, &cyl, xa, 0.02, NULL, &m, 1) : fcCollide(&cyl, xa, &box, xb, 0.02, NULL, &m, 1);
            ENSURE(c == 1 && m.pointCount >= 1);
            double lo = 1e30;
            for (int i = 0; i < m.pointCount; ++i) lo = fmin(lo, m.points[i].separation);
            worst = fmax(worst, fabs(lo - (1.9e-6 - moves[k])));
            ENSURE(fcVec3_Dot(m.normal, n) * (order ? -1 : 1) > 0.99);
        }
    }
    printf("  a cylinder and a box touching to 1.9e-6 m, moved into each other by up to 1 cm: separations within %.3g m "
           "of 1.9e-6 m - the move\n", worst);
    ENSURE_LE(worst, 1e-5 + 10 * CLOSE);
    return 0;
}

static int test_sphere_and_capsule_on_hull(void)
{
    fcHull* cube = MakeBoxHull(1, 1, 1);
    fcGeometry h = HullGeom(cube), s = Sphere(0.5);
    fcManifold m;
    // shallow: the core is outside (GJK)
    ENSURE(fcCollide(&h, At(0, 0, 0), &s, At(0.3, -0.4, 1.3), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 1 && Near3(m.normal, fcV3(0, 0, 1), TIGHT));
    ENSURE_NEAR(m.points[0].separation, -0.2, TIGHT);
    ENSURE(Near3(m.points[0].point, fcV3(0.3, -0.4, 0.9), TIGHT));
    // deep: the centre inside the hull, nearest the +z face (SAT on the core)
    ENSURE(fcCollide(&s, At(0.2, 0.1, 0.8), &h, At(0, 0, 0), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 1 && Near3(m.normal, fcV3(0, 0, -1), TIGHT));
    ENSURE_NEAR(m.points[0].separation, -0.7, TIGHT);
    ENSURE(Near3(m.points[0].point, fcV3(0.2, 0.1, 0.65), TIGHT));
    // over an edge
    ENSURE(fcCollide(&h, At(0, 0, 0), &s, At(1.2, 0.3, 1.2), 0, NULL, &m, 1) == 1);
    ENSURE(Near3(m.normal, fcV3(FC_SQRT(0.5), 0, FC_SQRT(0.5)), TIGHT));
    ENSURE_NEAR(m.points[0].separation, 0.2 * FC_SQRT(2) - 0.5, TIGHT);
    // a turned hull: the depth is along the turned face normal
    fcQuat q = fcQuat_FromAxisAngle(fcV3(1, 1, 0), 0.4);
    fcVec3 up = fcQuat_Rotate(q, fcV3(0, 0, 1));
    ENSURE(fcCollide(&h, AtQ(fcV3(1, 2, 3), q), &s, AtQ(fcVec3_Add(fcV3(1, 2, 3), fcVec3_Scale(1.45, up)), q), 0, NULL, &m, 1) == 1);
    ENSURE(Near3(m.normal, up, TIGHT));
    ENSURE_NEAR(m.points[0].separation, -0.05, TIGHT);

    // a capsule lying on the face: two points at the ends of its segment
    fcGeometry c = Capsule(0.25, 0.6);
    fcQuat lie = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 1.5707963267948966);
    ENSURE(fcCollide(&h, At(0, 0, 0), &c, AtQ(fcV3(0.1, 0.2, 1.24), lie), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 2 && Near3(m.normal, fcV3(0, 0, 1), TIGHT));
    for (int i = 0; i < 2; ++i) {
        ENSURE_NEAR(m.points[i].separation, -0.01, TIGHT);
        ENSURE_NEAR(fabs(m.points[i].point.x - 0.1), 0.6, TIGHT);
        ENSURE_NEAR(m.points[i].point.z, 0.995, TIGHT);
    }
    ENSURE(m.points[0].id != m.points[1].id);
    // hanging over the edge: the inner end and where the segment leaves the face
    ENSURE(fcCollide(&h, At(0, 0, 0), &c, AtQ(fcV3(0.8, 0.2, 1.24), lie), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 2);
    ENSURE_NEAR(fmin(m.points[0].point.x, m.points[1].point.x), 0.2, TIGHT);
    ENSURE_NEAR(fmax(m.points[0].point.x, m.points[1].point.x), 1, 2e-5);
    // deep capsule core (inside the hull): SAT still finds the face
    ENSURE(fcCollide(&h, At(0, 0, 0), &c, AtQ(fcV3(0, 0, 0.9), lie), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 2 && Near3(m.normal, fcV3(0, 0, 1), TIGHT));
    ENSURE_NEAR(m.points[0].separation, -0.35, TIGHT);
    fcHull_Destroy(cube);
    return 0;
}

static int test_cylinder_contacts(void)
{
    fcGeometry ground = Box(2, 2, 0.5), cyl = Cylinder(0.5, 1);
    fcManifold m;
    // standing on a box face: rim points, all at the cylinder's radius from its axis
    ENSURE(fcCollide(&ground, At(0, 0, 0), &cyl, At(0.3, -0.2, 1.49), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount >= 3 && Near3(m.normal, fcV3(0, 0, 1), CLOSE));
    for (int i = 0; i < m.pointCount; ++i) {
        fcVec3 p = m.points[i].point;
        ENSURE_NEAR(FC_SQRT((p.x - 0.3) * (p.x - 0.3) + (p.y + 0.2) * (p.y + 0.2)), 0.5, CLOSE);
        ENSURE_NEAR(p.z, 0.495, CLOSE);
        ENSURE_NEAR(m.points[i].separation, -0.01, CLOSE);
    }
    // the pair the other way and on a hull: the same
    fcHull* slab = MakeBoxHull(2, 2, 0.5);
    fcGeometry hs = HullGeom(slab);
    ENSURE(fcCollide(&cyl, At(0.3, -0.2, 1.49), &hs, At(0, 0, 0), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount >= 3 && Near3(m.normal, fcV3(0, 0, -1), CLOSE));
    for (int i = 0; i < m.pointCount; ++i) ENSURE_NEAR(m.points[i].separation, -0.01, CLOSE);
    // just above, inside a speculative margin: the same rim points at +0.01
    ENSURE(fcCollide(&hs, At(0, 0, 0), &cyl, At(0, 0, 1.51), 0.05, NULL, &m, 1) == 1);
    ENSURE(m.pointCount >= 3);
    for (int i = 0; i < m.pointCount; ++i) ENSURE_NEAR(m.points[i].separation, 0.01, CLOSE);
    // lying on its side: two points along the touching line
    fcQuat lie = fcQuat_FromAxisAngle(fcV3(1, 0, 0), 1.5707963267948966);
    ENSURE(fcCollide(&hs, At(0, 0, 0), &cyl, AtQ(fcV3(0, 0, 0.99), lie), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 2 && Near3(m.normal, fcV3(0, 0, 1), CLOSE));
    for (int i = 0; i < 2; ++i) {
        ENSURE_NEAR(m.points[i].separation, -0.01, CLOSE);
        ENSURE_NEAR(fabs(m.points[i].point.y), 1, CLOSE);
    }
    // a cube standing on the cylinder's cap: the cap is the reference, points inside the rim
    fcGeometry cube = Box(0.2, 0.2, 0.2);
    ENSURE(fcCollide(&cyl, At(0, 0, 0), &cube, At(0, 0, 1.19), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 4 && Near3(m.normal, fcV3(0, 0, 1), CLOSE));
    for (int i = 0; i < 4; ++i) ENSURE(AtCorner(m.points[i].point, 0.2, 0.995, CLOSE));
    // cylinder on cylinder: rim points
    ENSURE(fcCollide(&cyl, At(0, 0, 0), &cyl, At(0.1, 0, 1.98), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount >= 3 && Near3(m.normal, fcV3(0, 0, 1), CLOSE));
    for (int i = 0; i < m.pointCount; ++i) ENSURE_NEAR(m.points[i].separation, -0.02, CLOSE);
    // a sphere on the side of a cylinder: one point, exact depth
    fcGeometry s = Sphere(0.25);
    ENSURE(fcCollide(&cyl, At(0, 0, 0), &s, At(0.7, 0, 0.3), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 1 && Near3(m.normal, fcV3(1, 0, 0), CLOSE));
    ENSURE_NEAR(m.points[0].separation, -0.05, CLOSE);
    fcHull_Destroy(slab);
    return 0;
}

static int test_plane_hull(void)
{
    fcHull* cube = MakeBoxHull(1, 1, 1);
    fcGeometry p = Plane(), h = HullGeom(cube);
    fcManifold m;
    ENSURE(fcCollide(&p, At(0, 0, 0), &h, At(0.5, 0, 0.99), 0, NULL, &m, 1) == 1);
    ENSURE(m.pointCount == 4 && Near3(m.normal, fcV3(0, 0, 1), TIGHT));
    for (int i = 0; i < 4; ++i) {
        ENSURE_NEAR(m.points[i].separation, -0.01, TIGHT);
        ENSURE(AtCorner(fcVec3_Sub(m.points[i].point, fcV3(0.5, 0, 0)), 1, -0.005, TIGHT));
    }
    ENSURE(fcCollide(&h, At(0.5, 0, 0.99), &p, At(0, 0, 0), 0, NULL, &m, 1) == 1);
    ENSURE(Near3(m.normal, fcV3(0, 0, -1), TIGHT));
    ENSURE(fcCollide(&p, At(0, 0, 0), &h, At(0, 0, 1.5), 0.1, NULL, &m, 1) == 0);
    fcHull_Destroy(cube);
    return 0;
}

// A pentagonal hull prism (radius 1 m) tipped 1.4 degrees towards each corner in turn, on the plane: its bottom face
// lies flat enough for the reduction to take depths as ties, but the corner it tips to is 1.7 cm deeper than any
// other, more than the ties' 1 % of the size (FC_REDUCE_TIE), so it is one of the four points kept. With ties over
// the whole spread the reduction started from the same vertex every time and left one corner out: pressed there,
// the prism sank 4.3 cm against 2.5 when only the deepest started the four.
static int test_plane_hull_keeps_a_deep_corner(void)
{
    fcVec3 pts[10];
    for (int i = 0; i < 5; ++i) {
        fcReal a = 1.2566370614359172 * i;
        pts[2 * i] = fcV3(FC_COS(a), FC_SIN(a), -0.1);
        pts[2 * i + 1] = fcV3(FC_COS(a), FC_SIN(a), 0.1);
    }
    fcHull* prism = fcHull_Create(pts, 10, NULL, 0);
    ENSURE(prism != NULL);
    fcGeometry p = Plane(), h = HullGeom(prism);
    for (int k = 0; k < 5; ++k) {
        fcReal a = 1.2566370614359172 * k;
        fcQuat q = fcQuat_FromAxisAngle(fcV3(-FC_SIN(a), FC_COS(a), 0), asin(0.025));  // corner k goes down
        fcVec3 low = fcQuat_Rotate(q, pts[2 * k]);
        fcTransform xf = AtQ(fcV3(0, 0, -low.z - 0.005), q);
        double deepest = 1, next = 1;
        for (int i = 0; i < 5; ++i) {
            double z = fcVec3_Add(xf.p, fcQuat_Rotate(q, pts[2 * i])).z;
            if (i == k) deepest = z;
            else next = fmin(next, z);
        }
        ENSURE_NEAR(deepest, -0.005, 1e-12);
        ENSURE(next - deepest > 0.015);  // deeper than the others by more than the ties
        fcManifold m;
        ENSURE(fcCollide(&p, At(0, 0, 0), &h, xf, (fcReal)0.1, NULL, &m, 1) == 1);
        ENSURE(m.pointCount == 4);
        double lo = 1;
        for (int i = 0; i < 4; ++i) lo = fmin(lo, m.points[i].separation);
        ENSURE_NEAR(lo, deepest, 1e-12);
    }
    fcHull_Destroy(prism);
    return 0;
}

// ---- meshes ----------------------------------------------------------------------------------------------------------

static fcMesh* Square(fcReal h)
{
    fcVec3 v[4] = {{-h, -h, 0}, {h, -h, 0}, {h, h, 0}, {-h, h, 0}};
    int idx[6] = {0, 1, 2, 0, 2, 3};
    return fcMesh_Create(v, 4, idx, 2, NULL, 0);
}

// an n x n grid of squares of side 1 centred on the origin, two triangles each
static fcMesh* Grid(int n)
{
    fcVec3 v[(8 + 1) * (8 + 1)];
    int idx[8 * 8 * 6];
    int k = 0;
    for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) v[j * (n + 1) + i] = fcV3(i - n / 2.0, j - n / 2.0, 0);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            int a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
            idx[k++] = a, idx[k++] = b, idx[k++] = c;
            idx[k++] = a, idx[k++] = c, idx[k++] = d;
        }
    return fcMesh_Create(v, (n + 1) * (n + 1), idx, 2 * n * n, NULL, 0);
}

static int test_mesh_box_on_two_triangles(void)
{
    fcMesh* ground = Square(5);
    ENSURE(ground != NULL && fcMesh_GetTriangleCount(ground) == 2);
    fcGeometry g = MeshGeom(ground), box = Box(1, 1, 1);
    fcManifold m[8];
    int n = fcCollide(&g, At(0, 0, 0), &box, At(0, 0, 0.99), 0, NULL, m, 8);
    ENSURE(n == 2);
    int mask = 0;
    for (int k = 0; k < n; ++k) {
        ENSURE(m[k].key == (uint32_t)k || m[k].key == (uint32_t)(1 - k));
        ENSURE(Near3(m[k].normal, fcV3(0, 0, 1), TIGHT));
        for (int i = 0; i < m[k].pointCount; ++i) {
            ENSURE(AtCorner(m[k].points[i].point, 1, -0.005, TIGHT));
            ENSURE_NEAR(m[k].points[i].separation, -0.01, TIGHT);
        }
        mask |= CornerMask(&m[k], 1);
    }
    ENSURE(mask == 15);
    ENSURE(m[0].key != m[1].key);
    // the other order flips the normals; a hull box gives the same corners
    n = fcCollide(&box, At(0, 0, 0.99), &g, At(0, 0, 0), 0, NULL, m, 8);
    ENSURE(n == 2 && Near3(m[0].normal, fcV3(0, 0, -1), TIGHT) && Near3(m[1].normal, fcV3(0, 0, -1), TIGHT));
    fcHull* cube = MakeBoxHull(1, 1, 1);
    fcGeometry hc = HullGeom(cube);
    n = fcCollide(&g, At(0, 0, 0), &hc, At(0, 0, 0.99), 0, NULL, m, 8);
    ENSURE(n == 2);
    mask = 0;
    for (int k = 0; k < n; ++k) {
        for (int i = 0; i < m[k].pointCount; ++i) ENSURE(AtCorner(m[k].points[i].point, 1, -0.005, TIGHT));
        mask |= CornerMask(&m[k], 1);
    }
    ENSURE(mask == 15);
    // capacity 1: the two triangles' manifolds merge into one holding the 4 corners, keyed by the lower index
    ENSURE(fcCollide(&g, At(0, 0, 0), &box, At(0, 0, 0.99), 0, NULL, m, 1) == 1);
    ENSURE(m[0].pointCount == 4 && m[0].key == 0 && Near3(m[0].normal, fcV3(0, 0, 1), TIGHT) && CornerMask(&m[0], 1) == 15);
    for (int i = 0; i < 4; ++i) ENSURE(AtCorner(m[0].points[i].point, 1, -0.005, TIGHT));
    // a mesh turned and moved: the same contact in the world
    fcQuat q = fcQuat_FromAxisAngle(fcV3(1, 0, 0), 1.5707963267948966);  // the ground becomes the plane y = 2
    fcVec3 up = fcQuat_Rotate(q, fcV3(0, 0, 1));
    n = fcCollide(&g, AtQ(fcV3(0, 2, 0), q), &box, AtQ(fcVec3_Add(fcV3(0, 2, 0), fcVec3_Scale(0.99, up)), q), 0, NULL, m, 8);
    ENSURE(n == 2 && Near3(m[0].normal, up, TIGHT));
    for (int i = 0; i < m[0].pointCount; ++i) ENSURE_NEAR(fcVec3_Dot(fcVec3_Sub(m[0].points[i].point, fcV3(0, 2, 0)), up), -0.005, TIGHT);
    fcAabb wb = fcMesh_ComputeAabb(ground, AtQ(fcV3(0, 2, 0), q));
    ENSURE(Near3(wb.lo, fcV3(-5, 2, -5), TIGHT) && Near3(wb.hi, fcV3(5, 2, 5), TIGHT));
    fcHull_Destroy(cube);
    fcMesh_Destroy(ground);
    return 0;
}

static int test_mesh_internal_edges(void)
{
    fcMesh* grid = Grid(8);
    ENSURE(grid != NULL && fcMesh_GetTriangleCount(grid) == 128);
    fcGeometry g = MeshGeom(grid), box = Box(0.3, 0.3, 0.3), s = Sphere(0.5), cap = Capsule(0.2, 0.5), cyl = Cylinder(0.3, 0.4);
    fcHull* cube = MakeBoxHull(0.3, 0.3, 0.3);
    fcGeometry hc = HullGeom(cube);
    fcManifold m[32];
    fcQuat turns[3] = {fcQuat_Identity(), fcQuat_FromAxisAngle(fcV3(0, 0, 1), 0.5), fcQuat_FromAxisAngle(fcV3(0, 0, 1), 1.1)};
    fcQuat lie = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 1.5707963267948966);
    // sliding over internal edges and corners at a small depth: every normal is the face normal
    for (int t = 0; t < 3; ++t)
        for (int step = 0; step <= 40; ++step) {
            fcReal x = -1 + step * 0.05, y = 0.37 * x;
            const fcGeometry* shapes[5] = {&box, &hc, &s, &cap, &cyl};
            fcReal heights[5] = {0.29, 0.29, 0.49, 0.19, 0.39};
            for (int k = 0; k < 5; ++k) {
                fcQuat q = k == 3 ? fcQuat_Mul(turns[t], lie) : turns[t];
                int n = fcCollide(&g, At(0, 0, 0), shapes[k], AtQ(fcV3(x, y, heights[k]), q), 0, NULL, m, 32);
                ENSURE(n >= 1);
                int points = 0;
                for (int i = 0; i < n; ++i) {
                    ENSURE(Near3(m[i].normal, fcV3(0, 0, 1), TIGHT));
                    for (int j = 0; j < m[i].pointCount; ++j) ENSURE_NEAR(m[i].points[j].separation, -0.01, TIGHT);
                    points += m[i].pointCount;
                }
                ENSURE(points >= (k == 2 ? 1 : k == 3 ? 2 : 3));
            }
        }
    // a sphere on the diagonal edge of two triangles, on it, beside it, sunk to its centre: one side only
    fcMesh* square = Square(5);
    fcGeometry sq = MeshGeom(square);
    fcVec3 centres[4] = {{0, 0, 0.49}, {0.02, -0.02, 0.49}, {-0.3, 0.3, 0.45}, {0.1, 0.1, 0}};
    for (int c = 0; c < 4; ++c) {
        int n = fcCollide(&sq, At(0, 0, 0), &s, AtQ(centres[c], fcQuat_Identity()), 0, NULL, m, 8);
        ENSURE(c == 1 || c == 2 ? n == 1 : n >= 1);  // beside the edge only the triangle below reports
        for (int i = 0; i < n; ++i) {
            ENSURE(Near3(m[i].normal, fcV3(0, 0, 1), TIGHT));
            ENSURE_NEAR(m[i].points[0].separation, centres[c].z - 0.5, TIGHT);
        }
    }
    // the boundary edge is real: a sphere beside the square's outer edge is pushed sideways and up
    int n = fcCollide(&sq, At(0, 0, 0), &s, At(5.3, 0, 0.4), 0.01, NULL, m, 8);
    ENSURE(n == 1 && Near3(m[0].normal, fcV3(0.6, 0, 0.8), TIGHT));
    ENSURE_NEAR(m[0].points[0].separation, 0.0, TIGHT);
    n = fcCollide(&sq, At(0, 0, 0), &s, At(5.2, 0, 0.3), 0, NULL, m, 8);
    ENSURE(n == 1 && Near3(m[0].normal, fcVec3_Normalize(fcV3(0.2, 0, 0.3)), TIGHT));
    // the same grid as a triangle soup (every triangle its own three vertices, as exporters split them):
    // neighbours are found by position, so only the 32 outer edges are boundaries and nothing catches
    static fcVec3 soupV[128 * 3];
    static int soupI[128 * 3];
    for (int t = 0; t < 128; ++t) {
        fcMesh_GetTriangle(grid, t, &soupV[3 * t], &soupV[3 * t + 1], &soupV[3 * t + 2]);
        for (int c = 0; c < 3; ++c) soupI[3 * t + c] = 3 * t + c;
    }
    fcMesh* soup = fcMesh_Create(soupV, 128 * 3, soupI, 128, NULL, 0);
    ENSURE(soup != NULL);
    int boundary = 0;
    for (int e = 0; e < 3 * 128; ++e) boundary += soup->neighbors[e] < 0;
    ENSURE(boundary == 32);
    fcGeometry gs = MeshGeom(soup);
    for (int step = 0; step <= 20; ++step) {
        fcReal x = -1 + step * 0.1;
        n = fcCollide(&gs, At(0, 0, 0), &box, AtQ(fcV3(x, 0.37 * x, 0.29), turns[1]), 0, NULL, m, 32);
        ENSURE(n >= 1);
        for (int i = 0; i < n; ++i) ENSURE(Near3(m[i].normal, fcV3(0, 0, 1), TIGHT));
    }
    fcMesh_Destroy(soup);
    fcHull_Destroy(cube);
    fcMesh_Destroy(square);
    fcMesh_Destroy(grid);
    return 0;
}

static int test_mesh_refuses(void)
{
    char why[160];
    fcVec3 v[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    int bad[6] = {0, 1, 2, 1, 7, 2};
    ENSURE(fcMesh_Create(v, 4, bad, 2, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "index 4 (triangle 1, corner 1) is 7") != NULL);
    int neg[3] = {0, -1, 2};
    ENSURE(fcMesh_Create(v, 4, neg, 1, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "index 1 (triangle 0, corner 1) is -1") != NULL);
    int ok[6] = {0, 1, 2, 1, 3, 2};
    ENSURE(fcMesh_Create(v, 4, ok, 0, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "at least one triangle") != NULL);
    v[3].z = INFINITY;
    ENSURE(fcMesh_Create(v, 4, ok, 2, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "vertex 3 is not finite") != NULL);
    v[3] = fcV3(2, 0, 0);  // collinear with 0 and 1: triangle (1, 3, 2) is fine, (0, 1, 3) has no area
    int some[9] = {0, 1, 2, 0, 1, 3, 1, 1, 2};
    fcMesh* mesh = fcMesh_Create(v, 4, some, 3, why, (int)sizeof why);
    ENSURE(mesh != NULL && fcMesh_GetTriangleCount(mesh) == 1);
    fcVec3 a, b, c;
    fcMesh_GetTriangle(mesh, 0, &a, &b, &c);
    ENSURE(Near3(a, v[0], 0) && Near3(b, v[1], 0) && Near3(c, v[2], 0));
    fcMesh_Destroy(mesh);
    int none[6] = {0, 1, 3, 2, 2, 2};
    ENSURE(fcMesh_Create(v, 4, none, 2, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "zero area") != NULL);
    v[2] = fcV3(0, 1e300, 0);  // refused for its size (it was called zero area: the cross product overflowed)
    ENSURE(fcMesh_Create(v, 4, ok, 2, why, (int)sizeof why) == NULL);
    ENSURE(strstr(why, "vertex 2 (0, 1e+300, 0) is too far out") != NULL);
    return 0;
}

static bool CountVisit(int t, void* context)
{
    int* c = context;
    c[0]++;
    c[1 + t] = 1;
    return true;
}

static int test_mesh_query(void)
{
    fcMesh* grid = Grid(8);
    // the box over one unit square (slightly inside it) meets that square's 2 triangles only
    int counts[1 + 128];
    memset(counts, 0, sizeof counts);
    fcAabb box = {fcV3(0.1, 0.1, -1), fcV3(0.9, 0.9, 1)};
    fcMesh_Query(grid, box, CountVisit, counts);
    ENSURE(counts[0] == 2);
    // brute force over all triangles agrees for a bigger box
    memset(counts, 0, sizeof counts);
    fcAabb big = {fcV3(-1.5, -0.5, -1), fcV3(2.2, 1.7, 0)};
    fcMesh_Query(grid, big, CountVisit, counts);
    int expected = 0;
    for (int t = 0; t < 128; ++t) {
        fcVec3 a, b, c;
        fcMesh_GetTriangle(grid, t, &a, &b, &c);
        fcReal lx = fmin(a.x, fmin(b.x, c.x)), hx = fmax(a.x, fmax(b.x, c.x));
        fcReal ly = fmin(a.y, fmin(b.y, c.y)), hy = fmax(a.y, fmax(b.y, c.y));
        bool hit = lx <= big.hi.x && hx >= big.lo.x && ly <= big.hi.y && hy >= big.lo.y;
        expected += hit;
        ENSURE(counts[1 + t] == hit);
    }
    ENSURE(counts[0] == expected && expected > 10);
    fcMesh_Destroy(grid);
    return 0;
}

// ---- ray casts -------------------------------------------------------------------------------------------------------

static int test_ray_casts(void)
{
    fcHull* cube = MakeBoxHull(1, 1, 1);
    fcGeometry h = HullGeom(cube);
    fcRayHitGeometry hit;
    ENSURE(fcGeometry_RayCast(&h, At(0, 0, 0), fcV3(-5, 0.2, 0.3), fcV3(1, 0, 0), 10, &hit));
    ENSURE_NEAR(hit.distance, 4, TIGHT);
    ENSURE(Near3(hit.normal, fcV3(-1, 0, 0), TIGHT));
    // turned 30 degrees about z: the ray meets the face of normal -(cos 30, sin 30) at x = -1 / cos 30
    fcQuat q = fcQuat_FromAxisAngle(fcV3(0, 0, 1), 0.52359877559829887);
    ENSURE(fcGeometry_RayCast(&h, AtQ(fcV3(0, 0, 0), q), fcV3(-10, 0, 0), fcV3(1, 0, 0), 20, &hit));
    ENSURE_NEAR(hit.distance, 10 - 1 / FC_COS(0.52359877559829887), TIGHT);
    ENSURE(Near3(hit.normal, fcV3(-FC_COS(0.52359877559829887), -FC_SIN(0.52359877559829887), 0), TIGHT));
    ENSURE(!fcGeometry_RayCast(&h, AtQ(fcV3(0, 0, 0), q), fcV3(-10, 0, 0), fcV3(1, 0, 0), 8, &hit));  // too short
    ENSURE(!fcGeometry_RayCast(&h, At(0, 0, 0), fcV3(-5, 1.5, 0), fcV3(1, 0, 0), 10, &hit));           // passes by
    ENSURE(!fcGeometry_RayCast(&h, At(0, 0, 0), fcV3(-5, 0, 0), fcV3(-1, 0, 0), 10, &hit));            // away
    ENSURE(fcGeometry_RayCast(&h, At(0, 0, 0), fcV3(0.5, 0, 0), fcV3(0, 1, 0), 10, &hit));             // inside
    ENSURE(hit.distance == 0 && Near3(hit.normal, fcV3(0, -1, 0), 0));

    fcMesh* ground = Grid(8);
    fcGeometry g = MeshGeom(ground);
    fcVec3 d = fcVec3_Normalize(fcV3(0.3, -0.2, -1));
    ENSURE(fcGeometry_RayCast(&g, At(0, 0, -1), fcV3(0.25, 0.35, 2), d, 10, &hit));
    ENSURE_NEAR(hit.distance, 3 / -d.z, TIGHT);
    ENSURE(Near3(hit.normal, fcV3(0, 0, 1), TIGHT));
    // the hit point's triangle is the key
    fcVec3 p = fcVec3_MulAdd(fcV3(0.25, 0.35, 2), hit.distance, d);
    fcVec3 a, b, c;
    fcMesh_GetTriangle(ground, (int)hit.key, &a, &b, &c);
    ENSURE(p.x >= fmin(a.x, fmin(b.x, c.x)) - TIGHT && p.x <= fmax(a.x, fmax(b.x, c.x)) + TIGHT);
    ENSURE(p.y >= fmin(a.y, fmin(b.y, c.y)) - TIGHT && p.y <= fmax(a.y, fmax(b.y, c.y)) + TIGHT);
    // from below, the normal faces the ray
    ENSURE(fcGeometry_RayCast(&g, At(0, 0, -1), fcV3(0.5, 0.5, -3), fcV3(0, 0, 1), 10, &hit));
    ENSURE_NEAR(hit.distance, 2, TIGHT);
    ENSURE(Near3(hit.normal, fcV3(0, 0, -1), TIGHT));
    ENSURE(!fcGeometry_RayCast(&g, At(0, 0, -1), fcV3(0.5, 0.5, -3), fcV3(0, 0, 1), 1.5, &hit));
    ENSURE(!fcGeometry_RayCast(&g, At(0, 0, -1), fcV3(5.5, 0.5, 3), fcV3(0, 0, -1), 10, &hit));  // beside the grid
    // a turned mesh
    fcQuat qm = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 1.5707963267948966);  // the grid becomes the plane x = 3
    ENSURE(fcGeometry_RayCast(&g, AtQ(fcV3(3, 0, 0), qm), fcV3(0, 0.2, 0.3), fcV3(1, 0, 0), 10, &hit));
    ENSURE_NEAR(hit.distance, 3, TIGHT);
    ENSURE(Near3(hit.normal, fcV3(-1, 0, 0), TIGHT));
    fcMesh_Destroy(ground);
    fcHull_Destroy(cube);
    return 0;
}

// ---- shape casts -----------------------------------------------------------------------------------------------------

static int test_shape_casts(void)
{
    fcGeometry s = Sphere(0.5), b = Box(1, 1, 1);
    fcReal f;
    fcVec3 p, n;
    // onto the face: the centre stops at x = -1.5
    ENSURE(fcGeometry_ShapeCast(&s, At(-5, 0.3, 0.2), fcV3(10, 0, 0), &b, At(0, 0, 0), &f, &p, &n, NULL));
    ENSURE_NEAR(f, 0.35, TIGHT);
    ENSURE(Near3(n, fcV3(1, 0, 0), TIGHT) && Near3(p, fcV3(-1, 0.3, 0.2), (10 * TIGHT)));
    // onto the edge x = -1, y = 1: the centre stops sqrt(0.5^2 - 0.2^2) short of it
    ENSURE(fcGeometry_ShapeCast(&s, At(-5, 1.2, 0), fcV3(10, 0, 0), &b, At(0, 0, 0), &f, &p, &n, NULL));
    ENSURE_NEAR(f, (4 - FC_SQRT(0.21)) / 10, (100 * TIGHT));
    ENSURE(Near3(n, fcVec3_Normalize(fcV3(FC_SQRT(0.21), -0.2, 0)), CLOSE));
    // diagonally onto a turned hull's face
    fcHull* cube = MakeBoxHull(1, 1, 1);
    fcGeometry h = HullGeom(cube);
    fcQuat q = fcQuat_FromAxisAngle(fcV3(0, 0, 1), 0.3);
    fcVec3 nx = fcQuat_Rotate(q, fcV3(1, 0, 0));
    fcVec3 start = fcVec3_Scale(6, nx), T = fcVec3_Scale(-8, nx);
    ENSURE(fcGeometry_ShapeCast(&s, At(start.x, start.y, 0.1), T, &h, AtQ(fcV3(0, 0, 0), q), &f, &p, &n, NULL));
    ENSURE_NEAR(f, 4.5 / 8, TIGHT);
    ENSURE(Near3(n, fcVec3_Neg(nx), TIGHT));
    // misses, moving away, too short, overlapping at the start
    ENSURE(!fcGeometry_ShapeCast(&s, At(-5, 3, 0), fcV3(10, 0, 0), &b, At(0, 0, 0), &f, &p, &n, NULL));
    ENSURE(!fcGeometry_ShapeCast(&s, At(-5, 0, 0), fcV3(-10, 0, 0), &b, At(0, 0, 0), &f, &p, &n, NULL));
    ENSURE(!fcGeometry_ShapeCast(&s, At(-5, 0, 0), fcV3(3, 0, 0), &b, At(0, 0, 0), &f, &p, &n, NULL));
    ENSURE(!fcGeometry_ShapeCast(&s, At(-1.2, 0, 0), fcV3(3, 0, 0), &b, At(0, 0, 0), &f, &p, &n, NULL) && f == 0);
    // a box dropped on a plane and on a mesh; a cylinder dropped on a hull
    fcGeometry pl = Plane(), cyl = Cylinder(0.5, 1);
    ENSURE(fcGeometry_ShapeCast(&b, At(0, 0, 5), fcV3(0, 0, -8), &pl, At(0, 0, 0), &f, &p, &n, NULL));
    ENSURE_NEAR(f, 0.5, EXACT);
    ENSURE(Near3(n, fcV3(0, 0, -1), 0));
    fcMesh* grid = Grid(8);
    fcGeometry g = MeshGeom(grid);
    ENSURE(fcGeometry_ShapeCast(&s, At(0.3, 0.1, 5), fcV3(0, 0, -8), &g, At(0, 0, 1), &f, &p, &n, NULL));
    ENSURE_NEAR(f, 3.5 / 8, TIGHT);
    ENSURE(Near3(n, fcV3(0, 0, -1), TIGHT) && Near3(p, fcV3(0.3, 0.1, 1), (10 * TIGHT)));
    ENSURE(fcGeometry_ShapeCast(&cyl, At(0.2, 0, 5), fcV3(0, 0, -8), &h, At(0, 0, 0), &f, &p, &n, NULL));
    ENSURE_NEAR(f, 3.0 / 8, TIGHT);
    fcMesh_Destroy(grid);
    fcHull_Destroy(cube);
    return 0;
}

// ---- resting in a world ----------------------------------------------------------------------------------------------

static fcBodyId AddBody(fcWorldId w, fcBodyType type, fcVec3 p, fcQuat q, const fcShapeDef* sd)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = type;
    bd.position = p;
    bd.orientation = q;
    fcBodyId b = fcCreateBody(w, &bd);
    fcCreateShape(b, sd);
    return b;
}

// a static body at position holding the mesh of these triangles (vertices in the body's frame)
static fcBodyId AddStaticMesh(fcWorldId w, const fcVec3* v, int vertexCount, const int* idx, int triangleCount,
                              fcVec3 position, double friction)
{
    fcShapeDef gd = fcDefaultShapeDef();
    gd.type = fc_meshShape;
    gd.vertices = v;
    gd.vertexCount = vertexCount;
    gd.indices = idx;
    gd.triangleCount = triangleCount;
    gd.friction = friction;
    return AddBody(w, fc_staticBody, position, fcQuat_Identity(), &gd);
}

// a static square mesh of two triangles (their shared edge the diagonal from (-half, -half) to (half, half)) at
// height z, its body at bodyPosition (the vertices are given in the world)
static fcBodyId AddSquareMesh(fcWorldId w, double half, double z, fcVec3 bodyPosition)
{
    fcVec3 v[4] = {{-half, -half, z}, {half, -half, z}, {half, half, z}, {-half, half, z}};
    for (int i = 0; i < 4; ++i) v[i] = fcVec3_Sub(v[i], bodyPosition);
    int idx[6] = {0, 1, 2, 0, 2, 3};
    return AddStaticMesh(w, v, 4, idx, 2, bodyPosition, fcDefaultShapeDef().friction);
}

// a static mesh of 8 x 8 squares of the given size, two triangles each, centred on the origin at z = 0
static fcBodyId AddGridMesh(fcWorldId w, double size, double friction)
{
    fcVec3 v[81];
    int idx[8 * 8 * 6], k = 0;
    for (int j = 0; j <= 8; ++j)
        for (int i = 0; i <= 8; ++i) v[j * 9 + i] = fcV3((i - 4) * size, (j - 4) * size, 0);
    for (int j = 0; j < 8; ++j)
        for (int i = 0; i < 8; ++i) {
            int a = j * 9 + i, b = a + 1, c = a + 10, d = a + 9;
            idx[k++] = a, idx[k++] = b, idx[k++] = c, idx[k++] = a, idx[k++] = c, idx[k++] = d;
        }
    return AddStaticMesh(w, v, 81, idx, 128, fcV3(0, 0, 0), friction);
}

// normal force (N, +z on body) from all of body's contacts with other
static double ForceZ(fcBodyId body, fcBodyId other)
{
    fcContactData c[32];
    int n = fcBody_GetContacts(body, c, 32);
    double f = 0;
    for (int i = 0; i < n && i < 32; ++i) {
        bool ab = c[i].bodyA.index1 == other.index1 && c[i].bodyB.index1 == body.index1;
        bool ba = c[i].bodyB.index1 == other.index1 && c[i].bodyA.index1 == body.index1;
        if (ab) f += c[i].force.z;
        if (ba) f -= c[i].force.z;
    }
    return f;
}

static int test_world_resting_on_hulls_and_meshes(void)
{
    // the solver warm-starts by point ids: a hull stack over the mesh's internal edges, a cylinder standing on
    // a hull slab and a capsule lying across triangles all come to rest and stay there
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyId ground = AddGridMesh(w, 1, fcDefaultShapeDef().friction);
    fcVec3 corners[8];
    for (int i = 0; i < 8; ++i) corners[i] = fcV3(i & 1 ? 0.25 : -0.25, i & 2 ? 0.25 : -0.25, i & 4 ? 0.25 : -0.25);
    fcShapeDef hd = fcDefaultShapeDef();
    hd.type = fc_hullShape;
    hd.points = corners;
    hd.pointCount = 8;
    fcBodyId bodies[8];
    int n = 0;
    for (int i = 0; i < 4; ++i)  // over the grid corner (-2, -2): four triangles' shared edges below
        bodies[n++] = AddBody(w, fc_dynamicBody, fcV3(-1.97, -2.04, 0.25 + 0.5 * i), fcQuat_Identity(), &hd);
    fcVec3 slabPts[8];
    for (int i = 0; i < 8; ++i) slabPts[i] = fcV3(i & 1 ? 0.8 : -0.8, i & 2 ? 0.8 : -0.8, i & 4 ? 0.1 : -0.1);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_hullShape;
    sd.points = slabPts;
    sd.pointCount = 8;
    bodies[n++] = AddBody(w, fc_dynamicBody, fcV3(1.5, 1.5, 0.1), fcQuat_Identity(), &sd);
    fcShapeDef cd = fcDefaultShapeDef();
    cd.type = fc_cylinderShape;
    cd.radius = 0.3;
    cd.halfHeight = 0.4;
    bodies[n++] = AddBody(w, fc_dynamicBody, fcV3(1.6, 1.4, 0.6), fcQuat_Identity(), &cd);
    fcShapeDef pd = fcDefaultShapeDef();
    pd.type = fc_capsuleShape;
    pd.radius = 0.2;
    pd.halfHeight = 0.6;
    bodies[n++] = AddBody(w, fc_dynamicBody, fcV3(2.02, -1.5, 0.2), fcQuat_FromAxisAngle(fcV3(0.3, 1, 0), 1.5707963267948966), &pd);
    fcVec3 settled[8];
    double deepest = 0;
    for (int i = 0; i < 600; ++i) {
        ENSURE(fcWorld_Step(w));
        if (i == 119)
            for (int b = 0; b < n; ++b) settled[b] = fcBody_GetPosition(bodies[b]);
        if (i >= 120) deepest = fmax(deepest, fcWorld_GetStats(w).maxPenetration);
    }
    double drift = 0;
    for (int b = 0; b < n; ++b) {
        drift = fmax(drift, fcVec3_Distance(fcBody_GetPosition(bodies[b]), settled[b]));
        ENSURE_LE(fcVec3_Length(fcBody_GetLinearVelocity(bodies[b])), 1e-3);
    }
    printf("  resting on hulls and meshes: drift %.3g m from 2 s to 10 s, deepest penetration %.3g m\n", drift, deepest);
    ENSURE_LE(drift, 0.005);
    ENSURE_LE(deepest, 0.01);
    // the mesh carries the stack's weight (4 cubes of 125 kg) through several triangles
    double weight = 4 * 125 * 9.81;
    ENSURE_NEAR(ForceZ(bodies[0], ground), weight, 0.01 * weight);
    ENSURE_NEAR(fcBody_GetPosition(bodies[3]).z, 1.75, 0.02);
    ENSURE_NEAR(fcBody_GetPosition(bodies[5]).z, 0.6, 0.02);
    fcDestroyWorld(w);
    return 0;
}

// the events of the last step of this type with the sensor as shapeA (as fulcrum.h promises) and visitor as shapeB
static int CountSensorEvents(fcWorldId w, fcEventType type, fcShapeId sensor, fcShapeId visitor)
{
    int count = 0;
    for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
        fcConstraintEvent ev = fcWorld_GetEvent(w, e);
        if (ev.type == type && FC_ID_EQUALS(ev.shapeA, sensor) && FC_ID_EQUALS(ev.shapeB, visitor)) count += 1;
    }
    return count;
}

// steps the world, adding up the sensor's begin and end events with the visitor
static bool StepCountingSensorEvents(fcWorldId w, int steps, fcShapeId sensor, fcShapeId visitor, int* begins, int* ends)
{
    for (int i = 0; i < steps; ++i) {
        if (!fcWorld_Step(w)) return false;
        *begins += CountSensorEvents(w, fc_eventSensorBegin, sensor, visitor);
        *ends += CountSensorEvents(w, fc_eventSensorEnd, sensor, visitor);
    }
    return true;
}

// A sensor over a mesh overlaps where any triangle pierces it, whichever triangle the mesh visits first: a flat
// grid of 32 triangles lies 1 cm under the sensor box's bottom (within the pair's margin, not overlapping) and one
// tilted triangle, the mesh's last, rises 1 cm into it; the 33 triangles' manifolds merge into the pair's room, and
// the spike's overlap must survive that. The sensor is on a kinematic body moved by hand over a static mesh: such a
// pair has no dynamic body, and was once left out of the narrowphase (no event at all); and its events name the
// sensor as shapeA, as fulcrum.h says, whichever shape the pair holds first (they named the mesh).
static int test_sensor_on_mesh(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    fcWorldId w = fcCreateWorld(&wd);
    fcVec3 v[25 + 3];
    int idx[(32 + 1) * 3], k = 0;
    for (int j = 0; j <= 4; ++j)
        for (int i = 0; i <= 4; ++i) v[j * 5 + i] = fcV3(i - 2, j - 2, 0);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) {
            int a = j * 5 + i, b = a + 1, c = a + 6, d = a + 5;
            idx[k++] = a, idx[k++] = b, idx[k++] = c, idx[k++] = a, idx[k++] = c, idx[k++] = d;
        }
    // the spike, last in the mesh: its apex 2 cm above the grid, its normal tilted away from the grid's
    v[25] = fcV3(0.3, 0.2, -0.1), v[26] = fcV3(0.7, 0.2, -0.1), v[27] = fcV3(0.5, 0.4, 0.02);
    idx[k++] = 25, idx[k++] = 26, idx[k++] = 27;
    fcShapeId mesh = fcBody_GetShape(AddStaticMesh(w, v, 28, idx, 33, fcV3(0, 0, 0), fcDefaultShapeDef().friction), 0);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_boxShape;
    sd.halfExtents = fcV3(1.2, 1.2, 0.5);
    sd.isSensor = true;
    fcBodyId body = AddBody(w, fc_kinematicBody, fcV3(0.1, 0, 0.51), fcQuat_Identity(), &sd);
    fcShapeId sensor = fcBody_GetShape(body, 0);
    int begins = 0, ends = 0;
    ENSURE(StepCountingSensorEvents(w, 3, sensor, mesh, &begins, &ends));
    ENSURE(begins == 1 && ends == 0);
    // the spike moved out from under the box (the grid still 1 cm below): the sensor is left
    ENSURE(fcBody_SetTransform(body, fcV3(2.0, 0, 0.51), fcQuat_Identity()));
    ENSURE(StepCountingSensorEvents(w, 3, sensor, mesh, &begins, &ends));
    ENSURE(begins == 1 && ends == 1);
    // back over it, and sunk 2 cm so that the grid pierces the box as well
    ENSURE(fcBody_SetTransform(body, fcV3(0.1, 0, 0.49), fcQuat_Identity()));
    ENSURE(StepCountingSensorEvents(w, 1, sensor, mesh, &begins, &ends));
    ENSURE(begins == 2 && ends == 1);
    // lifted 3 cm over the spike's apex: out
    ENSURE(fcBody_SetTransform(body, fcV3(0.1, 0, 0.54), fcQuat_Identity()));
    ENSURE(StepCountingSensorEvents(w, 1, sensor, mesh, &begins, &ends));
    ENSURE(begins == 2 && ends == 2);
    fcDestroyWorld(w);
    return 0;
}

// the hits of a shape cast in the order reported; returns the hit's fraction (it clips the sweep to there)
typedef struct SweepHits {
    int count;
    double fraction[8];
    int triangle[8];
    fcBodyId body[8];
    fcVec3 point[8];
} SweepHits;

static fcReal RecordAndClip(const fcRayResult* hit, void* context)
{
    SweepHits* h = context;
    if (h->count < 8) {
        h->fraction[h->count] = hit->fraction;
        h->triangle[h->count] = hit->triangle;
        h->body[h->count] = hit->body;
        h->point[h->count] = hit->point;
    }
    h->count += 1;
    return hit->fraction;
}

// fcWorld_CastShape as fulcrum.h says: a sphere swept through a row of six boxes with a callback that clips the
// sweep at each hit reports nearer and nearer hits only, ending at the nearest (it reported all six); one started
// inside a box reports it at fraction 0 with no normal (it passed through); cast onto a mesh, the triangle (it
// said -1). A box swept face-first onto a box touches it on the face (the point was halfway back along the sweep).
static int test_world_shape_cast(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    fcWorldId w = fcCreateWorld(&wd);
    fcShapeDef bd = fcDefaultShapeDef();
    bd.type = fc_boxShape;
    bd.halfExtents = fcV3(0.5, 0.5, 0.5);
    for (int k = 0; k < 6; ++k) AddBody(w, fc_staticBody, fcV3(3 + 2 * k, 0, 0), fcQuat_Identity(), &bd);
    fcShapeDef ball = fcDefaultShapeDef();
    ball.radius = 0.25;
    SweepHits hits = {0};
    ENSURE(fcWorld_CastShape(w, &ball, fcV3(0, 0, 0), fcQuat_Identity(), fcV3(20, 0, 0), fcDefaultQueryFilter(), RecordAndClip, &hits));
    ENSURE(hits.count >= 1 && hits.count <= 6);
    for (int i = 1; i < hits.count; ++i) ENSURE(hits.fraction[i] <= hits.fraction[i - 1]);
    ENSURE_NEAR(hits.fraction[hits.count - 1], 2.25 / 20, 1e-9);  // the first box's face at x = 2.5
    hits.count = 0;
    ENSURE(fcWorld_CastShape(w, &ball, fcV3(3.2, 0, 0), fcQuat_Identity(), fcV3(0, 5, 0), fcDefaultQueryFilter(), RecordAndClip, &hits));
    ENSURE(hits.count == 1 && hits.fraction[0] == 0 && hits.triangle[0] == -1);
    AddBody(w, fc_staticBody, fcV3(0, 0, -5), fcQuat_Identity(), &bd);
    hits.count = 0;
    ENSURE(fcWorld_CastShape(w, &bd, fcV3(0.2, 0.1, 0), fcQuat_Identity(), fcV3(0, 0, -10), fcDefaultQueryFilter(), RecordAndClip, &hits));
    ENSURE(hits.count == 1);
    ENSURE_NEAR(hits.fraction[0], 0.4, 1e-9);
    ENSURE_NEAR(hits.point[0].z, -4.5, 1e-9);  // on the top face, within the faces' overlap
    ENSURE(fabs(hits.point[0].x) <= 0.5 + 1e-9 && hits.point[0].x >= -0.3 - 1e-9);
    ENSURE(fabs(hits.point[0].y) <= 0.5 + 1e-9 && hits.point[0].y >= -0.4 - 1e-9);
    fcDestroyWorld(w);

    w = fcCreateWorld(&wd);
    fcBodyId ground = AddSquareMesh(w, 2, 0, fcV3(0, 0, 0));
    hits.count = 0;
    ENSURE(fcWorld_CastShape(w, &ball, fcV3(1, -1, 3), fcQuat_Identity(), fcV3(0, 0, -6), fcDefaultQueryFilter(), RecordAndClip, &hits));
    ENSURE(hits.count == 1 && FC_ID_EQUALS(hits.body[0], ground) && hits.triangle[0] == 0);  // below the diagonal x = y
    ENSURE_NEAR(hits.fraction[0], 2.75 / 6, 1e-9);
    hits.count = 0;
    ENSURE(fcWorld_CastShape(w, &ball, fcV3(-1, 1, 3), fcQuat_Identity(), fcV3(0, 0, -6), fcDefaultQueryFilter(), RecordAndClip, &hits));
    ENSURE(hits.count == 1 && hits.triangle[0] == 1);
    fcDestroyWorld(w);
    return 0;
}

// A mesh's triangles are named by their index in the user's mesh, also when degenerate ones were dropped: a square
// of two triangles given as triangles 1 and 3, with zero-area triangles 0 and 2, reports 1 and 3 for a ray, a
// resting box's contact, a sweep and the closest point (it reported the kept triangles' count: 0 and 1)
static int test_mesh_names_the_users_triangles(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    fcVec3 v[4] = {{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}};
    int idx[12] = {0, 0, 1, 0, 1, 2, 1, 1, 1, 0, 2, 3};
    AddStaticMesh(w, v, 4, idx, 4, fcV3(0, 0, 0), 0.6);
    // (1, -1) is below the diagonal x = y: triangle 1; (-1, 1) above it: triangle 3
    ENSURE(fcWorld_CastRayClosest(w, fcV3(1, -1, 1), fcV3(0, 0, -2), fcDefaultQueryFilter()).triangle == 1);
    ENSURE(fcWorld_CastRayClosest(w, fcV3(-1, 1, 1), fcV3(0, 0, -2), fcDefaultQueryFilter()).triangle == 3);
    ENSURE(fcWorld_ClosestPoint(w, fcV3(-1, 1, 0.5), 1, fcDefaultQueryFilter()).triangle == 3);
    fcShapeDef ball = fcDefaultShapeDef();
    ball.radius = 0.25;
    SweepHits hits = {0};
    ENSURE(fcWorld_CastShape(w, &ball, fcV3(1, -1, 3), fcQuat_Identity(), fcV3(0, 0, -6), fcDefaultQueryFilter(), RecordAndClip, &hits));
    ENSURE(hits.count == 1 && hits.triangle[0] == 1);
    fcShapeDef bd = fcDefaultShapeDef();
    bd.type = fc_boxShape;
    bd.halfExtents = fcV3(0.25, 0.25, 0.25);
    fcBodyId box = AddBody(w, fc_dynamicBody, fcV3(-1, 1, 0.25), fcQuat_Identity(), &bd);
    for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
    fcContactData c[4];
    ENSURE(fcBody_GetContacts(box, c, 4) == 1 && c[0].triangle == 3);
    fcDestroyWorld(w);
    return 0;
}

// The deepest overlap the engine reports counts real points only. A block's lanes hold manifolds of different
// point counts (boxes over a mesh's triangles: 4 points on one triangle, 2 and 2 across a diagonal); a lane's
// empty slots measured the distance between the bodies' origins along the normal, which with the mesh's body 3 m
// above its triangles was a false overlap of metres, and kept the position pass sweeping.
static int test_reported_penetration_counts_real_points(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    AddSquareMesh(w, 4, 0, fcV3(0, 0, 3));
    fcShapeDef bd = fcDefaultShapeDef();
    bd.type = fc_boxShape;
    bd.halfExtents = fcV3(0.25, 0.25, 0.25);
    fcBodyId across = AddBody(w, fc_dynamicBody, fcV3(0, 0, 0.25), fcQuat_Identity(), &bd);  // over the diagonal
    AddBody(w, fc_dynamicBody, fcV3(2, -2, 0.25), fcQuat_Identity(), &bd);                   // on one triangle
    AddBody(w, fc_dynamicBody, fcV3(-2, 2, 0.25), fcQuat_Identity(), &bd);                   // on the other
    double deepest = 0;
    int fewer = 0;
    for (int i = 0; i < 120; ++i) {
        ENSURE(fcWorld_Step(w));
        deepest = fmax(deepest, fcWorld_GetStats(w).maxPenetration);
        fcContactData c[4];
        int n = fcBody_GetContacts(across, c, 4);
        for (int k = 0; k < n && k < 4; ++k) fewer += c[k].pointCount < 4;
    }
    ENSURE(fewer > 0);  // the box across the diagonal has manifolds of fewer than 4 points
    printf("  reported penetration with lanes of 4 and of fewer points: %.3g m\n", deepest);
    ENSURE_LE(deepest, 0.01);
    ENSURE_NEAR(fcBody_GetPosition(across).z, 0.25, 0.01);
    fcDestroyWorld(w);
    return 0;
}

// A thin cylinder dropped tumbling onto a mesh lies down on it as on the plane. Tilted between standing and lying,
// it used to meet a triangle with its one deepest point: it pivoted about it, its other end sank 3 cm into the
// triangle at the next step, and it fell through (z = -451 m after 10 s).
static int test_cylinder_lies_down_on_mesh(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    AddSquareMesh(w, 5, 0, fcV3(0, 0, 0));
    fcShapeDef cd = fcDefaultShapeDef();
    cd.type = fc_cylinderShape;
    cd.radius = 0.024353844818403244;
    cd.halfHeight = 0.13625889626508694;
    fcQuat q = fcQuat_Normalize((fcQuat){-0.18077392388382102, -0.6926364751587225, -0.6220822268029996, 0.3171580123836824});
    fcBodyId rod = AddBody(w, fc_dynamicBody, fcV3(-0.24696687436404918, 0.17840629267961572, 0.7183834082977113), q, &cd);
    double deepest = 0;
    for (int i = 0; i < 300; ++i) {
        ENSURE(fcWorld_Step(w));
        deepest = fmax(deepest, fcWorld_GetStats(w).maxPenetration);
    }
    printf("  cylinder on a mesh: at rest z = %.5f m (radius %.5f), deepest overlap %.3g m\n", fcBody_GetPosition(rod).z, cd.radius, deepest);
    ENSURE_NEAR(fcBody_GetPosition(rod).z, cd.radius, 1e-3);  // lying on its side
    ENSURE_LE(fcVec3_Length(fcBody_GetLinearVelocity(rod)), 1e-3);
    ENSURE_LE(deepest, 0.005);
    fcDestroyWorld(w);
    return 0;
}

// A tower of nine yawed boxes of densities 100 to 5000 on a mesh (from a stress run): the light box at the bottom
// carries some 30 times its weight... up to 700 times, more than Gauss-Seidel's sweeps hold, and is pressed until
// its centre passes below the triangles' plane. It was then pushed to the side its centre was on, down through
// the mesh (z = -410 m); the triangles it touched keep pushing it up (fcCollideHistory), as the plane does.
static int test_crushed_box_stays_on_mesh(void)
{
    static const struct { fcVec3 p, half; double density, friction; fcQuat q; } tower[9] = {
        {{-0.0343, 0.0173, 0.1359}, {0.3798, 0.4045, 0.1281}, 100, 0.8, {0.999616, 0, 0, -0.027710}},
        {{-0.0194, -0.0431, 0.4503}, {0.4500, 0.4757, 0.1784}, 5000, 1.0, {0.988796, 0, 0, -0.149270}},
        {{0.0453, 0.0215, 0.7957}, {0.5223, 0.5952, 0.1620}, 500, 1.0, {0.992334, 0, 0, -0.123584}},
        {{-0.0165, 0.0331, 1.3629}, {0.4809, 0.5406, 0.4024}, 5000, 0.5, {0.997929, 0, 0, 0.064332}},
        {{0.0124, -0.0199, 2.1969}, {0.4786, 0.4656, 0.4267}, 1000, 1.0, {0.996464, 0, 0, 0.084022}},
        {{-0.0357, 0.0344, 2.8732}, {0.4675, 0.5531, 0.2428}, 5000, 0.5, {0.999314, 0, 0, -0.037023}},
        {{0.0379, -0.0226, 3.4830}, {0.4016, 0.3560, 0.3571}, 500, 1.0, {0.999558, 0, 0, -0.029731}},
        {{0.0103, 0.0251, 4.1700}, {0.3678, 0.4037, 0.3233}, 5000, 0.8, {0.999821, 0, 0, 0.018918}},
        {{0.0101, 0.0107, 4.6728}, {0.3748, 0.3305, 0.1717}, 5000, 1.0, {0.998766, 0, 0, -0.049661}},
    };
    fcWorldDef wd = fcDefaultWorldDef();
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    AddGridMesh(w, 2.5, 0.3);  // the tower stands over the corner where eight triangles meet
    fcBodyId bodies[9];
    for (int i = 0; i < 9; ++i) {
        fcShapeDef sd = fcDefaultShapeDef();
        sd.type = fc_boxShape;
        sd.halfExtents = tower[i].half;
        sd.density = tower[i].density;
        sd.friction = tower[i].friction;
        bodies[i] = AddBody(w, fc_dynamicBody, tower[i].p, fcQuat_Normalize(tower[i].q), &sd);
    }
    double lowest = 1;
    for (int i = 0; i < 300; ++i) {
        ENSURE(fcWorld_Step(w));
        for (int b = 0; b < 9; ++b) lowest = fmin(lowest, fcBody_GetPosition(bodies[b]).z);
    }
    printf("  a tower crushing its light bottom box on a mesh: lowest centre %.4f m\n", lowest);
    ENSURE(lowest > -0.1);  // crushed (its half height is 0.128 m), but not through
    fcDestroyWorld(w);
    return 0;
}

// Six squat cylinders (radius 9 cm, 8 cm tall) stacked cap on cap, on the plane and on a two-triangle mesh, stand
// (a stress run's stack). They fell within 6 s: a rocking cap-on-cap contact kept whichever rim point rounding
// made deepest, so the four points it kept turned about the axis from step to step, and a rim vertex just
// outside the other cap turned into a cut beside it with a new id; no impulse carried over, and the sweeps,
// starting from zero each step, tipped the stack further. Now the reduction keeps a flat set's first point
// (fcReduce) and a point with a new id takes the impulse of the last step's point where it is (fcContacts_Update).
static int test_cylinder_stack_stands(void)
{
    for (int onMesh = 0; onMesh < 2; ++onMesh) {
        fcWorldDef wd = fcDefaultWorldDef();
        wd.enableSleeping = false;
        fcWorldId w = fcCreateWorld(&wd);
        if (onMesh) {
            AddSquareMesh(w, 5, 0, fcV3(0, 0, 0));
        } else {
            fcShapeDef pd = fcDefaultShapeDef();
            pd.type = fc_planeShape;
            AddBody(w, fc_staticBody, fcV3(0, 0, 0), fcQuat_Identity(), &pd);
        }
        fcShapeDef cd = fcDefaultShapeDef();
        cd.type = fc_cylinderShape;
        cd.radius = 0.09;
        cd.halfHeight = 0.04;
        cd.density = 1000;
        cd.friction = 0.8;
        fcBodyId stack[6];
        for (int i = 0; i < 6; ++i) stack[i] = AddBody(w, fc_dynamicBody, fcV3(0, 0, 0.04 + 0.08 * i), fcQuat_Identity(), &cd);
        double tilt = 0;
        for (int step = 0; step < 1200; ++step) {
            ENSURE(fcWorld_Step(w));
            for (int i = 0; i < 6; ++i) {
                fcVec3 p = fcBody_GetPosition(stack[i]), top = fcBody_GetWorldPoint(stack[i], fcV3(0, 0, 1));
                tilt = fmax(tilt, acos(fmin(1, top.z - p.z)));
            }
        }
        fcVec3 p = fcBody_GetPosition(stack[5]);
        printf("  a stack of six cylinders on the %s, 20 s: most tilt %.3f deg, top moved %.2g m across, %.2g m down\n",
               onMesh ? "mesh" : "plane", tilt * 180 / 3.141592653589793, hypot(p.x, p.y), 0.44 - p.z);
        ENSURE_LE(tilt, 1.0 * 3.141592653589793 / 180);
        ENSURE_LE(hypot(p.x, p.y), 0.005);
        ENSURE_LE(0.44 - p.z, wd.contactSlop);
        fcDestroyWorld(w);
    }
    return 0;
}

static int test_world_sliding_over_internal_edges(void)
{
    // frictionless box and hull cube sliding diagonally across a flat grid mesh: an internal edge that caught
    // would kick them up or slow them down
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    AddGridMesh(w, 1, fcDefaultShapeDef().friction);
    fcVec3 corners[8];
    for (int i = 0; i < 8; ++i) corners[i] = fcV3(i & 1 ? 0.2 : -0.2, i & 2 ? 0.2 : -0.2, i & 4 ? 0.2 : -0.2);
    fcShapeDef hd = fcDefaultShapeDef();
    hd.type = fc_hullShape;
    hd.points = corners;
    hd.pointCount = 8;
    hd.friction = 0;
    fcShapeDef bd = fcDefaultShapeDef();
    bd.type = fc_boxShape;
    bd.halfExtents = fcV3(0.2, 0.2, 0.2);
    bd.friction = 0;
    fcBodyId bodies[2] = {AddBody(w, fc_dynamicBody, fcV3(-3, -2.5, 0.2), fcQuat_Identity(), &hd),
                          AddBody(w, fc_dynamicBody, fcV3(-3, -0.5, 0.2), fcQuat_FromAxisAngle(fcV3(0, 0, 1), 0.4), &bd)};
    fcVec3 v0 = fcV3(3, 1.1, 0);
    for (int b = 0; b < 2; ++b) fcBody_SetLinearVelocity(bodies[b], v0);
    double worstVz = 0, worstW = 0;
    for (int i = 0; i < 100; ++i) {
        ENSURE(fcWorld_Step(w));
        for (int b = 0; b < 2; ++b) {
            worstVz = fmax(worstVz, fabs(fcBody_GetLinearVelocity(bodies[b]).z));
            worstW = fmax(worstW, fcVec3_Length(fcBody_GetAngularVelocity(bodies[b])));
        }
    }
    printf("  sliding over internal edges: worst |v_z| %.3g m/s, worst |w| %.3g rad/s\n", worstVz, worstW);
    for (int b = 0; b < 2; ++b) {
        fcVec3 vb = fcBody_GetLinearVelocity(bodies[b]);
        ENSURE_NEAR(vb.x, v0.x, 0.01 * v0.x);
        ENSURE_NEAR(vb.y, v0.y, 0.01 * v0.x);
        ENSURE_NEAR(fcBody_GetPosition(bodies[b]).z, 0.2, 0.005);
    }
    ENSURE_LE(worstVz, 0.05);
    ENSURE_LE(worstW, 0.05);
    fcDestroyWorld(w);
    return 0;
}

// ---- cost ------------------------------------------------------------------------------------------------------------

static int test_cost_hull_hull_cubes(void)
{
    fcHull* cube = MakeBoxHull(0.5, 0.5, 0.5);
    fcGeometry a = HullGeom(cube);
    fcManifold m;
    fcQuat q = fcQuat_FromAxisAngle(fcV3(0, 0, 1), 0.3);
    int iterations = 200000, points = 0;
    double t0 = fcNowMs();
    for (int i = 0; i < iterations; ++i) {
        fcReal dz = 0.99 + 1e-7 * (i & 7);
        points += fcCollide(&a, At(0, 0, 0), &a, AtQ(fcV3(0.1, 0.05, dz), q), 0.01, NULL, &m, 1) ? m.pointCount : 0;
    }
    double ns = (fcNowMs() - t0) * 1e6 / iterations;
    ENSURE(points == 4 * iterations);
    printf("  hull-hull cube resting contact (4 points): %.0f ns per call\n", ns);
    fcGeometry cyl = Cylinder(0.5, 0.5);
    t0 = fcNowMs();
    points = 0;
    for (int i = 0; i < iterations / 10; ++i)
        points += fcCollide(&a, At(0, 0, 0), &cyl, AtQ(fcV3(0.1, 0.05, 0.99 + 1e-7 * (i & 7)), q), 0.01, NULL, &m, 1) ? m.pointCount : 0;
    ns = (fcNowMs() - t0) * 1e6 / (iterations / 10);
    ENSURE(points == 4 * (iterations / 10));
    printf("  hull-cylinder standing contact (EPA, 4 rim points): %.0f ns per call\n", ns);
    fcHull_Destroy(cube);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_hull_cube_topology_and_mass);
    RUN_TEST(test_hull_coplanar_grids);
    RUN_TEST(test_hull_tetrahedron);
    RUN_TEST(test_hull_random_sphere_points);
    RUN_TEST(test_hull_refuses_degenerate);
    RUN_TEST(test_gjk_distances);
    RUN_TEST(test_hull_cube_on_hull_cube);
    RUN_TEST(test_hull_pairs_random_poses);
    RUN_TEST(test_cylinder_random_poses);
    RUN_TEST(test_sphere_and_capsule_on_hull);
    RUN_TEST(test_cylinder_contacts);
    RUN_TEST(test_epa_touching_cylinder_box);
    RUN_TEST(test_plane_hull);
    RUN_TEST(test_plane_hull_keeps_a_deep_corner);
    RUN_TEST(test_mesh_box_on_two_triangles);
    RUN_TEST(test_mesh_internal_edges);
    RUN_TEST(test_mesh_refuses);
    RUN_TEST(test_mesh_query);
    RUN_TEST(test_ray_casts);
    RUN_TEST(test_shape_casts);
    RUN_TEST(test_world_resting_on_hulls_and_meshes);
    RUN_TEST(test_sensor_on_mesh);
    RUN_TEST(test_world_shape_cast);
    RUN_TEST(test_mesh_names_the_users_triangles);
    RUN_TEST(test_reported_penetration_counts_real_points);
    RUN_TEST(test_cylinder_lies_down_on_mesh);
    RUN_TEST(test_crushed_box_stays_on_mesh);
    RUN_TEST(test_cylinder_stack_stands);
    RUN_TEST(test_world_sliding_over_internal_edges);
    RUN_TEST(test_cost_hull_hull_cubes);
    TEST_MAIN_END();
}
