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

bool canMultiply(GgmlType type)
{
    const TypeKernels& k = typeKernels(type);
    return k.vecDot != nullptr && typeKernels(k.vecDotType).fromFloat != nullptr;
}

} // namespace hearth::cpu
