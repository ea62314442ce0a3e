// Documents in the desktop app: the collections (files and folders the user
// added), which of them the open conversation searches, indexing on its
// own thread (IndexJob) with progress, pause and cancel, the files that
// could not be read with the reason, and the text of an indexed document
// for the viewer a citation opens. GUI thread; the listing reads the index
// through its own connection (small queries), the work runs in IndexJob
// and RetrievalService.
#pragma once

#include "documents/IndexJob.h"

#include <QObject>
#include <QUrl>
#include <QVariantList>
#include <QtQml/qqmlregistration.h>

#include <memory>

class ChatController;

namespace documents {
class DocumentStore;
class RetrievalService;
} // namespace documents

class DocumentsController : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    // [{id, name, sources, documents, indexed, problems, chunks, used}]
    Q_PROPERTY(QVariantList collections READ collections NOTIFY collectionsChanged)
    // How many collections the open conversation searches.
    Q_PROPERTY(int usedCount READ usedCount NOTIFY collectionsChanged)
    Q_PROPERTY(QString embeddingModel READ embeddingModel CONSTANT)
    Q_PROPERTY(bool embeddingModelFound READ embeddingModelFound NOTIFY embeddingModelFoundChanged)
    Q_PROPERTY(bool indexing READ indexing NOTIFY indexingChanged)
    Q_PROPERTY(bool paused READ paused WRITE setPaused NOTIFY pausedChanged)
    Q_PROPERTY(double progress READ progress NOTIFY progressChanged) // files done / total, 0..1
    Q_PROPERTY(QString progressText READ progressText NOTIFY progressChanged)
    Q_PROPERTY(QString currentFile READ currentFile NOTIFY progressChanged)
    Q_PROPERTY(QString report READ report NOTIFY reportChanged) // the last run, one line
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    // `dbPath`: the app's database; `modelPath`: the embedding model;
    // `retrieval` (the chat's searches) learns when an index changed.
    DocumentsController(QString dbPath, QString modelPath, ChatController* chat, documents::RetrievalService* retrieval,
                        QObject* parent = nullptr);
    ~DocumentsController() override;

    QVariantList collections() const { return m_collections; }
    int usedCount() const;
    QString embeddingModel() const { return m_modelPath; }
    bool embeddingModelFound() const;
    bool indexing() const { return m_job->running(); }
    bool paused() const { return m_job->paused(); }
    void setPaused(bool paused) { m_job->setPaused(paused); }
    double progress() const;
    QString progressText() const;
    QString currentFile() const { return m_progress.currentFile; }
    QString report() const { return m_report; }
    QString error() const { return m_error; }

    // A new collection (a name not taken); its id, or 0 with `error` set.
    Q_INVOKABLE qint64 createCollection(const QString& name);
    Q_INVOKABLE void removeCollection(qint64 id);
    // Adds a file or folder (a path or a file: URL) and indexes it; a new
    // collection searches in the open conversation at once.
    Q_INVOKABLE bool addPath(qint64 collection, const QVariant& pathOrUrl);
    Q_INVOKABLE void removeSource(qint64 collection, const QString& path);
    Q_INVOKABLE void reindex(qint64 collection);
    Q_INVOKABLE void cancel();
    // Whether the open conversation searches the collection.
    Q_INVOKABLE void setUsed(qint64 collection, bool used);
    // The collection's files that were not indexed: [{path, status, reason}].
    Q_INVOKABLE QVariantList problems(qint64 collection);
    // An indexed document's text for the viewer, with the passage that
    // starts with `passage` marked: {text, start, length, found}.
    Q_INVOKABLE QVariantMap documentText(const QString& path, const QString& passage);
    // A local path as a file: URL (for the PDF view and the system's app).
    Q_INVOKABLE QUrl fileUrl(const QString& path) const { return QUrl::fromLocalFile(path); }
    Q_INVOKABLE void clearError();
    // Reads the collections again (after a change elsewhere: the CLI).
    Q_INVOKABLE void refresh();

signals:
    void collectionsChanged();
    void embeddingModelFoundChanged();
    void indexingChanged();
    void pausedChanged();
    void progressChanged();
    void reportChanged();
    void errorChanged();
    // A collection finished indexing (tests wait for it).
    void indexed(qint64 collection);

private:
    void setError(const QString& e);
    void rewatch();
    bool guarded(const std::function<void()>& work);

    QString m_dbPath, m_modelPath;
    ChatController* m_chat;
    std::unique_ptr<documents::DocumentStore> m_store;
    std::unique_ptr<documents::IndexJob> m_job;
    documents::RetrievalService* m_retrieval;
    QVariantList m_collections;
    documents::IndexProgress m_progress;
    QString m_report, m_error;
};
