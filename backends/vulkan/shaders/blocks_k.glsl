// The K-quant super-blocks of 256 elements (core/quant/k_quants.h, whose
// header gives each element's place) and iq4_xs (core/quant/iq4.h).
// quad(bb, e) dequantizes elements e..e+3 (e % 4 == 0) of the super-block
// at byte bb: four consecutive elements always share their sub-block scale
// and sit in four consecutive bytes.
#if defined(TYPE_Q2_K) || defined(TYPE_Q3_K) || defined(TYPE_Q4_K) || defined(TYPE_Q5_K) || defined(TYPE_Q6_K) ||        \
    defined(TYPE_IQ4_XS)
const uint QK = 256u;
#endif

#if defined(TYPE_Q4_K) || defined(TYPE_Q5_K)
// Sub-block j's 6-bit scale (x) and min (y) from the 12 packed bytes at sc.
uvec2 scaleMinK4(uint sc, uint j)
{
    if (j < 4u)
        return uvec2(ld8(sc + j) & 63u, ld8(sc + j + 4u) & 63u);
    const uint hi = ld8(sc + j + 4u);
    return uvec2((hi & 0x0fu) | ((ld8(sc + j - 4u) >> 6) << 4), (hi >> 4) | ((ld8(sc + j) >> 6) << 4));
}
#endif

#if defined(TYPE_Q2_K)
const uint BLOCK_BYTES = 84u;
vec4 quad(uint bb, uint e)
{
    const uint sc = ld8(bb + e / 16u);
    const uint shift = 2u * ((e % 128u) / 32u);
    const uvec4 q = bytesOf((ld32(bb + 16u + 32u * (e / 128u) + e % 32u) >> shift) & 0x03030303u);
    return ldHalf(bb + 80u) * float(sc & 15u) * vec4(q) - ldHalf(bb + 82u) * float(sc >> 4);
}
#elif defined(TYPE_Q3_K)
const uint BLOCK_BYTES = 110u;
vec4 quad(uint bb, uint e)
{
    const uint s = e / 16u;
    const uint lo = (ld8(bb + 96u + s % 8u) >> (s < 8u ? 0u : 4u)) & 15u;
    const uint hi = (ld8(bb + 104u + s % 4u) >> (2u * (s / 4u))) & 3u;
    const float d = ldHalf(bb + 108u) * (float(lo | (hi << 4)) - 32.0);
    const uint shift = 2u * ((e % 128u) / 32u);
    const vec4 q = vec4(bytesOf((ld32(bb + 32u + 32u * (e / 128u) + e % 32u) >> shift) & 0x03030303u));
    const vec4 h = vec4(bytesOf((ld32(bb + e % 32u) >> (e / 32u)) & 0x01010101u));
    return d * (q - 4.0 * (1.0 - h));
}
#elif defined(TYPE_Q4_K)
const uint BLOCK_BYTES = 144u;
vec4 quad(uint bb, uint e)
{
    const uvec2 sm = scaleMinK4(bb + 4u, e / 32u);
    const uint w = ld32(bb + 16u + 32u * (e / 64u) + e % 32u);
    const uvec4 q = bytesOf(e % 64u < 32u ? w & 0x0f0f0f0fu : (w >> 4) & 0x0f0f0f0fu);
    return ldHalf(bb) * float(sm.x) * vec4(q) - ldHalf(bb + 2u) * float(sm.y);
}
#elif defined(TYPE_Q5_K)
const uint BLOCK_BYTES = 176u;
vec4 quad(uint bb, uint e)
{
    const uvec2 sm = scaleMinK4(bb + 4u, e / 32u);
    const uint w = ld32(bb + 48u + 32u * (e / 64u) + e % 32u);
    const uvec4 lo = bytesOf(e % 64u < 32u ? w & 0x0f0f0f0fu : (w >> 4) & 0x0f0f0f0fu);
    const uvec4 hi = bytesOf((ld32(bb + 16u + e % 32u) >> (e / 32u)) & 0x01010101u) << 4;
    return ldHalf(bb) * float(sm.x) * vec4(lo | hi) - ldHalf(bb + 2u) * float(sm.y);
}
#elif defined(TYPE_Q6_K)
const uint BLOCK_BYTES = 210u;
vec4 quad(uint bb, uint e)
{
    const uint k = (e % 128u) / 32u, l = e % 32u;
    const uint w = ld32(bb + 64u * (e / 128u) + 32u * (k % 2u) + l);
    const uvec4 lo = bytesOf((w >> (4u * (k / 2u))) & 0x0f0f0f0fu);
    const uvec4 hi = bytesOf((ld32(bb + 128u + 32u * (e / 128u) + l) >> (2u * k)) & 0x03030303u) << 4;
    const float d = ldHalf(bb + 208u) * float(bitfieldExtract(int(ld8(bb + 192u + e / 16u)), 0, 8));
    return d * (vec4(lo | hi) - 32.0);
}
#elif defined(TYPE_IQ4_XS)
#include "iq4_values.glsl"
const uint BLOCK_BYTES = 136u;
vec4 quad(uint bb, uint e)
{
    const uint b = e / 32u, i = e % 32u;
    const uint ls = ((ld8(bb + 4u + b / 2u) >> (4u * (b % 2u))) & 15u) | (((ld16(bb + 2u) >> (2u * b)) & 3u) << 4);
    const uint w = ld32(bb + 8u + 16u * b + (i & 15u));
    const uvec4 q = bytesOf(i < 16u ? w & 0x0f0f0f0fu : (w >> 4) & 0x0f0f0f0fu);
    const float d = ldHalf(bb) * (float(ls) - 32.0);
    return d * vec4(kValuesIQ4NL[q.x], kValuesIQ4NL[q.y], kValuesIQ4NL[q.z], kValuesIQ4NL[q.w]);
}
#endif
