// gguf::Value and the value-type helpers (see gguf.h).
#include "gguf/gguf.h"

#include <cstring>
#include <limits>
#include <sstream>

namespace hearth::gguf {

namespace {

template <typename T>
T readLe(const uint8_t* p)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

} // namespace

std::string_view valueTypeName(ValueType type)
{
    switch (type) {
    case ValueType::UInt8: return "uint8";
    case ValueType::Int8: return "int8";
    case ValueType::UInt16: return "uint16";
    case ValueType::Int16: return "int16";
    case ValueType::UInt32: return "uint32";
    case ValueType::Int32: return "int32";
    case ValueType::Float32: return "float32";
    case ValueType::Bool: return "bool";
    case ValueType::String: return "string";
    case ValueType::Array: return "array";
    case ValueType::UInt64: return "uint64";
    case ValueType::Int64: return "int64";
    case ValueType::Float64: return "float64";
    }
    return "unknown";
}

bool isIntegerType(ValueType type)
{
    switch (type) {
    case ValueType::UInt8:
    case ValueType::Int8:
    case ValueType::UInt16:
    case ValueType::Int16:
    case ValueType::UInt32:
    case ValueType::Int32:
    case ValueType::UInt64:
    case ValueType::Int64: return true;
    default: return false;
    }
}

bool isFloatType(ValueType type)
{
    return type == ValueType::Float32 || type == ValueType::Float64;
}

size_t valueTypeSize(ValueType type)
{
    switch (type) {
    case ValueType::UInt8:
    case ValueType::Int8:
    case ValueType::Bool: return 1;
    case ValueType::UInt16:
    case ValueType::Int16: return 2;
    case ValueType::UInt32:
    case ValueType::Int32:
    case ValueType::Float32: return 4;
    case ValueType::UInt64:
    case ValueType::Int64:
    case ValueType::Float64: return 8;
    case ValueType::String:
    case ValueType::Array: return 0;
    }
    return 0;
}

int64_t Value::decodeInt(ValueType t, const uint8_t* p)
{
    switch (t) {
    case ValueType::UInt8: return readLe<uint8_t>(p);
    case ValueType::Int8: return readLe<int8_t>(p);
    case ValueType::Bool: return readLe<uint8_t>(p) != 0;
    case ValueType::UInt16: return readLe<uint16_t>(p);
    case ValueType::Int16: return readLe<int16_t>(p);
    case ValueType::UInt32: return readLe<uint32_t>(p);
    case ValueType::Int32: return readLe<int32_t>(p);
    case ValueType::UInt64: return static_cast<int64_t>(readLe<uint64_t>(p));
    case ValueType::Int64: return readLe<int64_t>(p);
    case ValueType::Float32: return static_cast<int64_t>(readLe<float>(p));
    case ValueType::Float64: return static_cast<int64_t>(readLe<double>(p));
    default: return 0;
    }
}

double Value::decodeFloat(ValueType t, const uint8_t* p)
{
    switch (t) {
    case ValueType::Float32: return readLe<float>(p);
    case ValueType::Float64: return readLe<double>(p);
    case ValueType::UInt64: return static_cast<double>(readLe<uint64_t>(p));
    default: return static_cast<double>(decodeInt(t, p));
    }
}

std::optional<int64_t> Value::toInt() const
{
    if (m_type == ValueType::UInt64 && m_scalar.u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return std::nullopt;
    if (isIntegerType(m_type) || m_type == ValueType::Bool)
        return m_scalar.i;
    return std::nullopt;
}

std::optional<uint64_t> Value::toUInt64() const
{
    if (m_type == ValueType::UInt64)
        return m_scalar.u;
    if (isIntegerType(m_type) && m_scalar.i >= 0)
        return static_cast<uint64_t>(m_scalar.i);
    return std::nullopt;
}

std::optional<double> Value::toFloat() const
{
    if (isFloatType(m_type))
        return m_scalar.f;
    if (m_type == ValueType::UInt64)
        return static_cast<double>(m_scalar.u);
    if (isIntegerType(m_type))
        return static_cast<double>(m_scalar.i);
    return std::nullopt;
}

std::optional<bool> Value::toBool() const
{
    if (m_type == ValueType::Bool)
        return m_scalar.i != 0;
    return std::nullopt;
}

std::optional<std::string_view> Value::toString() const
{
    if (m_type != ValueType::String)
        return std::nullopt;
    return std::string_view(reinterpret_cast<const char*>(m_data), m_count);
}

std::string_view Value::stringAt(uint64_t i) const
{
    if (m_type != ValueType::Array || m_elemType != ValueType::String || i >= m_count)
        return {};
    const uint8_t* p = m_data + (*m_stringOffsets)[i];
    const uint64_t len = readLe<uint64_t>(p);
    return std::string_view(reinterpret_cast<const char*>(p + 8), len);
}

int64_t Value::intAt(uint64_t i) const
{
    if (m_type != ValueType::Array || i >= m_count || valueTypeSize(m_elemType) == 0)
        return 0;
    return decodeInt(m_elemType, m_data + i * valueTypeSize(m_elemType));
}

double Value::floatAt(uint64_t i) const
{
    if (m_type != ValueType::Array || i >= m_count || valueTypeSize(m_elemType) == 0)
        return 0.0;
    return decodeFloat(m_elemType, m_data + i * valueTypeSize(m_elemType));
}

static void appendEscaped(std::string& out, std::string_view s, size_t maxChars)
{
    out += '"';
    size_t n = 0;
    for (char c : s) {
        if (n++ == maxChars) {
            out += "...";
            break;
        }
        if (c == '\n')
            out += "\\n";
        else if (c == '\t')
            out += "\\t";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\\')
            out += "\\\\";
        else
            out += c;
    }
    out += '"';
}

std::string Value::toDisplayString(size_t maxItems) const
{
    std::ostringstream os;
    switch (m_type) {
    case ValueType::String: {
        std::string s;
        appendEscaped(s, *toString(), 200);
        return s;
    }
    case ValueType::Bool: return m_scalar.i ? "true" : "false";
    case ValueType::Float32:
    case ValueType::Float64: os << m_scalar.f; return os.str();
    case ValueType::UInt64: os << m_scalar.u; return os.str();
    case ValueType::Array: {
        std::string s = "[";
        for (uint64_t i = 0; i < m_count && i < maxItems; ++i) {
            if (i)
                s += ", ";
            if (m_elemType == ValueType::String)
                appendEscaped(s, stringAt(i), 40);
            else if (isFloatType(m_elemType))
                s += std::to_string(floatAt(i));
            else
                s += std::to_string(intAt(i));
        }
        if (m_count > maxItems)
            s += ", ... (" + std::to_string(m_count) + " items)";
        return s + "]";
    }
    default: os << m_scalar.i; return os.str();
    }
}

} // namespace hearth::gguf
