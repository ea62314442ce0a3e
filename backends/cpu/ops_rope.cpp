// Rotary position embedding, computed as ggml's rope_ext does: per position
// a table of (cos, sin) over the head, theta multiplied by theta_scale step
// by step, YaRN ramp and magnitude correction when asked. RopeShift rotates
// cached K rows by a position delta (context shift), in their stored type.
#include "cpu/kernels.h"
#include "cpu/ops.h"
#include "util/fma.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

namespace hearth::cpu {

namespace {

float yarnRamp(float low, float high, int64_t i0)
{
    const float y = (static_cast<float>(i0 / 2) - low) / std::max(0.001f, high - low);
    return 1.0f - std::min(1.0f, std::max(0.0f, y));
}

void yarnCorrDims(const RopeParams& p, float dims[2])
{
    const auto corrDim = [&](float nRot) {
        return static_cast<float>(p.nRot) *
               std::log(static_cast<float>(p.nCtxOrig) / (nRot * 2.0f * std::numbers::pi_v<float>)) /
               (2.0f * std::log(p.freqBase));
    };
    const float start = std::floor(corrDim(p.betaFast));
    const float end = std::ceil(corrDim(p.betaSlow));
    dims[0] = std::max(0.0f, start);
    dims[1] = std::min(static_cast<float>(p.nRot - 1), end);
}

// cache[2i], cache[2i+1] = cos, sin of dimension pair i for position `pos`.
void ropeCache(const RopeParams& p, float pos, int64_t headDim, float* cache)
{
    const float thetaScale = std::pow(p.freqBase, -2.0f / static_cast<float>(p.nRot));
    float corr[2] = {0.0f, 0.0f};
    if (p.extFactor != 0.0f)
        yarnCorrDims(p, corr);
    float theta = pos;
    for (int64_t i0 = 0; i0 < headDim; i0 += 2) {
        const float ff = p.freqFactors && i0 < p.nRot ? p.freqFactors[i0 / 2] : 1.0f;
        const float extrap = theta / ff;
        const float interp = p.freqScale * extrap;
        float t = interp;
        float mscale = p.attnFactor;
        if (p.extFactor != 0.0f) {
            const float mix = yarnRamp(corr[0], corr[1], i0) * p.extFactor;
            t = interp * (1 - mix) + extrap * mix;
            mscale *= 1.0f + 0.1f * std::log(1.0f / p.freqScale);
        }
        cache[i0] = std::cos(t) * mscale;
        cache[i0 + 1] = std::sin(t) * mscale;
        theta *= thetaScale;
    }
}

// Rotates the first nRot values of one head (in place allowed). llama.cpp's
// build lets GCC fuse x0·cos - x1·sin into fma(x0, cos, -(x1·sin)) and
// x0·sin + x1·cos into fma(x0, sin, x1·cos) (GNU dialect, FMA target): the
// same fused forms here keep every rotated value bit-identical.
void rotate(const RopeParams& p, const float* cache, const float* src, float* dst, int64_t headDim)
{
    const int64_t n = p.nRot;
    if (p.mode == RopeMode::Normal) {
        for (int64_t i0 = 0; i0 < n; i0 += 2) {
            const float x0 = src[i0], x1 = src[i0 + 1];
            dst[i0] = fusedMultiplyAdd(x0, cache[i0], -(x1 * cache[i0 + 1]));
            dst[i0 + 1] = fusedMultiplyAdd(x0, cache[i0 + 1], x1 * cache[i0]);
        }
    } else {
        const int64_t half = n / 2;
        for (int64_t i0 = 0; i0 < n; i0 += 2) {
            const int64_t i = i0 / 2;
            const float x0 = src[i], x1 = src[i + half];
            dst[i] = fusedMultiplyAdd(x0, cache[i0], -(x1 * cache[i0 + 1]));
            dst[i + half] = fusedMultiplyAdd(x0, cache[i0 + 1], x1 * cache[i0]);
        }
    }
    if (dst != src)
        std::copy(src + n, src + headDim, dst + n);
}

} // namespace

size_t ropeWorkBytes(const Op& op, int nth)
{
    if (op.kind == OpKind::Rope)
        return alignUp(static_cast<size_t>(op.src[0].ne[0]) * 2 * sizeof(float)) * static_cast<size_t>(nth);
    // RopeShift converts a whole cached row to f32 and back.
    const size_t floats = static_cast<size_t>(op.dst.ne[0] + 2 * op.attn.headDimK);
    return alignUp(floats * sizeof(float)) * static_cast<size_t>(nth);
}

void runRope(const Op& op, const ExecContext& ctx)
{
    const Tensor& x = op.src[0]; // [d, heads, n]
    const int64_t d = x.ne[0], heads = x.ne[1], n = x.ne[2];
    float* cache = reinterpret_cast<float*>(ctx.work + ropeWorkBytes(op, 1) * static_cast<size_t>(ctx.ith));
    int64_t begin, end;
    splitRange(heads * n, ctx.ith, ctx.nth, begin, end);
    int64_t cachedToken = -1;
    for (int64_t r = begin; r < end; ++r) {
        const int64_t h = r % heads, t = r / heads;
        if (t != cachedToken) {
            ropeCache(op.rope, static_cast<float>(op.ids[t]), d, cache);
            cachedToken = t;
        }
        rotate(op.rope, cache, x.f32Row(h, t), op.dst.f32Row(h, t), d);
    }
}

void runRopeShift(const Op& op, const ExecContext& ctx)
{
    const Tensor& k = op.dst; // [headDim * nHeadKv, cells]
    const int64_t rowLen = k.ne[0];
    const int64_t headDim = op.attn.headDimK;
    const TypeKernels& kern = typeKernels(k.type);
    float* row = reinterpret_cast<float*>(ctx.work + ropeWorkBytes(op, 1) * static_cast<size_t>(ctx.ith));
    float* cache = row + rowLen;
    int64_t begin, end;
    splitRange(k.ne[1], ctx.ith, ctx.nth, begin, end);
    for (int64_t c = begin; c < end; ++c) {
        if (op.ids[c] == 0)
            continue;
        ropeCache(op.rope, static_cast<float>(op.ids[c]), headDim, cache);
        kern.toFloat(k.row(c), row, rowLen);
        for (int64_t h0 = 0; h0 < rowLen; h0 += headDim)
            rotate(op.rope, cache, row + h0, row + h0, headDim);
        kern.fromFloat(row, k.row(c), rowLen);
    }
}

} // namespace hearth::cpu
