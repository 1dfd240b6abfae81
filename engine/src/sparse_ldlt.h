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
// The numeric phase runs on panels: the rows of a block in elimination order, a block of more than
// FC_LDLT_PANEL_ROWS rows cut into consecutive panels of at most that many (the same pattern and storage).
#define FC_LDLT_PANEL_ROWS 6

// One panel. Its rows of L are contiguous: row r holds `width` columns of off-diagonal panels, then r columns
// of the panel's own unit lower triangle.
typedef struct fcLdltPanel {
    int row;      // first scalar row (elimination order)
    int size;     // its rows, 1 .. FC_LDLT_PANEL_ROWS
    int width;    // columns of L's off-diagonal panels in its rows
    int ladr;     // L + ladr is its first row; row r starts at ladr + r width + r (r - 1) / 2 = rowadr[row + r]
    int xadr;     // its first row in the caller's (original) order
    int linkadr;  // the off-diagonal panels of its rows: links[linkadr .. next panel's linkadr)
} fcLdltPanel;

// An off-diagonal panel L_KJ of K's rows (J < K); col is its first column within them.
typedef struct fcLdltLink {
    int panel;
    int col;
} fcLdltLink;

// For L_KJ (J in K's rows): len consecutive columns, at colK in the rows of K and at colJ in the rows of J,
// over panels I < J that both hold: the terms L_KI D_I L_JI^T that A_KJ loses.
typedef struct fcLdltSpan {
    int colK;
    int colJ;
    int len;
} fcLdltSpan;

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
    // the panels the numeric phase runs on
    int panelCount;
    fcLdltPanel* panels;  // (panelCount + 1) in elimination order; the last one only closes the lists
    fcLdltLink* links;    // the off-diagonal panels of L, by rows
    int* spanadr;         // (links + 1) the spans of links[p]: spans[spanadr[p] .. spanadr[p + 1])
    fcLdltSpan* spans;
    int* asrc;       // (nnzL) the inverse of amap: index into the input of each slot of L, -1 for a fill slot
    int* dsrc;       // (n) index into the input of each diagonal entry, -1 when absent
    // numeric (fcLdlt_Factor)
    fcReal* L;       // (nnzL) unit lower factor, strict part
    fcReal* D;       // (n) pivots; 0 marks a row dropped as redundant
    fcReal* invD;    // (n) 1 / D, 0 for a dropped row
    fcReal* work;    // (n) the solve's vector in elimination order
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
void fcLdlt_Solve(fcSparseLdlt* f, fcReal* x);

void fcLdlt_Free(fcSparseLdlt* f);

#endif
