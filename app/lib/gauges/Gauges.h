// Live figures for the gauge strip: generation speed while a reply streams
// (from the worker's periodic statistics), prompt speed, time to first
// token, the context meter with a notice when the context shifted, process
// memory, model weights, KV cache and, when layers are on a GPU, its
// memory in use (from ResourceSampler). Raw numbers for
// bars, display strings for labels. GUI thread.
#pragma once

#include "engine/EngineTypes.h"

#include <QObject>
#include <QtQml/qqmlregistration.h>

#include <algorithm>

class Gauges : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_UNCREATABLE("Owned by the session")
    Q_PROPERTY(bool generating READ generating NOTIFY statsChanged)
    Q_PROPERTY(double tokensPerSecond READ tokensPerSecond NOTIFY statsChanged)
    Q_PROPERTY(QString tokensPerSecondText READ tokensPerSecondText NOTIFY statsChanged)
    Q_PROPERTY(QString promptSpeedText READ promptSpeedText NOTIFY statsChanged)
    Q_PROPERTY(QString timeToFirstTokenText READ timeToFirstTokenText NOTIFY statsChanged)
    Q_PROPERTY(int contextUsed READ contextUsed NOTIFY statsChanged)
    Q_PROPERTY(int contextSize READ contextSize NOTIFY statsChanged)
    Q_PROPERTY(double contextFraction READ contextFraction NOTIFY statsChanged)
    Q_PROPERTY(bool contextShifted READ contextShifted NOTIFY statsChanged)
    // The share of the context the documents' passages take (0: none).
    Q_PROPERTY(int documentTokens READ documentTokens NOTIFY statsChanged)
    Q_PROPERTY(double documentFraction READ documentFraction NOTIFY statsChanged)
    Q_PROPERTY(QString processMemoryText READ processMemoryText NOTIFY memoryChanged)
    Q_PROPERTY(QString weightsText READ weightsText NOTIFY memoryChanged)
    Q_PROPERTY(QString kvCacheText READ kvCacheText NOTIFY memoryChanged)
    Q_PROPERTY(bool onGpu READ onGpu NOTIFY memoryChanged)
    Q_PROPERTY(QString gpuMemoryText READ gpuMemoryText NOTIFY memoryChanged)
    Q_PROPERTY(double gpuMemoryFraction READ gpuMemoryFraction NOTIFY memoryChanged)
    Q_PROPERTY(qint64 processMemoryBytes READ processMemoryBytes NOTIFY memoryChanged)

public:
    using QObject::QObject;

    bool generating() const { return m_generating; }
    double tokensPerSecond() const { return m_stats.tokensPerSecond(); }
    QString tokensPerSecondText() const;
    QString promptSpeedText() const;
    QString timeToFirstTokenText() const;
    int contextUsed() const { return m_stats.contextUsed; }
    int contextSize() const { return m_contextSize; }
    double contextFraction() const { return m_contextSize > 0 ? double(m_stats.contextUsed) / m_contextSize : 0; }
    bool contextShifted() const { return m_stats.contextShifts > 0; }
    int documentTokens() const { return m_documentTokens; }
    double documentFraction() const
    {
        return m_contextSize > 0 ? std::min(1.0, double(m_documentTokens) / m_contextSize) : 0;
    }
    QString processMemoryText() const;
    QString weightsText() const;
    QString kvCacheText() const;
    bool onGpu() const { return m_engine.gpuTotal > 0; }
    QString gpuMemoryText() const; // "1.2 GB of 8 GB": the model's bytes on the GPU, of its memory
    double gpuMemoryFraction() const { return onGpu() ? double(m_engine.gpuUsed) / double(m_engine.gpuTotal) : 0; }
    qint64 processMemoryBytes() const { return m_rss; }

    void setContextSize(int tokens);
    void start();                              // a reply starts
    void update(const GenerationStats& stats); // live statistics
    void finish(const GenerationStats& stats); // final statistics
    void setMemory(qint64 processResidentBytes, const MemoryFigures& engine);
    void setDocumentTokens(int tokens); // the passages of the reply shown

signals:
    void statsChanged();
    void memoryChanged();

private:
    bool m_generating = false;
    int m_contextSize = 0;
    int m_documentTokens = 0;
    GenerationStats m_stats;
    qint64 m_rss = 0;
    MemoryFigures m_engine;
};
