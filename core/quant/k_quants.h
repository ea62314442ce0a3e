// The K-quant formats: super-blocks of QK_K = 256 elements split into
// sub-blocks that carry small integer scales (and mins), which are scaled
// again by f16 super-block factors. f16 fields hold the bit pattern.
//
// Element e (0..255) of a super-block is found at:
//   q2_K  x = d*sc - dmin*m, 16 sub-blocks of 16; scales[e/16] = sc | m << 4;
//         2 bits at qs[32*(e/128) + e%32] >> 2*((e%128)/32)
//   q3_K  x = d*(sc-32) * (q - 4*!hbit), 16 sub-blocks of 16; sc is 6 bits:
//         low 4 in scales[s%8] (s<8: low nibble, else high), high 2 in
//         scales[8 + s%4] >> 2*(s/4); 2 low bits of q as in q2_K; hbit is
//         bit e/32 of hmask[e%32]
//   q4_K  x = d*sc*q - dmin*m, 8 sub-blocks of 32, 6-bit sc/m packed in
//         scales[12] (see scaleMinK4); q is the low (e%64 < 32) or high
//         nibble of qs[32*(e/64) + e%32]
//   q5_K  as q4_K, plus the 5th bit: bit e/32 of qh[e%32]
//   q6_K  x = d*sc*(q-32), 16 sub-blocks of 16, sc int8 = scales[e/16];
//         with k = (e%128)/32, l = e%32: low 4 bits are nibble k/2 of
//         ql[64*(e/128) + 32*(k%2) + l], high 2 bits (qh[32*(e/128) + l]
//         >> 2k) & 3
//   q8_K  x = d*q with f32 d; bsums[g] = sum of q over elements 16g..16g+15
//         (the activation format of the K-quant dot products)
//
// Dequantizers are the scalar reference (ggml's arithmetic and order).
// quantizeRowQ8_K is bit-exact with ggml's quantize_row_q8_K_ref. The
// weight quantizers search per sub-block for the scale (and min) that
// minimizes a weighted error, step for step as ggml's reference quantizers
// (quantize_row_q{2..6}_K_ref) do, and write the same bytes.
#pragma once

#include <cstdint>
#include <cstring>

namespace hearth {

inline constexpr int QK_K = 256;
inline constexpr int K_SCALE_SIZE = 12;

struct BlockQ2_K {
    uint8_t scales[QK_K / 16]; // low nibble: scale, high nibble: min
    uint8_t qs[QK_K / 4];      // 2-bit quants
    uint16_t d;                // f16 factor of the scales
    uint16_t dmin;             // f16 factor of the mins
};
static_assert(sizeof(BlockQ2_K) == 84, "q2_K block must be 84 bytes");

struct BlockQ3_K {
    uint8_t hmask[QK_K / 8]; // high bit of each quant
    uint8_t qs[QK_K / 4];    // low 2 bits
    uint8_t scales[12];      // 16 6-bit scales
    uint16_t d;              // f16 factor of the scales
};
static_assert(sizeof(BlockQ3_K) == 110, "q3_K block must be 110 bytes");

struct BlockQ4_K {
    uint16_t d;                   // f16 factor of the scales
    uint16_t dmin;                // f16 factor of the mins
    uint8_t scales[K_SCALE_SIZE]; // 8 6-bit scales and 8 6-bit mins
    uint8_t qs[QK_K / 2];         // 4-bit quants
};
static_assert(sizeof(BlockQ4_K) == 144, "q4_K block must be 144 bytes");

struct BlockQ5_K {
    uint16_t d;                   // f16 factor of the scales
    uint16_t dmin;                // f16 factor of the mins
    uint8_t scales[K_SCALE_SIZE]; // 8 6-bit scales and 8 6-bit mins
    uint8_t qh[QK_K / 8];         // 5th bit of each quant
    uint8_t qs[QK_K / 2];         // low 4 bits
};
static_assert(sizeof(BlockQ5_K) == 176, "q5_K block must be 176 bytes");

struct BlockQ6_K {
    uint8_t ql[QK_K / 2];     // low 4 bits
    uint8_t qh[QK_K / 4];     // high 2 bits
    int8_t scales[QK_K / 16]; // 8-bit scales
    uint16_t d;               // f16 factor of the scales
};
static_assert(sizeof(BlockQ6_K) == 210, "q6_K block must be 210 bytes");

struct BlockQ8_K {
    float d;                  // scale
    int8_t qs[QK_K];          // quants
    int16_t bsums[QK_K / 16]; // sums of 16 quants
};
static_assert(sizeof(BlockQ8_K) == 292, "q8_K block must be 292 bytes");

// Sub-block j (0..7) of a q4_K/q5_K scales[12] array: its 6-bit scale and min.
// Bytes 0-3 hold scales 0-3 (low 6 bits) and the top 2 bits of scales 4-7;
// bytes 4-7 the same for the mins; bytes 8-11 the low 4 bits of scales 4-7
// (low nibble) and mins 4-7 (high nibble).
inline void scaleMinK4(int j, const uint8_t* q, uint8_t& scale, uint8_t& min)
{
    if (j < 4) {
        scale = q[j] & 63;
        min = q[j + 4] & 63;
    } else {
        scale = static_cast<uint8_t>((q[j + 4] & 0x0f) | ((q[j - 4] >> 6) << 4));
        min = static_cast<uint8_t>((q[j + 4] >> 4) | ((q[j] >> 6) << 4));
    }
}

// All of them at once, as the bytes of two little-endian 64-bit words
// (byte j: scale / min j), for the SIMD kernels to load into a register.
inline void unpackScalesMinsK4(const uint8_t* packed, uint64_t& scales, uint64_t& mins)
{
    uint32_t u[3];
    std::memcpy(u, packed, 12);
    const uint32_t sc0 = u[0] & 0x3f3f3f3f;
    const uint32_t mn0 = u[1] & 0x3f3f3f3f;
    const uint32_t sc1 = (u[2] & 0x0f0f0f0f) | (((u[0] >> 6) & 0x03030303) << 4);
    const uint32_t mn1 = ((u[2] >> 4) & 0x0f0f0f0f) | (((u[1] >> 6) & 0x03030303) << 4);
    scales = sc0 | (static_cast<uint64_t>(sc1) << 32);
    mins = mn0 | (static_cast<uint64_t>(mn1) << 32);
}

// The same into scales[8] and mins[8].
inline void unpackScalesMinsK4(const uint8_t* packed, uint8_t* scales, uint8_t* mins)
{
    uint64_t sc, mn;
    unpackScalesMinsK4(packed, sc, mn);
    const uint32_t words[4] = {static_cast<uint32_t>(sc), static_cast<uint32_t>(sc >> 32), static_cast<uint32_t>(mn),
                               static_cast<uint32_t>(mn >> 32)};
    std::memcpy(scales, &words[0], 4);
    std::memcpy(scales + 4, &words[1], 4);
    std::memcpy(mins, &words[2], 4);
    std::memcpy(mins + 4, &words[3], 4);
}

// n is the number of elements: a multiple of QK_K.
void dequantizeRowQ2_K(const BlockQ2_K* x, float* y, int64_t n);
void dequantizeRowQ3_K(const BlockQ3_K* x, float* y, int64_t n);
void dequantizeRowQ4_K(const BlockQ4_K* x, float* y, int64_t n);
void dequantizeRowQ5_K(const BlockQ5_K* x, float* y, int64_t n);
void dequantizeRowQ6_K(const BlockQ6_K* x, float* y, int64_t n);
void dequantizeRowQ8_K(const BlockQ8_K* x, float* y, int64_t n);

void quantizeRowQ2_K(const float* x, BlockQ2_K* y, int64_t n);
void quantizeRowQ3_K(const float* x, BlockQ3_K* y, int64_t n);
void quantizeRowQ4_K(const float* x, BlockQ4_K* y, int64_t n);
void quantizeRowQ5_K(const float* x, BlockQ5_K* y, int64_t n);
void quantizeRowQ6_K(const float* x, BlockQ6_K* y, int64_t n);
// Activation quantizer, bit-exact with ggml's quantize_row_q8_K_ref.
void quantizeRowQ8_K(const float* x, BlockQ8_K* y, int64_t n);

} // namespace hearth
