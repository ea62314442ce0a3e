#version 450
// Attention over the KV cache, flash style: one workgroup per (token,
// query head), the visible cells in tiles of WG with a running maximum and
// sum (online softmax), so scores are never stored. dst [dv · heads, n] =
// softmax(scale · cap(q·kᵀ), masked) · V. The mask is computed here from
// the cells' positions and sequence sets (AttentionMask in core's op.h);
// GQA: query head h reads KV head h / (heads / kvHeads).
#define KV_READ
#include "common.glsl"
#include "kv.glsl"

#define WG 64
#define MAX_DV_PER_THREAD 4
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };
layout(std430, set = 0, binding = 4) readonly buffer CellPos { int cellPos[]; };
layout(std430, set = 0, binding = 5) readonly buffer CellSeqs { uint cellSeqs[]; }; // u64 as two words
layout(std430, set = 0, binding = 6) readonly buffer TokPos { int tokPos[]; };
layout(std430, set = 0, binding = 7) readonly buffer TokSeq { int tokSeq[]; };

layout(push_constant) uniform Params {
    uint nCells, dk, dv, heads, kvHeads;
    uint qOff, qNb1, qNb2;     // floats: head, token strides
    uint kOff, kRow, vOff, vRow; // bytes
    uint dOff, dStride;
    uint maskOff;              // index of the batch's first token in tokPos/tokSeq
    float scale, softCap;
    int window;
} p;

shared float qs[256];
shared float tile[WG];
shared float red[WG];

bool visible(uint c, uint t)
{
    const int cp = cellPos[c];
    if (cp < 0)
        return false;
    const uint s = uint(tokSeq[p.maskOff + t]);
    const uint bits = s < 32u ? cellSeqs[2u * c] : cellSeqs[2u * c + 1u];
    if (((bits >> (s % 32u)) & 1u) == 0u)
        return false;
    const int tp = tokPos[p.maskOff + t];
    return cp <= tp && (p.window <= 0 || tp - cp < p.window);
}

// Reduces red[] with op 0 (max) or 1 (sum); every thread gets the result.
float reduce(float v, bool isMax)
{
    const uint tid = gl_LocalInvocationID.x;
    red[tid] = v;
    barrier();
    [[unroll]] for (uint h = WG / 2u; h > 0u; h >>= 1) {
        if (tid < h)
            red[tid] = isMax ? max(red[tid], red[tid + h]) : red[tid] + red[tid + h];
        barrier();
    }
    const float r = red[0];
    barrier();
    return r;
}

void main()
{
    const uint idx = workgroupIndex(), tid = gl_LocalInvocationID.x;
    const uint h = idx % p.heads, t = idx / p.heads;
    const uint hk = h / (p.heads / p.kvHeads);
    for (uint i = tid; i < p.dk; i += WG)
        qs[i] = af[p.qOff + h * p.qNb1 + t * p.qNb2 + i];
    barrier();
    const uint kHead = p.kOff + hk * ((p.kRow / p.kvHeads)), vHead = p.vOff + hk * (p.vRow / p.kvHeads);
    float m = -1.0 / 0.0, l = 0.0;
    float acc[MAX_DV_PER_THREAD];
    [[unroll]] for (uint j = 0; j < MAX_DV_PER_THREAD; ++j)
        acc[j] = 0.0;
    for (uint c0 = 0; c0 < p.nCells; c0 += WG) {
        const uint c = c0 + tid;
        float s = -1.0 / 0.0;
        if (c < p.nCells && visible(c, t)) {
            const uint rb = kHead + c * p.kRow;
            float dotv = 0.0;
            for (uint i = 0; i < p.dk; ++i)
                dotv += qs[i] * loadK(rb, i);
            if (p.softCap > 0.0)
                dotv = tanh(dotv * (1.0 / p.softCap)) * p.softCap;
            s = dotv * p.scale;
        }
        const float tileMax = reduce(s, true);
        if (tileMax == -1.0 / 0.0)
            continue; // nothing visible in this tile (uniform: every thread saw the same maximum)
        const float newMax = max(m, tileMax);
        const float pr = s == -1.0 / 0.0 ? 0.0 : exp(s - newMax);
        tile[tid] = pr;
        const float tileSum = reduce(pr, false); // its barriers publish tile[]
        const float alpha = exp(m - newMax);
        l = l * alpha + tileSum;
        m = newMax;
        const uint cells = min(uint(WG), p.nCells - c0);
        [[unroll]] for (uint j = 0; j < MAX_DV_PER_THREAD; ++j) {
            const uint dd = tid + j * WG;
            if (dd < p.dv) {
                float a = acc[j] * alpha;
                for (uint k = 0; k < cells; ++k) {
                    const float w = tile[k];
                    if (w != 0.0)
                        a += w * loadV(vHead + (c0 + k) * p.vRow, dd);
                }
                acc[j] = a;
            }
        }
        barrier(); // tile[] is rewritten by the next step
    }
    [[unroll]] for (uint j = 0; j < MAX_DV_PER_THREAD; ++j) {
        const uint dd = tid + j * WG;
        if (dd < p.dv)
            d[p.dOff + t * p.dStride + h * p.dv + dd] = l > 0.0 ? acc[j] / l : 0.0;
    }
}
