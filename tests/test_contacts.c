// SPDX-License-Identifier: MIT
// Contacts against known answers: resting loads (m g, k m g down a stack), stacks and the S3 pyramid
// standing and taking an impact, restitution (rebound to e^2 h), tunnelling, friction on an incline (cases.md
// case 5 with real contact), the skier's release from a real dome (case 4), complementarity, filters, events, bad
// shapes.
#include "test_macros.h"

#include "fulcrum/fulcrum.h"

#include <string.h>

static const double g = 9.81, pi = 3.14159265358979323846;

static fcWorldId fcMakeWorld(double h, bool sleeping)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = h;
    wd.enableSleeping = sleeping;
    return fcCreateWorld(&wd);
}

// a static ground: the plane z = 0
static fcBodyId fcAddGround(fcWorldId w, double friction)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_staticBody;
    bd.name = "ground";
    fcBodyId ground = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_planeShape;
    sd.friction = friction;
    fcCreateShape(ground, &sd);
    return ground;
}

// a body of one box shaped as sd says (a sensor, events off, ...); a dynamic one of the given mass
static fcBodyId fcAddBoxWith(fcWorldId w, fcBodyType type, fcVec3 p, fcVec3 half, double mass, fcShapeDef sd)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = type;
    bd.position = p;
    fcBodyId b = fcCreateBody(w, &bd);
    sd.type = fc_boxShape;
    sd.halfExtents = half;
    if (type == fc_dynamicBody) sd.density = mass / (8 * half.x * half.y * half.z);
    fcCreateShape(b, &sd);
    return b;
}

// a body of one box; a dynamic one of the given mass
static fcBodyId fcAddTypedBox(fcWorldId w, fcBodyType type, fcVec3 p, fcVec3 half, double mass, double friction)
{
    fcShapeDef sd = fcDefaultShapeDef();
    sd.friction = friction;
    return fcAddBoxWith(w, type, p, half, mass, sd);
}

// a static sensor box: its shape
static fcShapeId fcAddSensorBox(fcWorldId w, fcVec3 p, fcVec3 half)
{
    fcShapeDef sd = fcDefaultShapeDef();
    sd.isSensor = true;
    return fcBody_GetShape(fcAddBoxWith(w, fc_staticBody, p, half, 0, sd), 0);
}

static fcBodyId fcAddBox(fcWorldId w, fcVec3 p, fcVec3 half, double mass, double friction)
{
    return fcAddTypedBox(w, fc_dynamicBody, p, half, mass, friction);
}

// two boxes of 1 kg at pa and pb joined at `anchor` by a joint of the given type
static fcJointId fcAddJoinedBoxes(fcWorldId w, fcJointType type, fcVec3 pa, fcVec3 pb, fcVec3 half, fcVec3 anchor,
                                  fcBodyId* a, fcBodyId* b)
{
    *a = fcAddBox(w, pa, half, 1, 0.6);
    *b = fcAddBox(w, pb, half, 1, 0.6);
    fcJointDef jd = fcDefaultJointDef(type);
    jd.bodyA = *a;
    jd.bodyB = *b;
    jd.anchor = anchor;
    return fcCreateJoint(w, &jd);
}

// a static or kinematic box at the origin with the default friction (a platform, a lift)
static fcBodyId fcAddFixedBox(fcWorldId w, fcBodyType type, fcVec3 half)
{
    return fcAddTypedBox(w, type, fcV3(0, 0, 0), half, 0, fcDefaultShapeDef().friction);
}

// the total force (N) the contacts between `body` and `other` carried in the last step, on `body`
static fcVec3 fcContactForce(fcBodyId body, fcBodyId other)
{
    fcContactData c[16];
    int n = fcBody_GetContacts(body, c, 16);
    fcVec3 f = fcV3(0, 0, 0);
    for (int i = 0; i < n && i < 16; ++i) {
        bool match = (c[i].bodyA.index1 == other.index1 && c[i].bodyB.index1 == body.index1) ||
                     (c[i].bodyB.index1 == other.index1 && c[i].bodyA.index1 == body.index1);
        if (!match) continue;
        f = fcVec3_MulAdd(f, c[i].bodyB.index1 == body.index1 ? 1 : -1, c[i].force);
    }
    return f;
}

// its z: the normal force on a body resting on `other`
static double fcContactForceZ(fcBodyId body, fcBodyId other) { return fcContactForce(body, other).z; }

static int test_box_rests_on_ground(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyId ground = fcAddGround(w, 0.6);
    double m = 2;
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 0.25), fcV3(0.5, 0.5, 0.25), m, 0.6);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    // the weight, to 0.1 %
    ENSURE_NEAR(fcContactForceZ(box, ground), m * g, 1e-3 * m * g);
    fcWorldStats st = fcWorld_GetStats(w);
    ENSURE(st.contactCount == 1 && st.contactPoints == 4);
    ENSURE_LE(st.maxPenetration, 0.005);
    ENSURE_NEAR(fcBody_GetPosition(box).z, 0.25, 0.005);
    ENSURE_LE(fcVec3_Length(fcBody_GetLinearVelocity(box)), 1e-6);
    // a destroyed body's contacts leave the API at once
    ENSURE(fcWorld_GetContactCount(w) == 1 && fcWorld_GetContact(w, 0).pointCount == 4);
    fcDestroyBody(box);
    ENSURE(fcWorld_GetContactCount(w) == 0);
    fcClearError();
    ENSURE(fcWorld_GetContact(w, 0).pointCount == 0 && strstr(fcGetLastError(), "out of range") != NULL);
    ENSURE(fcWorld_Step(w));
    fcDestroyWorld(w);
    return 0;
}

static int test_stack_of_five_carries_k_m_g(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyId ground = fcAddGround(w, 0.6);
    double m = 1;
    fcBodyId boxes[5];
    for (int k = 0; k < 5; ++k) boxes[k] = fcAddBox(w, fcV3(0, 0, 0.5 + k * 1.0), fcV3(0.5, 0.5, 0.5), m, 0.6);
    for (int i = 0; i < 240; ++i) ENSURE(fcWorld_Step(w));
    // the k-th contact from the top carries k m g, to 1 %
    for (int k = 0; k < 5; ++k) {
        fcBodyId below = k == 0 ? ground : boxes[k - 1];
        double expected = (5 - k) * m * g;
        ENSURE_NEAR(fcContactForceZ(boxes[k], below), expected, 0.01 * expected);
    }
    fcDestroyWorld(w);
    return 0;
}

// between t = 1 s (settled) and t = 10 s no box moves more than 1 cm; penetration stays within the slop
static int fcCheckStands(fcWorldId w, fcBodyId* boxes, int n, const char* what)
{
    fcVec3 settled[256];
    double deepest = 0, worstResidual = 0;
    for (int i = 0; i < 600; ++i) {
        ENSURE(fcWorld_Step(w));
        fcWorldStats st = fcWorld_GetStats(w);
        if (i == 59)
            for (int k = 0; k < n; ++k) settled[k] = fcBody_GetPosition(boxes[k]);
        if (i >= 60) deepest = fmax(deepest, st.maxPenetration);
        worstResidual = fmax(worstResidual, st.complementarityResidual);
    }
    double drift = 0;
    for (int k = 0; k < n; ++k) drift = fmax(drift, fcVec3_Distance(fcBody_GetPosition(boxes[k]), settled[k]));
    printf("  %s: drift %.3g m from 1 s to 10 s, deepest penetration %.3g m, worst complementarity residual %.3g m/s\n", what,
           drift, deepest, worstResidual);
    ENSURE_LE(drift, 0.01);
    ENSURE_LE(deepest, 0.005);
    return 0;
}

static int test_stack_of_ten_stands(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, 0.6);
    fcBodyId boxes[10];
    for (int k = 0; k < 10; ++k) boxes[k] = fcAddBox(w, fcV3(0, 0, 0.5 + k * 1.0), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    ENSURE(fcCheckStands(w, boxes, 10, "stack of 10") == 0);
    fcDestroyWorld(w);
    return 0;
}

// benchmark-scenes.md S3 on a ground of mu = 0.6: 210 unit cubes of 1 kg, rows of 20 - r, 5 cm apart, mu = 0.6, into
// boxes (bottom row first); returns how many
static int fcAddPyramid(fcWorldId w, fcBodyId* boxes)
{
    fcAddGround(w, 0.6);
    int n = 0;
    for (int r = 0; r < 20; ++r)
        for (int j = 0; j < 20 - r; ++j)
            boxes[n++] = fcAddBox(w, fcV3((j - (19 - r) / 2.0) * 1.05, 0, 0.5 + r), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    return n;
}

static int test_pyramid_stands(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyId boxes[210];
    int n = fcAddPyramid(w, boxes);
    ENSURE(fcCheckStands(w, boxes, n, "pyramid of 20") == 0);
    fcWorldStats st = fcWorld_GetStats(w);
    // complementarity after the iterations: no contact pulls, and the residual is below tolerance
    for (int i = 0; i < fcWorld_GetContactCount(w); ++i) {
        fcContactData c = fcWorld_GetContact(w, i);
        for (int k = 0; k < c.pointCount; ++k) ENSURE(c.points[k].normalImpulse >= 0);
    }
    printf("  pyramid: %d contacts, %d points, %d sweeps, residual %.3g m/s, %.3f ms/step\n", st.contactCount, st.contactPoints,
           st.contactIterations, st.complementarityResidual, st.profile.step);
    ENSURE_LE(st.complementarityResidual, 1e-3);
    // the profile's stages are timed in processor ticks and turned into ms by the step's own wall time: each is
    // a share of its step (none negative, together no more than it); over 30 steps (a preemption in an untimed part
    // of one step averages out) they make most of the time, and the pyramid's is mostly contacts
    double steps = 0, stagedAll = 0, contactAll = 0;
    for (int n = 0; n < 30; ++n) {
        ENSURE(fcWorld_Step(w));
        const fcProfile p = fcWorld_GetStats(w).profile;
        const double stage[] = {p.collide, p.integrateVelocities, p.buildRows, p.factor, p.solve, p.contactSolve,
                                p.integratePositions, p.contactPositions, p.project, p.sleep, p.diagnostics, p.continuous};
        double staged = 0;
        for (size_t k = 0; k < sizeof stage / sizeof stage[0]; ++k) {
            ENSURE(stage[k] >= 0);
            staged += stage[k];
        }
        ENSURE(p.step > 0);
        ENSURE_LE(staged, p.step * (1 + 1e-12));
        ENSURE_LE(p.broadphase + p.narrowphase, p.collide * (1 + 1e-12));
        steps += p.step, stagedAll += staged, contactAll += p.contactSolve;
    }
    ENSURE_LE(0.5 * steps, stagedAll);
    ENSURE_LE(0.2 * steps, contactAll);
    fcDestroyWorld(w);
    return 0;
}

// The pyramid at rest takes a 10 kg box dropped onto its top from 0.5 m: the impact's load must reach the ground
// through a warm-started pile (one new pair among some 400), so that the pyramid holds (5 s later its boxes are
// within 2.5 cm of where they rested: 11 mm; 37 mm, and the load 1.5 % off, when the extra sweeps waited for
// new pairs alone, docs/benchmarks.md), and the top box carries the new one's weight, 10 g, to 1 %.
static int test_pyramid_takes_an_impact(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyId boxes[210];
    int n = fcAddPyramid(w, boxes);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    fcVec3 rested[210];
    for (int k = 0; k < n; ++k) rested[k] = fcBody_GetPosition(boxes[k]);
    double mass = 10;
    fcBodyId heavy = fcAddBox(w, fcV3(rested[n - 1].x, 0, rested[n - 1].z + 1.5), fcV3(0.5, 0.5, 0.5), mass, 0.6);
    for (int i = 0; i < 300; ++i) ENSURE(fcWorld_Step(w));
    double drift = 0;
    for (int k = 0; k < n; ++k) drift = fmax(drift, fcVec3_Distance(fcBody_GetPosition(boxes[k]), rested[k]));
    double load = fcContactForceZ(heavy, boxes[n - 1]);
    printf("  pyramid takes a 10 kg box: its boxes at most %.3g m from rest, the top carries %.6g N (10 g = %.6g N)\n", drift,
           load, mass * g);
    ENSURE_LE(drift, 0.025);
    ENSURE_NEAR(load, mass * g, 0.01 * mass * g);
    fcDestroyWorld(w);
    return 0;
}

// Heavy on light (contact_exact.c): a box 10, 100 and 300 times heavier than the one it rests on, 1 mm above it
// at the start, for 10 s. The sweeps alone pass the load down at about m / (m + M) of what is missing a sweep: the
// 10:1 stack overlapped by 1.3 mm, and at 100:1 the heavy box sank 22 cm into the light one and slid off it. With
// the island's normal rows solved exactly the boxes do not overlap, the top stays on the axis, and the contacts
// carry the weights exactly.
static int test_heavy_on_light(void)
{
    const double ratios[] = {10, 100, 300};
    for (int k = 0; k < 3; ++k) {
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        fcBodyId ground = fcAddGround(w, 0.6);
        fcVec3 half = fcV3(0.15, 0.12, 0.1);
        double light = 7.2, heavy = ratios[k] * light;
        fcBodyId low = fcAddBox(w, fcV3(0, 0, 0.101), half, light, 0.6);
        fcBodyId top = fcAddBox(w, fcV3(0, 0, 0.302), half, heavy, 0.6);
        double deepest = 0, across = 0;
        for (int i = 0; i < 600; ++i) {
            ENSURE(fcWorld_Step(w));
            fcVec3 a = fcBody_GetPosition(low), b = fcBody_GetPosition(top);
            deepest = fmax(deepest, fmax(0.2 - (b.z - a.z), 0.1 - a.z));
            across = fmax(across, hypot(b.x, b.y));
        }
        fcWorldStats st = fcWorld_GetStats(w);
        printf("  %g:1: %d rows exact, %d sweeps in the last step\n", ratios[k], st.contactExactPoints, st.contactIterations);
        ENSURE(st.contactExactPoints == 8);  // both manifolds' four points
        // at rest the sweeps find nothing left to do and stop after one a substep (without the solve's refinement
        // its 1e-9 regularization left a residual the sweeps kept at: 16 a step)
        if (ratios[k] <= 100) ENSURE(st.contactIterations == 2);
        double onLow = fcContactForceZ(top, low), onGround = fcContactForceZ(low, ground);
        printf("  %g:1: deepest overlap %.3g m, top moved across %.3g m, contact forces %.9g N (M g = %.9g N), %.9g N "
               "((m + M) g = %.9g N)\n",
               ratios[k], deepest, across, onLow, heavy * g, onGround, (light + heavy) * g);
        ENSURE_LE(deepest, 1e-4);
        ENSURE_LE(across, 1e-4);
        ENSURE_NEAR(onLow, heavy * g, 1e-6 * heavy * g);
        ENSURE_NEAR(onGround, (light + heavy) * g, 1e-6 * (light + heavy) * g);
        fcDestroyWorld(w);
    }
    // on a kinematic lift rising at 0.5 m/s (its velocity is in the rows' velocities, its mass in none): at a steady
    // speed the contacts carry the weights, and the stack rides without sinking in
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyId lift = fcAddFixedBox(w, fc_kinematicBody, fcV3(1, 1, 0.1));
    ENSURE(fcBody_SetLinearVelocity(lift, fcV3(0, 0, 0.5)));
    fcVec3 half = fcV3(0.15, 0.12, 0.1);
    double light = 7.2, heavy = 100 * light;
    fcBodyId low = fcAddBox(w, fcV3(0, 0, 0.2), half, light, 0.6);
    fcBodyId top = fcAddBox(w, fcV3(0, 0, 0.4), half, heavy, 0.6);
    double deepest = 0;
    for (int i = 0; i < 120; ++i) {
        ENSURE(fcWorld_Step(w));
        fcVec3 p = fcBody_GetPosition(lift), a = fcBody_GetPosition(low), b = fcBody_GetPosition(top);
        deepest = fmax(deepest, fmax(0.2 - (b.z - a.z), 0.2 - (a.z - p.z)));
    }
    double onLow = fcContactForceZ(top, low), onLift = fcContactForceZ(low, lift);
    printf("  100:1 on a rising lift: deepest overlap %.3g m, contact forces %.9g N (M g = %.9g N), %.9g N "
           "((m + M) g = %.9g N)\n",
           deepest, onLow, heavy * g, onLift, (light + heavy) * g);
    ENSURE_LE(deepest, 1e-4);
    ENSURE_NEAR(onLow, heavy * g, 1e-6 * heavy * g);
    ENSURE_NEAR(onLift, (light + heavy) * g, 1e-6 * (light + heavy) * g);
    fcDestroyWorld(w);
    return 0;
}

// A kinematic press coming down at 0.2 m/s onto a 100 kg box that rests, off centre, on a 1 kg plank on the ground:
// the contacts cannot stop it (the rigid problem has no solution, or one through the plank's lever). Solved exactly
// with the regularization, the impulses came out a billion times too large (6.8e9 N on the press's first step) and
// launched the plank at 55 m/s; such an island is left to the sweeps (contact_exact.c), which report a few kN as
// the press crushes the stack (3 to 4 kN without the exact solve at all), and nothing is thrown.
static int test_heavy_on_light_squeezed(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, 0.6);
    fcBodyId plank = fcAddBox(w, fcV3(0, 0, 0.1), fcV3(0.5, 0.2, 0.1), 1, 0.6);
    fcAddBox(w, fcV3(-0.35, 0, 0.3), fcV3(0.1, 0.1, 0.1), 100, 0.6);
    fcBodyDef kd = fcDefaultBodyDef();
    kd.type = fc_kinematicBody;
    kd.position = fcV3(-0.35, 0, 0.501);
    fcBodyId press = fcCreateBody(w, &kd);
    fcShapeDef ks = fcDefaultShapeDef();
    ks.type = fc_boxShape;
    ks.halfExtents = fcV3(0.1, 0.1, 0.1);
    fcCreateShape(press, &ks);
    double largest = 0, fastest = 0;
    int exactBefore = 0;
    for (int i = 0; i < 60; ++i) {
        if (i == 20) ENSURE(fcBody_SetLinearVelocity(press, fcV3(0, 0, -0.2)));
        ENSURE(fcWorld_Step(w));
        if (i == 19) exactBefore = fcWorld_GetStats(w).contactExactPoints;
        fcContactData c[16];
        int n = fcBody_GetContacts(plank, c, 16);
        for (int k = 0; k < n && k < 16; ++k) largest = fmax(largest, fcVec3_Length(c[k].force));
        fastest = fmax(fastest, fcVec3_Length(fcBody_GetLinearVelocity(plank)));
    }
    printf("  pressed: %d rows exact before the press moves; on the plank at most %.4g N, its speed at most %.3g m/s\n",
           exactBefore, largest, fastest);
    ENSURE(exactBefore == 12);  // at rest the plank's island is exact (the press 1 mm above: speculative points)
    ENSURE_LE(largest, 1e4);
    ENSURE_LE(fastest, 0.5);
    fcDestroyWorld(w);
    return 0;
}

static fcJointId fcAddRail(fcWorldId w, fcBodyId body, fcVec3 axis, bool stop, double lower, double upper)
{
    fcJointDef jd = fcDefaultJointDef(fc_sliderJoint);
    jd.bodyB = body;
    jd.anchor = fcBody_GetPosition(body);
    jd.axis = axis;
    jd.enableLimit = stop;
    jd.lowerLimit = lower;
    jd.upperLimit = upper;
    return fcCreateJoint(w, &jd);
}

// Heavy on light through joints (contact_exact.c): the light body is held by a joint, which the joint solve after
// every sweep enforces, so the sweeps see only the light body's mass in the contact's rows and pass the load on at
// about m / M a sweep; the exact island solves the contact rows through the joints (W = A - Z^T A_j^-1 Z).
// - A 1 kg platform on a vertical rail at its lower stop carries a box 10, 100 and 1000 times heavier for 10 s: no
//   overlap, the contacts carry M g and the stop (M + m) g. The sweeps alone: 1000:1 sank 12 cm and reported 9837 N
//   against 9810.
// - A 100 kg box on a rail runs at 2 m/s into a 3 kg box resting at its rail's stop: it stops dead, without
//   overlap, the stop taking its momentum in the step (200 N s: 12000 N at h = 1/60 s). The sweeps alone: 2.6 cm of
//   overlap, and the light box was thrown to its rail's other end. The stop, free when the step began, takes hold
//   as soon as the exact contact impulse pushes onto it (solve.c).
static int test_heavy_on_light_through_joints(void)
{
    const double ratios[] = {10, 100, 1000};
    for (int k = 0; k < 3; ++k) {
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        fcAddGround(w, 0.6);
        double light = 1, heavy = ratios[k] * light;
        fcBodyId platform = fcAddBox(w, fcV3(0, 0, 0.5), fcV3(0.6, 0.6, 0.05), light, 0.6);
        fcJointId rail = fcAddRail(w, platform, fcV3(0, 0, 1), true, 0, 0.5);
        fcBodyId load = fcAddBox(w, fcV3(0, 0, 0.801), fcV3(0.25, 0.25, 0.25), heavy, 0.6);
        double deepest = 0, across = 0;
        for (int i = 0; i < 600; ++i) {
            ENSURE(fcWorld_Step(w));
            fcVec3 a = fcBody_GetPosition(platform), b = fcBody_GetPosition(load);
            deepest = fmax(deepest, 0.3 - (b.z - a.z));
            across = fmax(across, hypot(b.x, b.y));
        }
        fcWorldStats st = fcWorld_GetStats(w);
        double carried = fcContactForceZ(load, platform), held = fcJoint_GetReaction(rail).force.z;
        printf("  platform on a rail, %g:1: %d rows exact, deepest overlap %.3g m, load moved across %.3g m, contacts "
               "%.9g N (M g = %.9g N), the stop %.9g N ((m + M) g = %.9g N)\n",
               ratios[k], st.contactExactPoints, deepest, across, carried, heavy * g, held, (light + heavy) * g);
        ENSURE(st.contactExactPoints == 4);
        ENSURE_LE(deepest, 1e-6);
        ENSURE_LE(across, 1e-6);
        ENSURE_NEAR(carried, heavy * g, 1e-6 * heavy * g);
        ENSURE_NEAR(held, (light + heavy) * g, 1e-6 * (light + heavy) * g);
        fcDestroyWorld(w);
    }
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, 0.6);
    double light = 3, heavy = 100, speed = 2;
    fcBodyId small = fcAddBox(w, fcV3(0, 0, 0.2), fcV3(0.1, 0.1, 0.1), light, 0.6);
    fcJointId stop = fcAddRail(w, small, fcV3(1, 0, 0), true, 0, 0.5);
    fcBodyId big = fcAddBox(w, fcV3(1, 0, 0.35), fcV3(0.3, 0.3, 0.3), heavy, 0.6);
    fcAddRail(w, big, fcV3(1, 0, 0), false, 0, 0);
    ENSURE(fcBody_SetLinearVelocity(big, fcV3(-speed, 0, 0)));
    double deepest = 0, taken = 0, moved = 0;
    for (int i = 0; i < 120; ++i) {
        ENSURE(fcWorld_Step(w));
        fcVec3 a = fcBody_GetPosition(small), b = fcBody_GetPosition(big);
        deepest = fmax(deepest, 0.4 - (b.x - a.x));
        moved = fmax(moved, fabs(a.x));
        taken += fcJoint_GetReaction(stop).force.x / 60;
    }
    double after = fcVec3_Length(fcBody_GetLinearVelocity(big));
    printf("  a rail's 100 kg box into a 3 kg one at its stop at 2 m/s: deepest overlap %.3g m, speed after %.3g m/s, "
           "the light box moved %.3g m, the stop's impulse %.9g N s (M v = %.9g N s)\n",
           deepest, after, moved, taken, heavy * speed);
    ENSURE_LE(deepest, 1e-6);
    ENSURE_LE(after, 1e-6);
    ENSURE_LE(moved, 1e-6);
    ENSURE_NEAR(taken, heavy * speed, 1e-6 * heavy * speed);
    fcDestroyWorld(w);
    // struck from below: a 100 kg box rising at 5 m/s meets a 1 kg platform that rests on its rail's lower stop. The
    // stop must let go (as the joints' own settling lets a pulling row go): the two rise together, 100/101 of the
    // box's momentum kept, to (v 100/101)^2 / 2 g above the impact (at h = 1/600 s: 0.4 % lower, where in its step
    // the impact falls; 4 % at 1/60). Solved with the stop as an equality it pulled the platform down with 5e2 N s
    // and the box stopped dead; the sweeps alone: the stop pulls with 40 kN, and the platform rises 25 % short.
    w = fcMakeWorld(1.0 / 600, false);
    fcBodyId platform = fcAddBox(w, fcV3(0, 0, 1), fcV3(0.5, 0.5, 0.05), 1, 0.6);
    fcJointId rail = fcAddRail(w, platform, fcV3(0, 0, 1), true, 0, 3);
    fcBodyId rising = fcAddBox(w, fcV3(0, 0, 0.5), fcV3(0.25, 0.25, 0.25), 100, 0.6);
    ENSURE(fcBody_SetLinearVelocity(rising, fcV3(0, 0, 5)));
    double pulled = 0, top = 0;
    for (int i = 0; i < 600; ++i) {
        ENSURE(fcWorld_Step(w));
        pulled = fmin(pulled, fcJoint_GetReaction(rail).force.z);
        top = fmax(top, fcBody_GetPosition(platform).z - 1);
    }
    double meet = sqrt(25 - 2 * g * 0.2) * 100 / 101, rise = meet * meet / (2 * g);
    printf("  a 100 kg box at 5 m/s strikes a 1 kg platform on its stop from below: the stop's least force %.3g N, "
           "the platform rose %.4f m ((v 100/101)^2 / 2 g = %.4f m)\n",
           pulled, top, rise);
    ENSURE(pulled >= 0);
    ENSURE_NEAR(top, rise, 0.01 * rise);
    fcDestroyWorld(w);
    // a platform held up by its motor (speed 0, at most 100 N) carries a 1000 kg crate dropped onto it: the motor's
    // bound holds, so that island is the sweeps' (as an equality the motor stopped the crate with 40 times its force)
    w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, 0.6);
    platform = fcAddBox(w, fcV3(0, 0, 1), fcV3(0.5, 0.5, 0.05), 1, 0.6);
    fcJointDef jd = fcDefaultJointDef(fc_sliderJoint);
    jd.bodyB = platform;
    jd.anchor = fcV3(0, 0, 1);
    jd.axis = fcV3(0, 0, 1);
    jd.enableMotor = true;
    jd.motorSpeed = 0;
    jd.maxMotorForce = 100;
    fcJointId motor = fcCreateJoint(w, &jd);
    fcAddBox(w, fcV3(0, 0, 1.35), fcV3(0.25, 0.25, 0.25), 1000, 0.6);
    double strongest = 0;
    int exact = 0;
    for (int i = 0; i < 60; ++i) {
        ENSURE(fcWorld_Step(w));
        strongest = fmax(strongest, fabs(fcJoint_GetReaction(motor).force.z));
        exact = fmax(exact, fcWorld_GetStats(w).contactExactPoints);
    }
    printf("  a 1000 kg crate onto a platform held by a 100 N motor: the motor's largest force %.9g N, %d rows exact\n",
           strongest, exact);
    ENSURE_LE(strongest, 100 * (1 + 1e-9));
    ENSURE(exact == 0);
    fcDestroyWorld(w);
    return 0;
}

static fcBodyId fcAddSphere(fcWorldId w, fcVec3 p, double r, double mass, double friction, double restitution)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = p;
    fcBodyId b = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.radius = r;
    sd.friction = friction;
    sd.restitution = restitution;
    sd.density = mass / (4 * pi * r * r * r / 3);
    fcCreateShape(b, &sd);
    return b;
}

// dropped from height H with restitution e it rebounds to e^2 H: the bounce of kick-drift is exact (fcContacts_Bounce)
// wherever in the step the ball meets the ground. Drops of 1 to 1.05 m at 1 to 4 substeps put the impact in every
// substep, the first ones included (the position pass runs after the step's last substep, and after one that must
// place a bounce); the peak is read at the steps' ends, within g (h/2)^2 / 2 = 0.34 mm of the apex.
static double fcDropPeak(double height, int substeps, double e, double* bottom)
{
    double r = 0.1;
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = 1.0 / 60;
    wd.enableSleeping = false;
    wd.contactSubsteps = substeps;
    fcWorldId w = fcCreateWorld(&wd);
    fcAddGround(w, 0.6);
    fcBodyId ball = fcAddSphere(w, fcV3(0, 0, r + height), r, 1, 0.6, e);
    double peak = 0;
    bool bounced = false;
    *bottom = 10;
    for (int i = 0; i < 120; ++i) {
        if (!fcWorld_Step(w)) return -1;
        double z = fcBody_GetPosition(ball).z - r;
        double vz = fcBody_GetLinearVelocity(ball).z;
        *bottom = fmin(*bottom, z);
        if (vz > 0) bounced = true;
        if (bounced) peak = fmax(peak, z);
        if (bounced && vz < 0) break;
    }
    fcDestroyWorld(w);
    return bounced ? peak : -1;
}

static int test_restitution_rebound(void)
{
    double e = 0.8, worst = 0, lowest = 10;
    for (int substeps = 1; substeps <= 4; ++substeps)
        for (int k = 0; k < 6; ++k) {
            double height = 1 + 0.01 * k, bottom = 0;
            double peak = fcDropPeak(height, substeps, e, &bottom);
            ENSURE(peak > 0);
            worst = fmax(worst, fabs(peak - e * e * height) / (e * e * height));
            lowest = fmin(lowest, bottom);
        }
    printf("  restitution %.2f, drops of 1 to 1.05 m at 1 to 4 substeps: rebound within %.2e of e^2 H, lowest %.4f m\n", e,
           worst, lowest);
    ENSURE(worst < 1.5e-3);
    ENSURE(lowest > -0.005);
    return 0;
}

// a force applied for one step (fcBody_ApplyForce) is gone at the bounce: the rebound equals that of a ball
// started with the state the force left, so the bounce's own acceleration term (gravity and this step's forces)
// does not keep a force from an earlier step
static int test_applied_force_gone_at_bounce(void)
{
    double e = 0.8, r = 0.1;
    fcWorldId a = fcMakeWorld(1.0 / 60, false), b = fcMakeWorld(1.0 / 60, false);
    fcAddGround(a, 0.6);
    fcAddGround(b, 0.6);
    fcBodyId pushed = fcAddSphere(a, fcV3(0, 0, r + 1), r, 1, 0.6, e);
    ENSURE(fcBody_ApplyForce(pushed, fcV3(0, 0, -300), fcBody_GetPosition(pushed)));
    ENSURE(fcWorld_Step(a));
    ENSURE_NEAR(fcBody_GetLinearVelocity(pushed).z, -(300 + g) / 60, 1e-12);  // the force acted for this step
    fcBodyId started = fcAddSphere(b, fcBody_GetPosition(pushed), r, 1, 0.6, e);
    ENSURE(fcBody_SetLinearVelocity(started, fcBody_GetLinearVelocity(pushed)));
    double va = 0, vb = 0;
    for (int i = 0; i < 60 && (va <= 0 || vb <= 0); ++i) {
        ENSURE(fcWorld_Step(a) && fcWorld_Step(b));
        va = fcBody_GetLinearVelocity(pushed).z;
        vb = fcBody_GetLinearVelocity(started).z;
    }
    printf("  rebound after a one-step push: %.12f m/s, started with its state: %.12f m/s\n", va, vb);
    ENSURE(va > 1 && vb > 1);
    ENSURE_NEAR(va, vb, 1e-9);
    fcDestroyWorld(a);
    fcDestroyWorld(b);
    return 0;
}

// The solver runs four manifolds side by side, as many points for each as the one with the most; the points a
// lane lacks must do nothing. A ball closing a speculative gap next to a box on the ground (four points, often
// in the same block) moves exactly as the ball alone: the points the ball's lane lacked were once rows at the
// bodies' centres with no gap, which stopped the ball in the air.
static int test_missing_points_do_nothing(void)
{
    double r = 0.1;
    fcWorldId pair = fcMakeWorld(1.0 / 60, false), alone = fcMakeWorld(1.0 / 60, false);
    fcAddGround(pair, 0.6);
    fcAddGround(alone, 0.6);
    fcAddBox(pair, fcV3(0, 0, 0.25), fcV3(0.25, 0.25, 0.25), 1, 0.6);
    fcBodyId balls[2] = {fcAddSphere(pair, fcV3(2, 0, r + 0.015), r, 1, 0.6, 0), fcAddSphere(alone, fcV3(2, 0, r + 0.015), r, 1, 0.6, 0)};
    for (int k = 0; k < 2; ++k) ENSURE(fcBody_SetLinearVelocity(balls[k], fcV3(0, 0, -0.6)));
    double gap = 0, lowest = 1;
    for (int i = 0; i < 30; ++i) {
        ENSURE(fcWorld_Step(pair) && fcWorld_Step(alone));
        gap = fmax(gap, fabs(fcBody_GetPosition(balls[0]).z - fcBody_GetPosition(balls[1]).z));
        lowest = fmin(lowest, fcBody_GetPosition(balls[0]).z - r);
    }
    printf("  ball beside a box against the ball alone: positions within %.2e m; its lowest point %.5f m\n", gap, lowest);
    ENSURE_LE(gap, 1e-12);
    ENSURE_NEAR(fcBody_GetPosition(balls[0]).z, r, 0.005);  // it came down and rests within the slop
    fcDestroyWorld(pair);
    fcDestroyWorld(alone);
    return 0;
}

// a small sphere at 100 m/s does not pass through a thin static box
static int test_no_tunnelling(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_staticBody;
    bd.position = fcV3(5, 0, 0);
    fcBodyId wall = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_boxShape;
    sd.halfExtents = fcV3(0.01, 2, 2);  // 2 cm thick
    fcCreateShape(wall, &sd);
    fcBodyId ball = fcAddSphere(w, fcV3(0, 0.3, 0), 0.05, 0.1, 0.6, 0);
    ENSURE(fcBody_SetLinearVelocity(ball, fcV3(100, 0, 0)));
    double farthest = 0;
    for (int i = 0; i < 60; ++i) {
        ENSURE(fcWorld_Step(w));
        farthest = fmax(farthest, fcBody_GetPosition(ball).x);
    }
    printf("  tunnelling: the ball got to x = %.4f m (the wall's face is at 4.99 m)\n", farthest);
    ENSURE_LE(farthest, 4.99 - 0.05 + 0.005);
    ENSURE_LE(fcBody_GetLinearVelocity(ball).x, 1e-6);  // stopped (restitution 0), not through
    fcDestroyWorld(w);
    return 0;
}

// A thin static wall, a box plate 2 cm thick (its face at x = 3, 10 m square) or a mesh sheet of two triangles at
// x = 3, for test_no_tunnelling_while_turning; no gravity; substeps: the contacts' (0: the default)
static fcWorldId fcMakeWallWorld(bool mesh, bool continuous, int substeps)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    wd.continuousCollision = continuous;
    if (substeps > 0) wd.contactSubsteps = substeps;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_staticBody;
    bd.position = fcV3(mesh ? 3 : 3.01, 0, 0);
    fcBodyId wall = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    static const fcVec3 corners[4] = {{0, -5, -5}, {0, 5, -5}, {0, 5, 5}, {0, -5, 5}};
    static const int triangles[6] = {0, 1, 2, 0, 2, 3};
    if (mesh) {
        sd.type = fc_meshShape;
        sd.vertices = corners;
        sd.vertexCount = 4;
        sd.indices = triangles;
        sd.triangleCount = 2;
    } else {
        sd.type = fc_boxShape;
        sd.halfExtents = fcV3(0.01, 5, 5);
    }
    fcCreateShape(wall, &sd);
    return w;
}

// Flies a dumbbell (kind 0: balls of radius r at +-2 m from its centre) or a plank (kind 1: 0.1 x 2 x 0.1 m) from
// start, turned by angle about z, at the wall for 1.5 s; returns how far past x = 3 any of its points within the wall's span got, and in *rise the most its
// kinetic energy rose above its first step's
static double fcFlyAtWall(fcWorldId w, int kind, double r, fcVec3 start, double angle, fcVec3 v, fcVec3 spin, double* rise, fcBodyId* out)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = start;
    bd.orientation = fcQuat_FromAxisAngle(fcV3(0, 0, 1), angle);
    fcBodyId b = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    if (kind == 0) {
        sd.type = fc_sphereShape;
        sd.radius = r;
        sd.localPosition = fcV3(0, 2, 0);
        fcCreateShape(b, &sd);
        sd.localPosition = fcV3(0, -4, 0);  // from the first ball, where the body's centre now is
        fcCreateShape(b, &sd);
    } else {
        sd.type = fc_boxShape;
        sd.halfExtents = fcV3(0.05, 1, 0.05);
        fcCreateShape(b, &sd);
    }
    fcBody_SetLinearVelocity(b, v);
    fcBody_SetAngularVelocity(b, spin);
    double deepest = -1e9, first = 0;
    *rise = 0;
    for (int i = 0; i < 90; ++i) {
        if (!fcWorld_Step(w)) return 1e9;
        double e = fcWorld_GetStats(w).kineticEnergy;
        if (i == 0) first = e;
        *rise = fmax(*rise, e - first);
        fcVec3 p = fcBody_GetPosition(b);
        fcQuat q = fcBody_GetOrientation(b);
        for (int c = 0; c < (kind == 0 ? 2 : 8); ++c) {
            fcVec3 l = kind == 0 ? fcV3(0, c ? 2 : -2, 0) : fcV3(c & 1 ? 0.05 : -0.05, c & 2 ? 1 : -1, c & 4 ? 0.05 : -0.05);
            fcVec3 x = fcVec3_Add(p, fcQuat_Rotate(q, l));
            if (fabs(x.y) < 5 && fabs(x.z) < 5) deepest = fmax(deepest, x.x + (kind == 0 ? r : 0) - 3);
        }
    }
    if (out != NULL) *out = b;
    return deepest;
}

// No tunnelling while turning, at a thin static wall (box plate or mesh sheet):
// - A dumbbell (balls of 2 cm at +-2 m from its centre) at 30 m/s turning at 10 rad/s, for 8 starting angles: one
//   ball, carried at up to 50 m/s by the turn, passed through the plate between two steps' speculative points (4 m
//   past it), since the pairs' margin and the shapes' swept boxes counted the body's centre's speed only
//   (contact.c: a shape off its body's centre now counts |w| times its distance, and its box moves with its own
//   point). Each ball within the wall's span stays within the slop (5 mm, and 1 mm) of its face.
// - A plank (0.1 x 2 x 0.1 m) at 60 m/s turning at (0, 27, 90) rad/s, 1.6 rad a step: the contacts' rows, linearised
//   at a step's start, let it through (5.8 m past the plate, 25 cm past the sheet); the continuous pass
//   (continuous.c) puts it back where it first came near the wall, and its corners then go no more than 5 cm past the
//   face in the steps it spends turning against it (3.5 cm measured: those steps are left to the contacts), its
//   kinetic energy never above its first step's (the angular velocity turned back with the body: kept in the
//   world's frame, the plank's rose by 36 %). With 3 or 6 contact substeps (2 is the default) the impact spun the
//   plank at 460 rad/s about its long axis, and from a step that began near the plate it went through (6.1 m): a
//   shape near a static one at the start that its contacts let more than twice the slop in now goes back to the
//   start, once; one whose centre began inside it (a plank spinning in a plate) is pushed out by its contacts.
// - A hull whose points are 5 m from its frame, and a disc thrown spinning onto a box floor (below).
// - The plank passing 1 m beside the wall's edge moves bit for bit as without the wall.
static int test_no_tunnelling_while_turning(void)
{
    const double bound = 0.006;  // the slop, 5 mm, and 1 mm
    for (int mesh = 0; mesh < 2; ++mesh) {
        double worst = -1, rise = 0, r;
        for (int k = 0; k < 8; ++k) {
            fcWorldId w = fcMakeWallWorld(mesh, true, 0);
            worst = fmax(worst, fcFlyAtWall(w, 0, 0.02, fcV3(0, 0, 0), k * 0.3927, fcV3(30, 0, 0), fcV3(0, 0, 10), &r, NULL));
            rise = fmax(rise, r);
            fcDestroyWorld(w);
        }
        printf("  %s: a dumbbell's 2 cm balls at 2 m from its centre, at 30 m/s and 10 rad/s: at most %.4f m past the face, "
               "kinetic energy up by at most %.3g J\n", mesh ? "mesh sheet" : "2 cm plate", worst, rise);
        ENSURE_LE(worst, bound);
        ENSURE_LE(rise, 1e-9);
        for (int substeps = 2; substeps <= 6; substeps += substeps == 2 ? 1 : 3) {
            fcWorldId w = fcMakeWallWorld(mesh, true, substeps);
            double plank = fcFlyAtWall(w, 1, 0, fcV3(0, 0, 0), 0, fcV3(60, 0, 0), fcV3(0, 27, 90), &r, NULL);
            fcDestroyWorld(w);
            printf("  %s, %d substeps: a plank at 60 m/s and 95 rad/s at most %.4f m past the face, kinetic energy up by "
                   "at most %.3g J\n", mesh ? "mesh sheet" : "2 cm plate", substeps, plank, r);
            ENSURE_LE(r, 1e-9);
            ENSURE_LE(plank, 0.05);  // a corner, in the steps it spends against the wall; never the plank
        }
    }
    // a hull cube of 0.2 m whose points lie 5 m from its own frame's origin, at 60 m/s turning at 12 rad/s, from 16
    // starting places: its swept box must move with its points, not its frame (with the frame's velocity, a first
    // version let it through in 13 of 16)
    fcVec3 cube[8];
    for (int i = 0; i < 8; ++i) cube[i] = fcV3(i & 1 ? 0.1 : -0.1, i & 2 ? 0.1 : -0.1, (i & 4 ? 0.1 : -0.1) + 5);
    int through = 0;
    for (int k = 0; k < 16; ++k) {
        fcWorldId w = fcMakeWallWorld(false, true, 0);
        fcBodyDef hd = fcDefaultBodyDef();
        fcBodyId hull = fcCreateBody(w, &hd);
        fcShapeDef sd = fcDefaultShapeDef();
        sd.type = fc_hullShape;
        sd.points = cube;
        sd.pointCount = 8;
        ENSURE(FC_IS_NON_NULL(fcCreateShape(hull, &sd)));
        ENSURE(fcBody_SetTransform(hull, fcV3(k * 0.031, 0, 0), fcQuat_Identity()));
        ENSURE(fcBody_SetLinearVelocity(hull, fcV3(60, 0, 0)) && fcBody_SetAngularVelocity(hull, fcV3(0, 12, 0)));
        for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
        through += fcBody_GetPosition(hull).x > 3;
        fcDestroyWorld(w);
    }
    printf("  a hull 5 m from its own origin at 60 m/s and 12 rad/s: through the plate in %d of 16 starts\n", through);
    ENSURE(through == 0);
    // a disc (r 0.3 m, 28 kg) thrown spinning at 79 rad/s onto a static box floor: its rim's rows cannot hold a turn of
    // 0.35 rad a step, and a first version put it back to its step's start every step from the 19th on, frozen 9 cm
    // up while the solve's impulses piled into its velocity (energy 632 -> 943 J); it comes to rest on its face
    fcWorldDef dd = fcDefaultWorldDef();
    fcWorldId floor = fcCreateWorld(&dd);
    fcAddTypedBox(floor, fc_staticBody, fcV3(0, 0, -0.5), fcV3(50, 50, 0.5), 0, 0.6);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, 0.351);
    fcBodyId disc = fcCreateBody(floor, &bd);
    fcShapeDef cd = fcDefaultShapeDef();
    cd.type = fc_cylinderShape;
    cd.radius = 0.3;
    cd.halfHeight = 0.05;
    fcCreateShape(disc, &cd);
    ENSURE(fcBody_SetLinearVelocity(disc, fcV3(-2.88, -0.56, 0)) && fcBody_SetAngularVelocity(disc, fcV3(-51.9, 3.3, 59.8)));
    double e0 = fcWorld_GetStats(floor).energy, highest = -1e9;
    for (int i = 0; i < 600; ++i) {
        ENSURE(fcWorld_Step(floor));
        if (i >= 100) highest = fmax(highest, fcWorld_GetStats(floor).energy);
    }
    fcVec3 dp = fcBody_GetPosition(disc);
    printf("  a disc thrown spinning onto a box floor: at rest at z = %.4f m after 10 s (its half height 0.05), energy "
           "from 1.7 s on at most %.2f J (%.2f at the start)\n", dp.z, highest, e0);
    ENSURE_NEAR(dp.z, 0.05, 0.005);
    ENSURE_LE(fcVec3_Length(fcBody_GetLinearVelocity(disc)), 1e-3);
    ENSURE_LE(highest, e0);
    fcDestroyWorld(floor);
    // a plank whose centre begins within a static plate, spinning at 200 rad/s: its contacts push it out (put back
    // to its start every step, as a centre that went into the plate is, it would stay there)
    {
        fcWorldDef wd = fcDefaultWorldDef();
        fcWorldId w = fcCreateWorld(&wd);
        fcAddTypedBox(w, fc_staticBody, fcV3(0, 0, 0), fcV3(2, 2, 0.05), 0, 0.6);
        fcBodyId plank = fcAddTypedBox(w, fc_dynamicBody, fcV3(0, 0, 0.02), fcV3(0.6, 0.05, 0.3), 1000, 0.6);
        fcBody_SetLinearVelocity(plank, fcV3(0, 0, -5));
        fcBody_SetAngularVelocity(plank, fcV3(0, 200, 0));
        for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
        printf("  a plank begun with its centre in a plate, spinning: at z = %.3f m after 10 steps\n", fcBody_GetPosition(plank).z);
        ENSURE(fcBody_GetPosition(plank).z > 0.35);  // clear of the plate (its top at 0.05, the plank's reach 0.67)
        fcDestroyWorld(w);
    }
    // beside the edge (the plank's centre 1.1 m above the wall's top): no effect at all
    fcWorldId with = fcMakeWallWorld(false, true, 0);
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    fcWorldId without = fcCreateWorld(&wd);
    fcBodyId a, b;
    double r;
    fcFlyAtWall(with, 1, 0, fcV3(0, 0, 6.1), 0, fcV3(60, 0, 0), fcV3(0, 27, 90), &r, &a);
    fcFlyAtWall(without, 1, 0, fcV3(0, 0, 6.1), 0, fcV3(60, 0, 0), fcV3(0, 27, 90), &r, &b);
    fcVec3 pa = fcBody_GetPosition(a), pb = fcBody_GetPosition(b), wa = fcBody_GetAngularVelocity(a), wb = fcBody_GetAngularVelocity(b);
    fcQuat qa = fcBody_GetOrientation(a), qb = fcBody_GetOrientation(b);
    printf("  the plank beside the wall's edge: at (%.4f, %.4f, %.4f) m, as without the wall\n", pa.x, pa.y, pa.z);
    ENSURE(pa.x > 50);  // it passed
    ENSURE(memcmp(&pa, &pb, sizeof pa) == 0 && memcmp(&qa, &qb, sizeof qa) == 0 && memcmp(&wa, &wb, sizeof wa) == 0);
    fcDestroyWorld(with);
    fcDestroyWorld(without);
    return 0;
}

// A thin body sliding on a static table, or spinning off its edge, is never held where it is by the continuous pass
// (a review's probes): a coin (r 0.1 m, 1.1 mm thick) thrown spinning at 63 rad/s onto a table slides as with the pass
// off (put back at every step that began near the table, its centre within the slop of the face, it hovered for 33
// steps); a frictionless plank 7 mm thick spinning at 78 rad/s about its long axis slides off the table's edge and
// falls (it went more than twice the slop into the table at every step there, was put back and hung for 6 s)
static double fcSlideOnTable(bool coin, bool continuous, int* longestHeld, fcVec3* end)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.enableSleeping = false;
    wd.continuousCollision = continuous;
    fcWorldId w = fcCreateWorld(&wd);
    fcAddTypedBox(w, fc_staticBody, fcV3(0, 0, 0.5), fcV3(20, 20, 0.5), 0, coin ? 0.5 : 0);
    fcBodyDef bd = fcDefaultBodyDef();
    fcShapeDef sd = fcDefaultShapeDef();
    if (coin) {
        bd.position = fcV3(0, 0, 1.1199);
        bd.orientation = fcQuat_FromAxisAngle(fcV3(1, 0, 0), 0.941);
        bd.linearVelocity = fcV3(-0.6525, -0.7979, 0);
        bd.angularVelocity = fcV3(-2.05, -1.38, 62.6);
        sd.type = fc_cylinderShape;
        sd.radius = 0.0999;
        sd.halfHeight = 0.00055;
        sd.friction = 0.05;
    } else {
        bd.position = fcV3(0, 0, 1.1);
        bd.linearVelocity = fcV3(5.169, 0, -0.960);
        bd.angularVelocity = fcV3(77.6, 2.06, 21.8);
        sd.type = fc_boxShape;
        sd.halfExtents = fcV3(0.342, 0.0280, 0.00426);
        sd.friction = 0;
    }
    fcBodyId b = fcCreateBody(w, &bd);
    fcCreateShape(b, &sd);
    fcVec3 last = fcBody_GetPosition(b);
    int held = 0;
    *longestHeld = 0;
    for (int i = 0; i < 600; ++i) {
        if (!fcWorld_Step(w)) return -1;
        fcVec3 p = fcBody_GetPosition(b);
        held = memcmp(&p, &last, sizeof p) == 0 && fcVec3_Length(fcBody_GetLinearVelocity(b)) > 0.01 ? held + 1 : 0;
        *longestHeld = held > *longestHeld ? held : *longestHeld;
        last = p;
    }
    *end = fcBody_GetPosition(b);
    fcDestroyWorld(w);
    return 0;
}

static int test_continuous_never_holds_a_slider(void)
{
    int heldOn, heldOff;
    fcVec3 on, off;
    ENSURE(fcSlideOnTable(true, true, &heldOn, &on) == 0 && fcSlideOnTable(true, false, &heldOff, &off) == 0);
    printf("  a coin on a table: at (%.4f, %.4f) m after 10 s (the pass off: (%.4f, %.4f)), held for %d steps at most\n", on.x,
           on.y, off.x, off.y, heldOn);
    ENSURE(heldOn == 0);
    ENSURE_NEAR(on.x, off.x, 1e-3);
    ENSURE_NEAR(on.y, off.y, 1e-3);
    ENSURE(fcSlideOnTable(false, true, &heldOn, &on) == 0 && fcSlideOnTable(false, false, &heldOff, &off) == 0);
    printf("  a plank spinning off a table's edge: at (%.2f, %.2f) m after 10 s (the pass off: (%.2f, %.2f)), held for %d steps "
           "at most\n", on.x, on.z, off.x, off.z, heldOn);
    ENSURE_LE(heldOn, 1);
    ENSURE(on.x > 40 && on.z < -100);  // off the table (its edge at x = 20) and falling
    return 0;
}

// No ghost at an edge: a ball of 0.1 m at 50 m/s whose straight path passes 1 cm outside a static box's vertical
// edge keeps its velocity to the last bit (the speculative point found at a step's start, 0.5 m before the edge,
// stopped its approach along that point's normal: it left at (27.5, -4.4) m/s for (35.4, -35.4)); on a path 1 cm
// inside the edge it strikes the edge and is turned, and at no step's end does it overlap the box by more than the
// slop (its centre no nearer the edge than r - 5 mm).
static int test_no_ghost_at_an_edge(void)
{
    const double r = 0.1, speed = 50, s = sqrt(0.5);
    for (int inside = 0; inside < 2; ++inside) {
        fcWorldDef wd = fcDefaultWorldDef();
        wd.gravity = fcV3(0, 0, 0);
        fcWorldId w = fcCreateWorld(&wd);
        fcAddTypedBox(w, fc_staticBody, fcV3(0, 0, 0), fcV3(0.5, 0.5, 0.5), 0, 0.6);
        double offset = inside ? r - 0.01 : r + 0.01, d = 0.5 + offset * s;  // the path's distance from the edge
        fcBodyId ball = fcAddSphere(w, fcV3(d - 3 * s, d + 3 * s, 0), r, 1, 0.6, 0);
        fcVec3 v0 = fcV3(speed * s, -speed * s, 0);
        ENSURE(fcBody_SetLinearVelocity(ball, v0));
        double nearest = 1e9;
        for (int i = 0; i < 12; ++i) {
            ENSURE(fcWorld_Step(w));
            fcVec3 p = fcBody_GetPosition(ball);
            nearest = fmin(nearest, hypot(p.x - 0.5, p.y - 0.5));
        }
        fcVec3 v = fcBody_GetLinearVelocity(ball);
        printf("  a ball at 50 m/s past a box's edge, its path %s: leaves at (%.4f, %.4f) m/s, its centre at least "
               "%.4f m from the edge\n", inside ? "1 cm inside it" : "1 cm outside it", v.x, v.y, nearest);
        if (!inside) {
            ENSURE_NEAR(v.x, v0.x, 1e-12);
            ENSURE_NEAR(v.y, v0.y, 1e-12);
        } else {
            ENSURE(fcVec3_Length(fcVec3_Sub(v, v0)) > 1);
            ENSURE(nearest >= r - 0.005);
        }
        fcDestroyWorld(w);
    }
    // only a body nothing else moves within the step keeps its sweep: a ball at 30 m/s turned to (15, 15) by a
    // frictionless 45 degree wall in its first step must stop at a 2 cm plate across its new path, beside its
    // straight one (with the plate's points dropped by the sweep along (30, 0) it passed through: y = 0.25)
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    fcWorldId w = fcCreateWorld(&wd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.friction = 0;
    fcBodyId wall = fcAddBoxWith(w, fc_staticBody, fcV3(0.0707 + 0.5 * s, -0.0707 - 0.5 * s, 0), fcV3(1, 0.5, 1), 0, sd);
    ENSURE(fcBody_SetTransform(wall, fcBody_GetPosition(wall), fcQuat_FromAxisAngle(fcV3(0, 0, 1), pi / 4)));
    fcAddBoxWith(w, fc_staticBody, fcV3(0.2, 0.21, 0), fcV3(0.1, 0.01, 1), 0, sd);
    fcBodyId ball = fcAddSphere(w, fcV3(-0.001, 0, 0), r, 1, 0, 0);
    ENSURE(fcBody_SetLinearVelocity(ball, fcV3(30, 0, 0)));
    double highest = -1;
    for (int i = 0; i < 6; ++i) {
        ENSURE(fcWorld_Step(w));
        highest = fmax(highest, fcBody_GetPosition(ball).y);
    }
    fcVec3 v = fcBody_GetLinearVelocity(ball);
    printf("  a ball turned by a wall toward a plate beside its path: its centre at most at y = %.4f (the plate's face "
           "at 0.2), then at (%.4f, %.4f) m/s\n", highest, v.x, v.y);
    ENSURE_LE(highest, 0.2);
    ENSURE_LE(fabs(v.y), 0.1);  // caught in the corner, not through
    fcDestroyWorld(w);
    return 0;
}

// No ghost at a seam (contact.c, fcContacts_IsSeam): a floor of flush static boxes, 1 m tiles with their tops at
// z = 0. A box sliding at 5 m/s with mu 0.1 slides v^2 / (2 mu g) = 12.74 m (less h v / 2 for the kick-drift steps)
// and stays flat: it met the second tile's side face at the first seam, rose 18 cm, turned at 7 rad/s and stopped
// after 1.7 m. A ball rolling at 5 m/s keeps its speed over 5 s (it lost 21 %, bumping 9 mm at each seam). A box
// sliding at 2 m/s into a curb 4.5 mm high stops there, tipping on its edge and back: a real step, however low (with
// seams up to the slop high, the box passed into it and through). On a floor stepping down 2 mm a tile the box slides
// on, dropping at each seam (it tripped at the third, on the lower tile's side face found below it: 3.2 m).
static int test_no_ghost_at_a_seam(void)
{
    for (int k = 0; k < 4; ++k) {
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        double down = k == 3 ? 0.002 : 0;  // k = 3: each tile 2 mm lower than the one before
        for (int i = 0; i < 40; ++i) fcAddTypedBox(w, fc_staticBody, fcV3(-2 + i, 0, -0.5 - down * i), fcV3(0.5, 2, 0.5), 0, 0.1);
        if (k == 2) fcAddTypedBox(w, fc_staticBody, fcV3(2.5, 0, 0.00225), fcV3(1, 2, 0.00225), 0, 0.1);  // its face at x = 1.5
        double v0 = k == 2 ? 2 : 5, mu = 0.1, R = 0.25;
        fcBodyId b;
        if (k == 1) {
            fcBodyDef bd = fcDefaultBodyDef();
            bd.position = fcV3(0, 0, R);
            bd.linearVelocity = fcV3(v0, 0, 0);
            bd.angularVelocity = fcV3(0, v0 / R, 0);
            b = fcCreateBody(w, &bd);
            fcShapeDef sd = fcDefaultShapeDef();
            sd.type = fc_sphereShape;
            sd.radius = R;
            sd.friction = mu;
            fcCreateShape(b, &sd);
        } else {
            b = fcAddBox(w, fcV3(0, 0, 0.25 - 2 * down), fcV3(0.25, 0.25, 0.25), 1, mu);
            ENSURE(fcBody_SetLinearVelocity(b, fcV3(v0, 0, 0)));
        }
        double lift = 0, turn = 0, z0 = fcBody_GetPosition(b).z;
        for (int i = 0; i < 360; ++i) {
            ENSURE(fcWorld_Step(w));
            if (k == 1 && i == 299) ENSURE_NEAR(fcBody_GetPosition(b).x, 5 * v0, 1e-3 * 5 * v0);  // 5 s
            lift = fmax(lift, fcBody_GetPosition(b).z - z0);
            if (k != 1) turn = fmax(turn, fcVec3_Length(fcBody_GetAngularVelocity(b)));
        }
        fcVec3 x = fcBody_GetPosition(b), v = fcBody_GetLinearVelocity(b);
        printf("  %s: at x = %.4f m after 6 s, moving at %.5f m/s; rose %.3g m, turned at most %.3g rad/s\n",
               k == 0 ? "box over seams" : k == 1 ? "ball over seams" : k == 2 ? "box into a 4.5 mm curb" : "box down 2 mm steps",
               x.x, v.x, lift, turn);
        if (k != 2) ENSURE_LE(lift, 1e-3);  // above its start (down the steps it only comes down)
        if (k == 0) {
            double slide = v0 * v0 / (2 * mu * g) - v0 / 60 / 2;
            ENSURE_NEAR(x.x, slide, 0.005 * slide);
            ENSURE_LE(turn, 1e-2);
        } else if (k == 1) {
            ENSURE_NEAR(v.x, v0, 1e-3 * v0);
        } else if (k == 2) {
            ENSURE(x.x + 0.25 <= 1.5 + 0.005 && x.x + 0.25 >= 1.5 - 0.1);  // at the curb's face (it tips on it, and back)
        } else {
            double slide = v0 * v0 / (2 * mu * g) - v0 / 60 / 2;
            ENSURE_NEAR(x.x, slide, 0.02 * slide);  // it drops 2 mm at each seam
            ENSURE_LE(turn, 1);
        }
        fcDestroyWorld(w);
    }
    return 0;
}

// cases.md case 4 as a real contact: a small frictionless sphere on a frictionless static sphere; the centre
// moves on a circle of 5 m, so it leaves at cos = 2/3 with v = sqrt(2 g R / 3)
static int fcRunDome(double h, double* angle, double* speed, double* worstForce, int* releases)
{
    const double R = 5, r = 0.05, m = 70;
    fcWorldId w = fcMakeWorld(h, false);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_staticBody;
    fcBodyId domeBody = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.radius = R - r;
    sd.friction = 0;
    fcShapeId dome = fcCreateShape(domeBody, &sd);
    fcBodyId skier = fcAddSphere(w, fcV3(0, 0, R), r, m, 0, 0);
    ENSURE(fcBody_SetLinearVelocity(skier, fcV3(0.05, 0, 0)));
    *releases = 0;
    *worstForce = 0;
    bool released = false;
    for (int i = 0; i < (int)(4 / h) && !released; ++i) {
        fcVec3 x0 = fcBody_GetPosition(skier);
        ENSURE(fcWorld_Step(w));
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
            fcConstraintEvent ev = fcWorld_GetEvent(w, e);
            ENSURE(ev.type != fc_eventStickToSlip && ev.type != fc_eventSlipToStick);  // frictionless: no slip events
            if (ev.type != fc_eventRelease) continue;
            ENSURE(FC_ID_EQUALS(ev.shapeA, dome) || FC_ID_EQUALS(ev.shapeB, dome));
            *releases += 1;
            double dt = ev.time - (fcWorld_GetTime(w) - h);
            fcVec3 x = fcVec3_MulAdd(ev.positionB, dt, ev.velocityB);
            *angle = acos(x.z / fcVec3_Length(x)) * 180 / pi;
            *speed = fcVec3_Length(ev.velocityB);
            released = true;
        }
        if (released) break;
        double cosTheta = x0.z / fcVec3_Length(x0);
        fcContactData c[2];
        double force = fcBody_GetContacts(skier, c, 2) > 0 ? fcVec3_Length(c[0].force) : 0;
        *worstForce = fmax(*worstForce, fabs(force - m * g * (3 * cosTheta - 2)) / (m * g));
    }
    fcDestroyWorld(w);
    return 0;
}

static int test_skier_leaves_real_dome(void)
{
    double exactAngle = acos(2.0 / 3.0) * 180 / pi, exactSpeed = sqrt(2 * g * 5 / 3);
    double hs[2] = {1.0 / 240, 1.0 / 1000}, tol[2] = {0.5, 0.05};
    for (int k = 0; k < 2; ++k) {
        double angle = 0, speed = 0, worst = 0;
        int releases = 0;
        ENSURE(fcRunDome(hs[k], &angle, &speed, &worst, &releases) == 0);
        printf("  dome contact at h = 1/%.0f: release at %.4f deg (exact %.4f), %.4f m/s (exact %.4f), normal force within "
               "%.2e m g of m g (3 cos - 2)\n",
               1 / hs[k], angle, exactAngle, speed, exactSpeed, worst);
        ENSURE(releases == 1);
        ENSURE_NEAR(angle, exactAngle, tol[k]);
        ENSURE_NEAR(speed, exactSpeed, 0.01 * exactSpeed);
        ENSURE_LE(worst, 0.02);
    }
    return 0;
}

// cases.md case 5 with real contact: a hoop or a disk (a cylinder lying on its side) on an incline, 240 steps of h
static int fcRunIncline(double degrees, double h, double inertiaFactor, double mu, double* accel, double* friction,
                        int* stickToSlip)
{
    const double alpha = degrees * pi / 180, m = 2, R = 0.2;
    fcWorldId w = fcMakeWorld(h, false);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_staticBody;
    bd.orientation = fcQuat_FromAxisAngle(fcV3(0, 1, 0), alpha);  // normal (sin a, 0, cos a): downhill is +x
    fcBodyId slope = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_planeShape;
    sd.friction = mu;
    fcCreateShape(slope, &sd);
    fcVec3 n = fcV3(sin(alpha), 0, cos(alpha)), down = fcV3(cos(alpha), 0, -sin(alpha));
    fcBodyDef wd = fcDefaultBodyDef();
    wd.position = fcVec3_Scale(R, n);
    wd.orientation = fcQuat_FromAxisAngle(fcV3(1, 0, 0), pi / 2);  // the cylinder's axis along y
    wd.mass = m;
    double ia = inertiaFactor * m * R * R, it = 0.5 * ia + m * 0.01 / 3;
    wd.inertia = fcV3(it, it, ia);
    fcBodyId wheel = fcCreateBody(w, &wd);
    fcShapeDef cd = fcDefaultShapeDef();
    cd.type = fc_cylinderShape;
    cd.radius = R;
    cd.halfHeight = 0.05;
    cd.friction = mu;
    fcCreateShape(wheel, &cd);
    *stickToSlip = 0;
    double f = 0;
    int samples = 0;
    for (int i = 0; i < 240; ++i) {
        ENSURE(fcWorld_Step(w));
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) *stickToSlip += fcWorld_GetEvent(w, e).type == fc_eventStickToSlip;
        if (i < 24) continue;  // the first steps settle the contact
        fcContactData c[2];
        ENSURE(fcBody_GetContacts(wheel, c, 2) == 1);
        double sign = FC_ID_EQUALS(c[0].bodyB, wheel) ? 1 : -1;
        f += -sign * fcVec3_Dot(c[0].force, down);  // friction points uphill
        samples += 1;
    }
    *accel = fcVec3_Dot(fcBody_GetLinearVelocity(wheel), down) / (240 * h);
    *friction = f / samples;
    fcDestroyWorld(w);
    return 0;
}

static int test_incline_rolls_and_slips(void)
{
    const double sa = 0.5, m = 2;
    double a, f;
    int slips;
    // hoop: a = g sin/2 = 2.4525, friction m g sin / 2 = 4.905 N, mu 0.5 > 0.2887
    ENSURE(fcRunIncline(30, 1.0 / 240, 1, 0.5, &a, &f, &slips) == 0);
    printf("  hoop rolling: a = %.4f m/s^2 (exact 2.4525), friction %.4f N (exact 4.905), %d slips\n", a, f, slips);
    // (the issue asks 2 %; a lever-arm bug showed up at 0.5 %; with the side measured every substep it meets 1e-5)
    ENSURE_NEAR(a, g * sa / 2, 5e-4 * g * sa / 2);
    ENSURE_NEAR(f, m * g * sa / 2, 5e-4 * m * g * sa / 2);
    ENSURE(slips == 0);
    // disk: a = 2/3 g sin = 3.27, friction m g sin / 3 = 3.27 N, mu 0.3 > 0.1925
    ENSURE(fcRunIncline(30, 1.0 / 240, 0.5, 0.3, &a, &f, &slips) == 0);
    printf("  disk rolling: a = %.4f m/s^2 (exact 3.27), friction %.4f N (exact 3.27), %d slips\n", a, f, slips);
    ENSURE_NEAR(a, 2 * g * sa / 3, 5e-4 * 2 * g * sa / 3);
    ENSURE_NEAR(f, m * g * sa / 3, 5e-4 * m * g * sa / 3);
    ENSURE(slips == 0);
    // hoop with mu 0.1 < 0.2887: it slides, a = g (sin - mu cos), friction mu m g cos, and says so
    double cs = sqrt(3) / 2;
    ENSURE(fcRunIncline(30, 1.0 / 240, 1, 0.1, &a, &f, &slips) == 0);
    printf("  hoop slipping: a = %.4f m/s^2 (exact %.4f), friction %.4f N (exact %.4f), %d stick-to-slip events\n", a,
           g * (sa - 0.1 * cs), f, 0.1 * m * g * cs, slips);
    ENSURE(slips == 1);
    ENSURE_NEAR(a, g * (sa - 0.1 * cs), 5e-4 * g * (sa - 0.1 * cs));
    ENSURE_NEAR(f, 0.1 * m * g * cs, 5e-4 * 0.1 * m * g * cs);
    return 0;
}

// A cylinder lying on its side rolls on the curve of its side, measured every substep like a capsule's (it kept the
// collide stage's points, which turn with the body: at h = 1/60 a disk on a 40 deg incline reported friction 0.7 %
// high, and one rolling on the ground at 16 m/s was thrown 14 cm up with 12 m g). The disk at h = 1/60: friction
// m g sin / 3, a = 2/3 g sin; on the ground at 16 m/s: m g, and the speed it was given.
static int test_cylinder_rolls_at_speed(void)
{
    const double m = 2, R = 0.2, h = 1.0 / 60, v = 16, s40 = sin(40 * pi / 180);
    double a, f;
    int slips;
    ENSURE(fcRunIncline(40, h, 0.5, 0.5, &a, &f, &slips) == 0);
    printf("  disk on 40 deg at h = 1/60: a = %.5f m/s^2 (exact %.5f), friction %.5f N (exact %.5f)\n", a, 2 * g * s40 / 3, f,
           m * g * s40 / 3);
    ENSURE_NEAR(a, 2 * g * s40 / 3, 2e-4 * g);
    ENSURE_NEAR(f, m * g * s40 / 3, 2e-4 * m * g);
    ENSURE(slips == 0);
    fcWorldId w = fcMakeWorld(h, false);
    fcAddGround(w, 0.6);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, R);
    bd.orientation = fcQuat_FromAxisAngle(fcV3(1, 0, 0), pi / 2);  // the axis along y
    bd.linearVelocity = fcV3(v, 0, 0);
    bd.angularVelocity = fcV3(0, v / R, 0);
    fcBodyId wheel = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_cylinderShape;
    sd.radius = R;
    sd.halfHeight = 0.05;
    sd.density = m / (pi * R * R * 0.1);
    ENSURE(FC_IS_NON_NULL(fcCreateShape(wheel, &sd)));
    double worst = 0, highest = 0;
    for (int i = 0; i < 120; ++i) {
        ENSURE(fcWorld_Step(w));
        fcContactData c[2];
        ENSURE(fcBody_GetContacts(wheel, c, 2) == 1);
        worst = fmax(worst, fabs(fabs(c[0].force.z) - m * g));
        highest = fmax(highest, fcBody_GetPosition(wheel).z - R);
    }
    printf("  disk rolling at 16 m/s, h = 1/60: normal force within %.2e m g of m g, rose %.2e m, now %.6f m/s\n",
           worst / (m * g), highest, fcBody_GetLinearVelocity(wheel).x);
    ENSURE_LE(worst, 0.01 * m * g);
    ENSURE_LE(highest, 1e-5);
    ENSURE_NEAR(fcBody_GetLinearVelocity(wheel).x, v, 1e-3);
    fcDestroyWorld(w);
    return 0;
}

// a hinge at its limit holds a horizontal lever with torque m g l; a motor lifting a payload reports the torque
static int test_hinge_limit_and_motor(void)
{
    const double m = 3, l = 0.8;
    fcWorldId w = fcMakeWorld(1.0 / 240, false);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(l, 0, 0);  // a point mass at the end of a massless lever along x
    bd.mass = m;
    bd.inertia = fcV3(1e-4, 1e-4, 1e-4);
    fcBodyId bob = fcCreateBody(w, &bd);
    fcJointDef jd = fcDefaultJointDef(fc_hingeJoint);
    jd.bodyB = bob;
    jd.anchor = fcV3(0, 0, 0);
    jd.axis = fcV3(0, 1, 0);  // gravity turns it about +y (positive angle downwards)
    jd.enableLimit = true;
    jd.lowerLimit = -1;
    jd.upperLimit = 0;  // it may rise but not fall below the horizontal
    fcJointId hinge = fcCreateJoint(w, &jd);
    ENSURE(FC_IS_NON_NULL(hinge));
    ENSURE(fcJoint_GetRowCount(hinge) == 6);
    for (int i = 0; i < 240; ++i) ENSURE(fcWorld_Step(w));
    fcJointReaction r = fcJoint_GetReaction(hinge);
    printf("  limit: holds the lever with %.6f N m (exact m g l = %.6f), angle %.3g rad\n", r.limitForce, m * g * l,
           fcJoint_GetCoordinate(hinge));
    ENSURE(r.atLimit);
    ENSURE_NEAR(fabs(r.limitForce), m * g * l, 0.01 * m * g * l);
    ENSURE_NEAR(fcJoint_GetCoordinate(hinge), 0, 1e-6);
    // a motor raising it at 0.5 rad/s (angle decreasing) with up to 100 N m: it needs m g l cos(angle)
    ENSURE(fcJoint_SetMotor(hinge, true, -0.5, 100));
    ENSURE(fcJoint_GetRowCount(hinge) == 7);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    r = fcJoint_GetReaction(hinge);
    double angle = fcJoint_GetCoordinate(hinge);
    printf("  motor: %.4f N m at %.4f rad, %.4f rad/s (exact m g l cos = %.4f)\n", r.motorForce, angle,
           fcJoint_GetCoordinateRate(hinge), m * g * l * cos(angle));
    ENSURE_NEAR(fcJoint_GetCoordinateRate(hinge), -0.5, 1e-9);
    ENSURE_NEAR(fabs(r.motorForce), m * g * l * cos(angle), 0.01 * m * g * l);
    ENSURE(!r.atLimit);
    // a motor too weak to lift it stalls at its bound and the lever falls back onto the limit
    ENSURE(fcJoint_SetMotor(hinge, true, -0.5, 5));
    for (int i = 0; i < 480; ++i) ENSURE(fcWorld_Step(w));
    r = fcJoint_GetReaction(hinge);
    printf("  weak motor: %.4f N m (bound 5), limit %.4f N m\n", r.motorForce, r.limitForce);
    ENSURE_NEAR(fabs(r.motorForce), 5, 1e-9);
    ENSURE_NEAR(fabs(r.limitForce), m * g * l - 5, 0.01 * m * g * l);
    // bad limits and motors are refused and change nothing
    fcClearError();
    ENSURE(!fcJoint_SetLimits(hinge, true, 1, -1));
    ENSURE(strstr(fcGetLastError(), "lower <= upper") != NULL);
    ENSURE(!fcJoint_SetMotor(hinge, true, 1, -2));
    ENSURE(fcJoint_GetRowCount(hinge) == 7);
    fcDestroyWorld(w);
    return 0;
}

// a rope pulls only: slack it carries nothing, taut it holds the weight, and both changes are events
static int test_rope_slack_and_taut(void)
{
    const double m = 2;
    fcWorldId w = fcMakeWorld(1.0 / 240, false);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, -0.5);
    bd.mass = m;
    bd.inertia = fcV3(1, 1, 1);
    fcBodyId load = fcCreateBody(w, &bd);
    fcJointDef jd = fcDefaultJointDef(fc_ropeJoint);
    jd.bodyB = load;
    jd.anchorA = fcV3(0, 0, 0);
    jd.anchorB = fcV3(0, 0, -0.5);
    jd.length = 1;  // 0.5 m of slack
    fcJointId rope = fcCreateJoint(w, &jd);
    ENSURE(FC_IS_NON_NULL(rope));
    int holds = 0, releases = 0;
    double slackForce = 1;
    for (int i = 0; i < 240; ++i) {
        ENSURE(fcWorld_Step(w));
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
            fcConstraintEvent ev = fcWorld_GetEvent(w, e);
            holds += ev.type == fc_eventHold;
            releases += ev.type == fc_eventRelease;
        }
        if (i == 20) slackForce = fcJoint_GetReaction(rope).lambda[0];
    }
    ENSURE(slackForce == 0);
    ENSURE(holds >= 1);
    // it fell 0.5 m and jerked taut (inelastically): now it hangs at the rope's length with m g
    ENSURE_NEAR(fcBody_GetPosition(load).z, -1, 1e-6);
    ENSURE_NEAR(fcJoint_GetReaction(rope).lambda[0], m * g, 1e-6 * m * g);
    ENSURE(fcJoint_GetReaction(rope).force.z > 0);  // it pulls up
    // thrown up, it goes slack again: a release
    ENSURE(fcBody_SetLinearVelocity(load, fcV3(0, 0, 3)));
    for (int i = 0; i < 20; ++i) {
        ENSURE(fcWorld_Step(w));
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) releases += fcWorld_GetEvent(w, e).type == fc_eventRelease;
    }
    ENSURE(releases >= 1);
    ENSURE(fcJoint_GetReaction(rope).lambda[0] == 0);
    fcDestroyWorld(w);
    return 0;
}

static int fcCountEvents(fcWorldId w, fcEventType type)
{
    int n = 0;
    for (int e = 0; e < fcWorld_GetEventCount(w); ++e) n += fcWorld_GetEvent(w, e).type == type;
    return n;
}

// contact begin/end events, sensors (no force), filters and joined bodies that do not collide
static int test_events_sensors_filters(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, 0.6);
    fcBodyId ball = fcAddSphere(w, fcV3(0, 0, 0.3), 0.1, 1, 0.6, 0);
    int begins = 0, ends = 0;
    for (int i = 0; i < 30; ++i) {
        fcVec3 start = fcBody_GetPosition(ball);
        ENSURE(fcWorld_Step(w));
        begins += fcCountEvents(w, fc_eventContactBegin);
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
            fcConstraintEvent ev = fcWorld_GetEvent(w, e);
            if (ev.type != fc_eventContactBegin) continue;
            // the state at the start of the step, and no force before it began
            ENSURE(ev.forceBefore == 0);
            ENSURE_NEAR(ev.positionB.z, start.z, 1e-12);
            ENSURE_NEAR(ev.normal.z, 1, 1e-12);
        }
    }
    ENSURE(begins == 1);
    ENSURE(fcBody_SetLinearVelocity(ball, fcV3(0, 0, 5)));
    for (int i = 0; i < 10; ++i) {
        ENSURE(fcWorld_Step(w));
        ends += fcCountEvents(w, fc_eventContactEnd);
    }
    ENSURE(ends == 1);
    // a sensor box around the ball's path reports it entering and carries no force
    fcAddSensorBox(w, fcV3(0, 0, 3), fcV3(1, 1, 0.2));
    ENSURE(fcBody_SetTransform(ball, fcV3(0, 0, 2), fcQuat_Identity()));
    ENSURE(fcBody_SetLinearVelocity(ball, fcV3(0, 0, 6)));
    int sensed = 0;
    double vz = 0;
    for (int i = 0; i < 15; ++i) {
        double before = fcBody_GetLinearVelocity(ball).z;
        ENSURE(fcWorld_Step(w));
        sensed += fcCountEvents(w, fc_eventSensorBegin);
        vz = fcBody_GetLinearVelocity(ball).z;
        ENSURE_NEAR(vz, before - g / 60, 1e-9);  // gravity alone: the sensor does not push
    }
    ENSURE(sensed == 1);
    // filters: a ball whose mask leaves out the ground's category falls through it
    fcBodyId ghost = fcAddSphere(w, fcV3(3, 0, 0.5), 0.1, 1, 0.6, 0);
    ENSURE(fcShape_SetFilter(fcBody_GetShape(ghost, 0), 2, ~(uint64_t)1));
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_GetPosition(ghost).z < -1);
    // two overlapping boxes joined by a ball joint do not push each other (collide_connected false)
    fcBodyId a, b;
    ENSURE(FC_IS_NON_NULL(fcAddJoinedBoxes(w, fc_ballJoint, fcV3(6, 0, 0.5), fcV3(6.5, 0, 0.5), fcV3(0.5, 0.5, 0.5),
                                           fcV3(6.25, 0, 0.5), &a, &b)));
    for (int i = 0; i < 5; ++i) ENSURE(fcWorld_Step(w));
    fcContactData c[8];
    int n = fcBody_GetContacts(a, c, 8);
    for (int i = 0; i < n && i < 8; ++i) ENSURE(!(FC_ID_EQUALS(c[i].bodyA, b) || FC_ID_EQUALS(c[i].bodyB, b)));
    fcDestroyWorld(w);
    return 0;
}

// bad shapes are refused with a message, and the body is unchanged
static int test_bad_shapes(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyDef bd = fcDefaultBodyDef();
    fcBodyId body = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.radius = 0;
    fcClearError();
    ENSURE(FC_IS_NULL(fcCreateShape(body, &sd)));
    ENSURE(strstr(fcGetLastError(), "radius must be > 0") != NULL);
    fcVec3 flat[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    sd = fcDefaultShapeDef();
    sd.type = fc_hullShape;
    sd.points = flat;
    sd.pointCount = 4;
    ENSURE(FC_IS_NULL(fcCreateShape(body, &sd)));
    ENSURE(strstr(fcGetLastError(), "hull refused") != NULL);
    fcVec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    int idx[3] = {0, 1, 7};
    bd.type = fc_staticBody;
    fcBodyId ground = fcCreateBody(w, &bd);
    sd = fcDefaultShapeDef();
    sd.type = fc_meshShape;
    sd.vertices = v;
    sd.vertexCount = 3;
    sd.indices = idx;
    sd.triangleCount = 1;
    ENSURE(FC_IS_NULL(fcCreateShape(ground, &sd)));
    ENSURE(strstr(fcGetLastError(), "mesh refused") != NULL);
    sd = fcDefaultShapeDef();
    sd.type = fc_planeShape;
    ENSURE(FC_IS_NULL(fcCreateShape(body, &sd)));  // a plane on a dynamic body
    ENSURE(strstr(fcGetLastError(), "static body") != NULL);
    sd = fcDefaultShapeDef();
    sd.friction = -1;
    ENSURE(FC_IS_NULL(fcCreateShape(body, &sd)));
    ENSURE(fcBody_GetShapeCount(body) == 0 && fcBody_GetShapeCount(ground) == 0);
    // bad values on the other new paths are refused and change nothing
    sd = fcDefaultShapeDef();
    fcShapeId ball = fcCreateShape(body, &sd);
    fcClearError();
    ENSURE(!fcShape_SetFriction(ball, -1) && strstr(fcGetLastError(), "friction must be >= 0") != NULL);
    ENSURE(!fcShape_SetRestitution(ball, 1.5) && strstr(fcGetLastError(), "restitution must be in [0, 1]") != NULL);
    ENSURE(fcShape_GetDef(ball).friction == 0.6 && fcShape_GetDef(ball).restitution == 0);
    ENSURE(!fcBody_ApplyForce(body, fcV3(NAN, 0, 0), fcV3(0, 0, 0)) && strstr(fcGetLastError(), "not finite") != NULL);
    ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_GetLinearVelocity(body).x == 0);  // the refused force was not applied
    fcWorldDef bad = fcDefaultWorldDef();
    bad.contactIterations = 0;
    ENSURE(FC_IS_NULL(fcCreateWorld(&bad)) && strstr(fcGetLastError(), "contactIterations must be 1..10000") != NULL);
    bad = fcDefaultWorldDef();
    bad.contactSlop = -0.1;
    ENSURE(FC_IS_NULL(fcCreateWorld(&bad)) && strstr(fcGetLastError(), "contactSlop") != NULL);
    bad = fcDefaultWorldDef();
    bad.restitutionOverride = 2;
    ENSURE(FC_IS_NULL(fcCreateWorld(&bad)) && strstr(fcGetLastError(), "restitution") != NULL);
    fcDestroyWorld(w);
    return 0;
}

// the world's queries see the shapes: the closest ray hit, an AABB overlap
static fcReal fcCountHit(const fcRayResult* hit, void* context)
{
    (void)hit;
    *(int*)context += 1;
    return 1;
}

static bool fcCountOverlap(fcShapeId shape, void* context)
{
    (void)shape;
    *(int*)context += 1;
    return true;
}

typedef struct CastHits {
    int count;
    double fraction[2];
} CastHits;

static fcReal fcRecordHit(const fcRayResult* hit, void* context)
{
    CastHits* h = context;
    if (h->count < 2) h->fraction[h->count] = hit->fraction;
    h->count += 1;
    return 1;
}

static int test_queries(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, 0.6);
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 2), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    fcRayResult r = fcWorld_CastRayClosest(w, fcV3(0, 0, 10), fcV3(0, 0, -20), fcDefaultQueryFilter());
    ENSURE(r.hit && FC_ID_EQUALS(r.body, box));
    ENSURE_NEAR(r.point.z, 2.5, 1e-12);
    ENSURE_NEAR(r.fraction, 7.5 / 20, 1e-12);
    ENSURE_NEAR(r.normal.z, 1, 1e-12);
    int hits = 0;
    ENSURE(fcWorld_CastRay(w, fcV3(0, 0, 10), fcV3(0, 0, -20), fcDefaultQueryFilter(), fcCountHit, &hits));
    ENSURE(hits == 2);  // the box and the ground
    int overlaps = 0;
    ENSURE(fcWorld_OverlapAABB(w, fcV3(-0.1, -0.1, 1.9), fcV3(0.1, 0.1, 2.1), fcDefaultQueryFilter(), fcCountOverlap, &overlaps));
    ENSURE(overlaps == 1);
    // a sphere query shape just into the box's top face overlaps it; raised clear of it, nothing
    fcShapeDef probe = fcDefaultShapeDef();
    probe.radius = 0.3;
    overlaps = 0;
    ENSURE(fcWorld_OverlapShape(w, &probe, fcV3(0, 0, 2.75), fcQuat_Identity(), fcDefaultQueryFilter(), fcCountOverlap, &overlaps));
    ENSURE(overlaps == 1);
    overlaps = 0;
    ENSURE(fcWorld_OverlapShape(w, &probe, fcV3(0, 0, 2.85), fcQuat_Identity(), fcDefaultQueryFilter(), fcCountOverlap, &overlaps));
    ENSURE(overlaps == 0);
    // swept down from z = 5 it meets the box's top at fraction (5 - 2.8) / 5 and the ground at (5 - 0.3) / 5
    CastHits cast = {0, {0, 0}};
    ENSURE(fcWorld_CastShape(w, &probe, fcV3(0, 0, 5), fcQuat_Identity(), fcV3(0, 0, -5), fcDefaultQueryFilter(), fcRecordHit, &cast));
    ENSURE(cast.count == 2);
    ENSURE_NEAR(fmin(cast.fraction[0], cast.fraction[1]), 2.2 / 5, 1e-6);
    ENSURE_NEAR(fmax(cast.fraction[0], cast.fraction[1]), 4.7 / 5, 1e-6);
    // the closest point to (1, 0, 2): the box's side 0.5 m away (the ground is 2 m away)
    fcRayResult near = fcWorld_ClosestPoint(w, fcV3(1, 0, 2), 3, fcDefaultQueryFilter());
    ENSURE(near.hit && FC_ID_EQUALS(near.body, box));
    ENSURE_NEAR(near.fraction, 0.5, 1e-6);
    ENSURE_NEAR(near.point.x, 0.5, 1e-6);
    // from inside the box: distance 0 (it said 1e-9, the radius of the sphere standing for the point)
    near = fcWorld_ClosestPoint(w, fcV3(0.1, 0, 2.2), 3, fcDefaultQueryFilter());
    ENSURE(near.hit && FC_ID_EQUALS(near.body, box) && near.fraction == 0);
    fcClearError();
    ENSURE(!fcWorld_OverlapAABB(w, fcV3(1, 0, 0), fcV3(0, 1, 1), fcDefaultQueryFilter(), fcCountOverlap, &overlaps));
    ENSURE(strstr(fcGetLastError(), "lo <= hi") != NULL);
    // a contact index out of range is refused with its reason
    ENSURE(fcWorld_Step(w));
    int contacts = fcWorld_GetContactCount(w);
    ENSURE(contacts == 0);  // the box is still falling, 1.5 m above the ground
    fcClearError();
    fcContactData none = fcWorld_GetContact(w, contacts);
    ENSURE(none.pointCount == 0 && strstr(fcGetLastError(), "out of range") != NULL);
    fcClearError();
    fcWorld_GetContact(w, -1);
    ENSURE(strstr(fcGetLastError(), "out of range") != NULL);
    fcDestroyWorld(w);
    return 0;
}

// A shape with mask 0 pairs with nothing and no query sees it, so its proxy is left behind while its body moves;
// when its filter changes the proxy catches up at once, even on a body that has fallen asleep meanwhile: a ray
// then hits it where it is (x = 10 m), and nothing where it started
static int test_unseen_shape_catches_up(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    wd.sleepTime = 0.2;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 2), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    fcShapeId shape = fcBody_GetShape(box, 0);
    ENSURE(fcShape_SetFilter(shape, 1, 0));
    ENSURE(fcBody_SetLinearVelocity(box, fcV3(10, 0, 0)));
    for (int s = 0; s < 60; ++s) ENSURE(fcWorld_Step(w));  // 1 s at 10 m/s
    ENSURE(fcBody_SetLinearVelocity(box, fcV3(0, 0, 0)));
    for (int s = 0; s < 60; ++s) ENSURE(fcWorld_Step(w));  // at rest long enough to fall asleep
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    ENSURE_NEAR(fcBody_GetPosition(box).x, 10, 1e-9);
    fcRayResult unseen = fcWorld_CastRayClosest(w, fcV3(10, 0, 10), fcV3(0, 0, -20), fcDefaultQueryFilter());
    ENSURE(!unseen.hit);  // mask 0: no query sees it
    ENSURE(fcShape_SetFilter(shape, 1, UINT64_MAX));
    fcRayResult there = fcWorld_CastRayClosest(w, fcV3(10, 0, 10), fcV3(0, 0, -20), fcDefaultQueryFilter());
    ENSURE(there.hit && FC_ID_EQUALS(there.body, box));
    ENSURE_NEAR(there.point.z, 2.5, 1e-12);
    fcRayResult start = fcWorld_CastRayClosest(w, fcV3(0, 0, 10), fcV3(0, 0, -20), fcDefaultQueryFilter());
    ENSURE(!start.hit);
    fcDestroyWorld(w);
    return 0;
}

// a spring beside touching contacts keeps its period (2 s for k = pi^2, m = 1): the block Gauss-Seidel's
// repeated joint solves count the impulse a soft row already got
static int test_spring_beside_contacts(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(1.1, 0, 0);
    bd.mass = 1;
    bd.inertia = fcV3(1, 1, 1);
    fcBodyId bob = fcCreateBody(w, &bd);
    fcSpringDef sd = fcDefaultSpringDef();
    sd.bodyB = bob;
    sd.anchorB = fcV3(1.1, 0, 0);
    sd.stiffness = pi * pi;
    sd.restLength = 1;
    ENSURE(FC_IS_NON_NULL(fcCreateSpring(w, &sd)));
    // elsewhere, a box pressed onto another by a steady force: contacts in the problem all along
    fcBodyDef gd = fcDefaultBodyDef();
    gd.type = fc_staticBody;
    gd.position = fcV3(5, 0, -1);
    fcBodyId floor = fcCreateBody(w, &gd);
    fcShapeDef box = fcDefaultShapeDef();
    box.type = fc_boxShape;
    box.halfExtents = fcV3(1, 1, 1);
    fcCreateShape(floor, &box);
    fcBodyId block = fcAddBox(w, fcV3(5, 0, 0.5), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    ENSURE(fcBody_SetForce(block, fcV3(0, 0, -10)));
    double last = 0.1, firstCrossing = -1;
    for (int i = 0; i < 90 && firstCrossing < 0; ++i) {
        ENSURE(fcWorld_Step(w));
        ENSURE(fcWorld_GetStats(w).substeps == 2);
        double x = fcBody_GetPosition(bob).x - 1;
        if (last > 0 && x <= 0) firstCrossing = (i + 1) / 60.0 - (1.0 / 60) * x / (x - last);
        last = x;
    }
    printf("  spring beside contacts: crosses its rest length at %.4f s (exact 0.5)\n", firstCrossing);
    ENSURE_NEAR(firstCrossing, 0.5, 0.01);
    fcDestroyWorld(w);
    return 0;
}

// islands at rest fall asleep (and keep reporting their forces); a touch or a force wakes them
static int test_sleeping(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, true);
    fcBodyId ground = fcAddGround(w, 0.6);
    fcBodyId a = fcAddBox(w, fcV3(0, 0, 0.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    fcBodyId b = fcAddBox(w, fcV3(0, 0, 1.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    fcWorldStats st = fcWorld_GetStats(w);
    printf("  sleeping: %d awake, %d islands after 2 s\n", st.awakeBodies, st.islandCount);
    ENSURE(st.awakeBodies == 0 && st.islandCount == 1);
    fcVec3 rest = fcBody_GetPosition(b);
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcVec3_Distance(fcBody_GetPosition(b), rest) == 0);  // asleep: not moved at all
    ENSURE_NEAR(fcContactForceZ(a, ground), 4 * g, 1e-3 * 4 * g);  // still carries both boxes
    // a third box dropped on the stack wakes the island
    fcBodyId c = fcAddBox(w, fcV3(0, 0, 3.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    bool woke = false;
    for (int i = 0; i < 60; ++i) {
        ENSURE(fcWorld_Step(w));
        woke = woke || fcWorld_GetStats(w).awakeBodies == 3;
    }
    ENSURE(woke);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    // a force wakes it too, and the body moves
    ENSURE(fcBody_ApplyForce(c, fcV3(200, 0, 0), fcBody_GetPosition(c)));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 3);
    ENSURE(fcBody_GetLinearVelocity(c).x > 0);
    fcDestroyWorld(w);
    // with sleeping off nothing sleeps
    w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, 0.6);
    fcAddBox(w, fcV3(0, 0, 0.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 1);
    fcDestroyWorld(w);
    return 0;
}

// A sleeping body is woken, with its island, before an awake one touches it (fcContacts_WakeSleepers): asleep it
// takes no joint rows, and a 5 kg box asleep at its rail's stop, hit by a 190 kg box on a rail at 1.855 m/s, left
// its rail for two steps (by 3 cm, rising 5 mm) until the step's island update woke it, and its rail's projection
// then threw it back: the world's energy rose by 28 % in a step. Now the stop takes the heavy box's momentum, 352.45 N s
// to 1e-6, the light box does not move, and the energy never rises.
static int test_sleeper_woken_before_it_is_hit(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, true);
    fcAddGround(w, 0.6);
    fcBodyId light = fcAddBox(w, fcV3(0, 0, 0.3), fcV3(0.28, 0.28, 0.28), 5, 0.6);
    fcJointId stop = fcAddRail(w, light, fcV3(1, 0, 0), true, 0, 2);
    double heavy = 190, speed = 1.855;
    fcBodyId big = fcAddBox(w, fcV3(3, 0, 0.11), fcV3(0.1, 0.1, 0.1), heavy, 0.6);
    fcAddRail(w, big, fcV3(1, 0, 0), false, 0, 0);
    bool slept = false;
    for (int i = 0; i < 60; ++i) {
        ENSURE(fcWorld_Step(w));
        slept = slept || fcWorld_GetStats(w).awakeBodies == 0;
    }
    ENSURE(slept);  // both at rest on their rails, asleep; the heavy one is then set going (which wakes it)
    ENSURE(fcBody_SetLinearVelocity(big, fcV3(-speed, 0, 0)));
    double e0 = fcWorld_GetStats(w).energy + 0.5 * heavy * speed * speed, rise = -1e300, moved = 0, taken = 0;
    fcVec3 start = fcBody_GetPosition(light);
    for (int i = 0; i < 120; ++i) {
        ENSURE(fcWorld_Step(w));
        rise = fmax(rise, fcWorld_GetStats(w).energy - e0);
        moved = fmax(moved, fcVec3_Distance(fcBody_GetPosition(light), start));
        taken += fcJoint_GetReaction(stop).force.x / 60;
    }
    printf("  a 190 kg box at 1.855 m/s into a 5 kg box asleep at its rail's stop: the light box moved %.3g m, the "
           "energy rose by at most %.3g J, the stop took %.9g N s (M v = %.9g N s)\n",
           moved, rise, taken, heavy * speed);
    ENSURE_LE(moved, 1e-6);
    ENSURE_LE(rise, 1e-9 * e0);
    ENSURE_NEAR(taken, heavy * speed, 1e-6 * heavy * speed);
    fcDestroyWorld(w);
    return 0;
}

// two 2 kg unit boxes stacked on a static platform (half extents 2, 2, 0.5), stepped 2 s at h until asleep
static bool fcSleepingStack(fcWorldId w, fcBodyId* platform, fcBodyId* low, fcBodyId* top)
{
    *platform = fcAddFixedBox(w, fc_staticBody, fcV3(2, 2, 0.5));
    *low = fcAddBox(w, fcV3(0, 0, 1), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    *top = fcAddBox(w, fcV3(0, 0, 2), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    for (int i = 0; i < 120; ++i)
        if (!fcWorld_Step(w)) return false;
    return fcWorld_GetStats(w).awakeBodies == 0;
}

// A body put elsewhere by fcBody_SetTransform wakes every sleeper it had a pair with (fcContacts_WakeSleepers): a
// 2-box stack asleep on a static platform stayed asleep in the air when the platform was moved away. Now the stack
// falls from the step after, as a free fall from rest in semi-implicit Euler: z_n = z_0 - g h^2 n (n + 1) / 2 for its
// centre of mass. Moved
// by 1 cm instead, the platform wakes the stack, which settles on it again and goes back to sleep.
static int test_sleeper_wakes_when_its_support_is_moved(void)
{
    const double h = 1.0 / 60;
    for (int far = 0; far < 2; ++far) {
        fcWorldId w = fcMakeWorld(h, true);
        fcBodyId platform, low, top;
        ENSURE(fcSleepingStack(w, &platform, &low, &top));
        fcVec3 lowRest = fcBody_GetPosition(low), topRest = fcBody_GetPosition(top);
        ENSURE(fcBody_SetTransform(platform, fcV3(far ? 20 : 0.01, 0, 0), fcQuat_Identity()));
        ENSURE(fcWorld_Step(w));
        ENSURE(fcWorld_GetStats(w).awakeBodies == 2);
        int n = 60;
        for (int i = 1; i < n; ++i) ENSURE(fcWorld_Step(w));
        if (far) {
            double drop = g * h * h * n * (n + 1) / 2;
            printf("  platform moved away from a sleeping stack: it fell %.9f m and %.9f m in 1 s (free fall from rest: "
                   "%.9f m)\n", lowRest.z - fcBody_GetPosition(low).z, topRest.z - fcBody_GetPosition(top).z, drop);
            // the centre of mass falls freely (the boxes' contact forces cancel); each box within the pair's slop
            // corrections of the other
            double lowZ = fcBody_GetPosition(low).z, topZ = fcBody_GetPosition(top).z;
            ENSURE_NEAR(0.5 * (lowZ + topZ), 0.5 * (lowRest.z + topRest.z) - drop, 1e-9);
            ENSURE_NEAR(lowZ, lowRest.z - drop, 1e-6);
            ENSURE_NEAR(topZ, topRest.z - drop, 1e-6);
        } else {
            for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
            printf("  platform moved by 1 cm under a sleeping stack: %d awake 3 s later, the low box %.3g m from its rest\n",
                   fcWorld_GetStats(w).awakeBodies, fcVec3_Distance(fcBody_GetPosition(low), lowRest));
            ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
            ENSURE_LE(fcVec3_Distance(fcBody_GetPosition(low), lowRest), 1e-5);
            ENSURE_NEAR(fcContactForceZ(low, platform), 4 * g, 1e-3 * 4 * g);
        }
        fcDestroyWorld(w);
    }
    return 0;
}

// A new gravity wakes every sleeper (fcWorld_SetGravity): a stack asleep on a platform stayed in the air, unmoved,
// when gravity was turned upward. Now it rises from the next step as a free fall from rest, g h^2 n (n + 1) / 2 in n
// steps; gravity set again to the value it has wakes nothing.
static int test_sleeper_wakes_when_gravity_changes(void)
{
    const double h = 1.0 / 60;
    const int n = 60;
    fcWorldId w = fcMakeWorld(h, true);
    fcBodyId platform, low, top;
    ENSURE(fcSleepingStack(w, &platform, &low, &top));
    ENSURE(fcWorld_SetGravity(w, fcWorld_GetGravity(w)));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    fcVec3 lowRest = fcBody_GetPosition(low), topRest = fcBody_GetPosition(top);
    ENSURE(!fcWorld_SetGravity(w, fcV3(0, 0, NAN)));  // refused: nothing woken
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    ENSURE(fcWorld_SetGravity(w, fcV3(0, 0, g)));
    for (int i = 0; i < n; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 2);
    double rise = g * h * h * n * (n + 1) / 2, lowZ = fcBody_GetPosition(low).z, topZ = fcBody_GetPosition(top).z;
    printf("  gravity turned upward under a sleeping stack: it rose %.9f m and %.9f m in 1 s (free fall from rest: "
           "%.9f m)\n", lowZ - lowRest.z, topZ - topRest.z, rise);
    ENSURE_NEAR(0.5 * (lowZ + topZ), 0.5 * (lowRest.z + topRest.z) + rise, 1e-9);
    ENSURE_NEAR(lowZ, lowRest.z + rise, 1e-6);
    ENSURE_NEAR(topZ, topRest.z + rise, 1e-6);
    fcDestroyWorld(w);
    return 0;
}

// An island falls asleep at rest: slow, and its velocities steady. A stack of five 1 kg boxes pushed at the top with
// 0.3 m g (below sliding and tipping) rocks on its contacts for a few seconds; slow alone, it fell asleep mid-wobble
// after 1.5 s and reported 1.16 to 1.36 times the push as the friction under each box for good. Asleep, the friction
// under every box is the push (what holds the boxes above it) within 11 % (the rest the island sleeps at allows
// velocities within sleepVelocity / 2 of where they began, and the stack's slow sway still moves its friction by
// some 20 % a second: asleep at 2.27 s with 0.90 to 0.96 of the push, friction on the cone; on the pyramid, 2.57 s
// and 0.94 to 0.97).
static int test_pushed_stack_sleeps_at_rest(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, true);
    fcBodyId below = fcAddGround(w, 0.6), box[5];
    for (int i = 0; i < 5; ++i) box[i] = fcAddBox(w, fcV3(0, 0, 0.5 + i), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    const double push = 0.3 * g;
    ENSURE(fcBody_SetForce(box[4], fcV3(push, 0, 0)));
    int steps = 0;
    do {  // the stats are the last step's: the push woke the stack since
        ENSURE(fcWorld_Step(w));
        steps += 1;
    } while (fcWorld_GetStats(w).awakeBodies > 0 && steps < 600);
    printf("  asleep after %.2f s; friction under each box over the push:", steps / 60.0);
    for (int i = 0; i < 5; ++i) printf(" %.4f", -fcContactForce(box[i], i == 0 ? below : box[i - 1]).x / push);
    printf("\n");
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    for (int i = 0; i < 5; ++i) ENSURE_NEAR(-fcContactForce(box[i], i == 0 ? below : box[i - 1]).x, push, 0.11 * push);
    fcDestroyWorld(w);
    return 0;
}

// What the API does to one sleeping body wakes its island whole: two 1 kg boxes on a ball joint, asleep without
// gravity. An impulse of 2 N s (given as an impulse, as a velocity, as a force over one step) on one box's centre,
// along the line through both, moves the pair at 1 m/s (woken alone, the box's sleeping partner acted fixed for a
// step: the struck box stopped against it). Its mass set, a shape added or taken away, a move: the partner wakes.
static int test_api_wakes_the_island(void)
{
    const double h = 1.0 / 60;
    for (int how = 0; how < 7; ++how) {
        fcWorldId w = fcMakeWorld(h, true);
        ENSURE(fcWorld_SetGravity(w, fcV3(0, 0, 0)));
        fcBodyId a, b;
        ENSURE(FC_IS_NON_NULL(fcAddJoinedBoxes(w, fc_ballJoint, fcV3(0, 0, 5), fcV3(1, 0, 5), fcV3(0.5, 0.5, 0.5),
                                               fcV3(0.5, 0, 5), &a, &b)));
        ENSURE(fcWorld_Step(w));
        ENSURE(fcBody_SetAwake(a, false));
        ENSURE(!fcBody_IsAwake(a) && !fcBody_IsAwake(b));
        fcShapeDef sd = fcDefaultShapeDef();
        sd.type = fc_sphereShape;
        sd.radius = 0.1;
        switch (how) {
            case 0: ENSURE(fcBody_ApplyImpulse(b, fcV3(2, 0, 0), fcV3(1, 0, 5))); break;
            case 1: ENSURE(fcBody_SetLinearVelocity(b, fcV3(2, 0, 0))); break;
            case 2: ENSURE(fcBody_ApplyForce(b, fcV3(2 / h, 0, 0), fcV3(1, 0, 5))); break;
            case 3: ENSURE(fcBody_SetMassProperties(b, 2, fcV3(1, 1, 1))); break;
            case 4: ENSURE(FC_IS_NON_NULL(fcCreateShape(b, &sd))); break;
            case 5: fcDestroyShape(fcBody_GetShape(b, 0)); break;
            case 6: ENSURE(fcBody_SetTransform(b, fcV3(1, 0, 5), fcQuat_Identity())); break;
        }
        ENSURE(fcBody_IsAwake(a) && fcBody_IsAwake(b));
        if (how <= 2) {
            ENSURE(fcWorld_Step(w));
            ENSURE_NEAR(fcBody_GetLinearVelocity(a).x, 1, 1e-9);
            ENSURE_NEAR(fcBody_GetLinearVelocity(b).x, 1, 1e-9);
        }
        fcDestroyWorld(w);
    }
    return 0;
}

// Sleep by hand and by force. fcBody_SetForce and fcBody_SetTorque with a new value wake a sleeping body with its
// island: a force set on a sleeping box did nothing (it stayed asleep, the force unfelt). An upward 8 g N on the low box
// of a sleeping 2 x 2 kg stack lifts the stack's centre of mass as a uniform acceleration g from rest (semi-implicit
// Euler: g h^2 n (n + 1) / 2 in n steps). fcBody_SetAwake(false) stops a box in flight and keeps it where it is;
// woken, it falls from rest; put to sleep, a body's island (the stack's boxes through their contact) sleeps whole.
static int test_sleep_and_wake_by_hand(void)
{
    const double h = 1.0 / 60;
    const int n = 60;
    fcWorldId w = fcMakeWorld(h, true);
    fcBodyId platform, low, top;
    ENSURE(fcSleepingStack(w, &platform, &low, &top));
    ENSURE(!fcBody_IsAwake(low) && !fcBody_IsAwake(top) && fcBody_IsAwake(platform));
    ENSURE(fcBody_SetForce(low, fcV3(0, 0, 0)) && fcBody_SetTorque(top, fcV3(0, 0, 0)));  // unchanged: still asleep
    ENSURE(!fcBody_IsAwake(low) && !fcBody_IsAwake(top));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    double rest = 0.5 * (fcBody_GetPosition(low).z + fcBody_GetPosition(top).z);
    ENSURE(fcBody_SetForce(low, fcV3(0, 0, 4 * 2 * g)));  // 2 g up on the 4 kg against g down
    ENSURE(fcBody_IsAwake(low) && fcBody_IsAwake(top));  // the island woke whole
    for (int i = 0; i < n; ++i) ENSURE(fcWorld_Step(w));
    double rise = 0.5 * (fcBody_GetPosition(low).z + fcBody_GetPosition(top).z) - rest;
    printf("  a force set on a sleeping stack's low box: the stack rose %.9f m in 1 s (exact %.9f m)\n", rise,
           g * h * h * n * (n + 1) / 2);
    ENSURE_NEAR(rise, g * h * h * n * (n + 1) / 2, 1e-9);
    fcDestroyWorld(w);

    w = fcMakeWorld(h, true);
    ENSURE(fcSleepingStack(w, &platform, &low, &top));
    ENSURE(fcBody_SetTorque(top, fcV3(0, 0, 1)));
    ENSURE(fcBody_IsAwake(low) && fcBody_IsAwake(top));
    ENSURE(fcBody_SetTorque(top, fcV3(0, 0, 0)));
    ENSURE(fcBody_SetAwake(low, false));  // the stack's island: both boxes
    ENSURE(!fcBody_IsAwake(low) && !fcBody_IsAwake(top));
    ENSURE(fcBody_SetAwake(platform, false) && fcBody_IsAwake(platform));  // a static body does not sleep
    // a box stopped in flight stays put while asleep and falls from rest when woken
    fcBodyId box = fcAddBox(w, fcV3(10, 0, 50), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_SetAwake(box, false));
    fcVec3 stopped = fcBody_GetPosition(box);
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(!fcBody_IsAwake(box) && fcWorld_GetStats(w).awakeBodies == 0);
    ENSURE(fcVec3_Distance(fcBody_GetPosition(box), stopped) == 0 && fcVec3_Length(fcBody_GetLinearVelocity(box)) == 0);
    ENSURE(fcBody_SetAwake(box, true));
    for (int i = 0; i < n; ++i) ENSURE(fcWorld_Step(w));
    ENSURE_NEAR(fcBody_GetPosition(box).z, stopped.z - g * h * h * n * (n + 1) / 2, 1e-9);
    ENSURE(!fcBody_IsAwake(low) && !fcBody_IsAwake(top));  // nothing woke the stack
    // a stale id: a clear error, and nothing changes
    fcDestroyBody(box);
    ENSURE(!fcBody_IsAwake(box) && strstr(fcGetLastError(), "fcBody_IsAwake") != NULL);
    ENSURE(!fcBody_SetAwake(box, true) && strstr(fcGetLastError(), "fcBody_SetAwake") != NULL);
    fcDestroyWorld(w);

    // the islands put to sleep are those of the joints there are: two boxes falling on a ball joint, the joint
    // destroyed, one box put to sleep: the other falls on (the last step's rows still joined them, and it hung in
    // the air). A box jointed to a moving kinematic body is not put to sleep: asleep, its joint would not hold
    w = fcMakeWorld(h, true);
    fcBodyId a, b;
    fcJointId joint = fcAddJoinedBoxes(w, fc_ballJoint, fcV3(0, 0, 50), fcV3(1, 0, 50), fcV3(0.5, 0.5, 0.5),
                                       fcV3(0.5, 0, 50), &a, &b);
    ENSURE(FC_IS_NON_NULL(joint));
    for (int i = 0; i < 5; ++i) ENSURE(fcWorld_Step(w));
    fcDestroyJoint(joint);
    ENSURE(fcBody_SetAwake(a, false));
    ENSURE(!fcBody_IsAwake(a) && fcBody_IsAwake(b));
    double bz = fcBody_GetPosition(b).z, bv = fcBody_GetLinearVelocity(b).z;
    for (int i = 0; i < n; ++i) ENSURE(fcWorld_Step(w));
    ENSURE_NEAR(fcBody_GetPosition(b).z, bz + bv * h * n - g * h * h * n * (n + 1) / 2, 1e-9);
    fcBodyId carrier = fcAddTypedBox(w, fc_kinematicBody, fcV3(5, 0, 50), fcV3(0.5, 0.5, 0.5), 0, 0.6);
    ENSURE(fcBody_SetLinearVelocity(carrier, fcV3(3, 0, 0)));
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyA = carrier;
    jd.bodyB = b;
    jd.anchor = fcV3(5.5, 0, 50);
    ENSURE(fcBody_SetTransform(b, fcV3(6, 0, 50), fcQuat_Identity()));
    ENSURE(FC_IS_NON_NULL(fcCreateJoint(w, &jd)));
    ENSURE(fcWorld_Step(w));
    ENSURE(!fcBody_SetAwake(b, false) && strstr(fcGetLastError(), "keeps the body's island awake") != NULL);
    ENSURE(fcBody_IsAwake(b));
    fcDestroyWorld(w);

    // with sleeping off, a body put to sleep wakes at the next step
    w = fcMakeWorld(h, false);
    box = fcAddBox(w, fcV3(0, 0, 50), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    ENSURE(fcBody_SetAwake(box, false) && !fcBody_IsAwake(box));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_IsAwake(box));
    fcDestroyWorld(w);
    return 0;
}

// Destroying what holds a sleeper wakes it (fcContacts_RemoveShape, fcJoint_DestroyInternal): a stack asleep on a
// platform whose body or shape was destroyed, or on a box that was destroyed, and a box asleep on a ball joint that
// was destroyed, all stayed in the air. Now the stack's centre of mass and the hanging box fall freely from the next
// step (semi-implicit Euler from rest: g h^2 n (n + 1) / 2 in n steps), and the box left on top of a destroyed one
// lands on the platform and rests there carrying its weight.
static int test_sleeper_wakes_when_its_support_is_destroyed(void)
{
    const double h = 1.0 / 60;
    const int n = 60;
    const double drop = g * h * h * n * (n + 1) / 2;
    for (int what = 0; what < 3; ++what) {  // the platform's body, its shape, the low box
        fcWorldId w = fcMakeWorld(h, true);
        fcBodyId platform, low, top;
        ENSURE(fcSleepingStack(w, &platform, &low, &top));
        double lowZ = fcBody_GetPosition(low).z, topZ = fcBody_GetPosition(top).z;
        if (what == 0) fcDestroyBody(platform);
        if (what == 1) fcDestroyShape(fcBody_GetShape(platform, 0));
        if (what == 2) fcDestroyBody(low);
        for (int i = 0; i < n; ++i) ENSURE(fcWorld_Step(w));
        if (what < 2) {
            double fell = 0.5 * (lowZ + topZ) - 0.5 * (fcBody_GetPosition(low).z + fcBody_GetPosition(top).z);
            printf("  the platform's %s destroyed under a sleeping stack: its centre of mass fell %.9f m in 1 s (free "
                   "fall: %.9f m)\n", what ? "shape" : "body", fell, drop);
            ENSURE_NEAR(fell, drop, 1e-9);
        } else {
            for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
            printf("  the low box destroyed under a sleeping one: the top box rests at z = %.6f m (the platform's top "
                   "+ 0.5 = 1), carrying %.6f N (m g = %.6f N)\n", fcBody_GetPosition(top).z,
                   fcContactForceZ(top, platform), 2 * g);
            ENSURE_NEAR(fcBody_GetPosition(top).z, 1.0, 0.006);  // within the 5 mm slop
            ENSURE_NEAR(fcContactForceZ(top, platform), 2 * g, 1e-3 * 2 * g);
        }
        fcDestroyWorld(w);
    }
    // a box asleep on a ball joint to the world falls freely once the joint is destroyed
    fcWorldId w = fcMakeWorld(h, true);
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyB = box;
    jd.anchor = fcV3(0, 0, 5.5);
    fcJointId hold = fcCreateJoint(w, &jd);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    double z0 = fcBody_GetPosition(box).z;
    fcDestroyJoint(hold);
    for (int i = 0; i < n; ++i) ENSURE(fcWorld_Step(w));
    printf("  the joint holding a sleeping box destroyed: it fell %.9f m in 1 s (free fall: %.9f m)\n",
           z0 - fcBody_GetPosition(box).z, drop);
    ENSURE_NEAR(z0 - fcBody_GetPosition(box).z, drop, 1e-9);
    fcDestroyWorld(w);
    return 0;
}

// A joint made or changed wakes its bodies (fcJoint_WakeBodies): asleep, they would not feel it until something
// else woke them. A distance joint of 1.5 m made between two boxes asleep 2 m apart on the ground holds them at 1.5
// m after the next step (the projection's tolerance); a motor of 1000 N m switched on under a sleeping 200 kg box
// hinged at its centre turns it at tau h / I = 0.5 rad/s after the first step, not a step late.
static int test_sleeper_wakes_when_its_joint_changes(void)
{
    const double h = 1.0 / 60;
    fcWorldId w = fcMakeWorld(h, true);
    fcAddGround(w, 0.6);
    fcBodyId a = fcAddBox(w, fcV3(0, 0, 0.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    fcBodyId b = fcAddBox(w, fcV3(2, 0, 0.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    fcJointDef jd = fcDefaultJointDef(fc_distanceJoint);
    jd.bodyA = a;
    jd.bodyB = b;
    jd.anchorA = fcBody_GetPosition(a);
    jd.anchorB = fcBody_GetPosition(b);
    jd.length = 1.5;
    ENSURE(FC_IS_NON_NULL(fcCreateJoint(w, &jd)));
    ENSURE(fcWorld_Step(w));
    double gap = fcVec3_Distance(fcBody_GetPosition(a), fcBody_GetPosition(b));
    printf("  a 1.5 m distance joint made between boxes asleep 2 m apart: %.12f m after one step\n", gap);
    ENSURE_NEAR(gap, 1.5, 1e-9);
    fcDestroyWorld(w);

    w = fcMakeWorld(h, true);
    fcBodyId wheel = fcAddBox(w, fcV3(0, 0, 0), fcV3(0.5, 0.1, 0.5), 200, 0.6);  // I_yy = m (1 + 1) / 12
    fcJointDef hd = fcDefaultJointDef(fc_hingeJoint);
    hd.bodyB = wheel;
    hd.anchor = fcV3(0, 0, 0);
    hd.axis = fcV3(0, 1, 0);
    fcJointId hinge = fcCreateJoint(w, &hd);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    double tau = 1000, inertia = 200 * 2.0 / 12;
    ENSURE(fcJoint_SetMotor(hinge, true, 2, tau));
    ENSURE(fcWorld_Step(w));
    printf("  a 1000 N m motor switched on under a sleeping wheel: %.12f rad/s after one step (tau h / I = %.12f)\n",
           fcBody_GetAngularVelocity(wheel).y, tau * h / inertia);
    ENSURE_NEAR(fcBody_GetAngularVelocity(wheel).y, tau * h / inertia, 1e-9);
    fcDestroyWorld(w);
    return 0;
}

// the events of the last step of this type between shapes a and b (either order)
static int fcCountPairEvents(fcWorldId w, fcEventType type, fcShapeId a, fcShapeId b, fcConstraintEvent* last)
{
    int count = 0;
    for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
        fcConstraintEvent ev = fcWorld_GetEvent(w, e);
        bool ab = FC_ID_EQUALS(ev.shapeA, a) && FC_ID_EQUALS(ev.shapeB, b), ba = FC_ID_EQUALS(ev.shapeA, b) && FC_ID_EQUALS(ev.shapeB, a);
        if (ev.type != type || !(ab || ba)) continue;
        count += 1;
        if (last) *last = ev;
    }
    return count;
}

// Every bounce is a contact: begin (dated when the gap closed), release, end. A ball with restitution 0.8 dropped 1 m
// bounces 7 times above the restitution threshold and then rests: 8 begins, 7 ends, 7 releases, in that order per
// bounce. A fast bounce never starts a step within the slop, so it gave no begin or end (2 begins and 1 end in 10 s),
// its release naming a contact that had not begun.
static int test_bounces_begin_and_end(void)
{
    const double h = 1.0 / 60;
    fcWorldId w = fcMakeWorld(h, false);
    fcAddGround(w, 0.6);
    fcAddSphere(w, fcV3(0, 0, 1.1), 0.1, 1, 0.6, 0.8);
    int begins = 0, ends = 0, releases = 0;
    double firstBegin = -1;
    for (int i = 0; i < 600; ++i) {
        ENSURE(fcWorld_Step(w));
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
            fcConstraintEvent ev = fcWorld_GetEvent(w, e);
            if (ev.type == fc_eventContactBegin) {
                ENSURE(begins == ends);  // the last contact ended first
                if (begins++ == 0) firstBegin = ev.time;
                // a bounce's begin is dated inside the step that carried it, after its start (where it was apart)
                double end = fcWorld_GetTime(w);
                ENSURE(begins == 8 || (ev.time > end - h + 1e-12 && ev.time < end));
            }
            if (ev.type == fc_eventContactEnd) ENSURE(++ends == begins);
            if (ev.type == fc_eventRelease) ENSURE(++releases <= begins);
        }
    }
    printf("  a ball bouncing to rest: %d begins, %d ends, %d releases; the first begin at %.4f s (it falls 1 m in %.4f s)\n",
           begins, ends, releases, firstBegin, sqrt(2 / g));
    ENSURE(begins == 8 && ends == 7 && releases == 7);
    ENSURE_NEAR(firstBegin, sqrt(2 / g), h);
    fcDestroyWorld(w);
    return 0;
}

// A touching pair taken away between steps reports its end with the next step's events, so that every begin has its
// end: a filter that refuses the pair, a joint that stops its bodies colliding, a destroyed shape or body (the end
// names the gone shape by its stale id). They went without one, and when the pair came back a second begin followed.
// A pair whose shapes want no contact events reports no end either when its shapes part at once (it did).
static int test_pairs_taken_away_report_their_end(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyId platform = fcAddFixedBox(w, fc_staticBody, fcV3(2, 2, 0.5));
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 1), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    fcShapeId ground = fcBody_GetShape(platform, 0), shape = fcBody_GetShape(box, 0);
    int begins = 0;
    for (int i = 0; i < 30; ++i) {
        ENSURE(fcWorld_Step(w));
        begins += fcCountPairEvents(w, fc_eventContactBegin, ground, shape, NULL);
    }
    ENSURE(begins == 1);
    fcConstraintEvent end;
    ENSURE(fcShape_SetFilter(shape, 1, 0));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventContactEnd, ground, shape, &end) == 1);
    ENSURE_NEAR(end.forceBefore, 2 * g, 1e-6 * 2 * g);  // the box's weight, carried in the last step
    ENSURE(fcShape_SetFilter(shape, 1, UINT64_MAX));  // back (it fell 3 mm meanwhile)
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventContactBegin, ground, shape, NULL) == 1);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyA = platform;
    jd.bodyB = box;
    jd.anchor = fcBody_GetPosition(box);
    fcJointId joint = fcCreateJoint(w, &jd);
    ENSURE(FC_IS_NON_NULL(joint));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventContactEnd, ground, shape, NULL) == 1);
    fcDestroyJoint(joint);
    begins = 0;
    for (int i = 0; i < 2; ++i) {
        ENSURE(fcWorld_Step(w));
        begins += fcCountPairEvents(w, fc_eventContactBegin, ground, shape, NULL);
    }
    ENSURE(begins == 1 && fcWorld_GetContactCount(w) == 1);
    fcDestroyShape(shape);
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventContactEnd, ground, shape, NULL) == 1);  // shape: a stale id now
    fcDestroyWorld(w);

    // a body inside a sensor destroyed: the sensor's end, naming the sensor first
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    w = fcCreateWorld(&wd);
    fcShapeId sensor = fcAddSensorBox(w, fcV3(0, 0, 0), fcV3(1, 1, 1));
    fcBodyId ball = fcAddSphere(w, fcV3(0.2, 0, 0), 0.3, 1, 0.6, 0);
    fcShapeId ballShape = fcBody_GetShape(ball, 0);
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventSensorBegin, sensor, ballShape, NULL) == 1);
    fcDestroyBody(ball);
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventSensorEnd, sensor, ballShape, &end) == 1);
    ENSURE(FC_ID_EQUALS(end.shapeA, sensor));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetEventCount(w) == 0);  // reported once
    fcDestroyWorld(w);

    // shapes that want no contact events: none when the box is put far away either
    w = fcMakeWorld(1.0 / 60, false);
    fcShapeDef quiet = fcDefaultShapeDef();
    quiet.enableContactEvents = false;
    fcAddBoxWith(w, fc_staticBody, fcV3(0, 0, 0), fcV3(2, 2, 0.5), 0, quiet);
    box = fcAddBoxWith(w, fc_dynamicBody, fcV3(0, 0, 1), fcV3(0.5, 0.5, 0.5), 2, quiet);
    int events = 0;
    for (int i = 0; i < 10; ++i) {
        ENSURE(fcWorld_Step(w));
        events += fcWorld_GetEventCount(w);
    }
    ENSURE(fcWorld_GetContactCount(w) == 1);
    ENSURE(fcBody_SetTransform(box, fcV3(0, 0, 10), fcQuat_Identity()));
    for (int i = 0; i < 2; ++i) {
        ENSURE(fcWorld_Step(w));
        events += fcWorld_GetEventCount(w);
    }
    ENSURE(events == 0);
    fcDestroyWorld(w);
    return 0;
}

// Queries find a body put elsewhere by fcBody_SetTransform at once, before any step (its shapes' proxies stayed where
// it had been until the next step, so a ray found it neither there nor where it was): a static box, a dynamic box
// asleep on the ground, a kinematic box. A ray along x at the body's height hits its near side.
static int test_queries_follow_a_body_put_elsewhere(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, true);
    fcAddGround(w, 0.6);
    fcBodyId post = fcAddTypedBox(w, fc_staticBody, fcV3(10, 0, 3), fcV3(1, 1, 1), 0, 0.6);
    fcBodyId box = fcAddBox(w, fcV3(-10, 0, 0.5), fcV3(0.5, 0.5, 0.5), 1, 0.6);
    fcBodyId lift = fcAddTypedBox(w, fc_kinematicBody, fcV3(0, 10, 3), fcV3(0.5, 0.5, 0.5), 0, 0.6);
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(!fcBody_IsAwake(box));
    fcBodyId bodies[3] = {post, box, lift};
    double half[3] = {1, 0.5, 0.5};
    for (int k = 0; k < 3; ++k) {
        fcVec3 was = fcBody_GetPosition(bodies[k]);
        ENSURE(fcBody_SetTransform(bodies[k], fcV3(40, 5 * k, 7), fcQuat_Identity()));
        fcRayResult there = fcWorld_CastRayClosest(w, fcV3(30, 5 * k, 7), fcV3(20, 0, 0), fcDefaultQueryFilter());
        ENSURE(there.hit && FC_ID_EQUALS(there.body, bodies[k]));
        ENSURE_NEAR(there.point.x, 40 - half[k], 1e-12);
        fcRayResult before = fcWorld_CastRayClosest(w, fcVec3_Add(was, fcV3(-5, 0, 0)), fcV3(10, 0, 0), fcDefaultQueryFilter());
        ENSURE(!(before.hit && FC_ID_EQUALS(before.body, bodies[k])));
    }
    fcDestroyWorld(w);
    return 0;
}

// A new timestep leaves the forces reported from the last step's impulses as they were: a 2 kg box asleep on the
// ground and a 1 kg box asleep on a ball joint, the step halved, report m g on the contact and the joint (they
// reported 2 m g: a sleeper's impulse, solved over 1/60 s, was divided by 1/120 s); the box lifted off after the step
// is quartered reports its end with m g before (4 m g).
static int test_timestep_change_keeps_forces(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, true);
    fcBodyId ground = fcAddGround(w, 0.6);
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 0.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(5, 0, 2);
    bd.mass = 1;
    bd.inertia = fcV3(0.1, 0.1, 0.1);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyB = fcCreateBody(w, &bd);
    jd.anchor = fcV3(5, 0, 3);
    fcJointId joint = fcCreateJoint(w, &jd);
    ENSURE(FC_IS_NON_NULL(joint));
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    ENSURE_NEAR(fcContactForceZ(box, ground), 2 * g, 1e-6 * g);
    ENSURE_NEAR(fcJoint_GetReaction(joint).force.z, g, 1e-9 * g);
    ENSURE(fcWorld_SetTimestep(w, 1.0 / 120));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetStats(w).awakeBodies == 0);
    printf("  asleep across h 1/60 -> 1/120: contact %.9f N (2 g = %.9f), joint %.9f N (g)\n", fcContactForceZ(box, ground),
           2 * g, fcJoint_GetReaction(joint).force.z);
    ENSURE_NEAR(fcContactForceZ(box, ground), 2 * g, 1e-6 * g);
    ENSURE_NEAR(fcJoint_GetReaction(joint).force.z, g, 1e-9 * g);
    fcDestroyWorld(w);

    w = fcMakeWorld(1.0 / 60, false);
    ground = fcAddGround(w, 0.6);
    box = fcAddBox(w, fcV3(0, 0, 0.5), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_SetTimestep(w, 1.0 / 240));
    ENSURE(fcBody_SetTransform(box, fcV3(0, 0, 3), fcQuat_Identity()));
    ENSURE(fcWorld_Step(w));
    fcConstraintEvent end;
    ENSURE(fcCountPairEvents(w, fc_eventContactEnd, fcBody_GetShape(ground, 0), fcBody_GetShape(box, 0), &end) == 1);
    printf("  lifted off after h 1/60 -> 1/240: force before %.9f N (2 g = %.9f)\n", end.forceBefore, 2 * g);
    ENSURE_NEAR(end.forceBefore, 2 * g, 1e-6 * g);
    fcDestroyWorld(w);
    return 0;
}

// A sensor sees a sleeping body come into it or leave it, and wakes nothing. A static sensor put over a box asleep
// on the ground, moved off it (5 cm clear, the fat boxes still overlapping), and a sensor made over it: no begin or
// end was reported until the box woke for another reason (the pair had no awake body and was not collided).
static int test_sensor_sees_sleepers(void)
{
    fcWorldId w = fcMakeWorld(1.0 / 60, true);
    fcAddGround(w, 0.6);
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 0.25), fcV3(0.25, 0.25, 0.25), 1, 0.6);
    fcShapeId boxShape = fcBody_GetShape(box, 0);
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(!fcBody_IsAwake(box));
    fcShapeId sensor = fcAddSensorBox(w, fcV3(0, 0, 50), fcV3(1, 1, 1));
    fcBodyId zone = fcShape_GetBody(sensor);
    ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_SetTransform(zone, fcV3(0, 0, 0.5), fcQuat_Identity()));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventSensorBegin, sensor, boxShape, NULL) == 1);
    ENSURE(fcBody_SetTransform(zone, fcV3(1.3, 0, 0.5), fcQuat_Identity()));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventSensorEnd, sensor, boxShape, NULL) == 1);
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetEventCount(w) == 0);
    fcShapeId second = fcAddSensorBox(w, fcV3(0, 0.5, 0), fcV3(1, 1, 1));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcCountPairEvents(w, fc_eventSensorBegin, second, boxShape, NULL) == 1);
    ENSURE(!fcBody_IsAwake(box));  // seen, not woken
    fcDestroyWorld(w);
    return 0;
}

// A filter change takes effect on the pairs that exist (fcContacts_ShapeFilterChanged): a box whose filter stopped it
// colliding with the platform it rested on stayed on it, awake or asleep. Now the refused pair goes at once and its
// bodies wake: asleep, the box falls freely from the next step (g h^2 n (n + 1) / 2 in n steps); awake, it falls
// through the platform. A pair the new filter allows is found at once though neither shape moves: a box resting
// weightless on the platform, its filter widened, has its contact in the next step and carries m g once gravity is on.
static int test_filter_change_on_resting_pairs(void)
{
    const double h = 1.0 / 60;
    const int n = 60;
    for (int sleeping = 0; sleeping < 2; ++sleeping) {
        fcWorldId w = fcMakeWorld(h, sleeping);
        fcBodyId platform = fcAddFixedBox(w, fc_staticBody, fcV3(2, 2, 0.5));
        ENSURE(fcShape_SetFilter(fcBody_GetShape(platform, 0), 2, UINT64_MAX));
        fcBodyId box = fcAddBox(w, fcV3(0, 0, 1), fcV3(0.5, 0.5, 0.5), 2, 0.6);
        for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
        ENSURE(fcWorld_GetStats(w).awakeBodies == (sleeping ? 0 : 1));
        double z0 = fcBody_GetPosition(box).z;
        ENSURE(fcShape_SetFilter(fcBody_GetShape(box, 0), 1, ~(uint64_t)2));  // no longer the platform's category
        ENSURE(fcWorld_GetContactCount(w) == 0);
        for (int i = 0; i < n; ++i) ENSURE(fcWorld_Step(w));
        double z = fcBody_GetPosition(box).z;
        printf("  a box %s on a platform, its filter changed to refuse it: z %.9f after 1 s\n", sleeping ? "asleep" : "awake", z);
        if (sleeping)
            ENSURE_NEAR(z0 - z, g * h * h * n * (n + 1) / 2, 1e-9);
        else
            ENSURE_LE(z, -1.0);  // through the platform (its underside at -0.5)
        fcDestroyWorld(w);
    }
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyId platform = fcAddFixedBox(w, fc_staticBody, fcV3(2, 2, 0.5));
    ENSURE(fcShape_SetFilter(fcBody_GetShape(platform, 0), 2, UINT64_MAX));
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 1), fcV3(0.5, 0.5, 0.5), 2, 0.6);
    ENSURE(fcShape_SetFilter(fcBody_GetShape(box, 0), 1, ~(uint64_t)2));
    for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetContactCount(w) == 0);
    ENSURE(fcShape_SetFilter(fcBody_GetShape(box, 0), 1, UINT64_MAX));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetContactCount(w) == 1);
    ENSURE(fcWorld_SetGravity(w, fcV3(0, 0, -g)));
    double lowest = 1;
    for (int i = 0; i < n; ++i) {
        ENSURE(fcWorld_Step(w));
        lowest = fmin(lowest, fcBody_GetPosition(box).z);
    }
    printf("  a weightless box on a platform, its filter widened: lowest z %.6f, carrying %.6f N (m g = %.6f N)\n", lowest,
           fcContactForceZ(box, platform), 2 * g);
    ENSURE_LE(1 - lowest, 0.006);  // within the 5 mm slop
    ENSURE_NEAR(fcContactForceZ(box, platform), 2 * g, 1e-3 * 2 * g);
    fcDestroyWorld(w);
    return 0;
}

// the pre-solve hook: switch a pair off (a ghost passes through the ground) or change its friction (ice). The world's
// settings cannot be changed from inside the step: each try is refused (a gravity set here changed the step halfway)
typedef struct PreSolveState {
    fcWorldId world;
    fcBodyId ghost, skater, plain, plain2;
    int calls, settingsTaken;
    char refused[512];  // the messages for the plain boxes' values out of range
} PreSolveState;

// the log's messages about the hook's values
static void fcKeepHookMessages(const char* message, void* context)
{
    PreSolveState* s = context;
    size_t used = strlen(s->refused);
    if (strstr(message, "pre-solve hook") != NULL) snprintf(s->refused + used, sizeof s->refused - used, "%s; ", message);
}

static bool fcPreSolve(fcShapeId shapeA, fcShapeId shapeB, fcContactData* contact, void* context)
{
    PreSolveState* s = context;
    s->calls += 1;
    s->settingsTaken += fcWorld_SetGravity(s->world, fcV3(0, 0, 0)) + fcWorld_SetTimestep(s->world, 0.1) +
                        fcWorld_SetStabilization(s->world, fc_stabilizeNone) + fcWorld_SetBaumgarte(s->world, 0.5) +
                        fcWorld_SetProjection(s->world, 1e-3, 3) + fcWorld_SetWorkerCount(s->world, 2);
    s->settingsTaken += strstr(fcGetLastError(), "fcWorld_SetWorkerCount: the world is stepping") == NULL;
    fcBodyId a = fcShape_GetBody(shapeA), b = fcShape_GetBody(shapeB);
    if (FC_ID_EQUALS(a, s->ghost) || FC_ID_EQUALS(b, s->ghost)) return false;
    if (FC_ID_EQUALS(a, s->skater) || FC_ID_EQUALS(b, s->skater)) contact->friction = 0;
    if (FC_ID_EQUALS(a, s->plain) || FC_ID_EQUALS(b, s->plain) || FC_ID_EQUALS(a, s->plain2) || FC_ID_EQUALS(b, s->plain2)) {
        // out of range: not taken, and said once the hook returns (the step's first such call), or counted
        contact->friction = NAN;
        contact->restitution = 2;
    }
    return true;
}

static int test_pre_solve_and_joint_removal(void)
{
    PreSolveState state = {fc_nullWorldId, fc_nullBodyId, fc_nullBodyId, fc_nullBodyId, fc_nullBodyId, 0, 0, ""};
    fcWorldDef wd = fcDefaultWorldDef();
    wd.enableSleeping = false;
    wd.preSolve = fcPreSolve;
    wd.preSolveContext = &state;
    fcWorldId w = fcCreateWorld(&wd);
    state.world = w;
    fcAddGround(w, 0.6);
    state.ghost = fcAddSphere(w, fcV3(0, 0, 0.5), 0.1, 1, 0.6, 0);
    state.skater = fcAddBox(w, fcV3(3, 0, 0.25), fcV3(0.25, 0.25, 0.25), 1, 0.6);
    fcBodyId plain = state.plain = fcAddBox(w, fcV3(-3, 0, 0.25), fcV3(0.25, 0.25, 0.25), 1, 0.6);
    state.plain2 = fcAddBox(w, fcV3(-3, 3, 0.25), fcV3(0.25, 0.25, 0.25), 1, 0.6);
    ENSURE(fcBody_SetLinearVelocity(state.skater, fcV3(2, 0, 0)));
    ENSURE(fcBody_SetLinearVelocity(plain, fcV3(2, 0, 0)));
    fcSetLogFunction(fcKeepHookMessages, &state);
    for (int i = 0; i < 60; ++i) {
        state.refused[0] = '\0';  // the messages of one step
        ENSURE(fcWorld_Step(w));
    }
    fcSetLogFunction(NULL, NULL);
    // the two boxes' manifolds: the first call's values said, the other counted
    printf("  the hook's values out of range, a step's messages: %s\n", state.refused);
    ENSURE(strcmp(state.refused, "fcWorld_Step: the pre-solve hook set friction nan (finite and >= 0): kept 0.6; "
                                 "fcWorld_Step: the pre-solve hook set restitution 2 (in [0, 1]): kept 0; "
                                 "fcWorld_Step: the pre-solve hook set values out of range for 1 more manifold this step: "
                                 "each pair kept its own; ") == 0);
    ENSURE(state.calls > 0 && state.settingsTaken == 0);
    ENSURE(fcWorld_GetTimestep(w) == 1.0 / 60 && fcWorld_GetStabilization(w) == wd.stabilization);
    ENSURE(fcBody_GetPosition(state.ghost).z < -0.5);                       // fell through the ground
    ENSURE_NEAR(fcBody_GetLinearVelocity(state.ghost).z, -g, 1e-9);       // under the gravity it started with
    ENSURE_NEAR(fcBody_GetLinearVelocity(state.skater).x, 2, 1e-6);         // no friction: it keeps sliding
    ENSURE_NEAR(fcBody_GetLinearVelocity(plain).x, 0, 1e-9);                // mu 0.6 stopped it within 0.34 s
    // two overlapping boxes held by a weld do not push each other; once the weld is gone, they do
    fcBodyId a, b;
    fcJointId weld = fcAddJoinedBoxes(w, fc_fixedJoint, fcV3(6, 0, 0.25), fcV3(6.4, 0, 0.25), fcV3(0.25, 0.25, 0.25),
                                      fcV3(6.2, 0, 0.25), &a, &b);
    ENSURE(FC_IS_NON_NULL(weld));
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    ENSURE_NEAR(fcBody_GetPosition(b).x - fcBody_GetPosition(a).x, 0.4, 1e-6);
    fcDestroyJoint(weld);
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_GetPosition(b).x - fcBody_GetPosition(a).x > 0.45);  // pushed apart to (almost) touching
    fcDestroyWorld(w);
    return 0;
}

// rolling resistance: a ball rolling on the ground with arm e decelerates at 5 e g / (7 r) (torque e N about
// the contact, solid sphere); spinning resistance: a spinning disk standing on its face slows at e_t N / I
static int test_rolling_and_spinning_resistance(void)
{
    const double r = 0.1, arm = 0.01, m = 1;
    fcWorldId w = fcMakeWorld(1.0 / 240, false);
    fcAddGround(w, 0.8);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, r);
    bd.linearVelocity = fcV3(2, 0, 0);
    bd.angularVelocity = fcV3(0, 2 / r, 0);  // rolling without slipping from the start
    fcBodyId ball = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.radius = r;
    sd.friction = 0.8;
    sd.rollingFriction = arm;
    sd.density = m / (4 * pi * r * r * r / 3);
    fcCreateShape(ball, &sd);
    for (int i = 0; i < 24; ++i) ENSURE(fcWorld_Step(w));
    double v0 = fcBody_GetLinearVelocity(ball).x;
    for (int i = 0; i < 240; ++i) ENSURE(fcWorld_Step(w));
    fcContactData cd[2];
    ENSURE(fcBody_GetContacts(ball, cd, 2) == 1);
    // still rolling: the contact point does not slide
    ENSURE_NEAR(fcBody_GetAngularVelocity(ball).y * r, fcBody_GetLinearVelocity(ball).x, 2e-3);
    double decel = (v0 - fcBody_GetLinearVelocity(ball).x) / 1.0, exact = 5 * arm * g / (7 * r);
    printf("  rolling resistance: %.4f m/s^2 (exact 5 e g / 7 r = %.4f)\n", decel, exact);
    ENSURE_NEAR(decel, exact, 0.02 * exact);
    // a disk spinning about the vertical on its flat face
    const double R = 0.2, hh = 0.02, spinArm = 0.005;
    bd = fcDefaultBodyDef();
    bd.position = fcV3(3, 0, hh);
    bd.angularVelocity = fcV3(0, 0, 10);
    fcBodyId disk = fcCreateBody(w, &bd);
    sd = fcDefaultShapeDef();
    sd.type = fc_cylinderShape;
    sd.radius = R;
    sd.halfHeight = hh;
    sd.friction = 0;  // no sliding friction: only the spinning resistance slows it
    sd.torsionalFriction = spinArm;
    fcCreateShape(disk, &sd);
    for (int i = 0; i < 24; ++i) ENSURE(fcWorld_Step(w));
    double w0 = fcBody_GetAngularVelocity(disk).z;
    for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(w));
    double mass = fcBody_GetMass(disk), iz = fcBody_GetInertia(disk).z;
    double alpha = (w0 - fcBody_GetAngularVelocity(disk).z) / 0.5, exactAlpha = spinArm * mass * g / iz;
    printf("  spinning resistance: %.4f rad/s^2 (exact e_t m g / I = %.4f)\n", alpha, exactAlpha);
    ENSURE_NEAR(alpha, exactAlpha, 0.02 * exactAlpha);
    fcDestroyWorld(w);
    return 0;
}

// the friction cone (the default): a box pushed diagonally by 1.2 mu m g slides with a = (F - mu m g) / m; the
// pyramid's axes (fixed while it rests) would hold it, each component being below mu m g
static int test_friction_cone(void)
{
    const double mu = 0.5, m = 2, F = 1.2 * mu * m * g;
    fcWorldDef wd = fcDefaultWorldDef();
    ENSURE(wd.frictionCone);
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    fcAddGround(w, mu);
    fcBodyId box = fcAddBox(w, fcV3(0, 0, 0.25), fcV3(0.25, 0.25, 0.25), m, mu);
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    fcVec3 dir = fcV3(sqrt(0.5), sqrt(0.5), 0);
    ENSURE(fcBody_SetForce(box, fcVec3_Scale(F, dir)));
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    double v1 = fcVec3_Dot(fcBody_GetLinearVelocity(box), dir);
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    double a = fcVec3_Dot(fcBody_GetLinearVelocity(box), dir) - v1, exact = (F - mu * m * g) / m;
    printf("  friction cone: a = %.5f m/s^2 (exact (F - mu m g) / m = %.5f)\n", a, exact);
    ENSURE_NEAR(a, exact, 0.005 * exact);
    fcDestroyWorld(w);
    return 0;
}

// The references for a square plate of half side a sliding and spinning on its four corners, each carrying m g / 4:
// Coulomb's (each corner pushed back by mu m g / 4 against its own slip) or the manifold's friction (a force F and a
// twist tau about the centre within the ellipsoid |F|^2 + (tau / r)^2 <= (mu m g)^2, r = a sqrt(2) the corners'
// distance, at its point where the slip (v, r w) is normal to it: F = -mu m g v / D, tau = -mu m g r^2 w / D, D =
// |(v, r w)|). After time T, how far it went along x and how far it turned (explicit steps of 1e-5 s; a speed stops
// where it would change sign).
static void fcPlateSlide(double a, double mu, double v0, double w0, double T, bool patch, double* x, double* turn)
{
    const double inertia = 2 * a * a / 3, dt = 1e-5, r2 = 2 * a * a;  // I_z / m of a square of side 2 a
    double px = 0, vx = v0, vy = 0, w = w0, th = 0;
    for (int k = 0; k * dt < T; ++k) {
        double fx = 0, fy = 0, tz = 0;  // per unit mass
        double slip = sqrt(vx * vx + vy * vy + r2 * w * w);
        if (patch && slip > 1e-12) fx = -mu * g * vx / slip, fy = -mu * g * vy / slip, tz = -mu * g * r2 * w / slip;
        for (int i = 0; i < 4 && !patch; ++i) {
            double cx = i & 1 ? a : -a, cy = i & 2 ? a : -a;
            double rx = cos(th) * cx - sin(th) * cy, ry = sin(th) * cx + cos(th) * cy;
            double ux = vx - w * ry, uy = vy + w * rx, s = sqrt(ux * ux + uy * uy);
            if (s < 1e-9) continue;
            double f = mu * g / 4 / s;
            fx -= f * ux, fy -= f * uy, tz -= rx * f * uy - ry * f * ux;
        }
        double nvx = vx + fx * dt, nw = w + tz / inertia * dt;
        if (nvx * vx <= 0) nvx = 0;
        if (nw * w <= 0) nw = 0;
        vy += fy * dt;
        px += 0.5 * (vx + nvx) * dt, th += 0.5 * (w + nw) * dt;
        vx = nvx, w = nw;
    }
    *x = px, *turn = th;
}

// A plate sliding at 2 m/s and spinning at 10 rad/s. Its manifold's friction, a force F at the centre of its points
// and a twist tau (docs/physics.md 4d), stays within the ellipsoid |F|^2 + (tau / r)^2 <= (mu lambda_n)^2, so F is at
// most mu m g and the plate slides at least v^2 / (2 mu g) (0.408 m); where it slips, the slip (v, r w) is normal to
// the ellipsoid, and the plate slides 0.568 m and turns 1.60 rad before it stops, as the reference says. Coulomb's
// four corners, each pushed back against its own slip, slide it 0.632 m and turn it 1.72 rad: the ellipsoid is the
// limit surface's usual stand-in, 10 % off here where slip and spin are alike (per-point rows slid it 0.622 m, at
// 1.3 times the sweep's time in a pile). The points' reported friction adds up to F and turns by
// tau about the centre. The radial scaling of the trial impulse onto the ellipsoid slid 0.473 m: the twist's
// share of the rows' effective mass is not the ellipsoid's.
static int test_spinning_slide_within_the_cone(void)
{
    const double mu = 0.5, m = 2, a = 0.25, hz = 0.05, v0 = 2, w0 = 10;
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcBodyId ground = fcAddGround(w, mu);
    fcBodyId plate = fcAddBox(w, fcV3(0, 0, hz), fcV3(a, a, hz), m, mu);
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_SetLinearVelocity(plate, fcV3(v0, 0, 0)));
    ENSURE(fcBody_SetAngularVelocity(plate, fcV3(0, 0, w0)));
    fcVec3 p0 = fcBody_GetPosition(plate);
    double worstEllipsoid = 0, worstTotal = 0;
    int slipSteps = 0, stickToSlip = 0;
    for (int i = 0; i < 180; ++i) {
        ENSURE(fcWorld_Step(w));
        ENSURE_LE(fcWorld_GetStats(w).frictionResidual, 1e-15);
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) stickToSlip += fcWorld_GetEvent(w, e).type == fc_eventStickToSlip;
        fcContactData d;
        ENSURE(fcBody_GetContacts(plate, &d, 1) == 1 && FC_ID_EQUALS(d.bodyA, ground) && d.pointCount == 4);
        // sliding and spinning for its first 25 steps: every point slips (each substep's friction on the ellipsoid,
        // the step's sum just inside it, had reported none)
        bool slipping = true;
        for (int k = 0; k < 4; ++k) slipping = slipping && d.points[k].slipping;
        slipSteps += i < 25 && slipping;
        // the twist from the points' reported friction: their moment about n at their centre
        double normal = 0, twist = 0, arm = 0;
        fcVec3 centre = fcV3(0, 0, 0);
        for (int k = 0; k < 4; ++k) centre = fcVec3_MulAdd(centre, 0.25, d.points[k].point);
        for (int k = 0; k < 4; ++k) {
            const fcContactPointData* q = d.points + k;
            fcVec3 f = fcVec3_Add(fcVec3_Scale(q->tangentImpulse[0], d.tangent[0]), fcVec3_Scale(q->tangentImpulse[1], d.tangent[1]));
            fcVec3 r = fcVec3_Sub(q->point, centre);
            twist += fcVec3_Dot(d.normal, fcVec3_Cross(r, f));
            arm += 0.25 * hypot(r.x, r.y);
            normal += q->normalImpulse;
        }
        double linear = hypot(d.force.x, d.force.y) / (mu * normal / fcWorld_GetTimestep(w)), turning = twist / (mu * normal * arm);
        if (normal > 0) {
            worstTotal = fmax(worstTotal, linear);
            worstEllipsoid = fmax(worstEllipsoid, linear * linear + turning * turning);
        }
    }
    fcVec3 p1 = fcBody_GetPosition(plate);
    fcQuat q = fcBody_GetOrientation(plate);
    double x, turn, xExact, turnExact, xCorners, turnCorners;
    x = p1.x - p0.x, turn = 2 * atan2(q.z, q.w);
    fcPlateSlide(a, mu, v0, w0, 3, true, &xExact, &turnExact);
    fcPlateSlide(a, mu, v0, w0, 3, false, &xCorners, &turnCorners);
    printf("  sliding and spinning: |F| / (mu lambda_n) at most %.6f, on the ellipsoid's scale at most %.6f; slid %.4f m (the\n"
           "  reference %.4f, Coulomb's four corners %.4f, pure sliding %.4f), turned %.4f rad (%.4f; %.4f)\n",
           worstTotal, worstEllipsoid, x, xExact, xCorners, v0 * v0 / (2 * mu * g), turn, turnExact, turnCorners);
    printf("  slipping at every point in %d of its first 25 steps, %d stick-to-slip events\n", slipSteps, stickToSlip);
    ENSURE_LE(worstEllipsoid, 1 + 1e-9);
    ENSURE_LE(worstTotal, 1 + 1e-9);
    ENSURE(slipSteps == 25 && stickToSlip == 1);
    ENSURE(fcVec3_Length(fcBody_GetLinearVelocity(plate)) < 1e-3);
    ENSURE_NEAR(x, xExact, 0.03 * xExact);
    ENSURE_NEAR(turn, turnExact, 0.03 * turnExact);
    fcDestroyWorld(w);
    return 0;
}

// Friction by manifold, two more of its closed forms. An oblong box (0.6 x 0.2 x 0.2 m, 2 kg, mu 0.5) turned 0.5 rad
// about the normal slides down 35 deg at a = g (sin - mu cos), straight down the slope, with the cone and with the
// pyramid: there, where the three rows' joint step left one row's bound, the others' values were wrong (its
// tangents off the box's axes couple them) and the box slid sideways at 1.7 m/s and crawled downhill at 0.4. And the
// points' reported friction turns the body as the solver did: a cube (isotropic: I dw_z is the moment about z) on
// two of its bottom corners, the other two apart, sliding at 2 m/s and turning at 1 rad/s; taken about the mean of
// all four points, the shares reported a sixteenth of the moment. So does the patch itself (fcContactData's
// frictionPoint, frictionForce and twist).
static int test_patch_friction_slides_and_reports(void)
{
    const double mu = 0.5, th = 35 * pi / 180;
    for (int cone = 0; cone < 2; ++cone) {
        fcWorldDef wd = fcDefaultWorldDef();
        wd.enableSleeping = false;
        wd.frictionCone = cone == 1;
        wd.gravity = fcV3(g * sin(th), 0, -g * cos(th));  // the ground tilted: downhill is +x
        fcWorldId w = fcCreateWorld(&wd);
        fcAddGround(w, mu);
        fcBodyId box = fcAddBox(w, fcV3(0, 0, 0.1), fcV3(0.3, 0.1, 0.1), 2, mu);
        ENSURE(fcBody_SetTransform(box, fcV3(0, 0, 0.1), fcQuat_FromAxisAngle(fcV3(0, 0, 1), 0.5)));
        for (int i = 0; i < 180; ++i) ENSURE(fcWorld_Step(w));
        fcVec3 v = fcBody_GetLinearVelocity(box);
        double exact = 3 * g * (sin(th) - mu * cos(th));
        printf("  oblong box down 35 deg, %s: v = (%.5f, %.2e) m/s after 3 s (exact %.5f)\n", cone ? "cone" : "pyramid", v.x, v.y, exact);
        ENSURE_NEAR(v.x, exact, 1e-4 * exact);
        ENSURE_LE(fabs(v.y), 1e-4);
        fcDestroyWorld(w);
    }
    fcWorldId w = fcMakeWorld(1.0 / 60, false);
    fcAddGround(w, mu);
    const double a = 0.25, tilt = 0.03;
    fcVec3 start = fcV3(0, 0, a * cos(tilt) + a * sin(tilt) - 0.001);
    fcBodyId cube = fcAddBox(w, start, fcV3(a, a, a), 2, mu);
    ENSURE(fcBody_SetTransform(cube, start, fcQuat_FromAxisAngle(fcV3(0, 1, 0), tilt)));
    ENSURE(fcBody_SetLinearVelocity(cube, fcV3(0, 2, 0)) && fcBody_SetAngularVelocity(cube, fcV3(0, 0, 1)));
    double inertia = fcBody_GetInertia(cube).z, worst = 0, worstPatch = 0, h = fcWorld_GetTimestep(w);
    for (int i = 0; i < 3; ++i) {
        fcVec3 x0 = fcBody_GetPosition(cube);
        double w0 = fcBody_GetAngularVelocity(cube).z;
        ENSURE(fcWorld_Step(w));
        double turned = inertia * (fcBody_GetAngularVelocity(cube).z - w0), moment = 0;
        fcContactData d;
        ENSURE(fcBody_GetContacts(cube, &d, 1) == 1 && d.pointCount == 4);
        double sign = FC_ID_EQUALS(d.bodyB, cube) ? 1 : -1;
        for (int k = 0; k < 4; ++k) {
            const fcContactPointData* q = d.points + k;
            fcVec3 f = fcVec3_Scale(sign, fcVec3_Add(fcVec3_Scale(q->tangentImpulse[0], d.tangent[0]), fcVec3_Scale(q->tangentImpulse[1], d.tangent[1])));
            fcVec3 r = fcVec3_Sub(q->point, x0);
            moment += r.x * f.y - r.y * f.x;
        }
        worst = fmax(worst, fabs(moment - turned) / fabs(turned));
        // the patch as fcContactData gives it: its force at its point and its twist
        fcVec3 r = fcVec3_Sub(d.frictionPoint, x0), f = fcVec3_Scale(sign * h, d.frictionForce);
        double patch = r.x * f.y - r.y * f.x + sign * h * d.twist;
        worstPatch = fmax(worstPatch, fabs(patch - turned) / fabs(turned));
    }
    printf("  a cube on two corners, sliding and turning: I dw_z against the shares' moment about z: %.2g of it off, the "
           "patch's force and twist: %.2g\n", worst, worstPatch);
    ENSURE_LE(worst, 1e-6);
    ENSURE_LE(worstPatch, 1e-6);
    fcDestroyWorld(w);
    return 0;
}

// A box held by static friction on a turntable (kinematic, omega 2 rad/s; the box's centre at r = 1 m, mu 0.8: omega^2
// r = 4 m/s^2 of the 7.85 that friction can give) turns with it. Its friction rows ask for the relative velocity that
// brings the contact's material points together as the integrator moves them (contact.h): asking for zero, the box
// moved outward by about r (omega h)^2 / 2 a step, 0.47 m in 10 s (and left the table at omega 3, r 0.5 m). Over 20 s
// at 60 Hz: the radius within 1 mm, the box turned with the table to 2e-3 rad (it leans by 1e-3 within the slop), and
// the contact force m omega^2 r towards the axis, and m g up, to 1 %. At omega 3.2 (10.2 m/s^2, more than mu g) the box
// slides off.
static int test_turntable_holds_a_box(void)
{
    const double omegas[] = {2, 3.2}, r = 1, m = 1, mu = 0.8;
    for (int k = 0; k < 2; ++k) {
        double omega = omegas[k];
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        fcBodyId table = fcAddTypedBox(w, fc_kinematicBody, fcV3(0, 0, -0.05), fcV3(3, 3, 0.05), 0, mu);
        ENSURE(fcBody_SetAngularVelocity(table, fcV3(0, 0, omega)));
        fcBodyId box = fcAddBox(w, fcV3(r, 0, 0.1), fcV3(0.1, 0.1, 0.1), m, mu);
        ENSURE(fcBody_SetLinearVelocity(box, fcV3(0, omega * r, 0)));
        ENSURE(fcBody_SetAngularVelocity(box, fcV3(0, 0, omega)));
        double off = 0, turned = 0;
        for (int i = 0; i < (k == 0 ? 1200 : 300); ++i) {
            ENSURE(fcWorld_Step(w));
            fcVec3 x = fcBody_GetPosition(box);
            fcQuat q = fcQuat_Mul(fcQuat_Conj(fcBody_GetOrientation(table)), fcBody_GetOrientation(box));
            off = fmax(off, fabs(hypot(x.x, x.y) - r));
            turned = fmax(turned, 2 * asin(fmin(1, sqrt(q.x * q.x + q.y * q.y + q.z * q.z))));
        }
        fcVec3 x = fcBody_GetPosition(box), f = fcContactForce(box, table);
        double inward = -(f.x * x.x + f.y * x.y) / hypot(x.x, x.y);
        printf("  turntable at %g rad/s: the radius at most %.3g m off, turned %.3g rad against the table; force %.5g N "
               "inward (m omega^2 r = %.5g N), %.5g N up\n", omega, off, turned, inward, m * omega * omega * r, f.z);
        if (k == 0) {
            ENSURE_LE(off, 1e-3);
            ENSURE_LE(turned, 2e-3);
            ENSURE_NEAR(inward, m * omega * omega * r, 0.01 * m * omega * omega * r);
            ENSURE_NEAR(f.z, m * g, 0.01 * m * g);
        } else {
            ENSURE(off > 1);  // slid off the table
        }
        fcDestroyWorld(w);
    }
    return 0;
}

// a dynamic 6 x 6 x 0.1 m table of the given mass turning at omega about z on a hinge at its centre, driven there by
// the hinge's motor (up to 1000 N m) or free
static fcBodyId fcAddHingedTable(fcWorldId w, double mass, double omega, bool driven, double mu)
{
    fcBodyId table = fcAddBox(w, fcV3(0, 0, -0.05), fcV3(3, 3, 0.05), mass, mu);
    fcJointDef jd = fcDefaultJointDef(fc_hingeJoint);
    jd.bodyB = table;
    jd.anchor = fcV3(0, 0, -0.05);
    jd.axis = fcV3(0, 0, 1);
    jd.enableMotor = driven;
    jd.motorSpeed = omega;
    jd.maxMotorForce = 1000;
    if (!fcJoint_IsValid(fcCreateJoint(w, &jd)) || !fcBody_SetAngularVelocity(table, fcV3(0, 0, omega))) return fc_nullBodyId;
    return table;
}

// The same box on a dynamic turntable on a hinge: a 200 kg table driven by the hinge's motor at 2 rad/s, and a free 20
// kg table spinning at 2 rad/s. The pair turns with both bodies as their inverse masses weigh them (contact.h), and
// the rows' lever arms follow the bodies to one point, so that each impulse pair carries no moment. Before, between
// two dynamic bodies the friction rows asked for zero: the box crept outward by 3.5 cm/s on the driven table and left
// it after 17 s, and on the free one it left after 3 s, the kept arms' moment changing the angular momentum by 1e-3.
// Over 20 s at 60 Hz: the radius within 0.5 mm, the contact force m omega^2 r inward and m g up to 1 % on the driven
// table; on the free one the angular momentum about the axis kept to 1e-9 of itself (the hinge takes no moment
// about it) and the energy never more than 1e-5 of itself above its start (5e-7: the box settles by micrometres).
static int test_dynamic_turntable_holds_a_box(void)
{
    const double r = 1, m = 1, mu = 0.8, omega = 2;
    for (int k = 0; k < 2; ++k) {
        bool driven = k == 0;
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        fcBodyId table = fcAddHingedTable(w, driven ? 200 : 20, omega, driven, mu);
        ENSURE(fcBody_IsValid(table));
        fcBodyId box = fcAddBox(w, fcV3(r, 0, 0.1), fcV3(0.1, 0.1, 0.1), m, mu);
        ENSURE(fcBody_SetLinearVelocity(box, fcV3(0, omega * r, 0)));
        ENSURE(fcBody_SetAngularVelocity(box, fcV3(0, 0, omega)));
        fcBodyId bodies[2] = {table, box};
        double off = 0, momentum0 = 0, momentum = 0, energy0 = fcWorld_GetStats(w).energy, rise = 0;
        for (int i = 0; i <= 1200; ++i) {
            if (i > 0) ENSURE(fcWorld_Step(w));
            // the angular momentum about the axis: each body's spin (its inertia about z: both turn about z) and its
            // centre's m (x v_y - y v_x)
            momentum = 0;
            for (int j = 0; j < 2; ++j) {
                fcVec3 x = fcBody_GetPosition(bodies[j]), v = fcBody_GetLinearVelocity(bodies[j]);
                momentum += fcBody_GetInertia(bodies[j]).z * fcBody_GetAngularVelocity(bodies[j]).z + fcBody_GetMass(bodies[j]) * (x.x * v.y - x.y * v.x);
            }
            if (i == 0) momentum0 = momentum;
            fcVec3 x = fcBody_GetPosition(box);
            off = fmax(off, fabs(hypot(x.x, x.y) - r));
            rise = fmax(rise, fcWorld_GetStats(w).energy - energy0);
        }
        fcVec3 x = fcBody_GetPosition(box), f = fcContactForce(box, table);
        double inward = -(f.x * x.x + f.y * x.y) / hypot(x.x, x.y);
        printf("  %s table: the radius at most %.3g m off; force %.5g N inward (m omega^2 r = %.5g N), %.5g N up; angular "
               "momentum %.10g (start %.10g), energy at most %.3g J above its start\n", driven ? "driven" : "free", off,
               inward, m * omega * omega * r, f.z, momentum, momentum0, rise);
        ENSURE_LE(off, 5e-4);
        if (driven) {
            ENSURE_NEAR(inward, m * omega * omega * r, 0.01 * m * omega * omega * r);
            ENSURE_NEAR(f.z, m * g, 0.01 * m * g);
        } else {
            ENSURE_NEAR(momentum, momentum0, 1e-9 * momentum0);
            ENSURE_LE(rise, 1e-5 * energy0);
        }
        fcDestroyWorld(w);
    }
    return 0;
}

// A flat 10 kg box (1 x 1 x 0.1 m) spun at 20 rad/s about z, 2 m from the centre of a free plate lying on the ground,
// slows to a stop where it is: by symmetry friction has no net force on it. The chord of a turn is asked at the pair's
// turn w, mostly the box's here; taken on the offset of the centres, w x (w x (x_b - x_a)), it asked for some 2.7 m/s
// towards the plate's centre, and the box slid 156 mm there (1 kg plate; 62 mm on a 10 kg one); taken along the
// centres' relative velocity it asks for none. With the rows' arms to the midpoint of the anchors it drifted 1.5 and
// 3.8 mm, to the box's anchors 13 and 7.3 mm; the slower body keeps the point (fcContacts_PrepareChunk). Within 1 mm
// of its start after 3 s, on a 1 kg and a 10 kg plate (0.49 and 0.021 mm measured; 0.014 and 0.039 at h / 100).
static int test_spinning_box_stays_on_a_plate(void)
{
    const double plates[] = {1, 10};
    for (int k = 0; k < 2; ++k) {
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        fcAddGround(w, 0.6);
        fcAddBox(w, fcV3(0, 0, 0.05), fcV3(3, 3, 0.05), plates[k], 0.6);
        fcBodyId box = fcAddBox(w, fcV3(2, 0, 0.15), fcV3(0.5, 0.5, 0.05), 10, 0.6);
        ENSURE(fcBody_SetAngularVelocity(box, fcV3(0, 0, 20)));
        for (int i = 0; i < 180; ++i) ENSURE(fcWorld_Step(w));
        fcVec3 x = fcBody_GetPosition(box);
        double moved = hypot(x.x - 2, x.y), spin = fcBody_GetAngularVelocity(box).z;
        printf("  box spun on a %g kg plate: moved %.3g m, spin %.3g rad/s after 3 s\n", plates[k], moved, spin);
        ENSURE_LE(moved, 1e-3);
        ENSURE_LE(fabs(spin), 1e-6);  // stopped: friction's moment, mu m g times some 0.38 m, stops it in 1.5 s
        fcDestroyWorld(w);
    }
    return 0;
}

// A ball rolling on a turntable (turning at Omega about z) without slipping: its centre's velocity turns at
// Omega_c = Omega I / (I + m R^2) = 2/7 Omega for a solid sphere (the friction at its bottom, m dv/dt = F, turns its
// spin I dw/dt = R z x F, and rolling ties them: v - R w x z = Omega z x x), so it runs round a circle at 2/7 of the
// table's rate, centred at c = x_0 + (z x v_0) / Omega_c: about the axis when v_0 = 2/7 Omega z x x_0. Started on that
// circle (r 0.5 m, Omega 2 rad/s) on a kinematic table; started off-centre (v_0 0.5 m/s) on a 200 kg table turned by a
// hinge motor; and on its circle at r 5 cm on a kinematic table turning at 40 rad/s (0.33 rad a substep; friction
// needs Omega_c^2 r = 6.5 of the 7.85 m/s^2 it has). The friction rows ask for the chord of the face's turn as the
// ball runs across it (contact.h): asked for zero, the first ball spiralled out by 0.7 mm/s (12 mm in 18 s); with the
// chord of a carried body, in by 1.7 mm/s; with the chord's exact series along the relative velocity, the third grew
// 7 % in 40 s (and a ball at 55 rad/s was thrown off). Over 20 s at 60 Hz (1.8 turns of the first two orbits, 36 of
// the third): the centre within 0.1 mm of the closed form's, the radius within 1e-7 m (the gain makes the substep's
// turn exact: 1.4e-8 m and 6e-15 m measured at 2 rad/s, 1.1e-5 and 5e-9 m at 40).
static int test_ball_orbits_on_a_turntable(void)
{
    const double R = 0.1, m = 1, mu = 0.8, T = 20;
    const double omegas[] = {2, 2, 40}, radii[] = {0.5, 0.5, 0.05};
    for (int k = 0; k < 3; ++k) {
        bool driven = k == 1;
        double Omega = omegas[k], omegaC = 2.0 / 7 * Omega;
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        fcBodyId table = driven ? fcAddHingedTable(w, 200, Omega, true, mu) : fcAddTypedBox(w, fc_kinematicBody, fcV3(0, 0, -0.05), fcV3(3, 3, 0.05), 0, mu);
        ENSURE(fcBody_IsValid(table) && fcBody_SetAngularVelocity(table, fcV3(0, 0, Omega)));
        fcVec3 x0 = fcV3(radii[k], 0, R), v0 = driven ? fcV3(0, 0.5, 0) : fcV3(0, omegaC * radii[k], 0);
        fcBodyId ball = fcAddSphere(w, x0, R, m, mu, 0);
        // rolling: the bottom point moves with the table, v - R w x z = Omega z x x
        fcVec3 slip = fcVec3_Sub(fcV3(-Omega * x0.y, Omega * x0.x, 0), v0);
        ENSURE(fcBody_SetLinearVelocity(ball, v0));
        ENSURE(fcBody_SetAngularVelocity(ball, fcV3(slip.y / R, -slip.x / R, 0)));
        fcVec3 c = fcV3(x0.x - v0.y / omegaC, x0.y + v0.x / omegaC, 0);  // x_0 + (z x v_0) / Omega_c
        double radius = hypot(x0.x - c.x, x0.y - c.y), apart = 0, off = 0;
        int steps = (int)(T * 60 + 0.5);
        for (int i = 1; i <= steps; ++i) {
            ENSURE(fcWorld_Step(w));
            double turn = omegaC * i / 60.0, ct = cos(turn), st = sin(turn);
            fcVec3 e = fcV3(c.x + ct * (x0.x - c.x) - st * (x0.y - c.y), c.y + st * (x0.x - c.x) + ct * (x0.y - c.y), R);
            fcVec3 x = fcBody_GetPosition(ball);
            apart = fmax(apart, hypot(x.x - e.x, x.y - e.y));
            off = fmax(off, fabs(hypot(x.x - c.x, x.y - c.y) - radius));
        }
        printf("  ball on a %s turntable at %g rad/s: the centre at most %.3g m from the closed form's over %.3g rad of "
               "its orbit, the radius (%.4g m) at most %.3g m off\n", driven ? "driven" : "kinematic", Omega, apart, omegaC * T, radius, off);
        ENSURE_LE(apart, 1e-4);
        ENSURE_LE(off, 1e-7);
        fcDestroyWorld(w);
    }
    return 0;
}

// A box carried by a turntable spinning fast, on a kinematic table and on a 500 kg one turned by a hinge motor: at the
// axis of a table at 55 rad/s (0.46 rad a substep at 60 Hz), and 1 mm from the axis of one at 40 rad/s (omega^2 r =
// 1.6 of the 7.85 m/s^2 friction gives). It turns with the table where it is. With the chord's exact series taken
// along the relative velocity (49ca7d3) the rows and the integrator gained 1 + t^4 / 8 a substep: the box at the axis
// was thrown off (92 m in 10 s). Over 10 s: at the axis within 0.01 mm of it (1.2e-6 m measured), at 1 mm within 1
// mm of where it started (0.78 mm: it creeps while the sweeps stop short of settling its friction; with friction by
// point 0.27 mm, and with 32 sweeps a substep 1 um either way). (At 1 mm and 55 rad/s it is thrown off, and before
// the arms followed the bodies the driven table threw it too: docs/physics.md, 4d.)
static int test_fast_turntable_keeps_its_box(void)
{
    const double mu = 0.8;
    for (int k = 0; k < 4; ++k) {
        bool driven = k >= 2;
        double r = k % 2 ? 1e-3 : 0, omega = k % 2 ? 40 : 55;
        fcWorldId w = fcMakeWorld(1.0 / 60, false);
        fcBodyId table = driven ? fcAddHingedTable(w, 500, omega, true, mu) : fcAddTypedBox(w, fc_kinematicBody, fcV3(0, 0, -0.05), fcV3(3, 3, 0.05), 0, mu);
        ENSURE(fcBody_IsValid(table) && fcBody_SetAngularVelocity(table, fcV3(0, 0, omega)));
        fcBodyId box = fcAddBox(w, fcV3(r, 0, 0.1), fcV3(0.1, 0.1, 0.1), 1, mu);
        ENSURE(fcBody_SetLinearVelocity(box, fcV3(0, omega * r, 0)));
        ENSURE(fcBody_SetAngularVelocity(box, fcV3(0, 0, omega)));
        double off = 0;
        for (int i = 0; i < 600; ++i) {
            ENSURE(fcWorld_Step(w));
            fcVec3 x = fcBody_GetPosition(box);
            off = fmax(off, fabs(hypot(x.x, x.y) - r));
        }
        printf("  box %g mm from the axis of a %s table at %g rad/s: the radius at most %.3g m off\n", r * 1e3,
               driven ? "driven" : "kinematic", omega, off);
        ENSURE_LE(off, r > 0 ? 1e-3 : 1e-5);
        fcDestroyWorld(w);
    }
    return 0;
}

// the corner of the box (centre p, turn q, half extents half) on its bottom face nearest to the point in x and y
static fcVec3 fcBottomCorner(fcVec3 p, fcQuat q, fcVec3 half, fcVec3 point)
{
    fcVec3 best = p;
    double bestD = 1e300;
    for (int c = 0; c < 8; ++c) {
        fcVec3 corner = fcVec3_Add(p, fcQuat_Rotate(q, fcV3(c & 1 ? half.x : -half.x, c & 2 ? half.y : -half.y, c & 4 ? half.z : -half.z)));
        double dx = corner.x - point.x, dy = corner.y - point.y, d = dx * dx + dy * dy + 1e-3 * corner.z;
        if (d < bestD) {
            bestD = d;
            best = corner;
        }
    }
    return best;
}

// A pair at rest keeps its points while its bodies keep their relative pose (fcContacts_Keep), and its points follow
// the bodies. Without gravity and with a 4 mm gap the box takes no impulse, and it is put by hand at poses micrometres
// and 2e-5 rad apart, some kept, some collided again (past 10 um from the pose the points were found at). Each point's
// separation must be its corner's height (a kept point left where it was would be off by the micrometres moved); two
// boxes turned and moved as one keep their points turned and moved with them; a tilt past the keep's reach lifts two
// corners out of the margin, and the pair is collided again, as it is when it falls fast enough to reach them.
static int test_resting_pair_keeps_its_points(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    fcWorldId w = fcCreateWorld(&wd);
    fcAddGround(w, 0.6);
    fcVec3 half = fcV3(0.5, 0.4, 0.3);
    double gap = 0.004;
    fcBodyId box = fcAddBox(w, fcV3(0, 0, half.z + gap), half, 1, 0.6);
    fcContactData cd;
    fcVec3 axis = fcVec3_Normalize(fcV3(1, 2, 0.5));
    for (int k = 0; k <= 12; ++k) {
        fcVec3 p = fcV3(1e-6 * k, -2e-6 * k, half.z + gap + 1.5e-6 * k);
        fcQuat q = fcQuat_FromAxisAngle(axis, 2e-5 * k);
        ENSURE(fcBody_SetTransform(box, p, q));
        ENSURE(fcWorld_Step(w));
        ENSURE_NEAR(fcVec3_Length(fcVec3_Sub(fcBody_GetPosition(box), p)), 0, 1e-15);
        ENSURE(fcBody_GetContacts(box, &cd, 1) == 1 && cd.pointCount == 4);
        ENSURE_NEAR(cd.normal.z, 1, 1e-15);
        for (int i = 0; i < 4; ++i) {
            fcVec3 corner = fcBottomCorner(p, q, half, cd.points[i].point);
            ENSURE_NEAR(cd.points[i].separation, corner.z, 1e-9);
            ENSURE_NEAR(cd.points[i].point.x, corner.x, 1e-5);
            ENSURE_NEAR(cd.points[i].point.y, corner.y, 1e-5);
            ENSURE_NEAR(cd.points[i].normalImpulse, 0, 1e-15);
        }
    }
    // tilted 0.1 rad about x with its low edge at the gap: the high corners are 8 cm up, past the 2 cm margin
    double tilt = 0.1;
    fcQuat q = fcQuat_FromAxisAngle(fcV3(1, 0, 0), tilt);
    ENSURE(fcBody_SetTransform(box, fcV3(0, 0, gap + half.y * sin(tilt) + half.z * cos(tilt)), q));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_GetContacts(box, &cd, 1) == 1 && cd.pointCount == 2);
    for (int i = 0; i < 2; ++i) ENSURE_NEAR(cd.points[i].separation, gap, 1e-12);
    // at the same pose, falling at 6 m/s: the margin is now the 10 cm it can close in a step, and the high corners
    // are within it (kept, the pair would keep the two points it found within 2 cm)
    ENSURE(fcBody_SetLinearVelocity(box, fcV3(0, 0, -6)));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_GetContacts(box, &cd, 1) == 1 && cd.pointCount == 4);
    double high = gap + 2 * half.y * sin(tilt);
    for (int i = 0; i < 4; ++i)
        ENSURE(fabs(cd.points[i].separation - gap) < 1e-12 || fabs(cd.points[i].separation - high) < 1e-12);
    fcDestroyWorld(w);

    // two boxes 3 mm apart, then turned 0.7 rad about a skew axis through the origin and moved
    w = fcCreateWorld(&wd);
    fcVec3 small = fcV3(0.3, 0.3, 0.3);
    fcVec3 pos[2] = {fcV3(0, 0, 10), fcV3(0.1, 0.05, 10.603)};
    fcBodyId boxes[2] = {fcAddBox(w, pos[0], half, 1, 0.6), fcAddBox(w, pos[1], small, 1, 0.6)};
    ENSURE(fcWorld_Step(w));
    fcContactData before;
    ENSURE(fcBody_GetContacts(boxes[0], &before, 1) == 1 && before.pointCount == 4);
    ENSURE_NEAR(before.points[0].separation, 0.003, 1e-12);
    fcQuat turn = fcQuat_FromAxisAngle(fcVec3_Normalize(fcV3(0.3, 1, 0.2)), 0.7);
    fcVec3 move = fcV3(2, -1, 0.5);
    for (int b = 0; b < 2; ++b) ENSURE(fcBody_SetTransform(boxes[b], fcVec3_Add(fcQuat_Rotate(turn, pos[b]), move), turn));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_GetContacts(boxes[0], &cd, 1) == 1 && cd.pointCount == 4);
    fcVec3 n = fcQuat_Rotate(turn, before.normal);
    ENSURE_NEAR(fcVec3_Length(fcVec3_Sub(cd.normal, n)), 0, 1e-12);
    for (int i = 0; i < 4; ++i) {
        fcVec3 p = fcVec3_Add(fcQuat_Rotate(turn, before.points[i].point), move);
        ENSURE_NEAR(fcVec3_Length(fcVec3_Sub(cd.points[i].point, p)), 0, 1e-9);
        ENSURE_NEAR(cd.points[i].separation, before.points[i].separation, 1e-12);
        ENSURE(cd.points[i].id == before.points[i].id);
    }
    fcDestroyWorld(w);
    return 0;
}

int main(int argc, char** argv)
{
    fc_testFilter = argc > 1 ? argv[1] : NULL;
    RUN_TEST(test_box_rests_on_ground);
    RUN_TEST(test_stack_of_five_carries_k_m_g);
    RUN_TEST(test_stack_of_ten_stands);
    RUN_TEST(test_pyramid_stands);
    RUN_TEST(test_pyramid_takes_an_impact);
    RUN_TEST(test_heavy_on_light);
    RUN_TEST(test_heavy_on_light_squeezed);
    RUN_TEST(test_heavy_on_light_through_joints);
    RUN_TEST(test_restitution_rebound);
    RUN_TEST(test_applied_force_gone_at_bounce);
    RUN_TEST(test_missing_points_do_nothing);
    RUN_TEST(test_no_tunnelling);
    RUN_TEST(test_no_tunnelling_while_turning);
    RUN_TEST(test_continuous_never_holds_a_slider);
    RUN_TEST(test_no_ghost_at_an_edge);
    RUN_TEST(test_no_ghost_at_a_seam);
    RUN_TEST(test_skier_leaves_real_dome);
    RUN_TEST(test_incline_rolls_and_slips);
    RUN_TEST(test_cylinder_rolls_at_speed);
    RUN_TEST(test_hinge_limit_and_motor);
    RUN_TEST(test_rope_slack_and_taut);
    RUN_TEST(test_events_sensors_filters);
    RUN_TEST(test_bad_shapes);
    RUN_TEST(test_queries);
    RUN_TEST(test_unseen_shape_catches_up);
    RUN_TEST(test_spring_beside_contacts);
    RUN_TEST(test_sleeping);
    RUN_TEST(test_sleeper_woken_before_it_is_hit);
    RUN_TEST(test_sleeper_wakes_when_its_support_is_moved);
    RUN_TEST(test_sleeper_wakes_when_gravity_changes);
    RUN_TEST(test_sleep_and_wake_by_hand);
    RUN_TEST(test_api_wakes_the_island);
    RUN_TEST(test_pushed_stack_sleeps_at_rest);
    RUN_TEST(test_pairs_taken_away_report_their_end);
    RUN_TEST(test_bounces_begin_and_end);
    RUN_TEST(test_sensor_sees_sleepers);
    RUN_TEST(test_timestep_change_keeps_forces);
    RUN_TEST(test_queries_follow_a_body_put_elsewhere);
    RUN_TEST(test_sleeper_wakes_when_its_support_is_destroyed);
    RUN_TEST(test_sleeper_wakes_when_its_joint_changes);
    RUN_TEST(test_filter_change_on_resting_pairs);
    RUN_TEST(test_pre_solve_and_joint_removal);
    RUN_TEST(test_rolling_and_spinning_resistance);
    RUN_TEST(test_friction_cone);
    RUN_TEST(test_spinning_slide_within_the_cone);
    RUN_TEST(test_patch_friction_slides_and_reports);
    RUN_TEST(test_turntable_holds_a_box);
    RUN_TEST(test_dynamic_turntable_holds_a_box);
    RUN_TEST(test_ball_orbits_on_a_turntable);
    RUN_TEST(test_spinning_box_stays_on_a_plate);
    RUN_TEST(test_fast_turntable_keeps_its_box);
    RUN_TEST(test_resting_pair_keeps_its_points);
    return fc_testFailures ? 1 : 0;
}
