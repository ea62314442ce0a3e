#version 450
// dst [M, n] = A [K, M] (weights of this variant's type) · B [K, n] for a
// few tokens (decode): one workgroup per weight row and group of up to
// MAX_TOKENS tokens. Each thread dequantizes every WG-th quad of the row
// once and multiplies it with all the group's tokens; the partial sums
// meet in shared memory. f32 accumulation throughout.
#include "common.glsl"
#include "dequant.glsl"

#define WG 64
#define MAX_TOKENS 8
layout(local_size_x = WG) in;

layout(std430, set = 0, binding = 1) readonly buffer SrcB { float b[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };
layout(std430, set = 0, binding = 2) readonly buffer Corr { float corr[]; };

layout(push_constant) uniform Params {
    uint K, M, n;       // elements per row, rows, tokens
    uint aOff, aRow;    // bytes: first row, row stride
    uint bOff, bStride; // floats
    uint dOff, dStride; // floats
    uint row0;          // first row of this dispatch (rows split for binding ranges)
    uint cOff, cStride; // q4_1 / q5_1: the activations' block corrections (act_round.comp)
} p;

shared float partial[MAX_TOKENS][WG];

void main()
{
    const uint row = workgroupIndex() / ((p.n + MAX_TOKENS - 1) / MAX_TOKENS);
    const uint t0 = (workgroupIndex() % ((p.n + MAX_TOKENS - 1) / MAX_TOKENS)) * MAX_TOKENS;
    const uint tid = gl_LocalInvocationID.x;
    if (row >= p.M)
        return;
    const uint nt = min(p.n - t0, uint(MAX_TOKENS));
    float acc[MAX_TOKENS];
    [[unroll]] for (uint j = 0; j < MAX_TOKENS; ++j)
        acc[j] = 0.0;
    const uint rowByte = p.aOff + row * p.aRow;
    for (uint k = tid * 4u; k < p.K; k += WG * 4u) {
        const vec4 w = rowQuad(rowByte, k);
        [[unroll]] for (uint j = 0; j < MAX_TOKENS; ++j) {
            if (j < nt) {
                const uint bi = p.bOff + (t0 + j) * p.bStride + k;
                acc[j] += dot(w, vec4(b[bi], b[bi + 1u], b[bi + 2u], b[bi + 3u]));
#if defined(HAS_BLOCK_MIN)
                if (k % QK == 0u)
                    acc[j] += blockMin(rowByte + (k / QK) * BLOCK_BYTES) * corr[p.cOff + (t0 + j) * p.cStride + k / QK];
#endif
            }
        }
    }
    [[unroll]] for (uint j = 0; j < MAX_TOKENS; ++j)
        if (j < nt)
            partial[j][tid] = acc[j];
    barrier();
    [[unroll]] for (uint s = WG / 2u; s > 0u; s >>= 1) {
        if (tid < s) {
            [[unroll]] for (uint j = 0; j < MAX_TOKENS; ++j)
                if (j < nt)
                    partial[j][tid] += partial[j][tid + s];
        }
        barrier();
    }
    if (tid < nt)
        d[p.dOff + (t0 + tid) * p.dStride + p.row0 + row] = partial[tid][0];
}
