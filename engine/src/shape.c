// SPDX-License-Identifier: MIT
// Shapes: geometry attached to bodies; for now they give mass properties (solid sphere, box, capsule,
// cylinder of uniform density). Collision geometry builds on the same records.
#include "collide.h"
#include "world.h"

#include <stdint.h>
#include <string.h>

fcShapeDef fcDefaultShapeDef(void)
{
    fcShapeDef d;
    memset(&d, 0, sizeof d);
    d.type = fc_sphereShape;
    d.radius = 0.5;
    d.halfExtents = fcV3(0.5, 0.5, 0.5);
    d.halfHeight = 0.5;
    d.localOrientation = fcQuat_Identity();
    d.density = 1000;
    d.friction = 0.6;
    d.categoryBits = 1;
    d.maskBits = UINT64_MAX;
    d.enableContactEvents = true;
    d.internalValue = FC_DEF_COOKIE;
    return d;
}

fcMassData fcComputeShapeMass(const fcShapeDef* d)
{
    const fcReal pi = 3.14159265358979323846;
    fcMassData md = {0, {0, 0, 0}, fcMat33_Zero()};
    if (d == NULL || (int)d->type < 0 || d->type >= fc_shapeTypeCount) {
        fcError("fcComputeShapeMass: %s", d == NULL ? "the def is NULL" : "invalid shape type");
        return md;
    }
    fcReal r = d->radius, r2 = r * r, rho = d->density;
    switch (d->type) {
        case fc_sphereShape: {
            md.mass = rho * 4 * pi * r2 * r / 3;
            fcReal i = 0.4 * md.mass * r2;
            md.inertia = fcMat33_Diagonal(fcV3(i, i, i));
            break;
        }
        case fc_boxShape: {
            fcVec3 e = d->halfExtents;
            md.mass = rho * 8 * e.x * e.y * e.z;
            fcReal k = md.mass / 3;  // m (a^2 + b^2) / 12 with full edges a = 2 e
            md.inertia = fcMat33_Diagonal(fcV3(k * (e.y * e.y + e.z * e.z), k * (e.x * e.x + e.z * e.z), k * (e.x * e.x + e.y * e.y)));
            break;
        }
        case fc_cylinderShape: {
            fcReal hh = d->halfHeight, len = 2 * hh;
            md.mass = rho * pi * r2 * len;
            fcReal ia = 0.5 * md.mass * r2;
            fcReal it = md.mass * (3 * r2 + len * len) / 12;
            md.inertia = fcMat33_Diagonal(fcV3(it, it, ia));
            break;
        }
        case fc_capsuleShape: {
            // cylinder of length 2 hh plus two hemispheres, axis z
            fcReal hh = d->halfHeight, len = 2 * hh;
            fcReal mc = rho * pi * r2 * len;
            fcReal ms = rho * 4 * pi * r2 * r / 3;  // both hemispheres
            md.mass = mc + ms;
            fcReal ia = 0.5 * mc * r2 + 0.4 * ms * r2;
            // each hemisphere: 83/320 m r^2 about its own centroid axis, centroid 3r/8 from the flat face
            fcReal itCyl = mc * (3 * r2 + len * len) / 12;
            fcReal itSph = ms * (0.4 * r2 + hh * hh + 0.75 * hh * r);
            md.inertia = fcMat33_Diagonal(fcV3(itCyl + itSph, itCyl + itSph, ia));
            break;
        }
        case fc_hullShape: {
            char why[128];
            fcHull* hull = fcHull_Create(d->points, d->pointCount, why, (int)sizeof why);
            if (hull == NULL) {
                fcError("fcComputeShapeMass: hull refused: %s", why);
                break;
            }
            fcReal volume;
            fcHull_ComputeMass(hull, &volume, &md.center, &md.inertia);
            md.mass = rho * volume;
            md.inertia = fcMat33_Scale(rho, md.inertia);
            fcHull_Destroy(hull);
            break;
        }
        case fc_planeShape:  // static only: no mass
        case fc_meshShape:
            fcError("fcComputeShapeMass: a %s has no mass (static bodies only)", d->type == fc_planeShape ? "plane" : "mesh");
            break;
        case fc_shapeTypeCount:
            break;
    }
    return md;
}

static bool fcShape_Check(const fcShapeDef* d, const fcBody* body)
{
    if ((int)d->type < 0 || d->type >= fc_shapeTypeCount) return fcError("fcCreateShape: invalid shape type %d", (int)d->type);
    if (!isfinite(d->density) || d->density <= 0)
        return fcError("fcCreateShape: density must be > 0, got %g", (double)d->density);
    if (!fcVec3_IsFinite(d->localPosition) || !fcQuat_IsFinite(d->localOrientation))
        return fcError("fcCreateShape: local pose is not finite");
    if (FC_FABS(fcQuat_Length(d->localOrientation) - 1) > 1e-6)
        return fcError("fcCreateShape: localOrientation must be a unit quaternion");
    if (!isfinite(d->friction) || d->friction < 0) return fcError("fcCreateShape: friction must be >= 0, got %g", (double)d->friction);
    if (!isfinite(d->restitution) || d->restitution < 0 || d->restitution > 1)
        return fcError("fcCreateShape: restitution must be in [0, 1], got %g", (double)d->restitution);
    if (!isfinite(d->rollingFriction) || d->rollingFriction < 0 || !isfinite(d->torsionalFriction) || d->torsionalFriction < 0)
        return fcError("fcCreateShape: rolling and torsional friction must be >= 0");
    if ((d->type == fc_planeShape || d->type == fc_meshShape) && body->type != fc_staticBody)
        return fcError("fcCreateShape: a %s shape can only be attached to a static body", d->type == fc_planeShape ? "plane" : "mesh");
    switch (d->type) {
        case fc_boxShape: {
            fcVec3 e = d->halfExtents;
            if (!fcVec3_IsFinite(e) || e.x <= 0 || e.y <= 0 || e.z <= 0)
                return fcError("fcCreateShape: box halfExtents must be > 0, got (%g, %g, %g)", (double)e.x, (double)e.y,
                               (double)e.z);
            return true;
        }
        case fc_hullShape:
            if (d->points == NULL || d->pointCount < 4)
                return fcError("fcCreateShape: a hull needs at least 4 points, got %d%s", d->pointCount,
                               d->points == NULL ? " and points is NULL" : "");
            return true;
        case fc_meshShape:
            if (d->vertices == NULL || d->indices == NULL || d->vertexCount < 3 || d->triangleCount < 1)
                return fcError("fcCreateShape: a mesh needs vertices (at least 3) and triangles (at least 1)");
            return true;
        case fc_planeShape:
            return true;
        default:
            break;
    }
    if (!isfinite(d->radius) || d->radius <= 0) return fcError("fcCreateShape: radius must be > 0, got %g", (double)d->radius);
    if (d->type == fc_capsuleShape && (!isfinite(d->halfHeight) || d->halfHeight < 0))
        return fcError("fcCreateShape: capsule halfHeight must be >= 0, got %g", (double)d->halfHeight);
    if (d->type == fc_cylinderShape && (!isfinite(d->halfHeight) || d->halfHeight <= 0))
        return fcError("fcCreateShape: cylinder halfHeight must be > 0, got %g", (double)d->halfHeight);
    return true;
}

// the collision geometry of a checked def: hulls and meshes are built (and may still be refused)
static bool fcShape_Cook(fcShape* s, const fcShapeDef* d)
{
    char why[160];
    fcGeometry* g = &s->geometry;
    memset(g, 0, sizeof *g);
    g->type = d->type;
    g->radius = d->radius;
    g->halfHeight = d->halfHeight;
    g->halfExtents = d->halfExtents;
    if (d->type == fc_hullShape) {
        s->hull = fcHull_Create(d->points, d->pointCount, why, (int)sizeof why);
        if (s->hull == NULL) return fcError("fcCreateShape: hull refused: %s", why);
        s->points = fcAlloc(sizeof(fcVec3) * (size_t)d->pointCount);
        memcpy(s->points, d->points, sizeof(fcVec3) * (size_t)d->pointCount);
        s->def.points = s->points;
        g->hull = s->hull;
    } else if (d->type == fc_meshShape) {
        s->mesh = fcMesh_Create(d->vertices, d->vertexCount, d->indices, d->triangleCount, why, (int)sizeof why);
        if (s->mesh == NULL) return fcError("fcCreateShape: mesh refused: %s", why);
        s->points = fcAlloc(sizeof(fcVec3) * (size_t)d->vertexCount);
        memcpy(s->points, d->vertices, sizeof(fcVec3) * (size_t)d->vertexCount);
        s->indices = fcAlloc(sizeof(int) * 3 * (size_t)d->triangleCount);
        memcpy(s->indices, d->indices, sizeof(int) * 3 * (size_t)d->triangleCount);
        s->def.vertices = s->points;
        s->def.indices = s->indices;
    }
    if (d->type == fc_meshShape) g->mesh = s->mesh;
    if (d->type != fc_hullShape) s->def.points = NULL, s->def.pointCount = 0;
    if (d->type != fc_meshShape) s->def.vertices = NULL, s->def.indices = NULL, s->def.vertexCount = s->def.triangleCount = 0;
    return true;
}

int fcShape_Triangle(const fcShape* shape, uint32_t key)
{
    return shape->def.type == fc_meshShape && shape->mesh ? fcMesh_SourceTriangle(shape->mesh, (int)key) : -1;
}

fcTransform fcShape_GetTransform(const fcWorld* world, const fcShape* shape)
{
    const fcBody* b = world->bodies + shape->body;
    fcTransform xf;
    xf.q = fcQuat_Mul(b->orientation, shape->def.localOrientation);
    xf.p = fcVec3_Add(b->position, fcQuat_Rotate(b->orientation, shape->def.localPosition));
    return xf;
}

// what fcShape_Cook allocated
static void fcShape_FreeCooked(fcShape* s)
{
    fcHull_Destroy(s->hull);
    fcMesh_Destroy(s->mesh);
    fcFree(s->points);
    fcFree(s->indices);
}

void fcShape_DestroyInternal(fcWorld* world, int index)
{
    fcShape* s = world->shapes + index;
    fcContacts_RemoveShape(world, index);
    fcShape_FreeCooked(s);
    int generation = (uint16_t)(s->generation + 1);
    memset(s, 0, sizeof *s);
    s->generation = generation;
    s->proxy = -1;
    world->shapeFree[world->shapeFreeCount++] = index;
}

fcShapeId fcCreateShape(fcBodyId bodyId, const fcShapeDef* def)
{
    fcWorld* world = NULL;
    fcBody* body = fcGetBody(bodyId, &world, "fcCreateShape");
    if (body == NULL) return fc_nullShapeId;
    if (def == NULL || def->internalValue != FC_DEF_COOKIE) {
        fcError("fcCreateShape: the def was not made by fcDefaultShapeDef");
        return fc_nullShapeId;
    }
    if (fcWorld_Busy(world)) {
        fcError("fcCreateShape: %s", fcWorld_Busy(world));
        return fc_nullShapeId;
    }
    if (!fcShape_Check(def, body)) return fc_nullShapeId;
    fcShape cooked;
    memset(&cooked, 0, sizeof cooked);
    cooked.def = *def;
    if (!fcShape_Cook(&cooked, def)) return fc_nullShapeId;
    cooked.def.localOrientation = fcQuat_Normalize(def->localOrientation);
    // refused before anything is attached: a mass the solver cannot use (a size at which it under- or overflows)
    fcShapesMass sm;
    if (!fcBody_MassOfShapes(world, body, &cooked.def, "fcCreateShape", &sm)) {
        fcShape_FreeCooked(&cooked);
        return fc_nullShapeId;
    }
    int index = fcWorld_TakeSlot(world, (void**)&world->shapes, sizeof(fcShape), offsetof(fcShape, generation),
                                 &world->shapeCapacity, &world->shapeHigh, &world->shapeFree, &world->shapeFreeCount);
    fcShape* s = world->shapes + index;
    int generation = s->generation;
    *s = cooked;
    s->generation = generation;
    s->inUse = true;
    s->body = bodyId.index1 - 1;
    s->proxy = -1;
    body->shapes = fcRealloc(body->shapes, sizeof(int) * (size_t)(body->shapeCount + 1));
    body->shapes[body->shapeCount++] = index;
    fcBody_PutShapesMass(world, body, &sm);  // the new shape is the one measured as extra
    fcContacts_AddShape(world, index);
    fcBody_Wake(world, body);  // asleep, it would neither feel its new mass nor collide the new shape
    return fcMakeShapeId(world, index);
}

static fcShape* fcGetShape(fcShapeId id, const char* caller)
{
    fcWorld* w = fcGetWorldFromIndex(id.world0);
    if (w == NULL || id.index1 < 1 || id.index1 > w->shapeHigh) {
        fcError("%s: invalid shape id", caller);
        return NULL;
    }
    fcShape* s = w->shapes + id.index1 - 1;
    if (!s->inUse || s->generation != id.generation) {
        fcError("%s: stale shape id (the shape was destroyed)", caller);
        return NULL;
    }
    return s;
}

void fcDestroyShape(fcShapeId id)
{
    fcShape* s = fcGetShape(id, "fcDestroyShape");
    if (s == NULL) return;
    fcWorld* world = fcGetWorldFromIndex(id.world0);
    if (fcWorld_Busy(world)) {
        fcError("fcDestroyShape: %s", fcWorld_Busy(world));
        return;
    }
    fcBody* body = world->bodies + s->body;
    int index = id.index1 - 1;
    for (int i = 0; i < body->shapeCount; ++i)
        if (body->shapes[i] == index) body->shapes[i] = body->shapes[--body->shapeCount];
    fcShape_DestroyInternal(world, index);
    fcShapesMass sm;  // the remaining shapes' (they passed with one more); else the body keeps its mass
    if (fcBody_MassOfShapes(world, body, NULL, "fcDestroyShape", &sm)) fcBody_PutShapesMass(world, body, &sm);
    fcBody_Wake(world, body);
}

#define FC_SHAPE_GET_UNLOCKED(id, caller)                                                      \
    fcShape* s = fcGetShape(id, caller);                                                       \
    if (s == NULL) return false;                                                               \
    if (fcWorld_Busy(fcGetWorldFromIndex(id.world0))) return fcError("%s: %s", caller, fcWorld_Busy(fcGetWorldFromIndex(id.world0)))

bool fcShape_SetFriction(fcShapeId id, fcReal friction)
{
    FC_SHAPE_GET_UNLOCKED(id, "fcShape_SetFriction");
    if (!isfinite(friction) || friction < 0) return fcError("fcShape_SetFriction: friction must be >= 0, got %g", (double)friction);
    s->def.friction = friction;
    return true;
}

bool fcShape_SetRestitution(fcShapeId id, fcReal restitution)
{
    FC_SHAPE_GET_UNLOCKED(id, "fcShape_SetRestitution");
    if (!isfinite(restitution) || restitution < 0 || restitution > 1)
        return fcError("fcShape_SetRestitution: restitution must be in [0, 1], got %g", (double)restitution);
    s->def.restitution = restitution;
    return true;
}

bool fcShape_SetFilter(fcShapeId id, uint64_t categoryBits, uint64_t maskBits)
{
    FC_SHAPE_GET_UNLOCKED(id, "fcShape_SetFilter");
    s->def.categoryBits = categoryBits;
    s->def.maskBits = maskBits;
    fcWorld* world = fcGetWorldFromIndex(id.world0);
    fcContacts_ShapeFilterChanged(world, (int)(s - world->shapes));
    return true;
}

bool fcShape_IsValid(fcShapeId id)
{
    fcWorld* w = fcGetWorldFromIndex(id.world0);
    if (w == NULL || id.index1 < 1 || id.index1 > w->shapeHigh) return false;
    fcShape* s = w->shapes + id.index1 - 1;
    return s->inUse && s->generation == id.generation;
}

fcShapeDef fcShape_GetDef(fcShapeId id)
{
    fcShape* s = fcGetShape(id, "fcShape_GetDef");
    return s ? s->def : fcDefaultShapeDef();
}

fcBodyId fcShape_GetBody(fcShapeId id)
{
    fcShape* s = fcGetShape(id, "fcShape_GetBody");
    if (s == NULL) return fc_nullBodyId;
    return fcMakeBodyId(fcGetWorldFromIndex(id.world0), s->body);
}

int fcBody_GetShapeCount(fcBodyId bodyId)
{
    fcWorld* world = NULL;
    fcBody* body = fcGetBody(bodyId, &world, "fcBody_GetShapeCount");
    return body ? body->shapeCount : 0;
}

fcShapeId fcBody_GetShape(fcBodyId bodyId, int i)
{
    fcWorld* world = NULL;
    fcBody* body = fcGetBody(bodyId, &world, "fcBody_GetShape");
    if (body == NULL) return fc_nullShapeId;
    if (i < 0 || i >= body->shapeCount) {
        fcError("fcBody_GetShape: index %d out of range (the body has %d shapes)", i, body->shapeCount);
        return fc_nullShapeId;
    }
    int index = body->shapes[i];
    return fcMakeShapeId(world, index);
}
