// JSON input of the converter (config.json, tokenizer.json, safetensors
// headers, ...): nlohmann::json with the checks a hostile file needs. Nesting
// deeper than kMaxJsonDepth is refused before parsing, so a file of a million
// '[' cannot exhaust the stack; every error names the file.
//
// The typed getters throw hearth::Error naming the file and the key when a
// value has the wrong type; the find* variants return nullopt when the key is
// absent (or null) and throw only for a wrong type.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace hearth::convert {

using Json = nlohmann::json;

inline constexpr int kMaxJsonDepth = 256;

// Throws hearth::Error when `text` nests arrays/objects deeper than
// kMaxJsonDepth (before any parser recurses into it).
void checkJsonDepth(std::string_view text, const std::string& what);
// Parses `text`, named `what` in errors. Throws hearth::Error.
Json parseJson(std::string_view text, const std::string& what);
// Reads and parses a file (at most maxBytes). Throws hearth::Error.
Json readJsonFile(const std::filesystem::path& path, uint64_t maxBytes = uint64_t{1} << 30);

// A JSON object and the name of the file it came from, for error messages.
class JsonObject {
public:
    JsonObject() = default;
    JsonObject(const Json* object, std::string where);

    bool valid() const { return m_json != nullptr; }
    const Json* json() const { return m_json; }
    const std::string& where() const { return m_where; }
    bool has(std::string_view key) const;
    const Json* find(std::string_view key) const; // nullptr when absent or null

    std::optional<int64_t> findInt(std::string_view key) const;
    std::optional<double> findFloat(std::string_view key) const;
    std::optional<bool> findBool(std::string_view key) const;
    std::optional<std::string> findString(std::string_view key) const;
    JsonObject findObject(std::string_view key) const; // invalid when absent

    int64_t getInt(std::string_view key) const;
    double getFloat(std::string_view key) const;
    std::string getString(std::string_view key) const;

    [[noreturn]] void fail(std::string_view key, const std::string& what) const;

private:
    const Json* m_json = nullptr;
    std::string m_where;
};

} // namespace hearth::convert
