// Reply objects of the inference service: one per request, living on the
// GUI thread. The worker's results reach them through queued signals, so
// their signals are always emitted on the GUI thread. A reply deletes itself
// (deleteLater) after its last signal (finished / failed); hold it in a
// QPointer if you keep it.
#pragma once

#include "engine/EngineTypes.h"

#include <QObject>

#include <atomic>
#include <memory>

using CancelFlag = std::shared_ptr<std::atomic<bool>>;

class LoadReply : public QObject {
    Q_OBJECT

public:
    explicit LoadReply(QString path, QObject* parent = nullptr) : QObject(parent), m_path(std::move(path)) {}
    const QString& path() const { return m_path; }
    // Asks the worker to stop loading; `failed(…, true)` follows.
    void cancel() { m_cancel->store(true); }
    const CancelFlag& cancelFlag() const { return m_cancel; }

signals:
    void progress(double fraction);
    void finished(const ModelFacts& facts);
    void failed(const QString& message, bool cancelled);

private:
    QString m_path;
    CancelFlag m_cancel = std::make_shared<std::atomic<bool>>(false);
};

class GenerationReply : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;
    // Asks the engine to stop within one token; `finished` follows with
    // stop reason Stopped and everything generated so far.
    void stop() { m_stop->store(true); }
    const CancelFlag& stopFlag() const { return m_stop; }

signals:
    void pieceReceived(const QString& piece);
    void statsUpdated(const GenerationStats& stats); // a few times a second
    void finished(const GenerationStats& stats);
    void failed(const QString& message);

private:
    CancelFlag m_stop = std::make_shared<std::atomic<bool>>(false);
};
