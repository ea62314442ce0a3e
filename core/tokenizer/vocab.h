// The vocabulary of a model as the tokenizers use it, read from the GGUF
// metadata `tokenizer.ggml.*` exactly as llama.cpp reads it: token texts,
// scores and attributes, the special token ids with the defaults of each
// tokenizer type, the add-BOS/EOS flags, the end-of-generation set, the order
// in which special tokens are cut out of text, and (BPE) the merge table.
//
// Immutable after loadVocab(); any thread may read it.
#pragma once

#include "tokenizer/pretokenizer.h"
#include "tokenizer/string_index.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hearth::gguf {
class File;
}

namespace hearth::tok {

using TokenId = int32_t;
inline constexpr TokenId kNoToken = -1;

enum class VocabType {
    Spm,
    Bpe,
    Wpm,
    Ugm
};

// Attributes of a token, as llama.cpp derives them from
// `tokenizer.ggml.token_type` (1 normal, 2 unknown, 3 control, 4 user
// defined, 5 unused, 6 byte) and from a few model-specific rules.
enum TokenAttr : uint32_t {
    AttrUndefined = 0,
    AttrUnknown = 1u << 0,
    AttrUnused = 1u << 1,
    AttrNormal = 1u << 2,
    AttrControl = 1u << 3,
    AttrUserDefined = 1u << 4,
    AttrByte = 1u << 5,
    AttrNormalized = 1u << 6,
    AttrLstrip = 1u << 7, // eats the whitespace before it when cut out of text
    AttrRstrip = 1u << 8, // eats the whitespace after it
    AttrSingleWord = 1u << 9,
};

// Byte-level BPE merges over interned symbols. A symbol is a token id when
// its text is a token, else nTokens + an index into `extra` (texts that only
// occur inside merges).
struct BpeMerges {
    StringIndex extra;
    PairIndex pairs;                       // (left, right) -> (rank, merged symbol)
    std::array<int32_t, 256> byteSymbol{}; // symbol of each byte's GPT-2 character, or -1
};

struct SpecialIds {
    TokenId bos = kNoToken, eos = kNoToken, eot = kNoToken, eom = kNoToken;
    TokenId unk = kNoToken, sep = kNoToken, pad = kNoToken, mask = kNoToken;
    TokenId fimPre = kNoToken, fimSuf = kNoToken, fimMid = kNoToken;
    TokenId fimPad = kNoToken, fimRep = kNoToken, fimSep = kNoToken;
};

struct Vocab {
    VocabType type = VocabType::Spm;
    std::string model;                    // tokenizer.ggml.model
    std::string preName;                  // tokenizer.ggml.pre as used ("default" when absent)
    const PreTokenizerDef* pre = nullptr; // BPE only

    StringIndex tokens; // id <-> text
    std::vector<float> scores;
    std::vector<uint32_t> attrs;
    int maxTokenLength = 0; // bytes

    SpecialIds special;
    bool addBos = false, addEos = false, addSep = false;
    bool addSpacePrefix = false;
    bool ignoreMerges = false;
    bool cleanSpaces = false;
    bool removeExtraWhitespaces = false;
    bool escapeWhitespaces = true;
    bool treatWhitespaceAsSuffix = false;
    bool lowercase = true;    // WPM normalizer
    bool stripAccents = true; // WPM normalizer

    std::vector<TokenId> endOfGeneration; // sorted
    // Tokens cut out of text before tokenizing, in the order they are tried
    // (longest text first).
    std::vector<TokenId> specialOrder;
    // SPM/UGM byte fallback: the token of each byte ("<0xXX>"), or -1.
    std::array<TokenId, 256> byteTokens{};

    // SPM: characters that some token has right before a U+2581 (see spm.cpp).
    StringIndex spmGlue;
    BpeMerges merges;                  // BPE
    std::string precompiledCharsmap;   // UGM
    std::vector<std::string> warnings; // what a person should know (missing pre-tokenizer, ...)

    int32_t size() const { return tokens.size(); }
    bool valid(TokenId id) const { return id >= 0 && id < size(); }
    std::string_view text(TokenId id) const { return tokens.text(id); }
};

struct LoadOptions {
    std::string preTokenizer; // overrides tokenizer.ggml.pre when not empty
};

// Throws hearth::Error naming the key that is missing, of the wrong type,
// of the wrong length or out of range.
void loadVocab(const gguf::File& file, const LoadOptions& options, Vocab& vocab);

} // namespace hearth::tok
