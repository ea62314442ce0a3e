// Generation as text: streams the reply in UTF-8-safe pieces (never half a
// character), stops at the model's end-of-generation tokens and at stop
// strings (text that would start a stop string is held back until it is
// known not to), and returns the text without the stop string.
#pragma once

#include "runtime/session.h"
#include "tokenizer/tokenizer.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace hearth {

struct TextCallbacks {
    // A piece of the reply; return false to stop.
    std::function<bool(std::string_view piece)> onText;
    // A generated token id (before its text is known); return false to stop.
    std::function<bool(TokenId)> onToken;
    std::function<void(const ContextShiftEvent&)> onContextShift;
};

struct TextResult {
    std::string text;
    GenerationStats stats;
    bool stoppedByString = false;
};

TextResult generateText(Session& session, const Tokenizer& tokenizer, std::span<const TokenId> prompt,
                        const GenerationParams& params, const std::vector<std::string>& stop,
                        const TextCallbacks& callbacks, const std::atomic<bool>* cancel = nullptr);

} // namespace hearth
