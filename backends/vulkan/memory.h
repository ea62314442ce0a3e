// Device memory: allocations (a VkBuffer over its own VkDeviceMemory), the
// registry that turns a tensor's address (address_space.h) back into a
// buffer and offset, and the budget every allocation is checked against.
//
// Weights are device-local; staging and host-input buffers host-visible
// (and host-cached for downloads where the device has such memory).
// Thread-safety: allocation and the registry are guarded by a mutex
// (buffers may be made and dropped from any thread); resolve() is called
// by execute() only.
#pragma once

#include "vulkan/device.h"

#include <cstdint>
#include <map>
#include <mutex>

namespace hearth::vulkan {

enum class MemoryKind : uint8_t {
    Device,   // device-local
    Upload,   // host-visible, written by the host
    Download, // host-visible, read by the host (cached where possible)
};

struct Allocation {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint64_t size = 0;
    uint8_t* mapped = nullptr; // host-visible kinds
};

struct Resolved {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint64_t offset = 0;    // of the address in the buffer
    uint64_t available = 0; // bytes from there to the buffer's end
};

class Memory {
public:
    // budget > 0 caps this process's device-local allocations (tests force
    // a small one); else the device's own free memory is the limit.
    Memory(const Device& device, uint64_t budget);

    // Throws OutOfDeviceMemory naming the size and what is left.
    Allocation allocate(uint64_t bytes, MemoryKind kind);
    void release(Allocation& a);

    // Registers [base, base + bytes) as `buffer` from `offset` on.
    void addRegion(const uint8_t* base, uint64_t bytes, VkBuffer buffer, uint64_t offset);
    void removeRegion(const uint8_t* base);
    bool resolve(const void* address, Resolved& out) const;
    bool owns(const void* address) const;

    uint64_t deviceBytes() const { return m_deviceBytes; }
    // What is left for device-local allocations.
    uint64_t available() const;
    uint64_t total() const;

private:
    struct Region {
        uint64_t bytes;
        VkBuffer buffer;
        uint64_t offset;
    };
    const Device& m_device;
    uint64_t m_budget;
    uint64_t m_deviceBytes = 0;
    mutable std::mutex m_mutex;
    std::map<const uint8_t*, Region> m_regions;
};

} // namespace hearth::vulkan
