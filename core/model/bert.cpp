// BERT encoders (all-MiniLM-L6-v2, bge, e5 ...): token + segment + learned
// position embeddings and a LayerNorm, then post-norm blocks of
// bidirectional attention and a GELU feed-forward, each with biases. It
// writes the last hidden state of every token into in.logits
// ([n_embd, nTokens]); pooling into sentence vectors is the caller's
// (runtime/embedder.h).
//
// Attention without a KV cache: the batch's K and V activations themselves
// are the cells ([heads·dk, n] f32), and in.mask says which tokens see which:
// the caller puts each sentence of a batch in its own sequence and gives
// every cell and query position 0, so a token sees exactly the tokens of
// its own sentence, in both directions (no padding needed).
#include "model/model.h"

#include "util/error.h"

#include <cmath>

namespace hearth {

namespace {

class BertModel final : public Model {
public:
    BertModel(std::shared_ptr<const gguf::File> file, Backend& backend)
        : Model(file, readModelParams(*file, RopeMode::Normal), backend)
    {
        ModelParams& hp = m_params;
        const gguf::File& f = *m_file;
        hp.normEps = static_cast<float>(f.findFloat("bert.attention.layer_norm_epsilon").value_or(1e-12));
        hp.causal = f.findBool("bert.attention.causal").value_or(false);
        if (hp.causal)
            f.fail("bert.attention.causal", "causal BERT models are not supported");
        hp.pooling = static_cast<int32_t>(f.findInt("bert.pooling_type").value_or(1));
        if (hp.pooling < 0 || hp.pooling > 3)
            f.fail("bert.pooling_type", "unknown pooling " + std::to_string(hp.pooling));
        if (hp.nHeadKv != hp.nHead || hp.headDimK * hp.nHead != hp.nEmbd || hp.headDimV != hp.headDimK)
            f.fail("bert.attention.head_count", "heads must split the embedding evenly");

        const gguf::TensorInfo* embd = f.findTensor("token_embd.weight");
        if (!embd)
            throw Error(f.path() + ": tensor 'token_embd.weight' is missing");
        hp.nVocab = embd->ne[1];
        const int64_t e = hp.nEmbd;
        ModelWeights& w = m_weights;
        w.tokenEmbd = require("token_embd.weight", {e, hp.nVocab});
        w.positionEmbd = require("position_embd.weight", {e, hp.nCtxTrain});
        const gguf::TensorInfo* types = f.findTensor("token_types.weight");
        w.tokenTypes = require("token_types.weight", {e, types ? types->ne[1] : 2});
        w.inputNorm = norm("token_embd_norm.weight", e);
        w.inputNormBias = norm("token_embd_norm.bias", e);
        for (int64_t i = 0; i < hp.nLayer; ++i) {
            LayerWeights& l = w.layers[static_cast<size_t>(i)];
            l.wq = require(layerName(i, "attn_q.weight"), {e, e});
            l.wk = require(layerName(i, "attn_k.weight"), {e, e});
            l.wv = require(layerName(i, "attn_v.weight"), {e, e});
            l.bq = norm(layerName(i, "attn_q.bias"), e);
            l.bk = norm(layerName(i, "attn_k.bias"), e);
            l.bv = norm(layerName(i, "attn_v.bias"), e);
            l.wo = require(layerName(i, "attn_output.weight"), {e, e});
            l.bo = norm(layerName(i, "attn_output.bias"), e);
            l.attnPostNorm = norm(layerName(i, "attn_output_norm.weight"), e);
            l.attnPostNormBias = norm(layerName(i, "attn_output_norm.bias"), e);
            l.ffnUp = require(layerName(i, "ffn_up.weight"), {e, hp.nFf});
            l.ffnUpBias = norm(layerName(i, "ffn_up.bias"), hp.nFf);
            l.ffnDown = require(layerName(i, "ffn_down.weight"), {hp.nFf, e});
            l.ffnDownBias = norm(layerName(i, "ffn_down.bias"), e);
            l.ffnPostNorm = norm(layerName(i, "layer_output_norm.weight"), e);
            l.ffnPostNormBias = norm(layerName(i, "layer_output_norm.bias"), e);
        }
        checkSupported();
    }

    void forward(Graph& g, const ForwardInputs& in) const override
    {
        const ModelParams& hp = m_params;
        const ModelWeights& w = m_weights;
        if (!in.tokenTypes)
            throw Error("bert: the forward pass needs token types (ForwardInputs::tokenTypes)");
        const int64_t n = in.nTokens, dk = hp.headDimK;
        Tensor x = g.getRows(w.tokenEmbd, in.tokens, n);           // token embeddings [n_embd, n]
        x = g.add(x, g.getRows(w.tokenTypes, in.tokenTypes, n));   // + segment embeddings
        x = g.add(x, g.getRows(w.positionEmbd, in.positions, n));  // + learned positions
        x = g.norm(x, &w.inputNorm, &w.inputNormBias, hp.normEps); // LayerNorm
        AttentionParams ap;
        ap.nHead = ap.nHeadKv = static_cast<int>(hp.nHead);
        ap.headDimK = ap.headDimV = static_cast<int>(dk);
        ap.scale = 1.0f / std::sqrt(static_cast<float>(dk));
        ap.mask = in.mask;
        for (int64_t il = 0; il < hp.nLayer; ++il) {
            g.setLayer(static_cast<int>(il));
            const LayerWeights& l = w.layers[static_cast<size_t>(il)];
            Tensor q = g.add(g.matmul(l.wq, x), l.bq).splitRows(dk); // queries [dk, heads, n]
            Tensor k = g.add(g.matmul(l.wk, x), l.bk);               // keys [heads·dk, n] = the cells
            Tensor v = g.add(g.matmul(l.wv, x), l.bv);               // values [heads·dk, n]
            Tensor a = g.attention(q, k, v, ap);                     // softmax(q·kᵀ/√dk)·v, own sentence
            a = g.add(g.matmul(l.wo, a), l.bo);                      // output projection + bias
            x = g.norm(g.add(a, x), &l.attnPostNorm, &l.attnPostNormBias, hp.normEps); // residual, LayerNorm
            Tensor h = g.gelu(g.add(g.matmul(l.ffnUp, x), l.ffnUpBias));               // GELU(up·x + b)
            h = g.add(g.add(g.matmul(l.ffnDown, h), l.ffnDownBias), x);                // down + bias + residual
            if (il + 1 < hp.nLayer)
                x = g.norm(h, &l.ffnPostNorm, &l.ffnPostNormBias, hp.normEps); // LayerNorm
            else
                g.normInto(h, &l.ffnPostNorm, &l.ffnPostNormBias, hp.normEps, in.logits); // the hidden states
        }
    }
};

} // namespace

std::unique_ptr<Model> createBert(std::shared_ptr<const gguf::File> file, Backend& backend)
{
    return std::make_unique<BertModel>(std::move(file), backend);
}

} // namespace hearth
