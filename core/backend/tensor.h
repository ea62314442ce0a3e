// A tensor as the engine passes it between the model code and a backend: a
// typed, strided view of up to four dimensions over bytes that either already
// exist (weights in the mapped GGUF file, KV cache rows) or will be placed by
// the graph allocator (activations, recorded before memory is assigned).
//
// Layout follows ggml: ne[0] is the innermost, contiguous dimension (one row,
// a whole number of quant blocks); nb[i] is the byte stride of dimension i.
// Activations are f32; weights keep their file type; KV rows are f16 or q8_0.
#pragma once

#include "quant/types.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace hearth {

struct Tensor {
    GgmlType type = GgmlType::F32;
    std::array<int64_t, 4> ne{1, 1, 1, 1}; // elements per dimension
    std::array<size_t, 4> nb{0, 0, 0, 0};  // byte stride per dimension
    // Where the bytes are: `data` for memory that exists; otherwise `slot`
    // names an activation of the graph being recorded and `offset` is the
    // byte offset inside it (views). The allocator rewrites `data`.
    uint8_t* data = nullptr;
    int32_t slot = -1;
    size_t offset = 0;

    int64_t elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
    int64_t rows() const { return ne[1] * ne[2] * ne[3]; }
    bool isActivation() const { return slot >= 0; }
    // The whole tensor is one dense block.
    bool contiguous() const;
    // Bytes of a dense tensor of this type and shape.
    size_t denseBytes() const;

    uint8_t* row(int64_t i1, int64_t i2 = 0, int64_t i3 = 0) const
    {
        return data + static_cast<size_t>(i1) * nb[1] + static_cast<size_t>(i2) * nb[2] +
               static_cast<size_t>(i3) * nb[3];
    }
    float* f32Row(int64_t i1, int64_t i2 = 0, int64_t i3 = 0) const
    {
        return reinterpret_cast<float*>(row(i1, i2, i3));
    }

    // A dense tensor description (data still unset).
    static Tensor dense(GgmlType type, int64_t ne0, int64_t ne1 = 1, int64_t ne2 = 1, int64_t ne3 = 1);
    // The same bytes seen with another shape. Precondition: contiguous(),
    // same element count, ne0 a whole number of blocks.
    Tensor reshaped(int64_t ne0, int64_t ne1 = 1, int64_t ne2 = 1, int64_t ne3 = 1) const;
    // Columns [col0, col0 + n) of every row (a view with the same row stride).
    Tensor columns(int64_t col0, int64_t n) const;
    // Each row [ne0·k] of a 2-D tensor seen as k rows of ne0 (e.g. a
    // projection [heads·dk, n] as [dk, heads, n]); the row stride is kept,
    // so this works on column views too.
    Tensor splitRows(int64_t ne0) const;
    // Rows [row0, row0 + n) of a 2-D tensor.
    Tensor rowRange(int64_t row0, int64_t n) const;
};

} // namespace hearth
