// Layer placement: which backend holds each layer's weights and KV rows and
// runs its ops. The host backend (the CPU) always takes the input layer
// (token embeddings: there is little to gain on a GPU, as llama.cpp finds);
// a device backend, when there is one, takes the last `deviceLayers`
// repeating layers and, when asked, the output layer (final norm and LM
// head). `-ngl N` counts as llama.cpp counts it: N <= n_layer offloads the
// last N repeating layers, N > n_layer the output layer too.
//
// Layers are numbered as Op::layer: -1 input, 0..n_layer-1 repeating,
// n_layer output. Plain data; the backends must outlive every user.
#pragma once

#include "backend/backend.h"

#include <cstdint>

namespace hearth {

struct Placement {
    Backend* host = nullptr;
    Backend* device = nullptr; // null: everything on the host
    int64_t nLayer = 0;
    int64_t deviceLayers = 0; // repeating layers [nLayer - deviceLayers, nLayer) on the device
    bool outputOnDevice = false;

    bool onDevice(int64_t layer) const
    {
        if (!device || layer < 0)
            return false;
        if (layer >= nLayer)
            return outputOnDevice;
        return layer >= nLayer - deviceLayers;
    }
    Backend& backendFor(int64_t layer) const { return onDevice(layer) ? *device : *host; }
    bool usesDevice() const { return device && (deviceLayers > 0 || outputOnDevice); }
    // The llama.cpp count: repeating layers offloaded plus 1 for the output.
    int64_t gpuLayers() const { return device ? deviceLayers + (outputOnDevice ? 1 : 0) : 0; }

    static Placement hostOnly(Backend& host, int64_t nLayer = 0) { return Placement{&host, nullptr, nLayer, 0, false}; }
    // -ngl N on a model of nLayer repeating layers (N < 0 is not "auto"
    // here: callers resolve auto first; see runtime/placement_plan.h).
    static Placement fromGpuLayers(Backend& host, Backend* device, int64_t nLayer, int64_t nGpuLayers)
    {
        Placement p{&host, device, nLayer, 0, false};
        if (!device || nGpuLayers <= 0)
            return p;
        p.deviceLayers = nGpuLayers < nLayer ? nGpuLayers : nLayer;
        p.outputOnDevice = nGpuLayers > nLayer;
        return p;
    }
};

} // namespace hearth
