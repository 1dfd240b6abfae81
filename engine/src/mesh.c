// SPDX-License-Identifier: MIT
// Static triangle meshes: a validated copy of the triangles with their normals and edge neighbours, and a
// bounding volume tree (median splits) answering box queries and ray casts. The layout is in convex.h.
#include "convex.h"
#include "core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FC_MESH_LEAF 4
// A triangle whose area is below this times its longest edge squared has no usable normal: dropped.
#ifdef FC_FLOAT
#define FC_MESH_SLIVER 1e-5f
#else
#define FC_MESH_SLIVER 1e-9
#endif

static void fcMesh_Why(char* why, int capacity, const char* fmt, ...) FC_PRINTF(3, 4);
static void fcMesh_Why(char* why, int capacity, const char* fmt, ...)
{
    if (why == NULL || capacity <= 0) return;
    va_list args;
    va_start(args, fmt);
    vsnprintf(why, (size_t)capacity, fmt, args);
    va_end(args);
}

static fcReal fcMesh_Axis(fcVec3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

static fcAabb fcMesh_TriangleBox(const fcMesh* mesh, int t)
{
    const int* v = mesh->triangles + 3 * t;
    fcVec3 a = mesh->vertices[v[0]], b = mesh->vertices[v[1]], c = mesh->vertices[v[2]];
    fcAabb box = {fcV3(fmin(a.x, fmin(b.x, c.x)), fmin(a.y, fmin(b.y, c.y)), fmin(a.z, fmin(b.z, c.z))),
                  fcV3(fmax(a.x, fmax(b.x, c.x)), fmax(a.y, fmax(b.y, c.y)), fmax(a.z, fmax(b.z, c.z)))};
    return box;
}

static fcAabb fcMesh_Union(fcAabb a, fcAabb b)
{
    fcAabb u = {fcV3(fmin(a.lo.x, b.lo.x), fmin(a.lo.y, b.lo.y), fmin(a.lo.z, b.lo.z)),
                fcV3(fmax(a.hi.x, b.hi.x), fmax(a.hi.y, b.hi.y), fmax(a.hi.z, b.hi.z))};
    return u;
}

static bool fcMesh_Overlap(fcAabb a, fcAabb b)
{
    return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
           b.lo.z <= a.hi.z;
}

typedef struct fcMeshBuild {
    fcMesh* mesh;
    const fcVec3* centroids;
    const fcAabb* boxes;
} fcMeshBuild;

// centroid order along axis, ties by index: a strict total order, so the tree does not depend on qsort
static bool fcMesh_Less(const fcVec3* c, int axis, int a, int b)
{
    fcReal ca = fcMesh_Axis(c[a], axis), cb = fcMesh_Axis(c[b], axis);
    return ca < cb || (ca == cb && a < b);
}

static void fcMesh_Swap(int* order, int i, int j)
{
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
}

// Quickselect: afterwards order[k] is the k-th of order[lo, hi), smaller ones before it, larger after.
static void fcMesh_Select(int* order, int lo, int hi, int k, const fcVec3* c, int axis)
{
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2, last = hi - 1;
        if (fcMesh_Less(c, axis, order[mid], order[lo])) fcMesh_Swap(order, mid, lo);
        if (fcMesh_Less(c, axis, order[last], order[lo])) fcMesh_Swap(order, last, lo);
        if (fcMesh_Less(c, axis, order[mid], order[last])) fcMesh_Swap(order, mid, last);
        int pivot = order[last], store = lo;  // the median of three, at the end
        for (int i = lo; i < last; ++i)
            if (fcMesh_Less(c, axis, order[i], pivot)) fcMesh_Swap(order, i, store++);
        fcMesh_Swap(order, store, last);
        if (k == store) return;
        if (k < store) hi = store;
        else lo = store + 1;
    }
}

static int fcMesh_Build(fcMeshBuild* b, int lo, int hi)
{
    fcMesh* mesh = b->mesh;
    int node = mesh->nodeCount++;
    fcAabb box = b->boxes[mesh->order[lo]];
    fcAabb cbox = {b->centroids[mesh->order[lo]], b->centroids[mesh->order[lo]]};
    for (int i = lo + 1; i < hi; ++i) {
        int t = mesh->order[i];
        box = fcMesh_Union(box, b->boxes[t]);
        fcAabb c = {b->centroids[t], b->centroids[t]};
        cbox = fcMesh_Union(cbox, c);
    }
    mesh->nodes[node].box = box;
    if (hi - lo <= FC_MESH_LEAF) {
        mesh->nodes[node].index = lo;
        mesh->nodes[node].count = hi - lo;
        return node;
    }
    fcVec3 e = fcVec3_Sub(cbox.hi, cbox.lo);
    int axis = e.x >= e.y && e.x >= e.z ? 0 : e.y >= e.z ? 1 : 2;
    int mid = lo + (hi - lo) / 2;
    fcMesh_Select(mesh->order, lo, hi, mid, b->centroids, axis);
    mesh->nodes[node].count = 0;
    fcMesh_Build(b, lo, mid);
    int right = fcMesh_Build(b, mid, hi);
    mesh->nodes[node].index = right;
    return node;
}

typedef struct fcMeshEdge { int lo, hi, slot; } fcMeshEdge;
typedef struct fcMeshWeld { fcVec3 p; int index; } fcMeshWeld;

static int fcMesh_CompareWeld(const void* pa, const void* pb)
{
    const fcMeshWeld* a = pa;
    const fcMeshWeld* b = pb;
    if (a->p.x != b->p.x) return a->p.x < b->p.x ? -1 : 1;
    if (a->p.y != b->p.y) return a->p.y < b->p.y ? -1 : 1;
    if (a->p.z != b->p.z) return a->p.z < b->p.z ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

static int fcMesh_CompareEdges(const void* pa, const void* pb)
{
    const fcMeshEdge* a = pa;
    const fcMeshEdge* b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return (a->slot > b->slot) - (a->slot < b->slot);
}

fcMesh* fcMesh_Create(const fcVec3* vertices, int vertexCount, const int* indices, int triangleCount, char* why,
                      int whyCapacity)
{
    if (indices == NULL || triangleCount <= 0) {
        fcMesh_Why(why, whyCapacity, "a mesh needs at least one triangle, got %d", indices ? triangleCount : 0);
        return NULL;
    }
    if (vertices == NULL || vertexCount <= 0) {
        fcMesh_Why(why, whyCapacity, "a mesh needs vertices, got %d", vertices ? vertexCount : 0);
        return NULL;
    }
    for (int i = 0; i < vertexCount; ++i) {
        fcVec3 v = vertices[i];
        if (!fcVec3_IsFinite(v)) {
            fcMesh_Why(why, whyCapacity, "vertex %d is not finite (%g, %g, %g)", i, (double)v.x, (double)v.y, (double)v.z);
            return NULL;
        }
        if (fmax(FC_FABS(v.x), fmax(FC_FABS(v.y), FC_FABS(v.z))) > FC_GEOMETRY_MAX_COORDINATE) {
            fcMesh_Why(why, whyCapacity, "vertex %d (%g, %g, %g) is too far out: coordinates must be within %g m", i,
                       (double)v.x, (double)v.y, (double)v.z, (double)FC_GEOMETRY_MAX_COORDINATE);
            return NULL;
        }
    }
    for (int i = 0; i < 3 * triangleCount; ++i)
        if (indices[i] < 0 || indices[i] >= vertexCount) {
            fcMesh_Why(why, whyCapacity, "index %d (triangle %d, corner %d) is %d: out of range for %d vertices", i, i / 3,
                       i % 3, indices[i], vertexCount);
            return NULL;
        }
    int kept = 0;
    for (int t = 0; t < triangleCount; ++t) {
        fcVec3 a = vertices[indices[3 * t]], b = vertices[indices[3 * t + 1]], c = vertices[indices[3 * t + 2]];
        fcVec3 ab = fcVec3_Sub(b, a), ac = fcVec3_Sub(c, a), bc = fcVec3_Sub(c, b);
        fcReal longest = fmax(fcVec3_Dot(ab, ab), fmax(fcVec3_Dot(ac, ac), fcVec3_Dot(bc, bc)));
        kept += fcVec3_Length(fcVec3_Cross(ab, ac)) > FC_MESH_SLIVER * longest;
    }
    if (kept == 0) {
        fcMesh_Why(why, whyCapacity, "all %d triangles of the mesh have zero area", triangleCount);
        return NULL;
    }

    fcMesh* mesh = fcAllocZeroed(sizeof(fcMesh));
    mesh->vertexCount = vertexCount;
    mesh->triangleCount = kept;
    mesh->vertices = fcAlloc((size_t)vertexCount * sizeof(fcVec3));
    memcpy(mesh->vertices, vertices, (size_t)vertexCount * sizeof(fcVec3));
    mesh->triangles = fcAlloc((size_t)kept * 3 * sizeof(int));
    mesh->normals = fcAlloc((size_t)kept * sizeof(fcVec3));
    mesh->neighbors = fcAlloc((size_t)kept * 3 * sizeof(int));
    mesh->opposite = fcAlloc((size_t)kept * 3 * sizeof(int));
    mesh->order = fcAlloc((size_t)kept * sizeof(int));
    mesh->nodes = fcAlloc((size_t)(2 * kept) * sizeof(fcMeshNode));
    if (kept < triangleCount) mesh->source = fcAlloc((size_t)kept * sizeof(int));
    int n = 0;
    for (int t = 0; t < triangleCount; ++t) {
        fcVec3 a = vertices[indices[3 * t]], b = vertices[indices[3 * t + 1]], c = vertices[indices[3 * t + 2]];
        fcVec3 ab = fcVec3_Sub(b, a), ac = fcVec3_Sub(c, a), bc = fcVec3_Sub(c, b);
        fcReal longest = fmax(fcVec3_Dot(ab, ab), fmax(fcVec3_Dot(ac, ac), fcVec3_Dot(bc, bc)));
        fcVec3 cross = fcVec3_Cross(ab, ac);
        if (!(fcVec3_Length(cross) > FC_MESH_SLIVER * longest)) continue;
        for (int k = 0; k < 3; ++k) mesh->triangles[3 * n + k] = indices[3 * t + k];
        mesh->normals[n] = fcVec3_Normalize(cross);
        if (mesh->source) mesh->source[n] = t;
        ++n;
    }

    // Neighbours: the edges sorted by their vertex pair; a pair shared by exactly two triangles links them.
    // Exported meshes often repeat a vertex per face (normals, texture seams): the pair is of positions.
    fcMeshWeld* weld = fcAlloc((size_t)vertexCount * sizeof(fcMeshWeld));
    int* same = fcAlloc((size_t)vertexCount * sizeof(int));
    for (int i = 0; i < vertexCount; ++i) {
        weld[i].p = vertices[i];
        weld[i].index = i;
    }
    qsort(weld, (size_t)vertexCount, sizeof(fcMeshWeld), fcMesh_CompareWeld);
    for (int i = 0, first = 0; i < vertexCount; ++i) {
        fcVec3 p = weld[i].p, q = weld[first].p;
        if (p.x != q.x || p.y != q.y || p.z != q.z) first = i;
        same[weld[i].index] = weld[first].index;
    }
    fcMeshEdge* edges = fcAlloc((size_t)kept * 3 * sizeof(fcMeshEdge));
    for (int s = 0; s < 3 * kept; ++s) {
        int a = same[mesh->triangles[s]], b = same[mesh->triangles[s - s % 3 + (s % 3 + 1) % 3]];
        fcMeshEdge e = {a < b ? a : b, a < b ? b : a, s};
        edges[s] = e;
        mesh->neighbors[s] = -1;
        mesh->opposite[s] = -1;
    }
    qsort(edges, (size_t)(3 * kept), sizeof(fcMeshEdge), fcMesh_CompareEdges);
    for (int i = 0; i < 3 * kept;) {
        int j = i + 1;
        while (j < 3 * kept && edges[j].lo == edges[i].lo && edges[j].hi == edges[i].hi) ++j;
        if (j - i == 2) {
            int s0 = edges[i].slot, s1 = edges[i + 1].slot;
            mesh->neighbors[s0] = s1 / 3;
            mesh->neighbors[s1] = s0 / 3;
            mesh->opposite[s0] = mesh->triangles[s1 - s1 % 3 + (s1 % 3 + 2) % 3];
            mesh->opposite[s1] = mesh->triangles[s0 - s0 % 3 + (s0 % 3 + 2) % 3];
        }
        i = j;
    }
    fcFree(edges);
    fcFree(same);
    fcFree(weld);

    fcVec3* centroids = fcAlloc((size_t)kept * sizeof(fcVec3));
    fcAabb* boxes = fcAlloc((size_t)kept * sizeof(fcAabb));
    for (int t = 0; t < kept; ++t) {
        const int* v = mesh->triangles + 3 * t;
        centroids[t] = fcVec3_Scale((fcReal)1 / 3, fcVec3_Add(fcVec3_Add(mesh->vertices[v[0]], mesh->vertices[v[1]]), mesh->vertices[v[2]]));
        boxes[t] = fcMesh_TriangleBox(mesh, t);
        mesh->order[t] = t;
    }
    fcMeshBuild build = {mesh, centroids, boxes};
    fcMesh_Build(&build, 0, kept);
    fcFree(centroids);
    fcFree(boxes);
    return mesh;
}

void fcMesh_Destroy(fcMesh* mesh)
{
    if (mesh == NULL) return;
    fcFree(mesh->vertices);
    fcFree(mesh->triangles);
    fcFree(mesh->normals);
    fcFree(mesh->neighbors);
    fcFree(mesh->opposite);
    fcFree(mesh->order);
    fcFree(mesh->nodes);
    fcFree(mesh->source);
    fcFree(mesh);
}

int fcMesh_GetTriangleCount(const fcMesh* mesh) { return mesh ? mesh->triangleCount : 0; }

int fcMesh_SourceTriangle(const fcMesh* mesh, int i) { return mesh->source ? mesh->source[i] : i; }

void fcMesh_GetTriangle(const fcMesh* mesh, int i, fcVec3* a, fcVec3* b, fcVec3* c)
{
    if (mesh == NULL || i < 0 || i >= mesh->triangleCount) {
        *a = *b = *c = fcV3(0, 0, 0);
        return;
    }
    const int* v = mesh->triangles + 3 * i;
    *a = mesh->vertices[v[0]];
    *b = mesh->vertices[v[1]];
    *c = mesh->vertices[v[2]];
}

// The tree is balanced (median splits), so its depth is at most log2 of the triangle count plus one: 64
// entries hold any int count, with both children pushed at each level.
#define FC_MESH_STACK 64

void fcMesh_Query(const fcMesh* mesh, fcAabb box, fcMeshVisitFcn* visit, void* context)
{
    if (mesh == NULL || mesh->nodeCount == 0) return;
    int stack[FC_MESH_STACK];
    int n = 0;
    stack[n++] = 0;
    while (n > 0) {
        int index = stack[--n];
        const fcMeshNode* node = mesh->nodes + index;
        if (!fcMesh_Overlap(node->box, box)) continue;
        if (node->count > 0) {
            for (int i = 0; i < node->count; ++i) {
                int t = mesh->order[node->index + i];
                if (fcMesh_Overlap(fcMesh_TriangleBox(mesh, t), box) && !visit(t, context)) return;
            }
        } else {
            stack[n++] = node->index;
            stack[n++] = index + 1;
        }
    }
}

fcAabb fcMesh_ComputeAabb(const fcMesh* mesh, fcTransform xf)
{
    fcAabb root = mesh->nodes[0].box;
    fcVec3 c = fcAabb_Centre(root);
    fcVec3 h = fcVec3_Scale((fcReal)0.5, fcVec3_Sub(root.hi, root.lo));
    fcMat33 r = fcMat33_FromQuat(xf.q);
    // the rotated box's corners span |R| h about the rotated centre
    fcVec3 e = fcV3(FC_FABS(r.cx.x) * h.x + FC_FABS(r.cy.x) * h.y + FC_FABS(r.cz.x) * h.z,
                    FC_FABS(r.cx.y) * h.x + FC_FABS(r.cy.y) * h.y + FC_FABS(r.cz.y) * h.z,
                    FC_FABS(r.cx.z) * h.x + FC_FABS(r.cy.z) * h.y + FC_FABS(r.cz.z) * h.z);
    fcVec3 wc = fcVec3_Add(xf.p, fcMat33_MulV(r, c));
    fcAabb box = {fcVec3_Sub(wc, e), fcVec3_Add(wc, e)};
    return box;
}

// Slab test of the ray o + t d, t in [0, tmax], against a box.
static bool fcMesh_RayBox(fcAabb box, fcVec3 o, fcVec3 d, fcReal tmax)
{
    fcReal lo = 0, hi = tmax;
    for (int a = 0; a < 3; ++a) {
        fcReal oa = fcMesh_Axis(o, a), da = fcMesh_Axis(d, a);
        fcReal bl = fcMesh_Axis(box.lo, a), bh = fcMesh_Axis(box.hi, a);
        if (da == 0) {
            if (oa < bl || oa > bh) return false;
            continue;
        }
        fcReal t0 = (bl - oa) / da, t1 = (bh - oa) / da;
        if (t0 > t1) {
            fcReal t = t0;
            t0 = t1;
            t1 = t;
        }
        lo = fmax(lo, t0);
        hi = fmin(hi, t1);
        if (lo > hi) return false;
    }
    return true;
}

bool fcRayCast_Mesh(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit)
{
    const fcMesh* mesh = g->mesh;
    if (mesh == NULL || mesh->nodeCount == 0) return false;
    fcVec3 o = fcQuat_InvRotate(xf.q, fcVec3_Sub(origin, xf.p));
    fcVec3 d = fcQuat_InvRotate(xf.q, dir);
    fcReal best = maxDistance;
    int found = -1;
    int stack[FC_MESH_STACK];
    int n = 0;
    stack[n++] = 0;
    while (n > 0) {
        int index = stack[--n];
        const fcMeshNode* node = mesh->nodes + index;
        if (!fcMesh_RayBox(node->box, o, d, best)) continue;
        if (node->count == 0) {
            stack[n++] = node->index;
            stack[n++] = index + 1;
            continue;
        }
        for (int i = 0; i < node->count; ++i) {
            // Moller-Trumbore: barycentric u, v and distance t by Cramer's rule
            int t = mesh->order[node->index + i];
            const int* v = mesh->triangles + 3 * t;
            fcVec3 a = mesh->vertices[v[0]];
            fcVec3 e1 = fcVec3_Sub(mesh->vertices[v[1]], a), e2 = fcVec3_Sub(mesh->vertices[v[2]], a);
            fcVec3 pv = fcVec3_Cross(d, e2);
            fcReal det = fcVec3_Dot(e1, pv);
            if (det == 0) continue;  // parallel to the plane
            fcReal inv = 1 / det;
            fcVec3 tv = fcVec3_Sub(o, a);
            fcReal u = fcVec3_Dot(tv, pv) * inv;
            if (u < 0 || u > 1) continue;
            fcVec3 qv = fcVec3_Cross(tv, e1);
            fcReal w = fcVec3_Dot(d, qv) * inv;
            if (w < 0 || u + w > 1) continue;
            fcReal dist = fcVec3_Dot(e2, qv) * inv;
            if (dist >= 0 && (dist < best || (dist == best && found < 0))) {
                best = dist;
                found = t;
            }
        }
    }
    if (found < 0) return false;
    fcVec3 nrm = mesh->normals[found];
    if (fcVec3_Dot(nrm, d) > 0) nrm = fcVec3_Neg(nrm);  // the side the ray came from
    hit->distance = best;
    hit->normal = fcQuat_Rotate(xf.q, nrm);
    hit->key = (uint32_t)found;
    return true;
}
