// AVX2 kernels for the 256-element super-block formats (Q2_K, Q3_K, Q4_K,
// Q5_K, Q6_K, IQ4_XS) against Q8_K activations.
//
// Exact by construction: per super-block the integer sums are computed in
// 32-element chunks (maddubs, then madd with the sub-block scales) and are
// exact whatever the lane layout; the float arithmetic that follows is the
// scalar reference's, term for term (scalar/k_quants.cpp). Signed quants are
// made unsigned with an offset (Q3_K: q + 4, Q6_K: q + 32) whose share,
// offset · Σ scale · bsum, is subtracted again in integers.
//
// Tiles of R weight rows × C tokens reuse each decoded chunk for C tokens.
#include "quant/k_quants.h"
#include "cpu/avx2/k_quants_formats.h"
#include "cpu/kernels.h"
#include "quant/iq4.h"

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

template <class T, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    float sum[R][C] = {};
    const size_t ahead = prefetchDistance(wStride, R);
    for (int64_t b = 0; b < nb; ++b) {
        typename T::Prep prep[R];
        for (int r = 0; r < R; ++r) {
            prefetchLines(reinterpret_cast<const char*>(&rowOf<T>(w, wStride, r)[b]) + ahead,
                          sizeof(typename T::Block));
            T::prepare(rowOf<T>(w, wStride, r)[b], prep[r]);
        }
        __m256i isum[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                isum[r][c] = _mm256_setzero_si256();
        for (int k = 0; k < QK_K / 32; ++k) {
            __m256i q[R], sc[R];
            for (int r = 0; r < R; ++r) {
                q[r] = T::quants(rowOf<T>(w, wStride, r)[b], prep[r], k);
                sc[r] = T::scales(prep[r], k);
            }
            for (int c = 0; c < C; ++c) {
                const __m256i y = load32(tokenOf(a, aStride, c)[b].qs + 32 * k);
                for (int r = 0; r < R; ++r) {
                    const __m256i p = _mm256_madd_epi16(_mm256_maddubs_epi16(q[r], y), sc[r]);
                    isum[r][c] = _mm256_add_epi32(isum[r][c], p);
                }
            }
        }
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                sum[r][c] +=
                    T::finish(rowOf<T>(w, wStride, r)[b], prep[r], tokenOf(a, aStride, c)[b], hsumI32(isum[r][c]));
    }
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            s[sStride * static_cast<size_t>(c) + static_cast<size_t>(r)] = sum[r][c];
}

// IQ4_XS: the reference adds one float term per sub-block of 32, so the
// integer sums are taken per sub-block (eight at a time with hadd).
inline __m256i sumsOf8(const __m256i* v)
{
    const __m256i a = _mm256_hadd_epi32(v[0], v[1]);
    const __m256i b = _mm256_hadd_epi32(v[2], v[3]);
    const __m256i c = _mm256_hadd_epi32(v[4], v[5]);
    const __m256i d = _mm256_hadd_epi32(v[6], v[7]);
    const __m256i ab = _mm256_hadd_epi32(a, b); // 0 1 2 3 | 0 1 2 3 (halves)
    const __m256i cd = _mm256_hadd_epi32(c, d); // 4 5 6 7 | 4 5 6 7
    const __m256i lo = _mm256_permute2x128_si256(ab, cd, 0x20);
    const __m256i hi = _mm256_permute2x128_si256(ab, cd, 0x31);
    return _mm256_add_epi32(lo, hi);
}

// Adds the block's eight sub-block terms to the running sum, one by one
// as the reference does.
void iq4xsBlock(const BlockIQ4_XS& x, const BlockQ8_K& y, float& sum)
{
    const __m256i table = _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kValuesIQ4NL)));
    __m256i lanes[8];
    for (int sb = 0; sb < 8; ++sb) {
        const __m256i q = _mm256_shuffle_epi8(table, nibbles32(x.qs + 16 * sb));
        lanes[sb] = dotS8S8(q, load32(y.qs + 32 * sb));
    }
    alignas(32) int32_t sumi[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(sumi), sumsOf8(lanes));
    const float d4d8 = halfToFloat(x.d) * y.d;
    for (int sb = 0; sb < 8; ++sb) {
        const int ls = ((x.scalesL[sb / 2] >> (4 * (sb % 2))) & 0x0f) | (((x.scalesH >> (2 * sb)) & 3) << 4);
        sum += d4d8 * static_cast<float>(ls - 32) * static_cast<float>(sumi[sb]);
    }
}

void dotIq4xs(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_XS*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK_K; ++b)
        iq4xsBlock(x[b], y[b], sum);
    *s = sum;
}

template <class T>
void vecDot(int64_t n, float* s, const void* w, const void* a)
{
    tile<T, 1, 1>(n / QK_K, s, 0, static_cast<const uint8_t*>(w), 0, static_cast<const uint8_t*>(a), 0);
}

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
    for (; r < rows; ++r)
        for (int64_t t = 0; t < tokens; ++t)
            run(r, t, tile<T, 1, 1>);
}

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

void registerAvx2KQuantKernels(KernelTable& t)
{
    set<Q2_K>(t, GgmlType::Q2_K);
    set<Q3_K>(t, GgmlType::Q3_K);
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q5_K>(t, GgmlType::Q5_K);
    set<Q6_K>(t, GgmlType::Q6_K);
    (void)dotIq4xs;
    t.types[static_cast<uint32_t>(GgmlType::Q8_K)].fromFloat = quantizeQ8_K;
}

#else

void registerAvx2KQuantKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
