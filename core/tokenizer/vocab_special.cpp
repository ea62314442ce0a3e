// Special tokens of a vocabulary, as llama.cpp settles them after reading the
// tokens: ids from metadata (with each type's defaults), add_bos/add_eos,
// end markers recognised by their text (and made control tokens), the
// end-of-generation set, and the order special tokens are cut out of text.
#include "gguf/gguf.h"
#include "tokenizer/vocab.h"
#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>

namespace hearth::tok {

namespace {

struct IdKey {
    std::string_view key;
    TokenId SpecialIds::*field;
};

constexpr IdKey kIdKeys[] = {
    {"tokenizer.ggml.bos_token_id", &SpecialIds::bos},        {"tokenizer.ggml.eos_token_id", &SpecialIds::eos},
    {"tokenizer.ggml.eot_token_id", &SpecialIds::eot},        {"tokenizer.ggml.eom_token_id", &SpecialIds::eom},
    {"tokenizer.ggml.unknown_token_id", &SpecialIds::unk},    {"tokenizer.ggml.seperator_token_id", &SpecialIds::sep},
    {"tokenizer.ggml.padding_token_id", &SpecialIds::pad},    {"tokenizer.ggml.mask_token_id", &SpecialIds::mask},
    {"tokenizer.ggml.fim_pre_token_id", &SpecialIds::fimPre}, {"tokenizer.ggml.fim_suf_token_id", &SpecialIds::fimSuf},
    {"tokenizer.ggml.fim_mid_token_id", &SpecialIds::fimMid}, {"tokenizer.ggml.fim_pad_token_id", &SpecialIds::fimPad},
    {"tokenizer.ggml.fim_rep_token_id", &SpecialIds::fimRep}, {"tokenizer.ggml.fim_sep_token_id", &SpecialIds::fimSep},
    {"tokenizer.ggml.prefix_token_id", &SpecialIds::fimPre}, // deprecated names
    {"tokenizer.ggml.suffix_token_id", &SpecialIds::fimSuf},  {"tokenizer.ggml.middle_token_id", &SpecialIds::fimMid},
};

// Ids in metadata must name a token. A padding id past the vocabulary is a
// known converter slip that changes nothing here: warned about and ignored.
void readSpecialIds(const gguf::File& file, Vocab& v)
{
    for (const IdKey& k : kIdKeys) {
        TokenId& id = v.special.*k.field;
        if (id >= v.size())
            id = kNoToken; // a default the vocabulary is too small for
        const gguf::Value* value = file.find(k.key);
        if (!value)
            continue;
        const auto n = value->toInt();
        if (!n)
            file.fail(k.key, "has type " + std::string(gguf::valueTypeName(value->type())) + " (expected an integer)");
        if (*n < 0 || *n >= v.size()) {
            if (k.field == &SpecialIds::pad) {
                v.warnings.push_back(std::string(k.key) + " = " + std::to_string(*n) +
                                     " is outside the vocabulary; ignored");
                continue;
            }
            file.fail(k.key, "is " + std::to_string(*n) + ", outside the vocabulary of " + std::to_string(v.size()) +
                                 " tokens");
        }
        id = static_cast<TokenId>(*n);
    }
}

void readFlags(const gguf::File& file, Vocab& v)
{
    const auto flag = [&](std::string_view key, bool& out) {
        if (const gguf::Value* value = file.find(key)) {
            const auto b = value->toBool();
            if (!b)
                file.fail(key, "has type " + std::string(gguf::valueTypeName(value->type())) + " (expected bool)");
            out = *b;
        }
    };
    flag("tokenizer.ggml.add_bos_token", v.addBos);
    flag("tokenizer.ggml.add_eos_token", v.addEos);
    flag("tokenizer.ggml.add_sep_token", v.addSep);
    if (v.pre && v.pre->name == "gemma4")
        v.addBos = true; // as llama.cpp: Gemma 4 files say false but need it
    // (add_sep is not checked: llama.cpp loads files that ask for a missing
    // separator, and encoding never adds one outside BERT.)
    const auto need = [&](bool add, TokenId id, std::string_view addKey, std::string_view idKey) {
        if (add && id == kNoToken)
            file.fail(addKey, "is true, but " + std::string(idKey) + " is not set");
    };
    need(v.addBos, v.special.bos, "tokenizer.ggml.add_bos_token", "tokenizer.ggml.bos_token_id");
    need(v.addEos, v.special.eos, "tokenizer.ggml.add_eos_token", "tokenizer.ggml.eos_token_id");
    flag("tokenizer.ggml.normalizer.lowercase", v.lowercase);
    v.stripAccents = v.lowercase;
    flag("tokenizer.ggml.normalizer.strip_accents", v.stripAccents);
}

// Finds the first of `texts` in the vocabulary for an id the metadata left
// unset, and makes it a control token.
void detectByText(Vocab& v, TokenId& id, std::initializer_list<std::string_view> texts)
{
    if (id != kNoToken)
        return;
    for (std::string_view text : texts) {
        const TokenId found = v.tokens.find(text);
        if (found >= 0) {
            id = found;
            v.attrs[found] |= AttrControl;
            return;
        }
    }
}

void detectMarkers(Vocab& v)
{
    SpecialIds& s = v.special;
    detectByText(v, s.eot,
                 {"<|eot_id|>", "<|im_end|>", "<|end|>", "<end_of_turn>", "<|endoftext|>", "<|end_of_text|>", "<EOT>",
                  "_<EOT>", "[EOT]",
                  "<\xEF\xBD\x9C"
                  "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>",
                  "<end_of_utterance>"});
    detectByText(v, s.eom, {"<|eom_id|>"});
    detectByText(v, s.fimPre,
                 {"<|fim_prefix|>", "<fim-prefix>", "<fim_prefix>",
                  "<\xEF\xBD\x9C"
                  "fim\xE2\x96\x81"
                  "begin\xEF\xBD\x9C>",
                  "<PRE>", "\xE2\x96\x81<PRE>", "<|code_prefix|>", "<|prefix|>"});
    detectByText(v, s.fimSuf,
                 {"<|fim_suffix|>", "<fim-suffix>", "<fim_suffix>",
                  "<\xEF\xBD\x9C"
                  "fim\xE2\x96\x81hole\xEF\xBD\x9C>",
                  "<SUF>", "\xE2\x96\x81<SUF>", "<|code_suffix|>", "<|suffix|>"});
    detectByText(v, s.fimMid,
                 {"<|fim_middle|>", "<fim-middle>", "<fim_middle>",
                  "<\xEF\xBD\x9C"
                  "fim\xE2\x96\x81"
                  "end\xEF\xBD\x9C>",
                  "<MID>", "\xE2\x96\x81<MID>", "<|code_middle|>", "<|middle|>"});
    detectByText(v, s.fimPad, {"<|fim_pad|>", "<fim-pad>", "<fim_pad>", "<PAD>", "[PAD]"});
    detectByText(v, s.fimRep, {"<|fim_repo|>", "<|repo_name|>", "<fim-repo>", "<REPO>", "<reponame>"});
    detectByText(v, s.fimSep, {"<|file_sep|>"});

    // Control tokens named "unused..." are unused.
    for (TokenId id = 0; id < v.size(); ++id) {
        if ((v.attrs[id] & AttrControl) && v.text(id).find("unused") != std::string_view::npos)
            v.attrs[id] |= AttrUnused;
    }
}

void buildEndOfGeneration(Vocab& v)
{
    static constexpr std::string_view kEndTexts[] = {"<|eot_id|>",
                                                     "<|im_end|>",
                                                     "<|end|>",
                                                     "<|return|>",
                                                     "<|call|>",
                                                     "<|flush|>",
                                                     "<|calls|>",
                                                     "<end_of_turn>",
                                                     "<|endoftext|>",
                                                     "</s>",
                                                     "<|eom_id|>",
                                                     "<EOT>",
                                                     "_<EOT>",
                                                     "[EOT]",
                                                     "[EOS]",
                                                     "<|end_of_text|>",
                                                     "<end_of_utterance>",
                                                     "<eos>",
                                                     "<turn|>",
                                                     "<|tool_response>",
                                                     "<\xEF\xBD\x9C"
                                                     "end\xE2\x96\x81of\xE2\x96\x81sentence\xEF\xBD\x9C>",
                                                     "[e~["};
    const SpecialIds& s = v.special;
    std::set<TokenId> eog;
    for (TokenId id : {s.fimPad, s.fimRep, s.fimSep}) {
        if (id != kNoToken)
            eog.insert(id);
    }
    for (std::string_view text : kEndTexts) {
        const TokenId id = v.tokens.find(text);
        if (id >= 0) {
            eog.insert(id);
            v.attrs[id] |= AttrControl;
        }
    }
    // gpt-oss: these always render and are cut out of text even without
    // parse_special.
    for (std::string_view text : {"<|channel|>", "<|message|>", "<|start|>", "<|constrain|>"}) {
        if (const TokenId id = v.tokens.find(text); id >= 0)
            v.attrs[id] = AttrUserDefined;
    }
    for (TokenId id : {s.eos, s.eot, s.eom}) {
        if (id != kNoToken)
            eog.insert(id);
    }
    // gpt-oss and solar-open end a message with <|end|> but not generation.
    const auto has = [&](std::string_view text) {
        const TokenId id = v.tokens.find(text);
        return id >= 0 && eog.count(id) > 0;
    };
    const TokenId end = v.tokens.find("<|end|>");
    if (end >= 0 && eog.count(end) &&
        ((has("<|return|>") && (has("<|call|>") || has("<|calls|>"))) ||
         ((has("<|call|>") || has("<|calls|>")) && has("<|flush|>")))) {
        eog.erase(end);
        v.attrs[end] = AttrUserDefined;
    }
    // Gemma 4: </s> is not an end marker when <|tool_response> is one.
    const TokenId closeS = v.tokens.find("</s>");
    if (closeS >= 0 && eog.count(closeS) && has("<|tool_response>")) {
        eog.erase(closeS);
        v.attrs[closeS] = AttrNormal;
    }
    v.endOfGeneration.assign(eog.begin(), eog.end());
}

// Attributes llama.cpp sets by model name (they are not in GGUF files).
void applyModelRules(const gguf::File& file, Vocab& v)
{
    std::string name(file.findString("general.name").value_or(""));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
    const std::string_view arch = file.architecture();
    const auto set = [&](std::string_view text, uint32_t attr, bool on) {
        const TokenId id = v.tokens.find(text);
        if (id >= 0)
            v.attrs[id] = on ? (v.attrs[id] | attr) : (v.attrs[id] & ~attr);
    };
    const auto contains = [](std::string_view s, std::initializer_list<std::string_view> parts) {
        return std::any_of(parts.begin(), parts.end(), [&](std::string_view p) { return s.find(p) != s.npos; });
    };
    if (contains(v.preName, {"jina-v2-de", "jina-v2-es", "jina-v2-code"}) ||
        contains(arch, {"nomic-bert-moe", "jina-bert-v3"})) {
        set("<mask>", AttrLstrip, true);
    } else if (contains(name, {"phi-3", "phi3"})) {
        for (TokenId id : v.specialOrder)
            v.attrs[id] |= AttrRstrip;
        set("</s>", AttrRstrip, true);
        for (std::string_view text : {"<unk>", "<s>", "<|endoftext|>"})
            set(text, AttrRstrip, false);
    } else if (contains(name, {"modern-bert"})) {
        set("[MASK]", AttrLstrip, true);
    }
}

} // namespace

void finishSpecialTokens(const gguf::File& file, Vocab& v)
{
    readSpecialIds(file, v);
    readFlags(file, v);
    detectMarkers(v);
    buildEndOfGeneration(v);

    // Special tokens are cut out of text longest first. std::sort, as
    // llama.cpp does, so that tokens of equal length keep its order.
    for (TokenId id = 0; id < v.size(); ++id) {
        if (v.attrs[id] & (AttrControl | AttrUserDefined | AttrUnknown))
            v.specialOrder.push_back(id);
    }
    std::sort(v.specialOrder.begin(), v.specialOrder.end(),
              [&](TokenId a, TokenId b) { return v.text(a).size() > v.text(b).size(); });
    applyModelRules(file, v);
}

} // namespace hearth::tok
