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
// What recording needs besides the op: the largest binding, how to tell
// device memory from host memory (Copy), the work area (device memory
// for activations rounded to a weight type's partner).
struct RecordContext {
    uint64_t maxRange = 0;
    std::function<bool(const void*)> owns;
    uint8_t* work = nullptr;
    uint64_t workBytes = 0;
};
// Work-area bytes `op` needs.
uint64_t opWorkBytes(const Op& op);
void recordOp(Recorder& r, const Op& op, const RecordContext& ctx);

} // namespace hearth::vulkan
