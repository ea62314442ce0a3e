#include "utf8_args.h"

#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX // MinGW's C++ headers define it already
#define NOMINMAX
#endif
#include <windows.h>
// After windows.h: shellapi.h needs its types.
#include <shellapi.h>
#endif

namespace hearth::tools {

#ifdef _WIN32

namespace {

std::string narrow(const wchar_t* wide)
{
    const int n = WideCharToMultiByte(CP_UTF8, 0, wide, -1, nullptr, 0, nullptr, nullptr);
    std::string out(n > 0 ? n - 1 : 0, '\0');
    if (n > 1)
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, out.data(), n, nullptr, nullptr);
    return out;
}

} // namespace

std::vector<std::string> utf8Args(int argc, char** argv)
{
    int n = 0;
    wchar_t** wide = CommandLineToArgvW(GetCommandLineW(), &n);
    if (!wide) // keep what the C runtime made of it
        return std::vector<std::string>(argv, argv + argc);
    std::vector<std::string> args;
    for (int i = 0; i < n; ++i)
        args.push_back(narrow(wide[i]));
    LocalFree(wide);
    return args;
}

#else

std::vector<std::string> utf8Args(int argc, char** argv)
{
    return std::vector<std::string>(argv, argv + argc);
}

#endif

} // namespace hearth::tools
