// SPDX-License-Identifier: MIT
// fulcrum-bench: the MuJoCo adapter (Debian's libmujoco-dev, 2.2.2). The world is written as MJCF: every dynamic
// body a <freejoint> body with an explicit <inertial>, every ball joint a <connect> equality (a hinge: two connects
// on its axis), contacts between joined bodies excluded ("free+connect", maximal coordinates like ODE and
// Bullet). MuJoCo's defaults otherwise: Euler, 100 iterations, tolerance 1e-8, pyramidal cones, condim 3,
// solref (0.02, 1) and solimp (0.9, 0.95, 0.001); friction "mu 0.005 0.0001" per geom. Two settings: the Newton
// and the PGS solver. Joint force: the three efc_force entries of the connect. MuJoCo resets the state when the
// accelerations go bad (mjWARN_BADQACC); the adapter reports that as NaN so the table says where it happened.
#define _POSIX_C_SOURCE 200809L

#include "adapter.h"

#include <mujoco/mujoco.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fcbFatal(const char* message);

typedef struct fcbMujoco {
    const fcbScene* scene;
    mjModel* m;
    mjData* d;
    int* jointEq;  // first equality of each joint; -1 none
    int* jointEqCount;
    bool diverged;
} fcbMujoco;

static void MujocoError(const char* msg)
{
    char text[600];
    snprintf(text, sizeof text, "MuJoCo error: %s", msg);
    for (char* p = text; *p; ++p)
        if (*p == '\n' || *p == '"') *p = ' ';
    fcbFatal(text);
}

static void MujocoWarning(const char* msg) { (void)msg; }

static void Limits(const fcbScene* s, int* nconmax, int* njmax)
{
    int eqRows = 0;
    for (int j = 0; j < s->jointCount; ++j) eqRows += s->joints[j].type == fcb_hinge ? 6 : 3;
    *nconmax = s->collidingBodies > 0 ? 10 * s->collidingBodies + 100 : 0;
    *njmax = eqRows + 4 * *nconmax + 100;  // pyramidal condim 3: 4 rows a contact
}

static const char* MujocoRefuse(const fcbScene* s, char* why, size_t n)
{
    int nconmax, njmax;
    Limits(s, &nconmax, &njmax);
    // mjData holds efc_AR (njmax x njmax doubles) and its column indices (njmax x njmax ints)
    double bytes = 12.0 * njmax * njmax;
    if (bytes > 0.25 * fcbAvailableBytes()) {  // a quarter: the solver needs as much again
        snprintf(why, n, "mjData for njmax = %d rows (nconmax %d) needs ~%.1f GB of dense efc_AR (%.1f GB available)",
                 njmax, nconmax, bytes / 1e9, fcbAvailableBytes() / 1e9);
        return why;
    }
    return NULL;
}

static void InvRotate(const double q[4], const double v[3], double out[3])
{
    double w = q[0], x = -q[1], y = -q[2], z = -q[3];
    double t[3] = {2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])};
    out[0] = v[0] + w * t[0] + (y * t[2] - z * t[1]);
    out[1] = v[1] + w * t[1] + (z * t[0] - x * t[2]);
    out[2] = v[2] + w * t[2] + (x * t[1] - y * t[0]);
}

static void WriteGeoms(FILE* f, const fcbBody* b)
{
    for (int k = 0; k < b->shapeCount; ++k) {
        const fcbShape* sh = &b->shapes[k];
        if (!sh->collides) continue;
        fprintf(f, "      <geom pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\" friction=\"%.17g 0.005 0.0001\" ",
                sh->pos[0], sh->pos[1], sh->pos[2], sh->quat[0], sh->quat[1], sh->quat[2], sh->quat[3], sh->friction);
        switch (sh->type) {
            case fcb_sphere: fprintf(f, "type=\"sphere\" size=\"%.17g\"/>\n", sh->radius); break;
            case fcb_box: fprintf(f, "type=\"box\" size=\"%.17g %.17g %.17g\"/>\n", sh->half[0], sh->half[1], sh->half[2]); break;
            case fcb_capsule: fprintf(f, "type=\"capsule\" size=\"%.17g %.17g\"/>\n", sh->radius, sh->halfHeight); break;
            case fcb_plane: fprintf(f, "type=\"plane\" size=\"100 100 1\"/>\n"); break;
        }
    }
}

static void* MujocoCreate(const fcbScene* s, int solver, char* err, size_t errSize)
{
    mju_user_error = MujocoError;
    mju_user_warning = MujocoWarning;
    char path[] = "/tmp/fulcrum-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errSize, "cannot create a temporary MJCF file");
        return NULL;
    }
    FILE* f = fdopen(fd, "w");
    int nconmax, njmax;
    Limits(s, &nconmax, &njmax);
    fprintf(f, "<mujoco model=\"%s\">\n", s->name);
    fprintf(f, "  <option timestep=\"%.17g\" gravity=\"%.17g %.17g %.17g\" integrator=\"Euler\" solver=\"%s\" "
               "iterations=\"100\" tolerance=\"1e-8\" cone=\"pyramidal\"/>\n",
            s->dt, s->gravity[0], s->gravity[1], s->gravity[2], solver == mjSOL_NEWTON ? "Newton" : "PGS");
    fprintf(f, "  <size njmax=\"%d\" nconmax=\"%d\"/>\n  <worldbody>\n", njmax, nconmax > 0 ? nconmax : 1);
    for (int i = 0; i < s->bodyCount; ++i) {
        const fcbBody* b = &s->bodies[i];
        fprintf(f, "    <body name=\"b%d\" pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\">\n", i, b->pos[0],
                b->pos[1], b->pos[2], b->quat[0], b->quat[1], b->quat[2], b->quat[3]);
        if (b->dynamic)
            fprintf(f, "      <freejoint/>\n      <inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n",
                    b->mass, b->inertia[0], b->inertia[1], b->inertia[2]);
        WriteGeoms(f, b);
        fprintf(f, "    </body>\n");
    }
    fprintf(f, "  </worldbody>\n  <equality>\n");
    for (int j = 0; j < s->jointCount; ++j) {
        const fcbJoint* jt = &s->joints[j];
        const fcbBody* bb = &s->bodies[jt->b];
        char other[32] = "";
        if (jt->a >= 0) snprintf(other, sizeof other, " body2=\"b%d\"", jt->a);
        fprintf(f, "    <connect body1=\"b%d\"%s anchor=\"%.17g %.17g %.17g\"/>\n", jt->b, other, jt->localB[0],
                jt->localB[1], jt->localB[2]);
        if (jt->type == fcb_hinge) {
            double ax[3];
            InvRotate(bb->quat, jt->axis, ax);
            fprintf(f, "    <connect body1=\"b%d\"%s anchor=\"%.17g %.17g %.17g\"/>\n", jt->b, other,
                    jt->localB[0] + 0.1 * ax[0], jt->localB[1] + 0.1 * ax[1], jt->localB[2] + 0.1 * ax[2]);
        }
    }
    fprintf(f, "  </equality>\n  <contact>\n");
    for (int j = 0; j < s->jointCount; ++j)
        if (s->joints[j].a >= 0) fprintf(f, "    <exclude body1=\"b%d\" body2=\"b%d\"/>\n", s->joints[j].a, s->joints[j].b);
    fprintf(f, "  </contact>\n</mujoco>\n");
    fclose(f);
    char msg[1000] = "";
    mjModel* m = mj_loadXML(path, NULL, msg, sizeof msg);
    unlink(path);
    if (!m) {
        snprintf(err, errSize, "mj_loadXML: %s", msg);
        return NULL;
    }
    mjData* d = mj_makeData(m);
    if (!d) {
        snprintf(err, errSize, "mj_makeData failed (njmax %d, nconmax %d)", njmax, nconmax);
        mj_deleteModel(m);
        return NULL;
    }
    fcbMujoco* o = calloc(1, sizeof *o);
    o->scene = s;
    o->m = m;
    o->d = d;
    o->jointEq = calloc((size_t)s->jointCount + 1, sizeof *o->jointEq);
    o->jointEqCount = calloc((size_t)s->jointCount + 1, sizeof *o->jointEqCount);
    int eq = 0;
    for (int j = 0; j < s->jointCount; ++j) {
        o->jointEq[j] = eq;
        o->jointEqCount[j] = s->joints[j].type == fcb_hinge ? 2 : 1;
        eq += o->jointEqCount[j];
    }
    // the initial velocities (freejoint: linear in world, angular in the body frame)
    for (int i = 0; i < s->bodyCount; ++i) {
        const fcbBody* b = &s->bodies[i];
        if (!b->dynamic) continue;
        int dof = m->jnt_dofadr[m->body_jntadr[i + 1]];
        double wl[3];
        InvRotate(b->quat, b->angvel, wl);
        for (int k = 0; k < 3; ++k) d->qvel[dof + k] = b->vel[k], d->qvel[dof + 3 + k] = wl[k];
    }
    mj_forward(m, d);
    return o;
}

static void* MujocoCreateNewton(const fcbScene* s, char* err, size_t n) { return MujocoCreate(s, mjSOL_NEWTON, err, n); }
static void* MujocoCreatePgs(const fcbScene* s, char* err, size_t n) { return MujocoCreate(s, mjSOL_PGS, err, n); }

static void MujocoStep(void* ctx)
{
    fcbMujoco* o = ctx;
    mj_step(o->m, o->d);
    if (o->d->warning[mjWARN_BADQACC].number + o->d->warning[mjWARN_BADQPOS].number +
            o->d->warning[mjWARN_BADQVEL].number > 0)
        o->diverged = true;
    if (o->d->warning[mjWARN_CONTACTFULL].number + o->d->warning[mjWARN_CNSTRFULL].number > 0)
        fcbFatal("MuJoCo's contact or constraint list overflowed (nconmax / njmax): contacts would be dropped");
}

static void MujocoGetState(void* ctx, int i, fcbState* out)
{
    fcbMujoco* o = ctx;
    const fcbBody* b = &o->scene->bodies[i];
    if (o->diverged) {
        for (int k = 0; k < 3; ++k) out->pos[k] = out->vel[k] = out->angvel[k] = NAN;
        return;
    }
    if (!b->dynamic) {
        for (int k = 0; k < 3; ++k) out->pos[k] = b->pos[k], out->vel[k] = 0, out->angvel[k] = 0;
        for (int k = 0; k < 4; ++k) out->quat[k] = b->quat[k];
        return;
    }
    int id = i + 1;
    const mjtNum* p = o->d->xpos + 3 * id;
    const mjtNum* q = o->d->xquat + 4 * id;
    int dof = o->m->jnt_dofadr[o->m->body_jntadr[id]];
    const mjtNum* v = o->d->qvel + dof;
    double wl[3] = {v[3], v[4], v[5]}, w[3];
    double qc[4] = {q[0], -q[1], -q[2], -q[3]};
    InvRotate(qc, wl, w);  // rotate by q
    for (int k = 0; k < 3; ++k) out->pos[k] = p[k], out->vel[k] = v[k], out->angvel[k] = w[k];
    for (int k = 0; k < 4; ++k) out->quat[k] = q[k];
}

static bool MujocoJointForce(void* ctx, int j, double f[3])
{
    fcbMujoco* o = ctx;
    f[0] = f[1] = f[2] = 0;
    int seen[2] = {0, 0};
    for (int i = 0; i < o->d->nefc; ++i) {
        if (o->d->efc_type[i] != mjCNSTR_EQUALITY) continue;
        int e = o->d->efc_id[i] - o->jointEq[j];
        if (e < 0 || e >= o->jointEqCount[j]) continue;
        f[seen[e] % 3] += o->d->efc_force[i];
        ++seen[e];
    }
    return true;
}

static double MujocoPenetration(void* ctx, int* points)
{
    fcbMujoco* o = ctx;
    double pen = 0;
    for (int i = 0; i < o->d->ncon; ++i)
        if (-o->d->contact[i].dist > pen) pen = -o->d->contact[i].dist;
    *points = o->d->ncon;
    return pen;
}

static void MujocoDestroy(void* ctx)
{
    fcbMujoco* o = ctx;
    mj_deleteData(o->d);
    mj_deleteModel(o->m);
    free(o->jointEq);
    free(o->jointEqCount);
    free(o);
}

// dynamic bodies: those with a joint (the freejoint); MuJoCo body 0 is the world
static void MujocoReadBack(void* ctx, int* bodies, double* mass)
{
    fcbMujoco* o = ctx;
    *bodies = 0;
    *mass = 0;
    for (int b = 1; b < o->m->nbody; ++b) {
        if (o->m->body_jntnum[b] == 0) continue;
        ++*bodies;
        *mass += o->m->body_mass[b];
    }
}

// the joint's (first) connect equality: eq_data[0..2] is the anchor in body1 (the scene's b), eq_data[3..5] in
// body2 (the scene's a, or the world), as the compiler stored them; placed with the current xpos / xmat
static bool MujocoJointAnchors(void* ctx, int j, double pa[3], double pb[3])
{
    fcbMujoco* o = ctx;
    int e = o->jointEq[j];
    if (e < 0 || e >= o->m->neq || o->m->eq_type[e] != mjEQ_CONNECT) return false;
    const mjtNum* data = o->m->eq_data + mjNEQDATA * e;
    int id[2] = {o->m->eq_obj1id[e], o->m->eq_obj2id[e]};
    double* out[2] = {pb, pa};
    for (int s = 0; s < 2; ++s) {
        mjtNum p[3];
        mju_rotVecMat(p, data + 3 * s, o->d->xmat + 9 * id[s]);
        for (int k = 0; k < 3; ++k) out[s][k] = p[k] + o->d->xpos[3 * id[s] + k];
    }
    return true;
}

static const fcbAdapter fcbMujocoAdapters[] = {
    {"mujoco", "Newton/free+connect",
     "MuJoCo 2.2.2 Newton solver; freejoint bodies with connect equalities (soft, default solref 0.02 1 and solimp "
     "0.9 0.95 0.001); Euler, 100 iterations, tolerance 1e-8, pyramidal cones, condim 3, friction max(mu)",
     MujocoRefuse, MujocoCreateNewton, MujocoStep, MujocoGetState, MujocoJointForce, MujocoPenetration, MujocoDestroy,
     MujocoReadBack, MujocoJointAnchors},
    {"mujoco", "PGS/free+connect", "MuJoCo 2.2.2 PGS solver; otherwise as Newton/free+connect", MujocoRefuse,
     MujocoCreatePgs, MujocoStep, MujocoGetState, MujocoJointForce, MujocoPenetration, MujocoDestroy, MujocoReadBack,
     MujocoJointAnchors},
};

int fcbMujoco_Adapters(const fcbAdapter** out)
{
    *out = fcbMujocoAdapters;
    return (int)(sizeof fcbMujocoAdapters / sizeof fcbMujocoAdapters[0]);
}
