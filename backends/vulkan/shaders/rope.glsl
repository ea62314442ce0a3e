// Rotary embedding angles as ggml's rope_ext computes them (YaRN
// included): cos and sin, times the magnitude scale, of dimension pair i0
// (even) at position pos. corr holds YaRN's correction dims (host side).
struct RopeArgs {
    uint nRot, mode;
    float freqBase, freqScale, extFactor, attnFactor;
    vec2 corr;
};

vec2 ropeAngle(RopeArgs r, float pos, uint i0, float factor)
{
    const float theta = pos * pow(r.freqBase, -float(i0) / float(r.nRot));
    const float extrap = theta / factor;
    float t = r.freqScale * extrap;
    float mscale = r.attnFactor;
    if (r.extFactor != 0.0) {
        const float y = (float(i0 / 2u) - r.corr.x) / max(0.001, r.corr.y - r.corr.x);
        const float mix = (1.0 - min(1.0, max(0.0, y))) * r.extFactor;
        t = t * (1.0 - mix) + extrap * mix;
        mscale *= 1.0 + 0.1 * log(1.0 / r.freqScale);
    }
    return vec2(cos(t), sin(t)) * mscale;
}
