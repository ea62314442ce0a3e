// Scalar reference kernels for the 32-element block formats (Q4_0, Q4_1,
// Q5_0, Q5_1, Q8_0, IQ4_NL): an integer dot product per block with the Q8
// activation partner, scaled per block, in the order of ggml's reference
// vec_dot (the _1 formats add min · the partner's block sum).
//
// Activations are converted to Q8_0 / Q8_1 the way llama.cpp's x86 builds
// do it (ggml's AVX quantize_row_q8_0/_q8_1, which every x86 build of
// llama.cpp runs): inverse scale 127/max and rounding half to even. That
// differs from the portable reference (1/d, half away from zero) in the last
// place of a few quants per row, and those few add up over a whole model:
// matching them is what makes greedy outputs identical to llama.cpp's.
#include "quant/legacy.h"
#include "cpu/kernels.h"
#include "quant/iq4.h"
#include "util/half.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hearth::cpu {

namespace {

uint32_t highBits(const uint8_t* qh)
{
    uint32_t v;
    std::memcpy(&v, qh, sizeof v);
    return v;
}

// Round half to even for |x| <= 2^22 (the FPU's default rounding does it
// when adding 1.5 · 2^23).
inline int roundEven(float x)
{
    const float shifted = x + 12582912.0f;
    int32_t bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    return (bits & 0x007fffff) - 0x00400000;
}

// One block of 32: scale (f16 bits) and quants; returns Σ quants and the
// unrounded scale in `d`.
int quantizeBlock(const float* x, uint16_t& d16, int8_t* qs, float& d)
{
    float amax = 0.0f;
    for (int j = 0; j < 32; ++j)
        amax = std::max(amax, std::fabs(x[j]));
    d = amax / 127.0f;
    d16 = f32ToF16(d);
    const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
    int sum = 0;
    for (int j = 0; j < 32; ++j) {
        qs[j] = static_cast<int8_t>(roundEven(x[j] * id));
        sum += qs[j];
    }
    return sum;
}

void activationsQ8_0(const float* x, void* y, int64_t n)
{
    auto* b = static_cast<BlockQ8_0*>(y);
    float d;
    for (int64_t i = 0; i < n / QK8_0; ++i)
        quantizeBlock(x + QK8_0 * i, b[i].d, b[i].qs, d);
}

void activationsQ8_1(const float* x, void* y, int64_t n)
{
    auto* b = static_cast<BlockQ8_1*>(y);
    for (int64_t i = 0; i < n / QK8_1; ++i) {
        float d;
        const int sum = quantizeBlock(x + QK8_1 * i, b[i].d, b[i].qs, d);
        b[i].s = f32ToF16(d * static_cast<float>(sum));
    }
}

void dotQ4_0(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ4_0*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK4_0; ++b) {
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < QK4_0 / 2; ++j) {
            sumi0 += ((x[b].qs[j] & 0x0f) - 8) * y[b].qs[j];
            sumi1 += ((x[b].qs[j] >> 4) - 8) * y[b].qs[j + QK4_0 / 2];
        }
        sum += static_cast<float>(sumi0 + sumi1) * f16ToF32(x[b].d) * f16ToF32(y[b].d);
    }
    *s = sum;
}

void dotQ4_1(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ4_1*>(w);
    const auto* y = static_cast<const BlockQ8_1*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK4_1; ++b) {
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < QK4_1 / 2; ++j) {
            sumi0 += (x[b].qs[j] & 0x0f) * y[b].qs[j];
            sumi1 += (x[b].qs[j] >> 4) * y[b].qs[j + QK4_1 / 2];
        }
        sum += (f16ToF32(x[b].d) * f16ToF32(y[b].d)) * static_cast<float>(sumi0 + sumi1) +
               f16ToF32(x[b].m) * f16ToF32(y[b].s);
    }
    *s = sum;
}

void dotQ5_0(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ5_0*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK5_0; ++b) {
        const uint32_t qh = highBits(x[b].qh);
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < QK5_0 / 2; ++j) {
            const int h0 = static_cast<int>(((qh >> j) << 4) & 0x10);
            const int h1 = static_cast<int>((qh >> (j + 12)) & 0x10);
            sumi0 += (((x[b].qs[j] & 0x0f) | h0) - 16) * y[b].qs[j];
            sumi1 += (((x[b].qs[j] >> 4) | h1) - 16) * y[b].qs[j + QK5_0 / 2];
        }
        sum += (f16ToF32(x[b].d) * f16ToF32(y[b].d)) * static_cast<float>(sumi0 + sumi1);
    }
    *s = sum;
}

void dotQ5_1(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ5_1*>(w);
    const auto* y = static_cast<const BlockQ8_1*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK5_1; ++b) {
        const uint32_t qh = highBits(x[b].qh);
        int sumi0 = 0, sumi1 = 0;
        for (int j = 0; j < QK5_1 / 2; ++j) {
            const int h0 = static_cast<int>(((qh >> j) << 4) & 0x10);
            const int h1 = static_cast<int>((qh >> (j + 12)) & 0x10);
            sumi0 += ((x[b].qs[j] & 0x0f) | h0) * y[b].qs[j];
            sumi1 += ((x[b].qs[j] >> 4) | h1) * y[b].qs[j + QK5_1 / 2];
        }
        sum += (f16ToF32(x[b].d) * f16ToF32(y[b].d)) * static_cast<float>(sumi0 + sumi1) +
               f16ToF32(x[b].m) * f16ToF32(y[b].s);
    }
    *s = sum;
}

void dotQ8_0(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ8_0*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK8_0; ++b) {
        int sumi = 0;
        for (int j = 0; j < QK8_0; ++j)
            sumi += x[b].qs[j] * y[b].qs[j];
        sum += static_cast<float>(sumi) * (f16ToF32(x[b].d) * f16ToF32(y[b].d));
    }
    *s = sum;
}

void dotIQ4_NL(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_NL*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK4_NL; ++b) {
        const float d = f16ToF32(y[b].d) * f16ToF32(x[b].d);
        int sumi1 = 0, sumi2 = 0;
        for (int j = 0; j < QK4_NL / 2; ++j) {
            sumi1 += y[b].qs[j] * kValuesIQ4NL[x[b].qs[j] & 0x0f];
            sumi2 += y[b].qs[j + QK4_NL / 2] * kValuesIQ4NL[x[b].qs[j] >> 4];
        }
        sum += d * static_cast<float>(sumi1 + sumi2);
    }
    *s = sum;
}

void set(KernelTable& t, GgmlType type, GgmlType partner, VecDotFn dot)
{
    const TypeTraits& tr = typeTraits(type);
    t.types[static_cast<uint32_t>(type)] = TypeKernels{partner, dot, tr.dequantize, tr.quantize};
}

} // namespace

void registerScalarLegacyKernels(KernelTable& t)
{
    set(t, GgmlType::Q4_0, GgmlType::Q8_0, dotQ4_0);
    set(t, GgmlType::Q4_1, GgmlType::Q8_1, dotQ4_1);
    set(t, GgmlType::Q5_0, GgmlType::Q8_0, dotQ5_0);
    set(t, GgmlType::Q5_1, GgmlType::Q8_1, dotQ5_1);
    set(t, GgmlType::Q8_0, GgmlType::Q8_0, dotQ8_0);
    set(t, GgmlType::IQ4_NL, GgmlType::Q8_0, dotIQ4_NL);
    // Q8_1 is only an activation format: conversions, no dot product.
    set(t, GgmlType::Q8_1, GgmlType::Q8_1, nullptr);
    t.types[static_cast<uint32_t>(GgmlType::Q8_0)].fromFloat = activationsQ8_0;
    t.types[static_cast<uint32_t>(GgmlType::Q8_1)].fromFloat = activationsQ8_1;
}

} // namespace hearth::cpu
