// SPDX-License-Identifier: MIT
// Collision geometry and the narrowphase: bounding boxes, contact manifolds between two shapes, and the
// geometric queries (ray, distance, shape cast) the world's query API is built on. Pure geometry: nothing
// here knows about bodies, worlds or the solver.
//   collide.c            dispatch by shape pair, AABBs, ray casts by type
//   collide_primitive.c  closed-form pairs of sphere, capsule, box, plane (box-box: SAT + face clipping)
//   collide_convex.c     GJK distance, EPA, support maps; hulls, cylinders; triangles of meshes; shape cast
//   hull.c               convex hull from points (quickhull), its mass properties and box (convex.h: layout)
//   mesh.c               static triangle meshes, their bounding volume tree, box and ray casts
#ifndef FC_COLLIDE_H
#define FC_COLLIDE_H

#include "fulcrum/fulcrum.h"

#include <stdint.h>

typedef struct fcTransform { fcVec3 p; fcQuat q; } fcTransform;  // shape frame -> world
typedef struct fcAabb { fcVec3 lo, hi; } fcAabb;
static inline fcVec3 fcAabb_Centre(fcAabb box) { return fcVec3_Scale((fcReal)0.5, fcVec3_Add(box.lo, box.hi)); }
// how far a point in the box can be from p: the box's centre's distance plus its half diagonal
static inline fcReal fcAabb_Reach(fcAabb box, fcVec3 p)
{
    return fcVec3_Distance(fcAabb_Centre(box), p) + (fcReal)0.5 * fcVec3_Distance(box.hi, box.lo);
}

typedef struct fcHull fcHull;  // hull.c
typedef struct fcMesh fcMesh;  // mesh.c

// One shape's geometry in its own frame. Capsule and cylinder axes are the local z axis; a plane is the
// half-space z <= 0 of its frame (normal +z); a box is centred with half extents.
typedef struct fcGeometry {
    fcShapeType type;
    fcReal radius;       // sphere, capsule, cylinder
    fcReal halfHeight;   // capsule segment, cylinder: along local z
    fcVec3 halfExtents;  // box
    const fcHull* hull;  // fc_hullShape
    const fcMesh* mesh;  // fc_meshShape
} fcGeometry;

#define FC_MAX_MANIFOLD_POINTS 4

// Incident vertices this close (times the shapes' size) outside a reference face's side planes are kept, not
// clipped, by the box and the hull clips alike: the sides of a stack of equal shapes are flush, and rounding or a
// rocking hair must not turn vertex points into cut points (other ids, so no warm start: a resting stack of hull
// cubes rocked while its clip kept only 1e-5), nor add cuts a hair away from them.
#define FC_CLIP_SLACK ((fcReal)1e-3)

typedef struct fcManifoldPoint {
    fcVec3 point;        // world: midway between the two surfaces
    fcReal separation;   // m: negative when the shapes overlap
    uint32_t id;         // the pair of features that made the point: stable while the same features touch
} fcManifoldPoint;

// The contact of two convex pieces: one normal, up to four points.
typedef struct fcManifold {
    fcVec3 normal;       // unit, world, pointing from shape a to shape b
    int pointCount;
    uint32_t key;        // which piece of a compound shape touched (mesh: triangle index); 0 otherwise
    fcManifoldPoint points[FC_MAX_MANIFOLD_POINTS];
} fcManifold;

// A pair's manifolds of the last step: each one's key (a mesh's triangle) and normal (world, from a to b). A mesh's
// triangles are two-sided, each pushing a shape to the side its centre is on; a triangle the pair touched keeps
// pushing to the side it pushed to, and so does one within 45 degrees of a manifold's normal, so that a body
// pressed past a triangle's plane (crushed, or sliding off a boundary edge) is not pushed through.
#define FC_COLLIDE_HISTORY 4
typedef struct fcCollideHistory {
    int count;
    uint32_t key[FC_COLLIDE_HISTORY];
    fcVec3 normal[FC_COLLIDE_HISTORY];
} fcCollideHistory;

// collide.c --------------------------------------------------------------------------------------------------------
fcAabb fcGeometry_ComputeAabb(const fcGeometry* g, fcTransform xf);
// Contacts of a and b where their surfaces are closer than margin (margin > 0 makes speculative points with
// separation in [0, margin)). Writes up to capacity manifolds (a convex pair gives at most one; a mesh one
// per touching triangle) and returns how many have points. Any pair order; normals point from a to b.
// last: the pair's manifolds of the last step (NULL: none), which a mesh reads (fcCollideHistory).
int fcCollide(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
              const fcCollideHistory* last, fcManifold* out, int capacity);
// Ray origin + t dir (dir unit), 0 <= t <= maxDistance. On a hit: the distance t and the outward unit normal
// (world). A ray starting inside a solid shape hits at t = 0 with normal -dir.
typedef struct fcRayHitGeometry { fcReal distance; fcVec3 normal; uint32_t key; } fcRayHitGeometry;
bool fcGeometry_RayCast(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance,
                        fcRayHitGeometry* hit);

// collide_primitive.c: each fills m (normal a -> b) and returns its point count; 0 when farther than margin.
// The dispatcher calls them with the pair in this order (it swaps and flips otherwise).
int fcCollide_SphereSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_CapsuleSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_CapsuleCapsule(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_BoxSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_BoxCapsule(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_BoxBox(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_PlaneSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_PlaneCapsule(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_PlaneBox(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_PlaneCylinder(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
// Reduce n > 4 points (tangent coordinates u, v; separations) to 4, their indices in keep: the deepest, the one
// farthest from it, the one making the largest triangle with those, and the one adding the most area outside
// that triangle. Comparisons need a margin (tolDepth, m; tolArea, m^2) to win, so that near ties resolve by index,
// the same way every step: a flush face of many points (a cylinder's cap) keeps the same four, and their ids.
int fcManifold_ReduceTo4(const fcReal* u, const fcReal* v, const fcReal* sep, int n, fcReal tolDepth, fcReal tolArea,
                         int* keep);
bool fcRayCast_Sphere(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit);
bool fcRayCast_Capsule(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit);
bool fcRayCast_Box(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit);
bool fcRayCast_Plane(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit);
bool fcRayCast_Cylinder(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit);

// collide_convex.c: the general convex pair (any of sphere, capsule, box, cylinder, hull; at least one of
// them a cylinder or a hull), the plane against a hull, and a mesh against any convex shape.
int fcCollide_Convex(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
int fcCollide_PlaneHull(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin, fcManifold* m);
// a is the mesh; up to capacity manifolds, one per touching triangle (key = triangle index); lastSign: +1 when
// last's normals point from the mesh, -1 when towards it
int fcCollide_MeshConvex(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                         const fcCollideHistory* last, fcReal lastSign, fcManifold* out, int capacity);
bool fcRayCast_Hull(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit);
bool fcRayCast_Mesh(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance, fcRayHitGeometry* hit);
// Closest points of two convex shapes: their distance, 0 when they overlap (then the points are one common
// point); -1 when either is a plane or a mesh (not supported).
fcReal fcGeometry_Distance(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcVec3* pointA,
                           fcVec3* pointB);
// Sweep a by translation (b still): the first fraction in [0, 1] where they touch, with the contact point
// and the normal (from a to b), and for a mesh b the triangle touched (triangle may be NULL; -1 for other shapes).
// False when they never touch, or when they overlap at the start (fraction 0).
bool fcGeometry_ShapeCast(const fcGeometry* a, fcTransform xa, fcVec3 translation, const fcGeometry* b, fcTransform xb,
                          fcReal* fraction, fcVec3* point, fcVec3* normal, int* triangle);
// Whether convex a, swept by translation (b still), stays farther than `within` from b all the way. False when it
// comes that close, or when either shape is not convex (a plane, a mesh: not answered).
bool fcGeometry_SweepMisses(const fcGeometry* a, fcTransform xa, fcVec3 translation, const fcGeometry* b, fcTransform xb,
                            fcReal within);
// A step's path of a body (continuous.c): its centre moves from `centre` by `shift` while the body turns by exp(t turn)
// about it, t in [0, 1]; reach bounds the distance from the centre of any point of a shape that rides it.
typedef struct fcPath {
    fcVec3 centre, shift, turn;
    fcReal reach;
} fcPath;
// the pose at t of a shape that rides the path from pose x at t = 0
static inline fcTransform fcPath_Pose(const fcPath* path, fcTransform x, fcReal t)
{
    fcQuat dq = fcQuat_FromRotationVector(fcVec3_Scale(t, path->turn));
    fcTransform xt = {fcVec3_Add(fcVec3_MulAdd(path->centre, t, path->shift), fcQuat_Rotate(dq, fcVec3_Sub(x.p, path->centre))),
                      fcQuat_Renormalize(fcQuat_Mul(dq, x.q))};
    return xt;
}
// Convex a, at pose xa at t = 0, riding the path, against a still shape b (convex, or a mesh: each triangle on its
// own): 1 with the first t in [0, 1] at which a comes within `target` of b; -1 when a is within target of b (a mesh:
// of a triangle, and comes within it of no other) at t = 0; 0 when it does not come that close, and for a plane
// (solid behind: nothing passes it).
int fcGeometry_PathTouch(const fcGeometry* a, fcTransform xa, const fcPath* path, const fcGeometry* b, fcTransform xb,
                         fcReal target, fcReal* fraction);
// How far a convex shape reaches along the unit direction dir: max over its points x of dir . x (world); INFINITY for a
// plane or a mesh (collide_convex.c)
fcReal fcGeometry_Extent(const fcGeometry* g, fcTransform xf, fcVec3 dir);
// AABB of a hull (hull.c) or mesh (mesh.c) in the world (collide.c handles the primitives)
fcAabb fcHull_ComputeAabb(const fcHull* hull, fcTransform xf);
fcAabb fcMesh_ComputeAabb(const fcMesh* mesh, fcTransform xf);

// hull.c: NULL with the reason in why (size whyCapacity) when the points span no volume (fewer than 4
// points, all coplanar, non-finite). Coincident and interior points are dropped.
fcHull* fcHull_Create(const fcVec3* points, int count, char* why, int whyCapacity);
void fcHull_Destroy(fcHull* hull);
int fcHull_GetVertexCount(const fcHull* hull);
fcVec3 fcHull_GetVertex(const fcHull* hull, int i);
// solid of unit density: volume, centroid and inertia about the centroid, in the hull's frame
void fcHull_ComputeMass(const fcHull* hull, fcReal* volume, fcVec3* centroid, fcMat33* inertia);

// Hull points and mesh vertices beyond this (m, any coordinate) are refused: the products the builds take of their
// differences (cross products, volumes) would overflow, and the refusal named a consequence (collinear points,
// zero-area triangles) instead of the cause.
#ifdef FC_FLOAT
#define FC_GEOMETRY_MAX_COORDINATE ((fcReal)1e9)  // cubes of 2e9 stay within float's 3e38
#else
#define FC_GEOMETRY_MAX_COORDINATE ((fcReal)1e100)
#endif

// mesh.c: NULL with the reason when an index is out of range, a value is not finite or there are no triangles.
// Degenerate (zero-area) triangles are dropped; triangle indices (manifold and ray keys, fcMesh_GetTriangle)
// count the kept triangles; fcMesh_SourceTriangle gives a kept triangle's index in the input, which the API reports.
fcMesh* fcMesh_Create(const fcVec3* vertices, int vertexCount, const int* indices, int triangleCount, char* why,
                      int whyCapacity);
void fcMesh_Destroy(fcMesh* mesh);
int fcMesh_GetTriangleCount(const fcMesh* mesh);
int fcMesh_SourceTriangle(const fcMesh* mesh, int i);
void fcMesh_GetTriangle(const fcMesh* mesh, int i, fcVec3* a, fcVec3* b, fcVec3* c);
// visit the triangles whose boxes overlap box (mesh frame); return false from visit to stop
typedef bool fcMeshVisitFcn(int triangle, void* context);
void fcMesh_Query(const fcMesh* mesh, fcAabb box, fcMeshVisitFcn* visit, void* context);

#endif
