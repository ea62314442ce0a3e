// GGUF reader: opens a model file (or a set of split files) through a
// read-only memory mapping and validates every byte of the header, the
// metadata and the tensor table before anything uses them. Tensor data is
// never read here; it stays in the mapping and kernels read it in place.
//
// Layout (little-endian), version 2 and 3:
//   "GGUF" u32 version, u64 n_tensors, u64 n_kv,
//   n_kv × { string key, u32 value_type, value },
//   n_tensors × { string name, u32 n_dims, u64 ne[n_dims], u32 type, u64 offset },
//   padding to `general.alignment` (default 32), tensor data.
//   A string is u64 length + bytes; an array is u32 element type, u64 count,
//   elements.
//
// Every refusal is a hearth::Error naming the file, the key or tensor, what
// was expected and the byte offset. Counts and lengths are checked against
// the bytes that remain before anything is allocated, and what the reader
// allocates is bounded by the file's size plus 1 MiB (a file that would
// need more, with tens of thousands of tiny keys or tensors, is refused).
//
// Thread-safety: a File is immutable after construction; any thread may read
// it. Values and tensor infos point into the mapping and live as long as the
// File.
#pragma once

#include "quant/types.h"
#include "util/error.h"
#include "util/mapped_file.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hearth::gguf {

enum class ValueType : uint32_t {
    UInt8 = 0,
    Int8 = 1,
    UInt16 = 2,
    Int16 = 3,
    UInt32 = 4,
    Int32 = 5,
    Float32 = 6,
    Bool = 7,
    String = 8,
    Array = 9,
    UInt64 = 10,
    Int64 = 11,
    Float64 = 12,
};

std::string_view valueTypeName(ValueType type);
bool isIntegerType(ValueType type);
bool isFloatType(ValueType type);
// Bytes of one element of a fixed-size type; 0 for String and Array.
size_t valueTypeSize(ValueType type);

// A metadata value. Scalars are decoded; strings and arrays are views into
// the mapped file (numbers in arrays are read with memcpy: no alignment is
// guaranteed).
class Value {
public:
    ValueType type() const { return m_type; }

    // Any integer type (and bool) as int64; nullopt for other types or a
    // uint64 above INT64_MAX.
    std::optional<int64_t> toInt() const;
    // Any non-negative integer as uint64 (all of a UInt64's range).
    std::optional<uint64_t> toUInt64() const;
    // Float32/Float64, or any integer type, as double.
    std::optional<double> toFloat() const;
    std::optional<bool> toBool() const;
    std::optional<std::string_view> toString() const;

    // Arrays. elementType() and size() are valid only when type() == Array.
    ValueType elementType() const { return m_elemType; }
    uint64_t size() const { return m_count; }
    std::string_view stringAt(uint64_t i) const;      // element type String
    int64_t intAt(uint64_t i) const;                  // any integer element type
    double floatAt(uint64_t i) const;                 // float or integer element type
    const uint8_t* rawData() const { return m_data; } // numeric arrays: packed LE elements

    // A readable rendering for `hearth info` (arrays abbreviated).
    std::string toDisplayString(size_t maxItems = 8) const;

private:
    friend class Parser;
    // Decodes one fixed-size little-endian element of type t at p.
    static int64_t decodeInt(ValueType t, const uint8_t* p);
    static double decodeFloat(ValueType t, const uint8_t* p);

    ValueType m_type = ValueType::UInt8;
    ValueType m_elemType = ValueType::UInt8;
    union {
        uint64_t u;
        int64_t i;
        double f;
    } m_scalar{};
    const uint8_t* m_data = nullptr; // string bytes / array elements
    uint64_t m_count = 0;            // string length / array element count
    // String arrays: offset of each element's length prefix from m_data.
    std::shared_ptr<const std::vector<uint64_t>> m_stringOffsets;
};

struct KeyValue {
    std::string_view key;
    Value value;
};

struct TensorInfo {
    std::string_view name;
    GgmlType type = GgmlType::F32;
    int nDims = 0;
    // ne[0] is the innermost, contiguous dimension (a row); unused dims are 1.
    std::array<int64_t, 4> ne{1, 1, 1, 1};
    uint64_t offset = 0;           // from the start of its file's data section
    uint64_t fileOffset = 0;       // from the start of its file
    size_t bytes = 0;              // size of the data
    const uint8_t* data = nullptr; // into the mapping
    int split = 0;                 // which file of a split model holds it

    int64_t elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
    int64_t rows() const { return ne[1] * ne[2] * ne[3]; }
};

// Thrown by File::fromPrefix when the header goes on past the bytes given:
// `needed` is how many bytes from the start of the file the parser wanted
// (read at least that many and try again).
class IncompleteHeader : public Error {
public:
    IncompleteHeader(const std::string& message, uint64_t needed) : Error(message), needed(needed) {}
    uint64_t needed;
};

struct ParsedFile; // gguf_parser.h

class File {
public:
    // Opens and validates `path`. A file named NAME-00001-of-0000N.gguf (or
    // any file whose `split.count` is > 1) opens its siblings too and presents
    // all their tensors as one model. Throws hearth::Error.
    explicit File(const std::string& path);
    // Parses a GGUF file held in memory, named `name` in errors. Nothing is
    // copied: `bytes` must outlive the File. A split model cannot be opened
    // this way (its other parts are files).
    File(std::string name, std::span<const uint8_t> bytes);

    // Parses the header of a file of `fileSize` bytes from its first bytes
    // alone (a download's HTTP range, before the weights arrive): every check
    // runs as for a whole file, tensor ranges against `fileSize`. Tensor data
    // pointers are null and split siblings are not opened. Throws
    // IncompleteHeader when `prefix` ends inside the header, hearth::Error
    // when the bytes are not a valid GGUF header. `prefix` must outlive the
    // File.
    static File fromPrefix(std::string name, std::span<const uint8_t> prefix, uint64_t fileSize);

    // One part of a split model seen through its first bytes.
    struct PartPrefix {
        std::string name;
        std::span<const uint8_t> prefix;
        uint64_t fileSize = 0;
    };
    // The headers of every part of a split model (NAME-00001-of-0000N.gguf
    // first), each from its first bytes: the parts are checked as the
    // whole-file reader checks its siblings (split.no in order, no tensor in
    // two parts, split.tensors.count) and their tensors presented as one
    // model, as File(path) does once the files are here. One part behaves as
    // fromPrefix(). Throws IncompleteHeader (for the part its message names)
    // and hearth::Error as fromPrefix() does. The prefixes must outlive the
    // File.
    static File fromPrefixes(const std::vector<PartPrefix>& parts);

    const std::string& path() const { return m_path; }
    uint32_t version() const { return m_version; }
    uint64_t alignment() const { return m_alignment; }
    // Total bytes of all files (splits included).
    uint64_t fileSize() const;
    size_t splitCount() const { return m_maps.size(); }
    const MappedFile& mapping(size_t split = 0) const { return *m_maps[split]; }
    // Offset of the first file's data section.
    uint64_t dataOffset() const { return m_dataOffset; }

    const std::vector<KeyValue>& metadata() const { return m_metadata; }
    const Value* find(std::string_view key) const;

    // Typed look-ups. find*() returns nullopt when the key is absent and
    // throws when it is present with a type that does not convert; get*()
    // also throws when it is absent. Integers of any width convert when the
    // value fits.
    std::optional<int64_t> findInt(std::string_view key) const;
    std::optional<double> findFloat(std::string_view key) const;
    std::optional<bool> findBool(std::string_view key) const;
    std::optional<std::string_view> findString(std::string_view key) const;
    // Array of the given element class ("string", "integer", "float"), or
    // nullptr when absent; throws on another type.
    const Value* findArray(std::string_view key) const;
    int64_t getInt(std::string_view key) const;
    double getFloat(std::string_view key) const;
    std::string_view getString(std::string_view key) const;

    // `general.architecture`, or "" when absent.
    std::string_view architecture() const;

    const std::vector<TensorInfo>& tensors() const { return m_tensors; }
    const TensorInfo* findTensor(std::string_view name) const;

    // Throws hearth::Error naming this file and the key.
    [[noreturn]] void fail(std::string_view key, const std::string& what) const;

private:
    File() = default;
    void init(std::unique_ptr<MappedFile> first, uint64_t declaredSize = 0);
    void openSplits();
    // Checks part `index` of a split set (already parsed) and appends its tensors.
    void addSplitPart(ParsedFile& part, const std::string& name, size_t index);
    void checkSplitTensorCount(size_t parts) const;

    std::string m_path;
    bool m_inMemory = false;
    uint64_t m_declaredSize = 0; // fromPrefix(): the whole file's size
    uint32_t m_version = 0;
    uint64_t m_alignment = 32;
    uint64_t m_dataOffset = 0;
    std::vector<std::unique_ptr<MappedFile>> m_maps;
    std::vector<KeyValue> m_metadata;
    std::unordered_map<std::string_view, size_t> m_keyIndex;
    std::vector<TensorInfo> m_tensors;
    std::unordered_map<std::string_view, size_t> m_tensorIndex;
};

} // namespace hearth::gguf
