// Scalar reference of llama.cpp's repacked-weight kernels: on x86, ggml-cpu
// copies Q4_0, Q4_K and IQ4_NL weights with a multiple of 8 rows (and Q2_K
// ones when the CPU has AVX-512) into its "CPU_REPACK" buffer at load,
// interleaved 8 rows at a time, and multiplies them with its own GEMV / GEMM
// kernels (ggml_gemv_q4_K_8x8_q8_K and friends) instead of vec_dot. Those
// sum in another order, given here on the file's own layout (the order does
// not depend on where the bytes sit):
//
//   Q4_0, IQ4_NL  per 32-block one exact integer Σ q·a, then
//                 acc = fma(f32(Σ), d(x)·d(y), acc);
//   Q2_K, Q4_K    per super-block one integer Σ scale·q·a and one Σ min·bsum,
//                 accD = fma(f32(Σ), d(x)·y.d, accD),
//                 accM = fma(f32(Σmin), dmin(x)·y.d, accM), result accD - accM.
//
// GEMM (groups of four tokens) and GEMV give the same floats: the only
// difference, the tie rule of ggml_quantize_mat_q8_K_4x8 when a block's
// largest magnitude occurs with both signs, flips the sign of the quants and
// of d together, which leaves every product unchanged.
#include "cpu/kernels.h"
#include "cpu/scalar/k_blocks.h"
#include "quant/iq4.h"
#include "quant/legacy.h"
#include "util/fma.h"
#include "util/half.h"

#include <cmath>

namespace hearth::cpu {

namespace {

int valueQ4_0(const BlockQ4_0& b, int e)
{
    return (e < 16 ? b.qs[e] & 0x0f : b.qs[e - 16] >> 4) - 8;
}

int valueIQ4_NL(const BlockIQ4_NL& b, int e)
{
    return kValuesIQ4NL[e < 16 ? b.qs[e] & 0x0f : b.qs[e - 16] >> 4];
}

template <typename Block, int (*Value)(const Block&, int)>
void repackedDot32(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const Block*>(w);
    const auto* y = static_cast<const BlockQ8_0*>(a);
    float acc = 0.0f;
    for (int64_t b = 0; b < n / 32; ++b) {
        int32_t sum = 0;
        for (int e = 0; e < 32; ++e)
            sum += Value(x[b], e) * y[b].qs[e];
        acc = fusedMultiplyAdd(static_cast<float>(sum), f16ToF32(x[b].d) * f16ToF32(y[b].d), acc);
    }
    *s = acc;
}

// Chunk: the elements whose integer sums are scaled together (a whole
// super-block in GEMV; 64 for Q4_K's GEMM, 128 for Q2_K's).
template <typename Block, int Chunk>
void repackedDotK(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const Block*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    float accD = 0.0f, accM = 0.0f;
    kq::Unpacked u;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        kq::unpack(x[b], u);
        const float d = f16ToF32(x[b].d) * y[b].d;
        const float dmin = f16ToF32(x[b].dmin) * y[b].d;
        for (int c = 0; c < QK_K; c += Chunk) {
            int32_t sum = 0, mins = 0;
            for (int g = c / 16; g < (c + Chunk) / 16; ++g) {
                int32_t dot = 0;
                for (int e = 16 * g; e < 16 * g + 16; ++e)
                    dot += u.q[e] * y[b].qs[e];
                sum += u.scale[g] * dot;
                mins += u.min[g] * y[b].bsums[g];
            }
            accD = fusedMultiplyAdd(static_cast<float>(sum), d, accD);
            accM = fusedMultiplyAdd(static_cast<float>(mins), dmin, accM);
        }
    }
    *s = accD - accM;
}

void set(KernelTable& t, GgmlType type, VecDotFn gemv, VecDotFn gemm = nullptr)
{
    t.types[static_cast<uint32_t>(type)].vecDotRepacked = gemv;
    t.types[static_cast<uint32_t>(type)].vecDotRepackedGemm = gemm;
}

} // namespace

void registerScalarRepackedKernels(KernelTable& t)
{
    set(t, GgmlType::Q4_0, repackedDot32<BlockQ4_0, valueQ4_0>);
    set(t, GgmlType::IQ4_NL, repackedDot32<BlockIQ4_NL, valueIQ4_NL>);
    set(t, GgmlType::Q2_K, repackedDotK<BlockQ2_K, QK_K>, repackedDotK<BlockQ2_K, 128>);
    set(t, GgmlType::Q4_K, repackedDotK<BlockQ4_K, QK_K>, repackedDotK<BlockQ4_K, 64>);
}

} // namespace hearth::cpu
