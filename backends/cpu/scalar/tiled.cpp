// Scalar reference of llama.cpp's tiled K-quant matrix multiplication: the
// order ggml's x86 builds (llama-cpp-python 0.3.36) use for Q2_K, Q3_K, Q4_K,
// Q5_K, Q6_K and IQ4_XS weights that are not repacked, once a batch has 8
// tokens or more (ggml_compute_forward_mul_mat_tiled; below 8 they take
// vec_dot, k_quants.cpp). Per super-block b it forms one exact integer
// s1 = Σ scale·q·a (signed quants) and, for the formats with mins,
// s2 = Σ min·bsum, then
//
//   r   = f32(s1) · d(x)                    (rounded)
//   r   = r - dmin(x) · f32(s2)             (one fused multiply-add)
//   acc = acc + r · y.d                     (one fused multiply-add)
//
// with acc starting at 0 and the blocks taken in order. Tiles and threads
// only decide which outputs a thread computes, never this order.
#include "cpu/kernels.h"
#include "cpu/scalar/k_blocks.h"
#include "util/fma.h"
#include "util/half.h"

#include <cmath>

namespace hearth::cpu {

namespace {

template <typename Block, bool HasMin, int Bias>
void tiledDot(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const Block*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float acc = 0.0f;
    kq::Unpacked u;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        kq::unpack(x[b], u);
        float r = static_cast<float>(kq::scaledSum(u, y[b].qs, Bias)) * f16ToF32(x[b].d);
        if constexpr (HasMin)
            r = fusedMultiplyAdd(-f16ToF32(x[b].dmin), static_cast<float>(kq::minSum(u, y[b].bsums)), r);
        acc = fusedMultiplyAdd(r, y[b].d, acc);
    }
    *s = acc;
}

void set(KernelTable& t, GgmlType type, VecDotFn dot)
{
    t.types[static_cast<uint32_t>(type)].vecDotTiled = dot;
}

} // namespace

void registerScalarTiledKernels(KernelTable& t)
{
    set(t, GgmlType::Q2_K, tiledDot<BlockQ2_K, true, 0>);
    set(t, GgmlType::Q3_K, tiledDot<BlockQ3_K, false, 0>);
    set(t, GgmlType::Q4_K, tiledDot<BlockQ4_K, true, 0>);
    set(t, GgmlType::Q5_K, tiledDot<BlockQ5_K, true, 0>);
    set(t, GgmlType::Q6_K, tiledDot<BlockQ6_K, false, 32>);
    set(t, GgmlType::IQ4_XS, tiledDot<BlockIQ4_XS, false, 0>);
}

} // namespace hearth::cpu
