// SPDX-License-Identifier: MIT
// The continuous pass, after the step's positions: a body turning so fast that its shapes' paths bend away from the
// straight lines the contacts' rows follow is checked along its step's path against the static shapes it sweeps past,
// and one that went into or through such a shape is put back where it first came within reach of it.
#include "solver.h"
#include "collide.h"

#include <math.h>

#define FC_CONTINUOUS_MANIFOLDS 8  // manifolds of the end pose (a mesh gives one per triangle)

// the rotation vector of a unit quaternion with w >= 0, the shorter way round (the inverse of
// fcQuat_FromRotationVector)
static fcVec3 fcContinuous_Turn(fcQuat q)
{
    fcVec3 u = fcV3(q.x, q.y, q.z);
    fcReal s = fcVec3_Length(u);
    if (s < 1e-8) return fcVec3_Scale(2, u);  // 2 atan(s / w) / s = 2 / w to s^2 (w = 1 to s^2)
    return fcVec3_Scale(2 * FC_ATAN2(s, q.w) / s, u);
}

typedef struct fcContinuousQuery {
    const fcWorld* world;
    int shape;          // the moving shape
    fcTransform start;  // its pose at the step's start
    fcTransform end;    // and now
    fcVec3 centre;      // the centre of its box at the step's start
    const fcPath* path;
    fcReal first;       // the earliest fraction of the step found
    bool held;          // the body's heldNear: a shape near a static one at the start is left to its contacts
    bool near;          // some shape was near a static one at the start
    bool backNear;      // first = 0 for a shape that was
} fcContinuousQuery;

// whether the moving shape at pose x overlaps b by more than twice the slop (a contact at rest sits about the slop
// deep: a review's dice, thrown spinning onto a floor, ended steps 5 to 6 mm deep and were put back for it)
static bool fcContinuous_Deep(const fcContinuousQuery* q, const fcShape* b, fcTransform x)
{
    const fcWorld* world = q->world;
    fcManifold m[FC_CONTINUOUS_MANIFOLDS];
    int n = fcCollide(&world->shapes[q->shape].geometry, x, &b->geometry, b->transform, 0, NULL, m, FC_CONTINUOUS_MANIFOLDS);
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < m[i].pointCount; ++k)
            if (m[i].points[k].separation < -2 * world->def.contactSlop) return true;
    return false;
}

// whether the straight line from the centre of the moving shape's box at t (a hull's frame may lie far from its
// points), carried along the path, to where that centre ends crosses b; with `whole`, from outside b to outside it
// again (a ray from within a solid hits at 0, so the line is cast both ways)
static bool fcContinuous_CentreCrossed(const fcContinuousQuery* q, const fcShape* b, fcReal t, bool whole)
{
    fcTransform mid = {q->centre, q->start.q};
    fcVec3 from = fcPath_Pose(q->path, mid, t).p, to = fcPath_Pose(q->path, mid, 1).p, way = fcVec3_Sub(to, from);
    fcReal length = fcVec3_Length(way);
    fcRayHitGeometry hit;
    if (length == 0 || !fcGeometry_RayCast(&b->geometry, b->transform, from, fcVec3_Scale(1 / length, way), length, &hit))
        return false;
    return !whole || (hit.distance > 0 && fcGeometry_RayCast(&b->geometry, b->transform, to, fcVec3_Scale(-1 / length, way), length, &hit) &&
                      hit.distance > 0);
}

// Whether the moving shape, near b at t, went into or through it by the step's end: it overlaps b by more than twice
// the slop there (the contacts' rows, linearised at the step's start, did not hold it), or its centre crossed b (it
// passed a thin one whole)
static bool fcContinuous_WentIn(const fcContinuousQuery* q, const fcShape* b, fcReal t)
{
    return fcContinuous_Deep(q, b, q->end) || fcContinuous_CentreCrossed(q, b, t, false);
}

static bool fcContinuous_Visit(int proxy, int userIndex, void* context)
{
    (void)proxy;
    fcContinuousQuery* q = context;
    const fcWorld* world = q->world;
    const fcShape* s = world->shapes + userIndex;
    if (!s->inUse || s->geometry.type == fc_planeShape || world->bodies[s->body].type != fc_staticBody || s->def.isSensor ||
        !fcContacts_ShouldCollide(world, q->shape, userIndex))
        return true;
    fcReal t = 0;
    int touch = fcGeometry_PathTouch(&world->shapes[q->shape].geometry, q->start, q->path, &s->geometry, s->transform,
                                     (fcReal)0.5 * world->def.contactSlop, &t);
    // a shape near b at the step's start is left to its contacts: put back within the step, a disc spinning on a
    // floor, whose rows could not hold its turning rim, was put back to its start every step and froze there while
    // the solve's impulses piled up in its velocity (a review's finding)
    if (touch <= 0) {
        // but one that their rows let in by more than twice the slop, or whose centre went through b whole, goes back
        // to the start, once (a plank struck into a spin of 460 rad/s about its long axis at a plate, 7.7 rad a step,
        // whose rows' lines did not follow its corners, went through the plate from there; from the start again,
        // with the velocities the contacts gave it, it stopped). Not again while it stays near a static shape: a thin
        // plank spinning about its long axis as it slid off a table's edge went that deep at every step and, put back
        // every time, hung there for 6 s. A centre that merely went into b does not count (a coin resting on a table
        // has its centre within the slop of the face), nor one that began in it (the ray from within hits at 0).
        q->near = q->near || touch < 0;
        if (touch < 0 && !q->held && (fcContinuous_Deep(q, s, q->end) || fcContinuous_CentreCrossed(q, s, 0, true))) {
            q->first = 0;
            q->backNear = true;
        }
        return true;
    }
    if (t >= q->first || !fcContinuous_WentIn(q, s, t)) return true;
    q->first = t;
    return true;
}

typedef struct fcContinuousSolid {
    const fcWorld* world;
    bool found;
} fcContinuousSolid;

static bool fcContinuous_FindSolid(int proxy, int userIndex, void* context)
{
    (void)proxy;
    fcContinuousSolid* c = context;
    c->found = c->world->shapes[userIndex].geometry.type != fc_planeShape;
    return !c->found;
}

// A dynamic body without joints (moved back alone it would open them) whose shapes' paths bend from their chords by
// more than the slop, (|theta|^2 / 2) reach for a turn theta in the step, the farthest of its points reach from its
// centre: below that a shape's linear path over the step, which its speculative rows stop, stays within the slop of
// the real one. Its path runs from the step's start pose (the snapshot, where the collide stage put its shapes) to
// its end pose along a steady turn. Where a shape, clear of a static shape by more than half the slop at the start,
// first comes within half the slop of it (fcGeometry_PathTouch) and then went in or through (fcContinuous_WentIn),
// that pose replaces the end pose; its velocities stay, so its next step's contacts, found there, stop it: the time
// of impact of Box2D's continuous pass, taken for the turning that speculative rows cannot follow.
void fcContinuous_Step(fcWorld* world)
{
    if (!world->def.continuousCollision) return;
    // a world whose static shapes are planes (the benchmarks' scenes) has nothing to pass: one look at its static tree
    fcContinuousSolid solid = {world, false};
    fcAabb everywhere = {fcV3(-INFINITY, -INFINITY, -INFINITY), fcV3(INFINITY, INFINITY, INFINITY)};
    fcBroadphase_QueryStatic(&world->broadphase, everywhere, fcContinuous_FindSolid, &solid);
    if (!solid.found) return;
    fcReal slop = world->def.contactSlop;
    for (int k = 0; k < world->bodyHigh; ++k) {
        fcBody* b = world->bodies + k;
        bool held = b->heldNear;
        b->heldNear = false;
        if (!b->inUse || b->type != fc_dynamicBody || b->asleep || b->jointCount > 0 || b->shapeCount == 0) continue;
        fcVec3 c0 = world->snapshotPosition[k];
        fcQuat q0 = world->snapshotOrientation[k];
        fcQuat dq = fcQuat_Mul(b->orientation, fcQuat_Conj(q0));
        if (dq.w < 0) dq = (fcQuat){-dq.w, -dq.x, -dq.y, -dq.z};
        fcReal sine2 = dq.x * dq.x + dq.y * dq.y + dq.z * dq.z;  // sin^2 of half the turn
        if (sine2 == 0) continue;
        fcReal reach = 0;
        for (int i = 0; i < b->shapeCount; ++i) {
            fcReal r = fcAabb_Reach(world->shapes[b->shapes[i]].aabb, c0);
            reach = r > reach ? r : reach;
        }
        // the turn is 2 asin(sin) <= pi sin: most bodies are let go before its arc tangent
        if ((fcReal)9.8696044010893586 * sine2 * reach <= 2 * slop) continue;  // pi^2
        fcVec3 turn = fcContinuous_Turn(dq);
        if (fcVec3_Dot(turn, turn) * reach <= 2 * slop) continue;
        fcPath path = {c0, fcVec3_Sub(b->position, c0), turn, reach};
        fcVec3 c1 = b->position, r = fcV3(reach, reach, reach);
        fcAabb box = {fcVec3_Sub(fcV3(fmin(c0.x, c1.x), fmin(c0.y, c1.y), fmin(c0.z, c1.z)), r),
                      fcVec3_Add(fcV3(fmax(c0.x, c1.x), fmax(c0.y, c1.y), fmax(c0.z, c1.z)), r)};
        fcContinuousQuery q = {.world = world, .path = &path, .first = 1, .held = held};
        for (int i = 0; i < b->shapeCount; ++i) {
            const fcShape* s = world->shapes + b->shapes[i];
            if (s->def.isSensor || s->proxy < 0) continue;
            q.shape = b->shapes[i];
            q.start = s->transform;
            q.end = fcShape_GetTransform(world, s);
            q.centre = fcAabb_Centre(s->aabb);
            fcBroadphase_QueryStatic(&world->broadphase, box, fcContinuous_Visit, &q);
        }
        b->heldNear = q.near && (held || (q.backNear && q.first == 0));
        if (q.first >= 1) continue;
        // the angular velocity turns back with the body: its spin in the body's frame, and so its kinetic energy, stay
        // (kept in the world's frame, it put 36 % more energy into a plank turning 2.5 rad a step)
        fcQuat back = fcQuat_FromRotationVector(fcVec3_Scale(q.first - 1, turn));
        b->position = fcVec3_MulAdd(c0, q.first, path.shift);
        b->orientation = fcQuat_Renormalize(fcQuat_Mul(back, b->orientation));
        b->angularVelocity = fcQuat_Rotate(back, b->angularVelocity);
        fcBody_UpdateInverseInertia(b);
    }
}
