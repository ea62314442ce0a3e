// AVX-512 attention loops (kernels.h, AttentionKernels) and SwiGLU: the lane orders of
// scalar/attention.cpp in zmm registers, bit for bit. The exponential is
// ggml's AVX-512 ggml_v_expf itself (scalef does ldexp's single rounding).
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"

#include <cmath>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

inline float reduce16(__m512 v)
{
    return hsum8(_mm256_add_ps(_mm512_extractf32x8_ps(v, 1), _mm512_castps512_ps256(v)));
}

inline __m512 loadF16(const uint16_t* p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
}

float dotF16x16(const uint16_t* k, const uint16_t* q, int64_t n)
{
    __m512 acc = _mm512_setzero_ps();
    for (int64_t e = 0; e < n; e += 16)
        acc = _mm512_fmadd_ps(loadF16(k + e), loadF16(q + e), acc);
    return reduce16(acc);
}

float dotF16x64(const uint16_t* k, const uint16_t* q, int64_t n)
{
    __m512 acc[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    const int64_t vec = n & ~int64_t{63};
    for (int64_t e = 0; e < vec; e += 64)
        for (int j = 0; j < 4; ++j)
            acc[j] = _mm512_fmadd_ps(loadF16(k + e + 16 * j), loadF16(q + e + 16 * j), acc[j]);
    acc[0] = _mm512_add_ps(acc[0], acc[2]);
    acc[1] = _mm512_add_ps(acc[1], acc[3]);
    double sum = reduce16(_mm512_add_ps(acc[0], acc[1]));
    for (int64_t e = vec; e < n; ++e)
        sum += static_cast<double>(halfToFloat(k[e]) * halfToFloat(q[e]));
    return static_cast<float>(sum);
}

// ggml_v_expf (AVX-512).
inline __m512 expf16(__m512 x)
{
    const __m512 r = _mm512_set1_ps(0x1.8p23f);
    const __m512 z = _mm512_fmadd_ps(x, _mm512_set1_ps(0x1.715476p+0f), r);
    const __m512 n = _mm512_sub_ps(z, r);
    const __m512 b =
        _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.7f7d1cp-20f), _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.62e4p-1f), x));
    const __mmask16 big = _mm512_cmp_ps_mask(_mm512_abs_ps(n), _mm512_set1_ps(192.0f), _CMP_GT_OQ);
    const __m512 u = _mm512_mul_ps(b, b);
    const __m512 j = _mm512_fmadd_ps(
        _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_set1_ps(0x1.0e4020p-7f), b, _mm512_set1_ps(0x1.573e2ep-5f)), u,
                        _mm512_fmadd_ps(_mm512_set1_ps(0x1.555e66p-3f), b, _mm512_set1_ps(0x1.fffdb6p-2f))),
        u, _mm512_fmadd_ps(_mm512_set1_ps(0x1.ffffecp-1f), b, _mm512_set1_ps(1.0f)));
    const __m512 res = _mm512_scalef_ps(j, n);
    const __mmask16 nonPositive = _mm512_cmp_ps_mask(n, _mm512_setzero_ps(), _CMP_LE_OQ);
    const __m512 alt = _mm512_mask_blend_ps(nonPositive, _mm512_set1_ps(INFINITY), _mm512_setzero_ps());
    return _mm512_mask_blend_ps(big, res, alt);
}

double softmaxExp(float* s, int64_t n, float max)
{
    const __m512 vmax = _mm512_set1_ps(max);
    const __m512 masked = _mm512_set1_ps(-INFINITY);
    double sum = 0.0;
    for (int64_t c = 0; c < n; c += 16) {
        const __mmask16 live = n - c >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - c)) - 1);
        const __m512 x = _mm512_mask_loadu_ps(masked, live, s + c);
        const __mmask16 keep = _mm512_cmp_ps_mask(x, masked, _CMP_NEQ_UQ);
        const __m512 e = _mm512_maskz_mov_ps(keep, expf16(_mm512_sub_ps(x, vmax)));
        _mm512_mask_storeu_ps(s + c, live, e);
        sum += static_cast<double>(reduce16(e));
    }
    return sum;
}

void axpyF16(float* acc, const uint16_t* v, float p, int64_t n)
{
    const __m512 vp = _mm512_set1_ps(p);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(acc + i, _mm512_fmadd_ps(loadF16(v + i), vp, _mm512_loadu_ps(acc + i)));
    for (; i < n; ++i)
        acc[i] = std::fma(halfToFloat(v[i]), p, acc[i]);
}

void axpyF32(float* acc, const float* v, float p, int64_t n)
{
    const __m512 vp = _mm512_set1_ps(p);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(acc + i, _mm512_fmadd_ps(_mm512_loadu_ps(v + i), vp, _mm512_loadu_ps(acc + i)));
    for (; i < n; ++i)
        acc[i] = std::fma(v[i], p, acc[i]);
}

// The reduction of scalar/attention.cpp for 16 columns at once: the lanes
// are rows of `acc`, the columns i..i+15 the values being reduced.
void reduceColumns(const float* acc, int lanes, int64_t n, int64_t i, float* out)
{
    const auto row = [&](int l) { return _mm512_loadu_ps(acc + static_cast<int64_t>(l) * n + i); };
    __m512 v[16];
    for (int l = 0; l < 16; ++l)
        v[l] = row(l);
    if (lanes == 64) {
        for (int t = 0; t < 16; ++t) {
            v[t] = _mm512_add_ps(v[t], row(32 + t));                             // acc[t] += acc[32 + t]
            v[t] = _mm512_add_ps(v[t], _mm512_add_ps(row(16 + t), row(48 + t))); // then += (acc[16+t] + acc[48+t])
        }
    }
    __m512 t3[8], t6[4];
    for (int k = 0; k < 8; ++k)
        t3[k] = _mm512_add_ps(v[8 + k], v[k]);
    for (int k = 0; k < 4; ++k)
        t6[k] = _mm512_add_ps(t3[4 + k], t3[k]);
    _mm512_storeu_ps(out + i, _mm512_add_ps(_mm512_add_ps(t6[0], t6[2]), _mm512_add_ps(t6[1], t6[3])));
}

void reduceLanes(const float* acc, int lanes, int64_t n, float* out)
{
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        reduceColumns(acc, lanes, n, i, out);
    float v[64];
    for (; i < n; ++i) {
        for (int l = 0; l < lanes; ++l)
            v[l] = acc[static_cast<int64_t>(l) * n + i];
        if (lanes == 64) {
            for (int t = 0; t < 16; ++t) {
                v[t] += v[32 + t];
                v[16 + t] += v[48 + t];
            }
            for (int t = 0; t < 16; ++t)
                v[t] += v[16 + t];
        }
        out[i] = reduce16(_mm512_loadu_ps(v));
    }
}

void swiglu(const float* x, const float* y, float* out, int64_t n)
{
    const int64_t vec = n & ~int64_t{15};
    for (int64_t i = 0; i < vec; i += 16) {
        const __m512 v = _mm512_loadu_ps(x + i);
        const __m512 e = expf16(_mm512_sub_ps(_mm512_setzero_ps(), v));
        const __m512 silu = _mm512_div_ps(v, _mm512_add_ps(_mm512_set1_ps(1.0f), e));
        _mm512_storeu_ps(out + i, _mm512_mul_ps(silu, _mm512_loadu_ps(y + i)));
    }
    for (int64_t i = vec; i < n; ++i)
        out[i] = x[i] / (1.0f + std::exp(-x[i])) * y[i];
}

} // namespace

void registerAvx512AttentionKernels(KernelTable& t)
{
    t.attention = {dotF16x16, dotF16x64, softmaxExp, axpyF16, axpyF32, reduceLanes};
    t.activation.swiglu = swiglu;
}

#else

void registerAvx512AttentionKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
