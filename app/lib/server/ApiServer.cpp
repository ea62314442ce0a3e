#include "ApiServer.h"

#include "HttpUtil.h"
#include "Requests.h"

#include "util/error.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <thread>

namespace hearth::server {

using nlohmann::json;

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool isLoopbackName(const std::string& h)
{
    const std::string host = lower(h);
    if (host == "localhost" || host == "::1" || host == "[::1]" || host == "ip6-localhost")
        return true;
    if (host.size() > 10 && host.compare(host.size() - 10, 10, ".localhost") == 0)
        return true;
    // 127.0.0.0/8, dotted quad only.
    unsigned a = 0, b = 0, c = 0, d = 0;
    char tail = 0;
    return std::sscanf(host.c_str(), "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) == 4 && a == 127 && b < 256 && c < 256 &&
           d < 256;
}

// The host part of a Host header ("[::1]:8080" → "::1", "a:1" → "a").
std::string hostOfHeader(const std::string& value)
{
    if (!value.empty() && value[0] == '[') {
        const size_t end = value.find(']');
        return end == std::string::npos ? value : value.substr(1, end - 1);
    }
    return value.substr(0, value.find(':'));
}

bool sameKey(const std::string& a, const std::string& b)
{
    // Constant time in the length of the longer one.
    const size_t n = std::max(a.size(), b.size());
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (size_t i = 0; i < n; ++i)
        diff |= static_cast<unsigned char>((i < a.size() ? a[i] : 0) ^ (i < b.size() ? b[i] : 0));
    return diff == 0;
}

bool isPublicPath(const std::string& path)
{
    return path == "/health" || path == "/v1/health";
}

// Request headers a browser may send (preflight), besides the safelisted ones.
bool allowedRequestHeader(const std::string& h)
{
    const std::string name = lower(h);
    return name == "authorization" || name == "content-type" || name == "x-api-key" || name == "accept" ||
           name == "openai-organization" || name == "openai-project" || name == "openai-beta" ||
           name.rfind("x-stainless-", 0) == 0;
}

const char* kAllowHeaders = "Authorization, Content-Type, X-Api-Key, Accept, OpenAI-Organization, OpenAI-Project, "
                            "OpenAI-Beta, X-Stainless-Arch, X-Stainless-Lang, X-Stainless-OS, "
                            "X-Stainless-Package-Version, X-Stainless-Retry-Count, X-Stainless-Runtime, "
                            "X-Stainless-Runtime-Version, X-Stainless-Timeout, X-Stainless-Async, "
                            "X-Stainless-Helper-Method, X-Stainless-Poll-Helper, X-Stainless-Custom-Poll-Interval";

} // namespace

bool isLoopbackHost(const std::string& host)
{
    return isLoopbackName(host);
}

bool isLocalOrigin(const std::string& origin)
{
    const std::string o = lower(origin);
    for (const char* scheme : {"app://", "tauri://", "vscode-webview://", "vscode-file://"})
        if (o.rfind(scheme, 0) == 0)
            return true;
    for (const char* scheme : {"http://", "https://"}) {
        const size_t n = std::char_traits<char>::length(scheme);
        if (o.rfind(scheme, 0) != 0)
            continue;
        const std::string rest = o.substr(n);
        if (rest.find('/') != std::string::npos)
            return false; // an Origin is scheme://host[:port], nothing after
        return isLoopbackName(hostOfHeader(rest));
    }
    return false;
}

ApiServer::ApiServer(ServerOptions options, ModelRouter& router)
    : m_options(std::move(options))
    , m_router(router)
    , m_http(std::make_unique<httplib::Server>())
    , m_counters(std::make_unique<Counters>())
{
}

ApiServer::~ApiServer() = default;

void ApiServer::bind()
{
    m_loopback = isLoopbackHost(m_options.host);
    if (!m_loopback && m_options.apiKeys.empty())
        throw Error("refusing to listen on " + m_options.host +
                    " without an API key: anyone who can reach this machine could use it. Pass --api-key KEY "
                    "(or --api-key-file FILE), or keep the default --host 127.0.0.1");
    int threads = m_options.httpThreads;
    if (threads <= 0)
        threads = 160; // 64 queued + slots + health/metrics callers, with room to spare
    m_http->new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
    m_http->set_payload_max_length(m_options.maxBodyBytes);
    m_http->set_read_timeout(m_options.readTimeoutSeconds, 0);
    m_http->set_write_timeout(m_options.writeTimeoutSeconds, 0);
    m_http->set_keep_alive_timeout(m_options.keepAliveSeconds);
    m_http->set_keep_alive_max_count(100);
    m_http->set_tcp_nodelay(true);
    routes();
    std::string host = m_options.host;
    if (host == "localhost")
        host = "127.0.0.1";
    if (m_options.port == 0) {
        m_port = m_http->bind_to_any_port(host);
        if (m_port <= 0)
            throw Error("cannot listen on " + m_options.host + ": no free port");
    } else {
        if (!m_http->bind_to_port(host, m_options.port))
            throw Error("cannot listen on " + m_options.host + ":" + std::to_string(m_options.port) +
                        " (is the port in use, or the address not on this machine?)");
        m_port = m_options.port;
    }
}

void ApiServer::run()
{
    m_listening.store(true);
    if (!m_stopRequested.load())
        m_http->listen_after_bind();
    m_finished.store(true);
}

void ApiServer::stop()
{
    m_stopRequested.store(true);
    // httplib's stop() does nothing before its loop runs: wait for the loop
    // (or for run() to have returned) so a quick stop is not lost.
    if (m_listening.load())
        for (int i = 0; i < 2000 && !m_http->is_running() && !m_finished.load(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    m_http->stop();
}

bool ApiServer::checkRequest(const httplib::Request& req, httplib::Response& res)
{
    ++m_counters->requests;
    // DNS rebinding: a page on evil.example that resolves to 127.0.0.1
    // reaches a loopback server with its own name in Host.
    if (m_loopback && req.has_header("Host")) {
        const std::string host = hostOfHeader(req.get_header_value("Host"));
        if (!host.empty() && !isLoopbackName(host)) {
            ++m_counters->rejectedHost;
            sendError(res, ApiError(403, "permission_error",
                                    "the Host header '" + host +
                                        "' is not this machine: a loopback server answers only to localhost "
                                        "names (DNS rebinding protection)"));
            return false;
        }
    }
    // Browsers: only listed origins get CORS, and a request from any other
    // origin is refused before it runs (a form POST needs no preflight).
    if (req.has_header("Origin")) {
        const std::string origin = req.get_header_value("Origin");
        const bool any =
            std::find(m_options.corsOrigins.begin(), m_options.corsOrigins.end(), "*") != m_options.corsOrigins.end();
        const bool listed = std::find(m_options.corsOrigins.begin(), m_options.corsOrigins.end(), origin) !=
                            m_options.corsOrigins.end();
        if (!any && !listed && !isLocalOrigin(origin)) {
            ++m_counters->rejectedOrigin;
            sendError(res, ApiError(403, "permission_error",
                                    "the origin '" + origin +
                                        "' may not use this server (start it with --cors-origins to allow it)"));
            return false;
        }
        res.set_header("Access-Control-Allow-Origin", origin);
        res.set_header("Vary", "Origin");
        res.set_header("Access-Control-Allow-Credentials", "true");
        if (req.method == "OPTIONS") {
            res.set_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
            std::string asked = req.get_header_value("Access-Control-Request-Headers");
            std::string allow = kAllowHeaders;
            // Echo what was asked for when all of it is allowed (covers
            // x-stainless-* names not in the fixed list).
            bool ok = !asked.empty();
            size_t start = 0;
            while (ok && start <= asked.size()) {
                size_t end = asked.find(',', start);
                if (end == std::string::npos)
                    end = asked.size();
                std::string h = asked.substr(start, end - start);
                h.erase(0, h.find_first_not_of(" \t"));
                h.erase(h.find_last_not_of(" \t") + 1);
                ok = h.empty() || allowedRequestHeader(h);
                start = end + 1;
            }
            if (ok)
                allow = asked;
            res.set_header("Access-Control-Allow-Headers", allow);
            res.set_header("Access-Control-Max-Age", "600");
        }
    }
    if (req.method == "OPTIONS") {
        res.status = 204;
        return false;
    }
    if (!m_options.apiKeys.empty() && !isPublicPath(req.path)) {
        std::string key;
        const std::string auth = req.get_header_value("Authorization");
        if (auth.size() > 7 && lower(auth.substr(0, 7)) == "bearer ")
            key = auth.substr(7);
        else if (req.has_header("X-Api-Key"))
            key = req.get_header_value("X-Api-Key");
        bool ok = false;
        for (const std::string& k : m_options.apiKeys)
            ok = sameKey(key, k) || ok;
        if (!ok) {
            ++m_counters->rejectedAuth;
            res.set_header("WWW-Authenticate", "Bearer");
            sendError(res, ApiError(401, "authentication_error",
                                    key.empty() ? "an API key is required (Authorization: Bearer KEY or X-Api-Key)"
                                                : "invalid API key"));
            return false;
        }
    }
    return true;
}

void ApiServer::routes()
{
    httplib::Server& s = *m_http;
    s.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
        return checkRequest(req, res) ? httplib::Server::HandlerResponse::Unhandled
                                      : httplib::Server::HandlerResponse::Handled;
    });
    // Errors httplib makes itself (404 no route, 413, 400 bad request line)
    // get a JSON body too.
    s.set_error_handler([this](const httplib::Request& req, httplib::Response& res) {
        if (res.status >= 500)
            ++m_counters->serverErrors;
        else
            ++m_counters->clientErrors;
        if (!res.body.empty())
            return;
        std::string message = "HTTP " + std::to_string(res.status);
        switch (res.status) {
        case 404: message = "no route " + req.method + " " + req.path; break;
        case 405: message = "method not allowed"; break;
        case 413:
            message =
                "the body is larger than the server's limit of " + std::to_string(m_options.maxBodyBytes) + " bytes";
            break;
        case 414: message = "the URI is too long"; break;
        case 400: message = "malformed HTTP request"; break;
        default: break;
        }
        sendJson(res, res.status, ApiError(res.status, errorTypeFor(res.status), message).body());
    });
    s.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
        std::string what = "unknown";
        try {
            std::rethrow_exception(ep);
        } catch (const std::exception& e) {
            what = e.what();
        } catch (...) {
        }
        sendError(res, serverError("internal error: " + what));
    });
    const auto get = [&](const std::string& path, void (ApiServer::*fn)(const httplib::Request&, httplib::Response&)) {
        s.Get(path, [this, fn](const httplib::Request& req, httplib::Response& res) {
            guarded(res, [&] { (this->*fn)(req, res); });
        });
    };
    const auto post = [&](const std::string& path, void (ApiServer::*fn)(const httplib::Request&, httplib::Response&)) {
        s.Post(path, [this, fn](const httplib::Request& req, httplib::Response& res) {
            guarded(res, [&] { (this->*fn)(req, res); });
        });
    };
    for (const char* prefix : {"", "/v1"}) {
        const auto path = [&](const char* tail) { return std::string(prefix) + tail; };
        get(path("/health"), &ApiServer::health);
        get(path("/models"), &ApiServer::models);
        get(path("/models/(.+)"), &ApiServer::model);
        post(path("/chat/completions"), &ApiServer::chat);
        post(path("/completions"), &ApiServer::completion);
        post(path("/tokenize"), &ApiServer::tokenize);
        post(path("/detokenize"), &ApiServer::detokenize);
        post(path("/apply-template"), &ApiServer::applyTemplate);
        post(path("/embeddings"), &ApiServer::embeddings);
        post(path("/models/load"), &ApiServer::loadModel);
        post(path("/models/unload"), &ApiServer::unloadModel);
    }
    get("/metrics", &ApiServer::metrics);
}

} // namespace hearth::server
