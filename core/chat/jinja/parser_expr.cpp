// Expressions of the Jinja parser, with jinja2's precedence (see parser.h).

#include "chat/jinja/builtins.h"
#include "chat/jinja/parser_impl.h"

namespace hearth::chat::jinja::detail {

namespace {

int depthOf(const ExprPtr& e)
{
    return e ? e->depth : 0;
}

int argsDepth(const ArgList& a)
{
    int d = std::max(depthOf(a.dynArgs), depthOf(a.dynKwargs));
    for (const ExprPtr& e : a.args)
        d = std::max(d, depthOf(e));
    for (const auto& kw : a.kwargs)
        d = std::max(d, depthOf(kw.second));
    return d;
}

int maxDepth(const std::vector<ExprPtr>& items)
{
    int d = 0;
    for (const ExprPtr& x : items)
        d = std::max(d, depthOf(x));
    return d;
}

} // namespace

int childDepth(const Expr& e)
{
    switch (e.kind) {
    case ExprKind::List:
    case ExprKind::Tuple: return maxDepth(static_cast<const SeqExpr&>(e).items);
    case ExprKind::Concat: return maxDepth(static_cast<const ConcatExpr&>(e).items);
    case ExprKind::Dict: {
        int d = 0;
        for (const auto& [k, v] : static_cast<const DictExpr&>(e).items)
            d = std::max({d, depthOf(k), depthOf(v)});
        return d;
    }
    case ExprKind::Getattr: return depthOf(static_cast<const GetattrExpr&>(e).object);
    case ExprKind::Getitem: {
        const auto& g = static_cast<const GetitemExpr&>(e);
        return std::max(depthOf(g.object), depthOf(g.index));
    }
    case ExprKind::Slice: {
        const auto& s = static_cast<const SliceExpr&>(e);
        return std::max({depthOf(s.start), depthOf(s.stop), depthOf(s.step)});
    }
    case ExprKind::Call: {
        const auto& c = static_cast<const CallExpr&>(e);
        return std::max(depthOf(c.callee), argsDepth(c.args));
    }
    case ExprKind::Filter: {
        const auto& f = static_cast<const FilterExpr&>(e);
        return std::max(depthOf(f.input), argsDepth(f.args));
    }
    case ExprKind::Test: {
        const auto& t = static_cast<const TestExpr&>(e);
        return std::max(depthOf(t.input), argsDepth(t.args));
    }
    case ExprKind::Not:
    case ExprKind::Neg:
    case ExprKind::Pos: return depthOf(static_cast<const UnaryExpr&>(e).operand);
    case ExprKind::Binary:
    case ExprKind::And:
    case ExprKind::Or: {
        const auto& b = static_cast<const BinaryExpr&>(e);
        return std::max(depthOf(b.left), depthOf(b.right));
    }
    case ExprKind::Compare: {
        const auto& c = static_cast<const CompareExpr&>(e);
        int d = depthOf(c.first);
        for (const auto& op : c.ops)
            d = std::max(d, depthOf(op.second));
        return d;
    }
    case ExprKind::CondExpr: {
        const auto& c = static_cast<const CondExpr&>(e);
        return std::max({depthOf(c.test), depthOf(c.then), depthOf(c.otherwise)});
    }
    default: return 0;
    }
}

ExprPtr Parser::parseExpression(bool withCondexpr)
{
    DepthGuard guard(*this, m_exprDepth, kMaxExpressionDepth, "expressions");
    return withCondexpr ? parseCondexpr() : parseOr();
}

ExprPtr Parser::parseCondexpr()
{
    ExprPtr expr = parseOr();
    while (isName("if")) {
        next();
        auto node = std::make_unique<CondExpr>();
        node->line = expr->line;
        node->column = expr->column;
        node->test = parseOr();
        if (skipName("else")) {
            DepthGuard guard(*this, m_exprDepth, kMaxExpressionDepth, "expressions");
            node->otherwise = parseCondexpr();
        }
        node->then = std::move(expr);
        expr = seal(std::move(node));
    }
    return expr;
}

ExprPtr Parser::parseOr()
{
    ExprPtr left = parseAnd();
    while (isName("or")) {
        auto node = make<BinaryExpr>(next(), ExprKind::Or);
        node->left = std::move(left);
        node->right = parseAnd();
        left = seal(std::move(node));
    }
    return left;
}

ExprPtr Parser::parseAnd()
{
    ExprPtr left = parseNot();
    while (isName("and")) {
        auto node = make<BinaryExpr>(next(), ExprKind::And);
        node->left = std::move(left);
        node->right = parseNot();
        left = seal(std::move(node));
    }
    return left;
}

ExprPtr Parser::parseNot()
{
    if (!isName("not"))
        return parseCompare();
    auto node = make<UnaryExpr>(next(), ExprKind::Not);
    DepthGuard guard(*this, m_exprDepth, kMaxExpressionDepth, "expressions");
    node->operand = parseNot();
    return seal(std::move(node));
}

ExprPtr Parser::parseCompare()
{
    const Token& at = cur();
    ExprPtr expr = parseMath1();
    std::unique_ptr<CompareExpr> cmp;
    for (;;) {
        CmpOp op;
        switch (cur().type) {
        case Tok::Eq: op = CmpOp::Eq; break;
        case Tok::Ne: op = CmpOp::Ne; break;
        case Tok::Lt: op = CmpOp::Lt; break;
        case Tok::LtEq: op = CmpOp::LtEq; break;
        case Tok::Gt: op = CmpOp::Gt; break;
        case Tok::GtEq: op = CmpOp::GtEq; break;
        default:
            if (isName("in")) {
                op = CmpOp::In;
            } else if (isName("not") && look().type == Tok::Name && look().text == "in") {
                next();
                op = CmpOp::NotIn;
            } else {
                return cmp ? seal(std::move(cmp)) : std::move(expr);
            }
        }
        next();
        if (!cmp) {
            cmp = make<CompareExpr>(at);
            cmp->first = std::move(expr);
        }
        cmp->ops.emplace_back(op, parseMath1());
    }
}

ExprPtr Parser::parseMath1()
{
    ExprPtr left = parseConcat();
    while (cur().type == Tok::Add || cur().type == Tok::Sub) {
        auto node = make<BinaryExpr>(cur(), ExprKind::Binary);
        node->op = next().type == Tok::Add ? BinOp::Add : BinOp::Sub;
        node->left = std::move(left);
        node->right = parseConcat();
        left = seal(std::move(node));
    }
    return left;
}

ExprPtr Parser::parseConcat()
{
    const Token& at = cur();
    ExprPtr first = parseMath2();
    if (cur().type != Tok::Tilde)
        return first;
    auto node = make<ConcatExpr>(at);
    node->items.push_back(std::move(first));
    while (skipIf(Tok::Tilde))
        node->items.push_back(parseMath2());
    return seal(std::move(node));
}

ExprPtr Parser::parseMath2()
{
    ExprPtr left = parsePow();
    for (;;) {
        BinOp op;
        switch (cur().type) {
        case Tok::Mul: op = BinOp::Mul; break;
        case Tok::Div: op = BinOp::Div; break;
        case Tok::FloorDiv: op = BinOp::FloorDiv; break;
        case Tok::Mod: op = BinOp::Mod; break;
        default: return left;
        }
        auto node = make<BinaryExpr>(next(), ExprKind::Binary);
        node->op = op;
        node->left = std::move(left);
        node->right = parsePow();
        left = seal(std::move(node));
    }
}

ExprPtr Parser::parsePow()
{
    ExprPtr left = parseUnary(true);
    while (cur().type == Tok::Pow) {
        auto node = make<BinaryExpr>(next(), ExprKind::Binary);
        node->op = BinOp::Pow;
        node->left = std::move(left);
        node->right = parseUnary(true);
        left = seal(std::move(node));
    }
    return left;
}

ExprPtr Parser::parseUnary(bool withFilter)
{
    ExprPtr node;
    if (cur().type == Tok::Sub || cur().type == Tok::Add) {
        const Token& op = next();
        auto u = make<UnaryExpr>(op, op.type == Tok::Sub ? ExprKind::Neg : ExprKind::Pos);
        DepthGuard guard(*this, m_exprDepth, kMaxExpressionDepth, "expressions");
        u->operand = parseUnary(false);
        node = seal(std::move(u));
    } else {
        node = parsePrimary();
    }
    node = parsePostfix(std::move(node));
    if (withFilter)
        node = parseFilterExpr(std::move(node));
    return node;
}

void Parser::noteName(const std::string& name)
{
    for (MacroDef* def : m_macroStack) {
        if (name == "caller")
            def->usesCaller = true;
        else if (name == "varargs")
            def->usesVarargs = true;
        else if (name == "kwargs")
            def->usesKwargs = true;
    }
}

ExprPtr Parser::parsePrimary(bool withNamespace)
{
    const Token& tok = cur();
    switch (tok.type) {
    case Tok::Name: {
        next();
        if (tok.text == "true" || tok.text == "false" || tok.text == "True" || tok.text == "False") {
            auto c = make<ConstExpr>(tok);
            c->value = Value(tok.text == "true" || tok.text == "True");
            return c;
        }
        if (tok.text == "none" || tok.text == "None")
            return make<ConstExpr>(tok);
        auto name = make<NameExpr>(tok);
        name->name = tok.text;
        name->symbol = symbol(tok.text);
        noteName(tok.text);
        if (withNamespace && cur().type == Tok::Dot) {
            next();
            auto attr = make<GetattrExpr>(tok);
            attr->object = std::move(name);
            attr->name = expect(Tok::Name).text;
            return seal(std::move(attr));
        }
        return name;
    }
    case Tok::String: {
        auto c = make<ConstExpr>(tok);
        std::string s;
        while (cur().type == Tok::String)
            s += next().text;
        c->value = Value(std::move(s));
        return c;
    }
    case Tok::Integer:
    case Tok::Float: {
        auto c = make<ConstExpr>(tok);
        c->value = tok.type == Tok::Integer ? Value(tok.intValue) : Value(tok.floatValue);
        next();
        return c;
    }
    case Tok::LParen: {
        next();
        ExprPtr e = parseTuple(false, true, {}, true);
        expect(Tok::RParen);
        return e;
    }
    case Tok::LBracket: return parseList();
    case Tok::LBrace: return parseDict();
    default: fail("unexpected '" + describeToken(tok) + "'");
    }
}

bool Parser::isTupleEnd(std::string_view extraEnd) const
{
    const Tok t = cur().type;
    if (t == Tok::VariableEnd || t == Tok::BlockEnd || t == Tok::RParen)
        return true;
    return !extraEnd.empty() && isName(extraEnd);
}

ExprPtr Parser::parseTuple(bool simplified, bool withCondexpr, std::string_view extraEnd, bool explicitParens,
                           bool withNamespace)
{
    const Token& at = cur();
    std::vector<ExprPtr> items;
    bool isTuple = false;
    for (;;) {
        if (!items.empty())
            expect(Tok::Comma);
        if (isTupleEnd(extraEnd))
            break;
        items.push_back(simplified ? parsePrimary(withNamespace) : parseExpression(withCondexpr));
        if (cur().type != Tok::Comma)
            break;
        isTuple = true;
    }
    if (!isTuple) {
        if (!items.empty())
            return std::move(items[0]);
        if (!explicitParens)
            fail("Expected an expression, got '" + describeToken(cur()) + "'");
    }
    auto t = make<SeqExpr>(at, ExprKind::Tuple);
    t->items = std::move(items);
    return seal(std::move(t));
}

ExprPtr Parser::parseList()
{
    auto node = make<SeqExpr>(expect(Tok::LBracket), ExprKind::List);
    while (cur().type != Tok::RBracket) {
        if (!node->items.empty())
            expect(Tok::Comma);
        if (cur().type == Tok::RBracket)
            break;
        node->items.push_back(parseExpression());
    }
    expect(Tok::RBracket);
    return seal(std::move(node));
}

ExprPtr Parser::parseDict()
{
    auto node = make<DictExpr>(expect(Tok::LBrace));
    while (cur().type != Tok::RBrace) {
        if (!node->items.empty())
            expect(Tok::Comma);
        if (cur().type == Tok::RBrace)
            break;
        ExprPtr key = parseExpression();
        expect(Tok::Colon);
        node->items.emplace_back(std::move(key), parseExpression());
    }
    expect(Tok::RBrace);
    return seal(std::move(node));
}

ExprPtr Parser::parsePostfix(ExprPtr node)
{
    for (;;) {
        const Tok t = cur().type;
        if (t == Tok::Dot || t == Tok::LBracket)
            node = parseSubscript(std::move(node));
        else if (t == Tok::LParen)
            node = parseCall(std::move(node));
        else
            return node;
    }
}

ExprPtr Parser::parseFilterExpr(ExprPtr node)
{
    for (;;) {
        if (cur().type == Tok::Pipe)
            node = parseFilter(std::move(node), false);
        else if (isName("is"))
            node = parseTest(std::move(node));
        else if (cur().type == Tok::LParen)
            node = parseCall(std::move(node));
        else
            return node;
    }
}

ExprPtr Parser::parseSubscript(ExprPtr node)
{
    const Token& tok = next();
    if (tok.type == Tok::Dot) {
        const Token& attr = cur();
        next();
        if (attr.type == Tok::Name) {
            auto g = make<GetattrExpr>(tok);
            g->object = std::move(node);
            g->name = attr.text;
            return seal(std::move(g));
        }
        if (attr.type != Tok::Integer)
            fail("expected name or number", attr);
        auto g = make<GetitemExpr>(tok);
        g->object = std::move(node);
        auto c = make<ConstExpr>(attr);
        c->value = Value(attr.intValue);
        g->index = std::move(c);
        return seal(std::move(g));
    }
    auto g = make<GetitemExpr>(tok);
    g->object = std::move(node);
    std::vector<ExprPtr> args;
    while (cur().type != Tok::RBracket) {
        if (!args.empty())
            expect(Tok::Comma);
        args.push_back(parseSubscribed());
    }
    expect(Tok::RBracket);
    if (args.size() == 1) {
        g->index = std::move(args[0]);
    } else {
        auto t = make<SeqExpr>(tok, ExprKind::Tuple);
        t->items = std::move(args);
        g->index = seal(std::move(t));
    }
    return seal(std::move(g));
}

ExprPtr Parser::parseSubscribed()
{
    auto slice = make<SliceExpr>(cur());
    if (cur().type == Tok::Colon) {
        next();
    } else {
        ExprPtr e = parseExpression();
        if (cur().type != Tok::Colon)
            return e;
        next();
        slice->start = std::move(e);
    }
    if (cur().type != Tok::Colon && cur().type != Tok::RBracket && cur().type != Tok::Comma)
        slice->stop = parseExpression();
    if (skipIf(Tok::Colon) && cur().type != Tok::RBracket && cur().type != Tok::Comma)
        slice->step = parseExpression();
    return seal(std::move(slice));
}

ArgList Parser::parseCallArgs()
{
    const Token& lparen = expect(Tok::LParen);
    ArgList a;
    const auto ensure = [&](bool ok) {
        if (!ok)
            fail("invalid syntax for function call expression", lparen);
    };
    bool requireComma = false;
    while (cur().type != Tok::RParen) {
        if (requireComma) {
            expect(Tok::Comma);
            if (cur().type == Tok::RParen)
                break; // trailing comma
        }
        if (skipIf(Tok::Mul)) {
            ensure(!a.dynArgs && !a.dynKwargs);
            a.dynArgs = parseExpression();
        } else if (skipIf(Tok::Pow)) {
            ensure(!a.dynKwargs);
            a.dynKwargs = parseExpression();
        } else if (cur().type == Tok::Name && look().type == Tok::Assign) {
            ensure(!a.dynKwargs);
            std::string key = next().text;
            next();
            a.kwargs.emplace_back(std::move(key), parseExpression());
        } else {
            ensure(!a.dynArgs && !a.dynKwargs && a.kwargs.empty());
            a.args.push_back(parseExpression());
        }
        requireComma = true;
    }
    expect(Tok::RParen);
    return a;
}

ExprPtr Parser::parseCall(ExprPtr node)
{
    auto c = make<CallExpr>(cur());
    c->callee = std::move(node);
    c->args = parseCallArgs();
    return seal(std::move(c));
}

ExprPtr Parser::parseFilter(ExprPtr node, bool startInline)
{
    while (cur().type == Tok::Pipe || startInline) {
        if (!startInline)
            next();
        const Token& tok = expect(Tok::Name);
        auto f = make<FilterExpr>(tok);
        f->name = tok.text;
        while (skipIf(Tok::Dot))
            f->name += "." + expect(Tok::Name).text;
        f->fn = findFilter(f->name);
        if (cur().type == Tok::LParen)
            f->args = parseCallArgs();
        f->input = std::move(node);
        node = seal(std::move(f));
        startInline = false;
    }
    return node;
}

ExprPtr Parser::parseTest(ExprPtr node)
{
    const Token& is = next();
    const bool negated = skipName("not");
    const Token& nameTok = expect(Tok::Name);
    auto t = make<TestExpr>(nameTok);
    t->name = nameTok.text;
    while (skipIf(Tok::Dot))
        t->name += "." + expect(Tok::Name).text;
    t->fn = findTest(t->name);
    const Tok k = cur().type;
    if (k == Tok::LParen) {
        t->args = parseCallArgs();
    } else if ((k == Tok::Name || k == Tok::String || k == Tok::Integer || k == Tok::Float || k == Tok::LBracket ||
                k == Tok::LBrace) &&
               !isName("else") && !isName("or") && !isName("and")) {
        if (isName("is"))
            fail("You cannot chain multiple tests with is");
        t->args.args.push_back(parsePostfix(parsePrimary()));
    }
    t->input = std::move(node);
    ExprPtr result = seal(std::move(t));
    if (!negated)
        return result;
    auto n = make<UnaryExpr>(is, ExprKind::Not);
    n->operand = std::move(result);
    return seal(std::move(n));
}

} // namespace hearth::chat::jinja::detail
