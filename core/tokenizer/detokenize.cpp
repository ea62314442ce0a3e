#include "tokenizer/detokenize.h"

#include "tokenizer/tokenizer.h"
#include "tokenizer/unicode.h"
#include "util/error.h"

namespace hearth::tok {

namespace {

// The byte of a <0xXX> token, read as llama.cpp reads it (hex digits at 3-4).
uint8_t byteOfToken(std::string_view text)
{
    unsigned value = 0;
    for (size_t i = 3; i < 5 && i < text.size(); ++i) {
        const char c = text[i];
        const int digit = (c >= '0' && c <= '9')   ? c - '0'
                          : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                          : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                                   : -1;
        if (digit < 0)
            break;
        value = value * 16 + static_cast<unsigned>(digit);
    }
    return static_cast<uint8_t>(value);
}

void appendUnescaped(std::string_view text, std::string& out)
{
    for (size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 3, "\xE2\x96\x81") == 0) {
            out += ' ';
            i += 2;
        } else {
            out += text[i];
        }
    }
}

// GPT-2 characters back to bytes; a character that stands for no byte is
// written as llama.cpp writes it: [UNK_BYTE_0x<its hex><the token text>].
void appendByteDecoded(std::string_view text, std::string& out)
{
    static constexpr char kHex[] = "0123456789abcdef";
    for (size_t pos = 0; pos < text.size();) {
        const uint32_t cp = decodeUtf8(text, pos);
        const int byte = codepointToByte(cp);
        if (byte >= 0) {
            out += static_cast<char>(byte);
            continue;
        }
        std::string utf8;
        appendUtf8(utf8, cp);
        out += "[UNK_BYTE_0x";
        for (const char c : utf8) {
            out += kHex[static_cast<uint8_t>(c) >> 4];
            out += kHex[static_cast<uint8_t>(c) & 15];
        }
        out.append(text);
        out += ']';
    }
}

// llama.cpp's clean_up_tokenization_spaces, three passes in place.
void cleanSpaces(std::string& t)
{
    size_t total = t.empty() ? 0 : 1;
    const size_t n1 = t.size();
    for (size_t i = 1; i < n1; ++i) { // " ?", " !", " .", " ,"
        const char x = t[i];
        if (t[i - 1] == ' ' && (x == '?' || x == '!' || x == '.' || x == ','))
            --total;
        t[total++] = x;
    }
    t.resize(total);
    const size_t n2 = t.size();
    total = n2 ? 1 : 0;
    for (size_t i = 1; i < n2; ++i) { // " ' " -> "'"
        const char x = t[i];
        if (x == '\'' && i + 1 < n2 && t[i - 1] == ' ' && t[i + 1] == ' ') {
            --total;
            t[++i] = '\0';
        }
        t[total++] = x;
    }
    t.resize(total);
    const size_t n3 = t.size();
    total = n3 ? 1 : 0;
    for (size_t i = 1; i < n3; ++i) { // " 's", " 'm", " 're", " 've"
        const char x = t[i];
        if (t[i - 1] == ' ' && x == '\'' && i + 1 < n3) {
            const char x1 = t[i + 1];
            if (x1 == 's' || x1 == 'm')
                --total;
            else if (x1 != 't' && x1 != 'd' && i + 2 < n3 &&
                     ((x1 == 'r' && t[i + 2] == 'e') || (x1 == 'v' && t[i + 2] == 'e')))
                --total;
        }
        t[total++] = x;
    }
    t.resize(total);
}

} // namespace

void appendPiece(const Vocab& vocab, TokenId id, bool renderSpecial, std::string& out)
{
    const uint32_t attr = vocab.attrs[static_cast<size_t>(id)];
    if (!renderSpecial && (attr & (AttrUnknown | AttrControl)))
        return;
    const std::string_view text = vocab.text(id);
    if (attr & (AttrUnknown | AttrControl | AttrUserDefined)) {
        out.append(text);
    } else if (attr & AttrNormal) {
        if (vocab.type == VocabType::Bpe && !vocab.escapeWhitespaces)
            appendByteDecoded(text, out);
        else
            appendUnescaped(text, out);
    } else if (attr & AttrByte) {
        out += static_cast<char>(byteOfToken(text));
    }
}

std::string detokenize(const Vocab& vocab, std::span<const TokenId> ids, bool renderSpecial)
{
    std::string text;
    bool removeSpace = vocab.addSpacePrefix;
    for (const TokenId id : ids) {
        const size_t start = text.size();
        appendPiece(vocab, id, renderSpecial, text);
        if (removeSpace && text.size() > start && text[start] == ' ')
            text.erase(start, 1);
        removeSpace = false;
    }
    if (vocab.cleanSpaces)
        cleanSpaces(text);
    return text;
}

} // namespace hearth::tok

namespace hearth {

namespace {

// Length of the complete, valid UTF-8 character at `pos`; 0 when the bytes
// there could still become one (more are needed); -1 when they never can.
int characterLength(std::string_view s, size_t pos)
{
    const auto b = static_cast<uint8_t>(s[pos]);
    if (b < 0x80)
        return 1;
    int length = 0;
    uint8_t lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
        length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
        length = 3;
        lo = b == 0xE0 ? 0xA0 : 0x80;
        hi = b == 0xED ? 0x9F : 0xBF;
    } else if (b >= 0xF0 && b <= 0xF4) {
        length = 4;
        lo = b == 0xF0 ? 0x90 : 0x80;
        hi = b == 0xF4 ? 0x8F : 0xBF;
    } else {
        return -1;
    }
    for (int i = 1; i < length; ++i) {
        if (pos + static_cast<size_t>(i) >= s.size())
            return 0;
        const auto c = static_cast<uint8_t>(s[pos + static_cast<size_t>(i)]);
        if (c < (i == 1 ? lo : 0x80) || c > (i == 1 ? hi : 0xBF))
            return -1;
    }
    return length;
}

} // namespace

StreamingDecoder::StreamingDecoder(const Tokenizer& tok, bool renderSpecial)
    : m_tok(tok), m_renderSpecial(renderSpecial)
{
}

std::string StreamingDecoder::push(TokenId id)
{
    m_pending += m_tok.tokenToPiece(id, m_renderSpecial);
    std::string out;
    size_t pos = 0;
    while (pos < m_pending.size()) {
        const int length = characterLength(m_pending, pos);
        if (length == 0)
            break; // wait for the rest of this character
        if (length < 0) {
            out += "\xEF\xBF\xBD";
            pos += 1;
            continue;
        }
        out.append(m_pending, pos, static_cast<size_t>(length));
        pos += static_cast<size_t>(length);
    }
    m_pending.erase(0, pos);
    return out;
}

std::string StreamingDecoder::flush()
{
    std::string out = m_pending.empty() ? std::string() : std::string("\xEF\xBF\xBD");
    m_pending.clear();
    return out;
}

} // namespace hearth
