#include "gguf/gguf.h"

#include "util/error.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>

static_assert(std::endian::native == std::endian::little,
              "GGUF files are little-endian; a big-endian host needs byte swapping");

namespace hearth::gguf {

namespace {

constexpr uint64_t kDefaultAlignment = 32;
constexpr int kMaxDims = 4;

template <typename T>
T readLe(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

} // namespace

std::string_view valueTypeName(ValueType type)
{
    switch (type) {
    case ValueType::UInt8: return "uint8";
    case ValueType::Int8: return "int8";
    case ValueType::UInt16: return "uint16";
    case ValueType::Int16: return "int16";
    case ValueType::UInt32: return "uint32";
    case ValueType::Int32: return "int32";
    case ValueType::Float32: return "float32";
    case ValueType::Bool: return "bool";
    case ValueType::String: return "string";
    case ValueType::Array: return "array";
    case ValueType::UInt64: return "uint64";
    case ValueType::Int64: return "int64";
    case ValueType::Float64: return "float64";
    }
    return "unknown";
}

bool isIntegerType(ValueType type)
{
    switch (type) {
    case ValueType::UInt8:
    case ValueType::Int8:
    case ValueType::UInt16:
    case ValueType::Int16:
    case ValueType::UInt32:
    case ValueType::Int32:
    case ValueType::UInt64:
    case ValueType::Int64: return true;
    default: return false;
    }
}

bool isFloatType(ValueType type)
{
    return type == ValueType::Float32 || type == ValueType::Float64;
}

size_t valueTypeSize(ValueType type)
{
    switch (type) {
    case ValueType::UInt8:
    case ValueType::Int8:
    case ValueType::Bool: return 1;
    case ValueType::UInt16:
    case ValueType::Int16: return 2;
    case ValueType::UInt32:
    case ValueType::Int32:
    case ValueType::Float32: return 4;
    case ValueType::UInt64:
    case ValueType::Int64:
    case ValueType::Float64: return 8;
    case ValueType::String:
    case ValueType::Array: return 0;
    }
    return 0;
}

// Decodes one fixed-size element at p into (integer bits, double) form.
static int64_t decodeInt(ValueType t, const uint8_t* p)
{
    switch (t) {
    case ValueType::UInt8: return readLe<uint8_t>(p);
    case ValueType::Int8: return readLe<int8_t>(p);
    case ValueType::Bool: return readLe<uint8_t>(p) != 0;
    case ValueType::UInt16: return readLe<uint16_t>(p);
    case ValueType::Int16: return readLe<int16_t>(p);
    case ValueType::UInt32: return readLe<uint32_t>(p);
    case ValueType::Int32: return readLe<int32_t>(p);
    case ValueType::UInt64: return static_cast<int64_t>(readLe<uint64_t>(p));
    case ValueType::Int64: return readLe<int64_t>(p);
    case ValueType::Float32: return static_cast<int64_t>(readLe<float>(p));
    case ValueType::Float64: return static_cast<int64_t>(readLe<double>(p));
    default: return 0;
    }
}

static double decodeFloat(ValueType t, const uint8_t* p)
{
    switch (t) {
    case ValueType::Float32: return readLe<float>(p);
    case ValueType::Float64: return readLe<double>(p);
    case ValueType::UInt64: return static_cast<double>(readLe<uint64_t>(p));
    default: return static_cast<double>(decodeInt(t, p));
    }
}

std::optional<int64_t> Value::toInt() const
{
    if (m_type == ValueType::UInt64 && m_scalar.u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return std::nullopt;
    if (isIntegerType(m_type) || m_type == ValueType::Bool)
        return m_scalar.i;
    return std::nullopt;
}

std::optional<uint64_t> Value::toUInt64() const
{
    if (m_type == ValueType::UInt64)
        return m_scalar.u;
    if (isIntegerType(m_type) && m_scalar.i >= 0)
        return static_cast<uint64_t>(m_scalar.i);
    return std::nullopt;
}

std::optional<double> Value::toFloat() const
{
    if (isFloatType(m_type))
        return m_scalar.f;
    if (m_type == ValueType::UInt64)
        return static_cast<double>(m_scalar.u);
    if (isIntegerType(m_type))
        return static_cast<double>(m_scalar.i);
    return std::nullopt;
}

std::optional<bool> Value::toBool() const
{
    if (m_type == ValueType::Bool)
        return m_scalar.i != 0;
    return std::nullopt;
}

std::optional<std::string_view> Value::toString() const
{
    if (m_type != ValueType::String)
        return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(m_data), m_count);
}

std::string_view Value::stringAt(uint64_t i) const
{
    if (m_type != ValueType::Array || m_elemType != ValueType::String || i >= m_count)
        return {};
    const uint8_t* p = m_data + (*m_stringOffsets)[i];
    const uint64_t len = readLe<uint64_t>(p);
    return std::string_view(reinterpret_cast<const char*>(p + 8), len);
}

int64_t Value::intAt(uint64_t i) const
{
    if (m_type != ValueType::Array || i >= m_count || valueTypeSize(m_elemType) == 0)
        return 0;
    return decodeInt(m_elemType, m_data + i * valueTypeSize(m_elemType));
}

double Value::floatAt(uint64_t i) const
{
    if (m_type != ValueType::Array || i >= m_count || valueTypeSize(m_elemType) == 0)
        return 0.0;
    return decodeFloat(m_elemType, m_data + i * valueTypeSize(m_elemType));
}

static void appendEscaped(std::string& out, std::string_view s, size_t maxChars)
{
    out += '"';
    size_t n = 0;
    for (char c : s) {
        if (n++ == maxChars) {
            out += "...";
            break;
        }
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\\')
            out += "\\\\";
        else
            out += c;
    }
    out += '"';
}

std::string Value::toDisplayString(size_t maxItems) const
{
    std::ostringstream os;
    switch (m_type) {
    case ValueType::String: {
        std::string s;
        appendEscaped(s, *toString(), 200);
        return s;
    }
    case ValueType::Bool: return m_scalar.i ? "true" : "false";
    case ValueType::Float32:
    case ValueType::Float64: os << m_scalar.f; return os.str();
    case ValueType::UInt64: os << m_scalar.u; return os.str();
    case ValueType::Array: {
        std::string s = "[";
        for (uint64_t i = 0; i < m_count && i < maxItems; ++i) {
            if (i)
                s += ", ";
            if (m_elemType == ValueType::String)
                appendEscaped(s, stringAt(i), 40);
            else if (isFloatType(m_elemType))
                s += std::to_string(floatAt(i));
            else
                s += std::to_string(intAt(i));
        }
        if (m_count > maxItems)
            s += ", ... (" + std::to_string(m_count) + " items)";
        return s + "]";
    }
    default: os << m_scalar.i; return os.str();
    }
}

// Parses one mapped file. Every read goes through need(), which checks the
// bytes that remain, so no length in the file is trusted before it is checked.
class Parser {
public:
    Parser(const MappedFile& map, const std::string& path) : m_map(map), m_path(path) {}

    [[noreturn]] void fail(uint64_t at, const std::string& what) const
    {
        throw Error(m_path + ": at byte " + std::to_string(at) + ": " + what);
    }

    uint64_t pos() const { return m_pos; }
    uint64_t remaining() const { return m_map.size() - m_pos; }

    const uint8_t* need(uint64_t n, const char* what)
    {
        if (n > remaining())
            fail(m_pos, std::string("file ends inside ") + what + " (needs " + std::to_string(n) + " bytes, " +
                            std::to_string(remaining()) + " left)");
        const uint8_t* p = m_map.data() + m_pos;
        m_pos += n;
        return p;
    }

    template <typename T>
    T read(const char* what)
    {
        return readLe<T>(need(sizeof(T), what));
    }

    std::string_view readString(const char* what)
    {
        const uint64_t at = m_pos;
        const uint64_t len = read<uint64_t>(what);
        if (len > remaining())
            fail(at, std::string(what) + " claims " + std::to_string(len) + " bytes but only " +
                         std::to_string(remaining()) + " remain");
        return std::string_view(reinterpret_cast<const char*>(need(len, what)), len);
    }

    ValueType readValueType(std::string_view key, bool inArray)
    {
        const uint64_t at = m_pos;
        const uint32_t t = read<uint32_t>("a value type");
        if (t > static_cast<uint32_t>(ValueType::Float64))
            fail(at, "key '" + std::string(key) + "': unknown value type " + std::to_string(t) + " (expected 0..12)");
        const auto vt = static_cast<ValueType>(t);
        if (inArray && vt == ValueType::Array)
            fail(at, "key '" + std::string(key) + "': nested arrays are not supported");
        return vt;
    }

    Value readValue(std::string_view key, ValueType type)
    {
        Value v;
        v.m_type = type;
        if (type == ValueType::String) {
            const std::string_view s = readString("a string value");
            v.m_data = reinterpret_cast<const uint8_t*>(s.data());
            v.m_count = s.size();
        } else if (type == ValueType::Array) {
            readArray(key, v);
        } else {
            const uint64_t at = m_pos;
            const uint8_t* p = need(valueTypeSize(type), "a value");
            if (type == ValueType::Bool && *p > 1)
                fail(at, "key '" + std::string(key) + "': bool value is " + std::to_string(*p) + " (expected 0 or 1)");
            if (isFloatType(type))
                v.m_scalar.f = decodeFloat(type, p);
            else if (type == ValueType::UInt64)
                v.m_scalar.u = readLe<uint64_t>(p);
            else
                v.m_scalar.i = decodeInt(type, p);
        }
        return v;
    }

    void readArray(std::string_view key, Value& v)
    {
        v.m_elemType = readValueType(key, /*inArray=*/true);
        const uint64_t at = m_pos;
        v.m_count = read<uint64_t>("an array length");
        v.m_data = m_map.data() + m_pos;
        const size_t elemSize = valueTypeSize(v.m_elemType);
        if (elemSize > 0) {
            if (v.m_count > remaining() / elemSize)
                fail(at, "key '" + std::string(key) + "': array of " + std::to_string(v.m_count) + " " +
                             std::string(valueTypeName(v.m_elemType)) + " values does not fit in the " +
                             std::to_string(remaining()) + " bytes that remain");
            need(v.m_count * elemSize, "an array");
            if (v.m_elemType == ValueType::Bool) {
                for (uint64_t i = 0; i < v.m_count; ++i)
                    if (v.m_data[i] > 1)
                        fail(at + 8 + i,
                             "key '" + std::string(key) + "': bool element " + std::to_string(i) + " is not 0 or 1");
            }
            return;
        }
        // Strings: each needs at least its 8-byte length.
        if (v.m_count > remaining() / 8)
            fail(at, "key '" + std::string(key) + "': array of " + std::to_string(v.m_count) +
                         " strings does not fit in the " + std::to_string(remaining()) + " bytes that remain");
        auto offsets = std::make_shared<std::vector<uint64_t>>();
        offsets->reserve(v.m_count);
        const uint64_t base = m_pos;
        for (uint64_t i = 0; i < v.m_count; ++i) {
            offsets->push_back(m_pos - base);
            readString("a string in an array");
        }
        v.m_stringOffsets = std::move(offsets);
    }

private:
    const MappedFile& m_map;
    const std::string& m_path;
    uint64_t m_pos = 0;
};

namespace {

struct ParsedFile {
    uint32_t version = 0;
    uint64_t alignment = kDefaultAlignment;
    uint64_t dataOffset = 0;
    std::vector<KeyValue> metadata;
    std::vector<TensorInfo> tensors;
};

void checkAlignment(const std::string& path, const KeyValue& kv, uint64_t at)
{
    const auto fail = [&](const std::string& what) {
        throw Error(path + ": at byte " + std::to_string(at) + ": key 'general.alignment' " + what);
    };
    if (kv.value.type() != ValueType::UInt32)
        fail("has type " + std::string(valueTypeName(kv.value.type())) + " (expected uint32)");
    const int64_t a = *kv.value.toInt();
    if (a <= 0 || (a & (a - 1)) != 0)
        fail("is " + std::to_string(a) + " (expected a power of two)");
}

TensorInfo readTensorInfo(Parser& p)
{
    TensorInfo t;
    t.name = p.readString("a tensor name");
    const std::string name(t.name);
    const auto failHere = [&](uint64_t where, const std::string& what) {
        p.fail(where, "tensor '" + name + "': " + what);
    };
    const uint64_t dimsAt = p.pos();
    const uint32_t nDims = p.read<uint32_t>("a tensor's dimension count");
    if (nDims > kMaxDims)
        failHere(dimsAt, std::to_string(nDims) + " dimensions (at most 4 are allowed)");
    t.nDims = static_cast<int>(nDims);
    for (uint32_t d = 0; d < nDims; ++d) {
        const uint64_t neAt = p.pos();
        const auto ne = p.read<int64_t>("a tensor dimension");
        if (ne < 0)
            failHere(neAt, "ne[" + std::to_string(d) + "] = " + std::to_string(ne) + " is negative");
        t.ne[d] = ne;
    }
    // The element count must not overflow int64.
    int64_t elements = 1;
    for (int64_t ne : t.ne) {
        if (ne != 0 && elements > std::numeric_limits<int64_t>::max() / ne)
            failHere(dimsAt, "element count overflows 64 bits");
        elements *= ne;
    }
    const uint64_t typeAt = p.pos();
    const uint32_t typeId = p.read<uint32_t>("a tensor type");
    const TypeTraits* traits = findTypeTraits(typeId);
    if (!traits)
        failHere(typeAt, "unknown tensor type id " + std::to_string(typeId));
    t.type = traits->type;
    if (t.ne[0] % traits->blockSize != 0)
        failHere(dimsAt, "ne[0] = " + std::to_string(t.ne[0]) + " is not a multiple of the " +
                             std::string(traits->name) + " block size " + std::to_string(traits->blockSize));
    const uint64_t blocks = static_cast<uint64_t>(elements / traits->blockSize);
    if (blocks > std::numeric_limits<uint64_t>::max() / traits->blockBytes)
        failHere(dimsAt, "byte size overflows 64 bits");
    t.bytes = static_cast<size_t>(blocks * traits->blockBytes);
    const uint64_t offAt = p.pos();
    t.offset = p.read<uint64_t>("a tensor offset");
    t.fileOffset = offAt; // until the data section is known: where the field sits, for errors
    return t;
}

ParsedFile parseFile(const MappedFile& map, const std::string& path)
{
    Parser p(map, path);
    ParsedFile out;
    const uint8_t* magic = p.need(4, "the magic number");
    if (std::memcmp(magic, "GGUF", 4) != 0) {
        char shown[5] = {};
        for (int i = 0; i < 4; ++i)
            shown[i] = (magic[i] >= 32 && magic[i] < 127) ? static_cast<char>(magic[i]) : '?';
        p.fail(0, std::string("not a GGUF file (magic is \"") + shown + "\", expected \"GGUF\")");
    }
    out.version = p.read<uint32_t>("the version");
    if (out.version == 1)
        p.fail(4, "GGUF version 1 is no longer supported (re-convert the model; versions 2 and 3 are)");
    if (out.version != 2 && out.version != 3)
        p.fail(4, "unsupported GGUF version " + std::to_string(out.version) + " (expected 2 or 3)");
    const uint64_t nTensorsAt = p.pos();
    const auto nTensors = p.read<uint64_t>("the tensor count");
    const auto nKv = p.read<uint64_t>("the metadata count");
    // Minimal sizes: a key-value is >= 8 (key length) + 4 (type) + 1 bytes; a
    // tensor info is >= 8 + 4 + 4 + 8 bytes.
    if (nKv > p.remaining() / 13)
        p.fail(nTensorsAt + 8, std::to_string(nKv) + " metadata entries cannot fit in a file of " +
                                   std::to_string(map.size()) + " bytes");
    if (nTensors > p.remaining() / 24)
        p.fail(nTensorsAt,
               std::to_string(nTensors) + " tensors cannot fit in a file of " + std::to_string(map.size()) + " bytes");

    std::unordered_map<std::string_view, size_t> seenKeys;
    out.metadata.reserve(nKv);
    for (uint64_t i = 0; i < nKv; ++i) {
        const uint64_t at = p.pos();
        KeyValue kv;
        kv.key = p.readString("a metadata key");
        if (!seenKeys.emplace(kv.key, i).second)
            p.fail(at, "duplicate metadata key '" + std::string(kv.key) + "'");
        const ValueType type = p.readValueType(kv.key, /*inArray=*/false);
        kv.value = p.readValue(kv.key, type);
        if (kv.key == "general.alignment") {
            checkAlignment(path, kv, at);
            out.alignment = static_cast<uint64_t>(*kv.value.toInt());
        }
        out.metadata.push_back(std::move(kv));
    }

    std::unordered_map<std::string_view, size_t> seenTensors;
    out.tensors.reserve(nTensors);
    for (uint64_t i = 0; i < nTensors; ++i) {
        const uint64_t at = p.pos();
        TensorInfo t = readTensorInfo(p);
        if (!seenTensors.emplace(t.name, i).second)
            p.fail(at, "duplicate tensor name '" + std::string(t.name) + "'");
        out.tensors.push_back(t);
    }

    // The data section starts at the next multiple of the alignment. A file
    // without tensors may end right after its metadata (vocab-only files).
    const uint64_t headerEnd = p.pos();
    out.dataOffset = (headerEnd + out.alignment - 1) / out.alignment * out.alignment;
    if (out.tensors.empty())
        return out;
    if (out.dataOffset > map.size())
        p.fail(headerEnd,
               "file ends before its tensor data section (expected it at byte " + std::to_string(out.dataOffset) + ")");
    const uint64_t dataSize = map.size() - out.dataOffset;
    for (TensorInfo& t : out.tensors) {
        const uint64_t offsetField = t.fileOffset;
        const std::string name(t.name);
        if (t.offset % out.alignment != 0)
            p.fail(offsetField, "tensor '" + name + "': data offset " + std::to_string(t.offset) +
                                    " is not a multiple of the alignment " + std::to_string(out.alignment));
        if (t.offset > dataSize || t.bytes > dataSize - t.offset)
            p.fail(offsetField, "tensor '" + name + "': data [" + std::to_string(t.offset) + ", " +
                                    std::to_string(t.offset + t.bytes) + ") of the data section lies beyond " +
                                    "the end of the file (data section holds " + std::to_string(dataSize) + " bytes)");
        t.fileOffset = out.dataOffset + t.offset;
        t.data = map.data() + t.fileOffset;
    }
    // No two tensors may share bytes.
    std::vector<const TensorInfo*> byOffset;
    byOffset.reserve(out.tensors.size());
    for (const TensorInfo& t : out.tensors)
        byOffset.push_back(&t);
    std::sort(byOffset.begin(), byOffset.end(),
              [](const TensorInfo* a, const TensorInfo* b) { return a->offset < b->offset; });
    for (size_t i = 1; i < byOffset.size(); ++i) {
        const TensorInfo& prev = *byOffset[i - 1];
        const TensorInfo& cur = *byOffset[i];
        if (prev.bytes > 0 && cur.offset < prev.offset + prev.bytes)
            throw Error(path + ": tensor '" + std::string(cur.name) + "' (data offset " + std::to_string(cur.offset) +
                        ") overlaps tensor '" + std::string(prev.name) + "' (data offset " +
                        std::to_string(prev.offset) + ", " + std::to_string(prev.bytes) + " bytes)");
    }
    return out;
}

} // namespace

std::optional<std::string> splitSiblingPath(const std::string& path, int index, int count)
{
    // NAME-00001-of-00003.gguf: "-" 5 digits "-of-" 5 digits ".gguf" is 20 characters.
    constexpr std::string_view kTail = ".gguf";
    constexpr size_t kSuffix = 1 + 5 + 4 + 5 + 5;
    if (path.size() <= kSuffix || path.compare(path.size() - kTail.size(), kTail.size(), kTail) != 0)
        return std::nullopt;
    const std::string_view suffix = std::string_view(path).substr(path.size() - kSuffix);
    const auto digits = [&](size_t at) {
        for (size_t i = at; i < at + 5; ++i)
            if (suffix[i] < '0' || suffix[i] > '9')
                return false;
        return true;
    };
    if (suffix[0] != '-' || !digits(1) || suffix.substr(6, 4) != "-of-" || !digits(10))
        return std::nullopt;
    char tail[32];
    std::snprintf(tail, sizeof tail, "-%05d-of-%05d.gguf", index + 1, count);
    return path.substr(0, path.size() - kSuffix) + tail;
}

File::File(const std::string& path) : m_path(path)
{
    m_maps.push_back(std::make_unique<MappedFile>(path));
    ParsedFile first = parseFile(*m_maps.front(), path);
    m_version = first.version;
    m_alignment = first.alignment;
    m_dataOffset = first.dataOffset;
    m_metadata = std::move(first.metadata);
    m_tensors = std::move(first.tensors);
    for (size_t i = 0; i < m_metadata.size(); ++i)
        m_keyIndex.emplace(m_metadata[i].key, i);
    openSplits();
    for (size_t i = 0; i < m_tensors.size(); ++i) {
        if (!m_tensorIndex.emplace(m_tensors[i].name, i).second)
            throw Error(path + ": tensor '" + std::string(m_tensors[i].name) + "' appears in more than one split file");
    }
}

void File::openSplits()
{
    const std::optional<int64_t> count = findInt("split.count");
    if (!count || *count <= 1)
        return;
    if (*count > 9999)
        fail("split.count", "is " + std::to_string(*count) + " (expected at most 9999)");
    const int64_t no = findInt("split.no").value_or(0);
    if (no != 0)
        fail("split.no", "is " + std::to_string(no) + ": open the first file of the split (-00001-of-" +
                             std::to_string(*count) + ")");
    for (int i = 1; i < *count; ++i) {
        const std::optional<std::string> sibling = splitSiblingPath(m_path, i, static_cast<int>(*count));
        if (!sibling)
            fail("split.count", "is " + std::to_string(*count) +
                                    " but the file is not named NAME-00001-of-NNNNN.gguf, so its other parts "
                                    "cannot be found");
        m_maps.push_back(std::make_unique<MappedFile>(*sibling));
        ParsedFile part = parseFile(*m_maps.back(), *sibling);
        int64_t partNo = -1;
        for (const KeyValue& kv : part.metadata)
            if (kv.key == "split.no")
                partNo = kv.value.toInt().value_or(-1);
        if (partNo != i)
            throw Error(*sibling + ": key 'split.no' is " + std::to_string(partNo) + " (expected " + std::to_string(i) +
                        ")");
        for (TensorInfo& t : part.tensors) {
            t.split = i;
            m_tensors.push_back(t);
        }
    }
    if (const std::optional<int64_t> total = findInt("split.tensors.count")) {
        if (*total != static_cast<int64_t>(m_tensors.size()))
            fail("split.tensors.count", "is " + std::to_string(*total) + " but the " + std::to_string(*count) +
                                            " files hold " + std::to_string(m_tensors.size()) + " tensors");
    }
}

uint64_t File::fileSize() const
{
    uint64_t total = 0;
    for (const auto& m : m_maps)
        total += m->size();
    return total;
}

void File::fail(std::string_view key, const std::string& what) const
{
    throw Error(m_path + ": key '" + std::string(key) + "' " + what);
}

const Value* File::find(std::string_view key) const
{
    const auto it = m_keyIndex.find(key);
    return it == m_keyIndex.end() ? nullptr : &m_metadata[it->second].value;
}

std::optional<int64_t> File::findInt(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto i = v->toInt(); i && v->type() != ValueType::Bool)
        return i;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected an integer)");
}

std::optional<double> File::findFloat(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto f = v->toFloat())
        return f;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected a number)");
}

std::optional<bool> File::findBool(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto b = v->toBool())
        return b;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected bool)");
}

std::optional<std::string_view> File::findString(std::string_view key) const
{
    const Value* v = find(key);
    if (!v)
        return std::nullopt;
    if (const auto s = v->toString())
        return s;
    fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected string)");
}

const Value* File::findArray(std::string_view key) const
{
    const Value* v = find(key);
    if (v && v->type() != ValueType::Array)
        fail(key, "has type " + std::string(valueTypeName(v->type())) + " (expected an array)");
    return v;
}

int64_t File::getInt(std::string_view key) const
{
    if (const auto v = findInt(key))
        return *v;
    fail(key, "is missing");
}

double File::getFloat(std::string_view key) const
{
    if (const auto v = findFloat(key))
        return *v;
    fail(key, "is missing");
}

std::string_view File::getString(std::string_view key) const
{
    if (const auto v = findString(key))
        return *v;
    fail(key, "is missing");
}

std::string_view File::architecture() const
{
    return findString("general.architecture").value_or(std::string_view{});
}

const TensorInfo* File::findTensor(std::string_view name) const
{
    const auto it = m_tensorIndex.find(name);
    return it == m_tensorIndex.end() ? nullptr : &m_tensors[it->second];
}

} // namespace hearth::gguf
