// AVX2 kernels of llama.cpp's repacked order for Q4_0 and IQ4_NL (GEMV and
// GEMM alike, scalar/repack.cpp): per 32-block one exact integer Σ q·a, then
// acc = fma(f32(Σ), d(x)·d(y), acc) — one scalar chain per (row, token),
// kept here as one lane per row of a group of 8 (avx2/repacked_rows.h).
// Also IQ4_NL's vec_dot order, which takes blocks in pairs
// (scalar/legacy.cpp dotIQ4_NL).
//
// Integers: Q4_0 enters maddubs unsigned (q + 8) and 8 · Σ a is taken off
// again; IQ4_NL's table values are signed (|q| <= 127), so they use the
// sign trick. Pair sums stay below 2^15 either way.
#include "cpu/avx2/repacked_rows.h"
#include "cpu/kernels.h"
#include "quant/iq4.h"
#include "quant/legacy.h"

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

inline __m256i nibbleLo(__m256i raw)
{
    return _mm256_and_si256(raw, _mm256_set1_epi8(0x0f));
}

inline __m256i nibbleHi(__m256i raw)
{
    return _mm256_and_si256(_mm256_srli_epi16(raw, 4), _mm256_set1_epi8(0x0f));
}

inline __m256i iq4Table()
{
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kValuesIQ4NL)));
}

// A pair of rows decoded once per block: elements 0..15 (lo) and 16..31
// (hi) of row g and row 4 + g. dot() gives the 4 int32 partials per row of
// Σ q·a against one token's halves al (elements 0..15) and ah (16..31).
struct Q4_0 {
    using Block = BlockQ4_0;
    struct Pair {
        __m256i lo, hi;
    };
    static Pair decode(const Block& x0, const Block& x1)
    {
        const __m256i raw = loadPair(x0.qs, x1.qs);
        return {nibbleLo(raw), nibbleHi(raw)};
    }
    // 8 · (the activations' partial sums), taken off each pair's products.
    static __m256i prepare(__m256i al, __m256i ah)
    {
        const __m256i ones = _mm256_set1_epi8(1);
        const __m256i sums = _mm256_add_epi16(_mm256_maddubs_epi16(ones, al), _mm256_maddubs_epi16(ones, ah));
        return _mm256_madd_epi16(sums, _mm256_set1_epi16(8));
    }
    static __m256i dot(const Pair& p, __m256i al, __m256i ah, __m256i offset)
    {
        const __m256i prod = _mm256_add_epi16(_mm256_maddubs_epi16(p.lo, al), _mm256_maddubs_epi16(p.hi, ah));
        return _mm256_sub_epi32(_mm256_madd_epi16(prod, _mm256_set1_epi16(1)), offset);
    }
};

struct IQ4_NL {
    using Block = BlockIQ4_NL;
    struct Pair {
        __m256i lo, hi, absLo, absHi;
    };
    static Pair decode(const Block& x0, const Block& x1)
    {
        const __m256i table = iq4Table();
        const __m256i raw = loadPair(x0.qs, x1.qs);
        const __m256i lo = _mm256_shuffle_epi8(table, nibbleLo(raw));
        const __m256i hi = _mm256_shuffle_epi8(table, nibbleHi(raw));
        return {lo, hi, _mm256_sign_epi8(lo, lo), _mm256_sign_epi8(hi, hi)};
    }
    static __m256i prepare(__m256i, __m256i) { return _mm256_setzero_si256(); }
    static __m256i dot(const Pair& p, __m256i al, __m256i ah, __m256i)
    {
        const __m256i ones = _mm256_set1_epi16(1);
        const __m256i l = _mm256_madd_epi16(_mm256_maddubs_epi16(p.absLo, _mm256_sign_epi8(al, p.lo)), ones);
        const __m256i h = _mm256_madd_epi16(_mm256_maddubs_epi16(p.absHi, _mm256_sign_epi8(ah, p.hi)), ones);
        return _mm256_add_epi32(l, h);
    }
};

// One group of 8 rows against nt tokens (a: the first token's Q8_0 row).
template <class T>
void group32(int64_t nb, const uint8_t* const* rows, int live, size_t ahead, const uint8_t* a, size_t aStride, int nt,
             float* s, size_t sStride)
{
    using Block = typename T::Block;
    __m256 acc[kTokenGroup];
    for (int t = 0; t < nt; ++t)
        acc[t] = _mm256_setzero_ps();
    for (int64_t b = 0; b < nb; ++b) {
        typename T::Pair pairs[4];
        for (int g = 0; g < 4; ++g)
            pairs[g] =
                T::decode(reinterpret_cast<const Block*>(rows[g])[b], reinterpret_cast<const Block*>(rows[4 + g])[b]);
        if (b % 2 == 0) // 18-byte blocks: every other one touches each line
            prefetchGroup<Block>(rows, b, ahead);
        const __m256 dx = halfPerRow<Block>(rows, b, offsetof(Block, d));
        for (int t = 0; t < nt; ++t) {
            const BlockQ8_0& y = reinterpret_cast<const BlockQ8_0*>(a + aStride * static_cast<size_t>(t))[b];
            const __m256i al = broadcast16(y.qs);
            const __m256i ah = broadcast16(y.qs + 16);
            const __m256i offset = T::prepare(al, ah);
            __m256i z[4];
            for (int g = 0; g < 4; ++g)
                z[g] = T::dot(pairs[g], al, ah, offset);
            const __m256 d = _mm256_mul_ps(dx, _mm256_set1_ps(halfToFloat(y.d)));
            acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(reduceRows8(z)), d, acc[t]);
        }
    }
    for (int t = 0; t < nt; ++t)
        storeRows(s + sStride * static_cast<size_t>(t), acc[t], live);
}

template <class T>
void gemm32(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
            int64_t rows, int64_t tokens)
{
    const size_t ahead = prefetchDistance(wStride, kGroupRows);
    walkRowGroups<kGroupRows>(rows, tokens, w, wStride, a, aStride, s, sStride,
                              [&](const uint8_t* const* rp, int live, const uint8_t* at, int nt, float* out) {
                                  group32<T>(n / 32, rp, live, ahead, at, aStride, nt, out, sStride);
                              });
}

template <class T>
void dot32(int64_t n, float* s, const void* w, const void* a)
{
    gemm32<T>(n, s, 0, w, 0, a, 0, 1, 1);
}

// IQ4_NL's vec_dot: even blocks into one set of 8 float lanes, odd ones
// into another, added lane by lane before hsum_float_8; a last odd block as
// one integer, fused in after the reduction.
void dotIQ4_NL(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_NL*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    const int64_t nb = n / QK4_NL;
    const __m256i table = iq4Table();
    const auto lanes = [&](int64_t b) {
        const __m256i q = _mm256_shuffle_epi8(table, nibbles32(x[b].qs));
        return dotS8S8(q, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y[b].qs)));
    };
    __m256 acc[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int64_t b = 0; b < nb - nb % 2; ++b) {
        const __m256 d = _mm256_set1_ps(halfToFloat(y[b].d) * halfToFloat(x[b].d));
        acc[b % 2] = _mm256_fmadd_ps(d, _mm256_cvtepi32_ps(lanes(b)), acc[b % 2]);
    }
    float sum = hsum8(_mm256_add_ps(acc[0], acc[1]));
    if (nb % 2 != 0) {
        const int64_t b = nb - 1;
        const float d = halfToFloat(y[b].d) * halfToFloat(x[b].d);
        const __m128 r =
            _mm_fmadd_ss(_mm_set_ss(d), _mm_set_ss(static_cast<float>(hsumI32(lanes(b)))), _mm_set_ss(sum));
        sum = _mm_cvtss_f32(r);
    }
    *s = sum;
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    k.vecDotRepacked = dot32<T>;
    k.gemmRepacked = gemm32<T>;
}

} // namespace

void registerAvx2RepackedKernels(KernelTable& t)
{
    set<Q4_0>(t, GgmlType::Q4_0);
    set<IQ4_NL>(t, GgmlType::IQ4_NL);
    t.types[static_cast<uint32_t>(GgmlType::IQ4_NL)].vecDot = dotIQ4_NL;
}

#else

void registerAvx2RepackedKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
