// NEON kernels for the K-quant formats (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K) and
// IQ4_XS against Q8_K activations, in both of the reference's orders
// (vec_dot: scalar/k_quants.cpp, tiled: scalar/tiled.cpp); compiled again
// with dotprod by neon/k_quants_dotprod.cpp.
//
// Per super-block the tile forms the reference's eight exact int32 lanes
// (kq::lanes8) as two quads: a dot of 16 bytes gives lane i = elements
// 4i..4i+3, so half h of chunk k goes to quad h, times its sub-block
// scale. The float steps follow the order, as avx2/k_quants_orders.h does
// on x86.
#include "quant/k_quants.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"

#include "cpu/neon/k_quants_formats.h"
#include "cpu/neon/simd_neon.h"

#include <cmath>

namespace hearth::cpu {

#if defined(__aarch64__) || defined(_M_ARM64)

namespace {

using namespace neon;

inline int hsum(I32x8 v)
{
    return vaddvq_s32(vaddq_s32(v.lo, v.hi));
}

// vec_dot: eight f32 lanes, fma by d = y.d · d(x), the mins per format.
struct VecOrder {
    struct Acc {
        F32x8 lanes{vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
        float32x4_t quad = vdupq_n_f32(0.0f);
        float sum = 0.0f;
    };

    template <class F>
    static void add(Acc& acc, const typename F::Block& x, const typename F::Prep& p, const BlockQ8_K& y, I32x8 lanes)
    {
        if constexpr (F::kMins != Mins::None) {
            const float dmin = -(y.d * halfToFloat(x.dmin));
            if constexpr (F::kMins == Mins::Lanes) {
                const I32x8 m = F::minLanes(p, y);
                acc.lanes.lo = vfmaq_n_f32(acc.lanes.lo, vcvtq_f32_s32(m.lo), dmin);
                acc.lanes.hi = vfmaq_n_f32(acc.lanes.hi, vcvtq_f32_s32(m.hi), dmin);
            } else if constexpr (F::kMins == Mins::Quad) {
                acc.quad = vfmaq_n_f32(acc.quad, vcvtq_f32_s32(F::minQuad(p, y)), dmin);
            } else {
                acc.sum = std::fma(dmin, static_cast<float>(vaddvq_s32(F::minQuad(p, y))), acc.sum);
            }
        }
        if constexpr (F::kBias != 0) {
            const I32x8 bias = F::biasLanes(p, y);
            lanes = {vsubq_s32(lanes.lo, bias.lo), vsubq_s32(lanes.hi, bias.hi)};
        }
        const float d = y.d * halfToFloat(x.d);
        acc.lanes.lo = vfmaq_n_f32(acc.lanes.lo, vcvtq_f32_s32(lanes.lo), d);
        acc.lanes.hi = vfmaq_n_f32(acc.lanes.hi, vcvtq_f32_s32(lanes.hi), d);
    }

    template <class F>
    static float result(const Acc& acc)
    {
        const float main = hsum8(acc.lanes);
        if constexpr (F::kMins == Mins::Quad) {
            const float m0 = vgetq_lane_f32(acc.quad, 0), m1 = vgetq_lane_f32(acc.quad, 1);
            const float m2 = vgetq_lane_f32(acc.quad, 2), m3 = vgetq_lane_f32(acc.quad, 3);
            return main + ((m0 + m2) + (m1 + m3));
        } else if constexpr (F::kMins == Mins::Sum) {
            return main + acc.sum;
        } else {
            return main;
        }
    }
};

// tiled: r = f32(s1)·d(x), r = fma(−dmin(x), f32(s2), r), acc = fma(r, y.d, acc).
struct TiledOrder {
    struct Acc {
        float v = 0.0f;
    };

    template <class F>
    static void add(Acc& acc, const typename F::Block& x, const typename F::Prep& p, const BlockQ8_K& y, I32x8 lanes)
    {
        int s1 = hsum(lanes);
        if constexpr (F::kBias != 0)
            s1 -= hsum(F::biasLanes(p, y));
        float r = static_cast<float>(s1) * halfToFloat(x.d);
        if constexpr (F::kMins == Mins::Lanes)
            r = std::fma(-halfToFloat(x.dmin), static_cast<float>(hsum(F::minLanes(p, y))), r);
        else if constexpr (F::kMins != Mins::None)
            r = std::fma(-halfToFloat(x.dmin), static_cast<float>(vaddvq_s32(F::minQuad(p, y))), r);
        acc.v = std::fma(r, y.d, acc.v);
    }

    template <class F>
    static float result(const Acc& acc)
    {
        return acc.v;
    }
};

template <class T>
const typename T::Block& blockAt(const uint8_t* w, size_t stride, int r, int64_t b)
{
    return reinterpret_cast<const typename T::Block*>(w + stride * static_cast<size_t>(r))[b];
}

inline const BlockQ8_K& tokenAt(const uint8_t* a, size_t stride, int c, int64_t b)
{
    return reinterpret_cast<const BlockQ8_K*>(a + stride * static_cast<size_t>(c))[b];
}

template <class T, class O, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    typename O::Acc acc[R][C];
    for (int64_t b = 0; b < nb; ++b) {
        typename T::Prep prep[R];
        for (int r = 0; r < R; ++r)
            T::prepare(blockAt<T>(w, wStride, r, b), prep[r]);
        I32x8 lanes[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                lanes[r][c] = {vdupq_n_s32(0), vdupq_n_s32(0)};
        for (int k = 0; k < QK_K / 32; ++k) {
            int8x16x2_t q[R];
            for (int r = 0; r < R; ++r)
                q[r] = T::quants(blockAt<T>(w, wStride, r, b), k);
            for (int c = 0; c < C; ++c) {
                const int8x16x2_t y = vld1q_s8_x2(tokenAt(a, aStride, c, b).qs + 32 * k);
                for (int r = 0; r < R; ++r) {
                    const int32x4_t zero = vdupq_n_s32(0);
                    lanes[r][c].lo =
                        vmlaq_n_s32(lanes[r][c].lo, dot4(zero, q[r].val[0], y.val[0]), T::scale(prep[r], k, 0));
                    lanes[r][c].hi =
                        vmlaq_n_s32(lanes[r][c].hi, dot4(zero, q[r].val[1], y.val[1]), T::scale(prep[r], k, 1));
                }
            }
        }
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                O::template add<T>(acc[r][c], blockAt<T>(w, wStride, r, b), prep[r], tokenAt(a, aStride, c, b),
                                   lanes[r][c]);
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) { return O::template result<T>(acc[r][c]); });
}

// Tiles of 2 rows × 4 tokens for batches, 4 rows for one token.
template <class T, class O>
struct Tiles : TileShape<QK_K, 2, 4, 4> {
    template <int R, int C>
    static constexpr auto tile = &cpu::tile<T, O, R, C>;
};

// Activations to Q8_K exactly as the reference (quantizeRowQ8_K): the
// value of largest magnitude (its first occurrence) maps to -127, quants
// rounded half to even (FCVTNS) and capped at 127, sums of 16.
void quantizeQ8_K(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<BlockQ8_K*>(yv);
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        // vmaxnm ignores a NaN operand, like the reference's comparison.
        float32x4_t amax = vdupq_n_f32(0.0f);
        for (int k = 0; k < 64; ++k)
            amax = vmaxnmq_f32(amax, vabsq_f32(vld1q_f32(x + 4 * k)));
        const float m = vmaxnmvq_f32(amax);
        BlockQ8_K& out = y[i];
        if (m == 0.0f) {
            std::memset(&out, 0, sizeof out);
            continue;
        }
        float max = 0.0f;
        for (int j = 0; j < QK_K; ++j) {
            if (x[j] == m || x[j] == -m) {
                max = x[j];
                break;
            }
        }
        const float iscale = -127.0f / max;
        for (int k = 0; k < 16; ++k) {
            int32x4_t q[4];
            for (int j = 0; j < 4; ++j)
                q[j] = vminq_s32(vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(x + 16 * k + 4 * j), iscale)), vdupq_n_s32(127));
            out.bsums[k] = static_cast<int16_t>(vaddvq_s32(vaddq_s32(vaddq_s32(q[0], q[1]), vaddq_s32(q[2], q[3]))));
            const int16x8_t lo = vcombine_s16(vmovn_s32(q[0]), vmovn_s32(q[1]));
            const int16x8_t hi = vcombine_s16(vmovn_s32(q[2]), vmovn_s32(q[3]));
            vst1q_s8(out.qs + 16 * k, vcombine_s8(vmovn_s16(lo), vmovn_s16(hi)));
        }
        out.d = 1.0f / iscale;
    }
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    setTiles<Tiles<T, VecOrder>>(k, &TypeKernels::vecDot, &TypeKernels::gemm);
    setTiles<Tiles<T, TiledOrder>>(k, &TypeKernels::vecDotTiled, &TypeKernels::gemmTiled);
}

} // namespace

#if HEARTH_NEON_DOTPROD
void registerNeonDotprodKQuantKernels(KernelTable& t)
#else
void registerNeonKQuantKernels(KernelTable& t)
#endif
{
    set<Q2_K>(t, GgmlType::Q2_K);
    set<Q3_K>(t, GgmlType::Q3_K);
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q5_K>(t, GgmlType::Q5_K);
    set<Q6_K>(t, GgmlType::Q6_K);
    set<IQ4_XS>(t, GgmlType::IQ4_XS);
    t.types[static_cast<uint32_t>(GgmlType::Q8_K)].fromFloat = quantizeQ8_K;
}

#elif HEARTH_NEON_DOTPROD

void registerNeonDotprodKQuantKernels(KernelTable&)
{
}

#else

void registerNeonKQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
