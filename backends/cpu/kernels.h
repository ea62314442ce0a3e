// Per-type kernel tables of the CPU backend, one table per ISA level. The
// scalar table is complete and is the reference; an ISA's table starts as a
// copy of the scalar one and replaces the entries it has faster versions of
// (issue 7 adds avx2/, avx512/, neon/ files that register themselves here).
// Model code never sees these; the op executors look kernels up by type.
#pragma once

#include "cpu/cpu_features.h"
#include "quant/types.h"

#include <cstdint>

namespace hearth::cpu {

// s = Σ w[i]·a[i] over one row of n elements: w in the weight type's layout,
// a in the layout of the weight type's activation partner (vecDotType).
using VecDotFn = void (*)(int64_t n, float* s, const void* w, const void* a);
// n elements (a whole number of blocks) from / to f32.
using ToFloatFn = void (*)(const void* x, float* y, int64_t n);
using FromFloatFn = void (*)(const float* x, void* y, int64_t n);

struct TypeKernels {
    // The format activations are converted to before a dot product with
    // weights of this type, as ggml does it: Q4_0/Q5_0/Q8_0/IQ4_NL → Q8_0,
    // Q4_1/Q5_1 → Q8_1, K-quants/IQ4_XS → Q8_K, F16 → F16, BF16 → BF16.
    GgmlType vecDotType = GgmlType::F32;
    VecDotFn vecDot = nullptr;
    ToFloatFn toFloat = nullptr;     // dequantize (get_rows, reading q8_0 KV rows)
    FromFloatFn fromFloat = nullptr; // quantize (activation partners, KV rows)
};

struct KernelTable {
    TypeKernels types[kGgmlTypeIdLimit];
};

// Kernels of a type for the active ISA (cpu::activeIsa()); entries are null
// for types the backend cannot compute with.
const TypeKernels& typeKernels(GgmlType type);
// The table of one ISA level (tests compare levels against the scalar one).
const KernelTable& kernelTable(Isa isa);

// Registration, one function per kernel file.
void registerScalarFloatKernels(KernelTable& table);
void registerScalarLegacyKernels(KernelTable& table);
void registerScalarKQuantKernels(KernelTable& table);

// Whether the CPU backend can multiply with weights of this type.
bool canMultiply(GgmlType type);

} // namespace hearth::cpu
