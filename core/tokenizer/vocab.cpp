// Reads `tokenizer.ggml.*` into a Vocab, in llama.cpp's order: type and its
// defaults, pre-tokenizer options, tokens, special ids, flags; then the
// attribute fix-ups (end markers recognised by their text), the
// end-of-generation set and the special-token order (vocab_special.cpp).
#include "tokenizer/vocab.h"

#include "gguf/gguf.h"
#include "tokenizer/unicode.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>

namespace hearth::tok {

void finishSpecialTokens(const gguf::File& file, Vocab& vocab); // vocab_special.cpp

namespace {

constexpr std::string_view kModelKey = "tokenizer.ggml.model";
constexpr std::string_view kPreKey = "tokenizer.ggml.pre";
constexpr std::string_view kTokensKey = "tokenizer.ggml.tokens";
constexpr std::string_view kScoresKey = "tokenizer.ggml.scores";
constexpr std::string_view kTypesKey = "tokenizer.ggml.token_type";
constexpr std::string_view kMergesKey = "tokenizer.ggml.merges";

// Type and defaults from tokenizer.ggml.model.
void readModel(const gguf::File& file, const LoadOptions& options, Vocab& v)
{
    const auto model = file.findString(kModelKey);
    if (!model)
        file.fail(kModelKey, "is missing (the file has no tokenizer)");
    v.model = std::string(*model);
    SpecialIds& s = v.special;
    if (v.model == "llama") {
        v.type = VocabType::Spm;
        s.bos = 1, s.eos = 2, s.unk = 0;
        v.addSpacePrefix = true, v.addBos = true;
    } else if (v.model == "bert") {
        v.type = VocabType::Wpm;
        s.bos = 101, s.unk = 100, s.sep = 102, s.pad = 0, s.mask = 103;
        v.addBos = true, v.addSep = true, v.cleanSpaces = true;
    } else if (v.model == "gpt2" || v.model == "gemma4") {
        v.type = VocabType::Bpe;
        if (v.model == "gpt2")
            s.bos = 11, s.eos = 11;
    } else if (v.model == "t5") {
        v.type = VocabType::Ugm;
        s.eos = 1, s.unk = 2, s.pad = 0;
        v.addEos = true;
    } else if (v.model == "no_vocab" || v.model == "none") {
        file.fail(kModelKey, "is '" + v.model + "': the model has no vocabulary to tokenize with");
    } else {
        file.fail(kModelKey, "names an unknown tokenizer '" + v.model + "' (known: llama, gpt2, bert, t5, gemma4)");
    }
    if (v.type != VocabType::Bpe)
        return;

    std::string pre =
        options.preTokenizer.empty() ? std::string(file.findString(kPreKey).value_or("")) : options.preTokenizer;
    if (v.model == "gemma4")
        pre = "gemma4";
    if (pre.empty()) {
        v.warnings.push_back(std::string(kPreKey) +
                             " is missing: using the 'default' pre-tokenizer; generation quality may be degraded "
                             "(regenerate the GGUF with a current converter)");
        pre = "default";
    }
    v.pre = findPreTokenizer(pre);
    if (!v.pre)
        file.fail(kPreKey, "names an unknown pre-tokenizer '" + pre + "'");
    v.preName = pre;
    const uint32_t f = v.pre->flags;
    v.escapeWhitespaces = (f & PreEscapeSpaces) != 0;
    v.cleanSpaces = (f & PreKeepSpaces) == 0;
    v.ignoreMerges = (f & PreIgnoreMerges) != 0;
    v.addBos = (f & PreAddBos) != 0;
    v.addSep = (f & PreAddSep) != 0;
    if (f & PreNoBos)
        s.bos = kNoToken;
}

const gguf::Value* findTypedArray(const gguf::File& file, std::string_view key, bool numeric)
{
    const gguf::Value* array = file.findArray(key);
    if (!array)
        return nullptr;
    const gguf::ValueType t = array->elementType();
    const bool ok = numeric ? (gguf::isIntegerType(t) || gguf::isFloatType(t)) : t == gguf::ValueType::String;
    if (!ok)
        file.fail(key, "is an array of " + std::string(gguf::valueTypeName(t)) + " (expected " +
                           (numeric ? "numbers" : "strings") + ")");
    return array;
}

uint32_t attrOfType(int64_t type)
{
    switch (type) {
    case 1: return AttrNormal;
    case 2: return AttrUnknown;
    case 3: return AttrControl;
    case 4: return AttrUserDefined;
    case 5: return AttrUnused;
    case 6: return AttrByte;
    default: return AttrUndefined;
    }
}

void readTokens(const gguf::File& file, Vocab& v)
{
    const gguf::Value* tokens = findTypedArray(file, kTokensKey, false);
    if (!tokens)
        file.fail(kTokensKey, "is missing");
    const uint64_t n = tokens->size();
    if (n == 0)
        file.fail(kTokensKey, "is empty");
    if (n > uint64_t(INT32_MAX) / 2)
        file.fail(kTokensKey, "has " + std::to_string(n) + " tokens (too many)");
    const gguf::Value* scores = findTypedArray(file, kScoresKey, true);
    if (scores && scores->size() < n)
        file.fail(kScoresKey,
                  "has " + std::to_string(scores->size()) + " entries for " + std::to_string(n) + " tokens");
    const gguf::Value* types = findTypedArray(file, kTypesKey, true);
    if (types && !gguf::isIntegerType(types->elementType()))
        file.fail(kTypesKey,
                  "is an array of " + std::string(gguf::valueTypeName(types->elementType())) + " (expected integers)");
    if (types && types->size() < n)
        file.fail(kTypesKey, "has " + std::to_string(types->size()) + " entries for " + std::to_string(n) + " tokens");

    v.tokens.reserve(n, 0);
    v.scores.resize(n);
    v.attrs.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
        std::string_view text = tokens->stringAt(i);
        std::string placeholder;
        if (text.empty()) { // as llama.cpp: an empty token gets a unique name
            placeholder = "[EMPTY_" + std::to_string(i) + "]";
            text = placeholder;
        }
        bool added = false;
        const int32_t id = v.tokens.add(text, &added);
        if (id < 0)
            file.fail(kTokensKey, "has a token of " + std::to_string(text.size()) + " bytes at id " +
                                      std::to_string(i) + " (too long)");
        if (!added)
            file.fail(kTokensKey, "has the token '" + std::string(text.substr(0, 64)) + "' twice (ids " +
                                      std::to_string(id) + " and " + std::to_string(i) + ")");
        v.maxTokenLength = std::max(v.maxTokenLength, static_cast<int>(text.size()));
        v.scores[i] = scores ? static_cast<float>(scores->floatAt(i)) : 0.0f;
        v.attrs[i] = types ? attrOfType(types->intAt(i)) : AttrNormal;
    }
}

// Interns merge texts as symbols and fills the (left, right) -> rank table.
void readMerges(const gguf::File& file, Vocab& v)
{
    const gguf::Value* merges = findTypedArray(file, kMergesKey, false);
    if (!merges)
        file.fail(kMergesKey, "is missing (a BPE tokenizer needs its merges)");
    const int32_t nTokens = v.size();
    BpeMerges& m = v.merges;
    const auto intern = [&](std::string_view s) {
        const int32_t id = v.tokens.find(s);
        if (id >= 0)
            return id;
        const int32_t extra = m.extra.add(s);
        return extra >= 0 ? nTokens + extra : -1; // -1: too long to ever match
    };
    const uint64_t n = merges->size();
    if (n > uint64_t(INT32_MAX))
        file.fail(kMergesKey, "has too many entries");
    std::string joined;
    for (uint64_t rank = 0; rank < n; ++rank) {
        const std::string_view merge = merges->stringAt(rank);
        const size_t space = merge.size() > 1 ? merge.find(' ', 1) : std::string_view::npos;
        if (space == std::string_view::npos)
            continue; // llama.cpp keys it as ("", ""), which no pair of symbols matches
        const std::string_view left = merge.substr(0, space);
        const std::string_view right = merge.substr(space + 1);
        if (right.empty())
            continue;
        joined.assign(left).append(right);
        const int32_t l = intern(left), r = intern(right), result = intern(joined);
        if (l < 0 || r < 0 || result < 0)
            continue;
        m.pairs.insertIfAbsent(PairIndex::key(static_cast<uint32_t>(l), static_cast<uint32_t>(r)),
                               {static_cast<int32_t>(rank), result});
    }
    std::string encoded;
    for (int b = 0; b < 256; ++b) {
        encoded.clear();
        appendUtf8(encoded, byteToCodepoint(static_cast<uint8_t>(b)));
        const int32_t id = v.tokens.find(encoded);
        const int32_t extra = id >= 0 ? -1 : m.extra.find(encoded);
        m.byteSymbol[b] = id >= 0 ? id : (extra >= 0 ? nTokens + extra : -1);
    }
}

// For SPM word splitting: every character that precedes U+2581 inside a
// token (other than U+2581 itself).
void findSpmGlue(Vocab& v)
{
    static constexpr std::string_view kSpace = "\xE2\x96\x81";
    for (int32_t id = 0; id < v.size(); ++id) {
        const std::string_view text = v.text(id);
        std::string_view previous;
        for (size_t offset = 0; offset < text.size();) {
            const size_t n = std::min(utf8SequenceLength(static_cast<uint8_t>(text[offset])), text.size() - offset);
            const std::string_view symbol = text.substr(offset, n);
            if (symbol == kSpace && !previous.empty() && previous != kSpace)
                v.spmGlue.add(previous);
            previous = symbol;
            offset += n;
        }
    }
}

void readByteTokens(Vocab& v)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    for (int b = 0; b < 256; ++b) {
        const char name[6] = {'<', '0', 'x', kHex[b >> 4], kHex[b & 15], '>'};
        TokenId id = v.tokens.find(std::string_view(name, 6));
        if (id < 0 && (v.type == VocabType::Spm || v.type == VocabType::Ugm)) {
            const char raw = static_cast<char>(b);
            id = v.tokens.find(std::string_view(&raw, 1));
        }
        v.byteTokens[b] = id;
    }
}

void readPrecompiledCharsmap(const gguf::File& file, Vocab& v)
{
    constexpr std::string_view key = "tokenizer.ggml.precompiled_charsmap";
    const gguf::Value* map = file.findArray(key);
    if (!map)
        return;
    if (map->elementType() != gguf::ValueType::UInt8 && map->elementType() != gguf::ValueType::Int8)
        file.fail(key, "is an array of " + std::string(gguf::valueTypeName(map->elementType())) + " (expected bytes)");
    v.precompiledCharsmap.assign(reinterpret_cast<const char*>(map->rawData()), map->size());
    if (v.precompiledCharsmap.size() < 4)
        file.fail(key, "is too short for its header");
    uint32_t blobSize = 0;
    for (int i = 3; i >= 0; --i)
        blobSize = (blobSize << 8) | static_cast<uint8_t>(v.precompiledCharsmap[i]);
    if (uint64_t(blobSize) + 4 >= v.precompiledCharsmap.size())
        file.fail(key, "declares a trie of " + std::to_string(blobSize) + " bytes, past its end");
}

std::optional<bool> readBool(const gguf::File& file, std::string_view key)
{
    const gguf::Value* value = file.find(key);
    if (!value)
        return std::nullopt;
    const auto b = value->toBool();
    if (!b)
        file.fail(key, "has type " + std::string(gguf::valueTypeName(value->type())) + " (expected bool)");
    return b;
}

} // namespace

void loadVocab(const gguf::File& file, const LoadOptions& options, Vocab& v)
{
    readModel(file, options, v);
    if (const auto b = readBool(file, "tokenizer.ggml.add_space_prefix"))
        v.addSpacePrefix = *b;
    if (const auto b = readBool(file, "tokenizer.ggml.remove_extra_whitespaces"))
        v.removeExtraWhitespaces = *b;
    readTokens(file, v);
    if (v.type == VocabType::Bpe)
        readMerges(file, v);
    if (v.type == VocabType::Ugm)
        readPrecompiledCharsmap(file, v);
    readByteTokens(v);
    if (v.type == VocabType::Spm)
        findSpmGlue(v);
    finishSpecialTokens(file, v);
}

} // namespace hearth::tok
