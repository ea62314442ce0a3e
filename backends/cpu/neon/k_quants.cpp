// NEON kernels for the K-quant formats (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K) and
// IQ4_XS against Q8_K activations; compiled again with dotprod by
// neon/k_quants_dotprod.cpp.
//
// Exact like the x86 kernels: the integer sums of a super-block are exact
// whatever the lane layout, and the float arithmetic that follows is the
// scalar reference's term for term (scalar/k_quants.cpp). NEON's dot
// products are signed, so quants are used with their sign (Q3_K q in
// -4..3, Q6_K q - 32) and need no correction.
#include "quant/k_quants.h"
#include "cpu/kernels.h"
#include "quant/iq4.h"

#include "cpu/neon/simd_neon.h"

#ifndef HEARTH_NEON_DOTPROD
#define HEARTH_NEON_DOTPROD 0
#endif

namespace hearth::cpu {

#if defined(__aarch64__) || defined(_M_ARM64)

namespace {

using namespace neon;

inline int8x16x2_t shiftMask(const uint8_t* p, int shift, uint8_t mask)
{
    const uint8x16x2_t raw = vld1q_u8_x2(p);
    const int8x16_t s = vdupq_n_s8(static_cast<int8_t>(-shift));
    const uint8x16_t m = vdupq_n_u8(mask);
    return {vreinterpretq_s8_u8(vandq_u8(vshlq_u8(raw.val[0], s), m)),
            vreinterpretq_s8_u8(vandq_u8(vshlq_u8(raw.val[1], s), m))};
}

inline void unpackK4(const uint8_t* packed, uint8_t* scales, uint8_t* mins)
{
    uint32_t u[3];
    std::memcpy(u, packed, 12);
    const uint32_t sc0 = u[0] & 0x3f3f3f3f;
    const uint32_t mn0 = u[1] & 0x3f3f3f3f;
    const uint32_t sc1 = (u[2] & 0x0f0f0f0f) | (((u[0] >> 6) & 0x03030303) << 4);
    const uint32_t mn1 = ((u[2] >> 4) & 0x0f0f0f0f) | (((u[1] >> 6) & 0x03030303) << 4);
    std::memcpy(scales, &sc0, 4);
    std::memcpy(scales + 4, &sc1, 4);
    std::memcpy(mins, &mn0, 4);
    std::memcpy(mins + 4, &mn1, 4);
}

// Per format: Prep is decoded once per super-block and row; quants(b, k)
// gives chunk k (elements 32k..32k+31) signed; kSub16 says whether the
// sub-blocks have 16 elements (scale(p, 2k), scale(p, 2k + 1) per chunk)
// or 32 (scale(p, k)); finish() is the reference's float term.
struct Q2_K {
    using Block = BlockQ2_K;
    static constexpr bool kSub16 = true;
    struct Prep {
        int sc[16];
    };
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j)
            p.sc[j] = b.scales[j] & 0x0f;
    }
    static int8x16x2_t quants(const Block& b, int k) { return shiftMask(b.qs + 32 * (k / 4), 2 * (k % 4), 3); }
    static float finish(const Block& b, const Prep&, const BlockQ8_K& y, int isum)
    {
        int summs = 0;
        for (int j = 0; j < 16; ++j)
            summs += y.bsums[j] * (b.scales[j] >> 4);
        const float dall = y.d * halfToFloat(b.d);
        const float dmin = y.d * halfToFloat(b.dmin);
        return dall * static_cast<float>(isum) - dmin * static_cast<float>(summs);
    }
};

struct Q3_K {
    using Block = BlockQ3_K;
    static constexpr bool kSub16 = true;
    using Prep = Q2_K::Prep;
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j) {
            const int lo = j < 8 ? b.scales[j] & 0x0f : b.scales[j - 8] >> 4;
            const int hi = (b.scales[8 + j % 4] >> (2 * (j / 4))) & 3;
            p.sc[j] = (lo | (hi << 4)) - 32;
        }
    }
    // low bits - 4 where the high bit is clear: -4..3.
    static int8x16x2_t quants(const Block& b, int k)
    {
        const int8x16x2_t low = shiftMask(b.qs + 32 * (k / 4), 2 * (k % 4), 3);
        const int8x16x2_t bit = shiftMask(b.hmask, k, 1);
        const int8x16_t four = vdupq_n_s8(4);
        return {vsubq_s8(low.val[0], vbicq_s8(four, vshlq_n_s8(bit.val[0], 2))),
                vsubq_s8(low.val[1], vbicq_s8(four, vshlq_n_s8(bit.val[1], 2)))};
    }
    static float finish(const Block& b, const Prep&, const BlockQ8_K& y, int isum)
    {
        return halfToFloat(b.d) * y.d * static_cast<float>(isum);
    }
};

struct Q4_K {
    using Block = BlockQ4_K;
    static constexpr bool kSub16 = false;
    struct Prep {
        int sc[8];
        uint8_t scales[8], mins[8];
    };
    static void prepare(const Block& b, Prep& p)
    {
        unpackK4(b.scales, p.scales, p.mins);
        for (int j = 0; j < 8; ++j)
            p.sc[j] = p.scales[j];
    }
    static int8x16x2_t quants(const Block& b, int k) { return shiftMask(b.qs + 32 * (k / 2), 4 * (k % 2), 0x0f); }
    static float finishK4(uint16_t d, uint16_t dmin, const Prep& p, const BlockQ8_K& y, int isum)
    {
        int summ = 0;
        for (int j = 0; j < 8; ++j)
            summ += p.mins[j] * (y.bsums[2 * j] + y.bsums[2 * j + 1]);
        return halfToFloat(d) * y.d * static_cast<float>(isum) - halfToFloat(dmin) * y.d * static_cast<float>(summ);
    }
    static float finish(const Block& b, const Prep& p, const BlockQ8_K& y, int isum)
    {
        return finishK4(b.d, b.dmin, p, y, isum);
    }
};

struct Q5_K {
    using Block = BlockQ5_K;
    static constexpr bool kSub16 = false;
    using Prep = Q4_K::Prep;
    static void prepare(const Block& b, Prep& p)
    {
        unpackK4(b.scales, p.scales, p.mins);
        for (int j = 0; j < 8; ++j)
            p.sc[j] = p.scales[j];
    }
    static int8x16x2_t quants(const Block& b, int k)
    {
        const int8x16x2_t low = shiftMask(b.qs + 32 * (k / 2), 4 * (k % 2), 0x0f);
        const int8x16x2_t bit = shiftMask(b.qh, k, 1);
        return {vorrq_s8(low.val[0], vshlq_n_s8(bit.val[0], 4)), vorrq_s8(low.val[1], vshlq_n_s8(bit.val[1], 4))};
    }
    static float finish(const Block& b, const Prep& p, const BlockQ8_K& y, int isum)
    {
        return Q4_K::finishK4(b.d, b.dmin, p, y, isum);
    }
};

struct Q6_K {
    using Block = BlockQ6_K;
    static constexpr bool kSub16 = true;
    using Prep = Q2_K::Prep;
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j)
            p.sc[j] = b.scales[j];
    }
    // Quarter k % 4 of half k / 4, minus 32.
    static int8x16x2_t quants(const Block& b, int k)
    {
        const int h = k / 4, kk = k % 4;
        const int8x16x2_t low = shiftMask(b.ql + 64 * h + 32 * (kk % 2), 4 * (kk / 2), 0x0f);
        const int8x16x2_t high = shiftMask(b.qh + 32 * h, 2 * kk, 3);
        const int8x16_t off = vdupq_n_s8(32);
        return {vsubq_s8(vorrq_s8(low.val[0], vshlq_n_s8(high.val[0], 4)), off),
                vsubq_s8(vorrq_s8(low.val[1], vshlq_n_s8(high.val[1], 4)), off)};
    }
    static float finish(const Block& b, const Prep&, const BlockQ8_K& y, int isum)
    {
        return halfToFloat(b.d) * y.d * static_cast<float>(isum);
    }
};

template <class T>
const typename T::Block& blockAt(const uint8_t* w, size_t stride, int r, int64_t b)
{
    return reinterpret_cast<const typename T::Block*>(w + stride * static_cast<size_t>(r))[b];
}

inline const BlockQ8_K& tokenAt(const uint8_t* a, size_t stride, int c, int64_t b)
{
    return reinterpret_cast<const BlockQ8_K*>(a + stride * static_cast<size_t>(c))[b];
}

template <class T, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    float sum[R][C] = {};
    for (int64_t b = 0; b < nb; ++b) {
        typename T::Prep prep[R];
        for (int r = 0; r < R; ++r)
            T::prepare(blockAt<T>(w, wStride, r, b), prep[r]);
        int32x4_t isum[R][C];
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                isum[r][c] = vdupq_n_s32(0);
        for (int k = 0; k < QK_K / 32; ++k) {
            int8x16x2_t q[R];
            for (int r = 0; r < R; ++r)
                q[r] = T::quants(blockAt<T>(w, wStride, r, b), k);
            for (int c = 0; c < C; ++c) {
                const int8x16x2_t y = vld1q_s8_x2(tokenAt(a, aStride, c, b).qs + 32 * k);
                for (int r = 0; r < R; ++r) {
                    const int32x4_t zero = vdupq_n_s32(0);
                    if constexpr (T::kSub16) {
                        isum[r][c] = vmlaq_n_s32(isum[r][c], dot4(zero, q[r].val[0], y.val[0]), prep[r].sc[2 * k]);
                        isum[r][c] = vmlaq_n_s32(isum[r][c], dot4(zero, q[r].val[1], y.val[1]), prep[r].sc[2 * k + 1]);
                    } else {
                        const int32x4_t d = dot4(dot4(zero, q[r].val[0], y.val[0]), q[r].val[1], y.val[1]);
                        isum[r][c] = vmlaq_n_s32(isum[r][c], d, prep[r].sc[k]);
                    }
                }
            }
        }
        for (int r = 0; r < R; ++r)
            for (int c = 0; c < C; ++c)
                sum[r][c] +=
                    T::finish(blockAt<T>(w, wStride, r, b), prep[r], tokenAt(a, aStride, c, b), vaddvq_s32(isum[r][c]));
    }
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c)
            s[sStride * static_cast<size_t>(c) + static_cast<size_t>(r)] = sum[r][c];
}

template <class T>
void vecDot(int64_t n, float* s, const void* w, const void* a)
{
    tile<T, 1, 1>(n / QK_K, s, 0, static_cast<const uint8_t*>(w), 0, static_cast<const uint8_t*>(a), 0);
}

template <class T>
void gemm(int64_t n, float* s, size_t sStride, const void* wv, size_t wStride, const void* av, size_t aStride,
          int64_t rows, int64_t tokens)
{
    constexpr int R = 2, C = 4;
    const int64_t nb = n / QK_K;
    const auto* w = static_cast<const uint8_t*>(wv);
    const auto* a = static_cast<const uint8_t*>(av);
    const auto run = [&](int64_t r, int64_t t, auto fn) {
        fn(nb, s + sStride * static_cast<size_t>(t) + static_cast<size_t>(r), sStride, w + wStride * r, wStride,
           a + aStride * t, aStride);
    };
    int64_t r = 0;
    for (; r + R <= rows; r += R) {
        int64_t t = 0;
        for (; t + C <= tokens; t += C)
            run(r, t, tile<T, R, C>);
        for (; t < tokens; ++t)
            run(r, t, tile<T, R, 1>);
    }
    for (; r < rows; ++r)
        for (int64_t t = 0; t < tokens; ++t)
            run(r, t, tile<T, 1, 1>);
}

// IQ4_XS: one float term per sub-block of 32, added to the running sum in
// order as the reference does.
void dotIq4xs(int64_t n, float* s, const void* w, const void* a)
{
    const auto* x = static_cast<const BlockIQ4_XS*>(w);
    const auto* y = static_cast<const BlockQ8_K*>(a);
    const int8x16_t table = vld1q_s8(kValuesIQ4NL);
    float sum = 0.0f;
    for (int64_t b = 0; b < n / QK_K; ++b) {
        const float d4d8 = halfToFloat(x[b].d) * y[b].d;
        for (int sb = 0; sb < 8; ++sb) {
            const int8x16x2_t idx = nibbles32(x[b].qs + 16 * sb);
            const int8x16x2_t q8 = vld1q_s8_x2(y[b].qs + 32 * sb);
            int32x4_t acc = dot4(vdupq_n_s32(0), vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[0])), q8.val[0]);
            acc = dot4(acc, vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[1])), q8.val[1]);
            const int ls = ((x[b].scalesL[sb / 2] >> (4 * (sb % 2))) & 0x0f) | (((x[b].scalesH >> (2 * sb)) & 3) << 4);
            sum += d4d8 * static_cast<float>(ls - 32) * static_cast<float>(vaddvq_s32(acc));
        }
    }
    *s = sum;
}

// Activations to Q8_K exactly as the reference (quantizeRowQ8_K): the
// value of largest magnitude (its first occurrence) maps to -127, quants
// rounded half to even (FCVTNS) and capped at 127, sums of 16.
void quantizeQ8_K(const float* x, void* yv, int64_t n)
{
    auto* y = static_cast<BlockQ8_K*>(yv);
    for (int64_t i = 0; i < n / QK_K; ++i, x += QK_K) {
        // vmaxnm ignores a NaN operand, like the reference's comparison.
        float32x4_t amax = vdupq_n_f32(0.0f);
        for (int k = 0; k < 64; ++k)
            amax = vmaxnmq_f32(amax, vabsq_f32(vld1q_f32(x + 4 * k)));
        const float m = vmaxnmvq_f32(amax);
        BlockQ8_K& out = y[i];
        if (m == 0.0f) {
            std::memset(&out, 0, sizeof out);
            continue;
        }
        float max = 0.0f;
        for (int j = 0; j < QK_K; ++j) {
            if (x[j] == m || x[j] == -m) {
                max = x[j];
                break;
            }
        }
        const float iscale = -127.0f / max;
        for (int k = 0; k < 16; ++k) {
            int32x4_t q[4];
            for (int j = 0; j < 4; ++j)
                q[j] = vminq_s32(vcvtnq_s32_f32(vmulq_n_f32(vld1q_f32(x + 16 * k + 4 * j), iscale)), vdupq_n_s32(127));
            out.bsums[k] = static_cast<int16_t>(vaddvq_s32(vaddq_s32(vaddq_s32(q[0], q[1]), vaddq_s32(q[2], q[3]))));
            const int16x8_t lo = vcombine_s16(vmovn_s32(q[0]), vmovn_s32(q[1]));
            const int16x8_t hi = vcombine_s16(vmovn_s32(q[2]), vmovn_s32(q[3]));
            vst1q_s8(out.qs + 16 * k, vcombine_s8(vmovn_s16(lo), vmovn_s16(hi)));
        }
        out.d = 1.0f / iscale;
    }
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    // These kernels sum in the order of the reference before it followed
    // ggml's vec_dot, tiled and repacked orders (scalar/k_quants.cpp,
    // tiled.cpp, repack.cpp): until they do again, the reference's entries
    // stay in the table.
    (void)t;
    (void)type;
    (void)vecDot<T>;
    (void)gemm<T>;
}

void registerAll(KernelTable& t)
{
    set<Q2_K>(t, GgmlType::Q2_K);
    set<Q3_K>(t, GgmlType::Q3_K);
    set<Q4_K>(t, GgmlType::Q4_K);
    set<Q5_K>(t, GgmlType::Q5_K);
    set<Q6_K>(t, GgmlType::Q6_K);
    (void)dotIq4xs;
    t.types[static_cast<uint32_t>(GgmlType::Q8_K)].fromFloat = quantizeQ8_K;
}

} // namespace

#if HEARTH_NEON_DOTPROD
void registerNeonDotprodKQuantKernels(KernelTable& t)
{
    registerAll(t);
}
#else
void registerNeonDotprodKQuantKernels(KernelTable& t);

void registerNeonKQuantKernels(KernelTable& t, bool dotprod)
{
    registerAll(t);
    if (dotprod)
        registerNeonDotprodKQuantKernels(t);
}
#endif

#elif !HEARTH_NEON_DOTPROD

void registerNeonKQuantKernels(KernelTable&, bool)
{
}

#endif

} // namespace hearth::cpu
