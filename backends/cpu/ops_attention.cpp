// Attention over the KV cache, computed the way llama.cpp does it without
// flash attention (its default through llama-cpp-python): the query rounded
// to the K cache's type (f16, or q8_0 blocks), q·k per cell, soft cap, scale,
// the causal / sequence / sliding-window mask, softmax with a double sum,
// probabilities rounded to f16 before they weight an f16 V. StoreRows writes
// new K / V rows into the cache in its type.
//
// Work is organised for speed without touching any of those orders: the
// cells a token sees are listed once per token (not per head); the query
// heads sharing a KV head (GQA) are attended together, each K / V row loaded
// once for all of them; fully masked chunks of 16 cells are skipped (their
// exps are 0 and add +0.0 to the double sum); p·v walks the cells lane by
// lane, so each lane's accumulators stay in registers while every value
// still gets its cells in ascending order; and a batch's tokens are dealt
// to threads round robin, which splits a causal triangle evenly.
#include "cpu/kernels.h"
#include "cpu/ops.h"
#include "util/half.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace hearth::cpu {

namespace {

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

// Per-thread scratch: the visible cells of the current token in cell order
// and sorted by lane, and for the query heads of one KV head (a GQA group)
// their queries, scores by cell, softmax weights by list entry and lane
// accumulators.
// Query heads attended together (a GQA group, or a part of a larger one).
constexpr int kMaxGroup = 8;

struct Layout {
    size_t visible, byLane, scores, weights, half, query, acc, vrow, total;
};

Layout layoutFor(const Op& op)
{
    const AttentionParams& p = op.attn;
    const TypeKernels& k = typeKernels(op.src[1].type);
    const auto cells = static_cast<size_t>(p.mask.nCells);
    const auto group = static_cast<size_t>(std::min(p.nHead / p.nHeadKv, kMaxGroup));
    Layout l{};
    l.visible = 0;
    l.byLane = alignUp(cells * sizeof(int32_t));
    l.scores = l.byLane + alignUp(cells * sizeof(int32_t));
    l.weights = l.scores + alignUp(group * cells * sizeof(float));
    l.half = l.weights + alignUp(group * cells * sizeof(float));
    l.query = l.half + alignUp(cells * sizeof(uint16_t));
    l.acc = l.query + group * alignUp(rowBytes(k.vecDotType, p.headDimK));
    l.vrow = l.acc + group * alignUp(static_cast<size_t>(p.headDimV) * 64 * sizeof(float));
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

namespace {

// What one attention op computes with, fixed for all its tokens and heads.
struct Plan {
    const Op& op;
    const AttentionParams& p;
    const TypeKernels& kk;
    const TypeKernels& vk;
    const AttentionKernels& ak;
    FromFloatFn toPartner, toF16;
    ToFloatFn fromF16;
    bool kIsF16, vIsF16;
    LaneMap qkMap, pvMap;
    size_t kHeadBytes, vHeadBytes, queryBytes, accFloats;
    float capInv;
};

// One thread's scratch (Layout) as typed pointers.
struct Scratch {
    int32_t* visible; // [nCells] visible cells of the token, ascending
    int32_t* byLane;  // the same sorted by lane, ascending within a lane
    float* scores;    // [group][nCells] by cell
    float* weights;   // [group][nCells] by byLane entry
    uint16_t* half;   // [nCells] weights rounded to f16
    uint8_t* query;   // [group] queries in the K type's partner layout
    float* acc;       // [group][lanes][dv]
    float* vrow;      // [dv]
};

// The cells token t sees, and the softmax range [lo, hi): from the chunk of
// 16 cells holding the first visible cell to the one holding the last.
// Chunks outside it are fully masked: their exps are 0 and add +0.0 to the
// double sum, so leaving them out changes no bit.
struct Visible {
    int64_t count = 0, lo = 0, hi = 0;
};

Visible findVisible(const AttentionParams& p, int64_t t, int lanes, const Scratch& s)
{
    Visible v;
    const int64_t nCells = p.mask.nCells;
    for (int64_t c = 0; c < nCells; ++c)
        if (visible(p, c, t))
            s.visible[v.count++] = static_cast<int32_t>(c);
    if (v.count == 0)
        return v;
    v.lo = s.visible[0] & ~int64_t{15};
    v.hi = std::min(nCells, (s.visible[v.count - 1] & ~int64_t{15}) + 16);
    int64_t start[65] = {};
    for (int64_t j = 0; j < v.count; ++j)
        ++start[s.visible[j] % lanes + 1];
    for (int l = 0; l < lanes; ++l)
        start[l + 1] += start[l];
    for (int64_t j = 0; j < v.count; ++j)
        s.byLane[start[s.visible[j] % lanes]++] = s.visible[j];
    return v;
}

// The largest score of each head of a group. Taken in any order it is the
// same value: std::max never adopts a NaN, and where +0 and -0 tie the
// choice changes no exp(s - max) (s - ±0 is s for s != 0, and exp(±0) is 1).
struct Maxima {
    float max[kMaxGroup];
};

// scores = q·k for the gn query heads from h0 (all of KV head hk), capped
// and scaled, at each visible cell; -inf at the masked cells of [lo, hi).
// Cells in ascending order, for the prefetcher. Folds each head's largest score into m.
void computeScores(const Plan& pl, const Scratch& s, const Visible& vis, int64_t hk, int gn, Maxima& m)
{
    const AttentionParams& p = pl.p;
    const auto nCells = static_cast<size_t>(p.mask.nCells);
    const Tensor& kc = pl.op.src[1];
    for (int g = 0; g < gn; ++g)
        std::fill(s.scores + g * nCells + vis.lo, s.scores + g * nCells + vis.hi,
                  -std::numeric_limits<float>::infinity());
    const uint8_t* kBase = kc.data + pl.kHeadBytes * static_cast<size_t>(hk);
    if (pl.kIsF16 && pl.qkMap.batch) {
        pl.ak.scoresF16x16(s.scores, nCells, reinterpret_cast<const uint16_t*>(kBase), kc.nb[1] / 2, s.visible,
                           vis.count, reinterpret_cast<const uint16_t*>(s.query), pl.queryBytes / 2, gn, p.headDimK);
    } else {
        for (int64_t j = 0; j < vis.count; ++j) {
            const auto c = static_cast<size_t>(s.visible[j]);
            const uint8_t* krow = kBase + c * kc.nb[1];
            for (int g = 0; g < gn; ++g) {
                const uint8_t* qg = s.query + static_cast<size_t>(g) * pl.queryBytes;
                float& out = s.scores[static_cast<size_t>(g) * nCells + c];
                if (pl.kIsF16)
                    out = pl.ak.dotF16x64(reinterpret_cast<const uint16_t*>(krow),
                                          reinterpret_cast<const uint16_t*>(qg), p.headDimK);
                else
                    pl.kk.vecDot(p.headDimK, &out, krow, qg);
            }
        }
    }
    for (int g = 0; g < gn; ++g) {
        float* sg = s.scores + static_cast<size_t>(g) * nCells;
        float max[4] = {m.max[g], m.max[g], m.max[g], m.max[g]};
        for (int64_t j = 0; j < vis.count; ++j) {
            float x = sg[s.visible[j]];
            if (p.softCap > 0.0f)
                x = std::tanh(x * pl.capInv) * p.softCap;
            x *= p.scale;
            sg[s.visible[j]] = x;
            max[j & 3] = std::max(max[j & 3], x);
        }
        m.max[g] = std::max(std::max(max[0], max[1]), std::max(max[2], max[3]));
    }
}

// Softmax weights of head g by byLane entry: score / sum, rounded to f16
// for an f16 V; -0.0 (pvF16's skip mark) where the score is 0.
void computeWeights(const Plan& pl, const Scratch& s, const Visible& vis, int g, float max)
{
    const auto nCells = static_cast<size_t>(pl.p.mask.nCells);
    const float* sg = s.scores + static_cast<size_t>(g) * nCells;
    float* wg = s.weights + static_cast<size_t>(g) * nCells;
    // softmax: ggml's vector exp, sums of 16 cells added in double
    const double sum = vis.hi > vis.lo ? pl.ak.softmaxExp(s.scores + g * nCells + vis.lo, vis.hi - vis.lo, max) : 0.0;
    const auto inv = static_cast<float>(1.0 / sum);
    for (int64_t j = 0; j < vis.count; ++j) {
        const float x = sg[s.byLane[j]];
        wg[j] = x == 0.0f ? -0.0f : x * inv; // -0.0 stays -0.0 through f16
    }
    if (pl.vIsF16) {
        pl.toF16(wg, s.half, vis.count);
        pl.fromF16(s.half, wg, vis.count);
    }
}

// out = Σ p·v for the gn heads from h0, one row of lanes per cell's lane,
// cells in order within a lane.
void accumulate(const Plan& pl, const Scratch& s, const Visible& vis, int64_t hk, int gn)
{
    const AttentionParams& p = pl.p;
    const auto nCells = static_cast<size_t>(p.mask.nCells);
    const Tensor& vc = pl.op.src[2];
    const int lanes = pl.pvMap.lanes();
    const uint8_t* vBase = vc.data + pl.vHeadBytes * static_cast<size_t>(hk);
    std::fill(s.acc, s.acc + static_cast<size_t>(gn) * pl.accFloats, 0.0f);
    if (pl.vIsF16) {
        pl.ak.pvF16(s.acc, pl.accFloats, lanes, reinterpret_cast<const uint16_t*>(vBase), vc.nb[1] / 2, s.byLane,
                    vis.count, s.weights, nCells, gn, p.headDimV);
        return;
    }
    for (int64_t j = 0; j < vis.count; ++j) {
        const int32_t c = s.byLane[j];
        pl.vk.toFloat(vBase + static_cast<size_t>(c) * vc.nb[1], s.vrow, p.headDimV);
        for (int g = 0; g < gn; ++g) {
            const float w = s.weights[static_cast<size_t>(g) * nCells + static_cast<size_t>(j)];
            if (!(w == 0.0f && std::signbit(w)))
                pl.ak.axpyF32(s.acc + static_cast<size_t>(g) * pl.accFloats +
                                  static_cast<size_t>(pl.pvMap.lane(c)) * static_cast<size_t>(p.headDimV),
                              s.vrow, w, p.headDimV);
        }
    }
}

// Attention of token t for the gn query heads from h0, which share KV head
// h0 / group.
void attend(const Plan& pl, const Scratch& s, const Visible& vis, int64_t t, int64_t h0, int gn)
{
    const AttentionParams& p = pl.p;
    const int64_t hk = h0 / (p.nHead / p.nHeadKv);
    for (int g = 0; g < gn; ++g)
        pl.toPartner(pl.op.src[0].f32Row(h0 + g, t), s.query + static_cast<size_t>(g) * pl.queryBytes, p.headDimK);
    Maxima m;
    std::fill(m.max, m.max + gn, -std::numeric_limits<float>::infinity());
    computeScores(pl, s, vis, hk, gn, m);
    for (int g = 0; g < gn; ++g)
        computeWeights(pl, s, vis, g, m.max[g]);
    accumulate(pl, s, vis, hk, gn);
    for (int g = 0; g < gn; ++g)
        pl.ak.reduceLanes(s.acc + static_cast<size_t>(g) * pl.accFloats, pl.pvMap.lanes(), p.headDimV,
                          pl.op.dst.f32Row(t) + (h0 + g) * p.headDimV);
}

} // namespace

void runAttention(const Op& op, const ExecContext& ctx)
{
    const AttentionParams& p = op.attn;
    const Tensor& q = op.src[0]; // [dk, heads, n]
    const TypeKernels& kk = typeKernels(op.src[1].type);
    const TypeKernels& f16 = typeKernels(GgmlType::F16);
    const int64_t nTok = q.ne[2];
    const int group = p.nHead / p.nHeadKv;
    // tinyBLAS needs whole 16-lane steps over the head for q·k.
    const LaneMap qkMap{nTok > 1 && p.headDimK % 16 == 0};
    const LaneMap pvMap{nTok > 1 && p.headDimV % 4 == 0};
    const Plan pl{op,
                  p,
                  kk,
                  typeKernels(op.src[2].type),
                  attentionKernels(),
                  typeKernels(kk.vecDotType).fromFloat,
                  f16.fromFloat,
                  f16.toFloat,
                  op.src[1].type == GgmlType::F16,
                  op.src[2].type == GgmlType::F16,
                  qkMap,
                  pvMap,
                  rowBytes(op.src[1].type, p.headDimK),
                  rowBytes(op.src[2].type, p.headDimV),
                  alignUp(rowBytes(kk.vecDotType, p.headDimK)),
                  static_cast<size_t>(pvMap.lanes()) * static_cast<size_t>(p.headDimV),
                  p.softCap > 0.0f ? 1.0f / p.softCap : 0.0f};

    const Layout l = layoutFor(op);
    uint8_t* mine = ctx.work + l.total * static_cast<size_t>(ctx.ith);
    const Scratch s{reinterpret_cast<int32_t*>(mine + l.visible), reinterpret_cast<int32_t*>(mine + l.byLane),
                    reinterpret_cast<float*>(mine + l.scores),    reinterpret_cast<float*>(mine + l.weights),
                    reinterpret_cast<uint16_t*>(mine + l.half),   mine + l.query,
                    reinterpret_cast<float*>(mine + l.acc),       reinterpret_cast<float*>(mine + l.vrow)};

    if (nTok >= ctx.nth) {
        // Whole GQA groups, tokens dealt round robin: a causal triangle's
        // rows of every length are spread evenly over the threads.
        for (int64_t t = ctx.ith; t < nTok; t += ctx.nth) {
            const Visible vis = findVisible(p, t, pvMap.lanes(), s);
            for (int64_t h0 = 0; h0 < p.nHead; h0 += group)
                for (int g0 = 0; g0 < group; g0 += kMaxGroup)
                    attend(pl, s, vis, t, h0 + g0, std::min(kMaxGroup, group - g0));
        }
        return;
    }
    // Fewer tokens than threads (a single query): split the heads, and
    // attend each thread's heads of one KV head together, so that each K / V
    // row is read once for all of them (per head the same bits: its scores,
    // softmax and p·v do not depend on the others).
    int64_t begin, end, cachedT = -1;
    Visible vis;
    splitRange(nTok * p.nHead, ctx.ith, ctx.nth, begin, end);
    for (int64_t r = begin; r < end;) {
        const int64_t t = r / p.nHead, h = r % p.nHead;
        if (t != cachedT)
            vis = findVisible(p, t, pvMap.lanes(), s);
        cachedT = t;
        const int64_t groupEnd = (h / group + 1) * group; // the next KV head's first query head
        const int gn = static_cast<int>(std::min({end - r, groupEnd - h, static_cast<int64_t>(kMaxGroup)}));
        attend(pl, s, vis, t, h, gn);
        r += gn;
    }
}

} // namespace hearth::cpu
