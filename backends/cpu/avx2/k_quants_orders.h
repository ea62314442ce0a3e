// The float steps of the K-quant / IQ4_XS kernels in the two summation
// orders of llama.cpp's x86 build, shared by the AVX2 and AVX-512 tiles
// (internal; include only from sources compiled with at least AVX2).
//
// Both start from the same exact integers of one super-block and output:
// `lanes`, the eight int32 lanes of scaledSum with lane l holding the
// elements e with (e % 32) / 4 == l (maddubs / madd's layout: the scalar
// reference's kq::lanes8; AVX-512 folds its 16 lanes into these first), and
// the format's second term from its Prep and the activations' bsums. Then
//
//   VecOrder    ggml's vec_dot (scalar/k_quants.cpp): eight f32 lanes,
//               fma by d = y.d · d(x) per lane, the mins per format
//               (kMins) and Q6_K's lane bias (kBias), hsum_float_8 last;
//   TiledOrder  the tiled kernel (scalar/tiled.cpp): the whole block as one
//               integer s1 (and s2 for the mins), r = f32(s1) · d(x),
//               r = fma(-dmin(x), f32(s2), r), acc = fma(r, y.d, acc).
//
// A format F provides kMins, kBias and, as its kMins needs:
//   minLanes(p, y)  8 int32: lane l = min_2l · bsums_2l + min_2l+1 · bsums_2l+1
//   minQuad(p, y)   4 int32: lane m = Σ_{j = 2m, 2m+1} min_j · (32-sum j)
//   biasLanes(p, y) 8 int32: kBias · (scale_2l · bsums_2l + scale_2l+1 · bsums_2l+1)
#pragma once

#if defined(__x86_64__) || defined(_M_X64)

#include "cpu/avx2/simd_avx2.h"
#include "quant/k_quants.h"

#include <cmath>

namespace hearth::cpu::avx2 {
namespace {

// How a format's mins enter vec_dot's sum (scalar/k_quants.cpp).
enum class Mins {
    None,  // no mins (Q3_K, Q6_K, IQ4_XS)
    Lanes, // Q2_K: fused into the eight lanes before the scales
    Quad,  // Q4_K: four f32 lanes of their own, added after the reduction
    Sum    // Q5_K: one f32 sum, added after the reduction
};

// Defaults of the format traits: no mins, no bias; kOffset: the quants
// enter as q + kOffset (unsigned) and the tiles take the offset's share out
// of each pair of products; kSigned: the quants are signed bytes.
struct Format {
    static constexpr Mins kMins = Mins::None;
    static constexpr int kBias = 0;
    static constexpr int kOffset = 0;
    static constexpr bool kSigned = false;
};

inline __m256i bsumsOf(const BlockQ8_K& y)
{
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y.bsums));
}

// The activations' 8 sums of 32 (pairs of bsums) as int16.
inline __m128i bsums32(const BlockQ8_K& y)
{
    const __m256i b = bsumsOf(y);
    return _mm_hadd_epi16(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
}

inline int hsumI32x4(__m128i r)
{
    r = _mm_add_epi32(r, _mm_unpackhi_epi64(r, r));
    r = _mm_add_epi32(r, _mm_shuffle_epi32(r, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(r);
}

template <class F>
inline float dOf(const typename F::Block& b)
{
    return halfToFloat(b.d);
}

struct VecOrder {
    struct Acc {
        __m256 lanes = _mm256_setzero_ps();
        __m128 quad = _mm_setzero_ps();
        float sum = 0.0f;
    };

    template <class F>
    static void add(Acc& acc, const typename F::Block& x, const typename F::Prep& p, const BlockQ8_K& y, __m256i lanes)
    {
        if constexpr (F::kMins != Mins::None) {
            const __m256 dmin = _mm256_set1_ps(-(y.d * halfToFloat(x.dmin)));
            if constexpr (F::kMins == Mins::Lanes)
                acc.lanes = _mm256_fmadd_ps(dmin, _mm256_cvtepi32_ps(F::minLanes(p, y)), acc.lanes);
            else if constexpr (F::kMins == Mins::Quad)
                acc.quad = _mm_fmadd_ps(_mm256_castps256_ps128(dmin), _mm_cvtepi32_ps(F::minQuad(p, y)), acc.quad);
            else
                acc.sum = std::fma(_mm256_cvtss_f32(dmin), static_cast<float>(hsumI32x4(F::minQuad(p, y))), acc.sum);
        }
        if constexpr (F::kBias != 0)
            lanes = _mm256_sub_epi32(lanes, F::biasLanes(p, y));
        acc.lanes = _mm256_fmadd_ps(_mm256_set1_ps(y.d * dOf<F>(x)), _mm256_cvtepi32_ps(lanes), acc.lanes);
    }

    template <class F>
    static float result(const Acc& acc)
    {
        const float main = hsum8(acc.lanes);
        if constexpr (F::kMins == Mins::Quad) {
            alignas(16) float m[4];
            _mm_store_ps(m, acc.quad);
            return main + ((m[0] + m[2]) + (m[1] + m[3]));
        } else if constexpr (F::kMins == Mins::Sum) {
            return main + acc.sum;
        } else {
            return main;
        }
    }
};

struct TiledOrder {
    struct Acc {
        float v = 0.0f;
    };

    template <class F>
    static void step(Acc& acc, const typename F::Block& x, const BlockQ8_K& y, int s1, int s2)
    {
        float r = static_cast<float>(s1) * dOf<F>(x);
        if constexpr (F::kMins != Mins::None)
            r = std::fma(-halfToFloat(x.dmin), static_cast<float>(s2), r);
        acc.v = std::fma(r, y.d, acc.v);
    }

    template <class F>
    static void add(Acc& acc, const typename F::Block& x, const typename F::Prep& p, const BlockQ8_K& y, __m256i lanes)
    {
        int s2 = 0;
        if constexpr (F::kMins == Mins::Lanes)
            s2 = hsumI32(F::minLanes(p, y));
        else if constexpr (F::kMins != Mins::None)
            s2 = hsumI32x4(F::minQuad(p, y));
        if constexpr (F::kBias != 0)
            lanes = _mm256_sub_epi32(lanes, F::biasLanes(p, y));
        step<F>(acc, x, y, hsumI32(lanes), s2);
    }

    template <class F>
    static float result(const Acc& acc)
    {
        return acc.v;
    }
};

} // namespace
} // namespace hearth::cpu::avx2

#endif
