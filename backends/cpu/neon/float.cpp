// NEON kernels for the plain number types: F32, F16 and BF16 dot products
// and gemm tiles in the sums of avx512/float.cpp (16-lane accumulators held
// in four quads: one per output when n is a multiple of 16, as llama.cpp's
// tinyBLAS, else ggml_vec_dot_f16's four), and the f16 / bf16 conversions.
#include "cpu/kernels.h"
#include "cpu/tiles.h"

#include "cpu/neon/simd_neon.h"

namespace hearth::cpu {

#if defined(__aarch64__) || defined(_M_ARM64)

namespace {

using namespace neon;

struct F32x16 {
    float32x4_t q[4];
};

inline float32x4_t loadF32(const float* p)
{
    return vld1q_f32(p);
}

inline float32x4_t loadF16(const uint16_t* p)
{
    return vcvt_f32_f16(vreinterpret_f16_u16(vld1_u16(p)));
}

inline float32x4_t loadBf16(const uint16_t* p)
{
    return vreinterpretq_f32_u32(vshll_n_u16(vld1_u16(p), 16));
}

inline float scalarF32(float v)
{
    return v;
}

inline float bf16Scalar(uint16_t h)
{
    const uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline F32x16 add(F32x16 a, const F32x16& b)
{
    for (int i = 0; i < 4; ++i)
        a.q[i] = vaddq_f32(a.q[i], b.q[i]);
    return a;
}

// _mm512_reduce_add_ps's order: lanes 8..15 + 0..7, then hsum8.
inline float reduce16(const F32x16& v)
{
    return hsum8({vaddq_f32(v.q[2], v.q[0]), vaddq_f32(v.q[3], v.q[1])});
}

template <typename T, float32x4_t (*Load)(const T*), float (*Scalar)(T)>
float dot4x16(int64_t n, const T* x, const T* y)
{
    F32x16 sum[4];
    for (auto& s : sum)
        for (auto& q : s.q)
            q = vdupq_n_f32(0.0f);
    const int64_t np = n & ~int64_t{63};
    for (int64_t i = 0; i < np; i += 64)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) {
                const int64_t at = i + 16 * j + 4 * k;
                sum[j].q[k] = vfmaq_f32(sum[j].q[k], Load(x + at), Load(y + at));
            }
    double total = reduce16(add(add(sum[0], sum[2]), add(sum[1], sum[3])));
    for (int64_t i = np; i < n; ++i)
        total += static_cast<double>(Scalar(x[i]) * Scalar(y[i]));
    return static_cast<float>(total);
}

// R rows × C tokens, n % 16 == 0: one 16-lane accumulator per output.
template <typename T, float32x4_t (*Load)(const T*), int R, int C>
void tile16(int64_t n, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    const auto row = [&](const uint8_t* base, size_t stride, int i) {
        return reinterpret_cast<const T*>(base + stride * static_cast<size_t>(i));
    };
    F32x16 acc[R][C];
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            for (auto& q : acc[r][c].q)
                q = vdupq_n_f32(0.0f);
    for (int64_t i = 0; i < n; i += 16) {
        for (int k = 0; k < 4; ++k) {
            float32x4_t x[R];
            for (int r = 0; r < R; ++r)
                x[r] = Load(row(w, wStride, r) + i + 4 * k);
            for (int c = 0; c < C; ++c) {
                const float32x4_t y = Load(row(a, aStride, c) + i + 4 * k);
                for (int r = 0; r < R; ++r)
                    acc[r][c].q[k] = vfmaq_f32(acc[r][c].q[k], x[r], y);
            }
        }
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) { return reduce16(acc[r][c]); });
}

// Tiles of 2 rows × 2 tokens (16 quads of accumulators) when n is a
// multiple of 16, else vec_dot's order.
// Load: T* → a vector of floats; Scalar: T → float.
template <typename T, auto Load, auto Scalar>
struct Tiles : TileShape<1, 2, 2, 2, 16> {
    template <int R, int C>
    static constexpr auto tile = &tile16<T, Load, R, C>;
    static float untiled(int64_t n, const void* w, const void* a)
    {
        return dot4x16<T, Load, Scalar>(n, static_cast<const T*>(w), static_cast<const T*>(a));
    }
};

void f16ToFloat(const void* xv, float* y, int64_t n)
{
    const auto* x = static_cast<const uint16_t*>(xv);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        vst1q_f32(y + i, loadF16(x + i));
    for (; i < n; ++i)
        y[i] = halfToFloat(x[i]);
}

// FCVTN rounds to nearest even (the default FPCR mode) like util/half.h.
void floatToF16(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<uint16_t*>(yv);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        vst1_u16(y + i, vreinterpret_u16_f16(vcvt_f16_f32(vld1q_f32(x + i))));
    for (; i < n; ++i) {
        uint16_t h;
        vst1_lane_u16(&h, vreinterpret_u16_f16(vcvt_f16_f32(vdupq_n_f32(x[i]))), 0);
        y[i] = h;
    }
}

void bf16ToFloat(const void* xv, float* y, int64_t n)
{
    const auto* x = static_cast<const uint16_t*>(xv);
    int64_t i = 0;
    for (; i + 4 <= n; i += 4)
        vst1q_f32(y + i, loadBf16(x + i));
    for (; i < n; ++i)
        y[i] = bf16Scalar(x[i]);
}

} // namespace

void registerNeonFloatKernels(KernelTable& t)
{
    TypeKernels& f32 = t.types[static_cast<uint32_t>(GgmlType::F32)];
    f32.vecDot = tiledDot<Tiles<float, loadF32, scalarF32>>;
    f32.gemm = tiledGemm<Tiles<float, loadF32, scalarF32>>;
    TypeKernels& f16 = t.types[static_cast<uint32_t>(GgmlType::F16)];
    f16.vecDot = tiledDot<Tiles<uint16_t, loadF16, halfToFloat>>;
    f16.gemm = tiledGemm<Tiles<uint16_t, loadF16, halfToFloat>>;
    f16.toFloat = f16ToFloat;
    f16.fromFloat = floatToF16;
    TypeKernels& bf16 = t.types[static_cast<uint32_t>(GgmlType::BF16)];
    bf16.vecDot = tiledDot<Tiles<uint16_t, loadBf16, bf16Scalar>>;
    bf16.gemm = tiledGemm<Tiles<uint16_t, loadBf16, bf16Scalar>>;
    bf16.toFloat = bf16ToFloat;
}

#else

void registerNeonFloatKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
