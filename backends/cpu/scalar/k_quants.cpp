// Scalar reference kernels for the 256-element super-block formats (Q2_K,
// Q3_K, Q4_K, Q5_K, Q6_K, IQ4_XS) against Q8_K activations, in the float
// order of ggml's AVX2 vec_dot kernels (the ones llama.cpp's x86 builds run
// for single tokens and small batches; AVX-512 builds use them too):
//
//   per super-block, eight exact integer lanes (k_blocks.h: lane l takes the
//   elements with (e % 32) / 4 == l, times their sub-block scale), each
//   added into its own f32 accumulator with a fused multiply-add by
//   d = y.d · d(x); at the end the lanes are reduced as hsum_float_8.
//
// The mins differ per format, as in ggml:
//   Q2_K  lane l of Σ min·bsum (groups 2l, 2l+1) is fused into the same
//         accumulators first, with dmin = -(y.d · dmin(x));
//   Q4_K  four f32 min lanes (groups of 64: mins 2m, 2m+1 times the 32-sums
//         of the activations), reduced as (m0 + m2) + (m1 + m3) and added
//         after the main reduction;
//   Q5_K  one f32 sum of dmin · Σ min·bsum per super-block (fused
//         multiply-add), added after the main reduction;
//   Q6_K  the quants enter unsigned (0..63) and each lane subtracts
//         32 · (scale·bsum of groups 2l and 2l+1), as the AVX2 kernel does.
// The SIMD kernels must give these results bit for bit.
#include "cpu/kernels.h"
#include "cpu/scalar/ggml_order.h"
#include "cpu/scalar/k_blocks.h"
#include "util/fma.h"
#include "util/half.h"

#include <cmath>

namespace hearth::cpu {

namespace {

// acc[l] += d · lane[l] for the eight lanes of one super-block.
void addLanes(float* acc, float d, const kq::Unpacked& u, const BlockQ8_K& y, const int32_t* bias = nullptr)
{
    int32_t lane[8];
    kq::lanes8(u, y.qs, lane);
    for (int l = 0; l < 8; ++l)
        acc[l] = fusedMultiplyAdd(d, static_cast<float>(lane[l] - (bias ? bias[l] : 0)), acc[l]);
}

template <typename Block>
float simpleDot(int64_t n, const void* w, const void* a)
{
    const auto* x = static_cast<const Block*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float acc[8] = {};
    kq::Unpacked u;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        kq::unpack(x[b], u);
        addLanes(acc, y[b].d * f16ToF32(x[b].d), u, y[b]);
    }
    return order::hsum8(acc);
}

void dotQ2_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ2_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float acc[8] = {};
    kq::Unpacked u;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        kq::unpack(x[b], u);
        const float dmin = -(y[b].d * f16ToF32(x[b].dmin));
        for (int l = 0; l < 8; ++l) {
            const int32_t m = u.min[2 * l] * y[b].bsums[2 * l] + u.min[2 * l + 1] * y[b].bsums[2 * l + 1];
            acc[l] = fusedMultiplyAdd(dmin, static_cast<float>(m), acc[l]);
        }
        addLanes(acc, y[b].d * f16ToF32(x[b].d), u, y[b]);
    }
    *s = order::hsum8(acc);
}

void dotQ3_K(int64_t n, float* s, const void* w, const void* a)
{
    *s = simpleDot<BlockQ3_K>(n, w, a);
}

// Σ over sub-blocks j of min_j · (32-sum of the activations), as the pairs
// (2m, 2m+1) ggml's _mm_madd_epi16 forms.
int32_t minPair(const kq::Unpacked& u, const BlockQ8_K& y, int m)
{
    int32_t s = 0;
    for (int j = 2 * m; j < 2 * m + 2; ++j)
        s += u.min[2 * j] * (y.bsums[2 * j] + y.bsums[2 * j + 1]);
    return s;
}

void dotQ4_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ4_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float acc[8] = {}, accMin[4] = {};
    kq::Unpacked u;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        kq::unpack(x[b], u);
        const float dmin = -(y[b].d * f16ToF32(x[b].dmin));
        for (int m = 0; m < 4; ++m)
            accMin[m] = fusedMultiplyAdd(dmin, static_cast<float>(minPair(u, y[b], m)), accMin[m]);
        addLanes(acc, y[b].d * f16ToF32(x[b].d), u, y[b]);
    }
    *s = order::hsum8(acc) + ((accMin[0] + accMin[2]) + (accMin[1] + accMin[3]));
}

void dotQ5_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ5_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float acc[8] = {}, sumMins = 0.0f;
    kq::Unpacked u;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        kq::unpack(x[b], u);
        const float dmin = -(y[b].d * f16ToF32(x[b].dmin));
        int32_t mins = 0;
        for (int m = 0; m < 4; ++m)
            mins += minPair(u, y[b], m);
        sumMins = fusedMultiplyAdd(dmin, static_cast<float>(mins), sumMins);
        addLanes(acc, y[b].d * f16ToF32(x[b].d), u, y[b]);
    }
    *s = order::hsum8(acc) + sumMins;
}

void dotQ6_K(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ6_K*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float acc[8] = {};
    kq::Unpacked u;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        kq::unpack(x[b], u);
        int32_t bias[8];
        for (int l = 0; l < 8; ++l)
            bias[l] = 32 * (u.scale[2 * l] * y[b].bsums[2 * l] + u.scale[2 * l + 1] * y[b].bsums[2 * l + 1]);
        addLanes(acc, y[b].d * f16ToF32(x[b].d), u, y[b], bias);
    }
    *s = order::hsum8(acc);
}

void dotIQ4_XS(int64_t n, float* s, const void* w, const void* a)
{
    *s = simpleDot<BlockIQ4_XS>(n, w, a);
}

void set(KernelTable& t, GgmlType type, VecDotFn dot)
{
    const TypeTraits& tr = typeTraits(type);
    TypeKernels& k = t.types[static_cast<uint32_t>(type)];
    k.vecDotType = GgmlType::Q8_K;
    k.vecDot = dot;
    k.toFloat = tr.dequantize;
    k.fromFloat = tr.quantize;
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
