// Op list entries as dispatches of the embedded shaders (internal to the
// Vulkan backend): which variant, its push constants, its bindings.
#pragma once

#include "backend/op.h"
#include "vulkan/recorder.h"

namespace hearth::vulkan {

// The weight types the shaders read (matmul, get_rows), and the KV types.
bool weightTypeSupported(GgmlType t);
bool kvTypeSupported(GgmlType t);
// Whether recordOp() handles this op's types and shapes; `why` says what
// does not fit when it returns false.
bool opSupported(const Op& op, const char** why = nullptr);
// Records `op`. `owns` tells device memory from host memory (Copy).
void recordOp(Recorder& r, const Op& op, uint64_t maxRange, const std::function<bool(const void*)>& owns);

} // namespace hearth::vulkan
