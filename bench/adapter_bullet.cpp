// SPDX-License-Identifier: MIT
// fulcrum-bench: the Bullet adapter (Debian's libbullet-dev, the double-precision libraries). One setting:
// btDiscreteDynamicsWorld with btSequentialImpulseConstraintSolver and its defaults (10 iterations, ERP 0.2, split
// impulse, warm starting 0.85, SIMD solver mode), btDbvtBroadphase, the default collision margin 0.04,
// deactivation disabled. Bullet multiplies the two bodies' friction, so each body gets sqrt(mu): a pair then has
// sqrt(mu_a mu_b), as in Fulcrum. Ball joints are btPoint2PointConstraint (tau 0.3, damping 1), hinges
// btHingeConstraint; collisions between joined bodies are disabled. stepSimulation(dt, 0): one step of dt.
// Joint force: btJointFeedback.m_appliedForceBodyA, body A being Fulcrum's body_b.
#include "adapter.h"

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

struct BulletWorld {
    const fcbScene* scene = nullptr;
    btDefaultCollisionConfiguration* config = nullptr;
    btCollisionDispatcher* dispatcher = nullptr;
    btBroadphaseInterface* broadphase = nullptr;
    btSequentialImpulseConstraintSolver* solver = nullptr;
    btDiscreteDynamicsWorld* world = nullptr;
    std::vector<btCollisionShape*> shapes;
    std::vector<btRigidBody*> bodies;  // one per scene body (static ones too)
    std::vector<btTypedConstraint*> joints;
    std::vector<btJointFeedback> feedback;
};

btQuaternion Q(const double q[4]) { return btQuaternion(q[1], q[2], q[3], q[0]); }
btVector3 V(const double v[3]) { return btVector3(v[0], v[1], v[2]); }

btCollisionShape* MakeShape(const fcbShape& s)
{
    switch (s.type) {
        case fcb_sphere: return new btSphereShape(s.radius);
        case fcb_box: return new btBoxShape(btVector3(s.half[0], s.half[1], s.half[2]));
        case fcb_capsule: return new btCapsuleShapeZ(s.radius, 2 * s.halfHeight);
        case fcb_plane: return nullptr;
    }
    return nullptr;
}

void BulletDestroy(void* ctx);

// The collision shape of scene body b (kept in shapes for deletion), with its friction and restitution and the number
// of colliding shapes: btEmptyShape for none, the shape itself when it is one at the centre, else a compound. A lone
// plane on a static body becomes btStaticPlaneShape in world coordinates, and pose is then set to the identity.
// nullptr: a plane among other shapes.
btCollisionShape* BodyShape(std::vector<btCollisionShape*>& shapes, const fcbBody& b, btTransform& pose, double& mu,
                            double& e, int& colliding)
{
    btCollisionShape* shape = nullptr;
    mu = 0.6, e = 0;
    colliding = 0;
    for (int k = 0; k < b.shapeCount; ++k) colliding += b.shapes[k].collides;
    if (!b.dynamic && colliding == 1) {
        for (int k = 0; k < b.shapeCount; ++k) {
            const fcbShape& sh = b.shapes[k];
            if (!sh.collides || sh.type != fcb_plane) continue;
            // a plane is fixed in the world: normal and offset in world coordinates, body at the identity
            btQuaternion q = Q(b.quat) * Q(sh.quat);
            btVector3 n = quatRotate(q, btVector3(0, 0, 1));
            btVector3 p = V(b.pos) + quatRotate(Q(b.quat), V(sh.pos));
            shape = new btStaticPlaneShape(n, n.dot(p));
            pose.setIdentity();
            mu = sh.friction, e = sh.restitution;
        }
    }
    if (!shape) {
        bool simple = colliding == 1;
        for (int k = 0; k < b.shapeCount; ++k) {
            const fcbShape& sh = b.shapes[k];
            if (sh.collides && (sh.pos[0] != 0 || sh.pos[1] != 0 || sh.pos[2] != 0 || sh.quat[0] != 1)) simple = false;
            if (sh.collides && sh.type == fcb_plane) return nullptr;
        }
        if (colliding == 0) {
            shape = new btEmptyShape();
        } else if (simple) {
            for (int k = 0; k < b.shapeCount; ++k)
                if (b.shapes[k].collides) shape = MakeShape(b.shapes[k]), mu = b.shapes[k].friction, e = b.shapes[k].restitution;
        } else {
            btCompoundShape* c = new btCompoundShape();
            for (int k = 0; k < b.shapeCount; ++k) {
                const fcbShape& sh = b.shapes[k];
                if (!sh.collides) continue;
                btCollisionShape* child = MakeShape(sh);
                shapes.push_back(child);
                c->addChildShape(btTransform(Q(sh.quat), V(sh.pos)), child);
                mu = sh.friction, e = sh.restitution;
            }
            shape = c;
        }
    }
    shapes.push_back(shape);
    return shape;
}

// Scene body b as a btRigidBody (mass 0 when static; its shape from BodyShape), added to w's world; nullptr: see
// BodyShape.
btRigidBody* AddRigidBody(BulletWorld* w, const fcbBody& b)
{
    btTransform pose(Q(b.quat), V(b.pos));
    double mu, e;
    int colliding;
    btCollisionShape* shape = BodyShape(w->shapes, b, pose, mu, e, colliding);
    if (!shape) return nullptr;
    btScalar mass = b.dynamic ? b.mass : 0;
    btVector3 inertia = b.dynamic ? V(b.inertia) : btVector3(0, 0, 0);
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape, inertia);
    info.m_startWorldTransform = pose;
    info.m_friction = std::sqrt(mu);
    info.m_restitution = e;
    btRigidBody* body = new btRigidBody(info);
    body->setWorldTransform(pose);
    if (b.dynamic) {
        body->setLinearVelocity(V(b.vel));
        body->setAngularVelocity(V(b.angvel));
        body->setActivationState(DISABLE_DEACTIVATION);
    }
    if (colliding == 0)
        w->world->addRigidBody(body, 0, 0);  // geometry only: collides with nothing
    else
        w->world->addRigidBody(body);
    return body;
}

void* BulletCreate(const fcbScene* s, char* err, size_t errSize)
{
    BulletWorld* w = new BulletWorld;
    w->scene = s;
    w->config = new btDefaultCollisionConfiguration();
    w->dispatcher = new btCollisionDispatcher(w->config);
    w->broadphase = new btDbvtBroadphase();
    w->solver = new btSequentialImpulseConstraintSolver();
    w->world = new btDiscreteDynamicsWorld(w->dispatcher, w->broadphase, w->solver, w->config);
    w->world->setGravity(btVector3(s->gravity[0], s->gravity[1], s->gravity[2]));
    w->feedback.resize((size_t)s->jointCount);
    for (int i = 0; i < s->bodyCount; ++i) {
        btRigidBody* body = AddRigidBody(w, s->bodies[i]);
        if (!body) {
            std::snprintf(err, errSize, "a plane on a body with other shapes");
            BulletDestroy(w);
            return nullptr;
        }
        w->bodies.push_back(body);
    }
    for (int j = 0; j < s->jointCount; ++j) {
        const fcbJoint& jt = s->joints[j];
        btRigidBody* rb = w->bodies[(size_t)jt.b];
        btTypedConstraint* c;
        if (jt.type == fcb_ball) {
            if (jt.a >= 0)
                c = new btPoint2PointConstraint(*rb, *w->bodies[(size_t)jt.a], V(jt.localB), V(jt.localA));
            else
                c = new btPoint2PointConstraint(*rb, V(jt.localB));
        } else {
            const fcbBody& bb = s->bodies[jt.b];
            btVector3 axisB = quatRotate(Q(bb.quat).inverse(), V(jt.axis));
            if (jt.a >= 0) {
                const fcbBody& ba = s->bodies[jt.a];
                btVector3 axisA = quatRotate(Q(ba.quat).inverse(), V(jt.axis));
                c = new btHingeConstraint(*rb, *w->bodies[(size_t)jt.a], V(jt.localB), V(jt.localA), axisB, axisA);
            } else {
                c = new btHingeConstraint(*rb, V(jt.localB), axisB);
            }
        }
        c->setJointFeedback(&w->feedback[(size_t)j]);
        c->enableFeedback(true);
        w->world->addConstraint(c, true);
        w->joints.push_back(c);
    }
    (void)err;
    (void)errSize;
    return w;
}

void BulletStep(void* ctx)
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    w->world->stepSimulation(w->scene->dt, 0);
}

void BulletGetState(void* ctx, int i, fcbState* out)
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    const fcbBody& b = w->scene->bodies[i];
    if (!b.dynamic) {
        for (int k = 0; k < 3; ++k) out->pos[k] = b.pos[k], out->vel[k] = 0, out->angvel[k] = 0;
        for (int k = 0; k < 4; ++k) out->quat[k] = b.quat[k];
        return;
    }
    const btRigidBody* rb = w->bodies[(size_t)i];
    const btTransform& t = rb->getCenterOfMassTransform();
    btQuaternion q = t.getRotation();
    btVector3 p = t.getOrigin(), v = rb->getLinearVelocity(), om = rb->getAngularVelocity();
    out->pos[0] = p.x(), out->pos[1] = p.y(), out->pos[2] = p.z();
    out->quat[0] = q.w(), out->quat[1] = q.x(), out->quat[2] = q.y(), out->quat[3] = q.z();
    out->vel[0] = v.x(), out->vel[1] = v.y(), out->vel[2] = v.z();
    out->angvel[0] = om.x(), out->angvel[1] = om.y(), out->angvel[2] = om.z();
}

bool BulletJointForce(void* ctx, int j, double f[3])
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    const btVector3& a = w->feedback[(size_t)j].m_appliedForceBodyA;
    f[0] = a.x(), f[1] = a.y(), f[2] = a.z();
    return true;
}

double BulletPenetration(void* ctx, int* points)
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    double pen = 0;
    int count = 0;
    int n = w->dispatcher->getNumManifolds();
    for (int i = 0; i < n; ++i) {
        btPersistentManifold* m = w->dispatcher->getManifoldByIndexInternal(i);
        for (int k = 0; k < m->getNumContacts(); ++k) {
            double d = m->getContactPoint(k).getDistance();
            ++count;
            if (-d > pen) pen = -d;
        }
    }
    *points = count;
    return pen;
}

void BulletDestroy(void* ctx)
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    for (btTypedConstraint* c : w->joints) {
        w->world->removeConstraint(c);
        delete c;
    }
    for (btRigidBody* b : w->bodies) {
        w->world->removeRigidBody(b);
        delete b;
    }
    for (btCollisionShape* s : w->shapes) delete s;
    delete w->world;
    delete w->solver;
    delete w->broadphase;
    delete w->dispatcher;
    delete w->config;
    delete w;
}

void BulletReadBack(void* ctx, int* bodies, double* mass)
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    *bodies = 0;
    *mass = 0;
    const btCollisionObjectArray& objects = w->world->getCollisionObjectArray();
    for (int i = 0; i < objects.size(); ++i) {
        const btRigidBody* rb = btRigidBody::upcast(objects[i]);
        if (!rb || rb->getInvMass() == 0) continue;
        ++*bodies;
        *mass += 1 / rb->getInvMass();
    }
}

// the constraints are built (b, a): Bullet's body A is the scene's body b, its body B the scene's a (or the world)
bool BulletJointAnchors(void* ctx, int j, double pa[3], double pb[3])
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    btTypedConstraint* c = w->joints[(size_t)j];
    btVector3 inA, inB;
    if (c->getConstraintType() == POINT2POINT_CONSTRAINT_TYPE) {
        btPoint2PointConstraint* p = static_cast<btPoint2PointConstraint*>(c);
        inA = p->getPivotInA(), inB = p->getPivotInB();
    } else if (c->getConstraintType() == HINGE_CONSTRAINT_TYPE) {
        btHingeConstraint* h = static_cast<btHingeConstraint*>(c);
        inA = h->getAFrame().getOrigin(), inB = h->getBFrame().getOrigin();
    } else {
        return false;
    }
    btVector3 a = c->getRigidBodyA().getCenterOfMassTransform() * inA;
    btVector3 b = c->getRigidBodyB().getCenterOfMassTransform() * inB;
    pb[0] = a.x(), pb[1] = a.y(), pb[2] = a.z();
    pa[0] = b.x(), pa[1] = b.y(), pa[2] = b.z();
    return true;
}

const fcbAdapter fcbBulletAdapters[] = {
    {"bullet", "SI10",
     "Bullet 3.24 (double) btDiscreteDynamicsWorld + btSequentialImpulseConstraintSolver defaults: 10 iterations, "
     "ERP 0.2, split impulse, warm starting 0.85, btDbvtBroadphase, margin 0.04, deactivation disabled, friction "
     "sqrt(mu) per body; btPoint2PointConstraint (tau 0.3)",
     nullptr, BulletCreate, BulletStep, BulletGetState, BulletJointForce, BulletPenetration, BulletDestroy,
     BulletReadBack, BulletJointAnchors},
};

}  // namespace

extern "C" int fcbBullet_Adapters(const fcbAdapter** out)
{
    *out = fcbBulletAdapters;
    return (int)(sizeof fcbBulletAdapters / sizeof fcbBulletAdapters[0]);
}
