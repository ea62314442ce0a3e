// BPE pre-tokenizers: the regular expressions that cut text into words before
// merging, chosen by `tokenizer.ggml.pre`, with the same per-name options and
// the same matching rules as llama.cpp (so ids agree with it):
//
// - A pre-tokenizer is a list of regexes applied in turn; each one splits
//   every piece left by the previous one into its matches and the text
//   between matches.
// - A regex that uses Unicode categories (\p{L}, \p{N}, \p{P}, \p{S}, \p{M})
//   runs on a "collapsed" copy of the text with one byte per code point:
//   ASCII stays itself, other white space becomes \v, every other code point
//   becomes a byte standing for its category. Each \p{X} becomes a class of
//   that byte plus the ASCII members of the category (\p{Lu}, \p{Ll}... all
//   mean any letter outside ASCII, as in llama.cpp). White space is ASCII \s
//   plus that \v.
// - A regex without categories runs on the code points themselves, with
//   non-ASCII white space turned into \v (ASCII-only \s, \d, \w).
// - `$` matches only at the end of a piece; an empty match only marks a cut.
//
// Matching uses PCRE2 with its JIT compiler. A PreTokenizer is immutable
// after construction; split() may run on any number of threads at once.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::tok {

// Options that come with a pre-tokenizer name (see docs/tokenizers.md).
enum PreFlag : uint32_t {
    PreKeepSpaces = 1u << 0,   // detokenizing does not clean " ," " ." ...
    PreIgnoreMerges = 1u << 1, // a word that is a token is taken whole
    PreAddBos = 1u << 2,       // add_bos defaults to true
    PreEscapeSpaces = 1u << 3, // ' ' -> U+2581 before splitting (SPM-style BPE)
    PreRawBytes = 1u << 4,     // symbols are UTF-8 characters, byte tokens <0xXX>
    PreNoBos = 1u << 5,        // no default BOS token
    PreAddSep = 1u << 6,       // add_sep defaults to true
    PreNewlineWords = 1u << 7, // a word of newlines that is a token is taken whole
};

struct PreTokenizerDef {
    std::string_view name;                 // canonical name
    std::vector<std::string_view> aliases; // names in tokenizer.ggml.pre
    std::vector<std::string_view> regexes;
    uint32_t flags = 0;
};

// The definition for a `tokenizer.ggml.pre` value, or nullptr when unknown.
const PreTokenizerDef* findPreTokenizer(std::string_view name);
// Every known `tokenizer.ggml.pre` value (for docs and tests).
std::vector<std::string_view> knownPreTokenizerNames();

class PreTokenizer {
public:
    // Compiles the regexes; throws hearth::Error when one does not compile.
    explicit PreTokenizer(const PreTokenizerDef& def);
    ~PreTokenizer();
    PreTokenizer(const PreTokenizer&) = delete;
    PreTokenizer& operator=(const PreTokenizer&) = delete;

    // Cuts `cps` (code points) into words: `ends` receives the end index of
    // each non-empty word, in order; the last is cps.size().
    void split(std::span<const uint32_t> cps, std::vector<uint32_t>& ends) const;

    struct Regex;

private:
    std::vector<std::unique_ptr<Regex>> m_regexes;
    bool m_needCollapsed = false;
    bool m_needUtf = false;
};

} // namespace hearth::tok
