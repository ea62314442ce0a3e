#include "convert/json_file.h"

#include "util/error.h"

#include <algorithm>
#include <fstream>

namespace hearth::convert {

namespace {

// The deepest nesting of arrays and objects in `text`, stopping as soon as
// it passes `limit` (strings are skipped, escapes included).
int nestingDepth(std::string_view text, int limit)
{
    int depth = 0, deepest = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit)
                return deepest;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

} // namespace

void checkJsonDepth(std::string_view text, const std::string& what)
{
    if (nestingDepth(text, kMaxJsonDepth) > kMaxJsonDepth)
        throw Error(what + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
}

Json parseJson(std::string_view text, const std::string& what)
{
    checkJsonDepth(text, what);
    try {
        return Json::parse(text.begin(), text.end());
    } catch (const Json::exception& e) {
        throw Error(what + ": not valid JSON (" + e.what() + ")");
    }
}

Json readJsonFile(const std::filesystem::path& path, uint64_t maxBytes)
{
    const std::string name = path.string();
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec)
        throw Error(name + ": cannot read (" + ec.message() + ")");
    if (size > maxBytes)
        throw Error(name + ": " + std::to_string(size) + " bytes is too large for a JSON file (limit " +
                    std::to_string(maxBytes) + ")");
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<size_t>(size), '\0');
    if (!in || !in.read(text.data(), static_cast<std::streamsize>(size)))
        throw Error(name + ": cannot read");
    return parseJson(text, name);
}

JsonObject::JsonObject(const Json* object, std::string where) : m_json(object), m_where(std::move(where))
{
    if (m_json && !m_json->is_object())
        throw Error(m_where + ": expected a JSON object");
}

bool JsonObject::has(std::string_view key) const
{
    return find(key) != nullptr;
}

const Json* JsonObject::find(std::string_view key) const
{
    if (!m_json)
        return nullptr;
    const auto it = m_json->find(key);
    if (it == m_json->end() || it->is_null())
        return nullptr;
    return &*it;
}

void JsonObject::fail(std::string_view key, const std::string& what) const
{
    throw Error(m_where + ": \"" + std::string(key) + "\" " + what);
}

std::optional<int64_t> JsonObject::findInt(std::string_view key) const
{
    const Json* v = find(key);
    if (!v)
        return std::nullopt;
    if (v->is_number_integer())
        return v->get<int64_t>();
    if (v->is_number_float()) { // 1e5 or 4096.0 in hand-edited configs
        const double d = v->get<double>();
        if (d == static_cast<double>(static_cast<int64_t>(d)))
            return static_cast<int64_t>(d);
    }
    fail(key, "must be an integer");
}

std::optional<double> JsonObject::findFloat(std::string_view key) const
{
    const Json* v = find(key);
    if (!v)
        return std::nullopt;
    if (!v->is_number())
        fail(key, "must be a number");
    return v->get<double>();
}

std::optional<bool> JsonObject::findBool(std::string_view key) const
{
    const Json* v = find(key);
    if (!v)
        return std::nullopt;
    if (!v->is_boolean())
        fail(key, "must be true or false");
    return v->get<bool>();
}

std::optional<std::string> JsonObject::findString(std::string_view key) const
{
    const Json* v = find(key);
    if (!v)
        return std::nullopt;
    if (!v->is_string())
        fail(key, "must be a string");
    return v->get<std::string>();
}

JsonObject JsonObject::findObject(std::string_view key) const
{
    const Json* v = find(key);
    if (!v)
        return {};
    if (!v->is_object())
        fail(key, "must be an object");
    return JsonObject(v, m_where);
}

int64_t JsonObject::getInt(std::string_view key) const
{
    if (auto v = findInt(key))
        return *v;
    fail(key, "is missing");
}

double JsonObject::getFloat(std::string_view key) const
{
    if (auto v = findFloat(key))
        return *v;
    fail(key, "is missing");
}

std::string JsonObject::getString(std::string_view key) const
{
    if (auto v = findString(key))
        return *v;
    fail(key, "is missing");
}

} // namespace hearth::convert
