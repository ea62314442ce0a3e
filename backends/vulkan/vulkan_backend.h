// The Vulkan backend: core's Backend on any Vulkan 1.2 GPU (NVIDIA, AMD,
// Intel; Apple through MoltenVK), tested on Mesa's lavapipe. Weights of the
// offloaded layers are copied to device-local memory through staging
// buffers with progress and cancel; every op of core/backend/op.h runs as
// GLSL compute shaders embedded at build time; an op list is one command
// buffer, one submit.
//
// Nothing else of Hearth includes a Vulkan header: this is the whole API.
// Thread-safety: as backend/backend.h (one execute() at a time).
#pragma once

#include "backend/backend.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace hearth::vulkan {

struct Options {
    // "VulkanN", N, or part of a device name; "" picks the best GPU (or
    // $HEARTH_VULKAN_DEVICE). A CPU device (lavapipe) only when named.
    std::string device;
    // > 0: a cap on device memory (tests; $HEARTH_VULKAN_BUDGET_MIB).
    uint64_t budgetBytes = 0;
    // The pipeline cache's folder; "" the default (defaultCacheDir()),
    // "-" no cache on disk.
    std::string cacheDir;
    // Verbose lines (pipelines compiled or found in the cache, uploads).
    std::function<void(const std::string&)> log;
    // Tests: after this many submits the device behaves as lost
    // ($HEARTH_VULKAN_FAIL_AFTER); -1 never.
    int failAfterSubmits = -1;
};

// $HEARTH_CACHE_DIR, else $XDG_CACHE_HOME/hearth, else ~/.cache/hearth
// (%LOCALAPPDATA%\hearth on Windows, ~/Library/Caches/hearth on macOS),
// with "/vulkan" appended.
std::string defaultCacheDir();

// One line per Vulkan device for --list-devices: "Vulkan0: NAME (kind,
// N MiB, M MiB free; features)"; or a line saying why there is none.
std::vector<std::string> describeDevices();

// The device createBackend() would pick with these options, as plain data
// (for the app's settings and fit estimate). Creates and drops a Vulkan
// instance: tens of milliseconds.
struct DeviceSummary {
    bool found = false;
    std::string name;
    uint64_t memoryTotal = 0, memoryFree = 0;
    std::string why; // when !found
};
DeviceSummary chosenDevice(const std::string& wanted = {});

// The backend, or throws hearth::Error saying why there is none (no
// loader, no driver, no such device, device unusable).
std::unique_ptr<Backend> createBackend(const Options& options = {});

} // namespace hearth::vulkan
