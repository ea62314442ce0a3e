// Checks one kernel table of the CPU backend against the scalar reference
// table (plain C++, no Qt: test_simd_kernels runs it under QtTest on x86,
// simd_check_main under qemu-aarch64 for the NEON table).
//
// For each weight type, on seeded random data with edge cases (zero blocks,
// zero / subnormal / largest f16 scales, activations from 1e-6 to 1e4, n of
// one block and of many):
//   - fromFloat of the activation partner gives the reference's bytes;
//   - toFloat gives the reference's floats;
//   - vecDot equals the reference bit for bit for every quantized type, and
//     is within kFloatDotTolerance · Σ|w_i·a_i| for F32 / F16 / BF16 (the
//     reference sums those in double);
//   - gemm, where present, equals the table's own vecDot bit for bit on
//     tiles of every edge shape and on one token against more than 2 MiB
//     of weights (the streaming path of generation).
#pragma once

#include "cpu/kernels.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simdcheck {

// A kernel level as the engine can select it, or a narrower variant of one
// (AVX-512 without VNNI, NEON without dotprod) that CPUs without the
// extension run, built here from the registration functions directly.
struct Level {
    std::string name;
    bool available = false; // this CPU can run it
    std::function<hearth::cpu::KernelTable()> build;
};

// avx2, avx512, avx512-vnni, neon, neon-dotprod.
std::vector<Level> levels();

inline constexpr double kFloatDotTolerance = 1e-5;

// The weight types every SIMD level covers.
const std::vector<hearth::GgmlType>& kernelTypes();

// The dot products of `table` (every order, every type of kernelTypes())
// that are `base`'s own entries, as "TYPE.order": where a level falls back
// on the scalar kernel (base: the scalar table), or where a variant lacks
// its own copy of a kernel (neon-dotprod against neon). Empty: none.
std::vector<std::string> inheritedDots(const hearth::cpu::KernelTable& table, const hearth::cpu::KernelTable& base);

// Every check of one weight type; returns the failures (empty: all passed).
std::vector<std::string> checkType(const hearth::cpu::KernelTable& table, const hearth::cpu::KernelTable& reference,
                                   hearth::GgmlType type, uint32_t seed);

// The attention loops (AttentionKernels) against the reference, bit for
// bit: dot products of every length class, softmax numerators with masked
// cells and arguments down to exp underflow and up to overflow, axpy, the
// 16 / 64-lane reductions, and SwiGLU (ActivationKernels).
std::vector<std::string> checkAttention(const hearth::cpu::KernelTable& table,
                                        const hearth::cpu::KernelTable& reference, uint32_t seed);

} // namespace simdcheck
