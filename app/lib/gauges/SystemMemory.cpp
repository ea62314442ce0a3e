#include "gauges/SystemMemory.h"

#include <QFile>

#if defined(Q_OS_WIN)
#include <windows.h>
// windows.h first: psapi.h needs its types.
#include <psapi.h>
#elif defined(Q_OS_MACOS)
#include <mach/mach.h>
#include <sys/sysctl.h>
#include <unistd.h>
#else
#include <unistd.h>
#endif

namespace SystemMemory {

#if defined(Q_OS_LINUX)
// A field of /proc/meminfo in bytes ("MemAvailable:  123 kB").
static qint64 meminfoField(const QByteArray& name)
{
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray& line : lines) {
        if (!line.startsWith(name))
            continue;
        const QList<QByteArray> parts = line.mid(name.size()).simplified().split(' ');
        return parts.isEmpty() ? 0 : parts.first().toLongLong() * 1024;
    }
    return 0;
}
#endif

qint64 processResidentBytes()
{
#if defined(Q_OS_LINUX)
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? parts[1].toLongLong() * sysconf(_SC_PAGESIZE) : 0;
#elif defined(Q_OS_MACOS)
    mach_task_basic_info info{};
    mach_msg_type_number_t count = MACH_TASK_BASIC_INFO_COUNT;
    if (task_info(mach_task_self(), MACH_TASK_BASIC_INFO, reinterpret_cast<task_info_t>(&info), &count) != KERN_SUCCESS)
        return 0;
    return qint64(info.resident_size);
#elif defined(Q_OS_WIN)
    PROCESS_MEMORY_COUNTERS pmc{};
    return GetProcessMemoryInfo(GetCurrentProcess(), &pmc, sizeof(pmc)) ? qint64(pmc.WorkingSetSize) : 0;
#else
    return 0;
#endif
}

qint64 availableBytes()
{
#if defined(Q_OS_LINUX)
    return meminfoField("MemAvailable:");
#elif defined(Q_OS_MACOS)
    vm_statistics64_data_t vm{};
    mach_msg_type_number_t count = HOST_VM_INFO64_COUNT;
    if (host_statistics64(mach_host_self(), HOST_VM_INFO64, reinterpret_cast<host_info64_t>(&vm), &count) !=
        KERN_SUCCESS)
        return 0;
    return qint64(vm.free_count + vm.inactive_count + vm.purgeable_count) * qint64(sysconf(_SC_PAGESIZE));
#elif defined(Q_OS_WIN)
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof(status);
    return GlobalMemoryStatusEx(&status) ? qint64(status.ullAvailPhys) : 0;
#else
    return 0;
#endif
}

qint64 totalBytes()
{
#if defined(Q_OS_LINUX)
    return meminfoField("MemTotal:");
#elif defined(Q_OS_MACOS)
    int64_t bytes = 0;
    size_t size = sizeof(bytes);
    return sysctlbyname("hw.memsize", &bytes, &size, nullptr, 0) == 0 ? bytes : 0;
#elif defined(Q_OS_WIN)
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof(status);
    return GlobalMemoryStatusEx(&status) ? qint64(status.ullTotalPhys) : 0;
#else
    return 0;
#endif
}

} // namespace SystemMemory
