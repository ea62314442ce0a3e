#include "runtime/text_generation.h"

#include "runtime/stop_matcher.h"

namespace hearth {

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
