#include "chat/StreamBatcher.h"

StreamBatcher::StreamBatcher(int intervalMs, QObject* parent) : QObject(parent), m_intervalMs(intervalMs)
{
    m_timer.setSingleShot(true);
    m_timer.setTimerType(Qt::PreciseTimer);
    connect(&m_timer, &QTimer::timeout, this, &StreamBatcher::flush);
}

void StreamBatcher::push(const QString& piece)
{
    m_pending += piece;
    if (m_timer.isActive())
        return;
    const qint64 since = m_sinceFlush.isValid() ? m_sinceFlush.elapsed() : m_intervalMs;
    if (since >= m_intervalMs)
        flush();
    else
        m_timer.start(int(m_intervalMs - since));
}

void StreamBatcher::flush()
{
    m_timer.stop();
    if (m_pending.isEmpty())
        return;
    m_sinceFlush.start();
    ++m_batches;
    emit flushed(std::exchange(m_pending, QString()));
}
