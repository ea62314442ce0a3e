// The non-linear 4-bit formats: each 4-bit index selects one of 16 fixed
// values (kValuesIQ4NL, denser near zero, fitted to the bell shape of weight
// distributions) that is then scaled.
//
//   iq4_nl: 32 elements, x = d * kValuesIQ4NL[q]; byte j of qs holds element
//           j (low nibble) and j + 16 (high nibble)
//   iq4_xs: 256 elements in 8 sub-blocks of 32, x = d * (ls - 32) *
//           kValuesIQ4NL[q], with the 6-bit ls of sub-block b made of nibble
//           b%2 of scales_l[b/2] and bits 2b..2b+1 of scales_h; nibbles of
//           each sub-block as in iq4_nl
//
// f16 fields hold the bit pattern. Dequantizers are the scalar reference;
// the quantizers follow ggml's reference (quantize_row_iq4_nl_ref,
// quantize_row_iq4_xs_ref): per 32 elements, the scale whose nearest-value
// rounding fits best in weighted least squares (weights x^2), and for
// iq4_xs the sub-block scales stored as 6-bit multiples of the largest/32.
// quantizeChunkIQ4_NL is what llama.cpp writes into model files
// (quantize_iq4_nl, no importance matrix): the reference's first fit, then
// 15 more inverse scales tried as for iq4_xs, and the indices recomputed
// with the chosen scale.
#pragma once

#include <cstdint>

namespace hearth {

inline constexpr int QK4_NL = 32;

inline constexpr int8_t kValuesIQ4NL[16] = {-127, -104, -83, -65, -49, -35, -22, -10, 1, 13, 25, 38, 53, 69, 89, 113};

struct BlockIQ4_NL {
    uint16_t d;             // f16 scale
    uint8_t qs[QK4_NL / 2]; // 4-bit indices
};
static_assert(sizeof(BlockIQ4_NL) == 18, "iq4_nl block must be 18 bytes");

struct BlockIQ4_XS {
    uint16_t d;          // f16 scale
    uint16_t scalesH;    // high 2 bits of the 8 sub-block scales
    uint8_t scalesL[4];  // low 4 bits of the 8 sub-block scales
    uint8_t qs[256 / 2]; // 4-bit indices
};
static_assert(sizeof(BlockIQ4_XS) == 136, "iq4_xs block must be 136 bytes");

void dequantizeRowIQ4_NL(const BlockIQ4_NL* x, float* y, int64_t n);
void dequantizeRowIQ4_XS(const BlockIQ4_XS* x, float* y, int64_t n);

void quantizeRowIQ4_NL(const float* x, BlockIQ4_NL* y, int64_t n);
void quantizeChunkIQ4_NL(const float* x, BlockIQ4_NL* y, int64_t n);
void quantizeRowIQ4_XS(const float* x, BlockIQ4_XS* y, int64_t n);

} // namespace hearth
