// The OpenAI-compatible HTTP server (`hearth serve`, and the app's local
// server): routes, security checks and limits over cpp-httplib.
//
// Security model (docs/server.md): binds to loopback unless told otherwise
// and refuses to listen beyond it without an API key; with keys, every
// route but /health needs `Authorization: Bearer KEY` or `X-Api-Key: KEY`;
// browsers get CORS only for an allow-list of origins (localhost and
// app-like schemes by default) and a request from any other Origin is
// refused (403) before it runs; on loopback the Host header must name
// loopback (DNS rebinding); bodies over the limit get 413, headers are
// capped at 8 KiB, a read that stalls times out; the queue is bounded
// (503). Every client mistake is a 4xx with OpenAI's error JSON.
//
// Threads: httplib's pool of `httpThreads` handles connections; each
// request thread waits on its jobs while the model's engine thread runs
// them. bind() and run() from one thread; stop() from any.
#pragma once

#include "ModelRouter.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace httplib {
class Server;
struct Request;
struct Response;
} // namespace httplib

namespace hearth::server {

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 8080; // 0: any free port (port() tells which)
    std::vector<std::string> apiKeys;
    // Origins granted CORS besides the built-in localhost list; "*": any.
    std::vector<std::string> corsOrigins;
    size_t maxBodyBytes = size_t{8} << 20;
    int readTimeoutSeconds = 10;
    int writeTimeoutSeconds = 60;
    int httpThreads = 0; // 0: enough for every slot and queue place of the models
    int keepAliveSeconds = 5;
};

// Whether a --host value is a loopback address or name.
bool isLoopbackHost(const std::string& host);
// Whether an Origin header value is in the default allow-list.
bool isLocalOrigin(const std::string& origin);

class ApiServer {
public:
    ApiServer(ServerOptions options, ModelRouter& router);
    ~ApiServer();

    // Binds the address. Throws hearth::Error with a sentence for the user:
    // a non-loopback host without an API key, an address in use.
    void bind();
    int port() const { return m_port; }
    // Serves until stop().
    void run();
    void stop();

    // For /metrics.
    struct Counters {
        std::atomic<uint64_t> requests{0}, rejectedAuth{0}, rejectedOrigin{0}, rejectedHost{0}, clientErrors{0},
            serverErrors{0};
    };

private:
    void routes();
    bool checkRequest(const httplib::Request& req, httplib::Response& res);
    void health(const httplib::Request& req, httplib::Response& res);
    void models(const httplib::Request& req, httplib::Response& res);
    void model(const httplib::Request& req, httplib::Response& res);
    void chat(const httplib::Request& req, httplib::Response& res);
    void completion(const httplib::Request& req, httplib::Response& res);
    void tokenize(const httplib::Request& req, httplib::Response& res);
    void detokenize(const httplib::Request& req, httplib::Response& res);
    void applyTemplate(const httplib::Request& req, httplib::Response& res);
    void embeddings(const httplib::Request& req, httplib::Response& res);
    void metrics(const httplib::Request& req, httplib::Response& res);
    void loadModel(const httplib::Request& req, httplib::Response& res);
    void unloadModel(const httplib::Request& req, httplib::Response& res);

    ServerOptions m_options;
    ModelRouter& m_router;
    std::unique_ptr<httplib::Server> m_http;
    int m_port = 0;
    bool m_loopback = true;
    std::atomic<bool> m_stopRequested{false}, m_listening{false}, m_finished{false};
    std::unique_ptr<Counters> m_counters;
};

} // namespace hearth::server
