// Helpers shared by the tests: where the real models and the shared test
// data are, and skip messages when they are absent.
#pragma once

#include <string>

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

inline constexpr const char* kModelsMissing = "real models not found: run scripts/setup (or set HEARTH_MODELS_DIR)";
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
