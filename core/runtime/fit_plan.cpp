#include "runtime/fit_plan.h"

#include "model/model.h"
#include "runtime/memory.h"

#include <algorithm>
#include <memory>

namespace hearth {

const char* fitPlaceName(FitPlace place)
{
    switch (place) {
    case FitPlace::Gpu: return "gpu";
    case FitPlace::Split: return "split";
    case FitPlace::Ram: return "ram";
    case FitPlace::None: break;
    }
    return "none";
}

FitPlan planFit(uint64_t hostAll, const DeviceNeeds& needs, int gpuLayers, const DeviceBudget& device,
                uint64_t hostAvailable)
{
    FitPlan p;
    p.maxLayers = needs.maxCount();
    p.hostAvailable = hostAvailable;
    p.deviceFree = device.present ? device.free : 0;
    bool deviceFits = true;
    if (device.present && gpuLayers != 0) {
        if (gpuLayers < 0) {
            p.gpuLayers = needs.countThatFits(device.free, autoMargin(device.free));
        } else {
            p.gpuLayers = std::min<int64_t>(gpuLayers, p.maxLayers);
            deviceFits = needs.bytesFor(p.gpuLayers) <= device.free; // else the load refuses
        }
    }
    p.deviceBytes = needs.bytesFor(p.gpuLayers);
    const uint64_t saved = needs.hostBytesSavedBy(p.gpuLayers);
    p.hostBytes = hostAll > saved ? hostAll - saved : 0;
    if (!deviceFits || p.hostBytes > hostAvailable)
        p.place = FitPlace::None;
    else if (p.gpuLayers == 0)
        p.place = FitPlace::Ram;
    else
        p.place = p.gpuLayers == p.maxLayers ? FitPlace::Gpu : FitPlace::Split;
    return p;
}

FitPlan planFit(const gguf::File& file, Backend& host, const ContextParams& params, int gpuLayers,
                const DeviceBudget& device, uint64_t hostAvailable)
{
    const uint64_t hostAll = estimateMemory(file, host, params, 0).total();
    // The device scratch as estimateMemory() counts it for any offload.
    const uint64_t scratch = estimateMemory(file, host, params, 1).gpu.scratch;
    auto shared = std::shared_ptr<const gguf::File>(std::shared_ptr<const gguf::File>{}, &file);
    const std::unique_ptr<Model> model = Model::create(shared, host); // binds from the header; reads nothing
    const DeviceNeeds needs = deviceNeeds(file, model->params(), params, scratch);
    return planFit(hostAll, needs, gpuLayers, device, hostAvailable);
}

} // namespace hearth
