#include "quant/iq4.h"

#include "quant/quant_common.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hearth {

using quant_detail::loadHalf;
using quant_detail::nearestInt;
using quant_detail::storeHalf;

namespace {

constexpr float kGroupMaxEps = 1e-15f;
constexpr int kNearZeroIndex = 8; // kValuesIQ4NL[8] = 1, the value closest to 0

// Index of the table value nearest to id * x[j] for each of 32 values,
// the upper one on a tie, as a binary search over the table would give
// (ggml's best_index_int8): the count of neighbour pairs (a, b) with
// v - a >= b - v. Every pair below v's bracket counts, none above it, and
// the bracket's own pair is the search's last comparison, with the same
// float roundings, so the indices are the same bits; NaN gives 15 as that
// search does. No branches, so the compiler runs it on vectors; the
// search's unpredictable branches were most of IQ4_XS's time.
void nearestIndices32(float id, const float* x, uint8_t* L)
{
    float v[32];
    for (int j = 0; j < 32; ++j)
        v[j] = id * x[j];
    int32_t count[32] = {};
    for (int k = 1; k < 16; ++k) {
        const auto a = static_cast<float>(kValuesIQ4NL[k - 1]);
        const auto b = static_cast<float>(kValuesIQ4NL[k]);
        for (int j = 0; j < 32; ++j)
            count[j] += (v[j] - a < b - v[j]) ? 0 : 1;
    }
    for (int j = 0; j < 32; ++j)
        L[j] = static_cast<uint8_t>(v[j] == v[j] ? count[j] : 15);
}

// Weighted least-squares fit of one 32-element group to scale * table
// value: the group's largest magnitude first maps to the table's end, then
// (ntry > 0) 2*ntry+1 other inverse scales are tried. Fills L with the first
// mapping's indices and returns the best scale (0 for an all-zero group).
float fitGroup(const float* x, int ntry, uint8_t* L)
{
    float amax = 0, max = 0;
    for (int j = 0; j < 32; ++j) {
        if (std::fabs(x[j]) > amax) {
            amax = std::fabs(x[j]);
            max = x[j];
        }
    }
    if (amax < kGroupMaxEps) {
        std::fill(L, L + 32, uint8_t{kNearZeroIndex});
        return 0.0f;
    }
    const auto v0 = static_cast<float>(kValuesIQ4NL[0]);
    float d = ntry > 0 ? -max / v0 : max / v0;
    float sumQX = 0, sumQ2 = 0;
    uint8_t tried[32];
    const auto fit = [&](float id, bool store) {
        uint8_t* idx = store ? L : tried;
        nearestIndices32(id, x, idx);
        sumQX = sumQ2 = 0;
        for (int j = 0; j < 32; ++j) {
            const auto q = static_cast<float>(kValuesIQ4NL[idx[j]]);
            const float w = x[j] * x[j];
            sumQX += w * q * x[j];
            sumQ2 += w * q * q;
        }
    };
    fit(1 / d, /*store=*/true);
    d = sumQ2 > 0 ? sumQX / sumQ2 : 0.0f;
    float best = d * sumQX;
    for (int k = -ntry; k <= ntry; ++k) {
        fit(static_cast<float>(k + kValuesIQ4NL[0]) / max, /*store=*/false);
        if (sumQ2 > 0 && sumQX * sumQX > best * sumQ2) {
            d = sumQX / sumQ2;
            best = d * sumQX;
        }
    }
    return d;
}

void packNibbles(const uint8_t* L, int n, uint8_t* qs)
{
    for (int i = 0; i < n / 32; ++i)
        for (int j = 0; j < 16; ++j)
            qs[16 * i + j] = static_cast<uint8_t>(L[32 * i + j] | (L[32 * i + 16 + j] << 4));
}

} // namespace

void dequantizeRowIQ4_NL(const BlockIQ4_NL* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / QK4_NL; ++i, y += QK4_NL) {
        const float d = loadHalf(x[i].d);
        for (int j = 0; j < QK4_NL / 2; ++j) {
            y[j] = d * static_cast<float>(kValuesIQ4NL[x[i].qs[j] & 0x0f]);
            y[j + QK4_NL / 2] = d * static_cast<float>(kValuesIQ4NL[x[i].qs[j] >> 4]);
        }
    }
}

void dequantizeRowIQ4_XS(const BlockIQ4_XS* x, float* y, int64_t n)
{
    for (int64_t i = 0; i < n / 256; ++i) {
        const float d = loadHalf(x[i].d);
        for (int b = 0; b < 8; ++b, y += 32) {
            const int ls = ((x[i].scalesL[b / 2] >> (4 * (b % 2))) & 0x0f) | (((x[i].scalesH >> (2 * b)) & 3) << 4);
            const float dl = d * static_cast<float>(ls - 32);
            const uint8_t* qs = x[i].qs + 16 * b;
            for (int j = 0; j < 16; ++j) {
                y[j] = dl * static_cast<float>(kValuesIQ4NL[qs[j] & 0x0f]);
                y[j + 16] = dl * static_cast<float>(kValuesIQ4NL[qs[j] >> 4]);
            }
        }
    }
}

// One group, one f16 scale, indices from the first fit (as ggml's
// reference, which tries no other scales for iq4_nl).
void quantizeRowIQ4_NL(const float* x, BlockIQ4_NL* y, int64_t n)
{
    uint8_t L[QK4_NL];
    for (int64_t i = 0; i < n / QK4_NL; ++i, x += QK4_NL) {
        const float d = fitGroup(x, /*ntry=*/-1, L);
        y[i].d = storeHalf(d);
        packNibbles(L, QK4_NL, y[i].qs);
    }
}

// The scale searched as for an iq4_xs group; the indices are then those of
// the unrounded scale (ggml's quantize_iq4_nl without weights).
void quantizeChunkIQ4_NL(const float* x, BlockIQ4_NL* y, int64_t n)
{
    uint8_t L[QK4_NL];
    for (int64_t i = 0; i < n / QK4_NL; ++i, x += QK4_NL) {
        const float d = fitGroup(x, /*ntry=*/7, L);
        y[i].d = storeHalf(d);
        nearestIndices32(d != 0.0f ? 1 / d : 0.0f, x, L);
        packNibbles(L, QK4_NL, y[i].qs);
    }
}

// Eight groups with searched scales, stored as 6-bit signed multiples of
// (largest-magnitude scale)/-32; the indices are recomputed with each
// group's stored scale.
void quantizeRowIQ4_XS(const float* x, BlockIQ4_XS* y, int64_t n)
{
    uint8_t L[256];
    float scales[8];
    for (int64_t i = 0; i < n / 256; ++i, x += 256) {
        float maxScale = 0, amaxScale = 0;
        for (int b = 0; b < 8; ++b) {
            scales[b] = fitGroup(x + 32 * b, /*ntry=*/7, L + 32 * b);
            if (std::fabs(scales[b]) > amaxScale) {
                amaxScale = std::fabs(scales[b]);
                maxScale = scales[b];
            }
        }
        const float d = -maxScale / 32;
        y[i].d = storeHalf(d);
        const float id = d != 0.0f ? 1 / d : 0.0f;
        y[i].scalesH = 0;
        std::memset(y[i].scalesL, 0, sizeof y[i].scalesL);
        for (int b = 0; b < 8; ++b) {
            const int l = std::clamp(nearestInt(id * scales[b]), -32, 31);
            const float dl = d * static_cast<float>(l);
            nearestIndices32(dl != 0.0f ? 1 / dl : 0.0f, x + 32 * b, L + 32 * b);
            const int stored = l + 32;
            y[i].scalesL[b / 2] = static_cast<uint8_t>(y[i].scalesL[b / 2] | ((stored & 0x0f) << (4 * (b % 2))));
            y[i].scalesH = static_cast<uint16_t>(y[i].scalesH | ((stored >> 4) << (2 * b)));
        }
        packNibbles(L, 256, y[i].qs);
    }
}

} // namespace hearth
