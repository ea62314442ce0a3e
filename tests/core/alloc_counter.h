// A counting global allocator for tests that bound memory use: include it in
// exactly one source file of a test program. operator new/delete keep a
// running total and a peak of live heap bytes (as the C library sizes the
// blocks). Where the platform cannot tell a block's size, counting is off
// and allocCountingAvailable() says so.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__GLIBC__)
#include <malloc.h>
#define HEARTH_ALLOC_SIZE(p) malloc_usable_size(p)
#elif defined(__APPLE__)
#include <malloc/malloc.h>
#define HEARTH_ALLOC_SIZE(p) malloc_size(p)
#endif

namespace alloccount {

inline std::atomic<int64_t> g_live{0};
inline std::atomic<int64_t> g_peak{0};

inline bool allocCountingAvailable()
{
#ifdef HEARTH_ALLOC_SIZE
    return true;
#else
    return false;
#endif
}

// Starts a measurement: the peak restarts from the bytes live now.
inline int64_t startMeasuring()
{
    g_peak = g_live.load();
    return g_live.load();
}

// Most bytes live at once since startMeasuring() returned `base`, above it.
inline int64_t peakSince(int64_t base)
{
    return g_peak.load() - base;
}

inline void note(void* p, int sign)
{
#ifdef HEARTH_ALLOC_SIZE
    const int64_t now = g_live += sign * static_cast<int64_t>(HEARTH_ALLOC_SIZE(p));
    int64_t peak = g_peak.load();
    while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
    }
#else
    (void)p;
    (void)sign;
#endif
}

inline void* allocate(std::size_t n)
{
    void* p = std::malloc(n ? n : 1);
    if (!p)
        throw std::bad_alloc();
    note(p, +1);
    return p;
}

inline void* allocateAligned(std::size_t n, std::align_val_t a)
{
    const auto align = static_cast<std::size_t>(a);
#ifdef _WIN32
    void* p = _aligned_malloc(n ? n : 1, align);
#else
    void* p = std::aligned_alloc(align, ((n ? n : 1) + align - 1) / align * align);
#endif
    if (!p)
        throw std::bad_alloc();
    note(p, +1);
    return p;
}

inline void release(void* p)
{
    if (!p)
        return;
    note(p, -1);
    std::free(p);
}

inline void releaseAligned(void* p)
{
    if (!p)
        return;
    note(p, -1);
#ifdef _WIN32
    _aligned_free(p);
#else
    std::free(p);
#endif
}

} // namespace alloccount

// clang-format off
void* operator new(std::size_t n) { return alloccount::allocate(n); }
void* operator new[](std::size_t n) { return alloccount::allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept
{
    try { return alloccount::allocate(n); } catch (...) { return nullptr; }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept
{
    try { return alloccount::allocate(n); } catch (...) { return nullptr; }
}
void* operator new(std::size_t n, std::align_val_t a) { return alloccount::allocateAligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return alloccount::allocateAligned(n, a); }
void operator delete(void* p) noexcept { alloccount::release(p); }
void operator delete[](void* p) noexcept { alloccount::release(p); }
void operator delete(void* p, std::size_t) noexcept { alloccount::release(p); }
void operator delete[](void* p, std::size_t) noexcept { alloccount::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { alloccount::releaseAligned(p); }
void operator delete[](void* p, std::align_val_t) noexcept { alloccount::releaseAligned(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { alloccount::releaseAligned(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { alloccount::releaseAligned(p); }
// clang-format on
