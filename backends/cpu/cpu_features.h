// What the CPU we run on can execute, read once at start-up, so that one
// x86-64 binary picks AVX2 or AVX-512 kernels at run time and an arm64 binary
// picks NEON with dotprod / i8mm where present.
//
// HEARTH_CPU_ISA=scalar|avx2|avx512|neon caps the level used (tests force
// each path); asking for a level the CPU lacks falls back to the best it has.
#pragma once

#include <string>

namespace hearth::cpu {

struct CpuFeatures {
    // x86-64
    bool sse3 = false, ssse3 = false, avx = false, avx2 = false, fma = false, f16c = false;
    bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false;
    bool avx512vnni = false, avx512bf16 = false, avxvnni = false;
    // arm64
    bool neon = false, dotprod = false, i8mm = false, fp16 = false;
};

enum class Isa {
    Scalar,
    Avx2,
    Avx512,
    Neon
};

// Features of this CPU (detected once; thread-safe).
const CpuFeatures& cpuFeatures();
// The ISA level kernels use: the best the CPU has, capped by HEARTH_CPU_ISA.
Isa activeIsa();
// Re-reads HEARTH_CPU_ISA (tests set it between cases).
void refreshActiveIsa();
const char* isaName(Isa isa);
// "AVX2 FMA F16C AVX512F ..." for version and bench output.
std::string describeCpu();

} // namespace hearth::cpu
