#include "cpu/cpu_features.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#define HEARTH_X86 1
#ifdef _MSC_VER
#include <intrin.h>
#else
#include <cpuid.h>
#endif
#endif

#if defined(__aarch64__) && defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace hearth::cpu {

namespace {

#ifdef HEARTH_X86
void cpuid(unsigned leaf, unsigned sub, unsigned r[4])
{
#ifdef _MSC_VER
    int regs[4];
    __cpuidex(regs, static_cast<int>(leaf), static_cast<int>(sub));
    for (int i = 0; i < 4; ++i)
        r[i] = static_cast<unsigned>(regs[i]);
#else
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
#endif
}

unsigned long long xgetbv0()
{
#ifdef _MSC_VER
    return _xgetbv(0);
#else
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (static_cast<unsigned long long>(hi) << 32) | lo;
#endif
}

CpuFeatures detect()
{
    CpuFeatures f;
    unsigned r[4];
    cpuid(0, 0, r);
    const unsigned maxLeaf = r[0];
    cpuid(1, 0, r);
    const bool osxsave = (r[2] >> 27) & 1;
    f.sse3 = r[2] & 1;
    f.ssse3 = (r[2] >> 9) & 1;
    f.fma = (r[2] >> 12) & 1;
    f.f16c = (r[2] >> 29) & 1;
    const bool avxHw = (r[2] >> 28) & 1;
    // The OS must save the YMM (and for AVX-512, ZMM/opmask) state.
    const unsigned long long xcr0 = osxsave ? xgetbv0() : 0;
    const bool ymmOs = (xcr0 & 0x6) == 0x6;
    const bool zmmOs = (xcr0 & 0xe6) == 0xe6;
    f.avx = avxHw && ymmOs;
    if (!f.avx)
        f.fma = f.f16c = false;
    if (maxLeaf >= 7) {
        cpuid(7, 0, r);
        f.avx2 = f.avx && ((r[1] >> 5) & 1);
        if (zmmOs) {
            f.avx512f = (r[1] >> 16) & 1;
            f.avx512dq = (r[1] >> 17) & 1;
            f.avx512bw = (r[1] >> 30) & 1;
            f.avx512vl = (r[1] >> 31) & 1;
            f.avx512vnni = (r[2] >> 11) & 1;
        }
        cpuid(7, 1, r);
        f.avxvnni = f.avx && ((r[0] >> 4) & 1);
        f.avx512bf16 = zmmOs && ((r[0] >> 5) & 1);
    }
    return f;
}
#elif defined(__aarch64__) || defined(_M_ARM64)
CpuFeatures detect()
{
    CpuFeatures f;
    f.neon = true; // mandatory on arm64
#if defined(__linux__)
    const unsigned long hw = getauxval(AT_HWCAP);
    const unsigned long hw2 = getauxval(AT_HWCAP2);
    f.dotprod = hw & HWCAP_ASIMDDP;
    f.fp16 = hw & HWCAP_FPHP;
#ifdef HWCAP2_I8MM
    f.i8mm = hw2 & HWCAP2_I8MM;
#else
    (void)hw2;
#endif
#elif defined(__APPLE__)
    f.dotprod = true; // every Apple arm64 chip has dotprod and fp16
    f.fp16 = true;
#endif
    return f;
}
#else
CpuFeatures detect()
{
    return {};
}
#endif

Isa bestIsa(const CpuFeatures& f)
{
    if (f.avx512f && f.avx512bw && f.avx512vl && f.avx512dq && f.fma && f.f16c)
        return Isa::Avx512;
    if (f.avx2 && f.fma && f.f16c)
        return Isa::Avx2;
    if (f.neon)
        return Isa::Neon;
    return Isa::Scalar;
}

Isa cappedIsa()
{
    const Isa best = bestIsa(cpuFeatures());
    const char* env = std::getenv("HEARTH_CPU_ISA");
    if (!env || !*env)
        return best;
    Isa wanted = best;
    if (std::strcmp(env, "scalar") == 0)
        wanted = Isa::Scalar;
    else if (std::strcmp(env, "avx2") == 0)
        wanted = Isa::Avx2;
    else if (std::strcmp(env, "avx512") == 0)
        wanted = Isa::Avx512;
    else if (std::strcmp(env, "neon") == 0)
        wanted = Isa::Neon;
    if (wanted == Isa::Scalar)
        return Isa::Scalar;
    // x86 levels are ordered; a level the CPU lacks falls back to the best.
    if (best == Isa::Avx512 && wanted == Isa::Avx2)
        return Isa::Avx2;
    return best;
}

std::atomic<int>& activeSlot()
{
    static std::atomic<int> slot{static_cast<int>(cappedIsa())};
    return slot;
}

} // namespace

const CpuFeatures& cpuFeatures()
{
    static const CpuFeatures features = detect();
    return features;
}

Isa activeIsa()
{
    return static_cast<Isa>(activeSlot().load(std::memory_order_relaxed));
}

void refreshActiveIsa()
{
    activeSlot().store(static_cast<int>(cappedIsa()), std::memory_order_relaxed);
}

const char* isaName(Isa isa)
{
    switch (isa) {
    case Isa::Scalar: return "scalar";
    case Isa::Avx2: return "avx2";
    case Isa::Avx512: return "avx512";
    case Isa::Neon: return "neon";
    }
    return "?";
}

std::string describeCpu()
{
    const CpuFeatures& f = cpuFeatures();
    std::string s;
    const auto add = [&](bool on, const char* name) {
        if (on) {
            if (!s.empty())
                s += ' ';
            s += name;
        }
    };
    add(f.avx, "AVX");
    add(f.avx2, "AVX2");
    add(f.fma, "FMA");
    add(f.f16c, "F16C");
    add(f.avxvnni, "AVX_VNNI");
    add(f.avx512f, "AVX512F");
    add(f.avx512bw, "AVX512BW");
    add(f.avx512vnni, "AVX512_VNNI");
    add(f.avx512bf16, "AVX512_BF16");
    add(f.neon, "NEON");
    add(f.dotprod, "DOTPROD");
    add(f.i8mm, "I8MM");
    add(f.fp16, "FP16");
    return s.empty() ? "none" : s;
}

} // namespace hearth::cpu
