// POST /v1/embeddings in OpenAI's shape: "input" as a string, strings,
// token ids or token id arrays; vectors as floats or base64 (the bytes of
// little-endian float32, which the SDKs ask for by default); data[i].index
// in input order; usage counts the tokens the model saw. The model must be
// an embedding model (an encoder such as bert): a generative one is a 400
// that says what the server needs.
#include "ApiServer.h"
#include "HttpUtil.h"
#include "Requests.h"

#include <bit>
#include <cstring>

namespace hearth::server {

using nlohmann::json;

namespace {

std::string base64(const uint8_t* data, size_t n)
{
    static const char* const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((n + 2) / 3 * 4);
    for (size_t i = 0; i < n; i += 3) {
        const uint32_t b0 = data[i], b1 = i + 1 < n ? data[i + 1] : 0, b2 = i + 2 < n ? data[i + 2] : 0;
        const uint32_t v = (b0 << 16) | (b1 << 8) | b2;
        out += digits[(v >> 18) & 63];
        out += digits[(v >> 12) & 63];
        out += i + 1 < n ? digits[(v >> 6) & 63] : '=';
        out += i + 2 < n ? digits[v & 63] : '=';
    }
    return out;
}

// The vector as base64 of its little-endian float32 bytes.
std::string encodeVector(const float* v, size_t dim)
{
    static_assert(std::endian::native == std::endian::little, "base64 embeddings assume a little-endian host");
    return base64(reinterpret_cast<const uint8_t*>(v), dim * sizeof(float));
}

// What the model sees for each input, checked against its vocabulary and
// its length limit (a 400 with both numbers, never a silent cut).
std::vector<std::vector<TokenId>> inputTokens(const BatchEngine& engine, const EmbeddingRequest& r)
{
    const Tokenizer& tok = engine.tokenizer();
    std::vector<std::vector<TokenId>> out;
    const size_t n = r.texts.empty() ? r.tokens.size() : r.texts.size();
    for (size_t i = 0; i < n; ++i) {
        const std::string where = n > 1 ? "input[" + std::to_string(i) + "]" : "input";
        std::vector<TokenId> ids;
        if (!r.texts.empty()) {
            ids = tok.encode(r.texts[i], /*addSpecial=*/true, /*parseSpecial=*/false);
        } else {
            ids.assign(r.tokens[i].begin(), r.tokens[i].end());
            for (const TokenId t : ids)
                if (t < 0 || t >= tok.vocabSize())
                    throw badRequest("'" + where + "' holds token id " + std::to_string(t) +
                                         ", outside the vocabulary (" + std::to_string(tok.vocabSize()) + " tokens)",
                                     where);
        }
        const auto count = static_cast<int64_t>(ids.size());
        if (count > engine.contextSize()) {
            ApiError e(400, "exceed_context_size_error",
                       "'" + where + "' has " + std::to_string(count) + " tokens, but the model takes at most " +
                           std::to_string(engine.contextSize()) + ": shorten or split it",
                       where);
            e.extra = {{"n_prompt_tokens", count}, {"n_ctx", engine.contextSize()}};
            throw e;
        }
        out.push_back(std::move(ids));
    }
    return out;
}

} // namespace

void ApiServer::embeddings(const httplib::Request& req, httplib::Response& res)
{
    const EmbeddingRequest r = parseEmbeddingRequest(parseBody(req.body));
    const auto lease = m_router.acquire(r.model);
    BatchEngine& engine = lease->engine();
    if (!engine.embeddingOnly())
        throw badRequest("the model '" + lease->id() + "' is a generative model ('" + engine.architecture() +
                             "'), not an embedding model: embeddings need an encoder such as bert "
                             "(all-MiniLM-L6-v2). Start a server with -m EMBEDDING_MODEL.gguf, or put one in "
                             "--models-dir and name it in 'model'",
                         "model");
    const auto dim = static_cast<size_t>(engine.embeddingDimension());
    if (r.dimensions && static_cast<size_t>(*r.dimensions) != dim)
        throw badRequest("'dimensions' is " + std::to_string(*r.dimensions) + ", but the model '" + lease->id() +
                             "' makes vectors of " + std::to_string(dim) + " (it cannot shorten them)",
                         "dimensions");
    const std::vector<std::vector<TokenId>> inputs = inputTokens(engine, r);
    const std::vector<float> vectors = engine.embed(inputs);

    json data = json::array();
    int64_t tokens = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        tokens += static_cast<int64_t>(inputs[i].size());
        const float* v = vectors.data() + i * dim;
        json item = {{"object", "embedding"}, {"index", i}};
        if (r.base64) {
            item["embedding"] = encodeVector(v, dim);
        } else {
            json values = json::array();
            for (size_t d = 0; d < dim; ++d)
                values.push_back(v[d]);
            item["embedding"] = std::move(values);
        }
        data.push_back(std::move(item));
    }
    sendJson(res, 200,
             json{{"object", "list"},
                  {"data", std::move(data)},
                  {"model", lease->id()},
                  {"usage", {{"prompt_tokens", tokens}, {"total_tokens", tokens}}}});
}

} // namespace hearth::server
