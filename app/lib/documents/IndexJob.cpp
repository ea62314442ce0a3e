#include "documents/IndexJob.h"

#include "cpu/cpu_backend.h"
#include "runtime/embedder.h"

#include <QDirIterator>
#include <QFileInfo>

namespace documents {

// The worker: owns the store and the embedder, created on its thread at the
// first run (loading the model off the GUI thread).
class IndexWorker : public QObject {
    Q_OBJECT

public:
    IndexWorker(QString dbPath, QString modelPath, std::atomic<bool>& cancel, std::atomic<bool>& pause)
        : m_dbPath(std::move(dbPath)), m_modelPath(std::move(modelPath)), m_cancel(cancel), m_pause(pause)
    {
    }

    void run(qint64 collection)
    {
        try {
            if (!m_embedder) {
                m_backend = std::make_unique<hearth::cpu::CpuBackend>();
                m_embedder = hearth::Embedder::open(m_modelPath.toStdString(), *m_backend);
                m_store = std::make_unique<DocumentStore>(m_dbPath);
            }
            Indexer indexer(*m_store, *m_embedder, Indexer::modelIdentity(m_modelPath));
            IndexControl control;
            control.cancel = &m_cancel;
            control.pause = &m_pause;
            control.progress = [&](const IndexProgress& p) { emit progress(collection, p); };
            const IndexReport report = indexer.run(collection, control);
            emit finished(collection, report);
        } catch (const std::exception& e) {
            emit failed(collection, QString::fromUtf8(e.what()));
        }
    }

signals:
    void progress(qint64 collection, const documents::IndexProgress& p);
    void finished(qint64 collection, const documents::IndexReport& report);
    void failed(qint64 collection, const QString& message);

private:
    QString m_dbPath, m_modelPath;
    std::atomic<bool>& m_cancel;
    std::atomic<bool>& m_pause;
    std::unique_ptr<hearth::cpu::CpuBackend> m_backend;
    std::unique_ptr<hearth::Embedder> m_embedder;
    std::unique_ptr<DocumentStore> m_store;
};

IndexJob::IndexJob(QString dbPath, QString modelPath, QObject* parent) : QObject(parent), m_dbPath(std::move(dbPath))
{
    qRegisterMetaType<documents::IndexProgress>();
    qRegisterMetaType<documents::IndexReport>();
    m_worker = new IndexWorker(m_dbPath, std::move(modelPath), m_cancel, m_pause);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &IndexWorker::progress, this, &IndexJob::progress);
    connect(m_worker, &IndexWorker::finished, this, &IndexJob::onFinished);
    connect(m_worker, &IndexWorker::failed, this, [this](qint64 c, const QString& m) {
        emit failed(c, m);
        onFinished(c, IndexReport{});
    });
    m_thread.setObjectName(QStringLiteral("hearth-documents"));
    m_thread.start(QThread::LowPriority);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(2000);
    connect(&m_debounce, &QTimer::timeout, this, [this] {
        for (qint64 c : std::as_const(m_changed))
            enqueue(c);
        m_changed.clear();
    });
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &IndexJob::onChanged);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &IndexJob::onChanged);
}

IndexJob::~IndexJob()
{
    m_cancel.store(true);
    m_pause.store(false);
    m_thread.quit();
    m_thread.wait();
}

void IndexJob::setPaused(bool paused)
{
    if (m_pause.exchange(paused) != paused)
        emit pausedChanged();
}

void IndexJob::enqueue(qint64 collection)
{
    if (m_queue.contains(collection))
        return;
    m_queue.append(collection);
    startNext();
}

void IndexJob::cancel()
{
    m_queue.clear();
    if (m_running)
        m_cancel.store(true);
}

void IndexJob::startNext()
{
    if (m_running || m_queue.isEmpty())
        return;
    m_current = m_queue.takeFirst();
    m_running = true;
    m_cancel.store(false);
    emit runningChanged();
    const qint64 c = m_current;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, c] { w->run(c); }, Qt::QueuedConnection);
}

void IndexJob::onFinished(qint64 collection, const IndexReport& report)
{
    m_running = false;
    m_current = -1;
    emit runningChanged();
    if (!report.cancelled || report.files > 0)
        emit finished(collection, report);
    startNext();
}

void IndexJob::watch(const QList<qint64>& collections)
{
    if (!m_watcher.directories().isEmpty())
        m_watcher.removePaths(m_watcher.directories());
    if (!m_watcher.files().isEmpty())
        m_watcher.removePaths(m_watcher.files());
    m_watched.clear();
    DocumentStore store(m_dbPath);
    for (qint64 c : collections) {
        for (const QString& s : store.sources(c)) {
            const QFileInfo info(s);
            QStringList paths{s};
            if (info.isDir()) {
                QDirIterator it(s, QDir::Dirs | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
                while (it.hasNext())
                    paths << it.next();
            }
            for (const QString& p : paths)
                m_watched.insert(p, c);
            m_watcher.addPaths(paths);
        }
    }
}

void IndexJob::onChanged(const QString& path)
{
    const auto it = m_watched.constFind(path);
    if (it == m_watched.cend())
        return;
    m_changed.insert(it.value());
    m_debounce.start(); // restarts: 2 s after the last change
}

} // namespace documents

#include "IndexJob.moc"
