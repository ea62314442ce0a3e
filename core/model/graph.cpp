#include "model/graph.h"

#include "util/error.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace hearth {

namespace {

constexpr size_t kAlign = 64;

size_t aligned(size_t n)
{
    return (n + kAlign - 1) / kAlign * kAlign;
}

} // namespace

void Graph::begin()
{
    m_list.ops.clear();
    m_slots.clear();
    m_layer = -1;
}

int32_t Graph::addSlot(size_t bytes, int arena)
{
    m_slots.push_back(Slot{aligned(bytes), 0, -1, arena});
    return static_cast<int32_t>(m_slots.size() - 1);
}

Tensor Graph::activation(int64_t ne0, int64_t ne1, int64_t ne2)
{
    Tensor t = Tensor::dense(GgmlType::F32, ne0, ne1, ne2);
    t.slot = addSlot(t.denseBytes(), 0);
    return t;
}

Tensor Graph::unaryLike(OpKind kind, const Tensor& x, float scalar)
{
    Op op;
    op.kind = kind;
    op.src[0] = x;
    op.dst = activation(x.ne[0], x.ne[1], x.ne[2]);
    op.scalar = scalar;
    return record(op);
}

Tensor Graph::record(Op op)
{
    op.layer = m_layer;
    m_list.ops.push_back(op);
    return op.dst;
}

Tensor Graph::binary(OpKind kind, const Tensor& a, const Tensor& b)
{
    assert(a.ne[0] == b.ne[0] && (b.rows() == 1 || b.rows() == a.rows()));
    Op op;
    op.kind = kind;
    op.src[0] = a;
    op.src[1] = b;
    op.dst = activation(a.ne[0], a.ne[1], a.ne[2]);
    return record(op);
}

Tensor Graph::getRows(const Tensor& table, const int32_t* ids, int64_t n)
{
    Op op;
    op.kind = OpKind::GetRows;
    op.src[0] = table;
    op.ids = ids;
    op.dst = activation(table.ne[0], n);
    return record(op);
}

Tensor Graph::rmsNorm(const Tensor& x, const Tensor* weight, float eps)
{
    Op op;
    op.kind = OpKind::RmsNorm;
    op.src[0] = x;
    if (weight) {
        assert(weight->ne[0] == x.ne[0]);
        op.src[1] = *weight;
    }
    op.scalar = eps;
    op.dst = activation(x.ne[0], x.ne[1], x.ne[2]);
    return record(op);
}

Tensor Graph::norm(const Tensor& x, const Tensor* weight, const Tensor* bias, float eps)
{
    const Tensor dst = activation(x.ne[0], x.ne[1], x.ne[2]);
    normInto(x, weight, bias, eps, dst);
    return dst;
}

void Graph::normInto(const Tensor& x, const Tensor* weight, const Tensor* bias, float eps, const Tensor& dst)
{
    assert(dst.ne[0] == x.ne[0] && dst.rows() == x.rows());
    Op op;
    op.kind = OpKind::Norm;
    op.src[0] = x;
    if (weight) {
        assert(weight->ne[0] == x.ne[0]);
        op.src[1] = *weight;
    }
    if (bias) {
        assert(bias->ne[0] == x.ne[0]);
        op.src[2] = *bias;
    }
    op.scalar = eps;
    op.dst = dst;
    op.layer = m_layer;
    m_list.ops.push_back(op);
}

Tensor Graph::gelu(const Tensor& x)
{
    return unaryLike(OpKind::Gelu, x, 0.0f);
}

Tensor Graph::matmul(const Tensor& w, const Tensor& x)
{
    const Tensor dst = activation(w.ne[1], x.rows());
    matmulInto(w, x, dst);
    return dst;
}

void Graph::matmulInto(const Tensor& w, const Tensor& x, const Tensor& dst)
{
    assert(w.ne[0] == x.ne[0] && dst.ne[0] == w.ne[1]);
    Op op;
    op.kind = OpKind::MatMul;
    op.src[0] = w;
    op.src[1] = x;
    op.dst = dst;
    record(op);
}

Tensor Graph::add(const Tensor& a, const Tensor& b)
{
    return binary(OpKind::Add, a, b);
}

Tensor Graph::mul(const Tensor& a, const Tensor& b)
{
    return binary(OpKind::Mul, a, b);
}

Tensor Graph::scale(const Tensor& x, float s)
{
    return unaryLike(OpKind::Scale, x, s);
}

Tensor Graph::softCap(const Tensor& x, float cap)
{
    return unaryLike(OpKind::SoftCap, x, cap);
}

void Graph::softCapInPlace(const Tensor& x, float cap)
{
    Op op;
    op.kind = OpKind::SoftCap;
    op.src[0] = x;
    op.dst = x;
    op.scalar = cap;
    record(op);
}

Tensor Graph::rope(const Tensor& x, const int32_t* positions, const RopeParams& params)
{
    Op op;
    op.kind = OpKind::Rope;
    op.src[0] = x;
    op.ids = positions;
    op.rope = params;
    op.dst = activation(x.ne[0], x.ne[1], x.ne[2]);
    return record(op);
}

Tensor Graph::swiglu(const Tensor& gate, const Tensor& up)
{
    return binary(OpKind::SwiGlu, gate, up);
}

Tensor Graph::geglu(const Tensor& gate, const Tensor& up)
{
    return binary(OpKind::GeGlu, gate, up);
}

void Graph::storeRows(const Tensor& cache, const Tensor& src, const int32_t* cells)
{
    assert(cache.ne[0] == src.ne[0]);
    Op op;
    op.kind = OpKind::StoreRows;
    op.src[0] = src;
    op.dst = cache;
    op.ids = cells;
    record(op);
}

Tensor Graph::attention(const Tensor& q, const Tensor& kCache, const Tensor& vCache, const AttentionParams& params)
{
    Op op;
    op.kind = OpKind::Attention;
    op.src[0] = q;
    op.src[1] = kCache;
    op.src[2] = vCache;
    op.attn = params;
    op.dst = activation(static_cast<int64_t>(params.headDimV) * params.nHead, q.ne[2]);
    return record(op);
}

Tensor Graph::selectRows(const Tensor& x, const int32_t* rows, int64_t n)
{
    return getRows(x, rows, n);
}

void Graph::rawOp(const Op& op)
{
    m_list.ops.push_back(op);
}

void Graph::place(std::span<const Area> areas)
{
    size_t top[kMaxArenas] = {};
    for (int a = 0; a < kMaxArenas; ++a) {
        m_free[a].clear();
        m_peak[a] = 0;
    }
    std::vector<bool> placed(m_slots.size(), false);
    const auto allocate = [&](Slot& s) {
        std::vector<Block>& free = m_free[s.arena];
        auto best = free.end();
        for (auto it = free.begin(); it != free.end(); ++it) {
            if (it->bytes >= s.bytes && (best == free.end() || it->bytes < best->bytes))
                best = it;
        }
        if (best != free.end()) {
            s.offset = best->offset;
            best->offset += s.bytes;
            best->bytes -= s.bytes;
            if (best->bytes == 0)
                free.erase(best);
            return;
        }
        s.offset = top[s.arena];
        top[s.arena] += s.bytes;
        m_peak[s.arena] = std::max(m_peak[s.arena], top[s.arena]);
    };
    const auto release = [&](const Slot& s) {
        std::vector<Block>& free = m_free[s.arena];
        Block b{s.offset, s.bytes};
        auto it = std::lower_bound(free.begin(), free.end(), b,
                                   [](const Block& x, const Block& y) { return x.offset < y.offset; });
        it = free.insert(it, b);
        if (it + 1 != free.end() && it->offset + it->bytes == (it + 1)->offset) {
            it->bytes += (it + 1)->bytes;
            free.erase(it + 1);
        }
        if (it != free.begin() && (it - 1)->offset + (it - 1)->bytes == it->offset) {
            (it - 1)->bytes += it->bytes;
            free.erase(it);
        }
    };

    auto& ops = m_list.ops;
    for (size_t i = 0; i < ops.size(); ++i) {
        for (const Tensor* t : {&ops[i].dst, &ops[i].src[0], &ops[i].src[1], &ops[i].src[2]}) {
            if (t->slot >= 0)
                m_slots[static_cast<size_t>(t->slot)].lastUse = static_cast<int>(i);
        }
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        // Every slot an op touches exists from its first use on (a Copy's
        // source was written before; a destination is placed here).
        for (const Tensor* t : {&ops[i].dst, &ops[i].src[0], &ops[i].src[1], &ops[i].src[2]}) {
            if (t->slot >= 0 && !placed[static_cast<size_t>(t->slot)]) {
                allocate(m_slots[static_cast<size_t>(t->slot)]);
                placed[static_cast<size_t>(t->slot)] = true;
            }
        }
        for (const Tensor* t : {&ops[i].dst, &ops[i].src[0], &ops[i].src[1], &ops[i].src[2]}) {
            if (t->slot >= 0 && m_slots[static_cast<size_t>(t->slot)].lastUse == static_cast<int>(i)) {
                m_slots[static_cast<size_t>(t->slot)].lastUse = -2; // released
                release(m_slots[static_cast<size_t>(t->slot)]);
            }
        }
    }
    if (areas.empty() || !areas[0].base)
        return;
    for (Op& op : ops) {
        for (Tensor* t : {&op.dst, &op.src[0], &op.src[1], &op.src[2]}) {
            if (t->slot >= 0) {
                const Slot& s = m_slots[static_cast<size_t>(t->slot)];
                t->data = areas[static_cast<size_t>(s.arena)].base + s.offset + t->offset;
            }
        }
    }
}

const OpList& Graph::finish(uint8_t* base, size_t capacity)
{
    const Area area{base, capacity};
    return finish(std::span<const Area>(&area, 1));
}

const OpList& Graph::finish(std::span<const Area> areas)
{
    place(areas);
    for (size_t a = 0; a < areas.size() && areas[0].base; ++a) {
        if (m_peak[a] > areas[a].capacity)
            throw Error("scratch area too small for this batch: " + std::to_string(m_peak[a]) + " bytes needed, " +
                        std::to_string(areas[a].capacity) + " reserved");
    }
    return m_list;
}

} // namespace hearth
