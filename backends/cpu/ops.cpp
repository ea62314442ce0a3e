#include "cpu/ops.h"
#include "cpu/kernels.h"

#include <cstring>

namespace hearth::cpu {

namespace {

bool isF32(const Tensor& t)
{
    return t.type == GgmlType::F32;
}

bool kvType(GgmlType t)
{
    return t == GgmlType::F16 || t == GgmlType::F32 || t == GgmlType::Q8_0;
}

} // namespace

int opPhases(const Op& op)
{
    return op.kind == OpKind::MatMul ? 2 : 1;
}

size_t opWorkBytes(const Op& op, int nth)
{
    switch (op.kind) {
    case OpKind::MatMul: return matMulWorkBytes(op);
    case OpKind::Rope:
    case OpKind::RopeShift: return ropeWorkBytes(op, nth);
    case OpKind::Attention: return attentionWorkBytes(op, nth);
    default: return 0;
    }
}

bool opSupported(const Op& op)
{
    switch (op.kind) {
    case OpKind::GetRows: return typeKernels(op.src[0].type).toFloat != nullptr;
    case OpKind::MatMul: return canMultiply(op.src[0].type) && isF32(op.src[1]);
    case OpKind::StoreRows: return kvType(op.dst.type) && typeKernels(op.dst.type).fromFloat != nullptr;
    case OpKind::RopeShift: return kvType(op.dst.type) && op.attn.headDimK > 0 && op.dst.ne[0] % op.attn.headDimK == 0;
    case OpKind::Attention:
        return kvType(op.src[1].type) && kvType(op.src[2].type) && op.attn.nHeadKv > 0 &&
               op.attn.nHead % op.attn.nHeadKv == 0 && canMultiply(op.src[1].type);
    case OpKind::Copy: return op.src[0].denseBytes() == op.dst.denseBytes();
    default: return isF32(op.src[0]) && isF32(op.dst);
    }
}

void runOp(const Op& op, int phase, const ExecContext& ctx)
{
    switch (op.kind) {
    case OpKind::GetRows: runGetRows(op, ctx); break;
    case OpKind::RmsNorm: runRmsNorm(op, ctx); break;
    case OpKind::Norm: runNorm(op, ctx); break;
    case OpKind::Gelu: runGelu(op, ctx); break;
    case OpKind::Add:
    case OpKind::Mul: runBinary(op, ctx); break;
    case OpKind::Scale:
    case OpKind::SoftCap: runUnary(op, ctx); break;
    case OpKind::SwiGlu:
    case OpKind::GeGlu: runGlu(op, ctx); break;
    case OpKind::MatMul: runMatMul(op, phase, ctx); break;
    case OpKind::Rope: runRope(op, ctx); break;
    case OpKind::RopeShift: runRopeShift(op, ctx); break;
    case OpKind::StoreRows: runStoreRows(op, ctx); break;
    case OpKind::Attention: runAttention(op, ctx); break;
    case OpKind::Copy: {
        // Host to host (a device backend runs the copies of a split).
        int64_t begin, end;
        splitRange(static_cast<int64_t>(op.dst.denseBytes()), ctx.ith, ctx.nth, begin, end);
        if (end > begin)
            std::memcpy(op.dst.data + begin, op.src[0].data + begin, static_cast<size_t>(end - begin));
        break;
    }
    }
}

} // namespace hearth::cpu
