// The tile driver of the repacked-order kernels of every ISA
// (avx2/repacked_rows.h, neon/repacked_rows.h): weight rows in groups of
// GroupRows (the lanes of the ISA's float steps) against tokens in groups of
// up to TokenGroup. Internal; plain C++, included by ISA sources.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace hearth::cpu {
namespace {

// Tokens whose float accumulators live on the stack while a row group
// passes over its blocks; the decoded blocks of the group serve them all.
constexpr int kTokenGroup = 64;

// `kernel(rows, live, a, nt, s)` computes a group of GroupRows weight rows
// (rows[] past the end repeat the last row; only the first `live` results
// are stored) against nt <= TokenGroup tokens, results at s[t·sStride + r].
template <int GroupRows, int TokenGroup = kTokenGroup, class Kernel>
void walkRowGroups(int64_t rows, int64_t tokens, const void* wv, size_t wStride, const void* av, size_t aStride,
                   float* s, size_t sStride, Kernel&& kernel)
{
    const auto* w = static_cast<const uint8_t*>(wv);
    const auto* a = static_cast<const uint8_t*>(av);
    for (int64_t t0 = 0; t0 < tokens; t0 += TokenGroup) {
        const int nt = static_cast<int>(std::min<int64_t>(TokenGroup, tokens - t0));
        for (int64_t r0 = 0; r0 < rows; r0 += GroupRows) {
            const int live = static_cast<int>(std::min<int64_t>(GroupRows, rows - r0));
            const uint8_t* rp[GroupRows];
            for (int r = 0; r < GroupRows; ++r)
                rp[r] = w + wStride * static_cast<size_t>(r0 + std::min(r, live - 1));
            kernel(rp, live, a + aStride * static_cast<size_t>(t0), nt,
                   s + sStride * static_cast<size_t>(t0) + static_cast<size_t>(r0));
        }
    }
}

// A group's results, one float lane per row written by store(float*, V),
// for the rows that exist (`live`) → s[r].
template <int GroupRows, class V, class Store>
inline void storeLiveRows(float* s, V lanes, int live, Store store)
{
    if (live == GroupRows) {
        store(s, lanes);
        return;
    }
    alignas(64) float v[GroupRows];
    store(v, lanes);
    std::copy(v, v + live, s);
}

} // namespace
} // namespace hearth::cpu
