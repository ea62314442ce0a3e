#include "runtime/session.h"

#include "util/error.h"

#include <algorithm>
#include <chrono>
#include <string>

namespace hearth {

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

} // namespace

const char* stopReasonName(StopReason reason)
{
    switch (reason) {
    case StopReason::EndOfGeneration: return "end of generation";
    case StopReason::MaxTokens: return "max tokens";
    case StopReason::Caller: return "stopped";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::ContextFull: return "context full";
    }
    return "?";
}

Session::Session(Context& ctx, int seq) : m_ctx(ctx), m_seq(seq)
{
    if (seq < 0 || seq >= kMaxSequences)
        throw Error("session: sequence id " + std::to_string(seq) + " is out of range");
}

void Session::clear()
{
    m_ctx.kv().removeSequence(m_seq, 0, -1);
    m_history.clear();
    m_logitsStamp = 0;
}

bool Session::evaluate(std::span<const TokenId> tokens, const std::atomic<bool>* cancel)
{
    if (tokens.empty())
        return true;
    const auto pos0 = static_cast<int32_t>(m_history.size());
    if (!m_ctx.decode(tokens, pos0, m_seq, /*allLogits=*/false, cancel))
        return false;
    m_history.insert(m_history.end(), tokens.begin(), tokens.end());
    m_logitsStamp = m_ctx.decodeCount();
    return true;
}

int64_t Session::prefill(std::span<const TokenId> prompt, const std::atomic<bool>* cancel)
{
    if (prompt.empty())
        throw Error("session: empty prompt");
    if (static_cast<int64_t>(prompt.size()) > m_ctx.size())
        throw Error("the prompt has " + std::to_string(prompt.size()) + " tokens, more than the context holds (" +
                    std::to_string(m_ctx.size()) + "): shorten it or use a larger context");
    size_t common = 0;
    while (common < prompt.size() && common < m_history.size() && prompt[common] == m_history[common])
        ++common;
    // The logits of the prompt's last token are needed: reuse them only if
    // they are the context's current ones, else evaluate that token again.
    const bool logitsReady = common == prompt.size() && m_history.size() == prompt.size() &&
                             m_logitsStamp == m_ctx.decodeCount() && m_ctx.outputCount() > 0;
    if (common == prompt.size() && !logitsReady)
        --common;
    if (common < m_history.size()) {
        m_ctx.kv().removeSequence(m_seq, static_cast<int32_t>(common), -1);
        m_history.resize(common);
    }
    if (!evaluate(prompt.subspan(common), cancel))
        return -1;
    return static_cast<int64_t>(prompt.size() - common);
}

bool Session::shift(int32_t nKeep, const GenerationCallbacks& callbacks, GenerationStats& stats)
{
    const auto nPast = static_cast<int32_t>(m_history.size());
    nKeep = std::clamp(nKeep, 0, nPast);
    const int32_t nLeft = nPast - nKeep;
    const int32_t nDiscard = nLeft / 2;
    if (nDiscard < 1)
        return false;
    KvCache& kv = m_ctx.kv();
    kv.removeSequence(m_seq, nKeep, nKeep + nDiscard);
    kv.shiftSequence(m_seq, nKeep + nDiscard, -1, -nDiscard);
    m_history.erase(m_history.begin() + nKeep, m_history.begin() + nKeep + nDiscard);
    ++stats.contextShifts;
    if (callbacks.onContextShift)
        callbacks.onContextShift(ContextShiftEvent{nKeep, nDiscard, static_cast<int32_t>(m_history.size())});
    return true;
}

GenerationStats Session::generate(std::span<const TokenId> prompt, const GenerationParams& params,
                                  const GenerationCallbacks& callbacks, const std::atomic<bool>* cancel)
{
    GenerationStats stats;
    stats.contextSize = m_ctx.size();
    stats.promptTokens = static_cast<int64_t>(prompt.size());
    const auto start = Clock::now();
    const int64_t evaluated = prefill(prompt, cancel);
    stats.promptMs = msSince(start);
    stats.contextUsed = static_cast<int64_t>(m_history.size());
    if (evaluated < 0) {
        stats.stop = StopReason::Cancelled;
        return stats;
    }
    stats.promptEvaluated = evaluated;

    Sampler sampler(params.sampling, static_cast<int32_t>(m_ctx.vocabSize()));
    const int32_t lastN = params.sampling.penaltyLastN;
    const size_t from = lastN < 0 ? 0 : m_history.size() - std::min(m_history.size(), static_cast<size_t>(lastN));
    for (size_t i = from; i < m_history.size(); ++i)
        sampler.accept(m_history[i]);
    const int32_t nKeep = params.nKeep < 0 ? static_cast<int32_t>(prompt.size()) : params.nKeep;

    Clock::time_point firstToken{};
    for (;;) {
        if (params.maxTokens >= 0 && stats.generatedTokens >= params.maxTokens) {
            stats.stop = StopReason::MaxTokens;
            break;
        }
        if (cancelled(cancel)) {
            stats.stop = StopReason::Cancelled;
            break;
        }
        const TokenId token = sampler.sample(m_ctx.logits(m_ctx.outputCount() - 1));
        sampler.accept(token);
        if (stats.generatedTokens == 0) {
            firstToken = Clock::now();
            stats.timeToFirstTokenMs = msSince(start);
        }
        if (callbacks.isEndOfGeneration && callbacks.isEndOfGeneration(token)) {
            stats.stop = StopReason::EndOfGeneration;
            break;
        }
        ++stats.generatedTokens;
        if (callbacks.onToken && !callbacks.onToken(token)) {
            stats.stop = StopReason::Caller;
            break;
        }
        if (params.maxTokens >= 0 && stats.generatedTokens >= params.maxTokens) {
            stats.stop = StopReason::MaxTokens;
            break;
        }
        if (static_cast<int64_t>(m_history.size()) + 1 > m_ctx.size() &&
            (!params.contextShift || !shift(nKeep, callbacks, stats))) {
            stats.stop = StopReason::ContextFull;
            break;
        }
        if (!evaluate(std::span<const TokenId>(&token, 1), cancel)) {
            stats.stop = StopReason::Cancelled;
            break;
        }
    }
    if (stats.generatedTokens > 0)
        stats.generationMs = std::chrono::duration<double, std::milli>(Clock::now() - firstToken).count();
    stats.contextUsed = static_cast<int64_t>(m_history.size());
    return stats;
}

} // namespace hearth
