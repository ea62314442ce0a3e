// Records a forward pass as an op list (backend/op.h) and places its
// activations in one scratch area. Model code calls the op methods in order,
// like writing the computation down; finish() then assigns every activation
// an offset, reusing memory whose last reader has run, and fills in the
// data pointers. Nothing is computed here.
//
// Cost: O(ops) per call, no heap allocation once the vectors have grown.
// Thread-safety: one graph per context; not shared.
#pragma once

#include "backend/op.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace hearth {

class Graph {
public:
    // Starts a new recording (the previous op list becomes invalid); the
    // layer is -1 (the input) until setLayer().
    void begin();
    // Tags the ops recorded from now on with `layer` (Op::layer): the
    // forward pass calls it at the top of each layer, blocks::logits with
    // n_layer for the output.
    void setLayer(int layer) { m_layer = layer; }

    // A new f32 activation [ne0, ne1, ne2].
    Tensor activation(int64_t ne0, int64_t ne1, int64_t ne2 = 1);

    Tensor getRows(const Tensor& table, const int32_t* ids, int64_t n);
    Tensor rmsNorm(const Tensor& x, const Tensor* weight, float eps);
    // LayerNorm: (x - mean) / sqrt(var + eps) · weight + bias per row
    // (weight and bias may be null); the Into form writes into `dst`.
    Tensor norm(const Tensor& x, const Tensor* weight, const Tensor* bias, float eps);
    void normInto(const Tensor& x, const Tensor* weight, const Tensor* bias, float eps, const Tensor& dst);
    Tensor gelu(const Tensor& x); // the exact (erf) GELU
    Tensor matmul(const Tensor& w, const Tensor& x);
    Tensor add(const Tensor& a, const Tensor& b);
    Tensor mul(const Tensor& a, const Tensor& b);
    Tensor scale(const Tensor& x, float s);
    Tensor softCap(const Tensor& x, float cap);
    Tensor rope(const Tensor& x, const int32_t* positions, const RopeParams& params);
    Tensor swiglu(const Tensor& gate, const Tensor& up);
    Tensor geglu(const Tensor& gate, const Tensor& up);
    // Writes column i of src into row cells[i] of cache (a KV tensor).
    void storeRows(const Tensor& cache, const Tensor& src, const int32_t* cells);
    Tensor attention(const Tensor& q, const Tensor& kCache, const Tensor& vCache, const AttentionParams& params);
    // Columns rows[0..n) of x as a new dense activation (output selection).
    Tensor selectRows(const Tensor& x, const int32_t* rows, int64_t n);
    // The final matmul of a model writes into memory owned by the caller.
    void matmulInto(const Tensor& w, const Tensor& x, const Tensor& dst);
    void softCapInPlace(const Tensor& x, float cap);
    void rawOp(const Op& op);

    // Places the activations in [base, base + capacity) and returns the op
    // list. Throws hearth::Error when capacity is too small; with base ==
    // nullptr it only measures (see peakBytes()).
    const OpList& finish(uint8_t* base, size_t capacity);
    // The same with each activation in the area of its arena (setArena();
    // 0 by default): one per backend of a split (runtime/scheduler.h).
    struct Area {
        uint8_t* base = nullptr;
        size_t capacity = 0;
    };
    static constexpr int kMaxArenas = 2;
    const OpList& finish(std::span<const Area> areas);
    // Bytes the last finish() needed (in one arena).
    size_t peakBytes(int arena = 0) const { return m_peak[static_cast<size_t>(arena)]; }
    const OpList& ops() const { return m_list; }

    // For the scheduler, between recording and finish(): the op list to
    // rewrite, new activation slots and the arena of each.
    OpList& mutableOps() { return m_list; }
    int32_t addSlot(size_t bytes, int arena);
    void setArena(int32_t slot, int arena) { m_slots[static_cast<size_t>(slot)].arena = arena; }
    size_t slotBytes(int32_t slot) const { return m_slots[static_cast<size_t>(slot)].bytes; }
    size_t slotCount() const { return m_slots.size(); }

private:
    // Appends op, stamped with the current layer; returns its output.
    Tensor record(Op op);
    Tensor unaryLike(OpKind kind, const Tensor& x, float scalar);
    Tensor binary(OpKind kind, const Tensor& a, const Tensor& b);
    void place(std::span<const Area> areas);

    struct Slot {
        size_t bytes = 0;
        size_t offset = 0;
        int lastUse = -1;
        int arena = 0;
    };
    struct Block {
        size_t offset, bytes;
    };

    OpList m_list;
    std::vector<Slot> m_slots;
    std::vector<Block> m_free[kMaxArenas];
    size_t m_peak[kMaxArenas] = {};
    int m_layer = -1;
};

} // namespace hearth
