// AVX2 kernels for the 32-element block formats (Q4_0, Q4_1, Q5_0, Q5_1,
// Q8_0, IQ4_NL) and their Q8_0 / Q8_1 activation quantizers.
//
// Exact by construction: per block, eight int32 lanes hold the products of
// four consecutive elements (maddubs + madd, as in ggml), each output keeps
// its own 8-lane float accumulator updated with one fused multiply-add per
// block, and the lanes are reduced like ggml's hsum_float_8 — the order of
// scalar/legacy.cpp. Signed 4/5-bit weights are taken unsigned (q + 8,
// q + 16) and the offset times the activations' lane sums is subtracted
// again: the same integers, fewer instructions than sign tricks.
//
// The tile kernel computes R weight rows × C tokens at once so that each
// decoded weight block serves C tokens and each activation block R rows.
#include "quant/legacy.h"
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"
#include "quant/iq4.h"

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

// Per-type decoding: quants() gives the 32 weights as bytes, unsigned
// (value + kOffset) when kSigned is false, else signed with |q| <= 127.
struct Q4_0 {
    using Block = BlockQ4_0;
    using Partner = BlockQ8_0;
    static constexpr int kOffsetShift = 3; // q + 8
    static constexpr bool kSigned = false, kMin = false;
    static __m256i quants(const Block& b) { return nibbles32(b.qs); }
};

struct Q4_1 {
    using Block = BlockQ4_1;
    using Partner = BlockQ8_1;
    static constexpr int kOffsetShift = -1;
    static constexpr bool kSigned = false, kMin = true;
    static __m256i quants(const Block& b) { return nibbles32(b.qs); }
};

struct Q5_0 {
    using Block = BlockQ5_0;
    using Partner = BlockQ8_0;
    static constexpr int kOffsetShift = 4; // q + 16
    static constexpr bool kSigned = false, kMin = false;
    static __m256i quants(const Block& b) { return _mm256_or_si256(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10)); }
};

struct Q5_1 {
    using Block = BlockQ5_1;
    using Partner = BlockQ8_1;
    static constexpr int kOffsetShift = -1;
    static constexpr bool kSigned = false, kMin = true;
    static __m256i quants(const Block& b) { return _mm256_or_si256(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10)); }
};

struct Q8_0 {
    using Block = BlockQ8_0;
    using Partner = BlockQ8_0;
    static constexpr int kOffsetShift = -1;
    static constexpr bool kSigned = true, kMin = false;
    static __m256i quants(const Block& b) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b.qs)); }
};

struct IQ4_NL {
    using Block = BlockIQ4_NL;
    using Partner = BlockQ8_0;
    static constexpr int kOffsetShift = -1;
    static constexpr bool kSigned = true, kMin = false;
    static __m256i quants(const Block& b)
    {
        const __m128i table = _mm_loadu_si128(reinterpret_cast<const __m128i*>(kValuesIQ4NL));
        return _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(table), nibbles32(b.qs));
    }
};

template <class T>
const typename T::Block* blockRow(const uint8_t* w, size_t stride, int r)
{
    return reinterpret_cast<const typename T::Block*>(w + stride * static_cast<size_t>(r));
}

template <class T>
const typename T::Partner* partnerRow(const uint8_t* a, size_t stride, int c)
{
    return reinterpret_cast<const typename T::Partner*>(a + stride * static_cast<size_t>(c));
}

// The first two f16 of a block as floats, [d, m] (partners: [d, s]); for
// formats without m the second value is meaningless and unused.
template <class B>
inline __m128 headOf(const B& b)
{
    uint32_t v;
    std::memcpy(&v, &b, sizeof v);
    return _mm_cvtph_ps(_mm_set1_epi32(static_cast<int>(v)));
}

// [dx, mx] · [dy, sy] gives both of the reference's products per block,
// d = dx·dy for the lanes and m·s, whose running sum (the _1 formats)
// builds up in lane 1 of `ext` in block order as the reference's does.
template <class T, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    __m256 acc[R][C];
    __m128 ext[R][C];
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            acc[r][c] = _mm256_setzero_ps();
            ext[r][c] = _mm_setzero_ps();
        }
    const size_t ahead = prefetchDistance(wStride, R);
    for (int64_t b = 0; b < nb; ++b) {
        __m256i xq[R];
        __m128 dmx[R];
        for (int r = 0; r < R; ++r) {
            const auto& blk = blockRow<T>(w, wStride, r)[b];
            _mm_prefetch(reinterpret_cast<const char*>(&blk) + ahead, _MM_HINT_T0);
            xq[r] = T::quants(blk);
            dmx[r] = headOf(blk);
        }
        for (int c = 0; c < C; ++c) {
            const auto& y = partnerRow<T>(a, aStride, c)[b];
            const __m256i yq = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(y.qs));
            const __m128 dmy = headOf(y);
            __m256i offset = _mm256_setzero_si256();
            if constexpr (T::kOffsetShift >= 0)
                offset = _mm256_slli_epi32(dotU8S8(_mm256_set1_epi8(1), yq), T::kOffsetShift);
            for (int r = 0; r < R; ++r) {
                __m256i lanes;
                if constexpr (T::kSigned)
                    lanes = dotS8S8(xq[r], yq);
                else
                    lanes = _mm256_sub_epi32(dotU8S8(xq[r], yq), offset);
                const __m128 prod = _mm_mul_ps(dmx[r], dmy);
                acc[r][c] = _mm256_fmadd_ps(_mm256_broadcastss_ps(prod), _mm256_cvtepi32_ps(lanes), acc[r][c]);
                if constexpr (T::kMin)
                    ext[r][c] = _mm_add_ps(ext[r][c], prod);
            }
        }
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) {
        float v = hsum8(acc[r][c]);
        if constexpr (T::kMin)
            v += _mm_cvtss_f32(_mm_movehdup_ps(ext[r][c]));
        return v;
    });
}

// Tiles of 2 rows × 4 tokens (8 accumulators, 16 ymm registers in all);
// one token row by row: a single sequential stream, which the hardware
// prefetcher follows (two rows in lockstep: Q8_0 tg at 0.5-0.75x on Zen 4).
template <class T>
struct Tiles : TileShape<32, 2, 4, 1> {
    template <int R, int C>
    static constexpr auto tile = &cpu::tile<T, R, C>;
};

// Activation quantizers as ggml's AVX2 quantize_row_q8_0 / _q8_1: scale
// max|x| / 127, multiply by 127 / max|x|, round half to even.
template <class Block>
void quantizeBlocks(const float* x, Block* y, int64_t n)
{
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    for (int64_t i = 0; i < n / 32; ++i, x += 32) {
        __m256 v[4];
        __m256 maxAbs = _mm256_setzero_ps();
        for (int k = 0; k < 4; ++k) {
            v[k] = _mm256_loadu_ps(x + 8 * k);
            maxAbs = _mm256_max_ps(maxAbs, _mm256_andnot_ps(signBit, v[k]));
        }
        __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(maxAbs, 1), _mm256_castps256_ps128(maxAbs));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        const float amax = _mm_cvtss_f32(m4);
        const float d = amax / 127.0f;
        y[i].d = floatToHalf(d);
        const __m256 mul = _mm256_set1_ps(amax != 0.0f ? 127.0f / amax : 0.0f);
        __m256i q[4];
        for (int k = 0; k < 4; ++k)
            q[k] = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v[k], mul), _MM_FROUND_TO_NEAREST_INT));
        if constexpr (sizeof(Block) == sizeof(BlockQ8_1)) {
            const int sum = hsumI32(_mm256_add_epi32(_mm256_add_epi32(q[0], q[1]), _mm256_add_epi32(q[2], q[3])));
            y[i].s = floatToHalf(d * static_cast<float>(sum));
        }
        const __m256i p16a = _mm256_packs_epi32(q[0], q[1]);
        const __m256i p16b = _mm256_packs_epi32(q[2], q[3]);
        const __m256i p8 = _mm256_packs_epi16(p16a, p16b);
        const __m256i ordered = _mm256_permutevar8x32_epi32(p8, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y[i].qs), ordered);
    }
}

void quantizeQ8_0(const float* x, void* y, int64_t n)
{
    quantizeBlocks(x, static_cast<BlockQ8_0*>(y), n);
}

void quantizeQ8_1(const float* x, void* y, int64_t n)
{
    quantizeBlocks(x, static_cast<BlockQ8_1*>(y), n);
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    // IQ4_NL's lane order here is tinyBLAS's (two tokens or more); its
    // vec_dot pairs blocks (scalar/legacy.cpp).
    const bool sgemm = type == GgmlType::IQ4_NL;
    setTiles<Tiles<T>>(t.types[static_cast<uint32_t>(type)], sgemm ? &TypeKernels::vecDotSgemm : &TypeKernels::vecDot,
                       sgemm ? &TypeKernels::gemmSgemm : &TypeKernels::gemm);
}

} // namespace

void registerAvx2LegacyKernels(KernelTable& t)
{
    set<Q4_0>(t, GgmlType::Q4_0);
    set<Q4_1>(t, GgmlType::Q4_1);
    set<Q5_0>(t, GgmlType::Q5_0);
    set<Q5_1>(t, GgmlType::Q5_1);
    set<Q8_0>(t, GgmlType::Q8_0);
    set<IQ4_NL>(t, GgmlType::IQ4_NL);
    t.types[static_cast<uint32_t>(GgmlType::Q8_0)].fromFloat = quantizeQ8_0;
    t.types[static_cast<uint32_t>(GgmlType::Q8_1)].fromFloat = quantizeQ8_1;
}

#else

void registerAvx2LegacyKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
