// Samples process memory and the engine's memory figures a few times a
// second on a thread of its own, so that reading /proc never costs the GUI
// thread; results arrive as a queued signal.
#pragma once

#include "engine/InferenceEngine.h"

#include <QObject>
#include <QThread>

#include <memory>

class ResourceSampler : public QObject {
    Q_OBJECT

public:
    // Starts sampling every `intervalMs`.
    explicit ResourceSampler(std::shared_ptr<InferenceEngine> engine, int intervalMs = 250, QObject* parent = nullptr);
    ~ResourceSampler() override;

signals:
    // Emitted on the GUI thread (queued from the sampling thread).
    void sampled(qint64 processResidentBytes, const MemoryFigures& engine);

private:
    QThread m_thread;
};
