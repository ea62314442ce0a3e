#include "runtime/memory.h"

#include "kv/kv_cache.h"
#include "model/model.h"

#include <algorithm>
#include <memory>
#include <string>

namespace hearth {

namespace {

// Weight bytes of one layer ("blk.N.*" tensors).
uint64_t layerWeightBytes(const gguf::File& file, int64_t layer)
{
    const std::string prefix = "blk." + std::to_string(layer) + ".";
    uint64_t n = 0;
    for (const auto& t : file.tensors())
        if (t.name.substr(0, prefix.size()) == prefix)
            n += t.bytes;
    return n;
}

} // namespace

MemoryEstimate estimateMemory(const gguf::File& file, Backend& backend, const ContextParams& params, int nGpuLayers)
{
    // Model::create binds tensors from the header only; nothing is read.
    auto shared = std::shared_ptr<const gguf::File>(std::shared_ptr<const gguf::File>{}, &file);
    std::unique_ptr<Model> model = Model::create(shared, backend);
    const ModelParams& hp = model->params();
    ContextParams p = params;
    if (p.nCtx <= 0)
        p.nCtx = defaultContextSize(hp);

    MemoryEstimate e;
    uint64_t weights = 0;
    for (const auto& t : file.tensors())
        weights += t.bytes;
    const int64_t offloaded = std::clamp<int64_t>(nGpuLayers, 0, hp.nLayer);
    uint64_t gpuWeights = 0;
    for (int64_t l = hp.nLayer - offloaded; l < hp.nLayer; ++l)
        gpuWeights += layerWeightBytes(file, l);
    const uint64_t kv = KvCache::bytesFor(hp, p.nCtx, p.kvType);
    const uint64_t gpuKv = hp.nLayer > 0 ? kv / static_cast<uint64_t>(hp.nLayer) * static_cast<uint64_t>(offloaded) : 0;
    uint64_t outputCopy = 0; // a tied LM head on the GPU is a copy of the host's embeddings
    if (nGpuLayers > hp.nLayer) {
        for (const char* name : {"output.weight", "output_norm.weight"})
            if (const gguf::TensorInfo* t = file.findTensor(name))
                gpuWeights += t->bytes;
        if (!file.findTensor("output.weight"))
            if (const gguf::TensorInfo* t = file.findTensor("token_embd.weight"))
                outputCopy = t->bytes;
    }
    e.cpu.weights = weights - gpuWeights;
    e.gpu.weights = gpuWeights + outputCopy;
    e.cpu.kv = kv - gpuKv;
    e.gpu.kv = gpuKv;
    e.cpu.scratch = Context::scratchBytesFor(*model, backend, p);
    if (nGpuLayers > 0) // the device's activations, work area and a batch of logits (loaded_model.cpp)
        e.gpu.scratch = 2 * e.cpu.scratch + static_cast<uint64_t>(hp.nVocab) *
                                                static_cast<uint64_t>(std::clamp<int64_t>(p.nBatch, 1, p.nCtx)) *
                                                sizeof(float);
    return e;
}

MemoryEstimate estimateMemory(const std::string& path, Backend& backend, const ContextParams& params, int nGpuLayers)
{
    const gguf::File file(path);
    return estimateMemory(file, backend, params, nGpuLayers);
}

} // namespace hearth
