#version 450
// Writes column i of src [e, n] (f32) into row slots[i] of a KV cache
// tensor in its type: one workgroup per column, a block per thread.
#define KV_WRITE
#include "common.glsl"
#include "kv.glsl"

#define WG 64
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 4) readonly buffer Slots { int slots[]; };

layout(push_constant) uniform Params {
    uint e, n;
    uint xOff, xStride; // floats
    uint dOff, dRow;    // bytes
    uint slotOff;
} p;

void main()
{
    const uint col = workgroupIndex();
    if (col >= p.n)
        return;
    const uint rb = p.dOff + uint(slots[p.slotOff + col]) * p.dRow;
    for (uint blk = gl_LocalInvocationID.x; blk < p.e / KV_BLOCK; blk += WG) {
        float vals[KV_BLOCK];
        [[unroll]] for (uint i = 0; i < KV_BLOCK; ++i)
            vals[i] = af[p.xOff + col * p.xStride + blk * KV_BLOCK + i];
        storeBlock(rb, blk, vals);
    }
}
