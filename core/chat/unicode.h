// Unicode helpers with Python's str semantics for the template engine:
// strings are UTF-8 bytes outside and code points inside. Character classes
// (isspace, isprintable, isalpha, ...) follow Python's definitions, using
// utf8proc's Unicode tables.
//
// Invalid UTF-8 never fails: each bad byte decodes to U+DC80 + byte (Python's
// "surrogateescape") and encodes back to the same byte, so data round-trips.
#pragma once

#include <string>
#include <string_view>

namespace hearth::chat::unicode {

bool isAscii(std::string_view s);
// Number of code points.
size_t length(std::string_view s);
std::u32string decode(std::string_view s);
void append(std::string& out, char32_t cp);
std::string encode(std::u32string_view s);
// Decodes the code point at s[pos] and advances pos.
char32_t next(std::string_view s, size_t& pos);

bool isSpace(char32_t c);     // str.isspace
bool isPrintable(char32_t c); // str.isprintable
bool isAlpha(char32_t c);
bool isDecimal(char32_t c);
bool isDigit(char32_t c);
bool isNumeric(char32_t c);
bool isAlnum(char32_t c);
bool isUpper(char32_t c); // an uppercase or titlecase letter
bool isLower(char32_t c);
bool isCased(char32_t c);
bool isWord(char32_t c); // regex \w: alphanumeric or '_'

// Case mappings of whole strings (full mappings where Python uses them,
// e.g. "ß".upper() == "SS").
std::string upper(std::string_view s);
std::string lower(std::string_view s);
void appendUpper(std::u32string& out, char32_t c);
void appendLower(std::u32string& out, char32_t c);
void appendTitle(std::u32string& out, char32_t c);

} // namespace hearth::chat::unicode
