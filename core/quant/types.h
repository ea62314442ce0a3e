// Tensor element types as GGUF stores them (ggml's type ids) and the one
// traits table that every layer of Hearth indexes by type: block geometry,
// name, and the scalar reference conversions that are the source of truth
// for every optimized kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace hearth {

// Values are ggml's type ids and must never change; gaps are ids that ggml
// retired and that no valid file uses.
enum class GgmlType : uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    Q8_K = 15,
    IQ2_XXS = 16,
    IQ2_XS = 17,
    IQ3_XXS = 18,
    IQ1_S = 19,
    IQ4_NL = 20,
    IQ3_S = 21,
    IQ2_S = 22,
    IQ4_XS = 23,
    I8 = 24,
    I16 = 25,
    I32 = 26,
    I64 = 27,
    F64 = 28,
    IQ1_M = 29,
    BF16 = 30,
    TQ1_0 = 34,
    TQ2_0 = 35,
    MXFP4 = 39,
    NVFP4 = 40,
    Q1_0 = 41,
    Q2_0 = 42,
};

inline constexpr uint32_t kGgmlTypeIdLimit = 43; // one past the largest id

// Converts `n` elements (a multiple of blockSize) of a row.
using DequantizeRowFn = void (*)(const void* src, float* dst, int64_t n);
using QuantizeRowFn = void (*)(const float* src, void* dst, int64_t n);

struct TypeTraits {
    GgmlType type;
    std::string_view name;                // ggml's spelling: "f32", "q4_K", "iq4_nl", ...
    int64_t blockSize;                    // elements per block (1 for plain types)
    size_t blockBytes;                    // bytes per block
    bool quantized;                       // block-quantized (not a plain number type)
    DequantizeRowFn dequantize = nullptr; // scalar reference; nullptr if unsupported
    QuantizeRowFn quantize = nullptr;     // scalar reference; nullptr if none
    // What ggml_quantize_chunk writes without an importance matrix, i.e.
    // the bytes of a model file that llama-quantize makes. The same as
    // `quantize` for every type but iq4_nl, whose reference row quantizer
    // tries one scale while the model quantizer searches 15 (ggml's
    // quantize_row_iq4_nl_ref vs quantize_iq4_nl). nullptr if none.
    QuantizeRowFn quantizeChunk = nullptr;
};

// Traits of a known type id, or nullptr for an id ggml never defined (or
// retired). Never throws.
const TypeTraits* findTypeTraits(uint32_t id);
// Traits of a valid type. Precondition: the type is known.
const TypeTraits& typeTraits(GgmlType type);

// Bytes of a row of `n` elements. Precondition: n % blockSize == 0.
inline size_t rowBytes(GgmlType type, int64_t n)
{
    const TypeTraits& t = typeTraits(type);
    return static_cast<size_t>(n / t.blockSize) * t.blockBytes;
}

// Parses a type name in ggml's spelling, case-insensitively ("Q4_K" works).
std::optional<GgmlType> parseTypeName(std::string_view name);

} // namespace hearth
