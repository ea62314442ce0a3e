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

// llama.cpp multiplies q·k and p·v with ggml_vec_dot_f16 for a single query
// token (4 accumulators of 16 lanes, 64 values per step) and with tinyBLAS
// for a batch (one accumulator of 16 lanes); the lane of value i is given
// here, and the kernels of AttentionKernels (kernels.h) sum in each order.
// Cells and head dimensions are padded by llama.cpp so that every value is
// in the vector part.
struct LaneMap {
    bool batch;
    int lanes() const { return batch ? 16 : 64; }
    int lane(int64_t i) const { return batch ? static_cast<int>(i % 16) : static_cast<int>(i % 64); }
};

struct Layout {
    size_t scores, query, acc, vrow, total;
};

Layout layoutFor(const Op& op)
{
    const AttentionParams& p = op.attn;
    const TypeKernels& k = typeKernels(op.src[1].type);
    Layout l{};
    l.scores = 0;
    l.query = alignUp(static_cast<size_t>(p.mask.nCells) * sizeof(float));
    l.acc = l.query + alignUp(rowBytes(k.vecDotType, p.headDimK));
    l.vrow = l.acc + alignUp(static_cast<size_t>(p.headDimV) * 64 * sizeof(float));
    l.total = l.vrow + alignUp(static_cast<size_t>(p.headDimV) * sizeof(float));
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
    const AttentionKernels& ak = attentionKernels();
    const FromFloatFn toPartner = typeKernels(kk.vecDotType).fromFloat;
    const bool kIsF16 = kc.type == GgmlType::F16;
    const bool vIsF16 = vc.type == GgmlType::F16;
    const int64_t nTok = q.ne[2];
    const int64_t nCells = p.mask.nCells;
    const int64_t group = p.nHead / p.nHeadKv;
    const size_t kHeadBytes = rowBytes(kc.type, p.headDimK);
    const size_t vHeadBytes = rowBytes(vc.type, p.headDimV);
    const float capInv = p.softCap > 0.0f ? 1.0f / p.softCap : 0.0f;
    // tinyBLAS needs whole 16-lane steps over the head for q·k.
    const LaneMap qkMap{nTok > 1 && p.headDimK % 16 == 0};
    const LaneMap pvMap{nTok > 1 && p.headDimV % 4 == 0};

    const Layout l = layoutFor(op);
    uint8_t* mine = ctx.work + l.total * static_cast<size_t>(ctx.ith);
    auto* scores = reinterpret_cast<float*>(mine + l.scores);
    void* query = mine + l.query;
    auto* acc = reinterpret_cast<float*>(mine + l.acc); // [64 lanes][dv]
    auto* vrow = reinterpret_cast<float*>(mine + l.vrow);
    constexpr float kMasked = -std::numeric_limits<float>::infinity();

    int64_t begin, end;
    splitRange(nTok * p.nHead, ctx.ith, ctx.nth, begin, end);
    for (int64_t r = begin; r < end; ++r) {
        const int64_t h = r % p.nHead, t = r / p.nHead;
        const int64_t hk = h / group;
        toPartner(q.f32Row(h, t), query, p.headDimK);

        // scores = q·k, capped, scaled; masked cells at -inf
        float max = kMasked;
        for (int64_t c = 0; c < nCells; ++c) {
            if (!visible(p, c, t)) {
                scores[c] = kMasked;
                continue;
            }
            const uint8_t* krow = kc.row(c) + kHeadBytes * static_cast<size_t>(hk);
            float s;
            if (kIsF16) {
                const auto* k16 = reinterpret_cast<const uint16_t*>(krow);
                const auto* q16 = static_cast<const uint16_t*>(query);
                s = qkMap.batch ? ak.dotF16x16(k16, q16, p.headDimK) : ak.dotF16x64(k16, q16, p.headDimK);
            } else {
                kk.vecDot(p.headDimK, &s, krow, query);
            }
            if (p.softCap > 0.0f)
                s = std::tanh(s * capInv) * p.softCap;
            s *= p.scale;
            scores[c] = s;
            max = std::max(max, s);
        }

        // softmax: ggml's vector exp, sums of 16 cells added in double
        const double sum = ak.softmaxExp(scores, nCells, max);
        const auto inv = static_cast<float>(1.0 / sum);

        // out = Σ p·v: one row of lanes per cell's lane, cells in order
        const int lanes = pvMap.lanes();
        std::fill(acc, acc + static_cast<size_t>(lanes) * static_cast<size_t>(p.headDimV), 0.0f);
        for (int64_t c = 0; c < nCells; ++c) {
            if (scores[c] == 0.0f)
                continue;
            float pc = scores[c] * inv;
            const uint8_t* vsrc = vc.row(c) + vHeadBytes * static_cast<size_t>(hk);
            float* row = acc + static_cast<size_t>(pvMap.lane(c)) * static_cast<size_t>(p.headDimV);
            if (vIsF16) {
                ak.axpyF16(row, reinterpret_cast<const uint16_t*>(vsrc), f16Round(pc), p.headDimV);
            } else {
                vk.toFloat(vsrc, vrow, p.headDimV);
                ak.axpyF32(row, vrow, pc, p.headDimV);
            }
        }
        ak.reduceLanes(acc, lanes, p.headDimV, op.dst.f32Row(t) + h * p.headDimV);
    }
}

} // namespace hearth::cpu
