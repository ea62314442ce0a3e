// The batched attention entries (kernels.h, AttentionKernels::scoresF16x16,
// scoresF16x64 and pvF16) written as loops over a level's single-row kernels: the
// reference order, and the form levels without a register-blocked version
// register. Included by the kernel files, so it is compiled with each
// level's flags; Dot and Axpy are that level's dotF16x16 and axpyF16.
#pragma once

#include "cpu/kernels.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

namespace hearth::cpu::attention_lists {

namespace {

// Column i of a lanes × n block of accumulators (lane l at acc[l·n + i]),
// 16 or 64 lanes, as the 16 values (v[0..15]; v holds 64) that the final
// 16-lane reduction sums: 64 lanes fold as (t + 32+t) + (16+t + 48+t), the
// order of scalar/attention.cpp's reduce64. For the SIMD levels' last
// columns.
inline void column16(const float* acc, int lanes, int64_t n, int64_t i, float* v)
{
    for (int l = 0; l < lanes; ++l)
        v[l] = acc[static_cast<int64_t>(l) * n + i];
    if (lanes == 64)
        for (int t = 0; t < 16; ++t)
            v[t] = (v[t] + v[32 + t]) + (v[16 + t] + v[48 + t]);
}

} // namespace

// The weight pvF16 skips: -0.0, which a softmax weight never is.
inline bool skipped(float w)
{
    return std::bit_cast<uint32_t>(w) == 0x80000000u; // w == 0 && signbit(w), as one compare
}

template <float (*Dot)(const uint16_t*, const uint16_t*, int64_t)>
void scores(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, int64_t count,
            const uint16_t* q, size_t qStride, int nq, int64_t n)
{
    for (int64_t j = 0; j < count; ++j) {
        const auto c = static_cast<size_t>(cells[j]);
        for (int g = 0; g < nq; ++g)
            s[static_cast<size_t>(g) * sStride + c] = Dot(k + c * kStride, q + static_cast<size_t>(g) * qStride, n);
    }
}

template <void (*Axpy)(float*, const uint16_t*, float, int64_t)>
void pv(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells, int64_t count,
        const float* w, size_t wStride, int nq, int64_t n)
{
    for (int64_t j = 0; j < count; ++j) {
        const int32_t c = cells[j];
        const auto lane = static_cast<size_t>(c % lanes);
        for (int g = 0; g < nq; ++g) {
            const float p = w[static_cast<size_t>(g) * wStride + static_cast<size_t>(j)];
            if (!skipped(p))
                Axpy(acc + static_cast<size_t>(g) * accStride + lane * static_cast<size_t>(n),
                     v + static_cast<size_t>(c) * vStride, p, n);
        }
    }
}

// The register-blocked form of a batched scores entry: the queries widened
// to f32 Q at a time (Widen: one row of n), then Chunk over W listed cells
// at a time (its nc < W for the last), for n <= MaxN and n % Align == 0;
// other head sizes take the list form over Dot (the same order).
template <int Q, int W, int64_t MaxN, int64_t Align, auto Dot, auto Widen, auto Chunk>
void widenedScores(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells, int64_t count,
                   const uint16_t* q, size_t qStride, int nq, int64_t n)
{
    if (n > MaxN || n % Align != 0) {
        scores<Dot>(s, sStride, k, kStride, cells, count, q, qStride, nq, n);
        return;
    }
    alignas(64) float qf[Q * MaxN];
    for (int g0 = 0; g0 < nq; g0 += Q) {
        const int gn = nq - g0 < Q ? nq - g0 : Q;
        for (int g = 0; g < gn; ++g)
            Widen(qf + g * n, q + static_cast<size_t>(g0 + g) * qStride, n);
        float* sg = s + static_cast<size_t>(g0) * sStride;
        for (int64_t j = 0; j < count; j += W)
            Chunk(sg, sStride, k, kStride, cells + j, static_cast<int>(count - j < W ? count - j : W), qf, gn, n);
    }
}

// A level's attention table whose batched entries are the loops above over
// its own single-row kernels.
template <auto Dot16, auto Dot64, auto SoftmaxExp, auto AxpyF16, auto AxpyF32, auto ReduceLanes>
AttentionKernels table()
{
    return {Dot16, Dot64, SoftmaxExp, AxpyF16, AxpyF32, ReduceLanes, scores<Dot16>, pv<AxpyF16>, scores<Dot64>};
}

} // namespace hearth::cpu::attention_lists
