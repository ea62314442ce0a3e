// Unicode facts the tokenizers need, with the exact conventions llama.cpp
// uses (so that token ids agree with it on every input, valid or not):
//
// - a lax UTF-8 decoder: a lead byte announces 1-4 bytes (overlong forms and
//   surrogates are accepted); a byte that starts no complete sequence decodes
//   to U+FFFD and consumes one byte;
// - one category per code point (letter, number, punctuation, symbol, mark,
//   control, separator, undefined) from utf8proc, with PCRE2 consulted for
//   code points utf8proc's older tables leave unassigned;
// - the White_Space set (not Python's isspace: U+001C..U+001F are not spaces);
// - simple lower-casing and "first code point of NFD" (how llama.cpp strips
//   accents for BERT);
// - GPT-2's byte-to-code-point map used by byte-level BPE.
//
// Everything here is a pure function; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace hearth::tok {

// Category flags of a code point (one category bit, plus Whitespace).
enum CpFlag : uint16_t {
    CpUndefined = 0x0001,
    CpNumber = 0x0002,      // \p{N}
    CpLetter = 0x0004,      // \p{L}
    CpSeparator = 0x0008,   // \p{Z}
    CpMark = 0x0010,        // \p{M}
    CpPunctuation = 0x0020, // \p{P}
    CpSymbol = 0x0040,      // \p{S}
    CpControl = 0x0080,     // \p{C} except unassigned
    CpCategoryMask = 0x00FF,
    CpWhitespace = 0x0100,
};

inline constexpr uint32_t kReplacementChar = 0xFFFD;

// Bytes announced by a UTF-8 lead byte, from its high nibble (1 for
// continuation bytes, as llama.cpp counts them).
inline size_t utf8SequenceLength(uint8_t lead)
{
    static constexpr uint8_t kLengths[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4};
    return kLengths[lead >> 4];
}

// Decodes the code point at `pos` and advances `pos` (lax rules above).
uint32_t decodeUtf8(std::string_view text, size_t& pos);

// Decodes a complete, well-formed (by the same lax rules) sequence at `pos`:
// its length, or 0 when the bytes there are not one.
size_t utf8ValidLength(std::string_view text, size_t pos);

// Appends the UTF-8 form of `cp`; values above U+10FFFF append U+FFFD.
void appendUtf8(std::string& out, uint32_t cp);

uint16_t codepointFlags(uint32_t cp);
bool isWhitespace(uint32_t cp);

uint32_t toLowerSimple(uint32_t cp);
// The first code point of the canonical decomposition (é -> e, 가 -> ᄀ).
uint32_t nfdFirst(uint32_t cp);

// GPT-2 byte-level BPE: each byte is shown as one printable code point.
uint32_t byteToCodepoint(uint8_t byte);
// The byte a code point stands for, or -1 when it stands for none.
int codepointToByte(uint32_t cp);

} // namespace hearth::tok
