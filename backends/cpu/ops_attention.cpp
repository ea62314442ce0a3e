// Attention over the KV cache, computed the way llama.cpp does it without
// flash attention (its default through llama-cpp-python): the query rounded
// to the K cache's type (f16, or q8_0 blocks), q·k per cell, soft cap, scale,
// the causal / sequence / sliding-window mask, softmax with a double sum,
// probabilities rounded to f16 before they weight an f16 V. StoreRows writes
// new K / V rows into the cache in its type.
//
// Work is organised for speed without touching any of those orders: the
// cells are listed once for a block of consecutive prompt tokens (not per
// head or token), and the block's tokens with the query heads sharing a KV
// head (GQA) are attended together, each K / V row loaded once for all of
// them (a cell some token of the block does not see is masked, and skipped
// in p·v, for that token only); fully masked chunks of 16 cells are skipped
// (their exps are 0 and add +0.0 to the double sum); p·v walks the cells
// lane by lane, so each lane's accumulators stay in registers while every
// value still gets its cells in ascending order; and blocks are dealt to
// threads round robin, which splits a causal triangle evenly.
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

// Query heads attended together (a GQA group, or a part of a larger one),
// consecutive prompt tokens attended together (a block: each K / V row is
// read once for all of them; a bit each in a cell's mask byte), and the
// query rows of one call (heads × tokens).
constexpr int kMaxGroup = 8;
constexpr int kMaxBlock = 8;
constexpr int kMaxQueries = 16;

// Tokens per block: one for a single query (its heads are split over the
// threads), otherwise as many as keep a call's query rows within
// kMaxQueries while every thread still gets blocks.
int blockTokens(const Op& op, int nth)
{
    const AttentionParams& p = op.attn;
    const int64_t nTok = op.src[0].ne[2];
    if (nTok < nth)
        return 1;
    const int group = std::min(p.nHead / p.nHeadKv, kMaxGroup);
    const int most = std::clamp(kMaxQueries / group, 1, kMaxBlock);
    return static_cast<int>(std::clamp<int64_t>(nTok / nth, 1, most));
}

// Per-thread scratch: the cells a block's tokens see (the union of their
// visible cells) in cell order and sorted by lane, which of the tokens see
// each cell, and for the query rows of one call (a block's tokens × the
// query heads of one KV head) their queries, scores by cell, softmax
// weights by list entry and lane accumulators.
struct Layout {
    size_t visible, byLane, cellMask, unseen, scores, weights, half, query, acc, vrow, total;
};

Layout layoutFor(const Op& op, int nth)
{
    const AttentionParams& p = op.attn;
    const TypeKernels& k = typeKernels(op.src[1].type);
    const auto cells = static_cast<size_t>(p.mask.nCells);
    const auto tokens = static_cast<size_t>(blockTokens(op, nth));
    const auto rows = static_cast<size_t>(std::min(p.nHead / p.nHeadKv, kMaxGroup)) * tokens;
    Layout l{};
    l.visible = 0;
    l.byLane = alignUp(cells * sizeof(int32_t));
    l.cellMask = l.byLane + alignUp(cells * sizeof(int32_t));
    l.unseen = l.cellMask + alignUp(cells);
    l.scores = l.unseen + alignUp(tokens * cells * sizeof(int32_t));
    l.weights = l.scores + alignUp(rows * cells * sizeof(float));
    l.half = l.weights + alignUp(rows * cells * sizeof(float));
    l.query = l.half + alignUp(cells * sizeof(uint16_t));
    l.acc = l.query + rows * alignUp(rowBytes(k.vecDotType, p.headDimK));
    l.vrow = l.acc + rows * alignUp(static_cast<size_t>(p.headDimV) * 64 * sizeof(float));
    l.total = l.vrow + alignUp(static_cast<size_t>(p.headDimV) * sizeof(float));
    return l;
}

} // namespace

size_t attentionWorkBytes(const Op& op, int nth)
{
    return layoutFor(op, nth).total * static_cast<size_t>(nth);
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
    int32_t* visible;  // [nCells] cells some token of the block sees, ascending
    int32_t* byLane;   // the same sorted by lane, ascending within a lane
    uint8_t* cellMask; // [nCells] bit τ: token τ of the block sees the cell
    int32_t* unseen;   // [tokens][nCells] the listed cells token τ does not see
    float* scores;     // [rows][nCells] by cell
    float* weights;    // [rows][nCells] by byLane entry
    uint16_t* half;    // [nCells] weights rounded to f16
    uint8_t* query;    // [rows] queries in the K type's partner layout
    float* acc;        // [rows][lanes][dv]
    float* vrow;       // [dv]
};

// What one token of a block sees: how many cells, and its softmax range
// [lo, hi), from the chunk of 16 cells holding its first visible cell to the
// one holding its last. Chunks outside it are fully masked: their exps are 0
// and add +0.0 to the double sum, so leaving them out changes no bit.
struct Visible {
    int64_t count = 0, lo = 0, hi = 0;
};

// Tokens [t0, t0 + n) attended together, and the cells listed for them.
struct Block {
    int64_t t0 = 0;
    int n = 1;
    int64_t count = 0; // cells in the list (s.visible, s.byLane)
    Visible tok[kMaxBlock];
    int64_t unseen[kMaxBlock] = {}; // entries of each token's s.unseen row
    bool sees(const Scratch& s, int tau, int32_t cell) const { return n == 1 || ((s.cellMask[cell] >> tau) & 1) != 0; }
};

Block findBlock(const AttentionParams& p, int64_t t0, int n, int lanes, const Scratch& s)
{
    Block b;
    b.t0 = t0;
    b.n = n;
    const int64_t nCells = p.mask.nCells;
    int64_t first[kMaxBlock], last[kMaxBlock];
    const unsigned all = (1u << n) - 1;
    for (int64_t c = 0; c < nCells; ++c) {
        unsigned m = 0;
        for (int tau = 0; tau < n; ++tau)
            if (visible(p, c, t0 + tau)) {
                m |= 1u << tau;
                if (b.tok[tau].count++ == 0)
                    first[tau] = c;
                last[tau] = c;
            }
        s.cellMask[c] = static_cast<uint8_t>(m);
        if (m == 0)
            continue;
        s.visible[b.count++] = static_cast<int32_t>(c);
        if (m != all)
            for (int tau = 0; tau < n; ++tau)
                if (((m >> tau) & 1u) == 0)
                    s.unseen[tau * nCells + b.unseen[tau]++] = static_cast<int32_t>(c);
    }
    for (int tau = 0; tau < n; ++tau) {
        Visible& v = b.tok[tau];
        if (v.count == 0)
            continue;
        v.lo = first[tau] & ~int64_t{15};
        v.hi = std::min(nCells, (last[tau] & ~int64_t{15}) + 16);
    }
    int64_t start[65] = {};
    for (int64_t j = 0; j < b.count; ++j)
        ++start[s.visible[j] % lanes + 1];
    for (int l = 0; l < lanes; ++l)
        start[l + 1] += start[l];
    for (int64_t j = 0; j < b.count; ++j)
        s.byLane[start[s.visible[j] % lanes]++] = s.visible[j];
    return b;
}

// The largest score of each query row. Taken in any order it is the
// same value: std::max never adopts a NaN, and where +0 and -0 tie the
// choice changes no exp(s - max) (s - ±0 is s for s != 0, and exp(±0) is 1).
struct Maxima {
    float max[kMaxQueries];
};

// scores = q·k for the query rows (row τ·gn + g: token τ of the block, the
// g-th of the gn query heads sharing KV head hk), capped and scaled, at each
// cell its token sees; -inf at the masked cells of its [lo, hi). Cells in
// ascending order, for the prefetcher. Each row's largest score goes to m.
void computeScores(const Plan& pl, const Scratch& s, const Block& b, int64_t hk, int gn, Maxima& m)
{
    const AttentionParams& p = pl.p;
    const auto nCells = static_cast<size_t>(p.mask.nCells);
    const Tensor& kc = pl.op.src[1];
    const int rows = b.n * gn;
    constexpr float kMasked = -std::numeric_limits<float>::infinity();
    for (int r = 0; r < rows; ++r)
        std::fill(s.scores + r * nCells + b.tok[r / gn].lo, s.scores + r * nCells + b.tok[r / gn].hi, kMasked);
    const uint8_t* kBase = kc.data + pl.kHeadBytes * static_cast<size_t>(hk);
    if (pl.kIsF16) {
        const auto scores = pl.qkMap.batch ? pl.ak.scoresF16x16 : pl.ak.scoresF16x64;
        scores(s.scores, nCells, reinterpret_cast<const uint16_t*>(kBase), kc.nb[1] / 2, s.visible, b.count,
               reinterpret_cast<const uint16_t*>(s.query), pl.queryBytes / 2, rows, p.headDimK);
    } else {
        for (int64_t j = 0; j < b.count; ++j) {
            const auto c = static_cast<size_t>(s.visible[j]);
            const uint8_t* krow = kBase + c * kc.nb[1];
            for (int r = 0; r < rows; ++r)
                pl.kk.vecDot(p.headDimK, &s.scores[static_cast<size_t>(r) * nCells + c], krow,
                             s.query + static_cast<size_t>(r) * pl.queryBytes);
        }
    }
    // A listed cell a row's token does not see: -inf in its softmax range
    // (exp gives 0), 0 outside it (no exp runs there): either way weight 0,
    // which computeWeights marks skipped.
    for (int r = 0; r < rows; ++r) {
        const int tau = r / gn;
        const Visible& vis = b.tok[tau];
        float* sr = s.scores + static_cast<size_t>(r) * nCells;
        const int32_t* un = s.unseen + static_cast<size_t>(tau) * nCells;
        for (int64_t k = 0; k < b.unseen[tau]; ++k)
            sr[un[k]] = un[k] >= vis.lo && un[k] < vis.hi ? kMasked : 0.0f;
    }
    if (p.softCap == 0.0f && p.scale > 0.0f) {
        // No cap: the scale over the whole softmax range, in place. A masked
        // cell's -inf stays -inf and moves no maximum.
        for (int r = 0; r < rows; ++r) {
            const Visible& vis = b.tok[r / gn];
            float* sr = s.scores + static_cast<size_t>(r) * nCells;
            float max[8];
            std::fill(max, max + 8, m.max[r]);
            int64_t c = vis.lo;
            for (; c + 8 <= vis.hi; c += 8)
                for (int i = 0; i < 8; ++i) {
                    const float x = sr[c + i] * p.scale;
                    sr[c + i] = x;
                    max[i] = std::max(max[i], x);
                }
            for (; c < vis.hi; ++c) {
                const float x = sr[c] * p.scale;
                sr[c] = x;
                max[0] = std::max(max[0], x);
            }
            for (const float x : max)
                m.max[r] = std::max(m.max[r], x);
        }
        return;
    }
    for (int r = 0; r < rows; ++r) {
        const int tau = r / gn;
        float* sr = s.scores + static_cast<size_t>(r) * nCells;
        float max[4] = {m.max[r], m.max[r], m.max[r], m.max[r]};
        for (int64_t j = 0; j < b.count; ++j) {
            const int32_t c = s.visible[j];
            if (!b.sees(s, tau, c))
                continue;
            float x = sr[c];
            if (p.softCap > 0.0f)
                x = std::tanh(x * pl.capInv) * p.softCap;
            x *= p.scale;
            sr[c] = x;
            max[j & 3] = std::max(max[j & 3], x);
        }
        m.max[r] = std::max(std::max(max[0], max[1]), std::max(max[2], max[3]));
    }
}

// Softmax weights of query row r (token τ) by byLane entry: score / sum,
// rounded to f16 for an f16 V; -0.0 (pvF16's skip mark) where the score is
// 0 and at the cells the token does not see.
void computeWeights(const Plan& pl, const Scratch& s, const Block& b, int r, int tau, float max)
{
    const auto nCells = static_cast<size_t>(pl.p.mask.nCells);
    const float* sr = s.scores + static_cast<size_t>(r) * nCells;
    float* wr = s.weights + static_cast<size_t>(r) * nCells;
    const Visible& vis = b.tok[tau];
    // softmax: ggml's vector exp, sums of 16 cells added in double
    const double sum = vis.hi > vis.lo ? pl.ak.softmaxExp(s.scores + r * nCells + vis.lo, vis.hi - vis.lo, max) : 0.0;
    const auto inv = static_cast<float>(1.0 / sum);
    for (int64_t j = 0; j < b.count; ++j) {
        const float x = sr[s.byLane[j]];
        wr[j] = x == 0.0f ? -0.0f : x * inv; // -0.0 stays -0.0 through f16
    }
    if (pl.vIsF16) {
        pl.toF16(wr, s.half, b.count);
        pl.fromF16(s.half, wr, b.count);
    }
}

// out = Σ p·v for the query rows, one row of lanes per cell's lane, cells
// in order within a lane.
void accumulate(const Plan& pl, const Scratch& s, const Block& b, int64_t hk, int rows)
{
    const AttentionParams& p = pl.p;
    const auto nCells = static_cast<size_t>(p.mask.nCells);
    const Tensor& vc = pl.op.src[2];
    const int lanes = pl.pvMap.lanes();
    const uint8_t* vBase = vc.data + pl.vHeadBytes * static_cast<size_t>(hk);
    std::fill(s.acc, s.acc + static_cast<size_t>(rows) * pl.accFloats, 0.0f);
    if (pl.vIsF16) {
        pl.ak.pvF16(s.acc, pl.accFloats, lanes, reinterpret_cast<const uint16_t*>(vBase), vc.nb[1] / 2, s.byLane,
                    b.count, s.weights, nCells, rows, p.headDimV);
        return;
    }
    for (int64_t j = 0; j < b.count; ++j) {
        const int32_t c = s.byLane[j];
        pl.vk.toFloat(vBase + static_cast<size_t>(c) * vc.nb[1], s.vrow, p.headDimV);
        for (int r = 0; r < rows; ++r) {
            const float w = s.weights[static_cast<size_t>(r) * nCells + static_cast<size_t>(j)];
            if (!(w == 0.0f && std::signbit(w)))
                pl.ak.axpyF32(s.acc + static_cast<size_t>(r) * pl.accFloats +
                                  static_cast<size_t>(pl.pvMap.lane(c)) * static_cast<size_t>(p.headDimV),
                              s.vrow, w, p.headDimV);
        }
    }
}

// Attention of the block's tokens for the gn query heads from h0, which
// share KV head h0 / group. Per token and head the same bits as alone: its
// scores, softmax and p·v see only its own cells, in the same orders.
void attend(const Plan& pl, const Scratch& s, const Block& b, int64_t h0, int gn)
{
    const AttentionParams& p = pl.p;
    const int64_t hk = h0 / (p.nHead / p.nHeadKv);
    const int rows = b.n * gn;
    for (int r = 0; r < rows; ++r)
        pl.toPartner(pl.op.src[0].f32Row(h0 + r % gn, b.t0 + r / gn), s.query + static_cast<size_t>(r) * pl.queryBytes,
                     p.headDimK);
    Maxima m;
    std::fill(m.max, m.max + rows, -std::numeric_limits<float>::infinity());
    computeScores(pl, s, b, hk, gn, m);
    for (int r = 0; r < rows; ++r)
        computeWeights(pl, s, b, r, r / gn, m.max[r]);
    accumulate(pl, s, b, hk, rows);
    for (int r = 0; r < rows; ++r)
        pl.ak.reduceLanes(s.acc + static_cast<size_t>(r) * pl.accFloats, pl.pvMap.lanes(), p.headDimV,
                          pl.op.dst.f32Row(b.t0 + r / gn) + (h0 + r % gn) * p.headDimV);
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

    const Layout l = layoutFor(op, ctx.nth);
    uint8_t* mine = ctx.work + l.total * static_cast<size_t>(ctx.ith);
    const Scratch s{reinterpret_cast<int32_t*>(mine + l.visible),
                    reinterpret_cast<int32_t*>(mine + l.byLane),
                    mine + l.cellMask,
                    reinterpret_cast<int32_t*>(mine + l.unseen),
                    reinterpret_cast<float*>(mine + l.scores),
                    reinterpret_cast<float*>(mine + l.weights),
                    reinterpret_cast<uint16_t*>(mine + l.half),
                    mine + l.query,
                    reinterpret_cast<float*>(mine + l.acc),
                    reinterpret_cast<float*>(mine + l.vrow)};

    if (nTok >= ctx.nth) {
        // Whole GQA groups, blocks of tokens dealt round robin: a causal
        // triangle's rows of every length are spread evenly over the threads.
        const int bt = blockTokens(op, ctx.nth);
        for (int64_t t0 = ctx.ith * bt; t0 < nTok; t0 += static_cast<int64_t>(ctx.nth) * bt) {
            const Block b = findBlock(p, t0, static_cast<int>(std::min<int64_t>(bt, nTok - t0)), pvMap.lanes(), s);
            for (int64_t h0 = 0; h0 < p.nHead; h0 += group)
                for (int g0 = 0; g0 < group; g0 += kMaxGroup)
                    attend(pl, s, b, h0 + g0, std::min(kMaxGroup, group - g0));
        }
        return;
    }
    // Fewer tokens than threads (a single query): split the heads, and
    // attend each thread's heads of one KV head together, so that each K / V
    // row is read once for all of them (per head the same bits: its scores,
    // softmax and p·v do not depend on the others).
    int64_t begin, end, cachedT = -1;
    Block b;
    splitRange(nTok * p.nHead, ctx.ith, ctx.nth, begin, end);
    for (int64_t r = begin; r < end;) {
        const int64_t t = r / p.nHead, h = r % p.nHead;
        if (t != cachedT)
            b = findBlock(p, t, 1, pvMap.lanes(), s);
        cachedT = t;
        const int64_t groupEnd = (h / group + 1) * group; // the next KV head's first query head
        const int gn = static_cast<int>(std::min({end - r, groupEnd - h, static_cast<int64_t>(kMaxGroup)}));
        attend(pl, s, b, h, gn);
        r += gn;
    }
}

} // namespace hearth::cpu
