#include "runtime/chat_session.h"

#include "chat/value.h"

namespace hearth {

ChatSession::ChatSession(std::shared_ptr<const LoadedModel> model, Context& ctx, int seq)
    : m_model(std::move(model)), m_session(ctx, seq)
{
}

void ChatSession::setSystemPrompt(std::string text)
{
    m_system = std::move(text);
}

void ChatSession::reset()
{
    m_messages.clear();
    m_session.clear();
}

std::vector<TokenId> ChatSession::promptTokens(const ChatParams& params) const
{
    chat::Value messages = chat::Value::array();
    const auto add = [&](const std::string& role, const std::string& content) {
        chat::Value m = chat::Value::object();
        m.set("role", chat::Value(role));
        m.set("content", chat::Value(content));
        messages.push(std::move(m));
    };
    if (!m_system.empty())
        add("system", m_system);
    for (const ChatMessage& m : m_messages)
        add(m.role, m.content);
    const Tokenizer& tok = m_model->tokenizer();
    chat::RenderOptions options;
    options.addGenerationPrompt = true;
    options.enableThinking = params.enableThinking;
    if (tok.bos() >= 0)
        options.bosToken = std::string(tok.tokenText(tok.bos()));
    if (tok.eos() >= 0)
        options.eosToken = std::string(tok.tokenText(tok.eos()));
    return m_model->tokenizePrompt(m_model->chatTemplate().render(messages, options));
}

TextResult ChatSession::reply(std::string user, const ChatParams& params, const TextCallbacks& callbacks,
                              const std::atomic<bool>* cancel)
{
    m_messages.push_back(ChatMessage{"user", std::move(user)});
    const std::vector<TokenId> prompt = promptTokens(params);
    TextResult r =
        generateText(m_session, m_model->tokenizer(), prompt, params.generation, params.stop, callbacks, cancel);
    if (r.stats.stop == StopReason::Cancelled && r.text.empty())
        m_messages.pop_back();
    else
        m_messages.push_back(ChatMessage{"assistant", r.text});
    return r;
}

} // namespace hearth
