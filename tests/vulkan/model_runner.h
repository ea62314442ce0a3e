// Loads a model with a number of layers on the Vulkan device and runs
// tokens through it, for comparing the logits and greedy tokens of a
// split (or full offload) with the CPU's.
#pragma once

#include "vulkan_test_support.h"

#include "cpu/cpu_backend.h"
#include "runtime/context.h"
#include "runtime/loaded_model.h"

#include <algorithm>
#include <span>

namespace vktest {

struct Run {
    std::shared_ptr<hearth::LoadedModel> model;
    std::unique_ptr<hearth::Context> ctx;
};

inline Run load(const std::string& path, hearth::Backend& cpu, hearth::Backend* gpu, int gpuLayers, int64_t nCtx = 64,
                int64_t nBatch = 16)
{
    hearth::LoadOptions o;
    o.touchWeights = false;
    o.device = gpu;
    o.gpuLayers = gpuLayers;
    o.context = hearth::ContextParams{nCtx, nBatch, hearth::GgmlType::F16};
    Run r;
    r.model = hearth::LoadedModel::load(path, cpu, o);
    r.ctx = std::make_unique<hearth::Context>(r.model->modelShared(), cpu, o.context);
    return r;
}

// Logits of every position: `batch` tokens in one pass, the rest one by one.
inline std::vector<float> logits(hearth::Context& ctx, std::span<const int32_t> tokens, size_t batch)
{
    std::vector<float> out;
    const auto collect = [&] {
        for (int64_t i = 0; i < ctx.outputCount(); ++i) {
            const auto row = ctx.logits(i);
            out.insert(out.end(), row.begin(), row.end());
        }
    };
    if (!ctx.decode(tokens.first(batch), 0, 0, /*allLogits=*/true))
        return {};
    collect();
    for (size_t i = batch; i < tokens.size(); ++i) {
        if (!ctx.decode(tokens.subspan(i, 1), static_cast<int32_t>(i), 0, true))
            return {};
        collect();
    }
    return out;
}

// `n` greedy tokens after `prompt`.
inline std::vector<int32_t> greedy(hearth::Context& ctx, std::vector<int32_t> prompt, int n)
{
    std::vector<int32_t> out;
    int32_t pos = 0;
    for (int i = 0; i < n; ++i) {
        if (!ctx.decode(prompt, pos, 0, false))
            return {};
        pos += static_cast<int32_t>(prompt.size());
        const auto row = ctx.logits(0);
        const auto best = static_cast<int32_t>(std::max_element(row.begin(), row.end()) - row.begin());
        out.push_back(best);
        prompt = {best};
    }
    return out;
}

// max |a - b| relative to max |b|.
inline double relMaxDiff(const std::vector<float>& a, const std::vector<float>& b)
{
    double diff = 0, scale = 0;
    for (size_t i = 0; i < b.size() && i < a.size(); ++i) {
        diff = std::max(diff, std::abs(static_cast<double>(a[i]) - b[i]));
        scale = std::max(scale, std::abs(static_cast<double>(b[i])));
    }
    return a.size() == b.size() && scale > 0 ? diff / scale : 1e30;
}

} // namespace vktest
