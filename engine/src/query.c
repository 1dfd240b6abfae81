// SPDX-License-Identifier: MIT
// World queries: ray casts, box and shape overlaps, shape casts and closest points over the broadphase's
// proxies, each through the same category/mask filter as contacts.
#include "solver.h"

#include <math.h>
#include <string.h>

fcQueryFilter fcDefaultQueryFilter(void)
{
    fcQueryFilter f = {1, UINT64_MAX, false};
    return f;
}

static bool fcQuery_Accepts(const fcShape* s, fcQueryFilter filter)
{
    if (s->def.isSensor && !filter.includeSensors) return false;
    return (s->def.categoryBits & filter.maskBits) != 0 && (filter.categoryBits & s->def.maskBits) != 0;
}

typedef struct fcRayContext {
    fcWorld* world;
    fcQueryFilter filter;
    fcCastResultFcn* fcn;
    void* context;
    fcRayResult closest;
} fcRayContext;

static fcReal fcQuery_RayHit(int proxy, int shapeIndex, fcVec3 origin, fcVec3 translation, fcReal maxFraction, void* context)
{
    (void)proxy;
    fcRayContext* rc = context;
    const fcShape* s = rc->world->shapes + shapeIndex;
    if (!fcQuery_Accepts(s, rc->filter)) return maxFraction;
    fcReal length = fcVec3_Length(translation);
    if (length <= 0) return maxFraction;
    fcVec3 dir = fcVec3_Scale(1 / length, translation);
    fcRayHitGeometry hit;
    if (!fcGeometry_RayCast(&s->geometry, fcShape_GetTransform(rc->world, s), origin, dir, maxFraction * length, &hit))
        return maxFraction;
    fcRayResult r;
    memset(&r, 0, sizeof r);
    r.hit = true;
    r.shape = fcMakeShapeId(rc->world, shapeIndex);
    r.body = fcMakeBodyId(rc->world, s->body);
    r.fraction = hit.distance / length;
    r.point = fcVec3_MulAdd(origin, hit.distance, dir);
    r.normal = hit.normal;
    r.triangle = fcShape_Triangle(s, hit.key);
    if (rc->fcn) return rc->fcn(&r, rc->context);
    rc->closest = r;
    return r.fraction;
}

fcRayResult fcWorld_CastRayClosest(fcWorldId worldId, fcVec3 origin, fcVec3 translation, fcQueryFilter filter)
{
    fcRayContext rc;
    memset(&rc, 0, sizeof rc);
    rc.closest.triangle = -1;
    fcWorld* world = fcGetWorld(worldId, "fcWorld_CastRayClosest");
    if (world == NULL) return rc.closest;
    if (!fcVec3_IsFinite(origin) || !fcVec3_IsFinite(translation)) {
        fcError("fcWorld_CastRayClosest: origin or translation is not finite");
        return rc.closest;
    }
    rc.world = world;
    rc.filter = filter;
    fcBroadphase_RayCast(&world->broadphase, origin, translation, 1, fcQuery_RayHit, &rc);
    return rc.closest;
}

bool fcWorld_CastRay(fcWorldId worldId, fcVec3 origin, fcVec3 translation, fcQueryFilter filter, fcCastResultFcn* fcn, void* context)
{
    fcWorld* world = fcGetWorld(worldId, "fcWorld_CastRay");
    if (world == NULL) return false;
    if (fcn == NULL) return fcError("fcWorld_CastRay: no callback");
    if (!fcVec3_IsFinite(origin) || !fcVec3_IsFinite(translation))
        return fcError("fcWorld_CastRay: origin or translation is not finite");
    fcRayContext rc;
    memset(&rc, 0, sizeof rc);
    rc.world = world;
    rc.filter = filter;
    rc.fcn = fcn;
    rc.context = context;
    fcWorld_BeginQuery(world);
    fcBroadphase_RayCast(&world->broadphase, origin, translation, 1, fcQuery_RayHit, &rc);
    fcWorld_EndQuery(world);
    return true;
}

typedef struct fcOverlapContext {
    fcWorld* world;
    fcQueryFilter filter;
    fcOverlapResultFcn* fcn;
    void* context;
    fcAabb box;
    const fcGeometry* geometry;  // shape overlap: the query shape
    fcTransform xf;
    fcVec3 translation;          // shape cast
    fcCastResultFcn* castFcn;
    fcReal castReach;            // the fraction the callback clipped the sweep to (1: all of it)
    bool stopped;
} fcOverlapContext;

static bool fcAabb_Overlaps(fcAabb a, fcAabb b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z && b.lo.z <= a.hi.z;
}

static bool fcQuery_OverlapHit(int proxy, int shapeIndex, void* context)
{
    (void)proxy;
    fcOverlapContext* oc = context;
    const fcShape* s = oc->world->shapes + shapeIndex;
    if (!fcQuery_Accepts(s, oc->filter)) return true;
    fcTransform xs = fcShape_GetTransform(oc->world, s);
    if (!fcAabb_Overlaps(fcGeometry_ComputeAabb(&s->geometry, xs), oc->box)) return true;
    if (oc->geometry != NULL) {
        // exact test: any point at or below zero separation
        fcManifold m[FC_MAX_PAIR_MANIFOLDS];
        int n = fcCollide(oc->geometry, oc->xf, &s->geometry, xs, 0, NULL, m, FC_MAX_PAIR_MANIFOLDS);
        bool overlap = false;
        for (int k = 0; k < n; ++k)
            for (int i = 0; i < m[k].pointCount; ++i) overlap = overlap || m[k].points[i].separation <= 0;
        if (!overlap) return true;
    }
    return oc->fcn(fcMakeShapeId(oc->world, shapeIndex), oc->context);
}

bool fcWorld_OverlapAABB(fcWorldId worldId, fcVec3 lo, fcVec3 hi, fcQueryFilter filter, fcOverlapResultFcn* fcn, void* context)
{
    fcWorld* world = fcGetWorld(worldId, "fcWorld_OverlapAABB");
    if (world == NULL) return false;
    if (fcn == NULL) return fcError("fcWorld_OverlapAABB: no callback");
    if (!fcVec3_IsFinite(lo) || !fcVec3_IsFinite(hi) || lo.x > hi.x || lo.y > hi.y || lo.z > hi.z)
        return fcError("fcWorld_OverlapAABB: the box must be finite with lo <= hi");
    fcOverlapContext oc;
    memset(&oc, 0, sizeof oc);
    oc.world = world;
    oc.filter = filter;
    oc.fcn = fcn;
    oc.context = context;
    oc.box.lo = lo;
    oc.box.hi = hi;
    fcWorld_BeginQuery(world);
    fcBroadphase_Query(&world->broadphase, oc.box, fcQuery_OverlapHit, &oc);
    fcWorld_EndQuery(world);
    return true;
}

// the geometry of a query shape def (convex types only)
static bool fcQuery_Geometry(const fcShapeDef* def, fcVec3 position, fcQuat orientation, fcGeometry* g, fcHull** hull,
                             fcTransform* xf, const char* caller)
{
    if (def == NULL || def->internalValue != FC_DEF_COOKIE) return fcError("%s: the shape def was not made by fcDefaultShapeDef", caller);
    if (!fcVec3_IsFinite(position) || !fcQuat_IsFinite(orientation) || FC_FABS(fcQuat_Length(orientation) - 1) > 1e-6)
        return fcError("%s: the pose must be finite with a unit quaternion", caller);
    memset(g, 0, sizeof *g);
    *hull = NULL;
    g->type = def->type;
    g->radius = def->radius;
    g->halfHeight = def->halfHeight;
    g->halfExtents = def->halfExtents;
    switch (def->type) {
        case fc_sphereShape:
        case fc_capsuleShape:
        case fc_cylinderShape:
            if (!isfinite(def->radius) || def->radius <= 0 || !isfinite(def->halfHeight) || def->halfHeight < 0)
                return fcError("%s: radius must be > 0 and halfHeight >= 0", caller);
            break;
        case fc_boxShape:
            if (!fcVec3_IsFinite(def->halfExtents) || def->halfExtents.x <= 0 || def->halfExtents.y <= 0 || def->halfExtents.z <= 0)
                return fcError("%s: box halfExtents must be > 0", caller);
            break;
        case fc_hullShape: {
            char why[160];
            *hull = fcHull_Create(def->points, def->points ? def->pointCount : 0, why, (int)sizeof why);
            if (*hull == NULL) return fcError("%s: hull refused: %s", caller, why);
            g->hull = *hull;
            break;
        }
        default:
            return fcError("%s: the query shape must be convex (sphere, box, capsule, cylinder or hull)", caller);
    }
    fcQuat q = fcQuat_Mul(orientation, def->localOrientation);
    xf->q = q;
    xf->p = fcVec3_Add(position, fcQuat_Rotate(orientation, def->localPosition));
    return true;
}

// the context of a query with a shape: its geometry at the pose (a hull built for the query, freed by the caller)
static bool fcQuery_BeginShape(fcOverlapContext* oc, fcWorld* world, fcQueryFilter filter, void* context, const fcShapeDef* shape,
                               fcVec3 position, fcQuat orientation, fcGeometry* g, fcHull** hull, const char* caller)
{
    memset(oc, 0, sizeof *oc);
    if (!fcQuery_Geometry(shape, position, orientation, g, hull, &oc->xf, caller)) return false;
    oc->world = world;
    oc->filter = filter;
    oc->context = context;
    oc->geometry = g;
    return true;
}

bool fcWorld_OverlapShape(fcWorldId worldId, const fcShapeDef* shape, fcVec3 position, fcQuat orientation,
                          fcQueryFilter filter, fcOverlapResultFcn* fcn, void* context)
{
    const char* caller = "fcWorld_OverlapShape";
    fcWorld* world = fcGetWorld(worldId, caller);
    if (world == NULL) return false;
    if (fcn == NULL) return fcError("%s: no callback", caller);
    fcOverlapContext oc;
    fcGeometry g;
    fcHull* hull;
    if (!fcQuery_BeginShape(&oc, world, filter, context, shape, position, orientation, &g, &hull, caller)) return false;
    oc.fcn = fcn;
    oc.box = fcGeometry_ComputeAabb(&g, oc.xf);
    fcWorld_BeginQuery(world);
    fcBroadphase_Query(&world->broadphase, oc.box, fcQuery_OverlapHit, &oc);
    fcWorld_EndQuery(world);
    fcHull_Destroy(hull);
    return true;
}

static bool fcQuery_CastHit(int proxy, int shapeIndex, void* context)
{
    (void)proxy;
    fcOverlapContext* oc = context;
    const fcShape* s = oc->world->shapes + shapeIndex;
    if (!fcQuery_Accepts(s, oc->filter)) return true;
    fcReal fraction = -1;
    fcVec3 point = oc->xf.p, normal = fcV3(0, 0, 0);
    int triangle;
    bool touches = fcGeometry_ShapeCast(oc->geometry, oc->xf, oc->translation, &s->geometry, fcShape_GetTransform(oc->world, s),
                                        &fraction, &point, &normal, &triangle);
    // a shape the cast one overlaps at the start is hit at fraction 0, at the cast shape's position, with no normal
    // (a sweep started inside a wall passed through it)
    bool overlaps = !touches && fraction == 0;
    if (overlaps) point = oc->xf.p, normal = fcV3(0, 0, 0);
    if ((!touches && !overlaps) || fraction > oc->castReach) return true;
    fcRayResult r;
    memset(&r, 0, sizeof r);
    r.hit = true;
    r.shape = fcMakeShapeId(oc->world, shapeIndex);
    r.body = fcMakeBodyId(oc->world, s->body);
    r.fraction = fraction;
    r.point = point;
    r.normal = fcVec3_Neg(normal);  // the surface normal of the shape hit, facing the cast shape
    r.triangle = triangle >= 0 ? fcShape_Triangle(s, (uint32_t)triangle) : -1;
    fcReal reach = oc->castFcn(&r, oc->context);  // the hits past it are not reported: it clips the sweep
    if (!(reach > 0)) return false;
    if (reach < oc->castReach) oc->castReach = reach;
    return true;
}

bool fcWorld_CastShape(fcWorldId worldId, const fcShapeDef* shape, fcVec3 position, fcQuat orientation, fcVec3 translation,
                       fcQueryFilter filter, fcCastResultFcn* fcn, void* context)
{
    const char* caller = "fcWorld_CastShape";
    fcWorld* world = fcGetWorld(worldId, caller);
    if (world == NULL) return false;
    if (fcn == NULL) return fcError("%s: no callback", caller);
    if (!fcVec3_IsFinite(translation)) return fcError("%s: translation is not finite", caller);
    fcOverlapContext oc;
    fcGeometry g;
    fcHull* hull;
    if (!fcQuery_BeginShape(&oc, world, filter, context, shape, position, orientation, &g, &hull, caller)) return false;
    oc.castFcn = fcn;
    oc.castReach = 1;
    oc.translation = translation;
    // the swept box: the shape's box at the start and at the end
    fcAabb a = fcGeometry_ComputeAabb(&g, oc.xf);
    fcTransform end = oc.xf;
    end.p = fcVec3_Add(end.p, translation);
    fcAabb b = fcGeometry_ComputeAabb(&g, end);
    oc.box.lo = fcV3(fmin(a.lo.x, b.lo.x), fmin(a.lo.y, b.lo.y), fmin(a.lo.z, b.lo.z));
    oc.box.hi = fcV3(fmax(a.hi.x, b.hi.x), fmax(a.hi.y, b.hi.y), fmax(a.hi.z, b.hi.z));
    fcWorld_BeginQuery(world);
    fcBroadphase_Query(&world->broadphase, oc.box, fcQuery_CastHit, &oc);
    fcWorld_EndQuery(world);
    fcHull_Destroy(hull);
    return true;
}

typedef struct fcClosestContext {
    fcWorld* world;
    fcQueryFilter filter;
    fcGeometry point;
    fcTransform xf;
    fcReal best;
    fcRayResult result;
} fcClosestContext;

static bool fcQuery_ClosestHit(int proxy, int shapeIndex, void* context)
{
    (void)proxy;
    fcClosestContext* cc = context;
    const fcShape* s = cc->world->shapes + shapeIndex;
    if (!fcQuery_Accepts(s, cc->filter)) return true;
    fcTransform xs = fcShape_GetTransform(cc->world, s);
    fcVec3 pa, pb;
    fcReal d;
    int triangle = -1;
    if (s->def.type == fc_planeShape || s->def.type == fc_meshShape) {
        // the narrowphase against a tiny sphere gives the surface point and the signed distance
        fcManifold m[FC_MAX_PAIR_MANIFOLDS];
        int n = fcCollide(&s->geometry, xs, &cc->point, cc->xf, cc->best, NULL, m, FC_MAX_PAIR_MANIFOLDS);
        if (n == 0) return true;
        int k = 0;
        for (int j = 1; j < n; ++j)
            if (m[j].points[0].separation < m[k].points[0].separation) k = j;
        d = m[k].points[0].separation + cc->point.radius;
        triangle = fcShape_Triangle(s, m[k].key);
        pb = fcVec3_MulAdd(cc->xf.p, -(d > 0 ? d : 0), m[k].normal);
    } else {
        // 0 when the point is inside (or within the point's radius): the distance is 0, not that radius
        d = fcGeometry_Distance(&cc->point, cc->xf, &s->geometry, xs, &pa, &pb);
        if (d > 0) d += cc->point.radius;
    }
    if (d < 0) d = 0;
    if (d >= cc->best) return true;
    cc->best = d;
    memset(&cc->result, 0, sizeof cc->result);
    cc->result.hit = true;
    cc->result.shape = fcMakeShapeId(cc->world, shapeIndex);
    cc->result.body = fcMakeBodyId(cc->world, s->body);
    cc->result.point = pb;
    cc->result.fraction = d;  // the distance, m
    fcVec3 n = fcVec3_Sub(cc->xf.p, pb);
    cc->result.normal = fcVec3_Length(n) > 0 ? fcVec3_Normalize(n) : fcV3(0, 0, 0);
    cc->result.triangle = triangle;
    return true;
}

fcRayResult fcWorld_ClosestPoint(fcWorldId worldId, fcVec3 point, fcReal maxDistance, fcQueryFilter filter)
{
    fcClosestContext cc;
    memset(&cc, 0, sizeof cc);
    cc.result.triangle = -1;
    fcWorld* world = fcGetWorld(worldId, "fcWorld_ClosestPoint");
    if (world == NULL) return cc.result;
    if (!fcVec3_IsFinite(point) || !isfinite(maxDistance) || maxDistance < 0) {
        fcError("fcWorld_ClosestPoint: point must be finite and maxDistance >= 0");
        return cc.result;
    }
    cc.world = world;
    cc.filter = filter;
    cc.best = maxDistance;
    // a point is a sphere of a vanishing radius: the convex distance routines then serve
    cc.point.type = fc_sphereShape;
    cc.point.radius = 1e-9;
    cc.xf.p = point;
    cc.xf.q = fcQuat_Identity();
    fcAabb box = {fcV3(point.x - maxDistance, point.y - maxDistance, point.z - maxDistance),
                  fcV3(point.x + maxDistance, point.y + maxDistance, point.z + maxDistance)};
    fcBroadphase_Query(&world->broadphase, box, fcQuery_ClosestHit, &cc);
    return cc.result;
}
