// JSON for chat values: a strict parser, and a writer that reproduces
// Python's json.dumps byte for byte (templates print tools and arguments
// with `tojson`, which Hugging Face defines as json.dumps).
#pragma once

#include "chat/value.h"

#include <optional>
#include <string>
#include <string_view>

namespace hearth::chat {

// Throws hearth::Error with the byte offset on malformed input.
// Also accepts NaN, Infinity and -Infinity, as Python's json.loads does.
Value parseJson(std::string_view text);

struct JsonDumpOptions {
    bool ensureAscii = false;                 // escape every non-ASCII character as \uXXXX
    bool indented = false;                    // json.dumps(indent=...) given
    std::string indent;                       // one level of indentation when indented
    std::optional<std::string> itemSeparator; // default: ", " (or "," when indented)
    std::optional<std::string> keySeparator;  // default: ": "
    bool sortKeys = false;
    // Undefined and Native values: write null instead of failing.
    bool lenient = false;
    // Refuse (chat::TemplateError) output longer than this; 0: no limit.
    size_t maxBytes = 0;
};

// json.dumps(value, ...). Throws chat::TemplateError where Python raises
// TypeError (an Undefined or engine object, keys of unsortable types).
std::string dumpJson(const Value& value, const JsonDumpOptions& options);

} // namespace hearth::chat
