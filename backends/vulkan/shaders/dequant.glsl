// The weight type of this variant (-DTYPE_<NAME>): QK elements per block
// of BLOCK_BYTES bytes, and quad(bb, e), elements e..e+3 of the block at
// byte bb of binding 0. One include per format family of core/quant.
#include "blocks_float.glsl"
#include "blocks_legacy.glsl"
#include "blocks_k.glsl"

// Elements k..k+3 (k % 4 == 0) of the row that starts at byte rowByte.
vec4 rowQuad(uint rowByte, uint k)
{
    return quad(rowByte + (k / QK) * BLOCK_BYTES, k % QK);
}
