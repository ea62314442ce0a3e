// File names cross the engine's API as UTF-8 std::string. On Windows a
// narrow std::string given to std::filesystem or an fstream is read in the
// ANSI code page, so a model in "C:\Users\Zoë\模型" would not be found;
// this makes the path from the UTF-8 bytes instead (UTF-16 inside). On
// POSIX the bytes are the path.
#pragma once

#include <filesystem>
#include <string>

namespace hearth {

inline std::filesystem::path pathFromUtf8(const std::string& utf8)
{
#ifdef _WIN32
    return std::filesystem::path(std::u8string(utf8.begin(), utf8.end()));
#else
    return std::filesystem::path(utf8);
#endif
}

// The inverse: a path as UTF-8 bytes (for messages and the engine's API).
inline std::string pathToUtf8(const std::filesystem::path& path)
{
    const std::u8string u = path.u8string();
    return std::string(u.begin(), u.end());
}

} // namespace hearth
