// AVX2 kernels for the plain number types: F32, F16 (F16C) and BF16 dot
// products and gemm tiles, and the f16 / bf16 row conversions.
//
// The sums are avx512/float.cpp's, 16-lane accumulators emulated with ymm
// registers: for n a multiple of 16 one 16-lane accumulator per output
// (tinyBLAS's order), else ggml_vec_dot_f16's four. Conversions are exact:
// F16C rounds to nearest even like util/half.h, bf16 rounds in integers.
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

// 16 lanes as two halves.
struct Acc16 {
    __m256 lo, hi;
};

// _mm512_reduce_add_ps's order on 16 lanes: (hi + lo) then hsum8.
float reduce16(Acc16 a)
{
    return hsum8(_mm256_add_ps(a.hi, a.lo));
}

// sum[0..3] → one value as GGML_F32x16_REDUCE: (s0 + s2) + (s1 + s3).
float reduce4x16(Acc16* s)
{
    for (int i = 0; i < 2; ++i) {
        s[i].lo = _mm256_add_ps(s[i].lo, s[i + 2].lo);
        s[i].hi = _mm256_add_ps(s[i].hi, s[i + 2].hi);
    }
    s[0].lo = _mm256_add_ps(s[0].lo, s[1].lo);
    s[0].hi = _mm256_add_ps(s[0].hi, s[1].hi);
    return reduce16(s[0]);
}

inline __m256 loadF16(const uint16_t* p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
}

inline __m256 loadBf16(const uint16_t* p)
{
    const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}

inline float bf16Scalar(uint16_t h)
{
    const uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// Σ x·y over n elements: whole groups of 64 in four 16-lane accumulators,
// the rest one by one in double after the reduction.
template <typename T, __m256 (*Load)(const T*), float (*Scalar)(T)>
float dot4x16(int64_t n, const T* x, const T* y)
{
    Acc16 sum[4];
    for (auto& s : sum)
        s = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    const int64_t np = n & ~int64_t{63};
    for (int64_t i = 0; i < np; i += 64) {
        for (int j = 0; j < 4; ++j) {
            const T* px = x + i + 16 * j;
            const T* py = y + i + 16 * j;
            sum[j].lo = _mm256_fmadd_ps(Load(px), Load(py), sum[j].lo);
            sum[j].hi = _mm256_fmadd_ps(Load(px + 8), Load(py + 8), sum[j].hi);
        }
    }
    double total = reduce4x16(sum);
    for (int64_t i = np; i < n; ++i)
        total += static_cast<double>(Scalar(x[i]) * Scalar(y[i]));
    return static_cast<float>(total);
}

__m256 loadF32(const float* p)
{
    return _mm256_loadu_ps(p);
}

float scalarF32(float v)
{
    return v;
}

// R rows × C tokens, n % 16 == 0: one 16-lane accumulator per output, run
// as two passes over the 8-lane halves (each lane still sums its values in
// order), so that a tile's accumulators fit the 16 ymm registers.
template <typename T, __m256 (*Load)(const T*), int R, int C>
void tile16(int64_t n, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    const auto row = [&](const uint8_t* base, size_t stride, int i) {
        return reinterpret_cast<const T*>(base + stride * static_cast<size_t>(i));
    };
    const size_t ahead = prefetchDistance(wStride, R);
    __m256 half[2][R][C];
    for (int h = 0; h < 2; ++h) {
        __m256 acc[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                acc[r][c] = _mm256_setzero_ps();
        for (int64_t i = 8 * h; i < n; i += 16) {
            __m256 x[R];
            for (int r = 0; r < R; ++r) {
                _mm_prefetch(reinterpret_cast<const char*>(row(w, wStride, r) + i) + ahead, _MM_HINT_T0);
                x[r] = Load(row(w, wStride, r) + i);
            }
            for (int c = 0; c < C; ++c) {
                const __m256 y = Load(row(a, aStride, c) + i);
                for (int r = 0; r < R; ++r)
                    acc[r][c] = _mm256_fmadd_ps(x[r], y, acc[r][c]);
            }
        }
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                half[h][r][c] = acc[r][c];
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) { return reduce16({half[0][r][c], half[1][r][c]}); });
}

// Tiles of 2 rows × 4 tokens when n is a multiple of 16, else vec_dot's
// order; one token row by row (one sequential stream for the hardware
// prefetcher: SmolLM2 F16 tg 1.25x on Zen 4 against two rows in lockstep).
// Load: T* → a vector of floats; Scalar: T → float.
template <typename T, auto Load, auto Scalar>
struct Tiles : TileShape<1, 2, 4, 1, 16> {
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
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, loadF16(x + i));
    for (; i < n; ++i)
        y[i] = halfToFloat(x[i]);
}

void floatToF16(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<uint16_t*>(yv);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i),
                         _mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT));
    for (; i < n; ++i)
        y[i] = floatToHalf(x[i]);
}

void bf16ToFloat(const void* xv, float* y, int64_t n)
{
    const auto* x = static_cast<const uint16_t*>(xv);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(y + i, loadBf16(x + i));
    for (; i < n; ++i)
        y[i] = bf16Scalar(x[i]);
}

// Round to nearest even on the top 16 bits; NaNs stay NaN and become quiet
// (util/half.h's f32ToBf16).
__m256i bf16Round(__m256i x)
{
    const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
    const __m256i rounded =
        _mm256_srli_epi32(_mm256_add_epi32(x, _mm256_add_epi32(lsb, _mm256_set1_epi32(0x7fff))), 16);
    const __m256i absx = _mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff));
    const __m256i isNan = _mm256_cmpgt_epi32(absx, _mm256_set1_epi32(0x7f800000));
    const __m256i quiet = _mm256_or_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(64));
    return _mm256_blendv_epi8(rounded, quiet, isNan);
}

void floatToBf16(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<uint16_t*>(yv);
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256i r = bf16Round(_mm256_castps_si256(_mm256_loadu_ps(x + i)));
        // Each value is < 2^16: pack the eight u32 to u16 in order.
        const __m128i packed = _mm_packus_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), packed);
    }
    for (; i < n; ++i) {
        uint32_t bits;
        std::memcpy(&bits, x + i, sizeof bits);
        if ((bits & 0x7fffffffu) > 0x7f800000u)
            y[i] = static_cast<uint16_t>((bits >> 16) | 64u);
        else
            y[i] = static_cast<uint16_t>((bits + (0x7fffu + ((bits >> 16) & 1u))) >> 16);
    }
}

} // namespace

void registerAvx2FloatKernels(KernelTable& t)
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
    bf16.fromFloat = floatToBf16;
}

#else

void registerAvx2FloatKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
