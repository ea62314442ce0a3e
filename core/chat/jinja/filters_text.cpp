// jinja2's text filters (string in, string out): case, padding, trimming,
// truncation, wrapping, indentation, HTML and URL helpers.

#include "chat/jinja/filters_impl.h"
#include "chat/jinja/ops.h"
#include "chat/jinja/pystring.h"
#include "chat/numbers.h"
#include "chat/unicode.h"

#include <algorithm>
#include <cstdio>

namespace hearth::chat::jinja::filters {

namespace {

const Value kNone;

std::string str(const Value& v)
{
    return v.isString() ? v.asString() : v.str();
}

} // namespace

#define FILTER(name) Value name(Interpreter& interp, const Value& input, CallArgs& args)

FILTER(capitalize)
{
    ArgBinder(args, "capitalize", {});
    (void)interp;
    return Value(pystr::capitalize(str(input)));
}

FILTER(center)
{
    const ArgBinder b(args, "center", {"width"});
    const Value& w = b.get(0, Value(80));
    if (!w.isInt() && !w.isBool())
        interp.fail("'" + std::string(ops::typeName(w)) + "' object cannot be interpreted as an integer");
    interp.checkSize(static_cast<size_t>(std::max<int64_t>(0, w.asInt())));
    return Value(pystr::pad(str(input), w.asInt(), " ", '^'));
}

FILTER(filesizeformat)
{
    const ArgBinder b(args, "filesizeformat", {"binary"});
    const bool binary = b.get(0, Value(false)).truthy();
    double bytes = 0;
    if (input.isNumber())
        bytes = input.asFloat();
    else if (const auto f = input.isString() ? parsePyFloat(input.asString()) : std::nullopt)
        bytes = *f;
    else
        interp.fail("could not convert " + std::string(ops::typeName(input)) + " to float");
    const double base = binary ? 1024 : 1000;
    static constexpr const char* kDecimal[] = {"kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
    static constexpr const char* kBinary[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"};
    if (bytes == 1)
        return Value("1 Byte");
    if (bytes < base)
        return Value(std::to_string(static_cast<int64_t>(bytes)) + " Bytes");
    char buf[64];
    double unit = base;
    for (int i = 0; i < 8; ++i) {
        unit *= base;
        if (bytes < unit || i == 7) {
            std::snprintf(buf, sizeof buf, "%.1f", base * bytes / unit);
            std::string number(buf);
            useDotDecimalPoint(number);
            return Value(number + " " + (binary ? kBinary[i] : kDecimal[i]));
        }
    }
    return Value(std::string()); // not reached: the last unit always fits
}

FILTER(indent)
{
    const ArgBinder b(args, "indent", {"width", "first", "blank"});
    if (input.isUndefined())
        interp.failUndefined(input);
    if (!input.isString())
        interp.fail("unsupported operand type(s) for +=: '" + std::string(ops::typeName(input)) + "' and 'str'");
    const Value& w = b.get(0, Value(4));
    std::string indention;
    if (w.isString()) {
        indention = w.asString();
    } else if (w.isInt() || w.isBool()) {
        interp.checkSize(static_cast<size_t>(std::max<int64_t>(0, w.asInt())));
        indention.assign(static_cast<size_t>(std::max<int64_t>(0, w.asInt())), ' ');
    } else {
        interp.fail("can't multiply sequence by non-int of type '" + std::string(ops::typeName(w)) + "'");
    }
    const std::vector<std::string> lines = pystr::splitlines(input.asString() + "\n", false);
    std::string out;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (i)
            out += '\n';
        if (i > 0 && (b.get(2, Value(false)).truthy() || !lines[i].empty()))
            out += indention;
        out += lines[i];
        interp.checkSize(out.size());
    }
    if (b.get(1, Value(false)).truthy())
        out = indention + out;
    interp.allocate(out.size());
    return input.isMarkup() ? Value::markup(std::move(out)) : Value(std::move(out));
}

FILTER(lower)
{
    ArgBinder(args, "lower", {});
    (void)interp;
    return Value(unicode::lower(str(input)));
}

FILTER(upper)
{
    ArgBinder(args, "upper", {});
    (void)interp;
    return Value(unicode::upper(str(input)));
}

FILTER(replace)
{
    const ArgBinder b(args, "replace", {"old", "new", "count"});
    const Value count = b.get(2, kNone);
    const std::string s = str(input);
    const std::string from = str(b.get(0, Value("")));
    const std::string to = str(b.get(1, Value("")));
    const int64_t n = count.isNull() ? -1 : count.asInt();
    const size_t size = pystr::replacedSize(s, from, to, n);
    interp.checkSize(size);
    interp.allocate(size);
    return Value(pystr::replace(s, from, to, n));
}

FILTER(striptags)
{
    ArgBinder(args, "striptags", {});
    (void)interp;
    std::string s = str(input);
    std::string noTags;
    for (size_t i = 0; i < s.size();) {
        if (s.compare(i, 4, "<!--") == 0) {
            const size_t end = s.find("-->", i + 4);
            if (end != std::string::npos) {
                i = end + 3;
                continue;
            }
        }
        if (s[i] == '<') {
            const size_t end = s.find('>', i + 1);
            if (end != std::string::npos) {
                i = end + 1;
                continue;
            }
        }
        noTags += s[i++];
    }
    std::string joined;
    for (const std::string& w : pystr::split(noTags, nullptr, -1))
        joined += (joined.empty() ? "" : " ") + w;
    static const std::pair<const char*, const char*> kEntities[] = {
        {"&lt;", "<"},  {"&gt;", ">"},          {"&quot;", "\""}, {"&#34;", "\""},
        {"&#39;", "'"}, {"&nbsp;", "\xC2\xA0"}, {"&amp;", "&"}};
    for (const auto& [from, to] : kEntities)
        joined = pystr::replace(joined, from, to, -1);
    return Value(joined);
}

FILTER(title)
{
    ArgBinder(args, "title", {});
    (void)interp;
    // jinja2 capitalizes each piece between runs of "-", whitespace and
    // opening brackets (not str.title()).
    const std::u32string u = unicode::decode(str(input));
    const auto isSep = [](char32_t c) {
        return unicode::isSpace(c) || c == '-' || c == '(' || c == '{' || c == '[' || c == '<';
    };
    std::u32string out;
    for (size_t i = 0; i < u.size();) {
        size_t j = i;
        const bool sep = isSep(u[i]);
        while (j < u.size() && isSep(u[j]) == sep)
            ++j;
        if (sep) {
            out.append(u, i, j - i);
        } else {
            unicode::appendUpper(out, u[i]);
            for (size_t k = i + 1; k < j; ++k)
                unicode::appendLower(out, u[k]);
        }
        i = j;
    }
    return Value(unicode::encode(out));
}

FILTER(trim)
{
    const ArgBinder b(args, "trim", {"chars"});
    const Value& chars = b.get(0, kNone);
    if (!chars.isNull() && !chars.isString())
        interp.fail("strip arg must be None or str");
    const std::string* set = chars.isNull() ? nullptr : &chars.asString();
    return Value(pystr::strip(str(input), set, true, true));
}

FILTER(truncate)
{
    const ArgBinder b(args, "truncate", {"length", "killwords", "end", "leeway"});
    if (!input.isString()) {
        // jinja2 does not convert: only something with a len() that is
        // short enough comes back unchanged.
        CallArgs none;
        const int64_t n = length(interp, input, none).asInt();
        if (n <= b.get(0, Value(255)).asInt() + (b.get(3, kNone).isNull() ? 5 : b.get(3, kNone).asInt()))
            return input;
        interp.fail("'" + std::string(ops::typeName(input)) + "' object has no attribute 'rsplit'");
    }
    const std::string s = input.asString();
    const int64_t length = b.get(0, Value(255)).asInt();
    const std::string end = b.get(2, Value("...")).str();
    const int64_t leeway = b.get(3, kNone).isNull() ? 5 : b.get(3, kNone).asInt();
    const auto endLen = static_cast<int64_t>(unicode::length(end));
    if (length < endLen)
        interp.fail("expected length >= " + std::to_string(endLen) + ", got " + std::to_string(length));
    if (leeway < 0)
        interp.fail("expected leeway >= 0, got " + std::to_string(leeway));
    if (static_cast<int64_t>(unicode::length(s)) <= length + leeway)
        return Value(s);
    const std::string head = pystr::substr(s, 0, static_cast<size_t>(length - endLen));
    if (b.get(1, Value(false)).truthy())
        return Value(head + end);
    static const std::string kSpace = " ";
    return Value(pystr::rsplit(head, &kSpace, 1)[0] + end);
}

FILTER(urlencode)
{
    ArgBinder(args, "urlencode", {});
    const auto quote = [](const std::string& s, bool forQuery) {
        std::string out;
        for (const char ch : s) {
            const auto c = static_cast<unsigned char>(ch);
            const bool alnum = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); // ASCII only
            if (alnum || c == '_' || c == '.' || c == '-' || c == '~' || (!forQuery && c == '/')) {
                out += static_cast<char>(c);
            } else if (forQuery && c == ' ') {
                out += '+';
            } else {
                char buf[4];
                std::snprintf(buf, sizeof buf, "%%%02X", c);
                out += buf;
            }
        }
        return out;
    };
    if (input.isString() || (!input.isSequence() && !input.isObject()))
        return Value(quote(input.str(), false));
    std::vector<Value> pairs;
    if (input.isObject())
        for (const auto& [k, v] : input.asObject().entries())
            pairs.push_back(Value::tuple({k, v}));
    else
        pairs = input.items();
    std::string out;
    for (const Value& p : pairs) {
        std::vector<Value> storage;
        const auto& kv = interp.sequence(p, storage);
        if (kv.size() != 2)
            interp.fail("urlencode expects pairs");
        out += (out.empty() ? "" : "&") + quote(kv[0].str(), true) + "=" + quote(kv[1].str(), true);
    }
    return Value(out);
}

FILTER(wordcount)
{
    ArgBinder(args, "wordcount", {});
    (void)interp;
    int64_t n = 0;
    bool inWord = false;
    for (const char32_t c : unicode::decode(str(input))) {
        const bool w = unicode::isWord(c);
        n += w && !inWord;
        inWord = w;
    }
    return Value(n);
}

FILTER(wordwrap)
{
    const ArgBinder b(args, "wordwrap", {"width", "break_long_words", "wrapstring", "break_on_hyphens"});
    const int64_t width = std::max<int64_t>(1, b.get(0, Value(79)).asInt());
    const bool breakLong = b.get(1, Value(true)).truthy();
    if (input.isUndefined())
        interp.failUndefined(input);
    if (!input.isString())
        interp.fail("'" + std::string(ops::typeName(input)) + "' object has no attribute 'splitlines'");
    const std::string wrap = b.get(2, kNone).isNull() ? std::string("\n") : b.get(2, kNone).str();
    std::string out;
    const std::vector<std::string> paragraphs = pystr::splitlines(str(input), false);
    for (size_t p = 0; p < paragraphs.size(); ++p) {
        // textwrap.wrap with whitespace kept inside lines and dropped at
        // line ends.
        std::vector<std::u32string> chunks;
        const std::u32string u = unicode::decode(paragraphs[p]);
        for (size_t i = 0; i < u.size();) {
            size_t j = i;
            const bool space = unicode::isSpace(u[i]);
            while (j < u.size() && unicode::isSpace(u[j]) == space)
                ++j;
            chunks.push_back(u.substr(i, j - i));
            i = j;
        }
        std::reverse(chunks.begin(), chunks.end());
        std::vector<std::u32string> lines;
        const auto blank = [](const std::u32string& c) { return std::all_of(c.begin(), c.end(), unicode::isSpace); };
        while (!chunks.empty()) {
            interp.charge(1);
            if (blank(chunks.back()) && !lines.empty())
                chunks.pop_back(); // no whitespace at the start of a wrapped line
            std::vector<std::u32string> line;
            int64_t len = 0;
            while (!chunks.empty() && len + static_cast<int64_t>(chunks.back().size()) <= width) {
                len += static_cast<int64_t>(chunks.back().size());
                line.push_back(std::move(chunks.back()));
                chunks.pop_back();
            }
            if (!chunks.empty() && static_cast<int64_t>(chunks.back().size()) > width) {
                if (breakLong) {
                    const auto left = static_cast<size_t>(std::max<int64_t>(width - len, 1));
                    line.push_back(chunks.back().substr(0, left));
                    chunks.back() = chunks.back().substr(left);
                } else if (line.empty()) {
                    line.push_back(std::move(chunks.back()));
                    chunks.pop_back();
                }
            }
            if (!line.empty() && blank(line.back()))
                line.pop_back(); // nor at its end
            if (!line.empty()) {
                std::u32string joined;
                for (const auto& c : line)
                    joined += c;
                lines.push_back(std::move(joined));
            }
        }
        if (p)
            out += wrap;
        for (size_t l = 0; l < lines.size(); ++l)
            out += (l ? wrap : std::string()) + unicode::encode(lines[l]);
        interp.checkSize(out.size());
    }
    return Value(out);
}

FILTER(xmlattr)
{
    const ArgBinder b(args, "xmlattr", {"autospace"});
    if (!input.isObject())
        interp.fail("xmlattr expects a mapping");
    std::string out;
    for (const auto& [k, v] : input.asObject().entries()) {
        if (v.isNull() || v.isUndefined())
            continue;
        const std::string key = k.str();
        if (key.find_first_of(" \t\n\r\f\v/>=") != std::string::npos)
            interp.fail("Invalid character in attribute name: " + k.repr());
        out += (out.empty() ? "" : " ") + ops::escapeHtml(key) + "=\"" + ops::escapeHtml(v.str()) + "\"";
    }
    if (b.get(0, Value(true)).truthy() && !out.empty())
        out = " " + out;
    return Value(out);
}

FILTER(urlize)
{
    (void)input;
    (void)args;
    interp.fail("the urlize filter is not supported in chat templates");
}

#undef FILTER

} // namespace hearth::chat::jinja::filters
