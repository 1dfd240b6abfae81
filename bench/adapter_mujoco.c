// SPDX-License-Identifier: MIT
// fulcrum-bench: the MuJoCo adapter (Debian's libmujoco-dev, 2.2.2). The world is written as MJCF, in one of two
// forms. "free+connect": every dynamic body a <freejoint> body with an explicit <inertial>, every ball joint a
// <connect> equality (a hinge: two connects on its axis), maximal coordinates like ODE and Bullet. "tree": the
// joints' forest (fcbTree) as nested <body> elements, a ball joint a `ball` joint, a hinge a `hinge`, a free root a
// <freejoint> (reduced coordinates; joints cannot open). Contacts between joined bodies are excluded in both. MuJoCo's
// defaults otherwise: Euler, 100 iterations, tolerance 1e-8, pyramidal cones, condim 3, solref (0.02, 1) and solimp
// (0.9, 0.95, 0.001); friction "mu 0.005 0.0001" per geom. Each form with the Newton and the PGS solver. Joint force:
// free+connect the three efc_force entries of the connect; tree the force part of cfrc_int (mj_rnePostConstraint)
// on the joint's child. MuJoCo resets the state when the accelerations go bad (mjWARN_BADQACC); the adapter
// reports that as NaN so the table says where it happened.
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
    bool tree;
    int* bodyId;   // per scene body: its MuJoCo body
    int* jointEq;  // free+connect: first equality of each joint; -1 none
    int* jointEqCount;
    int* jointId;  // tree: per scene joint, its MuJoCo joint
    mjtNum* qvel;  // tree: scratch for the step's start velocities
    bool synced;   // xpos, xquat, cvel (and the tree's cfrc_int) are the state after the last step
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

static void Limits(const fcbScene* s, bool tree, int* nconmax, int* njmax)
{
    int eqRows = 0;
    for (int j = 0; j < s->jointCount && !tree; ++j) eqRows += s->joints[j].type == fcb_hinge ? 6 : 3;
    *nconmax = s->collidingBodies > 0 ? 10 * s->collidingBodies + 100 : 0;
    *njmax = eqRows + 4 * *nconmax + 100;  // pyramidal condim 3: 4 rows a contact
}

static const char* RefuseMemory(const fcbScene* s, bool tree, char* why, size_t n)
{
    int nconmax, njmax;
    Limits(s, tree, &nconmax, &njmax);
    // mjData holds efc_AR (njmax x njmax doubles) and its column indices (njmax x njmax ints)
    double bytes = 12.0 * njmax * njmax;
    if (bytes > 0.25 * fcbAvailableBytes()) {  // a quarter: the solver needs as much again
        snprintf(why, n, "mjData for njmax = %d rows (nconmax %d) needs ~%.1f GB of dense efc_AR (%.1f GB available)",
                 njmax, nconmax, bytes / 1e9, fcbAvailableBytes() / 1e9);
        return why;
    }
    return NULL;
}

static const char* MujocoRefuse(const fcbScene* s, char* why, size_t n) { return RefuseMemory(s, false, why, n); }

static const char* MujocoRefuseTree(const fcbScene* s, char* why, size_t n)
{
    return fcbTree_Refuse(s, why, n) ? why : RefuseMemory(s, true, why, n);
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

// <body name="bI" ...> with the body's pose in its parent's frame (the world when parent < 0)
static void WriteBodyOpen(FILE* f, const fcbScene* s, int i, int parent)
{
    const fcbBody* b = &s->bodies[i];
    double p[3], q[4];
    if (parent >= 0) {
        const fcbBody* a = &s->bodies[parent];
        double d[3] = {b->pos[0] - a->pos[0], b->pos[1] - a->pos[1], b->pos[2] - a->pos[2]}, qa[4];
        InvRotate(a->quat, d, p);
        mju_negQuat(qa, a->quat);
        mju_mulQuat(q, qa, b->quat);
    } else {
        memcpy(p, b->pos, sizeof p);
        memcpy(q, b->quat, sizeof q);
    }
    fprintf(f, "    <body name=\"b%d\" pos=\"%.17g %.17g %.17g\" quat=\"%.17g %.17g %.17g %.17g\">\n", i, p[0], p[1], p[2],
            q[0], q[1], q[2], q[3]);
}

static void WriteInertial(FILE* f, const fcbBody* b)
{
    fprintf(f, "      <inertial pos=\"0 0 0\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n", b->mass, b->inertia[0],
            b->inertia[1], b->inertia[2]);
}

// The forest, depth first: a body is opened after its parent and before its parent closes. A root hanging from the
// world sits in the worldbody with its joint; a free root gets a freejoint. Returns the deepest nesting (bodies).
static int WriteTree(FILE* f, const fcbScene* s, const fcbTree* t)
{
    int* depth = calloc((size_t)s->bodyCount + 1, sizeof *depth);
    int open = 0, deepest = 0;
    for (int k = 0; k < t->count; ++k) {
        int b = t->order[k], pj = t->parentJoint[b];
        int parent = pj >= 0 ? s->joints[pj].a : -1;
        depth[b] = parent >= 0 ? depth[parent] + 1 : 0;
        for (; open > depth[b]; --open) fprintf(f, "    </body>\n");
        WriteBodyOpen(f, s, b, parent);
        if (pj < 0) {
            fprintf(f, "      <freejoint/>\n");
        } else {
            const fcbJoint* jt = &s->joints[pj];
            fprintf(f, "      <joint name=\"j%d\" type=\"%s\" pos=\"%.17g %.17g %.17g\"", pj,
                    jt->type == fcb_hinge ? "hinge" : "ball", jt->localB[0], jt->localB[1], jt->localB[2]);
            if (jt->type == fcb_hinge) {
                double ax[3];
                InvRotate(s->bodies[b].quat, jt->axis, ax);
                fprintf(f, " axis=\"%.17g %.17g %.17g\"", ax[0], ax[1], ax[2]);
            }
            fprintf(f, "/>\n");
        }
        WriteInertial(f, &s->bodies[b]);
        WriteGeoms(f, &s->bodies[b]);
        open = depth[b] + 1;
        if (open > deepest) deepest = open;
    }
    for (; open > 0; --open) fprintf(f, "    </body>\n");
    free(depth);
    return deepest;
}

static void* MujocoCreate(const fcbScene* s, int solver, bool tree, char* err, size_t errSize)
{
    mju_user_error = MujocoError;
    mju_user_warning = MujocoWarning;
    fcbTree forest = {NULL, NULL, 0};
    if (tree && fcbTree_Build(s, &forest, err, errSize)) return NULL;
    char path[] = "/tmp/fulcrum-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(err, errSize, "cannot create a temporary MJCF file");
        fcbTree_Free(&forest);
        return NULL;
    }
    FILE* f = fdopen(fd, "w");
    int nconmax, njmax;
    Limits(s, tree, &nconmax, &njmax);
    fprintf(f, "<mujoco model=\"%s\">\n", s->name);
    fprintf(f, "  <option timestep=\"%.17g\" gravity=\"%.17g %.17g %.17g\" integrator=\"Euler\" solver=\"%s\" "
               "iterations=\"100\" tolerance=\"1e-8\" cone=\"pyramidal\"/>\n",
            s->dt, s->gravity[0], s->gravity[1], s->gravity[2], solver == mjSOL_NEWTON ? "Newton" : "PGS");
    fprintf(f, "  <size njmax=\"%d\" nconmax=\"%d\"/>\n  <worldbody>\n", njmax, nconmax > 0 ? nconmax : 1);
    for (int i = 0; i < s->bodyCount; ++i) {
        const fcbBody* b = &s->bodies[i];
        if (tree && b->dynamic) continue;  // in the forest below
        WriteBodyOpen(f, s, i, -1);
        if (b->dynamic) {
            fprintf(f, "      <freejoint/>\n");
            WriteInertial(f, b);
        }
        WriteGeoms(f, b);
        fprintf(f, "    </body>\n");
    }
    int deepest = tree ? WriteTree(f, s, &forest) : 1;
    fprintf(f, "  </worldbody>\n  <equality>\n");
    for (int j = 0; j < s->jointCount && !tree; ++j) {
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
    fcbTree_Free(&forest);
    char msg[1000] = "";
    mjModel* m = mj_loadXML(path, NULL, msg, sizeof msg);
    unlink(path);
    if (!m) {
        for (char* p = msg; *p; ++p)
            if (*p == '\n') *p = ' ';  // one line in the table
        // MuJoCo 2.2.2 reads MJCF with tinyxml2, which limits the nesting of elements (100 in Debian's tinyxml2 9)
        if (strstr(msg, "DEPTH_EXCEEDED"))
            snprintf(err, errSize, "mj_loadXML: the tree is %d bodies deep, more than MuJoCo's XML parser (tinyxml2) "
                     "nests (XML_ELEMENT_DEPTH_EXCEEDED)", deepest);
        else
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
    o->tree = tree;
    o->bodyId = calloc((size_t)s->bodyCount + 1, sizeof *o->bodyId);
    o->jointEq = calloc((size_t)s->jointCount + 1, sizeof *o->jointEq);
    o->jointEqCount = calloc((size_t)s->jointCount + 1, sizeof *o->jointEqCount);
    o->jointId = calloc((size_t)s->jointCount + 1, sizeof *o->jointId);
    o->qvel = calloc((size_t)m->nv + 1, sizeof *o->qvel);
    char name[32];
    for (int i = 0; i < s->bodyCount; ++i) snprintf(name, sizeof name, "b%d", i), o->bodyId[i] = mj_name2id(m, mjOBJ_BODY, name);
    int eq = 0;
    for (int j = 0; j < s->jointCount; ++j) {
        o->jointEq[j] = tree ? -1 : eq;
        o->jointEqCount[j] = tree ? 0 : s->joints[j].type == fcb_hinge ? 2 : 1;
        eq += o->jointEqCount[j];
        snprintf(name, sizeof name, "j%d", j);
        o->jointId[j] = tree ? mj_name2id(m, mjOBJ_JOINT, name) : -1;
    }
    // the initial velocities: a freejoint's linear in world, angular in the body frame; a ball joint's the spin
    // relative to the parent in the body frame, a hinge's that spin along its axis
    int* sceneJoint = malloc(((size_t)m->njnt + 1) * sizeof *sceneJoint);  // per MuJoCo joint; -1: a freejoint
    for (int k = 0; k < m->njnt; ++k) sceneJoint[k] = -1;
    for (int j = 0; j < s->jointCount; ++j)
        if (o->jointId[j] >= 0) sceneJoint[o->jointId[j]] = j;
    for (int i = 0; i < s->bodyCount; ++i) {
        const fcbBody* b = &s->bodies[i];
        if (!b->dynamic) continue;
        int jnt = m->body_jntadr[o->bodyId[i]], dof = m->jnt_dofadr[jnt];
        double spin[3], wl[3];
        memcpy(spin, b->angvel, sizeof spin);
        if (sceneJoint[jnt] >= 0) {
            const fcbJoint* jt = &s->joints[sceneJoint[jnt]];
            for (int k = 0; k < 3 && jt->a >= 0; ++k) spin[k] -= s->bodies[jt->a].angvel[k];
            if (jt->type == fcb_hinge) {
                d->qvel[dof] = spin[0] * jt->axis[0] + spin[1] * jt->axis[1] + spin[2] * jt->axis[2];
                continue;
            }
        }
        InvRotate(b->quat, spin, wl);
        if (m->jnt_type[jnt] == mjJNT_FREE) {
            for (int k = 0; k < 3; ++k) d->qvel[dof + k] = b->vel[k], d->qvel[dof + 3 + k] = wl[k];
        } else {
            for (int k = 0; k < 3; ++k) d->qvel[dof + k] = wl[k];
        }
    }
    free(sceneJoint);
    mj_forward(m, d);
    o->synced = true;
    return o;
}

static void* MujocoCreateNewton(const fcbScene* s, char* err, size_t n) { return MujocoCreate(s, mjSOL_NEWTON, false, err, n); }
static void* MujocoCreatePgs(const fcbScene* s, char* err, size_t n) { return MujocoCreate(s, mjSOL_PGS, false, err, n); }
static void* MujocoCreateNewtonTree(const fcbScene* s, char* err, size_t n) { return MujocoCreate(s, mjSOL_NEWTON, true, err, n); }
static void* MujocoCreatePgsTree(const fcbScene* s, char* err, size_t n) { return MujocoCreate(s, mjSOL_PGS, true, err, n); }

static void MujocoStep(void* ctx)
{
    fcbMujoco* o = ctx;
    mj_step(o->m, o->d);
    o->synced = false;
    if (o->d->warning[mjWARN_BADQACC].number + o->d->warning[mjWARN_BADQPOS].number +
            o->d->warning[mjWARN_BADQVEL].number > 0)
        o->diverged = true;
    if (o->d->warning[mjWARN_CONTACTFULL].number + o->d->warning[mjWARN_CNSTRFULL].number > 0)
        fcbFatal("MuJoCo's contact or constraint list overflowed (nconmax / njmax): contacts would be dropped");
}

// After mj_step, mjData's positional and velocity-derived fields (xpos, xquat, xmat, cvel...) are still those of the
// step's start: mj_step computes them, then integrates qpos and qvel. Once per step, outside the timed step:
// - tree: the joint forces of the step, cfrc_int from mj_rnePostConstraint on that start state, which needs the
//   start velocities back (Euler: qvel - h qacc; the adapter writes no joint damping, so that is exact up to
//   rounding); the force is then the one the step used, consistent with the harness's start-of-step angle;
// - then the kinematics of the end state (mj_kinematics, mj_comPos, mj_comVel), for the poses and velocities.
// The next mj_step recomputes all of it, so none of this changes the simulation; efc_force and the contacts stay.
static void Sync(fcbMujoco* o)
{
    if (o->synced || o->diverged) return;
    const mjModel* m = o->m;
    mjData* d = o->d;
    if (o->tree) {
        memcpy(o->qvel, d->qvel, sizeof(mjtNum) * (size_t)m->nv);
        mju_addToScl(d->qvel, d->qacc, -m->opt.timestep, m->nv);
        mj_rnePostConstraint(m, d);
        memcpy(d->qvel, o->qvel, sizeof(mjtNum) * (size_t)m->nv);
    }
    mj_kinematics(m, d);
    mj_comPos(m, d);
    mj_comVel(m, d);
    o->synced = true;
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
    Sync(o);
    int id = o->bodyId[i];
    mjtNum v[6];  // angular, linear; world frame, at the centre of mass (the body frame here)
    mj_objectVelocity(o->m, o->d, mjOBJ_BODY, id, v, 0);
    for (int k = 0; k < 3; ++k) out->pos[k] = o->d->xpos[3 * id + k], out->vel[k] = v[3 + k], out->angvel[k] = v[k];
    for (int k = 0; k < 4; ++k) out->quat[k] = o->d->xquat[4 * id + k];
}

static bool MujocoJointForce(void* ctx, int j, double f[3])
{
    fcbMujoco* o = ctx;
    f[0] = f[1] = f[2] = 0;
    if (o->tree) {
        // cfrc_int of the child: [torque; force] that its parent exerts on its subtree, world frame
        Sync(o);
        const mjtNum* c = o->d->cfrc_int + 6 * o->bodyId[o->scene->joints[j].b];
        f[0] = c[3], f[1] = c[4], f[2] = c[5];
        return true;
    }
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
    free(o->bodyId);
    free(o->jointEq);
    free(o->jointEqCount);
    free(o->jointId);
    free(o->qvel);
    free(o);
}

// dynamic bodies: those with a joint (a freejoint, or the tree's ball and hinge joints); MuJoCo body 0 is the world
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

// free+connect: the joint's (first) connect equality: eq_data[0..2] is the anchor in body1 (the scene's b),
// eq_data[3..5] in body2 (the scene's a, or the world), as the compiler stored them; placed with xpos / xmat.
// tree: on the child, the joint's xanchor; on the parent, the joint's position as the compiled model has it
// (body_pos + body_quat jnt_pos, in the parent's frame) placed with the parent's xpos / xmat.
static bool MujocoJointAnchors(void* ctx, int j, double pa[3], double pb[3])
{
    fcbMujoco* o = ctx;
    const mjModel* m = o->m;
    Sync(o);
    if (o->tree) {
        int jnt = o->jointId[j];
        if (jnt < 0) return false;
        int child = m->jnt_bodyid[jnt], parent = m->body_parentid[child];
        mjtNum local[3], p[3];
        mju_rotVecQuat(local, m->jnt_pos + 3 * jnt, m->body_quat + 4 * child);
        for (int k = 0; k < 3; ++k) local[k] += m->body_pos[3 * child + k];
        mju_rotVecMat(p, local, o->d->xmat + 9 * parent);
        for (int k = 0; k < 3; ++k) pa[k] = p[k] + o->d->xpos[3 * parent + k], pb[k] = o->d->xanchor[3 * jnt + k];
        return true;
    }
    int e = o->jointEq[j];
    if (e < 0 || e >= m->neq || m->eq_type[e] != mjEQ_CONNECT) return false;
    const mjtNum* data = m->eq_data + mjNEQDATA * e;
    int id[2] = {m->eq_obj1id[e], m->eq_obj2id[e]};
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
    {"mujoco", "Newton/tree",
     "MuJoCo 2.2.2 Newton solver; the joints' forest as a kinematic tree (nested bodies, ball / hinge joints, a "
     "freejoint for a free root; reduced coordinates), otherwise as Newton/free+connect; joint force: cfrc_int "
     "(mj_rnePostConstraint) at the step's start state; forests only",
     MujocoRefuseTree, MujocoCreateNewtonTree, MujocoStep, MujocoGetState, MujocoJointForce, MujocoPenetration,
     MujocoDestroy, MujocoReadBack, MujocoJointAnchors},
    {"mujoco", "PGS/tree", "MuJoCo 2.2.2 PGS solver; otherwise as Newton/tree", MujocoRefuseTree, MujocoCreatePgsTree,
     MujocoStep, MujocoGetState, MujocoJointForce, MujocoPenetration, MujocoDestroy, MujocoReadBack,
     MujocoJointAnchors},
};

int fcbMujoco_Adapters(const fcbAdapter** out)
{
    *out = fcbMujocoAdapters;
    return (int)(sizeof fcbMujocoAdapters / sizeof fcbMujocoAdapters[0]);
}
