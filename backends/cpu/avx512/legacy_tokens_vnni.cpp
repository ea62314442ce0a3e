// AVX-512 VNNI gemm of vec_dot's order for the 32-element formats Q4_0,
// Q4_1, Q5_0, Q5_1 and Q8_0 on batches of 16 tokens or more: the tokens are the
// lanes. The reference (scalar/legacy.cpp) keeps eight float lanes per
// output, lane l taking Σ of the four products of elements 4l..4l+3 of each
// block times d(x)·d(y) by a fused multiply-add, then hsum_float_8 (and the
// _1 formats' Σ m·s after it). Here one zmm holds lane l of 16 tokens: one
// vpdpbusd of a weight quad (broadcast) with the same quad of 16 tokens
// gives those 16 exact integers, and the fused multiply-add by the 16
// products d(x)·d(y) is the reference's, token by token. Eight such
// accumulators per row, reduced across registers in hsum_float_8's order.
//
// Signs: vpdpbusd multiplies u8 × s8. The weights stay signed (they are the
// broadcast operand) and the activations are made unsigned, q + 128; each
// lane starts at −128 · Σ of its four weights, which the decoded row keeps,
// so the integer comes out exactly Σ q(x)·q(y). Batches under 16 tokens,
// and a last token block under 8, keep the row tiles of avx512/legacy.cpp.
#include "cpu/avx2/simd_avx2.h"
#include "cpu/avx512/tokens_in_lanes.h"
#include "cpu/kernels.h"
#include "quant/legacy.h"

#include <algorithm>
#include <mutex>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

// One block of one weight row, decoded once per gemm call and reused by
// every token block.
struct Decoded {
    int8_t q[32];    // signed quants, element order
    int32_t init[8]; // −128 · Σ of quants 4l..4l+3: the offset's share
    float d, m;      // scale and (the _1 formats) minimum
};

// One block of 16 tokens.
struct Packed {
    alignas(64) uint32_t q[8][kLanes]; // quants 4l..4l+3 + 128 of each token
    float d[kLanes];
    float s[kLanes]; // Q8_1's d · Σ quants (unused for Q8_0)
};

// Per format: the signed quants of a block and whether it has a minimum.
struct Q4_0 {
    using Block = BlockQ4_0;
    using Partner = BlockQ8_0;
    static constexpr bool kMin = false;
    static __m256i quants(const Block& b) { return _mm256_sub_epi8(nibbles32(b.qs), _mm256_set1_epi8(8)); }
};

struct Q4_1 {
    using Block = BlockQ4_1;
    using Partner = BlockQ8_1;
    static constexpr bool kMin = true;
    static __m256i quants(const Block& b) { return nibbles32(b.qs); }
};

struct Q5_0 {
    using Block = BlockQ5_0;
    using Partner = BlockQ8_0;
    static constexpr bool kMin = false;
    static __m256i quants(const Block& b)
    {
        const __m256i q = _mm256_or_si256(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10));
        return _mm256_sub_epi8(q, _mm256_set1_epi8(16));
    }
};

struct Q5_1 {
    using Block = BlockQ5_1;
    using Partner = BlockQ8_1;
    static constexpr bool kMin = true;
    static __m256i quants(const Block& b) { return _mm256_or_si256(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10)); }
};

struct Q8_0 {
    using Block = BlockQ8_0;
    using Partner = BlockQ8_0;
    static constexpr bool kMin = false;
    static __m256i quants(const Block& b) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs)); }
};

template <class T>
void decode(const typename T::Block& b, Decoded& out)
{
    const __m256i q = T::quants(b);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.q), q);
    const __m256i sums = _mm256_dpbusd_epi32(_mm256_setzero_si256(), _mm256_set1_epi8(1), q);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.init),
                        _mm256_sub_epi32(_mm256_setzero_si256(), _mm256_slli_epi32(sums, 7)));
    out.d = halfToFloat(b.d);
    if constexpr (T::kMin)
        out.m = halfToFloat(b.m);
    else
        out.m = 0.0f;
}

// Tokens t0..t0+count-1 (count <= 16; the other lanes are zero) of block b.
template <class T>
void pack(const uint8_t* a, size_t aStride, int64_t t0, int count, int64_t b, Packed& out)
{
    for (int t = 0; t < kLanes; ++t) {
        if (t >= count) {
            for (auto& l : out.q)
                l[t] = 0;
            out.d[t] = 0.0f;
            out.s[t] = 0.0f;
            continue;
        }
        const auto& y = reinterpret_cast<const typename T::Partner*>(a + aStride * static_cast<size_t>(t0 + t))[b];
        for (int l = 0; l < 8; ++l) {
            uint32_t word;
            std::memcpy(&word, y.qs + 4 * l, 4);
            out.q[l][t] = word ^ 0x80808080u;
        }
        out.d[t] = halfToFloat(y.d);
        if constexpr (T::kMin)
            out.s[t] = halfToFloat(y.s);
        else
            out.s[t] = 0.0f;
    }
}

inline __m512 hsum8Lanes(const __m512* acc)
{
    const __m512 r0 = _mm512_add_ps(acc[4], acc[0]), r1 = _mm512_add_ps(acc[5], acc[1]);
    const __m512 r2 = _mm512_add_ps(acc[6], acc[2]), r3 = _mm512_add_ps(acc[7], acc[3]);
    return _mm512_add_ps(_mm512_add_ps(r0, r2), _mm512_add_ps(r1, r3));
}

// R rows × 16 tokens over all blocks: the 16 results of each row in `out`.
template <class T, int R>
void rows16(const Decoded* const* rows, const Packed* packed, int64_t nb, __m512* out)
{
    __m512 acc[R][8];
    __m512 ext[R];
    for (int r = 0; r < R; ++r) {
        for (auto& v : acc[r])
            v = _mm512_setzero_ps();
        ext[r] = _mm512_setzero_ps();
    }
    for (int64_t b = 0; b < nb; ++b) {
        const Packed& p = packed[b];
        const __m512 dy = _mm512_load_ps(p.d);
        __m512 d[R];
        for (int r = 0; r < R; ++r)
            d[r] = _mm512_mul_ps(_mm512_set1_ps(rows[r][b].d), dy);
        for (int l = 0; l < 8; ++l) {
            const __m512i act = _mm512_load_si512(p.q[l]);
            for (int r = 0; r < R; ++r) {
                const Decoded& x = rows[r][b];
                int32_t w;
                std::memcpy(&w, x.q + 4 * l, 4);
                const __m512i lane = _mm512_dpbusd_epi32(_mm512_set1_epi32(x.init[l]), act, _mm512_set1_epi32(w));
                acc[r][l] = _mm512_fmadd_ps(d[r], _mm512_cvtepi32_ps(lane), acc[r][l]);
            }
        }
        if constexpr (T::kMin) {
            const __m512 sy = _mm512_load_ps(p.s);
            for (int r = 0; r < R; ++r)
                ext[r] = _mm512_add_ps(ext[r], _mm512_mul_ps(_mm512_set1_ps(rows[r][b].m), sy));
        }
    }
    for (int r = 0; r < R; ++r) {
        out[r] = hsum8Lanes(acc[r]);
        if constexpr (T::kMin)
            out[r] = _mm512_add_ps(out[r], ext[r]);
    }
}

constexpr int kRowBlock = 12; // rows decoded at once and reused for every token block (both tiles divide it)

template <class T>
void gemm16(int64_t n, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride,
            int64_t rows, int64_t tokens)
{
    // Rows per pass: 8 accumulators each, in 32 registers.
    constexpr int kRowTile = T::kMin ? 2 : 3;
    const auto decodeRow = [](const uint8_t* row, int64_t nb, Decoded* out) {
        const auto* x = reinterpret_cast<const typename T::Block*>(row);
        for (int64_t b = 0; b < nb; ++b)
            decode<T>(x[b], out[b]);
    };
    const auto tile = [&](const Decoded* const* rp, const Packed* p, int64_t nb, float* out, int live, int count) {
        int r = 0;
        for (; r + kRowTile <= live; r += kRowTile) {
            __m512 res[kRowTile];
            rows16<T, kRowTile>(rp + r, p, nb, res);
            for (int i = 0; i < kRowTile; ++i)
                storeLanes(out, sStride, r + i, res[i], count);
        }
        for (; r < live; ++r) {
            __m512 res[1];
            rows16<T, 1>(rp + r, p, nb, res);
            storeLanes(out, sStride, r, res[0], count);
        }
    };
    tokensInLanes<Packed, Decoded, kRowBlock>(n / 32, s, sStride, w, wStride, a, aStride, rows, tokens, pack<T>,
                                              decodeRow, tile);
}

// The row tiles the table had for each type (avx512/legacy.cpp's), kept for
// small batches; set once, by the first registration.
template <GgmlType kType>
GemmFn& rowTiles()
{
    static GemmFn fn = nullptr;
    return fn;
}

// Whole blocks of 16 tokens here; a rest of 8 or more as a zero-padded
// block, a smaller one by the row tiles.
template <class T, GgmlType kType>
void gemm(int64_t n, float* s, size_t sStride, const void* wv, size_t wStride, const void* av, size_t aStride,
          int64_t rows, int64_t tokens)
{
    const GemmFn small = rowTiles<kType>();
    const int64_t rest = tokens % kLanes;
    const int64_t here = rest >= kLanes / 2 ? tokens : tokens - rest;
    const auto* a = static_cast<const uint8_t*>(av);
    if (here > 0)
        gemm16<T>(n, s, sStride, static_cast<const uint8_t*>(wv), wStride, a, aStride, rows, here);
    if (here < tokens)
        small(n, s + sStride * static_cast<size_t>(here), sStride, wv, wStride, a + aStride * static_cast<size_t>(here),
              aStride, rows, tokens - here);
}

template <class T, GgmlType kType>
void set(KernelTable& t, std::once_flag& once)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(kType)];
    if (!k.gemm)
        return;
    const GemmFn previous = k.gemm;
    std::call_once(once, [previous] { rowTiles<kType>() = previous; });
    k.gemm = gemm<T, kType>;
}

} // namespace

void registerAvx512VnniLegacyTokenKernels(KernelTable& t)
{
    static std::once_flag once[5];
    set<Q4_0, GgmlType::Q4_0>(t, once[0]);
    set<Q4_1, GgmlType::Q4_1>(t, once[1]);
    set<Q5_0, GgmlType::Q5_0>(t, once[2]);
    set<Q5_1, GgmlType::Q5_1>(t, once[3]);
    set<Q8_0, GgmlType::Q8_0>(t, once[4]);
}

#else

void registerAvx512VnniLegacyTokenKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
