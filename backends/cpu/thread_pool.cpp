#include "cpu/thread_pool.h"

#include "cpu/affinity.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define HEARTH_PAUSE() _mm_pause()
#elif defined(__aarch64__)
#define HEARTH_PAUSE() __asm__ __volatile__("yield")
#else
#define HEARTH_PAUSE() ((void)0)
#endif

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX // MinGW's C++ headers define it already
#define NOMINMAX
#endif
#include <windows.h>
#endif

namespace hearth::cpu {

namespace {
// Spins before sleeping: long enough to bridge the gap between two ops, short
// enough not to steal a busy machine's cores for long.
constexpr int kSpinIterations = 2000;

// Sleeping until an atomic changes. On Windows the OS's own address wait:
// MinGW's libstdc++ (GCC 12) implements std::atomic::wait there with a
// mutex and condition variable that can miss a notification, and the pool
// then hangs at a barrier (found running the engine under wine).
void sleepWhile(const std::atomic<uint32_t>& value, uint32_t old)
{
#ifdef _WIN32
    static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));
    while (value.load(std::memory_order_acquire) == old)
        WaitOnAddress(const_cast<std::atomic<uint32_t>*>(&value), &old, sizeof(old), INFINITE);
#else
    while (value.load(std::memory_order_acquire) == old)
        value.wait(old, std::memory_order_acquire);
#endif
}

void wakeAll(std::atomic<uint32_t>& value)
{
#ifdef _WIN32
    WakeByAddressAll(&value);
#else
    value.notify_all();
#endif
}

} // namespace

ThreadPool::ThreadPool(int threads, bool pin) : m_threads(threads < 1 ? 1 : threads), m_pin(pin)
{
    const std::vector<int> cpus = pin ? allowedCpus() : std::vector<int>{};
    m_workers.reserve(static_cast<size_t>(m_threads - 1));
    for (int i = 1; i < m_threads; ++i) {
        const int cpu = pin ? cpus[static_cast<size_t>(i) % cpus.size()] : -1;
        m_workers.emplace_back([this, i, cpu] { workerLoop(i, cpu); });
    }
}

ThreadPool::~ThreadPool()
{
    m_stop.store(true, std::memory_order_release);
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    wakeAll(m_generation);
    for (auto& t : m_workers)
        t.join();
}

void ThreadPool::waitWhile(const std::atomic<uint32_t>& value, uint32_t old)
{
    for (int i = 0; i < kSpinIterations; ++i) {
        if (value.load(std::memory_order_acquire) != old)
            return;
        HEARTH_PAUSE();
    }
    sleepWhile(value, old);
}

void ThreadPool::run(const Job& job)
{
    if (m_threads == 1) {
        job(0, 1);
        return;
    }
    m_job = &job;
    m_running.store(m_threads - 1, std::memory_order_relaxed);
    m_generation.fetch_add(1, std::memory_order_acq_rel);
    wakeAll(m_generation);
    job(0, m_threads);
    while (m_running.load(std::memory_order_acquire) != 0)
        HEARTH_PAUSE();
    m_job = nullptr;
}

void ThreadPool::barrier()
{
    if (m_threads == 1)
        return;
    const uint32_t phase = m_barrierPhase.load(std::memory_order_acquire);
    if (m_arrived.fetch_add(1, std::memory_order_acq_rel) == m_threads - 1) {
        m_arrived.store(0, std::memory_order_relaxed);
        m_barrierPhase.fetch_add(1, std::memory_order_acq_rel);
        wakeAll(m_barrierPhase);
        return;
    }
    waitWhile(m_barrierPhase, phase);
}

void ThreadPool::workerLoop(int ith, int cpu)
{
    if (cpu >= 0)
        pinCurrentThread(cpu); // best effort: an unpinned worker computes the same
    uint32_t seen = 0;
    for (;;) {
        waitWhile(m_generation, seen);
        seen = m_generation.load(std::memory_order_acquire);
        if (m_stop.load(std::memory_order_acquire))
            return;
        (*m_job)(ith, m_threads);
        m_running.fetch_sub(1, std::memory_order_acq_rel);
    }
}

} // namespace hearth::cpu
