// Scalar reference kernels for the 256-element super-block formats (Q2_K,
// Q3_K, Q4_K, Q5_K, Q6_K, IQ4_XS) against Q8_K activations.
#include "cpu/kernels.h"

namespace hearth::cpu {

void registerScalarKQuantKernels(KernelTable& /*table*/)
{
    // Filled in when core/quant's block structs land (issue 3).
}

} // namespace hearth::cpu
