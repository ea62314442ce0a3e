#include "cpu/scalar/k_blocks.h"

namespace hearth::cpu::kq {

namespace {

// The 2 low bits of element e in Q2_K / Q3_K.
int twoBits(const uint8_t* qs, int e)
{
    return (qs[32 * (e / 128) + e % 32] >> (2 * ((e % 128) / 32))) & 3;
}

// Element e's nibble in the Q4_K / Q5_K layout.
int nibbleK4(const uint8_t* qs, int e)
{
    const uint8_t byte = qs[32 * (e / 64) + e % 32];
    return (e % 64) < 32 ? byte & 0x0f : byte >> 4;
}

void scalesK4(const uint8_t* scales, Unpacked& u)
{
    for (int j = 0; j < QK_K / 32; ++j) {
        uint8_t sc, m;
        scaleMinK4(j, scales, sc, m);
        u.scale[2 * j] = u.scale[2 * j + 1] = sc;
        u.min[2 * j] = u.min[2 * j + 1] = m;
    }
}

} // namespace

void unpack(const BlockQ2_K& b, Unpacked& u)
{
    for (int e = 0; e < QK_K; ++e)
        u.q[e] = static_cast<int8_t>(twoBits(b.qs, e));
    for (int g = 0; g < QK_K / 16; ++g) {
        u.scale[g] = b.scales[g] & 0x0f;
        u.min[g] = b.scales[g] >> 4;
    }
}

void unpack(const BlockQ3_K& b, Unpacked& u)
{
    for (int e = 0; e < QK_K; ++e) {
        const bool high = (b.hmask[e % 32] >> (e / 32)) & 1;
        u.q[e] = static_cast<int8_t>(twoBits(b.qs, e) - (high ? 0 : 4));
    }
    for (int g = 0; g < QK_K / 16; ++g) {
        const int lo = g < 8 ? b.scales[g] & 0x0f : b.scales[g - 8] >> 4;
        const int hi = (b.scales[8 + g % 4] >> (2 * (g / 4))) & 3;
        u.scale[g] = static_cast<int16_t>((lo | (hi << 4)) - 32);
        u.min[g] = 0;
    }
}

void unpack(const BlockQ4_K& b, Unpacked& u)
{
    for (int e = 0; e < QK_K; ++e)
        u.q[e] = static_cast<int8_t>(nibbleK4(b.qs, e));
    scalesK4(b.scales, u);
}

void unpack(const BlockQ5_K& b, Unpacked& u)
{
    for (int e = 0; e < QK_K; ++e)
        u.q[e] = static_cast<int8_t>(nibbleK4(b.qs, e) | (((b.qh[e % 32] >> (e / 32)) & 1) << 4));
    scalesK4(b.scales, u);
}

void unpack(const BlockQ6_K& b, Unpacked& u)
{
    for (int e = 0; e < QK_K; ++e) {
        const int k = (e % 128) / 32, l = e % 32;
        const uint8_t lowByte = b.ql[64 * (e / 128) + 32 * (k % 2) + l];
        const int low = (k / 2) == 0 ? lowByte & 0x0f : lowByte >> 4;
        const int high = (b.qh[32 * (e / 128) + l] >> (2 * k)) & 3;
        u.q[e] = static_cast<int8_t>(low | (high << 4));
    }
    for (int g = 0; g < QK_K / 16; ++g) {
        u.scale[g] = b.scales[g];
        u.min[g] = 0;
    }
}

void unpack(const BlockIQ4_XS& b, Unpacked& u)
{
    for (int e = 0; e < QK_K; ++e) {
        const uint8_t* qs = b.qs + 16 * (e / 32);
        const int j = e % 32;
        u.q[e] = kValuesIQ4NL[j < 16 ? qs[j] & 0x0f : qs[j - 16] >> 4];
    }
    for (int sb = 0; sb < QK_K / 32; ++sb) {
        const int ls = ((b.scalesL[sb / 2] >> (4 * (sb % 2))) & 0x0f) | (((b.scalesH >> (2 * sb)) & 3) << 4);
        u.scale[2 * sb] = u.scale[2 * sb + 1] = static_cast<int16_t>(ls - 32);
        u.min[2 * sb] = u.min[2 * sb + 1] = 0;
    }
}

int32_t scaledSum(const Unpacked& u, const int8_t* a, int bias)
{
    int32_t sum = 0;
    for (int g = 0; g < QK_K / 16; ++g) {
        int32_t s = 0;
        for (int e = 16 * g; e < 16 * g + 16; ++e)
            s += (u.q[e] - bias) * a[e];
        sum += u.scale[g] * s;
    }
    return sum;
}

int32_t minSum(const Unpacked& u, const int16_t* bsums)
{
    int32_t sum = 0;
    for (int g = 0; g < QK_K / 16; ++g)
        sum += u.min[g] * bsums[g];
    return sum;
}

void lanes8(const Unpacked& u, const int8_t* a, int32_t* lane)
{
    int32_t sums[8] = {};
    for (int c = 0; c < QK_K / 32; ++c) {
        const int8_t* q = u.q + 32 * c;
        const int8_t* y = a + 32 * c;
        for (int l = 0; l < 8; ++l) {
            int32_t s = 0;
            for (int e = 4 * l; e < 4 * l + 4; ++e)
                s += q[e] * y[e];
            sums[l] += u.scale[2 * c + l / 4] * s; // lanes 0-3: first group of 16, 4-7: second
        }
    }
    for (int l = 0; l < 8; ++l)
        lane[l] = sums[l];
}

} // namespace hearth::cpu::kq
