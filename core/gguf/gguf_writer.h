// GGUF writer: builds a file that llama.cpp and Hearth's reader load, for
// tests (synthetic models), converters and the quantize tool.
//
// Metadata keys keep the order they were added in; tensors too. Each
// tensor's data starts at a multiple of the alignment (general.alignment,
// default 32) from the start of the data section and is padded with zeros
// to the next multiple, as llama.cpp writes and expects.
//
// Every mistake a caller can make (duplicate key or tensor name, data of the
// wrong size, ne[0] not a multiple of the block size, more than 4
// dimensions, an alignment that is not a power of two) is a hearth::Error.
//
// Ownership: addTensor() copies the data; addTensorView() only points at it,
// and the memory must stay valid until write()/bytes() have run (for
// copying tensors out of a mapped File without reading them into RAM).
// addTensorInfo() declares a tensor whose bytes a producer hands to write()
// later, one tensor at a time (converters and the quantizer stream a model
// through bounded memory this way).
// Not thread-safe; one thread builds and writes a Writer.
#pragma once

#include "gguf/gguf.h"
#include "quant/types.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace hearth::gguf {

class Writer {
public:
    // GGUF version 2 and 3 share one layout; 3 is what llama.cpp writes.
    explicit Writer(uint32_t version = 3);
    ~Writer();
    Writer(Writer&&) noexcept;
    Writer& operator=(Writer&&) noexcept;

    // Scalars. Setting general.alignment (uint32, a power of two) changes
    // the alignment of the data section; setAlignment() does that too.
    void addUInt8(std::string_view key, uint8_t v);
    void addInt8(std::string_view key, int8_t v);
    void addUInt16(std::string_view key, uint16_t v);
    void addInt16(std::string_view key, int16_t v);
    void addUInt32(std::string_view key, uint32_t v);
    void addInt32(std::string_view key, int32_t v);
    void addUInt64(std::string_view key, uint64_t v);
    void addInt64(std::string_view key, int64_t v);
    void addFloat32(std::string_view key, float v);
    void addFloat64(std::string_view key, double v);
    void addBool(std::string_view key, bool v);
    void addString(std::string_view key, std::string_view v);
    void setAlignment(uint64_t alignment);

    // Arrays. A numeric array is `count` packed little-endian elements of
    // `elementType` at `data` (any type but String and Array).
    void addArray(std::string_view key, ValueType elementType, const void* data, uint64_t count);
    template <typename T>
    void addArray(std::string_view key, std::span<const T> values);
    template <typename T>
    void addArray(std::string_view key, const std::vector<T>& values)
    {
        addArray(key, std::span<const T>(values));
    }
    void addStringArray(std::string_view key, std::span<const std::string> values);
    void addStringArray(std::string_view key, std::span<const std::string_view> values);
    // A copy of a value read by gguf::File (any type, arrays included).
    void addValue(std::string_view key, const Value& value);

    // A tensor of `type` with dims ne (ne[0] innermost, 1 to 4 of them) and
    // exactly rowBytes(type, ne[0]) * ne[1] * ... bytes of data.
    void addTensor(std::string_view name, GgmlType type, std::span<const int64_t> ne, std::span<const uint8_t> data);
    void addTensorView(std::string_view name, GgmlType type, std::span<const int64_t> ne,
                       std::span<const uint8_t> data);
    // A tensor whose data write(path, produce) asks `produce` for.
    void addTensorInfo(std::string_view name, GgmlType type, std::span<const int64_t> ne);

    // When on, adding a key that exists replaces its value where it stands
    // (as the gguf package's GGUFWriter does); when off (the default) a
    // duplicate key is an error.
    void setReplaceExisting(bool on);

    // Removes a metadata key if present (a later add appends it at the end,
    // as llama.cpp's gguf_set_val does).
    void removeKey(std::string_view key);
    bool hasKey(std::string_view key) const;

    uint64_t alignment() const;
    size_t metadataCount() const;
    size_t tensorCount() const;

    // The whole file in memory (small files: tests) or on disk. write()
    // throws hearth::Error naming the path when it cannot be written.
    std::vector<uint8_t> bytes() const;
    void write(const std::string& path) const;

    // Receives the bytes of one tensor, in order, from a producer.
    class TensorSink {
    public:
        virtual void write(const void* data, size_t bytes) = 0;

    protected:
        ~TensorSink() = default;
    };
    // Called once per tensor declared by addTensorInfo(), in order, with its
    // index among all tensors; it must write exactly that tensor's bytes.
    using TensorProducer = std::function<void(size_t index, TensorSink& sink)>;
    // Streams the file to PATH.tmp and renames it into place; on any failure
    // (an exception from `produce` included, e.g. hearth::Cancelled) the
    // temporary file is removed and nothing exists under `path`.
    void write(const std::string& path, const TensorProducer& produce) const;
    // Bytes of tensor `index`'s data (without padding).
    size_t tensorBytes(size_t index) const;
    // Everything before the data section (magic, metadata, tensor infos,
    // padding): what a reader parses.
    std::vector<uint8_t> headerBytes() const;

private:
    struct Impl;
    void addTensorImpl(std::string_view name, GgmlType type, std::span<const int64_t> ne, std::span<const uint8_t> data,
                       bool copy);
    std::unique_ptr<Impl> m_impl;
};

// A writer holding all metadata of `file` and views of all its tensors
// (split files included), to write a modified copy. `file` must outlive it.
Writer copyOf(const File& file);

namespace detail {
template <typename T>
constexpr ValueType valueTypeOf();
template <>
constexpr ValueType valueTypeOf<uint8_t>()
{
    return ValueType::UInt8;
}
template <>
constexpr ValueType valueTypeOf<int8_t>()
{
    return ValueType::Int8;
}
template <>
constexpr ValueType valueTypeOf<uint16_t>()
{
    return ValueType::UInt16;
}
template <>
constexpr ValueType valueTypeOf<int16_t>()
{
    return ValueType::Int16;
}
template <>
constexpr ValueType valueTypeOf<uint32_t>()
{
    return ValueType::UInt32;
}
template <>
constexpr ValueType valueTypeOf<int32_t>()
{
    return ValueType::Int32;
}
template <>
constexpr ValueType valueTypeOf<uint64_t>()
{
    return ValueType::UInt64;
}
template <>
constexpr ValueType valueTypeOf<int64_t>()
{
    return ValueType::Int64;
}
template <>
constexpr ValueType valueTypeOf<float>()
{
    return ValueType::Float32;
}
template <>
constexpr ValueType valueTypeOf<double>()
{
    return ValueType::Float64;
}
} // namespace detail

template <typename T>
void Writer::addArray(std::string_view key, std::span<const T> values)
{
    if constexpr (std::is_same_v<T, bool>) {
        std::vector<uint8_t> b(values.begin(), values.end());
        addArray(key, ValueType::Bool, b.data(), b.size());
    } else {
        addArray(key, detail::valueTypeOf<T>(), values.data(), values.size());
    }
}

} // namespace hearth::gguf
