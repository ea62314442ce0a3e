// Rows-in-lanes building blocks of the NEON kernels for llama.cpp's
// repacked-weight orders (neon/repacked.cpp, neon/repacked_k.cpp and their
// dotprod copies). Internal; arm64 only.
//
// Why rows in lanes: the repacked orders scale one exact integer per block
// (or chunk) and weight row with a scalar fused multiply-add per (row,
// token), so the float work is one lane per row. A group holds 4 rows; the
// integer partial sums of each row come out as an int32x4, and reduceRows4
// turns the 4 rows' quads into one quad whose lane r is row r's sum.
#pragma once

#include "cpu/neon/simd_neon.h"

#if defined(__aarch64__) || defined(_M_ARM64)

#include "cpu/row_groups.h"

#include <cstddef>

namespace hearth::cpu::neon {
namespace {

constexpr int kGroupRows = 4;

// Lane r = Σ of the 4 lanes of z[r] (exact integers).
inline int32x4_t reduceRows4(const int32x4_t* z)
{
    return vpaddq_s32(vpaddq_s32(z[0], z[1]), vpaddq_s32(z[2], z[3]));
}

// z[r] lane j → out[j] lane r (a 4 × 4 transpose).
inline void transposeRows4(const int32x4_t* z, int32x4_t* out)
{
    const int64x2_t a = vreinterpretq_s64_s32(vzip1q_s32(z[0], z[1]));
    const int64x2_t b = vreinterpretq_s64_s32(vzip2q_s32(z[0], z[1]));
    const int64x2_t c = vreinterpretq_s64_s32(vzip1q_s32(z[2], z[3]));
    const int64x2_t d = vreinterpretq_s64_s32(vzip2q_s32(z[2], z[3]));
    out[0] = vreinterpretq_s32_s64(vzip1q_s64(a, c));
    out[1] = vreinterpretq_s32_s64(vzip2q_s64(a, c));
    out[2] = vreinterpretq_s32_s64(vzip1q_s64(b, d));
    out[3] = vreinterpretq_s32_s64(vzip2q_s64(b, d));
}

// Σ over 32 products x·y (two halves of 16) as 4 int32 partials, added to
// acc. Without dotprod each int16 lane takes two products, which stays
// exact for |x|, |y| <= 127 (and for |x| <= 63, |y| <= 128).
inline int32x4_t dot32(int32x4_t acc, int8x16_t x0, int8x16_t x1, int8x16_t y0, int8x16_t y1)
{
#if defined(__ARM_FEATURE_DOTPROD)
    return vdotq_s32(vdotq_s32(acc, x0, y0), x1, y1);
#else
    const int16x8_t p = vmlal_high_s8(vmull_s8(vget_low_s8(x0), vget_low_s8(y0)), x0, y0);
    const int16x8_t q = vmlal_high_s8(vmull_s8(vget_low_s8(x1), vget_low_s8(y1)), x1, y1);
    return vpadalq_s16(vpadalq_s16(acc, p), q);
#endif
}

// The f16 at byte `offset` of block b of each of the 4 rows → 4 floats.
template <class Block>
inline float32x4_t halfPerRow(const uint8_t* const* rows, int64_t b, size_t offset)
{
    uint16_t h[kGroupRows];
    for (int r = 0; r < kGroupRows; ++r)
        std::memcpy(&h[r], rows[r] + sizeof(Block) * static_cast<size_t>(b) + offset, sizeof(uint16_t));
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(h)));
}

// lanes[r] for the rows of the group that exist (`live`) → s[r].
inline void storeRows(float* s, float32x4_t lanes, int live)
{
    storeLiveRows<kGroupRows>(s, lanes, live, [](float* p, float32x4_t v) { vst1q_f32(p, v); });
}

} // namespace
} // namespace hearth::cpu::neon

#endif
