// AVX-512 (F/BW/VL/DQ) kernels for the K-quant formats Q2_K..Q6_K: the AVX2
// chunk decoding of avx2/k_quants_formats.h, two 32-element chunks per zmm,
// so each maddubs / madd covers 64 elements. Exact like the AVX2 kernels:
// the integer sums of a super-block do not depend on the lane layout, and
// the float part is the scalar reference's (formats' finish()).
#include "cpu/avx2/k_quants_formats.h"
#include "cpu/kernels.h"

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

inline __m512i join(__m256i lo, __m256i hi)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

inline int hsum512(__m512i v)
{
    return hsumI32(_mm256_add_epi32(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1)));
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
    for (int64_t b = 0; b < nb; ++b) {
        typename T::Prep prep[R];
        for (int r = 0; r < R; ++r)
            T::prepare(blockAt<T>(w, wStride, r, b), prep[r]);
        __m512i isum[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                isum[r][c] = _mm512_setzero_si512();
        for (int k = 0; k < QK_K / 32; k += 2) {
            __m512i q[R], sc[R];
            for (int r = 0; r < R; ++r) {
                const auto& blk = blockAt<T>(w, wStride, r, b);
                q[r] = join(T::quants(blk, prep[r], k), T::quants(blk, prep[r], k + 1));
                sc[r] = join(T::scales(prep[r], k), T::scales(prep[r], k + 1));
            }
            for (int c = 0; c < C; ++c) {
                const __m512i y = _mm512_loadu_si512(tokenAt(a, aStride, c, b).qs + 32 * k);
                for (int r = 0; r < R; ++r) {
                    const __m512i p = _mm512_madd_epi16(_mm512_maddubs_epi16(q[r], y), sc[r]);
                    isum[r][c] = _mm512_add_epi32(isum[r][c], p);
                }
            }
        }
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                sum[r][c] +=
                    T::finish(blockAt<T>(w, wStride, r, b), prep[r], tokenAt(a, aStride, c, b), hsum512(isum[r][c]));
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

// Tiles of 2 rows × 4 tokens, then the edges.
template <class T>
void gemm(int64_t n, float* s, size_t sStride, const void* wv, size_t wStride, const void* av, size_t aStride,
          int64_t rows, int64_t tokens)
{
    constexpr int R = 2, C = 4;
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

template <class T>
void set(KernelTable& t, GgmlType type)
{
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    k.vecDot = vecDot<T>;
    k.gemm = gemm<T>;
}

} // namespace

void registerAvx512KQuantKernels(KernelTable& t)
{
    set<Q2_K>(t, GgmlType::Q2_K);
    set<Q3_K>(t, GgmlType::Q3_K);
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q5_K>(t, GgmlType::Q5_K);
    set<Q6_K>(t, GgmlType::Q6_K);
}

#else

void registerAvx512KQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
