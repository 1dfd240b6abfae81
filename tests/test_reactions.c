// SPDX-License-Identifier: MIT
// Reaction directions and moments with signs (a welded cantilever, a hinged rod), and joint closure of a
// 50-link chain whose last link is 1000 times heavier (the mass-ratio case iterative engines stretch).
#include "test_macros.h"

#include "fulcrum/fulcrum.h"

static const double g = 9.81;

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
    // about the beam's centre the weld's torque is moment + r x F = (0, -98.1, 0) + (-1, 0, 0) x (0, 0, 98.1)
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
    bd.angularVelocity = fcV3(0, 0, 0);
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
    // weight at (0, 0.5, 0): its moment about the anchor is (0, 0.5, 0) x (0, 0, -mg) = (-0.5 mg, 0, 0)
    ENSURE_NEAR(r.moment.x, 0.5 * mg, 1e-9 * mg);
    ENSURE_NEAR(r.moment.y, 0, 1e-9 * mg);
    ENSURE_NEAR(r.moment.z, 0, 1e-9 * mg);
    ENSURE_NEAR(r.momentLocal.z, 0, 1e-9 * mg);
    // a torque about the axis turns it freely: the angle follows tau / I_axis t^2 / 2 exactly at first order
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

enum { links = 50 };

// the S1 chain (benchmark-scenes.md): 50 box links of 1 kg on ball joints, horizontal at rest; the last link
// `heavy` times heavier (S2: 1000)
static fcWorldId fcBuildChain(double h, double heavy, fcJointId* joints)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = h;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyId prev = fc_nullBodyId;
    for (int i = 0; i < links; ++i) {
        double k = i == links - 1 ? heavy : 1;
        fcBodyDef bd = fcDefaultBodyDef();
        bd.position = fcV3(0.05 + 0.1 * i, 0, 0);
        bd.mass = k;
        bd.inertia = fcV3(6.667e-5 * k, 8.667e-4 * k, 8.667e-4 * k);
        fcBodyId b = fcCreateBody(w, &bd);
        fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
        jd.bodyA = prev;
        jd.bodyB = b;
        jd.anchor = fcV3(0.1 * i, 0, 0);
        joints[i] = fcCreateJoint(w, &jd);
        prev = b;
    }
    return w;
}

static double fcLargestSeparation(const fcJointId* joints)
{
    double worst = 0;
    for (int i = 0; i < links; ++i)
        worst = fmax(worst, fcVec3_Distance(fcJoint_GetAnchorA(joints[i]), fcJoint_GetAnchorB(joints[i])));
    return worst;
}

// The mass-ratio chain: the last link 1000 times heavier, released horizontally, h = 1/600 s for 5 s.
static int test_mass_ratio_chain(void)
{
    fcJointId joints[links];
    fcWorldId w = fcBuildChain(1.0 / 600, 1000, joints);
    double worst = 0, peak = 0;
    for (int s = 0; s < 3000; ++s) {
        ENSURE(fcWorld_Step(w));
        worst = fmax(worst, fcLargestSeparation(joints));
        peak = fmax(peak, fcVec3_Length(fcJoint_GetReaction(joints[links - 1]).force));
    }
    fcWorldStats st = fcWorld_GetStats(w);
    printf("  mass ratio 1000 chain, h = 1/600 s, 5 s: largest joint separation %.2e m, projection failures %d, "
           "fill %d, peak force on the heavy link %.0f N\n",
           worst, st.projectionFailures, st.fillIn, peak);
    ENSURE_LE(worst, 1e-9);
    ENSURE(st.projectionFailures == 0);
    ENSURE(st.fillIn == 0);
    // the heavy link hangs on the chain: at least its weight (the peak is the snap when the chain goes straight)
    ENSURE(peak > 1000 * g);
    fcDestroyWorld(w);
    return 0;
}

// S1 and S2 at h = 1/60 s for 10 s, where iterative engines tear the chain apart by metres: the joints stay
// closed (substeps take over on the hardest whip steps) and the S1 chain's energy never rises above its start.
static int test_chains_at_large_step(void)
{
    const double heavy[2] = {1, 1000};
    for (int c = 0; c < 2; ++c) {
        fcJointId joints[links];
        fcWorldId w = fcBuildChain(1.0 / 60, heavy[c], joints);
        double e0 = fcWorld_GetStats(w).energy, worst = 0, emax = -1e300;
        int retaken = 0;
        for (int s = 0; s < 600; ++s) {
            ENSURE(fcWorld_Step(w));
            worst = fmax(worst, fcLargestSeparation(joints));
            emax = fmax(emax, fcWorld_GetStats(w).energy);
            retaken += fcWorld_GetStats(w).substeps > 1;
        }
        fcWorldStats st = fcWorld_GetStats(w);
        printf("  S%d at h = 1/60 s: largest separation %.2e m, projection failures %d, steps split into substeps %d, "
               "E(10) = %.1f J, max E - E0 = %.3g J\n",
               c + 1, worst, st.projectionFailures, retaken, st.energy, emax - e0);
        ENSURE_LE(worst, 1e-9);
        ENSURE(st.projectionFailures == 0);
        ENSURE_LE(emax, e0);  // never above its start
        fcDestroyWorld(w);
    }
    return 0;
}

// A 50-link S1 chain hanging straight down at rest must stay at rest: its tension (up to 490 N) makes the
// links' rocking stiff, and a step that took that stiffness explicitly in one piece blew it up from round-off
static int test_hanging_chain_at_rest(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcQuat down = fcQuat_FromAxisAngle(fcV3(0, 1, 0), 3.14159265358979323846 / 2);  // body x onto -z
    fcBodyId prev = fc_nullBodyId, tip = fc_nullBodyId;
    for (int i = 0; i < links; ++i) {
        fcBodyDef bd = fcDefaultBodyDef();
        bd.position = fcV3(0, 0, -(0.05 + 0.1 * i));
        bd.orientation = down;
        bd.mass = 1;
        bd.inertia = fcV3(6.667e-5, 8.667e-4, 8.667e-4);
        tip = fcCreateBody(w, &bd);
        fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
        jd.bodyA = prev;
        jd.bodyB = tip;
        jd.anchor = fcV3(0, 0, -0.1 * i);
        fcCreateJoint(w, &jd);
        prev = tip;
    }
    double moved = 0;
    for (int s = 0; s < 600; ++s) {
        ENSURE(fcWorld_Step(w));
        moved = fmax(moved, fcVec3_Distance(fcBody_GetPosition(tip), fcV3(0, 0, -4.95)));
    }
    fcWorldStats st = fcWorld_GetStats(w);
    printf("  50 links hanging at rest, h = 1/60 s, 10 s: the tip moved %.2e m; %d substeps a step\n", moved, st.substeps);
    ENSURE_LE(moved, 1e-9);
    ENSURE(st.substeps >= 2);
    fcDestroyWorld(w);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_cantilever);
    RUN_TEST(test_hinge_moment);
    RUN_TEST(test_mass_ratio_chain);
    RUN_TEST(test_chains_at_large_step);
    RUN_TEST(test_hanging_chain_at_rest);
    TEST_MAIN_END();
}
