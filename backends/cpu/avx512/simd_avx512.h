// AVX-512 building blocks shared by the avx512/ float and attention files
// (internal; include only from sources compiled with the AVX-512 flags).
// Internal linkage throughout, as in avx2/simd_avx2.h.
#pragma once

#include "cpu/avx2/simd_avx2.h"

#if defined(__x86_64__) || defined(_M_X64)

namespace hearth::cpu::avx512 {
namespace {

// (hi + lo) then hsum8: _mm512_reduce_add_ps as GCC evaluates it.
inline float reduce16(__m512 v)
{
    return avx2::hsum8(_mm256_add_ps(_mm512_extractf32x8_ps(v, 1), _mm512_castps512_ps256(v)));
}

// 16 f16 → 16 f32 (exact).
inline __m512 loadF16(const uint16_t* p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

} // namespace
} // namespace hearth::cpu::avx512

#endif
