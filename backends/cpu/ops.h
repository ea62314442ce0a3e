// The op executors of the CPU backend (internal). Each runs its share of an
// op on thread `ith` of `nth`; an op with several phases (convert the
// activations, then multiply) is called once per phase with a barrier in
// between. Work memory is one area split evenly per thread or shared, as the
// op's workBytes() asked for.
#pragma once

#include "backend/op.h"

#include <cstddef>
#include <cstdint>

namespace hearth::cpu {

struct ExecContext {
    int ith = 0;
    int nth = 1;
    uint8_t* work = nullptr; // shared work area of at least opWorkBytes() bytes
    size_t workBytes = 0;
};

// Rows [begin, end) of `n` that thread ith of nth handles.
inline void splitRange(int64_t n, int ith, int nth, int64_t& begin, int64_t& end)
{
    const int64_t per = (n + nth - 1) / nth;
    begin = per * ith;
    end = begin + per < n ? begin + per : n;
    if (begin > n)
        begin = n;
}

int opPhases(const Op& op);
size_t opWorkBytes(const Op& op, int nth);
// Whether the executor supports the op's types and shapes.
bool opSupported(const Op& op);
void runOp(const Op& op, int phase, const ExecContext& ctx);

// Per-kind executors.
void runGetRows(const Op& op, const ExecContext& ctx);
void runRmsNorm(const Op& op, const ExecContext& ctx);
void runNorm(const Op& op, const ExecContext& ctx);   // LayerNorm
void runGelu(const Op& op, const ExecContext& ctx);   // exact GELU
void runBinary(const Op& op, const ExecContext& ctx); // Add, Mul
void runUnary(const Op& op, const ExecContext& ctx);  // Scale, SoftCap
void runGlu(const Op& op, const ExecContext& ctx);    // SwiGlu, GeGlu
void runMatMul(const Op& op, int phase, const ExecContext& ctx);
size_t matMulWorkBytes(const Op& op);
void runRope(const Op& op, const ExecContext& ctx);
void runRopeShift(const Op& op, const ExecContext& ctx);
size_t ropeWorkBytes(const Op& op, int nth);
void runStoreRows(const Op& op, const ExecContext& ctx);
void runAttention(const Op& op, const ExecContext& ctx);
size_t attentionWorkBytes(const Op& op, int nth);

// Round up to a cache line so per-thread areas never share one.
inline size_t alignUp(size_t n, size_t a = 64)
{
    return (n + a - 1) / a * a;
}

} // namespace hearth::cpu
