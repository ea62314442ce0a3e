// Where a model would go on this machine, from its GGUF header alone: the
// fit plan of core/runtime (the layers a load with this -ngl setting would
// put on the GPU, what stays in RAM) against the chosen GPU's free memory and
// the RAM available now. The installed-model picker (CoreEngine::estimate),
// the Get models page and `hearth pull` all ask here, so they agree.
//
// Thread-safety: any thread (the estimate backend is shared under a mutex).
#pragma once

#include "engine/EngineTypes.h"
#include "runtime/fit_plan.h"

#include <QString>

namespace FitEstimator {

// The device a load with `gpuLayers` would use: none for 0, or when no GPU
// was found (GpuDevices::chosen()).
hearth::DeviceBudget deviceFor(int gpuLayers);

// The plan for `file` with a context of `contextSize` tokens, as a load
// reads it (0: the engine's default). Throws hearth::Error when the engine cannot place the model (an
// architecture it does not run, a tensor missing from the header).
FitEstimate estimate(const hearth::gguf::File& file, int contextSize, int gpuLayers, const hearth::DeviceBudget& device,
                     qint64 ramAvailable);
// The same against this machine now.
FitEstimate estimate(const hearth::gguf::File& file, int contextSize, int gpuLayers);

// Bytes a model of `fileBytes` may roughly take before its header is read
// (a list of quants): the RAM available now plus, when `gpuLayers` offloads
// and a GPU was found, that GPU's free memory.
qint64 roughBudget(int gpuLayers);

// What the pickers say: "on the GPU, ...", "12 of 31 layers on the GPU ...",
// "in RAM, needs ...", or what does not fit.
QString describe(const FitEstimate& fit);

// "gpu", "split", "ram" or "none".
QString placeName(const FitEstimate& fit);

} // namespace FitEstimator
