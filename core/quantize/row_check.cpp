#include "quantize/row_check.h"

#include <cmath>
#include <cstring>

namespace hearth::quantize {

namespace {

struct ScaleFields {
    size_t offsets[2]; // byte offsets of f16 fields within a block
    int count;
};

// The f16 fields of each block format (see core/quant/*.h for the layouts).
bool scaleFields(GgmlType t, ScaleFields& f)
{
    switch (t) {
    case GgmlType::Q4_0:
    case GgmlType::Q5_0:
    case GgmlType::Q8_0:
    case GgmlType::IQ4_NL:
    case GgmlType::IQ4_XS: f = {{0, 0}, 1}; return true;
    case GgmlType::Q4_1:
    case GgmlType::Q5_1:
    case GgmlType::Q4_K:
    case GgmlType::Q5_K: f = {{0, 2}, 2}; return true;
    case GgmlType::Q2_K: f = {{80, 82}, 2}; return true;
    case GgmlType::Q3_K: f = {{108, 0}, 1}; return true;
    case GgmlType::Q6_K: f = {{208, 0}, 1}; return true;
    default: return false;
    }
}

uint16_t load16(const uint8_t* p)
{
    uint16_t v;
    std::memcpy(&v, p, 2);
    return v;
}

bool halfFinite(uint16_t h)
{
    return (h & 0x7c00u) != 0x7c00u;
}

bool bf16Finite(uint16_t h)
{
    return (h & 0x7f80u) != 0x7f80u;
}

} // namespace

std::string checkRows(GgmlType type, const uint8_t* data, size_t bytes)
{
    if (type == GgmlType::F16 || type == GgmlType::BF16) {
        for (size_t i = 0; i + 1 < bytes; i += 2) {
            const uint16_t h = load16(data + i);
            if (type == GgmlType::F16 ? !halfFinite(h) : !bf16Finite(h))
                return "element " + std::to_string(i / 2) + " is not finite";
        }
        return {};
    }
    if (type == GgmlType::F32) {
        for (size_t i = 0; i + 3 < bytes; i += 4) {
            float v;
            std::memcpy(&v, data + i, 4);
            if (!std::isfinite(v))
                return "element " + std::to_string(i / 4) + " is not finite";
        }
        return {};
    }
    ScaleFields f{};
    if (!scaleFields(type, f))
        return {};
    const size_t block = typeTraits(type).blockBytes;
    for (size_t b = 0; b * block < bytes; ++b)
        for (int k = 0; k < f.count; ++k) {
            const uint16_t h = load16(data + b * block + f.offsets[k]);
            if (!halfFinite(h))
                return "block " + std::to_string(b) + ": scale " + (k == 0 ? "d" : "m") + " is " +
                       (h & 0x3ffu ? "nan" : "inf");
        }
    return {};
}

} // namespace hearth::quantize
