#version 450
// Rounds matmul activations to the grid of the weight type's dot partner,
// as the CPU backend quantizes them (backends/cpu: Q8_0 blocks of 32 with
// an f16 scale 127/max and ties to even, Q8_K blocks of 256 with scale
// -127/max, f16, bf16), and writes the dequantized values: the GPU then
// multiplies the same numbers the CPU does, and its logits follow the CPU's
// to float rounding instead of to quantization noise.
//   MODE 0 q8_0, 1 q8_K, 2 f16, 3 bf16, 4 q8_1: q8_0's values, and per
//   block the CPU's f16-rounded sum s = f16(d · Σq) less D · Σq (D the
//   f16 scale) into `corr`, which the q4_1 / q5_1 kernels add times the
//   block's min: their Σ (d·q + m)·a is then the CPU's Σ d·D·Σqq + m·s.
// One thread per block (per element for f16 / bf16).
#include "common.glsl"

#define WG 64
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };
layout(std430, set = 0, binding = 5) writeonly buffer Corr { float corr[]; };

layout(push_constant) uniform Params {
    uint K, n, mode;
    uint xOff, xStride, dOff, cOff;
} p;

void main()
{
    const uint block = p.mode == 0u || p.mode == 4u ? 32u : p.mode == 1u ? 256u : 1u;
    const uint g = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * WG;
    const uint perRow = p.K / block;
    if (g >= perRow * p.n)
        return;
    const uint t = g / perRow, b0 = (g % perRow) * block;
    const uint x0 = p.xOff + t * p.xStride + b0, d0 = p.dOff + t * p.K + b0;
    if (p.mode == 2u) {
        d[d0] = unpackHalf2x16(packHalf2x16(vec2(af[x0], 0.0))).x;
        return;
    }
    if (p.mode == 3u) {
        const uint u = floatBitsToUint(af[x0]);
        const uint r = (u & 0x7fffffffu) > 0x7f800000u ? (u | 0x400000u) : u + 0x7fffu + ((u >> 16) & 1u);
        d[d0] = uintBitsToFloat(r & 0xffff0000u);
        return;
    }
    float amax = 0.0, mx = 0.0;
    for (uint i = 0; i < block; ++i) {
        const float v = af[x0 + i];
        if (abs(v) > amax) {
            amax = abs(v);
            mx = v;
        }
    }
    if (p.mode == 0u || p.mode == 4u) {
        const float scale = unpackHalf2x16(packHalf2x16(vec2(amax / 127.0, 0.0))).x;
        const float id = amax != 0.0 ? 127.0 / amax : 0.0;
        float sum = 0.0;
        for (uint i = 0; i < block; ++i) {
            const float q = roundEven(af[x0 + i] * id);
            sum += q;
            d[d0 + i] = scale * q;
        }
        if (p.mode == 4u)
            corr[p.cOff + g] = unpackHalf2x16(packHalf2x16(vec2(amax / 127.0 * sum, 0.0))).x - scale * sum;
        return;
    }
    if (amax == 0.0) {
        for (uint i = 0; i < block; ++i)
            d[d0 + i] = 0.0;
        return;
    }
    const float iscale = -127.0 / mx;
    const float scale = 1.0 / iscale;
    for (uint i = 0; i < block; ++i)
        d[d0 + i] = scale * min(roundEven(iscale * af[x0 + i]), 127.0);
}
