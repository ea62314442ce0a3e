// AVX-512 VNNI kernel of llama.cpp's repacked GEMV order for Q4_K (one
// token, or the few tokens left over from the groups of four; see
// scalar/repack.cpp): per super-block and weight row one exact integer
// Σ scale·q·a over all 256 elements and one Σ min·bsum, then
//   accD = fma(f32(Σ), d(x)·y.d, accD), accM = fma(f32(Σmin), dmin(x)·y.d, accM)
// and the result accD − accM, as avx2/repacked_k.cpp computes it with 8
// rows in the lanes of the float steps.
//
// Generation streams these weights from memory once per token, and the AVX2
// tile spends two multiplies (maddubs, madd) per 16 quants of a row pair.
// Here a row's 128 bytes of quants are two zmm loads; vpdpbusd sums four
// u8 × s8 products per lane (the nibbles are unsigned), so a lane holds
// four quants of one sub-block, and one exact 32-bit multiply by that
// sub-block's scale per lane follows: |lane| <= 4·15·128·63, and the row's
// sum fits int32 like the reference's. Which integer additions happen in
// which order does not matter; the float steps are the reference's.
#include "cpu/avx2/repacked_rows.h"
#include "cpu/kernels.h"
#include "quant/k_quants.h"

#include <mutex>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

// The activations of one super-block in the order the nibbles come: zmm k
// pairs with the low (k even) or high (k odd) nibbles of quant bytes
// 64·(k / 2) .. + 63, whose 32-byte halves are chunks 2·(k / 2) and
// 2·(k / 2) + 1 (elements 64c + i for the low nibble of byte i of chunk c,
// 64c + 32 + i for the high one).
struct Activations {
    __m512i y[4];
    __m256i bsum32; // Σ of each sub-block's 32 activations, int16 × 8 (twice)
    float d;
};

inline __m512i join(const int8_t* lo, const int8_t* hi)
{
    const __m256i l = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lo));
    return _mm512_inserti64x4(_mm512_castsi256_si512(l), _mm256_loadu_si256(reinterpret_cast<const __m256i*>(hi)), 1);
}

inline void prepare(const BlockQ8_K& y, Activations& out)
{
    out.y[0] = join(y.qs + 0, y.qs + 64);
    out.y[1] = join(y.qs + 32, y.qs + 96);
    out.y[2] = join(y.qs + 128, y.qs + 192);
    out.y[3] = join(y.qs + 160, y.qs + 224);
    const __m128i b32 = _mm_hadd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y.bsums)),
                                       _mm_loadu_si128(reinterpret_cast<const __m128i*>(y.bsums + 8)));
    out.bsum32 = _mm256_broadcastsi128_si256(b32);
    out.d = y.d;
}

// The sub-block of each lane of zmm k's products: lanes 0..7 come from the
// first 32-byte half (chunk c = 2·(k / 2): sub-block 2c + k % 2), lanes
// 8..15 from the second (chunk c + 1: two sub-blocks on). As indices into
// the row's 8 scales (int32).
inline __m512i scaleIndex(int k)
{
    const int first = 4 * (k / 2) + k % 2; // sub-block of the first half
    return _mm512_set_epi32(first + 2, first + 2, first + 2, first + 2, first + 2, first + 2, first + 2, first + 2,
                            first, first, first, first, first, first, first, first);
}

// Σ scale·q·a of one row's super-block as 16 int32 partials, and its
// Σ min·bsum as 4 (`mins`).
inline __m512i rowSums(const BlockQ4_K& x, const Activations& a, const __m512i* index, __m128i& mins)
{
    uint64_t sc64, mn64;
    unpackScalesMinsK4(x.scales, sc64, mn64);
    const __m512i scales = _mm512_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(sc64)));
    const __m512i mask = _mm512_set1_epi8(0x0f);
    __m512i acc = _mm512_setzero_si512();
    for (int half = 0; half < 2; ++half) {
        const __m512i q = _mm512_loadu_si512(x.qs + 64 * half);
        const __m512i lo = _mm512_and_si512(q, mask);
        const __m512i hi = _mm512_and_si512(_mm512_srli_epi16(q, 4), mask);
        const __m512i pLo = _mm512_dpbusd_epi32(_mm512_setzero_si512(), lo, a.y[2 * half]);
        const __m512i pHi = _mm512_dpbusd_epi32(_mm512_setzero_si512(), hi, a.y[2 * half + 1]);
        acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(pLo, _mm512_permutexvar_epi32(index[2 * half], scales)));
        acc = _mm512_add_epi32(acc, _mm512_mullo_epi32(pHi, _mm512_permutexvar_epi32(index[2 * half + 1], scales)));
    }
    mins = _mm_madd_epi16(_mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(mn64))),
                          _mm256_castsi256_si128(a.bsum32));
    return acc;
}

// p[r] (4 int32 partials of row r) → lane r = Σ of p[r], through
// reduceRows8's layout (row g low, row 4 + g high).
inline __m256i sumRows(const __m128i* p)
{
    __m256i z[4];
    for (int g = 0; g < 4; ++g)
        z[g] = _mm256_inserti128_si256(_mm256_castsi128_si256(p[g]), p[4 + g], 1);
    return reduceRows8(z);
}

// 8 rows (rows[] past the end repeat the last one) × nt tokens.
void group(int64_t nb, const uint8_t* const* rows, int live, size_t ahead, const uint8_t* a, size_t aStride, int64_t nt,
           float* s, size_t sStride)
{
    __m512i index[4];
    for (int k = 0; k < 4; ++k)
        index[k] = scaleIndex(k);
    for (int64_t t = 0; t < nt; ++t) {
        const auto* y = reinterpret_cast<const BlockQ8_K*>(a + aStride * static_cast<size_t>(t));
        __m256 accD = _mm256_setzero_ps(), accM = _mm256_setzero_ps();
        for (int64_t b = 0; b < nb; ++b) {
            if (t == 0)
                prefetchGroup<BlockQ4_K>(rows, b, ahead);
            Activations act;
            prepare(y[b], act);
            __m128i sums[kGroupRows], mins[kGroupRows];
            for (int r = 0; r < kGroupRows; ++r) {
                const __m512i acc = rowSums(reinterpret_cast<const BlockQ4_K*>(rows[r])[b], act, index, mins[r]);
                const __m256i half = _mm256_add_epi32(_mm512_castsi512_si256(acc), _mm512_extracti64x4_epi64(acc, 1));
                sums[r] = _mm_add_epi32(_mm256_castsi256_si128(half), _mm256_extracti128_si256(half, 1));
            }
            const __m256 dy = _mm256_set1_ps(act.d);
            const __m256 d = _mm256_mul_ps(halfPerRow<BlockQ4_K>(rows, b, offsetof(BlockQ4_K, d)), dy);
            const __m256 dmin = _mm256_mul_ps(halfPerRow<BlockQ4_K>(rows, b, offsetof(BlockQ4_K, dmin)), dy);
            accD = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sumRows(sums)), d, accD);
            accM = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sumRows(mins)), dmin, accM);
        }
        storeRows(s + sStride * static_cast<size_t>(t), _mm256_sub_ps(accD, accM), live);
    }
}

void gemv(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
          int64_t rows, int64_t tokens)
{
    const size_t ahead = prefetchDistance(wStride, kGroupRows);
    walkRowGroups<kGroupRows>(rows, tokens, w, wStride, a, aStride, s, sStride,
                              [&](const uint8_t* const* rp, int live, const uint8_t* at, int nt, float* out) {
                                  group(n / QK_K, rp, live, ahead, at, aStride, nt, out, sStride);
                              });
}

void dot(int64_t n, float* s, const void* w, const void* a)
{
    gemv(n, s, 0, w, 0, a, 0, 1, 1);
}

} // namespace

void registerAvx512VnniRepackedGemvKernels(KernelTable& t)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(GgmlType::Q4_K)];
    k.vecDotRepacked = dot;
    k.gemmRepacked = gemv;
}

#else

void registerAvx512VnniRepackedGemvKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
