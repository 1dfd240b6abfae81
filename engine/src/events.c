// SPDX-License-Identifier: MIT
// Events: the zero of a one-sided constraint's multiplier is a physical event (the skier leaves the dome, the
// string goes slack). A release is dated by interpolating lambda linearly between the last step, where it was
// positive, and this step's trial solve, where it came out negative.
#include "solver.h"

#include <string.h>

void fcEvents_Begin(fcWorld* world)
{
    world->eventCount = 0;
    if (world->eventCapacity < world->jointHigh) {
        world->events = fcRealloc(world->events, sizeof(fcConstraintEvent) * (size_t)world->jointHigh);
        world->eventCapacity = world->jointHigh;
    }
}

static fcConstraintEvent* fcEvents_Add(fcWorld* world, fcEventType type, int joint, fcReal time)
{
    // at most one event per joint and step: the capacity is the joint count
    if (world->eventCount >= world->eventCapacity) return NULL;
    fcConstraintEvent* e = world->events + world->eventCount++;
    const fcJoint* j = world->joints + joint;
    memset(e, 0, sizeof *e);
    e->type = type;
    e->joint = fcMakeJointId(world, joint);
    e->time = time;
    e->forceBefore = j->lastForce;
    const fcBody* b = world->bodies + j->bodyB;
    e->positionB = b->stepStartPosition;
    e->velocityB = b->stepStartVelocity;
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

void fcEvents_Hold(fcWorld* world, int joint, fcReal gap, fcReal approachSpeed)
{
    fcReal h = world->h;
    // the gap closes at the approach speed: dated where it reaches zero inside the step
    fcReal s = approachSpeed > 0 ? gap / (approachSpeed * h) : 0;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    fcEvents_Add(world, fc_eventHold, joint, world->time + s * h);
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
