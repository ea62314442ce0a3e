#include "tokenizer/unicode.h"

#include <pcre2.h>
#include <utf8proc.h>

#include <array>
#include <memory>

namespace hearth::tok {

uint32_t decodeUtf8(std::string_view text, size_t& pos)
{
    const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(text[i])); };
    const auto cont = [&](size_t i) { return i < text.size() && (byte(i) & 0xC0) == 0x80; };
    const uint32_t b0 = byte(pos);
    if (b0 < 0x80) {
        pos += 1;
        return b0;
    }
    // Bytes after the lead, from the lead's high bits; 0 for a stray
    // continuation byte or a lead above 0xF7.
    const size_t extra = (b0 & 0x40) == 0 ? 0 : (b0 & 0x20) == 0 ? 1 : (b0 & 0x10) == 0 ? 2 : (b0 & 0x08) == 0 ? 3 : 0;
    bool complete = extra > 0;
    for (size_t i = 1; i <= extra && complete; ++i)
        complete = cont(pos + i);
    if (!complete) {
        pos += 1;
        return kReplacementChar;
    }
    uint32_t cp = b0 & (0x3Fu >> extra);
    for (size_t i = 1; i <= extra; ++i)
        cp = (cp << 6) | (byte(pos + i) & 0x3F);
    pos += extra + 1;
    return cp;
}

size_t utf8ValidLength(std::string_view text, size_t pos)
{
    const auto b0 = static_cast<uint8_t>(text[pos]);
    if (b0 < 0x80)
        return 1;
    const size_t length = (b0 & 0x40) == 0 ? 0 : (b0 & 0x20) == 0 ? 2 : (b0 & 0x10) == 0 ? 3 : (b0 & 0x08) == 0 ? 4 : 0;
    if (length == 0 || pos + length > text.size())
        return 0;
    for (size_t i = 1; i < length; ++i) {
        if ((static_cast<uint8_t>(text[pos + i]) & 0xC0) != 0x80)
            return 0;
    }
    return length;
}

void appendUtf8(std::string& out, uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp <= 0x10FFFF) {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        appendUtf8(out, kReplacementChar);
    }
}

bool isWhitespace(uint32_t cp)
{
    // The Unicode White_Space property (PropList.txt).
    if (cp <= 0x20)
        return cp == 0x20 || (cp >= 0x09 && cp <= 0x0D);
    if (cp < 0x85)
        return false;
    return cp == 0x85 || cp == 0xA0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
           cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

namespace {

uint16_t flagsOfCategory(utf8proc_category_t category)
{
    switch (category) {
    case UTF8PROC_CATEGORY_LU:
    case UTF8PROC_CATEGORY_LL:
    case UTF8PROC_CATEGORY_LT:
    case UTF8PROC_CATEGORY_LM:
    case UTF8PROC_CATEGORY_LO: return CpLetter;
    case UTF8PROC_CATEGORY_MN:
    case UTF8PROC_CATEGORY_MC:
    case UTF8PROC_CATEGORY_ME: return CpMark;
    case UTF8PROC_CATEGORY_ND:
    case UTF8PROC_CATEGORY_NL:
    case UTF8PROC_CATEGORY_NO: return CpNumber;
    case UTF8PROC_CATEGORY_PC:
    case UTF8PROC_CATEGORY_PD:
    case UTF8PROC_CATEGORY_PS:
    case UTF8PROC_CATEGORY_PE:
    case UTF8PROC_CATEGORY_PI:
    case UTF8PROC_CATEGORY_PF:
    case UTF8PROC_CATEGORY_PO: return CpPunctuation;
    case UTF8PROC_CATEGORY_SM:
    case UTF8PROC_CATEGORY_SC:
    case UTF8PROC_CATEGORY_SK:
    case UTF8PROC_CATEGORY_SO: return CpSymbol;
    case UTF8PROC_CATEGORY_ZS:
    case UTF8PROC_CATEGORY_ZL:
    case UTF8PROC_CATEGORY_ZP: return CpSeparator;
    case UTF8PROC_CATEGORY_CC:
    case UTF8PROC_CATEGORY_CF:
    case UTF8PROC_CATEGORY_CS:
    case UTF8PROC_CATEGORY_CO: return CpControl;
    case UTF8PROC_CATEGORY_CN: break;
    }
    return CpUndefined;
}

// utf8proc and PCRE2 each carry their own Unicode tables; a system may ship
// one newer than the other. For code points utf8proc calls unassigned, PCRE2
// is asked (one anchored match; rare in real text).
class Pcre2Categories {
public:
    Pcre2Categories()
    {
        static const char kPattern[] =
            "(\\p{L})|(\\p{N})|(\\p{P})|(\\p{S})|(\\p{M})|(\\p{Z})|([\\p{Cc}\\p{Cf}\\p{Co}])";
        int error = 0;
        PCRE2_SIZE offset = 0;
        m_code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(kPattern), PCRE2_ZERO_TERMINATED,
                               PCRE2_UTF | PCRE2_ANCHORED, &error, &offset, nullptr);
    }
    ~Pcre2Categories() { pcre2_code_free(m_code); }
    Pcre2Categories(const Pcre2Categories&) = delete;
    Pcre2Categories& operator=(const Pcre2Categories&) = delete;

    uint16_t flags(uint32_t cp) const
    {
        if (!m_code || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return CpUndefined;
        std::string utf8;
        appendUtf8(utf8, cp);
        std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> md(
            pcre2_match_data_create_from_pattern(m_code, nullptr), &pcre2_match_data_free);
        const int rc =
            pcre2_match(m_code, reinterpret_cast<PCRE2_SPTR>(utf8.data()), utf8.size(), 0, 0, md.get(), nullptr);
        static constexpr uint16_t kByGroup[] = {CpLetter, CpNumber,    CpPunctuation, CpSymbol,
                                                CpMark,   CpSeparator, CpControl};
        if (rc >= 2 && rc <= 8)
            return kByGroup[rc - 2];
        return CpUndefined;
    }

private:
    pcre2_code* m_code = nullptr;
};

} // namespace

uint16_t codepointFlags(uint32_t cp)
{
    static const std::array<uint16_t, 128> kAscii = [] {
        std::array<uint16_t, 128> table{};
        for (uint32_t c = 0; c < 128; ++c)
            table[c] = flagsOfCategory(utf8proc_category(static_cast<utf8proc_int32_t>(c))) |
                       (isWhitespace(c) ? CpWhitespace : 0);
        return table;
    }();
    if (cp < 128)
        return kAscii[cp];
    if (cp > 0x10FFFF)
        return CpUndefined;
    uint16_t flags = flagsOfCategory(utf8proc_category(static_cast<utf8proc_int32_t>(cp)));
    if (flags == CpUndefined) {
        static const Pcre2Categories fallback;
        flags = fallback.flags(cp);
    }
    if (isWhitespace(cp))
        flags |= CpWhitespace;
    return flags;
}

uint32_t toLowerSimple(uint32_t cp)
{
    if (cp < 128)
        return (cp >= 'A' && cp <= 'Z') ? cp + 32 : cp;
    if (cp > 0x10FFFF)
        return cp;
    return static_cast<uint32_t>(utf8proc_tolower(static_cast<utf8proc_int32_t>(cp)));
}

uint32_t nfdFirst(uint32_t cp)
{
    if (cp < 0xC0 || cp > 0x10FFFF)
        return cp;
    utf8proc_int32_t buffer[8];
    int lastBoundClass = 0;
    const utf8proc_ssize_t n =
        utf8proc_decompose_char(static_cast<utf8proc_int32_t>(cp), buffer, 8, UTF8PROC_DECOMPOSE, &lastBoundClass);
    return n >= 1 ? static_cast<uint32_t>(buffer[0]) : cp;
}

namespace {

// GPT-2 shows the printable Latin-1 bytes as themselves and maps the other
// 68 bytes, in order, to U+0100 onwards.
struct ByteMap {
    std::array<uint32_t, 256> toCp{};
    std::array<int16_t, 324> toByte{};
    ByteMap()
    {
        toByte.fill(-1);
        uint32_t next = 256;
        for (uint32_t b = 0; b < 256; ++b) {
            const bool printable = (b >= 0x21 && b <= 0x7E) || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
            toCp[b] = printable ? b : next++;
            toByte[toCp[b]] = static_cast<int16_t>(b);
        }
    }
};

const ByteMap& byteMap()
{
    static const ByteMap map;
    return map;
}

} // namespace

uint32_t byteToCodepoint(uint8_t byte)
{
    return byteMap().toCp[byte];
}

int codepointToByte(uint32_t cp)
{
    return cp < byteMap().toByte.size() ? byteMap().toByte[cp] : -1;
}

} // namespace hearth::tok
