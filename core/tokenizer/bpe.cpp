// Byte-level BPE ("gpt2" vocabularies: GPT-2, Llama 3, Qwen, SmolLM,
// DeepSeek, ...) and SPM-style BPE (Gemma 4). Text is decoded to code points
// with llama.cpp's lax rules (so invalid bytes become U+FFFD), cut into words
// by the pre-tokenizer, and each word is merged by rank over interned symbols.
#include "tokenizer/encoders.h"
#include "tokenizer/unicode.h"

#include <algorithm>

namespace hearth::tok {

namespace {

// Min-heap order: lowest rank first, then the leftmost pair.
struct BpeGreater {
    bool operator()(const EncodeScratch::Pair& a, const EncodeScratch::Pair& b) const
    {
        return a.rank > b.rank || (a.rank == b.rank && a.left > b.left);
    }
};
constexpr BpeGreater bpeGreater;

void tryMerge(const Vocab& vocab, EncodeScratch& s, int32_t left, int32_t right)
{
    if (left < 0 || right < 0)
        return;
    const int32_t l = s.symbols[static_cast<size_t>(left)].sym;
    const int32_t r = s.symbols[static_cast<size_t>(right)].sym;
    if (l < 0 || r < 0)
        return;
    const PairIndex::Value* merge =
        vocab.merges.pairs.find(PairIndex::key(static_cast<uint32_t>(l), static_cast<uint32_t>(r)));
    if (!merge)
        return;
    s.heap.push_back({0.0f, merge->a, left, right, merge->b});
    std::push_heap(s.heap.begin(), s.heap.end(), bpeGreater);
}

int32_t symbolOf(const Vocab& vocab, std::string_view text)
{
    const int32_t id = vocab.tokens.find(text);
    if (id >= 0)
        return id;
    const int32_t extra = vocab.merges.extra.find(text);
    return extra >= 0 ? vocab.size() + extra : -1;
}

// Symbols of one word: one per byte (GPT-2 byte characters) or one per UTF-8
// character (raw-byte vocabularies).
void makeSymbols(const Vocab& vocab, bool rawBytes, std::string_view word, EncodeScratch& s)
{
    s.symbols.clear();
    for (size_t offset = 0; offset < word.size();) {
        const size_t length =
            rawBytes ? std::min(utf8SequenceLength(static_cast<uint8_t>(word[offset])), word.size() - offset) : 1;
        const int32_t sym = rawBytes ? symbolOf(vocab, word.substr(offset, length))
                                     : vocab.merges.byteSymbol[static_cast<uint8_t>(word[offset])];
        const auto index = static_cast<int32_t>(s.symbols.size());
        s.symbols.push_back({sym, static_cast<uint32_t>(offset), static_cast<uint32_t>(length), index - 1,
                             offset + length == word.size() ? -1 : index + 1});
        offset += length;
    }
}

void mergeSymbols(const Vocab& vocab, EncodeScratch& s)
{
    s.heap.clear();
    for (int32_t i = 1; i < static_cast<int32_t>(s.symbols.size()); ++i)
        tryMerge(vocab, s, i - 1, i);
    while (!s.heap.empty()) {
        std::pop_heap(s.heap.begin(), s.heap.end(), bpeGreater);
        const EncodeScratch::Pair pair = s.heap.back();
        s.heap.pop_back();
        EncodeScratch::Symbol& left = s.symbols[static_cast<size_t>(pair.left)];
        EncodeScratch::Symbol& right = s.symbols[static_cast<size_t>(pair.right)];
        // Stale when either side has merged since (its symbol changed).
        if (left.length == 0 || right.length == 0 || left.next != pair.right)
            continue;
        const PairIndex::Value* merge =
            vocab.merges.pairs.find(PairIndex::key(static_cast<uint32_t>(left.sym), static_cast<uint32_t>(right.sym)));
        if (!merge || merge->a != pair.rank)
            continue;
        left.sym = pair.result;
        left.length += right.length;
        right.length = 0;
        left.next = right.next;
        if (right.next >= 0)
            s.symbols[static_cast<size_t>(right.next)].prev = pair.left;
        tryMerge(vocab, s, left.prev, pair.left);
        tryMerge(vocab, s, pair.left, left.next);
    }
}

// A final symbol that is not a token: llama.cpp emits the one-byte tokens of
// its (encoded) bytes, or <0xXX> tokens for raw-byte vocabularies.
void emitFallback(const Vocab& vocab, bool rawBytes, std::string_view piece, std::vector<TokenId>& out)
{
    std::string encoded;
    for (const char c : piece) {
        const auto byte = static_cast<uint8_t>(c);
        if (rawBytes) {
            if (vocab.byteTokens[byte] >= 0)
                out.push_back(vocab.byteTokens[byte]);
            continue;
        }
        encoded.clear();
        appendUtf8(encoded, byteToCodepoint(byte));
        for (const char e : encoded) {
            const TokenId id = singleByteToken(vocab, static_cast<uint8_t>(e));
            if (id >= 0)
                out.push_back(id);
        }
    }
}

// The GPT-2 byte characters of a word, for whole-word lookups.
void encodeWord(std::string_view word, std::string& out)
{
    out.clear();
    for (const char c : word)
        appendUtf8(out, byteToCodepoint(static_cast<uint8_t>(c)));
}

void encodeWordBpe(const Vocab& vocab, std::string_view word, EncodeScratch& s, std::vector<TokenId>& out)
{
    const uint32_t flags = vocab.pre->flags;
    const bool rawBytes = (flags & PreRawBytes) != 0;
    if (vocab.ignoreMerges || (flags & PreNewlineWords)) {
        const bool newlines = word.find_first_not_of('\n') == std::string_view::npos;
        if (vocab.ignoreMerges || newlines) {
            if (!rawBytes)
                encodeWord(word, s.word);
            const TokenId whole = vocab.tokens.find(rawBytes ? word : std::string_view(s.word));
            if (whole >= 0) {
                out.push_back(whole);
                return;
            }
        }
    }
    makeSymbols(vocab, rawBytes, word, s);
    if (s.symbols.size() > 1)
        mergeSymbols(vocab, s);
    for (int32_t i = 0; i != -1; i = s.symbols[static_cast<size_t>(i)].next) {
        const EncodeScratch::Symbol& symbol = s.symbols[static_cast<size_t>(i)];
        if (symbol.sym >= 0 && symbol.sym < vocab.size())
            out.push_back(symbol.sym);
        else
            emitFallback(vocab, rawBytes, word.substr(symbol.begin, symbol.length), out);
    }
}

} // namespace

TokenId singleByteToken(const Vocab& vocab, uint8_t byte)
{
    const char c = static_cast<char>(byte);
    return vocab.tokens.find(std::string_view(&c, 1));
}

void encodeBpe(const Vocab& vocab, const PreTokenizer& pre, std::string_view text, EncodeScratch& s,
               std::vector<TokenId>& out)
{
    if (vocab.escapeWhitespaces) {
        s.text.clear();
        for (const char c : text) {
            if (c == ' ')
                s.text += "\xE2\x96\x81";
            else
                s.text += c;
        }
        text = s.text;
    }
    // Code points, and their UTF-8 again: invalid input bytes are U+FFFD from
    // here on, as in llama.cpp.
    s.cps.clear();
    s.byteOfCp.clear();
    std::string utf8;
    utf8.reserve(text.size() + 16);
    for (size_t pos = 0; pos < text.size();) {
        const size_t start = pos;
        const uint32_t cp = decodeUtf8(text, pos);
        s.cps.push_back(cp);
        s.byteOfCp.push_back(static_cast<uint32_t>(utf8.size()));
        const size_t length = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (length == pos - start && cp <= 0x10FFFF)
            utf8.append(text, start, length); // the same bytes
        else
            appendUtf8(utf8, cp); // an invalid byte (U+FFFD), an overlong form, or past U+10FFFF
    }
    s.byteOfCp.push_back(static_cast<uint32_t>(utf8.size()));

    pre.split(s.cps, s.ends);
    const bool useCache = text.size() > 1024;
    uint32_t begin = 0;
    for (const uint32_t end : s.ends) {
        const std::string_view word(utf8.data() + s.byteOfCp[begin], s.byteOfCp[end] - s.byteOfCp[begin]);
        begin = end;
        if (useCache && s.cache.append(word, out))
            continue;
        const size_t from = out.size();
        encodeWordBpe(vocab, word, s, out);
        if (useCache)
            s.cache.store(word, out, from);
    }
}

} // namespace hearth::tok
