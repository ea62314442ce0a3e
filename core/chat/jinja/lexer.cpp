#include "chat/jinja/lexer.h"

#include "chat/numbers.h"
#include "chat/template_error.h"
#include "chat/unicode.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace hearth::chat::jinja {

namespace {

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' ||
           static_cast<unsigned char>(c) >= 0x80;
}

// "\r\n" and "\r" → "\n"; the final newline, if any, is dropped.
std::string normalizeNewlines(std::string_view src)
{
    std::string out;
    out.reserve(src.size());
    for (size_t i = 0; i < src.size(); ++i) {
        if (src[i] == '\r') {
            out += '\n';
            if (i + 1 < src.size() && src[i + 1] == '\n')
                ++i;
        } else {
            out += src[i];
        }
    }
    if (!out.empty() && out.back() == '\n')
        out.pop_back();
    return out;
}

class Lexer {
public:
    explicit Lexer(std::string_view source) : m_s(normalizeNewlines(source)) {}

    std::vector<Token> run()
    {
        while (m_pos < m_s.size())
            lexRoot();
        push(Tok::Eof, m_s.size());
        return std::move(m_out);
    }

private:
    enum class TagKind {
        Block,
        Variable,
        Comment,
        Raw
    };

    [[noreturn]] void fail(size_t at, const std::string& what)
    {
        int line = 0;
        int col = 0;
        locate(at, line, col);
        throw TemplateError(TemplateError::Kind::Syntax, what, line, col);
    }

    // Line and column of byte `at`; positions only move forward.
    void locate(size_t at, int& line, int& col)
    {
        for (; m_curPos < at && m_curPos < m_s.size(); ++m_curPos) {
            const auto c = static_cast<unsigned char>(m_s[m_curPos]);
            if (c == '\n') {
                ++m_line;
                m_col = 1;
            } else if ((c & 0xC0) != 0x80) {
                ++m_col;
            }
        }
        line = m_line;
        col = m_col;
    }

    Token& push(Tok type, size_t at)
    {
        Token t;
        t.type = type;
        locate(at, t.line, t.column);
        m_out.push_back(std::move(t));
        return m_out.back();
    }

    size_t skipSpace(size_t p) const
    {
        while (p < m_s.size()) {
            size_t q = p;
            if (!unicode::isSpace(unicode::next(m_s, q)))
                break;
            p = q;
        }
        return p;
    }

    // Text before a tag, after `{%-` (strip everything) or lstrip_blocks.
    std::string_view stripBefore(std::string_view text, char sign, bool lstrip) const
    {
        if (sign == '-') {
            size_t end = text.size();
            while (end > 0) {
                size_t start = end - 1;
                while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80)
                    --start;
                size_t q = start;
                if (!unicode::isSpace(unicode::next(text, q)))
                    break;
                end = start;
            }
            return text.substr(0, end);
        }
        if (sign == '+' || !lstrip)
            return text;
        const size_t nl = text.rfind('\n');
        const size_t lineStart = nl == std::string_view::npos ? 0 : nl + 1;
        if (lineStart == 0 && !m_lineStarting)
            return text;
        if (lineStart == text.size())
            return text;
        for (size_t p = lineStart; p < text.size();) {
            if (!unicode::isSpace(unicode::next(text, p)))
                return text;
        }
        return text.substr(0, lineStart);
    }

    void emitData(std::string_view text, size_t at)
    {
        if (!text.empty())
            push(Tok::Data, at).text = std::string(text);
    }

    // `{% raw %}` / `{%- raw -%}` at p (no trim_blocks on it): returns the
    // end of the tag, or npos. With `end`, matches `{% endraw %}` instead,
    // whose end is `+%}`, `-%}` + whitespace or `%}` + one newline.
    size_t matchRawTag(size_t p, bool end) const
    {
        const std::string_view word = end ? "endraw" : "raw";
        size_t q = p + 2;
        if (q < m_s.size() && (m_s[q] == '-' || m_s[q] == '+'))
            ++q;
        q = skipSpace(q);
        if (m_s.compare(q, word.size(), word) != 0)
            return std::string_view::npos;
        q = skipSpace(q + word.size());
        if (m_s.compare(q, 3, "-%}") == 0)
            return skipSpace(q + 3);
        if (end && m_s.compare(q, 3, "+%}") == 0)
            return q + 3;
        if (m_s.compare(q, 2, "%}") == 0)
            return end && q + 2 < m_s.size() && m_s[q + 2] == '\n' ? q + 3 : q + 2;
        return std::string_view::npos;
    }

    void lexRoot()
    {
        size_t p = m_pos;
        TagKind kind = TagKind::Block;
        size_t rawEnd = std::string_view::npos;
        for (;; ++p) {
            p = m_s.find('{', p);
            if (p == std::string::npos || p + 1 >= m_s.size()) {
                emitData(std::string_view(m_s).substr(m_pos), m_pos);
                m_pos = m_s.size();
                return;
            }
            const char c = m_s[p + 1];
            if (c == '%') {
                rawEnd = matchRawTag(p, /*end=*/false);
                kind = rawEnd != std::string_view::npos ? TagKind::Raw : TagKind::Block;
                break;
            }
            if (c == '{' || c == '#') {
                kind = c == '{' ? TagKind::Variable : TagKind::Comment;
                break;
            }
        }
        const char sign = p + 2 < m_s.size() && (m_s[p + 2] == '-' || m_s[p + 2] == '+') ? m_s[p + 2] : 0;
        const std::string_view text = std::string_view(m_s).substr(m_pos, p - m_pos);
        emitData(stripBefore(text, sign, kind != TagKind::Variable), m_pos);
        m_lineStarting = false;
        const size_t body = p + 2 + (sign ? 1 : 0);
        switch (kind) {
        case TagKind::Comment: lexComment(body); break;
        case TagKind::Raw:
            m_lineStarting = rawEnd > 0 && m_s[rawEnd - 1] == '\n';
            lexRaw(rawEnd);
            break;
        case TagKind::Block:
            push(Tok::BlockBegin, p);
            lexTag(body, true);
            break;
        case TagKind::Variable:
            push(Tok::VariableBegin, p);
            lexTag(body, false);
            break;
        }
    }

    void lexComment(size_t start)
    {
        for (size_t q = m_s.find("#}", start); q != std::string::npos; q = m_s.find("#}", q + 1)) {
            size_t end = q + 2;
            if (q > start && m_s[q - 1] == '-') {
                end = skipSpace(end);
            } else if (!(q > start && m_s[q - 1] == '+') && end < m_s.size() && m_s[end] == '\n') {
                ++end;
            }
            m_lineStarting = m_s[end - 1] == '\n';
            m_pos = end;
            return;
        }
        fail(start, "Missing end of comment tag");
    }

    void lexRaw(size_t start)
    {
        for (size_t q = m_s.find("{%", start); q != std::string::npos; q = m_s.find("{%", q + 1)) {
            const size_t end = matchRawTag(q, /*end=*/true);
            if (end == std::string_view::npos)
                continue;
            const char sign = m_s[q + 2] == '-' || m_s[q + 2] == '+' ? m_s[q + 2] : 0;
            emitData(stripBefore(std::string_view(m_s).substr(start, q - start), sign, true), start);
            m_lineStarting = m_s[end - 1] == '\n';
            m_pos = end;
            return;
        }
        fail(start, "Missing end of raw directive");
    }

    // The end of the tag at p, or npos.
    size_t matchTagEnd(size_t p, bool block)
    {
        if (block) {
            if (m_s.compare(p, 3, "+%}") == 0)
                return p + 3;
            if (m_s.compare(p, 3, "-%}") == 0)
                return skipSpace(p + 3);
            if (m_s.compare(p, 2, "%}") == 0)
                return p + 2 < m_s.size() && m_s[p + 2] == '\n' ? p + 3 : p + 2;
            return std::string_view::npos;
        }
        if (m_s.compare(p, 3, "-}}") == 0)
            return skipSpace(p + 3);
        if (m_s.compare(p, 2, "}}") == 0)
            return p + 2;
        return std::string_view::npos;
    }

    void lexTag(size_t p, bool block)
    {
        std::vector<char> balance;
        for (;;) {
            if (p >= m_s.size()) {
                m_pos = p;
                return; // the parser reports the unexpected end
            }
            if (balance.empty()) {
                const size_t end = matchTagEnd(p, block);
                if (end != std::string_view::npos) {
                    push(block ? Tok::BlockEnd : Tok::VariableEnd, p);
                    m_lineStarting = m_s[end - 1] == '\n';
                    m_pos = end;
                    return;
                }
            }
            const size_t q = skipSpace(p);
            if (q != p) {
                p = q;
                continue;
            }
            p = lexOne(p, balance);
        }
    }

    // Digits with single underscores between them; npos when none.
    size_t matchDigits(size_t p) const
    {
        if (p >= m_s.size() || !isDigit(m_s[p]))
            return std::string_view::npos;
        while (p < m_s.size() && isDigit(m_s[p]))
            ++p;
        while (p + 1 < m_s.size() && m_s[p] == '_' && isDigit(m_s[p + 1])) {
            ++p;
            while (p < m_s.size() && isDigit(m_s[p]))
                ++p;
        }
        return p;
    }

    size_t matchExponent(size_t p) const
    {
        if (p >= m_s.size() || (m_s[p] | 0x20) != 'e')
            return std::string_view::npos;
        ++p;
        if (p < m_s.size() && (m_s[p] == '+' || m_s[p] == '-'))
            ++p;
        return matchDigits(p);
    }

    size_t matchFloat(size_t p) const
    {
        if (p > 0 && m_s[p - 1] == '.')
            return std::string_view::npos;
        const size_t a = matchDigits(p);
        if (a == std::string_view::npos)
            return a;
        if (a < m_s.size() && m_s[a] == '.') {
            const size_t b = matchDigits(a + 1);
            if (b != std::string_view::npos) {
                const size_t c = matchExponent(b);
                return c != std::string_view::npos ? c : b;
            }
        }
        return matchExponent(a);
    }

    size_t matchInteger(size_t p, int& base) const
    {
        base = 10;
        if (m_s[p] == '0' && p + 1 < m_s.size()) {
            const char k = static_cast<char>(m_s[p + 1] | 0x20);
            base = k == 'b' ? 2 : k == 'o' ? 8 : k == 'x' ? 16 : 10;
            if (base != 10) {
                size_t q = p + 2;
                const auto ok = [&](char c) {
                    const int d = isDigit(c)                                 ? c - '0'
                                  : ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') ? (c | 0x20) - 'a' + 10
                                                                             : 99;
                    return d < base;
                };
                while (q < m_s.size() && (ok(m_s[q]) || (m_s[q] == '_' && q + 1 < m_s.size() && ok(m_s[q + 1]))))
                    ++q;
                if (q > p + 2)
                    return q;
                base = 10;
            }
            size_t q = p + 1; // "0", "00", "0_0"
            while (q < m_s.size() && (m_s[q] == '0' || (m_s[q] == '_' && q + 1 < m_s.size() && m_s[q + 1] == '0')))
                ++q;
            return q;
        }
        return matchDigits(p);
    }

    size_t lexNumber(size_t p)
    {
        size_t end = matchFloat(p);
        if (end != std::string_view::npos) {
            std::string text;
            for (size_t i = p; i < end; ++i)
                if (m_s[i] != '_')
                    text += m_s[i];
            push(Tok::Float, p).floatValue = parseDouble(text).value_or(0.0);
            return end;
        }
        int base = 10;
        end = matchInteger(p, base);
        std::string digits;
        for (size_t i = p + (base == 10 ? 0 : 2); i < end; ++i)
            if (m_s[i] != '_')
                digits += m_s[i];
        int64_t v = 0;
        if (std::from_chars(digits.data(), digits.data() + digits.size(), v, base).ec != std::errc())
            fail(p, "integer literal too large");
        push(Tok::Integer, p).intValue = v;
        return end;
    }

    size_t lexString(size_t p)
    {
        const char quote = m_s[p];
        size_t q = p + 1;
        while (q < m_s.size() && m_s[q] != quote)
            q += m_s[q] == '\\' ? 2 : 1;
        if (q >= m_s.size())
            fail(p, std::string("unexpected char '") + quote + "'");
        Token& t = push(Tok::String, p);
        t.text = unescape(std::string_view(m_s).substr(p + 1, q - p - 1), p);
        return q + 1;
    }

    // Python's "unicode-escape" decoding of a string literal.
    std::string unescape(std::string_view s, size_t at)
    {
        if (s.find('\\') == std::string_view::npos)
            return std::string(s);
        std::string out;
        for (size_t i = 0; i < s.size();) {
            if (s[i] != '\\' || i + 1 >= s.size()) {
                out += s[i++];
                continue;
            }
            const char e = s[i + 1];
            i += 2;
            static constexpr std::string_view kSimple = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
            bool handled = false;
            for (size_t k = 0; k < kSimple.size(); k += 2) {
                if (kSimple[k] == e) {
                    out += kSimple[k + 1];
                    handled = true;
                }
            }
            if (handled)
                continue;
            if (e == '\n')
                continue; // line continuation
            if (e >= '0' && e <= '7') {
                unsigned v = static_cast<unsigned>(e - '0');
                for (int n = 1; n < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++n)
                    v = v * 8 + static_cast<unsigned>(s[i++] - '0');
                unicode::append(out, v);
            } else if (e == 'x' || e == 'u' || e == 'U') {
                const size_t n = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                unsigned v = 0;
                if (i + n > s.size() ||
                    std::from_chars(s.data() + i, s.data() + i + n, v, 16).ptr != s.data() + i + n || v > 0x10FFFF)
                    fail(at, std::string("malformed \\") + e + " escape in string literal");
                i += n;
                unicode::append(out, v >= 0xD800 && v <= 0xDFFF ? 0xFFFD : v);
            } else if (static_cast<unsigned char>(e) >= 0x80) {
                // Python sees the non-ASCII character as its backslashreplace
                // form, so "\é" reads as "\xe9".
                size_t pos = i - 1;
                const char32_t c = unicode::next(s, pos);
                char buf[16];
                std::snprintf(buf, sizeof buf,
                              c <= 0xFF     ? "\\x%02x"
                              : c <= 0xFFFF ? "\\u%04x"
                                            : "\\U%08x",
                              static_cast<unsigned>(c));
                out += buf;
                i = pos;
            } else if (e == 'N') {
                fail(at, "\\N{...} escapes are not supported");
            } else {
                out += '\\';
                out += e;
            }
        }
        return out;
    }

    size_t lexOperator(size_t p, std::vector<char>& balance)
    {
        struct Op {
            std::string_view text;
            Tok tok;
        };
        static constexpr Op kOps[] = {
            {"//", Tok::FloorDiv}, {"**", Tok::Pow},   {"==", Tok::Eq},      {"!=", Tok::Ne},      {">=", Tok::GtEq},
            {"<=", Tok::LtEq},     {"+", Tok::Add},    {"-", Tok::Sub},      {"/", Tok::Div},      {"*", Tok::Mul},
            {"%", Tok::Mod},       {"~", Tok::Tilde},  {"[", Tok::LBracket}, {"]", Tok::RBracket}, {"(", Tok::LParen},
            {")", Tok::RParen},    {"{", Tok::LBrace}, {"}", Tok::RBrace},   {">", Tok::Gt},       {"<", Tok::Lt},
            {"=", Tok::Assign},    {".", Tok::Dot},    {":", Tok::Colon},    {"|", Tok::Pipe},     {",", Tok::Comma},
            {";", Tok::Semicolon},
        };
        for (const Op& op : kOps) {
            if (m_s.compare(p, op.text.size(), op.text) != 0)
                continue;
            const char c = op.text[0];
            if (op.text.size() == 1 && (c == '(' || c == '[' || c == '{')) {
                balance.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
            } else if (op.text.size() == 1 && (c == ')' || c == ']' || c == '}')) {
                if (balance.empty())
                    fail(p, std::string("unexpected '") + c + "'");
                if (balance.back() != c)
                    fail(p, std::string("unexpected '") + c + "', expected '" + balance.back() + "'");
                balance.pop_back();
            }
            push(op.tok, p);
            return p + op.text.size();
        }
        size_t q = p;
        std::string ch;
        unicode::append(ch, unicode::next(m_s, q));
        fail(p, "unexpected char '" + ch + "'");
    }

    size_t lexOne(size_t p, std::vector<char>& balance)
    {
        const char c = m_s[p];
        if (isDigit(c))
            return lexNumber(p);
        if (isNameChar(c)) {
            size_t q = p;
            while (q < m_s.size() && isNameChar(m_s[q]))
                ++q;
            push(Tok::Name, p).text = m_s.substr(p, q - p);
            return q;
        }
        if (c == '\'' || c == '"')
            return lexString(p);
        return lexOperator(p, balance);
    }

    std::string m_s;
    size_t m_pos = 0;
    bool m_lineStarting = true;
    std::vector<Token> m_out;
    size_t m_curPos = 0;
    int m_line = 1;
    int m_col = 1;
};

} // namespace

std::string describeToken(const Token& t)
{
    switch (t.type) {
    case Tok::Data: return "template data / text";
    case Tok::VariableBegin: return "begin of print statement";
    case Tok::VariableEnd: return "end of print statement";
    case Tok::BlockBegin: return "begin of statement block";
    case Tok::BlockEnd: return "end of statement block";
    case Tok::Name: return t.text;
    case Tok::String: return "string";
    case Tok::Integer: return "integer";
    case Tok::Float: return "float";
    case Tok::Eof: return "end of template";
    default: break;
    }
    static constexpr const char* kOps[] = {"+", "-",  "/",  "//", "*",  "%", "**", "~", "[", "]", "(", ")", "{",
                                           "}", "==", "!=", ">",  ">=", "<", "<=", "=", ".", ":", "|", ",", ";"};
    return kOps[static_cast<int>(t.type) - static_cast<int>(Tok::Add)];
}

std::vector<Token> tokenize(std::string_view source)
{
    return Lexer(source).run();
}

} // namespace hearth::chat::jinja
