// SPDX-License-Identifier: MIT
// One-sided constraints (f >= 0, lambda >= 0) and their release event: the skier of cases.md case 4 on a
// frictionless dome, as a unilateral user constraint f = |x - c| - R >= 0. The multiplier is the normal
// force m g (3 cos(theta) - 2); its zero, at cos(theta*) = 2/3 (48.19 deg), is the take-off.
#include "test_macros.h"

#include "fulcrum/fulcrum.h"

#include <string.h>

static const double g = 9.81, pi = 3.14159265358979323846;
static const double R = 5, m = 70;

static void fcDomeRow(const fcUserConstraintState* s, fcUserConstraintRow* rows, void* context)
{
    (void)context;
    fcVec3 d = s->position[1];  // the dome's centre is the world origin
    fcReal len = fcVec3_Length(d);
    fcVec3 u = fcVec3_Scale(1 / len, d);
    rows[0].jacobian[1][0] = u.x, rows[0].jacobian[1][1] = u.y, rows[0].jacobian[1][2] = u.z;
    rows[0].error = len - R;
}

typedef struct Skier {
    double releaseAngle, releaseSpeed, releaseTime, worstForce;
    int releases, holds;
    double flightGap;  // how far above the dome the skier is 0.3 s after the release
} Skier;

static int fcRunSkier(double h, Skier* out)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = h;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, R);
    bd.linearVelocity = fcV3(0.05, 0, 0);  // the nudge: shifts the take-off by 1e-3 deg
    bd.mass = m;
    bd.inertia = fcV3(1, 1, 1);
    fcBodyId skier = fcCreateBody(w, &bd);
    fcUserConstraintDef ud = fcDefaultUserConstraintDef();
    ud.bodyB = skier;
    ud.unilateral = true;
    ud.fcn = fcDomeRow;
    ud.name = "dome";
    fcJointId dome = fcCreateUserConstraint(w, &ud);
    ENSURE(FC_IS_NON_NULL(dome));
    memset(out, 0, sizeof *out);
    double releasedAt = -1;
    for (int i = 0; i < (int)(6 / h); ++i) {
        fcVec3 x0 = fcBody_GetPosition(skier);
        ENSURE(fcWorld_Step(w));
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
            fcConstraintEvent ev = fcWorld_GetEvent(w, e);
            ENSURE(FC_ID_EQUALS(ev.joint, dome));
            if (ev.type == fc_eventHold) {
                // resting on the dome at the start, the constraint takes hold in the first step
                ENSURE(releasedAt < 0 && ev.time < 2 * h);
                out->holds += 1;
                continue;
            }
            out->releases += 1;
            // the state at the event's time, from the step's start state
            double dt = ev.time - (fcWorld_GetTime(w) - h);
            fcVec3 x = fcVec3_MulAdd(ev.positionB, dt, ev.velocityB);
            out->releaseAngle = acos(x.z / fcVec3_Length(x)) * 180 / pi;
            out->releaseSpeed = fcVec3_Length(ev.velocityB);
            out->releaseTime = ev.time;
            releasedAt = fcWorld_GetTime(w);
            ENSURE(ev.forceBefore > 0 && ev.forceBefore < 0.05 * m * g);
        }
        // the normal force, before the release: m g (3 cos - 2) at the step's start state
        double cosTheta = x0.z / fcVec3_Length(x0);
        double force = fcJoint_GetReaction(dome).lambda[0];
        ENSURE(force >= 0);  // it can only push
        if (releasedAt < 0) out->worstForce = fmax(out->worstForce, fabs(force - m * g * (3 * cosTheta - 2)) / (m * g));
        if (releasedAt > 0 && fcWorld_GetTime(w) > releasedAt + 0.3 && out->flightGap == 0)
            out->flightGap = fcVec3_Length(fcBody_GetPosition(skier)) - R;
    }
    fcDestroyWorld(w);
    return 0;
}

static int test_skier_release(void)
{
    Skier a, b;
    ENSURE(fcRunSkier(1.0 / 240, &a) == 0);
    ENSURE(fcRunSkier(1.0 / 1000, &b) == 0);
    double exactAngle = acos(2.0 / 3.0) * 180 / pi, exactSpeed = sqrt(2 * g * R / 3);
    printf("  skier: release at %.4f deg (h = 1/240), %.4f deg (1/1000), exact %.4f; speed %.4f / %.4f m/s (exact "
           "%.4f); normal force within %.2e / %.2e m g of m g (3 cos - 2); %d / %d releases, %.3f m above the dome "
           "0.3 s later\n",
           a.releaseAngle, b.releaseAngle, exactAngle, a.releaseSpeed, b.releaseSpeed, exactSpeed, a.worstForce,
           b.worstForce, a.releases, b.releases, b.flightGap);
    ENSURE(a.releases == 1 && b.releases == 1);
    ENSURE(a.holds == 1 && b.holds == 1);  // once at the start, never again after the take-off
    ENSURE_NEAR(a.releaseAngle, exactAngle, 0.5);
    ENSURE_NEAR(b.releaseAngle, exactAngle, 0.05);
    ENSURE_NEAR(a.releaseSpeed, exactSpeed, 0.01 * exactSpeed);
    ENSURE_NEAR(b.releaseSpeed, exactSpeed, 0.01 * exactSpeed);
    ENSURE_LE(a.worstForce, 0.02);
    ENSURE_LE(b.worstForce, 0.02);
    ENSURE(b.flightGap > 0.05);  // free flight: it leaves the surface
    return 0;
}

// a 1 kg point mass on a massless lever of 0.5 m along x, hinged at the origin about y with a stop at the horizontal
// (limits [-1, 0]): gravity holds it on the stop with m g l
static fcJointId fcLeverOnStop(fcWorldId w, fcBodyId* bob)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0.5, 0, 0);
    bd.mass = 1;
    bd.inertia = fcV3(1e-4, 1e-4, 1e-4);
    *bob = fcCreateBody(w, &bd);
    fcJointDef jd = fcDefaultJointDef(fc_hingeJoint);
    jd.bodyB = *bob;
    jd.axis = fcV3(0, 1, 0);
    jd.enableLimit = true;
    jd.lowerLimit = -1;
    jd.upperLimit = 0;
    return fcCreateJoint(w, &jd);
}

// steps n times; counts the joint's events of a type, keeping the last
static bool fcStepCounting(fcWorldId w, int n, fcEventType type, int* count, fcConstraintEvent* last)
{
    for (int i = 0; i < n; ++i) {
        if (!fcWorld_Step(w)) return false;
        for (int e = 0; e < fcWorld_GetEventCount(w); ++e) {
            fcConstraintEvent ev = fcWorld_GetEvent(w, e);
            if (ev.type != type) continue;
            *count += 1;
            *last = ev;
        }
    }
    return true;
}

// A joint's stop is a one-sided constraint: it reports taking hold and letting go like a rope or a contact. A lever
// resting on its stop takes hold once; knocked off it by an impulse, it lets go, dated within the step whose start
// state the knock changed, with the force it carried (m g l = 4.905 N m) as forceBefore; driven off by a motor, it
// lets go at the step's start. A stop never reported letting go (its last force was kept for ropes alone), and
// setting the same limits again reported a new hold. A rope made taut under its load reports no hold: it holds from
// the start. A joint between two bodies that never move is refused, and so is a soft rope made by fcJoint_SetSpring.
static int test_stop_events(void)
{
    const double h = 1.0 / 240, mgl = g * 0.5;
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = h;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyId bob;
    fcJointId hinge = fcLeverOnStop(w, &bob);
    int holds = 0, releases = 0;
    fcConstraintEvent ev;
    ENSURE(fcStepCounting(w, 48, fc_eventHold, &holds, &ev) && holds == 1);
    ENSURE(fcJoint_SetLimits(hinge, true, -1, 0));  // the same stop: no new hold
    ENSURE(fcStepCounting(w, 24, fc_eventHold, &holds, &ev) && holds == 1);
    double knocked = fcWorld_GetTime(w);
    ENSURE(fcBody_ApplyImpulse(bob, fcV3(0, 0, 1), fcBody_GetPosition(bob)));
    ENSURE(fcStepCounting(w, 2, fc_eventRelease, &releases, &ev) && releases == 1);
    printf("  a lever knocked off its stop at t = %.6f s: released at %.6f s, carrying %.6f N m before (m g l = %.6f)\n",
           knocked, ev.time, ev.forceBefore, mgl);
    ENSURE(ev.time >= knocked - h - 1e-12 && ev.time <= knocked + 1e-12);
    ENSURE_NEAR(ev.forceBefore, mgl, 1e-6 * mgl);
    fcDestroyWorld(w);

    w = fcCreateWorld(&wd);
    hinge = fcLeverOnStop(w, &bob);
    holds = releases = 0;
    ENSURE(fcStepCounting(w, 48, fc_eventHold, &holds, &ev) && holds == 1);
    double driven = fcWorld_GetTime(w);
    ENSURE(fcJoint_SetMotor(hinge, true, -2, 50));  // lifting it off the stop
    ENSURE(fcStepCounting(w, 1, fc_eventRelease, &releases, &ev) && releases == 1);
    ENSURE(ev.time == driven);
    ENSURE_NEAR(ev.forceBefore, mgl, 1e-6 * mgl);
    fcDestroyWorld(w);

    // a taut rope under its load holds from the start
    w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, -1);
    bd.mass = 1;
    bd.inertia = fcV3(1, 1, 1);
    fcBodyId load = fcCreateBody(w, &bd);
    fcJointDef rd = fcDefaultJointDef(fc_ropeJoint);
    rd.bodyB = load;
    rd.anchorB = fcV3(0, 0, -1);
    rd.length = 1;
    fcJointId rope = fcCreateJoint(w, &rd);
    ENSURE(FC_IS_NON_NULL(rope));
    holds = 0;
    ENSURE(fcStepCounting(w, 48, fc_eventHold, &holds, &ev) && holds == 0);
    ENSURE_NEAR(fcJoint_GetReaction(rope).lambda[0], g, 1e-9);
    ENSURE(!fcJoint_SetSpring(rope, 100, 0) && strstr(fcGetLastError(), "a rope cannot be soft") != NULL);
    // bodies that never move
    bd.type = fc_staticBody;
    fcBodyId post = fcCreateBody(w, &bd), wall = fcCreateBody(w, &bd);
    fcJointDef fd = fcDefaultJointDef(fc_ballJoint);
    fd.bodyA = post;
    fd.bodyB = wall;
    ENSURE(FC_IS_NULL(fcCreateJoint(w, &fd)) && strstr(fcGetLastError(), "both bodies are static") != NULL);
    fd.bodyA = fc_nullBodyId;
    ENSURE(FC_IS_NULL(fcCreateJoint(w, &fd)) && strstr(fcGetLastError(), "both bodies are static") != NULL);
    ENSURE(fcWorld_GetJointCount(w) == 1);
    fcDestroyWorld(w);
    return 0;
}

// Limits with lower == upper lock the coordinate: the lever held level by the lock reports the upper stop's torque,
// -m g l (as limits [-1, 0] do), with no events (its one-sided row guarded the lower side at the step's start and
// the upper one once the angle rounded past 0: 3 m g l, of the wrong sign). A motor driving into the lock stalls,
// pushing with its bound, the lock taking the rest. Limits switched on between steps leave the last step's motor
// and limit forces where they were (the motor's load was read as the limit's).
static int test_limit_lock(void)
{
    const double h = 1.0 / 120, mgl = g * 0.5;
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = h;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyId bob;
    fcJointId hinge = fcLeverOnStop(w, &bob);
    ENSURE(fcJoint_SetLimits(hinge, true, 0, 0));
    int events = 0;
    fcConstraintEvent ev;
    ENSURE(fcStepCounting(w, 60, fc_eventHold, &events, &ev) && fcStepCounting(w, 60, fc_eventRelease, &events, &ev));
    fcJointReaction r = fcJoint_GetReaction(hinge);
    printf("  a lever locked level: %.9f N m (exact -m g l = %.9f), angle %.2e rad\n", r.limitForce, -mgl,
           fcJoint_GetCoordinate(hinge));
    ENSURE(events == 0 && r.atLimit);
    ENSURE_NEAR(r.limitForce, -mgl, 1e-9 * mgl);
    ENSURE_NEAR(fcJoint_GetCoordinate(hinge), 0, 1e-9);
    ENSURE(fcJoint_SetMotor(hinge, true, 2, 1));  // driving it down (+q) with at most 1 N m
    ENSURE(fcStepCounting(w, 30, fc_eventRelease, &events, &ev) && events == 0);
    r = fcJoint_GetReaction(hinge);
    ENSURE_NEAR(r.motorForce, 1, 1e-9);
    ENSURE_NEAR(r.limitForce, -mgl - 1, 1e-9 * mgl);
    ENSURE_NEAR(fcJoint_GetCoordinate(hinge), 0, 1e-9);
    fcDestroyWorld(w);

    // a motor holding the lever level; limits switched on and off between steps
    w = fcCreateWorld(&wd);
    hinge = fcLeverOnStop(w, &bob);
    ENSURE(fcJoint_SetLimits(hinge, false, 0, 0) && fcJoint_SetMotor(hinge, true, 0, 50));
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    double held = fcJoint_GetReaction(hinge).motorForce;
    ENSURE_NEAR(held, -mgl, 1e-9 * mgl);
    ENSURE(fcJoint_SetLimits(hinge, true, -1, 1));
    r = fcJoint_GetReaction(hinge);
    ENSURE(r.motorForce == held && r.limitForce == 0);
    ENSURE(fcJoint_SetLimits(hinge, false, 0, 0));
    ENSURE(fcJoint_GetReaction(hinge).motorForce == held);
    fcDestroyWorld(w);
    return 0;
}

// a one-sided row must be holonomic and single
static int test_unilateral_def(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.mass = 1;
    bd.inertia = fcV3(1, 1, 1);
    fcBodyId b = fcCreateBody(w, &bd);
    fcUserConstraintDef ud = fcDefaultUserConstraintDef();
    ud.bodyB = b;
    ud.fcn = fcDomeRow;
    ud.unilateral = true;
    ud.holonomic = false;
    fcClearError();
    ENSURE(FC_IS_NULL(fcCreateUserConstraint(w, &ud)));
    ENSURE(strstr(fcGetLastError(), "unilateral constraint is one holonomic row") != NULL);
    ud.holonomic = true;
    ud.rowCount = 2;
    ENSURE(FC_IS_NULL(fcCreateUserConstraint(w, &ud)));
    ENSURE(fcWorld_GetJointCount(w) == 0);
    // a stale body: the message names the function called (it named fcCreateJoint)
    ud.rowCount = 1;
    fcDestroyBody(b);
    ENSURE(FC_IS_NULL(fcCreateUserConstraint(w, &ud)) && strstr(fcGetLastError(), "fcCreateUserConstraint (bodyB)") != NULL);
    // an event index out of range is refused with its reason
    ENSURE(fcWorld_Step(w));
    fcClearError();
    fcConstraintEvent e = fcWorld_GetEvent(w, 3);
    ENSURE(e.time == 0 && FC_IS_NULL(e.joint));
    ENSURE(strstr(fcGetLastError(), "out of range") != NULL);
    fcDestroyWorld(w);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_skier_release);
    RUN_TEST(test_stop_events);
    RUN_TEST(test_limit_lock);
    RUN_TEST(test_unilateral_def);
    TEST_MAIN_END();
}
