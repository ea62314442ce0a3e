// The Llama family (Llama 2/3, Mistral, SmolLM2, TinyLlama, ...): pre-norm
// decoder blocks with RMSNorm, rotary embeddings on adjacent pairs, grouped
// query attention and a SwiGLU feed-forward (Touvron et al. 2023). The
// block is Qwen 2's and Qwen 3's too (qwen2.cpp, qwen3.cpp: LlamaVariant).
#include "model/blocks.h"
#include "model/decoders.h"

#include <cmath>

namespace hearth {

namespace {

class LlamaDecoder final : public Model {
public:
    LlamaDecoder(std::shared_ptr<const gguf::File> file, Backend& backend, const LlamaVariant& variant)
        : Model(file, readModelParams(*file, variant.rope), backend)
    {
        bindEmbeddings();
        if (variant.ropeFreqs)
            m_weights.ropeFreqs = norm("rope_freqs.weight", m_params.rope.nRot / 2, /*required=*/false);
        bindLayers(variant.tensors);
        checkSupported();
    }

    void forward(Graph& g, const ForwardInputs& in) const override
    {
        const ModelParams& hp = m_params;
        const float kqScale = 1.0f / std::sqrt(static_cast<float>(hp.headDimK));
        Tensor x = g.getRows(m_weights.tokenEmbd, in.tokens, in.nTokens); // token embeddings [n_embd, n]
        for (int64_t il = 0; il < hp.nLayer; ++il) {
            g.setLayer(static_cast<int>(il)); // placement: the ops of layer il
            const LayerWeights& l = m_weights.layers[static_cast<size_t>(il)];
            Tensor h = g.rmsNorm(x, &l.attnNorm, hp.rmsEps);  // pre-attention RMS norm
            auto [q, k, v] = blocks::projectQkv(g, hp, l, h); // q, k, v (+ biases, QK norm: Qwen)
            const RopeParams rope = layerRope(il, in.nCtx);   // rotate q and k by position
            q = g.rope(q, in.positions, rope);
            k = g.rope(k, in.positions, rope);
            Tensor a = blocks::attention(g, in, hp, il, q, k, v, kqScale); // softmax(q·kᵀ/√dk)·v
            a = blocks::attentionOutput(g, in, hp, il, l.wo, a, x); // output projection (last layer: wanted rows)
            x = g.add(a, x);                                        // + residual
            h = g.rmsNorm(x, &l.ffnNorm, hp.rmsEps);                // pre-FFN RMS norm
            h = blocks::feedForward(g, l, h, blocks::Gate::Silu);   // down(silu(gate) ⊙ up)
            x = g.add(h, x);                                        // + residual
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

std::unique_ptr<Model> createLlamaDecoder(std::shared_ptr<const gguf::File> file, Backend& backend,
                                          const LlamaVariant& variant)
{
    return std::make_unique<LlamaDecoder>(std::move(file), backend, variant);
}

std::unique_ptr<Model> createLlama(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return createLlamaDecoder(std::move(file), backend, {.rope = RopeMode::Normal, .tensors = {}, .ropeFreqs = true});
}

} // namespace hearth
