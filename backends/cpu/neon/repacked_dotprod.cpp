// The NEON kernels of the repacked Q4_0 / IQ4_NL orders (and IQ4_NL's
// vec_dot) compiled again with the dotprod extension. Registered only when
// the CPU has it (kernels.cpp).
#define HEARTH_NEON_DOTPROD 1
#include "repacked.cpp" // NOLINT(bugprone-suspicious-include)
