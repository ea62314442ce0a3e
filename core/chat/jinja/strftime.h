// strftime() in the "C" locale, whatever locale the process runs in: chat
// templates print dates with strftime_now(), Hugging Face renders them with
// English day and month names, and a Qt application sets the user's locale
// at start-up. Names (%a %A %b %B %p) and composites (%c %x %X %r) are
// written here; numeric fields go to the C library.
#pragma once

#include <ctime>
#include <string>
#include <string_view>

namespace hearth::chat::jinja {

// Throws nothing; stops at `maxBytes` of output.
std::string formatTime(std::string_view format, const std::tm& t, size_t maxBytes);

} // namespace hearth::chat::jinja
