// Methods of Python's str, list, tuple and dict that templates call
// (message.content.strip(), tools.items(), ...), and of engine objects.

#include "chat/jinja/builtins.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/objects.h"
#include "chat/jinja/ops.h"
#include "chat/jinja/pystring.h"
#include "chat/unicode.h"

#include <algorithm>
#include <array>

namespace hearth::chat::jinja {

namespace {

constexpr std::array kStrMethods = {
    "capitalize",   "casefold",   "center",     "count",       "endswith",   "find",         "format",
    "format_map",   "index",      "isalnum",    "isalpha",     "isascii",    "isdecimal",    "isdigit",
    "isidentifier", "islower",    "isnumeric",  "isprintable", "isspace",    "istitle",      "isupper",
    "join",         "ljust",      "lower",      "lstrip",      "partition",  "removeprefix", "removesuffix",
    "replace",      "rfind",      "rindex",     "rjust",       "rpartition", "rsplit",       "rstrip",
    "split",        "splitlines", "startswith", "strip",       "swapcase",   "title",        "upper",
    "zfill"};
constexpr std::array kListMethods = {"count", "index", "copy"};
constexpr std::array kListUnsafe = {"append", "clear", "pop", "reverse", "insert", "sort", "extend", "remove"};
constexpr std::array kDictMethods = {"keys", "values", "items", "get", "copy"};
constexpr std::array kDictUnsafe = {"clear", "pop", "popitem", "setdefault", "update"};

template <size_t N>
bool in(const std::array<const char*, N>& names, std::string_view name)
{
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

const std::string& stringArg(Interpreter& interp, const Value& v, std::string_view method)
{
    if (!v.isString())
        interp.fail(std::string(method) + "() argument must be str, not " + std::string(ops::typeName(v)));
    return v.asString();
}

std::optional<int64_t> optInt(Interpreter& interp, const Value& v)
{
    if (v.isNull() || v.isUndefined())
        return std::nullopt;
    if (!v.isInt() && !v.isBool())
        interp.fail("slice indices must be integers or None");
    return v.asInt();
}

Value stringList(std::vector<std::string> parts)
{
    std::vector<Value> out;
    out.reserve(parts.size());
    for (std::string& p : parts)
        out.emplace_back(std::move(p));
    return Value::array(std::move(out));
}

// startswith/endswith: a str or a tuple of str, with optional start/end.
bool affix(Interpreter& interp, const std::string& s, CallArgs& args, bool start)
{
    ArgBinder b(args, start ? "startswith" : "endswith", {"prefix", "start", "end"});
    if (!b.has(0))
        interp.fail("startswith() takes at least 1 argument (0 given)");
    std::string text = s;
    if (b.has(1) || b.has(2)) {
        const int64_t n = static_cast<int64_t>(unicode::length(s));
        int64_t from = optInt(interp, b.get(1, Value())).value_or(0);
        int64_t to = optInt(interp, b.get(2, Value())).value_or(n);
        from = from < 0 ? std::max<int64_t>(0, from + n) : std::min(from, n);
        to = to < 0 ? std::max<int64_t>(0, to + n) : std::min(to, n);
        text = from <= to ? pystr::substr(s, static_cast<size_t>(from), static_cast<size_t>(to)) : std::string();
    }
    const Value& what = b.get(0, Value());
    std::vector<Value> storage;
    const std::vector<Value>& options = what.isTuple() ? what.items() : (storage = {what});
    for (const Value& o : options) {
        const std::string a = stringArg(interp, o, start ? "startswith" : "endswith");
        if (text.size() >= a.size() &&
            (start ? text.compare(0, a.size(), a) == 0 : text.compare(text.size() - a.size(), a.size(), a) == 0))
            return true;
    }
    return false;
}

Value callStr(Interpreter& interp, const Value& self, std::string_view name, CallArgs& args)
{
    const std::string& s = self.asString();
    const auto bind = [&](std::initializer_list<std::string_view> params) { return ArgBinder(args, name, params); };
    if (name.substr(0, 2) == "is") {
        bind({});
        return Value(pystr::predicate(name, s));
    }
    if (name == "upper" || name == "lower" || name == "casefold" || name == "title" || name == "capitalize" ||
        name == "swapcase") {
        bind({});
        if (name == "upper")
            return Value(unicode::upper(s));
        if (name == "lower" || name == "casefold")
            return Value(unicode::lower(s));
        if (name == "title")
            return Value(pystr::title(s));
        return Value(name == "capitalize" ? pystr::capitalize(s) : pystr::swapcase(s));
    }
    if (name == "strip" || name == "lstrip" || name == "rstrip") {
        const ArgBinder b = bind({"chars"});
        const Value& chars = b.get(0, Value());
        const std::string* set = chars.isNull() ? nullptr : &stringArg(interp, chars, name);
        return Value(pystr::strip(s, set, name != "rstrip", name != "lstrip"));
    }
    if (name == "split" || name == "rsplit") {
        const ArgBinder b = bind({"sep", "maxsplit"});
        const Value& sep = b.get(0, Value());
        const std::string* sepStr = sep.isNull() ? nullptr : &stringArg(interp, sep, name);
        if (sepStr && sepStr->empty())
            interp.fail("empty separator");
        const int64_t maxsplit = optInt(interp, b.get(1, Value(-1))).value_or(-1);
        return stringList(name == "split" ? pystr::split(s, sepStr, maxsplit) : pystr::rsplit(s, sepStr, maxsplit));
    }
    if (name == "splitlines") {
        const ArgBinder b = bind({"keepends"});
        return stringList(pystr::splitlines(s, b.get(0, Value(false)).truthy()));
    }
    if (name == "startswith" || name == "endswith")
        return Value(affix(interp, s, args, name == "startswith"));
    if (name == "replace") {
        const ArgBinder b = bind({"old", "new", "count"});
        const std::string from = stringArg(interp, b.get(0, Value()), name);
        const std::string to = stringArg(interp, b.get(1, Value()), name);
        const int64_t count = optInt(interp, b.get(2, Value(-1))).value_or(-1);
        const size_t size = pystr::replacedSize(s, from, to, count);
        interp.checkSize(size);
        interp.allocate(size);
        return Value(pystr::replace(s, from, to, count));
    }
    if (name == "find" || name == "rfind" || name == "index" || name == "rindex" || name == "count") {
        const ArgBinder b = bind({"sub", "start", "end"});
        const std::string sub = stringArg(interp, b.get(0, Value()), name);
        const auto start = optInt(interp, b.get(1, Value()));
        const auto end = optInt(interp, b.get(2, Value()));
        if (name == "count") {
            if (!start && !end)
                return Value(pystr::count(s, sub));
            const int64_t n = static_cast<int64_t>(unicode::length(s));
            int64_t from = start.value_or(0);
            int64_t to = end.value_or(n);
            from = from < 0 ? std::max<int64_t>(0, from + n) : std::min(from, n);
            to = to < 0 ? std::max<int64_t>(0, to + n) : std::min(to, n);
            return Value(from > to
                             ? 0
                             : pystr::count(pystr::substr(s, static_cast<size_t>(from), static_cast<size_t>(to)), sub));
        }
        const int64_t at = pystr::find(s, sub, start, end, name[0] == 'r');
        if (at < 0 && (name == "index" || name == "rindex"))
            interp.fail("substring not found");
        return Value(at);
    }
    if (name == "join") {
        const ArgBinder b = bind({"iterable"});
        std::string out;
        size_t i = 0;
        for (const Value& item : interp.iterate(b.get(0, Value()))) {
            if (!item.isString())
                interp.fail("sequence item " + std::to_string(i) + ": expected str instance, " +
                            std::string(ops::typeName(item)) + " found");
            if (i++)
                out += s;
            out += item.asString();
            interp.checkSize(out.size());
        }
        interp.allocate(out.size());
        return Value(std::move(out));
    }
    if (name == "center" || name == "ljust" || name == "rjust") {
        const ArgBinder b = bind({"width", "fillchar"});
        const Value& w = b.get(0, Value());
        if (!w.isInt() && !w.isBool())
            interp.fail("'" + std::string(ops::typeName(w)) + "' object cannot be interpreted as an integer");
        const std::string fill = b.has(1) ? stringArg(interp, b.get(1, Value()), name) : std::string(" ");
        if (unicode::length(fill) != 1)
            interp.fail("The fill character must be exactly one character long");
        interp.checkSize(static_cast<size_t>(std::max<int64_t>(0, w.asInt())));
        interp.allocate(static_cast<size_t>(std::max<int64_t>(0, w.asInt())));
        return Value(pystr::pad(s, w.asInt(), fill, name == "center" ? '^' : name == "ljust" ? '<' : '>'));
    }
    if (name == "zfill") {
        const ArgBinder b = bind({"width"});
        const int64_t w = optInt(interp, b.get(0, Value(0))).value_or(0);
        interp.checkSize(static_cast<size_t>(std::max<int64_t>(0, w)));
        return Value(pystr::zfill(s, w));
    }
    if (name == "format") {
        std::string out = pystr::format(interp, s, args);
        interp.allocate(out.size());
        return Value(std::move(out));
    }
    if (name == "format_map") {
        const ArgBinder b = bind({"mapping"});
        CallArgs kw;
        const Value& m = b.get(0, Value());
        if (!m.isObject())
            interp.fail("format_map() argument must be a mapping");
        for (const auto& [k, v] : m.asObject().entries())
            kw.kwargs.emplace_back(k.str(), v);
        return Value(pystr::format(interp, s, kw));
    }
    if (name == "partition" || name == "rpartition") {
        const ArgBinder b = bind({"sep"});
        const std::string sep = stringArg(interp, b.get(0, Value()), name);
        if (sep.empty())
            interp.fail("empty separator");
        const size_t at = name == "partition" ? s.find(sep) : s.rfind(sep);
        if (at == std::string::npos)
            return name == "partition" ? Value::tuple({Value(s), Value(""), Value("")})
                                       : Value::tuple({Value(""), Value(""), Value(s)});
        return Value::tuple({Value(s.substr(0, at)), Value(sep), Value(s.substr(at + sep.size()))});
    }
    if (name == "removeprefix" || name == "removesuffix") {
        const ArgBinder b = bind({"affix"});
        const std::string a = stringArg(interp, b.get(0, Value()), name);
        if (name == "removeprefix")
            return Value(s.compare(0, a.size(), a) == 0 ? s.substr(a.size()) : s);
        return Value(s.size() >= a.size() && s.compare(s.size() - a.size(), a.size(), a) == 0
                         ? s.substr(0, s.size() - a.size())
                         : s);
    }
    interp.fail("'str' object has no attribute '" + std::string(name) + "'");
}

Value callSequence(Interpreter& interp, const Value& self, std::string_view name, CallArgs& args)
{
    const auto& items = self.items();
    if (name == "copy") {
        ArgBinder(args, name, {});
        return Value::array(items);
    }
    if (name == "count") {
        const ArgBinder b(args, name, {"value"});
        return Value(static_cast<int64_t>(std::count(items.begin(), items.end(), b.get(0, Value()))));
    }
    const ArgBinder b(args, name, {"value", "start", "stop"});
    const auto it = std::find(items.begin(), items.end(), b.get(0, Value()));
    if (it == items.end())
        interp.fail(b.get(0, Value()).repr() + " is not in list");
    return Value(static_cast<int64_t>(it - items.begin()));
}

Value callDict(Interpreter& interp, const Value& self, std::string_view name, CallArgs& args)
{
    const Object& obj = self.asObject();
    if (name == "get") {
        const ArgBinder b(args, name, {"key", "default"});
        const Value& key = b.get(0, Value());
        if (key.isArray() || key.isObject())
            interp.fail("unhashable type: '" + std::string(ops::typeName(key)) + "'");
        const Value* v = obj.find(key);
        return v ? *v : b.get(1, Value());
    }
    ArgBinder(args, name, {});
    if (name == "copy")
        return self;
    std::vector<Value> out;
    out.reserve(obj.size());
    for (const auto& [k, v] : obj.entries())
        out.push_back(name == "keys" ? k : name == "values" ? v : Value::tuple({k, v}));
    using K = SequenceObject::Kind;
    return SequenceObject::make(name == "keys"     ? K::DictKeys
                                : name == "values" ? K::DictValues
                                                   : K::DictItems,
                                std::move(out));
}

} // namespace

MethodKind methodKind(const Value& object, std::string_view name)
{
    if (name.size() > 4 && name.substr(0, 2) == "__" && name.substr(name.size() - 2) == "__")
        return MethodKind::Unsafe; // Python internals: the sandbox refuses them
    switch (object.type()) {
    case Value::Type::String: return in(kStrMethods, name) ? MethodKind::Safe : MethodKind::None;
    case Value::Type::Array:
        if (in(kListUnsafe, name))
            return MethodKind::Unsafe;
        return in(kListMethods, name) ? MethodKind::Safe : MethodKind::None;
    case Value::Type::Tuple: return name == "count" || name == "index" ? MethodKind::Safe : MethodKind::None;
    case Value::Type::Object:
        if (in(kDictUnsafe, name))
            return MethodKind::Unsafe;
        return in(kDictMethods, name) ? MethodKind::Safe : MethodKind::None;
    default: return MethodKind::None;
    }
}

Value callMethod(Interpreter& interp, const Value& object, std::string_view name, CallArgs& args)
{
    interp.charge(1);
    switch (object.type()) {
    case Value::Type::String: return callStr(interp, object, name, args);
    case Value::Type::Array:
    case Value::Type::Tuple: return callSequence(interp, object, name, args);
    case Value::Type::Object: return callDict(interp, object, name, args);
    case Value::Type::Native:
        if (const auto* loop = dynamic_cast<const LoopObject*>(&object.asNative()))
            return loop->callMethod(interp, name, args);
        if (const auto* cycler = dynamic_cast<const Cycler*>(&object.asNative()))
            return cycler->callMethod(name, args);
        break;
    default: break;
    }
    interp.fail("'" + std::string(ops::typeName(object)) + "' object has no method '" + std::string(name) + "'");
}

} // namespace hearth::chat::jinja
