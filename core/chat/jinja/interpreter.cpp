// Statements of the evaluator, scoping and the sandbox's bookkeeping.
// Expressions are in eval.cpp.
//
// Scoping follows jinja2: the template's top level is one flat namespace
// (m_root, indexed by symbol); every for-loop iteration, macro call, `with`,
// set block and filter block gets a fresh Scope whose parent is the scope it
// was written in, so assignments inside never leak out (namespace() exists
// for that), while reads fall through to the enclosing scopes.

#include "chat/jinja/interpreter.h"

#include "chat/jinja/builtins.h"
#include "chat/jinja/objects.h"

#include <algorithm>

namespace hearth::chat::jinja {

struct Interpreter::Scope {
    std::shared_ptr<Scope> parent; // null: the template's top level
    std::vector<std::pair<int, Value>> vars;
};

namespace {

// Restores the interpreter's scope (or output buffer) when leaving a block,
// also when an error unwinds it.
template <typename T>
class Restore {
public:
    explicit Restore(T& slot) : m_slot(slot), m_saved(slot) {}
    ~Restore() { m_slot = std::move(m_saved); }
    Restore(const Restore&) = delete;
    Restore& operator=(const Restore&) = delete;

private:
    T& m_slot;
    T m_saved;
};

int findSymbol(const Program& p, std::string_view name)
{
    const auto it = std::find(p.symbols.begin(), p.symbols.end(), name);
    return it == p.symbols.end() ? -1 : static_cast<int>(it - p.symbols.begin());
}

bool isConstantArgs(const ArgList& a);

// Whether jinja2 can evaluate e when compiling (Expr.as_const): literals and
// operators, tests and pure filters over them; never names or calls.
bool isConstant(const Expr& e)
{
    switch (e.kind) {
    case ExprKind::Const: return true;
    case ExprKind::Concat:
        for (const ExprPtr& x : static_cast<const ConcatExpr&>(e).items)
            if (!isConstant(*x))
                return false;
        return true;
    case ExprKind::CondExpr: {
        const auto& c = static_cast<const CondExpr&>(e);
        return isConstant(*c.test) && isConstant(*c.then) && (!c.otherwise || isConstant(*c.otherwise));
    }
    case ExprKind::Test: {
        const auto& t = static_cast<const TestExpr&>(e);
        return isConstant(*t.input) && isConstantArgs(t.args);
    }
    case ExprKind::Filter: {
        // Filters that need the render context are not folded.
        const auto& f = static_cast<const FilterExpr&>(e);
        static constexpr std::string_view kContextual[] = {"map",        "select",     "reject",
                                                           "selectattr", "rejectattr", "random"};
        for (const std::string_view c : kContextual)
            if (f.name == c)
                return false;
        return f.input && isConstant(*f.input) && isConstantArgs(f.args);
    }
    case ExprKind::Dict:
        for (const auto& [k, v] : static_cast<const DictExpr&>(e).items)
            if (!isConstant(*k) || !isConstant(*v))
                return false;
        return true;
    case ExprKind::Getattr: return isConstant(*static_cast<const GetattrExpr&>(e).object);
    case ExprKind::Getitem: {
        const auto& g = static_cast<const GetitemExpr&>(e);
        return isConstant(*g.object) && isConstant(*g.index);
    }
    case ExprKind::Slice: {
        const auto& s = static_cast<const SliceExpr&>(e);
        return (!s.start || isConstant(*s.start)) && (!s.stop || isConstant(*s.stop)) &&
               (!s.step || isConstant(*s.step));
    }
    case ExprKind::List:
    case ExprKind::Tuple:
        for (const ExprPtr& x : static_cast<const SeqExpr&>(e).items)
            if (!isConstant(*x))
                return false;
        return true;
    case ExprKind::Not:
    case ExprKind::Neg:
    case ExprKind::Pos: return isConstant(*static_cast<const UnaryExpr&>(e).operand);
    case ExprKind::Binary:
    case ExprKind::And:
    case ExprKind::Or: {
        const auto& b = static_cast<const BinaryExpr&>(e);
        return isConstant(*b.left) && isConstant(*b.right);
    }
    case ExprKind::Compare: {
        const auto& c = static_cast<const CompareExpr&>(e);
        for (const auto& op : c.ops)
            if (!isConstant(*op.second))
                return false;
        return isConstant(*c.first);
    }
    default: return false;
    }
}

bool isConstantArgs(const ArgList& a)
{
    if (a.dynArgs || a.dynKwargs)
        return false;
    for (const ExprPtr& x : a.args)
        if (!isConstant(*x))
            return false;
    for (const auto& kw : a.kwargs)
        if (!isConstant(*kw.second))
            return false;
    return true;
}

} // namespace

std::optional<Value> CallArgs::takeKwarg(std::string_view name)
{
    for (auto it = kwargs.begin(); it != kwargs.end(); ++it) {
        if (it->first == name) {
            Value v = std::move(it->second);
            kwargs.erase(it);
            return v;
        }
    }
    return std::nullopt;
}

ArgBinder::ArgBinder(CallArgs& args, std::string_view function, std::initializer_list<std::string_view> params)
    : m_values(params.size(), nullptr)
{
    const std::string fn(function);
    if (args.args.size() > params.size())
        throw TemplateError(TemplateError::Kind::Runtime, fn + "() takes at most " + std::to_string(params.size()) +
                                                              " arguments (" + std::to_string(args.args.size()) +
                                                              " given)");
    for (size_t i = 0; i < args.args.size(); ++i)
        m_values[i] = &args.args[i];
    for (const auto& [key, value] : args.kwargs) {
        const auto it = std::find(params.begin(), params.end(), key);
        if (it == params.end())
            throw TemplateError(TemplateError::Kind::Runtime,
                                fn + "() got an unexpected keyword argument '" + key + "'");
        const size_t i = static_cast<size_t>(it - params.begin());
        if (m_values[i])
            throw TemplateError(TemplateError::Kind::Runtime, fn + "() got multiple values for argument '" + key + "'");
        m_values[i] = &value;
    }
}

Interpreter::Interpreter(const Program& program, const RenderInput& input) : m_program(program), m_limits(input.limits)
{
    if (input.now) {
        m_now = *input.now;
    } else {
        const std::time_t t = std::time(nullptr);
#ifdef _WIN32
        localtime_s(&m_now, &t);
#else
        localtime_r(&t, &m_now);
#endif
    }
    m_root.resize(program.symbols.size());
    for (size_t i = 0; i < program.symbols.size(); ++i) {
        const std::string& name = program.symbols[i];
        const auto it =
            std::find_if(input.vars.rbegin(), input.vars.rend(), [&](const auto& kv) { return kv.first == name; });
        if (it != input.vars.rend()) {
            m_root[i] = it->second;
            continue;
        }
        m_root[i] = findGlobal(name);
        if (m_root[i].isUndefined())
            m_root[i] = Value::undefined("'" + name + "' is undefined");
    }
    m_savedPrintLimit = setPrintLimit(m_limits.maxOutputBytes);
    m_loopSymbol = findSymbol(program, "loop");
    m_callerSymbol = findSymbol(program, "caller");
    m_varargsSymbol = findSymbol(program, "varargs");
    m_kwargsSymbol = findSymbol(program, "kwargs");
}

Interpreter::~Interpreter()
{
    // Namespaces are the only objects that can form cycles or long chains;
    // emptying them lets everything else be freed without deep recursion.
    for (const auto& ns : m_namespaces)
        ns->clear();
    setPrintLimit(m_savedPrintLimit);
}

std::string Interpreter::render()
{
    std::string out;
    m_out = &out;
    try {
        execBody(m_program.body);
    } catch (const TemplateError& e) {
        if (e.line() > 0 || m_line == 0)
            throw;
        throw TemplateError(e.kind(), e.detail(), m_line, m_column);
    }
    m_out = nullptr;
    return out;
}

void Interpreter::fail(const std::string& message, TemplateError::Kind kind) const
{
    throw TemplateError(kind, message, m_line, m_column);
}

void Interpreter::failUndefined(const Value& undefined) const
{
    const std::string& hint = undefined.undefinedHint();
    fail(hint.empty() ? "value is undefined" : hint);
}

void Interpreter::failSteps() const
{
    fail("the template ran for more than " + std::to_string(m_limits.maxSteps) +
             " steps (endless loop or runaway recursion?)",
         TemplateError::Kind::Limit);
}

void Interpreter::failAllocation() const
{
    fail("the template built more than " + std::to_string(m_limits.maxAllocBytes >> 20) +
             " MiB of strings and lists (runaway growth?)",
         TemplateError::Kind::Limit);
}

void Interpreter::checkSize(size_t bytes) const
{
    if (bytes > m_limits.maxOutputBytes)
        fail("a string would grow to more than " + std::to_string(m_limits.maxOutputBytes) + " bytes",
             TemplateError::Kind::Limit);
}

void Interpreter::checkItems(size_t count) const
{
    if (count > m_limits.maxItems)
        fail("a list would grow to more than " + std::to_string(m_limits.maxItems) + " items",
             TemplateError::Kind::Limit);
}

Value Interpreter::lookup(int symbol) const
{
    for (const Scope* s = m_scope.get(); s; s = s->parent.get())
        for (const auto& [sym, value] : s->vars)
            if (sym == symbol)
                return value;
    return m_root[static_cast<size_t>(symbol)];
}

void Interpreter::assignName(int symbol, const Value& value)
{
    if (!m_scope) {
        m_root[static_cast<size_t>(symbol)] = value;
        return;
    }
    for (auto& [sym, v] : m_scope->vars) {
        if (sym == symbol) {
            v = value;
            return;
        }
    }
    m_scope->vars.emplace_back(symbol, value);
}

void Interpreter::assign(const Target& target, const Value& value)
{
    switch (target.kind) {
    case Target::Kind::Name: assignName(target.symbol, value); return;
    case Target::Kind::NamespaceAttr: {
        const Value ns = lookup(target.symbol);
        const auto* obj = ns.isNative() ? dynamic_cast<const Namespace*>(&ns.asNative()) : nullptr;
        if (!obj) {
            at(target);
            fail("cannot assign attribute on non-namespace object");
        }
        obj->set(target.attr, value);
        return;
    }
    case Target::Kind::Tuple: {
        std::vector<Value> storage;
        const std::vector<Value>& items = sequence(value, storage);
        const size_t n = target.items.size();
        if (items.size() != n) {
            at(target);
            fail(items.size() < n ? "not enough values to unpack (expected " + std::to_string(n) + ", got " +
                                        std::to_string(items.size()) + ")"
                                  : "too many values to unpack (expected " + std::to_string(n) + ")");
        }
        for (size_t i = 0; i < n; ++i)
            assign(target.items[i], items[i]);
        return;
    }
    }
}

void Interpreter::writeText(std::string_view text)
{
    m_out->append(text);
    if (m_out->size() > m_limits.maxOutputBytes)
        fail("the output grew past " + std::to_string(m_limits.maxOutputBytes) + " bytes", TemplateError::Kind::Limit);
}

void Interpreter::write(const Value& v)
{
    if (v.isString())
        writeText(v.asString());
    else if (!v.isUndefined())
        writeText(v.str());
}

Interpreter::Flow Interpreter::execBody(const Body& body)
{
    for (const StmtPtr& s : body) {
        const Flow f = exec(*s);
        if (f != Flow::Normal)
            return f;
    }
    return Flow::Normal;
}

Interpreter::Flow Interpreter::exec(const Stmt& s)
{
    charge(1);
    switch (s.kind) {
    case StmtKind::Text: writeText(static_cast<const TextStmt&>(s).text); break;
    case StmtKind::Print: {
        const Expr& expr = *static_cast<const PrintStmt&>(s).expr;
        if (isConstant(expr)) {
            // jinja2 computes constant output when compiling, where slicing
            // something unsliceable gives Undefined instead of raising; when
            // that evaluation fails it evaluates at run time instead.
            try {
                Restore<bool> restore(m_constMode);
                m_constMode = true;
                write(eval(expr));
                break;
            } catch (const TemplateError& e) {
                if (e.kind() == TemplateError::Kind::Limit)
                    throw;
            }
        }
        write(eval(expr));
        break;
    }
    case StmtKind::If: return execIf(static_cast<const IfStmt&>(s));
    case StmtKind::For: {
        const auto& f = static_cast<const ForStmt&>(s);
        const Value iterable = eval(*f.iter);
        at(f);
        execFor(f, iterable, 0);
        break;
    }
    case StmtKind::Set: {
        const auto& set = static_cast<const SetStmt&>(s);
        assign(set.target, eval(*set.value));
        break;
    }
    case StmtKind::SetBlock: return execSetBlock(static_cast<const SetBlockStmt&>(s));
    case StmtKind::Macro: {
        const auto& m = static_cast<const MacroStmt&>(s);
        assignName(m.symbol, Value::native(std::make_shared<MacroObject>(*m.def, m_scope)));
        break;
    }
    case StmtKind::CallBlock: execCallBlock(static_cast<const CallBlockStmt&>(s)); break;
    case StmtKind::FilterBlock: {
        const auto& fb = static_cast<const FilterBlockStmt&>(s);
        Flow flow = Flow::Normal;
        std::string body = capture(fb.body, true, flow);
        if (flow != Flow::Normal)
            return flow;
        Restore<std::string> input(m_filterInput);
        m_filterInput = std::move(body);
        write(eval(*fb.filter));
        break;
    }
    case StmtKind::With: return execWith(static_cast<const WithStmt&>(s));
    case StmtKind::Break: return Flow::Break;
    case StmtKind::Continue: return Flow::Continue;
    case StmtKind::Body: {
        Flow flow = Flow::Normal;
        writeText(capture(static_cast<const BodyStmt&>(s).body, true, flow));
        return flow; // only autoescape blocks may hold a break; they run inline
    }
    case StmtKind::Unsupported: at(s); fail(static_cast<const UnsupportedStmt&>(s).message);
    }
    return Flow::Normal;
}

Interpreter::Flow Interpreter::execIf(const IfStmt& s)
{
    for (const auto& [test, body] : s.branches)
        if (eval(*test).truthy())
            return execBody(body);
    return execBody(s.otherwise);
}

Interpreter::Flow Interpreter::execFor(const ForStmt& s, const Value& iterable, int depth0)
{
    std::vector<Value> items = iterate(iterable);
    Restore<std::shared_ptr<Scope>> restore(m_scope);
    const std::shared_ptr<Scope> outer = m_scope;
    if (s.filter) {
        std::vector<Value> kept;
        for (Value& item : items) {
            m_scope = std::make_shared<Scope>(Scope{outer, {}});
            assign(s.target, item);
            if (eval(*s.filter).truthy())
                kept.push_back(std::move(item));
        }
        items = std::move(kept);
    }
    if (items.empty()) {
        m_scope = std::make_shared<Scope>(Scope{outer, {}});
        return execBody(s.otherwise);
    }
    const auto loop = std::make_shared<LoopObject>(std::move(items), depth0, s.recursive ? &s : nullptr);
    const Value loopValue = Value::native(loop);
    const std::vector<Value>& seq = loop->items();
    std::shared_ptr<Scope> scope;
    for (size_t i = 0; i < seq.size(); ++i) {
        charge(1);
        // Each iteration starts from a fresh scope; reuse the last one's
        // storage unless a macro defined in it still holds it.
        if (!scope || scope.use_count() > 2)
            scope = std::make_shared<Scope>(Scope{outer, {}});
        else
            scope->vars.clear();
        m_scope = scope;
        loop->setIndex(i);
        if (m_loopSymbol >= 0)
            m_scope->vars.emplace_back(m_loopSymbol, loopValue);
        assign(s.target, seq[i]);
        if (execBody(s.body) == Flow::Break)
            break;
    }
    return Flow::Normal;
}

Value Interpreter::renderLoop(const ForStmt& loop, const Value& iterable, int depth0)
{
    // loop(...) recurses like a macro call, and is bounded the same way.
    if (m_callDepth >= m_limits.maxCallDepth)
        fail("recursive loops nested more than " + std::to_string(m_limits.maxCallDepth) + " deep",
             TemplateError::Kind::Limit);
    ++m_callDepth;
    std::string out;
    {
        Restore<std::string*> restore(m_out);
        m_out = &out;
        execFor(loop, iterable, depth0);
    }
    --m_callDepth;
    return Value(std::move(out));
}

std::string Interpreter::capture(const Body& body, bool scoped, Flow& flow)
{
    std::string out;
    Restore<std::string*> restoreOut(m_out);
    Restore<std::shared_ptr<Scope>> restoreScope(m_scope);
    m_out = &out;
    if (scoped)
        m_scope = std::make_shared<Scope>(Scope{m_scope, {}});
    flow = execBody(body);
    return out;
}

Interpreter::Flow Interpreter::execSetBlock(const SetBlockStmt& s)
{
    Flow flow = Flow::Normal;
    std::string body = capture(s.body, true, flow);
    if (flow != Flow::Normal)
        return flow;
    if (!s.filter) {
        assign(s.target, Value(std::move(body)));
        return flow;
    }
    Restore<std::string> input(m_filterInput);
    m_filterInput = std::move(body);
    assign(s.target, eval(*s.filter));
    return flow;
}

void Interpreter::execCallBlock(const CallBlockStmt& s)
{
    const auto& call = static_cast<const CallExpr&>(*s.call);
    const Value callee = eval(*call.callee);
    CallArgs args;
    evalArgs(call.args, args);
    args.kwargs.emplace_back("caller", Value::native(std::make_shared<MacroObject>(*s.caller, m_scope)));
    at(call);
    write(this->call(callee, args));
}

Interpreter::Flow Interpreter::execWith(const WithStmt& s)
{
    std::vector<Value> values;
    for (const ExprPtr& v : s.values)
        values.push_back(eval(*v));
    Restore<std::shared_ptr<Scope>> restore(m_scope);
    m_scope = std::make_shared<Scope>(Scope{m_scope, {}});
    for (size_t i = 0; i < values.size(); ++i)
        assign(s.targets[i], values[i]);
    return execBody(s.body);
}

Value Interpreter::callMacro(const MacroDef& def, const std::shared_ptr<Scope>& closure, CallArgs& args)
{
    if (m_callDepth >= m_limits.maxCallDepth)
        fail("macro calls nested more than " + std::to_string(m_limits.maxCallDepth) + " deep (runaway recursion?)",
             TemplateError::Kind::Limit);
    auto scope = std::make_shared<Scope>(Scope{closure, {}});
    const size_t nParams = def.params.size();
    const size_t nPositional = std::min(args.args.size(), nParams);
    const size_t firstDefault = nParams - def.defaults.size();
    bool explicitCaller = false;
    std::vector<bool> given(nParams, false);
    for (size_t i = 0; i < nPositional; ++i) {
        scope->vars.emplace_back(def.params[i].second, args.args[i]);
        given[i] = true;
    }
    for (size_t i = nPositional; i < nParams; ++i) {
        if (std::optional<Value> v = args.takeKwarg(def.params[i].first)) {
            scope->vars.emplace_back(def.params[i].second, std::move(*v));
            given[i] = true;
        }
        explicitCaller = explicitCaller || def.params[i].first == "caller";
    }
    if (def.usesCaller && !explicitCaller && m_callerSymbol >= 0) {
        std::optional<Value> caller = args.takeKwarg("caller");
        scope->vars.emplace_back(m_callerSymbol, caller ? *caller : Value::undefined("No caller defined"));
    }
    if (def.usesKwargs && m_kwargsSymbol >= 0) {
        Object kw;
        for (auto& [k, v] : args.kwargs)
            kw.set(Value(k), std::move(v));
        scope->vars.emplace_back(m_kwargsSymbol, Value::object(std::move(kw)));
        args.kwargs.clear();
    } else if (!args.kwargs.empty()) {
        fail("macro '" + def.name + "' takes no keyword argument '" + args.kwargs.front().first + "'");
    }
    if (def.usesVarargs && m_varargsSymbol >= 0) {
        std::vector<Value> extra(args.args.begin() + static_cast<std::ptrdiff_t>(nPositional), args.args.end());
        scope->vars.emplace_back(m_varargsSymbol, Value::tuple(std::move(extra)));
    } else if (args.args.size() > nParams) {
        fail("macro '" + def.name + "' takes not more than " + std::to_string(nParams) + " argument(s)");
    }

    ++m_callDepth;
    std::string out;
    {
        Restore<std::shared_ptr<Scope>> restoreScope(m_scope);
        Restore<std::string*> restoreOut(m_out);
        m_scope = scope;
        m_out = &out;
        // Defaults are evaluated at call time, in the macro's scope, so they
        // may refer to earlier parameters.
        for (size_t i = 0; i < nParams; ++i) {
            if (given[i])
                continue;
            const Value v = i >= firstDefault
                                ? eval(*def.defaults[i - firstDefault])
                                : Value::undefined("parameter '" + def.params[i].first + "' was not provided");
            scope->vars.emplace_back(def.params[i].second, v);
        }
        execBody(def.body);
    }
    --m_callDepth;
    return Value(std::move(out));
}

} // namespace hearth::chat::jinja
