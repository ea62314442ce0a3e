// AVX-512 VNNI tiles of llama.cpp's repacked orders (scalar/repack.cpp) for
// batches of 16 tokens or more: the tokens are the lanes. Each vpdpbusd
// multiplies four quants of one weight row (broadcast) with the same four
// activations of 16 tokens, and the float steps of the reference — one
// fused multiply-add per block (Q4_0, IQ4_NL) or per chunk (Q4_K: 64,
// Q2_K: 128; accD and accM) and (row, token) — run lane by lane in order.
// Smaller batches keep the row-group tiles (avx2/repacked*.cpp).
//
// Signs: vpdpbusd takes u8 × s8, so the weights enter unsigned — Q4_0 as
// q + 8, IQ4_NL as q + 128 — and the accumulators start at −offset · Σa of
// the block, packed with the activations; Q4_K's nibbles are unsigned
// already (scaled per sub-block with an exact 32-bit multiply), and Q2_K's
// 2-bit quants are multiplied by their 4-bit scale at decode (<= 45).
#include "cpu/avx2/repacked_rows.h"
#include "cpu/avx512/tokens_in_lanes.h"
#include "cpu/kernels.h"
#include "quant/iq4.h"
#include "quant/k_quants.h"
#include "quant/legacy.h"

#include <mutex>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

// ---- 32-element blocks (Q4_0, IQ4_NL) ----

// One block of 16 tokens: quad k of token t at q[k][t].
struct Packed32 {
    uint32_t q[8][kLanes];
    int32_t init[kLanes]; // −offset · Σ a
    float d[kLanes];
};

struct Decoded32 {
    uint32_t q[8]; // unsigned quants (+ offset), element order
    float d;
};

struct Q4_0 {
    using Block = BlockQ4_0;
    static constexpr int kOffset = 8;
    static __m256i quants(const Block& b) { return nibbles32(b.qs); }
};

struct IQ4_NL {
    using Block = BlockIQ4_NL;
    static constexpr int kOffset = 128;
    static __m256i quants(const Block& b)
    {
        const __m128i table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kValuesIQ4NL));
        const __m256i q = _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(table), nibbles32(b.qs));
        return _mm256_xor_si256(q, _mm256_set1_epi8(static_cast<char>(0x80)));
    }
};

// Tokens t0 .. t0 + count − 1 of block b (lanes past count are zero).
template <class T>
void pack32(const uint8_t* a, size_t aStride, int64_t t0, int count, int64_t b, Packed32& out)
{
    for (int t = 0; t < kLanes; ++t) {
        if (t >= count) {
            for (auto& k : out.q)
                k[t] = 0;
            out.init[t] = 0;
            out.d[t] = 0.0f;
            continue;
        }
        const BlockQ8_0& y = reinterpret_cast<const BlockQ8_0*>(a + aStride * static_cast<size_t>(t0 + t))[b];
        int sum = 0;
        for (int k = 0; k < 8; ++k) {
            std::memcpy(&out.q[k][t], y.qs + 4 * k, 4);
            for (int e = 4 * k; e < 4 * k + 4; ++e)
                sum += y.qs[e];
        }
        out.init[t] = -T::kOffset * sum;
        out.d[t] = halfToFloat(y.d);
    }
}

// Results of R rows × 16 tokens (acc[r], tokens in lanes) → s[t·sStride + r]
// for the live rows and tokens: transposed on the stack, so that each
// token's rows go out as one contiguous store.
template <int R>
void storeTile(const __m512* acc, float* s, size_t sStride, int live, int count)
{
    static_assert(R == 8, "one ymm of rows per token");
    alignas(64) float buf[R][kLanes];
    for (int r = 0; r < R; ++r)
        _mm512_store_ps(buf[r], acc[r]);
    const __m256i rowIndex = _mm256_setr_epi32(0, 16, 32, 48, 64, 80, 96, 112);
    for (int t = 0; t < count; ++t) {
        const __m256 rows = _mm256_i32gather_ps(&buf[0][t], rowIndex, 4);
        storeRows(s + sStride * static_cast<size_t>(t), rows, live);
    }
}

// R rows × 16 tokens over nb blocks; rows[r] = the row's decoded blocks.
template <int R>
void tile32(const Decoded32* const* rows, const Packed32* p, int64_t nb, float* s, size_t sStride, int live, int count)
{
    __m512 acc[R];
    for (int r = 0; r < R; ++r)
        acc[r] = _mm512_setzero_ps();
    for (int64_t b = 0; b < nb; ++b) {
        __m512i sum[R];
        const __m512i init = _mm512_load_si512(p[b].init);
        for (int r = 0; r < R; ++r)
            sum[r] = init;
        for (int k = 0; k < 8; ++k) {
            const __m512i act = _mm512_load_si512(p[b].q[k]);
            for (int r = 0; r < R; ++r)
                sum[r] = _mm512_dpbusd_epi32(sum[r], _mm512_set1_epi32(static_cast<int>(rows[r][b].q[k])), act);
        }
        const __m512 dy = _mm512_load_ps(p[b].d);
        for (int r = 0; r < R; ++r) {
            const __m512 d = _mm512_mul_ps(_mm512_set1_ps(rows[r][b].d), dy);
            acc[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum[r]), d, acc[r]);
        }
    }
    storeTile<R>(acc, s, sStride, live, count);
}

// ---- super-blocks (Q4_K, Q2_K), GEMM chunks ----

struct PackedK {
    uint32_t q[QK_K / 4][kLanes];
    int32_t bsums[8][kLanes]; // int16 pairs: sums of 16-groups 2i (low) and 2i + 1 (high)
    float d[kLanes];
};

struct DecodedK {
    uint32_t q[QK_K / 4]; // unsigned quants (Q2_K: times their scale), element order
    int32_t sc[8];        // Q4_K: sub-block scales
    int32_t minPairs[8];  // int16 pairs of the mins matching PackedK::bsums
    float d, dmin;
};

void packK(const uint8_t* a, size_t aStride, int64_t t0, int count, int64_t b, PackedK& out)
{
    for (int t = 0; t < kLanes; ++t) {
        if (t >= count) {
            for (auto& g : out.q)
                g[t] = 0;
            for (auto& s : out.bsums)
                s[t] = 0;
            out.d[t] = 0.0f;
            continue;
        }
        const BlockQ8_K& y = reinterpret_cast<const BlockQ8_K*>(a + aStride * static_cast<size_t>(t0 + t))[b];
        for (int g = 0; g < QK_K / 4; ++g)
            std::memcpy(&out.q[g][t], y.qs + 4 * g, 4);
        for (int i = 0; i < 8; ++i)
            out.bsums[i][t] =
                static_cast<int32_t>(static_cast<uint16_t>(y.bsums[2 * i]) |
                                     (static_cast<uint32_t>(static_cast<uint16_t>(y.bsums[2 * i + 1])) << 16));
        out.d[t] = y.d;
    }
}

int32_t pairOf(int lo, int hi)
{
    return static_cast<int32_t>(static_cast<uint16_t>(lo) | (static_cast<uint32_t>(static_cast<uint16_t>(hi)) << 16));
}

struct Q4_K {
    using Block = BlockQ4_K;
    static constexpr int kChunks = 4;
    static void decode(const Block& x, DecodedK& out)
    {
        uint8_t sc[8], mn[8];
        unpackScalesMinsK4(x.scales, sc, mn);
        for (int j = 0; j < 8; ++j)
            out.sc[j] = sc[j];
        // Pair i is the two 16-groups of sub-block i.
        for (int i = 0; i < 8; ++i)
            out.minPairs[i] = pairOf(mn[i], mn[i]);
        for (int p = 0; p < 4; ++p) {
            const __m256i raw = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x.qs + 32 * p));
            const __m256i lo = _mm256_and_si256(raw, _mm256_set1_epi8(0x0f));
            const __m256i hi = _mm256_and_si256(_mm256_srli_epi16(raw, 4), _mm256_set1_epi8(0x0f));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.q + 16 * p), lo);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out.q + 16 * p + 8), hi);
        }
        out.d = halfToFloat(x.d);
        out.dmin = halfToFloat(x.dmin);
    }
    // Σ scale·q·a of chunk c (64 elements: sub-blocks 2c, 2c + 1).
    template <int R>
    static void chunk(const DecodedK* const* x, const PackedK& p, int c, __m512i* out)
    {
        for (int r = 0; r < R; ++r)
            out[r] = _mm512_setzero_si512();
        for (int j = 2 * c; j < 2 * c + 2; ++j) {
            __m512i raw[R];
            for (int r = 0; r < R; ++r)
                raw[r] = _mm512_setzero_si512();
            for (int g = 8 * j; g < 8 * j + 8; ++g) {
                const __m512i act = _mm512_load_si512(p.q[g]);
                for (int r = 0; r < R; ++r)
                    raw[r] = _mm512_dpbusd_epi32(raw[r], _mm512_set1_epi32(static_cast<int>(x[r]->q[g])), act);
            }
            for (int r = 0; r < R; ++r)
                out[r] = _mm512_add_epi32(out[r], _mm512_mullo_epi32(raw[r], _mm512_set1_epi32(x[r]->sc[j])));
        }
    }
};

struct Q2_K {
    using Block = BlockQ2_K;
    static constexpr int kChunks = 2;
    static void decode(const Block& x, DecodedK& out)
    {
        auto* q = reinterpret_cast<uint8_t*>(out.q);
        for (int e = 0; e < QK_K; ++e) {
            const int bits = (x.qs[32 * (e / 128) + e % 32] >> (2 * ((e % 128) / 32))) & 3;
            q[e] = static_cast<uint8_t>(bits * (x.scales[e / 16] & 0x0f));
        }
        for (int i = 0; i < 8; ++i)
            out.minPairs[i] = pairOf(x.scales[2 * i] >> 4, x.scales[2 * i + 1] >> 4);
        out.d = halfToFloat(x.d);
        out.dmin = halfToFloat(x.dmin);
    }
    template <int R>
    static void chunk(const DecodedK* const* x, const PackedK& p, int c, __m512i* out)
    {
        for (int r = 0; r < R; ++r)
            out[r] = _mm512_setzero_si512();
        for (int g = 32 * c; g < 32 * c + 32; ++g) {
            const __m512i act = _mm512_load_si512(p.q[g]);
            for (int r = 0; r < R; ++r)
                out[r] = _mm512_dpbusd_epi32(out[r], _mm512_set1_epi32(static_cast<int>(x[r]->q[g])), act);
        }
    }
};

template <class F, int R>
void tileK(const DecodedK* const* rows, const PackedK* p, int64_t nb, __m512* accD, __m512* accM)
{
    constexpr int NC = F::kChunks;
    for (int64_t b = 0; b < nb; ++b) {
        const DecodedK* x[R];
        for (int r = 0; r < R; ++r)
            x[r] = &rows[r][b];
        const __m512 dy = _mm512_load_ps(p[b].d);
        for (int c = 0; c < NC; ++c) {
            __m512i sum[R];
            F::template chunk<R>(x, p[b], c, sum);
            for (int r = 0; r < R; ++r) {
                __m512i mins = _mm512_setzero_si512();
                for (int i = 8 * c / NC; i < 8 * (c + 1) / NC; ++i)
                    mins = _mm512_add_epi32(mins, _mm512_madd_epi16(_mm512_load_si512(p[b].bsums[i]),
                                                                    _mm512_set1_epi32(x[r]->minPairs[i])));
                const __m512 d = _mm512_mul_ps(_mm512_set1_ps(x[r]->d), dy);
                const __m512 dmin = _mm512_mul_ps(_mm512_set1_ps(x[r]->dmin), dy);
                accD[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sum[r]), d, accD[r]);
                accM[r] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(mins), dmin, accM[r]);
            }
        }
    }
}

// ---- drivers ----

constexpr int kRows = 8;  // rows decoded at once (32-element blocks: one tile)
constexpr int kRowsK = 4; // rows per K-quant tile

// The tiles the table had before (the row groups), for batches under 16.
template <GgmlType kType, int kOrder>
GemmFn& previous()
{
    static GemmFn fn = nullptr;
    return fn;
}

template <class T, GgmlType kType>
void gemm32(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
            int64_t rows, int64_t tokens)
{
    if (tokens < kLanes) {
        previous<kType, 0>()(n, s, sStride, w, wStride, a, aStride, rows, tokens);
        return;
    }
    using Block = typename T::Block;
    const auto decode = [](const uint8_t* row, int64_t nb, Decoded32* out) {
        const auto* x = reinterpret_cast<const Block*>(row);
        for (int64_t b = 0; b < nb; ++b) {
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(out[b].q), T::quants(x[b]));
            out[b].d = halfToFloat(x[b].d);
        }
    };
    const auto tile = [&](const Decoded32* const* rp, const Packed32* p, int64_t nb, float* out, int live, int count) {
        tile32<kRows>(rp, p, nb, out, sStride, live, count);
    };
    tokensInLanes<Packed32, Decoded32, kRows>(n / 32, s, sStride, static_cast<const uint8_t*>(w), wStride,
                                              static_cast<const uint8_t*>(a), aStride, rows, tokens, pack32<T>, decode,
                                              tile);
}

template <class F, GgmlType kType>
void gemmK(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
           int64_t rows, int64_t tokens)
{
    if (tokens < kLanes) {
        previous<kType, 1>()(n, s, sStride, w, wStride, a, aStride, rows, tokens);
        return;
    }
    using Block = typename F::Block;
    const auto decode = [](const uint8_t* row, int64_t nb, DecodedK* out) {
        const auto* x = reinterpret_cast<const Block*>(row);
        for (int64_t b = 0; b < nb; ++b)
            F::decode(x[b], out[b]);
    };
    const auto tile = [&](const DecodedK* const* rp, const PackedK* p, int64_t nb, float* out, int live, int count) {
        __m512 res[2 * kRowsK];
        for (int r0 = 0; r0 < 2 * kRowsK; r0 += kRowsK) {
            __m512 accD[kRowsK], accM[kRowsK];
            for (int r = 0; r < kRowsK; ++r)
                accD[r] = accM[r] = _mm512_setzero_ps();
            if (r0 < live)
                tileK<F, kRowsK>(rp + r0, p, nb, accD, accM);
            for (int r = 0; r < kRowsK; ++r)
                res[r0 + r] = _mm512_sub_ps(accD[r], accM[r]);
        }
        storeTile<2 * kRowsK>(res, out, sStride, live, count);
    };
    tokensInLanes<PackedK, DecodedK, 2 * kRowsK>(n / QK_K, s, sStride, static_cast<const uint8_t*>(w), wStride,
                                                 static_cast<const uint8_t*>(a), aStride, rows, tokens, packK, decode,
                                                 tile);
}

template <class T, GgmlType kType>
void set32(KernelTable& t, std::once_flag& once)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(kType)];
    const GemmFn before = k.gemmRepacked;
    if (!before)
        return;
    std::call_once(once, [before] { previous<kType, 0>() = before; });
    k.gemmRepacked = gemm32<T, kType>;
}

template <class F, GgmlType kType>
void setK(KernelTable& t, std::once_flag& once)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(kType)];
    const GemmFn before = k.gemmRepackedGemm;
    if (!before)
        return;
    std::call_once(once, [before] { previous<kType, 1>() = before; });
    k.gemmRepackedGemm = gemmK<F, kType>;
}

} // namespace

void registerAvx512VnniRepackedKernels(KernelTable& t)
{
    static std::once_flag once[4];
    set32<Q4_0, GgmlType::Q4_0>(t, once[0]);
    set32<IQ4_NL, GgmlType::IQ4_NL>(t, once[1]);
    setK<Q4_K, GgmlType::Q4_K>(t, once[2]);
    setK<Q2_K, GgmlType::Q2_K>(t, once[3]);
}

#else

void registerAvx512VnniRepackedKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
