// Matrix multiplication with weights in their file format: dst [out, n] =
// W [in, out] · x [in, n]. Phase 0 converts the activations to the weight
// type's dot partner (Q8_0 / Q8_1 / Q8_K blocks, f16, bf16) into the work
// area, once for all output rows; phase 1 computes dot products, the output
// rows split over threads so each weight row is read by one thread only.
#include "cpu/kernels.h"
#include "cpu/ops.h"

#include <algorithm>

namespace hearth::cpu {

namespace {

bool needsConversion(const TypeKernels& k)
{
    return k.vecDotType != GgmlType::F32;
}

size_t partnerRowBytes(const Op& op)
{
    const TypeKernels& k = typeKernels(op.src[0].type);
    return alignUp(rowBytes(k.vecDotType, op.src[1].ne[0]));
}

// Output rows handled together, so one block of weight rows stays in cache
// while every token of the batch passes over it.
constexpr int64_t kRowBlock = 16;
// Tokens per gemm call: as many converted activation rows as fit in about
// half a megabyte of L2 (a multiple of 16, 16..256), so that the weights are
// streamed from memory once per chunk and the chunk stays in cache.
int64_t tokenChunk(size_t partnerBytes)
{
    const auto fit = static_cast<int64_t>((size_t{512} << 10) / std::max<size_t>(partnerBytes, 1));
    return std::clamp<int64_t>(fit & ~int64_t{15}, 16, 256);
}

} // namespace

size_t matMulWorkBytes(const Op& op)
{
    const TypeKernels& k = typeKernels(op.src[0].type);
    if (!needsConversion(k))
        return 0;
    return partnerRowBytes(op) * static_cast<size_t>(op.src[1].rows());
}

void runMatMul(const Op& op, int phase, const ExecContext& ctx)
{
    const Tensor& w = op.src[0];
    const Tensor& x = op.src[1];
    const TypeKernels& k = typeKernels(w.type);
    const int64_t nIn = w.ne[0];
    const int64_t nOut = w.ne[1];
    const int64_t nTok = x.rows();
    const bool convert = needsConversion(k);
    const size_t partnerBytes = convert ? partnerRowBytes(op) : 0;

    const auto tokenRow = [&](int64_t t) -> const void* {
        if (convert)
            return ctx.work + partnerBytes * static_cast<size_t>(t);
        return x.f32Row(t % x.ne[1], (t / x.ne[1]) % x.ne[2], t / (x.ne[1] * x.ne[2]));
    };

    if (phase == 0) {
        if (!convert)
            return;
        const FromFloatFn quantize = typeKernels(k.vecDotType).fromFloat;
        int64_t begin, end;
        splitRange(nTok, ctx.ith, ctx.nth, begin, end);
        for (int64_t t = begin; t < end; ++t) {
            const float* src = x.f32Row(t % x.ne[1], (t / x.ne[1]) % x.ne[2], t / (x.ne[1] * x.ne[2]));
            quantize(src, ctx.work + partnerBytes * static_cast<size_t>(t), nIn);
        }
        return;
    }

    // Split output rows in whole blocks so threads never share a cache line
    // of dst when n == 1.
    const int64_t blocks = (nOut + kRowBlock - 1) / kRowBlock;
    int64_t b0, b1;
    splitRange(blocks, ctx.ith, ctx.nth, b0, b1);
    const Tensor& d = op.dst;
    const bool denseDst =
        d.nb[2] == d.nb[1] * static_cast<size_t>(d.ne[1]) && d.nb[3] == d.nb[2] * static_cast<size_t>(d.ne[2]);
    // Tokens in runs of one summation order (matMulOrder): at most two, the
    // GEMM groups of four and the GEMV rest of a repacked type.
    int64_t t0 = 0;
    while (t0 < nTok) {
        const MatMulOrder order = matMulOrder(w.type, nOut, nTok, t0);
        int64_t t1 = t0 + 1;
        while (t1 < nTok && matMulOrder(w.type, nOut, nTok, t1) == order)
            ++t1;
        const GemmFn gemm = convert && denseDst ? matMulGemm(w.type, order) : nullptr;
        if (gemm) {
            // This thread's rows against chunks of tokens: a chunk's converted
            // activations stay in cache while all the rows pass over them, and
            // the kernel reuses each decoded weight block for the chunk's tokens.
            float* out0 = d.f32Row(0);
            const size_t sStride = d.nb[1] / sizeof(float);
            const int64_t r0 = b0 * kRowBlock;
            const int64_t r1 = std::min(b1 * kRowBlock, nOut);
            const int64_t chunk = tokenChunk(partnerBytes);
            for (int64_t c0 = t0; c0 < t1 && r0 < r1; c0 += chunk) {
                const int64_t nt = std::min(chunk, t1 - c0);
                gemm(nIn, out0 + sStride * static_cast<size_t>(c0) + r0, sStride, w.row(r0), w.nb[1],
                     ctx.work + partnerBytes * static_cast<size_t>(c0), partnerBytes, r1 - r0, nt);
            }
        } else {
            const VecDotFn dot = matMulDot(w.type, nOut, nTok, t0);
            for (int64_t b = b0; b < b1; ++b) {
                const int64_t o0 = b * kRowBlock;
                const int64_t o1 = std::min(o0 + kRowBlock, nOut);
                for (int64_t t = t0; t < t1; ++t) {
                    const void* a = tokenRow(t);
                    float* out = d.f32Row(t % d.ne[1], (t / d.ne[1]) % d.ne[2], t / (d.ne[1] * d.ne[2]));
                    for (int64_t o = o0; o < o1; ++o)
                        dot(nIn, out + o, w.row(o), a);
                }
            }
        }
        t0 = t1;
    }
}

} // namespace hearth::cpu
