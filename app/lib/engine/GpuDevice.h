// The GPU the engine would offload layers to, found once per process (the
// Vulkan driver is asked: tens of milliseconds, so AppSession starts the
// look-up on a pool thread at start-up and later readers find it done).
// Builds without the Vulkan backend, and machines without a driver or a
// GPU, get found == false and a reason.
//
// Thread-safety: any thread; the first caller waits for the look-up.
#pragma once

#include <QString>

struct GpuDevice {
    bool found = false;
    QString name;
    qint64 memoryTotal = 0, memoryFree = 0; // bytes, as the driver reported them at start-up
    QString why;                            // when !found
};

namespace GpuDevices {
const GpuDevice& chosen();
void lookUpInBackground();
} // namespace GpuDevices
