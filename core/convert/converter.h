// `hearth convert`: a Hugging Face model folder (config.json, safetensors,
// tokenizer files) to a GGUF with the keys, tensor names, tensor types and
// tokenizer metadata that llama.cpp's convert_hf_to_gguf.py writes for it
// (docs/cli.md lists the keys that differ: the general.* model-card keys).
//
// Everything is read and checked before the output is created; the output is
// streamed to OUT.tmp one tensor at a time through a small buffer (the
// sources stay memory-mapped and leave the resident set once read, so a 7B
// model converts in bounded memory) and renamed into place when complete.
// Any failure or cancellation leaves no output file.
//
// Thread-safety: convertModel() may run on any thread; progress is called
// on that thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth::convert {

// --outtype: what 2-D weights become (1-D tensors, norms and biases stay F32).
enum class OutType {
    F32,
    F16,
    BF16,
    Q8_0,
};
std::optional<OutType> parseOutType(std::string_view name);
std::string_view outTypeName(OutType t);

struct ConvertProgress {
    size_t tensor = 0; // index of the tensor being written
    size_t tensors = 0;
    std::string name;
    uint64_t bytesDone = 0; // of the output's tensor data
    uint64_t bytesTotal = 0;
};

struct ConvertOptions {
    std::vector<std::filesystem::path> inputs; // a folder, or files in one folder
    std::filesystem::path output;
    OutType outType = OutType::F16;
    std::string preTokenizer; // force tokenizer.ggml.pre (BPE); "" detects it
    std::string modelName;    // general.name; "" uses the folder's name
    std::function<void(const ConvertProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr; // set to stop (hearth::Cancelled)
};

struct ConvertResult {
    std::string architecture; // general.architecture
    size_t tensors = 0;
    int64_t parameters = 0;
    uint64_t fileBytes = 0;
};

// Throws hearth::Error (bad input, unsupported model) or hearth::Cancelled.
ConvertResult convertModel(const ConvertOptions& options);

} // namespace hearth::convert
