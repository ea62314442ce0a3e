// a·b + c rounded once, as IEEE 754 and std::fma promise. The scalar
// reference kernels depend on it: they reproduce the SIMD kernels' fused
// multiply-adds bit for bit, and the CPU backend's baseline code (RoPE,
// GELU) runs on CPUs without an FMA instruction, where std::fma is a C
// library call. MinGW-w64's fmaf is not correctly rounded (its results
// differ from glibc's and the instruction's; found when the engine run
// under wine gave other greedy tokens at the scalar level), so there the
// single rounding is made here; elsewhere std::fma is used.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace hearth {

// a·b + c in double, then rounded to float once. The product of two floats
// is exact in double (48 significant bits); the sum is rounded to odd (when
// inexact, the last bit of the double is forced to 1 in the direction of the
// error, which two-sum gives exactly), and a double rounded to odd rounds to
// the nearest float as the exact value would: 53 bits >= 24 + 2.
inline float fusedMultiplyAddEmulated(float a, float b, float c)
{
    const double p = static_cast<double>(a) * static_cast<double>(b);
    const double z = static_cast<double>(c);
    double s = p + z;
    if (!std::isfinite(s))
        return static_cast<float>(s);
    const double bv = s - p; // two-sum: s + err == p + z exactly
    const double err = (p - (s - bv)) + (z - bv);
    uint64_t bits = 0;
    std::memcpy(&bits, &s, sizeof(bits));
    if (err != 0.0 && (bits & 1) == 0)
        s = std::nextafter(s, err > 0.0 ? INFINITY : -INFINITY);
    return static_cast<float>(s);
}

inline float fusedMultiplyAdd(float a, float b, float c)
{
#if defined(__MINGW32__)
    return fusedMultiplyAddEmulated(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}

} // namespace hearth
