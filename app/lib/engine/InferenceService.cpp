#include "engine/InferenceService.h"

#include "engine/InferenceWorker.h"

InferenceService::InferenceService(std::shared_ptr<InferenceEngine> engine, QObject* parent)
    : QObject(parent), m_engine(std::move(engine))
{
    qRegisterMetaType<ModelFacts>();
    qRegisterMetaType<GenerationStats>();

    m_thread.setObjectName(QStringLiteral("inference"));
    // Chat templates render on this thread; a worst-case template needs about
    // 0.5 MiB of stack (core/chat/chat_template.h), more than macOS gives a
    // secondary thread by default.
    m_thread.setStackSize(8u * 1024 * 1024);
    m_worker = new InferenceWorker(m_engine);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    connect(m_worker, &InferenceWorker::loadProgress, this, [this](quint64 id, double f) {
        if (auto* r = replyFor<LoadReply>(id))
            emit r->progress(f);
    });
    connect(m_worker, &InferenceWorker::loaded, this, [this](quint64 id, const ModelFacts& facts) {
        if (auto* r = replyFor<LoadReply>(id))
            emit r->finished(facts);
        finishRequest(id);
    });
    connect(m_worker, &InferenceWorker::loadFailed, this, [this](quint64 id, const QString& message, bool cancelled) {
        if (auto* r = replyFor<LoadReply>(id))
            emit r->failed(message, cancelled);
        finishRequest(id);
    });
    connect(m_worker, &InferenceWorker::piece, this, [this](quint64 id, const QString& text) {
        if (auto* r = replyFor<GenerationReply>(id))
            emit r->pieceReceived(text);
    });
    connect(m_worker, &InferenceWorker::stats, this, [this](quint64 id, const GenerationStats& s) {
        if (auto* r = replyFor<GenerationReply>(id))
            emit r->statsUpdated(s);
    });
    connect(m_worker, &InferenceWorker::generated, this, [this](quint64 id, const GenerationStats& s) {
        if (auto* r = replyFor<GenerationReply>(id))
            emit r->finished(s);
        finishRequest(id);
    });
    connect(m_worker, &InferenceWorker::generationFailed, this, [this](quint64 id, const QString& message) {
        if (auto* r = replyFor<GenerationReply>(id))
            emit r->failed(message);
        finishRequest(id);
    });
    m_thread.start();
}

InferenceService::~InferenceService()
{
    for (const CancelFlag& flag : std::as_const(m_flags))
        flag->store(true);
    m_thread.quit(); // queued requests after the running one are dropped
    m_thread.wait();
}

template <typename Reply>
Reply* InferenceService::replyFor(quint64 id) const
{
    return qobject_cast<Reply*>(m_replies.value(id).data());
}

void InferenceService::finishRequest(quint64 id)
{
    if (QObject* reply = m_replies.take(id).data())
        reply->deleteLater();
    m_flags.remove(id);
}

LoadReply* InferenceService::load(const QString& path, const LoadParams& params)
{
    const quint64 id = m_nextId++;
    auto* reply = new LoadReply(path, this);
    m_replies.insert(id, reply);
    m_flags.insert(id, reply->cancelFlag());
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, id, path, params, flag = reply->cancelFlag()] { w->load(id, path, params, flag); },
        Qt::QueuedConnection);
    return reply;
}

GenerationReply* InferenceService::generate(const QList<ChatTurn>& turns, const SamplerSettings& sampler)
{
    const quint64 id = m_nextId++;
    auto* reply = new GenerationReply(this);
    m_replies.insert(id, reply);
    m_flags.insert(id, reply->stopFlag());
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, id, turns, sampler, flag = reply->stopFlag()] { w->generate(id, turns, sampler, flag); },
        Qt::QueuedConnection);
    return reply;
}

void InferenceService::unload()
{
    QMetaObject::invokeMethod(m_worker, &InferenceWorker::unload, Qt::QueuedConnection);
}
