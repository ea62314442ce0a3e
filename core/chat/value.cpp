#include "chat/value.h"

#include "chat/template_error.h"
#include "chat/unicode.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace hearth::chat {

namespace {

// Guards the recursion of str()/repr()/== over nested values, which may be
// cyclic through namespaces or nested thousands deep by a hostile template.
constexpr int kMaxDepth = 400;
thread_local int t_depth = 0;

struct DepthGuard {
    DepthGuard()
    {
        if (++t_depth > kMaxDepth) {
            --t_depth;
            throw TemplateError(TemplateError::Kind::Limit, "value nested too deeply (or cyclic)");
        }
    }
    ~DepthGuard() { --t_depth; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
};

const std::string kEmpty;
thread_local size_t t_printLimit = 0;

void checkPrinted(const std::string& out)
{
    if (t_printLimit && out.size() > t_printLimit)
        throw TemplateError(TemplateError::Kind::Limit,
                            "printing a value would take more than " + std::to_string(t_printLimit) + " bytes");
}

void appendRepr(std::string& out, const Value& v);

void appendSequence(std::string& out, const std::vector<Value>& items, bool tuple)
{
    out += tuple ? '(' : '[';
    for (size_t i = 0; i < items.size(); ++i) {
        if (i)
            out += ", ";
        appendRepr(out, items[i]);
        checkPrinted(out);
    }
    if (tuple && items.size() == 1)
        out += ',';
    out += tuple ? ')' : ']';
}

void appendRepr(std::string& out, const Value& v)
{
    switch (v.type()) {
    case Value::Type::String: out += pyStringRepr(v.asString()); return;
    case Value::Type::Undefined: out += "Undefined"; return;
    default: out += v.str(); return;
    }
}

bool numericEqual(const Value& a, const Value& b)
{
    if (a.isFloat() || b.isFloat())
        return a.asFloat() == b.asFloat();
    return a.asInt() == b.asInt();
}

} // namespace

size_t setPrintLimit(size_t bytes)
{
    return std::exchange(t_printLimit, bytes);
}

Value Native::getAttr(std::string_view name) const
{
    return Value::undefined("'" + repr() + "' has no attribute '" + std::string(name) + "'");
}

Value Native::call(jinja::Interpreter&, jinja::CallArgs&) const
{
    throw TemplateError(TemplateError::Kind::Runtime, "'" + repr() + "' is not callable");
}

Value::Value(std::string s) : m_type(Type::String), m_ptr(std::make_shared<std::string>(std::move(s)))
{
}

void Value::raiseDepth(int childDepth)
{
    if (childDepth + 1 > m_depth) {
        if (childDepth + 1 > kMaxNesting)
            throw TemplateError(TemplateError::Kind::Limit,
                                "values nested more than " + std::to_string(kMaxNesting) + " deep");
        m_depth = static_cast<uint16_t>(childDepth + 1);
    }
}

Value Value::array(std::vector<Value> items)
{
    Value v;
    v.m_type = Type::Array;
    v.m_depth = 1;
    for (const Value& item : items)
        v.raiseDepth(item.m_depth);
    v.m_ptr = std::make_shared<std::vector<Value>>(std::move(items));
    return v;
}

Value Value::tuple(std::vector<Value> items)
{
    Value v = array(std::move(items));
    v.m_type = Type::Tuple;
    return v;
}

Value Value::object()
{
    return object(Object{});
}

Value Value::object(Object entries)
{
    Value v;
    v.m_type = Type::Object;
    v.m_depth = 1;
    for (const auto& [key, value] : entries.entries())
        v.raiseDepth(std::max(key.m_depth, value.m_depth));
    v.m_ptr = std::make_shared<Object>(std::move(entries));
    return v;
}

Value Value::undefined(std::string hint)
{
    Value v;
    v.m_type = Type::Undefined;
    if (!hint.empty())
        v.m_ptr = std::make_shared<std::string>(std::move(hint));
    return v;
}

Value Value::native(std::shared_ptr<const Native> object)
{
    Value v;
    v.m_type = Type::Native;
    v.raiseDepth(object->nestingDepth() - 1);
    v.m_ptr = std::const_pointer_cast<Native>(std::move(object));
    return v;
}

Value Value::markup(std::string s)
{
    Value v(std::move(s));
    v.m_flag = true;
    return v;
}

Value Value::groupTuple(Value grouper, Value list)
{
    Value v = tuple({std::move(grouper), std::move(list)});
    v.m_flag = true;
    return v;
}

int64_t Value::asInt() const
{
    switch (m_type) {
    case Type::Bool: return m_u.b ? 1 : 0;
    case Type::Float: return static_cast<int64_t>(m_u.f);
    default: return m_u.i;
    }
}

double Value::asFloat() const
{
    switch (m_type) {
    case Type::Bool: return m_u.b ? 1.0 : 0.0;
    case Type::Int: return static_cast<double>(m_u.i);
    default: return m_u.f;
    }
}

const std::string& Value::asString() const
{
    return *static_cast<const std::string*>(m_ptr.get());
}

const std::vector<Value>& Value::items() const
{
    return *static_cast<const std::vector<Value>*>(m_ptr.get());
}

const Object& Value::asObject() const
{
    return *static_cast<const Object*>(m_ptr.get());
}

const Native& Value::asNative() const
{
    return *static_cast<const Native*>(m_ptr.get());
}

std::shared_ptr<const Native> Value::nativePtr() const
{
    return std::static_pointer_cast<const Native>(m_ptr);
}

const std::string& Value::undefinedHint() const
{
    return m_type == Type::Undefined && m_ptr ? *static_cast<const std::string*>(m_ptr.get()) : kEmpty;
}

size_t Value::size() const
{
    switch (m_type) {
    case Type::String: return asString().size();
    case Type::Array:
    case Type::Tuple: return items().size();
    case Type::Object: return asObject().size();
    default: return 0;
    }
}

const Value* Value::find(std::string_view key) const
{
    return m_type == Type::Object ? asObject().find(key) : nullptr;
}

Value Value::get(std::string_view key) const
{
    const Value* v = find(key);
    return v ? *v : undefined();
}

std::vector<Value>& Value::mutableItems()
{
    if (m_ptr.use_count() > 1)
        m_ptr = std::make_shared<std::vector<Value>>(items());
    return *static_cast<std::vector<Value>*>(m_ptr.get());
}

Object& Value::mutableObject()
{
    if (m_ptr.use_count() > 1)
        m_ptr = std::make_shared<Object>(asObject());
    return *static_cast<Object*>(m_ptr.get());
}

Value& Value::push(Value item)
{
    if (m_type != Type::Array)
        throw Error("Value::push on a value that is not an array");
    raiseDepth(item.m_depth);
    mutableItems().push_back(std::move(item));
    return *this;
}

Value& Value::set(std::string_view key, Value value)
{
    if (m_type != Type::Object)
        throw Error("Value::set on a value that is not an object");
    raiseDepth(value.m_depth);
    mutableObject().set(Value(key), std::move(value));
    return *this;
}

bool Value::truthy() const
{
    switch (m_type) {
    case Type::Undefined:
    case Type::Null: return false;
    case Type::Bool: return m_u.b;
    case Type::Int: return m_u.i != 0;
    case Type::Float: return m_u.f != 0.0;
    case Type::String: return !asString().empty();
    case Type::Array:
    case Type::Tuple: return !items().empty();
    case Type::Object: return !asObject().empty();
    case Type::Native: return asNative().truthy();
    }
    return false;
}

std::string Value::str() const
{
    switch (m_type) {
    case Type::Undefined: return {};
    case Type::Null: return "None";
    case Type::Bool: return m_u.b ? "True" : "False";
    case Type::Int: return std::to_string(m_u.i);
    case Type::Float: return formatPyFloat(m_u.f);
    case Type::String: return asString();
    case Type::Array:
    case Type::Tuple: {
        DepthGuard guard;
        std::string out;
        appendSequence(out, items(), m_type == Type::Tuple);
        return out;
    }
    case Type::Object: {
        DepthGuard guard;
        std::string out = "{";
        bool first = true;
        for (const auto& [k, v] : asObject().entries()) {
            if (!first)
                out += ", ";
            first = false;
            appendRepr(out, k);
            out += ": ";
            appendRepr(out, v);
            checkPrinted(out);
        }
        return out + "}";
    }
    case Type::Native: {
        DepthGuard guard;
        return asNative().repr();
    }
    }
    return {};
}

std::string Value::repr() const
{
    std::string out;
    appendRepr(out, *this);
    return out;
}

bool operator==(const Value& a, const Value& b)
{
    using T = Value::Type;
    if (a.isNumber() && b.isNumber())
        return numericEqual(a, b);
    if (a.m_type != b.m_type)
        return false;
    switch (a.m_type) {
    case T::Undefined:
    case T::Null: return true;
    case T::String: return a.m_ptr == b.m_ptr || a.asString() == b.asString();
    case T::Array:
    case T::Tuple: {
        if (a.m_ptr == b.m_ptr)
            return true;
        const auto& x = a.items();
        const auto& y = b.items();
        if (x.size() != y.size())
            return false;
        DepthGuard guard;
        for (size_t i = 0; i < x.size(); ++i)
            if (!(x[i] == y[i]))
                return false;
        return true;
    }
    case T::Object: {
        if (a.m_ptr == b.m_ptr)
            return true;
        const Object& x = a.asObject();
        const Object& y = b.asObject();
        if (x.size() != y.size())
            return false;
        DepthGuard guard;
        for (const auto& [k, v] : x.entries()) {
            const Value* other = y.find(k);
            if (!other || !(v == *other))
                return false;
        }
        return true;
    }
    case T::Native: return a.m_ptr == b.m_ptr;
    default: return false;
    }
}

const Value* Object::find(std::string_view key) const
{
    for (const Entry& e : m_entries)
        if (e.first.isString() && e.first.asString() == key)
            return &e.second;
    return nullptr;
}

const Value* Object::find(const Value& key) const
{
    if (key.isString())
        return find(std::string_view(key.asString()));
    for (const Entry& e : m_entries)
        if (e.first == key)
            return &e.second;
    return nullptr;
}

void Object::set(Value key, Value value)
{
    for (Entry& e : m_entries) {
        if (e.first == key) {
            e.second = std::move(value);
            return;
        }
    }
    m_entries.emplace_back(std::move(key), std::move(value));
}

std::string formatPyFloat(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value < 0 ? "-inf" : "inf";
    std::string sign = std::signbit(value) ? "-" : "";
    if (value == 0.0)
        return sign + "0.0";
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, std::fabs(value), std::chars_format::scientific);
    const std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));
    const size_t e = sci.find('e');
    std::string digits;
    for (const char c : sci.substr(0, e))
        if (c != '.')
            digits += c;
    int exp10 = 0;
    std::from_chars(sci.data() + e + (sci[e + 1] == '+' ? 2 : 1), sci.data() + sci.size(), exp10);
    // value = 0.DIGITS × 10^decpt; Python switches to exponent form outside
    // -4 < decpt <= 16.
    const int decpt = exp10 + 1;
    const int n = static_cast<int>(digits.size());
    std::string out = sign;
    if (decpt <= -4 || decpt > 16) {
        out += digits[0];
        if (n > 1)
            out += "." + digits.substr(1);
        char exp[16];
        std::snprintf(exp, sizeof exp, "e%c%02d", exp10 < 0 ? '-' : '+', std::abs(exp10));
        return out + exp;
    }
    if (decpt <= 0)
        return out + "0." + std::string(static_cast<size_t>(-decpt), '0') + digits;
    if (decpt >= n)
        return out + digits + std::string(static_cast<size_t>(decpt - n), '0') + ".0";
    return out + digits.substr(0, static_cast<size_t>(decpt)) + "." + digits.substr(static_cast<size_t>(decpt));
}

std::string pyStringRepr(std::string_view utf8)
{
    const bool hasSingle = utf8.find('\'') != std::string_view::npos;
    const bool hasDouble = utf8.find('"') != std::string_view::npos;
    const char quote = hasSingle && !hasDouble ? '"' : '\'';
    std::string out(1, quote);
    for (size_t pos = 0; pos < utf8.size();) {
        const char32_t c = unicode::next(utf8, pos);
        char esc[16];
        if (c == static_cast<char32_t>(quote) || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (unicode::isPrintable(c)) {
            unicode::append(out, c);
        } else {
            const unsigned u = static_cast<unsigned>(c);
            if (u <= 0xFF)
                std::snprintf(esc, sizeof esc, "\\x%02x", u);
            else if (u <= 0xFFFF)
                std::snprintf(esc, sizeof esc, "\\u%04x", u);
            else
                std::snprintf(esc, sizeof esc, "\\U%08x", u);
            out += esc;
        }
    }
    out += quote;
    return out;
}

} // namespace hearth::chat
