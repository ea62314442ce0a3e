// The GUI thread's door to the engine. Owns the worker thread and the
// InferenceWorker on it; each request is a queued call that returns a reply
// object at once (never blocks). Requests run one at a time in the order
// sent. Destroying the service stops what is running (within one token) and
// joins the thread.
//
// engine() gives access to the engine's thread-safe methods (memory(),
// estimate(), kind()) for the gauge sampler and the model scanner.
#pragma once

#include "engine/InferenceEngine.h"
#include "engine/Replies.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <memory>

class InferenceWorker;

class InferenceService : public QObject {
    Q_OBJECT

public:
    explicit InferenceService(std::shared_ptr<InferenceEngine> engine, QObject* parent = nullptr);
    ~InferenceService() override;

    LoadReply* load(const QString& path, const LoadParams& params);
    GenerationReply* generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler);
    void unload();

    const std::shared_ptr<InferenceEngine>& engine() const { return m_engine; }

private:
    template <typename Reply>
    Reply* replyFor(quint64 id) const;
    void finishRequest(quint64 id);

    std::shared_ptr<InferenceEngine> m_engine;
    QThread m_thread;
    InferenceWorker* m_worker = nullptr; // lives on m_thread; deleted when it finishes
    quint64 m_nextId = 1;
    QHash<quint64, QPointer<QObject>> m_replies;
    QHash<quint64, CancelFlag> m_flags; // to stop everything on shutdown
};
