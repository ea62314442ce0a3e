#include "model/blocks.h"

namespace hearth::blocks {

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
