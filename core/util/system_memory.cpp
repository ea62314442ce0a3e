#include "util/system_memory.h"

#if defined(_WIN32)
#ifndef NOMINMAX // MinGW's C++ headers define it already
#define NOMINMAX
#endif
#include <windows.h>
// After windows.h: psapi.h needs its types.
#include <psapi.h>
#elif defined(__APPLE__)
#include <mach/mach.h>
#include <sys/resource.h>
#include <sys/sysctl.h>
#include <unistd.h>
#else
#include <cstdio>
#include <cstring>
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace hearth {

#if defined(_WIN32)

uint64_t systemMemoryTotal()
{
    MEMORYSTATUSEX s{};
    s.dwLength = sizeof(s);
    return GlobalMemoryStatusEx(&s) ? s.ullTotalPhys : 0;
}

uint64_t systemMemoryAvailable()
{
    MEMORYSTATUSEX s{};
    s.dwLength = sizeof(s);
    return GlobalMemoryStatusEx(&s) ? s.ullAvailPhys : 0;
}

uint64_t processResidentBytes()
{
    PROCESS_MEMORY_COUNTERS c{};
    return GetProcessMemoryInfo(GetCurrentProcess(), &c, sizeof(c)) ? c.WorkingSetSize : 0;
}

uint64_t processPeakResidentBytes()
{
    PROCESS_MEMORY_COUNTERS c{};
    return GetProcessMemoryInfo(GetCurrentProcess(), &c, sizeof(c)) ? c.PeakWorkingSetSize : 0;
}

bool resetProcessPeakResident()
{
    return false;
}

#elif defined(__APPLE__)

uint64_t systemMemoryTotal()
{
    uint64_t mem = 0;
    size_t len = sizeof(mem);
    return sysctlbyname("hw.memsize", &mem, &len, nullptr, 0) == 0 ? mem : 0;
}

uint64_t systemMemoryAvailable()
{
    vm_statistics64_data_t vm{};
    mach_msg_type_number_t count = HOST_VM_INFO64_COUNT;
    if (host_statistics64(mach_host_self(), HOST_VM_INFO64, reinterpret_cast<host_info64_t>(&vm), &count) !=
        KERN_SUCCESS)
        return 0;
    const auto page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    return (static_cast<uint64_t>(vm.free_count) + vm.inactive_count) * page;
}

uint64_t processResidentBytes()
{
    mach_task_basic_info info{};
    mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
    if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, reinterpret_cast<task_info_t>(&info), &count) != KERN_SUCCESS)
        return 0;
    return info.resident_size;
}

uint64_t processPeakResidentBytes()
{
    rusage u{};
    return getrusage(RUSAGE_SELF, &u) == 0 ? static_cast<uint64_t>(u.ru_maxrss) : 0; // bytes on macOS
}

bool resetProcessPeakResident()
{
    return false;
}

#else

namespace {

uint64_t meminfoField(const char* name)
{
    FILE* f = std::fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    char line[256];
    uint64_t value = 0;
    const size_t len = std::strlen(name);
    while (std::fgets(line, sizeof(line), f)) {
        if (std::strncmp(line, name, len) == 0 && line[len] == ':') {
            unsigned long long kb = 0;
            if (std::sscanf(line + len + 1, "%llu", &kb) == 1)
                value = kb * 1024ull;
            break;
        }
    }
    std::fclose(f);
    return value;
}

} // namespace

uint64_t systemMemoryTotal()
{
    return meminfoField("MemTotal");
}

uint64_t systemMemoryAvailable()
{
    return meminfoField("MemAvailable");
}

uint64_t processResidentBytes()
{
    FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f)
        return 0;
    unsigned long long size = 0, resident = 0;
    const int got = std::fscanf(f, "%llu %llu", &size, &resident);
    std::fclose(f);
    if (got != 2)
        return 0;
    return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

#if defined(__linux__)

uint64_t processPeakResidentBytes()
{
    // VmHWM, not getrusage: ru_maxrss also keeps the peak of exited threads'
    // accounting and does not restart with clear_refs.
    FILE* f = std::fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    uint64_t value = 0;
    while (std::fgets(line, sizeof(line), f)) {
        unsigned long long kb = 0;
        if (std::sscanf(line, "VmHWM: %llu", &kb) == 1) {
            value = kb * 1024ull;
            break;
        }
    }
    std::fclose(f);
    return value;
}

bool resetProcessPeakResident()
{
    FILE* f = std::fopen("/proc/self/clear_refs", "w");
    if (!f)
        return false;
    const bool ok = std::fputs("5", f) >= 0;
    return std::fclose(f) == 0 && ok;
}

#else

uint64_t processPeakResidentBytes()
{
    rusage u{};
    return getrusage(RUSAGE_SELF, &u) == 0 ? static_cast<uint64_t>(u.ru_maxrss) * 1024ull : 0; // KiB on the BSDs
}

bool resetProcessPeakResident()
{
    return false;
}

#endif

#endif

} // namespace hearth
