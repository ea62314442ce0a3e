// The Jinja evaluator: renders a parsed Program against a set of variables,
// with jinja2's semantics (Python values, Undefined, scoping of loops and
// macros) inside a sandbox:
//   - only the values passed in and the built-in globals are reachable;
//     mutating methods of lists and dicts are refused as in jinja2's
//     ImmutableSandboxedEnvironment, range() is capped at 100,000 items;
//   - every evaluation step is counted (bulk work such as copying a long
//     list counts in proportion), macro calls nest at most maxCallDepth,
//     strings and the output stop at maxOutputBytes, lists at maxItems.
// Breaking a limit raises chat::TemplateError (Kind::Limit); nothing a
// template does can hang, exhaust memory or overflow the stack.
//
// An Interpreter renders once; it is not thread-safe, but any number of
// them may render the same Program at the same time.
#pragma once

#include "chat/jinja/ast.h"
#include "chat/jinja/limits.h"
#include "chat/template_error.h"
#include "chat/value.h"

#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hearth::chat::jinja {

struct RenderInput {
    std::vector<std::pair<std::string, Value>> vars; // later entries win
    // The time strftime_now() formats (calendar fields as given); the local
    // time when unset.
    std::optional<std::tm> now;
    Limits limits;
};

// Positional and keyword arguments of a call.
struct CallArgs {
    std::vector<Value> args;
    std::vector<std::pair<std::string, Value>> kwargs;

    // Removes and returns keyword `name`, if given.
    std::optional<Value> takeKwarg(std::string_view name);
};

// Binds CallArgs to a Python-style signature (positional or keyword), the
// way Python reports mistakes: unknown keywords, too many arguments, a
// parameter given twice.
class ArgBinder {
public:
    ArgBinder(CallArgs& args, std::string_view function, std::initializer_list<std::string_view> params);
    bool has(size_t i) const { return m_values[i] != nullptr; }
    Value get(size_t i, const Value& fallback) const { return m_values[i] ? *m_values[i] : fallback; }

private:
    std::vector<const Value*> m_values;
};

class Namespace;

class Interpreter {
public:
    Interpreter(const Program& program, const RenderInput& input);
    ~Interpreter();
    Interpreter(const Interpreter&) = delete;
    Interpreter& operator=(const Interpreter&) = delete;

    std::string render();

    // ---- services for filters, tests, methods and engine objects ----
    [[noreturn]] void fail(const std::string& message, TemplateError::Kind kind = TemplateError::Kind::Runtime) const;
    // Raises the error an Undefined stands for ("'x' is undefined").
    [[noreturn]] void failUndefined(const Value& undefined) const;
    // Counts work; raises when the step budget is spent.
    void charge(int64_t steps)
    {
        m_steps += steps;
        if (m_steps > m_limits.maxSteps)
            failSteps();
    }
    // Refuses a string or list about to be built with this size.
    void checkSize(size_t bytes) const;
    void checkItems(size_t count) const;
    // Counts bytes of new strings and list storage against maxAllocBytes.
    void allocate(size_t bytes)
    {
        m_allocated += bytes;
        if (m_allocated > m_limits.maxAllocBytes)
            failAllocation();
    }
    void allocateItems(size_t count) { allocate(count * sizeof(Value)); }

    Value getattr(const Value& object, std::string_view name);
    Value getitem(const Value& object, const Value& key);
    Value call(const Value& callee, CallArgs& args);
    // Python iteration: list items, dict keys, string characters; Undefined
    // iterates as empty; anything else raises.
    std::vector<Value> iterate(const Value& v);
    // The items of v without copying when v is a list or tuple.
    const std::vector<Value>& sequence(const Value& v, std::vector<Value>& storage);
    // Applies a filter or test by name (for map, select, reject...).
    Value applyFilter(std::string_view name, const Value& input, CallArgs& args);
    bool applyTest(std::string_view name, const Value& input, CallArgs& args);

    const std::tm& now() const { return m_now; }
    const Limits& limits() const { return m_limits; }
    void registerNamespace(const std::shared_ptr<Namespace>& ns) { m_namespaces.push_back(ns); }

    // Used by macro and loop objects.
    struct Scope;
    Value callMacro(const MacroDef& def, const std::shared_ptr<Scope>& closure, CallArgs& args);
    Value renderLoop(const ForStmt& loop, const Value& iterable, int depth0);

private:
    enum class Flow {
        Normal,
        Break,
        Continue
    };

    [[noreturn]] void failSteps() const;
    [[noreturn]] void failAllocation() const;
    void at(const Node& node)
    {
        m_line = node.line;
        m_column = node.column;
    }

    // statements (interpreter.cpp)
    Flow execBody(const Body& body);
    Flow exec(const Stmt& stmt);
    void write(const Value& v);
    void writeText(std::string_view text);
    Flow execIf(const IfStmt& s);
    Flow execFor(const ForStmt& s, const Value& iterable, int depth0);
    Flow execSetBlock(const SetBlockStmt& s);
    void execCallBlock(const CallBlockStmt& s);
    Flow execWith(const WithStmt& s);
    // Renders body into a string. jinja2 compiles filter, set and with
    // bodies inline, so a break/continue inside ends the enclosing loop:
    // `flow` says whether one did.
    std::string capture(const Body& body, bool scoped, Flow& flow);
    void assign(const Target& target, const Value& value);
    void assignName(int symbol, const Value& value);

    // expressions (eval.cpp)
    Value eval(const Expr& e);
    Value evalName(const NameExpr& e);
    Value evalCall(const CallExpr& e);
    Value evalFilter(const FilterExpr& e);
    bool evalTest(const TestExpr& e);
    Value evalCompare(const CompareExpr& e);
    Value evalGetitem(const GetitemExpr& e);
    void evalArgs(const ArgList& list, CallArgs& out);
    Value lookup(int symbol) const;

    const Program& m_program;
    Limits m_limits;
    std::tm m_now{};
    std::vector<Value> m_root;      // symbol → value at the template's top level
    std::shared_ptr<Scope> m_scope; // innermost scope; null at top level
    std::string* m_out = nullptr;
    std::string m_filterInput; // the body of the filter/set block being filtered
    bool m_constMode = false;  // evaluating output jinja2 would fold at compile time
    int m_loopSymbol = -1;     // symbols the engine binds itself; -1 when unused
    int m_callerSymbol = -1;
    int m_varargsSymbol = -1;
    int m_kwargsSymbol = -1;
    int64_t m_steps = 0;
    size_t m_allocated = 0;
    size_t m_savedPrintLimit = 0;
    int m_callDepth = 0;
    int m_line = 0;
    int m_column = 0;
    std::vector<std::shared_ptr<Namespace>> m_namespaces;
};

} // namespace hearth::chat::jinja
