// SPDX-License-Identifier: MIT
// Block-sparse LDL^T: block-graph ordering (perfect elimination when chordal, else minimum degree), symbolic
// fill pattern, and a numeric phase on dense panels of at most 6 rows (redundant-row dropping, solves).
#include "sparse_ldlt.h"

#include "core.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

// Undirected block graph in CSR form (both directions stored, no self loops, no duplicates).
typedef struct BlockGraph {
    int* adr;  // (blockCount + 1)
    int* nbr;  // (adr[blockCount])
} BlockGraph;

static void* AllocInts(long long count) { return fcAlloc((size_t)(count > 0 ? count : 1) * sizeof(int)); }

static int CompareInts(const void* a, const void* b)
{
    int x = *(const int*)a, y = *(const int*)b;
    return (x > y) - (x < y);
}

// Check the pattern against the contract of fcLdlt_Analyze; fills rowBlock (n) with the block of each row.
static bool ValidateInput(int n, const int* arownnz, const int* arowadr, const int* acolind, int blockCount,
                          const int* blockadr, const int* blocksize, long long nnzA, int* rowBlock)
{
    // rowBlock[i] = -1: no block owns row i yet
    for (int i = 0; i < n; i++) rowBlock[i] = -1;
    // rowBlock[r] = b for blockadr[b] <= r < blockadr[b] + blocksize[b], each row owned exactly once
    for (int b = 0; b < blockCount; b++) {
        if (blocksize[b] < 0 || blockadr[b] < 0 || (long long)blockadr[b] + blocksize[b] > n)
            return fcError("fcLdlt_Analyze: block %d (rows %d + %d) lies outside 0..%d", b, blockadr[b],
                           blocksize[b], n);
        // claim the rows of block b
        for (int r = blockadr[b]; r < blockadr[b] + blocksize[b]; r++) {
            if (rowBlock[r] != -1) return fcError("fcLdlt_Analyze: row %d belongs to blocks %d and %d", r, rowBlock[r], b);
            rowBlock[r] = b;
        }
    }
    // every row i must belong to some block
    for (int i = 0; i < n; i++)
        if (rowBlock[i] == -1) return fcError("fcLdlt_Analyze: row %d belongs to no block", i);
    if (nnzA > INT_MAX) return fcError("fcLdlt_Analyze: %lld stored entries exceed the int range", nnzA);
    unsigned char* covered = fcAllocZeroed((size_t)(nnzA > 0 ? nnzA : 1));
    bool ok = true;
    // row i: its range arowadr[i] .. + arownnz[i] within 0..nnzA, disjoint from the others, columns ascending <= i
    for (int i = 0; i < n && ok; i++) {
        if (arownnz[i] < 0 || arowadr[i] < 0 || (long long)arowadr[i] + arownnz[i] > nnzA) {
            ok = fcError("fcLdlt_Analyze: row %d's entries %d + %d lie outside 0..%lld", i, arowadr[i], arownnz[i], nnzA);
            break;
        }
        // entry p of row i: 0 <= col <= i, strictly ascending, not shared with another row
        for (int p = arowadr[i]; p < arowadr[i] + arownnz[i]; p++) {
            int j = acolind[p];
            if (covered[p]) { ok = fcError("fcLdlt_Analyze: entry %d is shared by two rows", p); break; }
            covered[p] = 1;
            if (j < 0 || j > i) { ok = fcError("fcLdlt_Analyze: row %d holds column %d outside 0..%d", i, j, i); break; }
            if (p > arowadr[i] && acolind[p - 1] >= j) {
                ok = fcError("fcLdlt_Analyze: row %d's columns are not strictly ascending", i);
                break;
            }
        }
    }
    fcFree(covered);
    return ok;
}

// Block graph of the pattern: b ~ c iff some stored entry lies between a row of b and a row of c (b != c).
static void BuildBlockGraph(int n, const int* arownnz, const int* arowadr, const int* acolind, int blockCount,
                            const int* blockadr, const int* blocksize, const int* rowBlock, BlockGraph* g)
{
    int* mark = AllocInts(blockCount);
    int* ladr = AllocInts((long long)blockCount + 1);
    long long entries = 0;
    // entries = total stored entries, an upper bound on the lower block edges
    for (int i = 0; i < n; i++) entries += arownnz[i];
    int* lnbr = AllocInts(entries);
    int* deg = fcAllocZeroed((size_t)(blockCount > 0 ? blockCount : 1) * sizeof(int));
    // mark[c] = -1: not yet seen by any block
    for (int b = 0; b < blockCount; b++) mark[b] = -1;
    int count = 0;
    // lower neighbors of b: blocks c != b of the columns stored in b's rows, deduplicated with mark[c] = b
    for (int b = 0; b < blockCount; b++) {
        ladr[b] = count;
        mark[b] = b;
        // rows i of block b
        for (int i = blockadr[b]; i < blockadr[b] + blocksize[b]; i++) {
            // stored columns j of row i
            for (int p = arowadr[i]; p < arowadr[i] + arownnz[i]; p++) {
                int c = rowBlock[acolind[p]];
                if (mark[c] == b) continue;
                mark[c] = b;
                lnbr[count++] = c;
                deg[b]++;
                deg[c]++;
            }
        }
    }
    ladr[blockCount] = count;
    g->adr = AllocInts((long long)blockCount + 1);
    g->nbr = AllocInts(2LL * count);
    g->adr[0] = 0;
    // adr[b + 1] = adr[b] + deg(b)
    for (int b = 0; b < blockCount; b++) g->adr[b + 1] = g->adr[b] + deg[b];
    // deg[b] becomes the insertion cursor of b's list
    for (int b = 0; b < blockCount; b++) deg[b] = g->adr[b];
    // each lower edge {b, c} stored in both lists (an unordered pair arises only from the later block's rows)
    for (int b = 0; b < blockCount; b++) {
        // lower neighbors c of b
        for (int p = ladr[b]; p < ladr[b + 1]; p++) {
            int c = lnbr[p];
            g->nbr[deg[b]++] = c;
            g->nbr[deg[c]++] = b;
        }
    }
    fcFree(deg);
    fcFree(lnbr);
    fcFree(ladr);
    fcFree(mark);
}

// Maximum Cardinality Search: visit the unvisited block with the most visited neighbors. elim receives the
// reverse of the visit order (a perfect elimination order iff the graph is chordal), comp the connected
// component of each block. Returns the component count. O(blocks + edges) with weight buckets.
static int MaximumCardinalitySearch(int blockCount, const BlockGraph* g, int* elim, int* comp)
{
    int* weight = fcAllocZeroed((size_t)(blockCount > 0 ? blockCount : 1) * sizeof(int));
    int* head = AllocInts((long long)blockCount + 1);
    int* next = AllocInts(blockCount);
    int* prev = AllocInts(blockCount);
    // head[w] = -1: every weight bucket empty
    for (int w = 0; w <= blockCount; w++) head[w] = -1;
    // push b = blockCount-1 .. 0 onto bucket 0, so block 0 is picked first
    for (int b = blockCount - 1; b >= 0; b--) {
        next[b] = head[0];
        prev[b] = -1;
        if (head[0] != -1) prev[head[0]] = b;
        head[0] = b;
    }
    int maxWeight = 0, compCount = 0;
    // visit i: v = argmax weight over unvisited blocks; weight(u) += 1 for its unvisited neighbors u
    for (int i = 0; i < blockCount; i++) {
        // lower maxWeight to the heaviest nonempty bucket
        while (head[maxWeight] == -1) maxWeight--;
        int v = head[maxWeight];
        head[maxWeight] = next[v];
        if (next[v] != -1) prev[next[v]] = -1;
        comp[v] = weight[v] == 0 ? compCount++ : comp[v];
        weight[v] = -1;  // visited
        elim[blockCount - 1 - i] = v;
        // move each unvisited neighbor u from bucket weight(u) to weight(u) + 1
        for (int p = g->adr[v]; p < g->adr[v + 1]; p++) {
            int u = g->nbr[p];
            if (weight[u] < 0) continue;
            if (prev[u] != -1) next[prev[u]] = next[u]; else head[weight[u]] = next[u];
            if (next[u] != -1) prev[next[u]] = prev[u];
            int w = ++weight[u];
            comp[u] = comp[v];
            next[u] = head[w];
            prev[u] = -1;
            if (head[w] != -1) prev[head[w]] = u;
            head[w] = u;
            if (w > maxWeight) maxWeight = w;
        }
    }
    fcFree(prev);
    fcFree(next);
    fcFree(head);
    fcFree(weight);
    return compCount;
}

// Zero-fill test of the order elim (Tarjan-Yannakakis): with follow(v) the earliest-eliminated neighbor after
// v, the order has no fill iff every later neighbor w of v is follow(v) or adjacent to it. Marks bad[comp] for
// each component where the test fails. O(blocks + edges).
static void MarkFillingComponents(int blockCount, const BlockGraph* g, const int* elim, const int* comp, bool* bad)
{
    int* pos = AllocInts(blockCount);
    int* follow = AllocInts(blockCount);
    int* index = AllocInts(blockCount);
    // pos[elim[k]] = k
    for (int k = 0; k < blockCount; k++) pos[elim[k]] = k;
    // step i, w = elim[i]: index(v) = i for w and its earlier neighbors v; follow(v) = w when w is v's first later one
    for (int i = 0; i < blockCount; i++) {
        int w = elim[i];
        follow[w] = w;
        index[w] = i;
        // earlier neighbors v of w: index(v) = i, follow(v) = w if unset
        for (int p = g->adr[w]; p < g->adr[w + 1]; p++) {
            int v = g->nbr[p];
            if (pos[v] >= i) continue;
            index[v] = i;
            if (follow[v] == v) follow[v] = w;
        }
        // earlier neighbors v of w: fill edge (follow(v), w) unless follow(v) is w or adjacent to w
        for (int p = g->adr[w]; p < g->adr[w + 1]; p++) {
            int v = g->nbr[p];
            if (pos[v] < i && index[follow[v]] < i) bad[comp[w]] = true;
        }
    }
    fcFree(index);
    fcFree(follow);
    fcFree(pos);
}

// Indexed binary min-heap of blocks keyed by (weighted degree, block id).
typedef struct DegreeHeap {
    int* heap;   // heap[slot] = block
    int* slot;   // slot[block] = index in heap, -1 when absent
    int* key;    // key[block] = weighted degree
    int size;
} DegreeHeap;

static bool HeapLess(const DegreeHeap* h, int a, int b) { return h->key[a] < h->key[b] || (h->key[a] == h->key[b] && a < b); }

static void HeapSwap(DegreeHeap* h, int s, int t)
{
    int a = h->heap[s], b = h->heap[t];
    h->heap[s] = b;
    h->heap[t] = a;
    h->slot[b] = s;
    h->slot[a] = t;
}

// Restore the heap order around slot s after its key changed.
static void HeapFix(DegreeHeap* h, int s)
{
    // sift up: swap with the parent while smaller
    while (s > 0 && HeapLess(h, h->heap[s], h->heap[(s - 1) / 2])) {
        HeapSwap(h, s, (s - 1) / 2);
        s = (s - 1) / 2;
    }
    // sift down: swap with the smaller child while larger
    for (;;) {
        int c = 2 * s + 1;
        if (c >= h->size) break;
        if (c + 1 < h->size && HeapLess(h, h->heap[c + 1], h->heap[c])) c++;
        if (!HeapLess(h, h->heap[c], h->heap[s])) break;
        HeapSwap(h, s, c);
        s = c;
    }
}

// Minimum degree on the explicit elimination graph of the blocks with include[b]: repeatedly eliminate the
// block whose neighbors hold the fewest scalar rows, joining its neighbors into a clique. Appends the order
// to out and returns how many blocks it placed.
static int MinimumDegreeOrder(int blockCount, const BlockGraph* g, const int* blocksize, const bool* include,
                              int* out)
{
    int** adj = fcAllocZeroed((size_t)(blockCount > 0 ? blockCount : 1) * sizeof(int*));
    int* len = fcAllocZeroed((size_t)(blockCount > 0 ? blockCount : 1) * sizeof(int));
    int* cap = fcAllocZeroed((size_t)(blockCount > 0 ? blockCount : 1) * sizeof(int));
    int* mark = AllocInts(blockCount);
    DegreeHeap h = {AllocInts(blockCount), AllocInts(blockCount), AllocInts(blockCount), 0};
    // copy the included blocks' adjacency; key(b) = sum of blocksize over b's neighbors
    for (int b = 0; b < blockCount; b++) {
        mark[b] = -1;
        h.slot[b] = -1;
        if (!include[b]) continue;
        len[b] = cap[b] = g->adr[b + 1] - g->adr[b];
        adj[b] = AllocInts(cap[b]);
        memcpy(adj[b], g->nbr + g->adr[b], (size_t)len[b] * sizeof(int));
        h.key[b] = 0;
        // key(b) += size of each neighbor
        for (int p = 0; p < len[b]; p++) h.key[b] += blocksize[adj[b][p]];
        h.heap[h.size] = b;
        h.slot[b] = h.size++;
        HeapFix(&h, h.slot[b]);
    }
    int placed = 0, stamp = 0;
    // eliminate v = the block of least weighted degree: N(v) becomes a clique, v leaves the graph
    while (h.size > 0) {
        int v = h.heap[0];
        HeapSwap(&h, 0, --h.size);
        h.slot[v] = -1;
        if (h.size > 0) HeapFix(&h, 0);
        out[placed++] = v;
        // remove v from the list of each neighbor a: key(a) -= size(v)
        for (int p = 0; p < len[v]; p++) {
            int a = adj[v][p];
            // find v in adj(a) and swap-remove it
            for (int q = 0; q < len[a]; q++) {
                if (adj[a][q] != v) continue;
                adj[a][q] = adj[a][--len[a]];
                break;
            }
            h.key[a] -= blocksize[v];
        }
        // for each neighbor a: adj(a) gains the neighbors b of v it lacks (the fill edges), key(a) += size(b)
        for (int p = 0; p < len[v]; p++) {
            int a = adj[v][p];
            stamp++;
            mark[a] = stamp;
            // mark(x) = stamp for the current neighbors x of a
            for (int q = 0; q < len[a]; q++) mark[adj[a][q]] = stamp;
            // neighbors b of v that a does not see yet
            for (int q = 0; q < len[v]; q++) {
                int b = adj[v][q];
                if (mark[b] == stamp) continue;
                if (len[a] == cap[a]) {
                    cap[a] = 2 * cap[a] + 4;
                    adj[a] = fcRealloc(adj[a], (size_t)cap[a] * sizeof(int));
                }
                adj[a][len[a]++] = b;
                h.key[a] += blocksize[b];
            }
            HeapFix(&h, h.slot[a]);
        }
        fcFree(adj[v]);
        adj[v] = NULL;
        len[v] = 0;
    }
    fcFree(h.key);
    fcFree(h.slot);
    fcFree(h.heap);
    fcFree(mark);
    fcFree(cap);
    fcFree(len);
    fcFree(adj);
    return placed;
}

// Block elimination order: a perfect elimination order for every chordal component, minimum degree for the others.
static void OrderBlocks(int blockCount, const BlockGraph* g, const int* blocksize, int* blockPerm)
{
    int* peo = AllocInts(blockCount);
    int* comp = AllocInts(blockCount);
    int compCount = MaximumCardinalitySearch(blockCount, g, peo, comp);
    bool* bad = fcAllocZeroed((size_t)(compCount > 0 ? compCount : 1) * sizeof(bool));
    MarkFillingComponents(blockCount, g, peo, comp, bad);
    int placed = 0;
    // chordal components first, in their perfect elimination order
    for (int k = 0; k < blockCount; k++)
        if (!bad[comp[peo[k]]]) blockPerm[placed++] = peo[k];
    if (placed < blockCount) {
        bool* include = fcAllocZeroed((size_t)blockCount * sizeof(bool));
        // include(b) = b's component has fill under the MCS order
        for (int b = 0; b < blockCount; b++) include[b] = bad[comp[b]];
        placed += MinimumDegreeOrder(blockCount, g, blocksize, include, blockPerm + placed);
        fcFree(include);
    }
    fcFree(bad);
    fcFree(comp);
    fcFree(peo);
}

// Block pattern of strict-lower L in elimination positions: row K holds the positions J < K, ascending, in
// radr[K] .. radr[K + 1] of *rcol. Elimination tree (Liu, path compression), then each row's subtree.
static void BlockSymbolic(int blockCount, const BlockGraph* g, const int* blockPerm, int** radrOut, int** rcolOut)
{
    int* pos = AllocInts(blockCount);
    int* parent = AllocInts(blockCount);
    int* ancestor = AllocInts(blockCount);
    int* mark = AllocInts(blockCount);
    int* radr = AllocInts((long long)blockCount + 1);
    // pos[blockPerm[K]] = K
    for (int K = 0; K < blockCount; K++) pos[blockPerm[K]] = K;
    // etree: parent(r) = the first I > r whose row reaches r; ancestor() is the path-compressed shortcut
    for (int I = 0; I < blockCount; I++) {
        int b = blockPerm[I];
        parent[I] = -1;
        ancestor[I] = -1;
        mark[I] = -1;
        // earlier neighbors K of I: climb from K to its current root, pointing the path at I
        for (int p = g->adr[b]; p < g->adr[b + 1]; p++) {
            int r = pos[g->nbr[p]];
            if (r >= I) continue;
            // r -> ancestor(r) until the root or I
            while (ancestor[r] != -1 && ancestor[r] != I) {
                int t = ancestor[r];
                ancestor[r] = I;
                r = t;
            }
            if (ancestor[r] == -1) {
                ancestor[r] = I;
                parent[r] = I;
            }
        }
    }
    int* rcol = NULL;
    // two passes over the row subtrees: count (pass 0), then store (pass 1)
    for (int pass = 0; pass < 2; pass++) {
        int count = 0;
        // row I of L: every r on the etree paths from I's earlier neighbors K up to I
        for (int I = 0; I < blockCount; I++) {
            int b = blockPerm[I];
            radr[I] = count;
            mark[I] = 2 * I + pass;
            // earlier neighbors K of I: walk K -> parent(K) -> ... until a block already in row I
            for (int p = g->adr[b]; p < g->adr[b + 1]; p++) {
                int r = pos[g->nbr[p]];
                if (r >= I) continue;
                // climb r -> parent(r), adding each unmarked r to row I
                while (r != -1 && mark[r] != 2 * I + pass) {
                    mark[r] = 2 * I + pass;
                    if (pass) rcol[count] = r;
                    count++;
                    r = parent[r];
                }
            }
            if (pass) qsort(rcol + radr[I], (size_t)(count - radr[I]), sizeof(int), CompareInts);
        }
        radr[blockCount] = count;
        if (!pass) rcol = AllocInts(count);
        // reset mark() so the pass-1 stamps 2 I + 1 never collide with leftovers
        for (int I = 0; I < blockCount; I++) mark[I] = -1;
    }
    fcFree(mark);
    fcFree(ancestor);
    fcFree(parent);
    fcFree(pos);
    *radrOut = radr;
    *rcolOut = rcol;
}

// Position of column c in row r's colind (binary search), or -1.
static int FindSlot(const fcSparseLdlt* f, int r, int c)
{
    int lo = f->rowadr[r], hi = f->rowadr[r] + f->rownnz[r] - 1;
    // halve [lo, hi] until colind[mid] == c
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (f->colind[mid] == c) return mid;
        if (f->colind[mid] < c) lo = mid + 1; else hi = mid - 1;
    }
    return -1;
}

// Walks the spans of every link (see fcLdltSpan): counts them, and stores them with their ranges spanadr
// when spans is not NULL. mark and markCol (panelCount) are scratch. Returns the count.
static int CollectSpans(const fcSparseLdlt* f, int* mark, int* markCol, fcLdltSpan* spans, int* spanadr)
{
    const fcLdltPanel* panels = f->panels;
    const fcLdltLink* links = f->links;
    // mark[I] = -1: no panel's rows hold I yet
    for (int K = 0; K < f->panelCount; K++) mark[K] = -1;
    int count = 0;
    // panel K: the panels I its rows hold get mark[I] = K and their column markCol[I]
    for (int K = 0; K < f->panelCount; K++) {
        for (int p = panels[K].linkadr; p < panels[K + 1].linkadr; p++) {
            mark[links[p].panel] = K;
            markCol[links[p].panel] = links[p].col;
        }
        // L_KJ: the panels I of J's rows that K's rows hold too, runs of consecutive columns merged
        for (int p = panels[K].linkadr; p < panels[K + 1].linkadr; p++) {
            const fcLdltPanel* pj = panels + links[p].panel;
            fcLdltSpan run = {0, 0, -1};
            if (spans) spanadr[p] = count;
            // panels I of J's rows
            for (int q = pj->linkadr; q < pj[1].linkadr; q++) {
                int I = links[q].panel, len = panels[I].size;
                if (mark[I] != K) continue;
                if (run.len >= 0 && run.colK + run.len == markCol[I] && run.colJ + run.len == links[q].col) {
                    run.len += len;
                } else {
                    if (run.len >= 0 && spans) spans[count - 1] = run;
                    run = (fcLdltSpan){markCol[I], links[q].col, len};
                    count++;
                }
            }
            if (run.len >= 0 && spans) spans[count - 1] = run;
        }
    }
    if (spans) spanadr[panels[f->panelCount].linkadr] = count;
    return count;
}

// The panels (block K cut into ceil(size / FC_LDLT_PANEL_ROWS) consecutive panels of near-equal size), their
// links and spans. Needs the scalar pattern (rowadr); row K of the block pattern holds the blocks
// rcol[radr[K] .. radr[K + 1]), offw[K] columns.
static void BuildPanels(fcSparseLdlt* f, const int* blockadr, const int* sstart, const long long* offw,
                        const int* radr, const int* rcol)
{
    const int blockCount = f->blockCount;
    int* first = AllocInts((long long)blockCount + 1);
    first[0] = 0;
    // first[K] = the first panel of block K
    for (int K = 0; K < blockCount; K++)
        first[K + 1] = first[K] + (sstart[K + 1] - sstart[K] + FC_LDLT_PANEL_ROWS - 1) / FC_LDLT_PANEL_ROWS;
    const int panelCount = first[blockCount];
    fcLdltPanel* panels = fcAlloc((size_t)(panelCount + 1) * sizeof(fcLdltPanel));
    // panel i of block K: rows size i / cuts .. size (i + 1) / cuts of the block
    for (int K = 0; K < blockCount; K++) {
        int size = sstart[K + 1] - sstart[K], cuts = first[K + 1] - first[K];
        // panel i
        for (int i = 0; i < cuts; i++) {
            int lo = size * i / cuts, row = sstart[K] + lo;
            panels[first[K] + i] = (fcLdltPanel){row, size * (i + 1) / cuts - lo, (int)offw[K] + lo, f->rowadr[row],
                                                 blockadr[f->blockPerm[K]] + lo, 0};
        }
    }
    fcLdltLink* links = NULL;
    int count = 0;
    // two passes over the links: count (pass 0), then store (pass 1)
    for (int pass = 0; pass < 2; pass++) {
        count = 0;
        // panel P of block K: the panels of K's blocks J, then K's panels before P
        for (int K = 0; K < blockCount; K++) {
            for (int P = first[K]; P < first[K + 1]; P++) {
                int col = 0;
                panels[P].linkadr = count;
                // blocks J of row K, then block K itself up to P
                for (int p = radr[K]; p <= radr[K + 1]; p++) {
                    int J = p < radr[K + 1] ? rcol[p] : K;
                    // panels Q of block J
                    for (int Q = first[J]; Q < (J == K ? P : first[J + 1]); Q++) {
                        if (pass) links[count] = (fcLdltLink){Q, col};
                        count++;
                        col += panels[Q].size;
                    }
                }
            }
        }
        if (!pass) links = fcAlloc((size_t)(count > 0 ? count : 1) * sizeof(fcLdltLink));
    }
    panels[panelCount] = (fcLdltPanel){f->n, 0, 0, f->nnzL, 0, count};
    f->panelCount = panelCount;
    f->panels = panels;
    f->links = links;
    f->spanadr = AllocInts((long long)count + 1);
    int* mark = AllocInts(panelCount);
    int* markCol = AllocInts(panelCount);
    int spans = CollectSpans(f, mark, markCol, NULL, NULL);
    f->spans = fcAlloc((size_t)(spans > 0 ? spans : 1) * sizeof(fcLdltSpan));
    CollectSpans(f, mark, markCol, f->spans, f->spanadr);
    fcFree(markCol);
    fcFree(mark);
    fcFree(first);
}

void fcLdlt_Free(fcSparseLdlt* f)
{
    if (f == NULL) return;
    fcFree(f->blockPerm);
    fcFree(f->perm);
    fcFree(f->iperm);
    fcFree(f->rownnz);
    fcFree(f->rowadr);
    fcFree(f->colind);
    fcFree(f->amap);
    fcFree(f->panels);
    fcFree(f->links);
    fcFree(f->spanadr);
    fcFree(f->spans);
    fcFree(f->asrc);
    fcFree(f->dsrc);
    fcFree(f->L);
    fcFree(f->D);
    fcFree(f->invD);
    fcFree(f->work);
    memset(f, 0, sizeof *f);
}

bool fcLdlt_Analyze(fcSparseLdlt* f, int n, const int* arownnz, const int* arowadr, const int* acolind,
                    int blockCount, const int* blockadr, const int* blocksize)
{
    fcLdlt_Free(f);
    if (n < 0 || blockCount < 0 || (n > 0 && (!arownnz || !arowadr || !acolind)) ||
        (blockCount > 0 && (!blockadr || !blocksize)))
        return fcError("fcLdlt_Analyze: bad arguments (n %d, %d blocks)", n, blockCount);
    long long nnzA = 0, strictA = 0;
    // nnzA = sum of arownnz[i]
    for (int i = 0; i < n; i++) nnzA += arownnz[i] > 0 ? arownnz[i] : 0;
    int* rowBlock = AllocInts(n);
    if (!ValidateInput(n, arownnz, arowadr, acolind, blockCount, blockadr, blocksize, nnzA, rowBlock)) {
        fcFree(rowBlock);
        return false;
    }
    // strictA = stored entries with column < row
    for (int i = 0; i < n; i++)
        strictA += arownnz[i] - (arownnz[i] > 0 && acolind[arowadr[i] + arownnz[i] - 1] == i);

    BlockGraph g;
    BuildBlockGraph(n, arownnz, arowadr, acolind, blockCount, blockadr, blocksize, rowBlock, &g);
    fcFree(rowBlock);
    int* blockPerm = AllocInts(blockCount);
    OrderBlocks(blockCount, &g, blocksize, blockPerm);
    int *radr, *rcol;
    BlockSymbolic(blockCount, &g, blockPerm, &radr, &rcol);
    fcFree(g.nbr);
    fcFree(g.adr);

    int* sstart = AllocInts((long long)blockCount + 1);
    long long* offw = fcAlloc((size_t)(blockCount > 0 ? blockCount : 1) * sizeof(long long));
    sstart[0] = 0;
    // scalar start of each block position: sstart[K + 1] = sstart[K] + size(blockPerm[K])
    for (int K = 0; K < blockCount; K++) sstart[K + 1] = sstart[K] + blocksize[blockPerm[K]];
    long long nnzL = 0;
    // offw(K) = rows of the blocks in L's block row K; nnzL += size(K) offw(K) + size(K) (size(K) - 1) / 2
    for (int K = 0; K < blockCount; K++) {
        long long s = blocksize[blockPerm[K]];
        offw[K] = 0;
        // offw(K) += size(J) for J in row K
        for (int p = radr[K]; p < radr[K + 1]; p++) offw[K] += sstart[rcol[p] + 1] - sstart[rcol[p]];
        nnzL += s * offw[K] + s * (s - 1) / 2;
    }
    if (nnzL > INT_MAX) {
        fcFree(offw);
        fcFree(sstart);
        fcFree(rcol);
        fcFree(radr);
        fcFree(blockPerm);
        return fcError("fcLdlt_Analyze: the factor needs %lld nonzeros, beyond the int range", nnzL);
    }

    f->n = n;
    f->blockCount = blockCount;
    f->blockPerm = blockPerm;
    f->perm = AllocInts(n);
    f->iperm = AllocInts(n);
    f->rownnz = AllocInts(n);
    f->rowadr = AllocInts(n);
    f->colind = AllocInts(nnzL);
    f->nnzL = (int)nnzL;
    f->nnzA = (int)nnzA;
    f->fill = (int)(nnzL - strictA);
    f->amap = AllocInts(nnzA);
    f->L = fcAllocZeroed((size_t)(nnzL > 0 ? nnzL : 1) * sizeof(fcReal));
    f->D = fcAllocZeroed((size_t)(n > 0 ? n : 1) * sizeof(fcReal));
    f->invD = fcAllocZeroed((size_t)(n > 0 ? n : 1) * sizeof(fcReal));
    f->work = fcAllocZeroed((size_t)(n > 0 ? n : 1) * sizeof(fcReal));
    f->dropped = 0;

    int cursor = 0;
    // block position K, internal row r -> scalar row k = sstart[K] + r: columns of row K's blocks, then K's rows < r
    for (int K = 0; K < blockCount; K++) {
        int b = blockPerm[K], s = blocksize[b];
        // internal rows r of block K, in their original order
        for (int r = 0; r < s; r++) {
            int k = sstart[K] + r;
            f->perm[k] = blockadr[b] + r;
            f->iperm[blockadr[b] + r] = k;
            f->rowadr[k] = cursor;
            f->rownnz[k] = (int)offw[K] + r;
            // blocks J of row K, ascending: all their scalar columns
            for (int p = radr[K]; p < radr[K + 1]; p++) {
                // columns sstart[J] .. sstart[J + 1] - 1
                for (int c = sstart[rcol[p]]; c < sstart[rcol[p] + 1]; c++) f->colind[cursor++] = c;
            }
            // columns of block K before row k
            for (int c = sstart[K]; c < k; c++) f->colind[cursor++] = c;
        }
    }
    BuildPanels(f, blockadr, sstart, offw, radr, rcol);
    fcFree(offw);
    fcFree(sstart);
    fcFree(rcol);
    fcFree(radr);

    // input entry (i, j), j <= i: diagonal -> D[iperm i]; else slot of (max, min) of (iperm i, iperm j) in L
    for (int i = 0; i < n; i++) {
        // entries p of original row i
        for (int p = arowadr[i]; p < arowadr[i] + arownnz[i]; p++) {
            int ki = f->iperm[i], kj = f->iperm[acolind[p]];
            f->amap[p] = ki == kj ? -1 - ki : FindSlot(f, ki > kj ? ki : kj, ki > kj ? kj : ki);
        }
    }
    f->asrc = AllocInts(nnzL);
    f->dsrc = AllocInts(n);
    // slots no input entry reaches read as zero
    for (int p = 0; p < nnzL; p++) f->asrc[p] = -1;
    for (int k = 0; k < n; k++) f->dsrc[k] = -1;
    // invert amap
    for (int p = 0; p < nnzA; p++) {
        if (f->amap[p] >= 0) f->asrc[f->amap[p]] = p; else f->dsrc[-1 - f->amap[p]] = p;
    }
    return true;
}

// Runs stmt with the constant N equal to size (1 .. FC_LDLT_PANEL_ROWS): each panel size gets its own copy of
// the kernel stmt calls, with the loops over the panel's rows unrolled and its accumulators in registers.
#define FC_LDLT_BY_SIZE(size, N, stmt)        \
    switch (size) {                            \
    case 1: { const int N = 1; stmt; break; }   \
    case 2: { const int N = 2; stmt; break; }   \
    case 3: { const int N = 3; stmt; break; }   \
    case 4: { const int N = 4; stmt; break; }   \
    case 5: { const int N = 5; stmt; break; }   \
    default: { const int N = 6; stmt; break; }  \
    }

#if defined(__GNUC__)
#define FC_LDLT_KERNEL static inline __attribute__((always_inline))
#else
#define FC_LDLT_KERNEL static inline
#endif

enum { kRows = FC_LDLT_PANEL_ROWS };

// off[r] = the offset in L of row r of panel pk (s rows)
FC_LDLT_KERNEL void PanelRows(const fcLdltPanel* pk, int* off, const int s)
{
    off[0] = pk->ladr;
    // row r follows row r - 1's width + r - 1 entries
    for (int r = 1; r < s; r++) off[r] = off[r - 1] + pk->width + r - 1;
}

// Y_KJ (columns col .. col + sj of the s rows row[] of K) for the link to J (its rows from lj, width wj), column
// c by column: A_KJ from the input (src: the slots' input entries, rows like row[]) less sum_I Y_KI L_JI^T over
// the spans, then forward substitution with L_JJ^T.
FC_LDLT_KERNEL void SolveLink(fcReal* const* row, const int* const* src, int col, const fcReal* avalues,
                              const fcReal* lj, int wj, const fcLdltSpan* spanBegin, const fcLdltSpan* spanEnd,
                              const int s, const int sj)
{
    const fcReal* lc = lj;
    // column c of J, against row c of J
    for (int c = 0; c < sj; c++) {
        fcReal t[kRows];
        // a_rc (0 in a fill slot)
        for (int r = 0; r < s; r++) t[r] = src[r][col + c] >= 0 ? avalues[src[r][col + c]] : 0;
        // the panels I both rows hold
        for (const fcLdltSpan* sp = spanBegin; sp < spanEnd; sp++) {
            // column m of the span
            for (int m = 0; m < sp->len; m++) {
                const fcReal l = lc[sp->colJ + m];
                for (int r = 0; r < s; r++) t[r] -= l * row[r][sp->colK + m];
            }
        }
        // L_JJ's row c
        for (int m = 0; m < c; m++) {
            const fcReal l = lc[wj + m];
            for (int r = 0; r < s; r++) t[r] -= l * row[r][col + m];
        }
        for (int r = 0; r < s; r++) row[r][col + c] = t[r];
        lc += wj + c;
    }
}

// L_KJ = Y_KJ D_J^-1 (columns col .. col + sj of the rows row[] of K; inv = J's 1 / D) and T_rq -= L_qc Y_rc
// for q <= r, T the panel's diagonal block.
FC_LDLT_KERNEL void ScaleLink(fcReal* const* row, int col, const fcReal* inv, fcReal (*T)[kRows], const int s,
                              const int sj)
{
    // column c of J
    for (int c = 0; c < sj; c++) {
        fcReal y[kRows], l[kRows];
        for (int r = 0; r < s; r++) {
            y[r] = row[r][col + c];
            l[r] = y[r] * inv[c];
            row[r][col + c] = l[r];
        }
        // T_rq for q <= r
        for (int r = 0; r < s; r++)
            for (int q = 0; q <= r; q++) T[r][q] -= l[q] * y[r];
    }
}

// The rows of panel pk (s of them) in L, D, invD from A and the finished panels before it. Returns the rows it
// dropped.
FC_LDLT_KERNEL int FactorPanel(const fcSparseLdlt* f, const fcLdltPanel* pk, const fcReal* avalues, fcReal tol,
                               const int s)
{
    const int w = pk->width, k0 = pk->row;
    int off[kRows];
    fcReal* row[kRows];
    const int* src[kRows];
    PanelRows(pk, off, s);
    for (int r = 0; r < s; r++) {
        row[r] = f->L + off[r];
        src[r] = f->asrc + off[r];
    }
    // T = A's diagonal block (lower), reduced below to A_KK - sum_J L_KJ D_J L_KJ^T
    fcReal akk[kRows], T[kRows][kRows];
    for (int r = 0; r < s; r++) {
        akk[r] = T[r][r] = f->dsrc[k0 + r] >= 0 ? avalues[f->dsrc[k0 + r]] : 0;
        // T_rq = a_rq
        for (int q = 0; q < r; q++) T[r][q] = src[r][w + q] >= 0 ? avalues[src[r][w + q]] : 0;
    }
    // Y_KJ = L_KJ D_J for the links J ascending
    for (int p = pk->linkadr; p < pk[1].linkadr; p++) {
        const fcLdltLink* lk = f->links + p;
        const fcLdltPanel* pj = f->panels + lk->panel;
        const fcLdltSpan *spanBegin = f->spans + f->spanadr[p], *spanEnd = f->spans + f->spanadr[p + 1];
        SolveLink(row, src, lk->col, avalues, f->L + pj->ladr, pj->width, spanBegin, spanEnd, s, pj->size);
    }
    // L_KJ = Y_KJ D_J^-1, and T's terms
    for (int p = pk->linkadr; p < pk[1].linkadr; p++) {
        const fcLdltLink* lk = f->links + p;
        const fcLdltPanel* pj = f->panels + lk->panel;
        ScaleLink(row, lk->col, f->invD + pj->row, T, s, pj->size);
    }
    int dropped = 0;
    fcReal* invD = f->invD + k0;
    // up-looking LDL^T of T, row r: y_q = T_rq - sum_m L_qm y_m, L_rq = y_q / D_q, D_r = T_rr - sum_q L_rq y_q
    for (int r = 0; r < s; r++) {
        fcReal y[kRows], d = T[r][r];
        // y_q for q < r
        for (int q = 0; q < r; q++) {
            y[q] = T[r][q];
            for (int m = 0; m < q; m++) y[q] -= row[q][w + m] * y[m];
        }
        // L_rq, and d -= L_rq y_q
        for (int q = 0; q < r; q++) {
            row[r][w + q] = y[q] * invD[q];
            d -= row[r][w + q] * y[q];
        }
        if (!(akk[r] > 0) || !(d > tol * akk[r])) {
            // the row is redundant: it carries nothing (L_r = 0) and its column leaves the system (1 / D = 0)
            f->D[k0 + r] = invD[r] = 0;
            for (int c = 0; c < w + r; c++) row[r][c] = 0;
            dropped++;
        } else {
            f->D[k0 + r] = d;
            invD[r] = 1 / d;
        }
    }
    return dropped;
}

int fcLdlt_Factor(fcSparseLdlt* f, const fcReal* avalues, fcReal pivotTolerance)
{
    // A floor on the relative pivot keeps every multiplier y_j / D_j finite even for pivotTolerance = 0.
    const fcReal tol = pivotTolerance > FC_EPSILON * FC_EPSILON ? pivotTolerance : FC_EPSILON * FC_EPSILON;
    int dropped = 0;
    // panels in elimination order: each from the finished ones before it
    for (int K = 0; K < f->panelCount; K++) {
        const fcLdltPanel* pk = f->panels + K;
        FC_LDLT_BY_SIZE(pk->size, S, dropped += FactorPanel(f, pk, avalues, tol, S))
    }
    f->dropped = dropped;
    return dropped;
}

// row[r] = row r of panel pk (s rows) in L. Returns the columns (elimination order) of its off-diagonal part.
FC_LDLT_KERNEL const int* SolveRows(const fcSparseLdlt* f, const fcLdltPanel* pk, const fcReal** row, const int s)
{
    int off[kRows];
    PanelRows(pk, off, s);
    for (int r = 0; r < s; r++) row[r] = f->L + off[r];
    return f->colind + pk->ladr;
}

// z_K of L z = b: the rows of panel pk (s of them) from x (b_K at pk->xadr) into w (elimination order), against
// the finished z in w at the columns its rows hold (colind).
FC_LDLT_KERNEL void ForwardPanel(const fcSparseLdlt* f, const fcLdltPanel* pk, const fcReal* x, fcReal* w, const int s)
{
    const fcReal* row[kRows];
    const int* col = SolveRows(f, pk, row, s);
    fcReal t[kRows];
    for (int r = 0; r < s; r++) t[r] = x[pk->xadr + r];
    // off-diagonal column c: t -= L_c z_col(c)
    for (int c = 0; c < pk->width; c++) {
        const fcReal z = w[col[c]];
        for (int r = 0; r < s; r++) t[r] -= row[r][c] * z;
    }
    // L_KK's rows
    for (int r = 1; r < s; r++)
        for (int q = 0; q < r; q++) t[r] -= row[r][pk->width + q] * t[q];
    for (int r = 0; r < s; r++) w[pk->row + r] = t[r];
}

// y_K of L^T y = w: the rows of panel pk (s of them) in w (D^-1 z_K less the later panels' terms), solved with
// L_KK^T, written to x (at pk->xadr), and their terms L_Kc y_K taken off w at the columns c its rows hold.
FC_LDLT_KERNEL void BackwardPanel(const fcSparseLdlt* f, const fcLdltPanel* pk, fcReal* x, fcReal* w, const int s)
{
    const fcReal* row[kRows];
    const int* col = SolveRows(f, pk, row, s);
    fcReal t[kRows];
    for (int r = 0; r < s; r++) t[r] = w[pk->row + r];
    // L_KK^T, rows descending
    for (int r = s - 1; r > 0; r--)
        for (int q = 0; q < r; q++) t[q] -= row[r][pk->width + q] * t[r];
    for (int r = 0; r < s; r++) x[pk->xadr + r] = t[r];
    // off-diagonal column c: w_col(c) -= L_rc y_r, K's rows descending
    for (int c = 0; c < pk->width; c++) {
        fcReal v = w[col[c]];
        for (int r = s - 1; r >= 0; r--) v -= row[r][c] * t[r];
        w[col[c]] = v;
    }
}

void fcLdlt_Solve(fcSparseLdlt* f, fcReal* x)
{
    fcReal* w = f->work;
    // forward, panels ascending
    for (int K = 0; K < f->panelCount; K++) {
        const fcLdltPanel* pk = f->panels + K;
        FC_LDLT_BY_SIZE(pk->size, S, ForwardPanel(f, pk, x, w, S))
    }
    // diagonal: w = D^-1 z, 0 for a dropped row
    for (int k = 0; k < f->n; k++) w[k] *= f->invD[k];
    // backward, panels descending
    for (int K = f->panelCount - 1; K >= 0; K--) {
        const fcLdltPanel* pk = f->panels + K;
        FC_LDLT_BY_SIZE(pk->size, S, BackwardPanel(f, pk, x, w, S))
    }
}
