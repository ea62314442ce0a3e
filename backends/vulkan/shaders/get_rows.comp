#version 450
// dst [ne0, n] f32 = rows ids[0..n) of A [ne0, rows] (this variant's type),
// dequantized: one workgroup per output row, a quad per thread.
#include "common.glsl"
#include "dequant.glsl"

#define WG 64
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };
layout(std430, set = 0, binding = 4) readonly buffer Ids { int ids[]; };

layout(push_constant) uniform Params {
    uint n0, rows;
    uint aOff, aRow; // bytes
    uint dOff, dStride;
    uint idOff;
} p;

void main()
{
    const uint r = workgroupIndex();
    if (r >= p.rows)
        return;
    const uint src = p.aOff + uint(ids[p.idOff + r]) * p.aRow;
    for (uint k = gl_LocalInvocationID.x * 4u; k < p.n0; k += WG * 4u) {
        const vec4 v = rowQuad(src, k);
        const uint o = p.dOff + r * p.dStride + k;
        d[o] = v.x;
        d[o + 1u] = v.y;
        d[o + 2u] = v.z;
        d[o + 3u] = v.w;
    }
}
