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
    VecDotFn vecDot = nullptr;       // in the order of ggml's vec_dot kernels
    ToFloatFn toFloat = nullptr;     // dequantize (get_rows, reading q8_0 KV rows)
    FromFloatFn fromFloat = nullptr; // quantize (activation partners, KV rows)
    // The same dot product in the orders of llama.cpp's other x86 kernels
    // for this type (matMulDot() picks one per token of a multiplication);
    // null where it has no such kernel or where its order equals vec_dot's:
    // tinyBLAS (llamafile_sgemm, 2 tokens or more), the tiled K-quant kernel
    // (8 tokens or more), and the GEMV / GEMM kernels of repacked weights.
    VecDotFn vecDotSgemm = nullptr;
    VecDotFn vecDotTiled = nullptr;
    VecDotFn vecDotRepacked = nullptr;     // GEMV: one token
    VecDotFn vecDotRepackedGemm = nullptr; // GEMM: each of four tokens (null: as GEMV)
};

struct KernelTable {
    TypeKernels types[kGgmlTypeIdLimit];
};

// Which of llama.cpp's x86 kernels computes token `token` of a matrix
// multiplication of `tokens` tokens by weights with `rows` rows, chosen as
// ggml-cpu chooses (thread counts play no part):
//   RepackedGemv/Gemm  weights of a type ggml interleaves at load (Q4_0,
//       Q4_K, IQ4_NL; Q2_K as on the AVX-512 machines the references come
//       from) with a multiple of 8 rows: GEMM for the tokens in whole groups
//       of four from the start of the batch, GEMV for the rest;
//   Tiled   other K-quant / IQ4_XS weights, batches of 8 tokens or more;
//   Sgemm   other types with a tinyBLAS kernel, batches of 2 or more;
//   VecDot  everything else.
enum class MatMulOrder : uint8_t {
    VecDot,
    Sgemm,
    Tiled,
    RepackedGemv,
    RepackedGemm
};
inline constexpr int64_t kSgemmMinTokens = 2;
inline constexpr int64_t kTiledMinTokens = 8;
inline constexpr int64_t kRepackRowMultiple = 8;
inline constexpr int64_t kGemmTokenGroup = 4;
MatMulOrder matMulOrder(GgmlType weightType, int64_t rows, int64_t tokens, int64_t token);
// The dot product of that order for the active ISA.
VecDotFn matMulDot(GgmlType weightType, int64_t rows, int64_t tokens, int64_t token);

// Kernels of a type for the active ISA (cpu::activeIsa()); entries are null
// for types the backend cannot compute with.
const TypeKernels& typeKernels(GgmlType type);
// The table of one ISA level (tests compare levels against the scalar one).
const KernelTable& kernelTable(Isa isa);

// Registration, one function per kernel file.
void registerScalarFloatKernels(KernelTable& table);
void registerScalarLegacyKernels(KernelTable& table);
void registerScalarKQuantKernels(KernelTable& table);
void registerScalarRepackedKernels(KernelTable& table);
void registerScalarTiledKernels(KernelTable& table);

// Whether the CPU backend can multiply with weights of this type.
bool canMultiply(GgmlType type);

} // namespace hearth::cpu
