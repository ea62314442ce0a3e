// The error of the chat-template engine: a malformed template (syntax),
// a template that fails while rendering (a type error, raise_exception(), an
// undefined value used), or a template that breaks a sandbox limit. The
// message starts with "line L, column C: " when the place is known.
#pragma once

#include "util/error.h"

#include <string>

namespace hearth::chat {

class TemplateError : public Error {
public:
    enum class Kind {
        Syntax,  // the source does not parse
        Runtime, // the template failed while rendering
        Raised,  // the template called raise_exception()
        Limit,   // a sandbox limit was reached
    };

    TemplateError(Kind kind, const std::string& message, int line = 0, int column = 0)
        : Error(line > 0 ? "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message
                         : message)
        , m_kind(kind)
        , m_line(line)
        , m_column(column)
        , m_detail(message)
    {
    }

    Kind kind() const { return m_kind; }
    int line() const { return m_line; }     // 1-based; 0 when unknown
    int column() const { return m_column; } // 1-based, in characters
    // The message without the position.
    const std::string& detail() const { return m_detail; }

private:
    Kind m_kind;
    int m_line;
    int m_column;
    std::string m_detail;
};

} // namespace hearth::chat
