// The AVX-512 kernels of the 32-element block formats compiled again with
// AVX512_VNNI: vpdpbusd does the u8 × s8 products and their sums of four in
// one instruction, without maddubs' 16-bit saturation. Registered only when
// the CPU reports VNNI (kernels.cpp).
#define HEARTH_AVX512_VNNI 1
#include "legacy.cpp" // NOLINT(bugprone-suspicious-include)
