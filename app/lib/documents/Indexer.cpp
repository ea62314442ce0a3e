#include "documents/Indexer.h"

#include "documents/Chunker.h"
#include "documents/Extraction.h"
#include "runtime/embedder.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QThread>

namespace documents {

namespace {

constexpr int kEmbedBatch = 32; // chunks per Embedder::embed call (cancel is checked between)

QString sha256(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (!h.addData(&f))
        return {};
    return QString::fromLatin1(h.result().toHex());
}

void walk(const QString& dir, QSet<QString>& visited, QStringList& files, QList<FileIssue>& issues)
{
    const QString canonical = QFileInfo(dir).canonicalFilePath();
    if (visited.contains(canonical)) {
        issues.append({dir, QStringLiteral("skipped"),
                       QStringLiteral("symlink loop: the folder %1 is already being read").arg(canonical)});
        return;
    }
    visited.insert(canonical);
    const QDir d(dir);
    if (!d.isReadable()) {
        issues.append({dir, QStringLiteral("failed"), QStringLiteral("the folder cannot be read")});
        return;
    }
    const QFileInfoList entries =
        d.entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::System, QDir::Name | QDir::DirsLast);
    for (const QFileInfo& e : entries) {
        if (e.fileName().startsWith(QLatin1Char('.')))
            continue;
        if (e.isSymLink() && !e.exists()) {
            issues.append({e.absoluteFilePath(), QStringLiteral("failed"), QStringLiteral("broken symbolic link")});
            continue;
        }
        if (e.isDir())
            walk(e.absoluteFilePath(), visited, files, issues);
        else
            files.append(e.absoluteFilePath());
    }
}

QString issueStatus(ExtractStatus s)
{
    switch (s) {
    case ExtractStatus::Skipped: return QStringLiteral("skipped");
    case ExtractStatus::Failed: return QStringLiteral("failed");
    case ExtractStatus::Empty: return QStringLiteral("empty");
    }
    return QStringLiteral("failed");
}

} // namespace

Indexer::Indexer(DocumentStore& store, hearth::Embedder& embedder, QString modelId)
    : m_store(store), m_embedder(embedder), m_modelId(std::move(modelId))
{
}

QString Indexer::modelIdentity(const QString& path)
{
    const QFileInfo info(path);
    return QStringLiteral("%1:%2").arg(info.fileName()).arg(info.size());
}

QStringList Indexer::listFiles(const QStringList& sources, QList<FileIssue>& issues)
{
    QStringList files;
    QSet<QString> visited;
    for (const QString& s : sources) {
        const QFileInfo info(s);
        if (!info.exists())
            issues.append({s, QStringLiteral("failed"), QStringLiteral("the path no longer exists")});
        else if (info.isDir())
            walk(info.absoluteFilePath(), visited, files, issues);
        else
            files.append(info.absoluteFilePath());
    }
    files.removeDuplicates();
    return files;
}

IndexReport Indexer::run(qint64 collection, const IndexControl& control)
{
    QElapsedTimer timer;
    timer.start();
    IndexReport report;
    const QStringList files = listFiles(m_store.sources(collection), report.issues);
    report.files = int(files.size());
    const QSet<QString> present(files.begin(), files.end());
    for (const DocumentRow& d : m_store.documents(collection)) {
        if (!present.contains(d.path)) {
            m_store.removeDocument(d.id);
            ++report.removed;
        }
    }
    IndexProgress progress;
    progress.filesTotal = report.files;
    const auto stopped = [&] { return control.cancel && control.cancel->load(); };
    for (const QString& path : files) {
        while (control.pause && control.pause->load() && !stopped())
            QThread::msleep(50);
        if (stopped()) {
            report.cancelled = true;
            break;
        }
        progress.currentFile = path;
        if (control.progress)
            control.progress(progress);
        if (!indexFile(collection, path, report, control))
            ++report.unchanged;
        if (report.cancelled)
            break;
        ++progress.filesDone;
        progress.chunks = report.chunks;
        const double s = report.embedSeconds;
        progress.chunksPerSecond = s > 0 ? double(report.chunks) / s : 0.0;
        const double elapsed = double(timer.elapsed()) / 1000.0;
        progress.etaSeconds = progress.filesDone > 0
                                  ? elapsed / progress.filesDone * double(progress.filesTotal - progress.filesDone)
                                  : -1.0;
    }
    progress.currentFile.clear();
    if (control.progress)
        control.progress(progress);
    report.seconds = double(timer.elapsed()) / 1000.0;
    return report;
}

bool Indexer::indexFile(qint64 collection, const QString& path, IndexReport& report, const IndexControl& control)
{
    const QFileInfo info(path);
    const qint64 size = info.size();
    const qint64 mtime = info.lastModified().toMSecsSinceEpoch();
    const std::optional<DocumentRow> old = m_store.document(collection, path);
    const bool sameModel = old && (old->status != DocStatus::Indexed || old->model == m_modelId);
    if (old && old->status != DocStatus::Pending && old->size == size && old->mtimeMs == mtime && sameModel) {
        if (old->status != DocStatus::Indexed)
            report.issues.append({path, statusName(old->status), old->error});
        return false;
    }
    DocumentRow row;
    row.collectionId = collection;
    row.path = path;
    row.size = size;
    row.mtimeMs = mtime;
    row.model = m_modelId;
    auto fail = [&](ExtractStatus status, const QString& reason) {
        row.status = status == ExtractStatus::Skipped ? DocStatus::Skipped
                     : status == ExtractStatus::Empty ? DocStatus::Empty
                                                      : DocStatus::Failed;
        row.error = reason;
        m_store.setDocumentState(row);
        report.issues.append({path, issueStatus(status), reason});
        return true;
    };
    if (!extractorFor(path))
        return fail(ExtractStatus::Skipped, QStringLiteral("unsupported file type (.%1)").arg(info.suffix().toLower()));
    row.sha256 = sha256(path);
    if (row.sha256.isEmpty())
        return fail(ExtractStatus::Failed, info.exists() ? QStringLiteral("the file cannot be read")
                                                         : QStringLiteral("the file was deleted while indexing"));
    if (old && old->status == DocStatus::Indexed && old->sha256 == row.sha256 && sameModel) {
        m_store.touchDocument(old->id, size, mtime);
        return false;
    }
    Extracted doc;
    try {
        doc = extractDocument(path);
    } catch (const ExtractionError& e) {
        return fail(e.status(), e.message());
    }
    const auto count = [&](const QString& s) { return int(m_embedder.countTokens(s.toStdString())); };
    ChunkParams cp;
    cp.max = std::min<int>(cp.max, int(m_embedder.maxTokens()) - 2);
    const QList<Chunk> chunks = chunkDocument(doc, count, cp);
    std::vector<StoredVector> vectors;
    QElapsedTimer t;
    t.start();
    for (qsizetype i = 0; i < chunks.size(); i += kEmbedBatch) {
        if (control.cancel && control.cancel->load()) {
            report.cancelled = true;
            return true;
        }
        std::vector<std::string> texts;
        for (qsizetype j = i; j < std::min(chunks.size(), i + kEmbedBatch); ++j)
            texts.push_back(chunks[j].embedText().toStdString());
        const std::vector<float> v = m_embedder.embed(texts, control.cancel);
        if (v.empty()) {
            report.cancelled = true;
            return true;
        }
        const auto dim = static_cast<size_t>(m_embedder.dimension());
        for (size_t j = 0; j < texts.size(); ++j)
            vectors.push_back(quantizeVector(v.data() + j * dim, int(dim)));
    }
    report.embedSeconds += double(t.elapsed()) / 1000.0;
    row.status = DocStatus::Indexed;
    row.format = doc.format;
    row.pages = doc.pages;
    if (!QFileInfo::exists(path))
        return fail(ExtractStatus::Failed, QStringLiteral("the file was deleted while indexing"));
    m_store.storeIndexed(row, chunks, vectors);
    ++report.indexed;
    report.pages += doc.pages;
    report.chunks += chunks.size();
    return true;
}

} // namespace documents
