#include "chat/chat_template.h"

#include "chat/jinja/interpreter.h"
#include "chat/jinja/parser.h"
#include "gguf/gguf.h"

namespace hearth::chat {

struct ChatTemplate::Impl {
    std::string name;
    std::string source;
    jinja::Program program;
};

namespace detail {
// builtin_templates.cpp
std::string_view builtinSource(std::string_view name);
std::vector<std::string_view> builtinNames();
std::string_view detectBuiltin(const gguf::File& file);
} // namespace detail

std::tm calendarTime(int year, int month, int day, int hour, int minute, int second)
{
    // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    const auto daysFromCivil = [](int y, int m, int d) {
        y -= m <= 2;
        const int era = (y >= 0 ? y : y - 399) / 400;
        const int yoe = y - era * 400;
        const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
        const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    };
    std::tm t{};
    t.tm_year = year - 1900;
    t.tm_mon = month - 1;
    t.tm_mday = day;
    t.tm_hour = hour;
    t.tm_min = minute;
    t.tm_sec = second;
    const int days = daysFromCivil(year, month, day);
    t.tm_wday = ((days % 7) + 11) % 7; // 1970-01-01 was a Thursday
    t.tm_yday = days - daysFromCivil(year, 1, 1);
    t.tm_isdst = 0;
    return t;
}

ChatTemplate ChatTemplate::parse(std::string source)
{
    auto impl = std::make_shared<Impl>();
    impl->name = "file";
    impl->program = jinja::parse(source);
    impl->source = std::move(source);
    return ChatTemplate(std::move(impl));
}

ChatTemplate ChatTemplate::builtin(std::string_view name)
{
    const std::string_view source = detail::builtinSource(name);
    if (source.empty())
        throw Error("unknown built-in chat template '" + std::string(name) + "'");
    auto impl = std::make_shared<Impl>();
    impl->name = std::string(name);
    impl->source = std::string(source);
    impl->program = jinja::parse(impl->source);
    return ChatTemplate(std::move(impl));
}

std::vector<std::string_view> ChatTemplate::builtinNames()
{
    return detail::builtinNames();
}

std::string_view ChatTemplate::detectBuiltin(const gguf::File& file)
{
    return detail::detectBuiltin(file);
}

ChatTemplate ChatTemplate::forModel(const gguf::File& file, std::string* warning)
{
    std::string reason;
    std::optional<std::string_view> source;
    try {
        source = file.findString("tokenizer.chat_template");
    } catch (const Error& e) {
        reason = std::string("The model's chat template entry is unusable (") + e.what() + ")";
    }
    if (source) {
        try {
            ChatTemplate t = parse(std::string(*source));
            if (warning)
                warning->clear();
            return t;
        } catch (const TemplateError& e) {
            reason = "The model's chat template cannot be used (" + std::string(e.what()) + ")";
        }
    } else if (reason.empty()) {
        reason = "The model file has no chat template";
    }
    const std::string_view name = detectBuiltin(file);
    if (warning)
        *warning = reason + "; using the built-in '" + std::string(name) + "' format instead.";
    return builtin(name);
}

std::string ChatTemplate::render(const Value& messages, const RenderOptions& options) const
{
    jinja::RenderInput input;
    input.limits = options.limits;
    input.now = options.now;
    // The variables Hugging Face's apply_chat_template passes.
    input.vars.reserve(8 + options.extra.size());
    input.vars.emplace_back("messages", messages);
    input.vars.emplace_back("tools", options.tools);
    input.vars.emplace_back("documents", Value());
    input.vars.emplace_back("add_generation_prompt", Value(options.addGenerationPrompt));
    input.vars.emplace_back("bos_token", Value(options.bosToken));
    input.vars.emplace_back("eos_token", Value(options.eosToken));
    if (options.enableThinking)
        input.vars.emplace_back("enable_thinking", Value(*options.enableThinking));
    for (const auto& kv : options.extra)
        input.vars.push_back(kv);
    jinja::Interpreter interp(m_impl->program, input);
    return interp.render();
}

std::string_view ChatTemplate::name() const
{
    return m_impl->name;
}

const std::string& ChatTemplate::source() const
{
    return m_impl->source;
}

} // namespace hearth::chat
