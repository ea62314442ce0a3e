// Tensor data of the converter: a source tensor's rows (F32, F16, BF16 or
// F64 in the safetensors file) through its transform into the GGUF type
// (F32, F16, BF16 or Q8_0), written a chunk of rows at a time.
//
// Values follow llama.cpp's converter exactly: F16 sources stay F16 through
// the transforms (so Gemma's norm + 1 rounds to half precision, as torch
// does on a half tensor), every other source becomes F32 first; F16 and BF16
// round to nearest even, Q8_0 is ggml's reference quantizer.
#pragma once

#include "convert/arch.h"
#include "gguf/gguf_writer.h"
#include "quant/types.h"

#include <atomic>
#include <string>
#include <vector>

namespace hearth::convert {

struct TensorJob {
    std::string name;                 // GGUF name
    const StTensor* source = nullptr; // nullptr: `generated`
    std::vector<float> generated;     // a computed 1-D F32 tensor
    std::vector<int64_t> shape;       // row-major (outermost first), as the source
    GgmlType type = GgmlType::F32;    // output type
    Transform transform;
};

// Throws hearth::Error when the source's dtype cannot be converted.
void checkConvertible(const StTensor& t);
// Throws hearth::Error when the transform does not fit the shape.
void checkTransform(const TensorJob& job);
// Writes the job's GGUF bytes to `sink`; throws hearth::Cancelled when
// `cancel` is set (checked between chunks).
void writeTensorData(const TensorJob& job, gguf::Writer::TensorSink& sink, const std::atomic<bool>* cancel);

} // namespace hearth::convert
