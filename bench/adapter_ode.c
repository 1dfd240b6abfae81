// SPDX-License-Identifier: MIT
// fulcrum-bench: the ODE adapter (Debian's libode-dev, double precision). Two settings: dWorldQuickStep with 20
// iterations (ODE's default) and dWorldStep (the direct Dantzig LCP per island). Everything else is ODE's
// default: ERP 0.2, CFM 1e-10, SOR 1.3, contact surface layer 0, no max correcting velocity, auto-disable off.
// Contacts: dContactApprox1, mu = sqrt(mu_a mu_b) as Fulcrum, up to 8 per geom pair, dHashSpace, dCreatePlane.
// Joint feedback: dJointFeedback.f1, the force on body 1, which is Fulcrum's body_b.
#include "adapter.h"

#include <ode/ode.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#define ODE_MAX_CONTACTS 8

typedef struct fcbOde {
    const fcbScene* scene;
    bool quick;
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    dBodyID* bodies;  // NULL for static bodies
    dJointID* joints;
    dJointFeedback* feedback;
    double maxDepth;
    int points;
} fcbOde;

static int odeInitCount;

void fcbFatal(const char* message);

// dWorldStep's LCP prints "LCP internal error, s <= 0" on every failed pivot: the table shows the outcome instead
static void OdeQuiet(int num, const char* msg, va_list ap)
{
    (void)num, (void)msg, (void)ap;
}

static void OdeFatal(int num, const char* msg, va_list ap)
{
    (void)num, (void)ap;
    fcbFatal(msg);
}

static void OdeNear(void* data, dGeomID g1, dGeomID g2)
{
    fcbOde* o = data;
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (!b1 && !b2) return;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;  // joined bodies do not collide
    const fcbShape* s1 = dGeomGetData(g1);
    const fcbShape* s2 = dGeomGetData(g2);
    dContact c[ODE_MAX_CONTACTS];
    int n = dCollide(g1, g2, ODE_MAX_CONTACTS, &c[0].geom, sizeof(dContact));
    double mu = sqrt(s1->friction * s2->friction);
    double e = s1->restitution > s2->restitution ? s1->restitution : s2->restitution;
    for (int i = 0; i < n; ++i) {
        c[i].surface.mode = dContactApprox1 | (e > 0 ? dContactBounce : 0);
        c[i].surface.mu = mu;
        c[i].surface.bounce = e;
        c[i].surface.bounce_vel = 1.0;  // Fulcrum's restitution threshold
        if (c[i].geom.depth > o->maxDepth) o->maxDepth = c[i].geom.depth;
        dJointID j = dJointCreateContact(o->world, o->contacts, &c[i]);
        dJointAttach(j, b1, b2);
    }
    o->points += n;
}

static void QuatToOde(const double q[4], dQuaternion out)
{
    out[0] = q[0], out[1] = q[1], out[2] = q[2], out[3] = q[3];
}

// world pose of a shape: body pose composed with the shape's local pose
static void ShapeWorldPose(const fcbBody* b, const fcbShape* s, double p[3], double q[4])
{
    const double* a = b->quat;
    const double* c = s->quat;
    q[0] = a[0] * c[0] - a[1] * c[1] - a[2] * c[2] - a[3] * c[3];
    q[1] = a[0] * c[1] + a[1] * c[0] + a[2] * c[3] - a[3] * c[2];
    q[2] = a[0] * c[2] - a[1] * c[3] + a[2] * c[0] + a[3] * c[1];
    q[3] = a[0] * c[3] + a[1] * c[2] - a[2] * c[1] + a[3] * c[0];
    // rotate s->pos by a
    double w = a[0], x = a[1], y = a[2], z = a[3];
    double v[3] = {s->pos[0], s->pos[1], s->pos[2]};
    double t[3] = {2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])};
    p[0] = b->pos[0] + v[0] + w * t[0] + (y * t[2] - z * t[1]);
    p[1] = b->pos[1] + v[1] + w * t[1] + (z * t[0] - x * t[2]);
    p[2] = b->pos[2] + v[2] + w * t[2] + (x * t[1] - y * t[0]);
}

static const char* OdeRefuseDense(const fcbScene* s, char* why, size_t n)
{
    // dWorldStep factors a dense m x m matrix per island: m^2 doubles and about m^3 / 3 flops per step
    double m = 0;
    for (int j = 0; j < s->jointCount; ++j) m += s->joints[j].type == fcb_hinge ? 5 : 3;
    m += 3.0 * 8 * s->collidingBodies / 2;  // contact rows: a rough guess, 8 points per resting body pair
    double bytes = 3 * m * m * 8, seconds = m * m * m / 3 / 2e9;
    if (bytes > 0.5 * fcbAvailableBytes()) {
        snprintf(why, n, "dense LCP of ~%.0f rows needs ~%.1f GB (%.1f GB available)", m, bytes / 1e9,
                 fcbAvailableBytes() / 1e9);
        return why;
    }
    if (seconds > 60) {
        snprintf(why, n, "dense LCP of ~%.0f rows: ~%.0f s per step (> 60 s)", m, seconds);
        return why;
    }
    return NULL;
}

static void* OdeCreate(const fcbScene* s, bool quick, char* err, size_t errSize)
{
    if (odeInitCount++ == 0) {
        dInitODE2(0);
        dSetMessageHandler(OdeQuiet);
        dSetErrorHandler(OdeFatal);
        dSetDebugHandler(OdeFatal);
    }
    fcbOde* o = calloc(1, sizeof *o);
    o->scene = s;
    o->quick = quick;
    o->world = dWorldCreate();
    dWorldSetGravity(o->world, s->gravity[0], s->gravity[1], s->gravity[2]);
    dWorldSetQuickStepNumIterations(o->world, 20);
    dWorldSetAutoDisableFlag(o->world, 0);
    o->space = dHashSpaceCreate(0);
    o->contacts = dJointGroupCreate(0);
    o->bodies = calloc((size_t)s->bodyCount, sizeof *o->bodies);
    o->joints = calloc((size_t)s->jointCount + 1, sizeof *o->joints);
    o->feedback = calloc((size_t)s->jointCount + 1, sizeof *o->feedback);
    for (int i = 0; i < s->bodyCount; ++i) {
        const fcbBody* b = &s->bodies[i];
        dBodyID body = NULL;
        if (b->dynamic) {
            body = dBodyCreate(o->world);
            dMass m;
            dMassSetParameters(&m, b->mass, 0, 0, 0, b->inertia[0], b->inertia[1], b->inertia[2], 0, 0, 0);
            dBodySetMass(body, &m);
            dBodySetPosition(body, b->pos[0], b->pos[1], b->pos[2]);
            dQuaternion q;
            QuatToOde(b->quat, q);
            dBodySetQuaternion(body, q);
            dBodySetLinearVel(body, b->vel[0], b->vel[1], b->vel[2]);
            dBodySetAngularVel(body, b->angvel[0], b->angvel[1], b->angvel[2]);
        }
        o->bodies[i] = body;
        for (int k = 0; k < b->shapeCount; ++k) {
            const fcbShape* sh = &b->shapes[k];
            if (!sh->collides) continue;
            double p[3], q[4];
            ShapeWorldPose(b, sh, p, q);
            dGeomID g = NULL;
            switch (sh->type) {
                case fcb_sphere: g = dCreateSphere(o->space, sh->radius); break;
                case fcb_box: g = dCreateBox(o->space, 2 * sh->half[0], 2 * sh->half[1], 2 * sh->half[2]); break;
                case fcb_capsule: g = dCreateCapsule(o->space, sh->radius, 2 * sh->halfHeight); break;
                case fcb_plane: {  // static bodies only (the harness refuses others)
                    double nz[3] = {2 * (q[1] * q[3] + q[0] * q[2]), 2 * (q[2] * q[3] - q[0] * q[1]),
                                    1 - 2 * (q[1] * q[1] + q[2] * q[2])};
                    g = dCreatePlane(o->space, nz[0], nz[1], nz[2], nz[0] * p[0] + nz[1] * p[1] + nz[2] * p[2]);
                    break;
                }
            }
            dGeomSetData(g, (void*)sh);
            if (sh->type == fcb_plane) continue;
            if (body) {
                dGeomSetBody(g, body);
                dQuaternion lq;
                QuatToOde(sh->quat, lq);
                if (sh->pos[0] != 0 || sh->pos[1] != 0 || sh->pos[2] != 0)
                    dGeomSetOffsetPosition(g, sh->pos[0], sh->pos[1], sh->pos[2]);
                if (sh->quat[0] != 1) dGeomSetOffsetQuaternion(g, lq);
            } else {
                dQuaternion wq;
                QuatToOde(q, wq);
                dGeomSetPosition(g, p[0], p[1], p[2]);
                dGeomSetQuaternion(g, wq);
            }
        }
    }
    for (int j = 0; j < s->jointCount; ++j) {
        const fcbJoint* jt = &s->joints[j];
        dJointID id;
        if (jt->type == fcb_ball) {
            id = dJointCreateBall(o->world, 0);
            dJointAttach(id, o->bodies[jt->b], jt->a >= 0 ? o->bodies[jt->a] : 0);
            dJointSetBallAnchor(id, jt->anchor[0], jt->anchor[1], jt->anchor[2]);
        } else {
            id = dJointCreateHinge(o->world, 0);
            dJointAttach(id, o->bodies[jt->b], jt->a >= 0 ? o->bodies[jt->a] : 0);
            dJointSetHingeAnchor(id, jt->anchor[0], jt->anchor[1], jt->anchor[2]);
            dJointSetHingeAxis(id, jt->axis[0], jt->axis[1], jt->axis[2]);
        }
        dJointSetFeedback(id, &o->feedback[j]);
        o->joints[j] = id;
    }
    (void)err;
    (void)errSize;
    return o;
}

static void* OdeCreateQuick(const fcbScene* s, char* err, size_t n) { return OdeCreate(s, true, err, n); }
static void* OdeCreateDense(const fcbScene* s, char* err, size_t n) { return OdeCreate(s, false, err, n); }

static void OdeStep(void* ctx)
{
    fcbOde* o = ctx;
    o->maxDepth = 0;
    o->points = 0;
    dSpaceCollide(o->space, o, OdeNear);
    if (o->quick)
        dWorldQuickStep(o->world, o->scene->dt);
    else
        dWorldStep(o->world, o->scene->dt);
    dJointGroupEmpty(o->contacts);
}

static void OdeGetState(void* ctx, int i, fcbState* out)
{
    fcbOde* o = ctx;
    dBodyID b = o->bodies[i];
    if (!b) {
        const fcbBody* sb = &o->scene->bodies[i];
        for (int k = 0; k < 3; ++k) out->pos[k] = sb->pos[k], out->vel[k] = 0, out->angvel[k] = 0;
        for (int k = 0; k < 4; ++k) out->quat[k] = sb->quat[k];
        return;
    }
    const dReal* p = dBodyGetPosition(b);
    const dReal* q = dBodyGetQuaternion(b);
    const dReal* v = dBodyGetLinearVel(b);
    const dReal* w = dBodyGetAngularVel(b);
    for (int k = 0; k < 3; ++k) out->pos[k] = p[k], out->vel[k] = v[k], out->angvel[k] = w[k];
    for (int k = 0; k < 4; ++k) out->quat[k] = q[k];
}

static bool OdeJointForce(void* ctx, int j, double f[3])
{
    fcbOde* o = ctx;
    for (int k = 0; k < 3; ++k) f[k] = o->feedback[j].f1[k];
    return true;
}

static double OdePenetration(void* ctx, int* points)
{
    fcbOde* o = ctx;
    *points = o->points;
    return o->maxDepth;
}

static void OdeDestroy(void* ctx)
{
    fcbOde* o = ctx;
    dJointGroupDestroy(o->contacts);
    dSpaceDestroy(o->space);
    dWorldDestroy(o->world);
    free(o->bodies);
    free(o->joints);
    free(o->feedback);
    free(o);
}

static void OdeReadBack(void* ctx, int* bodies, double* mass)
{
    fcbOde* o = ctx;
    *bodies = 0;
    *mass = 0;
    for (int i = 0; i < o->scene->bodyCount; ++i) {
        if (!o->bodies[i]) continue;
        dMass m;
        dBodyGetMass(o->bodies[i], &m);
        ++*bodies;
        *mass += m.mass;
    }
}

// the joints are attached (b, a): ODE's anchor 1 is on body b, anchor 2 on body a (or the world)
static bool OdeJointAnchors(void* ctx, int j, double pa[3], double pb[3])
{
    fcbOde* o = ctx;
    dVector3 a1, a2;
    if (dJointGetType(o->joints[j]) == dJointTypeBall) {
        dJointGetBallAnchor(o->joints[j], a1);
        dJointGetBallAnchor2(o->joints[j], a2);
    } else {
        dJointGetHingeAnchor(o->joints[j], a1);
        dJointGetHingeAnchor2(o->joints[j], a2);
    }
    for (int k = 0; k < 3; ++k) pb[k] = a1[k], pa[k] = a2[k];
    return true;
}

static const fcbAdapter fcbOdeAdapters[] = {
    {"ode", "QuickStep20",
     "ODE 0.16 dWorldQuickStep, 20 iterations, SOR 1.3, ERP 0.2, CFM 1e-10, dContactApprox1, <= 8 contacts per "
     "pair, dHashSpace, auto-disable off",
     NULL, OdeCreateQuick, OdeStep, OdeGetState, OdeJointForce, OdePenetration, OdeDestroy, OdeReadBack,
     OdeJointAnchors},
    {"ode", "dWorldStep",
     "ODE 0.16 dWorldStep (Dantzig LCP, dense per island), ERP 0.2, CFM 1e-10, contacts as QuickStep20",
     OdeRefuseDense, OdeCreateDense, OdeStep, OdeGetState, OdeJointForce, OdePenetration, OdeDestroy, OdeReadBack,
     OdeJointAnchors},
};

int fcbOde_Adapters(const fcbAdapter** out)
{
    *out = fcbOdeAdapters;
    return (int)(sizeof fcbOdeAdapters / sizeof fcbOdeAdapters[0]);
}
