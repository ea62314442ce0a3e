// Helpers shared by the scalar reference quantizers (internal to core/quant).
// They reproduce ggml's reference arithmetic exactly, because the activation
// quantizers must be bit-exact with it and kernels are tested against these.
#pragma once

#include "util/half.h"

#include <bit>
#include <cstdint>

namespace hearth::quant_detail {

// Round to nearest, ties to even, for |x| <= 2^22: adding 1.5 * 2^23 leaves
// the rounded integer in the low mantissa bits (ggml's nearest_int). The
// float addition itself does the rounding, whatever the FPU mode flags say
// about std::lrint.
inline int nearestInt(float x)
{
    const float shifted = x + 12582912.0f;
    const auto bits = std::bit_cast<int32_t>(shifted);
    return (bits & 0x007fffff) - 0x00400000;
}

// f16 as stored in blocks (the bit pattern) <-> f32.
inline float loadHalf(uint16_t h)
{
    return f16ToF32(h);
}

inline uint16_t storeHalf(float f)
{
    return f32ToF16(f);
}

} // namespace hearth::quant_detail
