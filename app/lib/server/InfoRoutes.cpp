// The routes besides completions: health, the model list (with router
// status), tokenize / detokenize / apply-template, Prometheus metrics, and
// the router's load / unload.
#include "ApiServer.h"
#include "HttpUtil.h"
#include "Requests.h"

#include "chat/template_error.h"
#include "chat/value.h"

#include <sstream>

namespace hearth::server {

using nlohmann::json;

namespace {

json modelJson(const ModelState& m, bool router)
{
    json j = {{"id", m.id}, {"object", "model"}, {"created", m.created}, {"owned_by", "hearth"}};
    json status = {{"value", modelStatusName(m.status)}};
    if (m.status == ModelStatus::Failed) {
        status["failed"] = true;
        status["error"] = m.error;
    }
    if (router || m.status != ModelStatus::Loaded)
        j["status"] = status;
    if (m.slotCount > 0)
        j["meta"] = {{"n_ctx", m.contextSize}, {"n_ctx_slot", m.slotContext}, {"n_slots", m.slotCount}};
    return j;
}

// The model a tokenize-style request names: "model" in the body, else the
// only / first loaded one.
std::unique_ptr<ModelRouter::Lease> leaseFor(ModelRouter& router, const json& body)
{
    std::string name;
    if (const auto it = body.find("model"); it != body.end() && !it->is_null()) {
        if (!it->is_string())
            throw badRequest("'model' must be a string", "model");
        name = it->get<std::string>();
    }
    return router.acquire(name);
}

std::string renderMessages(const LoadedModel& model, const TemplateRequest& r)
{
    chat::Value list = chat::Value::array();
    for (const ChatMessageIn& m : r.messages) {
        chat::Value v = chat::Value::object();
        v.set("role", chat::Value(m.role));
        v.set("content", chat::Value(m.content));
        list.push(std::move(v));
    }
    const Tokenizer& tok = model.tokenizer();
    chat::RenderOptions o;
    o.enableThinking = r.enableThinking;
    if (tok.bos() >= 0)
        o.bosToken = std::string(tok.tokenText(tok.bos()));
    if (tok.eos() >= 0)
        o.eosToken = std::string(tok.tokenText(tok.eos()));
    try {
        return model.chatTemplate().render(list, o);
    } catch (const chat::TemplateError& e) {
        throw badRequest(std::string("the model's chat template refused these messages: ") + e.what(), "messages");
    }
}

void metric(std::ostringstream& out, const char* name, const char* type, const char* help, const std::string& label,
            double value)
{
    out << "# HELP hearth:" << name << ' ' << help << "\n# TYPE hearth:" << name << ' ' << type << "\nhearth:" << name
        << label << ' ' << value << '\n';
}

} // namespace

void ApiServer::health(const httplib::Request&, httplib::Response& res)
{
    if (m_router.ready()) {
        sendJson(res, 200, json{{"status", "ok"}});
        return;
    }
    const std::vector<ModelState> models = m_router.list();
    if (!models.empty() && models.front().status == ModelStatus::Failed) {
        sendError(res, serverError("the model failed to load: " + models.front().error));
        return;
    }
    res.set_header("Retry-After", "1");
    sendJson(res, 503, ApiError(503, "unavailable_error", "Loading model").body());
}

void ApiServer::models(const httplib::Request&, httplib::Response& res)
{
    json data = json::array();
    for (const ModelState& m : m_router.list())
        data.push_back(modelJson(m, m_router.routerMode()));
    sendJson(res, 200, json{{"object", "list"}, {"data", data}});
}

void ApiServer::model(const httplib::Request& req, httplib::Response& res)
{
    const std::string id = req.matches[1].str();
    for (const ModelState& m : m_router.list())
        if (m.id == id) {
            sendJson(res, 200, modelJson(m, m_router.routerMode()));
            return;
        }
    throw notFound("the model '" + id + "' does not exist");
}

void ApiServer::tokenize(const httplib::Request& req, httplib::Response& res)
{
    const json body = parseBody(req.body);
    const TokenizeRequest r = parseTokenizeRequest(body);
    const auto lease = leaseFor(m_router, body);
    const Tokenizer& tok = lease->engine().tokenizer();
    const std::vector<TokenId> ids = tok.encode(r.content, r.addSpecial, /*parseSpecial=*/true);
    json tokens = json::array();
    for (const TokenId t : ids) {
        if (r.withPieces)
            tokens.push_back({{"id", t}, {"piece", tok.tokenToPiece(t, /*renderSpecial=*/true)}});
        else
            tokens.push_back(t);
    }
    sendJson(res, 200, json{{"tokens", tokens}});
}

void ApiServer::detokenize(const httplib::Request& req, httplib::Response& res)
{
    const json body = parseBody(req.body);
    const DetokenizeRequest r = parseDetokenizeRequest(body);
    const auto lease = leaseFor(m_router, body);
    const Tokenizer& tok = lease->engine().tokenizer();
    for (const TokenId t : r.tokens)
        if (t < 0 || t >= tok.vocabSize())
            throw badRequest("token id " + std::to_string(t) + " is outside the vocabulary (" +
                                 std::to_string(tok.vocabSize()) + " tokens)",
                             "tokens");
    sendJson(res, 200, json{{"content", tok.decode(r.tokens, /*renderSpecial=*/true)}});
}

void ApiServer::applyTemplate(const httplib::Request& req, httplib::Response& res)
{
    const json body = parseBody(req.body);
    const TemplateRequest r = parseTemplateRequest(body);
    const auto lease = leaseFor(m_router, body);
    sendJson(res, 200, json{{"prompt", renderMessages(lease->engine().model(), r)}});
}

void ApiServer::metrics(const httplib::Request&, httplib::Response& res)
{
    std::ostringstream out;
    out.precision(10);
    metric(out, "http_requests_total", "counter", "HTTP requests received.", "",
           static_cast<double>(m_counters->requests.load()));
    metric(out, "http_rejected_auth_total", "counter", "Requests refused for a missing or wrong API key.", "",
           static_cast<double>(m_counters->rejectedAuth.load()));
    metric(out, "http_rejected_origin_total", "counter", "Requests refused for an Origin not allowed.", "",
           static_cast<double>(m_counters->rejectedOrigin.load()));
    metric(out, "http_rejected_host_total", "counter", "Requests refused for a Host header not loopback.", "",
           static_cast<double>(m_counters->rejectedHost.load()));
    for (const auto& [id, e] : m_router.metrics()) {
        const std::string l = "{model=\"" + id + "\"}";
        metric(out, "prompt_tokens_total", "counter", "Prompt tokens evaluated.", l,
               static_cast<double>(e.promptTokens));
        metric(out, "prompt_seconds_total", "counter", "Time spent on prompts.", l, e.promptSeconds);
        metric(out, "tokens_predicted_total", "counter", "Tokens generated.", l,
               static_cast<double>(e.generatedTokens));
        metric(out, "tokens_predicted_seconds_total", "counter", "Time spent generating.", l, e.generationSeconds);
        metric(out, "requests_total", "counter", "Generations (one per choice) accepted.", l,
               static_cast<double>(e.requests));
        metric(out, "requests_cancelled_total", "counter", "Generations cancelled by a client that went away.", l,
               static_cast<double>(e.cancelled));
        metric(out, "n_decode_total", "counter", "Batched forward passes.", l, static_cast<double>(e.decodeCalls));
        metric(out, "n_busy_slots_per_decode", "gauge", "Average slots per forward pass.", l,
               e.decodeCalls ? static_cast<double>(e.busySlotSteps) / static_cast<double>(e.decodeCalls) : 0.0);
        metric(out, "requests_processing", "gauge", "Generations in a slot now.", l, e.running);
        metric(out, "requests_deferred", "gauge", "Generations waiting for a slot.", l, e.queued);
        metric(out, "kv_cache_usage_ratio", "gauge", "Share of KV cache cells in use.", l,
               e.kvCells ? static_cast<double>(e.kvUsedCells) / static_cast<double>(e.kvCells) : 0.0);
    }
    res.status = 200;
    res.set_content(out.str(), "text/plain; version=0.0.4");
}

void ApiServer::loadModel(const httplib::Request& req, httplib::Response& res)
{
    if (!m_router.routerMode())
        throw badRequest("this server runs one model (-m); start it with --models-dir to load models");
    const ModelNameRequest r = parseModelNameRequest(parseBody(req.body));
    m_router.load(r.model);
    sendJson(res, 200, json{{"success", true}});
}

void ApiServer::unloadModel(const httplib::Request& req, httplib::Response& res)
{
    if (!m_router.routerMode())
        throw badRequest("this server runs one model (-m); start it with --models-dir to unload models");
    const ModelNameRequest r = parseModelNameRequest(parseBody(req.body));
    m_router.unload(r.model);
    sendJson(res, 200, json{{"success", true}});
}

} // namespace hearth::server
