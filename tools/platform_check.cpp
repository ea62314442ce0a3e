#include "platform_check.h"

#include "cpu/affinity.h"
#include "cpu/cpu_features.h"
#include "gguf/gguf.h"
#include "gguf/gguf_writer.h"
#include "util/mapped_file.h"
#include "util/system_memory.h"
#include "util/utf8_path.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <thread>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX // MinGW's C++ headers define it already
#define NOMINMAX
#endif
#include <windows.h>
// After windows.h: winioctl.h needs its types.
#include <winioctl.h>
#else
#include <fcntl.h>
#include <unistd.h>
#endif

namespace hearth::tools {

namespace {

namespace fs = std::filesystem;

// A folder and a file name in three scripts and outside the BMP.
const std::string kFolder = "平台 Zoë ✓";
const std::string kFile = "模型 😀.gguf";
constexpr uint64_t kLargeSize = (4ull << 30) + (1u << 20); // 4 GiB + 1 MiB
constexpr uint64_t kMarkerOffset = (4ull << 30) + 12345;   // past every 32-bit offset
constexpr char kMarker[] = "hearth-large-file";

// Writes kMarker at kMarkerOffset of a new sparse file of kLargeSize bytes,
// so the test costs a few KiB of disk however large the file looks.
void writeSparse(const std::string& path)
{
#ifdef _WIN32
    HANDLE f = CreateFileW(pathFromUtf8(path).c_str(), GENERIC_READ | GENERIC_WRITE, 0, nullptr, CREATE_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
    if (f == INVALID_HANDLE_VALUE)
        throw std::runtime_error("cannot create " + path);
    DWORD got = 0;
    // Without the sparse flag NTFS would write 4 GiB of zeros.
    DeviceIoControl(f, FSCTL_SET_SPARSE, nullptr, 0, nullptr, 0, &got, nullptr);
    LARGE_INTEGER at;
    at.QuadPart = static_cast<LONGLONG>(kMarkerOffset);
    bool ok = SetFilePointerEx(f, at, nullptr, FILE_BEGIN) && WriteFile(f, kMarker, sizeof(kMarker), &got, nullptr) &&
              got == sizeof(kMarker);
    at.QuadPart = static_cast<LONGLONG>(kLargeSize);
    ok = ok && SetFilePointerEx(f, at, nullptr, FILE_BEGIN) && SetEndOfFile(f);
    CloseHandle(f);
#else
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        throw std::runtime_error("cannot create " + path);
    bool ok = ::pwrite(fd, kMarker, sizeof(kMarker), static_cast<off_t>(kMarkerOffset)) ==
              static_cast<ssize_t>(sizeof(kMarker));
    ok = ok && ::ftruncate(fd, static_cast<off_t>(kLargeSize)) == 0;
    ::close(fd);
#endif
    if (!ok)
        throw std::runtime_error("cannot write " + path);
}

std::string checkUtf16Path(const std::string& dir)
{
    const std::string folder = dir + "/" + kFolder;
    fs::create_directories(pathFromUtf8(folder));
    const std::string file = folder + "/" + kFile;
    {
        gguf::Writer w;
        w.addString("general.name", kFolder);
        w.addUInt32("test.value", 4242);
        w.write(file);
    }
    std::string facts;
    {
        const gguf::File f(file);
        if (f.getString("general.name") != kFolder || f.findInt("test.value") != 4242)
            throw std::runtime_error("metadata read back wrong from " + file);
        facts = "wrote and read " + std::to_string(fs::file_size(pathFromUtf8(file))) + " bytes";
    }
    fs::remove_all(pathFromUtf8(folder));
    return facts;
}

std::string checkLargeFile(const std::string& dir)
{
    const std::string path = dir + "/large " + kFile + ".bin";
    writeSparse(path);
    std::string facts;
    {
        const MappedFile map(path);
        if (map.size() != kLargeSize)
            throw std::runtime_error("mapped " + std::to_string(map.size()) + " bytes, the file has " +
                                     std::to_string(kLargeSize));
        map.prefetch(kMarkerOffset, sizeof(kMarker));
        if (std::memcmp(map.data() + kMarkerOffset, kMarker, sizeof(kMarker)) != 0)
            throw std::runtime_error("the bytes at offset " + std::to_string(kMarkerOffset) + " are not the marker");
        if (map.data()[kLargeSize - 1] != 0 || map.data()[0] != 0)
            throw std::runtime_error("a hole of the sparse file does not read as zeros");
        const size_t resident = map.residentBytes(kMarkerOffset, sizeof(kMarker));
        if (resident == 0)
            throw std::runtime_error("the page just read is not counted as resident");
        facts = "mapped " + std::to_string(map.size()) + " bytes, marker at " + std::to_string(kMarkerOffset) +
                ", its page resident";
    }
    fs::remove(pathFromUtf8(path));
    return facts;
}

std::string checkCpu()
{
    return std::string("features ") + cpu::describeCpu() + ", isa " + cpu::isaName(cpu::activeIsa());
}

std::string checkAffinity()
{
    const std::vector<int> cpus = cpu::allowedCpus();
    int pinned = 0, unsupported = 0;
    for (const int c : cpus) {
        bool ok = false;
        int where = -1;
        std::thread t([&] {
            ok = cpu::pinCurrentThread(c);
            std::this_thread::yield(); // give the scheduler a chance to move it
            where = cpu::currentCpu();
        });
        t.join();
        if (!ok)
            ++unsupported;
        else if (where >= 0 && where != c)
            throw std::runtime_error("a thread pinned to processor " + std::to_string(c) + " ran on " +
                                     std::to_string(where));
        else
            ++pinned;
    }
#ifdef __APPLE__
    (void)unsupported; // macOS has no hard affinity
#else
    if (unsupported)
        throw std::runtime_error(std::to_string(unsupported) + " processors refused a pinned thread");
#endif
    return std::to_string(cpus.size()) + " processors allowed, " + std::to_string(pinned) + " pinned";
}

std::string checkMemory()
{
    const uint64_t total = systemMemoryTotal(), rss = processResidentBytes();
    if (total == 0 || rss == 0 || systemMemoryAvailable() == 0)
        throw std::runtime_error("a memory figure reads 0");
    // MiB rounded to 64 so that two OSes' accounting of the same RAM agree.
    return "system " + std::to_string((total >> 20) / 64 * 64) + " MiB";
}

} // namespace

int runPlatformChecks(const std::string& dir)
{
    const std::pair<const char*, std::function<std::string()>> checks[] = {
        {"utf16-path", [&] { return checkUtf16Path(dir); }},
        {"large-file", [&] { return checkLargeFile(dir); }},
        {"cpu", checkCpu},
        {"affinity", checkAffinity},
        {"memory", checkMemory},
    };
    int failed = 0;
    for (const auto& [name, check] : checks) {
        try {
            const std::string facts = check();
            std::printf("ok %s: %s\n", name, facts.c_str());
        } catch (const std::exception& e) {
            std::printf("FAIL %s: %s\n", name, e.what());
            ++failed;
        }
    }
    std::fflush(stdout);
    return failed;
}

} // namespace hearth::tools
