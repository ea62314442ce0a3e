// Rows-in-lanes building blocks of the AVX2 kernels for llama.cpp's
// repacked-weight orders (avx2/repacked.cpp, avx2/repacked_k.cpp; the
// AVX-512 level uses them too). Internal; include only from sources compiled
// with at least -mavx2 -mfma -mf16c.
//
// Why rows in lanes: the repacked orders scale one exact integer per block
// (or chunk) and weight row with a scalar fused multiply-add per (row,
// token), so the float work is one lane per row. A group of 8 rows is read
// in 4 pairs, pair g holding row g in the low 128 bits and row 4 + g in the
// high ones; the integer partial sums of a pair come out as 4 int32 per row
// and half, and reduceRows8 turns the 4 pairs into one vector whose lane r
// is row r's sum.
#pragma once

#if defined(__x86_64__) || defined(_M_X64)

#include "cpu/avx2/simd_avx2.h"
#include "cpu/row_groups.h"

namespace hearth::cpu::avx2 {
namespace {

constexpr int kGroupRows = 8;

// z[g] (g = 0..3): 4 int32 partials of row g (low half) and row 4 + g
// (high half) → out[j] lane r = partial j of row r (j = 0..3).
inline void transposeRows8(const __m256i* z, __m256i* out)
{
    const __m256i a = _mm256_unpacklo_epi32(z[0], z[1]);
    const __m256i b = _mm256_unpackhi_epi32(z[0], z[1]);
    const __m256i c = _mm256_unpacklo_epi32(z[2], z[3]);
    const __m256i d = _mm256_unpackhi_epi32(z[2], z[3]);
    out[0] = _mm256_unpacklo_epi64(a, c);
    out[1] = _mm256_unpackhi_epi64(a, c);
    out[2] = _mm256_unpacklo_epi64(b, d);
    out[3] = _mm256_unpackhi_epi64(b, d);
}

// The same, summed: lane r = Σ of row r's 4 partials (exact integers).
inline __m256i reduceRows8(const __m256i* z)
{
    const __m256i ab = _mm256_add_epi32(_mm256_unpacklo_epi32(z[0], z[1]), _mm256_unpackhi_epi32(z[0], z[1]));
    const __m256i cd = _mm256_add_epi32(_mm256_unpacklo_epi32(z[2], z[3]), _mm256_unpackhi_epi32(z[2], z[3]));
    return _mm256_add_epi32(_mm256_unpacklo_epi64(ab, cd), _mm256_unpackhi_epi64(ab, cd));
}

// 16 bytes of row g (low half) and 16 of row 4 + g (high half).
inline __m256i loadPair(const uint8_t* lo, const uint8_t* hi)
{
    const __m128i l = _mm_loadu_si128(reinterpret_cast<const __m128i*>(lo));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(l), _mm_loadu_si128(reinterpret_cast<const __m128i*>(hi)), 1);
}

inline __m256i broadcast16(const void* p)
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(static_cast<const __m128i*>(p)));
}

// The f16 at byte `offset` of block b of each of the 8 rows → 8 floats.
template <class Block>
inline __m256 halfPerRow(const uint8_t* const* rows, int64_t b, size_t offset)
{
    alignas(16) uint16_t h[kGroupRows];
    for (int r = 0; r < kGroupRows; ++r)
        std::memcpy(&h[r], rows[r] + sizeof(Block) * static_cast<size_t>(b) + offset, sizeof(uint16_t));
    return _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(h)));
}

// Every cache line of block b (Block bytes) of the rows `ahead` bytes on.
template <class Block>
inline void prefetchGroup(const uint8_t* const* rows, int64_t b, size_t ahead)
{
    for (int r = 0; r < kGroupRows; ++r)
        prefetchLines(rows[r] + sizeof(Block) * static_cast<size_t>(b) + ahead, sizeof(Block));
}

// lanes[r] for the rows of the group that exist (`live`) → s[r].
inline void storeRows(float* s, __m256 lanes, int live)
{
    storeLiveRows<kGroupRows>(s, lanes, live, [](float* p, __m256 v) { _mm256_storeu_ps(p, v); });
}

} // namespace
} // namespace hearth::cpu::avx2

#endif
