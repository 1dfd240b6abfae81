// SPDX-License-Identifier: MIT
// Reaction directions and moments with signs: a pendulum's pull on its bob (in the world and in the joint
// frame, for a ball joint on a turned pivot and for a hinge), a welded cantilever, a hinged horizontal rod.
// (The 50-link chains are in test_mass_ratio.c.)
#include "test_macros.h"

#include "fulcrum/fulcrum.h"

static const double g = 9.81;

// the case 1 bob: a sphere of 1 kg and radius 0.01 m (inertia 4e-5) whose centre is 1 m from the pivot
static const double bobInertia = 4e-5;

static double fcQuatDistance(fcQuat a, fcQuat b)
{
    // q and -q are the same rotation
    double d1 = fabs(a.w - b.w) + fabs(a.x - b.x) + fabs(a.y - b.y) + fabs(a.z - b.z);
    double d2 = fabs(a.w + b.w) + fabs(a.x + b.x) + fabs(a.y + b.y) + fabs(a.z + b.z);
    return fmin(d1, d2);
}

typedef struct SwingCheck {
    double worstCos;         // smallest cos(F, pivot - x_start) from t = 0.05 s on
    double worstTangential;  // max |F_t - exact F_t|, N
    double worstRadial;      // max |F_r - exact F_r| / 3 m g
    double worstLocal;       // max |forceLocal - R^T force| / 3 m g
    double worstLocalCos;    // smallest cos(forceLocal, direction to the pivot in the joint frame) from 0.05 s on
    double worstMoment;      // max |moment about the anchor|, N m
    double worstAxial;       // max |forceLocal.z|, |momentLocal.z| (hinge: along its axis), N or N m
} SwingCheck;

// Swing the bob from the horizontal for 0.8 s (through the bottom) at h = 1/240 and compare the joint's force
// on it, each step, with the exact wrench for the start-of-step state (the step's impulse acts along the
// start-of-step gradients). The bob is pinned 1 m from its centre, so it is a physical pendulum
// (I_p = m l^2 + I): the joint pulls it towards the pivot with m g cos(theta) (1 + 2 m l^2 / I_p) and holds it
// back along the swing with (I / I_p) of gravity's tangential pull, the part of the torque that spins the bob.
static int fcSwing(fcWorldId w, fcBodyId bob, fcJointId joint, fcQuat expectedFrame, SwingCheck* c)
{
    const double h = fcWorld_GetTimestep(w), ip = 1 + bobInertia;
    c->worstCos = c->worstLocalCos = 1;
    c->worstTangential = c->worstRadial = c->worstLocal = c->worstMoment = c->worstAxial = 0;
    for (int i = 0; i < (int)(0.8 / h); ++i) {
        fcVec3 x0 = fcBody_GetPosition(bob);
        ENSURE(fcWorld_Step(w));
        fcJointReaction r = fcJoint_GetReaction(joint);
        fcVec3 out = fcVec3_Normalize(x0);  // the pivot is at the origin
        double cosTheta = -out.z;
        fcVec3 gravity = fcV3(0, 0, -g);    // m = 1
        fcVec3 gravityTangential = fcVec3_MulAdd(gravity, -fcVec3_Dot(gravity, out), out);
        double radial = -fcVec3_Dot(r.force, out);
        fcVec3 tangential = fcVec3_MulAdd(r.force, radial, out);
        fcVec3 exactTangential = fcVec3_Scale(-bobInertia / ip, gravityTangential);
        c->worstTangential = fmax(c->worstTangential, fcVec3_Distance(tangential, exactTangential));
        c->worstRadial = fmax(c->worstRadial, fabs(radial - g * cosTheta * (1 + 2 / ip)) / (3 * g));
        // the joint frame is the one expected, and forceLocal is the force seen in it
        ENSURE_LE(fcQuatDistance(r.frame, expectedFrame), 1e-12);
        c->worstLocal = fmax(c->worstLocal, fcVec3_Distance(r.forceLocal, fcQuat_InvRotate(r.frame, r.force)) / (3 * g));
        fcVec3 inwardLocal = fcQuat_InvRotate(r.frame, fcVec3_Neg(out));
        if (fcWorld_GetTime(w) >= 0.05) {
            c->worstCos = fmin(c->worstCos, -fcVec3_Dot(r.force, out) / fcVec3_Length(r.force));
            c->worstLocalCos = fmin(c->worstLocalCos, fcVec3_Dot(r.forceLocal, inwardLocal) / fcVec3_Length(r.forceLocal));
        }
        c->worstMoment = fmax(c->worstMoment, fcVec3_Length(r.moment));
        c->worstAxial = fmax(c->worstAxial, fmax(fabs(r.forceLocal.z), fabs(r.momentLocal.z)));
    }
    return 0;
}

static fcWorldId fcPendulumWorld(fcBodyId* bob)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = 1.0 / 240;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(1, 0, 0);
    bd.mass = 1;
    bd.inertia = fcV3(bobInertia, bobInertia, bobInertia);
    *bob = fcCreateBody(w, &bd);
    return w;
}

// A ball joint hanging the bob from a static pivot body that is turned (so that the joint frame, body_a's
// frame for a ball joint, is not the world's): the force points at the pivot, in the world and in the frame;
// its sideways part is exactly the bob's spin share; the moment about the anchor is zero.
static int test_pendulum_ball_direction(void)
{
    fcBodyId bob;
    fcWorldId w = fcPendulumWorld(&bob);
    fcBodyDef pd = fcDefaultBodyDef();
    pd.type = fc_staticBody;
    pd.orientation = fcQuat_FromAxisAngle(fcV3(1, 2, 3), 0.7);
    fcBodyId pivot = fcCreateBody(w, &pd);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyA = pivot;
    jd.bodyB = bob;
    jd.anchor = fcV3(0, 0, 0);
    fcJointId joint = fcCreateJoint(w, &jd);
    SwingCheck c;
    ENSURE(fcSwing(w, bob, joint, fcBody_GetOrientation(pivot), &c) == 0);
    printf("  ball pendulum, pivot turned: cos(F, to pivot) >= %.8f (world), %.8f (joint frame); tangential part "
           "vs (I / I_p) m g_t: %.1e N (its size <= %.1e N); radial vs m g cos (1 + 2 m l^2 / I_p): %.1e of 3 m g; "
           "|forceLocal - R^T F| %.1e; moment about the anchor <= %.1e N m\n",
           c.worstCos, c.worstLocalCos, c.worstTangential, g * bobInertia, c.worstRadial, c.worstLocal, c.worstMoment);
    ENSURE(c.worstCos > 0.9999);
    ENSURE(c.worstLocalCos > 0.9999);
    ENSURE_LE(c.worstTangential, 1e-6);  // 0.25 % of the sideways part itself
    ENSURE_LE(c.worstRadial, 1e-4);
    ENSURE_LE(c.worstLocal, 1e-12);
    ENSURE_LE(c.worstMoment, 1e-9);
    fcDestroyWorld(w);
    return 0;
}

// The same bob on a hinge with axis y at the pivot: the joint frame's z is the axis, so forceLocal.z (along the
// axis) is zero, and so is the moment about the axis; the swing is planar and symmetric, so no bending either.
static int test_pendulum_hinge_direction(void)
{
    fcBodyId bob;
    fcWorldId w = fcPendulumWorld(&bob);
    fcJointDef jd = fcDefaultJointDef(fc_hingeJoint);
    jd.bodyB = bob;
    jd.anchor = fcV3(0, 0, 0);
    jd.axis = fcV3(0, 1, 0);
    fcJointId joint = fcCreateJoint(w, &jd);
    // the joint frame takes z to the axis
    fcJointReaction r0 = fcJoint_GetReaction(joint);
    ENSURE_LE(fcVec3_Distance(fcQuat_Rotate(r0.frame, fcV3(0, 0, 1)), fcV3(0, 1, 0)), 1e-12);
    SwingCheck c;
    ENSURE(fcSwing(w, bob, joint, r0.frame, &c) == 0);
    printf("  hinge pendulum (axis y): cos(F, to pivot) >= %.8f (world), %.8f (joint frame); tangential %.1e N; "
           "radial %.1e of 3 m g; along the axis |F|, |M| <= %.1e; moment about the anchor <= %.1e N m; angle %.4f "
           "rad\n",
           c.worstCos, c.worstLocalCos, c.worstTangential, c.worstRadial, c.worstAxial, c.worstMoment,
           fcJoint_GetCoordinate(joint));
    ENSURE(c.worstCos > 0.9999);
    ENSURE(c.worstLocalCos > 0.9999);
    ENSURE_LE(c.worstTangential, 1e-6);
    ENSURE_LE(c.worstRadial, 1e-4);
    ENSURE_LE(c.worstLocal, 1e-12);
    ENSURE_LE(c.worstAxial, 1e-9);
    ENSURE_LE(c.worstMoment, 1e-9);
    // after 0.8 s the bob (released at +x) has passed the bottom (the quarter swing takes 0.59 s)
    ENSURE(fcBody_GetPosition(bob).x < 0);
    fcDestroyWorld(w);
    return 0;
}

// A 2 m beam of 10 kg welded to the world at its left end (x = 0), horizontal along +x, gravity -z. Once at
// rest the weld carries the weight up (+z) and a moment about the weld balancing the weight's moment
// r x (-m g z) = (1, 0, 0) x (0, 0, -98.1) = (0, +98.1, 0): the weld's moment on the beam is (0, -98.1, 0).
static int test_cantilever(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(1, 0, 0);
    fcBodyId beam = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_boxShape;
    sd.halfExtents = fcV3(1, 0.05, 0.05);
    sd.density = 10.0 / 0.02;  // 2 x 0.1 x 0.1 m = 0.02 m^3, 10 kg
    fcCreateShape(beam, &sd);
    ENSURE_NEAR(fcBody_GetMass(beam), 10, 1e-12);
    fcJointDef jd = fcDefaultJointDef(fc_fixedJoint);
    jd.bodyB = beam;
    jd.anchor = fcV3(0, 0, 0);
    jd.axis = fcV3(1, 0, 0);
    fcJointId weld = fcCreateJoint(w, &jd);
    for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
    fcJointReaction r = fcJoint_GetReaction(weld);
    double mg = 10 * g;
    printf("  cantilever: force (%.9f, %.9f, %.9f) N, moment about the weld (%.9f, %.9f, %.9f) N m\n", r.force.x,
           r.force.y, r.force.z, r.moment.x, r.moment.y, r.moment.z);
    ENSURE_NEAR(r.force.z, mg, 1e-9 * mg);
    ENSURE_NEAR(r.force.x, 0, 1e-9 * mg);
    ENSURE_NEAR(r.force.y, 0, 1e-9 * mg);
    ENSURE_NEAR(r.moment.y, -mg * 1.0, 1e-9 * mg);
    ENSURE_NEAR(r.moment.x, 0, 1e-9 * mg);
    ENSURE_NEAR(r.moment.z, 0, 1e-9 * mg);
    // about the beam's centre the weld's torque is moment + r x F = (0, -98.1, 0) + (-1, 0, 0) x (0, 0, 98.1) = 0
    ENSURE_NEAR(r.torque.y, 0, 1e-9 * mg);
    // in the joint frame (z along the weld's axis +x) the bending moment lies in the frame's x-y plane
    ENSURE_NEAR(r.momentLocal.z, 0, 1e-9 * mg);
    ENSURE_NEAR(fcVec3_Length(r.momentLocal), mg, 1e-9 * mg);
    ENSURE_NEAR(r.forceLocal.z, 0, 1e-9 * mg);
    fcDestroyWorld(w);
    return 0;
}

// A horizontal rod on a hinge with a vertical axis: it may turn about z but not droop. The hinge carries the
// weight and the bending moment about the horizontal; its moment about its own axis is zero.
static int test_hinge_moment(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0.5, 0);
    bd.mass = 3;
    bd.inertia = fcV3(0.1, 0.01, 0.1);
    fcBodyId rod = fcCreateBody(w, &bd);
    fcJointDef jd = fcDefaultJointDef(fc_hingeJoint);
    jd.bodyB = rod;
    jd.anchor = fcV3(0, 0, 0);
    jd.axis = fcV3(0, 0, 1);
    fcJointId hinge = fcCreateJoint(w, &jd);
    for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
    fcJointReaction r = fcJoint_GetReaction(hinge);
    double mg = 3 * g;
    printf("  hinge: force (%.6f, %.6f, %.6f), moment (%.6f, %.6f, %.6f), angle %.3e rad\n", r.force.x, r.force.y,
           r.force.z, r.moment.x, r.moment.y, r.moment.z, fcJoint_GetCoordinate(hinge));
    ENSURE_NEAR(r.force.z, mg, 1e-9 * mg);
    ENSURE_NEAR(r.force.x, 0, 1e-9 * mg);
    ENSURE_NEAR(r.force.y, 0, 1e-9 * mg);
    // weight at (0, 0.5, 0): its moment about the anchor is (0, 0.5, 0) x (0, 0, -mg) = (-0.5 mg, 0, 0)
    ENSURE_NEAR(r.moment.x, 0.5 * mg, 1e-9 * mg);
    ENSURE_NEAR(r.moment.y, 0, 1e-9 * mg);
    ENSURE_NEAR(r.moment.z, 0, 1e-9 * mg);
    ENSURE_NEAR(r.momentLocal.z, 0, 1e-9 * mg);
    // a torque about the axis turns it freely: the angle follows tau / I_axis t^2 / 2
    fcBody_SetTorque(rod, fcV3(0, 0, 0.2));
    for (int i = 0; i < 60; ++i) ENSURE(fcWorld_Step(w));
    double izz = 0.1 + 3 * 0.25;  // about the hinge axis through the anchor
    double t = 1.0;
    ENSURE_NEAR(fcJoint_GetCoordinateRate(hinge), 0.2 / izz * t, 1e-5 * 0.2 / izz * t);
    ENSURE_NEAR(fcJoint_GetCoordinate(hinge), 0.2 / izz * t * t / 2, 0.02 * 0.2 / izz * t * t / 2);
    ENSURE_NEAR(fcJoint_GetReaction(hinge).momentLocal.z, 0, 1e-9);
    fcDestroyWorld(w);
    return 0;
}

// A joint's force in its frame is read in the frame of the step's start, where the rows whose impulses it reports
// were built: a bead on a frictionless slider along an arm turning at 3 rad/s (no gravity) is pushed across the
// arm only, nothing along it (read in the end-of-step frame, the push showed an axial part of w h |F|).
static int test_slider_on_turning_arm(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.gravity = fcV3(0, 0, 0);
    wd.timestep = 1.0 / 240;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.type = fc_kinematicBody;
    bd.angularVelocity = fcV3(0, 0, 3);
    fcBodyId arm = fcCreateBody(w, &bd);
    bd = fcDefaultBodyDef();
    bd.position = fcV3(0.5, 0, 0);
    bd.linearVelocity = fcV3(0, 1.5, 0);  // turning with the arm
    bd.angularVelocity = fcV3(0, 0, 3);
    bd.mass = 0.5;
    bd.inertia = fcV3(1e-3, 1e-3, 1e-3);
    fcBodyId bead = fcCreateBody(w, &bd);
    fcJointDef jd = fcDefaultJointDef(fc_sliderJoint);
    jd.bodyA = arm;
    jd.bodyB = bead;
    jd.anchor = fcV3(0.5, 0, 0);
    jd.axis = fcV3(1, 0, 0);
    fcJointId slider = fcCreateJoint(w, &jd);
    ENSURE(FC_IS_NON_NULL(slider));
    double worstAxial = 0;
    for (int i = 0; i < 60; ++i) {
        ENSURE(fcWorld_Step(w));
        worstAxial = fmax(worstAxial, fabs(fcJoint_GetReaction(slider).forceLocal.z));
    }
    // the push grows with the bead's outward speed (Coriolis, 2 m w dr/dt): over 1 N by the end
    double push = fcVec3_Length(fcJoint_GetReaction(slider).force);
    printf("  bead on a turning arm: axial force in the joint frame at most %.2e N (the push %.3f N at the end)\n", worstAxial, push);
    ENSURE(push > 1);
    ENSURE_LE(worstAxial, 1e-12 * push);
    fcDestroyWorld(w);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_pendulum_ball_direction);
    RUN_TEST(test_pendulum_hinge_direction);
    RUN_TEST(test_cantilever);
    RUN_TEST(test_hinge_moment);
    RUN_TEST(test_slider_on_turning_arm);
    TEST_MAIN_END();
}
