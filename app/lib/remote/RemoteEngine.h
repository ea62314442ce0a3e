// InferenceEngine over an OpenAI-compatible server: "loading" a model URL
// (RemoteEndpoint::modelUrl) asks the endpoint's /v1/models that the model
// is there (and its context, where the server says); generate() streams
// /v1/chat/completions (the server applies the model's chat template);
// complete() streams /v1/completions with a raw prompt (`hearth run
// --endpoint`). Statistics come from the stream: time to first token is
// the first text's arrival, tokens/s counts the streamed pieces until the
// server's usage (prompt and completion tokens) replaces the counts at the
// end. The context used is the server's count (prompt + completion tokens)
// where it reports usage; while a reply streams, before that count arrives,
// it is the previous reply's count plus the pieces so far (an estimate the
// final figure replaces). Stop closes the connection. A reply cut short (killed server, lost
// network) keeps every piece already handed to the sink and then throws
// EngineError saying so.
//
// Threading: as InferenceEngine; each call makes its own network manager on
// the calling thread and runs a local event loop while it waits, so it
// works on the inference worker and in the command-line tool alike.
#pragma once

#include "engine/InferenceEngine.h"
#include "remote/RemoteEndpoint.h"

#include <QJsonObject>
#include <QMutex>

#include <functional>
#include <optional>

class QNetworkAccessManager;

struct RemoteModel {
    QString id;
    QString ownedBy;
    int contextSize = 0; // 0 when the server does not say
};

class RemoteEngine : public InferenceEngine {
public:
    // The endpoint (with its key) that serves a model URL, or nullopt with
    // `error` set. Called on the engine's calling thread.
    using EndpointLookup = std::function<std::optional<RemoteEndpoint>(const QUrl& modelUrl, QString& error)>;

    explicit RemoteEngine(EndpointLookup lookup);

    QString kind() const override { return QStringLiteral("remote"); }
    ModelFacts load(const QString& path, const LoadParams& params, const Progress& progress,
                    const std::atomic<bool>& cancel) override;
    void unload() override;
    bool isLoaded() const override;
    GenerationStats generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler, const PieceSink& sink,
                             const std::atomic<bool>& stop) override;
    MemoryFigures memory() const override { return {}; } // the memory is the server's
    FitEstimate estimate(const QString& path, const LoadParams& params) const override;

    // A raw prompt through /v1/completions (no template), streamed like generate().
    GenerationStats complete(const QString& prompt, const SamplerSettings& sampler, const PieceSink& sink,
                             const std::atomic<bool>& stop);

    // GET /v1/models, blocking (a local event loop). Throws EngineError.
    static QList<RemoteModel> listModels(const RemoteEndpoint& endpoint, const std::atomic<bool>* cancel = nullptr);
    static QList<RemoteModel> parseModels(const QJsonObject& body);
    // The request body's sampler fields (temperature, top_p, seed, max_tokens
    // and, when the endpoint allows, top_k, min_p, repeat_penalty).
    static void addSampler(QJsonObject& body, const SamplerSettings& sampler, bool extended);

private:
    GenerationStats stream(const QString& route, QJsonObject body, const SamplerSettings& sampler,
                           const PieceSink& sink, const std::atomic<bool>& stop);

    EndpointLookup m_lookup;
    mutable QMutex m_mutex; // guards the loaded state (isLoaded() from any thread)
    std::optional<RemoteEndpoint> m_endpoint;
    QString m_modelId;
    int m_contextSize = 0;
    std::atomic<int> m_lastContextUsed{0}; // the server's count after the last reply
};
