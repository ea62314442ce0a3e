// Expressions of the evaluator, and the sandboxed attribute / item / call
// protocol jinja2's ImmutableSandboxedEnvironment defines:
//   obj.name  — a method of str/list/dict first, then the dict key;
//   obj[key]  — the item first, then (for string keys) the attribute;
// a missing attribute or item is Undefined (an error only when used), and a
// method that would mutate a list or dict is an Undefined that raises when
// called.

#include "chat/jinja/builtins.h"
#include "chat/jinja/interpreter.h"
#include "chat/jinja/objects.h"
#include "chat/jinja/ops.h"
#include "chat/unicode.h"

namespace hearth::chat::jinja {

namespace {

std::string objectTypeRepr(const Value& v)
{
    if (v.isNull())
        return "None";
    return std::string(ops::typeName(v)) + " object";
}

Value noAttribute(const Value& obj, std::string_view name)
{
    return Value::undefined("'" + objectTypeRepr(obj) + "' has no attribute '" + std::string(name) + "'");
}

Value methodOrUndefined(const Value& obj, std::string_view name)
{
    switch (methodKind(obj, name)) {
    case MethodKind::Safe: return Value::native(std::make_shared<BoundMethod>(obj, std::string(name)));
    case MethodKind::Unsafe:
        return Value::undefined("access to attribute '" + std::string(name) + "' of '" +
                                std::string(ops::typeName(obj)) + "' object is unsafe.");
    case MethodKind::None: break;
    }
    return Value::undefined();
}

} // namespace

Value Interpreter::getattr(const Value& obj, std::string_view name)
{
    switch (obj.type()) {
    case Value::Type::Undefined: failUndefined(obj);
    case Value::Type::Native: return obj.asNative().getAttr(name);
    case Value::Type::String:
    case Value::Type::Array:
    case Value::Type::Tuple:
    case Value::Type::Object: {
        Value m = methodOrUndefined(obj, name);
        if (!m.isUndefined() || !m.undefinedHint().empty())
            return m;
        if (obj.isObject())
            if (const Value* v = obj.asObject().find(name))
                return *v;
        if (obj.isGroupTuple() && (name == "grouper" || name == "list"))
            return obj.items()[name == "grouper" ? 0 : 1];
        return noAttribute(obj, name);
    }
    default: return noAttribute(obj, name);
    }
}

Value Interpreter::getitem(const Value& obj, const Value& key)
{
    switch (obj.type()) {
    case Value::Type::Undefined: failUndefined(obj);
    case Value::Type::String:
    case Value::Type::Array:
    case Value::Type::Tuple:
        if (key.isInt() || key.isBool()) {
            Value v = ops::index(obj, key.asInt());
            return v.isUndefined() ? noAttribute(obj, key.str()) : v;
        }
        break;
    case Value::Type::Object:
        if (!key.isArray() && !key.isObject())
            if (const Value* v = obj.asObject().find(key))
                return *v;
        break;
    case Value::Type::Native: {
        if (key.isString())
            return obj.asNative().getAttr(key.asString());
        const auto* seq = dynamic_cast<const SequenceObject*>(&obj.asNative());
        if (seq && seq->kind() == SequenceObject::Kind::Range && (key.isInt() || key.isBool()))
            return ops::index(Value::array(seq->all()), key.asInt());
        return Value::undefined("'" + obj.asNative().repr() + "' object is not subscriptable");
    }
    default: break;
    }
    if (key.isString()) {
        // The item is missing: jinja2 then tries the attribute.
        const std::string& name = key.asString();
        Value m = methodOrUndefined(obj, name);
        if (!m.isUndefined() || !m.undefinedHint().empty())
            return m;
        if (obj.isGroupTuple() && (name == "grouper" || name == "list"))
            return obj.items()[name == "grouper" ? 0 : 1];
    }
    return noAttribute(obj, key.str());
}

Value Interpreter::call(const Value& callee, CallArgs& args)
{
    if (callee.isNative() && callee.asNative().isCallable())
        return callee.asNative().call(*this, args);
    if (callee.isUndefined())
        failUndefined(callee);
    fail("'" + std::string(ops::typeName(callee)) + "' object is not callable");
}

std::vector<Value> Interpreter::iterate(const Value& v)
{
    switch (v.type()) {
    case Value::Type::Array:
    case Value::Type::Tuple:
        charge(static_cast<int64_t>(v.items().size()) / 16);
        allocateItems(v.items().size());
        return v.items();
    case Value::Type::Object: {
        std::vector<Value> keys;
        keys.reserve(v.asObject().size());
        for (const auto& [k, value] : v.asObject().entries())
            keys.push_back(k);
        return keys;
    }
    case Value::Type::String: {
        std::vector<Value> chars;
        const std::string& s = v.asString();
        charge(static_cast<int64_t>(s.size()) / 16);
        for (size_t pos = 0; pos < s.size();) {
            const size_t at = pos;
            unicode::next(s, pos);
            chars.emplace_back(s.substr(at, pos - at));
        }
        return chars;
    }
    case Value::Type::Undefined: return {};
    case Value::Type::Native:
        if (const auto* seq = dynamic_cast<const SequenceObject*>(&v.asNative())) {
            charge(static_cast<int64_t>(seq->length()) / 16);
            allocateItems(seq->length());
            return seq->take();
        }
        [[fallthrough]];
    default: fail("'" + std::string(ops::typeName(v)) + "' object is not iterable");
    }
}

const std::vector<Value>& Interpreter::sequence(const Value& v, std::vector<Value>& storage)
{
    if (v.isSequence())
        return v.items();
    storage = iterate(v);
    return storage;
}

Value Interpreter::applyFilter(std::string_view name, const Value& input, CallArgs& args)
{
    const FilterFn fn = findFilter(name);
    if (!fn)
        fail("No filter named '" + std::string(name) + "' found.");
    return fn(*this, input, args);
}

bool Interpreter::applyTest(std::string_view name, const Value& input, CallArgs& args)
{
    const TestFn fn = findTest(name);
    if (!fn)
        fail("No test named '" + std::string(name) + "' found.");
    return fn(*this, input, args);
}

Value Interpreter::eval(const Expr& e)
{
    charge(1);
    switch (e.kind) {
    case ExprKind::Const: return static_cast<const ConstExpr&>(e).value;
    case ExprKind::Name: return lookup(static_cast<const NameExpr&>(e).symbol);
    case ExprKind::List:
    case ExprKind::Tuple: {
        std::vector<Value> items;
        const auto& seq = static_cast<const SeqExpr&>(e);
        allocateItems(seq.items.size());
        items.reserve(seq.items.size());
        for (const ExprPtr& x : seq.items)
            items.push_back(eval(*x));
        at(e);
        return e.kind == ExprKind::List ? Value::array(std::move(items)) : Value::tuple(std::move(items));
    }
    case ExprKind::Dict: {
        Object obj;
        for (const auto& [k, v] : static_cast<const DictExpr&>(e).items) {
            Value key = eval(*k);
            Value value = eval(*v);
            if (key.isArray() || key.isObject() || key.isUndefined() || key.isNative()) {
                at(*k);
                fail("unhashable type: '" + std::string(ops::typeName(key)) + "'");
            }
            obj.set(std::move(key), std::move(value));
        }
        at(e);
        return Value::object(std::move(obj));
    }
    case ExprKind::Getattr: {
        const auto& g = static_cast<const GetattrExpr&>(e);
        const Value obj = eval(*g.object);
        at(e);
        return getattr(obj, g.name);
    }
    case ExprKind::Getitem: return evalGetitem(static_cast<const GetitemExpr&>(e));
    case ExprKind::Slice: at(e); fail("a slice can only be used as a subscript");
    case ExprKind::Call: return evalCall(static_cast<const CallExpr&>(e));
    case ExprKind::Filter: return evalFilter(static_cast<const FilterExpr&>(e));
    case ExprKind::Test: return Value(evalTest(static_cast<const TestExpr&>(e)));
    case ExprKind::Not: return Value(!eval(*static_cast<const UnaryExpr&>(e).operand).truthy());
    case ExprKind::Neg:
    case ExprKind::Pos: {
        const Value v = eval(*static_cast<const UnaryExpr&>(e).operand);
        at(e);
        return e.kind == ExprKind::Neg ? ops::negate(*this, v) : ops::positive(*this, v);
    }
    case ExprKind::Binary: {
        const auto& b = static_cast<const BinaryExpr&>(e);
        const Value left = eval(*b.left);
        const Value right = eval(*b.right);
        at(e);
        return ops::binary(*this, b.op, left, right);
    }
    case ExprKind::And:
    case ExprKind::Or: {
        const auto& b = static_cast<const BinaryExpr&>(e);
        Value left = eval(*b.left);
        if (left.truthy() == (e.kind == ExprKind::Or))
            return left;
        return eval(*b.right);
    }
    case ExprKind::Concat: {
        std::string out;
        for (const ExprPtr& x : static_cast<const ConcatExpr&>(e).items) {
            const Value v = eval(*x);
            if (v.isString())
                out += v.asString();
            else
                out += v.str();
            checkSize(out.size());
        }
        allocate(out.size());
        return Value(std::move(out));
    }
    case ExprKind::Compare: return evalCompare(static_cast<const CompareExpr&>(e));
    case ExprKind::CondExpr: {
        const auto& c = static_cast<const CondExpr&>(e);
        if (eval(*c.test).truthy())
            return eval(*c.then);
        if (c.otherwise)
            return eval(*c.otherwise);
        return Value::undefined("the inline if-expression on line " + std::to_string(e.line) +
                                " evaluated to false and no else section was defined.");
    }
    }
    return Value();
}

Value Interpreter::evalGetitem(const GetitemExpr& e)
{
    const Value obj = eval(*e.object);
    if (e.index->kind == ExprKind::Slice) {
        const auto& s = static_cast<const SliceExpr&>(*e.index);
        const Value start = s.start ? eval(*s.start) : Value();
        const Value stop = s.stop ? eval(*s.stop) : Value();
        const Value step = s.step ? eval(*s.step) : Value();
        at(e);
        // jinja2 slices with Python's obj[a:b:c] directly, bypassing the
        // sandbox's forgiving getitem: anything not sliceable raises.
        if (obj.isUndefined())
            failUndefined(obj);
        if (obj.isNative())
            if (const auto* seq = dynamic_cast<const SequenceObject*>(&obj.asNative());
                seq && seq->kind() == SequenceObject::Kind::Range)
                return ops::slice(*this, Value::array(seq->all()), start, stop, step);
        if (!obj.isString() && !obj.isSequence()) {
            if (m_constMode)
                return Value::undefined("'" + objectTypeRepr(obj) + "' is not subscriptable");
            fail("'" + std::string(ops::typeName(obj)) + "' object is not subscriptable");
        }
        return ops::slice(*this, obj, start, stop, step);
    }
    const Value key = eval(*e.index);
    at(e);
    return getitem(obj, key);
}

void Interpreter::evalArgs(const ArgList& list, CallArgs& out)
{
    out.args.reserve(list.args.size());
    for (const ExprPtr& a : list.args)
        out.args.push_back(eval(*a));
    if (list.dynArgs) {
        const Value extra = eval(*list.dynArgs);
        at(*list.dynArgs);
        for (Value& v : iterate(extra))
            out.args.push_back(std::move(v));
    }
    for (const auto& [name, expr] : list.kwargs)
        out.kwargs.emplace_back(name, eval(*expr));
    if (list.dynKwargs) {
        const Value extra = eval(*list.dynKwargs);
        at(*list.dynKwargs);
        if (!extra.isObject())
            fail("argument after ** must be a mapping, not " + std::string(ops::typeName(extra)));
        for (const auto& [k, v] : extra.asObject().entries()) {
            if (!k.isString())
                fail("keywords must be strings");
            out.kwargs.emplace_back(k.asString(), v);
        }
    }
}

Value Interpreter::evalCall(const CallExpr& e)
{
    Value callee;
    if (e.callee->kind == ExprKind::Getattr) {
        // obj.method(...) without building a bound method first.
        const auto& g = static_cast<const GetattrExpr&>(*e.callee);
        const Value obj = eval(*g.object);
        at(e);
        if ((obj.isString() || obj.isSequence() || obj.isObject()) && methodKind(obj, g.name) == MethodKind::Safe) {
            CallArgs args;
            evalArgs(e.args, args);
            at(e);
            return callMethod(*this, obj, g.name, args);
        }
        callee = getattr(obj, g.name);
    } else {
        callee = eval(*e.callee);
    }
    CallArgs args;
    evalArgs(e.args, args);
    at(e);
    return call(callee, args);
}

Value Interpreter::evalFilter(const FilterExpr& e)
{
    const Value input = e.input ? eval(*e.input) : Value(m_filterInput);
    CallArgs args;
    evalArgs(e.args, args);
    at(e);
    if (!e.fn)
        fail("No filter named '" + e.name + "'.");
    return e.fn(*this, input, args);
}

bool Interpreter::evalTest(const TestExpr& e)
{
    const Value input = eval(*e.input);
    CallArgs args;
    evalArgs(e.args, args);
    at(e);
    if (!e.fn)
        fail("No test named '" + e.name + "'.");
    return e.fn(*this, input, args);
}

Value Interpreter::evalCompare(const CompareExpr& e)
{
    Value left = eval(*e.first);
    for (const auto& [op, expr] : e.ops) {
        Value right = eval(*expr);
        at(e);
        if (!ops::compare(*this, op, left, right))
            return Value(false);
        left = std::move(right);
    }
    return Value(true);
}

} // namespace hearth::chat::jinja
