// Gemma 2: pre- and post-norms around attention and the feed-forward,
// embeddings scaled by √n_embd, GeGLU, sliding-window attention on every
// other layer, and tanh soft-capping of attention scores and final logits
// (Gemma Team 2024). Norm weights are stored with Gemma's "+1" already
// added by the GGUF converter, so they multiply as stored.
#include "model/blocks.h"

#include <cmath>

namespace hearth {

namespace {

class Gemma2Model final : public Model {
public:
    Gemma2Model(std::shared_ptr<const gguf::File> file, Backend& backend)
        : Model(file, readModelParams(*file, RopeMode::Neox), backend)
    {
        ModelParams& hp = m_params;
        if (hp.slidingWindow == 0)
            hp.slidingWindow = 4096; // Gemma 2's window when the file does not say
        setSlidingPattern(hp, 2);
        if (hp.attnSoftCap == 0.0f && !file->find(hp.arch + ".attn_logit_softcapping"))
            hp.attnSoftCap = 50.0f;
        if (hp.finalSoftCap == 0.0f && !file->find(hp.arch + ".final_logit_softcapping"))
            hp.finalSoftCap = 30.0f;
        // 27B scales queries by 1/√(n_embd/heads), the others by 1/√dk.
        const float d = hp.nLayer == 46 ? static_cast<float>(hp.nEmbd / hp.nHead) : static_cast<float>(hp.headDimK);
        m_queryScale = 1.0f / std::sqrt(d);
        bindEmbeddings();
        for (int64_t i = 0; i < hp.nLayer; ++i) {
            LayerWeights& l = m_weights.layers[static_cast<size_t>(i)];
            l.attnNorm = norm(layerName(i, "attn_norm.weight"), hp.nEmbd);
            l.wq = require(layerName(i, "attn_q.weight"), {hp.nEmbd, hp.heads(i) * hp.headDimK});
            l.wk = require(layerName(i, "attn_k.weight"), {hp.nEmbd, hp.kvWidthK(i)});
            l.wv = require(layerName(i, "attn_v.weight"), {hp.nEmbd, hp.kvWidthV(i)});
            l.wo = require(layerName(i, "attn_output.weight"), {hp.heads(i) * hp.headDimV, hp.nEmbd});
            l.attnPostNorm = norm(layerName(i, "post_attention_norm.weight"), hp.nEmbd);
            l.ffnNorm = norm(layerName(i, "ffn_norm.weight"), hp.nEmbd);
            l.ffnGate = require(layerName(i, "ffn_gate.weight"), {hp.nEmbd, hp.nFf});
            l.ffnUp = require(layerName(i, "ffn_up.weight"), {hp.nEmbd, hp.nFf});
            l.ffnDown = require(layerName(i, "ffn_down.weight"), {hp.nFf, hp.nEmbd});
            l.ffnPostNorm = norm(layerName(i, "post_ffw_norm.weight"), hp.nEmbd);
        }
        checkSupported();
    }

    void forward(Graph& g, const ForwardInputs& in) const override
    {
        const ModelParams& hp = m_params;
        const int64_t dk = hp.headDimK;
        Tensor x = g.getRows(m_weights.tokenEmbd, in.tokens, in.nTokens); // token embeddings [n_embd, n]
        x = g.scale(x, std::sqrt(static_cast<float>(hp.nEmbd)));          // · √n_embd
        for (int64_t il = 0; il < hp.nLayer; ++il) {
            g.setLayer(static_cast<int>(il)); // placement: the ops of layer il
            const LayerWeights& l = m_weights.layers[static_cast<size_t>(il)];
            Tensor h = g.rmsNorm(x, &l.attnNorm, hp.rmsEps); // pre-attention RMS norm
            Tensor q = g.matmul(l.wq, h).splitRows(dk);      // queries [dk, heads, n]
            Tensor k = g.matmul(l.wk, h).splitRows(dk);      // keys [dk, kv_heads, n]
            Tensor v = g.matmul(l.wv, h);                    // values [kv_heads·dv, n]
            q = g.rope(q, in.positions, hp.rope);            // rotate q and k (NeoX halves)
            k = g.rope(k, in.positions, hp.rope);
            q = g.scale(q, m_queryScale);                                               // q / √d
            Tensor a = blocks::attention(g, in, hp, il, q, k, v, 1.0f, hp.attnSoftCap); // softmax(cap(q·kᵀ))·v
            a = blocks::attentionOutput(g, in, hp, il, l.wo, a, x);    // output projection (last layer: wanted rows)
            a = g.rmsNorm(a, &l.attnPostNorm, hp.rmsEps);              // post-norm
            x = g.add(a, x);                                           // residual
            h = g.rmsNorm(x, &l.ffnNorm, hp.rmsEps);                   // pre-FFN RMS norm
            h = g.geglu(g.matmul(l.ffnGate, h), g.matmul(l.ffnUp, h)); // gelu(gate) ⊙ up
            h = g.rmsNorm(g.matmul(l.ffnDown, h), &l.ffnPostNorm, hp.rmsEps); // down projection, post-norm
            x = g.add(h, x);                                                  // residual
        }
        blocks::logits(g, in, hp, m_weights, x); // final norm, LM head, cap · tanh(logits / cap)
    }

private:
    float m_queryScale = 1.0f;
};

} // namespace

std::unique_ptr<Model> createGemma2(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return std::make_unique<Gemma2Model>(std::move(file), backend);
}

} // namespace hearth
