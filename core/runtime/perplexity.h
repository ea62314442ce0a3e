// Perplexity the way llama.cpp's llama-perplexity computes it, so the two
// can be compared: the text's tokens are cut into chunks of nCtx, each
// evaluated from an empty cache with its first token replaced by BOS (when
// the model adds one), and only the second half of each chunk is scored
// (every scored token has at least nCtx/2 tokens of context). A trailing
// partial chunk is ignored.
#pragma once

#include "runtime/context.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>

namespace hearth {

struct PerplexityResult {
    double perplexity = 0.0; // exp(mean negative log-likelihood)
    double meanNll = 0.0;
    int64_t scoredTokens = 0;
    int64_t chunks = 0;
    bool cancelled = false;
};

// chunk (1-based), chunks in all, perplexity so far.
using PerplexityProgress = std::function<void(int64_t chunk, int64_t chunks, double running)>;

// Uses `ctx` (whose size must be at least nCtx) and clears its cache.
// maxChunks < 0: every whole chunk. Throws hearth::Error when the text has
// fewer than 2 · nCtx tokens (as llama-perplexity refuses it).
PerplexityResult computePerplexity(Context& ctx, std::span<const TokenId> tokens, int64_t nCtx, TokenId bos,
                                   int64_t maxChunks = -1, const PerplexityProgress& progress = {},
                                   const std::atomic<bool>* cancel = nullptr);

} // namespace hearth
