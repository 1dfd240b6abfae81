// SPDX-License-Identifier: MIT
// The velocity solve of the bilateral rows: factor A = J M^-1 J^T + C once, solve
// A lambda = -(J v* + rate + bias) exactly, and apply the impulses: v+ = v* + M^-1 J^T lambda.
#include "solver.h"

// J v of row i at the bodies' current velocities
static fcReal fcSolve_RowVelocity(const fcWorld* world, int i)
{
    const fcRowStore* r = &world->rows;
    int sides[2] = {r->bodyA[i], r->bodyB[i]};
    fcReal jv = 0;
    for (int s = 0; s < 2; ++s) {
        if (sides[s] < 0) continue;
        const fcBody* b = world->bodies + sides[s];
        const fcReal* j = r->J[i] + 6 * s;
        jv += j[0] * b->linearVelocity.x + j[1] * b->linearVelocity.y + j[2] * b->linearVelocity.z +
              j[3] * b->angularVelocity.x + j[4] * b->angularVelocity.y + j[5] * b->angularVelocity.z;
    }
    return jv;
}

// factor A (inactive one-sided rows decoupled), solve A lambda = -(J v* + rate + bias), apply the impulses
static void fcSolve_Once(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    fcRows_AssembleA(world, false);
    double t0 = fcNowMs();
    world->stats.redundantRows = fcLdlt_Factor(&world->ldlt, r->avalues, world->def.pivotTolerance);
    double t1 = fcNowMs();
    for (int i = 0; i < r->count; ++i)
        r->lambda[i] = (r->flags[i] & fc_rowInactive) ? 0 : -(fcSolve_RowVelocity(world, i) + r->rate[i] + fcStabilize_Bias(world, i));
    fcLdlt_Solve(&world->ldlt, r->lambda);
    fcRows_ApplyImpulses(world, r->lambda, 1, false);
    world->stats.profile.factor += t1 - t0;
    world->stats.profile.solve += fcNowMs() - t1;
}

void fcSolve_Velocities(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    if (r->count == 0) return;
    fcRows_ComputeW(world);
    fcSolve_Once(world);
    // one-sided rows: the exact complementarity solution by active sets. A row that came out pulling
    // (lambda < 0) lets go; an inactive one that would close its gap within the step (J v + f / h < 0)
    // takes hold; the solve is repeated until the set is stable (each solve is exact)
    for (int round = 0; round < 16; ++round) {
        bool changed = false;
        for (int i = 0; i < r->count; ++i) {
            if (!(r->flags[i] & fc_rowUnilateral)) continue;
            fcJoint* joint = world->joints + r->joint[i];
            if (joint->active && r->lambda[i] < 0) {
                if (joint->lastForce > 0) fcEvents_Release(world, r->joint[i], r->lambda[i]);
                joint->active = false;
                r->flags[i] |= fc_rowInactive;
                changed = true;
            } else if (!joint->active) {
                fcReal approach = fcSolve_RowVelocity(world, i) + r->rate[i];
                if (approach + fcStabilize_Bias(world, i) < -1e-12) {
                    fcEvents_Hold(world, r->joint[i], r->error[i], -approach);
                    joint->active = true;
                    r->flags[i] &= (uint8_t)~fc_rowInactive;
                    changed = true;
                }
            }
        }
        if (!changed) break;
        // take the impulses back (velocities are linear in them) and solve with the new set
        for (int i = 0; i < r->count; ++i) r->lambda[i] = -r->lambda[i];
        fcRows_ApplyImpulses(world, r->lambda, 1, false);
        fcSolve_Once(world);
    }
}
