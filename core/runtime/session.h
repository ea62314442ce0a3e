// A session is one sequence of a Context: its token history, the cache
// cells holding it, and generation with sampling. Each request names the
// whole token sequence it wants to continue (the rendered conversation);
// the session keeps the longest prefix already in the cache and evaluates
// only the rest, so a chat's second turn costs only its new tokens. When the
// context fills during generation it shifts: keeps the first nKeep tokens,
// drops the oldest half after them, re-rotates the cached keys, and tells
// the caller (never a silent truncation).
//
// This is the token-level API; ChatSession (chat_session.h) adds the chat
// template, tokenization, UTF-8-safe text pieces and stop strings.
//
// Thread-safety: one thread at a time; `cancel` may be set from any thread
// and stops generation within one token (prompt evaluation within one op).
#pragma once

#include "runtime/context.h"
#include "sampling/sampler.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace hearth {

struct GenerationParams {
    int32_t maxTokens = -1;   // -1: until an end token, cancellation or the caller stops
    int32_t nKeep = 0;        // tokens kept at the start when the context shifts (-1: the whole prompt)
    bool contextShift = true; // false: stop with ContextFull instead of shifting
    SamplerParams sampling;
};

enum class StopReason {
    EndOfGeneration, // the model produced an end-of-generation token
    MaxTokens,
    Caller, // onToken returned false (stop string, ...)
    Cancelled,
    ContextFull, // no room and shifting not allowed (or impossible)
};

const char* stopReasonName(StopReason reason);

struct ContextShiftEvent {
    int32_t kept = 0;      // tokens kept at the start
    int32_t discarded = 0; // tokens dropped after them
    int32_t remaining = 0; // tokens in the context after the shift
};

struct GenerationStats {
    int64_t promptTokens = 0;    // tokens of the request's prompt
    int64_t promptEvaluated = 0; // of those, evaluated now (the rest came from the cache)
    double promptMs = 0.0;
    double timeToFirstTokenMs = 0.0; // from the call to the first generated token
    int64_t generatedTokens = 0;
    double generationMs = 0.0; // after the first token
    int64_t contextUsed = 0;
    int64_t contextSize = 0;
    int contextShifts = 0;
    StopReason stop = StopReason::EndOfGeneration;
};

struct GenerationCallbacks {
    // A generated token (already in the history). Return false to stop.
    std::function<bool(TokenId)> onToken;
    // Whether a token ends generation (it is not passed to onToken).
    std::function<bool(TokenId)> isEndOfGeneration;
    std::function<void(const ContextShiftEvent&)> onContextShift;
};

class Session {
public:
    explicit Session(Context& ctx, int seq = 0);

    // Evaluates `prompt` (reusing the cached prefix) and generates from it.
    // Throws hearth::Error when the prompt does not fit in the context.
    GenerationStats generate(std::span<const TokenId> prompt, const GenerationParams& params,
                             const GenerationCallbacks& callbacks, const std::atomic<bool>* cancel = nullptr);

    // Only makes the cache hold `prompt` (no generation); returns how many
    // tokens had to be evaluated, or -1 when cancelled.
    int64_t prefill(std::span<const TokenId> prompt, const std::atomic<bool>* cancel = nullptr);

    // The tokens the cache holds for this session, oldest first.
    const std::vector<TokenId>& history() const { return m_history; }
    void clear();
    Context& context() { return m_ctx; }

private:
    bool evaluate(std::span<const TokenId> tokens, const std::atomic<bool>* cancel);
    bool shift(int32_t nKeep, const GenerationCallbacks& callbacks, GenerationStats& stats);

    Context& m_ctx;
    int m_seq;
    std::vector<TokenId> m_history; // token i sits at position i
    uint64_t m_logitsStamp = 0;     // Context::decodeCount() when our last token's logits were made
};

} // namespace hearth
