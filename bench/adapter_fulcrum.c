// SPDX-License-Identifier: MIT
// fulcrum-bench: the Fulcrum adapter. Every run loads the scene's JSON again (fcScene_LoadString) for a fresh
// world, with the engine's defaults except the step (the scene's, or --dt).
#include "adapter.h"
#include "scene.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct fcbFulcrum {
    fcScene scene;
} fcbFulcrum;

static void* FulcrumCreate(const fcbScene* s, char* err, size_t errSize)
{
    fcbFulcrum* f = calloc(1, sizeof *f);
    if (!f) return NULL;
    if (!fcScene_LoadString(s->json, s->name, &f->scene, err, errSize)) {
        free(f);
        return NULL;
    }
    if (!fcWorld_SetWorkerCount(f->scene.world, s->threads > 1 ? s->threads : 1)) {
        snprintf(err, errSize, "fcWorld_SetWorkerCount: %s", fcGetLastError());
        fcScene_Free(&f->scene);
        free(f);
        return NULL;
    }
    if (!fcWorld_SetTimestep(f->scene.world, s->dt)) {
        snprintf(err, errSize, "fcWorld_SetTimestep: %s", fcGetLastError());
        fcScene_Free(&f->scene);
        free(f);
        return NULL;
    }
    return f;
}

static void FulcrumStep(void* ctx)
{
    fcbFulcrum* f = ctx;
    fcWorld_Step(f->scene.world);
}

static void FulcrumGetState(void* ctx, int i, fcbState* out)
{
    fcbFulcrum* f = ctx;
    fcBodyId b = f->scene.bodies[i];
    fcVec3 p = fcBody_GetPosition(b), v = fcBody_GetLinearVelocity(b), w = fcBody_GetAngularVelocity(b);
    fcQuat q = fcBody_GetOrientation(b);
    out->pos[0] = p.x, out->pos[1] = p.y, out->pos[2] = p.z;
    out->quat[0] = q.w, out->quat[1] = q.x, out->quat[2] = q.y, out->quat[3] = q.z;
    out->vel[0] = v.x, out->vel[1] = v.y, out->vel[2] = v.z;
    out->angvel[0] = w.x, out->angvel[1] = w.y, out->angvel[2] = w.z;
}

static bool FulcrumJointForce(void* ctx, int j, double force[3])
{
    fcbFulcrum* f = ctx;
    fcJointReaction r = fcJoint_GetReaction(f->scene.joints[j]);
    force[0] = r.force.x, force[1] = r.force.y, force[2] = r.force.z;
    return true;
}

// the contact points of the step, with their separation at the start of the step (as the peers report it)
static double FulcrumPenetration(void* ctx, int* points)
{
    fcbFulcrum* f = ctx;
    int n = fcWorld_GetContactCount(f->scene.world);
    double pen = 0;
    int count = 0;
    for (int i = 0; i < n; ++i) {
        fcContactData c = fcWorld_GetContact(f->scene.world, i);
        for (int k = 0; k < c.pointCount; ++k) {
            ++count;
            if (-c.points[k].separation > pen) pen = -c.points[k].separation;
        }
    }
    *points = count;
    return pen;
}

static void FulcrumDestroy(void* ctx)
{
    fcbFulcrum* f = ctx;
    fcScene_Free(&f->scene);
    free(f);
}

static void FulcrumReadBack(void* ctx, int* bodies, double* mass)
{
    fcbFulcrum* f = ctx;
    *bodies = 0;
    *mass = 0;
    for (int i = 0; i < f->scene.bodyCount; ++i) {
        if (fcBody_GetType(f->scene.bodies[i]) != fc_dynamicBody) continue;
        ++*bodies;
        *mass += fcBody_GetMass(f->scene.bodies[i]);
    }
}

static bool FulcrumJointAnchors(void* ctx, int j, double pa[3], double pb[3])
{
    fcbFulcrum* f = ctx;
    if (j < 0 || j >= f->scene.jointCount) return false;
    fcVec3 a = fcJoint_GetAnchorA(f->scene.joints[j]), b = fcJoint_GetAnchorB(f->scene.joints[j]);
    pa[0] = a.x, pa[1] = a.y, pa[2] = a.z;
    pb[0] = b.x, pb[1] = b.y, pb[2] = b.z;
    return true;
}

static const fcbAdapter fcbFulcrumAdapters[] = {
    {"fulcrum", "default",
     "Fulcrum defaults: exact joint solve (sparse LDL^T) with post-step projection (tolerance 1e-10 m, 20 "
     "iterations), the joints' geometric stiffness taken implicitly (trapezoidal); contacts: at least 2 "
     "substeps of 8 projected Gauss-Seidel sweeps (more while unsettled), Coulomb friction by manifold (force and twist within an ellipsoid), 4 position sweeps, slop 5 mm, "
     "speculative margin 2 cm; sleeping off (scene key)",
     NULL, FulcrumCreate, FulcrumStep, FulcrumGetState, FulcrumJointForce, FulcrumPenetration, FulcrumDestroy,
     FulcrumReadBack, FulcrumJointAnchors},
};

int fcbFulcrum_Adapters(const fcbAdapter** out)
{
    *out = fcbFulcrumAdapters;
    return (int)(sizeof fcbFulcrumAdapters / sizeof fcbFulcrumAdapters[0]);
}
