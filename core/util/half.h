// IEEE half (f16) and bfloat16 conversions, bit-exact with ggml's scalar
// reference: f16 rounds to nearest even, bf16 rounds to nearest even and
// keeps NaNs quiet.
#pragma once

#include <bit>
#include <cstdint>

namespace hearth {

inline float f16ToF32(uint16_t h)
{
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1fu;
    const uint32_t mant = h & 0x3ffu;
    uint32_t bits;
    if (exp == 0) {
        if (mant == 0) {
            bits = sign;
        } else { // subnormal: value = mant * 2^-24
            const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
            bits = sign | std::bit_cast<uint32_t>(v);
        }
    } else if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13);
    } else {
        bits = sign | ((exp + 112u) << 23) | (mant << 13);
    }
    return std::bit_cast<float>(bits);
}

inline uint16_t f32ToF16(float f)
{
    const uint32_t x = std::bit_cast<uint32_t>(f);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const uint32_t absx = x & 0x7fffffffu;
    if (absx > 0x7f800000u) // NaN: keep it a quiet NaN
        return static_cast<uint16_t>(sign | 0x7e00u);
    if (absx >= 0x477ff000u) // rounds to >= 65520: infinity
        return static_cast<uint16_t>(sign | 0x7c00u);
    if (absx < 0x38800000u) { // below the smallest normal half: subnormal or zero
        // Adding 0.5 makes the FPU round the mantissa to nearest even for us.
        const float v = std::bit_cast<float>(absx) + 0.5f;
        return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(v) - 0x3f000000u));
    }
    const uint32_t mantOdd = (absx >> 13) & 1u;
    uint32_t r = absx + 0xc8000fffu + mantOdd; // rebias exponent (-112 << 23) and round
    return static_cast<uint16_t>(sign | (r >> 13));
}

inline float bf16ToF32(uint16_t h)
{
    return std::bit_cast<float>(static_cast<uint32_t>(h) << 16);
}

inline uint16_t f32ToBf16(float f)
{
    uint32_t x = std::bit_cast<uint32_t>(f);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return static_cast<uint16_t>((x >> 16) | 64u); // quiet NaN
    return static_cast<uint16_t>((x + (0x7fffu + ((x >> 16) & 1u))) >> 16);
}

} // namespace hearth
