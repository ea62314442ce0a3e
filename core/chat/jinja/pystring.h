// Python's str methods and string formatting on UTF-8 strings, counting in
// code points as Python does (find() returns a character index, center()
// pads to a width in characters). Internal to the template engine.
#pragma once

#include "chat/jinja/interpreter.h"
#include "chat/value.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::chat::jinja::pystr {

// strip()/lstrip()/rstrip(); `chars` null: whitespace.
std::string strip(std::string_view s, const std::string* chars, bool left, bool right);
// split()/rsplit(); `sep` null: runs of whitespace. maxsplit < 0: no limit.
std::vector<std::string> split(std::string_view s, const std::string* sep, int64_t maxsplit);
std::vector<std::string> rsplit(std::string_view s, const std::string* sep, int64_t maxsplit);
std::vector<std::string> splitlines(std::string_view s, bool keepends);
// Size in bytes of replace(s, old, repl, count), computed without building it.
size_t replacedSize(std::string_view s, std::string_view old, std::string_view repl, int64_t count);
// count < 0: all.
std::string replace(std::string_view s, std::string_view old, std::string_view repl, int64_t count);
// Character index of the first (last) occurrence in s[start:end], or -1.
int64_t find(std::string_view s, std::string_view sub, std::optional<int64_t> start, std::optional<int64_t> end,
             bool reverse);
int64_t count(std::string_view s, std::string_view sub);
std::string title(std::string_view s);
std::string capitalize(std::string_view s);
std::string swapcase(std::string_view s);
// center/ljust/rjust; `fill` is one character.
std::string pad(std::string_view s, int64_t width, std::string_view fill, char align);
std::string zfill(std::string_view s, int64_t width);
// Python's predicates: isalpha, isdigit, isspace, islower, isupper, ...
bool predicate(std::string_view name, std::string_view s);
// The substring s[start:stop] in characters (no negative indices).
std::string substr(std::string_view s, size_t start, size_t stop);

// `fmt % args` (printf-style), as str.__mod__.
std::string percentFormat(Interpreter& interp, std::string_view fmt, const Value& args);
// str.format(*args, **kwargs).
std::string format(Interpreter& interp, std::string_view fmt, const CallArgs& args);
// format(value, spec): Python's format mini-language for str, int and float.
std::string formatValue(Interpreter& interp, const Value& v, std::string_view spec);

} // namespace hearth::chat::jinja::pystr
