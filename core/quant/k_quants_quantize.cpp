// Scalar reference quantizers of the K-quant weight formats. Each sub-block
// gets the scale (and min) that minimizes a weighted error over a small set
// of candidate scales; the sub-block scales are then quantized against the
// super-block maximum and the quants recomputed with the scales as stored.
// The searches follow ggml's reference quantizers step by step, in the same
// float arithmetic, so for inputs without NaN the output is the same bytes
// that llama.cpp's quantize_row_*_ref writes (tested for q4_K, q5_K, q6_K).
#include "quant/k_quants.h"

#include "quant/quant_common.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hearth {

using quant_detail::loadHalf;
using quant_detail::nearestInt;
using quant_detail::storeHalf;

namespace {

constexpr float kGroupMaxEps = 1e-15f; // below this a group counts as all zero

// Affine fit x ~ scale * L + min with L in 0..nmax and min <= 0, minimizing
// sum w*|err| (useMad) or sum w*err^2. Tries the plain min/max mapping, then
// nstep+1 inverse scales (nmax + rmin + rdelta*k)/(max - min), solving the
// weighted least-squares scale and min for each rounding. Returns the scale;
// *negMin receives -min (>= 0).
float fitAffine(const float* x, const float* w, int n, int nmax, float rmin, float rdelta, int nstep, bool useMad,
                uint8_t* L, float* negMin)
{
    float min = x[0], max = x[0];
    float sumW = w[0];
    float sumX = sumW * x[0];
    for (int i = 1; i < n; ++i) {
        min = x[i] < min ? x[i] : min;
        max = x[i] > max ? x[i] : max;
        sumW += w[i];
        sumX += w[i] * x[i];
    }
    if (min > 0)
        min = 0;
    if (max == min) {
        std::fill(L, L + n, uint8_t{0});
        *negMin = -min;
        return 0.0f;
    }
    const auto error = [&](float scale, float offset, const uint8_t* q) {
        float e = 0;
        for (int i = 0; i < n; ++i) {
            float diff = scale * static_cast<float>(q[i]) + offset - x[i];
            diff = useMad ? std::fabs(diff) : diff * diff;
            e += w[i] * diff;
        }
        return e;
    };
    const auto roundAll = [&](float iscale, float offset, uint8_t* q) {
        for (int i = 0; i < n; ++i)
            q[i] = static_cast<uint8_t>(std::clamp(nearestInt(iscale * (x[i] - offset)), 0, nmax));
    };
    float iscale = static_cast<float>(nmax) / (max - min);
    float scale = 1 / iscale;
    roundAll(iscale, min, L);
    float bestError = error(scale, min, L);
    uint8_t trial[32];
    if (nstep < 1) {
        *negMin = -min;
        return scale;
    }
    for (int k = 0; k <= nstep; ++k) {
        iscale = (rmin + rdelta * static_cast<float>(k) + static_cast<float>(nmax)) / (max - min);
        roundAll(iscale, min, trial);
        float sumL = 0, sumL2 = 0, sumXL = 0;
        for (int i = 0; i < n; ++i) {
            const auto l = static_cast<float>(trial[i]);
            sumL += w[i] * l;
            sumL2 += w[i] * l * l;
            sumXL += w[i] * l * x[i];
        }
        const float det = sumW * sumL2 - sumL * sumL;
        if (!(det > 0))
            continue;
        float trialScale = (sumW * sumXL - sumX * sumL) / det;
        float trialMin = (sumL2 * sumX - sumL * sumXL) / det;
        if (trialMin > 0) {
            trialMin = 0;
            trialScale = sumXL / sumL2;
        }
        const float e = error(trialScale, trialMin, trial);
        if (e < bestError) {
            std::copy(trial, trial + n, L);
            bestError = e;
            scale = trialScale;
            min = trialMin;
        }
    }
    *negMin = -min;
    return scale;
}

// Symmetric fit x ~ scale * (L - nmax), L - nmax in -nmax..nmax-1, weights
// x^2. The largest-magnitude value fixes the sign; 19 inverse scales around
// nmax/max are tried and the one with the best weighted least-squares fit
// kept. Returns the scale.
float fitSymmetric(const float* x, int n, int nmax, int8_t* L)
{
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
        if (std::fabs(x[i]) > amax) {
            amax = std::fabs(x[i]);
            max = x[i];
        }
    }
    if (amax < kGroupMaxEps) {
        std::fill(L, L + n, int8_t{0});
        return 0.0f;
    }
    float sumLX = 0, sumL2 = 0;
    const auto fit = [&](float iscale, bool store) {
        sumLX = sumL2 = 0;
        for (int i = 0; i < n; ++i) {
            const int l = std::clamp(nearestInt(iscale * x[i]), -nmax, nmax - 1);
            if (store)
                L[i] = static_cast<int8_t>(l + nmax);
            const float w = x[i] * x[i];
            sumLX += w * x[i] * static_cast<float>(l);
            sumL2 += w * static_cast<float>(l) * static_cast<float>(l);
        }
    };
    fit(-static_cast<float>(nmax) / max, /*store=*/true);
    float scale = sumL2 != 0 ? sumLX / sumL2 : 0.0f;
    float best = scale * sumLX;
    for (int k = -9; k <= 9; ++k) {
        if (k == 0)
            continue;
        const float iscale = -(static_cast<float>(nmax) + 0.1f * static_cast<float>(k)) / max;
        fit(iscale, /*store=*/false);
        if (sumL2 > 0 && sumLX * sumLX > best * sumL2) {
            fit(iscale, /*store=*/true);
            scale = sumLX / sumL2;
            best = scale * sumLX;
        }
    }
    return scale;
}

// Symmetric 3-bit fit (values -nmax..nmax-1) by coordinate descent: start
// from the max mapping, then move single quants while the weighted
// least-squares error improves. L receives values offset by nmax.
float fitSymmetricIterative(const float* x, int n, int nmax, int8_t* L)
{
    float max = 0, amax = 0;
    for (int i = 0; i < n; ++i) {
        if (std::fabs(x[i]) > amax) {
            amax = std::fabs(x[i]);
            max = x[i];
        }
    }
    if (amax < kGroupMaxEps) {
        std::fill(L, L + n, int8_t{0});
        return 0.0f;
    }
    const float iscale = -static_cast<float>(nmax) / max;
    float sumLX = 0, sumL2 = 0;
    for (int i = 0; i < n; ++i) {
        const int l = std::clamp(nearestInt(iscale * x[i]), -nmax, nmax - 1);
        L[i] = static_cast<int8_t>(l);
        const float w = x[i] * x[i];
        sumLX += w * x[i] * static_cast<float>(l);
        sumL2 += w * static_cast<float>(l) * static_cast<float>(l);
    }
    for (int pass = 0; pass < 5; ++pass) {
        int changed = 0;
        for (int i = 0; i < n; ++i) {
            const float w = x[i] * x[i];
            const auto li = static_cast<float>(L[i]);
            float slx = sumLX - w * x[i] * li;
            if (!(slx > 0))
                continue;
            float sl2 = sumL2 - w * li * li;
            const int nl = std::clamp(nearestInt(x[i] * sl2 / slx), -nmax, nmax - 1);
            if (nl == L[i])
                continue;
            slx += w * x[i] * static_cast<float>(nl);
            sl2 += w * static_cast<float>(nl) * static_cast<float>(nl);
            if (sl2 > 0 && slx * slx * sumL2 > sumLX * sumLX * sl2) {
                L[i] = static_cast<int8_t>(nl);
                sumLX = slx;
                sumL2 = sl2;
                ++changed;
            }
        }
        if (!changed)
            break;
    }
    for (int i = 0; i < n; ++i)
        L[i] = static_cast<int8_t>(L[i] + nmax);
    return sumL2 > 0.0f ? sumLX / sumL2 : 0.0f;
}

// Packs 2-bit values: byte l of each 32-byte group holds elements l, l+32,
// l+64, l+96 of its 128-element half.
void pack2Bit(const uint8_t* L, uint8_t* qs)
{
    for (int j = 0; j < QK_K; j += 128)
        for (int l = 0; l < 32; ++l)
            qs[j / 4 + l] =
                static_cast<uint8_t>(L[j + l] | (L[j + l + 32] << 2) | (L[j + l + 64] << 4) | (L[j + l + 96] << 6));
}

// Stores 8 6-bit scales and mins in the q4_K/q5_K layout (see scaleMinK4).
void packScaleMinK4(const uint8_t* ls, const uint8_t* lm, uint8_t* scales)
{
    for (int j = 0; j < 8; ++j) {
        if (j < 4) {
            scales[j] = ls[j];
            scales[j + 4] = lm[j];
        } else {
            scales[j + 4] = static_cast<uint8_t>((ls[j] & 0x0f) | ((lm[j] & 0x0f) << 4));
            scales[j - 4] = static_cast<uint8_t>(scales[j - 4] | ((ls[j] >> 4) << 6));
            scales[j] = static_cast<uint8_t>(scales[j] | ((lm[j] >> 4) << 6));
        }
    }
}

// The shared part of q4_K and q5_K: per 32-element sub-block an affine fit
// weighted by (rms + |x|), 6-bit scales and mins, then the final quants in
// 0..nmax computed with the stored scales. Fills d, dmin, scales and L.
void quantizeAffineK(const float* x, int nmax, float rmin, int nstep, uint16_t& d, uint16_t& dmin, uint8_t* scales,
                     uint8_t* L)
{
    float subScale[8], subMin[8], weights[32];
    float maxScale = 0, maxMin = 0;
    for (int j = 0; j < 8; ++j) {
        const float* xs = x + 32 * j;
        float sumX2 = 0;
        for (int l = 0; l < 32; ++l)
            sumX2 += xs[l] * xs[l];
        const float rms = std::sqrt(sumX2 / 32);
        for (int l = 0; l < 32; ++l)
            weights[l] = rms + std::fabs(xs[l]);
        subScale[j] = fitAffine(xs, weights, 32, nmax, rmin, 0.1f, nstep, /*useMad=*/false, L + 32 * j, &subMin[j]);
        maxScale = std::max(maxScale, subScale[j]);
        maxMin = std::max(maxMin, subMin[j]);
    }
    const float invScale = maxScale > 0 ? 63.f / maxScale : 0.f;
    const float invMin = maxMin > 0 ? 63.f / maxMin : 0.f;
    uint8_t ls[8], lm[8];
    for (int j = 0; j < 8; ++j) {
        ls[j] = std::min<uint8_t>(63, static_cast<uint8_t>(nearestInt(invScale * subScale[j])));
        lm[j] = std::min<uint8_t>(63, static_cast<uint8_t>(nearestInt(invMin * subMin[j])));
    }
    packScaleMinK4(ls, lm, scales);
    d = storeHalf(maxScale / 63.f);
    dmin = storeHalf(maxMin / 63.f);
    for (int j = 0; j < 8; ++j) {
        uint8_t sc, m;
        scaleMinK4(j, scales, sc, m);
        const float dl = loadHalf(d) * static_cast<float>(sc);
        if (dl == 0.0f)
            continue;
        const float ml = loadHalf(dmin) * static_cast<float>(m);
        for (int l = 0; l < 32; ++l)
            L[32 * j + l] = static_cast<uint8_t>(std::clamp(nearestInt((x[32 * j + l] + ml) / dl), 0, nmax));
    }
}

} // namespace

void quantizeRowQ4_K(const float* x, BlockQ4_K* y, int64_t n)
{
    uint8_t L[QK_K];
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        quantizeAffineK(x, 15, -1.0f, 20, y[i].d, y[i].dmin, y[i].scales, L);
        for (int j = 0; j < QK_K; j += 64)
            for (int l = 0; l < 32; ++l)
                y[i].qs[j / 2 + l] = static_cast<uint8_t>(L[j + l] | (L[j + l + 32] << 4));
    }
}

void quantizeRowQ5_K(const float* x, BlockQ5_K* y, int64_t n)
{
    uint8_t L[QK_K];
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        quantizeAffineK(x, 31, -0.5f, 15, y[i].d, y[i].dmin, y[i].scales, L);
        std::memset(y[i].qh, 0, sizeof y[i].qh);
        for (int j = 0; j < QK_K; j += 64) {
            for (int l = 0; l < 32; ++l) {
                const int lo = L[j + l], hi = L[j + l + 32];
                y[i].qs[j / 2 + l] = static_cast<uint8_t>((lo & 0x0f) | ((hi & 0x0f) << 4));
                y[i].qh[l] = static_cast<uint8_t>(y[i].qh[l] | ((lo >> 4) << (j / 32)) | ((hi >> 4) << (j / 32 + 1)));
            }
        }
    }
}

// 16 sub-blocks of 16 with a symmetric 6-bit fit each; their scales are
// stored as int8 against the largest one (which maps to -128).
void quantizeRowQ6_K(const float* x, BlockQ6_K* y, int64_t n)
{
    int8_t L[QK_K];
    float subScale[QK_K / 16];
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        float maxScale = 0, maxAbsScale = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            subScale[j] = fitSymmetric(x + 16 * j, 16, 32, L + 16 * j);
            if (std::fabs(subScale[j]) > maxAbsScale) {
                maxAbsScale = std::fabs(subScale[j]);
                maxScale = subScale[j];
            }
        }
        if (maxAbsScale < kGroupMaxEps) {
            std::memset(&y[i], 0, sizeof y[i]);
            continue;
        }
        const float iscale = -128.f / maxScale;
        y[i].d = storeHalf(1 / iscale);
        for (int j = 0; j < QK_K / 16; ++j)
            y[i].scales[j] = static_cast<int8_t>(std::min(127, nearestInt(iscale * subScale[j])));
        for (int j = 0; j < QK_K / 16; ++j) {
            const float dl = loadHalf(y[i].d) * static_cast<float>(y[i].scales[j]);
            if (dl == 0.0f)
                continue;
            for (int l = 0; l < 16; ++l)
                L[16 * j + l] = static_cast<int8_t>(std::clamp(nearestInt(x[16 * j + l] / dl), -32, 31) + 32);
        }
        for (int h = 0; h < QK_K; h += 128) {
            uint8_t* ql = y[i].ql + h / 2;
            uint8_t* qh = y[i].qh + h / 4;
            for (int l = 0; l < 32; ++l) {
                const int q0 = L[h + l], q1 = L[h + l + 32], q2 = L[h + l + 64], q3 = L[h + l + 96];
                ql[l] = static_cast<uint8_t>((q0 & 0x0f) | ((q2 & 0x0f) << 4));
                ql[l + 32] = static_cast<uint8_t>((q1 & 0x0f) | ((q3 & 0x0f) << 4));
                qh[l] = static_cast<uint8_t>((q0 >> 4) | ((q1 >> 4) << 2) | ((q2 >> 4) << 4) | ((q3 >> 4) << 6));
            }
        }
    }
}

// 16 sub-blocks of 16 with an affine 2-bit fit (weights |x|, least absolute
// error); 4-bit scales and mins against the largest of each.
void quantizeRowQ2_K(const float* x, BlockQ2_K* y, int64_t n)
{
    uint8_t L[QK_K];
    float weights[16], subScale[QK_K / 16], subMin[QK_K / 16];
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        float maxScale = 0, maxMin = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            for (int l = 0; l < 16; ++l)
                weights[l] = std::fabs(x[16 * j + l]);
            subScale[j] =
                fitAffine(x + 16 * j, weights, 16, 3, -0.5f, 0.1f, 15, /*useMad=*/true, L + 16 * j, &subMin[j]);
            maxScale = std::max(maxScale, subScale[j]);
            maxMin = std::max(maxMin, subMin[j]);
        }
        std::memset(y[i].scales, 0, sizeof y[i].scales);
        y[i].d = storeHalf(0.f);
        y[i].dmin = storeHalf(0.f);
        if (maxScale > 0) {
            const float iscale = 15.f / maxScale;
            for (int j = 0; j < QK_K / 16; ++j)
                y[i].scales[j] = static_cast<uint8_t>(nearestInt(iscale * subScale[j]));
            y[i].d = storeHalf(maxScale / 15.f);
        }
        if (maxMin > 0) {
            const float iscale = 15.f / maxMin;
            for (int j = 0; j < QK_K / 16; ++j)
                y[i].scales[j] = static_cast<uint8_t>(y[i].scales[j] | (nearestInt(iscale * subMin[j]) << 4));
            y[i].dmin = storeHalf(maxMin / 15.f);
        }
        for (int j = 0; j < QK_K / 16; ++j) {
            const float dl = loadHalf(y[i].d) * static_cast<float>(y[i].scales[j] & 0x0f);
            if (dl == 0.0f)
                continue;
            const float ml = loadHalf(y[i].dmin) * static_cast<float>(y[i].scales[j] >> 4);
            for (int l = 0; l < 16; ++l)
                L[16 * j + l] = static_cast<uint8_t>(std::clamp(nearestInt((x[16 * j + l] + ml) / dl), 0, 3));
        }
        pack2Bit(L, y[i].qs);
    }
}

// 16 sub-blocks of 16 with a symmetric 3-bit fit; 6-bit signed scales
// against the largest-magnitude one (which maps to -32).
void quantizeRowQ3_K(const float* x, BlockQ3_K* y, int64_t n)
{
    int8_t L[QK_K];
    float subScale[QK_K / 16];
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        float maxScale = 0, amax = 0;
        for (int j = 0; j < QK_K / 16; ++j) {
            subScale[j] = fitSymmetricIterative(x + 16 * j, 16, 4, L + 16 * j);
            if (std::fabs(subScale[j]) > amax) {
                amax = std::fabs(subScale[j]);
                maxScale = subScale[j];
            }
        }
        std::memset(y[i].scales, 0, sizeof y[i].scales);
        y[i].d = storeHalf(0.f);
        if (maxScale != 0.0f) {
            const float iscale = -32.f / maxScale;
            for (int j = 0; j < QK_K / 16; ++j) {
                const int l =
                    std::clamp(static_cast<int>(static_cast<int8_t>(nearestInt(iscale * subScale[j]))), -32, 31) + 32;
                if (j < 8)
                    y[i].scales[j] = static_cast<uint8_t>(l & 0x0f);
                else
                    y[i].scales[j - 8] = static_cast<uint8_t>(y[i].scales[j - 8] | ((l & 0x0f) << 4));
                y[i].scales[j % 4 + 8] = static_cast<uint8_t>(y[i].scales[j % 4 + 8] | ((l >> 4) << (2 * (j / 4))));
            }
            y[i].d = storeHalf(1 / iscale);
        }
        for (int j = 0; j < QK_K / 16; ++j) {
            const int low = j < 8 ? y[i].scales[j] & 0x0f : y[i].scales[j - 8] >> 4;
            const int sc = (low | (((y[i].scales[8 + j % 4] >> (2 * (j / 4))) & 3) << 4)) - 32;
            const float dl = loadHalf(y[i].d) * static_cast<float>(sc);
            if (dl == 0.0f)
                continue;
            for (int l = 0; l < 16; ++l)
                L[16 * j + l] = static_cast<int8_t>(std::clamp(nearestInt(x[16 * j + l] / dl), -4, 3) + 4);
        }
        std::memset(y[i].hmask, 0, sizeof y[i].hmask);
        uint8_t low2[QK_K];
        for (int e = 0; e < QK_K; ++e) {
            if (L[e] > 3)
                y[i].hmask[e % 32] = static_cast<uint8_t>(y[i].hmask[e % 32] | (1u << (e / 32)));
            low2[e] = static_cast<uint8_t>(L[e] & 3);
        }
        pack2Bit(low2, y[i].qs);
    }
}

} // namespace hearth
