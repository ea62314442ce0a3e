// jinja2's filters on strings and numbers, Hugging Face's tojson, and the
// table of every filter (sequence filters are in filters_seq.cpp).

#include "chat/jinja/builtins.h"
#include "chat/jinja/filters_impl.h"
#include "chat/jinja/ops.h"
#include "chat/jinja/pystring.h"
#include "chat/json.h"
#include "chat/numbers.h"
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

// Python's round(x, n) for floats: correctly rounded, ties to even.
double pyRound(double x, int64_t n)
{
    if (!std::isfinite(x) || n > 308)
        return x;
    if (n >= 0) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "%.*f", static_cast<int>(std::min<int64_t>(n, 340)), x);
        std::string text(buf);
        useDotDecimalPoint(text);
        return parseDouble(text).value_or(x);
    }
    const double p = std::pow(10.0, static_cast<double>(-n));
    const double y = x / p;
    double r = std::round(y);
    if (std::fabs(y - std::trunc(y)) == 0.5)
        r = 2.0 * std::round(y / 2.0);
    return r * p;
}

} // namespace

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
    return parseDouble(std::string_view(clean).substr(clean[0] == '+' ? 1 : 0));
}

namespace {

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
    if (input.isUndefined())
        interp.failUndefined(input);
    if (input.isNative())
        return input.asNative().getAttr(name);
    if (methodKind(input, name) != MethodKind::None)
        return interp.getattr(input, name);
    return Value::undefined("'" + std::string(ops::typeName(input)) + " object' has no attribute '" + name + "'");
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

FILTER(pprint)
{
    ArgBinder(args, "pprint", {});
    (void)interp;
    return Value(input.repr());
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
    o.maxBytes = interp.limits().maxOutputBytes;
    std::string out = dumpJson(input, o);
    interp.allocate(out.size());
    return Value(std::move(out));
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
