// SPDX-License-Identifier: MIT
// Block-sparse LDL^T of a symmetric positive (semi)definite matrix: symbolic analysis (elimination order,
// fill pattern) done once per topology, numeric factorization every step, triangular solves. Knows no world.
#ifndef FC_SPARSE_LDLT_H
#define FC_SPARSE_LDLT_H

#include "fulcrum/math.h"

#include <stdbool.h>

// Input matrix A (n x n scalar, symmetric): its LOWER triangle including the diagonal, in CSR over the
// ORIGINAL row order: row i holds columns acolind[arowadr[i] .. arowadr[i] + arownnz[i]) with each column <= i,
// sorted ascending, the diagonal last. The rows are grouped in blocks (one block per joint): block b owns
// the consecutive rows blockadr[b] .. blockadr[b] + blocksize[b]; the pattern inside a block is dense and the
// pattern between two blocks is either empty or dense (a joint pair sharing a body).
//
// The elimination order is chosen on the block graph: a perfect elimination order (no fill) when the graph
// is chordal, which covers every tree of bodies (the joint graph of a tree is a block graph); otherwise
// minimum degree. Rows of one block stay together and in order.
typedef struct fcSparseLdlt {
    // symbolic (fcLdlt_Analyze)
    int n;           // scalar dimension
    int blockCount;
    int* blockPerm;  // (blockCount) blockPerm[k] = original block eliminated k-th
    int* perm;       // (n) perm[k] = original scalar row at elimination position k
    int* iperm;      // (n) iperm[perm[k]] = k
    int* rownnz;     // (n) entries of strict-lower L in row k (elimination order)
    int* rowadr;     // (n) start of row k in colind / L
    int* colind;     // (nnzL) columns, ascending, all < k
    int nnzL;        // strict-lower nonzeros of L
    int nnzA;        // stored entries of the input's lower triangle (with diagonal)
    int fill;        // nnzL minus the strict-lower nonzeros of A
    int* amap;       // (nnzA) slot of each input entry: >= 0 index into L, or -1 - k for the diagonal D[k]
    // numeric (fcLdlt_Factor)
    fcReal* L;       // (nnzL) unit lower factor, strict part
    fcReal* D;       // (n) pivots; 0 marks a row dropped as redundant
    fcReal* work;    // (n) scratch
    int dropped;     // rows dropped as redundant by the last factorization
} fcSparseLdlt;

// Symbolic analysis of the pattern. Frees what an earlier analysis held. Returns false on allocation failure.
bool fcLdlt_Analyze(fcSparseLdlt* f, int n, const int* arownnz, const int* arowadr, const int* acolind,
                    int blockCount, const int* blockadr, const int* blocksize);

// Numeric factorization of the values avalues (aligned with acolind) on the analyzed pattern. A pivot below
// pivotTolerance times its row's original diagonal (or non-positive) marks the row redundant: it is dropped
// (D = 0, its L column zero), which keeps every multiplier finite. Returns the number of dropped rows.
int fcLdlt_Factor(fcSparseLdlt* f, const fcReal* avalues, fcReal pivotTolerance);

// Solve A x = b in place (x holds b on entry, original row order). Dropped rows get x = 0.
void fcLdlt_Solve(const fcSparseLdlt* f, fcReal* x);

void fcLdlt_Free(fcSparseLdlt* f);

#endif
