// Locale-independent text → double for the engine (JSON numbers, float
// literals, float() of strings): std::from_chars where the standard library
// has it for floating point, a classic-locale stream otherwise (older libc++).
#pragma once

#include <charconv>
#include <clocale>
#include <cmath>
#include <locale>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

namespace hearth::chat {

// Parses all of `text` (a decimal floating-point number, no leading '+');
// out-of-range values become ±inf (or ±0 when too small). nullopt when the
// text is not a number.
inline std::optional<double> parseDouble(std::string_view text)
{
    if (text.empty())
        return std::nullopt;
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
    double d = 0;
    const auto res = std::from_chars(text.data(), text.data() + text.size(), d);
    if (res.ptr != text.data() + text.size())
        return std::nullopt;
    if (res.ec == std::errc::result_out_of_range) {
        const bool neg = text[0] == '-';
        // from_chars leaves d unchanged on overflow: decide by the exponent.
        const size_t e = text.find_first_of("eE");
        const bool tiny = e != std::string_view::npos && text.find('-', e) != std::string_view::npos;
        return tiny ? (neg ? -0.0 : 0.0) : (neg ? -HUGE_VAL : HUGE_VAL);
    }
    return d;
#else
    std::istringstream in{std::string(text)};
    in.imbue(std::locale::classic());
    double d = 0;
    in >> d;
    if (in.fail() || in.peek() != std::char_traits<char>::eof())
        return std::nullopt;
    return d;
#endif
}

// printf writes the locale's decimal point (a Qt application runs in the
// user's locale, e.g. "3,14" in German); Python always writes '.'. Call on
// the text of one number formatted with snprintf.
inline void useDotDecimalPoint(std::string& number)
{
    const char* dp = std::localeconv()->decimal_point;
    if (!dp || (dp[0] == '.' && dp[1] == '\0'))
        return;
    const std::string_view point(dp);
    if (const size_t at = number.find(point); at != std::string::npos)
        number.replace(at, point.size(), ".");
}

} // namespace hearth::chat
