// Float evaluation order of llama.cpp's x86 kernels, in portable scalar
// code (internal to the CPU backend).
//
// Why: on real quantized models the activations are re-quantized to Q8 at
// every matrix multiplication, so a difference in the last bit of one sum
// can flip a quant, and such flips add up over the layers to logit
// differences of several tenths: enough to change greedy picks and to move
// a perplexity by a percent. Summing in the same order as llama.cpp (lanes
// of 8 or 16, fused multiply-adds, the same horizontal reductions, ggml's
// vectorized exp) makes the results equal bit for bit, which is what lets
// Hearth's outputs be checked token for token against llama.cpp's. The SIMD
// kernels of issue 7 keep the same lane layout, so they stay exact too.
#pragma once

#include "util/fma.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace hearth::cpu::order {

// hsum of 8 lanes as ggml's hsum_float_8 (AVX): (l4+l0 + l6+l2) + (l5+l1 + l7+l3).
inline float hsum8(const float* v)
{
    const float r0 = v[4] + v[0], r1 = v[5] + v[1], r2 = v[6] + v[2], r3 = v[7] + v[3];
    return (r0 + r2) + (r1 + r3);
}

// _mm512_reduce_add_ps as GCC implements it.
inline float reduce16(const float* v)
{
    float t3[8], t6[4];
    for (int i = 0; i < 8; ++i)
        t3[i] = v[8 + i] + v[i];
    for (int i = 0; i < 4; ++i)
        t6[i] = t3[4 + i] + t3[i];
    return (t6[0] + t6[2]) + (t6[1] + t6[3]);
}

// ggml_v_expf (AVX-512 version), one lane: exp via 2^n · polynomial.
inline float expf(float x)
{
    const float r = 0x1.8p23f;
    const float z = fusedMultiplyAdd(x, 0x1.715476p+0f, r);
    const float n = z - r;
    const float b = fusedMultiplyAdd(-n, 0x1.7f7d1cp-20f, fusedMultiplyAdd(-n, 0x1.62e4p-1f, x));
    const float u = b * b;
    const float j = fusedMultiplyAdd(fusedMultiplyAdd(fusedMultiplyAdd(0x1.0e4020p-7f, b, 0x1.573e2ep-5f), u,
                                                      fusedMultiplyAdd(0x1.555e66p-3f, b, 0x1.fffdb6p-2f)),
                                     u, fusedMultiplyAdd(0x1.ffffecp-1f, b, 1.0f));
    if (std::isnan(n))
        return n;
    if (std::fabs(n) > 192.0f)
        return n <= 0.0f ? 0.0f : INFINITY;
    return std::ldexp(j, static_cast<int>(n));
}

// ggml_v_silu: x / (1 + exp(-x)) with the vectorized exp.
inline float silu(float x)
{
    return x / (1.0f + expf(0.0f - x));
}

} // namespace hearth::cpu::order
