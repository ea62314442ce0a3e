#include "convert/special_vocab.h"

#include "gguf/gguf_writer.h"
#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace hearth::convert {

namespace {

// Python's truth value of a JSON value.
bool truthy(const Json& v)
{
    if (v.is_null())
        return false;
    if (v.is_boolean())
        return v.get<bool>();
    if (v.is_number())
        return v.get<double>() != 0.0;
    if (v.is_string() || v.is_array() || v.is_object())
        return !v.empty();
    return true;
}

Json member(const Json& obj, const char* key)
{
    if (!obj.is_object())
        return Json();
    const auto it = obj.find(key);
    return it == obj.end() ? Json() : *it;
}

// processor[key]["id"] of a template entry such as {"SpecialToken": {"id": "<s>"}}.
Json entryId(const Json& entry, const char* kind)
{
    return member(member(entry, kind), "id");
}

std::string readText(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    if (!in)
        throw Error(p.string() + ": cannot read");
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A pair-form merge ["a b", "c"] as "a\u0120b c": spaces become U+0120.
std::string joinMergePair(const Json& pair, const std::string& where)
{
    std::string out;
    for (size_t i = 0; i < 2; ++i) {
        if (!pair[i].is_string())
            throw Error(where + ": a merge is not a pair of strings");
        if (i)
            out += ' ';
        for (char c : pair[i].get<std::string>())
            out += c == ' ' ? std::string("\xc4\xa0") : std::string(1, c);
    }
    return out;
}

const std::vector<std::string_view> kIdKeys = {"bos", "eos", "unk", "sep", "pad", "mask", "eot", "eom"};
const std::vector<std::string_view> kAddKeys = {"bos", "eos", "sep"};

} // namespace

SpecialVocab::SpecialVocab(const HfFolder& folder, bool loadMerges, std::optional<int64_t> nVocab,
                           std::vector<std::string> types)
    : m_nVocab(nVocab), m_loadMerges(loadMerges), m_types(std::move(types))
{
    loadFromTokenizerJson(folder);
    loadFromConfigJson(folder);
    if (m_loadMerges && merges.empty())
        loadMergesTxt(folder);
}

void SpecialVocab::setSpecialToken(const std::string& type, int64_t id)
{
    if (id < 0)
        throw Error("special token " + type + ": invalid id " + std::to_string(id));
    if (m_nVocab && id >= *m_nVocab)
        return; // llama.cpp's converter warns and skips it
    if (!tokenId(type))
        m_ids.emplace_back(type, id);
}

std::optional<int64_t> SpecialVocab::tokenId(const std::string& type) const
{
    for (const auto& [t, id] : m_ids)
        if (t == type)
            return id;
    return std::nullopt;
}

std::optional<bool> SpecialVocab::addFlag(const std::string& type) const
{
    for (const auto& [t, v] : m_add)
        if (t == type)
            return v;
    return std::nullopt;
}

void SpecialVocab::loadFromTokenizerJson(const HfFolder& folder)
{
    const Json* tok = folder.tokenizerJson();
    const std::string where = folder.path("tokenizer.json").string();
    Json added = Json::array();
    if (tok) {
        const Json model = member(*tok, "model");
        const Json jm = member(model, "merges");
        if (m_loadMerges && jm.is_array() && !jm.empty()) {
            for (const Json& m : jm) {
                if (m.is_string())
                    merges.push_back(m.get<std::string>());
                else if (m.is_array() && m.size() == 2)
                    merges.push_back(joinMergePair(m, where));
                else
                    throw Error(where + ": unknown tokenizer merges format");
            }
        }
        if (const Json a = member(*tok, "added_tokens"); a.is_array())
            added = a;
    }
    Json config = folder.tokenizerConfig() ? *folder.tokenizerConfig() : Json();
    if (tok) {
        Json bos = member(config, "bos_token"), cls = member(config, "cls_token");
        Json eos = member(config, "eos_token"), sep = member(config, "sep_token");
        if (!truthy(bos) && truthy(cls) && truthy(config))
            config["bos_token"] = bos = cls;
        if (!truthy(eos) && truthy(sep) && truthy(config))
            config["eos_token"] = eos = sep;
        if (const Json post = member(*tok, "post_processor"); truthy(post)) {
            const Json list = member(post, "processors");
            const Json processors = list.is_array() ? list : Json::array({post});
            for (const Json& p : processors)
                applyPostProcessor(p, config, bos, eos, cls, sep);
        }
    }
    if (!truthy(config))
        return;
    std::optional<std::string> alt;
    std::vector<NamedTemplate> altList;
    if (folder.hasFile("chat_template.jinja")) {
        alt = readText(folder.path("chat_template.jinja"));
        const auto extra = folder.path("additional_chat_templates");
        if (std::filesystem::is_directory(extra)) {
            std::vector<std::filesystem::path> files;
            for (const auto& e : std::filesystem::directory_iterator(extra))
                if (e.path().extension() == ".jinja")
                    files.push_back(e.path());
            std::sort(files.begin(), files.end());
            if (!files.empty()) {
                altList.push_back({"default", *alt});
                for (const auto& f : files)
                    altList.push_back({f.stem().string(), readText(f)});
            }
        }
    } else if (folder.hasFile("chat_template.json")) {
        const Json j = readJsonFile(folder.path("chat_template.json"));
        if (const Json t = member(j, "chat_template"); t.is_string())
            alt = t.get<std::string>();
    }
    if (config.contains("chat_template")) {
        const Json t = config["chat_template"];
        if (t.is_string()) {
            chatTemplate = t.get<std::string>();
        } else if (t.is_array()) {
            for (const Json& c : t)
                if (c.is_object() && member(c, "template").is_string())
                    chatTemplates.push_back({member(c, "name").is_string() ? c["name"].get<std::string>() : "",
                                             c["template"].get<std::string>()});
        }
    } else if (!altList.empty()) {
        chatTemplates = altList;
    } else {
        chatTemplate = alt;
    }
    for (const std::string& type : m_types) {
        if (const Json a = member(config, ("add_" + type + "_token").c_str()); a.is_boolean()) {
            const auto it = std::find_if(m_add.begin(), m_add.end(), [&](const auto& e) { return e.first == type; });
            if (it != m_add.end())
                it->second = a.get<bool>();
            else
                m_add.emplace_back(type, a.get<bool>());
        }
        const Json entry = member(config, (type + "_token").c_str());
        std::string content;
        if (entry.is_string())
            content = entry.get<std::string>();
        else if (entry.is_object() && member(entry, "content").is_string())
            content = entry["content"].get<std::string>();
        else
            continue;
        for (const Json& at : added) {
            if (member(at, "content") == Json(content)) {
                if (const Json id = member(at, "id"); id.is_number_integer())
                    setSpecialToken(type, id.get<int64_t>());
                break;
            }
        }
    }
}

void SpecialVocab::applyPostProcessor(const Json& p, Json& config, Json& bos, Json& eos, Json& cls, Json& sep)
{
    const auto setAdd = [&](const std::string& type, bool v) {
        const auto it = std::find_if(m_add.begin(), m_add.end(), [&](const auto& e) { return e.first == type; });
        if (it != m_add.end())
            it->second = v;
        else
            m_add.emplace_back(type, v);
    };
    const Json type = member(p, "type");
    if (type == Json("RobertaProcessing")) {
        setAdd("bos", true);
        setAdd("eos", true);
        setAdd("sep", true);
        if (!truthy(cls) && truthy(config)) {
            const Json c = member(p, "cls");
            cls = c.is_array() && !c.empty() ? c[0] : bos;
            config["cls_token"] = cls;
        }
        if (!truthy(sep) && truthy(config)) {
            const Json s = member(p, "sep");
            sep = s.is_array() && !s.empty() ? s[0] : eos;
            config["sep_token"] = sep;
        }
        return;
    }
    if (type != Json("TemplateProcessing"))
        return;
    const Json single = member(p, "single").is_array() ? p["single"] : Json::array();
    Json pair = member(p, "pair").is_array() ? p["pair"] : Json::array();
    Json first, last;
    if (single.size() > 1) {
        first = entryId(single.front(), "SpecialToken");
        if (truthy(first)) {
            if (!truthy(config))
                bos = first;
            setAdd("bos", first == bos || first == cls);
        }
        last = entryId(single.back(), "SpecialToken");
        if (truthy(last)) {
            if (!truthy(config)) {
                eos = last;
            } else if (last != eos) {
                if (std::find(m_types.begin(), m_types.end(), "eot") == m_types.end()) {
                    m_types.push_back("eot");
                    config["eot_token"] = eos;
                } else if (std::find(m_types.begin(), m_types.end(), "eom") == m_types.end()) {
                    m_types.push_back("eom");
                    config["eom_token"] = eos;
                }
                config["eos_token"] = eos = last;
            }
            setAdd("eos", last == eos);
        }
    }
    if (pair.empty())
        return;
    const size_t start = truthy(first) && entryId(pair.front(), "SpecialToken") == first ? 1 : 0;
    const size_t stop = truthy(last) && entryId(pair.back(), "SpecialToken") == last ? 1 : 0;
    if (pair.size() <= start + stop)
        return;
    Json inner = Json::array();
    for (size_t i = start; i < pair.size() - stop; ++i)
        inner.push_back(pair[i]);
    if (entryId(inner.front(), "Sequence") != Json("A") || entryId(inner.back(), "Sequence") != Json("B") ||
        inner.size() < 3)
        return;
    bool addSep = false;
    const Json e1 = entryId(inner[1], "SpecialToken");
    if (truthy(e1) && (e1 == sep || e1 == eos) && !truthy(last))
        addSep = true;
    if (inner.size() == 4) {
        const Json e2 = entryId(inner[2], "SpecialToken");
        if (truthy(e2) && (e2 == sep || e2 == eos))
            addSep = true;
    }
    setAdd("sep", addSep);
    if (addSep && !truthy(sep) && truthy(config))
        config["sep_token"] = eos;
}

void SpecialVocab::loadFromConfigJson(const HfFolder& folder)
{
    const JsonObject& cfg = folder.config();
    for (const std::string& type : m_types) {
        const Json* id = cfg.find(type + "_token_id");
        if (id && id->is_number_integer())
            setSpecialToken(type, id->get<int64_t>());
    }
}

void SpecialVocab::loadMergesTxt(const HfFolder& folder)
{
    if (!folder.hasFile("merges.txt"))
        return;
    std::istringstream in(readText(folder.path("merges.txt")));
    std::string line;
    bool firstLine = true;
    while (std::getline(in, line)) {
        const bool skip = firstLine && line.starts_with('#');
        firstLine = false;
        if (skip)
            continue;
        std::istringstream words(line);
        std::string a, b, extra;
        if (!(words >> a >> b) || (words >> extra))
            continue; // malformed: llama.cpp's converter skips it too
        merges.push_back(a + " " + b);
    }
}

void SpecialVocab::addToGguf(gguf::Writer& w) const
{
    if (!merges.empty())
        w.addStringArray("tokenizer.ggml.merges", std::span<const std::string>(merges));
    for (const auto& [type, id] : m_ids) {
        if (std::find(kIdKeys.begin(), kIdKeys.end(), type) == kIdKeys.end())
            continue;
        // The GGUF key names (seperator sic).
        const std::string key = type == "sep"   ? "tokenizer.ggml.seperator_token_id"
                                : type == "unk" ? "tokenizer.ggml.unknown_token_id"
                                : type == "pad" ? "tokenizer.ggml.padding_token_id"
                                                : "tokenizer.ggml." + type + "_token_id";
        w.addUInt32(key, static_cast<uint32_t>(id));
    }
    for (const auto& [type, v] : m_add)
        if (std::find(kAddKeys.begin(), kAddKeys.end(), type) != kAddKeys.end())
            w.addBool("tokenizer.ggml.add_" + type + "_token", v);
    if (!chatTemplates.empty()) {
        std::optional<std::string> fallback;
        std::vector<std::string> names;
        for (const NamedTemplate& t : chatTemplates) {
            std::string name;
            for (char c : t.name)
                name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
            if (name.empty())
                continue;
            if (name == "default") {
                fallback = t.text;
            } else {
                names.push_back(name);
                if (!t.text.empty())
                    w.addString("tokenizer.chat_template." + name, t.text);
            }
        }
        if (!names.empty())
            w.addStringArray("tokenizer.chat_templates", std::span<const std::string>(names));
        if (fallback && !fallback->empty())
            w.addString("tokenizer.chat_template", *fallback);
    } else if (chatTemplate && !chatTemplate->empty()) {
        w.addString("tokenizer.chat_template", *chatTemplate);
    }
}

} // namespace hearth::convert
