// Compute pipelines of the embedded shaders (shaders/, compiled by glslc
// at build time; one variant per op × type, see shaders/CMakeLists.txt),
// created on first use through a VkPipelineCache that is loaded from and
// saved to the cache folder, so a second start finds what the first one
// compiled. Every pipeline shares one layout: eight storage buffers and
// 128 bytes of push constants.
//
// Counts: pipelines created, and of those how many the driver reports
// (VK_EXT_pipeline_creation_feedback) as found in the cache; --verbose
// logs them.
// Thread-safety: one thread (execute()).
#pragma once

#include "vulkan/device.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace hearth::vulkan {

inline constexpr uint32_t kBindings = 8;
inline constexpr uint32_t kPushBytes = 128;

struct ShaderBlob {
    const char* name;
    const uint32_t* code;
    size_t bytes;
};
// The embedded variant `name` ("matvec_q4_0", "rms_norm", ...), or null.
const ShaderBlob* findShader(std::string_view name);

class Pipelines {
public:
    using Log = std::function<void(const std::string&)>;
    // cacheFile "" keeps no cache on disk.
    Pipelines(const Device& device, std::string cacheFile, Log log);
    ~Pipelines(); // saves the cache when pipelines were created
    Pipelines(const Pipelines&) = delete;
    Pipelines& operator=(const Pipelines&) = delete;

    VkPipeline get(std::string_view name);
    VkPipelineLayout layout() const { return m_layout; }
    VkDescriptorSetLayout setLayout() const { return m_setLayout; }

    int created() const { return m_created; }
    int cacheHits() const { return m_hits; }
    void save();

private:
    const Device& m_device;
    std::string m_cacheFile;
    Log m_log;
    VkPipelineCache m_cache = VK_NULL_HANDLE;
    VkDescriptorSetLayout m_setLayout = VK_NULL_HANDLE;
    VkPipelineLayout m_layout = VK_NULL_HANDLE;
    std::map<std::string, VkPipeline, std::less<>> m_pipelines;
    int m_created = 0, m_hits = 0;
    bool m_dirty = false;
};

} // namespace hearth::vulkan
