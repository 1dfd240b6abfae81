// SPDX-License-Identifier: MIT
// The viewer's GL-free half (see model.h).
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void* fcViewAlloc(size_t n, size_t size)
{
    void* p = calloc(n ? n : 1, size);
    if (p == NULL) {
        fprintf(stderr, "fulcrum view: out of memory\n");
        abort();
    }
    return p;
}

static char* fcViewStrdup(const char* s)
{
    size_t n = strlen(s) + 1;
    char* d = fcViewAlloc(n, 1);
    memcpy(d, s, n);
    return d;
}

// ---------------------------------------------------------------------------------------------------------------------
// Frame record
// ---------------------------------------------------------------------------------------------------------------------

static int fcBodyIndex(const fcScene* scene, fcBodyId id)
{
    for (int i = 0; i < scene->bodyCount; ++i)
        if (memcmp(&scene->bodies[i], &id, sizeof id) == 0) return i;
    return -1;
}

static int fcJointIndex(const fcScene* scene, fcJointId id)
{
    for (int j = 0; j < scene->jointCount; ++j)
        if (memcmp(&scene->joints[j], &id, sizeof id) == 0) return j;
    return -1;
}

static void fcSet3(double out[3], fcVec3 v) { out[0] = v.x, out[1] = v.y, out[2] = v.z; }
static double fcLength3(const double v[3]) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

void fcViewFrame_Init(fcViewFrame* f, const fcScene* scene)
{
    memset(f, 0, sizeof *f);
    f->bodyCount = scene->bodyCount;
    f->jointCount = scene->jointCount;
    f->bodies = fcViewAlloc((size_t)f->bodyCount, sizeof *f->bodies);
    f->joints = fcViewAlloc((size_t)f->jointCount, sizeof *f->joints);
    f->bodyContacts = fcViewAlloc((size_t)f->bodyCount, sizeof *f->bodyContacts);
    for (int j = 0; j < f->jointCount; ++j) {
        fcJointId id = scene->joints[j];
        f->joints[j].bodyA = fcBodyIndex(scene, fcJoint_GetBodyA(id));
        f->joints[j].bodyB = fcBodyIndex(scene, fcJoint_GetBodyB(id));
        f->joints[j].type = scene->jointTypes[j];
        // a coupling and a user row act on their bodies' coordinates, not at a point
        f->joints[j].point = scene->jointTypes[j] != fc_couplingJoint && scene->jointTypes[j] != fc_userConstraint;
    }
}

void fcViewFrame_Free(fcViewFrame* f)
{
    free(f->bodies);
    free(f->joints);
    free(f->contacts);
    free(f->bodyContacts);
    memset(f, 0, sizeof *f);
}

bool fcViewEvent_LetsGo(fcEventType type)
{
    return type == fc_eventRelease || type == fc_eventContactEnd || type == fc_eventStickToSlip || type == fc_eventSensorEnd;
}

// The scene body a shape belongs to, or -1.
static int fcShapeBodyIndex(const fcScene* scene, fcShapeId shape)
{
    return fcShape_IsValid(shape) ? fcBodyIndex(scene, fcShape_GetBody(shape)) : -1;
}

static void fcContactsReserve(fcViewFrame* f, int count)
{
    if (count <= f->contactCapacity) return;
    int capacity = f->contactCapacity > 0 ? f->contactCapacity : 16;
    while (capacity < count) capacity *= 2;
    fcViewContact* c = realloc(f->contacts, (size_t)capacity * sizeof *c);
    if (c == NULL) {
        fprintf(stderr, "fulcrum view: out of memory\n");
        abort();
    }
    f->contacts = c;
    f->contactCapacity = capacity;
}

static bool fcIsDynamic(const fcScene* scene, int body)
{
    return body >= 0 && fcBody_GetType(scene->bodies[body]) == fc_dynamicBody;
}

static void fcAddCross(double out[3], const double r[3], const double f[3])
{
    out[0] += r[1] * f[2] - r[2] * f[1];
    out[1] += r[2] * f[0] - r[0] * f[2];
    out[2] += r[0] * f[1] - r[1] * f[0];
}

// The step's contacts through the public API (fcWorld_GetContact): every point, and each body's totals.
static void fcCaptureContacts(fcViewFrame* f, const fcScene* scene)
{
    fcWorldId w = scene->world;
    memset(f->bodyContacts, 0, (size_t)f->bodyCount * sizeof *f->bodyContacts);
    f->contactCount = 0;
    f->manifoldCount = fcWorld_GetContactCount(w);
    fcWorldStats st = fcWorld_GetStats(w);
    f->complementarityResidual = st.complementarityResidual;
    f->maxPenetration = st.maxPenetration;
    double h = fcWorld_GetTimestep(w);
    for (int i = 0; i < f->manifoldCount; ++i) {
        fcContactData c = fcWorld_GetContact(w, i);
        int a = fcBodyIndex(scene, c.bodyA), b = fcBodyIndex(scene, c.bodyB);
        // the normal force on b is along +normal: described on b, unless a is the dynamic one, or of two
        // dynamic bodies a is the one pushed up (the supported one)
        bool da = fcIsDynamic(scene, a), db = fcIsDynamic(scene, b);
        bool onB = da != db ? db : c.normal.z > -1e-6;
        double n[3], t0[3], t1[3], total[3];
        fcSet3(n, c.normal);
        fcSet3(t0, c.tangent[0]);
        fcSet3(t1, c.tangent[1]);
        fcSet3(total, c.force);
        int count = c.pointCount < 4 ? (c.pointCount > 0 ? c.pointCount : 0) : 4;
        fcContactsReserve(f, f->contactCount + count);
        for (int k = 0; k < count; ++k) {
            const fcContactPointData* p = c.points + k;
            // a speculative point (a gap that might close within the step) that carried nothing is not a contact
            // to show; its (zero) share is in the totals anyway
            if (!(p->normalImpulse > 0) && p->separation > FC_VIEW_CONTACT_GAP) continue;
            fcViewContact* v = f->contacts + f->contactCount++;
            fcSet3(v->point, p->point);
            for (int d = 0; d < 3; ++d) v->normal[d] = onB ? n[d] : -n[d];
            v->force = p->normalForce;
            v->separation = p->separation;
            v->slipping = p->slipping;
            v->body = onB ? b : a;
            v->other = onB ? a : b;
            // the point's whole force on b (normal and friction), for the moments about the centres
            double fp[3];
            for (int d = 0; d < 3; ++d)
                fp[d] = (p->normalImpulse * n[d] + p->tangentImpulse[0] * t0[d] + p->tangentImpulse[1] * t1[d]) / h;
            if (b >= 0) {
                const double* x = f->bodies[b].p;
                double r[3] = {v->point[0] - x[0], v->point[1] - x[1], v->point[2] - x[2]};
                fcAddCross(f->bodyContacts[b].torque, r, fp);
            }
            if (a >= 0) {
                const double* x = f->bodies[a].p;
                double r[3] = {x[0] - v->point[0], x[1] - v->point[1], x[2] - v->point[2]};  // (p - x) x (-fp)
                fcAddCross(f->bodyContacts[a].torque, r, fp);
            }
        }
        for (int d = 0; d < 3; ++d) {
            if (b >= 0) f->bodyContacts[b].force[d] += total[d];
            if (a >= 0) f->bodyContacts[a].force[d] -= total[d];
        }
        if (b >= 0) f->bodyContacts[b].points += count;  // (speculative ones included: the pair's points)
        if (a >= 0) f->bodyContacts[a].points += count;
    }
    for (int i = 0; i < f->bodyCount; ++i) {
        fcViewBodyContact* bc = f->bodyContacts + i;
        bc->magnitude = fcLength3(bc->force);
        bc->torqueMagnitude = fcLength3(bc->torque);
    }
}

void fcViewFrame_Capture(fcViewFrame* f, const fcScene* scene, double stepMs)
{
    f->time = fcWorld_GetTime(scene->world);
    f->stepMs = stepMs;
    for (int i = 0; i < f->bodyCount; ++i) {
        fcQuat q = fcBody_GetOrientation(scene->bodies[i]);
        fcViewPose* pose = f->bodies + i;
        fcSet3(pose->p, fcBody_GetPosition(scene->bodies[i]));
        pose->q[0] = q.w, pose->q[1] = q.x, pose->q[2] = q.y, pose->q[3] = q.z;
    }
    for (int j = 0; j < f->jointCount; ++j) {
        fcJointReaction r = fcJoint_GetReaction(scene->joints[j]);
        fcViewJoint* v = f->joints + j;
        fcSet3(v->anchor, r.anchor);
        fcSet3(v->anchorA, fcJoint_GetAnchorA(scene->joints[j]));
        fcSet3(v->force, r.force);
        fcSet3(v->forceA, r.forceA);
        fcSet3(v->moment, r.moment);
        v->magnitude = fcLength3(v->force);
        v->momentMagnitude = fcLength3(v->moment);
    }
    int n = fcWorld_GetEventCount(scene->world);
    f->eventCount = n < FC_VIEW_MAX_EVENTS ? n : FC_VIEW_MAX_EVENTS;
    f->eventsLost = n - f->eventCount;
    for (int k = 0; k < f->eventCount; ++k) {
        fcConstraintEvent e = fcWorld_GetEvent(scene->world, k);
        fcViewEvent* v = f->events + k;
        v->type = e.type;
        v->contact = !fcJoint_IsValid(e.joint);
        v->joint = fcJointIndex(scene, e.joint);
        v->bodyA = fcShapeBodyIndex(scene, e.shapeA);
        v->bodyB = fcShapeBodyIndex(scene, e.shapeB);
        if (v->joint >= 0) {
            snprintf(v->name, sizeof v->name, "%s", scene->jointNames[v->joint]);
        } else if (fcJoint_IsValid(e.joint)) {
            const char* name = fcJoint_GetName(e.joint);
            snprintf(v->name, sizeof v->name, "%s", name != NULL && name[0] != '\0' ? name : "(unnamed joint)");
        } else {
            snprintf(v->name, sizeof v->name, "%s - %s", v->bodyA >= 0 ? scene->bodyNames[v->bodyA] : "?",
                     v->bodyB >= 0 ? scene->bodyNames[v->bodyB] : "?");
        }
        v->time = e.time;
        v->forceBefore = e.forceBefore;
        fcSet3(v->positionB, e.positionB);
        fcSet3(v->velocityB, e.velocityB);
        fcSet3(v->point, e.point);
        fcSet3(v->normal, e.normal);
    }
    memset(&f->drag, 0, sizeof f->drag);
    fcCaptureContacts(f, scene);
}

void fcViewFrame_Copy(fcViewFrame* out, const fcViewFrame* in)
{
    fcViewPose* bodies = out->bodies;
    fcViewJoint* joints = out->joints;
    fcViewContact* contacts = out->contacts;
    fcViewBodyContact* bodyContacts = out->bodyContacts;
    int capacity = out->contactCapacity;
    *out = *in;
    out->bodies = bodies, out->joints = joints, out->bodyContacts = bodyContacts;
    out->contacts = contacts, out->contactCapacity = capacity;
    memcpy(out->bodies, in->bodies, (size_t)in->bodyCount * sizeof *in->bodies);
    memcpy(out->joints, in->joints, (size_t)in->jointCount * sizeof *in->joints);
    memcpy(out->bodyContacts, in->bodyContacts, (size_t)in->bodyCount * sizeof *in->bodyContacts);
    fcContactsReserve(out, in->contactCount);
    if (in->contactCount > 0) memcpy(out->contacts, in->contacts, (size_t)in->contactCount * sizeof *in->contacts);
}

static double fcLerp(double a, double b, double t) { return a + t * (b - a); }

void fcViewFrame_Lerp(fcViewFrame* out, const fcViewFrame* a, const fcViewFrame* b, double t)
{
    fcViewFrame_Copy(out, b);
    out->time = fcLerp(a->time, b->time, t);
    for (int i = 0; i < a->bodyCount; ++i) {
        const fcViewPose *pa = a->bodies + i, *pb = b->bodies + i;
        fcViewPose* po = out->bodies + i;
        for (int k = 0; k < 3; ++k) po->p[k] = fcLerp(pa->p[k], pb->p[k], t);
        double dot = 0;
        for (int k = 0; k < 4; ++k) dot += pa->q[k] * pb->q[k];
        double s = dot < 0 ? -1 : 1, n = 0;  // the shorter way round
        for (int k = 0; k < 4; ++k) po->q[k] = fcLerp(pa->q[k], s * pb->q[k], t), n += po->q[k] * po->q[k];
        n = n > 0 ? 1 / sqrt(n) : 1;
        for (int k = 0; k < 4; ++k) po->q[k] *= n;
    }
    for (int j = 0; j < a->jointCount; ++j) {
        const fcViewJoint *ja = a->joints + j, *jb = b->joints + j;
        fcViewJoint* jo = out->joints + j;
        for (int k = 0; k < 3; ++k) {
            jo->anchor[k] = fcLerp(ja->anchor[k], jb->anchor[k], t);
            jo->anchorA[k] = fcLerp(ja->anchorA[k], jb->anchorA[k], t);
            jo->force[k] = fcLerp(ja->force[k], jb->force[k], t);
            jo->forceA[k] = fcLerp(ja->forceA[k], jb->forceA[k], t);
            jo->moment[k] = fcLerp(ja->moment[k], jb->moment[k], t);
        }
        jo->magnitude = fcLength3(jo->force);
        jo->momentMagnitude = fcLength3(jo->moment);
    }
    if (a->drag.active && b->drag.active && a->drag.body == b->drag.body)
        for (int k = 0; k < 3; ++k) out->drag.point[k] = fcLerp(a->drag.point[k], b->drag.point[k], t);
}

// ---------------------------------------------------------------------------------------------------------------------
// Exact curves
// ---------------------------------------------------------------------------------------------------------------------

// A point mass on a rigid link released at rest at theta0 from the downward vertical through the pivot:
// T = m v^2 / l + m g cos(theta) with v^2 = 2 g l (cos(theta) - cos(theta0)), so T = m g (3 cos(theta) - 2
// cos(theta0)); released from the horizontal (the pendulum demo) that is 3 m g cos(theta).
static double fcExactPendulumFrom(const fcScene* scene, const fcViewFrame* f, int joint, double cosTheta0)
{
    const fcViewJoint* j = f->joints + joint;
    if (j->bodyB < 0) return NAN;
    const double* p = f->bodies[j->bodyB].p;
    fcVec3 g = fcWorld_GetGravity(scene->world);
    double gl = sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
    double d[3] = {p[0] - j->anchorA[0], p[1] - j->anchorA[1], p[2] - j->anchorA[2]};
    double l = fcLength3(d);
    if (!(l > 0) || !(gl > 0)) return NAN;
    double cosTheta = (d[0] * g.x + d[1] * g.y + d[2] * g.z) / (l * gl);
    return fcBody_GetMass(scene->bodies[j->bodyB]) * gl * (3 * cosTheta - 2 * cosTheta0);
}

static double fcExactPendulum(const fcScene* scene, const fcViewFrame* f, int joint)
{
    return fcExactPendulumFrom(scene, f, joint, 0);
}

// robot_arm.json: the payload hangs from the gripper on a rod of 0.6 m, released 40 deg from the vertical
// (its centre 0.6 sin 40 deg to the side); the arm is welded to a fixed base, so the hook does not move.
static double fcExactPayload(const fcScene* scene, const fcViewFrame* f, int joint)
{
    return fcExactPendulumFrom(scene, f, joint, cos(40 * 3.14159265358979323846 / 180));
}

// Atwood machine: T = 2 m1 m2 g / (m1 + m2), constant (the coupling's two sliders carry m1 and m2).
static double fcExactAtwood(const fcScene* scene, const fcViewFrame* f, int joint)
{
    (void)f;
    (void)joint;
    int a = fcScene_FindBody(scene, "m1"), b = fcScene_FindBody(scene, "m2");
    if (a < 0 || b < 0) return NAN;
    double m1 = fcBody_GetMass(scene->bodies[a]), m2 = fcBody_GetMass(scene->bodies[b]);
    fcVec3 g = fcWorld_GetGravity(scene->world);
    return 2 * m1 * m2 * fcVec3_Length(g) / (m1 + m2);
}

// Scenes whose exact force is constant: the value the scene file's "expected" list gives.
static double fcExactConstant(const fcScene* scene, const fcViewFrame* f, int joint)
{
    (void)f;
    for (int k = 0; k < scene->expectationCount; ++k)
        if (scene->expectations[k].joint == joint && scene->expectations[k].hasPeakForce)
            return scene->expectations[k].peakForce;
    return NAN;
}

// Case 4 with a real contact (skier.json): a point on a frictionless sphere of R (the centre's path) from the top
// nearly at rest: v^2 = 2 g R (1 - cos(theta)), so N = m g cos(theta) - m v^2 / R = m g (3 cos(theta) - 2) until it
// reaches 0 at cos(theta) = 2/3, and 0 in the free flight after.
static double fcExactSkier(const fcScene* scene, const fcViewFrame* f, int body)
{
    int dome = fcScene_FindBody(scene, "dome");
    if (dome < 0 || body < 0) return NAN;
    const double *p = f->bodies[body].p, *c = f->bodies[dome].p;
    fcVec3 g = fcWorld_GetGravity(scene->world);
    double gl = fcVec3_Length(g), d[3] = {p[0] - c[0], p[1] - c[1], p[2] - c[2]}, l = fcLength3(d);
    if (!(l > 0) || !(gl > 0)) return NAN;
    double cosTheta = -(d[0] * g.x + d[1] * g.y + d[2] * g.z) / (l * gl);
    return fmax(0, fcBody_GetMass(scene->bodies[body]) * gl * (3 * cosTheta - 2));
}

// A body at rest on its contacts: they carry its weight m g.
static double fcExactWeight(const fcScene* scene, const fcViewFrame* f, int body)
{
    (void)f;
    return body >= 0 ? fcBody_GetMass(scene->bodies[body]) * fcVec3_Length(fcWorld_GetGravity(scene->world)) : NAN;
}

// The ground under a resting pile carries the weight of every dynamic body, less what the scene's joints are
// expected to hold up (heavy_on_light's rail carries its platform and the crate on it).
static double fcExactAllWeight(const fcScene* scene, const fcViewFrame* f, int body)
{
    (void)body;
    double m = 0;
    for (int i = 0; i < scene->bodyCount; ++i)
        if (fcBody_GetType(scene->bodies[i]) == fc_dynamicBody) m += fcBody_GetMass(scene->bodies[i]);
    (void)f;
    double held = 0;
    for (int k = 0; k < scene->expectationCount; ++k)
        if (scene->expectations[k].hasPeakForce) held += scene->expectations[k].peakForce;
    return m * fcVec3_Length(fcWorld_GetGravity(scene->world)) - held;
}

// A box held by static friction on the turntable (turntable.json): its contact force is its weight and the pull
// towards the axis, m sqrt(g^2 + (omega^2 r)^2), r its distance from the axis and omega the table's turn
static double fcExactTurntable(const fcScene* scene, const fcViewFrame* f, int body)
{
    (void)f;
    int table = fcScene_FindBody(scene, "table");
    if (body < 0 || table < 0) return NAN;
    fcVec3 x = fcVec3_Sub(fcBody_GetPosition(scene->bodies[body]), fcBody_GetPosition(scene->bodies[table]));
    double omega = fcBody_GetAngularVelocity(scene->bodies[table]).z, g = fcVec3_Length(fcWorld_GetGravity(scene->world));
    double pull = omega * omega * sqrt(x.x * x.x + x.y * x.y);
    return fcBody_GetMass(scene->bodies[body]) * sqrt(g * g + pull * pull);
}

// A ball rolling without slipping on the turntable (rolling_turntable.json): it runs round a circle at 2/7 of the
// table's turn omega (a solid sphere: I / (I + m R^2)), so friction pulls it by m (2/7 omega) |v| across its velocity
// v, and its contact force is m sqrt(g^2 + (2/7 omega |v|)^2)
static double fcExactRollingTurntable(const fcScene* scene, const fcViewFrame* f, int body)
{
    (void)f;
    int table = fcScene_FindBody(scene, "table");
    if (body < 0 || table < 0) return NAN;
    double omega = fcBody_GetAngularVelocity(scene->bodies[table]).z, g = fcVec3_Length(fcWorld_GetGravity(scene->world));
    fcVec3 v = fcBody_GetLinearVelocity(scene->bodies[body]);
    double pull = 2.0 / 7.0 * omega * sqrt(v.x * v.x + v.y * v.y);
    return fcBody_GetMass(scene->bodies[body]) * sqrt(g * g + pull * pull);
}

static const fcExactCurve fc_exactCurves[] = {
    {"pendulum", "pivot", "exact 3 m g cos(theta)", fcExactPendulum, NULL},
    {"atwood", "string", "exact 2 m1 m2 g / (m1 + m2)", fcExactAtwood, NULL},
    {"cantilever", "weld", "exact m g", fcExactConstant, NULL},
    {"knife_edge", "edge", "exact m v w", fcExactConstant, NULL},
    {"knife_edge", "plane", "exact m g", fcExactConstant, NULL},
    {"rolling_disk", "rolling", "exact m g sin(a) / 3", fcExactConstant, NULL},
    {"rolling_disk", "contact", "exact m g cos(a)", fcExactConstant, NULL},
    {"rolling_hoop", "rolling", "exact m g sin(a) / 2", fcExactConstant, NULL},
    {"rolling_hoop", "contact", "exact m g cos(a)", fcExactConstant, NULL},
    {"rolling_race", "hoop_rolling", "exact m g sin(a) / 2", fcExactConstant, NULL},
    {"rolling_race", "disk_rolling", "exact m g sin(a) / 3", fcExactConstant, NULL},
    {"rolling_race", "hoop_contact", "exact m g cos(a)", fcExactConstant, NULL},
    {"rolling_race", "disk_contact", "exact m g cos(a)", fcExactConstant, NULL},
    {"cart_slope", "rail", "exact m g cos(a)", fcExactConstant, NULL},
    {"robot_arm", "hook", "exact m g (3 cos(theta) - 2 cos(theta0))", fcExactPayload, NULL},
    {"skier", NULL, "exact m g (3 cos(theta) - 2)", fcExactSkier, "skier"},
    {"box_on_plane", NULL, "exact m g (the 4 points together)", fcExactWeight, "box"},
    {"pyramid", NULL, "exact: the weight of all 36 boxes", fcExactAllWeight, "ground"},
    {"pyramid", NULL, "exact m g (its own weight)", fcExactWeight, "b7_0"},
    {"heavy_on_light", NULL, "exact: the weight of the 6 bodies on it", fcExactAllWeight, "ground"},
    {"heavy_on_light", NULL, "exact m g (its own weight)", fcExactWeight, "safe"},
    {"heavy_on_light", "rail", "exact (m + M) g", fcExactConstant, NULL},
    {"stacks", NULL, "exact: the weight of all 18 bodies", fcExactAllWeight, "ground"},
    {"turntable", NULL, "exact m sqrt(g^2 + (omega^2 r)^2)", fcExactTurntable, "box3"},
    {"rolling_turntable", NULL, "exact m sqrt(g^2 + (2/7 omega |v|)^2)", fcExactRollingTurntable, "outer"},
    {"stacks", NULL, "exact m g (its own weight)", fcExactWeight, "cyl5"},
};

const fcExactCurve* fcExact_Find(const fcScene* scene, int joint)
{
    for (size_t k = 0; k < sizeof fc_exactCurves / sizeof fc_exactCurves[0]; ++k) {
        const fcExactCurve* c = fc_exactCurves + k;
        if (c->joint != NULL && strcmp(c->scene, scene->name) == 0 && strcmp(c->joint, scene->jointNames[joint]) == 0)
            return c;
    }
    return NULL;
}

const fcExactCurve* fcExact_FindBody(const fcScene* scene, int body)
{
    if (body < 0 || body >= scene->bodyCount) return NULL;
    for (size_t k = 0; k < sizeof fc_exactCurves / sizeof fc_exactCurves[0]; ++k) {
        const fcExactCurve* c = fc_exactCurves + k;
        if (c->body != NULL && strcmp(c->scene, scene->name) == 0 && strcmp(c->body, scene->bodyNames[body]) == 0) return c;
    }
    return NULL;
}

// ---------------------------------------------------------------------------------------------------------------------
// Plot buffer
// ---------------------------------------------------------------------------------------------------------------------

static void fcPlotClearSeries(fcPlot* plot, int s)
{
    for (int k = 0; k < FC_PLOT_CAPACITY; ++k) {
        plot->force[k][s] = plot->moment[k][s] = plot->exactValue[k][s] = NAN;
        plot->component[k][s][0] = plot->component[k][s][1] = plot->component[k][s][2] = NAN;
    }
}

static int fcPlotFreeColor(const fcPlot* plot)
{
    for (int c = 0; c < FC_PLOT_MAX_SERIES; ++c) {
        bool used = false;
        for (int s = 0; s < plot->seriesCount; ++s) used = used || plot->color[s] == c;
        if (!used) return c;
    }
    return 0;
}

// A joint's channel (body -1) or a body's contact channel (joint -1).
static void fcPlotAppendSeries(fcPlot* plot, const fcScene* scene, int joint, int body)
{
    int s = plot->seriesCount;
    plot->joint[s] = joint;
    plot->body[s] = body;
    plot->exact[s] = joint >= 0 ? fcExact_Find(scene, joint) : fcExact_FindBody(scene, body);
    plot->color[s] = fcPlotFreeColor(plot);
    fcPlotClearSeries(plot, s);
    ++plot->seriesCount;
}

void fcPlot_Init(fcPlot* plot, const fcScene* scene)
{
    plot->seriesCount = 0;
    plot->count = plot->head = 0;
    plot->eventCount = plot->eventHead = 0;
    plot->window = 5.0;
    plot->quantity = fcDemo_PlotQuantity(scene);
    // the exact curves are of |F|: plotting moments, the channels come in file order
    bool force = plot->quantity == fc_plotForce;
    for (int j = 0; force && j < scene->jointCount && plot->seriesCount < FC_PLOT_MAX_SERIES; ++j)
        if (fcExact_Find(scene, j) != NULL) fcPlotAppendSeries(plot, scene, j, -1);
    for (int b = 0; force && b < scene->bodyCount && plot->seriesCount < FC_PLOT_MAX_SERIES; ++b)
        if (fcExact_FindBody(scene, b) != NULL) fcPlotAppendSeries(plot, scene, -1, b);
    // the demo's contact channels: space-separated body names
    const char* names = fcDemo_ContactChannels(scene);
    while (names != NULL && *names != '\0' && plot->seriesCount < FC_PLOT_MAX_SERIES) {
        size_t n = strcspn(names, " ");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), names);
        int b = fcScene_FindBody(scene, name);
        if (b >= 0 && fcPlot_FindBodySeries(plot, b) < 0) fcPlotAppendSeries(plot, scene, -1, b);
        names += n;
        while (*names == ' ') ++names;
    }
    for (int j = 0; j < scene->jointCount && plot->seriesCount < FC_PLOT_MAX_SERIES; ++j)
        if (fcPlot_FindSeries(plot, j) < 0) fcPlotAppendSeries(plot, scene, j, -1);
    // nothing yet (a scene file of contacts alone): the contacts of its first dynamic bodies with shapes
    bool none = plot->seriesCount == 0;
    for (int b = 0; none && b < scene->bodyCount && plot->seriesCount < FC_PLOT_MAX_SERIES; ++b)
        if (fcBody_GetType(scene->bodies[b]) == fc_dynamicBody && fcBody_GetShapeCount(scene->bodies[b]) > 0)
            fcPlotAppendSeries(plot, scene, -1, b);
}

int fcPlot_Index(const fcPlot* plot, int i) { return (plot->head + i) % FC_PLOT_CAPACITY; }

int fcPlot_FindSeries(const fcPlot* plot, int joint)
{
    for (int s = 0; s < plot->seriesCount; ++s)
        if (joint >= 0 && plot->joint[s] == joint) return s;
    return -1;
}

int fcPlot_FindBodySeries(const fcPlot* plot, int body)
{
    for (int s = 0; s < plot->seriesCount; ++s)
        if (body >= 0 && plot->body[s] == body) return s;
    return -1;
}

void fcPlot_SeriesName(const fcPlot* plot, const fcScene* scene, int s, char* out, size_t size)
{
    if (s < 0 || s >= plot->seriesCount) snprintf(out, size, "?");
    else if (plot->joint[s] >= 0) snprintf(out, size, "%s", scene->jointNames[plot->joint[s]]);
    else snprintf(out, size, "%s contacts", scene->bodyNames[plot->body[s]]);
}

static void fcPlotRemoveSeries(fcPlot* plot, int s);

int fcPlot_Toggle(fcPlot* plot, const fcScene* scene, int joint)
{
    if (joint < 0 || joint >= scene->jointCount) return 0;
    int s = fcPlot_FindSeries(plot, joint);
    if (s < 0) {
        if (plot->seriesCount == FC_PLOT_MAX_SERIES) return 0;
        fcPlotAppendSeries(plot, scene, joint, -1);  // its history starts now (NaN before)
        return 1;
    }
    fcPlotRemoveSeries(plot, s);
    return -1;
}

int fcPlot_ToggleBody(fcPlot* plot, const fcScene* scene, int body)
{
    if (body < 0 || body >= scene->bodyCount) return 0;
    int s = fcPlot_FindBodySeries(plot, body);
    if (s < 0) {
        if (plot->seriesCount == FC_PLOT_MAX_SERIES) return 0;
        fcPlotAppendSeries(plot, scene, -1, body);
        return 1;
    }
    fcPlotRemoveSeries(plot, s);
    return -1;
}

static void fcPlotRemoveSeries(fcPlot* plot, int s)
{
    // close the gap: the later series move down one column, keeping their colours
    for (int r = s; r + 1 < plot->seriesCount; ++r) {
        plot->joint[r] = plot->joint[r + 1];
        plot->body[r] = plot->body[r + 1];
        plot->exact[r] = plot->exact[r + 1];
        plot->color[r] = plot->color[r + 1];
        for (int k = 0; k < FC_PLOT_CAPACITY; ++k) {
            plot->force[k][r] = plot->force[k][r + 1];
            plot->moment[k][r] = plot->moment[k][r + 1];
            plot->exactValue[k][r] = plot->exactValue[k][r + 1];
            memcpy(plot->component[k][r], plot->component[k][r + 1], sizeof plot->component[k][r]);
        }
    }
    --plot->seriesCount;
}

void fcPlot_Add(fcPlot* plot, const fcScene* scene, const fcViewFrame* prev, const fcViewFrame* frame)
{
    int slot;
    if (plot->count < FC_PLOT_CAPACITY) {
        slot = fcPlot_Index(plot, plot->count++);
    } else {
        slot = plot->head;
        plot->head = (plot->head + 1) % FC_PLOT_CAPACITY;
    }
    plot->t[slot] = frame->time;
    for (int s = 0; s < plot->seriesCount; ++s) {
        int j = plot->joint[s], b = plot->body[s], index = j >= 0 ? j : b;
        if (j >= 0) {
            const fcViewJoint* v = frame->joints + j;
            plot->force[slot][s] = v->magnitude;
            plot->moment[slot][s] = v->momentMagnitude;
            memcpy(plot->component[slot][s], v->force, sizeof v->force);
        } else {
            const fcViewBodyContact* v = frame->bodyContacts + b;
            plot->force[slot][s] = v->magnitude;
            plot->moment[slot][s] = v->torqueMagnitude;
            memcpy(plot->component[slot][s], v->force, sizeof v->force);
        }
        plot->exactValue[slot][s] = plot->exact[s] != NULL
                                        ? 0.5 * (plot->exact[s]->fcn(scene, prev, index) + plot->exact[s]->fcn(scene, frame, index))
                                        : NAN;
    }
    for (int e = 0; e < frame->eventCount; ++e) fcPlot_AddEvent(plot, frame->events + e);
    // drop what scrolled out of the window
    while (plot->count > 2 && frame->time - plot->t[plot->head] > plot->window) {
        plot->head = (plot->head + 1) % FC_PLOT_CAPACITY;
        --plot->count;
    }
}

void fcPlot_AddEvent(fcPlot* plot, const fcViewEvent* event)
{
    int slot;
    if (plot->eventCount < FC_PLOT_MAX_EVENTS) {
        slot = (plot->eventHead + plot->eventCount++) % FC_PLOT_MAX_EVENTS;
    } else {
        slot = plot->eventHead;
        plot->eventHead = (plot->eventHead + 1) % FC_PLOT_MAX_EVENTS;
    }
    plot->events[slot].t = event->time;
    plot->events[slot].type = event->type;
    plot->events[slot].contact = event->contact;
    plot->events[slot].joint = event->joint;
}

double fcPlot_Value(const fcPlot* plot, int k, int s, int component)
{
    switch (plot->quantity) {
    case fc_plotMoment: return plot->moment[k][s];
    case fc_plotComponents: return plot->component[k][s][component < 0 ? 0 : component > 2 ? 2 : component];
    case fc_plotForce:
    default: return plot->force[k][s];
    }
}

bool fcPlot_WriteCsv(const fcPlot* plot, const fcScene* scene, FILE* f)
{
    fputs("t", f);
    for (int s = 0; s < plot->seriesCount; ++s) {
        char name[96];
        if (plot->joint[s] >= 0) snprintf(name, sizeof name, "%s", scene->jointNames[plot->joint[s]]);
        else snprintf(name, sizeof name, "%s.contact", scene->bodyNames[plot->body[s]]);
        fprintf(f, ",%s", name);
        if (plot->exact[s] != NULL) fprintf(f, ",%s.exact", name);
    }
    fputc('\n', f);
    for (int i = 0; i < plot->count; ++i) {
        int k = fcPlot_Index(plot, i);
        fprintf(f, "%.17g", plot->t[k]);
        for (int s = 0; s < plot->seriesCount; ++s) {
            fprintf(f, ",%.17g", plot->force[k][s]);
            if (plot->exact[s] != NULL) fprintf(f, ",%.17g", plot->exactValue[k][s]);
        }
        fputc('\n', f);
    }
    return ferror(f) == 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// The log
// ---------------------------------------------------------------------------------------------------------------------

void fcViewLog_Clear(fcViewLog* log) { log->count = log->head = 0; }

void fcViewLog_Add(fcViewLog* log, const char* format, ...)
{
    int slot;
    if (log->count < FC_LOG_CAPACITY) {
        slot = (log->head + log->count++) % FC_LOG_CAPACITY;
    } else {
        slot = log->head;
        log->head = (log->head + 1) % FC_LOG_CAPACITY;
    }
    va_list args;
    va_start(args, format);
    vsnprintf(log->lines[slot], sizeof log->lines[slot], format, args);
    va_end(args);
}

const char* fcViewLog_Line(const fcViewLog* log, int i)
{
    if (i < 0 || i >= log->count) return NULL;
    return log->lines[(log->head + log->count - 1 - i) % FC_LOG_CAPACITY];
}

void fcViewEvent_Describe(const fcViewEvent* e, char* out, size_t size)
{
    double speed = fcLength3(e->velocityB);
    const char* what = e->contact ? "contact " : "";
    switch (e->type) {
    case fc_eventRelease:
        snprintf(out, size, "t = %.4f s  %s%s released (force before %.4g N, speed %.3g m/s)", e->time, what, e->name,
                 e->forceBefore, speed);
        break;
    case fc_eventHold: snprintf(out, size, "t = %.4f s  %s%s took hold (speed %.3g m/s)", e->time, what, e->name, speed); break;
    case fc_eventContactBegin: snprintf(out, size, "t = %.4f s  contact %s began", e->time, e->name); break;
    case fc_eventContactEnd: snprintf(out, size, "t = %.4f s  contact %s ended", e->time, e->name); break;
    case fc_eventStickToSlip:
        snprintf(out, size, "t = %.4f s  contact %s slips (friction before %.4g N)", e->time, e->name, e->forceBefore);
        break;
    case fc_eventSlipToStick: snprintf(out, size, "t = %.4f s  contact %s sticks", e->time, e->name); break;
    case fc_eventSensorBegin: snprintf(out, size, "t = %.4f s  sensor %s: entered", e->time, e->name); break;
    case fc_eventSensorEnd: snprintf(out, size, "t = %.4f s  sensor %s: left", e->time, e->name); break;
    default: snprintf(out, size, "t = %.4f s  %s: %s", e->time, e->name, fcEventType_GetName(e->type)); break;
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Picking and the drag spring
// ---------------------------------------------------------------------------------------------------------------------

// The radius of a sphere about the shape's origin that holds the shape.
static double fcShapeRadius(const fcShapeDef* d, double minRadius)
{
    double r;
    switch (d->type) {
    case fc_boxShape: r = fcVec3_Length(d->halfExtents); break;
    case fc_capsuleShape: r = d->radius + d->halfHeight; break;
    case fc_cylinderShape: r = sqrt(d->radius * d->radius + d->halfHeight * d->halfHeight); break;
    case fc_sphereShape: r = d->radius; break;
    case fc_hullShape:
    case fc_meshShape: {
        const fcVec3* p = d->type == fc_hullShape ? d->points : d->vertices;
        int n = d->type == fc_hullShape ? d->pointCount : d->vertexCount;
        r = 0;
        for (int k = 0; p != NULL && k < n; ++k) r = fmax(r, fcVec3_Length(p[k]));
        break;
    }
    default: r = minRadius; break;  // a plane: nothing to pick by a sphere
    }
    return fmax(r, minRadius);
}

void fcViewBounds_Compute(const fcScene* scene, double minRadius, double (*out)[5])
{
    for (int i = 0; i < scene->bodyCount; ++i) {
        fcBodyId id = scene->bodies[i];
        int n = fcBody_GetShapeCount(id);
        // centre: the middle of the box of the shapes' spheres; radius: the farthest sphere's rim from it
        double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0}, radius = minRadius, shapesRadius = 0;
        for (int k = 0; k < n; ++k) {
            fcShapeDef d = fcShape_GetDef(fcBody_GetShape(id, k));
            double r = fcShapeRadius(&d, minRadius), c[3];
            fcSet3(c, d.localPosition);
            for (int a = 0; a < 3; ++a) {
                lo[a] = k == 0 ? c[a] - r : fmin(lo[a], c[a] - r);
                hi[a] = k == 0 ? c[a] + r : fmax(hi[a], c[a] + r);
            }
        }
        double centre[3] = {0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])};
        for (int k = 0; k < n; ++k) {
            fcShapeDef d = fcShape_GetDef(fcBody_GetShape(id, k));
            double c[3], e[3];
            fcSet3(c, d.localPosition);
            for (int a = 0; a < 3; ++a) e[a] = c[a] - centre[a];
            radius = fmax(radius, fcLength3(e) + fcShapeRadius(&d, minRadius));
            for (int a = 0; a < 3; ++a) e[a] = c[a];  // about the centre of mass (the body's origin)
            shapesRadius = fmax(shapesRadius, fcLength3(e) + fcShapeRadius(&d, 0));
        }
        int planes = 0;  // a ground plane has no sphere: only the engine's ray cast picks it
        for (int k = 0; k < n; ++k) planes += fcShape_GetDef(fcBody_GetShape(id, k)).type == fc_planeShape;
        if (n > 0 && planes == n) radius = shapesRadius = 0;
        out[i][0] = centre[0], out[i][1] = centre[1], out[i][2] = centre[2], out[i][3] = radius, out[i][4] = shapesRadius;
    }
}

// The world position of a body-frame point of a frame's pose.
static void fcPoseApply(const fcViewPose* pose, const double local[3], double out[3])
{
    fcQuat q = {pose->q[0], pose->q[1], pose->q[2], pose->q[3]};
    fcVec3 v = fcQuat_Rotate(q, fcV3(local[0], local[1], local[2]));
    out[0] = pose->p[0] + v.x, out[1] = pose->p[1] + v.y, out[2] = pose->p[2] + v.z;
}

fcPickHit fcPick_BoundingSpheres(const fcViewFrame* frame, const double (*bounds)[5], const double origin[3],
                                 const double dir[3], double maxDistance)
{
    fcPickHit best;
    memset(&best, 0, sizeof best);
    double len = fcLength3(dir), bestScore = INFINITY;
    if (!(len > 0)) return best;
    double u[3] = {dir[0] / len, dir[1] / len, dir[2] / len};
    for (int i = 0; i < frame->bodyCount; ++i) {
        double c[3];
        fcPoseApply(frame->bodies + i, bounds[i], c);
        double oc[3] = {c[0] - origin[0], c[1] - origin[1], c[2] - origin[2]};
        double t = oc[0] * u[0] + oc[1] * u[1] + oc[2] * u[2];  // where the ray passes the centre nearest
        double d2 = oc[0] * oc[0] + oc[1] * oc[1] + oc[2] * oc[2] - t * t;
        double r = bounds[i][3];
        if (!(r > 0) || t < 0 || t > maxDistance || d2 > r * r) continue;
        double score = sqrt(fmax(d2, 0)) / r;
        if (score < bestScore - 1e-9 || (score < bestScore + 1e-9 && t < best.distance)) {
            bestScore = score;
            best.hit = true;
            best.body = i;
            best.distance = t;
            for (int k = 0; k < 3; ++k) best.point[k] = origin[k] + t * u[k];
        }
    }
    if (best.hit) {
        const double* com = frame->bodies[best.body].p;
        double e[3] = {best.point[0] - com[0], best.point[1] - com[1], best.point[2] - com[2]};
        if (fcLength3(e) > bounds[best.body][4]) memcpy(best.point, com, sizeof best.point);
    }
    return best;
}

fcPickHit fcPick_Body(const fcScene* scene, const fcViewFrame* frame, const double (*bounds)[5], const double origin[3],
                      const double dir[3], double maxDistance)
{
    double len = fcLength3(dir);
    fcPickHit hit;
    memset(&hit, 0, sizeof hit);
    if (!(len > 0)) return hit;
    fcVec3 o = fcV3(origin[0], origin[1], origin[2]);
    fcVec3 d = fcV3(dir[0] / len * maxDistance, dir[1] / len * maxDistance, dir[2] / len * maxDistance);
    fcRayResult r = fcWorld_CastRayClosest(scene->world, o, d, fcDefaultQueryFilter());
    int body = r.hit ? fcBodyIndex(scene, r.body) : -1;
    if (body >= 0) {
        hit.hit = true;
        hit.body = body;
        fcSet3(hit.point, r.point);
        hit.distance = r.fraction * maxDistance;
    }
    // no hit: the drawn spheres decide (a body without shapes); a hit: only a body drawn larger than its shapes
    // (a point-like bob) in front of it wins, since the user clicked what they saw
    fcPickHit drawn = fcPick_BoundingSpheres(frame, bounds, origin, dir, hit.hit ? hit.distance : maxDistance);
    if (!hit.hit) return drawn;
    return drawn.hit && drawn.body != hit.body && bounds[drawn.body][3] > 1.5 * bounds[drawn.body][4] ? drawn : hit;
}

bool fcDrag_Begin(fcDrag* drag, const fcScene* scene, int body, const double p[3])
{
    memset(drag, 0, sizeof *drag);
    if (body < 0 || body >= scene->bodyCount) return false;
    fcBodyId id = scene->bodies[body];
    if (fcBody_GetType(id) != fc_dynamicBody) return false;
    double m = fcBody_GetMass(id), h = fcWorld_GetTimestep(scene->world);
    // 2 Hz, but never stiffer than the explicit force can follow at this step (w h <= 0.5)
    double w = fmin(2 * 3.14159265358979323846 * 2, 0.5 / h);
    drag->stiffness = m * w * w;
    drag->damping = 2 * m * w;
    drag->body = body;
    fcSet3(drag->local, fcBody_GetLocalPoint(id, fcV3(p[0], p[1], p[2])));
    memcpy(drag->target, p, sizeof drag->target);
    memcpy(drag->point, p, sizeof drag->point);
    drag->active = true;
    return true;
}

void fcDrag_Point(const fcDrag* drag, const fcScene* scene, double out[3])
{
    fcSet3(out, fcBody_GetWorldPoint(scene->bodies[drag->body], fcV3(drag->local[0], drag->local[1], drag->local[2])));
}

void fcDrag_Apply(fcDrag* drag, const fcScene* scene)
{
    if (!drag->active) return;
    fcBodyId id = scene->bodies[drag->body];
    fcVec3 p = fcBody_GetWorldPoint(id, fcV3(drag->local[0], drag->local[1], drag->local[2]));
    fcVec3 v = fcVec3_Add(fcBody_GetLinearVelocity(id),
                          fcVec3_Cross(fcBody_GetAngularVelocity(id), fcVec3_Sub(p, fcBody_GetPosition(id))));
    fcVec3 target = fcV3(drag->target[0], drag->target[1], drag->target[2]);
    fcVec3 f = fcVec3_Sub(fcVec3_Scale(drag->stiffness, fcVec3_Sub(target, p)), fcVec3_Scale(drag->damping, v));
    fcBody_ApplyForce(id, f, p);
    fcSet3(drag->force, f);
    fcSet3(drag->point, p);
}

void fcDrag_End(fcDrag* drag) { memset(drag, 0, sizeof *drag); }

// ---------------------------------------------------------------------------------------------------------------------
// Demos
// ---------------------------------------------------------------------------------------------------------------------

static int fcCompareStrings(const void* a, const void* b) { return strcmp(*(char* const*)a, *(char* const*)b); }

bool fcDemoList_Scan(fcDemoList* list, const char* dir, char* err, size_t errSize)
{
    memset(list, 0, sizeof *list);
    DIR* d = opendir(dir);
    if (d == NULL) {
        snprintf(err, errSize, "cannot read the scene directory %s", dir);
        return false;
    }
    int capacity = 0;
    for (struct dirent* e; (e = readdir(d)) != NULL;) {
        size_t n = strlen(e->d_name);
        if (n <= 5 || strcmp(e->d_name + n - 5, ".json") != 0 || e->d_name[0] == '.') continue;
        if (list->count == capacity) {
            capacity = capacity ? 2 * capacity : 16;
            char** names = realloc(list->names, (size_t)capacity * sizeof *names);
            if (names == NULL) abort();
            list->names = names;
        }
        char* name = fcViewStrdup(e->d_name);
        name[n - 5] = '\0';
        list->names[list->count++] = name;
    }
    closedir(d);
    if (list->count > 1) qsort(list->names, (size_t)list->count, sizeof *list->names, fcCompareStrings);
    list->paths = fcViewAlloc((size_t)list->count, sizeof *list->paths);
    for (int i = 0; i < list->count; ++i) {
        size_t n = strlen(dir) + strlen(list->names[i]) + 7;
        list->paths[i] = fcViewAlloc(n, 1);
        snprintf(list->paths[i], n, "%s/%s.json", dir, list->names[i]);
    }
    return true;
}

void fcDemoList_Free(fcDemoList* list)
{
    for (int i = 0; i < list->count; ++i) free(list->names[i]), free(list->paths[i]);
    free(list->names);
    free(list->paths);
    memset(list, 0, sizeof *list);
}

int fcDemoList_Find(const fcDemoList* list, const char* name)
{
    for (int i = 0; i < list->count; ++i)
        if (strcmp(list->names[i], name) == 0) return i;
    return -1;
}

// The curated line of each shipped demo and what its plot shows first.
typedef struct fcDemoInfo {
    const char* name;
    const char* line;
    fcPlotQuantity quantity;
    float yaw, pitch;  ///< the camera's first view, rad (0, 0: the default)
    const char* trail; ///< the body whose path is drawn, or NULL
    const char* contactChannels; ///< bodies whose contact channels start in the plot (space-separated), or NULL
} fcDemoInfo;

static const fcDemoInfo fc_demos[] = {
    {"atwood", "Atwood machine: two masses on an ideal string; constant tension 2 m1 m2 g / (m1 + m2)", fc_plotForce, 0, 0, NULL, NULL},
    {"bead_hoop", "a bead sliding on a vertical hoop; the hoop's normal force", fc_plotForce, 0, 0, NULL, NULL},
    {"box_on_plane", "a box resting on a plane: its 4 contact forces sum to m g", fc_plotForce, -0.55f, 0.45f, NULL, NULL},
    {"cantilever", "a beam welded to the world; the weld carries m g and m g L / 2", fc_plotForce, 0, 0, NULL, NULL},
    {"cart_slope", "a cart on a 25 deg slope on a slider, held back by a spring; the rail carries m g cos(a)", fc_plotForce, 0, 0, NULL, NULL},
    {"chain", "a chain of 50 links released horizontal", fc_plotForce, 0, 0, NULL, NULL},
    {"dominoes", "a row of 12 dominoes on the ground: the first is tipped over and topples the rest", fc_plotForce, -0.75f, 0.35f, NULL, "d1 d6 d12"},
    {"double_pendulum", "a double pendulum of two rods on hinges", fc_plotForce, 0, 0, NULL, NULL},
    {"four_bar", "a planar four-bar linkage (a closed loop with redundant rows)", fc_plotForce, 0, 0, NULL, NULL},
    {"heavy_chain", "the chain with a 1000 kg last link (mass ratio 1000)", fc_plotForce, 0, 0, NULL, NULL},
    {"heavy_on_light", "a 100 kg safe on a 1 kg foam block, two 50 kg slabs on 1 kg pads, a 500 kg crate on a 1 kg platform held by a rail: the loads exact", fc_plotForce, -0.5f, 0.1f, NULL, "ground safe"},
    {"knife_edge", "a knife edge (nonholonomic blade) tracing a circle on a plane", fc_plotForce, 0, 0, "blade", NULL},
    {"pendulum", "a pendulum released from the horizontal; tension 3 m g cos(theta)", fc_plotForce, 0, 0, NULL, NULL},
    {"pyramid", "a pyramid of 36 boxes on the ground, every contact force drawn; the ground carries 36 m g", fc_plotForce, -0.12f, 0.12f, NULL, NULL},
    {"ragdoll", "a ragdoll of boxes and capsules on ball, universal and hinge joints, hanging by one hand", fc_plotForce, 0, 0, NULL, NULL},
    {"robot_arm", "a robot arm (servos holding: welds) with a swinging payload; its joint torques plotted", fc_plotMoment, 0, 0, NULL, NULL},
    {"rolling_disk", "a disk rolling without slipping down an incline; friction m g sin(a) / 3", fc_plotForce, 0, 0, NULL, NULL},
    {"rolling_hoop", "a hoop rolling without slipping down an incline; friction m g sin(a) / 2", fc_plotForce, 0, 0, NULL, NULL},
    {"rolling_race", "a hoop and a disk rolling down one incline side by side; the disk wins", fc_plotForce, -0.15f, 0.5f, NULL, NULL},
    {"rope_bridge", "a rope bridge: 11 planks on hinges between two posts, a 60 kg walker on the fourth", fc_plotForce, -0.2f, 0.35f, NULL, NULL},
    {"skier", "a skier on a frictionless dome: normal force m g (3 cos(theta) - 2), lets go at 48.19 deg", fc_plotForce, 0, 0, NULL, NULL},
    {"stacks", "towers of six cylinders, hull cubes and boxes standing on a triangle mesh; the ground carries them all", fc_plotForce, -0.3f, 0.3f, NULL, "ground cyl5"},
    {"stiff_spring", "a soft and a stiff spring pendulum side by side", fc_plotForce, 0, 0, NULL, NULL},
    {"tiles", "a box and a ball crossing the seams of a floor of flush static boxes: no bump, no trip", fc_plotForce, 0, 0.3f, NULL, "box ball"},
    {"turntable", "four boxes on a turntable at 2 rad/s: friction holds the three inner ones for good; the outer one slides off", fc_plotForce, 0, 0.35f, NULL, "box1 box2 box3"},
    {"rolling_turntable", "balls rolling on a turntable at 2 rad/s orbit at 2/7 of its rate; the one started still stays put", fc_plotForce, 0, 0.8f, "outer", "inner still outer"},
};

static const fcDemoInfo* fcDemoFind(const char* name)
{
    for (size_t k = 0; k < sizeof fc_demos / sizeof fc_demos[0]; ++k)
        if (name != NULL && strcmp(fc_demos[k].name, name) == 0) return fc_demos + k;
    return NULL;
}

void fcDemo_Describe(const char* name, const char* description, char* out, size_t size)
{
    const fcDemoInfo* info = fcDemoFind(name);
    if (info != NULL) {
        snprintf(out, size, "%s", info->line);
        return;
    }
    // the scene's own description up to its first sentence or colon, on one line
    size_t n = description != NULL ? strcspn(description, ".:\n") : 0;
    if (n > 80) n = 80;
    snprintf(out, size, "%.*s", (int)n, n > 0 ? description : "(no description)");
}

fcPlotQuantity fcDemo_PlotQuantity(const fcScene* scene)
{
    const fcDemoInfo* info = fcDemoFind(scene->name);
    return info != NULL ? info->quantity : fc_plotForce;
}

const char* fcDemo_ContactChannels(const fcScene* scene)
{
    const fcDemoInfo* info = fcDemoFind(scene->name);
    return info != NULL ? info->contactChannels : NULL;
}

int fcDemo_TrailBody(const fcScene* scene)
{
    const fcDemoInfo* info = fcDemoFind(scene->name);
    return info != NULL && info->trail != NULL ? fcScene_FindBody(scene, info->trail) : -1;
}

void fcTrail_Init(fcTrail* trail, const fcScene* scene)
{
    trail->body = fcDemo_TrailBody(scene);
    trail->count = trail->head = 0;
}

void fcTrail_Add(fcTrail* trail, const fcViewFrame* frame)
{
    if (trail->body < 0 || trail->body >= frame->bodyCount) return;
    int slot;
    if (trail->count < FC_TRAIL_CAPACITY) {
        slot = (trail->head + trail->count++) % FC_TRAIL_CAPACITY;
    } else {
        slot = trail->head;
        trail->head = (trail->head + 1) % FC_TRAIL_CAPACITY;
    }
    for (int k = 0; k < 3; ++k) trail->points[slot][k] = (float)frame->bodies[trail->body].p[k];
}

const float* fcTrail_Point(const fcTrail* trail, int i) { return trail->points[(trail->head + i) % FC_TRAIL_CAPACITY]; }

bool fcDemo_CameraAngles(const fcScene* scene, float* yaw, float* pitch)
{
    const fcDemoInfo* info = fcDemoFind(scene->name);
    if (info == NULL || (info->yaw == 0 && info->pitch == 0)) return false;
    *yaw = info->yaw, *pitch = info->pitch;
    return true;
}

// ---------------------------------------------------------------------------------------------------------------------
// Meshes
// ---------------------------------------------------------------------------------------------------------------------

typedef struct fcMeshBuilder {
    fcMesh* mesh;
    int capacity;
} fcMeshBuilder;

static void fcMeshVertex(fcMeshBuilder* b, float x, float y, float z, float nx, float ny, float nz)
{
    fcMesh* m = b->mesh;
    if (m->vertexCount == b->capacity) {
        b->capacity = b->capacity ? 2 * b->capacity : 256;
        float* data = realloc(m->data, (size_t)b->capacity * 6 * sizeof(float));
        if (data == NULL) abort();
        m->data = data;
    }
    float* v = m->data + 6 * m->vertexCount++;
    v[0] = x, v[1] = y, v[2] = z, v[3] = nx, v[4] = ny, v[5] = nz;
}

static fcMeshBuilder fcMeshBegin(fcMesh* mesh)
{
    mesh->vertexCount = 0;
    mesh->data = NULL;
    fcMeshBuilder b = {mesh, 0};
    return b;
}

void fcMesh_Free(fcMesh* mesh)
{
    free(mesh->data);
    mesh->data = NULL;
    mesh->vertexCount = 0;
}

// A surface of revolution about z: profile points (r, z) with normals (nr, nz), stacks + 1 of them.
static void fcMeshRevolve(fcMeshBuilder* b, const float (*profile)[4], int rings, int slices)
{
    const float tau = 6.28318530718f;
    for (int i = 0; i + 1 < rings; ++i)
        for (int s = 0; s < slices; ++s) {
            float a0 = tau * (float)s / (float)slices, a1 = tau * (float)(s + 1) / (float)slices;
            float c0 = cosf(a0), s0 = sinf(a0), c1 = cosf(a1), s1 = sinf(a1);
            const float *p = profile[i], *q = profile[i + 1];
            float v[4][6] = {
                {p[0] * c0, p[0] * s0, p[1], p[2] * c0, p[2] * s0, p[3]},
                {p[0] * c1, p[0] * s1, p[1], p[2] * c1, p[2] * s1, p[3]},
                {q[0] * c1, q[0] * s1, q[1], q[2] * c1, q[2] * s1, q[3]},
                {q[0] * c0, q[0] * s0, q[1], q[2] * c0, q[2] * s0, q[3]},
            };
            static const int order[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; ++k) {
                const float* w = v[order[k]];
                fcMeshVertex(b, w[0], w[1], w[2], w[3], w[4], w[5]);
            }
        }
}

static float (*fcProfileAlloc(int n))[4] { return fcViewAlloc((size_t)n, sizeof(float[4])); }

void fcMesh_Sphere(fcMesh* mesh, float radius, int slices, int stacks)
{
    fcMesh_Capsule(mesh, radius, 0, slices, stacks);
}

void fcMesh_Capsule(fcMesh* mesh, float radius, float halfHeight, int slices, int stacks)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    int half = stacks / 2 > 1 ? stacks / 2 : 2;
    int n = 2 * (half + 1);
    float(*pr)[4] = fcProfileAlloc(n);
    for (int i = 0; i <= half; ++i) {  // bottom cap from the south pole to the equator, then the top cap
        float phi = -1.57079632679f + 1.57079632679f * (float)i / (float)half;
        float c = cosf(phi), s = sinf(phi);
        float* lo = pr[i];
        lo[0] = radius * c, lo[1] = -halfHeight + radius * s, lo[2] = c, lo[3] = s;
        float* hi = pr[half + 1 + i];
        float phi2 = 1.57079632679f * (float)i / (float)half;
        hi[0] = radius * cosf(phi2), hi[1] = halfHeight + radius * sinf(phi2), hi[2] = cosf(phi2), hi[3] = sinf(phi2);
    }
    fcMeshRevolve(&b, (const float(*)[4])pr, n, slices);
    free(pr);
}

void fcMesh_Cylinder(fcMesh* mesh, float radius, float halfHeight, int slices)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    const float pr[8][4] = {
        {0, -halfHeight, 0, -1}, {radius, -halfHeight, 0, -1},  // bottom disk
        {radius, -halfHeight, 1, 0}, {radius, halfHeight, 1, 0},  // side
        {radius, halfHeight, 0, 1}, {0, halfHeight, 0, 1},       // top disk
    };
    fcMeshRevolve(&b, pr, 2, slices);
    fcMeshRevolve(&b, pr + 2, 2, slices);
    fcMeshRevolve(&b, pr + 4, 2, slices);
}

void fcMesh_Cone(fcMesh* mesh, float radius, float height, int slices)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    float l = sqrtf(radius * radius + height * height);
    const float pr[4][4] = {
        {0, 0, 0, -1}, {radius, 0, 0, -1},
        {radius, 0, height / l, radius / l}, {0, height, height / l, radius / l},
    };
    fcMeshRevolve(&b, pr, 2, slices);
    fcMeshRevolve(&b, pr + 2, 2, slices);
}

void fcMesh_Box(fcMesh* mesh, float hx, float hy, float hz)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    const float h[3] = {hx, hy, hz};
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = -1; sign <= 1; sign += 2) {
            int u = (axis + 1) % 3, v = (axis + 2) % 3;
            float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
            static const int order[6] = {0, 1, 2, 0, 2, 3};
            for (int k = 0; k < 6; ++k) {
                int c = order[sign > 0 ? k : 5 - k];  // outward winding
                float p[3], n[3] = {0, 0, 0};
                p[axis] = (float)sign * h[axis];
                p[u] = corners[c][0] * h[u];
                p[v] = corners[c][1] * h[v];
                n[axis] = (float)sign;
                fcMeshVertex(&b, p[0], p[1], p[2], n[0], n[1], n[2]);
            }
        }
}

static void fcMeshTriangle(fcMeshBuilder* b, const double* p0, const double* p1, const double* p2, const double n[3])
{
    const double* p[3] = {p0, p1, p2};
    for (int k = 0; k < 3; ++k)
        fcMeshVertex(b, (float)p[k][0], (float)p[k][1], (float)p[k][2], (float)n[0], (float)n[1], (float)n[2]);
}

static void fcCross3(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1], out[1] = a[2] * b[0] - a[0] * b[2], out[2] = a[0] * b[1] - a[1] * b[0];
}

void fcMesh_Triangles(fcMesh* mesh, const fcVec3* vertices, int vertexCount, const int* indices, int triangleCount)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    for (int t = 0; vertices != NULL && indices != NULL && t < triangleCount; ++t) {
        double p[3][3] = {{0}};  // all three set when ok (the optimizer cannot see it)
        bool ok = true;
        for (int k = 0; k < 3; ++k) {
            int i = indices[3 * t + k];
            if (i < 0 || i >= vertexCount) ok = false;
            else fcSet3(p[k], vertices[i]);
        }
        if (!ok) continue;
        double e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
        double e2[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]}, n[3];
        fcCross3(e1, e2, n);
        double l = fcLength3(n);
        if (!(l > 0)) continue;
        for (int k = 0; k < 3; ++k) n[k] /= l;
        fcMeshTriangle(&b, p[0], p[1], p[2], n);
    }
}

typedef struct fcHullPoint {
    double u, v;
    int index;
} fcHullPoint;

static int fcCompareHullPoints(const void* a, const void* b)
{
    const fcHullPoint *p = a, *q = b;
    if (p->u != q->u) return p->u < q->u ? -1 : 1;
    return p->v < q->v ? -1 : p->v > q->v ? 1 : 0;
}

static double fcTurn(const fcHullPoint* o, const fcHullPoint* a, const fcHullPoint* b)
{
    return (a->u - o->u) * (b->v - o->v) - (a->v - o->v) * (b->u - o->u);
}

// The convex polygon (counter-clockwise in u, v) of points in a plane: Andrew's monotone chain. Returns its size.
static int fcConvexPolygon(fcHullPoint* pts, int n, fcHullPoint* out, double eps)
{
    qsort(pts, (size_t)n, sizeof *pts, fcCompareHullPoints);
    int k = 0;
    for (int i = 0; i < n; ++i) {  // lower chain
        while (k >= 2 && fcTurn(out + k - 2, out + k - 1, pts + i) <= eps) --k;
        out[k++] = pts[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; --i) {  // upper chain
        while (k >= lower && fcTurn(out + k - 2, out + k - 1, pts + i) <= eps) --k;
        out[k++] = pts[i];
    }
    return k > 1 ? k - 1 : k;  // the last point repeats the first
}

bool fcMesh_Hull(fcMesh* mesh, const fcVec3* points, int count)
{
    fcMeshBuilder b = fcMeshBegin(mesh);
    if (points == NULL || count < 4) return false;
    double lo[3], hi[3];
    for (int k = 0; k < 3; ++k) lo[k] = INFINITY, hi[k] = -INFINITY;
    for (int i = 0; i < count; ++i) {
        double p[3];
        fcSet3(p, points[i]);
        for (int k = 0; k < 3; ++k) lo[k] = fmin(lo[k], p[k]), hi[k] = fmax(hi[k], p[k]);
    }
    double size = fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    if (!(size > 0)) return false;
    if (count > FC_MESH_HULL_MAX_POINTS) {  // too many for brute force: the bounding box
        fcMesh_Box(mesh, (float)(0.5 * (hi[0] - lo[0])), (float)(0.5 * (hi[1] - lo[1])), (float)(0.5 * (hi[2] - lo[2])));
        for (int v = 0; v < mesh->vertexCount; ++v)
            for (int k = 0; k < 3; ++k) mesh->data[6 * v + k] += (float)(0.5 * (lo[k] + hi[k]));
        return true;
    }
    double eps = 1e-7 * size;
    double (*p)[3] = fcViewAlloc((size_t)count, sizeof *p);
    for (int i = 0; i < count; ++i) fcSet3(p[i], points[i]);
    fcHullPoint* face = fcViewAlloc((size_t)count, sizeof *face);
    fcHullPoint* polygon = fcViewAlloc((size_t)count + 1, sizeof *polygon);
    int planeCount = 0, planeCapacity = 32;
    double (*planes)[4] = fcViewAlloc((size_t)planeCapacity, sizeof *planes);
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j)
            for (int k = j + 1; k < count; ++k) {
                double e1[3] = {p[j][0] - p[i][0], p[j][1] - p[i][1], p[j][2] - p[i][2]};
                double e2[3] = {p[k][0] - p[i][0], p[k][1] - p[i][1], p[k][2] - p[i][2]}, n[3];
                fcCross3(e1, e2, n);
                double l = fcLength3(n);
                if (!(l > eps * size)) continue;  // (nearly) collinear
                for (int c = 0; c < 3; ++c) n[c] /= l;
                double d = n[0] * p[i][0] + n[1] * p[i][1] + n[2] * p[i][2];
                int above = 0, below = 0;
                for (int m = 0; m < count && !(above && below); ++m) {
                    double side = n[0] * p[m][0] + n[1] * p[m][1] + n[2] * p[m][2] - d;
                    above += side > eps, below += side < -eps;
                }
                if ((above && below) || (!above && !below)) continue;  // not a face, or all points in one plane
                if (above) {  // outward: every other point below the face
                    for (int c = 0; c < 3; ++c) n[c] = -n[c];
                    d = -d;
                }
                bool seen = false;
                for (int q = 0; q < planeCount && !seen; ++q)
                    seen = planes[q][0] * n[0] + planes[q][1] * n[1] + planes[q][2] * n[2] > 1 - 1e-9 && fabs(planes[q][3] - d) <= eps;
                if (seen) continue;
                if (planeCount == planeCapacity) {
                    planeCapacity *= 2;
                    double (*bigger)[4] = realloc(planes, (size_t)planeCapacity * sizeof *planes);
                    if (bigger == NULL) abort();
                    planes = bigger;
                }
                planes[planeCount][0] = n[0], planes[planeCount][1] = n[1], planes[planeCount][2] = n[2];
                planes[planeCount++][3] = d;
                // the face: every point in the plane, as a convex polygon counter-clockwise seen from outside
                double u[3] = {e1[0], e1[1], e1[2]}, v[3];
                double ul = fcLength3(u);
                for (int c = 0; c < 3; ++c) u[c] /= ul;
                fcCross3(n, u, v);
                int m = 0;
                for (int q = 0; q < count; ++q) {
                    double side = n[0] * p[q][0] + n[1] * p[q][1] + n[2] * p[q][2] - d;
                    if (fabs(side) > eps) continue;
                    face[m].u = u[0] * p[q][0] + u[1] * p[q][1] + u[2] * p[q][2];
                    face[m].v = v[0] * p[q][0] + v[1] * p[q][1] + v[2] * p[q][2];
                    face[m++].index = q;
                }
                int corners = fcConvexPolygon(face, m, polygon, eps * size);
                for (int c = 1; c + 1 < corners; ++c)
                    fcMeshTriangle(&b, p[polygon[0].index], p[polygon[c].index], p[polygon[c + 1].index], n);
            }
    free(planes);
    free(polygon);
    free(face);
    free(p);
    return mesh->vertexCount > 0;
}

void fcColorRamp(double x, float rgb[3])
{
    static const float stops[5][3] = {
        {0.25f, 0.45f, 1.0f}, {0.2f, 0.85f, 0.95f}, {0.3f, 0.9f, 0.35f}, {1.0f, 0.85f, 0.2f}, {1.0f, 0.3f, 0.2f}};
    if (!(x > 0)) x = 0;
    if (x > 1) x = 1;
    double s = x * 4;
    int i = (int)s;
    if (i > 3) i = 3;
    float t = (float)(s - i);
    for (int k = 0; k < 3; ++k) rgb[k] = stops[i][k] + t * (stops[i + 1][k] - stops[i][k]);
}
