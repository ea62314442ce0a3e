// Checks freshly quantized rows before they are written, as ggml's
// ggml_validate_row_data does after llama-quantize converts a tensor: every
// f16 / bf16 / f32 value and every f16 block scale (d, and m / dmin where the
// format has one) must be finite. A scale overflows when the input holds
// values beyond what the format's f16 scale can express (|x| > ~8e6 for
// q8_0), or when the input itself has NaN or infinity.
//
// Pure function; thread-safe.
#pragma once

#include "quant/types.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace hearth::quantize {

// "" when valid, otherwise what is wrong and where ("block 12: scale d is
// inf"). `bytes` is a whole number of blocks of `type`.
std::string checkRows(GgmlType type, const uint8_t* data, size_t bytes);

} // namespace hearth::quantize
