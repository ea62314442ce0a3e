// The inference worker: a QObject moved to its own QThread that owns the
// engine's model and sessions. Its methods are invoked by queued calls (functors queued on its thread) from
// InferenceService and block while they run; results go back as signals
// tagged with the request id. It never touches GUI objects.
#pragma once

#include "engine/InferenceEngine.h"
#include "engine/Replies.h"

#include <QObject>

#include <memory>

class InferenceWorker : public QObject {
    Q_OBJECT

public:
    explicit InferenceWorker(std::shared_ptr<InferenceEngine> engine);

public:
    void load(quint64 id, const QString& path, const LoadParams& params, const CancelFlag& cancel);
    void generate(quint64 id, const QList<ChatTurn>& turns, const SamplerSettings& sampler, const CancelFlag& stop);
    void unload();

signals:
    void loadProgress(quint64 id, double fraction);
    void loaded(quint64 id, const ModelFacts& facts);
    void loadFailed(quint64 id, const QString& message, bool cancelled);
    void piece(quint64 id, const QString& text);
    void stats(quint64 id, const GenerationStats& stats);
    void generated(quint64 id, const GenerationStats& stats);
    void generationFailed(quint64 id, const QString& message);

private:
    std::shared_ptr<InferenceEngine> m_engine;
};
