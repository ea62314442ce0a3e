// The NEON K-quant kernels compiled again with the dotprod extension.
// Registered only when the CPU has it (kernels.cpp).
#define HEARTH_NEON_DOTPROD 1
#include "k_quants.cpp" // NOLINT(bugprone-suspicious-include)
