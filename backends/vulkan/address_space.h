// Addresses for device memory: a range of the process's address space,
// reserved (no memory behind it, never dereferenced) so that tensors over
// device buffers have unique pointers that no host allocation can share.
// Views and the graph allocator then work on them unchanged, and a host
// access by mistake faults at once instead of reading garbage.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hearth::vulkan {

class AddressRange {
public:
    explicit AddressRange(size_t bytes); // throws hearth::Error when the OS refuses
    ~AddressRange();
    AddressRange(const AddressRange&) = delete;
    AddressRange& operator=(const AddressRange&) = delete;

    uint8_t* base() const { return m_base; }
    size_t size() const { return m_size; }

private:
    uint8_t* m_base = nullptr;
    size_t m_size = 0;
};

} // namespace hearth::vulkan
