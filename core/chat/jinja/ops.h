// Python's operators on template values: arithmetic with int/float rules
// (true division, floor division and modulo rounding toward -inf, `**`),
// str/list/tuple concatenation and repetition, ordering comparisons (which
// raise between unrelated types), `in`, and slicing by code points.
// Failures raise through the interpreter (with the current position).
#pragma once

#include "chat/jinja/ast.h"
#include "chat/jinja/interpreter.h"
#include "chat/value.h"

#include <string>
#include <string_view>

namespace hearth::chat::jinja::ops {

// Python's type name ("int", "str", "list", "dict", "NoneType", ...).
std::string typeName(const Value& v);

Value binary(Interpreter& interp, BinOp op, const Value& a, const Value& b);
Value negate(Interpreter& interp, const Value& v);
Value positive(Interpreter& interp, const Value& v);
bool compare(Interpreter& interp, CmpOp op, const Value& a, const Value& b);
// a < b, as sorted() and min()/max() use it.
bool less(Interpreter& interp, const Value& a, const Value& b);
bool contains(Interpreter& interp, const Value& container, const Value& item);
// obj[start:stop:step] for str, list and tuple; an argument that is null
// means "omitted".
Value slice(Interpreter& interp, const Value& obj, const Value& start, const Value& stop, const Value& step);
// obj[index] for lists, tuples and strings (negative indices count from the
// end); Undefined when out of range.
Value index(const Value& obj, int64_t i);

// markupsafe.escape(): & < > " ' as HTML entities.
std::string escapeHtml(std::string_view s);

} // namespace hearth::chat::jinja::ops
