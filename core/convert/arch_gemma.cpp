// Gemma 2 and 3 text models: llama.cpp's Gemma2Model (Gemma2ForCausalLM)
// and Gemma3Model (Gemma3ForCausalLM). Norms store w - 1 (GemmaRMSNorm
// multiplies by 1 + w), so every "*norm.weight" gets 1 added; Gemma 2 drops
// lm_head (tied); Gemma 3 drops the embedding rows beyond the tokenizer's
// vocabulary and gives the keys the Hugging Face config leaves out Gemma's
// defaults.
//
// Tokenizers: SentencePiece tokenizer.model (then add_space_prefix false);
// Gemma 3 without one takes tokenizer.json's byte-level BPE.
#include "convert/arch.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

namespace hearth::convert {

namespace {

constexpr NamePair kNames[] = {
    {"model.embed_tokens", "token_embd"},
    {"model.norm", "output_norm"},
    {"model.layers.{bid}.input_layernorm", "blk.{bid}.attn_norm"},
    {"model.layers.{bid}.self_attn.q_proj", "blk.{bid}.attn_q"},
    {"model.layers.{bid}.self_attn.k_proj", "blk.{bid}.attn_k"},
    {"model.layers.{bid}.self_attn.v_proj", "blk.{bid}.attn_v"},
    {"model.layers.{bid}.self_attn.o_proj", "blk.{bid}.attn_output"},
    {"model.layers.{bid}.self_attn.q_norm", "blk.{bid}.attn_q_norm"},
    {"model.layers.{bid}.self_attn.k_norm", "blk.{bid}.attn_k_norm"},
    {"model.layers.{bid}.post_attention_layernorm", "blk.{bid}.post_attention_norm"},
    {"model.layers.{bid}.pre_feedforward_layernorm", "blk.{bid}.ffn_norm"},
    {"model.layers.{bid}.post_feedforward_layernorm", "blk.{bid}.post_ffw_norm"},
    {"model.layers.{bid}.mlp.gate_proj", "blk.{bid}.ffn_gate"},
    {"model.layers.{bid}.mlp.up_proj", "blk.{bid}.ffn_up"},
    {"model.layers.{bid}.mlp.down_proj", "blk.{bid}.ffn_down"},
};

// tokenizer.json's vocabulary plus its added tokens (Gemma3Model's n_vocab_real).
int64_t tokenizerVocabSize(const HfFolder& folder)
{
    const Json* tok = folder.tokenizerJson();
    if (!tok || !tok->is_object())
        throw Error(folder.dir().string() + ": no tokenizer.json");
    const auto model = tok->find("model");
    const auto added = tok->find("added_tokens");
    if (model == tok->end() || !model->is_object() || !model->contains("vocab") || !(*model)["vocab"].is_object())
        throw Error(folder.path("tokenizer.json").string() + ": no model.vocab object");
    return static_cast<int64_t>((*model)["vocab"].size()) +
           (added != tok->end() && added->is_array() ? static_cast<int64_t>(added->size()) : 0);
}

// What the SentencePiece vocabulary's length is: config.json's vocab_size,
// else the model's piece count (tokens past it are [PADi] rows).
int64_t spmVocabSize(const HfFolder& folder)
{
    if (const auto v = folder.config().findInt("vocab_size"))
        return *v;
    throw Error(folder.path("config.json").string() + ": vocab_size is missing");
}

int64_t need(const JsonObject& cfg, std::string_view key)
{
    const auto v = cfg.findInt(key);
    if (!v || *v < 0 || *v > UINT32_MAX)
        cfg.fail(key, "must be a non-negative 32-bit integer");
    return *v;
}

class Gemma2 final : public Architecture {
public:
    std::string_view ggufName() const override { return "gemma2"; }

    // Gemma2Model.set_gguf_parameters (not TextModel's).
    void writeParameters(const HfFolder& folder, gguf::Writer& w, uint32_t fileType) const override
    {
        const JsonObject& cfg = folder.config();
        const auto u32 = [&](const char* gguf, std::string_view key) {
            w.addUInt32(std::string("gemma2.") + gguf, static_cast<uint32_t>(need(cfg, key)));
        };
        const auto f32 = [&](const char* gguf, std::string_view key) {
            const auto v = cfg.findFloat(key);
            if (!v)
                cfg.fail(key, "is missing");
            w.addFloat32(std::string("gemma2.") + gguf, static_cast<float>(*v));
        };
        u32("context_length", "max_position_embeddings");
        u32("embedding_length", "hidden_size");
        u32("block_count", "num_hidden_layers");
        u32("feed_forward_length", "intermediate_size");
        u32("attention.head_count", "num_attention_heads");
        u32("attention.head_count_kv",
            cfg.findInt("num_key_value_heads") ? "num_key_value_heads" : "num_attention_heads");
        f32("attention.layer_norm_rms_epsilon", "rms_norm_eps");
        u32("attention.key_length", "head_dim");
        u32("attention.value_length", "head_dim");
        w.addUInt32("general.file_type", fileType);
        f32("attn_logit_softcapping", "attn_logit_softcapping");
        f32("final_logit_softcapping", "final_logit_softcapping");
        u32("attention.sliding_window", "sliding_window");
    }

    void writeVocab(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options) const override
    {
        writeVocabSentencePiece(folder, w, options);
        w.addBool("tokenizer.ggml.add_space_prefix", false);
    }

    std::vector<MappedTensor> mapTensor(const HfFolder& /*folder*/, const StTensor& t) const override
    {
        if (t.name == "lm_head.weight")
            return {}; // tied; llama.cpp skips it
        const std::string gguf = mapName(t.name, kNames);
        if (gguf.empty() || gguf.find("attn_q_norm") != std::string::npos ||
            gguf.find("attn_k_norm") != std::string::npos)
            throw Error(t.file + ": cannot place tensor '" + t.name + "' in a gemma2 GGUF");
        Transform tr;
        tr.addOne = t.name.ends_with("norm.weight");
        return {{gguf, &t, tr}};
    }
};

class Gemma3 final : public Architecture {
public:
    std::string_view ggufName() const override { return "gemma3"; }

    void writeParameters(const HfFolder& folder, gguf::Writer& w, uint32_t fileType) const override
    {
        writeCommonParameters(folder, w, "gemma3");
        w.addUInt32("general.file_type", fileType);
        const JsonObject& cfg = folder.config();
        const auto u32 = [&](std::string_view key, int64_t fallback) {
            const int64_t v = cfg.findInt(key).value_or(fallback);
            if (v < 0 || v > UINT32_MAX)
                cfg.fail(key, "must be a non-negative 32-bit integer");
            return static_cast<uint32_t>(v);
        };
        // Gemma3Model.set_gguf_parameters: defaults for absent keys (a key
        // written again keeps its place, as in the gguf package).
        w.addUInt32("gemma3.context_length", u32("max_position_embeddings", 131072));
        w.addUInt32("gemma3.attention.head_count", u32("num_attention_heads", 8));
        w.addFloat32("gemma3.attention.layer_norm_rms_epsilon",
                     static_cast<float>(cfg.findFloat("rms_norm_eps").value_or(1e-6)));
        w.addUInt32("gemma3.attention.key_length", u32("head_dim", 256));
        w.addUInt32("gemma3.attention.value_length", u32("head_dim", 256));
        double theta = 1000000.0;
        const JsonObject rp = cfg.findObject("rope_parameters");
        if (const JsonObject full = rp.valid() ? rp.findObject("full_attention") : JsonObject(); full.valid())
            theta = full.findFloat("rope_theta").value_or(theta);
        else if (rp.valid() && rp.findFloat("rope_theta"))
            theta = *rp.findFloat("rope_theta");
        else
            theta = cfg.findFloat("rope_theta").value_or(theta);
        w.addFloat32("gemma3.rope.freq_base", static_cast<float>(theta));
        if (cfg.find("attn_logit_softcapping"))
            cfg.fail("attn_logit_softcapping", "is set, but Gemma 3 has none");
        if (const auto cap = cfg.findFloat("final_logit_softcapping"); cap && *cap != 0.0)
            w.addFloat32("gemma3.final_logit_softcapping", static_cast<float>(*cap));
        if (cfg.findInt("sliding_window_pattern") != 1) {
            if (!cfg.findInt("sliding_window"))
                cfg.fail("sliding_window", "is missing");
            w.addUInt32("gemma3.attention.sliding_window", u32("sliding_window", 0));
        }
        w.addUInt32("gemma3.attention.head_count_kv", u32("num_key_value_heads", 4));
    }

    void writeVocab(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options) const override
    {
        if (folder.hasFile("tokenizer.model")) {
            writeVocabSentencePiece(folder, w, options);
            w.addBool("tokenizer.ggml.add_space_prefix", false);
        } else {
            writeVocabGpt2(folder, w, options);
        }
    }

    std::vector<MappedTensor> mapTensor(const HfFolder& folder, const StTensor& t) const override
    {
        const std::string gguf = mapName(t.name, kNames);
        if (gguf.empty())
            throw Error(t.file + ": cannot place tensor '" + t.name + "' in a gemma3 GGUF");
        Transform tr;
        tr.addOne = t.name.ends_with("norm.weight");
        if (gguf == "token_embd.weight")
            tr.keepRows = folder.hasFile("tokenizer.model") ? spmVocabSize(folder) : tokenizerVocabSize(folder);
        return {{gguf, &t, tr}};
    }
};

} // namespace

std::unique_ptr<Architecture> makeGemmaArchitecture(std::string_view hfClass)
{
    if (hfClass == "Gemma2ForCausalLM")
        return std::make_unique<Gemma2>();
    if (hfClass == "Gemma3ForCausalLM")
        return std::make_unique<Gemma3>();
    return nullptr;
}

} // namespace hearth::convert
