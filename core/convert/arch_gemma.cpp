// Gemma 3 text models: llama.cpp's Gemma3Model (Gemma3ForCausalLM). Norms
// store w - 1 (Gemma3RMSNorm multiplies by 1 + w), so every "*norm.weight"
// gets 1 added; the embedding rows beyond the tokenizer's vocabulary are
// dropped; the keys the Hugging Face config leaves out get Gemma's defaults.
//
// Tokenizer: byte-level BPE from tokenizer.json (the converter's gpt2 path
// when there is no tokenizer.model). A SentencePiece tokenizer.model is
// refused for now.
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
        if (folder.hasFile("tokenizer.model"))
            throw Error(folder.path("tokenizer.model").string() +
                        ": SentencePiece tokenizers are not supported by hearth convert yet (only byte-level BPE "
                        "tokenizer.json)");
        writeVocabGpt2(folder, w, options);
    }

    std::vector<MappedTensor> mapTensor(const HfFolder& folder, const StTensor& t) const override
    {
        const std::string gguf = mapName(t.name, kNames);
        if (gguf.empty())
            throw Error(t.file + ": cannot place tensor '" + t.name + "' in a gemma3 GGUF");
        Transform tr;
        tr.addOne = t.name.ends_with("norm.weight");
        if (gguf == "token_embd.weight")
            tr.keepRows = tokenizerVocabSize(folder);
        return {{gguf, &t, tr}};
    }
};

} // namespace

std::unique_ptr<Architecture> makeGemmaArchitecture(std::string_view hfClass)
{
    if (hfClass == "Gemma3ForCausalLM")
        return std::make_unique<Gemma3>();
    return nullptr;
}

} // namespace hearth::convert
