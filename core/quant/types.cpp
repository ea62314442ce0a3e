#include "quant/types.h"

#include "quant/float_types.h"
#include "quant/iq4.h"
#include "quant/k_quants.h"
#include "quant/legacy.h"

#include <array>
#include <cassert>
#include <cctype>

namespace hearth {

namespace {

// Adapters from the typed row functions of the family headers to the
// type-erased pointers of the table.
template <typename Block, void (*Fn)(const Block*, float*, int64_t)>
void dequantizeAs(const void* src, float* dst, int64_t n)
{
    Fn(static_cast<const Block*>(src), dst, n);
}

template <typename Block, void (*Fn)(const float*, Block*, int64_t)>
void quantizeAs(const float* src, void* dst, int64_t n)
{
    Fn(src, static_cast<Block*>(dst), n);
}

// The geometry of every type is stated here once; the scalar reference
// conversions come from the per-family files (legacy, k_quants, iq4,
// float_types).
struct TraitsTable {
    std::array<TypeTraits, kGgmlTypeIdLimit> entries{};
    std::array<bool, kGgmlTypeIdLimit> known{};

    constexpr void add(GgmlType t, std::string_view name, int64_t blockSize, size_t blockBytes, bool quantized,
                       DequantizeRowFn dequantize = nullptr, QuantizeRowFn quantize = nullptr,
                       QuantizeRowFn quantizeChunk = nullptr)
    {
        const auto id = static_cast<uint32_t>(t);
        entries[id] = TypeTraits{t,         name,       blockSize, blockBytes,
                                 quantized, dequantize, quantize,  quantizeChunk ? quantizeChunk : quantize};
        known[id] = true;
    }
};

TraitsTable makeTable()
{
    TraitsTable t;
    // clang-format off
    t.add(GgmlType::F32, "f32", 1, 4, false,
          dequantizeAs<float, dequantizeRowF32>, quantizeAs<float, quantizeRowF32>);
    t.add(GgmlType::F16, "f16", 1, 2, false,
          dequantizeAs<uint16_t, dequantizeRowF16>, quantizeAs<uint16_t, quantizeRowF16>);
    t.add(GgmlType::Q4_0, "q4_0", 32, 18, true,
          dequantizeAs<BlockQ4_0, dequantizeRowQ4_0>, quantizeAs<BlockQ4_0, quantizeRowQ4_0>);
    t.add(GgmlType::Q4_1, "q4_1", 32, 20, true,
          dequantizeAs<BlockQ4_1, dequantizeRowQ4_1>, quantizeAs<BlockQ4_1, quantizeRowQ4_1>);
    t.add(GgmlType::Q5_0, "q5_0", 32, 22, true,
          dequantizeAs<BlockQ5_0, dequantizeRowQ5_0>, quantizeAs<BlockQ5_0, quantizeRowQ5_0>);
    t.add(GgmlType::Q5_1, "q5_1", 32, 24, true,
          dequantizeAs<BlockQ5_1, dequantizeRowQ5_1>, quantizeAs<BlockQ5_1, quantizeRowQ5_1>);
    t.add(GgmlType::Q8_0, "q8_0", 32, 34, true,
          dequantizeAs<BlockQ8_0, dequantizeRowQ8_0>, quantizeAs<BlockQ8_0, quantizeRowQ8_0>);
    t.add(GgmlType::Q8_1, "q8_1", 32, 36, true,
          dequantizeAs<BlockQ8_1, dequantizeRowQ8_1>, quantizeAs<BlockQ8_1, quantizeRowQ8_1>);
    t.add(GgmlType::Q2_K, "q2_K", 256, 84, true,
          dequantizeAs<BlockQ2_K, dequantizeRowQ2_K>, quantizeAs<BlockQ2_K, quantizeRowQ2_K>);
    t.add(GgmlType::Q3_K, "q3_K", 256, 110, true,
          dequantizeAs<BlockQ3_K, dequantizeRowQ3_K>, quantizeAs<BlockQ3_K, quantizeRowQ3_K>);
    t.add(GgmlType::Q4_K, "q4_K", 256, 144, true,
          dequantizeAs<BlockQ4_K, dequantizeRowQ4_K>, quantizeAs<BlockQ4_K, quantizeRowQ4_K>);
    t.add(GgmlType::Q5_K, "q5_K", 256, 176, true,
          dequantizeAs<BlockQ5_K, dequantizeRowQ5_K>, quantizeAs<BlockQ5_K, quantizeRowQ5_K>);
    t.add(GgmlType::Q6_K, "q6_K", 256, 210, true,
          dequantizeAs<BlockQ6_K, dequantizeRowQ6_K>, quantizeAs<BlockQ6_K, quantizeRowQ6_K>);
    t.add(GgmlType::Q8_K, "q8_K", 256, 292, true,
          dequantizeAs<BlockQ8_K, dequantizeRowQ8_K>, quantizeAs<BlockQ8_K, quantizeRowQ8_K>);
    t.add(GgmlType::IQ2_XXS, "iq2_xxs", 256, 66, true);
    t.add(GgmlType::IQ2_XS, "iq2_xs", 256, 74, true);
    t.add(GgmlType::IQ3_XXS, "iq3_xxs", 256, 98, true);
    t.add(GgmlType::IQ1_S, "iq1_s", 256, 50, true);
    t.add(GgmlType::IQ4_NL, "iq4_nl", 32, 18, true,
          dequantizeAs<BlockIQ4_NL, dequantizeRowIQ4_NL>, quantizeAs<BlockIQ4_NL, quantizeRowIQ4_NL>,
          quantizeAs<BlockIQ4_NL, quantizeChunkIQ4_NL>);
    t.add(GgmlType::IQ3_S, "iq3_s", 256, 110, true);
    t.add(GgmlType::IQ2_S, "iq2_s", 256, 82, true);
    t.add(GgmlType::IQ4_XS, "iq4_xs", 256, 136, true,
          dequantizeAs<BlockIQ4_XS, dequantizeRowIQ4_XS>, quantizeAs<BlockIQ4_XS, quantizeRowIQ4_XS>);
    t.add(GgmlType::I8, "i8", 1, 1, false);
    t.add(GgmlType::I16, "i16", 1, 2, false);
    t.add(GgmlType::I32, "i32", 1, 4, false);
    t.add(GgmlType::I64, "i64", 1, 8, false);
    t.add(GgmlType::F64, "f64", 1, 8, false);
    t.add(GgmlType::IQ1_M, "iq1_m", 256, 56, true);
    t.add(GgmlType::BF16, "bf16", 1, 2, false,
          dequantizeAs<uint16_t, dequantizeRowBF16>, quantizeAs<uint16_t, quantizeRowBF16>);
    t.add(GgmlType::TQ1_0, "tq1_0", 256, 54, true);
    t.add(GgmlType::TQ2_0, "tq2_0", 256, 66, true);
    t.add(GgmlType::MXFP4, "mxfp4", 32, 17, true);
    t.add(GgmlType::NVFP4, "nvfp4", 64, 36, true);
    t.add(GgmlType::Q1_0, "q1_0", 128, 18, true);
    t.add(GgmlType::Q2_0, "q2_0", 64, 18, true);
    // clang-format on
    return t;
}

TraitsTable& table()
{
    static TraitsTable t = makeTable();
    return t;
}

} // namespace

const TypeTraits* findTypeTraits(uint32_t id)
{
    if (id >= kGgmlTypeIdLimit || !table().known[id])
        return nullptr;
    return &table().entries[id];
}

const TypeTraits& typeTraits(GgmlType type)
{
    const TypeTraits* t = findTypeTraits(static_cast<uint32_t>(type));
    assert(t && "typeTraits() called with an unknown type");
    return *t;
}

std::optional<GgmlType> parseTypeName(std::string_view name)
{
    for (uint32_t id = 0; id < kGgmlTypeIdLimit; ++id) {
        const TypeTraits* t = findTypeTraits(id);
        if (!t || t->name.size() != name.size())
            continue;
        bool same = true;
        for (size_t i = 0; i < name.size() && same; ++i)
            same = std::tolower(static_cast<unsigned char>(name[i])) ==
                   std::tolower(static_cast<unsigned char>(t->name[i]));
        if (same)
            return t->type;
    }
    return std::nullopt;
}

} // namespace hearth
