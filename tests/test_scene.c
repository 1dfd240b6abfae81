// SPDX-License-Identifier: MIT
// Scene loader: every shipped scene loads with the right counts and values; every kind of bad input is
// refused with one message naming the file, the place and the fault, leaving the scene empty.
#define _POSIX_C_SOURCE 200809L  // mkstemp, ftruncate: a sparse file over the loader's size cap
#include "scene.h"
#include "test_macros.h"

#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#ifndef FC_SCENE_DIR
#error "FC_SCENE_DIR must name demos/scenes"
#endif
#ifndef FC_BAD_SCENE_DIR
#error "FC_BAD_SCENE_DIR must name tests/scenes_bad"
#endif

static char s_err[1024];

static bool loadShipped(const char* file, fcScene* scene)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", FC_SCENE_DIR, file);
    bool ok = fcScene_Load(path, scene, s_err, sizeof s_err);
    if (!ok) fprintf(stderr, "  %s\n", s_err);
    return ok;
}

// A scene after a refused load: nothing in it.
static bool isEmpty(const fcScene* s)
{
    return FC_IS_NULL(s->world) && s->bodyCount == 0 && s->jointCount == 0 && s->bodies == NULL && s->joints == NULL &&
           s->bodyNames == NULL && s->jointNames == NULL && s->name == NULL && s->internal == NULL &&
           s->expectationCount == 0;
}

static fcBodyId body(const fcScene* s, const char* name)
{
    int i = fcScene_FindBody(s, name);
    return i >= 0 ? s->bodies[i] : fc_nullBodyId;
}

static fcJointId joint(const fcScene* s, const char* name)
{
    int i = fcScene_FindJoint(s, name);
    return i >= 0 ? s->joints[i] : fc_nullJointId;
}

// ---------------------------------------------------------------------------------------------------------------------
// Shipped scenes
// ---------------------------------------------------------------------------------------------------------------------

static int test_pendulum(void)
{
    fcScene s;
    ENSURE(loadShipped("pendulum.json", &s));
    ENSURE(strcmp(s.name, "pendulum") == 0);
    ENSURE(s.bodyCount == 1 && s.jointCount == 1 && s.springCount == 0);
    ENSURE(fcWorld_GetBodyCount(s.world) == 1 && fcWorld_GetJointCount(s.world) == 1);
    ENSURE_NEAR(s.timestep, 1.0 / 240.0, 1e-15);
    ENSURE_NEAR(s.duration, 2, 0);
    ENSURE(s.stabilization == fc_stabilizeProjection);
    fcBodyId bob = body(&s, "bob");
    ENSURE_NEAR(fcBody_GetMass(bob), 1, 0);
    ENSURE_NEAR(fcBody_GetInertia(bob).x, 4e-5, 1e-20);
    ENSURE_NEAR(fcBody_GetPosition(bob).x, 1, 0);
    ENSURE_NEAR(fcWorld_GetGravity(s.world).z, -9.81, 0);
    fcJointId pivot = joint(&s, "pivot");
    ENSURE(fcJoint_GetType(pivot) == fc_ballJoint);
    ENSURE(FC_IS_NULL(fcJoint_GetBodyA(pivot)));
    ENSURE_NEAR(fcVec3_Length(fcJoint_GetAnchorA(pivot)), 0, 1e-15);
    ENSURE(s.expectationCount == 1 && s.expectations[0].joint == 0);
    ENSURE_NEAR(s.expectations[0].peakForce, 29.43, 1e-12);
    // one step: the tension builds up from 0 at the horizontal, pointing at the pivot (-x on the bob)
    ENSURE(fcWorld_Step(s.world));
    fcJointReaction r = fcJoint_GetReaction(pivot);
    ENSURE(r.force.x < 0);
    fcScene_Free(&s);
    ENSURE(isEmpty(&s));
    return 0;
}

static int test_stiff_spring(void)
{
    fcScene s;
    ENSURE(loadShipped("stiff_spring.json", &s));
    ENSURE(s.bodyCount == 2 && s.jointCount == 2 && s.springCount == 1);
    ENSURE(strcmp(s.jointNames[0], "soft_link") == 0 && strcmp(s.jointNames[1], "stiff_link") == 0);
    ENSURE(strcmp(fcScene_JointTypeName(&s, 0), "distance") == 0);
    ENSURE(strcmp(fcScene_JointTypeName(&s, 1), "spring") == 0);
    ENSURE(fcJoint_GetType(s.joints[0]) == fc_distanceJoint);
    ENSURE_NEAR(fcJoint_GetAnchorB(s.joints[1]).y, 0.5, 0);
    // both start at their natural length: no spring energy; the bodies are at rest at z = 0
    ENSURE_NEAR(fcWorld_GetStats(s.world).energy, 0, 1e-12);
    fcScene_Free(&s);
    return 0;
}

static int test_atwood(void)
{
    fcScene s;
    ENSURE(loadShipped("atwood.json", &s));
    ENSURE(s.bodyCount == 2 && s.jointCount == 3);
    ENSURE_NEAR(fcBody_GetMass(body(&s, "m1")), 5, 0);
    ENSURE_NEAR(fcBody_GetMass(body(&s, "m2")), 3, 0);
    ENSURE(fcJoint_GetType(joint(&s, "string")) == fc_couplingJoint);
    // the string's tension 2 m1 m2 g / (m1 + m2), and m1 going down at 2.4525 m/s^2
    for (int i = 0; i < 6; ++i) ENSURE(fcWorld_Step(s.world));
    ENSURE_NEAR(fcVec3_Length(fcJoint_GetReaction(joint(&s, "string")).force), 36.7875, 36.7875e-6);
    ENSURE_NEAR(fcBody_GetLinearVelocity(body(&s, "m1")).z, -2.4525 * 6 * s.timestep, 1e-9);
    fcScene_Free(&s);
    return 0;
}

static int test_rolling(void)
{
    const char* files[2] = {"rolling_hoop.json", "rolling_disk.json"};
    const char* names[2] = {"hoop", "disk"};
    const double inertiaY[2] = {0.5, 0.25};  // m R^2 and m R^2 / 2 (the disk's from its cylinder shape)
    const double friction[2] = {4.905, 3.27};
    for (int k = 0; k < 2; ++k) {
        fcScene s;
        ENSURE(loadShipped(files[k], &s));
        ENSURE(s.bodyCount == 1 && s.jointCount == 3);
        fcBodyId wheel = body(&s, names[k]);
        ENSURE_NEAR(fcBody_GetMass(wheel), 2, 0);
        ENSURE_NEAR(fcBody_GetInertia(wheel).y, inertiaY[k], 1e-12);
        fcJointId rolling = joint(&s, "rolling");
        ENSURE(fcJoint_GetType(rolling) == fc_userConstraint && fcJoint_GetRowCount(rolling) == 1);
        ENSURE(fcJoint_GetType(joint(&s, "plane")) == fc_planarJoint);
        for (int i = 0; i < 10; ++i) ENSURE(fcWorld_Step(s.world));
        // the rolling row's multiplier is the static friction; the contact row's the normal force m g cos 30
        ENSURE_NEAR(fcVec3_Length(fcJoint_GetReaction(rolling).force), friction[k], friction[k] * 1e-6);
        ENSURE_NEAR(fcVec3_Length(fcJoint_GetReaction(joint(&s, "contact")).force), 2 * 9.81 * 0.8660254037844387,
                    1e-6);
        fcScene_Free(&s);
    }
    return 0;
}

static int test_other_scenes(void)
{
    fcScene s;
    ENSURE(loadShipped("bead_hoop.json", &s));
    ENSURE(s.bodyCount == 1 && s.jointCount == 2);
    ENSURE_NEAR(fcBody_GetLinearVelocity(body(&s, "bead")).x, 4, 0);
    ENSURE_NEAR(fcBody_GetMass(body(&s, "bead")), 1, 0);
    ENSURE(fcJoint_GetType(joint(&s, "hoop")) == fc_distanceJoint);
    fcScene_Free(&s);

    ENSURE(loadShipped("knife_edge.json", &s));
    ENSURE(s.bodyCount == 1 && s.jointCount == 2);
    ENSURE(fcJoint_GetType(joint(&s, "edge")) == fc_bladeJoint);
    ENSURE_NEAR(fcBody_GetAngularVelocity(body(&s, "blade")).z, 0.5, 0);
    fcScene_Free(&s);

    ENSURE(loadShipped("double_pendulum.json", &s));
    ENSURE(s.bodyCount == 2 && s.jointCount == 2);
    // a 1 m rod of 1 kg: m (L^2 + w^2) / 12 about y
    ENSURE_NEAR(fcBody_GetInertia(body(&s, "upper")).y, (1.0 + 0.04 * 0.04) / 12, 1e-12);
    ENSURE_NEAR(fcJoint_GetAnchorA(joint(&s, "elbow")).x, 1, 1e-12);
    fcScene_Free(&s);

    ENSURE(loadShipped("four_bar.json", &s));
    ENSURE(s.bodyCount == 3 && s.jointCount == 4);
    // the rocker's local +x end sits at C = (1.5, 0, 1), where hinge C is
    fcVec3 c = fcBody_GetWorldPoint(body(&s, "rocker"), fcV3(0.5590169943749475, 0, 0));
    ENSURE_NEAR(c.x, 1.5, 1e-12);
    ENSURE_NEAR(c.z, 1, 1e-12);
    fcVec3 b = fcBody_GetWorldPoint(body(&s, "crank"), fcV3(0.5, 0, 0));
    ENSURE_NEAR(b.x, 0, 1e-12);
    ENSURE_NEAR(b.z, 1, 1e-12);
    fcScene_Free(&s);

    ENSURE(loadShipped("cantilever.json", &s));
    ENSURE(s.bodyCount == 1 && s.jointCount == 1);
    ENSURE_NEAR(fcBody_GetMass(body(&s, "beam")), 10, 0);
    ENSURE(fcJoint_GetType(joint(&s, "weld")) == fc_fixedJoint);
    ENSURE(s.expectations[0].hasPeakForce && s.expectations[0].hasPeakMoment);
    ENSURE_NEAR(s.expectations[0].peakMoment, 49.05, 1e-12);
    fcScene_Free(&s);
    return 0;
}

static int test_chains(void)
{
    for (int heavy = 0; heavy < 2; ++heavy) {
        fcScene s;
        ENSURE(loadShipped(heavy ? "heavy_chain.json" : "chain.json", &s));
        ENSURE(s.bodyCount == 50 && s.jointCount == 50);
        ENSURE_NEAR(s.timestep, 1.0 / 60.0, 1e-15);
        ENSURE_NEAR(s.duration, 10, 0);
        // S1: solid-box inertia Ixx = 6.667e-5, Iyy = Izz = 8.667e-4; S2: the last link 1000 times heavier
        double scale = heavy ? 1000 : 1;
        fcBodyId last = body(&s, "link49");
        ENSURE_NEAR(fcBody_GetMass(last), scale, 0);
        ENSURE_NEAR(fcBody_GetInertia(last).x, scale * 0.0008 / 12, scale * 1e-15);
        ENSURE_NEAR(fcBody_GetInertia(last).y, scale * 0.0104 / 12, scale * 1e-15);
        ENSURE_NEAR(fcBody_GetMass(body(&s, "link48")), 1, 0);
        ENSURE_NEAR(fcBody_GetPosition(last).x, 4.95, 1e-12);
        // joint i joins link i-1's right end to link i's left end, at x = 0.1 i
        fcJointId j10 = joint(&s, "j10");
        ENSURE(FC_ID_EQUALS(fcJoint_GetBodyA(j10), body(&s, "link09")));
        ENSURE(FC_ID_EQUALS(fcJoint_GetBodyB(j10), body(&s, "link10")));
        ENSURE_NEAR(fcJoint_GetAnchorA(j10).x, 1.0, 1e-12);
        ENSURE(FC_IS_NULL(fcJoint_GetBodyA(joint(&s, "j00"))));
        fcScene_Free(&s);
    }
    return 0;
}

// the sum of the normal forces of a body's contacts, along z (N)
static double fcScene_ContactLoad(fcBodyId b)
{
    fcContactData c[32];
    int n = fcBody_GetContacts(b, c, 32);
    double up = 0;
    for (int m = 0; m < n && m < 32; ++m)
        for (int q = 0; q < c[m].pointCount; ++q) up += c[m].points[q].normalForce * fabs(c[m].normal.z);
    return up;
}

// The heavy_on_light demo says nothing moves (a 100 kg safe on a 1 kg block, 50 kg slabs on 1 kg pads: with the
// sweeps alone the safe sank 3.7 cm and a pad squirted 25 cm out; a 500 kg crate on a 1 kg platform at its rail's
// stop, solved through the rail), the ground carries the six weights on it, the foam block the safe's m g and the
// rail (m + M) g, exactly: after its 10 s, every body within 1e-6 m of where it started, the loads to 1e-6.
static int test_heavy_on_light_demo(void)
{
    fcScene s;
    ENSURE(loadShipped("heavy_on_light.json", &s));
    ENSURE(s.bodyCount == 9 && s.jointCount == 1);
    fcVec3 start[9];
    double onGround = 0;
    for (int i = 0; i < s.bodyCount; ++i) start[i] = fcBody_GetPosition(s.bodies[i]);
    for (int i = 1; i <= 6; ++i) onGround += fcBody_GetMass(s.bodies[i]);
    ENSURE_NEAR(onGround * 9.81, 1991.43, 1e-9);
    double lifted = fcBody_GetMass(body(&s, "platform")) + fcBody_GetMass(body(&s, "crate"));
    ENSURE_NEAR(lifted * 9.81, 4914.81, 1e-9);
    double moved = 0;
    for (int i = 0; i < 600; ++i) {
        ENSURE(fcWorld_Step(s.world));
        for (int k = 1; k < s.bodyCount; ++k) moved = fmax(moved, fcVec3_Distance(fcBody_GetPosition(s.bodies[k]), start[k]));
    }
    double ground = fcScene_ContactLoad(body(&s, "ground")), safe = fcScene_ContactLoad(body(&s, "safe"));
    double rail = fcJoint_GetReaction(s.joints[0]).force.z;  // pushing the platform up
    printf("  heavy_on_light: bodies moved at most %.3g m; the ground carries %.6f N (%.6f N), the safe's contacts %.6f N "
           "(%.6f N), the rail %.6f N (%.6f N)\n",
           moved, ground, onGround * 9.81, safe, 100 * 9.81, rail, lifted * 9.81);
    ENSURE_LE(moved, 1e-6);
    ENSURE_NEAR(ground, onGround * 9.81, 1e-6 * onGround * 9.81);
    ENSURE_NEAR(safe, 100 * 9.81, 1e-6 * 100 * 9.81);
    ENSURE_NEAR(rail, lifted * 9.81, 1e-6 * lifted * 9.81);
    fcScene_Free(&s);
    return 0;
}

// The stacks demo says its towers stand and the mesh ground carries their whole weight, 4922.8 N: after its 10 s,
// the top of each tower is where it started (within a slop) and the ground's contact forces sum to m g.
static int test_stacks(void)
{
    fcScene s;
    ENSURE(loadShipped("stacks.json", &s));
    ENSURE(s.bodyCount == 19 && s.jointCount == 0);
    fcShapeDef ground = fcShape_GetDef(fcBody_GetShape(body(&s, "ground"), 0));
    ENSURE(ground.type == fc_meshShape && ground.triangleCount == 32);
    double mass = 0;
    for (int i = 1; i < s.bodyCount; ++i) mass += fcBody_GetMass(s.bodies[i]);
    ENSURE_NEAR(mass * 9.81, 4922.8, 0.05);
    for (int i = 0; i < 600; ++i) ENSURE(fcWorld_Step(s.world));
    const char* tops[3] = {"cyl5", "hull5", "box5"};
    double startZ[3] = {1.1, 2.2, 2.2};
    for (int k = 0; k < 3; ++k) {
        fcVec3 p = fcBody_GetPosition(body(&s, tops[k]));
        ENSURE_LE(fabs(startZ[k] - p.z), 0.005);
        ENSURE_LE(hypot(p.x - (k - 1) * 1.5, p.y), 0.005);
    }
    double up = fcScene_ContactLoad(body(&s, "ground"));
    printf("  stacks: the ground carries %.2f N (the weight: %.2f N)\n", up, mass * 9.81);
    ENSURE_NEAR(up, mass * 9.81, 1e-3 * mass * 9.81);
    fcScene_Free(&s);
    return 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Values, defaults and mass properties from strings
// ---------------------------------------------------------------------------------------------------------------------

static int test_defaults(void)
{
    fcScene s;
    const char* json = "{\"bodies\": [{\"name\": \"b\", \"position\": [0, 0, 2], \"mass\": 2, \"inertia\": [1, 2, 3],"
                       "\"orientation\": [0.70710678, 0, 0, 0.70710678]}],"
                       " \"joints\": [{\"name\": \"rope\", \"type\": \"distance\", \"body_b\": \"b\"}]}";
    ENSURE(fcScene_LoadString(json, "defaults.json", &s, s_err, sizeof s_err));
    ENSURE(strcmp(s.name, "defaults") == 0);  // the file name without extension
    ENSURE(strcmp(s.description, "") == 0);
    ENSURE_NEAR(s.timestep, 1.0 / 60.0, 1e-15);
    ENSURE_NEAR(s.duration, 5, 0);
    ENSURE(s.stabilization == fc_stabilizeProjection);
    ENSURE(fcWorld_GetStabilization(s.world) == fc_stabilizeProjection);
    ENSURE_NEAR(fcWorld_GetGravity(s.world).z, -9.81, 0);
    fcBodyId b = s.bodies[0];
    ENSURE(fcBody_GetType(b) == fc_dynamicBody);
    ENSURE_NEAR(fcBody_GetInertia(b).z, 3, 0);
    // the orientation is normalized (given to 8 digits)
    fcQuat q = fcBody_GetOrientation(b);
    ENSURE_NEAR(fcQuat_Length(q), 1, 1e-15);
    // a distance joint defaults to body_a = world at the origin, anchor_b = body_b's centre, length = 2
    fcJointId rope = s.joints[0];
    ENSURE(FC_IS_NULL(fcJoint_GetBodyA(rope)));
    ENSURE_NEAR(fcJoint_GetAnchorB(rope).z, 2, 1e-15);
    ENSURE(fcWorld_Step(s.world));
    ENSURE_LE(fcJoint_GetReaction(rope).violation, 1e-9);
    fcScene_Free(&s);

    json = "{\"gravity\": [0, -1, 0], \"timestep\": 0.01, \"duration\": 3, \"stabilization\": \"baumgarte\","
           " \"baumgarte\": 0.5, \"projection_tolerance\": 1e-8, \"projection_max_iterations\": 5, \"bodies\": []}";
    ENSURE(fcScene_LoadString(json, "settings.json", &s, s_err, sizeof s_err));
    ENSURE(fcWorld_GetStabilization(s.world) == fc_stabilizeBaumgarte);
    ENSURE_NEAR(fcWorld_GetTimestep(s.world), 0.01, 0);
    ENSURE_NEAR(fcWorld_GetGravity(s.world).y, -1, 0);
    ENSURE_NEAR(s.duration, 3, 0);
    ENSURE(s.bodyCount == 0 && s.jointCount == 0);
    fcScene_Free(&s);
    return 0;
}

static fcShapeDef shapeDef(const fcScene* s, const char* bodyName, int k)
{
    return fcShape_GetDef(fcBody_GetShape(body(s, bodyName), k));
}

static int test_mass_properties(void)
{
    fcScene s;
    // mass omitted: from the shapes (a solid sphere of radius 0.1 at 1000 kg/m^3)
    const char* json = "{\"bodies\": [{\"name\": \"ball\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.1}]},"
                       "{\"name\": \"brick\", \"mass\": 6, \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 1, 1.5],"
                       " \"density\": 7}]},"
                       "{\"name\": \"rod\", \"mass\": 3, \"shapes\": [{\"type\": \"box\", \"half_extents\": [1, 0.1, 0.1],"
                       " \"orientation\": [0.7071067811865476, 0, 0, 0.7071067811865476]}]},"
                       "{\"name\": \"tensor\", \"mass\": 1, \"inertia_tensor\": [2, 0.5, 0, 0.5, 2, 0, 0, 0, 3]},"
                       "{\"name\": \"dumbbell\", \"position\": [0, 0, 2], \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.5,"
                       " \"position\": [1, 0, 0]}, {\"type\": \"sphere\", \"radius\": 0.5, \"position\": [-1, 0, 0]}]},"
                       "{\"name\": \"floor\", \"type\": \"static\"}]}";
    ENSURE(fcScene_LoadString(json, "mass.json", &s, s_err, sizeof s_err));
    const double pi = 3.14159265358979323846;
    ENSURE_NEAR(fcBody_GetMass(body(&s, "ball")), 1000 * 4 * pi * 0.001 / 3, 1e-9);
    ENSURE_NEAR(fcBody_GetInertia(body(&s, "ball")).x, 0.4 * (1000 * 4 * pi * 0.001 / 3) * 0.01, 1e-12);
    // mass given, inertia from the shapes scaled to it (the density does not matter): m (b^2 + c^2) / 12
    fcBodyId brick = body(&s, "brick");
    ENSURE_NEAR(fcBody_GetMass(brick), 6, 0);
    ENSURE_NEAR(fcBody_GetInertia(brick).x, 6 * (4.0 + 9.0) / 12, 1e-12);
    ENSURE_NEAR(fcBody_GetInertia(brick).z, 6 * (1.0 + 4.0) / 12, 1e-12);
    // a shape turned 90 deg about z: its long axis (2 m) is the body's y
    fcBodyId rod = body(&s, "rod");
    ENSURE_NEAR(fcBody_GetInertia(rod).x, 3 * (4.0 + 0.04) / 12, 1e-12);
    ENSURE_NEAR(fcBody_GetInertia(rod).y, 3 * (0.04 + 0.04) / 12, 1e-12);
    ENSURE_NEAR(fcBody_GetInertia(rod).z, 3 * (4.0 + 0.04) / 12, 1e-12);
    // a full tensor, row-major
    fcMat33 t = fcBody_GetInertiaTensor(body(&s, "tensor"));
    ENSURE_NEAR(t.cy.x, 0.5, 0);
    ENSURE_NEAR(t.cz.z, 3, 0);
    ENSURE(fcBody_GetType(body(&s, "floor")) == fc_staticBody);
    // two spheres placed relative to the body's position, the mass from them: the centre between them, each where
    // the file puts it (the second was placed after the first had moved the body: 1 m from the first, not 2)
    fcBodyId bell = body(&s, "dumbbell");
    double ms = 1000 * 4 * pi * 0.125 / 3;
    ENSURE_LE(fcVec3_Distance(fcBody_GetPosition(bell), fcV3(0, 0, 2)), 1e-12);
    ENSURE_LE(fcVec3_Distance(fcBody_GetWorldPoint(bell, shapeDef(&s, "dumbbell", 0).localPosition), fcV3(1, 0, 2)), 1e-12);
    ENSURE_LE(fcVec3_Distance(fcBody_GetWorldPoint(bell, shapeDef(&s, "dumbbell", 1).localPosition), fcV3(-1, 0, 2)), 1e-12);
    ENSURE_NEAR(fcBody_GetInertia(bell).y, 2 * (0.4 * ms * 0.25 + ms), 1e-9);
    fcScene_Free(&s);
    return 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Contacts: shape surfaces, filters, sensors, hulls, meshes; joint limits, motors, collide_connected, ropes
// ---------------------------------------------------------------------------------------------------------------------


static int test_shape_keys(void)
{
    fcScene s;
    const char* json =
        "{\"bodies\": ["
        " {\"name\": \"ground\", \"type\": \"static\", \"shapes\": ["
        "  {\"type\": \"plane\", \"friction\": 0.8, \"restitution\": 0.25, \"filter\": {\"category\": 2, \"mask\": 5}},"
        "  {\"type\": \"mesh\", \"position\": [5, 0, 0], \"vertices\": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],"
        "   \"triangles\": [[0, 1, 2], [0, 2, 3]]}]},"
        " {\"name\": \"ball\", \"position\": [0, 0, 1], \"shapes\": [{\"type\": \"sphere\", \"radius\": 0.1,"
        "  \"friction\": 0, \"restitution\": 1, \"rolling_friction\": 0.01, \"torsional_friction\": 0.02,"
        "  \"filter\": {\"category\": 9007199254740991}}]},"
        " {\"name\": \"gem\", \"position\": [2, 0, 1], \"shapes\": [{\"type\": \"hull\", \"density\": 500, \"points\":"
        "  [[-0.1, -0.1, -0.1], [0.1, -0.1, -0.1], [0.1, 0.1, -0.1], [-0.1, 0.1, -0.1],"
        "   [-0.1, -0.1, 0.1], [0.1, -0.1, 0.1], [0.1, 0.1, 0.1], [-0.1, 0.1, 0.1], [0, 0, 0]]}]},"
        " {\"name\": \"trigger\", \"type\": \"static\", \"position\": [0, 0, 0.5],"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.5, 0.1], \"sensor\": true, \"filter\": {\"mask\": 0}}]}]}";
    ENSURE(fcScene_LoadString(json, "shapes.json", &s, s_err, sizeof s_err));
    ENSURE(fcBody_GetShapeCount(body(&s, "ground")) == 2);
    fcShapeDef plane = shapeDef(&s, "ground", 0);
    ENSURE(plane.type == fc_planeShape);
    ENSURE_NEAR(plane.friction, 0.8, 1e-6);
    ENSURE_NEAR(plane.restitution, 0.25, 0);
    ENSURE(plane.categoryBits == 2 && plane.maskBits == 5);
    ENSURE(!plane.isSensor);
    fcShapeDef mesh = shapeDef(&s, "ground", 1);
    ENSURE(mesh.type == fc_meshShape && mesh.vertexCount == 4 && mesh.triangleCount == 2);
    ENSURE(mesh.indices != NULL && mesh.indices[3] == 0 && mesh.indices[4] == 2 && mesh.indices[5] == 3);
    ENSURE(mesh.vertices != NULL);
    ENSURE_NEAR(mesh.vertices[2].x, 1, 0);
    ENSURE_NEAR(mesh.vertices[2].y, 1, 0);
    ENSURE_NEAR(mesh.localPosition.x, 5, 0);
    // defaults: friction 0.6, restitution 0, category 1, mask all bits
    ENSURE_NEAR(mesh.friction, 0.6, 1e-6);
    ENSURE_NEAR(mesh.restitution, 0, 0);
    ENSURE(mesh.categoryBits == 1 && mesh.maskBits == UINT64_MAX);
    fcShapeDef ball = shapeDef(&s, "ball", 0);
    ENSURE_NEAR(ball.friction, 0, 0);
    ENSURE_NEAR(ball.restitution, 1, 0);
    ENSURE_NEAR(ball.rollingFriction, 0.01, 1e-8);
    ENSURE_NEAR(ball.torsionalFriction, 0.02, 1e-8);
    ENSURE(ball.categoryBits == 9007199254740991ull && ball.maskBits == UINT64_MAX);  // mask absent: all bits
    // a hull of a 0.2 m cube (and a point inside it): 0.008 m^3 at 500 kg/m^3 is 4 kg, I = m (a^2 + b^2) / 12
    fcShapeDef gem = shapeDef(&s, "gem", 0);
    ENSURE(gem.type == fc_hullShape && gem.pointCount == 9);
    ENSURE_NEAR(gem.points[6].z, 0.1, 1e-8);
    ENSURE_NEAR(fcBody_GetMass(body(&s, "gem")), 4, 1e-5);
    ENSURE_NEAR(fcBody_GetInertia(body(&s, "gem")).x, 4 * 0.08 / 12, 1e-7);
    fcShapeDef trigger = shapeDef(&s, "trigger", 0);
    ENSURE(trigger.isSensor && trigger.maskBits == 0 && trigger.categoryBits == 1);
    // the ball (restitution 1) falls onto the plane (0.25): the pair bounces with the larger, 1
    int contactSteps = 0;
    double pairRestitution = -1, pairFriction = -1;
    for (int i = 0; i < 60 && contactSteps == 0; ++i) {
        ENSURE(fcWorld_Step(s.world));
        fcContactData c[4];
        int n = fcBody_GetContacts(body(&s, "ball"), c, 4);
        if (n > 0) contactSteps = n, pairRestitution = c[0].restitution, pairFriction = c[0].friction;
    }
    ENSURE(contactSteps == 1);
    ENSURE_NEAR(pairRestitution, 1, 0);
    ENSURE_NEAR(pairFriction, 0, 0);  // sqrt(0 * 0.8)
    fcScene_Free(&s);
    return 0;
}

// The filter decides which shapes touch: two boxes overlapping a plane, one of them masked off it.
static int test_filter_and_sleeping(void)
{
    const char* json =
        "{\"sleeping\": %s, \"bodies\": ["
        " {\"name\": \"ground\", \"type\": \"static\", \"shapes\": [{\"type\": \"plane\", \"filter\": {\"category\": 1}}]},"
        " {\"name\": \"kept\", \"position\": [0, 0, 0.1], \"mass\": 1,"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1], \"filter\": {\"category\": 2, \"mask\": 1}}]},"
        " {\"name\": \"ghost\", \"position\": [1, 0, 0.1], \"mass\": 1,"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1], \"filter\": {\"category\": 2, \"mask\": 6}}]}]}";
    for (int sleeping = 0; sleeping < 2; ++sleeping) {
        char text[2048];
        snprintf(text, sizeof text, json, sleeping ? "true" : "false");
        fcScene s;
        ENSURE(fcScene_LoadString(text, "filter.json", &s, s_err, sizeof s_err));
        for (int i = 0; i < 120; ++i) ENSURE(fcWorld_Step(s.world));
        // the kept box rests on the ground, carried by m g; the ghost (its mask lacks the ground's bit) fell through
        fcContactData c[8];
        int n = fcBody_GetContacts(body(&s, "kept"), c, 8);
        ENSURE(n >= 1 && n <= 8);
        double fz = 0;
        for (int k = 0; k < n; ++k) fz += FC_ID_EQUALS(c[k].bodyB, body(&s, "kept")) ? c[k].force.z : -c[k].force.z;
        ENSURE_NEAR(fz, 9.81, 0.01);
        ENSURE_NEAR(fcBody_GetPosition(body(&s, "kept")).z, 0.1, 0.01);
        ENSURE(fcBody_GetContacts(body(&s, "ghost"), c, 8) == 0);
        ENSURE_LE(fcBody_GetPosition(body(&s, "ghost")).z, -5);
        // 2 s: the resting box sleeps only when the scene lets it (the falling ghost never rests)
        ENSURE(fcWorld_GetStats(s.world).awakeBodies == (sleeping ? 1 : 2));
        fcScene_Free(&s);
    }
    return 0;
}

// The scene `json` (a format with one %s, where a key goes) with each of `count` keys, stepped `steps` times: the x of
// body `name` at the end of each run in x[]. False when a scene does not load or a step fails.
static bool fcRunWithKeys(const char* json, const char* const* keys, int count, int steps, const char* name, double* x)
{
    for (int k = 0; k < count; ++k) {
        char text[2048];
        snprintf(text, sizeof text, json, keys[k]);
        fcScene s;
        if (!fcScene_LoadString(text, "keys.json", &s, s_err, sizeof s_err)) return false;
        bool stepped = true;
        for (int i = 0; i < steps && stepped; ++i) stepped = fcWorld_Step(s.world);
        x[k] = fcBody_GetPosition(body(&s, name)).x;
        fcScene_Free(&s);
        if (!stepped) return false;
    }
    return true;
}

// friction_model: a plate sliding at 2 m/s and spinning at 10 rad/s (test_contacts' test_spinning_slide_within_the_cone)
// slides as far as its reference says (0.568 m) on the cone, the default; on the pyramid, whose corner gives the
// manifold up to sqrt(2) mu lambda_n and the whole twist besides, it stops after some 0.31 m
static int test_friction_model(void)
{
    const char* json =
        "{\"sleeping\": false, %s \"bodies\": ["
        " {\"name\": \"ground\", \"type\": \"static\", \"shapes\": [{\"type\": \"plane\", \"friction\": 0.5}]},"
        " {\"name\": \"plate\", \"position\": [0, 0, 0.05], \"velocity\": [2, 0, 0], \"angular_velocity\": [0, 0, 10],"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.25, 0.25, 0.05], \"density\": 80, \"friction\": 0.5}]}]}";
    const char* keys[3] = {"", "\"friction_model\": \"cone\",", "\"friction_model\": \"pyramid\","};
    double slid[3];
    ENSURE(fcRunWithKeys(json, keys, 3, 180, "plate", slid));
    printf("  a plate sliding and spinning: %.4f m (default), %.4f m (cone), %.4f m (pyramid); the reference 0.568 m\n",
           slid[0], slid[1], slid[2]);
    ENSURE(slid[0] == slid[1]);
    ENSURE_NEAR(slid[1], 0.568, 0.03 * 0.568);
    ENSURE_LE(slid[2], 0.45);
    return 0;
}

// continuous: a plank turning 1.7 rad a step flown at a 2 cm plate (test_contacts' test_no_tunnelling_while_turning)
// stays in front of it by default and with "continuous": true; with false it passes through
static int test_continuous_key(void)
{
    const char* json =
        "{\"gravity\": [0, 0, 0], \"sleeping\": false, %s \"bodies\": ["
        " {\"name\": \"plate\", \"type\": \"static\", \"position\": [3.01, 0, 0],"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.01, 5, 5]}]},"
        " {\"name\": \"plank\", \"velocity\": [60, 0, 0], \"angular_velocity\": [0, 20, 100],"
        "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.05, 1, 0.05]}]}]}";
    const char* keys[3] = {"", "\"continuous\": true,", "\"continuous\": false,"};
    double x[3];
    ENSURE(fcRunWithKeys(json, keys, 3, 90, "plank", x));
    printf("  a plank turning fast at a 2 cm plate (its face at x = 3): its centre at x = %.3f m (default), %.3f m "
           "(continuous), %.3f m (not)\n", x[0], x[1], x[2]);
    ENSURE(x[0] == x[1]);
    ENSURE_LE(x[1], 3);
    ENSURE(x[2] > 3.02);
    return 0;
}

static int test_joint_contact_keys(void)
{
    fcScene s;
    const char* json =
        "{\"gravity\": [0, 0, 0], \"bodies\": ["
        " {\"name\": \"wheel\", \"mass\": 1, \"inertia\": [1, 1, 1]},"
        " {\"name\": \"arm\", \"position\": [2, 0, 0], \"mass\": 1, \"inertia\": [1, 1, 1]},"
        " {\"name\": \"cart\", \"position\": [4, 0, 0], \"mass\": 1, \"inertia\": [1, 1, 1]},"
        " {\"name\": \"stop\", \"position\": [6, 0, 0], \"mass\": 1, \"inertia\": [1, 1, 1], \"velocity\": [0, 0, -1]},"
        " {\"name\": \"weight\", \"position\": [8, 0, 1.5], \"mass\": 1, \"inertia\": [1, 1, 1], \"velocity\": [0, 0, -3]}],"
        " \"joints\": ["
        "  {\"name\": \"spin\", \"type\": \"hinge\", \"body_b\": \"wheel\", \"axis\": [0, 0, 1e300],"  // a direction: z (it overflowed to zero)
        "   \"motor\": {\"speed\": 2, \"max_force\": 0.5}},"
        "  {\"name\": \"elbow\", \"type\": \"hinge\", \"body_b\": \"arm\", \"axis\": [0, 0, 1], \"limits\": [-0.5, 0.5],"
        "   \"motor\": {\"servo_target\": 0.3, \"gain\": 5, \"max_force\": 100}, \"collide_connected\": true},"
        "  {\"name\": \"rail\", \"type\": \"slider\", \"body_b\": \"cart\", \"axis\": [1, 0, 0],"
        "   \"motor\": {\"servo_target\": -0.2, \"max_force\": 100}},"
        "  {\"name\": \"travel\", \"type\": \"slider\", \"body_b\": \"stop\", \"axis\": [0, 0, 1], \"limits\": [-0.1, 0.25]},"
        "  {\"name\": \"rope\", \"type\": \"rope\", \"body_b\": \"weight\", \"anchor_a\": [8, 0, 2], \"length\": 1,"
        "   \"collide_connected\": false}]}";
    ENSURE(fcScene_LoadString(json, "joints.json", &s, s_err, sizeof s_err));
    // a hinge has 5 rows, a limit adds one and a motor one
    ENSURE(fcJoint_GetRowCount(joint(&s, "spin")) == 6);
    ENSURE(fcJoint_GetRowCount(joint(&s, "elbow")) == 7);
    ENSURE(fcJoint_GetRowCount(joint(&s, "rail")) == 6);
    ENSURE(fcJoint_GetRowCount(joint(&s, "travel")) == 6);
    fcJointId rope = joint(&s, "rope");
    ENSURE(fcJoint_GetType(rope) == fc_ropeJoint && fcJoint_GetRowCount(rope) == 1);
    ENSURE(strcmp(fcScene_JointTypeName(&s, fcScene_FindJoint(&s, "rope")), "rope") == 0);
    ENSURE_NEAR(fcJoint_GetAnchorA(rope).z, 2, 0);
    // one step: the speed motor is bounded by its 0.5 N m, so the wheel (I = 1) turns at 0.5 h rad/s
    ENSURE(fcWorld_Step(s.world));
    double h = fcWorld_GetTimestep(s.world);
    ENSURE_NEAR(fcJoint_GetCoordinateRate(joint(&s, "spin")), 0.5 * h, 1e-9);
    ENSURE_NEAR(fabs(fcJoint_GetReaction(joint(&s, "spin")).motorForce), 0.5, 1e-9);
    for (int i = 0; i < 600; ++i) ENSURE(fcWorld_Step(s.world));
    // 10 s: the bound motor reached its 2 rad/s; the servos hold their targets; the limit stops the travel at
    // its lower end -0.1 m (not at the -10 m a free body would reach); the rope stopped the weight at 1 m
    ENSURE_NEAR(fcJoint_GetCoordinateRate(joint(&s, "spin")), 2, 1e-6);
    ENSURE_NEAR(fcJoint_GetCoordinate(joint(&s, "elbow")), 0.3, 1e-4);
    ENSURE_NEAR(fcJoint_GetCoordinate(joint(&s, "rail")), -0.2, 1e-4);
    ENSURE_NEAR(fcJoint_GetCoordinate(joint(&s, "travel")), -0.1, 1e-3);
    ENSURE_NEAR(fcVec3_Distance(fcJoint_GetAnchorA(rope), fcJoint_GetAnchorB(rope)), 1, 1e-3);
    fcScene_Free(&s);

    // collide_connected: two boxes overlapping at a ball joint touch only when the joint asks for it
    for (int collide = 0; collide < 2; ++collide) {
        char text[1024];
        snprintf(text, sizeof text,
                 "{\"gravity\": [0, 0, 0], \"bodies\": ["
                 " {\"name\": \"a\", \"type\": \"static\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1]}]},"
                 " {\"name\": \"b\", \"position\": [0.15, 0, 0], \"mass\": 1,"
                 "  \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.1, 0.1, 0.1]}]}],"
                 " \"joints\": [{\"name\": \"pin\", \"type\": \"ball\", \"body_a\": \"a\", \"body_b\": \"b\","
                 "  \"anchor\": [0.05, 0, 0], \"collide_connected\": %s}]}",
                 collide ? "true" : "false");
        ENSURE(fcScene_LoadString(text, "connected.json", &s, s_err, sizeof s_err));
        ENSURE(fcWorld_Step(s.world));
        ENSURE((fcBody_GetContacts(body(&s, "b"), NULL, 0) > 0) == (collide != 0));
        fcScene_Free(&s);
    }
    return 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcBadCase {
    const char* file;   // in tests/scenes_bad/
    const char* place;  // must appear in the message
    const char* fault;  // must appear in the message
} fcBadCase;

static const fcBadCase fc_badFiles[] = {
    {"unknown_key.json", "bodies[0] (\"bob\").masss", "unknown key"},
    {"negative_mass.json", "bodies[2] (\"bob\").mass", "must be > 0"},
    {"zero_axis.json", "joints[0] (\"hinge1\").axis", "zero vector"},
    {"missing_body.json", "joints[0] (\"pin\").body_b", "no body named \"nobody\""},
    {"duplicate_body.json", "bodies[1] (\"bob\").name", "duplicate"},
    {"duplicate_joint_name.json", "springs[0] (\"link\").name", "duplicate"},
    {"wrong_type.json", "bodies[0] (\"bob\").position", "got a string"},
    {"wrong_length.json", "bodies[0] (\"bob\").position", "array of 3 numbers, got 2"},
    {"infinite.json", "bodies[0] (\"bob\").mass", "finite"},
    {"negative_stiffness.json", "joints[0] (\"rope\").stiffness", "must be >= 0, got -5"},
    {"bad_timestep.json", "timestep", "must be in [1e-9, 1]"},
    {"no_inertia.json", "bodies[0] (\"bob\").inertia", "missing"},
    {"coupling_ball.json", "joints[2] (\"gear\").joint_a", "hinge or slider"},
    {"too_many_rows.json", "joints[0] (\"roll\").rows", "1 to 6 rows"},
    {"not_for_type.json", "joints[0] (\"pivot\").axis", "not used by a ball joint"},
    {"duplicate_key.json", "bodies[0] (\"bob\").mass", "twice"},
    {"invalid_json.json", "line 4, column", "invalid JSON"},
    {"truncated.json", "line 5, column", "truncated"},
    {"not_an_object.json", "not_an_object.json: ", "expected an object"},
    {"bad_shape.json", "bodies[0] (\"ball\").shapes[1].type", "cone"},
    {"bad_mesh_index.json", "bodies[0] (\"floor\").shapes[0].triangles[1][0]", "index 4 is out of range"},
    {"bad_motor.json", "joints[0] (\"shoulder\").motor.max_force", "missing"},
    // the loader's range is the engine's (it said 1 to 1000000, and the engine's refusal named no key)
    {"projection_iterations.json", "projection_max_iterations", "from 1 to 1000, got 1001"},
};

// Check one refused load: false result, an empty scene, one line naming file, place and fault.
static int checkRefused(bool ok, const fcScene* s, const char* file, const char* place, const char* fault)
{
    if (ok || !isEmpty(s) || strstr(s_err, file) == NULL || strstr(s_err, place) == NULL ||
        strstr(s_err, fault) == NULL || strchr(s_err, '\n') != NULL) {
        fprintf(stderr, "  %s: expected \"%s\" and \"%s\" in the message; got ok = %d, \"%s\"\n", file, place, fault,
                ok, s_err);
        return 1;
    }
    return 0;
}

static int test_bad_files(void)
{
    int failures = 0;
    for (size_t k = 0; k < sizeof fc_badFiles / sizeof fc_badFiles[0]; ++k) {
        const fcBadCase* c = fc_badFiles + k;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", FC_BAD_SCENE_DIR, c->file);
        fcScene s;
        s_err[0] = '\0';
        bool ok = fcScene_Load(path, &s, s_err, sizeof s_err);
        failures += checkRefused(ok, &s, path, c->place, c->fault);
        if (ok) fcScene_Free(&s);
    }
    ENSURE(failures == 0);
    return 0;
}

static const fcBadCase fc_badStrings[] = {
    {"{\"bodies\": [{\"mass\": 1}]}", "bodies[0].name", "missing"},
    // an escaped NUL (cJSON ended the name there: "bob"); an escaped backslash before u0000 is text, not an escape
    {"{\"bodies\": [{\"name\": \"bob\\u0000.x\", \"mass\": 1, \"inertia\": [1, 1, 1]}]}", "line 1, column 26", "\\u0000 escape"},
    {"{\"name\": \"a\\\\u0000\", \"bodies\": [{\"mass\": 1}]}", "bodies[0].name", "missing"},
    {"{\"bodies\": [{\"name\": \"a b\", \"mass\": 1, \"inertia\": [1, 1, 1]}]}", "bodies[0] (\"a b\").name", "letters"},
    {"{\"bodies\": [{\"name\": \"world\", \"mass\": 1, \"inertia\": [1, 1, 1]}]}", ".name", "reserved"},
    {"{\"bodies\": [{\"name\": \"b\", \"type\": \"floating\"}]}", "bodies[0] (\"b\").type", "floating"},
    {"{\"bodies\": [{\"name\": \"b\"}]}", "bodies[0] (\"b\").mass", "missing"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 0, 1]}]}", "bodies[0] (\"b\").inertia[1]", "must be > 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia_tensor\": [1, 2, 0, 0, 1, 0, 0, 0, 1]}]}", ".inertia_tensor",
     "symmetric"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia_tensor\": [1, 2, 0, 2, 1, 0, 0, 0, 1]}]}", ".inertia_tensor",
     "positive definite"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1], \"inertia_tensor\": [1, 0, 0, 0, 1, 0, 0, 0, 1]}]}",
     ".inertia_tensor", "not both"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1], \"orientation\": [1, 1, 0, 0]}]}",
     "bodies[0] (\"b\").orientation", "unit quaternion"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1], \"velocity\": [1, \"2\", 3]}]}",
     "bodies[0] (\"b\").velocity[1]", "expected a number"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1], \"linear_damping\": -1}]}", ".linear_damping",
     "must be >= 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 0}]}]}", "shapes[0].radius",
     "must be > 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"box\", \"radius\": 1}]}]}", "shapes[0].radius",
     "not used by a box"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [1, 1, -1]}]}]}",
     "shapes[0].half_extents[2]", "must be > 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"cylinder\", \"radius\": 1}]}]}", "shapes[0].half_height",
     "missing"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"density\": 0}]}]}",
     "shapes[0].density", "must be > 0"},
    {"{\"timestep\": -0.01}", "timestep", "must be in [1e-9, 1]"},
    {"{\"timestep\": 5e-324}", "timestep", "must be in [1e-9, 1]"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1e-300}]}]}",
     "bodies[0] (\"b\").shapes[0]", "mass comes out as 0"},
    {"{\"timestep\": \"fast\"}", "timestep", "expected a number, got a string"},
    {"{\"duration\": 0}", "duration", "must be > 0"},
    {"{\"stabilization\": \"magic\"}", "stabilization", "magic"},
    {"{\"friction_model\": \"box\"}", "friction_model", "must be cone or pyramid"},
    {"{\"continuous\": 1}", "continuous", "expected true or false"},
    {"{\"baumgarte\": 2}", "baumgarte", "<= 1"},
    {"{\"projection_max_iterations\": 2.5}", "projection_max_iterations", "whole number"},
    {"{\"gravity\": [0, 0, -1e999]}", "gravity[2]", "finite"},
    {"{\"gravity\": [0, 0, -9.81, 1]}", "gravity", "array of 3 numbers"},
    {"{\"bodies\": {}}", "bodies", "expected an array"},
    {"{\"wind\": 3}", "wind", "unknown key"},
    {"{\"name\": 3}", "name", "expected a string"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"weld\", \"body_b\": \"b\"}]}",
     "joints[0] (\"j\").type", "unknown joint type"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"ball\"}]}",
     "joints[0] (\"j\").body_b", "missing"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"ball\", \"body_a\": \"b\", \"body_b\": \"world\"}]}",
     "joints[0] (\"j\").body_b", "not the world"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"ball\", \"body_a\": \"b\", \"body_b\": \"b\"}]}",
     "joints[0] (\"j\").body_b", "same body"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"hinge\", \"body_b\": \"b\"}]}",
     "joints[0] (\"j\").axis", "missing"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"universal\", \"body_b\": \"b\", \"axis\": [1, 0, 0], \"axis_b\": [1, 1, 0]}]}",
     "joints[0] (\"j\").axis_b", "perpendicular"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"blade\", \"body_b\": \"b\", \"normal\": [0, 0, 1], \"axis\": [0, 0, 1]}]}",
     "joints[0] (\"j\").axis", "perpendicular"},
    {"{\"bodies\": [{\"name\": \"b\", \"position\": [1, 0, 0], \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"distance\", \"body_b\": \"b\", \"length\": 0}]}",
     "joints[0] (\"j\").length", "must be > 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"distance\", \"body_b\": \"b\"}]}",
     "joints[0] (\"j\").anchor_b", "initial distance is 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"s\", \"type\": \"slider\", \"body_b\": \"b\", \"axis\": [0, 0, 1]},"
     " {\"name\": \"c\", \"type\": \"coupling\", \"joint_a\": \"s\", \"joint_b\": \"later\"},"
     " {\"name\": \"later\", \"type\": \"slider\", \"body_b\": \"b\", \"axis\": [0, 1, 0]}]}",
     "joints[1] (\"c\").joint_b", "no earlier joint named \"later\""},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"c\", \"type\": \"coupling\", \"body_b\": \"b\"}]}",
     "joints[0] (\"c\").body_b", "not used by a coupling"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"linear\", \"body_b\": \"b\", \"rows\": [{\"jacobian_b\": [1, 0, 0]}]}]}",
     "joints[0] (\"r\").rows[0].jacobian_b", "array of 6 numbers, got 3"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"linear\", \"body_b\": \"b\", \"rows\": [{\"rate\": 1}]}]}",
     "joints[0] (\"r\").rows[0]", "all zeros"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"linear\", \"body_b\": \"b\", \"rows\": []}]}",
     "joints[0] (\"r\").rows", "1 to 6 rows"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"linear\", \"body_b\": \"b\", \"rows\": [{\"jacobian_b\": [1, 0, 0, 0, 0, 0],"
     " \"holonomic\": true}]}]}",
     "joints[0] (\"r\").rows[0].holonomic", "unknown key"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"springs\": [{\"name\": \"s\", \"body_b\": \"b\", \"anchor_a\": [0, 0, 1]}]}",
     "springs[0] (\"s\").stiffness", "missing"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"springs\": [{\"name\": \"s\", \"body_b\": \"b\", \"anchor_a\": [0, 0, 1], \"stiffness\": 0}]}",
     "springs[0] (\"s\").stiffness", "must be > 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"springs\": [{\"name\": \"s\", \"body_b\": \"b\", \"stiffness\": 10, \"rest_length\": -1}]}",
     "springs[0] (\"s\").rest_length", "must be >= 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"expected\": [{\"joint\": \"nothing\", \"peak_force\": 1}]}",
     "expected[0].joint", "no joint or spring named"},
    // contacts: shape surfaces, filters, hulls, meshes
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"friction\": -0.1}]}]}",
     "bodies[0] (\"b\").shapes[0].friction", "must be >= 0, got -0.1"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"restitution\": 1.5}]}]}",
     "bodies[0] (\"b\").shapes[0].restitution", "must be in [0, 1], got 1.5"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"rolling_friction\": -1}]}]}",
     "shapes[0].rolling_friction", "must be >= 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"filter\": {\"mask\": 2.5}}]}]}",
     "bodies[0] (\"b\").shapes[0].filter.mask", "must be a whole number from 0 to 2^53 - 1 (a bit set), got 2.5"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"filter\": {\"category\": -1}}]}]}",
     "shapes[0].filter.category", "whole number"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"filter\": {\"mask\": \"all\"}}]}]}",
     "shapes[0].filter.mask", "expected a number, got a string"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"filter\": {\"group\": 1}}]}]}",
     "shapes[0].filter.group", "unknown key"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"filter\": 3}]}]}",
     "shapes[0].filter", "expected an object, got a number"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"mask\": 3}]}]}",
     "shapes[0].mask", "unknown key"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"sensor\": 1}]}]}",
     "shapes[0].sensor", "expected true or false"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"hull\", \"points\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}]}]}",
     "bodies[0] (\"b\").shapes[0].points", "a hull (points spanning a volume) needs at least 4, got 3"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"shapes\": [{\"type\": \"hull\","
     " \"points\": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]]}]}]}",
     "bodies[0] (\"b\").shapes[0].points", "the engine refused the hull: fcCreateShape: hull refused: the 4 points are coplanar"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"hull\", \"points\": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0]]}]}]}",
     "shapes[0].points[3]", "array of 3 numbers, got 2"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"hull\", \"radius\": 1,"
     " \"points\": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]}]}]}",
     "shapes[0].radius", "not used by a hull shape"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"sphere\", \"radius\": 1, \"points\": [[0, 0, 0]]}]}]}",
     "shapes[0].points", "not used by a sphere shape"},
    {"{\"bodies\": [{\"name\": \"g\", \"type\": \"static\", \"shapes\": [{\"type\": \"mesh\","
     " \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], \"triangles\": [[0, 1, 2], [2, 1, 7]]}]}]}",
     "bodies[0] (\"g\").shapes[0].triangles[1][2]", "index 7 is out of range: the mesh has 3 vertices (0 to 2)"},
    {"{\"bodies\": [{\"name\": \"g\", \"type\": \"static\", \"shapes\": [{\"type\": \"mesh\","
     " \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], \"triangles\": [[0, -1, 2]]}]}]}",
     "shapes[0].triangles[0][1]", "index -1 is out of range"},
    {"{\"bodies\": [{\"name\": \"g\", \"type\": \"static\", \"shapes\": [{\"type\": \"mesh\","
     " \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], \"triangles\": [[0, 1.5, 2]]}]}]}",
     "shapes[0].triangles[0][1]", "whole number (a vertex index), got 1.5"},
    {"{\"bodies\": [{\"name\": \"g\", \"type\": \"static\", \"shapes\": [{\"type\": \"mesh\","
     " \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], \"triangles\": []}]}]}",
     "shapes[0].triangles", "at least 1 triangle"},
    {"{\"bodies\": [{\"name\": \"g\", \"type\": \"static\", \"shapes\": [{\"type\": \"mesh\","
     " \"vertices\": [[0, 0, 0], [1, 0, 0], [2, 0, 0]], \"triangles\": [[0, 1, 2]]}]}]}",
     "bodies[0] (\"g\").shapes[0]", "the engine refused the shape: fcCreateShape: mesh refused: all 1 triangles of the mesh have zero area"},
    {"{\"bodies\": [{\"name\": \"g\", \"type\": \"static\", \"shapes\": [{\"type\": \"mesh\","
     " \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}]}]}",
     "shapes[0].triangles", "missing: a mesh shape needs it"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1], \"shapes\": [{\"type\": \"plane\"}]}]}",
     "bodies[0] (\"b\").shapes[0].type", "a plane shape can only be on a static body, and this body is dynamic"},
    {"{\"bodies\": [{\"name\": \"k\", \"type\": \"kinematic\", \"shapes\": [{\"type\": \"mesh\","
     " \"vertices\": [[0, 0, 0], [1, 0, 0], [0, 1, 0]], \"triangles\": [[0, 1, 2]]}]}]}",
     "bodies[0] (\"k\").shapes[0].type", "a mesh shape can only be on a static body, and this body is kinematic"},
    {"{\"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"cone\", \"radius\": 1}]}]}", "shapes[0].type",
     "must be sphere, box, capsule, cylinder, hull, plane or mesh"},
    // joints: limits, motors, collide_connected, the rope
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"hinge\", \"body_b\": \"b\", \"axis\": [0, 0, 1], \"limits\": [0.5, -0.5]}]}",
     "joints[0] (\"j\").limits", "lower <= upper (rad), got [0.5, -0.5]"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"slider\", \"body_b\": \"b\", \"axis\": [0, 0, 1], \"limits\": [0]}]}",
     "joints[0] (\"j\").limits", "array of 2 numbers, got 1"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"hinge\", \"body_b\": \"b\", \"axis\": [0, 0, 1], \"motor\": {\"speed\": 1}}]}",
     "joints[0] (\"j\").motor.max_force", "missing: a motor needs its largest torque > 0 (N m)"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"slider\", \"body_b\": \"b\", \"axis\": [0, 0, 1],"
     " \"motor\": {\"speed\": 1, \"max_force\": 0}}]}",
     "joints[0] (\"j\").motor.max_force", "must be > 0, got 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"hinge\", \"body_b\": \"b\", \"axis\": [0, 0, 1],"
     " \"motor\": {\"speed\": 1, \"servo_target\": 1, \"max_force\": 1}}]}",
     "joints[0] (\"j\").motor.servo_target", "not both"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"hinge\", \"body_b\": \"b\", \"axis\": [0, 0, 1],"
     " \"motor\": {\"speed\": 1, \"gain\": 3, \"max_force\": 1}}]}",
     "joints[0] (\"j\").motor.gain", "used only by a servo"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"hinge\", \"body_b\": \"b\", \"axis\": [0, 0, 1],"
     " \"motor\": {\"servo_target\": 1, \"gain\": 0, \"max_force\": 1}}]}",
     "joints[0] (\"j\").motor.gain", "must be > 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"hinge\", \"body_b\": \"b\", \"axis\": [0, 0, 1],"
     " \"motor\": {\"torque\": 1, \"max_force\": 1}}]}",
     "joints[0] (\"j\").motor.torque", "unknown key"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"ball\", \"body_b\": \"b\", \"limits\": [0, 1]}]}",
     "joints[0] (\"j\").limits", "not used by a ball joint (only a hinge or a slider has a coordinate to limit)"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"fixed\", \"body_b\": \"b\", \"motor\": {\"speed\": 1, \"max_force\": 1}}]}",
     "joints[0] (\"j\").motor", "not used by a fixed joint"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"ball\", \"body_b\": \"b\", \"collide_connected\": 1}]}",
     "joints[0] (\"j\").collide_connected", "expected true or false"},
    {"{\"bodies\": [{\"name\": \"b\", \"position\": [0, 0, -1], \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"rope\", \"body_b\": \"b\", \"stiffness\": 100}]}",
     "joints[0] (\"r\").stiffness", "not used by a rope joint"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"rope\", \"body_b\": \"b\"}]}",
     "joints[0] (\"r\").anchor_b", "initial distance is 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"position\": [0, 0, -1], \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"rope\", \"body_b\": \"b\", \"length\": -2}]}",
     "joints[0] (\"r\").length", "must be > 0"},
    {"{\"bodies\": [{\"name\": \"b\", \"position\": [0, 0, -1], \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"r\", \"type\": \"rope\", \"body_b\": \"b\", \"anchor\": [0, 0, 0]}]}",
     "joints[0] (\"r\").anchor", "not used by a rope joint"},
    {"{\"bodies\": [{\"name\": \"b\", \"mass\": 1, \"inertia\": [1, 1, 1]}],"
     " \"joints\": [{\"name\": \"j\", \"type\": \"string\", \"body_b\": \"b\"}]}",
     "joints[0] (\"j\").type", "coupling, linear or rope)"},
    {"{\"sleeping\": \"no\"}", "sleeping", "expected true or false"},
    {"", "line 1, column 1", "truncated"},
    {"{\"name\": \"x\"} trailing", "line 1, column", "invalid JSON"},
    {"{\n  \"name\": \"x\",\n  \"bodies\": [\n", "line 4", "truncated"},
};

static int test_bad_strings(void)
{
    int failures = 0;
    for (size_t k = 0; k < sizeof fc_badStrings / sizeof fc_badStrings[0]; ++k) {
        const fcBadCase* c = fc_badStrings + k;
        fcScene s;
        s_err[0] = '\0';
        bool ok = fcScene_LoadString(c->file, "bad.json", &s, s_err, sizeof s_err);
        if (checkRefused(ok, &s, "bad.json: ", c->place, c->fault)) {
            fprintf(stderr, "    (case %zu: %s)\n", k, c->file);
            ++failures;
        }
        if (ok) fcScene_Free(&s);
    }
    ENSURE(failures == 0);
    return 0;
}

static int test_missing_file(void)
{
    fcScene s;
    const char* path = FC_BAD_SCENE_DIR "/no_such_scene.json";
    ENSURE(!fcScene_Load(path, &s, s_err, sizeof s_err));
    ENSURE(isEmpty(&s));
    ENSURE(strstr(s_err, path) != NULL);
    ENSURE(strstr(s_err, "cannot open") != NULL);
    // a NULL message buffer is allowed
    ENSURE(!fcScene_Load(path, &s, NULL, 0));
    ENSURE(isEmpty(&s));
    // a file that never ends is read up to the cap (256 MB), not until memory runs out; nor is a file just over it
    ENSURE(!fcScene_Load("/dev/zero", &s, s_err, sizeof s_err));
    ENSURE(isEmpty(&s));
    ENSURE(strcmp(s_err, "/dev/zero: the scene file is larger than 256 MB") == 0);
    char big[] = "/tmp/fulcrum-big-scene-XXXXXX";
    int fd = mkstemp(big);
    ENSURE(fd >= 0);
    bool sized = ftruncate(fd, ((off_t)256 << 20) + 1) == 0;  // sparse: no disk taken
    close(fd);
    bool refused = sized && !fcScene_Load(big, &s, s_err, sizeof s_err);
    unlink(big);
    ENSURE(sized && refused && isEmpty(&s));
    ENSURE(strstr(s_err, "the scene file is larger than 256 MB") != NULL);
    return 0;
}

// A shipped scene cut in half: refused with a line number, whatever the cut.
static int test_truncated_shipped(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/pendulum.json", FC_SCENE_DIR);
    FILE* f = fopen(path, "rb");
    ENSURE(f != NULL);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    ENSURE(n > 100);
    for (size_t cut = 1; cut < n - 2; cut += 37) {
        char saved = text[cut];
        text[cut] = '\0';
        fcScene s;
        bool ok = fcScene_LoadString(text, "cut.json", &s, s_err, sizeof s_err);
        text[cut] = saved;
        if (ok || !isEmpty(&s) || strstr(s_err, "cut.json: line ") == NULL) {
            fprintf(stderr, "  cut at %zu: ok = %d, \"%s\"\n", cut, ok, s_err);
            return 1;
        }
    }
    return 0;
}

// A failure after bodies and joints were made destroys the world and leaves nothing behind.
static int test_failure_cleans_up(void)
{
    fcScene s;
    const char* json = "{\"bodies\": [{\"name\": \"a\", \"mass\": 1, \"inertia\": [1, 1, 1]},"
                       " {\"name\": \"b\", \"position\": [1, 0, 0], \"mass\": 1, \"inertia\": [1, 1, 1]}],"
                       " \"joints\": [{\"name\": \"j\", \"type\": \"ball\", \"body_b\": \"a\"},"
                       " {\"name\": \"r\", \"type\": \"linear\", \"body_b\": \"b\", \"rows\": [{\"jacobian_b\": [1, 0, 0, 0, 0, 0]}]}],"
                       " \"springs\": [{\"name\": \"s\", \"body_a\": \"a\", \"body_b\": \"b\", \"stiffness\": -1}]}";
    ENSURE(!fcScene_LoadString(json, "late.json", &s, s_err, sizeof s_err));
    ENSURE(isEmpty(&s));
    ENSURE(strstr(s_err, "springs[0] (\"s\").stiffness: must be > 0, got -1") != NULL);
    fcScene_Free(&s);  // harmless on an empty scene
    ENSURE(isEmpty(&s));
    return 0;
}

// Load time grows linearly: 4x the bodies and joints take well under 16x the time.
static double loadChainMs(int links)
{
    size_t cap = (size_t)links * 200 + 100;
    char* json = malloc(cap);
    size_t n = (size_t)snprintf(json, cap, "{\"bodies\": [");
    for (int i = 0; i < links; ++i)
        n += (size_t)snprintf(json + n, cap - n, "%s{\"name\": \"b%d\", \"position\": [%d, 0, 0], \"mass\": 1, \"inertia\": [1, 1, 1]}",
                              i ? "," : "", i, i + 1);
    n += (size_t)snprintf(json + n, cap - n, "], \"joints\": [");
    for (int i = 0; i < links; ++i) {
        char bodyA[32] = "world";
        if (i > 0) snprintf(bodyA, sizeof bodyA, "b%d", i - 1);
        n += (size_t)snprintf(json + n, cap - n,
                              "%s{\"name\": \"j%d\", \"type\": \"ball\", \"body_a\": \"%s\", \"body_b\": \"b%d\", "
                              "\"anchor\": [%d.5, 0, 0]}",
                              i ? "," : "", i, bodyA, i, i);
    }
    snprintf(json + n, cap - n, "]}");
    struct timespec t0, t1;
    timespec_get(&t0, TIME_UTC);
    fcScene s;
    bool ok = fcScene_LoadString(json, "big.json", &s, s_err, sizeof s_err);
    timespec_get(&t1, TIME_UTC);
    free(json);
    if (!ok) {
        fprintf(stderr, "  %s\n", s_err);
        return -1;
    }
    bool counts = s.bodyCount == links && s.jointCount == links;
    fcScene_Free(&s);
    if (!counts) return -1;
    return (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
}

static int test_linear_load_time(void)
{
#if defined(__GLIBC__)
    // The loader's work, not the kernel's first touch of new pages: glibc maps the growing arrays of a 20000-link
    // world afresh and gives them back at each free, and a paravirtualized machine takes some 10 us a fault (there
    // 20000 links loaded in 10 to 17 times the time of 5000, 4.6 times with the memory kept between repeats).
    mallopt(M_MMAP_THRESHOLD, 1 << 30);
    mallopt(M_TRIM_THRESHOLD, -1);
#endif
    double small = 1e30, large = 1e30;
    for (int repeat = 0; repeat < 3; ++repeat) {
        double a = loadChainMs(5000), b = loadChainMs(20000);
        ENSURE(a >= 0 && b >= 0);
        small = fmin(small, a);
        large = fmin(large, b);
    }
    printf("  load 5000 links %.1f ms, 20000 links %.1f ms (ratio %.1f; quadratic would be 16)\n", small, large,
           large / fmax(small, 1e-3));
    // below ~20 ms the clock is too coarse to judge
    if (large > 20) ENSURE_LE(large, 10 * small);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_pendulum);
    RUN_TEST(test_stiff_spring);
    RUN_TEST(test_atwood);
    RUN_TEST(test_rolling);
    RUN_TEST(test_other_scenes);
    RUN_TEST(test_chains);
    RUN_TEST(test_stacks);
    RUN_TEST(test_heavy_on_light_demo);
    RUN_TEST(test_defaults);
    RUN_TEST(test_mass_properties);
    RUN_TEST(test_shape_keys);
    RUN_TEST(test_filter_and_sleeping);
    RUN_TEST(test_friction_model);
    RUN_TEST(test_continuous_key);
    RUN_TEST(test_joint_contact_keys);
    RUN_TEST(test_bad_files);
    RUN_TEST(test_bad_strings);
    RUN_TEST(test_missing_file);
    RUN_TEST(test_truncated_shipped);
    RUN_TEST(test_failure_cleans_up);
    RUN_TEST(test_linear_load_time);
    TEST_MAIN_END();
}
