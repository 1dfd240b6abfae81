// SPDX-License-Identifier: MIT
// A row's velocity and impulse, and one projected Gauss-Seidel pass over the rows of FC_SWEEP_BLOCKS blocks of one
// colour at once: 1 (fcV4, four lanes: fcRow4_*, fcContacts_SolveBlocks4) or 2 (fcV8, eight lanes: fcRow8_*,
// fcContacts_SolveBlocks8, where simd.h has FC_HAVE_V8). Written once, included by contact_solve.c once for each
// width. The blocks of a colour share no dynamic body, so two of them solved side by side are each solved as if
// alone, bit for bit as one after the other; AVX-512 then updates a row of eight lanes with the instructions that
// did four.

#if FC_SWEEP_BLOCKS == 1
#define W fcV4
#define W_(op) fcV4_##op
#define W3 fcVec3x4
#define W_BODY fcBody4
#define W_NAME(row, solve) row##4##solve
#define W_ROWS const fcContactRow4*                // a row of each block
#define W_LOADR(p, member) fcV4_Load((p)member)    // of W_ROWS
#define W_LOAD(p, member) fcV4_Load((p)[0] member) // of an array of one block or point
#define W_STORE(p, member, v) fcV4_Store((p)[0] member, v)
#define W_ROWARG(rows) (rows)[0]
#define W_DOT fcVec3x4_Dot
#define W_TARGET
#else
#define W fcV8
#define W_(op) fcV8_##op
#define W3 fcVec3x8
#define W_BODY fcBody8
#define W_NAME(row, solve) row##8##solve
#define W_ROWS const fcContactRow4* const*
#define W_LOADR(p, member) fcV8_Join(fcV4_Load((p)[0] member), fcV4_Load((p)[1] member))
#define W_LOAD(p, member) fcV8_Join(fcV4_Load((p)[0] member), fcV4_Load((p)[1] member))
#define W_STORE(p, member, v) (fcV4_Store((p)[0] member, fcV8_Low(v)), fcV4_Store((p)[1] member, fcV8_High(v)))
#define W_ROWARG(rows) (rows)
#define W_DOT fcVec3x8_Dot
#define W_TARGET FC_SIMD_AVX512  // fcV8's join, mask test and square root are AVX-512 instructions

typedef struct fcVec3x8 {
    fcV8 x, y, z;
} fcVec3x8;

typedef struct fcBody8 {
    fcVec3x8 v, w;
} fcBody8;

FC_V4_INLINE W_TARGET fcV8 fcVec3x8_Dot(fcVec3x8 a, fcVec3x8 b)
{
    return fcV8_Add(fcV8_Add(fcV8_Mul(a.x, b.x), fcV8_Mul(a.y, b.y)), fcV8_Mul(a.z, b.z));
}
#endif

#define W_LOAD3R(p, member) {W_LOADR(p, member[0]), W_LOADR(p, member[1]), W_LOADR(p, member[2])}
#define W_LOAD3(p, member) {W_LOAD(p, member[0]), W_LOAD(p, member[1]), W_LOAD(p, member[2])}

// The angular part of a row's J v: (r_b x d) . w_b - (r_a x d) . w_a. With `still` (every lane's a is solver body 0,
// the world at rest: w_a = +0) the a term is left out: taking away (r_a x d) . (+0), a zero, changes no value but
// the sign of a zero J v, which neither the normal rows' impulses (they are never -0) nor the friction rows' changes
// see (a friction impulse may come out -0 for +0)
FC_V4_INLINE W_TARGET W W_NAME(fcRow, _Turn)(W_ROWS row, const W_BODY* a, const W_BODY* b, bool still)
{
    W3 angB = W_LOAD3R(row, ->angB);
    W turn = W_DOT(angB, b->w);
    if (still) return turn;
    W3 angA = W_LOAD3R(row, ->angA);
    return W_(Sub)(turn, W_DOT(angA, a->w));
}

// J v of a row: d . (v_b - v_a) + (r_b x d) . w_b - (r_a x d) . w_a (with `still`, v_a = +0 as well)
FC_V4_INLINE W_TARGET W W_NAME(fcRow, _Velocity)(W_ROWS row, const W3* d, const W_BODY* a, const W_BODY* b, bool still)
{
    W3 dv = still ? b->v : (W3){W_(Sub)(b->v.x, a->v.x), W_(Sub)(b->v.y, a->v.y), W_(Sub)(b->v.z, a->v.z)};
    return W_(Add)(W_DOT(*d, dv), W_NAME(fcRow, _Turn)(row, a, b, still));
}

// w_a -= I_a^-1 (r_a x d) lambda, w_b += I_b^-1 (r_b x d) lambda. With `still`, a is left at +0 (its inverse inertia
// is zero: it would add zeros to +0)
FC_V4_INLINE W_TARGET void W_NAME(fcRow, _ApplyTurn)(W_ROWS row, W_BODY* a, W_BODY* b, W impulse, bool still)
{
    W3 iangB = W_LOAD3R(row, ->iangB);
    if (!still) {
        W3 iangA = W_LOAD3R(row, ->iangA);
        a->w.x = W_(Sub)(a->w.x, W_(Mul)(impulse, iangA.x)), a->w.y = W_(Sub)(a->w.y, W_(Mul)(impulse, iangA.y));
        a->w.z = W_(Sub)(a->w.z, W_(Mul)(impulse, iangA.z));
    }
    b->w.x = W_(Add)(b->w.x, W_(Mul)(impulse, iangB.x)), b->w.y = W_(Add)(b->w.y, W_(Mul)(impulse, iangB.y));
    b->w.z = W_(Add)(b->w.z, W_(Mul)(impulse, iangB.z));
}

// v_a -= m_a p, v_b += m_b p for a linear impulse p (with `still`, a is left at +0)
FC_V4_INLINE W_TARGET void W_NAME(fcRow, _ApplyLinear)(const W3* p, W massA, W massB, W_BODY* a, W_BODY* b, bool still)
{
    if (!still) {
        a->v.x = W_(Sub)(a->v.x, W_(Mul)(massA, p->x)), a->v.y = W_(Sub)(a->v.y, W_(Mul)(massA, p->y));
        a->v.z = W_(Sub)(a->v.z, W_(Mul)(massA, p->z));
    }
    b->v.x = W_(Add)(b->v.x, W_(Mul)(massB, p->x)), b->v.y = W_(Add)(b->v.y, W_(Mul)(massB, p->y));
    b->v.z = W_(Add)(b->v.z, W_(Mul)(massB, p->z));
}

// the linear impulse of a manifold's rows, n sum_n + t1 sum_t1 + t2 sum_t2 (dirs: n, t1, t2; sum: the sums of their
// impulses), applied to v_a and v_b
FC_V4_INLINE W_TARGET void W_NAME(fcRow, _ApplyFrame)(const W3* dirs, const W* sum, W massA, W massB, W_BODY* a, W_BODY* b, bool still)
{
    W3 p = {W_(Add)(W_(Add)(W_(Mul)(dirs[0].x, sum[0]), W_(Mul)(dirs[1].x, sum[1])), W_(Mul)(dirs[2].x, sum[2])),
            W_(Add)(W_(Add)(W_(Mul)(dirs[0].y, sum[0]), W_(Mul)(dirs[1].y, sum[1])), W_(Mul)(dirs[2].y, sum[2])),
            W_(Add)(W_(Add)(W_(Mul)(dirs[0].z, sum[0]), W_(Mul)(dirs[1].z, sum[1])), W_(Mul)(dirs[2].z, sum[2]))};
    W_NAME(fcRow, _ApplyLinear)(&p, massA, massB, a, b, still);
}

// a row's impulse lambda: v_a -= m_a d lambda, w_a -= I_a^-1 (r_a x d) lambda; v_b, w_b the other way
FC_V4_INLINE W_TARGET void W_NAME(fcRow, _Apply)(W_ROWS row, const W3* d, W massA, W massB, W_BODY* a, W_BODY* b, W impulse, bool still)
{
    W3 p = {W_(Mul)(impulse, d->x), W_(Mul)(impulse, d->y), W_(Mul)(impulse, d->z)};
    W_NAME(fcRow, _ApplyLinear)(&p, massA, massB, a, b, still);
    W_NAME(fcRow, _ApplyTurn)(row, a, b, impulse, still);
}

// the velocities of the blocks' bodies on one side (solver bodies index[g]), lane by lane, and back
FC_V4_INLINE W_TARGET void W_NAME(fcSweep, _Gather)(W_BODY* out, const fcSolverBody* bodies, const int* const* index)
{
#if FC_SWEEP_BLOCKS == 1
    fcBody4_Gather(out, bodies, index[0]);
#else
    fcBody4 g[2];
    fcBody4_Gather(g, bodies, index[0]);
    fcBody4_Gather(g + 1, bodies, index[1]);
    out->v.x = fcV8_Join(g[0].v.x, g[1].v.x), out->v.y = fcV8_Join(g[0].v.y, g[1].v.y), out->v.z = fcV8_Join(g[0].v.z, g[1].v.z);
    out->w.x = fcV8_Join(g[0].w.x, g[1].w.x), out->w.y = fcV8_Join(g[0].w.y, g[1].w.y), out->w.z = fcV8_Join(g[0].w.z, g[1].w.z);
#endif
}

FC_V4_INLINE W_TARGET void W_NAME(fcSweep, _Scatter)(const W_BODY* in, fcSolverBody* bodies, const int* const* index)
{
#if FC_SWEEP_BLOCKS == 1
    fcBody4_Scatter(in, bodies, index[0]);
#else
    fcBody4 lo = {{fcV8_Low(in->v.x), fcV8_Low(in->v.y), fcV8_Low(in->v.z)}, {fcV8_Low(in->w.x), fcV8_Low(in->w.y), fcV8_Low(in->w.z)}};
    fcBody4 hi = {{fcV8_High(in->v.x), fcV8_High(in->v.y), fcV8_High(in->v.z)}, {fcV8_High(in->w.x), fcV8_High(in->w.y), fcV8_High(in->w.z)}};
    fcBody4_Scatter(&lo, bodies, index[0]);
    fcBody4_Scatter(&hi, bodies, index[1]);
#endif
}

// The blocks' rows: normal rows first, so that the friction bound is the new lambda_n, then rolling and spinning
// resistance (spin: one block's, NULL: none), then friction; the blocks have as many points, taken in the given order
// (reversed on alternate sweeps). Returns the largest impulse change per lane. An empty lane or point has zero rows
// and changes nothing.
// The linear velocities enter a manifold's rows only through its relative speeds along n, t1 and t2,
// d . (v_b - v_a), and an impulse lambda along d moves only d's, by (m_a + m_b) lambda: the inverse mass is a
// scalar and the three directions are orthonormal. So the rows carry those three speeds and the sums of their
// impulses, and v_a, v_b take the sums once, after the block's rows: a row updates 6 angular velocities, not 12,
// and the 6 linear ones and the directions stay out of the rows' registers (docs/physics.md, 4d).
FC_V4_INLINE W_TARGET W W_NAME(fcContacts_SolveBlocks, )(fcContactBlock* const* blk, fcContactSpin4* spin, fcSolverBody* bodies, bool cone,
                                               bool reverse, W settled, W* unsettled, bool still)
{
    const int *sideA[FC_SWEEP_BLOCKS], *sideB[FC_SWEEP_BLOCKS], *writeA[FC_SWEEP_BLOCKS], *writeB[FC_SWEEP_BLOCKS];
    for (int g = 0; g < FC_SWEEP_BLOCKS; ++g) {
        sideA[g] = blk[g]->a, sideB[g] = blk[g]->b;
        writeA[g] = blk[g]->writeA, writeB[g] = blk[g]->writeB;
    }
    W_BODY a, b;
    W_NAME(fcSweep, _Gather)(&a, bodies, sideA);
    W_NAME(fcSweep, _Gather)(&b, bodies, sideB);
    W massA = W_LOAD(blk, ->invMassA), massB = W_LOAD(blk, ->invMassB), mass = W_(Add)(massA, massB);
    W zero = W_(Splat)(0), largest = zero, totalNormal = zero;
    W speed[3], sum[3] = {zero, zero, zero};  // d . (v_b - v_a) and the sum of the impulses along n, t1, t2
    {
        W3 dv = still ? b.v : (W3){W_(Sub)(b.v.x, a.v.x), W_(Sub)(b.v.y, a.v.y), W_(Sub)(b.v.z, a.v.z)};
        W3 n = W_LOAD3(blk, ->normal), t0 = W_LOAD3(blk, ->tangent[0]), t1 = W_LOAD3(blk, ->tangent[1]);
        speed[0] = W_DOT(n, dv), speed[1] = W_DOT(t0, dv), speed[2] = W_DOT(t1, dv);
        if (!still) {
            // the friction rows ask for the chord of a turn (contact.h): an offset of the tangential speeds (zero on
            // the ground)
            speed[1] = W_(Sub)(speed[1], W_LOAD(blk, ->frictionTarget[0]));
            speed[2] = W_(Sub)(speed[2], W_LOAD(blk, ->frictionTarget[1]));
        }
    }
    int count = blk[0]->points;
    fcContactPoint4* sp[FC_SWEEP_BLOCKS];
    const fcContactRow4* row[FC_SWEEP_BLOCKS];
    for (int k = 0; k < count; ++k) {
        for (int g = 0; g < FC_SWEEP_BLOCKS; ++g) sp[g] = blk[g]->point + (reverse ? count - 1 - k : k), row[g] = &sp[g]->n;
        W vn = W_(Add)(speed[0], W_NAME(fcRow, _Turn)(W_ROWARG(row), &a, &b, still));
        W old = W_LOAD(sp, ->normalImpulse);
        W trial = W_(Sub)(old, W_(Mul)(W_LOAD(sp, ->n.mass), W_(Sub)(vn, W_LOAD(sp, ->bias))));
        W next = W_(Greater)(trial, zero, trial, zero);
        W delta = W_(Sub)(next, old);
        W_STORE(sp, ->trialImpulse, trial);
        W_STORE(sp, ->normalImpulse, next);
        W_NAME(fcRow, _ApplyTurn)(W_ROWARG(row), &a, &b, delta, still);
        speed[0] = W_(Add)(speed[0], W_(Mul)(mass, delta));
        sum[0] = W_(Add)(sum[0], delta);
        largest = W_(Max)(largest, W_(Abs)(delta));
        totalNormal = W_(Add)(totalNormal, next);
    }
    // settled: no normal impulse of the manifold moved by more than FC_CONTACT_SETTLED of its load
    *unsettled = W_(Max)(*unsettled, W_(Sub)(largest, W_(Mul)(settled, totalNormal)));
#if FC_SWEEP_BLOCKS == 1
    // rolling and spinning resistance: angular rows bounded by an arm times the manifold's normal impulse,
    // before friction, so that the sweep ends with the contact points' sliding settled
    if (spin) {
        fcVec3x4 dirs[3] = {fcVec3x4_Load(blk[0]->tangent[0][0]), fcVec3x4_Load(blk[0]->tangent[1][0]), fcVec3x4_Load(blk[0]->normal[0])};
        for (int d = 0; d < 3; ++d) {
            fcV4 bound = fcV4_Mul(fcV4_Load(spin->arm[d]), totalNormal);
            fcV4 w = fcVec3x4_Dot(fcVec3x4_Sub(b.w, a.w), dirs[d]);
            fcV4 old = fcV4_Load(spin->impulse[d]);
            fcV4 next = fcV4_Sub(old, fcV4_Mul(fcV4_Load(spin->mass[d]), w));
            next = fcV4_Min(fcV4_Max(next, fcV4_Neg(bound)), bound);
            fcV4 delta = fcV4_Sub(next, old);
            fcV4_Store(spin->impulse[d], next);
            a.w = fcVec3x4_Sub(a.w, fcVec3x4_Scale(delta, fcVec3x4_Load(spin->spinA[d][0])));
            b.w = fcVec3x4_Add(b.w, fcVec3x4_Scale(delta, fcVec3x4_Load(spin->spinB[d][0])));
        }
    }
#else
    (void)spin;  // the caller pairs only blocks without
#endif
    // friction, by manifold: the patch's rows along t1 and t2 at its centre and about n, moved together by the
    // inverse of their 3 x 3 J M^-1 J^T to where they would stick; where that lies outside the ellipsoid
    // |lambda_t|^2 + (tau / r)^2 <= (mu lambda_n)^2 of the lane's new normal impulses, the sliding patch's
    // projection onto it (the cone: each lane's own, its square roots taken only where some lane slides), or each
    // row within its own bound (the pyramid)
    {
        W bound = W_(Mul)(W_LOAD(blk, ->friction), totalNormal), invArm = W_LOAD(blk, ->invArm);
        W v[3], old[3], next[3];
        for (int i = 0; i < 3; ++i) {
            for (int g = 0; g < FC_SWEEP_BLOCKS; ++g) row[g] = &blk[g]->patch[i];
            W turn = W_NAME(fcRow, _Turn)(W_ROWARG(row), &a, &b, still);
            v[i] = i < 2 ? W_(Add)(speed[1 + i], turn) : turn;
            old[i] = W_LOAD(blk, ->patchImpulse[i]);
        }
        W k00 = W_LOAD(blk, ->patchInverse[0]), k10 = W_LOAD(blk, ->patchInverse[1]), k11 = W_LOAD(blk, ->patchInverse[2]);
        W k20 = W_LOAD(blk, ->patchInverse[3]), k21 = W_LOAD(blk, ->patchInverse[4]), k22 = W_LOAD(blk, ->patchInverse[5]);
        next[0] = W_(Sub)(old[0], W_(Add)(W_(Add)(W_(Mul)(k00, v[0]), W_(Mul)(k10, v[1])), W_(Mul)(k20, v[2])));
        next[1] = W_(Sub)(old[1], W_(Add)(W_(Add)(W_(Mul)(k10, v[0]), W_(Mul)(k11, v[1])), W_(Mul)(k21, v[2])));
        next[2] = W_(Sub)(old[2], W_(Add)(W_(Add)(W_(Mul)(k20, v[0]), W_(Mul)(k21, v[1])), W_(Mul)(k22, v[2])));
        if (cone) {
            W twist = W_(Mul)(next[2], invArm);
            W square = W_(Add)(W_(Add)(W_(Mul)(next[0], next[0]), W_(Mul)(next[1], next[1])), W_(Mul)(twist, twist));
            W reach = W_(Mul)(bound, bound);
            if (W_(AnyGreater)(square, reach)) {
                // sliding: the rows' trial taken alone, u* = u - v / d in (lambda_t, tau / r) (d: the diagonal of their J
                // M^-1 J^T there), onto the ball |u| <= mu lambda_n in the metric of d, the projection of a Gauss-Seidel
                // step, where the slip is normal to the ellipsoid (maximum dissipation): u_i = u*_i / (1 + s / d_i) for
                // the s >= 0 that makes |u| = mu lambda_n, by one Newton step on 1 / |u(s)| from s = 0 (that function
                // is nearly linear: exact where the d_i are equal; a second step moved a sliding plate by 0.1 %), then
                // scaled onto the bound: as that scaling sets the length, u_i is taken times the three (1 + s / d_j)
                // (the other two of them: no division) and u* is kept where it lies within the bound
                W e[3] = {W_LOAD(blk, ->patchMetric[0]), W_LOAD(blk, ->patchMetric[1]), W_LOAD(blk, ->patchMetric[2])};
                W arm = W_LOAD(blk, ->arm), one = W_(Splat)(1);
                W u[3] = {W_(Sub)(old[0], W_(Mul)(v[0], e[0])), W_(Sub)(old[1], W_(Mul)(v[1], e[1])),
                          W_(Sub)(W_(Mul)(old[2], invArm), W_(Mul)(W_(Mul)(arm, v[2]), e[2]))};
                W length2 = zero, spread = zero;
                for (int i = 0; i < 3; ++i) {
                    W u2 = W_(Mul)(u[i], u[i]);
                    length2 = W_(Add)(length2, u2);
                    spread = W_(Add)(spread, W_(Mul)(u2, e[i]));
                }
                W length = W_(Sqrt)(length2), weight = W_(Mul)(bound, spread);  // zero load: no step, u scaled to 0
                W shift = W_(Div)(W_(Mul)(length2, W_(Sub)(length, bound)), W_(Greater)(weight, zero, weight, one));
                shift = W_(Greater)(weight, zero, shift, zero);
                W g[3] = {W_(Add)(one, W_(Mul)(shift, e[0])), W_(Add)(one, W_(Mul)(shift, e[1])), W_(Add)(one, W_(Mul)(shift, e[2]))};
                W out[3] = {W_(Mul)(u[0], W_(Mul)(g[1], g[2])), W_(Mul)(u[1], W_(Mul)(g[0], g[2])), W_(Mul)(u[2], W_(Mul)(g[0], g[1]))};
                W most = W_(Add)(W_(Add)(W_(Mul)(out[0], out[0]), W_(Mul)(out[1], out[1])), W_(Mul)(out[2], out[2]));
                W scale = W_(Greater)(most, zero, W_(Div)(bound, W_(Sqrt)(W_(Greater)(most, zero, most, one))), zero);
                W outside = W_(Greater)(length, bound, one, zero);
                for (int i = 0; i < 3; ++i) out[i] = W_(Greater)(outside, zero, W_(Mul)(out[i], scale), u[i]);
                out[2] = W_(Mul)(out[2], arm);
                for (int i = 0; i < 3; ++i) next[i] = W_(Greater)(square, reach, out[i], next[i]);
            }
        } else {
            // where the rows' joint step leaves the box, each row's own step (1 / K_ii), then clamped: the joint
            // step's rows are each right only while the others move freely (a sliding 0.6 x 0.2 m box, its tangents
            // off its axes, slid sideways at 1.7 m/s and crawled downhill)
            W arm = W_LOAD(blk, ->arm), turning = W_(Mul)(bound, arm);
            W out = W_(Max)(W_(Max)(W_(Sub)(W_(Abs)(next[0]), bound), W_(Sub)(W_(Abs)(next[1]), bound)), W_(Sub)(W_(Abs)(next[2]), turning));
            W alone[3] = {W_(Sub)(old[0], W_(Mul)(v[0], W_LOAD(blk, ->patchMetric[0]))),
                          W_(Sub)(old[1], W_(Mul)(v[1], W_LOAD(blk, ->patchMetric[1]))),
                          W_(Sub)(old[2], W_(Mul)(W_(Mul)(W_(Mul)(arm, arm), v[2]), W_LOAD(blk, ->patchMetric[2])))};
            for (int i = 0; i < 3; ++i) next[i] = W_(Greater)(out, zero, alone[i], next[i]);
            next[0] = W_(Min)(W_(Max)(next[0], W_(Neg)(bound)), bound);
            next[1] = W_(Min)(W_(Max)(next[1], W_(Neg)(bound)), bound);
            next[2] = W_(Min)(W_(Max)(next[2], W_(Neg)(turning)), turning);
        }
        for (int i = 0; i < 3; ++i) {
            for (int g = 0; g < FC_SWEEP_BLOCKS; ++g) row[g] = &blk[g]->patch[i];
            W delta = W_(Sub)(next[i], old[i]);
            W_STORE(blk, ->patchImpulse[i], next[i]);
            W_NAME(fcRow, _ApplyTurn)(W_ROWARG(row), &a, &b, delta, still);
            if (i < 2) {
                speed[1 + i] = W_(Add)(speed[1 + i], W_(Mul)(mass, delta));
                sum[1 + i] = W_(Add)(sum[1 + i], delta);
            } else {
                delta = W_(Mul)(delta, invArm);  // N s, as the others
            }
            largest = W_(Max)(largest, W_(Abs)(delta));
        }
    }
    W3 dirs[3] = {W_LOAD3(blk, ->normal), W_LOAD3(blk, ->tangent[0]), W_LOAD3(blk, ->tangent[1])};
    W_NAME(fcRow, _ApplyFrame)(dirs, sum, massA, massB, &a, &b, still);
    W_NAME(fcSweep, _Scatter)(&a, bodies, writeA);
    W_NAME(fcSweep, _Scatter)(&b, bodies, writeB);
    return largest;
}

#undef W_LOAD3R
#undef W_LOAD3
#undef W
#undef W_
#undef W3
#undef W_BODY
#undef W_NAME
#undef W_ROWS
#undef W_LOADR
#undef W_LOAD
#undef W_STORE
#undef W_ROWARG
#undef W_DOT
#undef W_TARGET
