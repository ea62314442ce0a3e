#include "quant/float_types.h"

#include "util/half.h"

#include <cstring>

namespace hearth {

void dequantizeRowF32(const float* x, float* y, int64_t n)
{
    std::memcpy(y, x, static_cast<size_t>(n) * sizeof(float));
}

void dequantizeRowF16(const uint16_t* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        y[i] = f16ToF32(x[i]);
}

void dequantizeRowBF16(const uint16_t* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        y[i] = bf16ToF32(x[i]);
}

void quantizeRowF32(const float* x, float* y, int64_t n)
{
    std::memcpy(y, x, static_cast<size_t>(n) * sizeof(float));
}

void quantizeRowF16(const float* x, uint16_t* y, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        y[i] = f32ToF16(x[i]);
}

void quantizeRowBF16(const float* x, uint16_t* y, int64_t n)
{
    for (int64_t i = 0; i < n; ++i)
        y[i] = f32ToBf16(x[i]);
}

} // namespace hearth
