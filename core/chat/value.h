// Value: the data a chat template sees (messages, tools, extra variables)
// and everything the template engine computes. JSON-shaped — null, bool,
// int64, double, string, array, object with insertion-ordered keys — plus a
// few kinds only the engine makes: Undefined (jinja2's missing value),
// Tuple (Python tuples, e.g. dict items) and Native (macros, `loop`,
// namespaces, bound methods).
//
// Semantics follow Python, because templates are written against jinja2:
// str() of a list is "[1, 'a']", 1 == 1.0 == True, dict keys may be any
// hashable scalar, strings are sequences of code points (stored as UTF-8).
//
// Cost and sharing: a Value is 32 bytes; strings, arrays and objects are
// shared, immutable payloads, so copies are cheap. The builders (push, set)
// copy a payload first when it is shared (copy on write), so building values
// never changes another copy. Thread-safety: like std::shared_ptr — distinct
// Values may be used from distinct threads; a Value that no one mutates can be
// read from any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace hearth::chat {

namespace jinja {
class Interpreter;
struct CallArgs;
} // namespace jinja

class Value;
class Object;

// Engine objects that are not data: macros, `loop`, namespace(), cycler,
// bound methods. Defined by the engine; callers never build them.
class Native {
public:
    virtual ~Native() = default;
    // Python's repr(), e.g. "<Namespace {'a': 1}>".
    virtual std::string repr() const = 0;
    // Attribute look-up (`obj.name`); Undefined when absent.
    virtual Value getAttr(std::string_view name) const;
    virtual bool isCallable() const { return false; }
    // Throws chat::TemplateError when not callable.
    virtual Value call(jinja::Interpreter& interp, jinja::CallArgs& args) const;
    // Python's bool(); true unless the object is an empty view or range.
    virtual bool truthy() const { return true; }
    // How deeply values nest inside this object (see Value::depth()).
    virtual int nestingDepth() const { return 0; }
};

class Value {
public:
    enum class Type : uint8_t {
        Undefined,
        Null,
        Bool,
        Int,
        Float,
        String,
        Array,
        Tuple,
        Object,
        Native
    };

    // Containers may nest at most this deep: deeper values would overflow the
    // stack when printed, compared or destroyed. Building one throws
    // chat::TemplateError.
    static constexpr int kMaxNesting = 512;

    Value() : m_type(Type::Null) {}
    Value(std::nullptr_t) : m_type(Type::Null) {}
    Value(bool b) : m_type(Type::Bool) { m_u.b = b; }
    template <typename I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
    Value(I i) : m_type(Type::Int)
    {
        m_u.i = static_cast<int64_t>(i);
    }
    Value(double f) : m_type(Type::Float) { m_u.f = f; }
    Value(std::string s);
    Value(std::string_view s) : Value(std::string(s)) {}
    Value(const char* s) : Value(std::string(s)) {}

    static Value array(std::vector<Value> items = {});
    static Value tuple(std::vector<Value> items);
    static Value object();
    static Value object(Object entries);
    // jinja2's Undefined; `hint` says why (e.g. "'x' is undefined") and is
    // the message of the error raised when the value is used.
    static Value undefined(std::string hint = {});
    static Value native(std::shared_ptr<const Native> object);
    // A string marked safe (markupsafe.Markup): `+` and `%` escape the other
    // operand, escape() leaves it alone.
    static Value markup(std::string s);
    // jinja2's groupby() item: a (grouper, list) tuple whose parts are also
    // the attributes .grouper and .list.
    static Value groupTuple(Value grouper, Value list);

    // Parses strict JSON (RFC 8259). Integers that fit become Int, others
    // Float. Throws hearth::Error naming the offset on malformed input or
    // nesting deeper than 512.
    static Value fromJson(std::string_view json);
    // Compact JSON ({"a":1,"b":[true,null]}), keys in insertion order,
    // non-ASCII as UTF-8. Undefined and Native become null.
    std::string toJson() const;

    Type type() const { return m_type; }
    bool isUndefined() const { return m_type == Type::Undefined; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isInt() const { return m_type == Type::Int; }
    bool isFloat() const { return m_type == Type::Float; }
    bool isNumber() const { return m_type == Type::Int || m_type == Type::Float || m_type == Type::Bool; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isTuple() const { return m_type == Type::Tuple; }
    bool isSequence() const { return m_type == Type::Array || m_type == Type::Tuple; }
    bool isObject() const { return m_type == Type::Object; }
    bool isNative() const { return m_type == Type::Native; }
    bool isMarkup() const { return m_type == Type::String && m_flag; }
    bool isGroupTuple() const { return m_type == Type::Tuple && m_flag; }

    // Accessors; each requires the matching type (asInt/asFloat accept any
    // number, bools included).
    bool asBool() const { return m_u.b; }
    int64_t asInt() const;
    double asFloat() const;
    const std::string& asString() const;
    const std::vector<Value>& items() const; // Array or Tuple
    const Object& asObject() const;
    const Native& asNative() const;
    std::shared_ptr<const Native> nativePtr() const;
    const std::string& undefinedHint() const;

    // Elements of an array/tuple, entries of an object, bytes of a string;
    // 0 for other types.
    size_t size() const;
    // Nesting depth: 0 for scalars, 1 + the deepest element for containers.
    int depth() const { return m_depth; }
    // Object look-up by string key; nullptr when absent or not an object.
    const Value* find(std::string_view key) const;
    // Object look-up; Undefined when absent or not an object.
    Value get(std::string_view key) const;

    // Builders. push() requires an Array, set() an Object (replacing the
    // value of an existing key, keeping its position).
    Value& push(Value item);
    Value& set(std::string_view key, Value value);

    // Python semantics.
    bool truthy() const;
    std::string str() const;  // str(x); Undefined prints as ""
    std::string repr() const; // repr(x)

    // Python ==: numbers compare by value across int/float/bool, sequences
    // and objects element-wise (object order does not matter), a list never
    // equals a tuple, Undefined equals only Undefined.
    friend bool operator==(const Value& a, const Value& b);

private:
    friend class Object;
    std::vector<Value>& mutableItems();
    Object& mutableObject();
    void raiseDepth(int childDepth);

    Type m_type;
    bool m_flag = false; // String: Markup; Tuple: a groupby() item
    uint16_t m_depth = 0;
    union {
        bool b;
        int64_t i;
        double f;
    } m_u{};
    // String: std::string; Array/Tuple: std::vector<Value>; Object: Object;
    // Native: Native; Undefined: std::string (the hint) or null.
    std::shared_ptr<void> m_ptr;
};

// Insertion-ordered mapping with Python dict semantics for keys (1, 1.0 and
// True are the same key). Look-up is a linear scan: objects in chat data are
// small, and a scan over a few entries beats hashing.
class Object {
public:
    using Entry = std::pair<Value, Value>;

    const Value* find(std::string_view key) const;
    const Value* find(const Value& key) const;
    void set(Value key, Value value);
    const std::vector<Entry>& entries() const { return m_entries; }
    size_t size() const { return m_entries.size(); }
    bool empty() const { return m_entries.empty(); }
    void reserve(size_t n) { m_entries.reserve(n); }

private:
    std::vector<Entry> m_entries;
};

// Caps the size of one str()/repr() result on this thread (beyond it they
// throw chat::TemplateError); 0 lifts the cap. Returns the previous cap.
// Rendering sets it so printing a huge value cannot exhaust memory.
size_t setPrintLimit(size_t bytes);

// Python's repr() of a float: shortest round-trip digits, "1.0", "1e-05",
// "1e+16", "inf", "nan".
std::string formatPyFloat(double value);
// Python's repr() of a str: quotes chosen as Python does, escapes for
// backslash, quotes and non-printable characters.
std::string pyStringRepr(std::string_view utf8);

} // namespace hearth::chat
