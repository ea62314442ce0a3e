// Decoding of the K-quant formats in 32-element chunks for the AVX2 and
// AVX-512 kernels (internal; include only from sources compiled with AVX2).
//
// Each format: Prep holds what is decoded once per super-block and row;
// quants(b, p, k) gives chunk k (elements 32k..32k+31) as bytes: unsigned
// (Q3_K offset by kOffset = 4, whose share the tiles take out per pair of
// products), or signed where kSigned (IQ4_XS); scales(p, k) the madd
// operand of chunk k (16-bit scale per pair of products). kMins, kBias and
// minLanes / minQuad / biasLanes feed the float steps of
// k_quants_orders.h.
#pragma once

#if defined(__x86_64__) || defined(_M_X64)

#include "cpu/avx2/k_quants_orders.h"
#include "cpu/avx2/simd_avx2.h"
#include "quant/iq4.h"
#include "quant/k_quants.h"

namespace hearth::cpu::avx2 {
namespace {

inline __m256i load32(const void* p)
{
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// 16 int16 scales of 16-element sub-blocks → the table pairScales reads:
// the even sub-blocks' scales in the low 128 bits, the odd ones' in the high.
inline __m256i pairTable(__m256i sc16)
{
    const __m256i split = _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15, //
                                           0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    return _mm256_permute4x64_epi64(_mm256_shuffle_epi8(sc16, split), _MM_SHUFFLE(3, 1, 2, 0));
}

// Chunk k's madd operand: sub-block 2k's scale in the low 128 bits, 2k + 1's
// in the high ones (one shuffle of pairTable's table). With a table of 8
// scales in both halves (formats with sub-blocks of 32): scale k throughout.
inline __m256i pairScales(__m256i table, int k)
{
    return _mm256_shuffle_epi8(table, _mm256_set1_epi16(static_cast<short>(0x0100 + 0x0202 * k)));
}

// The 8 bytes of a word as int16.
inline __m128i widen8(uint64_t bytes)
{
    return _mm_cvtepu8_epi16(_mm_cvtsi64_si128(static_cast<long long>(bytes)));
}

struct Q2_K : Format {
    using Block = BlockQ2_K;
    static constexpr Mins kMins = Mins::Lanes;
    struct Prep {
        alignas(32) int16_t sc[16];
        alignas(32) int16_t mn[16];
        __m256i pairs; // pairTable of sc
    };
    static void prepare(const Block& b, Prep& p)
    {
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
        const __m256i sc = _mm256_cvtepu8_epi16(_mm_and_si128(raw, _mm_set1_epi8(0x0f)));
        _mm256_store_si256(reinterpret_cast<__m256i*>(p.sc), sc);
        p.pairs = pairTable(sc);
        _mm256_store_si256(reinterpret_cast<__m256i*>(p.mn),
                           _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(raw, 4), _mm_set1_epi8(0x0f))));
    }
    static __m256i minLanes(const Prep& p, const BlockQ8_K& y) { return _mm256_madd_epi16(load32(p.mn), bsumsOf(y)); }
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        return _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 4)), 2 * (k % 4)), _mm256_set1_epi8(3));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.pairs, k); }
};

struct Q3_K : Format {
    using Block = BlockQ3_K;
    static constexpr int kOffset = 4;
    struct Prep {
        alignas(32) int16_t sc[16];
        __m256i pairs; // pairTable of sc
    };
    // Scale j: low 4 bits from nibble j / 8 of byte j % 8, high 2 bits from
    // bits 2(j / 4) of byte 8 + j % 4; four at a time per 32-bit word.
    static void prepare(const Block& b, Prep& p)
    {
        uint32_t u[3];
        std::memcpy(u, b.scales, 12);
        const uint32_t m4 = 0x0f0f0f0f, m2 = 0x03030303;
        const __m128i sc = _mm_set_epi32(static_cast<int>(((u[1] >> 4) & m4) | (((u[2] >> 6) & m2) << 4)),
                                         static_cast<int>(((u[0] >> 4) & m4) | (((u[2] >> 4) & m2) << 4)),
                                         static_cast<int>((u[1] & m4) | (((u[2] >> 2) & m2) << 4)),
                                         static_cast<int>((u[0] & m4) | ((u[2] & m2) << 4)));
        const __m256i sc16 = _mm256_cvtepi8_epi16(_mm_sub_epi8(sc, _mm_set1_epi8(32)));
        _mm256_store_si256(reinterpret_cast<__m256i*>(p.sc), sc16);
        p.pairs = pairTable(sc16);
    }
    // q + 4 = low bits + 4 · high bit, in 0..7.
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        const __m256i low =
            _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 4)), 2 * (k % 4)), _mm256_set1_epi8(3));
        const __m256i bit = _mm256_and_si256(_mm256_srli_epi16(load32(b.hmask), k), _mm256_set1_epi8(1));
        return _mm256_or_si256(low, _mm256_slli_epi16(bit, 2));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.pairs, k); }
};

struct Q4_K : Format {
    using Block = BlockQ4_K;
    static constexpr Mins kMins = Mins::Quad;
    struct Prep {
        uint8_t sc[8], mn[8];
        __m256i table; // the 8 scales as int16, in both halves (pairScales)
        __m128i mins;  // the 8 mins as int16
    };
    // The 12 packed bytes of scales and mins (Q5_K's are laid out alike).
    static void prepareScales(const uint8_t* packed, Prep& p)
    {
        uint64_t sc, mn;
        unpackScalesMinsK4(packed, sc, mn);
        std::memcpy(p.sc, &sc, 8);
        std::memcpy(p.mn, &mn, 8);
        p.table = _mm256_broadcastsi128_si256(widen8(sc));
        p.mins = widen8(mn);
    }
    static void prepare(const Block& b, Prep& p) { prepareScales(b.scales, p); }
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        return _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 2)), 4 * (k % 2)), _mm256_set1_epi8(0x0f));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.table, k); }
    static __m128i minQuad(const Prep& p, const BlockQ8_K& y) { return _mm_madd_epi16(p.mins, bsums32(y)); }
};

struct Q5_K : Format {
    using Block = BlockQ5_K;
    static constexpr Mins kMins = Mins::Sum;
    using Prep = Q4_K::Prep;
    static void prepare(const Block& b, Prep& p) { Q4_K::prepareScales(b.scales, p); }
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        const __m256i low =
            _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 2)), 4 * (k % 2)), _mm256_set1_epi8(0x0f));
        const __m256i bit = _mm256_and_si256(_mm256_srli_epi16(load32(b.qh), k), _mm256_set1_epi8(1));
        return _mm256_or_si256(low, _mm256_slli_epi16(bit, 4));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.table, k); }
    static __m128i minQuad(const Prep& p, const BlockQ8_K& y) { return Q4_K::minQuad(p, y); }
};

struct Q6_K : Format {
    using Block = BlockQ6_K;
    static constexpr int kBias = 32;
    struct Prep {
        alignas(32) int16_t sc[16];
        __m256i pairs; // pairTable of sc
    };
    static void prepare(const Block& b, Prep& p)
    {
        const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(b.scales));
        const __m256i sc = _mm256_cvtepi8_epi16(raw);
        _mm256_store_si256(reinterpret_cast<__m256i*>(p.sc), sc);
        p.pairs = pairTable(sc);
    }
    // q + 32 in 0..63: chunk k is quarter k % 4 of half k / 4; its two high
    // bits are bits 2kk, 2kk + 1 of qh, moved to bits 4, 5 by one shift.
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        const int h = k / 4, kk = k % 4;
        __m256i low = load32(b.ql + 64 * h + 32 * (kk % 2));
        if (kk >= 2)
            low = _mm256_srli_epi16(low, 4);
        const __m256i qh = load32(b.qh + 32 * h);
        __m256i high = qh;
        if (kk == 0)
            high = _mm256_slli_epi16(qh, 4);
        else if (kk == 1)
            high = _mm256_slli_epi16(qh, 2);
        else if (kk == 3)
            high = _mm256_srli_epi16(qh, 2);
        return _mm256_or_si256(_mm256_and_si256(low, _mm256_set1_epi8(0x0f)),
                               _mm256_and_si256(high, _mm256_set1_epi8(0x30)));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.pairs, k); }
    static __m256i biasLanes(const Prep& p, const BlockQ8_K& y)
    {
        return _mm256_slli_epi32(_mm256_madd_epi16(load32(p.sc), bsumsOf(y)), 5);
    }
};

// IQ4_XS: non-linear signed values (kValuesIQ4NL), one 6-bit scale per
// sub-block of 32.
struct IQ4_XS : Format {
    using Block = BlockIQ4_XS;
    static constexpr bool kSigned = true;
    struct Prep {
        alignas(16) int16_t sc[8];
        __m256i table; // sc in both halves
    };
    static void prepare(const Block& b, Prep& p)
    {
        const __m128i sc = iq4xsScales(b);
        _mm_store_si128(reinterpret_cast<__m128i*>(p.sc), sc);
        p.table = _mm256_broadcastsi128_si256(sc);
    }
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        const __m256i table =
            _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(kValuesIQ4NL)));
        return _mm256_shuffle_epi8(table, nibbles32(b.qs + 16 * k));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.table, k); }
};

} // namespace
} // namespace hearth::cpu::avx2

#endif
