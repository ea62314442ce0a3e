#version 450
// Re-rotates cached K rows in place by each cell's position delta (0:
// untouched), after a context shift: one workgroup per cell, the row
// dequantized into shared memory, rotated head by head, stored back in the
// cache's type.
#define KV_WRITE
#include "common.glsl"
#include "rope.glsl"

#if defined(KV_F16)
#define LOAD_ROW(rb, i) unpackHalf2x16(uint(d16[((rb) >> 1) + (i)])).x
#elif defined(KV_F32)
#define LOAD_ROW(rb, i) df[((rb) >> 2) + (i)]
#endif
#include "kv.glsl"
#if defined(KV_Q8_0)
#define LOAD_ROW(rb, i)                                                                                               \
    (unpackHalf2x16(uint(d16[((rb) + ((i) / 32u) * 34u) >> 1])).x *                                                  \
     float(bitfieldExtract(int(uint(d16[((rb) + ((i) / 32u) * 34u + 2u + (i) % 32u) >> 1])),                          \
                           int((((rb) + ((i) / 32u) * 34u + 2u + (i) % 32u) & 1u) * 8u), 8)))
#endif

#define WG 64
#define MAX_ROW 4096
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 4) readonly buffer Delta { int delta[]; };
layout(std430, set = 0, binding = 5) readonly buffer Factors { float factors[]; };

layout(push_constant) uniform Params {
    uint rowLen, headDim, cells;
    uint kOff, kRow; // bytes
    uint deltaOff, factorsOff, hasFactors;
    uint nRot, mode;
    float freqBase, freqScale, extFactor, attnFactor, corr0, corr1;
} p;

shared float row[MAX_ROW];

void main()
{
    const uint c = workgroupIndex(), tid = gl_LocalInvocationID.x;
    if (c >= p.cells || delta[p.deltaOff + c] == 0)
        return;
    const uint rb = p.kOff + c * p.kRow;
    for (uint i = tid; i < p.rowLen; i += WG)
        row[i] = LOAD_ROW(rb, i);
    barrier();
    RopeArgs r = RopeArgs(p.nRot, p.mode, p.freqBase, p.freqScale, p.extFactor, p.attnFactor, vec2(p.corr0, p.corr1));
    const uint half_ = p.nRot / 2u;
    for (uint g = tid; g < (p.rowLen / p.headDim) * half_; g += WG) {
        const uint h0 = (g / half_) * p.headDim, i = g % half_, i0 = 2u * i;
        const float factor = p.hasFactors != 0u ? factors[p.factorsOff + i] : 1.0;
        const vec2 cs = ropeAngle(r, float(delta[p.deltaOff + c]), i0, factor);
        const uint a = h0 + (p.mode == 0u ? i0 : i), b = h0 + (p.mode == 0u ? i0 + 1u : i + half_);
        const float xa = row[a], xb = row[b];
        row[a] = xa * cs.x - xb * cs.y;
        row[b] = xa * cs.y + xb * cs.x;
    }
    barrier();
    for (uint blk = tid; blk < p.rowLen / KV_BLOCK; blk += WG) {
        float vals[KV_BLOCK];
        [[unroll]] for (uint i = 0; i < KV_BLOCK; ++i)
            vals[i] = row[blk * KV_BLOCK + i];
        storeBlock(rb, blk, vals);
    }
}
