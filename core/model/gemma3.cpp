// Gemma 3: Gemma 2's block with QK norm instead of attention soft-capping,
// five sliding-window layers (rotary base 10 000) for each global layer
// (the file's base and scaling), embeddings scaled by √n_embd and GeGLU
// (Gemma Team 2025). Norm weights are stored with the "+1" already added.
#include "model/blocks.h"

#include <cmath>

namespace hearth {

namespace {

class Gemma3Model final : public Model {
public:
    Gemma3Model(std::shared_ptr<const gguf::File> file, Backend& backend)
        : Model(file, readModelParams(*file, RopeMode::Neox), backend)
    {
        ModelParams& hp = m_params;
        if (hp.slidingWindow > 0) {
            setSlidingPattern(hp, 6);
            hp.ropeFreqBaseSwa = static_cast<float>(file->findFloat(hp.arch + ".rope.freq_base_swa").value_or(10000.0));
            hp.ropeFreqScaleSwa = 1.0f;
            // llama.cpp's sliding-window Gemma 3 graph has no final soft cap,
            // whatever the file says; only the all-global variant applies it.
            hp.finalSoftCap = 0.0f;
        }
        // 27B scales queries by 1/√(n_embd/heads), the others by 1/√dk.
        const float d = hp.nLayer == 62 ? static_cast<float>(hp.nEmbd / hp.nHead) : static_cast<float>(hp.headDimK);
        m_queryScale = 1.0f / std::sqrt(d);
        m_ropeGlobal = hp.rope;
        m_ropeLocal = hp.rope;
        m_ropeLocal.freqBase = hp.ropeFreqBaseSwa;
        m_ropeLocal.freqScale = hp.ropeFreqScaleSwa;
        bindEmbeddings();
        for (int64_t i = 0; i < hp.nLayer; ++i) {
            LayerWeights& l = m_weights.layers[static_cast<size_t>(i)];
            l.attnNorm = norm(layerName(i, "attn_norm.weight"), hp.nEmbd);
            l.wq = require(layerName(i, "attn_q.weight"), {hp.nEmbd, hp.heads(i) * hp.headDimK});
            l.wk = require(layerName(i, "attn_k.weight"), {hp.nEmbd, hp.kvWidthK(i)});
            l.wv = require(layerName(i, "attn_v.weight"), {hp.nEmbd, hp.kvWidthV(i)});
            l.qNorm = norm(layerName(i, "attn_q_norm.weight"), hp.headDimK);
            l.kNorm = norm(layerName(i, "attn_k_norm.weight"), hp.headDimK);
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
            const RopeParams rope = layerRope(il, in.nCtx);
            Tensor h = g.rmsNorm(x, &l.attnNorm, hp.rmsEps);                   // pre-attention RMS norm
            Tensor q = g.matmul(l.wq, h).splitRows(dk);                        // queries [dk, heads, n]
            Tensor k = g.matmul(l.wk, h).splitRows(dk);                        // keys [dk, kv_heads, n]
            Tensor v = g.matmul(l.wv, h);                                      // values [kv_heads·dv, n]
            q = g.rope(g.rmsNorm(q, &l.qNorm, hp.rmsEps), in.positions, rope); // QK norm, then rotate
            k = g.rope(g.rmsNorm(k, &l.kNorm, hp.rmsEps), in.positions, rope); // (local or global base)
            q = g.scale(q, m_queryScale);                                      // q / √d
            Tensor a = blocks::attention(g, in, hp, il, q, k, v, 1.0f);        // softmax(q·kᵀ)·v, windowed
            a = blocks::attentionOutput(g, in, hp, il, l.wo, a, x);    // output projection (last layer: wanted rows)
            a = g.rmsNorm(a, &l.attnPostNorm, hp.rmsEps);              // post-norm
            x = g.add(a, x);                                           // residual
            h = g.rmsNorm(x, &l.ffnNorm, hp.rmsEps);                   // pre-FFN RMS norm
            h = g.geglu(g.matmul(l.ffnGate, h), g.matmul(l.ffnUp, h)); // gelu(gate) ⊙ up
            h = g.rmsNorm(g.matmul(l.ffnDown, h), &l.ffnPostNorm, hp.rmsEps); // down projection, post-norm
            x = g.add(h, x);                                                  // residual
        }
        blocks::logits(g, in, hp, m_weights, x); // final norm, LM head
    }

    RopeParams layerRope(int64_t layer, int64_t /*nCtx*/) const override
    {
        return m_params.isSwa(layer) ? m_ropeLocal : m_ropeGlobal;
    }

private:
    float m_queryScale = 1.0f;
    RopeParams m_ropeGlobal, m_ropeLocal;
};

} // namespace

std::unique_ptr<Model> createGemma3(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return std::make_unique<Gemma3Model>(std::move(file), backend);
}

} // namespace hearth
