// The command line as UTF-8 strings. On Windows argv is in the ANSI code
// page, where a model path or a prompt outside it (Chinese, emoji) arrives
// as '?'; the UTF-16 command line is read and converted instead.
#pragma once

#include <string>
#include <vector>

namespace hearth::tools {

// argv[0..argc) as UTF-8 (on POSIX, the bytes as given).
std::vector<std::string> utf8Args(int argc, char** argv);

} // namespace hearth::tools
