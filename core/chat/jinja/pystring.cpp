// Python str methods (formatting is in pyformat.cpp).

#include "chat/jinja/pystring.h"

#include "chat/unicode.h"

#include <algorithm>

namespace hearth::chat::jinja::pystr {

namespace {

using unicode::isSpace;

bool inSet(char32_t c, const std::u32string& set)
{
    return set.find(c) != std::u32string::npos;
}

// Python's slice-index adjustment for find()/count() bounds.
void adjust(std::optional<int64_t> start, std::optional<int64_t> end, int64_t len, int64_t& s, int64_t& e)
{
    s = start.value_or(0);
    e = end.value_or(len);
    if (s < 0)
        s = std::max<int64_t>(0, s + len);
    if (e < 0)
        e = std::max<int64_t>(0, e + len);
    e = std::min(e, len);
}

bool isLineBreak(char32_t c)
{
    return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E || c == 0x85 ||
           c == 0x2028 || c == 0x2029;
}

} // namespace

std::string substr(std::string_view s, size_t start, size_t stop)
{
    if (unicode::isAscii(s))
        return start < stop && start < s.size() ? std::string(s.substr(start, stop - start)) : std::string();
    const std::u32string u = unicode::decode(s);
    stop = std::min(stop, u.size());
    return start < stop ? unicode::encode(std::u32string_view(u).substr(start, stop - start)) : std::string();
}

std::string strip(std::string_view s, const std::string* chars, bool left, bool right)
{
    const std::u32string u = unicode::decode(s);
    const std::u32string set = chars ? unicode::decode(*chars) : std::u32string();
    const auto stripped = [&](char32_t c) { return chars ? inSet(c, set) : isSpace(c); };
    size_t b = 0;
    size_t e = u.size();
    if (left)
        while (b < e && stripped(u[b]))
            ++b;
    if (right)
        while (e > b && stripped(u[e - 1]))
            --e;
    return unicode::encode(std::u32string_view(u).substr(b, e - b));
}

std::vector<std::string> split(std::string_view s, const std::string* sep, int64_t maxsplit)
{
    std::vector<std::string> out;
    if (sep) {
        size_t pos = 0;
        for (int64_t n = 0; maxsplit < 0 || n < maxsplit; ++n) {
            const size_t hit = s.find(*sep, pos);
            if (hit == std::string_view::npos)
                break;
            out.emplace_back(s.substr(pos, hit - pos));
            pos = hit + sep->size();
        }
        out.emplace_back(s.substr(pos));
        return out;
    }
    const std::u32string u = unicode::decode(s);
    size_t i = 0;
    const size_t n = u.size();
    for (int64_t k = 0; maxsplit < 0 || k < maxsplit; ++k) {
        while (i < n && isSpace(u[i]))
            ++i;
        if (i == n)
            break;
        const size_t j = i;
        while (i < n && !isSpace(u[i]))
            ++i;
        out.push_back(unicode::encode(std::u32string_view(u).substr(j, i - j)));
    }
    while (i < n && isSpace(u[i]))
        ++i;
    if (i < n)
        out.push_back(unicode::encode(std::u32string_view(u).substr(i)));
    return out;
}

std::vector<std::string> rsplit(std::string_view s, const std::string* sep, int64_t maxsplit)
{
    std::vector<std::string> out;
    if (sep) {
        size_t end = s.size();
        for (int64_t n = 0; maxsplit < 0 || n < maxsplit; ++n) {
            if (end < sep->size())
                break;
            const size_t hit = s.substr(0, end).rfind(*sep);
            if (hit == std::string_view::npos)
                break;
            out.emplace_back(s.substr(hit + sep->size(), end - hit - sep->size()));
            end = hit;
        }
        out.emplace_back(s.substr(0, end));
        std::reverse(out.begin(), out.end());
        return out;
    }
    const std::u32string u = unicode::decode(s);
    size_t i = u.size();
    for (int64_t k = 0; maxsplit < 0 || k < maxsplit; ++k) {
        while (i > 0 && isSpace(u[i - 1]))
            --i;
        if (i == 0)
            break;
        const size_t j = i;
        while (i > 0 && !isSpace(u[i - 1]))
            --i;
        out.push_back(unicode::encode(std::u32string_view(u).substr(i, j - i)));
    }
    while (i > 0 && isSpace(u[i - 1]))
        --i;
    if (i > 0)
        out.push_back(unicode::encode(std::u32string_view(u).substr(0, i)));
    std::reverse(out.begin(), out.end());
    return out;
}

std::vector<std::string> splitlines(std::string_view s, bool keepends)
{
    std::vector<std::string> out;
    const std::u32string u = unicode::decode(s);
    size_t start = 0;
    for (size_t i = 0; i < u.size();) {
        if (!isLineBreak(u[i])) {
            ++i;
            continue;
        }
        size_t eol = i + ((u[i] == '\r' && i + 1 < u.size() && u[i + 1] == '\n') ? 2 : 1);
        out.push_back(unicode::encode(std::u32string_view(u).substr(start, (keepends ? eol : i) - start)));
        start = i = eol;
    }
    if (start < u.size())
        out.push_back(unicode::encode(std::u32string_view(u).substr(start)));
    return out;
}

size_t replacedSize(std::string_view s, std::string_view old, std::string_view repl, int64_t count)
{
    int64_t n = 0;
    if (old.empty()) {
        n = static_cast<int64_t>(unicode::length(s)) + 1;
    } else {
        for (size_t pos = s.find(old); pos != std::string_view::npos && (count < 0 || n < count);
             pos = s.find(old, pos + old.size()))
            ++n;
    }
    if (count >= 0)
        n = std::min(n, count);
    return s.size() + static_cast<size_t>(n) * repl.size() - static_cast<size_t>(n) * old.size();
}

std::string replace(std::string_view s, std::string_view old, std::string_view repl, int64_t count)
{
    std::string out;
    if (old.empty()) {
        // Python inserts the replacement before every character and at the end.
        int64_t n = 0;
        size_t pos = 0;
        while (pos < s.size()) {
            if (count >= 0 && n >= count)
                break;
            out.append(repl);
            ++n;
            const size_t at = pos;
            unicode::next(s, pos);
            out.append(s.substr(at, pos - at));
        }
        if (pos < s.size())
            out.append(s.substr(pos));
        else if (count < 0 || n < count)
            out.append(repl);
        return out;
    }
    size_t pos = 0;
    for (int64_t n = 0; count < 0 || n < count; ++n) {
        const size_t hit = s.find(old, pos);
        if (hit == std::string_view::npos)
            break;
        out.append(s.substr(pos, hit - pos));
        out.append(repl);
        pos = hit + old.size();
    }
    out.append(s.substr(pos));
    return out;
}

int64_t find(std::string_view s, std::string_view sub, std::optional<int64_t> start, std::optional<int64_t> end,
             bool reverse)
{
    const std::u32string u = unicode::decode(s);
    const std::u32string needle = unicode::decode(sub);
    int64_t b = 0;
    int64_t e = 0;
    adjust(start, end, static_cast<int64_t>(u.size()), b, e);
    if (e - b < static_cast<int64_t>(needle.size()))
        return -1;
    const std::u32string_view hay = std::u32string_view(u).substr(static_cast<size_t>(b), static_cast<size_t>(e - b));
    const size_t hit = reverse ? hay.rfind(needle) : hay.find(needle);
    return hit == std::u32string_view::npos ? -1 : b + static_cast<int64_t>(hit);
}

int64_t count(std::string_view s, std::string_view sub)
{
    if (sub.empty())
        return static_cast<int64_t>(unicode::length(s)) + 1;
    int64_t n = 0;
    for (size_t pos = s.find(sub); pos != std::string_view::npos; pos = s.find(sub, pos + sub.size()))
        ++n;
    return n;
}

std::string title(std::string_view s)
{
    std::u32string out;
    bool previousCased = false;
    for (const char32_t c : unicode::decode(s)) {
        if (previousCased)
            unicode::appendLower(out, c);
        else
            unicode::appendTitle(out, c);
        previousCased = unicode::isCased(c);
    }
    return unicode::encode(out);
}

std::string capitalize(std::string_view s)
{
    std::u32string out;
    bool first = true;
    for (const char32_t c : unicode::decode(s)) {
        if (first)
            unicode::appendTitle(out, c);
        else
            unicode::appendLower(out, c);
        first = false;
    }
    return unicode::encode(out);
}

std::string swapcase(std::string_view s)
{
    std::u32string out;
    for (const char32_t c : unicode::decode(s)) {
        if (unicode::isUpper(c))
            unicode::appendLower(out, c);
        else if (unicode::isLower(c))
            unicode::appendUpper(out, c);
        else
            out.push_back(c);
    }
    return unicode::encode(out);
}

std::string pad(std::string_view s, int64_t width, std::string_view fill, char align)
{
    const int64_t len = static_cast<int64_t>(unicode::length(s));
    if (len >= width)
        return std::string(s);
    const int64_t marg = width - len;
    int64_t left = 0;
    if (align == '^')
        left = marg / 2 + (marg & width & 1);
    else if (align == '>')
        left = marg;
    std::string out;
    for (int64_t i = 0; i < left; ++i)
        out.append(fill);
    out.append(s);
    for (int64_t i = left; i < marg; ++i)
        out.append(fill);
    return out;
}

std::string zfill(std::string_view s, int64_t width)
{
    const int64_t len = static_cast<int64_t>(unicode::length(s));
    if (len >= width)
        return std::string(s);
    const bool sign = !s.empty() && (s[0] == '+' || s[0] == '-');
    std::string out = sign ? std::string(1, s[0]) : std::string();
    out.append(static_cast<size_t>(width - len), '0');
    out.append(s.substr(sign ? 1 : 0));
    return out;
}

bool predicate(std::string_view name, std::string_view s)
{
    const std::u32string u = unicode::decode(s);
    const auto all = [&](bool (*f)(char32_t)) { return !u.empty() && std::all_of(u.begin(), u.end(), f); };
    if (name == "isalpha")
        return all(unicode::isAlpha);
    if (name == "isalnum")
        return all(unicode::isAlnum);
    if (name == "isdigit")
        return all(unicode::isDigit);
    if (name == "isdecimal")
        return all(unicode::isDecimal);
    if (name == "isnumeric")
        return all(unicode::isNumeric);
    if (name == "isspace")
        return all(unicode::isSpace);
    if (name == "isascii")
        return unicode::isAscii(s);
    if (name == "isprintable")
        return std::all_of(u.begin(), u.end(), unicode::isPrintable);
    if (name == "isidentifier")
        return !u.empty() && (unicode::isAlpha(u[0]) || u[0] == '_') &&
               std::all_of(u.begin(), u.end(), [](char32_t c) { return unicode::isWord(c); });
    if (name == "islower" || name == "isupper") {
        const bool lower = name == "islower";
        bool cased = false;
        for (const char32_t c : u) {
            if (lower ? unicode::isUpper(c) : unicode::isLower(c))
                return false;
            cased = cased || (lower ? unicode::isLower(c) : unicode::isUpper(c));
        }
        return cased;
    }
    if (name == "istitle") {
        bool cased = false;
        bool previousCased = false;
        for (const char32_t c : u) {
            if (unicode::isUpper(c)) {
                if (previousCased)
                    return false;
                previousCased = cased = true;
            } else if (unicode::isLower(c)) {
                if (!previousCased)
                    return false;
                previousCased = cased = true;
            } else {
                previousCased = false;
            }
        }
        return cased;
    }
    return false;
}

} // namespace hearth::chat::jinja::pystr
