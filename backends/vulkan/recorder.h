// Records one op list into one command buffer and runs it: descriptor sets
// from a pool reset per list, push constants, a memory barrier only where a
// dispatch touches bytes that an earlier one since the last barrier wrote
// (or writes bytes one read), host arrays (token ids, positions, the mask)
// copied into a host-visible input buffer, and Copy ops through staging
// buffers (uploads copied in before the submit, downloads out after).
// One submit and one fence wait per op list.
//
// Thread-safety: one thread (execute()).
#pragma once

#include "backend/tensor.h"
#include "vulkan/memory.h"
#include "vulkan/pipelines.h"

#include <array>
#include <cstdint>
#include <vector>

namespace hearth::vulkan {

// One storage buffer binding: the range of a buffer a dispatch sees, and
// where the tensor starts inside it (bytes from the binding's offset).
struct Bound {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint64_t offset = 0, range = 0;
    uint32_t skew = 0; // bytes from offset to the tensor's first byte
    bool write = false;
    bool hostInput = false; // the input buffer: never written on the device
};

class Recorder {
public:
    Recorder(const Device& device, Memory& memory, Pipelines& pipelines);
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    void begin();
    // A device tensor's binding, `bytes` from its first byte (0: its whole
    // extent). Throws when the address is not device memory or the range
    // exceeds what one binding may cover.
    Bound bind(const Tensor& t, bool write, uint64_t bytes = 0);
    // A device address range's binding.
    Bound bindBytes(const void* address, uint64_t bytes, bool write);
    // Host data copied into the input buffer (deduplicated per list).
    Bound input(const void* data, uint64_t bytes);
    // An unused binding slot.
    Bound dummy();

    void dispatch(std::string_view pipeline, const std::array<Bound, kBindings>& b, const void* push,
                  uint32_t pushBytes, uint32_t groups);
    // Groups folded into x and y (x at most 65535).
    static void splitGroups(uint32_t groups, uint32_t& x, uint32_t& y);
    void dispatch3(std::string_view pipeline, const std::array<Bound, kBindings>& b, const void* push,
                   uint32_t pushBytes, uint32_t x, uint32_t y, uint32_t z);
    // Copy ops: host → device, device → host, device → device.
    void upload(const void* src, const Tensor& dst, uint64_t bytes);
    void download(const Tensor& src, void* dst, uint64_t bytes);
    void copy(const Tensor& src, const Tensor& dst, uint64_t bytes);
    void fill(VkBuffer buffer, uint64_t offset, uint64_t bytes);

    // Submits and waits; then copies downloads out. Throws DeviceLost.
    void submit();
    int submits() const { return m_submits; }

private:
    struct Range {
        VkBuffer buffer;
        uint64_t begin, end;
    };
    struct Pending {
        const uint8_t* staged; // in a download buffer (kept until the copy-out)
        void* dst;
        uint64_t bytes;
    };
    void hazard(const std::array<Bound, kBindings>& b, bool transfer);
    void touch(const Range& r, bool write);
    bool overlaps(const std::vector<Range>& list, const Range& r) const;
    uint64_t stage(Allocation& a, uint64_t& used, uint64_t bytes, MemoryKind kind);
    VkDescriptorSet allocateSet();

    const Device& m_device;
    Memory& m_memory;
    Pipelines& m_pipelines;
    VkCommandPool m_pool = VK_NULL_HANDLE;
    VkCommandBuffer m_cmd = VK_NULL_HANDLE;
    VkFence m_fence = VK_NULL_HANDLE;
    std::vector<VkDescriptorPool> m_descPools;
    size_t m_descPool = 0;
    Allocation m_inputs, m_uploads, m_downloads;
    uint64_t m_inputsUsed = 0, m_uploadsUsed = 0, m_downloadsUsed = 0;
    std::vector<std::pair<const void*, uint64_t>> m_inputKeys; // deduplication
    std::vector<uint64_t> m_inputOffsets;
    std::vector<Pending> m_pending;
    std::vector<Range> m_written, m_read;
    Allocation m_dummy;
    std::vector<Allocation> m_retired; // outgrown staging buffers, freed after the fence
    bool m_recording = false;
    int m_submits = 0;
};

} // namespace hearth::vulkan
