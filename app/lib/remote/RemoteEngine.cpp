#include "remote/RemoteEngine.h"

#include "remote/RemoteCall.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QNetworkAccessManager>

namespace {

QString roleName(ChatTurn::Role role)
{
    switch (role) {
    case ChatTurn::Role::System: return QStringLiteral("system");
    case ChatTurn::Role::Assistant: return QStringLiteral("assistant");
    case ChatTurn::Role::User: break;
    }
    return QStringLiteral("user");
}

// The context length a /v1/models entry reports: vLLM's max_model_len,
// llama.cpp's meta.n_ctx (or n_ctx_train), others' context_length.
int contextOf(const QJsonObject& m)
{
    const QJsonObject meta = m.value(QLatin1String("meta")).toObject();
    for (const QJsonValue& v : {m.value(QLatin1String("max_model_len")), meta.value(QLatin1String("n_ctx")),
                                m.value(QLatin1String("context_length")), m.value(QLatin1String("context_window")),
                                meta.value(QLatin1String("n_ctx_train"))})
        if (v.toDouble() > 0)
            return int(std::min(v.toDouble(), double(1 << 30)));
    return 0;
}

StopReason stopReasonOf(const QString& finish)
{
    if (finish == QLatin1String("length"))
        return StopReason::MaxTokens;
    return StopReason::EndOfGeneration; // "stop", "eos", "tool_calls", ...
}

} // namespace

RemoteEngine::RemoteEngine(EndpointLookup lookup) : m_lookup(std::move(lookup))
{
}

bool RemoteEngine::isLoaded() const
{
    QMutexLocker lock(&m_mutex);
    return m_endpoint.has_value();
}

void RemoteEngine::unload()
{
    QMutexLocker lock(&m_mutex);
    m_endpoint.reset();
    m_modelId.clear();
    m_contextSize = 0;
    m_lastContextUsed = 0;
}

QList<RemoteModel> RemoteEngine::parseModels(const QJsonObject& body)
{
    QList<RemoteModel> out;
    // OpenAI: {"object": "list", "data": [...]}; Ollama's older API and some
    // proxies: {"models": [...]}.
    QJsonArray list = body.value(QLatin1String("data")).toArray();
    if (list.isEmpty())
        list = body.value(QLatin1String("models")).toArray();
    for (const QJsonValue v : list) {
        const QJsonObject m = v.toObject();
        RemoteModel r;
        r.id = m.value(QLatin1String("id")).toString();
        if (r.id.isEmpty())
            r.id = m.value(QLatin1String("name")).toString();
        if (r.id.isEmpty())
            continue;
        r.ownedBy = m.value(QLatin1String("owned_by")).toString();
        r.contextSize = contextOf(m);
        out.append(r);
    }
    return out;
}

QList<RemoteModel> RemoteEngine::listModels(const RemoteEndpoint& endpoint, const std::atomic<bool>* cancel)
{
    QNetworkAccessManager network;
    RemoteCall call(&network, endpoint, QStringLiteral("/models"), {}, /*stream=*/false);
    const RemoteFailure& f = call.waitForFinished(cancel);
    if (f.kind == RemoteFailure::Kind::Cancelled)
        throw EngineCancelled();
    if (f.failed())
        throw EngineError(f.message);
    if (!call.json().isObject() || !call.json().object().value(QLatin1String("data")).isArray())
        throw EngineError(QStringLiteral("%1 answered /v1/models without a model list: is this an "
                                         "OpenAI-compatible server?")
                              .arg(endpoint.label()));
    return parseModels(call.json().object());
}

ModelFacts RemoteEngine::load(const QString& path, const LoadParams&, const Progress& progress,
                              const std::atomic<bool>& cancel)
{
    unload();
    const QUrl url(path);
    QString error;
    std::optional<RemoteEndpoint> endpoint = m_lookup ? m_lookup(url, error) : std::nullopt;
    if (!endpoint)
        throw EngineError(error.isEmpty() ? QStringLiteral("No endpoint is set up for %1.").arg(path) : error);
    const QString id = endpoint->modelIdOf(url);
    if (id.isEmpty())
        throw EngineError(QStringLiteral("%1 names no model of %2.").arg(path, endpoint->label()));
    if (progress)
        progress(0.1);
    const QList<RemoteModel> models = listModels(*endpoint, &cancel);
    const auto found = std::find_if(models.begin(), models.end(), [&](const RemoteModel& m) { return m.id == id; });
    if (found == models.end()) {
        QStringList ids;
        for (const RemoteModel& m : models)
            ids.append(m.id);
        throw EngineError(QStringLiteral("%1 does not serve the model '%2' (it serves: %3).")
                              .arg(endpoint->label(), id, ids.isEmpty() ? QStringLiteral("nothing") : ids.join(", ")));
    }
    if (progress)
        progress(1.0);
    ModelFacts f;
    f.path = path;
    f.name = id;
    f.architecture = QStringLiteral("remote");
    f.engine = kind();
    f.endpoint = endpoint->label();
    f.trainedContext = found->contextSize;
    f.contextSize = found->contextSize;
    f.chatTemplate = QStringLiteral("server");
    QMutexLocker lock(&m_mutex);
    m_endpoint = std::move(endpoint);
    m_modelId = id;
    m_contextSize = found->contextSize;
    return f;
}

FitEstimate RemoteEngine::estimate(const QString& path, const LoadParams&) const
{
    if (!isRemoteModelPath(path))
        throw EngineError(QStringLiteral("%1 is not a remote model.").arg(path));
    return {}; // runs on the server: nothing to fit here
}

void RemoteEngine::addSampler(QJsonObject& body, const SamplerSettings& s, bool extended)
{
    body.insert(QLatin1String("temperature"), s.temperature);
    body.insert(QLatin1String("top_p"), s.topP);
    body.insert(QLatin1String("seed"), qint64(s.seed & 0x7fffffff)); // what the local engine uses too
    if (s.maxTokens > 0)
        body.insert(QLatin1String("max_tokens"), s.maxTokens);
    if (extended) { // llama.cpp, llama-cpp-python, vLLM, LocalAI; OpenAI itself refuses them
        body.insert(QLatin1String("top_k"), s.topK);
        body.insert(QLatin1String("min_p"), s.minP);
        body.insert(QLatin1String("repeat_penalty"), s.repeatPenalty);
    }
}

GenerationStats RemoteEngine::generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler,
                                       const PieceSink& sink, const std::atomic<bool>& stop)
{
    QJsonArray messages;
    for (const ChatTurn& t : turns)
        messages.append(QJsonObject{{QStringLiteral("role"), roleName(t.role)}, {QStringLiteral("content"), t.text}});
    return stream(QStringLiteral("/chat/completions"), QJsonObject{{QStringLiteral("messages"), messages}}, sampler,
                  sink, stop);
}

GenerationStats RemoteEngine::complete(const QString& prompt, const SamplerSettings& sampler, const PieceSink& sink,
                                       const std::atomic<bool>& stop)
{
    return stream(QStringLiteral("/completions"), QJsonObject{{QStringLiteral("prompt"), prompt}}, sampler, sink, stop);
}

GenerationStats RemoteEngine::stream(const QString& route, QJsonObject body, const SamplerSettings& sampler,
                                     const PieceSink& sink, const std::atomic<bool>& stop)
{
    RemoteEndpoint endpoint;
    QString modelId;
    int contextSize = 0;
    {
        QMutexLocker lock(&m_mutex);
        if (!m_endpoint)
            throw EngineError(QStringLiteral("No model is loaded."));
        endpoint = *m_endpoint;
        modelId = m_modelId;
        contextSize = m_contextSize;
    }
    body.insert(QLatin1String("model"), modelId);
    body.insert(QLatin1String("stream"), true);
    body.insert(QLatin1String("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
    addSampler(body, sampler, endpoint.extendedSampling);

    GenerationStats live;
    live.contextSize = contextSize;
    QString finish;
    bool usage = false;
    QElapsedTimer clock;
    clock.start();
    const auto onEvent = [&](const QJsonObject& chunk) {
        const QJsonObject u = chunk.value(QLatin1String("usage")).toObject();
        if (!u.isEmpty()) {
            usage = true;
            live.promptTokens = u.value(QLatin1String("prompt_tokens")).toInt();
            live.generatedTokens = u.value(QLatin1String("completion_tokens")).toInt(live.generatedTokens);
            live.contextUsed = live.promptTokens + live.generatedTokens;
        }
        for (const QJsonValue c : chunk.value(QLatin1String("choices")).toArray()) {
            const QJsonObject choice = c.toObject();
            if (choice.value(QLatin1String("index")).toInt() != 0)
                continue;
            // delta (chat stream), message (chat answered whole), text (completions)
            QString text = choice.value(QLatin1String("text")).toString();
            for (const char* key : {"delta", "message"})
                text += choice.value(QLatin1String(key)).toObject().value(QLatin1String("content")).toString();
            const QString f = choice.value(QLatin1String("finish_reason")).toString();
            if (!f.isEmpty())
                finish = f;
            if (text.isEmpty())
                continue;
            const double now = double(clock.nsecsElapsed()) / 1e6;
            if (live.timeToFirstTokenMs < 0)
                live.timeToFirstTokenMs = live.promptMs = now;
            if (!usage) {
                ++live.generatedTokens; // servers send about one token per chunk
                live.contextUsed = m_lastContextUsed + live.generatedTokens;
            }
            live.generationMs = now - live.timeToFirstTokenMs;
            sink(text, live);
        }
    };
    QNetworkAccessManager network;
    RemoteCall call(&network, endpoint, route, body, /*stream=*/true, onEvent);
    const RemoteFailure& f = call.waitForFinished(&stop);
    if (live.timeToFirstTokenMs >= 0)
        live.generationMs = double(clock.nsecsElapsed()) / 1e6 - live.timeToFirstTokenMs;
    if (f.kind == RemoteFailure::Kind::Cancelled || (stop.load() && !f.failed())) {
        live.stopReason = StopReason::Stopped;
        return live;
    }
    if (f.failed())
        throw EngineError(live.generatedTokens > 0 ? f.message + QStringLiteral(" The text that arrived is kept.")
                                                   : f.message);
    if (finish.isEmpty() && !call.sawDone())
        throw EngineError(QStringLiteral("The connection to %1 closed before the reply was complete.%2")
                              .arg(endpoint.label(), live.generatedTokens > 0
                                                         ? QStringLiteral(" The text that arrived is kept.")
                                                         : QString()));
    live.stopReason = stopReasonOf(finish);
    if (usage)
        m_lastContextUsed = live.contextUsed;
    return live;
}
