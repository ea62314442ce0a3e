#include "quant/legacy.h"

#include "quant/quant_common.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hearth {

using quant_detail::loadHalf;
using quant_detail::storeHalf;

namespace {

// Where ggml's reference converts a float that does not fit (a block whose
// scale is so small that its reciprocal overflows to infinity: every
// |x| < ~1e-36), C leaves the result undefined and x86 builds of llama.cpp
// write 0. We write 0 too, so such a block comes out as all-zero quants with
// a zero scale, the same bytes on every platform.

// Truncates v toward zero and clamps it to [lo, hi] (ggml's MIN(hi,
// (int8_t)v) for v >= lo); non-finite v gives 0.
int truncClamp(float v, int lo, int hi)
{
    if (!std::isfinite(v))
        return 0;
    if (v <= static_cast<float>(lo))
        return lo;
    if (v >= static_cast<float>(hi))
        return hi;
    return static_cast<int>(v);
}

// roundf (ties away from zero) into an int8; non-finite v gives 0.
int8_t roundToInt8(float v)
{
    if (!std::isfinite(v))
        return 0;
    const float r = std::round(v);
    return static_cast<int8_t>(std::clamp(r, -128.0f, 127.0f));
}

// The value of largest magnitude (the first one on ties), keeping its sign.
float signedAbsMax(const float* x, int n)
{
    float amax = 0.0f;
    float max = 0.0f;
    for (int j = 0; j < n; ++j) {
        if (amax < std::fabs(x[j])) {
            amax = std::fabs(x[j]);
            max = x[j];
        }
    }
    return max;
}

void minMax(const float* x, int n, float& min, float& max)
{
    min = x[0];
    max = x[0];
    for (int j = 1; j < n; ++j) {
        if (x[j] < min)
            min = x[j];
        if (x[j] > max)
            max = x[j];
    }
}

uint32_t loadQh(const uint8_t* qh)
{
    uint32_t v;
    std::memcpy(&v, qh, sizeof v);
    return v;
}

} // namespace

void dequantizeRowQ4_0(const BlockQ4_0* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK4_0; ++i, y += QK4_0) {
        const float d = loadHalf(x[i].d);
        for (int j = 0; j < QK4_0 / 2; ++j) {
            y[j] = static_cast<float>((x[i].qs[j] & 0x0f) - 8) * d;
            y[j + QK4_0 / 2] = static_cast<float>((x[i].qs[j] >> 4) - 8) * d;
        }
    }
}

void dequantizeRowQ4_1(const BlockQ4_1* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK4_1; ++i, y += QK4_1) {
        const float d = loadHalf(x[i].d);
        const float m = loadHalf(x[i].m);
        for (int j = 0; j < QK4_1 / 2; ++j) {
            y[j] = static_cast<float>(x[i].qs[j] & 0x0f) * d + m;
            y[j + QK4_1 / 2] = static_cast<float>(x[i].qs[j] >> 4) * d + m;
        }
    }
}

void dequantizeRowQ5_0(const BlockQ5_0* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK5_0; ++i, y += QK5_0) {
        const float d = loadHalf(x[i].d);
        const uint32_t qh = loadQh(x[i].qh);
        for (int j = 0; j < QK5_0 / 2; ++j) {
            const int hi0 = static_cast<int>((qh >> j) & 1u) << 4;
            const int hi1 = static_cast<int>((qh >> (j + 16)) & 1u) << 4;
            y[j] = static_cast<float>(((x[i].qs[j] & 0x0f) | hi0) - 16) * d;
            y[j + QK5_0 / 2] = static_cast<float>(((x[i].qs[j] >> 4) | hi1) - 16) * d;
        }
    }
}

void dequantizeRowQ5_1(const BlockQ5_1* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK5_1; ++i, y += QK5_1) {
        const float d = loadHalf(x[i].d);
        const float m = loadHalf(x[i].m);
        const uint32_t qh = loadQh(x[i].qh);
        for (int j = 0; j < QK5_1 / 2; ++j) {
            const int hi0 = static_cast<int>((qh >> j) & 1u) << 4;
            const int hi1 = static_cast<int>((qh >> (j + 16)) & 1u) << 4;
            y[j] = static_cast<float>((x[i].qs[j] & 0x0f) | hi0) * d + m;
            y[j + QK5_1 / 2] = static_cast<float>((x[i].qs[j] >> 4) | hi1) * d + m;
        }
    }
}

void dequantizeRowQ8_0(const BlockQ8_0* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK8_0; ++i, y += QK8_0) {
        const float d = loadHalf(x[i].d);
        for (int j = 0; j < QK8_0; ++j)
            y[j] = static_cast<float>(x[i].qs[j]) * d;
    }
}

void dequantizeRowQ8_1(const BlockQ8_1* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK8_1; ++i, y += QK8_1) {
        const float d = loadHalf(x[i].d);
        for (int j = 0; j < QK8_1; ++j)
            y[j] = static_cast<float>(x[i].qs[j]) * d;
    }
}

// Symmetric 4-bit: the largest-magnitude value maps to -8 exactly, so the
// scale's sign follows it and the other side gets 7 levels.
void quantizeRowQ4_0(const float* x, BlockQ4_0* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK4_0; ++i, x += QK4_0) {
        const float d = signedAbsMax(x, QK4_0) / -8.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = storeHalf(d);
        for (int j = 0; j < QK4_0 / 2; ++j) {
            const int q0 = truncClamp(x[j] * id + 8.5f, 0, 15);
            const int q1 = truncClamp(x[j + QK4_0 / 2] * id + 8.5f, 0, 15);
            y[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
        }
    }
}

// Affine 4-bit over [min, max].
void quantizeRowQ4_1(const float* x, BlockQ4_1* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK4_1; ++i, x += QK4_1) {
        float min, max;
        minMax(x, QK4_1, min, max);
        const float d = (max - min) / 15.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = storeHalf(d);
        y[i].m = storeHalf(min);
        for (int j = 0; j < QK4_1 / 2; ++j) {
            const int q0 = truncClamp((x[j] - min) * id + 0.5f, 0, 15);
            const int q1 = truncClamp((x[j + QK4_1 / 2] - min) * id + 0.5f, 0, 15);
            y[i].qs[j] = static_cast<uint8_t>(q0 | (q1 << 4));
        }
    }
}

void quantizeRowQ5_0(const float* x, BlockQ5_0* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK5_0; ++i, x += QK5_0) {
        const float d = signedAbsMax(x, QK5_0) / -16.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = storeHalf(d);
        uint32_t qh = 0;
        for (int j = 0; j < QK5_0 / 2; ++j) {
            const int q0 = truncClamp(x[j] * id + 16.5f, 0, 31);
            const int q1 = truncClamp(x[j + QK5_0 / 2] * id + 16.5f, 0, 31);
            y[i].qs[j] = static_cast<uint8_t>((q0 & 0x0f) | ((q1 & 0x0f) << 4));
            qh |= static_cast<uint32_t>(q0 >> 4) << j;
            qh |= static_cast<uint32_t>(q1 >> 4) << (j + QK5_0 / 2);
        }
        std::memcpy(y[i].qh, &qh, sizeof qh);
    }
}

void quantizeRowQ5_1(const float* x, BlockQ5_1* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK5_1; ++i, x += QK5_1) {
        float min, max;
        minMax(x, QK5_1, min, max);
        const float d = (max - min) / 31.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = storeHalf(d);
        y[i].m = storeHalf(min);
        uint32_t qh = 0;
        for (int j = 0; j < QK5_1 / 2; ++j) {
            const int q0 = truncClamp((x[j] - min) * id + 0.5f, 0, 31);
            const int q1 = truncClamp((x[j + QK5_1 / 2] - min) * id + 0.5f, 0, 31);
            y[i].qs[j] = static_cast<uint8_t>((q0 & 0x0f) | ((q1 & 0x0f) << 4));
            qh |= static_cast<uint32_t>(q0 >> 4) << j;
            qh |= static_cast<uint32_t>(q1 >> 4) << (j + QK5_1 / 2);
        }
        std::memcpy(y[i].qh, &qh, sizeof qh);
    }
}

void quantizeRowQ8_0(const float* x, BlockQ8_0* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK8_0; ++i, x += QK8_0) {
        float amax = 0.0f;
        for (int j = 0; j < QK8_0; ++j)
            amax = amax > std::fabs(x[j]) ? amax : std::fabs(x[j]); // ggml's MAX(), NaN included
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = storeHalf(d);
        for (int j = 0; j < QK8_0; ++j)
            y[i].qs[j] = roundToInt8(x[j] * id);
    }
}

void quantizeRowQ8_1(const float* x, BlockQ8_1* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK8_1; ++i, x += QK8_1) {
        float amax = 0.0f;
        for (int j = 0; j < QK8_1; ++j)
            amax = amax > std::fabs(x[j]) ? amax : std::fabs(x[j]); // ggml's MAX(), NaN included
        const float d = amax / 127.0f;
        const float id = d != 0.0f ? 1.0f / d : 0.0f;
        y[i].d = storeHalf(d);
        int sum = 0;
        for (int j = 0; j < QK8_1; ++j) {
            y[i].qs[j] = roundToInt8(x[j] * id);
            sum += y[i].qs[j];
        }
        y[i].s = storeHalf(static_cast<float>(sum) * d);
    }
}

} // namespace hearth
