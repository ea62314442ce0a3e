// Which type each tensor of a model becomes when it is quantized to a mix
// ("Q4_K_M", "IQ4_XS", ...): llama.cpp's llama-quantize rules without an
// importance matrix (src/llama-quant.cpp, llama_tensor_get_type and its
// helpers), so that `hearth quantize` writes the same per-tensor types.
//
// The rules, in the order they apply:
//   - only tensors of 2 or more dimensions whose names end in "weight" are
//     converted, never norms, expert gates (ffn_gate_inp), position
//     embeddings, token types, and a few small per-architecture tensors;
//     "output.weight" stays as it is with leaveOutputTensor;
//   - a mix's default type (Q4_K for Q4_K_M) is adjusted per tensor unless
//     `pure`: the output tensor (and token_embd when the embeddings are tied)
//     becomes Q6_K (Q8_0 when its rows are not a multiple of the block);
//     attn_v / ffn_down of some layers get more bits (use_more_bits: the
//     first and last eighth and every third layer between); GQA models (>= 4
//     query heads per KV head) and 8-expert models bump attn_v; and so on,
//     per mix, as in llama.cpp;
//   - a tensor whose rows are not a multiple of the chosen type's block falls
//     back: IQ4_XS -> IQ4_NL, Q2_K/Q3_K -> Q4_0, Q4_K -> Q5_0, Q5_K -> Q5_1,
//     Q6_K -> Q8_0, then F16 if even that does not divide (a 32-block type
//     such as Q8_0 on rows of 40 goes to F16 directly).
// Counters (the i-th attn_v, the i-th ffn_down) run over the tensors in
// llama.cpp's order: by layer number ("blk.N."; others first), then by name.
//
// Pure functions; thread-safe.
#pragma once

#include "quant/types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::quantize {

// llama.cpp's llama_ftype values (general.file_type) for the mixes Hearth
// writes. Values must never change.
enum class Mix : uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q8_0 = 7,
    Q5_0 = 8,
    Q5_1 = 9,
    Q2_K = 10,
    Q3_K_S = 11,
    Q3_K_M = 12,
    Q3_K_L = 13,
    Q4_K_S = 14,
    Q4_K_M = 15,
    Q5_K_S = 16,
    Q5_K_M = 17,
    Q6_K = 18,
    IQ4_NL = 25,
    IQ4_XS = 30,
    BF16 = 32,
};

struct MixInfo {
    Mix mix;
    std::string_view name;    // llama-quantize's spelling: "Q4_K_M"
    GgmlType defaultType;     // what most weights become
    std::string_view summary; // llama-quantize's one-line description
};

// Every mix, in llama-quantize's listing order.
const std::vector<MixInfo>& allMixes();
const MixInfo& mixInfo(Mix mix);
// A mix by name, case-insensitively, with llama-quantize's aliases (Q3_K =
// Q3_K_M, Q4_K = Q4_K_M, Q5_K = Q5_K_M) and its numeric ids ("15").
std::optional<Mix> parseMix(std::string_view name);
// "Q4_0, Q4_1, ..." for error messages and --help.
std::string mixNames();

// What the rules read from the model's metadata.
struct ModelShape {
    std::string architecture; // general.architecture
    int nLayer = 0;           // {arch}.block_count
    int nHead = 0;            // {arch}.attention.head_count (layer 0's)
    int nHeadKv = 0;          // {arch}.attention.head_count_kv (layer 0's; nHead if absent)
    int nExpert = 0;          // {arch}.expert_count (0 if absent)
    // GQA factor as llama.cpp's hparams.n_gqa(): nHead / nHeadKv, 0 without heads.
    int gqa() const { return nHeadKv > 0 ? nHead / nHeadKv : 0; }
};

struct PolicyOptions {
    Mix mix = Mix::Q8_0;
    bool leaveOutputTensor = false; // keep output.weight's type
    bool pure = false;              // the default type for every tensor (fallbacks still apply)
};

struct TensorShape {
    std::string name;
    GgmlType type = GgmlType::F32;
    std::array<int64_t, 4> ne{1, 1, 1, 1};
};

// Dimensions as ggml_n_dims counts them: trailing dimensions of 1 do not count.
int countDims(const std::array<int64_t, 4>& ne);

// llama.cpp's processing order: by layer ("blk.N."; -1 for others), then name.
bool tensorOrderLess(std::string_view a, std::string_view b);

struct TensorPlan {
    GgmlType type;         // the type it is written in
    bool fallback = false; // its rows did not fit the type the rules chose
};

// The type of every tensor (given in tensorOrderLess order), or a
// hearth::Error naming the tensor that no type fits.
std::vector<TensorPlan> planTypes(const ModelShape& model, const std::vector<TensorShape>& tensors,
                                  const PolicyOptions& options);

} // namespace hearth::quantize
