// NEON kernels for the 32-element block formats (Q4_0, Q4_1, Q5_0, Q5_1,
// Q8_0, IQ4_NL) and the Q8_0 / Q8_1 activation quantizers; compiled again
// with dotprod by neon/legacy_dotprod.cpp.
//
// Exact like the x86 kernels: vdotq_s32 (or its emulation) gives the lanes
// of four consecutive products that ggml's x86 kernels use, two quads hold
// each output's 8-lane accumulator updated with one fused multiply-add per
// block, reduced like hsum_float_8 — the order of scalar/legacy.cpp. NEON's
// dot products are signed × signed, so quants are used with their sign.
#include "quant/legacy.h"
#include "cpu/kernels.h"
#include "cpu/tiles.h"
#include "quant/iq4.h"

#include "cpu/neon/simd_neon.h"

namespace hearth::cpu {

#if defined(__aarch64__) || defined(_M_ARM64)

namespace {

using namespace neon;

inline int8x16x2_t sub2(int8x16x2_t v, int8_t k)
{
    return {vsubq_s8(v.val[0], vdupq_n_s8(k)), vsubq_s8(v.val[1], vdupq_n_s8(k))};
}

inline int8x16x2_t or2(int8x16x2_t a, int8x16x2_t b)
{
    return {vorrq_s8(a.val[0], b.val[0]), vorrq_s8(a.val[1], b.val[1])};
}

// Per format: the 32 quants as signed bytes, elements 0..15 then 16..31.
struct Q4_0 {
    using Block = BlockQ4_0;
    using Partner = BlockQ8_0;
    static constexpr bool kMin = false;
    static int8x16x2_t quants(const Block& b) { return sub2(nibbles32(b.qs), 8); }
};

struct Q4_1 {
    using Block = BlockQ4_1;
    using Partner = BlockQ8_1;
    static constexpr bool kMin = true;
    static int8x16x2_t quants(const Block& b) { return nibbles32(b.qs); }
};

struct Q5_0 {
    using Block = BlockQ5_0;
    using Partner = BlockQ8_0;
    static constexpr bool kMin = false;
    static int8x16x2_t quants(const Block& b) { return sub2(or2(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10)), 16); }
};

struct Q5_1 {
    using Block = BlockQ5_1;
    using Partner = BlockQ8_1;
    static constexpr bool kMin = true;
    static int8x16x2_t quants(const Block& b) { return or2(nibbles32(b.qs), bitsToBytes32(b.qh, 0x10)); }
};

struct Q8_0 {
    using Block = BlockQ8_0;
    using Partner = BlockQ8_0;
    static constexpr bool kMin = false;
    static int8x16x2_t quants(const Block& b) { return vld1q_s8_x2(b.qs); }
};

struct IQ4_NL {
    using Block = BlockIQ4_NL;
    using Partner = BlockQ8_0;
    static constexpr bool kMin = false;
    static int8x16x2_t quants(const Block& b)
    {
        const int8x16_t table = vld1q_s8(kValuesIQ4NL);
        const int8x16x2_t idx = nibbles32(b.qs);
        return {vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[0])), vqtbl1q_s8(table, vreinterpretq_u8_s8(idx.val[1]))};
    }
};

template <class T>
const typename T::Block& blockAt(const uint8_t* w, size_t stride, int r, int64_t b)
{
    return reinterpret_cast<const typename T::Block*>(w + stride * static_cast<size_t>(r))[b];
}

template <class T>
const typename T::Partner& partnerAt(const uint8_t* a, size_t stride, int c, int64_t b)
{
    return reinterpret_cast<const typename T::Partner*>(a + stride * static_cast<size_t>(c))[b];
}

// The first two f16 of a block as floats, [d, m] (partners: [d, s]); for
// formats without m the second value is meaningless and unused.
template <class B>
inline float32x4_t headOf(const B& b)
{
    uint32_t v;
    std::memcpy(&v, &b, sizeof v);
    return vcvt_f32_f16(vreinterpret_f16_u32(vdup_n_u32(v)));
}

// [dx, mx] · [dy, sy]: d = dx·dy for the lanes and the m·s terms of the
// _1 formats, summed in lane 1 of `ext` in block order like the reference.
template <class T, int R, int C>
void tile(int64_t nb, float* s, size_t sStride, const uint8_t* w, size_t wStride, const uint8_t* a, size_t aStride)
{
    F32x8 acc[R][C];
    float32x4_t ext[R][C];
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            acc[r][c] = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
            ext[r][c] = vdupq_n_f32(0.0f);
        }
    for (int64_t b = 0; b < nb; ++b) {
        int8x16x2_t xq[R];
        float32x4_t dmx[R];
        for (int r = 0; r < R; ++r) {
            xq[r] = T::quants(blockAt<T>(w, wStride, r, b));
            dmx[r] = headOf(blockAt<T>(w, wStride, r, b));
        }
        for (int c = 0; c < C; ++c) {
            const auto& y = partnerAt<T>(a, aStride, c, b);
            const int8x16x2_t yq = vld1q_s8_x2(y.qs);
            const float32x4_t dmy = headOf(y);
            for (int r = 0; r < R; ++r) {
                const int32x4_t lo = dot4(vdupq_n_s32(0), xq[r].val[0], yq.val[0]);
                const int32x4_t hi = dot4(vdupq_n_s32(0), xq[r].val[1], yq.val[1]);
                const float32x4_t prod = vmulq_f32(dmx[r], dmy);
                const float d = vgetq_lane_f32(prod, 0);
                acc[r][c].lo = vfmaq_n_f32(acc[r][c].lo, vcvtq_f32_s32(lo), d);
                acc[r][c].hi = vfmaq_n_f32(acc[r][c].hi, vcvtq_f32_s32(hi), d);
                if constexpr (T::kMin)
                    ext[r][c] = vaddq_f32(ext[r][c], prod);
            }
        }
    }
    storeTile<R, C>(s, sStride, [&](int r, int c) {
        float v = hsum8(acc[r][c]);
        if constexpr (T::kMin)
            v += vgetq_lane_f32(ext[r][c], 1);
        return v;
    });
}

// Tiles of 2 rows × 4 tokens (16 quads of accumulators).
template <class T>
struct Tiles : TileShape<32, 2, 4> {
    template <int R, int C>
    static constexpr auto tile = &cpu::tile<T, R, C>;
};

// Activation quantizers, the same arithmetic as ggml's AVX2 ones (and
// scalar/legacy.cpp): scale max|x| / 127, x · (127 / max|x|) rounded half
// to even (vcvtnq: round to nearest, ties to even).
template <class Block>
void quantizeBlocks(const float* x, Block* y, int64_t n)
{
    for (int64_t i = 0; i < n / 32; ++i, x += 32) {
        float32x4_t v[8];
        float32x4_t maxAbs = vdupq_n_f32(0.0f);
        for (int k = 0; k < 8; ++k) {
            v[k] = vld1q_f32(x + 4 * k);
            maxAbs = vmaxq_f32(maxAbs, vabsq_f32(v[k]));
        }
        const float amax = vmaxvq_f32(maxAbs);
        const float d = amax / 127.0f;
        uint16_t d16;
        const float16x4_t h = vcvt_f16_f32(vdupq_n_f32(d));
        vst1_lane_u16(&d16, vreinterpret_u16_f16(h), 0);
        y[i].d = d16;
        const float id = amax != 0.0f ? 127.0f / amax : 0.0f;
        int32x4_t sum = vdupq_n_s32(0);
        int8_t* q = y[i].qs;
        for (int k = 0; k < 8; k += 2) {
            const int32x4_t a = vcvtnq_s32_f32(vmulq_n_f32(v[k], id));
            const int32x4_t b = vcvtnq_s32_f32(vmulq_n_f32(v[k + 1], id));
            sum = vaddq_s32(sum, vaddq_s32(a, b));
            const int16x8_t ab = vcombine_s16(vmovn_s32(a), vmovn_s32(b));
            vst1_s8(q + 4 * k, vmovn_s16(ab));
        }
        if constexpr (sizeof(Block) == sizeof(BlockQ8_1)) {
            const float16x4_t hs = vcvt_f16_f32(vdupq_n_f32(d * static_cast<float>(vaddvq_s32(sum))));
            uint16_t s16;
            vst1_lane_u16(&s16, vreinterpret_u16_f16(hs), 0);
            y[i].s = s16;
        }
    }
}

void quantizeQ8_0(const float* x, void* y, int64_t n)
{
    quantizeBlocks(x, static_cast<BlockQ8_0*>(y), n);
}

void quantizeQ8_1(const float* x, void* y, int64_t n)
{
    quantizeBlocks(x, static_cast<BlockQ8_1*>(y), n);
}

template <class T>
void set(KernelTable& t, GgmlType type)
{
    // IQ4_NL's lane order here is tinyBLAS's (two tokens or more); its
    // vec_dot pairs blocks (scalar/legacy.cpp).
    const bool sgemm = type == GgmlType::IQ4_NL;
    setTiles<Tiles<T>>(t.types[static_cast<uint32_t>(type)], sgemm ? &TypeKernels::vecDotSgemm : &TypeKernels::vecDot,
                       sgemm ? &TypeKernels::gemmSgemm : &TypeKernels::gemm);
}

} // namespace

#if HEARTH_NEON_DOTPROD
void registerNeonDotprodLegacyKernels(KernelTable& t)
#else
void registerNeonLegacyKernels(KernelTable& t)
#endif
{
    set<Q4_0>(t, GgmlType::Q4_0);
    set<Q4_1>(t, GgmlType::Q4_1);
    set<Q5_0>(t, GgmlType::Q5_0);
    set<Q5_1>(t, GgmlType::Q5_1);
    set<Q8_0>(t, GgmlType::Q8_0);
    set<IQ4_NL>(t, GgmlType::IQ4_NL);
    t.types[static_cast<uint32_t>(GgmlType::Q8_0)].fromFloat = quantizeQ8_0;
    t.types[static_cast<uint32_t>(GgmlType::Q8_1)].fromFloat = quantizeQ8_1;
}

#elif HEARTH_NEON_DOTPROD

void registerNeonDotprodLegacyKernels(KernelTable&)
{
}

#else

void registerNeonLegacyKernels(KernelTable&)
{
}

#endif

} // namespace hearth::cpu
