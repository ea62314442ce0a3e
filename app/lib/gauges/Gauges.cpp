#include "gauges/Gauges.h"

#include "ui/Format.h"

QString Gauges::tokensPerSecondText() const
{
    return m_stats.generatedTokens > 0 ? tr("%1 tokens/s").arg(Format::rate(m_stats.tokensPerSecond())) : tr("–");
}

QString Gauges::promptSpeedText() const
{
    return m_stats.promptMs > 0 ? tr("%1 tokens/s").arg(Format::rate(m_stats.promptTokensPerSecond())) : tr("–");
}

QString Gauges::timeToFirstTokenText() const
{
    return Format::millis(m_stats.timeToFirstTokenMs);
}

QString Gauges::processMemoryText() const
{
    return Format::bytes(m_rss);
}

QString Gauges::weightsText() const
{
    if (m_engine.weightsMapped <= 0)
        return tr("–");
    return tr("%1 (%2 resident)").arg(Format::bytes(m_engine.weightsMapped), Format::bytes(m_engine.weightsResident));
}

QString Gauges::kvCacheText() const
{
    return m_engine.kvCache > 0 ? Format::bytes(m_engine.kvCache) : tr("–");
}

QString Gauges::gpuMemoryText() const
{
    if (!onGpu())
        return tr("–");
    return tr("%1 of %2").arg(Format::bytes(m_engine.gpuUsed), Format::bytes(m_engine.gpuTotal));
}

void Gauges::setContextSize(int tokens)
{
    m_contextSize = tokens;
    m_stats = {};
    emit statsChanged();
}

void Gauges::start()
{
    m_generating = true;
    const int used = m_stats.contextUsed;
    m_stats = {};
    m_stats.contextUsed = used;
    emit statsChanged();
}

void Gauges::update(const GenerationStats& stats)
{
    m_stats = stats;
    if (stats.contextSize > 0)
        m_contextSize = stats.contextSize;
    emit statsChanged();
}

void Gauges::finish(const GenerationStats& stats)
{
    m_generating = false;
    update(stats);
}

void Gauges::setDocumentTokens(int tokens)
{
    if (tokens != m_documentTokens) {
        m_documentTokens = tokens;
        emit statsChanged();
    }
}

void Gauges::setMemory(qint64 processResidentBytes, const MemoryFigures& engine)
{
    if (processResidentBytes == m_rss && engine == m_engine)
        return;
    m_rss = processResidentBytes;
    m_engine = engine;
    emit memoryChanged();
}
