// AVX2 building blocks shared by the avx2/ and avx512/ kernel files
// (internal; include only from sources compiled with at least -mavx2 -mfma
// -mf16c). Everything here has internal linkage so that no copy compiled
// with these flags can be picked by the linker for code that runs on a CPU
// without them.
#pragma once

#if defined(__x86_64__) || defined(_M_X64)

#include <immintrin.h>

#include <cstdint>
#include <cstring>

namespace hearth::cpu::avx2 {
namespace {

// f16 bits → f32 (F16C: exact, like util/half.h's f16ToF32).
inline float halfToFloat(uint16_t h)
{
    return _cvtsh_ss(h);
}

// f32 → f16 bits, round to nearest even (like f32ToF16).
inline uint16_t floatToHalf(float f)
{
    return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}

// Σ of 8 lanes in the order of ggml's hsum_float_8:
// ((l0+l4) + (l2+l6)) + ((l1+l5) + (l3+l7)).
inline float hsum8(__m256 v)
{
    __m128 r = _mm_add_ps(_mm256_extractf128_ps(v, 1), _mm256_castps256_ps128(v));
    r = _mm_add_ps(r, _mm_movehl_ps(r, r));
    r = _mm_add_ss(r, _mm_movehdup_ps(r));
    return _mm_cvtss_f32(r);
}

inline int hsumI32(__m256i v)
{
    __m128i r = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    r = _mm_add_epi32(r, _mm_unpackhi_epi64(r, r));
    r = _mm_add_epi32(r, _mm_shuffle_epi32(r, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(r);
}

// 16 bytes of nibbles → 32 bytes: byte j (< 16) is the low nibble of byte j,
// byte j + 16 the high nibble (the order of every 32-element block format).
inline __m256i nibbles32(const uint8_t* p)
{
    const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m256i both = _mm256_inserti128_si256(_mm256_castsi128_si256(raw), _mm_srli_epi16(raw, 4), 1);
    return _mm256_and_si256(both, _mm256_set1_epi8(0x0f));
}

// Bit j of the little-endian u32 at p → byte j set to `value` (else 0).
inline __m256i bitsToBytes32(const uint8_t* p, int8_t value)
{
    uint32_t bits;
    std::memcpy(&bits, p, sizeof bits);
    const __m256i spread = _mm256_shuffle_epi8(
        _mm256_set1_epi32(static_cast<int>(bits)),
        _mm256_set_epi64x(0x0303030303030303, 0x0202020202020202, 0x0101010101010101, 0x0000000000000000));
    const __m256i probe = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
    const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, probe), probe);
    return _mm256_and_si256(set, _mm256_set1_epi8(value));
}

// Lane l (0..7) = Σ of the products of bytes 4l..4l+3, u8 × s8. The pair
// sums of maddubs must not saturate: |u| · |s| · 2 < 32768.
inline __m256i dotU8S8(__m256i u, __m256i s)
{
    return _mm256_madd_epi16(_mm256_maddubs_epi16(u, s), _mm256_set1_epi16(1));
}

// The same for two signed operands with |x| <= 127 (sign moved onto y).
inline __m256i dotS8S8(__m256i x, __m256i y)
{
    return dotU8S8(_mm256_sign_epi8(x, x), _mm256_sign_epi8(y, x));
}

// Rows read in lockstep defeat the hardware prefetcher once a matrix is
// larger than the cache, so tiles prefetch the same blocks of the rows that
// come next (tiles run in row order): whole tiles ahead, at least 4 KiB.
// (For one token the block and float tiles read one row at a time, which
// streams fastest of all; the prefetch still adds a few percent there.)
inline size_t prefetchDistance(size_t rowStride, int rows)
{
    if (rowStride == 0)
        return 0;
    const size_t minRows = (4096 + rowStride - 1) / rowStride;
    return rowStride * (minRows > static_cast<size_t>(rows) ? minRows : static_cast<size_t>(rows));
}

// Every cache line of `bytes` bytes at p.
inline void prefetchLines(const void* p, size_t bytes)
{
    for (size_t off = 0; off < bytes; off += 64)
        _mm_prefetch(static_cast<const char*>(p) + off, _MM_HINT_T0);
}

} // namespace
} // namespace hearth::cpu::avx2

#endif
