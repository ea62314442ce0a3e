// The request bodies the server accepts, parsed with strict types: a field
// of the wrong JSON type ("5" for max_tokens), out of range (-5, 2^63) or
// not finite is a 400 naming the field; unknown fields are ignored, and a
// null counts as absent (some clients send every field). Nothing here
// touches a model: limits that depend on one (vocabulary, context, slots)
// are checked where the request meets it.
//
// Plain C++ (no Qt, no engine): fuzz_server_request drives these parsers.
#pragma once

#include "ApiError.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hearth::server {

// Nesting deeper than this is refused before anything looks at the fields.
inline constexpr int kMaxJsonDepth = 64;

// Sampling and length fields shared by chat and text completions. Absent
// fields keep llama-server's defaults.
struct SamplingFields {
    float temperature = 0.8f;
    float topP = 0.95f;
    int32_t topK = 40;
    float minP = 0.05f;
    float typicalP = 1.0f;
    float repeatPenalty = 1.0f;
    float presencePenalty = 0.0f;
    float frequencyPenalty = 0.0f;
    int32_t repeatLastN = 64;
    std::optional<int64_t> seed;
    std::vector<std::string> stop;
    int32_t maxTokens = -1; // -1: until the model stops or the slot's context is full
    int n = 1;
    bool logprobs = false;
    int topLogprobs = 0;
    std::vector<std::pair<int32_t, float>> logitBias; // token id, bias (-inf: banned)
    bool stream = false;
    bool includeUsage = false; // stream_options.include_usage
};

struct ChatMessageIn {
    std::string role;
    std::string content;
};

struct ChatRequest {
    std::string model;
    std::vector<ChatMessageIn> messages;
    SamplingFields sampling;
    std::optional<bool> enableThinking; // chat_template_kwargs.enable_thinking
};

struct CompletionRequest {
    std::string model;
    // Exactly one of the two: text (tokenized with special tokens parsed)
    // or token ids.
    std::optional<std::string> text;
    std::vector<int32_t> tokens;
    SamplingFields sampling;
    bool echo = false;
};

struct TokenizeRequest {
    std::string content;
    bool addSpecial = false;
    bool withPieces = false;
};

struct DetokenizeRequest {
    std::vector<int32_t> tokens;
};

struct TemplateRequest {
    std::vector<ChatMessageIn> messages;
    std::optional<bool> enableThinking;
};

// Inputs per /v1/embeddings request, as OpenAI allows.
inline constexpr size_t kMaxEmbeddingInputs = 2048;

struct EmbeddingRequest {
    std::string model;
    // "input": a string or an array of strings (texts), or token ids / an
    // array of token id arrays (tokens, taken as the model's ids as they
    // are). Exactly one of the two is filled, never with an empty entry.
    std::vector<std::string> texts;
    std::vector<std::vector<int32_t>> tokens;
    bool base64 = false;               // encoding_format "base64" (else "float")
    std::optional<int64_t> dimensions; // must equal the model's when given
};

// {"model": "..."} of /models/load and /models/unload.
struct ModelNameRequest {
    std::string model;
};

// The body as a JSON object; malformed, truncated, too deep or not an
// object: 400.
nlohmann::json parseBody(std::string_view body);

ChatRequest parseChatRequest(const nlohmann::json& body);
CompletionRequest parseCompletionRequest(const nlohmann::json& body);
TokenizeRequest parseTokenizeRequest(const nlohmann::json& body);
DetokenizeRequest parseDetokenizeRequest(const nlohmann::json& body);
TemplateRequest parseTemplateRequest(const nlohmann::json& body);
ModelNameRequest parseModelNameRequest(const nlohmann::json& body);
EmbeddingRequest parseEmbeddingRequest(const nlohmann::json& body);

} // namespace hearth::server
