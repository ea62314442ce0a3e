#include "engine/GpuDevice.h"

#include <QThreadPool>

#include <mutex>

#if defined(HEARTH_HAVE_VULKAN)
#include "vulkan/vulkan_backend.h"
#endif

namespace GpuDevices {

const GpuDevice& chosen()
{
    static std::once_flag once;
    static GpuDevice device;
    std::call_once(once, [] {
#if defined(HEARTH_HAVE_VULKAN)
        const hearth::vulkan::DeviceSummary s = hearth::vulkan::chosenDevice();
        device.found = s.found;
        device.name = QString::fromStdString(s.name);
        device.memoryTotal = qint64(s.memoryTotal);
        device.memoryFree = qint64(s.memoryFree);
        device.why = QString::fromStdString(s.why);
#else
        device.why = QStringLiteral("this build has no GPU backend");
#endif
    });
    return device;
}

void lookUpInBackground()
{
    QThreadPool::globalInstance()->start([] { chosen(); });
}

} // namespace GpuDevices
