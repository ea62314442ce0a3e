// Writes small but valid GGUF files for app tests (the model picker, the
// fake engine's validation, drops): a llama-shaped header with real
// hyperparameter keys and a few F32 tensors. The engine's own tests use the
// full writer (gguf::Writer); this stays dependency-free for the app side.
#pragma once

#include <cstdint>
#include <string>

namespace testsupport {

struct TinyModel {
    std::string architecture = "llama";
    std::string name = "Tiny Test Model";
    uint32_t contextLength = 2048;
    uint32_t embeddingLength = 64;
    uint32_t blockCount = 2;
    uint32_t headCount = 4;
    uint32_t headCountKv = 2;
    uint32_t fileType = 0; // 0 = all F32
    uint32_t vocabSize = 32;
    bool chatTemplate = true;
};

// Writes `model` to `path`; returns false if the file cannot be written.
bool writeTinyGguf(const std::string& path, const TinyModel& model = {});

} // namespace testsupport
