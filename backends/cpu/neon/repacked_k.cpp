// NEON kernels of llama.cpp's repacked orders for Q4_K and Q2_K
// (scalar/repack.cpp): per chunk of a super-block (all 256 elements in the
// GEMV order; 64 for Q4_K's GEMM, 128 for Q2_K's) one exact integer
// Σ scale·q·a and one Σ min·bsum, then
//   accD = fma(f32(Σ), d(x)·y.d, accD), accM = fma(f32(Σmin), dmin(x)·y.d, accM)
// and the result accD − accM: one scalar chain per (row, token), here one
// lane per row of a group of 4 (neon/repacked_rows.h). Compiled again with
// dotprod by neon/repacked_k_dotprod.cpp.
//
// A group's super-block is decoded once for all the tokens of the call:
// 16 pieces of 16 quants per row in element order (piece k = elements
// 16k..16k+15, the activations' group k), the scales and the mins. Q2_K's
// quants are stored already multiplied by their scale (<= 3 · 15, still a
// byte), so its chunk sums are plain dot products; Q4_K multiplies each
// sub-block's 32-product sum by its scale. Every integer stays exact
// (neon/repacked_rows.h dot32).
#include "cpu/kernels.h"
#include "quant/k_quants.h"

#include "cpu/neon/repacked_rows.h"

namespace hearth::cpu {

#if defined(__aarch64__) || defined(_M_ARM64)

namespace {

using namespace neon;

constexpr int kPieces = 16;

// Super-block b of a group of 4 rows, decoded.
struct Group {
    int8x16_t q[kGroupRows][kPieces];
    int32_t scale[kGroupRows][QK_K / 32]; // Q4_K: per sub-block of 32
    int16x8_t mins[kGroupRows][2];        // per format, see its mins()
    float32x4_t d, dmin;                  // f16 factors per row
};

// Q4_K: piece 4p + j (p = 0..3) is the low (j < 2) or high nibble of bytes
// 32p + 16·(j % 2) .. + 15; sub-block s = piece / 2 has scale and min s.
struct Q4_K {
    using Block = BlockQ4_K;
    static constexpr int kChunks = 4; // of the GEMM order
    static void decode(const Block& x, Group& out, int r)
    {
        for (int p = 0; p < 4; ++p) {
            const uint8x16_t lo = vld1q_u8(x.qs + 32 * p), hi = vld1q_u8(x.qs + 32 * p + 16);
            const uint8x16_t mask = vdupq_n_u8(0x0f);
            out.q[r][4 * p] = vreinterpretq_s8_u8(vandq_u8(lo, mask));
            out.q[r][4 * p + 1] = vreinterpretq_s8_u8(vandq_u8(hi, mask));
            out.q[r][4 * p + 2] = vreinterpretq_s8_u8(vshrq_n_u8(lo, 4));
            out.q[r][4 * p + 3] = vreinterpretq_s8_u8(vshrq_n_u8(hi, 4));
        }
        int16_t mn[8];
        for (int s = 0; s < 8; ++s) {
            uint8_t sc, m;
            scaleMinK4(s, x.scales, sc, m);
            out.scale[r][s] = sc;
            mn[s] = m;
        }
        out.mins[r][0] = vld1q_s16(mn);
    }
    // Row r's Σ scale·q·a over pieces [k0, k1) as 4 partials.
    static int32x4_t sum(const Group& x, int r, const int8_t* a, int k0, int k1)
    {
        int32x4_t acc = vdupq_n_s32(0);
        for (int k = k0; k < k1; k += 2) {
            const int32x4_t t =
                dot32(vdupq_n_s32(0), x.q[r][k], x.q[r][k + 1], vld1q_s8(a + 16 * k), vld1q_s8(a + 16 * k + 16));
            acc = vmlaq_n_s32(acc, t, x.scale[r][k / 2]);
        }
        return acc;
    }
    // out[c] lane r = Σ min·bsum of chunk c (NC chunks) of row r.
    template <int NC>
    static void mins(const Group& x, const BlockQ8_K& y, int32x4_t* out)
    {
        // Sums of the 8 sub-blocks of 32 (|Σ| <= 32 · 128).
        const int16x8_t b = vpaddq_s16(vld1q_s16(y.bsums), vld1q_s16(y.bsums + 8));
        int32x4_t v[kGroupRows];
        for (int r = 0; r < kGroupRows; ++r) {
            const int32x4_t lo = vmull_s16(vget_low_s16(x.mins[r][0]), vget_low_s16(b));
            const int32x4_t hi = vmull_high_s16(x.mins[r][0], b);
            v[r] = NC == 1 ? vaddq_s32(lo, hi) : vpaddq_s32(lo, hi); // lane c: chunk c of 64
        }
        if constexpr (NC == 1)
            out[0] = reduceRows4(v);
        else
            transposeRows4(v, out);
    }
};

// Q2_K: piece k = 8h + 2s + u (h, u = 0..1, s = 0..3) is bit pair s of bytes
// 32h + 16u .. + 15, times its group's scale (group k).
struct Q2_K {
    using Block = BlockQ2_K;
    static constexpr int kChunks = 2;
    static void decode(const Block& x, Group& out, int r)
    {
        const uint8x16_t scales = vld1q_u8(x.scales);
        alignas(16) uint8_t sc[kPieces];
        vst1q_u8(sc, vandq_u8(scales, vdupq_n_u8(0x0f)));
        for (int h = 0; h < 2; ++h) {
            for (int u = 0; u < 2; ++u) {
                const uint8x16_t raw = vld1q_u8(x.qs + 32 * h + 16 * u);
                const uint8x16_t bits[4] = {raw, vshrq_n_u8(raw, 2), vshrq_n_u8(raw, 4), vshrq_n_u8(raw, 6)};
                for (int s = 0; s < 4; ++s) {
                    const int k = 8 * h + 2 * s + u;
                    const uint8x16_t q = vandq_u8(bits[s], vdupq_n_u8(3));
                    out.q[r][k] = vreinterpretq_s8_u8(vmulq_u8(q, vdupq_n_u8(sc[k])));
                }
            }
        }
        const uint8x16_t mn = vshrq_n_u8(scales, 4);
        out.mins[r][0] = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(mn)));
        out.mins[r][1] = vreinterpretq_s16_u16(vmovl_high_u8(mn));
    }
    static int32x4_t sum(const Group& x, int r, const int8_t* a, int k0, int k1)
    {
        int32x4_t acc = vdupq_n_s32(0);
        for (int k = k0; k < k1; k += 2)
            acc = dot32(acc, x.q[r][k], x.q[r][k + 1], vld1q_s8(a + 16 * k), vld1q_s8(a + 16 * k + 16));
        return acc;
    }
    template <int NC>
    static void mins(const Group& x, const BlockQ8_K& y, int32x4_t* out)
    {
        const int16x8_t b0 = vld1q_s16(y.bsums), b1 = vld1q_s16(y.bsums + 8);
        int32x4_t c0[kGroupRows], c1[kGroupRows];
        for (int r = 0; r < kGroupRows; ++r) {
            const int16x8_t m0 = x.mins[r][0], m1 = x.mins[r][1];
            c0[r] = vaddq_s32(vmull_s16(vget_low_s16(m0), vget_low_s16(b0)), vmull_high_s16(m0, b0));
            c1[r] = vaddq_s32(vmull_s16(vget_low_s16(m1), vget_low_s16(b1)), vmull_high_s16(m1, b1));
            if constexpr (NC == 1)
                c0[r] = vaddq_s32(c0[r], c1[r]);
        }
        out[0] = reduceRows4(c0);
        if constexpr (NC == 2)
            out[1] = reduceRows4(c1);
    }
};

template <class Block>
const Block& blockOf(const uint8_t* row, int64_t b)
{
    return reinterpret_cast<const Block*>(row)[b];
}

template <class F, int NC>
void groupK(int64_t nb, const uint8_t* const* rows, int live, const uint8_t* a, size_t aStride, int nt, float* s,
            size_t sStride)
{
    using Block = typename F::Block;
    constexpr int per = kPieces / NC;
    float32x4_t accD[kTokenGroup], accM[kTokenGroup];
    for (int t = 0; t < nt; ++t)
        accD[t] = accM[t] = vdupq_n_f32(0.0f);
    Group x;
    for (int64_t b = 0; b < nb; ++b) {
        for (int r = 0; r < kGroupRows; ++r)
            F::decode(blockOf<Block>(rows[r], b), x, r);
        x.d = halfPerRow<Block>(rows, b, offsetof(Block, d));
        x.dmin = halfPerRow<Block>(rows, b, offsetof(Block, dmin));
        for (int t = 0; t < nt; ++t) {
            const BlockQ8_K& y = blockOf<BlockQ8_K>(a + aStride * static_cast<size_t>(t), b);
            const float32x4_t d = vmulq_n_f32(x.d, y.d), dmin = vmulq_n_f32(x.dmin, y.d);
            int32x4_t m[NC];
            F::template mins<NC>(x, y, m);
            for (int c = 0; c < NC; ++c) {
                int32x4_t z[kGroupRows];
                for (int r = 0; r < kGroupRows; ++r)
                    z[r] = F::sum(x, r, y.qs, per * c, per * (c + 1));
                accD[t] = vfmaq_f32(accD[t], vcvtq_f32_s32(reduceRows4(z)), d);
                accM[t] = vfmaq_f32(accM[t], vcvtq_f32_s32(m[c]), dmin);
            }
        }
    }
    for (int t = 0; t < nt; ++t)
        storeRows(s + sStride * static_cast<size_t>(t), vsubq_f32(accD[t], accM[t]), live);
}

template <class F, int NC>
void gemmK(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
           int64_t rows, int64_t tokens)
{
    walkRowGroups<kGroupRows>(rows, tokens, w, wStride, a, aStride, s, sStride,
                              [&](const uint8_t* const* rp, int live, const uint8_t* at, int nt, float* out) {
                                  groupK<F, NC>(n / QK_K, rp, live, at, aStride, nt, out, sStride);
                              });
}

template <class F, int NC>
void dotK(int64_t n, float* s, const void* w, const void* a)
{
    gemmK<F, NC>(n, s, 0, w, 0, a, 0, 1, 1);
}

template <class F>
void set(KernelTable& t, GgmlType type)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    k.vecDotRepacked = dotK<F, 1>;
    k.gemmRepacked = gemmK<F, 1>;
    k.vecDotRepackedGemm = dotK<F, F::kChunks>;
    k.gemmRepackedGemm = gemmK<F, F::kChunks>;
}

} // namespace

#if HEARTH_NEON_DOTPROD
void registerNeonDotprodRepackedKQuantKernels(KernelTable& t)
#else
void registerNeonRepackedKQuantKernels(KernelTable& t)
#endif
{
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q2_K>(t, GgmlType::Q2_K);
}

#elif HEARTH_NEON_DOTPROD

void registerNeonDotprodRepackedKQuantKernels(KernelTable&)
{
}

#else

void registerNeonRepackedKQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
