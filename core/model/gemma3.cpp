// Gemma 3: Gemma 2's block (gemma2.cpp) with QK norm instead of attention
// soft-capping, five sliding-window layers (rotary base 10 000) for each
// global layer (the file's base and scaling), embeddings scaled by √n_embd
// and GeGLU (Gemma Team 2025). Norm weights are stored with the "+1"
// already added.
#include "model/decoders.h"

namespace hearth {

std::unique_ptr<Model> createGemma3(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    ModelParams hp = readModelParams(*file, RopeMode::Neox);
    hp.attnSoftCap = 0.0f; // QK norm takes its place
    if (hp.slidingWindow > 0) {
        setSlidingPattern(hp, 6);
        hp.ropeFreqBaseSwa = static_cast<float>(file->findFloat(hp.arch + ".rope.freq_base_swa").value_or(10000.0));
        hp.ropeFreqScaleSwa = 1.0f;
        // llama.cpp's sliding-window Gemma 3 graph has no final soft cap,
        // whatever the file says; only the all-global variant applies it.
        hp.finalSoftCap = 0.0f;
    }
    RopeParams local = hp.rope;
    local.freqBase = hp.ropeFreqBaseSwa;
    local.freqScale = hp.ropeFreqScaleSwa;
    return createGemmaDecoder(std::move(file), std::move(hp), backend,
                              {.qkNorm = true, .layersOf27B = 62, .ropeLocal = local});
}

} // namespace hearth
