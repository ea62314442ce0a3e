// Cutting special tokens out of text before it is tokenized, with llama.cpp's
// rules: tokens are tried one after the other, longest text first; each one
// is cut out of every remaining piece of plain text, leftmost occurrence
// first. Control and unknown tokens are cut only with parse_special;
// user-defined tokens always. A token with the lstrip (rstrip) attribute
// also removes the ASCII white space before (after) it in its piece.
//
// A byte trie over the special texts first finds which tokens occur at all,
// so the cost is one pass over the text plus one search per token present
// (llama.cpp searches for every special token of the vocabulary).
#pragma once

#include "tokenizer/trie.h"
#include "tokenizer/vocab.h"

#include <string_view>
#include <vector>

namespace hearth::tok {

struct Fragment {
    uint32_t begin = 0;
    uint32_t end = 0;
    TokenId token = kNoToken; // kNoToken: plain text [begin, end)
};

class SpecialTokens {
public:
    // `vocab` must outlive this object.
    explicit SpecialTokens(const Vocab& vocab);

    // Fills `out` with the pieces of `text` in order (none for empty text).
    void partition(std::string_view text, bool parseSpecial, std::vector<Fragment>& out) const;

private:
    // Ranks (indices into vocab.specialOrder) of the tokens found in text.
    void occurring(std::string_view text, bool parseSpecial, std::vector<uint32_t>& ranks) const;

    const Vocab& m_vocab;
    ByteTrie m_trie; // special text -> rank
    // The trie's first level as a table, and which second bytes can follow
    // each first byte: most text positions are settled without hashing.
    int32_t m_firstNode[256];
    uint64_t m_secondBytes[256][4] = {};
};

} // namespace hearth::tok
