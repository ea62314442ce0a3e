// Shared by every Hearth compute shader: the descriptor layout (one set of
// eight storage buffers, see backends/vulkan/recorder.h), 16-bit loads of
// packed data, and the workgroup index of a 2-D grid (a dispatch of more
// than 65535 groups is folded into y).
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_control_flow_attributes : enable

// Byte-addressed views of the first source (weights, KV rows): 16-bit
// words, so 2-byte-aligned blocks (q4_0's 18 bytes) read without waste.
layout(std430, set = 0, binding = 0) readonly buffer SrcA16 { uint16_t a16[]; };
layout(std430, set = 0, binding = 0) readonly buffer SrcAF { float af[]; };

uint workgroupIndex()
{
    return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
}

// Loads from the A view at a byte offset (2-aligned).
uint ld16(uint byteOff)
{
    return uint(a16[byteOff >> 1]);
}

uint ld8(uint byteOff)
{
    return (ld16(byteOff & ~1u) >> ((byteOff & 1u) * 8u)) & 0xffu;
}

uint ld32(uint byteOff)
{
    return ld16(byteOff) | (ld16(byteOff + 2u) << 16);
}

float ldHalf(uint byteOff)
{
    return unpackHalf2x16(ld16(byteOff)).x;
}

// The four bytes of w as unsigned values.
uvec4 bytesOf(uint w)
{
    return uvec4(w & 0xffu, (w >> 8) & 0xffu, (w >> 16) & 0xffu, w >> 24);
}

// ... as signed values.
vec4 signedBytesOf(uint w)
{
    return vec4(bitfieldExtract(int(w), 0, 8), bitfieldExtract(int(w), 8, 8), bitfieldExtract(int(w), 16, 8),
                bitfieldExtract(int(w), 24, 8));
}
