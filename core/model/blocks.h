// Steps that several families' forward passes share, kept small so each
// family file still reads as the sequence of its paper.
#pragma once

#include "model/model.h"

namespace hearth::blocks {

struct QueryKeyValue {
    Tensor q; // [dk, heads, n]
    Tensor k; // [dk, kv_heads, n]
    Tensor v; // [kv_heads·dv, n]
};

// The projections of h [n_embd, n] to queries, keys and values, plus their
// biases (qwen2) and then an RMS norm per head of q and k (qwen3, gemma3)
// where the layer has them (LayerTensors). Not yet rotated.
QueryKeyValue projectQkv(Graph& g, const ModelParams& hp, const LayerWeights& l, const Tensor& h);

// The gated feed-forward block without its norms: down(act(gate·h) ⊙ up·h),
// act SiLU (SwiGLU: Llama, Qwen) or GELU (GeGLU: Gemma).
enum class Gate : uint8_t {
    Silu,
    Gelu
};
Tensor feedForward(Graph& g, const LayerWeights& l, const Tensor& h, Gate gate);

// Writes the batch's K [dk, kv_heads, n] and V [kv_heads·dv, n] into the
// layer's cache cells and attends over the cache: softmax(cap(q·kᵀ)·scale
// + mask)·v for q [dk, heads, n]. Returns [heads·dv, n].
Tensor attention(Graph& g, const ForwardInputs& in, const ModelParams& hp, int64_t layer, const Tensor& q,
                 const Tensor& k, const Tensor& v, float scale, float softCap = 0.0f);

// The attention output projection wo·a. In the last layer, like llama.cpp,
// it then keeps only the rows whose logits are wanted, in the result and in
// the residual stream `residual`, so the last feed-forward block runs on
// those rows alone (llama.cpp picks its matmul kernels by batch size, so
// this is needed to match its numbers, besides saving work).
Tensor attentionOutput(Graph& g, const ForwardInputs& in, const ModelParams& hp, int64_t layer, const Tensor& wo,
                       const Tensor& a, Tensor& residual);

// Applies the final RMS norm and the LM head into in.logits (x holds only
// the wanted rows, see attentionOutput), and the final soft cap when the
// model has one.
void logits(Graph& g, const ForwardInputs& in, const ModelParams& hp, const ModelWeights& w, Tensor x);

} // namespace hearth::blocks
