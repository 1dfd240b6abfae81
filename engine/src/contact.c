// SPDX-License-Identifier: MIT
// The contact set: shapes' broadphase proxies, the pairs whose fat boxes overlap (a hash on the shape pair),
// the narrowphase run on each pair every step with points matched to the last step's by feature id (their
// impulses warm-start the solve), contact begin/end and sensor events, and the contact API.
#include "solver.h"

#include <math.h>
#include <string.h>

void fcContacts_Free(fcContactSet* set)
{
    for (int k = 0; k < set->high; ++k) {
        fcContact* c = fcContacts_Pair(set, k);
        if (c->inUse && c->manifolds != &c->first) fcFree(c->manifolds);
    }
    for (int k = 0; k < set->meshBlockCount; ++k) fcFree(set->meshBlocks[k]);
    fcFree(set->meshBlocks);
    for (int k = 0; k < set->pageCount; ++k) fcFree(set->pages[k]);
    fcFree(set->pages);
    fcFree(set->freeList);
    fcFree(set->hashHeads);
    fcFree(set->hashNext);
    fcFree(set->pairKeys);
    fcFree(set->pairBodies);
    fcFree(set->pairFlags);
    fcFree(set->bodyMarks);
    fcFree(set->bodyPairs);
    fcFree(set->seamScratch);
    fcFree(set->seamHead);
    fcFree(set->touching);
    fcFree(set->solverBodies);
    fcFree(set->solverBodyIndex);
    fcFree(set->solverInvMass);
    fcFree(set->solverInvInertia);
    fcFree(set->solverInertiaKept);
    fcFree(set->solverBodyOf);
    fcFree(set->blocks);
    fcFree(set->positions);
    fcFree(set->spins);
    fcFree(set->curves);
    fcFree(set->chunkSlots);
    fcFree(set->colorScratch);
    fcFree(set->colorUsed);
    fcFree(set->sortKeys);
    fcFree(set->sortLast);
    fcFree(set->shapeSpinReach);
    fcFree(set->shapeRefit);
    fcFree(set->colorOrder);
    fcFree(set->layoutKeys);
    fcFree(set->manifoldRefs);
    fcFree(set->slotState);
    fcFree(set->slotHeightKey);
    fcFree(set->slotKept);
    fcFree(set->exactRows);
    fcFree(set->exactIslands);
    fcFree(set->exactJointIslands);
    fcFree(set->exactJointBlocks);
    fcFree(set->exactJointRowOf);
    fcFree(set->sleepersToWake);
    fcFree(set->exactScratch);
    fcFree(set->exactMatrices);
    memset(set, 0, sizeof *set);
}

static bool fcContacts_Moves(const fcBody* b) { return b->type != fc_staticBody; }

static uint32_t fcPairHash(int a, int b) { return (uint32_t)a * 73856093u ^ (uint32_t)b * 19349663u; }

static uint64_t fcPairKey(int a, int b) { return (uint64_t)(uint32_t)a << 32 | (uint32_t)b; }

static int fcContacts_Find(const fcContactSet* set, int a, int b)
{
    if (set->hashSize == 0) return -1;
    uint64_t key = fcPairKey(a, b);
    for (int c = set->hashHeads[fcPairHash(a, b) & (uint32_t)(set->hashSize - 1)]; c >= 0; c = set->hashNext[c])
        if (set->pairKeys[c] == key) return c;
    return -1;
}

static void fcContacts_Rehash(fcContactSet* set, int size)
{
    fcFree(set->hashHeads);
    set->hashSize = size;
    set->hashHeads = fcAlloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; ++i) set->hashHeads[i] = -1;
    for (int c = 0; c < set->high; ++c) {
        fcContact* k = fcContacts_Pair(set, c);
        if (!k->inUse) continue;
        uint32_t h = fcPairHash(k->shapeA, k->shapeB) & (uint32_t)(size - 1);
        set->hashNext[c] = set->hashHeads[h];
        set->hashHeads[h] = c;
    }
}

// whether two shapes may touch at all (bodies, types, filters, joints)
bool fcContacts_ShouldCollide(const fcWorld* world, int a, int b)
{
    const fcShape* sa = world->shapes + a;
    const fcShape* sb = world->shapes + b;
    if (sa->body == sb->body) return false;
    if (sa->def.isSensor && sb->def.isSensor) return false;
    if ((sa->def.categoryBits & sb->def.maskBits) == 0 || (sb->def.categoryBits & sa->def.maskBits) == 0) return false;
    const fcBody* ba = world->bodies + sa->body;
    const fcBody* bb = world->bodies + sb->body;
    bool sensor = sa->def.isSensor || sb->def.isSensor;
    // only a dynamic body is pushed by a contact; a sensor also sees kinematic and static shapes move through it
    if (!sensor && ba->type != fc_dynamicBody && bb->type != fc_dynamicBody) return false;
    if (sensor && ba->type == fc_staticBody && bb->type == fc_staticBody) return false;
    const fcBody* few = ba->jointCount <= bb->jointCount ? ba : bb;
    for (int k = 0; k < few->jointCount; ++k) {
        const fcJoint* j = world->joints + few->joints[k];
        bool links = (j->bodyA == sa->body && j->bodyB == sb->body) || (j->bodyA == sb->body && j->bodyB == sa->body);
        if (links && !j->collideConnected) return false;
    }
    return true;
}

static void fcContacts_Create(fcWorld* world, int a, int b)
{
    fcContactSet* set = &world->contacts;
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    if (fcContacts_Find(set, a, b) >= 0 || !fcContacts_ShouldCollide(world, a, b)) return;
    int index;
    if (set->freeCount > 0) {
        index = set->freeList[--set->freeCount];
    } else {
        if (set->high == set->capacity) {
            set->capacity = set->capacity ? 2 * set->capacity : FC_PAIR_PAGE;
            set->freeList = fcRealloc(set->freeList, sizeof(int) * (size_t)set->capacity);
            set->hashNext = fcRealloc(set->hashNext, sizeof(int) * (size_t)set->capacity);
            set->pairKeys = fcRealloc(set->pairKeys, sizeof(uint64_t) * (size_t)set->capacity);
            set->pairBodies = fcRealloc(set->pairBodies, sizeof(int) * 2 * (size_t)set->capacity);
            set->pairFlags = fcRealloc(set->pairFlags, (size_t)set->capacity);
        }
        if (set->high == set->pageCount * FC_PAIR_PAGE) {
            if (set->pageCount == set->pageCapacity) {
                set->pageCapacity = set->pageCapacity ? 2 * set->pageCapacity : 16;
                set->pages = fcRealloc(set->pages, sizeof(fcContact*) * (size_t)set->pageCapacity);
            }
            set->pages[set->pageCount++] = fcAlloc(sizeof(fcContact) * FC_PAIR_PAGE);
        }
        index = set->high++;
    }
    fcContact* c = fcContacts_Pair(set, index);
    memset(c, 0, sizeof *c);
    c->inUse = true;
    c->shapeA = a;
    c->shapeB = b;
    c->bodyA = world->shapes[a].body;
    c->bodyB = world->shapes[b].body;
    const fcShapeDef* da = &world->shapes[a].def;
    const fcShapeDef* db = &world->shapes[b].def;
    c->sensor = da->isSensor || db->isSensor;
    c->fresh = true;
    // a sensor on a mesh too: its overlap is read from every touching triangle's manifold (fcContacts_Update)
    c->manifolds = &c->first;
    if (world->shapes[a].geometry.type == fc_meshShape || world->shapes[b].geometry.type == fc_meshShape) {
        size_t size = sizeof(fcContactManifold) * FC_MAX_PAIR_MANIFOLDS;
        c->manifolds = set->meshBlockCount > 0 ? set->meshBlocks[--set->meshBlockCount] : fcAlloc(size);
        memset(c->manifolds, 0, size);
    }
    if (set->high > set->hashSize) {
        c->inUse = false;  // the rehash links the live contacts; this one is linked below
        fcContacts_Rehash(set, set->hashSize ? 2 * set->hashSize : 256);
        c->inUse = true;
    }
    uint32_t h = fcPairHash(a, b) & (uint32_t)(set->hashSize - 1);
    set->pairKeys[index] = fcPairKey(a, b);
    set->pairBodies[2 * index] = c->sensor ? -1 : c->bodyA;  // a sensor wakes nothing
    set->pairBodies[2 * index + 1] = c->sensor ? -1 : c->bodyB;
    set->pairFlags[index] = 0;
    set->hashNext[index] = set->hashHeads[h];
    set->hashHeads[h] = index;
}

static void fcContacts_Destroy(fcWorld* world, int index)
{
    fcContactSet* set = &world->contacts;
    fcContact* c = fcContacts_Pair(set, index);
    int* link = set->hashHeads + (fcPairHash(c->shapeA, c->shapeB) & (uint32_t)(set->hashSize - 1));
    while (*link != index) link = set->hashNext + *link;
    *link = set->hashNext[index];
    c->inUse = false;
    if (c->manifolds != &c->first) {
        if (set->meshBlockCount == set->meshBlockCapacity) {
            set->meshBlockCapacity = 2 * set->meshBlockCapacity + 16;
            set->meshBlocks = fcRealloc(set->meshBlocks, sizeof(fcContactManifold*) * (size_t)set->meshBlockCapacity);
        }
        set->meshBlocks[set->meshBlockCount++] = c->manifolds;
        c->manifolds = &c->first;
    }
    set->pairBodies[2 * index] = set->pairBodies[2 * index + 1] = -1;
    set->pairFlags[index] = 0;
    set->freeList[set->freeCount++] = index;  // the free list has room for every slot
}

// the API's index of manifolds with points (fcWorld_GetContact(i) is a lookup): manifold m of pair slot ci appended
// as the count-th entry; returns the new count
static int fcContacts_IndexManifold(fcContactSet* set, int count, int ci, int m)
{
    if (count == set->manifoldRefCapacity) {
        set->manifoldRefCapacity = 2 * set->manifoldRefCapacity + 64;
        set->manifoldRefs = fcRealloc(set->manifoldRefs, sizeof(int) * (size_t)set->manifoldRefCapacity);
    }
    set->manifoldRefs[count] = ci * FC_MAX_PAIR_MANIFOLDS + m;
    return count + 1;
}

// The index built again after a shape's contacts were destroyed between steps (they leave the touching list at
// once); the collide stage builds it as it lists the touching pairs
static void fcContacts_RebuildIndex(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    int kept = 0;
    for (int t = 0; t < set->touchingCount; ++t)
        if (fcContacts_Pair(set, set->touching[t])->inUse) set->touching[kept++] = set->touching[t];
    set->touchingCount = kept;
    int manifolds = 0;
    for (int t = 0; t < set->touchingCount; ++t) {
        const fcContact* c = fcContacts_Pair(set, set->touching[t]);
        for (int m = 0; m < c->manifoldCount; ++m)
            if (c->manifolds[m].pointCount > 0) manifolds = fcContacts_IndexManifold(set, manifolds, set->touching[t], m);
    }
    world->stats.contactCount = manifolds;
}

static void fcContacts_PairFound(int a, int b, void* context) { fcContacts_Create(context, a, b); }

void fcContacts_AddShape(fcWorld* world, int index)
{
    fcShape* s = world->shapes + index;
    const fcBody* b = world->bodies + s->body;
    s->transform = fcShape_GetTransform(world, s);
    s->aabb = fcGeometry_ComputeAabb(&s->geometry, s->transform);
    s->proxy = fcBroadphase_CreateProxy(&world->broadphase, s->aabb, index, !fcContacts_Moves(b));
}

bool fcContacts_WantsEvents(const fcWorld* world, const fcContact* c)
{
    return world->shapes[c->shapeA].def.enableContactEvents || world->shapes[c->shapeB].def.enableContactEvents;
}

// The end of a touching pair that goes (its shapes apart, or taken away): a sensor's, or a contact's that wants
// events. Between steps (the API took it away) it is reported with the next step's events: a begin is always
// followed by its end, even when the shape is gone.
static void fcContacts_ReportEnd(fcWorld* world, const fcContact* c, bool betweenSteps)
{
    if (!c->touching || (!c->sensor && !fcContacts_WantsEvents(world, c))) return;
    fcEventType type = c->sensor ? fc_eventSensorEnd : fc_eventContactEnd;
    const fcContactManifold* m = c->sensor ? NULL : c->manifolds;
    if (betweenSteps) fcEvents_ContactBetweenSteps(world, type, c, m);
    else fcEvents_Contact(world, type, c, m);
}

// A shape's pairs go with it. The body on the other side of each is woken: asleep, a box resting on a destroyed
// shape or body stayed in the air; awake, it wakes the sleepers it touches in the next step (fcContacts_WakeSleepers)
void fcContacts_RemoveShape(fcWorld* world, int index)
{
    fcShape* s = world->shapes + index;
    fcContactSet* set = &world->contacts;
    for (int c = 0; c < set->high; ++c) {
        const fcContact* k = fcContacts_Pair(set, c);
        if (!k->inUse || (k->shapeA != index && k->shapeB != index)) continue;
        fcBody_Wake(world, world->bodies + (k->shapeA == index ? k->bodyB : k->bodyA));
        fcContacts_ReportEnd(world, k, true);
        fcContacts_Destroy(world, c);
    }
    fcContacts_RebuildIndex(world);
    if (s->proxy >= 0) fcBroadphase_DestroyProxy(&world->broadphase, s->proxy);
    s->proxy = -1;
}

// the speculative distance of a pair: the world's margin, and as far as the bodies can close in one step, so
// that a fast body meets a thin wall before it has passed it
// (the turning part of each side, |w| times half its box's diagonal, is the shape's, fcContacts_SpinReach)
static fcReal fcContacts_Margin(const fcWorld* world, const fcContact* c)
{
    const fcBody* ba = world->bodies + c->bodyA;
    const fcBody* bb = world->bodies + c->bodyB;
    const fcReal* spin = world->contacts.shapeSpinReach;
    fcReal speed = fcVec3_Length(fcVec3_Sub(bb->linearVelocity, ba->linearVelocity)) + spin[c->shapeA] + spin[c->shapeB];
    fcReal reach = speed * world->def.timestep;
    return world->def.contactMargin > reach ? world->def.contactMargin : reach;
}

// fmin and fmax are calls into libm here (their NaN rules keep them from being inlined); the values are finite
static fcReal fcContacts_Min(fcReal a, fcReal b) { return b < a ? b : a; }
static fcReal fcContacts_Max(fcReal a, fcReal b) { return b > a ? b : a; }

// a body whose path over the step its velocity, its turning and gravity bound (fcContacts_StayApart): not dynamic
// (moved by its velocity alone), or dynamic in `pairs` pairs (1: only the pair being swept), unjointed and unpushed
static bool fcContacts_Alone(const fcWorld* world, const fcBody* b, int pairs)
{
    if (b->type != fc_dynamicBody) return true;
    fcVec3 f = fcBody_StepForce(world, b), t = fcBody_StepTorque(world, b);
    return pairs == 1 && b->jointCount == 0 && fcVec3_Dot(f, f) == 0 && fcVec3_Dot(t, t) == 0;
}

// A pair given a speculative margin beyond the world's by its speed: do its shapes touch in this step at all? Its
// points were found at the step's start with the normal there, and a row linearised there stops any approach
// along that normal beyond the gap: a ball passing 1 cm beside a box's edge at 50 m/s was caught by the edge's
// point and thrown off its line (27.5, -4.4 m/s for 35.4, -35.4). The shapes' centres move at their bodies' point
// velocities; their turns (the spin reach, and the bend of an off-centre shape's path, under |w|^2 |d| h^2) and
// gravity move any point at most (spin_a + spin_b) h + (|g| + |w_a|^2 |d_a| + |w_b|^2 |d_b|) h^2 more, so a linear
// sweep of a rounded by that which never reaches b proves they stay apart. That holds only for bodies nothing else
// moves within the step (fcContacts_Alone): another contact could turn a body into the pair whose points were
// dropped (a ball at 30 m/s turned by a wall passed through a 2 cm plate across its new path), and so could its
// joints (S7's ragdolls: 7500 points dropped, their deepest overlap 4.8 -> 6.4 cm) and the forces applied to it (a
// push of 600 m/s^2 across its path, in the step it passed an edge, took a ball 9 cm into the box). Only a pair
// whose points slide more than the world's margin across the normal in the step, and whose approach along it would
// close its gap, is swept: slower, a point stays on or near its feature and the row at the start is right to first
// order. Planes and meshes are not swept (their points stay).
static bool fcContacts_StayApart(const fcWorld* world, const fcContact* c, const fcShape* sa, const fcShape* sb, const fcManifold* m)
{
    const fcBody* ba = world->bodies + c->bodyA;
    const fcBody* bb = world->bodies + c->bodyB;
    const uint8_t* pairs = world->contacts.bodyPairs;
    if (!fcContacts_Alone(world, ba, pairs[c->bodyA]) || !fcContacts_Alone(world, bb, pairs[c->bodyB])) return false;
    fcReal h = world->def.timestep;
    fcVec3 ca = fcAabb_Centre(sa->aabb);
    fcVec3 cb = fcAabb_Centre(sb->aabb);
    fcVec3 da = fcVec3_Sub(ca, ba->position), db = fcVec3_Sub(cb, bb->position);
    fcVec3 va = fcBody_PointVelocity(ba, da), vb = fcBody_PointVelocity(bb, db);
    fcVec3 v = fcVec3_Sub(va, vb), across = fcVec3_MulAdd(v, -fcVec3_Dot(v, m->normal), m->normal);
    if (fcVec3_Length(across) * h <= world->def.contactMargin) return false;
    const fcReal* spin = world->contacts.shapeSpinReach;
    fcReal bend = fcVec3_Dot(ba->angularVelocity, ba->angularVelocity) * fcVec3_Length(da) +
                  fcVec3_Dot(bb->angularVelocity, bb->angularVelocity) * fcVec3_Length(db);
    fcReal within = (spin[c->shapeA] + spin[c->shapeB]) * h + (fcVec3_Length(world->def.gravity) + bend) * h * h;
    // a pair whose gap the approach along the normal does not close leaves its rows idle: nothing to sweep
    fcReal gap = m->points[0].separation;
    for (int k = 1; k < m->pointCount; ++k) gap = fcContacts_Min(gap, m->points[k].separation);
    if (fcVec3_Dot(v, m->normal) * h + within <= gap) return false;
    return fcGeometry_SweepMisses(&sa->geometry, sa->transform, fcVec3_Scale(h, v), &sb->geometry, sb->transform, within);
}

static void fcContacts_MixMaterial(const fcWorld* world, fcContact* c)
{
    const fcShapeDef* da = &world->shapes[c->shapeA].def;
    const fcShapeDef* db = &world->shapes[c->shapeB].def;
    c->friction = world->def.frictionOverride >= 0 ? world->def.frictionOverride : FC_SQRT(da->friction * db->friction);
    c->restitution = world->def.restitutionOverride >= 0 ? world->def.restitutionOverride
                                                         : (da->restitution > db->restitution ? da->restitution : db->restitution);
    c->rollingFriction = da->rollingFriction > db->rollingFriction ? da->rollingFriction : db->rollingFriction;
    c->torsionalFriction = da->torsionalFriction > db->torsionalFriction ? da->torsionalFriction : db->torsionalFriction;
}

// what a manifold's points hand on to the next step's points with the same feature id, or near where they were
typedef struct fcContactMemory {
    uint32_t key;
    int pointCount;
    fcVec3 tangent[2];
    fcReal friction[3], rollingImpulse[2], twistImpulse;
    struct {
        uint32_t id;
        fcVec3 localA;
        fcReal normalImpulse, totalNormalImpulse;
        bool slipping;
    } points[FC_MAX_MANIFOLD_POINTS];
} fcContactMemory;

// the first tangent along the sliding velocity at the point when there is one: the friction pyramid then bounds
// the sliding friction by mu lambda_n exactly, as the cone would
static void fcContacts_Tangents(const fcBody* ba, const fcBody* bb, fcVec3 point, fcVec3 normal, fcVec3 tangent[2])
{
    fcVec3 dv = fcVec3_Sub(fcBody_PointVelocity(bb, fcVec3_Sub(point, bb->position)), fcBody_PointVelocity(ba, fcVec3_Sub(point, ba->position)));
    fcVec3 slide = fcVec3_MulAdd(dv, -fcVec3_Dot(dv, normal), normal);
    tangent[0] = fcVec3_Length(slide) > 1e-3 ? fcVec3_Normalize(slide) : fcVec3_Perpendicular(normal);
    tangent[1] = fcVec3_Cross(normal, tangent[0]);
}

// a friction impulse along the tangents from, re-expressed along the tangents to (the basis follows the normal);
// out may be in
static void fcContacts_TurnFriction(const fcReal in[2], const fcVec3 from[2], const fcVec3 to[2], fcReal out[2])
{
    fcVec3 t = fcVec3_Add(fcVec3_Scale(in[0], from[0]), fcVec3_Scale(in[1], from[1]));
    out[0] = fcVec3_Dot(t, to[0]);
    out[1] = fcVec3_Dot(t, to[1]);
}

// the pair's touching flag, and its begin or end event when one of its shapes asks for them
static void fcContacts_SetTouching(const fcWorld* world, fcContact* c, bool touching)
{
    if (fcContacts_WantsEvents(world, c) && touching != c->touching)
        c->event = (int8_t)(touching ? fc_eventContactBegin : fc_eventContactEnd);
    c->touching = touching;
}

// shapes whose points stay where they are on both bodies while the bodies keep their relative pose (fcContacts_Keep)
static bool fcContacts_Flat(const fcShape* s)
{
    fcShapeType t = s->geometry.type;
    return t == fc_boxShape || t == fc_hullShape || t == fc_planeShape;
}

// the new manifolds of a pair, collided within margin: points inherit the impulses of the last step's points with
// the same feature id, else of the nearest unclaimed one close by. Touches only the pair (a begin or end is left in
// c->event), so pairs are updated in parallel.
static void fcContacts_Update(const fcWorld* world, fcContact* c, fcContactKept* kept, const fcManifold* fresh, int count, fcReal margin)
{
    fcContactMemory old[FC_MAX_PAIR_MANIFOLDS];
    int oldCount = c->manifoldCount;
    for (int o = 0; o < oldCount; ++o) {
        const fcContactManifold* m = c->manifolds + o;
        old[o].key = m->key;
        old[o].pointCount = m->pointCount;
        old[o].tangent[0] = m->tangent[0];
        old[o].tangent[1] = m->tangent[1];
        old[o].rollingImpulse[0] = m->rollingImpulse[0];
        old[o].rollingImpulse[1] = m->rollingImpulse[1];
        old[o].twistImpulse = m->twistImpulse;
        for (int k = 0; k < 3; ++k) old[o].friction[k] = m->friction[k];
        for (int i = 0; i < m->pointCount; ++i) {
            const fcContactPoint* q = m->points + i;
            old[o].points[i].id = q->id;
            old[o].points[i].localA = q->localA;
            old[o].points[i].normalImpulse = q->normalImpulse;
            old[o].points[i].totalNormalImpulse = q->totalNormalImpulse;
            old[o].points[i].slipping = q->slipping;
        }
    }
    const fcBody* ba = world->bodies + c->bodyA;
    const fcBody* bb = world->bodies + c->bodyB;
    c->manifoldCount = count;
    bool touching = false;
    for (int m = 0; m < count; ++m) {
        fcContactManifold* cm = c->manifolds + m;
        const fcManifold* f = fresh + m;
        memset(cm->points, 0, sizeof(fcContactPoint) * (size_t)f->pointCount);
        cm->normal = f->normal;
        fcContacts_Tangents(ba, bb, f->pointCount > 0 ? f->points[0].point : ba->position, f->normal, cm->tangent);
        cm->pointCount = f->pointCount;
        cm->key = f->key;
        const fcContactMemory* prev = NULL;
        for (int o = 0; o < oldCount; ++o)
            if (old[o].key == f->key) prev = old + o;
        cm->rollingImpulse[0] = prev ? prev->rollingImpulse[0] : 0;
        cm->rollingImpulse[1] = prev ? prev->rollingImpulse[1] : 0;
        cm->twistImpulse = prev ? prev->twistImpulse : 0;
        // the manifold's friction goes on where its key does (its points may come and go)
        cm->friction[0] = cm->friction[1] = cm->friction[2] = 0;
        cm->totalFriction[0] = cm->totalFriction[1] = cm->totalFriction[2] = 0;
        if (prev) {
            fcContacts_TurnFriction(prev->friction, prev->tangent, cm->tangent, cm->friction);
            // the twist is about n (t1 x t2): a normal that flipped turns it the other way
            cm->friction[2] = fcVec3_Dot(fcVec3_Cross(prev->tangent[0], prev->tangent[1]), cm->normal) < 0 ? -prev->friction[2] : prev->friction[2];
        }
        bool used[FC_MAX_MANIFOLD_POINTS] = {false};
        int from[FC_MAX_MANIFOLD_POINTS];
        for (int i = 0; i < f->pointCount; ++i) {
            fcContactPoint* p = cm->points + i;
            p->id = f->points[i].id;
            p->separation = f->points[i].separation;
            p->rA = fcVec3_Sub(f->points[i].point, ba->position);
            p->rB = fcVec3_Sub(f->points[i].point, bb->position);
            p->localA = fcQuat_InvRotate(ba->orientation, p->rA);
            p->localB = fcQuat_InvRotate(bb->orientation, p->rB);
            if (p->separation < world->def.contactSlop) touching = true;
            from[i] = -1;
            if (prev == NULL) continue;
            for (int o = 0; o < prev->pointCount; ++o)
                if (!used[o] && prev->points[o].id == p->id) {
                    from[i] = o;
                    used[o] = true;
                    break;
                }
        }
        if (prev == NULL) continue;
        // a point whose id is new takes the impulse of the nearest unclaimed old point within a fifth of the slop
        // (in a's frame): a clip of two curved outlines turns a rim vertex just outside the other cap into a cut
        // beside it. Within the whole slop, towers of boxes rocking onto other points kept rocking (a stress run).
        for (int i = 0; i < f->pointCount; ++i) {
            if (from[i] >= 0) continue;
            fcReal reach = (fcReal)0.2 * world->def.contactSlop, best = reach * reach;
            for (int o = 0; o < prev->pointCount; ++o) {
                if (used[o]) continue;
                fcVec3 d = fcVec3_Sub(prev->points[o].localA, cm->points[i].localA);
                fcReal d2 = fcVec3_Dot(d, d);
                if (d2 < best) {
                    best = d2;
                    from[i] = o;
                }
            }
            if (from[i] >= 0) used[from[i]] = true;
        }
        for (int i = 0; i < f->pointCount; ++i) {
            if (from[i] < 0) continue;
            fcContactPoint* p = cm->points + i;
            int o = from[i];
            p->normalImpulse = prev->points[o].normalImpulse;
            p->lastNormalImpulse = prev->points[o].totalNormalImpulse;
            p->wasSlipping = prev->points[o].slipping;
        }
    }
    if (c->sensor) {
        // a sensor overlaps when any point is at or below zero separation
        bool overlap = false;
        for (int m = 0; m < count; ++m)
            for (int i = 0; i < fresh[m].pointCount; ++i) overlap = overlap || fresh[m].points[i].separation <= 0;
        if (overlap != c->touching) c->event = (int8_t)(overlap ? fc_eventSensorBegin : fc_eventSensorEnd);
        c->touching = overlap;
        c->manifoldCount = 0;  // a sensor carries no force
        c->keepable = false;
        return;
    }
    fcContacts_SetTouching(world, c, touching);
    const fcShape* sa = world->shapes + c->shapeA;
    const fcShape* sb = world->shapes + c->shapeB;
    c->keepable = count > 0 && fcContacts_Flat(sa) && fcContacts_Flat(sb);
    if (!c->keepable) return;
    c->keptInA = false;
    kept->margin = margin;
    kept->position = fcVec3_Sub(bb->position, ba->position);
    kept->orientation[0] = ba->orientation;
    kept->orientation[1] = bb->orientation;
}

// A pair whose bodies have not moved against each other since the narrowphase found its points keeps them: the
// separating axis test and the clip would find the same features again. Most of a resting stack's pairs are such
// (S3's pyramid), and the test, the clip and fcContacts_Update cost some 3600 instructions a box pair; this costs
// about 1350. Within FC_KEEP_SHIFT times the contact slop and FC_KEEP_TURN radians of the pose of that
// narrowphase (body b in body a's frame), each point's anchors, fixed in the two bodies, are measured again: the
// separation grows by how far they moved apart along the normal, which turns with body a, and they meet again
// midway, as a new point's do. What is not followed is the clip's outline (a cut point moves with its edge by at
// most the shift and the turn times the shapes' size) and new points within a wider margin: a pair that closes
// faster than at that narrowphase collides again. Flat shapes only (fcContacts_Flat): on a round side the point
// rolls over the surface as the bodies turn.
#define FC_KEEP_SHIFT ((fcReal)2e-3)
#define FC_KEEP_TURN ((fcReal)1e-4)
static bool fcContacts_Keep(const fcWorld* world, fcContact* c, fcContactKept* kept, fcReal margin)
{
    if (!c->keepable || margin > kept->margin) return false;
    const fcBody* ba = world->bodies + c->bodyA;
    const fcBody* bb = world->bodies + c->bodyB;
    fcVec3 d = fcVec3_Sub(bb->position, ba->position);
    fcReal reach = FC_KEEP_SHIFT * world->def.contactSlop, half = (fcReal)0.5 * FC_KEEP_TURN;
    // the distance between the centres is the same in every frame: where it changed by more than the reach, so did
    // the pose, found without a rotation (a moving pile's pairs: S4 took 1.8 % more instructions without this)
    if (FC_FABS(fcVec3_Length(d) - fcVec3_Length(kept->position)) > reach) return false;
    if (!c->keptInA) {
        // the manifolds' normals are still the narrowphase's (a keep would have made keptInA)
        fcMat33 toKept = fcMat33_Transpose(fcMat33_FromQuat(kept->orientation[0]));
        kept->position = fcMat33_MulV(toKept, kept->position);
        kept->orientation[0] = fcQuat_Mul(fcQuat_Conj(kept->orientation[0]), kept->orientation[1]);
        for (int m = 0; m < c->manifoldCount; ++m) c->manifolds[m].localNormal = fcMat33_MulV(toKept, c->manifolds[m].normal);
        c->keptInA = true;
    }
    fcQuat qa = ba->orientation, qb = bb->orientation;
    // the rotations as matrices: fewer operations than the quaternions' for a point's four turns (S3: 1690 -> 1360
    // instructions a kept pair)
    fcMat33 toA = fcMat33_Transpose(fcMat33_FromQuat(qa));
    fcVec3 shift = fcVec3_Sub(fcMat33_MulV(toA, d), kept->position);
    fcQuat turn = fcQuat_Mul(fcQuat_Conj(kept->orientation[0]), fcQuat_Mul(fcQuat_Conj(qa), qb));
    // |the turn's vector part| = sin(angle / 2): exact for small angles, where its w is 1 to rounding
    if (fcVec3_Dot(shift, shift) > reach * reach || turn.x * turn.x + turn.y * turn.y + turn.z * turn.z > half * half) return false;
    fcMat33 fromA = fcMat33_Transpose(toA), fromB = fcMat33_FromQuat(qb), toB = fcMat33_Transpose(fromB);
    bool touching = false;
    for (int m = 0; m < c->manifoldCount; ++m) {
        fcContactManifold* cm = c->manifolds + m;
        fcVec3 n = fcMat33_MulV(fromA, cm->localNormal);
        fcVec3 pc = ba->position;
        for (int i = 0; i < cm->pointCount; ++i) {
            fcContactPoint* p = cm->points + i;
            fcVec3 armA = fcMat33_MulV(fromA, p->localA), armB = fcMat33_MulV(fromB, p->localB);
            fcVec3 gap = fcVec3_Sub(fcVec3_Add(bb->position, armB), fcVec3_Add(ba->position, armA));
            p->separation += fcVec3_Dot(n, gap);
            p->rA = fcVec3_MulAdd(armA, (fcReal)0.5, gap);
            p->rB = fcVec3_MulAdd(armB, (fcReal)-0.5, gap);
            if (i == 0) pc = fcVec3_Add(ba->position, p->rA);
            p->localA = fcMat33_MulV(toA, p->rA);
            p->localB = fcMat33_MulV(toB, p->rB);
            if (p->separation < world->def.contactSlop) touching = true;
            // what fcContacts_Update hands on to a point with the same id, and clears
            p->lastNormalImpulse = p->totalNormalImpulse;
            p->wasSlipping = p->slipping;
            p->totalNormalImpulse = 0;
            p->trialImpulse = 0;
            p->slipping = false;
        }
        fcVec3 last[2] = {cm->tangent[0], cm->tangent[1]};
        cm->normal = n;
        fcContacts_Tangents(ba, bb, pc, n, cm->tangent);
        fcContacts_TurnFriction(cm->friction, last, cm->tangent, cm->friction);
        cm->totalFriction[0] = cm->totalFriction[1] = cm->totalFriction[2] = 0;
    }
    fcContacts_SetTouching(world, c, touching);
    return true;
}

// A shape whose category or mask is 0 pairs with nothing and no query sees it (fcQuery_Accepts filters like a
// pair): its proxy is left where it is until its filter changes (fcContacts_ShapeFilterChanged). The S1 chain's
// drawn links spent 10 % of its step keeping their proxies up.
static bool fcContacts_Unseen(const fcShape* s) { return s->def.categoryBits == 0 || s->def.maskBits == 0; }

// The grains of the collide stage's parallel loops. A chunk of 64 pair slots costs tens of microseconds (a box-box
// pair about a microsecond), well above the cost of handing it to a worker, but fewer than FC_PAIR_INLINE slots
// are not worth handing out (a parallel loop costs microseconds, more on a loaded machine: the 68 pairs of a
// capsule chain took 8 us alone and 22 us split in two; and a pair a worker updated reaches the contact solver
// from the other core's cache: S3's 590 pairs went 3 % slower on 2 threads than on 1). A shape's refit is a few
// hundred instructions, so only worlds of more than 256 shapes split it. Small worlds (S1, the small tests) stay on the caller.
#define FC_SHAPE_GRAIN 256
#define FC_PAIR_GRAIN 64
#define FC_PAIR_INLINE 1024

// A shape in its body's frame (the common case) has the body's pose: the same values as fcShape_GetTransform's
// product with the identity, without its two quaternion products (a tenth of the collide stage's per-shape work)
static fcTransform fcContacts_ShapeTransform(const fcWorld* world, const fcShape* s)
{
    const fcShapeDef* d = &s->def;
    const fcBody* b = world->bodies + s->body;
    bool atBody = d->localPosition.x == 0 && d->localPosition.y == 0 && d->localPosition.z == 0 && d->localOrientation.w == 1 &&
                  d->localOrientation.x == 0 && d->localOrientation.y == 0 && d->localOrientation.z == 0;
    if (!atBody) return fcShape_GetTransform(world, s);
    fcTransform xf = {b->position, b->orientation};
    return xf;
}

// whether a shape's frame is at its body's centre (the common case, kept cheap below), exactly
static inline bool fcContacts_Centred(const fcShape* s, const fcBody* b)
{
    return s->transform.p.x == b->position.x && s->transform.p.y == b->position.y && s->transform.p.z == b->position.z;
}

// the box of a moving shape swept over the coming step, d its displacement: a fast body's pairs are found before it
// reaches them. A shape off its body's centre moves at its own point's velocity, and its path bends from that line
// by up to |w|^2 |r| h^2 / 2 as the body turns.
static inline __attribute__((always_inline)) fcAabb fcContacts_Swept(const fcWorld* world, const fcShape* s, const fcBody* b, fcVec3* d)
{
    fcReal h = world->def.timestep;
    fcAabb swept = s->aabb;
    if (fcContacts_Centred(s, b)) {
        *d = fcVec3_Scale(h, b->linearVelocity);
    } else {
        // from the centre of the shape's box: a hull's frame may lie far from its points (a hull 5 m from its own
        // origin passed a 2 cm plate with the origin's velocity)
        fcVec3 r = fcVec3_Sub(fcAabb_Centre(s->aabb), b->position);
        *d = fcVec3_Scale(h, fcBody_PointVelocity(b, r));
        fcReal bend = (fcReal)0.5 * fcVec3_Dot(b->angularVelocity, b->angularVelocity) * fcVec3_Length(r) * h * h;
        swept.lo = fcVec3_Sub(swept.lo, fcV3(bend, bend, bend));
        swept.hi = fcVec3_Add(swept.hi, fcV3(bend, bend, bend));
    }
    swept.lo = fcV3(fcContacts_Min(swept.lo.x, swept.lo.x + d->x), fcContacts_Min(swept.lo.y, swept.lo.y + d->y),
                    fcContacts_Min(swept.lo.z, swept.lo.z + d->z));
    swept.hi = fcV3(fcContacts_Max(swept.hi.x, swept.hi.x + d->x), fcContacts_Max(swept.hi.y, swept.hi.y + d->y),
                    fcContacts_Max(swept.hi.z, swept.hi.z + d->z));
    return swept;
}

// what a shape's proxy needs this step (fcContactSet.shapeRefit)
enum { FC_REFIT_NONE, FC_REFIT_STALE, FC_REFIT_MOVE };

// per shape, in parallel: the pose of its frame (read by every pair's narrowphase) and its tight box. A static
// shape keeps both until its body is moved; a sleeping body's shapes keep their box (their proxies stay put).
// Whether its proxy must be refitted is decided here too (the trees are only read), so that the sequential pass
// after it visits the few shapes that left their fat boxes, not every shape again.
static void fcContacts_RefitChunk(void* context, int begin, int end)
{
    fcWorld* world = context;
    for (int k = begin; k < end; ++k) {
        fcShape* s = world->shapes + k;
        world->contacts.shapeRefit[k] = FC_REFIT_NONE;
        if (!s->inUse || s->proxy < 0) continue;
        const fcBody* b = world->bodies + s->body;
        if (fcContacts_Moves(b) || b->moved) {
            s->transform = fcContacts_ShapeTransform(world, s);
            if (!b->asleep && !fcContacts_Unseen(s)) s->aabb = fcGeometry_ComputeAabb(&s->geometry, s->transform);
        }
        // the speed at which its box's corners can turn toward another shape (a static body's: none), for the
        // margin of every pair it is in (fcContacts_Margin): once a shape, not twice a pair. A shape off its body's
        // centre is carried round it too, at |w| times that distance (a dumbbell's ball at 2 m turning at 2.5
        // rad/s passed through a 2 cm plate between two steps' speculative points)
        fcReal reach = b->type == fc_staticBody   ? 0
                       : fcContacts_Centred(s, b) ? 0.5 * fcVec3_Distance(s->aabb.hi, s->aabb.lo)
                                                  : fcAabb_Reach(s->aabb, b->position);
        world->contacts.shapeSpinReach[k] = fcVec3_Length(b->angularVelocity) * reach;
        if ((!fcContacts_Moves(b) && !b->moved) || b->asleep) continue;
        if (fcContacts_Unseen(s)) {
            world->contacts.shapeRefit[k] = FC_REFIT_STALE;
            continue;
        }
        fcVec3 d;
        if (!fcBroadphase_ProxyHolds(&world->broadphase, s->proxy, fcContacts_Swept(world, s, b, &d)))
            world->contacts.shapeRefit[k] = FC_REFIT_MOVE;
    }
}

// then in shape order (the trees' shape depends on it): proxies whose box left their fat box are reinserted
static void fcContacts_RefreshProxies(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    if (set->shapeSpinReachCapacity < world->shapeHigh) {
        set->shapeSpinReachCapacity = world->shapeHigh;
        set->shapeSpinReach = fcRealloc(set->shapeSpinReach, sizeof(fcReal) * (size_t)world->shapeHigh);
        set->shapeRefit = fcRealloc(set->shapeRefit, (size_t)world->shapeHigh);
    }
    fcParallelFor(world->tasks, world->shapeHigh, FC_SHAPE_GRAIN, fcContacts_RefitChunk, world);
    for (int k = 0; k < world->shapeHigh; ++k) {
        if (set->shapeRefit[k] == FC_REFIT_NONE) continue;
        fcShape* s = world->shapes + k;
        if (set->shapeRefit[k] == FC_REFIT_STALE) {
            s->proxyStale = true;
            continue;
        }
        fcVec3 d;
        fcAabb swept = fcContacts_Swept(world, s, world->bodies + s->body, &d);
        fcBroadphase_MoveProxy(&world->broadphase, s->proxy, swept, d);
    }
    for (int k = 0; k < world->bodyHigh; ++k) world->bodies[k].moved = false;
}

// a shape's pose, box and proxy brought to where its body is now, between steps
static void fcContacts_ProxyToShape(fcWorld* world, fcShape* s)
{
    s->transform = fcShape_GetTransform(world, s);
    s->aabb = fcGeometry_ComputeAabb(&s->geometry, s->transform);
    fcBroadphase_MoveProxy(&world->broadphase, s->proxy, s->aabb, fcV3(0, 0, 0));
    s->proxyStale = false;
}

void fcContacts_ShapeFilterChanged(fcWorld* world, int shape)
{
    fcShape* s = world->shapes + shape;
    // pairs the new filter refuses go now, their bodies woken (a box whose filter stopped it colliding with the
    // platform it rested on stayed on it, awake or asleep); the proxy is queued so that the broadphase finds the pairs
    // it now allows, though the shape has not moved
    fcContactSet* set = &world->contacts;
    bool destroyed = false;
    for (int c = 0; c < set->high; ++c) {
        const fcContact* k = fcContacts_Pair(set, c);
        if (!k->inUse || (k->shapeA != shape && k->shapeB != shape) || fcContacts_ShouldCollide(world, k->shapeA, k->shapeB))
            continue;
        fcBody_Wake(world, world->bodies + k->bodyA);
        fcBody_Wake(world, world->bodies + k->bodyB);
        fcContacts_ReportEnd(world, k, true);
        fcContacts_Destroy(world, c);
        destroyed = true;
    }
    if (destroyed) fcContacts_RebuildIndex(world);
    fcBody_Wake(world, world->bodies + s->body);
    if (s->proxy >= 0) fcBroadphase_Touch(&world->broadphase, s->proxy);
    if (s->proxy < 0 || !s->proxyStale || fcContacts_Unseen(s)) return;
    fcContacts_ProxyToShape(world, s);
}

// A body put elsewhere by hand between steps: its shapes' boxes and proxies follow at once, so that the queries find
// it where it is before the next step (they found it nowhere: the proxies stayed where the body had been)
void fcContacts_BodyPutElsewhere(fcWorld* world, int body)
{
    const fcBody* b = world->bodies + body;
    for (int i = 0; i < b->shapeCount; ++i) {
        fcShape* s = world->shapes + b->shapes[i];
        if (s->proxy < 0) continue;
        if (fcContacts_Unseen(s)) {
            s->transform = fcShape_GetTransform(world, s);
            s->proxyStale = true;  // no query sees it; fcContacts_ShapeFilterChanged catches it up
            continue;
        }
        fcContacts_ProxyToShape(world, s);
    }
}

// A body whose centre of mass moved within it by `shift` (its frame; a shape added or taken away): its pairs' points
// move in its frame with it, so that a new point's nearest old one is still found (fcContacts_Update), and no pair
// keeps its points from the old frame (fcContacts_Keep compares body poses, which moved though no shape did)
void fcContacts_BodyCentreMoved(fcWorld* world, int body, fcVec3 shift)
{
    fcContactSet* set = &world->contacts;
    for (int c = 0; c < set->high; ++c) {
        // the compact slot bodies first (a sensor's are -1: it has no points): the records are 900 bytes apart
        if (set->pairBodies[2 * c] != body && set->pairBodies[2 * c + 1] != body) continue;
        fcContact* k = fcContacts_Pair(set, c);
        if (!k->inUse) continue;
        k->keepable = false;
        for (int m = 0; m < k->manifoldCount; ++m)
            for (int i = 0; i < k->manifolds[m].pointCount; ++i) {
                fcContactPoint* p = k->manifolds[m].points + i;
                if (k->bodyA == body) p->localA = fcVec3_Sub(p->localA, shift);
                if (k->bodyB == body) p->localB = fcVec3_Sub(p->localB, shift);
            }
    }
}

// The pairs' impulses kept from the last step, re-expressed for a step `ratio` times as long: a sleeping pair's
// totals (reported as impulse / the step's length), the last step's load a contact's end reports as its force
// before, and the substep impulses the next solve starts from
void fcContacts_RescaleImpulses(fcWorld* world, fcReal ratio)
{
    fcContactSet* set = &world->contacts;
    for (int c = 0; c < set->high; ++c) {
        fcContact* k = fcContacts_Pair(set, c);
        if (!k->inUse) continue;
        for (int m = 0; m < k->manifoldCount; ++m) {
            fcContactManifold* cm = k->manifolds + m;
            cm->rollingImpulse[0] *= ratio;
            cm->rollingImpulse[1] *= ratio;
            cm->twistImpulse *= ratio;
            for (int k = 0; k < 3; ++k) {
                cm->friction[k] *= ratio;
                cm->totalFriction[k] *= ratio;
            }
            for (int i = 0; i < cm->pointCount; ++i) {
                fcContactPoint* p = cm->points + i;
                p->normalImpulse *= ratio;
                p->totalNormalImpulse *= ratio;
                p->lastNormalImpulse *= ratio;
                p->trialImpulse *= ratio;
            }
        }
    }
}

// The user's pre-solve hook sees each manifold of a pair about to be solved: it may switch the pair off for
// this step or change its friction and restitution (the last manifold's values win for the pair). A value out of
// range is not taken; the first call of the step that set one says which, the later ones are counted (*refused) and
// said once after the pass (a hook that always wrote NaN put a message a manifold a step in the log).
static void fcContacts_PreSolve(fcWorld* world, fcContact* c, int* refused)
{
    for (int m = 0; m < c->manifoldCount && c->enabled; ++m) {
        if (c->manifolds[m].pointCount == 0) continue;
        fcContactData d;
        fcContacts_GetData(world, c, m, &d);
        bool keep = world->def.preSolve(d.shapeA, d.shapeB, &d, world->def.preSolveContext);
        if (!keep) {
            c->enabled = false;
            // a switched-off pair carries nothing this step
            for (int k = 0; k < c->manifoldCount; ++k) {
                fcContactManifold* cm = c->manifolds + k;
                for (int f = 0; f < 3; ++f) cm->friction[f] = cm->totalFriction[f] = 0;
                for (int i = 0; i < cm->pointCount; ++i) {
                    fcContactPoint* p = cm->points + i;
                    p->totalNormalImpulse = 0;
                    p->normalImpulse = 0;
                }
            }
            break;
        }
        // a value out of range is not taken (the step goes on)
        bool frictionOk = isfinite(d.friction) && d.friction >= 0;
        bool restitutionOk = isfinite(d.restitution) && d.restitution >= 0 && d.restitution <= 1;
        if (!frictionOk && *refused == 0)
            fcError("fcWorld_Step: the pre-solve hook set friction %g (finite and >= 0): kept %g", (double)d.friction, (double)c->friction);
        if (!restitutionOk && *refused == 0)
            fcError("fcWorld_Step: the pre-solve hook set restitution %g (in [0, 1]): kept %g", (double)d.restitution,
                    (double)c->restitution);
        *refused += !frictionOk || !restitutionOk;
        if (frictionOk) c->friction = d.friction;
        if (restitutionOk) c->restitution = d.restitution;
    }
}

// The solver sweeps the contacts from the bottom up (along gravity): the load of a stack then reaches the
// ground within one sweep instead of one box per sweep, and no side of a symmetric pile is always first.
// Each contact's height is computed once; ties keep the contacts' order.
//
// The heights are sorted by their bits: a double's bits, the sign bit flipped for positive numbers and all bits
// for negative ones, order as the numbers do (-0 is made +0 first, so that it ties with 0), and a stable radix
// sort of the touching list (in slot order) breaks ties by slot as a comparison sort on (height, slot) would.
// Eight passes of 8 bits, those where every key has the same byte skipped (most of the exponent's): about a
// sixth of the instructions of qsort with a comparison callback.
static uint64_t fcContacts_HeightKey(fcReal height)
{
    double h = (double)height + 0.0;
    uint64_t bits;
    memcpy(&bits, &h, sizeof bits);
    return bits >> 63 ? ~bits : bits | (1ull << 63);
}

// the height key of a pair with points: its first point's height along -gravity
static uint64_t fcContacts_PairHeightKey(const fcWorld* world, const fcContact* c)
{
    const fcBody* a = world->bodies + c->bodyA;
    fcVec3 p = fcVec3_Add(a->position, fcQuat_Rotate(a->orientation, c->manifolds[0].points[0].localA));
    return fcContacts_HeightKey(-fcVec3_Dot(world->def.gravity, p));
}

static bool fcContacts_KeyBefore(const fcContactKey* a, const fcContactKey* b)
{
    return a->key < b->key || (a->key == b->key && a->rank < b->rank);
}

static void fcContacts_SortByHeight(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    fcVec3 g = world->def.gravity;
    int n = set->touchingCount;
    if (fcVec3_Length(g) == 0 || n < 2) return;
    if (set->sortKeyCapacity < n) {
        set->sortKeyCapacity = set->touchingCapacity;
        set->sortKeys = fcRealloc(set->sortKeys, 2 * sizeof(fcContactKey) * (size_t)set->sortKeyCapacity);
        set->sortLast = fcRealloc(set->sortLast, 2 * sizeof(int) * (size_t)set->sortKeyCapacity);
        set->sortLastCount = -1;
    }
    fcContactKey* keys = set->sortKeys;
    fcContactKey* other = set->sortKeys + set->sortKeyCapacity;
    for (int t = 0; t < n; ++t) {
        keys[t].key = set->slotHeightKey[set->touching[t]];  // the narrowphase's (fcContacts_PairHeightKey)
        keys[t].index = set->touching[t];
        keys[t].rank = t;
    }
    // The same pairs as in the last step (a resting scene's): its order, put right by insertion, is the same order
    // (the pairs' (height, slot) are all different) in about n steps, when few pairs changed places; past 8 n moves,
    // the radix sort
    int* lastSlots = set->sortLast;
    int* lastRanks = set->sortLast + set->sortKeyCapacity;
    bool sorted = set->sortLastCount == n && memcmp(lastSlots, set->touching, sizeof(int) * (size_t)n) == 0;
    if (sorted) {
        for (int k = 0; k < n; ++k) other[k] = keys[lastRanks[k]];
        long moves = 0, most = 8L * n;
        for (int k = 1; k < n && moves <= most; ++k) {
            fcContactKey x = other[k];
            int j = k;
            for (; j > 0 && fcContacts_KeyBefore(&x, other + j - 1); --j) other[j] = other[j - 1];
            other[j] = x;
            moves += k - j;
        }
        sorted = moves <= most;
        if (sorted) {
            fcContactKey* swap = keys;
            keys = other;
            other = swap;
        }
    }
    if (!sorted) {
        int counts[8][256];
        memset(counts, 0, sizeof counts);
        for (int t = 0; t < n; ++t)
            for (int d = 0; d < 8; ++d) counts[d][(keys[t].key >> (8 * d)) & 255] += 1;
        for (int d = 0; d < 8; ++d) {
            int* count = counts[d];
            if (count[(keys[0].key >> (8 * d)) & 255] == n) continue;  // one byte for all: this pass moves nothing
            for (int b = 0, sum = 0; b < 256; ++b) {
                int k = count[b];
                count[b] = sum;
                sum += k;
            }
            for (int t = 0; t < n; ++t) other[count[(keys[t].key >> (8 * d)) & 255]++] = keys[t];
            fcContactKey* swap = keys;
            keys = other;
            other = swap;
        }
    }
    memcpy(lastSlots, set->touching, sizeof(int) * (size_t)n);
    set->sortLastCount = n;
    for (int t = 0; t < n; ++t) {
        set->touching[t] = keys[t].index;
        lastRanks[t] = keys[t].rank;
    }
}

// Whether the tight boxes of two shapes come closer than margin on every world axis. Farther apart along one, the
// shapes are at least that far apart, and the pair has nothing within its margin this step: in a falling pile most
// pairs found by the fat boxes are such, and the narrowphase would spend a separating axis test (a box pair's
// rotations, its 3 x 3 products and face axes) to find it out. The narrowphase's own bounds (the separating axis
// gaps) only ever underestimate the distance, so it could keep a speculative point that this drops; such a
// point had a true gap of at least the margin, the distance the pair cannot close within the step.
static bool fcContacts_WithinMargin(fcAabb a, fcAabb b, fcReal margin)
{
    return a.lo.x - b.hi.x < margin && b.lo.x - a.hi.x < margin && a.lo.y - b.hi.y < margin && b.lo.y - a.hi.y < margin &&
           a.lo.z - b.hi.z < margin && b.lo.z - a.hi.z < margin;
}

// Per body, while some body sleeps (fcContactSet.bodyMarks): what the wake search and the narrowphase ask of it,
// in one pass over the bodies before the proxies are refreshed (which forgets which static bodies were moved)
enum {
    FC_MARK_ASLEEP = 1,  // a sleeping dynamic body
    FC_MARK_WAKES = 2,   // an awake dynamic body, or a moving kinematic one: wakes a sleeper it is about to touch
    FC_MARK_STILL = 4,   // asleep, or static and not moved: its shapes and proxies stay where they were
    FC_MARK_MOVED = 8,   // put elsewhere by fcBody_SetTransform since the last step: wakes every sleeper it had a pair with
};

static void fcContacts_MarkBodies(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    if (set->bodyMarksCapacity < world->bodyHigh) {
        set->bodyMarksCapacity = world->bodyHigh;
        set->bodyMarks = fcRealloc(set->bodyMarks, (size_t)world->bodyHigh);
    }
    for (int k = 0; k < world->bodyHigh; ++k) {
        const fcBody* b = world->bodies + k;
        unsigned mark = 0;
        if (b->inUse) {
            if (b->type == fc_dynamicBody)
                mark = b->asleep ? FC_MARK_ASLEEP | FC_MARK_STILL : FC_MARK_WAKES;
            else if (b->type == fc_kinematicBody)
                mark = fcVec3_Length(b->linearVelocity) > 0 || fcVec3_Length(b->angularVelocity) > 0 ? FC_MARK_WAKES : 0;
            else if (!b->moved)
                mark = FC_MARK_STILL;
            if (b->moved) mark |= FC_MARK_MOVED;
        }
        set->bodyMarks[k] = (uint8_t)mark;
    }
}

// Sleepers an awake body (or a moving kinematic one) is about to touch, woken with their islands before the
// narrowphase (fcIslands_Wake): asleep, a body takes no joint rows and its pairs with other sleepers are not collided,
// so a contact impulse moved it off its joints. About to touch: the fat boxes overlap and the tight boxes come within
// the pair's margin, as for the narrowphase. A body put elsewhere by fcBody_SetTransform wakes every sleeper it had a
// pair with, near or not: a box asleep on a static platform that was moved away stayed asleep in the air. Only while
// some body sleeps: a pass over the pair slots' compact body pairs (a mostly sleeping pile of 1200 boxes has 11574
// slots, whose records the first version of this search read: 0.1 ms a step). The woken bodies' marks are brought
// up to date.
static void fcContacts_WakeSleepers(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    uint8_t* marks = set->bodyMarks;
    int count = 0;
    for (int ci = 0; ci < set->high; ++ci) {
        int a = set->pairBodies[2 * ci], b = set->pairBodies[2 * ci + 1];
        if (a < 0) continue;
        unsigned ma = marks[a], mb = marks[b];
        if (!(ma & FC_MARK_ASLEEP) == !(mb & FC_MARK_ASLEEP)) continue;  // one asleep, not both
        unsigned other = ma & FC_MARK_ASLEEP ? mb : ma;
        if (!(other & (FC_MARK_WAKES | FC_MARK_MOVED))) continue;
        if (!(other & FC_MARK_MOVED)) {
            const fcContact* c = fcContacts_Pair(set, ci);
            const fcShape* sa = world->shapes + c->shapeA;
            const fcShape* sb = world->shapes + c->shapeB;
            if (!fcBroadphase_TestOverlap(&world->broadphase, sa->proxy, sb->proxy) ||
                !fcContacts_WithinMargin(sa->aabb, sb->aabb, fcContacts_Margin(world, c)))
                continue;
        }
        if (count == set->sleepersToWakeCapacity) {
            set->sleepersToWakeCapacity = count ? 2 * count : 16;
            set->sleepersToWake = fcRealloc(set->sleepersToWake, sizeof(int) * (size_t)set->sleepersToWakeCapacity);
        }
        set->sleepersToWake[count++] = marks[a] & FC_MARK_ASLEEP ? a : b;
    }
    if (count == 0) return;
    fcIslands_Wake(world, set->sleepersToWake, count);
    for (int k = 0; k < world->bodyHigh; ++k)
        if ((marks[k] & FC_MARK_ASLEEP) && !world->bodies[k].asleep) marks[k] = FC_MARK_WAKES | (marks[k] & FC_MARK_MOVED);
}

// A pair slot's state after the narrowphase (fcContactSet.slotState): the sequential pass after it reads these two
// bytes a slot instead of the pair (the pairs lay 3 KB apart then, so each pair read there, and again by the manifold
// index and the sort by height, was a cache miss: in the S4 rain, 16 thousand a step)
#define FC_SLOT_IN_USE 0x1u
#define FC_SLOT_OVERLAP 0x2u
#define FC_SLOT_ENABLED 0x4u
#define FC_SLOT_EVENT 0x8u
#define FC_SLOT_MANIFOLDS 0x10u
#define FC_SLOT_POINTS_SHIFT 8  // bit 8 + m: manifold m has points

static uint16_t fcContacts_SlotState(const fcContact* c)
{
    unsigned state = FC_SLOT_IN_USE | (c->overlap ? FC_SLOT_OVERLAP : 0u) | (c->enabled ? FC_SLOT_ENABLED : 0u) |
                     (c->event >= 0 ? FC_SLOT_EVENT : 0u) | (c->manifoldCount > 0 ? FC_SLOT_MANIFOLDS : 0u);
    for (int m = 0; m < c->manifoldCount; ++m)
        if (c->manifolds[m].pointCount > 0) state |= 1u << (FC_SLOT_POINTS_SHIFT + m);
    return (uint16_t)state;
}

// whether a body leaves a pair as it was: asleep, static, or kinematic (but for a sensor, which sees it pass)
static bool fcContacts_Resting(const fcBody* b, bool sensor)
{
    if (b->type == fc_dynamicBody) return b->asleep;
    return b->type == fc_staticBody || !sensor;
}

// per pair slot, in parallel: whether the fat boxes still overlap, and the narrowphase with its id matching. Each
// pair writes only itself; the pair cache, the events and the user's hook wait for the sequential pass
static void fcContacts_NarrowChunk(void* context, int begin, int end)
{
    const fcWorld* world = context;
    const fcContactSet* set = &world->contacts;
    fcManifold fresh[FC_MAX_PAIR_MANIFOLDS];
    uint16_t* state = set->slotState;
    uint64_t* heightKey = set->slotHeightKey;
    bool sorted = fcVec3_Length(world->def.gravity) != 0;  // fcContacts_SortByHeight
    const uint8_t* marks = set->keepStillPairs ? set->bodyMarks : NULL;
    for (int ci = begin; ci < end; ++ci) {
        // a pair that was asleep at the last narrowphase, between bodies that have stayed put since, would come out
        // as it did then (no points collided, its fat boxes where they were, the height key along the same gravity):
        // its state and height key are kept, and its record (900 bytes from the next one's) is not read
        if (marks && (set->pairFlags[ci] & FC_PAIR_ASLEEP)) {
            int a = set->pairBodies[2 * ci], b = set->pairBodies[2 * ci + 1];
            if (marks[a] & marks[b] & FC_MARK_STILL) continue;
        }
        set->pairFlags[ci] = 0;
        fcContact* c = fcContacts_Pair(set, ci);
        state[ci] = 0;
        if (!c->inUse) continue;
        c->event = -1;
        const fcShape* sa = world->shapes + c->shapeA;
        const fcShape* sb = world->shapes + c->shapeB;
        c->overlap = fcBroadphase_TestOverlap(&world->broadphase, sa->proxy, sb->proxy);
        if (!c->overlap) {
            state[ci] = fcContacts_SlotState(c);
            continue;
        }
        const fcBody* ba = world->bodies + c->bodyA;
        const fcBody* bb = world->bodies + c->bodyB;
        // a pair with no awake dynamic body moves nothing and is not collided; but a sensor also sees a kinematic
        // shape (moved by its velocity or by hand) pass a static one, either one the sensor, and a sleeper come into
        // its view: the pair is new (a sensor made, or its filter widened), or a static body was put elsewhere
        bool asleep = fcContacts_Resting(ba, c->sensor) && fcContacts_Resting(bb, c->sensor);
        if (asleep && c->sensor && (c->fresh || (set->bodiesMarked && ((set->bodyMarks[c->bodyA] | set->bodyMarks[c->bodyB]) & FC_MARK_MOVED))))
            asleep = false;
        c->fresh = false;
        if (!asleep) {
            fcReal margin = fcContacts_Margin(world, c);
            fcContactKept* kept = set->slotKept + ci;
            if (fcContacts_Keep(world, c, kept, margin)) {
                fcContacts_MixMaterial(world, c);
            } else {
                // a mesh keeps pushing to the sides it pushed to (fcCollideHistory)
                fcCollideHistory last = {.count = 0};
                bool mesh = sa->geometry.type == fc_meshShape || sb->geometry.type == fc_meshShape;
                for (int k = 0; mesh && k < c->manifoldCount && k < FC_COLLIDE_HISTORY; ++k, ++last.count) {
                    last.key[k] = c->manifolds[k].key;
                    last.normal[k] = c->manifolds[k].normal;
                }
                int n = fcContacts_WithinMargin(sa->aabb, sb->aabb, margin)
                            ? fcCollide(&sa->geometry, sa->transform, &sb->geometry, sb->transform, margin, &last, fresh,
                                        fcContacts_ManifoldRoom(c))
                            : 0;
                // only a pair with points is solved or reported: the others' materials would go unread
                if (n > 0 && margin > world->def.contactMargin && fcContacts_StayApart(world, c, sa, sb, fresh)) n = 0;
                if (n > 0) fcContacts_MixMaterial(world, c);
                fcContacts_Update(world, c, kept, fresh, n, margin);
            }
        }
        c->enabled = c->manifoldCount > 0 && !asleep;  // a sleeping pair keeps its last impulses
        state[ci] = fcContacts_SlotState(c);
        if (!c->sensor) set->pairFlags[ci] = (uint8_t)((asleep ? FC_PAIR_ASLEEP : 0) | (c->touching ? FC_PAIR_TOUCHING : 0));
        if (sorted && c->manifoldCount > 0) heightKey[ci] = fcContacts_PairHeightKey(world, c);
    }
}

// fcContactSet.bodyPairs, for fcContacts_StayApart (in slot order, before the narrowphase's threads read it)
static void fcContacts_CountBodyPairs(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    if (set->bodyPairsCapacity < world->bodyHigh) {
        set->bodyPairsCapacity = world->bodyHigh;
        set->bodyPairs = fcRealloc(set->bodyPairs, (size_t)world->bodyHigh);
    }
    if (world->bodyHigh > 0) memset(set->bodyPairs, 0, (size_t)world->bodyHigh);  // (none yet: NULL)
    for (int k = 0; k < 2 * set->high; ++k) {
        int b = set->pairBodies[k];
        if (b >= 0 && set->bodyPairs[b] < 2) set->bodyPairs[b] += 1;
    }
}

// Seams between flush shapes that do not move: the tiles of a floor, a platform level with it. A box sliding across
// such a floor met the next tile's side face at the seam, a face the box's bottom touched because it rests up to
// the slop deep: its point stopped the box (at 5 m/s on tiles of 1 m the box tripped at the first seam, rose 18 cm,
// turned at 7 rad/s and stopped after 1.7 m of the 12.7 it slides). A pair of a body with a shape that does not move
// is a seam when the body has another such pair that touches (its normal n out of that shape, towards the body, and
// its plane through the surface points), the shape reaches no higher along n than that plane (within
// FC_SEAM_FLUSH of the slop: a tile of the same floor, not a wall nor a curb, however low: a curb lower than the slop
// would be entered and not climbed, since an overlap within the slop is left alone), and the points lie within the
// slop of the plane, along a normal that is not n. Its points are left out for the step: the body slides on; once
// over the next tile its narrowphase finds that tile's top face (the overlap across is then the larger). Convex
// shapes only (a mesh reaches everywhere: fcGeometry_Extent).
#define FC_SEAM_FLUSH 0.01

// where a manifold point lies on the still shape's surface: midway between the surfaces, less half the separation
// along n (out of that shape)
static fcVec3 fcContacts_StillSurfacePoint(const fcWorld* world, const fcContact* c, const fcContactPoint* p, fcVec3 n)
{
    return fcVec3_MulAdd(fcVec3_Add(world->bodies[c->bodyA].position, p->rA), -0.5 * p->separation, n);
}

static bool fcContacts_IsSeam(const fcWorld* world, int body, const fcContact* c1, const fcContactManifold* m1, const fcContact* c2,
                              const fcContactManifold* m2)
{
    fcReal slop = world->def.contactSlop;
    fcVec3 n1 = c1->bodyB == body ? m1->normal : fcVec3_Neg(m1->normal);
    fcVec3 n2 = c2->bodyB == body ? m2->normal : fcVec3_Neg(m2->normal);
    if (fcVec3_Dot(n1, n2) > 1 - 1e-6) return false;  // two faces side by side: both carry the body
    bool touching = false;
    fcReal plane = 0;
    for (int i = 0; i < m1->pointCount; ++i) {
        const fcContactPoint* p = m1->points + i;
        touching = touching || p->separation < slop;
        if (i == 0) plane = fcVec3_Dot(n1, fcContacts_StillSurfacePoint(world, c1, p, n1));
    }
    if (!touching) return false;
    const fcShape* shape = world->shapes + (c2->bodyA == body ? c2->shapeB : c2->shapeA);
    if (fcGeometry_Extent(&shape->geometry, fcContacts_ShapeTransform(world, shape), n1) > plane + FC_SEAM_FLUSH * slop) return false;
    // The points at the plane's level; any depth below it where the body's shape is the one resting on the plane:
    // convex, it lies above the plane (to its overlap), so a point far below is one it cannot reach, a lower tile's side
    // face found across the gap (a floor stepping down 2 mm a tile tripped a box at 5 m/s on such a point)
    bool sameShape = (c1->bodyA == body ? c1->shapeA : c1->shapeB) == (c2->bodyA == body ? c2->shapeA : c2->shapeB);
    for (int i = 0; i < m2->pointCount; ++i) {
        const fcContactPoint* p = m2->points + i;
        fcReal height = fcVec3_Dot(n1, fcContacts_StillSurfacePoint(world, c2, p, n2)) - plane;
        if (height > slop || (!sameShape && height < -slop)) return false;
    }
    return true;
}

// After the narrowphase, in slot order: the seams' points left out (fcContacts_IsSeam). The pairs between an awake
// dynamic body in two or more pairs and a shape that does not move are listed, each body's chained from its last
// (seamHead, per body, and the list's next), and the bodies with two or more such pairs are looked at.
static void fcContacts_DropSeams(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    int count = 0;
    for (int ci = 0; ci < set->high; ++ci) {
        if (!(set->slotState[ci] & FC_SLOT_IN_USE) || !(set->slotState[ci] & FC_SLOT_MANIFOLDS)) continue;
        int a = set->pairBodies[2 * ci], b = set->pairBodies[2 * ci + 1];
        if (a < 0 || b < 0) continue;  // a sensor's
        bool movesA = world->bodies[a].type == fc_dynamicBody, movesB = world->bodies[b].type == fc_dynamicBody;
        if (movesA == movesB) continue;
        int body = movesA ? a : b;
        if (set->bodyPairs[body] < 2 || world->bodies[body].asleep) continue;
        if (3 * count + 3 > set->seamScratchCapacity) {
            set->seamScratchCapacity = 2 * set->seamScratchCapacity + 96;
            set->seamScratch = fcRealloc(set->seamScratch, sizeof(int) * (size_t)set->seamScratchCapacity);
        }
        set->seamScratch[3 * count] = body;
        set->seamScratch[3 * count + 1] = ci;
        count += 1;
    }
    if (count < 2) return;
    if (set->seamHeadCapacity < world->bodyHigh) {
        set->seamHeadCapacity = world->bodyHigh;
        set->seamHead = fcRealloc(set->seamHead, sizeof(int) * (size_t)set->seamHeadCapacity);
    }
    int* list = set->seamScratch;  // per entry: body, pair slot, the body's entry before (-1: none)
    int* head = set->seamHead;
    for (int i = 0; i < count; ++i) head[list[3 * i]] = -1;
    for (int i = 0; i < count; ++i) {
        list[3 * i + 2] = head[list[3 * i]];
        head[list[3 * i]] = i;
    }
    for (int i = 0; i < count; ++i) {
        int body = list[3 * i];
        if (head[body] != i || list[3 * i + 2] < 0) continue;  // once a body, from its last entry; two or more
        for (int e2 = i; e2 >= 0; e2 = list[3 * e2 + 2]) {
            fcContact* c2 = fcContacts_Pair(set, list[3 * e2 + 1]);
            if (c2->manifoldCount != 1) continue;  // a convex pair's one manifold
            bool seam = false;
            for (int e1 = i; e1 >= 0 && !seam; e1 = list[3 * e1 + 2]) {
                const fcContact* c1 = fcContacts_Pair(set, list[3 * e1 + 1]);
                for (int m = 0; e1 != e2 && m < c1->manifoldCount && !seam; ++m)
                    seam = fcContacts_IsSeam(world, body, c1, c1->manifolds + m, c2, c2->manifolds);
            }
            if (!seam) continue;
            c2->manifolds[0].pointCount = 0;
            c2->manifoldCount = 0;
            c2->keepable = false;
            set->slotState[list[3 * e2 + 1]] = fcContacts_SlotState(c2);
        }
    }
}

void fcContacts_Collide(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    fcProfile* prof = &world->stageTicks;
    fcTick t0 = fcTicks();
    if (world->contactFilterDirty) {
        // joints came or went: a pair a joint now connects stops colliding
        for (int c = 0; c < set->high; ++c) {
            const fcContact* k = fcContacts_Pair(set, c);
            if (!k->inUse || fcContacts_ShouldCollide(world, k->shapeA, k->shapeB)) continue;
            fcContacts_ReportEnd(world, k, false);
            fcContacts_Destroy(world, c);
        }
        world->contactFilterDirty = false;
    }
    bool marked = world->asleepCount > 0;
    if (marked) fcContacts_MarkBodies(world);
    set->bodiesMarked = marked;
    fcContacts_RefreshProxies(world);
    fcBroadphase_UpdatePairs(&world->broadphase, fcContacts_PairFound, world);
    if (marked) fcContacts_WakeSleepers(world);
    fcContacts_CountBodyPairs(world);
    set->keepStillPairs = marked && memcmp(&set->keptGravity, &world->def.gravity, sizeof(fcVec3)) == 0;
    set->keptGravity = world->def.gravity;
    prof->broadphase += fcTicksSince(t0);
    fcTick t1 = fcTicks();

    if (set->slotCapacity < set->high) {
        set->slotCapacity = set->capacity;
        set->slotState = fcRealloc(set->slotState, sizeof(uint16_t) * (size_t)set->slotCapacity);
        set->slotHeightKey = fcRealloc(set->slotHeightKey, sizeof(uint64_t) * (size_t)set->slotCapacity);
        set->slotKept = fcRealloc(set->slotKept, sizeof(fcContactKept) * (size_t)set->slotCapacity);
    }
    fcParallelFor(set->high < FC_PAIR_INLINE ? NULL : world->tasks, set->high, FC_PAIR_GRAIN, fcContacts_NarrowChunk, world);
    fcContacts_DropSeams(world);
    // in slot order, as if the pairs had been collided one after the other: the same events in the same order,
    // the same free list, for any number of threads. The pairs' own fields are read only where something happens
    // (an event, a destroyed pair, the pre-solve hook); the manifold index (fcContacts_RebuildIndex's) is built here
    set->touchingCount = 0;
    set->enabledCount = 0;
    int pairs = 0, manifolds = 0, refused = 0;
    for (int ci = 0; ci < set->high; ++ci) {
        unsigned state = set->slotState[ci];
        if (!(state & FC_SLOT_IN_USE)) continue;
        if (!(state & FC_SLOT_OVERLAP)) {
            fcContacts_ReportEnd(world, fcContacts_Pair(set, ci), false);
            fcContacts_Destroy(world, ci);
            continue;
        }
        pairs += 1;
        bool enabled = state & FC_SLOT_ENABLED;
        if (state & FC_SLOT_EVENT) {
            fcContact* c = fcContacts_Pair(set, ci);
            fcEvents_Contact(world, (fcEventType)c->event, c, c->sensor ? NULL : c->manifolds);
        }
        if (enabled && world->def.preSolve != NULL) {
            fcContact* c = fcContacts_Pair(set, ci);
            if (!c->sensor) fcContacts_PreSolve(world, c, &refused);
            enabled = c->enabled;
        }
        set->enabledCount += enabled;
        if (state & FC_SLOT_MANIFOLDS) {  // sleeping pairs too: islands and the API see them
            if (set->touchingCount == set->touchingCapacity) {
                set->touchingCapacity = set->touchingCapacity ? 2 * set->touchingCapacity : 64;
                set->touching = fcRealloc(set->touching, sizeof(int) * (size_t)set->touchingCapacity);
            }
            set->touching[set->touchingCount++] = ci;
            for (int m = 0; m < FC_MAX_PAIR_MANIFOLDS; ++m)
                if (state & (1u << (FC_SLOT_POINTS_SHIFT + m))) manifolds = fcContacts_IndexManifold(set, manifolds, ci, m);
        }
    }
    if (refused > 1)
        fcError("fcWorld_Step: the pre-solve hook set values out of range for %d more manifold%s this step: each pair kept its own",
                refused - 1, refused > 2 ? "s" : "");
    world->stats.shapePairs = pairs;
    world->stats.contactCount = manifolds;
    if (set->touchingCount == 0) world->stats.contactPoints = 0;
    fcContacts_SortByHeight(world);
    set->layoutDirty = true;
    prof->narrowphase += fcTicksSince(t1);
}

// ---------------------------------------------------------------------------------------------------------------------
// API
// ---------------------------------------------------------------------------------------------------------------------

// Where a manifold's friction acts: across the normal at the mean of its touching points (those within the slop;
// all where none is), along it at its deepest point's level, as arms from the two bodies' centres at the collide
// stage; and the touching points' mean distance from it across the normal, r: for a turn about that centre their
// own friction under equal loads would reach mu sum lambda_n r, the twist's bound (0 for one point). The plain mean
// stood 1.4 mm above a rolling cylinder's line of contact (two of its four side points lay higher) and turned it as a
// smaller wheel: at 16 m/s down 40 deg it took 40 % more friction than m g sin / 3. Weighed by the last solve's
// loads, the centre followed which points the narrowphase matched to old ones (a box sliding over the seams of a
// tiled floor turned at 0.2 rad/s); taken at the deepest points alone, a box on a turning table lost its twist when
// one corner was the deepest by a tenth of the slop, and slipped.
fcReal fcContacts_PatchCentre(const fcContactManifold* m, fcReal slop, fcReal* weight, int* deepestPoint, fcVec3* centreA, fcVec3* centreB)
{
    int count = m->pointCount, touching = 0, deepest = 0;
    for (int i = 0; i < count; ++i) {
        touching += m->points[i].separation < slop;
        if (m->points[i].separation < m->points[deepest].separation) deepest = i;
    }
    fcVec3 ca = fcV3(0, 0, 0), cb = ca, n = m->normal;
    for (int i = 0; i < count; ++i) {
        weight[i] = touching == 0 || m->points[i].separation < slop ? (fcReal)1 / (touching > 0 ? touching : count) : 0;
        ca = fcVec3_MulAdd(ca, weight[i], m->points[i].rA), cb = fcVec3_MulAdd(cb, weight[i], m->points[i].rB);
    }
    if (count > 0) {
        ca = fcVec3_MulAdd(ca, fcVec3_Dot(n, fcVec3_Sub(m->points[deepest].rA, ca)), n);
        cb = fcVec3_MulAdd(cb, fcVec3_Dot(n, fcVec3_Sub(m->points[deepest].rB, cb)), n);
    }
    *centreA = ca;
    *centreB = cb;
    *deepestPoint = deepest;
    fcReal arm = 0;
    for (int i = 0; count > 1 && i < count; ++i) {
        fcVec3 d = fcVec3_Sub(m->points[i].rA, ca);
        arm += weight[i] * fcVec3_Length(fcVec3_MulAdd(d, -fcVec3_Dot(d, n), n));
    }
    return arm;
}

// A manifold's friction over the step shared among its points for the API (when it is asked for): the force F at
// the solver's centre c (fcContacts_PatchCentre) as the points carry the load (N_i / N of it), and forces k (n x d_i)
// across the touching points' offsets d_i from c in the plane (they add up to nothing: c is their mean), with k such
// that the shares' moment about n at c is the patch's twist tau. So the points' forces add up to F and turn the
// bodies about n as F and tau did (their moment across the plane differs only by the points' heights along n, within
// the slop), and a point apart carries none. About the plain mean of all the points, a cube on two corners
// reported a sixteenth of the moment that turned it.
static void fcContacts_ShareFriction(const fcContactManifold* m, const fcReal* weight, fcVec3 centre, fcContactPointData* out)
{
    int count = m->pointCount;
    fcVec3 n = m->normal, force = fcVec3_Add(fcVec3_Scale(m->totalFriction[0], m->tangent[0]), fcVec3_Scale(m->totalFriction[1], m->tangent[1]));
    fcVec3 d[FC_MAX_MANIFOLD_POINTS];
    fcReal load = 0, share[FC_MAX_MANIFOLD_POINTS];
    for (int i = 0; i < count; ++i) load += m->points[i].totalNormalImpulse;
    fcReal moment = 0, spread = 0;  // the load shares' moment about n at c; the touching points' sum |d_i|^2
    for (int i = 0; i < count; ++i) {
        fcVec3 r = fcVec3_Sub(m->points[i].rA, centre);
        d[i] = fcVec3_MulAdd(r, -fcVec3_Dot(r, n), n);
        share[i] = load > 0 ? m->points[i].totalNormalImpulse / load : 0;  // no load: no friction to share
        moment += share[i] * fcVec3_Dot(n, fcVec3_Cross(d[i], force));
        spread += weight[i] > 0 ? fcVec3_Dot(d[i], d[i]) : 0;
    }
    // the twist's forces across the touching points, whose offsets from c (their mean) add up to nothing
    fcReal k = spread > 0 ? (m->totalFriction[2] - moment) / spread : 0;
    for (int i = 0; i < count; ++i) {
        fcVec3 f = fcVec3_MulAdd(fcVec3_Scale(share[i], force), weight[i] > 0 ? k : 0, fcVec3_Cross(n, d[i]));
        out[i].tangentImpulse[0] = fcVec3_Dot(f, m->tangent[0]);
        out[i].tangentImpulse[1] = fcVec3_Dot(f, m->tangent[1]);
    }
}

void fcContacts_GetData(const fcWorld* world, const fcContact* c, int manifold, fcContactData* d)
{
    memset(d, 0, sizeof *d);
    const fcContactManifold* m = c->manifolds + manifold;
    d->shapeA = fcMakeShapeId(world, c->shapeA);
    d->shapeB = fcMakeShapeId(world, c->shapeB);
    d->bodyA = fcMakeBodyId(world, c->bodyA);
    d->bodyB = fcMakeBodyId(world, c->bodyB);
    d->normal = m->normal;
    d->tangent[0] = m->tangent[0];
    d->tangent[1] = m->tangent[1];
    d->pointCount = m->pointCount;
    d->friction = c->friction;
    d->restitution = c->restitution;
    const fcShape* meshShape = world->shapes + (world->shapes[c->shapeA].def.type == fc_meshShape ? c->shapeA : c->shapeB);
    d->triangle = fcShape_Triangle(meshShape, m->key);
    fcReal invH = world->stepH > 0 ? 1 / world->stepH : 0;
    const fcBody* ba = world->bodies + c->bodyA;
    // the patch (fcContacts_PatchCentre): the points' weights and its centre c, an arm from body a's centre
    fcReal weight[FC_MAX_MANIFOLD_POINTS];
    fcVec3 armA, armB;
    int deepest = 0;
    fcContacts_PatchCentre(m, world->def.contactSlop, weight, &deepest, &armA, &armB);
    fcContacts_ShareFriction(m, weight, armA, d->points);
    for (int i = 0; i < m->pointCount; ++i) {
        const fcContactPoint* p = m->points + i;
        fcContactPointData* q = d->points + i;
        q->point = fcVec3_Add(world->bodies[c->bodyA].position, fcQuat_Rotate(ba->orientation, p->localA));
        q->separation = p->separation;
        q->normalImpulse = p->totalNormalImpulse;
        q->normalForce = p->totalNormalImpulse * invH;
        q->slipping = p->slipping;
        q->id = p->id;
        fcVec3 f = fcVec3_Scale(p->totalNormalImpulse, m->normal);
        f = fcVec3_MulAdd(f, q->tangentImpulse[0], m->tangent[0]);
        f = fcVec3_MulAdd(f, q->tangentImpulse[1], m->tangent[1]);
        d->force = fcVec3_MulAdd(d->force, invH, f);
    }
    // the patch's point at the points' present places, weighed as the solver weighed them
    for (int i = 0; i < m->pointCount; ++i) d->frictionPoint = fcVec3_MulAdd(d->frictionPoint, weight[i], d->points[i].point);
    if (m->pointCount > 0)
        d->frictionPoint = fcVec3_MulAdd(d->frictionPoint, fcVec3_Dot(m->normal, fcVec3_Sub(d->points[deepest].point, d->frictionPoint)), m->normal);
    d->frictionForce = fcVec3_Scale(invH, fcVec3_Add(fcVec3_Scale(m->totalFriction[0], m->tangent[0]), fcVec3_Scale(m->totalFriction[1], m->tangent[1])));
    d->twist = invH * m->totalFriction[2];
}

// the i-th manifold with points
static bool fcContacts_Locate(const fcWorld* world, int index, const fcContact** contact, int* manifold)
{
    const fcContactSet* set = &world->contacts;
    if (index < 0 || index >= world->stats.contactCount) return false;
    int ref = set->manifoldRefs[index];
    *contact = fcContacts_Pair(set, ref / FC_MAX_PAIR_MANIFOLDS);
    *manifold = ref % FC_MAX_PAIR_MANIFOLDS;
    return true;
}

int fcWorld_GetContactCount(fcWorldId worldId)
{
    fcWorld* world = fcGetWorld(worldId, "fcWorld_GetContactCount");
    if (world == NULL) return 0;
    return world->stats.contactCount;
}

fcContactData fcWorld_GetContact(fcWorldId worldId, int index)
{
    fcContactData d;
    memset(&d, 0, sizeof d);
    fcWorld* world = fcGetWorld(worldId, "fcWorld_GetContact");
    if (world == NULL) return d;
    const fcContact* c = NULL;
    int m = 0;
    if (index < 0 || !fcContacts_Locate(world, index, &c, &m)) {
        fcError("fcWorld_GetContact: index %d out of range (the last step had %d contacts)", index, world->stats.contactCount);
        return d;
    }
    fcContacts_GetData(world, c, m, &d);
    return d;
}

int fcBody_GetContacts(fcBodyId bodyId, fcContactData* out, int capacity)
{
    fcWorld* world = NULL;
    fcBody* body = fcGetBody(bodyId, &world, "fcBody_GetContacts");
    if (body == NULL) return 0;
    if (capacity < 0 || (capacity > 0 && out == NULL)) {
        fcError("fcBody_GetContacts: capacity %d with %s output", capacity, out ? "an" : "no");
        return 0;
    }
    int k = bodyId.index1 - 1, n = 0;
    const fcContactSet* set = &world->contacts;
    for (int t = 0; t < set->touchingCount; ++t) {
        const fcContact* c = fcContacts_Pair(set, set->touching[t]);
        if (c->bodyA != k && c->bodyB != k) continue;
        for (int m = 0; m < c->manifoldCount; ++m) {
            if (c->manifolds[m].pointCount == 0) continue;
            if (n < capacity) fcContacts_GetData(world, c, m, out + n);
            n += 1;
        }
    }
    return n;
}
