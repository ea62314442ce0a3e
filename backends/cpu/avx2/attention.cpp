// AVX2 attention loops (kernels.h, AttentionKernels) and SwiGLU: the lane orders of
// scalar/attention.cpp with each 16-lane accumulator held in two ymm
// registers, bit for bit. The exponential is ggml's AVX-512 ggml_v_expf
// lane for lane; its final ldexp is done in two exact-then-rounding steps.
#include "cpu/attention_lists.h"
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"

#include <cmath>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

struct V16 {
    __m256 lo, hi;
};

inline float reduce16(V16 v)
{
    return hsum8(_mm256_add_ps(v.hi, v.lo));
}

inline __m256 loadF16(const uint16_t* p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

float dotF16x16(const uint16_t* k, const uint16_t* q, int64_t n)
{
    V16 acc{_mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int64_t e = 0; e < n; e += 16) {
        acc.lo = _mm256_fmadd_ps(loadF16(k + e), loadF16(q + e), acc.lo);
        acc.hi = _mm256_fmadd_ps(loadF16(k + e + 8), loadF16(q + e + 8), acc.hi);
    }
    return reduce16(acc);
}

float dotF16x64(const uint16_t* k, const uint16_t* q, int64_t n)
{
    __m256 acc[8];
    for (auto& a : acc)
        a = _mm256_setzero_ps();
    const int64_t vec = n & ~int64_t{63};
    for (int64_t e = 0; e < vec; e += 64)
        for (int j = 0; j < 8; ++j)
            acc[j] = _mm256_fmadd_ps(loadF16(k + e + 8 * j), loadF16(q + e + 8 * j), acc[j]);
    // acc[0..1] lanes 0-15, [2..3] 16-31, [4..5] 32-47, [6..7] 48-63.
    for (int h = 0; h < 2; ++h) {
        acc[h] = _mm256_add_ps(acc[h], acc[4 + h]);
        acc[2 + h] = _mm256_add_ps(acc[2 + h], acc[6 + h]);
        acc[h] = _mm256_add_ps(acc[h], acc[2 + h]);
    }
    double sum = reduce16({acc[0], acc[1]});
    for (int64_t e = vec; e < n; ++e)
        sum += static_cast<double>(halfToFloat(k[e]) * halfToFloat(q[e]));
    return static_cast<float>(sum);
}

// 2^k for integer k in [-126, 127], as float bits.
inline __m256 pow2(__m256i k)
{
    return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
}

// ggml_v_expf (AVX-512) lane for lane. ldexp(j, n): j is in [0.7, 1.5], so
// j · 2^clamp(n, -125, 127) is exact and the second factor rounds once.
inline __m256 expf8(__m256 x)
{
    const __m256 r = _mm256_set1_ps(0x1.8p23f);
    const __m256 z = _mm256_fmadd_ps(x, _mm256_set1_ps(0x1.715476p+0f), r);
    const __m256 n = _mm256_sub_ps(z, r);
    const __m256 b =
        _mm256_fnmadd_ps(n, _mm256_set1_ps(0x1.7f7d1cp-20f), _mm256_fnmadd_ps(n, _mm256_set1_ps(0x1.62e4p-1f), x));
    const __m256 u = _mm256_mul_ps(b, b);
    const __m256 j = _mm256_fmadd_ps(
        _mm256_fmadd_ps(_mm256_fmadd_ps(_mm256_set1_ps(0x1.0e4020p-7f), b, _mm256_set1_ps(0x1.573e2ep-5f)), u,
                        _mm256_fmadd_ps(_mm256_set1_ps(0x1.555e66p-3f), b, _mm256_set1_ps(0x1.fffdb6p-2f))),
        u, _mm256_fmadd_ps(_mm256_set1_ps(0x1.ffffecp-1f), b, _mm256_set1_ps(1.0f)));
    const __m256 absN = _mm256_andnot_ps(_mm256_set1_ps(-0.0f), n);
    const __m256 big = _mm256_cmp_ps(absN, _mm256_set1_ps(192.0f), _CMP_GT_OQ);
    const __m256i ni =
        _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(n, _mm256_set1_ps(-192.0f)), _mm256_set1_ps(192.0f)));
    const __m256i n1 = _mm256_min_epi32(_mm256_max_epi32(ni, _mm256_set1_epi32(-125)), _mm256_set1_epi32(127));
    const __m256 res = _mm256_mul_ps(_mm256_mul_ps(j, pow2(n1)), pow2(_mm256_sub_epi32(ni, n1)));
    const __m256 nonPositive = _mm256_cmp_ps(n, _mm256_setzero_ps(), _CMP_LE_OQ);
    const __m256 alt = _mm256_blendv_ps(_mm256_set1_ps(INFINITY), _mm256_setzero_ps(), nonPositive);
    return _mm256_blendv_ps(res, alt, big);
}

double softmaxExp(float* s, int64_t n, float max)
{
    const __m256 vmax = _mm256_set1_ps(max);
    const __m256 masked = _mm256_set1_ps(-INFINITY);
    double sum = 0.0;
    for (int64_t c = 0; c < n; c += 16) {
        alignas(32) float chunk[16];
        const int64_t live = n - c < 16 ? n - c : 16;
        for (int i = 0; i < 16; ++i)
            chunk[i] = i < live ? s[c + i] : -INFINITY;
        V16 e;
        for (int h = 0; h < 2; ++h) {
            const __m256 x = _mm256_load_ps(chunk + 8 * h);
            const __m256 keep = _mm256_cmp_ps(x, masked, _CMP_NEQ_UQ);
            const __m256 v = _mm256_and_ps(keep, expf8(_mm256_sub_ps(x, vmax)));
            _mm256_store_ps(chunk + 8 * h, v);
            (h == 0 ? e.lo : e.hi) = v;
        }
        for (int64_t i = 0; i < live; ++i)
            s[c + i] = chunk[i];
        sum += static_cast<double>(reduce16(e));
    }
    return sum;
}

void axpyF16(float* acc, const uint16_t* v, float p, int64_t n)
{
    const __m256 vp = _mm256_set1_ps(p);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(acc + i, _mm256_fmadd_ps(loadF16(v + i), vp, _mm256_loadu_ps(acc + i)));
    for (; i < n; ++i)
        acc[i] = std::fma(halfToFloat(v[i]), p, acc[i]);
}

void axpyF32(float* acc, const float* v, float p, int64_t n)
{
    const __m256 vp = _mm256_set1_ps(p);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(acc + i, _mm256_fmadd_ps(_mm256_loadu_ps(v + i), vp, _mm256_loadu_ps(acc + i)));
    for (; i < n; ++i)
        acc[i] = std::fma(v[i], p, acc[i]);
}

// The reduction of scalar/attention.cpp for 8 columns at once.
void reduceColumns(const float* acc, int lanes, int64_t n, int64_t i, float* out)
{
    const auto row = [&](int l) { return _mm256_loadu_ps(acc + static_cast<int64_t>(l) * n + i); };
    __m256 v[16];
    for (int l = 0; l < 16; ++l)
        v[l] = row(l);
    if (lanes == 64)
        for (int t = 0; t < 16; ++t)
            v[t] = _mm256_add_ps(_mm256_add_ps(v[t], row(32 + t)), _mm256_add_ps(row(16 + t), row(48 + t)));
    __m256 t3[8], t6[4];
    for (int k = 0; k < 8; ++k)
        t3[k] = _mm256_add_ps(v[8 + k], v[k]);
    for (int k = 0; k < 4; ++k)
        t6[k] = _mm256_add_ps(t3[4 + k], t3[k]);
    _mm256_storeu_ps(out + i, _mm256_add_ps(_mm256_add_ps(t6[0], t6[2]), _mm256_add_ps(t6[1], t6[3])));
}

void reduceLanes(const float* acc, int lanes, int64_t n, float* out)
{
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        reduceColumns(acc, lanes, n, i, out);
    for (; i < n; ++i) {
        float v[64];
        attention_lists::column16(acc, lanes, n, i, v);
        out[i] = reduce16({_mm256_loadu_ps(v), _mm256_loadu_ps(v + 8)});
    }
}

void swiglu(const float* x, const float* y, float* out, int64_t n)
{
    const int64_t vec = n & ~int64_t{15};
    for (int64_t i = 0; i < vec; i += 8) {
        const __m256 v = _mm256_loadu_ps(x + i);
        const __m256 e = expf8(_mm256_sub_ps(_mm256_setzero_ps(), v));
        const __m256 silu = _mm256_div_ps(v, _mm256_add_ps(_mm256_set1_ps(1.0f), e));
        _mm256_storeu_ps(out + i, _mm256_mul_ps(silu, _mm256_loadu_ps(y + i)));
    }
    for (int64_t i = vec; i < n; ++i)
        out[i] = x[i] / (1.0f + std::exp(-x[i])) * y[i];
}

} // namespace

void registerAvx2AttentionKernels(KernelTable& t)
{
    t.attention = attention_lists::table<dotF16x16, dotF16x64, softmaxExp, axpyF16, axpyF32, reduceLanes>();
    t.activation.swiglu = swiglu;
}

#else

void registerAvx2AttentionKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
