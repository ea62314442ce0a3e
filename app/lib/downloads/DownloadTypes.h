// What a download is (DownloadSpec) and how it stands (DownloadInfo): value
// types that cross threads by copy (the download manager runs on its own
// thread in the app; the views hold snapshots).
#pragma once

#include "HubClient.h"
#include "HubTypes.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

// One model to download: a file or every part of a split set, into `folder`.
struct DownloadSpec {
    QString repo;
    QString revision = QStringLiteral("main");
    QString name;  // the model's file (the first part's path in the repository)
    QString quant; // "Q4_K_M", "" when unknown
    QList<HubFile> parts;
    QString folder; // where the files go: <models folder>/<owner>/<repo>

    // Where part `i` is placed once verified: folder/<its file name>.
    QString targetPath(int i) const;
    qint64 totalBytes() const;
    // The key that makes two requests for the same file one download.
    QString id() const { return targetPath(0); }

    QJsonObject toJson() const;
    static DownloadSpec fromJson(const QJsonObject& o);
};

struct DownloadInfo {
    enum class State {
        Queued,    // waiting for a free slot (or for its retry)
        Preparing, // checking disk space, hashing what an earlier run left
        Running,
        Paused,
        Verifying,
        Done,
        Failed,
    };

    QString id;
    DownloadSpec spec;
    State state = State::Queued;
    qint64 received = 0; // bytes on disk, all parts
    qint64 total = 0;
    double bytesPerSecond = 0; // over the last few seconds; 0 when idle
    qint64 etaSeconds = -1;    // -1: unknown
    int retries = 0;           // automatic resumes after drops so far
    HubError error;            // why it failed (state Failed)
    QString path;              // the model file (first part) once Done

    bool active() const
    {
        return state == State::Queued || state == State::Preparing || state == State::Running ||
               state == State::Verifying;
    }
    static QString stateName(State s);
};

Q_DECLARE_METATYPE(DownloadInfo)
