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
    registerScalarAttentionKernels(t);
    const CpuFeatures& f = cpuFeatures();
    if (isa == Isa::Avx2 || isa == Isa::Avx512) {
        registerAvx2FloatKernels(t);
        registerAvx2LegacyKernels(t);
        registerAvx2KQuantKernels(t);
        registerAvx2AttentionKernels(t);
    }
    if (isa == Isa::Avx512) {
        registerAvx512FloatKernels(t);
        registerAvx512LegacyKernels(t);
        registerAvx512KQuantKernels(t);
        registerAvx512AttentionKernels(t);
        if (f.avx512vnni) {
            registerAvx512VnniLegacyKernels(t);
            registerAvx512VnniKQuantKernels(t);
        }
    }
    if (isa == Isa::Neon) {
        registerNeonFloatKernels(t);
        registerNeonLegacyKernels(t, f.dotprod);
        registerNeonKQuantKernels(t, f.dotprod);
        registerNeonAttentionKernels(t);
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

bool canMultiply(GgmlType type)
{
    const TypeKernels& k = typeKernels(type);
    return k.vecDot != nullptr && typeKernels(k.vecDotType).fromFloat != nullptr;
}

} // namespace hearth::cpu
