// The two decoder blocks that several families share, each written once:
// the Llama block (llama.cpp; qwen2 and qwen3 are it with other tensors and
// rotary layout) and the Gemma block (gemma2.cpp; gemma3 is it with QK norm
// and its own sliding-window rotation). A family file states only what is
// its own and calls one of these.
#pragma once

#include "model/model.h"

namespace hearth {

struct LlamaVariant {
    RopeMode rope = RopeMode::Normal; // layout of the rotated pairs
    LayerTensors tensors;             // biases, QK norm
    bool ropeFreqs = false;           // llama3's rope_freqs.weight divisors (optional in the file)
};

std::unique_ptr<Model> createLlamaDecoder(std::shared_ptr<const gguf::File> file, Backend& backend,
                                          const LlamaVariant& variant);

struct GemmaVariant {
    bool qkNorm = false;     // attn_{q,k}_norm (Gemma 3)
    int64_t layersOf27B = 0; // the 27B model scales queries by 1/√(n_embd/heads), the others by 1/√dk
    RopeParams ropeLocal;    // the rotation of the sliding-window layers
};

// `params` as the family has completed them (window, pattern, soft caps).
std::unique_ptr<Model> createGemmaDecoder(std::shared_ptr<const gguf::File> file, ModelParams params, Backend& backend,
                                          const GemmaVariant& variant);

} // namespace hearth
