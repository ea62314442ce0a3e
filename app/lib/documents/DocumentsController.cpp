#include "documents/DocumentsController.h"

#include "chat/ChatController.h"
#include "documents/DocumentStore.h"
#include "documents/RetrievalService.h"
#include "documents/Retriever.h"

#include <QDir>
#include <QFileInfo>
#include <QUrl>

using namespace documents;

DocumentsController::DocumentsController(QString dbPath, QString modelPath, ChatController* chat,
                                         RetrievalService* retrieval, QObject* parent)
    : QObject(parent)
    , m_dbPath(std::move(dbPath))
    , m_modelPath(std::move(modelPath))
    , m_chat(chat)
    , m_retrieval(retrieval)
{
    m_store = std::make_unique<DocumentStore>(m_dbPath);
    m_job = std::make_unique<IndexJob>(m_dbPath, m_modelPath);
    connect(m_job.get(), &IndexJob::runningChanged, this, &DocumentsController::indexingChanged);
    connect(m_job.get(), &IndexJob::pausedChanged, this, &DocumentsController::pausedChanged);
    connect(m_job.get(), &IndexJob::runningChanged, this, [this] {
        if (!m_job->running()) {
            m_progress = {};
            emit progressChanged();
        }
    });
    connect(m_job.get(), &IndexJob::progress, this, [this](qint64, const IndexProgress& p) {
        m_progress = p;
        emit progressChanged();
    });
    connect(m_job.get(), &IndexJob::finished, this, [this](qint64 collection, const IndexReport& r) {
        if (m_retrieval)
            m_retrieval->invalidate();
        QString line = tr("%n file(s) indexed", nullptr, r.indexed);
        if (r.unchanged > 0)
            line += tr(", %n unchanged", nullptr, r.unchanged);
        if (!r.issues.isEmpty())
            line += tr(", %n not read", nullptr, int(r.issues.size()));
        if (r.cancelled)
            line += tr(" (cancelled)");
        m_report = line;
        emit reportChanged();
        refresh();
        emit indexed(collection);
    });
    connect(m_job.get(), &IndexJob::failed, this,
            [this](qint64, const QString& message) { setError(tr("Indexing failed: %1").arg(message)); });
    if (m_chat)
        connect(m_chat, &ChatController::collectionsChanged, this, &DocumentsController::refresh);
    refresh();
    rewatch();
    // Catch up with files changed while Hearth was closed (and finish a run
    // a quit or a crash interrupted): unchanged files cost a stat each.
    if (embeddingModelFound())
        for (const QVariant& c : std::as_const(m_collections))
            m_job->enqueue(c.toMap().value(QStringLiteral("id")).toLongLong());
}

DocumentsController::~DocumentsController() = default;

bool DocumentsController::guarded(const std::function<void()>& work)
{
    try {
        work();
        return true;
    } catch (const std::exception& e) {
        setError(QString::fromUtf8(e.what()));
        return false;
    }
}

void DocumentsController::setError(const QString& e)
{
    if (e != m_error) {
        m_error = e;
        emit errorChanged();
    }
}

void DocumentsController::clearError()
{
    setError({});
}

bool DocumentsController::embeddingModelFound() const
{
    return QFileInfo::exists(m_modelPath);
}

int DocumentsController::usedCount() const
{
    int n = 0;
    for (const QVariant& c : m_collections)
        n += c.toMap().value(QStringLiteral("used")).toBool() ? 1 : 0;
    return n;
}

double DocumentsController::progress() const
{
    return m_progress.filesTotal > 0 ? double(m_progress.filesDone) / m_progress.filesTotal : 0.0;
}

QString DocumentsController::progressText() const
{
    if (!m_job->running())
        return {};
    if (m_progress.filesTotal == 0)
        return tr("Looking for files…");
    QString text = tr("%1 of %2 files · %3 chunks/s")
                       .arg(m_progress.filesDone)
                       .arg(m_progress.filesTotal)
                       .arg(m_progress.chunksPerSecond, 0, 'f', 1);
    if (m_progress.etaSeconds >= 0)
        text += tr(" · about %1 s left").arg(qRound(m_progress.etaSeconds));
    if (paused())
        text += tr(" · paused");
    return text;
}

void DocumentsController::refresh()
{
    guarded([&] {
        const QList<qint64> used = m_chat ? m_chat->collections() : QList<qint64>{};
        QVariantList list;
        for (const CollectionRow& r : m_store->collections())
            list.append(QVariantMap{{QStringLiteral("id"), r.id},
                                    {QStringLiteral("name"), r.name},
                                    {QStringLiteral("sources"), r.sources},
                                    {QStringLiteral("documents"), r.documents},
                                    {QStringLiteral("indexed"), r.indexed},
                                    {QStringLiteral("problems"), r.failed},
                                    {QStringLiteral("chunks"), r.chunks},
                                    {QStringLiteral("used"), used.contains(r.id)}});
        m_collections = list;
    });
    emit collectionsChanged();
    emit embeddingModelFoundChanged();
}

void DocumentsController::rewatch()
{
    QList<qint64> ids;
    for (const QVariant& c : std::as_const(m_collections))
        ids.append(c.toMap().value(QStringLiteral("id")).toLongLong());
    guarded([&] { m_job->watch(ids); });
}

qint64 DocumentsController::createCollection(const QString& name)
{
    const QString n = name.simplified();
    if (n.isEmpty()) {
        setError(tr("A collection needs a name."));
        return 0;
    }
    qint64 id = 0;
    guarded([&] {
        if (m_store->collectionId(n)) {
            setError(tr("There is already a collection named “%1”.").arg(n));
            return;
        }
        id = m_store->ensureCollection(n);
    });
    if (id > 0 && m_chat) // a new collection is what the user wants to ask about now
        setUsed(id, true);
    refresh();
    return id;
}

void DocumentsController::removeCollection(qint64 id)
{
    if (m_chat)
        m_chat->forgetCollection(id);
    guarded([&] { m_store->removeCollection(id); });
    if (m_retrieval)
        m_retrieval->invalidate();
    refresh();
    rewatch();
}

bool DocumentsController::addPath(qint64 collection, const QVariant& pathOrUrl)
{
    const QUrl url = pathOrUrl.toUrl();
    QString path = url.isLocalFile() ? url.toLocalFile() : pathOrUrl.toString();
    path = QDir::cleanPath(QDir::fromNativeSeparators(path.trimmed()));
    if (path.isEmpty() || !QFileInfo::exists(path)) {
        setError(tr("%1 does not exist.").arg(QDir::toNativeSeparators(path)));
        return false;
    }
    if (!embeddingModelFound()) {
        setError(tr("The embedding model %1 is not there; scripts/convert-models makes it.")
                     .arg(QDir::toNativeSeparators(m_modelPath)));
        return false;
    }
    if (!guarded([&] { m_store->addSource(collection, QFileInfo(path).absoluteFilePath()); }))
        return false;
    setError({});
    refresh();
    rewatch();
    m_job->enqueue(collection);
    return true;
}

void DocumentsController::removeSource(qint64 collection, const QString& path)
{
    guarded([&] { m_store->removeSource(collection, path); });
    refresh();
    rewatch();
    m_job->enqueue(collection); // drops the documents that came from it
}

void DocumentsController::reindex(qint64 collection)
{
    m_job->enqueue(collection);
}

void DocumentsController::cancel()
{
    m_job->cancel();
}

void DocumentsController::setUsed(qint64 collection, bool used)
{
    if (!m_chat)
        return;
    QList<qint64> ids = m_chat->collections();
    if (used == ids.contains(collection))
        return;
    if (used)
        ids.append(collection);
    else
        ids.removeAll(collection);
    m_chat->setCollections(ids); // refresh() follows from collectionsChanged
}

QVariantList DocumentsController::problems(qint64 collection)
{
    QVariantList out;
    guarded([&] {
        for (const DocumentRow& d : m_store->documents(collection))
            if (d.status == DocStatus::Failed || d.status == DocStatus::Skipped || d.status == DocStatus::Empty)
                out.append(QVariantMap{{QStringLiteral("path"), d.path},
                                       {QStringLiteral("status"), statusName(d.status)},
                                       {QStringLiteral("reason"), d.error}});
    });
    return out;
}

QVariantMap DocumentsController::documentText(const QString& path, const QString& passage)
{
    QString text, heading;
    guarded([&] {
        for (const ChunkRow& c : m_store->chunksOf(path)) {
            if (c.chunk.headingPath != heading) {
                heading = c.chunk.headingPath;
                if (!heading.isEmpty())
                    text += (text.isEmpty() ? QString() : QStringLiteral("\n\n")) + heading + QStringLiteral("\n\n");
            } else if (!text.isEmpty()) {
                text += QStringLiteral("\n");
            }
            QString piece = c.chunk.text;
            if (!text.isEmpty() && c.ordinal > 0)
                piece = withoutOverlap(text, piece);
            text += piece;
        }
    });
    // The passage's start, found as it was stored (merged passages start
    // with their first chunk's text).
    const QString probe = passage.left(80).trimmed();
    const qsizetype at = probe.isEmpty() ? -1 : text.indexOf(probe);
    const qsizetype length = at < 0 ? 0 : std::min<qsizetype>(passage.size(), text.size() - at);
    return {{QStringLiteral("text"), text},
            {QStringLiteral("start"), int(std::max<qsizetype>(at, 0))},
            {QStringLiteral("length"), int(length)},
            {QStringLiteral("found"), at >= 0}};
}
