#include "model/blocks.h"

namespace hearth::blocks {

QueryKeyValue projectQkv(Graph& g, const ModelParams& hp, const LayerWeights& l, const Tensor& h)
{
    const auto project = [&](const Tensor& w, const Tensor& bias) {
        Tensor t = g.matmul(w, h);
        return bias.data ? g.add(t, bias) : t;
    };
    QueryKeyValue out{project(l.wq, l.bq).splitRows(hp.headDimK), project(l.wk, l.bk).splitRows(hp.headDimK),
                      project(l.wv, l.bv)};
    if (l.qNorm.data) {
        out.q = g.rmsNorm(out.q, &l.qNorm, hp.rmsEps);
        out.k = g.rmsNorm(out.k, &l.kNorm, hp.rmsEps);
    }
    return out;
}

Tensor feedForward(Graph& g, const LayerWeights& l, const Tensor& h, Gate gate)
{
    const Tensor gated = g.matmul(l.ffnGate, h);
    const Tensor up = g.matmul(l.ffnUp, h);
    return g.matmul(l.ffnDown, gate == Gate::Silu ? g.swiglu(gated, up) : g.geglu(gated, up));
}

Tensor attention(Graph& g, const ForwardInputs& in, const ModelParams& hp, int64_t layer, const Tensor& q,
                 const Tensor& k, const Tensor& v, float scale, float softCap)
{
    const auto il = static_cast<size_t>(layer);
    const Tensor& kc = in.kCache[il];
    const Tensor& vc = in.vCache[il];
    g.storeRows(kc, k.reshaped(k.ne[0] * k.ne[1], k.ne[2]), in.cells);
    g.storeRows(vc, v, in.cells);
    AttentionParams p;
    p.nHead = hp.heads(layer);
    p.nHeadKv = hp.kvHeads(layer);
    p.headDimK = static_cast<int>(hp.headDimK);
    p.headDimV = static_cast<int>(hp.headDimV);
    p.scale = scale;
    p.softCap = softCap;
    p.window = hp.isSwa(layer) ? hp.slidingWindow : 0;
    p.mask = in.mask;
    return g.attention(q, kc, vc, p);
}

Tensor attentionOutput(Graph& g, const ForwardInputs& in, const ModelParams& hp, int64_t layer, const Tensor& wo,
                       const Tensor& a, Tensor& residual)
{
    Tensor out = g.matmul(wo, a);
    if (layer == hp.nLayer - 1 && in.outputRows) {
        out = g.selectRows(out, in.outputRows, in.nOutputs);
        residual = g.selectRows(residual, in.outputRows, in.nOutputs);
    }
    return out;
}

void logits(Graph& g, const ForwardInputs& in, const ModelParams& hp, const ModelWeights& w, Tensor x)
{
    g.setLayer(static_cast<int>(hp.nLayer));    // placement: the output layer
    x = g.rmsNorm(x, &w.outputNorm, hp.rmsEps); // final RMS norm
    g.matmulInto(w.output, x, in.logits);       // LM head
    if (hp.finalSoftCap > 0.0f)
        g.softCapInPlace(in.logits, hp.finalSoftCap); // cap · tanh(logits / cap)
}

} // namespace hearth::blocks
