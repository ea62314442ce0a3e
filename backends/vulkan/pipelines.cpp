#include "vulkan/pipelines.h"

#include "util/error.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace hearth::vulkan {

namespace {

// What a cache file starts with (Vulkan's VkPipelineCacheHeaderVersionOne):
// data from another device or driver is not offered to this one.
bool headerMatches(const std::vector<char>& data, const VkPhysicalDeviceProperties& p)
{
    if (data.size() < 32)
        return false;
    uint32_t words[4];
    std::memcpy(words, data.data(), sizeof words);
    return words[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && words[2] == p.vendorID && words[3] == p.deviceID &&
           std::memcmp(data.data() + 16, p.pipelineCacheUUID, VK_UUID_SIZE) == 0;
}

} // namespace

Pipelines::Pipelines(const Device& device, std::string cacheFile, Log log)
    : m_device(device), m_cacheFile(std::move(cacheFile)), m_log(std::move(log))
{
    std::vector<char> data;
    if (!m_cacheFile.empty()) {
        std::ifstream f(m_cacheFile, std::ios::binary);
        data.assign(std::istreambuf_iterator<char>(f), {});
        if (!data.empty() && !headerMatches(data, device.properties())) {
            if (m_log)
                m_log("vulkan: pipeline cache " + m_cacheFile + " is for another device or driver: ignored");
            data.clear();
        } else if (m_log) {
            m_log("vulkan: pipeline cache " + m_cacheFile + ": " +
                  (data.empty() ? std::string("none yet") : std::to_string(data.size()) + " bytes loaded"));
        }
    }
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ci.initialDataSize = data.size();
    ci.pInitialData = data.empty() ? nullptr : data.data();
    check(vkCreatePipelineCache(device.handle(), &ci, nullptr, &m_cache), "vkCreatePipelineCache");

    VkDescriptorSetLayoutBinding b[kBindings];
    for (uint32_t i = 0; i < kBindings; ++i)
        b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dl.bindingCount = kBindings;
    dl.pBindings = b;
    check(vkCreateDescriptorSetLayout(device.handle(), &dl, nullptr, &m_setLayout), "vkCreateDescriptorSetLayout");
    const VkPushConstantRange pc{VK_SHADER_STAGE_COMPUTE_BIT, 0, kPushBytes};
    VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pl.setLayoutCount = 1;
    pl.pSetLayouts = &m_setLayout;
    pl.pushConstantRangeCount = 1;
    pl.pPushConstantRanges = &pc;
    check(vkCreatePipelineLayout(device.handle(), &pl, nullptr, &m_layout), "vkCreatePipelineLayout");
}

Pipelines::~Pipelines()
{
    try {
        save();
    } catch (...) { // a cache that cannot be written only costs the next start time
    }
    if (m_log && m_created > 0)
        m_log("vulkan: " + std::to_string(m_created) + " pipelines created, " + std::to_string(m_created - m_hits) +
              " compiled, " + std::to_string(m_hits) + " found in the pipeline cache" +
              (m_device.hasFeedback() ? "" : " (the driver does not report cache hits)"));
    for (auto& [name, p] : m_pipelines)
        vkDestroyPipeline(m_device.handle(), p, nullptr);
    vkDestroyPipelineLayout(m_device.handle(), m_layout, nullptr);
    vkDestroyDescriptorSetLayout(m_device.handle(), m_setLayout, nullptr);
    vkDestroyPipelineCache(m_device.handle(), m_cache, nullptr);
}

VkPipeline Pipelines::get(std::string_view name)
{
    if (auto it = m_pipelines.find(name); it != m_pipelines.end())
        return it->second;
    const ShaderBlob* blob = findShader(name);
    if (!blob)
        throw Error("Vulkan: no shader variant " + std::string(name) + " is built in");
    VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    sm.codeSize = blob->bytes;
    sm.pCode = blob->code;
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(m_device.handle(), &sm, nullptr, &module), "vkCreateShaderModule");
    VkPipelineCreationFeedback feedback{};
    VkPipelineCreationFeedbackCreateInfo fci{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
    fci.pPipelineCreationFeedback = &feedback;
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.pNext = m_device.hasFeedback() ? &fci : nullptr;
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                nullptr,
                0,
                VK_SHADER_STAGE_COMPUTE_BIT,
                module,
                "main",
                nullptr};
    ci.layout = m_layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    const auto start = std::chrono::steady_clock::now();
    const VkResult r = vkCreateComputePipelines(m_device.handle(), m_cache, 1, &ci, nullptr, &pipeline);
    vkDestroyShaderModule(m_device.handle(), module, nullptr);
    check(r, "vkCreateComputePipelines");
    const bool hit = (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
                     (feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
    ++m_created;
    m_hits += hit ? 1 : 0;
    m_dirty = true;
    if (m_log) {
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        char line[160];
        std::snprintf(line, sizeof line, "vulkan: pipeline %s %s in %.1f ms", blob->name,
                      hit ? "from the cache" : "compiled", ms);
        m_log(line);
    }
    m_pipelines.emplace(std::string(name), pipeline);
    return pipeline;
}

void Pipelines::save()
{
    if (!m_dirty || m_cacheFile.empty())
        return;
    size_t size = 0;
    check(vkGetPipelineCacheData(m_device.handle(), m_cache, &size, nullptr), "vkGetPipelineCacheData");
    std::vector<char> data(size);
    check(vkGetPipelineCacheData(m_device.handle(), m_cache, &size, data.data()), "vkGetPipelineCacheData");
    const std::filesystem::path path(m_cacheFile);
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f.write(data.data(), static_cast<std::streamsize>(size));
        if (!f)
            return;
    }
    std::filesystem::rename(tmp, path, ec); // atomic: a crash never leaves half a cache
    m_dirty = false;
    if (m_log)
        m_log("vulkan: pipeline cache saved: " + std::to_string(size) + " bytes to " + m_cacheFile +
              (size <= 32 ? " (the driver keeps nothing in it: every start compiles)" : ""));
}

} // namespace hearth::vulkan
