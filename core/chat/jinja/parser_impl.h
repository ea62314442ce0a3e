// Internal: the parser's class, shared by parser.cpp (statements) and
// parser_expr.cpp (expressions). Not part of the engine's interface.
#pragma once

#include "chat/jinja/ast.h"
#include "chat/jinja/lexer.h"
#include "chat/jinja/parser.h"
#include "chat/template_error.h"

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace hearth::chat::jinja::detail {

// Height of the tree under e, from its direct children (parser_expr.cpp).
int childDepth(const Expr& e);

// jinja2 checks filter and test names when it compiles: an unknown one is an
// error, except in a "soft" frame (an if statement or inline if), where it
// only raises if reached. Walks a parsed body with that rule (parser_check.cpp).
void checkFilters(const Body& body, bool soft);

class Parser {
public:
    explicit Parser(std::string_view source) : m_tokens(tokenize(source)) {}

    Program run();

private:
    // ---- token stream ----
    const Token& cur() const { return m_tokens[m_pos]; }
    const Token& look() const { return m_tokens[std::min(m_pos + 1, m_tokens.size() - 1)]; }
    const Token& next()
    {
        const Token& t = m_tokens[m_pos];
        if (m_pos + 1 < m_tokens.size())
            ++m_pos;
        return t;
    }
    bool isName(std::string_view v) const { return cur().type == Tok::Name && cur().text == v; }
    bool skipIf(Tok t)
    {
        if (cur().type != t)
            return false;
        next();
        return true;
    }
    bool skipName(std::string_view v)
    {
        if (!isName(v))
            return false;
        next();
        return true;
    }

    [[noreturn]] void fail(const std::string& msg, const Token& at) const
    {
        throw TemplateError(TemplateError::Kind::Syntax, msg, at.line, at.column);
    }
    [[noreturn]] void fail(const std::string& msg) const { fail(msg, cur()); }

    const Token& expect(Tok t)
    {
        if (cur().type != t) {
            Token want;
            want.type = t;
            if (cur().type == Tok::Eof)
                fail("unexpected end of template, expected '" + describeToken(want) + "'.");
            fail("expected token '" + describeToken(want) + "', got '" + describeToken(cur()) + "'");
        }
        return next();
    }
    const Token& expectName(std::string_view v)
    {
        if (!isName(v)) {
            if (cur().type == Tok::Eof)
                fail("unexpected end of template, expected '" + std::string(v) + "'.");
            fail("expected token '" + std::string(v) + "', got '" + describeToken(cur()) + "'");
        }
        return next();
    }

    int symbol(const std::string& name)
    {
        const auto [it, inserted] = m_symbols.try_emplace(name, static_cast<int>(m_symbolNames.size()));
        if (inserted)
            m_symbolNames.push_back(name);
        return it->second;
    }

    template <typename T, typename... A>
    std::unique_ptr<T> make(const Token& at, A&&... a)
    {
        auto n = std::make_unique<T>(std::forward<A>(a)...);
        n->line = at.line;
        n->column = at.column;
        return n;
    }

    // Records the height of a finished expression node; refuses deep trees.
    ExprPtr seal(ExprPtr e)
    {
        const int d = childDepth(*e) + 1;
        if (d > kMaxExpressionDepth)
            fail("expression nested too deeply (more than " + std::to_string(kMaxExpressionDepth) + " levels)", cur());
        e->depth = static_cast<uint16_t>(d);
        return e;
    }

    struct DepthGuard {
        DepthGuard(Parser& p, int& counter, int limit, const char* what) : m_counter(counter)
        {
            if (++m_counter > limit)
                p.fail(std::string(what) + " nested too deeply (more than " + std::to_string(limit) + " levels)");
        }
        ~DepthGuard() { --m_counter; }
        DepthGuard(const DepthGuard&) = delete;
        DepthGuard& operator=(const DepthGuard&) = delete;
        int& m_counter;
    };

    // ---- statements (parser.cpp) ----
    Body subparse(const std::vector<std::string_view>& endTokens);
    Body parseStatements(const std::vector<std::string_view>& endTokens, bool dropNeedle);
    StmtPtr parseStatement();
    StmtPtr parseFor();
    StmtPtr parseIf();
    StmtPtr parseSet();
    StmtPtr parseMacro();
    StmtPtr parseCallBlock();
    StmtPtr parseFilterBlock();
    StmtPtr parseWith();
    StmtPtr parseBlock();
    StmtPtr parseUnsupported(const std::string& tag);
    void parseSignature(MacroDef& def);
    std::shared_ptr<MacroDef> parseMacroBody(std::shared_ptr<MacroDef> def, std::string_view endTag);
    Target parseAssignTarget(bool withTuple, bool nameOnly, std::string_view extraEnd, bool withNamespace);
    Target toTarget(const Expr& e, bool withNamespace);
    [[noreturn]] void failUnknownTag(const Token& tag);

    // ---- expressions (parser_expr.cpp) ----
    ExprPtr parseExpression(bool withCondexpr = true);
    ExprPtr parseCondexpr();
    ExprPtr parseOr();
    ExprPtr parseAnd();
    ExprPtr parseNot();
    ExprPtr parseCompare();
    ExprPtr parseMath1();
    ExprPtr parseConcat();
    ExprPtr parseMath2();
    ExprPtr parsePow();
    ExprPtr parseUnary(bool withFilter);
    ExprPtr parsePrimary(bool withNamespace = false);
    ExprPtr parseTuple(bool simplified, bool withCondexpr, std::string_view extraEnd, bool explicitParens,
                       bool withNamespace = false);
    ExprPtr parseList();
    ExprPtr parseDict();
    ExprPtr parsePostfix(ExprPtr node);
    ExprPtr parseFilterExpr(ExprPtr node);
    ExprPtr parseSubscript(ExprPtr node);
    ExprPtr parseSubscribed();
    ArgList parseCallArgs();
    ExprPtr parseCall(ExprPtr node);
    ExprPtr parseFilter(ExprPtr node, bool startInline);
    ExprPtr parseTest(ExprPtr node);
    bool isTupleEnd(std::string_view extraEnd) const;
    void noteName(const std::string& name);

    std::vector<Token> m_tokens;
    size_t m_pos = 0;
    std::unordered_map<std::string, int> m_symbols;
    std::vector<std::string> m_symbolNames;
    std::vector<std::vector<std::string_view>> m_endTokenStack;
    std::vector<std::string> m_tagStack;
    std::vector<MacroDef*> m_macroStack; // macros being parsed, innermost last
    int m_loopDepth = 0;                 // for break/continue
    int m_stmtDepth = 0;
    int m_exprDepth = 0;
};

} // namespace hearth::chat::jinja::detail
