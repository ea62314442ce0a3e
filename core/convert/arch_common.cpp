// TextModel's hyper-parameters, the name-table lookup and the registry of
// architectures.
#include "convert/arch.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>

namespace hearth::convert {

std::unique_ptr<Architecture> makeBertArchitecture(std::string_view hfClass);  // arch_bert.cpp
std::unique_ptr<Architecture> makeLlamaArchitecture(std::string_view hfClass); // arch_llama.cpp
std::unique_ptr<Architecture> makeGemmaArchitecture(std::string_view hfClass); // arch_gemma.cpp
std::unique_ptr<Architecture> makePhi3Architecture(std::string_view hfClass);  // arch_phi3.cpp

namespace {

constexpr std::string_view kSupported[] = {
    "BertModel",        "BertForMaskedLM",  "BertForSequenceClassification", "LlamaForCausalLM", "MistralForCausalLM",
    "Qwen2ForCausalLM", "Qwen3ForCausalLM",
};

const Json* findAny(const JsonObject& cfg, std::initializer_list<std::string_view> keys)
{
    for (std::string_view k : keys)
        if (const Json* v = cfg.find(k))
            return v;
    return nullptr;
}

uint32_t asU32(const Json& v, const JsonObject& cfg, std::string_view what)
{
    if (!v.is_number_integer() || v.get<int64_t>() < 0 || v.get<int64_t>() > UINT32_MAX)
        cfg.fail(what, "must be a non-negative integer");
    return static_cast<uint32_t>(v.get<int64_t>());
}

float asF32(const Json& v, const JsonObject& cfg, std::string_view what)
{
    if (!v.is_number())
        cfg.fail(what, "must be a number");
    return static_cast<float>(v.get<double>());
}

Json member(const Json& obj, const char* key)
{
    if (!obj.is_object())
        return Json();
    const auto it = obj.find(key);
    return it == obj.end() ? Json() : *it;
}

void writeRope(const JsonObject& cfg, gguf::Writer& w, const std::string& a)
{
    Json rp = cfg.find("rope_parameters") ? *cfg.find("rope_parameters")
              : cfg.find("rope_scaling")  ? *cfg.find("rope_scaling")
                                          : Json::object();
    if (!rp.is_object())
        rp = Json::object();
    const Json* theta =
        findAny(cfg, {"global_rope_theta", "rope_global_theta", "rope_theta_global", "rope_theta", "rotary_emb_base"});
    const Json* local = findAny(
        cfg, {"local_rope_theta", "rope_local_theta", "rope_theta_local", "swa_rope_theta", "rope_local_base_freq"});
    if (!rp.contains("full_attention") && !rp.contains("sliding_attention")) {
        if (local)
            rp["sliding_attention"] = Json{{"rope_theta", *local}};
        if (!rp.contains("rope_theta") && theta)
            rp["rope_theta"] = *theta;
        if (!rp.contains("rope_type") && !member(rp, "type").is_null())
            rp["rope_type"] = rp["type"];
    }
    const Json params = rp.contains("full_attention") ? rp["full_attention"] : rp;
    if (const Json type = member(params, "rope_type"); type.is_string()) {
        const std::string t = type.get<std::string>();
        const Json factor = member(params, "factor");
        if (t == "linear" && !factor.is_null()) {
            w.addString(a + ".rope.scaling.type", "linear");
            w.addFloat32(a + ".rope.scaling.factor", asF32(factor, cfg, "rope_scaling.factor"));
        } else if (t == "yarn" && !factor.is_null()) {
            w.addString(a + ".rope.scaling.type", "yarn");
            w.addFloat32(a + ".rope.scaling.factor", asF32(factor, cfg, "rope_scaling.factor"));
            const Json orig = member(params, "original_max_position_embeddings");
            if (orig.is_null())
                cfg.fail("rope_scaling", "of type yarn has no original_max_position_embeddings");
            w.addUInt32(a + ".rope.scaling.original_context_length", asU32(orig, cfg, "rope_scaling"));
            const auto opt = [&](const char* key, const char* gguf) {
                if (const Json v = member(params, key); !v.is_null())
                    w.addFloat32(a + ".rope.scaling." + gguf, asF32(v, cfg, key));
            };
            opt("extrapolation_factor", "yarn_ext_factor");
            if (!member(params, "attention_factor").is_null())
                opt("attention_factor", "yarn_attn_factor");
            else
                opt("attn_factor", "yarn_attn_factor");
            opt("beta_fast", "yarn_beta_fast");
            opt("beta_slow", "yarn_beta_slow");
        } else if (t == "su" || t == "longrope") {
            w.addString(a + ".rope.scaling.type", "longrope");
        }
    }
    if (const Json t = member(params, "rope_theta"); !t.is_null())
        w.addFloat32(a + ".rope.freq_base", asF32(t, cfg, "rope_theta"));
    if (const Json t = member(member(rp, "sliding_attention"), "rope_theta"); !t.is_null())
        w.addFloat32(a + ".rope.freq_base_swa", asF32(t, cfg, "rope_local_base_freq"));
}

} // namespace

std::unique_ptr<Architecture> findArchitecture(std::string_view hfClass)
{
    if (auto a = makeBertArchitecture(hfClass))
        return a;
    if (auto a = makeGemmaArchitecture(hfClass))
        return a;
    if (auto a = makePhi3Architecture(hfClass))
        return a;
    return makeLlamaArchitecture(hfClass);
}

std::string supportedArchitectures()
{
    std::string out;
    for (std::string_view s : kSupported)
        out += (out.empty() ? "" : ", ") + std::string(s);
    return out;
}

void writeCommonParameters(const HfFolder& folder, gguf::Writer& w, std::string_view arch)
{
    const JsonObject& cfg = folder.config();
    const std::string a(arch);
    const Json* blocks = findAny(cfg, {"n_layers", "num_hidden_layers", "n_layer", "num_layers"});
    if (!blocks)
        cfg.fail("num_hidden_layers", "is missing");
    w.addUInt32(a + ".block_count", asU32(*blocks, cfg, "num_hidden_layers"));
    const auto u32 = [&](std::initializer_list<std::string_view> keys, const std::string& key) {
        if (const Json* v = findAny(cfg, keys))
            w.addUInt32(a + key, asU32(*v, cfg, *keys.begin()));
    };
    u32({"max_position_embeddings", "n_ctx", "n_positions", "max_length", "max_sequence_length", "model_max_length"},
        ".context_length");
    u32({"hidden_size", "n_embd", "dim"}, ".embedding_length");
    u32({"intermediate_size", "n_inner", "hidden_dim"}, ".feed_forward_length");
    u32({"num_attention_heads", "n_head", "n_heads"}, ".attention.head_count");
    u32({"num_key_value_heads", "n_kv_heads"}, ".attention.head_count_kv");
    if (cfg.findBool("is_causal") == false)
        w.addBool(a + ".attention.causal", false);
    writeRope(cfg, w, a);
    if (const Json* v = findAny(cfg, {"rms_norm_eps", "norm_eps"}))
        w.addFloat32(a + ".attention.layer_norm_rms_epsilon", asF32(*v, cfg, "rms_norm_eps"));
    if (const Json* v = findAny(cfg, {"layer_norm_eps", "layer_norm_epsilon", "norm_epsilon"}))
        w.addFloat32(a + ".attention.layer_norm_epsilon", asF32(*v, cfg, "layer_norm_eps"));
    if (findAny(cfg, {"num_local_experts", "num_experts"}))
        throw Error(cfg.where() + ": mixture-of-experts models are not supported by hearth convert yet");
    if (const Json* v = cfg.find("head_dim")) {
        w.addUInt32(a + ".attention.key_length", asU32(*v, cfg, "head_dim"));
        w.addUInt32(a + ".attention.value_length", asU32(*v, cfg, "head_dim"));
    }
}

std::string mapName(std::string_view hfName, std::span<const NamePair> table)
{
    const int bid = blockIdOf(hfName);
    for (std::string_view suffix : {std::string_view(".weight"), std::string_view(".bias")}) {
        if (!hfName.ends_with(suffix))
            continue;
        const std::string_view base = hfName.substr(0, hfName.size() - suffix.size());
        for (const NamePair& p : table) {
            std::string hf(p.hf), gguf(p.gguf);
            if (const size_t at = hf.find("{bid}"); at != std::string::npos) {
                if (bid < 0)
                    continue;
                hf.replace(at, 5, std::to_string(bid));
                gguf.replace(gguf.find("{bid}"), 5, std::to_string(bid));
            }
            if (base == hf)
                return gguf + std::string(suffix);
        }
    }
    return {};
}

int blockIdOf(std::string_view name)
{
    size_t start = 0;
    while (start <= name.size()) {
        const size_t end = std::min(name.find('.', start), name.size());
        const std::string_view part = name.substr(start, end - start);
        if (!part.empty() && part.size() < 9 &&
            std::all_of(part.begin(), part.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return std::stoi(std::string(part));
        start = end + 1;
    }
    return -1;
}

} // namespace hearth::convert
