// Sentence embeddings from an encoder model (the bert family): text to
// WordPiece tokens with [CLS] … [SEP], several texts in one forward pass
// (each its own attention sequence, no padding), pooled as the file says
// (mean over the tokens, the [CLS] token, or the last token) and scaled to
// unit length, so a dot product of two vectors is their cosine.
//
// Cost: one forward pass per batch of up to params.batchTokens tokens (and
// at most 64 texts); memory: the scratch area of the largest batch run so far.
// Thread-safety: one thread at a time (it owns a graph and scratch); several
// embedders may share a model. Ownership: shares the model; the backend must
// outlive it.
#pragma once

#include "backend/backend.h"
#include "model/graph.h"
#include "model/model.h"
#include "tokenizer/tokenizer.h"

#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace hearth {

enum class Pooling : uint8_t {
    Mean,
    Cls,
    Last
};

struct EmbedderParams {
    int64_t batchTokens = 2048; // tokens per forward pass (a longer text gets a pass to itself)
};

class Embedder {
public:
    // Throws hearth::Error when the model is not an encoder (a causal LM
    // gives no sentence embeddings), or on a bad file.
    Embedder(std::shared_ptr<const Model> model, Backend& backend, EmbedderParams params = {});
    // Opens the GGUF file and builds model and embedder on `backend`.
    static std::unique_ptr<Embedder> open(const std::string& path, Backend& backend, EmbedderParams params = {});

    int64_t dimension() const { return m_model->params().nEmbd; }
    // Tokens one text may have, specials included (the learned positions);
    // longer texts are cut at that length.
    int64_t maxTokens() const { return m_model->params().nCtxTrain; }
    Pooling pooling() const { return m_pooling; }
    const Model& model() const { return *m_model; }
    std::shared_ptr<const Model> modelShared() const { return m_model; }
    const Tokenizer& tokenizer() const { return *m_tokenizer; }

    // The ids the model sees for `text`: [CLS] tokens [SEP], cut to maxTokens().
    std::vector<TokenId> tokenize(std::string_view text) const;
    // Word-piece tokens of `text` without the specials (chunk sizing).
    int64_t countTokens(std::string_view text) const;

    // One unit vector of dimension() floats per text, row after row. Returns
    // an empty vector when `abort` became true.
    std::vector<float> embed(std::span<const std::string> texts, const std::atomic<bool>* abort = nullptr);
    // The same from token ids (each at most maxTokens() long, not empty).
    std::vector<float> embedTokens(std::span<const std::vector<TokenId>> texts,
                                   const std::atomic<bool>* abort = nullptr);

private:
    bool runBatch(std::span<const std::vector<TokenId>> texts, float* out, const std::atomic<bool>* abort);
    void prepare(std::span<const std::vector<TokenId>> texts);

    std::shared_ptr<const Model> m_model;
    Backend& m_backend;
    EmbedderParams m_params;
    std::unique_ptr<Tokenizer> m_tokenizer;
    Pooling m_pooling = Pooling::Mean;
    Graph m_graph;
    std::unique_ptr<Buffer> m_scratch;
    size_t m_scratchCapacity = 0;
    // Inputs of the batch being run (the op list points into them).
    std::vector<int32_t> m_tokens, m_types, m_pos, m_zeros, m_seq;
    std::vector<uint64_t> m_cellSeqs;
    std::vector<float> m_hidden; // [n_embd, tokens]
    ForwardInputs m_in;
};

// Unit-length scaling of v (left as is when it is all zeros).
void normalize(std::span<float> v);

} // namespace hearth
