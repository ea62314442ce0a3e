// Exact nearest-neighbour search over int8 embeddings held in memory: one
// contiguous [rows × dim] int8 matrix with a float scale per row, scanned in
// full for every query (a loop of 16-bit multiply-adds that compilers turn
// into SIMD), keeping the k best in a small heap. Scores are the dot
// products of the dequantized vectors (cosines, for unit vectors).
//
// Cost: rows × dim byte reads per query (memory-bound: ~50 ms for a million
// 384-dim rows on one core); memory: rows × (dim + 20) bytes.
// Thread-safety: search() is const and may run on several threads; add()
// and clear() need exclusive access.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace documents {

class VectorIndex {
public:
    struct Hit {
        int64_t id = 0;
        int64_t group = 0; // the document
        float score = 0.0f;
    };

    explicit VectorIndex(int dim = 0) : m_dim(dim) {}
    int dimension() const { return m_dim; }
    size_t size() const { return m_ids.size(); }
    void clear(int dim);
    // One row: `dim` int8 values and the scale that multiplies them.
    void add(int64_t id, int64_t group, std::span<const int8_t> values, float scale);
    // The k rows closest to `query` (dim floats), best first.
    std::vector<Hit> search(std::span<const float> query, size_t k) const;

private:
    int m_dim = 0;
    std::vector<int8_t> m_values;
    std::vector<float> m_scales;
    std::vector<int64_t> m_ids, m_groups;
};

// Σ a[i]·b[i] over n int8 values, in int32 (exact).
int32_t dotInt8(const int8_t* a, const int8_t* b, int n);

} // namespace documents
