// Special tokens, "add BOS/EOS/SEP" flags, BPE merges and the chat template
// of a Hugging Face tokenizer, found the way llama.cpp's converter (the gguf
// package's SpecialVocab) finds them, so the GGUF keys come out the same:
//
// 1. tokenizer.json: merges (when asked for; pair-form merges with spaces
//    get U+0120 for the space), added_tokens, and the post-processor
//    (RobertaProcessing, or a TemplateProcessing whose single-sequence
//    template starts / ends with a special token) for the add_* flags;
//    tokenizer_config.json's bos/eos/cls/sep tokens fill each other in, and
//    a trailing template token that is not the configured EOS becomes the
//    EOS (the old one moves to EOT, or EOM);
// 2. tokenizer_config.json: chat_template (else chat_template.jinja with
//    additional_chat_templates/*.jinja, else chat_template.json),
//    add_<type>_token flags, and <type>_token texts looked up among
//    tokenizer.json's added tokens;
// 3. config.json's <type>_token_id for types still unset;
// 4. merges.txt when merges were asked for and none were found.
//
// The first id found for a type wins; ids at or past nVocab are dropped.
#pragma once

#include "convert/hf_folder.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hearth::gguf {
class Writer;
}

namespace hearth::convert {

struct NamedTemplate {
    std::string name;
    std::string text;
};

class SpecialVocab {
public:
    SpecialVocab(const HfFolder& folder, bool loadMerges, std::optional<int64_t> nVocab,
                 std::vector<std::string> types = {"bos", "eos", "unk", "sep", "pad", "cls", "mask"});

    // Sets `type` to `id` unless it is set already (or the id is out of range).
    void setSpecialToken(const std::string& type, int64_t id);
    std::optional<int64_t> tokenId(const std::string& type) const;
    std::optional<bool> addFlag(const std::string& type) const;

    std::vector<std::string> merges;
    // The chat template: one text, or several named ones ("default" first).
    std::optional<std::string> chatTemplate;
    std::vector<NamedTemplate> chatTemplates;

    // Writes merges, token ids, add flags and the chat template, in that
    // order, as the gguf package's add_to_gguf does (types the GGUF format
    // has no key for, such as cls, are skipped).
    void addToGguf(gguf::Writer& writer) const;

private:
    void loadFromTokenizerJson(const HfFolder& folder);
    void loadFromConfigJson(const HfFolder& folder);
    void loadMergesTxt(const HfFolder& folder);
    void applyPostProcessor(const Json& processor, Json& config, Json& bos, Json& eos, Json& cls, Json& sep);

    std::optional<int64_t> m_nVocab;
    bool m_loadMerges;
    std::vector<std::string> m_types;
    std::vector<std::pair<std::string, int64_t>> m_ids;
    std::vector<std::pair<std::string, bool>> m_add;
};

} // namespace hearth::convert
