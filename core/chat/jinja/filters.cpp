// jinja2's filters on strings and numbers, Hugging Face's tojson, and the
// table of every filter (sequence filters are in filters_seq.cpp).

#include "chat/jinja/builtins.h"
#include "chat/jinja/filters_impl.h"
#include "chat/jinja/ops.h"
#include "chat/jinja/pystring.h"
#include "chat/json.h"
#include "chat/unicode.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace hearth::chat::jinja::filters {

namespace {

const Value kNone;

// soft_str(): str(value), keeping Markup.
Value softStr(const Value& v)
{
    return v.isString() ? v : Value(v.str());
}

std::string str(const Value& v)
{
    return v.isString() ? v.asString() : v.str();
}

// Python's int(text, base): whitespace around, a sign, underscores between
// digits, an optional 0x/0o/0b prefix matching the base.
std::optional<int64_t> parsePyInt(std::string_view text, int base)
{
    std::string s = pystr::strip(text, nullptr, true, true);
    bool neg = false;
    size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    if (i + 1 < s.size() && s[i] == '0') {
        const char p = static_cast<char>(s[i + 1] | 0x20);
        if ((p == 'x' && base == 16) || (p == 'o' && base == 8) || (p == 'b' && base == 2)) {
            i += 2;
            if (i < s.size() && s[i] == '_')
                ++i;
        }
    }
    std::string digits;
    for (; i < s.size(); ++i) {
        if (s[i] == '_' && !digits.empty() && i + 1 < s.size() && s[i + 1] != '_')
            continue;
        digits += s[i];
    }
    if (digits.empty())
        return std::nullopt;
    uint64_t v = 0;
    const auto res = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (res.ec != std::errc() || res.ptr != digits.data() + digits.size() || v > static_cast<uint64_t>(INT64_MAX))
        return std::nullopt;
    return neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
}

// Python's float(text).
std::optional<double> parsePyFloat(std::string_view text)
{
    std::string s = pystr::strip(text, nullptr, true, true);
    std::string lower = unicode::lower(s);
    const bool neg = !lower.empty() && lower[0] == '-';
    const std::string_view body =
        std::string_view(lower).substr(!lower.empty() && (lower[0] == '-' || lower[0] == '+'));
    if (body == "inf" || body == "infinity")
        return neg ? -HUGE_VAL : HUGE_VAL;
    if (body == "nan")
        return std::nan("");
    std::string clean;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '_') {
            const bool between = i > 0 && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i - 1])) &&
                                 std::isdigit(static_cast<unsigned char>(s[i + 1]));
            if (!between)
                return std::nullopt;
            continue;
        }
        clean += s[i];
    }
    if (clean.empty() || clean.find_first_not_of("0123456789+-.eE") != std::string::npos)
        return std::nullopt;
    const char* first = clean.data() + (clean[0] == '+' ? 1 : 0);
    double d = 0;
    const auto res = std::from_chars(first, clean.data() + clean.size(), d);
    if (res.ptr != clean.data() + clean.size())
        return std::nullopt;
    if (res.ec == std::errc::result_out_of_range)
        d = std::fabs(d) < 1 ? 0.0 * (neg ? -1 : 1) : (neg ? -HUGE_VAL : HUGE_VAL);
    return d;
}

// Python's round(x, n) for floats: correctly rounded, ties to even.
double pyRound(double x, int64_t n)
{
    if (!std::isfinite(x) || n > 308)
        return x;
    if (n >= 0) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(std::min<int64_t>(n, 340)), x);
        return std::strtod(buf, nullptr);
    }
    const double p = std::pow(10.0, static_cast<double>(-n));
    const double y = x / p;
    double r = std::round(y);
    if (std::fabs(y - std::trunc(y)) == 0.5)
        r = 2.0 * std::round(y / 2.0);
    return r * p;
}

#define FILTER(name) Value name(Interpreter& interp, const Value& input, CallArgs& args)

FILTER(abs)
{
    ArgBinder(args, "abs", {});
    if (input.isInt() || input.isBool())
        return input.asInt() == INT64_MIN ? ops::negate(interp, input) : Value(std::llabs(input.asInt()));
    if (input.isFloat())
        return Value(std::fabs(input.asFloat()));
    if (input.isUndefined())
        interp.failUndefined(input);
    interp.fail("bad operand type for abs(): '" + std::string(ops::typeName(input)) + "'");
}

FILTER(attr)
{
    const ArgBinder b(args, "attr", {"name"});
    const std::string name = b.get(0, Value("")).str();
    if (input.isNative())
        return input.asNative().getAttr(name);
    if (methodKind(input, name) != MethodKind::None)
        return interp.getattr(input, name);
    return Value::undefined("'" + std::string(ops::typeName(input)) + " object' has no attribute '" + name + "'");
}

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

FILTER(defaultValue)
{
    const ArgBinder b(args, "default", {"default_value", "boolean"});
    (void)interp;
    if (input.isUndefined() || (b.get(1, Value(false)).truthy() && !input.truthy()))
        return b.get(0, Value(""));
    return input;
}

FILTER(escape)
{
    ArgBinder(args, "escape", {});
    (void)interp;
    return input.isMarkup() ? input : Value::markup(ops::escapeHtml(input.str()));
}

FILTER(forceescape)
{
    ArgBinder(args, "forceescape", {});
    (void)interp;
    return Value::markup(ops::escapeHtml(input.str()));
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
            std::snprintf(buf, sizeof buf, "%.1f %s", base * bytes / unit, binary ? kBinary[i] : kDecimal[i]);
            break;
        }
    }
    return Value(buf);
}

FILTER(toFloat)
{
    const ArgBinder b(args, "float", {"default"});
    if (input.isUndefined())
        interp.failUndefined(input);
    if (input.isNumber())
        return Value(input.asFloat());
    if (input.isString())
        if (const auto f = parsePyFloat(input.asString()))
            return Value(*f);
    return b.get(0, Value(0.0));
}

FILTER(toInt)
{
    const ArgBinder b(args, "int", {"default", "base"});
    const Value& fallback = b.get(0, Value(0));
    if (input.isUndefined())
        interp.failUndefined(input);
    if (input.isInt() || input.isBool())
        return Value(input.asInt());
    if (input.isFloat()) {
        const double d = input.asFloat();
        if (std::isinf(d))
            interp.fail("cannot convert float infinity to integer");
        if (std::isnan(d) || std::fabs(d) >= 9.2e18)
            return fallback;
        return Value(static_cast<int64_t>(d));
    }
    if (input.isString()) {
        const Value& baseV = b.get(1, Value(10));
        const int base = baseV.isInt() ? static_cast<int>(baseV.asInt()) : 10;
        if (const auto i = parsePyInt(input.asString(), base))
            return Value(*i);
        if (const auto f = parsePyFloat(input.asString()); f && std::isfinite(*f) && std::fabs(*f) < 9.2e18)
            return Value(static_cast<int64_t>(*f));
    }
    return fallback;
}

FILTER(format)
{
    if (!args.args.empty() && !args.kwargs.empty())
        interp.fail("can't handle positional and keyword arguments at the same time");
    Value params;
    if (!args.kwargs.empty()) {
        Object kw;
        for (auto& [k, v] : args.kwargs)
            kw.set(Value(k), v);
        params = Value::object(std::move(kw));
    } else {
        params = Value::tuple(args.args);
    }
    return ops::binary(interp, BinOp::Mod, softStr(input), params);
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

FILTER(pprint)
{
    ArgBinder(args, "pprint", {});
    (void)interp;
    return Value(input.repr());
}

FILTER(replace)
{
    const ArgBinder b(args, "replace", {"old", "new", "count"});
    const Value& count = b.get(2, kNone);
    const std::string out = pystr::replace(str(input), str(b.get(0, Value(""))), str(b.get(1, Value(""))),
                                           count.isNull() ? -1 : count.asInt());
    interp.checkSize(out.size());
    return Value(out);
}

FILTER(round)
{
    const ArgBinder b(args, "round", {"precision", "method"});
    const int64_t precision = b.get(0, Value(0)).asInt();
    const std::string method = b.get(1, Value("common")).str();
    if (method != "common" && method != "ceil" && method != "floor")
        interp.fail("method must be common, ceil or floor");
    if (input.isUndefined())
        interp.failUndefined(input);
    if (!input.isNumber())
        interp.fail("type " + std::string(ops::typeName(input)) + " doesn't define __round__ method");
    if (method == "common") {
        if (input.isFloat())
            return Value(pyRound(input.asFloat(), precision));
        if (precision >= 0)
            return Value(input.asInt());
        const Value rounded = Value(pyRound(static_cast<double>(input.asInt()), precision));
        return Value(static_cast<int64_t>(rounded.asFloat()));
    }
    const double scale = std::pow(10.0, static_cast<double>(precision));
    const double x = input.asFloat() * scale;
    return Value((method == "ceil" ? std::ceil(x) : std::floor(x)) / scale);
}

FILTER(safe)
{
    ArgBinder(args, "safe", {});
    (void)interp;
    return Value::markup(str(input));
}

FILTER(string)
{
    ArgBinder(args, "string", {});
    (void)interp;
    return softStr(input);
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

FILTER(tojson)
{
    // Hugging Face replaces jinja2's tojson with
    // json.dumps(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False).
    const ArgBinder b(args, "tojson", {"ensure_ascii", "indent", "separators", "sort_keys"});
    JsonDumpOptions o;
    o.ensureAscii = b.get(0, Value(false)).truthy();
    const Value& indent = b.get(1, kNone);
    if (indent.isString()) {
        o.indented = true;
        o.indent = indent.asString();
    } else if (indent.isInt() || indent.isBool()) {
        o.indented = true;
        interp.checkSize(static_cast<size_t>(std::max<int64_t>(0, indent.asInt())));
        o.indent.assign(static_cast<size_t>(std::max<int64_t>(0, indent.asInt())), ' ');
    } else if (!indent.isNull()) {
        interp.fail("indent must be an int or a string, not " + std::string(ops::typeName(indent)));
    }
    const Value& seps = b.get(2, kNone);
    if (!seps.isNull()) {
        std::vector<Value> storage;
        const auto& pair = interp.sequence(seps, storage);
        if (pair.size() != 2 || !pair[0].isString() || !pair[1].isString())
            interp.fail("separators must be a pair of strings");
        o.itemSeparator = pair[0].asString();
        o.keySeparator = pair[1].asString();
    }
    o.sortKeys = b.get(3, Value(false)).truthy();
    std::string out = dumpJson(input, o);
    interp.checkSize(out.size());
    return Value(std::move(out));
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
    const std::string s = str(input);
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
            if (std::isalnum(c) || c == '_' || c == '.' || c == '-' || c == '~' || (!forQuery && c == '/')) {
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

struct FilterEntry {
    std::string_view name;
    FilterFn fn;
};

// Sorted by name for binary search.
constexpr FilterEntry kFilters[] = {
    {"abs", abs},
    {"attr", attr},
    {"batch", batch},
    {"capitalize", capitalize},
    {"center", center},
    {"count", length},
    {"d", defaultValue},
    {"default", defaultValue},
    {"dictsort", dictsort},
    {"e", escape},
    {"escape", escape},
    {"filesizeformat", filesizeformat},
    {"first", first},
    {"float", toFloat},
    {"forceescape", forceescape},
    {"format", format},
    {"groupby", groupby},
    {"indent", indent},
    {"int", toInt},
    {"items", items},
    {"join", join},
    {"last", last},
    {"length", length},
    {"list", list},
    {"lower", lower},
    {"map", map},
    {"max", max},
    {"min", min},
    {"pprint", pprint},
    {"random", random},
    {"reject", reject},
    {"rejectattr", rejectattr},
    {"replace", replace},
    {"reverse", reverse},
    {"round", round},
    {"safe", safe},
    {"select", select},
    {"selectattr", selectattr},
    {"slice", slice},
    {"sort", sort},
    {"string", string},
    {"striptags", striptags},
    {"sum", sum},
    {"title", title},
    {"tojson", tojson},
    {"trim", trim},
    {"truncate", truncate},
    {"unique", unique},
    {"upper", upper},
    {"urlencode", urlencode},
    {"urlize", urlize},
    {"wordcount", wordcount},
    {"wordwrap", wordwrap},
    {"xmlattr", xmlattr},
};

static_assert(std::is_sorted(std::begin(kFilters), std::end(kFilters),
                             [](const FilterEntry& a, const FilterEntry& b) { return a.name < b.name; }));

} // namespace

} // namespace hearth::chat::jinja::filters

namespace hearth::chat::jinja {

FilterFn findFilter(std::string_view name)
{
    const auto& table = filters::kFilters;
    const auto it = std::lower_bound(std::begin(table), std::end(table), name,
                                     [](const filters::FilterEntry& e, std::string_view n) { return e.name < n; });
    return it != std::end(table) && it->name == name ? it->fn : nullptr;
}

} // namespace hearth::chat::jinja
