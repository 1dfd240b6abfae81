// SPDX-License-Identifier: MIT
// fcV4: four fcReal lanes for the contact solver's blocks (four manifolds with no dynamic body in common).
// GCC (12 on) and Clang use vector extensions (SSE2 pairs by default, one AVX register in FC_SIMD_CLONES functions);
// other compilers get a plain struct with the same operations. Every operation is one IEEE operation per lane
// (no fused multiply-add: the build sets -ffp-contract=off), so all paths give the same bits.
#ifndef FC_SIMD_H
#define FC_SIMD_H

#include "fulcrum/math.h"

#include <stdint.h>
#include <string.h>

// functions whose loops run on fcV4: copies built for AVX-512 (x86-64-v4: 32 vector registers, so the
// blocks' rows stay in registers) and AVX2, chosen at load time (x86-64 Linux, GCC)
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && !defined(FC_NO_TARGET_CLONES)
#define FC_SIMD_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
// a function built for AVX-512 alone, called where the processor has it (__builtin_cpu_supports("x86-64-v4"))
#define FC_SIMD_AVX512 __attribute__((target("arch=x86-64-v4")))
#include <immintrin.h>
#else
#define FC_SIMD_CLONES
#endif

#if defined(__GNUC__) && (defined(__clang__) || __GNUC__ >= 12) && !defined(FC_SCALAR_V4)

#define FC_V4_INLINE static inline __attribute__((always_inline))

// the lanes' bits, for the selections (fcV8: below)
#ifdef FC_FLOAT
typedef int32_t fcV4Bits __attribute__((vector_size(16)));
typedef int32_t fcV8Bits __attribute__((vector_size(32)));
#else
typedef int64_t fcV4Bits __attribute__((vector_size(32)));
typedef int64_t fcV8Bits __attribute__((vector_size(64)));
#endif
typedef fcReal fcV4 __attribute__((vector_size(4 * sizeof(fcReal))));
typedef fcReal fcV8 __attribute__((vector_size(8 * sizeof(fcReal))));

FC_V4_INLINE fcV4 fcV4_Load(const fcReal* p)
{
    fcV4 v;
    memcpy(&v, p, sizeof v);
    return v;
}
FC_V4_INLINE void fcV4_Store(fcReal* p, fcV4 v) { memcpy(p, &v, sizeof v); }
FC_V4_INLINE fcV4 fcV4_Set(fcReal a, fcReal b, fcReal c, fcReal d) { return (fcV4){a, b, c, d}; }
FC_V4_INLINE fcV4 fcV4_Splat(fcReal s) { return (fcV4){s, s, s, s}; }
FC_V4_INLINE fcV8 fcV8_Splat(fcReal s) { return (fcV8){s, s, s, s, s, s, s, s}; }
// the lane operations of the vector type T (its bits: T##Bits): a > b ? a : b per lane and the other selections by
// masks; |a| clears the sign bit
#define FC_VECTOR_OPERATIONS(T)                                                                                     \
    FC_V4_INLINE fcReal T##_Lane(T v, int lane) { return v[lane]; }                                                  \
    FC_V4_INLINE T T##_Add(T a, T b) { return a + b; }                                                              \
    FC_V4_INLINE T T##_Sub(T a, T b) { return a - b; }                                                              \
    FC_V4_INLINE T T##_Mul(T a, T b) { return a * b; }                                                              \
    FC_V4_INLINE T T##_Div(T a, T b) { return a / b; }                                                              \
    FC_V4_INLINE T T##_Neg(T a) { return -a; }                                                                      \
    FC_V4_INLINE T T##_Select(T##Bits mask, T a, T b) { return (T)((mask & (T##Bits)a) | (~mask & (T##Bits)b)); }   \
    FC_V4_INLINE T T##_Max(T a, T b) { return T##_Select(a > b, a, b); }                                            \
    FC_V4_INLINE T T##_Min(T a, T b) { return T##_Select(a < b, a, b); }                                            \
    FC_V4_INLINE T T##_Greater(T a, T b, T ifTrue, T ifFalse) { return T##_Select(a > b, ifTrue, ifFalse); }        \
    FC_V4_INLINE T T##_Abs(T a) { return (T)((T##Bits)a & ~(T##Bits)T##_Splat(-0.0)); }                       \

FC_VECTOR_OPERATIONS(fcV4)
// whether a > b in some lane: the mask's halves or-ed in registers (a loop over its lanes went through memory: GCC
// stored the mask and read it back lane by lane, a stall that cost the cone's projection 5 % of S4's sweep)
FC_V4_INLINE bool fcV4_AnyBits(fcV4Bits m)
{
    __typeof__(__builtin_shufflevector(m, m, 0, 1)) h = __builtin_shufflevector(m, m, 0, 1) | __builtin_shufflevector(m, m, 2, 3);
    return (h[0] | h[1]) != 0;
}
FC_V4_INLINE bool fcV4_AnyGreater(fcV4 a, fcV4 b) { return fcV4_AnyBits(a > b); }
FC_V4_INLINE fcV4 fcV4_Sqrt(fcV4 a) { return (fcV4){FC_SQRT(a[0]), FC_SQRT(a[1]), FC_SQRT(a[2]), FC_SQRT(a[3])}; }
// the transpose of the 4 x 4 matrix whose rows are r[0..3]
FC_V4_INLINE void fcV4_Transpose(fcV4* r)
{
    fcV4 t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 2, 6), t1 = __builtin_shufflevector(r[0], r[1], 1, 5, 3, 7);
    fcV4 t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 2, 6), t3 = __builtin_shufflevector(r[2], r[3], 1, 5, 3, 7);
    r[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    r[1] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    r[2] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    r[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

#ifdef FC_SIMD_AVX512
// fcV8: eight lanes, two blocks of four side by side (the contact sweep's blocks of one colour, which share no
// body), for FC_SIMD_AVX512 functions: one AVX-512 instruction where fcV4 takes one (on AVX2 its two halves spill
// out of the 16 registers: 2.7 times the sweep's instructions); the same IEEE operation per lane as fcV4's.
#define FC_HAVE_V8 1

// the halves, and the two halves joined, as the AVX-512 instructions that take the upper half from or to memory
// (vinsertf64x4, vextractf64x4): a generic shuffle took a load or a store and a shuffle more
#ifdef FC_FLOAT
FC_V4_INLINE FC_SIMD_AVX512 fcV8 fcV8_Join(fcV4 lo, fcV4 hi) { return (fcV8)_mm256_insertf32x4(_mm256_castps128_ps256((__m128)lo), (__m128)hi, 1); }
FC_V4_INLINE FC_SIMD_AVX512 fcV4 fcV8_Low(fcV8 v) { return (fcV4)_mm256_castps256_ps128((__m256)v); }
FC_V4_INLINE FC_SIMD_AVX512 fcV4 fcV8_High(fcV8 v) { return (fcV4)_mm256_extractf32x4_ps((__m256)v, 1); }
#else
FC_V4_INLINE FC_SIMD_AVX512 fcV8 fcV8_Join(fcV4 lo, fcV4 hi) { return (fcV8)_mm512_insertf64x4(_mm512_castpd256_pd512((__m256d)lo), (__m256d)hi, 1); }
FC_V4_INLINE FC_SIMD_AVX512 fcV4 fcV8_Low(fcV8 v) { return (fcV4)_mm512_castpd512_pd256((__m512d)v); }
FC_V4_INLINE FC_SIMD_AVX512 fcV4 fcV8_High(fcV8 v) { return (fcV4)_mm512_extractf64x4_pd((__m512d)v, 1); }
#endif
FC_VECTOR_OPERATIONS(fcV8)
// The comparison into a mask register and one test of it, and the square root in one instruction: the generic
// vector forms took nine instructions to turn the mask into a flag (a vector of ones from the mask, shuffles, ors, two
// moves to integer registers) and two four-lane square roots joined, once a point and sweep in the cone's projection.
// The same IEEE operations.
#ifdef FC_FLOAT
FC_V4_INLINE FC_SIMD_AVX512 bool fcV8_AnyGreater(fcV8 a, fcV8 b) { return _mm256_cmp_ps_mask((__m256)a, (__m256)b, _CMP_GT_OQ) != 0; }
FC_V4_INLINE FC_SIMD_AVX512 fcV8 fcV8_Sqrt(fcV8 a) { return (fcV8)_mm256_sqrt_ps((__m256)a); }
#else
FC_V4_INLINE FC_SIMD_AVX512 bool fcV8_AnyGreater(fcV8 a, fcV8 b) { return _mm512_cmp_pd_mask((__m512d)a, (__m512d)b, _CMP_GT_OQ) != 0; }
FC_V4_INLINE FC_SIMD_AVX512 fcV8 fcV8_Sqrt(fcV8 a) { return (fcV8)_mm512_sqrt_pd((__m512d)a); }
#endif
#endif

#else

#define FC_V4_INLINE static inline
typedef struct fcV4 {
    fcReal v[4];
} fcV4;

FC_V4_INLINE fcV4 fcV4_Load(const fcReal* p)
{
    fcV4 r;
    memcpy(r.v, p, sizeof r.v);
    return r;
}
FC_V4_INLINE void fcV4_Store(fcReal* p, fcV4 v) { memcpy(p, v.v, sizeof v.v); }
FC_V4_INLINE fcV4 fcV4_Set(fcReal a, fcReal b, fcReal c, fcReal d)
{
    fcV4 r = {{a, b, c, d}};
    return r;
}
FC_V4_INLINE fcV4 fcV4_Splat(fcReal s) { return fcV4_Set(s, s, s, s); }
FC_V4_INLINE fcReal fcV4_Lane(fcV4 v, int lane) { return v.v[lane]; }
#define FC_V4_LANES(expr)                    \
    fcV4 r;                                  \
    for (int l = 0; l < 4; ++l) r.v[l] = expr; \
    return r
FC_V4_INLINE fcV4 fcV4_Add(fcV4 a, fcV4 b) { FC_V4_LANES(a.v[l] + b.v[l]); }
FC_V4_INLINE fcV4 fcV4_Sub(fcV4 a, fcV4 b) { FC_V4_LANES(a.v[l] - b.v[l]); }
FC_V4_INLINE fcV4 fcV4_Mul(fcV4 a, fcV4 b) { FC_V4_LANES(a.v[l] * b.v[l]); }
FC_V4_INLINE fcV4 fcV4_Div(fcV4 a, fcV4 b) { FC_V4_LANES(a.v[l] / b.v[l]); }
FC_V4_INLINE fcV4 fcV4_Neg(fcV4 a) { FC_V4_LANES(-a.v[l]); }
FC_V4_INLINE fcV4 fcV4_Max(fcV4 a, fcV4 b) { FC_V4_LANES(a.v[l] > b.v[l] ? a.v[l] : b.v[l]); }
FC_V4_INLINE fcV4 fcV4_Min(fcV4 a, fcV4 b) { FC_V4_LANES(a.v[l] < b.v[l] ? a.v[l] : b.v[l]); }
FC_V4_INLINE fcV4 fcV4_Greater(fcV4 a, fcV4 b, fcV4 ifTrue, fcV4 ifFalse) { FC_V4_LANES(a.v[l] > b.v[l] ? ifTrue.v[l] : ifFalse.v[l]); }
FC_V4_INLINE fcV4 fcV4_Abs(fcV4 a) { FC_V4_LANES(FC_FABS(a.v[l])); }
FC_V4_INLINE fcV4 fcV4_Sqrt(fcV4 a) { FC_V4_LANES(FC_SQRT(a.v[l])); }
FC_V4_INLINE bool fcV4_AnyGreater(fcV4 a, fcV4 b) { return a.v[0] > b.v[0] || a.v[1] > b.v[1] || a.v[2] > b.v[2] || a.v[3] > b.v[3]; }
#undef FC_V4_LANES
FC_V4_INLINE void fcV4_Transpose(fcV4* r)
{
    for (int i = 0; i < 4; ++i)
        for (int j = i + 1; j < 4; ++j) {
            fcReal t = r[i].v[j];
            r[i].v[j] = r[j].v[i];
            r[j].v[i] = t;
        }
}

#endif

// the largest lane
FC_V4_INLINE fcReal fcV4_MaxLane(fcV4 v)
{
    fcReal a = fcV4_Lane(v, 0) > fcV4_Lane(v, 1) ? fcV4_Lane(v, 0) : fcV4_Lane(v, 1);
    fcReal b = fcV4_Lane(v, 2) > fcV4_Lane(v, 3) ? fcV4_Lane(v, 2) : fcV4_Lane(v, 3);
    return a > b ? a : b;
}

#endif
