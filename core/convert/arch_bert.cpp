// BERT (embedding models such as all-MiniLM-L6-v2): llama.cpp's BertModel.
#include "convert/arch.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <algorithm>
#include <map>

namespace hearth::convert {

namespace {

constexpr NamePair kBertNames[] = {
    {"embeddings.word_embeddings", "token_embd"},
    {"embeddings.token_type_embeddings", "token_types"},
    {"embeddings.position_embeddings", "position_embd"},
    {"embeddings.LayerNorm", "token_embd_norm"},
    {"encoder.layer.{bid}.attention.self.query", "blk.{bid}.attn_q"},
    {"encoder.layer.{bid}.attention.self.key", "blk.{bid}.attn_k"},
    {"encoder.layer.{bid}.attention.self.value", "blk.{bid}.attn_v"},
    {"encoder.layer.{bid}.attention.output.dense", "blk.{bid}.attn_output"},
    {"encoder.layer.{bid}.attention.output.LayerNorm", "blk.{bid}.attn_output_norm"},
    {"encoder.layer.{bid}.intermediate.dense", "blk.{bid}.ffn_up"},
    {"encoder.layer.{bid}.output.dense", "blk.{bid}.ffn_down"},
    {"encoder.layer.{bid}.output.LayerNorm", "blk.{bid}.layer_output_norm"},
    {"classifier.out_proj", "cls.output"},
};

Json member(const Json& obj, const char* key)
{
    if (!obj.is_object())
        return Json();
    const auto it = obj.find(key);
    return it == obj.end() ? Json() : *it;
}

// sentence-transformers' pooling (modules.json -> <path>/config.json), as
// llama.cpp's _try_set_pooling_type: 1 mean, 2 cls, 3 last token.
std::optional<uint32_t> poolingType(const HfFolder& folder)
{
    if (!folder.hasFile("modules.json"))
        return std::nullopt;
    const Json modules = readJsonFile(folder.path("modules.json"));
    std::string path;
    bool found = false;
    for (const Json& m : modules.is_array() ? modules : Json::array())
        if (const Json t = member(m, "type"); t.is_string() && t.get<std::string>().ends_with("Pooling")) {
            path = member(m, "path").is_string() ? m["path"].get<std::string>() : "";
            found = true;
            break;
        }
    if (!found)
        return std::nullopt;
    const std::filesystem::path rel(path);
    if (rel.is_absolute() || std::any_of(rel.begin(), rel.end(), [](const auto& p) { return p == ".."; }))
        throw Error(folder.path("modules.json").string() + ": pooling path \"" + path + "\" leaves the model folder");
    const Json cfg = readJsonFile(folder.dir() / rel / "config.json");
    if (member(cfg, "pooling_mode_mean_tokens") == Json(true))
        return 1;
    if (member(cfg, "pooling_mode_cls_token") == Json(true))
        return 2;
    if (member(cfg, "pooling_mode_lasttoken") == Json(true))
        return 3;
    const Json mode = member(cfg, "pooling_mode");
    if (mode == Json("mean"))
        return 1;
    if (mode == Json("cls"))
        return 2;
    if (mode == Json("lasttoken"))
        return 3;
    throw Error((folder.dir() / rel / "config.json").string() +
                ": only mean, cls and last-token pooling are supported");
}

// id2label, unless it is the {LABEL_0, LABEL_1} that transformers invents.
std::vector<std::string> classifierLabels(const JsonObject& cfg)
{
    const Json* labels = cfg.find("id2label");
    if (!labels || !labels->is_object())
        return {};
    std::map<int64_t, std::string> byId;
    for (const auto& [k, v] : labels->items())
        if (v.is_string())
            byId[std::strtoll(k.c_str(), nullptr, 10)] = v.get<std::string>();
    if (byId.size() == 2 && byId.begin()->second == "LABEL_0")
        return {};
    std::vector<std::string> out;
    for (auto& [id, label] : byId)
        out.push_back(label);
    return out;
}

class Bert final : public Architecture {
public:
    std::string_view ggufName() const override { return "bert"; }

    void writeParameters(const HfFolder& folder, gguf::Writer& w, uint32_t fileType) const override
    {
        writeCommonParameters(folder, w, "bert");
        w.addUInt32("general.file_type", fileType);
        w.addBool("bert.attention.causal", false);
        if (const auto pooling = poolingType(folder))
            w.addUInt32("bert.pooling_type", *pooling);
        if (const auto labels = classifierLabels(folder.config()); !labels.empty())
            w.addStringArray("bert.classifier.output_labels", std::span<const std::string>(labels));
    }

    void writeVocab(const HfFolder& folder, gguf::Writer& w, const VocabOptions& options) const override
    {
        writeVocabBert(folder, w, options);
    }

    std::vector<MappedTensor> mapTensor(const HfFolder& folder, const StTensor& t) const override
    {
        std::string name = t.name;
        if (name.starts_with("bert."))
            name = name.substr(5);
        if (name.ends_with(".gamma"))
            name = name.substr(0, name.size() - 6) + ".weight";
        if (name.ends_with(".beta"))
            name = name.substr(0, name.size() - 5) + ".bias";
        if (name == "embeddings.position_ids" || name.starts_with("pooler.dense.") ||
            name.starts_with("cls.predictions") || name.starts_with("cls.seq_relationship"))
            return {};
        if (!classifierLabels(folder.config()).empty() && name.starts_with("classifier."))
            name = "classifier.out_proj." + name.substr(11);
        const std::string gguf = mapName(name, kBertNames);
        if (gguf.empty())
            throw Error(t.file + ": cannot place tensor '" + t.name + "' in a bert GGUF");
        return {{gguf, &t, {}}};
    }
};

} // namespace

std::unique_ptr<Architecture> makeBertArchitecture(std::string_view hfClass)
{
    if (hfClass == "BertModel" || hfClass == "BertForMaskedLM" || hfClass == "BertForSequenceClassification")
        return std::make_unique<Bert>();
    return nullptr;
}

} // namespace hearth::convert
