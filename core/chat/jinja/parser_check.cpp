// The compile-time check of filter and test names (see checkFilters in
// parser_impl.h). Frames follow jinja2's compiler: if statements and inline
// ifs are soft; loop bodies, macros, call/filter/set blocks and `with` bodies
// open hard frames again.

#include "chat/jinja/parser_impl.h"

namespace hearth::chat::jinja::detail {

namespace {

void checkExpr(const Expr* e, bool soft);

void checkArgs(const ArgList& a, bool soft)
{
    for (const ExprPtr& x : a.args)
        checkExpr(x.get(), soft);
    for (const auto& kw : a.kwargs)
        checkExpr(kw.second.get(), soft);
    checkExpr(a.dynArgs.get(), soft);
    checkExpr(a.dynKwargs.get(), soft);
}

void checkExpr(const Expr* e, bool soft)
{
    if (!e)
        return;
    switch (e->kind) {
    case ExprKind::List:
    case ExprKind::Tuple:
        for (const ExprPtr& x : static_cast<const SeqExpr*>(e)->items)
            checkExpr(x.get(), soft);
        break;
    case ExprKind::Concat:
        for (const ExprPtr& x : static_cast<const ConcatExpr*>(e)->items)
            checkExpr(x.get(), soft);
        break;
    case ExprKind::Dict:
        for (const auto& [k, v] : static_cast<const DictExpr*>(e)->items) {
            checkExpr(k.get(), soft);
            checkExpr(v.get(), soft);
        }
        break;
    case ExprKind::Getattr: checkExpr(static_cast<const GetattrExpr*>(e)->object.get(), soft); break;
    case ExprKind::Getitem: {
        const auto* g = static_cast<const GetitemExpr*>(e);
        checkExpr(g->object.get(), soft);
        checkExpr(g->index.get(), soft);
        break;
    }
    case ExprKind::Slice: {
        const auto* s = static_cast<const SliceExpr*>(e);
        checkExpr(s->start.get(), soft);
        checkExpr(s->stop.get(), soft);
        checkExpr(s->step.get(), soft);
        break;
    }
    case ExprKind::Call: {
        const auto* c = static_cast<const CallExpr*>(e);
        checkExpr(c->callee.get(), soft);
        checkArgs(c->args, soft);
        break;
    }
    case ExprKind::Filter: {
        const auto* f = static_cast<const FilterExpr*>(e);
        if (!f->fn && !soft)
            throw TemplateError(TemplateError::Kind::Syntax, "No filter named '" + f->name + "'.", f->line, f->column);
        checkExpr(f->input.get(), soft);
        checkArgs(f->args, soft);
        break;
    }
    case ExprKind::Test: {
        const auto* t = static_cast<const TestExpr*>(e);
        if (!t->fn && !soft)
            throw TemplateError(TemplateError::Kind::Syntax, "No test named '" + t->name + "'.", t->line, t->column);
        checkExpr(t->input.get(), soft);
        checkArgs(t->args, soft);
        break;
    }
    case ExprKind::Not:
    case ExprKind::Neg:
    case ExprKind::Pos: checkExpr(static_cast<const UnaryExpr*>(e)->operand.get(), soft); break;
    case ExprKind::Binary:
    case ExprKind::And:
    case ExprKind::Or: {
        const auto* b = static_cast<const BinaryExpr*>(e);
        checkExpr(b->left.get(), soft);
        checkExpr(b->right.get(), soft);
        break;
    }
    case ExprKind::Compare: {
        const auto* c = static_cast<const CompareExpr*>(e);
        checkExpr(c->first.get(), soft);
        for (const auto& op : c->ops)
            checkExpr(op.second.get(), soft);
        break;
    }
    case ExprKind::CondExpr: {
        const auto* c = static_cast<const CondExpr*>(e);
        checkExpr(c->test.get(), true);
        checkExpr(c->then.get(), true);
        checkExpr(c->otherwise.get(), true);
        break;
    }
    default: break;
    }
}

void checkMacro(const MacroDef& def)
{
    for (const ExprPtr& d : def.defaults)
        checkExpr(d.get(), false);
    checkFilters(def.body, false);
}

} // namespace

void checkFilters(const Body& body, bool soft)
{
    for (const StmtPtr& s : body) {
        switch (s->kind) {
        case StmtKind::Print: checkExpr(static_cast<const PrintStmt&>(*s).expr.get(), soft); break;
        case StmtKind::If: {
            const auto& n = static_cast<const IfStmt&>(*s);
            for (const auto& [test, branch] : n.branches) {
                checkExpr(test.get(), true);
                checkFilters(branch, true);
            }
            checkFilters(n.otherwise, true);
            break;
        }
        case StmtKind::For: {
            const auto& n = static_cast<const ForStmt&>(*s);
            checkExpr(n.iter.get(), soft);
            checkExpr(n.filter.get(), false);
            checkFilters(n.body, false);
            checkFilters(n.otherwise, false);
            break;
        }
        case StmtKind::Set: checkExpr(static_cast<const SetStmt&>(*s).value.get(), soft); break;
        case StmtKind::SetBlock: {
            const auto& n = static_cast<const SetBlockStmt&>(*s);
            checkExpr(n.filter.get(), false);
            checkFilters(n.body, false);
            break;
        }
        case StmtKind::Macro: checkMacro(*static_cast<const MacroStmt&>(*s).def); break;
        case StmtKind::CallBlock: {
            const auto& n = static_cast<const CallBlockStmt&>(*s);
            checkExpr(n.call.get(), soft);
            checkMacro(*n.caller);
            break;
        }
        case StmtKind::FilterBlock: {
            const auto& n = static_cast<const FilterBlockStmt&>(*s);
            checkExpr(n.filter.get(), false);
            checkFilters(n.body, false);
            break;
        }
        case StmtKind::With: {
            const auto& n = static_cast<const WithStmt&>(*s);
            for (const ExprPtr& v : n.values)
                checkExpr(v.get(), soft);
            checkFilters(n.body, false);
            break;
        }
        case StmtKind::Body: checkFilters(static_cast<const BodyStmt&>(*s).body, false); break;
        default: break;
        }
    }
}

} // namespace hearth::chat::jinja::detail
