// jinja2's tests (`x is defined`, `n is divisibleby 3`, ...) and the global
// functions of the Hugging Face sandbox.

#include "chat/jinja/builtins.h"
#include "chat/jinja/objects.h"
#include "chat/jinja/ops.h"
#include "chat/jinja/pystring.h"
#include "chat/jinja/strftime.h"
#include "chat/unicode.h"

#include <algorithm>
#include <ctime>

namespace hearth::chat::jinja {

namespace {

const Value& arg(Interpreter& interp, CallArgs& args, std::string_view test)
{
    if (args.args.size() != 1 || !args.kwargs.empty())
        interp.fail("test '" + std::string(test) + "' takes exactly one argument");
    return args.args[0];
}

void noArgs(Interpreter& interp, CallArgs& args, std::string_view test)
{
    if (!args.args.empty() || !args.kwargs.empty())
        interp.fail("test '" + std::string(test) + "' takes no arguments");
}

#define TEST(name) bool name(Interpreter& interp, const Value& v, CallArgs& args)
#define SIMPLE_TEST(name, expr)                                                                                        \
    TEST(name)                                                                                                         \
    {                                                                                                                  \
        noArgs(interp, args, #name);                                                                                   \
        return (expr);                                                                                                 \
    }

SIMPLE_TEST(defined, !v.isUndefined())
SIMPLE_TEST(undefined, v.isUndefined())
SIMPLE_TEST(none, v.isNull())
SIMPLE_TEST(boolean, v.isBool())
SIMPLE_TEST(isFalse, v.isBool() && !v.asBool())
SIMPLE_TEST(isTrue, v.isBool() && v.asBool())
SIMPLE_TEST(integer, v.isInt())
SIMPLE_TEST(isFloat, v.isFloat())
SIMPLE_TEST(string, v.isString())
SIMPLE_TEST(mapping, v.isObject())
SIMPLE_TEST(number, v.isNumber())
SIMPLE_TEST(escaped, v.isMarkup())
const SequenceObject* seqObject(const Value& v)
{
    return v.isNative() ? dynamic_cast<const SequenceObject*>(&v.asNative()) : nullptr;
}

// len() and __getitem__ exist: str, list, tuple, dict, range, and Undefined.
SIMPLE_TEST(sequence, v.isString() || v.isSequence() || v.isObject() || v.isUndefined() ||
                          (seqObject(v) && seqObject(v)->kind() == SequenceObject::Kind::Range))
SIMPLE_TEST(iterable, v.isString() || v.isSequence() || v.isObject() || v.isUndefined() || seqObject(v) ||
                          (v.isNative() && dynamic_cast<const LoopObject*>(&v.asNative())))
SIMPLE_TEST(callable, v.isUndefined() || (v.isNative() && v.asNative().isCallable()))
SIMPLE_TEST(lower, pystr::predicate("islower", v.str()))
SIMPLE_TEST(upper, pystr::predicate("isupper", v.str()))
SIMPLE_TEST(filter, v.isString() && findFilter(v.asString()) != nullptr)
SIMPLE_TEST(test, v.isString() && findTest(v.asString()) != nullptr)

TEST(odd)
{
    noArgs(interp, args, "odd");
    return ops::binary(interp, BinOp::Mod, v, Value(2)) == Value(1);
}

TEST(even)
{
    noArgs(interp, args, "even");
    return ops::binary(interp, BinOp::Mod, v, Value(2)) == Value(0);
}

TEST(divisibleby)
{
    return ops::binary(interp, BinOp::Mod, v, arg(interp, args, "divisibleby")) == Value(0);
}

TEST(in)
{
    return ops::contains(interp, arg(interp, args, "in"), v);
}

TEST(sameas)
{
    const Value& other = arg(interp, args, "sameas");
    if (v.type() != other.type())
        return false;
    switch (v.type()) {
    case Value::Type::Null:
    case Value::Type::Undefined: return true;
    case Value::Type::Bool: return v.asBool() == other.asBool();
    case Value::Type::Int: return v.asInt() == other.asInt() && v.asInt() >= -5 && v.asInt() <= 256; // cached ints
    case Value::Type::String: return v.asString() == other.asString();
    default: return v == other && v.size() == other.size() && &v.items() == &other.items();
    }
}

#define COMPARE_TEST(name, op)                                                                                         \
    TEST(name)                                                                                                         \
    {                                                                                                                  \
        return ops::compare(interp, op, v, arg(interp, args, #name));                                                  \
    }
COMPARE_TEST(eq, CmpOp::Eq)
COMPARE_TEST(ne, CmpOp::Ne)
COMPARE_TEST(lt, CmpOp::Lt)
COMPARE_TEST(le, CmpOp::LtEq)
COMPARE_TEST(gt, CmpOp::Gt)
COMPARE_TEST(ge, CmpOp::GtEq)

#undef COMPARE_TEST
#undef SIMPLE_TEST
#undef TEST

struct TestEntry {
    std::string_view name;
    TestFn fn;
};

// Sorted by name (byte order) for binary search.
constexpr TestEntry kTests[] = {
    {"!=", ne},
    {"<", lt},
    {"<=", le},
    {"==", eq},
    {">", gt},
    {">=", ge},
    {"boolean", boolean},
    {"callable", callable},
    {"defined", defined},
    {"divisibleby", divisibleby},
    {"eq", eq},
    {"equalto", eq},
    {"escaped", escaped},
    {"even", even},
    {"false", isFalse},
    {"filter", filter},
    {"float", isFloat},
    {"ge", ge},
    {"greaterthan", gt},
    {"gt", gt},
    {"in", in},
    {"integer", integer},
    {"iterable", iterable},
    {"le", le},
    {"lessthan", lt},
    {"lower", lower},
    {"lt", lt},
    {"mapping", mapping},
    {"ne", ne},
    {"none", none},
    {"number", number},
    {"odd", odd},
    {"sameas", sameas},
    {"sequence", sequence},
    {"string", string},
    {"test", test},
    {"true", isTrue},
    {"undefined", undefined},
    {"upper", upper},
};

// ---- globals ----------------------------------------------------------------

int64_t intArg(Interpreter& interp, const Value& v)
{
    if (!v.isInt() && !v.isBool())
        interp.fail("'" + std::string(ops::typeName(v)) + "' object cannot be interpreted as an integer");
    return v.asInt();
}

Value range(Interpreter& interp, CallArgs& args)
{
    if (!args.kwargs.empty())
        interp.fail("range() takes no keyword arguments");
    if (args.args.empty() || args.args.size() > 3)
        interp.fail("range expected 1 to 3 arguments, got " + std::to_string(args.args.size()));
    int64_t start = 0;
    int64_t stop = 0;
    int64_t step = 1;
    if (args.args.size() == 1) {
        stop = intArg(interp, args.args[0]);
    } else {
        start = intArg(interp, args.args[0]);
        stop = intArg(interp, args.args[1]);
        if (args.args.size() == 3)
            step = intArg(interp, args.args[2]);
    }
    if (step == 0)
        interp.fail("range() arg 3 must not be zero");
    // Counted in long double: the bounds may be anywhere in int64.
    const long double span = step > 0 ? static_cast<long double>(stop) - start : static_cast<long double>(start) - stop;
    const long double count =
        span <= 0 ? 0
                  : (span + (std::abs(static_cast<long double>(step)) - 1)) / std::abs(static_cast<long double>(step));
    // jinja2's sandbox refuses ranges longer than MAX_RANGE.
    if (count > 100000)
        interp.fail("Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000).");
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(count));
    for (int64_t i = 0, v = start; i < static_cast<int64_t>(count); ++i, v += step)
        out.emplace_back(v);
    interp.charge(static_cast<int64_t>(count) / 16);
    std::string label = std::to_string(start) + ", " + std::to_string(stop);
    if (step != 1)
        label += ", " + std::to_string(step);
    return SequenceObject::make(SequenceObject::Kind::Range, std::move(out), label);
}

Value dict(Interpreter& interp, CallArgs& args)
{
    if (args.args.size() > 1)
        interp.fail("dict expected at most 1 argument, got " + std::to_string(args.args.size()));
    Object obj;
    if (!args.args.empty()) {
        const Value& init = args.args[0];
        if (init.isObject()) {
            obj = init.asObject();
        } else {
            for (const Value& pair : interp.iterate(init)) {
                std::vector<Value> storage;
                const auto& kv = interp.sequence(pair, storage);
                if (kv.size() != 2)
                    interp.fail("dictionary update sequence element has length " + std::to_string(kv.size()) +
                                "; 2 is required");
                obj.set(kv[0], kv[1]);
            }
        }
    }
    for (auto& [k, v] : args.kwargs)
        obj.set(Value(k), std::move(v));
    return Value::object(std::move(obj));
}

Value cycler(Interpreter& interp, CallArgs& args)
{
    if (args.args.empty())
        interp.fail("at least one item has to be provided");
    return Value::native(std::make_shared<Cycler>(args.args));
}

Value joiner(Interpreter&, CallArgs& args)
{
    const ArgBinder b(args, "joiner", {"sep"});
    return Value::native(std::make_shared<Joiner>(b.get(0, Value(", ")).str()));
}

Value lipsum(Interpreter& interp, CallArgs&)
{
    interp.fail("lipsum() (random placeholder text) is not available in chat templates");
}

Value raiseException(Interpreter& interp, CallArgs& args)
{
    const ArgBinder b(args, "raise_exception", {"message"});
    interp.fail(b.get(0, Value("")).str(), TemplateError::Kind::Raised);
}

Value strftimeNow(Interpreter& interp, CallArgs& args)
{
    const ArgBinder b(args, "strftime_now", {"format"});
    const Value& fmt = b.get(0, Value());
    if (!fmt.isString())
        interp.fail("strftime() argument 1 must be str, not " + std::string(ops::typeName(fmt)));
    std::string out = formatTime(fmt.asString(), interp.now(), interp.limits().maxOutputBytes);
    interp.allocate(out.size());
    return Value(std::move(out));
}

Value makeNamespace(Interpreter& interp, CallArgs& args)
{
    return Namespace::make(interp, args);
}

static_assert(std::is_sorted(std::begin(kTests), std::end(kTests),
                             [](const TestEntry& a, const TestEntry& b) { return a.name < b.name; }));

} // namespace

TestFn findTest(std::string_view name)
{
    const auto it = std::lower_bound(std::begin(kTests), std::end(kTests), name,
                                     [](const TestEntry& e, std::string_view n) { return e.name < n; });
    return it != std::end(kTests) && it->name == name ? it->fn : nullptr;
}

Value findGlobal(std::string_view name)
{
    struct Global {
        std::string_view name;
        BuiltinFn fn;
    };
    static constexpr Global kGlobals[] = {
        {"cycler", cycler},
        {"dict", dict},
        {"joiner", joiner},
        {"lipsum", lipsum},
        {"namespace", makeNamespace},
        {"raise_exception", raiseException},
        {"range", range},
        {"strftime_now", strftimeNow},
    };
    for (const Global& g : kGlobals)
        if (g.name == name)
            return Value::native(std::make_shared<BuiltinFunction>(std::string(g.name), g.fn));
    return Value::undefined();
}

} // namespace hearth::chat::jinja
