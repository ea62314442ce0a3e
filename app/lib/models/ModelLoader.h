// The loaded model, as the views see it: loading with progress and
// cancellation, the model's facts, errors and warnings. Also starts the
// background SHA-256 of each loaded file (once per file version, cached)
// that provenance records.
//
// GUI thread; the load itself runs on the inference worker.
#pragma once

#include "engine/Replies.h"

#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QtQml/qqmlregistration.h>

#include <atomic>
#include <memory>

class InferenceService;
class ModelCache;
class SettingsStore;

class ModelLoader : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(Status status READ status NOTIFY statusChanged)
    Q_PROPERTY(bool loaded READ loaded NOTIFY statusChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY statusChanged)
    Q_PROPERTY(double progress READ progress NOTIFY progressChanged)
    Q_PROPERTY(QString modelPath READ modelPath NOTIFY modelChanged)
    Q_PROPERTY(QString modelName READ modelName NOTIFY modelChanged)
    Q_PROPERTY(QString summary READ summary NOTIFY modelChanged)
    Q_PROPERTY(QString warning READ warning NOTIFY modelChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    enum Status {
        Empty,
        Loading,
        Loaded,
        Failed
    };
    Q_ENUM(Status)

    ModelLoader(InferenceService* service, SettingsStore* settings, std::shared_ptr<ModelCache> cache,
                QObject* parent = nullptr);
    ~ModelLoader() override;

    Status status() const { return m_status; }
    bool loaded() const { return m_status == Loaded; }
    bool busy() const { return m_status == Loading; }
    double progress() const { return m_progress; }
    QString modelPath() const { return m_facts.path.isEmpty() ? m_loadingPath : m_facts.path; }
    QString modelName() const;
    QString summary() const;
    QString warning() const { return m_facts.warning; }
    QString error() const { return m_error; }
    const ModelFacts& facts() const { return m_facts; }
    // The loaded file's SHA-256, "" until computed.
    QString sha256() const { return m_sha256; }
    // The loaded model file's SHA-256 is being computed (never for a remote
    // model); false again once sha256() has it, or the hashing failed.
    bool hashing() const { return m_hashing; }

    Q_INVOKABLE void load(const QString& path);
    Q_INVOKABLE void cancel();
    Q_INVOKABLE void unload();
    // Loads the same file again (after a change of context size or threads).
    Q_INVOKABLE void reload();

signals:
    void statusChanged();
    void progressChanged();
    void modelChanged();
    void errorChanged();
    void sha256Known(const QString& path, const QString& sha256);

private:
    void setStatus(Status status);
    void setError(const QString& error);
    void startHashing(const QString& path);

    InferenceService* m_service;
    SettingsStore* m_settings;
    std::shared_ptr<ModelCache> m_cache;
    QPointer<LoadReply> m_reply;
    Status m_status = Empty;
    double m_progress = 0;
    QString m_loadingPath;
    ModelFacts m_facts;
    QString m_error;
    QString m_sha256;
    QFutureWatcher<QString> m_hashWatcher;
    bool m_hashing = false; // from the hash's start until its result is handled
    std::shared_ptr<std::atomic<bool>> m_hashCancel = std::make_shared<std::atomic<bool>>(false);
};
