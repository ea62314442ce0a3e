// The built-in chat templates (sources in templates/*.jinja, embedded at
// build time) and the choice of one for a model whose file has no usable
// template.

#include "chat/chat_template.h"
#include "gguf/gguf.h"

#include <array>

namespace hearth::chat::detail {

namespace {

struct Builtin {
    std::string_view name;
    std::string_view source;
};

constexpr Builtin kBuiltins[] = {
#include "builtin_templates.inc"
};

// Turn markers that identify a chat format, in order of precedence.
struct Marker {
    std::string_view token;
    std::string_view format;
};
constexpr std::array kMarkers = {
    Marker{"<|start_header_id|>", "llama3"},
    Marker{"<start_of_turn>", "gemma"},
    Marker{"<|START_OF_TURN_TOKEN|>", "command-r"},
    Marker{"<\xEF\xBD\x9C"
           "User\xEF\xBD\x9C>",
           "deepseek"}, // <｜User｜>
    Marker{"<|im_start|>", "chatml"},
    Marker{"<|end|>", "phi3"},
    Marker{"[INST]", "mistral"},
    Marker{"<|assistant|>", "zephyr"},
};

// Architectures whose chat format is known when the vocabulary says nothing.
constexpr std::array<std::pair<std::string_view, std::string_view>, 12> kArchitectures = {{
    {"gemma", "gemma"},
    {"gemma2", "gemma"},
    {"gemma3", "gemma"},
    {"gemma3n", "gemma"},
    {"qwen2", "chatml"},
    {"qwen3", "chatml"},
    {"phi3", "phi3"},
    {"command-r", "command-r"},
    {"cohere2", "command-r"},
    {"deepseek2", "deepseek"},
    {"llama", "llama2"},
    {"mistral3", "mistral"},
}};

} // namespace

std::string_view builtinSource(std::string_view name)
{
    for (const Builtin& b : kBuiltins)
        if (b.name == name)
            return b.source;
    return {};
}

std::vector<std::string_view> builtinNames()
{
    std::vector<std::string_view> names;
    for (const Builtin& b : kBuiltins)
        names.push_back(b.name);
    return names;
}

std::string_view detectBuiltin(const gguf::File& file)
{
    const gguf::Value* tokens = nullptr;
    try {
        tokens = file.findArray("tokenizer.ggml.tokens");
    } catch (const Error&) {
        tokens = nullptr; // a malformed vocabulary says nothing about the format
    }
    if (tokens && tokens->elementType() == gguf::ValueType::String) {
        std::array<bool, kMarkers.size()> seen{};
        for (uint64_t i = 0; i < tokens->size(); ++i) {
            const std::string_view t = tokens->stringAt(i);
            if (t.empty() || (t[0] != '<' && t[0] != '['))
                continue;
            for (size_t m = 0; m < kMarkers.size(); ++m)
                seen[m] = seen[m] || t == kMarkers[m].token;
        }
        for (size_t m = 0; m < kMarkers.size(); ++m)
            if (seen[m])
                return kMarkers[m].format;
    }
    const std::string_view arch = file.architecture();
    for (const auto& [a, format] : kArchitectures)
        if (arch == a)
            return format;
    return "chatml";
}

} // namespace hearth::chat::detail
