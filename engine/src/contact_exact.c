// SPDX-License-Identifier: MIT
// Heavy on light: the normal rows of a small contact island in which a body rests on one far lighter, solved
// exactly before a substep's first sweep. Projected Gauss-Seidel passes a load from a heavy body through a light
// one at about m / (m + M) of what is missing a sweep (two boxes at 100:1: 1 % a sweep), so within its sweeps such
// a stack sinks into itself; the island's normal rows are the small LCP 0 <= lambda _|_ A lambda + q >= 0
// (A = J M^-1 J^T of its normal rows; through the island's joints, their Schur complement), solved by principal
// pivoting on a dense Cholesky factorization of the rows that push. The sweeps then start from there: friction
// against those loads, and the normal rows moved by what friction changed.
#include "solver.h"

#include <math.h>
#include <string.h>

// A manifold between two moving bodies whose masses differ by this factor or more makes its island exact
// (docs/physics.md, "Heavy on light"). Two boxes on the ground, the sweeps alone: 0.1 mm of overlap at 3:1, 1.3 mm at
// 10:1, 7.7 mm at 50:1; a stress run's towers with neighbours 6 to 9 times apart leaned and fell at 2 x 8 sweeps and
// stand with this at 4 (10 left them to the sweeps).
#define FC_EXACT_MASS_RATIO 4.0
// the most normal rows of an exact island: a pivot step costs a Cholesky factorization of up to this order
#define FC_EXACT_MOST_ROWS 64
// A's diagonal is raised by this fraction: four points on one face give three independent normal rows, so A is
// singular; the regularized solve spreads the load over them the least-squares way. FC_EXACT_TOLERANCE: a row's
// residual that counts as zero, of the island's largest term. Both well above the round-off of fcReal (in float,
// 1e-9 added nothing to a diagonal and no island passed the check: each fell back to the sweeps)
#ifdef FC_FLOAT
#define FC_EXACT_REGULARIZATION 1e-4f
#define FC_EXACT_TOLERANCE 1e-5f
#else
#define FC_EXACT_REGULARIZATION 1e-9
#define FC_EXACT_TOLERANCE 1e-10
#endif

// the most joint rows in an exact island: their dense factorization is of this order (its matrices take the
// places of the contact rows' in exactMatrices)
#define FC_EXACT_MOST_JOINT_ROWS 64
_Static_assert(FC_EXACT_MOST_JOINT_ROWS <= FC_EXACT_MOST_ROWS, "the joint rows' matrices fit the contact rows' places");

typedef struct fcExactRow {
    int block, lane, point;
} fcExactRow;

static int fcExact_Find(int* parent, int x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

static bool fcExact_Moving(const fcContactBlock* blk, int lane, int side)
{
    return (side ? blk->writeB : blk->writeA)[lane] != 0;
}

// a world body the joint solve moves (dynamic and awake)
static bool fcExact_BodyMoves(const fcWorld* world, int body)
{
    return body >= 0 && world->bodies[body].type == fc_dynamicBody && !world->bodies[body].asleep;
}

// the island of a lane's manifold (the root of a moving side, a world body), -1: no manifold or no moving side
static int fcExact_LaneRoot(const fcContactBlock* blk, int lane, int* parent)
{
    if (blk->manifold[lane] == NULL) return -1;
    if (fcExact_Moving(blk, lane, 0)) return fcExact_Find(parent, blk->bodyA[lane]);
    return fcExact_Moving(blk, lane, 1) ? fcExact_Find(parent, blk->bodyB[lane]) : -1;
}

// the island of a joint block (the root of a moving body), -1: neither moves
static int fcExact_BlockRoot(const fcWorld* world, int block, int* parent)
{
    const fcRowStore* r = &world->rows;
    int i = r->blockadr[block];
    if (fcExact_BodyMoves(world, r->bodyA[i])) return fcExact_Find(parent, r->bodyA[i]);
    return fcExact_BodyMoves(world, r->bodyB[i]) ? fcExact_Find(parent, r->bodyB[i]) : -1;
}

static void fcExact_Union(int* parent, int a, int b)
{
    int ra = fcExact_Find(parent, a), rb = fcExact_Find(parent, b);
    if (ra != rb) parent[ra > rb ? ra : rb] = ra < rb ? ra : rb;
}

// once a step, after the layout and the solver bodies' masses
void fcContacts_FindExactIslands(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    const fcRowStore* joints = &world->rows;
    set->exactIslandCount = 0;
    // most steps of most worlds: no manifold between bodies of very different masses
    bool any = false;
    for (int bi = 0; bi < set->blockCount && !any; ++bi) {
        const fcContactBlock* blk = set->blocks + bi;
        for (int l = 0; l < FC_LANES && !any; ++l) {
            if (blk->manifold[l] == NULL || !fcExact_Moving(blk, l, 0) || !fcExact_Moving(blk, l, 1)) continue;
            fcReal ia = set->solverInvMass[blk->a[l]], ib = set->solverInvMass[blk->b[l]];
            any = fmax(ia, ib) >= FC_EXACT_MASS_RATIO * fmin(ia, ib);
        }
    }
    if (!any) return;
    // the islands of the moving bodies joined by manifolds and joints (static and kinematic bodies join nothing)
    int bodies = world->bodyHigh;
    int need = 5 * bodies + (bodies + (int)sizeof(int) - 1) / (int)sizeof(int);
    if (set->exactScratchCapacity < need) {
        set->exactScratchCapacity = need;
        set->exactScratch = fcRealloc(set->exactScratch, sizeof(int) * (size_t)need);
    }
    int* parent = set->exactScratch;
    int* rows = parent + bodies;       // per root: its normal rows
    int* start = rows + bodies;        // per root: its first row in exactRows, -1 when not solved exactly
    int* jointRows = start + bodies;   // per root: the rows of its joints
    int* jointStart = jointRows + bodies;  // per root: its first block in exactJointBlocks
    uint8_t* marks = (uint8_t*)(jointStart + bodies);  // per root: 1 a kinematic body touches it, 2 an overlap
                                                       // past the slop, 4 a joint the sweeps must take
    for (int k = 0; k < bodies; ++k) parent[k] = k, rows[k] = 0, start[k] = -1, jointRows[k] = 0, marks[k] = 0;
    for (int bi = 0; bi < set->blockCount; ++bi) {
        const fcContactBlock* blk = set->blocks + bi;
        for (int l = 0; l < FC_LANES; ++l)
            if (blk->manifold[l] != NULL && fcExact_Moving(blk, l, 0) && fcExact_Moving(blk, l, 1))
                fcExact_Union(parent, blk->bodyA[l], blk->bodyB[l]);
    }
    for (int b = 0; b < joints->blockCount; ++b) {
        int i = joints->blockadr[b];
        if (fcExact_BodyMoves(world, joints->bodyA[i]) && fcExact_BodyMoves(world, joints->bodyB[i]))
            fcExact_Union(parent, joints->bodyA[i], joints->bodyB[i]);
    }
    // per island: its rows, whether it holds a mass ratio, and whether a kinematic body touches it while some
    // overlap is deeper than the slop (the body presses on what the contacts could not stop: the rigid problem may
    // have no solution, or one of a press's 1e6 N through a light body's lever where the sweeps alone report 3 kN),
    // which leaves it to the sweeps
    for (int bi = 0; bi < set->blockCount; ++bi) {
        const fcContactBlock* blk = set->blocks + bi;
        for (int l = 0; l < FC_LANES; ++l) {
            int root = fcExact_LaneRoot(blk, l, parent);
            if (root < 0) continue;
            bool ma = fcExact_Moving(blk, l, 0), mb = fcExact_Moving(blk, l, 1);
            rows[root] += (int)blk->lanePoints[l];
            const fcBody* a = world->bodies + blk->bodyA[l];
            const fcBody* b = world->bodies + blk->bodyB[l];
            if (a->type == fc_kinematicBody || b->type == fc_kinematicBody) marks[root] |= 1;
            const fcContactManifold* m = blk->manifold[l];
            for (int i = 0; i < m->pointCount; ++i)
                if (m->points[i].separation < -world->def.contactSlop) marks[root] |= 2;
            if (ma && mb && fmax(a->mass, b->mass) >= FC_EXACT_MASS_RATIO * fmin(a->mass, b->mass))
                start[root] = 0;  // marked; the row offsets follow
        }
    }
    // and its joints' rows. Left to the sweeps, as joints the Schur complement does not describe: a body the
    // geometric stiffness stiffens (pulled by its joints at two places), which the joint solve moves by another
    // inertia (M~) than the contacts (M) (W came out indefinite, and a ragdoll taking an impact was thrown at
    // 80 m/s), and a motor, whose row is bounded (solved as an equality it stopped a crate landing on a platform
    // with 40 times the motor's force)
    for (int b = 0; b < joints->blockCount; ++b) {
        int root = fcExact_BlockRoot(world, b, parent);
        if (root < 0) continue;
        jointRows[root] += joints->blocksize[b];
        int i = joints->blockadr[b];
        for (int s = 0; s < 2; ++s) {
            int body = s ? joints->bodyB[i] : joints->bodyA[i];
            if (fcExact_BodyMoves(world, body) && world->bodies[body].stiffnessRate != 0) marks[root] |= 4;
        }
        for (int k = i; k < i + joints->blocksize[b]; ++k)
            if (joints->flags[k] & fc_rowBounded) marks[root] |= 4;
    }
    int total = 0, islands = 0;
    for (int k = 0; k < bodies; ++k) {
        if (parent[k] != k) continue;
        if (start[k] == 0 && rows[k] > 0 && rows[k] <= FC_EXACT_MOST_ROWS && jointRows[k] <= FC_EXACT_MOST_JOINT_ROWS &&
            (marks[k] & 3) != 3 && !(marks[k] & 4)) {
            start[k] = total;
            total += rows[k];
            islands += 1;
        } else {
            start[k] = -1;
        }
    }
    if (islands == 0) return;
    int* jointBlocks = jointRows;  // per root from here: its joint blocks
    int blocks = 0;
    for (int k = 0; k < bodies; ++k) jointBlocks[k] = 0;
    for (int b = 0; b < joints->blockCount; ++b) {
        int root = fcExact_BlockRoot(world, b, parent);
        if (root >= 0 && start[root] >= 0) jointBlocks[root] += 1, blocks += 1;
    }
    if (set->exactRowCapacity < total) {
        set->exactRowCapacity = total;
        set->exactRows = fcRealloc(set->exactRows, sizeof(fcExactRow) * (size_t)total);
    }
    if (set->exactIslandCapacity < islands + 1) {
        set->exactIslandCapacity = islands + 1;
        set->exactIslands = fcRealloc(set->exactIslands, sizeof(int) * (size_t)(islands + 1));
        set->exactJointIslands = fcRealloc(set->exactJointIslands, sizeof(int) * (size_t)(islands + 1));
    }
    if (set->exactJointBlockCapacity < blocks) {
        set->exactJointBlockCapacity = blocks;
        set->exactJointBlocks = fcRealloc(set->exactJointBlocks, sizeof(int) * (size_t)blocks);
    }
    // the islands in the order of their roots, their rows in block order and their joints in the joints' (the same
    // for any thread count)
    islands = 0, blocks = 0;
    for (int k = 0; k < bodies; ++k) {
        if (parent[k] != k || start[k] < 0) continue;
        set->exactIslands[islands] = start[k];
        set->exactJointIslands[islands++] = blocks;
        jointStart[k] = blocks;
        blocks += jointBlocks[k];
    }
    set->exactJointIslands[islands] = blocks;
    for (int b = 0; b < joints->blockCount; ++b) {
        int root = fcExact_BlockRoot(world, b, parent);
        if (root >= 0 && start[root] >= 0) set->exactJointBlocks[jointStart[root]++] = b;
    }
    set->exactIslands[islands] = total;
    for (int bi = 0; bi < set->blockCount; ++bi) {
        const fcContactBlock* blk = set->blocks + bi;
        for (int l = 0; l < FC_LANES; ++l) {
            int root = fcExact_LaneRoot(blk, l, parent);
            if (root < 0 || start[root] < 0) continue;
            for (int i = 0; i < (int)blk->lanePoints[l]; ++i) set->exactRows[start[root]++] = (fcExactRow){bi, l, i};
        }
    }
    set->exactIslandCount = islands;
    if (set->exactMatrices == NULL)
        set->exactMatrices = fcAlloc(sizeof(fcReal) * (4 * FC_EXACT_MOST_ROWS * FC_EXACT_MOST_ROWS + FC_EXACT_MOST_JOINT_ROWS));
}

// row r's Jacobian on one side: the solver body (its velocity: a kinematic one moves too), whether the row moves
// it (0: static or kinematic), the sign (-1 for a), r x n and I^-1 (r x n)
typedef struct fcExactSide {
    int body, moved, world;  // world: the fcBody index
    fcReal sign, invMass;
    fcVec3 ang, iang;
} fcExactSide;

static fcVec3 fcExact_Lane3(const fcReal (*v)[FC_LANES], int lane) { return fcV3(v[0][lane], v[1][lane], v[2][lane]); }

static void fcExact_Sides(const fcContactSet* set, const fcExactRow* row, fcExactSide side[2], fcVec3* n)
{
    const fcContactBlock* blk = set->blocks + row->block;
    const fcContactRow4* r = &blk->point[row->point].n;
    int l = row->lane;
    *n = fcExact_Lane3(blk->normal, l);
    side[0] = (fcExactSide){blk->a[l], blk->writeA[l], blk->bodyA[l], -1, blk->invMassA[l], fcExact_Lane3(r->angA, l),
                            fcExact_Lane3(r->iangA, l)};
    side[1] = (fcExactSide){blk->b[l], blk->writeB[l], blk->bodyB[l], 1, blk->invMassB[l], fcExact_Lane3(r->angB, l),
                            fcExact_Lane3(r->iangB, l)};
}

// L L^T = A_SS + eps diag (S: the rows with pushed[i]), in place of the lower triangle of l (n x n); false when a
// pivot is not positive
static bool fcExact_Factor(const fcReal* a, fcReal* l, const bool* pushed, int n)
{
    for (int i = 0; i < n; ++i) {
        if (!pushed[i]) continue;
        for (int j = 0; j <= i; ++j) {
            if (!pushed[j]) continue;
            fcReal s = a[i * n + j];
            if (i == j) s *= 1 + FC_EXACT_REGULARIZATION;
            for (int k = 0; k < j; ++k)
                if (pushed[k]) s -= l[i * n + k] * l[j * n + k];
            if (i == j) {
                if (!(s > 0)) return false;
                l[i * n + i] = FC_SQRT(s);
            } else {
                l[i * n + j] = s / l[j * n + j];
            }
        }
    }
    return true;
}

// x_S from L L^T x_S = b_S, x = 0 off S (x may be b)
static void fcExact_Solve(const fcReal* l, const bool* pushed, int n, const fcReal* b, fcReal* x)
{
    for (int i = 0; i < n; ++i) {
        if (!pushed[i]) {
            x[i] = 0;
            continue;
        }
        fcReal s = b[i];
        for (int k = 0; k < i; ++k)
            if (pushed[k]) s -= l[i * n + k] * x[k];
        x[i] = s / l[i * n + i];
    }
    for (int i = n - 1; i >= 0; --i) {
        if (!pushed[i]) continue;
        fcReal s = x[i];
        for (int k = i + 1; k < n; ++k)
            if (pushed[k]) s -= l[k * n + i] * x[k];
        x[i] = s / l[i * n + i];
    }
}

// A of an island's normal rows: A_ij = sum over the bodies that rows i and j share of s_i s_j (m n_i . n_j +
// (r_i x n_i) . I^-1 (r_j x n_j)), s = -1 on side a
static void fcExact_Assemble(const fcExactSide (*side)[2], const fcVec3* normal, int n, fcReal* a)
{
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            fcReal s = 0;
            for (int p = 0; p < 2; ++p)
                for (int r = 0; r < 2; ++r) {
                    const fcExactSide* x = &side[i][p];
                    const fcExactSide* y = &side[j][r];
                    if (x->moved == 0 || x->moved != y->moved) continue;
                    s += x->sign * y->sign *
                         (x->invMass * fcVec3_Dot(normal[i], normal[j]) + fcVec3_Dot(x->ang, y->iang));
                }
            a[i * n + j] = a[j * n + i] = s;
        }
}

// Through the island's joints: the joint solve after the exact impulses takes up what they do to the joints' rows,
// so contact row i sees W = A - Z^T A_j^-1 Z, with Z = J_j M^-1 J^T (joint rows by contact rows) and A_j the joint
// rows' matrix as the joint solve factors it (with the soft rows' compliance): the Schur complement of the joints in
// the matrix of all the island's rows, symmetric positive semidefinite. A_j = L D L^T densely, a pivot below the
// world's pivot tolerance of its diagonal dropped as the sparse factorization drops it; then W = A - Y^T D^-1 Y
// with Y = L^-1 Z. An inactive one-sided row takes no part (the joint solve keeps it at 0).
static void fcExact_ThroughJoints(fcWorld* world, const fcExactSide (*side)[2], const fcVec3* normal, int n,
                                  const int* blocks, int blockCount, fcReal* a, fcReal* aj, fcReal* z, fcReal* d)
{
    const fcRowStore* r = &world->rows;
    fcContactSet* set = &world->contacts;
    if (set->exactJointRowCapacity < r->count) {
        set->exactJointRowCapacity = r->count;
        set->exactJointRowOf = fcRealloc(set->exactJointRowOf, sizeof(int) * (size_t)r->count);
        for (int i = 0; i < r->count; ++i) set->exactJointRowOf[i] = -1;
    }
    int* rowOf = set->exactJointRowOf;  // -1 again on return
    int row[FC_EXACT_MOST_JOINT_ROWS], m = 0;
    for (int k = 0; k < blockCount; ++k)
        for (int i = r->blockadr[blocks[k]]; i < r->blockadr[blocks[k]] + r->blocksize[blocks[k]]; ++i) rowOf[i] = m, row[m++] = i;
    for (int i = 0; i < m * m; ++i) aj[i] = 0;
    for (int li = 0; li < m; ++li) {
        // A_j from the lower triangle of the world's A: a row there couples only rows of joints on its bodies
        int i = row[li];
        for (int e = r->arowadr[i]; e < r->arowadr[i] + r->arownnz[i]; ++e) {
            int lj = rowOf[r->acolind[e]];
            if (lj >= 0) aj[li * m + lj] = aj[lj * m + li] = r->avalues[e];
        }
        bool inactive = (r->flags[i] & fc_rowInactive) != 0;
        for (int c = 0; c < n; ++c) {
            fcReal zc = 0;
            for (int s = 0; s < 2 && !inactive; ++s) {
                const fcExactSide* x = &side[c][s];
                if (x->moved == 0) continue;
                zc += fcRows_Response(world, i, x->world, fcVec3_Scale(x->sign, normal[c]), fcVec3_Scale(x->sign, x->ang));
            }
            z[li * n + c] = zc;
        }
    }
    for (int li = 0; li < m; ++li) rowOf[row[li]] = -1;
    // L D L^T in place of aj's lower triangle, then Y = L^-1 Z in place of z, row by row
    fcReal tolerance = world->def.pivotTolerance;
    for (int i = 0; i < m; ++i) {
        fcReal diagonal = aj[i * m + i];
        for (int j = 0; j <= i; ++j) {
            fcReal s = aj[i * m + j];
            for (int k = 0; k < j; ++k) s -= aj[i * m + k] * aj[j * m + k] * d[k];
            if (j < i) {
                aj[i * m + j] = d[j] != 0 ? s / d[j] : 0;
            } else {
                d[i] = s > tolerance * diagonal && s > 0 ? s : 0;
                if (d[i] == 0)
                    for (int k = 0; k < i; ++k) aj[i * m + k] = 0;  // dropped: its impulse is 0, as in the sparse solve
            }
        }
        for (int c = 0; c < n; ++c) {
            fcReal s = z[i * n + c];
            for (int k = 0; k < i; ++k) s -= aj[i * m + k] * z[k * n + c];
            z[i * n + c] = s;
        }
    }
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j) {
            fcReal s = 0;
            for (int k = 0; k < m; ++k)
                if (d[k] != 0) s += z[k * n + i] * z[k * n + j] / d[k];
            a[i * n + j] -= s;
            a[j * n + i] = a[i * n + j];
        }
}

// One island: A at the substep's lever arms (through its joints: W) and q = (J v - bias) - A lambda_0 at the current
// velocities and impulses, the LCP by Murty's principal pivoting (the least index that breaks complementarity
// changes sides: finite for the positive definite regularized A), started from the rows that push now; then lambda
// and the velocities updated. Returns false (changing nothing) if the pivoting did not finish.
static bool fcExact_SolveIsland(fcWorld* world, const fcExactRow* rows, int n, const int* blocks, int blockCount)
{
    fcContactSet* set = &world->contacts;
    const int square = FC_EXACT_MOST_ROWS * FC_EXACT_MOST_ROWS;
    fcReal* a = set->exactMatrices;
    fcReal* l = a + square;
    fcReal q[FC_EXACT_MOST_ROWS], lambda[FC_EXACT_MOST_ROWS], w[FC_EXACT_MOST_ROWS] = {0}, lambda0[FC_EXACT_MOST_ROWS];
    bool pushed[FC_EXACT_MOST_ROWS], held[FC_EXACT_MOST_ROWS];
    fcExactSide side[FC_EXACT_MOST_ROWS][2];
    fcVec3 normal[FC_EXACT_MOST_ROWS];
    fcReal scale = 0;
    for (int i = 0; i < n; ++i) {
        fcExact_Sides(set, rows + i, side[i], normal + i);
        const fcContactBlock* blk = set->blocks + rows[i].block;
        const fcContactPoint4* sp = blk->point + rows[i].point;
        int lane = rows[i].lane;
        lambda0[i] = sp->normalImpulse[lane];
        fcReal u = -sp->bias[lane];
        for (int s = 0; s < 2; ++s) {
            const fcSolverBody* b = set->solverBodies + side[i][s].body;
            u += side[i][s].sign * fcVec3_Dot(normal[i], b->v) + side[i][s].sign * fcVec3_Dot(side[i][s].ang, b->w);
        }
        q[i] = u;
        scale = fmax(scale, FC_FABS(u));
    }
    fcExact_Assemble((const fcExactSide(*)[2])side, normal, n, a);
    fcReal unjointed[FC_EXACT_MOST_ROWS];  // A's diagonal: the rows' response without the joints
    for (int i = 0; i < n; ++i) unjointed[i] = a[i * n + i];
    if (blockCount > 0)
        fcExact_ThroughJoints(world, (const fcExactSide(*)[2])side, normal, n, blocks, blockCount, a, l + square,
                              l + 2 * square, l + 3 * square);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) q[i] -= a[i * n + j] * lambda0[j];
        // a row the joints hold (a platform at its stop on the ground) moves nothing: the sweeps keep its impulse (W_ii
        // is then round-off of A_ii)
        held[i] = !(a[i * n + i] > fmax(1e-9, 1000 * FC_EPSILON) * unjointed[i]);
        pushed[i] = lambda0[i] > 0 && !held[i];
        scale = fmax(scale, FC_FABS(q[i]));  // at rest J v - bias is 0, and q is A lambda_0: the sizes w is made of
    }
    for (int i = 0; i < n; ++i) {
        if (!held[i]) continue;
        for (int j = 0; j < n; ++j) a[i * n + j] = a[j * n + i] = 0;
        a[i * n + i] = 1, q[i] = 0;
    }
    // a row is pulling, or apart and approaching by more than round-off
    fcReal tolerance = FC_EXACT_TOLERANCE * (scale > 0 ? scale : 1);
    bool done = false;
    fcReal refined = 0, largest = 0;  // the refinement's largest change, the largest impulse
    for (int pivot = 0; pivot < 4 * n + 8 && !done; ++pivot) {
        if (!fcExact_Factor(a, l, pushed, n)) return false;
        for (int i = 0; i < n; ++i) w[i] = -q[i];
        fcExact_Solve(l, pushed, n, w, lambda);
        // one step of iterative refinement takes out the regularization's error, eps A_ii lambda_i on each row
        // (else the sweeps see a residual of about 1e-9 of the load and never stop early)
        for (int i = 0; i < n; ++i) {
            fcReal r = -q[i];
            for (int j = 0; j < n; ++j) r -= a[i * n + j] * lambda[j];
            w[i] = pushed[i] ? r : 0;
        }
        fcExact_Solve(l, pushed, n, w, w);
        refined = 0, largest = 0;
        for (int i = 0; i < n; ++i) {
            lambda[i] += w[i];
            refined = fmax(refined, FC_FABS(w[i]));
            largest = fmax(largest, FC_FABS(lambda[i]));
        }
        done = true;
        for (int i = 0; i < n && done; ++i) {
            fcReal wi = q[i];
            for (int j = 0; j < n; ++j) wi += a[i * n + j] * lambda[j];
            w[i] = wi;
            if (pushed[i] ? lambda[i] < 0 : wi < -tolerance) {
                pushed[i] = !pushed[i];
                done = false;
            }
        }
    }
    // These rows may have no solution: a kinematic body squeezing the island (A is singular along the squeeze
    // and q points against it). The regularized solve then answers with impulses of about q / (1e-9 A_ii), a
    // billion times too large, which the refinement about doubles (where the rows have a solution it moves them
    // by some 1e-9); the rows that push are left approaching or parting. The sweeps take such an island.
    if (!done || refined > 1e-3 * largest) return false;
    for (int i = 0; i < n; ++i)  // w is of the final lambda: the last pivot's check ran through every row
        if (pushed[i] && FC_FABS(w[i]) > 100 * tolerance) return false;
    for (int i = 0; i < n; ++i) {
        if (held[i]) continue;
        fcContactBlock* blk = set->blocks + rows[i].block;
        fcContactPoint4* sp = blk->point + rows[i].point;
        int lane = rows[i].lane;
        fcReal delta = lambda[i] - lambda0[i];
        sp->normalImpulse[lane] = lambda[i];
        // as the sweep's: the impulse the row asked for before clamping (negative: it wanted to pull)
        sp->trialImpulse[lane] = a[i * n + i] > 0 ? lambda[i] - w[i] / a[i * n + i] : lambda[i];
        for (int s = 0; s < 2; ++s) {
            const fcExactSide* x = &side[i][s];
            if (x->moved == 0) continue;
            fcSolverBody* b = set->solverBodies + x->moved;
            b->v = fcVec3_MulAdd(b->v, x->sign * x->invMass * delta, normal[i]);
            b->w = fcVec3_MulAdd(b->w, x->sign * delta, x->iang);
        }
    }
    return true;
}

bool fcContacts_SolveExact(fcWorld* world)
{
    fcContactSet* set = &world->contacts;
    int solved = 0;  // the rows of the islands solved (the stat: the step's last substep's)
    bool throughJoints = false;
    for (int k = 0; k < set->exactIslandCount; ++k) {
        int first = set->exactIslands[k], n = set->exactIslands[k + 1] - first;
        int jointFirst = set->exactJointIslands[k], blocks = set->exactJointIslands[k + 1] - jointFirst;
        const int* joints = blocks > 0 ? set->exactJointBlocks + jointFirst : NULL;
        if (fcExact_SolveIsland(world, set->exactRows + first, n, joints, blocks)) {
            solved += n;
            throughJoints = throughJoints || blocks > 0;
        }
    }
    world->stats.contactExactPoints = solved;
    return throughJoints;
}
