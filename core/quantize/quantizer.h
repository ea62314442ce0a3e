// `hearth quantize`: a GGUF model to another GGUF whose weights are
// re-encoded in a llama.cpp quantization mix (quant_policy.h picks each
// tensor's type), with the bytes llama.cpp's llama-quantize writes without an
// importance matrix: the chunk quantizers of core/quant
// (TypeTraits::quantizeChunk) are bit-exact with ggml_quantize_chunk's, and
// the file keeps llama.cpp's layout (all metadata in order,
// general.quantization_version and general.file_type moved to the end,
// split.* dropped; tensors by layer, then by name; 32-byte alignment unless
// the input sets general.alignment).
//
// Everything is planned and checked before the output is created (a tensor
// that would need requantizing without allowRequantize, a type without a
// reference dequantizer, rows that fit no type). Tensor data is streamed to
// OUT.tmp in batches of at most ~64 MiB, rows split among `threads` workers,
// each converting its rows to f32 in a small buffer of its own; the input
// stays memory-mapped. The temporary file is renamed into place when it is
// complete and valid (every f16 scale finite, as ggml_validate_row_data
// checks); a failure or cancellation leaves no output file.
//
// Thread-safety: quantizeModel() may run on any thread and starts its own
// workers; progress is called on the calling thread.
#pragma once

#include "quantize/quant_policy.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace hearth::quantize {

struct TensorReport {
    std::string name;
    std::array<int64_t, 4> ne{1, 1, 1, 1};
    GgmlType from = GgmlType::F32;
    GgmlType to = GgmlType::F32;
    bool fallback = false; // the mix's type did not fit its rows
    uint64_t bytesIn = 0;
    uint64_t bytesOut = 0;
};

struct QuantizeProgress {
    size_t tensor = 0; // index of the tensor being written (== tensors at the end)
    size_t tensors = 0;
    const TensorReport* current = nullptr; // nullptr at the end
    uint64_t bytesDone = 0;                // of the output's tensor data
    uint64_t bytesTotal = 0;
};

struct QuantizeOptions {
    std::filesystem::path input;
    std::filesystem::path output;
    Mix mix = Mix::Q8_0;
    bool allowRequantize = false;   // convert tensors that are already quantized
    bool leaveOutputTensor = false; // keep output.weight as it is
    bool pure = false;              // no per-tensor mix rules
    int threads = 0;                // 0: one per hardware thread
    std::function<void(const QuantizeProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr; // set to stop (hearth::Cancelled)
};

struct QuantizeResult {
    std::vector<TensorReport> tensors; // in the output's order
    uint64_t bytesIn = 0;              // tensor data of the input
    uint64_t bytesOut = 0;             // tensor data of the output
    int64_t elements = 0;
    size_t fallbacks = 0;
    uint64_t fileBytes = 0; // the written file (0 for a plan)
    double bpwIn() const { return elements ? 8.0 * static_cast<double>(bytesIn) / static_cast<double>(elements) : 0; }
    double bpwOut() const { return elements ? 8.0 * static_cast<double>(bytesOut) / static_cast<double>(elements) : 0; }
};

// What quantizeModel() would write, without writing (--dry-run, and the
// app's size estimate). Throws hearth::Error as quantizeModel() would.
QuantizeResult planQuantize(const QuantizeOptions& options);

// Throws hearth::Error (bad input, impossible plan, I/O) or hearth::Cancelled.
QuantizeResult quantizeModel(const QuantizeOptions& options);

} // namespace hearth::quantize
