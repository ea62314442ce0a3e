#include "model/hparams.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>

namespace hearth {

namespace {

// Upper bounds that no real model comes near; they keep a hostile header
// from driving allocation sizes.
constexpr int64_t kMaxLayers = 1024;
constexpr int64_t kMaxWidth = 1 << 20;
constexpr int64_t kMaxHeads = 4096;

std::string key(const std::string& arch, const char* name)
{
    return arch + "." + name;
}

int64_t requireRange(const gguf::File& f, const std::string& k, int64_t v, int64_t lo, int64_t hi)
{
    if (v < lo || v > hi)
        f.fail(k,
               "value " + std::to_string(v) + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return v;
}

// A per-layer count stored either as one integer or as an array of n_layer.
std::vector<int32_t> perLayer(const gguf::File& f, const std::string& k, int64_t nLayer, int64_t fallback, int64_t lo,
                              int64_t hi)
{
    std::vector<int32_t> out(static_cast<size_t>(nLayer), static_cast<int32_t>(fallback));
    const gguf::Value* v = f.find(k);
    if (!v)
        return out;
    if (v->type() == gguf::ValueType::Array) {
        if (v->size() != static_cast<uint64_t>(nLayer))
            f.fail(k, "has " + std::to_string(v->size()) + " entries, expected one per layer (" +
                          std::to_string(nLayer) + ")");
        for (int64_t i = 0; i < nLayer; ++i)
            out[static_cast<size_t>(i)] =
                static_cast<int32_t>(requireRange(f, k, v->intAt(static_cast<uint64_t>(i)), lo, hi));
        return out;
    }
    const int64_t n = requireRange(f, k, f.getInt(k), lo, hi);
    std::fill(out.begin(), out.end(), static_cast<int32_t>(n));
    return out;
}

void readRope(const gguf::File& f, const std::string& arch, ModelParams& p)
{
    RopeParams& r = p.rope;
    r.freqBase = static_cast<float>(f.findFloat(key(arch, "rope.freq_base")).value_or(10000.0));
    r.nRot = static_cast<int>(requireRange(f, key(arch, "rope.dimension_count"),
                                           f.findInt(key(arch, "rope.dimension_count")).value_or(p.headDimK), 2,
                                           p.headDimK));
    if (r.nRot % 2 != 0)
        f.fail(key(arch, "rope.dimension_count"), "must be even");
    if (!(r.freqBase > 0.0f) || !std::isfinite(r.freqBase))
        f.fail(key(arch, "rope.freq_base"), "must be a positive number");
    r.nCtxOrig = static_cast<int>(f.findInt(key(arch, "rope.scaling.original_context_length")).value_or(p.nCtxTrain));

    const std::string type(f.findString(key(arch, "rope.scaling.type")).value_or("none"));
    float factor = static_cast<float>(f.findFloat(key(arch, "rope.scaling.factor")).value_or(0.0));
    if (const auto linear = f.findFloat(key(arch, "rope.scale_linear")))
        factor = static_cast<float>(*linear); // older files
    if (type == "linear" || (type == "none" && factor > 1.0f)) {
        p.ropeScaling = RopeScaling::Linear;
    } else if (type == "yarn") {
        p.ropeScaling = RopeScaling::Yarn;
        r.extFactor = 1.0f;
        r.attnFactor = static_cast<float>(f.findFloat(key(arch, "rope.scaling.attn_factor")).value_or(1.0));
        r.betaFast = static_cast<float>(f.findFloat(key(arch, "rope.scaling.yarn_beta_fast")).value_or(32.0));
        r.betaSlow = static_cast<float>(f.findFloat(key(arch, "rope.scaling.yarn_beta_slow")).value_or(1.0));
    } else if (type == "longrope") {
        p.ropeScaling = RopeScaling::LongRope;
        r.attnFactor = static_cast<float>(f.findFloat(key(arch, "rope.scaling.attn_factor")).value_or(1.0));
    } else if (type != "none") {
        f.fail(key(arch, "rope.scaling.type"), "unknown rope scaling '" + type + "'");
    }
    if (factor > 0.0f && p.ropeScaling != RopeScaling::LongRope)
        r.freqScale = 1.0f / factor;
}

} // namespace

void setSlidingPattern(ModelParams& p, int period)
{
    p.swaLayers.assign(static_cast<size_t>(p.nLayer), 0);
    for (int64_t i = 0; i < p.nLayer; ++i)
        p.swaLayers[static_cast<size_t>(i)] = period > 0 && (i % period) < period - 1 ? 1 : 0;
}

ModelParams readModelParams(const gguf::File& f, RopeMode ropeMode)
{
    ModelParams p;
    p.arch = std::string(f.architecture());
    const std::string& a = p.arch;
    p.nEmbd = requireRange(f, key(a, "embedding_length"), f.getInt(key(a, "embedding_length")), 1, kMaxWidth);
    p.nLayer = requireRange(f, key(a, "block_count"), f.getInt(key(a, "block_count")), 1, kMaxLayers);
    p.nCtxTrain = requireRange(f, key(a, "context_length"), f.findInt(key(a, "context_length")).value_or(4096), 1,
                               int64_t{1} << 24);
    const std::vector<int32_t> ff = perLayer(f, key(a, "feed_forward_length"), p.nLayer, 0, 0, kMaxWidth);
    p.nFf = *std::max_element(ff.begin(), ff.end());
    p.headsPerLayer = perLayer(f, key(a, "attention.head_count"), p.nLayer, 0, 1, kMaxHeads);
    if (!f.find(key(a, "attention.head_count")))
        f.fail(key(a, "attention.head_count"), "is missing");
    p.kvHeadsPerLayer = perLayer(f, key(a, "attention.head_count_kv"), p.nLayer, 0, 1, kMaxHeads);
    for (int64_t i = 0; i < p.nLayer; ++i) {
        auto& kv = p.kvHeadsPerLayer[static_cast<size_t>(i)];
        if (kv == 0)
            kv = p.headsPerLayer[static_cast<size_t>(i)];
        if (p.headsPerLayer[static_cast<size_t>(i)] % kv != 0)
            f.fail(key(a, "attention.head_count_kv"), "does not divide the head count of layer " + std::to_string(i));
    }
    p.nHead = *std::max_element(p.headsPerLayer.begin(), p.headsPerLayer.end());
    p.nHeadKv = *std::max_element(p.kvHeadsPerLayer.begin(), p.kvHeadsPerLayer.end());
    const int64_t defaultHeadDim = p.nEmbd / p.nHead;
    p.headDimK = requireRange(f, key(a, "attention.key_length"),
                              f.findInt(key(a, "attention.key_length")).value_or(defaultHeadDim), 1, 4096);
    p.headDimV = requireRange(f, key(a, "attention.value_length"),
                              f.findInt(key(a, "attention.value_length")).value_or(defaultHeadDim), 1, 4096);
    p.rmsEps = static_cast<float>(f.findFloat(key(a, "attention.layer_norm_rms_epsilon")).value_or(1e-5));
    p.rope.mode = ropeMode;
    readRope(f, a, p);
    p.slidingWindow = static_cast<int32_t>(requireRange(f, key(a, "attention.sliding_window"),
                                                        f.findInt(key(a, "attention.sliding_window")).value_or(0), 0,
                                                        int64_t{1} << 30));
    p.attnSoftCap = static_cast<float>(f.findFloat(key(a, "attn_logit_softcapping")).value_or(0.0));
    p.finalSoftCap = static_cast<float>(f.findFloat(key(a, "final_logit_softcapping")).value_or(0.0));
    return p;
}

} // namespace hearth
