// AVX2 attention loops (kernels.h, AttentionKernels) and SwiGLU: the lane orders of
// scalar/attention.cpp with each 16-lane accumulator held in two ymm
// registers, bit for bit. The exponential is ggml's AVX-512 ggml_v_expf
// lane for lane; its final ldexp is done in two exact-then-rounding steps.
#include "cpu/attention_lists.h"
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"

#include <algorithm>
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

// n (a multiple of 8) f16 values to f32 at dst (32-byte aligned).
void widenRow(float* dst, const uint16_t* src, int64_t n)
{
    for (int64_t e = 0; e < n; e += 8)
        _mm256_store_ps(dst + e, loadF16(src + e));
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

// reduce16 of 8 accumulators at once, each already folded to hi + lo: the
// same pairs in the same tree as hsum8 (4 lanes up, 2 up, 1 up), 8 sums
// side by side. Lane c of the result is the sum of s[c].
inline __m256 reduce16x8(const __m256* s)
{
    __m256 x[4], y[2];
    for (int k = 0; k < 4; ++k) // halves: [s(2k) folded | s(2k+1) folded]
        x[k] = _mm256_add_ps(_mm256_permute2f128_ps(s[2 * k], s[2 * k + 1], 0x31),
                             _mm256_permute2f128_ps(s[2 * k], s[2 * k + 1], 0x20));
    for (int m = 0; m < 2; ++m) // per half: [l0+l2, l1+l3] of two sums
        y[m] = _mm256_add_ps(_mm256_shuffle_ps(x[2 * m], x[2 * m + 1], _MM_SHUFFLE(1, 0, 1, 0)),
                             _mm256_shuffle_ps(x[2 * m], x[2 * m + 1], _MM_SHUFFLE(3, 2, 3, 2)));
    // lanes now hold sums 0, 2, 4, 6 | 1, 3, 5, 7
    const __m256 z = _mm256_add_ps(_mm256_shuffle_ps(y[0], y[1], _MM_SHUFFLE(2, 0, 2, 0)),
                                   _mm256_shuffle_ps(y[0], y[1], _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm256_permutevar8x32_ps(z, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

constexpr int64_t kWideMax = 256; // head sizes whose rows are widened to f32
constexpr int kWideQueries = 16;  // queries widened at a time

// Scores of up to 8 listed cells (nc) for nq widened queries: the K rows
// widened once for all of them, four cells' two-register accumulators at a
// time, and the eight sums of a query reduced together.
void scores8(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, int nc, const float* qf,
             int nq, int64_t n)
{
    alignas(32) float kf[8 * kWideMax];
    for (int c = 0; c < 8; ++c) {
        if (c < nc)
            widenRow(kf + c * n, k + static_cast<size_t>(cells[c]) * kStride, n);
        else
            std::fill(kf + c * n, kf + (c + 1) * n, 0.0f);
    }
    for (int g = 0; g < nq; ++g) {
        const float* qg = qf + g * n;
        __m256 folded[8];
        for (int c0 = 0; c0 < 8; c0 += 4) {
            __m256 lo[4], hi[4];
            for (int c = 0; c < 4; ++c)
                lo[c] = hi[c] = _mm256_setzero_ps();
            for (int64_t e = 0; e < n; e += 16) {
                const __m256 q0 = _mm256_loadu_ps(qg + e), q1 = _mm256_loadu_ps(qg + e + 8);
                for (int c = 0; c < 4; ++c) {
                    const float* kr = kf + (c0 + c) * n + e;
                    lo[c] = _mm256_fmadd_ps(_mm256_load_ps(kr), q0, lo[c]);
                    hi[c] = _mm256_fmadd_ps(_mm256_load_ps(kr + 8), q1, hi[c]);
                }
            }
            for (int c = 0; c < 4; ++c)
                folded[c0 + c] = _mm256_add_ps(hi[c], lo[c]);
        }
        alignas(32) float out[8];
        _mm256_store_ps(out, reduce16x8(folded));
        for (int c = 0; c < nc; ++c)
            s[static_cast<size_t>(g) * sStride + static_cast<size_t>(cells[c])] = out[c];
    }
}

// scoresF16x16 (kernels.h): 8 cells at a time for up to 16 widened queries.
constexpr auto scoresF16x16 =
    attention_lists::widenedScores<kWideQueries, 8, kWideMax, 16, dotF16x16, widenRow, scores8>;

// scoresF16x64 of up to 8 listed cells for nq widened queries (n a multiple
// of 64): per cell dotF16x64's eight accumulators, folded as it folds them,
// the eight cells' sums reduced together.
void scores64x8(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, int nc,
                const float* qf, int nq, int64_t n)
{
    alignas(32) float kf[8 * kWideMax];
    for (int c = 0; c < nc; ++c)
        widenRow(kf + c * n, k + static_cast<size_t>(cells[c]) * kStride, n);
    for (int g = 0; g < nq; ++g) {
        const float* qg = qf + g * n;
        __m256 folded[8];
        for (int c = 0; c < 8; ++c) {
            if (c >= nc) {
                folded[c] = _mm256_setzero_ps();
                continue;
            }
            __m256 a[8];
            for (auto& x : a)
                x = _mm256_setzero_ps();
            for (int64_t e = 0; e < n; e += 64)
                for (int i = 0; i < 8; ++i)
                    a[i] =
                        _mm256_fmadd_ps(_mm256_load_ps(kf + c * n + e + 8 * i), _mm256_loadu_ps(qg + e + 8 * i), a[i]);
            for (int h = 0; h < 2; ++h) {
                a[h] = _mm256_add_ps(a[h], a[4 + h]);
                a[2 + h] = _mm256_add_ps(a[2 + h], a[6 + h]);
                a[h] = _mm256_add_ps(a[h], a[2 + h]);
            }
            folded[c] = _mm256_add_ps(a[1], a[0]);
        }
        alignas(32) float out[8];
        _mm256_store_ps(out, reduce16x8(folded));
        for (int c = 0; c < nc; ++c)
            s[static_cast<size_t>(g) * sStride + static_cast<size_t>(cells[c])] = out[c];
    }
}

constexpr auto scoresF16x64 =
    attention_lists::widenedScores<kWideQueries, 8, kWideMax, 64, dotF16x64, widenRow, scores64x8>;

// pvF16 for NQ queries and NV·8 columns (from col): the accumulator rows of
// the current lane stay in registers while the list stays in that lane, so
// a lane-sorted list loads and stores each once; each V row is widened once
// for the NQ queries. A skipped weight (-0.0) leaves its query's row alone.
template <int NQ, int NV>
void pvBlock(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells,
             int64_t count, const float* w, size_t wStride, int64_t n, int64_t col)
{
    const auto rowStride = static_cast<size_t>(n);
    int64_t j = 0;
    while (j < count) {
        const int lane = cells[j] & (lanes - 1);
        float* base = acc + static_cast<size_t>(lane) * rowStride + static_cast<size_t>(col);
        __m256 a[NQ][NV];
        for (int g = 0; g < NQ; ++g)
            for (int i = 0; i < NV; ++i)
                a[g][i] = _mm256_loadu_ps(base + static_cast<size_t>(g) * accStride + 8 * i);
        for (; j < count && (cells[j] & (lanes - 1)) == lane; ++j) {
            if (j + 4 < count)
                _mm_prefetch(reinterpret_cast<const char*>(v + static_cast<size_t>(cells[j + 4]) * vStride + col),
                             _MM_HINT_T0);
            const uint16_t* vr = v + static_cast<size_t>(cells[j]) * vStride + col;
            float p[NQ];
            bool skip = false;
            for (int g = 0; g < NQ; ++g) {
                p[g] = w[static_cast<size_t>(g) * wStride + static_cast<size_t>(j)];
                skip |= attention_lists::skipped(p[g]);
            }
            if (!skip) { // the common case: weights in registers, one V register at a time
                __m256 b[NQ];
                for (int g = 0; g < NQ; ++g)
                    b[g] = _mm256_set1_ps(p[g]);
                for (int i = 0; i < NV; ++i) {
                    const __m256 x = loadF16(vr + 8 * i);
                    for (int g = 0; g < NQ; ++g)
                        a[g][i] = _mm256_fmadd_ps(x, b[g], a[g][i]);
                }
                continue;
            }
            for (int g = 0; g < NQ; ++g) { // a skip mark among them: query by query
                if (attention_lists::skipped(p[g]))
                    continue;
                const __m256 b = _mm256_set1_ps(p[g]);
                for (int i = 0; i < NV; ++i)
                    a[g][i] = _mm256_fmadd_ps(loadF16(vr + 8 * i), b, a[g][i]);
            }
        }
        for (int g = 0; g < NQ; ++g)
            for (int i = 0; i < NV; ++i)
                _mm256_storeu_ps(base + static_cast<size_t>(g) * accStride + 8 * i, a[g][i]);
    }
}

// The columns [col, n) of fewer than 8, one value at a time in list order.
void pvTail(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells,
            int64_t count, const float* w, size_t wStride, int nq, int64_t n, int64_t col)
{
    for (int64_t j = 0; j < count; ++j) {
        const int32_t c = cells[j];
        const auto row = static_cast<size_t>(c % lanes) * static_cast<size_t>(n);
        for (int g = 0; g < nq; ++g) {
            const float p = w[static_cast<size_t>(g) * wStride + static_cast<size_t>(j)];
            if (attention_lists::skipped(p))
                continue;
            float* r = acc + static_cast<size_t>(g) * accStride + row;
            for (int64_t i = col; i < n; ++i)
                r[i] = std::fma(halfToFloat(v[static_cast<size_t>(c) * vStride + static_cast<size_t>(i)]), p, r[i]);
        }
    }
}

// Columns in blocks of NV·8, then of 8, then the last few.
template <int NQ, int NV>
void pvColumns(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells,
               int64_t count, const float* w, size_t wStride, int64_t n)
{
    int64_t col = 0;
    for (; col + 8 * NV <= n; col += 8 * NV)
        pvBlock<NQ, NV>(acc, accStride, lanes, v, vStride, cells, count, w, wStride, n, col);
    for (; col + 8 <= n; col += 8)
        pvBlock<NQ, 1>(acc, accStride, lanes, v, vStride, cells, count, w, wStride, n, col);
    if (col < n)
        pvTail(acc, accStride, lanes, v, vStride, cells, count, w, wStride, NQ, n, col);
}

void pvF16(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells,
           int64_t count, const float* w, size_t wStride, int nq, int64_t n)
{
    // Queries three at a time (12 accumulators, 3 weights and a V register
    // fill the 16), each pass over the list covering 32 columns; then the
    // last one or two.
    for (int g0 = 0; g0 < nq;) {
        const int gn = nq - g0 >= 3 ? 3 : nq - g0;
        float* ag = acc + static_cast<size_t>(g0) * accStride;
        const float* wg = w + static_cast<size_t>(g0) * wStride;
        switch (gn) {
        case 1: pvColumns<1, 8>(ag, accStride, lanes, v, vStride, cells, count, wg, wStride, n); break;
        case 2: pvColumns<2, 4>(ag, accStride, lanes, v, vStride, cells, count, wg, wStride, n); break;
        default: pvColumns<3, 4>(ag, accStride, lanes, v, vStride, cells, count, wg, wStride, n); break;
        }
        g0 += gn;
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
    t.attention = {dotF16x16, dotF16x64, softmaxExp, axpyF16, axpyF32, reduceLanes, scoresF16x16, pvF16, scoresF16x64};
    t.activation.swiglu = swiglu;
}

#else

void registerAvx2AttentionKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
