// Attention over the KV cache, computed the way llama.cpp does it without
// flash attention (its default through llama-cpp-python): the query rounded
// to the K cache's type (f16, or q8_0 blocks), q·k per cell, soft cap, scale,
// the causal / sequence / sliding-window mask, softmax with a double sum,
// probabilities rounded to f16 before they weight an f16 V. StoreRows writes
// new K / V rows into the cache in its type.
#include "cpu/kernels.h"
#include "cpu/ops.h"
#include "util/half.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hearth::cpu {

namespace {

inline float f16Round(float x)
{
    return f16ToF32(f32ToF16(x));
}

bool visible(const AttentionParams& p, int64_t cell, int64_t token)
{
    const AttentionMask& m = p.mask;
    const int32_t cp = m.cellPos[cell];
    if (cp < 0 || ((m.cellSeqs[cell] >> m.tokenSeq[token]) & 1u) == 0)
        return false;
    const int32_t tp = m.tokenPos[token];
    if (cp > tp)
        return false;
    return p.window <= 0 || tp - cp < p.window;
}

struct Layout {
    size_t scores, query, acc, total;
};

Layout layoutFor(const Op& op)
{
    const AttentionParams& p = op.attn;
    const TypeKernels& k = typeKernels(op.src[1].type);
    Layout l{};
    l.scores = 0;
    l.query = alignUp(static_cast<size_t>(p.mask.nCells) * sizeof(float));
    l.acc = l.query + alignUp(rowBytes(k.vecDotType, p.headDimK));
    l.total = l.acc + alignUp(static_cast<size_t>(p.headDimV) * (sizeof(double) + sizeof(float)));
    return l;
}

} // namespace

size_t attentionWorkBytes(const Op& op, int nth)
{
    return layoutFor(op).total * static_cast<size_t>(nth);
}

void runStoreRows(const Op& op, const ExecContext& ctx)
{
    const Tensor& src = op.src[0];
    const FromFloatFn store = typeKernels(op.dst.type).fromFloat;
    int64_t begin, end;
    splitRange(src.ne[1], ctx.ith, ctx.nth, begin, end);
    for (int64_t i = begin; i < end; ++i)
        store(src.f32Row(i), op.dst.row(op.ids[i]), src.ne[0]);
}

void runAttention(const Op& op, const ExecContext& ctx)
{
    const AttentionParams& p = op.attn;
    const Tensor& q = op.src[0]; // [dk, heads, n]
    const Tensor& kc = op.src[1];
    const Tensor& vc = op.src[2];
    const TypeKernels& kk = typeKernels(kc.type);
    const TypeKernels& vk = typeKernels(vc.type);
    const FromFloatFn toPartner = typeKernels(kk.vecDotType).fromFloat;
    const bool vIsF16 = vc.type == GgmlType::F16;
    const int64_t nTok = q.ne[2];
    const int64_t group = p.nHead / p.nHeadKv;
    const size_t kHeadBytes = rowBytes(kc.type, p.headDimK);
    const size_t vHeadBytes = rowBytes(vc.type, p.headDimV);
    const float capInv = p.softCap > 0.0f ? 1.0f / p.softCap : 0.0f;

    const Layout l = layoutFor(op);
    uint8_t* mine = ctx.work + l.total * static_cast<size_t>(ctx.ith);
    auto* scores = reinterpret_cast<float*>(mine + l.scores);
    void* query = mine + l.query;
    auto* acc = reinterpret_cast<double*>(mine + l.acc);
    auto* vrow = reinterpret_cast<float*>(acc + p.headDimV);

    int64_t begin, end;
    splitRange(nTok * p.nHead, ctx.ith, ctx.nth, begin, end);
    for (int64_t r = begin; r < end; ++r) {
        const int64_t h = r % p.nHead, t = r / p.nHead;
        const int64_t hk = h / group;
        toPartner(q.f32Row(h, t), query, p.headDimK);

        // scores = q·k, capped and scaled, masked cells at -inf
        float max = -std::numeric_limits<float>::infinity();
        for (int64_t c = 0; c < p.mask.nCells; ++c) {
            if (!visible(p, c, t)) {
                scores[c] = -std::numeric_limits<float>::infinity();
                continue;
            }
            float s;
            kk.vecDot(p.headDimK, &s, kc.row(c) + kHeadBytes * static_cast<size_t>(hk), query);
            if (p.softCap > 0.0f)
                s = std::tanh(s * capInv) * p.softCap;
            s *= p.scale;
            scores[c] = s;
            max = std::max(max, s);
        }

        // softmax: exp in f32, sum in double, one f32 reciprocal
        double sum = 0.0;
        for (int64_t c = 0; c < p.mask.nCells; ++c) {
            if (scores[c] == -std::numeric_limits<float>::infinity()) {
                scores[c] = 0.0f;
                continue;
            }
            scores[c] = std::exp(scores[c] - max);
            sum += static_cast<double>(scores[c]);
        }
        const auto inv = static_cast<float>(1.0 / sum);

        // out = Σ p·v over the visible cells
        std::fill(acc, acc + p.headDimV, 0.0);
        for (int64_t c = 0; c < p.mask.nCells; ++c) {
            if (scores[c] == 0.0f)
                continue;
            float pc = scores[c] * inv;
            if (vIsF16)
                pc = f16Round(pc);
            vk.toFloat(vc.row(c) + vHeadBytes * static_cast<size_t>(hk), vrow, p.headDimV);
            for (int64_t d = 0; d < p.headDimV; ++d)
                acc[d] += static_cast<double>(pc * vrow[d]);
        }
        float* out = op.dst.f32Row(t) + h * p.headDimV;
        for (int64_t d = 0; d < p.headDimV; ++d)
            out[d] = static_cast<float>(acc[d]);
    }
}

} // namespace hearth::cpu
