// Safetensors reader: maps a `.safetensors` file read-only and validates its
// header before anything touches tensor data.
//
// Layout: u64 little-endian N, N bytes of JSON (a UTF-8 object, possibly
// padded with spaces), then the data buffer. Each JSON entry but
// "__metadata__" is {"dtype": "F32"|..., "shape": [d0, d1, ...],
// "data_offsets": [begin, end]} with offsets relative to the buffer; shape is
// row-major, d0 outermost (so GGUF's ne is the shape reversed).
//
// Checked: N against the file size (and a 100 MB cap, as the safetensors
// library has), the JSON, every dtype, that shape x dtype size equals
// end - begin (with overflow checks), that every range lies inside the buffer
// and that no two ranges overlap, and that no tensor name repeats. Each
// failure is a hearth::Error naming the file and the tensor.
//
// A set of files (a sharded checkpoint with model.safetensors.index.json, or
// every model*.safetensors of a folder) is SafetensorsSet: one name space,
// tensors in the order llama.cpp's converter visits them (files in name
// order, tensors of a file sorted by name).
//
// Thread-safety: immutable after construction; data stays in the mapping.
#pragma once

#include "util/mapped_file.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hearth::convert {

enum class StDtype {
    F64,
    F32,
    F16,
    BF16,
    I64,
    I32,
    I16,
    I8,
    U8,
    U16,
    U32,
    U64,
    Bool,
    F8_E4M3,
    F8_E5M2,
};

size_t stDtypeSize(StDtype t);
std::string_view stDtypeName(StDtype t);

struct StTensor {
    std::string name;
    StDtype dtype = StDtype::F32;
    std::vector<int64_t> shape; // row-major, outermost first
    const uint8_t* data = nullptr;
    size_t bytes = 0;
    std::string file;                // for error messages
    const MappedFile* map = nullptr; // the mapping holding `data` (nullptr: caller's bytes)

    // Drops the tensor's pages from the process (see MappedFile::evict).
    void evict() const;

    int64_t elements() const;
};

class SafetensorsFile {
public:
    // Maps and validates `path`. Throws hearth::Error.
    explicit SafetensorsFile(const std::filesystem::path& path);
    // Validates bytes held by the caller (tests, fuzzing), named `name`.
    SafetensorsFile(std::span<const uint8_t> bytes, std::string name);

    const std::string& path() const { return m_path; }
    // Sorted by name.
    const std::vector<StTensor>& tensors() const { return m_tensors; }

private:
    void parse(const uint8_t* data, size_t size);

    std::string m_path;
    std::unique_ptr<MappedFile> m_map;
    std::vector<StTensor> m_tensors;
};

class SafetensorsSet {
public:
    // `files` are opened in the order given. With an index (the parsed
    // weight_map of model.safetensors.index.json), the tensors found must be
    // exactly the index's, each in the file the index names.
    explicit SafetensorsSet(const std::vector<std::filesystem::path>& files,
                            const std::filesystem::path& indexFile = {});

    // Every tensor, files in the given order, each file's tensors by name.
    const std::vector<const StTensor*>& tensors() const { return m_order; }
    const StTensor* find(std::string_view name) const;

private:
    std::vector<std::unique_ptr<SafetensorsFile>> m_files;
    std::vector<const StTensor*> m_order;
    std::unordered_map<std::string_view, const StTensor*> m_byName;
};

} // namespace hearth::convert
