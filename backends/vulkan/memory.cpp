#include "vulkan/memory.h"

#include "util/error.h"

#include <string>

namespace hearth::vulkan {

namespace {

std::string mib(uint64_t b)
{
    return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB";
}

} // namespace

Memory::Memory(const Device& device, uint64_t budget) : m_device(device), m_budget(budget)
{
}

uint64_t Memory::total() const
{
    return m_budget > 0 ? m_budget : m_device.totalMemory();
}

uint64_t Memory::available() const
{
    if (m_budget > 0)
        return m_budget > m_deviceBytes ? m_budget - m_deviceBytes : 0;
    return m_device.freeMemory(m_deviceBytes);
}

Allocation Memory::allocate(uint64_t bytes, MemoryKind kind)
{
    bytes = (std::max<uint64_t>(bytes, 16) + 255) / 256 * 256;
    if (kind == MemoryKind::Device && bytes > available())
        throw OutOfDeviceMemory("out of GPU memory: " + mib(bytes) + " needed, " + mib(available()) + " free on " +
                                    m_device.description().name,
                                bytes, available());
    if (bytes > m_device.maxAllocation())
        throw OutOfDeviceMemory("a GPU allocation of " + mib(bytes) + " exceeds " + m_device.description().name +
                                    "'s largest (" + mib(m_device.maxAllocation()) + ")",
                                bytes, m_device.maxAllocation());
    Allocation a;
    a.size = bytes;
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = bytes;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    check(vkCreateBuffer(m_device.handle(), &bi, nullptr, &a.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(m_device.handle(), a.buffer, &req);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int type = -1;
    switch (kind) {
    case MemoryKind::Device:
        type = m_device.memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
        break;
    case MemoryKind::Upload: type = m_device.memoryType(req.memoryTypeBits, host, 0); break;
    case MemoryKind::Download:
        type = m_device.memoryType(req.memoryTypeBits, host, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
        break;
    }
    if (type < 0) {
        vkDestroyBuffer(m_device.handle(), a.buffer, nullptr);
        throw Error("Vulkan: " + m_device.description().name + " has no suitable memory type");
    }
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = static_cast<uint32_t>(type);
    const VkResult r = vkAllocateMemory(m_device.handle(), &ai, nullptr, &a.memory);
    if (r != VK_SUCCESS) {
        vkDestroyBuffer(m_device.handle(), a.buffer, nullptr);
        if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
            throw OutOfDeviceMemory("out of GPU memory: the driver refused " + mib(bytes) + " on " +
                                        m_device.description().name,
                                    bytes, available());
        check(r, "vkAllocateMemory");
    }
    check(vkBindBufferMemory(m_device.handle(), a.buffer, a.memory, 0), "vkBindBufferMemory");
    if (kind != MemoryKind::Device) {
        void* p = nullptr;
        check(vkMapMemory(m_device.handle(), a.memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
        a.mapped = static_cast<uint8_t*>(p);
    }
    std::lock_guard lock(m_mutex);
    if (kind == MemoryKind::Device)
        m_deviceBytes += a.size;
    return a;
}

void Memory::release(Allocation& a)
{
    if (!a.buffer)
        return;
    vkDestroyBuffer(m_device.handle(), a.buffer, nullptr);
    vkFreeMemory(m_device.handle(), a.memory, nullptr);
    std::lock_guard lock(m_mutex);
    if (!a.mapped)
        m_deviceBytes -= a.size;
    a = Allocation{};
}

void Memory::addRegion(const uint8_t* base, uint64_t bytes, VkBuffer buffer, uint64_t offset)
{
    std::lock_guard lock(m_mutex);
    m_regions[base] = Region{bytes, buffer, offset};
}

void Memory::removeRegion(const uint8_t* base)
{
    std::lock_guard lock(m_mutex);
    m_regions.erase(base);
}

bool Memory::resolve(const void* address, Resolved& out) const
{
    const auto* p = static_cast<const uint8_t*>(address);
    std::lock_guard lock(m_mutex);
    auto it = m_regions.upper_bound(p);
    if (it == m_regions.begin())
        return false;
    --it;
    const auto delta = static_cast<uint64_t>(p - it->first);
    if (delta >= it->second.bytes)
        return false;
    out.buffer = it->second.buffer;
    out.offset = it->second.offset + delta;
    out.available = it->second.bytes - delta;
    return true;
}

bool Memory::owns(const void* address) const
{
    Resolved r;
    return resolve(address, r);
}

} // namespace hearth::vulkan
