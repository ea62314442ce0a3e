#include "util/mapped_file.h"

#include "util/error.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX // MinGW's C++ headers define it already
#define NOMINMAX
#endif
#include <windows.h>
// After windows.h: psapi.h needs its types.
#include <psapi.h>
#else
#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace hearth {

#ifdef _WIN32

static std::wstring widen(const std::string& utf8)
{
    const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.c_str(), -1, nullptr, 0);
    std::wstring out(n > 0 ? n - 1 : 0, L'\0');
    if (n > 1)
        MultiByteToWideChar(CP_UTF8, 0, utf8.c_str(), -1, out.data(), n);
    return out;
}

MappedFile::MappedFile(const std::string& path) : m_path(path)
{
    HANDLE file = CreateFileW(widen(path).c_str(), GENERIC_READ, FILE_SHARE_READ, nullptr, OPEN_EXISTING,
                              FILE_ATTRIBUTE_NORMAL, nullptr);
    if (file == INVALID_HANDLE_VALUE)
        throw Error(path + ": cannot open file (Windows error " + std::to_string(GetLastError()) + ")");
    LARGE_INTEGER size;
    if (!GetFileSizeEx(file, &size)) {
        CloseHandle(file);
        throw Error(path + ": cannot read the file size");
    }
    m_fileHandle = file;
    m_size = static_cast<size_t>(size.QuadPart);
    if (m_size == 0)
        return;
    HANDLE mapping = CreateFileMappingW(file, nullptr, PAGE_READONLY, 0, 0, nullptr);
    if (!mapping) {
        release();
        throw Error(path + ": cannot map file (Windows error " + std::to_string(GetLastError()) + ")");
    }
    m_mappingHandle = mapping;
    m_data = static_cast<const uint8_t*>(MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0));
    if (!m_data) {
        release();
        throw Error(path + ": cannot map a view of the file");
    }
}

void MappedFile::release() noexcept
{
    if (m_data && !m_borrowed)
        UnmapViewOfFile(m_data);
    if (m_mappingHandle)
        CloseHandle(m_mappingHandle);
    if (m_fileHandle)
        CloseHandle(m_fileHandle);
    m_data = nullptr;
    m_mappingHandle = nullptr;
    m_fileHandle = nullptr;
    m_size = 0;
}

void MappedFile::prefetch(size_t offset, size_t length) const
{
    if (!m_data || offset >= m_size)
        return;
    WIN32_MEMORY_RANGE_ENTRY range;
    range.VirtualAddress = const_cast<uint8_t*>(m_data + offset);
    range.NumberOfBytes = std::min(length, m_size - offset);
    PrefetchVirtualMemory(GetCurrentProcess(), 1, &range, 0);
}

size_t MappedFile::residentBytes(size_t offset, size_t length) const
{
    if (offset >= m_size)
        return 0;
    length = std::min(length, m_size - offset);
    if (m_borrowed)
        return length;
    if (!m_data || length == 0)
        return 0;
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    const size_t page = si.dwPageSize;
    const uintptr_t first = reinterpret_cast<uintptr_t>(m_data + offset) / page * page;
    const uintptr_t end = reinterpret_cast<uintptr_t>(m_data + offset + length);
    // The working set is asked a batch of pages at a time: one entry each.
    constexpr size_t kBatch = 4096;
    std::vector<PSAPI_WORKING_SET_EX_INFORMATION> info(kBatch);
    size_t resident = 0;
    for (uintptr_t at = first; at < end;) {
        size_t n = 0;
        for (; n < kBatch && at < end; ++n, at += page) {
            info[n] = {};
            info[n].VirtualAddress = reinterpret_cast<void*>(at);
        }
        if (!QueryWorkingSetEx(GetCurrentProcess(), info.data(), static_cast<DWORD>(n * sizeof(info[0]))))
            return 0;
        for (size_t i = 0; i < n; ++i)
            resident += info[i].VirtualAttributes.Valid ? page : 0;
    }
    return resident;
}

void MappedFile::evict(size_t offset, size_t length) const
{
    if (!m_data || m_borrowed || offset >= m_size)
        return;
    // Unlocked pages of a view leave the working set.
    VirtualUnlock(const_cast<uint8_t*>(m_data + offset), std::min(length, m_size - offset));
}

#else

MappedFile::MappedFile(const std::string& path) : m_path(path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw Error(path + ": cannot open file: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        throw Error(path + ": cannot stat file: " + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw Error(path + ": not a regular file");
    }
    m_size = static_cast<size_t>(st.st_size);
    if (m_size > 0) {
        void* p = ::mmap(nullptr, m_size, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            m_size = 0;
            throw Error(path + ": cannot map file: " + std::strerror(err));
        }
        m_data = static_cast<const uint8_t*>(p);
    }
    ::close(fd); // the mapping keeps the file referenced
}

void MappedFile::release() noexcept
{
    if (m_data && !m_borrowed)
        ::munmap(const_cast<uint8_t*>(m_data), m_size);
    m_data = nullptr;
    m_size = 0;
}

void MappedFile::prefetch(size_t offset, size_t length) const
{
    if (!m_data || m_borrowed || offset >= m_size)
        return;
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t begin = offset / page * page;
    const size_t end = std::min(m_size, offset + length);
    ::madvise(const_cast<uint8_t*>(m_data + begin), end - begin, MADV_WILLNEED);
}

void MappedFile::evict(size_t offset, size_t length) const
{
    if (!m_data || m_borrowed || offset >= m_size)
        return;
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t begin = (offset + page - 1) / page * page; // whole pages only
    const size_t end = std::min(m_size, offset + length) / page * page;
    if (end > begin)
        ::madvise(const_cast<uint8_t*>(m_data + begin), end - begin, MADV_DONTNEED);
}

size_t MappedFile::residentBytes(size_t offset, size_t length) const
{
    if (offset >= m_size)
        return 0;
    length = std::min(length, m_size - offset);
    if (m_borrowed)
        return length;
    if (!m_data || length == 0)
        return 0;
    const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    const size_t begin = offset / page * page;
    const size_t pages = (offset + length - begin + page - 1) / page;
#ifdef __APPLE__
    std::vector<char> vec(pages);
#else
    std::vector<unsigned char> vec(pages);
#endif
    if (::mincore(const_cast<uint8_t*>(m_data + begin), offset + length - begin, vec.data()) != 0)
        return 0;
    size_t resident = 0;
    for (auto v : vec)
        resident += (v & 1) ? page : 0;
    return resident;
}

#endif

MappedFile MappedFile::borrow(const uint8_t* data, size_t size, std::string name)
{
    MappedFile m;
    m.m_path = std::move(name);
    m.m_data = size > 0 ? data : nullptr;
    m.m_size = size;
    m.m_borrowed = true;
    return m;
}

MappedFile::~MappedFile()
{
    release();
}

MappedFile::MappedFile(MappedFile&& other) noexcept
{
    *this = std::move(other);
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept
{
    if (this != &other) {
        release();
        m_path = std::move(other.m_path);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_borrowed = std::exchange(other.m_borrowed, false);
#ifdef _WIN32
        m_fileHandle = std::exchange(other.m_fileHandle, nullptr);
        m_mappingHandle = std::exchange(other.m_mappingHandle, nullptr);
#endif
    }
    return *this;
}

} // namespace hearth
