// Decoding of the K-quant formats and IQ4_XS in 32-element chunks for the
// NEON kernels (internal; arm64 only; included by neon/k_quants.cpp, which
// is compiled once plain and once with dotprod).
//
// Each format: Prep is decoded once per super-block and row; quants(b, k)
// gives chunk k (elements 32k..32k+31) as signed bytes in the form the
// reference's vec_dot lanes take them (kq::Unpacked: unsigned 0..63 for
// Q2_K, Q4_K, Q5_K, Q6_K; signed for Q3_K and IQ4_XS); scale(p, k, h) the
// scale of half h (16 elements) of chunk k. kMins, kBias and minLanes /
// minQuad / biasLanes are the format's second terms, as in
// avx2/k_quants_orders.h: lanes l (two quads) = groups 2l, 2l + 1.
#pragma once

#if defined(__aarch64__) || defined(_M_ARM64)

#include "cpu/neon/simd_neon.h"
#include "quant/iq4.h"
#include "quant/k_quants.h"

namespace hearth::cpu::neon {
namespace {

enum class Mins {
    None,  // Q3_K, Q6_K, IQ4_XS
    Lanes, // Q2_K: fused into the eight lanes
    Quad,  // Q4_K: four f32 lanes of their own
    Sum    // Q5_K: one f32 sum
};

struct I32x8 {
    int32x4_t lo, hi;
};

inline int8x16x2_t shiftMask(const uint8_t* p, int shift, uint8_t mask)
{
    const uint8x16x2_t raw = vld1q_u8_x2(p);
    const int8x16_t s = vdupq_n_s8(static_cast<int8_t>(-shift));
    const uint8x16_t m = vdupq_n_u8(mask);
    return {vreinterpretq_s8_u8(vandq_u8(vshlq_u8(raw.val[0], s), m)),
            vreinterpretq_s8_u8(vandq_u8(vshlq_u8(raw.val[1], s), m))};
}

// Lane l = v[2l]·b[2l] + v[2l+1]·b[2l+1] over 16 int16 factors and the
// activations' 16 bsums.
inline I32x8 pairProducts(const int16_t* v, const BlockQ8_K& y)
{
    const int16x8x2_t f = vld1q_s16_x2(v);
    const int16x8x2_t b = vld1q_s16_x2(y.bsums);
    const int32x4_t lo =
        vpaddq_s32(vmull_s16(vget_low_s16(f.val[0]), vget_low_s16(b.val[0])), vmull_high_s16(f.val[0], b.val[0]));
    const int32x4_t hi =
        vpaddq_s32(vmull_s16(vget_low_s16(f.val[1]), vget_low_s16(b.val[1])), vmull_high_s16(f.val[1], b.val[1]));
    return {lo, hi};
}

struct Format {
    static constexpr Mins kMins = Mins::None;
    static constexpr int kBias = 0;
};

struct Q2_K : Format {
    using Block = BlockQ2_K;
    static constexpr Mins kMins = Mins::Lanes;
    struct Prep {
        int16_t sc[16], mn[16];
    };
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j) {
            p.sc[j] = b.scales[j] & 0x0f;
            p.mn[j] = b.scales[j] >> 4;
        }
    }
    static int8x16x2_t quants(const Block& b, int k) { return shiftMask(b.qs + 32 * (k / 4), 2 * (k % 4), 3); }
    static int scale(const Prep& p, int k, int h) { return p.sc[2 * k + h]; }
    static I32x8 minLanes(const Prep& p, const BlockQ8_K& y) { return pairProducts(p.mn, y); }
};

struct Q3_K : Format {
    using Block = BlockQ3_K;
    struct Prep {
        int16_t sc[16];
    };
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j) {
            const int lo = j < 8 ? b.scales[j] & 0x0f : b.scales[j - 8] >> 4;
            const int hi = (b.scales[8 + j % 4] >> (2 * (j / 4))) & 3;
            p.sc[j] = static_cast<int16_t>((lo | (hi << 4)) - 32);
        }
    }
    // low bits - 4 where the high bit is clear: -4..3.
    static int8x16x2_t quants(const Block& b, int k)
    {
        const int8x16x2_t low = shiftMask(b.qs + 32 * (k / 4), 2 * (k % 4), 3);
        const int8x16x2_t bit = shiftMask(b.hmask, k, 1);
        const int8x16_t four = vdupq_n_s8(4);
        return {vsubq_s8(low.val[0], vbicq_s8(four, vshlq_n_s8(bit.val[0], 2))),
                vsubq_s8(low.val[1], vbicq_s8(four, vshlq_n_s8(bit.val[1], 2)))};
    }
    static int scale(const Prep& p, int k, int h) { return p.sc[2 * k + h]; }
};

struct Q4_K : Format {
    using Block = BlockQ4_K;
    static constexpr Mins kMins = Mins::Quad;
    struct Prep {
        uint8_t sc[8], mn[8];
    };
    static void prepare(const Block& b, Prep& p) { unpackScalesMinsK4(b.scales, p.sc, p.mn); }
    static int8x16x2_t quants(const Block& b, int k) { return shiftMask(b.qs + 32 * (k / 2), 4 * (k % 2), 0x0f); }
    static int scale(const Prep& p, int k, int) { return p.sc[k]; }
    // Lane m = Σ_{j = 2m, 2m+1} min_j · (bsums[2j] + bsums[2j+1]).
    static int32x4_t minQuad(const Prep& p, const BlockQ8_K& y)
    {
        const int16x8_t mins = vreinterpretq_s16_u16(vmovl_u8(vld1_u8(p.mn)));
        const int16x8x2_t b = vld1q_s16_x2(y.bsums);
        const int16x8_t b32 = vpaddq_s16(b.val[0], b.val[1]);
        return vpaddq_s32(vmull_s16(vget_low_s16(mins), vget_low_s16(b32)), vmull_high_s16(mins, b32));
    }
};

struct Q5_K : Format {
    using Block = BlockQ5_K;
    static constexpr Mins kMins = Mins::Sum;
    using Prep = Q4_K::Prep;
    static void prepare(const Block& b, Prep& p) { unpackScalesMinsK4(b.scales, p.sc, p.mn); }
    static int8x16x2_t quants(const Block& b, int k)
    {
        const int8x16x2_t low = shiftMask(b.qs + 32 * (k / 2), 4 * (k % 2), 0x0f);
        const int8x16x2_t bit = shiftMask(b.qh, k, 1);
        return {vorrq_s8(low.val[0], vshlq_n_s8(bit.val[0], 4)), vorrq_s8(low.val[1], vshlq_n_s8(bit.val[1], 4))};
    }
    static int scale(const Prep& p, int k, int) { return p.sc[k]; }
    static int32x4_t minQuad(const Prep& p, const BlockQ8_K& y) { return Q4_K::minQuad(p, y); }
};

struct Q6_K : Format {
    using Block = BlockQ6_K;
    static constexpr int kBias = 32;
    struct Prep {
        int16_t sc[16];
    };
    static void prepare(const Block& b, Prep& p)
    {
        vst1q_s16_x2(p.sc, {vmovl_s8(vld1_s8(b.scales)), vmovl_s8(vld1_s8(b.scales + 8))});
    }
    // Quarter k % 4 of half k / 4, unsigned (q + 32).
    static int8x16x2_t quants(const Block& b, int k)
    {
        const int h = k / 4, kk = k % 4;
        const int8x16x2_t low = shiftMask(b.ql + 64 * h + 32 * (kk % 2), 4 * (kk / 2), 0x0f);
        const int8x16x2_t high = shiftMask(b.qh + 32 * h, 2 * kk, 3);
        return {vorrq_s8(low.val[0], vshlq_n_s8(high.val[0], 4)), vorrq_s8(low.val[1], vshlq_n_s8(high.val[1], 4))};
    }
    static int scale(const Prep& p, int k, int h) { return p.sc[2 * k + h]; }
    static I32x8 biasLanes(const Prep& p, const BlockQ8_K& y)
    {
        const I32x8 v = pairProducts(p.sc, y);
        return {vshlq_n_s32(v.lo, 5), vshlq_n_s32(v.hi, 5)};
    }
};

struct IQ4_XS : Format {
    using Block = BlockIQ4_XS;
    struct Prep {
        int16_t sc[8];
    };
    static void prepare(const Block& b, Prep& p)
    {
        for (int sb = 0; sb < 8; ++sb) {
            const int ls = ((b.scalesL[sb / 2] >> (4 * (sb % 2))) & 0x0f) | (((b.scalesH >> (2 * sb)) & 3) << 4);
            p.sc[sb] = static_cast<int16_t>(ls - 32);
        }
    }
    static int8x16x2_t quants(const Block& b, int k)
    {
        const int8x16_t table = vld1q_s8(kValuesIQ4NL);
        const int8x16x2_t idx = nibbles32(b.qs + 16 * k);
        return {vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[0])), vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[1]))};
    }
    static int scale(const Prep& p, int k, int) { return p.sc[k]; }
};

} // namespace
} // namespace hearth::cpu::neon

#endif
