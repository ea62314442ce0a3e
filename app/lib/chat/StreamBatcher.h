// Coalesces streamed pieces into batches so that the list model (and the
// database) receive text at most once per interval (~60 times a second by
// default), whatever the token rate. A piece arriving after a quiet spell
// goes out at once, so slow streams show no added latency.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

class StreamBatcher : public QObject {
    Q_OBJECT

public:
    explicit StreamBatcher(int intervalMs = 17, QObject* parent = nullptr);

    void push(const QString& piece);
    // Emits whatever is pending now (end of stream).
    void flush();
    bool hasPending() const { return !m_pending.isEmpty(); }
    int batches() const { return m_batches; }

signals:
    void flushed(const QString& text);

private:
    int m_intervalMs;
    QString m_pending;
    QElapsedTimer m_sinceFlush;
    QTimer m_timer;
    int m_batches = 0;
};
