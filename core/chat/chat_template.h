// Chat templates: turn a conversation into the prompt text a model was
// trained on, by rendering the model's Jinja template exactly as Hugging
// Face's apply_chat_template does (jinja2 with trim_blocks, lstrip_blocks,
// loopcontrols, raise_exception, strftime_now and its tojson), in a sandbox.
//
// Messages are a Value array of objects: {role, content} where content is a
// string or a list of typed parts ({"type": "text", "text": ...}), plus
// optional tool_calls, tool_call_id, name, reasoning_content — whatever the
// template reads.
//
// Thread-safety: a ChatTemplate is immutable after construction; copies are
// cheap (shared) and render() may run on any number of threads at once.
// Stack: parsing and rendering recurse, bounded by the sandbox (100 nested
// blocks, expressions 100 deep, 64 nested macro calls); the worst case needs
// about 0.5 MiB of stack in an optimized build, more in debug and sanitizer
// builds. Run them on threads with at least 1 MiB (QThread::setStackSize):
// macOS gives secondary threads only 512 KiB by default.
#pragma once

#include "chat/jinja/limits.h"
#include "chat/template_error.h"
#include "chat/value.h"

#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hearth::gguf {
class File;
}

namespace hearth::chat {

struct RenderOptions {
    bool addGenerationPrompt = true;
    std::string bosToken, eosToken;
    std::optional<bool> enableThinking;               // passed as enable_thinking only when set
    Value tools;                                      // null when none (the template sees None)
    std::vector<std::pair<std::string, Value>> extra; // extra template variables (win over the above)
    // The calendar time strftime_now() formats; the local time when unset.
    // Tests pin it so renders are reproducible.
    std::optional<std::tm> now;
    jinja::Limits limits;
};

// A calendar time with the weekday and day of the year filled in, for
// RenderOptions::now (month 1-12).
std::tm calendarTime(int year, int month, int day, int hour = 0, int minute = 0, int second = 0);

class ChatTemplate {
public:
    // Throws chat::TemplateError (a hearth::Error) with line:column.
    static ChatTemplate parse(std::string source);
    // The file's tokenizer.chat_template when present and parseable, else a
    // built-in fallback chosen from the architecture / name / vocabulary,
    // with a warning text the UI can show (empty when none). `warning` may
    // be null.
    static ChatTemplate forModel(const gguf::File& file, std::string* warning);
    // A built-in template: "chatml", "llama3", "llama2", "mistral", "gemma",
    // "phi3", "deepseek", "command-r", "zephyr", "vicuna". Throws
    // hearth::Error for an unknown name.
    static ChatTemplate builtin(std::string_view name);
    static std::vector<std::string_view> builtinNames();
    // The built-in that fits a model without a usable template: from its
    // vocabulary's turn markers, else its architecture, else "chatml".
    static std::string_view detectBuiltin(const gguf::File& file);

    // Renders the conversation. Throws chat::TemplateError when the
    // template fails (raise_exception() included) or breaks a sandbox limit.
    std::string render(const Value& messages, const RenderOptions& options) const;

    std::string_view name() const; // "file" (parsed source) or the built-in's name
    const std::string& source() const;

private:
    struct Impl;
    explicit ChatTemplate(std::shared_ptr<const Impl> impl) : m_impl(std::move(impl)) {}
    std::shared_ptr<const Impl> m_impl;
};

} // namespace hearth::chat
