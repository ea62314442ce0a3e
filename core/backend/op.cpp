#include "backend/op.h"

namespace hearth {

const char* opName(OpKind kind)
{
    switch (kind) {
    case OpKind::GetRows: return "get_rows";
    case OpKind::RmsNorm: return "rms_norm";
    case OpKind::Add: return "add";
    case OpKind::Mul: return "mul";
    case OpKind::Scale: return "scale";
    case OpKind::SoftCap: return "soft_cap";
    case OpKind::MatMul: return "mat_mul";
    case OpKind::Rope: return "rope";
    case OpKind::SwiGlu: return "swiglu";
    case OpKind::GeGlu: return "geglu";
    case OpKind::StoreRows: return "store_rows";
    case OpKind::Attention: return "attention";
    case OpKind::RopeShift: return "rope_shift";
    }
    return "?";
}

} // namespace hearth
