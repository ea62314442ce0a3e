// The unigram model of a "t5" vocabulary: token tries, scores and the
// precompiled normalisation map (see ugm.cpp). Immutable after construction.
#pragma once

#include "tokenizer/encoders.h"
#include "tokenizer/trie.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hearth::tok {

class UgmModel {
public:
    // `vocab` must outlive this object.
    explicit UgmModel(const Vocab& vocab);

    void encode(std::string_view text, EncodeScratch& scratch, std::vector<TokenId>& out) const;

private:
    std::pair<std::string_view, size_t> mapPrefix(std::string_view text, size_t offset) const;
    void normalize(std::string_view text, std::string& out) const;

    const Vocab& m_vocab;
    ByteTrie m_tokens;      // normal, user-defined and unused tokens
    ByteTrie m_userDefined; // passed through unnormalised
    float m_unknownScore = 0.0f;
    std::vector<uint32_t> m_xcda;
    std::string_view m_replacements; // NUL-terminated strings, inside vocab.precompiledCharsmap
};

} // namespace hearth::tok
