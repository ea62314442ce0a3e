#include "gguf/gguf_writer.h"

#include "util/error.h"
#include "util/utf8_path.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <unordered_set>

namespace hearth::gguf {

namespace {

constexpr uint64_t kDefaultAlignment = 32;
constexpr std::string_view kAlignmentKey = "general.alignment";

[[noreturn]] void fail(const std::string& what)
{
    throw Error("gguf writer: " + what);
}

template <typename T>
void put(std::string& out, T v)
{
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
}

void putString(std::string& out, std::string_view s)
{
    put<uint64_t>(out, s.size());
    out.append(s);
}

uint64_t padTo(uint64_t n, uint64_t alignment)
{
    return (n + alignment - 1) / alignment * alignment;
}

} // namespace

struct Writer::Impl {
    struct Entry {
        std::string key;
        std::string bytes; // serialized key, type and value
    };
    struct Tensor {
        std::string name;
        GgmlType type;
        std::vector<int64_t> ne;
        std::span<const uint8_t> data;
        std::vector<uint8_t> owned; // when copied
        bool streamed = false;      // bytes come from write()'s producer
        uint64_t bytes = 0;
    };

    uint32_t version;
    uint64_t alignment = kDefaultAlignment;
    bool replaceExisting = false;
    std::vector<Entry> metadata;
    std::unordered_set<std::string> keys;
    std::vector<Tensor> tensors;
    std::unordered_set<std::string> tensorNames;

    // Starts an entry: key and value type. Throws on a duplicate key.
    std::string& begin(std::string_view key, ValueType type)
    {
        if (key.empty())
            fail("metadata keys must not be empty");
        if (!keys.emplace(key).second) {
            if (!replaceExisting)
                fail("duplicate metadata key '" + std::string(key) + "'");
            for (Entry& old : metadata) {
                if (old.key == key) {
                    old.bytes.clear();
                    putString(old.bytes, key);
                    put<uint32_t>(old.bytes, static_cast<uint32_t>(type));
                    return old.bytes;
                }
            }
        }
        Entry& e = metadata.emplace_back();
        e.key = std::string(key);
        putString(e.bytes, key);
        put<uint32_t>(e.bytes, static_cast<uint32_t>(type));
        return e.bytes;
    }

    // Validates and appends a tensor without data. Throws on any mistake.
    // dataSize: the bytes a caller hands over (checked), or nullopt.
    Tensor& declare(std::string_view name, GgmlType type, std::span<const int64_t> ne, std::optional<size_t> dataSize);
    std::string header() const;
};

Writer::Impl::Tensor& Writer::Impl::declare(std::string_view name, GgmlType type, std::span<const int64_t> ne,
                                            std::optional<size_t> dataSize)
{
    const std::string what = "tensor '" + std::string(name) + "': ";
    const TypeTraits* traits = findTypeTraits(static_cast<uint32_t>(type));
    if (!traits)
        fail(what + "unknown type id " + std::to_string(static_cast<uint32_t>(type)));
    if (ne.empty() || ne.size() > 4)
        fail(what + std::to_string(ne.size()) + " dimensions (1 to 4 are allowed)");
    uint64_t rows = 1;
    for (size_t d = 0; d < ne.size(); ++d) {
        if (ne[d] < 0)
            fail(what + "ne[" + std::to_string(d) + "] is negative");
        if (d > 0)
            rows *= static_cast<uint64_t>(ne[d]);
    }
    if (ne[0] % traits->blockSize != 0)
        fail(what + "ne[0] = " + std::to_string(ne[0]) + " is not a multiple of the " + std::string(traits->name) +
             " block size " + std::to_string(traits->blockSize));
    const uint64_t expected = rowBytes(type, ne[0]) * rows;
    if (dataSize && *dataSize != expected)
        fail(what + std::to_string(*dataSize) + " bytes of data, expected " + std::to_string(expected));
    if (!tensorNames.emplace(name).second)
        fail("duplicate tensor name '" + std::string(name) + "'");
    Tensor& t = tensors.emplace_back();
    t.name = std::string(name);
    t.type = type;
    t.ne.assign(ne.begin(), ne.end());
    t.bytes = expected;
    return t;
}

Writer::Writer(uint32_t version) : m_impl(std::make_unique<Impl>())
{
    if (version != 2 && version != 3)
        fail("GGUF version " + std::to_string(version) + " cannot be written (2 or 3)");
    m_impl->version = version;
}

Writer::~Writer() = default;
Writer::Writer(Writer&&) noexcept = default;
Writer& Writer::operator=(Writer&&) noexcept = default;

// clang-format off
void Writer::addUInt8(std::string_view key, uint8_t v) { put(m_impl->begin(key, ValueType::UInt8), v); }
void Writer::addInt8(std::string_view key, int8_t v) { put(m_impl->begin(key, ValueType::Int8), v); }
void Writer::addUInt16(std::string_view key, uint16_t v) { put(m_impl->begin(key, ValueType::UInt16), v); }
void Writer::addInt16(std::string_view key, int16_t v) { put(m_impl->begin(key, ValueType::Int16), v); }
void Writer::addInt32(std::string_view key, int32_t v) { put(m_impl->begin(key, ValueType::Int32), v); }
void Writer::addUInt64(std::string_view key, uint64_t v) { put(m_impl->begin(key, ValueType::UInt64), v); }
void Writer::addInt64(std::string_view key, int64_t v) { put(m_impl->begin(key, ValueType::Int64), v); }
void Writer::addFloat32(std::string_view key, float v) { put(m_impl->begin(key, ValueType::Float32), v); }
void Writer::addFloat64(std::string_view key, double v) { put(m_impl->begin(key, ValueType::Float64), v); }
void Writer::addBool(std::string_view key, bool v) { put<uint8_t>(m_impl->begin(key, ValueType::Bool), v ? 1 : 0); }
void Writer::addString(std::string_view key, std::string_view v) { putString(m_impl->begin(key, ValueType::String), v); }
// clang-format on

void Writer::addUInt32(std::string_view key, uint32_t v)
{
    if (key == kAlignmentKey) {
        setAlignment(v);
        return;
    }
    put(m_impl->begin(key, ValueType::UInt32), v);
}

void Writer::setAlignment(uint64_t alignment)
{
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > UINT32_MAX)
        fail("alignment " + std::to_string(alignment) + " is not a power of two that fits in 32 bits");
    m_impl->alignment = alignment;
    for (Impl::Entry& e : m_impl->metadata) {
        if (e.key == kAlignmentKey) { // rewrite the value in place
            e.bytes.resize(e.bytes.size() - sizeof(uint32_t));
            put<uint32_t>(e.bytes, static_cast<uint32_t>(alignment));
            return;
        }
    }
    put<uint32_t>(m_impl->begin(kAlignmentKey, ValueType::UInt32), static_cast<uint32_t>(alignment));
}

void Writer::addArray(std::string_view key, ValueType elementType, const void* data, uint64_t count)
{
    const size_t size = valueTypeSize(elementType);
    if (size == 0)
        fail("key '" + std::string(key) + "': arrays of " + std::string(valueTypeName(elementType)) +
             " need addStringArray() (nested arrays are not part of GGUF)");
    std::string& out = m_impl->begin(key, ValueType::Array);
    put<uint32_t>(out, static_cast<uint32_t>(elementType));
    put<uint64_t>(out, count);
    out.append(static_cast<const char*>(data), size * count);
}

void Writer::addStringArray(std::string_view key, std::span<const std::string> values)
{
    std::string& out = m_impl->begin(key, ValueType::Array);
    put<uint32_t>(out, static_cast<uint32_t>(ValueType::String));
    put<uint64_t>(out, values.size());
    for (const std::string& s : values)
        putString(out, s);
}

void Writer::addStringArray(std::string_view key, std::span<const std::string_view> values)
{
    std::string& out = m_impl->begin(key, ValueType::Array);
    put<uint32_t>(out, static_cast<uint32_t>(ValueType::String));
    put<uint64_t>(out, values.size());
    for (std::string_view s : values)
        putString(out, s);
}

void Writer::addValue(std::string_view key, const Value& v)
{
    switch (v.type()) {
    case ValueType::UInt8: return addUInt8(key, static_cast<uint8_t>(*v.toInt()));
    case ValueType::Int8: return addInt8(key, static_cast<int8_t>(*v.toInt()));
    case ValueType::UInt16: return addUInt16(key, static_cast<uint16_t>(*v.toInt()));
    case ValueType::Int16: return addInt16(key, static_cast<int16_t>(*v.toInt()));
    case ValueType::UInt32: return addUInt32(key, static_cast<uint32_t>(*v.toInt()));
    case ValueType::Int32: return addInt32(key, static_cast<int32_t>(*v.toInt()));
    case ValueType::UInt64: return addUInt64(key, *v.toUInt64());
    case ValueType::Int64: return addInt64(key, *v.toInt());
    case ValueType::Float32: return addFloat32(key, static_cast<float>(*v.toFloat()));
    case ValueType::Float64: return addFloat64(key, *v.toFloat());
    case ValueType::Bool: return addBool(key, *v.toBool());
    case ValueType::String: return addString(key, *v.toString());
    case ValueType::Array:
        if (v.elementType() != ValueType::String)
            return addArray(key, v.elementType(), v.rawData(), v.size());
        {
            std::vector<std::string_view> items;
            items.reserve(v.size());
            for (uint64_t i = 0; i < v.size(); ++i)
                items.push_back(v.stringAt(i));
            return addStringArray(key, std::span<const std::string_view>(items));
        }
    }
}

void Writer::addTensor(std::string_view name, GgmlType type, std::span<const int64_t> ne, std::span<const uint8_t> data)
{
    addTensorImpl(name, type, ne, data, /*copy=*/true);
}

void Writer::addTensorView(std::string_view name, GgmlType type, std::span<const int64_t> ne,
                           std::span<const uint8_t> data)
{
    addTensorImpl(name, type, ne, data, /*copy=*/false);
}

void Writer::addTensorImpl(std::string_view name, GgmlType type, std::span<const int64_t> ne,
                           std::span<const uint8_t> data, bool copy)
{
    Impl::Tensor& t = m_impl->declare(name, type, ne, data.size());
    if (copy) {
        t.owned.assign(data.begin(), data.end());
        t.data = t.owned;
    } else {
        t.data = data;
    }
}

void Writer::addTensorInfo(std::string_view name, GgmlType type, std::span<const int64_t> ne)
{
    m_impl->declare(name, type, ne, std::nullopt).streamed = true;
}

void Writer::setReplaceExisting(bool on)
{
    m_impl->replaceExisting = on;
}

void Writer::removeKey(std::string_view key)
{
    auto& md = m_impl->metadata;
    const auto it = std::find_if(md.begin(), md.end(), [&](const Impl::Entry& e) { return e.key == key; });
    if (it == md.end())
        return;
    md.erase(it);
    m_impl->keys.erase(std::string(key));
}

bool Writer::hasKey(std::string_view key) const
{
    return m_impl->keys.count(std::string(key)) != 0;
}

size_t Writer::tensorBytes(size_t index) const
{
    return static_cast<size_t>(m_impl->tensors.at(index).bytes);
}

uint64_t Writer::alignment() const
{
    return m_impl->alignment;
}

size_t Writer::metadataCount() const
{
    return m_impl->metadata.size();
}

size_t Writer::tensorCount() const
{
    return m_impl->tensors.size();
}

// Everything before the data section, padded to the alignment.
std::string Writer::Impl::header() const
{
    std::string out = "GGUF";
    put<uint32_t>(out, version);
    put<uint64_t>(out, tensors.size());
    put<uint64_t>(out, metadata.size());
    for (const Entry& e : metadata)
        out += e.bytes;
    uint64_t offset = 0;
    for (const Tensor& t : tensors) {
        putString(out, t.name);
        put<uint32_t>(out, static_cast<uint32_t>(t.ne.size()));
        for (int64_t n : t.ne)
            put<int64_t>(out, n);
        put<uint32_t>(out, static_cast<uint32_t>(t.type));
        put<uint64_t>(out, offset);
        offset += padTo(t.bytes, alignment);
    }
    out.resize(padTo(out.size(), alignment), '\0');
    return out;
}

std::vector<uint8_t> Writer::headerBytes() const
{
    const std::string head = m_impl->header();
    return std::vector<uint8_t>(head.begin(), head.end());
}

std::vector<uint8_t> Writer::bytes() const
{
    const std::string head = m_impl->header();
    std::vector<uint8_t> out(head.begin(), head.end());
    for (const Impl::Tensor& t : m_impl->tensors) {
        if (t.streamed)
            fail("tensor '" + t.name + "' has no data (declared with addTensorInfo): use write(path, produce)");
        out.insert(out.end(), t.data.begin(), t.data.end());
        out.resize(padTo(out.size(), m_impl->alignment), 0);
    }
    return out;
}

void Writer::write(const std::string& path) const
{
    write(path, [](size_t index, TensorSink&) {
        fail("tensor " + std::to_string(index) +
             " has no data (declared with addTensorInfo): use write(path, produce)");
    });
}

namespace {

// Counts what a producer writes and hands it to the file.
class FileSink final : public Writer::TensorSink {
public:
    explicit FileSink(std::ofstream& out) : m_out(out) {}
    void write(const void* data, size_t bytes) override
    {
        m_out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
        m_written += bytes;
    }
    uint64_t written() const { return m_written; }

private:
    std::ofstream& m_out;
    uint64_t m_written = 0;
};

} // namespace

// Writes to PATH.tmp and renames, so a failed write never leaves a
// half-written file under the final name.
void Writer::write(const std::string& path, const TensorProducer& produce) const
{
    const std::string tmp = path + ".tmp";
    const auto discard = [&] {
        std::error_code ec;
        std::filesystem::remove(pathFromUtf8(tmp), ec);
    };
    try {
        std::ofstream out(pathFromUtf8(tmp), std::ios::binary | std::ios::trunc);
        if (!out)
            throw Error(path + ": cannot create the file");
        const std::string head = m_impl->header();
        out.write(head.data(), static_cast<std::streamsize>(head.size()));
        const std::string zeros(m_impl->alignment, '\0');
        for (size_t i = 0; i < m_impl->tensors.size(); ++i) {
            const Impl::Tensor& t = m_impl->tensors[i];
            if (t.streamed) {
                FileSink sink(out);
                produce(i, sink);
                if (sink.written() != t.bytes)
                    fail("tensor '" + t.name + "': the producer wrote " + std::to_string(sink.written()) +
                         " bytes, expected " + std::to_string(t.bytes));
            } else {
                out.write(reinterpret_cast<const char*>(t.data.data()), static_cast<std::streamsize>(t.data.size()));
            }
            out.write(zeros.data(), static_cast<std::streamsize>(padTo(t.bytes, m_impl->alignment) - t.bytes));
            if (!out)
                throw Error(path + ": writing failed (disk full?)");
        }
        out.flush();
        if (!out)
            throw Error(path + ": writing failed (disk full?)");
        out.close();
        std::error_code ec;
        std::filesystem::rename(pathFromUtf8(tmp), pathFromUtf8(path), ec);
        if (ec)
            throw Error(path + ": cannot rename " + tmp + " into place: " + ec.message());
    } catch (...) {
        discard();
        throw;
    }
}

Writer copyOf(const File& file)
{
    Writer w(file.version());
    for (const KeyValue& kv : file.metadata()) {
        if (!kv.key.starts_with("split.")) // the copy is one file
            w.addValue(kv.key, kv.value);
    }
    for (const TensorInfo& t : file.tensors())
        w.addTensorView(t.name, t.type,
                        std::span<const int64_t>(t.ne.data(), static_cast<size_t>(std::max(t.nDims, 1))),
                        std::span<const uint8_t>(t.data, t.bytes));
    return w;
}

} // namespace hearth::gguf
