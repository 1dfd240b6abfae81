// SPDX-License-Identifier: MIT
// Convex hull of a point cloud by quickhull, coplanar triangles then merged into polygon faces, and the
// hull's exact mass properties (tetrahedra from an interior point). The layout is in convex.h.
#include "convex.h"
#include "core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Points closer than this (times the cloud's extent) to a face count as on it: they are dropped, and
// triangles within it of a common plane become one face. Loose enough for points that went through float.
#ifdef FC_FLOAT
#define FC_HULL_TOL 1e-5f
#else
#define FC_HULL_TOL 1e-7
#endif

typedef struct qhFace {
    int v[3];
    int adj[3];   // the face across edge k (v[k] -> v[k+1])
    fcVec3 n;
    fcReal d;
    int outside;  // first point of this face's outside list, -1 when empty
    int mark;
    bool alive;
} qhFace;

// A horizon edge a -> b of a visible face; across it, edge `edge` of the face `face` that stays.
typedef struct qhEdge { int a, b, face, edge; } qhEdge;

typedef struct qhBuild {
    const fcVec3* p;
    int n;
    fcReal eps;
    int* next;  // outside lists, linked through the points
    qhFace* f;
    int faceCount, faceCap;
    int stamp;
    int* list;
    int listCap;
    qhEdge* horizon;
    int horizonCap;
    int* order;
    int orderCap;
    int* from;  // per point: the horizon edge that starts there, -1
    int* orphans;
    int orphanCap;
} qhBuild;

static void fcHull_Why(char* why, int capacity, const char* fmt, ...) FC_PRINTF(3, 4);
static void fcHull_Why(char* why, int capacity, const char* fmt, ...)
{
    if (why == NULL || capacity <= 0) return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(why, (size_t)capacity, fmt, args);
    va_end(args);
}

static void* qh_Grow(void* p, int* cap, int need, size_t size)
{
    if (need <= *cap) return p;
    int c = *cap > 0 ? *cap : 16;
    while (c < need) c *= 2;
    *cap = c;
    return fcRealloc(p, (size_t)c * size);
}

static fcReal qh_Dist(const qhFace* f, fcVec3 x) { return fcVec3_Dot(f->n, x) - f->d; }

static int qh_NewFace(qhBuild* b, int i, int j, int k)
{
    b->f = qh_Grow(b->f, &b->faceCap, b->faceCount + 1, sizeof(qhFace));
    qhFace* f = &b->f[b->faceCount];
    f->v[0] = i;
    f->v[1] = j;
    f->v[2] = k;
    f->adj[0] = f->adj[1] = f->adj[2] = -1;
    fcVec3 pi = b->p[i], pj = b->p[j], pk = b->p[k];
    f->n = fcVec3_Normalize(fcVec3_Cross(fcVec3_Sub(pj, pi), fcVec3_Sub(pk, pi)));
    // the plane through the triangle's centroid: rounding spread evenly over the three corners
    f->d = fcVec3_Dot(f->n, pi) / 3 + fcVec3_Dot(f->n, pj) / 3 + fcVec3_Dot(f->n, pk) / 3;
    f->outside = -1;
    f->mark = 0;
    f->alive = true;
    return b->faceCount++;
}

// Put a point on the outside list of the face among faces[first, last) it is farthest above; a point above
// none of them is inside the hull for good.
static void qh_Assign(qhBuild* b, int point, int first, int last)
{
    int best = -1;
    fcReal bestDist = b->eps;
    for (int i = first; i < last; ++i) {
        if (!b->f[i].alive) continue;
        fcReal d = qh_Dist(&b->f[i], b->p[point]);
        if (d > bestDist) {
            bestDist = d;
            best = i;
        }
    }
    if (best < 0) return;
    b->next[point] = b->f[best].outside;
    b->f[best].outside = point;
}

static void qh_Unlink(qhBuild* b, int face, int point)
{
    int* link = &b->f[face].outside;
    while (*link >= 0 && *link != point) link = &b->next[*link];
    if (*link == point) *link = b->next[point];
}

// The edge of face g that runs a -> b, or -1.
static int qh_EdgeIndex(const qhFace* g, int a, int b)
{
    for (int k = 0; k < 3; ++k)
        if (g->v[k] == a && g->v[(k + 1) % 3] == b) return k;
    return -1;
}

// Add the eye point seen from face f0: remove the faces it sees and cone the horizon to it. False (nothing
// changed) when the visible region is not a disc, which only tolerance-sized ambiguities produce.
static bool qh_AddPoint(qhBuild* b, int f0, int eye)
{
    fcVec3 e = b->p[eye];
    int stamp = ++b->stamp;
    int nv = 0;
    b->list = qh_Grow(b->list, &b->listCap, 1, sizeof(int));
    b->list[nv++] = f0;
    b->f[f0].mark = stamp;
    for (int i = 0; i < nv; ++i) {
        for (int k = 0; k < 3; ++k) {
            int g = b->f[b->list[i]].adj[k];
            if (b->f[g].mark == stamp || qh_Dist(&b->f[g], e) <= b->eps) continue;
            b->f[g].mark = stamp;
            b->list = qh_Grow(b->list, &b->listCap, nv + 1, sizeof(int));
            b->list[nv++] = g;
        }
    }
    // a face all of whose neighbours go is a hole in the region (the eye is within eps of its plane): it goes too
    for (bool grew = true; grew;) {
        grew = false;
        for (int i = 0; i < nv; ++i) {
            for (int k = 0; k < 3; ++k) {
                int g = b->f[b->list[i]].adj[k];
                if (b->f[g].mark == stamp) continue;
                const qhFace* gf = &b->f[g];
                if (b->f[gf->adj[0]].mark == stamp && b->f[gf->adj[1]].mark == stamp && b->f[gf->adj[2]].mark == stamp) {
                    b->f[g].mark = stamp;
                    b->list = qh_Grow(b->list, &b->listCap, nv + 1, sizeof(int));
                    b->list[nv++] = g;
                    grew = true;
                }
            }
        }
    }

    int h = 0;
    bool ok = true;
    for (int i = 0; i < nv && ok; ++i) {
        const qhFace* f = &b->f[b->list[i]];
        for (int k = 0; k < 3; ++k) {
            int g = f->adj[k];
            if (b->f[g].mark == stamp) continue;
            qhEdge he = {f->v[k], f->v[(k + 1) % 3], g, qh_EdgeIndex(&b->f[g], f->v[(k + 1) % 3], f->v[k])};
            if (he.edge < 0) ok = false;
            b->horizon = qh_Grow(b->horizon, &b->horizonCap, h + 1, sizeof(qhEdge));
            b->horizon[h++] = he;
        }
    }
    // the horizon must be one simple loop
    for (int i = 0; i < h; ++i) {
        if (b->from[b->horizon[i].a] >= 0) ok = false;
        else b->from[b->horizon[i].a] = i;
    }
    b->order = qh_Grow(b->order, &b->orderCap, h, sizeof(int));
    if (ok && h >= 3) {
        int cur = 0;
        for (int s = 0; s < h && ok; ++s) {
            b->order[s] = cur;
            cur = b->from[b->horizon[cur].b];
            if (cur < 0 || (cur == 0 && s != h - 1)) ok = false;
        }
        if (cur != 0) ok = false;
    } else {
        ok = false;
    }
    for (int i = 0; i < h; ++i) b->from[b->horizon[i].a] = -1;
    if (!ok) return false;

    // the visible faces' points lose their faces; the eye is on the hull now
    int orphanCount = 0;
    for (int i = 0; i < nv; ++i) {
        qhFace* f = &b->f[b->list[i]];
        for (int q = f->outside; q >= 0; q = b->next[q]) {
            if (q == eye) continue;
            b->orphans = qh_Grow(b->orphans, &b->orphanCap, orphanCount + 1, sizeof(int));
            b->orphans[orphanCount++] = q;
        }
        f->outside = -1;
        f->alive = false;
    }
    int first = b->faceCount;
    for (int s = 0; s < h; ++s) {
        qhEdge he = b->horizon[b->order[s]];
        int nf = qh_NewFace(b, he.a, he.b, eye);
        b->f[nf].adj[0] = he.face;
        b->f[he.face].adj[he.edge] = nf;
    }
    for (int s = 0; s < h; ++s) {
        b->f[first + s].adj[1] = first + (s + 1) % h;
        b->f[first + s].adj[2] = first + (s + h - 1) % h;
    }
    for (int i = 0; i < orphanCount; ++i) qh_Assign(b, b->orphans[i], first, b->faceCount);
    return true;
}

typedef struct qhSeed { fcReal area; int index; } qhSeed;

static int qh_CompareSeeds(const void* pa, const void* pb)
{
    const qhSeed* a = pa;
    const qhSeed* b = pb;
    if (a->area != b->area) return a->area > b->area ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

typedef struct qhDirected { int lo, hi, from, to, face; } qhDirected;

static int qh_CompareDirected(const void* pa, const void* pb)
{
    const qhDirected* a = pa;
    const qhDirected* b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return (a->face > b->face) - (a->face < b->face);
}

// Exact mass properties of the unit-density solid: tetrahedra from the vertex mean to each fan triangle.
static void fcHull_Mass(const fcVec3* v, int vertexCount, const fcHullFace* faces, int faceCount, const int* loops,
                        fcReal* volume, fcVec3* centroid, fcMat33* inertia)
{
    fcVec3 r = fcV3(0, 0, 0);
    for (int i = 0; i < vertexCount; ++i) r = fcVec3_Add(r, v[i]);
    r = fcVec3_Scale((fcReal)1 / (fcReal)vertexCount, r);
    fcReal det6 = 0, xx = 0, yy = 0, zz = 0, xy = 0, xz = 0, yz = 0;
    fcVec3 first = fcV3(0, 0, 0);
    for (int f = 0; f < faceCount; ++f) {
        const int* loop = loops + faces[f].first;
        fcVec3 a = fcVec3_Sub(v[loop[0]], r);
        for (int i = 1; i + 1 < faces[f].count; ++i) {
            fcVec3 b = fcVec3_Sub(v[loop[i]], r), c = fcVec3_Sub(v[loop[i + 1]], r);
            fcReal det = fcVec3_Dot(a, fcVec3_Cross(b, c));
            fcVec3 s = fcVec3_Add(fcVec3_Add(a, b), c);
            det6 += det;
            first = fcVec3_MulAdd(first, det, s);
            // integral of x x^T over the tetrahedron (0, a, b, c): det/120 (a a^T + b b^T + c c^T + s s^T)
            xx += det * (a.x * a.x + b.x * b.x + c.x * c.x + s.x * s.x);
            yy += det * (a.y * a.y + b.y * b.y + c.y * c.y + s.y * s.y);
            zz += det * (a.z * a.z + b.z * b.z + c.z * c.z + s.z * s.z);
            xy += det * (a.x * a.y + b.x * b.y + c.x * c.y + s.x * s.y);
            xz += det * (a.x * a.z + b.x * b.z + c.x * c.z + s.x * s.z);
            yz += det * (a.y * a.z + b.y * b.z + c.y * c.z + s.y * s.z);
        }
    }
    fcReal vol = det6 / 6;
    fcVec3 c = fcVec3_Scale(1 / (4 * det6), first);
    // second moments about the centroid (parallel axis), then the inertia tensor
    xx = xx / 120 - vol * c.x * c.x;
    yy = yy / 120 - vol * c.y * c.y;
    zz = zz / 120 - vol * c.z * c.z;
    xy = xy / 120 - vol * c.x * c.y;
    xz = xz / 120 - vol * c.x * c.z;
    yz = yz / 120 - vol * c.y * c.z;
    fcMat33 m = {{yy + zz, -xy, -xz}, {-xy, xx + zz, -yz}, {-xz, -yz, xx + yy}};
    *volume = vol;
    *centroid = fcVec3_Add(r, c);
    *inertia = m;
}

static bool qh_InitialSimplex(qhBuild* b, int idx[4], char* why, int whyCapacity)
{
    const fcVec3* p = b->p;
    int ext[6];
    for (int a = 0; a < 3; ++a) {
        ext[2 * a] = ext[2 * a + 1] = 0;
        for (int i = 1; i < b->n; ++i) {
            fcReal c = a == 0 ? p[i].x : a == 1 ? p[i].y : p[i].z;
            fcReal lo = a == 0 ? p[ext[2 * a]].x : a == 1 ? p[ext[2 * a]].y : p[ext[2 * a]].z;
            fcReal hi = a == 0 ? p[ext[2 * a + 1]].x : a == 1 ? p[ext[2 * a + 1]].y : p[ext[2 * a + 1]].z;
            if (c < lo) ext[2 * a] = i;
            if (c > hi) ext[2 * a + 1] = i;
        }
    }
    fcReal best = -1;
    for (int i = 0; i < 6; ++i)
        for (int j = i + 1; j < 6; ++j) {
            fcVec3 d = fcVec3_Sub(p[ext[j]], p[ext[i]]);
            fcReal dd = fcVec3_Dot(d, d);
            if (dd > best) {
                best = dd;
                idx[0] = ext[i];
                idx[1] = ext[j];
            }
        }
    if (FC_SQRT(best) <= b->eps) {
        fcHull_Why(why, whyCapacity, "all %d points coincide: a hull needs points spanning a volume", b->n);
        return false;
    }
    fcVec3 a0 = p[idx[0]], dir = fcVec3_Normalize(fcVec3_Sub(p[idx[1]], a0));
    best = -1;
    for (int i = 0; i < b->n; ++i) {
        fcReal d = fcVec3_Length(fcVec3_Cross(fcVec3_Sub(p[i], a0), dir));
        if (d > best) {
            best = d;
            idx[2] = i;
        }
    }
    if (best <= b->eps) {
        fcHull_Why(why, whyCapacity, "the %d points are collinear: a hull needs points spanning a volume", b->n);
        return false;
    }
    fcVec3 n = fcVec3_Normalize(fcVec3_Cross(fcVec3_Sub(p[idx[1]], a0), fcVec3_Sub(p[idx[2]], a0)));
    best = -1;
    fcReal side = 0;
    for (int i = 0; i < b->n; ++i) {
        fcReal d = fcVec3_Dot(n, fcVec3_Sub(p[i], a0));
        if (FC_FABS(d) > best) {
            best = FC_FABS(d);
            side = d;
            idx[3] = i;
        }
    }
    if (best <= b->eps) {
        fcHull_Why(why, whyCapacity, "the %d points are coplanar: a hull needs points spanning a volume", b->n);
        return false;
    }
    if (side > 0) {  // the apex must lie below the first face
        int t = idx[1];
        idx[1] = idx[2];
        idx[2] = t;
    }
    return true;
}

static void qh_Free(qhBuild* b)
{
    fcFree(b->next);
    fcFree(b->f);
    fcFree(b->list);
    fcFree(b->horizon);
    fcFree(b->order);
    fcFree(b->from);
    fcFree(b->orphans);
}

fcHull* fcHull_Create(const fcVec3* points, int count, char* why, int whyCapacity)
{
    if (points == NULL || count < 4) {
        fcHull_Why(why, whyCapacity, "a hull needs at least 4 points spanning a volume, got %d%s", count,
                   points == NULL ? " and points is NULL" : "");
        return NULL;
    }
    fcVec3 lo = points[0], hi = points[0];
    fcReal magnitude = 0;
    for (int i = 0; i < count; ++i) {
        fcVec3 q = points[i];
        if (!fcVec3_IsFinite(q)) {
            fcHull_Why(why, whyCapacity, "point %d is not finite (%g, %g, %g)", i, (double)q.x, (double)q.y, (double)q.z);
            return NULL;
        }
        if (fmax(FC_FABS(q.x), fmax(FC_FABS(q.y), FC_FABS(q.z))) > FC_GEOMETRY_MAX_COORDINATE) {
            fcHull_Why(why, whyCapacity, "point %d (%g, %g, %g) is too far out: coordinates must be within %g m", i,
                       (double)q.x, (double)q.y, (double)q.z, (double)FC_GEOMETRY_MAX_COORDINATE);
            return NULL;
        }
        lo = fcV3(fmin(lo.x, q.x), fmin(lo.y, q.y), fmin(lo.z, q.z));
        hi = fcV3(fmax(hi.x, q.x), fmax(hi.y, q.y), fmax(hi.z, q.z));
        magnitude = fmax(magnitude, FC_FABS(q.x) + FC_FABS(q.y) + FC_FABS(q.z));
    }
    fcReal extent = fmax(hi.x - lo.x, fmax(hi.y - lo.y, hi.z - lo.z));

    qhBuild b;
    memset(&b, 0, sizeof b);
    b.p = points;
    b.n = count;
    // relative to the extent for the geometry, and to the coordinates' size for their rounding
    b.eps = FC_HULL_TOL * extent + 8 * FC_EPSILON * magnitude;
    b.next = fcAlloc((size_t)count * sizeof(int));
    b.from = fcAlloc((size_t)count * sizeof(int));
    for (int i = 0; i < count; ++i) b.from[i] = -1;

    int s[4] = {0, 0, 0, 0};
    if (!qh_InitialSimplex(&b, s, why, whyCapacity)) {
        qh_Free(&b);
        return NULL;
    }
    // faces pointing away from the opposite corner; s[3] lies below face (s0, s1, s2)
    qh_NewFace(&b, s[0], s[1], s[2]);
    qh_NewFace(&b, s[0], s[3], s[1]);
    qh_NewFace(&b, s[1], s[3], s[2]);
    qh_NewFace(&b, s[2], s[3], s[0]);
    for (int f = 0; f < 4; ++f)
        for (int k = 0; k < 3; ++k) {
            int a = b.f[f].v[k], c = b.f[f].v[(k + 1) % 3];
            for (int g = 0; g < 4; ++g)
                if (g != f && qh_EdgeIndex(&b.f[g], c, a) >= 0) b.f[f].adj[k] = g;
        }
    for (int i = 0; i < count; ++i)
        if (i != s[0] && i != s[1] && i != s[2] && i != s[3]) qh_Assign(&b, i, 0, 4);

    for (int fi = 0; fi < b.faceCount;) {
        if (!b.f[fi].alive || b.f[fi].outside < 0) {
            ++fi;
            continue;
        }
        int eye = -1;
        fcReal far = -1;
        for (int q = b.f[fi].outside; q >= 0; q = b.next[q]) {
            fcReal d = qh_Dist(&b.f[fi], points[q]);
            if (d > far) {
                far = d;
                eye = q;
            }
        }
        // an eye whose visible region is ambiguous is within tolerance of the hull: drop it
        if (!qh_AddPoint(&b, fi, eye)) qh_Unlink(&b, fi, eye);
    }

    // ---- merge coplanar triangles into polygons -------------------------------------------------------------
    int T = 0;
    int* remap = fcAlloc((size_t)b.faceCount * sizeof(int));
    for (int f = 0; f < b.faceCount; ++f) remap[f] = b.f[f].alive ? T++ : -1;
    int* tv = fcAlloc((size_t)T * 3 * sizeof(int));
    int* tadj = fcAlloc((size_t)T * 3 * sizeof(int));
    qhSeed* seeds = fcAlloc((size_t)T * sizeof(qhSeed));
    int* tface = fcAlloc((size_t)T * sizeof(int));
    for (int f = 0; f < b.faceCount; ++f) {
        if (remap[f] < 0) continue;
        int t = remap[f];
        tface[t] = f;
        for (int k = 0; k < 3; ++k) {
            tv[3 * t + k] = b.f[f].v[k];
            tadj[3 * t + k] = remap[b.f[f].adj[k]];
        }
        fcVec3 pa = points[tv[3 * t]];
        seeds[t].area = fcVec3_Length(fcVec3_Cross(fcVec3_Sub(points[tv[3 * t + 1]], pa), fcVec3_Sub(points[tv[3 * t + 2]], pa)));
        seeds[t].index = t;
    }
    qsort(seeds, (size_t)T, sizeof(qhSeed), qh_CompareSeeds);
    int* group = fcAlloc((size_t)T * sizeof(int));
    int* queue = fcAlloc((size_t)T * sizeof(int));
    int* loops = fcAlloc((size_t)T * 3 * sizeof(int));
    fcHullFace* faces = fcAlloc((size_t)T * sizeof(fcHullFace));
    int* nextV = b.from;  // all -1 again
    for (int t = 0; t < T; ++t) group[t] = -1;
    int F = 0, loopCount = 0;
    for (int si = 0; si < T; ++si) {
        int seed = seeds[si].index;
        if (group[seed] >= 0) continue;
        const qhFace* sf = &b.f[tface[seed]];
        fcVec3 sn = sf->n;
        fcReal sd = sf->d;
        int qn = 0;
        queue[qn++] = seed;
        group[seed] = F;
        for (int qi = 0; qi < qn; ++qi) {
            int t = queue[qi];
            for (int k = 0; k < 3; ++k) {
                int u = tadj[3 * t + k];
                if (group[u] >= 0) continue;
                bool flat = true;
                for (int j = 0; j < 3 && flat; ++j) flat = FC_FABS(fcVec3_Dot(sn, points[tv[3 * u + j]]) - sd) <= b.eps;
                fcVec3 pu = points[tv[3 * u]];
                fcVec3 nu = fcVec3_Cross(fcVec3_Sub(points[tv[3 * u + 1]], pu), fcVec3_Sub(points[tv[3 * u + 2]], pu));
                if (!flat || fcVec3_Dot(nu, sn) <= 0) continue;
                group[u] = F;
                queue[qn++] = u;
            }
        }
        // the group's boundary, chained into one loop
        int m = 0, start = -1;
        bool ok = true;
        for (int qi = 0; qi < qn; ++qi) {
            int t = queue[qi];
            for (int k = 0; k < 3; ++k) {
                if (group[tadj[3 * t + k]] == F) continue;
                int a = tv[3 * t + k], c = tv[3 * t + (k + 1) % 3];
                if (nextV[a] >= 0) {
                    ok = false;
                    continue;
                }
                nextV[a] = c;
                if (start < 0) start = a;
                ++m;
            }
        }
        int len = 0;
        if (ok && start >= 0) {
            int cur = start;
            do {
                loops[loopCount + len++] = cur;
                cur = nextV[cur];
            } while (cur >= 0 && cur != start && len <= m);
            ok = cur == start && len == m;
        }
        for (int qi = 0; qi < qn; ++qi) {
            int t = queue[qi];
            for (int k = 0; k < 3; ++k) nextV[tv[3 * t + k]] = -1;
        }
        if (!ok) {
            // not a disc: keep only the seed triangle as this face, the others become seeds of their own
            for (int qi = 1; qi < qn; ++qi) group[queue[qi]] = -1;
            for (int k = 0; k < 3; ++k) loops[loopCount + k] = tv[3 * seed + k];
            len = 3;
        }
        faces[F].first = loopCount;
        faces[F].count = len;
        loopCount += len;
        ++F;
    }

    // ---- drop vertices that are not corners (on fewer than three faces: on an edge or inside a face) --------
    int* degree = fcAllocZeroed((size_t)count * sizeof(int));
    for (int i = 0; i < loopCount; ++i) ++degree[loops[i]];
    char* keep = fcAllocZeroed((size_t)count);
    for (int i = 0; i < count; ++i) keep[i] = degree[i] >= 3;
    for (bool changed = true; changed;) {
        changed = false;
        for (int f = 0; f < F; ++f) {
            int kept = 0;
            for (int i = 0; i < faces[f].count; ++i) kept += keep[loops[faces[f].first + i]];
            if (kept >= 3) continue;
            for (int i = 0; i < faces[f].count; ++i)
                if (!keep[loops[faces[f].first + i]]) {
                    keep[loops[faces[f].first + i]] = 1;
                    changed = true;
                }
        }
    }
    int V = 0;
    int* vmap = degree;  // reused: point -> hull vertex
    for (int i = 0; i < count; ++i) vmap[i] = keep[i] ? V++ : -1;
    int L = 0;
    for (int f = 0; f < F; ++f) {
        int first = L;
        for (int i = 0; i < faces[f].count; ++i) {
            int q = loops[faces[f].first + i];
            if (keep[q]) loops[L++] = vmap[q];
        }
        faces[f].first = first;
        faces[f].count = L - first;
    }

    fcHull* hull = NULL;
    fcVec3* verts = NULL;
    qhDirected* dir = NULL;
    fcHullEdge* edges = NULL;
    int E = 0;
    if (V > FC_HULL_MAX_VERTICES) {
        fcHull_Why(why, whyCapacity, "the hull of these %d points has %d vertices, more than the %d allowed: simplify the points",
                   count, V, FC_HULL_MAX_VERTICES);
        goto done;
    }
    verts = fcAlloc((size_t)V * sizeof(fcVec3));
    for (int i = 0; i < count; ++i)
        if (vmap[i] >= 0) verts[vmap[i]] = points[i];
    for (int f = 0; f < F; ++f) {
        const int* loop = loops + faces[f].first;
        fcVec3 c = fcV3(0, 0, 0);
        for (int i = 0; i < faces[f].count; ++i) c = fcVec3_Add(c, verts[loop[i]]);
        c = fcVec3_Scale((fcReal)1 / (fcReal)faces[f].count, c);
        fcVec3 n = fcV3(0, 0, 0);  // Newell: exact for planar loops, averaged for nearly planar ones
        for (int i = 0; i < faces[f].count; ++i)
            n = fcVec3_Add(n, fcVec3_Cross(fcVec3_Sub(verts[loop[i]], c), fcVec3_Sub(verts[loop[(i + 1) % faces[f].count]], c)));
        faces[f].normal = fcVec3_Normalize(n);
        fcReal d = fcVec3_Dot(faces[f].normal, verts[0]);
        for (int i = 1; i < V; ++i) d = fmax(d, fcVec3_Dot(faces[f].normal, verts[i]));
        faces[f].offset = d;  // a supporting plane: no vertex outside
    }
    dir = fcAlloc((size_t)L * sizeof(qhDirected));
    for (int f = 0; f < F; ++f)
        for (int i = 0; i < faces[f].count; ++i) {
            int a = loops[faces[f].first + i], c = loops[faces[f].first + (i + 1) % faces[f].count];
            qhDirected e = {a < c ? a : c, a < c ? c : a, a, c, f};
            dir[faces[f].first + i] = e;
        }
    qsort(dir, (size_t)L, sizeof(qhDirected), qh_CompareDirected);
    edges = fcAlloc((size_t)(L / 2 + 1) * sizeof(fcHullEdge));
    bool closed = L % 2 == 0;
    for (int i = 0; i + 1 < L && closed; i += 2) {
        const qhDirected* e1 = dir + i;
        const qhDirected* e2 = dir + i + 1;
        closed = e1->lo == e2->lo && e1->hi == e2->hi && e1->from == e2->to && (i + 2 >= L || dir[i + 2].lo != e1->lo || dir[i + 2].hi != e1->hi);
        const qhDirected* fwd = e1->from == e1->lo ? e1 : e2;
        const qhDirected* back = fwd == e1 ? e2 : e1;
        fcHullEdge he = {fwd->from, fwd->to, fwd->face, back->face};
        edges[E++] = he;
    }
    for (int f = 0; f < F && closed; ++f) closed = faces[f].count >= 3;
    if (!closed || V - E + F != 2) {
        fcHull_Why(why, whyCapacity, "the hull of these %d points could not be built: they are too close to degenerate", count);
        goto done;
    }

    // one block: the hull, then its arrays, widest elements first
    size_t size = sizeof(fcHull) + (size_t)V * sizeof(fcVec3) + (size_t)F * sizeof(fcHullFace) + (size_t)E * sizeof(fcHullEdge) +
                  (size_t)L * sizeof(int);
    char* block = fcAlloc(size);
    hull = (fcHull*)(void*)block;
    fcVec3* hv = (fcVec3*)(void*)(block + sizeof(fcHull));
    fcHullFace* hf = (fcHullFace*)(void*)(hv + V);
    fcHullEdge* he = (fcHullEdge*)(void*)(hf + F);
    int* hl = (int*)(void*)(he + E);
    memcpy(hv, verts, (size_t)V * sizeof(fcVec3));
    memcpy(hf, faces, (size_t)F * sizeof(fcHullFace));
    memcpy(he, edges, (size_t)E * sizeof(fcHullEdge));
    memcpy(hl, loops, (size_t)L * sizeof(int));
    hull->vertexCount = V;
    hull->faceCount = F;
    hull->edgeCount = E;
    hull->vertices = hv;
    hull->faces = hf;
    hull->edges = he;
    hull->loops = hl;
    fcHull_Mass(hv, V, hf, F, hl, &hull->volume, &hull->centroid, &hull->inertia);
    hull->radius = 0;
    for (int i = 0; i < V; ++i) hull->radius = fmax(hull->radius, fcVec3_Distance(hv[i], hull->centroid));

done:
    fcFree(verts);
    fcFree(dir);
    fcFree(edges);
    fcFree(keep);
    fcFree(degree);
    fcFree(faces);
    fcFree(loops);
    fcFree(queue);
    fcFree(group);
    fcFree(seeds);
    fcFree(tface);
    fcFree(tadj);
    fcFree(tv);
    fcFree(remap);
    qh_Free(&b);
    return hull;
}

void fcHull_Destroy(fcHull* hull) { fcFree(hull); }

int fcHull_GetVertexCount(const fcHull* hull) { return hull ? hull->vertexCount : 0; }

fcVec3 fcHull_GetVertex(const fcHull* hull, int i)
{
    if (hull == NULL || i < 0 || i >= hull->vertexCount) return fcV3(0, 0, 0);
    return hull->vertices[i];
}

void fcHull_ComputeMass(const fcHull* hull, fcReal* volume, fcVec3* centroid, fcMat33* inertia)
{
    *volume = hull->volume;
    *centroid = hull->centroid;
    *inertia = hull->inertia;
}

fcAabb fcHull_ComputeAabb(const fcHull* hull, fcTransform xf)
{
    fcMat33 r = fcMat33_FromQuat(xf.q);
    fcVec3 v = fcMat33_MulV(r, hull->vertices[0]);
    fcAabb box = {v, v};
    for (int i = 1; i < hull->vertexCount; ++i) {
        v = fcMat33_MulV(r, hull->vertices[i]);
        box.lo = fcV3(fmin(box.lo.x, v.x), fmin(box.lo.y, v.y), fmin(box.lo.z, v.z));
        box.hi = fcV3(fmax(box.hi.x, v.x), fmax(box.hi.y, v.y), fmax(box.hi.z, v.z));
    }
    box.lo = fcVec3_Add(box.lo, xf.p);
    box.hi = fcVec3_Add(box.hi, xf.p);
    return box;
}
