// Plain number types stored in tensors: f32, f16 (IEEE half) and bf16
// (bfloat16). "Blocks" of one element; conversions are the scalar reference
// that kernels are tested against.
//
// f16 and bf16 rows are arrays of uint16_t bit patterns, little-endian as in
// the file. f32 -> f16 and f32 -> bf16 round to nearest even (bit-exact with
// ggml's ggml_fp32_to_fp16 / ggml_fp32_to_bf16).
#pragma once

#include <cstdint>

namespace hearth {

void dequantizeRowF32(const float* x, float* y, int64_t n);
void dequantizeRowF16(const uint16_t* x, float* y, int64_t n);
void dequantizeRowBF16(const uint16_t* x, float* y, int64_t n);

void quantizeRowF32(const float* x, float* y, int64_t n);
void quantizeRowF16(const float* x, uint16_t* y, int64_t n);
void quantizeRowBF16(const float* x, uint16_t* y, int64_t n);

} // namespace hearth
