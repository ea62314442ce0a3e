// The errors the server answers with, in OpenAI's shape:
//   {"error": {"message": "...", "type": "invalid_request_error",
//              "param": "temperature", "code": 400}}
// Every client mistake is a 4xx (the OpenAI SDKs retry 408, 409, 429 and
// 5xx twice, so a 500 for bad JSON would triple the damage); 5xx is kept for
// faults of the server itself (a model that failed to load, an engine
// error) and 503 for "busy / loading, try again".
//
// Plain C++ (no Qt): the request parser and its fuzz target use it.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace hearth::server {

class ApiError : public std::runtime_error {
public:
    ApiError(int status, std::string type, const std::string& message, std::string param = {})
        : std::runtime_error(message), m_status(status), m_type(std::move(type)), m_param(std::move(param))
    {
    }

    int status() const { return m_status; }
    const std::string& type() const { return m_type; }
    const std::string& param() const { return m_param; }
    // Fields added to the error object (exceed_context_size_error carries
    // n_prompt_tokens and n_ctx).
    nlohmann::json extra = nlohmann::json::object();

    nlohmann::json body() const;

private:
    int m_status;
    std::string m_type;
    std::string m_param;
};

ApiError badRequest(const std::string& message, const std::string& param = {});
ApiError notFound(const std::string& message);
ApiError unavailable(const std::string& message);
ApiError serverError(const std::string& message);

// The type OpenAI / llama-server give a status without a more precise one.
const char* errorTypeFor(int status);

// JSON text that never throws on invalid UTF-8 (replaced by U+FFFD).
std::string dumpJson(const nlohmann::json& j);

} // namespace hearth::server
