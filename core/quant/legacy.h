// The "legacy" block formats: 32 elements per block, one f16 scale (and for
// the _1 variants an f16 offset), integer quants packed in nibbles.
//
//   q4_0: x = d * (q - 8),        q in 0..15
//   q4_1: x = d * q + m,          q in 0..15
//   q5_0: x = d * (q - 16),       q in 0..31, 5th bits in qh
//   q5_1: x = d * q + m,          q in 0..31, 5th bits in qh
//   q8_0: x = d * q,              q in -127..127
//   q8_1: x = d * q, s = d * sum(q)  (the activation format of the _1 dots)
//
// Nibble order: byte j of qs holds element j in its low nibble and element
// j + 16 in its high nibble. Bit j of qh (little-endian u32) is the 5th bit
// of element j. f16 fields hold the bit pattern.
//
// The dequantizers are the scalar reference (same arithmetic, in the same
// order, as ggml's); the quantizers are ggml's reference algorithms
// (deterministic, bit-exact with quantize_row_*_ref and with the gguf
// package's quantize()).
#pragma once

#include <cstdint>

namespace hearth {

inline constexpr int QK4_0 = 32;
inline constexpr int QK4_1 = 32;
inline constexpr int QK5_0 = 32;
inline constexpr int QK5_1 = 32;
inline constexpr int QK8_0 = 32;
inline constexpr int QK8_1 = 32;

struct BlockQ4_0 {
    uint16_t d;            // f16 scale
    uint8_t qs[QK4_0 / 2]; // nibbles
};
static_assert(sizeof(BlockQ4_0) == 18, "q4_0 block must be 18 bytes");

struct BlockQ4_1 {
    uint16_t d;            // f16 scale
    uint16_t m;            // f16 minimum (offset)
    uint8_t qs[QK4_1 / 2]; // nibbles
};
static_assert(sizeof(BlockQ4_1) == 20, "q4_1 block must be 20 bytes");

struct BlockQ5_0 {
    uint16_t d;            // f16 scale
    uint8_t qh[4];         // 5th bit of each quant (u32, little-endian)
    uint8_t qs[QK5_0 / 2]; // low nibbles
};
static_assert(sizeof(BlockQ5_0) == 22, "q5_0 block must be 22 bytes");

struct BlockQ5_1 {
    uint16_t d;            // f16 scale
    uint16_t m;            // f16 minimum (offset)
    uint8_t qh[4];         // 5th bit of each quant (u32, little-endian)
    uint8_t qs[QK5_1 / 2]; // low nibbles
};
static_assert(sizeof(BlockQ5_1) == 24, "q5_1 block must be 24 bytes");

struct BlockQ8_0 {
    uint16_t d;       // f16 scale
    int8_t qs[QK8_0]; // quants
};
static_assert(sizeof(BlockQ8_0) == 34, "q8_0 block must be 34 bytes");

struct BlockQ8_1 {
    uint16_t d;       // f16 scale
    uint16_t s;       // f16 of d * sum(qs)
    int8_t qs[QK8_1]; // quants
};
static_assert(sizeof(BlockQ8_1) == 36, "q8_1 block must be 36 bytes");

// n is the number of elements: a multiple of the block size.
void dequantizeRowQ4_0(const BlockQ4_0* x, float* y, int64_t n);
void dequantizeRowQ4_1(const BlockQ4_1* x, float* y, int64_t n);
void dequantizeRowQ5_0(const BlockQ5_0* x, float* y, int64_t n);
void dequantizeRowQ5_1(const BlockQ5_1* x, float* y, int64_t n);
void dequantizeRowQ8_0(const BlockQ8_0* x, float* y, int64_t n);
void dequantizeRowQ8_1(const BlockQ8_1* x, float* y, int64_t n);

void quantizeRowQ4_0(const float* x, BlockQ4_0* y, int64_t n);
void quantizeRowQ4_1(const float* x, BlockQ4_1* y, int64_t n);
void quantizeRowQ5_0(const float* x, BlockQ5_0* y, int64_t n);
void quantizeRowQ5_1(const float* x, BlockQ5_1* y, int64_t n);
// Activation quantizers, bit-exact with ggml's quantize_row_q8_0_ref and
// quantize_row_q8_1_ref.
void quantizeRowQ8_0(const float* x, BlockQ8_0* y, int64_t n);
void quantizeRowQ8_1(const float* x, BlockQ8_1* y, int64_t n);

} // namespace hearth
