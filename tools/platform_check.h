// Checks of the engine's platform layer where it differs between operating
// systems, run by `hearth-engine-run --platform-check DIR` natively and on
// Windows (tests/windows: MinGW build under wine):
//
//   utf16-path  a GGUF written to and read from a folder and file name
//               outside ASCII (UTF-8 in the API, UTF-16 on Windows)
//   large-file  a sparse file larger than 4 GiB, mapped whole (mmap /
//               MapViewOfFile), read at an offset past 4 GiB, its resident
//               pages counted (mincore / QueryWorkingSetEx)
//   cpu         the features detected (cpuid, xgetbv) and the ISA chosen
//   affinity    the processors allowed, and a thread pinned to each runs there
//   memory      system and process memory figures
//
// Each check prints one line, "ok NAME: facts" or "FAIL NAME: why"; the
// facts are the same on every OS for the same machine, so a test can
// compare the lines of two builds.
#pragma once

#include <string>

namespace hearth::tools {

// Runs every check inside `dir` (an existing folder; what is written there
// is removed again). Returns the number of checks that failed.
int runPlatformChecks(const std::string& dir);

} // namespace hearth::tools
