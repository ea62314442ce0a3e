// AVX2 kernels of llama.cpp's repacked orders for Q4_K and Q2_K
// (scalar/repack.cpp): per chunk of a super-block (all 256 elements in the
// GEMV order; 64 for Q4_K's GEMM, 128 for Q2_K's) one exact integer
// Σ scale·q·a and one Σ min·bsum, then
//   accD = fma(f32(Σ), d(x)·y.d, accD), accM = fma(f32(Σmin), dmin(x)·y.d, accM)
// and the result accD − accM: one scalar chain per (row, token), here one
// lane per row of a group of 8 (avx2/repacked_rows.h).
//
// A group's super-block is decoded once for all the tokens of the call: 16
// pieces of 16 quants per row (unsigned), the int16 scale of each piece's
// sub-block broadcast per row half, and the mins. A piece's products go
// through maddubs (|pair| <= 2·15·128) and madd with its scale, so the
// integers are exact.
#include "cpu/avx2/repacked_rows.h"
#include "cpu/kernels.h"
#include "quant/k_quants.h"

#include <cstddef>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

constexpr int kPieces = 16;

// Super-block b of a group of 8 rows, decoded; index g is the row pair
// (g, 4 + g).
struct Group {
    __m256i q[4][kPieces];  // quants of each piece, 16 per row half
    __m256i sc[4][kPieces]; // int16 scale of the piece's sub-block (F::scaleOf)
    __m256i mn[4][2];       // int16 mins (layout per format)
    __m256 d, dmin;         // f16 factors per row
};

// Word j of each 128-bit half of v in all its 8 words.
inline __m256i broadcastWord(__m256i v, int j)
{
    return _mm256_shuffle_epi8(v, _mm256_set1_epi16(static_cast<int16_t>(0x0100 + 0x0202 * j)));
}

inline __m256i wordsOf8(const uint8_t* p8)
{
    return _mm256_castsi128_si256(_mm_cvtepu8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p8))));
}

// Q4_K: piece k is nibble half k % 2 of bytes 16·(k / 2) .. + 15, i.e.
// elements 64p + 32·(k % 2) + 16·((k / 2) % 2) + 0..15 with p = k / 4,
// sub-block 2p + k % 2. Mins: mn[g][0] = the 8 mins per row half, whose
// madd with the 32-sums of the activations gives chunk p's Σ in lane p.
struct Q4_K {
    using Block = BlockQ4_K;
    static constexpr int kChunks = 4; // of the GEMM order
    static constexpr int base(int k) { return 64 * (k / 4) + 32 * (k % 2) + 16 * ((k / 2) % 2); }
    static constexpr int scaleOf(int k) { return 2 * (k / 4) + k % 2; }
    static void decode(const Block& x0, const Block& x1, Group& out, int g)
    {
        for (int raw = 0; raw < 8; ++raw) {
            const __m256i r = loadPair(x0.qs + 16 * raw, x1.qs + 16 * raw);
            out.q[g][2 * raw] = _mm256_and_si256(r, _mm256_set1_epi8(0x0f));
            out.q[g][2 * raw + 1] = _mm256_and_si256(_mm256_srli_epi16(r, 4), _mm256_set1_epi8(0x0f));
        }
        alignas(8) uint8_t sc[2][8], mn[2][8];
        unpackScalesMinsK4(x0.scales, sc[0], mn[0]);
        unpackScalesMinsK4(x1.scales, sc[1], mn[1]);
        const __m256i scPair = _mm256_inserti128_si256(wordsOf8(sc[0]), _mm256_castsi256_si128(wordsOf8(sc[1])), 1);
        for (int j = 0; j < 8; ++j)
            out.sc[g][j] = broadcastWord(scPair, j);
        out.mn[g][0] = _mm256_inserti128_si256(wordsOf8(mn[0]), _mm256_castsi256_si128(wordsOf8(mn[1])), 1);
    }
    // m[g]: lane c (per half) = Σ min·bsum of chunk c of 64.
    static void minPartials(const Group& x, const BlockQ8_K& y, __m256i* m)
    {
        const __m128i b32 = _mm_hadd_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(y.bsums)),
                                           _mm_loadu_si128(reinterpret_cast<const __m128i*>(y.bsums + 8)));
        const __m256i b = _mm256_broadcastsi128_si256(b32);
        for (int g = 0; g < 4; ++g)
            m[g] = _mm256_madd_epi16(x.mn[g][0], b);
    }
    template <int NC>
    static void mins(const Group& x, const BlockQ8_K& y, __m256i* out)
    {
        __m256i m[4];
        minPartials(x, y, m);
        if constexpr (NC == 1)
            out[0] = reduceRows8(m);
        else
            transposeRows8(m, out);
    }
};

// Q2_K: piece k = 4·raw + s holds bit pair s of bytes 16·raw .. + 15, i.e.
// elements 128h + 32s + 16u + 0..15 with h = raw / 2, u = raw % 2, group
// 8h + 2s + u. Mins: mn[g][h] = the mins of groups 8h .. 8h + 7.
struct Q2_K {
    using Block = BlockQ2_K;
    static constexpr int kChunks = 2;
    static constexpr int base(int k) { return 128 * (k / 8) + 32 * (k % 4) + 16 * ((k / 4) % 2); }
    static constexpr int scaleOf(int k) { return 8 * (k / 8) + 2 * (k % 4) + (k / 4) % 2; }
    static void decode(const Block& x0, const Block& x1, Group& out, int g)
    {
        for (int raw = 0; raw < 4; ++raw) {
            const __m256i r = loadPair(x0.qs + 16 * raw, x1.qs + 16 * raw);
            for (int s = 0; s < 4; ++s)
                out.q[g][4 * raw + s] = _mm256_and_si256(_mm256_srli_epi16(r, 2 * s), _mm256_set1_epi8(3));
        }
        const __m256i raw = loadPair(x0.scales, x1.scales);
        const __m256i sc = _mm256_and_si256(raw, _mm256_set1_epi8(0x0f));
        const __m256i mn = _mm256_and_si256(_mm256_srli_epi16(raw, 4), _mm256_set1_epi8(0x0f));
        // Bytes → int16, groups 0..7 of both rows, then groups 8..15.
        const __m256i zero = _mm256_setzero_si256();
        const __m256i scLo = _mm256_unpacklo_epi8(sc, zero), scHi = _mm256_unpackhi_epi8(sc, zero);
        for (int j = 0; j < 8; ++j) {
            out.sc[g][j] = broadcastWord(scLo, j);
            out.sc[g][8 + j] = broadcastWord(scHi, j);
        }
        out.mn[g][0] = _mm256_unpacklo_epi8(mn, zero);
        out.mn[g][1] = _mm256_unpackhi_epi8(mn, zero);
    }
    template <int NC>
    static void mins(const Group& x, const BlockQ8_K& y, __m256i* out)
    {
        const __m256i lo = broadcast16(y.bsums), hi = broadcast16(y.bsums + 8);
        __m256i m0[4], m1[4];
        for (int g = 0; g < 4; ++g) {
            m0[g] = _mm256_madd_epi16(x.mn[g][0], lo);
            m1[g] = _mm256_madd_epi16(x.mn[g][1], hi);
        }
        if constexpr (NC == 1) {
            for (int g = 0; g < 4; ++g)
                m0[g] = _mm256_add_epi32(m0[g], m1[g]);
            out[0] = reduceRows8(m0);
        } else {
            out[0] = reduceRows8(m0);
            out[1] = reduceRows8(m1);
        }
    }
};

// Σ scale·q·a of chunk c (NC chunks per super-block) for the 8 rows.
template <class F, int NC>
inline __m256i chunkSum(const Group& x, const BlockQ8_K& y, int c)
{
    constexpr int per = kPieces / NC;
    __m256i z[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    for (int k = per * c; k < per * (c + 1); ++k) {
        const __m256i a = broadcast16(y.qs + F::base(k));
        for (int g = 0; g < 4; ++g) {
            const __m256i prod = _mm256_maddubs_epi16(x.q[g][k], a);
            z[g] = _mm256_add_epi32(z[g], _mm256_madd_epi16(prod, x.sc[g][F::scaleOf(k)]));
        }
    }
    return reduceRows8(z);
}

template <class F, int NC>
void groupK(int64_t nb, const uint8_t* const* rows, int live, size_t ahead, const uint8_t* a, size_t aStride, int nt,
            float* s, size_t sStride)
{
    using Block = typename F::Block;
    __m256 accD[kTokenGroup], accM[kTokenGroup];
    for (int t = 0; t < nt; ++t)
        accD[t] = accM[t] = _mm256_setzero_ps();
    Group x;
    for (int64_t b = 0; b < nb; ++b) {
        for (int g = 0; g < 4; ++g)
            F::decode(reinterpret_cast<const Block*>(rows[g])[b], reinterpret_cast<const Block*>(rows[4 + g])[b], x, g);
        prefetchGroup<Block>(rows, b, ahead);
        x.d = halfPerRow<Block>(rows, b, offsetof(Block, d));
        x.dmin = halfPerRow<Block>(rows, b, offsetof(Block, dmin));
        for (int t = 0; t < nt; ++t) {
            const BlockQ8_K& y = reinterpret_cast<const BlockQ8_K*>(a + aStride * static_cast<size_t>(t))[b];
            const __m256 dy = _mm256_set1_ps(y.d);
            const __m256 d = _mm256_mul_ps(x.d, dy), dmin = _mm256_mul_ps(x.dmin, dy);
            __m256i m[NC];
            F::template mins<NC>(x, y, m);
            for (int c = 0; c < NC; ++c) {
                accD[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(chunkSum<F, NC>(x, y, c)), d, accD[t]);
                accM[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(m[c]), dmin, accM[t]);
            }
        }
    }
    for (int t = 0; t < nt; ++t)
        storeRows(s + sStride * static_cast<size_t>(t), _mm256_sub_ps(accD[t], accM[t]), live);
}

template <class F, int NC>
void gemmK(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
           int64_t rows, int64_t tokens)
{
    const size_t ahead = prefetchDistance(wStride, kGroupRows);
    walkRowGroups<kGroupRows>(rows, tokens, w, wStride, a, aStride, s, sStride,
                              [&](const uint8_t* const* rp, int live, const uint8_t* at, int nt, float* out) {
                                  groupK<F, NC>(n / QK_K, rp, live, ahead, at, aStride, nt, out, sStride);
                              });
}

template <class F, int NC>
void dotK(int64_t n, float* s, const void* w, const void* a)
{
    gemmK<F, NC>(n, s, 0, w, 0, a, 0, 1, 1);
}

template <class F>
void set(KernelTable& t, GgmlType type)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    k.vecDotRepacked = dotK<F, 1>;
    k.gemmRepacked = gemmK<F, 1>;
    k.vecDotRepackedGemm = dotK<F, F::kChunks>;
    k.gemmRepackedGemm = gemmK<F, F::kChunks>;
}

} // namespace

void registerAvx2RepackedKQuantKernels(KernelTable& t)
{
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q2_K>(t, GgmlType::Q2_K);
}

#else

void registerAvx2RepackedKQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
