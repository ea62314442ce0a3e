#include "chat/unicode.h"

#include <utf8proc.h>

namespace hearth::chat::unicode {

namespace {

utf8proc_category_t category(char32_t c)
{
    if (c > 0x10FFFF)
        return UTF8PROC_CATEGORY_CN;
    return utf8proc_category(static_cast<utf8proc_int32_t>(c));
}

} // namespace

bool isAscii(std::string_view s)
{
    for (const char ch : s)
        if (static_cast<unsigned char>(ch) >= 0x80)
            return false;
    return true;
}

size_t length(std::string_view s)
{
    if (isAscii(s))
        return s.size();
    size_t n = 0;
    for (size_t pos = 0; pos < s.size();) {
        next(s, pos);
        ++n;
    }
    return n;
}

char32_t next(std::string_view s, size_t& pos)
{
    const auto b0 = static_cast<unsigned char>(s[pos]);
    if (b0 < 0x80) {
        ++pos;
        return b0;
    }
    int len = 0;
    char32_t cp = 0;
    if ((b0 & 0xE0) == 0xC0) {
        len = 2;
        cp = b0 & 0x1F;
    } else if ((b0 & 0xF0) == 0xE0) {
        len = 3;
        cp = b0 & 0x0F;
    } else if ((b0 & 0xF8) == 0xF0) {
        len = 4;
        cp = b0 & 0x07;
    }
    bool ok = len > 0 && pos + static_cast<size_t>(len) <= s.size();
    for (int i = 1; ok && i < len; ++i) {
        const auto b = static_cast<unsigned char>(s[pos + static_cast<size_t>(i)]);
        ok = (b & 0xC0) == 0x80;
        cp = (cp << 6) | (b & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are invalid.
    static constexpr char32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (ok && (cp < kMin[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)))
        ok = false;
    if (!ok) {
        ++pos;
        return 0xDC00 + b0; // surrogateescape
    }
    pos += static_cast<size_t>(len);
    return cp;
}

std::u32string decode(std::string_view s)
{
    std::u32string out;
    out.reserve(s.size());
    for (size_t pos = 0; pos < s.size();)
        out.push_back(next(s, pos));
    return out;
}

void append(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp >= 0xDC80 && cp <= 0xDCFF) {
        out.push_back(static_cast<char>(cp - 0xDC00)); // an escaped invalid byte
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::string encode(std::u32string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (const char32_t c : s)
        append(out, c);
    return out;
}

bool isSpace(char32_t c)
{
    if (c < 0x80)
        return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
    return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 ||
           c == 0x202F || c == 0x205F || c == 0x3000;
}

bool isPrintable(char32_t c)
{
    if (c < 0x80)
        return c >= 0x20 && c < 0x7F;
    if (c >= 0xDC80 && c <= 0xDCFF)
        return false;
    switch (category(c)) {
    case UTF8PROC_CATEGORY_CN:
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO:
    case UTF8PROC_CATEGORY_ZS:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP: return false;
    default: return true;
    }
}

bool isAlpha(char32_t c)
{
    if (c < 0x80)
        return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    const auto cat = category(c);
    return cat >= UTF8PROC_CATEGORY_LU && cat <= UTF8PROC_CATEGORY_LO;
}

bool isDecimal(char32_t c)
{
    if (c < 0x80)
        return c >= '0' && c <= '9';
    return category(c) == UTF8PROC_CATEGORY_ND;
}

bool isDigit(char32_t c)
{
    if (isDecimal(c))
        return true;
    // Digits that are not decimal: superscripts, subscripts, circled digits.
    return c == 0xB2 || c == 0xB3 || c == 0xB9 ||
           (c >= 0x2070 && c <= 0x2079 && c != 0x2071 && c != 0x2072 && c != 0x2073) || (c >= 0x2080 && c <= 0x2089) ||
           (c >= 0x2460 && c <= 0x2468) || (c >= 0x2474 && c <= 0x247C) || (c >= 0x2488 && c <= 0x2490) ||
           c == 0x24EA || (c >= 0x24F5 && c <= 0x24FD) || c == 0x24FF || (c >= 0x2776 && c <= 0x277E) ||
           (c >= 0x2780 && c <= 0x2788) || (c >= 0x278A && c <= 0x2792);
}

bool isNumeric(char32_t c)
{
    if (c < 0x80)
        return c >= '0' && c <= '9';
    const auto cat = category(c);
    return cat == UTF8PROC_CATEGORY_ND || cat == UTF8PROC_CATEGORY_NL || cat == UTF8PROC_CATEGORY_NO;
}

bool isAlnum(char32_t c)
{
    return isAlpha(c) || isNumeric(c);
}

bool isUpper(char32_t c)
{
    if (c < 0x80)
        return c >= 'A' && c <= 'Z';
    const auto cat = category(c);
    return cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LT;
}

bool isLower(char32_t c)
{
    if (c < 0x80)
        return c >= 'a' && c <= 'z';
    return category(c) == UTF8PROC_CATEGORY_LL;
}

bool isCased(char32_t c)
{
    if (c < 0x80)
        return isAlpha(c);
    const auto cat = category(c);
    return cat == UTF8PROC_CATEGORY_LU || cat == UTF8PROC_CATEGORY_LL || cat == UTF8PROC_CATEGORY_LT;
}

bool isWord(char32_t c)
{
    return c == '_' || isAlnum(c);
}

void appendUpper(std::u32string& out, char32_t c)
{
    if (c < 0x80) {
        out.push_back(c >= 'a' && c <= 'z' ? c - 32 : c);
    } else if (c == 0xDF) { // ß has no single-character uppercase
        out += U"SS";
    } else if (c >= 0xFB00 && c <= 0xFB06) { // Latin ligatures
        static constexpr const char32_t* kLig[] = {U"FF", U"FI", U"FL", U"FFI", U"FFL", U"ST", U"ST"};
        out += kLig[c - 0xFB00];
    } else {
        out.push_back(static_cast<char32_t>(utf8proc_toupper(static_cast<utf8proc_int32_t>(c))));
    }
}

void appendLower(std::u32string& out, char32_t c)
{
    if (c < 0x80) {
        out.push_back(c >= 'A' && c <= 'Z' ? c + 32 : c);
    } else if (c == 0x130) { // İ lowercases to i + combining dot above
        out += U"i\u0307";
    } else {
        out.push_back(static_cast<char32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(c))));
    }
}

void appendTitle(std::u32string& out, char32_t c)
{
    if (c < 0x80) {
        out.push_back(c >= 'a' && c <= 'z' ? c - 32 : c);
    } else if (c == 0xDF) {
        out += U"Ss";
    } else {
        out.push_back(static_cast<char32_t>(utf8proc_totitle(static_cast<utf8proc_int32_t>(c))));
    }
}

std::string upper(std::string_view s)
{
    if (isAscii(s)) {
        std::string out(s);
        for (char& ch : out)
            if (ch >= 'a' && ch <= 'z')
                ch = static_cast<char>(ch - 32);
        return out;
    }
    std::u32string out;
    for (const char32_t c : decode(s))
        appendUpper(out, c);
    return encode(out);
}

std::string lower(std::string_view s)
{
    if (isAscii(s)) {
        std::string out(s);
        for (char& ch : out)
            if (ch >= 'A' && ch <= 'Z')
                ch = static_cast<char>(ch + 32);
        return out;
    }
    const std::u32string in = decode(s);
    std::u32string out;
    for (size_t i = 0; i < in.size(); ++i) {
        // Σ ends a word as ς: after a cased letter and not before one.
        if (in[i] == 0x3A3 && i > 0 && isCased(in[i - 1]) && !(i + 1 < in.size() && isCased(in[i + 1])))
            out.push_back(0x3C2);
        else
            appendLower(out, in[i]);
    }
    return encode(out);
}

} // namespace hearth::chat::unicode
