#include "convert/safetensors.h"

#include "convert/json_file.h"
#include "util/error.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <unordered_set>

namespace hearth::convert {

namespace {

constexpr uint64_t kMaxHeaderBytes = 100'000'000;

struct DtypeInfo {
    StDtype type;
    std::string_view name;
    size_t size;
};

constexpr std::array kDtypes{
    DtypeInfo{StDtype::F64, "F64", 8},         DtypeInfo{StDtype::F32, "F32", 4},
    DtypeInfo{StDtype::F16, "F16", 2},         DtypeInfo{StDtype::BF16, "BF16", 2},
    DtypeInfo{StDtype::I64, "I64", 8},         DtypeInfo{StDtype::I32, "I32", 4},
    DtypeInfo{StDtype::I16, "I16", 2},         DtypeInfo{StDtype::I8, "I8", 1},
    DtypeInfo{StDtype::U8, "U8", 1},           DtypeInfo{StDtype::U16, "U16", 2},
    DtypeInfo{StDtype::U32, "U32", 4},         DtypeInfo{StDtype::U64, "U64", 8},
    DtypeInfo{StDtype::Bool, "BOOL", 1},       DtypeInfo{StDtype::F8_E4M3, "F8_E4M3", 1},
    DtypeInfo{StDtype::F8_E5M2, "F8_E5M2", 1},
};

const DtypeInfo* findDtype(std::string_view name)
{
    for (const DtypeInfo& d : kDtypes)
        if (d.name == name)
            return &d;
    return nullptr;
}

// a * b, or false on overflow.
bool mulChecked(uint64_t a, uint64_t b, uint64_t& out)
{
    if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
        return false;
    out = a * b;
    return true;
}

// The header JSON, refusing a tensor name that appears twice (nlohmann would
// silently keep the last one).
Json parseHeader(std::string_view text, const std::string& where)
{
    if (const size_t end = text.find_last_not_of(' '); end != std::string_view::npos)
        text = text.substr(0, end + 1); // the format allows padding with spaces
    checkJsonDepth(text, where);
    std::unordered_set<std::string> names;
    std::string duplicate;
    const Json::parser_callback_t onEvent = [&](int depth, Json::parse_event_t event, Json& parsed) {
        if (depth == 1 && event == Json::parse_event_t::key && parsed.is_string() &&
            !names.insert(parsed.get<std::string>()).second && duplicate.empty())
            duplicate = parsed.get<std::string>();
        return true;
    };
    Json header;
    try {
        header = Json::parse(text.begin(), text.end(), onEvent);
    } catch (const Json::exception& e) {
        throw Error(where + ": the header is not valid JSON (" + e.what() + ")");
    }
    if (!duplicate.empty())
        throw Error(where + ": tensor '" + duplicate + "' appears twice in the header");
    return header;
}

} // namespace

size_t stDtypeSize(StDtype t)
{
    for (const DtypeInfo& d : kDtypes)
        if (d.type == t)
            return d.size;
    return 0;
}

std::string_view stDtypeName(StDtype t)
{
    for (const DtypeInfo& d : kDtypes)
        if (d.type == t)
            return d.name;
    return "?";
}

int64_t StTensor::elements() const
{
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

void StTensor::evict() const
{
    if (map && bytes > 0)
        map->evict(static_cast<size_t>(data - map->data()), bytes);
}

SafetensorsFile::SafetensorsFile(const std::filesystem::path& path) : m_path(path.string())
{
    m_map = std::make_unique<MappedFile>(m_path);
    parse(m_map->data(), m_map->size());
}

SafetensorsFile::SafetensorsFile(std::span<const uint8_t> bytes, std::string name) : m_path(std::move(name))
{
    parse(bytes.data(), bytes.size());
}

void SafetensorsFile::parse(const uint8_t* data, size_t size)
{
    const std::string& where = m_path;
    if (size < 8)
        throw Error(where + ": " + std::to_string(size) + " bytes is too short for a safetensors file (truncated?)");
    uint64_t headerLen = 0;
    std::memcpy(&headerLen, data, 8); // little-endian hosts only, as GGUF
    if (headerLen > size - 8)
        throw Error(where + ": header length " + std::to_string(headerLen) + " runs past the end of the file (" +
                    std::to_string(size) + " bytes; truncated or not a safetensors file)");
    if (headerLen > kMaxHeaderBytes)
        throw Error(where + ": header length " + std::to_string(headerLen) + " exceeds the 100 MB limit");
    const std::string_view text(reinterpret_cast<const char*>(data + 8), static_cast<size_t>(headerLen));
    const Json header = parseHeader(text, where);
    if (!header.is_object())
        throw Error(where + ": the header must be a JSON object");

    const uint8_t* buffer = data + 8 + headerLen;
    const uint64_t bufferSize = size - 8 - headerLen;
    for (const auto& [name, entry] : header.items()) {
        if (name == "__metadata__")
            continue;
        const std::string what = where + ": tensor '" + name + "'";
        if (!entry.is_object())
            throw Error(what + ": expected an object with dtype, shape and data_offsets");
        const auto dtype = entry.find("dtype");
        const auto shape = entry.find("shape");
        const auto offsets = entry.find("data_offsets");
        if (dtype == entry.end() || !dtype->is_string())
            throw Error(what + ": \"dtype\" is missing or not a string");
        const DtypeInfo* info = findDtype(dtype->get<std::string>());
        if (!info)
            throw Error(what + ": unknown dtype \"" + dtype->get<std::string>() + "\"");
        if (shape == entry.end() || !shape->is_array())
            throw Error(what + ": \"shape\" is missing or not an array");
        if (offsets == entry.end() || !offsets->is_array() || offsets->size() != 2 ||
            !(*offsets)[0].is_number_unsigned() || !(*offsets)[1].is_number_unsigned())
            throw Error(what + ": \"data_offsets\" must be two non-negative integers");
        StTensor t;
        t.name = name;
        t.dtype = info->type;
        t.file = where;
        uint64_t bytes = info->size;
        for (const Json& d : *shape) {
            if (!d.is_number_unsigned())
                throw Error(what + ": shape entries must be non-negative integers");
            const uint64_t dim = d.get<uint64_t>();
            if (dim > uint64_t{1} << 48 || !mulChecked(bytes, dim, bytes))
                throw Error(what + ": the shape is too large");
            t.shape.push_back(static_cast<int64_t>(dim));
        }
        const uint64_t begin = (*offsets)[0].get<uint64_t>(), end = (*offsets)[1].get<uint64_t>();
        if (begin > end || end > bufferSize)
            throw Error(what + ": data_offsets [" + std::to_string(begin) + ", " + std::to_string(end) +
                        "] lie outside the " + std::to_string(bufferSize) + "-byte data buffer");
        if (end - begin != bytes)
            throw Error(what + ": dtype " + std::string(info->name) + " and its shape need " + std::to_string(bytes) +
                        " bytes, data_offsets give " + std::to_string(end - begin));
        t.data = buffer + begin;
        t.map = m_map.get();
        t.bytes = static_cast<size_t>(bytes);
        m_tensors.push_back(std::move(t));
    }
    // Overlaps: sorted by start, each range must end before the next starts.
    std::vector<const StTensor*> byStart;
    for (const StTensor& t : m_tensors)
        byStart.push_back(&t);
    std::sort(byStart.begin(), byStart.end(), [](const StTensor* a, const StTensor* b) { return a->data < b->data; });
    for (size_t i = 1; i < byStart.size(); ++i) {
        const StTensor& prev = *byStart[i - 1];
        if (prev.bytes > 0 && byStart[i]->bytes > 0 && byStart[i]->data < prev.data + prev.bytes)
            throw Error(where + ": the data of tensors '" + prev.name + "' and '" + byStart[i]->name + "' overlap");
    }
    std::sort(m_tensors.begin(), m_tensors.end(), [](const StTensor& a, const StTensor& b) { return a.name < b.name; });
}

SafetensorsSet::SafetensorsSet(const std::vector<std::filesystem::path>& files, const std::filesystem::path& indexFile)
{
    for (const auto& f : files) {
        m_files.push_back(std::make_unique<SafetensorsFile>(f));
        for (const StTensor& t : m_files.back()->tensors()) {
            if (!m_byName.emplace(t.name, &t).second)
                throw Error("tensor '" + t.name + "' appears in both " + m_byName[t.name]->file + " and " + t.file);
            m_order.push_back(&t);
        }
    }
    if (indexFile.empty())
        return;
    const Json index = readJsonFile(indexFile);
    const std::string where = indexFile.string();
    const auto map = index.find("weight_map");
    if (!index.is_object() || map == index.end() || !map->is_object())
        throw Error(where + ": no \"weight_map\" object");
    std::vector<std::string> missing;
    for (const auto& [name, file] : map->items()) {
        if (!file.is_string())
            throw Error(where + ": the file of tensor '" + name + "' is not a string");
        const StTensor* t = find(name);
        if (!t) {
            missing.push_back(name + " (in " + file.get<std::string>() + ")");
            continue;
        }
        if (std::filesystem::path(t->file).filename() != file.get<std::string>())
            throw Error(where + ": tensor '" + name + "' is in " + t->file + ", the index says " +
                        file.get<std::string>());
    }
    if (!missing.empty())
        throw Error(where + ": " + std::to_string(missing.size()) + " tensors of the index are missing, e.g. " +
                    missing.front() + " (incomplete download?)");
    for (const StTensor* t : m_order)
        if (!map->contains(t->name))
            throw Error(t->file + ": tensor '" + t->name + "' is not in " + where);
}

const StTensor* SafetensorsSet::find(std::string_view name) const
{
    const auto it = m_byName.find(name);
    return it == m_byName.end() ? nullptr : it->second;
}

} // namespace hearth::convert
