// K-quant dequantizers and the q8_K activation quantizer. The quantizers of
// the weight formats are in k_quants_quantize.cpp.
#include "quant/k_quants.h"

#include "quant/quant_common.h"

#include <cmath>
#include <cstring>

namespace hearth {

using quant_detail::loadHalf;
using quant_detail::nearestInt;

namespace {

// The 16 6-bit scales of a q3_K block, as signed values (stored value - 32).
void unpackQ3Scales(const uint8_t* packed, int* scales)
{
    for (int s = 0; s < 16; ++s) {
        const int low = s < 8 ? packed[s] & 0x0f : packed[s - 8] >> 4;
        const int high = (packed[8 + s % 4] >> (2 * (s / 4))) & 3;
        scales[s] = (low | (high << 4)) - 32;
    }
}

} // namespace

void dequantizeRowQ2_K(const BlockQ2_K* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK_K; ++i) {
        const float d = loadHalf(x[i].d);
        const float dmin = loadHalf(x[i].dmin);
        for (int e = 0; e < QK_K; e += 16) { // one sub-block of 16 per step
            const uint8_t sc = x[i].scales[e / 16];
            const float dl = d * static_cast<float>(sc & 0x0f);
            const float ml = dmin * static_cast<float>(sc >> 4);
            const uint8_t* q = x[i].qs + 32 * (e / 128) + e % 32;
            const int shift = 2 * ((e % 128) / 32);
            for (int l = 0; l < 16; ++l)
                *y++ = dl * static_cast<float>((q[l] >> shift) & 3) - ml;
        }
    }
}

void dequantizeRowQ3_K(const BlockQ3_K* x, float* y, int64_t n)
{
    int scales[16];
    for (int64_t i = 0; i < n / QK_K; ++i) {
        const float d = loadHalf(x[i].d);
        unpackQ3Scales(x[i].scales, scales);
        for (int e = 0; e < QK_K; e += 16) {
            const float dl = d * static_cast<float>(scales[e / 16]);
            const uint8_t* q = x[i].qs + 32 * (e / 128) + e % 32;
            const uint8_t* hm = x[i].hmask + e % 32;
            const int shift = 2 * ((e % 128) / 32);
            const uint8_t bit = static_cast<uint8_t>(1u << (e / 32));
            for (int l = 0; l < 16; ++l) {
                const int v = ((q[l] >> shift) & 3) - ((hm[l] & bit) ? 0 : 4);
                *y++ = dl * static_cast<float>(v);
            }
        }
    }
}

void dequantizeRowQ4_K(const BlockQ4_K* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK_K; ++i) {
        const float d = loadHalf(x[i].d);
        const float dmin = loadHalf(x[i].dmin);
        for (int j = 0; j < QK_K / 32; ++j) { // sub-block of 32
            uint8_t sc, m;
            scaleMinK4(j, x[i].scales, sc, m);
            const float dl = d * static_cast<float>(sc);
            const float ml = dmin * static_cast<float>(m);
            const uint8_t* q = x[i].qs + 32 * (j / 2);
            const int shift = 4 * (j % 2);
            for (int l = 0; l < 32; ++l)
                *y++ = dl * static_cast<float>((q[l] >> shift) & 0x0f) - ml;
        }
    }
}

void dequantizeRowQ5_K(const BlockQ5_K* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK_K; ++i) {
        const float d = loadHalf(x[i].d);
        const float dmin = loadHalf(x[i].dmin);
        for (int j = 0; j < QK_K / 32; ++j) {
            uint8_t sc, m;
            scaleMinK4(j, x[i].scales, sc, m);
            const float dl = d * static_cast<float>(sc);
            const float ml = dmin * static_cast<float>(m);
            const uint8_t* q = x[i].qs + 32 * (j / 2);
            const int shift = 4 * (j % 2);
            for (int l = 0; l < 32; ++l) {
                const int v = ((q[l] >> shift) & 0x0f) | (((x[i].qh[l] >> j) & 1) << 4);
                *y++ = dl * static_cast<float>(v) - ml;
            }
        }
    }
}

void dequantizeRowQ6_K(const BlockQ6_K* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK_K; ++i) {
        const float d = loadHalf(x[i].d);
        for (int e = 0; e < QK_K; e += 16) {
            const float dl = d * static_cast<float>(x[i].scales[e / 16]);
            const int k = (e % 128) / 32;
            const uint8_t* ql = x[i].ql + 64 * (e / 128) + 32 * (k % 2) + e % 32;
            const uint8_t* qh = x[i].qh + 32 * (e / 128) + e % 32;
            for (int l = 0; l < 16; ++l) {
                const int v = ((ql[l] >> (4 * (k / 2))) & 0x0f) | (((qh[l] >> (2 * k)) & 3) << 4);
                *y++ = dl * static_cast<float>(v - 32);
            }
        }
    }
}

void dequantizeRowQ8_K(const BlockQ8_K* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK_K; ++i)
        for (int j = 0; j < QK_K; ++j)
            *y++ = x[i].d * static_cast<float>(x[i].qs[j]);
}

// The value of largest magnitude maps to -127 (not -128), so the quants are
// symmetric and a kernel may negate them without overflow.
void quantizeRowQ8_K(const float* x, BlockQ8_K* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        float max = 0.0f;
        float amax = 0.0f;
        for (int j = 0; j < QK_K; ++j) {
            if (std::fabs(x[j]) > amax) {
                amax = std::fabs(x[j]);
                max = x[j];
            }
        }
        if (amax == 0.0f) {
            y[i].d = 0.0f;
            std::memset(y[i].qs, 0, sizeof y[i].qs);
            std::memset(y[i].bsums, 0, sizeof y[i].bsums); // ggml leaves them unset
            continue;
        }
        const float iscale = -127.0f / max;
        for (int j = 0; j < QK_K; ++j) {
            const int v = nearestInt(iscale * x[j]);
            y[i].qs[j] = static_cast<int8_t>(v < 127 ? v : 127);
        }
        for (int g = 0; g < QK_K / 16; ++g) {
            int sum = 0;
            for (int l = 0; l < 16; ++l)
                sum += y[i].qs[16 * g + l];
            y[i].bsums[g] = static_cast<int16_t>(sum);
        }
        y[i].d = 1.0f / iscale;
    }
}

} // namespace hearth
