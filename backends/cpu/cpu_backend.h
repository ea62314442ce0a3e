// The CPU backend: runs op lists on a persistent thread pool with kernels
// chosen per tensor type and per ISA (cpu_features.h). Weights are read in
// place from the mapped model file; buffers are aligned host memory.
//
// Thread-safety: see backend/backend.h (one execute() at a time).
#pragma once

#include "backend/backend.h"
#include "cpu/thread_pool.h"

#include <array>
#include <atomic>
#include <memory>
#include <vector>

namespace hearth::cpu {

class CpuBackend final : public Backend {
public:
    // threads <= 0: one per processor this process may use (at least 1).
    // pinThreads: each worker stays on one processor (see ThreadPool).
    explicit CpuBackend(int threads = 0, bool pinThreads = false);
    ~CpuBackend() override;

    const DeviceInfo& device() const override { return m_device; }
    std::unique_ptr<Buffer> allocate(size_t bytes, BufferUsage usage) override;
    bool supports(const Op& op) const override;
    size_t workBytes(const OpList& ops) const override;
    void reserveWork(size_t bytes) override;
    bool execute(const OpList& ops, const ExecuteOptions& options) override;
    int threads() const override { return m_pool->size(); }
    void setThreads(int n) override;
    size_t allocatedBytes(BufferUsage usage) const override;

    // Called by the buffers this backend made.
    void release(BufferUsage usage, size_t bytes);

private:
    void describe();

    bool m_pinThreads;

    DeviceInfo m_device;
    std::unique_ptr<ThreadPool> m_pool;
    std::vector<uint8_t> m_workStorage; // 64-byte aligned area inside
    uint8_t* m_work = nullptr;
    size_t m_workBytes = 0;
    std::array<std::atomic<size_t>, kBufferUsageCount> m_allocated{};
};

// Default thread count: the processors this process may run on
// (cpu/affinity.h), at least 1.
int defaultThreadCount();

} // namespace hearth::cpu
