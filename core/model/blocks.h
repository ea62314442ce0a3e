// Steps that several families' forward passes share, kept small so each
// family file still reads as the sequence of its paper.
#pragma once

#include "model/model.h"

namespace hearth::blocks {

// Writes the batch's K [dk, kv_heads, n] and V [kv_heads·dv, n] into the
// layer's cache cells and attends over the cache: softmax(cap(q·kᵀ)·scale
// + mask)·v for q [dk, heads, n]. Returns [heads·dv, n].
Tensor attention(Graph& g, const ForwardInputs& in, const ModelParams& hp, int64_t layer, const Tensor& q,
                 const Tensor& k, const Tensor& v, float scale, float softCap = 0.0f);

// Keeps the rows whose logits are wanted, applies the final RMS norm and the
// LM head into in.logits, and the final soft cap when the model has one.
void logits(Graph& g, const ForwardInputs& in, const ModelParams& hp, const ModelWeights& w, Tensor x);

} // namespace hearth::blocks
