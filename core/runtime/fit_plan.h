// "Will it fit, and where", from a GGUF header alone: how many layers a
// load would put on the GPU (as LoadedModel decides: -ngl auto takes as many
// as fit in the device's free memory less autoMargin(); an explicit count
// that does not fit is refused, so it does not fit), what that leaves in
// RAM, and the verdict the model picker shows.
//
//   device bytes = bytesFor(count): the offloaded layers' weights and KV
//                  rows, the output layer when count > n_layer, the device
//                  scratch area
//   host bytes   = the CPU-only figure (weights + KV + scratch) less
//                  hostBytesSavedBy(count)
//
// Pure arithmetic over DeviceNeeds and two budgets, so it is tested with
// synthetic devices; planFit(file, ...) feeds it a real header.
#pragma once

#include "backend/backend.h"
#include "gguf/gguf.h"
#include "runtime/context.h"
#include "runtime/gpu_layers.h"

#include <cstdint>

namespace hearth {

enum class FitPlace {
    Gpu,   // every layer, the output layer too, on the GPU
    Split, // some layers on the GPU, the rest in RAM
    Ram,   // nothing offloaded (no device, or -ngl 0)
    None,  // does not fit: RAM, or the device for an explicit -ngl
};

const char* fitPlaceName(FitPlace place); // "gpu", "split", "ram", "none"

// The device a load would use; present == false: none (or no GPU backend).
struct DeviceBudget {
    bool present = false;
    uint64_t free = 0; // bytes, as the driver reports them
};

struct FitPlan {
    FitPlace place = FitPlace::None;
    int64_t gpuLayers = 0; // layers offloaded, as -ngl counts them
    int64_t maxLayers = 0; // n_layer + 1 (the output layer)
    uint64_t hostBytes = 0, hostAvailable = 0;
    uint64_t deviceBytes = 0, deviceFree = 0;
};

// `hostAll`: RAM bytes with nothing offloaded (estimateMemory(..., 0)).
// `gpuLayers`: the -ngl setting, kGpuLayersAuto for as many as fit.
FitPlan planFit(uint64_t hostAll, const DeviceNeeds& needs, int gpuLayers, const DeviceBudget& device,
                uint64_t hostAvailable);

// The same for the model in `file` with a context of `params` on `host`.
FitPlan planFit(const gguf::File& file, Backend& host, const ContextParams& params, int gpuLayers,
                const DeviceBudget& device, uint64_t hostAvailable);

} // namespace hearth
