#include "runtime/text_generation.h"

#include <algorithm>

namespace hearth {

namespace {

// Holds back the tail of the text that could still become a stop string.
class StopMatcher {
public:
    explicit StopMatcher(const std::vector<std::string>& stop) : m_stop(stop) {}

    // Adds text; returns what can be emitted now. Sets `hit` when a stop
    // string completed (the text before it is returned, the rest dropped).
    std::string push(std::string_view piece, bool& hit)
    {
        m_pending += piece;
        for (const std::string& s : m_stop) {
            if (s.empty())
                continue;
            const size_t at = m_pending.find(s);
            if (at != std::string::npos) {
                hit = true;
                std::string out = m_pending.substr(0, at);
                m_pending.clear();
                return out;
            }
        }
        size_t keep = 0; // longest tail that is a prefix of a stop string
        for (const std::string& s : m_stop) {
            for (size_t n = std::min(s.size() - (s.empty() ? 0 : 1), m_pending.size()); n > keep; --n) {
                if (m_pending.compare(m_pending.size() - n, n, s, 0, n) == 0) {
                    keep = n;
                    break;
                }
            }
        }
        std::string out = m_pending.substr(0, m_pending.size() - keep);
        m_pending.erase(0, m_pending.size() - keep);
        return out;
    }
    std::string flush() { return std::exchange(m_pending, {}); }

private:
    const std::vector<std::string>& m_stop;
    std::string m_pending;
};

} // namespace

TextResult generateText(Session& session, const Tokenizer& tokenizer, std::span<const TokenId> prompt,
                        const GenerationParams& params, const std::vector<std::string>& stop,
                        const TextCallbacks& callbacks, const std::atomic<bool>* cancel)
{
    TextResult result;
    StreamingDecoder decoder(tokenizer);
    StopMatcher matcher(stop);
    bool callerStopped = false;
    const auto emit = [&](const std::string& text) {
        if (text.empty())
            return true;
        result.text += text;
        if (callbacks.onText && !callbacks.onText(text)) {
            callerStopped = true;
            return false;
        }
        return true;
    };
    GenerationCallbacks cb;
    cb.isEndOfGeneration = [&](TokenId t) { return tokenizer.isEndOfGeneration(t); };
    cb.onContextShift = callbacks.onContextShift;
    cb.onToken = [&](TokenId t) {
        if (callbacks.onToken && !callbacks.onToken(t))
            return false;
        bool hit = false;
        const std::string text = matcher.push(decoder.push(t), hit);
        if (!emit(text))
            return false;
        if (hit) {
            result.stoppedByString = true;
            return false;
        }
        return true;
    };
    result.stats = session.generate(prompt, params, cb, cancel);
    if (!result.stoppedByString && !callerStopped) {
        bool hit = false;
        std::string rest = matcher.push(decoder.flush(), hit);
        if (!hit)
            rest += matcher.flush();
        result.stoppedByString = hit;
        emit(rest);
    }
    return result;
}

} // namespace hearth
