// The per-type encoders of plain text (special tokens already cut out). Each
// appends ids to `out` and follows llama.cpp's algorithm for its type:
//
// - SPM: characters merged pairwise, best-scoring pair first (leftmost on
//   ties); characters left unknown fall back to their bytes (<0xXX>).
// - BPE: pre-tokenizer words, each merged by merge rank (leftmost on ties)
//   over GPT-2 byte characters (or UTF-8 characters for SPM-style BPE).
// - WPM: BERT normalisation (lower case, accents stripped, punctuation and
//   CJK split off), then greedy longest match per word, [UNK] for a word
//   that cannot be matched.
// - UGM: SentencePiece unigram, best-scoring segmentation (Viterbi) after the
//   model's precompiled normalisation.
//
// EncodeScratch holds buffers reused across fragments of one call, and a
// cache of the ids of words already encoded in this call (a word's ids
// depend only on the word, so long texts encode each distinct word once).
#pragma once

#include "tokenizer/pretokenizer.h"
#include "tokenizer/string_index.h"
#include "tokenizer/vocab.h"

#include <string>
#include <string_view>
#include <vector>

namespace hearth::tok {

// Ids of words already encoded during one encode() call. Only words of at
// most kMaxWordBytes are kept, and at most kMaxWords of them.
class WordCache {
public:
    static constexpr size_t kMaxWordBytes = 48;
    static constexpr int32_t kMaxWords = 1 << 20;

    // Appends the cached ids of `word` to `out`; false when not cached.
    bool append(std::string_view word, std::vector<TokenId>& out) const
    {
        if (word.size() > kMaxWordBytes)
            return false;
        const int32_t i = m_words.find(word);
        if (i < 0)
            return false;
        out.insert(out.end(), m_ids.begin() + m_begin[static_cast<size_t>(i)],
                   m_ids.begin() + m_begin[static_cast<size_t>(i) + 1]);
        return true;
    }
    // Remembers that `word` encodes to out[from..].
    void store(std::string_view word, const std::vector<TokenId>& out, size_t from)
    {
        if (word.size() > kMaxWordBytes || m_words.size() >= kMaxWords)
            return;
        bool added = false;
        m_words.add(word, &added);
        if (!added)
            return;
        m_ids.insert(m_ids.end(), out.begin() + static_cast<std::ptrdiff_t>(from), out.end());
        m_begin.push_back(static_cast<uint32_t>(m_ids.size()));
    }

private:
    StringIndex m_words;
    std::vector<TokenId> m_ids;
    std::vector<uint32_t> m_begin{0};
};

struct EncodeScratch {
    struct Symbol {
        int32_t sym;    // token / merge symbol id, or -1
        uint32_t begin; // byte span in the text being merged
        uint32_t length;
        int32_t prev;
        int32_t next;
    };
    struct Pair {
        float score;  // SPM: the merged token's score
        int32_t rank; // BPE: merge rank
        int32_t left;
        int32_t right;
        int32_t result; // BPE: merged symbol; SPM: merged length in bytes
    };
    std::string text;
    std::string word;
    std::vector<uint32_t> cps;
    std::vector<uint32_t> byteOfCp;
    std::vector<uint32_t> ends;
    std::vector<Symbol> symbols;
    std::vector<Pair> heap;
    WordCache cache;
};

void encodeSpm(const Vocab& vocab, std::string_view text, EncodeScratch& scratch, std::vector<TokenId>& out);
void encodeBpe(const Vocab& vocab, const PreTokenizer& pre, std::string_view text, EncodeScratch& scratch,
               std::vector<TokenId>& out);
void encodeWpm(const Vocab& vocab, std::string_view text, EncodeScratch& scratch, std::vector<TokenId>& out);

// The token of each byte for BPE's last resort: a one-byte token text.
TokenId singleByteToken(const Vocab& vocab, uint8_t byte);

} // namespace hearth::tok
