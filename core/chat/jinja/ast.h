// The syntax tree of a parsed Jinja template. Immutable after parsing and
// shared by every render (thread-safe to read). Names are interned into
// symbol ids at parse time so that look-ups during rendering compare ints.
//
// Depth is bounded by the parser (Parser::kMaxNesting), so the recursive
// evaluator and the destructors cannot overflow the stack.
#pragma once

#include "chat/value.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hearth::chat::jinja {

class Interpreter;
struct CallArgs;

struct Node {
    int line = 0;
    int column = 0;
};

// ---- expressions ----------------------------------------------------------

enum class ExprKind : uint8_t {
    Const,
    Name,
    List,
    Tuple,
    Dict,
    Getattr,
    Getitem,
    Slice,
    Call,
    Filter,
    Test,
    Not,
    Neg,
    Pos,
    Binary,
    And,
    Or,
    Concat,
    Compare,
    CondExpr,
};

struct Expr : Node {
    explicit Expr(ExprKind k) : kind(k) {}
    virtual ~Expr() = default;
    Expr(const Expr&) = delete;
    Expr& operator=(const Expr&) = delete;
    ExprKind kind;
    uint16_t depth = 1; // height of this subtree, bounded by the parser
};
using ExprPtr = std::unique_ptr<Expr>;

struct ConstExpr : Expr {
    ConstExpr() : Expr(ExprKind::Const) {}
    Value value;
};

struct NameExpr : Expr {
    NameExpr() : Expr(ExprKind::Name) {}
    std::string name;
    int symbol = -1;
};

struct SeqExpr : Expr { // List or Tuple
    explicit SeqExpr(ExprKind k) : Expr(k) {}
    std::vector<ExprPtr> items;
};

struct DictExpr : Expr {
    DictExpr() : Expr(ExprKind::Dict) {}
    std::vector<std::pair<ExprPtr, ExprPtr>> items;
};

struct GetattrExpr : Expr {
    GetattrExpr() : Expr(ExprKind::Getattr) {}
    ExprPtr object;
    std::string name;
};

struct GetitemExpr : Expr {
    GetitemExpr() : Expr(ExprKind::Getitem) {}
    ExprPtr object;
    ExprPtr index; // may be a SliceExpr
};

struct SliceExpr : Expr {
    SliceExpr() : Expr(ExprKind::Slice) {}
    ExprPtr start, stop, step; // each may be null
};

struct ArgList {
    std::vector<ExprPtr> args;
    std::vector<std::pair<std::string, ExprPtr>> kwargs;
    ExprPtr dynArgs;   // *args
    ExprPtr dynKwargs; // **kwargs
};

struct CallExpr : Expr {
    CallExpr() : Expr(ExprKind::Call) {}
    ExprPtr callee;
    ArgList args;
};

// A filter: Value fn(interp, input, args). A test: bool fn(interp, input, args).
using FilterFn = Value (*)(Interpreter&, const Value&, CallArgs&);
using TestFn = bool (*)(Interpreter&, const Value&, CallArgs&);

struct FilterExpr : Expr {
    FilterExpr() : Expr(ExprKind::Filter) {}
    ExprPtr input; // null: the body of a filter block / set block
    std::string name;
    FilterFn fn = nullptr; // null: unknown, raises when evaluated
    ArgList args;
};

struct TestExpr : Expr {
    TestExpr() : Expr(ExprKind::Test) {}
    ExprPtr input;
    std::string name;
    TestFn fn = nullptr; // null: unknown, raises when evaluated
    ArgList args;
};

struct UnaryExpr : Expr { // Not, Neg, Pos
    explicit UnaryExpr(ExprKind k) : Expr(k) {}
    ExprPtr operand;
};

enum class BinOp : uint8_t {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow
};

struct BinaryExpr : Expr { // Binary (with op), And, Or
    explicit BinaryExpr(ExprKind k) : Expr(k) {}
    BinOp op = BinOp::Add;
    ExprPtr left, right;
};

struct ConcatExpr : Expr {
    ConcatExpr() : Expr(ExprKind::Concat) {}
    std::vector<ExprPtr> items;
};

enum class CmpOp : uint8_t {
    Eq,
    Ne,
    Lt,
    LtEq,
    Gt,
    GtEq,
    In,
    NotIn
};

struct CompareExpr : Expr {
    CompareExpr() : Expr(ExprKind::Compare) {}
    ExprPtr first;
    std::vector<std::pair<CmpOp, ExprPtr>> ops;
};

struct CondExpr : Expr {
    CondExpr() : Expr(ExprKind::CondExpr) {}
    ExprPtr test, then, otherwise; // otherwise may be null
};

// ---- statements -----------------------------------------------------------

// Where `set`, `for` and `with` store values.
struct Target : Node {
    enum class Kind : uint8_t {
        Name,
        Tuple,
        NamespaceAttr
    };
    Kind kind = Kind::Name;
    std::string name; // Name, or the namespace variable
    int symbol = -1;
    std::string attr;          // NamespaceAttr
    std::vector<Target> items; // Tuple
};

enum class StmtKind : uint8_t {
    Text,
    Print,
    If,
    For,
    Set,
    SetBlock,
    Macro,
    CallBlock,
    FilterBlock,
    With,
    Break,
    Continue,
    Body,        // a block whose body renders in place: block, generation, autoescape
    Unsupported, // include / import / extends: no loader, raises when run
};

struct Stmt : Node {
    explicit Stmt(StmtKind k) : kind(k) {}
    virtual ~Stmt() = default;
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;
    StmtKind kind;
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct TextStmt : Stmt {
    TextStmt() : Stmt(StmtKind::Text) {}
    std::string text;
};

struct PrintStmt : Stmt {
    PrintStmt() : Stmt(StmtKind::Print) {}
    ExprPtr expr;
};

struct IfStmt : Stmt {
    IfStmt() : Stmt(StmtKind::If) {}
    std::vector<std::pair<ExprPtr, Body>> branches; // if, elif...
    Body otherwise;
};

struct ForStmt : Stmt {
    ForStmt() : Stmt(StmtKind::For) {}
    Target target;
    ExprPtr iter;
    ExprPtr filter; // `for x in xs if cond`; may be null
    bool recursive = false;
    Body body;
    Body otherwise;
};

struct SetStmt : Stmt {
    SetStmt() : Stmt(StmtKind::Set) {}
    Target target;
    ExprPtr value;
};

struct SetBlockStmt : Stmt {
    SetBlockStmt() : Stmt(StmtKind::SetBlock) {}
    Target target;
    ExprPtr filter; // FilterExpr chain ending in a null input; may be null
    Body body;
};

// A macro, or the anonymous `caller` of a call block.
struct MacroDef {
    std::string name;
    std::vector<std::pair<std::string, int>> params; // name, symbol
    std::vector<ExprPtr> defaults;                   // for the last defaults.size() params
    Body body;
    bool usesCaller = false;  // the body refers to `caller`
    bool usesVarargs = false; // ... to `varargs`
    bool usesKwargs = false;  // ... to `kwargs`
};

struct MacroStmt : Stmt {
    MacroStmt() : Stmt(StmtKind::Macro) {}
    int symbol = -1;
    std::shared_ptr<MacroDef> def;
};

struct CallBlockStmt : Stmt {
    CallBlockStmt() : Stmt(StmtKind::CallBlock) {}
    ExprPtr call; // a CallExpr
    std::shared_ptr<MacroDef> caller;
};

struct FilterBlockStmt : Stmt {
    FilterBlockStmt() : Stmt(StmtKind::FilterBlock) {}
    ExprPtr filter;
    Body body;
};

struct WithStmt : Stmt {
    WithStmt() : Stmt(StmtKind::With) {}
    std::vector<Target> targets;
    std::vector<ExprPtr> values;
    Body body;
};

struct BodyStmt : Stmt {
    BodyStmt() : Stmt(StmtKind::Body) {}
    Body body;
};

struct UnsupportedStmt : Stmt {
    UnsupportedStmt() : Stmt(StmtKind::Unsupported) {}
    std::string message;
};

// A parsed template.
struct Program {
    Body body;
    std::vector<std::string> symbols; // symbol id → name
};

} // namespace hearth::chat::jinja
