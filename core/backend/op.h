// The op list: what a model's forward pass records and a backend executes in
// one go. A model never computes anything itself; it appends ops that read
// and write tensors, and the backend runs the whole list (the CPU backend in
// one dispatch of its thread pool, workers meeting at a barrier between ops).
//
// Every op states its shapes below. "n" is the number of tokens in the
// batch; activations are f32 and dense unless a view says otherwise.
#pragma once

#include "backend/tensor.h"

#include <cstdint>
#include <vector>

namespace hearth {

enum class OpKind : uint8_t {
    GetRows,   // dst [e, n] f32 = rows ids[0..n) of src0 [e, rows] (any type, dequantized)
    RmsNorm,   // dst [e, n] = src0 / sqrt(mean(src0²) + eps) * src1 [e] (src1 optional)
    Add,       // dst = src0 + src1; src1 same shape or one row [e] broadcast
    Mul,       // dst = src0 * src1; src1 same shape or one row [e] broadcast
    Scale,     // dst = src0 * scale
    SoftCap,   // dst = cap * tanh(src0 / cap)
    MatMul,    // dst [out, n] = src0 [in, out] (weights, any type) · src1 [in, n]
    Rope,      // dst [d, heads, n] = src0 [d, heads, n] rotated by the positions
    SwiGlu,    // dst = silu(src0) * src1, same shapes
    GeGlu,     // dst = gelu_tanh(src0) * src1, same shapes
    StoreRows, // rows slots[i] of dst (a KV cache tensor, f16 / q8_0) = src0 [e, n] column i
    Attention, // dst [dv * heads, n] = softmax(q·Kᵀ·scale, masked) · V over the KV cells
    RopeShift, // rows of dst (a K cache [dk * kvHeads, cells]) rotated in place by ids[cell]
               // positions (0: untouched); attn.headDimK gives dk
    Copy,      // dst = src0, byte for byte (I8 [bytes] each): moves a tensor between host and device
               // memory at a CPU/GPU split (runtime/scheduler.h); run by the device backend
    Norm,      // dst [e, n] = (src0 - mean) / sqrt(var + eps) * src1 [e] + src2 [e] (LayerNorm; src1, src2
               // optional): BERT
    Gelu,      // dst = 0.5·x·(1 + erf(x/√2)), the exact GELU of BERT, same shape
};

const char* opName(OpKind kind);

enum class RopeMode : uint8_t {
    Normal, // rotate adjacent pairs (x[2i], x[2i+1]): llama, mistral
    Neox,   // rotate halves (x[i], x[i + d/2]): qwen, gemma, phi3
};

// Rotary position embedding, as ggml's rope_ext computes it (YaRN included).
struct RopeParams {
    RopeMode mode = RopeMode::Normal;
    int nRot = 0; // leading dims of each head that rotate (even)
    float freqBase = 10000.0f;
    float freqScale = 1.0f;  // 1 / linear scaling factor
    float extFactor = 0.0f;  // YaRN extrapolation mix (0: off)
    float attnFactor = 1.0f; // magnitude scale
    float betaFast = 32.0f, betaSlow = 1.0f;
    int nCtxOrig = 0;                   // training context (YaRN ramp)
    const float* freqFactors = nullptr; // [nRot/2] per-dimension divisors (llama3, longrope), or null
};

// Which KV cells a token may attend to: same sequence, not in its future,
// and, for sliding-window layers, fewer than `window` positions behind it.
struct AttentionMask {
    int nCells = 0;                     // cells [0, nCells) are scanned
    const int32_t* cellPos = nullptr;   // [nCells] position of each cell, -1 when empty
    const uint64_t* cellSeqs = nullptr; // [nCells] bit s set when sequence s uses the cell
    const int32_t* tokenPos = nullptr;  // [n] position of each query token
    const int32_t* tokenSeq = nullptr;  // [n] sequence of each query token
};

struct AttentionParams {
    int nHead = 0, nHeadKv = 0;
    int headDimK = 0, headDimV = 0;
    float scale = 1.0f;   // applied to q·k before the cap and the mask
    float softCap = 0.0f; // gemma2: cap * tanh(s / cap) (0: off)
    int window = 0;       // sliding window in positions (0: full attention)
    AttentionMask mask;
};

struct Op {
    OpKind kind = OpKind::Add;
    Tensor dst;
    Tensor src[3];
    float scalar = 0.0f;          // RmsNorm / Norm eps, Scale factor, SoftCap cap
    const int32_t* ids = nullptr; // GetRows row ids, Rope positions, StoreRows slots, RopeShift deltas
    RopeParams rope;              // Rope, RopeShift
    AttentionParams attn;         // Attention (src0 = q [dk, heads, n], src1 = K cache, src2 = V cache)
    // The layer the op belongs to (Graph::setLayer): -1 the input (token
    // embeddings), 0..n_layer-1 the repeating layers, n_layer the output
    // (final norm and LM head). Layer placement (backend/placement.h)
    // decides by it which backend runs the op.
    int layer = -1;
};

// An op list with the host arrays its ops point to. Built by the graph
// recorder; valid until the recorder starts the next call.
struct OpList {
    std::vector<Op> ops;
};

} // namespace hearth
