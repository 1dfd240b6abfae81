// SPDX-License-Identifier: MIT
// The velocity solve of the bilateral rows: factor A = J M^-1 J^T + C once, solve
// A lambda = -(J v* + rate + bias) exactly, and apply the impulses: v+ = v* + M^-1 J^T lambda.
#include "solver.h"

void fcSolve_Velocities(fcWorld* world)
{
    fcRowStore* r = &world->rows;
    if (r->count == 0) return;
    fcRows_ComputeW(world);
    fcRows_AssembleA(world, false);
    double t0 = fcNowMs();
    world->stats.redundantRows = fcLdlt_Factor(&world->ldlt, r->avalues, world->def.pivotTolerance);
    double t1 = fcNowMs();
    for (int i = 0; i < r->count; ++i) {
        int sides[2] = {r->bodyA[i], r->bodyB[i]};
        // J v*: the velocity the row would have without its impulse
        fcReal jv = 0;
        for (int s = 0; s < 2; ++s) {
            if (sides[s] < 0) continue;
            const fcBody* b = world->bodies + sides[s];
            const fcReal* j = r->J[i] + 6 * s;
            jv += j[0] * b->linearVelocity.x + j[1] * b->linearVelocity.y + j[2] * b->linearVelocity.z +
                  j[3] * b->angularVelocity.x + j[4] * b->angularVelocity.y + j[5] * b->angularVelocity.z;
        }
        r->lambda[i] = -(jv + r->rate[i] + fcStabilize_Bias(world, i));
    }
    fcLdlt_Solve(&world->ldlt, r->lambda);
    fcRows_ApplyImpulses(world, r->lambda, 1, false);
    world->stats.profile.factor += t1 - t0;
    world->stats.profile.solve += fcNowMs() - t1;
}
