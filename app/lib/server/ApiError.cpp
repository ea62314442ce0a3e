#include "ApiError.h"

namespace hearth::server {

nlohmann::json ApiError::body() const
{
    nlohmann::json e = {{"message", what()}, {"type", m_type}, {"code", m_status}};
    e["param"] = m_param.empty() ? nlohmann::json(nullptr) : nlohmann::json(m_param);
    for (const auto& [k, v] : extra.items())
        e[k] = v;
    return nlohmann::json{{"error", e}};
}

ApiError badRequest(const std::string& message, const std::string& param)
{
    return ApiError(400, "invalid_request_error", message, param);
}

ApiError notFound(const std::string& message)
{
    return ApiError(404, "not_found_error", message);
}

ApiError unavailable(const std::string& message)
{
    return ApiError(503, "unavailable_error", message);
}

ApiError serverError(const std::string& message)
{
    return ApiError(500, "server_error", message);
}

const char* errorTypeFor(int status)
{
    switch (status) {
    case 401: return "authentication_error";
    case 403: return "permission_error";
    case 404: return "not_found_error";
    case 413: return "invalid_request_error";
    case 501: return "not_supported_error";
    case 503: return "unavailable_error";
    default: return status >= 500 ? "server_error" : "invalid_request_error";
    }
}

std::string dumpJson(const nlohmann::json& j)
{
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace hearth::server
