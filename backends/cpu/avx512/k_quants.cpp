// AVX-512 (F/BW/VL/DQ) kernels for the K-quant formats Q2_K..Q6_K and
// IQ4_XS, 64 elements per zmm, in both of the reference's orders (vec_dot,
// tiled) like the AVX2 kernels: the 16 int32 lanes of a super-block are
// folded exactly into the reference's eight (lane i and i + 8 hold the same
// positions of two chunks of 32) and the float steps are
// avx2/k_quants_orders.h's.
//
// Per format: prepare() decodes once per super-block and row what all its
// pieces share (scales as 16-bit lanes, the mins); quants(b, k) gives
// elements 64k..64k+63 as bytes (unsigned; Q3_K offset by 4, IQ4_XS
// signed); scales(p, k) the 16-bit scale of each pair of products of that
// piece.
#include "quant/k_quants.h"
#include "cpu/avx2/k_quants_orders.h"
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"
#include "quant/iq4.h"

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

// Formats with 16-element sub-blocks keep 16 int16 scales.
struct Scales16 {
    __m512i sc; // 16 int16 scales in the low 256 bits
};

struct Q2_K : Format {
    using Block = BlockQ2_K;
    static constexpr Mins kMins = Mins::Lanes;
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
    static __m256i minLanes(const Prep& p, const BlockQ8_K& y) { return _mm256_madd_epi16(p.mins, bsumsOf(y)); }
};

struct Q3_K : Format {
    using Block = BlockQ3_K;
    static constexpr int kOffset = 4;
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
};

struct Q4_K : Format {
    using Block = BlockQ4_K;
    static constexpr Mins kMins = Mins::Quad;
    struct Prep {
        __m512i sc;   // 8 int16 scales
        __m256i mins; // 8 mins, each twice (against pairs of bsums)
    };
    // The 12 packed bytes of scales and mins (Q5_K's are laid out alike).
    static void prepareScales(const uint8_t* packed, Prep& p)
    {
        uint64_t sc, mn;
        unpackScalesMinsK4(packed, sc, mn);
        p.sc = _mm512_castsi128_si512(_mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(sc))));
        const __m128i m8 = _mm_cvtsi64_si128(static_cast<long long>(mn));
        p.mins = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(m8, m8));
    }
    static void prepare(const Block& b, Prep& p) { prepareScales(b.scales, p); }
    static __m512i nibbles(const uint8_t* q)
    {
        const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
        const __m512i both = _mm512_inserti64x4(_mm512_castsi256_si512(raw), _mm256_srli_epi16(raw, 4), 1);
        return _mm512_and_si512(both, _mm512_set1_epi8(0x0f));
    }
    static __m512i quants(const Block& b, const Prep&, int k) { return nibbles(b.qs + 32 * k); }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread16, k); }
    // Lane m = Σ_{j = 2m, 2m+1} m_j · (bsums[2j] + bsums[2j+1]).
    static __m128i minQuad(const Prep& p, const BlockQ8_K& y)
    {
        const __m256i perMin = _mm256_madd_epi16(p.mins, bsumsOf(y));
        return _mm_hadd_epi32(_mm256_castsi256_si128(perMin), _mm256_extracti128_si256(perMin, 1));
    }
};

struct Q5_K : Format {
    using Block = BlockQ5_K;
    static constexpr Mins kMins = Mins::Sum;
    using Prep = Q4_K::Prep;
    static void prepare(const Block& b, Prep& p) { Q4_K::prepareScales(b.scales, p); }
    static __m512i quants(const Block& b, const Prep&, int k)
    {
        const __m512i low = Q4_K::nibbles(b.qs + 32 * k);
        const __mmask64 high = bitSet(twice(b.qh), 2 * k, 2 * k + 1);
        return _mm512_mask_add_epi8(low, high, low, _mm512_set1_epi8(0x10));
    }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread16, k); }
    static __m128i minQuad(const Prep& p, const BlockQ8_K& y) { return Q4_K::minQuad(p, y); }
};

struct Q6_K : Format {
    using Block = BlockQ6_K;
    static constexpr int kBias = 32;
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
    static __m256i biasLanes(const Prep& p, const BlockQ8_K& y)
    {
        return _mm256_slli_epi32(_mm256_madd_epi16(_mm512_castsi512_si256(p.sc), bsumsOf(y)), 5);
    }
};

// IQ4_XS: signed non-linear values, one scale per sub-block of 32.
struct IQ4_XS : Format {
    using Block = BlockIQ4_XS;
    static constexpr bool kSigned = true;
    using Prep = Scales16;
    static void prepare(const Block& b, Prep& p) { p.sc = _mm512_castsi128_si512(iq4xsScales(b)); }
    // Sub-blocks 2k and 2k + 1: each 16 bytes of nibbles, low then high.
    static __m512i quants(const Block& b, const Prep&, int k)
    {
        const __m512i table = _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kValuesIQ4NL)));
        const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs + 32 * k));
        const __m256i lo = _mm256_and_si256(raw, _mm256_set1_epi8(0x0f));
        const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), _mm256_set1_epi8(0x0f));
        // raw: sub-block 2k in bytes 0-15, 2k + 1 in 16-31 → element order
        const __m256i first = _mm256_permute2x128_si256(lo, hi, 0x20);
        const __m256i second = _mm256_permute2x128_si256(lo, hi, 0x31);
        const __m512i idx = _mm512_inserti64x4(_mm512_castsi256_si512(first), second, 1);
        return _mm512_shuffle_epi8(table, idx);
    }
    static __m512i scales(const Prep& p, int k) { return spreadScales(p.sc, kSpread16, k); }
};

inline __m256i fold(__m512i v)
{
    return _mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
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

// Piece k's 16-bit pair sums of q·y for one weight row (qa = |q| where
// kSigned) and one token (corr = maddubs(kOffset, y) where kOffset).
template <class T>
inline __m512i pairSums(__m512i q, __m512i qa, __m512i y, __m512i corr)
{
    if constexpr (T::kSigned) {
        const __m512i ys = _mm512_mask_sub_epi8(y, _mm512_movepi8_mask(q), _mm512_setzero_si512(), y);
        return _mm512_maddubs_epi16(qa, ys);
    } else if constexpr (T::kOffset != 0) {
        return _mm512_sub_epi16(_mm512_maddubs_epi16(q, y), corr);
    } else {
        return _mm512_maddubs_epi16(q, y);
    }
}

template <class T, class O, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    typename O::Acc acc[R][C] = {};
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
            __m512i q[R], qa[R], sc[R];
            for (int r = 0; r < R; ++r) {
                q[r] = T::quants(blockAt<T>(w, wStride, r, b), prep[r], k);
                qa[r] = T::kSigned ? _mm512_abs_epi8(q[r]) : q[r];
                sc[r] = T::scales(prep[r], k);
            }
            for (int c = 0; c < C; ++c) {
                const __m512i y = load64(tokenAt(a, aStride, c, b).qs + 64 * k);
                const __m512i corr = T::kOffset != 0
                                         ? _mm512_maddubs_epi16(_mm512_set1_epi8(static_cast<char>(T::kOffset)), y)
                                         : _mm512_setzero_si512();
                for (int r = 0; r < R; ++r) {
                    const __m512i p = _mm512_madd_epi16(pairSums<T>(q[r], qa[r], y, corr), sc[r]);
                    isum[r][c] = _mm512_add_epi32(isum[r][c], p);
                }
            }
        }
        const typename T::Block* xs[R];
        const BlockQ8_K* ys[C];
        for (int r = 0; r < R; ++r)
            xs[r] = &blockAt<T>(w, wStride, r, b);
        for (int c = 0; c < C; ++c)
            ys[c] = &tokenAt(a, aStride, c, b);
        __m256i lanes[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                lanes[r][c] = fold(isum[r][c]);
        O::template addAll<T, R, C>(acc, xs, prep, ys, lanes);
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) { return O::template result<T>(acc[r][c]); });
}

// Tiles of 4 rows × 4 tokens for batches; one token takes its rows one at
// a time, which streams them from memory fastest (Q6_K rows of the
// 1B-shaped model: 52 GB/s against 44 with tiles of two rows, the same in
// cache).
template <class T, class O>
struct Tiles : TileShape<QK_K, 4, 4, 1> {
    template <int R, int C>
    static constexpr auto tile = &cpu::tile<T, O, R, C>;
};

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
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    setTiles<Tiles<T, VecOrder>>(k, &TypeKernels::vecDot, &TypeKernels::gemm);
    setTiles<Tiles<T, TiledOrder>>(k, &TypeKernels::vecDotTiled, &TypeKernels::gemmTiled);
}

} // namespace

void registerAvx512KQuantKernels(KernelTable& t)
{
    set<Q2_K>(t, GgmlType::Q2_K);
    set<Q3_K>(t, GgmlType::Q3_K);
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q5_K>(t, GgmlType::Q5_K);
    set<Q6_K>(t, GgmlType::Q6_K);
    set<IQ4_XS>(t, GgmlType::IQ4_XS);
    t.types[static_cast<uint32_t>(GgmlType::Q8_K)].fromFloat = quantizeQ8_K;
}

#else

void registerAvx512KQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
