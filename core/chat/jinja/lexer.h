// Jinja lexer: template source → tokens, with jinja2's whitespace rules in
// the Hugging Face configuration (trim_blocks and lstrip_blocks on,
// keep_trailing_newline off):
//   - "\r\n" and "\r" become "\n"; one trailing newline is dropped;
//   - `{%- ` / `{#- ` / `{{- ` strip all whitespace before the tag,
//     ` -%}` / ` -#}` / ` -}}` all whitespace after it;
//   - trim_blocks: the first newline after `%}` or `#}` is removed;
//   - lstrip_blocks: spaces and tabs from the start of a line up to `{%` or
//     `{#` are removed (`{%+` keeps them);
//   - `{% raw %}...{% endraw %}` is plain text.
// Errors are chat::TemplateError (Kind::Syntax) with line and column.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::chat::jinja {

enum class Tok : uint8_t {
    Data,
    VariableBegin,
    VariableEnd,
    BlockBegin,
    BlockEnd,
    Name,
    String,
    Integer,
    Float,
    // operators
    Add,
    Sub,
    Div,
    FloorDiv,
    Mul,
    Mod,
    Pow,
    Tilde,
    LBracket,
    RBracket,
    LParen,
    RParen,
    LBrace,
    RBrace,
    Eq,
    Ne,
    Gt,
    GtEq,
    Lt,
    LtEq,
    Assign,
    Dot,
    Colon,
    Pipe,
    Comma,
    Semicolon,
    Eof,
};

struct Token {
    Tok type = Tok::Eof;
    int line = 1;
    int column = 1;
    std::string text; // Data: the text; Name: the identifier; String: the decoded value
    int64_t intValue = 0;
    double floatValue = 0;
};

// How a token type reads in an error message ("'}'", "end of print statement").
std::string describeToken(const Token& token);

std::vector<Token> tokenize(std::string_view source);

} // namespace hearth::chat::jinja
