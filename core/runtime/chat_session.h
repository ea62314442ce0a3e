// A conversation with a model: the messages so far, rendered with the
// model's chat template on every turn and continued by a Session, so each
// turn evaluates only the tokens after the cached prefix (in practice: the
// new user message and the generation prompt). Replies stream as UTF-8-safe
// text pieces and end at an end-of-generation token, a stop string, the
// token limit or cancellation.
//
// Thread-safety: one thread at a time (cancel may be set from any thread).
// Ownership: shares the model; uses the context, which must outlive it.
#pragma once

#include "runtime/loaded_model.h"
#include "runtime/text_generation.h"

#include <optional>
#include <string>
#include <vector>

namespace hearth {

struct ChatMessage {
    std::string role; // "system", "user", "assistant"
    std::string content;
};

struct ChatParams {
    GenerationParams generation;
    std::vector<std::string> stop; // besides the model's end tokens
    std::optional<bool> enableThinking;
};

class ChatSession {
public:
    ChatSession(std::shared_ptr<const LoadedModel> model, Context& ctx, int seq = 0);

    void setSystemPrompt(std::string text);
    // Adds `user`, generates the assistant's reply (added to the messages
    // unless cancelled before any text) and returns it with its statistics.
    TextResult reply(std::string user, const ChatParams& params, const TextCallbacks& callbacks,
                     const std::atomic<bool>* cancel = nullptr);
    const std::vector<ChatMessage>& messages() const { return m_messages; }
    // Forgets the conversation (the cache cells too).
    void reset();

    // The rendered conversation's tokens (with the generation prompt).
    std::vector<TokenId> promptTokens(const ChatParams& params) const;
    Session& session() { return m_session; }

private:
    std::shared_ptr<const LoadedModel> m_model;
    Session m_session;
    std::string m_system;
    std::vector<ChatMessage> m_messages;
};

} // namespace hearth
