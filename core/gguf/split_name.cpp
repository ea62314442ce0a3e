#include "gguf/split_name.h"

#include <cstdio>

namespace hearth::gguf {

namespace {

constexpr std::string_view kExtension = ".gguf";
// "-" 5 digits "-of-" 5 digits ".gguf"
constexpr size_t kSuffix = 1 + 5 + 4 + 5 + kExtension.size();

std::optional<int> fiveDigits(std::string_view s)
{
    int value = 0;
    for (const char c : s) {
        if (c < '0' || c > '9')
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

} // namespace

std::optional<SplitName> parseSplitName(std::string_view path)
{
    if (path.size() <= kSuffix || !path.ends_with(kExtension))
        return std::nullopt;
    const std::string_view suffix = path.substr(path.size() - kSuffix);
    if (suffix[0] != '-' || suffix.substr(6, 4) != "-of-")
        return std::nullopt;
    const std::optional<int> part = fiveDigits(suffix.substr(1, 5));
    const std::optional<int> count = fiveDigits(suffix.substr(10, 5));
    if (!part || !count || *part < 1 || *part > *count)
        return std::nullopt;
    return SplitName{std::string(path.substr(0, path.size() - kSuffix)), *part, *count};
}

std::string splitPartPath(const SplitName& name, int part)
{
    char tail[32];
    std::snprintf(tail, sizeof tail, "-%05d-of-%05d.gguf", part, name.count);
    return name.stem + tail;
}

std::optional<std::string> splitSiblingPath(const std::string& path, int index, int count)
{
    std::optional<SplitName> name = parseSplitName(path);
    if (!name)
        return std::nullopt;
    name->count = count;
    return splitPartPath(*name, index + 1);
}

} // namespace hearth::gguf
