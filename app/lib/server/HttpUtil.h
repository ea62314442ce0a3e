// Helpers the route files share (internal to app/lib/server).
#pragma once

#include "ApiError.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace hearth::server {

inline void sendJson(httplib::Response& res, int status, const nlohmann::json& body)
{
    res.status = status;
    res.set_content(dumpJson(body), "application/json; charset=utf-8");
}

inline void sendError(httplib::Response& res, const ApiError& e)
{
    if (e.status() == 503)
        res.set_header("Retry-After", "2");
    sendJson(res, e.status(), e.body());
}

// Runs a handler; an ApiError becomes its status and OpenAI error JSON,
// anything else a 500 that names it (a bug or an engine fault, never a
// client mistake: those are ApiErrors).
inline void guarded(httplib::Response& res, const std::function<void()>& handler)
{
    try {
        handler();
    } catch (const ApiError& e) {
        sendError(res, e);
    } catch (const std::exception& e) {
        sendError(res, serverError(std::string("internal error: ") + e.what()));
    }
}

} // namespace hearth::server
