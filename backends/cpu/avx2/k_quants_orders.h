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
#include "quant/iq4.h"
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

// The sums of eight vectors' lanes: lane j = Σ of v[j]'s lanes (exact).
inline __m256i sumsOf8(const __m256i* v)
{
    const __m256i ab = _mm256_hadd_epi32(_mm256_hadd_epi32(v[0], v[1]), _mm256_hadd_epi32(v[2], v[3]));
    const __m256i cd = _mm256_hadd_epi32(_mm256_hadd_epi32(v[4], v[5]), _mm256_hadd_epi32(v[6], v[7]));
    return _mm256_add_epi32(_mm256_permute2x128_si256(ab, cd, 0x20), _mm256_permute2x128_si256(ab, cd, 0x31));
}

// IQ4_XS's eight 6-bit sub-block scales minus 32, as int16, computed in
// registers (spreading the nibbles and 2-bit fields into bytes), so that
// no vector load waits on narrow stores.
inline __m128i iq4xsScales(const BlockIQ4_XS& b)
{
    uint32_t low;
    std::memcpy(&low, b.scalesL, 4);
    uint64_t lo = low;
    lo = (lo | (lo << 16)) & 0x0000FFFF0000FFFFULL;
    lo = (lo | (lo << 8)) & 0x00FF00FF00FF00FFULL;
    lo = (lo | (lo << 4)) & 0x0F0F0F0F0F0F0F0FULL;
    uint64_t hi = b.scalesH;
    hi = (hi | (hi << 24)) & 0x000000FF000000FFULL;
    hi = (hi | (hi << 12)) & 0x000F000F000F000FULL;
    hi = (hi | (hi << 6)) & 0x0303030303030303ULL;
    const __m128i bytes = _mm_cvtsi64_si128(static_cast<long long>(lo | (hi << 4)));
    return _mm_sub_epi16(_mm_cvtepu8_epi16(bytes), _mm_set1_epi16(32));
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

    template <class F, int R, int C>
    static void addAll(Acc (&acc)[R][C], const typename F::Block* const* x, const typename F::Prep* p,
                       const BlockQ8_K* const* y, const __m256i (&lanes)[R][C])
    {
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                add<F>(acc[r][c], *x[r], p[r], *y[c], lanes[r][c]);
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

// Tiled: one exact s1, s2 per output and super-block; the float steps of
// eight outputs at once (lane i: output i), each lane as the reference
// does it for one output.
struct TiledOrder {
    using Acc = float;

    template <class F>
    static __m256i first(const typename F::Prep& p, const BlockQ8_K& y, __m256i lanes)
    {
        if constexpr (F::kBias != 0)
            return _mm256_sub_epi32(lanes, F::biasLanes(p, y));
        else
            return lanes;
    }

    template <class F>
    static __m256i second(const typename F::Prep& p, const BlockQ8_K& y)
    {
        if constexpr (F::kMins == Mins::Lanes)
            return F::minLanes(p, y);
        else if constexpr (F::kMins == Mins::None)
            return _mm256_setzero_si256();
        else
            return _mm256_set_m128i(_mm_setzero_si128(), F::minQuad(p, y));
    }

    // R rows × C tokens of one super-block: x[r], y[c], lanes[r][c].
    template <class F, int R, int C>
    static void addAll(Acc (&acc)[R][C], const typename F::Block* const* x, const typename F::Prep* p,
                       const BlockQ8_K* const* y, const __m256i (&lanes)[R][C])
    {
        constexpr int N = R * C;
        for (int i0 = 0; i0 < N; i0 += 8) {
            __m256i v1[8], v2[8];
            alignas(32) float d[8] = {}, dmin[8] = {}, dy[8] = {}, out[8] = {};
            for (int j = 0; j < 8; ++j) {
                const int i = i0 + j, r = i / C, c = i % C;
                if (i >= N) {
                    v1[j] = v2[j] = _mm256_setzero_si256();
                    continue;
                }
                v1[j] = first<F>(p[r], *y[c], lanes[r][c]);
                v2[j] = second<F>(p[r], *y[c]);
                d[j] = dOf<F>(*x[r]);
                if constexpr (F::kMins != Mins::None)
                    dmin[j] = -halfToFloat(x[r]->dmin);
                dy[j] = y[c]->d;
                out[j] = acc[r][c];
            }
            __m256 t = _mm256_mul_ps(_mm256_cvtepi32_ps(sumsOf8(v1)), _mm256_load_ps(d));
            if constexpr (F::kMins != Mins::None)
                t = _mm256_fmadd_ps(_mm256_load_ps(dmin), _mm256_cvtepi32_ps(sumsOf8(v2)), t);
            _mm256_store_ps(out, _mm256_fmadd_ps(t, _mm256_load_ps(dy), _mm256_load_ps(out)));
            for (int j = 0; j < 8 && i0 + j < N; ++j)
                acc[(i0 + j) / C][(i0 + j) % C] = out[j];
        }
    }

    template <class F>
    static float result(const Acc& acc)
    {
        return acc;
    }
};

} // namespace
} // namespace hearth::cpu::avx2

#endif
