// Indexing as a job queue on its own thread: collections are queued (by the
// user, by a rescan at start-up, by the folder watcher), run one at a time by
// an Indexer on the worker thread, and report progress (files done / total,
// chunks/s, ETA, the current file) and a finished report through queued
// signals. The worker opens its own database connection and embedding model,
// so chatting (the GUI thread, the inference worker) goes on meanwhile.
//
// Resumable: every finished document is committed; after a crash or a quit
// the next run of a collection skips them and continues. Paused, the worker
// waits between files; cancelled, it stops after the current embedding
// batch. Watched folders (the collections' sources) re-queue their
// collection 2 s after the last change (debounced).
//
// Thread-safety: the public slots and properties belong to the thread that
// created the job (the GUI's); the worker thread is private.
#pragma once

#include "documents/Indexer.h"

#include <QFileSystemWatcher>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <memory>

namespace documents {

class IndexWorker;

class IndexJob : public QObject {
    Q_OBJECT
    Q_PROPERTY(bool running READ running NOTIFY runningChanged)
    Q_PROPERTY(bool paused READ paused WRITE setPaused NOTIFY pausedChanged)

public:
    // `dbPath`: the database file; `modelPath`: the embedding model.
    IndexJob(QString dbPath, QString modelPath, QObject* parent = nullptr);
    ~IndexJob() override;

    bool running() const { return m_running; }
    bool paused() const { return m_pause.load(); }
    void setPaused(bool paused);

    // Queues the collection: once (a queued one is not queued twice); a
    // running one is queued to run again, for changes made since it started.
    Q_INVOKABLE void enqueue(qint64 collection);
    // Stops the running collection after its current batch and clears the queue.
    Q_INVOKABLE void cancel();
    // Watches the sources of these collections (folders recursively).
    void watch(const QList<qint64>& collections);

signals:
    void progress(qint64 collection, const documents::IndexProgress& p);
    void finished(qint64 collection, const documents::IndexReport& report);
    void failed(qint64 collection, const QString& message);
    void runningChanged();
    void pausedChanged();

private:
    void startNext();
    void onFinished(qint64 collection, const IndexReport& report);
    void onChanged(const QString& path);

    QThread m_thread;
    IndexWorker* m_worker = nullptr; // lives on m_thread
    QString m_dbPath;
    QList<qint64> m_queue;
    qint64 m_current = -1;
    bool m_running = false;
    std::atomic<bool> m_cancel{false}, m_pause{false};
    QFileSystemWatcher m_watcher;
    QTimer m_debounce;
    QHash<QString, qint64> m_watched; // folder -> collection
    QSet<qint64> m_changed;
};

} // namespace documents

Q_DECLARE_METATYPE(documents::IndexProgress)
Q_DECLARE_METATYPE(documents::IndexReport)
