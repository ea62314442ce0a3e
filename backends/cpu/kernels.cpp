#include "cpu/kernels.h"

#include <array>
#include <mutex>

namespace hearth::cpu {

namespace {

KernelTable buildTable(Isa isa)
{
    if (!isaAvailable(isa))
        isa = Isa::Scalar;
    KernelTable t{};
    registerScalarFloatKernels(t);
    registerScalarLegacyKernels(t);
    registerScalarKQuantKernels(t);
    registerScalarRepackedKernels(t);
    registerScalarTiledKernels(t);
    registerScalarAttentionKernels(t);
    const CpuFeatures& f = cpuFeatures();
    if (isa == Isa::Avx2 || isa == Isa::Avx512) {
        registerAvx2FloatKernels(t);
        registerAvx2LegacyKernels(t);
        registerAvx2KQuantKernels(t);
        registerAvx2AttentionKernels(t);
        registerAvx2RepackedKernels(t);
        registerAvx2RepackedKQuantKernels(t);
    }
    if (isa == Isa::Avx512) {
        registerAvx512FloatKernels(t);
        registerAvx512LegacyKernels(t);
        registerAvx512KQuantKernels(t);
        registerAvx512AttentionKernels(t);
        if (f.avx512vnni) {
            registerAvx512VnniLegacyKernels(t);
            registerAvx512VnniLegacyTokenKernels(t);
            registerAvx512VnniKQuantKernels(t);
            registerAvx512VnniRepackedKernels(t);
            registerAvx512VnniRepackedGemvKernels(t);
        }
    }
    if (isa == Isa::Neon) {
        registerNeonFloatKernels(t);
        registerNeonLegacyKernels(t);
        registerNeonKQuantKernels(t);
        registerNeonAttentionKernels(t);
        registerNeonRepackedKernels(t);
        registerNeonRepackedKQuantKernels(t);
        if (f.dotprod) {
            registerNeonDotprodLegacyKernels(t);
            registerNeonDotprodKQuantKernels(t);
            registerNeonDotprodRepackedKernels(t);
            registerNeonDotprodRepackedKQuantKernels(t);
        }
    }
    return t;
}

} // namespace

bool isaAvailable(Isa isa)
{
    const CpuFeatures& f = cpuFeatures();
    const bool avx2 = f.avx2 && f.fma && f.f16c;
    switch (isa) {
    case Isa::Scalar: return true;
    case Isa::Avx2: return avx2;
    case Isa::Avx512: return avx2 && f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq;
    case Isa::Neon: return f.neon;
    }
    return false;
}

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

const AttentionKernels& attentionKernels()
{
    return kernelTable(activeIsa()).attention;
}

const ActivationKernels& activationKernels()
{
    return kernelTable(activeIsa()).activation;
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

namespace {

// The entries that compute `order` for weights with kernels k: a repacked
// type without a GEMM order of its own (Q4_0, IQ4_NL) sums GEMM tokens as
// GEMV does.
const MatMulOrderEntries& entriesOf(const TypeKernels& k, MatMulOrder order)
{
    if (order == MatMulOrder::RepackedGemm && !k.vecDotRepackedGemm)
        order = MatMulOrder::RepackedGemv;
    return kMatMulOrders[static_cast<size_t>(order)];
}

} // namespace

VecDotFn matMulDot(GgmlType weightType, int64_t rows, int64_t tokens, int64_t token)
{
    const TypeKernels& k = typeKernels(weightType);
    return k.*entriesOf(k, matMulOrder(weightType, rows, tokens, token)).dot;
}

GemmFn matMulGemm(GgmlType weightType, MatMulOrder order)
{
    const TypeKernels& k = typeKernels(weightType);
    return k.*entriesOf(k, order).gemm;
}

bool canMultiply(GgmlType type)
{
    const TypeKernels& k = typeKernels(type);
    return k.vecDot != nullptr && typeKernels(k.vecDotType).fromFloat != nullptr;
}

} // namespace hearth::cpu
