#include "runtime/perplexity.h"

#include "util/error.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace hearth {

namespace {

// -log p(token) from one row of logits: max in f32, Σ exp in double, as
// llama-perplexity's log_softmax.
double negLogProb(std::span<const float> logits, TokenId token)
{
    const float max = *std::max_element(logits.begin(), logits.end());
    double sum = 0.0;
    for (float l : logits)
        sum += std::exp(l - max);
    return -(static_cast<double>(logits[static_cast<size_t>(token)] - max) - std::log(sum));
}

} // namespace

PerplexityResult computePerplexity(Context& ctx, std::span<const TokenId> tokens, int64_t nCtx, TokenId bos,
                                   int64_t maxChunks, const PerplexityProgress& progress,
                                   const std::atomic<bool>* cancel)
{
    if (nCtx < 8 || nCtx > ctx.size())
        throw Error("perplexity: chunk size " + std::to_string(nCtx) + " must be in [8, " + std::to_string(ctx.size()) +
                    "]");
    const auto n = static_cast<int64_t>(tokens.size());
    if (n < 2 * nCtx)
        throw Error("perplexity: the text has " + std::to_string(n) + " tokens; at least " + std::to_string(2 * nCtx) +
                    " are needed for chunks of " + std::to_string(nCtx));
    int64_t chunks = n / nCtx;
    if (maxChunks >= 0)
        chunks = std::min(chunks, maxChunks);

    PerplexityResult r;
    const int64_t first = nCtx / 2;
    double nll = 0.0;
    std::vector<BatchToken> batch(static_cast<size_t>(nCtx));
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t start = c * nCtx;
        for (int64_t i = 0; i < nCtx; ++i) {
            const TokenId t = i == 0 && bos >= 0 ? bos : tokens[static_cast<size_t>(start + i)];
            batch[static_cast<size_t>(i)] = BatchToken{t, static_cast<int32_t>(i), 0, i >= first && i < nCtx - 1};
        }
        ctx.kv().clear();
        if (!ctx.decode(batch, cancel)) {
            r.cancelled = true;
            break;
        }
        // Output j holds the logits at position first + j, predicting the
        // token after it.
        for (int64_t j = 0; j < nCtx - 1 - first; ++j)
            nll += negLogProb(ctx.logits(j), tokens[static_cast<size_t>(start + first + j + 1)]);
        r.scoredTokens += nCtx - 1 - first;
        r.chunks = c + 1;
        if (progress)
            progress(c + 1, chunks, std::exp(nll / static_cast<double>(r.scoredTokens)));
    }
    ctx.kv().clear();
    if (r.scoredTokens > 0) {
        r.meanNll = nll / static_cast<double>(r.scoredTokens);
        r.perplexity = std::exp(r.meanNll);
    }
    return r;
}

} // namespace hearth
