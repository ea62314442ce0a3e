// The Llama family of decoders: llama.cpp's LlamaModel (LlamaForCausalLM,
// MistralForCausalLM), Qwen2Model (Qwen2ForCausalLM) and Qwen3Model
// (Qwen3ForCausalLM). They share Hugging Face's tensor names; Llama undoes
// the rotary permutation of q/k rows and writes Llama 3's rope frequency
// factors, Qwen 2 has q/k/v biases, Qwen 3 per-head q/k norms.
//
// Tokenizers: SentencePiece tokenizer.model (Llama 2, Mistral v0.1), else
// byte-level BPE from tokenizer.json (the "gpt2" vocabulary of Llama 3, Qwen,
// SmolLM). A byte-fallback BPE tokenizer.json without tokenizer.model
// (llama.cpp's LlamaHfVocab) is refused with a clear error for now.
#include "convert/arch.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <cmath>
#include <numbers>

namespace hearth::convert {

namespace {

enum class Family {
    Llama,
    Qwen2,
    Qwen3
};

constexpr NamePair kNames[] = {
    {"model.embed_tokens", "token_embd"},
    {"model.norm", "output_norm"},
    {"lm_head", "output"},
    {"model.layers.{bid}.input_layernorm", "blk.{bid}.attn_norm"},
    {"model.layers.{bid}.self_attn.q_proj", "blk.{bid}.attn_q"},
    {"model.layers.{bid}.self_attn.k_proj", "blk.{bid}.attn_k"},
    {"model.layers.{bid}.self_attn.v_proj", "blk.{bid}.attn_v"},
    {"model.layers.{bid}.self_attn.o_proj", "blk.{bid}.attn_output"},
    {"model.layers.{bid}.self_attn.q_norm", "blk.{bid}.attn_q_norm"},
    {"model.layers.{bid}.self_attn.k_norm", "blk.{bid}.attn_k_norm"},
    {"model.layers.{bid}.post_attention_layernorm", "blk.{bid}.ffn_norm"},
    {"model.layers.{bid}.mlp.gate_proj", "blk.{bid}.ffn_gate"},
    {"model.layers.{bid}.mlp.up_proj", "blk.{bid}.ffn_up"},
    {"model.layers.{bid}.mlp.down_proj", "blk.{bid}.ffn_down"},
};

int64_t configInt(const JsonObject& cfg, std::string_view key)
{
    const auto v = cfg.findInt(key);
    if (!v || *v <= 0)
        cfg.fail(key, "must be a positive integer");
    return *v;
}

int64_t headDim(const JsonObject& cfg)
{
    if (const auto d = cfg.findInt("head_dim"))
        return *d;
    return configInt(cfg, "hidden_size") / configInt(cfg, "num_attention_heads");
}

// rope_scaling (or rope_parameters) when it is Llama 3's, else invalid.
JsonObject llama3Rope(const JsonObject& cfg)
{
    for (const char* key : {"rope_scaling", "rope_parameters"}) {
        const JsonObject r = cfg.findObject(key);
        if (r.valid() && (r.findString("rope_type") == "llama3" || r.findString("type") == "llama3"))
            return r;
    }
    return {};
}

class LlamaFamily final : public Architecture {
public:
    explicit LlamaFamily(Family f) : m_family(f) {}

    std::string_view ggufName() const override
    {
        switch (m_family) {
        case Family::Qwen2: return "qwen2";
        case Family::Qwen3: return "qwen3";
        case Family::Llama: break;
        }
        return "llama";
    }

    void writeParameters(const HfFolder& folder, gguf::Writer& w, uint32_t fileType) const override
    {
        const std::string a(ggufName());
        writeCommonParameters(folder, w, a);
        w.addUInt32("general.file_type", fileType);
        if (m_family == Family::Llama) {
            const JsonObject& cfg = folder.config();
            w.addUInt32(a + ".vocab_size", static_cast<uint32_t>(configInt(cfg, "vocab_size")));
            w.addUInt32(a + ".rope.dimension_count", static_cast<uint32_t>(headDim(cfg)));
        }
    }

    // LlamaModel.set_vocab / Qwen2Model.set_vocab: SentencePiece first,
    // Llama's byte-fallback BPE next (refused here), then byte-level BPE.
    void writeVocab(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options) const override
    {
        if (m_family == Family::Llama)
            if (const Json* cfg = folder.tokenizerConfig(); cfg && cfg->is_object())
                if (const auto it = cfg->find("add_prefix_space"); it != cfg->end() && it->is_boolean())
                    w.addBool("tokenizer.ggml.add_space_prefix", it->get<bool>());
        if (folder.hasFile("tokenizer.model"))
            writeVocabSentencePiece(folder, w, options);
        else
            writeBpe(folder, w, options);
        // llama.cpp's rule for Granite's small models (and SmolLM's 49152 tokens).
        if (m_family == Family::Llama && options.vocabSize == 49152)
            w.addBool("tokenizer.ggml.add_bos_token", false);
    }

    void writeBpe(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options) const
    {
        if (m_family != Family::Llama) {
            writeVocabGpt2(folder, w, options);
            return;
        }
        if (const Json* tok = folder.tokenizerJson(); tok && tok->is_object()) {
            const auto model = tok->find("model");
            if (model != tok->end() && model->is_object() && model->value("type", "") == "BPE") {
                const auto fallback = model->find("byte_fallback");
                if (fallback != model->end() && *fallback == Json(true))
                    throw Error(folder.path("tokenizer.json").string() +
                                ": a BPE with byte fallback (Llama 2 style) is not supported by hearth convert yet");
            }
        }
        writeVocabGpt2(folder, w, options);
    }

    std::vector<MappedTensor> mapTensor(const HfFolder& folder, const StTensor& t) const override
    {
        const std::string gguf = mapName(t.name, kNames);
        const bool qkNorm =
            gguf.find("attn_q_norm") != std::string::npos || gguf.find("attn_k_norm") != std::string::npos;
        if (gguf.empty() || (qkNorm && m_family != Family::Qwen3))
            throw Error(t.file + ": cannot place tensor '" + t.name + "' in a " + std::string(ggufName()) + " GGUF");
        Transform tr;
        if (m_family == Family::Llama) { // weights and biases alike
            // Hugging Face's q/k rows interleave the rotary halves differently.
            const JsonObject& cfg = folder.config();
            const int64_t heads = configInt(cfg, "num_attention_heads");
            const int64_t kvHeads = cfg.findInt("num_key_value_heads").value_or(heads);
            if (gguf.find(".attn_q.") != std::string::npos)
                tr.permuteHeads = heads;
            else if (gguf.find(".attn_k.") != std::string::npos)
                tr.permuteHeads = kvHeads;
        }
        return {{gguf, &t, tr}};
    }

    // Llama 3's rope frequency factors (LlamaModel.generate_extra_tensors),
    // in float32 as the converter computes them with torch.
    std::vector<GeneratedTensor> extraTensors(const HfFolder& folder) const override
    {
        if (m_family != Family::Llama)
            return {};
        const JsonObject r = llama3Rope(folder.config());
        if (!r.valid())
            return {};
        const JsonObject& cfg = folder.config();
        const float base =
            static_cast<float>(r.findFloat("rope_theta").value_or(cfg.findFloat("rope_theta").value_or(10000.0)));
        const int64_t dim = headDim(cfg);
        const float factor = static_cast<float>(r.findFloat("factor").value_or(8.0));
        const float lowFactor = static_cast<float>(r.findFloat("low_freq_factor").value_or(1.0));
        const float oldContext = static_cast<float>(r.findFloat("original_max_position_embeddings").value_or(8192));
        // Python computes these in double; torch casts them to float32 for the tensor ops.
        const double oldContextD = r.findFloat("original_max_position_embeddings").value_or(8192);
        const float lowWavelen = static_cast<float>(oldContextD / r.findFloat("low_freq_factor").value_or(1.0));
        const float highWavelen = static_cast<float>(oldContextD / r.findFloat("high_freq_factor").value_or(4.0));
        const float span = static_cast<float>(r.findFloat("high_freq_factor").value_or(4.0) -
                                              r.findFloat("low_freq_factor").value_or(1.0));
        GeneratedTensor g{"rope_freqs.weight", {}};
        for (int64_t i = 0; i < dim; i += 2) {
            const float freq = 1.0f / std::pow(base, static_cast<float>(i) / static_cast<float>(dim));
            const float wavelen = static_cast<float>(2.0 * std::numbers::pi) / freq;
            if (wavelen < highWavelen)
                g.values.push_back(1.0f);
            else if (wavelen > lowWavelen)
                g.values.push_back(factor);
            else {
                const float smooth = (oldContext / wavelen - lowFactor) / span;
                g.values.push_back(1.0f / ((1.0f - smooth) / factor + smooth));
            }
        }
        return {std::move(g)};
    }

private:
    Family m_family;
};

} // namespace

std::unique_ptr<Architecture> makeLlamaArchitecture(std::string_view hfClass)
{
    if (hfClass == "LlamaForCausalLM" || hfClass == "MistralForCausalLM")
        return std::make_unique<LlamaFamily>(Family::Llama);
    if (hfClass == "Qwen2ForCausalLM")
        return std::make_unique<LlamaFamily>(Family::Qwen2);
    if (hfClass == "Qwen3ForCausalLM")
        return std::make_unique<LlamaFamily>(Family::Qwen3);
    return nullptr;
}

} // namespace hearth::convert
