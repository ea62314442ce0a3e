// The KV cache: per layer, one row of K and one row of V per cell, in f16
// (default) or q8_0, preallocated for n_ctx cells. Each cell is tagged with
// the position it holds and the set of sequences that use it, so several
// sequences (server slots, forks) share one cache and a sequence's cached
// prefix survives across turns.
//
// Layout: k(layer) is [headDimK · kvHeads(layer), cells], v(layer) likewise
// with headDimV; row c belongs to cell c. V is not transposed.
//
// Placement: the rows of a layer live with the layer's backend
// (backend/placement.h); the host's layers share one buffer, each device
// layer has its own (so none exceeds a device's largest allocation).
//
// Thread-safety: none; owned by one Context, used by its thread.
#pragma once

#include "backend/backend.h"
#include "backend/placement.h"
#include "model/hparams.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace hearth {

// Sequence ids are 0..kMaxSequences-1 (a cell's sequences are a bit set).
inline constexpr int kMaxSequences = 64;

class KvCache {
public:
    // Throws hearth::Error for a type other than f16 / f32 / q8_0 or when a
    // q8_0 row would not be a whole number of blocks.
    KvCache(const ModelParams& hp, int64_t cells, GgmlType type, Backend& backend);
    KvCache(const ModelParams& hp, int64_t cells, GgmlType type, const Placement& placement);

    int64_t size() const { return static_cast<int64_t>(m_pos.size()); }
    GgmlType type() const { return m_type; }
    // Bytes of K and V storage (all layers), and of those on a device.
    size_t bytes() const;
    size_t deviceBytes() const { return m_deviceBytes; }
    // Bytes a cache of these dimensions takes, for estimates.
    static size_t bytesFor(const ModelParams& hp, int64_t cells, GgmlType type);

    Tensor k(int64_t layer) const { return m_k[static_cast<size_t>(layer)]; }
    Tensor v(int64_t layer) const { return m_v[static_cast<size_t>(layer)]; }
    const int32_t* cellPositions() const { return m_pos.data(); }
    const uint64_t* cellSequences() const { return m_seqs.data(); }

    // Cells in use, and 1 + the highest cell index in use (what attention
    // has to scan).
    int64_t usedCells() const { return m_used; }
    int64_t extent() const;

    // Finds `n` free cells (lowest first) and tags them with the positions
    // and sequences given. Returns false, changing nothing, when fewer than n
    // cells are free.
    bool place(int64_t n, const int32_t* pos, const int32_t* seq, int32_t* cells);

    // Frees cells given by index (an interrupted forward pass).
    void release(const int32_t* cells, int64_t n);
    // Removes `seq` from cells whose position is in [p0, p1) (p1 < 0: no
    // end); a cell no sequence uses becomes free.
    void removeSequence(int seq, int32_t p0, int32_t p1);
    // Makes `dst` share the cells of `src` in [p0, p1).
    void copySequence(int src, int dst, int32_t p0, int32_t p1);
    // Adds `delta` to the positions of seq's cells in [p0, p1). Their K rows
    // must then be re-rotated (pendingShift()) before the next forward pass;
    // a cell pushed below position 0 is freed.
    void shiftSequence(int seq, int32_t p0, int32_t p1, int32_t delta);
    // Largest position of seq, or -1 when it has no cells.
    int32_t maxPosition(int seq) const;
    int64_t sequenceCells(int seq) const;
    void clear();

    // Per-cell position deltas not yet applied to K (0 where none).
    bool hasPendingShift() const { return m_shiftPending; }
    const std::vector<int32_t>& pendingShift() const { return m_shift; }
    void shiftApplied();

private:
    void freeCell(size_t c);

    GgmlType m_type;
    std::vector<std::unique_ptr<Buffer>> m_buffers;
    size_t m_deviceBytes = 0;
    std::vector<Tensor> m_k, m_v;
    std::vector<int32_t> m_pos;   // -1: free
    std::vector<uint64_t> m_seqs; // bit s: sequence s uses the cell
    std::vector<int32_t> m_shift; // pending K rotation per cell
    bool m_shiftPending = false;
    int64_t m_used = 0;
};

} // namespace hearth
