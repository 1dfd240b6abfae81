// SPDX-License-Identifier: MIT
// The contact problem at velocity level: per manifold point a normal row 0 <= lambda_n _|_ (J v - bias) >= 0
// (bias lets a speculative point close its gap within the step, or asks for the bounce of restitution) and
// two friction rows |lambda_t| <= mu lambda_n, swept by projected Gauss-Seidel with warm starting. The joints'
// rows are solved exactly between the sweeps (solve.c). Then a position-level pass pushes overlaps deeper
// than the slop back out, moving positions only, so that no velocity (no energy) comes from it and lambda
// stays the physical impulse.
#include "solver.h"

#include <math.h>
#include <string.h>

static fcVec3 fcSolve_PointVelocity(const fcBody* b, fcVec3 r)
{
    return fcVec3_Add(b->linearVelocity, fcVec3_Cross(b->angularVelocity, r));
}

// 1 / (J M^-1 J^T) of a row along direction d at lever arms rA, rB
static fcReal fcContacts_RowMass(const fcBody* a, const fcBody* b, fcVec3 rA, fcVec3 rB, fcVec3 d)
{
    fcReal k = 0;
    if (a->type == fc_dynamicBody) {
        fcVec3 rn = fcVec3_Cross(rA, d);
        k += a->invMass + fcVec3_Dot(rn, fcMat33_MulV(a->invInertiaWorld, rn));
    }
    if (b->type == fc_dynamicBody) {
        fcVec3 rn = fcVec3_Cross(rB, d);
        k += b->invMass + fcVec3_Dot(rn, fcMat33_MulV(b->invInertiaWorld, rn));
    }
    return k > 0 ? 1 / k : 0;
}




// the separation of a point now, from where its two anchors have moved since the collide stage
static fcReal fcContacts_CurrentSeparation(const fcBody* a, const fcBody* b, const fcContactManifold* m,
                                           const fcContactPoint* p, fcVec3* rA, fcVec3* rB)
{
    *rA = fcQuat_Rotate(a->orientation, p->localA);
    *rB = fcQuat_Rotate(b->orientation, p->localB);
    fcVec3 d = fcVec3_Sub(fcVec3_Add(b->position, *rB), fcVec3_Add(a->position, *rA));
    return p->separation + fcVec3_Dot(m->normal, d);
}

bool fcContacts_HasRows(const fcWorld* world) { return world->contacts.enabledCount > 0; }

void fcContacts_BeginStep(fcWorld* world)
{
    for (int t = 0; t < world->contacts.touchingCount; ++t) {
        fcContact* c = world->contacts.contacts + world->contacts.touching[t];
        if (!c->enabled) continue;
        for (int m = 0; m < c->manifoldCount; ++m)
            for (int i = 0; i < c->manifolds[m].pointCount; ++i) {
                fcContactPoint* p = c->manifolds[m].points + i;
                p->totalNormalImpulse = p->totalTangentImpulse[0] = p->totalTangentImpulse[1] = 0;
            }
    }
    world->stats.maxPenetration = 0;
    world->stats.contactIterations = 0;
    world->stats.complementarityResidual = 0;
    world->stats.frictionResidual = 0;
}

#define FC_FOR_EACH_MANIFOLD(world, c, m)                                                                  \
    for (int t_ = 0; t_ < (world)->contacts.touchingCount; ++t_)                                            \
        for (fcContact* c = (world)->contacts.contacts + (world)->contacts.touching[t_]; c != NULL; c = NULL) \
            if (c->enabled)                                                                                 \
                for (fcContactManifold* m = c->manifolds; m < c->manifolds + c->manifoldCount; ++m)

static int fcContacts_SolverBody(fcWorld* world, int body)
{
    fcContactSet* set = &world->contacts;
    const fcBody* b = world->bodies + body;
    if (b->type == fc_staticBody) return 0;
    if (set->solverBodyOf[body] >= 0) return set->solverBodyOf[body];
    if (set->solverBodyCount == set->solverBodyCapacity) {
        set->solverBodyCapacity = 2 * set->solverBodyCapacity + 16;
        set->solverBodies = fcRealloc(set->solverBodies, sizeof(fcSolverBody) * (size_t)set->solverBodyCapacity);
    }
    fcSolverBody* sb = set->solverBodies + set->solverBodyCount;
    sb->v = b->linearVelocity;
    sb->w = b->angularVelocity;
    bool dynamic = b->type == fc_dynamicBody;
    sb->invMass = dynamic ? b->invMass : 0;
    sb->invInertia = dynamic ? b->invInertiaWorld : fcMat33_Zero();
    sb->body = body;
    set->solverBodyOf[body] = set->solverBodyCount;
    return set->solverBodyCount++;
}

static void fcContacts_Row(const fcSolverBody* a, const fcSolverBody* b, fcVec3 rA, fcVec3 rB, fcVec3 d, fcSolverRow* row)
{
    row->angA = fcVec3_Cross(rA, d);
    row->angB = fcVec3_Cross(rB, d);
    row->iangA = fcMat33_MulV(a->invInertia, row->angA);
    row->iangB = fcMat33_MulV(b->invInertia, row->angB);
    fcReal k = a->invMass + b->invMass + fcVec3_Dot(row->angA, row->iangA) + fcVec3_Dot(row->angB, row->iangB);
    row->mass = k > 0 ? 1 / k : 0;
}

// J v of a row along d: d . (v_b - v_a) + (r_b x d) . w_b - (r_a x d) . w_a
static inline fcReal fcContacts_RowVelocity(const fcSolverBody* a, const fcSolverBody* b, fcVec3 d, const fcSolverRow* row)
{
    return fcVec3_Dot(d, fcVec3_Sub(b->v, a->v)) + fcVec3_Dot(row->angB, b->w) - fcVec3_Dot(row->angA, a->w);
}

static inline void fcContacts_RowApply(fcSolverBody* a, fcSolverBody* b, fcVec3 d, const fcSolverRow* row, fcReal impulse)
{
    a->v = fcVec3_MulAdd(a->v, -impulse * a->invMass, d);
    a->w = fcVec3_MulAdd(a->w, -impulse, row->iangA);
    b->v = fcVec3_MulAdd(b->v, impulse * b->invMass, d);
    b->w = fcVec3_MulAdd(b->w, impulse, row->iangB);
}

void fcContacts_Prepare(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    fcReal h = world->h;
    fcReal threshold = world->def.restitutionThreshold;
    if (set->solverMapCapacity < world->bodyHigh) {
        set->solverMapCapacity = world->bodyHigh;
        set->solverBodyOf = fcRealloc(set->solverBodyOf, sizeof(int) * (size_t)set->solverMapCapacity);
    }
    for (int k = 0; k < world->bodyHigh; ++k) set->solverBodyOf[k] = -1;
    if (set->solverBodyCapacity == 0) {
        set->solverBodyCapacity = 64;
        set->solverBodies = fcAlloc(sizeof(fcSolverBody) * (size_t)set->solverBodyCapacity);
    }
    // solver body 0: the world at rest, shared by every static body
    memset(set->solverBodies, 0, sizeof(fcSolverBody));
    set->solverBodies[0].body = -1;
    set->solverBodyCount = 1;
    set->solverManifoldCount = 0;
    int points = 0;
    FC_FOR_EACH_MANIFOLD(world, c, m)
    {
        if (m->pointCount == 0) continue;
        fcBody* a = world->bodies + c->bodyA;
        fcBody* b = world->bodies + c->bodyB;
        if (set->solverManifoldCount == set->solverManifoldCapacity) {
            set->solverManifoldCapacity = 2 * set->solverManifoldCapacity + 64;
            set->solverManifolds = fcRealloc(set->solverManifolds, sizeof(fcSolverManifold) * (size_t)set->solverManifoldCapacity);
        }
        fcSolverManifold* sm = set->solverManifolds + set->solverManifoldCount++;
        sm->a = fcContacts_SolverBody(world, c->bodyA);
        sm->b = fcContacts_SolverBody(world, c->bodyB);
        const fcSolverBody* sa = set->solverBodies + sm->a;
        const fcSolverBody* sb = set->solverBodies + sm->b;
        sm->normal = m->normal;
        sm->tangent[0] = m->tangent[0];
        sm->tangent[1] = m->tangent[1];
        sm->friction = c->friction;
        sm->rolling = c->rollingFriction;
        sm->torsion = c->torsionalFriction;
        sm->count = m->pointCount;
        sm->manifold = m;
        fcVec3 dirs[3] = {m->tangent[0], m->tangent[1], m->normal};
        for (int k = 0; k < 3; ++k) {
            sm->spinA[k] = fcMat33_MulV(sa->invInertia, dirs[k]);
            sm->spinB[k] = fcMat33_MulV(sb->invInertia, dirs[k]);
            fcReal kk = fcVec3_Dot(dirs[k], sm->spinA[k]) + fcVec3_Dot(dirs[k], sm->spinB[k]);
            sm->spinMass[k] = kk > 0 ? 1 / kk : 0;
        }
        for (int i = 0; i < m->pointCount; ++i) {
            fcContactPoint* p = m->points + i;
            fcSolverPoint* sp = sm->points + i;
            sp->point = p;
            // the separation follows the anchors as the bodies turn; the rows keep the lever arms of the
            // collide stage (world frame): a rolling ball's contact stays at its bottom, not on the material
            // point that was there
            fcVec3 rA, rB;
            fcReal s = fcContacts_CurrentSeparation(a, b, m, p, &rA, &rB);
            p->substepSeparation = s;
            fcContacts_Row(sa, sb, p->rA, p->rB, m->normal, &sp->n);
            fcContacts_Row(sa, sb, p->rA, p->rB, m->tangent[0], &sp->t[0]);
            fcContacts_Row(sa, sb, p->rA, p->rB, m->tangent[1], &sp->t[1]);
            p->normalMass = sp->n.mass;
            p->tangentMass[0] = sp->t[0].mass;
            p->tangentMass[1] = sp->t[1].mass;
            p->approachSpeed = fcContacts_RowVelocity(sa, sb, m->normal, &sp->n);
            // speculative: a gap may close within the step, no further; an overlap is left to the position pass
            p->bias = s > 0 ? -s / h : 0;
            p->bounced = false;
            if (c->restitution > 0 && p->approachSpeed < -threshold && s + p->approachSpeed * h < 0) {
                p->bias = -c->restitution * p->approachSpeed;
                p->bounced = true;
            }
            sp->bias = p->bias;
            points += 1;
        }
    }
    world->stats.contactPoints = points;
}

void fcContacts_StoreVelocities(fcWorld* world)
{
    const fcContactSet* set = &world->contacts;
    for (int k = 1; k < set->solverBodyCount; ++k) {
        const fcSolverBody* sb = set->solverBodies + k;
        fcBody* b = world->bodies + sb->body;
        if (b->type != fc_dynamicBody) continue;
        b->linearVelocity = sb->v;
        b->angularVelocity = sb->w;
    }
}

void fcContacts_LoadVelocities(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    for (int k = 1; k < set->solverBodyCount; ++k) {
        fcSolverBody* sb = set->solverBodies + k;
        const fcBody* b = world->bodies + sb->body;
        sb->v = b->linearVelocity;
        sb->w = b->angularVelocity;
    }
}

void fcContacts_WarmStart(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    for (int k = 0; k < set->solverManifoldCount; ++k) {
        fcSolverManifold* sm = set->solverManifolds + k;
        fcSolverBody* a = set->solverBodies + sm->a;
        fcSolverBody* b = set->solverBodies + sm->b;
        for (int i = 0; i < sm->count; ++i) {
            fcSolverPoint* sp = sm->points + i;
            const fcContactPoint* p = sp->point;
            fcContacts_RowApply(a, b, sm->normal, &sp->n, p->normalImpulse);
            fcContacts_RowApply(a, b, sm->tangent[0], &sp->t[0], p->tangentImpulse[0]);
            fcContacts_RowApply(a, b, sm->tangent[1], &sp->t[1], p->tangentImpulse[1]);
        }
        const fcContactManifold* m = sm->manifold;
        fcReal spins[3] = {m->rollingImpulse[0], m->rollingImpulse[1], m->twistImpulse};
        for (int d = 0; d < 3; ++d) {
            a->w = fcVec3_MulAdd(a->w, -spins[d], sm->spinA[d]);
            b->w = fcVec3_MulAdd(b->w, spins[d], sm->spinB[d]);
        }
    }
}

// One manifold's rows: normal rows first, so that the friction bound is the new lambda_n, then rolling and
// spinning resistance, then friction. Points in the given order (reversed on alternate sweeps).
static fcReal fcContacts_SolveManifold(fcSolverManifold* sm, fcSolverBody* a, fcSolverBody* b, bool cone, bool reverse)
{
    fcReal largest = 0, totalNormal = 0;
    int n = sm->count;
    for (int k = 0; k < n; ++k) {
        fcSolverPoint* sp = sm->points + (reverse ? n - 1 - k : k);
        fcContactPoint* p = sp->point;
        fcReal vn = fcContacts_RowVelocity(a, b, sm->normal, &sp->n);
        fcReal trial = p->normalImpulse - sp->n.mass * (vn - sp->bias);
        fcReal next = trial > 0 ? trial : 0;
        fcReal delta = next - p->normalImpulse;
        p->trialImpulse = trial;
        p->normalImpulse = next;
        if (delta != 0) fcContacts_RowApply(a, b, sm->normal, &sp->n, delta);
        largest = fmax(largest, FC_FABS(delta));
        totalNormal += next;
    }
    // rolling and spinning resistance: angular rows bounded by an arm times the manifold's normal impulse,
    // before friction, so that the sweep ends with the contact points' sliding settled
    if (sm->rolling > 0 || sm->torsion > 0) {
        fcContactManifold* m = sm->manifold;
        fcVec3 dirs[3] = {sm->tangent[0], sm->tangent[1], sm->normal};
        fcReal* imps[3] = {&m->rollingImpulse[0], &m->rollingImpulse[1], &m->twistImpulse};
        fcReal arms[3] = {sm->rolling, sm->rolling, sm->torsion};
        for (int d = 0; d < 3; ++d) {
            if (arms[d] <= 0) continue;
            fcReal bound = arms[d] * totalNormal;
            fcReal w = fcVec3_Dot(fcVec3_Sub(b->w, a->w), dirs[d]);
            fcReal next = *imps[d] - sm->spinMass[d] * w;
            next = next > bound ? bound : (next < -bound ? -bound : next);
            fcReal delta = next - *imps[d];
            *imps[d] = next;
            a->w = fcVec3_MulAdd(a->w, -delta, sm->spinA[d]);
            b->w = fcVec3_MulAdd(b->w, delta, sm->spinB[d]);
        }
    }
    for (int k = 0; k < n; ++k) {
        fcSolverPoint* sp = sm->points + (reverse ? n - 1 - k : k);
        fcContactPoint* p = sp->point;
        fcReal bound = sm->friction * p->normalImpulse;
        fcReal old[2] = {p->tangentImpulse[0], p->tangentImpulse[1]};
        fcReal next[2];
        for (int t = 0; t < 2; ++t) {
            fcReal vt = fcContacts_RowVelocity(a, b, sm->tangent[t], &sp->t[t]);
            next[t] = old[t] - sp->t[t].mass * vt;
            if (!cone) next[t] = next[t] > bound ? bound : (next[t] < -bound ? -bound : next[t]);
        }
        if (cone) {
            fcReal len = FC_SQRT(next[0] * next[0] + next[1] * next[1]);
            if (len > bound && len > 0) next[0] *= bound / len, next[1] *= bound / len;
        }
        for (int t = 0; t < 2; ++t) {
            fcReal delta = next[t] - old[t];
            p->tangentImpulse[t] = next[t];
            if (delta != 0) fcContacts_RowApply(a, b, sm->tangent[t], &sp->t[t], delta);
            largest = fmax(largest, FC_FABS(delta));
        }
    }
    return largest;
}

// One projected Gauss-Seidel sweep over every manifold; alternate sweeps run backwards (symmetric
// Gauss-Seidel), so that no point and no contact is always first: a one-way order tilts a resting stack.
fcReal fcContacts_Sweep(fcWorld* world, int sweep)
{
    fcContactSet* set = &world->contacts;
    fcReal largest = 0;
    bool reverse = (sweep & 1) != 0, cone = world->def.frictionCone;
    int n = set->solverManifoldCount;
    for (int k = 0; k < n; ++k) {
        fcSolverManifold* sm = set->solverManifolds + (reverse ? n - 1 - k : k);
        fcReal change = fcContacts_SolveManifold(sm, set->solverBodies + sm->a, set->solverBodies + sm->b, cone, reverse);
        largest = fmax(largest, change);
    }
    return largest;
}

// after the sweeps of a (sub)step: accumulate the step's totals and measure the residuals
void fcContacts_Finish(fcWorld* world)
{
    fcReal residual = 0, frictionExcess = 0;
    FC_FOR_EACH_MANIFOLD(world, c, m)
    {
        fcBody* a = world->bodies + c->bodyA;
        fcBody* b = world->bodies + c->bodyB;
        for (int i = 0; i < m->pointCount; ++i) {
            fcContactPoint* p = m->points + i;
            p->totalNormalImpulse += p->normalImpulse;
            p->totalTangentImpulse[0] += p->tangentImpulse[0];
            p->totalTangentImpulse[1] += p->tangentImpulse[1];
            fcVec3 dv = fcVec3_Sub(fcSolve_PointVelocity(b, p->rB), fcSolve_PointVelocity(a, p->rA));
            fcReal gap = fcVec3_Dot(dv, m->normal) - p->bias;
            fcReal k = p->normalMass > 0 ? 1 / p->normalMass : 0;
            fcReal r = (fcReal)fabs(fmin(p->normalImpulse * k, gap));
            residual = fmax(residual, r);
            fcReal bound = c->friction * p->normalImpulse;
            fcReal t = FC_SQRT(p->tangentImpulse[0] * p->tangentImpulse[0] + p->tangentImpulse[1] * p->tangentImpulse[1]);
            fcReal limit = world->def.frictionCone ? bound : bound * FC_SQRT(2);
            frictionExcess = fmax(frictionExcess, t - limit);
        }
    }
    world->stats.complementarityResidual = fmax(world->stats.complementarityResidual, residual);
    world->stats.frictionResidual = fmax(world->stats.frictionResidual, frictionExcess > 0 ? frictionExcess : 0);
}

// After the whole step: what the contacts did over it. A contact that carried load in the last step and none
// in this one, and wanted to pull, let go (dated by interpolating lambda between the two steps); a contact
// whose friction is at mu lambda_n while its points slide slips.
void fcContacts_EndStep(fcWorld* world)
{
    fcReal h = world->stepH;
    int substeps = world->substeps > 0 ? world->substeps : 1;
    FC_FOR_EACH_MANIFOLD(world, c, m)
    {
        fcBody* a = world->bodies + c->bodyA;
        fcBody* b = world->bodies + c->bodyB;
        fcReal before = 0, trial = 0, now = 0;
        bool slipNow = false, slipBefore = false;
        for (int i = 0; i < m->pointCount; ++i) {
            fcContactPoint* p = m->points + i;
            fcReal bound = c->friction * p->totalNormalImpulse;
            fcReal t = FC_SQRT(p->totalTangentImpulse[0] * p->totalTangentImpulse[0] + p->totalTangentImpulse[1] * p->totalTangentImpulse[1]);
            fcVec3 dv = fcVec3_Sub(fcSolve_PointVelocity(b, p->rB), fcSolve_PointVelocity(a, p->rA));
            fcReal vn = fcVec3_Dot(dv, m->normal);
            fcReal vt = FC_SQRT(fmax(0.0, fcVec3_Dot(dv, dv) - vn * vn));
            fcReal tMax = fmax(FC_FABS(p->totalTangentImpulse[0]), FC_FABS(p->totalTangentImpulse[1]));
            bool atBound = world->def.frictionCone ? t >= bound * (1 - 1e-6) : tMax >= bound * (1 - 1e-6);
            // a frictionless contact always slides: no stick or slip to report
            p->slipping = c->friction > 0 && p->totalNormalImpulse > 0 && atBound && vt > 1e-4;
            slipNow = slipNow || p->slipping;
            slipBefore = slipBefore || p->wasSlipping;
            p->wasSlipping = p->slipping;
            before += p->lastNormalImpulse;
            trial += p->trialImpulse * substeps;  // the last substep's wish, over a whole step
            now += p->totalNormalImpulse;
        }
        if (slipNow != slipBefore) fcEvents_Contact(world, slipNow ? fc_eventStickToSlip : fc_eventSlipToStick, c, m);
        if (before > 0 && now == 0 && trial < 0) {
            fcReal s = before / (before - trial);
            fcEvents_ContactRelease(world, c, m, world->time - h + s * h);
        }
    }
}

void fcContacts_SolvePositions(fcWorld* world)
{
    const fcReal beta = 0.2, maxCorrection = 0.2;
    fcReal slop = world->def.contactSlop;
    fcReal h = world->h;
    fcReal deepest = 0;
    for (int it = 0; it <= world->def.contactPositionIterations; ++it) {
        bool measure = it == world->def.contactPositionIterations;
        FC_FOR_EACH_MANIFOLD(world, c, m)
        {
            fcBody* a = world->bodies + c->bodyA;
            fcBody* b = world->bodies + c->bodyB;
            for (int i = 0; i < m->pointCount; ++i) {
                fcContactPoint* p = m->points + i;
                fcVec3 rA, rB;
                fcReal s = fcContacts_CurrentSeparation(a, b, m, p, &rA, &rB);
                if (measure) {
                    deepest = fmax(deepest, -s);
                    continue;
                }
                // a bounce that started before the surfaces met: put the body where the bounce would have
                // taken it from the moment of impact (the velocity is already the bounced one)
                fcReal target = -slop;
                fcReal error = s - target;
                if (p->bounced && p->substepSeparation > 0) {
                    fcReal t0 = p->substepSeparation / -p->approachSpeed;  // time to impact inside the substep
                    target = c->restitution * -p->approachSpeed * (h - t0);
                    error = s - target;
                } else if (error >= 0) {
                    continue;
                } else {
                    error = fmax(beta * error, -maxCorrection);
                }
                fcReal mass = fcContacts_RowMass(a, b, rA, rB, m->normal);
                fcVec3 imp = fcVec3_Scale(-error * mass, m->normal);
                if (a->type == fc_dynamicBody) {
                    a->position = fcVec3_MulAdd(a->position, -a->invMass, imp);
                    fcVec3 dq = fcVec3_Neg(fcMat33_MulV(a->invInertiaWorld, fcVec3_Cross(rA, imp)));
                    a->orientation = fcQuat_Renormalize(fcQuat_Mul(fcQuat_FromRotationVector(dq), a->orientation));
                    fcBody_UpdateInverseInertia(a);
                }
                if (b->type == fc_dynamicBody) {
                    b->position = fcVec3_MulAdd(b->position, b->invMass, imp);
                    fcVec3 dq = fcMat33_MulV(b->invInertiaWorld, fcVec3_Cross(rB, imp));
                    b->orientation = fcQuat_Renormalize(fcQuat_Mul(fcQuat_FromRotationVector(dq), b->orientation));
                    fcBody_UpdateInverseInertia(b);
                }
                if (p->bounced) p->bounced = false;  // the bounce's correction is made once
            }
        }
    }
    world->stats.maxPenetration = fmax(world->stats.maxPenetration, deepest);
}
