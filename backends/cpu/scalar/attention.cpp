// Scalar reference of the attention loops (kernels.h, AttentionKernels) and
// of SwiGLU, which shares ggml's vectorized exp:
// the lane orders of llama.cpp's x86 kernels written out one value at a
// time (see ggml_order.h), which the SIMD levels reproduce bit for bit.
#include "cpu/attention_lists.h"
#include "cpu/kernels.h"
#include "cpu/scalar/ggml_order.h"
#include "util/fma.h"
#include "util/half.h"

#include <algorithm>
#include <cmath>

namespace hearth::cpu {

namespace {

float dotF16x16(const uint16_t* k, const uint16_t* q, int64_t n)
{
    float acc[16] = {};
    for (int64_t e = 0; e < n; ++e)
        acc[e % 16] = fusedMultiplyAdd(f16ToF32(k[e]), f16ToF32(q[e]), acc[e % 16]);
    return order::reduce16(acc);
}

// GGML_F32x16_REDUCE of four 16-lane accumulators (lanes 0..63).
float reduce64(float* acc)
{
    for (int t = 0; t < 16; ++t) {
        acc[t] += acc[32 + t];
        acc[16 + t] += acc[48 + t];
    }
    for (int t = 0; t < 16; ++t)
        acc[t] += acc[16 + t];
    return order::reduce16(acc);
}

float dotF16x64(const uint16_t* k, const uint16_t* q, int64_t n)
{
    float acc[64] = {};
    const int64_t vec = n & ~int64_t{63};
    for (int64_t e = 0; e < vec; ++e)
        acc[e % 64] = fusedMultiplyAdd(f16ToF32(k[e]), f16ToF32(q[e]), acc[e % 64]);
    double sum = reduce64(acc);
    for (int64_t e = vec; e < n; ++e)
        sum += static_cast<double>(f16ToF32(k[e]) * f16ToF32(q[e]));
    return static_cast<float>(sum);
}

double softmaxExp(float* s, int64_t n, float max)
{
    const float masked = -INFINITY;
    double sum = 0.0;
    for (int64_t c0 = 0; c0 < n; c0 += 16) {
        float chunk[16] = {};
        for (int64_t c = c0; c < std::min(c0 + 16, n); ++c) {
            s[c] = s[c] == masked ? 0.0f : order::expf(s[c] - max);
            chunk[c - c0] = s[c];
        }
        sum += static_cast<double>(order::reduce16(chunk));
    }
    return sum;
}

void axpyF16(float* acc, const uint16_t* v, float p, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        acc[i] = fusedMultiplyAdd(f16ToF32(v[i]), p, acc[i]);
}

void axpyF32(float* acc, const float* v, float p, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        acc[i] = fusedMultiplyAdd(v[i], p, acc[i]);
}

void reduceLanes(const float* acc, int lanes, int64_t n, float* out)
{
    float v[64];
    for (int64_t i = 0; i < n; ++i) {
        for (int l = 0; l < lanes; ++l)
            v[l] = acc[static_cast<int64_t>(l) * n + i];
        out[i] = lanes == 16 ? order::reduce16(v) : reduce64(v);
    }
}

void swiglu(const float* x, const float* y, float* out, int64_t n)
{
    const int64_t vec = n & ~int64_t{15};
    for (int64_t i = 0; i < n; ++i)
        out[i] = (i < vec ? order::silu(x[i]) : x[i] / (1.0f + std::exp(-x[i]))) * y[i];
}

} // namespace

void registerScalarAttentionKernels(KernelTable& t)
{
    t.attention = attention_lists::table<dotF16x16, dotF16x64, softmaxExp, axpyF16, axpyF32, reduceLanes>();
    t.activation.swiglu = swiglu;
}

} // namespace hearth::cpu
