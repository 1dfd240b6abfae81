// SPDX-License-Identifier: MIT
// The narrowphase's front door: which pair function handles which two shape types, bounding boxes and ray
// casts by type. The pair functions themselves live in collide_primitive.c and collide_convex.c.
#include "collide.h"

#include <math.h>

typedef int fcPairFunction(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                           fcManifold* m);

// [a][b] for the order the function wants; NULL where the pair never collides (two static-only shapes) or the
// other order is the one (fcCollide swaps it). A table rather than a chain of tests: every pair asks it every step.
#define FC_SHAPE_TYPES (fc_meshShape + 1)
#define FC_CONVEX_ROW(t) [t][fc_sphereShape] = fcCollide_Convex, [t][fc_boxShape] = fcCollide_Convex, \
    [t][fc_capsuleShape] = fcCollide_Convex, [t][fc_cylinderShape] = fcCollide_Convex, [t][fc_hullShape] = fcCollide_Convex
static fcPairFunction* const s_pairFunctions[FC_SHAPE_TYPES][FC_SHAPE_TYPES] = {
    // a cylinder or a hull with any of sphere, box, capsule, cylinder, hull: the general convex pair
    FC_CONVEX_ROW(fc_cylinderShape),
    FC_CONVEX_ROW(fc_hullShape),
    [fc_sphereShape][fc_cylinderShape] = fcCollide_Convex,
    [fc_sphereShape][fc_hullShape] = fcCollide_Convex,
    [fc_boxShape][fc_cylinderShape] = fcCollide_Convex,
    [fc_boxShape][fc_hullShape] = fcCollide_Convex,
    [fc_capsuleShape][fc_cylinderShape] = fcCollide_Convex,
    [fc_capsuleShape][fc_hullShape] = fcCollide_Convex,
    [fc_sphereShape][fc_sphereShape] = fcCollide_SphereSphere,
    [fc_capsuleShape][fc_sphereShape] = fcCollide_CapsuleSphere,
    [fc_capsuleShape][fc_capsuleShape] = fcCollide_CapsuleCapsule,
    [fc_boxShape][fc_sphereShape] = fcCollide_BoxSphere,
    [fc_boxShape][fc_capsuleShape] = fcCollide_BoxCapsule,
    [fc_boxShape][fc_boxShape] = fcCollide_BoxBox,
    [fc_planeShape][fc_sphereShape] = fcCollide_PlaneSphere,
    [fc_planeShape][fc_capsuleShape] = fcCollide_PlaneCapsule,
    [fc_planeShape][fc_boxShape] = fcCollide_PlaneBox,
    [fc_planeShape][fc_cylinderShape] = fcCollide_PlaneCylinder,
    [fc_planeShape][fc_hullShape] = fcCollide_PlaneHull,
};
#undef FC_CONVEX_ROW

static fcPairFunction* fcCollide_Table(int a, int b)
{
    if (a < 0 || a >= FC_SHAPE_TYPES || b < 0 || b >= FC_SHAPE_TYPES) return NULL;
    return s_pairFunctions[a][b];
}

static void fcManifold_Flip(fcManifold* m)
{
    m->normal = fcVec3_Neg(m->normal);
}

int fcCollide(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
              const fcCollideHistory* last, fcManifold* out, int capacity)
{
    if (capacity < 1) return 0;
    if (a->type == fc_meshShape || b->type == fc_meshShape) {
        if (a->type == fc_meshShape && b->type == fc_meshShape) return 0;
        if (a->type == fc_planeShape || b->type == fc_planeShape) return 0;
        if (a->type == fc_meshShape) return fcCollide_MeshConvex(a, xa, b, xb, margin, last, 1, out, capacity);
        int n = fcCollide_MeshConvex(b, xb, a, xa, margin, last, -1, out, capacity);
        for (int i = 0; i < n; ++i) fcManifold_Flip(out + i);
        return n;
    }
    out->pointCount = 0;
    out->key = 0;
    fcPairFunction* f = fcCollide_Table(a->type, b->type);
    if (f != NULL) {
        int n = f(a, xa, b, xb, margin, out);
        out->pointCount = n;
        return n > 0;
    }
    f = fcCollide_Table(b->type, a->type);
    if (f == NULL) return 0;
    int n = f(b, xb, a, xa, margin, out);
    out->pointCount = n;
    if (n > 0) fcManifold_Flip(out);
    return n > 0;
}

fcAabb fcGeometry_ComputeAabb(const fcGeometry* g, fcTransform xf)
{
    fcAabb box;
    fcVec3 e;  // half extents of the world box about the shape's origin
    switch (g->type) {
        case fc_sphereShape:
            e = fcV3(g->radius, g->radius, g->radius);
            break;
        case fc_capsuleShape: {
            fcVec3 axis = fcQuat_Rotate(xf.q, fcV3(0, 0, g->halfHeight));
            e = fcV3(FC_FABS(axis.x) + g->radius, FC_FABS(axis.y) + g->radius, FC_FABS(axis.z) + g->radius);
            break;
        }
        case fc_cylinderShape: {
            // a disc of radius r with normal u spans r sqrt(1 - u_i^2) along axis i
            fcVec3 u = fcQuat_Rotate(xf.q, fcV3(0, 0, 1));
            fcReal r = g->radius, hh = g->halfHeight;
            e = fcV3(hh * FC_FABS(u.x) + r * FC_SQRT(fmax(0.0, 1 - u.x * u.x)),
                     hh * FC_FABS(u.y) + r * FC_SQRT(fmax(0.0, 1 - u.y * u.y)),
                     hh * FC_FABS(u.z) + r * FC_SQRT(fmax(0.0, 1 - u.z * u.z)));
            break;
        }
        case fc_boxShape: {
            fcMat33 r = fcMat33_FromQuat(xf.q);
            fcVec3 h = g->halfExtents;
            e = fcV3(FC_FABS(r.cx.x) * h.x + FC_FABS(r.cy.x) * h.y + FC_FABS(r.cz.x) * h.z,
                     FC_FABS(r.cx.y) * h.x + FC_FABS(r.cy.y) * h.y + FC_FABS(r.cz.y) * h.z,
                     FC_FABS(r.cx.z) * h.x + FC_FABS(r.cy.z) * h.y + FC_FABS(r.cz.z) * h.z);
            break;
        }
        case fc_hullShape:
            return fcHull_ComputeAabb(g->hull, xf);
        case fc_meshShape:
            return fcMesh_ComputeAabb(g->mesh, xf);
        case fc_planeShape:
        default: {
            // unbounded, except along the normal when the plane is axis-aligned: keep it finite and huge
            const fcReal big = 1e18;
            box.lo = fcV3(-big, -big, -big);
            box.hi = fcV3(big, big, big);
            fcVec3 n = fcQuat_Rotate(xf.q, fcV3(0, 0, 1));
            fcReal d = fcVec3_Dot(n, xf.p);
            if (n.z > 1 - 1e-12) box.hi.z = d;
            if (n.z < -1 + 1e-12) box.lo.z = -d;
            if (n.y > 1 - 1e-12) box.hi.y = d;
            if (n.y < -1 + 1e-12) box.lo.y = -d;
            if (n.x > 1 - 1e-12) box.hi.x = d;
            if (n.x < -1 + 1e-12) box.lo.x = -d;
            return box;
        }
    }
    box.lo = fcVec3_Sub(xf.p, e);
    box.hi = fcVec3_Add(xf.p, e);
    return box;
}

bool fcGeometry_RayCast(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance,
                        fcRayHitGeometry* hit)
{
    hit->key = 0;
    switch (g->type) {
        case fc_sphereShape: return fcRayCast_Sphere(g, xf, origin, dir, maxDistance, hit);
        case fc_capsuleShape: return fcRayCast_Capsule(g, xf, origin, dir, maxDistance, hit);
        case fc_boxShape: return fcRayCast_Box(g, xf, origin, dir, maxDistance, hit);
        case fc_cylinderShape: return fcRayCast_Cylinder(g, xf, origin, dir, maxDistance, hit);
        case fc_planeShape: return fcRayCast_Plane(g, xf, origin, dir, maxDistance, hit);
        case fc_hullShape: return fcRayCast_Hull(g, xf, origin, dir, maxDistance, hit);
        case fc_meshShape: return fcRayCast_Mesh(g, xf, origin, dir, maxDistance, hit);
        default: return false;
    }
}
