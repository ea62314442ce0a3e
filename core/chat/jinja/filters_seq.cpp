// jinja2's filters over sequences and mappings. Where jinja2 returns a
// generator (map, select, unique, ...), these return the list it would
// produce; everything a template does with one (iterate, |list, |join,
// |length after |list) behaves the same.

#include "chat/jinja/builtins.h"
#include "chat/jinja/filters_impl.h"
#include "chat/jinja/objects.h"
#include "chat/jinja/ops.h"
#include "chat/jinja/pystring.h"
#include "chat/unicode.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

namespace hearth::chat::jinja::filters {

namespace {

const Value kNone;
const std::string kDot = ".";
const std::string kComma = ",";

using Seq = SequenceObject::Kind;

// Runs a generator filter's body now; a runtime error is kept for when the
// generator is iterated, as Python raises only then.
template <typename F>
Value generator(const char* label, F&& body)
{
    try {
        return SequenceObject::make(Seq::Generator, body(), label);
    } catch (const TemplateError& e) {
        if (e.kind() != TemplateError::Kind::Runtime)
            throw;
        return SequenceObject::failed(label, e.detail());
    }
}

// Sorts with Python's stable sorted(key=..., reverse=...).
void sortByKeys(Interpreter& interp, std::vector<Value>& items, const std::vector<Value>& keys, bool reverse)
{
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    const auto n = static_cast<int64_t>(items.size());
    interp.charge(n * (1 + static_cast<int64_t>(std::log2(static_cast<double>(n) + 1))));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return reverse ? ops::less(interp, keys[b], keys[a]) : ops::less(interp, keys[a], keys[b]);
    });
    std::vector<Value> sorted;
    sorted.reserve(items.size());
    for (const size_t i : order)
        sorted.push_back(std::move(items[i]));
    items = std::move(sorted);
}

void requireHashable(Interpreter& interp, const Value& v)
{
    if (v.isArray() || v.isObject())
        interp.fail("unhashable type: '" + std::string(ops::typeName(v)) + "'");
}

// select/reject/selectattr/rejectattr.
Value selectOrReject(Interpreter& interp, const Value& input, CallArgs& args, bool select, bool byAttribute)
{
    return generator("select_or_reject", [&] {
        std::vector<Value> out;
        if (!input.truthy())
            return out;
        size_t off = 0;
        Value attr;
        if (byAttribute) {
            if (args.args.empty())
                interp.fail("Missing parameter for attribute name");
            attr = args.args[0];
            off = 1;
        }
        const bool hasTest = args.args.size() > off;
        const std::string testName = hasTest ? args.args[off].str() : std::string();
        CallArgs testArgs;
        if (hasTest)
            testArgs.args.assign(args.args.begin() + static_cast<std::ptrdiff_t>(off + 1), args.args.end());
        testArgs.kwargs = args.kwargs;
        for (const Value& item : interp.iterate(input)) {
            const Value subject = byAttribute ? lookupPath(interp, item, attr, false) : item;
            bool ok = subject.truthy();
            if (hasTest) {
                CallArgs a = testArgs;
                ok = interp.applyTest(testName, subject, a);
            }
            if (ok == select)
                out.push_back(item);
        }
        return out;
    });
}

Value minOrMax(Interpreter& interp, const Value& input, CallArgs& args, bool wantMax)
{
    const ArgBinder b(args, wantMax ? "max" : "min", {"case_sensitive", "attribute"});
    const std::vector<Value> items = interp.iterate(input);
    if (items.empty())
        return Value::undefined("No aggregated item, sequence was empty.");
    const bool lower = !b.get(0, Value(false)).truthy();
    const Value& attribute = b.get(1, kNone);
    const Value* best = &items[0];
    Value bestKey = lookupPath(interp, items[0], attribute, lower);
    for (size_t i = 1; i < items.size(); ++i) {
        Value key = lookupPath(interp, items[i], attribute, lower);
        if (wantMax ? ops::less(interp, bestKey, key) : ops::less(interp, key, bestKey)) {
            best = &items[i];
            bestKey = std::move(key);
        }
    }
    return *best;
}

} // namespace

Value ignoreCase(const Value& v)
{
    return v.isString() ? Value(unicode::lower(v.asString())) : v;
}

Value lookupPath(Interpreter& interp, const Value& item, const Value& path, bool lowercase, const Value* fallback)
{
    Value v = item;
    if (path.isString()) {
        for (const std::string& part : pystr::split(path.asString(), &kDot, -1)) {
            const bool digits = !part.empty() && part.find_first_not_of("0123456789") == std::string::npos;
            v = interp.getitem(v, digits ? Value(static_cast<int64_t>(std::stoll(part))) : Value(part));
            if (fallback && v.isUndefined())
                v = *fallback;
        }
    } else if (!path.isNull()) {
        v = interp.getitem(v, path);
        if (fallback && v.isUndefined())
            v = *fallback;
    }
    return lowercase ? ignoreCase(v) : v;
}

Value length(Interpreter& interp, const Value& input, CallArgs& args)
{
    ArgBinder(args, "length", {});
    switch (input.type()) {
    case Value::Type::String: return Value(static_cast<int64_t>(unicode::length(input.asString())));
    case Value::Type::Array:
    case Value::Type::Tuple:
    case Value::Type::Object: return Value(static_cast<int64_t>(input.size()));
    case Value::Type::Undefined: return Value(0);
    case Value::Type::Native: {
        const Native& n = input.asNative();
        if (const auto* seq = dynamic_cast<const SequenceObject*>(&n); seq && seq->hasLength())
            return Value(static_cast<int64_t>(seq->length()));
        if (dynamic_cast<const LoopObject*>(&n))
            return n.getAttr("length");
        break;
    }
    default: break;
    }
    interp.fail("object of type '" + std::string(ops::typeName(input)) + "' has no len()");
}

Value list(Interpreter& interp, const Value& input, CallArgs& args)
{
    ArgBinder(args, "list", {});
    return Value::array(interp.iterate(input));
}

Value first(Interpreter& interp, const Value& input, CallArgs& args)
{
    ArgBinder(args, "first", {});
    const auto* seq = input.isNative() ? dynamic_cast<const SequenceObject*>(&input.asNative()) : nullptr;
    std::optional<Value> item;
    if (seq) {
        item = seq->next(); // a generator loses the item, as next(iter(gen)) does
    } else if (input.isSequence()) {
        if (!input.items().empty())
            item = input.items()[0];
    } else {
        std::vector<Value> items = interp.iterate(input);
        if (!items.empty())
            item = items[0];
    }
    return item ? *item : Value::undefined("No first item, sequence was empty.");
}

Value last(Interpreter& interp, const Value& input, CallArgs& args)
{
    ArgBinder(args, "last", {});
    if (input.isNative()) {
        const auto* seq = dynamic_cast<const SequenceObject*>(&input.asNative());
        if (!seq || seq->oneShot())
            interp.fail("'" + std::string(ops::typeName(input)) + "' object is not reversible");
    }
    std::vector<Value> storage;
    const std::vector<Value>& items = interp.sequence(input, storage);
    return items.empty() ? Value::undefined("No last item, sequence was empty.") : items.back();
}

Value join(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "join", {"d", "attribute"});
    const std::string sep = b.get(0, Value("")).str();
    const Value& attribute = b.get(1, kNone);
    std::string out;
    bool firstItem = true;
    for (const Value& item : interp.iterate(input)) {
        if (!firstItem)
            out += sep;
        firstItem = false;
        const Value v = attribute.isNull() ? item : lookupPath(interp, item, attribute, false);
        out += v.isString() ? v.asString() : v.str();
        interp.checkSize(out.size());
    }
    interp.allocate(out.size());
    return Value(std::move(out));
}

Value reverse(Interpreter& interp, const Value& input, CallArgs& args)
{
    ArgBinder(args, "reverse", {});
    if (input.isString()) {
        std::u32string u = unicode::decode(input.asString());
        std::reverse(u.begin(), u.end());
        return Value(unicode::encode(u));
    }
    const auto* seq = input.isNative() ? dynamic_cast<const SequenceObject*>(&input.asNative()) : nullptr;
    std::vector<Value> items = interp.iterate(input);
    std::reverse(items.begin(), items.end());
    // reversed() gives an iterator; a generator is not reversible, so jinja2
    // falls back to a reversed list.
    if (seq && seq->oneShot())
        return Value::array(std::move(items));
    return SequenceObject::make(Seq::ReverseIterator, std::move(items));
}

Value items(Interpreter& interp, const Value& input, CallArgs& args)
{
    ArgBinder(args, "items", {});
    return generator("do_items", [&] {
        std::vector<Value> out;
        if (input.isUndefined())
            return out;
        if (!input.isObject())
            interp.fail("Can only get item pairs from a mapping.");
        for (const auto& [k, v] : input.asObject().entries())
            out.push_back(Value::tuple({k, v}));
        return out;
    });
}

Value dictsort(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "dictsort", {"case_sensitive", "by", "reverse"});
    const bool lower = !b.get(0, Value(false)).truthy();
    const std::string by = b.get(1, Value("key")).str();
    if (by != "key" && by != "value")
        interp.fail("You can only sort by either \"key\" or \"value\"");
    if (!input.isObject())
        interp.fail("'" + std::string(ops::typeName(input)) + "' object has no attribute 'items'");
    std::vector<Value> pairs;
    std::vector<Value> keys;
    for (const auto& [k, v] : input.asObject().entries()) {
        pairs.push_back(Value::tuple({k, v}));
        keys.push_back(lower ? ignoreCase(by == "key" ? k : v) : (by == "key" ? k : v));
    }
    sortByKeys(interp, pairs, keys, b.get(2, Value(false)).truthy());
    return Value::array(std::move(pairs));
}

Value sort(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "sort", {"reverse", "case_sensitive", "attribute"});
    std::vector<Value> items = interp.iterate(input);
    const bool lower = !b.get(1, Value(false)).truthy();
    const Value& attribute = b.get(2, kNone);
    std::vector<Value> attrs;
    if (attribute.isString())
        for (const std::string& a : pystr::split(attribute.asString(), &kComma, -1))
            attrs.emplace_back(a);
    else
        attrs.push_back(attribute);
    std::vector<Value> keys;
    keys.reserve(items.size());
    for (const Value& item : items) {
        std::vector<Value> key;
        for (const Value& a : attrs)
            key.push_back(lookupPath(interp, item, a, lower));
        keys.push_back(Value::array(std::move(key)));
    }
    sortByKeys(interp, items, keys, b.get(0, Value(false)).truthy());
    return Value::array(std::move(items));
}

Value unique(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "unique", {"case_sensitive", "attribute"});
    const bool lower = !b.get(0, Value(false)).truthy();
    const Value attribute = b.get(1, kNone);
    return generator("sync_do_unique", [&] {
        std::vector<Value> seen;
        std::vector<Value> out;
        for (const Value& item : interp.iterate(input)) {
            Value key = lookupPath(interp, item, attribute, lower);
            requireHashable(interp, key);
            interp.charge(static_cast<int64_t>(seen.size()) / 16);
            if (std::find(seen.begin(), seen.end(), key) == seen.end()) {
                seen.push_back(std::move(key));
                out.push_back(item);
            }
        }
        return out;
    });
}

Value min(Interpreter& interp, const Value& input, CallArgs& args)
{
    return minOrMax(interp, input, args, false);
}

Value max(Interpreter& interp, const Value& input, CallArgs& args)
{
    return minOrMax(interp, input, args, true);
}

Value sum(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "sum", {"attribute", "start"});
    const Value& attribute = b.get(0, kNone);
    Value total = b.get(1, Value(0));
    if (total.isString())
        interp.fail("sum() can't sum strings [use ''.join(seq) instead]");
    for (const Value& item : interp.iterate(input))
        total = ops::binary(interp, BinOp::Add, total, lookupPath(interp, item, attribute, false));
    return total;
}

Value map(Interpreter& interp, const Value& input, CallArgs& args)
{
    return generator("sync_do_map", [&] {
        std::vector<Value> out;
        if (!input.truthy())
            return out;
        const bool byAttribute =
            std::any_of(args.kwargs.begin(), args.kwargs.end(), [](const auto& kv) { return kv.first == "attribute"; });
        if (args.args.empty() && byAttribute) {
            CallArgs copy = args;
            const Value attribute = *copy.takeKwarg("attribute");
            const std::optional<Value> fallback = copy.takeKwarg("default");
            if (!copy.kwargs.empty())
                interp.fail("Unexpected keyword argument '" + copy.kwargs.front().first + "'");
            const Value* fb = fallback && !fallback->isNull() ? &*fallback : nullptr;
            for (const Value& item : interp.iterate(input))
                out.push_back(lookupPath(interp, item, attribute, false, fb));
            return out;
        }
        if (args.args.empty())
            interp.fail("map requires a filter argument");
        const std::string name = args.args[0].str();
        for (const Value& item : interp.iterate(input)) {
            CallArgs a;
            a.args.assign(args.args.begin() + 1, args.args.end());
            a.kwargs = args.kwargs;
            out.push_back(interp.applyFilter(name, item, a));
        }
        return out;
    });
}

Value select(Interpreter& interp, const Value& input, CallArgs& args)
{
    return selectOrReject(interp, input, args, true, false);
}

Value reject(Interpreter& interp, const Value& input, CallArgs& args)
{
    return selectOrReject(interp, input, args, false, false);
}

Value selectattr(Interpreter& interp, const Value& input, CallArgs& args)
{
    return selectOrReject(interp, input, args, true, true);
}

Value rejectattr(Interpreter& interp, const Value& input, CallArgs& args)
{
    return selectOrReject(interp, input, args, false, true);
}

Value batch(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "batch", {"linecount", "fill_with"});
    // Python's loop exactly, including its behaviour for counts below 1.
    const Value count = b.get(0, Value());
    const Value fill = b.get(1, kNone);
    std::vector<Value> out;
    std::vector<Value> row;
    for (Value& item : interp.iterate(input)) {
        if (Value(static_cast<int64_t>(row.size())) == count)
            out.push_back(Value::array(std::exchange(row, {})));
        row.push_back(std::move(item));
    }
    if (!row.empty()) {
        if (!fill.isNull() && ops::less(interp, Value(static_cast<int64_t>(row.size())), count)) {
            interp.checkItems(static_cast<size_t>(std::min<int64_t>(count.asInt(), INT32_MAX)));
            while (static_cast<int64_t>(row.size()) < count.asInt())
                row.push_back(fill);
        }
        out.push_back(Value::array(std::move(row)));
    }
    return SequenceObject::make(Seq::Generator, std::move(out), "do_batch");
}

Value slice(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "slice", {"slices", "fill_with"});
    const Value& slicesV = b.get(0, Value());
    if (!slicesV.isInt() || slicesV.asInt() <= 0)
        interp.fail("slice() needs a positive number of slices");
    const std::vector<Value> seq = interp.iterate(input);
    const auto slices = static_cast<size_t>(slicesV.asInt());
    interp.checkItems(slices);
    const size_t per = seq.size() / slices;
    const size_t extra = seq.size() % slices;
    const Value& fill = b.get(1, kNone);
    std::vector<Value> out;
    size_t offset = 0;
    for (size_t k = 0; k < slices; ++k) {
        const size_t start = offset + k * per;
        if (k < extra)
            ++offset;
        const size_t end = offset + (k + 1) * per;
        std::vector<Value> part(seq.begin() + static_cast<std::ptrdiff_t>(start),
                                seq.begin() + static_cast<std::ptrdiff_t>(end));
        if (!fill.isNull() && k >= extra)
            part.push_back(fill);
        out.push_back(Value::array(std::move(part)));
    }
    return SequenceObject::make(Seq::Generator, std::move(out), "sync_do_slice");
}

Value groupby(Interpreter& interp, const Value& input, CallArgs& args)
{
    const ArgBinder b(args, "groupby", {"attribute", "default", "case_sensitive"});
    const Value& attribute = b.get(0, Value());
    const Value& fallback = b.get(1, kNone);
    const bool lower = !b.get(2, Value(false)).truthy();
    const Value* fb = fallback.isNull() ? nullptr : &fallback;
    std::vector<Value> items = interp.iterate(input);
    std::vector<Value> keys;
    for (const Value& item : items)
        keys.push_back(lookupPath(interp, item, attribute, lower, fb));
    std::vector<size_t> order(items.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return ops::less(interp, keys[x], keys[y]); });
    std::vector<Value> out;
    for (size_t i = 0; i < order.size();) {
        std::vector<Value> group;
        const Value& key = keys[order[i]];
        size_t j = i;
        for (; j < order.size() && keys[order[j]] == key; ++j)
            group.push_back(items[order[j]]);
        const Value grouper = lower ? lookupPath(interp, group[0], attribute, false, fb) : key;
        out.push_back(Value::groupTuple(grouper, Value::array(std::move(group))));
        i = j;
    }
    return Value::array(std::move(out));
}

Value random(Interpreter& interp, const Value& input, CallArgs& args)
{
    ArgBinder(args, "random", {});
    std::vector<Value> storage;
    const std::vector<Value>& seq = interp.sequence(input, storage);
    if (seq.empty())
        return Value::undefined("No random item, sequence was empty.");
    static thread_local std::minstd_rand rng(
        static_cast<unsigned>(std::chrono::steady_clock::now().time_since_epoch().count()));
    return seq[rng() % seq.size()];
}

} // namespace hearth::chat::jinja::filters
