#include "gguf/gguf_parser.h"

#include "util/error.h"

#include <algorithm>
#include <cstring>
#include <limits>

namespace hearth::gguf {

namespace {

constexpr int kMaxDims = 4;
// Bookkeeping allowed beyond the file's size: room for small files with
// many tiny tensors (synthetic test models), about 6,000 of them.
constexpr uint64_t kFixedAllowance = 1024 * 1024;
// What one metadata entry / tensor costs in memory: its record and its
// index entry (an unordered_map node and bucket, generously).
constexpr uint64_t kIndexEntryBytes = 64;
constexpr uint64_t kKeyValueBytes = sizeof(KeyValue) + kIndexEntryBytes;
constexpr uint64_t kTensorBytes = sizeof(TensorInfo) + kIndexEntryBytes + sizeof(void*);
// Smallest encodings: a key-value is a key of >= 1 byte with its 8-byte
// length, a 4-byte type and a >= 1-byte value; a tensor info is a name
// length, a dimension count, a type and an offset.
constexpr uint64_t kMinKeyValueBytes = 8 + 1 + 4 + 1;
constexpr uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;

template <typename T>
T readLe(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

// ggml type ids that llama.cpp retired; files using them need re-conversion.
const char* retiredTypeName(uint32_t id)
{
    switch (id) {
    case 4: return "q4_2";
    case 5: return "q4_3";
    case 31: return "q4_0_4_4";
    case 32: return "q4_0_4_8";
    case 33: return "q4_0_8_8";
    case 36: return "iq4_nl_4_4";
    case 37: return "iq4_nl_4_8";
    case 38: return "iq4_nl_8_8";
    default: return nullptr;
    }
}

} // namespace

std::string quoted(std::string_view s)
{
    constexpr size_t kMaxShown = 80;
    std::string out = "'";
    for (size_t i = 0; i < s.size() && i < kMaxShown; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 32 || c == 127) {
            static const char hex[] = "0123456789abcdef";
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += static_cast<char>(c);
        }
    }
    if (s.size() > kMaxShown)
        out += "...";
    return out + "'";
}

// Reads one mapped file front to back. Every read goes through need(),
// which checks the bytes that remain, and every allocation whose size comes
// from the file goes through charge(), so no count or length in the file is
// trusted before it is checked.
class Parser {
public:
    Parser(const MappedFile& map, const std::string& path, uint64_t declaredSize)
        : m_map(map)
        , m_path(path)
        , m_size(declaredSize > 0 ? declaredSize : map.size())
        , m_allowance(m_size + kFixedAllowance)
    {
    }

    [[noreturn]] void fail(uint64_t at, const std::string& what) const
    {
        throw Error(m_path + ": at byte " + std::to_string(at) + ": " + what);
    }

    uint64_t pos() const { return m_pos; }
    uint64_t remaining() const { return m_size - m_pos; }
    uint64_t size() const { return m_size; }
    // Only the file's first bytes are here (File::fromPrefix).
    bool prefixOnly() const { return m_size > m_map.size(); }
    const uint8_t* data() const { return m_map.data(); }

    const uint8_t* need(uint64_t n, const char* what)
    {
        if (n > remaining())
            fail(m_pos, std::string("file ends inside ") + what + " (needs " + std::to_string(n) + " bytes, " +
                            std::to_string(remaining()) + " left)");
        if (n > m_map.size() - m_pos)
            throw IncompleteHeader(m_path + ": the header goes on past the first " + std::to_string(m_map.size()) +
                                       " bytes (" + what + " at byte " + std::to_string(m_pos) + ")",
                                   m_pos + n);
        const uint8_t* p = m_map.data() + m_pos;
        m_pos += n;
        return p;
    }

    template <typename T>
    T read(const char* what)
    {
        return readLe<T>(need(sizeof(T), what));
    }

    // Accounts for `bytes` of memory about to be allocated for what the
    // file describes at `at`.
    void charge(uint64_t bytes, uint64_t at, const std::string& what)
    {
        if (bytes > m_allowance)
            fail(at, what + " would need " + std::to_string(bytes) + " bytes of memory, more than a file of " +
                         std::to_string(m_size) + " bytes can describe");
        m_allowance -= bytes;
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
            fail(at, "key " + quoted(key) + ": unknown value type " + std::to_string(t) + " (expected 0..12)");
        const auto vt = static_cast<ValueType>(t);
        if (inArray && vt == ValueType::Array)
            fail(at, "key " + quoted(key) + ": arrays of arrays are not part of GGUF");
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
            // Bools other than 0/1 are read as true, as llama.cpp does.
            const uint8_t* p = need(valueTypeSize(type), "a value");
            if (isFloatType(type))
                v.m_scalar.f = Value::decodeFloat(type, p);
            else if (type == ValueType::UInt64)
                v.m_scalar.u = readLe<uint64_t>(p);
            else
                v.m_scalar.i = Value::decodeInt(type, p);
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
        // Strings need at least their 8-byte length each.
        const uint64_t minSize = elemSize > 0 ? elemSize : 8;
        if (v.m_count > remaining() / minSize)
            fail(at, "key " + quoted(key) + ": array of " + std::to_string(v.m_count) + " " +
                         std::string(valueTypeName(v.m_elemType)) + " values does not fit in the " +
                         std::to_string(remaining()) + " bytes that remain");
        if (elemSize > 0) {
            need(v.m_count * elemSize, "an array");
            return;
        }
        charge(v.m_count * sizeof(uint64_t), at, "key " + quoted(key) + ": an array of strings");
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
    uint64_t m_size; // of the whole file
    uint64_t m_pos = 0;
    uint64_t m_allowance;
};

namespace {

void checkAlignment(Parser& p, const KeyValue& kv, uint64_t at)
{
    if (kv.value.type() != ValueType::UInt32)
        p.fail(at, "key 'general.alignment' has type " + std::string(valueTypeName(kv.value.type())) +
                       " (expected uint32)");
    const int64_t a = *kv.value.toInt();
    if (a <= 0 || (a & (a - 1)) != 0)
        p.fail(at, "key 'general.alignment' is " + std::to_string(a) + " (expected a power of two)");
}

// Reads dims, type and offset; leaves the offset field's position in
// fileOffset until the data section is known.
TensorInfo readTensorInfo(Parser& p)
{
    TensorInfo t;
    t.name = p.readString("a tensor name");
    const auto failHere = [&](uint64_t where, const std::string& what) {
        p.fail(where, "tensor " + quoted(t.name) + ": " + what);
    };
    const uint64_t dimsAt = p.pos();
    const uint32_t nDims = p.read<uint32_t>("a tensor's dimension count");
    if (nDims > kMaxDims)
        failHere(dimsAt, std::to_string(nDims) + " dimensions (at most 4 are allowed)");
    t.nDims = static_cast<int>(nDims);
    int64_t elements = 1;
    for (uint32_t d = 0; d < nDims; ++d) {
        const uint64_t neAt = p.pos();
        const auto ne = p.read<int64_t>("a tensor dimension");
        if (ne < 0)
            failHere(neAt, "ne[" + std::to_string(d) + "] = " + std::to_string(ne) + " is negative");
        if (ne != 0 && elements > std::numeric_limits<int64_t>::max() / ne)
            failHere(dimsAt, "its element count overflows 64 bits");
        elements *= ne;
        t.ne[d] = ne;
    }
    const uint64_t typeAt = p.pos();
    const uint32_t typeId = p.read<uint32_t>("a tensor type");
    const TypeTraits* traits = findTypeTraits(typeId);
    if (!traits && retiredTypeName(typeId))
        failHere(typeAt, "type " + std::string(retiredTypeName(typeId)) + " (id " + std::to_string(typeId) +
                             ") was removed from GGUF by llama.cpp; download or convert the model again");
    if (!traits)
        failHere(typeAt, "unknown tensor type id " + std::to_string(typeId));
    t.type = traits->type;
    if (t.ne[0] % traits->blockSize != 0)
        failHere(dimsAt, "ne[0] = " + std::to_string(t.ne[0]) + " is not a multiple of the " +
                             std::string(traits->name) + " block size " + std::to_string(traits->blockSize));
    const auto blocks = static_cast<uint64_t>(elements / traits->blockSize);
    if (blocks > std::numeric_limits<uint64_t>::max() / traits->blockBytes)
        failHere(dimsAt, "its byte size overflows 64 bits");
    t.bytes = static_cast<size_t>(blocks * traits->blockBytes);
    t.fileOffset = p.pos();
    t.offset = p.read<uint64_t>("a tensor offset");
    return t;
}

void readHeader(Parser& p, ParsedFile& out, uint64_t& nTensors, uint64_t& nKv)
{
    const uint8_t* magic = p.need(4, "the magic number");
    if (std::memcmp(magic, "GGUF", 4) != 0) {
        char shown[5] = {};
        for (int i = 0; i < 4; ++i)
            shown[i] = (magic[i] >= 32 && magic[i] < 127) ? static_cast<char>(magic[i]) : '?';
        p.fail(0, std::string("not a GGUF file (magic is \"") + shown + "\", expected \"GGUF\")");
    }
    out.version = p.read<uint32_t>("the version");
    if (out.version == 1)
        p.fail(4, "GGUF version 1 is no longer supported (convert the model again; versions 2 and 3 are)");
    if (out.version != 2 && out.version != 3 && (out.version & 0xffffu) == 0)
        p.fail(4, "version reads as " + std::to_string(out.version) +
                      ": the file is big-endian, and Hearth reads little-endian GGUF files");
    if (out.version != 2 && out.version != 3)
        p.fail(4, "unsupported GGUF version " + std::to_string(out.version) + " (expected 2 or 3)");
    const uint64_t countsAt = p.pos();
    nTensors = p.read<uint64_t>("the tensor count");
    nKv = p.read<uint64_t>("the metadata count");
    if (nKv > p.remaining() / kMinKeyValueBytes)
        p.fail(countsAt + 8, std::to_string(nKv) + " metadata entries cannot fit in the " +
                                 std::to_string(p.remaining()) + " bytes that remain");
    if (nTensors > (p.remaining() - nKv * kMinKeyValueBytes) / kMinTensorInfoBytes)
        p.fail(countsAt, std::to_string(nTensors) + " tensors cannot fit in the " + std::to_string(p.remaining()) +
                             " bytes that remain");
    p.charge(nKv * kKeyValueBytes + nTensors * kTensorBytes, countsAt,
             std::to_string(nKv) + " metadata entries and " + std::to_string(nTensors) + " tensors");
}

void readMetadata(Parser& p, ParsedFile& out, uint64_t nKv)
{
    out.metadata.reserve(nKv);
    out.keyIndex.reserve(nKv);
    for (uint64_t i = 0; i < nKv; ++i) {
        const uint64_t at = p.pos();
        KeyValue kv;
        kv.key = p.readString("a metadata key");
        if (kv.key.empty())
            p.fail(at, "metadata key " + std::to_string(i) + " is empty");
        if (!out.keyIndex.emplace(kv.key, i).second)
            p.fail(at, "duplicate metadata key " + quoted(kv.key));
        const ValueType type = p.readValueType(kv.key, /*inArray=*/false);
        kv.value = p.readValue(kv.key, type);
        if (kv.key == "general.alignment") {
            checkAlignment(p, kv, at);
            out.alignment = static_cast<uint64_t>(*kv.value.toInt());
        }
        out.metadata.push_back(std::move(kv));
    }
}

// Every tensor's data lies inside the data section, aligned, and no two
// share a byte.
void placeTensors(Parser& p, ParsedFile& out, uint64_t fileSize)
{
    const uint64_t dataSize = fileSize - out.dataOffset;
    for (TensorInfo& t : out.tensors) {
        const uint64_t offsetField = t.fileOffset;
        if (t.offset % out.alignment != 0)
            p.fail(offsetField, "tensor " + quoted(t.name) + ": data offset " + std::to_string(t.offset) +
                                    " is not a multiple of the alignment " + std::to_string(out.alignment));
        if (t.offset > dataSize || t.bytes > dataSize - t.offset)
            p.fail(offsetField, "tensor " + quoted(t.name) + ": its " + std::to_string(t.bytes) +
                                    " bytes at data offset " + std::to_string(t.offset) +
                                    " end beyond the file (the data section holds " + std::to_string(dataSize) +
                                    " bytes)");
        t.fileOffset = out.dataOffset + t.offset;
        t.data = p.prefixOnly() ? nullptr : p.data() + t.fileOffset;
    }
    std::vector<const TensorInfo*> byOffset;
    byOffset.reserve(out.tensors.size());
    for (const TensorInfo& t : out.tensors)
        byOffset.push_back(&t);
    std::sort(byOffset.begin(), byOffset.end(),
              [](const TensorInfo* a, const TensorInfo* b) { return a->offset < b->offset; });
    const TensorInfo* reach = nullptr; // the tensor whose data ends furthest so far
    for (const TensorInfo* t : byOffset) {
        if (reach && t->bytes > 0 && t->offset < reach->offset + reach->bytes)
            p.fail(t->fileOffset, "tensor " + quoted(t->name) + " (data offset " + std::to_string(t->offset) +
                                      ") overlaps tensor " + quoted(reach->name) + " (data offset " +
                                      std::to_string(reach->offset) + ", " + std::to_string(reach->bytes) + " bytes)");
        if (!reach || t->offset + t->bytes > reach->offset + reach->bytes)
            reach = t;
    }
}

} // namespace

ParsedFile parseFile(const MappedFile& map, const std::string& path, uint64_t declaredSize)
{
    Parser p(map, path, declaredSize);
    ParsedFile out;
    uint64_t nTensors = 0, nKv = 0;
    readHeader(p, out, nTensors, nKv);
    readMetadata(p, out, nKv);

    out.tensorIndex.reserve(nTensors);
    out.tensors.reserve(nTensors);
    for (uint64_t i = 0; i < nTensors; ++i) {
        const uint64_t at = p.pos();
        TensorInfo t = readTensorInfo(p);
        if (!out.tensorIndex.emplace(t.name, i).second)
            p.fail(at, "duplicate tensor name " + quoted(t.name));
        out.tensors.push_back(t);
    }

    // The data section starts at the next multiple of the alignment. A file
    // without tensors may end right after its metadata (vocab-only files).
    const uint64_t headerEnd = p.pos();
    out.dataOffset = (headerEnd + out.alignment - 1) / out.alignment * out.alignment;
    if (out.tensors.empty())
        return out;
    if (out.dataOffset > p.size())
        p.fail(headerEnd, "file ends before its tensor data section (expected it at byte " +
                              std::to_string(out.dataOffset) + ", the file has " + std::to_string(p.size()) + ")");
    placeTensors(p, out, p.size());
    return out;
}

} // namespace hearth::gguf
