#version 450
// Attention over the KV cache: one workgroup per (token, query head), the
// cells in tiles of WG, scores never stored (recomputed in the second
// pass instead). dst [dv · heads, n] =
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

float f16Round(float v)
{
    return unpackHalf2x16(packHalf2x16(vec2(v, 0.0))).x;
}

// The score of cell c for token t (-inf when masked): scale · cap(q·k).
float score(uint c, uint t, uint kHead)
{
    if (c >= p.nCells || !visible(c, t))
        return -1.0 / 0.0;
    const uint rb = kHead + c * p.kRow;
    float dotv = 0.0;
    for (uint i = 0; i < p.dk; ++i)
        dotv += qs[i] * loadK(rb, i);
    if (p.softCap > 0.0)
        dotv = tanh(dotv * (1.0 / p.softCap)) * p.softCap;
    return dotv * p.scale;
}

// The query rounded to the K type's partner, as the CPU backend does
// (f16; Q8_0 blocks with scale 127/max; f32 as it is).
void loadQuery(uint base)
{
    const uint tid = gl_LocalInvocationID.x;
#if defined(KV_Q8_0)
    for (uint b = tid; b < p.dk / 32u; b += WG) {
        float amax = 0.0;
        for (uint i = 0; i < 32u; ++i)
            amax = max(amax, abs(af[base + 32u * b + i]));
        const float dq = f16Round(amax / 127.0), id = amax != 0.0 ? 127.0 / amax : 0.0;
        for (uint i = 0; i < 32u; ++i)
            qs[32u * b + i] = dq * roundEven(af[base + 32u * b + i] * id);
    }
#else
    for (uint i = tid; i < p.dk; i += WG) {
#if defined(KV_F16)
        qs[i] = f16Round(af[base + i]);
#else
        qs[i] = af[base + i];
#endif
    }
#endif
    barrier();
}

// Two passes as the CPU's softmax: the maximum and the sum over every
// visible cell first, then each probability exp(s - max) / sum (rounded to
// f16 for an f16 V, as the CPU does) times V.
void main()
{
    const uint idx = workgroupIndex(), tid = gl_LocalInvocationID.x;
    const uint h = idx % p.heads, t = idx / p.heads;
    const uint hk = h / (p.heads / p.kvHeads);
    loadQuery(p.qOff + h * p.qNb1 + t * p.qNb2);
    const uint kHead = p.kOff + hk * (p.kRow / p.kvHeads), vHead = p.vOff + hk * (p.vRow / p.kvHeads);
    float m = -1.0 / 0.0, l = 0.0; // this thread's cells
    for (uint c = tid; c < p.nCells; c += WG) {
        const float s = score(c, t, kHead);
        if (s == -1.0 / 0.0)
            continue;
        const float nm = max(m, s);
        l = l * exp(m - nm) + exp(s - nm);
        m = nm;
    }
    const float gmax = reduce(m, true);
    const float gsum = reduce(m == -1.0 / 0.0 ? 0.0 : l * exp(m - gmax), false);
    float acc[MAX_DV_PER_THREAD];
    [[unroll]] for (uint j = 0; j < MAX_DV_PER_THREAD; ++j)
        acc[j] = 0.0;
    if (gsum > 0.0) {
        const float inv = 1.0 / gsum;
        for (uint c0 = 0; c0 < p.nCells; c0 += WG) {
            const float s = score(c0 + tid, t, kHead);
            float pr = s == -1.0 / 0.0 ? 0.0 : exp(s - gmax) * inv;
#if defined(KV_F16)
            pr = f16Round(pr);
#endif
            tile[tid] = pr;
            barrier();
            const uint cells = min(uint(WG), p.nCells - c0);
            [[unroll]] for (uint j = 0; j < MAX_DV_PER_THREAD; ++j) {
                const uint dd = tid + j * WG;
                if (dd < p.dv) {
                    float a = acc[j];
                    for (uint k = 0; k < cells; ++k)
                        if (tile[k] != 0.0)
                            a += tile[k] * loadV(vHead + (c0 + k) * p.vRow, dd);
                    acc[j] = a;
                }
            }
            barrier();
        }
    }
    [[unroll]] for (uint j = 0; j < MAX_DV_PER_THREAD; ++j) {
        const uint dd = tid + j * WG;
        if (dd < p.dv)
            d[p.dOff + t * p.dStride + h * p.dv + dd] = acc[j];
    }
}
