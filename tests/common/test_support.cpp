#include "test_support.h"

#include <QProcess>
#include <QStringList>

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

std::string cacheDir()
{
    if (std::string cache = env("HEARTH_CACHE_DIR"); !cache.empty())
        return cache;
    const std::string xdg = env("XDG_CACHE_HOME");
    return (xdg.empty() ? env("HOME") + "/.cache" : xdg) + "/hearth";
}

std::string hfSourceDir(const std::string& name)
{
    const fs::path p = fs::path(cacheDir()) / "hf" / name;
    std::error_code ec;
    return fs::is_regular_file(p / ".hearth-source", ec) ? p.string() : std::string();
}

std::string toolPython()
{
    if (const std::string p = env("HEARTH_PYTHON"); !p.empty())
        return p;
    std::string venv = env("HEARTH_VENV");
    if (venv.empty())
        venv = cacheDir() + "/venv";
#ifdef _WIN32
    const fs::path py = fs::path(venv) / "Scripts" / "python.exe";
#else
    const fs::path py = fs::path(venv) / "bin" / "python";
#endif
    std::error_code ec;
    return fs::exists(py, ec) ? py.string() : std::string("python3");
}

std::string makeSyntheticModels(const std::string& outDir, const std::vector<std::string>& only)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    const std::string script = sourceDir() + "/scripts/refs/make_synthetic_models.py";
    QStringList args{QString::fromStdString(script), QString::fromStdString(outDir)};
    if (!only.empty()) {
        args << QStringLiteral("--only");
        for (const std::string& name : only)
            args << QString::fromStdString(name);
    }
    p.start(QString::fromStdString(toolPython()), args);
    if (!p.waitForStarted(10000))
        return "cannot start " + toolPython();
    if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        return "make_synthetic_models.py failed: " + p.readAll().toStdString();
    return {};
}

std::string dataDir(const std::string& area)
{
    return sourceDir() + "/tests/data/" + area;
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
