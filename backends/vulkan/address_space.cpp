#include "vulkan/address_space.h"

#include "util/error.h"

#include <string>

#if defined(_WIN32)
#include <windows.h>
#else
#include <sys/mman.h>
#endif

namespace hearth::vulkan {

AddressRange::AddressRange(size_t bytes) : m_size(bytes < 64 ? 64 : bytes)
{
#if defined(_WIN32)
    m_base = static_cast<uint8_t*>(VirtualAlloc(nullptr, m_size, MEM_RESERVE, PAGE_NOACCESS));
    if (!m_base)
#else
    void* p = mmap(nullptr, m_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    m_base = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
    if (!m_base)
#endif
        throw Error("cannot reserve " + std::to_string(m_size) + " bytes of address space for GPU memory");
}

AddressRange::~AddressRange()
{
#if defined(_WIN32)
    VirtualFree(m_base, 0, MEM_RELEASE);
#else
    munmap(m_base, m_size);
#endif
}

} // namespace hearth::vulkan
