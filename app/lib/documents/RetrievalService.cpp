#include "documents/RetrievalService.h"

#include "documents/Citations.h"

#include "cpu/cpu_backend.h"
#include "runtime/embedder.h"

#include <QFileInfo>

namespace documents {

class RetrievalWorker : public QObject {
    Q_OBJECT

public:
    RetrievalWorker(QString dbPath, QString modelPath, std::atomic<bool>& stale)
        : m_dbPath(std::move(dbPath)), m_modelPath(std::move(modelPath)), m_stale(stale)
    {
    }

    void open()
    {
        if (m_embedder)
            return;
        if (!QFileInfo::exists(m_modelPath))
            throw std::runtime_error(tr("The embedding model %1 is not there, so the documents cannot be searched.")
                                         .arg(m_modelPath)
                                         .toStdString());
        // One thread: a query is a few dozen tokens, and the chat model
        // wants the cores.
        m_backend = std::make_unique<hearth::cpu::CpuBackend>(1);
        m_embedder = hearth::Embedder::open(m_modelPath.toStdString(), *m_backend);
        m_store = std::make_unique<DocumentStore>(m_dbPath);
        m_retriever = std::make_unique<Retriever>(*m_store, *m_embedder);
    }

    void search(quint64 request, const QList<qint64>& collections, const QString& query, const SearchParams& params)
    {
        try {
            open();
            if (m_stale.exchange(false) || collections != m_loaded) {
                m_retriever->load(collections);
                m_loaded = collections;
            }
            emit searched(request, m_retriever->search(query, params), {});
        } catch (const std::exception& e) {
            emit searched(request, {}, QString::fromUtf8(e.what()));
        }
    }

    void attribute(quint64 request, const QString& answer, const QStringList& passages)
    {
        try {
            open();
            const CitedAnswer cited = attributeCitations(*m_embedder, answer, passages);
            emit attributed(request, cited.text, cited.cited, {});
        } catch (const std::exception& e) {
            emit attributed(request, answer, {}, QString::fromUtf8(e.what()));
        }
    }

signals:
    void attributed(quint64 request, const QString& text, const QList<int>& cited, const QString& error);
    void searched(quint64 request, const QList<documents::Passage>& passages, const QString& error);

private:
    QString m_dbPath, m_modelPath;
    std::atomic<bool>& m_stale;
    std::unique_ptr<hearth::cpu::CpuBackend> m_backend;
    std::unique_ptr<hearth::Embedder> m_embedder;
    std::unique_ptr<DocumentStore> m_store;
    std::unique_ptr<Retriever> m_retriever;
    QList<qint64> m_loaded;
};

RetrievalService::RetrievalService(QString dbPath, QString modelPath, QObject* parent) : QObject(parent)
{
    qRegisterMetaType<documents::Passage>();
    qRegisterMetaType<QList<documents::Passage>>();
    m_worker = new RetrievalWorker(std::move(dbPath), std::move(modelPath), m_stale);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &RetrievalWorker::searched, this, &RetrievalService::searched);
    connect(m_worker, &RetrievalWorker::attributed, this, &RetrievalService::attributed);
    m_thread.setObjectName(QStringLiteral("hearth-retrieval"));
    m_thread.start();
}

RetrievalService::~RetrievalService()
{
    m_thread.quit();
    m_thread.wait();
}

quint64 RetrievalService::search(const QList<qint64>& collections, const QString& query, const SearchParams& params)
{
    const quint64 request = ++m_next;
    QMetaObject::invokeMethod(
        m_worker,
        [w = m_worker, request, collections, query, params] { w->search(request, collections, query, params); },
        Qt::QueuedConnection);
    return request;
}

quint64 RetrievalService::attribute(const QString& answer, const QStringList& passages)
{
    const quint64 request = ++m_next;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, request, answer, passages] { w->attribute(request, answer, passages); },
        Qt::QueuedConnection);
    return request;
}

void RetrievalService::invalidate()
{
    m_stale.store(true);
}

} // namespace documents

#include "RetrievalService.moc"
