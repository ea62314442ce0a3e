#include "engine/FitEstimator.h"

#include "engine/GpuDevice.h"
#include "gauges/SystemMemory.h"
#include "ui/Format.h"

#include "cpu/cpu_backend.h"

#include <QCoreApplication>

#include <algorithm>
#include <memory>
#include <mutex>

namespace FitEstimator {

hearth::DeviceBudget deviceFor(int gpuLayers)
{
    if (gpuLayers == 0 || !GpuDevices::chosen().found)
        return {};
    return {true, uint64_t(std::max<qint64>(GpuDevices::chosen().memoryFree, 0))};
}

FitEstimate estimate(const hearth::gguf::File& file, int contextSize, int gpuLayers, const hearth::DeviceBudget& device,
                     qint64 ramAvailable)
{
    // The CPU backend only answers how it would lay weights out; one serves
    // every estimate.
    static std::mutex mutex;
    static std::unique_ptr<hearth::cpu::CpuBackend> backend;
    const std::lock_guard lock(mutex);
    if (!backend)
        backend = std::make_unique<hearth::cpu::CpuBackend>(1);
    hearth::ContextParams cp;
    cp.nCtx = contextSize; // as a load reads it: 0 is the engine's default
    const hearth::FitPlan plan =
        hearth::planFit(file, *backend, cp, gpuLayers, device, uint64_t(std::max<qint64>(ramAvailable, 0)));
    FitEstimate fit;
    fit.requiredBytes = qint64(plan.hostBytes + plan.deviceBytes);
    fit.availableBytes = qint64(plan.hostAvailable);
    fit.gpuRequiredBytes = qint64(plan.deviceBytes);
    fit.gpuAvailableBytes = qint64(plan.deviceFree);
    fit.gpuLayers = int(plan.gpuLayers);
    fit.layerCount = int(plan.maxLayers);
    return fit;
}

FitEstimate estimate(const hearth::gguf::File& file, int contextSize, int gpuLayers)
{
    return estimate(file, contextSize, gpuLayers, deviceFor(gpuLayers), SystemMemory::availableBytes());
}

qint64 roughBudget(int gpuLayers)
{
    const hearth::DeviceBudget device = deviceFor(gpuLayers);
    return std::max<qint64>(SystemMemory::availableBytes(), 0) + (device.present ? qint64(device.free) : 0);
}

static QString tr(const char* text)
{
    return QCoreApplication::translate("FitEstimator", text);
}

QString describe(const FitEstimate& fit)
{
    if (fit.requiredBytes <= 0)
        return {};
    const QString ram = Format::bytes(fit.ramRequiredBytes());
    const QString ramFree = Format::bytes(fit.availableBytes);
    const QString gpu = Format::bytes(fit.gpuRequiredBytes);
    const QString gpuFree = Format::bytes(fit.gpuAvailableBytes);
    switch (fit.place()) {
    case FitEstimate::Place::Gpu: return tr("on the GPU, %1 of %2 free there (%3 in RAM)").arg(gpu, gpuFree, ram);
    case FitEstimate::Place::Split:
        return tr("%1 of %2 layers on the GPU (%3 of %4 free there), the rest in RAM (%5 of %6 available)")
            .arg(fit.gpuLayers)
            .arg(fit.layerCount)
            .arg(gpu, gpuFree, ram, ramFree);
    case FitEstimate::Place::Ram: return tr("in RAM, needs %1 of %2 available").arg(ram, ramFree);
    case FitEstimate::Place::None: break;
    }
    if (fit.gpuRequiredBytes > fit.gpuAvailableBytes)
        return tr("%1 layers need %2 on the GPU, %3 free there").arg(fit.gpuLayers).arg(gpu, gpuFree);
    return tr("needs %1 of %2 available in RAM").arg(ram, ramFree);
}

QString placeName(const FitEstimate& fit)
{
    switch (fit.place()) {
    case FitEstimate::Place::Gpu: return QStringLiteral("gpu");
    case FitEstimate::Place::Split: return QStringLiteral("split");
    case FitEstimate::Place::Ram: return QStringLiteral("ram");
    case FitEstimate::Place::None: break;
    }
    return QStringLiteral("none");
}

} // namespace FitEstimator
