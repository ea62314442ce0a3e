// The 32-element formats of core/quant/legacy.h and iq4_nl (core/quant/iq4.h):
// byte j of qs holds element j (low nibble) and j + 16 (high nibble); 5th
// bits in the little-endian word qh. quad(bb, e) dequantizes elements
// e..e+3 (e % 4 == 0) of the block at byte bb.
#if defined(TYPE_Q4_0) || defined(TYPE_Q4_1) || defined(TYPE_Q5_0) || defined(TYPE_Q5_1) || defined(TYPE_IQ4_NL)
const uint QK = 32u;
// The four 4-bit values of elements e..e+3 from the 16 bytes at qs.
uvec4 nibbles(uint qs, uint e)
{
    const uint w = ld32(qs + (e & 15u));
    return e < 16u ? bytesOf(w & 0x0f0f0f0fu) : bytesOf((w >> 4) & 0x0f0f0f0fu);
}
#endif

#if defined(TYPE_Q5_0) || defined(TYPE_Q5_1)
uvec4 fifthBits(uint qh, uint e)
{
    const uint h = ld32(qh) >> e;
    return uvec4(h & 1u, (h >> 1) & 1u, (h >> 2) & 1u, (h >> 3) & 1u) << 4;
}
#endif

#if defined(TYPE_Q4_0)
const uint BLOCK_BYTES = 18u;
vec4 quad(uint bb, uint e)
{
    return ldHalf(bb) * (vec4(nibbles(bb + 2u, e)) - 8.0);
}
#elif defined(TYPE_Q4_1)
#define HAS_BLOCK_MIN
const uint BLOCK_BYTES = 20u;
float blockMin(uint bb)
{
    return ldHalf(bb + 2u);
}
vec4 quad(uint bb, uint e)
{
    return ldHalf(bb) * vec4(nibbles(bb + 4u, e)) + ldHalf(bb + 2u);
}
#elif defined(TYPE_Q5_0)
const uint BLOCK_BYTES = 22u;
vec4 quad(uint bb, uint e)
{
    return ldHalf(bb) * (vec4(nibbles(bb + 6u, e) | fifthBits(bb + 2u, e)) - 16.0);
}
#elif defined(TYPE_Q5_1)
#define HAS_BLOCK_MIN
const uint BLOCK_BYTES = 24u;
float blockMin(uint bb)
{
    return ldHalf(bb + 2u);
}
vec4 quad(uint bb, uint e)
{
    return ldHalf(bb) * vec4(nibbles(bb + 8u, e) | fifthBits(bb + 4u, e)) + ldHalf(bb + 2u);
}
#elif defined(TYPE_Q8_0)
const uint QK = 32u;
const uint BLOCK_BYTES = 34u;
vec4 quad(uint bb, uint e)
{
    return ldHalf(bb) * signedBytesOf(ld32(bb + 2u + e));
}
#elif defined(TYPE_IQ4_NL)
#include "iq4_values.glsl"
const uint BLOCK_BYTES = 18u;
vec4 quad(uint bb, uint e)
{
    const uvec4 q = nibbles(bb + 2u, e);
    return ldHalf(bb) * vec4(kValuesIQ4NL[q.x], kValuesIQ4NL[q.y], kValuesIQ4NL[q.z], kValuesIQ4NL[q.w]);
}
#endif
