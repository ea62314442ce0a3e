#version 450
// dst [M, n] = A [K, M] (weights of this variant's type) · B [K, n] for a
// batch (prompt): tiles of BM rows × BN tokens, the K dimension in steps of
// BK. Each step dequantizes one quad of the A tile per thread into shared
// memory (each weight block is decoded once per tile of tokens) and loads
// the B tile; each thread then accumulates TM × TN results in f32.
#include "common.glsl"
#include "dequant.glsl"

#define BM 64
#define BN 32
#define BK 16
#define TM 4
#define TN 2
#define WG 256
layout(local_size_x = WG) in;

layout(std430, set = 0, binding = 1) readonly buffer SrcB { float b[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };
layout(std430, set = 0, binding = 2) readonly buffer Corr { float corr[]; };

layout(push_constant) uniform Params {
    uint K, M, n;
    uint aOff, aRow;
    uint bOff, bStride;
    uint dOff, dStride;
    uint row0;
    uint cOff, cStride; // q4_1 / q5_1: the activations' block corrections (act_round.comp)
} p;

shared float tileA[BK][BM + 1];
shared float tileB[BK][BN + 1];
#if defined(HAS_BLOCK_MIN)
shared float tileMin[BM], tileCorr[BN];
#endif

void main()
{
    const uint tilesM = (p.M + BM - 1) / BM;
    const uint m0 = (workgroupIndex() % tilesM) * BM;
    const uint n0 = (workgroupIndex() / tilesM) * BN;
    const uint tid = gl_LocalInvocationID.x;
    const uint tm = tid % (BM / TM), tn = tid / (BM / TM); // this thread's TM rows, TN tokens
    float acc[TM][TN];
    [[unroll]] for (uint i = 0; i < TM; ++i)
        [[unroll]] for (uint j = 0; j < TN; ++j)
            acc[i][j] = 0.0;
    // A tile: BM rows × BK/4 quads = WG quads; B tile: BN × BK floats, 2 per thread.
    const uint ar = tid / (BK / 4), aq = tid % (BK / 4);
    for (uint k0 = 0; k0 < p.K; k0 += BK) {
        const uint k = k0 + aq * 4u;
        vec4 w = vec4(0.0);
        if (m0 + ar < p.M && k < p.K)
            w = rowQuad(p.aOff + (m0 + ar) * p.aRow, k);
        [[unroll]] for (uint i = 0; i < 4u; ++i)
            tileA[aq * 4u + i][ar] = w[i];
        [[unroll]] for (uint i = 0; i < (BN * BK) / WG; ++i) {
            const uint e = tid + i * WG;
            const uint bt = e / BK, bk = e % BK;
            tileB[bk][bt] = (n0 + bt < p.n && k0 + bk < p.K) ? b[p.bOff + (n0 + bt) * p.bStride + k0 + bk] : 0.0;
        }
#if defined(HAS_BLOCK_MIN)
        const bool blockStart = k0 % QK == 0u;
        if (blockStart) {
            if (tid < BM)
                tileMin[tid] = m0 + tid < p.M ? blockMin(p.aOff + (m0 + tid) * p.aRow + (k0 / QK) * BLOCK_BYTES) : 0.0;
            else if (tid < BM + BN)
                tileCorr[tid - BM] =
                    n0 + tid - BM < p.n ? corr[p.cOff + (n0 + tid - BM) * p.cStride + k0 / QK] : 0.0;
        }
#endif
        barrier();
#if defined(HAS_BLOCK_MIN)
        if (blockStart)
            [[unroll]] for (uint i = 0; i < TM; ++i)
                [[unroll]] for (uint j = 0; j < TN; ++j)
                    acc[i][j] += tileMin[tm * TM + i] * tileCorr[tn * TN + j];
#endif
        [[unroll]] for (uint kk = 0; kk < BK; ++kk) {
            float av[TM], bv[TN];
            [[unroll]] for (uint i = 0; i < TM; ++i)
                av[i] = tileA[kk][tm * TM + i];
            [[unroll]] for (uint j = 0; j < TN; ++j)
                bv[j] = tileB[kk][tn * TN + j];
            [[unroll]] for (uint i = 0; i < TM; ++i)
                [[unroll]] for (uint j = 0; j < TN; ++j)
                    acc[i][j] = fma(av[i], bv[j], acc[i][j]);
        }
        barrier();
    }
    [[unroll]] for (uint i = 0; i < TM; ++i) {
        [[unroll]] for (uint j = 0; j < TN; ++j) {
            const uint r = m0 + tm * TM + i, t = n0 + tn * TN + j;
            if (r < p.M && t < p.n)
                d[p.dOff + t * p.dStride + p.row0 + r] = acc[i][j];
        }
    }
}
