// SPDX-License-Identifier: MIT
// Shapes: geometry attached to bodies; for now they give mass properties (solid sphere, box, capsule,
// cylinder of uniform density). Collision geometry builds on the same records.
#include "world.h"

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
    d.internalValue = FC_DEF_COOKIE;
    return d;
}

fcMassData fcComputeShapeMass(const fcShapeDef* d)
{
    const fcReal pi = 3.14159265358979323846;
    fcMassData md = {0, {0, 0, 0}, fcMat33_Zero()};
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
    }
    return md;
}

static bool fcShape_Check(const fcShapeDef* d)
{
    if (d->type != fc_sphereShape && d->type != fc_boxShape && d->type != fc_capsuleShape && d->type != fc_cylinderShape)
        return fcError("fcCreateShape: invalid shape type %d", (int)d->type);
    if (!isfinite(d->density) || d->density <= 0)
        return fcError("fcCreateShape: density must be > 0, got %g", (double)d->density);
    if (!fcVec3_IsFinite(d->localPosition) || !fcQuat_IsFinite(d->localOrientation))
        return fcError("fcCreateShape: local pose is not finite");
    if (FC_FABS(fcQuat_Length(d->localOrientation) - 1) > 1e-6)
        return fcError("fcCreateShape: localOrientation must be a unit quaternion");
    if (d->type == fc_boxShape) {
        fcVec3 e = d->halfExtents;
        if (!fcVec3_IsFinite(e) || e.x <= 0 || e.y <= 0 || e.z <= 0)
            return fcError("fcCreateShape: box halfExtents must be > 0, got (%g, %g, %g)", (double)e.x, (double)e.y,
                           (double)e.z);
        return true;
    }
    if (!isfinite(d->radius) || d->radius <= 0) return fcError("fcCreateShape: radius must be > 0, got %g", (double)d->radius);
    if (d->type == fc_capsuleShape && (!isfinite(d->halfHeight) || d->halfHeight < 0))
        return fcError("fcCreateShape: capsule halfHeight must be >= 0, got %g", (double)d->halfHeight);
    if (d->type == fc_cylinderShape && (!isfinite(d->halfHeight) || d->halfHeight <= 0))
        return fcError("fcCreateShape: cylinder halfHeight must be > 0, got %g", (double)d->halfHeight);
    return true;
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
    if (world->locked) {
        fcError("fcCreateShape: the world is stepping");
        return fc_nullShapeId;
    }
    if (!fcShape_Check(def)) return fc_nullShapeId;
    int index = fcWorld_TakeSlot(world, (void**)&world->shapes, sizeof(fcShape), offsetof(fcShape, generation),
                                 &world->shapeCapacity, &world->shapeHigh, &world->shapeFree, &world->shapeFreeCount);
    fcShape* s = world->shapes + index;
    s->inUse = true;
    s->body = bodyId.index1 - 1;
    s->def = *def;
    s->def.localOrientation = fcQuat_Normalize(def->localOrientation);
    body->shapes = fcRealloc(body->shapes, sizeof(int) * (size_t)(body->shapeCount + 1));
    body->shapes[body->shapeCount++] = index;
    fcBody_UpdateMassFromShapes(world, body);
    fcShapeId id = {index + 1, (uint16_t)fcWorldIndex(world), (uint16_t)s->generation};
    return id;
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
    fcShapeId id = {index + 1, (uint16_t)fcWorldIndex(world), (uint16_t)world->shapes[index].generation};
    return id;
}
