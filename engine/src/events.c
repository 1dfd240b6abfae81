// SPDX-License-Identifier: MIT
// Events: the zero of a one-sided constraint's multiplier is a physical event (the skier leaves the dome, the
// string goes slack). A release is dated by interpolating lambda linearly between the last step, where it was
// positive, and this step's trial solve, where it came out negative.
#include "solver.h"

#include <string.h>

// a cleared event at the end of a list of events
static fcConstraintEvent* fcEvents_PushTo(fcConstraintEvent** events, int* count, int* capacity)
{
    if (*count == *capacity) {
        *capacity = *capacity ? 2 * *capacity : 32;
        *events = fcRealloc(*events, sizeof(fcConstraintEvent) * (size_t)*capacity);
    }
    fcConstraintEvent* e = *events + (*count)++;
    memset(e, 0, sizeof *e);
    return e;
}

static fcConstraintEvent* fcEvents_Push(fcWorld* world)
{
    return fcEvents_PushTo(&world->events, &world->eventCount, &world->eventCapacity);
}

// the step's events begin with the ends of the pairs taken away since the last step
void fcEvents_Begin(fcWorld* world)
{
    world->eventCount = 0;
    for (int i = 0; i < world->pendingEventCount; ++i) *fcEvents_Push(world) = world->pendingEvents[i];
    world->pendingEventCount = 0;
}

static fcConstraintEvent* fcEvents_Add(fcWorld* world, fcEventType type, int joint, fcReal time)
{
    fcConstraintEvent* e = fcEvents_Push(world);
    const fcJoint* j = world->joints + joint;
    e->type = type;
    e->joint = fcMakeJointId(world, joint);
    e->time = time;
    e->forceBefore = j->lastForce;
    e->positionB = world->snapshotPosition[j->bodyB];  // the step's start state
    e->velocityB = world->snapshotVelocity[j->bodyB];
    return e;
}

void fcEvents_Release(fcWorld* world, int joint, fcReal trialImpulse)
{
    const fcJoint* j = world->joints + joint;
    fcReal h = world->h;
    fcReal before = j->lastForce * h;  // the impulse of the last step, > 0
    fcReal s = before > 0 && trialImpulse < 0 ? before / (before - trialImpulse) : 0;
    fcEvents_Add(world, fc_eventRelease, joint, world->time - h + s * h);
}

// a stop that holds let go at the step's start by what changed between steps (a motor switched on to drive away)
void fcEvents_ReleaseNow(fcWorld* world, int joint) { fcEvents_Add(world, fc_eventRelease, joint, world->time); }

void fcEvents_Hold(fcWorld* world, int joint, fcReal gap, fcReal approachSpeed)
{
    fcReal h = world->h;
    // the gap closes at the approach speed: dated where it reaches zero inside the step
    fcReal s = approachSpeed > 0 ? gap / (approachSpeed * h) : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    fcEvents_Add(world, fc_eventHold, joint, world->time + s * h);
}

// A contact event; dated at the step's start (begin and end are seen by the collide stage before the step moves).
// Between steps (a pair taken away by the API) the bodies' state is taken as the pair goes (the next step's start
// unless the caller moves them after), and the force the pair carried is its last step's total.
static void fcEvents_FillContact(const fcWorld* world, fcConstraintEvent* e, fcEventType type, const fcContact* c,
                                 const fcContactManifold* m, fcReal time, bool betweenSteps)
{
    e->type = type;
    // a sensor event names the sensor first and gives the visitor's body as b, whichever shape the pair holds first
    int shapeA = c->shapeA, shapeB = c->shapeB, bodyB = c->bodyB;
    if ((type == fc_eventSensorBegin || type == fc_eventSensorEnd) && !world->shapes[shapeA].def.isSensor) {
        shapeA = c->shapeB, shapeB = c->shapeA, bodyB = c->bodyA;
    }
    e->shapeA = fcMakeShapeId(world, shapeA);
    e->shapeB = fcMakeShapeId(world, shapeB);
    e->time = time;
    const fcBody* a = world->bodies + c->bodyA;
    e->positionB = betweenSteps ? world->bodies[bodyB].position : world->snapshotPosition[bodyB];  // the step's start
    e->velocityB = betweenSteps ? world->bodies[bodyB].linearVelocity : world->snapshotVelocity[bodyB];
    if (m != NULL && m->pointCount > 0) {
        e->normal = m->normal;
        e->point = fcVec3_Add(a->position, fcQuat_Rotate(a->orientation, m->points[0].localA));
        fcReal last = 0;
        for (int i = 0; i < m->pointCount; ++i) last += betweenSteps ? m->points[i].totalNormalImpulse : m->points[i].lastNormalImpulse;
        // a contact that only now begins carried nothing before (its points' impulses were speculative)
        e->forceBefore = type == fc_eventContactBegin || world->stepH <= 0 ? 0 : last / world->stepH;
    }
}

static void fcEvents_AddContact(fcWorld* world, fcEventType type, const fcContact* c, const fcContactManifold* m, fcReal time)
{
    fcEvents_FillContact(world, fcEvents_Push(world), type, c, m, time, false);
}

void fcEvents_ContactBetweenSteps(fcWorld* world, fcEventType type, const fcContact* c, const fcContactManifold* m)
{
    fcConstraintEvent* e = fcEvents_PushTo(&world->pendingEvents, &world->pendingEventCount, &world->pendingEventCapacity);
    fcEvents_FillContact(world, e, type, c, m, world->time, true);
}

void fcEvents_Contact(fcWorld* world, fcEventType type, const fcContact* c, const fcContactManifold* m)
{
    fcEvents_AddContact(world, type, c, m, world->time);
}

void fcEvents_ContactAt(fcWorld* world, fcEventType type, const fcContact* c, const fcContactManifold* m, fcReal time)
{
    fcEvents_AddContact(world, type, c, m, time);
}

const char* fcEventType_GetName(fcEventType type)
{
    static const char* names[] = {"release", "hold", "contact_begin", "contact_end", "stick_to_slip", "slip_to_stick",
                                  "sensor_begin", "sensor_end"};
    if ((int)type < 0 || type > fc_eventSensorEnd) return "unknown";
    return names[type];
}

int fcWorld_GetEventCount(fcWorldId worldId)
{
    fcWorld* world = fcGetWorld(worldId, "fcWorld_GetEventCount");
    return world ? world->eventCount : 0;
}

fcConstraintEvent fcWorld_GetEvent(fcWorldId worldId, int index)
{
    fcConstraintEvent e;
    memset(&e, 0, sizeof e);
    fcWorld* world = fcGetWorld(worldId, "fcWorld_GetEvent");
    if (world == NULL) return e;
    if (index < 0 || index >= world->eventCount) {
        fcError("fcWorld_GetEvent: index %d out of range (the last step had %d events)", index, world->eventCount);
        return e;
    }
    return world->events[index];
}
