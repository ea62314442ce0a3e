// How many layers go to the GPU: the device bytes a -ngl count costs
// (weights of the offloaded layers, their KV rows, the device scratch
// area), how many fit in a device's free memory, and "auto", which takes
// as many as fit while leaving a margin free for the driver and other
// programs: 10% of the free memory, at least 64 MiB (a quarter on devices
// with less than 256 MiB free).
//
// Counts are llama.cpp's: n <= n_layer offloads the last n repeating
// layers, n_layer + 1 the output layer too.
#pragma once

#include "gguf/gguf.h"
#include "model/hparams.h"
#include "runtime/context.h"

#include <cstdint>

namespace hearth {

inline constexpr int kGpuLayersAuto = -1;

struct DeviceNeeds {
    std::vector<uint64_t> layer; // weights + KV rows of each repeating layer
    uint64_t output = 0;         // output norm and LM head (a tied head is copied)
    uint64_t outputShared = 0;   // of `output`, that copy: the host keeps its embeddings too
    uint64_t scratch = 0;        // activations and work area, whatever the count
    // Device bytes of `count` offloaded layers (0 for count 0).
    uint64_t bytesFor(int64_t count) const;
    // The largest count whose bytes plus `margin` fit in `free`.
    int64_t countThatFits(uint64_t free, uint64_t margin = 0) const;
    int64_t maxCount() const { return static_cast<int64_t>(layer.size()) + 1; }
    // Host bytes that `count` offloaded layers no longer need (their weights
    // and KV rows; the output layer's unless it is a tied head's copy).
    uint64_t hostBytesSavedBy(int64_t count) const;
};

// From the header alone. `scratch` is the context's scratch estimate.
DeviceNeeds deviceNeeds(const gguf::File& file, const ModelParams& hp, const ContextParams& params, uint64_t scratch);

uint64_t autoMargin(uint64_t freeBytes);

} // namespace hearth
