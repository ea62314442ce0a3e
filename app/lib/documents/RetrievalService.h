// Retrieval for the chat, off the GUI thread: a search of the chosen
// collections runs on a worker thread with its own database connection and
// embedding model (loaded at the first search), and its passages come back
// through the `searched` signal, tagged with the request's number. The
// collections' embeddings stay in memory between searches and are read
// again after `invalidate()` (a collection was indexed).
//
// Thread-safety: the public functions and the signal belong to the thread
// that created the service (the GUI's).
#pragma once

#include "documents/Retriever.h"

#include <QObject>
#include <QThread>

#include <atomic>

namespace documents {

class RetrievalWorker;

class RetrievalService : public QObject {
    Q_OBJECT

public:
    // `dbPath`: the database file; `modelPath`: the embedding model.
    RetrievalService(QString dbPath, QString modelPath, QObject* parent = nullptr);
    ~RetrievalService() override;

    // Starts a search; returns its request number (never 0).
    quint64 search(const QList<qint64>& collections, const QString& query, const SearchParams& params);
    // The index changed: the next search reads the embeddings again.
    void invalidate();
    // Starts attributing the sentences of `answer`, which cites none of
    // `passages` (their texts, numbered from 1), to the passages they
    // resemble (see attributeCitations); returns its request number.
    quint64 attribute(const QString& answer, const QStringList& passages);

signals:
    // `error` is empty on success (no passage found: an empty list).
    void searched(quint64 request, const QList<documents::Passage>& passages, const QString& error);
    // `text`: the answer with the numbers added; `cited`: those numbers.
    void attributed(quint64 request, const QString& text, const QList<int>& cited, const QString& error);

private:
    QThread m_thread;
    RetrievalWorker* m_worker = nullptr; // lives on m_thread
    quint64 m_next = 0;
    std::atomic<bool> m_stale{true};
};

} // namespace documents

Q_DECLARE_METATYPE(documents::Passage)
