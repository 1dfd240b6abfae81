// SPDX-License-Identifier: MIT
// Private layout of convex hulls and triangle meshes: built by hull.c and mesh.c, read directly by the
// narrowphase (collide_convex.c), which needs the faces, edges and triangle neighbours, not just accessors.
#ifndef FC_CONVEX_H
#define FC_CONVEX_H

#include "collide.h"

// A hull keeps at most this many vertices, so the narrowphase can work on fixed-size stack buffers.
#define FC_HULL_MAX_VERTICES 256
#define FC_HULL_MAX_FACES (2 * FC_HULL_MAX_VERTICES - 4)

typedef struct fcHullFace {
    fcVec3 normal;   // outward, unit
    fcReal offset;   // the face plane is dot(normal, x) = offset
    int first;       // the face's vertex loop is loops[first .. first + count), counterclockwise about normal
    int count;
} fcHullFace;

// v0 -> v1 runs counterclockwise in face f0's loop, v1 -> v0 in face f1's.
typedef struct fcHullEdge { int v0, v1, f0, f1; } fcHullEdge;

struct fcHull {
    int vertexCount, faceCount, edgeCount;
    const fcVec3* vertices;
    const fcHullFace* faces;
    const int* loops;
    const fcHullEdge* edges;
    fcVec3 centroid;
    fcReal volume;
    fcMat33 inertia;  // unit density, about the centroid
    fcReal radius;    // largest distance of a vertex from the centroid
};

// Bounding volume tree node. A leaf (count > 0) holds the triangles order[index .. index + count); an inner
// node's children are the node right after it and node index.
typedef struct fcMeshNode { fcAabb box; int index, count; } fcMeshNode;

struct fcMesh {
    int vertexCount, triangleCount, nodeCount;
    fcVec3* vertices;
    int* triangles;  // 3 per triangle, counterclockwise about its normal
    fcVec3* normals;
    int* neighbors;  // 3 per triangle: the triangle across edge k (v[k] -> v[k+1]); -1 on a boundary or a
                     // non-manifold edge (more than two triangles). Vertices at one position count as one.
    int* opposite;   // 3 per triangle: the neighbour's corner off edge k (a vertex index), -1 with no neighbour
    int* order;
    fcMeshNode* nodes;
    int* source;     // per kept triangle: its index in the input (NULL: none was dropped, the same)
};

#endif
