// Helpers shared by the tests: where the real models and the shared test
// data are, and skip messages when they are absent.
#pragma once

#include <string>
#include <vector>

namespace testsupport {

// $HEARTH_MODELS_DIR, else $XDG_DATA_HOME/hearth/models, else
// ~/.local/share/hearth/models (the rule scripts/setup uses).
std::string modelsDir();
// Full path of a model file in modelsDir(), or "" if it is not there.
std::string findModel(const std::string& fileName);
std::string smolLm2Path(); // SmolLM2-135M-Instruct.Q4_1.gguf
std::string gemma3Path();  // gemma-3-270m-q4_k_m.gguf
// $HEARTH_TESTDATA_DIR, else ../shared/testdata beside the source tree;
// "" if absent.
std::string testdataDir();
// The repository root.
std::string sourceDir();
// $HEARTH_CACHE_DIR, else $XDG_CACHE_HOME/hearth, else ~/.cache/hearth.
std::string cacheDir();
// A Hugging Face model folder that scripts/setup fetched (scripts/sources.lock),
// e.g. "all-MiniLM-L6-v2"; "" if it is not there.
std::string hfSourceDir(const std::string& name);
// The tooling Python (numpy + gguf, made by scripts/setup): $HEARTH_PYTHON,
// else $HEARTH_VENV/bin/python, else the venv under the cache dir, else
// "python3" from PATH.
std::string toolPython();
// Runs scripts/refs/make_synthetic_models.py into `outDir`; returns "" on
// success, else why it could not (no Python, no gguf package, ...).
std::string makeSyntheticModels(const std::string& outDir, const std::vector<std::string>& only = {});
// tests/data/<area> in the source tree.
std::string dataDir(const std::string& area);

inline constexpr const char* kModelsMissing = "real models not found: run scripts/setup (or set HEARTH_MODELS_DIR)";
inline constexpr const char* kPythonMissing =
    "tooling Python with numpy + gguf not found: run scripts/setup (or set HEARTH_PYTHON)";
inline constexpr const char* kSourceMissing =
    "Hugging Face model folder not found: run scripts/setup (scripts/sources.lock)";
inline constexpr const char* kTestdataMissing = "../shared/testdata not found (set HEARTH_TESTDATA_DIR)";

} // namespace testsupport

// Declares `var` as the path of a real model and skips the current Qt test
// when it is absent:  HEARTH_REQUIRE_MODEL(path, smolLm2Path);
#define HEARTH_REQUIRE_MODEL(var, finder)                                                                              \
    const std::string var = testsupport::finder();                                                                     \
    if (var.empty())                                                                                                   \
    QSKIP(testsupport::kModelsMissing)

// Declares `var` as the shared test data folder, or skips.
#define HEARTH_REQUIRE_TESTDATA(var)                                                                                   \
    const std::string var = testsupport::testdataDir();                                                                \
    if (var.empty())                                                                                                   \
    QSKIP(testsupport::kTestdataMissing)
