// SPDX-License-Identifier: MIT
// The contact problem at velocity level: per manifold point a normal row 0 <= lambda_n _|_ (J v - bias) >= 0
// (bias lets a speculative point close its gap within the step, or asks for the bounce of restitution) and
// two friction rows |lambda_t| <= mu lambda_n, swept by projected Gauss-Seidel with warm starting. The joints'
// rows are solved exactly between the sweeps (solve.c). Then a position-level pass pushes overlaps deeper
// than the slop back out, moving positions only, so that no velocity (no energy) comes from it and lambda
// stays the physical impulse.
#include "solver.h"

#include <math.h>

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

// impulse p at the point (on b; -p on a), to the velocities
static void fcContacts_ApplyImpulse(fcBody* a, fcBody* b, fcVec3 rA, fcVec3 rB, fcVec3 p)
{
    if (a->type == fc_dynamicBody) {
        a->linearVelocity = fcVec3_MulAdd(a->linearVelocity, -a->invMass, p);
        a->angularVelocity = fcVec3_Sub(a->angularVelocity, fcMat33_MulV(a->invInertiaWorld, fcVec3_Cross(rA, p)));
    }
    if (b->type == fc_dynamicBody) {
        b->linearVelocity = fcVec3_MulAdd(b->linearVelocity, b->invMass, p);
        b->angularVelocity = fcVec3_Add(b->angularVelocity, fcMat33_MulV(b->invInertiaWorld, fcVec3_Cross(rB, p)));
    }
}

static void fcContacts_ApplyAngular(fcBody* a, fcBody* b, fcVec3 l)
{
    if (a->type == fc_dynamicBody) a->angularVelocity = fcVec3_Sub(a->angularVelocity, fcMat33_MulV(a->invInertiaWorld, l));
    if (b->type == fc_dynamicBody) b->angularVelocity = fcVec3_Add(b->angularVelocity, fcMat33_MulV(b->invInertiaWorld, l));
}

static fcReal fcContacts_AngularMass(const fcBody* a, const fcBody* b, fcVec3 d)
{
    fcReal k = 0;
    if (a->type == fc_dynamicBody) k += fcVec3_Dot(d, fcMat33_MulV(a->invInertiaWorld, d));
    if (b->type == fc_dynamicBody) k += fcVec3_Dot(d, fcMat33_MulV(b->invInertiaWorld, d));
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

void fcContacts_Prepare(fcWorld* world)
{
    fcReal h = world->h;
    fcReal threshold = world->def.restitutionThreshold;
    int points = 0;
    FC_FOR_EACH_MANIFOLD(world, c, m)
    {
        fcBody* a = world->bodies + c->bodyA;
        fcBody* b = world->bodies + c->bodyB;
        for (int i = 0; i < m->pointCount; ++i) {
            fcContactPoint* p = m->points + i;
            fcReal s = fcContacts_CurrentSeparation(a, b, m, p, &p->rA, &p->rB);
            p->substepSeparation = s;
            p->normalMass = fcContacts_RowMass(a, b, p->rA, p->rB, m->normal);
            p->tangentMass[0] = fcContacts_RowMass(a, b, p->rA, p->rB, m->tangent[0]);
            p->tangentMass[1] = fcContacts_RowMass(a, b, p->rA, p->rB, m->tangent[1]);
            fcVec3 dv = fcVec3_Sub(fcSolve_PointVelocity(b, p->rB), fcSolve_PointVelocity(a, p->rA));
            p->approachSpeed = fcVec3_Dot(dv, m->normal);
            // speculative: a gap may close within the step, no further; an overlap is left to the position pass
            p->bias = s > 0 ? -s / h : 0;
            p->bounced = false;
            if (c->restitution > 0 && p->approachSpeed < -threshold && s + p->approachSpeed * h < 0) {
                p->bias = -c->restitution * p->approachSpeed;
                p->bounced = true;
            }
            p->positionImpulse = 0;
            points += 1;
        }
    }
    world->stats.contactPoints = points;
}

void fcContacts_WarmStart(fcWorld* world)
{
    FC_FOR_EACH_MANIFOLD(world, c, m)
    {
        fcBody* a = world->bodies + c->bodyA;
        fcBody* b = world->bodies + c->bodyB;
        for (int i = 0; i < m->pointCount; ++i) {
            fcContactPoint* p = m->points + i;
            fcVec3 imp = fcVec3_Scale(p->normalImpulse, m->normal);
            imp = fcVec3_MulAdd(imp, p->tangentImpulse[0], m->tangent[0]);
            imp = fcVec3_MulAdd(imp, p->tangentImpulse[1], m->tangent[1]);
            fcContacts_ApplyImpulse(a, b, p->rA, p->rB, imp);
        }
        fcVec3 l = fcVec3_Scale(m->twistImpulse, m->normal);
        l = fcVec3_MulAdd(l, m->rollingImpulse[0], m->tangent[0]);
        l = fcVec3_MulAdd(l, m->rollingImpulse[1], m->tangent[1]);
        fcContacts_ApplyAngular(a, b, l);
    }
}

// One manifold's rows: normal rows first, so that the friction bound is the new lambda_n, then friction,
// then rolling and spinning resistance. Points in the given order (reversed on alternate sweeps).
static fcReal fcContacts_SolveManifold(fcWorld* world, fcContact* c, fcContactManifold* m, bool reverse)
{
    fcReal largest = 0;
    bool cone = world->def.frictionCone;
    {
        fcBody* a = world->bodies + c->bodyA;
        fcBody* b = world->bodies + c->bodyB;
        fcReal totalNormal = 0;
        for (int n = 0; n < m->pointCount; ++n) {
            fcContactPoint* p = m->points + (reverse ? m->pointCount - 1 - n : n);
            fcVec3 dv = fcVec3_Sub(fcSolve_PointVelocity(b, p->rB), fcSolve_PointVelocity(a, p->rA));
            fcReal vn = fcVec3_Dot(dv, m->normal);
            fcReal trial = p->normalImpulse - p->normalMass * (vn - p->bias);
            fcReal next = trial > 0 ? trial : 0;
            fcReal delta = next - p->normalImpulse;
            p->trialImpulse = trial;
            p->normalImpulse = next;
            if (delta != 0) fcContacts_ApplyImpulse(a, b, p->rA, p->rB, fcVec3_Scale(delta, m->normal));
            largest = fmax(largest, FC_FABS(delta));
            totalNormal += next;
        }
        for (int n = 0; n < m->pointCount; ++n) {
            fcContactPoint* p = m->points + (reverse ? m->pointCount - 1 - n : n);
            fcReal bound = c->friction * p->normalImpulse;
            fcVec3 dv = fcVec3_Sub(fcSolve_PointVelocity(b, p->rB), fcSolve_PointVelocity(a, p->rA));
            fcReal old[2] = {p->tangentImpulse[0], p->tangentImpulse[1]};
            for (int k = 0; k < 2; ++k) {
                fcReal vt = fcVec3_Dot(dv, m->tangent[k]);
                fcReal next = p->tangentImpulse[k] - p->tangentMass[k] * vt;
                if (!cone) next = next > bound ? bound : (next < -bound ? -bound : next);
                p->tangentImpulse[k] = next;
            }
            if (cone) {
                fcReal len = FC_SQRT(p->tangentImpulse[0] * p->tangentImpulse[0] + p->tangentImpulse[1] * p->tangentImpulse[1]);
                if (len > bound && len > 0) {
                    p->tangentImpulse[0] *= bound / len;
                    p->tangentImpulse[1] *= bound / len;
                }
            }
            fcReal d0 = p->tangentImpulse[0] - old[0], d1 = p->tangentImpulse[1] - old[1];
            if (d0 != 0 || d1 != 0)
                fcContacts_ApplyImpulse(a, b, p->rA, p->rB, fcVec3_Add(fcVec3_Scale(d0, m->tangent[0]), fcVec3_Scale(d1, m->tangent[1])));
            largest = fmax(largest, fmax(FC_FABS(d0), FC_FABS(d1)));
        }
        // rolling and spinning resistance: angular rows bounded by an arm times the manifold's normal impulse
        if (c->rollingFriction > 0 || c->torsionalFriction > 0) {
            fcVec3 dirs[3] = {m->tangent[0], m->tangent[1], m->normal};
            fcReal* imps[3] = {&m->rollingImpulse[0], &m->rollingImpulse[1], &m->twistImpulse};
            fcReal arms[3] = {c->rollingFriction, c->rollingFriction, c->torsionalFriction};
            for (int k = 0; k < 3; ++k) {
                if (arms[k] <= 0) continue;
                fcReal bound = arms[k] * totalNormal;
                fcReal w = fcVec3_Dot(fcVec3_Sub(b->angularVelocity, a->angularVelocity), dirs[k]);
                fcReal next = *imps[k] - fcContacts_AngularMass(a, b, dirs[k]) * w;
                next = next > bound ? bound : (next < -bound ? -bound : next);
                fcReal delta = next - *imps[k];
                *imps[k] = next;
                if (delta != 0) fcContacts_ApplyAngular(a, b, fcVec3_Scale(delta, dirs[k]));
            }
        }
    }
    return largest;
}

// One projected Gauss-Seidel sweep over every manifold; alternate sweeps run backwards (symmetric
// Gauss-Seidel), so that no point and no contact is always first: a one-way order tilts a resting stack.
fcReal fcContacts_Sweep(fcWorld* world, int sweep)
{
    fcReal largest = 0;
    bool reverse = (sweep & 1) != 0;
    const fcContactSet* set = &world->contacts;
    for (int t = 0; t < set->touchingCount; ++t) {
        fcContact* c = set->contacts + set->touching[reverse ? set->touchingCount - 1 - t : t];
        if (!c->enabled) continue;
        for (int k = 0; k < c->manifoldCount; ++k) {
            fcContactManifold* m = c->manifolds + (reverse ? c->manifoldCount - 1 - k : k);
            largest = fmax(largest, fcContacts_SolveManifold(world, c, m, reverse));
        }
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
            p->slipping = p->totalNormalImpulse > 0 && atBound && vt > 1e-4;
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
                    a->orientation = fcQuat_Normalize(fcQuat_Mul(fcQuat_FromRotationVector(dq), a->orientation));
                    fcBody_UpdateInverseInertia(a);
                }
                if (b->type == fc_dynamicBody) {
                    b->position = fcVec3_MulAdd(b->position, b->invMass, imp);
                    fcVec3 dq = fcMat33_MulV(b->invInertiaWorld, fcVec3_Cross(rB, imp));
                    b->orientation = fcQuat_Normalize(fcQuat_Mul(fcQuat_FromRotationVector(dq), b->orientation));
                    fcBody_UpdateInverseInertia(b);
                }
                if (p->bounced) p->bounced = false;  // the bounce's correction is made once
            }
        }
    }
    world->stats.maxPenetration = fmax(world->stats.maxPenetration, deepest);
}
