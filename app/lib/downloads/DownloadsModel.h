// The downloads list for the views. The download manager (and its own hub
// client) runs on a thread of its own, so writing and hashing never touch
// the GUI thread; this model keeps snapshots (DownloadInfo) that arrive by
// queued signals, one row per download, found by id.
//
// The list is saved in <folder>/.hearth-downloads.json, so it survives a
// relaunch (what was running starts again).
//
// Thread-safety: GUI thread only.
#pragma once

#include "DownloadTypes.h"

#include <QAbstractListModel>
#include <QThread>
#include <QtQml/qqmlregistration.h>

class DownloadManager;

class DownloadsModel : public QAbstractListModel {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(int count READ rowCount NOTIFY countChanged)
    Q_PROPERTY(int active READ active NOTIFY activeChanged)

public:
    enum Role {
        IdRole = Qt::UserRole + 1, // the model file's path (first part)
        NameRole,                  // the file's name in the repository
        RepoRole,
        StateRole,    // "queued", "preparing", "downloading", "paused", "verifying", "done", "failed"
        ProgressRole, // 0..1
        ReceivedRole,
        TotalRole,
        SpeedRole, // bytes per second
        EtaRole,   // seconds, -1 unknown
        ErrorRole, // a sentence when failed
        PathRole,  // the model file once done
    };
    Q_ENUM(Role)

    explicit DownloadsModel(QObject* parent = nullptr);
    ~DownloadsModel() override;

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;
    int active() const;

    // Where new downloads go (default: the models folder).
    QString folder() const { return m_folder; }
    void start(DownloadSpec spec);
    void setToken(const QString& token);
    Q_INVOKABLE void pause(const QString& id);
    Q_INVOKABLE void resume(const QString& id);
    Q_INVOKABLE void cancel(const QString& id);
    Q_INVOKABLE void forget(const QString& id);

signals:
    void countChanged();
    void activeChanged();
    // A model file arrived, verified, at `path`.
    void modelArrived(const QString& path);

private:
    void onChanged(const DownloadInfo& info);
    void onRemoved(const QString& id);
    int rowOf(const QString& id) const;

    QThread m_thread;
    DownloadManager* m_manager = nullptr; // lives on m_thread
    QString m_folder;
    QList<DownloadInfo> m_rows;
};
