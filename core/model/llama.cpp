// The Llama family (Llama 2/3, Mistral, SmolLM2, TinyLlama, ...): pre-norm
// decoder blocks with RMSNorm, rotary embeddings on adjacent pairs, grouped
// query attention and a SwiGLU feed-forward (Touvron et al. 2023).
#include "model/blocks.h"

#include <cmath>

namespace hearth {

namespace {

class LlamaModel final : public Model {
public:
    LlamaModel(std::shared_ptr<const gguf::File> file, Backend& backend)
        : Model(file, readModelParams(*file, RopeMode::Normal), backend)
    {
        bindEmbeddings();
        const ModelParams& hp = m_params;
        m_weights.ropeFreqs = norm("rope_freqs.weight", hp.rope.nRot / 2, /*required=*/false);
        for (int64_t i = 0; i < hp.nLayer; ++i) {
            LayerWeights& l = m_weights.layers[static_cast<size_t>(i)];
            const int64_t q = hp.heads(i) * hp.headDimK, k = hp.kvWidthK(i), v = hp.kvWidthV(i);
            l.attnNorm = norm(layerName(i, "attn_norm.weight"), hp.nEmbd);
            l.wq = require(layerName(i, "attn_q.weight"), {hp.nEmbd, q});
            l.wk = require(layerName(i, "attn_k.weight"), {hp.nEmbd, k});
            l.wv = require(layerName(i, "attn_v.weight"), {hp.nEmbd, v});
            l.wo = require(layerName(i, "attn_output.weight"), {hp.heads(i) * hp.headDimV, hp.nEmbd});
            l.ffnNorm = norm(layerName(i, "ffn_norm.weight"), hp.nEmbd);
            l.ffnGate = require(layerName(i, "ffn_gate.weight"), {hp.nEmbd, hp.nFf});
            l.ffnUp = require(layerName(i, "ffn_up.weight"), {hp.nEmbd, hp.nFf});
            l.ffnDown = require(layerName(i, "ffn_down.weight"), {hp.nFf, hp.nEmbd});
        }
        checkSupported();
    }

    void forward(Graph& g, const ForwardInputs& in) const override
    {
        const ModelParams& hp = m_params;
        const int64_t dk = hp.headDimK;
        const float kqScale = 1.0f / std::sqrt(static_cast<float>(dk));
        Tensor x = g.getRows(m_weights.tokenEmbd, in.tokens, in.nTokens); // token embeddings [n_embd, n]
        for (int64_t il = 0; il < hp.nLayer; ++il) {
            g.setLayer(static_cast<int>(il)); // placement: the ops of layer il
            const LayerWeights& l = m_weights.layers[static_cast<size_t>(il)];
            Tensor h = g.rmsNorm(x, &l.attnNorm, hp.rmsEps); // pre-attention RMS norm
            Tensor q = g.matmul(l.wq, h).splitRows(dk);      // queries [dk, heads, n]
            Tensor k = g.matmul(l.wk, h).splitRows(dk);      // keys [dk, kv_heads, n]
            Tensor v = g.matmul(l.wv, h);                    // values [kv_heads·dv, n]
            const RopeParams rope = layerRope(il, in.nCtx);
            q = g.rope(q, in.positions, rope); // rotate q and k by position
            k = g.rope(k, in.positions, rope);
            Tensor a = blocks::attention(g, in, hp, il, q, k, v, kqScale); // softmax(q·kᵀ/√dk)·v
            a = blocks::attentionOutput(g, in, hp, il, l.wo, a, x);     // output projection (last layer: wanted rows)
            x = g.add(a, x);                                            // + residual
            h = g.rmsNorm(x, &l.ffnNorm, hp.rmsEps);                    // pre-FFN RMS norm
            h = g.swiglu(g.matmul(l.ffnGate, h), g.matmul(l.ffnUp, h)); // silu(gate) ⊙ up
            x = g.add(g.matmul(l.ffnDown, h), x);                       // down projection + residual
        }
        blocks::logits(g, in, hp, m_weights, x);
    }

    RopeParams layerRope(int64_t /*layer*/, int64_t /*nCtx*/) const override
    {
        RopeParams r = m_params.rope; // llama3 divides some frequencies
        r.freqFactors = reinterpret_cast<const float*>(m_weights.ropeFreqs.data);
        return r;
    }
};

} // namespace

std::unique_ptr<Model> createLlama(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return std::make_unique<LlamaModel>(std::move(file), backend);
}

} // namespace hearth
