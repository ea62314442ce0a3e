// Model facts and memory figures computed from a GGUF header alone (no
// tensor data touched). Used by the fake engine for load() / estimate() and
// by the model scanner; the real engine reports its own measured figures.
#pragma once

#include "engine/EngineTypes.h"

namespace hearth::gguf {
struct ModelInfo;
}

namespace HeaderFacts {

// Reads and validates the header of `path`. Throws EngineError naming the
// problem ("not a GGUF file", "tensor x out of bounds", ...).
hearth::gguf::ModelInfo readHeader(const QString& path);

// The name to show for a model: general.name (or basename, size label and
// finetune) when it says what the file name says, better spelled; the file's
// own clear name (no extension, split part or quant) when they disagree, as
// with odd training-run names ("Smollm2 135M 8k Lc100K Mix1 Ep2" for
// SmolLM2-135M-Instruct.Q4_1.gguf); general.name or the parts when the file
// name says nothing ("model.gguf", "ggml-model-q4_0.gguf").
QString displayName(const hearth::gguf::ModelInfo& info);

// Facts as a load with `contextSize` would report them (0 = trained context).
ModelFacts factsFrom(const hearth::gguf::ModelInfo& info, int contextSize);

// Bytes a load needs: weights as stored, an f16 KV cache for `contextSize`
// tokens over every layer (K and V: n_layers x n_ctx x n_kv_heads x head_dim
// x 2 bytes each), and scratch (activations for a 512-token batch plus f32
// logits for the vocabulary).
MemoryFigures memoryFor(const hearth::gguf::ModelInfo& info, int contextSize);

// memoryFor() against the memory the system reports as available.
FitEstimate estimateFor(const hearth::gguf::ModelInfo& info, int contextSize);

// The context a load uses: `requested`, or the trained context when 0, never
// more than the trained context (when the file states one).
int effectiveContext(const hearth::gguf::ModelInfo& info, int requested);

} // namespace HeaderFacts
