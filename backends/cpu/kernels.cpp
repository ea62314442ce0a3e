#include "cpu/kernels.h"

#include <array>
#include <mutex>

namespace hearth::cpu {

namespace {

KernelTable buildTable(Isa isa)
{
    KernelTable t{};
    registerScalarFloatKernels(t);
    registerScalarLegacyKernels(t);
    registerScalarKQuantKernels(t);
    registerScalarRepackedKernels(t);
    registerScalarTiledKernels(t);
    // SIMD levels override entries here (issue 7).
    (void)isa;
    return t;
}

} // namespace

const KernelTable& kernelTable(Isa isa)
{
    static std::array<KernelTable, 4> tables;
    static std::array<std::once_flag, 4> once;
    const auto i = static_cast<size_t>(isa);
    std::call_once(once[i], [&] { tables[i] = buildTable(isa); });
    return tables[i];
}

const TypeKernels& typeKernels(GgmlType type)
{
    return kernelTable(activeIsa()).types[static_cast<uint32_t>(type)];
}

MatMulOrder matMulOrder(GgmlType weightType, int64_t rows, int64_t tokens, int64_t token)
{
    const TypeKernels& k = typeKernels(weightType);
    if (k.vecDotRepacked && rows % kRepackRowMultiple == 0)
        return token < tokens - tokens % kGemmTokenGroup ? MatMulOrder::RepackedGemm : MatMulOrder::RepackedGemv;
    if (k.vecDotTiled && tokens >= kTiledMinTokens)
        return MatMulOrder::Tiled;
    if (k.vecDotSgemm && tokens >= kSgemmMinTokens)
        return MatMulOrder::Sgemm;
    return MatMulOrder::VecDot;
}

VecDotFn matMulDot(GgmlType weightType, int64_t rows, int64_t tokens, int64_t token)
{
    const TypeKernels& k = typeKernels(weightType);
    switch (matMulOrder(weightType, rows, tokens, token)) {
    case MatMulOrder::RepackedGemm:
        if (k.vecDotRepackedGemm)
            return k.vecDotRepackedGemm;
        [[fallthrough]];
    case MatMulOrder::RepackedGemv: return k.vecDotRepacked;
    case MatMulOrder::Tiled: return k.vecDotTiled;
    case MatMulOrder::Sgemm: return k.vecDotSgemm;
    case MatMulOrder::VecDot: break;
    }
    return k.vecDot;
}

bool canMultiply(GgmlType type)
{
    const TypeKernels& k = typeKernels(type);
    return k.vecDot != nullptr && typeKernels(k.vecDotType).fromFloat != nullptr;
}

} // namespace hearth::cpu
