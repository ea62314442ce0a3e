// Memory accounting: what a model and a context take, by kind and by
// backend, and the same figures estimated from a GGUF header alone so the
// app can say "this will fit" before loading anything.
//
//   weights  the tensor data (read in place from the mapped file on the CPU;
//            "resident" is how much of it is in RAM now)
//   kv       the KV cache (n_ctx cells, per layer K and V rows)
//   scratch  activations of the largest batch, the backend's work area and
//            one row of logits
#pragma once

#include "backend/backend.h"
#include "gguf/gguf.h"
#include "runtime/context.h"

#include <cstdint>

namespace hearth {

struct BackendMemory {
    uint64_t weights = 0;
    uint64_t kv = 0;
    uint64_t scratch = 0;
    uint64_t total() const { return weights + kv + scratch; }
};

struct MemoryEstimate {
    BackendMemory cpu;
    BackendMemory gpu; // layers offloaded with nGpuLayers (-ngl's count; > n_layer: the output layer too)
    uint64_t total() const { return cpu.total() + gpu.total(); }
};

// From the header of `file` (no tensor data is read): the figures a Context
// with these parameters on `backend` would report. nGpuLayers counts layers
// from the last one down (as llama.cpp offloads them); their weights and KV
// rows are put in the gpu bucket.
MemoryEstimate estimateMemory(const gguf::File& file, Backend& backend, const ContextParams& params,
                              int nGpuLayers = 0);

// Convenience: opens `path` (header only).
MemoryEstimate estimateMemory(const std::string& path, Backend& backend, const ContextParams& params,
                              int nGpuLayers = 0);

} // namespace hearth
