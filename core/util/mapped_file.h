// A read-only memory mapping of a whole file (mmap on POSIX, MapViewOfFile
// on Windows). Pages are read from disk only when touched, so opening a
// multi-gigabyte model and reading its header costs a few page faults.
//
// Thread-safety: the mapping is immutable; any thread may read it.
// Ownership: move-only; the mapping lives until the object is destroyed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hearth {

class MappedFile {
public:
    MappedFile() = default;
    // Maps `path` read-only. Throws hearth::Error naming the file on failure.
    explicit MappedFile(const std::string& path);
    // Presents `size` bytes the caller owns as if they were a mapped file
    // named `name` (in-memory files, tests, fuzzing). Nothing is copied;
    // the memory must outlive the object.
    static MappedFile borrow(const uint8_t* data, size_t size, std::string name);
    ~MappedFile();

    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    const uint8_t* data() const { return m_data; }
    size_t size() const { return m_size; }
    const std::string& path() const { return m_path; }

    // Hints the OS that [offset, offset+length) will be read soon.
    void prefetch(size_t offset, size_t length) const;
    // Tells the OS this process is done with the whole pages inside
    // [offset, offset+length): they leave its resident set (the file's page
    // cache keeps them). Streaming tools call it so that reading a 7B model
    // once does not grow the process to the model's size. Best effort.
    void evict(size_t offset, size_t length) const;
    // Bytes of the mapping that are resident in RAM now (best effort; 0 where
    // the platform cannot tell), whole pages counted.
    size_t residentBytes() const { return residentBytes(0, m_size); }
    // The same for the pages that hold [offset, offset+length).
    size_t residentBytes(size_t offset, size_t length) const;

private:
    void release() noexcept;

    std::string m_path;
    const uint8_t* m_data = nullptr;
    size_t m_size = 0;
    bool m_borrowed = false; // memory from borrow(): not ours to unmap
#ifdef _WIN32
    void* m_fileHandle = nullptr;
    void* m_mappingHandle = nullptr;
#endif
};

} // namespace hearth
