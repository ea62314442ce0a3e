// A summary of a GGUF model read from its header alone: what `hearth info`
// prints and what the model picker shows. Cheap: no tensor data is touched.
#pragma once

#include "gguf/gguf.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hearth::gguf {

struct TypeUsage {
    GgmlType type;
    int64_t tensors = 0;
    uint64_t bytes = 0;
};

struct ModelInfo {
    std::string path;
    uint32_t version = 0;
    uint64_t fileSize = 0;
    size_t splitCount = 1;
    std::string architecture;       // general.architecture ("" if absent)
    std::string name;               // general.name ("" if absent)
    std::string baseName;           // general.basename: "SmolLM2" ("" if absent)
    std::string sizeLabel;          // general.size_label: "135M" ("" if absent)
    std::string finetune;           // general.finetune: "Instruct" ("" if absent)
    std::string fileType;           // from general.file_type: "Q4_K_M", "F16", ... ("" if absent)
    int64_t parameters = 0;         // elements of all tensors
    uint64_t tensorBytes = 0;       // bytes of all tensor data
    std::vector<TypeUsage> typeMix; // by descending bytes
    int64_t contextLength = 0;      // {arch}.context_length (0 if absent)
    int64_t embeddingLength = 0;
    int64_t blockCount = 0;
    int64_t headCount = 0; // largest over layers when stored per layer
    int64_t headCountKv = 0;
    int64_t feedForwardLength = 0;
    int64_t vocabSize = 0;      // tokens in tokenizer.ggml.tokens
    std::string tokenizerModel; // tokenizer.ggml.model ("llama", "gpt2", "bert", ...)
    std::string tokenizerPre;   // tokenizer.ggml.pre
    bool hasChatTemplate = false;
    int64_t tensorCount = 0;

    // The dominant type's name in upper case when general.file_type is
    // absent, else fileType.
    std::string quantLabel() const;
};

ModelInfo summarize(const File& file);

// llama.cpp's name for a general.file_type value ("Q4_K_M"), or "" if unknown.
std::string fileTypeName(int64_t fileType);

} // namespace hearth::gguf
