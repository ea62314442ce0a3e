// f32, f16 and bf16 rows (core/quant/float_types.h) seen as blocks of four
// elements, so that they share the quad interface of the quantized types.
#if defined(TYPE_F32)
const uint QK = 4u;
const uint BLOCK_BYTES = 16u;
vec4 quad(uint bb, uint e)
{
    return vec4(af[bb >> 2], af[(bb >> 2) + 1u], af[(bb >> 2) + 2u], af[(bb >> 2) + 3u]);
}
#elif defined(TYPE_F16)
const uint QK = 4u;
const uint BLOCK_BYTES = 8u;
vec4 quad(uint bb, uint e)
{
    return vec4(unpackHalf2x16(ld32(bb)), unpackHalf2x16(ld32(bb + 4u)));
}
#elif defined(TYPE_BF16)
const uint QK = 4u;
const uint BLOCK_BYTES = 8u;
vec4 quad(uint bb, uint e)
{
    return vec4(uintBitsToFloat(ld16(bb) << 16), uintBitsToFloat(ld16(bb + 2u) << 16),
                uintBitsToFloat(ld16(bb + 4u) << 16), uintBitsToFloat(ld16(bb + 6u) << 16));
}
#endif
