// The Vulkan instance, the device list and the one device a backend uses:
// its queue, limits, memory types and budget. Device choice: the name or
// "VulkanN" index asked for (options, else $HEARTH_VULKAN_DEVICE), else the
// best real GPU: discrete > integrated > other. A CPU implementation
// (Mesa's lavapipe) is used only when asked for by name or index.
//
// Thread-safety: immutable after construction except the budget query.
#pragma once

#include "backend/backend.h"
#include "vulkan/vk.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hearth::vulkan {

// One Vulkan physical device as --list-devices shows it.
struct DeviceDescription {
    int index = 0;    // "Vulkan<index>"
    std::string name; // the driver's device name
    DeviceKind kind = DeviceKind::OtherGpu;
    uint64_t memoryTotal = 0, memoryFree = 0;
    std::string features; // "fp16 int-dot subgroup=8 ..." and the driver
    bool usable = true;
    std::string whyNot; // when !usable: what it lacks
};

struct DeviceList {
    std::vector<DeviceDescription> devices;
    std::string error; // no loader, no driver: why the list is empty
};

// Every Vulkan device of this machine (creates and drops an instance).
DeviceList listDevices();
// The index of the device `wanted` names (or $HEARTH_VULKAN_DEVICE, or the
// best real GPU when both are empty), -1 with `why` when there is none.
int chooseDevice(const std::vector<DeviceDescription>& all, const std::string& wanted, std::string& why);

class Device {
public:
    // Throws hearth::Error naming what is missing (no loader, no driver, no
    // such device, a device without 16-bit storage).
    explicit Device(const std::string& wanted);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkDevice handle() const { return m_device; }
    VkPhysicalDevice physical() const { return m_physical; }
    VkQueue queue() const { return m_queue; }
    uint32_t queueFamily() const { return m_queueFamily; }
    const VkPhysicalDeviceProperties& properties() const { return m_props; }
    const DeviceDescription& description() const { return m_desc; }
    uint64_t maxAllocation() const { return m_maxAllocation; }
    uint64_t maxStorageRange() const { return m_props.limits.maxStorageBufferRange; }
    uint64_t storageAlignment() const { return m_props.limits.minStorageBufferOffsetAlignment; }
    bool hasFeedback() const { return m_feedback; }
    // Device-local memory still free: the driver's budget with
    // VK_EXT_memory_budget, else the heap size (capped by the host's free
    // memory on unified-memory devices) less what this process allocated.
    uint64_t freeMemory(uint64_t allocatedHere) const;
    uint64_t totalMemory() const { return m_desc.memoryTotal; }
    // A memory type with all of `required` (and `preferred` when possible)
    // among `typeBits`; -1 when none.
    int memoryType(uint32_t typeBits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const;

private:
    VkInstance m_instance = VK_NULL_HANDLE;
    VkPhysicalDevice m_physical = VK_NULL_HANDLE;
    VkDevice m_device = VK_NULL_HANDLE;
    VkQueue m_queue = VK_NULL_HANDLE;
    uint32_t m_queueFamily = 0;
    VkPhysicalDeviceProperties m_props{};
    VkPhysicalDeviceMemoryProperties m_memory{};
    DeviceDescription m_desc;
    uint64_t m_maxAllocation = 0;
    bool m_budget = false, m_feedback = false;
    int m_localHeap = 0;
};

} // namespace hearth::vulkan
