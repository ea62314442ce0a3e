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
}

Tensor Graph::activation(int64_t ne0, int64_t ne1, int64_t ne2)
{
    Tensor t = Tensor::dense(GgmlType::F32, ne0, ne1, ne2);
    t.slot = static_cast<int32_t>(m_slots.size());
    m_slots.push_back(Slot{aligned(t.denseBytes()), 0, -1});
    return t;
}

Tensor Graph::unaryLike(OpKind kind, const Tensor& x, float scalar)
{
    Op op;
    op.kind = kind;
    op.src[0] = x;
    op.dst = activation(x.ne[0], x.ne[1], x.ne[2]);
    op.scalar = scalar;
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
    m_list.ops.push_back(op);
    return op.dst;
}

Tensor Graph::getRows(const Tensor& table, const int32_t* ids, int64_t n)
{
    Op op;
    op.kind = OpKind::GetRows;
    op.src[0] = table;
    op.ids = ids;
    op.dst = activation(table.ne[0], n);
    m_list.ops.push_back(op);
    return op.dst;
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
    m_list.ops.push_back(op);
    return op.dst;
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
    m_list.ops.push_back(op);
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
    m_list.ops.push_back(op);
}

Tensor Graph::rope(const Tensor& x, const int32_t* positions, const RopeParams& params)
{
    Op op;
    op.kind = OpKind::Rope;
    op.src[0] = x;
    op.ids = positions;
    op.rope = params;
    op.dst = activation(x.ne[0], x.ne[1], x.ne[2]);
    m_list.ops.push_back(op);
    return op.dst;
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
    m_list.ops.push_back(op);
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
    m_list.ops.push_back(op);
    return op.dst;
}

Tensor Graph::selectRows(const Tensor& x, const int32_t* rows, int64_t n)
{
    return getRows(x, rows, n);
}

void Graph::rawOp(const Op& op)
{
    m_list.ops.push_back(op);
}

void Graph::place(uint8_t* base)
{
    m_free.clear();
    size_t top = 0;
    m_peak = 0;
    std::vector<bool> placed(m_slots.size(), false);
    const auto allocate = [&](Slot& s) {
        auto best = m_free.end();
        for (auto it = m_free.begin(); it != m_free.end(); ++it) {
            if (it->bytes >= s.bytes && (best == m_free.end() || it->bytes < best->bytes))
                best = it;
        }
        if (best != m_free.end()) {
            s.offset = best->offset;
            best->offset += s.bytes;
            best->bytes -= s.bytes;
            if (best->bytes == 0)
                m_free.erase(best);
            return;
        }
        s.offset = top;
        top += s.bytes;
        m_peak = std::max(m_peak, top);
    };
    const auto release = [&](const Slot& s) {
        Block b{s.offset, s.bytes};
        auto it = std::lower_bound(m_free.begin(), m_free.end(), b,
                                   [](const Block& x, const Block& y) { return x.offset < y.offset; });
        it = m_free.insert(it, b);
        if (it + 1 != m_free.end() && it->offset + it->bytes == (it + 1)->offset) {
            it->bytes += (it + 1)->bytes;
            m_free.erase(it + 1);
        }
        if (it != m_free.begin() && (it - 1)->offset + (it - 1)->bytes == it->offset) {
            (it - 1)->bytes += it->bytes;
            m_free.erase(it);
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
        const int32_t d = ops[i].dst.slot;
        if (d >= 0 && !placed[static_cast<size_t>(d)]) {
            allocate(m_slots[static_cast<size_t>(d)]);
            placed[static_cast<size_t>(d)] = true;
        }
        for (const Tensor* t : {&ops[i].dst, &ops[i].src[0], &ops[i].src[1], &ops[i].src[2]}) {
            if (t->slot >= 0 && m_slots[static_cast<size_t>(t->slot)].lastUse == static_cast<int>(i)) {
                m_slots[static_cast<size_t>(t->slot)].lastUse = -2; // released
                release(m_slots[static_cast<size_t>(t->slot)]);
            }
        }
    }
    if (!base)
        return;
    for (Op& op : ops) {
        for (Tensor* t : {&op.dst, &op.src[0], &op.src[1], &op.src[2]}) {
            if (t->slot >= 0)
                t->data = base + m_slots[static_cast<size_t>(t->slot)].offset + t->offset;
        }
    }
}

const OpList& Graph::finish(uint8_t* base, size_t capacity)
{
    place(base);
    if (base && m_peak > capacity)
        throw Error("scratch area too small for this batch: " + std::to_string(m_peak) + " bytes needed, " +
                    std::to_string(capacity) + " reserved");
    return m_list;
}

} // namespace hearth
