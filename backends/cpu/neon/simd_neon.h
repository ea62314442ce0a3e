// NEON building blocks of the neon/ kernel files (internal; arm64 only).
// Internal linkage throughout, as in avx2/simd_avx2.h: copies compiled with
// dotprod must never be linked into code that runs without it.
#pragma once

// 1 in the copies compiled with dotprod (neon/*_dotprod.cpp), which define
// it before including their file.
#ifndef HEARTH_NEON_DOTPROD
#define HEARTH_NEON_DOTPROD 0
#endif

#if defined(__aarch64__) || defined(_M_ARM64)

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

namespace hearth::cpu::neon {
namespace {

inline float halfToFloat(uint16_t h)
{
    return vgetq_lane_f32(vcvt_f32_f16(vreinterpret_f16_u16(vdup_n_u16(h))), 0);
}

// Eight float lanes as two quads: lanes 0-3 and 4-7.
struct F32x8 {
    float32x4_t lo, hi;
};

// Σ of 8 lanes in the order of ggml's hsum_float_8 (x86):
// ((l0+l4) + (l2+l6)) + ((l1+l5) + (l3+l7)).
inline float hsum8(F32x8 v)
{
    const float32x4_t r = vaddq_f32(v.hi, v.lo);
    const float32x2_t t = vadd_f32(vget_low_f32(r), vget_high_f32(r));
    return vget_lane_f32(t, 0) + vget_lane_f32(t, 1);
}

// Lane i = Σ_{j<4} x[4i+j]·y[4i+j] over 16 signed bytes, added to acc.
inline int32x4_t dot4(int32x4_t acc, int8x16_t x, int8x16_t y)
{
#if defined(__ARM_FEATURE_DOTPROD)
    return vdotq_s32(acc, x, y);
#else
    const int16x8_t lo = vmull_s8(vget_low_s8(x), vget_low_s8(y));
    const int16x8_t hi = vmull_high_s8(x, y);
    return vaddq_s32(acc, vpaddq_s32(vpaddlq_s16(lo), vpaddlq_s16(hi)));
#endif
}

// 16 bytes of nibbles → low nibbles (elements 0..15), high (16..31).
inline int8x16x2_t nibbles32(const uint8_t* p)
{
    const uint8x16_t raw = vld1q_u8(p);
    return {vreinterpretq_s8_u8(vandq_u8(raw, vdupq_n_u8(0x0f))), vreinterpretq_s8_u8(vshrq_n_u8(raw, 4))};
}

// Bit j of the little-endian u32 at p → byte j set to `value` (else 0).
inline int8x16x2_t bitsToBytes32(const uint8_t* p, uint8_t value)
{
    static const uint8_t kProbe[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    uint32_t bits;
    std::memcpy(&bits, p, sizeof bits);
    const uint8x16_t probe = vld1q_u8(kProbe);
    const uint8x8_t b0 = vdup_n_u8(static_cast<uint8_t>(bits)), b1 = vdup_n_u8(static_cast<uint8_t>(bits >> 8));
    const uint8x8_t b2 = vdup_n_u8(static_cast<uint8_t>(bits >> 16)), b3 = vdup_n_u8(static_cast<uint8_t>(bits >> 24));
    const uint8x16_t lo = vtstq_u8(vcombine_u8(b0, b1), probe);
    const uint8x16_t hi = vtstq_u8(vcombine_u8(b2, b3), probe);
    const uint8x16_t v = vdupq_n_u8(value);
    return {vreinterpretq_s8_u8(vandq_u8(lo, v)), vreinterpretq_s8_u8(vandq_u8(hi, v))};
}

} // namespace
} // namespace hearth::cpu::neon

#endif
