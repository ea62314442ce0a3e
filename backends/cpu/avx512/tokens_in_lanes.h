// The driver shared by the AVX-512 VNNI kernels that put 16 tokens in the
// lanes of a zmm (legacy_tokens_vnni.cpp, k_quants_vnni.cpp,
// repacked_vnni.cpp): pack every block of 16 tokens' activations once, then
// for each group of weight rows decode them once into scratch and run every
// token block past them. Internal; include only from sources compiled with
// AVX-512.
#pragma once

#if defined(__x86_64__) || defined(_M_X64)

#include "cpu/avx2/simd_avx2.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hearth::cpu {
namespace {

constexpr int kLanes = 16; // tokens per zmm

// Per-thread scratch kept for the thread's life: sized once for the largest
// batch, then no allocation.
struct LaneScratch {
    std::vector<uint8_t> packed;
    std::vector<uint8_t> decoded;
};

LaneScratch& laneScratch()
{
    thread_local LaneScratch s;
    return s;
}

// `count` T at a 64-byte boundary inside v.
template <class T>
T* area(std::vector<uint8_t>& v, size_t count)
{
    const size_t bytes = count * sizeof(T) + 64;
    if (v.size() < bytes)
        v.resize(bytes);
    const auto p = reinterpret_cast<uintptr_t>(v.data());
    return reinterpret_cast<T*>((p + 63) & ~uintptr_t{63});
}

// One token block's 16 results of row r → s[t·sStride + r] for its
// `count` tokens.
inline void storeLanes(float* s, size_t sStride, int r, __m512 v, int count)
{
    alignas(64) float out[kLanes];
    _mm512_store_ps(out, v);
    for (int t = 0; t < count; ++t)
        s[sStride * static_cast<size_t>(t) + static_cast<size_t>(r)] = out[t];
}

// pack(a, aStride, first token, count, block, Packed&) packs block b of up
// to 16 tokens; decode(row, nb, Decoded*) decodes a weight row's nb blocks;
// tile(rows, packed, nb, s, live, count) computes the Group rows (rows[]
// past `live` repeat the last live one) against one block of `count`
// tokens, results at s[t·sStride + r].
template <class Packed, class Decoded, int Group, class PackFn, class DecodeFn, class TileFn>
void tokensInLanes(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a,
                   size_t aStride, int64_t rows, int64_t tokens, PackFn pack, DecodeFn decode, TileFn tile)
{
    const int64_t blocks = (tokens + kLanes - 1) / kLanes;
    LaneScratch& sc = laneScratch();
    Packed* packed = area<Packed>(sc.packed, static_cast<size_t>(blocks * nb));
    Decoded* decoded = area<Decoded>(sc.decoded, static_cast<size_t>(Group * nb));
    for (int64_t tb = 0; tb < blocks; ++tb) {
        const int count = static_cast<int>(std::min<int64_t>(kLanes, tokens - tb * kLanes));
        for (int64_t b = 0; b < nb; ++b)
            pack(a, aStride, tb * kLanes, count, b, packed[tb * nb + b]);
    }
    const size_t ahead = avx2::prefetchDistance(wStride, Group);
    for (int64_t r0 = 0; r0 < rows; r0 += Group) {
        const int live = static_cast<int>(std::min<int64_t>(Group, rows - r0));
        const Decoded* rowPtr[Group];
        for (int r = 0; r < Group; ++r) {
            Decoded* d = decoded + static_cast<size_t>(r) * static_cast<size_t>(nb);
            rowPtr[r] = d;
            if (r >= live) {
                rowPtr[r] = rowPtr[live - 1];
                continue;
            }
            const uint8_t* row = w + wStride * static_cast<size_t>(r0 + r);
            avx2::prefetchLines(row + ahead, wStride);
            decode(row, nb, d);
        }
        for (int64_t tb = 0; tb < blocks; ++tb) {
            const int count = static_cast<int>(std::min<int64_t>(kLanes, tokens - tb * kLanes));
            tile(rowPtr, packed + tb * nb, nb, s + sStride * static_cast<size_t>(tb * kLanes) + r0, live, count);
        }
    }
}

} // namespace
} // namespace hearth::cpu

#endif
