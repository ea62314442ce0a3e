#include "vulkan/recorder.h"

#include "util/error.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace hearth::vulkan {

namespace {

constexpr uint32_t kSetsPerPool = 1024;

size_t extentOf(const Tensor& t)
{
    size_t end = rowBytes(t.type, t.ne[0]);
    for (size_t d = 1; d < 4; ++d)
        end += static_cast<size_t>(t.ne[d] - 1) * t.nb[d];
    return end;
}

} // namespace

Recorder::Recorder(const Device& device, Memory& memory, Pipelines& pipelines)
    : m_device(device), m_memory(memory), m_pipelines(pipelines)
{
    VkCommandPoolCreateInfo pc{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pc.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pc.queueFamilyIndex = device.queueFamily();
    check(vkCreateCommandPool(device.handle(), &pc, nullptr, &m_pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = m_pool;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    check(vkAllocateCommandBuffers(device.handle(), &ai, &m_cmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fc{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    check(vkCreateFence(device.handle(), &fc, nullptr, &m_fence), "vkCreateFence");
    m_dummy = m_memory.allocate(256, MemoryKind::Upload);
}

Recorder::~Recorder()
{
    for (VkDescriptorPool p : m_descPools)
        vkDestroyDescriptorPool(m_device.handle(), p, nullptr);
    for (Allocation* a : {&m_inputs, &m_uploads, &m_downloads, &m_dummy})
        m_memory.release(*a);
    for (Allocation& a : m_retired)
        m_memory.release(a);
    vkDestroyFence(m_device.handle(), m_fence, nullptr);
    vkDestroyCommandPool(m_device.handle(), m_pool, nullptr);
}

void Recorder::begin()
{
    check(vkResetCommandBuffer(m_cmd, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(m_cmd, &bi), "vkBeginCommandBuffer");
    for (VkDescriptorPool p : m_descPools)
        vkResetDescriptorPool(m_device.handle(), p, 0);
    m_descPool = 0;
    m_inputsUsed = m_uploadsUsed = m_downloadsUsed = 0;
    m_inputKeys.clear();
    m_inputOffsets.clear();
    m_pending.clear();
    m_written.clear();
    m_read.clear();
    m_recording = true;
}

Bound Recorder::bindBytes(const void* address, uint64_t bytes, bool write)
{
    Resolved r;
    if (!m_memory.resolve(address, r))
        throw Error("Vulkan: an op reads host memory as a device tensor (placement error)");
    const uint64_t align = m_device.storageAlignment();
    Bound b;
    b.buffer = r.buffer;
    b.offset = r.offset / align * align;
    b.skew = static_cast<uint32_t>(r.offset - b.offset);
    b.range = std::min<uint64_t>((b.skew + bytes + 3) / 4 * 4, r.available + b.skew);
    b.write = write;
    if (b.range > m_device.maxStorageRange())
        throw Error("Vulkan: a tensor of " + std::to_string(bytes >> 20) + " MiB exceeds " +
                    m_device.description().name + "'s largest storage binding (" +
                    std::to_string(m_device.maxStorageRange() >> 20) + " MiB); use a smaller batch");
    return b;
}

Bound Recorder::bind(const Tensor& t, bool write, uint64_t bytes)
{
    return bindBytes(t.data, bytes ? bytes : extentOf(t), write);
}

uint64_t Recorder::stage(Allocation& a, uint64_t& used, uint64_t bytes, MemoryKind kind)
{
    const uint64_t align = std::max<uint64_t>(m_device.storageAlignment(), 16);
    const uint64_t at = (used + align - 1) / align * align;
    if (at + bytes > a.size) {
        if (a.buffer)
            m_retired.push_back(a); // commands recorded so far still use it
        a = m_memory.allocate(std::max<uint64_t>({bytes * 2, a.size * 2, 1u << 20}), kind);
        used = 0;
        return stage(a, used, bytes, kind);
    }
    used = at + bytes;
    return at;
}

Bound Recorder::input(const void* data, uint64_t bytes)
{
    for (size_t i = 0; i < m_inputKeys.size(); ++i)
        if (m_inputKeys[i].first == data && m_inputKeys[i].second == bytes) {
            Bound b{m_inputs.buffer, m_inputOffsets[i], std::max<uint64_t>((bytes + 3) / 4 * 4, 4), 0, false, true};
            return b;
        }
    const uint64_t at = stage(m_inputs, m_inputsUsed, std::max<uint64_t>(bytes, 4), MemoryKind::Upload);
    std::memcpy(m_inputs.mapped + at, data, bytes);
    m_inputKeys.emplace_back(data, bytes);
    m_inputOffsets.push_back(at);
    return Bound{m_inputs.buffer, at, std::max<uint64_t>((bytes + 3) / 4 * 4, 4), 0, false, true};
}

Bound Recorder::dummy()
{
    return Bound{m_dummy.buffer, 0, 256, 0, false, true};
}

bool Recorder::overlaps(const std::vector<Range>& list, const Range& r) const
{
    return std::any_of(list.begin(), list.end(),
                       [&](const Range& x) { return x.buffer == r.buffer && x.begin < r.end && r.begin < x.end; });
}

void Recorder::touch(const Range& r, bool write)
{
    (write ? m_written : m_read).push_back(r);
}

// A barrier before this command when it reads what was written, or writes
// what was read or written, since the last one.
void Recorder::hazard(const std::array<Bound, kBindings>& b, bool transfer)
{
    bool need = false;
    for (const Bound& x : b) {
        if (!x.buffer || x.hostInput)
            continue;
        const Range r{x.buffer, x.offset, x.offset + x.range};
        need = need || overlaps(m_written, r) || (x.write && overlaps(m_read, r));
    }
    if (need) {
        VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                           VK_ACCESS_TRANSFER_WRITE_BIT;
        const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
        vkCmdPipelineBarrier(m_cmd, stages, stages, 0, 1, &mb, 0, nullptr, 0, nullptr);
        m_written.clear();
        m_read.clear();
    }
    (void)transfer;
    for (const Bound& x : b)
        if (x.buffer && !x.hostInput)
            touch(Range{x.buffer, x.offset, x.offset + x.range}, x.write);
}

VkDescriptorSet Recorder::allocateSet()
{
    for (;;) {
        if (m_descPool == m_descPools.size()) {
            const VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, kSetsPerPool * kBindings};
            VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
            ci.maxSets = kSetsPerPool;
            ci.poolSizeCount = 1;
            ci.pPoolSizes = &size;
            VkDescriptorPool pool = VK_NULL_HANDLE;
            check(vkCreateDescriptorPool(m_device.handle(), &ci, nullptr, &pool), "vkCreateDescriptorPool");
            m_descPools.push_back(pool);
        }
        VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = m_descPools[m_descPool];
        ai.descriptorSetCount = 1;
        const VkDescriptorSetLayout layout = m_pipelines.setLayout();
        ai.pSetLayouts = &layout;
        VkDescriptorSet set = VK_NULL_HANDLE;
        const VkResult r = vkAllocateDescriptorSets(m_device.handle(), &ai, &set);
        if (r == VK_SUCCESS)
            return set;
        if (r != VK_ERROR_OUT_OF_POOL_MEMORY && r != VK_ERROR_FRAGMENTED_POOL)
            check(r, "vkAllocateDescriptorSets");
        ++m_descPool;
    }
}

void Recorder::splitGroups(uint32_t groups, uint32_t& x, uint32_t& y)
{
    x = std::min<uint32_t>(groups, 65535);
    y = (groups + x - 1) / std::max<uint32_t>(x, 1);
}

void Recorder::dispatch(std::string_view pipeline, const std::array<Bound, kBindings>& b, const void* push,
                        uint32_t pushBytes, uint32_t groups)
{
    uint32_t x, y;
    splitGroups(groups, x, y);
    dispatch3(pipeline, b, push, pushBytes, x, y, 1);
}

void Recorder::dispatch3(std::string_view pipeline, const std::array<Bound, kBindings>& b, const void* push,
                         uint32_t pushBytes, uint32_t x, uint32_t y, uint32_t z)
{
    if (x == 0 || y == 0 || z == 0)
        return;
    const VkPipeline p = m_pipelines.get(pipeline);
    hazard(b, false);
    const VkDescriptorSet set = allocateSet();
    VkDescriptorBufferInfo info[kBindings];
    VkWriteDescriptorSet writes[kBindings];
    for (uint32_t i = 0; i < kBindings; ++i) {
        const Bound& bd = b[i].buffer ? b[i] : dummy();
        info[i] = {bd.buffer, bd.offset, bd.range};
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set,      i,      0, 1,
                     VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,      nullptr, &info[i], nullptr};
    }
    vkUpdateDescriptorSets(m_device.handle(), kBindings, writes, 0, nullptr);
    vkCmdBindPipeline(m_cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p);
    vkCmdBindDescriptorSets(m_cmd, VK_PIPELINE_BIND_POINT_COMPUTE, m_pipelines.layout(), 0, 1, &set, 0, nullptr);
    vkCmdPushConstants(m_cmd, m_pipelines.layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes, push);
    vkCmdDispatch(m_cmd, x, y, z);
}

void Recorder::upload(const void* src, const Tensor& dst, uint64_t bytes)
{
    const uint64_t at = stage(m_uploads, m_uploadsUsed, bytes, MemoryKind::Upload);
    std::memcpy(m_uploads.mapped + at, src, bytes);
    const Bound d = bindBytes(dst.data, bytes, true);
    std::array<Bound, kBindings> b{};
    b[0] = d;
    hazard(b, true);
    const VkBufferCopy region{at, d.offset + d.skew, bytes};
    vkCmdCopyBuffer(m_cmd, m_uploads.buffer, d.buffer, 1, &region);
}

void Recorder::download(const Tensor& src, void* dst, uint64_t bytes)
{
    const uint64_t at = stage(m_downloads, m_downloadsUsed, bytes, MemoryKind::Download);
    Bound s = bindBytes(src.data, bytes, false);
    std::array<Bound, kBindings> b{};
    b[0] = s;
    hazard(b, true);
    const VkBufferCopy region{s.offset + s.skew, at, bytes};
    vkCmdCopyBuffer(m_cmd, s.buffer, m_downloads.buffer, 1, &region);
    m_pending.push_back(Pending{m_downloads.mapped + at, dst, bytes});
}

void Recorder::copy(const Tensor& src, const Tensor& dst, uint64_t bytes)
{
    std::array<Bound, kBindings> b{};
    b[0] = bindBytes(src.data, bytes, false);
    b[1] = bindBytes(dst.data, bytes, true);
    hazard(b, true);
    const VkBufferCopy region{b[0].offset + b[0].skew, b[1].offset + b[1].skew, bytes};
    vkCmdCopyBuffer(m_cmd, b[0].buffer, b[1].buffer, 1, &region);
}

void Recorder::fill(VkBuffer buffer, uint64_t offset, uint64_t bytes)
{
    std::array<Bound, kBindings> b{};
    b[0] = Bound{buffer, offset, bytes, 0, true, false};
    hazard(b, true);
    vkCmdFillBuffer(m_cmd, buffer, offset, (bytes + 3) / 4 * 4, 0);
}

void Recorder::submit()
{
    m_recording = false;
    check(vkEndCommandBuffer(m_cmd), "vkEndCommandBuffer");
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &m_cmd;
    check(vkResetFences(m_device.handle(), 1, &m_fence), "vkResetFences");
    check(vkQueueSubmit(m_device.queue(), 1, &si, m_fence), "vkQueueSubmit");
    check(vkWaitForFences(m_device.handle(), 1, &m_fence, VK_TRUE, UINT64_MAX), "vkWaitForFences");
    ++m_submits;
    for (const Pending& p : m_pending)
        std::memcpy(p.dst, p.staged, p.bytes);
    m_pending.clear();
    for (Allocation& a : m_retired)
        m_memory.release(a);
    m_retired.clear();
}

} // namespace hearth::vulkan
