#include "chat/jinja/objects.h"

#include "chat/jinja/builtins.h"
#include "chat/jinja/ops.h"

#include <algorithm>

namespace hearth::chat::jinja {

// ---- namespace() ------------------------------------------------------------

std::string Namespace::repr() const
{
    return "<Namespace " + Value::object(m_attrs).str() + ">";
}

Value Namespace::getAttr(std::string_view name) const
{
    if (const Value* v = m_attrs.find(name))
        return *v;
    return Value::undefined("'Namespace' object has no attribute '" + std::string(name) + "'");
}

void Namespace::set(const std::string& name, Value value) const
{
    if (value.depth() + 1 > Value::kMaxNesting)
        throw TemplateError(TemplateError::Kind::Limit,
                            "values nested more than " + std::to_string(Value::kMaxNesting) + " deep");
    m_depth = std::max(m_depth, value.depth() + 1);
    m_attrs.set(Value(name), std::move(value));
}

void Namespace::clear() const
{
    Object drop;
    std::swap(drop, m_attrs);
}

Value Namespace::make(Interpreter& interp, CallArgs& args)
{
    if (args.args.size() > 1)
        interp.fail("namespace expected at most 1 positional argument, got " + std::to_string(args.args.size()));
    auto ns = std::make_shared<Namespace>();
    if (!args.args.empty()) {
        const Value& init = args.args[0];
        if (init.isObject()) {
            for (const auto& [k, v] : init.asObject().entries())
                ns->set(k.str(), v);
        } else {
            for (const Value& pair : interp.iterate(init)) {
                std::vector<Value> storage;
                const auto& kv = interp.sequence(pair, storage);
                if (kv.size() != 2)
                    interp.fail("dictionary update sequence element has length " + std::to_string(kv.size()) +
                                "; 2 is required");
                ns->set(kv[0].str(), kv[1]);
            }
        }
    }
    for (auto& [k, v] : args.kwargs)
        ns->set(k, std::move(v));
    interp.registerNamespace(ns);
    return Value::native(ns);
}

// ---- macros -------------------------------------------------------------------

Value MacroObject::getAttr(std::string_view name) const
{
    if (name == "name")
        return Value(m_def.name);
    if (name == "arguments") {
        std::vector<Value> names;
        for (const auto& p : m_def.params)
            names.emplace_back(p.first);
        return Value::tuple(std::move(names));
    }
    if (name == "catch_kwargs")
        return Value(m_def.usesKwargs);
    if (name == "catch_varargs")
        return Value(m_def.usesVarargs);
    if (name == "caller")
        return Value(m_def.usesCaller);
    return Native::getAttr(name);
}

Value MacroObject::call(Interpreter& interp, CallArgs& args) const
{
    return interp.callMacro(m_def, m_closure, args);
}

// ---- loop ---------------------------------------------------------------------

std::string LoopObject::repr() const
{
    return "<LoopContext " + std::to_string(m_index0 + 1) + "/" + std::to_string(m_items.size()) + ">";
}

int LoopObject::nestingDepth() const
{
    int d = 1;
    for (const Value& v : m_items)
        d = std::max(d, v.depth() + 1);
    return d;
}

Value LoopObject::getAttr(std::string_view name) const
{
    const auto n = static_cast<int64_t>(m_items.size());
    const auto i = static_cast<int64_t>(m_index0);
    if (name == "index")
        return Value(i + 1);
    if (name == "index0")
        return Value(i);
    if (name == "revindex")
        return Value(n - i);
    if (name == "revindex0")
        return Value(n - i - 1);
    if (name == "first")
        return Value(i == 0);
    if (name == "last")
        return Value(i == n - 1);
    if (name == "length")
        return Value(n);
    if (name == "depth")
        return Value(m_depth0 + 1);
    if (name == "depth0")
        return Value(m_depth0);
    if (name == "previtem")
        return i > 0 ? m_items[m_index0 - 1] : Value::undefined("there is no previous item");
    if (name == "nextitem")
        return i + 1 < n ? m_items[m_index0 + 1] : Value::undefined("there is no next item");
    if (name == "cycle" || name == "changed")
        return Value::native(std::make_shared<BoundMethod>(Value::native(shared_from_this()), std::string(name)));
    return Native::getAttr(name);
}

Value LoopObject::call(Interpreter& interp, CallArgs& args) const
{
    if (!m_recursive)
        return Native::call(interp, args);
    if (args.args.size() != 1 || !args.kwargs.empty())
        interp.fail("loop() takes exactly one argument, the iterable to recurse into");
    return interp.renderLoop(*m_recursive, args.args[0], m_depth0 + 1);
}

Value LoopObject::callMethod(Interpreter& interp, std::string_view name, CallArgs& args) const
{
    if (name == "cycle") {
        if (args.args.empty())
            interp.fail("no items for cycling given");
        return args.args[m_index0 % args.args.size()];
    }
    if (m_lastChanged && *m_lastChanged == args.args)
        return Value(false);
    m_lastChanged = args.args;
    return Value(true);
}

// ---- generators, iterators, views, ranges -------------------------------------

std::vector<Value> SequenceObject::take() const
{
    if (!m_error.empty())
        throw TemplateError(TemplateError::Kind::Runtime, m_error);
    if (!oneShot())
        return m_items;
    std::vector<Value> rest(m_items.begin() + static_cast<std::ptrdiff_t>(m_pos), m_items.end());
    m_pos = m_items.size();
    return rest;
}

std::optional<Value> SequenceObject::next() const
{
    if (!m_error.empty())
        throw TemplateError(TemplateError::Kind::Runtime, m_error);
    if (m_pos >= m_items.size())
        return std::nullopt;
    return oneShot() ? m_items[m_pos++] : m_items[m_pos];
}

std::string SequenceObject::typeName() const
{
    static constexpr const char* kNames[] = {"generator",   "list_reverseiterator", "dict_keys",
                                             "dict_values", "dict_items",           "range"};
    return kNames[static_cast<int>(m_kind)];
}

std::string SequenceObject::repr() const
{
    switch (m_kind) {
    case Kind::Generator: return "<generator object " + m_label + ">";
    case Kind::Range: return "range(" + m_label + ")";
    case Kind::DictKeys:
    case Kind::DictValues:
    case Kind::DictItems: return typeName() + "(" + Value::array(m_items).str() + ")";
    default: return "<" + typeName() + " object>";
    }
}

int SequenceObject::nestingDepth() const
{
    int d = 1;
    for (const Value& v : m_items)
        d = std::max(d, v.depth() + 1);
    return d;
}

// ---- bound methods, cycler, joiner ---------------------------------------------

std::string BoundMethod::repr() const
{
    return "<built-in method " + m_name + " of " + std::string(ops::typeName(m_self)) + " object>";
}

Value BoundMethod::call(Interpreter& interp, CallArgs& args) const
{
    return callMethod(interp, m_self, m_name, args);
}

int Cycler::nestingDepth() const
{
    int d = 1;
    for (const Value& v : m_items)
        d = std::max(d, v.depth() + 1);
    return d;
}

Value Cycler::getAttr(std::string_view name) const
{
    if (name == "current")
        return m_items.empty() ? Value() : m_items[m_pos];
    if (name == "next" || name == "reset")
        return Value::native(std::make_shared<BoundMethod>(Value::native(shared_from_this()), std::string(name)));
    return Native::getAttr(name);
}

Value Cycler::callMethod(std::string_view name, CallArgs&) const
{
    if (name == "reset") {
        m_pos = 0;
        return Value();
    }
    if (m_items.empty())
        throw TemplateError(TemplateError::Kind::Runtime, "cycler has no items");
    Value current = m_items[m_pos];
    m_pos = (m_pos + 1) % m_items.size();
    return current;
}

Value Joiner::call(Interpreter&, CallArgs&) const
{
    if (!m_used) {
        m_used = true;
        return Value(std::string());
    }
    return Value(m_sep);
}

} // namespace hearth::chat::jinja
