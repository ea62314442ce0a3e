// libFuzzer target for the chat-template engine (scripts/fuzz-chat-template
// runs it). Each input is a template source: parsing may refuse it and
// rendering may fail, but only with chat::TemplateError; any other
// exception, crash, ASan/UBSan report, hang (-timeout) or absurd allocation
// (-rss_limit_mb) is a finding. The sandbox limits are lowered so each input
// runs in milliseconds.

#include "chat/chat_template.h"

#include <cstdint>
#include <optional>
#include <string>

using namespace hearth::chat;

namespace {

const Value& messages()
{
    static const Value v = Value::fromJson(R"([
        {"role": "system", "content": "sys"},
        {"role": "user", "content": [{"type": "text", "text": "hi ü"}]},
        {"role": "assistant", "content": "", "reasoning_content": "think",
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": {"x": [1, 2.5, null]}}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "{\"ok\": true}"},
        {"role": "user", "content": "again"}])");
    return v;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string source(reinterpret_cast<const char*>(data), size);
    std::optional<ChatTemplate> t;
    try {
        t = ChatTemplate::parse(source);
    } catch (const TemplateError&) {
        return 0;
    }
    RenderOptions o;
    o.bosToken = "<s>";
    o.eosToken = "</s>";
    o.tools = Value::fromJson(R"([{"type": "function", "function": {"name": "f", "parameters": {}}}])");
    o.enableThinking = true;
    o.now = calendarTime(2025, 7, 15, 10, 30, 0);
    o.limits.maxSteps = 200'000;
    o.limits.maxOutputBytes = 1u << 20;
    o.limits.maxAllocBytes = 32u << 20;
    o.limits.maxItems = 100'000;
    try {
        t->render(messages(), o);
    } catch (const TemplateError&) {
    }
    return 0;
}
