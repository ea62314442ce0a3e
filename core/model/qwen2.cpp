// Qwen2 / Qwen2.5: the Llama block (llama.cpp) with biases on the q, k, v
// projections and rotary embeddings on halves of each head (NeoX layout).
#include "model/decoders.h"

namespace hearth {

std::unique_ptr<Model> createQwen2(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return createLlamaDecoder(std::move(file), backend, {.rope = RopeMode::Neox, .tensors = {.qkvBias = true}});
}

} // namespace hearth
