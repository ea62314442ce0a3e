// AVX-512 VNNI gemm of the tiled order (scalar/tiled.cpp) for the K-quant
// formats (Q2_K..Q6_K) and IQ4_XS on batches of 16 tokens or more: the tokens are the
// lanes. Each vpdpbusd multiplies four quants of one weight row (broadcast)
// with the same four activations of 16 tokens, so one instruction does 64
// products and a scale multiplies 16 tokens' sums at once. Exact like the
// row tiles (avx512/k_quants.cpp): the integer sums s1, s2 of a super-block
// are exact, and the float steps are the reference's, lane by lane:
// r = f32(s1)·d(x), r = fma(−dmin(x), f32(s2), r), acc = fma(r, y.d, acc).
//
// Signs: vpdpbusd takes u8 × s8: the weights are the unsigned bytes of
// k_quants_formats.h (Q3_K, Q6_K and IQ4_XS offset by +4 / +32 / +128, whose share,
// offset · Σ scale · bsum, comes out with the activations' sub-block sums
// like the mins do) and the activations keep their signed values. Every
// format is handled as 16 sub-blocks of 16 (the 32-element ones repeat
// their scale and min), which changes no integer.
#include "cpu/avx2/k_quants_formats.h"
#include "cpu/avx512/tokens_in_lanes.h"
#include "cpu/kernels.h"

#include <algorithm>
#include <mutex>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

// One super-block of one weight row, decoded once and reused by every
// token block.
struct Decoded {
    alignas(64) uint8_t q[QK_K]; // unsigned quants (+ offset), element order
    int32_t sc[16];              // scale of each 16-element sub-block
    int32_t pairs[8];            // 16-bit pairs (k = 2i low, 2i+1 high) of the
                                 // second term's weights: mins, or offset · scale
    uint16_t d, dmin;            // f16
};

// One super-block of 16 tokens.
struct Packed {
    alignas(64) uint32_t q[QK_K / 4][kLanes]; // 4 activations per group and token
    int32_t bsums[8][kLanes];                 // sub-block sums 2i (low 16 bits) and 2i+1 (high)
    float d[kLanes];
};

// Per format: the chunk decoder of k_quants_formats.h gives unsigned bytes
// with an offset (kOffset) and per-sub-block scales/mins in its Prep.
template <class F>
struct Adapt;

template <>
struct Adapt<Q2_K> {
    static constexpr int kOffset = 0;
    static void scales(const BlockQ2_K& b, const Q2_K::Prep& p, Decoded& out, int32_t* m)
    {
        for (int k = 0; k < 16; ++k) {
            out.sc[k] = p.sc[k];
            m[k] = b.scales[k] >> 4;
        }
        out.d = b.d;
        out.dmin = b.dmin;
    }
};

template <>
struct Adapt<Q3_K> {
    static constexpr int kOffset = 4;
    static void scales(const BlockQ3_K& b, const Q3_K::Prep& p, Decoded& out, int32_t*)
    {
        for (int k = 0; k < 16; ++k)
            out.sc[k] = p.sc[k];
        out.d = b.d;
        out.dmin = 0;
    }
};

template <>
struct Adapt<Q4_K> {
    static constexpr int kOffset = 0;
    template <class B>
    static void scales(const B& b, const Q4_K::Prep& p, Decoded& out, int32_t* m)
    {
        for (int k = 0; k < 16; ++k) {
            out.sc[k] = p.sc[k / 2];
            m[k] = p.mn[k / 2];
        }
        out.d = b.d;
        out.dmin = b.dmin;
    }
};

template <>
struct Adapt<Q5_K> : Adapt<Q4_K> {
};

// IQ4_XS: signed values, made unsigned as q + 128 (flipping the sign bit).
template <>
struct Adapt<IQ4_XS> {
    static constexpr int kOffset = 128;
    static void scales(const BlockIQ4_XS& b, const IQ4_XS::Prep& p, Decoded& out, int32_t*)
    {
        for (int k = 0; k < 16; ++k)
            out.sc[k] = p.sc[k / 2];
        out.d = b.d;
        out.dmin = 0;
    }
};

template <>
struct Adapt<Q6_K> {
    static constexpr int kOffset = 32;
    static void scales(const BlockQ6_K& b, const Q6_K::Prep& p, Decoded& out, int32_t*)
    {
        for (int k = 0; k < 16; ++k)
            out.sc[k] = p.sc[k];
        out.d = b.d;
        out.dmin = 0;
    }
};

// The second term per token is Σ_k pairs_k · bsum_k: the mins (formats
// with mins; subtracted later times dmin) or −offset · scale (formats with
// an offset; their share of the integer sum). Both fit 16 bits.
template <class F>
void decode(const typename F::Block& b, Decoded& out)
{
    typename F::Prep p;
    F::prepare(b, p);
    int32_t m[16];
    Adapt<F>::scales(b, p, out, m);
    for (int i = 0; i < 8; ++i) {
        int lo = m[2 * i], hi = m[2 * i + 1];
        if constexpr (Adapt<F>::kOffset != 0) {
            lo = -Adapt<F>::kOffset * out.sc[2 * i];
            hi = -Adapt<F>::kOffset * out.sc[2 * i + 1];
        }
        out.pairs[i] =
            static_cast<int32_t>(static_cast<uint16_t>(lo) | (static_cast<uint32_t>(static_cast<uint16_t>(hi)) << 16));
    }
    for (int k = 0; k < QK_K / 32; ++k) {
        __m256i q = F::quants(b, p, k);
        if constexpr (F::kSigned)
            q = _mm256_xor_si256(q, _mm256_set1_epi8(static_cast<char>(0x80)));
        _mm256_store_si256(reinterpret_cast<__m256i*>(out.q + 32 * k), q);
    }
}

// Tokens t0..t0+count-1 (count <= 16; the rest of the lanes are zero) of
// super-block b.
void pack(const uint8_t* a, size_t aStride, int64_t t0, int count, int64_t b, Packed& out)
{
    for (int t = 0; t < kLanes; ++t) {
        if (t >= count) {
            for (int g = 0; g < QK_K / 4; ++g)
                out.q[g][t] = 0;
            for (auto& s : out.bsums)
                s[t] = 0;
            out.d[t] = 0.0f;
            continue;
        }
        const BlockQ8_K& y = reinterpret_cast<const BlockQ8_K*>(a + aStride * static_cast<size_t>(t0 + t))[b];
        for (int g = 0; g < QK_K / 4; ++g) {
            uint32_t word;
            std::memcpy(&word, y.qs + 4 * g, 4);
            out.q[g][t] = word;
        }
        for (int i = 0; i < 8; ++i)
            out.bsums[i][t] =
                static_cast<int32_t>(static_cast<uint16_t>(y.bsums[2 * i]) |
                                     (static_cast<uint32_t>(static_cast<uint16_t>(y.bsums[2 * i + 1])) << 16));
        out.d[t] = y.d;
    }
}

// R rows × 16 tokens over all super-blocks: the running sums in `sum`.
template <bool kMin, int R>
void rows16(const Decoded* const* rows, const Packed* packed, int64_t nb, __m512* sum)
{
    for (int64_t b = 0; b < nb; ++b) {
        const Packed& p = packed[b];
        __m512i isum[R];
        for (int r = 0; r < R; ++r)
            isum[r] = _mm512_setzero_si512();
        for (int k = 0; k < 16; ++k) {
            __m512i raw[R];
            for (int r = 0; r < R; ++r)
                raw[r] = _mm512_setzero_si512();
            for (int g = 4 * k; g < 4 * k + 4; ++g) {
                const __m512i act = _mm512_load_si512(p.q[g]);
                for (int r = 0; r < R; ++r) {
                    int32_t w;
                    std::memcpy(&w, rows[r][b].q + 4 * g, 4);
                    raw[r] = _mm512_dpbusd_epi32(raw[r], _mm512_set1_epi32(w), act);
                }
            }
            for (int r = 0; r < R; ++r)
                isum[r] = _mm512_add_epi32(isum[r], _mm512_mullo_epi32(raw[r], _mm512_set1_epi32(rows[r][b].sc[k])));
        }
        const __m512 dy = _mm512_loadu_ps(p.d);
        for (int r = 0; r < R; ++r) {
            const Decoded& x = rows[r][b];
            __m512i second = _mm512_setzero_si512();
            for (int i = 0; i < 8; ++i)
                second = _mm512_add_epi32(
                    second, _mm512_madd_epi16(_mm512_load_si512(p.bsums[i]), _mm512_set1_epi32(x.pairs[i])));
            // Formats with an offset: `second` is minus its share.
            const __m512i s1 = kMin ? isum[r] : _mm512_add_epi32(isum[r], second);
            __m512 t = _mm512_mul_ps(_mm512_cvtepi32_ps(s1), _mm512_set1_ps(halfToFloat(x.d)));
            if constexpr (kMin)
                t = _mm512_fmadd_ps(_mm512_set1_ps(-halfToFloat(x.dmin)), _mm512_cvtepi32_ps(second), t);
            sum[r] = _mm512_fmadd_ps(t, dy, sum[r]);
        }
    }
}

constexpr int kRowBlock = 16; // rows decoded at once and reused for every token block

template <class F, bool kMin>
void gemm(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
          int64_t rows, int64_t tokens, GemmFn rowTiles)
{
    if (tokens < kLanes) {
        rowTiles(n, s, sStride, w, wStride, a, aStride, rows, tokens);
        return;
    }
    const auto decodeRow = [](const uint8_t* row, int64_t nb, Decoded* out) {
        const auto* x = reinterpret_cast<const typename F::Block*>(row);
        for (int64_t b = 0; b < nb; ++b)
            decode<F>(x[b], out[b]);
    };
    const auto tile = [&](const Decoded* const* rp, const Packed* p, int64_t nb, float* out, int live, int count) {
        int r = 0;
        for (; r + 4 <= live; r += 4) {
            __m512 sum[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
            rows16<kMin, 4>(rp + r, p, nb, sum);
            for (int i = 0; i < 4; ++i)
                storeLanes(out, sStride, r + i, sum[i], count);
        }
        for (; r < live; ++r) {
            __m512 sum[1] = {_mm512_setzero_ps()};
            rows16<kMin, 1>(rp + r, p, nb, sum);
            storeLanes(out, sStride, r, sum[0], count);
        }
    };
    tokensInLanes<Packed, Decoded, kRowBlock>(n / QK_K, s, sStride, static_cast<const uint8_t*>(w), wStride,
                                              static_cast<const uint8_t*>(a), aStride, rows, tokens, pack, decodeRow,
                                              tile);
}

// The row-tile gemm of the tiled order the table had for each type
// (AVX-512's), kept for batches under 16 tokens; set once, by the first
// registration.
template <GgmlType kType>
GemmFn& rowTiles()
{
    static GemmFn fn = nullptr;
    return fn;
}

template <class F, bool kMin, GgmlType kType>
void gemmEntry(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
               int64_t rows, int64_t tokens)
{
    gemm<F, kMin>(n, s, sStride, w, wStride, a, aStride, rows, tokens, rowTiles<kType>());
}

template <class F, bool kMin, GgmlType kType>
void set(KernelTable& t, std::once_flag& once)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(kType)];
    if (!k.gemmTiled)
        return;
    const GemmFn previous = k.gemmTiled;
    std::call_once(once, [previous] { rowTiles<kType>() = previous; });
    k.gemmTiled = gemmEntry<F, kMin, kType>;
}

} // namespace

void registerAvx512VnniKQuantKernels(KernelTable& t)
{
    static std::once_flag once[6];
    set<Q2_K, true, GgmlType::Q2_K>(t, once[0]);
    set<Q3_K, false, GgmlType::Q3_K>(t, once[1]);
    set<Q4_K, true, GgmlType::Q4_K>(t, once[2]);
    set<Q5_K, true, GgmlType::Q5_K>(t, once[3]);
    set<Q6_K, false, GgmlType::Q6_K>(t, once[4]);
    set<IQ4_XS, false, GgmlType::IQ4_XS>(t, once[5]);
}

#else

void registerAvx512VnniKQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
