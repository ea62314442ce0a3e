// AVX-512 kernels for the plain number types: F32, F16 and BF16 dot
// products in ggml's AVX-512 layout (four accumulators of 16 lanes,
// GGML_F32x16_REDUCE, then _mm512_reduce_add_ps's order written out so that
// every compiler sums alike) — the same sums as avx2/float.cpp — and the f16
// conversions 16 at a time.
#include "cpu/avx2/simd_avx2.h"
#include "cpu/kernels.h"

namespace hearth::cpu {

#if defined(__x86_64__) || defined(_M_X64)

namespace {

using namespace avx2;

// (hi + lo) then hsum8: _mm512_reduce_add_ps as GCC evaluates it.
inline float reduce16(__m512 v)
{
    return hsum8(_mm256_add_ps(_mm512_extractf32x8_ps(v, 1), _mm512_castps512_ps256(v)));
}

inline __m512 loadF32(const float* p)
{
    return _mm512_loadu_ps(p);
}

inline __m512 loadF16(const uint16_t* p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
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

void dotF32(int64_t n, float* s, const void* w, const void* a)
{
    *s = dot4x16<float, loadF32, scalarF32>(n, static_cast<const float*>(w), static_cast<const float*>(a));
}

void dotF16(int64_t n, float* s, const void* w, const void* a)
{
    *s = dot4x16<uint16_t, loadF16, halfToFloat>(n, static_cast<const uint16_t*>(w), static_cast<const uint16_t*>(a));
}

void dotBf16(int64_t n, float* s, const void* w, const void* a)
{
    *s = dot4x16<uint16_t, loadBf16, bf16Scalar>(n, static_cast<const uint16_t*>(w), static_cast<const uint16_t*>(a));
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
    t.types[static_cast<uint32_t>(GgmlType::F32)].vecDot = dotF32;
    TypeKernels& f16 = t.types[static_cast<uint32_t>(GgmlType::F16)];
    f16.vecDot = dotF16;
    f16.toFloat = f16ToFloat;
    f16.fromFloat = floatToF16;
    t.types[static_cast<uint32_t>(GgmlType::BF16)].vecDot = dotBf16;
}

#else

void registerAvx512FloatKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
