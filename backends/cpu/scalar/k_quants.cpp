// Scalar reference kernels for the 256-element super-block formats (Q2_K,
// Q3_K, Q4_K, Q5_K, Q6_K, IQ4_XS) against Q8_K activations: per sub-block
// an integer dot product times the sub-block's integer scale, summed as
// integers over the super-block, then scaled once by d · d8; the mins of
// Q2_K / Q4_K / Q5_K come from the activations' 16-element sums (bsums).
#include "quant/k_quants.h"
#include "cpu/kernels.h"
#include "quant/iq4.h"
#include "util/half.h"

namespace hearth::cpu {

namespace {

// Σ a[i]·b[i] over n int8 / small ints.
template <typename A>
int dot(const A* a, const int8_t* b, int n)
{
    int s = 0;
    for (int i = 0; i < n; ++i)
        s += static_cast<int>(a[i]) * b[i];
    return s;
}

void dotQ2_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ2_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float sum = 0.0f;
    int8_t q[QK_K];
    for (int64_t b = 0; b < n / QK_K; ++b) {
        for (int e = 0; e < QK_K; ++e)
            q[e] = static_cast<int8_t>((x[b].qs[32 * (e / 128) + e % 32] >> (2 * ((e % 128) / 32))) & 3);
        int isum = 0, summs = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            isum += (x[b].scales[j] & 0x0f) * dot(q + 16 * j, y[b].qs + 16 * j, 16);
            summs += y[b].bsums[j] * (x[b].scales[j] >> 4);
        }
        const float dall = y[b].d * f16ToF32(x[b].d);
        const float dmin = y[b].d * f16ToF32(x[b].dmin);
        sum += dall * static_cast<float>(isum) - dmin * static_cast<float>(summs);
    }
    *s = sum;
}

void dotQ3_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ3_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float sum = 0.0f;
    int8_t q[QK_K];
    for (int64_t b = 0; b < n / QK_K; ++b) {
        for (int e = 0; e < QK_K; ++e) {
            const int low = (x[b].qs[32 * (e / 128) + e % 32] >> (2 * ((e % 128) / 32))) & 3;
            const bool high = (x[b].hmask[e % 32] >> (e / 32)) & 1;
            q[e] = static_cast<int8_t>(low - (high ? 0 : 4));
        }
        int isum = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            const int lo = j < 8 ? x[b].scales[j] & 0x0f : x[b].scales[j - 8] >> 4;
            const int hi = (x[b].scales[8 + j % 4] >> (2 * (j / 4))) & 3;
            isum += ((lo | (hi << 4)) - 32) * dot(q + 16 * j, y[b].qs + 16 * j, 16);
        }
        sum += f16ToF32(x[b].d) * y[b].d * static_cast<float>(isum);
    }
    *s = sum;
}

// Q4_K and Q5_K share their scale layout; `q` holds the unsigned quants.
float superBlockK4(const uint16_t d, const uint16_t dmin, const uint8_t* scales, const uint8_t* q, const BlockQ8_K& y)
{
    int isum = 0, summ = 0;
    for (int j = 0; j < QK_K / 32; ++j) {
        uint8_t sc, m;
        scaleMinK4(j, scales, sc, m);
        isum += sc * dot(q + 32 * j, y.qs + 32 * j, 32);
        summ += m * (y.bsums[2 * j] + y.bsums[2 * j + 1]);
    }
    return f16ToF32(d) * y.d * static_cast<float>(isum) - f16ToF32(dmin) * y.d * static_cast<float>(summ);
}

void dotQ4_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ4_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float sum = 0.0f;
    uint8_t q[QK_K];
    for (int64_t b = 0; b < n / QK_K; ++b) {
        for (int e = 0; e < QK_K; ++e) {
            const uint8_t byte = x[b].qs[32 * (e / 64) + e % 32];
            q[e] = (e % 64) < 32 ? byte & 0x0f : byte >> 4;
        }
        sum += superBlockK4(x[b].d, x[b].dmin, x[b].scales, q, y[b]);
    }
    *s = sum;
}

void dotQ5_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ5_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float sum = 0.0f;
    uint8_t q[QK_K];
    for (int64_t b = 0; b < n / QK_K; ++b) {
        for (int e = 0; e < QK_K; ++e) {
            const uint8_t byte = x[b].qs[32 * (e / 64) + e % 32];
            const int low = (e % 64) < 32 ? byte & 0x0f : byte >> 4;
            const int high = (x[b].qh[e % 32] >> (e / 32)) & 1;
            q[e] = static_cast<uint8_t>(low | (high << 4));
        }
        sum += superBlockK4(x[b].d, x[b].dmin, x[b].scales, q, y[b]);
    }
    *s = sum;
}

void dotQ6_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ6_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float sum = 0.0f;
    int8_t q[QK_K];
    for (int64_t b = 0; b < n / QK_K; ++b) {
        for (int e = 0; e < QK_K; ++e) {
            const int k = (e % 128) / 32, l = e % 32;
            const uint8_t lowByte = x[b].ql[64 * (e / 128) + 32 * (k % 2) + l];
            const int low = (k / 2) == 0 ? lowByte & 0x0f : lowByte >> 4;
            const int high = (x[b].qh[32 * (e / 128) + l] >> (2 * k)) & 3;
            q[e] = static_cast<int8_t>((low | (high << 4)) - 32);
        }
        int isum = 0;
        for (int j = 0; j < QK_K / 16; ++j)
            isum += x[b].scales[j] * dot(q + 16 * j, y[b].qs + 16 * j, 16);
        sum += f16ToF32(x[b].d) * y[b].d * static_cast<float>(isum);
    }
    *s = sum;
}

void dotIQ4_XS(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_XS*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        const float d4d8 = f16ToF32(x[b].d) * y[b].d;
        for (int sb = 0; sb < QK_K / 32; ++sb) {
            const int ls = ((x[b].scalesL[sb / 2] >> (4 * (sb % 2))) & 0x0f) | (((x[b].scalesH >> (2 * sb)) & 3) << 4);
            const uint8_t* qs = x[b].qs + 16 * sb;
            const int8_t* q8 = y[b].qs + 32 * sb;
            int sumi1 = 0, sumi2 = 0;
            for (int j = 0; j < 16; ++j) {
                sumi1 += q8[j] * kValuesIQ4NL[qs[j] & 0x0f];
                sumi2 += q8[j + 16] * kValuesIQ4NL[qs[j] >> 4];
            }
            sum += d4d8 * static_cast<float>(ls - 32) * static_cast<float>(sumi1 + sumi2);
        }
    }
    *s = sum;
}

void set(KernelTable& t, GgmlType type, VecDotFn dot)
{
    const TypeTraits& tr = typeTraits(type);
    t.types[static_cast<uint32_t>(type)] = TypeKernels{GgmlType::Q8_K, dot, tr.dequantize, tr.quantize};
}

} // namespace

void registerScalarKQuantKernels(KernelTable& t)
{
    set(t, GgmlType::Q2_K, dotQ2_K);
    set(t, GgmlType::Q3_K, dotQ3_K);
    set(t, GgmlType::Q4_K, dotQ4_K);
    set(t, GgmlType::Q5_K, dotQ5_K);
    set(t, GgmlType::Q6_K, dotQ6_K);
    set(t, GgmlType::IQ4_XS, dotIQ4_XS);
    set(t, GgmlType::Q8_K, nullptr); // activation format only
}

} // namespace hearth::cpu
