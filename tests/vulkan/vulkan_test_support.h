// Shared by the Vulkan tests: the backend on Mesa's lavapipe (or the device
// $HEARTH_VULKAN_DEVICE names), tensors copied to and from device memory,
// and the error measures the tolerances are stated in.
#pragma once

#include "backend/backend.h"
#include "vulkan/vulkan_backend.h"

#include <QTest>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace vktest {

// The device the tests run on: lavapipe unless $HEARTH_VULKAN_DEVICE says
// otherwise. Null (with `why`) when this machine has no usable Vulkan.
inline std::unique_ptr<hearth::Backend> makeBackend(std::string& why, uint64_t budget = 0)
{
    hearth::vulkan::Options o;
    const char* dev = std::getenv("HEARTH_VULKAN_DEVICE");
    o.device = dev && *dev ? dev : "llvmpipe";
    o.budgetBytes = budget;
    o.cacheDir = "-";
    try {
        return hearth::vulkan::createBackend(o);
    } catch (const std::exception& e) {
        why = std::string("no Vulkan device for the tests (install mesa-vulkan-drivers): ") + e.what();
        return nullptr;
    }
}

// A device copy of host bytes; the buffer owns it.
struct DeviceTensor {
    std::unique_ptr<hearth::Buffer> buffer;
    hearth::Tensor tensor;
};

inline DeviceTensor toDevice(hearth::Backend& b, const hearth::Tensor& host, size_t bytes = 0)
{
    if (!bytes)
        bytes = host.denseBytes();
    DeviceTensor d;
    d.buffer = b.allocate(bytes, hearth::BufferUsage::Scratch);
    if (host.data)
        b.write(*d.buffer, 0, host.data, bytes);
    else
        b.zero(*d.buffer);
    d.tensor = host;
    d.tensor.data = d.buffer->data();
    return d;
}

inline std::vector<uint8_t> fromDevice(hearth::Backend& b, const DeviceTensor& d, size_t bytes = 0)
{
    std::vector<uint8_t> out(bytes ? bytes : d.buffer->size());
    b.read(*d.buffer, 0, out.data(), out.size());
    return out;
}

// Normalized mean squared error Σ(a-b)² / Σb², as ggml's test-backend-ops.
inline double nmse(const float* a, const float* ref, size_t n)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(a[i]) - ref[i];
        num += d * d;
        den += static_cast<double>(ref[i]) * ref[i];
    }
    return den > 0 ? num / den : num;
}

} // namespace vktest

#define HEARTH_REQUIRE_VULKAN(var)                                                                                     \
    std::string var##Why;                                                                                              \
    std::unique_ptr<hearth::Backend> var = vktest::makeBackend(var##Why);                                              \
    if (!var)                                                                                                          \
    QSKIP(var##Why.c_str())
