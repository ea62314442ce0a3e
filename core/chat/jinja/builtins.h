// The built-in vocabulary of the engine: jinja2's filters and tests (plus
// Hugging Face's tojson), the global functions of the sandboxed environment
// (range, dict, namespace, cycler, joiner, raise_exception, strftime_now),
// and the methods of Python's str, list and dict that templates call.
#pragma once

#include "chat/jinja/ast.h"
#include "chat/value.h"

#include <string_view>

namespace hearth::chat::jinja {

// nullptr when there is no such filter / test.
FilterFn findFilter(std::string_view name);
TestFn findTest(std::string_view name);
// Undefined when there is no such global.
Value findGlobal(std::string_view name);

enum class MethodKind {
    None,   // no such method: attribute look-up falls back to keys
    Safe,   // e.g. str.upper, dict.items
    Unsafe, // mutates a list or dict: the sandbox refuses it (jinja2's SecurityError)
};
// For str, list, tuple and dict values.
MethodKind methodKind(const Value& object, std::string_view name);
// Calls a Safe method of a str/list/tuple/dict, or a method of an engine
// object (loop.cycle, cycler.next, ...).
Value callMethod(Interpreter& interp, const Value& object, std::string_view name, CallArgs& args);

} // namespace hearth::chat::jinja
