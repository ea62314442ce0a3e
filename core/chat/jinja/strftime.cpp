#include "chat/jinja/strftime.h"

#include <cctype>

namespace hearth::chat::jinja {

namespace {

constexpr const char* kDays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};

std::string name(const char* full, bool abbreviated)
{
    const std::string s(full);
    return abbreviated ? s.substr(0, 3) : s;
}

// A numeric conversion (with any glibc flag) through the C library.
std::string numeric(const std::string& spec, const std::tm& t)
{
    char buf[128];
    const size_t n = std::strftime(buf, sizeof buf, spec.c_str(), &t);
    return std::string(buf, n);
}

} // namespace

std::string formatTime(std::string_view format, const std::tm& t, size_t maxBytes)
{
    std::string out;
    for (size_t i = 0; i < format.size() && out.size() <= maxBytes; ++i) {
        if (format[i] != '%' || i + 1 >= format.size()) {
            out += format[i];
            continue;
        }
        size_t j = i + 1;
        std::string flags;
        while (j < format.size() && std::string_view("-_0^#").find(format[j]) != std::string_view::npos)
            flags += format[j++];
        while (j < format.size() && (format[j] == 'E' || format[j] == 'O'))
            ++j; // alternative representations: the C locale has none
        if (j >= format.size()) {
            out.append(format.substr(i));
            break;
        }
        const char c = format[j];
        const int wday = (t.tm_wday % 7 + 7) % 7;
        const int mon = (t.tm_mon % 12 + 12) % 12;
        std::string piece;
        switch (c) {
        case 'a': piece = name(kDays[wday], true); break;
        case 'A': piece = name(kDays[wday], false); break;
        case 'b':
        case 'h': piece = name(kMonths[mon], true); break;
        case 'B': piece = name(kMonths[mon], false); break;
        case 'p': piece = t.tm_hour < 12 ? "AM" : "PM"; break;
        case 'c': piece = formatTime("%a %b %e %H:%M:%S %Y", t, maxBytes); break;
        case 'x': piece = formatTime("%m/%d/%y", t, maxBytes); break;
        case 'X': piece = formatTime("%H:%M:%S", t, maxBytes); break;
        case 'r': piece = formatTime("%I:%M:%S %p", t, maxBytes); break;
        case '%': piece = "%"; break;
        default: piece = numeric("%" + flags + c, t); break;
        }
        if (flags.find('^') != std::string::npos)
            for (char& ch : piece)
                ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        out += piece;
        i = j;
    }
    if (out.size() > maxBytes)
        out.resize(maxBytes);
    return out;
}

} // namespace hearth::chat::jinja
