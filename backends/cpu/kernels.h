// Per-type kernel tables of the CPU backend, one table per ISA level. The
// scalar table is complete and is the reference; an ISA's table starts as a
// copy of the scalar one and replaces the entries it has faster versions of
// (avx2/, avx512/, neon/: one file per type family, compiled with that ISA's
// flags only and registered here after run-time detection).
// Model code never sees these; the op executors look kernels up by type.
//
// Numerics: a SIMD vecDot sums in the same lanes and order as the scalar
// one (which follows llama.cpp's x86 kernels), so its results are equal bit
// for bit; tests/backends/test_simd_kernels checks every entry of every
// level against the scalar table and states where equality is not promised.
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
// A tile of dot products, weight rows × tokens, reusing each loaded weight
// block for several tokens (prompt processing) and each activation block for
// several rows. Row r (< rows) starts at w + r·wStride bytes, token t
// (< tokens) at a + t·aStride bytes (activation partner layout); the result
// goes to s[t·sStride + r] (floats). Every result equals the dot product of
// the same order (TypeKernels) bit for bit.
using GemmFn = void (*)(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a,
                        size_t aStride, int64_t rows, int64_t tokens);

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
    // Tiles (GemmFn) of the same orders, where the level has one: each
    // result equals the dot product of its order bit for bit.
    GemmFn gemm = nullptr; // vec_dot's order
    GemmFn gemmSgemm = nullptr;
    GemmFn gemmTiled = nullptr;
    GemmFn gemmRepacked = nullptr;
    GemmFn gemmRepackedGemm = nullptr;
};

// The inner loops of attention (ops_attention.cpp) in the lane orders of
// llama.cpp's x86 kernels, so that every level gives the same bits.
struct AttentionKernels {
    // Σ k·q over n f16 values (n % 16 == 0) in 16 lanes of fused
    // multiply-adds, reduced like _mm512_reduce_add_ps (tinyBLAS's order,
    // a batch of queries).
    float (*dotF16x16)(const uint16_t* k, const uint16_t* q, int64_t n) = nullptr;
    // The same in ggml_vec_dot_f16's order: four 16-lane accumulators over
    // whole steps of 64, the rest added in double (a single query).
    float (*dotF16x64)(const uint16_t* k, const uint16_t* q, int64_t n) = nullptr;
    // Softmax numerators in place: s[i] = 0 where s[i] is -inf (masked),
    // else ggml's vectorized exp(s[i] - max). Returns their sum taken in
    // chunks of 16 (each reduced like _mm512_reduce_add_ps) added in double.
    double (*softmaxExp)(float* s, int64_t n, float max) = nullptr;
    // acc[i] = fma(v[i], p, acc[i]) for i < n, with v in f16 or f32.
    void (*axpyF16)(float* acc, const uint16_t* v, float p, int64_t n) = nullptr;
    void (*axpyF32)(float* acc, const float* v, float p, int64_t n) = nullptr;
    // out[i] = Σ over `lanes` (16 or 64) rows acc[l·n + i], in the order of
    // _mm512_reduce_add_ps (16) or GGML_F32x16_REDUCE then it (64).
    void (*reduceLanes)(const float* acc, int lanes, int64_t n, float* out) = nullptr;
    // Batched forms for several query heads sharing one KV head (GQA), each
    // K / V row loaded once for all of them. Cell j of a list is
    // cells[j]; its K / V row starts at k / v + cells[j]·stride (f16 values).
    // scoresF16x16: s[g·sStride + cells[j]] = dotF16x16(k row, q + g·qStride,
    // n) for g < nq, j < count, bit for bit (n % 16 == 0).
    void (*scoresF16x16)(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells,
                         int64_t count, const uint16_t* q, size_t qStride, int nq, int64_t n) = nullptr;
    // pvF16 (lanes 16 or 64, cells >= 0): for j < count in list order, for
    // g < nq: row = acc + g·accStride + (cells[j] % lanes)·n, then axpyF16(row, v row, w[g·wStride + j], n),
    // except where that weight is -0.0 (bit pattern): that pair is skipped.
    // Equal bit for bit to those axpyF16 calls in that order; a list sorted
    // by lane (cells ascending within a lane) lets a lane stay in registers.
    void (*pvF16)(float* acc, size_t accStride, int lanes, const uint16_t* v, size_t vStride, const int32_t* cells,
                  int64_t count, const float* w, size_t wStride, int nq, int64_t n) = nullptr;
    // scoresF16x64: the same as scoresF16x16 with dotF16x64 (a single
    // query's order), any n.
    void (*scoresF16x64)(float* s, size_t sStride, const uint16_t* k, size_t kStride, const int32_t* cells,
                         int64_t count, const uint16_t* q, size_t qStride, int nq, int64_t n) = nullptr;
};

// Element-wise activations (ops_basic.cpp), in llama.cpp's x86 order.
struct ActivationKernels {
    // out[i] = silu(x[i]) · y[i], silu(x) = x / (1 + exp(-x)) with ggml's
    // vectorized exp on whole groups of 16 and libm's expf on the rest (as
    // ggml's SwiGLU does).
    void (*swiglu)(const float* x, const float* y, float* out, int64_t n) = nullptr;
};

struct KernelTable {
    TypeKernels types[kGgmlTypeIdLimit];
    AttentionKernels attention;   // registered with the attention kernels,
    ActivationKernels activation; // which share ggml's exp
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
// Each order's entries in TypeKernels, indexed by MatMulOrder.
struct MatMulOrderEntries {
    const char* name; // the dot product's field name
    VecDotFn TypeKernels::*dot;
    GemmFn TypeKernels::*gemm;
};
inline constexpr MatMulOrderEntries kMatMulOrders[] = {
    {"vecDot", &TypeKernels::vecDot, &TypeKernels::gemm},
    {"vecDotSgemm", &TypeKernels::vecDotSgemm, &TypeKernels::gemmSgemm},
    {"vecDotTiled", &TypeKernels::vecDotTiled, &TypeKernels::gemmTiled},
    {"vecDotRepacked", &TypeKernels::vecDotRepacked, &TypeKernels::gemmRepacked},
    {"vecDotRepackedGemm", &TypeKernels::vecDotRepackedGemm, &TypeKernels::gemmRepackedGemm},
};
inline constexpr int64_t kSgemmMinTokens = 2;
inline constexpr int64_t kTiledMinTokens = 8;
inline constexpr int64_t kRepackRowMultiple = 8;
inline constexpr int64_t kGemmTokenGroup = 4;
MatMulOrder matMulOrder(GgmlType weightType, int64_t rows, int64_t tokens, int64_t token);
// The dot product of that order for the active ISA.
VecDotFn matMulDot(GgmlType weightType, int64_t rows, int64_t tokens, int64_t token);
// The active ISA's tile kernel for an order, or null where it has none (the
// caller then takes matMulDot token by token).
GemmFn matMulGemm(GgmlType weightType, MatMulOrder order);

// Kernels of a type for the active ISA (cpu::activeIsa()); entries are null
// for types the backend cannot compute with.
const TypeKernels& typeKernels(GgmlType type);
// Attention loops and activations for the active ISA.
const AttentionKernels& attentionKernels();
const ActivationKernels& activationKernels();
// The table of one ISA level (tests compare levels against the scalar one);
// a level this CPU cannot run gets the scalar table.
const KernelTable& kernelTable(Isa isa);
// Whether this CPU can run the kernels of a level.
bool isaAvailable(Isa isa);

// Registration, one function per kernel file.
void registerScalarFloatKernels(KernelTable& table);
void registerScalarLegacyKernels(KernelTable& table);
void registerScalarKQuantKernels(KernelTable& table);
void registerScalarRepackedKernels(KernelTable& table);
void registerScalarTiledKernels(KernelTable& table);
void registerScalarAttentionKernels(KernelTable& table);
// x86-64: AVX2 (+FMA, F16C); AVX-512 F/BW/VL/DQ on top of AVX2, with VNNI
// entries where the CPU has them. arm64: NEON, with dotprod where present.
// Each is a no-op on the other architecture.
void registerAvx2FloatKernels(KernelTable& table);
void registerAvx2LegacyKernels(KernelTable& table);
void registerAvx2KQuantKernels(KernelTable& table);
void registerAvx2AttentionKernels(KernelTable& table);
void registerAvx2RepackedKernels(KernelTable& table);
void registerAvx2RepackedKQuantKernels(KernelTable& table);
void registerAvx512FloatKernels(KernelTable& table);
void registerAvx512LegacyKernels(KernelTable& table);
void registerAvx512KQuantKernels(KernelTable& table);
void registerAvx512AttentionKernels(KernelTable& table);
void registerAvx512VnniLegacyKernels(KernelTable& table);
void registerAvx512VnniLegacyTokenKernels(KernelTable& table); // after the line above
void registerAvx512VnniKQuantKernels(KernelTable& table);
void registerAvx512VnniRepackedKernels(KernelTable& table);
void registerAvx512VnniRepackedGemvKernels(KernelTable& table);
void registerNeonFloatKernels(KernelTable& table);
void registerNeonLegacyKernels(KernelTable& table);
void registerNeonKQuantKernels(KernelTable& table);
void registerNeonAttentionKernels(KernelTable& table);
void registerNeonRepackedKernels(KernelTable& table);
void registerNeonRepackedKQuantKernels(KernelTable& table);
// The same files compiled again with dotprod (neon/*_dotprod.cpp), after
// the lines above.
void registerNeonDotprodLegacyKernels(KernelTable& table);
void registerNeonDotprodKQuantKernels(KernelTable& table);
void registerNeonDotprodRepackedKernels(KernelTable& table);
void registerNeonDotprodRepackedKQuantKernels(KernelTable& table);

// Whether the CPU backend can multiply with weights of this type.
bool canMultiply(GgmlType type);

} // namespace hearth::cpu
