#include "vulkan/device.h"

#include "util/error.h"
#include "util/system_memory.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>

namespace hearth::vulkan {

namespace {

VkInstance createInstance()
{
    if (volkInitialize() != VK_SUCCESS)
        throw Error("no Vulkan loader (libvulkan) is installed");
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "Hearth";
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ci{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ci.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    const VkResult r = vkCreateInstance(&ci, nullptr, &instance);
    if (r != VK_SUCCESS)
        throw Error(std::string("no Vulkan driver could start (") + resultName(r) + ")");
    volkLoadInstanceOnly(instance);
    return instance;
}

std::vector<VkPhysicalDevice> physicalDevices(VkInstance instance)
{
    uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance, &n, nullptr);
    std::vector<VkPhysicalDevice> out(n);
    vkEnumeratePhysicalDevices(instance, &n, out.data());
    out.resize(n);
    return out;
}

bool hasExtension(VkPhysicalDevice pd, const char* name)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> ext(n);
    vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, ext.data());
    return std::any_of(ext.begin(), ext.end(), [&](const auto& e) { return std::strcmp(e.extensionName, name) == 0; });
}

DeviceKind kindOf(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return DeviceKind::DiscreteGpu;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return DeviceKind::IntegratedGpu;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return DeviceKind::Cpu;
    default: return DeviceKind::OtherGpu;
    }
}

// The largest device-local heap.
int localHeap(const VkPhysicalDeviceMemoryProperties& m)
{
    int best = 0;
    for (uint32_t i = 0; i < m.memoryHeapCount; ++i)
        if ((m.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) &&
            m.memoryHeaps[i].size > m.memoryHeaps[best].size)
            best = static_cast<int>(i);
    return best;
}

uint64_t budgetOf(VkPhysicalDevice pd, int heap, bool hasBudget, uint64_t& usage)
{
    usage = 0;
    if (!hasBudget)
        return 0;
    VkPhysicalDeviceMemoryBudgetPropertiesEXT b{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 m{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2};
    m.pNext = &b;
    vkGetPhysicalDeviceMemoryProperties2(pd, &m);
    usage = b.heapUsage[heap];
    return b.heapBudget[heap];
}

DeviceDescription describe(VkPhysicalDevice pd, int index)
{
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(pd, &mem);
    VkPhysicalDevice16BitStorageFeatures s16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    f2.pNext = &s16;
    vkGetPhysicalDeviceFeatures2(pd, &f2);
    VkPhysicalDeviceSubgroupProperties sub{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceDriverProperties drv{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    sub.pNext = &drv;
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    p2.pNext = &sub;
    vkGetPhysicalDeviceProperties2(pd, &p2);

    DeviceDescription d;
    d.index = index;
    d.name = props.deviceName;
    d.kind = kindOf(props.deviceType);
    const int heap = localHeap(mem);
    d.memoryTotal = mem.memoryHeaps[heap].size;
    uint64_t usage = 0;
    const bool hasBudget = hasExtension(pd, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    const uint64_t budget = budgetOf(pd, heap, hasBudget, usage);
    d.memoryFree = budget > usage ? budget - usage : d.memoryTotal;
    if (!hasBudget && (d.kind == DeviceKind::IntegratedGpu || d.kind == DeviceKind::Cpu))
        d.memoryFree = std::min<uint64_t>(d.memoryFree, systemMemoryAvailable()); // shared with the host
    d.features = "vulkan " + std::to_string(VK_API_VERSION_MAJOR(props.apiVersion)) + "." +
                 std::to_string(VK_API_VERSION_MINOR(props.apiVersion)) +
                 (s16.storageBuffer16BitAccess ? ", 16-bit storage" : "") +
                 (hasExtension(pd, "VK_KHR_shader_integer_dot_product") ? ", int-dot" : "") +
                 (hasExtension(pd, "VK_KHR_cooperative_matrix") ? ", coopmat" : "") +
                 (hasBudget ? ", memory budget" : "") + ", subgroup " + std::to_string(sub.subgroupSize) + ", driver " +
                 drv.driverName + " " + drv.driverInfo;
    if (VK_API_VERSION_MINOR(props.apiVersion) < 2 && VK_API_VERSION_MAJOR(props.apiVersion) == 1) {
        d.usable = false;
        d.whyNot = "needs Vulkan 1.2";
    } else if (!s16.storageBuffer16BitAccess) {
        d.usable = false;
        d.whyNot = "lacks 16-bit storage buffers";
    }
    return d;
}

std::string lower(std::string s)
{
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

int chooseDevice(const std::vector<DeviceDescription>& all, const std::string& wantedIn, std::string& why)
{
    std::string wanted = wantedIn;
    if (wanted.empty())
        if (const char* env = std::getenv("HEARTH_VULKAN_DEVICE"))
            wanted = env;
    if (!wanted.empty()) {
        const std::string w = lower(wanted);
        for (const DeviceDescription& d : all) {
            const std::string id = "vulkan" + std::to_string(d.index);
            if (w == id || w == std::to_string(d.index) || lower(d.name).find(w) != std::string::npos)
                return d.usable ? d.index : (why = d.name + " " + d.whyNot, -1);
        }
        why = "no Vulkan device matches '" + wanted + "' (hearth --list-devices shows them)";
        return -1;
    }
    const auto rank = [](DeviceKind k) {
        return k == DeviceKind::DiscreteGpu     ? 0
               : k == DeviceKind::IntegratedGpu ? 1
               : k == DeviceKind::OtherGpu      ? 2
                                                : 9;
    };
    int best = -1;
    for (const DeviceDescription& d : all)
        if (d.usable && rank(d.kind) < 9 && (best < 0 || rank(d.kind) < rank(all[static_cast<size_t>(best)].kind)))
            best = d.index;
    if (best < 0)
        why = all.empty() ? "no Vulkan device found" : "no Vulkan GPU found (a CPU device is used only with --device)";
    return best;
}

DeviceList listDevices()
{
    DeviceList list;
    try {
        VkInstance instance = createInstance();
        int i = 0;
        for (VkPhysicalDevice pd : physicalDevices(instance))
            list.devices.push_back(describe(pd, i++));
        vkDestroyInstance(instance, nullptr);
        if (list.devices.empty())
            list.error = "no Vulkan device found";
    } catch (const Error& e) {
        list.error = e.what();
    }
    return list;
}

Device::Device(const std::string& wantedIn)
{
    const std::string& wanted = wantedIn;
    m_instance = createInstance();
    try {
        const std::vector<VkPhysicalDevice> pds = physicalDevices(m_instance);
        std::vector<DeviceDescription> all;
        for (size_t i = 0; i < pds.size(); ++i)
            all.push_back(describe(pds[i], static_cast<int>(i)));
        std::string why;
        const int index = chooseDevice(all, wanted, why);
        if (index < 0)
            throw Error(why);
        m_physical = pds[static_cast<size_t>(index)];
        m_desc = all[static_cast<size_t>(index)];
        vkGetPhysicalDeviceProperties(m_physical, &m_props);
        vkGetPhysicalDeviceMemoryProperties(m_physical, &m_memory);
        m_localHeap = localHeap(m_memory);
        VkPhysicalDeviceMaintenance3Properties m3{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES};
        VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        p2.pNext = &m3;
        vkGetPhysicalDeviceProperties2(m_physical, &p2);
        m_maxAllocation = std::min<uint64_t>(m3.maxMemoryAllocationSize, uint64_t{1} << 32);

        uint32_t nq = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(m_physical, &nq, nullptr);
        std::vector<VkQueueFamilyProperties> qf(nq);
        vkGetPhysicalDeviceQueueFamilyProperties(m_physical, &nq, qf.data());
        bool found = false;
        for (uint32_t i = 0; i < nq && !found; ++i)
            if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
                m_queueFamily = i, found = true;
        if (!found)
            throw Error(m_desc.name + " has no compute queue");

        std::vector<const char*> ext;
        m_budget = hasExtension(m_physical, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
        if (m_budget)
            ext.push_back(VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
        m_feedback = VK_API_VERSION_MINOR(m_props.apiVersion) >= 3 ||
                     hasExtension(m_physical, VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
        if (m_feedback && VK_API_VERSION_MINOR(m_props.apiVersion) < 3)
            ext.push_back(VK_EXT_PIPELINE_CREATION_FEEDBACK_EXTENSION_NAME);
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        q.queueFamilyIndex = m_queueFamily;
        q.queueCount = 1;
        q.pQueuePriorities = &priority;
        VkPhysicalDevice16BitStorageFeatures s16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
        s16.storageBuffer16BitAccess = VK_TRUE;
        VkDeviceCreateInfo ci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        ci.pNext = &s16;
        ci.queueCreateInfoCount = 1;
        ci.pQueueCreateInfos = &q;
        ci.enabledExtensionCount = static_cast<uint32_t>(ext.size());
        ci.ppEnabledExtensionNames = ext.data();
        check(vkCreateDevice(m_physical, &ci, nullptr, &m_device), "vkCreateDevice");
        volkLoadDevice(m_device);
        vkGetDeviceQueue(m_device, m_queueFamily, 0, &m_queue);
    } catch (...) {
        vkDestroyInstance(m_instance, nullptr);
        throw;
    }
}

Device::~Device()
{
    if (m_device)
        vkDestroyDevice(m_device, nullptr);
    vkDestroyInstance(m_instance, nullptr);
}

uint64_t Device::freeMemory(uint64_t allocatedHere) const
{
    uint64_t usage = 0;
    const uint64_t budget = budgetOf(m_physical, m_localHeap, m_budget, usage);
    if (budget > 0)
        return budget > usage ? budget - usage : 0;
    const uint64_t total = m_desc.memoryFree;
    return total > allocatedHere ? total - allocatedHere : 0;
}

int Device::memoryType(uint32_t typeBits, VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) const
{
    int fallback = -1;
    for (uint32_t i = 0; i < m_memory.memoryTypeCount; ++i) {
        if (!(typeBits & (1u << i)))
            continue;
        const VkMemoryPropertyFlags f = m_memory.memoryTypes[i].propertyFlags;
        if ((f & required) != required)
            continue;
        if ((f & preferred) == preferred)
            return static_cast<int>(i);
        if (fallback < 0)
            fallback = static_cast<int>(i);
    }
    return fallback;
}

} // namespace hearth::vulkan
