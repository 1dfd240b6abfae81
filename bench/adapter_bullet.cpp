// SPDX-License-Identifier: MIT
// fulcrum-bench: the Bullet adapter (Debian's libbullet-dev, the double-precision libraries). Two settings.
// SI10: btDiscreteDynamicsWorld with btSequentialImpulseConstraintSolver and its defaults (10 iterations, ERP 0.2,
// split impulse, warm starting 0.85, SIMD solver mode), btDbvtBroadphase, the default collision margin 0.04,
// deactivation disabled. Bullet multiplies the two bodies' friction, so each body gets sqrt(mu): a pair then has
// sqrt(mu_a mu_b), as in Fulcrum. Ball joints are btPoint2PointConstraint (tau 0.3, damping 1), hinges
// btHingeConstraint; collisions between joined bodies are disabled. stepSimulation(dt, 0): one step of dt.
// Joint force: btJointFeedback.m_appliedForceBodyA, body A being Fulcrum's body_b.
// btMultiBody: btMultiBodyDynamicsWorld + btMultiBodyConstraintSolver (the same solver defaults), each tree of the
// joints (fcbTree) one btMultiBody in reduced coordinates: a fixed base at the world origin when the tree hangs from
// the world, else the root as a floating base; setupSpherical / setupRevolute links, damping 0 (default 0.04), the
// max coordinate velocity 1e6 (default 100 rad/s), shapes on btMultiBodyLinkCollider, parent-child collisions off.
// Joint force: btMultiBodyJointFeedback.m_reactionForces, linear part, in world (m_jointFeedbackInWorldSpace).
#include "adapter.h"

#include <BulletDynamics/Featherstone/btMultiBody.h>
#include <BulletDynamics/Featherstone/btMultiBodyConstraintSolver.h>
#include <BulletDynamics/Featherstone/btMultiBodyDynamicsWorld.h>
#include <BulletDynamics/Featherstone/btMultiBodyJointFeedback.h>
#include <BulletDynamics/Featherstone/btMultiBodyLinkCollider.h>
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
    std::vector<btRigidBody*> bodies;  // one per scene body (static ones too); btMultiBody: the static ones, else null
    std::vector<btTypedConstraint*> joints;
    std::vector<btJointFeedback> feedback;
    // btMultiBody: slot first[t] + 1 + l is link l of multibody t (l = -1: its base), its scene body slotBody (-1: a
    // fixed base); slotState its state, from the link frames after the last step once synced
    std::vector<btMultiBody*> multiBodies;
    std::vector<btMultiBodyLinkCollider*> colliders;
    std::vector<btMultiBodyJointFeedback> linkFeedback;  // per joint
    std::vector<int> first, slotBody, bodyTree, bodySlot;
    std::vector<fcbState> slotState;
    bool synced = false;
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

// The btMultiBody setting: the world's bodies as trees of links (see the file's head); the scene must be a forest
// (fcbTree_Refuse). The links start at joint coordinates 0, which is the scene's pose by construction.
void* MultiBodyCreate(const fcbScene* s, char* err, size_t errSize)
{
    fcbTree tree;
    if (fcbTree_Build(s, &tree, err, errSize)) return nullptr;
    BulletWorld* w = new BulletWorld;
    w->scene = s;
    w->config = new btDefaultCollisionConfiguration();
    w->dispatcher = new btCollisionDispatcher(w->config);
    w->broadphase = new btDbvtBroadphase();
    btMultiBodyConstraintSolver* solver = new btMultiBodyConstraintSolver();
    w->solver = solver;
    btMultiBodyDynamicsWorld* world = new btMultiBodyDynamicsWorld(w->dispatcher, w->broadphase, solver, w->config);
    w->world = world;
    world->setGravity(btVector3(s->gravity[0], s->gravity[1], s->gravity[2]));
    // the reaction in world coordinates, rotated with the link frames of the step's start (solveConstraints' forward
    // kinematics), the state the step's accelerations belong to
    world->getSolverInfo().m_jointFeedbackInWorldSpace = true;
    w->linkFeedback.resize((size_t)s->jointCount);
    w->bodies.assign((size_t)s->bodyCount, nullptr);
    w->bodyTree.assign((size_t)s->bodyCount, -1);
    w->bodySlot.assign((size_t)s->bodyCount, -1);
    bool ok = true;
    for (int i = 0; i < s->bodyCount && ok; ++i)
        if (!s->bodies[i].dynamic) ok = (w->bodies[(size_t)i] = AddRigidBody(w, s->bodies[i])) != nullptr;
    for (int k = 0; k < tree.count && ok;) {
        int root = tree.order[k], end = k + 1;
        while (end < tree.count && !fcbTree_IsRoot(s, &tree, tree.order[end])) ++end;
        bool fixed = tree.parentJoint[root] >= 0;  // hangs from the world: the base is the world, every body a link
        const fcbBody& rb = s->bodies[root];
        int t = (int)w->multiBodies.size(), links = end - k - (fixed ? 0 : 1);
        btMultiBody* mb = fixed ? new btMultiBody(links, 0, btVector3(0, 0, 0), true, false)
                                : new btMultiBody(links, rb.mass, V(rb.inertia), false, false);
        w->multiBodies.push_back(mb);
        w->first.push_back((int)w->slotBody.size());
        w->slotBody.push_back(fixed ? -1 : root);
        if (!fixed) {
            mb->setBaseWorldTransform(btTransform(Q(rb.quat), V(rb.pos)));
            w->bodyTree[(size_t)root] = t, w->bodySlot[(size_t)root] = w->first[(size_t)t];
        }
        for (int q = fixed ? k : k + 1, l = 0; q < end; ++q, ++l) {
            int b = tree.order[q];
            const fcbBody& body = s->bodies[b];
            const fcbJoint& jt = s->joints[tree.parentJoint[b]];
            // the parent's frame: the world (the fixed base sits at the origin) or the parent body's
            btQuaternion qa = jt.a < 0 ? btQuaternion::getIdentity() : Q(s->bodies[jt.a].quat), qb = Q(body.quat);
            int parent = jt.a < 0 ? -1 : w->bodySlot[(size_t)jt.a] - w->first[(size_t)t] - 1;
            btQuaternion parentToThis = qb.inverse() * qa;
            if (jt.type == fcb_ball)
                mb->setupSpherical(l, body.mass, V(body.inertia), parent, parentToThis, V(jt.localA), -V(jt.localB), true);
            else
                mb->setupRevolute(l, body.mass, V(body.inertia), parent, parentToThis, quatRotate(qb.inverse(), V(jt.axis)),
                                  V(jt.localA), -V(jt.localB), true);
            mb->getLink(l).m_jointFeedback = &w->linkFeedback[(size_t)tree.parentJoint[b]];
            w->bodyTree[(size_t)b] = t, w->bodySlot[(size_t)b] = (int)w->slotBody.size();
            w->slotBody.push_back(b);
        }
        mb->finalizeMultiDof();
        // the velocities (after finalizeMultiDof, which sizes their buffer): the base's, and each joint's rates from
        // the relative spin (the links' linear velocities follow from the joints)
        if (!fixed) {
            mb->setBaseVel(V(rb.vel));
            mb->setBaseOmega(V(rb.angvel));
        }
        for (int q = fixed ? k : k + 1, l = 0; q < end; ++q, ++l) {
            const fcbBody& body = s->bodies[tree.order[q]];
            const fcbJoint& jt = s->joints[tree.parentJoint[tree.order[q]]];
            btVector3 spin = V(body.angvel) - (jt.a < 0 ? btVector3(0, 0, 0) : V(s->bodies[jt.a].angvel));
            if (jt.type == fcb_ball) {
                btVector3 rate = quatRotate(Q(body.quat).inverse(), spin);  // a spherical joint's: in the link's frame
                mb->setJointVelMultiDof(l, &rate[0]);
            } else {
                mb->setJointVel(l, V(jt.axis).dot(spin));
            }
        }
        mb->setLinearDamping(0);
        mb->setAngularDamping(0);
        mb->setMaxCoordinateVelocity(1e6);
        mb->setHasSelfCollision(true);  // links that are not parent and child collide, as in Fulcrum
        world->addMultiBody(mb);
        for (int q = k; q < end && ok; ++q) {
            int b = tree.order[q], l = w->bodySlot[(size_t)b] - w->first[(size_t)t] - 1;
            const fcbBody& body = s->bodies[b];
            btTransform pose(Q(body.quat), V(body.pos));
            double mu, e;
            int colliding;
            btCollisionShape* shape = BodyShape(w->shapes, body, pose, mu, e, colliding);
            if (!shape) ok = false;
            if (!shape || colliding == 0) continue;  // geometry only: no collider
            btMultiBodyLinkCollider* col = new btMultiBodyLinkCollider(mb, l);
            col->setCollisionShape(shape);
            col->setWorldTransform(pose);
            col->setFriction(std::sqrt(mu));
            col->setRestitution(e);
            col->setActivationState(DISABLE_DEACTIVATION);
            world->addCollisionObject(col, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter);
            if (l < 0)
                mb->setBaseCollider(col);
            else
                mb->getLink(l).m_collider = col;
            w->colliders.push_back(col);
        }
        k = end;
    }
    w->slotState.resize(w->slotBody.size());
    fcbTree_Free(&tree);
    if (!ok) {
        std::snprintf(err, errSize, "a plane on a body with other shapes");
        BulletDestroy(w);
        return nullptr;
    }
    return w;
}

void BulletStep(void* ctx)
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    w->world->stepSimulation(w->scene->dt, 0);
    w->synced = false;
}

void Store(fcbState* out, const btVector3& p, const btQuaternion& q, const btVector3& v, const btVector3& om)
{
    out->pos[0] = p.x(), out->pos[1] = p.y(), out->pos[2] = p.z();
    out->quat[0] = q.w(), out->quat[1] = q.x(), out->quat[2] = q.y(), out->quat[3] = q.z();
    out->vel[0] = v.x(), out->vel[1] = v.y(), out->vel[2] = v.z();
    out->angvel[0] = om.x(), out->angvel[1] = om.y(), out->angvel[2] = om.z();
}

// The multibodies' link poses and velocities in world, from their joint coordinates: forwardKinematics and
// compTreeLinkVelocities (link frames), once per step and outside the timed step. O(links); a link's own
// localPosToWorld walks up to the base, O(depth) a link.
void MultiBodySync(BulletWorld* w)
{
    if (w->synced) return;
    btAlignedObjectArray<btQuaternion> worldToLocal;
    btAlignedObjectArray<btVector3> origin, omega, vel;
    for (size_t t = 0; t < w->multiBodies.size(); ++t) {
        btMultiBody* mb = w->multiBodies[t];
        int n = mb->getNumLinks();
        mb->forwardKinematics(worldToLocal, origin);
        omega.resize(n + 1);
        vel.resize(n + 1);
        mb->compTreeLinkVelocities(&omega[0], &vel[0]);  // each in its link's frame
        for (int k = 0; k <= n; ++k) {
            btQuaternion q = worldToLocal[k].inverse();
            Store(&w->slotState[(size_t)(w->first[t] + k)], origin[k], q, quatRotate(q, vel[k]), quatRotate(q, omega[k]));
        }
    }
    w->synced = true;
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
    if (!w->multiBodies.empty()) {
        MultiBodySync(w);
        *out = w->slotState[(size_t)w->bodySlot[(size_t)i]];
        return;
    }
    const btRigidBody* rb = w->bodies[(size_t)i];
    const btTransform& t = rb->getCenterOfMassTransform();
    Store(out, t.getOrigin(), t.getRotation(), rb->getLinearVelocity(), rb->getAngularVelocity());
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
        if (!b) continue;
        w->world->removeRigidBody(b);
        delete b;
    }
    for (btMultiBodyLinkCollider* c : w->colliders) {
        w->world->removeCollisionObject(c);
        delete c;
    }
    for (btMultiBody* mb : w->multiBodies) {
        static_cast<btMultiBodyDynamicsWorld*>(w->world)->removeMultiBody(mb);
        delete mb;
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
    for (const btMultiBody* mb : w->multiBodies) {
        if (!mb->hasFixedBase()) ++*bodies, *mass += mb->getBaseMass();
        for (int l = 0; l < mb->getNumLinks(); ++l) ++*bodies, *mass += mb->getLinkMass(l);
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

bool MultiBodyJointForce(void* ctx, int j, double f[3])
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    const btVector3& a = w->linkFeedback[(size_t)j].m_reactionForces.getLinear();  // on the link: the scene's body_b
    f[0] = a.x(), f[1] = a.y(), f[2] = a.z();
    return true;
}

// From the engine's own link model: the pivot is m_eVector in the parent's frame (the fixed base: the world) and
// -m_dVector in the link's, each placed with the link frames of MultiBodySync
bool MultiBodyJointAnchors(void* ctx, int j, double pa[3], double pb[3])
{
    BulletWorld* w = static_cast<BulletWorld*>(ctx);
    MultiBodySync(w);
    int b = w->scene->joints[j].b, t = w->bodyTree[(size_t)b];
    if (t < 0) return false;
    const btMultiBody* mb = w->multiBodies[(size_t)t];
    int slot = w->bodySlot[(size_t)b], l = slot - w->first[(size_t)t] - 1;
    const btMultibodyLink& link = mb->getLink(l);
    const fcbState& child = w->slotState[(size_t)slot];
    const fcbState& parent = w->slotState[(size_t)(w->first[(size_t)t] + 1 + link.m_parent)];
    btVector3 a = btTransform(Q(parent.quat), V(parent.pos)) * link.m_eVector;
    btVector3 c = btTransform(Q(child.quat), V(child.pos)) * -link.m_dVector;
    pa[0] = a.x(), pa[1] = a.y(), pa[2] = a.z();
    pb[0] = c.x(), pb[1] = c.y(), pb[2] = c.z();
    return true;
}

const fcbAdapter fcbBulletAdapters[] = {
    {"bullet", "SI10",
     "Bullet 3.24 (double) btDiscreteDynamicsWorld + btSequentialImpulseConstraintSolver defaults: 10 iterations, "
     "ERP 0.2, split impulse, warm starting 0.85, btDbvtBroadphase, margin 0.04, deactivation disabled, friction "
     "sqrt(mu) per body; btPoint2PointConstraint (tau 0.3)",
     nullptr, BulletCreate, BulletStep, BulletGetState, BulletJointForce, BulletPenetration, BulletDestroy,
     BulletReadBack, BulletJointAnchors},
    {"bullet", "btMultiBody",
     "Bullet 3.24 (double) btMultiBodyDynamicsWorld + btMultiBodyConstraintSolver (solver defaults as SI10): each tree "
     "of the joints one btMultiBody (fixed base when it hangs from the world, else the root floating), setupSpherical "
     "/ setupRevolute links, damping 0, max coordinate velocity 1e6, btMultiBodyLinkCollider shapes; joint force "
     "btMultiBodyJointFeedback (3.24 reports 5/3 of a pendulum's tension, a Bullet bug); forests only",
     fcbTree_Refuse, MultiBodyCreate, BulletStep, BulletGetState, MultiBodyJointForce, BulletPenetration,
     BulletDestroy, BulletReadBack, MultiBodyJointAnchors},
};

}  // namespace

extern "C" int fcbBullet_Adapters(const fcbAdapter** out)
{
    *out = fcbBulletAdapters;
    return (int)(sizeof fcbBulletAdapters / sizeof fcbBulletAdapters[0]);
}
