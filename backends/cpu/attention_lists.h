// The batched attention entries (kernels.h, AttentionKernels::scoresF16x16
// and pvF16) written as loops over a level's single-row kernels: the
// reference order, and the form levels without a register-blocked version
// register. Included by the kernel files, so it is compiled with each
// level's flags; Dot and Axpy are that level's dotF16x16 and axpyF16.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace hearth::cpu::attention_lists {

// The weight pvF16 skips: -0.0, which a softmax weight never is.
inline bool skipped(float w)
{
    return w == 0.0f && std::signbit(w);
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

} // namespace hearth::cpu::attention_lists
