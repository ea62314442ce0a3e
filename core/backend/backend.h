// The compute backend interface: what the runtime needs from a device. core/
// never includes a backend; the caller (CLI, app) creates one (e.g.
// backends/cpu's CpuBackend) and hands it to the runtime.
//
// A backend has one device, allocates buffers on it, makes weights usable
// (the CPU reads them in place from the mapped file; a GPU copies them), and
// executes op lists. Entries marked "optional" have a default that a backend
// may keep.
//
// Thread-safety: one thread at a time may call execute() on a backend; the
// other entries are thread-safe. Ownership: buffers are owned by their
// caller and must not outlive the backend.
#pragma once

#include "backend/op.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace hearth {

enum class DeviceKind : uint8_t {
    Cpu,
    DiscreteGpu,
    IntegratedGpu,
};

struct DeviceInfo {
    std::string name; // "CPU (AVX512, 2 threads)", "Radeon 780M", ...
    DeviceKind kind = DeviceKind::Cpu;
    uint64_t memoryTotal = 0; // bytes of the memory the device computes from
    uint64_t memoryFree = 0;
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
    virtual uint8_t* data() = 0; // host address; nullptr when not host-visible
    virtual size_t size() const = 0;
    virtual BufferUsage usage() const = 0;
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

    // Optional. Prepares a weight tensor (data in the mapped file) for this
    // device and returns the tensor to record in op lists. The default keeps
    // it where it is, which is right for a backend that reads host memory.
    virtual Tensor prepareWeight(const Tensor& hostTensor) { return hostTensor; }

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
