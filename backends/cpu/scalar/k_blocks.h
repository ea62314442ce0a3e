// Integer view of one 256-element super-block of the K-quant formats and
// IQ4_XS, shared by the scalar kernels of the three summation orders of
// llama.cpp's x86 build (internal to the CPU backend):
//
//   vec_dot  (k_quants.cpp) one token, and batches below 8: eight 32-bit
//            lanes per super-block, lane l holding the elements e with
//            (e % 32) / 4 == l (its AVX2 maddubs / madd layout), each lane
//            scaled with a fused multiply-add and reduced by hsum_float_8;
//   tiled    (tiled.cpp) batches of 8 tokens or more: the whole super-block
//            as one exact integer, scaled and added in f32 block by block;
//   repacked (repack.cpp) Q2_K / Q4_K weights that llama.cpp interleaves
//            at load: one integer per super-block for the scales and one
//            for the mins, each scaled into its own accumulator.
//
// Integer sums are exact in any order, so only the float steps matter; the
// unpacking here decides nothing about them.
#pragma once

#include "quant/iq4.h"
#include "quant/k_quants.h"

#include <cstdint>

namespace hearth::cpu::kq {

// One super-block as the kernels multiply it. q holds the quants the way
// ggml's x86 kernels feed them to the integer dot products: unsigned for
// Q2_K, Q4_K, Q5_K and Q6_K (0..63, whose signed value is q - 32), signed
// for Q3_K and IQ4_XS. scale/min are the integer factors of each group of 16
// elements (formats with sub-blocks of 32 repeat them).
struct Unpacked {
    int8_t q[QK_K];
    int16_t scale[QK_K / 16];
    int16_t min[QK_K / 16];
};

void unpack(const BlockQ2_K& b, Unpacked& u);
void unpack(const BlockQ3_K& b, Unpacked& u);
void unpack(const BlockQ4_K& b, Unpacked& u);
void unpack(const BlockQ5_K& b, Unpacked& u);
void unpack(const BlockQ6_K& b, Unpacked& u);
void unpack(const BlockIQ4_XS& b, Unpacked& u);

// Σ scale·(q - bias)·a over the super-block (bias: 32 for Q6_K, else 0).
int32_t scaledSum(const Unpacked& u, const int8_t* a, int bias = 0);
// Σ min·bsum over the super-block's groups of 16.
int32_t minSum(const Unpacked& u, const int16_t* bsums);
// The vec_dot lanes: lane[l] = Σ scale·q·a over e with (e % 32) / 4 == l.
void lanes8(const Unpacked& u, const int8_t* a, int32_t* lane);

} // namespace hearth::cpu::kq
