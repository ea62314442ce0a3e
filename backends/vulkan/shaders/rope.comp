#version 450
// dst [d, heads, n] = src rotated by the token positions (mode 0: adjacent
// pairs, 1: NeoX halves); dimensions past nRot are copied. One thread per
// pair of values.
#include "common.glsl"
#include "rope.glsl"

#define WG 64
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };
layout(std430, set = 0, binding = 4) readonly buffer Pos { int pos[]; };
layout(std430, set = 0, binding = 5) readonly buffer Factors { float factors[]; };

layout(push_constant) uniform Params {
    uint dim, heads, n;
    uint xOff, xNb1, xNb2;
    uint dOff, dNb1, dNb2;
    uint posOff, factorsOff, hasFactors;
    uint nRot, mode;
    float freqBase, freqScale, extFactor, attnFactor, corr0, corr1;
} p;

void main()
{
    const uint pairs = p.dim / 2u;
    const uint g = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * WG;
    if (g >= pairs * p.heads * p.n)
        return;
    const uint i = g % pairs, h = (g / pairs) % p.heads, t = g / (pairs * p.heads);
    const uint x0 = p.xOff + h * p.xNb1 + t * p.xNb2, d0 = p.dOff + h * p.dNb1 + t * p.dNb2;
    const uint i0 = 2u * i;
    if (i0 >= p.nRot) {
        d[d0 + i0] = af[x0 + i0];
        d[d0 + i0 + 1u] = af[x0 + i0 + 1u];
        return;
    }
    RopeArgs r = RopeArgs(p.nRot, p.mode, p.freqBase, p.freqScale, p.extFactor, p.attnFactor, vec2(p.corr0, p.corr1));
    const float factor = p.hasFactors != 0u ? factors[p.factorsOff + i] : 1.0;
    const vec2 cs = ropeAngle(r, float(pos[p.posOff + t]), i0, factor);
    const uint a = p.mode == 0u ? i0 : i, b = p.mode == 0u ? i0 + 1u : i + p.nRot / 2u;
    const float xa = af[x0 + a], xb = af[x0 + b];
    d[d0 + a] = xa * cs.x - xb * cs.y;
    d[d0 + b] = xa * cs.y + xb * cs.x;
}
