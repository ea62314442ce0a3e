#include "cpu/cpu_backend.h"

#include "cpu/affinity.h"
#include "cpu/cpu_features.h"
#include "cpu/kernels.h"
#include "cpu/ops.h"
#include "util/error.h"
#include "util/system_memory.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <thread>

namespace hearth::cpu {

namespace {

constexpr size_t kAlign = 64;

class HostBuffer final : public Buffer {
public:
    HostBuffer(CpuBackend& owner, size_t bytes, BufferUsage usage) : m_owner(owner), m_size(bytes), m_usage(usage)
    {
        m_data = static_cast<uint8_t*>(::operator new (std::max<size_t>(bytes, 1), std::align_val_t{kAlign}));
    }
    ~HostBuffer() override
    {
        ::operator delete (m_data, std::align_val_t{kAlign});
        m_owner.release(m_usage, m_size);
    }
    uint8_t* data() override { return m_data; }
    size_t size() const override { return m_size; }
    BufferUsage usage() const override { return m_usage; }

private:
    CpuBackend& m_owner;
    uint8_t* m_data = nullptr;
    size_t m_size;
    BufferUsage m_usage;
};

} // namespace

int defaultThreadCount()
{
    return static_cast<int>(allowedCpus().size());
}

CpuBackend::CpuBackend(int threads, bool pinThreads)
    : m_pinThreads(pinThreads)
    , m_pool(std::make_unique<ThreadPool>(threads > 0 ? threads : defaultThreadCount(), pinThreads))
{
    for (auto& a : m_allocated)
        a.store(0);
    describe();
}

CpuBackend::~CpuBackend() = default;

void CpuBackend::describe()
{
    m_device.name = std::string("CPU (") + isaName(activeIsa()) + ", " + std::to_string(m_pool->size()) +
                    (m_pool->size() == 1 ? " thread)" : " threads)");
    m_device.kind = DeviceKind::Cpu;
    m_device.memoryTotal = systemMemoryTotal();
    m_device.memoryFree = systemMemoryAvailable();
}

void CpuBackend::setThreads(int n)
{
    if (n <= 0)
        n = defaultThreadCount();
    if (n == m_pool->size())
        return;
    m_pool.reset();
    m_pool = std::make_unique<ThreadPool>(n, m_pinThreads);
    describe();
}

std::unique_ptr<Buffer> CpuBackend::allocate(size_t bytes, BufferUsage usage)
{
    auto buffer = std::make_unique<HostBuffer>(*this, bytes, usage);
    m_allocated[static_cast<size_t>(usage)].fetch_add(bytes);
    return buffer;
}

void CpuBackend::release(BufferUsage usage, size_t bytes)
{
    m_allocated[static_cast<size_t>(usage)].fetch_sub(bytes);
}

size_t CpuBackend::allocatedBytes(BufferUsage usage) const
{
    size_t n = m_allocated[static_cast<size_t>(usage)].load();
    if (usage == BufferUsage::Scratch)
        n += m_workBytes;
    return n;
}

bool CpuBackend::supports(const Op& op) const
{
    return opSupported(op);
}

size_t CpuBackend::workBytes(const OpList& ops) const
{
    size_t need = 0;
    for (const Op& op : ops.ops)
        need = std::max(need, opWorkBytes(op, m_pool->size()));
    return need;
}

void CpuBackend::reserveWork(size_t bytes)
{
    if (bytes <= m_workBytes)
        return;
    m_workStorage.assign(bytes + kAlign, 0);
    const auto addr = reinterpret_cast<uintptr_t>(m_workStorage.data());
    m_work = m_workStorage.data() + ((kAlign - addr % kAlign) % kAlign);
    m_workBytes = bytes;
}

bool CpuBackend::execute(const OpList& ops, const ExecuteOptions& options)
{
    for (const Op& op : ops.ops) {
        if (!opSupported(op))
            throw Error(std::string("CPU backend: unsupported op ") + opName(op.kind) + " (type " +
                        std::string(typeTraits(op.src[0].type).name) + ")");
    }
    reserveWork(workBytes(ops));
    // Thread 0 decides after each op whether to stop and records the index of
    // that op before the op's last barrier; every thread compares the record
    // with the op it has just passed. A thread that reads the record late
    // (thread 0 already ran on and stopped at a later op) sees an index past
    // its own and goes on to meet thread 0 at that later op's barrier, so all
    // threads leave after the same op and none waits at a barrier alone.
    constexpr size_t kRunning = SIZE_MAX;
    std::atomic<size_t> stopAfter{kRunning};
    m_pool->run([&](int ith, int nth) {
        ExecContext ctx{ith, nth, m_work, m_workBytes};
        for (size_t i = 0; i < ops.ops.size(); ++i) {
            const Op& op = ops.ops[i];
            const int phases = opPhases(op);
            for (int phase = 0; phase < phases; ++phase) {
                runOp(op, phase, ctx);
                if (phase == phases - 1 && ith == 0 && options.abort && options.abort->load(std::memory_order_relaxed))
                    stopAfter.store(i, std::memory_order_relaxed);
                m_pool->barrier();
            }
            if (stopAfter.load(std::memory_order_relaxed) <= i)
                break;
        }
    });
    const bool stopped = stopAfter.load() != kRunning;
    return !stopped;
}

} // namespace hearth::cpu
