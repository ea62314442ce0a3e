// Qwen3 (dense): the Llama block (llama.cpp) with RMSNorm applied to each
// head of q and k before the rotation (QK norm), NeoX rotary layout, no
// projection biases.
#include "model/decoders.h"

namespace hearth {

std::unique_ptr<Model> createQwen3(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return createLlamaDecoder(std::move(file), backend, {.rope = RopeMode::Neox, .tensors = {.qkNorm = true}});
}

} // namespace hearth
