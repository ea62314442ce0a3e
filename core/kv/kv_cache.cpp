#include "kv/kv_cache.h"

#include "util/error.h"

#include <algorithm>
#include <cstring>

namespace hearth {

namespace {

void checkType(const ModelParams& hp, GgmlType type)
{
    if (type != GgmlType::F16 && type != GgmlType::F32 && type != GgmlType::Q8_0)
        throw Error("KV cache type must be f16, f32 or q8_0, not " + std::string(typeTraits(type).name));
    const int64_t block = typeTraits(type).blockSize;
    if (hp.headDimK % block != 0 || hp.headDimV % block != 0)
        throw Error("KV cache type " + std::string(typeTraits(type).name) + " needs head sizes that are multiples of " +
                    std::to_string(block) + " (this model has " + std::to_string(hp.headDimK) + ")");
}

} // namespace

size_t KvCache::bytesFor(const ModelParams& hp, int64_t cells, GgmlType type)
{
    size_t total = 0;
    for (int64_t l = 0; l < hp.nLayer; ++l)
        total += (rowBytes(type, hp.kvWidthK(l)) + rowBytes(type, hp.kvWidthV(l))) * static_cast<size_t>(cells);
    return total;
}

KvCache::KvCache(const ModelParams& hp, int64_t cells, GgmlType type, Backend& backend)
    : KvCache(hp, cells, type, Placement::hostOnly(backend, hp.nLayer))
{
}

KvCache::KvCache(const ModelParams& hp, int64_t cells, GgmlType type, const Placement& placement) : m_type(type)
{
    checkType(hp, type);
    if (cells < 1)
        throw Error("KV cache needs at least one cell");
    const auto layerBytes = [&](int64_t l) {
        return (rowBytes(type, hp.kvWidthK(l)) + rowBytes(type, hp.kvWidthV(l))) * static_cast<size_t>(cells);
    };
    size_t hostBytes = 0;
    for (int64_t l = 0; l < hp.nLayer; ++l)
        if (!placement.onDevice(l))
            hostBytes += layerBytes(l);
    uint8_t* host = nullptr;
    if (hostBytes > 0 || hp.nLayer == 0) {
        m_buffers.push_back(placement.host->allocate(hostBytes, BufferUsage::KvCache));
        // Zero once so an empty cell never holds NaN bit patterns that a
        // kernel could multiply by a zero probability.
        placement.host->zero(*m_buffers.back());
        host = m_buffers.back()->data();
    }
    for (int64_t l = 0; l < hp.nLayer; ++l) {
        uint8_t* p = host;
        if (placement.onDevice(l)) {
            m_buffers.push_back(placement.device->allocate(layerBytes(l), BufferUsage::KvCache));
            placement.device->zero(*m_buffers.back());
            m_deviceBytes += m_buffers.back()->size();
            p = m_buffers.back()->data();
        }
        Tensor k = Tensor::dense(type, hp.kvWidthK(l), cells);
        k.data = p;
        Tensor v = Tensor::dense(type, hp.kvWidthV(l), cells);
        v.data = p + k.denseBytes();
        if (!placement.onDevice(l))
            host += k.denseBytes() + v.denseBytes();
        m_k.push_back(k);
        m_v.push_back(v);
    }
    m_pos.assign(static_cast<size_t>(cells), -1);
    m_seqs.assign(static_cast<size_t>(cells), 0);
    m_shift.assign(static_cast<size_t>(cells), 0);
}

size_t KvCache::bytes() const
{
    size_t n = 0;
    for (const auto& b : m_buffers)
        n += b->size();
    return n;
}

int64_t KvCache::extent() const
{
    for (size_t c = m_pos.size(); c > 0; --c) {
        if (m_pos[c - 1] >= 0)
            return static_cast<int64_t>(c);
    }
    return 0;
}

bool KvCache::place(int64_t n, const int32_t* pos, const int32_t* seq, int32_t* cells)
{
    if (size() - m_used < n)
        return false;
    int64_t i = 0;
    for (size_t c = 0; c < m_pos.size() && i < n; ++c) {
        if (m_pos[c] >= 0)
            continue;
        m_pos[c] = pos[i];
        m_seqs[c] = uint64_t{1} << seq[i];
        m_shift[c] = 0;
        cells[i] = static_cast<int32_t>(c);
        ++i;
    }
    m_used += n;
    return true;
}

void KvCache::freeCell(size_t c)
{
    m_pos[c] = -1;
    m_seqs[c] = 0;
    m_shift[c] = 0;
    --m_used;
}

void KvCache::release(const int32_t* cells, int64_t n)
{
    for (int64_t i = 0; i < n; ++i) {
        const auto c = static_cast<size_t>(cells[i]);
        if (m_pos[c] >= 0)
            freeCell(c);
    }
}

void KvCache::removeSequence(int seq, int32_t p0, int32_t p1)
{
    const uint64_t bit = uint64_t{1} << seq;
    for (size_t c = 0; c < m_pos.size(); ++c) {
        if ((m_seqs[c] & bit) == 0 || m_pos[c] < p0 || (p1 >= 0 && m_pos[c] >= p1))
            continue;
        m_seqs[c] &= ~bit;
        if (m_seqs[c] == 0)
            freeCell(c);
    }
}

void KvCache::copySequence(int src, int dst, int32_t p0, int32_t p1)
{
    const uint64_t from = uint64_t{1} << src;
    for (size_t c = 0; c < m_pos.size(); ++c) {
        if ((m_seqs[c] & from) && m_pos[c] >= p0 && (p1 < 0 || m_pos[c] < p1))
            m_seqs[c] |= uint64_t{1} << dst;
    }
}

void KvCache::shiftSequence(int seq, int32_t p0, int32_t p1, int32_t delta)
{
    const uint64_t bit = uint64_t{1} << seq;
    for (size_t c = 0; c < m_pos.size(); ++c) {
        if ((m_seqs[c] & bit) == 0 || m_pos[c] < p0 || (p1 >= 0 && m_pos[c] >= p1))
            continue;
        m_pos[c] += delta;
        if (m_pos[c] < 0) {
            freeCell(c);
            continue;
        }
        m_shift[c] += delta;
        m_shiftPending = true;
    }
}

int32_t KvCache::maxPosition(int seq) const
{
    const uint64_t bit = uint64_t{1} << seq;
    int32_t best = -1;
    for (size_t c = 0; c < m_pos.size(); ++c) {
        if (m_seqs[c] & bit)
            best = std::max(best, m_pos[c]);
    }
    return best;
}

int64_t KvCache::sequenceCells(int seq) const
{
    const uint64_t bit = uint64_t{1} << seq;
    int64_t n = 0;
    for (uint64_t s : m_seqs)
        n += (s & bit) ? 1 : 0;
    return n;
}

void KvCache::clear()
{
    std::fill(m_pos.begin(), m_pos.end(), -1);
    std::fill(m_seqs.begin(), m_seqs.end(), 0);
    std::fill(m_shift.begin(), m_shift.end(), 0);
    m_used = 0;
    m_shiftPending = false;
}

void KvCache::shiftApplied()
{
    std::fill(m_shift.begin(), m_shift.end(), 0);
    m_shiftPending = false;
}

} // namespace hearth
