#include "chat/json.h"

#include "chat/numbers.h"
#include "chat/template_error.h"
#include "chat/unicode.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace hearth::chat {

namespace {

constexpr int kMaxJsonDepth = 500;

class JsonParser {
public:
    explicit JsonParser(std::string_view text) : m_s(text) {}

    Value parseDocument()
    {
        skipSpace();
        Value v = parseValue(0);
        skipSpace();
        if (m_pos != m_s.size())
            fail("unexpected data after the JSON value");
        return v;
    }

private:
    [[noreturn]] void fail(const std::string& what) const
    {
        throw Error("invalid JSON at byte " + std::to_string(m_pos) + ": " + what);
    }

    void skipSpace()
    {
        while (m_pos < m_s.size() &&
               (m_s[m_pos] == ' ' || m_s[m_pos] == '\t' || m_s[m_pos] == '\n' || m_s[m_pos] == '\r'))
            ++m_pos;
    }

    bool consume(std::string_view word)
    {
        if (m_s.substr(m_pos, word.size()) != word)
            return false;
        m_pos += word.size();
        return true;
    }

    Value parseValue(int depth)
    {
        if (depth > kMaxJsonDepth)
            fail("nested deeper than " + std::to_string(kMaxJsonDepth));
        if (m_pos >= m_s.size())
            fail("unexpected end of input");
        const char c = m_s[m_pos];
        if (c == '{')
            return parseObject(depth);
        if (c == '[')
            return parseArray(depth);
        if (c == '"')
            return Value(parseString());
        if (consume("true"))
            return Value(true);
        if (consume("false"))
            return Value(false);
        if (consume("null"))
            return Value();
        if (consume("NaN"))
            return Value(std::nan(""));
        if (consume("Infinity"))
            return Value(HUGE_VAL);
        if (consume("-Infinity"))
            return Value(-HUGE_VAL);
        if (c == '-' || (c >= '0' && c <= '9'))
            return parseNumber();
        fail(std::string("unexpected character '") + c + "'");
    }

    Value parseObject(int depth)
    {
        ++m_pos;
        Object obj;
        skipSpace();
        if (consume("}"))
            return Value::object(std::move(obj));
        for (;;) {
            skipSpace();
            if (m_pos >= m_s.size() || m_s[m_pos] != '"')
                fail("expected a string key");
            std::string key = parseString();
            skipSpace();
            if (!consume(":"))
                fail("expected ':'");
            skipSpace();
            obj.set(Value(std::move(key)), parseValue(depth + 1));
            skipSpace();
            if (consume("}"))
                return Value::object(std::move(obj));
            if (!consume(","))
                fail("expected ',' or '}'");
        }
    }

    Value parseArray(int depth)
    {
        ++m_pos;
        std::vector<Value> items;
        skipSpace();
        if (consume("]"))
            return Value::array(std::move(items));
        for (;;) {
            skipSpace();
            items.push_back(parseValue(depth + 1));
            skipSpace();
            if (consume("]"))
                return Value::array(std::move(items));
            if (!consume(","))
                fail("expected ',' or ']'");
        }
    }

    unsigned hex4()
    {
        if (m_pos + 4 > m_s.size())
            fail("truncated \\u escape");
        unsigned v = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = m_s[m_pos++];
            v <<= 4;
            if (h >= '0' && h <= '9')
                v |= static_cast<unsigned>(h - '0');
            else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f')
                v |= static_cast<unsigned>((h | 0x20) - 'a' + 10);
            else
                fail("bad \\u escape");
        }
        return v;
    }

    std::string parseString()
    {
        ++m_pos; // opening quote
        std::string out;
        for (;;) {
            if (m_pos >= m_s.size())
                fail("unterminated string");
            const char c = m_s[m_pos++];
            if (c == '"')
                return out;
            if (static_cast<unsigned char>(c) < 0x20)
                fail("control character in string");
            if (c != '\\') {
                out += c;
                continue;
            }
            if (m_pos >= m_s.size())
                fail("unterminated escape");
            const char e = m_s[m_pos++];
            switch (e) {
            case '"': out += '"'; break;
            case '\\': out += '\\'; break;
            case '/': out += '/'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'n': out += '\n'; break;
            case 'r': out += '\r'; break;
            case 't': out += '\t'; break;
            case 'u': {
                unsigned cp = hex4();
                if (cp >= 0xD800 && cp <= 0xDBFF && m_s.substr(m_pos, 2) == "\\u") {
                    const size_t save = m_pos;
                    m_pos += 2;
                    const unsigned lo = hex4();
                    if (lo >= 0xDC00 && lo <= 0xDFFF)
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    else
                        m_pos = save;
                }
                if (cp >= 0xD800 && cp <= 0xDFFF)
                    cp = 0xFFFD; // a lone surrogate has no UTF-8 form
                unicode::append(out, cp);
                break;
            }
            default: fail(std::string("bad escape '\\") + e + "'");
            }
        }
    }

    Value parseNumber()
    {
        const size_t start = m_pos;
        bool isFloat = false;
        if (m_s[m_pos] == '-')
            ++m_pos;
        const auto digits = [&] {
            const size_t from = m_pos;
            while (m_pos < m_s.size() && m_s[m_pos] >= '0' && m_s[m_pos] <= '9')
                ++m_pos;
            return m_pos - from;
        };
        const size_t intStart = m_pos;
        const size_t intDigits = digits();
        if (intDigits == 0 || (intDigits > 1 && m_s[intStart] == '0'))
            fail("bad number");
        if (m_pos < m_s.size() && m_s[m_pos] == '.') {
            ++m_pos;
            isFloat = true;
            if (digits() == 0)
                fail("bad number");
        }
        if (m_pos < m_s.size() && (m_s[m_pos] == 'e' || m_s[m_pos] == 'E')) {
            ++m_pos;
            isFloat = true;
            if (m_pos < m_s.size() && (m_s[m_pos] == '+' || m_s[m_pos] == '-'))
                ++m_pos;
            if (digits() == 0)
                fail("bad number");
        }
        const char* first = m_s.data() + start;
        const char* last = m_s.data() + m_pos;
        if (!isFloat) {
            int64_t i = 0;
            if (std::from_chars(first, last, i).ec == std::errc())
                return Value(i);
        }
        return Value(parseDouble(std::string_view(first, static_cast<size_t>(last - first))).value_or(0.0));
    }

    std::string_view m_s;
    size_t m_pos = 0;
};

class JsonWriter {
public:
    explicit JsonWriter(const JsonDumpOptions& o) : m_o(o)
    {
        m_itemSep = o.itemSeparator.value_or(o.indented ? "," : ", ");
        m_keySep = o.keySeparator.value_or(": ");
    }

    std::string out;

    void write(const Value& v, int level)
    {
        if (level > Value::kMaxNesting + 8)
            throw TemplateError(TemplateError::Kind::Limit, "tojson: value nested too deeply");
        switch (v.type()) {
        case Value::Type::Null: out += "null"; break;
        case Value::Type::Bool: out += v.asBool() ? "true" : "false"; break;
        case Value::Type::Int: out += std::to_string(v.asInt()); break;
        case Value::Type::Float: writeFloat(v.asFloat()); break;
        case Value::Type::String: writeString(v.asString()); break;
        case Value::Type::Array:
        case Value::Type::Tuple: writeArray(v.items(), level); break;
        case Value::Type::Object: writeObject(v.asObject(), level); break;
        case Value::Type::Undefined:
        case Value::Type::Native:
            if (m_o.lenient) {
                out += "null";
                break;
            }
            throw TemplateError(TemplateError::Kind::Runtime, std::string("Object of type ") +
                                                                  (v.isUndefined() ? "Undefined" : "object") +
                                                                  " is not JSON serializable");
        }
    }

private:
    void checkSize() const
    {
        if (m_o.maxBytes && out.size() > m_o.maxBytes)
            throw TemplateError(TemplateError::Kind::Limit,
                                "tojson output would exceed " + std::to_string(m_o.maxBytes) + " bytes");
    }

    void newline(int level)
    {
        checkSize();
        if (!m_o.indented)
            return;
        out += '\n';
        for (int i = 0; i < level; ++i)
            out += m_o.indent;
    }

    void writeFloat(double d)
    {
        if (std::isnan(d))
            out += "NaN";
        else if (std::isinf(d))
            out += d < 0 ? "-Infinity" : "Infinity";
        else
            out += formatPyFloat(d);
    }

    void writeString(std::string_view s)
    {
        checkSize();
        out += '"';
        for (size_t pos = 0; pos < s.size();) {
            const size_t at = pos;
            const char32_t c = unicode::next(s, pos);
            switch (c) {
            case '"': out += "\\\""; continue;
            case '\\': out += "\\\\"; continue;
            case '\n': out += "\\n"; continue;
            case '\r': out += "\\r"; continue;
            case '\t': out += "\\t"; continue;
            case '\b': out += "\\b"; continue;
            case '\f': out += "\\f"; continue;
            default: break;
            }
            char buf[16];
            if (c < 0x20 || (m_o.ensureAscii && c >= 0x7F)) {
                if (c >= 0x10000) {
                    const unsigned v = static_cast<unsigned>(c) - 0x10000;
                    std::snprintf(buf, sizeof buf, "\\u%04x\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
                } else {
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                }
                out += buf;
            } else {
                out.append(s.substr(at, pos - at));
            }
        }
        out += '"';
    }

    void writeArray(const std::vector<Value>& items, int level)
    {
        if (items.empty()) {
            out += "[]";
            return;
        }
        out += '[';
        for (size_t i = 0; i < items.size(); ++i) {
            if (i)
                out += m_itemSep;
            newline(level + 1);
            write(items[i], level + 1);
        }
        newline(level);
        out += ']';
    }

    std::string keyString(const Value& k)
    {
        switch (k.type()) {
        case Value::Type::String: return k.asString();
        case Value::Type::Bool: return k.asBool() ? "true" : "false";
        case Value::Type::Null: return "null";
        case Value::Type::Int: return std::to_string(k.asInt());
        case Value::Type::Float: {
            JsonWriter tmp(m_o);
            tmp.writeFloat(k.asFloat());
            return tmp.out;
        }
        default:
            throw TemplateError(TemplateError::Kind::Runtime, "keys must be str, int, float, bool or None, not " +
                                                                  std::string(k.isTuple() ? "tuple" : "object"));
        }
    }

    void writeObject(const Object& obj, int level)
    {
        if (obj.empty()) {
            out += "{}";
            return;
        }
        std::vector<const Object::Entry*> entries;
        entries.reserve(obj.size());
        for (const Object::Entry& e : obj.entries())
            entries.push_back(&e);
        if (m_o.sortKeys)
            sortEntries(entries);
        out += '{';
        for (size_t i = 0; i < entries.size(); ++i) {
            if (i)
                out += m_itemSep;
            newline(level + 1);
            writeString(keyString(entries[i]->first));
            out += m_keySep;
            write(entries[i]->second, level + 1);
        }
        newline(level);
        out += '}';
    }

    static void sortEntries(std::vector<const Object::Entry*>& entries)
    {
        // Python sorts the keys themselves: all strings, or all numbers.
        const bool allStrings =
            std::all_of(entries.begin(), entries.end(), [](const Object::Entry* e) { return e->first.isString(); });
        const bool allNumbers =
            std::all_of(entries.begin(), entries.end(), [](const Object::Entry* e) { return e->first.isNumber(); });
        if (allStrings) {
            std::stable_sort(entries.begin(), entries.end(), [](const Object::Entry* a, const Object::Entry* b) {
                return a->first.asString() < b->first.asString();
            });
        } else if (allNumbers) {
            std::stable_sort(entries.begin(), entries.end(), [](const Object::Entry* a, const Object::Entry* b) {
                return a->first.asFloat() < b->first.asFloat();
            });
        } else {
            throw TemplateError(TemplateError::Kind::Runtime, "'<' not supported between keys of different types");
        }
    }

    const JsonDumpOptions& m_o;
    std::string m_itemSep;
    std::string m_keySep;
};

} // namespace

Value parseJson(std::string_view text)
{
    return JsonParser(text).parseDocument();
}

std::string dumpJson(const Value& value, const JsonDumpOptions& options)
{
    JsonWriter w(options);
    w.write(value, 0);
    if (options.maxBytes && w.out.size() > options.maxBytes)
        throw TemplateError(TemplateError::Kind::Limit,
                            "tojson output would exceed " + std::to_string(options.maxBytes) + " bytes");
    return std::move(w.out);
}

Value Value::fromJson(std::string_view json)
{
    return parseJson(json);
}

std::string Value::toJson() const
{
    JsonDumpOptions o;
    o.itemSeparator = ",";
    o.keySeparator = ":";
    o.lenient = true;
    return dumpJson(*this, o);
}

} // namespace hearth::chat
