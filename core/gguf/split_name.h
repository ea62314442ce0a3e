// How a split model's parts are named: NAME-00002-of-00003.gguf, the
// convention of llama.cpp's gguf-split. The one reading of that name for the
// reader, the models scan, the router, downloads and quantize.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace hearth::gguf {

struct SplitName {
    std::string stem; // what precedes "-00002-of-00003.gguf", with any directory
    int part = 0;     // 1-based, as in the name
    int count = 0;
};

// `path` read as a split part, or nullopt if it is not named like one (the
// extension is ".gguf" in lower case, as gguf-split writes it; a part number
// of 0 or beyond the count is not a split part either).
std::optional<SplitName> parseSplitName(std::string_view path);

// The path of part `part` (1-based) of the split that `name` belongs to.
std::string splitPartPath(const SplitName& name, int part);

// The path of split `index` (0-based) of `count` that sits beside `path`
// ("dir/name-00002-of-00003.gguf"), or nullopt if `path` is not named like a
// split.
std::optional<std::string> splitSiblingPath(const std::string& path, int index, int count);

} // namespace hearth::gguf
