// The Vulkan API for this folder only (no other part of Hearth includes a
// Vulkan header): volk loads the loader at run time, so a machine without
// one still runs Hearth on the CPU. Errors become hearth::Error naming the
// call; VK_ERROR_DEVICE_LOST becomes hearth::DeviceLost and
// VK_ERROR_OUT_OF_DEVICE_MEMORY hearth::OutOfDeviceMemory.
#pragma once

#include <volk.h>

#include <string>

namespace hearth::vulkan {

const char* resultName(VkResult r);
// Throws for anything but VK_SUCCESS (and VK_INCOMPLETE).
void check(VkResult r, const char* what);

} // namespace hearth::vulkan
