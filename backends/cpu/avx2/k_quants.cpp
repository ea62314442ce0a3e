// AVX2 kernels for the 256-element super-block formats (Q2_K, Q3_K, Q4_K,
// Q5_K, Q6_K, IQ4_XS) against Q8_K activations, in both of the reference's
// orders: vec_dot (scalar/k_quants.cpp) and tiled (scalar/tiled.cpp).
//
// Per super-block the tile forms the eight exact int32 lanes of the
// reference (maddubs then madd with the sub-block scales: lane l of chunk k
// holds elements 32k + 4l .. 32k + 4l + 3, as in kq::lanes8); the float
// steps of the order follow (k_quants_orders.h). Q3_K's quants enter offset
// by 4 and each pair of products loses the offset's share again
// (maddubs(4, y), shared by the tile's rows); IQ4_XS's signed values move
// their sign onto the activations.
//
// Tiles of R weight rows × C tokens reuse each decoded chunk for C tokens.
#include "quant/k_quants.h"
#include "cpu/avx2/k_quants_formats.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

template <class T>
const typename T::Block* rowOf(const uint8_t* w, size_t stride, int r)
{
    return reinterpret_cast<const typename T::Block*>(w + stride * static_cast<size_t>(r));
}

inline const BlockQ8_K* tokenOf(const uint8_t* a, size_t stride, int c)
{
    return reinterpret_cast<const BlockQ8_K*>(a + stride * static_cast<size_t>(c));
}

// Chunk k's 16-bit pair sums of q·y for one weight row (qa = |q| where
// kSigned) and one token (corr = maddubs(kOffset, y) where kOffset).
template <class T>
inline __m256i pairSums(__m256i q, __m256i qa, __m256i y, __m256i corr)
{
    if constexpr (T::kSigned)
        return _mm256_maddubs_epi16(qa, _mm256_sign_epi8(y, q));
    else if constexpr (T::kOffset != 0)
        return _mm256_sub_epi16(_mm256_maddubs_epi16(q, y), corr);
    else
        return _mm256_maddubs_epi16(q, y);
}

template <class T, class O, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    typename O::Acc acc[R][C] = {};
    const size_t ahead = prefetchDistance(wStride, R);
    for (int64_t b = 0; b < nb; ++b) {
        typename T::Prep prep[R];
        for (int r = 0; r < R; ++r) {
            prefetchLines(reinterpret_cast<const char*>(&rowOf<T>(w, wStride, r)[b]) + ahead,
                          sizeof(typename T::Block));
            T::prepare(rowOf<T>(w, wStride, r)[b], prep[r]);
        }
        __m256i lanes[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                lanes[r][c] = _mm256_setzero_si256();
        for (int k = 0; k < QK_K / 32; ++k) {
            __m256i q[R], qa[R], sc[R];
            for (int r = 0; r < R; ++r) {
                q[r] = T::quants(rowOf<T>(w, wStride, r)[b], prep[r], k);
                qa[r] = T::kSigned ? _mm256_sign_epi8(q[r], q[r]) : q[r];
                sc[r] = T::scales(prep[r], k);
            }
            for (int c = 0; c < C; ++c) {
                const __m256i y = load32(tokenOf(a, aStride, c)[b].qs + 32 * k);
                const __m256i corr = T::kOffset != 0
                                         ? _mm256_maddubs_epi16(_mm256_set1_epi8(static_cast<char>(T::kOffset)), y)
                                         : _mm256_setzero_si256();
                for (int r = 0; r < R; ++r) {
                    const __m256i p = _mm256_madd_epi16(pairSums<T>(q[r], qa[r], y, corr), sc[r]);
                    lanes[r][c] = _mm256_add_epi32(lanes[r][c], p);
                }
            }
        }
        const typename T::Block* xs[R];
        const BlockQ8_K* ys[C];
        for (int r = 0; r < R; ++r)
            xs[r] = &rowOf<T>(w, wStride, r)[b];
        for (int c = 0; c < C; ++c)
            ys[c] = &tokenOf(a, aStride, c)[b];
        O::template addAll<T, R, C>(acc, xs, prep, ys, lanes);
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) { return O::template result<T>(acc[r][c]); });
}

// Tiles of 2 rows × 4 tokens for batches; one token takes its rows one at
// a time: no gain from sharing the activations, only register pressure.
template <class T, class O>
struct Tiles : TileShape<QK_K, 2, 4, 1> {
    template <int R, int C>
    static constexpr auto tile = &cpu::tile<T, O, R, C>;
};

// Activations to Q8_K exactly as the reference (quantizeRowQ8_K): the
// value of largest magnitude (its first occurrence) maps to -127, quants
// rounded half to even and capped at 127, sums of 16.
void quantizeQ8_K(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<BlockQ8_K*>(yv);
    const __m256 signBit = _mm256_set1_ps(-0.0f);
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        __m256 amax = _mm256_setzero_ps();
        for (int k = 0; k < 32; ++k) // max_ps(|x|, acc) keeps acc where |x| is NaN, like the reference
            amax = _mm256_max_ps(_mm256_andnot_ps(signBit, _mm256_loadu_ps(x + 8 * k)), amax);
        __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(amax, 1), _mm256_castps256_ps128(amax));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        const float m = _mm_cvtss_f32(m4);
        BlockQ8_K& out = y[i];
        if (m == 0.0f) {
            std::memset(&out, 0, sizeof out);
            continue;
        }
        float max = 0.0f;
        for (int j = 0; j < QK_K; ++j) {
            if (x[j] == m || x[j] == -m) {
                max = x[j];
                break;
            }
        }
        const __m256 scale = _mm256_set1_ps(-127.0f / max);
        for (int k = 0; k < 16; ++k) {
            __m256i q[2];
            for (int h = 0; h < 2; ++h)
                q[h] = _mm256_min_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(scale, _mm256_loadu_ps(x + 16 * k + 8 * h))),
                                        _mm256_set1_epi32(127));
            out.bsums[k] = static_cast<int16_t>(hsumI32(_mm256_add_epi32(q[0], q[1])));
            const __m256i p16 = _mm256_packs_epi32(q[0], q[1]); // 0-3 8-11 | 4-7 12-15
            const __m128i p8 = _mm_packs_epi16(_mm256_castsi256_si128(p16), _mm256_extracti128_si256(p16, 1));
            // p8: 0-3 8-11 4-7 12-15 → element order
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out.qs + 16 * k),
                             _mm_shuffle_epi32(p8, _MM_SHUFFLE(3, 1, 2, 0)));
        }
        out.d = 1.0f / (-127.0f / max);
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

void registerAvx2KQuantKernels(KernelTable& t)
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

void registerAvx2KQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
