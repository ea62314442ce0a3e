// Downloads model files from the hub into the models folder.
//
// Each file arrives in FILE.part beside its final place (with FILE.part.json
// saying which hub object it is), resumes with an HTTP Range request after a
// drop (automatically, a few times, in this process) or after a relaunch
// (from the .part left on disk), and is hashed while it arrives. Only when
// every part of a model has arrived and matched the hub's LFS SHA-256 are the
// parts renamed into place, so the model library never sees a half-written
// or unverified file. A mismatch deletes what was downloaded. The free disk
// space is checked before the first byte. At most maxConcurrent() downloads
// run at once; the rest wait. Asking for a file that is already being
// downloaded (in this process, or by another Hearth process: a lock file)
// joins that download instead of starting a second one.
//
// The list (with each download's state) is kept in stateFile() when one is
// set, so it survives a relaunch: what was running or queued starts again.
//
// Progress reaches listeners through changed() at most 10 times a second per
// download, with speed and ETA; state changes are reported at once.
//
// Thread-safety: use from one thread (its own, in the app). Per-byte work
// (writing, hashing) runs on that thread; hashing what an earlier run left
// runs in the thread pool.
#pragma once

#include "DownloadTypes.h"

#include <QObject>

#include <functional>
#include <map>
#include <memory>

class QFileDevice;

class DownloadManager : public QObject {
    Q_OBJECT

public:
    // Bytes free for files in `folder`; -1 when unknown (not checked).
    using FreeSpace = std::function<qint64(const QString& folder)>;
    // Opens a .part file for appending (tests inject a device that fails).
    using SinkFactory = std::function<std::unique_ptr<QFileDevice>(const QString& path)>;

    explicit DownloadManager(HubClient* hub, QObject* parent = nullptr);
    ~DownloadManager() override;

    HubClient* hub() const { return m_hub; }
    int maxConcurrent() const { return m_maxConcurrent; }
    void setMaxConcurrent(int n);
    // Automatic resumes after a drop with no progress in between (default 5).
    void setMaxRetries(int n) { m_maxRetries = n; }
    void setRetryDelayMs(int ms) { m_retryDelayMs = ms; }
    void setFreeSpace(FreeSpace f) { m_freeSpace = std::move(f); }
    void setSinkFactory(SinkFactory f) { m_sinkFactory = std::move(f); }

    QString stateFile() const { return m_stateFile; }
    // Reads the list saved there by an earlier run (if any) and resumes what
    // was running or queued; from then on every state change is saved.
    void setStateFile(const QString& path);

    // Starts (or joins) a download; returns its id.
    QString start(const DownloadSpec& spec);
    void pause(const QString& id);
    void resume(const QString& id);
    // Stops and deletes what was downloaded; the entry leaves the list.
    void cancel(const QString& id);
    // Removes a finished or failed entry from the list (files stay).
    void forget(const QString& id);

    QList<DownloadInfo> downloads() const;
    DownloadInfo info(const QString& id) const;

signals:
    void changed(const DownloadInfo& info);
    void removed(const QString& id);
    // The download reached Done or Failed.
    void finished(const DownloadInfo& info);

private:
    struct Task;

    void schedule();
    void begin(Task& t);
    void startPart(Task& t);
    void request(Task& t, qint64 from);
    void send(Task& t, const QUrl& url);
    void onData(Task& t);
    void onFinished(Task& t);
    void finishPart(Task& t);
    void commit(Task& t);
    void fail(Task& t, const HubError& error, bool deleteParts);
    void retryOrFail(Task& t, const HubError& error);
    void stopTransfer(Task& t);
    void deleteParts(const Task& t);
    void setState(Task& t, DownloadInfo::State state);
    void report(Task& t, bool force);
    void save() const;
    void load();
    Task* find(const QString& id) const;

    HubClient* m_hub;
    std::map<QString, std::unique_ptr<Task>> m_tasks;
    QList<QString> m_order; // ids, oldest first
    int m_maxConcurrent = 2;
    int m_maxRetries = 5;
    int m_retryDelayMs = 1000;
    FreeSpace m_freeSpace;
    SinkFactory m_sinkFactory;
    QString m_stateFile;
};
