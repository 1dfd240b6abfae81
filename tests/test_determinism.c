// SPDX-License-Identifier: MIT
// Threads change nothing: the same world stepped with 1, 2 and 3 workers ends in bit-identical states (poses,
// velocities, every joint's multipliers and every contact's impulses) and reports the same events and contacts in
// the same order every step; bad worker counts are refused.
#include "test_macros.h"

#include "fulcrum/fulcrum.h"

#include <string.h>

// box k of a pile: tilted a little, differently for each k, so that the boxes topple and slide; every fourth one
// 8 times as dense, so that small islands of the pile are solved exactly (contact_exact.c)
static fcBodyId fcAddBox(fcWorldId w, int k, fcVec3 position, fcReal half)
{
    fcBodyDef bd = fcDefaultBodyDef();
    bd.position = position;
    bd.orientation = fcQuat_Normalize((fcQuat){1, 0.05 * (k % 7 - 3), 0.04 * (k % 5 - 2), 0.1 * (k % 3 - 1)});
    fcBodyId b = fcCreateBody(w, &bd);
    fcShapeDef box = fcDefaultShapeDef();
    box.type = fc_boxShape;
    box.halfExtents = fcV3(half, half, half);
    box.density = k % 4 == 0 ? 8000 : 1000;
    fcCreateShape(b, &box);
    return b;
}

static void fcAddGround(fcWorldId w)
{
    fcBodyDef gd = fcDefaultBodyDef();
    gd.type = fc_staticBody;
    fcShapeDef plane = fcDefaultShapeDef();
    plane.type = fc_planeShape;
    fcCreateShape(fcCreateBody(w, &gd), &plane);
}

// A 1500-link S1 chain released horizontally (big enough that every parallel stage splits into chunks), beside it a
// pile of 120 boxes falling onto the ground (contacts: the collide and contact stages), and heavy boxes falling onto
// light platforms on rails.
static fcWorldId fcBuildWorld(int workers, fcBodyId* bodies, int* bodyCount, fcJointId* joints, int* jointCount)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.workerCount = workers;
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    int nb = 0, nj = 0;
    fcBodyId prev = fc_nullBodyId;
    for (int i = 0; i < 1500; ++i) {
        fcBodyDef bd = fcDefaultBodyDef();
        bd.position = fcV3(0.05 + 0.1 * i, 0, 50);
        bd.mass = 1;
        bd.inertia = fcV3(6.667e-5, 8.667e-4, 8.667e-4);
        fcBodyId b = fcCreateBody(w, &bd);
        fcJointDef jd = fcDefaultJointDef(fc_ballJoint);
        jd.bodyA = prev;
        jd.bodyB = b;
        jd.anchor = fcV3(0.1 * i, 0, 50);
        joints[nj++] = fcCreateJoint(w, &jd);
        bodies[nb++] = prev = b;
    }
    fcAddGround(w);
    for (int k = 0; k < 120; ++k)
        bodies[nb++] = fcAddBox(w, k, fcV3(-20 + (k % 5) * 0.6 + 0.05 * (k % 3), (k / 5 % 4) * 0.6, 0.3 + (k / 20) * 0.7), 0.25);
    // three 1 kg platforms on vertical rails at their stops, a 1000 kg box (k = 52: dense and not tilted) dropped
    // onto each: islands solved exactly through the rails' rows (the rails then carry (m + M) g exactly)
    for (int k = 0; k < 3; ++k) {
        fcBodyDef pd = fcDefaultBodyDef();
        pd.position = fcV3(-30 + 2 * k, 0, 1);
        fcBodyId platform = fcCreateBody(w, &pd);
        fcShapeDef ps = fcDefaultShapeDef();
        ps.type = fc_boxShape;
        ps.halfExtents = fcV3(0.5, 0.5, 0.05);
        ps.density = 10;
        fcCreateShape(platform, &ps);
        fcJointDef rail = fcDefaultJointDef(fc_sliderJoint);
        rail.bodyB = platform;
        rail.anchor = pd.position;
        rail.axis = fcV3(0, 0, 1);
        rail.enableLimit = true;
        rail.lowerLimit = 0;
        rail.upperLimit = 1;
        joints[nj++] = fcCreateJoint(w, &rail);
        bodies[nb++] = platform;
        bodies[nb++] = fcAddBox(w, 52, fcV3(-30 + 2 * k, 0.05 * k, 1.301 + 0.01 * k), 0.25);
    }
    *bodyCount = nb;
    *jointCount = nj;
    return w;
}

typedef struct fcSnapshot {
    fcVec3 x, v, w;
    fcQuat q;
} fcSnapshot;

static void fcCapture(const fcBodyId* bodies, int count, fcSnapshot* out)
{
    for (int i = 0; i < count; ++i) {
        memset(out + i, 0, sizeof *out);
        out[i].x = fcBody_GetPosition(bodies[i]), out[i].q = fcBody_GetOrientation(bodies[i]);
        out[i].v = fcBody_GetLinearVelocity(bodies[i]), out[i].w = fcBody_GetAngularVelocity(bodies[i]);
    }
}

// whether two contacts' points, impulses or forces differ in any bit
static int fcContactDiffers(const fcContactData* a, const fcContactData* b)
{
    int differ = a->pointCount != b->pointCount || memcmp(&a->force, &b->force, sizeof a->force) != 0;
    for (int k = 0; k < a->pointCount && k < b->pointCount; ++k)
        differ += a->points[k].normalImpulse != b->points[k].normalImpulse ||
                  a->points[k].tangentImpulse[0] != b->points[k].tangentImpulse[0] ||
                  a->points[k].tangentImpulse[1] != b->points[k].tangentImpulse[1];
    return differ;
}

static int test_threads_bit_identical(void)
{
    enum { maxBodies = 3200, steps = 40 };
    static fcBodyId bodies[3][maxBodies];
    static fcJointId joints[3][maxBodies];
    static fcSnapshot states[3][maxBodies];
    static fcJointReaction forces[3][maxBodies];
    static fcContactData contacts[3][2048];
    int bodyCount = 0, jointCount = 0, contactCount[3] = {0}, exact = 0;
    for (int run = 0; run < 3; ++run) {
        fcWorldId w = fcBuildWorld(run + 1, bodies[run], &bodyCount, joints[run], &jointCount);
        ENSURE(fcWorld_GetWorkerCount(w) == run + 1);
        for (int s = 0; s < steps; ++s) {
            ENSURE(fcWorld_Step(w));
            int e = fcWorld_GetStats(w).contactExactPoints;
            exact = e > exact ? e : exact;
        }
        fcCapture(bodies[run], bodyCount, states[run]);
        for (int j = 0; j < jointCount; ++j) forces[run][j] = fcJoint_GetReaction(joints[run][j]);
        contactCount[run] = fcWorld_GetContactCount(w);
        ENSURE(contactCount[run] > 0 && contactCount[run] <= 2048);
        for (int c = 0; c < contactCount[run]; ++c) contacts[run][c] = fcWorld_GetContact(w, c);
        fcDestroyWorld(w);
    }
    // the chain has fallen and swung; the boxes have landed
    ENSURE(states[0][0].v.z != 0 && contactCount[0] >= 20);
    int differing = 0;
    for (int run = 1; run < 3; ++run) {
        ENSURE(contactCount[run] == contactCount[0]);
        for (int i = 0; i < bodyCount; ++i) differing += memcmp(&states[run][i], &states[0][i], sizeof(fcSnapshot)) != 0;
        for (int j = 0; j < jointCount; ++j) differing += memcmp(&forces[run][j], &forces[0][j], sizeof(fcJointReaction)) != 0;
        for (int c = 0; c < contactCount[0]; ++c) differing += fcContactDiffers(&contacts[run][c], &contacts[0][c]);
    }
    printf("  %d bodies, %d joints, %d contacts after %d steps with 1, 2 and 3 workers (up to %d normal rows solved exactly): "
           "%d values differ\n",
           bodyCount, jointCount, contactCount[0], steps, exact, differing);
    ENSURE(differing == 0);
    ENSURE(exact > 0);
    // the boxes rest on the platforms, the rails carry them: 1001 kg each (the sweeps alone: up to 11421 N after the
    // 40 steps, the boxes not yet at rest on them)
    for (int j = jointCount - 3; j < jointCount; ++j) ENSURE_NEAR(forces[0][j].force.z, 1001 * 9.81, 1e-6 * 1001 * 9.81);
    return 0;
}

// A pile of 600 boxes dropped in a tight 10 x 10 x 6 block onto the ground, through a static sensor slab: some
// 3000 shape pairs, so the collide stage's parallel loops (shapes, pair slots) run in many chunks. Every step's
// events (contact and sensor begin and end, in order) and contacts (in the API's order, with their points'
// ids, separations and impulses) must be the same for 1, 2 and 3 workers.
typedef struct fcPileTrace {
    int events, contacts, pairs;
    unsigned long long hash;  // FNV-1a over every step's events and contacts
} fcPileTrace;

static void fcHash(unsigned long long* h, const void* data, size_t size)
{
    const unsigned char* p = data;
    for (size_t i = 0; i < size; ++i) *h = (*h ^ p[i]) * 1099511628211ull;
}

static void fcHashVec(unsigned long long* h, fcVec3 v)
{
    fcReal c[3] = {v.x, v.y, v.z};
    fcHash(h, c, sizeof c);
}

static fcPileTrace fcRunPile(int workers)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.workerCount = workers;
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    fcAddGround(w);
    fcBodyDef gd = fcDefaultBodyDef();
    gd.type = fc_staticBody;
    fcShapeDef slab = fcDefaultShapeDef();
    slab.type = fc_boxShape;
    slab.halfExtents = fcV3(1.2, 1.2, 0.1);
    slab.isSensor = true;
    gd.position = fcV3(0, 0, 0.8);
    fcCreateShape(fcCreateBody(w, &gd), &slab);
    for (int k = 0; k < 600; ++k)
        fcAddBox(w, k, fcV3(-2.25 + (k % 10) * 0.45, -2.25 + (k / 10 % 10) * 0.45, 0.3 + (k / 100) * 0.45), 0.2);
    fcPileTrace t = {0, 0, 0, 14695981039346656037ull};
    for (int s = 0; s < 60; ++s) {
        fcWorld_Step(w);
        int n = fcWorld_GetEventCount(w);
        t.events += n;
        for (int e = 0; e < n; ++e) {
            fcConstraintEvent ev = fcWorld_GetEvent(w, e);
            int ids[3] = {(int)ev.type, (int)ev.shapeA.index1, (int)ev.shapeB.index1};
            fcHash(&t.hash, ids, sizeof ids);
            fcHashVec(&t.hash, ev.point);
            fcHashVec(&t.hash, ev.normal);
            fcHash(&t.hash, &ev.forceBefore, sizeof ev.forceBefore);
        }
        int nc = fcWorld_GetContactCount(w);
        t.contacts += nc;
        for (int c = 0; c < nc; ++c) {
            fcContactData d = fcWorld_GetContact(w, c);
            int ids[3] = {(int)d.shapeA.index1, (int)d.shapeB.index1, d.pointCount};
            fcHash(&t.hash, ids, sizeof ids);
            fcHashVec(&t.hash, d.normal);
            for (int k = 0; k < d.pointCount; ++k) {
                fcHash(&t.hash, &d.points[k].id, sizeof d.points[k].id);
                fcHash(&t.hash, &d.points[k].separation, sizeof(fcReal));
                fcHash(&t.hash, &d.points[k].normalImpulse, sizeof(fcReal));
                fcHash(&t.hash, d.points[k].tangentImpulse, 2 * sizeof(fcReal));
            }
        }
        int pairs = fcWorld_GetStats(w).shapePairs;
        t.pairs = pairs > t.pairs ? pairs : t.pairs;
    }
    fcDestroyWorld(w);
    return t;
}

static int test_pile_events_bit_identical(void)
{
    fcPileTrace t[3];
    for (int run = 0; run < 3; ++run) t[run] = fcRunPile(run + 1);
    printf("  600 boxes through a sensor, 60 steps: up to %d pairs, %d events, %d contacts; hashes %llx %llx %llx\n",
           t[0].pairs, t[0].events, t[0].contacts, t[0].hash, t[1].hash, t[2].hash);
    ENSURE(t[0].pairs > 20 * 64 && t[0].events > 100);  // many chunks of pair slots, and events to order
    for (int run = 1; run < 3; ++run) {
        ENSURE(t[run].events == t[0].events && t[run].contacts == t[0].contacts && t[run].pairs == t[0].pairs);
        ENSURE(t[run].hash == t[0].hash);
    }
    return 0;
}

// S3's pyramid beside a carpet of 300 boxes on the ground and a few bouncing balls: over 700 manifolds, from 512
// (contact.h, FC_CONTACT_HALVES_FROM) laid out in halves, whose blocks two or three workers sweep side by side, the
// manifolds across the cut after them. Without the pyramid some 300 manifolds, one layout: the contact stages' loops
// over all blocks (64 a chunk) split into chunks, and the ground's colour (over 64 blocks, 32 a chunk) is swept in
// parallel chunks. A carpet of 600 boxes without the pyramid: halves, each with a ground colour of over 64 blocks,
// which three workers sweep one half after the other, the colour in chunks (two: side by side). The balls' contacts
// follow round surfaces and bounce.
static fcWorldId fcBuildContactWorld(int workers, bool pyramid, int carpet, fcBodyId* bodies, int* bodyCount)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.workerCount = workers;
    wd.enableSleeping = false;
    fcWorldId w = fcCreateWorld(&wd);
    fcAddGround(w);
    int n = 0;
    for (int r = 0; r < (pyramid ? 20 : 0); ++r)
        for (int j = 0; j < 20 - r; ++j) {
            fcBodyDef bd = fcDefaultBodyDef();
            bd.position = fcV3((j - (19 - r) / 2.0) * 1.05, 0, 0.5 + r);
            bodies[n] = fcCreateBody(w, &bd);
            fcShapeDef box = fcDefaultShapeDef();
            box.type = fc_boxShape;
            box.halfExtents = fcV3(0.5, 0.5, 0.5);
            box.friction = 0.6;
            fcCreateShape(bodies[n++], &box);
        }
    for (int k = 0; k < carpet; ++k) {
        fcBodyDef bd = fcDefaultBodyDef();
        bd.position = fcV3(-15 + (k % 30) * 1.0, 5 + (k / 30) * 1.0, 0.2);
        bd.orientation = fcQuat_Normalize((fcQuat){1, 0, 0, 0.02 * (k % 5 - 2)});
        bodies[n] = fcCreateBody(w, &bd);
        fcShapeDef box = fcDefaultShapeDef();
        box.type = fc_boxShape;
        box.halfExtents = fcV3(0.4, 0.4, 0.2);
        fcCreateShape(bodies[n++], &box);
    }
    for (int k = 0; k < 6; ++k) {
        fcBodyDef bd = fcDefaultBodyDef();
        bd.position = fcV3(-12 + 4.0 * k, 6.0 + 0.3 * k, 1.2 + 0.1 * k);
        bodies[n] = fcCreateBody(w, &bd);
        fcShapeDef ball = fcDefaultShapeDef();
        ball.radius = 0.3;
        ball.restitution = 0.7;
        fcCreateShape(bodies[n++], &ball);
        fcBody_SetLinearVelocity(bodies[n - 1], fcV3(0.5, 0, -4));
    }
    *bodyCount = n;
    return w;
}

static int fcCheckContactStages(bool pyramid, int carpet)
{
    enum { maxBodies = 700, maxContacts = 1200, steps = 30 };
    static fcBodyId bodies[3][maxBodies];
    static fcSnapshot states[3][maxBodies];
    static fcContactData contacts[3][maxContacts];
    int bodyCount = 0, contactCount[3] = {0}, events[3] = {0};
    for (int run = 0; run < 3; ++run) {
        fcWorldId w = fcBuildContactWorld(run + 1, pyramid, carpet, bodies[run], &bodyCount);
        int fewest = 1 << 30, most = 0;  // manifolds in a step
        for (int s = 0; s < steps; ++s) {
            ENSURE(fcWorld_Step(w));
            events[run] += fcWorld_GetEventCount(w);
            int m = fcWorld_GetStats(w).contactCount;
            fewest = m < fewest ? m : fewest;
            most = m > most ? m : most;
        }
        // halves in every step (512 manifolds on) but for the small carpet: never, and its ground's colour over 64
        // blocks (over 256 manifolds); the large carpet's halves have one each (over 2 x 256)
        if (pyramid) ENSURE(fewest >= 650);
        else if (carpet == 300) ENSURE(fewest >= 300 && most < 512);
        else ENSURE(fewest >= 600);
        fcCapture(bodies[run], bodyCount, states[run]);
        contactCount[run] = fcWorld_GetContactCount(w);
        ENSURE(contactCount[run] > 0 && contactCount[run] <= maxContacts);
        for (int c = 0; c < contactCount[run]; ++c) contacts[run][c] = fcWorld_GetContact(w, c);
        fcDestroyWorld(w);
    }
    int differing = 0;
    for (int run = 1; run < 3; ++run) {
        ENSURE(contactCount[run] == contactCount[0] && events[run] == events[0]);
        for (int i = 0; i < bodyCount; ++i) differing += memcmp(&states[run][i], &states[0][i], sizeof(fcSnapshot)) != 0;
        for (int c = 0; c < contactCount[0]; ++c) differing += fcContactDiffers(&contacts[run][c], &contacts[0][c]);
    }
    printf("  %s: %d bodies, %d contacts, %d events after %d steps with 1, 2 and 3 workers: %d values differ\n",
           pyramid ? "pyramid, carpet and balls" : (carpet == 300 ? "carpet and balls" : "large carpet and balls"), bodyCount,
           contactCount[0], events[0], steps, differing);
    ENSURE(differing == 0);
    return 0;
}

static int test_contact_stages_bit_identical(void)
{
    ENSURE(fcCheckContactStages(true, 300) == 0);
    ENSURE(fcCheckContactStages(false, 300) == 0);
    ENSURE(fcCheckContactStages(false, 600) == 0);
    return 0;
}

// a holonomic user row: body b's centre stays at height 3 m (f = z_b - 3), called from the caller's thread only
static void fcHoldHeight(const fcUserConstraintState* state, fcUserConstraintRow* rows, void* context)
{
    (void)context;
    memset(rows, 0, sizeof *rows);
    rows[0].jacobian[1][2] = 1;
    rows[0].error = state->position[1].z - 3;
}

// Everything the threaded stages treat differently in one world: 1200 hinges (every fifth with a limit, every
// seventh with a motor, every eleventh soft) in chains of 30 with user rows holding their tips (enough bodies,
// blocks and rows for the stages' loops to split: solver.h's grains), a kinematic
// platform carrying boxes (a kinematic body in many contact blocks), sleeping on, and the worker count changed
// between steps. 1, 2 and 3 workers, and 1 switched to 3 halfway, end in bit-identical states.
static fcWorldId fcBuildMixedWorld(int workers, fcBodyId* bodies, int* bodyCount, fcJointId* joints, int* jointCount)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.workerCount = workers;
    fcWorldId w = fcCreateWorld(&wd);
    int nb = 0, nj = 0;
    for (int c = 0; c < 40; ++c) {
        fcBodyId prev = fc_nullBodyId;
        for (int i = 0; i < 30; ++i) {
            fcBodyDef bd = fcDefaultBodyDef();
            bd.position = fcV3(0.05 + 0.1 * i, 2.0 * c, 3);
            bd.mass = 1;
            bd.inertia = fcV3(6.667e-5, 8.667e-4, 8.667e-4);
            fcBodyId b = fcCreateBody(w, &bd);
            int k = c * 30 + i;
            fcJointDef jd = fcDefaultJointDef(fc_hingeJoint);
            jd.bodyA = prev;
            jd.bodyB = b;
            jd.anchor = fcV3(0.1 * i, 2.0 * c, 3);
            jd.axis = fcV3(0, 1, 0);
            jd.enableLimit = k % 5 == 0;
            jd.lowerLimit = -0.3, jd.upperLimit = 0.3;
            jd.enableMotor = k % 7 == 0;
            jd.motorSpeed = 0.5, jd.maxMotorForce = 2;
            if (k % 11 == 0) jd.stiffness = 1e4, jd.damping = 10;
            joints[nj++] = fcCreateJoint(w, &jd);
            bodies[nb++] = prev = b;
        }
        fcUserConstraintDef ud = fcDefaultUserConstraintDef();
        ud.bodyB = prev;
        ud.fcn = fcHoldHeight;
        joints[nj++] = fcCreateUserConstraint(w, &ud);
    }
    fcBodyDef pd = fcDefaultBodyDef();
    pd.type = fc_kinematicBody;
    pd.position = fcV3(0, -20, 0.5);
    pd.linearVelocity = fcV3(0.5, 0, 0);
    fcBodyId platform = fcCreateBody(w, &pd);
    fcShapeDef slab = fcDefaultShapeDef();
    slab.type = fc_boxShape;
    slab.halfExtents = fcV3(10, 10, 0.5);
    fcCreateShape(platform, &slab);
    bodies[nb++] = platform;
    for (int k = 0; k < 200; ++k) bodies[nb++] = fcAddBox(w, k, fcV3(-9 + (k % 20) * 0.9, -29 + (k / 20) * 1.9, 1.3), 0.25);
    *bodyCount = nb;
    *jointCount = nj;
    return w;
}

static int test_mixed_features_bit_identical(void)
{
    enum { maxBodies = 1600, steps = 40 };
    static fcBodyId bodies[4][maxBodies];
    static fcJointId joints[4][maxBodies];
    static fcSnapshot states[4][maxBodies];
    static fcJointReaction forces[4][maxBodies];
    int bodyCount = 0, jointCount = 0, contacts[4] = {0};
    const int workers[4] = {1, 2, 3, 1};
    for (int run = 0; run < 4; ++run) {
        fcWorldId w = fcBuildMixedWorld(workers[run], bodies[run], &bodyCount, joints[run], &jointCount);
        for (int s = 0; s < steps; ++s) {
            if (run == 3 && s == steps / 2) ENSURE(fcWorld_SetWorkerCount(w, 3));
            ENSURE(fcWorld_Step(w));
        }
        fcCapture(bodies[run], bodyCount, states[run]);
        for (int j = 0; j < jointCount; ++j) forces[run][j] = fcJoint_GetReaction(joints[run][j]);
        contacts[run] = fcWorld_GetContactCount(w);
        fcDestroyWorld(w);
    }
    ENSURE(contacts[0] >= 200);  // every box rides the platform
    int differing = 0;
    for (int run = 1; run < 4; ++run) {
        differing += contacts[run] != contacts[0];
        for (int i = 0; i < bodyCount; ++i) differing += memcmp(&states[run][i], &states[0][i], sizeof(fcSnapshot)) != 0;
        for (int j = 0; j < jointCount; ++j) differing += memcmp(&forces[run][j], &forces[0][j], sizeof(fcJointReaction)) != 0;
    }
    printf("  limits, motors, soft joints, user rows, a kinematic platform under %d contacts, sleeping, the worker count "
           "changed halfway: %d bodies, %d joints, %d values differ\n", contacts[0], bodyCount, jointCount, differing);
    ENSURE(differing == 0);
    return 0;
}

static int test_worker_count_refused(void)
{
    fcWorldDef wd = fcDefaultWorldDef();
    wd.workerCount = 0;
    ENSURE_ERROR(fcCreateWorld(&wd), "workerCount must be 1..64, got 0");
    wd.workerCount = FC_MAX_WORKERS + 1;
    ENSURE_ERROR(fcCreateWorld(&wd), "workerCount must be 1..64");
    wd.workerCount = 2;
    fcWorldId w = fcCreateWorld(&wd);
    ENSURE(fcWorld_GetWorkerCount(w) == 2);
    ENSURE_ERROR(fcWorld_SetWorkerCount(w, -1), "workerCount must be 1..64, got -1");
    ENSURE(fcWorld_GetWorkerCount(w) == 2);  // unchanged
    ENSURE(fcWorld_SetWorkerCount(w, 1) && fcWorld_GetWorkerCount(w) == 1);
    ENSURE(fcWorld_SetWorkerCount(w, 4) && fcWorld_GetWorkerCount(w) == 4);
    fcDestroyWorld(w);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_threads_bit_identical);
    RUN_TEST(test_contact_stages_bit_identical);
    RUN_TEST(test_pile_events_bit_identical);
    RUN_TEST(test_mixed_features_bit_identical);
    RUN_TEST(test_worker_count_refused);
    TEST_MAIN_END();
}
