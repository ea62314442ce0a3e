// Jinja parser: tokens → Program. Follows jinja2's grammar and operator
// precedence (condexpr < or < and < not < compare < + - < ~ < * / // % < **
// < unary - + < postfix . [] () < filters | and tests `is`), with the
// statements of the Hugging Face environment: if/elif/else, for (else,
// `if` filter, recursive), set (also block set and namespace attributes),
// macro, call, filter, with, raw, block, print, break/continue
// (loopcontrols) and generation (HF's assistant-mask tag).
//
// Like jinja2, an unknown filter or test is an error at parse time, except
// directly inside an `if` or an inline if-expression, where it only fails if
// reached. Nesting is bounded: deeper templates are refused with a
// TemplateError instead of overflowing the stack in the parser, the
// evaluator or the destructors.
#pragma once

#include "chat/jinja/ast.h"

#include <cstddef>
#include <string_view>

namespace hearth::chat::jinja {

inline constexpr int kMaxStatementNesting = 100; // nested blocks ({% if %} in {% for %} ...)
inline constexpr int kMaxExpressionDepth = 100;  // depth of one expression's tree
inline constexpr size_t kMaxSourceBytes = 1u << 20;

// Throws chat::TemplateError (Kind::Syntax) with line and column.
Program parse(std::string_view source);

} // namespace hearth::chat::jinja
