// Phi-3 / Phi-3.5 / Phi-4-mini: the Llama block with fused projections (one
// qkv matrix, one gate+up matrix), NeoX rotary layout with optional
// "longrope" per-dimension factors, queries scaled by 1/√dk before q·k.
// Like llama.cpp, sliding-window metadata is not applied (the converters
// do not describe Phi-3's windows reliably).
#include "model/blocks.h"

#include <cmath>

namespace hearth {

namespace {

class Phi3Model final : public Model {
public:
    Phi3Model(std::shared_ptr<const gguf::File> file, Backend& backend)
        : Model(file, readModelParams(*file, RopeMode::Neox), backend)
    {
        ModelParams& hp = m_params;
        hp.slidingWindow = 0;
        bindEmbeddings();
        m_weights.ropeLong = norm("rope_factors_long.weight", hp.rope.nRot / 2, /*required=*/false);
        m_weights.ropeShort = norm("rope_factors_short.weight", hp.rope.nRot / 2, /*required=*/false);
        for (int64_t i = 0; i < hp.nLayer; ++i) {
            LayerWeights& l = m_weights.layers[static_cast<size_t>(i)];
            const int64_t q = hp.heads(i) * hp.headDimK, k = hp.kvWidthK(i), v = hp.kvWidthV(i);
            l.attnNorm = norm(layerName(i, "attn_norm.weight"), hp.nEmbd);
            l.wqkv = optional(layerName(i, "attn_qkv.weight"), {hp.nEmbd, q + k + v});
            if (!l.wqkv.data) {
                l.wq = require(layerName(i, "attn_q.weight"), {hp.nEmbd, q});
                l.wk = require(layerName(i, "attn_k.weight"), {hp.nEmbd, k});
                l.wv = require(layerName(i, "attn_v.weight"), {hp.nEmbd, v});
            }
            l.wo = require(layerName(i, "attn_output.weight"), {hp.heads(i) * hp.headDimV, hp.nEmbd});
            l.ffnNorm = norm(layerName(i, "ffn_norm.weight"), hp.nEmbd);
            l.ffnUp = require(layerName(i, "ffn_up.weight"), {hp.nEmbd, 2 * hp.nFf});
            l.ffnDown = require(layerName(i, "ffn_down.weight"), {hp.nFf, hp.nEmbd});
        }
        checkSupported();
    }

    void forward(Graph& g, const ForwardInputs& in) const override
    {
        const ModelParams& hp = m_params;
        const int64_t dk = hp.headDimK, nFf = hp.nFf;
        const RopeParams rope = layerRope(0, in.nCtx);
        const float qScale = 1.0f / std::sqrt(static_cast<float>(dk));
        Tensor x = g.getRows(m_weights.tokenEmbd, in.tokens, in.nTokens); // token embeddings [n_embd, n]
        for (int64_t il = 0; il < hp.nLayer; ++il) {
            g.setLayer(static_cast<int>(il)); // placement: the ops of layer il
            const LayerWeights& l = m_weights.layers[static_cast<size_t>(il)];
            const int64_t nq = hp.heads(il) * dk, nk = hp.kvWidthK(il), nv = hp.kvWidthV(il);
            Tensor h = g.rmsNorm(x, &l.attnNorm, hp.rmsEps); // pre-attention RMS norm
            Tensor q, k, v;
            if (l.wqkv.data) {
                const Tensor qkv = g.matmul(l.wqkv, h); // fused [q | k | v] projection
                q = qkv.columns(0, nq);
                k = qkv.columns(nq, nk);
                v = qkv.columns(nq + nk, nv);
            } else {
                q = g.matmul(l.wq, h);
                k = g.matmul(l.wk, h);
                v = g.matmul(l.wv, h);
            }
            q = g.rope(q.splitRows(dk), in.positions, rope); // rotate q and k (NeoX halves)
            k = g.rope(k.splitRows(dk), in.positions, rope);
            q = g.scale(q, qScale);                                     // q / √dk
            Tensor a = blocks::attention(g, in, hp, il, q, k, v, 1.0f); // softmax(q·kᵀ)·v
            a = blocks::attentionOutput(g, in, hp, il, l.wo, a, x);     // output projection (last layer: wanted rows)
            x = g.add(a, x);                                            // + residual
            h = g.rmsNorm(x, &l.ffnNorm, hp.rmsEps);                    // pre-FFN RMS norm
            const Tensor gu = g.matmul(l.ffnUp, h);                     // fused [gate | up]
            h = g.swiglu(gu.columns(0, nFf), gu.columns(nFf, nFf));     // silu(gate) ⊙ up
            x = g.add(g.matmul(l.ffnDown, h), x);                       // down projection + residual
        }
        blocks::logits(g, in, hp, m_weights, x);
    }

    RopeParams layerRope(int64_t /*layer*/, int64_t nCtx) const override
    {
        RopeParams r = m_params.rope; // long factors beyond the original context
        const Tensor& factors = nCtx > r.nCtxOrig ? m_weights.ropeLong : m_weights.ropeShort;
        r.freqFactors = reinterpret_cast<const float*>(factors.data);
        return r;
    }
};

} // namespace

std::unique_ptr<Model> createPhi3(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return std::make_unique<Phi3Model>(std::move(file), backend);
}

} // namespace hearth
