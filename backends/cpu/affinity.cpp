#include "cpu/affinity.h"

#include <thread>

#if defined(_WIN32)
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX // MinGW's C++ headers define it already
#define NOMINMAX
#endif
#include <windows.h>
#elif defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

namespace hearth::cpu {

namespace {

std::vector<int> everyCpu()
{
    const unsigned n = std::thread::hardware_concurrency();
    std::vector<int> cpus;
    for (unsigned i = 0; i < (n == 0 ? 1u : n); ++i)
        cpus.push_back(static_cast<int>(i));
    return cpus;
}

} // namespace

#if defined(_WIN32)

std::vector<int> allowedCpus()
{
    std::vector<int> cpus;
    const WORD groups = GetActiveProcessorGroupCount();
    DWORD_PTR process = 0, system = 0;
    if (groups <= 1 && GetProcessAffinityMask(GetCurrentProcess(), &process, &system)) {
        for (int bit = 0; bit < static_cast<int>(sizeof(DWORD_PTR) * 8); ++bit)
            if ((process >> bit) & 1)
                cpus.push_back(bit);
    } else {
        // Since Windows 11 a process runs on every group; the mask above
        // would describe only its primary one.
        for (WORD g = 0; g < groups; ++g)
            for (DWORD i = 0; i < GetActiveProcessorCount(g); ++i)
                cpus.push_back(static_cast<int>(g) * 64 + static_cast<int>(i));
    }
    return cpus.empty() ? everyCpu() : cpus;
}

bool pinCurrentThread(int cpu)
{
    if (cpu < 0)
        return false;
    GROUP_AFFINITY affinity{};
    affinity.Group = static_cast<WORD>(cpu / 64);
    affinity.Mask = static_cast<KAFFINITY>(1) << (cpu % 64);
    return SetThreadGroupAffinity(GetCurrentThread(), &affinity, nullptr) != 0;
}

int currentCpu()
{
    PROCESSOR_NUMBER n{};
    GetCurrentProcessorNumberEx(&n);
    return static_cast<int>(n.Group) * 64 + static_cast<int>(n.Number);
}

#elif defined(__linux__)

std::vector<int> allowedCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return everyCpu();
    std::vector<int> cpus;
    for (int i = 0; i < CPU_SETSIZE; ++i)
        if (CPU_ISSET(i, &set))
            cpus.push_back(i);
    return cpus.empty() ? everyCpu() : cpus;
}

bool pinCurrentThread(int cpu)
{
    if (cpu < 0 || cpu >= CPU_SETSIZE)
        return false;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

int currentCpu()
{
    return sched_getcpu();
}

#else

std::vector<int> allowedCpus()
{
    return everyCpu();
}

bool pinCurrentThread(int)
{
    return false;
}

int currentCpu()
{
    return -1;
}

#endif

} // namespace hearth::cpu
