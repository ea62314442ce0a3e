// Statements of the Jinja parser (expressions are in parser_expr.cpp).

#include "chat/jinja/parser.h"

#include "chat/jinja/parser_impl.h"

namespace hearth::chat::jinja {

namespace detail {

namespace {

bool contains(const std::vector<std::string_view>& v, std::string_view s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string quotedAlternatives(const std::vector<std::string_view>& v)
{
    std::string out;
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? " or '" : "'") + std::string(v[i]) + "'";
    return out;
}

} // namespace

Program Parser::run()
{
    Program p;
    p.body = subparse({});
    p.symbols = std::move(m_symbolNames);
    checkFilters(p.body, /*soft=*/false);
    return p;
}

Body Parser::subparse(const std::vector<std::string_view>& endTokens)
{
    Body body;
    if (!endTokens.empty())
        m_endTokenStack.push_back(endTokens);
    for (;;) {
        const Token& tok = cur();
        if (tok.type == Tok::Data) {
            auto t = make<TextStmt>(tok);
            t->text = tok.text;
            body.push_back(std::move(t));
            next();
        } else if (tok.type == Tok::VariableBegin) {
            next();
            auto p = make<PrintStmt>(cur());
            p->expr = parseTuple(false, true, {}, false);
            body.push_back(std::move(p));
            expect(Tok::VariableEnd);
        } else if (tok.type == Tok::BlockBegin) {
            next();
            if (!endTokens.empty() && cur().type == Tok::Name && contains(endTokens, cur().text))
                break;
            body.push_back(parseStatement());
            expect(Tok::BlockEnd);
        } else {
            break; // Eof
        }
    }
    if (!endTokens.empty())
        m_endTokenStack.pop_back();
    return body;
}

Body Parser::parseStatements(const std::vector<std::string_view>& endTokens, bool dropNeedle)
{
    skipIf(Tok::Colon);
    expect(Tok::BlockEnd);
    Body body = subparse(endTokens);
    if (cur().type == Tok::Eof) {
        std::string msg =
            "Unexpected end of template. Jinja was looking for the following tags: " + quotedAlternatives(endTokens) +
            ".";
        if (!m_tagStack.empty())
            msg += " The innermost block that needs to be closed is '" + m_tagStack.back() + "'.";
        fail(msg);
    }
    if (dropNeedle)
        next();
    return body;
}

void Parser::failUnknownTag(const Token& tag)
{
    std::string msg = "Encountered unknown tag '" + tag.text + "'.";
    if (!m_endTokenStack.empty()) {
        bool expected = false;
        for (const auto& ends : m_endTokenStack)
            expected = expected || contains(ends, tag.text);
        const std::string looking = quotedAlternatives(m_endTokenStack.back());
        msg += expected
                   ? " You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for " +
                         looking + "."
                   : " Jinja was looking for the following tags: " + looking + ".";
    }
    if (!m_tagStack.empty())
        msg += " The innermost block that needs to be closed is '" + m_tagStack.back() + "'.";
    fail(msg, tag);
}

StmtPtr Parser::parseStatement()
{
    const Token& tok = cur();
    if (tok.type != Tok::Name)
        fail("tag name expected");
    DepthGuard guard(*this, m_stmtDepth, kMaxStatementNesting, "blocks");
    const std::string tag = tok.text;
    m_tagStack.push_back(tag);
    StmtPtr result;
    if (tag == "for") {
        result = parseFor();
    } else if (tag == "if") {
        result = parseIf();
    } else if (tag == "set") {
        result = parseSet();
    } else if (tag == "macro") {
        result = parseMacro();
    } else if (tag == "call") {
        result = parseCallBlock();
    } else if (tag == "filter") {
        result = parseFilterBlock();
    } else if (tag == "with") {
        result = parseWith();
    } else if (tag == "block" || tag == "generation" || tag == "autoescape") {
        result = parseBlock();
    } else if (tag == "print") {
        const Token& at = next();
        auto concat = make<ConcatExpr>(at);
        while (cur().type != Tok::BlockEnd) {
            if (!concat->items.empty())
                expect(Tok::Comma);
            concat->items.push_back(parseExpression());
        }
        auto p = make<PrintStmt>(at);
        p->expr = seal(std::move(concat));
        result = std::move(p);
    } else if (tag == "break" || tag == "continue") {
        const Token& at = next();
        if (m_loopDepth == 0)
            fail("'" + tag + "' outside loop", at);
        result = tag == "break" ? make<Stmt>(at, StmtKind::Break) : make<Stmt>(at, StmtKind::Continue);
    } else if (tag == "extends" || tag == "include" || tag == "import" || tag == "from") {
        result = parseUnsupported(tag);
    } else {
        m_tagStack.pop_back();
        failUnknownTag(tok);
    }
    m_tagStack.pop_back();
    return result;
}

StmtPtr Parser::parseFor()
{
    auto node = make<ForStmt>(expectName("for"));
    node->target = parseAssignTarget(true, false, "in", false);
    expectName("in");
    node->iter = parseTuple(false, false, "recursive", false);
    if (skipName("if"))
        node->filter = parseExpression();
    node->recursive = skipName("recursive");
    ++m_loopDepth;
    node->body = parseStatements({"endfor", "else"}, false);
    --m_loopDepth;
    if (next().text == "else")
        node->otherwise = parseStatements({"endfor"}, true);
    return node;
}

StmtPtr Parser::parseIf()
{
    auto node = make<IfStmt>(expectName("if"));
    for (;;) {
        ExprPtr test = parseTuple(false, false, {}, false);
        Body body = parseStatements({"elif", "else", "endif"}, false);
        node->branches.emplace_back(std::move(test), std::move(body));
        const Token& t = next();
        if (t.text == "elif")
            continue;
        if (t.text == "else")
            node->otherwise = parseStatements({"endif"}, true);
        break;
    }
    return node;
}

StmtPtr Parser::parseSet()
{
    const Token& at = next();
    Target target = parseAssignTarget(true, false, {}, true);
    if (skipIf(Tok::Assign)) {
        auto node = make<SetStmt>(at);
        node->target = std::move(target);
        node->value = parseTuple(false, true, {}, false);
        return node;
    }
    auto node = make<SetBlockStmt>(at);
    node->target = std::move(target);
    node->filter = parseFilter(nullptr, false);
    node->body = parseStatements({"endset"}, true);
    return node;
}

void Parser::parseSignature(MacroDef& def)
{
    expect(Tok::LParen);
    while (cur().type != Tok::RParen) {
        if (!def.params.empty())
            expect(Tok::Comma);
        const Token& name = expect(Tok::Name);
        if (skipIf(Tok::Assign))
            def.defaults.push_back(parseExpression());
        else if (!def.defaults.empty())
            fail("non-default argument follows default argument");
        def.params.emplace_back(name.text, symbol(name.text));
    }
    expect(Tok::RParen);
}

// Parses a macro's (or caller's) body with the state a new function has.
std::shared_ptr<MacroDef> Parser::parseMacroBody(std::shared_ptr<MacroDef> def, std::string_view endTag)
{
    const int loops = m_loopDepth;
    m_loopDepth = 0;
    m_macroStack.push_back(def.get());
    def->body = parseStatements({endTag}, true);
    m_macroStack.pop_back();
    m_loopDepth = loops;
    return def;
}

StmtPtr Parser::parseMacro()
{
    auto node = make<MacroStmt>(next());
    auto def = std::make_shared<MacroDef>();
    const Token& name = expect(Tok::Name);
    def->name = name.text;
    node->symbol = symbol(name.text);
    m_macroStack.push_back(def.get()); // defaults may refer to caller/varargs/kwargs
    parseSignature(*def);
    m_macroStack.pop_back();
    node->def = parseMacroBody(std::move(def), "endmacro");
    return node;
}

StmtPtr Parser::parseCallBlock()
{
    auto node = make<CallBlockStmt>(next());
    auto def = std::make_shared<MacroDef>();
    def->name = "caller";
    if (cur().type == Tok::LParen)
        parseSignature(*def);
    const Token& at = cur();
    node->call = parseExpression();
    if (node->call->kind != ExprKind::Call)
        fail("expected call", at);
    node->caller = parseMacroBody(std::move(def), "endcall");
    return node;
}

StmtPtr Parser::parseFilterBlock()
{
    auto node = make<FilterBlockStmt>(next());
    node->filter = parseFilter(nullptr, true);
    node->body = parseStatements({"endfilter"}, true);
    return node;
}

StmtPtr Parser::parseWith()
{
    auto node = make<WithStmt>(next());
    while (cur().type != Tok::BlockEnd) {
        if (!node->targets.empty())
            expect(Tok::Comma);
        node->targets.push_back(parseAssignTarget(true, false, {}, false));
        expect(Tok::Assign);
        node->values.push_back(parseExpression());
    }
    node->body = parseStatements({"endwith"}, true);
    return node;
}

// block / generation / autoescape: the body renders in place.
StmtPtr Parser::parseBlock()
{
    const Token& at = next();
    const std::string tag = at.text;
    auto node = make<BodyStmt>(at);
    std::string name;
    if (tag == "block") {
        name = expect(Tok::Name).text;
        skipName("scoped");
        skipName("required");
        if (cur().type == Tok::Sub)
            fail("Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an "
                 "underscore instead.");
    } else if (tag == "autoescape") {
        parseExpression();
    }
    const std::string end = "end" + tag;
    // block and generation bodies are functions of their own in jinja2;
    // autoescape bodies run inline.
    const int loops = m_loopDepth;
    if (tag != "autoescape")
        m_loopDepth = 0;
    node->body = parseStatements({end}, true);
    m_loopDepth = loops;
    if (tag == "block")
        skipName(name);
    return node;
}

StmtPtr Parser::parseUnsupported(const std::string& tag)
{
    auto node = make<UnsupportedStmt>(next());
    parseExpression();
    if (tag == "import") {
        expectName("as");
        expect(Tok::Name);
    } else if (tag == "from") {
        expectName("import");
        while (cur().type == Tok::Name || cur().type == Tok::Comma)
            next();
    }
    while (cur().type == Tok::Name) // ignore missing / with context / without context
        next();
    node->message = "cannot " + tag + " other templates: chat templates are rendered without a template loader";
    return node;
}

Target Parser::toTarget(const Expr& e, bool withNamespace)
{
    Target t;
    t.line = e.line;
    t.column = e.column;
    if (e.kind == ExprKind::Name) {
        const auto& n = static_cast<const NameExpr&>(e);
        t.kind = Target::Kind::Name;
        t.name = n.name;
        t.symbol = n.symbol;
        return t;
    }
    if (e.kind == ExprKind::Getattr && withNamespace) {
        const auto& g = static_cast<const GetattrExpr&>(e);
        if (g.object->kind == ExprKind::Name) {
            const auto& n = static_cast<const NameExpr&>(*g.object);
            t.kind = Target::Kind::NamespaceAttr;
            t.name = n.name;
            t.symbol = n.symbol;
            t.attr = g.name;
            return t;
        }
    }
    if (e.kind == ExprKind::Tuple) {
        t.kind = Target::Kind::Tuple;
        for (const ExprPtr& item : static_cast<const SeqExpr&>(e).items)
            t.items.push_back(toTarget(*item, withNamespace));
        return t;
    }
    static constexpr const char* kNames[] = {"const",  "name", "list",   "tuple",  "dict",    "getattr", "getitem",
                                             "slice",  "call", "filter", "test",   "not",     "neg",     "pos",
                                             "binary", "and",  "or",     "concat", "compare", "condexpr"};
    throw TemplateError(TemplateError::Kind::Syntax,
                        std::string("can't assign to '") + kNames[static_cast<int>(e.kind)] + "'", e.line, e.column);
}

Target Parser::parseAssignTarget(bool withTuple, bool nameOnly, std::string_view extraEnd, bool withNamespace)
{
    if (nameOnly) {
        const Token& name = expect(Tok::Name);
        Target t;
        t.line = name.line;
        t.column = name.column;
        t.name = name.text;
        t.symbol = symbol(name.text);
        return t;
    }
    ExprPtr e = withTuple ? parseTuple(true, true, extraEnd, false, withNamespace) : parsePrimary(withNamespace);
    return toTarget(*e, withNamespace);
}

} // namespace detail

Program parse(std::string_view source)
{
    if (source.size() > kMaxSourceBytes)
        throw TemplateError(TemplateError::Kind::Syntax, "the template is larger than " +
                                                             std::to_string(kMaxSourceBytes >> 20) +
                                                             " MiB; chat templates are a few KiB");
    return detail::Parser(source).run();
}

} // namespace hearth::chat::jinja
