#include "backend/op.h"
#include "backend/backend.h"

#include <cstring>

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
    case OpKind::Copy: return "copy";
    case OpKind::Norm: return "norm";
    case OpKind::Gelu: return "gelu";
    }
    return "?";
}

const char* deviceKindName(DeviceKind kind)
{
    switch (kind) {
    case DeviceKind::Cpu: return "cpu";
    case DeviceKind::DiscreteGpu: return "discrete";
    case DeviceKind::IntegratedGpu: return "integrated";
    case DeviceKind::OtherGpu: return "other";
    }
    return "?";
}

void Backend::zero(Buffer& buffer)
{
    std::memset(buffer.data(), 0, buffer.size());
}

void Backend::write(Buffer& dst, size_t offset, const void* src, size_t bytes)
{
    std::memcpy(dst.data() + offset, src, bytes);
}

void Backend::read(Buffer& src, size_t offset, void* dst, size_t bytes)
{
    std::memcpy(dst, src.data() + offset, bytes);
}

} // namespace hearth
