#include "documents/VectorIndex.h"

#include <algorithm>
#include <cmath>
#include <queue>

namespace documents {

int32_t dotInt8(const int8_t* a, const int8_t* b, int n)
{
    // Sixteen independent int32 lanes, which GCC and Clang vectorize
    // (widening multiply-adds: pmaddwd on x86, smlal on NEON).
    int32_t lanes[16] = {};
    int i = 0;
    for (; i + 16 <= n; i += 16)
        for (int l = 0; l < 16; ++l)
            lanes[l] += int32_t(a[i + l]) * int32_t(b[i + l]);
    int32_t sum = 0;
    for (int l = 0; l < 16; ++l)
        sum += lanes[l];
    for (; i < n; ++i)
        sum += int32_t(a[i]) * int32_t(b[i]);
    return sum;
}

void VectorIndex::clear(int dim)
{
    m_dim = dim;
    m_values.clear();
    m_scales.clear();
    m_ids.clear();
    m_groups.clear();
}

void VectorIndex::add(int64_t id, int64_t group, std::span<const int8_t> values, float scale)
{
    if (static_cast<int>(values.size()) != m_dim)
        return; // a vector of another model; the indexer re-embeds those
    m_values.insert(m_values.end(), values.begin(), values.end());
    m_scales.push_back(scale);
    m_ids.push_back(id);
    m_groups.push_back(group);
}

std::vector<VectorIndex::Hit> VectorIndex::search(std::span<const float> query, size_t k) const
{
    if (static_cast<int>(query.size()) != m_dim || m_ids.empty() || k == 0)
        return {};
    // The query as int8 too, so every row costs one integer dot product.
    float maxAbs = 0.0f;
    for (float v : query)
        maxAbs = std::max(maxAbs, std::abs(v));
    const float qScale = maxAbs > 0.0f ? maxAbs / 127.0f : 1.0f;
    std::vector<int8_t> q(static_cast<size_t>(m_dim));
    for (int i = 0; i < m_dim; ++i)
        q[static_cast<size_t>(i)] =
            static_cast<int8_t>(std::clamp(std::lround(query[static_cast<size_t>(i)] / qScale), -127L, 127L));

    const auto worse = [](const Hit& a, const Hit& b) { return a.score > b.score; }; // min-heap on score
    std::priority_queue<Hit, std::vector<Hit>, decltype(worse)> best(worse);
    for (size_t r = 0; r < m_ids.size(); ++r) {
        const int32_t dot = dotInt8(m_values.data() + r * static_cast<size_t>(m_dim), q.data(), m_dim);
        const float score = static_cast<float>(dot) * m_scales[r] * qScale;
        if (best.size() < k) {
            best.push(Hit{m_ids[r], m_groups[r], score});
        } else if (score > best.top().score) {
            best.pop();
            best.push(Hit{m_ids[r], m_groups[r], score});
        }
    }
    std::vector<Hit> out;
    while (!best.empty()) {
        out.push_back(best.top());
        best.pop();
    }
    std::reverse(out.begin(), out.end());
    return out;
}

} // namespace documents
