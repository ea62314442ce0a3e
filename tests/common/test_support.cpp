#include "test_support.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace testsupport {

static std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

std::string modelsDir()
{
    if (const std::string d = env("HEARTH_MODELS_DIR"); !d.empty())
        return d;
    if (const std::string x = env("XDG_DATA_HOME"); !x.empty())
        return x + "/hearth/models";
#ifdef _WIN32
    return env("LOCALAPPDATA") + "/Hearth/models";
#elif defined(__APPLE__)
    return env("HOME") + "/Library/Application Support/Hearth/models";
#else
    return env("HOME") + "/.local/share/hearth/models";
#endif
}

std::string findModel(const std::string& fileName)
{
    const fs::path p = fs::path(modelsDir()) / fileName;
    std::error_code ec;
    return fs::is_regular_file(p, ec) ? p.string() : std::string();
}

std::string smolLm2Path()
{
    return findModel("SmolLM2-135M-Instruct.Q4_1.gguf");
}

std::string gemma3Path()
{
    return findModel("gemma-3-270m-q4_k_m.gguf");
}

std::string sourceDir()
{
    if (const std::string d = env("HEARTH_SOURCE_DIR"); !d.empty())
        return d;
    return HEARTH_SOURCE_DIR;
}

std::string testdataDir()
{
    std::string d = env("HEARTH_TESTDATA_DIR");
    if (d.empty())
        d = HEARTH_DEFAULT_TESTDATA_DIR;
    std::error_code ec;
    return fs::is_directory(d, ec) ? fs::weakly_canonical(d, ec).string() : std::string();
}

} // namespace testsupport
