// SPDX-License-Identifier: MIT
// Bad input through the C API: every refused call names its fault, returns a null id or false, and leaves
// the world exactly as it was (same counts, and the same trajectory afterwards). Plus mass properties.
#include "test_macros.h"

#include "fulcrum/fulcrum.h"

#include <stdio.h>
#include <string.h>

typedef struct Pendulum {
    fcWorldId world;
    fcBodyId bob;
    fcJointId joint;
} Pendulum;

static Pendulum fcMakePendulum(void)
{
    Pendulum p;
    fcWorldDef wd = fcDefaultWorldDef();
    p.world = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.name = "bob";
    bd.position = fcV3(1, 0, 0);
    bd.mass = 1;
    bd.inertia = fcV3(4e-5, 4e-5, 4e-5);
    p.bob = fcCreateBody(p.world, &bd);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyB = p.bob;
    p.joint = fcCreateJoint(p.world, &jd);
    return p;
}

static int test_bad_input_changes_nothing(void)
{
    Pendulum ref = fcMakePendulum();
    Pendulum p = fcMakePendulum();
    fcWorldId w = p.world;

    fcBodyDef bd = fcDefaultBodyDef();
    bd.mass = -1;
    bd.inertia = fcV3(1, 1, 1);
    ENSURE(FC_IS_NULL(fcCreateBody(w, &bd)));
    ENSURE_ERROR(fcCreateBody(w, &bd), "mass must be > 0");
    bd.mass = NAN;
    ENSURE_ERROR(fcCreateBody(w, &bd), "mass must be > 0");
    bd.mass = 1;
    bd.inertia = fcV3(1, -1, 1);
    ENSURE_ERROR(fcCreateBody(w, &bd), "inertia must be symmetric positive definite");
    bd.inertia = fcV3(1, 1, 1);
    bd.position = fcV3(INFINITY, 0, 0);
    ENSURE_ERROR(fcCreateBody(w, &bd), "position is not finite");
    bd.position = fcV3(0, 0, 0);
    bd.orientation.w = 2;
    ENSURE_ERROR(fcCreateBody(w, &bd), "unit quaternion");
    fcBodyDef raw;
    memset(&raw, 0, sizeof raw);
    ENSURE_ERROR(fcCreateBody(w, &raw), "fcDefaultBodyDef");

    fcJointDef jd = fcDefaultJointDef(fc_hingeJoint);
    jd.bodyB = p.bob;
    jd.axis = fcV3(0, 0, 0);
    ENSURE(FC_IS_NULL(fcCreateJoint(w, &jd)));
    ENSURE_ERROR(fcCreateJoint(w, &jd), "axis must be a non-zero direction");
    jd.axis = fcV3(0, 0, 1);
    jd.anchor = fcV3(NAN, 0, 0);
    ENSURE_ERROR(fcCreateJoint(w, &jd), "anchor is not finite");
    jd.anchor = fcV3(0, 0, 0);
    jd.bodyB = fc_nullBodyId;
    ENSURE_ERROR(fcCreateJoint(w, &jd), "bodyB must be a body");
    jd.bodyB = p.bob;
    jd.bodyA = p.bob;
    ENSURE_ERROR(fcCreateJoint(w, &jd), "same body");
    jd.bodyA = fc_nullBodyId;
    jd.stiffness = -5;
    ENSURE_ERROR(fcCreateJoint(w, &jd), "stiffness and damping must be finite and >= 0");
    jd.stiffness = 0;

    // a body of another world, and ids gone stale
    fcBodyId foreign = ref.bob;
    jd.bodyB = foreign;
    ENSURE_ERROR(fcCreateJoint(w, &jd), "belongs to another world");
    fcBodyDef tmp = fcDefaultBodyDef();
    tmp.mass = 1;
    tmp.inertia = fcV3(1, 1, 1);
    fcBodyId gone = fcCreateBody(w, &tmp);
    fcDestroyBody(gone);
    ENSURE(!fcBody_IsValid(gone));
    jd.bodyB = gone;
    ENSURE_ERROR(fcCreateJoint(w, &jd), "stale body id");
    ENSURE_ERROR(fcBody_SetLinearVelocity(gone, fcV3(1, 0, 0)), "stale body id");
    ENSURE_ERROR(fcBody_SetForce(p.bob, fcV3(NAN, 0, 0)), "force is not finite");
    ENSURE_ERROR(fcBody_SetMassProperties(p.bob, 0, fcV3(1, 1, 1)), "mass must be > 0");
    ENSURE_ERROR(fcWorld_SetTimestep(w, -1), "timestep must be in [1e-9, 1]");
    ENSURE_ERROR(fcWorld_SetTimestep(w, 5e-324), "timestep must be in [1e-9, 1]");
    // values that pass "> 0" but whose inverses overflow: a denormal mass, an inertia of 1e308 (infinite
    // determinant), a denormal moment
    ENSURE_ERROR(fcBody_SetMassProperties(p.bob, 5e-324, fcV3(1, 1, 1)), "its inverse overflows");
    ENSURE_ERROR(fcBody_SetMassProperties(p.bob, 1, fcV3(1e308, 1e308, 1e308)), "cannot be inverted");
    ENSURE_ERROR(fcBody_SetMassProperties(p.bob, 1, fcV3(5e-324, 1, 1)), "cannot be inverted");
    // and a mass whose inverse is denormal: a 1.7e308 kg bob reported 9.81 N where m g overflows
    ENSURE_ERROR(fcBody_SetMassProperties(p.bob, 1.7e308, fcV3(1, 1, 1)), "mass 1.7e+308 is too large");
    fcBodyDef tiny = fcDefaultBodyDef();
    tiny.mass = 5e-324;
    tiny.inertia = fcV3(1, 1, 1);
    ENSURE_ERROR(fcCreateBody(w, &tiny), "with a finite, normal inverse");
    tiny.mass = 1.7e308;
    ENSURE_ERROR(fcCreateBody(w, &tiny), "with a finite, normal inverse");
    ENSURE_ERROR(fcWorld_FindBody(w, NULL), "name is NULL");
    ENSURE(!fcJointType_FromName("ball", NULL));
    ENSURE_ERROR(fcJointType_FromName("ball", NULL), "type is NULL");
    ENSURE_ERROR(fcWorld_SetBaumgarte(w, 2), "Baumgarte factor");
    ENSURE_ERROR(fcWorld_SetProjection(w, 0, 10), "projection tolerance");
    ENSURE_ERROR(fcWorld_SetStabilization(w, (fcStabilization)7), "invalid stabilization");

    fcUserConstraintDef ud = fcDefaultUserConstraintDef();
    ud.bodyB = p.bob;
    ENSURE_ERROR(fcCreateUserConstraint(w, &ud), "fcn (the row callback) is NULL");
    fcJointDef cd = fcDefaultJointDef(fc_couplingJoint);
    cd.jointA = p.joint;
    cd.jointB = p.joint;
    ENSURE_ERROR(fcCreateJoint(w, &cd), "two different joints");

    fcWorldId stale = fcCreateWorld(&(fcWorldDef){0});
    ENSURE(FC_IS_NULL(stale));
    ENSURE_ERROR(fcWorld_Step(stale), "invalid world id");

    // nothing changed: the same counts and the same motion as the untouched reference
    ENSURE(fcWorld_GetBodyCount(w) == 1 && fcWorld_GetJointCount(w) == 1);
    for (int i = 0; i < 60; ++i) {
        ENSURE(fcWorld_Step(w));
        ENSURE(fcWorld_Step(ref.world));
    }
    fcVec3 a = fcBody_GetPosition(p.bob), b = fcBody_GetPosition(ref.bob);
    ENSURE(a.x == b.x && a.y == b.y && a.z == b.z);
    ENSURE(fcJoint_GetReaction(p.joint).force.z == fcJoint_GetReaction(ref.joint).force.z);
    fcDestroyWorld(w);
    fcDestroyWorld(ref.world);
    ENSURE_ERROR(fcBody_GetPosition(p.bob), "invalid body id");
    ENSURE_ERROR(fcJoint_GetReaction(p.joint), "invalid joint id");
    // a world made later in the same slot does not answer to the old ids
    Pendulum again = fcMakePendulum();
    ENSURE(again.world.index1 == p.world.index1 || again.world.index1 == ref.world.index1);
    ENSURE(!fcBody_IsValid(p.bob) && !fcBody_IsValid(ref.bob));
    ENSURE_ERROR(fcBody_GetPosition(p.bob), "body id");
    ENSURE_ERROR(fcJoint_GetReaction(ref.joint), "joint id");
    ENSURE(fcBody_IsValid(again.bob));
    fcDestroyWorld(again.world);
    return 0;
}

// A user row that turns NaN refuses the step and leaves the state as it was.
static void fcNanRow(const fcUserConstraintState* s, fcUserConstraintRow* rows, void* ctx)
{
    (void)ctx;
    rows[0].jacobian[1][2] = 1;
    rows[0].error = s->time > 0.05 ? NAN : 0;
}

static int test_nonfinite_user_row(void)
{
    Pendulum p = fcMakePendulum();
    fcUserConstraintDef ud = fcDefaultUserConstraintDef();
    ud.bodyB = p.bob;
    ud.fcn = fcNanRow;
    ud.name = "nan";
    ENSURE(FC_IS_NON_NULL(fcCreateUserConstraint(p.world, &ud)));
    int steps = 0;
    while (steps < 10 && fcWorld_Step(p.world)) ++steps;
    ENSURE(steps < 10);
    ENSURE(strstr(fcGetLastError(), "non-finite") != NULL);
    fcVec3 before = fcBody_GetPosition(p.bob);
    fcReal t = fcWorld_GetTime(p.world);
    ENSURE(!fcWorld_Step(p.world));
    ENSURE(fcWorld_GetTime(p.world) == t);
    fcVec3 after = fcBody_GetPosition(p.bob);
    ENSURE(before.x == after.x && before.z == after.z);
    fcDestroyWorld(p.world);
    return 0;
}

// A soft joint whose stiffness and damping are too small for the step (1 / (h (h k + c)) overflows) is refused at
// the step like a non-finite row; the world is left as it was.
static int test_too_soft_joint(void)
{
    Pendulum p = fcMakePendulum();
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyB = p.bob;
    jd.anchor = fcV3(1, 0, 1);
    jd.stiffness = 5e-324;
    ENSURE(FC_IS_NON_NULL(fcCreateJoint(p.world, &jd)));
    fcClearError();
    ENSURE(!fcWorld_Step(p.world));
    ENSURE(strstr(fcGetLastError(), "joint 2") != NULL && strstr(fcGetLastError(), "overflows") != NULL);
    ENSURE(fcWorld_GetTime(p.world) == 0);
    fcVec3 x = fcBody_GetPosition(p.bob);
    ENSURE(x.x == 1 && x.y == 0 && x.z == 0);
    fcDestroyWorld(p.world);
    return 0;
}

static int test_mass_from_shapes(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    fcBodyId b = fcCreateBody(w, &bd);
    ENSURE_ERROR(fcWorld_Step(w), "has no mass or inertia");
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_boxShape;
    sd.halfExtents = fcV3(0.5, 0.25, 0.1);
    sd.density = 100;
    ENSURE(FC_IS_NON_NULL(fcCreateShape(b, &sd)));
    double m = 100 * 1.0 * 0.5 * 0.2;
    ENSURE_NEAR(fcBody_GetMass(b), m, 1e-12);
    fcVec3 I = fcBody_GetInertia(b);
    ENSURE_NEAR(I.x, m * (0.25 + 0.04) / 12, 1e-12);
    ENSURE_NEAR(I.z, m * (1.0 + 0.25) / 12, 1e-12);
    // a sphere offset along x: the body's centre moves to the combined centroid, parallel-axis inertia
    sd.type = fc_sphereShape;
    sd.radius = 0.2;
    sd.localPosition = fcV3(1, 0, 0);
    ENSURE(FC_IS_NON_NULL(fcCreateShape(b, &sd)));
    double ms = 100 * 4.0 / 3.0 * 3.14159265358979323846 * 0.008;
    ENSURE_NEAR(fcBody_GetMass(b), m + ms, 1e-12);
    ENSURE_NEAR(fcBody_GetPosition(b).x, ms / (m + ms), 1e-12);
    double dBox = ms / (m + ms), dSph = 1 - dBox;
    ENSURE_NEAR(fcBody_GetInertia(b).z, m * 1.25 / 12 + m * dBox * dBox + 0.4 * ms * 0.04 + ms * dSph * dSph, 1e-12);
    ENSURE_ERROR(fcCreateShape(b, &(fcShapeDef){0}), "fcDefaultShapeDef");
    sd.radius = 0;
    ENSURE_ERROR(fcCreateShape(b, &sd), "radius must be > 0");
    ENSURE(fcBody_GetShapeCount(b) == 2);
    // solid cylinder and capsule about their axis (z)
    fcShapeDef cyl = fcDefaultShapeDef();
    cyl.type = fc_cylinderShape;
    cyl.radius = 0.3;
    cyl.halfHeight = 0.5;
    fcMassData md = fcComputeShapeMass(&cyl);
    ENSURE_NEAR(md.mass, 1000 * 3.14159265358979323846 * 0.09, 1e-9);
    ENSURE_NEAR(md.inertia.cz.z, 0.5 * md.mass * 0.09, 1e-9);
    ENSURE_NEAR(md.inertia.cx.x, md.mass * (3 * 0.09 + 1.0) / 12, 1e-9);
    fcDestroyWorld(w);
    return 0;
}

// A shape whose mass the solver could not use (a size at which the body's mass, centre or inertia under- or
// overflows) is refused before anything is attached: the body keeps its shapes, pose and mass.
static int test_shape_mass_refused(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, 1);
    fcBodyId b = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_sphereShape;
    sd.radius = 0.5;
    ENSURE(FC_IS_NON_NULL(fcCreateShape(b, &sd)));
    double m = 1000 * 4.0 / 3.0 * 3.14159265358979323846 * 0.125;
    ENSURE_NEAR(fcBody_GetMass(b), m, 1e-9);
    sd.radius = 1e300;  // mass inf
    ENSURE_ERROR(fcCreateShape(b, &sd), "mass comes out as inf");
    // a body whose only shape has a mass that underflows to 0 (beside a real shape it would weigh nothing)
    fcBodyId e = fcCreateBody(w, &bd);
    sd.radius = 1e-300;
    ENSURE_ERROR(fcCreateShape(e, &sd), "mass comes out as 0");
    ENSURE(fcBody_GetShapeCount(e) == 0);
    fcDestroyBody(e);
    sd.radius = 0.5;
    sd.localPosition = fcV3(1e300, 0, 0);  // the parallel-axis term overflows
    ENSURE_ERROR(fcCreateShape(b, &sd), "inertia is not finite");
    ENSURE(fcBody_GetShapeCount(b) == 1);
    fcVec3 x = fcBody_GetPosition(b);
    ENSURE(x.x == 0 && x.y == 0 && x.z == 1);
    ENSURE_NEAR(fcBody_GetMass(b), m, 1e-9);
    ENSURE_NEAR(fcBody_GetInertia(b).x, 0.4 * m * 0.25, 1e-9);
    // a body with its mass given and its inertia from the shapes: a box too thin for its inertia to invert
    bd.mass = 2;
    fcBodyId c = fcCreateBody(w, &bd);
    sd.type = fc_boxShape;
    sd.localPosition = fcV3(0, 0, 0);
    sd.halfExtents = fcV3(1e-170, 1e-170, 1e-170);
    ENSURE_ERROR(fcCreateShape(c, &sd), "fcCreateShape");
    ENSURE(fcBody_GetShapeCount(c) == 0);
    sd.halfExtents = fcV3(0.5, 0.5, 0.5);
    ENSURE(FC_IS_NON_NULL(fcCreateShape(c, &sd)));
    ENSURE_NEAR(fcBody_GetMass(c), 2, 0);
    ENSURE_NEAR(fcBody_GetInertia(c).z, 2.0 / 6.0, 1e-12);
    // both bodies step, falling alike from the same height
    for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
    ENSURE(fcBody_GetPosition(b).z < 0.9 && fcBody_GetPosition(b).z == fcBody_GetPosition(c).z);
    // the public mass query refuses what has no mass
    ENSURE_ERROR(fcComputeShapeMass(NULL), "the def is NULL");
    fcShapeDef plane = fcDefaultShapeDef();
    plane.type = fc_planeShape;
    ENSURE_ERROR(fcComputeShapeMass(&plane), "has no mass");
    fcDestroyWorld(w);
    return 0;
}

// A step that diverges (here, gravity of 1e300 overflows the pendulum's pose) is not taken: false with the reason,
// the bodies and the time as before it, no reaction of the failed attempt left. With the cause taken away, the
// world steps on: its joint closed, its tension that of the reference pendulum that never diverged.
static int test_diverged_step_is_refused(void)
{
    Pendulum ref = fcMakePendulum();
    Pendulum p = fcMakePendulum();
    for (int i = 0; i < 30; ++i) {
        ENSURE(fcWorld_Step(p.world));
        ENSURE(fcWorld_Step(ref.world));
    }
    fcVec3 g = fcWorld_GetGravity(p.world);
    ENSURE(fcWorld_SetGravity(p.world, fcV3(0, 0, -1e300)));
    fcClearError();
    ENSURE(!fcWorld_Step(p.world));
    ENSURE(strstr(fcGetLastError(), "the step diverged: body 1 (\"bob\")") != NULL);
    ENSURE(fcWorld_GetTime(p.world) == fcWorld_GetTime(ref.world));
    fcVec3 a = fcBody_GetPosition(p.bob), b = fcBody_GetPosition(ref.bob);
    ENSURE(a.x == b.x && a.y == b.y && a.z == b.z);
    a = fcBody_GetLinearVelocity(p.bob), b = fcBody_GetLinearVelocity(ref.bob);
    ENSURE(a.x == b.x && a.y == b.y && a.z == b.z);
    fcVec3 f = fcJoint_GetReaction(p.joint).force;
    ENSURE(f.x == 0 && f.y == 0 && f.z == 0);
    ENSURE(fcWorld_SetGravity(p.world, g));
    for (int i = 0; i < 30; ++i) {
        ENSURE(fcWorld_Step(p.world));
        ENSURE(fcWorld_Step(ref.world));
    }
    // the next step starts without the last step's geometric stiffness (as a world's first step does), so the
    // two trajectories part by round-off only
    a = fcBody_GetPosition(p.bob), b = fcBody_GetPosition(ref.bob);
    ENSURE_NEAR(a.x, b.x, 1e-9);
    ENSURE_NEAR(a.z, b.z, 1e-9);
    ENSURE_NEAR(fcVec3_Length(a), 1, 1e-9);
    ENSURE_NEAR(fcVec3_Length(fcJoint_GetReaction(p.joint).force), fcVec3_Length(fcJoint_GetReaction(ref.joint).force), 1e-6);
    fcDestroyWorld(p.world);
    fcDestroyWorld(ref.world);
    return 0;
}

// A world is changed only between steps and queries: from a step's callback (a pre-solve hook) or a query's,
// fcDestroyWorld, fcDestroyBody, fcDestroyShape and fcWorld_Step are refused with the reason, and the step or query
// goes on over a world that is as it was (they freed the arrays the step and the query's tree walk were reading).
typedef struct CallbackProbe {
    fcWorldId world;
    int calls;
    char message[4][256];
    fcProfile seen;  // the stats' profile as a callback inside the step reads it: the last step's, in ms
} CallbackProbe;

static void fcProbe_Note(CallbackProbe* probe, int k)
{
    snprintf(probe->message[k], sizeof probe->message[k], "%s", fcGetLastError());
}

static bool fcProbe_PreSolve(fcShapeId a, fcShapeId b, fcContactData* contact, void* context)
{
    (void)b, (void)contact;
    CallbackProbe* probe = context;
    probe->calls += 1;
    probe->seen = fcWorld_GetStats(probe->world).profile;
    fcClearError();
    fcDestroyWorld(probe->world);
    fcProbe_Note(probe, 0);
    fcClearError();
    fcDestroyShape(a);
    fcProbe_Note(probe, 1);
    return true;
}

static bool fcProbe_Overlap(fcShapeId shape, void* context)
{
    CallbackProbe* probe = context;
    probe->calls += 1;
    fcClearError();
    fcDestroyShape(shape);
    fcProbe_Note(probe, 0);
    fcClearError();
    fcDestroyBody(fcShape_GetBody(shape));
    fcProbe_Note(probe, 1);
    fcClearError();
    fcDestroyWorld(probe->world);
    fcProbe_Note(probe, 2);
    fcClearError();
    fcWorld_Step(probe->world);
    fcProbe_Note(probe, 3);
    return true;
}

static int test_no_change_inside_steps_and_queries(void)
{
    static CallbackProbe probe;
    memset(&probe, 0, sizeof probe);
    fcWorldDef wd = fcDefaultWorldDef();
    wd.preSolve = fcProbe_PreSolve;
    wd.preSolveContext = &probe;
    fcWorldId w = probe.world = fcCreateWorld(&wd);
    fcBodyDef ground = fcDefaultBodyDef();
    ground.type = fc_staticBody;
    fcShapeDef plane = fcDefaultShapeDef();
    plane.type = fc_planeShape;
    ENSURE(fcShape_IsValid(fcCreateShape(fcCreateBody(w, &ground), &plane)));
    // 64 balls resting on the ground: a tree deep enough that a freed node is read again
    fcShapeDef ball = fcDefaultShapeDef();
    ball.type = fc_sphereShape;
    ball.radius = 0.4;
    for (int i = 0; i < 64; ++i) {
        fcBodyDef bd = fcDefaultBodyDef();
        bd.position = fcV3(i % 8, i / 8, 0.4);
        ENSURE(fcShape_IsValid(fcCreateShape(fcCreateBody(w, &bd), &ball)));
    }
    ENSURE(fcWorld_Step(w));
    ENSURE(probe.calls == 64);  // each ball's pair with the ground
    ENSURE(strcmp(probe.message[0], "fcDestroyWorld: the world is stepping") == 0);
    ENSURE(strcmp(probe.message[1], "fcDestroyShape: the world is stepping") == 0);
    ENSURE(fcWorld_IsValid(w) && fcWorld_GetBodyCount(w) == 65);
    ENSURE(fcWorld_GetContactCount(w) == 64);

    memset(&probe, 0, sizeof probe);
    probe.world = w;
    ENSURE(fcWorld_OverlapAABB(w, fcV3(-10, -10, -10), fcV3(10, 10, 10), fcDefaultQueryFilter(), fcProbe_Overlap, &probe));
    ENSURE(probe.calls == 65);  // the balls and the plane
    ENSURE(strcmp(probe.message[0], "fcDestroyShape: the world is in a query") == 0);
    ENSURE(strcmp(probe.message[1], "fcDestroyBody: the world is in a query") == 0);
    ENSURE(strcmp(probe.message[2], "fcDestroyWorld: the world is in a query") == 0);
    ENSURE(strcmp(probe.message[3], "fcWorld_Step: the world is in a query") == 0);
    ENSURE(fcWorld_IsValid(w) && fcWorld_GetBodyCount(w) == 65 && fcWorld_GetTime(w) == wd.timestep);
    // after the query the world is the caller's again; a callback inside the step reads the last step's profile
    // (the stages are timed in processor ticks, turned into ms when the step ends)
    fcProfile before = fcWorld_GetStats(w).profile;
    ENSURE(before.step > 0 && before.collide > 0);
    fcClearError();
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetTime(w) == 2 * wd.timestep);
    ENSURE(memcmp(&probe.seen, &before, sizeof before) == 0);
    fcDestroyWorld(w);
    ENSURE(!fcWorld_IsValid(w));
    return 0;
}

// A world with no bodies steps (an empty scene file loads into one); its clock runs.
static int test_empty_world_steps(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(w));
    ENSURE_NEAR(fcWorld_GetTime(w), 10 * wd.timestep, 1e-15);
    ENSURE(fcWorld_GetStats(w).energy == 0);
    fcDestroyWorld(w);
    return 0;
}

// Finite inputs whose energy overflows: a body spun at 1e155 rad/s (I w^2 is beyond double precision), a 1e10 kg
// body 1e300 m up (m g z is); and one whose reaction does: 1e300 kg leaving its pivot at 1000 m/s, stopped by a ball
// joint, or by the ground, within a step of 1e-6 s (m v / h = 1e309 N, its state and energy finite). Each step is
// refused with the reason and the state kept; before, they returned true with an infinite energy or force.
static int test_energy_overflow_is_refused(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.name = "top";
    bd.mass = 1;
    bd.inertia = fcV3(1, 1, 1);
    bd.angularVelocity = fcV3(0, 0, 1e155);
    fcBodyId top = fcCreateBody(w, &bd);
    ENSURE(fcBody_IsValid(top));
    fcClearError();
    ENSURE(!fcWorld_Step(w));
    ENSURE(strstr(fcGetLastError(), "body 1 (\"top\") came out with a non-finite energy") != NULL);
    ENSURE(fcBody_GetAngularVelocity(top).z == 1e155 && fcWorld_GetTime(w) == 0);
    // slowed to 1e150 rad/s (I w^2 = 1e300 J) it steps
    ENSURE(fcBody_SetAngularVelocity(top, fcV3(0, 0, 1e150)));
    ENSURE(fcWorld_Step(w));
    ENSURE(isfinite(fcWorld_GetStats(w).energy));

    bd.name = "high";
    bd.angularVelocity = fcV3(0, 0, 0);
    bd.position = fcV3(0, 0, 1e300);
    bd.mass = 1e10;
    fcBodyId high = fcCreateBody(w, &bd);
    ENSURE(fcBody_IsValid(high));
    fcClearError();
    ENSURE(!fcWorld_Step(w));
    ENSURE(strstr(fcGetLastError(), "body 2 (\"high\") came out with a non-finite energy") != NULL);
    ENSURE(fcBody_GetPosition(high).z == 1e300 && fcWorld_GetTime(w) == wd.timestep);
    fcDestroyWorld(w);

    wd.timestep = 1e-6;
    w = fcCreateWorld(&wd);
    bd = fcDefaultBodyDef();
    bd.position = fcV3(1, 0, 0);
    bd.linearVelocity = fcV3(1000, 0, 0);
    bd.mass = 1e300;
    bd.inertia = fcV3(1e100, 1e100, 1e100);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyB = fcCreateBody(w, &bd);
    jd.name = "pivot";
    fcJointId pivot = fcCreateJoint(w, &jd);
    ENSURE(fcJoint_IsValid(pivot));
    fcClearError();
    ENSURE(!fcWorld_Step(w));
    ENSURE(strstr(fcGetLastError(), "joint 1 (\"pivot\") came out with a reaction beyond double precision") != NULL);
    ENSURE(fcBody_GetLinearVelocity(jd.bodyB).x == 1000 && fcWorld_GetTime(w) == 0);
    ENSURE(fcJoint_GetReaction(pivot).force.x == 0);
    // at 1 m/s the force is 1e306 N: the step is taken, the reaction finite
    ENSURE(fcBody_SetLinearVelocity(jd.bodyB, fcV3(1, 0, 0)));
    ENSURE(fcWorld_Step(w));
    ENSURE(isfinite(fcJoint_GetReaction(pivot).force.x) && fcJoint_GetReaction(pivot).force.x < -1e305);
    fcDestroyWorld(w);

    // the same ball stopped by the ground: its contact force overflows (the step returned true with inf N)
    w = fcCreateWorld(&wd);
    fcBodyDef gd = fcDefaultBodyDef();
    gd.type = fc_staticBody;
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_planeShape;
    fcCreateShape(fcCreateBody(w, &gd), &sd);
    bd.position = fcV3(0, 0, 0.5);
    bd.linearVelocity = fcV3(0, 0, -1000);
    fcBodyId ball = fcCreateBody(w, &bd);
    sd = fcDefaultShapeDef();
    sd.type = fc_sphereShape;
    sd.radius = 0.5;
    sd.density = 1e300 / (4.0 / 3 * 3.141592653589793 * 0.125);  // 1e300 kg
    ENSURE(fcShape_IsValid(fcCreateShape(ball, &sd)));
    fcClearError();
    ENSURE(!fcWorld_Step(w));
    ENSURE(strstr(fcGetLastError(), "a contact came out with a force beyond double precision") != NULL);
    ENSURE(fcBody_GetLinearVelocity(ball).z == -1000 && fcBody_GetPosition(ball).z == 0.5 && fcWorld_GetTime(w) == 0);
    // at 1 m/s the force is 1e306 N: the step is taken, the force finite
    ENSURE(fcBody_SetLinearVelocity(ball, fcV3(0, 0, -1)));
    ENSURE(fcWorld_Step(w));
    ENSURE(fcWorld_GetContactCount(w) == 1);
    fcContactData c = fcWorld_GetContact(w, 0);
    printf("  a 1e300 kg ball stopped by the ground at 1 m/s within 1e-6 s: contact force %.3g N\n", fabs(c.force.z));
    ENSURE(isfinite(c.force.z) && fabs(c.force.z) > 1e305);
    fcDestroyWorld(w);
    return 0;
}

// A refused step leaves the joints of a sleeping island reporting what they carried when it fell asleep, as a taken
// step does (it cleared them with the awake joints' records of the failed attempt): a bob of 1 kg hanging at rest
// under its pivot falls asleep carrying m g; a top spun at 1e155 rad/s beside it makes the next step overflow.
static int test_refused_step_keeps_sleeping_reactions(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, -1);
    bd.mass = 1;
    bd.inertia = fcV3(0.01, 0.01, 0.01);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyB = fcCreateBody(w, &bd);
    fcJointId pivot = fcCreateJoint(w, &jd);
    for (int i = 0; i < 240 && fcBody_IsAwake(jd.bodyB); ++i) ENSURE(fcWorld_Step(w));
    ENSURE(!fcBody_IsAwake(jd.bodyB));
    ENSURE_NEAR(fcJoint_GetReaction(pivot).force.z, 9.81, 1e-9);
    bd.position = fcV3(5, 0, 0);
    bd.angularVelocity = fcV3(0, 0, 1e155);
    ENSURE(fcBody_IsValid(fcCreateBody(w, &bd)));
    fcClearError();
    ENSURE(!fcWorld_Step(w));
    ENSURE(strstr(fcGetLastError(), "non-finite energy") != NULL);
    ENSURE(!fcBody_IsAwake(jd.bodyB));
    ENSURE_NEAR(fcJoint_GetReaction(pivot).force.z, 9.81, 1e-9);
    fcDestroyWorld(w);
    return 0;
}

// The energy is reported before the first step too: kinetic + gravity + springs of the initial state.
static int test_initial_energy(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, 2);
    bd.linearVelocity = fcV3(3, 0, 0);
    bd.mass = 2;
    bd.inertia = fcV3(1, 1, 1);
    fcBodyId b = fcCreateBody(w, &bd);
    fcSpringDef sd = fcDefaultSpringDef();
    sd.bodyB = b;
    sd.anchorA = fcV3(0, 0, 2.5);
    sd.anchorB = fcV3(0, 0, 2);
    sd.stiffness = 100;
    sd.restLength = 0.4;
    ENSURE(FC_IS_NON_NULL(fcCreateSpring(w, &sd)));
    // 1/2 m v^2 + m g z + 1/2 k (0.5 - 0.4)^2
    ENSURE_NEAR(fcWorld_GetStats(w).energy, 0.5 * 2 * 9 + 2 * 9.81 * 2 + 0.5 * 100 * 0.01, 1e-12);
    fcDestroyWorld(w);
    return 0;
}

// A shape added to or taken from a body whose mass comes from its shapes moves its centre of mass within it; every
// material point stays where it was with its velocity, and so do its joints' anchors (they stayed at the old offset
// from the centre: the joint was pulled open by the shift and the next step flung the bob at 124 kN). A sphere bob
// hanging from a ball joint gets a second sphere 0.5 m below: it hangs on at rest, the string's tension is the new
// weight; a spinning free body given an off-centre shape: its centre moves at w x d.
static int test_shape_added_to_jointed_body(void)
{
    const double g = 9.81;
    fcWorldDef wd = fcDefaultWorldDef();
    wd.timestep = 1.0 / 60;
    fcWorldId w = fcCreateWorld(&wd);
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = fcV3(0, 0, -1);
    fcBodyId bob = fcCreateBody(w, &bd);
    fcShapeDef sd = fcDefaultShapeDef();
    sd.type = fc_sphereShape;
    sd.radius = 0.1;
    ENSURE(FC_IS_NON_NULL(fcCreateShape(bob, &sd)));
    double m = fcBody_GetMass(bob);
    fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
    jd.bodyB = bob;
    jd.anchor = fcV3(0, 0, 0);
    fcJointId joint = fcCreateJoint(w, &jd);
    ENSURE(FC_IS_NON_NULL(joint));
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    ENSURE_NEAR(fcJoint_GetReaction(joint).force.z, m * g, 1e-9 * m * g);
    sd.localPosition = fcV3(0, 0, -0.5);
    fcShapeId second = fcCreateShape(bob, &sd);
    ENSURE(FC_IS_NON_NULL(second));
    ENSURE_NEAR(fcBody_GetPosition(bob).z, -1.25, 1e-12);
    ENSURE_NEAR(fcVec3_Length(fcJoint_GetAnchorB(joint)), 0, 1e-12);
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    printf("  a second sphere on a hanging bob: tension %.9f N (exact 2 m g = %.9f N), bob at z = %.12f m\n",
           fcJoint_GetReaction(joint).force.z, 2 * m * g, fcBody_GetPosition(bob).z);
    ENSURE_NEAR(fcJoint_GetReaction(joint).force.z, 2 * m * g, 1e-9 * m * g);
    ENSURE_NEAR(fcBody_GetPosition(bob).z, -1.25, 1e-9);
    ENSURE_NEAR(fcVec3_Length(fcBody_GetLinearVelocity(bob)), 0, 1e-9);
    // taken away again: the bob is the first sphere, at rest where it was
    fcDestroyShape(second);
    ENSURE_NEAR(fcBody_GetPosition(bob).z, -1, 1e-12);
    for (int i = 0; i < 30; ++i) ENSURE(fcWorld_Step(w));
    ENSURE_NEAR(fcJoint_GetReaction(joint).force.z, m * g, 1e-9 * m * g);
    ENSURE_NEAR(fcBody_GetPosition(bob).z, -1, 1e-9);

    // spinning at 2 rad/s about z, its centre still: an equal sphere at x = 1 moves the centre to x = 0.5, which
    // then moves at w x d = (0, 1, 0), so that the first sphere's centre keeps its velocity: zero
    ENSURE(fcWorld_SetGravity(w, fcV3(0, 0, 0)));
    bd.position = fcV3(10, 0, 0);
    bd.angularVelocity = fcV3(0, 0, 2);
    fcBodyId spinner = fcCreateBody(w, &bd);
    sd.localPosition = fcV3(0, 0, 0);
    ENSURE(FC_IS_NON_NULL(fcCreateShape(spinner, &sd)));
    sd.localPosition = fcV3(1, 0, 0);
    ENSURE(FC_IS_NON_NULL(fcCreateShape(spinner, &sd)));
    ENSURE_NEAR(fcBody_GetPosition(spinner).x, 10.5, 1e-12);
    fcVec3 v = fcBody_GetLinearVelocity(spinner);
    ENSURE_NEAR(v.x, 0, 1e-12);
    ENSURE_NEAR(v.y, 1, 1e-12);
    // a force applied at x = 1 for the next step, then an equal sphere added there: its torque is about the new
    // centre (x = 0.5), 0.5 f, and the body turns by it in the step (it kept the old lever: f)
    bd.position = fcV3(20, 0, 0);
    bd.angularVelocity = fcV3(0, 0, 0);
    fcBodyId pushed = fcCreateBody(w, &bd);
    sd.localPosition = fcV3(0, 0, 0);
    ENSURE(FC_IS_NON_NULL(fcCreateShape(pushed, &sd)));
    const double f = 3, ms = fcBody_GetMass(pushed);
    ENSURE(fcBody_ApplyForce(pushed, fcV3(0, f, 0), fcV3(21, 0, 0)));
    sd.localPosition = fcV3(1, 0, 0);
    ENSURE(FC_IS_NON_NULL(fcCreateShape(pushed, &sd)));
    ENSURE(fcWorld_Step(w));
    double izz = 2 * (0.4 * ms * 0.01 + ms * 0.25);
    ENSURE_NEAR(fcBody_GetAngularVelocity(pushed).z, 0.5 * f / izz / 60, 1e-9);
    fcDestroyWorld(w);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_bad_input_changes_nothing);
    RUN_TEST(test_nonfinite_user_row);
    RUN_TEST(test_too_soft_joint);
    RUN_TEST(test_mass_from_shapes);
    RUN_TEST(test_shape_mass_refused);
    RUN_TEST(test_shape_added_to_jointed_body);
    RUN_TEST(test_diverged_step_is_refused);
    RUN_TEST(test_initial_energy);
    RUN_TEST(test_no_change_inside_steps_and_queries);
    RUN_TEST(test_empty_world_steps);
    RUN_TEST(test_energy_overflow_is_refused);
    RUN_TEST(test_refused_step_keeps_sleeping_reactions);
    TEST_MAIN_END();
}
