// Element-wise and row-wise ops: embedding look-up, RMS norm, LayerNorm,
// add / mul, scale, soft cap, GELU and the gated activations. Each follows the float order of
// ggml's CPU ops so that results match llama.cpp's closely.
#include "cpu/kernels.h"
#include "cpu/ops.h"
#include "util/fma.h"
#include "util/half.h"

#include <array>
#include <cmath>
#include <cstring>

namespace hearth::cpu {

namespace {

// Visits every row (dims 1..3) of `t` that thread ith owns.
template <typename F>
void forRows(const Tensor& t, const ExecContext& ctx, F&& f)
{
    const int64_t rows = t.rows();
    int64_t begin, end;
    splitRange(rows, ctx.ith, ctx.nth, begin, end);
    for (int64_t r = begin; r < end; ++r) {
        const int64_t i1 = r % t.ne[1];
        const int64_t i2 = (r / t.ne[1]) % t.ne[2];
        const int64_t i3 = r / (t.ne[1] * t.ne[2]);
        f(i1, i2, i3);
    }
}

// ggml evaluates GELU through a table indexed by the f16 bits of the input
// (GGML_GELU_FP16); mirroring it keeps GeGLU models bit-exact with llama.cpp.
// Its build computes the table with 1 + 0.044715·x·x as one fused
// multiply-add (GCC contracts it); rounding it separately changes one entry
// (x = -1.999), enough to flip a Gemma greedy token now and then.
const std::array<uint16_t, 65536>& geluTable()
{
    static const auto table = [] {
        std::array<uint16_t, 65536> t{};
        constexpr float kSqrt2OverPi = 0.79788456080286535587989211986876f;
        for (uint32_t i = 0; i < 65536; ++i) {
            const float x = f16ToF32(static_cast<uint16_t>(i));
            const float g = 0.5f * x * (1.0f + std::tanh(kSqrt2OverPi * x * fusedMultiplyAdd(0.044715f * x, x, 1.0f)));
            t[i] = f32ToF16(g);
        }
        return t;
    }();
    return table;
}

inline float gelu(float x)
{
    if (x <= -10.0f)
        return 0.0f;
    if (x >= 10.0f)
        return x;
    return f16ToF32(geluTable()[f32ToF16(x)]);
}

} // namespace

void runGetRows(const Op& op, const ExecContext& ctx)
{
    const Tensor& table = op.src[0];
    const TypeKernels& k = typeKernels(table.type);
    forRows(op.dst, ctx, [&](int64_t i1, int64_t i2, int64_t i3) {
        k.toFloat(table.row(op.ids[i1 + i2 * op.dst.ne[1]]), op.dst.f32Row(i1, i2, i3), table.ne[0]);
    });
}

void runRmsNorm(const Op& op, const ExecContext& ctx)
{
    const Tensor& x = op.src[0];
    const float* w = op.src[1].data ? reinterpret_cast<const float*>(op.src[1].data) : nullptr;
    const int64_t n = x.ne[0];
    forRows(x, ctx, [&](int64_t i1, int64_t i2, int64_t i3) {
        const float* in = x.f32Row(i1, i2, i3);
        float* out = op.dst.f32Row(i1, i2, i3);
        double sum = 0.0;
        for (int64_t i = 0; i < n; ++i)
            sum += static_cast<double>(in[i] * in[i]);
        const float mean = static_cast<float>(sum / static_cast<double>(n));
        const float scale = 1.0f / std::sqrt(mean + op.scalar);
        if (w) {
            for (int64_t i = 0; i < n; ++i)
                out[i] = in[i] * scale * w[i];
        } else {
            for (int64_t i = 0; i < n; ++i)
                out[i] = in[i] * scale;
        }
    });
}

void runNorm(const Op& op, const ExecContext& ctx)
{
    const Tensor& x = op.src[0];
    const float* w = op.src[1].data ? reinterpret_cast<const float*>(op.src[1].data) : nullptr;
    const float* b = op.src[2].data ? reinterpret_cast<const float*>(op.src[2].data) : nullptr;
    const int64_t n = x.ne[0];
    forRows(x, ctx, [&](int64_t i1, int64_t i2, int64_t i3) {
        const float* in = x.f32Row(i1, i2, i3);
        float* out = op.dst.f32Row(i1, i2, i3);
        // Two passes in double: the mean, then the variance about it.
        double sum = 0.0;
        for (int64_t i = 0; i < n; ++i)
            sum += static_cast<double>(in[i]);
        const double mean = sum / static_cast<double>(n);
        double sq = 0.0;
        for (int64_t i = 0; i < n; ++i) {
            const double d = static_cast<double>(in[i]) - mean;
            sq += d * d;
        }
        const auto scale = static_cast<float>(1.0 / std::sqrt(sq / static_cast<double>(n) + op.scalar));
        const auto m = static_cast<float>(mean);
        for (int64_t i = 0; i < n; ++i) {
            float v = (in[i] - m) * scale;
            if (w)
                v *= w[i];
            if (b)
                v += b[i];
            out[i] = v;
        }
    });
}

void runGelu(const Op& op, const ExecContext& ctx)
{
    const Tensor& a = op.src[0];
    const int64_t n = a.ne[0];
    constexpr float kInvSqrt2 = 0.70710678118654752440f;
    forRows(a, ctx, [&](int64_t i1, int64_t i2, int64_t i3) {
        const float* x = a.f32Row(i1, i2, i3);
        float* out = op.dst.f32Row(i1, i2, i3);
        for (int64_t i = 0; i < n; ++i)
            out[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * kInvSqrt2));
    });
}

void runBinary(const Op& op, const ExecContext& ctx)
{
    const Tensor& a = op.src[0];
    const Tensor& b = op.src[1];
    const bool broadcast = b.rows() == 1;
    const int64_t n = a.ne[0];
    const bool add = op.kind == OpKind::Add;
    forRows(a, ctx, [&](int64_t i1, int64_t i2, int64_t i3) {
        const float* x = a.f32Row(i1, i2, i3);
        const float* y = broadcast ? b.f32Row(0) : b.f32Row(i1, i2, i3);
        float* out = op.dst.f32Row(i1, i2, i3);
        if (add) {
            for (int64_t i = 0; i < n; ++i)
                out[i] = x[i] + y[i];
        } else {
            for (int64_t i = 0; i < n; ++i)
                out[i] = x[i] * y[i];
        }
    });
}

void runUnary(const Op& op, const ExecContext& ctx)
{
    const Tensor& a = op.src[0];
    const int64_t n = a.ne[0];
    const float s = op.scalar;
    // ggml's soft cap is scale(1/cap), tanh, scale(cap): keep its rounding.
    const float inv = op.kind == OpKind::SoftCap ? 1.0f / s : 0.0f;
    forRows(a, ctx, [&](int64_t i1, int64_t i2, int64_t i3) {
        const float* x = a.f32Row(i1, i2, i3);
        float* out = op.dst.f32Row(i1, i2, i3);
        if (op.kind == OpKind::Scale) {
            for (int64_t i = 0; i < n; ++i)
                out[i] = x[i] * s;
        } else {
            for (int64_t i = 0; i < n; ++i)
                out[i] = std::tanh(x[i] * inv) * s;
        }
    });
}

void runGlu(const Op& op, const ExecContext& ctx)
{
    const Tensor& g = op.src[0];
    const Tensor& u = op.src[1];
    const int64_t n = g.ne[0];
    const bool swiglu = op.kind == OpKind::SwiGlu;
    forRows(g, ctx, [&](int64_t i1, int64_t i2, int64_t i3) {
        const float* x = g.f32Row(i1, i2, i3);
        const float* y = u.f32Row(i1, i2, i3);
        float* out = op.dst.f32Row(i1, i2, i3);
        if (swiglu) {
            // ggml's SwiGLU (vectorized exp on whole groups of 16): the
            // per-ISA kernel.
            activationKernels().swiglu(x, y, out, n);
        } else {
            for (int64_t i = 0; i < n; ++i)
                out[i] = gelu(x[i]) * y[i];
        }
    });
}

} // namespace hearth::cpu
