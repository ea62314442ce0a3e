// SentencePiece BPE ("llama" vocabularies: Llama 2, Mistral, Gemma, Phi-3).
// The caller has already turned spaces into U+2581 and added the space
// prefix; this merges characters by token score.
#include "tokenizer/encoders.h"
#include "tokenizer/unicode.h"

#include <algorithm>

namespace hearth::tok {

namespace {

// Max-heap order: higher score first, then the leftmost pair.
struct SpmLess {
    bool operator()(const EncodeScratch::Pair& a, const EncodeScratch::Pair& b) const
    {
        return a.score < b.score || (a.score == b.score && a.left > b.left);
    }
};
constexpr SpmLess spmLess;

void tryPair(const Vocab& vocab, std::string_view text, EncodeScratch& s, int32_t left, int32_t right)
{
    if (left < 0 || right < 0)
        return;
    const EncodeScratch::Symbol& l = s.symbols[static_cast<size_t>(left)];
    const EncodeScratch::Symbol& r = s.symbols[static_cast<size_t>(right)];
    const uint32_t length = l.length + r.length;
    const TokenId id = vocab.tokens.find(text.substr(l.begin, length));
    if (id < 0)
        return;
    s.heap.push_back({vocab.scores[static_cast<size_t>(id)], 0, left, right, static_cast<int32_t>(length)});
    std::push_heap(s.heap.begin(), s.heap.end(), spmLess);
}

void emitSymbol(const Vocab& vocab, std::string_view piece, std::vector<TokenId>& out)
{
    const TokenId id = vocab.tokens.find(piece);
    if (id >= 0) {
        out.push_back(id);
        return;
    }
    for (const char c : piece) { // byte fallback
        const TokenId byte = vocab.byteTokens[static_cast<uint8_t>(c)];
        if (byte >= 0)
            out.push_back(byte);
        else if (vocab.special.unk >= 0) // no byte token: llama.cpp would abort here
            out.push_back(vocab.special.unk);
    }
}

// Merges the characters of one word (or of the whole text) by score.
void mergeWord(const Vocab& vocab, std::string_view text, EncodeScratch& s, std::vector<TokenId>& out)
{
    s.symbols.clear();
    s.heap.clear();
    for (size_t offset = 0; offset < text.size();) {
        const size_t length = std::min(utf8SequenceLength(static_cast<uint8_t>(text[offset])), text.size() - offset);
        const auto index = static_cast<int32_t>(s.symbols.size());
        s.symbols.push_back({0, static_cast<uint32_t>(offset), static_cast<uint32_t>(length), index - 1,
                             offset + length == text.size() ? -1 : index + 1});
        offset += length;
    }
    for (int32_t i = 1; i < static_cast<int32_t>(s.symbols.size()); ++i)
        tryPair(vocab, text, s, i - 1, i);

    while (!s.heap.empty()) {
        std::pop_heap(s.heap.begin(), s.heap.end(), spmLess);
        const EncodeScratch::Pair pair = s.heap.back();
        s.heap.pop_back();
        EncodeScratch::Symbol& left = s.symbols[static_cast<size_t>(pair.left)];
        EncodeScratch::Symbol& right = s.symbols[static_cast<size_t>(pair.right)];
        // Skip pairs made stale by an earlier merge.
        if (left.length == 0 || right.length == 0 || left.length + right.length != static_cast<uint32_t>(pair.result))
            continue;
        left.length += right.length;
        right.length = 0;
        left.next = right.next;
        if (right.next >= 0)
            s.symbols[static_cast<size_t>(right.next)].prev = pair.left;
        tryPair(vocab, text, s, left.prev, pair.left);
        tryPair(vocab, text, s, pair.left, left.next);
    }
    for (int32_t i = s.symbols.empty() ? -1 : 0; i != -1; i = s.symbols[static_cast<size_t>(i)].next) {
        const EncodeScratch::Symbol& symbol = s.symbols[static_cast<size_t>(i)];
        emitSymbol(vocab, text.substr(symbol.begin, symbol.length), out);
    }
}

} // namespace

// No token spans the start of a U+2581 whose previous character is neither
// U+2581 nor one of vocab.spmGlue (characters some token has right before a
// U+2581). Merging never crosses such a point, and merges on either side do
// not affect each other, so the text is merged word by word, and repeated
// words are taken from the cache.
void encodeSpm(const Vocab& vocab, std::string_view text, EncodeScratch& s, std::vector<TokenId>& out)
{
    const auto isSpace = [&](size_t at) {
        return at + 3 <= text.size() && text[at] == '\xE2' && text[at + 1] == '\x96' && text[at + 2] == '\x81';
    };
    const bool useCache = text.size() > 1024;
    const bool anyGlue = vocab.spmGlue.size() > 0;
    size_t wordStart = 0;
    size_t previous = 0, previousLength = 0; // the previous character
    const auto flush = [&](size_t end) {
        const std::string_view word = text.substr(wordStart, end - wordStart);
        if (word.empty() || (useCache && s.cache.append(word, out)))
            return;
        const size_t from = out.size();
        mergeWord(vocab, word, s, out);
        if (useCache)
            s.cache.store(word, out, from);
    };
    for (size_t offset = 0; offset < text.size();) {
        const size_t length = std::min(utf8SequenceLength(static_cast<uint8_t>(text[offset])), text.size() - offset);
        if (length == 3 && isSpace(offset) && previousLength > 0 && !(previousLength == 3 && isSpace(previous)) &&
            !(anyGlue && vocab.spmGlue.find(text.substr(previous, previousLength)) >= 0)) {
            flush(offset);
            wordStart = offset;
        }
        previous = offset;
        previousLength = length;
        offset += length;
    }
    flush(text.size());
}

} // namespace hearth::tok
