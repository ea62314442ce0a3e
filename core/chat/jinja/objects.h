// Engine objects a template can hold but that are not data: macros,
// `loop`, namespace(), cycler(), joiner(), built-in functions and bound
// methods of str/list/dict. Internal to the engine.
#pragma once

#include "chat/jinja/interpreter.h"
#include "chat/value.h"

#include <memory>
#include <optional>
#include <string>

namespace hearth::chat::jinja {

// namespace(): the one mutable object of the sandbox (`set ns.x = ...`).
class Namespace : public Native {
public:
    std::string repr() const override;
    Value getAttr(std::string_view name) const override;
    int nestingDepth() const override { return m_depth; }
    void set(const std::string& name, Value value) const;
    // Drops every attribute (at the end of a render, to break cycles).
    void clear() const;
    static Value make(Interpreter& interp, CallArgs& args);

private:
    mutable Object m_attrs;
    mutable int m_depth = 1;
};

class MacroObject : public Native {
public:
    MacroObject(const MacroDef& def, std::shared_ptr<Interpreter::Scope> closure)
        : m_def(def), m_closure(std::move(closure))
    {
    }
    std::string repr() const override { return "<Macro '" + m_def.name + "'>"; }
    Value getAttr(std::string_view name) const override;
    bool isCallable() const override { return true; }
    Value call(Interpreter& interp, CallArgs& args) const override;

private:
    const MacroDef& m_def; // owned by the Program, which outlives every render
    std::shared_ptr<Interpreter::Scope> m_closure;
};

// The `loop` variable of a for loop.
class LoopObject : public Native, public std::enable_shared_from_this<LoopObject> {
public:
    LoopObject(std::vector<Value> items, int depth0, const ForStmt* recursive)
        : m_items(std::move(items)), m_depth0(depth0), m_recursive(recursive)
    {
    }
    const std::vector<Value>& items() const { return m_items; }
    void setIndex(size_t index0) const { m_index0 = index0; }
    std::string repr() const override;
    Value getAttr(std::string_view name) const override;
    bool isCallable() const override { return m_recursive != nullptr; }
    Value call(Interpreter& interp, CallArgs& args) const override;
    int nestingDepth() const override;
    // loop.cycle(...) and loop.changed(...)
    Value callMethod(Interpreter& interp, std::string_view name, CallArgs& args) const;

private:
    std::vector<Value> m_items;
    int m_depth0;
    const ForStmt* m_recursive;
    mutable size_t m_index0 = 0;
    mutable std::optional<std::vector<Value>> m_lastChanged;
};

using BuiltinFn = Value (*)(Interpreter&, CallArgs&);

// range, dict, namespace, cycler, joiner, raise_exception, strftime_now.
class BuiltinFunction : public Native {
public:
    BuiltinFunction(std::string name, BuiltinFn fn) : m_name(std::move(name)), m_fn(fn) {}
    std::string repr() const override { return "<built-in function " + m_name + ">"; }
    bool isCallable() const override { return true; }
    Value call(Interpreter& interp, CallArgs& args) const override { return m_fn(interp, args); }

private:
    std::string m_name;
    BuiltinFn m_fn;
};

// `obj.method` looked up without being called right away.
class BoundMethod : public Native {
public:
    BoundMethod(Value self, std::string name) : m_self(std::move(self)), m_name(std::move(name)) {}
    std::string repr() const override;
    bool isCallable() const override { return true; }
    int nestingDepth() const override { return m_self.depth() + 1; }
    Value call(Interpreter& interp, CallArgs& args) const override;

private:
    Value m_self;
    std::string m_name;
};

// What Python returns instead of a list from some filters and methods:
// generators (map, select, unique, ... — one pass, no len(), always true),
// reverse and item iterators, dict views (keys(), items()) and range().
// They iterate like lists but differ where Python differs: tojson refuses
// them, generators have no length and are empty once consumed, only ranges
// can be indexed.
class SequenceObject : public Native {
public:
    enum class Kind {
        Generator,       // "generator" (map, select, reject, unique, items, batch, slice)
        ReverseIterator, // "list_reverseiterator" (reverse)
        DictKeys,        // "dict_keys"
        DictValues,      // "dict_values"
        DictItems,       // "dict_items"
        Range,           // "range"
    };
    SequenceObject(Kind kind, std::vector<Value> items, std::string label = {})
        : m_kind(kind), m_items(std::move(items)), m_label(std::move(label))
    {
    }
    static Value make(Kind kind, std::vector<Value> items, std::string label = {})
    {
        return Value::native(std::make_shared<SequenceObject>(kind, std::move(items), std::move(label)));
    }
    // A generator whose body failed: Python raises only when it is iterated,
    // so the error waits until then.
    static Value failed(std::string label, std::string error)
    {
        auto g = std::make_shared<SequenceObject>(Kind::Generator, std::vector<Value>{}, std::move(label));
        g->m_error = std::move(error);
        return Value::native(g);
    }
    Kind kind() const { return m_kind; }
    bool oneShot() const { return m_kind <= Kind::ReverseIterator; }
    bool hasLength() const { return !oneShot(); }
    size_t length() const { return m_items.size(); }
    const std::vector<Value>& all() const { return m_items; }
    // The items not consumed yet; an iterator is exhausted afterwards.
    std::vector<Value> take() const;
    // The next item of an iterator, if any (|first).
    std::optional<Value> next() const;
    std::string typeName() const;
    std::string repr() const override;
    bool truthy() const override { return oneShot() || !m_items.empty(); }
    int nestingDepth() const override;

private:
    Kind m_kind;
    std::vector<Value> m_items;
    std::string m_label; // the generator's function, or range's "start, stop[, step]"
    std::string m_error; // raised when iterated
    mutable size_t m_pos = 0;
};

class Cycler : public Native, public std::enable_shared_from_this<Cycler> {
public:
    explicit Cycler(std::vector<Value> items) : m_items(std::move(items)) {}
    std::string repr() const override { return "<Cycler>"; }
    Value getAttr(std::string_view name) const override;
    int nestingDepth() const override;
    Value callMethod(std::string_view name, CallArgs& args) const;

private:
    std::vector<Value> m_items;
    mutable size_t m_pos = 0;
};

class Joiner : public Native {
public:
    explicit Joiner(std::string sep) : m_sep(std::move(sep)) {}
    std::string repr() const override { return "<Joiner>"; }
    bool isCallable() const override { return true; }
    Value call(Interpreter& interp, CallArgs& args) const override;

private:
    std::string m_sep;
    mutable bool m_used = false;
};

} // namespace hearth::chat::jinja
