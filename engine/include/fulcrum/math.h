// SPDX-License-Identifier: MIT
// Fulcrum's own small vector, quaternion and 3x3 matrix math in fcReal (double by default).
#ifndef FULCRUM_MATH_H
#define FULCRUM_MATH_H

#include <math.h>
#include <stdbool.h>

#ifdef FC_FLOAT
typedef float fcReal;
#define FC_SQRT sqrtf
#define FC_SIN sinf
#define FC_COS cosf
#define FC_ATAN2 atan2f
#define FC_FABS fabsf
#define FC_EPSILON 1.1920929e-7f
#else
typedef double fcReal;
#define FC_SQRT sqrt
#define FC_SIN sin
#define FC_COS cos
#define FC_ATAN2 atan2
#define FC_FABS fabs
#define FC_EPSILON 2.220446049250313e-16
#endif

typedef struct fcVec3 { fcReal x, y, z; } fcVec3;
/// Unit quaternion, w + x i + y j + z k.
typedef struct fcQuat { fcReal w, x, y, z; } fcQuat;
/// 3x3 matrix stored by columns: cx, cy, cz.
typedef struct fcMat33 { fcVec3 cx, cy, cz; } fcMat33;

static inline fcVec3 fcV3(fcReal x, fcReal y, fcReal z) { fcVec3 v = {x, y, z}; return v; }
static inline fcVec3 fcVec3_Add(fcVec3 a, fcVec3 b) { return fcV3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline fcVec3 fcVec3_Sub(fcVec3 a, fcVec3 b) { return fcV3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline fcVec3 fcVec3_Neg(fcVec3 a) { return fcV3(-a.x, -a.y, -a.z); }
static inline fcVec3 fcVec3_Scale(fcReal s, fcVec3 a) { return fcV3(s * a.x, s * a.y, s * a.z); }
/// a + s b
static inline fcVec3 fcVec3_MulAdd(fcVec3 a, fcReal s, fcVec3 b) { return fcV3(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline fcReal fcVec3_Dot(fcVec3 a, fcVec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline fcVec3 fcVec3_Cross(fcVec3 a, fcVec3 b)
{
    return fcV3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline fcReal fcVec3_Length(fcVec3 a) { return FC_SQRT(fcVec3_Dot(a, a)); }
static inline fcReal fcVec3_Distance(fcVec3 a, fcVec3 b) { return fcVec3_Length(fcVec3_Sub(a, b)); }
static inline fcVec3 fcVec3_Normalize(fcVec3 a)
{
    fcReal l = fcVec3_Length(a);
    return l > 0 ? fcVec3_Scale(1 / l, a) : fcV3(0, 0, 0);
}
static inline bool fcVec3_IsFinite(fcVec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
/// Any unit vector perpendicular to the unit vector n.
static inline fcVec3 fcVec3_Perpendicular(fcVec3 n)
{
    fcVec3 t = FC_FABS(n.x) < 0.57735 ? fcV3(0, n.z, -n.y) : fcV3(n.y, -n.x, 0);
    return fcVec3_Normalize(t);
}

static inline fcQuat fcQuat_Identity(void) { fcQuat q = {1, 0, 0, 0}; return q; }
static inline fcQuat fcQuat_Mul(fcQuat a, fcQuat b)
{
    fcQuat q = {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
    return q;
}
static inline fcQuat fcQuat_Conj(fcQuat a) { fcQuat q = {a.w, -a.x, -a.y, -a.z}; return q; }
static inline fcReal fcQuat_Length(fcQuat a) { return FC_SQRT(a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z); }
static inline fcQuat fcQuat_Normalize(fcQuat a)
{
    fcReal l = fcQuat_Length(a);
    fcQuat q = {a.w / l, a.x / l, a.y / l, a.z / l};
    return q;
}
/// a / |a| for an a within rounding of unit length (a product of unit quaternions): one Newton step of 1 / sqrt
/// from 1, whose error is of the order of (|a|^2 - 1)^2, far below rounding; no square root or division in the
/// loops that turn every body several times a step
static inline fcQuat fcQuat_Renormalize(fcQuat a)
{
    fcReal s = 1.5 - 0.5 * (a.w * a.w + a.x * a.x + a.y * a.y + a.z * a.z);
    fcQuat q = {a.w * s, a.x * s, a.y * s, a.z * s};
    return q;
}
static inline bool fcQuat_IsFinite(fcQuat a) { return isfinite(a.w) && isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
/// Rotation of angle |w| about w/|w| (w in radians), the exact exponential map.
static inline fcQuat fcQuat_FromRotationVector(fcVec3 w)
{
    fcReal a2 = fcVec3_Dot(w, w);
    if (a2 < 1e-4) {
        // |w| < 1e-2: the series of cos(a/2) and sin(a/2)/a to a^4, whose next terms are below 1e-17
        fcReal x2 = a2 / 4;
        // (by multiplications: a division costs a dozen of them in the hot loops that turn bodies)
        fcReal c = 1 - x2 * 0.5 * (1 - x2 * (1.0 / 12)), s = 0.5 * (1 - x2 * (1.0 / 6) * (1 - x2 * (1.0 / 20)));
        fcQuat q = {c, s * w.x, s * w.y, s * w.z};
        return q;
    }
    fcReal a = FC_SQRT(a2);
    fcReal s = FC_SIN(a / 2) / a;
    fcQuat q = {FC_COS(a / 2), s * w.x, s * w.y, s * w.z};
    return q;
}
static inline fcQuat fcQuat_FromAxisAngle(fcVec3 axis, fcReal angle)
{
    return fcQuat_FromRotationVector(fcVec3_Scale(angle, fcVec3_Normalize(axis)));
}
static inline fcVec3 fcQuat_Rotate(fcQuat q, fcVec3 v)
{
    // v + 2 w (u x v) + 2 u x (u x v), u = vector part
    fcVec3 u = fcV3(q.x, q.y, q.z);
    fcVec3 t = fcVec3_Scale(2, fcVec3_Cross(u, v));
    return fcVec3_Add(fcVec3_MulAdd(v, q.w, t), fcVec3_Cross(u, t));
}
static inline fcVec3 fcQuat_InvRotate(fcQuat q, fcVec3 v) { return fcQuat_Rotate(fcQuat_Conj(q), v); }

static inline fcMat33 fcMat33_Diagonal(fcVec3 d)
{
    fcMat33 m = {{d.x, 0, 0}, {0, d.y, 0}, {0, 0, d.z}};
    return m;
}
/// Whether m is a multiple of the identity (a cube's or a sphere's inertia): then R m R^T = m for every rotation R.
static inline bool fcMat33_IsIsotropic(const fcMat33* m)
{
    return m->cx.x == m->cy.y && m->cy.y == m->cz.z && m->cx.y == 0 && m->cx.z == 0 && m->cy.x == 0 && m->cy.z == 0 &&
           m->cz.x == 0 && m->cz.y == 0;
}
static inline fcMat33 fcMat33_Zero(void)
{
    fcMat33 m = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    return m;
}
static inline fcVec3 fcMat33_MulV(fcMat33 m, fcVec3 v)
{
    return fcVec3_Add(fcVec3_Add(fcVec3_Scale(v.x, m.cx), fcVec3_Scale(v.y, m.cy)), fcVec3_Scale(v.z, m.cz));
}
static inline fcMat33 fcMat33_Add(fcMat33 a, fcMat33 b)
{
    fcMat33 m = {fcVec3_Add(a.cx, b.cx), fcVec3_Add(a.cy, b.cy), fcVec3_Add(a.cz, b.cz)};
    return m;
}
static inline fcMat33 fcMat33_Scale(fcReal s, fcMat33 a)
{
    fcMat33 m = {fcVec3_Scale(s, a.cx), fcVec3_Scale(s, a.cy), fcVec3_Scale(s, a.cz)};
    return m;
}
static inline fcMat33 fcMat33_Transpose(fcMat33 a)
{
    fcMat33 m = {{a.cx.x, a.cy.x, a.cz.x}, {a.cx.y, a.cy.y, a.cz.y}, {a.cx.z, a.cy.z, a.cz.z}};
    return m;
}
static inline fcMat33 fcMat33_Mul(fcMat33 a, fcMat33 b)
{
    fcMat33 m = {fcMat33_MulV(a, b.cx), fcMat33_MulV(a, b.cy), fcMat33_MulV(a, b.cz)};
    return m;
}
static inline fcReal fcMat33_Det(fcMat33 a) { return fcVec3_Dot(a.cx, fcVec3_Cross(a.cy, a.cz)); }
static inline bool fcMat33_IsFinite(fcMat33 m) { return fcVec3_IsFinite(m.cx) && fcVec3_IsFinite(m.cy) && fcVec3_IsFinite(m.cz); }
/// Inverse; the zero matrix when a is singular.
static inline fcMat33 fcMat33_Inverse(fcMat33 a)
{
    fcReal det = fcMat33_Det(a);
    if (det == 0) return fcMat33_Zero();
    fcReal s = 1 / det;
    fcVec3 r0 = fcVec3_Scale(s, fcVec3_Cross(a.cy, a.cz));
    fcVec3 r1 = fcVec3_Scale(s, fcVec3_Cross(a.cz, a.cx));
    fcVec3 r2 = fcVec3_Scale(s, fcVec3_Cross(a.cx, a.cy));
    // rows of the inverse are r0, r1, r2
    fcMat33 m = {{r0.x, r1.x, r2.x}, {r0.y, r1.y, r2.y}, {r0.z, r1.z, r2.z}};
    return m;
}
/// Rotation matrix of a unit quaternion.
static inline fcMat33 fcMat33_FromQuat(fcQuat q)
{
    // the columns are the rotated axes; for a unit quaternion, 1 - 2 (y^2 + z^2) = w^2 + x^2 - y^2 - z^2 etc.
    fcReal xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z, xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    fcReal wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    fcMat33 m = {{1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)},
                 {2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)},
                 {2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)}};
    return m;
}
// R S R^T for a symmetric S (an inertia tensor in the body frame, turned into the world frame)
static inline fcMat33 fcMat33_RotateTensor(fcQuat q, fcMat33 body)
{
    fcMat33 r = fcMat33_FromQuat(q);
    fcMat33 rs = fcMat33_Mul(r, body);  // columns R s_j
    // (R S R^T)_ik = sum_j (R S)_ij R_kj: six distinct entries
    fcReal xx = rs.cx.x * r.cx.x + rs.cy.x * r.cy.x + rs.cz.x * r.cz.x;
    fcReal yy = rs.cx.y * r.cx.y + rs.cy.y * r.cy.y + rs.cz.y * r.cz.y;
    fcReal zz = rs.cx.z * r.cx.z + rs.cy.z * r.cy.z + rs.cz.z * r.cz.z;
    fcReal xy = rs.cx.x * r.cx.y + rs.cy.x * r.cy.y + rs.cz.x * r.cz.y;
    fcReal xz = rs.cx.x * r.cx.z + rs.cy.x * r.cy.z + rs.cz.x * r.cz.z;
    fcReal yz = rs.cx.y * r.cx.z + rs.cy.y * r.cy.z + rs.cz.y * r.cz.z;
    fcMat33 m = {{xx, xy, xz}, {xy, yy, yz}, {xz, yz, zz}};
    return m;
}

#endif
