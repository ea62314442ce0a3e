// Gemma 2: pre- and post-norms around attention and the feed-forward,
// embeddings scaled by √n_embd, GeGLU, sliding-window attention on every
// other layer, and tanh soft-capping of attention scores and final logits
// (Gemma Team 2024). Norm weights are stored with Gemma's "+1" already
// added by the GGUF converter, so they multiply as stored. The block is
// Gemma 3's too (gemma3.cpp: GemmaVariant).
#include "model/blocks.h"
#include "model/decoders.h"

#include <cmath>

namespace hearth {

namespace {

class GemmaDecoder final : public Model {
public:
    GemmaDecoder(std::shared_ptr<const gguf::File> file, ModelParams params, Backend& backend,
                 const GemmaVariant& variant)
        : Model(file, std::move(params), backend), m_ropeLocal(variant.ropeLocal)
    {
        const ModelParams& hp = m_params;
        const bool is27B = hp.nLayer == variant.layersOf27B;
        const float d = is27B ? static_cast<float>(hp.nEmbd / hp.nHead) : static_cast<float>(hp.headDimK);
        m_queryScale = 1.0f / std::sqrt(d);
        bindEmbeddings();
        bindLayers({.qkNorm = variant.qkNorm, .postNorms = true});
        checkSupported();
    }

    void forward(Graph& g, const ForwardInputs& in) const override
    {
        const ModelParams& hp = m_params;
        Tensor x = g.getRows(m_weights.tokenEmbd, in.tokens, in.nTokens); // token embeddings [n_embd, n]
        x = g.scale(x, std::sqrt(static_cast<float>(hp.nEmbd)));          // · √n_embd
        for (int64_t il = 0; il < hp.nLayer; ++il) {
            g.setLayer(static_cast<int>(il)); // placement: the ops of layer il
            const LayerWeights& l = m_weights.layers[static_cast<size_t>(il)];
            Tensor h = g.rmsNorm(x, &l.attnNorm, hp.rmsEps);  // pre-attention RMS norm
            auto [q, k, v] = blocks::projectQkv(g, hp, l, h); // q, k, v (+ QK norm: Gemma 3)
            const RopeParams rope = layerRope(il, in.nCtx);   // rotate q and k (local or global base)
            q = g.rope(q, in.positions, rope);
            k = g.rope(k, in.positions, rope);
            q = g.scale(q, m_queryScale);                                               // q / √d
            Tensor a = blocks::attention(g, in, hp, il, q, k, v, 1.0f, hp.attnSoftCap); // softmax(cap(q·kᵀ))·v
            a = blocks::attentionOutput(g, in, hp, il, l.wo, a, x); // output projection (last layer: wanted rows)
            a = g.rmsNorm(a, &l.attnPostNorm, hp.rmsEps);           // post-norm
            x = g.add(a, x);                                        // residual
            h = g.rmsNorm(x, &l.ffnNorm, hp.rmsEps);                // pre-FFN RMS norm
            h = blocks::feedForward(g, l, h, blocks::Gate::Gelu);   // down(gelu(gate) ⊙ up)
            h = g.rmsNorm(h, &l.ffnPostNorm, hp.rmsEps);            // post-norm
            x = g.add(h, x);                                        // residual
        }
        blocks::logits(g, in, hp, m_weights, x); // final norm, LM head, cap · tanh(logits / cap)
    }

    RopeParams layerRope(int64_t layer, int64_t /*nCtx*/) const override
    {
        return m_params.isSwa(layer) ? m_ropeLocal : m_params.rope;
    }

private:
    float m_queryScale = 1.0f;
    RopeParams m_ropeLocal;
};

} // namespace

std::unique_ptr<Model> createGemmaDecoder(std::shared_ptr<const gguf::File> file, ModelParams params, Backend& backend,
                                          const GemmaVariant& variant)
{
    return std::make_unique<GemmaDecoder>(std::move(file), std::move(params), backend, variant);
}

std::unique_ptr<Model> createGemma2(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    ModelParams hp = readModelParams(*file, RopeMode::Neox);
    if (hp.slidingWindow == 0)
        hp.slidingWindow = 4096; // Gemma 2's window when the file does not say
    setSlidingPattern(hp, 2);
    if (hp.attnSoftCap == 0.0f && !file->find(hp.arch + ".attn_logit_softcapping"))
        hp.attnSoftCap = 50.0f;
    if (hp.finalSoftCap == 0.0f && !file->find(hp.arch + ".final_logit_softcapping"))
        hp.finalSoftCap = 30.0f;
    const RopeParams rope = hp.rope; // the same rotation on every layer
    return createGemmaDecoder(std::move(file), std::move(hp), backend, {.layersOf27B = 46, .ropeLocal = rope});
}

} // namespace hearth
