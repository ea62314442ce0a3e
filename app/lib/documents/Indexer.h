// Brings a collection's index up to date with its files: lists the files of
// its sources (folders recursively, hidden entries left out, symlink loops
// reported), skips unchanged files by (size, mtime) and then by SHA-256,
// extracts, chunks, embeds and stores the rest one document per transaction,
// records every file that yields nothing with its reason, and drops the
// documents whose files are gone. Killed half-way, the next run continues
// with the first document not stored; a change of embedding model re-embeds.
//
// Cost: dominated by embedding (one forward pass per ~2k tokens).
// Thread-safety: one thread at a time; runs on the caller's thread (IndexJob
// gives it its own).
#pragma once

#include "documents/DocumentStore.h"

#include <QElapsedTimer>

#include <atomic>
#include <functional>

namespace hearth {
class Embedder;
}

namespace documents {

struct IndexProgress {
    int filesDone = 0, filesTotal = 0;
    qint64 chunks = 0;
    double chunksPerSecond = 0.0;
    double etaSeconds = -1.0; // unknown until a file has been embedded
    QString currentFile;
};

struct FileIssue {
    QString path;
    QString status; // failed, skipped, empty
    QString reason;
};

struct IndexReport {
    int files = 0, indexed = 0, unchanged = 0, removed = 0;
    int pages = 0; // pages of the documents indexed in this run
    qint64 chunks = 0;
    double seconds = 0.0;
    double embedSeconds = 0.0;
    bool cancelled = false;
    QList<FileIssue> issues; // this run's failed / skipped / empty files
};

struct IndexControl {
    const std::atomic<bool>* cancel = nullptr; // checked between files and embedding batches
    const std::atomic<bool>* pause = nullptr;  // while true, waits between files
    std::function<void(const IndexProgress&)> progress;
};

class Indexer {
public:
    // `modelId` names the embedding model (a change re-embeds everything).
    Indexer(DocumentStore& store, hearth::Embedder& embedder, QString modelId);
    IndexReport run(qint64 collection, const IndexControl& control = {});

    // The files under `sources` in a stable order; problems (missing paths,
    // symlink loops, unreadable folders) are appended to `issues`.
    static QStringList listFiles(const QStringList& sources, QList<FileIssue>& issues);
    // The identity stored for an embedding model file.
    static QString modelIdentity(const QString& path);

private:
    // Indexes one file; returns false when it was unchanged.
    bool indexFile(qint64 collection, const QString& path, IndexReport& report, const IndexControl& control);

    DocumentStore& m_store;
    hearth::Embedder& m_embedder;
    QString m_modelId;
};

} // namespace documents
