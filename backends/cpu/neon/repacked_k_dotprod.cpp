// The NEON kernels of the repacked Q4_K / Q2_K orders compiled again with
// the dotprod extension. Registered only when the CPU has it (kernels.cpp).
#define HEARTH_NEON_DOTPROD 1
#include "repacked_k.cpp" // NOLINT(bugprone-suspicious-include)
