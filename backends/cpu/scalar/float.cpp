// Scalar reference kernels for the plain number types. Dot products sum in
// double, as ggml's scalar reference does; f16 and bf16 products of two
// rounded inputs are exact in f32, so these sums are the most accurate the
// inputs allow.
#include "cpu/kernels.h"
#include "util/half.h"

#include <cstring>

namespace hearth::cpu {

namespace {

void dotF32(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const float*>(w);
    const auto* y = static_cast<const float*>(a);
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i)
        sum += static_cast<double>(x[i] * y[i]);
    *s = static_cast<float>(sum);
}

void dotF16(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const uint16_t*>(w);
    const auto* y = static_cast<const uint16_t*>(a);
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i)
        sum += static_cast<double>(f16ToF32(x[i]) * f16ToF32(y[i]));
    *s = static_cast<float>(sum);
}

void dotBf16(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const uint16_t*>(w);
    const auto* y = static_cast<const uint16_t*>(a);
    double sum = 0.0;
    for (int64_t i = 0; i < n; ++i)
        sum += static_cast<double>(bf16ToF32(x[i]) * bf16ToF32(y[i]));
    *s = static_cast<float>(sum);
}

void copyF32(const void* x, float* y, int64_t n)
{
    std::memcpy(y, x, static_cast<size_t>(n) * sizeof(float));
}

void storeF32(const float* x, void* y, int64_t n)
{
    std::memcpy(y, x, static_cast<size_t>(n) * sizeof(float));
}

void f16ToFloat(const void* x, float* y, int64_t n)
{
    const auto* h = static_cast<const uint16_t*>(x);
    for (int64_t i = 0; i < n; ++i)
        y[i] = f16ToF32(h[i]);
}

void floatToF16(const float* x, void* y, int64_t n)
{
    auto* h = static_cast<uint16_t*>(y);
    for (int64_t i = 0; i < n; ++i)
        h[i] = f32ToF16(x[i]);
}

void bf16ToFloat(const void* x, float* y, int64_t n)
{
    const auto* h = static_cast<const uint16_t*>(x);
    for (int64_t i = 0; i < n; ++i)
        y[i] = bf16ToF32(h[i]);
}

void floatToBf16(const float* x, void* y, int64_t n)
{
    auto* h = static_cast<uint16_t*>(y);
    for (int64_t i = 0; i < n; ++i)
        h[i] = f32ToBf16(x[i]);
}

} // namespace

void registerScalarFloatKernels(KernelTable& table)
{
    table.types[static_cast<uint32_t>(GgmlType::F32)] = {GgmlType::F32, dotF32, copyF32, storeF32};
    table.types[static_cast<uint32_t>(GgmlType::F16)] = {GgmlType::F16, dotF16, f16ToFloat, floatToF16};
    table.types[static_cast<uint32_t>(GgmlType::BF16)] = {GgmlType::BF16, dotBf16, bf16ToFloat, floatToBf16};
}

} // namespace hearth::cpu
