// Internal to core/gguf: parses one mapped GGUF file (the format is
// described in gguf.h). gguf::File calls it once per file of a model.
#pragma once

#include "gguf/gguf.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hearth::gguf {

struct ParsedFile {
    uint32_t version = 0;
    uint64_t alignment = 32;
    uint64_t dataOffset = 0;
    std::vector<KeyValue> metadata;
    std::unordered_map<std::string_view, size_t> keyIndex;    // into metadata
    std::vector<TensorInfo> tensors;                          // data pointers set, split = 0
    std::unordered_map<std::string_view, size_t> tensorIndex; // into tensors
};

// Validates the whole header and every tensor's data range against the
// mapping. Throws hearth::Error naming `path`, what is wrong and where.
// With `declaredSize` > 0 the mapping holds only the first bytes of a file
// of that size: lengths and tensor ranges are checked against the whole
// file, a read past the mapping throws IncompleteHeader, and tensor data
// pointers stay null.
// Memory: the bookkeeping it allocates is charged against the file's size
// plus a fixed 1 MiB before it is allocated, so no file makes it allocate
// more than that.
ParsedFile parseFile(const MappedFile& map, const std::string& path, uint64_t declaredSize = 0);

// `s` quoted for an error message: at most 80 characters, control bytes
// escaped.
std::string quoted(std::string_view s);

} // namespace hearth::gguf
