#include "vulkan/vulkan_backend.h"

#include "util/error.h"
#include "vulkan/address_space.h"
#include "vulkan/device.h"
#include "vulkan/memory.h"
#include "vulkan/ops.h"
#include "vulkan/pipelines.h"
#include "vulkan/recorder.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace hearth::vulkan {

namespace {

std::string envOr(const char* name, const std::string& fallback)
{
    const char* v = std::getenv(name);
    return v && *v ? std::string(v) : fallback;
}

std::string mib(uint64_t b)
{
    return std::to_string(b >> 20) + " MiB";
}

class VulkanBackend;

// Device memory as core sees it: a reserved address range over one or
// more allocations (weights come in blocks), each registered with Memory.
class DeviceBuffer final : public Buffer {
public:
    DeviceBuffer(Memory& memory, uint64_t bytes, BufferUsage usage, std::atomic<uint64_t>& counter)
        : m_memory(memory), m_range(bytes), m_size(bytes), m_usage(usage), m_counter(counter)
    {
    }
    ~DeviceBuffer() override
    {
        for (size_t i = 0; i < m_blocks.size(); ++i) {
            m_memory.removeRegion(m_range.base() + m_starts[i]);
            m_memory.release(m_blocks[i]);
        }
        m_counter -= m_size;
    }
    // Adds an allocation for bytes [start, start + a.size).
    void addBlock(uint64_t start, Allocation a)
    {
        m_memory.addRegion(m_range.base() + start, a.size, a.buffer, 0);
        m_blocks.push_back(a);
        m_starts.push_back(start);
    }
    uint8_t* data() override { return m_range.base(); }
    size_t size() const override { return m_size; }
    BufferUsage usage() const override { return m_usage; }
    const std::vector<Allocation>& blocks() const { return m_blocks; }

private:
    Memory& m_memory;
    AddressRange m_range;
    uint64_t m_size;
    BufferUsage m_usage;
    std::atomic<uint64_t>& m_counter;
    std::vector<Allocation> m_blocks;
    std::vector<uint64_t> m_starts;
};

std::string cacheFileFor(const Options& o, const Device& d)
{
    const std::string dir = o.cacheDir.empty() ? defaultCacheDir() : o.cacheDir;
    if (dir == "-")
        return {};
    const VkPhysicalDeviceProperties& p = d.properties();
    char name[96];
    std::snprintf(name, sizeof name, "/pipelines-%04x-%04x-%08x.bin", p.vendorID, p.deviceID, p.driverVersion);
    return dir + name;
}

class VulkanBackend final : public Backend {
public:
    explicit VulkanBackend(const Options& o)
        : m_options(o)
        , m_device(o.device)
        , m_memory(m_device, o.budgetBytes)
        , m_pipelines(m_device, cacheFileFor(o, m_device), o.log)
        , m_recorder(m_device, m_memory, m_pipelines)
    {
        for (auto& a : m_allocated)
            a.store(0);
        const DeviceDescription& d = m_device.description();
        m_info.name = d.name;
        m_info.kind = d.kind;
        m_info.api = "Vulkan";
        m_info.features = d.features;
        refresh();
        if (o.log)
            o.log("vulkan: using " + d.name + " (" + mib(m_info.memoryTotal) + ", " + mib(m_info.memoryFree) +
                  " free; " + d.features + ")");
    }

    const DeviceInfo& device() const override
    {
        const_cast<VulkanBackend*>(this)->refresh();
        return m_info;
    }

    std::unique_ptr<Buffer> allocate(size_t bytes, BufferUsage usage) override
    {
        auto buffer = std::make_unique<DeviceBuffer>(m_memory, bytes, usage, m_allocated[size_t(usage)]);
        buffer->addBlock(0, m_memory.allocate(std::max<size_t>(bytes, 16), MemoryKind::Device));
        m_allocated[size_t(usage)] += bytes;
        return buffer;
    }

    std::unique_ptr<Buffer> uploadWeights(std::span<Tensor* const> tensors, const UploadOptions& options) override;

    bool owns(const void* address) const override { return m_memory.owns(address); }

    bool supports(const Op& op) const override { return opSupported(op); }
    size_t workBytes(const OpList& ops) const override
    {
        uint64_t n = 0;
        for (const Op& op : ops.ops)
            n = std::max(n, opWorkBytes(op));
        return n;
    }
    void reserveWork(size_t bytes) override
    {
        if (bytes > 0 && (!m_work || m_work->size() < bytes))
            m_work = allocate(bytes, BufferUsage::Scratch);
    }
    size_t allocatedBytes(BufferUsage usage) const override { return m_allocated[size_t(usage)].load(); }

    void zero(Buffer& buffer) override
    {
        beginWork();
        for (const Allocation& a : static_cast<DeviceBuffer&>(buffer).blocks())
            m_recorder.fill(a.buffer, 0, a.size);
        submitWork();
    }

    void write(Buffer& dst, size_t offset, const void* src, size_t bytes) override
    {
        beginWork();
        m_recorder.upload(src, bytesAt(dst.data() + offset, bytes), bytes);
        submitWork();
    }

    void read(Buffer& src, size_t offset, void* dst, size_t bytes) override
    {
        beginWork();
        m_recorder.download(bytesAt(src.data() + offset, bytes), dst, bytes);
        submitWork();
    }

    bool execute(const OpList& ops, const ExecuteOptions& options) override
    {
        for (const Op& op : ops.ops) {
            const char* why = "";
            if (!opSupported(op, &why))
                throw Error(std::string("Vulkan backend: unsupported ") + opName(op.kind) + " (" + why + ")");
        }
        reserveWork(workBytes(ops));
        beginWork();
        RecordContext ctx;
        ctx.maxRange = m_device.maxStorageRange();
        ctx.owns = [this](const void* a) { return m_memory.owns(a); };
        ctx.work = m_work ? m_work->data() : nullptr;
        ctx.workBytes = m_work ? m_work->size() : 0;
        for (const Op& op : ops.ops)
            recordOp(m_recorder, op, ctx);
        if (options.abort && options.abort->load(std::memory_order_relaxed)) {
            m_recorder.submit(); // nothing may stay half-recorded
            return false;
        }
        if (m_options.failAfterSubmits >= 0 && m_executes++ >= m_options.failAfterSubmits) {
            m_recorder.submit();
            m_lost = true;
            throw DeviceLost("Vulkan: " + m_info.name + " was lost (VK_ERROR_DEVICE_LOST, simulated for a test)");
        }
        submitWork();
        return !(options.abort && options.abort->load(std::memory_order_relaxed));
    }

private:
    static Tensor bytesAt(uint8_t* p, size_t bytes)
    {
        Tensor t = Tensor::dense(GgmlType::I8, static_cast<int64_t>(bytes));
        t.data = p;
        return t;
    }

    void refresh()
    {
        m_info.memoryTotal = m_memory.total();
        m_info.memoryFree = m_memory.available();
    }

    void beginWork()
    {
        if (m_lost)
            throw DeviceLost("Vulkan: " + m_info.name + " was lost earlier; reload the model");
        m_recorder.begin();
    }

    void submitWork()
    {
        try {
            m_recorder.submit();
        } catch (const DeviceLost&) {
            m_lost = true;
            throw;
        }
    }

    Options m_options;
    Device m_device;
    Memory m_memory;
    Pipelines m_pipelines;
    Recorder m_recorder;
    DeviceInfo m_info;
    std::array<std::atomic<uint64_t>, kBufferUsageCount> m_allocated{};
    std::unique_ptr<Buffer> m_work; // rounded activations (ops.h)
    bool m_lost = false;
    int m_executes = 0;
};

// Lays the distinct host tensors out in blocks no larger than the device's
// largest allocation (a tensor never straddles two), allocates them all
// first (so running out of memory leaves nothing behind and says how much
// was needed), then copies through staging chunks with progress.
std::unique_ptr<Buffer> VulkanBackend::uploadWeights(std::span<Tensor* const> tensors, const UploadOptions& options)
{
    std::map<const uint8_t*, uint64_t> placed; // host data -> offset in the buffer
    struct Item {
        const uint8_t* src;
        uint64_t offset, bytes;
    };
    std::vector<Item> items;
    const uint64_t blockLimit = std::min<uint64_t>(m_device.maxAllocation(), uint64_t{1} << 30);
    std::vector<uint64_t> blockStarts{0};
    uint64_t top = 0;
    for (Tensor* t : tensors) {
        if (placed.count(t->data))
            continue;
        const uint64_t bytes = t->denseBytes();
        uint64_t at = (top + 255) / 256 * 256;
        if (at + bytes - blockStarts.back() > blockLimit && at > blockStarts.back()) {
            blockStarts.push_back(at);
        }
        placed[t->data] = at;
        items.push_back({t->data, at, bytes});
        top = at + bytes;
    }
    if (items.empty())
        return nullptr;
    const uint64_t needed = top;
    if (needed > m_memory.available())
        throw OutOfDeviceMemory("out of GPU memory: the offloaded weights need " + mib(needed) + ", " +
                                    mib(m_memory.available()) + " are free on " + m_info.name,
                                needed, m_memory.available());
    auto buffer = std::make_unique<DeviceBuffer>(m_memory, needed, BufferUsage::Weights,
                                                 m_allocated[size_t(BufferUsage::Weights)]);
    for (size_t b = 0; b < blockStarts.size(); ++b) {
        const uint64_t end = b + 1 < blockStarts.size() ? blockStarts[b + 1] : needed;
        buffer->addBlock(blockStarts[b], m_memory.allocate(end - blockStarts[b], MemoryKind::Device));
    }
    m_allocated[size_t(BufferUsage::Weights)] += needed;
    constexpr uint64_t kChunk = 16u << 20;
    uint64_t done = 0, pending = 0;
    beginWork();
    for (const Item& it : items) {
        for (uint64_t off = 0; off < it.bytes; off += kChunk) {
            const uint64_t n = std::min(kChunk, it.bytes - off);
            m_recorder.upload(it.src + off, bytesAt(buffer->data() + it.offset + off, n), n);
            pending += n;
            done += n;
            if (pending >= kChunk) {
                submitWork();
                pending = 0;
                if (options.cancel && options.cancel->load())
                    throw Cancelled();
                if (options.progress)
                    options.progress(static_cast<double>(done) / static_cast<double>(needed));
                beginWork();
            }
        }
    }
    submitWork();
    if (options.progress)
        options.progress(1.0);
    if (m_options.log)
        m_options.log("vulkan: " + mib(needed) + " of weights uploaded in " + std::to_string(blockStarts.size()) +
                      " block(s)");
    for (Tensor* t : tensors)
        t->data = buffer->data() + placed[t->data];
    return buffer;
}

} // namespace

std::string defaultCacheDir()
{
#if defined(_WIN32)
    const std::string base = envOr("LOCALAPPDATA", ".") + "\\hearth";
#elif defined(__APPLE__)
    const std::string base = envOr("HOME", ".") + "/Library/Caches/hearth";
#else
    const std::string base = envOr("XDG_CACHE_HOME", envOr("HOME", ".") + "/.cache") + "/hearth";
#endif
    return envOr("HEARTH_CACHE_DIR", base) + "/vulkan";
}

std::vector<std::string> describeDevices()
{
    const DeviceList list = listDevices();
    std::vector<std::string> lines;
    if (list.devices.empty())
        lines.push_back("no Vulkan device: " + list.error);
    for (const DeviceDescription& d : list.devices)
        lines.push_back("Vulkan" + std::to_string(d.index) + ": " + d.name + " (" + deviceKindName(d.kind) + ", " +
                        mib(d.memoryTotal) + ", " + mib(d.memoryFree) + " free; " + d.features + ")" +
                        (d.usable ? "" : " - unusable: " + d.whyNot));
    return lines;
}

DeviceSummary chosenDevice(const std::string& wanted)
{
    const DeviceList list = listDevices();
    DeviceSummary s;
    if (list.devices.empty()) {
        s.why = list.error;
        return s;
    }
    const int i = chooseDevice(list.devices, wanted, s.why);
    if (i < 0)
        return s;
    const DeviceDescription& d = list.devices[static_cast<size_t>(i)];
    s.found = true;
    s.name = d.name;
    s.memoryTotal = d.memoryTotal;
    s.memoryFree = d.memoryFree;
    return s;
}

std::unique_ptr<Backend> createBackend(const Options& options)
{
    Options o = options;
    if (o.budgetBytes == 0)
        if (const char* b = std::getenv("HEARTH_VULKAN_BUDGET_MIB"))
            o.budgetBytes = std::strtoull(b, nullptr, 10) << 20;
    if (o.failAfterSubmits < 0)
        if (const char* f = std::getenv("HEARTH_VULKAN_FAIL_AFTER"))
            o.failAfterSubmits = std::atoi(f);
    return std::make_unique<VulkanBackend>(o);
}

} // namespace hearth::vulkan
