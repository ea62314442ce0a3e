// Scalar reference kernels for the 32-element block formats (Q4_0, Q4_1,
// Q5_0, Q5_1, Q8_0, IQ4_NL): integer dot products per block with the Q8
// activation partner, scaled per block, as ggml's reference vec_dot does.
#include "cpu/kernels.h"

namespace hearth::cpu {

void registerScalarLegacyKernels(KernelTable& /*table*/)
{
    // Filled in when core/quant's block structs land (issue 3).
}

} // namespace hearth::cpu
