// WordPiece ("bert" vocabularies). GGUF converters store word-initial pieces
// with a U+2581 prefix and continuation pieces without "##", so matching is a
// plain greedy longest match over "\u2581" + word.
#include "tokenizer/encoders.h"
#include "tokenizer/unicode.h"

#include <algorithm>

namespace hearth::tok {

namespace {

// CJK ideographs get a word each (the ranges of BERT's tokenizer, including
// its 0x2B920 typo for 0x2B820).
bool isChineseChar(uint32_t cp)
{
    return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF) ||
           (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B920 && cp <= 0x2CEAF) ||
           (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}

// Normalises `text` into words, each written to `words` and ended in `ends`.
void splitWords(const Vocab& vocab, std::string_view text, std::string& words, std::vector<uint32_t>& ends)
{
    words.clear();
    ends.clear();
    const auto endWord = [&] {
        if (words.size() > (ends.empty() ? 0 : ends.back()))
            ends.push_back(static_cast<uint32_t>(words.size()));
    };
    for (size_t pos = 0; pos < text.size();) {
        uint32_t cp = decodeUtf8(text, pos);
        if (vocab.stripAccents)
            cp = nfdFirst(cp);
        const uint16_t flags = codepointFlags(cp);
        if (flags & CpWhitespace) {
            endWord();
            continue;
        }
        if (cp == 0 || cp == kReplacementChar || (flags & CpControl))
            continue;
        if (vocab.stripAccents && (flags & CpMark))
            continue;
        const uint32_t out = vocab.lowercase ? toLowerSimple(cp) : cp;
        if ((flags & CpPunctuation) || (cp < 0x7F && (flags & CpSymbol)) || isChineseChar(cp)) {
            endWord();
            appendUtf8(words, out);
            endWord();
        } else {
            appendUtf8(words, out);
        }
    }
    endWord();
}

} // namespace

void encodeWpm(const Vocab& vocab, std::string_view text, EncodeScratch& s, std::vector<TokenId>& out)
{
    splitWords(vocab, text, s.text, s.ends);
    uint32_t begin = 0;
    for (const uint32_t end : s.ends) {
        s.word.assign("\xE2\x96\x81");
        s.word.append(s.text, begin, end - begin);
        begin = end;
        const std::string_view word = s.word;
        const size_t start = out.size();
        const auto n = static_cast<int64_t>(word.size());
        for (int64_t i = 0; i < n; ++i) {
            bool matched = false;
            for (int64_t j = std::min<int64_t>(n, i + vocab.maxTokenLength + 1); j > i; --j) {
                const TokenId id = vocab.tokens.find(word.substr(static_cast<size_t>(i), static_cast<size_t>(j - i)));
                if (id >= 0) {
                    out.push_back(id);
                    matched = true;
                    i = j - 1;
                    break;
                }
            }
            if (!matched) { // the word cannot be spelled: it becomes [UNK]
                out.resize(start);
                break;
            }
        }
        if (out.size() == start && vocab.special.unk >= 0)
            out.push_back(vocab.special.unk);
    }
}

} // namespace hearth::tok
