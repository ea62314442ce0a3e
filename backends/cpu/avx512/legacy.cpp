// AVX-512 (F/BW/VL/DQ) kernels for the 32-element block formats (Q4_0,
// Q4_1, Q5_0, Q5_1, Q8_0, IQ4_NL); avx512/legacy_vnni.cpp compiles this
// file again with VNNI (vpdpbusd) for CPUs that have it.
//
// Exact like avx2/legacy.cpp: a zmm register holds the 8-lane accumulators
// of two weight rows side by side (row r in the low half, row r + 1 in the
// high half), each half updated with one fused multiply-add per block in
// the scalar reference's order and reduced like ggml's hsum_float_8. The
// integer lanes are the products of four consecutive elements; signed
// weights are made unsigned by an offset (Q4_0 +8, Q5_0 +16, Q8_0 and
// IQ4_NL +128 with VNNI) that is taken out again with the activations' lane
// sums, or use the sign trick without VNNI (maddubs would saturate).
#include "quant/legacy.h"
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"
#include "quant/iq4.h"

#ifndef HEARTH_AVX512_VNNI
#define HEARTH_AVX512_VNNI 0
#endif

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

constexpr bool kVnni = HEARTH_AVX512_VNNI != 0;

// Two 256-bit halves into one zmm.
inline __m512i join(__m256i lo, __m256i hi)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

// Lane l of each half = Σ of 4 consecutive u8 × s8 products.
inline __m512i dotU8S8(__m512i u, __m512i s, __m512i init)
{
#if HEARTH_AVX512_VNNI
    return _mm512_dpbusd_epi32(init, u, s);
#else
    const __m512i p = _mm512_madd_epi16(_mm512_maddubs_epi16(u, s), _mm512_set1_epi16(1));
    return _mm512_add_epi32(p, init);
#endif
}

// Signed × signed with |x| <= 128 on the weight side, |y| <= 127.
inline __m512i dotS8S8(__m512i x, __m512i y)
{
    const __mmask64 negative = _mm512_movepi8_mask(x);
    const __m512i sy = _mm512_mask_sub_epi8(y, negative, _mm512_setzero_si512(), y);
    return dotU8S8(_mm512_abs_epi8(x), sy, _mm512_setzero_si512());
}

// Per format: quants() as in avx2/legacy.cpp; kOffset is what makes the
// weights unsigned (0: already unsigned; negative: use the sign trick).
struct Q4_0 {
    using Block = BlockQ4_0;
    using Partner = BlockQ8_0;
    static constexpr int kOffset = 8;
    static constexpr bool kMin = false;
    static __m256i quants(const Block& b) { return nibbles32(b.qs); }
};

struct Q4_1 {
    using Block = BlockQ4_1;
    using Partner = BlockQ8_1;
    static constexpr int kOffset = 0;
    static constexpr bool kMin = true;
    static __m256i quants(const Block& b) { return nibbles32(b.qs); }
};

struct Q5_0 {
    using Block = BlockQ5_0;
    using Partner = BlockQ8_0;
    static constexpr int kOffset = 16;
    static constexpr bool kMin = false;
    static __m256i quants(const Block& b) { return _mm256_or_si256(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10)); }
};

struct Q5_1 {
    using Block = BlockQ5_1;
    using Partner = BlockQ8_1;
    static constexpr int kOffset = 0;
    static constexpr bool kMin = true;
    static __m256i quants(const Block& b) { return _mm256_or_si256(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10)); }
};

// Signed 8-bit weights: +128 with VNNI (no saturation there), else signs.
struct Q8_0 {
    using Block = BlockQ8_0;
    using Partner = BlockQ8_0;
    static constexpr int kOffset = kVnni ? 128 : -1;
    static constexpr bool kMin = false;
    static __m256i quants(const Block& b)
    {
        const __m256i q = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs));
        return kVnni ? _mm256_xor_si256(q, _mm256_set1_epi8(static_cast<char>(0x80))) : q;
    }
};

struct IQ4_NL {
    using Block = BlockIQ4_NL;
    using Partner = BlockQ8_0;
    static constexpr int kOffset = kVnni ? 128 : -1;
    static constexpr bool kMin = false;
    static __m256i quants(const Block& b)
    {
        const __m128i table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kValuesIQ4NL));
        const __m256i q = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(table), nibbles32(b.qs));
        return kVnni ? _mm256_xor_si256(q, _mm256_set1_epi8(static_cast<char>(0x80))) : q;
    }
};

template <class T>
const typename T::Block& blockAt(const uint8_t* w, size_t stride, int64_t r, int64_t b)
{
    return reinterpret_cast<const typename T::Block*>(w + stride * static_cast<size_t>(r))[b];
}

template <class T>
const typename T::Partner& partnerAt(const uint8_t* a, size_t stride, int64_t c, int64_t b)
{
    return reinterpret_cast<const typename T::Partner*>(a + stride * static_cast<size_t>(c))[b];
}

// -offset · (lane sums of y): the initial value that makes Σ (q + off)·y
// come out as Σ q·y.
constexpr int log2Of(int v)
{
    return v <= 1 ? 0 : 1 + log2Of(v / 2);
}

template <class T>
inline __m512i offsetInit(__m512i y)
{
    if constexpr (T::kOffset <= 0) {
        return _mm512_setzero_si512();
    } else {
        static_assert((T::kOffset & (T::kOffset - 1)) == 0, "offsets are powers of two");
        const __m512i sums = dotU8S8(_mm512_set1_epi8(1), y, _mm512_setzero_si512());
        return _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_slli_epi32(sums, log2Of(T::kOffset)));
    }
}

// The first two f16 of a block, as bits: d and, for the _1 formats, m
// (partners: d and s). Other formats give a meaningless second value that
// is never used.
template <class B>
inline uint32_t headOf(const B& b)
{
    uint32_t v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

// [dx_lo ×8 | dx_hi ×8] of a row pair's [dx_lo, dx_hi] (low lanes of dmx).
inline __m512 spreadPair(__m128 dmx)
{
    const __m512i spread = _mm512_set_epi32(2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0);
    return _mm512_permutexvar_ps(spread, _mm512_castps128_ps512(dmx));
}

// One token's partner block, ready to multiply with row pairs.
struct TokenBlock {
    __m512i yq;   // its 32 quants in both halves
    __m128 dmy;   // [dy, sy] (sy: the _1 formats)
    __m512 dy;    // dy in every lane
    __m512i init; // offsetInit
};

template <class T>
inline TokenBlock tokenBlock(const typename T::Partner& y)
{
    TokenBlock t;
    t.yq = _mm512_broadcast_i64x4(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(y.qs)));
    t.dmy = _mm_cvtph_ps(_mm_set1_epi32(static_cast<int>(headOf(y))));
    t.dy = _mm512_set1_ps(halfToFloat(y.d));
    t.init = offsetInit<T>(t.yq);
    return t;
}

// One block of a row pair (quants xq, [dx, mx] per row in dmx, dx spread in
// dx) times a token's block, added to the pair's accumulators. Per block,
// [dx, mx] times [dy, sy] gives both scales of the reference, d = dx·dy and
// m·s, in one multiplication; the m·s terms of the _1 formats accumulate in
// lanes 1 and 3 of `ext` in block order, as the reference's separate sum
// does.
template <class T>
inline void multiply(__m512i xq, __m128 dmx, __m512 dx, const TokenBlock& y, __m512& acc, __m128& ext)
{
    __m512i lanes;
    if constexpr (T::kOffset < 0)
        lanes = dotS8S8(xq, y.yq);
    else
        lanes = dotU8S8(xq, y.yq, y.init);
    if constexpr (T::kMin) {
        const __m128 prod = _mm_mul_ps(dmx, y.dmy);
        acc = _mm512_fmadd_ps(spreadPair(prod), _mm512_cvtepi32_ps(lanes), acc);
        ext = _mm_add_ps(ext, prod);
    } else {
        acc = _mm512_fmadd_ps(_mm512_mul_ps(dx, y.dy), _mm512_cvtepi32_ps(lanes), acc);
    }
}

// A row pair's results: the first `pairRows` rows to s[0], s[1].
template <class T>
inline void storePair(__m512 acc, __m128 ext, float* s, int pairRows)
{
    alignas(16) float e[4];
    _mm_store_ps(e, ext);
    for (int h = 0; h < pairRows; ++h) {
        const __m256 half = h == 0 ? _mm512_castps512_ps256(acc) : _mm512_extractf32x8_ps(acc, 1);
        float v = hsum8(half);
        if constexpr (T::kMin)
            v += e[2 * h + 1];
        s[h] = v;
    }
}

// P row pairs × C tokens. rows = 2P, except that a lone last row (odd
// count) is run with P = 1 and its high half discarded (`pairRows` = 1).
template <class T, int P, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride,
          int pairRows)
{
    __m512 acc[P][C];
    __m128 ext[P][C];
    for (int p = 0; p < P; ++p)
        for (int c = 0; c < C; ++c) {
            acc[p][c] = _mm512_setzero_ps();
            ext[p][c] = _mm_setzero_ps();
        }
    const size_t ahead = prefetchDistance(wStride, 2 * P);
    for (int64_t b = 0; b < nb; ++b) {
        __m512i xq[P];
        __m128 dmx[P];
        __m512 dx[P];
        for (int p = 0; p < P; ++p) {
            const auto& lo = blockAt<T>(w, wStride, 2 * p, b);
            const auto& hi = blockAt<T>(w, wStride, pairRows == 2 ? 2 * p + 1 : 2 * p, b);
            _mm_prefetch(reinterpret_cast<const char*>(&lo) + ahead, _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(&hi) + ahead, _MM_HINT_T0);
            xq[p] = join(T::quants(lo), T::quants(hi));
            const __m128i heads = _mm_set_epi32(0, 0, static_cast<int>(headOf(hi)), static_cast<int>(headOf(lo)));
            dmx[p] = _mm_cvtph_ps(heads);
            dx[p] = spreadPair(dmx[p]);
        }
        for (int c = 0; c < C; ++c) {
            const TokenBlock y = tokenBlock<T>(partnerAt<T>(a, aStride, c, b));
            for (int p = 0; p < P; ++p)
                multiply<T>(xq[p], dmx[p], dx[p], y, acc[p][c], ext[p][c]);
        }
    }
    for (int p = 0; p < P; ++p)
        for (int c = 0; c < C; ++c)
            storePair<T>(acc[p][c], ext[p][c], s + sStride * static_cast<size_t>(c) + static_cast<size_t>(2 * p),
                         pairRows);
}

// One token against P row pairs, software-pipelined: block b + 1 of every
// row is loaded before block b is multiplied, so a row's next cache lines are
// requested while the current ones are still in use. Generation streams each
// weight once from memory, and there this keeps more loads in flight than
// tile<T, P, 1>: on this 2-core machine, Q8_0 rows stream at the same rate
// as with tile<T, 2, 1> when memory is idle and 7-10% faster when other
// tenants load it. The sums are the same, in the same order.
template <class T, int P>
void stream(int64_t nb, float* s, const uint8_t* w, size_t wStride, const uint8_t* a)
{
    __m512 acc[P];
    __m128 ext[P];
    for (int p = 0; p < P; ++p) {
        acc[p] = _mm512_setzero_ps();
        ext[p] = _mm_setzero_ps();
    }
    const size_t ahead = prefetchDistance(wStride, 2 * P);
    __m512i xq[P];
    __m128i heads[P];
    const auto load = [&](int64_t b) {
        for (int p = 0; p < P; ++p) {
            const auto& lo = blockAt<T>(w, wStride, 2 * p, b);
            const auto& hi = blockAt<T>(w, wStride, 2 * p + 1, b);
            xq[p] = join(T::quants(lo), T::quants(hi));
            heads[p] = _mm_set_epi32(0, 0, static_cast<int>(headOf(hi)), static_cast<int>(headOf(lo)));
        }
    };
    load(0);
    for (int64_t b = 0; b < nb; ++b) {
        __m512i q[P];
        __m128i h[P];
        for (int p = 0; p < P; ++p) {
            q[p] = xq[p];
            h[p] = heads[p];
            _mm_prefetch(reinterpret_cast<const char*>(&blockAt<T>(w, wStride, 2 * p, b)) + ahead, _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(&blockAt<T>(w, wStride, 2 * p + 1, b)) + ahead, _MM_HINT_T0);
        }
        if (b + 1 < nb)
            load(b + 1);
        const TokenBlock y = tokenBlock<T>(partnerAt<T>(a, 0, 0, b));
        for (int p = 0; p < P; ++p) {
            const __m128 dmx = _mm_cvtph_ps(h[p]);
            multiply<T>(q[p], dmx, spreadPair(dmx), y, acc[p], ext[p]);
        }
    }
    for (int p = 0; p < P; ++p)
        storePair<T>(acc[p], ext[p], s + 2 * p, 2);
}

// Tiles of 4 rows × 4 tokens (8 accumulators): a tile of R rows is R / 2
// row pairs, a lone last row half a pair.
template <class T>
struct Pairs : TileShape<32, 4, 4> {
    template <int R, int C>
    static void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a,
                     size_t aStride)
    {
        cpu::tile<T, (R + 1) / 2, C>(nb, s, sStride, w, wStride, a, aStride, R == 1 ? 1 : 2);
    }
};

// Weights per call from which one token's rows are streamed (stream<T, 4>);
// smaller calls are short enough that tile<T, 2, 1>, slightly faster on
// data already in cache, loses nothing waiting for memory.
constexpr size_t kStreamBytes = size_t{1} << 20;

template <class T>
void gemm(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
          int64_t rows, int64_t tokens)
{
    const TileGrid g{s,    sStride, static_cast<const uint8_t*>(w), wStride, static_cast<const uint8_t*>(a), aStride,
                     rows, tokens};
    int64_t r = 0;
    // One token over more weights than fit in cache: streamed row pairs.
    if (tokens == 1 && static_cast<size_t>(rows) * wStride >= kStreamBytes)
        for (; r + 8 <= rows; r += 8)
            stream<T, 4>(n / 32, s + r, g.w + wStride * static_cast<size_t>(r), wStride, g.a);
    gemmTiles<Pairs<T>>(n, g, r);
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    // IQ4_NL's lane order here is tinyBLAS's (two tokens or more); its
    // vec_dot pairs blocks (scalar/legacy.cpp).
    if (type == GgmlType::IQ4_NL) {
        k.vecDotSgemm = tiledDot<Pairs<T>>;
        k.gemmSgemm = gemm<T>;
        return;
    }
    k.vecDot = tiledDot<Pairs<T>>;
    k.gemm = gemm<T>;
}

} // namespace

#if HEARTH_AVX512_VNNI
void registerAvx512VnniLegacyKernels(KernelTable& t)
#else
void registerAvx512LegacyKernels(KernelTable& t)
#endif
{
    set<Q4_0>(t, GgmlType::Q4_0);
    set<Q4_1>(t, GgmlType::Q4_1);
    set<Q5_0>(t, GgmlType::Q5_0);
    set<Q5_1>(t, GgmlType::Q5_1);
    set<Q8_0>(t, GgmlType::Q8_0);
    set<IQ4_NL>(t, GgmlType::IQ4_NL);
}

#else

#if HEARTH_AVX512_VNNI
void registerAvx512VnniLegacyKernels(KernelTable&)
{
}
#else
void registerAvx512LegacyKernels(KernelTable&)
{
}
#endif

#endif

} // namespace hearth::cpu
