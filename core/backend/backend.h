// The compute backend interface: what the runtime needs from a device. core/
// never includes a backend; the caller (CLI, app) creates one (e.g.
// backends/cpu's CpuBackend) and hands it to the runtime.
//
// A backend has one device, allocates buffers on it, makes weights usable
// (the CPU reads them in place from the mapped file; a GPU copies them), and
// executes op lists. Entries marked "optional" have a default that a backend
// may keep. A model may use two backends at once, the host (CPU) and one
// device, layer by layer (backend/placement.h, runtime/scheduler.h).
//
// Device memory: a device backend's buffers and weights have addresses in
// the process's address space (reserved, never dereferenced), so tensors,
// views and the graph allocator work on them as on host memory; owns()
// tells them apart, and only Copy ops move bytes between the two.
//
// Thread-safety: one thread at a time may call execute() on a backend; the
// other entries are thread-safe. Ownership: buffers are owned by their
// caller and must not outlive the backend.
#pragma once

#include "backend/op.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>

namespace hearth {

enum class DeviceKind : uint8_t {
    Cpu, // the host's cores, or a software GPU (Mesa's lavapipe)
    DiscreteGpu,
    IntegratedGpu,
    OtherGpu, // virtual or unknown
};

const char* deviceKindName(DeviceKind kind); // "cpu", "discrete", "integrated", "other"

struct DeviceInfo {
    std::string name; // "CPU (AVX512, 2 threads)", "Radeon 780M", ...
    DeviceKind kind = DeviceKind::Cpu;
    uint64_t memoryTotal = 0; // bytes of the memory the device computes from
    uint64_t memoryFree = 0;  // what it may still allocate (the driver's budget where it tells)
    std::string api = "CPU";  // "CPU" or "Vulkan": llama-bench's backend column
    std::string features;     // optional: "fp16 int-dot subgroup=32 ...", for --list-devices
};

// What a buffer holds, for memory accounting.
enum class BufferUsage : uint8_t {
    Weights,
    KvCache,
    Scratch,
};
inline constexpr int kBufferUsageCount = 3;

// Device memory. On the CPU it is ordinary host memory (64-byte aligned).
class Buffer {
public:
    virtual ~Buffer() = default;
    // Where the buffer's tensors point: host memory for a host backend; for
    // a device backend an address of a range reserved for the buffer, which
    // the host never dereferences (Backend::owns() is true for it).
    virtual uint8_t* data() = 0;
    virtual size_t size() const = 0;
    virtual BufferUsage usage() const = 0;
};

// Loading weights onto a device: progress in [0, 1] by bytes, and a flag
// checked between chunks (uploadWeights then throws hearth::Cancelled).
struct UploadOptions {
    std::function<void(double fraction)> progress;
    const std::atomic<bool>* cancel = nullptr;
};

struct ExecuteOptions {
    // Checked between ops: when it becomes true, execute() stops early and
    // returns false (the outputs are then undefined).
    const std::atomic<bool>* abort = nullptr;
};

class Backend {
public:
    virtual ~Backend() = default;

    virtual const DeviceInfo& device() const = 0;

    virtual std::unique_ptr<Buffer> allocate(size_t bytes, BufferUsage usage) = 0;

    // Optional. Copies weight tensors (data in the mapped file) into this
    // device's memory and points each tensor's data at its copy; returns
    // the buffer that holds them (tensors with the same host data share
    // one copy). The default keeps them where they are (returns null),
    // which is right for a backend that reads host memory. Throws
    // OutOfDeviceMemory (util/error.h) when they do not fit, Cancelled.
    virtual std::unique_ptr<Buffer> uploadWeights(std::span<Tensor* const> /*tensors*/,
                                                  const UploadOptions& /*options*/ = {})
    {
        return nullptr;
    }

    // Optional: whether `address` is in this backend's device memory (not
    // readable by the host). The default, for host backends: never.
    virtual bool owns(const void* /*address*/) const { return false; }

    // Sets every byte of `buffer` to zero. The default writes host memory.
    virtual void zero(Buffer& buffer);
    // Copies between host memory and a buffer. The defaults use data().
    virtual void write(Buffer& dst, size_t offset, const void* src, size_t bytes);
    virtual void read(Buffer& src, size_t offset, void* dst, size_t bytes);

    // Whether execute() can run this op (type and shape support).
    virtual bool supports(const Op& op) const = 0;

    // Bytes of scratch the backend needs for `ops` beyond the tensors
    // themselves (quantized activations, per-thread attention rows). Callers
    // reserve the worst case once so execute() never allocates.
    virtual size_t workBytes(const OpList& ops) const = 0;
    virtual void reserveWork(size_t bytes) = 0;

    // Runs the ops in order. Returns false when stopped through
    // options.abort. Throws hearth::Error on an unsupported op.
    virtual bool execute(const OpList& ops, const ExecuteOptions& options = {}) = 0;

    // Optional: number of worker threads (CPU) or 1.
    virtual int threads() const { return 1; }
    virtual void setThreads(int /*n*/) {}

    // Bytes currently allocated through this backend, per usage (buffers
    // alive plus the work area).
    virtual size_t allocatedBytes(BufferUsage usage) const = 0;
};

} // namespace hearth
