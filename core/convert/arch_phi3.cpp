// Phi-3 (and Phi-4, same class): llama.cpp's Phi3MiniModel
// (Phi3ForCausalLM). The fused qkv_proj and gate_up_proj stay fused
// (attn_qkv, ffn_up of twice the FFN width); its own key set, not
// TextModel's; long-context models get rope_factors_long / _short from
// rope_scaling and the attention factor.
//
// Tokenizers: Phi-4's GPT2Tokenizer (byte-level BPE) when tokenizer_config
// names it, otherwise tokenizer.model (Phi-3's SentencePiece variant).
#include "convert/arch.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <cmath>

namespace hearth::convert {

namespace {

constexpr NamePair kNames[] = {
    {"model.embed_tokens", "token_embd"},
    {"model.norm", "output_norm"},
    {"lm_head", "output"},
    {"model.layers.{bid}.input_layernorm", "blk.{bid}.attn_norm"},
    {"model.layers.{bid}.self_attn.qkv_proj", "blk.{bid}.attn_qkv"},
    {"model.layers.{bid}.self_attn.o_proj", "blk.{bid}.attn_output"},
    {"model.layers.{bid}.post_attention_layernorm", "blk.{bid}.ffn_norm"},
    {"model.layers.{bid}.mlp.gate_up_proj", "blk.{bid}.ffn_up"},
    {"model.layers.{bid}.mlp.down_proj", "blk.{bid}.ffn_down"},
};

// TextModel.rope_parameters: rope_parameters or rope_scaling, with the
// top-level rope_theta, partial_rotary_factor and
// original_max_position_embeddings mirrored into it.
Json ropeParameters(const JsonObject& cfg)
{
    Json rp = cfg.find("rope_parameters") ? *cfg.find("rope_parameters")
              : cfg.find("rope_scaling")  ? *cfg.find("rope_scaling")
                                          : Json::object();
    if (!rp.is_object())
        rp = Json::object();
    if (!rp.contains("full_attention") && !rp.contains("sliding_attention")) {
        for (const char* k : {"rope_theta", "partial_rotary_factor", "original_max_position_embeddings"})
            if (!rp.contains(k) && cfg.find(k))
                rp[k] = *cfg.find(k);
        if (!rp.contains("rope_type") && rp.contains("type"))
            rp["rope_type"] = rp["type"];
    }
    return rp;
}

int64_t need(const JsonObject& cfg, std::string_view key)
{
    const auto v = cfg.findInt(key);
    if (!v || *v <= 0 || *v > UINT32_MAX)
        cfg.fail(key, "must be a positive 32-bit integer");
    return *v;
}

struct Shape {
    int64_t embd, heads, ctx, origCtx, ropeDims;
};

Shape shapeOf(const JsonObject& cfg, const Json& rp)
{
    Shape s{};
    s.embd = need(cfg, "hidden_size");
    s.heads = need(cfg, "num_attention_heads");
    s.ctx = cfg.findInt("n_positions") ? need(cfg, "n_positions") : need(cfg, "max_position_embeddings");
    if (!rp.contains("original_max_position_embeddings") || !rp["original_max_position_embeddings"].is_number_integer())
        cfg.fail("original_max_position_embeddings", "is missing (Phi-3 needs it)");
    s.origCtx = rp["original_max_position_embeddings"].get<int64_t>();
    const double pct = rp.contains("partial_rotary_factor") && rp["partial_rotary_factor"].is_number()
                           ? rp["partial_rotary_factor"].get<double>()
                           : 1.0;
    s.ropeDims = static_cast<int64_t>(pct * static_cast<double>(s.embd)) / s.heads;
    return s;
}

class Phi3 final : public Architecture {
public:
    std::string_view ggufName() const override { return "phi3"; }

    void writeParameters(const HfFolder& folder, gguf::Writer& w, uint32_t fileType) const override
    {
        const JsonObject& cfg = folder.config();
        const Json rp = ropeParameters(cfg);
        const Shape s = shapeOf(cfg, rp);
        const Json params = rp.contains("full_attention") ? rp["full_attention"] : rp;
        if (!params.contains("rope_theta") || !params["rope_theta"].is_number())
            cfg.fail("rope_theta", "is missing");
        const auto rms = cfg.findFloat("rms_norm_eps");
        if (!rms)
            cfg.fail("rms_norm_eps", "is missing");
        w.addUInt32("phi3.context_length", static_cast<uint32_t>(s.ctx));
        w.addUInt32("phi3.rope.scaling.original_context_length", static_cast<uint32_t>(s.origCtx));
        w.addUInt32("phi3.embedding_length", static_cast<uint32_t>(s.embd));
        w.addUInt32("phi3.feed_forward_length", static_cast<uint32_t>(need(cfg, "intermediate_size")));
        w.addUInt32("phi3.block_count", static_cast<uint32_t>(need(cfg, "num_hidden_layers")));
        w.addUInt32("phi3.attention.head_count", static_cast<uint32_t>(s.heads));
        w.addUInt32("phi3.attention.head_count_kv", static_cast<uint32_t>(need(cfg, "num_key_value_heads")));
        w.addFloat32("phi3.attention.layer_norm_rms_epsilon", static_cast<float>(*rms));
        w.addUInt32("phi3.rope.dimension_count", static_cast<uint32_t>(s.ropeDims));
        w.addFloat32("phi3.rope.freq_base", params["rope_theta"].get<float>());
        w.addUInt32("general.file_type", fileType);
        w.addUInt32("phi3.attention.sliding_window", static_cast<uint32_t>(cfg.findInt("sliding_window").value_or(0)));
    }

    void writeVocab(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options) const override
    {
        writeTokenizer(folder, w, options);
        // generate_extra_tensors runs after set_vocab in llama.cpp and adds
        // this key then.
        const JsonObject& cfg = folder.config();
        const Json rp = ropeParameters(cfg);
        const Shape s = shapeOf(cfg, rp);
        if (factors(cfg, rp, s).first.empty())
            return;
        const double scale = static_cast<double>(s.ctx) / static_cast<double>(s.origCtx);
        double attn = 1.0;
        if (scale > 1.0)
            attn = rp.value("rope_type", "") == "yarn"
                       ? 0.1 * std::log(scale) + 1.0
                       : std::sqrt(1 + std::log(scale) / std::log(static_cast<double>(s.origCtx)));
        w.addFloat32("phi3.rope.scaling.attn_factor", static_cast<float>(attn));
    }

    static void writeTokenizer(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options)
    {
        if (const Json* tc = folder.tokenizerConfig();
            tc && tc->is_object() && tc->value("tokenizer_class", "") == "GPT2Tokenizer") {
            writeVocabGpt2(folder, w, options);
            return;
        }
        if (!folder.hasFile("tokenizer.model"))
            throw Error(folder.path("tokenizer.model").string() + ": missing (Phi-3 needs its SentencePiece model)");
        writeVocabPhi3(folder, w, options);
    }

    std::vector<MappedTensor> mapTensor(const HfFolder& /*folder*/, const StTensor& t) const override
    {
        const std::string gguf = mapName(t.name, kNames);
        if (gguf.empty())
            throw Error(t.file + ": cannot place tensor '" + t.name + "' in a phi3 GGUF");
        return {{gguf, &t, {}}};
    }

    std::vector<GeneratedTensor> extraTensors(const HfFolder& folder) const override
    {
        const JsonObject& cfg = folder.config();
        const Json rp = ropeParameters(cfg);
        auto [longF, shortF] = factors(cfg, rp, shapeOf(cfg, rp));
        if (longF.empty())
            return {};
        return {{"rope_factors_long.weight", std::move(longF)}, {"rope_factors_short.weight", std::move(shortF)}};
    }

private:
    // rope_scaling's long and short factors (both empty without them).
    static std::pair<std::vector<float>, std::vector<float>> factors(const JsonObject& cfg, const Json& rp,
                                                                     const Shape& s)
    {
        const auto list = [&](const char* key) {
            std::vector<float> out;
            if (rp.contains(key) && rp[key].is_array())
                for (const Json& v : rp[key]) {
                    if (!v.is_number())
                        cfg.fail(std::string("rope_scaling.") + key, "must hold numbers");
                    out.push_back(v.get<float>());
                }
            return out;
        };
        std::vector<float> longF = list("long_factor"), shortF = list("short_factor");
        if (longF.empty())
            return {};
        const std::string type = rp.value("rope_type", "");
        if (type != "su" && type != "longrope" && type != "yarn")
            cfg.fail("rope_scaling.type", "must be longrope, su or yarn with long_factor");
        if (longF.size() != shortF.size() || static_cast<int64_t>(longF.size()) * 2 != s.ropeDims)
            cfg.fail("rope_scaling", "needs long_factor and short_factor of rope dimensions / 2 = " +
                                         std::to_string(s.ropeDims / 2) + " values each");
        return {std::move(longF), std::move(shortF)};
    }
};

} // namespace

std::unique_ptr<Architecture> makePhi3Architecture(std::string_view hfClass)
{
    if (hfClass == "Phi3ForCausalLM")
        return std::make_unique<Phi3>();
    return nullptr;
}

} // namespace hearth::convert
