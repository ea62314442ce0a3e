// KV cache rows (core/kv/kv_cache.h) in f16, f32 or q8_0 (-DKV_F16,
// -DKV_F32, -DKV_Q8_0): element i of the row at byte rb of the K (binding
// 1) or V (binding 2) buffer, and stores into binding 3.
#if defined(KV_READ)
layout(std430, set = 0, binding = 1) readonly buffer K16 { uint16_t k16[]; };
layout(std430, set = 0, binding = 1) readonly buffer KF { float kf[]; };
layout(std430, set = 0, binding = 2) readonly buffer V16 { uint16_t v16[]; };
layout(std430, set = 0, binding = 2) readonly buffer VF { float vf[]; };

#if defined(KV_F16)
#define KV_LOAD(view16, viewF, rb, i) unpackHalf2x16(uint(view16[((rb) >> 1) + (i)])).x
#elif defined(KV_F32)
#define KV_LOAD(view16, viewF, rb, i) viewF[((rb) >> 2) + (i)]
#else
float q8At(uint w, uint byteOff)
{
    return float(bitfieldExtract(int(w), int((byteOff & 1u) * 8u), 8));
}
#define KV_LOAD(view16, viewF, rb, i)                                                                                 \
    (unpackHalf2x16(uint(view16[((rb) + ((i) / 32u) * 34u) >> 1])).x *                                               \
     q8At(uint(view16[((rb) + ((i) / 32u) * 34u + 2u + (i) % 32u) >> 1]), (rb) + ((i) / 32u) * 34u + 2u + (i) % 32u))
#endif
float loadK(uint rb, uint i)
{
    return KV_LOAD(k16, kf, rb, i);
}
float loadV(uint rb, uint i)
{
    return KV_LOAD(v16, vf, rb, i);
}
#endif

#if defined(KV_WRITE)
layout(std430, set = 0, binding = 3) buffer D16 { uint16_t d16[]; };
layout(std430, set = 0, binding = 3) buffer DF { float df[]; };

#if defined(KV_Q8_0)
const uint KV_BLOCK = 32u;
#else
const uint KV_BLOCK = 1u;
#endif
// Stores block `blk` (KV_BLOCK values from vals[0..]) of the row at byte rb.
void storeBlock(uint rb, uint blk, float vals[KV_BLOCK])
{
#if defined(KV_F16)
    d16[(rb >> 1) + blk] = uint16_t(packHalf2x16(vec2(vals[0], 0.0)));
#elif defined(KV_F32)
    df[(rb >> 2) + blk] = vals[0];
#else
    float amax = 0.0;
    [[unroll]] for (uint i = 0; i < 32u; ++i)
        amax = max(amax, abs(vals[i]));
    const float dq = amax / 127.0;
    const float id = dq != 0.0 ? 1.0 / dq : 0.0;
    const uint bb = rb + blk * 34u;
    d16[bb >> 1] = uint16_t(packHalf2x16(vec2(dq, 0.0)));
    [[unroll]] for (uint i = 0; i < 32u; i += 2u) {
        const uint lo = uint(int(round(vals[i] * id))) & 0xffu;
        const uint hi = uint(int(round(vals[i + 1u] * id))) & 0xffu;
        d16[(bb + 2u + i) >> 1] = uint16_t(lo | (hi << 8));
    }
#endif
}
#endif
