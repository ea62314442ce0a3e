// AVX-512 attention loops (kernels.h, AttentionKernels) and SwiGLU: the lane orders of
// scalar/attention.cpp in zmm registers, bit for bit. The exponential is
// ggml's AVX-512 ggml_v_expf itself (scalef does ldexp's single rounding).
#include "cpu/attention_lists.h"
#include "cpu/avx512/simd_avx512.h"
#include "cpu/kernels.h"

#include <algorithm>
#include <cmath>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;
using namespace avx512;

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
        attention_lists::column16(acc, lanes, n, i, v);
        out[i] = reduce16(_mm512_loadu_ps(v));
    }
}

// scoresF16x16 for up to four queries at a time, widened to f32 once (f16
// to f32 is exact), so that each K row is converted once for all of them.
template <int NQ>
void scoresBlock(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, int64_t count,
                 const float* qf, int64_t n)
{
    for (int64_t j = 0; j < count; ++j) {
        const auto c = static_cast<size_t>(cells[j]);
        const uint16_t* kr = k + c * kStride;
        __m512 acc[NQ];
        for (auto& a : acc)
            a = _mm512_setzero_ps();
        for (int64_t e = 0; e < n; e += 16) {
            const __m512 kv = loadF16(kr + e);
            for (int g = 0; g < NQ; ++g)
                acc[g] = _mm512_fmadd_ps(kv, _mm512_loadu_ps(qf + g * n + e), acc[g]);
        }
        for (int g = 0; g < NQ; ++g)
            s[static_cast<size_t>(g) * sStride + c] = reduce16(acc[g]);
    }
}

constexpr int64_t kWideMax = 256; // head sizes whose queries are widened

// n (a multiple of 16) f16 values to f32 at dst.
void widenRow(float* dst, const uint16_t* src, int64_t n)
{
    for (int64_t e = 0; e < n; e += 16)
        _mm512_storeu_ps(dst + e, loadF16(src + e));
}

// reduce16 of 16 vectors at once, each sum taken over the same pairs in the
// same tree: (v[i] + v[8+i]), then + the partner 4 lanes up, 2 lanes up,
// 1 lane up. Result lane c holds the sum of v[c].
inline __m512 reduce16x16(const __m512* v)
{
    __m512 x[8], z[4], pr[2];
    for (int k = 0; k < 8; ++k) // a_i = v_i + v_{i+8}: [a(2k) | a(2k+1)]
        x[k] = _mm512_add_ps(_mm512_shuffle_f32x4(v[2 * k], v[2 * k + 1], 0x44),
                             _mm512_shuffle_f32x4(v[2 * k], v[2 * k + 1], 0xEE));
    for (int m = 0; m < 4; ++m) // b_i = a_i + a_{i+4}: block j is cell 4m + j
        z[m] = _mm512_add_ps(_mm512_shuffle_f32x4(x[2 * m], x[2 * m + 1], 0x88),
                             _mm512_shuffle_f32x4(x[2 * m], x[2 * m + 1], 0xDD));
    for (int q = 0; q < 2; ++q) { // c_i = b_i + b_{i+2}
        const __m512d a = _mm512_castps_pd(z[2 * q]), b = _mm512_castps_pd(z[2 * q + 1]);
        pr[q] = _mm512_add_ps(_mm512_castpd_ps(_mm512_unpacklo_pd(a, b)), _mm512_castpd_ps(_mm512_unpackhi_pd(a, b)));
    }
    // d = c_0 + c_1; lane 4j + k then holds cell 4k + j
    const __m512 d = _mm512_add_ps(_mm512_shuffle_ps(pr[0], pr[1], 0x88), _mm512_shuffle_ps(pr[0], pr[1], 0xDD));
    const __m512i back = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_permutexvar_ps(back, d);
}

// Scores of 16 listed cells for nq widened queries: the K rows widened once,
// 16 accumulators per query reduced together.
void scores16(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, const float* qf,
              int nq, int64_t n)
{
    alignas(64) float kf[16 * kWideMax];
    for (int c = 0; c < 16; ++c)
        widenRow(kf + c * n, k + static_cast<size_t>(cells[c]) * kStride, n);
    for (int g = 0; g < nq; ++g) {
        __m512 acc[16];
        for (auto& a : acc)
            a = _mm512_setzero_ps();
        for (int64_t e = 0; e < n; e += 16) {
            const __m512 qv = _mm512_loadu_ps(qf + g * n + e);
            for (int c = 0; c < 16; ++c)
                acc[c] = _mm512_fmadd_ps(_mm512_load_ps(kf + c * n + e), qv, acc[c]);
        }
        alignas(64) float out[16];
        _mm512_store_ps(out, reduce16x16(acc));
        for (int c = 0; c < 16; ++c)
            s[static_cast<size_t>(g) * sStride + static_cast<size_t>(cells[c])] = out[c];
    }
}

void scoresF16x16(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, int64_t count,
                  const uint16_t* q, size_t qStride, int nq, int64_t n)
{
    if (n > kWideMax) {
        attention_lists::scores<dotF16x16>(s, sStride, k, kStride, cells, count, q, qStride, nq, n);
        return;
    }
    alignas(64) float qf[4 * kWideMax];
    for (int g0 = 0; g0 < nq; g0 += 4) {
        const int gn = std::min(4, nq - g0);
        for (int g = 0; g < gn; ++g)
            widenRow(qf + g * n, q + static_cast<size_t>(g0 + g) * qStride, n);
        float* sg = s + static_cast<size_t>(g0) * sStride;
        const int64_t whole = count & ~int64_t{15};
        for (int64_t j = 0; j < whole; j += 16)
            scores16(sg, sStride, k, kStride, cells + j, qf, gn, n);
        const int32_t* rest = cells + whole;
        switch (gn) {
        case 1: scoresBlock<1>(sg, sStride, k, kStride, rest, count - whole, qf, n); break;
        case 2: scoresBlock<2>(sg, sStride, k, kStride, rest, count - whole, qf, n); break;
        case 3: scoresBlock<3>(sg, sStride, k, kStride, rest, count - whole, qf, n); break;
        default: scoresBlock<4>(sg, sStride, k, kStride, rest, count - whole, qf, n); break;
        }
    }
}

// scoresF16x64 of up to 16 listed cells (nc) for nq widened queries (n a
// multiple of 64): per cell dotF16x64's four accumulators folded as it folds
// them, the sixteen cells' sums reduced together.
void scores64x16(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, int nc,
                 const float* qf, int nq, int64_t n)
{
    alignas(64) float kf[16 * kWideMax];
    for (int c = 0; c < nc; ++c)
        widenRow(kf + c * n, k + static_cast<size_t>(cells[c]) * kStride, n);
    for (int g = 0; g < nq; ++g) {
        const float* qg = qf + g * n;
        __m512 folded[16];
        for (int c = 0; c < 16; ++c) {
            if (c >= nc) {
                folded[c] = _mm512_setzero_ps();
                continue;
            }
            __m512 a[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
            for (int64_t e = 0; e < n; e += 64)
                for (int i = 0; i < 4; ++i)
                    a[i] = _mm512_fmadd_ps(_mm512_load_ps(kf + c * n + e + 16 * i), _mm512_loadu_ps(qg + e + 16 * i),
                                           a[i]);
            folded[c] = _mm512_add_ps(_mm512_add_ps(a[0], a[2]), _mm512_add_ps(a[1], a[3]));
        }
        alignas(64) float out[16];
        _mm512_store_ps(out, reduce16x16(folded));
        for (int c = 0; c < nc; ++c)
            s[static_cast<size_t>(g) * sStride + static_cast<size_t>(cells[c])] = out[c];
    }
}

constexpr auto scoresF16x64 = attention_lists::widenedScores<4, 16, kWideMax, 64, dotF16x64, widenRow, scores64x16>;

// pvF16 for up to four queries and 64 columns (from col) at a time: the
// accumulator rows of the current lane stay in registers while the list
// stays in that lane, so a lane-sorted list loads and stores each once. A
// skipped weight masks its fused multiply-adds off (mask3 keeps acc).
template <int NQ>
void pvBlock(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells,
             int64_t count, const float* w, size_t wStride, int64_t n, int64_t col)
{
    __mmask16 m[4];
    for (int i = 0; i < 4; ++i) {
        const int64_t left = std::clamp<int64_t>(n - col - 16 * i, 0, 16);
        m[i] = static_cast<__mmask16>((1u << left) - 1);
    }
    const auto rowStride = static_cast<size_t>(n);
    const __m512 skipMark = _mm512_set1_ps(-0.0f);
    int64_t j = 0;
    while (j < count) {
        const int lane = cells[j] & (lanes - 1);
        float* base = acc + static_cast<size_t>(lane) * rowStride + static_cast<size_t>(col);
        __m512 a[NQ][4];
        for (int g = 0; g < NQ; ++g)
            for (int i = 0; i < 4; ++i)
                a[g][i] = _mm512_maskz_loadu_ps(m[i], base + static_cast<size_t>(g) * accStride + 16 * i);
        for (; j < count && (cells[j] & (lanes - 1)) == lane; ++j) {
            if (j + 4 < count)
                _mm_prefetch(reinterpret_cast<const char*>(v + static_cast<size_t>(cells[j + 4]) * vStride + col),
                             _MM_HINT_T0);
            const uint16_t* vr = v + static_cast<size_t>(cells[j]) * vStride + col;
            __m512 x[4];
            for (int i = 0; i < 4; ++i)
                x[i] = _mm512_cvtph_ps(_mm256_maskz_loadu_epi16(m[i], vr + 16 * i));
            for (int g = 0; g < NQ; ++g) {
                const __m512 vp = _mm512_set1_ps(w[static_cast<size_t>(g) * wStride + static_cast<size_t>(j)]);
                // -0.0 is the only weight equal to it bit for bit
                const __mmask16 keep = static_cast<__mmask16>(
                    ~_mm512_cmpeq_epi32_mask(_mm512_castps_si512(vp), _mm512_castps_si512(skipMark)));
                for (int i = 0; i < 4; ++i)
                    a[g][i] = _mm512_mask3_fmadd_ps(x[i], vp, a[g][i], keep);
            }
        }
        for (int g = 0; g < NQ; ++g)
            for (int i = 0; i < 4; ++i)
                _mm512_mask_storeu_ps(base + static_cast<size_t>(g) * accStride + 16 * i, m[i], a[g][i]);
    }
}

void pvF16(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells,
           int64_t count, const float* w, size_t wStride, int nq, int64_t n)
{
    for (int g0 = 0; g0 < nq; g0 += 4) {
        const int gn = std::min(4, nq - g0);
        float* ag = acc + static_cast<size_t>(g0) * accStride;
        const float* wg = w + static_cast<size_t>(g0) * wStride;
        for (int64_t col = 0; col < n; col += 64) {
            switch (gn) {
            case 1: pvBlock<1>(ag, accStride, lanes, v, vStride, cells, count, wg, wStride, n, col); break;
            case 2: pvBlock<2>(ag, accStride, lanes, v, vStride, cells, count, wg, wStride, n, col); break;
            case 3: pvBlock<3>(ag, accStride, lanes, v, vStride, cells, count, wg, wStride, n, col); break;
            default: pvBlock<4>(ag, accStride, lanes, v, vStride, cells, count, wg, wStride, n, col); break;
            }
        }
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
    t.attention = {dotF16x16, dotF16x64, softmaxExp, axpyF16, axpyF32, reduceLanes, scoresF16x16, pvF16, scoresF16x64};
    t.activation.swiglu = swiglu;
}

#else

void registerAvx512AttentionKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
