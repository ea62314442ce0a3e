// The tile driver of the block kernels of every ISA (avx2/, avx512/, neon/:
// float.cpp, legacy.cpp, k_quants.cpp): a rows × tokens grid of outputs
// walked in R × C tiles, then the edges, by one rule. Internal; plain C++,
// included by ISA sources (everything here is a template instantiated with
// the caller's file-local micro-kernel, so no code compiled with one ISA's
// flags is shared with another).
//
// The rule: rows in tiles of R, the rows left in tiles of R/2, R/4, ... 1;
// within each band of rows, tokens in tiles of C, the tokens left one by
// one. A call with one token takes its rows in tiles of R1 (which may differ
// from R: one token has no activations to share, only registers to fill)
// and halves the same way. Every micro-kernel computes each output of its
// tile in the same order whatever the tile's shape, so the walk decides the
// speed and never the bits.
#pragma once

#include "cpu/kernels.h"

#include <cstddef>
#include <cstdint>

namespace hearth::cpu {
namespace {

// One gemm call's outputs: s[t·sStride + r] = row r of w · token t of a.
struct TileGrid {
    float* s;
    size_t sStride;
    const uint8_t* w;
    size_t wStride;
    const uint8_t* a;
    size_t aStride;
    int64_t rows;
    int64_t tokens;
};

// A tile's results: s[c·sStride + r] = value(r, c), the layout of every
// gemm entry (kernels.h).
template <int R, int C, class Value>
inline void storeTile(float* s, size_t sStride, Value&& value)
{
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            s[sStride * static_cast<size_t>(c) + static_cast<size_t>(r)] = value(r, c);
}

// Rows from r on in bands of R (then R/2 ... 1), tokens in C then one by one.
template <int R, int C, class Tile>
void walkBands(const TileGrid& g, Tile& tile, int64_t r)
{
    for (; r + R <= g.rows; r += R) {
        const uint8_t* w = g.w + g.wStride * static_cast<size_t>(r);
        int64_t t = 0;
        for (; t + C <= g.tokens; t += C)
            tile.template operator()<R, C>(g.s + g.sStride * static_cast<size_t>(t) + static_cast<size_t>(r), w,
                                           g.a + g.aStride * static_cast<size_t>(t));
        if constexpr (C > 1)
            for (; t < g.tokens; ++t)
                tile.template operator()<R, 1>(g.s + g.sStride * static_cast<size_t>(t) + static_cast<size_t>(r), w,
                                               g.a + g.aStride * static_cast<size_t>(t));
    }
    if constexpr (R > 1)
        walkBands<R / 2, C>(g, tile, r);
}

// The whole grid from row `firstRow` on (the rows before it already done by
// a caller's own pass, e.g. a streamed one-token path). `tile` is a callable
// `template <int R, int C> (float* s, const uint8_t* w, const uint8_t* a)`
// computing R rows × C tokens from those corners with g's strides.
template <int R, int C, int R1 = R, class Tile>
void walkTiles(const TileGrid& g, Tile&& tile, int64_t firstRow = 0)
{
    static_assert(R > 0 && (R & (R - 1)) == 0 && R1 > 0 && (R1 & (R1 - 1)) == 0, "tile rows are powers of two");
    if (g.tokens == 1)
        walkBands<R1, 1>(g, tile, firstRow);
    else
        walkBands<R, C>(g, tile, firstRow);
}

// A micro-kernel family's shape for tiledDot / tiledGemm: Block elements
// per block of its format (tiles count blocks), R × C tiles, R1 rows for
// one token, and Align: tiles need n % Align == 0, other sizes take the
// family's untiled order.
template <int Block, int R, int C, int R1 = R, int Align = 1>
struct TileShape {
    static constexpr int kBlock = Block, kRows = R, kTokens = C, kRowsOneToken = R1, kAlign = Align;
};

// A micro-kernel family K is a TileShape with
//   K::template tile<R, C>(nb, s, sStride, w, wStride, a, aStride)
// computing R rows × C tokens over nb blocks (a static member function or a
// function pointer), and, when kAlign > 1, K::untiled(n, w, a) for one
// output of any other size. These are its vec_dot and gemm entries.
template <class K>
void tiledDot(int64_t n, float* s, const void* w, const void* a)
{
    if constexpr (K::kAlign > 1) {
        if (n % K::kAlign != 0) {
            *s = K::untiled(n, w, a);
            return;
        }
    }
    K::template tile<1, 1>(n / K::kBlock, s, 0, static_cast<const uint8_t*>(w), 0, static_cast<const uint8_t*>(a), 0);
}

// The grid from row firstRow on through K's tiles (see walkTiles).
template <class K>
void gemmTiles(int64_t n, const TileGrid& g, int64_t firstRow = 0)
{
    if constexpr (K::kAlign > 1) {
        if (n % K::kAlign != 0) {
            walkTiles<1, 1>(
                g, [&]<int, int>(float* out, const uint8_t* w, const uint8_t* a) { *out = K::untiled(n, w, a); },
                firstRow);
            return;
        }
    }
    walkTiles<K::kRows, K::kTokens, K::kRowsOneToken>(
        g,
        [&]<int R, int C>(float* out, const uint8_t* w, const uint8_t* a) {
            K::template tile<R, C>(n / K::kBlock, out, g.sStride, w, g.wStride, a, g.aStride);
        },
        firstRow);
}

template <class K>
void tiledGemm(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
               int64_t rows, int64_t tokens)
{
    gemmTiles<K>(n, {s, sStride, static_cast<const uint8_t*>(w), wStride, static_cast<const uint8_t*>(a), aStride, rows,
                     tokens});
}

// K's entries in one summation order's slots of k (kernels.h).
template <class K>
void setTiles(TypeKernels& k, VecDotFn TypeKernels::*dot, GemmFn TypeKernels::*gemm)
{
    k.*dot = tiledDot<K>;
    k.*gemm = tiledGemm<K>;
}

} // namespace
} // namespace hearth::cpu
