#version 450
// dst = x / sqrt(mean(x²) + eps) · w (w optional), one workgroup per row.
// The sum of squares is taken in f32 by a tree in shared memory.
#include "common.glsl"
#include "rows.glsl"

#define WG 128
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 1) readonly buffer Weight { float w[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };

layout(push_constant) uniform Params {
    uint n, ne1;
    uint xOff, xNb1, xNb2;
    uint dOff, dNb1, dNb2;
    uint wOff, hasWeight;
    float eps;
} p;

shared float sums[WG];

void main()
{
    const uint r = workgroupIndex(), tid = gl_LocalInvocationID.x;
    const uint x0 = rowStart(r, p.ne1, p.xOff, p.xNb1, p.xNb2);
    const uint d0 = rowStart(r, p.ne1, p.dOff, p.dNb1, p.dNb2);
    float s = 0.0;
    for (uint i = tid; i < p.n; i += WG)
        s += af[x0 + i] * af[x0 + i];
    sums[tid] = s;
    barrier();
    [[unroll]] for (uint h = WG / 2u; h > 0u; h >>= 1) {
        if (tid < h)
            sums[tid] += sums[tid + h];
        barrier();
    }
    const float scale = 1.0 / sqrt(sums[0] / float(p.n) + p.eps);
    for (uint i = tid; i < p.n; i += WG)
        d[d0 + i] = af[x0 + i] * scale * (p.hasWeight != 0u ? w[p.wOff + i] : 1.0);
}
