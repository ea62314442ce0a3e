// AVX-512 (F/BW/VL/DQ) kernels for the K-quant formats Q2_K..Q6_K, 64
// elements per zmm. Exact like the AVX2 kernels: the integer sums of a
// super-block do not depend on the lane layout, and the float part is the
// scalar reference's term for term (finish()).
//
// Per format: prepare() decodes once per super-block and row what all its
// pieces share (scales as 16-bit lanes, the offset correction, the mins);
// quants(b, k) gives elements 64k..64k+63 as unsigned bytes; scales(p, k)
// the 16-bit scale of each pair of products of that piece. Signed quants
// are offset (Q3_K + 4, Q6_K + 32) and `corr` takes the offset's share out.
#include "quant/k_quants.h"
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

inline __m512i load64(const void* p)
{
    return _mm512_loadu_si512(p);
}

inline __m512i twice(const uint8_t* p)
{
    return _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

// Shift counts per 16-bit lane: `lo` for the low 256 bits, `hi` for the high.
inline __m512i shifts(int lo, int hi)
{
    return _mm512_inserti64x4(_mm512_set1_epi16(static_cast<short>(lo)), _mm256_set1_epi16(static_cast<short>(hi)), 1);
}

// Byte mask of bit `lo` in the low 256 bits and bit `hi` in the high ones.
inline __mmask64 bitSet(__m512i v, int lo, int hi)
{
    const __m512i sel = _mm512_inserti64x4(_mm512_set1_epi8(static_cast<char>(1 << lo)),
                                           _mm256_set1_epi8(static_cast<char>(1 << hi)), 1);
    return _mm512_test_epi8_mask(v, sel);
}

// permutexvar indices: piece k of a format with `per` pairs of products per
// sub-block takes lane i from sub-block k · (32 / per) + i / per.
struct SpreadIndex {
    alignas(64) int16_t idx[4][32];
    constexpr explicit SpreadIndex(int per) : idx{}
    {
        for (int k = 0; k < 4; ++k)
            for (int i = 0; i < 32; ++i)
                idx[k][i] = static_cast<int16_t>(k * (32 / per) + i / per);
    }
};
constexpr SpreadIndex kSpread8(8);   // 16-element sub-blocks
constexpr SpreadIndex kSpread16(16); // 32-element sub-blocks

// Lane i (of 32) = the 16-bit scale of the sub-block of pair i of piece k.
inline __m512i spreadScales(__m512i scales16, const SpreadIndex& index, int k)
{
    return _mm512_permutexvar_epi16(_mm512_load_si512(index.idx[k]), scales16);
}

// q4_K / q5_K: 8 six-bit scales and mins out of the 12 packed bytes.
inline void unpackK4(const uint8_t* packed, uint8_t* scales, uint8_t* mins)
{
    uint32_t u[3];
    std::memcpy(u, packed, 12);
    const uint32_t sc0 = u[0] & 0x3f3f3f3f;
    const uint32_t mn0 = u[1] & 0x3f3f3f3f;
    const uint32_t sc1 = (u[2] & 0x0f0f0f0f) | (((u[0] >> 6) & 0x03030303) << 4);
    const uint32_t mn1 = ((u[2] >> 4) & 0x0f0f0f0f) | (((u[1] >> 6) & 0x03030303) << 4);
    std::memcpy(scales, &sc0, 4);
    std::memcpy(scales + 4, &sc1, 4);
    std::memcpy(mins, &mn0, 4);
    std::memcpy(mins + 4, &mn1, 4);
}

inline __m256i bsumsOf(const BlockQ8_K& y)
{
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y.bsums));
}

// Formats with 16-element sub-blocks keep 16 int16 scales.
struct Scales16 {
    __m512i sc; // 16 int16 scales in the low 256 bits
};

struct Q2_K {
    using Block = BlockQ2_K;
    struct Prep {
        __m512i sc;   // 16 int16 scales in the low 256 bits
        __m256i mins; // 16 int16 mins
    };
    static void prepare(const Block& b, Prep& p)
    {
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
        p.sc = _mm512_castsi256_si512(_mm256_cvtepu8_epi16(_mm_and_si128(raw, _mm_set1_epi8(0x0f))));
        p.mins = _mm256_cvtepu8_epi16(_mm_srli_epi16(_mm_andnot_si128(_mm_set1_epi8(0x0f), raw), 4));
    }
    static __m512i quants(const Block& b, const Prep&, int k)
    {
        const __m512i raw = twice(b.qs + 32 * (k / 2));
        return _mm512_and_si512(_mm512_srlv_epi16(raw, shifts(4 * (k % 2), 4 * (k % 2) + 2)), _mm512_set1_epi8(3));
    }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread8, k); }
    // Σ m_j · bsums_j in lanes.
    static __m256i second(const Prep& p, const BlockQ8_K& y) { return _mm256_madd_epi16(p.mins, bsumsOf(y)); }
    static float finish(const Block& b, const BlockQ8_K& y, int isum, int summs)
    {
        const float dall = y.d * halfToFloat(b.d);
        const float dmin = y.d * halfToFloat(b.dmin);
        return dall * static_cast<float>(isum) - dmin * static_cast<float>(summs);
    }
};

struct Q3_K {
    using Block = BlockQ3_K;
    using Prep = Scales16;
    // Scale j: low 4 bits from nibble j / 8 of byte j % 8, high 2 bits from
    // bits 2(j / 4) of byte 8 + j % 4; four at a time per 32-bit word.
    static void prepare(const Block& b, Prep& p)
    {
        uint32_t u[3];
        std::memcpy(u, b.scales, 12);
        const uint32_t m4 = 0x0f0f0f0f, m2 = 0x03030303;
        const __m128i sc = _mm_set_epi32(static_cast<int>(((u[1] >> 4) & m4) | (((u[2] >> 6) & m2) << 4)),
                                         static_cast<int>(((u[0] >> 4) & m4) | (((u[2] >> 4) & m2) << 4)),
                                         static_cast<int>((u[1] & m4) | (((u[2] >> 2) & m2) << 4)),
                                         static_cast<int>((u[0] & m4) | ((u[2] & m2) << 4)));
        p.sc = _mm512_castsi256_si512(_mm256_cvtepi8_epi16(_mm_sub_epi8(sc, _mm_set1_epi8(32))));
    }
    // q + 4 = low bits + 4 · high bit.
    static __m512i quants(const Block& b, const Prep&, int k)
    {
        const __m512i raw = twice(b.qs + 32 * (k / 2));
        const __m512i low =
            _mm512_and_si512(_mm512_srlv_epi16(raw, shifts(4 * (k % 2), 4 * (k % 2) + 2)), _mm512_set1_epi8(3));
        const __mmask64 high = bitSet(twice(b.hmask), 2 * k, 2 * k + 1);
        return _mm512_mask_add_epi8(low, high, low, _mm512_set1_epi8(4));
    }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread8, k); }
    // Σ scale_j · bsums_j: the share of the offset 4.
    static __m256i second(const Prep& p, const BlockQ8_K& y)
    {
        return _mm256_madd_epi16(_mm512_castsi512_si256(p.sc), bsumsOf(y));
    }
    static float finish(const Block& b, const BlockQ8_K& y, int isum, int scaledBsums)
    {
        return halfToFloat(b.d) * y.d * static_cast<float>(isum - 4 * scaledBsums);
    }
};

struct Q4_K {
    using Block = BlockQ4_K;
    struct Prep {
        __m512i sc;   // 8 int16 scales
        __m256i mins; // 8 mins, each twice (against pairs of bsums)
    };
    static void prepare(const Block& b, Prep& p)
    {
        uint8_t sc[8], mn[8];
        unpackK4(b.scales, sc, mn);
        uint64_t packed;
        std::memcpy(&packed, sc, 8);
        p.sc = _mm512_castsi128_si512(_mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(packed))));
        std::memcpy(&packed, mn, 8);
        const __m128i m8 = _mm_cvtsi64_si128(static_cast<long long>(packed));
        p.mins = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(m8, m8));
    }
    static __m512i nibbles(const uint8_t* q)
    {
        const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
        const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(raw), _mm256_srli_epi16(raw, 4), 1);
        return _mm512_and_si512(both, _mm512_set1_epi8(0x0f));
    }
    static __m512i quants(const Block& b, const Prep&, int k) { return nibbles(b.qs + 32 * k); }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread16, k); }
    // Σ m_j · (bsums[2j] + bsums[2j+1]) in lanes.
    static __m256i second(const Prep& p, const BlockQ8_K& y) { return _mm256_madd_epi16(p.mins, bsumsOf(y)); }
    static float finishK4(uint16_t d, uint16_t dmin, const BlockQ8_K& y, int isum, int summ)
    {
        return halfToFloat(d) * y.d * static_cast<float>(isum) - halfToFloat(dmin) * y.d * static_cast<float>(summ);
    }
    static float finish(const Block& b, const BlockQ8_K& y, int isum, int summ)
    {
        return finishK4(b.d, b.dmin, y, isum, summ);
    }
};

struct Q5_K {
    using Block = BlockQ5_K;
    using Prep = Q4_K::Prep;
    static void prepare(const Block& b, Prep& p)
    {
        // The scale layout is q4_K's.
        Q4_K::prepare(reinterpret_cast<const BlockQ4_K&>(b), p);
    }
    static __m512i quants(const Block& b, const Prep&, int k)
    {
        const __m512i low = Q4_K::nibbles(b.qs + 32 * k);
        const __mmask64 high = bitSet(twice(b.qh), 2 * k, 2 * k + 1);
        return _mm512_mask_add_epi8(low, high, low, _mm512_set1_epi8(0x10));
    }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread16, k); }
    static __m256i second(const Prep& p, const BlockQ8_K& y) { return Q4_K::second(p, y); }
    static float finish(const Block& b, const BlockQ8_K& y, int isum, int summ)
    {
        return Q4_K::finishK4(b.d, b.dmin, y, isum, summ);
    }
};

struct Q6_K {
    using Block = BlockQ6_K;
    using Prep = Scales16;
    static void prepare(const Block& b, Prep& p)
    {
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
        p.sc = _mm512_castsi256_si512(_mm256_cvtepi8_epi16(raw));
    }
    // q + 32: piece k is quarters 2(k%2), 2(k%2)+1 of half k/2.
    static __m512i quants(const Block& b, const Prep&, int k)
    {
        const int h = k / 2, odd = k % 2;
        __m512i low = load64(b.ql + 64 * h);
        if (odd)
            low = _mm512_srli_epi16(low, 4);
        low = _mm512_and_si512(low, _mm512_set1_epi8(0x0f));
        const __m512i high = _mm512_and_si512(_mm512_srlv_epi16(twice(b.qh + 32 * h), shifts(4 * odd, 4 * odd + 2)),
                                              _mm512_set1_epi8(3));
        return _mm512_or_si512(low, _mm512_slli_epi16(high, 4));
    }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread8, k); }
    // Σ scale_j · bsums_j: the share of the offset 32.
    static __m256i second(const Prep& p, const BlockQ8_K& y)
    {
        return _mm256_madd_epi16(_mm512_castsi512_si256(p.sc), bsumsOf(y));
    }
    static float finish(const Block& b, const BlockQ8_K& y, int isum, int scaledBsums)
    {
        return halfToFloat(b.d) * y.d * static_cast<float>(isum - 32 * scaledBsums);
    }
};

inline __m256i fold(__m512i v)
{
    return _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
}

// The lane sums of eight vectors, in order.
inline __m256i sumsOf8(const __m256i* v)
{
    const __m256i ab = _mm256_hadd_epi32(_mm256_hadd_epi32(v[0], v[1]), _mm256_hadd_epi32(v[2], v[3]));
    const __m256i cd = _mm256_hadd_epi32(_mm256_hadd_epi32(v[4], v[5]), _mm256_hadd_epi32(v[6], v[7]));
    return _mm256_add_epi32(_mm256_permute2x128_si256(ab, cd, 0x20), _mm256_permute2x128_si256(ab, cd, 0x31));
}

// Sums of n vectors (n a multiple of 8, or n < 8 with the rest zero).
template <int N>
void sumsOf(const __m256i* v, int32_t* out)
{
    for (int i = 0; i < N; i += 8) {
        __m256i group[8];
        for (int j = 0; j < 8; ++j)
            group[j] = i + j < N ? v[i + j] : _mm256_setzero_si256();
        alignas(32) int32_t sums[8];
        _mm256_store_si256(reinterpret_cast<__m256i*>(sums), sumsOf8(group));
        for (int j = 0; j < 8 && i + j < N; ++j)
            out[i + j] = sums[j];
    }
}

template <class T>
const typename T::Block& blockAt(const uint8_t* w, size_t stride, int r, int64_t b)
{
    return reinterpret_cast<const typename T::Block*>(w + stride * static_cast<size_t>(r))[b];
}

inline const BlockQ8_K& tokenAt(const uint8_t* a, size_t stride, int c, int64_t b)
{
    return reinterpret_cast<const BlockQ8_K*>(a + stride * static_cast<size_t>(c))[b];
}

template <class T, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    float sum[R][C] = {};
    const size_t ahead = prefetchDistance(wStride, R);
    for (int64_t b = 0; b < nb; ++b) {
        typename T::Prep prep[R];
        for (int r = 0; r < R; ++r) {
            prefetchLines(reinterpret_cast<const char*>(&blockAt<T>(w, wStride, r, b)) + ahead,
                          sizeof(typename T::Block));
            T::prepare(blockAt<T>(w, wStride, r, b), prep[r]);
        }
        __m512i isum[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                isum[r][c] = _mm512_setzero_si512();
        for (int k = 0; k < QK_K / 64; ++k) {
            __m512i q[R], sc[R];
            for (int r = 0; r < R; ++r) {
                q[r] = T::quants(blockAt<T>(w, wStride, r, b), prep[r], k);
                sc[r] = T::scales(prep[r], k);
            }
            for (int c = 0; c < C; ++c) {
                const __m512i y = load64(tokenAt(a, aStride, c, b).qs + 64 * k);
                for (int r = 0; r < R; ++r) {
                    const __m512i p = _mm512_madd_epi16(_mm512_maddubs_epi16(q[r], y), sc[r]);
                    isum[r][c] = _mm512_add_epi32(isum[r][c], p);
                }
            }
        }
        // Both integer sums of every output, reduced together.
        __m256i lanes[2 * R * C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c) {
                lanes[r * C + c] = fold(isum[r][c]);
                lanes[R * C + r * C + c] = T::second(prep[r], tokenAt(a, aStride, c, b));
            }
        int32_t sums[2 * R * C];
        sumsOf<2 * R * C>(lanes, sums);
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                sum[r][c] += T::finish(blockAt<T>(w, wStride, r, b), tokenAt(a, aStride, c, b), sums[r * C + c],
                                       sums[R * C + r * C + c]);
    }
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            s[sStride * static_cast<size_t>(c) + static_cast<size_t>(r)] = sum[r][c];
}

template <class T>
void vecDot(int64_t n, float* s, const void* w, const void* a)
{
    tile<T, 1, 1>(n / QK_K, s, 0, static_cast<const uint8_t*>(w), 0, static_cast<const uint8_t*>(a), 0);
}

// Tiles of R rows × C tokens: 4 × 4 for batches, 4 rows for one token.
template <class T>
void gemm(int64_t n, float* s, size_t sStride, const void* wv, size_t wStride, const void* av, size_t aStride,
          int64_t rows, int64_t tokens)
{
    constexpr int R = 4, C = 4;
    const int64_t nb = n / QK_K;
    const auto* w = static_cast<const uint8_t*>(wv);
    const auto* a = static_cast<const uint8_t*>(av);
    const auto run = [&](int64_t r, int64_t t, auto fn) {
        fn(nb, s + sStride * static_cast<size_t>(t) + static_cast<size_t>(r), sStride, w + wStride * r, wStride,
           a + aStride * t, aStride);
    };
    int64_t r = 0;
    for (; r + R <= rows; r += R) {
        int64_t t = 0;
        for (; t + C <= tokens; t += C)
            run(r, t, tile<T, R, C>);
        for (; t < tokens; ++t)
            run(r, t, tile<T, R, 1>);
    }
    for (; r < rows; ++r) {
        int64_t t = 0;
        for (; t + C <= tokens; t += C)
            run(r, t, tile<T, 1, C>);
        for (; t < tokens; ++t)
            run(r, t, tile<T, 1, 1>);
    }
}

// Activations to Q8_K exactly as the reference (quantizeRowQ8_K): the
// value of largest magnitude (its first occurrence) maps to -127, quants
// rounded half to even and capped at 127, sums of 16.
void quantizeQ8_K(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<BlockQ8_K*>(yv);
    const __m512 signBit = _mm512_set1_ps(-0.0f);
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        __m512 amax = _mm512_setzero_ps();
        for (int k = 0; k < 16; ++k) // max_ps(|x|, acc) keeps acc where |x| is NaN, like the reference
            amax = _mm512_max_ps(_mm512_andnot_ps(signBit, _mm512_loadu_ps(x + 16 * k)), amax);
        const float m = _mm512_reduce_max_ps(amax);
        BlockQ8_K& out = y[i];
        if (m == 0.0f) {
            std::memset(&out, 0, sizeof out);
            continue;
        }
        float max = 0.0f;
        for (int k = 0; k < 16; ++k) {
            const __m512 v = _mm512_loadu_ps(x + 16 * k);
            const __mmask16 hit = _mm512_cmp_ps_mask(_mm512_andnot_ps(signBit, v), _mm512_set1_ps(m), _CMP_EQ_OQ);
            if (hit) {
                int j = 0;
                while (!((hit >> j) & 1))
                    ++j;
                max = x[16 * k + j];
                break;
            }
        }
        const float iscale = -127.0f / max;
        const __m512 scale = _mm512_set1_ps(iscale);
        for (int k = 0; k < 16; ++k) {
            const __m512i q = _mm512_min_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(scale, _mm512_loadu_ps(x + 16 * k))),
                                               _mm512_set1_epi32(127));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out.qs + 16 * k), _mm512_cvtepi32_epi8(q));
            out.bsums[k] = static_cast<int16_t>(_mm512_reduce_add_epi32(q));
        }
        out.d = 1.0f / iscale;
    }
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    // These kernels sum in the order of the reference before it followed
    // ggml's vec_dot, tiled and repacked orders (scalar/k_quants.cpp,
    // tiled.cpp, repack.cpp): until they do again, the reference's entries
    // stay in the table.
    (void)t;
    (void)type;
    (void)vecDot<T>;
    (void)gemm<T>;
}

} // namespace

void registerAvx512KQuantKernels(KernelTable& t)
{
    set<Q2_K>(t, GgmlType::Q2_K);
    set<Q3_K>(t, GgmlType::Q3_K);
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q5_K>(t, GgmlType::Q5_K);
    set<Q6_K>(t, GgmlType::Q6_K);
    t.types[static_cast<uint32_t>(GgmlType::Q8_K)].fromFloat = quantizeQ8_K;
}

#else

void registerAvx512KQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
