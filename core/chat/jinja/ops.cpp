#include "chat/jinja/ops.h"

#include "chat/jinja/objects.h"
#include "chat/jinja/pystring.h"
#include "chat/unicode.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>

namespace hearth::chat::jinja::ops {

namespace {

bool isIntLike(const Value& v)
{
    return v.isInt() || v.isBool();
}

[[noreturn]] void unsupported(Interpreter& interp, std::string_view op, const Value& a, const Value& b)
{
    interp.fail("unsupported operand type(s) for " + std::string(op) + ": '" + std::string(typeName(a)) + "' and '" +
                std::string(typeName(b)) + "'");
}

// Overflow-checked int64 arithmetic, portable to compilers without
// __builtin_*_overflow.
bool addOverflow(int64_t a, int64_t b, int64_t* r)
{
    if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b))
        return true;
    *r = a + b;
    return false;
}

bool subOverflow(int64_t a, int64_t b, int64_t* r)
{
    if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b))
        return true;
    *r = a - b;
    return false;
}

bool mulOverflow(int64_t a, int64_t b, int64_t* r)
{
    if (a == 0 || b == 0) {
        *r = 0;
        return false;
    }
    if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN))
        return true;
    if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : a < INT64_MAX / b))
        return true;
    *r = a * b;
    return false;
}

[[noreturn]] void tooLarge(Interpreter& interp)
{
    interp.fail("integer result does not fit in 64 bits (big integers are not supported)");
}

Value repeat(Interpreter& interp, const Value& seq, int64_t n)
{
    if (seq.isString()) {
        const std::string& s = seq.asString();
        if (n <= 0 || s.empty())
            return Value(std::string());
        interp.checkSize(s.size() * static_cast<size_t>(std::min<int64_t>(n, INT32_MAX)));
        interp.allocate(s.size() * static_cast<size_t>(n));
        std::string out;
        out.reserve(s.size() * static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            out += s;
        return Value(std::move(out));
    }
    const auto& items = seq.items();
    std::vector<Value> out;
    if (n > 0 && !items.empty()) {
        interp.checkItems(items.size() * static_cast<size_t>(std::min<int64_t>(n, INT32_MAX)));
        interp.allocateItems(items.size() * static_cast<size_t>(n));
        interp.charge(static_cast<int64_t>(items.size()) * n / 16);
        out.reserve(items.size() * static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i)
            out.insert(out.end(), items.begin(), items.end());
    }
    return seq.isTuple() ? Value::tuple(std::move(out)) : Value::array(std::move(out));
}

// CPython's float divmod: the quotient floored, the remainder with the sign
// of the divisor.
void floatDivmod(double a, double b, double& div, double& mod)
{
    mod = std::fmod(a, b);
    div = (a - mod) / b;
    if (mod != 0.0) {
        if ((b < 0) != (mod < 0)) {
            mod += b;
            div -= 1.0;
        }
    } else {
        mod = std::copysign(0.0, b);
    }
    if (div != 0.0) {
        const double floorDiv = std::floor(div);
        div = (div - floorDiv > 0.5) ? floorDiv + 1.0 : floorDiv;
    } else {
        div = std::copysign(0.0, a / b);
    }
}

Value arithmetic(Interpreter& interp, BinOp op, const Value& a, const Value& b)
{
    if (isIntLike(a) && isIntLike(b)) {
        const int64_t x = a.asInt();
        const int64_t y = b.asInt();
        int64_t r = 0;
        switch (op) {
        case BinOp::Add:
            if (addOverflow(x, y, &r))
                tooLarge(interp);
            return Value(r);
        case BinOp::Sub:
            if (subOverflow(x, y, &r))
                tooLarge(interp);
            return Value(r);
        case BinOp::Mul:
            if (mulOverflow(x, y, &r))
                tooLarge(interp);
            return Value(r);
        case BinOp::Div:
            if (y == 0)
                interp.fail("division by zero");
            return Value(static_cast<double>(x) / static_cast<double>(y));
        case BinOp::FloorDiv:
        case BinOp::Mod: {
            if (y == 0)
                interp.fail(op == BinOp::Mod ? "integer modulo by zero" : "integer division or modulo by zero");
            if (x == INT64_MIN && y == -1) {
                if (op == BinOp::Mod)
                    return Value(0);
                tooLarge(interp);
            }
            int64_t q = x / y;
            int64_t m = x % y;
            if (m != 0 && ((m < 0) != (y < 0))) {
                m += y;
                --q;
            }
            return Value(op == BinOp::Mod ? m : q);
        }
        case BinOp::Pow: {
            if (y < 0)
                break; // a float result
            int64_t result = 1;
            int64_t base = x;
            for (int64_t e = y; e > 0; e >>= 1) {
                if ((e & 1) && mulOverflow(result, base, &result))
                    tooLarge(interp);
                if (e > 1 && mulOverflow(base, base, &base))
                    tooLarge(interp);
            }
            return Value(result);
        }
        }
    }
    const double x = a.asFloat();
    const double y = b.asFloat();
    switch (op) {
    case BinOp::Add: return Value(x + y);
    case BinOp::Sub: return Value(x - y);
    case BinOp::Mul: return Value(x * y);
    case BinOp::Div:
        if (y == 0)
            interp.fail("float division by zero");
        return Value(x / y);
    case BinOp::FloorDiv:
    case BinOp::Mod: {
        if (y == 0)
            interp.fail(op == BinOp::Mod ? "float modulo" : "float floor division by zero");
        double div = 0;
        double mod = 0;
        floatDivmod(x, y, div, mod);
        return Value(op == BinOp::Mod ? mod : div);
    }
    case BinOp::Pow:
        if (x == 0 && y < 0)
            interp.fail("0.0 cannot be raised to a negative power");
        if (x < 0 && y != std::floor(y))
            interp.fail("complex numbers are not supported (negative number to a fractional power)");
        if (const double r = std::pow(x, y); std::isinf(r) && std::isfinite(x) && std::isfinite(y))
            interp.fail("(34, 'Numerical result out of range')"); // Python's float ** overflows loudly
        else
            return Value(r);
    }
    return Value();
}

} // namespace

std::string typeName(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Undefined: return "Undefined";
    case Value::Type::Null: return "NoneType";
    case Value::Type::Bool: return "bool";
    case Value::Type::Int: return "int";
    case Value::Type::Float: return "float";
    case Value::Type::String: return v.isMarkup() ? "Markup" : "str";
    case Value::Type::Array: return "list";
    case Value::Type::Tuple: return "tuple";
    case Value::Type::Object: return "dict";
    case Value::Type::Native: {
        // The names Python reports for the engine's objects.
        const Native& n = v.asNative();
        if (const auto* seq = dynamic_cast<const SequenceObject*>(&n))
            return seq->typeName();
        if (dynamic_cast<const Namespace*>(&n))
            return "Namespace";
        if (dynamic_cast<const MacroObject*>(&n))
            return "Macro";
        if (dynamic_cast<const LoopObject*>(&n))
            return "LoopContext";
        return n.isCallable() ? "builtin_function_or_method" : "object";
    }
    }
    return "object";
}

std::string escapeHtml(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (const char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&#34;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

Value binary(Interpreter& interp, BinOp op, const Value& a, const Value& b)
{
    if (a.isUndefined())
        interp.failUndefined(a);
    // str % Undefined formats it (as ""): str.__mod__ never asks Undefined.
    if (b.isUndefined() && !(op == BinOp::Mod && a.isString()))
        interp.failUndefined(b);
    static constexpr const char* kSymbols[] = {"+", "-", "*", "/", "//", "%", "**"};
    if (a.isNumber() && b.isNumber())
        return arithmetic(interp, op, a, b);
    if (op == BinOp::Add) {
        if (a.isString() && b.isString()) {
            const std::string& x = a.asString();
            const std::string& y = b.asString();
            interp.checkSize(x.size() + y.size());
            interp.allocate(x.size() + y.size());
            // Markup escapes the plain operand (markupsafe semantics).
            if (a.isMarkup() || b.isMarkup())
                return Value::markup((a.isMarkup() ? x : escapeHtml(x)) + (b.isMarkup() ? y : escapeHtml(y)));
            return Value(x + y);
        }
        if ((a.isArray() && b.isArray()) || (a.isTuple() && b.isTuple())) {
            std::vector<Value> out = a.items();
            const auto& more = b.items();
            interp.checkItems(out.size() + more.size());
            interp.allocateItems(out.size() + more.size());
            interp.charge(static_cast<int64_t>(out.size() + more.size()) / 16);
            out.insert(out.end(), more.begin(), more.end());
            return a.isTuple() ? Value::tuple(std::move(out)) : Value::array(std::move(out));
        }
        if (a.isString())
            interp.fail("can only concatenate str (not \"" + std::string(typeName(b)) + "\") to str");
        if (a.isArray())
            interp.fail("can only concatenate list (not \"" + std::string(typeName(b)) + "\") to list");
    }
    if (op == BinOp::Mul) {
        if ((a.isString() || a.isSequence()) && isIntLike(b))
            return repeat(interp, a, b.asInt());
        if (isIntLike(a) && (b.isString() || b.isSequence()))
            return repeat(interp, b, a.asInt());
    }
    if (op == BinOp::Mod && a.isString()) {
        if (!a.isMarkup()) {
            std::string out = pystr::percentFormat(interp, a.asString(), b);
            interp.allocate(out.size());
            return Value(std::move(out));
        }
        // Markup % args escapes the arguments.
        const auto esc = [](const Value& v) {
            return v.isString() && !v.isMarkup() ? Value(escapeHtml(v.asString())) : v;
        };
        Value args = b;
        if (b.isTuple()) {
            std::vector<Value> items;
            for (const Value& v : b.items())
                items.push_back(esc(v));
            args = Value::tuple(std::move(items));
        } else {
            args = esc(b);
        }
        return Value::markup(pystr::percentFormat(interp, a.asString(), args));
    }
    unsupported(interp, kSymbols[static_cast<int>(op)], a, b);
}

Value negate(Interpreter& interp, const Value& v)
{
    if (v.isUndefined())
        interp.failUndefined(v);
    if (isIntLike(v)) {
        if (v.asInt() == INT64_MIN)
            tooLarge(interp);
        return Value(-v.asInt());
    }
    if (v.isFloat())
        return Value(-v.asFloat());
    interp.fail("bad operand type for unary -: '" + std::string(typeName(v)) + "'");
}

Value positive(Interpreter& interp, const Value& v)
{
    if (v.isUndefined())
        interp.failUndefined(v);
    if (isIntLike(v))
        return Value(v.asInt());
    if (v.isFloat())
        return v;
    interp.fail("bad operand type for unary +: '" + std::string(typeName(v)) + "'");
}

namespace {

// Python's rich comparison for ordering operators; raises between types
// that do not order.
bool order(Interpreter& interp, CmpOp op, const Value& a, const Value& b)
{
    if (a.isUndefined())
        interp.failUndefined(a);
    if (b.isUndefined())
        interp.failUndefined(b);
    const auto apply = [op](auto x, auto y) {
        switch (op) {
        case CmpOp::Lt: return x < y;
        case CmpOp::LtEq: return x <= y;
        case CmpOp::Gt: return x > y;
        default: return x >= y;
        }
    };
    if (a.isNumber() && b.isNumber()) {
        if (isIntLike(a) && isIntLike(b))
            return apply(a.asInt(), b.asInt());
        return apply(a.asFloat(), b.asFloat());
    }
    if (a.isString() && b.isString())
        return apply(a.asString().compare(b.asString()), 0);
    if ((a.isArray() && b.isArray()) || (a.isTuple() && b.isTuple())) {
        const auto& x = a.items();
        const auto& y = b.items();
        for (size_t i = 0; i < x.size() && i < y.size(); ++i)
            if (!(x[i] == y[i]))
                return order(interp, op, x[i], y[i]);
        return apply(x.size(), y.size());
    }
    static constexpr const char* kSymbols[] = {"==", "!=", "<", "<=", ">", ">="};
    interp.fail(std::string("'") + kSymbols[static_cast<int>(op)] + "' not supported between instances of '" +
                std::string(typeName(a)) + "' and '" + std::string(typeName(b)) + "'");
}

} // namespace

bool compare(Interpreter& interp, CmpOp op, const Value& a, const Value& b)
{
    switch (op) {
    case CmpOp::Eq: return a == b;
    case CmpOp::Ne: return !(a == b);
    case CmpOp::In: return contains(interp, b, a);
    case CmpOp::NotIn: return !contains(interp, b, a);
    default: return order(interp, op, a, b);
    }
}

bool less(Interpreter& interp, const Value& a, const Value& b)
{
    return order(interp, CmpOp::Lt, a, b);
}

bool contains(Interpreter& interp, const Value& container, const Value& item)
{
    switch (container.type()) {
    case Value::Type::String:
        if (!item.isString())
            interp.fail("'in <string>' requires string as left operand, not " + std::string(typeName(item)));
        return container.asString().find(item.asString()) != std::string::npos;
    case Value::Type::Array:
    case Value::Type::Tuple:
        interp.charge(static_cast<int64_t>(container.items().size()) / 16);
        for (const Value& v : container.items())
            if (v == item)
                return true;
        return false;
    case Value::Type::Object:
        if (item.isSequence() && !item.isTuple())
            interp.fail("unhashable type: 'list'");
        if (item.isObject())
            interp.fail("unhashable type: 'dict'");
        return container.asObject().find(item) != nullptr;
    case Value::Type::Undefined: return false;
    case Value::Type::Native:
        if (const auto* seq = dynamic_cast<const SequenceObject*>(&container.asNative())) {
            if (!seq->oneShot())
                return std::find(seq->all().begin(), seq->all().end(), item) != seq->all().end();
            while (std::optional<Value> v = seq->next()) // consumes up to the match, as Python does
                if (*v == item)
                    return true;
            return false;
        }
        [[fallthrough]];
    default: interp.fail("argument of type '" + std::string(typeName(container)) + "' is not iterable");
    }
}

Value index(const Value& obj, int64_t i)
{
    if (obj.isString()) {
        const std::string& s = obj.asString();
        if (unicode::isAscii(s)) {
            const int64_t n = static_cast<int64_t>(s.size());
            if (i < 0)
                i += n;
            return i >= 0 && i < n ? Value(s.substr(static_cast<size_t>(i), 1)) : Value::undefined();
        }
        const std::u32string u = unicode::decode(s);
        const int64_t n = static_cast<int64_t>(u.size());
        if (i < 0)
            i += n;
        if (i < 0 || i >= n)
            return Value::undefined();
        std::string out;
        unicode::append(out, u[static_cast<size_t>(i)]);
        return Value(std::move(out));
    }
    const auto& items = obj.items();
    const int64_t n = static_cast<int64_t>(items.size());
    if (i < 0)
        i += n;
    return i >= 0 && i < n ? items[static_cast<size_t>(i)] : Value::undefined();
}

Value slice(Interpreter& interp, const Value& obj, const Value& startV, const Value& stopV, const Value& stepV)
{
    for (const Value* v : {&startV, &stopV, &stepV})
        if (!v->isNull() && !isIntLike(*v))
            interp.fail("slice indices must be integers or None or have an __index__ method");
    const int64_t step = stepV.isNull() ? 1 : stepV.asInt();
    if (step == 0)
        interp.fail("slice step cannot be zero");
    const bool isStr = obj.isString();
    std::u32string chars;
    const bool ascii = isStr && unicode::isAscii(obj.asString());
    if (isStr && !ascii)
        chars = unicode::decode(obj.asString());
    const int64_t len =
        static_cast<int64_t>(isStr ? (ascii ? obj.asString().size() : chars.size()) : obj.items().size());
    // Python's PySlice_AdjustIndices.
    const auto adjust = [&](const Value& v, int64_t dflt) {
        if (v.isNull())
            return dflt;
        int64_t i = v.asInt();
        if (i < 0) {
            i += len;
            if (i < 0)
                i = step < 0 ? -1 : 0;
        } else if (i >= len) {
            i = step < 0 ? len - 1 : len;
        }
        return i;
    };
    const int64_t start = adjust(startV, step < 0 ? len - 1 : 0);
    const int64_t stop = adjust(stopV, step < 0 ? -1 : len);
    std::vector<int64_t> picks;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
        picks.push_back(i);
    interp.charge(static_cast<int64_t>(picks.size()) / 16);
    if (isStr) {
        std::string out;
        for (const int64_t i : picks) {
            if (ascii)
                out += obj.asString()[static_cast<size_t>(i)];
            else
                unicode::append(out, chars[static_cast<size_t>(i)]);
        }
        return obj.isMarkup() ? Value::markup(std::move(out)) : Value(std::move(out));
    }
    std::vector<Value> out;
    out.reserve(picks.size());
    for (const int64_t i : picks)
        out.push_back(obj.items()[static_cast<size_t>(i)]);
    return obj.isTuple() ? Value::tuple(std::move(out)) : Value::array(std::move(out));
}

} // namespace hearth::chat::jinja::ops
