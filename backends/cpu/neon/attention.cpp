// NEON attention loops (kernels.h, AttentionKernels) and SwiGLU: the lane orders of
// scalar/attention.cpp with each 16-lane accumulator held in four quads,
// bit for bit. The exponential is ggml's AVX-512 ggml_v_expf lane for lane;
// its final ldexp is done in two exact-then-rounding steps.
#include "cpu/attention_lists.h"
#include "cpu/kernels.h"
#include "cpu/neon/simd_neon.h"

#include <cmath>

namespace hearth::cpu {

#if defined(__aarch64__) || defined(_M_ARM64)

namespace {

using namespace neon;

struct V16 {
    float32x4_t q[4];
};

// _mm512_reduce_add_ps's order: lanes 8..15 + 0..7, then hsum8.
inline float reduce16(const V16& v)
{
    return hsum8({vaddq_f32(v.q[2], v.q[0]), vaddq_f32(v.q[3], v.q[1])});
}

inline float32x4_t loadF16(const uint16_t* p)
{
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
}

float dotF16x16(const uint16_t* k, const uint16_t* q, int64_t n)
{
    V16 acc;
    for (auto& a : acc.q)
        a = vdupq_n_f32(0.0f);
    for (int64_t e = 0; e < n; e += 16)
        for (int j = 0; j < 4; ++j)
            acc.q[j] = vfmaq_f32(acc.q[j], loadF16(k + e + 4 * j), loadF16(q + e + 4 * j));
    return reduce16(acc);
}

float dotF16x64(const uint16_t* k, const uint16_t* q, int64_t n)
{
    float32x4_t acc[16];
    for (auto& a : acc)
        a = vdupq_n_f32(0.0f);
    const int64_t vec = n & ~int64_t{63};
    for (int64_t e = 0; e < vec; e += 64)
        for (int j = 0; j < 16; ++j)
            acc[j] = vfmaq_f32(acc[j], loadF16(k + e + 4 * j), loadF16(q + e + 4 * j));
    // Quads 0-3: lanes 0-15, 4-7: 16-31, 8-11: 32-47, 12-15: 48-63.
    V16 r;
    for (int j = 0; j < 4; ++j)
        r.q[j] = vaddq_f32(vaddq_f32(acc[j], acc[8 + j]), vaddq_f32(acc[4 + j], acc[12 + j]));
    double sum = reduce16(r);
    for (int64_t e = vec; e < n; ++e)
        sum += static_cast<double>(halfToFloat(k[e]) * halfToFloat(q[e]));
    return static_cast<float>(sum);
}

inline float32x4_t pow2(int32x4_t k)
{
    return vreinterpretq_f32_s32(vshlq_n_s32(vaddq_s32(k, vdupq_n_s32(127)), 23));
}

// ggml_v_expf (AVX-512) lane for lane; see avx2/attention.cpp for ldexp.
inline float32x4_t expf4(float32x4_t x)
{
    const float32x4_t r = vdupq_n_f32(0x1.8p23f);
    const float32x4_t z = vfmaq_f32(r, x, vdupq_n_f32(0x1.715476p+0f));
    const float32x4_t n = vsubq_f32(z, r);
    const float32x4_t b = vfmsq_f32(vfmsq_f32(x, n, vdupq_n_f32(0x1.62e4p-1f)), n, vdupq_n_f32(0x1.7f7d1cp-20f));
    const float32x4_t u = vmulq_f32(b, b);
    const float32x4_t p3 = vfmaq_f32(vdupq_n_f32(0x1.573e2ep-5f), vdupq_n_f32(0x1.0e4020p-7f), b);
    const float32x4_t p2 = vfmaq_f32(vdupq_n_f32(0x1.fffdb6p-2f), vdupq_n_f32(0x1.555e66p-3f), b);
    const float32x4_t p1 = vfmaq_f32(vdupq_n_f32(1.0f), vdupq_n_f32(0x1.ffffecp-1f), b);
    const float32x4_t j = vfmaq_f32(p1, vfmaq_f32(p2, p3, u), u);
    const uint32x4_t big = vcagtq_f32(n, vdupq_n_f32(192.0f));
    const int32x4_t ni = vcvtq_s32_f32(vminq_f32(vmaxq_f32(n, vdupq_n_f32(-192.0f)), vdupq_n_f32(192.0f)));
    const int32x4_t n1 = vminq_s32(vmaxq_s32(ni, vdupq_n_s32(-125)), vdupq_n_s32(127));
    const float32x4_t res = vmulq_f32(vmulq_f32(j, pow2(n1)), pow2(vsubq_s32(ni, n1)));
    const uint32x4_t nonPositive = vcleq_f32(n, vdupq_n_f32(0.0f));
    const float32x4_t alt = vbslq_f32(nonPositive, vdupq_n_f32(0.0f), vdupq_n_f32(INFINITY));
    return vbslq_f32(big, alt, res);
}

double softmaxExp(float* s, int64_t n, float max)
{
    double sum = 0.0;
    for (int64_t c = 0; c < n; c += 16) {
        float chunk[16];
        const int64_t live = n - c < 16 ? n - c : 16;
        for (int i = 0; i < 16; ++i)
            chunk[i] = i < live ? s[c + i] : -INFINITY;
        V16 e;
        for (int j = 0; j < 4; ++j) {
            const float32x4_t x = vld1q_f32(chunk + 4 * j);
            const uint32x4_t masked = vceqq_f32(x, vdupq_n_f32(-INFINITY));
            e.q[j] = vbslq_f32(masked, vdupq_n_f32(0.0f), expf4(vsubq_f32(x, vdupq_n_f32(max))));
            vst1q_f32(chunk + 4 * j, e.q[j]);
        }
        for (int64_t i = 0; i < live; ++i)
            s[c + i] = chunk[i];
        sum += static_cast<double>(reduce16(e));
    }
    return sum;
}

void axpyF16(float* acc, const uint16_t* v, float p, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        vst1q_f32(acc + i, vfmaq_n_f32(vld1q_f32(acc + i), loadF16(v + i), p));
    for (; i < n; ++i)
        acc[i] = std::fma(halfToFloat(v[i]), p, acc[i]);
}

void axpyF32(float* acc, const float* v, float p, int64_t n)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        vst1q_f32(acc + i, vfmaq_n_f32(vld1q_f32(acc + i), vld1q_f32(v + i), p));
    for (; i < n; ++i)
        acc[i] = std::fma(v[i], p, acc[i]);
}

// The reduction of scalar/attention.cpp for 4 columns at once.
void reduceColumns(const float* acc, int lanes, int64_t n, int64_t i, float* out)
{
    const auto row = [&](int l) { return vld1q_f32(acc + static_cast<int64_t>(l) * n + i); };
    float32x4_t v[16];
    for (int l = 0; l < 16; ++l)
        v[l] = row(l);
    if (lanes == 64)
        for (int t = 0; t < 16; ++t)
            v[t] = vaddq_f32(vaddq_f32(v[t], row(32 + t)), vaddq_f32(row(16 + t), row(48 + t)));
    float32x4_t t3[8], t6[4];
    for (int k = 0; k < 8; ++k)
        t3[k] = vaddq_f32(v[8 + k], v[k]);
    for (int k = 0; k < 4; ++k)
        t6[k] = vaddq_f32(t3[4 + k], t3[k]);
    vst1q_f32(out + i, vaddq_f32(vaddq_f32(t6[0], t6[2]), vaddq_f32(t6[1], t6[3])));
}

void reduceLanes(const float* acc, int lanes, int64_t n, float* out)
{
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        reduceColumns(acc, lanes, n, i, out);
    for (; i < n; ++i) {
        float v[64];
        attention_lists::column16(acc, lanes, n, i, v);
        V16 r{{vld1q_f32(v), vld1q_f32(v + 4), vld1q_f32(v + 8), vld1q_f32(v + 12)}};
        out[i] = reduce16(r);
    }
}

void swiglu(const float* x, const float* y, float* out, int64_t n)
{
    const int64_t vec = n & ~int64_t{15};
    for (int64_t i = 0; i < vec; i += 4) {
        const float32x4_t v = vld1q_f32(x + i);
        const float32x4_t e = expf4(vsubq_f32(vdupq_n_f32(0.0f), v));
        const float32x4_t silu = vdivq_f32(v, vaddq_f32(vdupq_n_f32(1.0f), e));
        vst1q_f32(out + i, vmulq_f32(silu, vld1q_f32(y + i)));
    }
    for (int64_t i = vec; i < n; ++i)
        out[i] = x[i] / (1.0f + std::exp(-x[i])) * y[i];
}

} // namespace

void registerNeonAttentionKernels(KernelTable& t)
{
    t.attention = attention_lists::table<dotF16x16, dotF16x64, softmaxExp, axpyF16, axpyF32, reduceLanes>();
    t.activation.swiglu = swiglu;
}

#else

void registerNeonAttentionKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
