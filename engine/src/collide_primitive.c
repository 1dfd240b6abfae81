// SPDX-License-Identifier: MIT
// Closed-form contacts between spheres, capsules, boxes and planes (box-box: separating axes, then the incident
// face clipped against the reference face), the plane-cylinder pair, and ray casts against the primitives.
#include "collide.h"

// Relative tolerances: below them a direction or a distance is rounding noise. Single precision needs looser ones.
#ifdef FC_FLOAT
#define FC_PRIM_LINEAR_TOL ((fcReal)1e-4)    // of the shapes' size: a distance this small has no usable direction
#define FC_PRIM_PARALLEL_TOL ((fcReal)1e-6)  // sin^2 of the angle under which two directions count as parallel
#define FC_PRIM_AXIS_TOL ((fcReal)1e-3)      // length of a cross product of unit vectors too short to normalise
#else
#define FC_PRIM_LINEAR_TOL ((fcReal)1e-9)
#define FC_PRIM_PARALLEL_TOL ((fcReal)1e-12)
#define FC_PRIM_AXIS_TOL ((fcReal)1e-5)
#endif

// Axis preference of the separating axis tests: a later candidate (B's faces after A's, edges after faces) wins
// only when it beats the current one by this much, so that the near ties of a resting stack (A's top face, B's
// bottom face, and the edge pairs whose cross product is one of them) always resolve the same way.
#define FC_PRIM_AXIS_REL ((fcReal)0.05)
#define FC_PRIM_AXIS_ABS ((fcReal)5e-4)  // of the boxes' size
// A cylinder whose axis is within this angle (sin) of the plane normal stands: four rim points fixed in the body.
#define FC_PRIM_STAND_SIN ((fcReal)1e-3)
// Two capsule axes within this angle (sin) are parallel enough to lie along each other: two points.
#define FC_PRIM_CAPSULE_PARALLEL_SIN ((fcReal)0.02)
// A box-capsule normal this close to a face normal (cosine) is that face's: the segment is clipped to the face.
#define FC_PRIM_FACE_COS ((fcReal)(1 - 1e-6))

static inline fcReal fcMinR(fcReal a, fcReal b) { return a < b ? a : b; }
static inline fcReal fcMaxR(fcReal a, fcReal b) { return a > b ? a : b; }
static inline fcReal fcClampR(fcReal x, fcReal lo, fcReal hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline fcReal fcSignR(fcReal x) { return x < 0 ? (fcReal)-1 : (fcReal)1; }
static inline fcReal fcComp(fcVec3 v, int i) { return i == 0 ? v.x : (i == 1 ? v.y : v.z); }
static inline fcVec3 fcFromArray(const fcReal a[3]) { return fcV3(a[0], a[1], a[2]); }
static inline void fcToArray(fcVec3 v, fcReal a[3])
{
    a[0] = v.x;
    a[1] = v.y;
    a[2] = v.z;
}

// The rotation matrix straight from the quaternion: a third of the work of rotating the three basis vectors.
static inline fcMat33 fcRotationOf(fcQuat q)
{
    fcReal xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    fcReal xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    fcReal wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    fcMat33 m = {{1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)},
                 {2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)},
                 {2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)}};
    return m;
}

static inline fcVec3 fcToWorld(fcMat33 r, fcVec3 p, fcVec3 local) { return fcVec3_Add(p, fcMat33_MulV(r, local)); }

static inline void fcManifold_Begin(fcManifold* m, fcVec3 normal)
{
    m->normal = normal;
    m->pointCount = 0;
}

static inline void fcManifold_Add(fcManifold* m, fcVec3 point, fcReal separation, uint32_t id)
{
    fcManifoldPoint* mp = m->points + m->pointCount++;
    mp->point = point;
    mp->separation = separation;
    mp->id = id;
}

// Closest points of the segments p1 + s u1 (|s| <= h1) and p2 + t u2 (|t| <= h2), u1 and u2 unit: minimise over
// s for the lines, clamp, then re-solve t and s in turn, which is exact for segments. Parallel segments take the
// middle of their overlap so that the choice does not wander with rounding.
static void fcClosestSegments(fcVec3 p1, fcVec3 u1, fcReal h1, fcVec3 p2, fcVec3 u2, fcReal h2, fcReal* s, fcReal* t)
{
    fcVec3 r = fcVec3_Sub(p2, p1);
    fcReal b = fcVec3_Dot(u1, u2), c = fcVec3_Dot(u1, r), f = fcVec3_Dot(u2, r);
    fcReal den = 1 - b * b;
    fcReal ss;
    if (den > FC_PRIM_PARALLEL_TOL) {
        ss = fcClampR((c - b * f) / den, -h1, h1);
    } else {
        fcReal lo = fcMaxR(-h1, c - FC_FABS(b) * h2), hi = fcMinR(h1, c + FC_FABS(b) * h2);
        ss = lo <= hi ? (lo + hi) / 2 : fcClampR(c, -h1, h1);
    }
    fcReal tt = fcClampR(b * ss - f, -h2, h2);
    *s = fcClampR(b * tt + c, -h1, h1);
    *t = tt;
}

// Squared distance from the segment c + s u (|s| <= hh) to the box |x_i| <= h_i, and the s that attains it. The
// squared distance is convex and piecewise quadratic in s, with breaks where the segment crosses a face plane:
// the minimum is the best of the clamped vertices of the pieces.
static fcReal fcSegmentBoxDistance2(const fcReal c[3], const fcReal u[3], fcReal hh, const fcReal h[3], fcReal* sOut)
{
    fcReal br[8];
    int n = 0;
    br[n++] = -hh;
    for (int i = 0; i < 3; ++i) {
        if (u[i] == 0) continue;
        fcReal s0 = (-h[i] - c[i]) / u[i], s1 = (h[i] - c[i]) / u[i];
        if (s0 > -hh && s0 < hh) br[n++] = s0;
        if (s1 > -hh && s1 < hh) br[n++] = s1;
    }
    br[n++] = hh;
    for (int i = 1; i < n; ++i) {  // insertion sort: at most 8 values
        fcReal v = br[i];
        int j = i - 1;
        for (; j >= 0 && br[j] > v; --j) br[j + 1] = br[j];
        br[j + 1] = v;
    }
    fcReal best = -1, bestS = 0;
    for (int k = 0; k + 1 < n; ++k) {
        fcReal sa = br[k], sb = br[k + 1];
        fcReal mid = (sa + sb) / 2;
        fcReal qa = 0, qb = 0;  // the piece is the sum over the axes outside the box of (o_i + s u_i)^2
        for (int i = 0; i < 3; ++i) {
            fcReal x = c[i] + mid * u[i];
            if (x > h[i]) {
                qa += u[i] * u[i];
                qb += (c[i] - h[i]) * u[i];
            } else if (x < -h[i]) {
                qa += u[i] * u[i];
                qb += (c[i] + h[i]) * u[i];
            }
        }
        fcReal s = qa > 0 ? fcClampR(-qb / qa, sa, sb) : mid;
        fcReal d2 = 0;
        for (int i = 0; i < 3; ++i) {
            fcReal e = FC_FABS(c[i] + s * u[i]) - h[i];
            if (e > 0) d2 += e * e;
        }
        if (best < 0 || d2 < best) {
            best = d2;
            bestS = s;
        }
    }
    *sOut = bestS;
    return best;
}

// Clip the segment c + s u (|s| <= hh) to the slab |x_axis| <= h: narrows [*s0, *s1]; false when nothing is left.
static bool fcClipSegmentToSlab(fcReal c, fcReal u, fcReal h, fcReal* s0, fcReal* s1)
{
    if (FC_FABS(u) < FC_PRIM_PARALLEL_TOL) return FC_FABS(c) <= h;
    fcReal a = (-h - c) / u, b = (h - c) / u;
    if (a > b) {
        fcReal t = a;
        a = b;
        b = t;
    }
    *s0 = fcMaxR(*s0, a);
    *s1 = fcMinR(*s1, b);
    return *s0 <= *s1;
}

// Sphere and sphere-like pairs ----------------------------------------------------------------------------------

// Two spheres (centres ca, cb): the normal along the centres; coincident centres take the caller's fallback, any
// direction being as good as another.
static int fcCollideSpheres(fcVec3 ca, fcReal ra, fcVec3 cb, fcReal rb, fcVec3 fallbackNormal, fcReal margin,
                            fcManifold* m)
{
    fcVec3 d = fcVec3_Sub(cb, ca);
    fcReal dist2 = fcVec3_Dot(d, d);
    fcReal tol = FC_PRIM_LINEAR_TOL * (ra + rb);
    fcReal dist = FC_SQRT(dist2);
    fcReal sep = dist - ra - rb;
    if (sep >= margin) {
        m->pointCount = 0;
        return 0;
    }
    fcVec3 n = dist > tol ? fcVec3_Scale(1 / dist, d) : fallbackNormal;
    fcManifold_Begin(m, n);
    // midway between a's surface point ca + ra n and b's cb - rb n
    fcVec3 p = fcVec3_Scale((fcReal)0.5, fcVec3_Add(fcVec3_MulAdd(ca, ra, n), fcVec3_MulAdd(cb, -rb, n)));
    fcManifold_Add(m, p, sep, 0);
    return 1;
}

int fcCollide_SphereSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                           fcManifold* m)
{
    return fcCollideSpheres(xa.p, a->radius, xb.p, b->radius, fcV3(0, 0, 1), margin, m);
}

int fcCollide_CapsuleSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                            fcManifold* m)
{
    fcVec3 u = fcQuat_Rotate(xa.q, fcV3(0, 0, 1));
    fcReal s = fcClampR(fcVec3_Dot(u, fcVec3_Sub(xb.p, xa.p)), -a->halfHeight, a->halfHeight);
    fcVec3 c = fcVec3_MulAdd(xa.p, s, u);
    // a centre on the axis: any direction across the axis
    return fcCollideSpheres(c, a->radius, xb.p, b->radius, fcVec3_Perpendicular(u), margin, m);
}

int fcCollide_CapsuleCapsule(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                             fcManifold* m)
{
    fcVec3 ua = fcQuat_Rotate(xa.q, fcV3(0, 0, 1)), ub = fcQuat_Rotate(xb.q, fcV3(0, 0, 1));
    fcReal ha = a->halfHeight, hb = b->halfHeight, ra = a->radius, rb = b->radius;
    fcReal s, t;
    fcClosestSegments(xa.p, ua, ha, xb.p, ub, hb, &s, &t);
    fcVec3 pa = fcVec3_MulAdd(xa.p, s, ua), pb = fcVec3_MulAdd(xb.p, t, ub);
    fcVec3 d = fcVec3_Sub(pb, pa);
    fcReal dist = fcVec3_Length(d);
    m->pointCount = 0;
    if (dist - ra - rb >= margin) return 0;
    fcVec3 n;
    if (dist > FC_PRIM_LINEAR_TOL * (ha + hb + ra + rb)) {
        n = fcVec3_Scale(1 / dist, d);
    } else {
        // the axes meet: across both of them (or across a alone when they are parallel), toward b's centre
        fcVec3 c = fcVec3_Cross(ua, ub);
        if (fcVec3_Dot(c, c) < FC_PRIM_PARALLEL_TOL) {
            fcVec3 w = fcVec3_Sub(xb.p, xa.p);
            c = fcVec3_MulAdd(w, -fcVec3_Dot(w, ua), ua);
            if (fcVec3_Dot(c, c) < FC_PRIM_PARALLEL_TOL * (1 + fcVec3_Dot(w, w))) c = fcVec3_Perpendicular(ua);
        }
        n = fcVec3_Normalize(c);
        if (fcVec3_Dot(n, fcVec3_Sub(xb.p, xa.p)) < 0) n = fcVec3_Neg(n);
    }
    fcManifold_Begin(m, n);

    // Lying along each other: the part of a over which b lies, one point at each end, each with its own depth
    // (measured along the common normal), so that a capsule resting on another has a line of support.
    fcVec3 cr = fcVec3_Cross(ua, ub);
    if (fcVec3_Dot(cr, cr) < FC_PRIM_CAPSULE_PARALLEL_SIN * FC_PRIM_CAPSULE_PARALLEL_SIN) {
        fcReal c0 = fcVec3_Dot(ua, fcVec3_Sub(xb.p, xa.p)), e = FC_FABS(fcVec3_Dot(ua, ub)) * hb;
        fcReal lo = fcMaxR(-ha, c0 - e), hi = fcMinR(ha, c0 + e);
        if (hi - lo > (fcReal)1e-3 * (ra + rb)) {
            fcReal ends[2] = {lo, hi};
            for (int k = 0; k < 2; ++k) {
                fcVec3 qa = fcVec3_MulAdd(xa.p, ends[k], ua);
                fcReal tk = fcClampR(fcVec3_Dot(ub, fcVec3_Sub(qa, xb.p)), -hb, hb);
                fcVec3 qb = fcVec3_MulAdd(xb.p, tk, ub);
                fcReal sep = fcVec3_Dot(fcVec3_Sub(qb, qa), n) - ra - rb;
                if (sep >= margin) continue;
                fcVec3 p = fcVec3_Scale((fcReal)0.5, fcVec3_Add(fcVec3_MulAdd(qa, ra, n), fcVec3_MulAdd(qb, -rb, n)));
                fcManifold_Add(m, p, sep, 1 + (uint32_t)k);
            }
            if (m->pointCount > 0) return m->pointCount;
        }
    }
    fcVec3 p = fcVec3_Scale((fcReal)0.5, fcVec3_Add(fcVec3_MulAdd(pa, ra, n), fcVec3_MulAdd(pb, -rb, n)));
    fcManifold_Add(m, p, dist - ra - rb, 0);
    return 1;
}

// Box against sphere and capsule ------------------------------------------------------------------------------

int fcCollide_BoxSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                        fcManifold* m)
{
    fcReal h[3], c[3], q[3];
    fcToArray(a->halfExtents, h);
    fcToArray(fcQuat_InvRotate(xa.q, fcVec3_Sub(xb.p, xa.p)), c);
    fcReal r = b->radius;
    fcReal d2 = 0;
    for (int i = 0; i < 3; ++i) {
        q[i] = fcClampR(c[i], -h[i], h[i]);
        d2 += (c[i] - q[i]) * (c[i] - q[i]);
    }
    fcReal tol = FC_PRIM_LINEAR_TOL * (h[0] + h[1] + h[2] + r);
    fcVec3 nl;
    fcReal sep;
    m->pointCount = 0;
    if (d2 > tol * tol) {
        fcReal dist = FC_SQRT(d2);
        sep = dist - r;
        if (sep >= margin) return 0;
        nl = fcV3((c[0] - q[0]) / dist, (c[1] - q[1]) / dist, (c[2] - q[2]) / dist);
    } else {
        // centre inside (or on) the box: out through the nearest face
        int best = 0;
        fcReal bestGap = h[0] - FC_FABS(c[0]);
        for (int i = 1; i < 3; ++i) {
            fcReal gap = h[i] - FC_FABS(c[i]);
            if (gap < bestGap) {
                bestGap = gap;
                best = i;
            }
        }
        sep = -bestGap - r;
        if (sep >= margin) return 0;
        fcReal n3[3] = {0, 0, 0};
        n3[best] = fcSignR(c[best]);
        q[best] = n3[best] * h[best];
        nl = fcFromArray(n3);
    }
    fcMat33 ra = fcRotationOf(xa.q);
    fcVec3 n = fcMat33_MulV(ra, nl);
    fcManifold_Begin(m, n);
    fcVec3 onBox = fcToWorld(ra, xa.p, fcFromArray(q));
    fcVec3 onSphere = fcVec3_MulAdd(xb.p, -r, n);
    fcManifold_Add(m, fcVec3_Scale((fcReal)0.5, fcVec3_Add(onBox, onSphere)), sep, 0);
    return 1;
}

// The capsule's segment c + s u (box frame) clipped to the face (axis i, side sign) of the box: a point at each
// end of what lies over the face, each with its own height above it. Returns the count added.
static int fcBoxCapsuleFace(const fcReal h[3], const fcReal c[3], const fcReal u[3], fcReal hh, fcReal r, int i,
                            fcReal sign, fcReal margin, fcMat33 rot, fcVec3 pos, fcManifold* m)
{
    int j = (i + 1) % 3, k = (i + 2) % 3;
    fcReal s0 = -hh, s1 = hh;
    if (!fcClipSegmentToSlab(c[j], u[j], h[j], &s0, &s1) || !fcClipSegmentToSlab(c[k], u[k], h[k], &s0, &s1))
        return 0;
    fcReal ends[2] = {s0, s1};
    int count = s1 - s0 > FC_PRIM_LINEAR_TOL * (hh + r) ? 2 : 1;
    fcReal nl3[3] = {0, 0, 0};
    nl3[i] = sign;
    fcVec3 nl = fcFromArray(nl3);
    int added = 0;
    for (int e = 0; e < count; ++e) {
        fcVec3 p = fcV3(c[0] + ends[e] * u[0], c[1] + ends[e] * u[1], c[2] + ends[e] * u[2]);
        fcReal sep = sign * fcComp(p, i) - h[i] - r;
        if (sep >= margin) continue;
        // the segment point lowered by r, then by half the separation: midway between the surfaces
        fcVec3 mid = fcVec3_MulAdd(p, -(r + sep / 2), nl);
        uint32_t face = (uint32_t)(2 * i + (sign > 0));  // id: the face and the end of the clipped part
        fcManifold_Add(m, fcToWorld(rot, pos, mid), sep, 0x10u | (face << 1) | (uint32_t)(count == 2 ? e : 0));
        ++added;
    }
    return added;
}

int fcCollide_BoxCapsule(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                         fcManifold* m)
{
    fcMat33 rot = fcRotationOf(xa.q);
    fcReal h[3], c[3], u[3];
    fcToArray(a->halfExtents, h);
    fcToArray(fcQuat_InvRotate(xa.q, fcVec3_Sub(xb.p, xa.p)), c);
    fcToArray(fcQuat_InvRotate(xa.q, fcQuat_Rotate(xb.q, fcV3(0, 0, 1))), u);
    fcReal hh = b->halfHeight, r = b->radius;
    fcReal scale = fcMaxR(h[0], fcMaxR(h[1], h[2])) + hh + r;
    m->pointCount = 0;

    fcReal s;
    fcReal d2 = fcSegmentBoxDistance2(c, u, hh, h, &s);
    fcReal tol = FC_PRIM_LINEAR_TOL * scale;
    if (d2 > tol * tol) {
        // the segment is outside the box: the closest points decide
        fcReal dist = FC_SQRT(d2);
        if (dist - r >= margin) return 0;
        fcReal ps[3], qb[3], nl[3];
        for (int i = 0; i < 3; ++i) {
            ps[i] = c[i] + s * u[i];
            qb[i] = fcClampR(ps[i], -h[i], h[i]);
            nl[i] = (ps[i] - qb[i]) / dist;
        }
        int i = 0;
        for (int k = 1; k < 3; ++k)
            if (FC_FABS(nl[k]) > FC_FABS(nl[i])) i = k;
        if (FC_FABS(nl[i]) >= FC_PRIM_FACE_COS) {
            fcReal sign = fcSignR(nl[i]);
            fcReal n3[3] = {0, 0, 0};
            n3[i] = sign;
            fcManifold_Begin(m, fcMat33_MulV(rot, fcFromArray(n3)));
            if (fcBoxCapsuleFace(h, c, u, hh, r, i, sign, margin, rot, xa.p, m) > 0) return m->pointCount;
        }
        fcVec3 n = fcMat33_MulV(rot, fcFromArray(nl));
        fcManifold_Begin(m, n);
        fcVec3 onBox = fcToWorld(rot, xa.p, fcFromArray(qb));
        fcVec3 onCapsule = fcVec3_MulAdd(fcToWorld(rot, xa.p, fcFromArray(ps)), -r, n);
        fcManifold_Add(m, fcVec3_Scale((fcReal)0.5, fcVec3_Add(onBox, onCapsule)), dist - r, 0);
        return 1;
    }

    // The segment enters the box: separating axes of a segment and a box (the faces, the edges crossed with the
    // segment); the capsule's radius deepens every one alike.
    int bestFace = 0;
    fcReal faceSep = -(fcReal)INFINITY;
    for (int i = 0; i < 3; ++i) {
        fcReal sep = FC_FABS(c[i]) - h[i] - hh * FC_FABS(u[i]) - r;
        if (sep > faceSep) {
            faceSep = sep;
            bestFace = i;
        }
    }
    int bestEdge = -1;
    fcReal edgeSep = -(fcReal)INFINITY;
    fcReal edgeN[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        fcReal n[3];
        n[i] = 0;
        n[j] = -u[k];
        n[k] = u[j];
        fcReal len = FC_SQRT(n[j] * n[j] + n[k] * n[k]);
        if (len < FC_PRIM_AXIS_TOL) continue;
        n[j] /= len;
        n[k] /= len;
        fcReal dn = c[j] * n[j] + c[k] * n[k];
        fcReal sep = FC_FABS(dn) - h[j] * FC_FABS(n[j]) - h[k] * FC_FABS(n[k]) - r;
        if (sep > edgeSep) {
            edgeSep = sep;
            bestEdge = i;
            fcReal sg = fcSignR(dn);
            for (int q = 0; q < 3; ++q) edgeN[q] = sg * n[q];
        }
    }
    fcReal tolAbs = FC_PRIM_AXIS_ABS * fcMinR(h[0], fcMinR(h[1], h[2]));
    bool useEdge = bestEdge >= 0 && edgeSep > faceSep + FC_PRIM_AXIS_REL * FC_FABS(faceSep) + tolAbs;
    if ((useEdge ? edgeSep : faceSep) >= margin) return 0;
    if (!useEdge) {
        fcReal sign = fcSignR(c[bestFace]);
        fcReal n3[3] = {0, 0, 0};
        n3[bestFace] = sign;
        fcManifold_Begin(m, fcMat33_MulV(rot, fcFromArray(n3)));
        if (fcBoxCapsuleFace(h, c, u, hh, r, bestFace, sign, margin, rot, xa.p, m) > 0) return m->pointCount;
        if (bestEdge < 0) return 0;
    }
    // the box edge along the chosen axis that lies farthest toward the capsule, against the segment
    int i = bestEdge;
    fcReal e[3];
    for (int q = 0; q < 3; ++q) e[q] = q == i ? 0 : (edgeN[q] >= 0 ? h[q] : -h[q]);
    fcReal ax[3] = {0, 0, 0};
    ax[i] = 1;
    fcReal se, sc;
    fcClosestSegments(fcFromArray(e), fcFromArray(ax), h[i], fcFromArray(c), fcFromArray(u), hh, &se, &sc);
    fcVec3 pe = fcVec3_MulAdd(fcFromArray(e), se, fcFromArray(ax));
    fcVec3 nl = fcFromArray(edgeN);
    fcVec3 pc = fcVec3_MulAdd(fcVec3_MulAdd(fcFromArray(c), sc, fcFromArray(u)), -r, nl);
    fcManifold_Begin(m, fcMat33_MulV(rot, nl));
    fcManifold_Add(m, fcToWorld(rot, xa.p, fcVec3_Scale((fcReal)0.5, fcVec3_Add(pe, pc))), edgeSep, 0x100u);
    return 1;
}

// Box against box ---------------------------------------------------------------------------------------------
//
// Feature ids of a face contact: bit 10 set when the reference face is b's, bits 7-9 the reference face
// (2 axis + side), bits 0-6 the point's feature: an incident box vertex (0-7, its sign bits), an incident box
// edge cut by a side of the reference face (8 + 4 edge + side; edge = 8 axis + the sign bits of its ends), or a
// corner of the reference face (104 + 4 side + side). Vertices and edges are named in the incident box, not its
// face, so the ids do not change when the incident face does but the same vertex still touches. Edge-edge
// contacts: bit 11, then the two edges (5 bits each).

typedef struct fcClipVertex {
    fcReal p[3];   // reference frame
    int feature;   // as in the id
    int outLine;   // the line of the edge leaving this vertex: incident edge (0-23) or 32 + reference side
} fcClipVertex;

#define FC_CLIP_MAX 8  // a quadrilateral cut by four half-planes

// Keep the part of the polygon on the inner side of sign x_axis <= h. Vertices up to slack outside count as inside
// and stay where they are; the polygon's edges are cut on the side itself, and only where they cross it clearly
// (from deeper than slack inside), so that no cut lands next to a vertex it would duplicate. Returns the count.
// dist[k] = sign * in[k].p[axis] - h, the caller's (it has them from its test whether any vertex is outside).
static int fcClipPolygon(const fcClipVertex* in, const fcReal* dist, int n, fcClipVertex* out, int axis, fcReal sign,
                         fcReal h, fcReal slack, int side)
{
    int count = 0;
    for (int k = 0; k < n && count < FC_CLIP_MAX; ++k) {
        int kn = k + 1 == n ? 0 : k + 1;
        const fcClipVertex* cur = in + k;
        const fcClipVertex* nxt = in + kn;
        fcReal dc = dist[k], dn = dist[kn];
        bool inCur = dc <= slack, inNxt = dn <= slack;
        if (inCur) {
            out[count] = *cur;
            // leaving over the side without a cut: the next edge runs along the side
            if (!inNxt && dc >= -slack) out[count].outLine = 32 + side;
            ++count;
        }
        if (inCur != inNxt && (inCur ? dc : dn) < -slack && count < FC_CLIP_MAX) {
            fcClipVertex* v = out + count++;
            fcReal f = dc / (dc - dn);
            for (int i = 0; i < 3; ++i) v->p[i] = cur->p[i] + f * (nxt->p[i] - cur->p[i]);
            v->p[axis] = sign * h;  // exactly on the side, whatever the rounding of f
            v->feature = cur->outLine >= 32 ? 104 + 4 * (cur->outLine - 32) + side : 8 + 4 * cur->outLine + side;
            v->outLine = inCur ? 32 + side : cur->outLine;
        }
    }
    return count;
}

int fcManifold_ReduceTo4(const fcReal* u, const fcReal* v, const fcReal* sep, int n, fcReal tolDepth, fcReal tolArea,
                         int* keep)
{
    int i0 = 0;
    for (int k = 1; k < n; ++k)
        if (sep[k] < sep[i0] - tolDepth) i0 = k;
    int i1 = -1;
    fcReal best = tolArea;
    for (int k = 0; k < n; ++k) {
        fcReal du = u[k] - u[i0], dv = v[k] - v[i0];
        fcReal d2 = du * du + dv * dv;
        if (d2 > best + (i1 < 0 ? 0 : tolArea)) {
            best = d2;
            i1 = k;
        }
    }
    keep[0] = i0;
    if (i1 < 0) return 1;
    keep[1] = i1;
    int i2 = -1;
    fcReal area2 = 0, best2 = tolArea;
    for (int k = 0; k < n; ++k) {
        fcReal a = (u[i1] - u[i0]) * (v[k] - v[i0]) - (v[i1] - v[i0]) * (u[k] - u[i0]);
        if (FC_FABS(a) > best2 + (i2 < 0 ? 0 : tolArea)) {
            best2 = FC_FABS(a);
            area2 = a;
            i2 = k;
        }
    }
    if (i2 < 0) return 2;
    keep[2] = i2;
    fcReal orient = area2 > 0 ? 1 : -1;
    int tri[3] = {i0, i1, i2};
    int i3 = -1;
    fcReal best3 = tolArea;
    for (int k = 0; k < n; ++k) {
        if (k == i0 || k == i1 || k == i2) continue;
        fcReal added = 0;
        for (int e = 0; e < 3; ++e) {
            int pa = tri[e], pb = tri[(e + 1) % 3];
            fcReal a = -orient * ((u[pb] - u[pa]) * (v[k] - v[pa]) - (v[pb] - v[pa]) * (u[k] - u[pa]));
            if (a > added) added = a;
        }
        if (added > best3 + (i3 < 0 ? 0 : tolArea)) {
            best3 = added;
            i3 = k;
        }
    }
    if (i3 < 0) return 3;
    keep[3] = i3;
    return 4;
}

// The face contact with the reference face (axis, sign) of the reference box (half extents hr): the incident box
// (axes incAxis and centre incCentre in the reference frame, half extents hi) offers its face most opposed to the
// reference normal, clipped to the reference face's sides. Writes the points (reference frame, midway), their
// separations and features; returns the count.
static int fcBoxFaceContact(const fcReal hr[3], int axis, fcReal sign, const fcVec3 incAxis[3], fcVec3 incCentre,
                            const fcReal hi[3], fcReal margin, fcReal slack, fcReal scale, fcVec3* points,
                            fcReal* seps, int* features)
{
    // the incident face: the incident axis most (anti)parallel to the reference normal
    int k = 0;
    fcReal dk = sign * fcComp(incAxis[0], axis);
    for (int q = 1; q < 3; ++q) {
        fcReal d = sign * fcComp(incAxis[q], axis);
        if (FC_FABS(d) > FC_FABS(dk) + FC_PRIM_LINEAR_TOL) {
            dk = d;
            k = q;
        }
    }
    fcReal faceSign = dk > 0 ? -1 : 1;  // the face whose outward normal opposes the reference normal
    int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    fcVec3 fc = fcVec3_MulAdd(incCentre, faceSign * hi[k], incAxis[k]);
    fcVec3 e1 = fcVec3_Scale(hi[k1], incAxis[k1]), e2 = fcVec3_Scale(hi[k2], incAxis[k2]);
    static const int s1[4] = {1, -1, -1, 1}, s2[4] = {1, 1, -1, -1};
    fcClipVertex buf[2][FC_CLIP_MAX];
    fcClipVertex* poly = buf[0];
    int bitK = faceSign > 0 ? 1 << k : 0;
    for (int q = 0; q < 4; ++q) {
        fcVec3 p = fcVec3_Add(fc, fcVec3_Add(fcVec3_Scale((fcReal)s1[q], e1), fcVec3_Scale((fcReal)s2[q], e2)));
        fcToArray(p, poly[q].p);
        poly[q].feature = bitK | (s1[q] > 0 ? 1 << k1 : 0) | (s2[q] > 0 ? 1 << k2 : 0);
    }
    for (int q = 0; q < 4; ++q) {
        int va = poly[q].feature, vb = poly[(q + 1) % 4].feature;
        int diff = va ^ vb;  // a single bit: the edge's axis
        int edgeAxis = diff == 1 ? 0 : (diff == 2 ? 1 : 2);
        poly[q].outLine = 8 * edgeAxis + (va & vb);
    }
    int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
    int n = 4;
    for (int side = 0; side < 4 && n > 0; ++side) {
        int ax = side < 2 ? a1 : a2;
        fcReal sg = (side & 1) ? -1 : 1;
        // a polygon already inside this side (a box resting within the other's face) needs no pass
        fcReal dist[FC_CLIP_MAX];
        bool inside = true;
        for (int q = 0; q < n; ++q) {
            dist[q] = sg * poly[q].p[ax] - hr[ax];
            inside = inside && dist[q] <= slack;
        }
        if (inside) continue;
        fcClipVertex* next = poly == buf[0] ? buf[1] : buf[0];
        n = fcClipPolygon(poly, dist, n, next, ax, sg, hr[ax], slack, side);
        poly = next;
    }

    fcReal u[FC_CLIP_MAX], v[FC_CLIP_MAX], sp[FC_CLIP_MAX];
    int idx[FC_CLIP_MAX];
    int count = 0;
    for (int q = 0; q < n; ++q) {
        fcReal sep = sign * poly[q].p[axis] - hr[axis];
        if (sep >= margin) continue;
        u[count] = poly[q].p[a1];
        v[count] = poly[q].p[a2];
        sp[count] = sep;
        idx[count] = q;
        ++count;
    }
    int keep[4] = {0, 1, 2, 3};
    if (count > 4) {
        int kept = fcManifold_ReduceTo4(u, v, sp, count, slack, slack * scale, keep);
        count = kept;
    }
    for (int q = 0; q < count && q < 4; ++q) {
        const fcClipVertex* cv = poly + idx[keep[q]];
        fcReal sep = sp[keep[q]];
        fcReal p[3] = {cv->p[0], cv->p[1], cv->p[2]};
        p[axis] -= sign * sep / 2;
        points[q] = fcFromArray(p);
        seps[q] = sep;
        features[q] = cv->feature;
    }
    return count < 4 ? count : 4;
}

// The nine edge-pair axes e_i x b_j (in a's frame, R[i][j] = a_i . b_j, t = b's centre): the best one that
// separates by more than threshold (none: *i = -1). False when one separates the boxes by margin or more. An axis
// whose unnormalised separation is already negative and under the threshold cannot win (normalising by a length
// <= 1 only lowers it), which spares the square roots in the common case, a resting pair.
// One edge-pair axis e_i x b_j (i1, i2 and j1, j2 the other two axes in cyclic order): false when it separates the
// boxes by margin or more; else it becomes the best when it beats *best. Written out with constant indices (see
// fcBoxEdgeAxes) so that the compiler keeps the nine axes' entries of R in registers.
static inline bool fcBoxEdgeAxis(fcReal R[3][3], fcReal AR[3][3], const fcReal t[3], const fcReal ha[3],
                                 const fcReal hb[3], fcReal margin, int i, int i1, int i2, int j, int j1, int j2,
                                 fcReal* best, int* iOut, int* jOut)
{
    // axis e_i x b_j: components i1 = -R[i2][j], i2 = R[i1][j]; its length is the sine of their angle
    fcReal len2 = R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j];
    if (len2 < FC_PRIM_AXIS_TOL * FC_PRIM_AXIS_TOL) return true;  // parallel edges: the faces cover them
    fcReal tn = t[i2] * R[i1][j] - t[i1] * R[i2][j];
    fcReal ra = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j];
    fcReal rb = hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1];
    fcReal s = FC_FABS(tn) - ra - rb;
    if (s < 0 && s <= *best) return true;
    fcReal len = FC_SQRT(len2);
    if (s >= margin * len) return false;
    s /= len;
    if (s > *best) {
        *best = s;
        *iOut = i;
        *jOut = j;
    }
    return true;
}

// The nine edge-pair axes e_i x b_j (in a's frame, R[i][j] = a_i . b_j, t = b's centre): the best one that
// separates by more than threshold (none: *i = -1). False when one separates the boxes by margin or more. An axis
// whose unnormalised separation is already negative and under the threshold cannot win (normalising by a length
// <= 1 only lowers it), which spares the square roots in the common case, a resting pair. The axes in a loop over
// i and j with the cyclic neighbours looked up took a third more instructions (the S4 rain's box pairs).
static bool fcBoxEdgeAxes(fcReal R[3][3], fcReal AR[3][3], const fcReal t[3], const fcReal ha[3],
                          const fcReal hb[3], fcReal margin, fcReal threshold, fcReal* sepOut, int* iOut, int* jOut)
{
    fcReal best = threshold;
    *iOut = *jOut = -1;
#define FC_EDGE_AXIS(i, i1, i2, j, j1, j2) \
    if (!fcBoxEdgeAxis(R, AR, t, ha, hb, margin, i, i1, i2, j, j1, j2, &best, iOut, jOut)) return false
    FC_EDGE_AXIS(0, 1, 2, 0, 1, 2);
    FC_EDGE_AXIS(0, 1, 2, 1, 2, 0);
    FC_EDGE_AXIS(0, 1, 2, 2, 0, 1);
    FC_EDGE_AXIS(1, 2, 0, 0, 1, 2);
    FC_EDGE_AXIS(1, 2, 0, 1, 2, 0);
    FC_EDGE_AXIS(1, 2, 0, 2, 0, 1);
    FC_EDGE_AXIS(2, 0, 1, 0, 1, 2);
    FC_EDGE_AXIS(2, 0, 1, 1, 2, 0);
    FC_EDGE_AXIS(2, 0, 1, 2, 0, 1);
#undef FC_EDGE_AXIS
    *sepOut = best;
    return true;
}

int fcCollide_BoxBox(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                     fcManifold* m)
{
    m->pointCount = 0;
    fcMat33 rotA = fcRotationOf(xa.q), rotB = fcRotationOf(xb.q);
    const fcVec3 A[3] = {rotA.cx, rotA.cy, rotA.cz}, B[3] = {rotB.cx, rotB.cy, rotB.cz};
    fcReal ha[3], hb[3];
    fcToArray(a->halfExtents, ha);
    fcToArray(b->halfExtents, hb);
    fcVec3 dw = fcVec3_Sub(xb.p, xa.p);
    fcReal R[3][3], AR[3][3], t[3], tb[3];
    for (int i = 0; i < 3; ++i) {
        t[i] = fcVec3_Dot(A[i], dw);
        for (int j = 0; j < 3; ++j) {
            R[i][j] = fcVec3_Dot(A[i], B[j]);
            AR[i][j] = FC_FABS(R[i][j]);
        }
    }

    // separating axes: any one separated by margin or more ends the test
    int faceA = 0, faceB = 0;
    fcReal sepA = -(fcReal)INFINITY, sepB = -(fcReal)INFINITY;
    for (int i = 0; i < 3; ++i) {
        fcReal s = FC_FABS(t[i]) - ha[i] - (hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2]);
        if (s >= margin) return 0;
        if (s > sepA) {
            sepA = s;
            faceA = i;
        }
    }
    for (int j = 0; j < 3; ++j) {
        tb[j] = t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j];
        fcReal s = FC_FABS(tb[j]) - hb[j] - (ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j]);
        if (s >= margin) return 0;
        if (s > sepB) {
            sepB = s;
            faceB = j;
        }
    }
    fcReal maxA = fcMaxR(ha[0], fcMaxR(ha[1], ha[2])), maxB = fcMaxR(hb[0], fcMaxR(hb[1], hb[2]));
    fcReal size = fcMinR(maxA, maxB);
    fcReal tolAbs = FC_PRIM_AXIS_ABS * size;
    bool refB = sepB > sepA + FC_PRIM_AXIS_REL * FC_FABS(sepA) + tolAbs;
    fcReal sepF = refB ? sepB : sepA;
    int edgeI = -1, edgeJ = -1;
    fcReal sepE;
    if (!fcBoxEdgeAxes(R, AR, t, ha, hb, margin, sepF + FC_PRIM_AXIS_REL * FC_FABS(sepF) + tolAbs, &sepE, &edgeI,
                       &edgeJ))
        return 0;
    bool useEdge = edgeI >= 0;

    if (!useEdge) {
        fcVec3 pts[4];
        fcReal seps[4];
        int feats[4];
        int n, axis;
        fcReal sign;
        fcMat33 rotRef;
        fcVec3 posRef;
        fcReal slack = FC_CLIP_SLACK * size;
        if (!refB) {
            axis = faceA;
            sign = fcSignR(t[axis]);
            fcVec3 incAxis[3] = {fcV3(R[0][0], R[1][0], R[2][0]), fcV3(R[0][1], R[1][1], R[2][1]),
                                 fcV3(R[0][2], R[1][2], R[2][2])};
            n = fcBoxFaceContact(ha, axis, sign, incAxis, fcFromArray(t), hb, margin, slack, size, pts, seps, feats);
            rotRef = rotA;
            posRef = xa.p;
            m->normal = fcVec3_Scale(sign, A[axis]);
        } else {
            axis = faceB;
            sign = -fcSignR(tb[axis]);  // b's face toward a
            fcVec3 incAxis[3] = {fcV3(R[0][0], R[0][1], R[0][2]), fcV3(R[1][0], R[1][1], R[1][2]),
                                 fcV3(R[2][0], R[2][1], R[2][2])};
            n = fcBoxFaceContact(hb, axis, sign, incAxis, fcV3(-tb[0], -tb[1], -tb[2]), ha, margin, slack, size, pts,
                                 seps, feats);
            rotRef = rotB;
            posRef = xb.p;
            m->normal = fcVec3_Scale(-sign, B[axis]);
        }
        if (n > 0) {
            uint32_t base = (refB ? 1u << 10 : 0u) | ((uint32_t)(2 * axis + (sign > 0)) << 7);
            for (int q = 0; q < n; ++q)
                fcManifold_Add(m, fcToWorld(rotRef, posRef, pts[q]), seps[q], base | (uint32_t)feats[q]);
            return n;
        }
        // nothing of the incident face lies over the reference face: the edges must be the touching features
        fcBoxEdgeAxes(R, AR, t, ha, hb, margin, -(fcReal)INFINITY, &sepE, &edgeI, &edgeJ);
        if (edgeI < 0) return 0;
    }

    // edge-edge: one point between the closest points of a's edge along e_i and b's edge along b_j
    int i = edgeI, j = edgeJ;
    fcVec3 bj = fcV3(R[0][j], R[1][j], R[2][j]);
    fcReal e3[3] = {0, 0, 0};
    e3[i] = 1;
    fcVec3 n = fcVec3_Normalize(fcVec3_Cross(fcFromArray(e3), bj));
    if (t[0] * n.x + t[1] * n.y + t[2] * n.z < 0) n = fcVec3_Neg(n);
    fcReal qa[3];
    int bitsA = 0, bitsB = 0;
    for (int k = 0; k < 3; ++k) {
        fcReal nk = fcComp(n, k);
        qa[k] = k == i ? 0 : (nk >= 0 ? ha[k] : -ha[k]);
        if (k != i && nk >= 0) bitsA |= 1 << k;
    }
    fcVec3 qb = fcFromArray(t);
    for (int l = 0; l < 3; ++l) {
        if (l == j) continue;
        fcVec3 bl = fcV3(R[0][l], R[1][l], R[2][l]);
        fcReal c = fcVec3_Dot(n, bl) >= 0 ? -hb[l] : hb[l];  // b's edge lies toward a
        qb = fcVec3_MulAdd(qb, c, bl);
        if (c > 0) bitsB |= 1 << l;
    }
    fcReal sa, sb;
    fcClosestSegments(fcFromArray(qa), fcFromArray(e3), ha[i], qb, bj, hb[j], &sa, &sb);
    fcVec3 pa = fcVec3_MulAdd(fcFromArray(qa), sa, fcFromArray(e3)), pb = fcVec3_MulAdd(qb, sb, bj);
    m->normal = fcMat33_MulV(rotA, n);
    m->pointCount = 0;
    uint32_t id = (1u << 11) | ((uint32_t)(8 * i + bitsA) << 5) | (uint32_t)(8 * j + bitsB);
    fcManifold_Add(m, fcToWorld(rotA, xa.p, fcVec3_Scale((fcReal)0.5, fcVec3_Add(pa, pb))), sepE, id);
    return 1;
}

// Plane against convex primitives -----------------------------------------------------------------------------

int fcCollide_PlaneSphere(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                          fcManifold* m)
{
    (void)a;  // the plane has no parameters: its frame is all
    fcVec3 n = fcQuat_Rotate(xa.q, fcV3(0, 0, 1));
    fcReal sep = fcVec3_Dot(n, fcVec3_Sub(xb.p, xa.p)) - b->radius;
    m->pointCount = 0;
    if (sep >= margin) return 0;
    fcManifold_Begin(m, n);
    fcManifold_Add(m, fcVec3_MulAdd(xb.p, -(b->radius + sep / 2), n), sep, 0);
    return 1;
}

int fcCollide_PlaneCapsule(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                           fcManifold* m)
{
    (void)a;  // the plane has no parameters: its frame is all
    fcVec3 n = fcQuat_Rotate(xa.q, fcV3(0, 0, 1));
    fcVec3 u = fcQuat_Rotate(xb.q, fcV3(0, 0, b->halfHeight));
    fcManifold_Begin(m, n);
    for (int k = 0; k < 2; ++k) {
        fcVec3 e = k == 0 ? fcVec3_Sub(xb.p, u) : fcVec3_Add(xb.p, u);
        fcReal sep = fcVec3_Dot(n, fcVec3_Sub(e, xa.p)) - b->radius;
        if (sep < margin) fcManifold_Add(m, fcVec3_MulAdd(e, -(b->radius + sep / 2), n), sep, (uint32_t)k);
    }
    return m->pointCount;
}

int fcCollide_PlaneBox(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                       fcManifold* m)
{
    (void)a;  // the plane has no parameters: its frame is all
    fcVec3 n = fcQuat_Rotate(xa.q, fcV3(0, 0, 1));
    fcMat33 rot = fcRotationOf(xb.q);
    fcVec3 h = b->halfExtents;
    // height of vertex v = base +- the three half extents projected on the normal (bit i of v: + along axis i)
    fcReal base = fcVec3_Dot(n, fcVec3_Sub(xb.p, xa.p));
    fcReal px = h.x * fcVec3_Dot(n, rot.cx), py = h.y * fcVec3_Dot(n, rot.cy), pz = h.z * fcVec3_Dot(n, rot.cz);
    fcReal sep[8];
    int order[8], count = 0;
    for (int v = 0; v < 8; ++v) {
        sep[v] = base + ((v & 1) ? px : -px) + ((v & 2) ? py : -py) + ((v & 4) ? pz : -pz);
        if (sep[v] >= margin) continue;
        int q = count++;  // insertion by depth; equal depths keep vertex order
        for (; q > 0 && sep[order[q - 1]] > sep[v]; --q) order[q] = order[q - 1];
        order[q] = v;
    }
    fcManifold_Begin(m, n);
    for (int q = 0; q < count && q < 4; ++q) {
        int v = order[q];
        fcVec3 local = fcV3((v & 1) ? h.x : -h.x, (v & 2) ? h.y : -h.y, (v & 4) ? h.z : -h.z);
        fcVec3 p = fcToWorld(rot, xb.p, local);
        fcManifold_Add(m, fcVec3_MulAdd(p, -sep[v] / 2, n), sep[v], (uint32_t)v);
    }
    return m->pointCount;
}

int fcCollide_PlaneCylinder(const fcGeometry* a, fcTransform xa, const fcGeometry* b, fcTransform xb, fcReal margin,
                            fcManifold* m)
{
    (void)a;  // the plane has no parameters: its frame is all
    fcVec3 n = fcQuat_Rotate(xa.q, fcV3(0, 0, 1));
    fcMat33 rot = fcRotationOf(xb.q);
    fcVec3 u = rot.cz;
    fcReal r = b->radius, hh = b->halfHeight;
    fcReal nu = fcVec3_Dot(n, u);
    fcReal k = nu > 0 ? -1 : 1;  // the lower cap
    fcVec3 low = fcVec3_MulAdd(xb.p, k * hh, u), up = fcVec3_MulAdd(xb.p, -k * hh, u);
    fcVec3 tv = fcVec3_MulAdd(n, -nu, u);  // the normal across the axis: the rims' lowest points lie against it
    fcReal tl = fcVec3_Length(tv);
    fcVec3 cand[5];
    uint32_t ids[5];
    int nc = 0;
    uint32_t capBit = k > 0 ? 8u : 0u;
    if (tl < FC_PRIM_STAND_SIN) {
        // standing: the whole rim is equally low, so four rim points fixed in the body keep their ids
        fcVec3 w[4] = {rot.cx, rot.cy, fcVec3_Neg(rot.cx), fcVec3_Neg(rot.cy)};
        for (int q = 0; q < 4; ++q) {
            cand[nc] = fcVec3_MulAdd(low, r, w[q]);
            ids[nc++] = capBit | (uint32_t)q;
        }
    } else {
        // tilted or lying: the lowest point of each rim first (both rims rest when lying), then the rest of the
        // lower rim a quarter turn apart
        fcVec3 d = fcVec3_Scale(1 / tl, tv), side = fcVec3_Cross(u, d);
        cand[nc] = fcVec3_MulAdd(low, -r, d);
        ids[nc++] = 0x10u | capBit;
        cand[nc] = fcVec3_MulAdd(up, -r, d);
        ids[nc++] = 0x10u | (capBit ^ 8u);
        cand[nc] = fcVec3_MulAdd(low, r, side);
        ids[nc++] = 0x10u | capBit | 1u;
        cand[nc] = fcVec3_MulAdd(low, -r, side);
        ids[nc++] = 0x10u | capBit | 2u;
        cand[nc] = fcVec3_MulAdd(low, r, d);
        ids[nc++] = 0x10u | capBit | 3u;
    }
    fcManifold_Begin(m, n);
    for (int q = 0; q < nc && m->pointCount < FC_MAX_MANIFOLD_POINTS; ++q) {
        fcReal sep = fcVec3_Dot(n, fcVec3_Sub(cand[q], xa.p));
        if (sep < margin) fcManifold_Add(m, fcVec3_MulAdd(cand[q], -sep / 2, n), sep, ids[q]);
    }
    return m->pointCount;
}

// Ray casts -------------------------------------------------------------------------------------------------

static bool fcRayHit(fcRayHitGeometry* hit, fcReal t, fcVec3 normal)
{
    hit->distance = t;
    hit->normal = normal;
    hit->key = 0;
    return true;
}

// First entry (t >= 0 assumed: the origin is outside) of the ray o + t d (d unit) into the sphere (c, r).
static bool fcRaySphereEntry(fcVec3 o, fcVec3 d, fcVec3 c, fcReal r, fcReal* t)
{
    fcVec3 w = fcVec3_Sub(o, c);
    fcReal b = fcVec3_Dot(w, d), cc = fcVec3_Dot(w, w) - r * r;
    if (b > 0 && cc > 0) return false;  // outside and moving away
    fcReal disc = b * b - cc;
    if (disc < 0) return false;
    *t = fcMaxR(0, -b - FC_SQRT(disc));
    return true;
}

bool fcRayCast_Sphere(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance,
                      fcRayHitGeometry* hit)
{
    fcVec3 w = fcVec3_Sub(origin, xf.p);
    if (fcVec3_Dot(w, w) <= g->radius * g->radius) return fcRayHit(hit, 0, fcVec3_Neg(dir));
    fcReal t;
    if (!fcRaySphereEntry(origin, dir, xf.p, g->radius, &t) || t > maxDistance) return false;
    return fcRayHit(hit, t, fcVec3_Scale(1 / g->radius, fcVec3_Sub(fcVec3_MulAdd(origin, t, dir), xf.p)));
}

// The interval [t0, t1] of the ray o + t d (shape frame) inside the infinite round cylinder x^2 + y^2 <= r^2:
// 1 with it, 0 when the ray misses, -1 when it runs along the axis (t0, t1 infinite; inside when o is). The roots
// in the form without cancellation: a ray within 1e-6 rad of the axis (sin^2 below 1e-12) was taken as parallel
// and judged by where it started, missing a side it entered a metre on.
static int fcRayRoundSide(fcVec3 o, fcVec3 d, fcReal r, fcReal* t0, fcReal* t1)
{
    fcReal qa = d.x * d.x + d.y * d.y, qb = o.x * d.x + o.y * d.y, qc = o.x * o.x + o.y * o.y - r * r;
    *t0 = -(fcReal)INFINITY;
    *t1 = (fcReal)INFINITY;
    if (qa == 0) return qc > 0 ? 0 : -1;
    fcReal disc = qb * qb - qa * qc;
    if (disc < 0) return 0;
    fcReal q = qb >= 0 ? -(qb + FC_SQRT(disc)) : FC_SQRT(disc) - qb;  // the larger of |-qb -+ sqrt|
    fcReal a = q / qa, b = q != 0 ? qc / q : a;
    *t0 = fcMinR(a, b);
    *t1 = fcMaxR(a, b);
    return 1;
}

bool fcRayCast_Capsule(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance,
                       fcRayHitGeometry* hit)
{
    fcVec3 o = fcQuat_InvRotate(xf.q, fcVec3_Sub(origin, xf.p)), d = fcQuat_InvRotate(xf.q, dir);
    fcReal r = g->radius, hh = g->halfHeight;
    fcVec3 onAxis = fcV3(0, 0, fcClampR(o.z, -hh, hh));
    fcVec3 w = fcVec3_Sub(o, onAxis);
    if (fcVec3_Dot(w, w) <= r * r) return fcRayHit(hit, 0, fcVec3_Neg(dir));
    // the capsule is the union of its side and its two end spheres: the first entry into any of them
    fcReal best = (fcReal)INFINITY;
    fcVec3 bestNormal = fcV3(0, 0, 0);
    fcReal t0, t1;
    if (fcRayRoundSide(o, d, r, &t0, &t1) == 1) {
        fcReal z = o.z + t0 * d.z;
        if (t0 >= 0 && z >= -hh && z <= hh) {
            best = t0;
            bestNormal = fcV3((o.x + t0 * d.x) / r, (o.y + t0 * d.y) / r, 0);
        }
    }
    for (int k = 0; k < 2; ++k) {
        fcVec3 c = fcV3(0, 0, k == 0 ? -hh : hh);
        fcReal t;
        if (fcRaySphereEntry(o, d, c, r, &t) && t < best) {
            best = t;
            bestNormal = fcVec3_Scale(1 / r, fcVec3_Sub(fcVec3_MulAdd(o, t, d), c));
        }
    }
    if (!(best <= maxDistance)) return false;
    return fcRayHit(hit, best, fcQuat_Rotate(xf.q, bestNormal));
}

bool fcRayCast_Box(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance,
                   fcRayHitGeometry* hit)
{
    fcReal o[3], d[3], h[3];
    fcToArray(fcQuat_InvRotate(xf.q, fcVec3_Sub(origin, xf.p)), o);
    fcToArray(fcQuat_InvRotate(xf.q, dir), d);
    fcToArray(g->halfExtents, h);
    if (FC_FABS(o[0]) <= h[0] && FC_FABS(o[1]) <= h[1] && FC_FABS(o[2]) <= h[2])
        return fcRayHit(hit, 0, fcVec3_Neg(dir));
    // slabs: the last entry and the first exit
    fcReal tin = -(fcReal)INFINITY, tout = (fcReal)INFINITY;
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        if (FC_FABS(d[i]) < FC_PRIM_PARALLEL_TOL) {
            if (FC_FABS(o[i]) > h[i]) return false;
            continue;
        }
        fcReal t0 = (-h[i] - o[i]) / d[i], t1 = (h[i] - o[i]) / d[i];
        if (t0 > t1) {
            fcReal s = t0;
            t0 = t1;
            t1 = s;
        }
        if (t0 > tin) {
            tin = t0;
            axis = i;
        }
        if (t1 < tout) tout = t1;
    }
    if (axis < 0 || tin > tout || tin < 0 || tin > maxDistance) return false;
    fcReal n[3] = {0, 0, 0};
    n[axis] = d[axis] > 0 ? -1 : 1;
    return fcRayHit(hit, tin, fcQuat_Rotate(xf.q, fcFromArray(n)));
}

bool fcRayCast_Plane(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance,
                     fcRayHitGeometry* hit)
{
    (void)g;
    fcVec3 n = fcQuat_Rotate(xf.q, fcV3(0, 0, 1));
    fcReal height = fcVec3_Dot(n, fcVec3_Sub(origin, xf.p));
    if (height <= 0) return fcRayHit(hit, 0, fcVec3_Neg(dir));  // below the plane is inside the half-space
    fcReal dn = fcVec3_Dot(n, dir);
    if (dn >= 0) return false;
    fcReal t = height / -dn;
    if (t > maxDistance) return false;
    return fcRayHit(hit, t, n);
}

bool fcRayCast_Cylinder(const fcGeometry* g, fcTransform xf, fcVec3 origin, fcVec3 dir, fcReal maxDistance,
                        fcRayHitGeometry* hit)
{
    fcVec3 o = fcQuat_InvRotate(xf.q, fcVec3_Sub(origin, xf.p)), d = fcQuat_InvRotate(xf.q, dir);
    fcReal r = g->radius, hh = g->halfHeight;
    if (FC_FABS(o.z) <= hh && o.x * o.x + o.y * o.y <= r * r) return fcRayHit(hit, 0, fcVec3_Neg(dir));
    // the cylinder is the slab |z| <= hh cut by the infinite round cylinder: intersect the two intervals
    fcReal tz0 = -(fcReal)INFINITY, tz1 = (fcReal)INFINITY;
    if (d.z == 0) {
        if (FC_FABS(o.z) > hh) return false;
    } else {
        tz0 = (-hh - o.z) / d.z;
        tz1 = (hh - o.z) / d.z;
        if (tz0 > tz1) {
            fcReal s = tz0;
            tz0 = tz1;
            tz1 = s;
        }
    }
    fcReal tr0, tr1;
    if (fcRayRoundSide(o, d, r, &tr0, &tr1) == 0) return false;
    bool cap = tz0 > tr0;
    fcReal tin = cap ? tz0 : tr0, tout = fcMinR(tz1, tr1);
    if (tin > tout || tout < 0) return false;
    if (tin < 0) return fcRayHit(hit, 0, fcVec3_Neg(dir));  // only by rounding: the origin is on the surface
    if (tin > maxDistance) return false;
    fcVec3 n = cap ? fcV3(0, 0, d.z > 0 ? -1 : 1) : fcV3((o.x + tin * d.x) / r, (o.y + tin * d.y) / r, 0);
    return fcRayHit(hit, tin, fcQuat_Rotate(xf.q, n));
}
