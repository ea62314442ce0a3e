// Hyperparameters of a transformer read from GGUF metadata (the
// "{arch}.*" keys), validated so that no later step can index out of range
// or allocate absurd sizes on a hostile file.
#pragma once

#include "backend/op.h"
#include "gguf/gguf.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hearth {

enum class RopeScaling : uint8_t {
    None,
    Linear,
    Yarn,
    LongRope,
};

struct ModelParams {
    std::string arch;   // general.architecture
    int64_t nVocab = 0; // rows of token_embd
    int64_t nCtxTrain = 0;
    int64_t nEmbd = 0;
    int64_t nLayer = 0;
    int64_t nFf = 0;   // largest layer's feed-forward width
    int64_t nHead = 0; // largest over layers
    int64_t nHeadKv = 0;
    std::vector<int32_t> headsPerLayer, kvHeadsPerLayer;
    int64_t headDimK = 0, headDimV = 0;
    float rmsEps = 1e-5f;

    RopeParams rope; // for full-attention layers
    RopeScaling ropeScaling = RopeScaling::None;
    float ropeFreqBaseSwa = 0.0f, ropeFreqScaleSwa = 1.0f; // sliding layers (gemma3)

    int32_t slidingWindow = 0;      // positions, 0 when no layer slides
    std::vector<uint8_t> swaLayers; // 1 for sliding-window layers
    float attnSoftCap = 0.0f;       // gemma2
    float finalSoftCap = 0.0f;      // gemma2 (and gemma3 without sliding window, when the file asks)

    // Encoders (bert): LayerNorm epsilon, whether attention is causal, the
    // pooling of sentence embeddings ({arch}.pooling_type as llama.cpp:
    // 0 none, 1 mean, 2 cls, 3 last token).
    float normEps = 1e-12f;
    bool causal = true;
    int32_t pooling = 0;

    int32_t kvHeads(int64_t layer) const { return kvHeadsPerLayer[static_cast<size_t>(layer)]; }
    int32_t heads(int64_t layer) const { return headsPerLayer[static_cast<size_t>(layer)]; }
    bool isSwa(int64_t layer) const { return !swaLayers.empty() && swaLayers[static_cast<size_t>(layer)] != 0; }
    // Width of one layer's K / V rows in the cache.
    int64_t kvWidthK(int64_t layer) const { return headDimK * kvHeads(layer); }
    int64_t kvWidthV(int64_t layer) const { return headDimV * kvHeads(layer); }
};

// Reads the keys common to every supported family. `ropeMode` is the
// family's rotation layout. Throws hearth::Error naming the file and key.
ModelParams readModelParams(const gguf::File& file, RopeMode ropeMode);

// Marks every `period`-th layer (the last of each group) as full attention
// and the others as sliding (llama.cpp's swa pattern).
void setSlidingPattern(ModelParams& p, int period);

} // namespace hearth
