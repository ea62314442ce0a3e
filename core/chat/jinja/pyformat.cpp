// Python string formatting: `fmt % args` (printf-style) and str.format()
// with the format-spec mini-language for str, int and float.

#include "chat/jinja/ops.h"
#include "chat/jinja/pystring.h"
#include "chat/numbers.h"
#include "chat/unicode.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace hearth::chat::jinja::pystr {

namespace {

std::string asciiRepr(const Value& v)
{
    std::string out;
    const std::string r = v.repr();
    for (size_t pos = 0; pos < r.size();) {
        const char32_t c = unicode::next(r, pos);
        if (c < 0x80) {
            out += static_cast<char>(c);
            continue;
        }
        char buf[16];
        std::snprintf(buf, sizeof buf,
                      c <= 0xFF     ? "\\x%02x"
                      : c <= 0xFFFF ? "\\u%04x"
                                    : "\\U%08x",
                      static_cast<unsigned>(c));
        out += buf;
    }
    return out;
}

std::string truncateChars(const std::string& s, int64_t precision)
{
    if (precision < 0 || unicode::length(s) <= static_cast<size_t>(precision))
        return s;
    return substr(s, 0, static_cast<size_t>(precision));
}

struct PercentSpec {
    std::string flags;
    int64_t width = -1;
    int64_t precision = -1;
    char conv = 's';
};

int64_t toIntArg(Interpreter& interp, const Value& v, char conv)
{
    if (v.isInt() || v.isBool())
        return v.asInt();
    if (v.isFloat() && conv != 'x' && conv != 'X' && conv != 'o') {
        const double d = v.asFloat();
        if (!std::isfinite(d))
            interp.fail("cannot convert float " + formatPyFloat(d) + " to integer");
        return static_cast<int64_t>(d);
    }
    interp.fail(std::string("%") + conv +
                " format: " + (conv == 'x' || conv == 'X' || conv == 'o' ? "an integer" : "a real number") +
                " is required, not " + std::string(ops::typeName(v)));
}

// %d %x %X %o: sign, '#' prefix, precision as minimum digits, width with
// '-' (left) or '0' (zeros after the sign).
std::string formatInt(const PercentSpec& spec, int64_t n)
{
    const auto has = [&](char f) { return spec.flags.find(f) != std::string::npos; };
    const int base = spec.conv == 'x' || spec.conv == 'X' ? 16 : spec.conv == 'o' ? 8 : 10;
    uint64_t mag = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    std::string digits;
    do {
        const int d = static_cast<int>(mag % static_cast<uint64_t>(base));
        digits.insert(digits.begin(), static_cast<char>(d < 10 ? '0' + d : (spec.conv == 'X' ? 'A' : 'a') + d - 10));
        mag /= static_cast<uint64_t>(base);
    } while (mag);
    if (spec.precision > static_cast<int64_t>(digits.size()))
        digits.insert(0, static_cast<size_t>(spec.precision) - digits.size(), '0');
    std::string prefix = n < 0 ? "-" : has('+') ? "+" : has(' ') ? " " : "";
    if (has('#') && base != 10)
        prefix += spec.conv == 'x' ? "0x" : spec.conv == 'X' ? "0X" : "0o";
    const int64_t len = static_cast<int64_t>(prefix.size() + digits.size());
    if (spec.width <= len)
        return prefix + digits;
    const size_t fill = static_cast<size_t>(spec.width - len);
    if (has('-'))
        return prefix + digits + std::string(fill, ' ');
    if (has('0'))
        return prefix + std::string(fill, '0') + digits;
    return std::string(fill, ' ') + prefix + digits;
}

std::string percentOne(Interpreter& interp, const PercentSpec& spec, const Value& v)
{
    const bool left = spec.flags.find('-') != std::string::npos;
    if (spec.width > 0)
        interp.checkSize(static_cast<size_t>(spec.width));
    std::string body;
    switch (spec.conv) {
    case 's':
    case 'r':
    case 'a': {
        const std::string s = spec.conv == 's' ? v.str() : spec.conv == 'r' ? v.repr() : asciiRepr(v);
        body = truncateChars(s, spec.precision);
        break;
    }
    case 'c':
        if (v.isInt())
            unicode::append(body, static_cast<char32_t>(v.asInt()));
        else if (v.isString() && unicode::length(v.asString()) == 1)
            body = v.asString();
        else
            interp.fail("%c requires an int or a unicode character");
        break;
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o': return formatInt(spec, toIntArg(interp, v, spec.conv));
    case 'e':
    case 'E':
    case 'f':
    case 'F':
    case 'g':
    case 'G': {
        if (!v.isNumber())
            interp.fail("must be real number, not " + std::string(ops::typeName(v)));
        std::string fmt = "%" + spec.flags;
        if (spec.width >= 0)
            fmt += std::to_string(spec.width);
        fmt += "." + std::to_string(spec.precision >= 0 ? spec.precision : 6) + spec.conv;
        const int n = std::snprintf(nullptr, 0, fmt.c_str(), v.asFloat());
        interp.checkSize(static_cast<size_t>(n));
        std::string out(static_cast<size_t>(n) + 1, '\0');
        std::snprintf(out.data(), out.size(), fmt.c_str(), v.asFloat());
        out.pop_back();
        useDotDecimalPoint(out);
        return out;
    }
    default: interp.fail(std::string("unsupported format character '") + spec.conv + "'");
    }
    if (spec.width >= 0) {
        interp.checkSize(static_cast<size_t>(spec.width));
        return pad(body, spec.width, " ", left ? '<' : '>');
    }
    return body;
}

// A parsed format spec: [[fill]align][sign][z][#][0][width][grouping][.precision][type]
struct FormatSpec {
    std::string fill = " ";
    char align = 0;
    char sign = 0;
    bool alt = false;
    int64_t width = -1;
    char grouping = 0;
    int64_t precision = -1;
    char type = 0;
};

FormatSpec parseSpec(Interpreter& interp, std::string_view spec)
{
    FormatSpec f;
    size_t i = 0;
    const auto isAlign = [](char c) { return c == '<' || c == '>' || c == '=' || c == '^'; };
    size_t firstEnd = 0;
    if (!spec.empty())
        unicode::next(spec, firstEnd);
    if (firstEnd < spec.size() && isAlign(spec[firstEnd])) {
        f.fill = std::string(spec.substr(0, firstEnd));
        f.align = spec[firstEnd];
        i = firstEnd + 1;
    } else if (!spec.empty() && isAlign(spec[0])) {
        f.align = spec[0];
        i = 1;
    }
    if (i < spec.size() && (spec[i] == '+' || spec[i] == '-' || spec[i] == ' '))
        f.sign = spec[i++];
    if (i < spec.size() && spec[i] == 'z')
        ++i;
    if (i < spec.size() && spec[i] == '#') {
        f.alt = true;
        ++i;
    }
    if (i < spec.size() && spec[i] == '0') {
        if (!f.align) {
            f.fill = "0";
            f.align = '=';
        }
        ++i;
    }
    const auto digits = [&](int64_t& out) {
        if (i >= spec.size() || spec[i] < '0' || spec[i] > '9')
            return;
        out = 0;
        while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9' && out < 100000000)
            out = out * 10 + (spec[i++] - '0');
    };
    digits(f.width);
    if (i < spec.size() && (spec[i] == ',' || spec[i] == '_'))
        f.grouping = spec[i++];
    if (i < spec.size() && spec[i] == '.') {
        ++i;
        f.precision = 0;
        if (i >= spec.size() || spec[i] < '0' || spec[i] > '9')
            interp.fail("Format specifier missing precision");
        digits(f.precision);
    }
    if (i < spec.size())
        f.type = spec[i++];
    if (i < spec.size())
        interp.fail("Invalid format specifier '" + std::string(spec) + "'");
    if (f.width > 0)
        interp.checkSize(static_cast<size_t>(f.width));
    return f;
}

// Inserts the grouping character every `every` digits of the integer part.
std::string group(const std::string& digits, char sep, size_t every)
{
    if (!sep)
        return digits;
    const size_t end = digits.find_first_not_of("0123456789abcdefABCDEF");
    const size_t intLen = end == std::string::npos ? digits.size() : end;
    std::string out;
    for (size_t k = 0; k < intLen; ++k) {
        if (k && (intLen - k) % every == 0)
            out += sep;
        out += digits[k];
    }
    return out + digits.substr(intLen);
}

std::string applyWidth(const FormatSpec& f, const std::string& sign, const std::string& body, char defaultAlign)
{
    const char align = f.align ? f.align : defaultAlign;
    const int64_t len = static_cast<int64_t>(unicode::length(sign) + unicode::length(body));
    if (f.width <= len)
        return sign + body;
    std::string padding;
    const int64_t n = f.width - len;
    if (align == '=') {
        for (int64_t k = 0; k < n; ++k)
            padding += f.fill;
        return sign + padding + body;
    }
    return pad(sign + body, f.width, f.fill, align);
}

std::string formatFloat(Interpreter& interp, const FormatSpec& f, double d)
{
    const bool upper = f.type == 'E' || f.type == 'F' || f.type == 'G';
    std::string sign = std::signbit(d) && !std::isnan(d) ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
    d = std::fabs(d);
    std::string body;
    char buf[512];
    if (!std::isfinite(d)) {
        body = std::isnan(d) ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
    } else if (f.type == 0 && f.precision < 0) {
        body = formatPyFloat(d);
    } else if (f.type == 0) {
        // Like 'g', but scientific from exponent p-1 on and at least one
        // digit after the point otherwise.
        const int p = static_cast<int>(std::max<int64_t>(f.precision, 1));
        std::snprintf(buf, sizeof buf, "%.*e", p - 1, d);
        const int exp = std::atoi(std::strchr(buf, 'e') + 1);
        if (exp >= -4 && exp < p - 1) {
            std::snprintf(buf, sizeof buf, "%.*f", p - 1 - exp, d);
            body = buf;
            useDotDecimalPoint(body);
            if (body.find('.') != std::string::npos) {
                while (body.back() == '0')
                    body.pop_back();
                if (body.back() == '.')
                    body += '0';
            } else {
                body += ".0";
            }
        } else {
            std::string m = buf;
            useDotDecimalPoint(m);
            const size_t e = m.find('e');
            std::string mant = m.substr(0, e);
            if (mant.find('.') != std::string::npos) {
                while (mant.back() == '0')
                    mant.pop_back();
                if (mant.back() == '.')
                    mant.pop_back();
            }
            body = mant + m.substr(e);
        }
    } else {
        const bool percent = f.type == '%';
        const char conv = percent ? 'f' : f.type == 'n' ? 'g' : f.type;
        const int prec = static_cast<int>(f.precision >= 0 ? std::min<int64_t>(f.precision, 400) : 6);
        const std::string fmt = std::string("%") + (f.alt ? "#" : "") + ".*" + conv;
        std::snprintf(buf, sizeof buf, fmt.c_str(), prec, percent ? d * 100 : d);
        body = buf;
        useDotDecimalPoint(body);
        if (percent)
            body += '%';
    }
    (void)interp;
    return applyWidth(f, sign, group(body, f.grouping, 3), '>');
}

std::string formatIntSpec(Interpreter& interp, const FormatSpec& f, int64_t n)
{
    if (f.precision >= 0)
        interp.fail("Precision not allowed in integer format specifier");
    if (f.type == 'c') {
        std::string s;
        unicode::append(s, static_cast<char32_t>(n));
        return applyWidth(f, "", s, '<');
    }
    const int base = f.type == 'x' || f.type == 'X' ? 16 : f.type == 'o' ? 8 : f.type == 'b' ? 2 : 10;
    uint64_t mag = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
    std::string digits;
    do {
        const int d = static_cast<int>(mag % static_cast<uint64_t>(base));
        digits.insert(digits.begin(), static_cast<char>(d < 10 ? '0' + d : (f.type == 'X' ? 'A' : 'a') + d - 10));
        mag /= static_cast<uint64_t>(base);
    } while (mag);
    std::string sign = n < 0 ? "-" : f.sign == '+' ? "+" : f.sign == ' ' ? " " : "";
    if (f.alt && base != 10)
        sign += base == 16 ? (f.type == 'X' ? "0X" : "0x") : base == 8 ? "0o" : "0b";
    return applyWidth(f, sign, group(digits, f.grouping, base == 10 ? 3 : 4), '>');
}

} // namespace

std::string formatValue(Interpreter& interp, const Value& v, std::string_view specText)
{
    if (specText.empty())
        return v.str();
    const FormatSpec f = parseSpec(interp, specText);
    if (v.isString()) {
        if (f.type && f.type != 's')
            interp.fail(std::string("Unknown format code '") + f.type + "' for object of type 'str'");
        if (f.sign)
            interp.fail("Sign not allowed in string format specifier");
        if (f.alt)
            interp.fail("Alternate form (#) not allowed in string format specifier");
        if (f.align == '=')
            interp.fail("'=' alignment not allowed in string format specifier");
        return applyWidth(f, "", truncateChars(v.asString(), f.precision), '<');
    }
    if (v.isInt() || v.isBool()) {
        if (f.type && std::string_view("eEfFgGn%").find(f.type) != std::string_view::npos && f.type != 'n')
            return formatFloat(interp, f, v.asFloat());
        if (f.type && std::string_view("bcdoxXn").find(f.type) == std::string_view::npos)
            interp.fail(std::string("Unknown format code '") + f.type + "' for object of type 'int'");
        return formatIntSpec(interp, f, v.asInt());
    }
    if (v.isFloat()) {
        if (f.type && std::string_view("eEfFgGn%").find(f.type) == std::string_view::npos)
            interp.fail(std::string("Unknown format code '") + f.type + "' for object of type 'float'");
        return formatFloat(interp, f, v.asFloat());
    }
    interp.fail("unsupported format string passed to " + std::string(ops::typeName(v)) + ".__format__");
}

namespace {

// Resolves a replacement field's name: "0", "name", "" (automatic), then
// ".attr" and "[key]" parts.
Value resolveField(Interpreter& interp, std::string_view name, const CallArgs& args, int& autoIndex)
{
    size_t end = 0;
    while (end < name.size() && name[end] != '.' && name[end] != '[')
        ++end;
    const std::string_view first = name.substr(0, end);
    Value obj;
    const bool numeric = !first.empty() && first.find_first_not_of("0123456789") == std::string_view::npos;
    if (first.empty() || numeric) {
        size_t idx = 0;
        if (first.empty()) {
            if (autoIndex < 0)
                interp.fail("cannot switch from manual field specification to automatic field numbering");
            idx = static_cast<size_t>(autoIndex++);
        } else {
            if (autoIndex > 0)
                interp.fail("cannot switch from automatic field numbering to manual field specification");
            autoIndex = -1;
            idx = static_cast<size_t>(std::stoull(std::string(first)));
        }
        if (idx >= args.args.size())
            interp.fail("Replacement index " + std::to_string(idx) + " out of range for positional args tuple");
        obj = args.args[idx];
    } else {
        const auto it =
            std::find_if(args.kwargs.begin(), args.kwargs.end(), [&](const auto& kv) { return kv.first == first; });
        if (it == args.kwargs.end())
            interp.fail("KeyError: '" + std::string(first) + "'");
        obj = it->second;
    }
    while (end < name.size()) {
        if (name[end] == '.') {
            size_t e = end + 1;
            while (e < name.size() && name[e] != '.' && name[e] != '[')
                ++e;
            obj = interp.getattr(obj, name.substr(end + 1, e - end - 1));
            end = e;
        } else {
            const size_t close = name.find(']', end);
            if (close == std::string_view::npos)
                interp.fail("Missing ']' in format string");
            const std::string_view key = name.substr(end + 1, close - end - 1);
            const bool digits = !key.empty() && key.find_first_not_of("0123456789") == std::string_view::npos;
            obj = interp.getitem(obj, digits ? Value(static_cast<int64_t>(std::stoll(std::string(key)))) : Value(key));
            end = close + 1;
        }
    }
    return obj;
}

std::string formatImpl(Interpreter& interp, std::string_view fmt, const CallArgs& args, int& autoIndex, int depth)
{
    if (depth > 2)
        interp.fail("Max string recursion exceeded");
    std::string out;
    for (size_t i = 0; i < fmt.size(); ++i) {
        const char c = fmt[i];
        if (c == '}') {
            if (i + 1 < fmt.size() && fmt[i + 1] == '}') {
                out += '}';
                ++i;
                continue;
            }
            interp.fail("Single '}' encountered in format string");
        }
        if (c != '{') {
            out += c;
            continue;
        }
        if (i + 1 < fmt.size() && fmt[i + 1] == '{') {
            out += '{';
            ++i;
            continue;
        }
        int nest = 1;
        size_t j = i + 1;
        for (; j < fmt.size() && nest > 0; ++j)
            nest += fmt[j] == '{' ? 1 : fmt[j] == '}' ? -1 : 0;
        if (nest > 0)
            interp.fail("expected '}' before end of string");
        const std::string_view field = fmt.substr(i + 1, j - i - 2);
        size_t nameEnd = 0;
        while (nameEnd < field.size() && field[nameEnd] != '!' && field[nameEnd] != ':') {
            if (field[nameEnd] == '[')
                nameEnd = std::min(field.find(']', nameEnd), field.size() - 1);
            ++nameEnd;
        }
        Value v = resolveField(interp, field.substr(0, nameEnd), args, autoIndex);
        size_t k = nameEnd;
        if (k < field.size() && field[k] == '!') {
            if (k + 1 >= field.size())
                interp.fail("end of string while looking for conversion specifier");
            const char conv = field[k + 1];
            if (conv == 'r' || conv == 'a')
                v = Value(conv == 'r' ? v.repr() : asciiRepr(v));
            else if (conv == 's')
                v = Value(v.str());
            else
                interp.fail(std::string("Unknown conversion specifier ") + conv);
            k += 2;
        }
        std::string spec;
        if (k < field.size() && field[k] == ':')
            spec = formatImpl(interp, field.substr(k + 1), args, autoIndex, depth + 1);
        out += formatValue(interp, v, spec);
        interp.checkSize(out.size());
        i = j - 1;
    }
    return out;
}

} // namespace

std::string format(Interpreter& interp, std::string_view fmt, const CallArgs& args)
{
    int autoIndex = 0;
    return formatImpl(interp, fmt, args, autoIndex, 0);
}

std::string percentFormat(Interpreter& interp, std::string_view fmt, const Value& args)
{
    const bool isTuple = args.isTuple();
    const bool mappingLike = args.isObject() || args.isArray() || args.isUndefined();
    size_t next = 0;
    const size_t count = isTuple ? args.items().size() : 1;
    const auto nextArg = [&]() -> const Value& {
        if (next >= count)
            interp.fail("not enough arguments for format string");
        return isTuple ? args.items()[next++] : (++next, args);
    };
    std::string out;
    for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%') {
            out += fmt[i];
            continue;
        }
        if (++i >= fmt.size())
            interp.fail("incomplete format");
        const Value* keyed = nullptr;
        Value keyedValue;
        if (fmt[i] == '(') {
            int depth = 1;
            const size_t start = ++i;
            while (i < fmt.size() && depth > 0) {
                depth += fmt[i] == '(' ? 1 : fmt[i] == ')' ? -1 : 0;
                ++i;
            }
            if (depth > 0)
                interp.fail("incomplete format key");
            if (!args.isObject())
                interp.fail("format requires a mapping");
            const Value* v = args.find(fmt.substr(start, i - 1 - start));
            if (!v)
                interp.fail("KeyError: '" + std::string(fmt.substr(start, i - 1 - start)) + "'");
            keyedValue = *v;
            keyed = &keyedValue;
        }
        PercentSpec spec;
        while (i < fmt.size() && std::string_view("-+ #0").find(fmt[i]) != std::string_view::npos)
            spec.flags += fmt[i++];
        const auto number = [&](int64_t& target) {
            if (i < fmt.size() && fmt[i] == '*') {
                ++i;
                target = toIntArg(interp, nextArg(), 'd');
                return;
            }
            if (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9') {
                target = 0;
                while (i < fmt.size() && fmt[i] >= '0' && fmt[i] <= '9' && target < 100000000)
                    target = target * 10 + (fmt[i++] - '0');
            }
        };
        number(spec.width);
        if (i < fmt.size() && fmt[i] == '.') {
            ++i;
            spec.precision = 0;
            number(spec.precision);
        }
        while (i < fmt.size() && (fmt[i] == 'h' || fmt[i] == 'l' || fmt[i] == 'L'))
            ++i;
        if (i >= fmt.size())
            interp.fail("incomplete format");
        spec.conv = fmt[i];
        if (spec.conv == '%') {
            out += '%';
            continue;
        }
        out += percentOne(interp, spec, keyed ? *keyed : nextArg());
        interp.checkSize(out.size());
    }
    if (next < count && !mappingLike)
        interp.fail("not all arguments converted during string formatting");
    return out;
}

} // namespace hearth::chat::jinja::pystr
