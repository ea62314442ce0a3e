// Runs the Highlighter on a thread of its own so that highlighting never
// costs the GUI thread a frame. Requests are answered in order; each answer
// is delivered on the GUI thread to a callback, unless its receiver has been
// destroyed meanwhile. The highlighter is created on that thread on first use
// (Prism's start-up, ~40 ms, happens there too).
#pragma once

#include "highlight/Highlighter.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>

class HighlightWorker;

class HighlightService : public QObject {
    Q_OBJECT

public:
    using Callback = std::function<void(const QList<HighlightSpan>& spans)>;

    explicit HighlightService(QObject* parent = nullptr);
    ~HighlightService() override;

    // Highlights `code` as `language`; calls `done` on this (the GUI) thread
    // if `receiver` still exists then.
    void request(const QString& code, const QString& language, QObject* receiver, Callback done);
    // Requests not answered yet.
    int pending() const { return int(m_waiting.size()); }

signals:
    void idle(); // every request has been answered (tests)

private:
    struct Waiting {
        QPointer<QObject> receiver;
        Callback done;
    };
    void deliver(quint64 ticket, const QList<HighlightSpan>& spans);

    QThread m_thread;
    HighlightWorker* m_worker = nullptr;
    quint64 m_next = 1;
    QHash<quint64, Waiting> m_waiting;
};
