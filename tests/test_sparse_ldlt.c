// SPDX-License-Identifier: MIT
// Sparse LDL^T against dense references on random mechanisms: trees (zero fill), loops (fill), redundant
// loops (dropped rows), blocks of up to 12 rows (cut into panels), a long chain (linear time), and
// re-analysis / freeing.
#include "core.h"
#include "sparse_ldlt.h"
#include "test_macros.h"

#include <stdint.h>

#ifdef FC_FLOAT
// The tolerances below are double-precision ones (and the matrices are built in double).
int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    puts("test_sparse_ldlt: skipped under FC_FLOAT");
    TEST_MAIN_END();
}
#else

// ---------------------------------------------------------------------------------------------------------------------
// Deterministic PRNG (splitmix64)
// ---------------------------------------------------------------------------------------------------------------------

static uint64_t s_rng = 0x243F6A8885A308D3ull;

static void Seed(uint64_t s) { s_rng = s * 0x9E3779B97F4A7C15ull + 0x1234567ull; }

static uint64_t NextU64(void)
{
    uint64_t z = (s_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Uniform in [0, 1).
static double Uniform(void) { return (double)(NextU64() >> 11) * (1.0 / 9007199254740992.0); }
static double Symmetric(void) { return 2 * Uniform() - 1; }
// Uniform integer in [lo, hi].
static int RandInt(int lo, int hi) { return lo + (int)(NextU64() % (uint64_t)(hi - lo + 1)); }

// ---------------------------------------------------------------------------------------------------------------------
// Mechanisms: bodies with an SPD 6x6 inverse mass, joints with 1..6 Jacobian rows of 12 numbers (6 per body)
// ---------------------------------------------------------------------------------------------------------------------

typedef struct Joint {
    int body[2];      // -1 = world
    int rows;
    double J[6][12];  // row r: J[r][0..5] on body[0], J[r][6..11] on body[1]
} Joint;

typedef struct Mech {
    int bodyCount, jointCount, jointCapacity;
    double* minv;  // (bodyCount * 36)
    Joint* joints;
    double compliance;  // added to every diagonal entry
    bool twinBlocks;    // joints 2i and 2i + 1 (between the same bodies) form one block
} Mech;

static void MechInit(Mech* m, int bodyCount, int jointCapacity, double compliance)
{
    m->bodyCount = bodyCount;
    m->jointCount = 0;
    m->jointCapacity = jointCapacity;
    m->minv = fcAlloc((size_t)(bodyCount > 0 ? bodyCount : 1) * 36 * sizeof(double));
    m->joints = fcAllocZeroed((size_t)(jointCapacity > 0 ? jointCapacity : 1) * sizeof(Joint));
    m->compliance = compliance;
    m->twinBlocks = false;
    // body b: M^-1 = B B^T / 6 + 0.2 I with B random: SPD, eigenvalues in about [0.2, 5]
    for (int b = 0; b < bodyCount; b++) {
        double B[36], *W = m->minv + 36 * b;
        // B_rc uniform in [-1, 1]
        for (int e = 0; e < 36; e++) B[e] = Symmetric();
        // W_rc = sum_t B_rt B_ct / 6 + 0.2 delta_rc
        for (int r = 0; r < 6; r++)
            for (int c = 0; c < 6; c++) {
                double s = 0;
                for (int t = 0; t < 6; t++) s += B[6 * r + t] * B[6 * c + t];
                W[6 * r + c] = s / 6 + (r == c ? 0.2 : 0);
            }
    }
}

static void MechFree(Mech* m)
{
    fcFree(m->minv);
    fcFree(m->joints);
    memset(m, 0, sizeof *m);
}

// A joint between bodies a and b (-1 = world) with `rows` random Jacobian rows.
static Joint* AddJoint(Mech* m, int a, int b, int rows)
{
    if (m->jointCount >= m->jointCapacity) {
        fprintf(stderr, "test mechanism over capacity\n");
        abort();
    }
    Joint* j = &m->joints[m->jointCount++];
    j->body[0] = a;
    j->body[1] = b;
    j->rows = rows;
    // J_rc uniform in [-1, 1] (world entries are ignored)
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < 12; c++) j->J[r][c] = Symmetric();
    // like real constraint axes, each side's rows are orthonormal (Gram-Schmidt), the second side scaled by
    // a random factor: the joint's own block is then well conditioned
    for (int side = 0; side < 2; side++) {
        double scale = side ? 0.5 + 0.5 * Uniform() : 1.0;
        for (int r = 0; r < rows; r++) {
            double* v = &j->J[r][6 * side];
            // v -= (v . u_t) u_t for the earlier rows t
            for (int t = 0; t < r; t++) {
                const double* w = &j->J[t][6 * side];
                double d = 0;
                for (int c = 0; c < 6; c++) d += v[c] * w[c] / (side ? scale : 1.0);
                for (int c = 0; c < 6; c++) v[c] -= d * w[c] / (side ? scale : 1.0);
            }
            double len = 0;
            for (int c = 0; c < 6; c++) len += v[c] * v[c];
            len = sqrt(len);
            for (int c = 0; c < 6; c++) v[c] *= scale / len;
        }
    }
    return j;
}

// Random joint order, so the input order is not an elimination order (entries then land above the diagonal).
static void ShuffleJoints(Mech* m)
{
    // Fisher-Yates: swap joint i with a random joint in 0..i
    for (int i = m->jointCount - 1; i > 0; i--) {
        int k = RandInt(0, i);
        Joint t = m->joints[i];
        m->joints[i] = m->joints[k];
        m->joints[k] = t;
    }
}

// Body tree topologies; every body has exactly one joint to its parent (or the world).
enum { kChain, kStar, kRandomTree, kBinaryTree, kTopologyCount };

// Adds a tree over bodies first .. first + count - 1; the root attaches to the world (or to `root` if >= 0).
static void AddTree(Mech* m, int topology, int first, int count, int root, int minRows, int maxRows)
{
    // body first + k: its joint to the parent chosen by the topology
    for (int k = 0; k < count; k++) {
        int parent;
        if (k == 0) parent = root;
        else if (topology == kChain) parent = first + k - 1;
        else if (topology == kStar) parent = first;
        else if (topology == kBinaryTree) parent = first + (k - 1) / 2;
        else parent = Uniform() < 0.05 ? -1 : first + RandInt(0, k - 1);
        // child first so the child's block dominates; randomly swap the two sides
        if (Uniform() < 0.5) AddJoint(m, first + k, parent, RandInt(minRows, maxRows));
        else AddJoint(m, parent, first + k, RandInt(minRows, maxRows));
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// The matrix A = J M^-1 J^T + compliance I as the engine builds it: lower triangle, CSR, one block per joint
// ---------------------------------------------------------------------------------------------------------------------

typedef struct Csr {
    int n, nnz, blockCount;
    int *rownnz, *rowadr, *colind;
    double* val;
    int *blockadr, *blocksize;
    int* rowJoint;  // (n) joint of each row
    int* rowIndex;  // (n) row of that joint
} Csr;

// A_ij for row r of joint p and row s of joint q: sum over shared bodies of J_pr M^-1 J_qs^T (+ compliance).
static double Entry(const Mech* m, int p, int r, int q, int s)
{
    const Joint *jp = &m->joints[p], *jq = &m->joints[q];
    double sum = 0;
    // sides a of p and c of q on the same (non-world) body
    for (int a = 0; a < 2; a++)
        for (int c = 0; c < 2; c++) {
            int body = jp->body[a];
            if (body < 0 || body != jq->body[c]) continue;
            const double* W = m->minv + 36 * body;
            // sum_uv J_pr,u W_uv J_qs,v
            for (int u = 0; u < 6; u++) {
                double t = 0;
                for (int v = 0; v < 6; v++) t += W[6 * u + v] * jq->J[s][6 * c + v];
                sum += jp->J[r][6 * a + u] * t;
            }
        }
    if (p == q && r == s) sum += m->compliance;
    return sum;
}

static void CsrFree(Csr* a)
{
    fcFree(a->rownnz);
    fcFree(a->rowadr);
    fcFree(a->colind);
    fcFree(a->val);
    fcFree(a->blockadr);
    fcFree(a->blocksize);
    fcFree(a->rowJoint);
    fcFree(a->rowIndex);
    memset(a, 0, sizeof *a);
}

// Lower-triangle CSR of A: joint p's rows hold all rows of the earlier joints sharing a body, then p's own rows.
static void BuildCsr(const Mech* m, Csr* a)
{
    int nj = m->jointCount, nb = m->bodyCount;
    a->blockCount = nj;
    a->blockadr = fcAlloc((size_t)(nj + 1) * sizeof(int));
    a->blocksize = fcAlloc((size_t)(nj + 1) * sizeof(int));
    a->n = 0;
    // block p: rows n .. n + rows(p)
    for (int p = 0; p < nj; p++) {
        a->blockadr[p] = a->n;
        a->blocksize[p] = m->joints[p].rows;
        a->n += m->joints[p].rows;
    }
    int n = a->n;
    a->rownnz = fcAlloc((size_t)(n + 1) * sizeof(int));
    a->rowadr = fcAlloc((size_t)(n + 1) * sizeof(int));
    a->rowJoint = fcAlloc((size_t)(n + 1) * sizeof(int));
    a->rowIndex = fcAlloc((size_t)(n + 1) * sizeof(int));
    // incidence: joints of each body, body b's list at bodyjoint[bodyadr[b] .. bodyadr[b] + bodycount[b])
    int* bodyadr = fcAllocZeroed((size_t)(nb + 1) * sizeof(int));
    int* bodycount = fcAllocZeroed((size_t)(nb + 1) * sizeof(int));
    int* bodyjoint = fcAlloc((size_t)(2 * nj + 1) * sizeof(int));
    int* mark = fcAlloc((size_t)(nj + 1) * sizeof(int));
    int* nbr = fcAlloc((size_t)(2 * nj + 1) * sizeof(int));
    // bodyadr[b] = 2 * (joints touching the bodies before b): room for both sides
    for (int p = 0; p < nj; p++)
        for (int s = 0; s < 2; s++)
            if (m->joints[p].body[s] >= 0) bodycount[m->joints[p].body[s]]++;
    for (int b = 1; b < nb; b++) bodyadr[b] = bodyadr[b - 1] + bodycount[b - 1];
    for (int b = 0; b < nb; b++) bodycount[b] = 0;
    // list joint p under each of its bodies
    for (int p = 0; p < nj; p++)
        for (int s = 0; s < 2; s++) {
            int b = m->joints[p].body[s];
            if (b >= 0) bodyjoint[bodyadr[b] + bodycount[b]++] = p;
        }
    for (int p = 0; p < nj; p++) mark[p] = -1;
    // two passes: count the entries, then store them
    for (int pass = 0; pass < 2; pass++) {
        int count = 0;
        for (int p = 0; p < nj; p++) {
            const Joint* jp = &m->joints[p];
            int nn = 0;
            mark[p] = 2 * p + pass;
            // earlier joints q sharing a body with p, deduplicated
            for (int s = 0; s < 2; s++) {
                int b = jp->body[s];
                if (b < 0) continue;
                for (int t = bodyadr[b]; t < bodyadr[b] + bodycount[b]; t++) {
                    int q = bodyjoint[t];
                    if (q < p && mark[q] != 2 * p + pass) {
                        mark[q] = 2 * p + pass;
                        nbr[nn++] = q;
                    }
                }
            }
            // sort the neighbor joints ascending (insertion sort, few neighbors)
            for (int x = 1; x < nn; x++)
                for (int y = x; y > 0 && nbr[y - 1] > nbr[y]; y--) {
                    int t = nbr[y];
                    nbr[y] = nbr[y - 1];
                    nbr[y - 1] = t;
                }
            for (int r = 0; r < jp->rows; r++) {
                int i = a->blockadr[p] + r;
                if (pass) {
                    a->rowadr[i] = count;
                    a->rowJoint[i] = p;
                    a->rowIndex[i] = r;
                }
                int start = count;
                for (int t = 0; t < nn; t++)
                    for (int s = 0; s < m->joints[nbr[t]].rows; s++) {
                        if (pass) {
                            a->colind[count] = a->blockadr[nbr[t]] + s;
                            a->val[count] = Entry(m, p, r, nbr[t], s);
                        }
                        count++;
                    }
                for (int s = 0; s <= r; s++) {
                    if (pass) {
                        a->colind[count] = a->blockadr[p] + s;
                        a->val[count] = Entry(m, p, r, p, s);
                    }
                    count++;
                }
                if (pass) a->rownnz[i] = count - start;
            }
        }
        if (!pass) {
            a->nnz = count;
            a->colind = fcAlloc((size_t)(count + 1) * sizeof(int));
            a->val = fcAlloc((size_t)(count + 1) * sizeof(double));
            for (int p = 0; p < nj; p++) mark[p] = -1;
        }
    }
    fcFree(nbr);
    fcFree(mark);
    fcFree(bodyjoint);
    fcFree(bodycount);
    fcFree(bodyadr);
    if (m->twinBlocks) {
        // block p = the rows of joints 2p and 2p + 1, consecutive; the pattern stays dense within and between blocks
        a->blockCount = nj / 2;
        for (int p = 0; p < nj / 2; p++) {
            a->blockadr[p] = a->blockadr[2 * p];
            a->blocksize[p] = m->joints[2 * p].rows + m->joints[2 * p + 1].rows;
        }
    }
}

// y = A x with A symmetric, stored as its lower triangle.
static void CsrMul(const Csr* a, const double* x, double* y)
{
    for (int i = 0; i < a->n; i++) y[i] = 0;
    for (int i = 0; i < a->n; i++)
        for (int p = a->rowadr[i]; p < a->rowadr[i] + a->rownnz[i]; p++) {
            int j = a->colind[p];
            y[i] += a->val[p] * x[j];
            if (j != i) y[j] += a->val[p] * x[i];
        }
}

static double MaxAbs(const double* x, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fabs(x[i]) > m ? fabs(x[i]) : m;
    return m;
}

static double Norm2(const double* x, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

// ||A x - b|| / ||b||
static double RelResidual(const Csr* a, const double* x, const double* b)
{
    double* r = fcAlloc((size_t)(a->n + 1) * sizeof(double));
    CsrMul(a, x, r);
    for (int i = 0; i < a->n; i++) r[i] -= b[i];
    double res = Norm2(r, a->n) / Norm2(b, a->n);
    fcFree(r);
    return res;
}

// ---------------------------------------------------------------------------------------------------------------------
// Checks of the analysis against the contract
// ---------------------------------------------------------------------------------------------------------------------

// Permutations, block contiguity, pattern shape and amap (including the transposed slots). Returns 0 when valid.
static int CheckStructure(const fcSparseLdlt* f, const Csr* a, int* transposedOut)
{
    int n = a->n;
    ENSURE(f->n == n && f->blockCount == a->blockCount && f->nnzA == a->nnz);
    int* seen = fcAllocZeroed((size_t)(n + a->blockCount + 1) * sizeof(int));
    int bad = 0;
    for (int k = 0; k < n && !bad; k++) {
        int i = f->perm[k];
        bad |= i < 0 || i >= n || seen[i] || f->iperm[i] != k;
        if (!bad) seen[i] = 1;
    }
    // blocks: blockPerm a permutation, and its rows consecutive in original internal order
    for (int b = 0; b < a->blockCount; b++) seen[b] = 0;
    int k = 0;
    for (int K = 0; K < a->blockCount && !bad; K++) {
        int b = f->blockPerm[K];
        bad |= b < 0 || b >= a->blockCount || seen[b];
        if (bad) break;
        seen[b] = 1;
        for (int r = 0; r < a->blocksize[b]; r++, k++) bad |= f->perm[k] != a->blockadr[b] + r;
    }
    fcFree(seen);
    ENSURE(!bad && k == n);
    // pattern: rows contiguous, columns strictly ascending and below the diagonal
    long long total = 0;
    for (int r = 0; r < n; r++) {
        ENSURE(f->rowadr[r] == total && f->rownnz[r] >= 0);
        for (int p = f->rowadr[r]; p < f->rowadr[r] + f->rownnz[r]; p++) {
            ENSURE(f->colind[p] >= 0 && f->colind[p] < r);
            if (p > f->rowadr[r]) ENSURE(f->colind[p - 1] < f->colind[p]);
        }
        total += f->rownnz[r];
    }
    ENSURE(total == f->nnzL);
    int strictA = 0, transposed = 0;
    // amap: every input entry lands on its own slot, (max, min) of the permuted indices
    for (int i = 0; i < n; i++)
        for (int p = a->rowadr[i]; p < a->rowadr[i] + a->rownnz[i]; p++) {
            int j = a->colind[p], ki = f->iperm[i], kj = f->iperm[j], s = f->amap[p];
            if (i == j) {
                ENSURE(s == -1 - ki);
                continue;
            }
            strictA++;
            int hi = ki > kj ? ki : kj, lo = ki > kj ? kj : ki;
            transposed += ki < kj;
            ENSURE(s >= f->rowadr[hi] && s < f->rowadr[hi] + f->rownnz[hi]);
            ENSURE(f->colind[s] == lo);
        }
    ENSURE(f->fill == f->nnzL - strictA);
    ENSURE(f->fill >= 0);
    if (transposedOut) *transposedOut += transposed;
    return 0;
}

// Dense LDL^T of P A P^T (no pivoting), filled from the CSR; returns the dense factor in Ld (n x n, unit lower
// strict part) and Dd.
static void DenseLdlt(const Csr* a, const fcSparseLdlt* f, double* Ld, double* Dd)
{
    int n = a->n;
    memset(Ld, 0, (size_t)n * (size_t)n * sizeof(double));
    // Ld holds P A P^T's lower triangle first
    for (int i = 0; i < n; i++)
        for (int p = a->rowadr[i]; p < a->rowadr[i] + a->rownnz[i]; p++) {
            int ki = f->iperm[i], kj = f->iperm[a->colind[p]];
            if (ki >= kj) Ld[(size_t)ki * n + kj] = a->val[p];
            else Ld[(size_t)kj * n + ki] = a->val[p];
        }
    // column j: D_j = a_jj - sum_m L_jm^2 D_m; L_ij = (a_ij - sum_m L_im L_jm D_m) / D_j
    for (int j = 0; j < n; j++) {
        double d = Ld[(size_t)j * n + j];
        for (int m = 0; m < j; m++) d -= Ld[(size_t)j * n + m] * Ld[(size_t)j * n + m] * Dd[m];
        Dd[j] = d;
        Ld[(size_t)j * n + j] = 0;
        double* w = fcAlloc((size_t)(j + 1) * sizeof(double));
        for (int m = 0; m < j; m++) w[m] = Ld[(size_t)j * n + m] * Dd[m];
        for (int i = j + 1; i < n; i++) {
            double s = Ld[(size_t)i * n + j];
            const double* Li = Ld + (size_t)i * n;
            for (int m = 0; m < j; m++) s -= Li[m] * w[m];
            Ld[(size_t)i * n + j] = s / d;
        }
        fcFree(w);
    }
}

// Solve with the dense factor of P A P^T: x = P^T (L D L^T)^-1 P b.
static void DenseSolve(const fcSparseLdlt* f, int n, const double* Ld, const double* Dd, const double* b, double* x)
{
    double* w = fcAlloc((size_t)(n + 1) * sizeof(double));
    for (int k = 0; k < n; k++) w[k] = b[f->perm[k]];
    for (int k = 0; k < n; k++)
        for (int m = 0; m < k; m++) w[k] -= Ld[(size_t)k * n + m] * w[m];
    for (int k = 0; k < n; k++) w[k] /= Dd[k];
    for (int k = n - 1; k >= 0; k--)
        for (int i = k + 1; i < n; i++) w[k] -= Ld[(size_t)i * n + k] * w[i];
    for (int k = 0; k < n; k++) x[f->perm[k]] = w[k];
    fcFree(w);
}

// Worst residual and dense disagreement seen by CheckMechanism since the last reset (printed as margins).
static double s_worstResidual = 0, s_worstAgreement = 0;

// Full check of one nonsingular mechanism: structure, factor entries vs. dense (and dense zeros outside the
// pattern: a missed fill entry fails here), residual and agreement of the solutions.
static int CheckMechanism(const Mech* m, bool expectZeroFill, int* fillOut, int* transposedOut)
{
    Csr a;
    BuildCsr(m, &a);
    int n = a.n;
    fcSparseLdlt f;
    memset(&f, 0, sizeof f);
    ENSURE(fcLdlt_Analyze(&f, n, a.rownnz, a.rowadr, a.colind, a.blockCount, a.blockadr, a.blocksize));
    if (CheckStructure(&f, &a, transposedOut)) return 1;
    if (expectZeroFill) ENSURE(f.fill == 0);
    if (fillOut) *fillOut += f.fill;
    ENSURE(fcLdlt_Factor(&f, a.val, 1e-12) == 0);
    ENSURE(f.dropped == 0);

    double* Ld = fcAlloc((size_t)n * (size_t)n * sizeof(double) + 1);
    double* Dd = fcAlloc((size_t)(n + 1) * sizeof(double));
    DenseLdlt(&a, &f, Ld, Dd);
    // factor entries agree with the dense factor; dense entries outside the pattern are exactly zero
    char* inPattern = fcAllocZeroed((size_t)n + 1);
    double lmax = 0;
    // D_k to round-off of its original diagonal a_kk (a small pivot loses digits relative to itself)
    for (int k = 0; k < n; k++) {
        double akk = 0;
        for (int p = a.rowadr[f.perm[k]]; p < a.rowadr[f.perm[k]] + a.rownnz[f.perm[k]]; p++)
            if (a.colind[p] == f.perm[k]) akk = a.val[p];
        ENSURE_NEAR(f.D[k], Dd[k], 1e-9 * fabs(Dd[k]) + 1e-12 * akk);
        for (int p = f.rowadr[k]; p < f.rowadr[k] + f.rownnz[k]; p++) {
            double ref = Ld[(size_t)k * n + f.colind[p]];
            ENSURE_NEAR(f.L[p], ref, 1e-8 * (1 + fabs(ref)));
            inPattern[f.colind[p]] = 1;
            lmax = fabs(ref) > lmax ? fabs(ref) : lmax;
        }
        for (int j = 0; j < k; j++) {
            if (!inPattern[j]) ENSURE(Ld[(size_t)k * n + j] == 0.0);
            inPattern[j] = 0;
        }
    }
    fcFree(inPattern);

    double* x0 = fcAlloc((size_t)(n + 1) * sizeof(double));
    double* b = fcAlloc((size_t)(n + 1) * sizeof(double));
    double* x = fcAlloc((size_t)(n + 1) * sizeof(double));
    double* xd = fcAlloc((size_t)(n + 1) * sizeof(double));
    for (int i = 0; i < n; i++) x0[i] = Symmetric();
    CsrMul(&a, x0, b);
    memcpy(x, b, (size_t)n * sizeof(double));
    fcLdlt_Solve(&f, x);
    DenseSolve(&f, n, Ld, Dd, b, xd);
    double res = RelResidual(&a, x, b);
    double diff = 0;
    for (int i = 0; i < n; i++) diff = fabs(x[i] - xd[i]) > diff ? fabs(x[i] - xd[i]) : diff;
    double agree = diff / MaxAbs(xd, n);
    ENSURE_LE(res, 1e-10);
    ENSURE_LE(agree, 1e-9);
    s_worstResidual = res > s_worstResidual ? res : s_worstResidual;
    s_worstAgreement = agree > s_worstAgreement ? agree : s_worstAgreement;

    fcFree(xd);
    fcFree(x);
    fcFree(b);
    fcFree(x0);
    fcFree(Dd);
    fcFree(Ld);
    fcLdlt_Free(&f);
    CsrFree(&a);
    return 0;
}

// ---------------------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------------------

// 1. Trees of 1..200 joints (chains, stars, random, binary): zero fill, exact factor, residual, dense agreement.
static int test_trees(void)
{
    int cases = 0, transposed = 0;
    s_worstResidual = s_worstAgreement = 0;
    for (int topology = 0; topology < kTopologyCount; topology++) {
        for (int rep = 0; rep < 8; rep++) {
            Seed(1000 + 17 * (uint64_t)topology + (uint64_t)rep);
            int nj = rep == 0 ? 1 : rep == 1 ? 200 : RandInt(2, 200);
            if (topology == kStar && nj > 120) nj = 120;  // a star is one dense clique; keep the dense check quick
            Mech m;
            MechInit(&m, nj, nj, rep % 2 ? 0.0 : 1e-4 * Uniform());
            AddTree(&m, topology, 0, nj, -1, 1, 6);
            ShuffleJoints(&m);
            if (CheckMechanism(&m, true, NULL, &transposed)) {
                fprintf(stderr, "  topology %d rep %d (%d joints)\n", topology, rep, nj);
                return 1;
            }
            MechFree(&m);
            cases++;
        }
    }
    // the shuffled input orders must exercise the transposed amap slots
    ENSURE(transposed > 0);
    printf("  %d trees, %d input entries mapped to transposed slots, worst residual %.2g, worst |x - x_dense| %.2g\n",
           cases, transposed, s_worstResidual, s_worstAgreement);
    return 0;
}

// 2. Trees plus joints closing loops (non-chordal block graphs): fill reported and exact, same accuracy.
static int test_loops(void)
{
    int cases = 0, fill = 0;
    s_worstResidual = s_worstAgreement = 0;
    for (int rep = 0; rep < 24; rep++) {
        Seed(5000 + (uint64_t)rep);
        int nb = rep < 2 ? 4 + rep : RandInt(3, 160);
        int extra = RandInt(1, nb / 4 + 1);
        Mech m;
        MechInit(&m, nb, nb + extra, 1e-3 + 1e-3 * Uniform());
        AddTree(&m, rep % kTopologyCount == kStar ? kRandomTree : rep % kTopologyCount, 0, nb, -1, 1, 6);
        // loop-closing joints between two distinct random bodies
        for (int e = 0; e < extra; e++) {
            int a = RandInt(0, nb - 1), b = RandInt(0, nb - 2);
            if (b >= a) b++;
            AddJoint(&m, a, b, RandInt(1, 6));
        }
        ShuffleJoints(&m);
        if (CheckMechanism(&m, false, &fill, NULL)) {
            fprintf(stderr, "  loop rep %d (%d bodies, %d joints)\n", rep, nb, m.jointCount);
            return 1;
        }
        MechFree(&m);
        cases++;
    }
    // the loop graphs must really produce fill (and the dense zero test above covers every fill entry)
    ENSURE(fill > 0);
    // ordering quality on these fixed seeds: minimum degree gives about 25k fill, the plain MCS order about
    // 91k; the bound catches a non-chordal graph left on the MCS order (or a much worse ordering)
    ENSURE_LE(fill, 40000);
    printf("  %d loop graphs, total fill %d, worst residual %.2g, worst |x - x_dense| %.2g\n", cases, fill,
           s_worstResidual, s_worstAgreement);
    return 0;
}

// Rank deficiency of A by dense Cholesky with diagonal pivoting: stops when the largest remaining pivot is
// below 1e-9 times the largest diagonal of A.
static int DenseDeficiency(const Csr* a)
{
    int n = a->n;
    double* S = fcAllocZeroed((size_t)n * (size_t)n * sizeof(double) + 1);
    // S = A (both triangles)
    for (int i = 0; i < n; i++)
        for (int p = a->rowadr[i]; p < a->rowadr[i] + a->rownnz[i]; p++)
            S[(size_t)i * n + a->colind[p]] = S[(size_t)a->colind[p] * n + i] = a->val[p];
    double dmax = 0;
    for (int i = 0; i < n; i++) dmax = S[(size_t)i * n + i] > dmax ? S[(size_t)i * n + i] : dmax;
    char* done = fcAllocZeroed((size_t)n + 1);
    int rank = 0;
    for (; rank < n; rank++) {
        int piv = -1;
        for (int i = 0; i < n; i++)
            if (!done[i] && (piv < 0 || S[(size_t)i * n + i] > S[(size_t)piv * n + piv])) piv = i;
        double d = S[(size_t)piv * n + piv];
        if (!(d > 1e-9 * dmax)) break;
        done[piv] = 1;
        // Schur complement: S_ij -= S_i,piv S_piv,j / d over the remaining i, j
        for (int i = 0; i < n; i++) {
            if (done[i]) continue;
            double li = S[(size_t)i * n + piv] / d;
            for (int j = 0; j < n; j++)
                if (!done[j]) S[(size_t)i * n + j] -= li * S[(size_t)piv * n + j];
        }
    }
    fcFree(done);
    fcFree(S);
    return n - rank;
}

// One singular mechanism with a consistent right-hand side: finite, dropped == deficiency, small residual,
// dropped rows solved as 0.
static int CheckRedundant(const Mech* m, int deficiency, const char* what)
{
    Csr a;
    BuildCsr(m, &a);
    int n = a.n;
    fcSparseLdlt f;
    memset(&f, 0, sizeof f);
    ENSURE(fcLdlt_Analyze(&f, n, a.rownnz, a.rowadr, a.colind, a.blockCount, a.blockadr, a.blocksize));
    if (CheckStructure(&f, &a, NULL)) return 1;
    // the construction's deficiency is the true one
    ENSURE(DenseDeficiency(&a) == deficiency);
    int dropped = fcLdlt_Factor(&f, a.val, 1e-9);
    ENSURE(dropped == f.dropped);
    if (dropped != deficiency) fprintf(stderr, "  %s: dropped %d, deficiency %d\n", what, dropped, deficiency);
    ENSURE(dropped == deficiency);
    for (int k = 0; k < n; k++) ENSURE(isfinite(f.D[k]) && f.D[k] >= 0);
    for (int p = 0; p < f.nnzL; p++) ENSURE(isfinite(f.L[p]));
    double* x0 = fcAlloc((size_t)(n + 1) * sizeof(double));
    double* b = fcAlloc((size_t)(n + 1) * sizeof(double));
    double* x = fcAlloc((size_t)(n + 1) * sizeof(double));
    for (int i = 0; i < n; i++) x0[i] = Symmetric();
    CsrMul(&a, x0, b);
    memcpy(x, b, (size_t)n * sizeof(double));
    fcLdlt_Solve(&f, x);
    for (int i = 0; i < n; i++) ENSURE(isfinite(x[i]));
    for (int k = 0; k < n; k++)
        if (f.D[k] == 0) ENSURE(x[f.perm[k]] == 0.0);
    double res = RelResidual(&a, x, b);
    ENSURE_LE(res, 1e-8);
    fcFree(x);
    fcFree(b);
    fcFree(x0);
    fcLdlt_Free(&f);
    CsrFree(&a);
    return 0;
}

// 3. Redundant loops: a duplicated joint (two identical joints between the same bodies) and a closed 4-bar
// whose four joints share relative-velocity rows (those rows sum to zero around the loop), no compliance.
static int test_redundant(void)
{
    for (int rep = 0; rep < 6; rep++) {
        Seed(9000 + (uint64_t)rep);
        // duplicated joint on a random tree
        int nb = RandInt(4, 60);
        Mech m;
        MechInit(&m, nb, nb + 1, 0.0);
        AddTree(&m, rep % 2 ? kChain : kRandomTree, 0, nb, -1, 1, 6);
        int src = RandInt(0, nb - 1);
        Joint copy = m.joints[src];
        *AddJoint(&m, copy.body[0], copy.body[1], copy.rows) = copy;
        ShuffleJoints(&m);
        if (CheckRedundant(&m, copy.rows, "duplicate joint")) return 1;
        MechFree(&m);
    }
    for (int rep = 0; rep < 6; rep++) {
        Seed(9500 + (uint64_t)rep);
        // at most 4 rows per loop joint: 16 + 3 rows on the loop's 24 velocity columns, so only the shared
        // rows are dependent
        int shared = 1 + rep % 3, own = RandInt(0, 4 - shared);
        int tail = RandInt(0, 30);
        Mech m;
        MechInit(&m, 4 + tail, 5 + tail, 0.0);
        // bodies 0..3 in a cycle; joint k: shared rows [u_s on body k, -u_s on body k+1], then its own rows
        double u[6][6];
        for (int s = 0; s < shared; s++)
            for (int c = 0; c < 6; c++) u[s][c] = Symmetric();
        for (int k = 0; k < 4; k++) {
            Joint* j = AddJoint(&m, k, (k + 1) % 4, shared + own);
            for (int s = 0; s < shared; s++)
                for (int c = 0; c < 6; c++) {
                    j->J[s][c] = u[s][c];
                    j->J[s][6 + c] = -u[s][c];
                }
        }
        // body 0 held by the world, and a chain hanging off body 2
        AddJoint(&m, 0, -1, RandInt(1, 3));
        if (tail > 0) AddTree(&m, kChain, 4, tail, 2, 1, 6);
        ShuffleJoints(&m);
        if (CheckRedundant(&m, shared, "4-bar")) return 1;
        MechFree(&m);
    }
    return 0;
}

// Twin joints on a tree over all bodies (chain or random tree, the root on the world): two joints between each
// body and its parent, together up to maxRows rows (12 at most), one block with twinBlocks. A twin on the world
// acts on one body's 6 velocities, so it gets 6 rows at most. Body `repeat` (> 0, or none) gets a joint of 4..6
// rows and the same joint again: a block of 8..12 rows, half of them redundant. Returns those repeated rows.
static int AddTwinTree(Mech* m, bool chain, int maxRows, int repeat)
{
    int repeated = 0;
    m->twinBlocks = true;
    // body k and its parent
    for (int k = 0; k < m->bodyCount; k++) {
        int parent = k == 0 ? -1 : chain ? k - 1 : RandInt(0, k - 1);
        int most = parent < 0 && maxRows > 6 ? 6 : maxRows;
        int a = RandInt(1, most < 12 ? most - 1 : 6), b = RandInt(1, most - a < 6 ? most - a : 6);
        if (k == repeat) {
            repeated = RandInt(4, 6);
            Joint* j = AddJoint(m, k, parent, repeated);
            *AddJoint(m, k, parent, repeated) = *j;
            continue;
        }
        AddJoint(m, k, parent, a);
        AddJoint(m, parent, k, b);
    }
    return repeated;
}

// Random order of the twin pairs (each pair stays consecutive).
static void ShuffleTwins(Mech* m)
{
    // Fisher-Yates on the pairs
    for (int i = m->jointCount / 2 - 1; i > 0; i--) {
        int k = RandInt(0, i);
        for (int t = 0; t < 2; t++) {
            Joint tmp = m->joints[2 * i + t];
            m->joints[2 * i + t] = m->joints[2 * k + t];
            m->joints[2 * k + t] = tmp;
        }
    }
}

// 4. Blocks of 2..12 rows, cut into panels of at most FC_LDLT_PANEL_ROWS: trees (zero fill), trees closed by
// twin pairs (fill), and a twin that repeats its partner's rows (rows dropped inside a block, in its later panel).
static int test_large_blocks(void)
{
    int big = 0, fill = 0;
    s_worstResidual = s_worstAgreement = 0;
    for (int rep = 0; rep < 12; rep++) {
        Seed(7000 + (uint64_t)rep);
        int nb = RandInt(2, 60), extra = rep < 6 ? 0 : RandInt(1, nb / 4 + 1);
        Mech m;
        MechInit(&m, nb, 2 * (nb + extra), 1e-4 * (1 + Uniform()));
        AddTwinTree(&m, rep % 3 == 0, 12, -1);
        // loop-closing twin pairs between two distinct random bodies
        for (int e = 0; e < extra; e++) {
            int a = RandInt(0, nb - 1), b = RandInt(0, nb - 2);
            if (b >= a) b++;
            AddJoint(&m, a, b, RandInt(1, 6));
            AddJoint(&m, b, a, RandInt(1, 6));
        }
        ShuffleTwins(&m);
        // blocks above a panel's rows
        for (int p = 0; p < m.jointCount; p += 2) big += m.joints[p].rows + m.joints[p + 1].rows > FC_LDLT_PANEL_ROWS;
        if (CheckMechanism(&m, extra == 0, &fill, NULL)) {
            fprintf(stderr, "  large blocks rep %d (%d bodies, %d twin pairs)\n", rep, nb, m.jointCount / 2);
            return 1;
        }
        MechFree(&m);
    }
    ENSURE(big > 100 && fill > 0);
    printf("  12 mechanisms, %d blocks above %d rows, fill %d, worst residual %.2g, worst |x - x_dense| %.2g\n", big,
           FC_LDLT_PANEL_ROWS, fill, s_worstResidual, s_worstAgreement);
    for (int rep = 0; rep < 4; rep++) {
        Seed(7500 + (uint64_t)rep);
        int nb = RandInt(3, 40);
        Mech m;
        MechInit(&m, nb, 2 * nb, 0.0);
        // 6 rows a body at most: only the repeated ones are dependent
        int rows = AddTwinTree(&m, rep % 2 == 0, 6, RandInt(1, nb - 1));
        ShuffleTwins(&m);
        if (CheckRedundant(&m, rows, "repeated twin")) return 1;
        MechFree(&m);
    }
    return 0;
}

// Build, analyze, factor and solve a chain of `links` joints with 3 rows; returns the factor+solve time (ms,
// best of `reps`) and checks zero fill and the residual.
static int ChainCase(int links, int reps, double compliance, double* analyzeMs, double* factorSolveMs)
{
    Seed(777 + (uint64_t)links);
    Mech m;
    MechInit(&m, links, links, compliance);
    AddTree(&m, kChain, 0, links, -1, 3, 3);
    ShuffleJoints(&m);
    Csr a;
    BuildCsr(&m, &a);
    int n = a.n;
    fcSparseLdlt f;
    memset(&f, 0, sizeof f);
    double t0 = fcNowMs();
    ENSURE(fcLdlt_Analyze(&f, n, a.rownnz, a.rowadr, a.colind, a.blockCount, a.blockadr, a.blocksize));
    *analyzeMs = fcNowMs() - t0;
    if (CheckStructure(&f, &a, NULL)) return 1;
    ENSURE(f.fill == 0);
    double* b = fcAlloc((size_t)n * sizeof(double));
    double* x = fcAlloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) b[i] = Symmetric();
    double best = 1e300;
    for (int r = 0; r < reps; r++) {
        memcpy(x, b, (size_t)n * sizeof(double));
        double t1 = fcNowMs();
        ENSURE(fcLdlt_Factor(&f, a.val, 1e-12) == 0);
        fcLdlt_Solve(&f, x);
        double dt = fcNowMs() - t1;
        best = dt < best ? dt : best;
    }
    *factorSolveMs = best;
    double res = RelResidual(&a, x, b);
    ENSURE_LE(res, 1e-10);
    fcFree(x);
    fcFree(b);
    fcLdlt_Free(&f);
    CsrFree(&a);
    MechFree(&m);
    return 0;
}

// 5. Long chains: zero fill, residual, linear scaling of factor+solve (printed), and the analysis of a large
// loop graph (a 20000-joint ladder) in reasonable time.
static int test_long_chain(void)
{
    double a1, t1, a10, t10, a10c, t10c;
    if (ChainCase(1000, 50, 0.0, &a1, &t1)) return 1;
    if (ChainCase(10000, 20, 0.0, &a10, &t10)) return 1;
    if (ChainCase(10000, 1, 1e-6, &a10c, &t10c)) return 1;
    printf("  chain 1000 links:  analyze %.3f ms, factor+solve %.3f ms\n", a1, t1);
    printf("  chain 10000 links: analyze %.3f ms, factor+solve %.3f ms (ratio %.1f)\n", a10, t10, t10 / t1);

    // ladder: two chains of bodies joined by a rung every other body: every rung closes a loop
    Seed(4242);
    int side = 8000, rungs = side / 2;
    Mech m;
    MechInit(&m, 2 * side, 2 * side + rungs, 1e-4);
    AddTree(&m, kChain, 0, side, -1, 1, 4);
    AddTree(&m, kChain, side, side, -1, 1, 4);
    for (int r = 0; r < rungs; r++) AddJoint(&m, 2 * r, side + 2 * r, RandInt(1, 3));
    ShuffleJoints(&m);
    Csr a;
    BuildCsr(&m, &a);
    fcSparseLdlt f;
    memset(&f, 0, sizeof f);
    double t0 = fcNowMs();
    ENSURE(fcLdlt_Analyze(&f, a.n, a.rownnz, a.rowadr, a.colind, a.blockCount, a.blockadr, a.blocksize));
    double analyze = fcNowMs() - t0;
    if (CheckStructure(&f, &a, NULL)) return 1;
    double* b = fcAlloc((size_t)a.n * sizeof(double));
    double* x = fcAlloc((size_t)a.n * sizeof(double));
    for (int i = 0; i < a.n; i++) b[i] = Symmetric();
    memcpy(x, b, (size_t)a.n * sizeof(double));
    t0 = fcNowMs();
    ENSURE(fcLdlt_Factor(&f, a.val, 1e-12) == 0);
    fcLdlt_Solve(&f, x);
    double fs = fcNowMs() - t0;
    double res = RelResidual(&a, x, b);
    ENSURE_LE(res, 1e-10);
    // minimum degree keeps a ladder's factor within a small multiple of A's
    ENSURE_LE(f.nnzL, 4.0 * (f.nnzL - f.fill));
    printf("  ladder %d joints (n %d): analyze %.3f ms, factor+solve %.3f ms, nnzL %d, fill %d\n", a.blockCount,
           a.n, analyze, fs, f.nnzL, f.fill);
    fcFree(x);
    fcFree(b);
    fcLdlt_Free(&f);
    CsrFree(&a);
    MechFree(&m);
    return 0;
}

// 6. Free on a zeroed struct, re-analysis of different sizes on one struct, empty systems, refused input.
static int test_reanalysis(void)
{
    fcSparseLdlt f;
    memset(&f, 0, sizeof f);
    fcLdlt_Free(&f);
    fcLdlt_Free(&f);
    ENSURE(f.n == 0 && f.L == NULL);
    // empty system: analyze, factor and solve do nothing
    ENSURE(fcLdlt_Analyze(&f, 0, NULL, NULL, NULL, 0, NULL, NULL));
    ENSURE(f.n == 0 && f.nnzL == 0 && f.fill == 0);
    ENSURE(fcLdlt_Factor(&f, NULL, 1e-12) == 0);
    fcLdlt_Solve(&f, NULL);
    const int sizes[4] = {40, 7, 120, 1};
    for (int t = 0; t < 4; t++) {
        Seed(31337 + (uint64_t)t);
        Mech m;
        MechInit(&m, sizes[t], sizes[t] + 2, 1e-4);
        AddTree(&m, kRandomTree, 0, sizes[t], -1, 1, 6);
        if (sizes[t] > 2) {
            AddJoint(&m, 0, sizes[t] - 1, 2);
            AddJoint(&m, 1, sizes[t] - 2, 3);
        }
        ShuffleJoints(&m);
        Csr a;
        BuildCsr(&m, &a);
        ENSURE(fcLdlt_Analyze(&f, a.n, a.rownnz, a.rowadr, a.colind, a.blockCount, a.blockadr, a.blocksize));
        if (CheckStructure(&f, &a, NULL)) return 1;
        ENSURE(fcLdlt_Factor(&f, a.val, 1e-12) == 0);
        double* b = fcAlloc((size_t)a.n * sizeof(double));
        double* x = fcAlloc((size_t)a.n * sizeof(double));
        for (int i = 0; i < a.n; i++) b[i] = x[i] = Symmetric();
        fcLdlt_Solve(&f, x);
        double res = RelResidual(&a, x, b);
        ENSURE_LE(res, 1e-10);
        // a second factorization on the same analysis gives the same answer
        ENSURE(fcLdlt_Factor(&f, a.val, 1e-12) == 0);
        double* x2 = fcAlloc((size_t)a.n * sizeof(double));
        memcpy(x2, b, (size_t)a.n * sizeof(double));
        fcLdlt_Solve(&f, x2);
        for (int i = 0; i < a.n; i++) ENSURE(x2[i] == x[i]);
        fcFree(x2);
        fcFree(x);
        fcFree(b);
        CsrFree(&a);
        MechFree(&m);
    }
    // refused input (a column above the diagonal) leaves an empty, freeable struct
    {
        const int rownnz[2] = {2, 1}, rowadr[2] = {0, 2}, colind[3] = {0, 1, 1};
        const int blockadr[1] = {0}, blocksize[1] = {2};
        ENSURE(!fcLdlt_Analyze(&f, 2, rownnz, rowadr, colind, 1, blockadr, blocksize));
        ENSURE(f.n == 0 && f.L == NULL && f.perm == NULL);
    }
    // rows not covered by any block are refused too
    {
        const int rownnz[2] = {1, 2}, rowadr[2] = {0, 1}, colind[3] = {0, 0, 1};
        const int blockadr[1] = {0}, blocksize[1] = {1};
        ENSURE(!fcLdlt_Analyze(&f, 2, rownnz, rowadr, colind, 1, blockadr, blocksize));
    }
    fcLdlt_Free(&f);
    fcLdlt_Free(&f);
    return 0;
}

// Pivot guard on a hand-made semidefinite matrix: [[1,1],[1,1]] drops row 1; a zero diagonal drops its row.
static int test_pivot_guard(void)
{
    const int rownnz[3] = {1, 2, 1}, rowadr[3] = {0, 1, 3}, colind[4] = {0, 0, 1, 2};
    const int blockadr[2] = {0, 2}, blocksize[2] = {2, 1};
    const fcReal val[4] = {1, 1, 1, 0};
    fcSparseLdlt f;
    memset(&f, 0, sizeof f);
    ENSURE(fcLdlt_Analyze(&f, 3, rownnz, rowadr, colind, 2, blockadr, blocksize));
    ENSURE(fcLdlt_Factor(&f, val, 1e-9) == 2);
    fcReal x[3] = {2, 2, 5};
    fcLdlt_Solve(&f, x);
    ENSURE_NEAR(x[0], 2, 1e-15);
    ENSURE(x[1] == 0 && x[2] == 0);
    // pivotTolerance 0 still refuses the exact zero pivot
    ENSURE(fcLdlt_Factor(&f, val, 0) == 2);
    fcLdlt_Free(&f);
    return 0;
}

int main(int argc, char** argv)
{
    TEST_MAIN_BEGIN(argc, argv);
    RUN_TEST(test_trees);
    RUN_TEST(test_loops);
    RUN_TEST(test_redundant);
    RUN_TEST(test_large_blocks);
    RUN_TEST(test_long_chain);
    RUN_TEST(test_reanalysis);
    RUN_TEST(test_pivot_guard);
    TEST_MAIN_END();
}

#endif
