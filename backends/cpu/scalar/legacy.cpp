// Scalar kernels for the 32-element block formats (Q4_0, Q4_1, Q5_0, Q5_1,
// Q8_0, IQ4_NL): integer dot products of four quants at a time with the Q8
// activation partner, scaled per block and accumulated in eight lanes in the
// order of llama.cpp's x86 kernels (see ggml_order.h); the _1 formats add
// Σ min · the partner's block sum after the reduction.
//
// Activations are converted to Q8_0 / Q8_1 the way llama.cpp's x86 builds
// do it (ggml's AVX quantize_row_q8_0/_q8_1, which every x86 build of
// llama.cpp runs): inverse scale 127/max and rounding half to even. That
// differs from the portable reference (1/d, half away from zero) in the last
// place of a few quants per row, and those few add up over a whole model:
// matching them is what makes greedy outputs identical to llama.cpp's.
#include "quant/legacy.h"
#include "cpu/kernels.h"
#include "cpu/scalar/ggml_order.h"
#include "quant/iq4.h"
#include "util/fma.h"
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

// The 32 products of one block summed the way ggml's x86 dot products do:
// eight lanes of four consecutive products, as exact integers.
template <typename QuantAt>
void laneSums(const int8_t* y, QuantAt&& x, float* lanes)
{
    for (int l = 0; l < 8; ++l) {
        int s = 0;
        for (int e = 4 * l; e < 4 * l + 4; ++e)
            s += x(e) * y[e];
        lanes[l] = static_cast<float>(s);
    }
}

// Σ over blocks of d_x·d_y · (block dot), accumulated per lane with fused
// multiply-adds and reduced like ggml's hsum_float_8; `extra` is added after
// the reduction (the _1 formats' Σ m·s).
template <typename Block, typename Partner, typename QuantAt>
float laneDot(const Block* x, const Partner* y, int64_t blocks, QuantAt&& quant, float extra = 0.0f)
{
    float acc[8] = {};
    float lanes[8];
    for (int64_t b = 0; b < blocks; ++b) {
        const float d = f16ToF32(x[b].d) * f16ToF32(y[b].d);
        laneSums(
            y[b].qs, [&](int e) { return quant(x[b], e); }, lanes);
        for (int l = 0; l < 8; ++l)
            acc[l] = fusedMultiplyAdd(d, lanes[l], acc[l]);
    }
    return order::hsum8(acc) + extra;
}

int nibble(const uint8_t* qs, int e)
{
    return e < 16 ? qs[e] & 0x0f : qs[e - 16] >> 4;
}

int fifthBit(const uint8_t* qh, int e)
{
    return static_cast<int>((highBits(qh) >> e) & 1u) << 4;
}

template <typename Block, typename Partner>
float sumMinTimesSum(const Block* x, const Partner* y, int64_t blocks)
{
    float s = 0.0f;
    for (int64_t b = 0; b < blocks; ++b)
        s += f16ToF32(x[b].m) * f16ToF32(y[b].s);
    return s;
}

void dotQ4_0(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ4_0*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    *s = laneDot(x, y, n / QK4_0, [](const BlockQ4_0& b, int e) { return nibble(b.qs, e) - 8; });
}

void dotQ4_1(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ4_1*>(w);
    const auto* y = static_cast<const BlockQ8_1*>(a);
    const int64_t nb = n / QK4_1;
    *s = laneDot(
        x, y, nb, [](const BlockQ4_1& b, int e) { return nibble(b.qs, e); }, sumMinTimesSum(x, y, nb));
}

void dotQ5_0(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ5_0*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    *s = laneDot(x, y, n / QK5_0, [](const BlockQ5_0& b, int e) { return (nibble(b.qs, e) | fifthBit(b.qh, e)) - 16; });
}

void dotQ5_1(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ5_1*>(w);
    const auto* y = static_cast<const BlockQ8_1*>(a);
    const int64_t nb = n / QK5_1;
    *s = laneDot(
        x, y, nb, [](const BlockQ5_1& b, int e) { return nibble(b.qs, e) | fifthBit(b.qh, e); },
        sumMinTimesSum(x, y, nb));
}

void dotQ8_0(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockQ8_0*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    *s = laneDot(x, y, n / QK8_0, [](const BlockQ8_0& b, int e) { return static_cast<int>(b.qs[e]); });
}

// tinyBLAS (batches of 2 tokens or more) sums IQ4_NL like the other 32-block
// formats.
void dotIQ4_NLSgemm(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_NL*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    *s = laneDot(x, y, n / QK4_NL,
                 [](const BlockIQ4_NL& b, int e) { return static_cast<int>(kValuesIQ4NL[nibble(b.qs, e)]); });
}

// ggml's AVX2 IQ4_NL vec_dot (one token) takes blocks in pairs: even blocks into one set
// of eight lanes, odd ones into another, the two sets added lane by lane
// before hsum_float_8; a last odd block is summed as one integer and added
// with a fused multiply-add after the reduction.
void dotIQ4_NL(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_NL*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    const int64_t nb = n / QK4_NL;
    const auto value = [](const BlockIQ4_NL& b, int e) { return static_cast<int>(kValuesIQ4NL[nibble(b.qs, e)]); };
    float acc[2][8] = {};
    float lanes[8];
    for (int64_t b = 0; b < nb - nb % 2; ++b) {
        const float d = f16ToF32(y[b].d) * f16ToF32(x[b].d);
        laneSums(
            y[b].qs, [&](int e) { return value(x[b], e); }, lanes);
        for (int l = 0; l < 8; ++l)
            acc[b % 2][l] = fusedMultiplyAdd(d, lanes[l], acc[b % 2][l]);
    }
    for (int l = 0; l < 8; ++l)
        acc[0][l] += acc[1][l];
    float sum = order::hsum8(acc[0]);
    if (nb % 2 != 0) {
        const int64_t b = nb - 1;
        int isum = 0;
        for (int e = 0; e < QK4_NL; ++e)
            isum += value(x[b], e) * y[b].qs[e];
        sum = fusedMultiplyAdd(f16ToF32(y[b].d) * f16ToF32(x[b].d), static_cast<float>(isum), sum);
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
    t.types[static_cast<uint32_t>(GgmlType::IQ4_NL)].vecDotSgemm = dotIQ4_NLSgemm;
    // Q8_1 is only an activation format: conversions, no dot product.
    set(t, GgmlType::Q8_1, GgmlType::Q8_1, nullptr);
    t.types[static_cast<uint32_t>(GgmlType::Q8_0)].fromFloat = activationsQ8_0;
    t.types[static_cast<uint32_t>(GgmlType::Q8_1)].fromFloat = activationsQ8_1;
}

} // namespace hearth::cpu
