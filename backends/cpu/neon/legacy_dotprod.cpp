// The NEON kernels of the 32-element block formats compiled again with the
// dotprod extension (SDOT: four products and their sum per lane in one
// instruction). Registered only when the CPU has it (kernels.cpp).
#define HEARTH_NEON_DOTPROD 1
#include "legacy.cpp" // NOLINT(bugprone-suspicious-include)
