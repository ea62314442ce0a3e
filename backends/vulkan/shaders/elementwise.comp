#version 450
// Element-wise ops over rows of f32 activations (MODE, a push constant):
//   0 add, 1 mul (y is a row broadcast when its ne1 is 0), 2 scale,
//   3 soft cap (cap · tanh(x / cap)), 4 SwiGLU (silu(x) · y),
//   5 GeGLU (gelu_tanh(x) · y, through f16 as ggml's table does).
// Threads cover ne0 in the x dimension of the grid, rows in y (and z).
#include "common.glsl"
#include "rows.glsl"

#define WG 64
layout(local_size_x = WG) in;
layout(std430, set = 0, binding = 1) readonly buffer SrcY { float y[]; };
layout(std430, set = 0, binding = 3) writeonly buffer Dst { float d[]; };

layout(push_constant) uniform Params {
    uint n, ne1, rows, mode;
    uint xOff, xNb1, xNb2;
    uint yOff, yNb1, yNb2, yBroadcast;
    uint dOff, dNb1, dNb2;
    float s;
} p;

float f16Round(float v)
{
    return unpackHalf2x16(packHalf2x16(vec2(v, 0.0))).x;
}

float gelu(float v)
{
    if (v <= -10.0)
        return 0.0;
    if (v >= 10.0)
        return v;
    const float x = f16Round(v);
    const float g = 0.5 * x * (1.0 + tanh(0.79788456080286535588 * x * fma(0.044715 * x, x, 1.0)));
    return f16Round(g);
}

void main()
{
    const uint i = gl_GlobalInvocationID.x;
    const uint r = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    if (i >= p.n || r >= p.rows)
        return;
    const float x = af[rowStart(r, p.ne1, p.xOff, p.xNb1, p.xNb2) + i];
    const uint yi = (p.yBroadcast != 0u ? p.yOff : rowStart(r, p.ne1, p.yOff, p.yNb1, p.yNb2)) + i;
    float v;
    switch (p.mode) {
    case 0u: v = x + y[yi]; break;
    case 1u: v = x * y[yi]; break;
    case 2u: v = x * p.s; break;
    case 3u: v = tanh(x * (1.0 / p.s)) * p.s; break;
    case 4u: v = x / (1.0 + exp(-x)) * y[yi]; break;
    default: v = gelu(x) * y[yi]; break;
    }
    d[rowStart(r, p.ne1, p.dOff, p.dNb1, p.dNb2) + i] = v;
}
