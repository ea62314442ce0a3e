// AVX-512 kernels for the plain number types: F32, F16 and BF16 dot
// products and gemm tiles, and the f16 conversions 16 at a time.
//
// Order (the same as avx2/ and neon/float.cpp): when n is a multiple of 16,
// one 16-lane accumulator per output, a fused multiply-add per 16 values,
// reduced like _mm512_reduce_add_ps — llama.cpp's tinyBLAS, which does its
// f32 / f16 matrix products; otherwise ggml_vec_dot_f16's layout (four
// accumulators of 16 lanes, GGML_F32x16_REDUCE, the rest in double).
#include "cpu/avx512/simd_avx512.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"

#include <type_traits>
#include <vector>

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;
using namespace avx512;

inline __m512 loadF32(const float* p)
{
    return _mm512_loadu_ps(p);
}

inline __m512 loadBf16(const uint16_t* p)
{
    const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
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

template <typename T, __m512 (*Load)(const T*), float (*Scalar)(T)>
float dot4x16(int64_t n, const T* x, const T* y)
{
    __m512 sum[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    const int64_t np = n & ~int64_t{63};
    for (int64_t i = 0; i < np; i += 64)
        for (int j = 0; j < 4; ++j)
            sum[j] = _mm512_fmadd_ps(Load(x + i + 16 * j), Load(y + i + 16 * j), sum[j]);
    sum[0] = _mm512_add_ps(sum[0], sum[2]);
    sum[1] = _mm512_add_ps(sum[1], sum[3]);
    double total = reduce16(_mm512_add_ps(sum[0], sum[1]));
    for (int64_t i = np; i < n; ++i)
        total += static_cast<double>(Scalar(x[i]) * Scalar(y[i]));
    return static_cast<float>(total);
}

struct Wide16 {
    alignas(64) float v[16];
};

// R rows × C tokens, n % 16 == 0: one 16-lane accumulator per output.
// The activations may come as they are (TA = T) or already widened to f32.
template <typename T, __m512 (*Load)(const T*), int R, int C, typename TA = T, __m512 (*LoadA)(const TA*) = Load>
void tile16(int64_t n, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    __m512 acc[R][C];
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            acc[r][c] = _mm512_setzero_ps();
    const auto row = [&](const uint8_t* base, size_t stride, int i) {
        return reinterpret_cast<const T*>(base + stride * static_cast<size_t>(i));
    };
    const auto token = [&](int c) { return reinterpret_cast<const TA*>(a + aStride * static_cast<size_t>(c)); };
    const size_t ahead = prefetchDistance(wStride, R);
    for (int64_t i = 0; i < n; i += 16) {
        __m512 x[R];
        for (int r = 0; r < R; ++r) {
            // 16 values are 32 or 64 bytes: one line ahead per step.
            _mm_prefetch(reinterpret_cast<const char*>(row(w, wStride, r) + i) + ahead, _MM_HINT_T0);
            x[r] = Load(row(w, wStride, r) + i);
        }
        for (int c = 0; c < C; ++c) {
            const __m512 y = LoadA(token(c) + i);
            for (int r = 0; r < R; ++r)
                acc[r][c] = _mm512_fmadd_ps(x[r], y, acc[r][c]);
        }
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) { return reduce16(acc[r][c]); });
}

// Tiles of 4 rows × 4 tokens when n is a multiple of 16, else vec_dot's
// order; one token row by row (one sequential stream for the hardware
// prefetcher: SmolLM2 F16 tg 1.6x on Zen 4 against four rows in lockstep).
// Load: T* → a vector of floats; Scalar: T → float.
template <typename T, auto Load, auto Scalar>
struct Tiles : TileShape<1, 4, 4, 1, 16> {
    template <int R, int C>
    static constexpr auto tile = &tile16<T, Load, R, C>;
    static float untiled(int64_t n, const void* w, const void* a)
    {
        return dot4x16<T, Load, Scalar>(n, static_cast<const T*>(w), static_cast<const T*>(a));
    }
};

// Batches of F16 / BF16 (n a multiple of 16, 6 tokens or more) widen the
// activations to f32 once (exact) so that tiles of 4 rows × 6 tokens
// convert only the weights; the rest goes through Tiles.
template <typename T, __m512 (*Load)(const T*), float (*Scalar)(T)>
void gemm(int64_t n, float* s, size_t sStride, const void* w, size_t wStride, const void* a, size_t aStride,
          int64_t rows, int64_t tokens)
{
    const TileGrid g{s,    sStride, static_cast<const uint8_t*>(w), wStride, static_cast<const uint8_t*>(a), aStride,
                     rows, tokens};
    if constexpr (!std::is_same_v<T, float>) {
        if (n % 16 == 0 && tokens >= 6) {
            // A vector of a type of this file's own: no std::vector<float>
            // code compiled with AVX-512 can leak to other files.
            thread_local std::vector<Wide16> wide;
            wide.resize(static_cast<size_t>(tokens * n / 16));
            for (int64_t t = 0; t < tokens; ++t)
                for (int64_t i = 0; i < n; i += 16)
                    _mm512_storeu_ps(wide[static_cast<size_t>((t * n + i) / 16)].v,
                                     Load(reinterpret_cast<const T*>(g.a + aStride * static_cast<size_t>(t)) + i));
            const size_t waStride = static_cast<size_t>(n) * sizeof(float);
            const TileGrid wg{s,        sStride, g.w,   wStride, reinterpret_cast<const uint8_t*>(wide.data()),
                              waStride, rows,    tokens};
            walkTiles<4, 6>(wg, [&]<int R, int C>(float* out, const uint8_t* wr, const uint8_t* at) {
                tile16<T, Load, R, C, float, loadF32>(n, out, sStride, wr, wStride, at, waStride);
            });
            return;
        }
    }
    gemmTiles<Tiles<T, Load, Scalar>>(n, g);
}

void f16ToFloat(const void* xv, float* y, int64_t n)
{
    const auto* x = static_cast<const uint16_t*>(xv);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_ps(y + i, loadF16(x + i));
    for (; i < n; ++i)
        y[i] = halfToFloat(x[i]);
}

void floatToF16(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<uint16_t*>(yv);
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(y + i),
                            _mm512_cvtps_ph(_mm512_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; ++i)
        y[i] = floatToHalf(x[i]);
}

} // namespace

void registerAvx512FloatKernels(KernelTable& t)
{
    TypeKernels& f32 = t.types[static_cast<uint32_t>(GgmlType::F32)];
    f32.vecDot = tiledDot<Tiles<float, loadF32, scalarF32>>;
    f32.gemm = gemm<float, loadF32, scalarF32>;
    TypeKernels& f16 = t.types[static_cast<uint32_t>(GgmlType::F16)];
    f16.vecDot = tiledDot<Tiles<uint16_t, loadF16, halfToFloat>>;
    f16.gemm = gemm<uint16_t, loadF16, halfToFloat>;
    f16.toFloat = f16ToFloat;
    f16.fromFloat = floatToF16;
    TypeKernels& bf16 = t.types[static_cast<uint32_t>(GgmlType::BF16)];
    bf16.vecDot = tiledDot<Tiles<uint16_t, loadBf16, bf16Scalar>>;
    bf16.gemm = gemm<uint16_t, loadBf16, bf16Scalar>;
}

#else

void registerAvx512FloatKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
