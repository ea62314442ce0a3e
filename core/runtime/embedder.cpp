#include "runtime/embedder.h"

#include "kv/kv_cache.h"
#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace hearth {

void normalize(std::span<float> v)
{
    double sum = 0.0;
    for (const float x : v)
        sum += static_cast<double>(x) * static_cast<double>(x);
    if (sum <= 0.0)
        return;
    const auto inv = static_cast<float>(1.0 / std::sqrt(sum));
    for (float& x : v)
        x *= inv;
}

Embedder::Embedder(std::shared_ptr<const Model> model, Backend& backend, EmbedderParams params)
    : m_model(std::move(model)), m_backend(backend), m_params(params)
{
    const ModelParams& hp = m_model->params();
    if (hp.causal)
        throw Error(m_model->file().path() + ": '" + hp.arch +
                    "' is a generative model; sentence embeddings need an encoder such as bert");
    m_tokenizer = Tokenizer::fromGguf(m_model->file());
    // llama.cpp's pooling types; 0 (none, per-token vectors) pools by mean
    // as sentence-transformers does by default.
    m_pooling = hp.pooling == 2 ? Pooling::Cls : hp.pooling == 3 ? Pooling::Last : Pooling::Mean;
    m_params.batchTokens = std::max<int64_t>(m_params.batchTokens, 1);
}

std::unique_ptr<Embedder> Embedder::open(const std::string& path, Backend& backend, EmbedderParams params)
{
    auto file = std::make_shared<const gguf::File>(path);
    std::shared_ptr<const Model> model = Model::create(file, backend);
    return std::make_unique<Embedder>(std::move(model), backend, params);
}

std::vector<TokenId> Embedder::tokenize(std::string_view text) const
{
    std::vector<TokenId> ids = m_tokenizer->encode(text, /*addSpecial=*/true, /*parseSpecial=*/false);
    const auto max = static_cast<size_t>(maxTokens());
    if (ids.size() > max) {
        const TokenId last = ids.back(); // [SEP] stays the last token
        ids.resize(max);
        ids.back() = last;
    }
    return ids;
}

int64_t Embedder::countTokens(std::string_view text) const
{
    return static_cast<int64_t>(m_tokenizer->encode(text, /*addSpecial=*/false, /*parseSpecial=*/false).size());
}

std::vector<float> Embedder::embed(std::span<const std::string> texts, const std::atomic<bool>* abort)
{
    std::vector<std::vector<TokenId>> ids;
    ids.reserve(texts.size());
    for (const std::string& t : texts)
        ids.push_back(tokenize(t));
    return embedTokens(ids, abort);
}

std::vector<float> Embedder::embedTokens(std::span<const std::vector<TokenId>> texts, const std::atomic<bool>* abort)
{
    const auto dim = static_cast<size_t>(dimension());
    for (const auto& t : texts) {
        if (t.empty() || static_cast<int64_t>(t.size()) > maxTokens())
            throw Error("a text to embed has " + std::to_string(t.size()) + " tokens; the model takes 1 to " +
                        std::to_string(maxTokens()));
    }
    std::vector<float> out(texts.size() * dim);
    size_t begin = 0;
    while (begin < texts.size()) {
        // As many texts as fit in batchTokens (always at least one).
        size_t end = begin, tokens = 0;
        while (end < texts.size() && end - begin < static_cast<size_t>(kMaxSequences) &&
               (end == begin || tokens + texts[end].size() <= static_cast<size_t>(m_params.batchTokens)))
            tokens += texts[end++].size();
        if (!runBatch(texts.subspan(begin, end - begin), out.data() + begin * dim, abort))
            return {};
        begin = end;
    }
    return out;
}

void Embedder::prepare(std::span<const std::vector<TokenId>> texts)
{
    const int64_t nVocab = m_model->params().nVocab;
    m_tokens.clear();
    m_pos.clear();
    m_seq.clear();
    m_cellSeqs.clear();
    for (size_t s = 0; s < texts.size(); ++s) {
        for (size_t i = 0; i < texts[s].size(); ++i) {
            const TokenId id = texts[s][i];
            if (id < 0 || id >= nVocab)
                throw Error("token id " + std::to_string(id) + " is outside the vocabulary (" + std::to_string(nVocab) +
                            " tokens)");
            m_tokens.push_back(id);
            m_pos.push_back(static_cast<int32_t>(i));
            m_seq.push_back(static_cast<int32_t>(s));
            m_cellSeqs.push_back(uint64_t{1} << s);
        }
    }
    const auto n = static_cast<int64_t>(m_tokens.size());
    m_types.assign(m_tokens.size(), 0);
    m_zeros.assign(m_tokens.size(), 0); // every cell and query at position 0: no causal cut
    m_hidden.resize(static_cast<size_t>(n * m_model->params().nEmbd));
    m_in = ForwardInputs{};
    m_in.nTokens = n;
    m_in.tokens = m_tokens.data();
    m_in.positions = m_pos.data();
    m_in.tokenTypes = m_types.data();
    m_in.nOutputs = n;
    m_in.logits = Tensor::dense(GgmlType::F32, m_model->params().nEmbd, n);
    m_in.logits.data = reinterpret_cast<uint8_t*>(m_hidden.data());
    m_in.mask = AttentionMask{static_cast<int>(n), m_zeros.data(), m_cellSeqs.data(), m_zeros.data(), m_seq.data()};
}

bool Embedder::runBatch(std::span<const std::vector<TokenId>> texts, float* out, const std::atomic<bool>* abort)
{
    prepare(texts);
    m_graph.begin();
    m_model->forward(m_graph, m_in);
    m_graph.finish(nullptr, 0); // measure
    if (m_graph.peakBytes() > m_scratchCapacity) {
        m_scratch.reset();
        m_scratch = m_backend.allocate(m_graph.peakBytes(), BufferUsage::Scratch);
        m_scratchCapacity = m_graph.peakBytes();
    }
    const OpList& ops = m_graph.finish(m_scratch->data(), m_scratchCapacity);
    m_backend.reserveWork(m_backend.workBytes(ops));
    if (!m_backend.execute(ops, ExecuteOptions{abort}))
        return false;

    const auto dim = static_cast<size_t>(dimension());
    size_t row = 0;
    for (size_t s = 0; s < texts.size(); ++s) {
        const size_t len = texts[s].size();
        float* v = out + s * dim;
        const float* h = m_hidden.data() + row * dim;
        switch (m_pooling) {
        case Pooling::Cls: std::memcpy(v, h, dim * sizeof(float)); break;
        case Pooling::Last: std::memcpy(v, h + (len - 1) * dim, dim * sizeof(float)); break;
        case Pooling::Mean: {
            std::vector<double> sum(dim, 0.0);
            for (size_t t = 0; t < len; ++t)
                for (size_t d = 0; d < dim; ++d)
                    sum[d] += static_cast<double>(h[t * dim + d]);
            for (size_t d = 0; d < dim; ++d)
                v[d] = static_cast<float>(sum[d] / static_cast<double>(len));
            break;
        }
        }
        normalize(std::span<float>(v, dim));
        row += len;
    }
    return true;
}

} // namespace hearth
