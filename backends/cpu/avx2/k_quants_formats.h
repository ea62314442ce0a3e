// Decoding of the K-quant formats in 32-element chunks for the AVX2 and
// AVX-512 kernels (internal; include only from sources compiled with AVX2).
//
// Each format: Prep holds what is decoded once per super-block and row;
// quants(b, p, k) gives chunk k (elements 32k..32k+31) as unsigned bytes;
// scales(p, k) the madd operand of chunk k (16-bit scale per pair of
// products); finish() turns the exact integer sum of the super-block into
// the scalar reference's float contribution, term for term.
#pragma once

#if defined(__x86_64__) || defined(_M_X64)

#include "cpu/avx2/simd_avx2.h"
#include "quant/k_quants.h"

namespace hearth::cpu::avx2 {
namespace {

inline __m256i load32(const void* p)
{
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// 16 int16 scales of 16-element sub-blocks → per chunk k the madd operand:
// sub-block 2k in the low 128 bits, 2k + 1 in the high ones.
inline __m256i pairScales(const int16_t* sc, int k)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_set1_epi16(sc[2 * k])), _mm_set1_epi16(sc[2 * k + 1]), 1);
}

// Σ_j scale_j · bsums_j over the 16 sub-blocks of 16 (int32).
inline int scaledBsums(const int16_t* sc, const int16_t* bsums)
{
    return hsumI32(_mm256_madd_epi16(load32(sc), load32(bsums)));
}

// q4_K / q5_K: 8 six-bit scales and mins out of the 12 packed bytes.
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

struct Q2_K {
    using Block = BlockQ2_K;
    struct Prep {
        alignas(32) int16_t sc[16];
    };
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j)
            p.sc[j] = b.scales[j] & 0x0f;
    }
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        return _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 4)), 2 * (k % 4)), _mm256_set1_epi8(3));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.sc, k); }
    static float finish(const Block& b, const Prep&, const BlockQ8_K& y, int isum)
    {
        alignas(32) int16_t mins[16];
        for (int j = 0; j < 16; ++j)
            mins[j] = b.scales[j] >> 4;
        const int summs = scaledBsums(mins, y.bsums);
        const float dall = y.d * halfToFloat(b.d);
        const float dmin = y.d * halfToFloat(b.dmin);
        return dall * static_cast<float>(isum) - dmin * static_cast<float>(summs);
    }
};

struct Q3_K {
    using Block = BlockQ3_K;
    struct Prep {
        alignas(32) int16_t sc[16];
    };
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j) {
            const int lo = j < 8 ? b.scales[j] & 0x0f : b.scales[j - 8] >> 4;
            const int hi = (b.scales[8 + j % 4] >> (2 * (j / 4))) & 3;
            p.sc[j] = static_cast<int16_t>((lo | (hi << 4)) - 32);
        }
    }
    // q + 4 = low bits + 4 · high bit, in 0..7.
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        const __m256i low =
            _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 4)), 2 * (k % 4)), _mm256_set1_epi8(3));
        const __m256i bit = _mm256_and_si256(_mm256_srli_epi16(load32(b.hmask), k), _mm256_set1_epi8(1));
        return _mm256_or_si256(low, _mm256_slli_epi16(bit, 2));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.sc, k); }
    static float finish(const Block& b, const Prep& p, const BlockQ8_K& y, int isum)
    {
        isum -= 4 * scaledBsums(p.sc, y.bsums);
        return halfToFloat(b.d) * y.d * static_cast<float>(isum);
    }
};

struct Q4_K {
    using Block = BlockQ4_K;
    struct Prep {
        uint8_t sc[8], mn[8];
    };
    static void prepare(const Block& b, Prep& p) { unpackK4(b.scales, p.sc, p.mn); }
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        return _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 2)), 4 * (k % 2)), _mm256_set1_epi8(0x0f));
    }
    static __m256i scales(const Prep& p, int k) { return _mm256_set1_epi16(p.sc[k]); }
    static float finishK4(uint16_t d, uint16_t dmin, const Prep& p, const BlockQ8_K& y, int isum)
    {
        int summ = 0;
        for (int j = 0; j < 8; ++j)
            summ += p.mn[j] * (y.bsums[2 * j] + y.bsums[2 * j + 1]);
        return halfToFloat(d) * y.d * static_cast<float>(isum) - halfToFloat(dmin) * y.d * static_cast<float>(summ);
    }
    static float finish(const Block& b, const Prep& p, const BlockQ8_K& y, int isum)
    {
        return finishK4(b.d, b.dmin, p, y, isum);
    }
};

struct Q5_K {
    using Block = BlockQ5_K;
    using Prep = Q4_K::Prep;
    static void prepare(const Block& b, Prep& p) { unpackK4(b.scales, p.sc, p.mn); }
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        const __m256i low =
            _mm256_and_si256(_mm256_srli_epi16(load32(b.qs + 32 * (k / 2)), 4 * (k % 2)), _mm256_set1_epi8(0x0f));
        const __m256i bit = _mm256_and_si256(_mm256_srli_epi16(load32(b.qh), k), _mm256_set1_epi8(1));
        return _mm256_or_si256(low, _mm256_slli_epi16(bit, 4));
    }
    static __m256i scales(const Prep& p, int k) { return _mm256_set1_epi16(p.sc[k]); }
    static float finish(const Block& b, const Prep& p, const BlockQ8_K& y, int isum)
    {
        return Q4_K::finishK4(b.d, b.dmin, p, y, isum);
    }
};

struct Q6_K {
    using Block = BlockQ6_K;
    struct Prep {
        alignas(32) int16_t sc[16];
    };
    static void prepare(const Block& b, Prep& p)
    {
        for (int j = 0; j < 16; ++j)
            p.sc[j] = b.scales[j];
    }
    // q + 32 in 0..63: chunk k is quarter k % 4 of half k / 4.
    static __m256i quants(const Block& b, const Prep&, int k)
    {
        const int h = k / 4, kk = k % 4;
        const __m256i low = _mm256_and_si256(_mm256_srli_epi16(load32(b.ql + 64 * h + 32 * (kk % 2)), 4 * (kk / 2)),
                                             _mm256_set1_epi8(0x0f));
        const __m256i high = _mm256_and_si256(_mm256_srli_epi16(load32(b.qh + 32 * h), 2 * kk), _mm256_set1_epi8(3));
        return _mm256_or_si256(low, _mm256_slli_epi16(high, 4));
    }
    static __m256i scales(const Prep& p, int k) { return pairScales(p.sc, k); }
    static float finish(const Block& b, const Prep& p, const BlockQ8_K& y, int isum)
    {
        isum -= 32 * scaledBsums(p.sc, y.bsums);
        return halfToFloat(b.d) * y.d * static_cast<float>(isum);
    }
};

} // namespace
} // namespace hearth::cpu::avx2

#endif
