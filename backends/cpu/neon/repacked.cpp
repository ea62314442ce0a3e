// NEON kernels of llama.cpp's repacked order for Q4_0 and IQ4_NL (GEMV and
// GEMM alike, scalar/repack.cpp): per 32-block one exact integer Σ q·a, then
// acc = fma(f32(Σ), d(x)·d(y), acc) — one scalar chain per (row, token),
// kept here as one lane per row of a group of 4 (neon/repacked_rows.h).
// Also IQ4_NL's vec_dot order, which takes blocks in pairs
// (scalar/legacy.cpp dotIQ4_NL). Compiled again with dotprod by
// neon/repacked_dotprod.cpp.
#include "cpu/kernels.h"
#include "quant/iq4.h"
#include "quant/legacy.h"

#include "cpu/neon/repacked_rows.h"

#include <cmath>

namespace hearth::cpu {

#if defined(__aarch64__) || defined(_M_ARM64)

namespace {

using namespace neon;

// Per format: the 32 quants of a block as signed bytes, elements 0..15 and
// 16..31.
struct Q4_0 {
    using Block = BlockQ4_0;
    static int8x16x2_t quants(const Block& b)
    {
        const int8x16x2_t v = nibbles32(b.qs);
        return {vsubq_s8(v.val[0], vdupq_n_s8(8)), vsubq_s8(v.val[1], vdupq_n_s8(8))};
    }
};

struct IQ4_NL {
    using Block = BlockIQ4_NL;
    static int8x16x2_t quants(const Block& b)
    {
        const int8x16_t table = vld1q_s8(kValuesIQ4NL);
        const int8x16x2_t idx = nibbles32(b.qs);
        return {vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[0])), vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[1]))};
    }
};

template <class Block>
const Block& blockOf(const uint8_t* row, int64_t b)
{
    return reinterpret_cast<const Block*>(row)[b];
}

// One group of 4 rows against nt tokens (a: the first token's Q8_0 row).
template <class T>
void group32(int64_t nb, const uint8_t* const* rows, int live, const uint8_t* a, size_t aStride, int nt, float* s,
             size_t sStride)
{
    using Block = typename T::Block;
    float32x4_t acc[kTokenGroup];
    for (int t = 0; t < nt; ++t)
        acc[t] = vdupq_n_f32(0.0f);
    for (int64_t b = 0; b < nb; ++b) {
        int8x16x2_t x[kGroupRows];
        for (int r = 0; r < kGroupRows; ++r)
            x[r] = T::quants(blockOf<Block>(rows[r], b));
        const float32x4_t dx = halfPerRow<Block>(rows, b, offsetof(Block, d));
        for (int t = 0; t < nt; ++t) {
            const BlockQ8_0& y = blockOf<BlockQ8_0>(a + aStride * static_cast<size_t>(t), b);
            const int8x16x2_t yq = vld1q_s8_x2(y.qs);
            int32x4_t z[kGroupRows];
            for (int r = 0; r < kGroupRows; ++r)
                z[r] = dot32(vdupq_n_s32(0), x[r].val[0], x[r].val[1], yq.val[0], yq.val[1]);
            const float32x4_t d = vmulq_n_f32(dx, halfToFloat(y.d));
            acc[t] = vfmaq_f32(acc[t], vcvtq_f32_s32(reduceRows4(z)), d);
        }
    }
    for (int t = 0; t < nt; ++t)
        storeRows(s + sStride * static_cast<size_t>(t), acc[t], live);
}

template <class T>
void gemm32(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
            int64_t rows, int64_t tokens)
{
    walkRowGroups<kGroupRows>(rows, tokens, w, wStride, a, aStride, s, sStride,
                              [&](const uint8_t* const* rp, int live, const uint8_t* at, int nt, float* out) {
                                  group32<T>(n / 32, rp, live, at, aStride, nt, out, sStride);
                              });
}

// One row, one token: the same chain in a scalar register.
template <class T>
void dot32Row(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const typename T::Block*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    float acc = 0.0f;
    for (int64_t b = 0; b < n / 32; ++b) {
        const int8x16x2_t xq = T::quants(x[b]);
        const int8x16x2_t yq = vld1q_s8_x2(y[b].qs);
        const int32_t sum = vaddvq_s32(dot32(vdupq_n_s32(0), xq.val[0], xq.val[1], yq.val[0], yq.val[1]));
        acc = std::fma(static_cast<float>(sum), halfToFloat(x[b].d) * halfToFloat(y[b].d), acc);
    }
    *s = acc;
}

// IQ4_NL's vec_dot: even blocks into one set of 8 float lanes (lane l: the
// products of elements 4l..4l+3), odd ones into another, added lane by
// lane before hsum_float_8; a last odd block as one integer, fused in after
// the reduction.
void dotIQ4_NL(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_NL*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    const int64_t nb = n / QK4_NL;
    F32x8 acc[2] = {{vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)}, {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)}};
    for (int64_t b = 0; b < nb - nb % 2; ++b) {
        const int8x16x2_t xq = IQ4_NL::quants(x[b]);
        const int8x16x2_t yq = vld1q_s8_x2(y[b].qs);
        const float d = halfToFloat(y[b].d) * halfToFloat(x[b].d);
        F32x8& l = acc[b % 2];
        l.lo = vfmaq_n_f32(l.lo, vcvtq_f32_s32(dot4(vdupq_n_s32(0), xq.val[0], yq.val[0])), d);
        l.hi = vfmaq_n_f32(l.hi, vcvtq_f32_s32(dot4(vdupq_n_s32(0), xq.val[1], yq.val[1])), d);
    }
    float sum = hsum8({vaddq_f32(acc[0].lo, acc[1].lo), vaddq_f32(acc[0].hi, acc[1].hi)});
    if (nb % 2 != 0) {
        const int64_t b = nb - 1;
        const int8x16x2_t xq = IQ4_NL::quants(x[b]);
        const int8x16x2_t yq = vld1q_s8_x2(y[b].qs);
        const int32_t isum = vaddvq_s32(dot32(vdupq_n_s32(0), xq.val[0], xq.val[1], yq.val[0], yq.val[1]));
        sum = std::fma(halfToFloat(y[b].d) * halfToFloat(x[b].d), static_cast<float>(isum), sum);
    }
    *s = sum;
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    k.vecDotRepacked = dot32Row<T>;
    k.gemmRepacked = gemm32<T>;
}

} // namespace

#if HEARTH_NEON_DOTPROD
void registerNeonDotprodRepackedKernels(KernelTable& t)
#else
void registerNeonRepackedKernels(KernelTable& t)
#endif
{
    set<Q4_0>(t, GgmlType::Q4_0);
    set<IQ4_NL>(t, GgmlType::IQ4_NL);
    t.types[static_cast<uint32_t>(GgmlType::IQ4_NL)].vecDot = dotIQ4_NL;
}

#elif HEARTH_NEON_DOTPROD

void registerNeonDotprodRepackedKernels(KernelTable&)
{
}

#else

void registerNeonRepackedKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
